#!/usr/bin/env python3
"""make oracle, part 2: the conformance programs through XLA as well, for a
three-way table of shloc's result, XLA's and the file's expected value.

usage: build/venv/bin/python tests/oracle/conformance_xla.py [FILE...]
The check ops are not XLA ops, so each program is rewritten: every check
(`stablehlo.custom_call @check.expect_*` in testdata/, `check.expect_*` in
interpret/) is removed and its actual and expected operands become results
of the entry (a `_const` check's literal becomes a stablehlo.constant), the
entry is renamed @main. shloc (`shloc run`) and XLA (jaxlib) run the
rewritten program; the three values are compared with the check's own rule
(exact; at most 3 ulps for expect_close; |a - e| <= tolerance for
expect_almost_eq). Programs with other non-XLA ops (interpreter.*,
check.eq results used further, expect_serialized_eq) are skipped and
counted. Writes build/oracle/conformance.md (the summary and every case
where the three do not all agree) and conformance.tsv (every case).
"""
import os
import re
import subprocess
import sys
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "bench", "models"))
os.environ.setdefault("JAX_PLATFORMS", "cpu")
import common  # noqa: E402

CORPUS = os.path.join(common.SHARED, "conformance")
OUT = os.path.join(common.BUILD, "oracle")
FLOAT_BITS = {"f16": np.uint16, "bf16": np.uint16, "f32": np.uint32, "f64": np.uint64}
COMPLEX_PART = {"complex<f32>": "f32", "complex<f64>": "f64"}
TENSOR = r"tensor<(?:[^<>]|<[^<>]*>)*>"


# ---------------------------------------------------------------------------
# rewriting


class Skip(Exception):
    pass


def elem_of(t):
    m = re.match(r"tensor<(?:[\d?]+x)*(.*)>$", t.strip())
    return m.group(1) if m else t


def rewrite_testdata(text):
    """testdata/: custom_call checks in @main -> results of @main."""
    lines = text.split("\n")
    start = next(i for i, l in enumerate(lines) if re.match(r"\s*func\.func (?:public )?@main\(", l))
    checks, body = [], []
    i = start + 1
    while not re.match(r"\s{2}\}", lines[i]):
        l = lines[i]
        m = re.match(r"\s*stablehlo\.custom_call @check\.(\w+)\((%[\w#]+), (%[\w#]+)\).*: \((.*)\) -> \(\)\s*$", l)
        if "@check." in l and not m:
            raise Skip("check op with a result (check.eq)")
        if m:
            types = re.findall(TENSOR, m.group(4))
            checks.append((m.group(1), m.group(2), m.group(3), types[0], None))
            lines[i] = None
        elif re.match(r"\s*return\b", l):
            body.append(i)
        i += 1
    if not checks:
        raise Skip("no check")
    outs = [c[1] for c in checks] + [c[2] for c in checks]
    types = [c[3] for c in checks] * 2
    lines[body[-1]] = f"    return {', '.join(outs)} : {', '.join(types)}"
    lines[start] = re.sub(r"\)\s*->\s*.*\{\s*$", f") -> ({', '.join(types)}) {{", lines[start])
    return "\n".join(l for l in lines if l is not None), checks


CHECK = re.compile(r"^(\s*)check\.(expect_\w+?)(_const)? (%[\w#]+), (.*?)(?:, (tolerance|max_ulp_difference|"
                   r"min_ulp_difference) = [^:]*)? : (" + TENSOR + r")\s*$")


