"""Reading ``${…}`` parameter expansions and ``$((…))``/``((…))`` arithmetic as bash parses them, so that every
command substitution bash would run inside one is parsed too: in an operand (``${x:-$(cmd)}``, ``${x#$(cmd)}``),
a subscript (``${a[$(cmd)]}``) or an arithmetic expression (``$(( $(cmd) ))``, ``for ((i=$(cmd);;))``).

:class:`ParamReader` is a mixin of :class:`core.policy.shell.syntax.parser.Parser` (through
:class:`core.policy.shell.syntax.words.WordReader`, whose ``_dollar``, ``_dquote`` and ``_backtick`` it uses); it
has no state of its own. The parts it builds (:data:`~core.policy.shell.syntax.nodes.PARAM`,
:data:`~core.policy.shell.syntax.nodes.ARITH`) are expanded by :mod:`core.policy.shell.params`.

Plain forms keep their old, cheaper parts: ``${X}``, ``${X[@]}`` and ``${X:-literal}`` are ``VAR`` parts.
"""

from __future__ import annotations

import re

from core.policy.shell.syntax.nodes import ARITH, LIT, MAX_DEPTH, PARAM, SUB, VAR

_VARNAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
#: characters that may hide the closing brace of ``${…}`` (quotes, escapes, nested expansions)
_NESTED = re.compile(r"[$`'\"\\{]")
#: the operators after a parameter's name, longest spelling first
_OPS = (":-", ":=", ":+", ":?", "##", "%%", "//", "/#", "/%", ",,", "^^", "-", "=", "+", "?", "#", "%", "/", ",",
        "^", "@", ":")
#: a run of operand characters read as they are (up to a quote, an escape, an expansion or a bracket)
_OPERAND_RUN = re.compile(r"[^\\'\"$`}\[\]]+")
_SPECIAL = "@*#?$!-0123456789"


class ParamReader:
    """``${…}`` and arithmetic reading for the parser (a mixin: no state of its own)."""

    __slots__ = ()

    def _param(self, parts: list, quoted: bool) -> None:
        """The ``${…}`` whose ``$`` is at ``self.i``; ``self.i`` ends after its closing brace."""
        s, n = self.s, self.n
        i = self.i
        j = s.find("}", i + 2)
        if j >= 0 and _NESTED.search(s, i + 2, j) is None:
            # nothing can hide a brace: the first one closes it (the common case, read from the string)
            self.i = j + 1
            parts.append(_plain_param(s[i + 2:j], quoted))
            return
        if j < 0 or self.depth >= MAX_DEPTH:
            self.damaged = True
            m = _VARNAME.match(s, i + 2)
            self.i = j + 1 if j >= 0 else n
            parts.append((VAR, m.group() if m else "?", quoted))
            return
        k = i + 2
        prefix = ""
        if s[k] in "#!" and k + 1 < n and s[k + 1] != "}" and (s[k + 1] in _SPECIAL or _VARNAME.match(s, k + 1)):
            prefix, k = s[k], k + 1
        m = _VARNAME.match(s, k)
        if m:
            name, k = m.group(), m.end()
        elif k < n and s[k] in _SPECIAL:
            name, k = s[k], k + 1
        else:
            name = "?"
        self.depth += 1
        subscript = None
        if k < n and s[k] == "[":
            self.i = k + 1
            subscript = self._operand(quoted, "]")
            k = self.i + 1 if self.i < n else n
        op = ""
        for sp in _OPS:
            if s.startswith(sp, k):
                op, k = sp, k + len(sp)
                break
        self.i = k
        operand = self._operand(quoted, "}")
        self.depth -= 1
        self.i = min(self.i + 1, n)
        if not op and prefix != "!" and subscript is not None and _whole_array(subscript):
            parts.append((VAR, name, False))  # ${X[@]}, ${X[0]}: the array's words (split, fail closed)
            return
        if name == "?" and not op and not prefix and subscript is None:
            parts.append((VAR, "?", quoted))
            return
        parts.append((PARAM, name, quoted, op, operand, subscript, prefix))

    def _operand(self, quoted: bool, stop: str) -> list:
        """The parts of an operand or subscript from ``self.i`` up to ``stop`` (``}`` or ``]``) outside quotes and
        nested expansions (``self.i`` ends on it); brackets nest inside a subscript."""
        s, n = self.s, self.n
        i = self.i
        parts: list = []
        buf: list = []
        nest = 0
        while i < n:
            c = s[i]
            if c == stop and nest == 0:
                break
            if c == "[" or c == "]":
                if stop == "]":
                    nest += 1 if c == "[" else -1
                buf.append(c)
                i += 1
                continue
            if c == "}":  # (inside a subscript: text)
                buf.append(c)
                i += 1
                continue
            if c == "\\":
                buf.append(s[i + 1:i + 2])
                i += 2
                continue
            if c == "'":
                e = s.find("'", i + 1)
                if e < 0:
                    self.damaged = True
                    e = n
                # (inside double quotes a default keeps its quotes: "${x:-'a'}" is 'a')
                buf.append(s[i:e + 1] if quoted else s[i + 1:e])
                i = e + 1
                continue
            if buf:
                parts.append((LIT, "".join(buf)))
                buf = []
            self.i = i
            if c == '"':
                self.i = i + 1
                self._dquote(parts)
            elif c == "$":
                self._dollar(parts, True)
            elif c == "`":
                self._backtick(parts, True)
            else:
                m = _OPERAND_RUN.match(s, i)
                buf.append(m.group())
                self.i = m.end()
            i = self.i
        else:
            self.damaged = True
        self.i = i
        if buf:
            parts.append((LIT, "".join(buf)))
        return parts

    def _arith(self, start: int, quoted: bool):
        """``$((…))`` or ``((…))`` whose first ``(`` is at ``start``: the ARITH part (``self.i`` after it), or
        None when the parentheses do not close as a pair (``$((cmd); cmd)`` is a command substitution of a
        subshell, ``((cmd); cmd)`` nested subshells: the caller reads them so)."""
        was = self.damaged
        self.damaged = False
        self._skip_parens(start + 1)
        failed = self.damaged
        self.damaged = was or failed
        inner_end = self.i
        if failed:
            return (VAR, "?", quoted)  # (never closed: damaged, the loose reading reads what is inside)
        if inner_end >= self.n or self.s[inner_end] != ")":
            self.i = start
            return None
        self.i = inner_end + 1
        return self._arith_part(self.s[start + 2:inner_end - 1], quoted)

    def _arith_part(self, text: str, quoted: bool) -> tuple:
        """The ARITH part of an expression's text: its substitutions parsed as parts (bash expands them before it
        evaluates the expression)."""
        if "$" not in text and "`" not in text:
            return (ARITH, text, [(LIT, text)], quoted)
        if self.depth >= MAX_DEPTH:
            self.damaged = True
            return (ARITH, text, [(VAR, "?", True)], quoted)
        sub = type(self)(text, self.depth + 1, self.work)
        parts: list = []
        sub._dquote_body(parts, keep=True)
        self.damaged = self.damaged or sub.damaged
        return (ARITH, text, parts, quoted)


