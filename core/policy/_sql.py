"""A small, linear SQL statement splitter and classifier (tiers.md, "SQL").

Keywords count only at the start of a statement, never inside string literals, quoted identifiers
or comments.
"""

from __future__ import annotations

import re

from core.tiers import Tier

S, L, M, H, C = Tier.SAFE, Tier.LOW, Tier.MEDIUM, Tier.HIGH, Tier.CRITICAL

_WORD = re.compile(r"[A-Za-z0-9_]+")
_SPECIAL = re.compile(r"[-/'\"`$;()\[#]")
_DOLLAR_TAG = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)?\$")

SAFE_VERBS = frozenset(("select", "show", "explain", "describe", "desc", "values", "table", "use", "set", "begin",
                        "start", "commit", "rollback", "savepoint", "release", "end", "abort", "with", "pragma",
                        "listen", "unlisten", "fetch", "declare", "close", "prepare", "deallocate", "help",
                        "print", "go", "checkpoint", "summarize", "reset", "discard", "load_extension"))
LOW_VERBS = frozenset(("analyze", "analyse", "vacuum", "reindex", "optimize", "attach", "detach", "notify",
                       "lock", "cluster", "refresh", "install", "load", "export", "import", "checksum", "repair",
                       "flush"))
MEDIUM_VERBS = frozenset(("insert", "create", "rename", "replace", "merge", "upsert", "copy", "call", "exec",
                          "execute", "comment", "do", "security", "alter", "update", "delete"))
HIGH_VERBS = frozenset(("drop", "truncate", "grant", "revoke", "shutdown", "kill", "purge", "deny"))

#: functions with effects that SELECT can call (the statement is no longer read-only)
EFFECT_FUNCTIONS = {
    "pg_terminate_backend": M, "pg_cancel_backend": M, "pg_reload_conf": M, "pg_rotate_logfile": M,
    "pg_promote": M, "pg_switch_wal": M, "pg_drop_replication_slot": M, "pg_create_restore_point": M,
    "pg_read_file": M, "pg_read_binary_file": M, "pg_ls_dir": M, "pg_stat_file": M, "lo_import": M,
    "lo_export": M, "lo_unlink": M, "pg_file_write": H, "pg_file_unlink": H, "dblink_exec": M, "dblink": M,
    "set_config": L, "setval": M, "load_file": M, "sys_exec": H, "sys_eval": H, "xp_cmdshell": H,
    "sp_configure": M, "pg_advisory_lock": L, "sleep": L, "pg_sleep": L, "benchmark": L,
}
#: client meta-commands that run a shell command (the rest of the line): psql \!, sqlite .shell/.system,
#: mysql system / \!
_META_SHELL = re.compile(r"^[ \t]*(?:\\!|\.shell\b|\.system\b|system\b)[ \t]*(.*)$", re.IGNORECASE | re.MULTILINE)
#: output piped into a command: psql \o |cmd, \g |cmd; sqlite .output |cmd, .once |cmd
_META_PIPE = re.compile(r"^[ \t]*(?:\\o|\\g|\\gx|\.output|\.once)[ \t]*\|[ \t]*(.*)$", re.IGNORECASE | re.MULTILINE)
#: role attributes that grant privileges or set a credential: ``ALTER ROLE app SUPERUSER``, ``ALTER USER root
#: IDENTIFIED BY …``, ``CREATE ROLE x WITH PASSWORD …`` are HIGH like GRANT
ROLE_PRIVILEGE_WORDS = frozenset(("superuser", "createrole", "createdb", "replication", "bypassrls", "password",
                                  "identified", "sysadmin", "grant"))
#: COPY … TO/FROM PROGRAM 'cmd' (and psql \copy)
_COPY_PROGRAM = re.compile(r"\bprogram\s+'((?:[^']|'')*)'", re.IGNORECASE)
_COPY_PROGRAM_DOLLAR = re.compile(r"\bprogram\s+(\$[A-Za-z_]{0,16}\$)", re.IGNORECASE)


