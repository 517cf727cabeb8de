"""Crisis detector: deterministic, local, linear time. Two layers, and the verdict is their union:

* the phrase tables (:func:`tables_match`), below;
* the learned layer (``_model``): a linear model over character and word n-grams, trained on the labelled
  corpus. Its score alerts at or above the threshold chosen out-of-fold (``model().alert``); between the grey
  zone's lower edge and that threshold the assessment is a *concern*: no alert, but the person is checked on
  and an agent request needs a person.

:func:`assess_crisis` gives both layers' answer (:class:`CrisisAssessment`); :func:`detect_crisis` only the
alert. ``tables_match(*texts)`` normalises each text into canonical tokens (``_normalise``), finds every phrase of
the tables (``_phrases``) with a token automaton (``_matcher``) and decides:

* a *strong* phrase alerts on its own unless it is negated in its own clause ("I'm not suicidal"), sits
  inside an idiom ("shoot myself in the foot"), or its flags say the context clears it (hyperbole for slang,
  research/media/game context, a job farewell, an accident, moving house);
* *weak* phrases (warning signs that are common on their own: "tallest bridge near me", "won't need any of
  it", "goodbye everyone") alert when two different ones appear in the texts of one call (in a text longer
  than about 3 KiB, within about 2 KiB of each other).

A negation never clears another phrase: "I'm not suicidal but I keep thinking about ending it" alerts on the
second clause.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from itertools import chain, islice
from operator import attrgetter

from core.crisis import _model
from core.crisis import _phrases as P
from core.crisis._matcher import Automaton
from core.crisis._normalise import (
    chunk_spans,
    fold,
    fold_ends,
    learn,
    orig_offsets,
    relevant_chunk_tokens,
    relevant_tokens,
    tokens,
    tokens_with_src,
)

_MAIN = Automaton([p for p in P.PATTERNS if p[1] not in P.MARKER_CATEGORIES])
_EXCLUDE = Automaton([p for p in P.PATTERNS if p[1] == "exclude"], pid_offset=len(_MAIN.patterns))
_CONTEXT = Automaton([p for p in P.PATTERNS if p[1] in P.MARKER_CATEGORIES and p[1] != "exclude"],
                     pid_offset=len(_MAIN.patterns) + len(_EXCLUDE.patterns))
_PATTERNS = _MAIN.patterns + _EXCLUDE.patterns + _CONTEXT.patterns
_EXCLUDE_REACH = 10
_CONTEXT_FREE = frozenset("wnco")  # flags that need no context markers  # an idiom starts at most this many tokens before the phrase it clears
_EVIDENCE_MAX = 300
#: texts longer than this are read in windows (early exit on the first strong hit, repeated windows skipped)
_WINDOW = 2048
_OVERLAP = 160  # characters shared by neighbouring windows (a phrase cut by a window edge is seen whole)
_BUSY = P.BUSY_WORDS


def _prefilter_words() -> frozenset[str]:
    """One required token set per pattern (the one least frequent in agent requests), united: a text whose
    tokens miss this union cannot match any pattern (every pattern needs a token of each required set)."""
    first: dict[int, set[str]] = {}
    others: dict[int, tuple[frozenset[str], ...]] = {}
    for w, lst in _MAIN.anchored.items():
        for pid, rest in lst:
            first.setdefault(pid, set()).add(w)
            others[pid] = rest
    out: set[str] = set()
    for pid, anchor in first.items():
        sets = [frozenset(anchor), *others[pid]]
        out |= min(sets, key=lambda fs: sum(50 if w in _BUSY or w in P.COMMON_WORDS else 1 for w in fs))
    return frozenset(out)


#: tokens of which a text needs at least one to match anything (see :func:`_prefilter_words`)
_RELEVANT = _prefilter_words()


@dataclass(frozen=True, slots=True)
class CrisisMatch:
    """A crisis verdict.

    ``category`` is one of ``wish_dead``, ``ideation``, ``method``, ``intent``, ``plan``, ``preparatory``,
    ``self_harm``, ``warning_sign``, ``third_person``; ``evidence`` is the matched text as written (two
    spans joined by `` … `` when two weak signals together made the verdict); ``family`` names the phrase
    family of the tables that matched (e.g. ``kill_self``, ``want_die``, ``burden``).
    """

    category: str
    evidence: str
    family: str = ""


@dataclass(slots=True)
class _Hit:
    pid: int
    start: int
    end: int
    text_index: int
    category: str


class _Text:
    """One analysed text: original, folded form, canonical tokens and their raw-token sources."""

    __slots__ = ("text", "folded", "toks", "tokset", "_src", "_spans", "_ends", "cleared")

    def __init__(self, text: str, folded: str | None = None, toks: list[str] | None = None) -> None:
        self.text = text
        self.folded = fold(text) if folded is None else folded
        self.toks = tokens(self.folded) if toks is None else toks
        self.tokset = frozenset(self.toks)
        self._src: list[tuple[int, int]] | None = None
        self._spans: list[tuple[int, int]] | None = None
        self._ends: list[int] | None = None
        #: token spans of phrases the tables found and cleared (negated, in an idiom, in a context that clears
        #: them): the model does not read them (see :func:`_unread`)
        self.cleared: list[tuple[int, int]] = []

    def words(self) -> frozenset[str]:
        return self.tokset

    @property
    def src(self) -> list[tuple[int, int]]:
        """For each canonical token, the chunks it came from (empty if the evidence path read the text
        differently, which it never should: the verdict then quotes the canonical tokens, it never fails)."""
        if self._src is None:
            toks, src = tokens_with_src(self.folded)
            self._src = src if toks == self.toks else []
        return self._src

    def orig_span(self, start: int, end: int) -> tuple[int, int] | None:
        """Offsets in the original text of the chunks of canonical tokens ``[start, end)`` (None when the
        evidence path read the text differently, which it never should)."""
        if self._spans is None:
            self._spans = chunk_spans(self.folded)
        spans = self._spans
        src = self.src
        if len(src) != len(self.toks):
            return None
        a = src[start][0]
        b = src[end - 1][1] - 1
        if not spans or a >= len(spans) or b >= len(spans):
            return None
        if self._ends is None and not self.text.isascii():
            self._ends = fold_ends(self.text)
        return orig_offsets(self.text, spans[a][0], spans[b][1], self._ends)

    def evidence(self, start: int, end: int) -> str:
        """Original text of canonical tokens ``[start, end)``."""
        span = self.orig_span(start, end)
        out = self.text[span[0]:span[1]].strip() if span is not None else ""
        if len(out) > _EVIDENCE_MAX:
            out = out[:_EVIDENCE_MAX] + "…"
        return out or " ".join(self.toks[start:end])

    def written_as_code(self, start: int, end: int) -> bool:
        """Whether the phrase of tokens ``[start, end)`` is written as code or an acronym, not as words: its
        words joined by underscores; one word that is a path component or part of a file name or identifier
        (``modules/kms``, ``kms.tf``, ``KMS_KEY``), in capitals (``KMS``) or joined by a hyphen (``local-kms``).
        A search query (``q=kms``) and dotted or spaced-out letters are words. Used for slang that is also a
        technical term (flag ``t``) only: a crisis phrase in a file name (``suicide_note.txt``) still alerts."""
        span = self.orig_span(start, end)
        if span is None:
            return False
        text = self.text
        os_, oe = span
        raw = text[os_:oe].strip()
        os_ = text.find(raw, os_)
        oe = os_ + len(raw)
        if not raw or len(raw) > 256 or any(c.isspace() for c in raw):
            return False
        seps = {c for c in raw if not c.isalnum()}
        if "_" in seps and not seps & {"+", "%", "&", "="}:
            return True
        a = os_  # (the characters around it, up to a space or a quote, at most _CODE_REACH of them)
        while a > 0 and os_ - a < _CODE_REACH and not text[a - 1].isspace() and text[a - 1] not in _QUOTES:
            a -= 1
        b = oe
        while b < len(text) and b - oe < _CODE_REACH and not text[b].isspace() and text[b] not in _QUOTES:
            b += 1
        before, after = text[a:os_], text[oe:b]
        if before.endswith("_") or after.startswith("_") or _FILE_NAME.search(raw + after):
            return True
        if (before.endswith("/") or after.startswith("/")) and not any(c in before for c in "?=&+"):
            return True
        letters = [c for c in raw if c.isalpha()]
        if len(letters) >= 2 and all(c.isupper() for c in letters):
            return True
        return before.endswith("-") or after.startswith("-")


_CODE_REACH = 64
_QUOTES = frozenset("\"'`‘’“”")
#: a file name or a domain: a word of two characters or more, a dot, a short extension ("kms.tf", "kms.corp.local";
#: not dotted letters, "s.u.i.c.i.d.e")
_FILE_NAME = re.compile(r"[A-Za-z0-9]{2,}\.[A-Za-z][A-Za-z0-9]{0,7}(?![A-Za-z0-9])")


def _negated(toks: list[str], start: int) -> bool:
    k = start - 1
    steps = 0
    while k >= 0 and steps < 4:
        t = toks[k]
        if t in P.NEGATORS:
            return True
        if t in P.NEGATION_STOPS:
            return False
        k -= 1
        steps += 1
    return False


def _alone(toks: list[str], start: int, end: int) -> bool:
    """True when tokens ``[start, end)`` are the whole text, punctuation aside ("s u i c i d e", "suicide.")."""
    return all(t in _PUNCT for t in toks[:start]) and all(t in _PUNCT for t in toks[end:])


_PUNCT = frozenset((".", ","))


def _refine(category: str, toks: list[str], start: int, end: int) -> str:
    """Timing words near an ideation/intent phrase raise it (ideation → intent → plan)."""
    if category not in ("ideation", "intent"):
        return category
    lo, hi = max(0, start - 8), min(len(toks), end + 8)
    if P.TIME_WORDS.isdisjoint(toks[lo:hi]):
        return category
    return "intent" if category == "ideation" else "plan"


def _analyse(t: _Text, idx: int, strong: list[_Hit], weak: list[_Hit]) -> None:
    cands = _MAIN.find(t.toks, t.tokset, rejected=t.cleared)  # (refused by a lookahead: cleared too)
    if not cands:
        return
    markers: dict[str, list[tuple[int, int]]] = {}
    strong_starts = [s for pid, s, _ in cands if not _PATTERNS[pid].weak]
    if strong_starts:
        for _pid, s, e in _EXCLUDE.find(t.toks, t.tokset, strong_starts, _EXCLUDE_REACH):
            markers.setdefault("exclude", []).append((s, e))
    if any(not _CONTEXT_FREE.issuperset(_PATTERNS[pid].flags) for pid, _, _ in cands):
        for pid, s, e in _CONTEXT.find(t.toks, t.tokset):
            markers.setdefault(_PATTERNS[pid].category, []).append((s, e))
    excl = markers.get("exclude", ())
    toks = t.toks
    cleared = t.cleared
    for pid, s, e in cands:
        pat = _PATTERNS[pid]
        flags = pat.flags
        idiom = next(((xs, xe) for xs, xe in excl if xs <= s and e <= xe), None)
        if idiom is not None:
            cleared.append(idiom)
            continue
        if ("n" in flags and _negated(toks, s)) or _cleared_by_context(t, markers, flags, s, e):
            cleared.append((s, e))
            continue
        if "o" in flags and not _alone(toks, s, e):
            continue
        hit = _Hit(pid, s, e, idx, pat.category)
        (weak if pat.weak else strong).append(hit)


def _cleared_by_context(t: _Text, markers: dict[str, list[tuple[int, int]]], flags: str, s: int, e: int) -> bool:
    """Whether a phrase's flags and the text's context markers clear it (hyperbole for slang; research, media
    or game words; a job farewell; an accident; moving house)."""
    toks = t.toks
    if "h" in flags and "serious" not in markers:
        if not P.HYPERBOLE_WORDS.isdisjoint(t.words()) or (e < len(toks) and toks[e] in P.HYPERBOLE_NEXT):
            return True
    if "c" in flags and not P.CONTEXT_WORDS.isdisjoint(t.words()):
        return True
    return ("j" in flags and "job" in markers) or ("a" in flags and "accident" in markers) or (
        "m" in flags and "moving" in markers)


def _pick_weak(weak: list[_Hit]) -> list[_Hit]:
    """Distinct weak patterns with non-overlapping spans, in text order."""
    chosen: list[_Hit] = []
    seen: set[int] = set()
    for h in sorted(weak, key=lambda h: (h.text_index, h.start, -(h.end - h.start))):
        if h.pid in seen:
            continue
        if any(c.text_index == h.text_index and c.start < h.end and h.start < c.end for c in chosen):
            continue
        seen.add(h.pid)
        chosen.append(h)
    return chosen


def _windows(text: str):
    """Windows of a long text: about ``_WINDOW`` characters each, overlapping by ``_OVERLAP``, cut at
    whitespace. Cuts are content-defined where possible (the next occurrence of the window's first word), so
    a text that repeats itself yields identical windows, which are read once."""
    n = len(text)
    start = 0
    while start < n:
        if n - start <= _WINDOW + _WINDOW // 2:
            yield text[max(0, start - _OVERLAP):]
            return
        # content-defined cut: the next occurrence of this window's head, so repeated text repeats windows
        sp = text.find(" ", start, start + 32)
        head = text[start:sp + 1] if sp > start else text[start:start + 32]
        cut = text.find(head, start + _WINDOW, start + 2 * _WINDOW) if len(head) >= 2 else -1
        if cut < 0:
            cut = start + _WINDOW
            ws = -1
            for sep in (" ", "\n", "\t"):
                k = text.find(sep, cut, cut + 256)
                if k >= 0 and (ws < 0 or k < ws):
                    ws = k
            cut = ws + 1 if ws >= 0 else cut
        lo = max(0, start - _OVERLAP)
        if lo > 0:
            k = text.find(" ", lo, start)
            lo = k + 1 if k >= 0 else lo
        yield text[lo:cut]
        start = cut


_pid_of = attrgetter("pid")


def _not_code(analysed: list[_Text], hits: list[_Hit]) -> list[_Hit]:
    """The hits but those of technical slang (flag ``t``) written as code (see :meth:`_Text.written_as_code`;
    checked only for hits that would make a verdict, as it reads the original text)."""
    return [h for h in hits
            if "t" not in _PATTERNS[h.pid].flags or not analysed[h.text_index].written_as_code(h.start, h.end)]


def _verdict(analysed: list[_Text], strong: list[_Hit], weak: list[_Hit]) -> CrisisMatch | None:
    strong = _not_code(analysed, strong) if strong else strong
    if len(weak) >= 2 and len(set(map(_pid_of, weak))) >= 2:
        weak = _not_code(analysed, weak)
    if strong:
        for h in strong:
            h.category = _refine(h.category, analysed[h.text_index].toks, h.start, h.end)
        best = max(strong, key=lambda h: (P.SEVERITY[h.category], -h.text_index, -h.start, h.end - h.start))
        t = analysed[best.text_index]
        return CrisisMatch(best.category, t.evidence(best.start, best.end), _PATTERNS[best.pid].family)
    if len(weak) >= 2 and len(set(map(_pid_of, weak))) >= 2:  # (two different weak phrases at least)
        chosen = _pick_weak(weak)
        if len(chosen) >= 2:
            best = max(chosen, key=lambda h: P.SEVERITY[h.category])
            evidence = " … ".join(analysed[h.text_index].evidence(h.start, h.end) for h in chosen[:3])
            return CrisisMatch(best.category, evidence, "+".join(dict.fromkeys(_PATTERNS[h.pid].family for h in chosen)))
    return None


_NAME_CACHE: dict[str, bool] = {}


def tables_match_request(action: str | None, command: str | None, description: str | None,
                         analysed: list[_Text] | None = None, folds: dict[str, str] | None = None
                         ) -> CrisisMatch | None:
    """:func:`tables_match` of one request's fields, remembering which action names (a small, repeating set)
    cannot match at all, so that the common case reads only the command and the description."""
    if action and len(action) <= 128:
        hit = _NAME_CACHE.get(action)
        if hit is None:
            hit = relevant_tokens(fold(action), _RELEVANT) is not None
            if len(_NAME_CACHE) > 4096:
                _NAME_CACHE.clear()
            _NAME_CACHE[action] = hit
        if not hit:
            return _tables((command, description), analysed if analysed is not None else [], folds)
    return _tables((action, command, description), analysed if analysed is not None else [], folds)


def tables_match(*texts: str | None) -> CrisisMatch | None:
    """Check the texts of one request or message against the phrase tables (the learned layer aside: see
    :func:`assess_crisis`); see :func:`_tables`."""
    return _tables(texts, [])


def _tables(texts: tuple[str | None, ...], analysed: list[_Text], folds: dict[str, str] | None = None
            ) -> CrisisMatch | None:
    """The tables' verdict on ``texts``; ``analysed`` receives every text (or window) read closely, with the
    phrases it cleared; ``folds``, when given, every text and window folded (the model reads them too).

    ``texts`` are the fields of one request (action, command, description) or one chat message; ``None`` and
    empty entries are skipped. Weak warning signs are combined across all of them. Returns the most severe
    match (plan > intent > method > preparatory > self_harm > ideation > wish_dead > warning_sign >
    third_person; the earliest on a tie), or ``None`` when there is no crisis language.

    Texts longer than about 3 KiB are read in overlapping windows of about 2 KiB: the first window with a
    strong hit decides (its most severe match), windows identical to one already read are skipped, and weak
    signals pair only within one window.
    """
    strong: list[_Hit] = []
    weak: list[_Hit] = []
    for text in texts:
        if not text:
            continue
        if type(text) is not str:
            text = str(text)
        if len(text) > _WINDOW + _WINDOW // 2:
            wins = list(dict.fromkeys(_windows(text)))  # (identical windows read once)
            folded = list(map(fold, wins))
            if folds is not None:
                folds.update(zip(wins, folded, strict=True))
            chunked = list(map(str.split, folded))
            learn(list(chain.from_iterable(chunked)))  # every new chunk read in one bulk pass, not window by window
            for win, fw, chunks in zip(wins, folded, chunked, strict=True):
                local: list[_Hit] = []
                _read(win, fw, relevant_chunk_tokens(chunks, _RELEVANT), analysed, strong, local)
                if strong:
                    strong[:] = _not_code(analysed, strong)
                    if strong:
                        return _verdict(analysed, strong, weak)
                # weak signals of a long text pair only within one window (about 2 KiB): in 32 KiB of logs or
                # junk, two unrelated ones ("30g", "n*e") turn up by chance
                if len(set(map(_pid_of, local))) >= 2:
                    local = _not_code(analysed, local)
                    if len(set(map(_pid_of, local))) >= 2:
                        weak += local
            continue
        ft = fold(text)
        if folds is not None:
            folds[text] = ft
        _read(text, ft, relevant_tokens(ft, _RELEVANT), analysed, strong, weak)
    return _verdict(analysed, strong, weak)


def _read(text: str, folded: str, toks: list[str] | None, analysed: list[_Text], strong: list[_Hit],
          weak: list[_Hit]) -> None:
    """Analyse one text (or window) whose relevant tokens are ``toks`` (None: nothing can match), adding its
    hits to ``strong`` / ``weak``."""
    if toks is None:
        return
    t = _Text(text, folded, toks)
    analysed.append(t)
    _analyse(t, len(analysed) - 1, strong, weak)


@dataclass(frozen=True, slots=True)
class CrisisAssessment:
    """Both layers' answer on one message or request.

    ``match`` is the alert (the tables' match, or the model's with ``family="model"``), or None; ``concern``
    is True when there is no alert but the model's score is in the grey zone (``model().concern <= score <
    model().alert``); ``score`` is the model's score (a logit), None when the model did not run (a tables
    match decides alone, there was no text, or the model could not be loaded)."""

    match: CrisisMatch | None
    concern: bool = False
    score: float | None = None


_NOTHING = CrisisAssessment(None)
_MODEL_BROKEN: list[str] = []  # why the model could not be loaded (logged once; the tables go on alone)
log = logging.getLogger("signoff.crisis")


def _loaded_model():
    if _MODEL_BROKEN:
        return None
    try:
        return _model.model()
    except (OSError, ValueError) as exc:
        _MODEL_BROKEN.append(str(exc))
        log.error("the crisis model could not be loaded (%s): the phrase tables check alone", exc)
        return None


def model_status() -> str | None:
    """None when the learned layer is loaded and in use, else why not (for ``signoff doctor``)."""
    _loaded_model()
    return _MODEL_BROKEN[0] if _MODEL_BROKEN else None


def _unread(analysed: list[_Text]):
    """``piece -> piece`` without the phrases the tables cleared in it (negated, idioms, cleared by context):
    the model does not read what the tables know is not a crisis ("I'm not suicidal", "die laughing")."""
    cuts: dict[str, str] = {}
    for t in analysed:
        if not t.cleared:
            continue
        spans = sorted(sp for sp in (t.orig_span(a, b) for a, b in t.cleared) if sp is not None)
        out, pos = [], 0
        for a, b in spans:
            if a > pos:
                out.append(t.text[pos:a])
            pos = max(pos, b)
        out.append(t.text[pos:])
        cuts[t.text] = " ".join(out)
    if not cuts:
        return None
    return lambda piece: cuts.get(piece, piece)


def _assess_model(texts: tuple[str | None, ...], analysed: list[_Text], folds: dict[str, str]
                  ) -> CrisisAssessment:
    m = _model._MODEL or _loaded_model()
    if m is None:
        return _NOTHING
    texts = tuple(t if t is None or type(t) is str else str(t) for t in texts)
    s = _model.score(*texts, folds=folds)
    if s is None:
        return _NOTHING
    rewrite = None
    if s >= m.concern and any(t.cleared for t in analysed):
        # the phrases the tables cleared (negated, an idiom, a context that clears them) are cut, so the model,
        # which cannot read negation, does not count them; only where the text would count otherwise (cutting
        # reads the text closely again; a cleared phrase is crisis language, so cutting it lowers the score)
        rewrite = _unread(analysed)
        s = _model.score(*texts, rewrite=rewrite)
        if s is None:
            return _NOTHING
    if s >= m.alert:
        return CrisisAssessment(CrisisMatch("warning_sign", _model_evidence(texts, rewrite), "model"), False, s)
    return CrisisAssessment(None, s >= m.concern, s)


_SENTENCE = re.compile(r"[^.!?;\n]+[.!?;]*")
_EVIDENCE_SENTENCES = 64  # sentences of the best piece scored for the evidence, at most


def _model_evidence(texts: tuple[str | None, ...], rewrite=None) -> str:
    """The sentence the model scores highest, in the piece (a text, or a window of a long one) it scores
    highest: what a responder reads first."""
    pieces = []
    for t in texts:
        if t:
            pieces += list(dict.fromkeys(_windows(t))) if len(t) > _WINDOW + _WINDOW // 2 else [t]
    if rewrite is not None:
        pieces = [rewrite(p) for p in pieces]
    piece = max(pieces, key=lambda p: _model.score_folded(fold(p)))
    sentences = [m.group().strip() for m in islice(_SENTENCE.finditer(piece), _EVIDENCE_SENTENCES)]
    sentences = [x for x in sentences if x] or [piece.strip()]
    best = max(sentences, key=lambda x: _model.score_folded(fold(x)))
    return best if len(best) <= _EVIDENCE_MAX else best[:_EVIDENCE_MAX] + "…"


def assess_crisis(*texts: str | None) -> CrisisAssessment:
    """Both layers on the texts of one message or request (see :func:`tables_match` for the tables; the model
    reads the texts together). The tables' match wins when there is one (the model is then not run)."""
    analysed: list[_Text] = []
    folds: dict[str, str] = {}
    match = _tables(texts, analysed, folds)
    if match is not None:
        return CrisisAssessment(match)
    return _assess_model(texts, analysed, folds)


