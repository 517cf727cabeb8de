"""Reading inline code (``python -c``, ``node -e``, ``ruby -e``, ``perl -e``, ``php -r``, ``lua -e``, awk
programs, Tcl/expect, R, Julia, Java-ish ``jshell``/``jrunscript``/``groovy``, code actions) for what it does to
the system: :func:`scan_code` returns a list of effects ``(kind, value)``:

====================  ==============================================================================================
kind                  value, and the shapes that produce it
====================  ==============================================================================================
``shell``             a shell command line it runs: ``os.system("…")``, ``exec("…")`` (Perl/Ruby/PHP),
                      backticks, ``qx()``, ``%x()``, awk ``system("…")``/``print | "…"``/``"…" | getline``,
                      Tcl ``open "|…"``, Groovy ``"…".execute()``; unknown parts are the unknown mark
                      (``os.system("rm -rf " + d)`` -> ``rm -rf \x00``)
``argv``              a program and its arguments (list of words): ``subprocess.run(["rm", "-rf", "/"])``,
                      ``spawnSync("rm", [...])``, ``os.execvp(…)``, ``pty.spawn("/bin/sh")``, Tcl ``exec rm -rf /``,
                      expect ``spawn sh``, ``new ProcessBuilder("sh", "-i")``, R ``system2("rm", c(…))``
``rmtree``            a recursive delete of the path (None: a path not literal): ``shutil.rmtree``,
                      ``fs.rmSync(p, {recursive: true})``, ``FileUtils.rm_rf``, ``unlink(p, recursive=TRUE)``
``delete``            a delete of the path: ``os.remove``, ``fs.unlinkSync``, ``unlink``, ``Files.delete``
``write``             a write to the path: ``open(p, "w")``, ``fs.writeFileSync``, ``File.write``, Perl
                      ``open(F, ">p")``, ``fopen(p, "w")``, awk ``print > "p"``, ``new FileWriter(p)``
``read``              a read of the path (the caller recognises secret files): ``open(p)``, ``Path(p).read_text()``,
                      ``fs.readFileSync``, ``File.read``, ``file_get_contents``, ``io.open``, Perl ``open(F, "<p")``,
                      awk ``getline < "p"``, ``readLines``, ``Files.readAllBytes``
``connect``           a network connection, to "HOST:PORT", "HOST", "port N" or None (not literal):
                      ``s.connect(("203.0.113.7", 4444))``, ``net.connect(4444, "h")``, ``TCPSocket.new``,
                      ``IO::Socket::INET->new(PeerAddr => …)``, ``fsockopen``, ``socket.connect``, Tcl ``socket h p``,
                      awk ``"/inet/tcp/0/h/p"``, ``new Socket(h, p)``, ``/dev/tcp/h/p`` in a command it runs;
                      web clients given a URL (``urlopen``, ``requests.post``, ``fetch``) as "SCHEME://HOST"
``listen``            a listening socket or server, at "ADDR:PORT", "port N" or None: ``s.bind(("0.0.0.0", 4444))``,
                      ``s.listen()``, ``HTTPServer(…)``, ``createServer(…).listen(8080)``, ``TCPServer.new``,
                      ``stream_socket_server``, Tcl ``socket -server``, awk ``"/inet/tcp/8080/0/0"``,
                      ``new ServerSocket(p)``
``serve``             the directory a server serves: ``directory="/"``, ``DocumentRoot: "/"``,
                      ``express.static("/")``, a ``chdir`` before the server starts
``shell_start``       a shell or interpreter started with no command (the program): ``pty.spawn("/bin/sh")``,
                      ``os.execl("/bin/bash", "bash", "-i")``, ``exec("/bin/sh -i")``, ``spawn sh``
``stdio_socket``      standard input/output tied to a socket (how): ``os.dup2(s.fileno(), 0)``,
                      ``open(STDIN, ">&S")``, ``$stdin.reopen(s)``, ``sh.stdout.pipe(client)``, ``<&3``/``>&3``
                      in a command it runs, Tcl ``<@ $s``, ``subprocess.call(…, stdin=s.fileno())``
``run_received``      it runs (as a command or as code) what a socket received (the call): ``exec(s.recv(1024))``,
                      ``IO.popen(c.gets)``, awk ``c |& getline`` after ``s |& getline c``
``run_dynamic``       it runs a command or code that is not a literal (the call): ``os.system(cmd)``
``too_long``          the text is longer than :data:`MAX_CODE_SCAN` (its length): only its start was read
====================  ==============================================================================================

Python (``lang`` "python", or None for code of unknown language) is read with :mod:`ast` and a little data
flow (:mod:`core.policy.code.python`) when it parses within the guards; otherwise, and for the other languages, a
linear scan reads calls with literal arguments (the tables ``CODE_CALLS`` and ``LANG_CALLS``), with
names assigned string literals resolved (``$i="203.0.113.7"; … inet_aton($i)``). Neither may raise or take
long on hostile text: the scans are linear and capped (``MAX_CALLS``, ``MAX_ARGS``). :func:`apply_code_effects`
gives the effects their tiers.

Public names: :func:`scan_code`, :func:`code_runs_data`, :func:`apply_code_effects`, :func:`bare_shell`,
:func:`read_python`, :func:`clear_memo` (and :func:`scan_python`, kept for callers of the first version).

Modules:
    ``calls``     the call tables of every language, Python's included (data), and the name searches;
    ``literals``  readers of literals: strings, lists, call arguments, tokens, assignments, hosts, paths;
    ``linear``    the linear scan (every language): calls found by name, effects beyond commands;
    ``dialects``  awk, Tcl/expect, Groovy and Perl ``open`` read by their own statement shapes;
    ``facts``     what the commands run imply (shells started, descriptors on sockets), the last pass;
    ``python``    Python read with ``ast``: the guards, the tree walk and the effects of calls;
    ``pyeval``    its data flow: the candidate values of expressions, names bound;
    ``pyvalues``  the values it gives expressions (modules, paths, sockets, received data …) and their operations;
    ``tiers``     the tiers of the effects (remote shells, listeners, secret reads …).

To add a rule: a call that has an effect goes in a table of :mod:`core.policy.code.calls` (each module's
docstring says where a new kind of reading goes); a new effect kind gets a row in the table above and its tier in
:mod:`core.policy.code.tiers`. Cases go in ``tests/core/policy/test_code.py``.
"""

