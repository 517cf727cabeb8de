"""Floors on the red-team rounds of commands (``tests/data/policy_redteam/``): techniques written by helpers
who had not seen the tables must be held for a person (MEDIUM or higher), everyday commands approved at once
(SAFE or LOW). ``python bench/redteam.py --misses`` prints the rows on the wrong side."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))

from redteam import DATA_DIR, load, measure  # noqa: E402

#: round -> (share of techniques held, share of everyday commands auto-approved) it must keep
FLOORS = {
    "round1.jsonl": (0.99, 0.99),  # measured before tuning: 88.4 % held, 98.1 % approved (49.1 % held before v3.2)
    "round2.jsonl": (0.99, 0.99),  # measured before tuning: 96.2 % held, 99.7 % approved (53.7 % before v3.2)
    "round3.jsonl": (0.99, 0.99),  # measured once before tuning: 98.8 % held, 99.8 % approved (61.9 % before v3.2)
}


@pytest.mark.parametrize("name", sorted(FLOORS))
def test_round_keeps_its_floor(name: str) -> None:
    report = measure(load(DATA_DIR / name))
    held, n_hold = report["hold"]
    auto, n_auto = report["auto"]
    want_hold, want_auto = FLOORS[name]
    misses = [(m["expect"], m["tier"], m["command"][:80]) for m in report["misses"]]
    assert held / n_hold >= want_hold, misses
    assert auto / n_auto >= want_auto, misses


def test_every_round_has_a_floor() -> None:
    assert {p.name for p in DATA_DIR.glob("*.jsonl")} <= set(FLOORS)