def rewrite_interpret(case):
    """interpret/: check ops of the entry -> its results; entry -> @main."""
    if "interpreter." in case or "expect_serialized_eq" in case:
        raise Skip("interpreter-only op")
    funcs = re.findall(r"func\.func (?:public |private )?@(\w+)\(", case)
    entry = "main" if "main" in funcs else (funcs[0] if len(funcs) == 1 else None)
    if entry is None:
        raise Skip("no entry")
    lines = join_checks(case.split("\n"))
    start = next(i for i, l in enumerate(lines) if re.search(r"func\.func (?:public |private )?@" + entry + r"\(", l))
    if not re.search(r"@" + entry + r"\(\)\s*(->\s*\(\))?\s*\{", lines[start]):
        raise Skip("entry takes arguments or has results")
    checks, n = [], 0
    i = start + 1
    while not re.match(r"\s*func\.return\b|\s*return\b", lines[i]):
        m = CHECK.match(lines[i])
        if "check." in lines[i] and not m:
            raise Skip("check op not understood")
        if m:
            ind, kind, const, actual, other, _, ty = m.groups()
            if const:
                n += 1
                name = f"%__expected{n}"
                lines[i] = f"{ind}{name} = stablehlo.constant {other} : {ty}"
                other = name
            else:
                lines[i] = None
            checks.append((kind, actual, other, ty, lines_attr(m.group(0))))
        i += 1
    if not checks:
        raise Skip("no check")
    outs = [c[1] for c in checks] + [c[2] for c in checks]
    types = [c[3] for c in checks] * 2
    lines[i] = re.sub(r"(func\.return|return)\b.*", f"func.return {', '.join(outs)} : {', '.join(types)}",
                      lines[i])
    lines[start] = re.sub(r"@" + entry + r"\(\)\s*(->\s*\(\))?\s*\{",
                          f"@main() -> ({', '.join(types)}) {{", lines[start])
    text = "\n".join(l for l in lines if l is not None)
    if entry != "main":
        text = re.sub(r"@" + entry + r"\b", "@main", text)
    return text, checks


def join_checks(lines):
    """A check op written over several lines as one line."""
    out = []
    for l in lines:
        if out and out[-1].lstrip().startswith("check.") and not re.search(r" : tensor<", out[-1]):
            out[-1] += " " + l.strip()
        else:
            out.append(l)
    return out


def lines_attr(line):
    """tolerance / ulp attributes of an interpret check."""
    out = {}
    for k in ("tolerance", "max_ulp_difference", "min_ulp_difference"):
        m = re.search(k + r" = ([-\d.eE+]+)", line)
        if m:
            out[k] = float(m.group(1))
    return out


# ---------------------------------------------------------------------------
# comparing with the checks' rules


def ordered(bits, width):
    """Float bit patterns as integers whose difference is the ULP distance."""
    b = bits.astype(np.uint64).astype(np.int64) if width < 64 else bits.view(np.int64)
    sign = (b >> (width - 1)) & 1 if width < 64 else (b < 0)
    mag = b & ((1 << (width - 1)) - 1) if width < 64 else b & 0x7FFFFFFFFFFFFFFF
    return np.where(sign.astype(bool), -mag.astype(np.float64), mag.astype(np.float64))


def parts(a, elem):
    """(list of (bits, width, floats) parts) or None for non-floats."""
    if elem in COMPLEX_PART:
        f = COMPLEX_PART[elem]
        x = np.asarray(a).astype(np.complex128 if f == "f64" else np.complex64)
        return [p for c in (x.real, x.imag) for p in parts(c.astype(np.float64 if f == "f64" else np.float32), f)]
    mini = minifloat(elem)
    if mini is not None:  # carried as uint8 bit patterns
        bits = np.asarray(a).astype(np.uint8)
        return [(bits, 8, bits.view(mini).astype(np.float64))]
    if elem not in FLOAT_BITS:
        return None
    ut = FLOAT_BITS[elem]
    x = np.ascontiguousarray(np.asarray(a))
    bits = x.view(ut) if x.dtype.itemsize == np.dtype(ut).itemsize else x.astype(np.float64).view(np.uint64)
    vals = x.astype(np.float32) if elem == "bf16" and x.dtype == ut else x
    if elem == "bf16" and x.dtype == np.uint16:  # shloc's npy: bf16 bit patterns
        vals = (bits.astype(np.uint32) << 16).view(np.float32)
    return [(bits, np.dtype(ut).itemsize * 8, np.asarray(vals, dtype=np.float64))]


