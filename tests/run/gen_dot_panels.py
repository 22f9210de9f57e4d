#!/usr/bin/python3
"""Writes tests/run/NAME.mlir for NAME in FILES: blocked dot_generals on
two paths of codegen/gemm.c's panels:
- dot_edge_cols: N not a multiple of the microkernel's NR (64 f32 or 32
  f64 columns with AVX-512), whose last panel runs with a microkernel of
  fewer vectors (cols_tile), alone and with M not a multiple of MR (the
  variant of fewer rows and fewer vectors);
- dot_pack_tile: a B computed in the program, packed at run time by the
  first row tile of each full panel (gemm.c packing_tile), with the
  sizes' edges: rows fewer than MR or not a multiple, two deep K slices,
  a last panel narrower than NR, f64, batches, two blocks of rows;
- dot_col_pieces: a B packed at run time whose columns threads split in
  pieces, one call each, K in equal deep slices;
- dot_packing: operands packed by the two layout-specific paths, an A
  contiguous along M (pack_rows: attention's v as p·v's lhs, the per-head
  layout read by the output projection) and a B contiguous along K
  (pack_b_kmajor, VL x VL blocks transposed in registers: p·v's p,
  x @ W^T), with K not a multiple of VL, K over two KC slices, partial
  panels of M and N, f32 and f64.
The expected products are computed here by NumPy and embedded as
constants; each case returns `result == expected`.

usage: /usr/bin/python3 gen_dot_panels.py NAME > tests/run/NAME.mlir
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_dot_kernel import print_module  # noqa: E402
from gen_packed_weights import dot_case  # noqa: E402

# (kind, element type, lhs shape, rhs shape, lhs batch, rhs batch, lhs contract, rhs contract)
EDGE_COLS = [
    ("computed", "f32", [3, 13, 32], [3, 79, 32], [0], [0], [2], [2]),  # attention's q k^T
    ("computed", "f32", [9, 24], [24, 104], [], [], [1], [0]),          # 64 + 40: 3 vectors
    ("dot", "f32", [12, 40], [40, 79], [], [], [1], [0]),               # constant weights
    ("computed", "f64", [20, 20], [20, 70], [], [], [1], [0]),          # 2 x 32 + 6: 1 vector
]

PACKING = [
    ("computed", "f32", [2, 21, 3, 10], [2, 3, 37, 21], [0, 2], [0, 1], [1], [3]),  # p·v
    ("computed", "f64", [2, 21, 3, 10], [2, 3, 37, 21], [0, 2], [0, 1], [1], [3]),  # p·v, f64
    ("computed", "f32", [20, 150], [70, 150], [], [], [1], [1]),  # x @ W^T: 2 K slices
    ("computed", "f32", [140, 20], [140, 30], [], [], [0], [0]),  # A along M: 2 K slices
    ("computed", "f32", [2, 24, 19], [24, 40], [], [], [1], [0]),  # output projection
]

# B computed (not a constant), packed at run time: each full panel by its
# first row tile (the microkernel's _pack variant), a narrower last one by
# pack_strided; K over two deep slices (300 + 300), M not a multiple of MR
# and below it, N past whole panels.
PACK_TILE = [
    ("computed", "f32", [9, 600], [600, 130], [], [], [1], [0]),   # 6 + 3 rows, 2 + 1 panels
    ("computed", "f32", [130, 520], [520, 300], [], [], [1], [0]),  # 21 x 6 + 4 rows, 4 + 1 panels
    ("computed", "f32", [600, 3], [600, 70], [], [], [0], [0]),    # A along M (Ap), 3 rows
    ("computed", "f64", [13, 40], [40, 70], [], [], [1], [0]),     # f64: 2 panels of 32 + 6
    ("computed", "f32", [2, 11, 30], [2, 30, 128], [0], [0], [2], [1]),  # batches
    ("computed", "f32", [530, 20], [20, 65], [], [], [1], [0]),    # 2 blocks of rows (288 + 242)
]

# B computed, packed at run time, the columns split by threads in pieces
# of panels (2 threads: 1 + 4 + 2 + 1 + 1 of the 9 panels a thread of an N
# of 1100), each call after its last K slice prefetching the panel where
# the next piece or block of rows begins (gemm.c next_panel); K in equal
# slices not a multiple of anything (700: 350 + 350, 1100: 367 + 367 +
# 366), N not a multiple of NR, M from 9 to 130 (past the skinny path), blocks of rows
# (600 x 300: 300 + 300 rows, one slice, on every target);
# tall dots (512 rows or more a batch and K over 512: on AVX2 and on
# AVX-512 but Zen 4/5 K in slices of up to 1024, all rows one block, gemm.c
# gemm_plan_deep): 520 in one slice (2 blocks and 2 slices elsewhere), 1100 = 550 + 550 and M not
# a multiple of MR, f64 (1030 = 515 + 515), and batches of 512 rows with
# K = 700 in one slice.
COL_PIECES = [
    ("computed", "f32", [130, 700], [700, 260], [], [], [1], [0]),   # 21 x 6 + 4 rows, 4 + 1 panels
    ("computed", "f32", [61, 1100], [1100, 200], [], [], [1], [0]),  # 3 slices, 3 + 1 panels
    ("computed", "f32", [9, 600], [600, 1100], [], [], [1], [0]),    # 17 + 1 panels
    ("computed", "f32", [13, 700], [700, 300], [], [], [1], [0]),    # 2 x 6 + 1 rows
    ("computed", "f32", [9, 600], [600, 257], [], [], [1], [0]),     # 6 + 3 rows, 4 + 1 panels
    ("computed", "f64", [20, 600], [600, 200], [], [], [1], [0]),    # f64: 6 + 1 panels of 32
    ("computed", "f32", [530, 520], [520, 9], [], [], [1], [0]),     # kc_tall: 1 slice; else 2 blocks, 2 slices
    ("computed", "f32", [600, 300], [300, 10], [], [], [1], [0]),    # 2 blocks of rows on every target
    ("computed", "f32", [515, 1100], [1100, 26], [], [], [1], [0]),  # tall: 128 x 4 + 3 rows
    ("computed", "f64", [520, 1030], [1030, 14], [], [], [1], [0]),  # tall f64: 1 + 1 panels
    ("computed", "f32", [2, 512, 700], [2, 700, 20], [0], [0], [2], [1]),  # tall batches
]

EDGE_COLS_WHAT = ["dot_general with N not a multiple of NR: the last panel's microkernel",
                  "has fewer vectors (codegen/gemm.c cols_tile); the expected products",
                  "come from NumPy: each result is `all elements equal`."]
PACKING_WHAT = ["blocked dot_general whose A is contiguous along M or whose B is",
                "contiguous along K (codegen/gemm.c pack_rows, pack_b_kmajor); the",
                "expected products come from NumPy: each result is `all elements equal`."]
PACK_TILE_WHAT = ["blocked dot_general whose B is packed at run time by the first row tile",
                  "of each panel (codegen/gemm.c packing_tile); the expected products",
                  "come from NumPy: each result is `all elements equal`."]
COL_PIECES_WHAT = ["blocked dot_general whose B is packed at run time, its columns split by",
                   "threads in pieces (codegen/gemm.c next_panel), K in equal deep slices;",
                   "the expected products come from NumPy: each result is `all elements equal`."]
# name: (cases, run args, comment lines)
FILES = {
    "dot_edge_cols": (EDGE_COLS, None, EDGE_COLS_WHAT),
    "dot_edge_cols_threads": (EDGE_COLS, "--threads=2", EDGE_COLS_WHAT),
    "dot_packing": (PACKING, None, PACKING_WHAT),
    "dot_packing_threads": (PACKING, "--threads=2", PACKING_WHAT),
    "dot_pack_tile": (PACK_TILE, None, PACK_TILE_WHAT),
    "dot_pack_tile_threads": (PACK_TILE, "--threads=2", PACK_TILE_WHAT),
    "dot_col_pieces": (COL_PIECES, None, COL_PIECES_WHAT),
    "dot_col_pieces_threads": (COL_PIECES, "--threads=2", COL_PIECES_WHAT),
}


def main():
    name = sys.argv[1]
    cases, run_args, what = FILES[name]
    print_module("gen_dot_panels.py", name, run_args, what,
                 [lambda out, i, c=c: dot_case(out, i, *c) for c in cases])


if __name__ == "__main__":
    main()
