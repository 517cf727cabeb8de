"""Text → canonical token list for the crisis matcher.

Pipeline (every step linear in the input):

1. characters (one ``translate``, length-preserving for ASCII): lower-case; for other characters NFKD +
   drop combining marks, casefold, drop zero-width and format characters, map look-alike letters
   (Cyrillic/Greek) to Latin and known emoji to words. Every character that cannot be part of a word
   (letters, digits, the leet symbols ``@ $ * ! |``, apostrophes) or of punctuation that matters
   (``. ? ! ; : ,``) becomes a space; a new line becomes ``;`` (a sentence end);
2. chunks: ``str.split()``; each chunk becomes canonical tokens (remembered per chunk, see :class:`_Memo`):
   sentence ends and commas become ``.`` / ``,`` tokens, dots inside a word split it (``s.u.i.c.i.d.e``,
   ``file.txt``);
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

Cost: a never-seen text's chunks are learnt together (:func:`_learn`), and a text's tokens are then assembled
from the memo's token texts. There are two readings of a chunk, and only two: the reference here
(:func:`canon_chunk`, :func:`canon`) and the compiled fast path (``_fast.pyx``, built at install where a C
compiler is; see :func:`_load_fast`), which reads each chunk in C and hands to the reference whatever needs
more. Without it the reference reads every new chunk itself: the same tokens, slower on long never-seen texts.
Every step is linear in the text.

A change to how :func:`canon` or :func:`canon_chunk` read a word must be made in ``_fast.pyx`` too (it mirrors
their easy cases); tests/core/test_crisis_compiled.py compares the two on every kind of chunk and fails until
they agree.
"""

from __future__ import annotations

import logging
import re
import threading
import unicodedata
from bisect import bisect_left, bisect_right
from functools import lru_cache
from itertools import accumulate, compress, islice, repeat
from operator import methodcaller
from pathlib import Path

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
        state = _FOLDING.__dict__
        if state.get("on"):
            state["misses"] += 1
            if state["misses"] > 8:
                raise _ManyNew
        if len(self) > _TABLE_MAX:
            _reset_table()
        value = _char_repl(chr(code))
        self[code] = value
        _TABLE_CHARS.add(chr(code))
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
_ASCII_BYTES = bytes(ord(_ascii_repl(c)) for c in range(128)) + b" " * 128
_LATIN1 = [_char_repl(chr(c)) for c in range(128, 256)]
#: Latin-1 characters whose replacement is one ASCII character, as a bytes table (others: a space, unused)
_LATIN1_BYTES = bytes(ord(_ascii_repl(c)) for c in range(128)) + bytes(
    ord(v) if len(v) == 1 and v.isascii() else 32 for v in _LATIN1)
#: Latin-1 characters whose replacement is not one ASCII character (none, or several: ``ß``, ``½``)
_LATIN1_WIDE = [(chr(128 + k), v) for k, v in enumerate(_LATIN1) if not (len(v) == 1 and v.isascii())]
assert all(v.isascii() and _keep(v) == v for _, v in _LATIN1_WIDE)  # kept as they are by the bytes table
_LATIN1_WIDE_RE = re.compile(b"[" + b"".join(re.escape(bytes([128 + k])) for k, v in enumerate(_LATIN1)
                                            if not (len(v) == 1 and v.isascii())) + b"]")


class _ManyNew(Exception):  # noqa: N818 - a signal, not an error
    """Raised out of ``str.translate`` by the table when a text brings many new characters (see :func:`fold`)."""


#: per thread: whether a fold may be interrupted (``on``) and the table's misses in it (``misses``)
_FOLDING = threading.local()


