#!/usr/bin/env python3
"""Bare-metal objects need no libc, no libm and no runtime (the baremetal stage).

examples/mnist and tests/run/*.mlir are compiled (single-process: no
--threads; once more per `// RUN-ALSO: args` line without --threads) for Cortex-M4F (thumbv7em-none-eabihf) and 32-bit RISC-V
without (rv32imac) and with (rv32imafc) single-precision floats, and the
undefined symbols of each object are read with llvm-nm. Allowed are the
compiler's own support routines (libgcc / compiler-rt: names starting with
"__", e.g. __aeabi_dadd, __addsf3, __umoddi3) and the memory primitives
every freestanding C implementation provides (memcpy, memset, memmove and
the ARM EABI's __aeabi_memcpy/memset/memclr/memmove); anything else (libm,
libc, shlort_*) fails. The Cortex-M4F compilations print the memory plan,
which fails on a dynamic stack allocation. The lists are written to
BUILD/tests/baremetal/undefined.txt.

usage: baremetal.py SHLOC BUILD; closes with `N passed, N failed`.
"""
import os
import re
import shlex
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests"))
import programs as run_programs  # noqa: E402

CONFIGS = [
    ("cortex-m4", ["--target=thumbv7em-none-eabihf", "--cpu=cortex-m4"]),
    ("rv32imac", ["--target=riscv32-unknown-elf", "--features=+m,+a,+c"]),
    ("rv32imafc", ["--target=riscv32-unknown-elf", "--features=+m,+a,+f,+c"]),
]

MEMORY = re.compile(r"^(memcpy|memset|memmove|__aeabi_mem(cpy|move|set|clr)[48]?)$")

# What codegen gets wrong on these targets today. A KNOWN case prints its
# actual symbols or error and counts neither way; once it is clean it FAILs
# until removed here.
KNOWN = {}

passed = failed = 0


def report(name, good, detail):
    global passed, failed
    if name in KNOWN and good:
        good, detail = False, "a KNOWN failure is clean now: remove it from tests/baremetal/baremetal.py"
    elif name in KNOWN:
        print(f"KNOWN {name}: {KNOWN[name]}: {detail}", flush=True)
        return
    if good:
        passed += 1
        print(f"PASS {name} ({detail})", flush=True)
    else:
        failed += 1
        print(f"FAIL {name}: {detail}", flush=True)


def undefined(nm, obj):
    r = subprocess.run([nm, "-u", obj], capture_output=True, text=True, check=True)
    return sorted(l.split()[-1] for l in r.stdout.splitlines() if l.strip())


def check(shloc, nm, work, config, path, log, also=None):
    """Compiles one program for one config (with `also`, a RUN-ALSO line's
    index and args, those args added) and reads its undefined symbols."""
    cname, opts = config
    stem = os.path.basename(path)[:-5]
    name = f"{cname}/{stem}"
    if also:
        name += f" ({also[1]})"
        stem += f"_also{also[0]}"
        opts = opts + shlex.split(also[1])
    obj = os.path.join(work, f"{cname}-{stem}.o")
    # The memory plan diagnoses a dynamic stack allocation (an unbounded
    # stack): every program is compiled with it on Cortex-M4F.
    plan = ["--print-memory-plan"] if cname == "cortex-m4" else []
    r = subprocess.run([shloc, path, "-o", obj] + opts + plan, capture_output=True, text=True,
                       timeout=120)
    if r.returncode:
        err = (r.stderr.strip().splitlines() or ["exit status %d" % r.returncode])[0]
        log.write(f"{name}: compile error: {err}\n")
        return report(name, False, "compile: " + err)
    if plan and "stack of " not in r.stdout:
        return report(name, False, "no stack in the memory plan: " + r.stdout[-500:])
    syms = undefined(nm, obj)
    log.write(f"{name}: {' '.join(syms) or '-'}\n")
    bad = [s for s in syms if not s.startswith("__") and not MEMORY.match(s)]
    bad += [s for s in syms if s.startswith("__") and "shlort" in s]
    helpers = [s for s in syms if s not in bad]
    report(name, not bad, ("forbidden " + " ".join(bad)) if bad else
           ("undefined: " + (" ".join(helpers) if helpers else "none")))


def main():
    shloc, build = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    nm = shutil.which("llvm-nm-19") or shutil.which("llvm-nm")
    if not nm:
        print("NOTICE baremetal: llvm-nm not installed, skipped")
        print("0 passed, 0 failed")
        return 0
    work = os.path.join(build, "tests", "baremetal")
    os.makedirs(work, exist_ok=True)
    programs = [os.path.join(ROOT, "examples", "mnist", "mnist.mlir")]
    programs += run_programs.deployable(ROOT)
    with open(os.path.join(work, "undefined.txt"), "w") as log:
        for config in CONFIGS:
            for p in programs:
                check(shloc, nm, work, config, p, log)
                for a in enumerate(run_programs.also_runs(open(p).read())):
                    if "--threads" not in a[1]:  # single-process objects only
                        check(shloc, nm, work, config, p, log, a)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
