"""Parameter expansion with operators and arithmetic, as bash evaluates them (parts built by
:mod:`core.policy.shell.syntax.params`):

* the value of ``${…}`` with an operator, computed when the variable's value is known (``${F,,}``, ``${F^^}``,
  ``${F/W/w}``, ``${F#X}``, ``${F%X}``, ``${F:1:3}``, ``${#F}``, ``${!ref}``, ``${F@U}``, ``${F@E}``, ``${F@P}``);
  operands and subscripts are always expanded, so the substitutions in them are read whether or not bash takes
  that branch (``echo "${x:-$(rm -rf ~)}"``);
* arithmetic (:meth:`ParamExpansion.run_arith`): bash expands the substitutions in an expression and evaluates a
  variable's value as an expression in turn, expanding array subscripts in it, so
  ``x='a[$(cmd)]'; (( x ))`` runs cmd. Read in ``$((…))``, ``((…))``, ``for ((…))``, subscripts and offsets,
  ``[[ A -eq B ]]``, ``let``, and the names builtins assign or test (``declare 'a[$(cmd)]=1'``, ``read``,
  ``printf -v``, ``test -v``, ``unset``, ``wait -p``: :data:`NAME_BUILTINS`);
* ``${x@P}`` (prompt expansion) reads the value as the inside of double quotes: its substitutions run.

:class:`ParamExpansion` is a mixin of :class:`core.policy.shell.walker.ShellReader` (it needs ``expand`` and
``_lookup`` of :class:`core.policy.shell.expansion.Expansion`).
"""

from __future__ import annotations

import re
from functools import lru_cache

from core.policy.shell.common import show
from core.policy.shell.globs import translate
from core.policy.shell.state import MARK, MAX_DEPTH, MAX_VALUE, Acc, Ctx
from core.policy.shell.syntax import LIT, Parser, Word
from core.policy.shell.syntax.words import _ansi_decode
from core.tiers import Tier

M = Tier.MEDIUM

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
#: the arithmetic comparisons of ``[[ ]]`` (their operands are evaluated as arithmetic)
_ARITH_TESTS = frozenset(("-eq", "-ne", "-lt", "-le", "-gt", "-ge"))
#: builtins that take variable names, which bash evaluates (a subscript ``a[…]`` is arithmetic, its substitutions
#: run), and the options whose next word is a name (True) or a value to skip (False)
NAME_BUILTINS = {
    "declare": {}, "typeset": {}, "local": {}, "readonly": {}, "export": {}, "unset": {},
    "read": {"-a": True, "-d": False, "-i": False, "-n": False, "-N": False, "-p": False, "-t": False, "-u": False},
    "printf": {"-v": True}, "test": {"-v": True, "-R": True}, "[": {"-v": True, "-R": True}, "wait": {"-p": True},
    "let": {},
}
#: longest value an operator is computed on (longer: unknown until run time)
_MAX_OP_VALUE = 1024


@lru_cache(maxsize=512)
def _glob_rx(pat: str, greedy: bool = True):
    """A bash pattern (``*``, ``?``, ``[…]``, ``\\x``) as a compiled regular expression, or None."""
    try:
        return re.compile(translate(pat, greedy, one_line=False), re.S)
    except re.error:
        return None


def _remove(val: str, pat: str, op: str) -> str:
    """``${v#p}``, ``${v##p}`` (the shortest or longest prefix matching p removed), ``${v%p}``, ``${v%%p}``."""
    rx = _glob_rx(pat)
    if rx is None:
        return MARK
    n = len(val)
    shortest = len(op) == 1
    if op[0] == "#":
        for k in (range(n + 1) if shortest else range(n, -1, -1)):
            if rx.fullmatch(val, 0, k):
                return val[k:]
        return val
    for k in (range(n, -1, -1) if shortest else range(n + 1)):
        if rx.fullmatch(val, k, n):
            return val[:k]
    return val


def _replace(val: str, arg: str, op: str) -> str:
    """``${v/p/r}`` (the first match of p replaced), ``${v//p/r}`` (every match), ``${v/#p/r}``, ``${v/%p/r}``."""
    pat, _, rep = arg.partition("/")
    if not pat:
        return val
    rx = _glob_rx(pat)
    if rx is None:
        return MARK
    if op == "/#":
        for k in range(len(val), -1, -1):
            if rx.fullmatch(val, 0, k):
                return rep + val[k:]
        return val
    if op == "/%":
        for k in range(len(val) + 1):
            if rx.fullmatch(val, k):
                return val[:k] + rep
        return val
    return rx.sub(lambda _m: rep, val, count=0 if op == "//" else 1)


def _case(val: str, arg: str, op: str) -> str:
    """``${v,}``, ``${v,,}``, ``${v^}``, ``${v^^}`` (optionally only the characters matching a pattern)."""
    rx = _glob_rx(arg) if arg else None
    conv = str.lower if op[0] == "," else str.upper
    if len(op) == 1:
        return (conv(val[:1]) if rx is None or rx.fullmatch(val[:1]) else val[:1]) + val[1:]
    if rx is None:
        return conv(val)
    return "".join(conv(ch) if rx.fullmatch(ch) else ch for ch in val)