def fold(text: str) -> str:
    """Character-level normalisation (see module docstring, step 1)."""
    if text.isascii():
        return text.encode("ascii").translate(_ASCII_BYTES).decode("ascii")
    if len(text) > 256:  # (short texts: the table, whose characters are known after a first use, is faster)
        try:
            raw = text.encode("latin-1")
        except UnicodeEncodeError:
            pass
        else:
            # Latin-1 (no table needed): the few characters that become no or several characters are replaced
            # first (by ASCII text the bytes table keeps as it is), then every other becomes one ASCII character
            if _LATIN1_WIDE_RE.search(raw) is not None:
                for ch, value in _LATIN1_WIDE:
                    text = text.replace(ch, value)
                raw = text.encode("latin-1")
            return raw.translate(_LATIN1_BYTES).decode("ascii")
        # the big blocks of ideographs and syllables (characters that only ever become spaces) in C first
        text = _WIDE_RE.sub(" ", text)
        if _HANGUL_RE.search(text):
            text = _HANGUL_RE.sub("   ", _HANGUL_LV_RE.sub("  ", text))
    # characters new to the table are computed one at a time on first use; a text with many new characters
    # (more than 8) interrupts the translation and has all its new characters entered in bulk instead
    state = _FOLDING.__dict__
    state["misses"] = 0
    state["on"] = True
    try:
        return text.translate(_TABLE)
    except _ManyNew:
        pass
    finally:
        state["on"] = False
    new = set(text).difference(_TABLE_CHARS)
    _fill_table(new)
    return text.translate(_TABLE)


#: CJK ideographs (with extensions and compatibility forms) and Yi: characters :func:`_char_repl` turns into
#: one space (tests/core/test_crisis_perf.py checks every one)
_WIDE_RE = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\U00020000-\U0002fa1f\U00030000-\U0003134f]")
#: Hangul syllables: NFKD gives two jamo (no final consonant: every 28th syllable) or three, each a space
_HANGUL_LV_RE = re.compile("[" + "".join(chr(c) for c in range(0xAC00, 0xD7A4, 28)) + "]")
_HANGUL_RE = re.compile("[\uac00-\ud7a3]")


_TABLE_CHARS: set[str] = set(map(chr, range(128)))  # characters of _TABLE, as characters
_SPECIAL = frozenset(P.EMOJI) | frozenset(P.ZERO_WIDTH) | frozenset(P.APOSTROPHES) | frozenset(P.CONFUSABLES) \
    | frozenset("\u2028\u2029\x85")
_MARK_CATS = frozenset(("Mn", "Me", "Cf", "Sk"))


class _Post(dict):
    """``str.translate`` table for the characters of NFKD forms: what :func:`_char_repl` makes of each (a
    combining mark is dropped, other characters are case folded and mapped)."""

    def __missing__(self, code: int) -> str:
        ch = chr(code)
        if unicodedata.combining(ch):
            value = ""
        else:
            value = "".join(_post_one(d) for d in ch.casefold())
        if len(self) > 65536:
            self.clear()
        self[code] = value
        return value


def _post_one(d: str) -> str:
    if d.isascii():
        return _ascii_repl(ord(d))
    if d in P.CONFUSABLES:
        return P.CONFUSABLES[d]
    if d in P.EMOJI:
        return f" {P.EMOJI[d]} "
    return " "


_POST = _Post()


def _fill_table(new: set[str]) -> None:
    """Enter the new characters in the table in bulk, each with the value :func:`_char_repl` gives it, using
    C-level maps: a character that no normalisation, case folding or table changes becomes a space; a
    combining mark, format character or modifier symbol is dropped; any other becomes its NFKD form through
    :data:`_POST` (a small alphabet: ASCII letters, marks, jamo). Characters of the tables (emoji, look-alikes,
    zero-width, apostrophes) are left to :func:`_char_repl` on first use. The table is bounded: past 65,536
    entries entered on use it is reset to its base part (see :data:`_BASE_BLOCKS`)."""
    if len(_TABLE) + len(new) > _TABLE_MAX:
        _reset_table()
    chars = [c for c in new if c not in _SPECIAL and not c.isascii()]
    nfs = list(map(unicodedata.normalize, repeat("NFKD"), chars))
    out = {}
    for c, cat, nf, cf, comb in zip(chars, map(unicodedata.category, chars), nfs, map(str.casefold, chars),
                                    map(unicodedata.combining, chars), strict=True):
        if cat in _MARK_CATS:
            out[ord(c)] = ""
        elif nf == c and cf == c and not comb:
            out[ord(c)] = " "
        else:
            out[ord(c)] = nf.translate(_POST)
    _TABLE.update(out)
    _TABLE_CHARS.update(chars)


