"""Database client programs: SQL clients (their SQL is read by :mod:`core.policy._sql`), programs that drop
or change a database.

To add a rule: add the program to its table. Test it in ``tests/core/policy/test_databases.py``.
"""

from __future__ import annotations

SQL_CLIENTS = frozenset(("psql", "mysql", "mariadb", "sqlite3", "sqlite", "duckdb", "sqlcmd", "clickhouse-client",
                         "clickhouse", "cockroach", "snowsql", "bq", "usql", "pgcli", "mycli", "litecli", "trino",
                         "presto", "spark-sql", "hive", "beeline", "isql", "osql", "db2", "sqlplus", "vsql",
                         "cqlsh"))
#: database server client programs that drop a database or a role (like SQL ``DROP DATABASE``/``DROP ROLE``):
#: program -> what it drops; ``createdb``/``createuser`` keep the default (LOW)
DB_DROPPERS = {"dropdb": "a database", "dropuser": "a database role", "pg_dropcluster": "a PostgreSQL cluster"}
#: PostgreSQL client tools that change a database: program -> (options that make it HIGH, what they do, what the
#: tool does otherwise: MEDIUM)
DB_CHANGERS = {
    "createuser": (frozenset(("-s", "--superuser", "--createrole", "--replication")),
                   "creates a superuser or privileged role, like GRANT", "creates a database role, like SQL CREATE"),
    "pg_restore": (frozenset(("-c", "--clean")), "drops database objects before restoring, like DROP",
                   "restores into a database"),
    "createdb": (frozenset(), "", "creates a database, like SQL CREATE"),
}
