#!/usr/bin/env python3
"""make oracle, part 3: the programs of testdata/dynamic (no expected
values in the files) against XLA, an independent implementation.

usage: build/venv/bin/python tests/oracle/dynamic_xla.py [FILE...]
For each file and each size n in 1, 3, 8 (every dimension variable and
every `?` is n, as `shloc check` runs them):

- shloc: `shloc run FILE`, which compiles the program once with symbolic
  sizes and binds them at the call from the inputs (issue 7); a program
  with an op the symbolic path lacks runs specialized instead (shloc says
  so in a note; counted apart). The dimension arguments get the input n.
- XLA: the program is not specialized by shloc. The leading 0-d integer
  arguments (jax2tf's dimension arguments) become constants n in the body,
  the original @main becomes a private function called from a new @main
  whose arguments have the static shapes, through
  `stablehlo.shape_refinement_operand_wrapper` (as jax.export's
  refine_arguments does); then jax's own shape refinement
  (jax._src.interpreters.mlir.refine_polymorphic_shapes, StableHLO's
  refine-shapes pass) makes every shape static and jaxlib's CPU client
  compiles and runs it.

Both get the same seeded random inputs (bench/models/common.py). Results
are compared with the normwise relative difference of oracle.py against
the tolerance bound.py derives from the refined program (integers and
booleans exactly). Writes build/oracle/dynamic.md (summary and every
disagreement) and closes with `N passed, N failed` (a program XLA or shloc
cannot run is a failure and says which).
"""
import glob
import os
import re
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

SIZES = (1, 3, 8)
CORPUS = os.path.join(common.SHARED, "conformance", "testdata", "dynamic")
OUT = os.path.join(common.BUILD, "oracle")
TENSOR = r"tensor<(?:[^<>]|<[^<>]*>)*>"
DIM_ARG = re.compile(r"tensor<[iu]i?(?:32|64)>$")


# ---------------------------------------------------------------------------
# the program for XLA


def signature(text):
    """(match of @main's `(args) -> results {`, [(name, type, attrs)], [result types])."""
    m = re.search(r"func\.func public @main\((.*?)\)\s*->\s*(.*?)\s*\{\s*$", text, re.M)
    args = re.findall(r"(%\w+): (" + TENSOR + r")((?: \{[^{}]*\})?)", m.group(1))
    return m, args, re.findall(TENSOR, m.group(2))


def split_args(args):
    """(dimension arguments, tensor arguments): jax2tf passes the dimension
    variables first, as 0-d integers."""
    k = 0
    while k < len(args) and DIM_ARG.match(args[k][1]):
        k += 1
    return args[:k], args[k:]


def static(ty, n):
    return ty.replace("?", str(n))


