"""Helpers shared by the model exporter, the same-run bench and the XLA
oracle: paths, shloc's elided-weight pattern reproduced in numpy, calling a
shloc-compiled model through ctypes, and compiling the same StableHLO text
with XLA's CPU compiler (jaxlib).

Runs in the virtual environment of `make anchors` (build/venv); only the
pattern and header helpers need nothing but numpy.
"""
import ctypes
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.path.join(ROOT, os.environ.get("BUILD", "build"))
SHARED = os.path.abspath(os.path.join(ROOT, os.environ.get("SHARED", "../shared")))
SHLOC = os.path.join(BUILD, "shloc")
SHLORT = os.path.join(BUILD, "libshlort.a")
MODELS_DIR = os.path.join(BUILD, "bench", "models")

DTYPES = {"f32": np.float32, "f64": np.float64, "f16": np.float16, "i1": np.bool_,
          "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
          "ui8": np.uint8, "ui16": np.uint16, "ui32": np.uint32, "ui64": np.uint64}

# ---------------------------------------------------------------------------
# dense_resource<__elided__> filled as `shloc --elided=pattern` fills it
# (frontend/dense.c, fill_elided): the i-th elided constant of the file, in
# text order, draws from splitmix64 seeded with 0x53484C4F + i * golden;
# each f32 element is lo + (hi - lo) * u with u the top 24 bits / 2^24,
# computed in double and rounded to float. Rank >= 2: U(-a, a), a =
# sqrt(6 / fan_in), fan_in = product of all dims but the last; otherwise
# [0.5, 1.5). `make oracle` checks this copy against shloc's own fill.

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
ELIDED = re.compile(r"dense_resource<__elided__>\s*:\s*tensor<([^>]*)>")


def splitmix64_stream(state, n):
    """The first n outputs of splitmix64 started at `state` (uint64 wraps)."""
    with np.errstate(over="ignore"):
        z = np.uint64(state) + GOLDEN * np.arange(1, n + 1, dtype=np.uint64)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def parse_tensor_type(spec):
    """'1x3x224x224xf32' -> ((1, 3, 224, 224), 'f32'); 'f32' -> ((), 'f32')."""
    parts = spec.split("x")
    return tuple(int(p) for p in parts[:-1]), parts[-1]


