#!/usr/bin/env python3
"""Runs every test of shloc and closes with one `N passed, N failed` line.

Stages (each prints its own failures):
  unit         tests/unit/test_*.c, built against the compiler's objects;
               tools/eval_order.py: no call in codegen/ or passes/ has two
               arguments that emit instructions, ops or size expressions
               (skipped without clang-query-19)
  runtime      tests/runtime: the runtime's own tests (grid, collectives,
               faults, stress, rng, the parallel-for team; MPI under
               mpirun when present)
  frontend     tests/frontend/*.mlir: diagnostics (`// ERROR: text` lines;
               `// ARGS: ...` compile options, e.g. --input-shapes)
  passes       tests/passes/*.mlir: the IR after a pass (NAME.PASS.out)
  limits       tests/limits: huge, deep and long generated inputs give an
               error within a bounded peak RSS
  run          tests/run/*.mlir: `shloc run` with `// INPUT:` / `// OUTPUT:`
  spmd         tests/spmd/*.mlir: grid programs (interpreter.run_parallel) by
               `shloc check` over threads, faults included (`// FAIL:`)
  mpi          `shloc check --mpi`: tests/spmd and the conformance
               run_parallel cases under mpirun (when mpirun exists)
  bytecode     tests/bytecode: StableHLO portable artifacts (MLIR bytecode)
               read into the IR of their text, run alike, corrupted copies
               rejected with a diagnostic
  header       tests/header: the generated header compiles as C99 and C++,
               and a C program linked with the object gets the right answer
  weights      --weights=embed|section|file (tests/weights): where the constants
               land (llvm-readelf), the weights file's layout and loader checks,
               a C app mapping it; --weights-align=2 MiB (section and segment);
               --bind-args from .npz and .safetensors
  examples     the example programs build and print what they should
  install      `make install` into a temporary prefix; an app built against
               it with pkg-config and with CMake (tests/install)
  baremetal    Cortex-M4F and rv32 objects: no libc, libm or runtime symbols
               (tests/baremetal); examples/cortex-m and the inline float code
               of targets without instructions (softfloat.py) under qemu-system-arm
  cross        run/ and example programs for aarch64, riscv64, riscv64+v (qemu-user)
               and x86-64-v3 give the host's results (tests/cross)
  jax          examples/jax and examples/pytorch: a function exported to
               StableHLO, compiled, linked into C and compared with the
               framework (needs BUILD/venv with jax / torch and torch-mlir)
  native       tests/native: C drivers linked with compiled objects (8
               threads calling one model; adversarial dynamic indices
               against guard pages; Winograd's edge tiles against guard
               pages; --check-args against NULL and
               misaligned buffers; GEMMs for i686 run as a static i386
               program, skipped without clang-19)
  differential the real models agree at -O0 and -O3
  verify       verifier agreement on tests/verify/*.mlir (all) and on the
               upstream verifier cases (ratchet)
  fuzz         `make fuzz-smoke`: the error cases under LeakSanitizer, then
               each libFuzzer target for 100k inputs from a fixed seed
               (skipped without clang-19)
  conformance  the conformance scoreboard (ratchet on the passing list)
Environment: BUILD (build dir), SHARED (../shared), ONLY=stage,stage,
CC and SAN_FLAGS (set by `make SAN=1 test` / `make TSAN=1 test`: everything
the stages build is compiled and linked with them), TSAN=1 (only the stages
that run threads, unless ONLY says otherwise).
"""
import difflib
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

import programs

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
# TSan ignores the accesses of uninstrumented modules (the JIT-compiled
# code of `shloc run`, libLLVM).
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


def counted(name, script, timeout):
    """Runs a Python sub-runner that prints PASS/FAIL lines and closes with
    `N passed, N failed`, and adds its counts."""
    r = run([sys.executable] + script, timeout=timeout)
    sys.stdout.write(r.stdout)
    counts = closing_counts(r.stdout)
    if r.returncode or not counts:
        fail(name, (r.stdout + r.stderr)[-2000:])
    else:
        add(counts)


def check_o3_pipeline():
    """codegen/optsplit.c runs default<O3> as two texts, PIPE_IPO on the
    whole module, then PIPE_LOCAL on the two halves: joined, they must be
    the pass list LLVM's opt prints for default<O3> (under the options
    target.c sets; opt appends its own `verify`), or the split objects
    would be optimized unlike -O3's. The text has no thresholds: that
    the inliner's options match -O3's own is not checked here.
    PIPE_LOCAL is followed by CG_PIPE_LSR (codegen.h: the loop strength
    reduction the backend leaves out), which is not part of default<O3>."""
    src = open(os.path.join(ROOT, "codegen", "optsplit.c")).read()

    def text(name):
        m = re.search(r"static const char %s\[\] =\s*((?:\"[^\"]*\"\s*)+)(?:CG_PIPE_LSR\s*)?;" % name, src)
        return "".join(re.findall(r'"([^"]*)"', m.group(1))) if m else ""

    m = re.search(r"set_llvm_options\(void\) \{.*?argv\[\] = \{(.*?)\};",
                  open(os.path.join(ROOT, "codegen", "target.c")).read(), re.S)
    opts = [o for o in re.findall(r'"(-[^"]+)"', m.group(1)) if o != "-disable-lsr"] if m else []
    lsr = re.search(r"static const char PIPE_LOCAL\[\] =\s*(?:\"[^\"]*\"\s*)+CG_PIPE_LSR;", src)
    opt = os.path.join(run([LLVM_CONFIG, "--bindir"]).stdout.strip(), "opt")
    r = run([opt, "-mtriple=x86_64-unknown-linux-gnu", "-passes=default<O3>",
             "-print-pipeline-passes", "-disable-output"] + opts)
    got = r.stdout.strip().removesuffix(",verify").split(",")
    want = (text("PIPE_IPO") + "," + text("PIPE_LOCAL")).split(",")
    if r.returncode or not opts or not lsr or got != want:
        diff = "\n".join(difflib.unified_diff(got, want, "opt", "optsplit.c", lineterm="", n=1))
        fail("unit/optsplit pipeline", (r.stderr + diff)[-2000:])
    else:
        ok("unit/optsplit pipeline (PIPE_IPO + PIPE_LOCAL = opt's default<O3>, then CG_PIPE_LSR)")


