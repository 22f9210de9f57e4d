#!/usr/bin/python3
"""Writes tests/run/NAME.mlir for NAME in FILES: reduce_window as a
pooling layer over NHWC inputs (codegen/reduce.c), the kernel vectorized
over the contiguous channels: ResNet's 3 x 3 max-pool of stride 2 padded
by 1, on odd and even sizes, channel counts that are not a multiple of a
vector, asymmetric padding, stride 1 and a batch; and a sum over 7 x 7
windows of stride 7 (ResNet's global average pool before its divide).
The data are integer-valued, so every sum is exact; the expected results
are computed here by NumPy (padding holds the init value: -inf for the
maximum, 0 for the sum) and each case returns `result == expected` over
all elements.

usage: /usr/bin/python3 gen_reduce_window.py NAME > tests/run/NAME.mlir
(NAME: reduce_window_pool, reduce_window_pool_threads)
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_dot_kernel import LHS_K, generate, operand, tensor  # noqa: E402
from gen_packed_weights import compare, iota_data  # noqa: E402

# (body, type, input NHWC, window (h, w), strides (h, w), padding [[lo, hi], [lo, hi]])
POOLS = [
    ("maximum", "f32", [1, 16, 16, 64], [3, 3], [2, 2], [[1, 1], [1, 1]]),    # as ResNet-50's
    ("maximum", "f32", [1, 11, 9, 20], [3, 3], [2, 2], [[1, 1], [1, 1]]),     # odd sizes, C % 16 = 4
    ("maximum", "f32", [2, 7, 13, 3], [3, 3], [2, 2], [[0, 1], [2, 1]]),      # asymmetric padding
    ("maximum", "f32", [1, 6, 5, 33], [3, 2], [1, 1], [[1, 1], [0, 1]]),      # stride 1
    ("maximum", "f64", [1, 9, 9, 17], [3, 3], [2, 2], [[1, 1], [1, 1]]),
    ("add", "f32", [1, 7, 7, 2048], [7, 7], [7, 7], [[0, 0], [0, 0]]),        # global sum pool
    ("add", "f32", [1, 15, 10, 12], [3, 3], [2, 3], [[1, 0], [1, 1]]),
]

FILES = {
    "reduce_window_pool": (POOLS, None),
    "reduce_window_pool_threads": (POOLS[:3] + POOLS[5:6], "--threads=2"),
}

INIT = {"maximum": ("0xFF800000", "0xFFF0000000000000", -np.inf), "add": ("0.0", "0.0", 0.0)}


def pool_expected(x, body, win, strides, pad):
    """spec "reduce_window": the window at output (i, j) covers padded rows
    i * stride .. i * stride + window - 1 (and columns likewise)."""
    init = INIT[body][2]
    x = np.pad(x.astype(np.float64), [(0, 0), tuple(pad[0]), tuple(pad[1]), (0, 0)],
               constant_values=init)
    oh = (x.shape[1] - win[0]) // strides[0] + 1
    ow = (x.shape[2] - win[1]) // strides[1] + 1
    y = np.full((x.shape[0], oh, ow, x.shape[3]), init)
    f = np.maximum if body == "maximum" else np.add
    for i in range(win[0]):
        for j in range(win[1]):
            y = f(y, x[:, i:i + strides[0] * oh:strides[0], j:j + strides[1] * ow:strides[1], :])
    return y


def pool_case(out, n, body, ty, xs, win, strides, pad):
    operand(out, f"a{n}", xs, ty, LHS_K)
    want = pool_expected(iota_data(xs, ty), body, win, strides, pad)
    xt, t, st = tensor(xs, ty), tensor(list(want.shape), ty), tensor([], ty)
    init = INIT[body][0 if ty == "f32" else 1]
    p = ", ".join(f"[{lo}, {hi}]" for lo, hi in [[0, 0]] + pad + [[0, 0]])
    out.append(f"  %i{n} = stablehlo.constant dense<{init}> : {st}")
    out.append(f'  %d{n} = "stablehlo.reduce_window"(%a{n}, %i{n}) <{{padding = dense<[{p}]> : '
               f"tensor<4x2xi64>, window_dimensions = array<i64: 1, {win[0]}, {win[1]}, 1>, "
               f"window_strides = array<i64: 1, {strides[0]}, {strides[1]}, 1>}}> ({{")
    out.append(f"    ^bb0(%x{n}: {st}, %y{n}: {st}):")
    out.append(f"      %m{n} = stablehlo.{body} %x{n}, %y{n} : {st}")
    out.append(f"      stablehlo.return %m{n} : {st}")
    out.append(f"    }}) : ({xt}, {st}) -> {t}")
    compare(out, n, f"%d{n}", want, ty)


def main():
    generate("gen_reduce_window.py", "reduce_window_pool", FILES,
             ["reduce_window as pooling over NHWC inputs (codegen/reduce.c) on odd sizes,",
              "padding and strides; the expected results come from NumPy: each result",
              "is `all elements equal`."],
             lambda out, i, c: pool_case(out, i, *c))


if __name__ == "__main__":
    main()
