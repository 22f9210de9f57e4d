#!/usr/bin/env python3
"""--weights=embed|section=NAME|file (the weights stage).

A model with a 64x16 weight matrix and a bias as constants is compiled in
each mode; the matrix is the B operand of a 16-row product, so the layout
pass stores it in the GEMM tile's panels (the tile read back from
--stop-after=layout). embed: the constants are in .rodata; section: llvm-readelf finds
the section, as big as the constants, and .rodata without them; file: the
object holds no constant data, the .bin beside it is laid out as
codegen/weights.c says (magic, version, size, fingerprint, constants at
multiples of 64), and app.c maps it, checks that the loader refuses a
misaligned pointer, a wrong size and a foreign header, loads it and runs.
In every mode app.c compares the results with plain C, and the weights
figure of --print-memory-plan is checked against the sections and the file.

large: a model with a 1 MiB weight matrix as a hex literal, a bias and a
splat of ones as GEMM weights (the object's weights blob, codegen/weights.c:
bytes shloc writes into the object after LLVM emitted zeros) is compiled
with --weights=embed, section and file; large.c links it and compares with
plain C, and the object's weights section must hold the matrix's bytes.

aligned: the large model with --weights-align=2097152 (embed and
section): the blob's section and the linked program's segment are aligned
to 2 MiB (Linux's huge pages), an embed object is no bigger for it, and
the results are plain C's; a size that is not a power of two, --weights=file
and a Mach-O target are refused.

written: an addend of 4 KiB (not packed) must lie in the blob at a
multiple of 64, the blob must start right after the ELF header and the
section headers end the object (an older, longer file of that name
truncated), a pipe gets the same bytes and no header beside it, and an output path that cannot be created is diagnosed; a
dangling link is followed (the file at its end created whole or not at
all), and a compile whose header cannot be written leaves the object and
its weights file as they were.

split: --weights=file on a model big enough for the optimizer's two
threads (codegen/optsplit.c): the kernels must read the loaded weights
(the values against float64 within 1e-5).

--bind-args: the same model with its weights as entry arguments (as
PyTorch/XLA exports have them) is compiled with the weights bound from a
.npz (np.savez) and from a .safetensors file (written here by hand), by
position and by name (`jax.arg_info` attributes, arguments in another
order); the object takes only x and app.c checks it. A compressed .npz and
a tensor of the wrong shape are rejected with a diagnostic.

usage: weights.py SHLOC BUILD; closes with `N passed, N failed`.
"""
import json
import re
import os
import resource
import shutil
import signal
import struct
import subprocess
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from programs import Tally, run, sections  # noqa: E402

# M = 16 rows: the blocked GEMM, whose constant weights the layout pass packs
M, K, N = 16, 64, 16
TALLY = Tally("weights/")
report = TALLY.report


def link_and_run(name, d, app, obj, define):
    """Links tests/weights/APP (with -D options `define`) with obj and the
    header in d, runs it and reports: it prints "ok" when its results are
    plain C's."""
    exe = os.path.join(d, "app")
    r = run(["cc", "-std=c11", "-D_DEFAULT_SOURCE", "-Wall", "-Wextra", "-Werror", "-O1",
             "-I" + d] + define + [os.path.join(HERE, app), obj, "-o", exe])
    if r.returncode:
        return report(name, "link: " + r.stderr[-1500:])
    r = run([exe])
    report(name, None if r.returncode == 0 and r.stdout.strip() == "ok" else
           (r.stdout + r.stderr)[-1500:])


def weight(i, j):
    return ((i * 16 + j) % 7 - 3) * 0.25


def bias(j):
    return j % 5 - 2.0


def model():
    w = ", ".join("[" + ", ".join(repr(weight(i, j)) for j in range(N)) + "]" for i in range(K))
    b = ", ".join(repr(bias(j)) for j in range(N))
    return f"""func.func @main(%x: tensor<{M}x{K}xf32>) -> (tensor<{M}x{N}xf32>, tensor<f32>) {{
  %w = stablehlo.constant dense<[{w}]> : tensor<{K}x{N}xf32>
  %b = stablehlo.constant dense<[{b}]> : tensor<{N}xf32>
  %d = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<{M}x{K}xf32>, tensor<{K}x{N}xf32>) -> tensor<{M}x{N}xf32>
  %bb = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<{N}xf32>) -> tensor<{M}x{N}xf32>
  %s = stablehlo.add %d, %bb : tensor<{M}x{N}xf32>
  %z = stablehlo.constant dense<0.0> : tensor<{M}x{N}xf32>
  %y = stablehlo.maximum %s, %z : tensor<{M}x{N}xf32>
  %init = stablehlo.constant dense<0.0> : tensor<f32>
  %t = stablehlo.reduce(%y init: %init) applies stablehlo.add across dimensions = [0, 1] : (tensor<{M}x{N}xf32>, tensor<f32>) -> tensor<f32>
  return %y, %t : tensor<{M}x{N}xf32>, tensor<f32>
}}
"""


