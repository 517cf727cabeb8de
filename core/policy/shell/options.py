"""Reading a program's options: :func:`getopts` (any order and spelling: ``-rf``, ``-r -f``, ``--recursive``,
``--x=y``) into :class:`Opts`, :func:`first_value`, :func:`parse_fx` (by a program's OPTION_EFFECTS entry), the
readings of the options before a subcommand (:func:`_global_readings`, :func:`_globals_first`; table
GLOBAL_OPTS) and tar's old-style first word (:func:`tar_old_style`).

A handler reads its options with these; to teach one an option that takes a value, pass it in ``short_arg`` or
``long_arg`` (or add it to the program's table).
"""

from __future__ import annotations

from core.policy import tables as T
from core.policy.shell.state import Acc
from core.tiers import Tier

M = Tier.MEDIUM


class Opts:
    """Parsed options: ``flags`` (the short option letters given), ``vals`` (letter -> its values, for the
    letters that take one), ``longs`` (``--name`` -> its value, or True), ``pos`` (the operands, in order)."""

    __slots__ = ("flags", "vals", "longs", "pos")

    def __init__(self) -> None:
        self.flags: set = set()
        self.vals: dict = {}
        self.longs: dict = {}
        self.pos: list = []

    def long(self, name: str):
        """The value of the long option ``name`` (True when given without one), or None."""
        return self.longs.get(name)

    def any(self, *names: str) -> bool:
        """Whether any of ``names`` (``-x`` or ``--long``) was given."""
        for nm in names:
            if nm.startswith("--"):
                if nm in self.longs:
                    return True
            elif nm[1:] in self.flags:
                return True
        return False


def getopts(args: list, short_arg=frozenset(), long_arg=frozenset(), stop_at_pos: bool = False) -> Opts:
    """Read options in any order and spelling (``-rf``, ``-r -f``, ``--recursive``, ``--x=y``)."""
    o = Opts()
    i, n = 0, len(args)
    while i < n:
        a = args[i]
        if a == "--":
            o.pos.extend(args[i + 1:])
            break
        if a.startswith("--") and len(a) > 2:
            if "=" in a:
                k, v = a.split("=", 1)
                o.longs[k] = v
            elif a in long_arg and i + 1 < n:
                o.longs[a] = args[i + 1]
                i += 1
            else:
                o.longs[a] = True
        elif a.startswith("-") and len(a) > 1 and not a[1].isdigit():
            j = 1
            while j < len(a):
                ch = a[j]
                if ch in short_arg:
                    if j + 1 < len(a):
                        v = a[j + 1:]
                    elif i + 1 < n:
                        v = args[i + 1]
                        i += 1
                    else:
                        v = ""
                    o.flags.add(ch)
                    o.vals.setdefault(ch, []).append(v)
                    break
                o.flags.add(ch)
                j += 1
        else:
            o.pos.append(a)
            if stop_at_pos:
                o.pos.extend(args[i + 1:])
                break
        i += 1
    return o


def first_value(o: Opts, ch: str, *longs: str):
    """The first value of the short option ``ch`` (``-o FILE``), else of the first of ``longs`` given with a value
    (``--output=FILE``), else None."""
    v = o.vals.get(ch)
    if v:
        return v[0]
    for nm in longs:
        x = o.longs.get(nm)
        if isinstance(x, str):
            return x
    return None


TARS = frozenset(("tar", "gtar", "bsdtar"))


_TAR_OLD_ARGS = "bfFgIKLNTVXC"  # letters of an old-style first word (`tar czf x.tgz`) that take the next word


def tar_old_style(args: list) -> list:
    """``tar czf x.tgz dir`` as ``tar -c -z -f x.tgz dir``."""
    first = args[0] if args else ""
    if not first or first[0] == "-" or not first.isalpha() or len(first) > 16:
        return args
    out: list = []
    k = 1
    for ch in first:
        out.append("-" + ch)
        if ch in _TAR_OLD_ARGS and k < len(args):
            out.append(args[k])
            k += 1
    return out + args[k:]


