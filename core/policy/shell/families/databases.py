"""Database clients: SQL clients (their SQL read by :mod:`core.policy._sql`, from options, files, the input or
``<(cmd)``), ``redis-cli``, ``mongo``, and the programs that drop or change a database (``dropdb``,
``createuser``, ``pg_restore``).

To add a rule: add the program's handler here (signature ``(r, prog, args, metas, ctx, acc, stdin)``: ``r`` the
reader, ``args`` the words after the program, ``metas`` what each word's substitutions printed, ``acc`` the
verdict to raise, ``stdin`` the pipeline value it reads; it returns what it prints) and its programs to
``HANDLERS`` at the end, or a row to its table in :mod:`core.policy.tables`; test it in
``tests/core/policy/test_databases.py``. A handler of another family is called through the registry
(``r.call("h_name", …)``), never imported.
"""

from __future__ import annotations

from core.policy import _paths as P
from core.policy import tables as T
from core.policy._sql import classify_sql, sql_shell_commands
from core.policy.shell.families import handlers
from core.policy.shell.options import getopts
from core.policy.shell.state import DECODED, DOWNLOAD, MARK, OTHER, ProcOutput, TextInput, is_downloaded
from core.tiers import Tier

S, L, M, H, C = Tier.SAFE, Tier.LOW, Tier.MEDIUM, Tier.HIGH, Tier.CRITICAL


def h_redis(r, prog, args, metas, ctx, acc, stdin):
    """``redis-cli CMD``: FLUSHALL/FLUSHDB/SHUTDOWN and CONFIG SET HIGH, reads SAFE, other commands MEDIUM (writes)."""
    o = getopts(args, frozenset("hpanurs"), frozenset(("--user", "--pass", "--tls", "--cacert")), stop_at_pos=True)
    cmd = o.pos[0].upper() if o.pos else ""
    if not cmd and any(a in _NO_SESSION for a in args):
        acc.add(S, "shell.redis.read", f"{prog} {next(a for a in args if a in _NO_SESSION)} (reads)")
    elif not cmd:
        acc.add(M, "shell.redis", f"interactive {prog}: it runs whatever it is fed later")
    elif cmd in ("FLUSHALL", "FLUSHDB", "SHUTDOWN", "DEBUG", "SWAPDB"):
        acc.add(H, "shell.redis.flush", f"redis {cmd} (deletes every key)")
    elif cmd == "CONFIG" and len(o.pos) > 1 and o.pos[1].upper() == "SET":
        acc.add(H, "shell.redis.config", "redis CONFIG SET")
    elif cmd in ("GET", "MGET", "KEYS", "SCAN", "INFO", "PING", "TTL", "PTTL", "TYPE", "EXISTS", "HGET", "HGETALL",
                 "LRANGE", "SMEMBERS", "ZRANGE", "DBSIZE", "MONITOR", "SLOWLOG", "CLIENT", "MEMORY", "LLEN", "SCARD",
                 "HLEN", "STRLEN", "--SCAN", "--BIGKEYS", "--STAT", "--LATENCY"):
        acc.add(S, "shell.redis.read", f"redis {cmd} (reads)")
    else:
        acc.add(M, "shell.redis.write", f"redis {cmd} (writes data)")
    return OTHER


_SQL_OPTS = {
    # program: (short options with argument, SQL option letters, long SQL options, file option letters)
    "psql": ("cdfhpUvoLFRPT", "c", ("--command",), "f"),
    "pgcli": ("dhpUvD", "", (), ""),
    "mysql": ("uhPDSeOT", "e", ("--execute",), ""),
    "mariadb": ("uhPDSeOT", "e", ("--execute",), ""),
    "mycli": ("uhPDSe", "e", ("--execute",), ""),
    "sqlcmd": ("SUPdQqiovs", "Qq", ("--query",), "i"),
    "clickhouse-client": ("hqudP", "q", ("--query",), ""),
    "clickhouse": ("hqudP", "q", ("--query",), ""),
    "snowsql": ("qafudrswh", "q", ("--query",), "f"),
    "cockroach": ("e", "e", ("--execute",), ""),
    "duckdb": ("cs", "cs", ("-c", "-s"), ""),
    "trino": ("", "", ("--execute",), "f"),
    "presto": ("", "", ("--execute",), "f"),
    "spark-sql": ("ef", "e", (), "f"),
    "hive": ("ef", "e", (), "f"),
    "beeline": ("unpeuf", "e", (), "f"),
    "usql": ("cf", "c", ("--command",), "f"),
    "vsql": ("cfhUdwp", "c", ("--command",), "f"),
    "cqlsh": ("upkfe", "e", ("--execute",), "f"),
}


