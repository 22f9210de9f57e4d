"""The export both bench/symbolic/export_*.py scripts share: jax.export of
a function of float32 arguments with a symbolic batch `b`, written as
StableHLO text."""
import sys

import jax
import jax.numpy as jnp
from jax import export


def write(fn, shapes, default_out):
    """Exports fn at shapes (tuples, "b" for the symbolic batch) to argv[1]
    or default_out."""
    (b,) = export.symbolic_shape("b")
    specs = [jax.ShapeDtypeStruct(tuple(b if d == "b" else d for d in s), jnp.float32)
             for s in shapes]
    text = export.export(jax.jit(fn))(*specs).mlir_module()
    out = sys.argv[1] if len(sys.argv) > 1 else default_out
    with open(out, "w") as f:
        f.write(text)