def _reset_table() -> None:
    _POST.clear()
    _TABLE.clear()
    _TABLE.update(_TABLE_BASE)
    _TABLE_CHARS.clear()
    _TABLE_CHARS.update(_TABLE_BASE_CHARS)


#: blocks whose characters are entered in the table at import (~25,000 characters, ~30 ms): Latin to CJK
#: symbols and kana, Yi radicals to Hangul, Hangul Jamo extended to the end of the BMP, and the emoji blocks.
#: This is the same table :func:`_char_repl` fills on use, computed ahead of any input (a constant, like the
#: phrase tables: clear_caches keeps it), so that a text of never-seen characters of these blocks costs no
#: per-character work. CJK ideographs and Hangul syllables are mapped by regular expressions (see fold);
#: other characters are entered on use.
_BASE_BLOCKS = ((0x80, 0x3400), (0xA4D0, 0xAC00), (0xD7A4, 0xD800), (0xE000, 0x10000), (0x1F000, 0x1FB00))


def _base_table() -> tuple[dict[int, str], set[str]]:
    chars = {chr(c) for a, b in _BASE_BLOCKS for c in range(a, b)}
    _fill_table(chars)
    for ch in _SPECIAL:
        _TABLE[ord(ch)]  # noqa: B018 - fills the entry (__missing__)
        _TABLE_CHARS.add(ch)
    return dict(_TABLE), set(_TABLE_CHARS)


_TABLE_MAX = 1 << 30  # no bound while the base table is built
_TABLE_BASE, _TABLE_BASE_CHARS = _base_table()
_TABLE_MAX = len(_TABLE_BASE) + 65536  # characters entered on use: at most this many more


def fold_ends(text: str) -> list[int] | None:
    """For each character of ``text``, the offset in ``fold(text)`` where its replacement ends (None for ASCII
    text, which folds to the same offsets)."""
    if text.isascii():
        return None
    return list(accumulate(1 if ch.isascii() else len(_TABLE[ord(ch)]) for ch in text))


def orig_offsets(text: str, fs: int, fe: int, ends: list[int] | None = None) -> tuple[int, int]:
    """Map offsets ``[fs, fe)`` of ``fold(text)`` back to ``text`` (identity for ASCII); ``ends`` is
    :func:`fold_ends` of the text, when the caller keeps it for many lookups."""
    if text.isascii():
        return fs, fe
    if ends is None:
        ends = fold_ends(text)
    start = bisect_right(ends, fs)  # the first character whose replacement ends past fs
    if start >= len(ends):
        return 0, len(text)
    end = max(start, bisect_left(ends, fe))  # and the first from there whose replacement reaches fe
    return start, (end + 1 if end < len(ends) else len(text))


_CHUNK_RE = re.compile(r"\S+")


def chunk_spans(folded: str) -> list[tuple[int, int]]:
    """Spans (in the folded text) of the chunks, numbered as in :func:`tokens_with_src`."""
    return [m.span() for m in _CHUNK_RE.finditer(folded)]


# ---------------------------------------------------------------------------------------------------------
# 4. one raw token → canonical tokens

_LEET = str.maketrans({"0": "o", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "@": "a", "$": "s",
                       "!": "i", "|": "l", "+": "t"})
_SQUEEZE3 = re.compile(r"(([a-z])\2)\2+")  # three or more of a letter → two (group 1)
_SQUEEZE2 = re.compile(r"([a-z])\1+")  # two or more of a letter → one (group 1)
#: the replacement of both: a C-level callable (a template such as ``r"\1"`` costs a Python call per match)
_GROUP1 = methodcaller("group", 1)
_MASK_RUN = re.compile(r"\*+")
#: a dose: milligrams, micrograms, millilitres, or grams from 10 up ("4g", "5g" are mostly networks)
_DOSE_RE = re.compile(r"\d+(?:mg|mcg|ml)|\d\d+g")