def _int(text: str):
    """An integer literal (``3``, ``-1``, `` (-1)``), or None."""
    t = text.strip().strip("()").strip()
    try:
        return int(t)
    except ValueError:
        return None


def _substring(val: str, arg: str) -> str:
    """``${v:offset}``, ``${v:offset:length}`` with literal numbers (negative counts from the end)."""
    off_t, colon, len_t = arg.partition(":")
    off = _int(off_t)
    ln = _int(len_t) if colon else None
    if off is None or (colon and ln is None):
        return MARK
    if off < 0:
        off = max(0, len(val) + off)
    if ln is None:
        return val[off:]
    end = off + ln if ln >= 0 else len(val) + ln
    return val[off:end] if end >= off else MARK


def _quote(val: str) -> str:
    return "'" + val.replace("'", "'\\''") + "'"


def apply_op(name: str, base: str, op: str, arg: str) -> str:
    """The value of ``${name OP arg}`` when ``name`` holds ``base`` (MARK: unknown until run time)."""
    if not op:
        return base
    if op in (":-", "-", ":=", "="):
        if base == MARK or (op[0] == ":" and base == ""):
            return arg
        return base
    if op in (":+", "+"):
        if base == MARK:
            return MARK
        return "" if op == ":+" and base == "" else arg
    if op in (":?", "?"):
        return base
    if MARK in base or MARK in arg or len(base) > _MAX_OP_VALUE:
        return MARK
    if op in ("#", "##", "%", "%%"):
        return _remove(base, arg, op)
    if op[0] == "/":
        return _replace(base, arg, op)
    if op[0] in ",^":
        return _case(base, arg, op)
    if op == ":":
        return _substring(base, arg)
    if op == "@":
        t = {"U": str.upper, "L": str.lower, "u": lambda v: v[:1].upper() + v[1:], "Q": _quote, "K": _quote,
             "k": _quote, "E": _ansi_decode, "a": lambda v: "", "A": lambda v: f"{name}={_quote(v)}"}.get(arg)
        return t(base) if t is not None else MARK
    return MARK


