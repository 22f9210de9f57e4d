#!/usr/bin/env python3
"""Writes tests/run/fft_numpy.mlir: stablehlo.fft (codegen/fft.c) of all
four kinds over one, two and three dimensions, on prime, composite, odd,
even and power-of-two lengths, unit dimensions and batches, against
numpy.fft computed here in float64 from the same inputs.

complex<f32> and f32 results must be the float64 transform rounded once:
check.expect_close within 1 ulp (the f64 arithmetic's own error can move
a rounding by one ulp), which fails where the intermediate values of a
transform over several dimensions are rounded to f32 between the 1-D
transforms (this file's 2-D and 3-D cases were then 226 to 9369 ulp off).
f64 results are checked against numpy's float64 transform by
check.expect_almost_eq with an absolute tolerance of 1e-12 times the
largest magnitude of the expected result (two f64 algorithms agree that
closely; an ulp distance would not hold for elements near zero).

fft_numpy_threads.mlir: a complex<f32> FFT large enough to be split
across two threads (32768 result elements), each with its scratch slice;
its operand is computed in the program from an iota (exact integer
arithmetic, then exact scaling), so that only the expected value is
stored.

usage: /usr/bin/python3 tests/run/gen_fft.py NAME > tests/run/NAME.mlir
(NAME: fft_numpy, fft_numpy_threads)
"""
import sys

import numpy as np

rng = np.random.default_rng(17)

# (kind, operand shape, fft_length, part type): the operand is complex
# except for RFFT.
CASES = [
    ("FFT", [2, 15, 16, 17], [15, 16, 17], "f32"),   # 3-D: composite, power of 2, prime
    ("FFT", [3, 17, 13], [17, 13], "f32"),           # 2-D primes
    ("FFT", [4, 31], [31], "f32"),                   # 1-D prime
    ("IFFT", [2, 12, 16], [12, 16], "f32"),
    ("IFFT", [3, 5, 7, 11], [5, 7, 11], "f32"),
    ("RFFT", [2, 6, 10, 17], [6, 10, 17], "f32"),    # odd last length
    ("RFFT", [4, 9, 16], [9, 16], "f32"),            # even last length
    ("RFFT", [3, 1, 7], [1, 7], "f32"),              # a unit transformed dimension
    ("IRFFT", [3, 7, 9], [7, 16], "f32"),
    ("IRFFT", [2, 5, 11, 8], [5, 11, 15], "f32"),
    ("IRFFT", [5, 10], [18], "f32"),
    ("FFT", [2, 15, 16], [15, 16], "f64"),
    ("IFFT", [3, 5, 7, 11], [5, 7, 11], "f64"),
    ("RFFT", [3, 10, 17], [10, 17], "f64"),
    ("IRFFT", [2, 9, 5], [9, 8], "f64"),
]

# The threaded file: above codegen/kernel.c's PARALLEL_MIN_ELEMS, 2 batches.
THREADED = ("FFT", [2, 128, 128], [128, 128], "f32")

NUMPY = {"FFT": np.fft.fftn, "IFFT": np.fft.ifftn, "RFFT": np.fft.rfftn, "IRFFT": np.fft.irfftn}


def ty(shape, et):
    return "tensor<" + "".join(f"{d}x" for d in shape) + et + ">"


def hexlit(a):
    return 'dense<"0x' + np.ascontiguousarray(a).tobytes().hex().upper() + '">'


def zero_noise(want):
    """want with the parts numpy's float64 roundoff left where the exact
    value is 0 (the imaginary parts of bins that symmetry makes real) set
    to 0: within 1e-13 of the largest magnitude, far below what the random
    data's transforms reach otherwise."""
    eps = 1e-13 * float(np.abs(want).max())
    parts = [np.where(np.abs(p) < eps, 0.0, p) for p in (want.real, want.imag)]
    return parts[0] + 1j * parts[1] if np.iscomplexobj(want) else parts[0]


