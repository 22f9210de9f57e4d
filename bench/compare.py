#!/usr/bin/env python3
"""Same-run comparison of shloc with XLA CPU, ONNX Runtime and PyTorch on
the bench models (bench/models/registry.py), at 1 and 2 threads.

usage: build/venv/bin/python bench/compare.py [--threads=1,2] [MODEL...]
Environment: BENCH_SAMPLES (timed rounds, default 10), BENCH_WARMUP
(untimed rounds, default 2), BENCH_GAP_MS (idle time before each call,
default 50), BENCH_COMPILES (shloc compiles timed per model and thread
count, default 3).

shloc's compile time is taken first, in this (unpinned) process, before
any worker starts: the least of BENCH_COMPILES compiles in a row
(bench/README.md says why: the pinned 1-thread worker queued shloc's own
threads on one core, and the VM pages out files left idle).

For each thread count a worker process is pinned to that many cores
(sched_setaffinity, before jax is imported: XLA sizes its intra-op thread
pool from the cores it may run on) and every engine is told the same count:
shloc `--threads=N`, ONNX Runtime intra_op_num_threads=N (inter-op 1),
torch.set_num_threads(N) (inter-op 1), OMP_NUM_THREADS=N for the triad.
Per model the engines run in interleaved rounds (shloc, XLA, ORT, PyTorch,
shloc, XLA, ...) after the same warm-up, with the same inputs; each round
times one call per engine, each after BENCH_GAP_MS of idle time: the
engines' thread pools spin for milliseconds after a call (libgomp's
PyTorch workers, ONNX Runtime's, the triad's OpenMP threads), and an
engine timed right after another then shares its second core with them
(ResNet-50 at batch 1 and 2 threads on the 2-core Zen 4, shloc's median:
48 ms right after a PyTorch call, 62-75 ms right after an ONNX Runtime
call, 41-45 ms 5-20 ms later or alone). The table gives medians and
ratios; for models
with a bandwidth floor (weights read once per call) a STREAM triad runs in
every round too and the floor is weights bytes / the best triad bandwidth.
Writes build/bench/results.md and prints it.
"""
import ctypes
import gc
import json
import os
import platform
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "models"))
import common  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_DIR = os.path.join(common.BUILD, "bench")
ENGINES = ("shloc", "XLA", "ORT", "PyTorch")


def build_triad():
    """bench/anchors.c as a shared library (for anchors_triad_gbs)."""
    lib = os.path.join(OUT_DIR, "anchors.so")
    src = os.path.join(HERE, "anchors.c")
    if not os.path.exists(lib) or os.path.getmtime(lib) < os.path.getmtime(src):
        subprocess.run(["cc", "-O3", "-march=native", "-fopenmp", "-shared", "-fPIC", src, "-o", lib,
                        "-I/usr/include/x86_64-linux-gnu/openblas-pthread", "-lopenblas", "-ldnnl",
                        "-lm"], check=True)
    return lib


# ---------------------------------------------------------------------------
# worker: one thread count, all models


def shloc_dir(model, threads):
    return os.path.join(OUT_DIR, "shloc", f"{model.name}_t{threads}")


def shloc_engine(model, threads):
    """The model compiled for `threads` (by compile_all, or here where that
    failed); a ShlocModel."""
    return common.shloc_cached(model.mlir, model.flags, threads, shloc_dir(model, threads))[0]


def compile_all(models, threads):
    """shloc's compile seconds per (model name, threads) where the library
    is stale: the least of BENCH_COMPILES (default 3) compiles in a row,
    in the parent, before the workers (head comment). A model that fails
    is left to its worker, which reports the error."""
    times = int(os.environ.get("BENCH_COMPILES", "3"))
    secs = {}
    for t in threads:
        for model in models:
            out = shloc_dir(model, t)
            if not common.shloc_stale(model.mlir, out):
                continue
            try:
                secs[(model.name, t)] = common.shloc_compile(model.mlir, out, t, model.flags,
                                                             times=times)[2]
            except RuntimeError:
                pass
    return secs


def ort_engine(model, threads, inputs):
    import onnxruntime as ort
    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    sess = ort.InferenceSession(model.onnx, so, providers=["CPUExecutionProvider"])
    feed = {i.name: x for i, x in zip(sess.get_inputs(), inputs)}
    return lambda: sess.run(None, feed)


def torch_engine(module, inputs):
    import torch
    tensors = [torch.from_numpy(x) for x in inputs]

    def run():
        with torch.inference_mode():
            return module(*tensors)
    return run


def bench_model(model, threads, samples, warmup, triad):
    """Median seconds per engine (None where absent)."""
    inputs = model.inputs()
    calls, notes = {}, []
    shloc = shloc_engine(model, threads)
    calls["shloc"] = lambda: shloc.call(inputs)
    xla = common.XlaModel(open(model.xla_mlir).read())
    xla.bind(inputs)
    calls["XLA"] = xla.run
    if model.torch:
        module, tinputs = model.torch()
        calls["PyTorch"] = torch_engine(module, tinputs)
        calls["ORT"] = ort_engine(model, threads, tinputs)
    else:
        notes.append("no PyTorch/ONNX equivalent")
    times = {k: [] for k in calls}
    bw = []
    gap = float(os.environ.get("BENCH_GAP_MS", "50")) / 1e3
    for r in range(warmup + samples):
        for name in ENGINES:
            if name not in calls:
                continue
            time.sleep(gap)  # the previous engine's threads stop spinning (head comment)
            t0 = time.perf_counter()
            calls[name]()
            if r >= warmup:
                times[name].append(time.perf_counter() - t0)
        if model.weight_bytes and r >= warmup:
            bw.append(triad(3))
    res = {"model": model.name, "threads": threads, "notes": notes,
           "median": {k: statistics.median(v) for k, v in times.items()},
           "samples": samples}
    if bw:
        res["triad_gbs"] = max(bw)
        res["floor"] = model.weight_bytes / (max(bw) * 1e9)
    return res


