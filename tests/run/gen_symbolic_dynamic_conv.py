#!/usr/bin/env python3
"""Writes tests/run/symbolic_dynamic_conv*.mlir: dynamic_conv compiled on
symbolic sizes, each program at several sizes, with expected values from
numpy (the input dilated and zero-padded, then a sum over each window:
spec "convolution", which dynamic_conv is with its padding a value).

- same_1d: JAX's "SAME" padding over a width given as a dimension
  argument, computed as jax writes it (its floor division: divide,
  remainder, sign, compare, select; ceil(n / s) = -floor(-n / s), a
  maximum with 0), stride 2, kernel 4: padding (1, 1 + n % 2) at run time.
- same_2d: the same over both sizes of an NHWC image taken with
  get_dimension_size (jax.export's form), strides 2 and 3, a 3x2 kernel.
- const_2d: constant padding [[1, 0], [0, 2]] (a convolution once
  folded), strides [1, 2], rhs_dilation [2, 1], batch, height and width
  symbolic, in a module with mhlo.num_partitions = 1 (JAX's exports: run
  on the ordinary path, not as a grid).

usage: /usr/bin/python3 tests/run/gen_symbolic_dynamic_conv.py
"""
import os

import numpy as np

from gen_symbolic_dot import dense, fmt, inp, mty

HERE = os.path.dirname(os.path.abspath(__file__))
DNUMS = {1: "[b, 0, f]x[0, i, o]->[b, 0, f]", 2: "[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]"}


