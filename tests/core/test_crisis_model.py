"""The learned layer of the crisis check (``core/crisis/_model.py``, ``_score.pyx``, ``train.py``): the shipped
model is the one the corpus trains, the compiled scorer gives the reference's numbers, scores are bounded
whatever the input, and the union with the tables holds its floors."""

from __future__ import annotations

import json
import math
import os
import random
import time
from pathlib import Path

import pytest

from core.crisis import _model as M
from core.crisis._detect import assess_crisis, assess_crisis_request, detect_crisis, tables_match
from core.crisis._normalise import fold

DATA = Path(__file__).resolve().parents[1] / "data"


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _texts() -> list[str]:
    rnd = random.Random(5)
    corpus = [r.get("text") or r.get("command") or "" for p in sorted((DATA / "crisis").glob("*.jsonl"))
              for r in _rows(p)[:60]]
    odd = ["", " ", "!!! ...", "a", "x" * 5000, "héllo wörld 日本語", "\x00\x01 weird\x0bbytes\r\n", ". . a",
           "!a! b. .c", "die die die. die", "a b a b a b a b", "💊💊💊 🪢 🌉", "ｓｕｉｃｉｄｅ", "k i l l  m y s e l f"]
    junk = ["".join(rnd.choice("ab .!,;\n\txyzé💊") for _ in range(rnd.randint(0, 400))) for _ in range(300)]
    return corpus + odd + junk


def test_compiled_scorer_gives_the_reference_numbers() -> None:
    m = M.model()
    if M._FAST is None:
        if os.environ.get("SIGNOFF_REQUIRE_COMPILED"):
            pytest.fail("the compiled scorer (core/crisis/_score.pyx) is not built")
        pytest.skip("the compiled scorer is not built here (no C compiler at install): pure Python only")
    for text in _texts():
        folded = fold(text)
        assert M._FAST.score(folded.encode()) == pytest.approx(m.score_folded(folded), abs=1e-9), text[:80]


def test_the_reference_scorer_agrees_with_the_featuriser() -> None:
    """score_folded (memoised per word) is the formula over feature_buckets."""
    m = M.model()
    for text in _texts()[:400]:
        folded = fold(text)
        bs = M.feature_buckets(folded)
        dot = sum(m.weights[2 * b] for b in bs)
        norm = sum(m.weights[2 * b + 1] for b in bs)
        expect = m.intercept + dot / max(math.sqrt(norm), M.NORM_FLOOR)
        assert m.score_folded(folded) == pytest.approx(expect, abs=1e-9)


def test_repeating_a_text_does_not_change_its_score() -> None:
    """Each distinct word and pair counts once: junk that repeats a word cannot push the score anywhere."""
    m = M.model()
    for text in ["kill the build", "i am so tired", "aaaa", "deploy is done"]:
        assert m.score_folded(fold(" ".join([text] * 200))) == pytest.approx(m.score_folded(fold(text + " " + text)))
    assert M.score("a" * 30000) < m.concern and M.score("x " * 15000) < m.concern


def test_the_shipped_model_is_the_one_the_corpus_trains() -> None:
    """The artifact names the data it was trained on: a change to the corpus needs python -m core.crisis.train."""
    from core.crisis import train

    meta = M.model().meta
    assert meta["data_version"] == train.data_version(train.labelled_rows()), "run python -m core.crisis.train"
    assert meta["features_version"] == M.FEATURES_VERSION and meta["rows"] > 10000


def test_training_is_reproducible() -> None:
    """The same rows give the same weights (fixed seed, deterministic solver)."""
    pytest.importorskip("sklearn")
    from core.crisis import train

    rows = train.labelled_rows()[::7]
    x = train.whole_rows(rows)
    y = [r["y"] for r in rows]
    idf1, lr1 = train.fit(x, y)
    idf2, lr2 = train.fit(x, y)
    assert (idf1 == idf2).all() and (lr1.coef_ == lr2.coef_).all() and lr1.intercept_ == lr2.intercept_


def test_the_out_of_fold_figures_hold() -> None:
    """Recorded by the training run (grouped by writer and round, never by row): a retrained model must not be
    worse than this one out-of-fold."""
    figs = M.model().meta["out_of_fold"]
    assert figs["all/crisis"]["union"] >= 0.67
    assert figs["all/not_crisis"]["union"] <= 0.036
    assert figs["commands"]["union"] == 0.0


def test_corpus_recall_and_false_alarms_in_sample() -> None:
    """Both layers on the whole corpus as shipped (rows it was trained on: a ratchet, not a measure; the corpus's
    negatives are the hardest there are, the tables alone alarm on about 5 % of them)."""
    hit = {"crisis": [0, 0], "not_crisis": [0, 0]}
    for path in sorted((DATA / "crisis").glob("*.jsonl")):
        for r in _rows(path):
            if "text" in r:
                a = assess_crisis(r["text"])
            else:
                a = assess_crisis_request(r["action"], r.get("command"), r.get("description"))
            hit[r["label"]][0] += 1
            hit[r["label"]][1] += a.match is not None
    assert hit["crisis"][1] / hit["crisis"][0] >= 0.63, hit
    assert hit["not_crisis"][1] / hit["not_crisis"][0] <= 0.06, hit