def model_args(named):
    """The model with w and b as arguments: first, or named and after x."""
    body = model().split("\n", 2)[2].replace(f"  %b = stablehlo.constant dense<[", "//", 1)
    body = "\n".join(l for l in body.split("\n") if not l.startswith("//"))
    wt, bt, xt = f"tensor<{K}x{N}xf32>", f"tensor<{N}xf32>", f"tensor<{M}x{K}xf32>"
    if named:
        args = (f"%x: {xt}, %b: {bt} {{jax.arg_info = \"params['b']\"}}, "
                f"%w: {wt} {{jax.arg_info = \"params['w']\"}}")
    else:
        args = f"%w: {wt}, %b: {bt}, %x: {xt}"
    return f"func.func @main({args}) -> (tensor<{M}x{N}xf32>, tensor<f32>) {{\n" + body


def write_weights(d, named):
    """model.npz (np.savez), model.safetensors and a compressed .npz."""
    import numpy as np
    w = np.array([[weight(i, j) for j in range(N)] for i in range(K)], np.float32)
    b = np.array([bias(j) for j in range(N)], np.float32)
    names = ("params['w']", "params['b']") if named else ("w", "b")
    np.savez(os.path.join(d, "model.npz"), **{names[0]: w, names[1]: b})
    np.savez_compressed(os.path.join(d, "compressed.npz"), w=w, b=b)
    np.savez(os.path.join(d, "wrong.npz"), w=w[:, :8], b=b)
    # safetensors: b's data first, to check that file order is data order
    # only for positional binding (named: any order)
    order = [(names[0], w), (names[1], b)]
    hdr, off = {"__metadata__": {"format": "pt"}}, 0
    for nm, a in (order if not named else order[::-1]):
        hdr[nm] = {"dtype": "F32", "shape": list(a.shape), "data_offsets": [off, off + a.nbytes]}
        off += a.nbytes
    h = json.dumps(hdr).encode()
    with open(os.path.join(d, "model.safetensors"), "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h)
        for nm, a in (order if not named else order[::-1]):
            f.write(a.tobytes())


def bind(shloc, work, name, named, fmt):
    d = os.path.join(work, name)
    os.makedirs(d, exist_ok=True)
    mlir = os.path.join(d, "model.mlir")
    open(mlir, "w").write(model_args(named))
    write_weights(d, named)
    obj = os.path.join(d, "model.o")
    r = run([shloc, mlir, "--bind-args=" + os.path.join(d, "model." + fmt), "-o", obj])
    if r.returncode:
        return report(name, "compile: " + r.stderr[-1500:])
    link_and_run(name, d, "app.c", obj, [])


def bind_rejects(shloc, work):
    d = os.path.join(work, "bind-npz")
    mlir = os.path.join(d, "model.mlir")
    for f, want in (("compressed.npz", "deflate"), ("wrong.npz", "does not fit argument 0")):
        r = run([shloc, mlir, "--bind-args=" + os.path.join(d, f), "-o", os.path.join(d, "x.o")])
        report(f"bind-rejects-{f}", None if r.returncode == 1 and want in r.stderr else
               f"exit status {r.returncode}, stderr {r.stderr[-500:]!r}")


def packing(shloc, mlir):
    """(KC, NR) of the packed weight matrix, from the IR after the layout
    pass, or None when it is not packed."""
    r = run([shloc, mlir, "--stop-after=layout", "--emit=mlir", "-o", "-"])
    m = re.search(rf"tensor<{K}x{N}xf32>  // const packed (\d+)x(\d+) panels", r.stdout)
    return (int(m.group(1)), int(m.group(2))) if m else None


def packed_weights(kc, nr):
    """The matrix as the kernel reads it: per K slice of kc rows, per panel
    of nr columns (zeros past N), its rows (ir.h GemmPacking)."""
    out = []
    for pc in range(0, K, kc):
        for j0 in range(0, N, nr):
            for k in range(pc, min(pc + kc, K)):
                out += [weight(k, j) if j < N else 0.0 for j in range(j0, j0 + nr)]
    return out


def check_bin(path, tile):
    data = open(path, "rb").read()
    magic, version, zero, size, fp = struct.unpack_from("<8sIIQQ", data)
    h = 0xcbf29ce484222325
    for c in data[64:]:
        h = ((h ^ c) * 0x100000001b3) & 0xffffffffffffffff
    w = packed_weights(*tile)
    want_w = struct.pack(f"<{len(w)}f", *w)
    want_b = struct.pack(f"<{N}f", *[bias(j) for j in range(N)])
    offs = [o for o in range(64, len(data), 64)]
    if magic != b"SHLOCWTS" or version != 1 or zero or size != len(data) or size % 64:
        return f"bad header {magic!r} {version} {size} (file {len(data)} bytes)"
    if fp != h:
        return f"fingerprint {fp:x}, FNV-1a of the data {h:x}"
    for want in (want_w, want_b):
        if not any(data[o:o + len(want)] == want for o in offs):
            return f"a constant of {len(want)} bytes is not at a multiple of 64"
    return None


def plan_weights(plan, name, opt, secs, d, welems):
    """The memory plan's weights figure against the section or the file:
    embed, the matrix (welems floats, packed; the bias may be folded into the
    code) within .rodata; section, the section's size; file, the file's size."""
    m = re.search(r"^weights\s+(\d+) bytes", plan, re.M)
    if not m:
        return "no weights line in the memory plan:\n" + plan
    got = int(m.group(1))
    rodata = sum(v for k, v in secs.items() if k.startswith(".rodata"))
    if name == "embed":
        ok = 4 * welems <= got <= 4 * (welems + N) and got <= rodata
    elif name == "section":
        ok = got == secs.get(opt.split("=", 1)[1])
    else:
        ok = got == os.path.getsize(os.path.join(d, "model.bin"))
    return None if ok else f"memory plan weights {got} bytes; sections {secs}"


def mode(shloc, readelf, work, name, opt):
    d = os.path.join(work, name)
    os.makedirs(d, exist_ok=True)
    mlir = os.path.join(d, "model.mlir")
    open(mlir, "w").write(model())
    obj = os.path.join(d, "model.o")
    r = run([shloc, mlir, "--weights=" + opt, "-o", obj, "--print-memory-plan"])
    if r.returncode:
        return report(name, "compile: " + r.stderr[-1500:])
    secs = sections(readelf, obj)
    tile = packing(shloc, mlir)
    if not tile:
        return report(name, "the weight matrix is not packed")
    nbytes = 4 * len(packed_weights(*tile))
    why = plan_weights(r.stdout, name, opt, secs, d, nbytes // 4)
    if why:
        return report(name, why)
    rodata = sum(v for k, v in secs.items() if k.startswith(".rodata"))
    if name == "embed" and rodata < nbytes:
        return report(name, f".rodata is {rodata} bytes, the weights {nbytes}: {secs}")
    if name == "section":
        sec = opt.split("=", 1)[1]
        if secs.get(sec, 0) < nbytes or rodata >= nbytes:
            return report(name, f"section {sec} has {secs.get(sec)} bytes, .rodata {rodata}, "
                                f"the weights {nbytes}: {secs}")
    define = []
    if name == "file":
        if rodata >= nbytes:
            return report(name, f"the object holds {rodata} bytes of .rodata: {secs}")
        why = check_bin(os.path.join(d, "model.bin"), tile)
        if why:
            return report(name, why)
        define = ['-DWEIGHTS_FILE="%s"' % os.path.join(d, "model.bin")]
    link_and_run(name, d, "app.c", obj, define)


LK, LN = 512, 512


def large_weight(i, j):
    return ((i * 7 + j * 13) % 17 - 8) * 0.125


def large_model():
    """y = x W + b and s = x ones, W (LK x LN) as hex (little-endian f32)."""
    w = struct.pack(f"<{LK * LN}f", *[large_weight(i, j) for i in range(LK) for j in range(LN)])
    b = ", ".join(repr(float(j % 9 - 4)) for j in range(LN))
    x, wt, yt = f"tensor<{M}x{LK}xf32>", f"tensor<{LK}x{LN}xf32>", f"tensor<{M}x{LN}xf32>"
    return f"""func.func @main(%x: {x}) -> ({yt}, {yt}) {{
  %w = stablehlo.constant dense<"0x{w.hex().upper()}"> : {wt}
  %b = stablehlo.constant dense<[{b}]> : tensor<{LN}xf32>
  %ones = stablehlo.constant dense<1.0> : {wt}
  %d = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : ({x}, {wt}) -> {yt}
  %bb = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<{LN}xf32>) -> {yt}
  %y = stablehlo.add %d, %bb : {yt}
  %s = stablehlo.dot_general %x, %ones, contracting_dims = [1] x [0] : ({x}, {wt}) -> {yt}
  return %y, %s : {yt}, {yt}
}}
""", w


def large_dir(work, name):
    """work/name with large.mlir written: (dir, mlir, object path, matrix bytes)."""
    d = os.path.join(work, name)
    os.makedirs(d, exist_ok=True)
    mlir, obj = os.path.join(d, "large.mlir"), os.path.join(d, "large.o")
    text, w = large_model()
    open(mlir, "w").write(text)
    return d, mlir, obj, w


def large(shloc, readelf, work, opt):
    name = "large-" + opt.split("=")[0]
    d, mlir, obj, w = large_dir(work, name)
    r = run([shloc, mlir, "--weights=" + opt, "-o", obj])
    if r.returncode:
        return report(name, "compile: " + r.stderr[-1500:])
    secs = sections(readelf, obj)
    data = open(obj, "rb").read()
    if opt == "file":
        data = open(os.path.join(d, "large.bin"), "rb").read()
        if any(k.startswith(".rodata") and v >= len(w) for k, v in secs.items()):
            return report(name, f"the object holds the weights: {secs}")
    elif opt.startswith("section=") and secs.get(opt.split("=", 1)[1], 0) < len(w):
        return report(name, f"section {opt} is not as big as the weights: {secs}")
    # the matrix, packed in panels of NR columns: its first K slice's first
    # panel row is row 0's first NR elements, which must be somewhere
    if w[:16] not in data:
        return report(name, "the weight matrix's first bytes are not in the output")
    define = ['-DWEIGHTS_FILE="%s"' % os.path.join(d, "large.bin")] if opt == "file" else []
    link_and_run(name, d, "large.c", obj, define)


def section_align(readelf, obj, name):
    """sh_addralign of section `name` of obj (llvm-readelf -S), or None."""
    r = run([readelf, "-S", "-W", obj])
    for line in r.stdout.splitlines():
        f = line.replace("[ ", "[").split()
        if len(f) > 6 and f[0].startswith("[") and f[1] == name:
            return int(f[-1])
    return None


def aligned(shloc, readelf, work, opt):
    """--weights-align=2097152 on the large model: the blob's section (the
    ELF blob still right after the header, with no padding in the object)
    has that alignment, so has the executable's segment holding it, an
    embed object is as big as without it, and the program's results are
    still plain C's."""
    name = "aligned-" + opt.split("=")[0]
    d, mlir, obj, w = large_dir(work, name)
    r = run([shloc, mlir, "--weights=" + opt, "--weights-align=2097152", "-o", obj])
    if r.returncode:
        return report(name, "compile: " + r.stderr[-1500:])
    sec = opt.split("=", 1)[1] if "=" in opt else ".rodata.shloc.weights"
    if section_align(readelf, obj, sec) != 2097152:
        return report(name, f"{sec} is aligned to {section_align(readelf, obj, sec)}")
    plain = os.path.join(d, "plain.o")
    if opt == "embed":
        r = run([shloc, mlir, "-o", plain])
        if r.returncode or os.path.getsize(obj) != os.path.getsize(plain) or \
           blob_offset(readelf, obj, sec)[0] != 64:
            return report(name, f"{os.path.getsize(obj)} bytes (unaligned: "
                          f"{os.path.getsize(plain)}), blob at {blob_offset(readelf, obj, sec)}")
    link_and_run(name, d, "large.c", obj, [])
    r = run([readelf, "-l", "-W", os.path.join(d, "app")])
    loads = [line.split() for line in r.stdout.splitlines() if line.split()[:1] == ["LOAD"]]
    if not any(int(f[-1], 16) == 2097152 for f in loads):
        return report(name + "-segment", "no LOAD segment aligned to 2 MiB:\n" + r.stdout[-1500:])
    r = run([readelf, "-s", "-W", os.path.join(d, "app")])
    addr = [int(f[1], 16) for f in map(str.split, r.stdout.splitlines())
            if len(f) > 7 and f[7] == "shloc.weight_bytes"]
    report(name + "-segment", None if len(addr) == 1 and addr[0] % 2097152 == 0 else
           f"shloc.weight_bytes at {[hex(a) for a in addr]}")


def aligned_rejects(shloc, work):
    """--weights-align that is not a power of two, with --weights=file, and
    for a Mach-O object: diagnosed."""
    mlir, obj = large_dir(work, "aligned-rejects")[1:3]
    for what, opts, want in (
            ("pow2", ["--weights-align=96"], "not a power of two"),
            ("big", ["--weights-align=4194304"], "--weights-align"),
            ("file", ["--weights-align=4096", "--weights=file"], "--weights=file"),
            ("macho", ["--weights-align=4096", "--target=x86_64-apple-macosx"],
             "error: --weights-align=4096: implemented for little-endian ELF objects only")):
        r = run([shloc, mlir, "-o", obj] + opts)
        report("aligned-rejects-" + what, None if r.returncode and want in r.stderr else
               f"rc {r.returncode}: {r.stderr[-800:]}")


def blob_offset(readelf, obj, name):
    """(file offset, size) of section `name` of obj (llvm-readelf -S)."""
    r = run([readelf, "-S", "-W", obj])
    for line in r.stdout.splitlines():
        f = line.replace("[ ", "[").split()
        if len(f) > 6 and f[0].startswith("[") and f[1] == name:
            return int(f[4], 16), int(f[5], 16)
    return None, None


def sh_end(elf64):
    """Where the section header table of an ELF64 object ends."""
    shoff, = struct.unpack_from("<Q", elf64, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", elf64, 0x3A)
    return shoff + shentsize * shnum


def small_files():
    """A child's files limited to 2 KiB, SIGXFSZ ignored: a write fails."""
    resource.setrlimit(resource.RLIMIT_FSIZE, (2048, 2048))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)


def written(shloc, readelf, work):
    """embed writes an ELF object's blob straight into the output file
    (codegen/weights.c blob_file_run): a constant the layout pass does
    not pack (an addend) lies at a multiple of 64 in the blob, the blob
    starts right after the ELF header (at 64), the section headers end the
    file (an older, longer file there is truncated), a pipe gets the same
    bytes (from memory), an output that cannot be created is diagnosed,
    and a write that fails leaves the older object as it was."""
    d = os.path.join(work, "written")
    os.makedirs(d, exist_ok=True)
    mlir, obj = os.path.join(d, "add.mlir"), os.path.join(d, "add.o")
    c = struct.pack(f"<{M * K}f", *[weight(i, j) for i in range(M) for j in range(K)])
    t = f"tensor<{M}x{K}xf32>"
    open(mlir, "w").write(f"""func.func @main(%x: {t}) -> {t} {{
  %c = stablehlo.constant dense<"0x{c.hex().upper()}"> : {t}
  %y = stablehlo.add %x, %c : {t}
  return %y : {t}
}}
""")
    open(obj, "wb").write(b"\xAA" * (1 << 20))
    r = run([shloc, mlir, "-o", obj])
    if r.returncode:
        return report("written", "compile: " + r.stderr[-1500:])
    off, size = blob_offset(readelf, obj, ".rodata.shloc.weights")
    data = open(obj, "rb").read()
    at = data.find(c, off or 0)
    if off is None or at < 0 or (at - off) % 64 or at + len(c) > off + size:
        report("written", f"the constant is not in the blob (section at {off}, {size} bytes)")
    elif off != 64:
        report("written", f"the blob starts at {off}, not after the ELF header")
    elif sh_end(data) != len(data):
        report("written", f"the section headers end at {sh_end(data)}, the file at {len(data)}")
    else:
        report("written", None)
    # into a pipe (no pwrite there): the same bytes, from memory
    fifo = os.path.join(d, "fifo.o")
    if os.path.exists(fifo):
        os.remove(fifo)
    os.mkfifo(fifo)
    r, got = read_fifo(fifo, [shloc, mlir, "-o", fifo])
    report("written-pipe", None if r.returncode == 0 and got == [data]
           else f"exit {r.returncode}, {len(got[0]) if got else 0} bytes: {r.stderr[-500:]}")
    written_pipe_alone(shloc, d, mlir, fifo)
    r = run([shloc, mlir, "-o", os.path.join(d, "missing", "add.o")])
    report("written-uncreatable", None if r.returncode == 1 and "cannot create" in r.stderr
           else f"exit {r.returncode}: {r.stderr[-500:]}")
    # a write that fails (files limited to 2 KiB, SIGXFSZ ignored) is
    # diagnosed, leaves the older object whole and no new file beside it
    r = subprocess.run([shloc, mlir, "-o", obj], capture_output=True, text=True,
                       preexec_fn=small_files)
    left = sorted(f for f in os.listdir(d) if f.startswith("add.o."))
    report("written-failed", None if r.returncode == 1 and "cannot write" in r.stderr
           and os.path.exists(obj) and open(obj, "rb").read() == data and not left
           else f"exit {r.returncode}, files {left}: {r.stderr[-500:]}")
    written_dangling(shloc, d, mlir, data)
    written_together(shloc, d, mlir)


def read_fifo(fifo, cmd):
    """Runs cmd while a thread reads the FIFO: (the run, [the bytes read])."""
    got = []
    reader = threading.Thread(target=lambda: got.append(open(fifo, "rb").read()), daemon=True)
    reader.start()
    r = run(cmd)
    reader.join(60)
    return r, got


def written_pipe_alone(shloc, d, mlir, fifo):
    """An object into a FIFO (a device alike: -o /dev/null) gets no header
    beside it (tools/shloc.c outputs_beside): fifo.h would be nobody's
    file (--weights=file there is refused: outputs.py weights-fifo)."""
    beside = [fifo[:-2] + e for e in (".h", ".bin")]
    for p in beside:
        if os.path.lexists(p):
            os.remove(p)
    r, got = read_fifo(fifo, [shloc, mlir, "-o", fifo])
    made = [os.path.basename(p) for p in beside if os.path.lexists(p)]
    report("written-pipe-alone", None if r.returncode == 0 and got and got[0][:4] == b"\x7fELF"
           and not made else f"exit {r.returncode}, written beside: {made}: {r.stderr[-500:]}")


def written_dangling(shloc, d, mlir, data):
    """A dangling symbolic link (relative, to a relative link to a missing
    file) is followed: a compile whose write fails (files limited to 2
    KiB) leaves neither the missing file nor a new file beside it, one
    that succeeds creates the file at the links' end, the links kept
    (codegen/outfile.c link_end: the new file is beside the missing one,
    renamed to it when whole; written in place, a partial file was left)."""
    sub = os.path.join(d, "dangling")
    shutil.rmtree(sub, ignore_errors=True)
    os.makedirs(os.path.join(sub, "to"))
    link, end = os.path.join(sub, "link.o"), os.path.join(sub, "to", "end.o")
    os.symlink("to/mid.o", link)
    os.symlink("end.o", os.path.join(sub, "to", "mid.o"))
    r = subprocess.run([shloc, mlir, "-o", link], capture_output=True, text=True,
                       preexec_fn=small_files)
    left = sorted(os.listdir(os.path.join(sub, "to")))
    if r.returncode != 1 or "cannot write" not in r.stderr or left != ["mid.o"]:
        return report("written-dangling", f"failed write: exit {r.returncode}, files {left}: "
                                          f"{r.stderr[-500:]}")
    r = run([shloc, mlir, "-o", link])
    report("written-dangling", None if r.returncode == 0 and os.readlink(link) == "to/mid.o"
           and os.path.isfile(end) and open(end, "rb").read() == data
           else f"exit {r.returncode}, {os.listdir(os.path.join(sub, 'to'))}: {r.stderr[-500:]}")


def written_together(shloc, d, mlir):
    """A compile whose header cannot be created (STEM.h a link into a
    missing directory: a directory at STEM.h is refused before anything is
    written, codegen/outfile.c) leaves the object and --weights=file's STEM.bin as they were, with no
    new file beside them: the tool renames a compile's outputs only once
    every one is whole (tools/shloc.c outputs_commit; the object was
    replaced before the header was written). embed: codegen writes the
    object's file itself (its blob after the ELF header)."""
    obj, binp, hdr = (os.path.join(d, "together" + e) for e in (".o", ".bin", ".h"))
    for opt in ("embed", "file"):
        if os.path.isdir(hdr) and not os.path.islink(hdr):
            os.rmdir(hdr)
        elif os.path.lexists(hdr):
            os.remove(hdr)
        os.symlink("missing/together.h", hdr)
        old = {p: b"older " + os.path.basename(p).encode() for p in (obj, binp)}
        for p, b in old.items():
            open(p, "wb").write(b)
        r = run([shloc, mlir, "-o", obj, "--weights=" + opt])
        kept = all(open(p, "rb").read() == b for p, b in old.items())
        left = sorted(f for f in os.listdir(d) if f.startswith("together.")
                      and f not in ("together.o", "together.bin", "together.h"))
        report(f"written-together-{opt}", None if r.returncode == 1 and "cannot create" in r.stderr
               and kept and not left
               else f"exit {r.returncode}, older files kept: {kept}, files {left}: {r.stderr[-500:]}")



def written_packed(shloc, work):
    """The large model's packed matrix is made ahead (codegen/weights.c
    cg_weights_ahead), whose thread also writes the blob into the new
    object file: the object holds the packed bytes and is the same through
    a symbolic link to the output (the link kept, its target replaced), and
    a write that fails is diagnosed and leaves the older object whole with
    no new file beside it. Which thread wrote the blob is not observed."""
    d, mlir, obj, w = large_dir(work, "written-packed")
    link, target = os.path.join(d, "link.o"), os.path.join(d, "target.o")
    for p in (link, target):
        if os.path.lexists(p):
            os.remove(p)
    os.symlink(target, link)
    r = run([shloc, mlir, "-o", obj])
    r2 = run([shloc, mlir, "-o", link])
    if r.returncode or r2.returncode:
        return report("written-packed", "compile: " + (r.stderr + r2.stderr)[-1500:])
    data = open(obj, "rb").read()
    if w[:16] not in data or not os.path.islink(link) or open(target, "rb").read() != data:
        return report("written-packed", "the object through a link differs, or no link is left")
    r = subprocess.run([shloc, mlir, "-o", obj], capture_output=True, text=True,
                       preexec_fn=small_files)
    left = sorted(f for f in os.listdir(d) if f.startswith("large.o."))
    report("written-packed", None if r.returncode == 1 and "cannot write" in r.stderr
           and open(obj, "rb").read() == data and not left
           else f"exit {r.returncode}, files {left}: {r.stderr[-500:]}")
    written_link_failed(shloc, d, mlir, link, target, data)
    written_keeps_mode(shloc, mlir, obj)


def written_keeps_mode(shloc, mlir, obj):
    """An object and header replaced by a compile keep their permission
    bits (codegen/outfile.c): a private 0600 output stays private."""
    header = obj[:-2] + ".h"
    for p in (obj, header):
        os.chmod(p, 0o600)
    r = run([shloc, mlir, "-o", obj])
    modes = [os.stat(p).st_mode & 0o777 for p in (obj, header)]
    report("written-keeps-mode", None if not r.returncode and modes == [0o600, 0o600]
           else f"exit {r.returncode}, modes {[oct(m) for m in modes]}: {r.stderr[-500:]}")


def written_link_failed(shloc, d, mlir, link, target, data):
    """A write through a symbolic link that fails (files limited to
    2 KiB) leaves the link and its target as they were (codegen/outfile.c:
    the new file is beside the target, renamed over it only when whole)."""
    if not hasattr(resource, "RLIMIT_FSIZE"):
        print("NOTICE weights: no RLIMIT_FSIZE (ulimit -f), written-link-failed not checked")
        return
    r = subprocess.run([shloc, mlir, "-o", link], capture_output=True, text=True,
                       preexec_fn=small_files)
    left = sorted(f for f in os.listdir(d) if f.startswith(("target.o.", "link.o.")))
    report("written-link-failed", None if r.returncode == 1 and "cannot write" in r.stderr
           and os.path.islink(link) and os.readlink(link) == target
           and open(target, "rb").read() == data and not left
           else f"exit {r.returncode}, link {os.path.islink(link)}, files {left}: "
                f"{r.stderr[-500:]}")

# split: layers enough for optsplit.c to optimize the kernels on two
# threads (--time-passes prints llvm-opt-2), each with a small constant
# (a row offset of 8 floats) that kernels load through --weights=file's
# shloc.weights pointer, which the loader (in the other module) stores.
SPLIT_LAYERS, SPLIT_ROWS, SPLIT_WIDTH = 8, 8, 64


def split_params(i):
    """Layer i's weights, bias and row offsets (exact in f32)."""
    w = [[((i + 3 * r + 5 * c) % 9 - 4) * 0.0625 for c in range(SPLIT_WIDTH)]
         for r in range(SPLIT_WIDTH)]
    b = [((i + c) % 9 - 4) * 0.125 for c in range(SPLIT_WIDTH)]
    return w, b, [r * 0.25 + i * 0.0078125 for r in range(SPLIT_ROWS)]


def split_model():
    """h = tanh(h @ W_i + b_i + o_i[row]) for SPLIT_LAYERS layers."""
    rows, wd = SPLIT_ROWS, SPLIT_WIDTH
    t = f"tensor<{rows}x{wd}xf32>"
    lines = [f"func.func @main(%x: {t}) -> {t} {{"]
    h = "%x"
    for i in range(SPLIT_LAYERS):
        w, b, o = split_params(i)
        wl = ", ".join("[" + ", ".join(map(repr, row)) + "]" for row in w)
        lines += [
            f"  %w{i} = stablehlo.constant dense<[{wl}]> : tensor<{wd}x{wd}xf32>",
            f"  %b{i} = stablehlo.constant dense<{b!r}> : tensor<{wd}xf32>",
            f"  %o{i} = stablehlo.constant dense<{o!r}> : tensor<{rows}xf32>",
            f"  %d{i} = stablehlo.dot_general {h}, %w{i}, contracting_dims = [1] x [0] : "
            f"({t}, tensor<{wd}x{wd}xf32>) -> {t}",
            f"  %bb{i} = stablehlo.broadcast_in_dim %b{i}, dims = [1] : (tensor<{wd}xf32>) -> {t}",
            f"  %ob{i} = stablehlo.broadcast_in_dim %o{i}, dims = [0] : (tensor<{rows}xf32>) -> {t}",
            f"  %s{i} = stablehlo.add %d{i}, %bb{i} : {t}",
            f"  %u{i} = stablehlo.add %s{i}, %ob{i} : {t}",
            f"  %h{i} = stablehlo.tanh %u{i} : {t}"]
        h = f"%h{i}"
    return "\n".join(lines + [f"  return {h} : {t}", "}"]) + "\n"


SPLIT_APP = r"""#include <stdio.h>
#include <stdlib.h>
#include "split.h"
int main(int argc, char **argv) {
  FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
  if (!f || fseek(f, 0, SEEK_END)) return 3;
  long n = ftell(f);
  rewind(f);
  void *w = aligned_alloc(64, ((size_t)n + 63) / 64 * 64);
  if (fread(w, 1, (size_t)n, f) != (size_t)n || split_load_weights(w, (size_t)n)) return 4;
  static float x[SPLIT_MAIN_ARG0_BYTES / 4], y[SPLIT_MAIN_RESULT0_BYTES / 4];
  for (size_t i = 0; i < sizeof x / sizeof *x; i++) x[i] = (float)((int)(i % 11) - 5) * 0.125f;
  void *temp = aligned_alloc(64, (SPLIT_MAIN_TEMP_BYTES + 63) / 64 * 64 + 64);
  if (split_main(x, y, temp)) return 5;
  for (size_t i = 0; i < sizeof y / sizeof *y; i++) printf("%.9g\n", y[i]);
  return 0;
}
"""


def split_expected():
    """The model in float64, from the inputs SPLIT_APP gives it."""
    import math
    n = SPLIT_ROWS * SPLIT_WIDTH
    x = [((i % 11) - 5) * 0.125 for i in range(n)]
    h = [x[r * SPLIT_WIDTH:(r + 1) * SPLIT_WIDTH] for r in range(SPLIT_ROWS)]
    for i in range(SPLIT_LAYERS):
        w, b, o = split_params(i)
        h = [[math.tanh(sum(h[r][k] * w[k][c] for k in range(SPLIT_WIDTH)) + b[c] + o[r])
              for c in range(SPLIT_WIDTH)] for r in range(SPLIT_ROWS)]
    return [v for row in h for v in row]


def split_file(shloc, work):
    """--weights=file on a module whose kernels are optimized on two
    threads: the loader's stores and the kernels' loads of the weights
    pointer sit in different modules during the split."""
    d = os.path.join(work, "split")
    os.makedirs(d, exist_ok=True)
    mlir, obj = os.path.join(d, "split.mlir"), os.path.join(d, "split.o")
    open(mlir, "w").write(split_model())
    r = run([shloc, mlir, "-O3", "--time-passes", "-o", os.path.join(d, "embed.o")])
    if r.returncode or "llvm-opt-2" not in r.stderr:
        return report("split-file", "the model is not split any more (no llvm-opt-2 in "
                      "--time-passes): it no longer tests the split\n" + r.stderr[-800:])
    r = run([shloc, mlir, "-O3", "--weights=file", "--name=split", "-o", obj])
    if r.returncode:
        return report("split-file", "compile: " + r.stderr[-1500:])
    open(os.path.join(d, "app.c"), "w").write(SPLIT_APP)
    exe = os.path.join(d, "app")
    r = run(["cc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-O1", "-I" + d,
             os.path.join(d, "app.c"), obj, "-lm", "-o", exe])
    if r.returncode:
        return report("split-file", "link: " + r.stderr[-1500:])
    r = run([exe, os.path.join(d, "split.bin")])
    if r.returncode:
        return report("split-file", f"exit status {r.returncode}: {r.stderr[-500:]}")
    got, want = [float(v) for v in r.stdout.split()], split_expected()
    bad = [(i, g, w) for i, (g, w) in enumerate(zip(got, want)) if abs(g - w) > 1e-5]
    report("split-file", None if len(got) == len(want) and not bad else
           f"{len(got)} values, want {len(want)}; first off (index, got, float64): {bad[:3]}")


def main():
    shloc, build = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    readelf = shutil.which("llvm-readelf-19") or shutil.which("llvm-readelf") or shutil.which("readelf")
    work = os.path.join(build, "tests", "weights")
    for name, opt in (("embed", "embed"), ("section", "section=.model_weights"), ("file", "file")):
        mode(shloc, readelf, work, name, opt)
        large(shloc, readelf, work, opt)
        if opt != "file":
            aligned(shloc, readelf, work, opt)
    aligned_rejects(shloc, work)
    written(shloc, readelf, work)
    written_packed(shloc, work)
    split_file(shloc, work)
    try:
        import numpy  # noqa: F401
    except ImportError:
        print("NOTICE weights: numpy missing (python3-numpy), --bind-args not checked")
    else:
        bind(shloc, work, "bind-npz", False, "npz")
        bind(shloc, work, "bind-safetensors", False, "safetensors")
        bind(shloc, work, "bind-npz-named", True, "npz")
        bind(shloc, work, "bind-safetensors-named", True, "safetensors")
        bind_rejects(shloc, work)
    return TALLY.close()


if __name__ == "__main__":
    sys.exit(main())
