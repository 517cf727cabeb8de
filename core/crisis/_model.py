"""The learned layer of the crisis check: a linear model over hashed character and word n-grams.

A text is folded as the tables read it (:func:`core.crisis._normalise.fold`: lower case, look-alike letters
and known emoji mapped, other symbols spaced out) and split at whitespace. Its features, each hashed (CRC-32
of the UTF-8 bytes) into one of ``2**BITS`` buckets:

* the character n-grams of 2 to 5 bytes of each word padded with one space on each side (scikit-learn's
  ``char_wb`` analyser);
* each word without its end punctuation, and each pair of neighbouring words (``\\x01`` / ``\\x02``
  prefixed).

Each distinct word counts once, and so does each distinct pair; a word's n-grams are read from its first
``MAX_WORD`` bytes; identifiers (:func:`is_identifier`) are skipped.

The score is ``intercept + Σ idf·coef / max(sqrt(Σ idf²), NORM_FLOOR)``, both sums over every occurrence of a
feature: TF-IDF with raw counts and an L2 norm (floored, so that a text of two or three words is not read as
surely as a sentence). Summing per occurrence needs no table of counts, so the compiled scorer
(``_score.pyx``) streams through the text with one read of a 512 KiB table (it stays in the CPU's L2 cache)
per n-gram: about 15 ns a byte. ``python -m core.crisis.train`` fits ``idf``, ``coef`` and the intercept
(logistic regression) and chooses the two thresholds out-of-fold; the artifact (``data/crisis_model.json`` +
``.bin``) holds them with the data version.

:func:`score` reads a text through the compiled scorer where it is built, or the pure-Python reference here
(the same number, to float rounding; tests compare the two). Long texts are read in windows as the tables read
them; the highest window decides.
"""

from __future__ import annotations

import json
import math
import sys
import zlib
from array import array
from dataclasses import dataclass
from pathlib import Path

from core.crisis._normalise import fold

BITS = 16
MASK = (1 << BITS) - 1
NGRAM_MIN, NGRAM_MAX = 2, 5
#: end punctuation stripped from a word for its word feature (fold keeps these characters)
WORD_STRIP = b".?;:,!"
FEATURES_VERSION = 4
#: bytes of a word its n-grams are read from (longer words are ids, hashes or junk)
MAX_WORD = 32
#: the smallest norm a text is divided by: a text of a few features is not read as surely as a sentence (the
#: norm of a short sentence; without it "let i++" or "I am not" could score like a full confession)
NORM_FLOOR = 50.0
DATA_DIR = Path(__file__).resolve().parent / "data"
MODEL_JSON = DATA_DIR / "crisis_model.json"
MODEL_BIN = DATA_DIR / "crisis_model.bin"

_crc32 = zlib.crc32


def word_buckets(word: bytes) -> list[int]:
    """Buckets of one whitespace-free word of folded text (UTF-8 bytes): the padded n-grams of its first
    ``MAX_WORD`` bytes, then its word feature (absent when the word is only punctuation)."""
    padded = b" " + word[:MAX_WORD] + b" "
    n = len(padded)
    out = [_crc32(padded[i:i + k]) & MASK for k in range(NGRAM_MIN, NGRAM_MAX + 1) for i in range(n - k + 1)]
    core = word.strip(WORD_STRIP)
    if core:
        out.append(_crc32(b"\x01" + core) & MASK)
    return out


def is_identifier(word: bytes) -> bool:
    """A word of 8 bytes or more with both digits and letters (a hash, an id, a version string): it carries no
    language, and its many n-grams would only dilute the words around it, so the model skips it."""
    if len(word) < 8:
        return False
    digit = letter = False
    for c in word:
        if 48 <= c <= 57:
            digit = True
        elif 97 <= c <= 122:
            letter = True
        if digit and letter:
            return True
    return False


