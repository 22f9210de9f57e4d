#!/usr/bin/env python3
"""Runs every test of shloc and closes with one `N passed, N failed` line.

Stages (each prints its own failures):
  unit         tests/unit/test_*.c, built against the compiler's objects
  frontend     tests/frontend/*.mlir: diagnostics (`// ERROR: text` lines)
  limits       tests/limits: huge, deep and long generated inputs give an
               error within a bounded peak RSS
  run          tests/run/*.mlir: `shloc run` with `// INPUT:` / `// OUTPUT:`
  header       tests/header: the generated header compiles as C99 and C++,
               and a C program linked with the object gets the right answer
  examples     the example programs build and print what they should
  native       tests/native: C drivers linked with compiled objects (8
               threads calling one model; adversarial dynamic indices
               against guard pages)
  differential the real models agree at -O0 and -O3
  verify       verifier agreement on tests/verify/*.mlir (all) and on the
               upstream verifier cases (ratchet)
  fuzz         `make fuzz-smoke`: the error cases under LeakSanitizer, then
               each libFuzzer target for 60 s (skipped without clang-19)
  conformance  the conformance scoreboard (ratchet on the passing list)
Environment: BUILD (build dir), SHARED (../shared), ONLY=stage,stage,
CC and SAN_FLAGS (set by `make SAN=1 test` / `make TSAN=1 test`: everything
the stages build is compiled and linked with them), TSAN=1 (only the stages
that run threads, unless ONLY says otherwise).
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, os.environ.get("BUILD", "build"))
SHARED = os.path.abspath(os.path.join(ROOT, os.environ.get("SHARED", "../shared")))
SHLOC = os.path.join(BUILD, "shloc")
LLVM_CONFIG = os.environ.get("LLVM_CONFIG", "llvm-config-19")
CC = os.environ.get("CC") or "cc"
SAN_FLAGS = os.environ.get("SAN_FLAGS", "").split()
TSAN = os.environ.get("TSAN") == "1"
# Any sanitizer report fails its test: each sanitizer exits with its own
# status (never 1, which is the status of an expected diagnostic) and UBSan
# stops at the first report (with -fno-sanitize-recover=all it must).
# Archer (LLVM libomp's TSan tool) asks TSan to ignore the uninstrumented
# OpenMP runtime itself.
SANITIZER_ENV = {
    "ASAN_OPTIONS": "exitcode=86:detect_leaks=1:abort_on_error=0:detect_stack_use_after_return=1",
    "UBSAN_OPTIONS": "exitcode=87:halt_on_error=1:print_stacktrace=1",
    "TSAN_OPTIONS": "exitcode=88:halt_on_error=1:ignore_noninstrumented_modules=1",
}

passed = 0
failed = 0


def ok(name):
    global passed
    passed += 1
    print(f"PASS {name}", flush=True)


def fail(name, why):
    global failed
    failed += 1
    print(f"FAIL {name}: {why}", flush=True)


def run(cmd, timeout=600, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kw)


def closing_counts(text):
    """The last `N passed, N failed` line of a sub-runner's output."""
    m = re.findall(r"^(\d+) passed, (\d+) failed", text, re.M)
    return (int(m[-1][0]), int(m[-1][1])) if m else None


def stage_unit():
    llvm = run([LLVM_CONFIG, "--cflags"]).stdout.split()
    libs = run([LLVM_CONFIG, "--ldflags", "--libs", "core", "orcjit", "native",
                "passes", "target", "mc", "analysis"]).stdout.split()
    libs += run([LLVM_CONFIG, "--system-libs"]).stdout.split()
    # The objects of the current sources (stale objects of deleted files in
    # the build directory are not linked).
    objs = []
    for d in ("ir", "frontend", "passes", "codegen"):
        objs += [os.path.join(BUILD, d, f[:-2] + ".o")
                 for f in sorted(os.listdir(os.path.join(ROOT, d))) if f.endswith(".c")]
    objs.append(os.path.join(BUILD, "libshlort.a"))
    udir = os.path.join(ROOT, "tests", "unit")
    for src in sorted(os.listdir(udir)):
        if not (src.startswith("test_") and src.endswith(".c")):
            continue
        name = f"unit/{src}"
        exe = os.path.join(BUILD, "tests", src[:-2])
        os.makedirs(os.path.dirname(exe), exist_ok=True)
        cmd = ([CC, "-std=c11", "-D_GNU_SOURCE", "-Wall", "-Wextra", "-O1", "-g"] + SAN_FLAGS +
               llvm +
               ["-I" + ROOT, os.path.join(udir, src), "-o", exe] + objs + libs +
               ["-fopenmp", "-lm"])
        r = run(cmd)
        if r.returncode:
            fail(name, "build failed\n" + r.stderr[-2000:])
            continue
        r = run([exe])
        counts = closing_counts(r.stdout)
        if r.returncode or not counts or counts[1]:
            fail(name, (r.stdout + r.stderr)[-2000:])
        else:
            ok(f"{name} ({counts[0]} checks)")


