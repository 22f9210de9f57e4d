#!/usr/bin/python3
"""Writes tests/run/dot_skinny_args.mlir: the skinny paths of dot_general
(codegen/gemm.c: M <= 8 rows; B along N streamed in strips of one cache
line, two for M = 1, or B along K, x @ W^T, read in place as dot
products) with the weights as arguments of @main (given by `--input`)
and as constants, for M = 1 to 8, N not a multiple of any strip (16 f32
columns a line with AVX-512, 8 with AVX2), K not a multiple of the k block (16) or of a vector, and K
below one block. x is always an argument, so nothing is constant-folded. The data are
small integers, so every sum is exact; the expected products are
computed here by NumPy and embedded as constants, and each case returns
`result == expected` over all elements. With AVX2 (16 ymm), 8 rows run
the in-place path in two groups of rows and 7 in one whose multiply-adds
read B's second vector from memory (gemm.c's skinny_strip), and
the constants take the packed path at one thread too (gemm.c's tile
table, serial_packed), a call's panels 2 at a time
(SKINNY_PACKED_STREAMS_AVX2) and the rest one by one.

dot_skinny_packed_threads: constant weights with 2 threads, which the
layout pass packs for the skinny path (passes/layout.c, codegen/gemm.c's
packed skinny path: panels of the tile's NR columns, rows in groups when
M x NR accumulators do not fit the registers), each large enough for
threads (32768 elements) so that the calls split the columns in whole
panels (codegen/dot.c's dot_split), N not a multiple of NR (the last
panel's call ends inside it), K not a multiple of the block of rows
(16) or of the unrolled step (4).

dot_skinny_ksplit, dot_skinny_ksplit3: weights as arguments with 2 and 3
threads, which split K (codegen/dot.c's cg_dot_ksplit).

dot_skinny_dots, dot_skinny_dots2, dot_skinny_dots3: x @ W^T on 1, 2 and
3 threads (the dots path's streams over each call's columns).

usage: /usr/bin/python3 gen_skinny_args.py NAME > tests/run/NAME.mlir
(NAME: dot_skinny_args, dot_skinny_packed_threads, dot_skinny_ksplit,
dot_skinny_ksplit3, dot_skinny_dots, dot_skinny_dots2, dot_skinny_dots3)
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_dot_kernel import print_module, tensor  # noqa: E402
from gen_packed_weights import compare, constant, ints  # noqa: E402

# (element type, M, K, N, weights: "arg" or "const", transposed: W is N x K)
CASES = [
    ("f32", 1, 37, 45, "arg", False),    # GEMV, 2 full strips and a partial one
    ("f32", 2, 50, 33, "const", False),
    ("f32", 3, 19, 70, "arg", True),     # x @ W^T, N % NB != 0
    ("f32", 4, 40, 17, "const", True),
    ("f32", 5, 23, 100, "arg", False),
    ("f32", 6, 65, 31, "const", False),  # K = 4 blocks + 1
    ("f32", 7, 33, 50, "arg", False),    # BERT's 7 tokens
    ("f32", 7, 41, 29, "const", True),
    ("f32", 8, 70, 47, "arg", False),    # the largest skinny M
    ("f32", 7, 150, 50, "arg", False),   # K = 9 blocks + 6
    ("f32", 4, 131, 20, "const", False),  # K = 8 blocks + 3
    ("f32", 8, 21, 23, "arg", True),
    ("f32", 1, 5, 9, "const", False),    # K below a block, N below a strip
    ("f32", 1, 140, 40, "const", True),  # K = 8 vectors + 12
    ("f64", 3, 29, 21, "arg", False),    # f64: 8 columns a strip with AVX-512
    ("f64", 2, 18, 11, "arg", True),
    ("f32", 1, 70, 100, "arg", False),   # M = 1: strips of 2 lines, 3 and a partial one
    ("f64", 1, 40, 37, "const", False),  # M = 1, f64: 16 columns a strip
    ("f64", 7, 45, 37, "arg", False),    # 7 rows in one group with AVX2 (B from memory), f64
    ("f32", 7, 19, 83, "arg", False),    # the same, f32: 5 full strips and a partial one
    # constants on AVX2: a call's panels 2 at a time (the packed path's
    # streams), then the rest one by one, the last panel partly
    ("f32", 2, 19, 75, "const", False),  # 4 panels of 24: 2 turns of 2
    ("f32", 5, 37, 170, "const", False),  # 8 panels: 4 turns of 2
    ("f32", 7, 53, 115, "const", False),  # BERT's 7 tokens, 5 panels (1 alone): 2 groups of rows
    ("f64", 8, 27, 61, "const", False),  # 6 panels of 12: 2 groups of 4 rows
    # 7 rows folded (AVX2): each strip's sums start from C after the first
    # block (skinny_acc_from_c); K below a block, then 5 blocks in f64
    ("f32", 7, 12, 40, "arg", False),
    ("f64", 7, 70, 21, "arg", False),
]

# Packed with 2 threads (NR = 64 f32, 32 f64 with AVX-512; 24 and 12 with
# AVX2): the calls take whole panels, the last one partly.
PACKED = [
    ("f32", 7, 41, 790, "const", False),   # BERT's 7 tokens: 2 groups of rows (AVX-512)
    ("f32", 8, 20, 1500, "const", False),  # 2 groups of 4
    ("f64", 3, 33, 1000, "const", False),  # K = 2 blocks + 1
]
# Weights as arguments with 2 and 3 threads: split along K (codegen/dot.c's
# cg_dot_ksplit: M x N fits a scratch slice, K at least 128 rows a
# thread), each case large enough for threads (32768 elements), K not a
# multiple of the pieces, of the block of rows (16) or of a vector, N not
# a multiple of a strip; the partial products are summed in order.
KSPLIT = [
    ("f32", 1, 259, 131, "arg", False),
    ("f32", 4, 257, 129, "arg", False),
    ("f32", 7, 301, 113, "arg", False),   # BERT's 7 tokens
    ("f32", 8, 517, 65, "arg", False),
    ("f64", 2, 300, 111, "arg", False),
    ("f64", 3, 257, 129, "arg", False),   # rows of 1 KiB: slots moved (skinny_stage_at)
    ("f32", 1, 260, 170, "arg", False),   # M = 1: strips of 2 lines, 5 and a partial one
    ("f64", 1, 270, 130, "arg", False),   # M = 1, f64: strips of 16, 8 and a partial one
]
KSPLIT3 = [
    ("f32", 1, 450, 77, "arg", False),   # M = 1: strips of 2 lines
    ("f32", 3, 385, 87, "arg", False),
    ("f32", 5, 401, 97, "arg", False),
    ("f32", 8, 1001, 33, "arg", False),
    ("f32", 6, 700, 49, "arg", False),
    ("f32", 1, 390, 110, "arg", False),  # M = 1: 3 strips of 2 lines and a partial one
]
# x @ W^T (the dots path, codegen/gemm.c): a call's columns in NB streams
# (Dots.apart) and the columns left one by one, M = 1 to 8, N not a
# multiple of NB, calls of fewer columns than NB; on 1 thread, and on 2
# and 3 (each case large enough for threads: 32768 elements).
DOTS = [
    ("f32", 1, 40, 203, "arg", True),
    ("f32", 7, 30, 50, "const", True),    # BERT's 7 tokens
    ("f32", 8, 21, 37, "arg", True),
    ("f32", 4, 25, 5, "arg", True),       # fewer columns than NB
    ("f64", 2, 20, 99, "arg", True),
]
DOTS_THREADS = [
    ("f32", 1, 64, 520, "arg", True),
    ("f32", 3, 56, 611, "const", True),
    ("f32", 7, 101, 333, "arg", True),
    ("f64", 2, 50, 700, "arg", True),
]
DOTS_WHAT = [
    "x @ W^T by the skinny dot_general path's dot products (codegen/gemm.c's",
    "dots path: a call's columns in NB streams, the rest one by one), M = 1",
    "to 8, N not a multiple of NB; the expected products come from NumPy:",
    "each result is `all elements equal`."]
FILES = {
    "dot_skinny_args": (CASES, [], [
        "The skinny dot_general paths (codegen/gemm.c) with weights as arguments",
        "and as constants, B along N and along K (x @ W^T), M = 1 to 8, odd N",
        "and K; the expected products come from NumPy: each result is",
        "`all elements equal`."]),
    "dot_skinny_packed_threads": (PACKED, ["--threads=2"], [
        "The packed skinny dot_general path (codegen/gemm.c) with 2 threads:",
        "constant weights in the tile's panels, calls of whole panels (the",
        "last one partly), odd N and K; the expected products come from",
        "NumPy: each result is `all elements equal`."]),
    "dot_skinny_ksplit": (KSPLIT, ["--threads=2"], [
        "The skinny dot_general path (codegen/gemm.c) with weights as",
        "arguments and 2 threads, split along K (codegen/dot.c's",
        "cg_dot_ksplit), M = 1 to 8, odd N and K; the expected products come",
        "from NumPy: each result is `all elements equal`."]),
    "dot_skinny_ksplit3": (KSPLIT3, ["--threads=3"], [
        "The skinny dot_general path split along K with 3 threads",
        "(codegen/dot.c's cg_dot_ksplit), odd N and K; the expected products",
        "come from NumPy: each result is `all elements equal`."]),
    "dot_skinny_dots": (DOTS, [], DOTS_WHAT),
    "dot_skinny_dots2": (DOTS_THREADS, ["--threads=2"], DOTS_WHAT),
    "dot_skinny_dots3": (DOTS_THREADS, ["--threads=3"], DOTS_WHAT),
}


def values(x):
    return " ".join(str(int(v)) for v in x.reshape(-1))


def data(n, ty, m, k, nn, transposed):
    """Case n's x (M x K) and weights (K x N, or N x K transposed)."""
    return ints([m, k], ty, 100 + n), ints([nn, k] if transposed else [k, nn], ty, n)


