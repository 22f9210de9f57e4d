#!/usr/bin/env python3
"""The JAX workflow end to end: a function exported from JAX to StableHLO
text, compiled by shloc into an object and a header, linked into a C
program (app.c), run, and its result compared with JAX's own.

  build/venv/bin/python examples/jax/export.py SHLOC WORKDIR

The function is a two-layer perceptron whose weights are captured by the
traced function, so JAX writes them into the module as constants and the
C entry takes only the input: int mlp_main(const float *x, float *result0,
void *temp). Prints "jax: N values match (max error E)".
"""
import sys

import jax
import jax.numpy as jnp
import numpy as np

from roundtrip import compare, compile_and_run


def make_model():
    k1, k2, k3 = jax.random.split(jax.random.PRNGKey(0), 3)
    w1 = jax.random.normal(k1, (64, 128), jnp.float32) / 8
    b1 = jnp.linspace(-0.5, 0.5, 128, dtype=jnp.float32)
    w2 = jax.random.normal(k2, (128, 10), jnp.float32) / 8

    def mlp(x):
        h = jax.nn.gelu(x @ w1 + b1)
        return jax.nn.softmax(h @ w2, axis=-1)

    x = jax.random.normal(k3, (8, 64), jnp.float32)
    return mlp, x


def export(f, x):
    """StableHLO text: jax.export (the serializable form) where this JAX has
    it, else jax.jit(f).lower(x).as_text()."""
    if hasattr(jax, "export"):
        return jax.export.export(jax.jit(f))(x).mlir_module()
    return jax.jit(f).lower(x).as_text()


def main():
    shloc, work = sys.argv[1], sys.argv[2]
    f, x = make_model()
    want = np.asarray(jax.jit(f)(x))
    got = compile_and_run(shloc, export(f, x), work, x, want.shape)
    return compare("jax", got, want)


if __name__ == "__main__":
    sys.exit(main())