def _known(word: str) -> tuple[str, ...] | None:
    """Canonical tokens for ``word`` if it is a known word, typo or slang spelling, else None."""
    hit = P.REWRITE.get(word)
    if hit is not None:
        return hit
    if word in P.LEXICON:
        return (word,)
    return None


assert all(w.isascii() and w.isalpha() and w.islower() for w in P.MASKABLE)  # see _mask_fits


_MASK_HEADS = frozenset(w[:k] for w in P.MASKABLE for k in range(len(w) + 1))  # what a masked word starts with
_MASK_TAILS = frozenset(w[k:] for w in P.MASKABLE for k in range(len(w) + 1))  # and ends with


def _unmask(tok: str) -> tuple[str, ...] | None:
    parts = _MASK_RUN.split(tok)
    head, tail = parts[0], parts[-1]
    if head not in _MASK_HEADS or tail not in _MASK_TAILS or not any(parts):
        return None
    fixed = sum(map(len, parts))
    gaps = len(parts) - 1
    lo, hi = max(fixed + gaps, len(tok) - 1), fixed + 3 * gaps
    # at least half of the word must show ("k*ll", "s*ic*de"; not "*se" or "n*e" for noose, which junk is full
    # of); and the necessary conditions of the full match below (same head and tail, length within the gaps)
    hi = min(hi, 2 * fixed)
    words = [w for w in P.MASKABLE if lo <= len(w) <= hi and w.startswith(head) and w.endswith(tail)]
    if not words:
        return None
    for word in words:
        if _mask_fits(parts, word):
            return (word,)
    return None


def _mask_fits(parts: list[str], word: str) -> bool:
    """Whether ``word`` (lower-case ASCII letters) is ``parts`` joined by gaps of one to three letters (the full
    match of ``[a-z]{1,3}`` between the parts, without compiling a pattern per token)."""
    head = parts[0]
    if not word.startswith(head):
        return False
    ends = {len(head)}
    for p in parts[1:]:
        ends = {q + len(p) for e in ends for q in range(e + 1, e + 4) if q <= len(word) and word.startswith(p, q)}
        if not ends:
            return False
    return len(word) in ends


_FZ_LONGEST = max(map(len, P.FUZZY_DELETES)) + 1  # the longest token one deletion away from a key


def _fuzzy(tok: str) -> tuple[str, ...] | None:
    """A single edit (delete/insert/substitute/adjacent swap) away from a long crisis keyword."""
    if tok in P.FUZZY_DELETES:
        return (P.FUZZY_DELETES[tok],)
    if len(tok) > _FZ_LONGEST:  # (a deletion of a longer token is no key: linear, whatever its length)
        return None
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


_CANON: dict[str, tuple[str, ...]] = {}  # raw token → canonical tokens (filled by canon and _prime_pieces)


def canon(tok: str) -> tuple[str, ...]:
    """Canonical tokens for one raw token (see module docstring, step 4), memoised (bounded size)."""
    hit = _CANON.get(tok)
    if hit is None:
        if len(_CANON) > 65536:
            _CANON.clear()
        hit = _CANON[tok] = _canon(tok)
    return hit


canon.cache_clear = _CANON.clear  # type: ignore[attr-defined]


def _canon(tok: str) -> tuple[str, ...]:
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
                hit = _known(cand) or _known(_SQUEEZE2.sub(_GROUP1, cand)) if cand.isalpha() else None
                if hit is not None:
                    return hit
            if not t[0].isdigit() and leet.replace("1", "i").isalpha():
                t = leet.replace("1", "i")
        hit = _known(t)
        if hit is not None:
            return hit
    if t.isalpha():
        sq = _SQUEEZE3.sub(_GROUP1, t)
        if sq != t:
            hit = _known(sq) or _known(_SQUEEZE2.sub(_GROUP1, sq))
            if hit is not None:
                return hit
            t = sq
        elif _SQUEEZE2.search(t):
            # doubled letters: only when squeezing gives a crisis keyword ("diee", "killl" is handled above)
            sq = _SQUEEZE2.sub(_GROUP1, t)
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

