"""Readers of literal values in inline code of any language, for the linear scan
(:mod:`core.policy.code.linear`): string literals (Python/JS quotes, Perl ``q()``/``qq()``, Ruby ``%q()``),
lists (``[…]``, ``qw()``, ``%w()``), the literal arguments of a call, the window of a call's arguments, their
tokens with names assigned literals resolved (:class:`_Scan`), the names assigned literals and those assigned
what a socket received, hosts and ports, paths (under the home directory when the code joins them to it).

Nothing here may raise or take long on hostile text: every search is linear and capped (:data:`MAX_CALLS`,
:data:`MAX_ARGS`, :data:`MAX_ASSIGN_OPS`, windows of at most a few hundred characters).

To read a new literal syntax: :func:`_read_string` (or :func:`_read_list`); a new assignment syntax:
:func:`literal_assignments`; a new call that reads from a socket or a stream: ``_RECV_WORD`` (and ``_TARGETS``
when its result is assigned differently). Add a case to ``tests/core/policy/test_code.py``.
"""

from __future__ import annotations

import re

_PY_STR = re.compile(r"([rRbBuUfF]{0,2})('''|\"\"\"|'|\"|`)")
_PERL_Q = re.compile(r"(qq|qw|qx|q|%[qQwWx]?)([(\[{<!|/])")
_CLOSE = {"(": ")", "[": "]", "{": "}", "<": ">"}

#: cap on how many calls are read in one text
MAX_CALLS = 64
#: cap on the literal arguments read for one call
MAX_ARGS = 32


def _read_string(code: str, i: int) -> tuple[str | None, int]:
    """A string literal starting at ``i`` (after blanks): Python/JS quotes, Perl ``q()``/``qq()``, Ruby
    ``%q()``/``%()``. Returns (text, end) or (None, i)."""
    n = len(code)
    while i < n and code[i] in " \t\n":
        i += 1
    m = _PY_STR.match(code, i)
    if m:
        q = m.group(2)
        j = m.end()
        raw = "r" in m.group(1).lower()
        buf = []
        while j < n:
            if code.startswith(q, j):
                return "".join(buf), j + len(q)
            c = code[j]
            if c == "\\" and j + 1 < n and not raw:
                d = code[j + 1]
                buf.append({"n": "\n", "t": "\t", "\\": "\\", "'": "'", '"': '"', "`": "`"}.get(d, "\\" + d))
                j += 2
                continue
            buf.append(c)
            j += 1
        return None, n
    m = _PERL_Q.match(code, i)
    if m and m.group(1) not in ("qw", "%w", "%W", "qx", "%x"):
        open_ = m.group(2)
        close = _CLOSE.get(open_, open_)
        j = code.find(close, m.end())
        if j < 0:
            return None, n
        return code[m.end():j], j + 1
    return None, i


def _read_list(code: str, i: int) -> tuple[list | None, int]:
    """``[ 'a', 'b' ]``, ``( 'a', 'b' )``, Perl ``qw(a b)`` or Ruby ``%w(a b)``."""
    n = len(code)
    while i < n and code[i] in " \t\n":
        i += 1
    m = _PERL_Q.match(code, i)
    if m and m.group(1) in ("qw", "%w", "%W"):
        close = _CLOSE.get(m.group(2), m.group(2))
        j = code.find(close, m.end())
        if j < 0:
            return None, n
        return code[m.end():j].split(), j + 1
    if i < n and code[i] in "[(":
        close = "]" if code[i] == "[" else ")"
        words: list = []
        j = i + 1
        while len(words) < MAX_ARGS:
            s, j2 = _read_string(code, j)
            if s is None:
                break
            words.append(s)
            j = j2
            while j < n and code[j] in " \t\n,":
                j += 1
        while j < n and code[j] in " \t\n":
            j += 1
        if j < n and code[j] == close:
            j += 1
        return words, j
    return None, i


