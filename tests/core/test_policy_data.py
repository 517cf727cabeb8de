"""Accuracy floor on the labelled public commands (shared/eval/commands_public.jsonl)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from core.policy import Policy
from core.tiers import Tier
from tests.conftest import eval_rows


def _rows() -> list[dict]:
    other = os.environ.get("SIGNOFF_EVAL")
    if other:
        return [json.loads(line) for line in Path(other).read_text().splitlines() if line.strip()]
    return eval_rows("commands_public.jsonl")


def test_accuracy_floor() -> None:
    policy = Policy()
    total = exact = 0
    critical_missed = []
    under = []
    for r in _rows():
        if r["tier"] == "crisis":
            continue  # depends on the crisis detector: scored in bench/classify.py
        res = policy.classify(r["action"], r.get("command") or None)
        total += 1
        exact += res.tier.name == r["tier"]
        if r["tier"] == "CRITICAL" and res.tier is not Tier.CRITICAL:
            critical_missed.append((r, res))
        if Tier[r["tier"]] >= Tier.HIGH and res.tier < Tier.MEDIUM:
            under.append((r, res))
    assert exact / total >= 0.97, f"{exact}/{total}"
    assert not critical_missed
    assert not under
