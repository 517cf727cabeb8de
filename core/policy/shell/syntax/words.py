"""Reading one word of shell text: quotes, backslashes, ``$VAR``/``${…}``, ``$'…'`` escapes, command and process
substitutions (``$( )``, backticks, ``<( )``); and the bodies of heredocs (read after the line that opened them,
an unquoted body read like the inside of double quotes).

:class:`WordReader` is a mixin of :class:`core.policy.shell.syntax.parser.Parser` (it uses the parser's state
``s``, ``i``, ``n``, ``depth``, ``damaged``, ``work`` and its ``parse_list`` for substitution bodies); it has no
state of its own. To read a new word form, add its branch to :meth:`WordReader.word` (plain characters first:
the fast runs must stay first).
"""

from __future__ import annotations

import re

from core.policy.shell.syntax.nodes import LIT, MAX_DEPTH, SUB, VAR, Word
from core.policy.shell.syntax.params import ParamReader, sub_scripts

_WORD_RUN = re.compile(r"[^\s'\"\\$`;&|()<>]+")
_TEST_RUN = re.compile(r"[^\s'\"\\$`;]+")
#: a run of a word read in one go: characters the word loop takes as they are (in ``[[ ]]`` also ``&|()<>``),
#: whole '…' strings and whole "…" strings without ``\ $ ``` (possessive: nothing to backtrack, less work)
_QW = r"[^ \t\n\r\f\v'\"\\$`;&|()<>]"
_QT = r"[^ \t\n\r\f\v'\"\\$`;]"
_QS = r"(?:'[^']*'|\"[^\"\\$`]*\")"
_QUOTED_RUN = re.compile(rf"{_QW}*+(?:{_QS}{_QW}*+)*+")
_QUOTED_TEST_RUN = re.compile(rf"{_QT}*+(?:{_QS}{_QT}*+)*+")
#: the pieces of such a run: one of the groups holds each piece's text without its quotes
_ESCAPES = re.compile(r"(?:\\[\s\S])++")
_QPIECES = re.compile(r"'([^']*)'|\"([^\"]*)\"|([^'\"]+)")
_DQ_RUN = re.compile(r'[^"\\$`]+')
_VARNAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class WordReader(ParamReader):
    """Word reading for the parser (a mixin: no state of its own; ``${…}`` and arithmetic: :class:`ParamReader`)."""

    __slots__ = ()

    def word(self, test: bool = False) -> Word:
        """The word at ``self.i`` (``test``: inside ``[[ ]]``, where ``& | ( ) < >`` are part of words); ``self.i``
        ends after it."""
        s, n = self.s, self.n
        i = self.i
        parts: list = []
        buf: list = []
        quoted = False
        run = _TEST_RUN if test else _WORD_RUN
        qrun = _QUOTED_TEST_RUN if test else _QUOTED_RUN
        while i < n:
            c = s[i]
            if c in " \t\n\r\f\v":
                break
            if c in ";&|()<>":
                if test and c not in ";":
                    buf.append(c)
                    i += 1
                    continue
                if (c == "<" or c == ">") and i + 1 < n and s[i + 1] == "(":
                    # process substitution, also inside a word as bash reads it (``--file=<(cmd)``)
                    if buf:
                        parts.append((LIT, "".join(buf)))
                        buf = []
                    self.i = i + 2
                    sub = self._subscript()
                    parts.append((SUB, sub, False, "proc"))  # process substitution: a file name
                    i = self.i
                    continue
                break
            if c == "\\":
                if i + 1 < n:
                    # a run of backslash pairs at once: each stands for its second character; a backslash
                    # and a new line is a line continuation (nothing)
                    e = _ESCAPES.match(s, i).end()
                    lit = s[i + 1:e:2]
                    if "\n" in lit:
                        lit = lit.replace("\n", "")
                    if lit:
                        buf.append(lit)
                        quoted = True
                    i = e
                    continue
                self.damaged = True
                i += 1
                continue
            if c != "$" and c != "`":
                m = qrun.match(s, i)
                e = m.end()
                if e > i:
                    # plain characters and whole quoted strings without expansions (hostile runs of quotes)
                    t = s[i:e]
                    if "'" in t or '"' in t:
                        if '"' not in t:
                            lit = t.replace("'", "")
                        elif "'" not in t:
                            lit = t.replace('"', "")
                        else:
                            lit = "".join(map("".join, _QPIECES.findall(t)))
                        # "" adds no part after an expansion, where '' does (as the quote branches below)
                        if lit or not parts or "'" in t:
                            buf.append(lit)
                        quoted = True
                    else:
                        buf.append(t)
                    i = e
                    continue
            if c == "'":
                j = s.find("'", i + 1)
                if j < 0:
                    self.damaged = True
                    buf.append(s[i + 1:])
                    i = n
                    quoted = True
                    break
                buf.append(s[i + 1:j])
                quoted = True
                i = j + 1
                continue
            if c == '"':
                self.i = i + 1
                if buf:
                    parts.append((LIT, "".join(buf)))
                    buf = []
                self._dquote(parts)
                quoted = True
                i = self.i
                continue
            if c == "$":
                if buf:
                    parts.append((LIT, "".join(buf)))
                    buf = []
                self.i = i
                q = self._dollar(parts, False)
                quoted = quoted or q
                i = self.i
                continue
            if c == "`":
                if buf:
                    parts.append((LIT, "".join(buf)))
                    buf = []
                self.i = i
                self._backtick(parts, False)
                i = self.i
                continue
            m = run.match(s, i)
            if m is None:  # pragma: no cover - defensive
                buf.append(c)
                i += 1
                continue
            buf.append(m.group())
            i = m.end()
        self.i = i
        if buf:
            parts.append((LIT, "".join(buf)))
        # merge adjacent literal parts
        if len(parts) > 1:
            merged: list = []
            for p in parts:
                if p[0] == LIT and merged and merged[-1][0] == LIT:
                    merged[-1] = (LIT, merged[-1][1] + p[1])
                else:
                    merged.append(p)
            parts = merged
        return Word(parts, quoted)

    def _dquote(self, parts: list) -> None:
        """Read up to the closing double quote (self.i is just after the opening one)."""
        s, n = self.s, self.n
        i = self.i
        buf: list = []
        while i < n:
            c = s[i]
            if c == '"':
                i += 1
                break
            if c == "\\":
                if i + 1 < n:
                    d = s[i + 1]
                    if d == "\n":
                        i += 2
                        continue
                    if d in '$`"\\':
                        buf.append(d)
                    else:
                        buf.append("\\" + d)
                    i += 2
                    continue
                buf.append("\\")
                i += 1
                continue
            if c == "$":
                if buf:
                    parts.append((LIT, "".join(buf)))
                    buf = []
                self.i = i
                self._dollar(parts, True)
                i = self.i
                continue
            if c == "`":
                if buf:
                    parts.append((LIT, "".join(buf)))
                    buf = []
                self.i = i
                self._backtick(parts, True)
                i = self.i
                continue
            m = _DQ_RUN.match(s, i)
            buf.append(m.group())
            i = m.end()
        else:
            self.damaged = True
        self.i = i
        if buf:
            parts.append((LIT, "".join(buf)))
        elif not parts:
            parts.append((LIT, ""))

    def _read_heredocs(self) -> None:
        """The bodies of the heredocs opened on the line just read (``self.pending``), from ``self.i``; an unquoted
        body's substitutions are parsed (``r.subs``)."""
        s, n = self.s, self.n
        pending, self.pending = self.pending, []
        for r in pending:
            b = self.i
            delim = r.delim
            if r.dash:
                pos = b
                body_end = n
                nxt = n
                while pos < n:
                    nl = s.find("\n", pos)
                    if nl < 0:
                        nl = n
                    if s[pos:nl].lstrip("\t") == delim:
                        body_end, nxt = pos, min(nl + 1, n)
                        break
                    pos = nl + 1
                else:
                    self.damaged = True
            elif s.startswith(delim + "\n", b) or s[b:] == delim:
                body_end, nxt = b, min(b + len(delim) + 1, n)
            else:
                k = s.find("\n" + delim + "\n", b - 1 if b else 0)
                if k >= 0:
                    body_end, nxt = k + 1, k + len(delim) + 2
                elif s.endswith("\n" + delim) and n - len(delim) - 1 >= b - 1:
                    body_end, nxt = n - len(delim), n
                else:
                    body_end, nxt = n, n
            r.body = s[b:body_end]
            self.i = nxt
            if r.subs is not None and ("$(" in r.body or "`" in r.body) and self.depth < MAX_DEPTH:
                sub = type(self)(r.body, self.depth + 1, self.work)
                parts: list = []
                sub._dquote_body(parts)
                r.subs = sub_scripts(parts)
                self.damaged = self.damaged or sub.damaged

    def _dquote_body(self, parts: list, keep: bool = False) -> None:
        """Read the whole text as the inside of double quotes (unquoted heredoc bodies); ``keep``: the literal text
        is kept as parts too (else only the expansions)."""
        s, n = self.s, self.n
        i = 0
        while i < n:
            c = s[i]
            if c == "$":
                self.i = i
                self._dollar(parts, True)
                i = self.i
            elif c == "`":
                self.i = i
                self._backtick(parts, True)
                i = self.i
            elif c == "\\":
                if keep:
                    parts.append((LIT, s[i + 1:i + 2] if s[i + 1:i + 2] in '$`"\\' else s[i:i + 2]))
                i += 2
            else:
                j1 = s.find("$", i)
                j2 = s.find("`", i)
                j3 = s.find("\\", i)
                cands = [j for j in (j1, j2, j3) if j >= 0]
                j = min(cands) if cands else n
                if keep:
                    parts.append((LIT, s[i:j]))
                i = j

    def _subscript(self) -> list:
        """Parse a substitution body after its opening ``(``; returns its script."""
        if self.depth >= MAX_DEPTH:
            self.damaged = True
            self._skip_parens(self.i - 1)
            return []
        self.depth += 1
        saved_case = self.case_depth
        self.case_depth = 0
        body = self.parse_list(")")
        self.case_depth = saved_case
        self.depth -= 1
        return body

    def _dollar(self, parts: list, quoted: bool) -> bool:
        s, n = self.s, self.n
        i = self.i
        self.work.units -= 1
        if self.work.units < 0:
            self._stop()
            return False
        nxt = s[i + 1] if i + 1 < n else ""
        if nxt == "(":
            if i + 2 < n and s[i + 2] == "(":
                part = self._arith(i + 1, quoted)
                if part is not None:
                    parts.append(part)
                    return False
                # `$((cmd); cmd)`: a command substitution whose first command is a subshell
            self.i = i + 2
            parts.append((SUB, self._subscript(), quoted))
            return False
        if nxt == "{":
            self._param(parts, quoted)
            return False
        if nxt == "'" and not quoted:
            # $'…' ends at the first quote that is not part of an escape (no escape holds a quote but \')
            j = _ANSI_BODY.match(s, i + 2).end()
            if j < n and s[j] == "\\":
                j = n  # a backslash at the very end: read as itself
            if j >= n:
                self.damaged = True
            parts.append((LIT, _ansi_decode(s[i + 2:j])))
            self.i = min(j + 1, n)
            return True
        if nxt == '"' and not quoted:
            self.i = i + 2
            self._dquote(parts)
            return True
        m = _VARNAME.match(s, i + 1)
        if m:
            parts.append((VAR, m.group(), quoted))
            self.i = m.end()
            return False
        if nxt and (nxt.isdigit() or nxt in "@*#?$!-"):
            parts.append((VAR, nxt, quoted))
            self.i = i + 2
            return False
        parts.append((LIT, "$"))
        self.i = i + 1
        return False

    def _backtick(self, parts: list, quoted: bool) -> None:
        s, n = self.s, self.n
        i = self.i
        self.work.units -= 1
        if self.work.units < 0:
            self._stop()
            return
        j = i + 1
        while True:
            k = s.find("`", j)
            if k < 0:
                self.damaged = True
                k = n
                break
            b = k - 1
            while b > i and s[b] == "\\":
                b -= 1
            if (k - 1 - b) % 2 == 0:
                break
            j = k + 1
        inner = s[i + 1:k]
        self.i = min(k + 1, n)
        if not inner.strip():
            parts.append((VAR, "?", quoted))
            return
        if "\\" in inner:
            inner = inner.replace("\\`", "`").replace("\\$", "$").replace("\\\\", "\\")
        if self.depth >= MAX_DEPTH:
            self.damaged = True
            parts.append((VAR, "?", quoted))
            return
        sub = type(self)(inner, self.depth + 1, self.work)
        script = sub.parse()
        self.damaged = self.damaged or sub.damaged
        parts.append((SUB, script, quoted))

    def _skip_parens(self, i: int) -> None:
        """Skip from an opening parenthesis at ``i`` to its match (a flat count, done with C-level searches)."""
        s, n = self.s, self.n
        depth = 0
        pos = i
        while True:
            j = s.find(")", pos)
            if j < 0:
                break
            depth += s.count("(", pos, j)
            k = j
            while k < n and s[k] == ")" and k - j < depth:
                k += 1
            depth -= k - j
            if depth <= 0:
                self.i = k
                return
            pos = k
        self.damaged = True
        self.i = n


