#!/usr/bin/env python3
"""Writes tests/run/symbolic_conv_gemm*.mlir and symbolic_dot_epilogue.mlir:
convolution on symbolic sizes on conv.c's implicit GEMM (codegen/dyndims.c:
batch and spatial sizes as run-time values, strides, padding, window
dilation, threads splitting rows or columns) and bias + ReLU epilogues on
symbolic convolutions and dot_generals, with expected values from numpy.
Operands are integer-valued, so every sum is exact in f32 and the printed
values are integers.

usage: /usr/bin/python3 tests/run/gen_symbolic_conv.py   (writes the files)
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_symbolic_dot import Prog, fmt, ints, mty  # noqa: E402

BY = "gen_symbolic_conv.py"


def conv_ref(x, k, stride, pad, dil, lhs_dil=(1, 1)):
    """spec "convolution" for NHWC x HWIO: lhs dilation (zeros between
    elements), zero padding, window dilation."""
    n, h, w, c = x.shape
    xd = np.zeros((n, (h - 1) * lhs_dil[0] + 1, (w - 1) * lhs_dil[1] + 1, c), dtype=x.dtype)
    xd[:, ::lhs_dil[0], ::lhs_dil[1], :] = x
    xp = np.pad(xd, ((0, 0), tuple(pad[0]), tuple(pad[1]), (0, 0)))
    kh, kw = k.shape[:2]
    ho = (xp.shape[1] - (kh - 1) * dil[0] - 1) // stride[0] + 1
    wo = (xp.shape[2] - (kw - 1) * dil[1] - 1) // stride[1] + 1
    out = np.zeros((x.shape[0], ho, wo, k.shape[3]), dtype=x.dtype)
    for i in range(kh):
        for j in range(kw):
            r0, c0 = i * dil[0], j * dil[1]
            patch = xp[:, r0:r0 + (ho - 1) * stride[0] + 1:stride[0],
                       c0:c0 + (wo - 1) * stride[1] + 1:stride[1], :]
            out += patch @ k[i, j]
    return out


class ConvProg(Prog):
    def conv(self, x, xt, k, kt, o, stride=(1, 1), pad=((0, 0), (0, 0)), dil=(1, 1),
             lhs_dil=(1, 1)):
        rt = mty(["?", "?", "?", o], "f32")
        win = (f"stride = [{stride[0]}, {stride[1]}], pad = [[{pad[0][0]}, {pad[0][1]}], "
               f"[{pad[1][0]}, {pad[1][1]}]], lhs_dilate = [{lhs_dil[0]}, {lhs_dil[1]}], "
               f"rhs_dilate = [{dil[0]}, {dil[1]}]")
        v = self.op(f"stablehlo.convolution({x}, {k}) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]"
                    f"->[b, 0, 1, f], window = {{{win}}} {{batch_group_count = 1 : i64, "
                    f"feature_group_count = 1 : i64}} : ({xt}, {kt}) -> {rt}")
        return v, rt

    def shape_of(self, v, vt, ndyn, tail):
        """[size i of v for i < ndyn] + tail as a tensor<Nxi32> (JAX's shape
        computation, after v)."""
        parts = []
        for i in range(ndyn):
            n = self.op(f"stablehlo.get_dimension_size {v}, dim = {i} : ({vt}) -> tensor<i32>")
            parts.append(self.op(f"stablehlo.reshape {n} : (tensor<i32>) -> tensor<1xi32>"))
        parts += [self.op(f"stablehlo.constant dense<{s}> : tensor<1xi32>") for s in tail]
        ins = ", ".join("tensor<1xi32>" for _ in parts)
        cat = self.op(f"stablehlo.concatenate {', '.join(parts)}, dim = 0 : ({ins}) -> "
                      f"tensor<{len(parts)}xi32>")
        return cat, len(parts)

    def bias_relu(self, v, vt, ndyn, bias):
        """relu(v + bias) on the last dimension, as jax.nn.relu(y + b) exports."""
        n = bias.shape[0]
        shp, r = self.shape_of(v, vt, ndyn, [n])
        bc = self.const(bias, "f32")
        bb = self.op(f"stablehlo.dynamic_broadcast_in_dim {bc}, {shp}, dims = [{r - 1}] : "
                     f"({mty([n], 'f32')}, tensor<{r}xi32>) -> {vt}")
        s = self.op(f"stablehlo.add {v}, {bb} : {vt}")
        z = self.op("stablehlo.constant dense<0.0> : tensor<f32>")
        zb = self.op(f"stablehlo.dynamic_broadcast_in_dim {z}, {shp}, dims = [] : "
                     f"(tensor<f32>, tensor<{r}xi32>) -> {vt}")
        return self.op(f"stablehlo.maximum {s}, {zb} : {vt}")

    def spatial_sum(self, v, vt, o):
        """The sum over dims 1 and 2 of a ?x?x?xO value."""
        z = self.op("stablehlo.constant dense<0.0> : tensor<f32>")
        rt = mty(["?", o], "f32")
        return self.op(f"stablehlo.reduce({v} init: {z}) applies stablehlo.add across "
                       f"dimensions = [1, 2] : ({vt}, tensor<f32>) -> {rt}"), rt


def conv_cases(name, comment):
    """Two inputs of different batch and spatial sizes through one kernel:
    strided, padded, dilated; with a bias + ReLU epilogue and without."""
    rng = np.random.default_rng(23)
    p = ConvProg()
    k = ints(rng, [3, 2, 3, 5], -3, 3, np.float32)
    bias = ints(rng, [5], -20, 20, np.float32)
    kc, kt = p.const(k, "f32"), mty([3, 2, 3, 5], "f32")
    xt = mty(["?", "?", "?", 3], "f32")
    for shape in ([1, 7, 6, 3], [3, 5, 8, 3]):
        x = ints(rng, shape, -3, 3, np.float32)
        xa = p.arg(x, xt)
        args = dict(stride=(2, 1), pad=((1, 1), (0, 1)), dil=(1, 2))
        y, yt = p.conv(xa, xt, kc, kt, 5, **args)
        want = conv_ref(x, k, **args)
        p.res.append((p.bias_relu(y, yt, 3, bias), yt))
        p.outputs.append(fmt(np.maximum(want + bias, 0)))
        y2, _ = p.conv(xa, xt, kc, kt, 5, pad=((2, 0), (1, 1)))
        p.res.append((y2, yt))
        p.outputs.append(fmt(conv_ref(x, k, (1, 1), ((2, 0), (1, 1)), (1, 1))))
        args = dict(stride=(1, 1), pad=((1, 0), (0, 0)), dil=(1, 1), lhs_dil=(2, 1))
        y3, _ = p.conv(xa, xt, kc, kt, 5, **args)
        p.res.append((p.bias_relu(y3, yt, 3, bias), yt))
        p.outputs.append(fmt(np.maximum(conv_ref(x, k, **args) + bias, 0)))
    p.write(name, comment, by=BY)


def conv_threads(name, comment):
    """Convolutions large enough for two threads: few rows and many output
    features (the columns split), and M = 2304 rows (the rows split);
    their results summed over the positions."""
    rng = np.random.default_rng(29)
    p = ConvProg()
    for shape, kshape, pad in (([2, 9, 9, 4], [2, 2, 4, 520], 0), ([4, 24, 24, 3], [3, 3, 3, 8], 1)):
        x = ints(rng, shape, -3, 3, np.float32)
        k = ints(rng, kshape, -3, 3, np.float32)
        xt = mty(["?", "?", "?", shape[3]], "f32")
        xa = p.arg(x, xt)
        kc = p.const(k, "f32")
        pads = ((pad, pad), (pad, pad))
        y, yt = p.conv(xa, xt, kc, mty(kshape, "f32"), kshape[3], pad=pads)
        p.res.append(p.spatial_sum(y, yt, kshape[3]))
        p.outputs.append(fmt(conv_ref(x, k, (1, 1), pads, (1, 1)).sum(axis=(1, 2))))
    p.write(name, comment, extra=" --threads=2 --winograd=off", by=BY)


def dot_epilogue(name, comment):
    """relu(x @ W + b) with b broadcast after the dot (as JAX exports it)
    at M = 1 (the elemental loop), 3 (skinny) and 40 (blocked)."""
    rng = np.random.default_rng(31)
    p = ConvProg()
    for m, k, n in ((1, 8, 16), (3, 24, 70), (40, 24, 70)):
        w = ints(rng, [k, n], -3, 3, np.float32)
        bias = ints(rng, [n], -10, 10, np.float32)
        a, at, av = p.lhs(ints(rng, [m], -3, 3, np.float32), "f32", [k],
                          ints(rng, [k], -3, 3, np.float32))
        rt = mty(["?", n], "f32")
        d = p.op(f"stablehlo.dot_general {a}, {p.const(w, 'f32')}, contracting_dims = [1] x [0]"
                 f" : ({at}, {mty([k, n], 'f32')}) -> {rt}")
        p.res.append((p.bias_relu(d, rt, 1, bias), rt))
        p.outputs.append(fmt(np.maximum(av @ w + bias, 0)))
    # x @ W1 + x @ W2: the add finishes the first dot only
    w1, w2 = (ints(rng, [24, 70], -3, 3, np.float32) for _ in range(2))
    ds = [p.op(f"stablehlo.dot_general {a}, {p.const(w, 'f32')}, contracting_dims = [1] x [0]"
               f" : ({at}, {mty([24, 70], 'f32')}) -> {rt}") for w in (w1, w2)]
    p.res.append((p.op(f"stablehlo.add {ds[0]}, {ds[1]} : {rt}"), rt))
    p.outputs.append(fmt(av @ w1 + av @ w2))
    p.write(name, comment, by=BY)


def main():
    conv_cases("symbolic_conv_gemm.mlir", """
