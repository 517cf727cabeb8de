"""Compile the phrase tables into a small token automaton and find every phrase in a token list.

Each pattern becomes a chain of nodes (one join node per pattern element, so alternatives and optional
elements do not multiply); the chains hang off one root indexed by their first token. Matching starts a walk
only at tokens that begin some pattern; a walk is bounded by the pattern's length and its gaps (``~N``), so
the whole scan is linear in the number of tokens. No regular expressions are involved.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import compress

from core.crisis import _phrases as P

_BOUNDS = frozenset({".", ","})


class _Node:
    __slots__ = ("lit", "gaps", "negs", "bnds", "out", "special")

    def __init__(self) -> None:
        self.lit: dict[str, list[_Node] | tuple[_Node, ...]] = {}
        self.gaps: list[tuple[int, bool, _Node]] = []
        self.negs: list[tuple[frozenset[str], _Node]] = []
        self.bnds: list[_Node] = []
        self.out: list[int] = []
        self.special = False


@dataclass(frozen=True, slots=True)
class Pattern:
    """One compiled table entry."""

    family: str
    category: str
    text: str
    flags: str

    @property
    def weak(self) -> bool:
        return "w" in self.flags


# ---------------------------------------------------------------------------------------------------------
# parsing the pattern language


def _split_top(s: str, sep: str) -> list[str]:
    out, depth, cur = [], 0, []
    for ch in s:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if depth == 0 and (ch == sep or (sep == " " and ch.isspace())):
            if cur:
                out.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    if depth != 0:
        raise ValueError(f"unbalanced parentheses in {s!r}")
    if cur:
        out.append("".join(cur))
    return out


Path = tuple[frozenset[str], ...]


def _group(paths: list[Path]) -> list[Path]:
    """Merge all one-token paths into one (a set of alternatives); keep longer paths as they are."""
    singles: set[str] = set()
    longer: list[Path] = []
    empty = False
    for p in paths:
        if len(p) == 0:
            empty = True
        elif len(p) == 1:
            singles |= p[0]
        else:
            longer.append(p)
    out: list[Path] = [(frozenset(singles),)] if singles else []
    out.extend(dict.fromkeys(longer))
    if empty:
        out.append(())
    return out


_MACRO_CACHE: dict[str, list[Path]] = {}


def _atom_paths(atom: str) -> list[Path]:
    if atom.startswith("@"):
        name = atom[1:]
        if name not in _MACRO_CACHE:
            if name not in P.MACROS:
                raise KeyError(f"unknown macro @{name}")
            _MACRO_CACHE[name] = _alts_paths(P.MACROS[name])
        return _MACRO_CACHE[name]
    if not atom or atom != atom.lower() or " " in atom or not re.fullmatch(r"[a-z0-9]+", atom):
        raise ValueError(f"bad word {atom!r}")
    return [(frozenset({atom}),)]


def _seq_paths(words: list[str]) -> list[Path]:
    paths: list[Path] = [()]
    for w in words:
        paths = [p + q for p in paths for q in _atom_paths(w)]
    return paths


def _alts_paths(alts: str) -> list[Path]:
    """``a|b c|@M`` (alternatives of word sequences) → grouped token paths."""
    paths: list[Path] = []
    for alt in _split_top(alts, "|"):
        alt = alt.strip()
        if alt.startswith("(") and alt.endswith(")"):
            paths.extend(_alts_paths(alt[1:-1]))
        else:
            paths.extend(_seq_paths(alt.split()))
    return _group(paths)


def _parse(pattern: str) -> list[tuple]:
    """Pattern text → elements: ("alt", paths) | ("gap", n, cross) | ("neg", words) | ("bnd",)."""
    elems: list[tuple] = []
    for tok in _split_top(pattern, " "):
        if tok.startswith("~~"):
            elems.append(("gap", int(tok[2:]), True))
        elif tok.startswith("~"):
            elems.append(("gap", int(tok[1:]), False))
        elif tok == "<b>":
            elems.append(("bnd",))
        elif tok.startswith("!"):
            words: set[str] = set()
            for p in _alts_paths(tok[1:]):
                if len(p) != 1:
                    raise ValueError(f"negative lookahead must be single words: {tok!r}")
                words |= p[0]
            elems.append(("neg", frozenset(words)))
        else:
            optional = tok.endswith("?")
            paths = _alts_paths(tok[:-1] if optional else tok)
            if optional:
                paths = [*paths, ()]
            elems.append(("alt", paths))
    return elems


def _weight(w: str) -> int:
    return 50 if w in P.COMMON_WORDS else 20 if w in P.BUSY_WORDS else 1


def _anchors(elems: list[tuple]) -> list[frozenset[str]]:
    """Token sets such that every match contains a token of each (one per required element), rarest first."""
    scored: list[tuple[int, int, frozenset[str]]] = []
    for i, elem in enumerate(elems):
        if elem[0] != "alt" or any(len(p) == 0 for p in elem[1]):
            continue
        words: set[str] = set()
        for path in elem[1]:
            # a path needs all of its tokens: its rarest token set stands for it
            words |= min(path, key=lambda fs: sum(_weight(w) for w in fs))
        scored.append((sum(_weight(w) for w in words), i, frozenset(words)))
    if not scored:
        raise ValueError("pattern without a required element")
    scored.sort(key=lambda x: (x[0], x[1]))
    out: list[frozenset[str]] = []
    for _, _, words in scored:
        if words not in out:
            out.append(words)
    return out


# ---------------------------------------------------------------------------------------------------------
# compiling


class Automaton:
    """All phrase patterns, compiled once; :meth:`find` lists every match in a token list."""

    def __init__(self, table: list[tuple[str, str, str, str]], pid_offset: int = 0) -> None:
        self.patterns: list[Pattern] = []
        self.root = _Node()
        self.pid_offset = pid_offset
        #: token → ids of the patterns whose anchor (rarest required element) contains it
        self.anchors: dict[str, list[int]] = {}
        #: anchor token → (pattern id, the pattern's other required token sets)
        self.anchored: dict[str, list[tuple[int, tuple[frozenset[str], ...]]]] = {}
        self._root_pid: dict[int, int] = {}
        for family, category, text, flags in table:
            pid = len(self.patterns)
            self.patterns.append(Pattern(family, category, text, flags))
            elems = _parse(text)
            anchors = _anchors(elems)
            for w in anchors[0]:
                self.anchors.setdefault(w, []).append(pid)
                self.anchored.setdefault(w, []).append((pid, tuple(anchors[1:])))
            before = {k: len(v) for k, v in self.root.lit.items()}
            self._add(pid, elems)
            for k, v in self.root.lit.items():
                for child in v[before.get(k, 0):]:
                    self._root_pid[id(child)] = pid
        self._finalize(self.root, set())
        root_lit: dict[str, dict[int, list[_Node]]] = {}
        for k, v in self.root.lit.items():
            for c in v:
                root_lit.setdefault(k, {}).setdefault(self._root_pid[id(c)], []).append(c)
        #: first token → pattern id → first nodes
        self.root_lit: dict[str, dict[int, tuple[_Node, ...]]] = {
            k: {pid: tuple(nodes) for pid, nodes in d.items()} for k, d in root_lit.items()}
        firsts: list[set[str]] = [set() for _ in self.patterns]
        for k, d in root_lit.items():
            for pid in d:
                firsts[pid].add(k)
        #: pattern id → the tokens it can start with
        self.firsts: list[frozenset[str]] = [frozenset(f) for f in firsts]
        self.anchor_words: frozenset[str] = frozenset(self.anchors)

    def _add(self, pid: int, elems: list[tuple]) -> None:
        frontier: list[_Node] = [self.root]
        for elem in elems:
            join = _Node()
            nxt: list[_Node] = [join]
            kind = elem[0]
            for node in frontier:
                if kind == "alt":
                    for path in elem[1]:
                        if not path:
                            if node not in nxt:
                                nxt.append(node)
                            continue
                        cur = node
                        for fs in path[:-1]:
                            new = _Node()
                            for w in fs:
                                cur.lit.setdefault(w, []).append(new)
                            cur = new
                        for w in path[-1]:
                            cur.lit.setdefault(w, []).append(join)
                elif node is self.root:
                    raise ValueError(f"pattern {self.patterns[pid].text!r} may not start with {kind}")
                elif kind == "gap":
                    node.gaps.append((elem[1], elem[2], join))
                elif kind == "neg":
                    node.negs.append((elem[1], join))
                else:
                    node.bnds.append(join)
            frontier = nxt
        for node in frontier:
            if node is self.root:
                raise ValueError(f"pattern {self.patterns[pid].text!r} can match nothing")
            node.out.append(pid)

    def _finalize(self, node: _Node, seen: set[int]) -> None:
        stack = [node]
        while stack:
            n = stack.pop()
            if id(n) in seen:
                continue
            seen.add(id(n))
            n.lit = {k: tuple(dict.fromkeys(v)) for k, v in n.lit.items()}
            n.special = bool(n.gaps or n.negs or n.bnds)
            for children in n.lit.values():
                stack.extend(children)
            stack.extend(c for _, _, c in n.gaps)
            stack.extend(c for _, c in n.negs)
            stack.extend(n.bnds)

    # -----------------------------------------------------------------------------------------------------

    def find(
        self, toks: list[str], tokset: frozenset[str] | None = None, near: list[int] | None = None, reach: int = 0,
        rejected: list[tuple[int, int]] | None = None,
    ) -> set[tuple[int, int, int]]:
        """Every ``(pattern id, start, end)`` match in ``toks`` (end exclusive).

        With ``near``, only matches starting at most ``reach`` tokens before one of these positions (or at
        it) are looked for. ``rejected``, when given, receives the ``(start, end)`` spans of matches that only
        a final negative lookahead refused ("want to die" before "laughing": the span includes that word).
        """
        hits: set[tuple[int, int, int]] = set()
        if tokset is None:
            tokset = frozenset(toks)
        present = self.anchor_words.intersection(tokset)
        if not present:
            return hits
        anchored = self.anchored
        active: set[int] = set()
        for w in present:
            for pid, others in anchored[w]:
                for req in others:
                    if req.isdisjoint(tokset):
                        break
                else:
                    active.add(pid)
        if not active:
            return hits
        firsts = self.firsts
        starts = set().union(*[tokset.intersection(firsts[pid]) for pid in active])
        if not starts:
            return hits
        root_lit = self.root_lit
        n = len(toks)
        walk = self._walk
        na = len(active)
        positions = list(compress(range(n), map(starts.__contains__, toks)))  # found in C
        if near is not None:
            allowed = {p for q in near for p in range(max(0, q - reach), q + 1)}
            positions = [i for i in positions if i in allowed]
        # the first nodes of the active patterns, per start token (a token repeats: found once per token)
        firsts_of: dict[str, list[_Node]] = {}
        for i in positions:
            tok = toks[i]
            nodes = firsts_of.get(tok)
            if nodes is None:
                d = root_lit[tok]
                if len(d) <= na:
                    nodes = [c for pid, cs in d.items() if pid in active for c in cs]
                else:
                    nodes = [c for pid in active for c in d.get(pid, ())]
                firsts_of[tok] = nodes
            if nodes:
                nxt = toks[i + 1] if i + 1 < n else None
                for c in nodes:
                    if c.out or c.special or nxt in c.lit:
                        walk(c, i + 1, i, toks, n, hits, rejected)
        if self.pid_offset:
            off = self.pid_offset
            return {(p + off, s, e) for p, s, e in hits}
        return hits

    def _walk(self, node: _Node, j: int, start: int, toks: list[str], n: int, hits: set,
              rejected: list[tuple[int, int]] | None = None) -> None:
        if node.out:
            for pid in node.out:
                hits.add((pid, start, j))
        if j < n:
            children = node.lit.get(toks[j])
            if children:
                nxt = toks[j + 1] if j + 1 < n else None
                for c in children:
                    if c.out or c.special or nxt in c.lit:
                        self._walk(c, j + 1, start, toks, n, hits, rejected)
        if node.special:
            for gmax, cross, c in node.gaps:
                # only descend where the node after the gap can do something
                eager = bool(c.out or c.special)
                lit = c.lit
                end = min(n, j + gmax)
                k = j
                while True:
                    if eager or (k < n and toks[k] in lit):
                        self._walk(c, k, start, toks, n, hits, rejected)
                    if k >= end or (not cross and toks[k] == "."):
                        break
                    k += 1
            for words, c in node.negs:
                if j >= n or toks[j] not in words:
                    self._walk(c, j, start, toks, n, hits, rejected)
                elif rejected is not None and c.out:
                    rejected.append((start, j + 1))
            for c in node.bnds:
                if j >= n or toks[j] in _BOUNDS:
                    self._walk(c, j, start, toks, n, hits, rejected)
