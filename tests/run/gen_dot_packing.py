#!/usr/bin/python3
"""Writes tests/run/NAME.mlir for NAME in FILES: blocked dot_generals whose
operands codegen/gemm.c packs by its two layout-specific paths: an A
contiguous along M (pack_rows: attention's v as p·v's lhs, the per-head
layout read by the output projection) and a B contiguous along K
(pack_b_kmajor, VL x VL blocks transposed in registers: p·v's p, x @ W^T),
with K not a multiple of VL, K over two KC slices, partial panels of M and
N, f32 and f64. The expected products are computed here by NumPy and
embedded as constants; each case returns `result == expected`.

usage: /usr/bin/python3 gen_dot_packing.py NAME > tests/run/NAME.mlir
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_dot_kernel import generate  # noqa: E402
from gen_packed_weights import dot_case  # noqa: E402

# (kind, element type, lhs shape, rhs shape, lhs batch, rhs batch, lhs contract, rhs contract)
CASES = [
    ("computed", "f32", [2, 21, 3, 10], [2, 3, 37, 21], [0, 2], [0, 1], [1], [3]),  # p·v
    ("computed", "f64", [2, 21, 3, 10], [2, 3, 37, 21], [0, 2], [0, 1], [1], [3]),  # p·v, f64
    ("computed", "f32", [20, 150], [70, 150], [], [], [1], [1]),  # x @ W^T: 2 K slices
    ("computed", "f32", [140, 20], [140, 30], [], [], [0], [0]),  # A along M: 2 K slices
    ("computed", "f32", [2, 24, 19], [24, 40], [], [], [1], [0]),  # output projection
]
FILES = {
    "dot_packing": (CASES, None),
    "dot_packing_threads": (CASES, "--threads=2"),
}


def main():
    generate("gen_dot_packing.py", "dot_packing", FILES,
             ["blocked dot_general whose A is contiguous along M or whose B is",
              "contiguous along K (codegen/gemm.c pack_rows, pack_b_kmajor); the",
              "expected products come from NumPy: each result is `all elements equal`."],
             lambda out, i, c: dot_case(out, i, c[0], *c[1:]))


if __name__ == "__main__":
    main()