def check_eval_order():
    """The builder receives the instructions of two emitting arguments of
    one call in the order the C compiler evaluates them (unspecified: gcc
    right to left, clang left to right), so the objects would depend on
    the compiler that built shloc (tools/eval_order.py)."""
    if not shutil.which("clang-query-19"):
        print("NOTICE unit/eval_order: clang-query-19 absent (`make deps` installs clang-tools-19), "
              "skipped")
        return
    lint = [sys.executable, os.path.join(ROOT, "tools", "eval_order.py")]
    cases = os.path.join(ROOT, "tests", "unit", "eval_order_cases.c")
    want = [i + 1 for i, l in enumerate(open(cases)) if l.rstrip().endswith("<- site */")]
    r = run(lint + [cases])
    got = [int(n) for n in re.findall(r"^\S+:(\d+):\d+: two emitting", r.stdout, re.M)]
    if r.returncode != 1 or got != want:
        fail("unit/eval_order cases", f"sites on lines {got}, expected {want}\n{r.stdout}{r.stderr}"[-3000:])
    else:
        ok(f"unit/eval_order cases ({len(want)} sites found)")
    r = run(lint)
    if r.returncode:
        fail("unit/eval_order", (r.stdout + r.stderr)[-3000:])
    else:
        ok(f"unit/eval_order ({r.stdout.strip().splitlines()[-1]})")


def check_skinny_fold():
    """gemm.c's skinny_fold writes its multiply-adds as x86 inline asm
    (FMA3 vfmadd231, 14 accumulators and 2 more registers): only on
    64-bit x86 with FMA3. Bulldozer has FMA4 alone (vfmaddps: FMA3 would
    be SIGILL there) and 32-bit x86 has 8 vector registers."""
    prog = os.path.join(ROOT, "tests", "run", "dot_skinny_args.mlir")
    want = {"--cpu=znver3": True, "--cpu=bdver1": False,
            "--target=i686-linux-gnu --features=+avx2,+fma": False}
    asm = {}
    for opts, fold in want.items():
        r = run([SHLOC, prog, "--emit=asm", "-o", "-"] + opts.split())
        asm[opts] = r.stdout
        n = r.stdout.count("#APP")
        if r.returncode or (n > 0) != fold:
            fail(f"unit/skinny_fold {opts}", f"{n} inline asm blocks, expected {'some' if fold else 'none'}"
                 f"\n{r.stderr[-1000:]}")
        else:
            ok(f"unit/skinny_fold {opts} ({n} inline asm blocks)")
    # The plans fit i686's 8 vector registers: its 7-row strip is one
    # vector wide (7 accumulators, B, a broadcast), not x86-64's two.
    opts = "--target=i686-linux-gnu --features=+avx2,+fma"
    i686 = asm[opts]
    if "shloc_f32_gemm_skinny_7x8:" in i686 and "shloc_f32_gemm_skinny_7x16:" not in i686:
        ok(f"unit/skinny_plan {opts} (7x8 strips)")
    else:
        fail(f"unit/skinny_plan {opts}", "no 7x8 strip, or a 7x16 one (16 registers' plan)")


def check_cpu_names():
    """--cpu=native is the host's CPU and features (the default's object);
    a CPU LLVM does not know ends in a diagnostic and exit status 1 (LLVM's
    fatal error, which aborted before), as does native with --target."""
    prog = os.path.join(ROOT, "tests", "run", "dot_skinny_args.mlir")
    objs = [os.path.join(BUILD, "tests", f"cpu_{n}.o") for n in ("default", "native", "bogus")]
    os.makedirs(os.path.dirname(objs[0]), exist_ok=True)
    run([SHLOC, prog, "-o", objs[0]])
    r = run([SHLOC, prog, "--cpu=native", "-o", objs[1]])
    if r.returncode == 0 and open(objs[0], "rb").read() == open(objs[1], "rb").read():
        ok("unit/cpu native")
    else:
        fail("unit/cpu native", r.stderr[-1000:] or "objects differ from the default's")
    for opts, want in ((["--cpu=bogus"], "LLVM cannot compile this program for the target"),
                       (["--cpu=native", "--target=aarch64-linux-gnu"], "--cpu=native names the host")):
        r = run([SHLOC, prog, "-o", objs[2]] + opts)
        name = f"unit/cpu {' '.join(opts)}"
        if r.returncode == 1 and want in r.stderr and not os.path.exists(objs[2]):
            ok(name)
        else:
            fail(name, f"exit {r.returncode}\n{r.stderr[-1000:]}")


