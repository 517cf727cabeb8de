"""Build data.json: training rows (text, y, tables, group, category, file, split) + held-out rows with
tables and shipped TF-IDF verdicts. Reads /work/main read-only."""
import json
import os
import sys
import time

sys.path.insert(0, "/work/main"); os.chdir("/work/main")
import numpy as np
from sklearn.model_selection import GroupShuffleSplit

from core.crisis._detect import assess_crisis, assess_crisis_request
from core.crisis.train import labelled_rows, reading


def req_text(a, c, d):
    s = f"{a}: {c}"
    if d: s += " — " + str(d)
    return s

t0 = time.time()
rows = labelled_rows()
print("rows", len(rows), time.time() - t0)
out_rows = []
for r in rows:
    text = r["raw"] if r["request"] is None else req_text(*r["request"])
    if r["request"] is None:
        a = assess_crisis(r["raw"])
    else:
        a = assess_crisis_request(*r["request"])
    out_rows.append({"text": str(text), "y": r["y"], "tables": bool(r["tables"]), "group": r["group"],
                     "category": r["category"], "file": r["file"],
                     "shipped": a.match is not None, "tfidf_score": a.score})
y = np.array([r["y"] for r in out_rows]); g = np.array([r["group"] for r in out_rows])
for rs in (12, 13, 14):
    tr, va = next(GroupShuffleSplit(n_splits=1, test_size=0.2, random_state=rs).split(y, y, g))
    vpos = int(y[va].sum()); vneg = len(va) - vpos
    vneg_nc = sum(1 for i in va if out_rows[i]["y"] == 0 and out_rows[i]["category"] != "command")
    print("rs", rs, "train", len(tr), "val", len(va), "val pos", vpos, "val neg", vneg, "val neg non-cmd", vneg_nc,
          "train pos", int(y[tr].sum()))
    if min(vpos, vneg_nc) >= 500 and 0.15 < vpos / len(va) < 0.7:
        break
for i in tr: out_rows[i]["split"] = "train"
for i in va: out_rows[i]["split"] = "val"
print("chosen random_state", rs)

held = {}
for name in ("sealed_round_b", "round6_fresh"):
    lst = []
    for line in open(f"/work/main/tests/data/crisis_holdout/{name}.jsonl", encoding="utf-8"):
        if not line.strip(): continue
        row = json.loads(line)
        if row.get("label") not in ("crisis", "not_crisis"): continue
        tab = reading(row)[0]
        if "text" in row:
            text = row["text"]; a = assess_crisis(row["text"])
        else:
            text = req_text(row.get("action"), row.get("command"), row.get("description"))
            a = assess_crisis_request(row.get("action"), row.get("command"), row.get("description"))
        lst.append({"text": str(text), "y": int(row["label"] == "crisis"), "tables": bool(tab),
                    "category": row.get("category", ""), "shipped": a.match is not None, "tfidf_score": a.score,
                    "is_request": "text" not in row})
    held[name] = lst
    yy = np.array([r["y"] for r in lst]); tb = np.array([r["tables"] for r in lst]); sh = np.array([r["shipped"] for r in lst])
    print(name, "n", len(lst), "pos", yy.sum(), "neg", (1 - yy).sum(),
          "tables rec %.3f fa %.3f" % (tb[yy == 1].mean(), tb[yy == 0].mean()),
          "shipped rec %.3f fa %.3f" % (sh[yy == 1].mean(), sh[yy == 0].mean()))
json.dump({"split_random_state": rs, "train_rows": out_rows, "heldout": held},
          open("/work/exp_transformer/data.json", "w"), ensure_ascii=False)
print("done", time.time() - t0)
