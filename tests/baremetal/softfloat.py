#!/usr/bin/env python3
"""Inline float code for targets without the instructions, run (the baremetal stage).

softfloat.mlir's ops (sqrt, maximum, minimum, floor, ceil,
round_nearest_afz, round_nearest_even on f64; the roundings on f32) are
compiled for a Cortex-M4F, whose FPU has no f64 arithmetic and no rounding
instructions: codegen emits its own integer code for them (cg_has_insn),
which the nm checks of baremetal.py only see compiled. softfloat_main.c
runs them under qemu-system-arm on special and random inputs and prints the
result bits; they must equal Python's (math.sqrt is correctly rounded, the
roundings are exact; a NaN may be any NaN).

usage: softfloat.py SHLOC BUILD; closes with `N passed, N failed`.
"""
import math
import os
import random
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CORTEX_M = os.path.join(os.path.dirname(os.path.dirname(HERE)), "examples", "cortex-m")
QEMU = ["qemu-system-arm", "-M", "mps2-an386", "-nographic", "-monitor", "none", "-serial",
        "none", "-semihosting-config", "enable=on,target=native"]
CPU = ["-mcpu=cortex-m4", "-mthumb", "-mfloat-abi=hard", "-mfpu=fpv4-sp-d16"]

F64_OPS = ["sqrt", "maximum", "minimum", "floor", "ceil", "round_nearest_afz",
           "round_nearest_even"]
F32_OPS = ["floor", "ceil", "round_nearest_afz", "round_nearest_even"]