def check_conv_loop_marks():
    """A convolution kernel's loops are marked as written in vectors (no
    LLVM vectorizing or unrolling: codegen/core.c cg_loop_vector), but its
    epilogue's (bias, relu) are left to LLVM, which vectorizes them:
    marking them too cost ResNet-50 1.09-1.21x its run time."""
    prog = os.path.join(ROOT, "tests", "run", "gemm_epilogue.mlir")
    ir = run([SHLOC, prog, "--emit=llvm", "-o", "-"]).stdout
    marked = '!"llvm.loop.vectorize.enable", i1 false' in ir
    vectorized = '!"llvm.loop.isvectorized"' in ir
    if marked and vectorized:
        ok("unit/conv_loop_marks (conv loops marked, epilogue vectorized)")
    else:
        fail("unit/conv_loop_marks", f"marked {marked}, epilogue vectorized {vectorized}")


def check_conv_fetch():
    """The AVX-512 convolution microkernel fetches the next panel of B
    into L2 (prefetcht1) but on Sapphire Rapids and its successors, by
    CPU name or by AMX tiles (gemm.c gemm_tiles): ResNet-50 ran 2.6-4.2%
    faster there without the fetch. A VM's Sapphire Rapids core that
    LLVM's host detection names rocketlake has +amx-tile among its
    features; a plain --cpu=rocketlake (a Rocket Lake desktop, 512 KiB L2)
    keeps the fetch."""
    prog = os.path.join(ROOT, "tests", "run", "conv_indirect.mlir")
    for flags, fetch in ((["--cpu=sapphirerapids"], False), (["--cpu=graniterapids"], False),
                         (["--cpu=rocketlake", "--features=+avx512f,+amx-tile"], False),
                         (["--cpu=rocketlake"], True), (["--cpu=znver4"], True),
                         (["--cpu=icelake-server"], True)):
        cpu = " ".join(flags)
        r = run([SHLOC, prog, "--emit=asm", "-o", "-"] + flags)
        micro = re.findall(r"^shloc_f32_gemm_conv_\w+:\n(.*?)^\.Lfunc_end", r.stdout, re.M | re.S)
        n = sum(m.count("prefetcht1") for m in micro)
        if r.returncode or not micro or (n > 0) != fetch:
            fail(f"unit/conv_fetch {cpu}", f"{len(micro)} microkernels, {n} prefetcht1, "
                 f"expected {'some' if fetch else 'none'}\n{r.stderr[-1000:]}")
        else:
            ok(f"unit/conv_fetch {cpu} ({n} prefetcht1 in {len(micro)} microkernels)")


def check_tall_slices():
    """Which CPUs slice a tall dot 1024 deep (gemm.c gemm_tiles' kc_tall,
    the buffers pass's scratch): a 1024^3 dot's kernel scratch is its Bp,
    KC x NR floats, plus 64 bytes of row pointers; AVX-512's NR is 64, so
    4 x 1024 x 64 + 64 with kc_tall 1024 and 4 x 512 x 64 + 64 on Zen 4
    (KC 512); AVX2's NR is 24: 4 x 1024 x 24 + 64."""
    prog = os.path.join(ROOT, "bench", "dot_1024.mlir")
    for cpu, kc, nr in (("znver4", 512, 64), ("sapphirerapids", 1024, 64),
                        ("icelake-server", 1024, 64), ("x86-64-v4", 1024, 64),
                        ("x86-64-v3", 1024, 24)):
        r = run([SHLOC, prog, f"--cpu={cpu}", "--print-memory-plan", "-o", os.devnull])
        m = re.search(r"kernel scratch\s+(\d+) bytes", r.stdout + r.stderr)
        want = 4 * kc * nr + 64
        if r.returncode or not m or int(m.group(1)) != want:
            fail(f"unit/tall_slices --cpu={cpu}", f"scratch {m and m.group(1)}, expected {want} "
                 f"(KC {kc} x NR {nr})\n{r.stderr[-1000:]}")
        else:
            ok(f"unit/tall_slices --cpu={cpu} (KC {kc}: {want} bytes of scratch)")


def check_split_formats():
    """A program whose optimization splits over two threads compiles for
    each x86-64 object format, and only ELF's object is emitted in two
    halves and joined (codegen/optsplit.c split_objects, elfjoin.c): a
    Mach-O triple taken for ELF failed in the join ("not an ELF object")."""
    prog = os.path.join(ROOT, "tests", "run", "split_shared_microkernel.mlir")
    magic = {"x86_64-unknown-linux-gnu": (b"\x7fELF", True),
             "x86_64-unknown-none-macho": (b"\xcf\xfa\xed\xfe", False),
             "x86_64-apple-macosx": (b"\xcf\xfa\xed\xfe", False),
             "x86_64-pc-windows-msvc": (b"\x64\x86", False)}
    with tempfile.TemporaryDirectory() as d:
        for triple, (head, halves) in magic.items():
            name = f"unit/split_formats {triple}"
            obj = os.path.join(d, triple + ".o")
            r = run([SHLOC, prog, f"--target={triple}", "--time-passes", "-o", obj])
            got = open(obj, "rb").read(len(head)) if r.returncode == 0 else b""
            if r.returncode or got != head:
                fail(name, f"rc {r.returncode}, object starts {got!r}\n{r.stderr[-1000:]}")
            elif ("llvm-emit-2" in r.stderr) != halves:
                fail(name, f"emitted in two halves: {not halves}, want {halves}")
            else:
                ok(f"{name} ({'two halves joined' if halves else 'one object'})")


def stage_unit():
    check_o3_pipeline()
    check_conv_loop_marks()
    check_conv_fetch()
    check_tall_slices()
    check_split_formats()
    check_eval_order()
    check_skinny_fold()
    check_cpu_names()
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
               ["-pthread", "-lm"])
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


