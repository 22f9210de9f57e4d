#!/usr/bin/env python3
"""Cross targets give the host's results (the cross stage, `make test-cross`).

For each target, tests/run/*.mlir are compiled with --target/--cpu and
--packed-entry, linked with tests/cross/driver.c and a libshlort.a built
for the target (`make runtime CC=... BUILD=...`), run (under qemu-user for
other architectures) on the `// RUN-ARGS:` inputs, and their printed results
compared with the host's `shloc run` and with the `// OUTPUT:` lines. The
example programs (examples/mnist, examples/threads) are built for the target
and must print their own "match the reference" line.

Targets: aarch64-linux-gnu and riscv64-linux-gnu (rv64gc: shloc's
default for the triple; and rv64gcv, with the vector extension) under qemu with
Debian's cross gcc, and x86-64-v3 (AVX2, no AVX-512) on the host. A target whose compiler or emulator is missing is
skipped with a notice (`make deps` installs them).

usage: cross.py SHLOC BUILD [TARGET...]; closes with `N passed, N failed`.
"""
import concurrent.futures
import functools
import os
import re
import shlex
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests"))
import programs  # noqa: E402

# name, shloc options, C compiler, emulator command (empty: runs here)
TARGETS = [
    ("aarch64", ["--target=aarch64-linux-gnu"], "aarch64-linux-gnu-gcc",
     ["qemu-aarch64", "-L", "/usr/aarch64-linux-gnu"]),
    # No --features: shloc defaults to rv64gc (lp64d, Debian's libc ABI),
    # as clang does.
    ("riscv64", ["--target=riscv64-linux-gnu"],
     "riscv64-linux-gnu-gcc", ["qemu-riscv64", "-L", "/usr/riscv64-linux-gnu"]),
    # The vector extension: LLVM's scalable vectors (vsetvli, vfmacc ...),
    # run with 256-bit vector registers.
    ("riscv64-rvv", ["--target=riscv64-linux-gnu", "--features=+m,+a,+f,+d,+c,+v"],
     "riscv64-linux-gnu-gcc",
     ["qemu-riscv64", "-cpu", "rv64,v=true,vlen=256", "-L", "/usr/riscv64-linux-gnu"]),
    ("x86-64-v3", ["--cpu=x86-64-v3"], "cc", []),
]

# The GEMM microkernel tile each target must get (codegen/gemm.c's table),
# read from the names of the objects' microkernels (shloc_f32_gemm_6x12__neon).
TILES = {"aarch64": "neon", "riscv64": "generic", "riscv64-rvv": "generic",
         "x86-64-v3": "avx2"}
NM = shutil.which("llvm-nm-19") or shutil.which("llvm-nm")
# Programs that must show a microkernel: dot_kernel's GEMMs use the blocked
# engine, whose microkernel is never inlined (any other program's
# microkernels must be the target's tile too).
GEMM_PROGRAMS = {"dot_kernel"}

# Bugs these targets expose, with their cause. Such a case prints KNOWN and
# counts neither way; once it passes it FAILs until removed here.
KNOWN = {
    # Not codegen's: the code is valid RVV 1.0 (an f32 -> i8 saturating
    # convert narrows with vfncvt.rtz.x.f.w), which Debian 12's qemu-riscv64
    # 7.2 cannot translate (assertion in decode_save_opc).
    "riscv64-rvv/run/quant_per_axis_hybrid":
        "qemu-riscv64 7.2 aborts translating vfncvt.rtz.x.f.w (decode_save_opc assertion)",
}

passed = failed = 0


def ok(name):
    global passed
    if name in KNOWN:
        return fail(name, "a KNOWN failure now passes: remove it from tests/cross/cross.py")
    passed += 1
    print(f"PASS {name}", flush=True)


def fail(name, why):
    global failed
    if name in KNOWN and not why.startswith("a KNOWN"):
        print(f"KNOWN {name}: {KNOWN[name]}", flush=True)
        return
    failed += 1
    print(f"FAIL {name}: {why}", flush=True)


def run(cmd, timeout=300, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kw)


def run_args(text):
    """The `// RUN-ARGS:` of a program split into compile options and inputs."""
    args = []
    for a in re.findall(r"^// RUN-ARGS: (.*)$", text, re.M):
        args += shlex.split(a)
    inputs = [a for a in args if a.startswith("--input=")]
    return [a for a in args if a not in inputs], inputs


def entry_name(header, opts):
    """The C name of the entry shloc run would call: --entry, @main, or the only one."""
    names = re.findall(r"^int (prog_\w+)\(", open(header).read(), re.M)
    want = [o.split("=", 1)[1] for o in opts if o.startswith("--entry=")]
    if want:
        return "prog_" + want[0]
    return "prog_main" if "prog_main" in names or len(names) != 1 else names[0]


def build_runtime(name, cc, build):
    """libshlort.a compiled by the target's C compiler (the host's for x86),
    one per compiler."""
    if cc == "cc":
        return os.path.join(build, "libshlort.a")
    out = os.path.join(build, "cross", cc)
    r = run(["make", "-s", "-C", ROOT, "runtime", f"BUILD={out}", f"CC={cc}"])
    if r.returncode:
        fail(f"{name}/runtime", r.stderr[-1500:])
        return None
    return os.path.join(out, "libshlort.a")


@functools.lru_cache(maxsize=None)
def host_outputs(shloc, path):
    """The host's `shloc run` output lines of a program (None if it failed)."""
    opts, inputs = run_args(open(path).read())
    r = run([shloc, "run", path] + opts + inputs, timeout=120)
    return r.stdout.strip().splitlines() if r.returncode == 0 else None


