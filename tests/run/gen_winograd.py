#!/usr/bin/python3
"""Writes tests/run/winograd.mlir, which runs as it is, at 2 and 3 threads and
with --winograd=off (the same cases on the direct kernel: RUN-ALSO):
3 x 3 stride-1 f32 NHWC convolutions with constant weights, which run by
Winograd's F(2 x 2, 3 x 3) or, on larger images, F(4 x 4, 3 x 3)
(codegen/winograd.c; ir.c ir_conv_wino picks), each at odd and even
sizes, 1 to 256 features, padding 0 to 2 (ir.c ir_conv_wino: low and
high of each spatial dimension apart), batch 1 and 2, with the fused
bias + ReLU and residual epilogues, cases of several blocks of tile rows
(splat kernels, whose result is the same for every output feature),
convolutions that must not take the path (stride 2, fewer than
WINO_MIN_TILE_ROWS tile rows, f64, weights computed by the program) still
right, and cases large enough for 2 threads to split their tiles in the
middle of a tile row, their epilogue fused into the kernel (the result's
second use, is_finite, makes the epilogue's root a kernel of its own
rather than part of the check's reduce). tests/passes/layout_winograd.mlir
pins which sizes take which tile.

The input is integer-valued (gen_dot_kernel's operand), the weights and
biases random multiples of 1/1000 (as float32); the expected result is
computed here by NumPy in float64 from the same float32 values.
Tolerance: |got - want| <= 2^-16 x S, S the largest over the case's
elements of the sum of |terms| (|x| |w| over the window and input
features, plus |bias| and |residual|). The path computes in float32; its
error is a few roundings of S's scale per element, larger for F(4 x 4)
whose transforms scale by up to 5 (B^T), 8 (A^T) and 1/24 (G) and cancel
more: observed below 2^-22 x S for F(2 x 2)
and below 2^-18 x S (3.8e-6) for F(4 x 4), at 1 and 2 threads, so 2^-16
(1.5e-5) leaves a margin of 4, while a wrong or missing tap moves a
result by |x| |w| ~ S / (9 C), 4e-4 x S at most (here C <= 32 with random
weights; the splat cases have sums of equal terms).

usage: /usr/bin/python3 gen_winograd.py NAME > tests/run/NAME.mlir
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_dot_kernel import LHS_K, RHS_K, operand, print_module, tensor  # noqa: E402

TOL = 2.0 ** -16

# padding: (lo, hi) of H, then of W
P0, P1, P2 = ((0, 0), (0, 0)), ((1, 1), (1, 1)), ((2, 2), (2, 2))

# (type, input NHWC, kernel extent, input features -> output features,
#  stride, padding, epilogue: "" | "relu" (bias + ReLU) | "res" | "relu+res",
#  weights: "const" | "splat" | "computed")
CASES = [
    ("f32", [1, 11, 11, 5], 11, 1, P1, "relu", "const"),     # 11 x 11 out: odd tiles
    ("f32", [2, 8, 6, 16], 70, 1, P1, "res", "const"),       # batch 2, K past one panel
    ("f32", [1, 14, 14, 32], 16, 1, P1, "relu+res", "const"),  # ResNet's block
    ("f32", [2, 9, 5, 1], 1, 1, P0, "", "const"),            # 1 feature, no padding
    ("f32", [2, 5, 4, 3], 130, 1, P2, "relu", "const"),      # padding 2, 3 panels
    ("f32", [1, 14, 14, 256], 256, 1, P1, "", "splat"),  # 7 tile rows, blocks of 4
    ("f32", [1, 9, 9, 6], 10, 2, P1, "relu", "const"),       # stride 2: direct path
    ("f32", [1, 7, 7, 5], 11, 1, P1, "relu", "const"),       # 4 tile rows: direct path
    ("f64", [1, 6, 7, 4], 9, 1, P1, "res", "const"),         # f64: direct path
    ("f32", [2, 6, 6, 4], 8, 1, P1, "relu", "computed"),     # weights not constant
    # 2 threads split tiles (winograd_threads): 49 tiles as 25 + 24, the
    # second share from the middle of tile row 3, each in pieces of 13 +
    # 12 and 12 + 12 tiles where V fits in L2 (winograd.c wino_grain: the
    # first two cases), the epilogue per row run
    # (kernel.c's threshold: 32768 elements read and written)
    ("f32", [1, 14, 14, 32], 64, 1, P1, "relu+res+root", "const"),
    ("f32", [1, 13, 13, 16], 112, 1, P1, "relu+res+root", "const"),  # the same at odd edges
    # 49 tiles as 25 + 24 in blocks of 35: a block from a mid-row tile
    ("f32", [1, 13, 14, 200], 256, 1, P1, "", "splat"),
    ("f32", [2, 12, 12, 32], 48, 1, P1, "relu+res+root", "const"),  # batch 2: an image a piece
    # F(4 x 4, 3 x 3) (ir.h IR_WINO_F4_MULS_PER_READ: images of about 20 x
    # 20 results and more, as many multiplies saved per element of V read)
    ("f32", [1, 21, 23, 5], 11, 1, P1, "relu", "const"),     # 21 x 23: 1 and 3 past 4 x 4
    ("f32", [2, 26, 26, 8], 12, 1, P0, "res", "const"),      # batch 2, no padding
    ("f32", [1, 20, 21, 3], 70, 1, P2, "relu", "const"),     # padding 2, 2 panels
    ("f32", [1, 28, 28, 32], 16, 1, P1, "relu+res", "const"),  # ResNet's block
    ("f32", [1, 40, 40, 120], 120, 1, P1, "", "splat"),  # 10 tile rows, blocks of 3
    # 2 threads: 49 tiles as 25 + 24 (from the middle of tile row 3)
    ("f32", [1, 28, 28, 32], 24, 1, P1, "relu+res+root", "const"),
    ("f32", [1, 25, 27, 16], 32, 1, P1, "relu+res+root", "const"),  # the same at odd edges
    # 121 tiles as 61 + 60 in blocks of 22: blocks from mid-row tiles
    ("f32", [1, 44, 44, 120], 120, 1, P1, "", "splat"),
    ("f32", [2, 24, 24, 32], 16, 1, P1, "relu+res+root", "const"),  # batch 2: an image a piece
    # V of 8.1 MiB, one image's U and M within a block (ir.h
    # IR_WINO_WIDE_V_BLOCKS): blocks of 2 images, the last of 1 (threads
    # split tile rows of all images, winograd.c cg_conv_wino_split: at 2
    # threads pieces of 6 tile rows, an image and a half; at 3 of one
    # image); 520 features, 8 panels of 64 and 8
    ("f32", [3, 7, 7, 256], 520, 1, P1, "", "splat"),
    # batch 3 of 7 tile rows in blocks of 4: at 2 threads shares of 11 and
    # 10 tile rows in pieces of 7 + 4 and 6 + 4, from tile row 4 of image 1
    # and tile row 3 of image 2
    ("f32", [3, 14, 14, 256], 256, 1, P1, "", "splat"),
    # uneven padding, input features of whole 8-lane vectors and more (the
    # input transform's masked vector loads, winograd.c wino_load_in, at
    # rows above, below, left and right of the input): 12 = a vector and
    # a scalar tail, 13 x 13 results
    ("f32", [1, 13, 12, 12], 10, 1, ((0, 2), (2, 1)), "relu", "const"),
    ("f32", [2, 9, 10, 16], 20, 1, P2, "res", "const"),  # 2 vectors, batch 2
    ("f32", [1, 22, 20, 24], 16, 1, ((1, 0), (0, 2)), "relu", "const"),  # F(4 x 4): 21 x 20
    # F(4 x 4) at batch > 1 with edge tiles: the last image's bottom tile
    # row and every right tile column store past the result's edge (masked
    # off on x86, winograd.c wino_store_kept); tests/native/winograd_edges.c
    # puts the result against a guard page
    ("f32", [3, 23, 22, 8], 16, 1, P1, "", "const"),        # 3 and 2 past 4 x 4
    ("f32", [4, 21, 21, 8], 16, 1, P1, "relu", "const"),    # 1 past 4 x 4
]


def fmt(a):
    return np.array2string(a, separator=", ", threshold=10 ** 9, max_line_width=10 ** 9,
                           formatter={"float_kind": lambda v: "%.9g" % v})


def lhs_values(shape):
    """gen_dot_kernel's operand(LHS_K) as NumPy computes it."""
    idx = np.indices(shape).astype(np.float64)
    r = len(shape)
    v = sum(idx[d] * {r - 2: LHS_K[0], r - 1: LHS_K[1]}.get(d, 1.0) for d in range(r))
    return np.fmod(v, LHS_K[2]) - LHS_K[3]


