"""The crisis normaliser's bulk (cold-path) shortcuts give exactly what the one-at-a-time functions give.

The cold path proves tokens for thousands of new chunks and characters at once (``_learn``: the compiled
``_fast.chunk_texts``, or in pure Python the reference ``canon_chunk`` one chunk at a time; ``_fill_table``, the Latin-1 and
CJK/Hangul fast paths of ``fold``); these tests compare every value they learn with :func:`canon_chunk` and
:func:`_char_repl`, on both paths where it applies (the ``both_paths`` fixture).
"""

from __future__ import annotations

import random
import time

import pytest

from core.crisis import _normalise as N
from core.crisis import _phrases as P
from core.crisis import clear_caches, detect_crisis


def _reference_fold(text: str) -> str:
    return "".join(N._ascii_repl(ord(c)) if c.isascii() else N._char_repl(c) for c in text)


def _random_text(rnd: random.Random, alphabet: str, n: int) -> str:
    return "".join(rnd.choice(alphabet) for _ in range(n))


def _obfuscated(rnd: random.Random, word: str) -> str:
    leet = {"o": "0", "e": "3", "a": "4@", "s": "5$", "t": "7", "b": "8", "i": "1!|", "l": "1|"}
    out = []
    for ch in word:
        r = rnd.random()
        if r < 0.3 and ch in leet:
            out.append(rnd.choice(leet[ch]))
        elif r < 0.35:
            out.append(ch * rnd.randint(2, 4))
        elif r < 0.38:
            out.append("*")
        elif r < 0.42:
            out.append(rnd.choice("'.,:;?!"))
        elif r < 0.44:
            out.append(rnd.choice("269"))
        else:
            out.append(ch)
    if rnd.random() < 0.2:
        out.append(rnd.choice(["g", "l", "mg", "'s", "n't", "1", "!", "."]))
    if rnd.random() < 0.2:
        out.insert(0, rnd.choice(["1", "4", "'", "my", ".", "x!", "a.b."]))
    return "".join(out)


def _chunks_of_many_kinds() -> list[str]:
    rnd = random.Random(11)
    words = sorted(N._KNOWN_KEYS | set(P.MASKABLE))
    texts = [
        _random_text(rnd, "".join(map(chr, range(1, 256))), 6000),
        _random_text(rnd, "ab $(){}[]|&;<>'\"`\\\n#=*~/0123456789", 6000),
        _random_text(rnd, "abcdefghijklmnopqrstuvwxyz0123456789.:!'*$@| ", 6000),
        " ".join(_obfuscated(rnd, rnd.choice(words)) + (_obfuscated(rnd, rnd.choice(words)) if rnd.random() < 0.3
                                                         else "") for _ in range(3000)),
        " ".join(".".join(rnd.choice(words)) + rnd.choice(["", "!", "!x", ".", ","]) for _ in range(1500)),
        " ".join(f"v{k}=$v{k - 1}x; prog{k} --opt{k} file{k}.txt;" for k in range(800)),
    ]
    return [c for t in texts for c in N.fold(t).split()]


@pytest.fixture(params=["compiled", "python"])
def both_paths(request, monkeypatch):
    """Run the test on the compiled fast path (core/crisis/_fast.pyx) and on the pure-Python reference."""
    if request.param == "python":
        monkeypatch.setattr(N, "_fast", None)
    elif N._fast is None:
        pytest.skip("the compiled fast path is not built (no C compiler at install)")
    clear_caches()
    yield request.param
    clear_caches()


def _learnt(chunks: list[str]) -> dict[str, tuple[str, ...]]:
    """The tokens the memo holds for each of ``chunks`` after learning them (absent from ``text``: the chunk
    itself)."""
    memo = N._MEMO
    assert set(chunks) <= memo.seen
    return {c: tuple(memo.text.get(c, c).split()) for c in chunks}


def test_bulk_chunk_tokens_equal_canon_chunk(both_paths) -> None:
    chunks = _chunks_of_many_kinds()
    clear_caches()
    for k in range(0, len(chunks), 400):  # windows of chunks, as the detector learns them
        N._learn(chunks[k : k + 400])
    learnt = _learnt(chunks)
    assert len(learnt) > 5000 and len(N._MEMO.text) > 1000
    clear_caches()
    bad = [(c, v) for c, v in learnt.items() if N.canon_chunk(c) != v]
    assert not bad[:5]


def test_bulk_on_the_whole_text_equals_canon_chunk(both_paths) -> None:
    # one bulk pass over every chunk at once (as the detector does for a long text)
    chunks = _chunks_of_many_kinds()
    clear_caches()
    N._learn(chunks)
    learnt = _learnt(chunks)
    clear_caches()
    assert not [(c, v) for c, v in learnt.items() if N.canon_chunk(c) != v][:5]


