#!/usr/bin/env python3
"""Regenerates the test data of tests/bytecode from JAX functions.

Usage (needs jax, jaxlib and flatbuffers, e.g. in build/venv):
    build/venv/bin/python tests/bytecode/gen.py

For each function F below it writes, beside this script:
    F.mlir          the StableHLO text JAX prints (`jax.jit(f).lower(...)
                    .as_text()`)
    F.mlirbc        the same module as a StableHLO portable artifact (VHLO
                    MLIR bytecode) for jaxlib's current StableHLO version
    F.old.mlirbc    the same for the oldest version jaxlib still writes
                    (`get_minimum_version()`), where the function fits in it
    F.input         `// INPUT:` lines for `shloc run` (same inputs for both)
and, for the MLP, `mlp.export.mlirbc` (what `jax.export` serializes:
`exported.mlir_module_serialized`) and `mlp.jaxexport`
(`exported.serialize()`, the flatbuffer that wraps it). tests/run.py (stage `bytecode`) checks that shloc reads each
bytecode file into the same IR as its text and that `shloc run` gives the
same outputs for both; it needs no Python package.
"""
import os

import jax
import jax.numpy as jnp
import numpy as np
from jax import export, lax
from jaxlib.mlir._mlir_libs import _stablehlo as shlo

jax.config.update("jax_enable_x64", True)
# Locations name the op's line in its function only (not the callers
# down to this script's absolute path).
jax.config.update("jax_traceback_in_locations_limit", 1)
HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(10)


def mlp(x, w1, b1, w2, b2):
    h = jax.nn.relu(x @ w1 + b1)
    return jax.nn.softmax(h @ w2 + b2, axis=-1)


def conv(img, k):
    y = lax.conv_general_dilated(img, k, window_strides=(2, 1), padding=((1, 1), (0, 1)),
                                 rhs_dilation=(1, 2),
                                 dimension_numbers=("NHWC", "HWIO", "NHWC"))
    y = jnp.tanh(y)
    return lax.reduce_window(y, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 1, 1, 1), "VALID")


def reduce(x, n):
    return jnp.sum(x, axis=1), jnp.argmax(x, axis=0).astype(jnp.int32), jnp.max(n), jnp.cumsum(n)


def while_loop(x, n):
    def cond(c):
        i, v = c
        return jnp.logical_and(i < n, jnp.sum(v) < 1e6)

    def body(c):
        i, v = c
        return i + 1, v * 1.5 + jnp.sin(v)

    return lax.while_loop(cond, body, (jnp.int32(0), x))


def constants(x):
    """Dense constants of many element types, splat and not."""
    f16 = jnp.array([1.5, -2.25, 65504.0], jnp.float16)
    bf = jnp.array([0.1, 3e38, -7.0], jnp.bfloat16)
    i8 = jnp.array([-128, 0, 127], jnp.int8)
    u8 = jnp.array([0, 200, 255], jnp.uint8)
    i64 = jnp.array([-(2**40), 3, 2**62], jnp.int64)
    b = jnp.array([True, False, True])
    f64 = jnp.array([np.pi, -1e-300, 2.0**70], jnp.float64)
    s = (x + f16.astype(jnp.float32) + bf.astype(jnp.float32) + i8.astype(jnp.float32)
         + u8.astype(jnp.float32))
    return (jnp.where(b, s, -s), i64 * 3 + jnp.int64(7), f64 * 2.0,
            jnp.full((2, 3), 7, jnp.int32), jnp.ones((4,), jnp.bool_))


def gather_dot(x, idx, a, b):
    g = x[idx]                                   # gather
    s = x.at[idx].add(1.0)                       # scatter
    d = jnp.einsum("bij,bjk->bik", a, b)         # batched dot_general
    return g, s, d


def misc(x, y):
    t = jnp.transpose(x).reshape(6, 2)
    c = jnp.concatenate([t, t * 2.0], axis=1)
    p = jnp.pad(c[1:5, ::2], ((1, 0), (0, 2)), constant_values=3.0)
    srt = jnp.sort(y)
    cmp = jnp.where(x > 0.5, x, jnp.floor(x * 4.0))
    return p, srt, cmp, lax.dynamic_slice(y, (2,), (3,))


CASES = [
    ("mlp", mlp, [(4, 8), (8, 16), (16,), (16, 5), (5,)], np.float32),
    ("conv", conv, [(1, 6, 5, 2), (3, 2, 2, 3)], np.float32),
    ("reduce", reduce, [(3, 4), (7,)], [np.float32, np.int32]),
    ("while_loop", while_loop, [(5,), ()], [np.float32, np.int32]),
    ("constants", constants, [(3,)], np.float32),
    ("gather_dot", gather_dot, [(5, 3), (4,), (2, 3, 4), (2, 4, 2)],
     [np.float32, np.int32, np.float32, np.float32]),
    ("misc", misc, [(2, 6), (7,)], np.float32),
]


def relative_locations(fn):
    """Source locations in the artifacts name `gen.py`, not the absolute
    path of whoever ran this script."""
    def fix(code):
        consts = tuple(fix(c) if hasattr(c, "co_filename") else c for c in code.co_consts)
        return code.replace(co_filename="gen.py", co_consts=consts)
    fn.__code__ = fix(fn.__code__)
    return fn


def sample(shape, dtype):
    if dtype == np.int32:
        if shape == (4,):
            return np.array([4, 0, 2, 2], np.int32)
        if shape == ():
            return np.int32(5)
        return rng.integers(-50, 50, shape).astype(np.int32)
    return rng.standard_normal(shape).astype(dtype)


def input_line(v):
    v = np.asarray(v)
    ty = {np.float32: "f32", np.int32: "i32"}[v.dtype.type]
    spec = "x".join(str(d) for d in v.shape) + ("x" if v.shape else "") + ty
    vals = " ".join(repr(float(e)) if ty == "f32" else str(int(e)) for e in v.reshape(-1))
    return f"// INPUT: {spec}={vals}\n"


def write(name, data):
    mode = "wb" if isinstance(data, bytes) else "w"
    with open(os.path.join(HERE, name), mode) as f:
        f.write(data)


def main():
    current, oldest = shlo.get_current_version(), shlo.get_minimum_version()
    for name, fn, shapes, dtypes in CASES:
        fn = relative_locations(fn)
        if not isinstance(dtypes, list):
            dtypes = [dtypes] * len(shapes)
        args = [sample(s, d) for s, d in zip(shapes, dtypes)]
        lowered = jax.jit(fn).lower(*args)
        write(f"{name}.mlir", lowered.as_text())
        write(f"{name}.input", "".join(input_line(a) for a in args))
        module = lowered.compiler_ir("stablehlo")
        write(f"{name}.mlirbc", shlo.serialize_portable_artifact(module, current))
        try:
            write(f"{name}.old.mlirbc", shlo.serialize_portable_artifact(module, oldest))
        except Exception as e:  # a feature newer than the oldest version
            print(f"{name}: no {oldest} artifact ({e})")
        if name == "mlp":
            specs = [jax.ShapeDtypeStruct(s, d) for s, d in zip(shapes, dtypes)]
            exported = export.export(jax.jit(fn))(*specs)
            write("mlp.export.mlirbc", exported.mlir_module_serialized)
            write("mlp.jaxexport", bytes(exported.serialize()))
    print(f"StableHLO {current} and {oldest}")


if __name__ == "__main__":
    relative_locations(main)()