def stage_runtime():
    env = dict(os.environ, BUILD=BUILD)
    # The build's sanitizers too: its libshlort.a is instrumented.
    env.setdefault("CFLAGS", " ".join(["-std=c11", "-D_GNU_SOURCE", "-Wall", "-Wextra", "-O2",
                                       "-g"] + SAN_FLAGS))
    r = run(["sh", os.path.join(ROOT, "tests", "runtime", "run.sh")], timeout=1800, env=env,
            cwd=ROOT)
    for line in r.stdout.splitlines():
        if line.startswith("PASS "):
            ok(line[5:])
        elif line.startswith("FAIL ") and line.startswith("FAIL runtime/"):
            fail(line[5:], "")
        elif line.startswith(("FAIL", "NOTICE", "  ")):
            print(line)
    if r.returncode and "FAIL runtime/" not in r.stdout:
        fail("runtime", (r.stdout + r.stderr)[-2000:])


def stage_frontend():
    d = os.path.join(ROOT, "tests", "frontend")
    for f in sorted(os.listdir(d)):
        if not f.endswith(".mlir"):
            continue
        path = os.path.join(d, f)
        want = [l.split("ERROR:", 1)[1].strip() for l in open(path) if "// ERROR:" in l]
        args = [a for l in open(path) if l.startswith("// ARGS: ") for a in eval_args(l[9:])]
        r = run([SHLOC, "--verify-each", "--emit=mlir", "-o", "/dev/null", path] + args, timeout=60)
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


def stage_limits():
    cmd = [os.path.join(ROOT, "tests", "limits", "limits.py"), SHLOC,
           os.path.join(BUILD, "tests", "limits")]
    counted("limits", cmd + (["--sanitized"] if SAN_FLAGS else []), 600)


def object_calls_back(path, cargs):
    """Whether the object of tests/run program `path` was emitted in two
    halves (codegen/optsplit.c: llvm-emit-2 in --time-passes) and how many
    calls its second half makes to local functions of the first (None
    without readelf): the halves are laid out first then second
    (codegen/elfjoin.c), and within one half the assembler resolves calls
    to local functions, so a call relocation against a local function
    placed before the call is one from the second half to a function the
    first exports to it (keep_only)."""
    readelf = shutil.which("llvm-readelf-19") or shutil.which("llvm-readelf") or shutil.which("readelf")
    with tempfile.TemporaryDirectory() as d:
        obj = os.path.join(d, "p.o")
        r = run([SHLOC, path, "--time-passes", "-o", obj] + cargs)
        if r.returncode or not readelf:
            return "llvm-emit-2" in r.stderr, None
        syms = subprocess.run([readelf, "-s", "-W", obj], capture_output=True, text=True).stdout
        relocs = subprocess.run([readelf, "-r", "-W", obj], capture_output=True, text=True).stdout
    local_fns = {l.split()[7] for l in syms.splitlines()
                 if len(l.split()) == 8 and l.split()[3] == "FUNC" and l.split()[4] == "LOCAL"
                 and l.split()[6] != "UND"}
    back = [l.split() for l in relocs.splitlines()
            if len(l.split()) >= 5 and l.split()[2] == "R_X86_64_PLT32" and l.split()[4] in local_fns]
    return "llvm-emit-2" in r.stderr, sum(int(x[3], 16) < int(x[0], 16) for x in back)


def run_one(name, path, args, want, check, errors, kernels=None, split_copies=None):
    """One run of a tests/run program: its output is want, or with errors it
    fails (exit status 1) with each text in its diagnostics; with kernels
    it compiles to that many kernel functions; with split_copies its
    optimization is split across two threads and keeps that many ".split"
    copies, and its object, emitted in two halves, has its second half
    call a function of the first (the shared microkernel, defined once)."""
    r = run([SHLOC, "check" if check else "run", "--verify-each", path] + args, timeout=120)
    if errors:
        missing = [e for e in errors if e not in r.stderr]
        if r.returncode != 1 or missing:
            fail(name, f"exit status {r.returncode}, missing {missing!r}:\n{r.stderr[-1500:]}")
        else:
            ok(name)
        return
    got = r.stdout.strip().splitlines()[-1:] if check else r.stdout.strip().splitlines()
    nk = ns = None
    if (kernels or split_copies is not None) and not r.returncode:
        cargs = [a for a in args if not a.startswith("--input")]
        ll = run([SHLOC, path, "--emit=llvm", "--time-passes", "-o", "-"] + cargs)
        nk = len(re.findall(r"^define internal .*@[\w.]+\.k\d+\(", ll.stdout, re.M))
        ns = len(re.findall(r"^define .*@[\w.]+\.split\(", ll.stdout, re.M))
        split = "llvm-opt-2" in ll.stderr
    halves, back = object_calls_back(path, cargs) if split_copies is not None else (None, None)
    if r.returncode:
        fail(name, r.stderr[-1500:])
    elif got != want:
        fail(name, f"got {got!r}, want {want!r}")
    elif kernels and nk != kernels:
        fail(name, f"{nk} kernel functions, want {kernels}")
    elif split_copies is not None and not split:
        fail(name, "the optimization was not split (no llvm-opt-2 in --time-passes)")
    elif split_copies is not None and ns != split_copies:
        fail(name, f"{ns} .split copies, want {split_copies}")
    elif split_copies is not None and not halves:
        fail(name, "the object was not emitted in two halves (no llvm-emit-2 in --time-passes)")
    elif back == 0:
        fail(name, "the object's second half calls no function of the first")
    else:
        ok(name)


