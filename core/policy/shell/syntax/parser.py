"""A linear, hand-written reader of shell text.

It turns a command line into a list of simple commands with the structure a shell would see:
lists and pipelines (``;`` ``&&`` ``||`` ``|`` ``&`` newlines), subshells ``( )`` and groups ``{ }``,
command and process substitutions (``$( )``, backticks, ``<( )``), quoting, backslashes, heredocs,
comments, redirects, assignments, ``for`` loops and function definitions.

It never raises and never backtracks: every character is looked at a bounded number of times, and
nesting deeper than :data:`MAX_DEPTH` is skipped (and flagged as damage) instead of recursed into.
Text it cannot read as a shell would (unbalanced quotes, stray parentheses, too deep nesting) sets
``Parser.damaged``; callers then also read the text loosely so nothing passes by failing.

The parser proper (lists, pipelines, commands, compound commands, redirects, heredocs) is here; reading one word
is :mod:`.words`, the node types and the budget are :mod:`.nodes`. To read a new construct, add its branch to
:meth:`Parser.command` (the plain-command fast paths at its top must stay first) and, if it needs a node of its
own, define the node in :mod:`.nodes`.
"""

from __future__ import annotations

import re

from core.policy.shell.syntax.nodes import (
    LIT,
    LOOP_END,
    LOOP_HEAD,
    MAX_DEPTH,
    VAR,
    Budget,
    ForLoop,
    FuncDef,
    Group,
    Redirect,
    Simple,
    Word,
    new_budget,
)
from core.policy.shell.syntax.words import WordReader

_SPACES = re.compile(r"[ \t\r\f\v]+")
_ASSIGN = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\+?=")
_DIGITS = re.compile(r"[0-9]+")
#: whitespace as ``\s`` and ``str.split()`` see it, but for blanks and tabs (test_policy_budget checks the list)
_OTHER_SPACE = "\n\x0b\x0c\r\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
#: a simple command of plain words only (no quotes, expansions, redirects) is read without the slow path:
#: a run of plain characters, blanks and tabs (one character class: a tight loop in the regex engine) that
#: starts with a plain character and ends before ``; & | ) \n`` or at the end of the text
_PLAIN_RUN = re.compile(rf"[^{_OTHER_SPACE}'\"\\$`;&|()<>#]*")
#: plain words then simple redirects (``> f``, ``>> f``, ``< f``, ``2> f``, ``2>&1``): also without the slow path
_RW = r"[^\s'\"\\$`;&|()<>#]+"
_PLAIN_REDIR = re.compile(rf"({_RW}(?:[ \t]+{_RW})*)((?:[ \t]+(?:[0-9]?(?:>>|>|<)[ \t]*{_RW}|[0-9]?>&[0-9-]))+)"
                          r"[ \t]*(?=[;&|\n)]|\Z)")
_ONE_REDIR = re.compile(rf"([0-9]?)(>>|>&|>|<)[ \t]*({_RW}|[0-9-])")
_USE_REDIR_FAST = True
_PLAIN_WORD = re.compile(r"[^\s'\"\\$`;&|()<>]+(?=[\s;&|()<>]|\Z)")
_SEP_RUN = re.compile(r"[;&|\s]+")
_BRACE_RUN = re.compile(r"[{\s]+")
#: commands that change the reader's state: never skipped as repeats
_STATEFUL = frozenset(("cd", "pushd", "popd", "shift", "read", "set", "export", "unset", "source", ".", "declare",
                       "local", "typeset", "readonly", "alias", "shopt", "trap", "exec"))

_WS = frozenset(" \t\r\f\v")
_CMD_END = frozenset("\n;&|)")
_PLAIN_END = frozenset(";&|\n)")
_SKIP_WORDS = frozenset(("if", "then", "elif", "else", "do", "while", "until", "!", "fi", "done", "esac"))
_SPECIAL_FIRST = frozenset(("{", "}", "for", "select", "case", "function", "[[", "((", "in"))

#: Redirection operators, longest spelling first (the first that matches wins); ``>|`` (clobber) is
#: a ``>`` write. The caller has seen ``<`` or ``>`` (or ``&>``) at the position, so one always matches.
_REDIRECT_SPELLINGS = ("&>>", "&>", "<<<", "<<-", "<<", ">>", ">&", "<&", ">|", "<>", ">", "<")
_REDIRECT_OPS = {">|": ">"}


