"""Thresholds on validation, figures for every combination on val + held-out. Usage: evaluate.py SCORES.json [tag]"""
import json
import sys
from collections import defaultdict

import numpy as np
from sklearn.metrics import roc_auc_score

scores_path = sys.argv[1]; tag = sys.argv[2] if len(sys.argv) > 2 else "torch"
thr_from = sys.argv[3] if len(sys.argv) > 3 else None  # reuse thresholds from a results file
D = json.load(open("/work/exp_transformer/data.json")); S = json.load(open(scores_path))["scores"]
sets = {"val": [r for r in D["train_rows"] if r["split"] == "val"], **D["heldout"]}

def choose(scores, rows, budget):  # as core.crisis.train.choose_threshold, pool = non-command rows
    pool = [r["y"] == 0 and r["category"] != "command" for r in rows]
    neg = sorted((s for s, r, p in zip(scores, rows, pool) if p and not r["tables"]), reverse=True)
    allowed = int(budget * sum(pool))
    return min(scores) if allowed >= len(neg) else neg[allowed] + 1e-6

if thr_from:
    th = json.load(open(thr_from))["thresholds"]
else:
    th = {"1%": choose(S["val"], sets["val"], 0.01), "2%": choose(S["val"], sets["val"], 0.02)}
def combos(rows, sc):
    t = np.array([r["tables"] for r in rows]); sh = np.array([r["shipped"] for r in rows]); s = np.array(sc)
    return {"tables": t, "tables|tfidf (shipped)": sh,
            "tables|trf@1%": t | (s >= th["1%"]), "tables|trf@2%": t | (s >= th["2%"]),
            "tables|tfidf|trf@1%": sh | (s >= th["1%"]), "tables|tfidf|trf@2%": sh | (s >= th["2%"]),
            "trf@1% alone": s >= th["1%"]}
BEST = "tables|tfidf|trf@1%"  # declared before looking at held-out figures
res = {"tag": tag, "thresholds": th, "best_combination": BEST, "sets": {}}
for name, rows in sets.items():
    y = np.array([r["y"] for r in rows]); sc = S[name]
    nc = np.array([r["category"] != "command" for r in rows])
    out = {"n_crisis": int(y.sum()), "n_not": int((y == 0).sum()), "n_not_noncommand": int(((y == 0) & nc).sum()),
           "trf_auc": round(float(roc_auc_score(y, sc)), 4), "combos": {}}
    cs = combos(rows, sc)
    for k, a in cs.items():
        out["combos"][k] = {"recall": round(float(a[y == 1].mean()), 4),
                            "false_alarm": round(float(a[(y == 0) & nc].mean()), 4)}
    percat = defaultdict(lambda: defaultdict(list))
    for i, r in enumerate(rows):
        if r["y"] == 1:
            for k in ("tables|tfidf (shipped)", "tables|trf@1%", BEST):
                percat[r["category"]][k].append(bool(cs[k][i]))
    out["recall_per_category"] = {c: {"n": len(v[BEST]), **{k: round(float(np.mean(x)), 3) for k, x in v.items()}}
                                  for c, v in sorted(percat.items())}
    if name != "val" and tag == "torch":
        a = cs[BEST]
        with open(f"/work/exp_transformer/misses_{name}.jsonl", "w") as f:
            pass
        res.setdefault("_miss", []).extend({"set": name, "text": r["text"], "category": r["category"],
                                            "trf_prob": round(sc[i], 4), "tables": r["tables"]}
                                           for i, r in enumerate(rows) if r["y"] == 1 and not a[i])
        res.setdefault("_fa", []).extend({"set": name, "text": r["text"], "category": r["category"],
                                          "trf_prob": round(sc[i], 4), "tables": r["tables"], "shipped": r["shipped"]}
                                         for i, r in enumerate(rows) if r["y"] == 0 and a[i])
    res["sets"][name] = out
if tag == "torch":
    import os
    for n in ("sealed_round_b", "round6_fresh"):
        os.remove(f"/work/exp_transformer/misses_{n}.jsonl")
    with open("/work/exp_transformer/misses.jsonl", "w") as f:
        for m in res.pop("_miss"): f.write(json.dumps(m, ensure_ascii=False) + "\n")
    with open("/work/exp_transformer/false_alarms.jsonl", "w") as f:
        for m in res.pop("_fa"): f.write(json.dumps(m, ensure_ascii=False) + "\n")
json.dump(res, open(f"/work/exp_transformer/eval_{tag}.json", "w"), indent=1, ensure_ascii=False)
print("thresholds", th)
for name, o in res["sets"].items():
    print(f"== {name}: crisis {o['n_crisis']} not {o['n_not']} (non-command {o['n_not_noncommand']}) trf AUC {o['trf_auc']}")
    for k, v in o["combos"].items():
        print(f"  {k:26s} recall {v['recall']:.3f}  FA {v['false_alarm']:.3f}")