def same_pads(n, k, s):
    """jax.lax.padtype_to_pads for "SAME": out = ceil(n / s)."""
    total = max((-(-n // s) - 1) * s + k - n, 0)
    return total // 2, total - total // 2


def reference(x, k, strides, pads, rhs_dil):
    """x: N x spatial... x C, k: spatial... x C x O (spec "convolution")."""
    ns = x.ndim - 2
    xp = np.pad(x, [(0, 0)] + [tuple(p) for p in pads] + [(0, 0)])
    win = [(k.shape[d] - 1) * rhs_dil[d] + 1 for d in range(ns)]
    out = [max((xp.shape[1 + d] - win[d]) // strides[d] + 1, 0) for d in range(ns)]
    res = np.zeros([x.shape[0]] + out + [k.shape[-1]], x.dtype)
    for pos in np.ndindex(*out):
        sl = tuple(slice(pos[d] * strides[d], pos[d] * strides[d] + win[d], rhs_dil[d]) for d in range(ns))
        patch = xp[(slice(None),) + sl + (slice(None),)]
        res[(slice(None),) + pos + (slice(None),)] = np.tensordot(patch, k, axes=ns + 1)
    return res


class Prog:
    """One @main: arguments, body lines, one result."""

    def __init__(self):
        self.args, self.body, self.inputs, self.n = [], [], [], 0

    def arg(self, ty, text):
        name = f"%a{len(self.args)}"
        self.args.append(f"{name}: {ty}")
        self.inputs.append(text)
        return name

    def op(self, text):
        self.n += 1
        self.body.append(f"  %v{self.n} = {text}")
        return f"%v{self.n}"

    def i64(self, c):
        return self.op(f"stablehlo.constant dense<{c}> : tensor<i64>")

    def binary(self, name, a, b):
        return self.op(f"stablehlo.{name} {a}, {b} : tensor<i64>")

    def floordiv(self, a, d):
        """a // d as jax writes it (shape_poly's _floordiv)."""
        b = self.i64(d)
        q, r = self.binary("divide", a, b), self.binary("remainder", a, b)
        sa, sb = self.op(f"stablehlo.sign {a} : tensor<i64>"), self.op(f"stablehlo.sign {b} : tensor<i64>")
        cmp = "(tensor<i64>, tensor<i64>) -> tensor<i1>"
        ne = self.op(f"stablehlo.compare  NE, {sa}, {sb},  SIGNED : {cmp}")
        nz = self.op(f"stablehlo.compare  NE, {r}, {self.i64(0)},  SIGNED : {cmp}")
        both = self.op(f"stablehlo.and {ne}, {nz} : tensor<i1>")
        dec = self.binary("subtract", q, self.i64(1))
        return self.op(f"stablehlo.select {both}, {dec}, {q} : tensor<i1>, tensor<i64>")

    def same_pad(self, n, k, s):
        """(lo, hi) of "SAME" padding as i64 values (see same_pads)."""
        out = self.binary("multiply", self.floordiv(self.binary("multiply", n, self.i64(-1)), s), self.i64(-1))
        t = self.binary("multiply", self.binary("subtract", out, self.i64(1)), self.i64(s))
        t = self.binary("subtract", self.binary("add", t, self.i64(k)), n)
        total = self.binary("maximum", t, self.i64(0))
        lo = self.floordiv(total, 2)
        return lo, self.binary("subtract", total, lo)

    def padding(self, pairs):
        """A tensor<Nx2xi32> of (lo, hi) i64 values."""
        flat = []
        for v in (v for p in pairs for v in p):
            c = self.op(f"stablehlo.convert {v} : (tensor<i64>) -> tensor<i32>")
            flat.append(self.op(f"stablehlo.reshape {c} : (tensor<i32>) -> tensor<1xi32>"))
        cat = self.op(f"stablehlo.concatenate {', '.join(flat)}, dim = 0 : "
                      f"({', '.join(['tensor<1xi32>'] * len(flat))}) -> tensor<{len(flat)}xi32>")
        n = len(pairs)
        return self.op(f"stablehlo.reshape {cat} : (tensor<{2 * n}xi32>) -> tensor<{n}x2xi32>"), f"tensor<{n}x2xi32>"

    def dynamic_conv(self, x, xt, k, kt, pad, pt, rt, strides, rhs_dil):
        ns = len(strides)
        attrs = (f"window_strides = array<i64: {', '.join(map(str, strides))}>, "
                 f"rhs_dilation = array<i64: {', '.join(map(str, rhs_dil))}>, "
                 f"dimension_numbers = #stablehlo.conv<{DNUMS[ns]}>, "
                 "batch_group_count = 1 : i64, feature_group_count = 1 : i64")
        return self.op(f'"stablehlo.dynamic_conv"({x}, {k}, {pad}) {{{attrs}}} : ({xt}, {kt}, {pt}) -> {rt}')

    def write(self, name, comment, res, rt, want, module=""):
        with open(os.path.join(HERE, name), "w") as f:
            for line in comment.strip().splitlines():
                f.write(f"// {line}\n")
            f.write(f"// Written by gen_symbolic_dynamic_conv.py (numpy {np.__version__} values).\n")
            f.write("// RUN-ARGS: --symbolic\n")
            f.write("// REREAD\n")
            for i in self.inputs:
                f.write(f"// RUN-ARGS: {i}\n")
            f.write(f"// OUTPUT: {fmt(want)}\n")
            ind = "  " if module else ""
            if module:
                f.write(module + " {\n")
            f.write(f"{ind}func.func public @main({', '.join(self.args)}) -> {rt} {{\n")
            f.write("\n".join(ind + line for line in self.body) + "\n")
            f.write(f"{ind}  return {res} : {rt}\n{ind}}}\n")
            if module:
                f.write("}\n")


def ints(rng, shape, lo, hi):
    return rng.integers(lo, hi + 1, size=shape).astype(np.float32)


def same_1d(name, width, seed):
    rng = np.random.default_rng(seed)
    x, k = ints(rng, [2, width, 3], -3, 3), ints(rng, [4, 3, 2], -2, 2)
    p = Prog()
    n = p.arg("tensor<i64>", f'--input="i64={width}"')
    xa = p.arg(mty([2, "?", 3], "f32"), inp(x))
    kc = p.op(f"stablehlo.constant dense<{dense(k)}> : {mty(k.shape, 'f32')}")
    pad, pt = p.padding([p.same_pad(n, 4, 2)])
    rt = mty([2, "?", 2], "f32")
    res = p.dynamic_conv(xa, mty([2, "?", 3], "f32"), kc, mty(k.shape, "f32"), pad, pt, rt, [2], [1])
    pads = [same_pads(width, 4, 2)]
    p.write(name, f"""
dynamic_conv on symbolic sizes (--symbolic; tests/run.py also runs it
specialized), 1-d, with JAX's "SAME" padding computed from the dimension
argument n (the width) as jax writes it: ceil(n / 2) as -floor(-n / 2)
through divide, remainder, sign, compare and select (jax's floor
division), total = max((ceil(n / 2) - 1) * 2 + 4 - n, 0), low total // 2,
high the rest: {pads[0]} at n = {width}. Stride 2, kernel 4.""", res, rt,
            reference(x, k, [2], pads, [1]))


def same_2d(name, h, w, seed):
    rng = np.random.default_rng(seed)
    x, k = ints(rng, [1, h, w, 2], -3, 3), ints(rng, [3, 2, 2, 2], -2, 2)
    p = Prog()
    xt, kt = mty([1, "?", "?", 2], "f32"), mty(k.shape, "f32")
    xa, ka = p.arg(xt, inp(x)), p.arg(kt, inp(k))
    sizes = []
    for d in (1, 2):
        s = p.op(f"stablehlo.get_dimension_size {xa}, dim = {d} : ({xt}) -> tensor<i32>")
        sizes.append(p.op(f"stablehlo.convert {s} : (tensor<i32>) -> tensor<i64>"))
    pad, pt = p.padding([p.same_pad(sizes[0], 3, 2), p.same_pad(sizes[1], 2, 3)])
    rt = mty([1, "?", "?", 2], "f32")
    res = p.dynamic_conv(xa, xt, ka, kt, pad, pt, rt, [2, 3], [1, 1])
    pads = [same_pads(h, 3, 2), same_pads(w, 2, 3)]
    p.write(name, f"""
dynamic_conv on symbolic sizes (--symbolic; tests/run.py also runs it
specialized), 2-d NHWC, "SAME" padding computed as jax.export writes it
from the image's sizes (get_dimension_size, jax's floor division):
strides [2, 3], a 3x2 kernel, padding {pads} at {h}x{w}.""", res, rt,
            reference(x, k, [2, 3], pads, [1, 1]))


def const_2d(name, b, h, w, seed):
    rng = np.random.default_rng(seed)
    x, k = ints(rng, [b, h, w, 2], -3, 3), ints(rng, [2, 3, 2, 3], -2, 2)
    p = Prog()
    xt, kt = mty(["?", "?", "?", 2], "f32"), mty(k.shape, "f32")
    xa = p.arg(xt, inp(x))
    kc = p.op(f"stablehlo.constant dense<{dense(k)}> : {kt}")
    pad = p.op("stablehlo.constant dense<[[1, 0], [0, 2]]> : tensor<2x2xi64>")
    rt = mty(["?", "?", "?", 3], "f32")
    res = p.dynamic_conv(xa, xt, kc, kt, pad, "tensor<2x2xi64>", rt, [1, 2], [2, 1])
    module = ("module @jit_conv attributes {mhlo.num_partitions = 1 : i32, "
              "mhlo.num_replicas = 1 : i32}")
    p.write(name, f"""
dynamic_conv on symbolic sizes (--symbolic; tests/run.py also runs it
specialized) with constant padding [[1, 0], [0, 2]] (a convolution once
folded), 2-d NHWC, batch, height and width symbolic ({b}x{h}x{w} here),
strides [1, 2], rhs_dilation [2, 1], in a module that says
mhlo.num_partitions = 1 (one process: bound symbolically, not a grid).""",
            res, rt, reference(x, k, [1, 2], [(1, 0), (0, 2)], [2, 1]), module)


def main():
    same_1d("symbolic_dynamic_conv.mlir", 8, 1)
    same_1d("symbolic_dynamic_conv_3.mlir", 3, 2)
    same_1d("symbolic_dynamic_conv_1.mlir", 1, 3)
    same_2d("symbolic_dynamic_conv_2d.mlir", 6, 7, 4)
    same_2d("symbolic_dynamic_conv_2d_small.mlir", 2, 1, 5)
    const_2d("symbolic_dynamic_conv_const.mlir", 2, 5, 7, 6)
    const_2d("symbolic_dynamic_conv_const_small.mlir", 1, 2, 1, 7)


if __name__ == "__main__":
    main()
