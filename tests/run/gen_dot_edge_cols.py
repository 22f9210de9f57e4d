#!/usr/bin/python3
"""Writes tests/run/NAME.mlir for NAME in FILES: dot_generals whose N is
not a multiple of the microkernel's NR (64 f32 or 32 f64 columns with
AVX-512), whose last panel codegen/gemm.c (cols_tile) runs with a
microkernel of fewer vectors, alone and with M not a multiple of MR (the
variant of fewer rows and fewer vectors). The expected products are
computed here by NumPy and embedded as constants; each case returns
`result == expected`.

usage: /usr/bin/python3 gen_dot_edge_cols.py NAME > tests/run/NAME.mlir
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_dot_kernel import generate  # noqa: E402
from gen_packed_weights import dot_case  # noqa: E402

# (kind, element type, lhs shape, rhs shape, lhs batch, rhs batch, lhs contract, rhs contract)
CASES = [
    ("computed", "f32", [3, 13, 32], [3, 79, 32], [0], [0], [2], [2]),  # attention's q k^T
    ("computed", "f32", [9, 24], [24, 104], [], [], [1], [0]),          # 64 + 40: 3 vectors
    ("dot", "f32", [12, 40], [40, 79], [], [], [1], [0]),               # constant weights
    ("computed", "f64", [20, 20], [20, 70], [], [], [1], [0]),          # 2 x 32 + 6: 1 vector
]
FILES = {
    "dot_edge_cols": (CASES, None),
    "dot_edge_cols_threads": (CASES, "--threads=2"),
}


def main():
    generate("gen_dot_edge_cols.py", "dot_edge_cols", FILES,
             ["dot_general with N not a multiple of NR: the last panel's microkernel",
              "has fewer vectors (codegen/gemm.c cols_tile); the expected products",
              "come from NumPy: each result is `all elements equal`."],
             lambda out, i, c: dot_case(out, i, c[0], *c[1:]))


if __name__ == "__main__":
    main()