def stage_frontend():
    d = os.path.join(ROOT, "tests", "frontend")
    for f in sorted(os.listdir(d)):
        if not f.endswith(".mlir"):
            continue
        path = os.path.join(d, f)
        want = [l.split("ERROR:", 1)[1].strip() for l in open(path) if "// ERROR:" in l]
        r = run([SHLOC, "--emit=mlir", "-o", "/dev/null", path], timeout=60)
        name = f"frontend/{f}"
        if not want:
            if r.returncode == 0:
                ok(name)
            else:
                fail(name, "expected success:\n" + r.stderr[-1500:])
            continue
        if r.returncode != 1:
            fail(name, f"exit status {r.returncode}, want 1\n{r.stderr[-1500:]}")
            continue
        missing = [w for w in want if w not in r.stderr]
        if missing:
            fail(name, f"missing {missing!r} in:\n{r.stderr[-1500:]}")
        else:
            ok(name)


def run_sub_runner(name, cmd, timeout):
    """A Python sub-runner whose own `N passed, N failed` adds to ours."""
    r = run([sys.executable] + cmd, timeout=timeout)
    sys.stdout.write(r.stdout)
    counts = closing_counts(r.stdout)
    if r.returncode or not counts:
        fail(name, (r.stdout + r.stderr)[-2000:])
        return
    add(counts)


def stage_limits():
    cmd = [os.path.join(ROOT, "tests", "limits", "limits.py"), SHLOC,
           os.path.join(BUILD, "tests", "limits")]
    run_sub_runner("limits", cmd + (["--sanitized"] if SAN_FLAGS else []), 600)


def stage_run():
    """`// RUN-ARGS: ...` (extra shloc run args), `// OUTPUT: line` (expected stdout lines).
    `// RUN-CMD: check`: a program with check ops, run by `shloc check`;
    OUTPUT is its closing line."""
    d = os.path.join(ROOT, "tests", "run")
    for f in sorted(os.listdir(d)):
        if not f.endswith(".mlir"):
            continue
        path = os.path.join(d, f)
        text = open(path).read()
        args = []
        for a in re.findall(r"^// RUN-ARGS: (.*)$", text, re.M):
            args += eval_args(a)
        want = re.findall(r"^// OUTPUT: (.*)$", text, re.M)
        check = re.search(r"^// RUN-CMD: check$", text, re.M) is not None
        r = run([SHLOC, "check" if check else "run", path] + args, timeout=120)
        name = f"run/{f}"
        got = r.stdout.strip().splitlines()[-1:] if check else r.stdout.strip().splitlines()
        if r.returncode:
            fail(name, r.stderr[-1500:])
        elif got != want:
            fail(name, f"got {got!r}, want {want!r}")
        else:
            ok(name)


def eval_args(s):
    import shlex
    return shlex.split(s)


def stage_header():
    d = os.path.join(ROOT, "tests", "header")
    script = os.path.join(d, "run_header_test.sh")
    if not os.path.exists(script):
        fail("header", "tests/header/run_header_test.sh missing")
        return
    r = run(["sh", script, SHLOC, BUILD], timeout=300,
            env=dict(os.environ, CC=CC, CFLAGS=" ".join(SAN_FLAGS)))
    if r.returncode:
        fail("header", (r.stdout + r.stderr)[-2000:])
    else:
        ok("header (C99, C++, link and run)")


def stage_examples():
    for ex in ("mnist", "threads"):
        d = os.path.join(ROOT, "examples", ex)
        out = os.path.join(BUILD, "examples", ex)
        os.makedirs(out, exist_ok=True)
        r = run(["make", "-s", "-C", d, "check", f"SHLOC={SHLOC}", f"OUT={out}", f"CC={CC}",
                 f"CFLAGS={' '.join(['-O2'] + SAN_FLAGS)}",
                 f"SHLORT={os.path.join(BUILD, 'libshlort.a')}"], timeout=300)
        if r.returncode:
            fail(f"examples/{ex}", (r.stdout + r.stderr)[-2000:])
        else:
            ok(f"examples/{ex}")


# tests/native/<driver>.c: the compiled objects it links, as
# (source .mlir, --name prefix, extra shloc options).
NATIVE = {
    "reentrant": [("reentrant.mlir", "ser", []), ("reentrant.mlir", "par", ["--threads=2"])],
    "indices": [("indices.mlir", "idx", [])],
}


def stage_native():
    d = os.path.join(ROOT, "tests", "native")
    out = os.path.join(BUILD, "tests", "native")
    os.makedirs(out, exist_ok=True)
    for driver, objects in NATIVE.items():
        name = f"native/{driver}"
        objs = []
        for src, prefix, opts in objects:
            obj = os.path.join(out, prefix + ".o")
            r = run([SHLOC, os.path.join(d, src), f"--name={prefix}", "-o", obj] + opts)
            if r.returncode:
                break
            objs.append(obj)
        if r.returncode:
            fail(name, "shloc failed\n" + r.stderr[-1500:])
            continue
        exe = os.path.join(out, driver)
        r = run([CC, "-std=c11", "-D_GNU_SOURCE", "-Wall", "-Wextra", "-O1", "-g"] + SAN_FLAGS +
                ["-I" + out, os.path.join(d, driver + ".c"), "-o", exe] + objs +
                [os.path.join(BUILD, "libshlort.a"), "-fopenmp", "-lpthread", "-lm"])
        if r.returncode:
            fail(name, "build failed\n" + r.stderr[-1500:])
            continue
        r = run([exe], timeout=300)
        counts = closing_counts(r.stdout)
        if r.returncode or not counts or counts[1]:
            fail(name, (r.stdout + r.stderr)[-2000:])
        else:
            ok(f"{name} ({counts[0]} checks)")


