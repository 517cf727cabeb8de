"""Benchmark and accuracy report for the risk classifier (core.policy).

Usage: python bench/classify.py [--data PATH] [--json] [--seconds N]

Prints exact-tier accuracy on the labelled commands, the confusion matrix, the misses, crisis rows
(scored separately: they depend on the crisis detector), classifications per second on one core
over the data, and the slowest 32 KiB hostile input.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.policy import Policy  # noqa: E402, I001
from core.tiers import Tier  # noqa: E402

DEFAULT_DATA = Path(os.environ.get("SIGNOFF_EVAL", "/work/shared/eval/commands_public.jsonl"))
TIERS = ["SAFE", "LOW", "MEDIUM", "HIGH", "CRITICAL"]


def hostile_inputs(size: int = 32 * 1024) -> dict[str, str]:
    """Long inputs shaped to hurt parsers (pipes, nesting, heredocs, quotes, backslashes)."""
    rnd = random.Random(7)
    heredoc = "cat <<EOF\n" + ("line of text $(x) `y`\n" * (size // 22)) + "EOF\n"
    return {
        "a|": ("a|" * (size // 2)),
        "a | ": ("a | " * (size // 4)),
        "$(((((": "$(" + "(" * (size - 2),
        "$($($(": "$(" * (size // 2),
        "((((": "(" * size,
        "{{{{": "{ " * (size // 2),
        "backticks": "`" * size,
        "backslashes": "\\" * size,
        "whitespace": " " * size,
        "newlines": "\n" * size,
        "quotes": "'" * size,
        "dquotes": '"' * size,
        "unbalanced": "echo \"$(rm -rf / '" * (size // 18),
        "heredocs": ("cat <<EOF\nx\nEOF\n" * (size // 16)),
        "long heredoc": heredoc[:size],
        "semicolons": ";" * size,
        "ampersands": "&" * size,
        "rm chain": ("rm -rf /tmp/x && " * (size // 17)),
        "for loops": ("for a in 1 2 3; do echo $a; done; " * (size // 35)),
        "vars": ("X=$X$X; " * (size // 8)),
        "words": ("word " * (size // 5)),
        "sql": "psql -c '" + ("SELECT 1; " * (size // 10)) + "'",
        "awk": "awk '" + ("print > \"f\"; " * (size // 14)) + "'",
        "random bytes": "".join(chr(rnd.randrange(1, 256)) for _ in range(size)),
        "random shell chars": "".join(rnd.choice("ab $(){}[]|&;<>'\"`\\\n#=*~/") for _ in range(size)),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    ap.add_argument("--seconds", type=float, default=2.0, help="time spent measuring throughput")
    args = ap.parse_args(argv)

    policy = Policy()
    rows = [json.loads(line) for line in args.data.read_text().splitlines() if line.strip()]
    confusion = {e: dict.fromkeys(TIERS, 0) for e in TIERS}
    misses = []
    exact = total = 0
    crisis_total = crisis_ok = 0
    crit_total = crit_ok = 0
    under = []
    for r in rows:
        res = policy.classify(r["action"], r.get("command") or None, r.get("description"), r.get("cwd"))
        if r["tier"] == "crisis":
            crisis_total += 1
            crisis_ok += res.crisis is not None
            continue
        total += 1
        got = res.tier.name
        confusion[r["tier"]][got] += 1
        if got == r["tier"]:
            exact += 1
        else:
            misses.append({"action": r["action"], "command": r.get("command", "")[:200], "expected": r["tier"],
                           "got": got, "rule": res.rule, "reason": res.reason[:200]})
        if r["tier"] == "CRITICAL":
            crit_total += 1
            crit_ok += got == "CRITICAL"
        if Tier[r["tier"]] >= Tier.HIGH and res.tier < Tier.MEDIUM:
            under.append(r)

    # throughput over the data, one core
    reqs = [(r["action"], r.get("command") or None) for r in rows]
    n = 0
    t0 = time.perf_counter()
    deadline = t0 + args.seconds
    while time.perf_counter() < deadline:
        for a, c in reqs:
            policy.classify(a, c)
        n += len(reqs)
    per_sec = n / (time.perf_counter() - t0)

    hostile = {}
    for name, text in hostile_inputs().items():
        best = float("inf")
        for _ in range(3):
            t = time.perf_counter()
            res = policy.classify("terminal", text)
            best = min(best, time.perf_counter() - t)
        hostile[name] = {"ms": round(best * 1000, 2), "tier": res.tier.name}
    worst = max(hostile.items(), key=lambda kv: kv[1]["ms"])

    report = {
        "rows": total, "exact": exact, "accuracy": round(exact / total, 4) if total else None,
        "critical_recall": f"{crit_ok}/{crit_total}", "high_or_critical_below_medium": len(under),
        "crisis": f"{crisis_ok}/{crisis_total}", "confusion": confusion, "misses": misses,
        "per_second": round(per_sec), "hostile_ms": hostile, "worst_hostile": {worst[0]: worst[1]},
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"accuracy: {exact}/{total} = {exact / total:.2%} exact tier")
    print(f"CRITICAL rows classified CRITICAL: {crit_ok}/{crit_total}; HIGH/CRITICAL rows below MEDIUM: {len(under)}")
    print(f"crisis rows with crisis set: {crisis_ok}/{crisis_total} (depends on core.crisis)")
    print("\nconfusion (rows: expected, columns: got)")
    print(" " * 10 + "".join(f"{t:>10}" for t in TIERS))
    for e in TIERS:
        print(f"{e:>10}" + "".join(f"{confusion[e][g]:>10}" for g in TIERS))
    print(f"\nmisses ({len(misses)}):")
    for m in misses:
        print(f"  {m['expected']:>8} → {m['got']:<8} {m['action']} | {m['command'][:100]!r} | {m['rule']}")
    print(f"\nspeed: {per_sec:,.0f} classifications/s (one core, public data)")
    print("hostile 32 KiB inputs (best of 3):")
    for name, v in sorted(hostile.items(), key=lambda kv: -kv[1]["ms"]):
        print(f"  {v['ms']:8.2f} ms  {v['tier']:<8} {name}")
    print(f"worst hostile: {worst[0]} {worst[1]['ms']:.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