def sub_scripts(parts: list, depth: int = 0) -> list:
    """The scripts of the command substitutions in ``parts``, those inside ``${…}`` operands and subscripts and
    ``$((…))`` included (a heredoc body's ``${x:-$(cmd)}`` runs cmd)."""
    out = []
    for p in parts:
        k = p[0]
        if k == SUB:
            out.append(p[1])
        elif depth < MAX_DEPTH and k == PARAM:
            out.extend(sub_scripts(p[4], depth + 1))
            if p[5]:
                out.extend(sub_scripts(p[5], depth + 1))
        elif depth < MAX_DEPTH and k == ARITH:
            out.extend(sub_scripts(p[2], depth + 1))
    return out


def _whole_array(subscript: list) -> bool:
    """A literal subscript that names the whole array or one index (``@``, ``*``, ``0``)."""
    return len(subscript) == 1 and subscript[0][0] == LIT and (subscript[0][1] in ("@", "*") or
                                                               subscript[0][1].isdigit())


def _plain_param(inner: str, quoted: bool) -> tuple:
    """The part of ``${inner}`` when nothing inside it is quoted or expanded: a VAR part for a name, a whole array or
    a literal ``:-``/``=`` default, else a PARAM part with literal operands."""
    prefix = ""
    if inner[:1] in ("#", "!") and len(inner) > 1 and (inner[1] in _SPECIAL or _VARNAME.match(inner, 1)):
        prefix, inner = inner[0], inner[1:]
    m = _VARNAME.match(inner)
    if m:
        name, rest = m.group(), inner[m.end():]
    elif inner[:1] in _SPECIAL and inner[:1]:
        if inner.isdigit():
            return (VAR, inner, quoted)
        name, rest = inner[0], inner[1:]
    else:
        return (VAR, "?", quoted)
    subscript = None
    if rest[:1] == "[":
        close = rest.find("]")
        if close < 0:
            return (VAR, name, quoted)
        subscript, rest = [(LIT, rest[1:close])], rest[close + 1:]
    if not rest and not prefix:
        if subscript is None:
            return (VAR, name, quoted)
        if _whole_array(subscript):
            return (VAR, name, False)  # ${X[@]}, ${X[0]}: the array's words (split, fail closed)
    op = next((sp for sp in _OPS if rest.startswith(sp)), "")
    if rest and not op:
        return (VAR, "?", quoted)
    operand = rest[len(op):]
    if not prefix and subscript is None and op in (":-", ":=", "-", "="):
        return (VAR, name, quoted, operand)  # ${X:-word}: when X is unknown, word is what runs
    return (PARAM, name, quoted, op, [(LIT, operand)] if operand else [], subscript, prefix)