def arguments(n, ty, m, k, nn, weights, transposed):
    """Case n's parameters of @main and their `--input` options."""
    x, w = data(n, ty, m, k, nn, transposed)
    params = [f"%x{n}: {tensor([m, k], ty)}"]
    inputs = [f'--input="{m}x{k}x{ty}={values(x)}"']
    if weights == "arg":
        params.append(f"%w{n}: {tensor(list(w.shape), ty)}")
        inputs.append(f'--input="{"x".join(map(str, w.shape))}x{ty}={values(w)}"')
    return params, inputs


def case(out, n, ty, m, k, nn, weights, transposed):
    x, w = data(n, ty, m, k, nn, transposed)
    if weights == "const":
        constant(out, f"w{n}", w, ty)
    want = x.astype(np.float64) @ (w.T if transposed else w).astype(np.float64)
    xt, wt = tensor([m, k], ty), tensor(list(w.shape), ty)
    rc = 1 if transposed else 0
    out.append(f"  %d{n} = stablehlo.dot_general %x{n}, %w{n}, contracting_dims = [1] x [{rc}] "
               f": ({xt}, {wt}) -> {tensor([m, nn], ty)}")
    compare(out, n, f"%d{n}", want, ty)


def main():
    name = sys.argv[1] if len(sys.argv) > 1 else "dot_skinny_args"
    cases, run_args, what = FILES[name]
    params, inputs = [], list(run_args)
    for n, c in enumerate(cases):
        p, i = arguments(n, *c)
        params += p
        inputs += i
    print_module("gen_skinny_args.py", name, " ".join(inputs), what,
                 [lambda out, i, c=c: case(out, i, *c) for c in cases], params)


if __name__ == "__main__":
    main()
