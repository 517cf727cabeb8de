"""The linear scan of inline code of any language (Python that does not parse, or that the ``ast`` reader
refuses, included): calls with literal arguments found by name in the call tables (:mod:`core.policy.code.calls`),
backticks and ``qx()``/``%x()``, the effects beyond commands (connections, listeners, reads, writes, servers,
standard input/output tied to sockets, commands run from variables or from what a socket received), and the
statement shapes of awk, Tcl, Groovy and Perl's ``open`` (:mod:`core.policy.code.dialects`). The literals come
from :mod:`core.policy.code.literals`.

Everything is linear in the text and capped: at most :data:`MAX_CALLS` calls of each kind, windows of a few
hundred characters; name searches are tries, so the regular-expression engine skips what cannot start a name.

To read a new call: add it to a table of :mod:`core.policy.code.calls` with the "how" that reads it; a new
"how": :func:`_scan_calls` (:data:`CODE_CALLS`) or :func:`_call_effect` (:data:`~core.policy.code.calls.LANG_CALLS`).
Add a case to ``tests/core/policy/test_code.py``.
"""

from __future__ import annotations

import re

from core.policy.code.calls import (
    _FILE_ONLY,
    _LANG_OF,
    BACKTICK_LANGS,
    CODE_CALLS,
    _lang_tables,
    _norm,
    trie_regex,
)
from core.policy.code.dialects import _groovy_execute, _inet, _perl_open, _scan_awk, _scan_tcl
from core.policy.code.literals import (
    _CLOSE,
    _RECV_WORD,
    _URL,
    MAX_ARGS,
    MAX_CALLS,
    _addr_of,
    _path_arg,
    _read_args,
    _Scan,
    _show_addr,
    _strings,
    _strs,
    _unquote,
    _window,
)

#: the names of :data:`CODE_CALLS` (a trie, with no look-behind: see :func:`core.policy.code.calls._name_regex`;
#: the scan rejects a match preceded by a name character)
_CALL = re.compile("(" + trie_regex(CODE_CALLS, flexible=False) + r")(?![A-Za-z0-9_])")
_SHELL_SUB = re.compile(r"`|\bqx\s*[(\[{<!|/]|%x[(\[{<!|/]")
_RECURSIVE = re.compile(r"recursive\s*[:=]\s*(?:=>\s*)?(?:true|True|1)|:recursive|recursive:\s*true")
_WRITE_MODE = re.compile(r"[wax+]")
_RECV_INLINE = re.compile(r"recv\s*\(|\.\s*gets\b|<\s*\$?[A-Z_a-z]\w*\s*>|\bfgets\s*\(|\bfread\s*\(|socket_read|"
                          r":\s*receive\s*\(|\[\s*gets\s|readLine\s*\(|\breadline\s*\(|\$_\b")
_INTERPOLATED = re.compile(r"\$\{?([A-Za-z_]\w*)|#\{\s*([A-Za-z_]\w*)")
_BARE_VAR = re.compile(r"\s*(?:\$\{?([A-Za-z_]\w*)\}?|\$_|#\{\s*([A-Za-z_]\w*)\s*\})\s*")


def _scan_calls(code: str, lang: str | None = None) -> list[tuple[str, object]]:
    """The linear scan of the calls of :data:`CODE_CALLS` with literal arguments: ``("shell", text)``,
    ``("argv", [words])``, ``("rmtree", path)``, ``("delete", path)``, ``("write", path)``, ``("rmtree", None)``
    (non-literal argument). ``lang`` decides whether backticks run shell commands."""
    out: list[tuple[str, object]] = []
    k = 0
    for m in _CALL.finditer(code):
        a = m.start()
        if a and (code[a - 1].isalnum() or code[a - 1] in "_$@"):
            continue  # inside a longer name
        k += 1
        if k > MAX_CALLS:
            break
        name = m.group(1)
        kind = CODE_CALLS[name]
        if name in _FILE_ONLY and not code.endswith("File.", 0, m.start()):
            continue  # `write`/`delete` of other objects (f.write(text), map.delete(key))
        args, tail = _read_args(code, m.end())
        if not args:
            if (kind == "rmtree" or (kind == "rm_opts" and _RECURSIVE.search(tail))) and \
                    code[m.end():m.end() + 2].lstrip()[:1] == "(":
                out.append(("rmtree", None))
            continue
        if not args:
            continue
        first = args[0]
        if kind == "cmd":
            if isinstance(first, list):
                if first:
                    out.append(("argv", list(first)))
            elif len(args) == 1 or not all(isinstance(a, str) for a in args[1:]):
                out.append(("shell", first))
            else:
                out.append(("argv", _strs(args)))
        elif kind == "prog_list":
            if isinstance(first, str):
                rest = args[1] if len(args) > 1 and isinstance(args[1], list) else []
                out.append(("argv", [first] + list(rest)))
        elif kind == "path_argv":
            argv = _strs(args[1:])
            if argv:
                argv[0] = first if isinstance(first, str) else argv[0]
                out.append(("argv", argv))
            elif isinstance(first, str):
                out.append(("argv", [first]))
        elif isinstance(first, str):
            if kind == "rmtree":
                out.append(("rmtree", first))
            elif kind == "rm_opts":
                out.append(("rmtree" if _RECURSIVE.search(tail) else "delete", first))
            elif kind == "delete":
                out.append(("delete", first))
            elif kind == "write":
                out.append(("write", first))
            elif kind == "open":
                if len(args) > 1 and isinstance(args[1], str) and _WRITE_MODE.search(args[1]) and len(args[1]) <= 4:
                    out.append(("write", first))
    if lang in BACKTICK_LANGS and len(out) < MAX_CALLS:
        out.extend(_backticks(code))
    return out