def h_sql_client(r, prog, args, metas, ctx, acc, stdin):
    """SQL clients (``psql -c``, ``mysql -e``, ``sqlite3 db SQL`` …): the SQL given in options, files, the input or
    ``<(cmd)`` read by :func:`core.policy._sql.classify_sql` (and its shell escapes as commands); SQL from a file or
    the input that cannot be read is MEDIUM, and so is an interactive client (its input is read as SQL and its shell
    escapes as commands by the knowledge table's ``input = "sql"``)."""
    short, sql_letters, sql_longs, file_letters = _SQL_OPTS.get(prog, ("", "", (), ""))
    long_arg = frozenset(("--command", "--execute", "--query", "--dbname", "--host", "--port", "--username",
                          "--user", "--file", "--set", "--variable", "--database", "--password", "--output"))
    o = getopts(args, frozenset(short), long_arg)
    sqls: list = []
    for ch in sql_letters:
        sqls.extend(o.vals.get(ch, ()))
    for nm in sql_longs:
        v = o.longs.get(nm)
        if isinstance(v, str):
            sqls.append(v)
    has_file = any(ch in o.flags for ch in file_letters) or "--file" in o.longs
    pos = o.pos
    if prog in ("sqlite3", "sqlite", "duckdb", "litecli") and len(pos) > 1:
        sqls.extend(pos[1:])
    if prog == "bq":
        if pos and pos[0] == "query":
            sqls.extend(pos[1:][-1:])
        elif pos and pos[0] in ("rm", "delete"):
            acc.add(H, "shell.bq.rm", "bq rm (deletes a table or dataset)")
            return OTHER
        elif pos and pos[0] in ("ls", "show", "head", "help", "version"):
            acc.add(S, "shell.sql.read", f"bq {pos[0]}")
            return OTHER
    if prog == "cockroach" and pos and pos[0] != "sql":
        acc.add(M, "shell.program", f"cockroach {pos[0]}")
        return OTHER
    # SQL files: `-f FILE`/`--file=FILE`; `-` and /dev/stdin are the input (psql also runs it after -c),
    # `<(cmd)` holds cmd's output, a file written or downloaded just before is that text
    files = [v for ch in file_letters for v in o.vals.get(ch, ())]
    fl = o.longs.get("--file")
    if isinstance(fl, str):
        files.append(fl)
    sources: list = []
    for m in metas:
        if m and type(m[0]) is ProcOutput:
            sources.append(m[0].out)  # psql -f <(echo 'DROP TABLE t')
    reads_stdin = not sqls or any(f in ("-", "/dev/stdin", "/proc/self/fd/0") for f in files)
    for f in files:
        if MARK in f or f in ("-", "/dev/stdin", "/proc/self/fd/0"):
            continue
        key = P.normalize(f, ctx.cwd)
        if is_downloaded(ctx, key):
            sources.append(DOWNLOAD)
        elif key in ctx.written:
            sources.append(TextInput(ctx.written[key], False))
    if reads_stdin and stdin is not None:
        sources.append(stdin)
    for src in sources:
        if type(src) is TextInput:
            sqls.append(src.text)
        elif src == DOWNLOAD:
            acc.add(H, "sql.download", f"{prog} runs downloaded SQL")
        elif src == DECODED:
            acc.add(H, "sql.decoded", f"{prog} runs decoded SQL")
    if sqls:
        for sql in sqls:
            if MARK in sql:
                acc.add(M, "sql.dynamic", f"{prog} runs SQL built at run time")
            tier, rule, reason, _ok = classify_sql(sql.replace(MARK, " "))
            acc.add(tier, rule, f"{reason} via {prog}")
            for cmd in sql_shell_commands(sql):
                acc.add(M, "sql.shell", f"{prog} runs a shell command")
                r.run_text(cmd, ctx.child(), acc)
        return OTHER
    if has_file or stdin is not None or sources:
        acc.add(M, "sql.file", f"{prog} runs SQL from a file or its input")
        return OTHER
    if any(a in _NO_SESSION for a in args):
        acc.add(L, "sql.client", f"{prog} (lists or prints and exits)")
    else:  # (tiers.md v3.2: an interactive program runs whatever it is fed later, `\\! sh` too)
        acc.add(M, "sql.interactive", f"interactive {prog}: it runs whatever it is fed later")
    return OTHER


#: options of SQL and key-value clients that print something and exit instead of opening a session
_NO_SESSION = frozenset(("-l", "--list", "--version", "-V", "--help", "-?", "-version", "-help", "--stat",
                         "--bigkeys", "--memkeys", "--latency", "--scan", "--hotkeys"))


def h_db_drop(r, prog, args, metas, ctx, acc, stdin):
    """dropdb, dropuser (PostgreSQL clients): drop a database or a role, like SQL ``DROP DATABASE``."""
    what = T.DB_DROPPERS.get(prog, "a database")
    acc.add(H, "shell.sql.drop", f"{prog} (drops {what}, like SQL DROP)")
    return OTHER


def h_db_change(r, prog, args, metas, ctx, acc, stdin):
    """createuser, pg_restore (table :data:`DB_CHANGERS`): HIGH with the options that grant or drop, else
    MEDIUM (they change a database)."""
    high, what_high, what = T.DB_CHANGERS[prog]
    if any(a.split("=", 1)[0] in high or (a.startswith("-") and not a.startswith("--") and
                                          any(f"-{ch}" in high for ch in a[1:])) for a in args):
        acc.add(H, f"shell.{prog}", f"{prog} {what_high}")
    else:
        acc.add(M, f"shell.{prog}", f"{prog} {what}")
    return OTHER


def h_mongo(r, prog, args, metas, ctx, acc, stdin):
    """``mongo``/``mongosh``: dropping a database or collection HIGH, ``--eval`` MEDIUM."""
    code = " ".join(a for a in args if not a.startswith("-"))
    low = code.replace(" ", "").lower()
    if any(k in low for k in ("dropdatabase(", ".drop(", "deletemany({})", "remove({})", "dropallusers(")):
        acc.add(H, "shell.mongo.drop", f"{prog} deletes a database or collection")
    elif any(a in ("--eval", "-e") for a in args):
        acc.add(M, "shell.mongo.eval", f"{prog} --eval runs database code")
    else:
        acc.add(L, "shell.program", prog)
    return OTHER


#: program -> handler (merged into the reader's map by core.policy.shell.registry)
HANDLERS = handlers(
    (T.SQL_CLIENTS, h_sql_client),
    (("redis-cli",), h_redis),
    (("mongo", "mongosh"), h_mongo),
    (T.DB_DROPPERS, h_db_drop),
    (T.DB_CHANGERS, h_db_change),
)