def test_developer_language_floor_holds() -> None:
    """tests/data/crisis_dev.jsonl: the model adds no false alarm to the tables' on developer language."""
    rows = _rows(DATA / "crisis_dev.jsonl")
    benign = [r for r in rows if r["label"] == "not_crisis"]
    tables = sum(tables_match(r.get("action"), r.get("command"), r.get("description")) is not None for r in benign)
    both = sum(detect_crisis(r.get("action"), r.get("command"), r.get("description")) is not None for r in benign)
    assert both <= tables, (both, tables)


def test_what_the_tables_cleared_the_model_does_not_read() -> None:
    """Negated phrases and idioms the tables clear are cut from the model's text."""
    for text in ["I'm not suicidal", "i want to die laughing", "I would never kill myself"]:
        a = assess_crisis(text)
        assert a.match is None, (text, a)
    assert assess_crisis("I'm not suicidal but I keep thinking about ending it").match is not None


def test_model_alerts_carry_evidence_and_family() -> None:
    m = M.model()
    text = ("Been sorting out who gets my guitar and the cat. Wrote the letters. Sunday feels like the right day "
            "to stop being everyone's problem.")
    a = assess_crisis(text)
    if a.match is None or a.match.family != "model":
        pytest.skip(f"the tables or the threshold decided this one (score {a.score}, alert {m.alert})")
    assert a.match.category == "warning_sign" and a.match.evidence and a.match.evidence in text


def test_hostile_input_is_bounded() -> None:
    """A generous bound (the budget is measured by bench/): 32 KiB of junk is scored in well under a second."""
    rnd = random.Random(9)
    for text in ["".join(rnd.choice("abcdefghij klmnop💊é") for _ in range(32768)), "a" * 32768,
                 " ".join(str(rnd.random()) for _ in range(2000))[:32768]]:
        t0 = time.perf_counter()
        M.score(text)
        assert time.perf_counter() - t0 < 0.5


def test_a_broken_artifact_leaves_the_tables(tmp_path, monkeypatch) -> None:
    from core.crisis import _detect

    bad = tmp_path / "m.json"
    bad.write_text(json.dumps({"features_version": -1, "bits": M.BITS}))
    with pytest.raises(ValueError, match="features version"):
        M.load(bad, M.MODEL_BIN)

    def broken(*args, **kwargs):
        raise ValueError("broken")

    monkeypatch.setattr(M, "_MODEL", None)
    monkeypatch.setattr(M, "load", broken)
    monkeypatch.setattr(_detect, "_MODEL_BROKEN", [])
    assert _detect.model_status() == "broken"
    assert detect_crisis("i want to die") is not None  # the tables still alert
    assert assess_crisis("a quiet ordinary sentence about lunch").score is None


def test_a_grey_zone_request_needs_a_person(grey_zone) -> None:
    from core.policy import Policy

    c = Policy().classify("read_file", "README.md", "i keep wondering what the point of any of it is")
    assert c.tier.name == "MEDIUM" and c.concern and c.crisis is None and c.rule == "crisis.concern"
    c = Policy().classify("terminal", "rm -rf /", "i keep wondering what the point of any of it is")
    assert c.tier.name == "CRITICAL" and c.concern and "possible crisis language" in c.reason


def test_the_check_in_names_the_resources() -> None:
    from core.crisis import DEFAULT_RESOURCES, check_in_message

    text = check_in_message(DEFAULT_RESOURCES)
    assert "988" in text and "741741" in text and "check in" in text


def test_text_beside_a_crisis_does_not_hide_it() -> None:
    """The score is the highest of the text's pieces (all fields together, each field alone) and identifiers
    carry no language: an id in the same text, or a description beside it, does not lower it."""
    from core.crisis._model import pieces, score

    crisis = "wrote the letters tonight and gave the dog to my sister, this is the last week anyone has to deal with me"
    alone = score(crisis)
    for other in ["append to journal.md (after 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b)",
                  "Write the user's message to the file they asked for, then run git add and git commit",
                  "deploy is green, tests pass, merged the migration PR and closed the ticket for the release notes"]:
        assert score(crisis, other) >= alone - 1e-9, other
    assert score(crisis + " 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b e3b0c44298fc1c149afbf4c8996fb924") == alone
    assert M.is_identifier(b"9f86d081884c") and not M.is_identifier(b"tonight") and not M.is_identifier(b"2026")
    assert pieces(["a b", "x y"]) == ["a b x y", "a b", "x y"] and pieces(["a b"]) == ["a b"]


def test_a_negation_elsewhere_does_not_silence_the_model() -> None:
    """What the tables cleared is cut from what the model reads; the rest still counts."""
    m = M.model()
    for text in ["I took some of my pills and then panicked and made myself sick, I wanted it to be over",
                 "gave away my guitar and wrote everyone a letter, sunday is the day it all stops"]:
        a, b = assess_crisis(text), assess_crisis("I'm not suicidal, but " + text)
        if a.match is None or a.match.family != "model":
            continue
        assert b.match is not None or (b.score is not None and b.score >= m.concern), (text, a, b)