def _read_args(code: str, i: int) -> tuple[list, str]:
    """The literal arguments of a call whose name ends at ``i``: strings and lists (a list is one item),
    up to the first argument that is not a literal; also the text of the argument list (for options)."""
    n = len(code)
    j = i
    while j < n and code[j] in " \t":
        j += 1
    paren = j < n and code[j] == "("
    if paren:
        j += 1
    if code.startswith("glob", j) and not code[j + 4:j + 5].isalnum():
        j += 4  # Perl: unlink glob "/etc/*"
    out: list = []
    start = j
    # a leading non-literal argument (os.P_WAIT, a mode constant) is skipped once
    skipped = False
    while len(out) < MAX_ARGS:
        s, j2 = _read_string(code, j)
        if s is not None:
            out.append(s)
        else:
            lst, j2 = _read_list(code, j)
            if lst is not None:
                out.append(lst)
            elif not out and not skipped and paren:
                k = j
                while k < n and (code[k].isalnum() or code[k] in "._"):
                    k += 1
                if k == j or k >= n or code[k] != ",":
                    break
                skipped = True
                j2 = k
            else:
                break
        j = j2
        while j < n and code[j] in " \t\n":
            j += 1
        if j < n and code[j] == ",":
            j += 1
            continue
        break
    end = code.find(")", j) if paren else code.find("\n", j)
    tail = code[start: (end if 0 <= end < j + 400 else j + 400)]
    return out, tail


def _strs(items: list) -> list:
    """Flatten strings and lists of strings."""
    out: list = []
    for it in items:
        if isinstance(it, list):
            out.extend(it)
        else:
            out.append(it)
    return out


#: received data: calls that read from a socket (or a stream); the name assigned their result is "received"
_RECV_WORD = re.compile(r"(?:recv|recvfrom|gets|readline|readpartial|receive|getline|read_nonblock|"
                        r"readLine|readLines|fgets|fread|socket_read|stream_get_line|stream_get_contents|fgetc)\b|"
                        r"<\s*\$?[A-Za-z_]\w*\s*>")
_TARGETS = re.compile(r"([$@]?[A-Za-z_]\w*(?:\s*,\s*[$@]?[A-Za-z_]\w*){0,4})\s*\)?\s*$")
_AFTER_GETLINE = re.compile(r"\s+([A-Za-z_]\w*)")
_AFTER_GETS = re.compile(r"\s+\$\w+\s+([A-Za-z_]\w*)")
#: literal assignments (``c = "/bin/sh"``, ``$i="203.0.113.7"``, ``local h = '…'``, ``x <- "…"``, ``set h "…"``):
#: found from their operator (a linear search), the name before it and the literal after it
_ASSIGN_OP = re.compile(r"(?::=|<-|=)(?![=~>])")  # (the caller rejects ==, !=, <=, +=, … by the character before)
_NAME_BEFORE = re.compile(r"([$@]?[A-Za-z_]\w*)\s*$")
_LITERAL_AFTER = re.compile(r"\s*(\"(?:[^\"\\\n]|\\.){0,400}\"|'(?:[^'\\\n]|\\.){0,400}'|\d{1,6}(?![\w.]))")
_TCL_SET = re.compile(r"\bset\s+([A-Za-z_]\w*)\s+(\"[^\"\n]{0,400}\"|\{[^{}\n]{0,400}\}|[^\s;\]\[]+)")
#: operators examined at most when looking for assignments
MAX_ASSIGN_OPS = 256
_TOKEN = re.compile(r"\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'|[$@]?[A-Za-z_][\w:]*|\d+(?:\.\d+){0,3}")
_IPV4 = re.compile(r"\d{1,3}(?:\.\d{1,3}){3}")
_HOSTNAME = re.compile(r"(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24}")
_HOSTPORT = re.compile(r"(?:(?:tcp|udp|ssl|tls)://)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]{1,253}|\*):(\d{1,5})")
_URL = re.compile(r"(?:https?|ftp|wss?)://(?:[^/@\s]*@)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]{1,253})(?::(\d{1,5}))?")
_FILE_EXT = frozenset(("py", "js", "rb", "pl", "php", "lua", "txt", "json", "db", "csv", "log", "sh", "yml", "yaml",
                       "conf", "cfg", "ini", "xml", "html", "md", "key", "pem", "crt", "sqlite", "tar", "gz", "zip"))


def _skip_string(code: str, k: int, stop: int) -> int:
    q = code[k]
    k += 1
    while k < stop:
        c = code[k]
        if c == "\\":
            k += 2
            continue
        if c == q:
            return k + 1
        k += 1
    return stop