def sql_shell_commands(sql: str) -> list[str]:
    """Shell commands a SQL text makes the client or server run (``\\! cmd``, ``.shell cmd``,
    ``COPY … TO PROGRAM 'cmd'``, ``\\o |cmd``)."""
    if "!" not in sql and "." not in sql and "system" not in sql.lower() and "|" not in sql and \
            "program" not in sql.lower():
        return []
    out = [m.group(1) for m in _META_SHELL.finditer(sql[:MAX_SQL]) if m.group(1).strip()]
    out += [m.group(1) for m in _META_PIPE.finditer(sql[:MAX_SQL]) if m.group(1).strip()]
    out += [m.group(1).replace("''", "'") for m in _COPY_PROGRAM.finditer(sql[:MAX_SQL])]
    for m in _COPY_PROGRAM_DOLLAR.finditer(sql[:MAX_SQL]):
        # PostgreSQL dollar quoting: PROGRAM $$cmd$$, PROGRAM $tag$cmd$tag$ (the end found with str.find)
        end = sql.find(m.group(1), m.end(), MAX_SQL)
        if end >= 0:
            out.append(sql[m.end():end])
    return out[:16]


_NAMES = {
    "drop": "DROP", "truncate": "TRUNCATE", "grant": "GRANT", "revoke": "REVOKE", "alter": "ALTER",
    "update": "UPDATE", "delete": "DELETE", "insert": "INSERT", "create": "CREATE",
}


def split_statements(sql: str) -> list[list[str]]:
    """Split ``sql`` into statements, each a list of top-level tokens (lower-cased words, symbols);
    string literals become ``'?'``, comments vanish, parenthesised parts keep a depth marker."""
    return list(iter_statements(sql))


def open_executable_comments(sql: str) -> str:
    """MySQL and MariaDB run the body of ``/*! … */``, ``/*!50000 … */`` and ``/*M!100100 … */`` comments as SQL:
    the markers are dropped so the body is read as statements (other comments stay comments). Linear; an
    unclosed one runs to the end of the text; a marker inside a string literal is opened too (fail closed)."""
    if "/*" not in sql or ("/*!" not in sql and "/*M!" not in sql):
        return sql
    out: list[str] = []
    i, n = 0, len(sql)
    while i < n:
        j = sql.find("/*", i)
        if j < 0:
            out.append(sql[i:])
            break
        k = j + 2
        if sql.startswith("M!", k):
            k += 2
        elif sql.startswith("!", k):
            k += 1
        else:  # not a marker; left as it is (a marker inside a string or a comment is opened too: fail closed)
            out.append(sql[i:k])
            i = k
            continue
        out.append(sql[i:j])
        out.append(" ")
        d = k
        while d < n and d - k < 6 and sql[d].isdigit():
            d += 1
        e = sql.find("*/", d)
        if e < 0:
            out.append(sql[d:])
            break
        out.append(sql[d:e])
        out.append(" ")
        i = e + 2
    return "".join(out)


def iter_statements(sql: str, backslash: bool = True):
    """The statements of :func:`split_statements`, one at a time (the caller may stop early).
    ``backslash``: a backslash escapes a quote inside '…' (MySQL); False reads it as standard SQL and
    PostgreSQL do (a backslash is an ordinary character, ``'a\\'`` is the whole literal). MySQL executable
    comments (``/*!50000 … */``) are read as SQL."""
    sql = open_executable_comments(sql)
    cur: list[str] = []
    depth = 0
    i, n = 0, len(sql)
    while i < n:
        m = _SPECIAL.search(sql, i)
        j = m.start() if m else n
        if j > i:
            chunk = sql[i:j]
            for w in chunk.split():
                _add_words(cur, w, depth)
        if m is None:
            break
        c = sql[j]
        if c == ";":
            if cur:
                yield cur
            cur, depth = [], 0
            i = j + 1
        elif c == "-":
            if sql.startswith("--", j):
                k = sql.find("\n", j)
                i = n if k < 0 else k + 1
            else:
                cur.append("-")
                i = j + 1
        elif c == "#":
            # MySQL comment at a statement's start or after whitespace
            if j == 0 or sql[j - 1] in " \t\n;":
                k = sql.find("\n", j)
                i = n if k < 0 else k + 1
            else:
                cur.append("#")
                i = j + 1
        elif c == "/":
            if sql.startswith("/*", j):
                k = sql.find("*/", j + 2)
                i = n if k < 0 else k + 2
            else:
                cur.append("/")
                i = j + 1
        elif c in "'\"`[":
            close = "]" if c == "[" else c
            k = j + 1
            while True:
                k = sql.find(close, k)
                if k < 0:
                    k = n
                    break
                if close != "]" and sql.startswith(close * 2, k):
                    k += 2
                    continue
                if backslash and c == "'" and k > 0 and sql[k - 1] == "\\" and not sql.startswith("\\\\", k - 2):
                    k += 1
                    continue
                break
            cur.append("'?'" if c == "'" else "?ident")
            i = k + 1
        elif c == "$":
            mt = _DOLLAR_TAG.match(sql, j)
            if mt:
                tag = mt.group()
                k = sql.find(tag, mt.end())
                i = n if k < 0 else k + len(tag)
                cur.append("'?'")
            else:
                cur.append("$")
                i = j + 1
        elif c == "(":
            depth += 1
            cur.append("(")
            i = j + 1
        elif c == ")":
            depth = max(0, depth - 1)
            cur.append(")")
            i = j + 1
        else:  # pragma: no cover
            i = j + 1
    if cur:
        yield cur