def stage_run():
    """`// RUN-ARGS: ...` (extra shloc run args), `// OUTPUT: line` (expected stdout lines).
    `// RUN-ALSO: ...`: the program runs once more with these args added
    (one line per extra run), and must print the same.
    `// RUN-CMD: check`: a program with check ops, run by `shloc check`;
    OUTPUT is its closing line. `// ERROR: text`: the run must fail (exit
    status 1) with each such text in its diagnostics. `// KERNELS: N`: the
    program compiles to N kernel functions (identical kernels are emitted
    once). `// SPLIT-COPIES: N`: its optimization is split across two
    threads (codegen/optsplit.c) and N functions keep a ".split" copy
    (a function both modules define and optimize alike is kept once), and
    its object, emitted in two halves, calls from its second half a
    function of the first (a function kernels of both call is defined once).
    symbolic_*.mlir (`?` sizes bound at the call, run's default) also run
    specialized to their inputs (--specialize) and must print the
    same. `// REREAD`: what `shloc --emit=mlir` prints of the program (the
    IR after the pipeline) runs again and must print the same: shloc reads
    its own output."""
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
        errors = re.findall(r"^// ERROR: (.*)$", text, re.M)
        kernels = re.search(r"^// KERNELS: (\d+)$", text, re.M)
        copies = re.search(r"^// SPLIT-COPIES: (\d+)$", text, re.M)
        run_one(f"run/{f}", path, args, want, check, errors,
                int(kernels.group(1)) if kernels else None,
                int(copies.group(1)) if copies else None)
        for a in programs.also_runs(text):
            run_one(f"run/{f} ({a})", path, args + eval_args(a), want, check, errors)
        if f.startswith("symbolic_") and not errors:
            run_one(f"run/{f} (specialized)", path,
                    [a for a in args if a != "--symbolic"] + ["--specialize"], want, check, [])
        if re.search(r"^// REREAD$", text, re.M) and not errors:
            run_reread(f, path, args, want, check)


def run_reread(f, path, args, want, check):
    """Runs the --emit=mlir text of tests/run program f as run_one runs f."""
    with tempfile.TemporaryDirectory() as d:
        emitted = os.path.join(d, f)
        r = run([SHLOC, path, "--emit=mlir", "-o", emitted], timeout=120)
        if r.returncode:
            fail(f"run/{f} (reread)", r.stderr[-1500:])
            return
        run_one(f"run/{f} (reread)", emitted, args, want, check, [])


def spmd_verdicts(cmd, files, name):
    """Runs `shloc check` (cmd) over files of tests/spmd and the like: a
    file with `// FAIL: text` lines must FAIL with each text in its reason,
    any other case must PASS."""
    r = run(cmd + files, timeout=900)
    lines = [l for l in r.stdout.splitlines() if l.startswith(("PASS ", "FAIL "))]
    for f in files:
        want = re.findall(r"^// FAIL: (.*)$", open(f).read(), re.M)
        got = [l for l in lines if l.split(" ")[1].startswith(f + ":")]
        label = f"{name}/{os.path.relpath(f, ROOT) if f.startswith(ROOT) else os.path.basename(f)}"
        if not got:
            fail(label, "no verdict:\n" + (r.stdout + r.stderr)[-1500:])
        elif want and not all(l.startswith("FAIL") and all(w in l for w in want) for l in got):
            fail(label, f"want FAIL with {want!r}, got {got!r}")
        elif not want and not all(l.startswith("PASS") for l in got):
            fail(label, "\n".join(l for l in got if l.startswith("FAIL")))
        else:
            ok(label)


def stage_spmd():
    """tests/spmd: grid programs run by `shloc check` over threads."""
    files = sorted(glob.glob(os.path.join(ROOT, "tests", "spmd", "*.mlir")))
    spmd_verdicts([SHLOC, "check", "--verify-each", "--grid-timeout=5000"], files, "spmd")


def stage_mpi():
    """`shloc check --mpi`: tests/spmd and the conformance cases with
    interpreter.run_parallel, each under mpirun -np R*P (skipped without
    mpirun or build/shloc-mpi). Conformance cases listed as passing must
    pass; the others are reported, not counted."""
    if not shutil.which("mpirun") or not os.path.exists(os.path.join(BUILD, "shloc-mpi")):
        print("NOTICE mpi: mpirun or build/shloc-mpi missing (make mpi); skipped")
        return
    files = sorted(glob.glob(os.path.join(ROOT, "tests", "spmd", "*.mlir")))
    spmd_verdicts([SHLOC, "check", "--mpi", "--grid-timeout=5000"], files, "mpi")
    interp = os.path.join(SHARED, "conformance", "interpret")
    if not os.path.isdir(interp):
        print("NOTICE mpi: the conformance corpus is absent; its cases skipped")
        return
    corpus = [f for f in sorted(glob.glob(os.path.join(interp, "*.mlir")))
              if "interpreter.run_parallel" in open(f).read()]
    listed = {l.strip() for l in open(os.path.join(ROOT, "tests", "conformance", "passing.txt"))}
    r = run([SHLOC, "check", "--mpi", "--grid-timeout=5000"] + [os.path.basename(f) for f in corpus],
            timeout=1800, cwd=interp)
    for l in r.stdout.splitlines():
        if not l.startswith(("PASS ", "FAIL ")):
            continue
        case = "interpret/" + l.split(" ")[1]
        if l.startswith("PASS "):
            ok(f"mpi/{case}")
        elif case in listed:
            fail(f"mpi/{case}", l)
        else:
            print(f"NOTICE mpi/{case}: fails, as over threads: {l[5:]}")


