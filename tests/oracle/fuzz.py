#!/usr/bin/env python3
"""Differential fuzzer: random well-typed StableHLO programs through shloc
at -O0 and -O3 and through XLA's CPU compiler, on random inputs.

usage: build/venv/bin/python tests/oracle/fuzz.py [-n N] [--seed S] [--keep DIR]
A program is a DAG of 3..14 ops over random shapes (rank 0..4) and element
types (f32, f64, i32): elementwise unary and binary ops, compare + select,
broadcast_in_dim, reshape, transpose, slice, concatenate, pad, reverse,
reduce (add, max), dot_general (with batch dims), convolution (strides,
padding, dilation), gather and dynamic_slice (indices partly out of range,
which the spec clamps), convert, while (counted loops) and if. Everything is
written in the generic op form, which both parsers accept.

Results are compared as in oracle.py (integers exactly, floats within the
tolerance of bound.py); an f32 result beyond that bound is compared with
the f64 run of the same program (XLA), where shloc's error may be at most 4
times XLA's plus the bound (see `within`). A mismatch is minimized by delta debugging over the
ops (an op is removed by turning its results into arguments; outputs are
dropped one at a time) and saved as a tests/run-style case under
tests/oracle/pending/ with XLA's values as the expected output. A program
that XLA rejects is a generator bug and is counted as invalid (one that
crashes XLA is counted apart, with its seed); one that
shloc rejects with a diagnostic is counted as unsupported (with the
message); a crash is a mismatch. Closes with the counts.
"""
import argparse
import os
import random
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "bench", "models"))
sys.path.insert(0, HERE)
os.environ.setdefault("JAX_PLATFORMS", "cpu")
import bound  # noqa: E402
import common  # noqa: E402
from oracle import rel_diff  # noqa: E402

PENDING = os.path.join(HERE, "pending")
NP = {"f32": np.float32, "f64": np.float64, "i32": np.int32, "i1": np.bool_}


def tstr(t):
    shape, e = t
    return "tensor<" + "".join(f"{d}x" for d in shape) + e + ">"


def arr(xs):
    return "array<i64" + (": " + ", ".join(str(x) for x in xs) if xs else "") + ">"


class Op:
    """One op: result (name, type) pairs, operand names, and a renderer
    from operand names to text lines."""

    def __init__(self, results, operands, render):
        self.results, self.operands, self.render = results, operands, render


class Program:
    def __init__(self):
        self.args, self.ops, self.outputs, self.n = [], [], [], 0

    def name(self):
        self.n += 1
        return f"%v{self.n}"

    def text(self):
        used = self.live_ops()
        lines = []
        for op in self.ops:
            if id(op) in used:
                lines += ["    " + l for l in op.render(op.operands)]
        types = {n: t for n, t in self.args}
        for op in self.ops:
            types.update(dict(op.results))
        outs = self.outputs
        sig = ", ".join(f"{n}: {tstr(t)}" for n, t in self.args)
        rt = ", ".join(tstr(types[o]) for o in outs)
        return (f"func.func @main({sig}) -> ({rt}) {{\n" + "\n".join(lines) +
                f"\n    \"func.return\"({', '.join(outs)}) : ({rt}) -> ()\n}}\n")

    def live_ops(self):
        """Ops that an output depends on."""
        need, live = set(self.outputs), set()
        for op in reversed(self.ops):
            if any(n in need for n, _ in op.results):
                live.add(id(op))
                need.update(op.operands)
        return live

    def used_args(self):
        need = set(self.outputs)
        for op in self.ops:
            if id(op) in self.live_ops():
                need.update(op.operands)
        return [(n, t) for n, t in self.args if n in need]


# ---------------------------------------------------------------------------
# the generator


