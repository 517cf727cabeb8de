"""The labelled crisis corpus (``tests/data/crisis/``): every row is one a detector can be trained and measured on.

Each file holds one label; a row is a message (``text``) or an agent request (``action`` and a ``command`` or
``description``), with its round and a category; no text appears twice, in the corpus or beside it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[1] / "data"
FILES = sorted((DATA / "crisis").glob("*.jsonl"))


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _key(row: dict) -> str:
    return (row.get("text") or f"{row.get('command') or ''} {row.get('description') or ''}").strip().lower()


def test_the_corpus_is_there() -> None:
    assert len(FILES) >= 3 and sum(len(_rows(p)) for p in FILES) >= 2500


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_rows_are_well_formed(path: Path) -> None:
    rows = _rows(path)
    labels = {r["label"] for r in rows}
    assert len(labels) == 1 and labels <= {"crisis", "not_crisis"}, labels
    for r in rows:
        assert isinstance(r["round"], int) and r["category"], r
        if "text" in r:
            assert r["text"].strip(), r
        else:
            assert r["action"] and (r.get("command") or r.get("description")), r


def test_no_text_is_there_twice() -> None:
    """Within the corpus, and against the fresh red-team rounds beside it (a row in both would be measured on
    what it was trained with)."""
    seen = {_key(r): "crisis_fresh.jsonl" for r in _rows(DATA / "crisis_fresh.jsonl")}
    for path in FILES:
        for r in _rows(path):
            k = _key(r)
            assert k not in seen, (path.name, seen.get(k), k[:80])
            seen[k] = path.name


def test_held_out_rounds_are_not_trained_on() -> None:
    """tests/data/crisis_holdout/: no row is in the corpus or the fresh rounds the model is trained on."""
    trained = {_key(r) for r in _rows(DATA / "crisis_fresh.jsonl")}
    for path in FILES:
        trained |= {_key(r) for r in _rows(path)}
    held = sorted((DATA / "crisis_holdout").glob("*.jsonl"))
    assert held
    for path in held:
        rows = _rows(path)
        assert {r["label"] for r in rows} == {"crisis", "not_crisis"}
        overlap = [k for k in map(_key, rows) if k in trained]
        assert not overlap, (path.name, overlap[:3])