def minifloat(elem):
    """The ml_dtypes type of f8E4M3FN, f6E2M3FN, f4E2M1FN ... or None."""
    m = re.match(r"f(\d+)(E\w+)$", elem)
    if not m:
        return None
    import ml_dtypes
    return getattr(ml_dtypes, f"float{m.group(1)}_{m.group(2).lower()}")


def agree(kind, a, e, elem, attrs):
    a, e = np.asarray(a), np.asarray(e)
    if a.shape != e.shape:
        return False
    pa, pe = parts(a, elem), parts(e, elem)
    if pa is None:
        return np.array_equal(a.astype(np.int64) if a.dtype != np.bool_ else a,
                              e.astype(np.int64) if e.dtype != np.bool_ else e)
    for (ba, w, va), (be, _, ve) in zip(pa, pe):
        nan = np.isnan(va) & np.isnan(ve)
        if kind == "expect_almost_eq":
            tol = attrs.get("tolerance", 1e-3 if attrs.get("custom") else 1e-4)
            inf = ~np.isfinite(va) | ~np.isfinite(ve)
            with np.errstate(invalid="ignore"):
                ok = nan | np.where(inf, va == ve, np.abs(va - ve) <= tol)
        elif kind == "expect_close":
            d = np.abs(ordered(ba, w) - ordered(be, w))
            ok = nan | ((d <= attrs.get("max_ulp_difference", 3)) &
                        (d >= attrs.get("min_ulp_difference", 0)))
            ok &= nan | (np.isfinite(va) == np.isfinite(ve))
        else:
            ok = nan | (ba == be)
        if not np.all(ok):
            return False
    return True


# ---------------------------------------------------------------------------
# running


def run_shloc(text):
    """shloc run's results: through .npy files, or printed (`--output=-`)
    for element types NumPy lacks (i2, i4 ...)."""
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "p.mlir")
        open(src, "w").write(text)
        n = text.split("@main(", 1)[1].split("{", 1)[0].count("tensor<")
        outs = [os.path.join(tmp, f"o{i}.npy") for i in range(n)]
        r = subprocess.run([common.SHLOC, "run", src] + [f"--output=@{o}" for o in outs],
                           capture_output=True, text=True, timeout=120, cwd=tmp)
        if r.returncode == 0:
            return [np.load(o) for o in outs], None
        if "no NumPy dtype" in r.stderr:
            r = subprocess.run([common.SHLOC, "run", src] + ["--output=-"] * n,
                               capture_output=True, text=True, timeout=120, cwd=tmp)
            if r.returncode == 0:
                return [parse_printed(l) for l in r.stdout.strip().splitlines()], None
        msg = [l for l in r.stderr.splitlines() if "error" in l]
        return None, (msg[0] if msg else r.stderr.strip()[-200:] or f"exit {r.returncode}")


def parse_printed(line):
    """`2x2xi4=[[1 2][3 -4]]` -> an int64 array; minifloats (f8E4M3FN ...)
    as their bit patterns, as the XLA side carries them."""
    spec, vals = line.split("=", 1)
    parts = spec.split("x")
    shape, elem = [int(d) for d in parts[:-1]], parts[-1]
    words = vals.replace("[", " ").replace("]", " ").split()
    t = minifloat(elem)
    if t is not None:
        return np.array([float(w) for w in words], dtype=np.float64).astype(t).view(np.uint8).reshape(shape)
    return np.array([int(w) for w in words], dtype=np.int64).reshape(shape)


WORKERS = threading.local()


def run_xla(text):
    """XLA in a child process per pool thread (a crash is a result too)."""
    if not hasattr(WORKERS, "w"):
        WORKERS.w = common.XlaWorker()
    return WORKERS.w.run(text, [])