class ParamExpansion:
    """``${…}`` operators, arithmetic and prompt expansion (needs the reader's ``expand`` and ``_lookup``)."""

    def expand_dquoted(self, text: str, ctx: Ctx, acc: Acc):
        """``text`` read as the inside of double quotes, as bash reads a prompt (``${x@P}``) or an expression's
        value: its substitutions run. Returns ``(value, meta)`` (``meta`` as :meth:`expand` gives it)."""
        if ctx.depth >= MAX_DEPTH:
            acc.add(M, "shell.too_deep", "scripts nested too deep to read")
            return MARK, None
        p = Parser(text, 0, ctx.budget)
        parts: list = []
        p._dquote_body(parts, keep=True)
        fields, meta = self.expand(Word(parts, True), ctx.child(deeper=True), acc, split=False)
        return "".join(fields), meta

    def _parts_value(self, parts: list, ctx: Ctx, acc: Acc, pick):
        """The text of an operand or subscript (its substitutions run) and what they printed (a Flow or None)."""
        if not parts:
            return "", None
        if len(parts) == 1 and parts[0][0] == LIT:
            return parts[0][1], None
        fields, meta = self.expand(Word(parts, True), ctx, acc, pick, split=False)
        return "".join(fields), (meta[0] if meta else None)

    def run_arith(self, text: str, ctx: Ctx, acc: Acc, depth: int = 0) -> None:
        """``text`` evaluated as bash evaluates arithmetic: the substitutions in it run, and a variable whose value
        is known is evaluated in turn (its array subscripts expanded: ``x='a[$(cmd)]'; (( x ))`` runs cmd)."""
        if not text or depth > 3:
            return
        if "$" in text or "`" in text:
            self.expand_dquoted(text, ctx, acc)
        if not ctx.env:
            return
        seen = 0
        for name in _IDENT.findall(text):
            v = ctx.env.get(name)
            if type(v) is str and ("[" in v or "$" in v or "`" in v) and MARK not in v:
                self.run_arith(v, ctx, acc, depth + 1)
                seen += 1
                if seen >= 8:
                    break

    def name_subscript(self, name: str, ctx: Ctx, acc: Acc) -> None:
        """A variable name bash assigns, tests or dereferences (``a[$(cmd)]``): the subscript is arithmetic."""
        k = name.find("[")
        if k > 0 and _IDENT.fullmatch(name, 0, k):
            j = name.rfind("]")
            self.run_arith(name[k + 1:j if j > k else len(name)], ctx, acc)

    def arith_names(self, prog: str, args: list, ctx: Ctx, acc: Acc) -> None:
        """The names (and, for ``let`` and ``declare -i``, the expressions) a builtin of :data:`NAME_BUILTINS` is
        given: what bash evaluates in them runs."""
        if prog == "let":
            for a in args[:64]:
                self.run_arith(a, ctx, acc)
            return
        opts = NAME_BUILTINS[prog]
        assigns = prog in ("declare", "typeset", "local", "readonly", "export")
        flags = ""
        k = 0
        n = min(len(args), 64)
        while k < n:
            a = args[k]
            if a[:1] in ("-", "+") and len(a) > 1 and a != "--":
                if a in opts:
                    if opts[a] and k + 1 < n:
                        self.name_subscript(args[k + 1], ctx, acc)
                    k += 2
                    continue
                flags += a[1:]
                k += 1
                continue
            if prog in ("printf", "test", "[") or (prog == "wait" and "=" not in a):
                k += 1  # (their operands are not names; only the options above give one)
                continue
            nm, eq, val = a.partition("=") if assigns else (a, "", "")
            if "[" in nm and "]" not in nm and "]" in val:  # (a[$(echo x=y)]=1: the subscript holds the `=`)
                j = a.find("]")
                nm, val = a[:j + 1], a[j + 2:]
            self.name_subscript(nm, ctx, acc)
            if eq and "i" in flags:
                self.run_arith(val, ctx, acc)  # (declare -i n=EXPR: arithmetic)
            elif eq and "n" in flags:
                self.name_subscript(val, ctx, acc)  # (declare -n ref='a[$(cmd)]': dereferenced later)
            k += 1

    def arith_test(self, words: list, ctx: Ctx, acc: Acc) -> None:
        """``[[ … ]]``: its words expanded; operands of ``-eq``/``-lt``/… are arithmetic, ``-v NAME`` a name."""
        fields: list = []
        for w in words:
            f, _ = self.expand(w, ctx, acc, split=False)
            fields.append("".join(f))
        for k, f in enumerate(fields):
            if f in _ARITH_TESTS:
                self.run_arith(fields[k - 1], ctx, acc)
                if k + 1 < len(fields):
                    self.run_arith(fields[k + 1], ctx, acc)
            elif (f == "-v" or f == "-R") and k + 1 < len(fields):
                self.name_subscript(fields[k + 1], ctx, acc)

    def arith_value(self, p: tuple, ctx: Ctx, acc: Acc, pick) -> str:
        """An ARITH part (``$((…))``): its substitutions run and its variables evaluated; the value is unknown."""
        text, _ = self._parts_value(p[2], ctx, acc, pick)
        self.run_arith(text.replace(MARK, " "), ctx, acc)
        return MARK

    def param_value(self, p: tuple, ctx: Ctx, acc: Acc, pick):
        """A PARAM part's value (MARK where unknown until run time) and what its substitutions printed (a Flow or
        None): the subscript and the operand are expanded first (bash may run what they hold)."""
        _, name, _quoted, op, operand, subscript, prefix = p
        out = None
        idx = None
        if subscript is not None:
            idx, out = self._parts_value(subscript, ctx, acc, pick)
            if idx not in ("@", "*"):
                self.run_arith(idx.replace(MARK, " "), ctx, acc)  # (an indexed array's subscript: arithmetic)
        arg, m = self._parts_value(operand, ctx, acc, pick)
        out = out or m
        base = self._lookup(name, ctx, pick or {})
        if type(base) is not str or len(base) > MAX_VALUE:
            base = MARK
        if idx is not None and idx not in ("@", "*") and not idx.isdigit():
            base = MARK  # (an element the reader does not follow)
        if prefix == "#":
            return (str(len(base)) if MARK not in base else MARK), out
        if prefix == "!":
            base = self._indirect(base, op, ctx, acc, pick)
            if op == "@" and not arg:
                return MARK, out  # (${!prefix@}: names)
        if op in (":=", "=") and base == MARK and name[:1].isalpha():
            ctx.env[name] = arg
        if op == ":":
            for t in arg.split(":", 1):
                self.run_arith(t, ctx, acc)  # (offset and length are arithmetic)
        if op == "@" and arg == "P":
            return self._prompt(name, base, ctx, acc), out
        return apply_op(name, base, op, arg), out

    def _indirect(self, ref: str, op: str, ctx: Ctx, acc: Acc, pick) -> str:
        """``${!ref}``: the value of the variable whose name ``ref`` holds (a subscript in it is evaluated)."""
        if ref == MARK or MARK in ref:
            return MARK
        self.name_subscript(ref, ctx, acc)
        if _IDENT.fullmatch(ref):
            v = self._lookup(ref, ctx, pick or {})
            return v if type(v) is str else MARK
        return MARK

    def _prompt(self, name: str, base: str, ctx: Ctx, acc: Acc) -> str:
        """``${x@P}``: x's value expanded as a prompt (its substitutions run)."""
        if MARK in base:
            acc.add(M, "shell.prompt_expansion", f"${{{name}@P}} expands a value unknown until run time as a prompt "
                                                 "(it runs the commands the value holds)")
            return MARK
        if "$" not in base and "`" not in base:
            return base
        acc.add(M, "shell.prompt_expansion", f"${{{name}@P}} runs the commands in {show(base)}")
        value, _ = self.expand_dquoted(base, ctx, acc)
        return value