#: specials of the splitter but ``;``: without them a text's statements are its pieces between semicolons
_SPECIAL_BUT_SEMI = re.compile(r"[-/'\"`$()\[#]")


def _plain_statements(sql: str):
    """:func:`iter_statements` of a text without specials but ``;``, each different statement text once
    (a repeated statement changes nothing; texts are compared in C before any is split into words)."""
    for piece in dict.fromkeys(sql.split(";")):
        cur: list[str] = []
        for w in piece.split():
            _add_words(cur, w, 0)
        if cur:
            yield cur


def _add_words(cur: list[str], chunk: str, depth: int) -> None:
    # split a bare chunk into words and operator characters
    pos = 0
    for m in _WORD.finditer(chunk):
        if m.start() > pos:
            cur.extend(chunk[pos:m.start()])
        cur.append(m.group().lower())
        pos = m.end()
    if pos < len(chunk):
        cur.extend(chunk[pos:])


def _top_level(tokens: list[str]) -> list[str]:
    out = []
    depth = 0
    for t in tokens:
        if t == "(":
            depth += 1
        elif t == ")":
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(t)
    return out


def _where_is_real(tokens: list[str]) -> bool | None:
    """None: no WHERE; False: an always-true WHERE; True: a real condition."""
    top = _top_level(tokens)
    try:
        k = top.index("where")
    except ValueError:
        return None
    # the condition as written, at top level (stop at clauses that follow WHERE)
    cond: list[str] = []
    depth = 0
    started = False
    for t in tokens:
        if not started:
            if t == "(":
                depth += 1
            elif t == ")":
                depth -= 1
            elif t == "where" and depth == 0:
                started = True
            continue
        if depth == 0 and t in ("order", "limit", "returning", "group", "having", "offset", "output"):
            break
        cond.append(t)
    del k
    # disjuncts at top level
    disj: list[list[str]] = [[]]
    depth = 0
    for t in cond:
        if t == "(":
            depth += 1
        elif t == ")":
            depth -= 1
        if t == "or" and depth == 0:
            disj.append([])
        else:
            disj[-1].append(t)
    return not any(_always_true(d) for d in disj)


def _always_true(tokens: list[str]) -> bool:
    t = [x for x in tokens if x not in ("(", ")")]
    if not t:
        return False
    if t in (["true"], ["1"], ["not", "false"], ["not", "0"]):
        return True
    if len(t) == 3 and t[1] == "=" and t[0] == t[2] and t[0] != "?ident":
        return True  # 1=1, 'a'='a' (literals read as '?'), x = x
    if len(t) == 4 and t[1] == "<" and t[2] == ">" and t[0] != t[3] and t[0].isdigit() and t[3].isdigit():
        return True  # 1<>0
    if len(t) == 4 and t[1] == "!" and t[2] == "=" and t[0] != t[3] and t[0].isdigit() and t[3].isdigit():
        return True
    if 3 <= len(t) <= 4 and t[0].isdigit() and t[-1].isdigit() and len(t[0]) < 12 and len(t[-1]) < 12:
        a, b, op = int(t[0]), int(t[-1]), "".join(t[1:-1])
        return {"<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b, "=": a == b, "<>": a != b,
                "!=": a != b}.get(op, False)  # 2>1, 1 < 2
    return False


#: longest SQL text read statement by statement (the rest is searched for risky keywords only)
MAX_SQL = 8192
_RISKY_WORDS = ("drop", "truncate", "grant", "revoke", "delete", "update", "alter")
_RISKY_WORD = re.compile(rf"\b(?:{'|'.join(_RISKY_WORDS)})\b", re.IGNORECASE)