Convolutions on symbolic batch and spatial sizes (--symbolic; tests/run.py
also runs them specialized) on the implicit GEMM: a 3 x 2 kernel with
stride [2, 1], padding [[1, 1], [0, 1]] and window dilation [1, 2], then
bias + ReLU as its epilogue (the bias broadcast computed after the
convolution, as JAX exports it), and with padding [[2, 0], [1, 1]] alone,
each on a 1x7x6x3 and a 3x5x8x3 input; and with lhs dilation [2, 1] (the
elemental generator, not the GEMM) and the same epilogue.""")
    conv_threads("symbolic_conv_gemm_threads.mlir", """
Symbolic convolutions on the implicit GEMM on two threads: 2x9x9x4 by a
2x2x4x520 kernel (M = 128 rows: the threads split the columns) and
4x24x24x3 by 3x3x3x8 with padding 1 (M = 2304: the rows), summed over the
positions. --winograd=off: specialized, the second would run by Winograd's
F(4 x 4, 3 x 3), whose sums of these integers are not exact.""")
    dot_epilogue("symbolic_dot_epilogue.mlir", """
relu(x @ W + b) on a symbolic batch: bias and ReLU run as the epilogue of
the dot_general (codegen/dyndims.c) on each path: M = 1 (the elemental
loop: at most 1024 multiply-adds), M = 3 (skinny) and M = 40 (blocked);
and the sum of two dot_generals, the epilogue of the first.""")


if __name__ == "__main__":
    main()
