#!/usr/bin/env python3
"""Writes tests/run/NAME.mlir for NAME in FILES: the blocked dot_general
kernel (codegen/dot.c, gemm.c) against a reference made of
broadcast_in_dim, multiply and reduce, which codegen computes elementally,
on integer-valued inputs so that every sum is exact in f32 and f64. Each
case returns `all elements equal`.

usage: gen_dot_kernel.py NAME > tests/run/NAME.mlir
"""
import sys

# (element type, lhs shape, rhs shape, lhs batch, rhs batch, lhs contract, rhs contract)
CASES = [
    ("f32", [37, 300], [300, 45], [], [], [1], [0]),         # plain, odd M and N
    ("f32", [37, 300], [45, 300], [], [], [1], [1]),         # x @ W^T
    ("f32", [300, 37], [300, 45], [], [], [0], [0]),         # A^T @ B
    ("f32", [3, 37, 70], [3, 70, 45], [0], [0], [2], [1]),   # batched
    ("f64", [37, 300], [300, 45], [], [], [1], [0]),         # f64 tiles
    ("f32", [600, 260], [260, 130], [], [], [1], [0]),       # several cache blocks
    ("f32", [0, 30], [30, 5], [], [], [1], [0]),             # M = 0
    ("f32", [9, 0], [0, 5], [], [], [1], [0]),               # K = 0: zeros
    ("f32", [64], [64, 70], [], [], [0], [0]),               # vector-matrix
    ("f32", [150, 400], [150, 70], [], [], [0], [0]),        # transposed, tall
    ("f64", [5, 2, 40, 30], [2, 30, 5, 9], [1, 0], [0, 2], [3], [1]),  # permuted batches
    ("f32", [5, 70, 37], [70, 45], [], [], [1], [0]),        # lhs (b, k, m): b a batch B lacks
    ("f64", [3, 4, 30, 20], [3, 30, 25], [0], [0], [2], [1]),  # a batch and such a b
]

# The skinny paths (gemm.c: M <= 8 rows, A contiguous along K; B along N
# streamed, or B along K as dot products): M from 1 to 8 and 9 (the blocked
# path again), N with and without a partial strip or block, K not a
# multiple of the k block, the unroll or the vector, K = 0, batches, f64.
SKINNY = [
    ("f32", [7, 300], [300, 100], [], [], [1], [0]),         # M = 7, a partial strip
    ("f32", [1, 7, 301], [301, 53], [], [], [2], [0]),       # a unit dim, K % 4 = 1
    ("f32", [130], [130, 257], [], [], [0], [0]),            # vector-matrix, M = 1
    ("f32", [1, 130], [130, 64], [], [], [1], [0]),          # M = 1, full strips only
    ("f32", [2, 50], [50, 9], [], [], [1], [0]),             # M = 2, one partial strip
    ("f64", [3, 77], [77, 33], [], [], [1], [0]),            # f64, M = 3
    ("f32", [5, 19], [19, 40], [], [], [1], [0]),            # M = 5, K < the k block
    ("f32", [8, 40], [40, 70], [], [], [1], [0]),            # M = 8, the largest
    ("f32", [7, 150], [150, 1024], [], [], [1], [0]),        # 4 KiB rows (one L1 set), K % 16 = 6
    ("f32", [2, 70], [70, 1040], [], [], [1], [0]),          # M = 2, K = 4 blocks + 6
    ("f32", [9, 40], [40, 70], [], [], [1], [0]),            # M = 9: not skinny
    ("f32", [12, 7, 64], [12, 64, 7], [0], [0], [2], [1]),   # attention scores
    ("f32", [1, 12, 7, 7], [1, 12, 7, 64], [0, 1], [0, 1], [3], [2]),  # attention values
    ("f32", [8, 0], [0, 33], [], [], [1], [0]),              # K = 0: zeros
    # B contiguous along K (x @ W^T): the dots path
    ("f32", [7, 30], [45, 30], [], [], [1], [1]),            # M = 7, K % 8 = 6
    ("f32", [1, 768], [203, 768], [], [], [1], [1]),         # M = 1, N % NB = 3, full vectors
    ("f32", [130], [37, 130], [], [], [0], [1]),             # vector-matrix
    ("f32", [3, 5], [11, 5], [], [], [1], [1]),              # K < one vector
    ("f32", [8, 0], [9, 0], [], [], [1], [1]),               # K = 0: zeros
    ("f64", [2, 41], [19, 41], [], [], [1], [1]),            # f64
    ("f32", [12, 7, 64], [12, 7, 64], [0], [0], [2], [2]),   # attention scores, K^T
]

