"""The C side of the framework examples: StableHLO text compiled by shloc
(`--name=mlp`), linked into app.c, run on an input array; returns the
result array. Used by export.py (JAX) and ../pytorch/export.py."""
import os
import subprocess

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def compile_and_run(shloc, mlir_text, work, x, out_shape):
    """x: the entry's one f32 argument; out_shape: its one f32 result's shape."""
    os.makedirs(work, exist_ok=True)
    mlir = os.path.join(work, "mlp.mlir")
    with open(mlir, "w") as out:
        out.write(mlir_text)
    obj, app = os.path.join(work, "mlp.o"), os.path.join(work, "app")
    subprocess.run([shloc, mlir, "--name=mlp", "-o", obj], check=True)
    subprocess.run(["cc", "-std=c99", "-Wall", "-Wextra", "-O2", "-I" + work,
                    os.path.join(HERE, "app.c"), obj, "-o", app], check=True)
    xin, yout = os.path.join(work, "x.bin"), os.path.join(work, "y.bin")
    np.asarray(x, np.float32).tofile(xin)
    subprocess.run([app, xin, yout], check=True)
    return np.fromfile(yout, np.float32).reshape(out_shape)


def compare(what, got, want):
    """Both sides compute in f32 with different summation orders and math
    approximations: a few ULPs of values of magnitude about 1. 0 if close."""
    err = float(np.max(np.abs(got - want)))
    if not np.allclose(got, want, rtol=1e-5, atol=1e-6):
        print(f"{what}: results differ (max error {err:.3g})")
        return 1
    print(f"{what}: {got.size} values match (max error {err:.3g})")
    return 0
