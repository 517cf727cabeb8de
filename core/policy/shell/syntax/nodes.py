"""The parsed form of shell text and the work budget every reader of one classification shares.

A script is a list of ``(node, op)`` pairs (``op``: ``;``, ``&&``, ``||``, ``|``, ``&`` or None after the last);
a node is a :class:`Simple` command, a :class:`Group` (``( … )``, ``{ …; }``), a :class:`FuncDef` or a
:class:`ForLoop` header. A :class:`Word` is a list of parts: ``(LIT, text)``, ``(VAR, name, quoted[, default])``,
``(SUB, script, quoted[, "proc"])``, ``(PARAM, name, quoted, op, operand, subscript, prefix)`` (a ``${…}`` with an
operator, a subscript or expansions inside: operand and subscript are lists of parts) and ``(ARITH, text, parts,
quoted)`` (``$((…))``; ``parts``: the text with its substitutions parsed).

To add a node type: define it here with ``__slots__``, build it in :mod:`.parser`, walk it in
``core.policy.shell.walker.ShellReader.run_node``.
"""

from __future__ import annotations

from dataclasses import dataclass

#: nesting the parser reads (substitutions, groups, nested parsers); deeper text is skipped as damage
MAX_DEPTH = 12
#: units of work (commands and words read) one classification may spend in the parsers, shared by every
#: parser of that classification (nested scripts included); text past it is left for the overflow scan
WORK_UNITS = 300


@dataclass(slots=True)
class Budget:
    """The work one classification may spend, shared by every parser and reader of it (nested scripts included).

    Attributes:
        nodes: simple commands still read one by one (past it: left to the overflow scan).
        unread: texts left unread, for the overflow scan (``core.policy._overflow``).
        units: parser units left (commands and words read).
        depth: program dispatches in progress (``xargs xargs …``; bounded by the reader's ``MAX_STACK``).
        globs: program names given by a glob still matched against the known names (``/bin/ba?h``).
    """

    nodes: int
    unread: list
    units: int
    depth: int = 0
    globs: int = 16


def new_budget(units: int = WORK_UNITS, nodes: int = 250) -> Budget:
    """A fresh shared work budget: ``nodes`` simple commands, ``units`` parser units, nothing unread."""
    return Budget(nodes, [], units, 0)


#: ``Simple.loop`` marks
LOOP_HEAD = 1
LOOP_END = 2

# Word parts
LIT = 0  # (LIT, text)
VAR = 1  # (VAR, name, quoted)
SUB = 2  # (SUB, script, quoted)
PARAM = 3  # (PARAM, name, quoted, op, operand, subscript, prefix): ${!x}, ${#x}, ${x#pat}, ${a[i]}, ${x:-$(cmd)} …
ARITH = 4  # (ARITH, text, parts, quoted): $((text)), ((text))


class Word:
    """One shell word: ``parts`` are literal text, variable references and substitutions."""

    __slots__ = ("parts", "lit", "quoted")

    def __init__(self, parts: list, quoted: bool):
        self.parts = parts
        self.quoted = quoted
        if len(parts) == 1 and parts[0][0] == LIT:
            self.lit = parts[0][1]
        elif not parts:
            self.lit = ""
        else:
            self.lit = None

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"Word({self.parts!r})"


class Redirect:
    """A redirect: ``op`` is one of ``> >> >| &> &>> < <> << <<- <<< >& <&``."""

    __slots__ = ("op", "fd", "target", "body", "delim", "dash", "subs")

    def __init__(self, op: str, fd: str | None, target: Word | None):
        self.op = op
        self.fd = fd
        self.target = target
        self.body: str | None = None
        self.delim = ""
        self.dash = False
        self.subs: list = []


class Simple:
    """A simple command: prefix assignments, words and redirects; ``start``/``end`` index the text.

    ``loop`` marks the ends of ``while``/``until``/``for`` loops: :data:`LOOP_HEAD` on the first command after
    ``while``/``until``, :data:`LOOP_END` on ``done`` (a command without words, holding the loop's redirects:
    ``done < file`` feeds the whole loop)."""

    __slots__ = ("assigns", "words", "redirs", "start", "end", "test", "plain", "loop")

    def __init__(self, assigns, words, redirs, start, end, test=False, plain=False, loop=0):
        self.assigns = assigns
        self.words = words
        self.redirs = redirs
        self.start = start
        self.end = end
        self.test = test
        self.plain = plain
        self.loop = loop


class Group:
    """``( list )`` (``subshell`` True) or ``{ list; }``."""

    __slots__ = ("body", "redirs", "subshell")

    def __init__(self, body, redirs, subshell):
        self.body = body
        self.redirs = redirs
        self.subshell = subshell


class FuncDef:
    """``name() body``."""

    __slots__ = ("name", "body")

    def __init__(self, name, body):
        self.name = name
        self.body = body


class ForLoop:
    """``for var in words`` (the body follows as ordinary commands); ``for ((…))`` has ``var`` None and its
    arithmetic as the one word."""

    __slots__ = ("var", "words")

    def __init__(self, var, words):
        self.var = var
        self.words = words
