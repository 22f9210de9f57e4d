#!/usr/bin/env python3
"""Writes tests/run/row_kernels.mlir: the row kernels of passes/fuse.c
(softmax, layernorm, sibling reductions, per-row values from reduces) on
odd row lengths, rows of length 1, one row of rank 1, f64, and a kernel
large enough to be split across threads, against values computed here
with numpy in float64, each by check.expect_almost_eq (|result -
expected| <= tol): the check reads the result from memory, so the row
kernel is the result's own kernel (not fused into a comparison).

usage: /usr/bin/python3 tests/run/gen_row_kernels.py > tests/run/row_kernels.mlir
"""
import numpy as np

rng = np.random.default_rng(6)
cases = []  # (name, input arrays, body lines, result value, result type, expected, tol)


def ty(shape, et="f32"):
    return "tensor<" + "".join(f"{d}x" for d in shape) + et + ">"


def lit(a, et="f32"):
    fmt = (lambda v: repr(float(np.float32(v)))) if et == "f32" else (lambda v: repr(float(v)))
    def rec(x):
        if x.ndim == 0:
            return fmt(x)
        return "[" + ", ".join(rec(y) for y in x) + "]"
    return f"dense<{rec(a)}>"


def softmax_case(name, shape, et="f32", scale=3.0):
    x = (rng.standard_normal(shape) * scale).astype(np.float64 if et == "f64" else np.float32)
    t, r = ty(shape, et), ty(shape[:-1], et)
    n = len(shape)
    outer = ", ".join(str(d) for d in range(n - 1))
    body = [
        f"%ninf = stablehlo.constant dense<0xFF{'F0' + '0' * 12 if et == 'f64' else '800000'}> : tensor<{et}>",
        f"%zero = stablehlo.constant dense<0.0> : tensor<{et}>",
        f"%m = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [{n - 1}] : ({t}, tensor<{et}>) -> {r}",
        f"%mb = stablehlo.broadcast_in_dim %m, dims = [{outer}] : ({r}) -> {t}",
        f"%d = stablehlo.subtract %x, %mb : {t}",
        f"%e = stablehlo.exponential %d : {t}",
        f"%s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [{n - 1}] : ({t}, tensor<{et}>) -> {r}",
        f"%sb = stablehlo.broadcast_in_dim %s, dims = [{outer}] : ({r}) -> {t}",
        f"%y = stablehlo.divide %e, %sb : {t}",
    ]
    x64 = x.astype(np.float64)
    e = np.exp(x64 - x64.max(-1, keepdims=True))
    cases.append((name, [x], body, "%y", t, e / e.sum(-1, keepdims=True), 1e-12 if et == "f64" else 1e-6, et))