def xla_program(text, n):
    """The program with every `?` of @main's arguments n and its dimension
    arguments n, left to jax's shape refinement."""
    m, args, results = signature(text)
    dims, tensors = split_args(args)
    consts = "".join(f"\n    {a} = stablehlo.constant dense<{n}> : {t}" for a, t, _ in dims)
    inner = (f"func.func private @shloc_dynamic({', '.join(a + ': ' + t for a, t, _ in tensors)})"
             f" -> ({', '.join(results)}) {{{consts}")
    body = text[:m.start()] + inner + text[m.end():]
    lines, passed, params = [], [], []
    for i, (a, t, _) in enumerate(tensors):
        name, x = f"%w{i}", f"%x{i}"
        params.append(f"{x}: {static(t, n)}")
        if t.endswith("xbf16>") or t == "tensor<bf16>":  # the worker's .npz carries bf16 as bits
            params[-1] = f"%b{i}: {static(t, n)[:-5]}ui16>"
            lines.append(f"    {x} = stablehlo.bitcast_convert %b{i} : ({static(t, n)[:-5]}ui16>) -> {static(t, n)}")
        if "?" not in t:
            passed.append(x)
            continue
        shape = re.match(r"tensor<((?:\?x|\d+x)*)", t).group(1).rstrip("x").split("x")
        lines.append(f"    %s{i} = stablehlo.constant dense<[{', '.join(str(n) if d == '?' else d for d in shape)}]>"
                     f" : tensor<{len(shape)}xi64>")
        lines.append(f"    {name} = stablehlo.custom_call @stablehlo.shape_refinement_operand_wrapper"
                     f"(%x{i}, %s{i}) {{indices_of_shape_operands = dense<1> : tensor<1xi64>}}"
                     f" : ({static(t, n)}, tensor<{len(shape)}xi64>) -> {t}")
        passed.append(name)
    rs = [f"%r#{i}" for i in range(len(results))] if len(results) > 1 else ["%r"]
    call = (f"    %r{':' + str(len(results)) if len(results) > 1 else ''} = func.call @shloc_dynamic"
            f"({', '.join(passed)}) : ({', '.join(t for _, t, _ in tensors)}) -> ({', '.join(results)})")
    main = (f"  func.func public @main({', '.join(params)})"
            f" -> ({', '.join(results)}) {{\n" + "\n".join(lines) + "\n" + call +
            f"\n    return {', '.join(rs)} : {', '.join(results)}\n  }}\n")
    at = body.index("func.func private @shloc_dynamic")
    return body[:at] + main.lstrip() + "  " + body[at:]


def refine(text):
    from jax._src.interpreters import mlir
    from jax._src.lib.mlir import ir
    with mlir.make_ir_context():
        return str(mlir.refine_polymorphic_shapes(ir.Module.parse(text)))


# ---------------------------------------------------------------------------
# inputs and the two runs


def inputs_for(text, n, seed):
    """(tensor types, arrays for XLA, arrays as shloc reads them)."""
    _, args, _ = signature(text)
    _, tensors = split_args(args)
    specs = [static(t, n)[len("tensor<"):-1] for _, t, _ in tensors]
    xla, ours = [], []
    for i, spec in enumerate(specs):
        part = re.search(r"complex<(f32|f64)>$", spec)
        if part:  # real and imaginary parts drawn as two float inputs
            re_, im = (common.random_inputs([spec[:part.start()] + part.group(1)], seed + i + k)[0]
                       for k in (0, 500))
            a = re_ + 1j * im
            a = a.astype(np.complex64 if part.group(1) == "f32" else np.complex128)
            xla.append(a)
            ours.append(a)
        elif spec.endswith("xbf16") or spec == "bf16":
            import ml_dtypes
            f = common.random_inputs([spec[:-4] + "f32"], seed + i)[0]
            b = f.astype(ml_dtypes.bfloat16).view(np.uint16)
            xla.append(b)  # bits for both: xla_program bitcasts them
            ours.append(b)  # shloc's .npy of bf16
        else:
            a = common.random_inputs([spec], seed + i)[0]
            xla.append(a)
            ours.append(a)
    return specs, xla, ours


def run_shloc(path, text, n, arrays, tmp):
    """(results, symbolic?, error)."""
    _, args, results = signature(text)
    dims, _ = split_args(args)
    cmd = [common.SHLOC, "run", path]
    for _, t, _ in dims:
        cmd.append(f"--input={t[len('tensor<'):-1]}={n}")
    for i, a in enumerate(arrays):
        np.save(os.path.join(tmp, f"in{i}.npy"), a)
        cmd.append(f"--input=@{os.path.join(tmp, f'in{i}.npy')}")
    outs = [os.path.join(tmp, f"out{i}.npy") for i in range(len(results))]
    cmd += [f"--output=@{o}" for o in outs]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if r.returncode:
        errors = [l for l in r.stderr.splitlines() if "error:" in l] or ["exit %d" % r.returncode]
        return None, False, errors[-1][:300]
    return [np.load(o) for o in outs], "note:" not in r.stderr, None


