#!/usr/bin/env python3
"""Where a compile's outputs go (tools/shloc.c, codegen/outfile.c), beside
weights.py's `written` checks, on tests/run/add_f32.mlir.

stdout-pipe: -o /dev/stdout and -o /dev/fd/1 into a pipe (`| cat`) get the
object's bytes and the assembly (links of /proc: stat decides, the pipe is
written in place; the link's "pipe:[N]" is no name to create).
stdout-file: -o /dev/stdout redirected to a file (> m.o) writes the object
in place: nothing beside it (no /dev/stdout.h, no m.h), and --weights=file
there is refused.
clash: outputs that share a name are refused before anything is written:
-o c.bin --weights=file, -o c.h, and -o l.o through a link to l.h (the
object was lost, the compile exited 0).
protected: a link another user planted in a sticky, world-writable
directory is not followed (the kernel's fs.protected_symlinks rule, as
root only: chowning the link needs it), also where it leads to a device
(/dev/null: it was written in place). The refusal comes before the
kernel's stat, so the message is the same at fs.protected_symlinks=1
(there stat fails EACCES: test_outfile.c's stat shim checks it).
weights-device: --weights=file with the object into a FIFO is refused
(the object could not load without its .bin); into /dev/null it is a
compile only checked, nothing written beside.
reason: a header whose write fails (files limited to 64 bytes) is
diagnosed with the reason (File too large).
xfsz: a compile whose object outgrows ulimit -f under SIGXFSZ's default
disposition (the tool ignores it: writes fail with EFBIG) is diagnosed,
leaves the older object and no new file beside it.
run-limit: `run` past ulimit -f (a 4 MiB result, files limited to 1 MiB)
never exits 0: with SIGXFSZ ignored by the caller, --output=@x.npy, the
results on stdout and check's --results file are each diagnosed (File
too large, exit 1); with the default disposition the signal kills it
(the tool ignores it for the compile command only; x.npy's truncated
file was passed off as good, exit 0, and mpirun inherited the ignore).
directory: -o DIR --weights=file says DIR is a directory (not "written
in place: a device, FIFO or open file").

usage: outputs.py SHLOC BUILD; closes with `N passed, N failed`.
"""
import os
import resource
import shutil
import signal
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from programs import Tally, run  # noqa: E402

MLIR = os.path.join(os.path.dirname(HERE), "run", "add_f32.mlir")
CHECK = os.path.join(os.path.dirname(HERE), "run", "check_long_function_name.mlir")
TALLY = Tally("outputs/")
report = TALLY.report


def limited(size, disposition):
    """A preexec_fn: the child's files limited to size bytes, SIGXFSZ set
    to disposition."""
    def pre():
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
        signal.signal(signal.SIGXFSZ, disposition)
    return pre


def stdout_pipe(shloc, obj):
    for path in ("/dev/stdout", "/dev/fd/1"):
        r = subprocess.run([shloc, MLIR, "-o", path], capture_output=True)
        report(f"stdout-pipe-obj {path}", None if r.returncode == 0 and r.stdout == obj
               else f"exit {r.returncode}, {len(r.stdout)} bytes: {r.stderr[-500:]}")
    want = run([shloc, MLIR, "--emit=asm", "-o", "-"]).stdout
    r = run([shloc, MLIR, "--emit=asm", "-o", "/dev/stdout"])
    report("stdout-pipe-asm", None if r.returncode == 0 and want and r.stdout == want
           else f"exit {r.returncode}: {r.stderr[-500:]}")


def made(paths):
    """The paths among paths that exist, each removed (a failing tool
    made them: /dev/stdout.h is nobody's file)."""
    got = [p for p in paths if os.path.lexists(p)]
    for p in got:
        os.remove(p)
    return got


def stdout_file(shloc, d, obj):
    out = os.path.join(d, "redirected.o")
    beside = [os.path.join(d, "redirected" + e) for e in (".h", ".bin")]
    beside += ["/dev/stdout" + e for e in (".h", ".bin")]
    if made(beside):
        print("NOTICE outputs: stale files beside /dev/stdout removed")
    with open(out, "wb") as f:
        r = subprocess.run([shloc, MLIR, "-o", "/dev/stdout"], stdout=f, stderr=subprocess.PIPE,
                           text=True)
    got = open(out, "rb").read()
    left = made(beside)
    report("stdout-file", None if r.returncode == 0 and got == obj and not left
           else f"exit {r.returncode}, {len(got)} bytes, written beside: {left}: {r.stderr[-500:]}")
    with open(out, "wb") as f:
        r = subprocess.run([shloc, MLIR, "-o", "/dev/stdout", "--weights=file"], stdout=f,
                           stderr=subprocess.PIPE, text=True)
    left = made(beside)
    report("stdout-file-weights", None if r.returncode == 1 and "needs a regular -o file"
           in r.stderr and not left else f"exit {r.returncode}, written beside: {left}: "
                                         f"{r.stderr[-500:]}")


def clash(shloc, d):
    sub = os.path.join(d, "clash")
    shutil.rmtree(sub, ignore_errors=True)
    os.makedirs(sub)
    os.symlink("l.h", os.path.join(sub, "l.o"))
    for name, args in (("bin", ["c.bin", "--weights=file"]), ("header", ["c.h"]),
                       ("link", ["l.o"])):
        r = run([shloc, MLIR, "-o", os.path.join(sub, args[0])] + args[1:])
        left = sorted(f for f in os.listdir(sub) if f != "l.o")
        report(f"clash-{name}", None if r.returncode == 1 and "would both be written" in r.stderr
               and not left else f"exit {r.returncode}, files {left}: {r.stderr[-500:]}")