class Parser(WordReader):
    """Reads one text; :meth:`parse` returns a script: a list of ``(node, op)`` pairs."""

    __slots__ = ("s", "n", "i", "depth", "damaged", "pending", "case_depth", "work", "cut")

    def __init__(self, s: str, depth: int = 0, work: Budget | None = None):
        self.s = s
        self.n = len(s)
        self.i = 0
        self.depth = depth
        self.damaged = False
        self.pending: list[Redirect] = []
        self.case_depth = 0
        #: the shared budget (:class:`Budget`): ``units`` counts down, ``unread`` collects unread text
        self.work = work if work is not None else new_budget()
        #: where reading stopped when the budget ran out (None: read to the end)
        self.cut: int | None = None

    def _stop(self, head: str = "") -> None:
        """The budget ran out: leave the rest of the text (after ``head``, the start of the command being
        read, so the scan still sees its program) to the overflow scan and read no further."""
        if self.cut is None:
            self.cut = self.i
            if self.i < self.n:
                self.work.unread.append(head + self.s[self.i:])
        self.i = self.n
        self.pending = []

    # ------------------------------------------------------------------ lists
    def parse(self) -> list:
        """Read the whole text."""
        out = self.parse_list(None)
        if self.pending:
            self.pending = []
        return out

    def parse_list(self, end: str | None) -> list:
        """A list of commands up to ``end`` (``)``, ``}`` or the end of the text): ``[(node, op)]``."""
        s, n = self.s, self.n
        items: list = []
        work = self.work
        while True:
            work.units -= 1
            if work.units < 0:
                self._stop()
                return items
            m = _SPACES.match(s, self.i)
            if m:
                self.i = m.end()
            i = self.i
            if i >= n:
                if end is not None and self.cut is None:
                    self.damaged = True
                return items
            c = s[i]
            if c == "\n":
                self.i = i + 1
                if self.pending:
                    self._read_heredocs()
                continue
            if c == "#":
                j = s.find("\n", i)
                self.i = n if j < 0 else j
                continue
            if c in ";&|" and i + 1 < n and s[i + 1] in ";&|\n \t":
                run = _SEP_RUN.match(s, i).group()
                self.i = i + len(run)
                if (c != ";" or run.count(";") > 1 or "&" in run or "|" in run) and not self.case_depth:
                    self.damaged = True
                if self.pending:
                    self._read_heredocs()
                continue
            if c == ";" or c == "&" or c == "|":
                self.i = i + 1
                if c != ";" or not self.case_depth:
                    self.damaged = True
                continue
            if c == ")":
                self.i = i + 1
                if end == ")":
                    return items
                if not self.case_depth:
                    self.damaged = True
                continue
            if c == "}" and end == "}" and (i + 1 >= n or s[i + 1] in " \t\n;&|)<>"):
                self.i = i + 1
                return items
            if self.case_depth:
                self._skip_case_pattern()
                if self.i >= n:
                    continue
            start = self.i
            node = self.command(end)
            if node is None:
                if self.i == start:  # no progress: skip a character so we always advance
                    self.i += 1
                    self.damaged = True
                continue
            op = self._operator()
            items.append((node, op))
            if type(node) is Simple and node.plain and node.words[0].lit not in _STATEFUL:
                m = _SPACES.match(s, self.i)
                if m:
                    self.i = m.end()
                unit = s[start:self.i]
                if unit and self.i < n and s.startswith(unit, self.i):
                    self.i = _copies_end(s, unit, self.i)

    def _operator(self) -> str | None:
        s, n = self.s, self.n
        m = _SPACES.match(s, self.i)
        if m:
            self.i = m.end()
        i = self.i
        if i >= n:
            return None
        c = s[i]
        nxt = s[i + 1] if i + 1 < n else ""
        if c == "&":
            if nxt == "&":
                self.i = i + 2
                return "&&"
            self.i = i + 1
            return "&"
        if c == "|":
            if nxt == "|":
                self.i = i + 2
                return "||"
            self.i = i + (2 if nxt == "&" else 1)
            return "|"
        if c == ";":
            self.i = i + (2 if nxt == ";" else 1)
            return ";"
        if c == "\n":
            self.i = i + 1
            if self.pending:
                self._read_heredocs()
            return ";"
        if c == "#":
            j = s.find("\n", i)
            self.i = n if j < 0 else j
            return ";"
        return None

    def _skip_case_pattern(self) -> None:
        # inside ``case … in``: a command may be preceded by ``pattern)``; look only a short way ahead.
        s, i = self.s, self.i
        if s.startswith("esac", i):
            return
        limit = min(self.n, i + 200)
        j = i
        while j < limit:
            c = s[j]
            if c == ")":
                self.i = j + 1
                return
            if c in "\n;":
                return
            j += 1

    # ---------------------------------------------------------------- commands
    def command(self, end: str | None):
        """One command at ``self.i``: a simple command (plain words take the fast paths), a group, a function
        definition, a ``for``, ``case`` or ``[[ ]]``; None when there is none."""
        s, n = self.s, self.n
        start = self.i
        c0 = s[start] if start < n else ""
        plain_ok = c0 != "{" and c0 != "(" and not _is_keyword_at(s, start)
        m = None
        if plain_ok:
            e = _PLAIN_RUN.match(s, start).end()
            if e > start and s[start] not in " \t" and (e == n or s[e] in _PLAIN_END):
                m = e  # the words are s[start:e].split()
        # a redirect after plain words begins right where the plain run stops
        if m is None and plain_ok and _USE_REDIR_FAST and e < n and (s[e] == ">" or s[e] == "<"):
            r = _PLAIN_REDIR.match(s, start)
            if r is not None:
                ws = r.group(1).split()
                if ws[0] not in _SKIP_WORDS and "=" not in ws[0] and not _DIGITS.fullmatch(ws[-1]):
                    redirs = []
                    for rm in _ONE_REDIR.finditer(r.group(2)):
                        op = rm.group(2)
                        redirs.append(Redirect(op, rm.group(1) or None, Word([(LIT, rm.group(3))], False)))
                    self.work.units -= 1
                    self.i = r.end()
                    return Simple([], [Word([(LIT, w)], False) for w in ws], redirs, start, self.i)
        if m is not None:
            ws = s[start:m].split()
            first = ws[0]
            if first not in _SKIP_WORDS and first not in _SPECIAL_FIRST and "=" not in first:
                work = self.work
                if len(ws) > 8:
                    work.units -= len(ws) // 4
                    if work.units < 0 and len(ws) > 64:
                        # read the program and its first arguments; leave the rest to the overflow scan
                        keep = ws[:64]
                        self.i = m
                        self.work.unread.append(" ".join(ws[:8]) + " " + " ".join(ws[64:]))
                        return Simple([], [Word([(LIT, w)], False) for w in keep], [], start, self.i, plain=True)
                self.i = m
                return Simple([], [Word([(LIT, w)], False) for w in ws], [], start, self.i, plain=True)
        assigns: list = []
        words: list = []
        redirs: list = []
        work = self.work
        loop = 0
        while True:
            m = _SPACES.match(s, self.i)
            if m:
                self.i = m.end()
            i = self.i
            if i >= n:
                break
            work.units -= 1
            if work.units < 0:
                self._stop(" ".join(w.lit if w.lit is not None else "$?" for w in words[:8]) + " " if words else "")
                break
            c = s[i]
            if c in _CMD_END:
                if c == "&" and i + 1 < n and s[i + 1] == ">":
                    self._redirect(None, redirs)
                    continue
                break
            if c == "#":
                j = s.find("\n", i)
                self.i = n if j < 0 else j
                break
            if c == "(":
                if not words and not assigns:
                    if i + 1 < n and s[i + 1] == "(":
                        part = self._arith(i, False)
                        if part is not None:  # ((expr)); else `((cmd); cmd)`: nested subshells
                            return Simple([], [Word([(LIT, "((")], False), Word([part], True)], [], start, self.i,
                                          test=True)
                    return self._group(i, ")")
                if len(words) == 1 and not assigns and words[0].lit is not None:
                    j = i + 1
                    while j < n and s[j] in _WS:
                        j += 1
                    if j < n and s[j] == ")":
                        self.i = j + 1
                        return self._funcdef(words[0].lit, end)
                self.damaged = True
                self._skip_parens(i)
                continue
            if (c == "<" or c == ">") and not (i + 1 < n and s[i + 1] == "(" and self._at_word_start(i)):
                self._redirect(None, redirs)
                continue
            pm = _PLAIN_WORD.match(s, i)
            if pm is not None and words and not (pm.end() < n and s[pm.end()] in "<>" and (
                    pm.group().isdigit() or s.startswith("(", pm.end() + 1))):
                words.append(Word([(LIT, pm.group())], False))
                self.i = pm.end()
                continue
            w = self.word()
            if self.i == i:  # nothing read
                self.i = i + 1
                self.damaged = True
                continue
            if not w.parts and not w.quoted:  # a line continuation alone
                continue
            j = self.i
            if j < n and (s[j] == "<" or s[j] == ">") and w.lit is not None and _DIGITS.fullmatch(w.lit):
                if not (j + 1 < n and s[j + 1] == "("):
                    self._redirect(w.lit, redirs)
                    continue
            if not words:
                lit = w.lit
                if not assigns and lit is not None and not w.quoted:
                    if lit in _SKIP_WORDS:
                        if lit == "esac" and self.case_depth:
                            self.case_depth -= 1
                        elif lit == "while" or lit == "until":
                            loop = LOOP_HEAD
                        elif lit == "done":
                            loop = LOOP_END
                        continue
                    if lit == "{":
                        if self.depth >= MAX_DEPTH:
                            self.damaged = True
                            self.i = _BRACE_RUN.match(s, self.i).end() if self.i < n else n
                            continue
                        self.depth += 1
                        body = self.parse_list("}")
                        self.depth -= 1
                        g_redirs: list = []
                        self._trailing_redirects(g_redirs)
                        return Group(body, g_redirs, False)
                    if lit == "}":
                        self.damaged = self.damaged or end != "}"
                        continue
                    if lit in ("for", "select"):
                        return self._for()
                    if lit == "case":
                        return self._case(start)
                    if lit == "function":
                        return self._function(end)
                    if lit == "[[":
                        return self._test(start)
                if w.parts and w.parts[0][0] == LIT and not words:
                    am = _ASSIGN.match(w.parts[0][1])
                    if am:
                        if self.i < n and s[self.i] == "(" and am.end() == len(w.parts[0][1]) and len(w.parts) == 1:
                            a0 = self.i
                            self._skip_parens(self.i)
                            inner = s[a0 + 1:self.i - 1]
                            if any(ch in inner for ch in "$`(\\"):
                                assigns.append((am.group(1), Word([(VAR, "?", False)], False)))
                            else:  # X=(a b c): the array's words, read by ${X[@]}
                                assigns.append((am.group(1), Word([(LIT, inner.replace("'", "").replace(
                                    '"', ""))], True)))
                            continue
                        rest = w.parts[0][1][am.end():]
                        vparts = ([(LIT, rest)] if rest else []) + list(w.parts[1:])
                        assigns.append((am.group(1), Word(vparts, w.quoted)))
                        continue
            words.append(w)
        if not words and not assigns and not redirs:
            return Simple([], [], [], start, self.i, loop=loop) if loop == LOOP_END else None
        return Simple(assigns, words, redirs, start, self.i, loop=loop)

    def _at_word_start(self, i: int) -> bool:
        return i == 0 or self.s[i - 1] in " \t\n;&|(<>"

    def _group(self, i: int, close: str):
        if self.depth >= MAX_DEPTH:
            self.damaged = True
            self._skip_parens(i)
            return Simple([], [], [], i, self.i)
        self.i = i + 1
        self.depth += 1
        body = self.parse_list(close)
        self.depth -= 1
        redirs: list = []
        self._trailing_redirects(redirs)
        return Group(body, redirs, True)

    def _trailing_redirects(self, redirs: list) -> None:
        s, n = self.s, self.n
        while True:
            m = _SPACES.match(s, self.i)
            if m:
                self.i = m.end()
            i = self.i
            if i < n and (s[i] == "<" or s[i] == ">" or (s[i] == "&" and i + 1 < n and s[i + 1] == ">")):
                self._redirect(None, redirs)
                continue
            m = _DIGITS.match(s, i)
            if m and m.end() < n and s[m.end()] in "<>":
                self.i = m.end()
                self._redirect(m.group(), redirs)
                continue
            return

    def _funcdef(self, name: str, end: str | None):
        s, n = self.s, self.n
        while self.i < n and s[self.i] in " \t\r\n":
            self.i += 1
        if self.i >= n:
            self.damaged = True
            return FuncDef(name, [])
        start = self.i
        body = self.command(end)
        if body is None:
            if self.i == start:
                self.i += 1
            return FuncDef(name, [])
        return FuncDef(name, [(body, None)])

    def _function(self, end: str | None):
        s, n = self.s, self.n
        m = _SPACES.match(s, self.i)
        if m:
            self.i = m.end()
        w = self.word()
        name = w.lit or "?"
        m = _SPACES.match(s, self.i)
        if m:
            self.i = m.end()
        if self.i + 1 < n and s[self.i] == "(" and s[self.i + 1] == ")":
            self.i += 2
        return self._funcdef(name, end)

    def _for(self):
        s, n = self.s, self.n
        m = _SPACES.match(s, self.i)
        if m:
            self.i = m.end()
        if s.startswith("((", self.i):
            part = self._arith(self.i, False)
            if part is None:
                self._skip_parens(self.i)
                return ForLoop(None, [])
            return ForLoop(None, [Word([part], True)])  # for ((init; test; step)): arithmetic, no loop variable
        var = self.word().lit or "?"
        words: list = []
        seen_in = False
        while True:
            m = _SPACES.match(s, self.i)
            if m:
                self.i = m.end()
            i = self.i
            if i >= n or s[i] in "\n;&|()<>":
                break
            self.work.units -= 1
            if self.work.units < 0:
                self._stop(f"for {var} in ")
                break
            start = i
            w = self.word()
            if self.i == start:
                self.i += 1
                break
            if not seen_in and w.lit == "in":
                seen_in = True
                continue
            if w.lit == "do" and not w.quoted:
                break
            words.append(w)
        return ForLoop(var, words)

    def _case(self, start: int):
        s, n = self.s, self.n
        words: list = []
        while True:
            m = _SPACES.match(s, self.i)
            if m:
                self.i = m.end()
            i = self.i
            if i >= n or s[i] in "\n;&|()<>":
                break
            w = self.word()
            if self.i == i:
                self.i += 1
                break
            if w.lit == "in":
                self.case_depth += 1
                break
            words.append(w)
        return Simple([], [Word([(LIT, "case")], False)] + words, [], start, self.i, test=True)

    def _test(self, start: int):
        s, n = self.s, self.n
        words = [Word([(LIT, "[[")], False)]
        while True:
            m = _SPACES.match(s, self.i)
            if m:
                self.i = m.end()
            i = self.i
            if i >= n or s[i] in "\n;":
                break
            self.work.units -= 1
            if self.work.units < 0:
                self._stop()
                break
            w = self.word(test=True)
            if self.i == i:
                self.i += 1
                continue
            words.append(w)
            if w.lit == "]]":
                break
        return Simple([], words, [], start, self.i, test=True)

    # --------------------------------------------------------------- redirects
    def _redirect(self, fd: str | None, redirs: list) -> None:
        s, n, i = self.s, self.n, self.i
        spelling = next(sp for sp in _REDIRECT_SPELLINGS if s.startswith(sp, i))
        op, i = _REDIRECT_OPS.get(spelling, spelling), i + len(spelling)
        self.i = i
        m = _SPACES.match(s, self.i)
        if m:
            self.i = m.end()
        if self.i >= n or (s[self.i] in "\n;&|)<>(" and not (
                s[self.i] in "<>" and self.i + 1 < n and s[self.i + 1] == "(")):  # `< <(cmd)`: a file name
            self.damaged = True
            redirs.append(Redirect(op, fd, Word([], False)))
            return
        target = self.word()
        r = Redirect(op, fd, target)
        redirs.append(r)
        if op == "<<" or op == "<<-":
            r.delim = "".join(p[1] if p[0] == LIT else ("$" + p[1] if p[0] == VAR else "") for p in target.parts)
            r.dash = op == "<<-"
            r.subs = None if target.quoted else []
            self.pending.append(r)

    # ------------------------------------------------------------------- words


