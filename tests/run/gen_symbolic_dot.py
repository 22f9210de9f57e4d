#!/usr/bin/env python3
"""Writes tests/run/symbolic_dot*.mlir: dot_general on symbolic sizes
(codegen/dyndims.c on the GEMM engine: the skinny paths for M <= 8 chosen
at run time, the blocked path beyond, threads) with expected values from
numpy. Operands are integer-valued, so every sum is exact in f32 and f64
and the printed values are integers. Each M is the length of an input
vector x; the lhs is x[i] + p[k] (a dynamic broadcast of each), so the one
program runs at several sizes at once: one symbol per input.

usage: /usr/bin/python3 tests/run/gen_symbolic_dot.py   (writes the files)
"""
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def fmt(a):
    """shloc run's text of an integer-valued array: 2x3xf32=[[1 2 3][4 5 6]]."""
    def rec(x):
        if x.ndim == 0:
            return str(int(x))
        return "[" + ("" if x.ndim > 1 else " ").join(rec(y) for y in x) + "]"
    return "x".join(str(n) for n in a.shape) + ("x" if a.ndim else "") + dtype(a) + "=" + rec(a)


def dtype(a):
    return {np.float32: "f32", np.float64: "f64", np.int32: "i32"}[a.dtype.type]


def mty(shape, t):
    return "tensor<" + "".join(f"{n}x" for n in shape) + t + ">"


def dense(a):
    def rec(x):
        if x.ndim == 0:
            return f"{int(x)}.0"
        return "[" + ", ".join(rec(y) for y in x) + "]"
    return rec(a)


def inp(a):
    return f'--input="{"x".join(str(n) for n in a.shape)}x{dtype(a)}=' + " ".join(
        str(int(v)) for v in a.ravel()) + '"'


class Prog:
    """A program under construction: arguments, body lines, results."""

    def __init__(self):
        self.args, self.body, self.res, self.inputs, self.outputs = [], [], [], [], []
        self.n = 0

    def name(self):
        self.n += 1
        return f"%v{self.n}"

    def arg(self, a, ty):
        name = f"%a{len(self.args)}"
        self.args.append(f"{name}: {ty}")
        self.inputs.append(inp(a))
        return name

    def op(self, text):
        v = self.name()
        self.body.append(f"  {v} = {text}")
        return v

    def const(self, a, t):
        return self.op(f"stablehlo.constant dense<{dense(a)}> : {mty(a.shape, t)}")

    def shape(self, dyn, static):
        """The shape [dim(dyn, 0)] + static as a tensor<Nxi32>."""
        n = self.op(f"stablehlo.get_dimension_size {dyn[0]}, dim = 0 : ({dyn[1]}) -> tensor<i32>")
        parts = [self.op(f"stablehlo.reshape {n} : (tensor<i32>) -> tensor<1xi32>")]
        for s in static:
            parts.append(self.op(f"stablehlo.constant dense<{s}> : tensor<1xi32>"))
        v = parts[0]
        for k, p in enumerate(parts[1:]):
            v = self.op(f"stablehlo.concatenate {v}, {p}, dim = 0 : (tensor<{k + 1}xi32>, "
                        f"tensor<1xi32>) -> tensor<{k + 2}xi32>")
        return v, len(parts)

    def lhs(self, x, t, static, pat):
        """x[i] + pat[...] broadcast to [len(x)] + static: the value and numpy's."""
        xa = self.arg(x, mty(["?"], t))
        shp, r = self.shape((xa, mty(["?"], t)), static)
        rt = mty(["?"] + static, t)
        xb = self.op(f"stablehlo.dynamic_broadcast_in_dim {xa}, {shp}, dims = [0] : "
                     f"({mty(['?'], t)}, tensor<{r}xi32>) -> {rt}")
        pc = self.const(pat, t)
        dims = ", ".join(str(d + 1) for d in range(len(static)))
        pb = self.op(f"stablehlo.dynamic_broadcast_in_dim {pc}, {shp}, dims = [{dims}] : "
                     f"({mty(static, t)}, tensor<{r}xi32>) -> {rt}")
        v = self.op(f"stablehlo.add {xb}, {pb} : {rt}")
        return v, rt, x.reshape([-1] + [1] * len(static)) + pat

    def dot(self, a, at, b, bt, rt, dims, want):
        self.res.append((self.op(f"stablehlo.dot_general {a}, {b}, {dims} : ({at}, {bt}) -> {rt}"), rt))
        self.outputs.append(fmt(want))

    def write(self, name, comment, extra="", by="gen_symbolic_dot.py"):
        with open(os.path.join(HERE, name), "w") as f:
            for line in comment.strip().splitlines():
                f.write(f"// {line}\n")
            f.write(f"// Written by {by} (numpy {np.__version__} values).\n")
            f.write(f"// RUN-ARGS: --symbolic{extra}\n")
            for i in self.inputs:
                f.write(f"// RUN-ARGS: {i}\n")
            for o in self.outputs:
                f.write(f"// OUTPUT: {o}\n")
            rts = ", ".join(t for _, t in self.res)
            f.write(f"func.func public @main({', '.join(self.args)}) -> ({rts}) {{\n")
            f.write("\n".join(self.body) + "\n")
            f.write(f"  return {', '.join(v for v, _ in self.res)} : {rts}\n}}\n")