def bytecode_run(path, inputs):
    r = subprocess.run([SHLOC, "run", path] + inputs, capture_output=True, timeout=120)
    return r.returncode, r.stdout, r.stderr.decode(errors="replace")


def stage_bytecode():
    """tests/bytecode (written by its gen.py from JAX functions): each
    NAME.mlirbc / NAME.old.mlirbc (the newest and the oldest StableHLO
    version jaxlib writes) must read into the IR shloc reads from NAME.mlir,
    the text JAX printed (`--emit=mlir`, exactly), and `shloc run` must give
    the same outputs on the inputs of NAME.input; what jax.export wrote
    (mlp.export.mlirbc, and the flatbuffer mlp.jaxexport around it) must run
    as mlp.mlir does. Corrupted copies must exit 1 with a diagnostic naming
    the byte offset, never crash."""
    d = os.path.join(ROOT, "tests", "bytecode")
    def inputs(stem):
        return ["--input=" + l for l in
                re.findall(r"^// INPUT: (.*)$", open(os.path.join(d, stem + ".input")).read(), re.M)]
    for f in sorted(os.listdir(d)):
        if not f.endswith(".mlir"):
            continue
        stem = f[:-5]
        text = os.path.join(d, f)
        ir = run([SHLOC, text, "--emit=mlir", "-o", "-"])
        out = bytecode_run(text, inputs(stem))
        for bc in (stem + ".mlirbc", stem + ".old.mlirbc"):
            name = f"bytecode/{bc}"
            path = os.path.join(d, bc)
            if not os.path.exists(path):
                continue
            got = run([SHLOC, path, "--emit=mlir", "-o", "-"])
            if got.returncode or ir.returncode:
                fail(name, (got.stderr or ir.stderr)[-1500:])
            elif got.stdout != ir.stdout:
                import difflib
                diff = difflib.unified_diff(ir.stdout.splitlines(), got.stdout.splitlines(),
                                            f, bc, lineterm="")
                fail(name, "\n".join(list(diff)[:40]))
            elif bytecode_run(path, inputs(stem)) != out or out[0]:
                fail(name, f"`shloc run` differs from {f}'s: {out[2][-500:]}")
            else:
                ok(name)
    want = bytecode_run(os.path.join(d, "mlp.mlir"), inputs("mlp"))
    for f in ("mlp.export.mlirbc", "mlp.jaxexport"):
        got = bytecode_run(os.path.join(d, f), inputs("mlp"))
        if got != want:
            fail(f"bytecode/{f}", f"`shloc run` differs from mlp.mlir's: {got[2][-800:]}")
        else:
            ok(f"bytecode/{f}")
    bytecode_errors(open(os.path.join(d, "mlp.mlirbc"), "rb").read(),
                    open(os.path.join(d, "mlp.old.mlirbc"), "rb").read())


def with_byte(data, at, value):
    return data[:at] + bytes([value]) + data[at + 1:]


