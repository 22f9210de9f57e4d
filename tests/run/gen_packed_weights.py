#!/usr/bin/python3
"""Writes tests/run/NAME.mlir for NAME in FILES: dot_general and
convolution with constant weights (B), which the layout pass stores in the
GEMM kernel's panels (passes/layout.c), on odd sizes: N not a multiple of
any tile's NR, K not a multiple of KC, several K slices, batches, f64,
weights shared by two products, weights also read elementwise (not packed),
M just above and below the skinny path. The data are integer-valued, so
every sum is exact; the expected products are computed here by NumPy and
embedded as constants, and each case returns `result == expected` over
all elements.

usage: /usr/bin/python3 gen_packed_weights.py NAME > tests/run/NAME.mlir
(NAME: packed_weights, packed_weights_threads, conv_split_threads,
conv_batch_split_threads, conv_line_split_threads,
conv_row_split_threads, conv_indirect, conv_indirect_threads,
dot_panel_split_threads, conv_fold, conv_fold_threads)
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_dot_kernel import LHS_K, RHS_K, all_equal, generate, operand, tensor  # noqa: E402

# ("dot", type, lhs shape, weights shape, lhs batch, rhs batch, lhs contract, rhs contract)
# ("conv", type, input NHWC, weights HWIO, strides, padding[, rhs dilation, feature groups])
# ("shared", ...dot...): the same weights feed two dots (packed once)
# ("mixed", ...dot...): the weights are also added to themselves (stay row-major)
# ("computed", ...dot...): the weights are computed by the program (no
#   constant: the kernel packs its own panels at run time)
DOTS = [
    ("dot", "f32", [37, 261], [261, 45], [], [], [1], [0]),       # 3 K slices, N % NR != 0
    ("dot", "f32", [37, 261], [45, 261], [], [], [1], [1]),       # x @ W^T: packing transposes
    ("dot", "f64", [20, 131], [131, 70], [], [], [1], [0]),       # f64 tiles
    ("dot", "f32", [3, 37, 70], [3, 70, 45], [0], [0], [2], [1]),  # batched weights
    ("dot", "f32", [9, 40], [40, 70], [], [], [1], [0]),          # M = 9: blocked, packed
    ("dot", "f32", [7, 40], [40, 70], [], [], [1], [0]),          # M = 7: skinny, not packed
    ("dot", "f32", [150, 37], [150, 45], [], [], [0], [0]),       # A^T (A packed too)
    ("shared", "f32", [30, 97], [97, 33], [], [], [1], [0]),
    ("mixed", "f32", [30, 97], [97, 33], [], [], [1], [0]),
    ("dot", "f32", [13, 600], [600, 20], [], [], [1], [0]),       # K slices of 512 + 88
]
CONVS = [
    ("conv", "f32", [1, 9, 11, 5], [3, 3, 5, 33], [1, 1], [[1, 1], [1, 1]]),
    ("conv", "f32", [1, 6, 7, 130], [1, 1, 130, 30], [1, 1], [[0, 0], [0, 0]]),  # CI > KC
    ("conv", "f32", [2, 13, 13, 3], [5, 5, 3, 20], [2, 2], [[2, 2], [2, 2]]),
    ("conv", "f64", [1, 8, 8, 7], [3, 3, 7, 9], [1, 1], [[1, 1], [1, 1]]),
]

# Few rows and many output features: threads split the columns of the
# implicit GEMM in panels of NR (conv.c's conv_split: M < 2304 and at least
# 2 panels per thread, 4 at 2 threads: 200 columns make 4 panels of
# AVX-512's 64, 9 of AVX2's 24; the last panel partial), each call reading
# its own panels of the packed weights.
SPLIT_CONVS = [
    ("conv", "f32", [1, 7, 7, 16], [3, 3, 16, 200], [1, 1], [[1, 1], [1, 1]]),
    ("conv", "f32", [1, 6, 6, 136], [1, 1, 136, 180], [1, 1], [[0, 0], [0, 0]]),  # 2 K slices
]

# With the batch first and at least 2 images per thread of a call's worth
# of rows each (conv.c's conv_batch_rows: 96 rows, the packed weights'
# grain), the rows split there instead, in lines of the images (conv.c
# conv_split; with Winograd off, RUN-ARGS, as this 3 x 3 kernel of stride
# 1 takes it otherwise, RUN-ALSO, splitting tile rows: winograd.c): 5
# images of 10 x 10 (M = 500, 200 columns), 50 lines of 10 rows, at
# least 5 a call (48 rows), in calls of 5, 10, 5, 5 and 5, 10, 5, 5
# lines, some across two images, whose last tiles (50 and 100 rows, 2
# and 4 past a multiple of 6) differ from M's.
BATCH_SPLIT_CONVS = [
    ("conv", "f32", [5, 10, 10, 4], [3, 3, 4, 200], [1, 1], [[1, 1], [1, 1]]),
]

# Lines of one row each (conv.c's cg_conv_split: count and grain in
# lines, the grain 48 of them, GEMM_MIN_CALL_ROWS_PACKED), at 2 and 3
# threads, pieces across images; one panel of 9 or 10 columns, so rows
# split whatever M: a 1-D convolution [b, 0, f] of 3 images of 1297
# results (3891 lines), and [b, 0, 1, f] -> [0, b, 1, f] with H = 1
# (the batch the second result dimension, after one of extent 1), 4
# images of 600 (2400 lines; a 1 x 3 kernel, not Winograd).
# ("conv1d", type, input [b, 0, f], weights [0, i, o]);
# ("conv_hb", type, input NHWC with H = 1, weights HWIO): output [0, b, 1, f]
LINE_SPLIT_CONVS = [
    ("conv1d", "f32", [3, 1301, 7], [5, 7, 9]),
    ("conv_hb", "f32", [4, 1, 600, 6], [1, 3, 6, 10]),
]

# With the weights packed the rows split from M = 768 (conv.c's
# CONV_ROW_SPLIT_MIN_M_PACKED), where fewer rows and 4 panels at 2 threads
# split the columns: M = 17 x 47 = 799 (a last tile of 1 row) in calls of
# 2 result rows of 47 (the packed grain's 48 rows), 200 columns, from a
# 3 x 3 kernel of stride 2 (not Winograd); at 3 threads (6 panels needed
# for columns) rows either way.
ROW_SPLIT_CONVS = [
    ("conv", "f32", [1, 34, 94, 4], [3, 3, 4, 200], [2, 2], [[1, 1], [1, 1]]),
]

# The same split for dot_general (codegen/dot.c dot_split: M < 2304, 4
# panels at 2 threads; 200 columns: 4 panels of 64, 9 of 24), K in 2 KC
# slices (with A read in place the packed weights' slices are up to 512
# deep: gemm.c gemm_kc_packed), x @ W^T (the run-time packing transposes), f64 (NR 32 and 12),
# weights constant (read in place from a panel boundary) or computed (each
# call packs its own panels), each large enough for threads (32768
# elements).
SPLIT_DOTS = [
    ("dot", "f32", [30, 130], [130, 200], [], [], [1], [0]),
    ("computed", "f32", [30, 130], [200, 130], [], [], [1], [1]),
    ("computed", "f64", [1, 20, 150], [150, 200], [], [], [2], [0]),  # past a unit dim
    ("dot", "f64", [20, 150], [200, 150], [], [], [1], [1]),
    ("dot", "f64", [20, 530], [530, 100], [], [], [1], [0]),  # K slices of 512 + 18, 4 panels of 32
]

# Packed weights run as an indirect GEMM (conv.c: a table of row pointers
# per block of rows, all taps summed in the microkernel): window dilation,
# strides and asymmetric padding, a batch, partial column panels, K in
# several KC slices, blocks of rows bounded by the table (49 taps), and a
# kernel of 441 taps of 2 features (folded: 21 taps of K = 42; FOLD_CONVS
# has the per-position path). A
# grouped convolution is not packed (elemental path), with the same data.
# M not a multiple of MR ends on the microkernel of fewer rows (conv.c
# conv_ind_tile): M = 70, 225, 400 (10 x 40: 5 tile rows, too few for
# Winograd, whose F(4 x 4) would not sum integers exactly), 196; with 2 threads the 196 rows split
# in two calls of 98, each ending on a tile of 2 rows. With all rows in
# one call, blocks of rows not a multiple of MR end on tiles of MR - 1
# rows where those cover them (conv.c conv_tiles: M = 70 as 10 x 6 + 2 x
# 5, 143 in blocks of 30 ending on 3 x 6 + 5), else on a shorter one (M =
# 8: 6 + 2). A panel's B past
# the tile's cb_panel (gemm.c; npos x K > 2048 at NR = 64 on AVX-512,
# > 4096 at NR = 16 on AVX2) is summed in blocks of taps, the partial sums
# in C between them: on AVX-512 81 taps x K = 26 in three blocks (27 each;
# M = 143 in blocks of 30 rows, the last ending on a tile of 5 rows), 81 x
# 51 in five (17 x 4 + 13), on AVX2 81 x 51 in three; one panel each: past
# NR columns the weights would be 133 K elements at least; ResNet-50's
# 3 x 3 layers of 512 features, 8 panels in 5 blocks, are the
# several-panel case, in tests/differential and tests/oracle.
IND_CONVS = [
    ("conv", "f32", [1, 12, 13, 8], [3, 3, 8, 20], [1, 1], [[2, 2], [2, 2]], [2, 2]),
    ("conv", "f32", [2, 15, 11, 6], [3, 2, 6, 70], [2, 3], [[1, 2], [0, 3]], [2, 1]),
    ("conv", "f32", [1, 30, 30, 3], [7, 7, 3, 16], [2, 2], [[3, 3], [3, 3]]),
    ("conv", "f32", [1, 10, 40, 130], [3, 3, 130, 17], [1, 1], [[1, 1], [1, 1]]),
    ("conv", "f32", [1, 22, 22, 2], [21, 21, 2, 5], [1, 1], [[0, 0], [0, 0]]),
    ("conv", "f64", [1, 10, 9, 5], [2, 3, 5, 9], [1, 1], [[1, 1], [2, 0]], [3, 2]),
    ("conv", "f32", [1, 9, 9, 8], [3, 3, 4, 12], [1, 1], [[1, 1], [1, 1]], [1, 1], 2),
    ("conv", "f32", [1, 14, 14, 8], [3, 3, 8, 20], [1, 1], [[1, 1], [1, 1]]),
    ("conv", "f32", [1, 11, 13, 26], [9, 9, 26, 9], [1, 1], [[4, 4], [4, 4]]),
    ("conv", "f32", [1, 8, 9, 51], [9, 9, 51, 7], [1, 1], [[4, 4], [3, 5]]),
    ("conv", "f32", [1, 4, 2, 20], [1, 1, 20, 70], [1, 1], [[0, 0], [0, 0]]),
]

# Inputs of at most 4 features (ir.h IR_CONV_FOLD_MAX_C) fold the taps of
# the last spatial dimension into K (conv.c conv_fold: ResNet-50's stem,
# 7 taps of K = 21), the window rows that reach into the padding gathered
# into the scratch: the stem's shape on odd sizes (batches whose blocks of
# rows span images: M = 3 x 15 x 15 = 675, 2 x 20 x 19 = 760; N = 70 in a
# partial panel), stride 3 and asymmetric padding along x with window
# dilation along y (not folded), an input narrower than the kernel (every
# column gathered), one feature, f64, rows wider than a block (700 result
# columns). 5 features do not fold: the 21 x 21 kernel of 441 taps then
# runs per position.
FOLD_CONVS = [
    ("conv", "f32", [2, 23, 21, 3], [7, 7, 3, 70], [2, 2], [[3, 3], [3, 3]]),
    ("conv", "f32", [3, 30, 30, 3], [7, 7, 3, 16], [2, 2], [[3, 3], [3, 3]]),
    ("conv", "f32", [1, 17, 19, 2], [3, 5, 2, 9], [1, 3], [[1, 2], [4, 1]], [2, 1]),
    ("conv", "f32", [1, 5, 4, 3], [3, 7, 3, 8], [1, 1], [[1, 1], [3, 3]]),
    ("conv", "f32", [1, 16, 16, 1], [5, 5, 1, 8], [1, 1], [[2, 2], [2, 2]]),
    ("conv", "f64", [1, 10, 12, 4], [3, 3, 4, 9], [1, 1], [[1, 1], [1, 1]]),
    ("conv", "f32", [1, 3, 700, 3], [3, 3, 3, 8], [1, 1], [[1, 1], [1, 1]]),
    ("conv", "f32", [1, 22, 22, 5], [21, 21, 5, 5], [1, 1], [[0, 0], [0, 0]]),
    ("conv", "f32", [2, 40, 38, 3], [7, 7, 3, 24], [2, 2], [[3, 3], [3, 3]]),
]

FILES = {
    "packed_weights": (DOTS + CONVS, None),
    "packed_weights_threads": (DOTS[:2] + DOTS[3:4] + CONVS[:2], "--threads=2"),
    "conv_split_threads": (SPLIT_CONVS, "--threads=2"),
    "conv_batch_split_threads": (BATCH_SPLIT_CONVS, "--threads=2 --winograd=off", ["--threads=2"]),
    "conv_line_split_threads": (LINE_SPLIT_CONVS, "--threads=2", ["--threads=3"]),
    "conv_row_split_threads": (ROW_SPLIT_CONVS, "--threads=2", ["--threads=3"]),
    "conv_indirect": (IND_CONVS, None),
    "conv_indirect_threads": (IND_CONVS[1:4] + IND_CONVS[7:], "--threads=2"),
    "dot_panel_split_threads": (SPLIT_DOTS, "--threads=2"),
    "conv_fold": (FOLD_CONVS, None),
    "conv_fold_threads": (FOLD_CONVS[1:3] + FOLD_CONVS[6:], "--threads=2"),
}

NP = {"f32": np.float32, "f64": np.float64}


def ints(shape, ty, seed):
    """Reproducible small integers in [-6, 6] as weights."""
    return np.random.default_rng(seed).integers(-6, 7, size=shape).astype(NP[ty])


def iota_data(shape, ty, k=LHS_K):
    """The values operand() computes in the program (gen_dot_kernel.py)."""
    r = len(shape)
    w = {r - 1: k[1]} if r == 1 else {r - 2: k[0], r - 1: k[1]}
    idx = np.indices(shape, dtype=np.float64)
    s = sum(idx[d] * w.get(d, 1.0) for d in range(r))
    return (np.fmod(s, k[2]) - k[3]).astype(NP[ty])


def literal(x, ty):
    flat = ", ".join(str(int(v)) for v in x.reshape(-1))
    return f"dense<{flat}> : {tensor(list(x.shape), ty)}"


def nested(x):
    if x.ndim == 0:
        return str(int(x))
    return "[" + ", ".join(nested(y) for y in x) + "]"


def constant(out, name, x, ty):
    out.append(f"  %{name} = stablehlo.constant dense<{nested(x)}> : {tensor(list(x.shape), ty)}")


def dot_expected(a, b, lb, rb, lc, rc):
    lf = [d for d in range(a.ndim) if d not in lb + lc]
    rf = [d for d in range(b.ndim) if d not in rb + rc]
    at = a.transpose(lb + lf + lc)
    bt = b.transpose(rb + rc + rf)
    nb = int(np.prod([a.shape[d] for d in lb]))
    m = int(np.prod([a.shape[d] for d in lf]))
    k = int(np.prod([a.shape[d] for d in lc]))
    n = int(np.prod([b.shape[d] for d in rf]))
    c = at.reshape(nb, m, k).astype(np.float64) @ bt.reshape(nb, k, n).astype(np.float64)
    return c.reshape([a.shape[d] for d in lb + lf] + [b.shape[d] for d in rf])


def conv_expected(x, w, strides, pad, rdil=(1, 1), groups=1):
    """spec "convolution": kernel element (i, j) reads the padded input at
    output position * stride + (i, j) * rhs dilation; output feature group
    g reads input features [g * CI, (g + 1) * CI)."""
    x = np.pad(x.astype(np.float64), [(0, 0), tuple(pad[0]), tuple(pad[1]), (0, 0)])
    kh, kw, ci, o = w.shape
    oh = (x.shape[1] - (kh - 1) * rdil[0] - 1) // strides[0] + 1
    ow = (x.shape[2] - (kw - 1) * rdil[1] - 1) // strides[1] + 1
    og = o // groups
    y = np.zeros((x.shape[0], oh, ow, o))
    for g in range(groups):
        xg = x[..., g * ci:(g + 1) * ci]
        for i in range(kh):
            for j in range(kw):
                h0, w0 = i * rdil[0], j * rdil[1]
                win = xg[:, h0:h0 + strides[0] * oh:strides[0], w0:w0 + strides[1] * ow:strides[1], :]
                y[..., g * og:(g + 1) * og] += win @ w[i, j][:, g * og:(g + 1) * og].astype(np.float64)
    return y


def compare(out, n, got, want, ty):
    constant(out, f"want{n}", want, ty)
    all_equal(out, n, got, f"%want{n}", list(want.shape), ty)


def dot_case(out, n, kind, ty, ls, ws, lb, rb, lc, rc):
    operand(out, f"a{n}", ls, ty, LHS_K)
    if kind == "computed":
        operand(out, f"w{n}", ws, ty, RHS_K)
        w = iota_data(ws, ty, RHS_K)
    else:
        w = ints(ws, ty, n)
        constant(out, f"w{n}", w, ty)
    want = dot_expected(iota_data(ls, ty), w, lb, rb, lc, rc)
    j = lambda l: ", ".join(map(str, l))
    lt, wt = tensor(ls, ty), tensor(ws, ty)
    t = tensor(list(want.shape), ty)
    dims = f"batching_dims = [{j(lb)}] x [{j(rb)}], contracting_dims = [{j(lc)}] x [{j(rc)}]"
    out.append(f"  %d{n} = stablehlo.dot_general %a{n}, %w{n}, {dims} : ({lt}, {wt}) -> {t}")
    got = f"%d{n}"
    if kind == "shared":  # a second product of the same weights: 2 C
        out.append(f"  %e{n} = stablehlo.dot_general %a{n}, %w{n}, {dims} : ({lt}, {wt}) -> {t}")
        out.append(f"  %s{n} = stablehlo.add %d{n}, %e{n} : {t}")
        got, want = f"%s{n}", 2 * want
    if kind == "mixed":  # the weights read elementwise too: A (2 W)
        out.append(f"  %w2{n} = stablehlo.add %w{n}, %w{n} : {wt}")
        out.append(f"  %e{n} = stablehlo.dot_general %a{n}, %w2{n}, {dims} : ({lt}, {wt}) -> {t}")
        out.append(f"  %s{n} = stablehlo.add %d{n}, %e{n} : {t}")
        got, want = f"%s{n}", 3 * want
    compare(out, n, got, want, ty)


def conv_case(out, n, ty, xs, ws, strides, pad, rdil=(1, 1), groups=1):
    operand(out, f"a{n}", xs, ty, LHS_K)
    w = ints(ws, ty, n)
    constant(out, f"w{n}", w, ty)
    want = conv_expected(iota_data(xs, ty), w, strides, pad, rdil, groups)
    xt, wt, t = tensor(xs, ty), tensor(ws, ty), tensor(list(want.shape), ty)
    p = ", ".join(f"[{lo}, {hi}]" for lo, hi in pad)
    out.append(f"  %d{n} = stablehlo.convolution(%a{n}, %w{n}) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]"
               f"->[b, 0, 1, f], window = {{stride = [{strides[0]}, {strides[1]}], pad = [{p}], "
               f"rhs_dilate = [{rdil[0]}, {rdil[1]}]}} {{batch_group_count = 1 : i64, "
               f"feature_group_count = {groups} : i64}} : ({xt}, {wt}) -> {t}")
    compare(out, n, f"%d{n}", want, ty)


def line_case(out, n, kind, ty, xs, ws):
    """LINE_SPLIT_CONVS' case n: conv_expected's 2-D convolution with a
    unit dimension, the result then viewed in the case's layout."""
    operand(out, f"a{n}", xs, ty, LHS_K)
    w = ints(ws, ty, n)
    constant(out, f"w{n}", w, ty)
    x = iota_data(xs, ty)
    if kind == "conv1d":
        y = conv_expected(x[:, None], w[None], [1, 1], [[0, 0], [0, 0]])[:, 0]
        dims, window = "[b, 0, f]x[0, i, o]->[b, 0, f]", "stride = [1], pad = [[0, 0]]"
    else:
        y = conv_expected(x, w, [1, 1], [[0, 0], [1, 1]]).transpose(1, 0, 2, 3)
        dims = "[b, 0, 1, f]x[0, 1, i, o]->[0, b, 1, f]"
        window = "stride = [1, 1], pad = [[0, 0], [1, 1]]"
    xt, wt, t = tensor(xs, ty), tensor(ws, ty), tensor(list(y.shape), ty)
    out.append(f"  %d{n} = stablehlo.convolution(%a{n}, %w{n}) dim_numbers = {dims}, "
               f"window = {{{window}}} {{batch_group_count = 1 : i64, "
               f"feature_group_count = 1 : i64}} : ({xt}, {wt}) -> {t}")
    compare(out, n, f"%d{n}", y, ty)


def packed_case(out, n, c):
    if c[0] == "conv":
        conv_case(out, n, *c[1:])
    elif c[0] in ("conv1d", "conv_hb"):
        line_case(out, n, *c)
    else:
        dot_case(out, n, *c)


def main():
    generate("gen_packed_weights.py", "packed_weights", FILES,
             ["dot_general and convolution with constant weights, which the layout pass",
              "stores in the GEMM kernel's panels (passes/layout.c), on odd sizes; the",
              "expected products come from NumPy: each result is `all elements equal`."],
             packed_case)


if __name__ == "__main__":
    main()