def layernorm_case(name, shape):
    """Two passes as JAX exports it: the mean, then the mean of squared
    deviations (through [.., 1] shapes and broadcasts, like BERT's); gamma
    and beta over the row."""
    x = (rng.standard_normal(shape) * 2 + 0.5).astype(np.float32)
    g = rng.standard_normal(shape[-1:]).astype(np.float32)
    b = rng.standard_normal(shape[-1:]).astype(np.float32)
    n = len(shape)
    t, r, r1 = ty(shape, "f32"), ty(shape[:-1], "f32"), ty(shape[:-1] + [1], "f32")
    outer = ", ".join(str(d) for d in range(n - 1))
    allr = ", ".join(str(d) for d in range(n))
    vec = ty(shape[-1:], "f32")
    body = [
        "%zero = stablehlo.constant dense<0.0> : tensor<f32>",
        f"%cnt = stablehlo.constant dense<{float(shape[-1])}> : {r1}",
        f"%eps = stablehlo.constant dense<1.0e-5> : {r1}",
        f"%s = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [{n - 1}] : ({t}, tensor<f32>) -> {r}",
        f"%s1 = stablehlo.broadcast_in_dim %s, dims = [{outer}] : ({r}) -> {r1}",
        f"%mean = stablehlo.divide %s1, %cnt : {r1}",
        f"%mb = stablehlo.broadcast_in_dim %mean, dims = [{allr}] : ({r1}) -> {t}",
        f"%c = stablehlo.subtract %x, %mb : {t}",
        f"%sq = stablehlo.multiply %c, %c : {t}",
        f"%v = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [{n - 1}] : ({t}, tensor<f32>) -> {r}",
        f"%v1 = stablehlo.reshape %v : ({r}) -> {r1}",
        f"%var = stablehlo.divide %v1, %cnt : {r1}",
        f"%ve = stablehlo.add %var, %eps : {r1}",
        f"%rs = stablehlo.rsqrt %ve : {r1}",
        f"%rb = stablehlo.broadcast_in_dim %rs, dims = [{allr}] : ({r1}) -> {t}",
        f"%nrm = stablehlo.multiply %c, %rb : {t}",
        f"%gb = stablehlo.broadcast_in_dim %g, dims = [{n - 1}] : ({vec}) -> {t}",
        f"%bb = stablehlo.broadcast_in_dim %b, dims = [{n - 1}] : ({vec}) -> {t}",
        f"%yg = stablehlo.multiply %nrm, %gb : {t}",
        f"%y = stablehlo.add %yg, %bb : {t}",
    ]
    x64 = x.astype(np.float64)
    m = x64.mean(-1, keepdims=True)
    v = ((x64 - m) ** 2).mean(-1, keepdims=True)
    cases.append((name, [x, g, b], body, "%y", t, (x64 - m) / np.sqrt(v + 1e-5) * g + b, 2e-5, "f32"))


def siblings_case(name, shape):
    """One pass: the sum and the sum of squares of a row are independent
    (siblings), var = E[x^2] - E[x]^2; the output x * rsqrt(var + 1)."""
    x = (rng.standard_normal(shape)).astype(np.float32)
    n = len(shape)
    t, r = ty(shape, "f32"), ty(shape[:-1], "f32")
    outer = ", ".join(str(d) for d in range(n - 1))
    body = [
        "%zero = stablehlo.constant dense<0.0> : tensor<f32>",
        f"%cnt = stablehlo.constant dense<{float(shape[-1])}> : {r}",
        f"%one = stablehlo.constant dense<1.0> : {r}",
        f"%s = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [{n - 1}] : ({t}, tensor<f32>) -> {r}",
        f"%xx = stablehlo.multiply %x, %x : {t}",
        f"%q = stablehlo.reduce(%xx init: %zero) applies stablehlo.add across dimensions = [{n - 1}] : ({t}, tensor<f32>) -> {r}",
        f"%m = stablehlo.divide %s, %cnt : {r}",
        f"%m2 = stablehlo.multiply %m, %m : {r}",
        f"%q1 = stablehlo.divide %q, %cnt : {r}",
        f"%var = stablehlo.subtract %q1, %m2 : {r}",
        f"%ve = stablehlo.add %var, %one : {r}",
        f"%rs = stablehlo.rsqrt %ve : {r}",
        f"%rb = stablehlo.broadcast_in_dim %rs, dims = [{outer}] : ({r}) -> {t}",
        f"%y = stablehlo.multiply %x, %rb : {t}",
    ]
    x64 = x.astype(np.float64)
    var = (x64 ** 2).mean(-1, keepdims=True) - x64.mean(-1, keepdims=True) ** 2
    cases.append((name, [x], body, "%y", t, x64 / np.sqrt(var + 1), 1e-5, "f32"))


def log_softmax_returned_max_case(name, shape):
    """log_softmax, x - max - log(sum(exp(x - max))), whose max is also
    returned: the max stays a kernel of its own (a value read outside the
    row kernel), the rest is one row kernel."""
    x = (rng.standard_normal(shape) * 4).astype(np.float32)
    n = len(shape)
    t, r = ty(shape, "f32"), ty(shape[:-1], "f32")
    outer = ", ".join(str(d) for d in range(n - 1))
    body = [
        "%ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>",
        "%zero = stablehlo.constant dense<0.0> : tensor<f32>",
        f"%m = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [{n - 1}] : ({t}, tensor<f32>) -> {r}",
        f"%mb = stablehlo.broadcast_in_dim %m, dims = [{outer}] : ({r}) -> {t}",
        f"%d = stablehlo.subtract %x, %mb : {t}",
        f"%e = stablehlo.exponential %d : {t}",
        f"%s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [{n - 1}] : ({t}, tensor<f32>) -> {r}",
        f"%ls = stablehlo.log %s : {r}",
        f"%lb = stablehlo.broadcast_in_dim %ls, dims = [{outer}] : ({r}) -> {t}",
        f"%y = stablehlo.subtract %d, %lb : {t}",
    ]
    x64 = x.astype(np.float64)
    d = x64 - x64.max(-1, keepdims=True)
    cases.append((name, [x], body, "%y", t, d - np.log(np.exp(d).sum(-1, keepdims=True)), 2e-5, "f32"))


