"""The data flow of the Python reader (:mod:`core.policy.code.python`): :class:`Evaluator` gives every
expression its candidate values (:mod:`core.policy.code.pyvalues`) and binds names to them.

What it follows: names assigned literals (all candidates of an ``if``/``else``, in order), import aliases and
``from … import *``, attributes of modules, ``getattr``/``vars``/``__dict__``/``sys.modules``/``__import__``/
``importlib.import_module``, string methods (``join``, ``format``, ``replace``, ``decode`` …), slices and
indexes of literals, ``os.environ``/``os.getenv``, :mod:`pathlib` and ``os.path.join`` paths, sockets and what
they (or a web client) received. Anything else is the unknown value. Evaluation is bounded by
:data:`MAX_EVAL_DEPTH` and the bounds of the values.

To follow a new call's value (a path, a socket, received data …): :meth:`Evaluator.call_value` (its name in one
of the tables below); a new string method: :func:`_str_method`. The effects of calls are read by
:mod:`core.policy.code.python`.
"""

from __future__ import annotations

import ast

from core.policy._paths import UNKNOWN_MARK as MARK
from core.policy.code.calls import PY_CALLS
from core.policy.code.pyvalues import (
    _RECV,
    _SOCK,
    _U,
    FD,
    MAX_CAND,
    MAX_STR,
    Meth,
    Mod,
    PathV,
    Sock,
    _attr,
    _binop,
    _cands,
    _canon,
    _env_value,
    _format,
    _join,
    _opaque,
    _text,
)

#: expression nesting evaluated at most
MAX_EVAL_DEPTH = 48

#: methods of sockets whose result is what the socket received
_RECV_METHODS = frozenset(("recv", "recvfrom", "recv_into", "recvmsg", "makefile", "read", "readline",
                           "readlines", "readall", "getvalue"))
#: functions whose value is a path or module the reader follows
_PATH_CALLS = frozenset(("pathlib.Path", "pathlib.PurePath", "pathlib.PosixPath", "pathlib.PurePosixPath", "Path",
                         "PurePath", "PosixPath"))
_HOME_CALLS = frozenset(("pathlib.Path.home", "Path.home", "os.path.expanduser", "os.path.expandvars"))
_SOCKET_CALLS = frozenset(("socket.socket", "socket.create_connection", "socket.fromfd", "socket.socketpair",
                           "ssl.wrap_socket", "socket.create_server"))
_KNOWN = frozenset(PY_CALLS) | _PATH_CALLS | _HOME_CALLS | _SOCKET_CALLS


class Evaluator:
    """Candidate values of expressions, with the names bound so far (``env``) and the modules imported with
    ``*`` (``star``); the reader (:class:`core.policy.code.python._Reader`) binds names as it walks."""

    def __init__(self):
        self.env: dict[str, list] = {}
        self.star: list[str] = []  # modules imported with *

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


def _str_method(b, name: str, vals: list, node: ast.Call, r: Evaluator, d: int):
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