def bytecode_errors(good, old):
    """Each error class, on a corrupted copy of a good artifact."""
    import random
    cases = [
        # fuzz-smoke finding: a varint that gives the module op an operand
        # (it has no enclosing region to name values in) crashed the reader.
        ("operand_outside_region", with_byte(old, 700, 0o14), "an operand outside any region"),
        ("truncated", good[:len(good) // 2], "bytes expected"),
        ("bad_magic", b"ML\xefX" + good[4:], "neither MLIR text nor MLIR bytecode"),
        ("bytecode_version", good[:4] + b"\x0f" + good[5:], "bytecode version 7 is newer"),
        ("stablehlo_version", good.replace(b"StableHLO_v1.17.0", b"StableHLO_v9.17.0"),
         "StableHLO version 9.17.0 is newer"),
        ("unknown_op", good.replace(b"subtract_v1\0", b"subtrakt_v1\0"),
         "unsupported operation 'vhlo.subtrakt_v1'"),
    ]
    with tempfile.TemporaryDirectory() as tmp:
        for name, data, msg in cases:
            path = os.path.join(tmp, name + ".mlirbc")
            open(path, "wb").write(data)
            r = subprocess.run([SHLOC, path, "--emit=mlir", "-o", os.devnull],
                               capture_output=True, timeout=60)
            err = r.stderr.decode(errors="replace")
            if r.returncode != 1 or msg not in err or not re.search(r": byte \d+: error: ", err):
                fail(f"bytecode/error_{name}", f"exit {r.returncode}, want 1 and {msg!r}: {err[-600:]}")
            else:
                ok(f"bytecode/error_{name}")
        # A NUL past the first 4 KiB of a text (srcfile_read looks no
        # further for binary files), between tokens or in a string: a
        # lexical error at its line.
        for name, line in (("text_late_nul", b"  \0 return"),
                           ("text_late_nul_string", b'  "a\0b" return')):
            path = os.path.join(tmp, name + ".mlir")
            open(path, "wb").write(b"// " + b"x" * 5000 + b"\nfunc.func @main() {\n" + line + b"\n}\n")
            r = subprocess.run([SHLOC, path, "--emit=mlir", "-o", os.devnull],
                               capture_output=True, timeout=60)
            err = r.stderr.decode(errors="replace")
            if r.returncode != 1 or f"{name}.mlir:3:3: error: unexpected byte 0x00" not in err:
                fail(f"bytecode/{name}", f"exit {r.returncode}: {err[-600:]}")
            else:
                ok(f"bytecode/{name}")
        # Random damage: a diagnostic (or, by chance, still a valid
        # program), never a crash.
        rng = random.Random(10)
        crashes = []
        for i in range(60):
            b = bytearray(good)
            for _ in range(rng.randint(1, 8)):
                b[rng.randrange(len(b))] = rng.randrange(256)
            path = os.path.join(tmp, f"flipped_{i}.mlirbc")
            open(path, "wb").write(bytes(b))
            r = subprocess.run([SHLOC, path, "--emit=mlir", "-o", os.devnull],
                               capture_output=True, timeout=60)
            if r.returncode not in (0, 1) or (r.returncode == 1 and b"error" not in r.stderr):
                crashes.append(f"flipped_{i}: exit {r.returncode}")
        if crashes:
            fail("bytecode/random_damage", "; ".join(crashes[:5]))
        else:
            ok("bytecode/random_damage")


def stage_passes():
    """tests/passes/NAME.mlir against NAME.PASS.out: the IR printed after
    PASS (`--stop-after=PASS --emit=mlir`), exactly. `// ARGS:` lines add
    shloc options."""
    d = os.path.join(ROOT, "tests", "passes")
    for f in sorted(os.listdir(d)):
        if not f.endswith(".out"):
            continue
        stem, pass_name = f[:-4].rsplit(".", 1)
        src = os.path.join(d, stem + ".mlir")
        args = []
        for a in re.findall(r"^// ARGS: (.*)$", open(src).read(), re.M):
            args += eval_args(a)
        r = run([SHLOC, src, "--verify-each", f"--stop-after={pass_name}", "--emit=mlir",
                 "-o", "-"] + args, timeout=60)
        want = open(os.path.join(d, f)).read()
        name = f"passes/{f}"
        if r.returncode:
            fail(name, r.stderr[-1500:])
        elif r.stdout != want:
            import difflib
            diff = difflib.unified_diff(want.splitlines(), r.stdout.splitlines(), "expected", "got",
                                        lineterm="")
            fail(name, "\n".join(list(diff)[:60]))
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
    for ex in ("mnist", "threads", "data_parallel", "dynamic_mlp"):
        d = os.path.join(ROOT, "examples", ex)
        out = os.path.join(BUILD, "examples", ex)
        os.makedirs(out, exist_ok=True)
        r = run(["make", "-s", "-C", d, "check", f"SHLOC={SHLOC}", f"OUT={out}", f"CC={CC}",
                 f"CFLAGS={' '.join(['-O2'] + SAN_FLAGS)}",
                 f"SHLORT={os.path.join(BUILD, 'libshlort.a')}",
                 f"SHLORT_MPI={os.path.join(BUILD, 'libshlort_mpi.a')}"], timeout=300)
        if r.returncode:
            fail(f"examples/{ex}", (r.stdout + r.stderr)[-2000:])
        else:
            ok(f"examples/{ex}")


def stage_install():
    r = run(["sh", os.path.join(ROOT, "tests", "install", "run_install.sh"), ROOT, BUILD, SHARED],
            timeout=300)
    if r.returncode:
        fail("install", (r.stdout + r.stderr)[-2000:])
    elif r.stdout.startswith("SKIP"):
        print(f"NOTICE install: {r.stdout.strip()}")
    else:
        ok("install (make install, pkg-config and CMake apps)")


def stage_baremetal():
    counted("baremetal", [os.path.join(ROOT, "tests", "baremetal", "baremetal.py"), SHLOC, BUILD],
            600)
    if not (shutil.which("qemu-system-arm") and shutil.which("arm-none-eabi-gcc")):
        print("NOTICE examples/cortex-m: qemu-system-arm or arm-none-eabi-gcc missing "
              "(make deps), skipped")
        return
    r = run(["make", "-s", "-C", os.path.join(ROOT, "examples", "cortex-m"), "check",
             f"SHLOC={SHLOC}"], timeout=300)
    if r.returncode:
        fail("examples/cortex-m", (r.stdout + r.stderr)[-2000:])
    else:
        ok("examples/cortex-m (MNIST on qemu-system-arm mps2-an386)")
    counted("baremetal", [os.path.join(ROOT, "tests", "baremetal", "softfloat.py"), SHLOC, BUILD],
            300)
    counted("baremetal", [os.path.join(ROOT, "tests", "baremetal", "memory_plan.py"), SHLOC,
                          BUILD], 300)


def stage_weights():
    counted("weights", [os.path.join(ROOT, "tests", "weights", "weights.py"), SHLOC, BUILD], 300)
    counted("outputs", [os.path.join(ROOT, "tests", "weights", "outputs.py"), SHLOC, BUILD], 120)


def stage_cross():
    counted("cross", [os.path.join(ROOT, "tests", "cross", "cross.py"), SHLOC, BUILD], 900)


def stage_jax():
    """examples/jax, and examples/pytorch where torch-mlir is installed."""
    py = os.path.join(BUILD, "venv", "bin", "python")
    for ex, modules in (("jax", "jax"), ("pytorch", "torch, torch_mlir")):
        if not os.path.exists(py) or run([py, "-c", f"import {modules}"]).returncode:
            print(f"NOTICE examples/{ex}: no {py} with {modules}, skipped")
            continue
        r = run([py, os.path.join(ROOT, "examples", ex, "export.py"), SHLOC,
                 os.path.join(BUILD, "tests", ex)], timeout=600)
        if r.returncode:
            fail(f"examples/{ex}", (r.stdout + r.stderr)[-2000:])
        else:
            ok(f"examples/{ex} ({r.stdout.strip()})")


# tests/native/<driver>.c: the compiled objects it links, as
# (source .mlir, --name prefix, extra shloc options).
NATIVE = {
    "reentrant": [("reentrant.mlir", "ser", []), ("reentrant.mlir", "par", ["--threads=2"])],
    "indices": [("indices.mlir", "idx", []), ("indices_sym.mlir", "idxs", [])],
    "check_args": [("check_args.mlir", "chk", ["--check-args"])],
    "bounded": [("bounded.mlir", "bnd", [])],
    "skinny_offsets": [("skinny_offsets.mlir", "sk1", []),
                       ("skinny_offsets.mlir", "sk2", ["--threads=2"])],
    "skinny_order": [("skinny_order.mlir", "so1", []),
                     ("skinny_order.mlir", "so2", ["--threads=2"])],
    "ksplit_sums": [("ksplit_sums.mlir", "ks1", []),
                    ("ksplit_sums.mlir", "ks2", ["--threads=2"]),
                    ("ksplit_sums.mlir", "ks3", ["--threads=3"])],
    "winograd_edges": [("winograd_edges.mlir", "wg1", []),
                       ("winograd_edges.mlir", "wg2", ["--threads=2"]),
                       ("winograd_edges.mlir", "wgd", ["--winograd=off"])],
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
                [os.path.join(BUILD, "libshlort.a"), "-pthread", "-lm"])
        if r.returncode:
            fail(name, "build failed\n" + r.stderr[-1500:])
            continue
        r = run([exe], timeout=300)
        counts = closing_counts(r.stdout)
        if r.returncode or not counts or counts[1]:
            fail(name, (r.stdout + r.stderr)[-2000:])
        else:
            ok(f"{name} ({counts[0]} checks)")
    native_i686()


def native_i686():
    """tests/native/i686_gemm.mlir for 32-bit x86 (8 vector registers),
    with the triple's default features and with AVX2 + FMA, linked with its
    freestanding driver (clang-19, ld) and run here: an x86-64 Linux kernel
    runs static i386 programs, no i386 libc needed. Skipped without clang-19
    or a kernel that runs them."""
    cc = shutil.which("clang-19")
    if not cc:
        print("NOTICE native/i686_gemm: clang-19 absent, skipped")
        return
    ld = shutil.which("ld")
    if not ld or "elf_i386" not in run([ld, "-V"]).stdout:
        print("NOTICE native/i686_gemm: no ld that links elf_i386, skipped")
        return
    with open("/proc/cpuinfo") as f:
        flags = f.read().split()
    d = os.path.join(ROOT, "tests", "native")
    out = os.path.join(BUILD, "tests", "native", "i686")
    os.makedirs(out, exist_ok=True)
    obj, exe = os.path.join(out, "i686_gemm.o"), os.path.join(out, "driver")
    for features in ([], ["--features=+avx2,+fma"]):
        name = " ".join(["native/i686_gemm"] + features)
        if features and not {"avx2", "fma"} <= set(flags):
            print(f"NOTICE {name}: this CPU has no AVX2 and FMA, skipped")
            continue
        steps = [[SHLOC, os.path.join(d, "i686_gemm.mlir"), "--name=i686_gemm",
                  "--target=i686-linux-gnu", "--threads=1", "-o", obj] + features,
                 [cc, "--target=i686-linux-gnu", "-std=c11", "-Wall", "-Wextra", "-Werror", "-O1",
                  "-ffreestanding", "-fno-builtin", "-fno-pic", "-fno-pie", "-I" + out, "-c",
                  os.path.join(d, "i686_gemm.c"), "-o", exe + ".o"],
                 [ld, "-m", "elf_i386", "-static", exe + ".o", obj, "-o", exe]]
        for step in steps:
            r = run(step)
            if r.returncode:
                break
        if r.returncode:
            fail(name, "build failed\n" + r.stderr[-1500:])
            continue
        try:
            r = run([exe])
        except OSError as e:
            print(f"NOTICE {name}: this kernel does not run i386 programs ({e}), skipped")
            return
        if r.returncode:
            fail(name, f"exit status {r.returncode}: bit p set where product p differs, 32: the entry failed")
        else:
            ok(f"{name} (4 products)")


def stage_differential():
    counted("differential", [os.path.join(ROOT, "tests", "differential.py"), SHLOC, SHARED], 1500)


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


STAGES = [("unit", stage_unit), ("runtime", stage_runtime), ("frontend", stage_frontend),
          ("bytecode", stage_bytecode), ("limits", stage_limits), ("passes", stage_passes),
          ("run", stage_run), ("spmd", stage_spmd), ("mpi", stage_mpi),
          ("header", stage_header), ("weights", stage_weights), ("examples", stage_examples),
          ("native", stage_native),
          ("install", stage_install), ("baremetal", stage_baremetal), ("cross", stage_cross),
          ("jax", stage_jax),
          ("differential", stage_differential), ("verify", stage_verify), ("fuzz", stage_fuzz),
          ("conformance", stage_conformance)]


# The stages whose code runs on several threads; the rest would only run the
# single-threaded compiler under TSan, slowly.
TSAN_STAGES = "runtime,run,spmd,examples,native"


def main():
    only = set(filter(None, os.environ.get("ONLY", TSAN_STAGES if TSAN else "").split(",")))
    for k, v in SANITIZER_ENV.items():
        os.environ.setdefault(k, v)
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