class Gen:
    def __init__(self, rng):
        self.r = rng
        self.p = Program()
        self.pool = []  # (name, type) of values that ops may read

    def new_arg(self, t):
        n = self.p.name()
        self.p.args.append((n, t))
        self.pool.append((n, t))
        return n

    def shape(self, rank=None):
        rank = self.r.choice([0, 1, 2, 2, 3, 3, 4]) if rank is None else rank
        return tuple(self.r.randint(1, 6) for _ in range(rank))

    def value(self, pred=lambda t: True):
        cands = [v for v in self.pool if v[1][1] != "i1" and pred(v[1])]
        if cands and self.r.random() < 0.85:
            return self.r.choice(cands)
        return None

    def same_type(self, t):
        v = self.value(lambda u: u == t)
        return v[0] if v else self.new_arg(t)

    def emit(self, results, operands, render):
        self.p.ops.append(Op(results, operands, render))
        self.pool += results
        return results[0][0]

    def simple(self, opname, operands, in_types, out_t, attrs=""):
        r = self.p.name()
        ins = ", ".join(tstr(t) for t in in_types)
        return self.emit([(r, out_t)], list(operands),
                         lambda o: [f'{r} = "stablehlo.{opname}"({", ".join(o)}) {attrs}'
                                    f' : ({ins}) -> {tstr(out_t)}'])

    def const(self, t, text):
        r = self.p.name()
        return self.emit([(r, t)], [], lambda o: [
            f'{r} = "stablehlo.constant"() {{value = dense<{text}> : {tstr(t)}}} : () -> {tstr(t)}'])

    # op kinds: each reads the pool and adds one value
    def g_binary(self):
        a, t = self.value() or self.fresh()
        ops = ["add", "subtract", "multiply", "maximum", "minimum"]
        if t[1] == "i32":
            ops += ["and", "or", "xor"]
        b = self.same_type(t)
        return self.simple(self.r.choice(ops), [a, b], [t, t], t)

    def g_unary(self):
        a, t = self.value() or self.fresh_of((self.shape(), "f32"))
        if t[1] == "i32":
            return self.simple(self.r.choice(["abs", "negate", "not"]), [a], [t], t)
        op = self.r.choice(["abs", "negate", "tanh", "sine", "cosine", "floor", "ceil", "logistic",
                            "exponential", "sqrt", "log_plus_one", "round_nearest_even"])
        if op in ("exponential",):  # keep it finite: exp(tanh(x))
            a = self.simple("tanh", [a], [t], t)
        if op in ("sqrt", "log_plus_one"):  # inside the domain: of |x|
            a = self.simple("abs", [a], [t], t)
        return self.simple(op, [a], [t], t)

    def g_select(self):
        a, t = self.value() or self.fresh()
        b = self.same_type(t)
        bt = (t[0], "i1")
        d = self.r.choice(["EQ", "NE", "LT", "LE", "GT", "GE"])
        cmp_type = "SIGNED" if t[1] == "i32" else "FLOAT"
        c = self.simple("compare", [a, b], [t, t], bt,
                        f"{{comparison_direction = #stablehlo<comparison_direction {d}>, "
                        f"compare_type = #stablehlo<comparison_type {cmp_type}>}}")
        return self.simple("select", [c, a, b], [bt, t, t], t)

    def fresh(self):
        t = (self.shape(), self.r.choice(["f32", "f32", "f64", "i32"]))
        return self.new_arg(t), t

    def g_broadcast(self):
        a, (shape, e) = self.value(lambda t: len(t[0]) < 4) or self.fresh()
        if len(shape) >= 4:
            return None
        out_rank = self.r.randint(len(shape), 4)
        dims = sorted(self.r.sample(range(out_rank), len(shape)))
        out = [self.r.randint(1, 5) for _ in range(out_rank)]
        for i, d in enumerate(dims):
            out[d] = shape[i] if shape[i] != 1 or self.r.random() < 0.5 else out[d]
        return self.simple("broadcast_in_dim", [a], [(shape, e)], (tuple(out), e),
                           f"{{broadcast_dimensions = {arr(dims)}}}")

    def g_reshape(self):
        a, (shape, e) = self.value() or self.fresh()
        n = int(np.prod(shape, dtype=np.int64))
        out, rest = [], n
        for _ in range(self.r.randint(0, 3)):
            divs = [d for d in range(1, rest + 1) if rest % d == 0]
            d = self.r.choice(divs)
            out.append(d)
            rest //= d
        if rest != 1 or not out:
            out.append(rest)
        return self.simple("reshape", [a], [(shape, e)], (tuple(out), e))

    def g_transpose(self):
        a, (shape, e) = self.value(lambda t: len(t[0]) >= 2) or self.fresh()
        perm = list(range(len(shape)))
        self.r.shuffle(perm)
        return self.simple("transpose", [a], [(shape, e)], (tuple(shape[p] for p in perm), e),
                           f"{{permutation = {arr(perm)}}}")

    def g_slice(self):
        a, (shape, e) = self.value(lambda t: len(t[0]) >= 1) or self.fresh()
        st, li, sd = [], [], []
        for d in shape:
            s = self.r.randint(0, d - 1)
            l = self.r.randint(s + 1, d)
            st.append(s), li.append(l), sd.append(self.r.randint(1, 2))
        out = tuple((l - s + k - 1) // k for s, l, k in zip(st, li, sd))
        return self.simple("slice", [a], [(shape, e)], (out, e),
                           f"{{start_indices = {arr(st)}, limit_indices = {arr(li)}, "
                           f"strides = {arr(sd)}}}")

    def g_concatenate(self):
        a, (shape, e) = self.value(lambda t: len(t[0]) >= 1) or self.fresh()
        if not shape:
            return None
        d = self.r.randrange(len(shape))
        bshape = list(shape)
        bshape[d] = self.r.randint(1, 4)
        b = self.same_type((tuple(bshape), e))
        out = list(shape)
        out[d] += bshape[d]
        return self.simple("concatenate", [a, b], [(shape, e), (tuple(bshape), e)], (tuple(out), e),
                           f"{{dimension = {d} : i64}}")

    def g_pad(self):
        a, (shape, e) = self.value() or self.fresh()
        lo = [self.r.randint(-1 if d > 1 else 0, 2) for d in shape]
        hi = [self.r.randint(-1 if d > 1 else 0, 2) for d in shape]
        it = [self.r.randint(0, 1) for _ in shape]
        out = tuple(l + h + d + max(d - 1, 0) * i for d, l, h, i in zip(shape, lo, hi, it))
        if any(x <= 0 for x in out):
            return None
        pv = self.const(((), e), "0.5" if e != "i32" else "7")
        return self.simple("pad", [a, pv], [(shape, e), ((), e)], (out, e),
                           f"{{edge_padding_low = {arr(lo)}, edge_padding_high = {arr(hi)}, "
                           f"interior_padding = {arr(it)}}}")

    def g_reverse(self):
        a, (shape, e) = self.value(lambda t: len(t[0]) >= 1) or self.fresh()
        dims = sorted(self.r.sample(range(len(shape)), self.r.randint(1, len(shape)))) if shape else []
        return self.simple("reverse", [a], [(shape, e)], (shape, e), f"{{dimensions = {arr(dims)}}}")

    def g_reduce(self):
        a, (shape, e) = self.value(lambda t: len(t[0]) >= 1) or self.fresh()
        if not shape:
            return None
        dims = sorted(self.r.sample(range(len(shape)), self.r.randint(1, len(shape))))
        out = tuple(d for i, d in enumerate(shape) if i not in dims)
        kind = self.r.choice(["add", "maximum"])
        init = {"add": "0" if e == "i32" else "0.0", "maximum": "-2147483648" if e == "i32" else "0xFF800000" if e == "f32"
                else "0xFFF0000000000000"}[kind]
        iv = self.const(((), e), init)
        r, x, y, s = self.p.name(), self.p.name(), self.p.name(), self.p.name()
        st = tstr(((), e))
        return self.emit([(r, (out, e))], [a, iv], lambda o: [
            f'{r} = "stablehlo.reduce"({o[0]}, {o[1]}) ({{',
            f'    ^bb0({x}: {st}, {y}: {st}):',
            f'      {s} = "stablehlo.{kind}"({x}, {y}) : ({st}, {st}) -> {st}',
            f'      "stablehlo.return"({s}) : ({st}) -> ()',
            f'    }}) {{dimensions = {arr(dims)}}} : ({tstr((shape, e))}, {st}) -> {tstr((out, e))}'])

    def g_dot(self):
        e = self.r.choice(["f32", "f32", "f64", "i32"])
        a, (shape, e) = self.value(lambda t: 2 <= len(t[0]) <= 3 and t[1] == e) or \
            self.fresh_of((self.shape(self.r.choice([2, 3])), e))
        batch = len(shape) == 3
        k = shape[-1]
        n = self.r.randint(1, 6)
        bshape = ((shape[0], k, n) if batch else (k, n))
        b = self.same_type((bshape, e))
        out = (shape[0], shape[1], n) if batch else (shape[0], n)
        nums = (f"lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], "
                if batch else "") + \
            f"lhs_contracting_dimensions = [{len(shape) - 1}], rhs_contracting_dimensions = [{1 if batch else 0}]"
        return self.simple("dot_general", [a, b], [(shape, e), (bshape, e)], (out, e),
                           f"{{dot_dimension_numbers = #stablehlo.dot<{nums}>}}")

    def fresh_of(self, t):
        return self.new_arg(t), t

    def g_conv(self):
        e = self.r.choice(["f32", "f32", "f64"])
        n, h, w, c = (self.r.randint(1, 2), self.r.randint(3, 8), self.r.randint(3, 8),
                      self.r.randint(1, 4))
        a, t = self.value(lambda u: len(u[0]) == 4 and u[1] == e and u[0][1] >= 3 and u[0][2] >= 3) \
            or self.fresh_of(((n, h, w, c), e))
        n, h, w, c = t[0]
        kh, kw, o = self.r.randint(1, 3), self.r.randint(1, 3), self.r.randint(1, 4)
        s = [self.r.randint(1, 2) for _ in range(2)]
        rd = [self.r.randint(1, 2) for _ in range(2)]
        pad = [[self.r.randint(0, 1), self.r.randint(0, 1)] for _ in range(2)]
        sp = []
        for i, (x, k) in enumerate(((h, kh), (w, kw))):
            span = x + sum(pad[i]) - ((k - 1) * rd[i] + 1)
            if span < 0:
                return None
            sp.append(span // s[i] + 1)
        kern = self.same_type(((kh, kw, c, o), e))
        out = (n, sp[0], sp[1], o)
        return self.simple("convolution", [a, kern], [t, ((kh, kw, c, o), e)], (out, e),
                           "{batch_group_count = 1 : i64, dimension_numbers = "
                           "#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, "
                           f"feature_group_count = 1 : i64, window_strides = {arr(s)}, "
                           f"padding = dense<{pad}> : tensor<2x2xi64>, lhs_dilation = {arr([1, 1])}, "
                           f"rhs_dilation = {arr(rd)}}}")

    def g_gather(self):
        a, (shape, e) = self.value(lambda t: len(t[0]) == 2) or self.fresh_of((self.shape(2), self.r.choice(["f32", "i32"])))
        k = self.r.randint(1, 5)
        idx = [self.r.randint(-1, shape[0] + 1) for _ in range(k)]  # some out of range: clamped
        size = self.r.randint(1, shape[1])
        iv = self.const(((k, 1), "i32"), "[" + ", ".join(f"[{i}]" for i in idx) + "]")
        return self.simple("gather", [a, iv], [(shape, e), ((k, 1), "i32")], ((k, size), e),
                           "{dimension_numbers = #stablehlo.gather<offset_dims = [1], "
                           "collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, "
                           f"slice_sizes = {arr([1, size])}, indices_are_sorted = false}}")

    def g_dynamic_slice(self):
        a, (shape, e) = self.value(lambda t: len(t[0]) >= 1) or self.fresh()
        sizes = [self.r.randint(1, d) for d in shape]
        starts = [self.const(((), "i32"), str(self.r.randint(-2, d + 1))) for d in shape]
        return self.simple("dynamic_slice", [a] + starts, [(shape, e)] + [((), "i32")] * len(shape),
                           (tuple(sizes), e), f"{{slice_sizes = {arr(sizes)}}}")

    def g_convert(self):
        a, (shape, e) = self.value() or self.fresh()
        to = {"f32": "f64", "f64": "f32", "i32": self.r.choice(["f32", "f64"])}[e]
        return self.simple("convert", [a], [(shape, e)], (shape, to))

    def g_while(self):
        a, t = self.value(lambda u: u[1] != "i32") or self.fresh_of((self.shape(), "f32"))
        trips = self.r.randint(0, 4)
        n = self.p.name
        r, i0, i, x, lim, c, one, i2, y, x2 = (n() for _ in range(10))
        ci, tt = tstr(((), "i32")), tstr(t)
        op = self.r.choice(["tanh", "sine", "cosine"])
        res = [(r + "#0", ((), "i32")), (r + "#1", t)]
        zero = self.const(((), "i32"), "0")

        def render(o):
            return [f'{r}:2 = "stablehlo.while"({o[0]}, {o[1]}) ({{',
                    f'    ^bb0({i}: {ci}, {x}: {tt}):',
                    f'      {lim} = "stablehlo.constant"() {{value = dense<{trips}> : {ci}}} : () -> {ci}',
                    f'      {c} = "stablehlo.compare"({i}, {lim}) {{comparison_direction = '
                    f'#stablehlo<comparison_direction LT>}} : ({ci}, {ci}) -> tensor<i1>',
                    f'      "stablehlo.return"({c}) : (tensor<i1>) -> ()',
                    f'    }}, {{',
                    f'    ^bb0({i}: {ci}, {x}: {tt}):',
                    f'      {one} = "stablehlo.constant"() {{value = dense<1> : {ci}}} : () -> {ci}',
                    f'      {i2} = "stablehlo.add"({i}, {one}) : ({ci}, {ci}) -> {ci}',
                    f'      {y} = "stablehlo.{op}"({x}) : ({tt}) -> {tt}',
                    f'      {x2} = "stablehlo.add"({x}, {y}) : ({tt}, {tt}) -> {tt}',
                    f'      "stablehlo.return"({i2}, {x2}) : ({ci}, {tt}) -> ()',
                    f'    }}) : ({ci}, {tt}) -> ({ci}, {tt})']
        self.p.ops.append(Op(res, [zero, a], render))
        self.pool.append(res[1])
        return res[1][0]

    def g_if(self):
        a, t = self.value() or self.fresh()
        b = self.same_type(t)
        s, st = self.fresh_of(((), "f32"))
        zero = self.const(((), "f32"), "0.0")
        p = self.simple("compare", [s, zero], [st, st], ((), "i1"),
                        "{comparison_direction = #stablehlo<comparison_direction GT>}")
        r = self.p.name()
        tt = tstr(t)
        return self.emit([(r, t)], [p, a, b], lambda o: [
            f'{r} = "stablehlo.if"({o[0]}) ({{',
            f'      "stablehlo.return"({o[1]}) : ({tt}) -> ()',
            f'    }}, {{',
            f'      "stablehlo.return"({o[2]}) : ({tt}) -> ()',
            f'    }}) : (tensor<i1>) -> {tt}'])

    KINDS = ["g_binary"] * 4 + ["g_unary"] * 3 + ["g_select", "g_broadcast", "g_reshape",
                                                  "g_transpose", "g_slice", "g_concatenate", "g_pad",
                                                  "g_reverse"] + ["g_reduce", "g_dot", "g_conv"] * 2 + \
        ["g_gather", "g_dynamic_slice", "g_convert", "g_while", "g_if"]

    def program(self):
        self.fresh()
        for _ in range(self.r.randint(3, 14)):
            getattr(self, self.r.choice(self.KINDS))()
        values = [n for op in self.p.ops for n, _ in op.results]
        outs = [values[-1]] + self.r.sample(values[:-1], min(len(values) - 1, self.r.randint(0, 2)))
        self.p.outputs = list(dict.fromkeys(outs))
        return self.p


# ---------------------------------------------------------------------------
# running the three


def inputs_for(args, seed):
    rng = np.random.default_rng(seed)
    out = []
    for _, (shape, e) in args:
        if e == "i32":
            out.append(rng.integers(-10, 11, size=shape).astype(np.int32))
        else:
            out.append((rng.random(shape) * 4 - 2).astype(NP[e]))
    return out


def run_shloc(text, inputs, opt, tmp):
    src = os.path.join(tmp, "p.mlir")
    open(src, "w").write(text)
    ins = []
    for i, x in enumerate(inputs):
        ins.append(os.path.join(tmp, f"in{i}.npy"))
        np.save(ins[-1], x)
    nres = text.split("->", 1)[1].split("{", 1)[0].count("tensor<")
    outs = [os.path.join(tmp, f"out{opt}_{i}.npy") for i in range(nres)]
    r = subprocess.run([common.SHLOC, "run", src, f"-O{opt}"] + [f"--input=@{p}" for p in ins] +
                       [f"--output=@{p}" for p in outs], capture_output=True, text=True, timeout=120)
    if r.returncode:
        return r.returncode, r.stderr.strip()
    return 0, [np.load(p) for p in outs]


XLA = common.XlaWorker()  # a child process: XLA aborts on failed internal checks


def run_xla(text, inputs):
    outs, err = XLA.run(text, inputs)
    return (1, err) if err else (0, outs)


def promote(text):
    """The program with f32 computed in f64 (the generator's only f32 hex
    literal is the -inf of a max-reduction)."""
    return (text.replace("xf32>", "xf64>").replace("tensor<f32>", "tensor<f64>")
            .replace("0xFF800000", "0xFFF0000000000000"))


def within(g, w, text, elem, reference):
    """Whether shloc's result g agrees with XLA's w. Within the tolerance
    of bound.py it does. Beyond it (an ill-conditioned program: cancellation
    in a sum, a loop that amplifies errors, which the bound does not model),
    the f64 run of the same program decides: shloc's error must be at most
    4 times XLA's plus the bound, against that reference."""
    tol = bound.tolerance(text, elem)
    if rel_diff(g, w) <= tol:
        return True, ""
    d = rel_diff(g, w)
    if elem != "f32" or reference() is None:
        return False, f"max rel diff {d:.3g} > {tol:.2g}"
    ref = reference()
    r64 = ref.astype(np.float64)
    scale = np.max(np.abs(r64[np.isfinite(r64)]), initial=0.0) or 1.0
    with np.errstate(invalid="ignore"):
        es = np.nanmax(np.abs(g.astype(np.float64) - r64), initial=0.0)
        ex = np.nanmax(np.abs(w.astype(np.float64) - r64), initial=0.0)
    if rel_diff(g, ref.astype(g.dtype)) != float("inf") and es <= 4 * ex + tol * scale:
        return True, ""
    return False, (f"max rel diff {d:.3g} > {tol:.2g}; against f64: shloc error {es:.3g}, "
                   f"XLA error {ex:.3g}")


def judge(text, inputs):
    """'ok', 'invalid' (XLA rejects), 'unsupported' (shloc's diagnostic) or
    'mismatch'; with a detail string and XLA's results."""
    rc, want = run_xla(text, inputs)
    if rc:
        return ("xla-crash" if want.startswith("XLA crashed") else "invalid"), want, None
    f64 = []

    def reference(i):
        if not f64:
            rc, outs = run_xla(promote(text), [x.astype(np.float64) if x.dtype == np.float32 else x
                                               for x in inputs])
            f64.append(None if rc else outs)
        return f64[0][i] if f64[0] is not None else None

    with tempfile.TemporaryDirectory() as tmp:
        details = []
        for opt in (0, 3):
            rc, got = run_shloc(text, inputs, opt, tmp)
            if rc == 1:
                return "unsupported", got.splitlines()[0] if got else "", want
            if rc:
                return "mismatch", f"-O{opt}: shloc exit {rc}: {got[-300:]}", want
            for i, (g, w) in enumerate(zip(got, want)):
                elem = {np.float32: "f32", np.float64: "f64"}.get(w.dtype.type, "int")
                ok, why = within(g, w, text, elem, lambda i=i: reference(i))
                if not ok:
                    details.append(f"-O{opt} result {i}: {why}")
        if details:
            return "mismatch", "; ".join(details), want
    return "ok", "", want


def minimize(p, seed, inputs_seed):
    """Greedy delta debugging while the program still mismatches: drop
    outputs; bypass an op (its users read its operand of the same type
    instead); turn an op into arguments (its results become inputs)."""
    def still_bad(q):
        q.args = q.used_args()
        return judge(q.text(), inputs_for(q.args, inputs_seed))[0] == "mismatch"

    changed = True
    while changed:
        changed = False
        for o in list(p.outputs):
            if len(p.outputs) > 1:
                q = clone(p)
                q.outputs = [x for x in q.outputs if x != o]
                if still_bad(q):
                    p, changed = q, True
        for k in range(len(p.ops) - 1, -1, -1):
            if k >= len(p.ops) or id(p.ops[k]) not in p.live_ops():
                continue
            q = bypass(p, k)
            if q and still_bad(q):
                p, changed = q, True
                continue
            if any("#" in n for n, _ in p.ops[k].results):
                continue  # results of a multi-result op are not argument names
            q = clone(p)
            q.args += q.ops.pop(k).results
            if still_bad(q):
                p, changed = q, True
    p.args = p.used_args()
    return p


def bypass(p, k):
    """p without op k, its (single) result replaced by an operand of the
    same type; None when it has no such operand."""
    op = p.ops[k]
    if len(op.results) != 1:
        return None
    name, t = op.results[0]
    types = dict(p.args)
    for o in p.ops:
        types.update(dict(o.results))
    same = [o for o in op.operands if types.get(o) == t]
    if not same:
        return None
    q = clone(p)
    q.ops = [Op(o.results, [same[0] if x == name else x for x in o.operands], o.render)
             for i, o in enumerate(p.ops) if i != k]
    q.outputs = [same[0] if x == name else x for x in p.outputs]
    return q


def clone(p):
    q = Program()
    q.args, q.ops, q.outputs, q.n = list(p.args), list(p.ops), list(p.outputs), p.n
    return q


def fmt(x, e):
    """A value as shloc run prints it (runtime/elem.c format_float)."""
    if e in ("f32", "f64"):
        v = float(x)
        if np.isnan(v):
            return "nan"
        if np.isinf(v):
            return "-inf" if v < 0 else "inf"
        t = NP[e]
        for prec in range(1, 18):
            s = "%.*g" % (prec, v)
            if t(float(s)) == t(v):
                break
        while prec < 17 and 1 <= abs(v) < 1e16 and "e" in "%.*g" % (prec, v):
            prec += 1
        return "%.*g" % (prec, v)
    return str(int(x))


def print_like_shloc(a, e):
    shape = "".join(f"{d}x" for d in a.shape) + e
    if a.ndim == 0:
        return f"{shape}={fmt(a, e)}"

    def level(x):
        if x.ndim == 1:
            return "[" + " ".join(fmt(v, e) for v in x) + "]"
        return "[" + "".join(level(s) for s in x) + "]"
    return f"{shape}={level(a)}"


def save_reproducer(p, inputs_seed, detail, want, index):
    os.makedirs(PENDING, exist_ok=True)
    inputs = inputs_for(p.args, inputs_seed)
    lines = [f"// Found by tests/oracle/fuzz.py: {detail}",
             "// Expected values: XLA CPU (jaxlib) on the same program and inputs."]
    for (_, (shape, e)), x in zip(p.args, inputs):
        vals = " ".join(fmt(v, e) for v in x.ravel())
        lines.append(f'// RUN-ARGS: --input="{"".join(f"{d}x" for d in shape)}{e}={vals}"')
    types = {n: t for n, t in p.args}
    for op in p.ops:
        types.update(dict(op.results))
    for o, w in zip(p.outputs, want):
        lines.append(f"// OUTPUT: {print_like_shloc(w, types[o][1])}")
    path = os.path.join(PENDING, f"fuzz_{index}.mlir")
    open(path, "w").write("\n".join(lines) + "\n" + p.text())
    return path


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", help="write every generated program here")
    ap.add_argument("--only", type=int, help="run only the program of this seed")
    a = ap.parse_args()
    counts = {"ok": 0, "invalid": 0, "unsupported": 0, "mismatch": 0, "xla-crash": 0}
    unsupported = {}
    seeds = [a.only] if a.only is not None else [a.seed * 1000003 + i for i in range(a.n)]
    for i, seed in enumerate(seeds):
        if i and i % 100 == 0:
            print(f"{i} programs, {counts['mismatch']} mismatches so far", flush=True)
        p = Gen(random.Random(seed)).program()
        p.args = p.used_args()
        text = p.text()
        if a.keep:
            os.makedirs(a.keep, exist_ok=True)
            open(os.path.join(a.keep, f"p{seed}.mlir"), "w").write(text)
        verdict, detail, want = judge(text, inputs_for(p.args, seed))
        counts[verdict] += 1
        if verdict == "unsupported":
            unsupported.setdefault(detail, seed)
        if verdict in ("invalid", "xla-crash"):
            print(f"{verdict} program (seed {seed}): {detail}", flush=True)
        if verdict == "mismatch":
            small = minimize(p, seed, seed)
            v, d, w = judge(small.text(), inputs_for(small.args, seed))
            path = save_reproducer(small, seed, d, w, seed)
            print(f"MISMATCH seed {seed}: {detail}\n  minimized ({len(small.live_ops())} ops): {path}",
                  flush=True)
    XLA.close()
    for msg, seed in unsupported.items():
        print(f"unsupported by shloc (first at seed {seed}): {msg}")
    print(f"fuzz: {len(seeds)} programs tried: {counts['ok']} agree, {counts['mismatch']} mismatches, "
          f"{counts['unsupported']} rejected by shloc, {counts['invalid']} invalid (rejected by XLA), "
          f"{counts['xla-crash']} crashed XLA")
    return 1 if counts["mismatch"] else 0


if __name__ == "__main__":
    sys.exit(main())