#: three single letters in a row, the last one may end a sentence (``d i e.``): a text that may hold a run
_RUN_RE = re.compile(r" [a-z0-9@$] [a-z0-9@$] [a-z0-9@$][.?!;:,]* ")




class _Memo:
    """The canonical tokens of every chunk read so far: ``seen`` holds the chunks, ``text`` those whose tokens
    are not the chunk itself alone (their tokens joined by spaces, ``""`` for none). Most chunks of a text stand
    for themselves, so most need no entry of their own. A clear replaces the whole object (:func:`_renew`)
    instead of emptying it, so that a reader in another thread keeps a consistent view: a chunk it has seen
    learnt never reads as standing for itself by mistake."""

    __slots__ = ("seen", "text")

    def __init__(self) -> None:
        self.seen: set[str] = set()
        self.text: dict[str, str] = {}


_MEMO = _Memo()
_MEMO_MAX = 65536  # chunks remembered at most; past this the memo starts afresh
_BASE_SEEN: frozenset[str] = frozenset()  # (filled at the end of the module)
_BASE_TEXT: dict[str, str] = {}


def _renew() -> _Memo:
    """Start a new memo from the base (see :data:`_BASE_SEEN`) and make it the current one."""
    global _MEMO
    memo = _Memo()
    memo.seen.update(_BASE_SEEN)
    memo.text.update(_BASE_TEXT)
    _MEMO = memo
    return memo


def learn(chunks: list[str]) -> None:
    """Compute and remember the canonical tokens of every chunk not seen before (chunks of folded text), in bulk
    (reading a long text window by window then finds them all known). Chunks longer than a window are left out:
    windows cut them, and read their parts."""
    _learn(chunks, _LEARN_CHUNK_MAX)


_LEARN_CHUNK_MAX = 1024


def _learn(chunks: list[str], longest: int = 0) -> _Memo:
    """The memo, with the tokens of every chunk of ``chunks`` in it (the new ones computed in bulk; with
    ``longest``, only those of at most that many characters)."""
    memo = _MEMO
    if memo.seen.issuperset(chunks):  # (the common case, found without building a set)
        return memo
    new = set(chunks)
    new.difference_update(memo.seen)
    if len(memo.seen) + len(new) > _MEMO_MAX:
        memo = _renew()
        new = set(chunks)
        new.difference_update(memo.seen)
    if longest and new and max(map(len, new)) > longest:
        new = {c for c in new if len(c) <= longest}
    if not new:
        return memo
    # the compiled fast path where it is built, else the reference one chunk at a time
    texts = _fast.chunk_texts(new) if _fast is not None else _canon_texts(new, canon_chunk)
    memo.text.update(texts)
    memo.seen.update(new)  # after the texts: a chunk seen is always complete
    return memo


def _canon_texts(words, fn) -> dict[str, str]:
    """``{word: tokens joined by spaces}`` of the words whose tokens by ``fn`` are not the word alone."""
    out = {}
    for w in words:
        t = fn(w)
        if len(t) != 1 or t[0] != w:
            out[w] = " ".join(t)
    return out


# ---------------------------------------------------------------------------------------------------------
# tables the token assembly and the compiled fast path share

_KNOWN_KEYS = frozenset(P.REWRITE) | P.LEXICON
_FZ_PRE = frozenset(d[:3] for d in P.FUZZY_DELETES)  # a one-edit neighbour of a fuzzy keyword (length >= 6)
_FZ_SUF = frozenset(d[-3:] for d in P.FUZZY_DELETES)  # keeps its first or its last three letters
_FZ_MIN = min(map(len, P.FUZZY_DELETES))
_PUNCT_STR = ".?!;:,"