_ESC = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "v": "\v",
        "\\": "\\", "'": "'", '"': '"', "?": "?"}


def _ansi_escape(s: str, j: int, buf: list) -> int:
    """Decode one backslash escape of ``$'…'`` at ``s[j]``; returns the next index."""
    d = s[j + 1]
    if d in _ESC:
        buf.append(_ESC[d])
        return j + 2
    if d == "x":
        hx = ""
        k = j + 2
        while k < len(s) and len(hx) < 2 and s[k] in "0123456789abcdefABCDEF":
            hx += s[k]
            k += 1
        buf.append(chr(int(hx, 16)) if hx else "\\x")
        return k
    if d in "01234567":
        oc = ""
        k = j + 1
        while k < len(s) and len(oc) < 3 and s[k] in "01234567":
            oc += s[k]
            k += 1
        buf.append(chr(int(oc, 8)))
        return k
    if d in "uU":
        hx = ""
        k = j + 2
        lim = 4 if d == "u" else 8
        while k < len(s) and len(hx) < lim and s[k] in "0123456789abcdefABCDEF":
            hx += s[k]
            k += 1
        try:
            buf.append(chr(int(hx, 16)) if hx else "\\" + d)
        except (ValueError, OverflowError):
            buf.append("?")
        return k
    buf.append("\\" + d)
    return j + 2