def ints(rng, shape, lo, hi, dt):
    return rng.integers(lo, hi + 1, size=shape).astype(dt)


def matmul_cases(name, comment, ms, k, n, dt, t, transposed, extra=""):
    """One x @ W (or x @ W^T) per M in ms, W a constant K x N."""
    rng = np.random.default_rng(7)
    p = Prog()
    w = ints(rng, [k, n], -4, 4, dt)
    wc = p.const(w.T if transposed else w, t)
    wt = mty([n, k] if transposed else [k, n], t)
    pat = ints(rng, [k], -3, 3, dt)
    for m in ms:
        a, at, av = p.lhs(ints(rng, [m], -4, 4, dt), t, [k], pat)
        dims = "contracting_dims = [1] x [1]" if transposed else "contracting_dims = [1] x [0]"
        p.dot(a, at, wc, wt, mty(["?", n], t), dims, av @ w)
    p.write(name, comment, extra)


def batched(name, comment, b, m, k, n, dt, t, extra=""):
    """[b, m, k] x [b, k, n] with a symbolic batch b (both operands)."""
    rng = np.random.default_rng(11)
    p = Prog()
    x = ints(rng, [b], -3, 3, dt)
    a, at, av = p.lhs(x, t, [m, k], ints(rng, [m, k], -3, 3, dt))
    c, ct, cv = p.lhs(x, t, [k, n], ints(rng, [k, n], -3, 3, dt))
    p.dot(a, at, c, ct, mty(["?", m, n], t),
          "batching_dims = [0] x [0], contracting_dims = [2] x [1]", av @ cv)
    p.write(name, comment, extra)


def symbolic_k(name, comment):
    """A symbolic contracting size: a 3 x K by K x 5 from inputs, f64."""
    rng = np.random.default_rng(13)
    p = Prog()
    a = ints(rng, [3, 130], -4, 4, np.float64)
    w = ints(rng, [130, 5], -4, 4, np.float64)
    at, wt = mty([3, "?"], "f64"), mty(["?", 5], "f64")
    av, wv = p.arg(a, at), p.arg(w, wt)
    p.dot(av, at, wv, wt, mty([3, 5], "f64"), "contracting_dims = [1] x [0]", a @ w)
    a2 = ints(rng, [37, 130], -4, 4, np.float64)
    a2t = mty([37, "?"], "f64")
    a2v = p.arg(a2, a2t)
    p.dot(a2v, a2t, wv, wt, mty([37, 5], "f64"), "contracting_dims = [1] x [0]", a2 @ w)
    p.write(name, comment)