def elided_pattern(index, spec):
    """The values shloc --elided=pattern gives the index-th elided constant."""
    shape, elem = parse_tensor_type(spec)
    if elem != "f32":
        raise ValueError(f"elided constant of type tensor<{spec}>: only f32 is reproduced")
    n = int(np.prod(shape, dtype=np.int64))
    with np.errstate(over="ignore"):
        state = np.uint64(0x53484C4F) + np.uint64(index) * GOLDEN
    if len(shape) < 2 or n <= 0 or shape[-1] <= 0:
        lo, hi = 0.5, 1.5
    else:
        hi = float(np.sqrt(6.0 / max(n // shape[-1], 1)))
        lo = -hi
    u = (splitmix64_stream(state, n) >> np.uint64(40)).astype(np.float64) / 16777216.0
    return (lo + (hi - lo) * u).astype(np.float32).reshape(shape)


def fill_elided_text(text):
    """The program with every elided constant written out as a hex dense
    literal holding the pattern's values: the very weights shloc uses with
    --elided=pattern, in a text any StableHLO consumer parses."""
    count = [0]

    def repl(m):
        data = elided_pattern(count[0], m.group(1))
        count[0] += 1
        return f'dense<"0x{data.tobytes().hex().upper()}"> : tensor<{m.group(1)}>'

    return ELIDED.sub(repl, text)


# ---------------------------------------------------------------------------
# shloc-compiled models called through ctypes


def header_info(path):
    """Entry name, temp bytes and the (name, dtype, shape) of each argument
    and result, read from a header written by shloc."""
    text = open(path).read()
    entry = re.search(r"^int (\w+)\(", text, re.M).group(1)
    temp = int(re.search(r"#define \w+_TEMP_BYTES \(\(size_t\)(\d+)\)", text).group(1))
    tensors = re.findall(r"^ \*   (\w+)\s+tensor<([^>]*)>, \d+ bytes$", text, re.M)
    args = [(n, parse_tensor_type(t)[1], parse_tensor_type(t)[0]) for n, t in tensors
            if not n.startswith("result")]
    results = [(n, parse_tensor_type(t)[1], parse_tensor_type(t)[0]) for n, t in tensors
               if n.startswith("result")]
    return entry, temp, args, results


def shloc_compile(mlir, out_dir, threads, extra=(), opt="-O3", times=1):
    """Compiles `mlir` with shloc `times` times into a shared library;
    returns its path, the header's path and the least seconds shloc took
    (the link into a library not counted: for BERT-base's 340 MB of
    weights it takes as long)."""
    os.makedirs(out_dir, exist_ok=True)
    obj = os.path.join(out_dir, "model.o")
    cmd = [SHLOC, mlir, "-o", obj, opt, f"--threads={threads}", "--name=model"] + list(extra)
    secs = []
    for _ in range(times):
        t0 = time.perf_counter()
        r = subprocess.run(cmd, capture_output=True, text=True)
        secs.append(time.perf_counter() - t0)
        if r.returncode:
            raise RuntimeError(f"{' '.join(cmd)}\n{r.stderr[-3000:]}")
    lib = os.path.join(out_dir, "model.so")
    subprocess.run(["cc", "-shared", "-o", lib, obj, SHLORT, "-pthread", "-lm"], check=True)
    return lib, os.path.join(out_dir, "model.h"), min(secs)


def shloc_stale(mlir, out_dir):
    """Whether out_dir has no library newer than the program and shloc."""
    lib = os.path.join(out_dir, "model.so")
    return not os.path.exists(lib) or os.path.getmtime(lib) < max(os.path.getmtime(mlir),
                                                                   os.path.getmtime(SHLOC))


def shloc_cached(mlir, flags, threads, out_dir):
    """shloc_compile into out_dir where shloc_stale; returns (ShlocModel,
    shloc's compile seconds or None)."""
    secs = shloc_compile(mlir, out_dir, threads, flags)[2] if shloc_stale(mlir, out_dir) else None
    return ShlocModel(os.path.join(out_dir, "model.so"), os.path.join(out_dir, "model.h")), secs


class ShlocModel:
    """A compiled model: call(inputs) -> list of result arrays. Result and
    temp buffers are allocated once and reused, as an application would."""

    def __init__(self, lib, header):
        self.lib = ctypes.CDLL(lib)
        entry, temp, self.args, self.results = header_info(header)
        self.fn = getattr(self.lib, entry)
        self.fn.restype = ctypes.c_int
        self.fn.argtypes = [ctypes.c_void_p] * (len(self.args) + len(self.results) + 1)
        self.temp = np.zeros(max(temp, 1) + 64, np.uint8)
        off = (-self.temp.ctypes.data) % 64  # the temp must be 64-byte aligned
        self.temp_ptr = self.temp.ctypes.data + off
        self.outs = [np.zeros(s, DTYPES[d]) for _, d, s in self.results]

    def call(self, inputs):
        if len(inputs) != len(self.args):
            raise ValueError(f"{len(inputs)} inputs for {len(self.args)} arguments")
        ptrs = [np.ascontiguousarray(x).ctypes.data for x in inputs]
        rc = self.fn(*ptrs, *[o.ctypes.data for o in self.outs], self.temp_ptr)
        if rc:
            raise RuntimeError(f"the entry returned {rc}")
        return self.outs


# ---------------------------------------------------------------------------
# XLA's CPU compiler on the same StableHLO text


class XlaModel:
    """The StableHLO text compiled by jaxlib's CPU client. Inputs are put on
    the device once by `bind` so that timing measures execution only."""

    def __init__(self, text):
        import jax
        jax.config.update("jax_enable_x64", True)  # f64 and i64 inputs stay 64-bit
        from jax.extend import backend
        from jax._src.lib import xla_client as xc
        self.jax = jax
        client = backend.get_backend("cpu")
        self.exe = client.compile_and_load(text, client.devices()[:1], xc.CompileOptions())
        self.bound = None

    def bind(self, inputs):
        self.bound = [self.jax.device_put(np.ascontiguousarray(x)) for x in inputs]

    def run(self):
        res = self.exe.execute_sharded(self.bound).disassemble_into_single_device_arrays()
        for r in res:
            r[0].block_until_ready()
        return res

    def call(self, inputs):
        self.bind(inputs)
        return [np.asarray(r[0]) for r in self.run()]


class XlaWorker:
    """XLA in a child process, for programs that may crash it (XLA aborts
    the process on a failed internal CHECK): run(text, inputs) returns
    (results, None) or (None, message); after a crash the next call starts
    a fresh child."""

    def __init__(self):
        self.proc = None

    def start(self):
        env = dict(os.environ, JAX_PLATFORMS="cpu")
        self.proc = subprocess.Popen([sys.executable, __file__, "--xla-worker"], env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True)

    def run(self, text, inputs):
        if self.proc is None or self.proc.poll() is not None:
            self.start()
        fd, path = tempfile.mkstemp(suffix=".npz", prefix="shloc-xla-")
        os.close(fd)
        try:
            with open(path, "wb") as f:
                np.savez(f, *inputs)
            open(path + ".mlir", "w").write(text)
            self.proc.stdin.write(path + "\n")
            self.proc.stdin.flush()
            reply = self.proc.stdout.readline().strip()
            if not reply:
                self.proc.wait()
                return None, f"XLA crashed (exit {self.proc.returncode})"
            if reply != "ok":
                return None, reply[4:]
            with np.load(path + ".out.npz") as z:
                return [z[f"arr_{i}"] for i in range(len(z.files))], None
        finally:
            for p in (path, path + ".mlir", path + ".out.npz"):
                if os.path.exists(p):
                    os.unlink(p)

    def close(self):
        if self.proc and self.proc.poll() is None:
            self.proc.stdin.close()
            self.proc.wait()


def portable(a):
    """ml_dtypes arrays (bfloat16, float8, int4 ...) as plain NumPy: small
    integers widened to int64, small floats as their bit patterns (as shloc
    writes bf16), so that .npz files carry them."""
    if a.dtype.kind != "V" and a.dtype.__class__.__module__ == "numpy.dtypes":
        return a
    if a.dtype.name.startswith(("int", "uint")):
        return a.astype(np.int64)
    return a.view({1: np.uint8, 2: np.uint16}[a.dtype.itemsize])


def xla_worker_loop():
    """The child of XlaWorker: one request (an .npz path) per line."""
    for line in sys.stdin:
        path = line.strip()
        try:
            with np.load(path) as z:
                inputs = [z[f"arr_{i}"] for i in range(len(z.files))]
            outs = [portable(o) for o in XlaModel(open(path + ".mlir").read()).call(inputs)]
            with open(path + ".out.npz", "wb") as f:
                np.savez(f, *outs)
            reply = "ok"
        except Exception as e:  # the program's error, for the parent to report
            msg = str(e).strip().splitlines()
            reply = "err " + (msg[0][:300] if msg else repr(e))
        sys.stdout.write(reply + "\n")
        sys.stdout.flush()


def main_arg_specs(text):
    """The tensor types of @main's arguments, in order."""
    m = re.search(r"func\.func (?:public )?@main\((.*?)\)\s*->", text, re.S)
    return re.findall(r"%[\w]+: tensor<([^>]*)>", m.group(1)) if m else []


def random_inputs(specs, seed):
    """Seeded inputs for the given tensor types: floats in [-1, 1),
    integers in [0, 8), booleans half true."""
    rng = np.random.default_rng(seed)
    out = []
    for spec in specs:
        shape, elem = parse_tensor_type(spec)
        dt = DTYPES[elem]
        if np.issubdtype(dt, np.floating):
            out.append((rng.random(shape) * 2 - 1).astype(dt))
        elif dt == np.bool_:
            out.append(rng.random(shape) < 0.5)
        else:
            out.append(rng.integers(0, 8, size=shape).astype(dt))
    return out


if __name__ == "__main__" and sys.argv[1:] == ["--xla-worker"]:
    xla_worker_loop()
