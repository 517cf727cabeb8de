"""Export to ONNX fp32, quantise int8, score val + held-out with both, measure latency."""
import json
import os
import sys
import time

os.environ["HF_HUB_OFFLINE"] = "1"
import numpy as np
import torch
from transformers import AutoModelForSequenceClassification, AutoTokenizer

src = sys.argv[1] if len(sys.argv) > 1 else "/work/exp_transformer/model_torch"
E = "/work/exp_transformer"
torch.set_num_threads(2)
model = AutoModelForSequenceClassification.from_pretrained(src).eval()
tok = AutoTokenizer.from_pretrained(src)
f = tok(["hello there friend", "another example text here"], padding=True, return_tensors="pt")
fp32, int8 = f"{E}/model_fp32.onnx", f"{E}/model_int8.onnx"
class Wrap(torch.nn.Module):
    def __init__(s, m): super().__init__(); s.m = m
    def forward(s, input_ids, attention_mask, token_type_ids): return s.m(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids).logits
with torch.no_grad():
    torch.onnx.export(Wrap(model), (f["input_ids"], f["attention_mask"], f["token_type_ids"]), fp32,
                      input_names=["input_ids", "attention_mask", "token_type_ids"], output_names=["logits"],
                      dynamic_axes={k: {0: "batch", 1: "seq"} for k in ("input_ids", "attention_mask", "token_type_ids")} | {"logits": {0: "batch"}},
                      opset_version=17, dynamo=False)
from onnxruntime.quantization import QuantType, quantize_dynamic

quantize_dynamic(fp32, int8, weight_type=QuantType.QInt8)
sizes = {p: os.path.getsize(p) for p in (fp32, int8)}
print("sizes MB", {os.path.basename(k): round(v / 1e6, 2) for k, v in sizes.items()}, flush=True)
import onnxruntime as ort
from tokenizers import Tokenizer

T = Tokenizer.from_file(f"{src}/tokenizer.json")
T.enable_truncation(128); T.no_padding()
def session(p, threads):
    so = ort.SessionOptions(); so.intra_op_num_threads = threads; so.inter_op_num_threads = 1
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    return ort.InferenceSession(p, so, providers=["CPUExecutionProvider"])
def prob1(sess, text):
    e = T.encode(text)
    feed = {"input_ids": np.array([e.ids], dtype=np.int64), "attention_mask": np.array([e.attention_mask], dtype=np.int64),
            "token_type_ids": np.array([e.type_ids], dtype=np.int64)}
    lg = sess.run(None, feed)[0][0]; z = np.exp(lg - lg.max()); return float(z[1] / z.sum())
D = json.load(open(f"{E}/data.json"))
sets = {"val": [r["text"] for r in D["train_rows"] if r["split"] == "val"],
        **{k: [r["text"] for r in v] for k, v in D["heldout"].items()}}
out = {"sizes_bytes": {os.path.basename(k): v for k, v in sizes.items()}}
torch_scores = json.load(open(f"{src}_scores.json"))["scores"]
for tag, p in (("onnx_fp32", fp32), ("onnx_int8", int8)):
    s = session(p, 2); t0 = time.time()
    sc = {k: [prob1(s, t) for t in v] for k, v in sets.items()}
    diff = {k: float(np.max(np.abs(np.array(sc[k]) - np.array(torch_scores[k])))) for k in sc}
    print(tag, "scored in", round(time.time() - t0), "s; max |p - p_torch|", diff, flush=True)
    out[tag + "_max_abs_diff_vs_torch"] = diff
    json.dump({"scores": sc}, open(f"{E}/{tag}_scores.json", "w"))
words = "i have been feeling tired lately and work has been a lot but my friends are helping me get through it".split()
msgs = {"15 words": " ".join(words[:15]), "60 words": " ".join((words * 4)[:60]),
        "128 tokens (truncated)": " ".join((words * 20)[:300])}
lat = {}
for tag, p in (("onnx_fp32", fp32), ("onnx_int8", int8)):
    s = session(p, 1)
    for name, m in msgs.items():
        ntok = len(T.encode(m).ids)
        for _ in range(20): prob1(s, m)
        ts = []
        for _ in range(200):
            t0 = time.perf_counter(); prob1(s, m); ts.append((time.perf_counter() - t0) * 1000)
        lat[f"{tag} {name}"] = {"tokens": ntok, "median_ms": round(float(np.median(ts)), 2), "p99_ms": round(float(np.percentile(ts, 99)), 2)}
        print(tag, name, lat[f"{tag} {name}"], flush=True)
tt = []
for _ in range(200):
    t0 = time.perf_counter(); T.encode(msgs["128 tokens (truncated)"]); tt.append((time.perf_counter() - t0) * 1000)
lat["tokenise only, 128 tokens"] = {"median_ms": round(float(np.median(tt)), 3)}
out["latency_1_thread"] = lat
json.dump(out, open(f"{E}/onnx_results.json", "w"), indent=1)
print(json.dumps(out, indent=1))
