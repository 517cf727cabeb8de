"""Crisis detector benchmark: accuracy on the labelled public set and throughput.

Usage: ``python bench/crisis.py [path/to/crisis.jsonl] [--quiet]``

Prints recall on ``crisis`` rows, the false-alarm rate on ``not_crisis`` rows, the alert rate on
``ambiguous`` rows (reported separately: an alert there is acceptable), every miss and false alarm, then
messages per second on ~200-character messages and the time for 32 KiB hostile inputs.
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.crisis import detect_crisis  # noqa: E402

DEFAULT_DATA = Path("/work/shared/eval/crisis_public.jsonl")
COMMANDS = Path("/work/shared/eval/commands_public.jsonl")


def load(path: Path) -> list[dict]:
    """Rows of a JSONL file."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def accuracy(rows: list[dict], quiet: bool = False) -> dict[str, float]:
    """Recall, false-alarm rate and ambiguous alert rate; prints misses and false alarms."""
    by: dict[str, list[tuple[dict, object]]] = {"crisis": [], "not_crisis": [], "ambiguous": []}
    for row in rows:
        by.setdefault(row["label"], []).append((row, detect_crisis(row["text"])))
    crisis, benign, amb = by["crisis"], by["not_crisis"], by["ambiguous"]
    recall = sum(m is not None for _, m in crisis) / max(1, len(crisis))
    far = sum(m is not None for _, m in benign) / max(1, len(benign))
    amb_rate = sum(m is not None for _, m in amb) / max(1, len(amb))
    print(f"crisis rows      {len(crisis):4d}  recall            {recall:.3f}")
    print(f"not_crisis rows  {len(benign):4d}  false-alarm rate  {far:.3f}")
    print(f"ambiguous rows   {len(amb):4d}  alert rate        {amb_rate:.3f}")
    if not quiet:
        for row, m in crisis:
            if m is None:
                print(f"  MISS  [{row.get('kind')}] {row['text']}")
        for row, m in benign:
            if m is not None:
                print(f"  FALSE [{row.get('kind')}] {row['text']}  -> {m}")
        for row, m in amb:
            print(f"  AMB   {'alert' if m else 'none '} [{row.get('kind')}] {row['text']}" + (f"  -> {m}" if m else ""))
    return {"recall": recall, "false_alarm_rate": far, "ambiguous_alert_rate": amb_rate}


def _messages(rows: list[dict], n: int = 2000) -> list[str]:
    rng = random.Random(7)
    texts = [r["text"] for r in rows]
    out = []
    for _ in range(n):
        parts: list[str] = []
        while sum(len(p) + 1 for p in parts) < 200:
            parts.append(rng.choice(texts))
        out.append(" ".join(parts)[:200])
    return out


def _rate(msgs: list[str]) -> float:
    for m in msgs[:200]:
        detect_crisis(m)
    best = 0.0
    for _ in range(3):
        t0 = time.perf_counter()
        for m in msgs:
            detect_crisis(m)
        best = max(best, len(msgs) / (time.perf_counter() - t0))
    return best


def throughput(rows: list[dict]) -> float:
    """Messages per second on ~200-character messages (one core), for several mixes."""
    mixed = _rate(_messages(rows))
    print(f"throughput       {mixed:,.0f} messages/s  (~200 chars, all public rows mixed: ~45% crisis)")
    benign = _rate(_messages([r for r in rows if r["label"] == "not_crisis"]))
    print(f"throughput       {benign:,.0f} messages/s  (~200 chars, not_crisis rows: dev traps only)")
    if COMMANDS.exists():
        cmd = [json.loads(line) for line in COMMANDS.read_text(encoding="utf-8").splitlines() if line.strip()]
        texts = [{"text": f"{r.get('action', '')} {r.get('command') or ''}"} for r in cmd]
        print(f"throughput       {_rate(_messages(texts)):,.0f} messages/s  (~200 chars, agent requests)")
    short = "Approve tool call: kill_process(pid=9917, signal='SIGKILL')"
    t0 = time.perf_counter()
    for _ in range(5000):
        detect_crisis(short)
    per_short = (time.perf_counter() - t0) / 5000 * 1e6
    print(f"short request    {per_short:.1f} µs")
    return mixed


def hostile() -> None:
    """Time for 32 KiB inputs built to be slow."""
    n = 32 * 1024
    cases = {
        "single letters": ("a " * n)[:n],
        "spaced crisis letters": ("k i l l m y s e l f " * n)[:n],
        "repeated phrase": ("i want to kill myself " * n)[:n],
        "want to want to": ("want to " * n)[:n],
        "long word": "a" * n,
        "asterisks": ("s**c*de " * n)[:n],
        "emoji": ("🔫💊😂" * n)[: n // 2],
        "zalgo": ("k\u0337i\u0337l\u0337l\u0337 " * n)[:n],
        "random words": " ".join(
            "".join(random.Random(i).choice("abcdefghijklmnopqrstuvwxyz") for _ in range(6)) for i in range(n // 7)
        )[:n],
        "punctuation": ("!?.;," * n)[:n],
        "leet": ("k1ll m3 5u1c1d3 " * n)[:n],
    }
    for name, text in cases.items():
        t0 = time.perf_counter()
        detect_crisis(text)
        ms = (time.perf_counter() - t0) * 1000
        print(f"hostile 32 KiB   {name:22s} {ms:7.2f} ms")


def main(argv: list[str]) -> None:
    """Run the benchmark."""
    quiet = "--quiet" in argv
    args = [a for a in argv if not a.startswith("--")]
    rows = load(Path(args[0]) if args else DEFAULT_DATA)
    accuracy(rows, quiet)
    throughput(rows)
    hostile()


if __name__ == "__main__":
    main(sys.argv[1:])