def worker(threads, names):
    os.sched_setaffinity(0, set(sorted(os.sched_getaffinity(0))[:threads]))
    os.environ["OMP_NUM_THREADS"] = str(threads)
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    import registry
    import torch
    torch.set_num_threads(threads)
    torch.set_num_interop_threads(1)
    triad_lib = ctypes.CDLL(build_triad())
    triad_lib.anchors_triad_gbs.restype = ctypes.c_double
    triad = triad_lib.anchors_triad_gbs
    samples = int(os.environ.get("BENCH_SAMPLES", "10"))
    warmup = int(os.environ.get("BENCH_WARMUP", "2"))
    for model in registry.select(names):
        try:
            res = bench_model(model, threads, samples, warmup, triad)
        except Exception as e:  # report the model, go on with the others
            res = {"model": model.name, "threads": threads, "error": str(e)[-800:]}
        print("RESULT " + json.dumps(res), flush=True)
        gc.collect()


# ---------------------------------------------------------------------------
# parent: one pinned worker per thread count, then the table


def ms(s):
    return f"{s * 1e3:.1f}" if s is not None else "-"


def ratio(a, b):
    return f"{a / b:.2f}x" if a is not None and b else "-"


def table(results, started, load, flags):
    lines = [f"# shloc beside XLA CPU, ONNX Runtime and PyTorch (same run)", "",
             f"Run {started} on {platform.node()} ({cpu_name()}, {os.cpu_count()} cores), "
             f"load average before the run: {load}. Medians of {results[0].get('samples', '?')} "
             "interleaved rounds after the same warm-up; ratios are shloc's latency over the "
             "anchor's (< 1: shloc is faster). shloc compile s: the shloc command alone, "
             "the least of BENCH_COMPILES in a row before the workers, unpinned "
             "(wall; the link into a shared library is not counted).", "",
             "| model | threads | shloc ms | XLA ms | ORT ms | PyTorch ms | shloc/XLA | shloc/ORT "
             "| shloc/PyTorch | floor ms | shloc/floor | shloc compile s |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        if "error" in r:
            lines.append(f"| {r['model']} | {r['threads']} | error: "
                         f"{r['error'].splitlines()[-1][:120] if r['error'] else '?'} |||||||||||")
            continue
        m = r["median"]
        s = m.get("shloc")
        fl = r.get("floor")
        cs = f"{r['compile_s']:.1f}" if r.get("compile_s") else "(cached)"
        lines.append(f"| {r['model']} | {r['threads']} | {ms(s)} | {ms(m.get('XLA'))} | "
                     f"{ms(m.get('ORT'))} | {ms(m.get('PyTorch'))} | {ratio(s, m.get('XLA'))} | "
                     f"{ratio(s, m.get('ORT'))} | {ratio(s, m.get('PyTorch'))} | {ms(fl)} | "
                     f"{ratio(s, fl)} | {cs} |")
    floors = [r for r in results if r.get("triad_gbs")]
    if floors:
        lines += ["", "Bandwidth floor = weights bytes / the best same-run STREAM triad "
                  "(bench/anchors.c) at the same thread count: " +
                  "; ".join(f"{r['model']} {r['threads']}T: triad {r['triad_gbs']:.1f} GB/s"
                            for r in floors) + "."]
    if flags:
        lines += ["", "shloc's flags beyond --threads (bench/README.md says why): " +
                  "; ".join(f"{name} `{' '.join(f)}`" for name, f in flags.items()) + "."]
    return "\n".join(lines) + "\n"


def cpu_name():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def main():
    args = sys.argv[1:]
    if args and args[0] == "--worker":
        worker(int(args[1]), args[2:])
        return 0
    threads = [1, 2]
    for a in list(args):
        if a.startswith("--threads="):
            threads = [int(t) for t in a.split("=", 1)[1].split(",")]
            args.remove(a)
    import registry
    for model in registry.select(args):
        model.export()
    started = time.strftime("%Y-%m-%d %H:%M %Z")
    load = " ".join(open("/proc/loadavg").read().split()[:3])
    for t in [t for t in threads if t > os.cpu_count()]:
        print(f"skipping {t} threads: {os.cpu_count()} cores")
    threads = [t for t in threads if t <= os.cpu_count()]
    compile_s = compile_all(registry.select(args), threads)
    results = []
    for t in threads:
        p = subprocess.run([sys.executable, __file__, "--worker", str(t)] + args,
                           stdout=subprocess.PIPE, text=True)
        got = [json.loads(l[7:]) for l in p.stdout.splitlines() if l.startswith("RESULT ")]
        if p.returncode or not got:
            print(p.stdout[-3000:])
            return 1
        for r in got:
            r["compile_s"] = compile_s.get((r["model"], t))
        results += got
    results.sort(key=lambda r: (registry.MODELS.index(registry.select([r["model"]])[0]),
                                r["threads"]))
    flags = {m.name: m.flags for m in registry.select(args) if m.flags}
    text = table(results, started, load, flags)
    os.makedirs(OUT_DIR, exist_ok=True)
    with open(os.path.join(OUT_DIR, "results.md"), "w") as f:
        f.write(text)
    with open(os.path.join(OUT_DIR, "results.json"), "w") as f:
        json.dump(results, f, indent=1)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