def scaled_softmax_reshaped_case(name, shape):
    """BERT's attention softmax: the scores divided by 8 (two users, the
    max and the subtract: recomputed from the row, not stored), the
    softmax reshaped for the dot that reads it (the row kernel is the
    divide under the reshape)."""
    x = (rng.standard_normal(shape) * 20).astype(np.float32)
    n = len(shape)
    t, r, o = ty(shape, "f32"), ty(shape[:-1], "f32"), ty(shape[1:], "f32")
    outer = ", ".join(str(d) for d in range(n - 1))
    body = [
        "%ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>",
        "%zero = stablehlo.constant dense<0.0> : tensor<f32>",
        "%c8 = stablehlo.constant dense<8.0> : tensor<f32>",
        f"%c8b = stablehlo.broadcast_in_dim %c8, dims = [] : (tensor<f32>) -> {t}",
        f"%xs = stablehlo.divide %x, %c8b : {t}",
        f"%m = stablehlo.reduce(%xs init: %ninf) applies stablehlo.maximum across dimensions = [{n - 1}] : ({t}, tensor<f32>) -> {r}",
        f"%mb = stablehlo.broadcast_in_dim %m, dims = [{outer}] : ({r}) -> {t}",
        f"%d = stablehlo.subtract %xs, %mb : {t}",
        f"%e = stablehlo.exponential %d : {t}",
        f"%s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [{n - 1}] : ({t}, tensor<f32>) -> {r}",
        f"%sb = stablehlo.broadcast_in_dim %s, dims = [{outer}] : ({r}) -> {t}",
        f"%sm = stablehlo.divide %e, %sb : {t}",
        f"%y = stablehlo.reshape %sm : ({t}) -> {o}",
    ]
    xs = x.astype(np.float64) / 8
    e = np.exp(xs - xs.max(-1, keepdims=True))
    want = (e / e.sum(-1, keepdims=True)).reshape(shape[1:])
    cases.append((name, [x], body, "%y", o, want, 1e-6, "f32"))


def threaded_case(name, reps, rows, length):
    """A softmax of reps x rows x length elements (above kernel.c's
    PARALLEL_MIN_ELEMS, so split across threads by its first dimension):
    x[a, b, j] = c[j] * (1 + b), so that rows differ and the expected
    values are those of `rows` distinct rows."""
    c = rng.standard_normal([length]).astype(np.float32)
    shape = [reps, rows, length]
    t, r = ty(shape, "f32"), ty(shape[:-1], "f32")
    body = [
        "%ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>",
        "%zero = stablehlo.constant dense<0.0> : tensor<f32>",
        f"%k = stablehlo.iota dim = 1 : {t}",
        f"%one = stablehlo.constant dense<1.0> : {t}",
        f"%k1 = stablehlo.add %k, %one : {t}",
        f"%cb = stablehlo.broadcast_in_dim %x, dims = [2] : ({ty([length], 'f32')}) -> {t}",
        f"%xs = stablehlo.multiply %cb, %k1 : {t}",
        f"%m = stablehlo.reduce(%xs init: %ninf) applies stablehlo.maximum across dimensions = [2] : ({t}, tensor<f32>) -> {r}",
        f"%mb = stablehlo.broadcast_in_dim %m, dims = [0, 1] : ({r}) -> {t}",
        f"%d = stablehlo.subtract %xs, %mb : {t}",
        f"%e = stablehlo.exponential %d : {t}",
        f"%s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [2] : ({t}, tensor<f32>) -> {r}",
        f"%sb = stablehlo.broadcast_in_dim %s, dims = [0, 1] : ({r}) -> {t}",
        f"%y = stablehlo.divide %e, %sb : {t}",
    ]
    xs = c.astype(np.float64)[None, :] * (1 + np.arange(rows))[:, None]
    e = np.exp(xs - xs.max(-1, keepdims=True))
    want = e / e.sum(-1, keepdims=True)
    cases.append((name, [c], body, "%y", t, want, 1e-6, "f32", ([rows, length], [1, 2])))


