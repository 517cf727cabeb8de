"""The call tables of the inline-code readers: which calls of each language do what (data), and the regular
expressions that find their names.

Every language (the linear scan, :mod:`core.policy.code.linear`):
    :data:`CODE_CALLS`      calls that run commands, delete or write files, by their last name (every language;
                            Python's reader uses it for methods of objects it does not know);
    :data:`LANG_CALLS`      per language: connections, listeners, reads, writes, servers, commands run from
                            variables (``_LANG_OF``: the table an interpreter shares);
    :data:`STDIO_PATTERNS`  per language: expressions that alone say standard input/output are tied to a socket;
    :data:`SERVE_PATTERNS`  per language: expressions naming the directory a server serves.
Python (read with ``ast``, :mod:`core.policy.code.python`):
    :data:`PY_CALLS`        calls by their dotted name (``os.system``, ``subprocess.run`` …) -> how they are read;
    :data:`PATH_METHODS`    methods of :class:`pathlib.Path` values -> how.

To read a new call: add its name here with an existing "how" (the comments above each table say what each one
reads) and a case to ``tests/core/policy/test_code.py``; a new "how" is handled by the reader that uses the table
(:func:`core.policy.code.linear._scan_calls` for :data:`CODE_CALLS`, :func:`core.policy.code.linear._call_effect`
for :data:`LANG_CALLS`, :meth:`core.policy.code.python._Reader.call_effect` for :data:`PY_CALLS`). A name of
:data:`LANG_CALLS` is written as in the code: a blank matches any blanks, ``.``/``->``/``::`` may have blanks
around them (``IO::Socket::INET->new``). The name searches are compiled at import (:func:`_lang_tables`).
"""

from __future__ import annotations

import re

# ============================================================================================= every language
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

