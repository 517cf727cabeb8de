"""How the risk policy holds on command sets nobody tuned it on (issue: "techniques not auto-approved,
everyday commands auto-approved").

Usage: python bench/redteam.py [FILE.jsonl ...] [--misses] [--json]

Each row is ``{"command", "expect": "hold" | "auto", "category", "program", "action"?, "cwd"?}``: a technique
must be held for a human (MEDIUM or higher), an everyday command approved at once (SAFE or LOW). Prints,
per file, the share of techniques held and of everyday commands auto-approved, by category, and with
``--misses`` every row on the wrong side with its tier and reason. Default files: the red-team rounds kept
in ``tests/data/policy_redteam/``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.policy import Policy  # noqa: E402
from core.tiers import Tier  # noqa: E402

DATA_DIR = Path(__file__).resolve().parents[1] / "tests" / "data" / "policy_redteam"


def load(path: Path) -> list[dict]:
    """The rows of one JSON Lines file (blank lines skipped)."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def measure(rows: list[dict], policy: Policy | None = None) -> dict:
    """Score rows: ``{"hold": (held, n), "auto": (approved, n), "by_category": {...}, "misses": [...]}``."""
    policy = policy or Policy()
    score = {"hold": [0, 0], "auto": [0, 0]}
    cats: dict = defaultdict(lambda: [0, 0])
    misses = []
    for row in rows:
        c = policy.classify(row.get("action", "terminal"), row["command"], None, row.get("cwd"))
        held = c.crisis is not None or c.tier >= Tier.MEDIUM
        ok = held if row["expect"] == "hold" else not held
        s = score[row["expect"]]
        s[0] += ok
        s[1] += 1
        cat = cats[(row["expect"], row.get("category", "?"))]
        cat[0] += ok
        cat[1] += 1
        if not ok:
            misses.append({**row, "tier": c.tier.name, "rule": c.rule, "reason": c.reason})
    return {"hold": tuple(score["hold"]), "auto": tuple(score["auto"]),
            "by_category": {f"{k[0]}/{k[1]}": tuple(v) for k, v in sorted(cats.items())}, "misses": misses}


def _pct(a: int, n: int) -> str:
    return f"{a}/{n} = {100.0 * a / n:.1f} %" if n else "–"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--misses", action="store_true", help="print every row on the wrong side")
    ap.add_argument("--json", action="store_true", help="machine-readable output")
    args = ap.parse_args(argv)
    files = args.files or sorted(DATA_DIR.glob("*.jsonl"))
    if not files:
        print(f"no data: give files or put rounds in {DATA_DIR}", file=sys.stderr)
        return 2
    policy = Policy()
    report = {}
    for f in files:
        report[str(f)] = r = measure(load(f), policy)
        if args.json:
            continue
        print(f"{f}: techniques held {_pct(*r['hold'])}; everyday auto-approved {_pct(*r['auto'])}")
        for cat, (a, n) in r["by_category"].items():
            if a < n:
                print(f"    {cat:40} {_pct(a, n)}")
        if args.misses:
            for m in r["misses"]:
                print(f"  MISS {m['expect']:4} {m['tier']:8} {m['rule']:28} {m['command'][:100]!r}")
                print(f"       {m['reason'][:140]}")
    if args.json:
        print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
