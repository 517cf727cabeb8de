"""The parts of the linear scan (:mod:`core.policy.code.linear`) read by a language's own statement shapes
rather than by call tables: awk (``system()``, ``print | "cmd"``, ``"cmd" | getline``, ``print > "f"``,
``getline < "f"``), gawk's network files (``/inet/tcp/LPORT/HOST/RPORT``), Tcl/expect commands (``exec``,
``spawn``, ``open``, ``socket``, ``eval``), Groovy's ``"cmd".execute()`` and Perl's ``open(FH, MODE, PATH)``.
Each returns effects (the kinds of :mod:`core.policy.code`) and is capped like the rest of the scan
(:data:`MAX_CALLS`, :data:`MAX_TOKENS`).

To read a new statement shape of one of these languages: the function of that language; another language with
statements of its own: a function here, called from :func:`core.policy.code.linear._scan_more` for that
language. Add a case to ``tests/core/policy/test_code.py``.
"""

from __future__ import annotations

import re

from core.policy.code.literals import (
    MAX_ARGS,
    MAX_CALLS,
    _Scan,
    _show_addr,
    _skip_string,
    _strings,
    _unquote,
    _window,
)

_PERL_MODE = re.compile(r"\s*(\+?[<>]{1,2}&?=?|-\||\|-|\|)?\s*(.*?)\s*(\|)?\s*$", re.S)


def _perl_open(window: str, toks: list, out: list) -> None:
    """``open(FH, "<", "p")``, ``open(FH, "<p")``, ``open(my $f, ">p")``, ``open(STDIN, ">&S")``,
    ``open(F, "|sh")``, ``open(F, "-|", "cmd", …)``."""
    parts = window.split(",", 1)
    if len(parts) < 2:
        return
    handle = parts[0].strip().lstrip("*").split()[-1:] or [""]
    ss = _strings(toks)
    if not ss:
        return
    first = ss[0]
    m = _PERL_MODE.match(first)
    mode, rest, tail_pipe = (m.group(1) or ""), m.group(2), m.group(3)
    if not rest and len(ss) > 1:
        rest = ss[1]
    if "&" in mode:
        if handle[0] in ("STDIN", "STDOUT", "STDERR"):
            out.append(("stdio_socket", f"open({handle[0]}, {first})"))
        return
    if mode in ("|", "|-", "-|") or tail_pipe:
        if mode in ("|-", "-|") and len(ss) > 2:
            out.append(("argv", ss[1:1 + MAX_ARGS]))
        elif rest:
            out.append(("shell", rest))
        return
    if not rest:
        return
    if ">" in mode or "+" in mode:
        out.append(("write", rest))
    else:
        out.append(("read", rest))


_INET = re.compile(r"/inet[46]?/(tcp|udp)/(\d{1,5})/([^/\s\"']{1,253})/(\d{1,5})")


def _inet(code: str) -> list:
    """gawk's network files: ``/inet/tcp/LPORT/HOST/RPORT`` (a listener when the remote port is 0)."""
    out: list = []
    for k, m in enumerate(_INET.finditer(code)):
        if k >= 8:
            break
        lport, host, rport = m.group(2), m.group(3), m.group(4)
        if rport == "0" and lport != "0":
            out.append(("listen", f"port {lport}"))
        else:
            out.append(("connect", _show_addr(host, rport)))
    return out


#: tokens of an awk program looked at at most
MAX_TOKENS = 4096
_AWK_TOKENS = re.compile(r"\"(?:[^\"\\\n]|\\.)*\"|\bsystem\s*\(|\|&|\||\bgetline\b|>>|>")
_AWK_PRINT = re.compile(r"\bprintf?\b")


def _statement_start(code: str, i: int) -> int:
    """The position before the awk statement holding ``i`` (looked for at most 400 characters back)."""
    lo = max(0, i - 400)
    return max(code.rfind(";", lo, i), code.rfind("{", lo, i), code.rfind("\n", lo, i), lo - 1)