def fused_chain(name, comment):
    """An elementwise chain on a symbolic batch: fused into one loop (its
    one user each), into a reduce, and a value with several users kept."""
    rng = np.random.default_rng(17)
    p = Prog()
    x = ints(rng, [5, 37], -3, 3, np.float32)
    bias = ints(rng, [37], -3, 3, np.float32)
    xt, rt = mty(["?", 37], "f32"), mty(["?", 37], "f32")
    xa, ba = p.arg(x, xt), p.arg(bias, mty([37], "f32"))
    shp, r = p.shape((xa, xt), [37])

    def splat(c):
        k = p.op(f"stablehlo.constant dense<{c}.0> : tensor<f32>")
        return p.op(f"stablehlo.dynamic_broadcast_in_dim {k}, {shp}, dims = [] : "
                    f"(tensor<f32>, tensor<{r}xi32>) -> {rt}")
    bb = p.op(f"stablehlo.dynamic_broadcast_in_dim {ba}, {shp}, dims = [1] : "
              f"({mty([37], 'f32')}, tensor<{r}xi32>) -> {rt}")
    t1 = p.op(f"stablehlo.multiply {xa}, {splat(2)} : {rt}")
    t2 = p.op(f"stablehlo.add {t1}, {bb} : {rt}")
    t3 = p.op(f"stablehlo.subtract {t2}, {splat(1)} : {rt}")
    t4 = p.op(f"stablehlo.maximum {t3}, {splat(0)} : {rt}")
    sq = p.op(f"stablehlo.multiply {t4}, {t4} : {rt}")
    zero = p.op("stablehlo.constant dense<0.0> : tensor<f32>")
    red = p.op(f"stablehlo.reduce({sq} init: {zero}) applies stablehlo.add across dimensions = [0] : "
               f"({rt}, tensor<f32>) -> tensor<37xf32>")
    it = mty(["?", 37], "i32")
    cv = p.op(f"stablehlo.convert {t4} : ({rt}) -> {it}")
    neg = p.op(f"stablehlo.negate {cv} : {it}")
    y = np.maximum(x * 2 + bias - 1, 0)
    p.res += [(t4, rt), (red, mty([37], "f32")), (neg, it)]
    p.outputs += [fmt(y), fmt((y * y).sum(axis=0)), fmt(-y.astype(np.int32))]
    p.write(name, comment)


def main():
    ms = [1, 3, 8, 37, 100]
    matmul_cases("symbolic_dot.mlir", """
dot_general with a symbolic M (1, 3, 8, 37, 100: one input each) times a
constant 133 x 19: the skinny path picked at run time for M <= 8, the
blocked one beyond; K spans two k blocks, N is not a multiple of the tile.""",
                 ms, 133, 19, np.float32, "f32", False)
    matmul_cases("symbolic_dot_transposed.mlir", """
x @ W^T with a symbolic M (W stored N x K): the skinny dot-product path for
M <= 8, the blocked path packing a K-contiguous B beyond; f64.""",
                 ms, 90, 13, np.float64, "f64", True)
    batched("symbolic_dot_batched.mlir", """
A batched dot_general whose batch size is symbolic on both operands:
[b, 9, 31] x [b, 31, 6] at b = 4.""", 4, 9, 31, 6, np.float32, "f32")
    symbolic_k("symbolic_dot_k.mlir", """
A symbolic contracting size (K = 130 from two inputs, required equal), f64,
with M = 3 (skinny) and M = 37 (blocked).""")
    matmul_cases("symbolic_dot_threads.mlir", """
Symbolic dot_generals large enough to run on two threads: M = 100 splits
its rows, M = 8 (skinny) its columns.""",
                 [8, 100], 200, 170, np.float32, "f32", False, " --threads=2")
    fused_chain("symbolic_fused_chain.mlir", """
An elementwise chain on a symbolic batch (x * 2 + bias - 1, then max 0),
which codegen/dyndims.c computes in one loop; its square fused into a
reduce over the batch; a convert and negate of it, fused too.""")
    batched("symbolic_dot_batched_threads.mlir", """
A batched dot_general with a symbolic batch on two threads (batches split):
[b, 40, 70] x [b, 70, 30] at b = 6.""", 6, 40, 70, 30, np.float32, "f32", " --threads=2")


if __name__ == "__main__":
    main()
