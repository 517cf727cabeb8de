"""Crisis detector benchmark: accuracy on the labelled public set and throughput.

Usage: ``python bench/crisis.py [path/to/crisis.jsonl] [--quiet] [--corpus] [--no-deep]``

Prints recall on ``crisis`` rows, the false-alarm rate on ``not_crisis`` rows, the alert rate on
``ambiguous`` rows (reported separately: an alert there is acceptable), every miss and false alarm, recall and
false alarms on fresh red-team messages (``tests/data/crisis_fresh.jsonl``) and on the corpus
(``tests/data/crisis/``, per file and category; the model was trained on both, so these are in-sample), the
model's out-of-fold figures as its training run recorded them (the honest measure), then messages per second
on ~200-character messages and the time for 32 KiB hostile inputs.

Every figure is for the verdict the product gives (the tables OR the TF-IDF model OR the deep reader, as the
daemon reads them), with the fast verdict (no deep reader) and the tables alone beside it;
``grey`` counts rows in the model's grey zone (a check-in and a quiet note, or a request held for a person).
A file given as the argument may hold messages (``text``) or agent requests (``action``, ``command``,
``description``).
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.crisis import (
    _deep,  # noqa: E402
    _model,  # noqa: E402
    detect_crisis,  # noqa: E402
)
from core.crisis._detect import (  # noqa: E402
    assess_crisis,
    assess_crisis_request,
    tables_match,
    tables_match_request,
)
from core.policy import Policy  # noqa: E402

#: The labelled data of shared/eval, beside the repository (CI lays shared/ next to its clone).
EVAL_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "eval"
DEFAULT_DATA = EVAL_DIR / "crisis_public.jsonl"
COMMANDS = EVAL_DIR / "commands_public.jsonl"


def load(path: Path) -> list[dict]:
    """Rows of a JSONL file."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def accuracy(rows: list[dict], quiet: bool = False) -> dict[str, float]:
    """Recall, false-alarm rate and ambiguous alert rate; prints misses and false alarms."""
    by: dict[str, list[tuple[dict, object]]] = {"crisis": [], "not_crisis": [], "ambiguous": []}
    for row in rows:
        by.setdefault(row["label"], []).append((row, _assess(row).match))
    for row in rows:
        row.setdefault("text", f"{row.get('action')}: {row.get('command') or ''} {row.get('description') or ''}")
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
    """Time for 32 KiB inputs built to be slow (best of 5; the request budget is 10 ms, classifier included)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from classify import crisis_shapes  # the shapes shared with bench/classify.py

    worst = ("", 0.0)
    for name, text in crisis_shapes().items():
        best = float("inf")
        for _ in range(5):
            t0 = time.perf_counter()
            detect_crisis(text)
            best = min(best, time.perf_counter() - t0)
        ms = best * 1000
        worst = max(worst, (name, ms), key=lambda x: x[1])
        print(f"hostile 32 KiB   {name:22s} {ms:7.2f} ms")
    print(f"worst hostile    {worst[0]} {worst[1]:.2f} ms" + ("   !!! FAIL: over 10 ms" if worst[1] > 10 else ""))


#: Messages written after the tables by five red-team rounds, all since used to extend them: recall on a round
#: before it was used was 64%, 45%, 71%, 45% and 71%.
FRESH = Path(__file__).resolve().parents[1] / "tests" / "data" / "crisis_fresh.jsonl"


#: ``--no-deep``: the fast verdict alone (tables OR TF-IDF model), as with ``crisis.deep_reader: false``
DEEP = "--no-deep" not in sys.argv
_POLICY = Policy()


def _fast(row: dict):
    if "text" in row:
        return assess_crisis(row["text"])
    return assess_crisis_request(row.get("action"), row.get("command"), row.get("description"))


def _assess(row: dict):
    """The daemon's verdict on a row: the fast one, with the deep reader's added where the daemon reads it (every
    message; a request with prose in it, ``Policy.prose_of``)."""
    fast = _fast(row)
    if not DEEP or fast.match is not None:
        return fast
    text = row["text"] if "text" in row else _POLICY.prose_of(row.get("action"), row.get("command"),
                                                              row.get("description"))
    if not text:
        return fast
    reader = _deep.reader()
    try:
        return _deep.deepen(fast, reader.verdict(reader.score(text)))
    except RuntimeError:
        return fast


def _tables(row: dict) -> bool:
    if "text" in row:
        return tables_match(row["text"]) is not None
    return tables_match_request(row.get("action"), row.get("command"), row.get("description")) is not None


def _line(name: str, rows: list[dict]) -> str:
    """``name  recall|false alarms  both (tables alone)  grey`` for rows of one label."""
    n = max(1, len(rows))
    verdicts = [_assess(r) for r in rows]
    both = sum(v.match is not None for v in verdicts)
    fast = sum(_fast(r).match is not None for r in rows)
    tables = sum(_tables(r) for r in rows)
    grey = sum(v.concern for v in verdicts)
    what = "recall      " if rows and rows[0]["label"] == "crisis" else "false alarms"
    return (f"{name:44s} {len(rows):5d}  {what} {both / n:.3f}  (fast alone {fast / n:.3f}, tables alone "
            f"{tables / n:.3f})  grey {grey / n:.3f}")


def fresh() -> None:
    """Recall and false alarms on the fresh red-team messages, per round (in-sample: the model trained on
    them, and each round was used to extend the tables)."""
    if not FRESH.exists():
        return
    rows = load(FRESH)
    for rnd in sorted({r["round"] for r in rows}):
        for label in ("crisis", "not_crisis"):
            print(_line(f"fresh round {rnd} {label}", [r for r in rows if r["round"] == rnd and r["label"] == label]))


#: rounds measured once when written and never trained on (tests/data/crisis_holdout/README.md)
HOLDOUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "crisis_holdout"


def holdout() -> None:
    """Recall and false alarms on the held-out rounds (never trained on)."""
    for path in sorted(HOLDOUT.glob("*.jsonl")) if HOLDOUT.is_dir() else ():
        rows = load(path)
        for label in ("crisis", "not_crisis"):
            print(_line(f"held out {path.stem} {label}", [r for r in rows if r["label"] == label]))


def out_of_fold() -> None:
    """The model's out-of-fold figures, as its training run recorded them (``python -m core.crisis.train``):
    every row scored by a model that never saw its writer's round (grouped 5-fold cross-validation)."""
    meta = _model.model().meta
    print(f"model: data {meta['data_version']}, {meta['rows']:,} rows ({meta['crisis_rows']:,} crisis), "
          f"alert at {meta['threshold_alert']:.2f}, grey zone from {meta['threshold_concern']:.2f}")
    for name, f in meta["out_of_fold"].items():
        if "/" in name and not name.startswith("all/"):
            continue
        what = "recall      " if f["label"] == "crisis" else "false alarms"
        print(f"out-of-fold {name:44s} {f['rows']:5d}  {what} {f['union']:.3f}  (tables alone {f['tables']:.3f})"
              f"  grey {f['grey']:.3f}")


