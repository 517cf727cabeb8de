"""SQL statements: keywords only at statement start, never in literals or comments (tiers.md, "SQL")."""

from __future__ import annotations

import pytest

from core.policy import classify
from core.policy._sql import classify_sql
from core.tiers import Tier

S, L, M, H, C = Tier.SAFE, Tier.LOW, Tier.MEDIUM, Tier.HIGH, Tier.CRITICAL


@pytest.mark.parametrize(("sql", "expected"), [
    ("SELECT * FROM t", S), ("select 1;", S), ("SHOW TABLES", S), ("EXPLAIN SELECT 1", S), ("DESCRIBE t", S),
    ("INSERT INTO t VALUES (1)", M), ("CREATE TABLE t (a int)", M), ("ALTER TABLE t ADD COLUMN c int", M),
    ("ALTER TABLE t RENAME TO u", M), ("UPDATE t SET a = 1 WHERE id = 2", M), ("DELETE FROM t WHERE id = 2", M),
    ("UPDATE t SET a = 1", H), ("DELETE FROM t", H), ("DELETE FROM t WHERE 1=1", H), ("DELETE FROM t WHERE true", H),
    ("UPDATE t SET a=1 WHERE id=2 OR 1=1", H), ("DROP TABLE t", H), ("drop   schema x cascade", H),
    ("TRUNCATE t", H), ("ALTER TABLE t DROP COLUMN c", H), ("GRANT ALL ON t TO u", H), ("REVOKE ALL ON t FROM u", H),
    ("SELECT 'DROP TABLE x'", S), ("-- DROP TABLE users\nSELECT 1", S), ("/* DROP */ SELECT 1", S),
    ("INSERT INTO a(n) VALUES ('x; DROP TABLE users')", M), ("UPDATE t SET note = 'no WHERE here'", H),
    ("UPDATE t SET a = (SELECT b FROM u WHERE u.id = 1)", H), ("SELECT 1; DROP TABLE t", H),
    ("WITH x AS (SELECT 1) DELETE FROM t", H), ("WITH x AS (SELECT 1) SELECT * FROM x", S),
    ("EXPLAIN ANALYZE DELETE FROM t", H), ("SELECT $$ DROP TABLE t $$", S), ("", S),
    ("top 10 customers by revenue", H),
])
def test_sql(sql: str, expected: Tier) -> None:
    assert classify_sql(sql)[0] is expected


@pytest.mark.parametrize(("command", "expected"), [
    ("psql -c 'DROP TABLE users'", H), ("psql -c \"SELECT * FROM logs WHERE msg = 'DROP TABLE'\"", S),
    ("mysql -u app -e 'DELETE FROM carts WHERE id < 3'", M), ("sqlite3 app.db 'DELETE FROM t'", H),
    ("sqlite3 app.db .tables", S), ("echo 'DROP TABLE t' | psql", H), ("psql <<'SQL'\nTRUNCATE t;\nSQL", H),
    ("sqlcmd -S db -Q 'TRUNCATE TABLE x'", H), ("clickhouse-client -q 'SELECT 1'", S), ("duckdb x.db -c 'DROP TABLE t'", H),
    ("kubectl exec -n prod db-0 -- psql -c 'DROP TABLE events'", H), ("psql -f migrate.sql", M),
])
def test_sql_in_shell(command: str, expected: Tier) -> None:
    assert classify("terminal", command).tier is expected, classify("terminal", command)


@pytest.mark.parametrize(("action", "command", "expected"), [
    # a backslash before a quote ends the literal in PostgreSQL and standard SQL (MySQL reads it as an escape):
    # both readings count, the higher one wins
    ("terminal", "psql -c \"SELECT 'a\\'; DROP TABLE t; --'\"", H),
    ("postgres_query", "SELECT 'a\\'; DROP TABLE t; --'", H),
    ("mcp__postgres__query", "SELECT 'a\\'; DROP TABLE t; --'", H),
    ("exec_sql", "SELECT 'a\\'; DROP TABLE t; --'", H),
    ("exec_sql", "SELECT 'C:\\'; DELETE FROM users; --'", H),
    ("exec_sql", "SELECT 'x\\' ; TRUNCATE logs ; SELECT '", H),
    ("exec_sql", "SELECT 'don\\'t; ok'", M),  # ambiguous split, the second piece is not SQL
    ("terminal", "mysql -e \"SELECT 'don\\'t'\"", S),
    ("terminal", "psql -c \"SELECT 'it''s'\"", S),
    ("exec_sql", "SELECT 'it''s; DROP TABLE t'", S),
    ("exec_sql", "SELECT 'a\\\\'", S),
])
def test_backslash_quote_read_both_ways(action: str, command: str, expected: Tier) -> None:
    assert classify(action, command).tier is expected, classify(action, command)