def _copies_end(s: str, unit: str, k: int) -> int:
    """The end of the run of copies of ``unit`` in ``s`` from ``k``: blocks of doubling copies compared while
    they match, then halving ones (a few C-level compares instead of one per copy)."""
    ln = len(unit)
    cnt = 1
    while s.startswith(unit * cnt, k):
        k += ln * cnt
        cnt *= 2
    while cnt > 1:
        cnt //= 2
        if s.startswith(unit * cnt, k):
            k += ln * cnt
    return k


_KEYWORDS = ("for", "select", "case", "function", "in", "if", "then", "elif", "else", "do", "while", "until", "fi",
             "done", "esac", "[[", "((")
_KEYWORD_AT = re.compile(f"(?:{'|'.join(map(re.escape, _KEYWORDS))})" r"(?=[\s;&|()<>]|\Z)")
_KEYWORD_FIRST = frozenset(k[0] for k in _KEYWORDS)


def _is_keyword_at(s: str, i: int) -> bool:
    """A reserved word starts at ``i`` (so the plain-command fast path does not apply)."""
    return i < len(s) and s[i] in _KEYWORD_FIRST and _KEYWORD_AT.match(s, i) is not None


def parse(text: str) -> tuple[list, bool]:
    """Parse ``text``; returns ``(script, damaged)`` (with the default budget)."""
    p = Parser(text)
    script = p.parse()
    return script, p.damaged