def check_tile(name, stem, obj):
    """None when the object's GEMM microkernels are the target's tile (and a
    GEMM program has one), else why not."""
    if not NM:
        return None
    syms = run([NM, obj]).stdout
    tiles = set(re.findall(r"shloc_\w+_gemm\w*?_\d+x\d+__(\w+)", syms))
    if tiles - {TILES[name]} or (stem in GEMM_PROGRAMS and not tiles):
        return f"GEMM tiles {sorted(tiles) or 'none'}, want {TILES[name]}"
    return None


def check_program(target, work, shloc, rt, path, also=None):
    """(case, None) when the target's output is the host's and the expected
    one, else (case, why); with `also` (a `// RUN-ALSO:` line, index and
    args) the program compiled with those args added."""
    name, topts, cc, emu = target
    stem = os.path.basename(path)[:-5]
    case = f"{name}/run/{stem}"
    text = open(path).read()
    opts, inputs = run_args(text)
    if also:
        case += f" ({also[1]})"
        stem += f"_also{also[0]}"
        opts += shlex.split(also[1])
    want = re.findall(r"^// OUTPUT: (.*)$", text, re.M)
    obj = os.path.join(work, stem + ".o")
    r = run([shloc, path, "--packed-entry", "--name=prog", "-o", obj] + topts + opts)
    if r.returncode:
        return case, "compile: " + r.stderr[-1500:]
    why = check_tile(name, stem, obj)
    if why:
        return case, why
    entry = entry_name(obj[:-2] + ".h", opts)
    exe = os.path.join(work, stem)
    r = run([cc, "-std=c11", "-Wall", "-Wextra", "-Werror", "-O1",
             "-I" + os.path.join(ROOT, "runtime"), "-I" + work,
             f"-DSHLOC_HEADER=\"{stem}.h\"", f"-DSHLOC_ENTRY={entry}",
             f"-DSHLOC_MACROS={entry.upper()}", os.path.join(ROOT, "tests", "cross", "driver.c"),
             obj, rt, "-pthread", "-o", exe])
    if r.returncode:
        return case, "link: " + r.stderr[-1500:]
    r = run(emu + [exe] + inputs)
    got = r.stdout.strip().splitlines()
    host = host_outputs(shloc, path)
    if r.returncode:
        return case, f"exit status {r.returncode}: {r.stderr[-1500:]}"
    if got != host:
        return case, f"got {got!r}, host shloc run {host!r}"
    if got != want:
        return case, f"got {got!r}, want {want!r}"
    return case, None


def check_example(target, work, shloc, rt, ex, opts, libs):
    """An example's own app.c, built for the target, checks itself."""
    name, topts, cc, emu = target
    case = f"{name}/examples/{ex}"
    d = os.path.join(work, "ex-" + ex)
    os.makedirs(d, exist_ok=True)
    src = os.path.join(ROOT, "examples", ex)
    model = [f for f in os.listdir(src) if f.endswith(".mlir")][0]
    # A copy, so that `#include "model.h"` finds this header, not one a
    # build of the example left beside the source.
    shutil.copy(os.path.join(src, "app.c"), d)
    obj = os.path.join(d, model[:-5] + ".o")
    r = run([shloc, os.path.join(src, model), "-o", obj] + topts + opts)
    if r.returncode:
        return case, "compile: " + r.stderr[-1500:]
    exe = os.path.join(d, "app")
    r = run([cc, "-std=c99", "-O2", "-I" + src, os.path.join(d, "app.c"), obj] +
            ([rt] if libs else []) + libs + ["-lm", "-o", exe])
    if r.returncode:
        return case, "link: " + r.stderr[-1500:]
    r = run(emu + [exe], timeout=600)
    if r.returncode or "match the reference" not in r.stdout:
        return case, (r.stdout + r.stderr)[-1500:]
    return case, None


def target_jobs(target, shloc, build):
    """The checks of one target as calls to make, [] when it is skipped."""
    name, _, cc, emu = target
    missing = [t for t in [cc] + emu[:1] if not shutil.which(t)]
    if missing:
        print(f"NOTICE cross/{name}: {' '.join(missing)} not installed (make deps), skipped")
        return []
    rt = build_runtime(name, cc, build)
    if not rt:
        return []
    work = os.path.join(build, "tests", "cross", name)
    os.makedirs(work, exist_ok=True)
    jobs = []
    for p in programs.deployable(ROOT):
        jobs.append(functools.partial(check_program, target, work, shloc, rt, p))
        also = programs.also_runs(open(p).read())
        jobs += [functools.partial(check_program, target, work, shloc, rt, p, a)
                 for a in enumerate(also)]
    jobs.append(functools.partial(check_example, target, work, shloc, rt, "mnist", [], []))
    jobs.append(functools.partial(check_example, target, work, shloc, rt, "threads",
                                  ["--threads=2"], ["-pthread"]))
    return jobs


def attempt(job):
    """Runs one check; a command that hangs fails its case, not the run."""
    try:
        return job()
    except subprocess.TimeoutExpired as e:
        target, what = job.args[0][0], os.path.basename(job.args[4])
        return f"{target}/{what}", f"timeout: {e}"


def main():
    shloc, build = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    only = set(sys.argv[3:])
    jobs = []
    for t in TARGETS:
        if not only or t[0] in only:
            jobs += target_jobs(t, shloc, build)
    # Two at a time (the machine's cores); results in order.
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for case, why in pool.map(attempt, jobs):
            if why is None:
                ok(case)
            else:
                fail(case, why)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
