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
linear scan reads calls with literal arguments (the tables :data:`CODE_CALLS` and :data:`LANG_CALLS`), with
names assigned string literals resolved (``$i="203.0.113.7"; … inet_aton($i)``). Neither may raise or take
long on hostile text: the scans are linear and capped (:data:`MAX_CALLS`, :data:`MAX_ARGS`).
"""

from __future__ import annotations

import re

from core.policy import tables as T
from core.policy._paths import UNKNOWN_MARK as MARK

#: call name -> how its literal arguments are read:
#:   cmd        one string: a shell command; several strings or a list: program and arguments
#:   prog_list  program string, then a list of arguments (``spawnSync('rm', ['-rf', '/'])``)
#:   path_argv  program path, then its argv as a list or strings (``os.execvp('rm', ['rm', '-rf', '/'])``)
#:   rmtree     recursive delete of the first string
#:   rm_opts    delete of the first string, recursive when an options object says ``recursive: true``
#:   delete     delete of the first string
#:   write      write to the first string
#:   open       write to the first string when the second is a writing mode (``open('/etc/x', 'w')``)
CODE_CALLS: dict[str, str] = {
    # python
    "system": "cmd", "popen": "cmd", "getoutput": "cmd", "getstatusoutput": "cmd", "run": "cmd", "call": "cmd",
    "check_call": "cmd", "check_output": "cmd", "Popen": "cmd", "exec": "cmd",
    "execl": "path_argv", "execlp": "path_argv", "execle": "path_argv", "execv": "path_argv",
    "execvp": "path_argv", "execve": "path_argv", "execvpe": "path_argv", "spawnl": "path_argv",
    "spawnlp": "path_argv", "spawnv": "path_argv", "spawnvp": "path_argv", "posix_spawn": "path_argv",
    "posix_spawnp": "path_argv",
    "rmtree": "rmtree", "remove": "rm_opts", "unlink": "delete", "rmdir": "rm_opts", "removedirs": "delete",
    "open": "open",
    # node / deno / bun
    "execSync": "cmd", "spawn": "prog_list", "spawnSync": "prog_list", "execFile": "prog_list",
    "execFileSync": "prog_list", "rmSync": "rm_opts", "rmdirSync": "rm_opts", "rm": "rm_opts",
    "unlinkSync": "delete", "removeSync": "rm_opts", "writeFileSync": "write", "appendFileSync": "write",
    "writeFile": "write", "appendFile": "write", "writeTextFile": "write", "writeTextFileSync": "write",
    # ruby (Kernel, FileUtils, File, Open3, IO)
    "rm_rf": "rmtree", "rm_r": "rmtree", "remove_dir": "rmtree", "remove_entry": "rmtree",
    "remove_entry_secure": "rmtree", "rm_f": "delete", "delete": "delete", "write": "write",
    "capture2": "cmd", "capture2e": "cmd", "capture3": "cmd", "popen2": "cmd", "popen3": "cmd",
    # perl (File::Path)
    "remove_tree": "rmtree",
    # php
    "shell_exec": "cmd", "passthru": "cmd", "proc_open": "cmd", "pcntl_exec": "path_argv",
    "file_put_contents": "write",
    # lua
    "execute": "cmd",
}
#: names that count only as methods of Ruby's ``File`` (``File.write``, ``File.delete``)
_FILE_ONLY = frozenset(("write", "delete"))
#: languages whose backticks (and ``%x()`` / ``qx()``) run shell commands
BACKTICK_LANGS = frozenset(("ruby", "perl", "php", "julia", None))

_SEP_UNITS = {".": r"\s*\.\s*", "->": r"\s*->\s*", "::": r"\s*::\s*", " ": r"\s+"}
_UNIT = re.compile(r"->|::|[. ]|.", re.S)


def trie_regex(names, flexible: bool = True) -> str:
    """One regular expression (text) matching any of ``names``, as a trie: ``exec(?:Sync|File(?:Sync)?)?``
    (at each position the engine tries one branch per first character, not every name). ``flexible``: ``.``,
    ``->`` and ``::`` may have blanks around them, a blank matches any blanks."""
    trie: dict = {}
    for nm in names:
        node = trie
        for u in _UNIT.findall(nm):
            node = node.setdefault(u, {})
        node[""] = {}

    def emit(node: dict) -> str:
        alts = []
        for u in sorted((k for k in node if k), key=lambda k: (-len(k), k)):
            unit = _SEP_UNITS[u] if flexible and u in _SEP_UNITS else re.escape(u)
            alts.append(unit + emit(node[u]))
        if not alts:
            return ""
        body = alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"
        if "" in node:
            return "(?:" + body + ")?" if len(alts) == 1 else body + "?"
        return body

    return emit(trie)


#: the names of :data:`CODE_CALLS` (a trie, with no look-behind: see :func:`_name_regex`; the scan rejects a
#: match preceded by a name character)
_CALL = re.compile("(" + trie_regex(CODE_CALLS, flexible=False) + r")(?![A-Za-z0-9_])")
_PY_STR = re.compile(r"([rRbBuUfF]{0,2})('''|\"\"\"|'|\"|`)")
_PERL_Q = re.compile(r"(qq|qw|qx|q|%[qQwWx]?)([(\[{<!|/])")
_CLOSE = {"(": ")", "[": "]", "{": "}", "<": ">"}
_SHELL_SUB = re.compile(r"`|\bqx\s*[(\[{<!|/]|%x[(\[{<!|/]")
_RECURSIVE = re.compile(r"recursive\s*[:=]\s*(?:=>\s*)?(?:true|True|1)|:recursive|recursive:\s*true")
_WRITE_MODE = re.compile(r"[wax+]")

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


# ============================================================== effects beyond commands (all languages)
#: per language: calls, as written (a blank matches any blanks, ``.``/``->``/``::`` may have blanks around), and
#: how the call is read (the window: its parenthesised arguments, or the rest of the statement):
#:   connect   opens a network connection; the destination from the literals (and variables) in the window
#:   connect?  the same, only when they name a host and a port (``connect`` is also a database call)
#:   http      a network client: the host of a URL (or a host) in the window
#:   io_sock   Perl ``IO::Socket::*->new``: a listener with ``Listen``/``LocalPort``, else a connection
#:   listen    a listening socket or server (its address from the window); ``listen_n``: the numbers in the
#:             window are a backlog (``s.listen(5)``); ``bind``: only when the window holds a port number
#:   read      reads the file named by the first string; ``open``: read or written by the mode string after it
#:   write     writes the file named by the first string; ``write2``: by the second (``writeLines(x, "f")``)
#:   delete    deletes the file named by the first string; ``unlink_r``: recursively with ``recursive=TRUE``
#:   serve     the document root of a server; ``chdir``: the working directory (served by a server)
#:   run       runs the command or code in its first argument: a variable assigned a literal runs that literal;
#:             another non-literal is run_dynamic, or run_received when it is what a socket received
#:   argv      runs the program and arguments given as string literals (``ProcessBuilder("sh", "-i")``)
#:   perl_open Perl ``open(FH, MODE, PATH)``/``open(FH, "MODEPATH")``: read, write, pipe or a tied STDIN
_COMMON_RUN = {"system": "run", "popen": "run", "exec": "run", "eval": "run"}
LANG_CALLS: dict[str, dict[str, str]] = {
    "python": {
        "create_connection": "connect", "connect": "connect?", "connect_ex": "connect?", "sendto": "connect?",
        "urlopen": "http", "urlretrieve": "http", "requests.get": "http", "requests.post": "http",
        "requests.put": "http", "requests.request": "http", "httpx.get": "http", "httpx.post": "http",
        "HTTPConnection": "http", "HTTPSConnection": "http", "Telnet": "http", "SMTP": "http",
        "listen": "listen_n", "bind": "bind", "serve_forever": "listen", "HTTPServer": "listen",
        "ThreadingHTTPServer": "listen", "TCPServer": "listen", "ThreadingTCPServer": "listen",
        "UDPServer": "listen", "make_server": "listen", "start_server": "listen", "create_server": "listen",
        "open": "open", "io.open": "open", "read_text": "read", "chdir": "chdir",
        "system": "run", "popen": "run", "Popen": "run", "check_output": "run", "check_call": "run",
        "getoutput": "run", "exec": "run", "eval": "run", "pty.spawn": "run", "pexpect.spawn": "run",
    },
    "node": {
        "net.connect": "connect", "net.createConnection": "connect", "tls.connect": "connect",
        "createConnection": "connect", "Deno.connect": "connect", "Bun.connect": "connect", "connect": "connect?",
        "net.Socket": "connect",
        "fetch": "http", "http.get": "http", "https.get": "http", "http.request": "http", "https.request": "http",
        "axios.get": "http", "axios.post": "http", "axios": "http",
        "listen": "listen", "createServer": "listen", "Deno.listen": "listen", "Deno.serve": "listen",
        "Bun.serve": "listen",
        "readFileSync": "read", "readFile": "read", "createReadStream": "read", "readTextFile": "read",
        "readTextFileSync": "read", "Bun.file": "read", "express.static": "serve", "serveStatic": "serve",
        "chdir": "chdir", "createWriteStream": "write",
        "exec": "run", "execSync": "run", "spawn": "run", "spawnSync": "run", "execFile": "run",
        "execFileSync": "run", "eval": "run", "Function": "run", "runInThisContext": "run",
    },
    "ruby": {
        "TCPSocket.new": "connect", "TCPSocket.open": "connect", "Socket.tcp": "connect",
        "UDPSocket.new": "connect", "connect": "connect?", "Net::HTTP.get": "http", "Net::HTTP.post": "http",
        "Net::HTTP.start": "http", "Net::HTTP.new": "http", "URI.open": "http", "URI": "http",
        "HTTParty.get": "http", "HTTParty.post": "http", "RestClient.get": "http", "RestClient.post": "http",
        "TCPServer.new": "listen", "TCPServer.open": "listen", "WEBrick::HTTPServer.new": "listen",
        "Socket.tcp_server_loop": "listen",
        "File.read": "read", "IO.read": "read", "File.readlines": "read", "IO.readlines": "read",
        "File.foreach": "read", "File.binread": "read", "IO.binread": "read", "File.open": "open",
        "open": "open", "File.binwrite": "write", "IO.write": "write", "Dir.chdir": "chdir",
        "system": "run", "exec": "run", "spawn": "run", "popen": "run", "IO.popen": "run", "popen3": "run",
        "capture2": "run", "capture2e": "run", "capture3": "run", "eval": "run", "instance_eval": "run",
    },
    "perl": {
        "IO::Socket::INET->new": "io_sock", "IO::Socket::INET6->new": "io_sock", "IO::Socket::IP->new": "io_sock",
        "IO::Socket::SSL->new": "io_sock", "new IO::Socket::INET": "io_sock", "Net::Telnet->new": "connect",
        "connect": "connect?", "get": "http", "getstore": "http", "mirror": "http", "HTTP::Tiny->new": "http",
        "listen": "listen_n", "bind": "bind", "HTTP::Daemon->new": "listen",
        "open": "perl_open", "read_file": "read", "chdir": "chdir",
        "system": "run", "exec": "run", "eval": "run",
    },
    "php": {
        "fsockopen": "connect", "pfsockopen": "connect", "stream_socket_client": "connect",
        "socket_connect": "connect", "curl_init": "http",
        "stream_socket_server": "listen", "socket_listen": "listen_n", "socket_bind": "bind",
        "file_get_contents": "read", "file": "read", "readfile": "read", "highlight_file": "read",
        "show_source": "read", "parse_ini_file": "read", "SplFileObject": "read", "fopen": "open",
        "chdir": "chdir",
        "system": "run", "exec": "run", "shell_exec": "run", "passthru": "run", "popen": "run",
        "proc_open": "run", "pcntl_exec": "run", "eval": "run", "assert": "run", "create_function": "run",
    },
    "lua": {
        "socket.connect": "connect", "socket.tcp": "connect", "connect": "connect?", "http.request": "http",
        "https.request": "http",
        "socket.bind": "listen", "listen": "listen_n", "bind": "bind",
        "io.open": "open", "io.lines": "read", "io.output": "write",
        "os.execute": "run", "io.popen": "run", "load": "run", "loadstring": "run", "dofile": "run",
    },
    "r": {
        "socketConnection": "connect", "make.socket": "connect", "url": "http", "download.file": "http",
        "GET": "http", "POST": "http", "httr::GET": "http", "httr::POST": "http",
        "startServer": "listen", "startDaemonizedServer": "listen", "runServer": "listen",
        "readLines": "read", "read.csv": "read", "read.table": "read", "read.delim": "read", "readRDS": "read",
        "scan": "read", "readChar": "read", "readBin": "read", "file": "open",
        "writeLines": "write2", "saveRDS": "write2", "write.csv": "write2", "write.table": "write2",
        "write": "write2", "sink": "write", "file.create": "write", "file.remove": "delete",
        "unlink": "unlink_r", "setwd": "chdir",
        "system": "run", "shell": "run", "system2": "argv", "eval": "run",
    },
    "julia": {
        "connect": "connect", "HTTP.get": "http", "HTTP.post": "http", "HTTP.request": "http",
        "download": "http", "listen": "listen", "HTTP.serve": "listen",
        "read": "read", "readlines": "read", "readline": "read", "eachline": "read", "open": "open",
        "write": "write", "cd": "chdir",
        "run": "run", "eval": "run", "include_string": "run",
    },
    "java": {
        "new Socket": "connect", "new java.net.Socket": "connect", "InetSocketAddress": "connect",
        "new URL": "http", "URI.create": "http", "new java.net.URL": "http",
        "new ServerSocket": "listen", "new java.net.ServerSocket": "listen", "HttpServer.create": "listen",
        "new FileInputStream": "read", "new FileReader": "read", "Files.readAllBytes": "read",
        "Files.readString": "read", "Files.readAllLines": "read", "Files.lines": "read",
        "Files.newBufferedReader": "read", "new File": "open",
        "new FileWriter": "write", "new FileOutputStream": "write", "new PrintWriter": "write",
        "Files.write": "write", "Files.writeString": "write", "Files.newBufferedWriter": "write",
        "Files.delete": "delete", "Files.deleteIfExists": "delete",
        "exec": "run", "ProcessBuilder": "argv", "new ProcessBuilder": "argv", "eval": "run",
    },
}
#: the language each interpreter's code is read as, for names the tables above share
_LANG_OF = {"deno": "node", "bun": "node", "tcl": "tcl", "expect": "tcl", "groovy": "java", "jshell": "java"}

#: regular expressions that alone say standard input/output are tied to a socket, per language
STDIO_PATTERNS: dict[str, tuple[str, ...]] = {
    "python": (r"dup2\s*\(\s*[\w.]+\.fileno\s*\(", r"std(?:in|out|err)\s*=\s*[\w.]+\.fileno\s*\("),
    "node": (r"\.pipe\s*\(\s*[\w.]+\.stdin\b", r"\.stdout\s*\.\s*pipe\s*\(", r"stdio\s*:\s*\[\s*[A-Za-z_$]"),
    "ruby": (r"(?:\$std(?:in|out|err)|STD(?:IN|OUT|ERR))\s*\.\s*reopen\s*\(", r"\[\s*:in\s*,\s*:out",
             r":in\s*=>\s*[A-Za-z_]", r"<&%d"),
    "perl": (r"open\s*\(?\s*\*?STD(?:IN|OUT|ERR)\s*,\s*['\"]?\s*[+<>]*\s*&",),
    "php": (r"proc_open\s*\([^;]{0,300}?(?:array\s*\(|\[)\s*0\s*=>\s*\$",),
    "tcl": (r"[<>]@\s*(?!std(?:in|out|err)\b)\$?\w",),
    "lua": (),
    "r": (),
    "julia": (r"redirect_std(?:in|out|err)\s*\(\s*[A-Za-z_]",),
    "java": (r"redirectInput\s*\(\s*[A-Za-z_]",),
    "awk": (),
}
#: regular expressions whose first group names a directory a server serves, per language
SERVE_PATTERNS: dict[str, tuple[str, ...]] = {
    "python": (r"directory\s*=\s*(['\"][^'\"\n]{1,200}['\"])",),
    "ruby": (r"DocumentRoot\s*(?:=>|:)\s*(['\"][^'\"\n]{1,200}['\"])",),
    "perl": (),
    "node": (),
    "php": (),
}
#: received data: calls that read from a socket (or a stream); the name assigned their result is "received"
_RECV_WORD = re.compile(r"(?:recv|recvfrom|gets|readline|readpartial|receive|getline|read_nonblock|"
                        r"readLine|readLines|fgets|fread|socket_read|stream_get_line|stream_get_contents|fgetc)\b|"
                        r"<\s*\$?[A-Za-z_]\w*\s*>")
_TARGETS = re.compile(r"([$@]?[A-Za-z_]\w*(?:\s*,\s*[$@]?[A-Za-z_]\w*){0,4})\s*\)?\s*$")
_AFTER_GETLINE = re.compile(r"\s+([A-Za-z_]\w*)")
_AFTER_GETS = re.compile(r"\s+\$\w+\s+([A-Za-z_]\w*)")
_RECV_INLINE = re.compile(r"recv\s*\(|\.\s*gets\b|<\s*\$?[A-Z_a-z]\w*\s*>|\bfgets\s*\(|\bfread\s*\(|socket_read|"
                          r":\s*receive\s*\(|\[\s*gets\s|readLine\s*\(|\breadline\s*\(|\$_\b")
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
_DEV_TCP = re.compile(r"/dev/(?:tcp|udp)/([A-Za-z0-9.:-]{1,253})/(\d{1,5})")
_FD_REDIR = re.compile(r"(?:^|[\s;|&])\d*[<>]&\s*([3-9]|[1-9]\d{1,3})(?![\w])")
_NET_TOOLS = frozenset(("nc", "ncat", "netcat", "telnet", "socat", "openssl"))
_FILE_EXT = frozenset(("py", "js", "rb", "pl", "php", "lua", "txt", "json", "db", "csv", "log", "sh", "yml", "yaml",
                       "conf", "cfg", "ini", "xml", "html", "md", "key", "pem", "crt", "sqlite", "tar", "gz", "zip"))
#: shells and interpreters: started with no command, they run whatever they are fed
SHELL_PROGRAMS = frozenset(("sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "yash",
                            "rbash", "pwsh", "powershell", "busybox", "python", "python2", "python3", "perl", "ruby",
                            "irb", "node", "nodejs", "php", "lua", "luajit", "tclsh", "wish", "expect", "jshell",
                            "cmd", "cmd.exe", "powershell.exe"))
#: options that leave a shell interactive (no script named)
_SHELL_FLAG_CHARS = frozenset("ilpsqmuvxbBEhIV-")
_WRAPPERS = frozenset(("exec", "env", "nohup", "setsid", "command", "builtin"))


def _name_regex(names) -> re.Pattern:
    """Calls by name: no look-behind in the expression, so that the engine skips the characters no name
    starts with (callers reject a match preceded by a name character)."""
    return re.compile("(" + trie_regex(names) + r")(?![\w])")


_NORM = re.compile(r"\s*(->|::|\.)\s*|\s+")


def _norm(text: str) -> str:
    return _NORM.sub(lambda m: m.group(1) or " ", text)


def _lang_tables(lang: str | None, skip_python: bool = False):
    """(regex, {name: how}, stdio regexes, serve regexes) for ``lang`` (None: every language)."""
    key = (lang, skip_python)
    hit = _TABLE_CACHE.get(key)
    if hit is None:
        lang2 = _LANG_OF.get(lang, lang)
        langs = [lang2] if lang2 in LANG_CALLS or lang2 in STDIO_PATTERNS else []
        if lang is None:
            langs = [x for x in LANG_CALLS if not (skip_python and x == "python")]
        names: dict[str, str] = {}
        for x in langs:
            for nm, how in LANG_CALLS.get(x, {}).items():
                names.setdefault(nm, how)
        stdio = [p for x in (langs if lang is not None else STDIO_PATTERNS) if not (skip_python and x == "python")
                 for p in STDIO_PATTERNS.get(x, ())]
        serve = [p for x in (langs if lang is not None else SERVE_PATTERNS) if not (skip_python and x == "python")
                 for p in SERVE_PATTERNS.get(x, ())]
        hit = (_name_regex(names) if names else None, names, [re.compile(p) for p in stdio],
               re.compile("|".join(serve)) if serve else None, langs)
        _TABLE_CACHE[key] = hit
    return hit


_TABLE_CACHE: dict = {}


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


# ------------------------------------------------------------------------ facts about commands run
def bare_shell(words: list) -> str | None:
    """The shell or interpreter ``words`` start with no script or command (``["/bin/sh", "-i"]``,
    ``["bash", "-li"]``, ``["python3"]``, ``["/bin/sh", "-i", "<&3"]``), or None."""
    w = [x for x in words if isinstance(x, str)]
    while w and w[0] in _WRAPPERS:
        w.pop(0)
    if not w or MARK in w[0]:
        return None
    prog = w[0].rsplit("/", 1)[-1]
    if prog not in SHELL_PROGRAMS and not (prog.startswith("python") and prog[6:].replace(".", "").isdigit()):
        return None
    target = False
    for a in w[1:]:
        if target:
            target = False
            continue  # the file of a redirection (``>& /dev/tcp/…``)
        if a in (">", ">>", "<", ">&", "&>", "2>", "1>", "0<", "<>", ">|", "2>>", "&>>"):
            target = True
            continue
        if _FD_REDIR.match(" " + a) or a in ("2>&1", "0>&1", "1>&2", ">&2", "-", "--"):
            continue
        if a.startswith("--") and a in ("--login", "--interactive", "--norc", "--noprofile", "--posix", "--noediting"):
            continue
        if a.startswith("-") and len(a) > 1 and set(a[1:]) <= _SHELL_FLAG_CHARS:
            continue
        if a.startswith(("<", ">", "2>")):
            continue  # other redirections
        return None
    return w[0]


_SEGMENTS = re.compile(r"&&|\|\||[;\n|`]|\$\(|(?<![<>&])&(?![>&])")


def _shell_facts(text: str) -> list:
    """Facts about a command line the code runs: shells started in it with no script, descriptors other
    than 0-2 redirected (``<&3``: a socket's), ``/dev/tcp/HOST/PORT``, ``nc HOST PORT``."""
    out: list = []
    if len(text) > 4096:
        text = text[:4096]
    for m in _DEV_TCP.finditer(text):
        out.append(("connect", _show_addr(m.group(1), m.group(2))))
        break
    m = _FD_REDIR.search(text)
    if m:
        out.append(("stdio_socket", f"fd {m.group(1)}"))
    for k, seg in enumerate(_SEGMENTS.split(text)):
        if k >= 16:
            break
        words = seg.split()
        if not words:
            continue
        sh = bare_shell(words)
        if sh:
            out.append(("shell_start", sh))
        elif words[0].rsplit("/", 1)[-1] in _NET_TOOLS:
            toks = [("s", x) for x in words[1:] if not x.startswith("-")]
            host, port = _addr_of(toks)
            if host and port:
                out.append(("connect", _show_addr(host, port)))
    return out


def _finish(effects: list) -> list:
    """Effects without repeats, with the facts their commands imply (shells, tied descriptors, sockets)."""
    out: list = []
    seen: set = set()

    def put(e):
        key = (e[0], tuple(e[1]) if isinstance(e[1], list) else e[1])
        if key not in seen and len(out) < MAX_EFFECTS:
            seen.add(key)
            out.append(e)
            return True
        return False

    for e in effects:
        if not put(e):
            continue
        kind, val = e
        if kind in ("write", "read") and isinstance(val, str) and "://" in val[:12]:
            host, port = _addr_of([("s", val)])
            put(("connect", f"{val.split('://', 1)[0]}://{_show_addr(host, port)}"))  # file_put_contents("https://…")
        elif kind == "shell" and isinstance(val, str):
            for f in _shell_facts(val):
                put(f)
        elif kind == "argv" and val:
            sh = bare_shell(val)
            if sh:
                put(("shell_start", sh))
            elif len(val) > 2 and str(val[0]).rsplit("/", 1)[-1] in T.SHELLS and val[1] in ("-c", "-ic", "-lc"):
                for f in _shell_facts(str(val[2])):
                    put(f)
    return out


MAX_EFFECTS = 128

#: words any Python reading reacts to: without one, the text has no effect to read
_AST_HINT = re.compile(trie_regex(sorted(
    set(CODE_CALLS) | {"subprocess", "shutil", "pty", "socket", "connect", "bind", "listen", "accept", "serve",
                       "Server", "urlopen", "urlretrieve", "Request", "requests", "httpx", "http", "smtplib",
                       "ftplib", "telnet", "Telnet", "dup2", "getattr", "__import__", "import_module", "__dict__",
                       "vars", "globals", "modules", "chdir", "partial", "pexpect", "read_text", "read_bytes",
                       "write_text", "write_bytes", "touch", "rename", "replace", "move", "copy", "symlink",
                       "chmod", "chown", "truncate", "mkdir", "makedirs", "link", "compile", "eval", "fetch",
                       "readFile", "createServer", "TCPSocket", "fsockopen", "Socket"}), flexible=False))


_INTERPOLATED = re.compile(r"\$\{?([A-Za-z_]\w*)|#\{\s*([A-Za-z_]\w*)")
_BARE_VAR = re.compile(r"\s*(?:\$\{?([A-Za-z_]\w*)\}?|\$_|#\{\s*([A-Za-z_]\w*)\s*\})\s*")


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


def _scan_code(code: str, lang: str | None) -> list:
    if len(code) > MAX_CODE_SCAN:
        # the first MAX_CODE_SCAN characters are read; the rest is not (and says so)
        return _finish([("too_long", len(code))] + _scan_code(code[:MAX_CODE_SCAN], lang))
    out = None
    if lang in (None, "python") and "(" in code and _AST_HINT.search(code):  # (Python acts through calls)
        from core.policy.code.python import read_python

        out = read_python(code, lang)
        if out is not None and lang is None:
            out = out + _scan_more(code, None, skip_python=True)  # the text may be another language's
    if out is None:
        out = scan_linear(code, lang)
    return _finish(out) if out else out


# the name scans are compiled once, at import (a first request must not pay some 30 ms for them)
for _lang in (None, "python", "node", "ruby", "perl", "php", "lua", "awk", "tcl", "r", "julia", "java"):
    _lang_tables(_lang)
_lang_tables(None, True)
del _lang