def _global_readings(args: list, metas: list, opts: tuple, prog: str, acc: Acc) -> list:
    """The readings of the options before a program's subcommand (table :data:`GLOBAL_OPTS`): each is
    ``(args, metas)`` with every option before the subcommand and its value made one word (``-n prod`` ->
    ``-n=prod``), so the subcommand is the first word not starting with "-" (``helm -n prod uninstall api``).
    An option of neither kind followed by a word may take it as its value or not: both readings are returned
    (the option read as a flag first), so the higher tier decides and an unknown option never hides the
    subcommand behind its value (``helm --x get uninstall api``)."""
    with_val, flags = opts
    readings: list = []
    head: list = []
    hmetas: list = []
    i, n = 0, len(args)
    while i < n:
        a = args[i]
        if a == "--" or a == "-" or not a.startswith("-"):
            break
        m = metas[i] if i < len(metas) else None
        nxt = args[i + 1] if i + 1 < n else None
        if a in with_val and nxt is not None:
            head.append(f"{a}={nxt}")
            hmetas.append(metas[i + 1] if i + 1 < len(metas) else m)
            i += 2
            continue
        known = ("=" in a or a in flags or a in with_val or (
            a[1] != "-" and len(a) > 2 and (a[:2] in with_val or all(f"-{ch}" in flags for ch in a[1:]))))
        if not known and nxt is not None and nxt != "--" and not nxt.startswith("-"):
            if len(readings) >= T.MAX_OPTION_READINGS:
                acc.add(M, "shell.options.unknown", f"{prog}: too many unknown options before its subcommand")
                break
            # reading 1: the option takes no value, the next word is the subcommand
            readings.append((head + args[i:], hmetas + metas[i:]))
            head = head + [f"{a}={nxt}"]
            hmetas = hmetas + [metas[i + 1] if i + 1 < len(metas) else m]
            i += 2
            continue
        head.append(a)
        hmetas.append(m)
        i += 1
    readings.append((head + args[i:], hmetas + metas[i:]))
    return readings


def _globals_first(handler, opts: tuple):
    """``handler`` called with the options before the subcommand read first (:func:`_global_readings`), once per
    reading; what the first reading prints is what the command prints."""

    def h_global_options(r, prog, args, metas, ctx, acc, stdin):
        """The wrapped handler, once per reading of the options before the subcommand."""
        out = None
        for k, (a, m) in enumerate(_global_readings(args, metas, opts, prog, acc)):
            o = handler(r, prog, a, m, ctx, acc, stdin)
            if k == 0:
                out = o
        return out

    return h_global_options


def parse_fx(spec: tuple, args: list):
    """Read ``args`` by a program's OPTION_EFFECTS entry: ``([(effect or None, option, value)], operands)``;
    options with a value or an effect are listed."""
    shorts, optional, takes, effects, _ = spec
    found: list = []
    pos: list = []
    i, n = 0, len(args)
    while i < n:
        a = args[i]
        i += 1
        if a == "--":
            pos.extend(args[i:])
            break
        if len(a) < 2 or a[0] not in "-+" or a[1].isdigit():
            if len(a) > 1 and a[0] == "-":
                continue  # -5: an old numeric option
            if a[:1] == "+" and "+" in effects:
                found.append((effects["+"], "+", a[1:]))
            else:
                pos.append(a)  # (an empty argument is an operand too)
            continue
        if a[0] == "+":
            if "+" in effects:
                found.append((effects["+"], "+", a[1:]))
            else:
                pos.append(a)
            continue
        if a.startswith("--") or a in takes or shorts is None:
            k, eq, v = a.partition("=") if a.startswith("--") else (a, "", "")
            val = None
            if eq:
                val = v
            elif k in takes and i < n:
                val = args[i]
                i += 1
            fx = effects.get(k)
            if fx is not None or val is not None:
                found.append((fx, k, val))
            continue
        j, m = 1, len(a)
        while j < m:
            ch = a[j]
            key = "-" + ch
            if ch in shorts:
                if j + 1 < m:
                    val = a[j + 1:]
                elif i < n:
                    val = args[i]
                    i += 1
                else:
                    val = ""
                found.append((effects.get(key), key, val))
                break
            if ch in optional:
                found.append((effects.get(key), key, a[j + 1:]))
                break
            fx = effects.get(key)
            if fx is not None:
                found.append((fx, key, None))
            j += 1
    return found, pos