from __future__ import annotations

import re

from core.policy.code.calls import CODE_CALLS, trie_regex
from core.policy.code.facts import _finish, bare_shell
from core.policy.code.linear import _scan_calls, _scan_more, scan_linear
from core.policy.code.python import read_python
from core.policy.code.tiers import apply_code_effects

#: calls that run code given as data (``exec``, ``eval``, ``new Function``, ``instance_eval``, Lua ``loadstring``)
_EVAL = re.compile(r"(?<![A-Za-z0-9_$.])(?:exec|eval|Function|instance_eval|class_eval|module_eval|loadstring|"
                   r"load|compile|runInThisContext|runInNewContext)\s*\(|\beval\s+[$\w]|[(,]\s*eval\s*[),]")
#: calls that run shell commands, and those that run code, taking decoded data (``os.system(b64decode(…))``)
_RUNS = re.compile(r"(?:exec|eval|system|popen|Popen|run|call|check_output|execSync|spawnSync|Function|"
                   r"instance_eval|loadstring|load)\s*\(")
_DECODE = re.compile(r"b64decode|base64|atob\s*\(|['\"]base64['\"]|unpack\s*\(\s*['\"]m|decode64|a2b_base64|"
                     r"bytes\.fromhex|unhexlify|codecs\.decode")
#: reading from the network in code (``urllib.request.urlopen``, ``requests.get``, ``fetch(``, ``Net::HTTP``)
_FETCH = re.compile(r"urlopen|urllib|requests\.(?:get|post|request)|httpx\.|http\.client|(?<![A-Za-z0-9_])fetch\s*\(|"
                    r"https?\.get\s*\(|https?\.request\s*\(|Net::HTTP|open-uri|URI\.open|LWP|HTTP::Tiny|"
                    r"file_get_contents\s*\(\s*['\"]https?:|curl_exec|socket\.http|wget|invoke-webrequest|"
                    r"downloadstring", re.I)
#: reading standard input in code (``sys.stdin.read()``, ``process.stdin``, ``STDIN.read``, ``<STDIN>``)
_STDIN = re.compile(r"sys\.stdin|stdin\.read|process\.stdin|\bSTDIN\b|\$stdin|<STDIN>|<>|php://stdin|"
                    r"io\.read|readFileSync\s*\(\s*(?:0|['\"]/dev/stdin)")