# Shapes whose split across threads is over rows, columns or batches past
# a unit result dimension 0 (kernel.c asks cg_dot_split).
SPLIT = [
    ("f32", [1, 7, 768], [768, 96], [], [], [2], [0]),       # skinny: columns split
    ("f32", [1, 7, 40], [40, 3100], [], [], [2], [0]),       # skinny: 4 calls of 775 columns
    ("f32", [7, 64], [64, 5, 300], [], [], [1], [0]),        # skinny: 3 + 2 of 5 x 300
    ("f32", [5, 150], [150, 1024], [], [], [1], [0]),        # skinny: 4 KiB rows, split
    ("f32", [1, 130, 200], [200, 48], [], [], [2], [0]),     # rows, past a unit dim
    ("f32", [1, 6, 40, 70], [1, 6, 70, 30], [0, 1], [0, 1], [3], [2]),  # batch dim 1
    ("f32", [4, 50, 33], [50, 40], [], [], [1], [0]),        # lhs (b, k, m): b split
]

# M not a multiple of MR (6 on AVX-512, f32 and f64): the last tile runs
# the microkernel of M % MR rows (gemm.c slice_tile), with edge columns,
# several K slices, packed A, batches; split across threads, a call's last
# tile may be shorter than M % MR (137 rows: 69 + 68, 68 = 11 x 6 + 2),
# and rows that span two result dimensions split as row tiles of C, not
# of the first dimension (cg_dot_split: 5 x 77 = 385 rows, 65 tiles of 6
# on AVX-512, cut inside a 77);
# K over several of the deeper slices of a dot that packs B per call.
TAIL = [
    ("f32", [128, 70], [70, 45], [], [], [1], [0]),          # BERT's M: 2 rows, edge panel
    ("f32", [41, 300], [300, 70], [], [], [1], [0]),         # 5 rows, 3 K slices
    ("f32", [130, 40], [130, 70], [], [], [0], [0]),         # A^T (packed A): 4 rows
    ("f32", [3, 129, 64], [3, 64, 130], [0], [0], [2], [1]), # attention-like, 3 rows
    ("f64", [2, 33, 150], [2, 150, 20], [0], [0], [2], [1]), # f64, 3 rows, 2 K slices
    ("f32", [1, 137, 200], [200, 48], [], [], [2], [0]),     # rows split: 5, or 2 of a call
    ("f32", [5, 77, 100], [100, 90], [], [], [2], [0]),      # row tiles of 5 x 77 split, inside a 77
    ("f32", [41, 2100], [2100, 70], [], [], [1], [0]),       # deep K slices: 420 x 5 (equal)
    ("f64", [2, 13, 1030], [2, 1030, 20], [0], [0], [2], [1]),  # f64, deep K slices: 344 + 344 + 342
]

FILES = {
    "dot_kernel": (CASES, None,
                   "Odd shapes, transposed operands, batches, f64, M = 0, K = 0."),
    "dot_skinny": (SKINNY, None,
                   "The skinny path: M = 1 to 8, partial strips, odd K, K = 0, batches."),
    "dot_skinny_threads": (SKINNY + SPLIT, "--threads=2",
                           "The same and larger ones split across two threads."),
    "dot_tail": (TAIL, None, "M not a multiple of MR: the last tile's microkernel of M % MR rows."),
    "dot_tail_threads": (TAIL, "--threads=2", "The same split across two threads."),
}

# value = (c0 * i[r-2] + c1 * i[r-1] + sum of the other indices) % cm - co
LHS_K = (7.0, 3.0, 11.0, 5.0)
RHS_K = (5.0, 2.0, 13.0, 6.0)


def tensor(shape, ty):
    return "tensor<" + "".join(f"{d}x" for d in shape) + ty + ">"


def operand(out, name, shape, ty, k):
    """Lines defining %name as integer-valued data of the given shape."""
    t = tensor(shape, ty)
    r = len(shape)
    weights = {r - 1: k[1]} if r == 1 else {r - 2: k[0], r - 1: k[1]}
    terms = []
    for d in range(r):
        out.append(f"  %{name}_i{d} = stablehlo.iota dim = {d} : {t}")
        w = weights.get(d, 1.0)
        if w != 1.0:
            out.append(f"  %{name}_w{d} = stablehlo.constant dense<{w}> : {t}")
            out.append(f"  %{name}_p{d} = stablehlo.multiply %{name}_i{d}, %{name}_w{d} : {t}")
            terms.append(f"%{name}_p{d}")
        else:
            terms.append(f"%{name}_i{d}")
    acc = terms[0]
    for i, term in enumerate(terms[1:]):
        out.append(f"  %{name}_s{i} = stablehlo.add {acc}, {term} : {t}")
        acc = f"%{name}_s{i}"
    out.append(f"  %{name}_cm = stablehlo.constant dense<{k[2]}> : {t}")
    out.append(f"  %{name}_co = stablehlo.constant dense<{k[3]}> : {t}")
    out.append(f"  %{name}_r = stablehlo.remainder {acc}, %{name}_cm : {t}")
    out.append(f"  %{name} = stablehlo.subtract %{name}_r, %{name}_co : {t}")