def _walk(folded: str):
    """The features of a folded text, in order: ``bytes`` for a distinct word (its buckets are
    :func:`word_buckets`), ``int`` for the bucket of a distinct pair of neighbouring words. Each distinct word
    (by its CRC-32) and each distinct pair counts once: a text that repeats itself says no more than it did the
    first time, and junk that repeats a word cannot push the score anywhere. Identifiers are skipped."""
    seen_words: set[int] = set()
    seen_pairs: set[int] = set()
    prev = b""
    for word in folded.encode("utf-8").split():
        if is_identifier(word):
            continue
        h = _crc32(word)
        if h not in seen_words:
            seen_words.add(h)
            yield word
        core = word.strip(WORD_STRIP)
        if core:
            if prev:
                p = _crc32(b"\x02" + prev + b" " + core)
                if p not in seen_pairs:
                    seen_pairs.add(p)
                    yield p & MASK
            prev = core


def feature_buckets(folded: str) -> list[int]:
    """Every feature of a folded text, as buckets, in order (the reference featuriser; training counts them,
    the scorers sum over them; see :func:`_walk`)."""
    out: list[int] = []
    for f in _walk(folded):
        if type(f) is int:
            out.append(f)
        else:
            out += word_buckets(f)
    return out


def feature_counts(folded: str) -> dict[int, int]:
    """``{bucket: count}`` of a folded text."""
    counts: dict[int, int] = {}
    for b in feature_buckets(folded):
        counts[b] = counts.get(b, 0) + 1
    return counts


@dataclass(frozen=True, slots=True)
class Model:
    """A loaded crisis model.

    ``weights`` is a float32 array of ``2 * 2**BITS`` entries: for each bucket ``idf·coef`` then ``idf²``;
    ``alert`` is the score at or above which a text alerts (chosen out-of-fold at the false-alarm budget),
    ``concern`` the lower edge of the grey zone (``concern <= score < alert``); ``meta`` is the artifact's
    JSON (data version, figures)."""

    weights: array
    intercept: float
    alert: float
    concern: float
    meta: dict

    def score_folded(self, folded: str) -> float:
        """The model's score (a logit) of one folded text, pure Python (each word's sums memoised)."""
        w = self.weights
        dot = norm = 0.0
        cache = _WORD_SUMS
        for f in _walk(folded):
            if type(f) is int:
                dot += w[2 * f]
                norm += w[2 * f + 1]
                continue
            sums = cache.get(f)
            if sums is None:
                bs = word_buckets(f)
                sums = (sum(w[2 * b] for b in bs), sum(w[2 * b + 1] for b in bs))
                if len(cache) >= _WORD_SUMS_MAX:
                    cache.clear()
                cache[f] = sums
            dot += sums[0]
            norm += sums[1]
        return self.intercept + dot / max(math.sqrt(norm), NORM_FLOOR)


_WORD_SUMS: dict[bytes, tuple[float, float]] = {}  # the pure-Python path's memo of each word's sums
_WORD_SUMS_MAX = 65536


def load(path_json: Path = MODEL_JSON, path_bin: Path = MODEL_BIN) -> Model:
    """Read the artifact. Raises ``OSError`` if a file is missing and ``ValueError`` if it does not fit this
    code (another feature version or size)."""
    meta = json.loads(path_json.read_text(encoding="utf-8"))
    if meta.get("features_version") != FEATURES_VERSION or meta.get("bits") != BITS:
        raise ValueError(f"{path_json}: features version {meta.get('features_version')} / {meta.get('bits')} bits, "
                         f"this code reads version {FEATURES_VERSION} / {BITS} bits: run python -m core.crisis.train")
    raw = zlib.decompress(path_bin.read_bytes())
    if len(raw) != 8 << BITS:
        raise ValueError(f"{path_bin}: {len(raw)} bytes, expected {8 << BITS}")
    weights = array("f")
    weights.frombytes(raw)
    if sys.byteorder != "little":  # the artifact is little-endian
        weights.byteswap()
    _WORD_SUMS.clear()
    return Model(weights, float(meta["intercept"]), float(meta["threshold_alert"]),
                 float(meta["threshold_concern"]), meta)


