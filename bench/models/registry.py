"""The bench models: where each one's StableHLO comes from, the program shloc
compiles and the one XLA compiles (the same text, or the same text with
elided weights written out), their inputs, and the equivalent PyTorch
module and ONNX file for the anchors.

`python bench/models/registry.py [NAME...]` (in build/venv) writes the
generated programs to build/bench/models/ (skipping files that exist).
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
import resnet  # noqa: E402
import transformers as tf  # noqa: E402

RESNET_SRC = os.path.join(common.SHARED, "models", "jax_resnet_50.mlir")
CHESS_SRC = os.path.join(common.SHARED, "models", "searchless_chess_9m.mlir")


def path(name):
    return os.path.join(common.MODELS_DIR, name)


def write(name, text):
    os.makedirs(common.MODELS_DIR, exist_ok=True)
    tmp = path(name) + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path(name))


class Model:
    """mlir: what shloc compiles (with `flags`); xla_mlir: what XLA compiles,
    the same program with any elided weights filled in; inputs(): @main's
    arguments; torch(): (module, inputs) of the PyTorch equivalent or None;
    onnx: its ONNX export; weight_bytes: bytes of weights a run must read
    (for the bandwidth floor), 0 when the floor is not reported."""

    def __init__(self, name, mlir, export, inputs, flags=(), xla_mlir=None, torch=None,
                 onnx=None, weight_bytes=0):
        self.name, self.mlir, self.export_fn, self.inputs = name, mlir, export, inputs
        self.flags, self.xla_mlir = list(flags), xla_mlir or mlir
        self.torch, self.onnx, self.weight_bytes = torch, onnx, weight_bytes

    def missing(self):
        files = [self.mlir, self.xla_mlir] + ([self.onnx] if self.onnx else [])
        return [f for f in files if not os.path.exists(f)]

    def export(self):
        if self.missing():
            print(f"exporting {self.name}", flush=True)
            self.export_fn(self)


# ---------------------------------------------------------------------------
# ResNet-50: the Flax export, batch 1 as it is and batch 8 rebatched; shloc
# fills the elided weights (--elided=pattern), XLA reads them written out
# by common.fill_elided_text: the same values bit for bit.


def resnet_model(batch):
    name = f"resnet50_b{batch}"

    def export(m):
        text = open(RESNET_SRC).read()
        if batch != 1:
            text = resnet.rebatch(text, batch)
        write(name + ".mlir", text)
        write(name + ".xla.mlir", common.fill_elided_text(text))
        export_onnx(m)

    def torch():
        return resnet.torch_resnet50(), [resnet.resnet_input(batch)]

    return Model(name, path(name + ".mlir"), export, lambda: [resnet.resnet_input(batch)],
                 flags=["--elided=pattern"], xla_mlir=path(name + ".xla.mlir"), torch=torch,
                 onnx=path(name + ".onnx"))


# ---------------------------------------------------------------------------
# BERT-base encoder: weights as @main's leading arguments (PyTorch/XLA
# style) or baked in as constants.


def bert_input(tokens):
    return np.random.default_rng(tokens).normal(0, 1, (1, tokens, tf.HIDDEN)).astype(np.float32)


def bert_model(tokens, weights_as):
    name = f"bert_t{tokens}_{weights_as}"

    def export(m):
        w, x = tf.bert_weights(), bert_input(tokens)
        if weights_as == "args":
            write(name + ".mlir", tf.export_text(tf.jax_bert, (w, x)))
        else:
            write(name + ".mlir", tf.export_text(lambda x: tf.jax_bert(w, x), (x,)))
        export_onnx(m)

    def inputs():
        return (tf.bert_weights() if weights_as == "args" else []) + [bert_input(tokens)]

    def torch():
        bert, _ = tf.torch_modules()
        return bert(tf.bert_weights()).eval(), [bert_input(tokens)]

    wbytes = sum(w.nbytes for w in tf.bert_weights()) if tokens == 7 else 0
    return Model(name, path(name + ".mlir"), export, inputs, torch=torch,
                 onnx=path(f"bert_t{tokens}.onnx"), weight_bytes=wbytes)


# ---------------------------------------------------------------------------
# GPT-2-small decoder step with a KV cache of 128: weights as arguments.

def gpt2_inputs():
    rng = np.random.default_rng(17)
    x = rng.normal(0, 1, (1, tf.HIDDEN)).astype(np.float32)
    k = rng.normal(0, 1, (tf.LAYERS, tf.HEADS, 128, tf.HEAD_DIM)).astype(np.float32)
    v = rng.normal(0, 1, (tf.LAYERS, tf.HEADS, 128, tf.HEAD_DIM)).astype(np.float32)
    return [x, k, v]


def gpt2_model():
    name = "gpt2_step_kv128"

    def export(m):
        write(name + ".mlir", tf.export_text(tf.jax_gpt2_step, (tf.gpt2_weights(), *gpt2_inputs())))
        export_onnx(m)

    def torch():
        _, gpt2 = tf.torch_modules()
        return gpt2(tf.gpt2_weights()).eval(), gpt2_inputs()

    wbytes = sum(w.nbytes for w in tf.gpt2_weights())
    return Model(name, path(name + ".mlir"), export, lambda: tf.gpt2_weights() + gpt2_inputs(),
                 torch=torch, onnx=path(name + ".onnx"), weight_bytes=wbytes)


# ---------------------------------------------------------------------------
# searchless_chess_9m: weights are arguments, random here. No PyTorch
# equivalent is written (the export is the only definition we have).
# shloc runs with --denormals=flush, the semantics of its one anchor:
# XLA:CPU computes with FTZ/DAZ set (jaxlib 0.10.2 here: 1e-20 * 1e-20
# gives 0, exp(-95) gives 0). With these inputs the softmax's exp gives
# denormals, which the P @ V product then reads; on the Sapphire Rapids
# VM (2026-11-28) every multiply-add with a denormal operand or result
# takes a microcode assist (a 2607 x 256 x 256 product with a denormal A:
# 240x the time). IEEE-exact, the model took 1.27x the time of flushed
# (bench/ab.py-style paired calls on these inputs, 1 thread, 2 x 10
# calls: flushed/IEEE 0.785, IEEE against itself 0.978); its attention's
# P @ V took 182 ms a call against 23.


def chess_model():
    def inputs():
        # the i32 argument holds token ids: random_inputs keeps them in [0, 8)
        return common.random_inputs(common.main_arg_specs(open(CHESS_SRC).read()), 99)
    return Model("searchless_chess_9m", CHESS_SRC, lambda m: None, inputs,
                 flags=["--denormals=flush"])


def export_onnx(m):
    """The PyTorch equivalent exported for ONNX Runtime (TorchScript-based
    exporter: it needs no onnxscript)."""
    import warnings
    import torch
    if not m.onnx or os.path.exists(m.onnx):
        return
    module, inputs = m.torch()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(module, tuple(torch.from_numpy(x) for x in inputs), m.onnx + ".tmp",
                          dynamo=False, input_names=[f"in{i}" for i in range(len(inputs))])
    os.replace(m.onnx + ".tmp", m.onnx)


MODELS = [resnet_model(1), resnet_model(8), bert_model(7, "args"), bert_model(7, "const"),
          bert_model(128, "args"), bert_model(128, "const"), gpt2_model(), chess_model()]


def select(names):
    if not names:
        return MODELS
    chosen = [m for m in MODELS if m.name in names]
    unknown = set(names) - {m.name for m in chosen}
    if unknown:
        sys.exit(f"unknown model(s): {' '.join(sorted(unknown))}; "
                 f"known: {' '.join(m.name for m in MODELS)}")
    return chosen


if __name__ == "__main__":
    for model in select(sys.argv[1:]):
        model.export()
