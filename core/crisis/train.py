"""Train the crisis model from the labelled data in the repository, reproducibly.

Usage (from the repository root, with scikit-learn: ``pip install -e '.[train]'``)::

    python -m core.crisis.train            # cross-validate, choose thresholds, write core/crisis/data/
    python -m core.crisis.train --check    # cross-validate and print the figures only

What it does:

1. reads every labelled row of ``tests/data/crisis/`` (the corpus), ``tests/data/crisis_fresh.jsonl``,
   ``tests/data/crisis_dev.jsonl`` and the commands of the policy's tests (not-crisis), each with a *group*
   (its source and round: rows one writer wrote in one sitting share one);
2. cross-validates by group (``GroupKFold``: a group is never split between training and test) and keeps
   every row's out-of-fold score;
3. chooses the alert threshold: the lowest score at which the model adds alerts to at most ``--budget`` (1 %)
   of the not-crisis messages and requests out-of-fold, beyond those the tables raise; and the grey zone's
   lower edge the same way at ``--concern-budget`` (3 %); a row scores as the detector scores it, the
   highest of its pieces (all its fields together, each field alone);
4. fits the model on all rows and writes it with the thresholds, the data version (SHA-256 of the rows read)
   and the out-of-fold figures per file and category.

``shared/eval/`` and ``tests/data/crisis_holdout/`` are never read here: they stay held-out measures
(``bench/crisis.py``).
Same data, same code, same scikit-learn: the same artifact (fixed seeds; liblinear is deterministic).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import TYPE_CHECKING

from core.crisis import _model as M

if TYPE_CHECKING:
    import numpy as np

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
SEED = 12
C = 32.0
FOLDS = 5
#: share of not-crisis messages the model may add alerts to, out-of-fold (the tables' own come on top)
BUDGET = 0.01
CONCERN_BUDGET = 0.03


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def reading(row: dict) -> tuple[bool, list[str]]:
    """``(the tables alert, the folded fields the model reads)`` for one row: a message's text, or an agent
    request's command and description, without what the tables cleared (see
    :func:`core.crisis._detect.model_reading`)."""
    from core.crisis._detect import model_reading

    if "text" in row:
        return model_reading((row["text"],))
    return model_reading((row.get("command"), row.get("description")), row.get("action"), request=True)


def labelled_rows() -> list[dict]:
    """Every training row as ``{"parts" (its folded fields, as the model reads them), "tables" (whether the
    tables alert), "raw", "y" (1 crisis, 0 not), "group", "file", "category", "request"}`` (``raw``: a message's text;
    ``request``: the action, command and description of an agent request, else None). Ambiguous rows are
    left out."""
    out: list[dict] = []

    def add(row: dict, group: str, file: str, category: str) -> None:
        if row.get("label") not in ("crisis", "not_crisis"):
            return
        req = None
        if "text" not in row:
            req = (row.get("action"), row.get("command"), row.get("description"))
        tables, parts = reading(row)
        out.append({"parts": parts, "tables": tables, "raw": row.get("text"), "y": int(row["label"] == "crisis"),
                    "group": group, "file": file, "category": category, "request": req})

    for path in sorted((DATA / "crisis").glob("*.jsonl")):
        for row in _rows(path):
            add(row, f"{row['source']}:{row['round']}", path.name, row["category"])
    for row in _rows(DATA / "crisis_fresh.jsonl"):
        add(row, f"fresh:{row.get('round')}", "crisis_fresh.jsonl", row.get("group", ""))
    for row in _rows(DATA / "crisis_dev.jsonl"):
        add(row, "dev", "crisis_dev.jsonl", row.get("group", ""))
    commands = []
    for path in [DATA / "programs_examples.jsonl", *sorted((DATA / "policy_redteam").glob("*.jsonl"))]:
        commands += [(path.name, r["command"]) for r in _rows(path)]
    for command, name in dict((c, n) for n, c in commands).items():  # (each command once)
        row = {"action": "terminal", "command": command, "description": None}
        tables, parts = reading(row)
        out.append({"parts": parts, "tables": tables, "raw": None, "y": 0, "group": f"commands:{name}",
                    "file": name, "category": "command", "request": ("terminal", command, None)})
    return out


def data_version(rows: list[dict]) -> str:
    """SHA-256 (first 16 hex digits) of the rows as written (texts, requests, labels, groups), in order."""
    h = hashlib.sha256()
    for r in rows:
        h.update(json.dumps([r["raw"], r["request"], r["y"], r["group"]], ensure_ascii=False).encode("utf-8"))
    return h.hexdigest()[:16]


def whole_rows(rows: list[dict]):
    """The count matrix of the rows read whole (their fields joined)."""
    return matrix([" ".join(r["parts"]) for r in rows])


def matrix(folded: list[str]):
    """The count matrix (scipy CSR, ``len(folded)`` × ``2**BITS``) of folded texts, through the reference
    featuriser (the long texts of training are read whole)."""
    import numpy as np
    from scipy.sparse import csr_matrix

    indptr, indices, data = [0], [], []
    for t in folded:
        counts = M.feature_counts(t)
        indices.extend(counts.keys())
        data.extend(counts.values())
        indptr.append(len(indices))
    return csr_matrix((np.asarray(data, dtype=np.float64), np.asarray(indices, dtype=np.int64),
                       np.asarray(indptr, dtype=np.int64)), shape=(len(folded), 1 << M.BITS))


def idf(x) -> np.ndarray:
    """Smooth IDF of each bucket (``ln((1 + n) / (1 + df)) + 1``, as scikit-learn's ``TfidfTransformer``)."""
    import numpy as np

    df = np.bincount(x.indices, minlength=x.shape[1])
    return np.log((1 + x.shape[0]) / (1 + df)) + 1.0


def weigh(x, idf_, floor: float = M.NORM_FLOOR):
    """Rows of counts → TF-IDF rows with raw counts, divided by their L2 norm or ``floor`` if it is larger
    (what the scorers compute)."""
    import numpy as np
    from scipy.sparse import diags

    norm = np.maximum(np.sqrt(np.asarray(x @ (idf_ ** 2)).ravel()), floor)
    return diags(1.0 / norm) @ x @ diags(idf_)


def fit(x, y, c: float = C):
    """``(idf, LogisticRegression)`` fitted on counts ``x`` and labels ``y``."""
    from sklearn.linear_model import LogisticRegression

    idf_ = idf(x)
    lr = LogisticRegression(C=c, class_weight="balanced", solver="liblinear", max_iter=5000, random_state=SEED)
    return idf_, lr.fit(weigh(x, idf_), y)


def training_set(rows: list[dict], x):
    """``(rows' owner index, counts, labels)`` to fit on: every row whole, and the pieces of every not-crisis row
    as not-crisis rows of their own (a sentence of an ordinary message is ordinary; a sentence of a crisis
    message need not be a crisis, so those are not added)."""
    import numpy as np
    from scipy.sparse import vstack

    extra = [(i, p) for i, r in enumerate(rows) if r["y"] == 0
             for p in M.pieces(r["parts"])[1:]]  # (the first piece is the whole row)
    owner = np.array(list(range(len(rows))) + [i for i, _ in extra])
    xs = vstack([x, matrix([p for _, p in extra])]).tocsr() if extra else x
    y = np.array([r["y"] for r in rows] + [0] * len(extra))
    return owner, xs, y


def out_of_fold(rows: list[dict], x, c: float = C) -> list[float]:
    """Every row's score from a model that did not see its group (``FOLDS``-fold ``GroupKFold``): the highest
    score of the row's pieces (:func:`core.crisis._model.pieces`), as the detector scores a text. The model is
    fitted on :func:`training_set`."""
    import numpy as np
    from sklearn.model_selection import GroupKFold

    y = np.array([r["y"] for r in rows])
    groups = np.array([r["group"] for r in rows])
    piece_rows = [M.pieces(r["parts"]) or [""] for r in rows]
    owner = np.array([i for i, ps in enumerate(piece_rows) for _ in ps])
    xp = matrix([p for ps in piece_rows for p in ps])
    t_owner, xt, yt = training_set(rows, x)
    oof = np.full(len(rows), -np.inf)
    for train, test in GroupKFold(n_splits=FOLDS).split(x, y, groups):
        keep = np.isin(t_owner, train)
        idf_, lr = fit(xt[keep], yt[keep], c)
        sel = np.isin(owner, test)
        np.maximum.at(oof, owner[sel], lr.decision_function(weigh(xp[sel], idf_)))
    return oof.tolist()


def choose_threshold(scores: list[float], tables: list[bool], ys: list[int], pool: list[bool],
                     budget: float) -> float:
    """The lowest score threshold at which the model adds alerts (beyond the tables') to at most ``budget`` of
    the not-crisis rows of ``pool`` (messages and requests; the policy's commands and the everyday developer
    commands, which never come close, are left out so they do not dilute the budget)."""
    neg = sorted((s for s, t, y, p in zip(scores, tables, ys, pool, strict=True) if y == 0 and p and not t),
                 reverse=True)
    allowed = int(budget * sum(1 for y, p in zip(ys, pool, strict=True) if y == 0 and p))
    if allowed >= len(neg):
        return min(scores)
    return neg[allowed] + 1e-6  # just above the first not-crisis score past the budget


def figures(rows: list[dict], scores: list[float], tables: list[bool], alert: float, concern: float) -> dict:
    """Recall (crisis) or false alarms (not crisis) of the tables, the model and both, per file and category,
    with the share in the grey zone."""
    by: dict[tuple[str, str], list] = defaultdict(list)
    for r, s, t in zip(rows, scores, tables, strict=True):
        key = "commands" if r["category"] == "command" else f"{r['file']}[{'crisis' if r['y'] else 'not'}]"
        by[(key, "")].append((r["y"], t, s))
        if r["category"] != "command":
            by[(key, r["category"])].append((r["y"], t, s))
        by[("all", "crisis" if r["y"] else "not_crisis")].append((r["y"], t, s))
    out: dict[str, dict] = {}
    for (file, cat), items in sorted(by.items()):
        n = len(items)
        label = "crisis" if items[0][0] else "not_crisis"
        out[f"{file}/{cat}" if cat else file] = {
            "rows": n, "label": label,
            "tables": round(sum(t for _, t, _ in items) / n, 4),
            "model": round(sum(s >= alert for _, _, s in items) / n, 4),
            "union": round(sum(t or s >= alert for _, t, s in items) / n, 4),
            "grey": round(sum((not t) and concern <= s < alert for _, t, s in items) / n, 4),
        }
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="cross-validate and print, write nothing")
    ap.add_argument("--budget", type=float, default=BUDGET,
                    help=f"false alarms the model may add to the tables' ({BUDGET})")
    ap.add_argument("--concern-budget", type=float, default=CONCERN_BUDGET,
                    help=f"false alarms the model may add with its grey zone included ({CONCERN_BUDGET})")
    ap.add_argument("--c", type=float, default=C, help=f"inverse regularisation of the regression ({C})")
    args = ap.parse_args(argv)
    try:
        import sklearn
    except ImportError:
        print("training needs scikit-learn: pip install -e '.[train]'", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    rows = labelled_rows()
    ys = [r["y"] for r in rows]
    x = whole_rows(rows)
    tables = [r["tables"] for r in rows]
    oof = out_of_fold(rows, x, args.c)
    pool = [r["category"] != "command" and "everyday" not in r["group"] for r in rows]
    alert = choose_threshold(oof, tables, ys, pool, args.budget)
    concern = min(alert, choose_threshold(oof, tables, ys, pool, args.concern_budget))
    figs = figures(rows, oof, tables, alert, concern)
    for name, f in figs.items():
        what = "recall" if f["label"] == "crisis" else "false alarms"
        print(f"{name:58s} {f['rows']:5d}  {what:12s} tables {f['tables']:.3f}  model {f['model']:.3f}  "
              f"both {f['union']:.3f}  grey {f['grey']:.3f}")
    print(f"alert threshold {alert:.4f}, grey zone from {concern:.4f}; {len(rows)} rows, "
          f"{time.perf_counter() - t0:.0f} s")
    if args.check:
        return 0

    _, xt, yt = training_set(rows, x)
    idf_, lr = fit(xt, yt, args.c)
    meta = {
        "features_version": M.FEATURES_VERSION, "bits": M.BITS, "data_version": data_version(rows),
        "rows": len(rows), "crisis_rows": sum(ys), "seed": SEED, "c": args.c, "folds": FOLDS,
        "sklearn": sklearn.__version__, "budget": args.budget, "concern_budget": args.concern_budget,
        "intercept": float(lr.intercept_[0]),
        "threshold_alert": alert, "threshold_concern": concern, "out_of_fold": figs,
    }
    M.save(meta, idf_.tolist(), lr.coef_[0].tolist())
    print(f"wrote {M.MODEL_JSON.relative_to(ROOT)} and {M.MODEL_BIN.relative_to(ROOT)} "
          f"({M.MODEL_BIN.stat().st_size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