def test_dotted_letters_glued_by_an_exclamation_mark(both_paths) -> None:
    # a "!" glues the end letter of a dotted run to a word: canon_chunk joins only the letters left
    chunks = ["x!k.d.i.e", "q.d.i.e!x", "k.i.l.l!z", "z!k.i.l.l", "a.b.c", "s.u.i.c.i.d.e!"]
    filler = [f"w{k}x.y" for k in range(10)]
    clear_caches()
    N._learn(chunks + filler)
    learnt = _learnt(chunks)
    clear_caches()
    assert {c: N.canon_chunk(c) for c in learnt} == learnt
    assert learnt["x!k.d.i.e"] == ("xik", "die")


def test_fold_fast_paths_equal_per_character_table() -> None:
    rnd = random.Random(3)
    texts = [
        _random_text(rnd, "".join(map(chr, range(1, 256))), 5000),  # Latin-1, with ß ½ æ and soft hyphens
        _random_text(rnd, "abcáéíóúñüßÆ½ ", 5000),
        "".join(chr(rnd.randrange(0x100, 0x3000)) for _ in range(5000)),
        "".join(chr(rnd.randrange(0x3000, 0xFFFF)) for _ in range(5000)),
        "".join(chr(rnd.randrange(0x10000, 0x30000)) for _ in range(3000)),
        "I want to kill mysélf 😂 ѕυι¢ι∂є 漢字 한국어 ｋｉｌｌ",
    ]
    for text in texts:
        clear_caches()
        assert N.fold(text) == _reference_fold(text)
        assert N.fold(text) == _reference_fold(text)  # warm


@pytest.mark.parametrize("ranges", [((0x3400, 0x4DC0), (0x4E00, 0xA000), (0xA000, 0xA4D0)),
                                    ((0x20000, 0x2FA20), (0x30000, 0x31350))])
def test_wide_blocks_become_spaces(ranges) -> None:
    for a, b in ranges:
        chars = "".join(map(chr, range(a, b)))
        assert N._WIDE_RE.sub(" ", chars) == " " * len(chars)
        assert all(N._char_repl(c) == " " for c in chars)


def test_hangul_syllables_become_two_or_three_spaces() -> None:
    for code in range(0xAC00, 0xD7A4):
        ch = chr(code)
        want = N._char_repl(ch)
        got = N._HANGUL_RE.sub("   ", N._HANGUL_LV_RE.sub("  ", ch))
        assert got == want


def test_base_table_equals_char_repl() -> None:
    bad = [c for c, v in N._TABLE_BASE.items() if c >= 128 and v != N._char_repl(chr(c))]
    assert not bad[:5]


def test_unmask_without_compiled_patterns_matches_regex() -> None:
    import re

    def reference(tok: str):
        parts = N._MASK_RUN.split(tok)
        if not any(parts):
            return None
        rx = re.compile("[a-z]{1,3}".join(re.escape(p) for p in parts))
        shown = sum(map(len, parts))
        for word in P.MASKABLE:
            if len(word) >= len(tok) - 1 and 2 * shown >= len(word) and rx.fullmatch(word):
                return (word,)
        return None

    rnd = random.Random(1)
    toks = []
    for w in P.MASKABLE:
        for _ in range(50):
            t = list(w)
            for _ in range(rnd.randint(1, 3)):
                i = rnd.randrange(len(t))
                t[i : i + rnd.randint(1, 4)] = ["*" * rnd.randint(1, 2)]
            toks.append("".join(t))
    toks += ["".join(rnd.choice("abcdeiklmsu*13") for _ in range(rnd.randint(1, 10))) for _ in range(5000)]
    assert [t for t in toks if N._unmask(t) != reference(t)] == []


def test_obfuscations_in_hostile_cold_texts_are_found(both_paths) -> None:
    rnd = random.Random(5)
    noise = _random_text(rnd, "".join(map(chr, range(1, 256))), 30000)
    for crisis in ("k.i.l.l m.y.s.e.l.f", "k i l l m y s e l f", "i want to k*ll myself", "5u1c1d3 is my plan",
                   "i want to diiiiiie", "kill mysélf", "ｉ ｗａｎｔ ｔｏ ｄｉｅ", "i want to die 😵"):
        for at in (0, 15000, 30000):
            clear_caches()
            # (a sentence of its own: spelled-out letters glued to stray letters of the noise read as other
            # words, "o k i l l m y s e l f" as "ok ill myself")
            assert detect_crisis(noise[:at] + ". " + crisis + ". " + noise[at:]) is not None, (crisis, at)


def test_cold_random_bytes_is_bounded(both_paths) -> None:
    # a loose bound (the benchmark holds the real one): the bulk paths keep the cold cost of never-seen junk low
    rnd = random.Random(9)
    best = float("inf")
    for _ in range(3):
        text = _random_text(rnd, "".join(map(chr, range(1, 256))), 32 * 1024)
        clear_caches()
        t = time.perf_counter()
        detect_crisis(text)
        best = min(best, time.perf_counter() - t)
    assert best < 0.5