def iota_operand(n, shape):
    """Lines computing a complex<f32> operand of the shape in the program,
    and its value: v = (k^2 7919 + k 104729) mod 65521 of the linear index
    k, real part (v mod 251 - 125) / 128, imaginary part ((v / 251) mod
    251 - 125) / 128 (every step exact in i64 and f32)."""
    size = int(np.prod(shape))
    ti, tf = ty([size], "i64"), ty([size], "f32")
    lines = [f"  %k{n} = stablehlo.iota dim = 0 : {ti}"]
    def c(name, v, t):
        lines.append(f"  %{name}{n} = stablehlo.constant dense<{v}> : {t}")
    def op(name, o, a, b, t):
        lines.append(f"  %{name}{n} = stablehlo.{o} %{a}{n}, %{b}{n} : {t}")
    for name, v in [("c7919_", 7919), ("c104729_", 104729), ("c65521_", 65521), ("c251_", 251), ("c125_", 125)]:
        c(name, v, ti)
    op("kk", "multiply", "k", "k", ti)
    op("a", "multiply", "kk", "c7919_", ti)
    op("b", "multiply", "k", "c104729_", ti)
    op("ab", "add", "a", "b", ti)
    op("v", "remainder", "ab", "c65521_", ti)
    op("q", "divide", "v", "c251_", ti)
    c("scale", 0.0078125, tf)
    for part, src in (("re", "v"), ("im", "q")):
        op(part + "m", "remainder", src, "c251_", ti)
        op(part + "s", "subtract", part + "m", "c125_", ti)
        lines.append(f"  %{part}f{n} = stablehlo.convert %{part}s{n} : ({ti}) -> {tf}")
        op(part + "x", "multiply", part + "f", "scale", tf)
        lines.append(f"  %{part}{n} = stablehlo.reshape %{part}x{n} : ({tf}) -> {ty(shape, 'f32')}")
    lines.append(f"  %x{n} = stablehlo.complex %re{n}, %im{n} : {ty(shape, 'complex<f32>')}")
    k = np.arange(size, dtype=np.int64)
    v = (k * k * 7919 + k * 104729) % 65521
    re, im = (v % 251 - 125) / 128, ((v // 251) % 251 - 125) / 128
    return lines, (re + 1j * im).astype(np.complex64).reshape(shape)


def case(n, kind, shape, length, part, from_iota=False):
    real = np.float32 if part == "f32" else np.float64
    cplx = np.complex64 if part == "f32" else np.complex128
    if from_iota:
        xlines, x = iota_operand(n, shape)
    else:
        x = rng.standard_normal(shape).astype(real)
        if kind != "RFFT":
            x = (x + 1j * rng.standard_normal(shape).astype(real)).astype(cplx)
    axes = tuple(range(-len(length), 0))
    wide = x.astype(np.complex128 if kind != "RFFT" else np.float64)
    want = NUMPY[kind](wide, s=length, axes=axes)
    want = zero_noise(want).astype(real if kind == "IRFFT" else cplx)
    et_in = part if kind == "RFFT" else f"complex<{part}>"
    et_out = part if kind == "IRFFT" else f"complex<{part}>"
    tin, tout = ty(shape, et_in), ty(list(want.shape), et_out)
    lens = ", ".join(str(v) for v in length)
    if not from_iota:
        xlines = [f"  %x{n} = stablehlo.constant {hexlit(x)} : {tin}"]
    out = [f"  // {kind} {shape} length {length} ({part})"] + xlines + [
           f"  %r{n} = stablehlo.fft %x{n}, type = {kind}, length = [{lens}] : ({tin}) -> {tout}",
           f"  %w{n} = stablehlo.constant {hexlit(want)} : {tout}"]
    if part == "f32":
        out.append(f"  check.expect_close %r{n}, %w{n}, max_ulp_difference = 1 : {tout}, {tout}")
    else:
        tol = 1e-12 * float(np.abs(want).max())
        out.append(f"  check.expect_almost_eq %r{n}, %w{n}, tolerance = {tol:.3e} : {tout}")
    return out


def main():
    name = sys.argv[1]
    threaded = name == "fft_numpy_threads"
    paras = __doc__.split("\n\n")
    for para in paras[:2] + (paras[2:3] if threaded else []):
        for line in para.splitlines():
            print("// " + line)
    print(f"// Generated by tests/run/gen_fft.py {name}; edit that, not this file.")
    print("// RUN-CMD: check")
    print("// RUN-ARGS: --threads=2")
    if not threaded:
        print("// RUN-ALSO: --threads=1")
    print("// OUTPUT: 1 passed, 0 failed")
    print("func.func @main() {")
    cases = [case(0, *THREADED, from_iota=True)] if threaded else [case(n, *c) for n, c in enumerate(CASES)]
    for lines in cases:
        for line in lines:
            print(line)
    print("  return")
    print("}")


if __name__ == "__main__":
    main()