def stage_differential():
    run_sub_runner("differential", [os.path.join(ROOT, "tests", "differential.py"), SHLOC, SHARED],
                   1500)


def stage_verify():
    # Our own verifier cases (tests/verify/*.mlir, upstream's annotation
    # format): every one must agree.
    ours = sorted(glob.glob(os.path.join(ROOT, "tests", "verify", "*.mlir")))
    r = run([sys.executable, os.path.join(ROOT, "tests", "verify", "run_verify.py"), SHLOC] + ours,
            timeout=300)
    counts = closing_counts(r.stdout)
    if r.returncode or not counts:
        fail("verify/own cases", (r.stdout + r.stderr)[-3000:])
    else:
        ok(f"verify/own cases ({counts[0]} agree)")
    cases = os.path.join(SHARED, "conformance", "verify", "ops_stablehlo.mlir")
    if not os.path.exists(cases):
        print(f"NOTICE verify: {cases} absent, skipped")
        return
    r = run([sys.executable, os.path.join(ROOT, "tests", "verify", "run_verify.py"),
             SHLOC, cases, "--ratchet", os.path.join(ROOT, "tests", "verify", "passing.txt")],
            timeout=900)
    tail = r.stdout.strip().splitlines()[-3:]
    print("\n".join(tail))
    counts = closing_counts(r.stdout)
    if r.returncode or not counts:
        fail("verify ratchet", (r.stdout + r.stderr)[-3000:])
    else:
        ok(f"verify ratchet ({counts[0]} agreeing cases held)")


def stage_fuzz():
    if not shutil.which("clang-19"):
        print("NOTICE fuzz: clang-19 absent (`make deps` installs it), skipped")
        return
    r = run(["make", "-s", "-C", ROOT, "fuzz-smoke", f"SHARED={SHARED}",
             f"LLVM_CONFIG={LLVM_CONFIG}"], timeout=1200)
    lines = [l for l in r.stdout.splitlines() if l.startswith("fuzz")]
    print("\n".join(lines))
    if r.returncode:
        fail("fuzz-smoke", (r.stdout + r.stderr)[-3000:])
    else:
        nfuzzers = len([l for l in lines if "no finding" in l])
        ok(f"fuzz-smoke ({nfuzzers} fuzzers, error cases leak-free)")


def stage_conformance():
    # A sanitized compiler is 2-3x slower: the per-case timeout (20 s)
    # would turn a loaded machine into regressions.
    env = dict(os.environ, BUILD=BUILD, SHARED=SHARED)
    if SAN_FLAGS:
        env.setdefault("CASE_TIMEOUT", "60")
    r = run(["sh", os.path.join(ROOT, "tests", "conformance.sh"), "--ratchet"], timeout=2400,
            env=env)
    sys.stdout.write(r.stdout[-3000:])
    if r.returncode:
        fail("conformance ratchet", (r.stdout + r.stderr)[-3000:])
    elif "conformance skipped" not in r.stdout:  # no corpus: nothing was checked
        ok("conformance ratchet")


def add(counts):
    global passed, failed
    passed += counts[0]
    failed += counts[1]


STAGES = [("unit", stage_unit), ("frontend", stage_frontend), ("limits", stage_limits),
          ("run", stage_run),
          ("header", stage_header), ("examples", stage_examples), ("native", stage_native),
          ("differential", stage_differential), ("verify", stage_verify), ("fuzz", stage_fuzz),
          ("conformance", stage_conformance)]


# The stages whose code runs on several threads; the rest would only run the
# single-threaded compiler under TSan, slowly.
TSAN_STAGES = "run,examples,native"


def main():
    only = set(filter(None, os.environ.get("ONLY", TSAN_STAGES if TSAN else "").split(",")))
    for k, v in SANITIZER_ENV.items():
        os.environ.setdefault(k, v)
    if TSAN:
        # libomp looks for Archer on the loader path, where Debian does not
        # put it; without it every parallel region reports false races.
        libdir = run([LLVM_CONFIG, "--libdir"]).stdout.strip()
        os.environ.setdefault("OMP_TOOL_LIBRARIES", os.path.join(libdir, "libarcher.so"))
    if not os.path.exists(SHLOC):
        print(f"{SHLOC} not built")
        print("0 passed, 1 failed")
        return 1
    for name, fn in STAGES:
        if only and name not in only:
            continue
        print(f"== {name}", flush=True)
        try:
            fn()
        except subprocess.TimeoutExpired as e:
            fail(name, f"timeout: {e}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