def case(out, n, ty, ls, rs, lb, rb, lc, rc):
    operand(out, f"a{n}", ls, ty, LHS_K)
    operand(out, f"b{n}", rs, ty, RHS_K)
    lf = [d for d in range(len(ls)) if d not in lb and d not in lc]
    rf = [d for d in range(len(rs)) if d not in rb and d not in rc]
    res = [ls[d] for d in lb] + [ls[d] for d in lf] + [rs[d] for d in rf]
    full = res + [ls[d] for d in lc]  # the product before the reduction
    nb, nlf, nrf = len(lb), len(lf), len(rf)

    def place(d, batch, free, contract, free_base):
        if d in batch:
            return batch.index(d)
        if d in free:
            return free_base + free.index(d)
        return nb + nlf + nrf + contract.index(d)

    ldims = [place(d, lb, lf, lc, nb) for d in range(len(ls))]
    rdims = [place(d, rb, rf, rc, nb + nlf) for d in range(len(rs))]
    lt, rt, t, ft = tensor(ls, ty), tensor(rs, ty), tensor(res, ty), tensor(full, ty)
    j = lambda l: ", ".join(map(str, l))
    out.append(f"  %d{n} = stablehlo.dot_general %a{n}, %b{n}, batching_dims = [{j(lb)}] x [{j(rb)}], "
               f"contracting_dims = [{j(lc)}] x [{j(rc)}] : ({lt}, {rt}) -> {t}")
    out.append(f"  %ba{n} = stablehlo.broadcast_in_dim %a{n}, dims = [{j(ldims)}] : ({lt}) -> {ft}")
    out.append(f"  %bb{n} = stablehlo.broadcast_in_dim %b{n}, dims = [{j(rdims)}] : ({rt}) -> {ft}")
    out.append(f"  %m{n} = stablehlo.multiply %ba{n}, %bb{n} : {ft}")
    out.append(f"  %z{n} = stablehlo.constant dense<0.0> : tensor<{ty}>")
    red = list(range(len(res), len(full)))
    out.append(f"  %ref{n} = stablehlo.reduce(%m{n} init: %z{n}) applies stablehlo.add across "
               f"dimensions = [{j(red)}] : ({ft}, tensor<{ty}>) -> {t}")
    all_equal(out, n, f"%d{n}", f"%ref{n}", res, ty)


def all_equal(out, n, got, want, shape, ty):
    """%ok{n} = whether every element of got equals want's (both of shape)."""
    t, bt = tensor(shape, ty), tensor(shape, "i1")
    dims = ", ".join(map(str, range(len(shape))))
    out.append(f"  %eq{n} = stablehlo.compare EQ, {got}, {want} : ({t}, {t}) -> {bt}")
    out.append(f"  %t{n} = stablehlo.constant dense<true> : tensor<i1>")
    out.append(f"  %ok{n} = stablehlo.reduce(%eq{n} init: %t{n}) applies stablehlo.and across "
               f"dimensions = [{dims}] : ({bt}, tensor<i1>) -> tensor<i1>")


def generate(script, default, files, what, case):
    """print_module for the file named by argv[1] (else `default`) of
    `files` (name: (cases, run args[, args of more runs])), with
    case(out, n, c) for each."""
    name = sys.argv[1] if len(sys.argv) > 1 else default
    cases, run_args, *also = files[name]
    print_module(script, name, run_args, what, [lambda out, i, c=c: case(out, i, c) for c in cases],
                 also=also[0] if also else ())


def print_module(script, name, run_args, what, cases, params=(), also=()):
    """Prints the test file: the comment lines `what`, one `all elements
    equal` output per case, and @main(params) returning each case's %ok;
    `cases` is a list of functions case(out, n) appending case n's ops;
    each of `also` the args of one more run (RUN-ALSO)."""
    n = len(cases)
    for line in what:
        print("// " + line)
    gen = f"{script} {name}".rstrip()
    print(f"// Generated by tests/run/{gen}; edit that, not this file.")
    if run_args:
        print(f"// RUN-ARGS: {run_args}")
    for a in also:
        print(f"// RUN-ALSO: {a}")
    for _ in range(n):
        print("// OUTPUT: i1=1")
    oks = ", ".join(["tensor<i1>"] * n)
    print(f"func.func @main({', '.join(params)}) -> ({oks}) {{")
    out = []
    for i, c in enumerate(cases):
        c(out, i)
    print("\n".join(out))
    print(f"  return {', '.join(f'%ok{i}' for i in range(n))} : {oks}")
    print("}")


def main():
    name = sys.argv[1] if len(sys.argv) > 1 else "dot_kernel"
    cases, run_args, what = FILES[name]
    print_module("gen_dot_kernel.py", name, run_args,
                 ["The blocked dot_general kernel (codegen/dot.c, gemm.c) against a reference",
                  "made of broadcast, multiply and reduce, on integer-valued inputs so",
                  "that every sum is exact: each result is `all elements equal`.", what],
                 [lambda out, i, c=c: case(out, i, *c) for c in cases])


if __name__ == "__main__":
    main()