# ===================================================================================================== Python
#: Python calls by their dotted name -> how their arguments are read:
#:   cmd      a shell command (one string) or program and arguments (a list)
#:   sp       subprocess style: a string or a list; ``stdin=``/``stdout=`` a socket ties them to it
#:   argv_s   program and arguments as separate strings (``asyncio.create_subprocess_exec``)
#:   exec_l   program path, then its argv as strings (``os.execl``); ``spawn_l``: a mode first
#:   exec_v   program path, then its argv as a list (``os.execv``); ``spawn_v``: a mode first
#:   pty      ``pty.spawn``: a program name or an argv list
#:   rmtree, delete, write, read   the first argument is the path; ``open``/``os_open``: by the mode or flags
#:   copy     read the first, write the second; ``move``: delete the first, write the second
#:   write2   write the second argument (``os.symlink(src, dst)``)
#:   pycode   Python code (``exec``, ``eval``, ``compile``)
#:   connect  a socket connection to the address in the first argument; ``sendto``: in the second
#:   http     a web client given a URL first (``urlopen``, ``requests.post``): the connection is "SCHEME://HOST",
#:            what it returns is received data; ``connect_hp``: a client given a host and port (``smtplib.SMTP``)
#:   bind     a listening address (``s.bind((h, p))``); ``listen``: a listening socket or server
#:   server   a server bound to the address in its first argument (``HTTPServer((h, p), H)``)
#:   dup2     ``os.dup2(fd, n)``: with a socket's descriptor, standard input/output tied to the socket
#:   chdir    the working directory (a server started later serves it)
#:   partial  ``functools.partial(Handler, directory=…)``: the directory a server serves
PY_CALLS: dict[str, str] = {
    "os.system": "cmd", "os.popen": "cmd", "os.popen2": "cmd", "os.popen3": "cmd", "os.popen4": "cmd",
    "commands.getoutput": "cmd", "commands.getstatusoutput": "cmd", "platform.popen": "cmd",
    "subprocess.run": "sp", "subprocess.call": "sp", "subprocess.check_call": "sp", "subprocess.check_output": "sp",
    "subprocess.Popen": "sp", "subprocess.getoutput": "cmd", "subprocess.getstatusoutput": "cmd",
    "asyncio.create_subprocess_shell": "cmd", "asyncio.create_subprocess_exec": "argv_s",
    "os.execl": "exec_l", "os.execlp": "exec_l", "os.execle": "exec_l", "os.execlpe": "exec_l",
    "os.execv": "exec_v", "os.execvp": "exec_v", "os.execve": "exec_v", "os.execvpe": "exec_v",
    "os.spawnl": "spawn_l", "os.spawnlp": "spawn_l", "os.spawnle": "spawn_l", "os.spawnlpe": "spawn_l",
    "os.spawnv": "spawn_v", "os.spawnvp": "spawn_v", "os.spawnve": "spawn_v", "os.spawnvpe": "spawn_v",
    "os.posix_spawn": "exec_v", "os.posix_spawnp": "exec_v", "pty.spawn": "pty",
    "shutil.rmtree": "rmtree", "os.remove": "delete", "os.unlink": "delete", "os.rmdir": "delete",
    "os.removedirs": "delete", "shutil.copy": "copy", "shutil.copy2": "copy", "shutil.copyfile": "copy",
    "shutil.copytree": "copy", "shutil.move": "move", "os.rename": "move", "os.replace": "move",
    "os.renames": "move", "os.symlink": "write2", "os.link": "write2", "os.chmod": "write", "os.chown": "write",
    "os.lchown": "write", "os.truncate": "write", "os.mkdir": "write", "os.makedirs": "write",
    "os.mkfifo": "write", "os.mknod": "write",
    "open": "open", "io.open": "open", "codecs.open": "open", "os.open": "os_open", "io.FileIO": "open",
    "exec": "pycode", "eval": "pycode", "compile": "pycode",
    "socket.create_connection": "connect", "socket.connect": "connect", "socket.connect_ex": "connect",
    "socket.sendto": "sendto", "socket.bind": "bind", "socket.listen": "listen", "socket.accept": "listen",
    "socket.create_server": "server", "telnetlib.Telnet": "connect_hp",
    "urllib.request.urlopen": "http", "urllib.request.Request": "http", "urllib.request.urlretrieve": "http",
    "urllib2.urlopen": "http", "http.client.HTTPConnection": "http", "http.client.HTTPSConnection": "http",
    "smtplib.SMTP": "connect_hp", "smtplib.SMTP_SSL": "connect_hp", "ftplib.FTP": "connect_hp",
    "ftplib.FTP_TLS": "connect_hp",
    "requests.get": "http", "requests.post": "http", "requests.put": "http", "requests.patch": "http",
    "requests.delete": "http", "requests.head": "http", "requests.request": "http", "httpx.get": "http",
    "httpx.post": "http", "httpx.put": "http", "httpx.patch": "http", "httpx.request": "http",
    "http.server.HTTPServer": "server", "http.server.ThreadingHTTPServer": "server",
    "socketserver.TCPServer": "server", "socketserver.ThreadingTCPServer": "server",
    "socketserver.ForkingTCPServer": "server", "socketserver.UDPServer": "server",
    "socketserver.ThreadingUDPServer": "server", "xmlrpc.server.SimpleXMLRPCServer": "server",
    "SimpleHTTPServer.test": "listen", "http.server.test": "listen", "BaseHTTPServer.HTTPServer": "server",
    "SocketServer.TCPServer": "server", "wsgiref.simple_server.make_server": "server",
    "asyncio.start_server": "server", "asyncio.start_unix_server": "listen",
    "os.dup2": "dup2", "os.chdir": "chdir", "functools.partial": "partial", "pexpect.spawn": "cmd",
    "pexpect.run": "cmd",
}
#: methods of :class:`pathlib.Path` values -> how (the path is the value's)
PATH_METHODS = {
    "read_text": "read", "read_bytes": "read", "open": "open", "write_text": "write", "write_bytes": "write",
    "touch": "write", "mkdir": "write", "chmod": "write", "symlink_to": "write", "hardlink_to": "write",
    "unlink": "delete", "rmdir": "delete", "rename": "move", "replace": "move",
}


# ========================================================================================== the name searches
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


# the name scans are compiled once, at import (a first request must not pay some 30 ms for them)
for _lang in (None, "python", "node", "ruby", "perl", "php", "lua", "awk", "tcl", "r", "julia", "java"):
    _lang_tables(_lang)
_lang_tables(None, True)
del _lang
