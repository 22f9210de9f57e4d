#!/usr/bin/env python3
"""Writes dynamic_mlp.mlir: a two-layer perceptron exported by jax.export
with a symbolic batch `b` (shape polymorphism), weights as arguments.

  build/venv/bin/python examples/dynamic_mlp/export.py [OUT.mlir]

The committed dynamic_mlp.mlir is this script's output; the example's test
reads it and needs no Python. y = relu(x @ w1 + b1) @ w2 + b2 with
x: (b, 8), w1: (8, 16), b1: (16,), w2: (16, 4), b2: (4,).
"""
import sys

import jax
import jax.numpy as jnp
from jax import export


def mlp(w1, b1, w2, b2, x):
    return jax.nn.relu(x @ w1 + b1) @ w2 + b2


def main():
    (b,) = export.symbolic_shape("b")
    f32 = jnp.float32
    specs = [jax.ShapeDtypeStruct(s, f32) for s in ((8, 16), (16,), (16, 4), (4,), (b, 8))]
    text = export.export(jax.jit(mlp))(*specs).mlir_module()
    out = sys.argv[1] if len(sys.argv) > 1 else "dynamic_mlp.mlir"
    with open(out, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