def bits64(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def bits32(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def inputs():
    special = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, 3.0, 4.0, 2.0, 0.25,
               math.inf, -math.inf, math.nan, 5e-324, -5e-324, 2.2250738585072014e-308,
               2.225073858507201e-308, 1.7976931348623157e308, 4503599627370495.5,
               -4503599627370495.5, 4503599627370496.0, 0.49999999999999994, 1e-300,
               123456.789, -98765.4321, 8388607.5, -8388608.5, 1e30, 7.0, 1e-45]
    rng = random.Random(1)
    rand = []
    for _ in range(40):
        e = rng.choice([rng.uniform(-1074, 1024), rng.uniform(-8, 30)])
        rand.append(rng.choice([1, -1]) * rng.random() * 2.0 ** min(e, 1023))
    x = special + rand
    # y: some equal to x (zeros of the other sign), NaN, and others
    y = [-v if v == 0 else (v if i % 5 == 0 else (math.nan if i % 7 == 0 else rng.uniform(-10, 10)))
         for i, v in enumerate(x)]
    return x, y


def sqrt(x):
    return math.nan if x < 0 or math.isnan(x) else math.sqrt(x)


def ieee_max(x, y, is_max):
    """IEEE 754-2019 maximum/minimum: NaN propagates, -0 < +0."""
    if math.isnan(x) or math.isnan(y):
        return math.nan
    if x == y:
        x_neg = math.copysign(1, x) < 0  # max: +0 if either is, min: -0
        return x if x_neg != is_max else y
    return max(x, y) if is_max else min(x, y)


def integral(x, how):
    if not math.isfinite(x) or abs(x) >= 2.0 ** 52:
        return x
    if how == "floor":
        r = math.floor(x)
    elif how == "ceil":
        r = math.ceil(x)
    elif how == "round_nearest_even":
        r = round(x)
    else:  # ties away: |x| - floor(|x|) is exact here
        f = math.floor(abs(x))
        r = math.copysign(f + 1 if abs(x) - f >= 0.5 else f, x)
    return math.copysign(float(r), x)


def expected(x, y):
    out = [[bits64(sqrt(v)) if not math.isnan(sqrt(v)) else None for v in x]]
    for is_max in (True, False):
        out.append([None if math.isnan(ieee_max(a, b, is_max)) else bits64(ieee_max(a, b, is_max))
                    for a, b in zip(x, y)])
    for how in F64_OPS[3:]:
        out.append([None if math.isnan(v) else bits64(integral(v, how)) for v in x])
    x32 = [struct.unpack("<f", struct.pack("<f", v if abs(v) < 3e38 else math.copysign(math.inf, v)))[0]
           if not math.isnan(v) else math.nan for v in x]
    for how in F32_OPS:
        out.append([None if math.isnan(v) else bits32(integral(v, how)) for v in x32])
    return x32, out


def module(n):
    t64, t32 = f"tensor<{n}xf64>", f"tensor<{n}xf32>"
    body = [f"    %r0 = stablehlo.sqrt %x : {t64}",
            f"    %r1 = stablehlo.maximum %x, %y : {t64}",
            f"    %r2 = stablehlo.minimum %x, %y : {t64}"]
    for i, op in enumerate(F64_OPS[3:]):
        body.append(f"    %r{3 + i} = stablehlo.{op} %x : {t64}")
    for i, op in enumerate(F32_OPS):
        body.append(f"    %r{7 + i} = stablehlo.{op} %s : {t32}")
    results = ", ".join([t64] * 7 + [t32] * 4)
    names = ", ".join(f"%r{i}" for i in range(11))
    return (f"func.func @main(%x: {t64}, %y: {t64}, %s: {t32}) -> ({results}) {{\n" +
            "\n".join(body) + f"\n    return {names} : {results}\n}}\n")


def write_inputs(path, x, y, x32):
    def arr(name, kind, vals):
        fmt = "0x%016xull" if kind == "d" else "0x%08xu"
        conv = bits64 if kind == "d" else bits32
        items = ", ".join(fmt % conv(v) for v in vals)
        utype = "uint64_t" if kind == "d" else "uint32_t"
        ftype = "double" if kind == "d" else "float"
        return (f"static const union {{ {utype} u; {ftype} {kind}; }} {name}[N] = {{\n"
                + ",\n".join("  {%s}" % i for i in items.split(", ")) + "};\n")
    with open(path, "w") as f:
        f.write(f"#define N {len(x)}\n" + arr("x64", "d", x) + arr("y64", "d", y) +
                arr("x32", "f", x32))


def main():
    shloc, build = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    work = os.path.join(build, "tests", "baremetal", "softfloat")
    os.makedirs(work, exist_ok=True)
    x, y = inputs()
    x32, want = expected(x, y)
    mlir = os.path.join(work, "softfloat.mlir")
    open(mlir, "w").write(module(len(x)))
    write_inputs(os.path.join(work, "inputs.h"), x, y, x32)
    obj = os.path.join(work, "softfloat.o")
    steps = [[shloc, mlir, "--name=sf", "--target=thumbv7em-none-eabihf", "--cpu=cortex-m4",
              "-o", obj],
             ["arm-none-eabi-gcc"] + CPU + ["-std=c99", "-O2", "-ffreestanding", "-fno-builtin",
              "-nostdlib", "-z", "noexecstack", "-I" + work, "-I" + CORTEX_M,
              "-T", os.path.join(CORTEX_M, "link.ld"), os.path.join(HERE, "softfloat_main.c"),
              os.path.join(CORTEX_M, "startup.c"), obj, "-lgcc", "-o",
              os.path.join(work, "app.elf")]]
    for cmd in steps:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        if r.returncode:
            print(f"FAIL softfloat: {' '.join(cmd[:2])}: {r.stderr[-1500:]}")
            print("0 passed, 1 failed")
            return 1
    r = subprocess.run(QEMU + ["-kernel", os.path.join(work, "app.elf")], capture_output=True,
                       text=True, timeout=300)
    got = (r.stdout + r.stderr).split()
    names = [f"f64 {o}" for o in F64_OPS] + [f"f32 {o}" for o in F32_OPS]
    flat = [(names[k], i, w) for k, ws in enumerate(want) for i, w in enumerate(ws)]
    passed = failed = 0
    if r.returncode or len(got) != len(flat):
        print(f"FAIL softfloat: exit status {r.returncode}, {len(got)} of {len(flat)} values: "
              f"{(r.stdout + r.stderr)[-500:]}")
        return 1
    bad = {}
    for (name, i, w), g in zip(flat, got):
        v = int(g, 16)
        nan = (v & 0x7fffffffffffffff) > 0x7ff0000000000000 if len(g) == 16 else \
              (v & 0x7fffffff) > 0x7f800000
        if (w is None and not nan) or (w is not None and v != w):
            bad.setdefault(name, []).append(f"[{i}] x={x[i]!r}: got {g}, want "
                                            f"{'NaN' if w is None else '%x' % w}")
    for name in names:
        if name in bad:
            failed += 1
            print(f"FAIL softfloat/{name}: " + "; ".join(bad[name][:4]))
        else:
            passed += 1
            print(f"PASS softfloat/{name} ({len(x)} values on Cortex-M4F)")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
