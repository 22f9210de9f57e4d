#!/usr/bin/env python3
"""--print-memory-plan against the object itself (the baremetal stage).

examples/mnist is compiled for Cortex-M4F and for the host (x86-64) with
the plan printed. Each figure is checked against an independent reading:
code and read-only data against the section sizes llvm-readelf lists, the
temp arena against the header's TEMP_BYTES, and the stack against the
prologues in llvm-objdump's disassembly (Thumb: push/push.w of r4-lr at 4
bytes a register, vpush of d registers at 8, sub sp; x86-64: push at 8,
sub rsp, and the 8-byte return address of the call into the function),
summed along the path the plan names, whose calls must be in the code.

usage: memory_plan.py SHLOC BUILD; closes with `N passed, N failed`.
"""
import os
import re
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests"))
from programs import Tally, run, sections  # noqa: E402

MNIST = os.path.join(ROOT, "examples", "mnist", "mnist.mlir")
CONFIGS = [
    ("cortex-m4", ["--target=thumbv7em-none-eabihf", "--cpu=cortex-m4"], "thumb"),
    ("host", [], "x86"),
]
TALLY = Tally("")
report = TALLY.report


def functions(objdump, obj):
    """{function: [instruction text]} from the disassembly."""
    fns, cur = {}, None
    for line in run([objdump, "-d", "--no-show-raw-insn", obj]).stdout.splitlines():
        m = re.match(r"^[0-9a-f]+ <(.+)>:$", line)
        if m:
            cur = fns.setdefault(m.group(1), [])
        elif cur is not None and ":" in line:
            cur.append(line.split(":", 1)[1].strip())
    return fns


def regs(text):
    """Registers in a {r4, r5, ...} or {d8-d11} list."""
    n = 0
    for r in re.search(r"\{(.*)\}", text).group(1).split(","):
        r = r.strip()
        m = re.match(r"[a-z](\d+)-[a-z](\d+)$", r)
        n += int(m.group(2)) - int(m.group(1)) + 1 if m else 1
    return n


def frame(insns, arch):
    """Stack bytes a function's prologue reserves."""
    total = 8 if arch == "x86" else 0  # the return address of the call
    for i in insns:
        if arch == "thumb":
            if re.match(r"push(\.w)?\s", i):
                total += 4 * regs(i)
            elif re.match(r"vpush\s", i):
                total += 8 * regs(i)
            elif m := re.match(r"sub(\.w)?\s+sp, (sp, )?#(0x[0-9a-f]+|\d+)", i):
                total += int(m.group(3), 0)
        else:
            if re.match(r"pushq?\s+%r", i):
                total += 8
            elif m := re.match(r"subq?\s+\$(0x[0-9a-f]+|\d+), %rsp", i):
                total += int(m.group(1), 0)
    return total


def plan_value(plan, key):
    m = re.search(rf"^{re.escape(key)}\s+(\d+) bytes", plan, re.M)
    return int(m.group(1)) if m else None


def check(shloc, readelf, objdump, work, config):
    cname, opts, arch = config
    obj = os.path.join(work, f"plan-{cname}-mnist.o")
    r = run([shloc, MNIST, "-o", obj, "--print-memory-plan"] + opts)
    if r.returncode:
        return report(f"{cname}/mnist", "compile: " + r.stderr[-1500:])
    plan = r.stdout
    open(obj[:-2] + ".plan", "w").write(plan)
    secs = sections(readelf, obj)
    text = sum(v for k, v in secs.items() if k.startswith(".text"))
    rodata = sum(v for k, v in secs.items() if k.startswith(".rodata"))
    why = []
    if plan_value(plan, "code (.text)") != text or text == 0:
        why.append(f"code {plan_value(plan, 'code (.text)')}, readelf .text {text}")
    if plan_value(plan, "read-only data") != rodata:
        why.append(f"rodata {plan_value(plan, 'read-only data')}, readelf {rodata}")
    header = open(obj[:-2] + ".h").read()
    temp = int(re.search(r"#define MNIST_MAIN_TEMP_BYTES \(\(size_t\)(\d+)\)", header).group(1))
    if plan_value(plan, "  temp arena") != temp:
        why.append(f"temp arena {plan_value(plan, '  temp arena')}, header {temp}")
    m = re.search(r"^stack of mnist_main: (\d+) bytes \((.*)\)$", plan, re.M)
    if not m:
        why.append("no stack line for mnist_main")
    else:
        fns = functions(objdump, obj)
        path = [p.rsplit(" ", 1) for p in m.group(2).split(" > ")]
        total = 0
        for k, (fn, size) in enumerate(path):
            got = frame(fns.get(fn, []), arch)
            total += got
            if fn not in fns or got != int(size):
                why.append(f"{fn}: plan {size} bytes, prologue {got}")
            if k and not any(f"<{fn}>" in i for i in fns.get(path[k - 1][0], [])):
                why.append(f"{path[k - 1][0]} does not call {fn}")
        if total != int(m.group(1)) or total == 0:
            why.append(f"stack {m.group(1)}, prologues {total}")
    report(f"{cname}/mnist", "; ".join(why) + "\n" + plan if why else None)


def main():
    shloc, build = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    readelf = shutil.which("llvm-readelf-19") or shutil.which("llvm-readelf")
    objdump = shutil.which("llvm-objdump-19") or shutil.which("llvm-objdump")
    if not (readelf and objdump):
        print("NOTICE memory plan: llvm-readelf or llvm-objdump not installed, skipped")
        print("0 passed, 0 failed")
        return 0
    work = os.path.join(build, "tests", "baremetal")
    os.makedirs(work, exist_ok=True)
    for config in CONFIGS:
        if config[2] == "x86" and os.uname().machine != "x86_64":
            continue
        check(shloc, readelf, objdump, work, config)
    return TALLY.close()


if __name__ == "__main__":
    sys.exit(main())
