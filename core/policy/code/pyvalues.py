"""The values the Python reader (:mod:`core.policy.code.python`) gives expressions, and the operations on them
that need no reader: modules and names (:class:`Mod`), paths (:class:`PathV`), sockets (:class:`Sock`), data a
socket received (:class:`Recv`), descriptors (:class:`FD`), methods (:class:`Meth`), the unknown value
(``_U``); concatenation, repetition, ``%`` and ``.format`` formatting, path joins. Literal values are Python's
own (``str``, ``bytes``, ``int``, lists and tuples of values).

Every value is bounded: strings at most :data:`MAX_STR` characters, at most :data:`MAX_CAND` candidates for one
name or expression; an operation that would exceed a bound gives the unknown value (or the unknown mark inside a
string) and never raises.

To follow a new kind of value: add its class here (opaque values: add it to :func:`_opaque` too) and make
:meth:`core.policy.code.pyeval.Evaluator.call_value` return it; a new operator: :func:`_binop`.
"""

from __future__ import annotations

import ast

from core.policy._paths import UNKNOWN_MARK as MARK

#: longest string value built (concatenation, repetition, formatting)
MAX_STR = 4096
#: candidate values kept for one name or expression
MAX_CAND = 4


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
#: the names of modules some spell differently
_MODULE_ALIASES = {"posix": "os", "nt": "os", "builtins": "", "__builtins__": "", "__builtin__": ""}


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
