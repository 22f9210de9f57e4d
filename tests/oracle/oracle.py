#!/usr/bin/env python3
"""make oracle, part 1: every model (../shared/models and the bench models)
through shloc and through XLA's CPU compiler, on the same StableHLO text
with the same inputs and weights.

usage: build/venv/bin/python tests/oracle/oracle.py [MODEL...]
Per output: the normwise relative difference max|shloc - XLA| / max|XLA|,
the tolerance derived from the program (bound.py) and the issue's goal of
1e-4. Also checked: that bench/models/common.py fills elided weights
exactly as `shloc --elided=pattern` does; that the rebatched ResNet-50 gives
each image the batch-1 result; that the PyTorch modules of the bench
compute what the JAX exports compute (so the anchors run the same model).
Writes build/oracle/models.md; closes with `N passed, N failed`.
"""
import os
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
import registry  # noqa: E402

GOAL = 1e-4
OUT = os.path.join(common.BUILD, "oracle")
rows, tally = [], [0, 0]


def verdict(name, ok, detail):
    tally[0 if ok else 1] += 1
    print(f"{'PASS' if ok else 'FAIL'} oracle/{name}: {detail}", flush=True)


def rel_diff(a, b):
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape:
        return float("inf")
    if not np.issubdtype(b.dtype, np.inexact):
        return 0.0 if np.array_equal(a, b) else float("inf")
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    finite = np.isfinite(b64)
    if not np.array_equal(np.isfinite(a64), finite) or \
            not np.array_equal(a64[~finite], b64[~finite], equal_nan=True):
        return float("inf")  # infinities and NaNs must sit at the same places
    scale = np.max(np.abs(b64[finite])) if finite.any() else 0.0
    diff = np.max(np.abs(a64[finite] - b64[finite])) if finite.any() else 0.0
    return diff / scale if scale else diff


def check_pattern():
    """common.elided_pattern against shloc's own fill, on constants of the
    shapes and order of ResNet-50's first ones."""
    specs = ["7x7x3x64xf32", "64xf32", "1x1x64x256xf32", "256xf32", "3x3x64x64xf32"]
    ret = ", ".join(f"tensor<{s}>" for s in specs)
    body = "\n".join(f"  %c{i} = stablehlo.constant dense_resource<__elided__> : tensor<{s}>"
                     for i, s in enumerate(specs))
    text = (f"func.func @main() -> ({ret}) {{\n{body}\n  return "
            f"{', '.join(f'%c{i}' for i in range(len(specs)))} : {ret}\n}}\n")
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "p.mlir")
        open(src, "w").write(text)
        outs = [os.path.join(tmp, f"o{i}.npy") for i in range(len(specs))]
        r = subprocess.run([common.SHLOC, "run", src, "--elided=pattern"] +
                           [f"--output=@{o}" for o in outs], capture_output=True, text=True)
        if r.returncode:
            return verdict("elided-pattern", False, r.stderr[-500:])
        same = all(np.array_equal(np.load(o), common.elided_pattern(i, s))
                   for i, (o, s) in enumerate(zip(outs, specs)))
        verdict("elided-pattern", same, "numpy fill is bit-identical to shloc --elided=pattern"
                if same else "numpy fill differs from shloc's")


def run_model(model):
    inputs = model.inputs()
    out_dir = os.path.join(common.BUILD, "bench", "shloc", f"{model.name}_t1")
    try:
        shloc, _ = common.shloc_cached(model.mlir, model.flags, 1, out_dir)
        got = [o.copy() for o in shloc.call(inputs)]
    except Exception as e:  # a compile error is a finding: report it, go on
        verdict(model.name, False, f"shloc: {str(e).strip().splitlines()[-1][:300]}")
        rows.append(f"| {model.name} | - | shloc failed: {str(e).strip().splitlines()[-1][:200]} | | | |")
        return None, None
    text = open(model.xla_mlir).read()
    want = common.XlaModel(text).call(inputs)
    del text
    tol_text = open(model.mlir).read()
    for i, (g, w) in enumerate(zip(got, want)):
        elem = {np.float32: "f32", np.float64: "f64", np.float16: "f16"}.get(w.dtype.type, "int")
        tol = bound.tolerance(tol_text, elem)
        d = rel_diff(g, w)
        ok = d <= tol
        rows.append(f"| {model.name} | {i} {list(w.shape)} {w.dtype} | {d:.2e} | {tol:.1e} | "
                    f"{'yes' if d <= GOAL else 'no'} | {'agree' if ok else 'DISAGREE'} |")
        verdict(f"{model.name}/result{i}", ok, f"max rel diff {d:.2e}, tolerance {tol:.1e}")
    return got, want


def check_rebatch(b8_got, b8_want):
    """Each image of the batch-8 ResNet against XLA's batch-1 run on it."""
    b1 = registry.select(["resnet50_b1"])[0]
    b8 = registry.select(["resnet50_b8"])[0]
    xla1 = common.XlaModel(open(b1.xla_mlir).read())
    images = b8.inputs()[0]
    worst = 0.0
    for i in range(images.shape[0]):
        one = xla1.call([images[i:i + 1]])
        for r in range(len(one)):
            worst = max(worst, rel_diff(b8_want[r][i:i + 1], one[r]))
            if b8_got is not None:
                worst = max(worst, rel_diff(b8_got[r][i:i + 1], one[r]))
    tol = bound.tolerance(open(b1.mlir).read(), "f32")
    verdict("resnet50_b8/per-image", worst <= tol,
            f"batch-8 results vs batch-1 per image: max rel diff {worst:.2e} (tolerance {tol:.1e})")


def check_torch(model, want):
    """The bench's PyTorch module computes what the export computes."""
    import torch
    module, inputs = model.torch()
    with torch.inference_mode():
        got = module(*[torch.from_numpy(x) for x in inputs])
    got = [got] if isinstance(got, torch.Tensor) else list(got)
    d = max(rel_diff(g.numpy(), w) for g, w in zip(got, want))
    tol = bound.tolerance(open(model.mlir).read(), "f32")
    verdict(f"{model.name}/pytorch-equivalent", d <= tol,
            f"PyTorch module vs XLA on the export: max rel diff {d:.2e} (tolerance {tol:.1e})")


def main():
    os.makedirs(OUT, exist_ok=True)
    check_pattern()
    models = registry.select(sys.argv[1:])
    for m in models:
        m.export()
    results = {}
    for m in models:
        print(f"== {m.name}", flush=True)
        got, want = run_model(m)
        results[m.name] = (got, want)
        if want is not None and m.torch and not m.name.startswith("resnet"):
            if m.name.endswith("_const"):
                continue  # the same module as the _args export
            check_torch(m, want)
    if "resnet50_b8" in results and results["resnet50_b8"][1] is not None:
        check_rebatch(*results["resnet50_b8"])
    with open(os.path.join(OUT, "models.md"), "w") as f:
        f.write("# shloc vs XLA CPU on the same StableHLO text\n\n"
                "| model | result | max rel diff | tolerance (bound.py) | <= 1e-4 | verdict |\n"
                "|---|---|---|---|---|---|\n" + "\n".join(rows) + "\n")
    print(open(os.path.join(OUT, "models.md")).read())
    print(f"{tally[0]} passed, {tally[1]} failed")
    return 1 if tally[1] else 0


if __name__ == "__main__":
    sys.exit(main())
