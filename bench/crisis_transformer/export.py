"""Export the fine-tuned model to ONNX and quantise it to int8 (dynamic, QInt8): model_fp32.onnx and
model_int8.onnx beside the torch model. ship.py then scores and ships the int8 one.

    python bench/crisis_transformer/export.py [/work/exp_transformer/model_torch]
"""
import os
import sys

os.environ["HF_HUB_OFFLINE"] = "1"
import torch
from onnxruntime.quantization import QuantType, quantize_dynamic
from transformers import AutoModelForSequenceClassification, AutoTokenizer

src = sys.argv[1] if len(sys.argv) > 1 else "/work/exp_transformer/model_torch"
out = os.path.dirname(src)
torch.set_num_threads(2)
model = AutoModelForSequenceClassification.from_pretrained(src).eval()
tok = AutoTokenizer.from_pretrained(src)
f = tok(["hello there friend", "another example text here"], padding=True, return_tensors="pt")


class Logits(torch.nn.Module):
    def __init__(self, m):
        super().__init__()
        self.m = m

    def forward(self, input_ids, attention_mask, token_type_ids):
        return self.m(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids).logits


names = ["input_ids", "attention_mask", "token_type_ids"]
with torch.no_grad():
    torch.onnx.export(Logits(model), tuple(f[k] for k in names), f"{out}/model_fp32.onnx", input_names=names,
                      output_names=["logits"], opset_version=17, dynamo=False,
                      dynamic_axes={k: {0: "batch", 1: "seq"} for k in names} | {"logits": {0: "batch"}})
quantize_dynamic(f"{out}/model_fp32.onnx", f"{out}/model_int8.onnx", weight_type=QuantType.QInt8)
print({p: round(os.path.getsize(f"{out}/{p}") / 1e6, 1) for p in ("model_fp32.onnx", "model_int8.onnx")})