def _backticks(code: str) -> list:
    out: list = []
    for k, m in enumerate(_SHELL_SUB.finditer(code)):
        if k >= MAX_CALLS:
            break
        tok = m.group()
        if tok == "`":
            continue  # pairs are read below
        open_ = tok[-1]
        close = _CLOSE.get(open_, open_)
        j = code.find(close, m.end())
        if j > 0:
            out.append(("shell", code[m.end():j]))
    # backtick pairs
    i = 0
    for _ in range(MAX_CALLS):
        a = code.find("`", i)
        if a < 0:
            break
        b = code.find("`", a + 1)
        if b < 0:
            break
        out.append(("shell", code[a + 1:b]))
        i = b + 1
    return out


def _scan_more(code: str, lang: str | None, skip_python: bool = False) -> list:
    """The linear scan of the effects beyond literal commands (table :data:`LANG_CALLS`): connections,
    listeners, reads, writes the generic table does not know, stdio tied to sockets, commands run from
    variables or from what a socket received."""
    rx, names, stdio, serve, langs = _lang_tables(lang, skip_python)
    out: list = []
    sc = _Scan(code)
    if rx is not None:
        k = 0
        for m in rx.finditer(code):
            a = m.start()
            if a and (code[a - 1].isalnum() or code[a - 1] in "_$@"):
                continue  # inside a longer name (``filesystem``)
            k += 1
            if k > MAX_CALLS:
                break
            name = _norm(m.group(1))
            how = names.get(name)
            if how is None:
                continue
            window, paren = _window(code, m.end(), 160 if how == "run" else 400)
            if not paren and how not in ("run", "perl_open", "http", "connect", "read", "io_sock"):
                continue  # a name, not a call (``s.listen`` passed as a callback …)
            _call_effect(sc, name, how, window, paren, lang, out)
    for rx_io in stdio:  # (one by one: each starts with a literal the engine searches for fast)
        m = rx_io.search(code)
        if m:
            out.append(("stdio_socket", _norm(m.group())[:40]))
            break
    if serve is not None:
        for k, m in enumerate(serve.finditer(code)):
            if k >= 8:
                break
            g = next((x for x in m.groups() if x), None)
            if g:
                out.append(("serve", _unquote(g)))
    if lang in ("awk",) or (lang is None and "/inet" in code):
        out.extend(_scan_awk(code, sc) if lang == "awk" else _inet(code))
    if _LANG_OF.get(lang, lang) == "tcl":
        out.extend(_scan_tcl(code, sc))
    if lang in ("java", "groovy", None) and ".execute" in code:
        out.extend(_groovy_execute(code))
    if lang == "ruby" and code.strip() == "httpd":
        out.append(("listen", None))  # ruby -run -e httpd DIR (un.rb): a file server
    return out