def as_float(a, elem):
    if elem.startswith("complex"):  # normwise over both parts
        a = np.asarray(a)
        return np.stack([a.real, a.imag], axis=-1)
    if elem == "bf16":
        bits = np.asarray(a).view(np.uint16) if np.asarray(a).dtype.itemsize == 2 else np.asarray(a)
        return (bits.astype(np.uint32) << 16).view(np.float32)
    return np.asarray(a)


def compare(refined, results, ours, theirs):
    """[(ok, detail)] per result."""
    out = []
    for i, t in enumerate(results):
        elem = re.match(r"tensor<(?:[\d?]+x)*(.*)>$", t).group(1)
        a, b = as_float(ours[i], elem), as_float(theirs[i], elem)
        d = rel_diff(a, b)
        tol = bound.tolerance(refined, re.sub(r"complex<(\w+)>", r"\1", elem))  # complex: its parts'
        out.append((d <= tol, f"result{i} {elem}: max rel diff {d:.2e}, tolerance {tol:.1e}"))
    return out


def main():
    files = sys.argv[1:] or sorted(glob.glob(os.path.join(CORPUS, "*.mlir")))
    os.makedirs(OUT, exist_ok=True)
    worker = common.XlaWorker()
    tally, rows, symbolic, specialized = [0, 0], [], 0, 0
    outcome = {"agree": 0, "differ": 0, "shloc fails": 0, "XLA fails": 0}
    try:
        for path in files:
            text = open(path).read()
            name = os.path.basename(path)
            for n in SIZES:
                label = f"{name} n={n}"
                with tempfile.TemporaryDirectory(prefix="shloc-dyn-") as tmp:
                    why = None
                    try:
                        refined = refine(xla_program(text, n))
                    except Exception as e:  # jax's refinement rejects the program
                        refined, why = None, "jax refinement: " + str(e).strip().splitlines()[0][:200]
                    specs, xla_in, our_in = inputs_for(text, n, seed=1000 * n)
                    ours, sym, err = run_shloc(path, text, n, our_in, tmp)
                    theirs, xerr = worker.run(refined, xla_in) if refined else (None, why)
                if ours is not None:
                    symbolic += sym
                    specialized += not sym
                if ours is None or theirs is None:
                    verdicts = [(False, f"shloc: {err}" if ours is None else f"XLA: {xerr}")]
                    outcome["shloc fails" if ours is None else "XLA fails"] += 1
                else:
                    verdicts = compare(refined, signature(text)[2], ours, theirs)
                    outcome["agree" if all(v for v, _ in verdicts) else "differ"] += 1
                ok = all(v for v, _ in verdicts)
                tally[0 if ok else 1] += 1
                detail = "; ".join(d for _, d in verdicts)
                mode = "" if ours is None else (" (symbolic)" if sym else " (specialized)")
                print(f"{'PASS' if ok else 'FAIL'} dynamic/{label}{mode}: {detail}", flush=True)
                if not ok:
                    rows.append(f"| {name} | {n} | {mode.strip(' ()')} | {detail} |")
    finally:
        worker.close()
    with open(os.path.join(OUT, "dynamic.md"), "w") as f:
        f.write("# testdata/dynamic: shloc (symbolic sizes) vs XLA after jax's shape refinement\n\n"
                f"{tally[0]} of {tally[0] + tally[1]} runs agree (sizes {SIZES}): " +
                ", ".join(f"{k} {v}" for k, v in outcome.items()) + "; shloc ran "
                f"{symbolic} symbolically and {specialized} specialized (an op outside the "
                "symbolic set).\n\n| file | n | shloc | disagreement |\n|---|---|---|---|\n" +
                "\n".join(rows) + "\n")
    print(f"shloc ran {symbolic} symbolically, {specialized} specialized; " +
          ", ".join(f"{k} {v}" for k, v in outcome.items()))
    print(f"{tally[0]} passed, {tally[1]} failed")
    return 1 if tally[1] else 0


if __name__ == "__main__":
    sys.exit(main())