def classify_sql(sql: str) -> tuple[Tier, str, str, bool]:
    """Return ``(tier, rule, reason, parsed)`` for a SQL text; ``parsed`` is False when a statement
    does not start with a known SQL keyword."""
    best: tuple[Tier, str, str] = (S, "sql.read", "read-only SQL")
    parsed = True
    if len(sql) > MAX_SQL:
        # too long to read statement by statement: the head is read, the rest only searched for keywords
        cut = sql.rfind(";", 0, MAX_SQL)
        cut = cut + 1 if cut > 0 else MAX_SQL
        tier, rule, reason, parsed = classify_sql(sql[:cut])
        best = (tier, rule, reason)
        rest = sql[cut:]
        low = rest.lower()  # every character the pattern matches lower-cases to its letter: a sound pre-test
        hit = _RISKY_WORD.search(rest) if any(map(low.__contains__, _RISKY_WORDS)) else None
        if hit and best[0] < H:
            best = (H, "sql.too_long", f"SQL too long to read fully; it holds {hit.group().upper()}")
        elif rest.strip() and best[0] < M:
            best = (M, "sql.too_long", "SQL too long to read fully")
        return best[0], best[1], best[2], parsed
    seen: set = set()
    for stmt in (_plain_statements(sql) if _SPECIAL_BUT_SEMI.search(sql) is None else iter_statements(sql)):
        key = tuple(stmt)
        if key in seen:
            continue  # a repeated statement changes nothing
        seen.add(key)
        tier, rule, reason, ok = _classify_statement(stmt)
        if not ok:
            parsed = False
        if tier > best[0]:
            best = (tier, rule, reason)
            if tier >= H and not parsed:
                break  # nothing can raise it further
    if best[0] < H and "\\'" in sql:
        # a backslash before a quote: MySQL reads it as an escaped quote, PostgreSQL and standard SQL as the
        # end of the literal (``'a\'; DROP TABLE t; --'`` runs the DROP there). Read it both ways (fail
        # closed); a statement the second reading cannot parse would be rejected by the server, so it
        # counts as MEDIUM only
        for stmt in iter_statements(sql, backslash=False):
            key = tuple(stmt)
            if key in seen:
                continue
            seen.add(key)
            tier, rule, reason, ok = _classify_statement(stmt)
            if not ok:
                tier, rule = M, "sql.quoting"
                reason = "SQL whose quoting reads differently in MySQL and PostgreSQL (a backslash before a quote)"
            elif tier > best[0]:
                reason += " (after a backslash-quote that ends the literal in PostgreSQL)"
            if tier > best[0]:
                best = (tier, rule, reason)
    return best[0], best[1], best[2], parsed


def _effects(toks: list[str], verb: str):
    """SELECT with effects: functions of :data:`EFFECT_FUNCTIONS`, ``INTO OUTFILE``, ``SELECT … INTO t``;
    ``SET GLOBAL``/``SET PERSIST`` (server settings)."""
    if verb == "set":
        if len(toks) > 1 and toks[1] in ("global", "persist", "persist_only") or "@@global" in "".join(toks[:4]):
            return M, "sql.set.global", "SQL SET GLOBAL (changes server settings)", True
        return None
    best = None
    for k, t in enumerate(toks):
        tier = EFFECT_FUNCTIONS.get(t)
        if tier is not None and k + 1 < len(toks) and toks[k + 1] == "(" and (best is None or tier > best[0]):
            best = (tier, f"sql.function.{t}", f"SQL calls {t}() (has effects)", True)
        elif t in ("outfile", "dumpfile") and k and toks[k - 1] == "into":
            best = (M, "sql.into_outfile", "SELECT INTO OUTFILE (writes a file on the server)", True)
    if best is None and verb == "select" and "into" in _top_level(toks) and "from" in toks:
        best = (M, "sql.select_into", "SELECT INTO (creates a table)", True)
    return best


_CTE_VERBS = frozenset(("insert", "update", "delete", "merge"))


def _modifying_ctes(toks: list[str]) -> list[list[str]]:
    """The token lists of the data-modifying statements in parentheses of a WITH statement."""
    out = []
    k, n = 0, len(toks)
    while k < n - 1:
        if toks[k] == "(" and toks[k + 1] in _CTE_VERBS:
            depth, j = 0, k
            while j < n:
                if toks[j] == "(":
                    depth += 1
                elif toks[j] == ")":
                    depth -= 1
                    if depth == 0:
                        break
                j += 1
            out.append(toks[k + 1:j])
            k = j
        k += 1
    return out


