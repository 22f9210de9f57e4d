#!/usr/bin/env python3
"""Writes mlp_512.mlir: a three-layer perceptron exported by jax.export with
a symbolic batch `b`, weights as arguments, for bench/symbolic/run.sh
(GEMM-bound at large batches):

  build/venv/bin/python bench/symbolic/export_mlp.py [OUT.mlir]

y = relu(relu(x @ w1 + b1) @ w2 + b2) @ w3 + b3 with x: (b, 512),
w1: (512, 1024), w2: (1024, 1024), w3: (1024, 256). The committed
mlp_512.mlir is this script's output.
"""
import jax

import export


def mlp(w1, b1, w2, b2, w3, b3, x):
    h = jax.nn.relu(x @ w1 + b1)
    h = jax.nn.relu(h @ w2 + b2)
    return h @ w3 + b3


if __name__ == "__main__":
    export.write(mlp, ((512, 1024), (1024,), (1024, 1024), (1024,), (1024, 256), (256,),
                       ("b", 512)), "mlp_512.mlir")