def res_values(shape):
    idx = np.indices(shape).astype(np.float64)
    r = len(shape)
    v = sum(idx[d] * {r - 2: RHS_K[0], r - 1: RHS_K[1]}.get(d, 1.0) for d in range(r))
    return np.fmod(v, RHS_K[2]) - RHS_K[3]


def conv(x, w, stride, pad):
    """float64 reference and the sum of |terms| (spec "convolution")."""
    xp = np.pad(x, ((0, 0), pad[0], pad[1], (0, 0)))
    n, h, wd = xp.shape[:3]
    ho, wo = (h - 3) // stride + 1, (wd - 3) // stride + 1
    y = np.zeros((n, ho, wo, w.shape[3]))
    s = np.zeros_like(y)
    for i in range(3):
        for j in range(3):
            win = xp[:, i:i + stride * (ho - 1) + 1:stride, j:j + stride * (wo - 1) + 1:stride, :]
            y += np.einsum("nhwc,ck->nhwk", win, w[i, j])
            s += np.einsum("nhwc,ck->nhwk", np.abs(win), np.abs(w[i, j]))
    return y, s


def case(out, n, c, rng):
    ty, ishape, k, stride, pad, epi, wkind = c
    ci = ishape[3]
    x = lhs_values(ishape)
    operand(out, f"a{n}", ishape, ty, LHS_K)
    ws = [3, 3, ci, k]
    wt = tensor(ws, ty)
    if wkind == "splat":
        w = np.full(ws, 0.25)
        out.append(f"  %w{n} = stablehlo.constant dense<0.25> : {wt}")
    elif wkind == "computed":
        w = np.fmod(np.indices(ws).sum(axis=0), 5.0) - 2.0
        out.append(f"  %w{n}_i = stablehlo.iota dim = 0 : {wt}")
        for d in range(1, 4):
            out.append(f"  %w{n}_j{d} = stablehlo.iota dim = {d} : {wt}")
            prev = f"%w{n}_i" if d == 1 else f"%w{n}_s{d - 1}"
            out.append(f"  %w{n}_s{d} = stablehlo.add {prev}, %w{n}_j{d} : {wt}")
        out.append(f"  %w{n}_m = stablehlo.constant dense<5.0> : {wt}")
        out.append(f"  %w{n}_o = stablehlo.constant dense<2.0> : {wt}")
        out.append(f"  %w{n}_r = stablehlo.remainder %w{n}_s3, %w{n}_m : {wt}")
        out.append(f"  %w{n} = stablehlo.subtract %w{n}_r, %w{n}_o : {wt}")
    else:
        w = rng.integers(-1000, 1001, ws) / 1000.0
        w = w.astype(np.float32 if ty == "f32" else np.float64).astype(np.float64)
        out.append(f"  %w{n} = stablehlo.constant dense<{fmt(w)}> : {wt}")
    y, s = conv(x, w, stride, pad)
    oshape = list(y.shape)
    ot = tensor(oshape, ty)
    (ph_lo, ph_hi), (pw_lo, pw_hi) = pad
    out.append(f"  %d{n} = stablehlo.convolution(%a{n}, %w{n}) dim_numbers = [b, 0, 1, f]x"
               f"[0, 1, i, o]->[b, 0, 1, f], window = {{stride = [{stride}, {stride}], "
               f"pad = [[{ph_lo}, {ph_hi}], [{pw_lo}, {pw_hi}]]}} {{batch_group_count = 1 : i64, "
               f"feature_group_count = 1 : i64}} : ({tensor(ishape, ty)}, {wt}) -> {ot}")
    got = f"%d{n}"
    if "relu" in epi:
        b = rng.integers(-1000, 1001, k) / 1000.0
        out.append(f"  %b{n} = stablehlo.constant dense<{fmt(b)}> : {tensor([k], ty)}")
        out.append(f"  %bb{n} = stablehlo.broadcast_in_dim %b{n}, dims = [3] : "
                   f"({tensor([k], ty)}) -> {ot}")
        out.append(f"  %z{n} = stablehlo.constant dense<0.0> : {ot}")
        out.append(f"  %e{n} = stablehlo.add {got}, %bb{n} : {ot}")
        out.append(f"  %f{n} = stablehlo.maximum %e{n}, %z{n} : {ot}")
        got = f"%f{n}"
        y, s = np.maximum(y + b, 0), s + np.abs(b)
    if "res" in epi:
        operand(out, f"r{n}", oshape, ty, RHS_K)
        out.append(f"  %g{n} = stablehlo.add {got}, %r{n} : {ot}")
        got = f"%g{n}"
        r = res_values(oshape)
        y, s = y + r, s + np.abs(r)
    if wkind == "splat":  # every output feature alike: one, broadcast
        one = tensor(oshape[:3] + [1], ty)
        out.append(f"  %want{n}_1 = stablehlo.constant dense<{fmt(y[..., :1])}> : {one}")
        out.append(f"  %want{n} = stablehlo.broadcast_in_dim %want{n}_1, dims = [0, 1, 2, 3] : "
                   f"({one}) -> {ot}")
    else:
        out.append(f"  %want{n} = stablehlo.constant dense<{fmt(y)}> : {ot}")
    bt = tensor(oshape, "i1")
    out.append(f"  %diff{n} = stablehlo.subtract {got}, %want{n} : {ot}")
    out.append(f"  %adiff{n} = stablehlo.abs %diff{n} : {ot}")
    out.append(f"  %tol{n} = stablehlo.constant dense<{TOL * s.max():.9g}> : {ot}")
    out.append(f"  %le{n} = stablehlo.compare LE, %adiff{n}, %tol{n} : ({ot}, {ot}) -> {bt}")
    if "root" in epi:  # a second use of the result: its own kernel, the conv's epilogue
        out.append(f"  %fin{n} = stablehlo.is_finite {got} : ({ot}) -> {bt}")
        out.append(f"  %lf{n} = stablehlo.and %le{n}, %fin{n} : {bt}")
        le = f"%lf{n}"
    else:
        le = f"%le{n}"
    out.append(f"  %t{n} = stablehlo.constant dense<true> : tensor<i1>")
    out.append(f"  %ok{n} = stablehlo.reduce({le} init: %t{n}) applies stablehlo.and across "
               f"dimensions = [0, 1, 2, 3] : ({bt}, tensor<i1>) -> tensor<i1>")


def main():
    rng = np.random.default_rng(6)
    print_module("gen_winograd.py", "", "",
                 ["3 x 3 stride-1 f32 convolutions by Winograd's F(2 x 2, 3 x 3)",
                  "(codegen/winograd.c) and ones that must not take it, against NumPy",
                  "in float64: each result is `all |got - want| <= 2^-16 x S`",
                  "(see the generator for S and why)."],
                 [lambda out, i, c=c: case(out, i, c, rng) for c in CASES],
                 also=["--threads=2", "--threads=3", "--winograd=off"])


if __name__ == "__main__":
    main()