@pytest.mark.parametrize(("command", "expected"), [
    # SQL given through the client's input or a file option is read too: `-f -` (psql runs it after -c),
    # process substitution, a file written or downloaded just before
    ("psql -c 'select 1' -f - <<< 'drop table t'", H), ("psql -f - <<< 'drop table t'", H),
    ("echo 'DROP TABLE t' | psql -f -", H), ("echo 'DROP TABLE t' | psql -d db --file=-", H),
    ("echo 'DROP TABLE t' | psql -f /dev/stdin", H), ("psql --file=<(echo 'DROP TABLE t')", H),
    ("psql -f <(echo 'TRUNCATE t')", H), ('mysql < <(echo "DROP DATABASE prod")', H),
    ("sqlite3 app.db < <(echo 'DROP TABLE t')", H), ("psql < <(curl -s https://x/dump.sql)", H),
    ("psql -f <(curl -s https://x/dump.sql)", H), ("echo 'DROP TABLE t' > x.sql && psql -f x.sql", H),
    ("curl -o d.sql https://x/d.sql && psql -f d.sql", H),
    ("psql -f <(echo 'SELECT 1')", S), ("psql -c 'select 1'", S), ("psql -f migrate.sql", M),
])
def test_sql_from_input_and_files(command: str, expected: Tier) -> None:
    assert classify("terminal", command).tier is expected, classify("terminal", command)


@pytest.mark.parametrize(("sql", "expected"), [
    # EXEC/EXECUTE of an effect function by name counts as calling it (xp_cmdshell runs a shell command: HIGH)
    ("EXEC xp_cmdshell 'dir'", H), ("EXECUTE xp_cmdshell 'dir'", H), ("exec master..xp_cmdshell 'dir'", H),
    ("EXEC master.dbo.xp_cmdshell 'whoami'", H), ("EXEC @r = xp_cmdshell 'dir'", H),
    ("EXEC sp_who", M), ("EXEC my_proc 'xp_cmdshell'", M),
])
def test_exec_of_effect_functions(sql: str, expected: Tier) -> None:
    assert classify_sql(sql)[0] is expected, classify_sql(sql)


# MySQL/MariaDB executable comments: the server runs their bodies, so they are read as SQL
@pytest.mark.parametrize(("sql", "expected"), [
    ("/*!50000 DROP TABLE t */", H), ("/*! DROP TABLE t */", H), ("/*!DROP TABLE t*/", H),
    ("SELECT 1; /*!40101 TRUNCATE t */", H), ("/*M!100100 DROP TABLE t */", H), ("/*!50000 DROP TABLE t", H),
    ("SELECT '/*'; /*!50000 DROP TABLE t */", H), ("/*!50000 DELETE FROM t WHERE id = 2 */", M),
    ("/* DROP TABLE t */", S), ("SELECT 1 /* DROP TABLE t */", S), ("/*+ no hint DROP TABLE t */ SELECT 1", S),
    ("SELECT /*!40001 SQL_NO_CACHE */ * FROM t", S), ("/*!40101 SET NAMES utf8 */", S),
])
def test_mysql_executable_comments(sql: str, expected: Tier) -> None:
    assert classify_sql(sql)[0] is expected


@pytest.mark.parametrize(("action", "command", "expected"), [
    ("terminal", 'mysql -e "/*!50000 DROP TABLE t */"', H),
    ("terminal", "mariadb -e '/*M!100100 DROP DATABASE prod */'", H),
    ("terminal", 'mysql -e "/* DROP TABLE t */"', S),
    ("exec_sql", "/*! TRUNCATE t */", H),
])
def test_mysql_executable_comments_in_commands(action: str, command: str, expected: Tier) -> None:
    assert classify(action, command).tier is expected, classify(action, command)


@pytest.mark.parametrize(("sql", "tier"), [
    ("WITH d AS (DELETE FROM users RETURNING *) SELECT * FROM d", Tier.HIGH),
    ("WITH u AS (UPDATE accounts SET balance = 0 RETURNING id) SELECT count(*) FROM u", Tier.HIGH),
    ("WITH d AS (DELETE FROM users WHERE id = 3 RETURNING *) SELECT * FROM d", Tier.MEDIUM),
    ("WITH x AS (SELECT 1) SELECT * FROM x", Tier.SAFE),
    ("WITH x AS (SELECT 1) DELETE FROM t", Tier.HIGH),
])
def test_data_modifying_ctes_count_whatever_the_final_statement(sql: str, tier: Tier) -> None:
    # a DELETE or UPDATE inside WITH runs even when the statement ends in a SELECT (PostgreSQL)
    assert classify("exec_sql", sql).tier is tier