class _TailToken(dict):
    """Punctuation ending a chunk → the text of its token (canon_chunk: a comma when it is only commas, else a
    sentence end)."""

    def __missing__(self, tail: str) -> str:
        value = self[tail] = COMMA if tail.strip(",") == "" else BOUNDARY
        return value


_TAIL_TOKEN = _TailToken()


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
    return relevant_chunk_tokens(folded.split(), relevant)


def relevant_chunk_tokens(chunks: list[str], relevant: frozenset[str]) -> list[str] | None:
    """:func:`relevant_tokens` of a folded text already split into chunks."""
    cache = _rel_cache(relevant)
    if not chunks:
        return None
    # runs of single letters become words only when joined: the relevance test looks at the joined tokens (the
    # later steps only drop dots or join multi-token spellings, whose last tokens are in the relevant set)
    toks = _chunk_tokens(chunks, _learn(chunks))
    if cache.relevant.isdisjoint(toks):
        return None
    return _finish(toks)


def maybe_relevant(text: str, relevant: frozenset[str], folded: bool = False) -> bool:
    """False only when no canonical token of ``text`` can be in ``relevant`` (see :func:`relevant_tokens`)."""
    return relevant_tokens(text if folded else fold(text), relevant) is not None


def _finish(toks: list[str]) -> list[str]:
    """Steps 4-5 on chunk tokens: one-word sentences joined, multi-token spellings joined."""
    if _fast is not None:
        return _fast.finish(toks, P.MULTI_LAST_SET, _MULTI_PAIRS, _join_multi)
    if toks.count(BOUNDARY) >= 3:
        toks = _one_word_sentences(toks, None)[0]
    if P.MULTI_LAST_SET.isdisjoint(toks):
        return toks
    return _join_multi(toks, None)[0]


def tokens(folded: str) -> list[str]:
    """Canonical tokens of a folded text (fast path; same tokens as :func:`tokens_with_src`)."""
    chunks = folded.split()
    return _finish(_chunk_tokens(chunks, _learn(chunks)))


def _chunk_tokens(chunks: list[str], memo: _Memo) -> list[str]:
    """The tokens of the chunks (all in ``memo``), runs of single letters joined (before the sentence and
    multi-token steps), assembled as one string in C."""
    if _fast is not None:
        return _fast.chunk_tokens(chunks, memo.text, _SINGLE_RUN_MAX)
    get = memo.text.get
    if len(chunks) >= 3 and _RUN_RE.search(" " + " ".join(chunks) + " "):
        return _tokens_runs(chunks, get)
    return " ".join(map(get, chunks, chunks)).split()


_DOT_KIND = {BOUNDARY: 1}
_ONE_WORD_DOT = re.compile(rb"(?<=\x01\x00)\x01(?=\x00\x01)")


def _one_word_sentences(toks: list[str], src: list | None) -> tuple[list[str], list]:
    """``end. my. life.`` → end my life: drop the dots between runs of one-word sentences.

    Found and dropped in C: a dot between two other tokens each with a dot (or the text's edge) on its other
    side (kinds: 1 for a dot, 0 otherwise, padded with a dot at both ends for the edges) is marked 2, and the
    tokens are kept by the marks."""
    kinds = b"\x01" + bytes(map(_DOT_KIND.get, toks, repeat(0))) + b"\x01"
    marked = _ONE_WORD_DOT.sub(b"\x02", kinds)
    if marked == kinds:
        return toks, src or []
    keep = marked[1:-1].translate(_KEEP_UNMARKED)
    return list(compress(toks, keep)), (list(compress(src, keep)) if src is not None else [])


_KEEP_UNMARKED = bytes([1, 1, 0]) + bytes(253)  # (kinds 0 and 1 are kept, 2 is dropped)


