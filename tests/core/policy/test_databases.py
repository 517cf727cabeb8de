"""Command tier: the databases family (``core/policy/shell/families/databases.py``): SQL clients, redis, mongo, the
programs that drop or change a database, and SQL given to database actions.

Each row is ``(action, command, tier)``: the tier ``classify(action, command)`` must give. A row lives in
the file of the family whose handler reads the command (its outermost one: ``bash -c 'rm -rf /'`` is
the interpreters family's, ``sudo rm -rf /`` the files family's); rows no handler decides are in
test_walker, test_dispatch, test_options, test_secrets and test_actions.
"""

from __future__ import annotations

import pytest

from core.policy import classify
from core.tiers import Tier

S, L, M, H, C = Tier.SAFE, Tier.LOW, Tier.MEDIUM, Tier.HIGH, Tier.CRITICAL

CASES = [
    # found while hardening the classifier (a prompt-injected agent's tricks), with their over-flag checks
    ('terminal', "psql -c 'DROP TABLE users'", H),
    ('terminal', "psql -c 'drop table users'", H),
    ('terminal', "psql -c '/* x */ DROP TABLE users'", H),
    ('terminal', "psql -c '-- c\nDROP TABLE users'", H),
    ('terminal', "psql -c 'SELECT 1; DROP TABLE users'", H),
    ('terminal', 'psql -c "SELECT \'a;\'; DELETE FROM users"', H),
    ('terminal', "psql -c 'DELETE FROM users WHERE 1=1'", H),
    ('terminal', "psql -c 'DELETE FROM users WHERE true'", H),
    ('terminal', 'psql -c "DELETE FROM users WHERE \'a\'=\'a\'"', H),
    ('terminal', "psql -c 'DELETE FROM users WHERE id=id'", H),
    ('terminal', "psql -c 'DELETE FROM users WHERE 1'", H),
    ('terminal', "psql -c 'DELETE FROM users WHERE 2>1'", H),
    ('terminal', "psql -c 'DELETE FROM users WHERE id > 0 OR 1=1'", H),
    ('terminal', "psql -c 'UPDATE users SET a=1 WHERE 1=1 -- x'", H),
    ('terminal', "psql -c 'delete from users'", H),
    ('terminal', "psql -c 'TRUNCATE users'", H),
    ('terminal', "psql -c 'ALTER TABLE u DROP COLUMN x'", H),
    ('terminal', "psql -c 'GRANT ALL ON x TO y'", H),
    ('terminal', "psql -c 'WITH x AS (SELECT 1) DELETE FROM users'", H),
    ('terminal', "psql -c 'EXPLAIN ANALYZE DELETE FROM users'", H),
    ('terminal', "psql -c 'BEGIN; DROP TABLE u; COMMIT'", H),
    ('terminal', "mysql -e 'DROP DATABASE prod'", H),
    ('terminal', "mysql -uroot -pX -e 'DROP DATABASE prod'", H),
    ('terminal', "mysql --execute='DROP TABLE x'", H),
    ('terminal', "mariadb -e 'drop table x'", H),
    ('terminal', "sqlite3 db.sqlite 'DROP TABLE x'", H),
    ('terminal', "sqlite3 db 'DELETE FROM t'", H),
    ('terminal', "duckdb x.db -c 'DROP TABLE x'", H),
    ('terminal', "sqlcmd -Q 'DROP TABLE x'", H),
    ('terminal', "clickhouse-client -q 'DROP TABLE x'", H),
    ('terminal', "clickhouse-client --query 'DROP TABLE x'", H),
    ('terminal', "echo 'DROP TABLE x' | psql", H),
    ('terminal', "psql <<< 'DROP TABLE x'", H),
    ('terminal', 'psql <<EOF\nDROP TABLE x;\nEOF', H),
    ('terminal', 'psql -d prod -f drop.sql', M),
    ('terminal', "psql --command='DROP TABLE x'", H),
    ('terminal', "psql -c 'DR/**/OP TABLE x'", H),
    ('terminal', 'psql -c "SELECT \'DROP TABLE x\'"', S),
    ('terminal', "psql -c 'SELECT 1 -- DROP TABLE x'", S),
    ('terminal', "psql -c 'CREATE TABLE x (a int)'", M),
    ('terminal', "psql -c 'INSERT INTO x VALUES (1)'", M),
    ('terminal', "psql -c 'DELETE FROM x WHERE id = 5'", M),
    ('terminal', "psql -c 'SELECT pg_terminate_backend(1)'", M),
    ('terminal', 'psql -c "COPY x TO PROGRAM \'rm -rf /\'"', C),
    ('terminal', 'psql -c \'SELECT * FROM x INTO OUTFILE "/etc/x"\'', M),
    ('terminal', "mysql -e 'SET GLOBAL x=1'", M),
    ('terminal', "psql -c 'DROP TABLE IF EXISTS x'", H),
    ('terminal', "psql -c 'drop\ttable x'", H),
    ('terminal', "psql -c '\\! rm -rf /'", C),
    ('terminal', "mysql -e 'system rm -rf /'", C),
    ('terminal', "sqlite3 x '.shell rm -rf /'", C),
    ('terminal', "sqlite3 x '.system reboot'", C),
    ('terminal', "psql -c 'UPDATE users SET admin=true'", H),
    ('terminal', 'psql -c "UPDATE users SET a=1 WHERE name = \'x\' OR \'a\'=\'a\'"', H),
    ('terminal', "psql -c 'REVOKE ALL ON x FROM y'", H),
    ('terminal', "psql -c 'DELETE FROM users WHERE NOT false'", H),
    ('terminal', "psql -c 'DELETE FROM users WHERE 1 = 1'", H),
    ('terminal', "psql -c 'DELETE FROM users WHERE (1=1)'", H),
    ('terminal', "psql -c 'DELETE FROM users WHERE id IS NOT NULL'", M),
    ('terminal', "psql -c 'DROP SCHEMA public CASCADE'", H),
    ('terminal', "psql -c 'DROP OWNED BY x'", H),
    ('terminal', "psql -c 'VACUUM FULL'", L),
    ('terminal', "psql -c 'REINDEX DATABASE x'", L),
    ('terminal', "psql -c 'SELECT 1'", S),
    ('exec_sql', 'DROP TABLE users', H),
    ('mcp__postgres__query', 'drop table users', H),
    ('runQuery', 'DROP TABLE users', H),
    ('run_query', 'DROP TABLE users', H),
    ('execute_query', 'DROP TABLE users', H),
    ('query', 'DROP TABLE users', H),
    ('mcp__supabase__execute_sql', 'DROP TABLE users', H),
    ('executeSql', 'DROP TABLE users', H),
    ('sqlQuery', 'DROP TABLE users', H),
    ('terminal', "psql -c 'SELECT count(*) FROM users WHERE id > 3'", S),
    ('terminal', 'psql -c "SELECT now()"', S),
    ('terminal', "mysql -e 'SHOW TABLES'", S),
    ('terminal', "sqlite3 db '.tables'", S),
    ('terminal', 'sqlite3 db .schema', S),
    ('terminal', "psql -c '\\dt'", S),
    ('mcp__postgres__query', 'SELECT 1', S),
    # red team 3, clear cases of tiers.md left after the three fix branches
    ('terminal', 'createuser --superuser evil', H),
    ('terminal', 'createuser bob', M),
    ('terminal', 'pg_restore --clean --if-exists -d production dump.sql', H),
    ('terminal', 'pg_restore -d app backup.dump', M),
    ('terminal', 'pg_dropcluster 14 main --stop', H),
    # PostgreSQL's dropdb/dropuser drop a database or a role like SQL DROP DATABASE (table DB_DROPPERS): HIGH;
    # createdb/createuser create one like SQL CREATE (MEDIUM; a superuser like GRANT: HIGH), help text is SAFE
    ('terminal', 'dropdb staging', H),
    ('terminal', 'dropdb -h db prod', H),
    ('terminal', 'dropdb --if-exists -U postgres app_test', H),
    ('terminal', 'sudo -u postgres dropdb app', H),
    ('terminal', 'dropuser x', H),
    ('terminal', 'createdb x', M),
    ('terminal', 'createuser x', M),
    # an option's value read as the subcommand: global options (table GLOBAL_OPTS) are read first, and an
    # unknown option followed by a word counts both ways (the higher tier decides)
    ('terminal', 'redis-cli --unknown-opt get FLUSHALL', H),
    ('terminal', 'bq --project_id ls rm -r ds', H),
    # service control, database server admin, firewall, D-Bus power calls
    ('terminal', "cqlsh -e 'DROP KEYSPACE prod'", H),
    ('terminal', "cqlsh -e 'SELECT * FROM ks.t'", S),
    # red team 3, smaller spec gaps: an octal mode after `=`/`+` is world-writable like 777; setuid is HIGH,
    # setgid MEDIUM (choice); builds that push publish; glab reads like gh; rpm -i/-U/-e installs; inline code
    # of bun, ipython, irb and gdb -ex; systemd power targets reached now are power operations; role privileges
    # in ALTER/CREATE ROLE are grants; COPY … PROGRAM with dollar quoting
    ('terminal', "psql -c 'ALTER USER app WITH SUPERUSER'", H),
    ('terminal', "psql -c \"ALTER ROLE app PASSWORD 'x'\"", H),
    ('terminal', "mysql -e \"ALTER USER root IDENTIFIED BY 'x'\"", H),
    ('terminal', "psql -c 'ALTER ROLE app SET search_path = x'", M),
    ('terminal', "psql -c 'CREATE ROLE reader'", M),
    ('terminal', "psql -c 'COPY users TO PROGRAM $$rm -rf /$$'", C),
]


@pytest.mark.parametrize(("action", "command", "expected"), CASES)
def test_databases(action: str, command: str, expected: Tier) -> None:
    got = classify(action, command)
    assert got.tier is expected, (action, command, got)