def _hostile_texts() -> list[str]:
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "bench" / "classify.py"
    spec = importlib.util.spec_from_file_location("bench_classify_perf", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    texts = [*bench.crisis_shapes(size=3000, seed=21).values(), *bench.shell_shapes(size=3000, seed=21).values()]
    rnd = random.Random(21)
    texts += [" ".join(_obfuscated(rnd, rnd.choice(sorted(N._KNOWN_KEYS))) for _ in range(400)) for _ in range(3)]
    return texts


def test_bulk_tokens_equal_tokens_read_one_chunk_at_a_time(both_paths, monkeypatch) -> None:
    # the whole fast path (bulk learning, base memo, runs, sentences, multi-token joins) against a memo filled
    # by canon_chunk alone, one chunk at a time
    texts = [N.fold(t) for t in _hostile_texts()]
    clear_caches()
    fast = [N.tokens(t) for t in texts]
    monkeypatch.setattr(N, "_BASE_SEEN", frozenset())
    monkeypatch.setattr(N, "_BASE_TEXT", {})
    monkeypatch.setattr(N, "_fast", None)
    clear_caches()
    slow = [N.tokens(t) for t in texts]
    bad = [(t[:60], a[:12], b[:12]) for t, a, b in zip(texts, fast, slow, strict=True) if a != b]
    assert not bad[:3]
    clear_caches()


def test_a_long_chunk_costs_no_quadratic_work(both_paths) -> None:
    # one 32 KiB chunk (no spaces): the near-miss search and the whole-text pass stay linear
    for text in ("iwanttodie" * 3300, "a|" * 16000, "x" * 32000 + "suicide", "k1ll" * 8000):
        clear_caches()
        t0 = time.perf_counter()
        detect_crisis(text)
        assert time.perf_counter() - t0 < 0.1, text[:20]


def test_verdicts_hold_while_another_thread_renews_the_memo(both_paths) -> None:
    # the daemon reads long texts in worker threads; a memo started afresh (past its size bound) must never
    # make a chunk another thread has learnt read as standing for itself
    import sys
    import threading

    rnd = random.Random(4)
    noise = _random_text(rnd, "".join(map(chr, range(1, 256))), 6000)
    cases = [(noise + " i want to k*ll myself " + noise, True), (noise + " 5u1c1d3 is my plan", True),
             ("i want to die. " + noise, True), (noise, False), ("the build is green. " * 300, False)]
    expected = [bool(detect_crisis(t)) for t, _ in cases]
    assert expected == [want for _, want in cases]
    stop = threading.Event()
    wrong: list[str] = []

    def renew() -> None:
        while not stop.is_set():
            N._renew()

    def read() -> None:
        for _ in range(15):
            for text, want in cases:
                try:
                    if bool(detect_crisis(text)) != want:
                        wrong.append(text[-40:])
                except Exception as exc:  # noqa: BLE001 - any failure in a thread is a wrong verdict here
                    wrong.append(repr(exc))

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    try:
        renewer = threading.Thread(target=renew)
        readers = [threading.Thread(target=read) for _ in range(3)]
        renewer.start()
        for t in readers:
            t.start()
        for t in readers:
            t.join()
        stop.set()
        renewer.join()
    finally:
        sys.setswitchinterval(old)
        clear_caches()
    assert not wrong[:3]


def test_original_offsets_by_bisection_equal_a_walk_over_the_text() -> None:
    # the evidence of a hit in a long non-ASCII text is found by bisection over the folded offsets of its
    # characters (one pass per text, not one per hit); the same offsets as walking the text character by character
    def walk(text: str, fs: int, fe: int) -> tuple[int, int]:
        if text.isascii():
            return fs, fe
        pos, start = 0, None
        for i, ch in enumerate(text):
            n = 1 if ch.isascii() else len(N._TABLE[ord(ch)])
            if start is None and pos + n > fs:
                start = i
            if start is not None and pos + n >= fe:
                return start, i + 1
            pos += n
        return (start or 0), len(text)

    rnd = random.Random(12)
    for _ in range(3000):
        text = "".join(rnd.choice("ab .\u00e9\u00df\u00bd\u200b\U0001F52B\u6f22\u0435") for _ in range(rnd.randint(1, 30)))
        n = len(N.fold(text))
        fs = rnd.randint(0, n)
        fe = rnd.randint(fs, n + 2)
        assert N.orig_offsets(text, fs, fe) == walk(text, fs, fe), (text, fs, fe)
        assert N.orig_offsets(text, fs, fe, N.fold_ends(text)) == walk(text, fs, fe)
