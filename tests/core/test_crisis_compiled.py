"""The compiled fast path of the crisis normaliser (``core/crisis/_fast.pyx``) reads text exactly as the
pure-Python reference does: the same tokens for every chunk, the same token lists for whole texts, the same
verdicts on every labelled message. CI builds it and requires it (``SIGNOFF_REQUIRE_COMPILED=1`` in .ci/run);
elsewhere these tests are skipped where no C compiler built it."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from core.crisis import _normalise as N
from core.crisis import _phrases as P
from core.crisis import clear_caches, compiled, detect_crisis
from tests.conftest import EVAL_DIR
from tests.core.test_crisis_perf import _chunks_of_many_kinds, _hostile_texts, _obfuscated, _random_text

FAST = N._fast


def test_ci_builds_the_compiled_path() -> None:
    # CI sets SIGNOFF_REQUIRE_COMPILED: a clone whose build quietly fell back to pure Python must not pass there
    if os.environ.get("SIGNOFF_REQUIRE_COMPILED"):
        assert FAST is not None, "core/crisis/_fast was not built (is a C compiler installed?)"
    assert compiled() == (FAST is not None)


needs_compiled = pytest.mark.skipif(FAST is None, reason="the compiled fast path is not built (no C compiler at install)")


def _tricky_chunks() -> list[str]:
    """Chunks of folded text of every shape the compiled path reads itself or hands on: leet, ones, masks,
    apostrophes and contractions, doses, inner "!", dotted letters, punctuation runs, long pieces (past its
    64-character buffers), squeezed letters and near misses of the keywords."""
    rnd = random.Random(17)
    words = sorted(N._KNOWN_KEYS | set(P.MASKABLE) | set(P.FUZZY_DELETES))
    alphabets = ["abcdefghijklmnopqrstuvwxyz0123456789@$*'|!.,:;?", "aeiouslkd1!|'*.", "01345789@$!|",
                 "ab'", "ks*i1!.", "dieakl.!", "mg0123456789c", "aaaaeeeiiisss"]
    chunks = []
    for _ in range(20000):
        chunks.append("".join(rnd.choice(rnd.choice(alphabets)) for _ in range(rnd.randint(1, 14))))
    for w in words:
        chunks.append(_obfuscated(rnd, w))
        chunks.append(w + rnd.choice(["'s", "n't", "'m", "'re", "'ve", "'ll", "'d", "'x", "'", "''", "!", "."]))
        chunks.append(rnd.choice(["'", "''", "x'", "n'"]) + w)
        chunks.append("".join(c * rnd.choice([1, 1, 2, 3]) for c in w))
        if len(w) > 4:
            k = rnd.randrange(len(w))
            chunks.append(w[:k] + rnd.choice("abcdefghijklmnopqrstuvwxyz") + w[k + 1:])  # a substitution
            chunks.append(w[:k] + w[k + 1:])  # a deletion
            chunks.append(w[:k] + "*" + w[k + 1:])  # a mask
    chunks += [".".join(w) + rnd.choice(["", "!", "!x", ".", ",", "?"]) for w in words[:400]]
    chunks += ["iwanttodie" * k for k in (1, 3, 7)] + ["k1ll" * 20, "s" * 100, "s.u.i.c.i.d.e" * 30,
               "a" * 64 + "1", "1" * 65 + "a", "x!" * 40 + "y", "'" * 70, "*" * 70, "k*ll" * 20]
    return chunks


@pytest.fixture(autouse=True)
def _fresh_caches():
    clear_caches()
    yield
    clear_caches()


@needs_compiled
def test_every_chunk_reads_as_the_reference_reads_it() -> None:
    chunks = _tricky_chunks() + _chunks_of_many_kinds()
    got = FAST.chunk_texts(set(chunks))
    bad = [(c, got.get(c, c), N.canon_chunk(c)) for c in set(chunks) if tuple(got.get(c, c).split()) != N.canon_chunk(c)]
    assert not bad[:5]


@needs_compiled
def test_a_chunk_outside_ascii_is_read_by_the_reference() -> None:
    # folded text is ASCII; anything else is handed over whole rather than misread
    assert FAST.chunk_texts(["kïll", "ｋｉｌｌ"]) == {c: " ".join(N.canon_chunk(c)) for c in ["kïll", "ｋｉｌｌ"]
                                                    if N.canon_chunk(c) != (c,)}


@needs_compiled
def test_whole_texts_give_the_reference_tokens(monkeypatch) -> None:
    rnd = random.Random(23)
    texts = [N.fold(t) for t in _hostile_texts()]
    texts += [N.fold(_random_text(rnd, "abcdefiklmsuy1!@$. ,;'*\n", 4000)) for _ in range(5)]
    texts += [N.fold(" ".join(rnd.choice(["k", "i", "l", "1", "m", "y", "s", "e", "f", "d", ".", "end.", "my.",
                                         "life.", "my", "self", "sewer", "slide", "x", "e.", "f!", "e,", "d?", "1.", "e,,"])
                                for _ in range(3000)))]
    compiled_tokens = [N.tokens(t) for t in texts]
    monkeypatch.setattr(N, "_fast", None)
    clear_caches()
    reference = [N.tokens(t) for t in texts]
    bad = [(t[:60], a[:12], b[:12]) for t, a, b in zip(texts, compiled_tokens, reference, strict=True) if a != b]
    assert not bad[:3]


@needs_compiled
def test_one_word_sentences_and_multi_token_spellings_as_the_reference(monkeypatch) -> None:
    rnd = random.Random(29)
    vocab = [".", ",", "end", "my", "life", "self", "sewer", "slide", "kill", "x", "i", "want", "to", "die"]
    lists = [[rnd.choice(vocab) for _ in range(rnd.randint(0, 12))] for _ in range(5000)]
    lists += [[".", "end", ".", "my", ".", "life", "."], ["end", ".", "my", ".", "life"], [".", ".", "."]]
    got = [N._finish(list(t)) for t in lists]
    monkeypatch.setattr(N, "_fast", None)
    want = [N._finish(list(t)) for t in lists]
    assert [(t, a, b) for t, a, b in zip(lists, got, want, strict=True) if a != b][:3] == []


def _labelled_messages() -> list[str]:
    fresh = Path(__file__).resolve().parents[1] / "data" / "crisis_fresh.jsonl"
    texts = [json.loads(line)["text"] for line in fresh.read_text().splitlines() if line]
    for name in ("crisis_public.jsonl", "commands_public.jsonl"):
        path = EVAL_DIR / name
        if path.exists():
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    row = json.loads(line)
                    texts += [v for v in (row.get("text"), row.get("action"), row.get("command")) if v]
    return texts


@needs_compiled
def test_verdicts_on_labelled_messages_are_the_reference_verdicts(monkeypatch) -> None:
    texts = _labelled_messages()
    rnd = random.Random(31)
    noise = _random_text(rnd, "".join(map(chr, range(1, 256))), 6000)
    texts += [noise[:k] + " " + t + " " + noise[k:] for k, t in zip(range(0, 6000, 50), texts[::20], strict=False)]
    got = [detect_crisis(t) for t in texts]
    monkeypatch.setattr(N, "_fast", None)
    clear_caches()
    want = [detect_crisis(t) for t in texts]
    assert len(texts) > 1000
    assert [(t[:80], a, b) for t, a, b in zip(texts, got, want, strict=True) if a != b][:3] == []