def _scan_awk(code: str, sc: _Scan) -> list:
    """awk: ``system("…")`` and ``print | "…"`` and ``"…" | getline`` run commands (literal: ``shell``;
    a variable: run_dynamic, or run_received when it holds a line read from a network file), ``print > "f"``
    writes, ``getline < "f"`` reads, ``/inet/…`` files are connections and listeners."""
    out: list = _inet(code)
    socket_vars = {k for k, v in sc.vars.items() if "/inet" in v} if "/inet" in code else set()
    n = len(code)
    for t, m in enumerate(_AWK_TOKENS.finditer(code)):
        if t >= MAX_TOKENS or len(out) >= MAX_CALLS:
            break
        tok = m.group()
        if tok[0] == '"':
            continue  # a string literal (what it holds is not awk)
        if tok.startswith("system"):
            w, _ = _window(code, m.end() - 1)
            toks = sc.tokens(w)
            if toks and toks[0][0] == "s":
                out.append(("shell", toks[0][1]))  # a literal, or a variable assigned one
            elif toks:
                v = toks[0][1]
                out.append(("run_received" if v in sc.received else "run_dynamic", "system"))
        elif tok in ("|", "|&"):
            after = code[m.end():m.end() + 80].lstrip()
            if after.startswith("getline"):
                # CMD | getline: the command is before the operator
                before = code[max(0, m.start() - 200):m.start()].rstrip()
                if before.endswith('"'):
                    q1 = before.rfind('"', 0, len(before) - 1)
                    if q1 >= 0:
                        out.append(("shell", before[q1 + 1:-1]))
                else:
                    mm = re.search(r"([A-Za-z_]\w*)\s*\)?$", before)
                    var = mm.group(1) if mm else ""
                    if var and var not in socket_vars:
                        out.append(("run_received" if var in sc.received else "run_dynamic", "getline"))
            else:
                line_start = _statement_start(code, m.start())
                if not _AWK_PRINT.search(code, line_start + 1, m.start()):
                    continue  # `||`, a regex alternative …
                if after.startswith('"'):
                    e = code.find('"', m.end() + (len(code[m.end():]) - len(code[m.end():].lstrip())) + 1)
                    start = code.find('"', m.end())
                    if e > start >= 0:
                        out.append(("shell", code[start + 1:e]))
                else:
                    mm = re.match(r"([A-Za-z_]\w*)", after)
                    var = mm.group(1) if mm else ""
                    if var and var not in socket_vars:
                        out.append(("run_received" if var in sc.received else "run_dynamic", "print |"))
        elif tok == "getline":
            after = code[m.end():m.end() + 120]
            mm = re.match(r"[^;}\n<]{0,40}<\s*\"([^\"\n]{1,400})\"", after)
            if mm:
                out.append(("read", mm.group(1)))
        elif tok in (">", ">>"):
            line_start = _statement_start(code, m.start())
            if not _AWK_PRINT.search(code, line_start + 1, m.start()):
                continue  # a comparison
            j = m.end()
            while j < n and code[j] in " \t":
                j += 1
            if j < n and code[j] == '"':
                e = code.find('"', j + 1)
                if e > j:
                    out.append(("write", code[j + 1:e]))
    return out


_TCL_CMD = re.compile(r"(?:^|[;\n\[{])\s*(exec|spawn|open|socket|eval|uplevel)\b")


def _tcl_words(code: str, i: int, limit: int = 400) -> list[str]:
    """The words of a Tcl command from ``i`` to its end (``;``, newline, ``]``): bare, "quoted", {braced}."""
    words: list = []
    n = len(code)
    stop = min(n, i + limit)
    j = i
    while j < stop and len(words) < MAX_ARGS:
        while j < stop and code[j] in " \t":
            j += 1
        if j >= stop or code[j] in ";\n]":
            break
        c = code[j]
        if c == "{":
            depth = 0
            k = j
            while k < stop:
                if code[k] == "{":
                    depth += 1
                elif code[k] == "}":
                    depth -= 1
                    if depth == 0:
                        break
                k += 1
            words.append(code[j + 1:k])
            j = k + 1
        elif c == '"':
            k = _skip_string(code, j, stop)
            words.append(code[j + 1:k - 1])
            j = k
        else:
            k = j
            while k < stop and code[k] not in " \t;\n]":
                k += 1
            words.append(code[j:k])
            j = k
    return words