def print_module(header, cases, threads):
    """Prints the comment lines of `header`, the check directives, one
    private function per case and a main that calls each on its inputs (as
    constants) and compares the result with the expected value. A case:
    (name, inputs, body lines, result, result type, expected, tol, element
    type[, (shape, broadcast dims)]): with the last, the expected value has
    that shape and is broadcast to the result type."""
    for line in header:
        print("// " + line)
    print("// RUN-CMD: check")
    if threads:
        print("// RUN-ARGS: --threads=2")
    print("// OUTPUT: 1 passed, 0 failed")
    for name, ins, body, res, t, want, tol, et, *_ in cases:
        args = ", ".join(f"%{a}: {ty(list(x.shape), et)}" for a, x in zip("xgb", ins))
        print(f"func.func private @{name}({args}) -> {t} {{")
        for line in body:
            print("  " + line)
        print(f"  return {res} : {t}")
        print("}")
    print("func.func @main() {")
    for name, ins, body, res, t, want, tol, et, *bcast in cases:
        names = []
        for a, x in zip("xgb", ins):
            print(f"  %{name}_{a} = stablehlo.constant {lit(x, et)} : {ty(list(x.shape), et)}")
            names.append(f"%{name}_{a}")
        print(f"  %{name}_r = func.call @{name}({', '.join(names)}) : "
              f"({', '.join(ty(list(x.shape), et) for x in ins)}) -> {t}")
        if bcast:
            shape, dims = bcast[0]
            wt = ty(shape, et)
            print(f"  %{name}_w0 = stablehlo.constant {lit(want.reshape(shape), et)} : {wt}")
            print(f"  %{name}_w = stablehlo.broadcast_in_dim %{name}_w0, dims = {dims} : ({wt}) -> {t}")
        else:
            print(f"  %{name}_w = stablehlo.constant {lit(want, et)} : {t}")
        print(f"  check.expect_almost_eq %{name}_r, %{name}_w, tolerance = {tol:.1e} : {t}")
    print("  return")
    print("}")


def main():
    softmax_case("softmax_12x7x7", [12, 7, 7])
    softmax_case("softmax_4x100", [4, 100])
    softmax_case("softmax_rows_of_1", [5, 1])
    softmax_case("softmax_rank1_37", [37])
    softmax_case("softmax_f64_3x17", [3, 17], "f64")
    layernorm_case("layernorm_1x7x33", [1, 7, 33])
    layernorm_case("layernorm_2x3x1", [2, 3, 1])
    siblings_case("siblings_4x19", [4, 19])
    log_softmax_returned_max_case("log_softmax_3x9", [3, 9])
    scaled_softmax_reshaped_case("scaled_softmax_1x3x5x6", [1, 3, 5, 6])
    threaded_case("softmax_threads_16x5x512", 16, 5, 512)
    softmax_case("softmax_2x3x79", [2, 3, 79])  # searchless_chess: masked tails in the reduces
    print_module([
        "Row kernels (passes/fuse.c fuse_rows, codegen/kernel.c row_loops):",
        "softmax, layernorm, sibling reductions and per-row values computed",
        "once per row, on odd row lengths, rows of length 1, a rank-1 row,",
        "f64, and a kernel split across two threads, against numpy in",
        "float64: check.expect_almost_eq, |r - e| <= tol (absolute).",
        "Generated by tests/run/gen_row_kernels.py; edit that, not this file.",
    ], cases, True)


if __name__ == "__main__":
    main()
