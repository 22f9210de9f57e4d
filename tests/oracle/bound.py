"""The tolerance of the XLA oracle, derived from the program's arithmetic.

Two correct implementations of one f32 program differ only by rounding:
each evaluates every dot product, convolution and sum in its own order and
rounds elementwise ops and library functions in its own way. For an inner
product of K terms in floating point with unit roundoff u, the classical
bound is |fl(a.b) - a.b| <= gamma_K sum|a_i b_i| with gamma_K = K u / (1 -
K u) (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed.,
Sec. 3.1), whatever the summation order; with rounding errors modelled as
independent and mean zero it tightens to lambda sqrt(K) u with probability
at least 1 - 2 exp(-lambda^2 / 2) (Higham and Mary, "A new approach to
probabilistic rounding error analysis", SISC 2019, Thm. 2.4). An
elementwise op adds one rounding (u); exp, log, tanh, erf, rsqrt ... are
accurate to a few ulps in both libraries (counted as 4u).

Relative to the output's magnitude, and assuming the network keeps
activations of order one from layer to layer (normalization, residual
connections: each layer is non-expansive, so first-order errors add rather
than multiply) and that sums are not dominated by cancellation
(sum|a_i b_i| ~ |sum a_i b_i|), the normwise relative error of one
implementation is at most

    e = lambda * u * (sum over dot-like ops of sqrt(K)) + u * (sum over
        elementwise ops of their ulps),

and two implementations differ by at most 2e. lambda = 6 (a per-dot failure
probability of 3e-8). The sums run over every op of the program (each
function counted once per call site), which over-counts for an output that
depends on only some of them: the bound errs on the safe side. Integer and
boolean outputs must match exactly. Where the assumptions fail (heavy
cancellation, an ill-conditioned op such as a division by a near-zero
value), a difference above the bound is a finding to analyse, not
automatically a bug.
"""
import math
import re

LAMBDA = 6.0
UNIT_ROUNDOFF = {"f64": 2.0 ** -53, "f32": 2.0 ** -24, "f16": 2.0 ** -11, "bf16": 2.0 ** -8}
TRANSCENDENTAL = {"exponential", "exponential_minus_one", "log", "log_plus_one", "logistic",
                  "tanh", "sqrt", "rsqrt", "cbrt", "power", "sine", "cosine", "tan", "atan2",
                  "erf", "erfc", "erf_inv", "lgamma", "digamma", "divide"}
EXACT = {"constant", "broadcast_in_dim", "reshape", "transpose", "slice", "concatenate", "pad",
         "reverse", "iota", "gather", "select", "compare", "maximum", "minimum", "negate", "abs",
         "return", "call", "get_tuple_element", "tuple", "dynamic_slice",
         "dynamic_update_slice", "bitcast_convert", "and", "or", "not", "xor", "sign", "floor",
         "ceil", "round_nearest_even", "round_nearest_afz", "clamp"}
TYPE = re.compile(r"tensor<([^>]*)>")


def dims(spec):
    return [int(d) for d in spec.split("x")[:-1]]


def prod(xs):
    return math.prod(xs) if xs else 1


def inner_length(op, line):
    """K, the number of terms summed into one result element, or None."""
    types = TYPE.findall(line.rsplit(" : ", 1)[-1]) if " : " in line else []
    if op == "dot_general" and types:
        m = re.search(r"contracting_dims = \[([\d, ]*)\]", line)
        lhs = dims(types[0])
        return prod([lhs[int(i)] for i in m.group(1).split(",") if i.strip()]) if m else None
    if op == "convolution" and len(types) >= 2:
        kernel = dims(types[1])
        m = re.search(r"x\[([^\]]*)\]->", line)
        labels = [x.strip() for x in m.group(1).split(",")] if m else []
        if "o" in labels:
            return prod(kernel) // max(kernel[labels.index("o")], 1)
    if op == "triangular_solve" and types:
        # Substitution: x_i = (b_i - sum_j a_ij x_j) / a_ii, an inner
        # product of up to n terms per element; backward error gamma_n |A|
        # (Higham, sec. 8.1, thm. 8.5). n: a's last dimension.
        n = re.findall(r"(\d+)x", types[0])
        return int(n[-1]) if n else None
    if op in ("reduce", "reduce_window") and len(types) >= 2:
        if re.search(r"applies stablehlo\.(maximum|minimum|and|or)", line):
            return None
        if op == "reduce":
            return max(prod(dims(types[0])) // max(prod(dims(types[-1])), 1), 1)
        m = re.search(r"window_dimensions = array<i64: ([\d, ]*)>", line)
        return prod([int(x) for x in m.group(1).split(",")]) if m else None
    return None


def program_sums(text):
    """(sum of sqrt(K) over dot-like ops, sum of elementwise ulps), every
    function weighted by how often it is called."""
    funcs, cur = {}, None
    for line in text.split("\n"):
        m = re.match(r"\s*func\.func (?:public |private )?@(\w+)", line)
        if m:
            cur = funcs.setdefault(m.group(1), [])
            continue
        if cur is not None:
            cur.append(line)
    calls = {f: sum(len(re.findall(r"call @" + f + r"\(", "\n".join(b))) for b in funcs.values())
             for f in funcs}
    weight = {f: (1 if f == "main" else calls[f]) for f in funcs}
    dot = elem = 0.0
    for f, body in funcs.items():
        joined = join_regions(body)
        for line in joined:
            m = re.match(r'\s*%[\w:#]+\s*=\s*"?(?:stablehlo|chlo)\.(\w+)', line)
            if not m:
                continue
            op = m.group(1)
            k = inner_length(op, line)
            if k:
                dot += weight[f] * math.sqrt(k)
            elif op in TRANSCENDENTAL:
                elem += weight[f] * 4
            elif op not in EXACT:
                elem += weight[f]
    return dot, elem


def join_regions(body):
    """Ops with regions (reduce in generic form) as one line: the opening
    line plus the closing `}) ... : types` line."""
    out, i = [], 0
    while i < len(body):
        line = body[i]
        if line.rstrip().endswith("({"):
            depth, j = 1, i
            inner = []
            while depth and j + 1 < len(body):
                j += 1
                depth += body[j].count("({") - body[j].count("})")
                inner.append(body[j])
            applies = "applies stablehlo.maximum" if any("maximum" in l for l in inner) else ""
            out.append(line + " " + applies + " " + body[j].strip())
            i = j + 1
            continue
        out.append(line)
        i += 1
    return out


def tolerance(text, elem):
    """The bound 2e above for an output of element type `elem` (0: exact).
    u is that of the least precise float type in the program: an f64 result
    converted from f32 work carries f32 rounding."""
    if elem not in UNIT_ROUNDOFF:
        return 0.0
    u = max(UNIT_ROUNDOFF[e] for e in UNIT_ROUNDOFF
            if e == elem or re.search(r"x" + e + r">|<" + e + ">", text))
    dot, ew = program_sums(text)
    return 2 * (LAMBDA * u * dot + u * ew)
