#!/usr/bin/env python3
"""Writes cnn.mlir: a small convolutional network exported by jax.export
with a symbolic batch `b`, weights as arguments, for bench/symbolic/run.sh
(convolution-bound):

  build/venv/bin/python bench/symbolic/export_cnn.py [OUT.mlir]

x: (b, 32, 32, 3) NHWC; three 3 x 3 convolutions (HWIO), each + bias and
ReLU: to 32 features (stride 1), 64 (stride 2), 128 (stride 2), SAME
padding; the mean over the 8 x 8 positions, then a dense layer to 10. The
committed cnn.mlir is this script's output.
"""
import jax
import jax.numpy as jnp

import export


def conv(x, w, b, stride):
    y = jax.lax.conv_general_dilated(x, w, (stride, stride), "SAME",
                                     dimension_numbers=("NHWC", "HWIO", "NHWC"))
    return jax.nn.relu(y + b)


def cnn(w1, b1, w2, b2, w3, b3, wd, bd, x):
    h = conv(x, w1, b1, 1)
    h = conv(h, w2, b2, 2)
    h = conv(h, w3, b3, 2)
    return jnp.mean(h, axis=(1, 2)) @ wd + bd


if __name__ == "__main__":
    export.write(cnn, ((3, 3, 3, 32), (32,), (3, 3, 32, 64), (64,), (3, 3, 64, 128), (128,),
                       (128, 10), (10,), ("b", 32, 32, 3)), "cnn.mlir")