def cases():
    for folder in ("testdata", "interpret"):
        top = os.path.join(CORPUS, folder)
        for d, _, files in sorted(os.walk(top)):
            for f in sorted(files):
                if not f.endswith(".mlir"):
                    continue
                path = os.path.join(d, f)
                rel = os.path.relpath(path, CORPUS)
                text = open(path).read()
                if folder == "testdata":
                    yield rel, 1, text, rewrite_testdata
                    continue
                line = 1
                for part in text.split("\n// -----\n"):
                    yield rel, line, part, rewrite_interpret
                    line += part.count("\n") + 2


def judge(item):
    try:
        return judge_case(item)
    except Exception as e:  # a harness limit, reported with the case
        return item[0], item[1], "skip", f"harness: {type(e).__name__}: {str(e)[:120]}", ""


def judge_case(item):
    rel, line, text, rewrite = item
    try:
        prog, checks = rewrite(text)
    except (Skip, StopIteration, IndexError) as e:
        return rel, line, "skip", str(e) or "not rewritable", ""
    xla, xerr = run_xla(prog)
    shl, serr = run_shloc(prog)
    k = len(checks)
    verdicts = []
    for j, (kind, _, _, ty, attrs) in enumerate(checks):
        attrs = dict(attrs or {}, custom=rewrite is rewrite_testdata)
        elem = elem_of(ty)
        exp = (xla or shl or [None] * (2 * k))[k + j]
        s_ok = agree(kind, shl[j], exp, elem, attrs) if shl else None
        x_ok = agree(kind, xla[j], exp, elem, attrs) if xla else None
        sx = agree(kind, shl[j], xla[j], elem, attrs) if shl and xla else None
        verdicts.append((s_ok, x_ok, sx))
    return rel, line, "ran", (verdicts, xerr, serr), ""


def classify(verdicts, xerr, serr):
    if xerr and serr:
        return "neither runs"
    if xerr:
        return "XLA cannot run"
    if serr:
        return "shloc cannot run"
    s = all(v[0] for v in verdicts)
    x = all(v[1] for v in verdicts)
    if s and x:
        return "all agree"
    if x:
        return "shloc differs from expected (XLA matches)"
    if s:
        return "XLA differs from expected (shloc matches)"
    if all(v[2] for v in verdicts):
        return "expected differs from both (shloc = XLA)"
    return "all three differ"


def main():
    if not os.path.isdir(CORPUS):
        print(f"NOTICE: {CORPUS} absent; skipped")
        return 0
    only = set(sys.argv[1:])
    items = [c for c in cases() if not only or c[0] in only]
    os.makedirs(OUT, exist_ok=True)
    rows, summary, detail = [], {}, []
    # two threads: each drives one shloc subprocess and one XLA child.
    with ThreadPoolExecutor(2) as pool:
        for rel, line, status, info, _ in pool.map(judge, items):
            if status == "skip":
                cls, why = "skipped (not XLA-runnable)", info
            else:
                verdicts, xerr, serr = info
                cls = classify(verdicts, xerr, serr)
                why = xerr or serr or ""
            summary[cls] = summary.get(cls, 0) + 1
            rows.append(f"{rel}:{line}\t{cls}\t{why}")
            if cls not in ("all agree", "skipped (not XLA-runnable)"):
                detail.append((cls, f"{rel}:{line}", why))
    with open(os.path.join(OUT, "conformance.tsv"), "w") as f:
        f.write("\n".join(rows) + "\n")
    with open(os.path.join(OUT, "conformance.md"), "w") as f:
        f.write("# Conformance programs: shloc, XLA and the expected value\n\n| outcome | cases |\n|---|---|\n")
        for k, v in sorted(summary.items(), key=lambda kv: -kv[1]):
            f.write(f"| {k} | {v} |\n")
        f.write("\n| outcome | case | note |\n|---|---|---|\n")
        for cls, where, why in sorted(detail):
            f.write(f"| {cls} | {where} | {why.replace('|', '/')[:160]} |\n")
    print(open(os.path.join(OUT, "conformance.md")).read()[:6000])
    return 0


if __name__ == "__main__":
    sys.exit(main())