#: the body of $'…': plain runs and backslash pairs (unrolled: one pass in the regex engine)
_ANSI_BODY = re.compile(r"[^'\\]*+(?:\\[\s\S][^'\\]*+)*+")
#: one escape of $'…' as _ansi_escape reads it (what follows the backslash)
_ANSI_ESC = re.compile(r"\\(x[0-9a-fA-F]{0,2}|[0-7]{1,3}|u[0-9a-fA-F]{0,4}|U[0-9a-fA-F]{0,8}|[\s\S])")


def _decode_one(code: str) -> str:
    buf: list = []
    _ansi_escape("\\" + code, 0, buf)
    return buf[0]


#: the escapes of $'…' decoded ahead: single letters, \xH, \xHH and octal (\u and the rest: _decode_one)
_ANSI_TABLE = {code: _decode_one(code) for code in (
    *_ESC, "x", *(f"x{a}" for a in "0123456789abcdefABCDEF"),
    *(f"x{a}{b}" for a in "0123456789abcdefABCDEF" for b in "0123456789abcdefABCDEF"),
    *(f"{a}" for a in "01234567"), *(f"{a}{b}" for a in "01234567" for b in "01234567"),
    *(f"{a}{b}{c}" for a in "01234567" for b in "01234567" for c in "01234567"))}


def _ansi_decode(body: str) -> str:
    """The text of ``$'body'`` with its backslash escapes decoded (as :func:`_ansi_escape` does one by one)."""
    if "\\" not in body:
        return body
    pieces = _ANSI_ESC.split(body)  # literal, escape, literal, …, literal
    codes = pieces[1::2]
    dec = list(map(_ANSI_TABLE.get, codes))
    if None in dec:
        dec = [d if d is not None else _decode_one(c) for d, c in zip(dec, codes, strict=True)]
    pieces[1::2] = dec
    return "".join(pieces)