def protected(shloc, d):
    sticky = os.path.join(d, "sticky")
    shutil.rmtree(sticky, ignore_errors=True)
    os.makedirs(sticky)
    os.chmod(sticky, 0o1777)
    link = os.path.join(sticky, "theirs.o")
    os.symlink("planted.o", link)
    try:
        os.lchown(link, 54321, 54321)
    except PermissionError:
        print("NOTICE outputs: not root, protected not checked")
        return
    dev = os.path.join(sticky, "to-dev.o")  # a device: stat said "in place"
    os.symlink("/dev/null", dev)
    os.lchown(dev, 54321, 54321)
    for name, path in (("protected", link), ("protected-device", dev)):
        r = run([shloc, MLIR, "-o", path])
        left = sorted(f for f in os.listdir(sticky) if f not in ("theirs.o", "to-dev.o"))
        report(name, None if r.returncode == 1 and "not followed" in r.stderr and not left
               else f"exit {r.returncode}, files {left}: {r.stderr[-500:]}")


def weights_device(shloc, d):
    fifo = os.path.join(d, "fifo.o")
    if os.path.lexists(fifo):
        os.remove(fifo)
    os.mkfifo(fifo)
    # a reader that never blocks the writer (the object fits the pipe's
    # buffer) where a tool wrongly writes the FIFO
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    r = run([shloc, MLIR, "-o", fifo, "--weights=file"])
    os.close(reader)
    report("weights-fifo", None if r.returncode == 1 and "needs a regular -o file" in r.stderr
           else f"exit {r.returncode}: {r.stderr[-500:]}")
    beside = ["/dev/null" + e for e in (".h", ".bin")]
    made(beside)
    r = run([shloc, MLIR, "-o", "/dev/null", "--weights=file"])
    left = made(beside)
    report("weights-null", None if r.returncode == 0 and not left
           else f"exit {r.returncode}, written beside: {left}: {r.stderr[-500:]}")


def reason(shloc, d):
    hdr = os.path.join(d, "reason.h")
    r = subprocess.run([shloc, MLIR, "--emit=header", "-o", hdr], capture_output=True, text=True,
                       preexec_fn=limited(64, signal.SIG_IGN))
    report("reason", None if r.returncode == 1 and "cannot write" in r.stderr
           and os.strerror(27) in r.stderr  # EFBIG
           else f"exit {r.returncode}: {r.stderr[-500:]}")


def xfsz(shloc, d, obj):
    out = os.path.join(d, "xfsz.o")
    open(out, "wb").write(b"older")
    r = subprocess.run([shloc, MLIR, "-o", out], capture_output=True, text=True,
                       preexec_fn=limited(len(obj) // 2, signal.SIG_DFL))
    left = sorted(f for f in os.listdir(d) if f.startswith("xfsz.o."))
    report("xfsz", None if r.returncode == 1 and "cannot write" in r.stderr
           and open(out, "rb").read() == b"older" and not left
           else f"exit {r.returncode}, files {left}: {r.stderr[-500:]}")


BIG = """func.func @main(%a: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %0 = stablehlo.add %a, %a : tensor<1024x1024xf32>
  return %0 : tensor<1024x1024xf32>
}
"""


def run_limit(shloc, d):
    big = os.path.join(d, "big.mlir")
    open(big, "w").write(BIG)
    npy, res = os.path.join(d, "limit.npy"), os.path.join(d, "limit.txt")
    args = [shloc, "run", big, "--input=1024x1024xf32=1"]
    cases = (("npy", args + ["--output=@" + npy], npy),
             ("stdout", args, "standard output"),
             ("results", [shloc, "check", CHECK, "--results=" + res], res))
    for name, cmd, want in cases:
        for disp, label in ((signal.SIG_IGN, "ignored"), (signal.SIG_DFL, "default")):
            if name == "results" and disp == signal.SIG_DFL:
                continue  # a killed check is the caller's to see: nothing of ours to check
            size = 1 << 20 if name != "results" else 8
            with open(os.path.join(d, "limit.out"), "wb") as out:
                # check's standard output a pipe (no file limit): its tally
                # is printed although the results file failed
                r = subprocess.run(cmd, stdout=out if name != "results" else subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True,
                                   preexec_fn=limited(size, disp))
            if disp == signal.SIG_IGN:
                good = (r.returncode == 1 and f"cannot write {want}: {os.strerror(27)}"
                        in r.stderr and (name != "results" or "1 passed, 0 failed" in r.stdout))
            else:
                good = r.returncode == -signal.SIGXFSZ
            report(f"run-limit-{name}-{label}", None if good
                   else f"exit {r.returncode}: {r.stderr[-500:]}")


def directory(shloc, d):
    sub = os.path.join(d, "adir")
    os.makedirs(sub, exist_ok=True)
    r = run([shloc, MLIR, "-o", sub, "--weights=file"])
    report("directory", None if r.returncode == 1 and os.strerror(21) in r.stderr  # EISDIR
           and "device" not in r.stderr else f"exit {r.returncode}: {r.stderr[-500:]}")


def main():
    shloc, build = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    d = os.path.join(build, "tests", "outputs")
    os.makedirs(d, exist_ok=True)
    ref = os.path.join(d, "ref.o")
    r = run([shloc, MLIR, "-o", ref])
    if r.returncode:
        report("compile", r.stderr[-1500:])
        return TALLY.close()
    obj = open(ref, "rb").read()
    stdout_pipe(shloc, obj)
    stdout_file(shloc, d, obj)
    clash(shloc, d)
    protected(shloc, d)
    weights_device(shloc, d)
    reason(shloc, d)
    xfsz(shloc, d, obj)
    run_limit(shloc, d)
    directory(shloc, d)
    return TALLY.close()


if __name__ == "__main__":
    sys.exit(main())