def tokens_with_src(folded: str) -> tuple[list[str], list[tuple[int, int]]]:
    """Canonical tokens of a folded text, and for each the chunk index range ``[a, b)`` it came from."""
    chunks = folded.split()
    get = _learn(chunks).text.get
    toks: list[str] = []
    src: list[tuple[int, int]] = []
    n = len(chunks)
    i = 0
    while i < n:
        c = chunks[i]
        if len(c) == 1 and c in _SINGLE and i + 2 < n and len(chunks[i + 1]) == 1:
            j = i
            while j < n and len(chunks[j]) == 1 and chunks[j] in _SINGLE and j - i < _SINGLE_RUN_MAX:
                j += 1
            tail = j - i >= 2 and j - i < _SINGLE_RUN_MAX and j < n and _is_tail(chunks[j])
            end = j + 1 if tail else j
            if end - i >= 3:
                words = _join_letters("".join(ch[0] for ch in chunks[i:end]))
                if words is not None:
                    for w in words:
                        toks.append(w)
                        src.append((i, end))
                    if tail:
                        toks.append(_TAIL_TOKEN[chunks[j][1:]])
                        src.append((j, j + 1))
                    i = end
                    continue
                for k in range(i, j):
                    for t in get(chunks[k], chunks[k]).split():
                        toks.append(t)
                        src.append((k, k + 1))
                i = j
                continue
        for t in get(c, c).split():
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
_RUN_BYTES = re.compile(rb"\x01{2,}")  # (two, when a letter ending a sentence follows: see _tokens_runs)
#: last tokens of multi-token spellings (``my self``, ``sewer slide``): a join can create a relevant token
MULTI_TOKENS = P.MULTI_LAST_SET


def _is_tail(chunk: str) -> bool:
    """A letter then punctuation (``e.``, ``f!``): the last letter of a spelled-out word ends a sentence."""
    return len(chunk) >= 2 and chunk[0] in _SINGLE and chunk[1:].strip(_PUNCT_STR) == ""


def _tokens_runs(chunks: list[str], get) -> list[str]:
    """Canonical tokens of chunks holding runs of single letters (same tokens as :func:`tokens_with_src`,
    before its sentence and multi-token steps): every chunk's token text in bulk (``get(chunk, chunk)``), then
    each run that joins into known words replaced by them. A run may end on a letter that ends a sentence
    (``d i e.``: the dot stays a token of its own)."""
    kinds = bytes(map(_KIND.get, chunks, repeat(0)))
    per = list(map(get, chunks, chunks))
    spans = []
    for m in _RUN_BYTES.finditer(kinds):
        a, b = m.span()
        pieces = [(s0, min(s0 + _SINGLE_RUN_MAX, b)) for s0 in range(a, b, _SINGLE_RUN_MAX)]
        last_a, last_b = pieces[-1]
        if last_b - last_a < _SINGLE_RUN_MAX and b < len(chunks) and _is_tail(chunks[b]):
            pieces[-1] = (last_a, b + 1)  # (a letter that ends a sentence ends the run)
        spans += [(x, y) for x, y in pieces if y - x >= 3]
    if spans:
        runs = ["".join(ch[0] for ch in chunks[a:b]) for a, b in spans]
        # a run can join into words only when a reading of it is a known word or holds a stem of a glued
        # phrase (see _join_letters): found for all runs at once, the others are not looked at one by one
        for k in _maybe_joinable(runs):
            words = _join_letters(runs[k])
            if words is not None:
                a, b = spans[k]
                last = chunks[b - 1]
                end = [_TAIL_TOKEN[last[1:]]] if len(last) > 1 else [""]
                per[a:b] = [" ".join(words)] + [""] * (b - a - 2) + end
    return " ".join(per).split()


