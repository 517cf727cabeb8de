"""Text → canonical token list for the crisis matcher.

Pipeline (every step linear in the input):

1. characters (one ``translate``, length-preserving for ASCII): lower-case; for other characters NFKD +
   drop combining marks, casefold, drop zero-width and format characters, map look-alike letters
   (Cyrillic/Greek) to Latin and known emoji to words. Every character that cannot be part of a word
   (letters, digits, the leet symbols ``@ $ * ! |``, apostrophes) or of punctuation that matters
   (``. ? ! ; : ,``) becomes a space; a new line becomes ``;`` (a sentence end);
2. chunks: ``str.split()``; each chunk becomes canonical tokens (cached per chunk): sentence ends and
   commas become ``.`` / ``,`` tokens, dots inside a word split it (``s.u.i.c.i.d.e``, ``file.txt``);
3. each word becomes zero or more canonical tokens (cached): contractions expanded, leetspeak and ``*``
   masks resolved, repeated letters squeezed, typos and slang mapped, near misses of long keywords
   corrected, glued words (``iwanttodie``) split. Only results that are known words are accepted, so ids
   like ``sha256`` or ``x86`` stay as they are;
4. runs of single letters (``k i l l  m y s e l f``, ``s-u-i-c-i-d-e``, ``d i e``) are joined and split
   again into known words;
5. multi-token spellings are joined (``my self`` → ``myself``, ``sewer slide`` → ``suicide``).

The fast path (:func:`tokens`) and the evidence path (:func:`tokens_with_src`) share every step; the latter
also returns, for each canonical token, the range of chunks it came from, so the detector can quote the
original text.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from itertools import chain, compress, filterfalse, repeat
from operator import add, itemgetter

from core.crisis import _phrases as P

BOUNDARY = "."
COMMA = ","
_SINGLE_RUN_MAX = 48  # longer runs of single letters are cut (hostile input)
_SEGMENT_RUN_MAX = 32  # longer runs are not split into glued words (segmenting is quadratic in the run)
_WORD_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789@$*'!|")
_KEEP = _WORD_CHARS | frozenset(".?;:,")

# ---------------------------------------------------------------------------------------------------------
# 1. characters


def _keep(s: str) -> str:
    return "".join(c if c in _KEEP else " " for c in s)


def _ascii_repl(code: int) -> str:
    ch = chr(code).lower()
    if ch == "\n":
        return ";"
    return ch if ch in _KEEP else " "


class _Table(dict):
    """``str.translate`` table for non-ASCII characters, filled on first use of each character."""

    def __missing__(self, code: int) -> str:
        value = _char_repl(chr(code))
        self[code] = value
        return value


def _char_repl(ch: str) -> str:
    if ch in P.EMOJI:
        return f" {P.EMOJI[ch]} "
    if ch in P.ZERO_WIDTH:
        return ""
    if ch in P.APOSTROPHES:
        return "'"
    if ch in P.CONFUSABLES:
        return P.CONFUSABLES[ch]
    if ch in "\u2028\u2029\x85":
        return ";"
    cat = unicodedata.category(ch)
    if cat in ("Mn", "Me", "Cf", "Sk"):  # combining marks, format chars, modifier symbols
        return ""
    out = []
    for c in unicodedata.normalize("NFKD", ch):
        if unicodedata.combining(c):
            continue
        for d in c.casefold():
            if d.isascii():
                out.append(_ascii_repl(ord(d)))
            elif d in P.CONFUSABLES:
                out.append(P.CONFUSABLES[d])
            elif d in P.EMOJI:
                out.append(f" {P.EMOJI[d]} ")
            else:
                out.append(" ")
    return "".join(out)


_TABLE = _Table({c: _ascii_repl(c) for c in range(128)})
_TABLE_ASCII = dict(_TABLE)
_ASCII_BYTES = bytes(ord(_ascii_repl(c)) for c in range(128)) + b" " * 128


def fold(text: str) -> str:
    """Character-level normalisation (see module docstring, step 1)."""
    if text.isascii():
        return text.encode("ascii").translate(_ASCII_BYTES).decode("ascii")
    return text.translate(_TABLE)


def orig_offsets(text: str, fs: int, fe: int) -> tuple[int, int]:
    """Map offsets ``[fs, fe)`` of ``fold(text)`` back to ``text`` (identity for ASCII)."""
    if text.isascii():
        return fs, fe
    pos = 0
    start = None
    for i, ch in enumerate(text):
        n = 1 if ch.isascii() else len(_TABLE[ord(ch)])
        if start is None and pos + n > fs:
            start = i
        if start is not None and pos + n >= fe:
            return start, i + 1
        pos += n
    return (start or 0), len(text)


_CHUNK_RE = re.compile(r"\S+")


def chunk_spans(folded: str) -> list[tuple[int, int]]:
    """Spans (in the folded text) of the chunks, numbered as in :func:`tokens_with_src`."""
    return [m.span() for m in _CHUNK_RE.finditer(folded)]


# ---------------------------------------------------------------------------------------------------------
# 4. one raw token → canonical tokens

_LEET = str.maketrans({"0": "o", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "@": "a", "$": "s",
                       "!": "i", "|": "l", "+": "t"})
_SQUEEZE3 = re.compile(r"([a-z])\1{2,}")
_SQUEEZE2 = re.compile(r"([a-z])\1+")
_MASK_RUN = re.compile(r"\*+")
_DOSE_RE = re.compile(r"\d+(?:mg|mcg|ml|g)")


def _known(word: str) -> tuple[str, ...] | None:
    """Canonical tokens for ``word`` if it is a known word, typo or slang spelling, else None."""
    hit = P.REWRITE.get(word)
    if hit is not None:
        return hit
    if word in P.LEXICON:
        return (word,)
    return None


def _unmask(tok: str) -> tuple[str, ...] | None:
    parts = _MASK_RUN.split(tok)
    if not any(parts):
        return None
    rx = re.compile("[a-z]{1,3}".join(re.escape(p) for p in parts))
    for word in P.MASKABLE:
        if len(word) >= len(tok) - 1 and rx.fullmatch(word):
            return (word,)
    return None


def _fuzzy(tok: str) -> tuple[str, ...] | None:
    """A single edit (delete/insert/substitute/adjacent swap) away from a long crisis keyword."""
    if tok in P.FUZZY_DELETES:
        return (P.FUZZY_DELETES[tok],)
    for i in range(len(tok)):
        d = tok[:i] + tok[i + 1 :]
        hit = P.FUZZY_DELETES.get(d)
        if hit is not None and abs(len(hit) - len(tok)) <= 1:
            return (hit,)
    return None


def segment(s: str) -> tuple[str, ...] | None:
    """Split ``s`` into the fewest known words (``iwanttodie`` → i want to die), or None."""
    n = len(s)
    best: list[tuple[int, int] | None] = [None] * (n + 1)  # (word count, previous cut)
    best[0] = (0, 0)
    maxlen = P.SEGMENT_MAXLEN
    for j in range(1, n + 1):
        for i in range(max(0, j - maxlen), j):
            bi = best[i]
            if bi is None or s[i:j] not in P.SEGMENT_WORDS:
                continue
            cand = (bi[0] + 1, i)
            if best[j] is None or cand[0] < best[j][0]:
                best[j] = cand
    if best[n] is None:
        return None
    words: list[str] = []
    j = n
    while j > 0:
        i = best[j][1]
        words.append(s[i:j])
        j = i
    words.reverse()
    out: list[str] = []
    for w in words:
        out.extend(_known(w) or (w,))
    return tuple(out)


def _contraction(tok: str) -> tuple[str, ...]:
    base, _, tail = tok.rpartition("'")
    if not base:
        return (tail,) if tail else ()
    base = base.replace("'", "")
    if tail == "t" and base.endswith("n"):
        stem = base[:-1]
        return P.NT_STEMS.get(stem, (stem, "not"))
    if tail in P.CONTRACTION_TAILS:
        return (*(_known(base) or (base,)), P.CONTRACTION_TAILS[tail])
    if tail == "s":
        return (base, "is") if base in P.S_IS_PRONOUNS else (base,)
    return (base + tail,)


@lru_cache(maxsize=32768)
def canon(tok: str) -> tuple[str, ...]:
    """Canonical tokens for one raw token (see module docstring, step 4)."""
    tok = tok.strip("'")
    if not tok:
        return ()
    if "'" in tok:
        out: list[str] = []
        for t in _contraction(tok):
            out.extend(canon(t) if t else ())
        return tuple(out)
    hit = _known(tok)
    if hit is not None:
        return hit
    t = tok
    if t.isdigit():
        return (t,) if len(t) == 1 else ("num",)
    if _DOSE_RE.fullmatch(t):
        return ("mg",)
    if not t.isalpha():
        if "*" in t:
            hit = _unmask(t.translate(_LEET))
            if hit is not None:
                return hit
            t = t.replace("*", "")
            if not t:
                return ()
        if not t.isdigit():
            leet = t.translate(_LEET)
            for cand in (leet.replace("1", "i"), leet.replace("1", "l"), leet.replace("1", "")):
                hit = _known(cand) or _known(_SQUEEZE2.sub(r"\1", cand)) if cand.isalpha() else None
                if hit is not None:
                    return hit
            if not t[0].isdigit() and leet.replace("1", "i").isalpha():
                t = leet.replace("1", "i")
        hit = _known(t)
        if hit is not None:
            return hit
    if t.isalpha():
        sq = _SQUEEZE3.sub(r"\1\1", t)
        if sq != t:
            hit = _known(sq) or _known(_SQUEEZE2.sub(r"\1", sq))
            if hit is not None:
                return hit
            t = sq
        elif _SQUEEZE2.search(t):
            # doubled letters: only when squeezing gives a crisis keyword ("diee", "killl" is handled above)
            sq = _SQUEEZE2.sub(r"\1", t)
            if sq in P.MASKABLE_SET:
                return (sq,)
        if len(t) >= 5:
            hit = _fuzzy(t)
            if hit is not None:
                return hit
        if len(t) >= 7 and any(stem in t for stem in P.GLUE_STEMS) and len(t) <= 40:
            hit = segment(t)
            if hit is not None:
                return hit
    return (t,)


# ---------------------------------------------------------------------------------------------------------
# 2. chunks

_PIECE_RE = re.compile(r"[a-z0-9@$*'|]+(?:!+[a-z0-9@$*'|]+)*|[.?!;:,]+")
_SENT = frozenset("?!;")


def canon_chunk(chunk: str) -> tuple[str, ...]:
    """Canonical tokens of one whitespace-free chunk."""
    if chunk.isalpha():
        return canon(chunk)
    pieces = _PIECE_RE.findall(chunk)
    out: list[str] = []
    letters: list[str] = []  # single letters separated by dots: s.u.i.c.i.d.e
    last = len(pieces) - 1

    def flush() -> None:
        if not letters:
            return
        words = _join_letters("".join(letters)) if len(letters) >= 3 else None
        if words is not None:
            out.extend(words)
        else:
            for w in letters:
                out.extend(canon(w))
        letters.clear()

    for k, piece in enumerate(pieces):
        if piece[0] in ".?!;:,":
            if k == last or not _SENT.isdisjoint(piece):
                flush()
                out.append(COMMA if piece.strip(",") == "" else BOUNDARY)
            elif "," in piece:
                flush()
                out.append(COMMA)
            # otherwise a dot or colon inside a chunk only separates words (s.u.i.c.i.d.e, file.txt)
        elif len(piece) == 1 and piece.isalnum():
            letters.append(piece)
        else:
            flush()
            out.extend(canon(piece))
    flush()
    return tuple(out)


# ---------------------------------------------------------------------------------------------------------
# 4 + 5. whole text

_RUN_RE = re.compile(r" [a-z0-9@$] [a-z0-9@$] [a-z0-9@$] ")


class _ChunkCache(dict):
    """chunk → canonical tokens; lookups stay in C, misses are computed once (bounded size)."""

    def __missing__(self, chunk: str) -> tuple[str, ...]:
        if len(self) > 65536:
            self.clear()
        value = self[chunk] = canon_chunk(chunk)
        return value


_CHUNKS = _ChunkCache()
_chunk_get = _CHUNKS.__getitem__
_flatten = chain.from_iterable

# ---------------------------------------------------------------------------------------------------------
# bulk pre-pass: chunks whose canonical tokens are provably the chunk itself, found with C-level set and
# string operations over all the new chunks of a text at once (a never-seen 32 KiB text has thousands of
# distinct chunks; computing :func:`canon` one by one for each would cost tens of milliseconds). Every test
# below is a necessary condition for :func:`canon` to change a word: a chunk that passes none of them is
# stored as ``(chunk,)``; all others go through :func:`canon_chunk` as before, so the tokens are the same.

_REWRITE_KEYS = frozenset(P.REWRITE)
_PLAIN_KNOWN = P.LEXICON - _REWRITE_KEYS  # known words that stand for themselves
_FZ_PRE = frozenset(d[:3] for d in P.FUZZY_DELETES)  # a one-edit neighbour of a fuzzy keyword (length >= 6)
_FZ_SUF = frozenset(d[-3:] for d in P.FUZZY_DELETES)  # keeps its first or its last three letters
_FZ_MIN = min(map(len, P.FUZZY_DELETES))
_MASK_ENDS = frozenset(w[0] + w[-1] for w in P.MASKABLE)  # squeezing keeps the first and last letters
_TRIPLE_RE = re.compile(r"([a-z])\1\1")
_NO_LEET_DIGIT = re.compile(r"[269]")  # a digit that is no leet letter: leet candidates are never words
_pre3 = itemgetter(slice(0, 3))
_suf3 = itemgetter(slice(-3, None))
_first = itemgetter(0)
_last = itemgetter(-1)


def _words_at(joined: str, positions) -> set[str]:
    """The space-separated words of ``joined`` that contain the given positions."""
    out = set()
    for p in positions:
        a = joined.rfind(" ", 0, p) + 1
        b = joined.find(" ", p)
        out.add(joined[a:] if b < 0 else joined[a:b])
    return out


def _plain_letters(words: set[str]) -> set[str]:
    """Of pure-letter words that are not known words, those :func:`canon` keeps as they are."""
    suspect: set[str] = set()
    joined = " ".join(words)
    if _TRIPLE_RE.search(joined):
        suspect |= _words_at(joined, (m.start() for m in _TRIPLE_RE.finditer(joined)))
    wl = list(words)
    ends = compress(wl, map(_MASK_ENDS.__contains__, map(add, map(_first, wl), map(_last, wl))))
    suspect.update(w for w in ends if _SQUEEZE2.search(w))
    longer = list(compress(wl, map((_FZ_MIN - 1).__lt__, map(len, wl))))
    if longer:
        suspect.update(compress(longer, map(_FZ_PRE.__contains__, map(_pre3, longer))))
        suspect.update(compress(longer, map(_FZ_SUF.__contains__, map(_suf3, longer))))
        glued = " ".join(compress(longer, map((6).__lt__, map(len, longer))))
        for stem in P.GLUE_STEMS:
            k = glued.find(stem)
            while k >= 0:
                suspect |= _words_at(glued, (k,))
                k = glued.find(stem, k + 1)
    return words - suspect if suspect else words


def _prime(chunks: list[str]) -> None:
    """Store ``(chunk,)`` for the new chunks that provably canonicalise to themselves (see above)."""
    new = set(filterfalse(_CHUNKS.__contains__, set(chunks)))
    if len(new) < 8:
        return
    if len(_CHUNKS) + len(new) > 65536:
        _CHUNKS.clear()
    new -= _REWRITE_KEYS
    plain = new & _PLAIN_KNOWN
    new -= plain
    letters = set(filter(str.isalpha, new))
    if letters:
        plain |= _plain_letters(letters)
        new -= letters
    if new:
        # digits and letters mixed, with a digit that is no leet letter (2, 6, 9): no leet reading is a
        # word, so the chunk stays as it is unless it is a dose (``20mg``, cheaply over-approximated by its
        # last letter) or all digits (``num``)
        mixed = [c for c in filter(str.isalnum, new) if not c.isdigit() and c[-1] not in "glG"]
        if mixed:
            plain.update(compress(mixed, map(_NO_LEET_DIGIT.search, mixed)))
    _CHUNKS.update(zip(plain, zip(plain), strict=True))


class _RelevanceCache:
    """The relevant set of one caller, with the last tokens of multi-token spellings added."""

    __slots__ = ("relevant",)


_REL: dict[frozenset, _RelevanceCache] = {}


def _rel_cache(relevant: frozenset[str]) -> _RelevanceCache:
    cache = _REL.get(relevant)
    if cache is None:
        cache = _REL[relevant] = _RelevanceCache()
        cache.relevant = relevant | MULTI_TOKENS
    return cache


def relevant_tokens(folded: str, relevant: frozenset[str]) -> list[str] | None:
    """The canonical tokens of a folded text (as :func:`tokens`), or None when none of them can be in
    ``relevant`` (nor in a multi-token join, nor in a run of single letters): a cheap proof that the text
    cannot match a pattern whose required words are ``relevant``."""
    cache = _rel_cache(relevant)
    chunks = folded.split()
    if not chunks:
        return None
    _prime(chunks)
    if len(chunks) >= 3 and _RUN_RE.search(" " + " ".join(chunks) + " "):
        # runs of single letters become words only when joined: look at the joined tokens (the later steps
        # only drop dots or join multi-token spellings, whose last tokens are in the relevant set)
        toks = _tokens_runs(chunks)
        if cache.relevant.isdisjoint(toks):
            return None
        return _finish(toks)
    toks = list(_flatten(map(_chunk_get, chunks)))
    if cache.relevant.isdisjoint(toks):
        return None
    return _finish(toks)


def maybe_relevant(text: str, relevant: frozenset[str], folded: bool = False) -> bool:
    """False only when no canonical token of ``text`` can be in ``relevant`` (see :func:`relevant_tokens`)."""
    return relevant_tokens(text if folded else fold(text), relevant) is not None


def _finish(toks: list[str]) -> list[str]:
    """Steps 4-5 on chunk tokens: one-word sentences joined, multi-token spellings joined."""
    if toks.count(BOUNDARY) >= 3:
        toks = _one_word_sentences(toks, None)[0]
    if P.MULTI_LAST_SET.isdisjoint(toks):
        return toks
    return _join_multi(toks, None)[0]


def tokens(folded: str) -> list[str]:
    """Canonical tokens of a folded text (fast path; same tokens as :func:`tokens_with_src`)."""
    chunks = folded.split()
    _prime(chunks)
    if _RUN_RE.search(" " + " ".join(chunks) + " "):
        return _finish(_tokens_runs(chunks))
    return _finish(list(_flatten(map(_chunk_get, chunks))))


_DOT_KIND = {BOUNDARY: 1}
_WORD_DOT_WORD = re.compile(rb"(?=\x00\x01\x00)")


def _one_word_sentences(toks: list[str], src: list | None) -> tuple[list[str], list]:
    """``end. my. life.`` → end my life: drop the dots between runs of one-word sentences."""
    n = len(toks)
    drop = set()
    if n < 256:
        for k in range(1, n - 1):
            if (
                toks[k] == BOUNDARY
                and toks[k - 1] != BOUNDARY
                and (k - 2 < 0 or toks[k - 2] == BOUNDARY)
                and toks[k + 1] != BOUNDARY
                and (k + 2 >= n or toks[k + 2] == BOUNDARY)
            ):
                drop.add(k)
    else:
        # long texts: candidates found in C, a dot between two other tokens (kinds: 1 for a dot, 0 otherwise)
        kinds = bytes(map(_DOT_KIND.get, toks, repeat(0)))
        for m in _WORD_DOT_WORD.finditer(kinds):
            k = m.start() + 1
            if (k - 2 < 0 or toks[k - 2] == BOUNDARY) and (k + 2 >= n or toks[k + 2] == BOUNDARY):
                drop.add(k)
    if not drop:
        return toks, src or []
    out: list[str] = []
    osrc: list = []
    prev = 0
    for k in sorted(drop):  # whole slices between the dropped dots (no per-token Python work)
        out.extend(toks[prev:k])
        if src is not None:
            osrc.extend(src[prev:k])
        prev = k + 1
    out.extend(toks[prev:])
    if src is not None:
        osrc.extend(src[prev:])
    return out, osrc


def tokens_with_src(folded: str) -> tuple[list[str], list[tuple[int, int]]]:
    """Canonical tokens of a folded text, and for each the chunk index range ``[a, b)`` it came from."""
    chunks = folded.split()
    _prime(chunks)
    toks: list[str] = []
    src: list[tuple[int, int]] = []
    n = len(chunks)
    i = 0
    while i < n:
        c = chunks[i]
        if len(c) == 1 and c in _SINGLE and i + 2 < n and len(chunks[i + 1]) == 1 and len(chunks[i + 2]) == 1:
            j = i
            while j < n and len(chunks[j]) == 1 and chunks[j] in _SINGLE and j - i < _SINGLE_RUN_MAX:
                j += 1
            if j - i >= 3:
                words = _join_letters("".join(chunks[i:j]))
                if words is not None:
                    for w in words:
                        toks.append(w)
                        src.append((i, j))
                    i = j
                    continue
                for k in range(i, j):
                    for t in _chunk_get(chunks[k]):
                        toks.append(t)
                        src.append((k, k + 1))
                i = j
                continue
        for t in _chunk_get(c):
            toks.append(t)
            src.append((i, i + 1))
        i += 1
    if toks.count(BOUNDARY) >= 3:
        toks, src = _one_word_sentences(toks, src)
    if P.MULTI_LAST_SET.isdisjoint(toks):
        return toks, src
    return _join_multi(toks, src)


_SINGLE = frozenset("abcdefghijklmnopqrstuvwxyz0123456789@$")
_KIND = dict.fromkeys(_SINGLE, 1)
_RUN_BYTES = re.compile(rb"\x01{3,}")
#: last tokens of multi-token spellings (``my self``, ``sewer slide``): a join can create a relevant token
MULTI_TOKENS = P.MULTI_LAST_SET


def _tokens_runs(chunks: list[str]) -> list[str]:
    """Canonical tokens of chunks holding runs of single letters (same tokens as :func:`tokens_with_src`,
    before its sentence and multi-token steps): every chunk's tokens in bulk, then each run that joins into
    known words replaced by them."""
    kinds = bytes(map(_KIND.get, chunks, repeat(0)))
    per = list(map(_chunk_get, chunks))
    for m in _RUN_BYTES.finditer(kinds):
        a, b = m.span()
        for s0 in range(a, b, _SINGLE_RUN_MAX):
            e0 = min(s0 + _SINGLE_RUN_MAX, b)
            if e0 - s0 >= 3:
                words = _join_letters("".join(chunks[s0:e0]))
                if words is not None:
                    per[s0:e0] = [words] + [()] * (e0 - s0 - 1)
    return list(_flatten(per))


@lru_cache(maxsize=4096)
def _join_letters(joined: str) -> tuple[str, ...] | None:
    """``kill`` / ``killmyself`` / ``su1c1de`` from a run of single letters, or None."""
    leet = joined.translate(_LEET)
    for cand in dict.fromkeys((leet, leet.replace("1", "i"), leet.replace("1", "l"))):
        hit = _known(cand)
        if hit is not None:
            return hit
        if 3 < len(cand) <= _SEGMENT_RUN_MAX and any(stem in cand for stem in P.RUN_STEMS):
            hit = segment(cand)
            if hit is not None:
                return hit
    return None


def _join_multi(toks: list[str], src: list[tuple[int, int]] | None) -> tuple[list[str], list[tuple[int, int]]]:
    """Join multi-token spellings (``my self`` → ``myself``), found by their last token."""
    toks = list(toks)
    src = list(src) if src is not None else None
    last = P.MULTI_LAST
    idxs = list(compress(range(len(toks)), map(last.__contains__, toks)))
    for i in reversed(idxs):
        if i >= len(toks) or toks[i] not in last:
            continue
        for seq, repl in last[toks[i]]:
            k = len(seq)
            a = i - k + 1
            if a >= 0 and toks[a] == seq[0] and tuple(toks[a : i + 1]) == seq:
                toks[a : i + 1] = repl
                if src is not None:
                    span = (src[a][0], src[i][1])
                    src[a : i + 1] = [span] * len(repl)
                break
    return toks, (src if src is not None else [])


def clear_caches() -> None:
    """Empty every cache of this module (see :func:`core.crisis.clear_caches`)."""
    _CHUNKS.clear()
    canon.cache_clear()
    _join_letters.cache_clear()
    _TABLE.clear()
    _TABLE.update(_TABLE_ASCII)