def _scan_tcl(code: str, sc: _Scan) -> list:
    """Tcl/expect: ``exec PROG ARGS`` and ``spawn PROG ARGS`` run programs (``<@ $s``/``>@ $s`` tie their
    stdio to a channel), ``open "|CMD"`` runs a command, ``open PATH ?MODE?`` reads or writes,
    ``socket HOST PORT`` connects, ``socket -server CMD PORT`` listens."""
    out: list = []
    for k, m in enumerate(_TCL_CMD.finditer(code)):
        if k >= MAX_CALLS:
            break
        cmd = m.group(1)
        words = _tcl_words(code, m.end())
        words = [sc.vars.get(w[1:], w) if w.startswith("$") else w for w in words]
        if cmd in ("exec", "spawn"):
            while words and words[0] in ("-ignorestderr", "-keepnewline", "-noecho", "-nottycopy", "-nottyinit",
                                         "-console", "-pty", "--", "-open", "-leaveopen"):
                words.pop(0)
            argv = [w for w in words if not w.startswith(("<@", ">@", "2>@", ">&@", "&"))]
            if any(w.startswith(("<@", ">@", "2>@", ">&@")) and w.lstrip("<>&2@") not in ("stdin", "stdout", "stderr")
                   for w in words):
                out.append(("stdio_socket", f"{cmd} … <@"))
            if argv and argv[0].startswith(("{*}", "[")):
                inner = argv[0]
                out.append(("run_received" if "gets" in inner or any(r in inner for r in sc.received)
                            else "run_dynamic", cmd))
            elif argv and argv[0].startswith("$"):
                out.append(("run_received" if argv[0][1:] in sc.received else "run_dynamic", cmd))
            elif argv:
                out.append(("argv", argv))
        elif cmd in ("eval", "uplevel"):
            if words and (words[0].startswith(("$", "[")) or "$" in words[0]):
                w0 = words[0].lstrip("$[")
                out.append(("run_received" if w0 in sc.received or "gets" in w0 else "run_dynamic", cmd))
        elif cmd == "open" and words:
            path = words[0]
            mode = words[1] if len(words) > 1 else ""
            if path.startswith("|"):
                out.append(("shell", path[1:]))
            elif path.startswith("$") or path.startswith("["):
                continue
            elif re.search(r"[wa+]|WRONLY|RDWR|CREAT|APPEND|TRUNC", mode):
                out.append(("write", path))
            else:
                out.append(("read", path))
        elif cmd == "socket" and words:
            if words[0] == "-server":
                port = next((w for w in words[2:] if w.isdigit()), None)
                out.append(("listen", _show_addr(None, port)))
            else:
                ws = [w for w in words if not w.startswith("-")]
                if len(ws) >= 2:
                    out.append(("connect", _show_addr(ws[-2], ws[-1])))
                else:
                    out.append(("connect", None))
    return out


_GROOVY = re.compile(r"(\"(?:[^\"\\\n]|\\.){0,400}\"|'(?:[^'\\\n]|\\.){0,400}')\s*\.\s*execute\s*\(|"
                     r"\[([^\[\]\n]{0,400})\]\s*\.\s*execute\s*\(")


def _groovy_execute(code: str) -> list:
    """Groovy: ``"CMD".execute()`` runs a command, ``["sh", "-c", "…"].execute()`` a program."""
    out: list = []
    for k, m in enumerate(_GROOVY.finditer(code)):
        if k >= MAX_CALLS:
            break
        if m.group(1):
            out.append(("shell", _unquote(m.group(1))))
        else:
            words = [_unquote(t) for t in re.findall(r"\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'", m.group(2))]
            if words:
                out.append(("argv", words[:MAX_ARGS]))
    return out