_WIN_PAREN = re.compile(r"[\"'`()\[\]{}]")
_WIN_STMT = re.compile(r"[\"';\n}]")


def _window(code: str, i: int, limit: int = 400) -> tuple[str, bool]:
    """The arguments of the call whose name ends at ``i``: inside its parentheses (bounded), or without
    parentheses the rest of the statement. Returns (text, parenthesised)."""
    n = len(code)
    j = i
    while j < n and code[j] in " \t":
        j += 1
    stop = min(n, j + limit)
    if j < n and code[j] == "(":
        depth = 0
        k = j
        while k < stop:
            m = _WIN_PAREN.search(code, k, stop)
            if m is None:
                break
            k = m.start()
            c = code[k]
            if c in "\"'`":
                k = _skip_string(code, k, stop)
                continue
            if c in "([{":
                depth += 1
            else:
                depth -= 1
                if depth == 0:
                    return code[j + 1:k], True
            k += 1
        return code[j + 1:stop], True
    k = j
    while k < stop:
        m = _WIN_STMT.search(code, k, stop)
        if m is None:
            k = stop
            break
        k = m.start()
        if code[k] in "\"'":
            k = _skip_string(code, k, stop)
            continue
        break
    return code[j:k], False


def _unquote(tok: str) -> str:
    body = tok[1:-1]
    if "\\" in body:
        body = body.replace('\\"', '"').replace("\\'", "'").replace("\\\\", "\\")
    return body


class _Scan:
    """One linear reading: the literal assignments (read once, when first needed) and the received names."""

    __slots__ = ("code", "_vars", "_recv")

    def __init__(self, code: str):
        self.code = code
        self._vars: dict | None = None
        self._recv: set | None = None

    @property
    def vars(self) -> dict:
        """Names assigned a string or number literal (the first assignment of each)."""
        if self._vars is None:
            self._vars = literal_assignments(self.code)
        return self._vars

    @property
    def received(self) -> set:
        """Names assigned what a socket or stream read (``cmd = c.gets``, ``$l = <S>``, awk ``|& getline c``)."""
        if self._recv is None:
            self._recv = received_names(self.code)
        return self._recv

    def tokens(self, window: str) -> list[tuple[str, str]]:
        """("s", text) for strings and resolved variables, ("n", digits), ("id", name)."""
        out: list = []
        for k, m in enumerate(_TOKEN.finditer(window)):
            if k >= MAX_ARGS * 2:
                break
            t = m.group()
            c = t[0]
            if c in "\"'":
                out.append(("s", _unquote(t)))
            elif c.isdigit():
                out.append(("n", t))
            else:
                name = t.lstrip("$@")
                v = self.vars.get(name)
                if v is not None:
                    out.append(("n" if v.isdigit() else "s", v))
                else:
                    out.append(("id", name))
        return out


def literal_assignments(code: str) -> dict:
    """``{name: literal}`` for ``NAME = "…"``, ``$NAME="…"``, ``NAME <- '…'``, ``local NAME = 4444``, Tcl
    ``set NAME value`` (sigils dropped; the first assignment of a name wins)."""
    out: dict = {}
    for k, m in enumerate(_ASSIGN_OP.finditer(code)):
        if k >= MAX_ASSIGN_OPS or len(out) >= MAX_CALLS:
            break
        a = m.start()
        if m.group() == "=" and a and code[a - 1] in "=!<>~+-*/%&|^.:":
            continue
        nm = _NAME_BEFORE.search(code, max(0, m.start() - 64), m.start())
        if not nm:
            continue
        lit = _LITERAL_AFTER.match(code, m.end())
        if not lit:
            continue
        val = lit.group(1)
        if val[:1] in "\"'":
            val = _unquote(val)
        out.setdefault(nm.group(1).lstrip("$@"), val)
    if "set" in code:
        for k, m in enumerate(_TCL_SET.finditer(code)):
            if k >= MAX_CALLS:
                break
            val = m.group(2)
            if val[:1] in "\"{":
                val = val[1:-1]
            out.setdefault(m.group(1), val)
    return out