def code_runs_data(code: str) -> str | None:
    """How inline code runs code that is not in it: ``"fetch"`` (it evaluates what it downloads:
    ``exec(urlopen(…).read())``), ``"stdin"`` (it evaluates its standard input: ``exec(sys.stdin.read())``),
    ``"decoded"`` (it runs decoded data: ``os.system(b64decode(…))``), or None. A linear scan; the code's own
    literal calls are read by :func:`scan_code`."""
    code = code[:MAX_CODE_SCAN]
    evals = _EVAL.search(code) is not None
    if evals and _FETCH.search(code):
        return "fetch"
    if _RUNS.search(code) and _DECODE.search(code):
        return "decoded"
    if evals and _STDIN.search(code):
        return "stdin"
    return None


MAX_CODE_SCAN = 65536


def scan_python(code: str) -> list[tuple[str, object]]:
    """Inline Python (kept for callers of the first version)."""
    return scan_code(code, "python")


#: words any Python reading reacts to: without one, the text has no effect to read
_AST_HINT = re.compile(trie_regex(sorted(
    set(CODE_CALLS) | {"subprocess", "shutil", "pty", "socket", "connect", "bind", "listen", "accept", "serve",
                       "Server", "urlopen", "urlretrieve", "Request", "requests", "httpx", "http", "smtplib",
                       "ftplib", "telnet", "Telnet", "dup2", "getattr", "__import__", "import_module", "__dict__",
                       "vars", "globals", "modules", "chdir", "partial", "pexpect", "read_text", "read_bytes",
                       "write_text", "write_bytes", "touch", "rename", "replace", "move", "copy", "symlink",
                       "chmod", "chown", "truncate", "mkdir", "makedirs", "link", "compile", "eval", "fetch",
                       "readFile", "createServer", "TCPSocket", "fsockopen", "Socket"}), flexible=False))


def scan_code(code: str, lang: str | None = None) -> list[tuple[str, object]]:
    """The effects of inline code (kinds: the module docstring). ``lang``: python, node, ruby, perl, php, lua,
    awk, tcl (and expect), r, julia, java (jshell, jrunscript, groovy); None: not known (code actions; every
    table is used, and Python is tried first).

    >>> scan_code('import os; c = "/bin/sh"; os.system(c)', "python")
    [('shell', '/bin/sh'), ('shell_start', '/bin/sh')]
    """
    if not code:
        return []
    key = (lang, code)
    hit = _MEMO.get(key) if len(code) <= MEMO_TEXT else None
    if hit is not None:
        return hit  # the same text again (the action handlers ask first, then read it; agents repeat snippets)
    try:
        out = _scan_code(code, lang)
    except Exception:  # (a bug must not make the classifier raise: fall back to the first, simplest scan)
        try:
            out = _finish(_scan_calls(code, lang))
        except Exception:
            out = []
    if len(code) <= MEMO_TEXT:
        if len(_MEMO) >= MEMO_SIZE:
            _MEMO.clear()
        _MEMO[key] = out
    return out


#: texts read and their effects, up to MEMO_SIZE texts of at most MEMO_TEXT characters
#: (:func:`core.policy.clear_caches` forgets them); callers do not change the lists returned
_MEMO: dict = {}
MEMO_SIZE = 512
MEMO_TEXT = 8192


def clear_memo() -> None:
    """Forget the texts read (:func:`core.policy.clear_caches`)."""
    _MEMO.clear()


def _scan_code(code: str, lang: str | None) -> list:
    if len(code) > MAX_CODE_SCAN:
        # the first MAX_CODE_SCAN characters are read; the rest is not (and says so)
        return _finish([("too_long", len(code))] + _scan_code(code[:MAX_CODE_SCAN], lang))
    out = None
    if lang in (None, "python") and "(" in code and _AST_HINT.search(code):  # (Python acts through calls)
        out = read_python(code, lang)
        if out is not None and lang is None:
            out = out + _scan_more(code, None, skip_python=True)  # the text may be another language's
    if out is None:
        out = scan_linear(code, lang)
    return _finish(out) if out else out


__all__ = ["apply_code_effects", "bare_shell", "clear_memo", "code_runs_data", "read_python", "scan_code",
           "scan_python"]