#: The labelled corpus (issue 12): crisis messages across the C-SSRS categories, crisis text inside agent
#: requests, and hard negatives, written in rounds by helpers who had not seen the tables. Round 1 measured
#: before it was used: recall 0.427 (first person), 0.391 (embedded and agent requests), 2.3 % false alarms;
#: round 2: recall 0.309 (posts), 0.352 (agent request pairs), 6.9 % and 3.2 % false alarms (docs/crisis.md).
CORPUS = Path(__file__).resolve().parents[1] / "tests" / "data" / "crisis"


def corpus() -> None:
    """Recall or false alarms on each file of the corpus, and per category (in-sample: the model trained on
    these rows; the out-of-fold figures are the measure)."""
    for path in sorted(CORPUS.glob("*.jsonl")) if CORPUS.is_dir() else ():
        rows = load(path)
        print(_line(f"corpus {path.name}", rows))
        for cat in sorted({r["category"] for r in rows}):
            print("    " + _line(cat, [r for r in rows if r["category"] == cat]))


def main(argv: list[str]) -> None:
    """Run the benchmark."""
    quiet = "--quiet" in argv
    args = [a for a in argv if not a.startswith("--")]
    path = Path(args[0]) if args else DEFAULT_DATA
    if not path.exists():
        sys.exit(f"bench/crisis.py: labelled data {path} not found (shared/eval beside the repository, or give a path)")
    rows = load(path)
    accuracy(rows, quiet)
    fresh()
    if "--corpus" in argv:
        corpus()
    holdout()
    out_of_fold()
    throughput(rows)
    hostile()


if __name__ == "__main__":
    main(sys.argv[1:])