def received_names(code: str) -> set:
    """Names assigned what a read from a socket or stream returned."""
    out: set = set()
    k = 0
    for m in _RECV_WORD.finditer(code):
        a = m.start()
        if a and code[a] != "<" and (code[a - 1].isalnum() or code[a - 1] in "_$"):
            continue  # inside a longer name
        k += 1
        if k > MAX_CALLS:
            break
        word = m.group()
        if word == "getline":
            a = _AFTER_GETLINE.match(code, m.end())
            if a and a.group(1) not in ("if", "while", "print", "printf"):
                out.add(a.group(1))  # awk: … |& getline VAR
        elif word == "gets":
            a = _AFTER_GETS.match(code, m.end())
            if a:
                out.add(a.group(1))  # tcl: gets $s VAR
        lo = max(0, m.start() - 120)
        start = max(code.rfind(";", lo, m.start()), code.rfind("\n", lo, m.start()),
                    code.rfind("(", lo, m.start()), code.rfind("{", lo, m.start()), lo - 1)
        seg = code[start + 1:m.start()]
        ops = [o for o in _ASSIGN_OP.finditer(seg) if not (
            o.group() == "=" and o.start() and seg[o.start() - 1] in "=!<>~+-*/%&|^.:")]
        if ops:
            op = ops[-1]  # the assignment the read is the value of
            a = _TARGETS.search(seg, 0, op.start())
            if a:
                for nm in a.group(1).split(","):
                    out.add(nm.strip().lstrip("$@"))
    return out


def _is_host(s: str) -> bool:
    if not s or len(s) > 253:
        return False
    if _IPV4.fullmatch(s) or s in ("localhost", "0.0.0.0", "::", "*") or (":" in s and all(
            c in "0123456789abcdefABCDEF:." for c in s) and s.count(":") >= 2):
        return True
    return bool(_HOSTNAME.fullmatch(s)) and s.rsplit(".", 1)[-1].lower() not in _FILE_EXT


def _addr_of(toks: list, ports: bool = True) -> tuple[str | None, str | None]:
    """(host, port) named by the literals of a call's arguments."""
    host = port = None
    for kind, v in toks:
        if kind == "s":
            m = _URL.match(v)
            if m:
                return m.group(1), m.group(2)
            m = _HOSTPORT.fullmatch(v)
            if m and (_is_host(m.group(1)) or m.group(1).startswith("[")):
                return m.group(1), m.group(2)
            if host is None and _is_host(v):
                host = v
            elif ports and port is None and v.isdigit() and 0 < int(v) < 65536:
                port = v
        elif kind == "n":
            if host is None and _IPV4.fullmatch(v):
                host = v
            elif ports and port is None and v.isdigit() and 0 < int(v) < 65536:
                port = v
    return host, port


def _show_addr(host: str | None, port: str | None) -> str | None:
    if host in ("", "*") and port:
        host = "0.0.0.0"
    if host and port:
        return f"{host}:{port}"
    if host:
        return host
    if port:
        return f"port {port}"
    return None


def _strings(toks: list) -> list[str]:
    return [v for k, v in toks if k == "s"]


#: the user's home directory spelled in code, before a string joined to it (``process.env.HOME + "/.ssh/x"``)
_HOME_REF = re.compile(r"process\s*\.\s*env\s*\.\s*HOME|os\s*\.\s*homedir\s*\(\s*\)|\$ENV\s*\{\s*['\"]?HOME|"
                       r"ENV\s*\[\s*['\"]HOME|getenv\s*\(\s*['\"]HOME|Dir\s*\.\s*home|\$HOME\b|"
                       r"getProperty\s*\(\s*\"user\.home|homedir\s*\(\s*\)|path\.expand\s*\(\s*['\"]~|"
                       r"os\.path\.expanduser\s*\(\s*['\"]~['\"]")


def _path_arg(window: str, toks: list) -> str | None:
    """The path a call names first: its first string, under the home directory when the window joins it
    to a spelling of the home directory first."""
    ss = _strings(toks)
    if not ss:
        return None
    p = ss[0]
    if p.startswith("/") and ("HOME" in window or "home" in window):
        m = _HOME_REF.search(window)
        if m and m.start() < window.find(p):
            return "~" + p
    return p