def _call_effect(sc: _Scan, name: str, how: str, window: str, paren: bool, lang, out: list) -> None:
    if how == "run":
        w = window.lstrip()
        if w.startswith(("new String", "Arrays.asList", "List.of", "new java.lang.String")):
            ss = _strings(sc.tokens(window))  # Runtime.exec(new String[]{"/bin/sh", "-c", "…"})
            if ss:
                out.append(("argv", ss[:MAX_ARGS]))
            return
        if not w or w[0] in "\"'`[{" or w.startswith(("%w", "%W", "qw", "q(", "qq", "c(", "array(")):
            return  # literal: read by the call scan
        toks = sc.tokens(window[:80])
        if not toks:
            return
        kind, v = toks[0]
        if kind == "s" and toks[0] != ("s", "") and w[:1] not in "\"'":
            out.append(("shell", v))  # a variable assigned a literal (c="/bin/sh"; os.system(c))
            return
        if kind == "n":
            return
        received = sc.received
        first_id = v if kind == "id" else ""
        if first_id in received or _RECV_INLINE.search(window):
            out.append(("run_received", name))
        elif first_id not in ("true", "false", "nil", "null", "None", "undefined", "this", "self", "new"):
            out.append(("run_dynamic", name))
        return
    toks = sc.tokens(window)
    if how in ("connect", "connect?", "http", "io_sock"):
        if how == "io_sock" and ("Listen" in window or ("LocalPort" in window and "PeerAddr" not in window
                                                          and "PeerHost" not in window)):
            host, port = _addr_of(toks)
            out.append(("listen", _show_addr(host, port)))
            return
        host, port = _addr_of(toks)
        if name == "socketConnection" and re.search(r"server\s*=\s*(?:TRUE|T)\b", window):
            out.append(("listen", _show_addr(host, port)))  # R: socketConnection(port = p, server = TRUE)
            return
        if how == "connect?" and not (host and port):
            return
        if how == "http":
            if not host:
                return
            url = next((v for k, v in toks if k == "s" and _URL.match(v)), "")
            scheme = url.split("://", 1)[0] if url else "https"
            out.append(("connect", f"{scheme}://{_show_addr(host, port)}"))
            return
        out.append(("connect", _show_addr(host, port)))
    elif how in ("listen", "listen_n", "bind"):
        host, port = _addr_of(toks, ports=how != "listen_n" and not (
            lang is None and all(not v.isdigit() or int(v) <= 128 for k, v in toks if k == "n")))
        if how == "bind" and not port:
            return
        out.append(("listen", _show_addr(host, port)))
    elif how in ("read", "write", "delete", "serve", "chdir"):
        p = _path_arg(window, toks)
        if p:
            out.append((how, p))
    elif how == "write2":
        ss = _strings(toks)
        m = re.search(r"\b(?:file|con)\s*=\s*(['\"][^'\"]*['\"])", window)
        if m:
            out.append(("write", _unquote(m.group(1))))
        elif len(ss) >= 2:
            out.append(("write", ss[1]))
        elif len(ss) == 1 and toks and toks[0][0] != "s":
            out.append(("write", ss[0]))
    elif how == "unlink_r":
        ss = _strings(toks)
        if ss:
            out.append(("rmtree" if re.search(r"recursive\s*=\s*(?:TRUE|T)\b", window) else "delete", ss[0]))
    elif how == "open":
        ss = _strings(toks)
        if ss:
            path = _path_arg(window, toks) or ss[0]
            mode = ss[1] if len(ss) > 1 else ""
            if path.startswith("|") and lang in ("tcl", None):
                out.append(("shell", path[1:]))
            elif path.startswith(("http://", "https://")):
                host, port = _addr_of([("s", path)])
                out.append(("connect", f"{path.split('://', 1)[0]}://{_show_addr(host, port)}"))
            elif len(mode) <= 4 and _WRITE_MODE.search(mode):
                out.append(("write", path))
            else:
                out.append(("read", path))
    elif how == "perl_open":
        _perl_open(window, toks, out)
    elif how == "argv":
        if name == "system2":
            ss = _strings(toks)
            if ss:
                out.append(("argv", ss[:MAX_ARGS]))
            elif toks and toks[0][0] == "id":
                out.append(("run_dynamic", name))
            return
        ss = _strings(toks)
        if ss and toks[0][0] in ("s", "id") and not (toks[0][0] == "id" and toks[0][1] not in (
                "new", "String", "Arrays", "asList", "List", "of", "java")):
            out.append(("argv", ss[:MAX_ARGS]))
        elif ss and toks[0][0] == "id":
            out.append(("argv", ss[:MAX_ARGS]))
        elif toks:
            out.append(("run_dynamic", name))


def scan_linear(code: str, lang: str | None = None) -> list:
    """The linear scan alone (text that does not parse as Python, and the other languages)."""
    out = []
    sc = None
    reads = None  # whether the code reads a socket or stream anywhere (asked once)
    for e in (_scan_calls(code, lang) if lang != "awk" else ()):  # (awk's calls: :func:`_scan_awk`)
        m = _BARE_VAR.fullmatch(e[1]) if e[0] == "shell" else None
        if e[0] == "shell" and not m and ("$" in e[1] or "#{" in e[1]):
            sc = sc or _Scan(code)
            names = {a or b for a, b in _INTERPOLATED.findall(e[1][:4096])}
            if names & sc.received:
                out.append(("run_received", "`…`"))  # `sh -c $cmd` with cmd = readline(sock)
        if m:
            # `$_`, `#{cmd}`: a command decided at run time (what a socket received, in `while(<$c>)`)
            sc = sc or _Scan(code)
            name = m.group(1) or m.group(2) or "_"
            if reads is None:
                reads = _RECV_WORD.search(code) is not None
            got = name in sc.received or (name == "_" and reads)
            out.append(("run_received" if got else "run_dynamic", "`…`"))
        else:
            out.append(e)
    out.extend(_scan_more(code, lang))
    return out
