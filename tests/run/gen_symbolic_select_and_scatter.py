#!/usr/bin/env python3
"""Writes tests/run/symbolic_select_and_scatter*.mlir: one select_and_scatter
program on symbolic sizes (both dimensions of the operand and of the
source are `?`), run at two sizes, with expected values from a plain
Python walk of the spec ("select_and_scatter"): for each source element in
row-major order, the first element of its window (row-major, padding
skipped) that no later one beats under `select` = GE receives it through
`scatter` = add.

usage: /usr/bin/python3 tests/run/gen_symbolic_select_and_scatter.py
"""
import numpy as np

from gen_symbolic_dot import Prog, fmt, mty

WINDOW, STRIDES, PAD_LO, PAD_HI = (2, 3), (2, 2), (1, 0), (0, 1)
INIT = 1


def num_windows(n, d):
    """spec "select_and_scatter" (C2): windows of the padded operand."""
    return max((n + PAD_LO[d] + PAD_HI[d] - WINDOW[d]) // STRIDES[d] + 1, 0)


def reference(operand, source):
    result = np.full(operand.shape, INIT, operand.dtype)
    for i in range(source.shape[0]):
        for j in range(source.shape[1]):
            best = None
            for wi in range(WINDOW[0]):
                for wj in range(WINDOW[1]):
                    r, c = i * STRIDES[0] + wi - PAD_LO[0], j * STRIDES[1] + wj - PAD_LO[1]
                    if not (0 <= r < operand.shape[0] and 0 <= c < operand.shape[1]):
                        continue
                    # select(best, current) = best >= current keeps the first of equals.
                    if best is None or not operand[best] >= operand[r, c]:
                        best = (r, c)
            if best is not None:
                result[best] += source[i, j]
    return result


def case(name, comment, rows, cols, seed):
    rng = np.random.default_rng(seed)
    # Few distinct values, so windows hold ties; -x < 0, so a padding
    # element read as 0 would win its window.
    x = rng.integers(1, 5, size=(rows, cols)).astype(np.float32)
    src = rng.integers(1, 10, size=(num_windows(rows, 0), num_windows(cols, 1))).astype(np.float32)
    p = Prog()
    t = mty(["?", "?"], "f32")
    xa, sa = p.arg(x, t), p.arg(src, t)
    neg = p.op(f"stablehlo.negate {xa} : {t}")
    init = p.op(f"stablehlo.constant dense<{INIT}.0> : tensor<f32>")
    pad = ", ".join(f"[{lo}, {hi}]" for lo, hi in zip(PAD_LO, PAD_HI))
    sas = p.op(f"""\"stablehlo.select_and_scatter\"({neg}, {sa}, {init}) ({{
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ge = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %ge : tensor<i1>
  }}, {{
  ^bb0(%acc: tensor<f32>, %g: tensor<f32>):
    %sum = stablehlo.add %acc, %g : tensor<f32>
    stablehlo.return %sum : tensor<f32>
  }}) {{window_dimensions = array<i64: {WINDOW[0]}, {WINDOW[1]}>, window_strides = array<i64: {STRIDES[0]}, {STRIDES[1]}>, padding = dense<[{pad}]> : tensor<2x2xi64>}} : ({t}, {t}, tensor<f32>) -> {t}""")
    p.res.append((sas, t))
    p.outputs.append(fmt(reference(-x, src)))
    p.write(name, comment, by="gen_symbolic_select_and_scatter.py")


def main():
    about = """
select_and_scatter on symbolic sizes (--symbolic; tests/run.py also runs it
specialized) of a fused operand, -x: the minimum of x per window (first of
equals) gets the source value, added to init 1. Window 2x3, strides 2x2,
padding [[1, 0], [0, 1]] (the first row of windows and the last column
reach into it): the source has floor((n - 1) / 2) + 1 rows and
floor((m - 2) / 2) + 1 columns, checked at entry (spec C2)."""
    case("symbolic_select_and_scatter.mlir", about + "\nA 5x6 operand, a 3x3 source.", 5, 6, 3)
    case("symbolic_select_and_scatter_small.mlir",
         about + "\nThe same program at a 2x4 operand and a 1x2 source.", 2, 4, 5)


if __name__ == "__main__":
    main()
