#!/usr/bin/python3
"""Writes tests/run/NAME.mlir for NAME in FILES: dot_general whose leading
lhs free dimensions do not collapse with the rows (a transposed lhs
(b, k, m) contracting k), which codegen/dot.c runs as batches of the GEMM
with B's batch stride 0. The expected products are computed here by NumPy
and embedded as constants; each case returns `result == expected`.

usage: /usr/bin/python3 gen_dot_peeled.py NAME > tests/run/NAME.mlir
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_dot_kernel import generate  # noqa: E402
from gen_packed_weights import dot_case  # noqa: E402

# (element type, lhs shape, rhs shape, lhs batch, rhs batch, lhs contract, rhs contract)
CASES = [
    ("f32", [5, 70, 37], [70, 45], [], [], [1], [0]),           # (b, k, m) @ (k, n)
    ("f64", [3, 4, 30, 20], [3, 30, 25], [0], [0], [2], [1]),   # a batch, then such a b
    ("f32", [2, 3, 40, 9], [40, 33], [], [], [2], [0]),          # two leading free dims
]
FILES = {
    "dot_peeled": (CASES, None),
    "dot_peeled_threads": ([("f32", [4, 50, 33], [50, 40], [], [], [1], [0])] + CASES[:1],
                           "--threads=2"),
}


def main():
    generate("gen_dot_peeled.py", "dot_peeled", FILES,
             ["dot_general with leading lhs free dimensions that do not collapse with",
              "the rows (codegen/dot.c: batches of the GEMM that B lacks); the expected",
              "products come from NumPy: each result is `all elements equal`."],
             lambda out, i, c: dot_case(out, i, "dot", *c))


if __name__ == "__main__":
    main()