def save(model_meta: dict, idf, coef, path_json: Path = MODEL_JSON, path_bin: Path = MODEL_BIN) -> None:
    """Write the artifact: for each of the ``2**BITS`` buckets ``idf·coef`` and ``idf²`` (little-endian float32,
    zlib-compressed), and the metadata as JSON."""
    weights = array("f", bytes(8 << BITS))
    weights[0::2] = array("f", (i * c for i, c in zip(idf, coef, strict=True)))
    weights[1::2] = array("f", (i * i for i in idf))
    if sys.byteorder != "little":
        weights.byteswap()
    path_bin.parent.mkdir(parents=True, exist_ok=True)
    path_bin.write_bytes(zlib.compress(weights.tobytes(), 9))
    path_json.write_text(json.dumps(model_meta, indent=1, sort_keys=True) + "\n", encoding="utf-8")


_MODEL: Model | None = None
_FAST = None


def model() -> Model:
    """The shipped model, loaded once (512 KiB in memory)."""
    global _MODEL, _FAST
    if _MODEL is None:
        m = load()
        try:
            from core.crisis import _score

            _FAST = _score.Scorer(m.weights, m.intercept, NORM_FLOOR)
        except ImportError:
            _FAST = None
        _MODEL = m
    return _MODEL


def score(*texts: str | None, rewrite=None, folds: dict[str, str] | None = None) -> float | None:
    """The model's score (a logit: at or above ``model().alert`` it alerts) of one message or request's texts,
    or None when there is nothing to read: the highest of its :func:`pieces`. A text longer than the tables'
    windows (about 3 KiB) is read in those windows, each on its own. ``rewrite`` (``piece -> piece``), when
    given, is applied to each text and window first (the detector cuts what the tables cleared); ``folds`` maps
    texts and windows to their folded form where the caller has it already (the tables folded them)."""
    limit, windows = _window_rule()
    folds = folds or {}
    short: list[str] = []
    best = -math.inf
    for t in texts:
        if not t:
            continue
        if type(t) is not str:
            t = str(t)
        if len(t) <= limit:
            if rewrite is not None:
                t = rewrite(t)
            short.append(folds.get(t) or fold(t))
            continue
        for w in dict.fromkeys(windows(t)):
            if rewrite is not None:
                w = rewrite(w)
            best = max(best, score_folded(folds.get(w) or fold(w)))
    if short:
        best = max(best, score_parts(short))
    return None if best == -math.inf else best


_WINDOW_RULE: tuple = ()


def _window_rule():
    """``(longest text read whole, the windows of a longer one)``: the tables' rule (``_detect``, imported on
    first use: it imports this module)."""
    global _WINDOW_RULE
    if not _WINDOW_RULE:
        from core.crisis._detect import _WINDOW, _windows

        _WINDOW_RULE = (_WINDOW + _WINDOW // 2, _windows)
    return _WINDOW_RULE


def pieces(parts: list[str]) -> list[str]:
    """What the model scores of one message or request, given its folded fields: all of them together, and
    each field alone when there are several. The score is the highest, so a crisis text in one field counts
    whatever sits in another (a long description, an id). (Each sentence alone as well was tried: out-of-fold
    it did no better, and it raised the threshold.)"""
    parts = [p for p in parts if p and not p.isspace()]
    if not parts:
        return []
    if len(parts) == 1:
        return parts
    return list(dict.fromkeys([" ".join(parts), *parts]))


def score_parts(parts: list[str]) -> float:
    """The highest score of the :func:`pieces` of folded fields (``-inf`` when there is nothing to read)."""
    return max((score_folded(p) for p in pieces(parts)), default=-math.inf)


def score_folded(folded: str) -> float:
    """The model's score of one folded text, through the compiled scorer where it is built."""
    m = model()
    if _FAST is not None:
        return _FAST.score(folded.encode("utf-8"))
    return m.score_folded(folded)