def _without_ctes(toks: list[str]) -> list[str]:
    """A WITH statement's final statement (the tokens after its CTE list), or SELECT when there is none."""
    top = _top_level(toks[1:])
    for k, t in enumerate(top):
        if t in ("select", "insert", "update", "delete", "merge"):
            return top[k:]
    return ["select"]


def _classify_statement(tokens: list[str]) -> tuple[Tier, str, str, bool]:
    toks = [t for t in tokens if t != "("] if tokens and tokens[0] == "(" else tokens
    if not toks:
        return S, "sql.empty", "empty SQL", True
    verb = toks[0]
    if verb == "\\" or verb.startswith("\\"):
        if len(toks) > 1 and toks[1] in ("!", "o", "g", "gx", "i", "ir", "include", "copy", "w"):
            return M, "sql.meta.effect", "client meta-command that runs a command or file", True
        return S, "sql.meta", "client meta-command", True
    if verb == "system":
        return M, "sql.meta.shell", "client command that runs a shell command", True
    if verb == "with":
        # data-modifying CTEs (WITH d AS (DELETE FROM t RETURNING *) SELECT …) run whatever the final statement
        # is: each is read as a statement of its own, and the worst of them and the final statement counts
        inner = _modifying_ctes(toks)
        if inner:
            worst = max((_classify_statement(sub) for sub in inner), key=lambda res: res[0])
            rest = _classify_statement(_without_ctes(toks))
            return worst if worst[0] >= rest[0] else rest
        # the statement after the CTEs: the first top-level DML verb
        for t in _top_level(toks[1:]):
            if t in ("select", "insert", "update", "delete", "merge"):
                verb = t
                break
        else:
            verb = "select"
    if verb == "explain":
        if "analyze" in toks[1:3] or "analyse" in toks[1:3]:
            rest = toks[1:]
            while rest and rest[0] in ("analyze", "analyse", "verbose", "("):
                rest = rest[1:]
            if rest and rest[0] in ("update", "delete", "insert", "drop", "truncate"):
                return _classify_statement(rest)
        return S, "sql.read", "read-only SQL (EXPLAIN)", True
    if verb in ("update", "delete"):
        where = _where_is_real(toks)
        name = _NAMES[verb]
        if where is None:
            return H, f"sql.{verb}.no_where", f"{name} without WHERE (every row)", True
        if where is False:
            return H, f"sql.{verb}.always_true", f"{name} with an always-true WHERE (every row)", True
        return M, f"sql.{verb}", f"{name} with a WHERE clause", True
    if verb in ("alter", "create") and len(toks) > 1 and toks[1] in ("user", "role", "group"):
        given = ROLE_PRIVILEGE_WORDS.intersection(_top_level(toks))
        if given:
            word = sorted(given)[0].upper()
            return H, "sql.role_privilege", f"{verb.upper()} {toks[1].upper()} … {word} (grants privileges or sets a password)", True
    if verb == "alter":
        top = _top_level(toks)
        if "drop" in top:
            return H, "sql.alter.drop", "ALTER … DROP", True
        return M, "sql.alter", "ALTER", True
    if verb in HIGH_VERBS:
        obj = toks[1] if len(toks) > 1 else ""
        what = f"{verb.upper()} {obj.upper()}".strip() if obj.isalpha() else verb.upper()
        return H, f"sql.{verb}", f"SQL {what}", True
    if verb in ("exec", "execute", "call"):
        # the procedure called: an effect function by name (EXEC xp_cmdshell 'dir', EXEC master..xp_cmdshell)
        for t in toks[1:6]:
            tier = EFFECT_FUNCTIONS.get(t)
            if tier is not None and tier > M:
                return tier, f"sql.function.{t}", f"SQL {verb.upper()} {t} (has effects)", True
    if verb in MEDIUM_VERBS:
        return M, f"sql.{verb}", f"SQL {verb.upper()} (writes data)", True
    if verb in LOW_VERBS:
        return L, f"sql.{verb}", f"SQL {verb.upper()}", True
    if verb in SAFE_VERBS:
        if verb in ("select", "with", "values", "call", "do") or verb == "set":
            eff = _effects(toks, verb)
            if eff is not None:
                return eff
        return S, "sql.read", f"read-only SQL ({verb.upper()})", True
    if verb.startswith(".") or verb == ".":
        return S, "sql.meta", "client meta-command", True
    return H, "sql.unparseable", "text that is not SQL given as SQL", False