def _maybe_joinable(runs: list[str]) -> list[int]:
    """Indices of the runs of single letters :func:`_join_letters` may join (the others it returns None for):
    a reading of the run is a known word, or holds a stem of a glued phrase. Found for all runs at once."""
    joined = "\n".join(runs).translate(_LEET)  # (one translation for all; a run holds no new line)
    leet = joined.split("\n")
    rng = range(len(runs))
    maybe = set(compress(rng, map(_KNOWN_KEYS.__contains__, leet)))
    if "1" in joined:
        for table in (_ONE_I, _ONE_L):
            maybe.update(compress(rng, map(_KNOWN_KEYS.__contains__, joined.translate(table).split("\n"))))
    if _RUN_STEM_RE.search(joined):
        maybe.update(compress(rng, map(_RUN_STEM_RE.search, leet)))
    return sorted(maybe)


_ONE_I = str.maketrans("1", "i")
_ONE_L = str.maketrans("1", "l")
#: stems of glued phrases in runs, with a 1 read as i or l (a run is segmented only when it holds one)
_RUN_STEM_RE = re.compile("|".join(sorted({re.escape(v) for s in P.RUN_STEMS
                                           for v in (s, s.replace("i", "1"), s.replace("l", "1"))})))


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


_MULTI_PAIRS = frozenset((seq[-2], seq[-1]) for spellings in P.MULTI_LAST.values() for seq, _ in spellings)


def _join_multi(toks: list[str], src: list[tuple[int, int]] | None) -> tuple[list[str], list[tuple[int, int]]]:
    """Join multi-token spellings (``my self`` → ``myself``), found by their last token."""
    toks = list(toks)
    src = list(src) if src is not None else None
    last = P.MULTI_LAST
    # where a token and the one before it end some spelling (found in C; every spelling has two tokens or more)
    pairs = zip(toks, islice(toks, 1, None))  # noqa: B905 - (the second is one shorter)
    idxs = list(compress(range(1, len(toks)), map(_MULTI_PAIRS.__contains__, pairs)))
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
    _renew()
    _CANON.clear()
    _join_letters.cache_clear()
    _reset_table()


def _base_memo() -> tuple[frozenset[str], dict[str, str]]:
    """Every chunk of one or two characters of folded text, learnt ahead of any input (~2,300 chunks, a few
    milliseconds at import): the base of every memo. This is the same memo :func:`_learn` fills on use, a
    constant like fold's base table (clear_caches keeps it), so that junk text, which is full of such chunks,
    costs no work for them."""
    alphabet = sorted(_KEEP)
    memo = _renew()
    _learn(alphabet + [a + b for a in alphabet for b in alphabet])
    return frozenset(memo.seen), dict(memo.text)


def _load_fast():
    """The compiled fast path (``_fast.pyx``, built by setup.py where a C compiler is), bound to this module's
    reference functions and tables; None without it, or when it is older than its source (a stale build could
    read text differently from this reference: the reference is used until ``pip install -e .`` rebuilds it)."""
    try:
        from core.crisis import _fast as fast
    except ImportError:
        return None
    source = Path(__file__).with_name("_fast.pyx")
    if source.exists() and source.stat().st_mtime > Path(fast.__file__).stat().st_mtime:
        logging.getLogger(__name__).warning(
            "%s is older than %s: the crisis check uses its pure-Python path (rebuild with: pip install -e .)",
            Path(fast.__file__).name, source.name)
        return None
    fast.bind(canon_chunk=canon_chunk, fuzzy=_fuzzy, segment=segment, join_letters=_join_letters,
              unmask=_unmask, rewrite=P.REWRITE, lexicon=P.LEXICON, maskable=P.MASKABLE_SET, fz_pre=_FZ_PRE,
              fz_suf=_FZ_SUF, fz_min=_FZ_MIN, glue_stems=P.GLUE_STEMS, mask_heads=_MASK_HEADS,
              mask_tails=_MASK_TAILS, leet=_LEET, nt_stems=P.NT_STEMS, contraction_tails=P.CONTRACTION_TAILS,
              s_is_pronouns=P.S_IS_PRONOUNS, run_stems=P.RUN_STEMS, segment_run_max=_SEGMENT_RUN_MAX)
    return fast


_fast = _load_fast()

_BASE_SEEN, _BASE_TEXT = _base_memo()
_renew()