def assess_crisis_request(action: str | None, command: str | None, description: str | None) -> CrisisAssessment:
    """:func:`assess_crisis` of one agent request: the tables read all three fields, the model the command and
    the description (a tool's name is not what a person wrote)."""
    key = (action, command, description)
    remember = all(t is None or (type(t) is str and len(t) <= _REQUEST_MEMO_TEXT) for t in key)
    if remember:
        hit = _REQUEST_MEMO.get(key)
        if hit is not None:
            return hit
    analysed: list[_Text] = []
    folds: dict[str, str] = {}
    match = tables_match_request(action, command, description, analysed, folds)
    out = CrisisAssessment(match) if match is not None else _assess_model((command, description), analysed, folds)
    if remember:
        if len(_REQUEST_MEMO) >= _REQUEST_MEMO_MAX:
            _REQUEST_MEMO.clear()
        _REQUEST_MEMO[key] = out
    return out


#: assessments of short requests already read (agents repeat their commands: ls, git status, the test run)
_REQUEST_MEMO: dict[tuple, CrisisAssessment] = {}
_REQUEST_MEMO_MAX = 4096
_REQUEST_MEMO_TEXT = 1024  # characters of a field at most, for a request to be remembered


def detect_crisis(*texts: str | None) -> CrisisMatch | None:
    """The crisis alert on the texts of one request or message, or None: the tables' match (the most severe
    one, see :func:`tables_match`), else the model's when its score reaches the alert threshold (category
    ``warning_sign``, family ``model``, the sentence it scores highest as evidence)."""
    return assess_crisis(*texts).match


def detect_crisis_request(action: str | None, command: str | None, description: str | None) -> CrisisMatch | None:
    """:func:`detect_crisis` of one agent request (see :func:`assess_crisis_request`)."""
    return assess_crisis_request(action, command, description).match


def model_reading(texts: tuple[str | None, ...], action: str | None = None,
                  request: bool = False) -> tuple[bool, list[str]]:
    """``(the tables alert, the folded fields the model reads)`` for one message
    (``texts``) or, with ``request``, one agent request (``action`` and ``texts`` = command, description): what
    training sees, the same as :func:`assess_crisis` would read (long texts whole, not in windows)."""
    analysed: list[_Text] = []
    if request:
        hit = tables_match_request(action, *texts, analysed) is not None
    else:
        hit = _tables(texts, analysed) is not None
    rewrite = _unread(analysed)
    if rewrite is not None:
        texts = tuple(rewrite(t) if t else t for t in texts)
    return hit, [fold(t if type(t) is str else str(t)) for t in texts if t]
