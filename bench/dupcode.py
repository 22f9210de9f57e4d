#!/usr/bin/env python3
"""Functions of an object whose machine code equals another's.

    python3 bench/dupcode.py X.o [Y.o ...] [--list]

For each object: its .text bytes (`size`), its functions, and the groups
of functions with the same code once addresses, jump targets inside the
function (as offsets from its start), symbol names and relocations'
targets are taken out (objdump -d -r). Such a group is one kernel emitted
or kept more than once: by kernel emission (kernels alike but for their
names), or by codegen/optsplit.c (a copy optimized in both modules kept
twice, SUFFIX ".split"). `wasted` is the bytes of all but one function of
each group. A relocation to a constant-pool entry (.LCPI, in a
.rodata.cstN section) stands for the entry's N bytes; other relocations'
targets are dropped (two functions that read different tables count as
alike: an upper bound).
"""
import hashlib
import re
import subprocess
import sys

FN_HEAD = re.compile(r"^[0-9a-f]+ <(.+)>:$")
INSN = re.compile(r"^\s*([0-9a-f]+):\t(.*)$")
RELOC = re.compile(r"^\s*[0-9a-f]+: (R_\S+)\s+(\.LCPI[\w.]+)?")
SYM = re.compile(r"^([0-9a-f]+) l\s+(\.rodata\.cst(\d+))\s+[0-9a-f]+ (\.LCPI[\w.]+)$")


def section_bytes(path, name):
    """The bytes of section name (objdump -s)."""
    out = subprocess.run(["objdump", "-s", "-j", name, path], capture_output=True,
                         text=True, check=True).stdout
    data = bytearray()
    for line in out.splitlines()[4:]:
        words = line[1:].split(" ")[1:5]
        data += bytes.fromhex("".join(w for w in words if w))
    return bytes(data)


def pool_entries(path):
    """{.LCPI name: its bytes} of the object's constant pools."""
    out = subprocess.run(["objdump", "-t", path], capture_output=True, text=True,
                         check=True).stdout
    sections, entries = {}, {}
    for line in out.splitlines():
        m = SYM.match(line)
        if m:
            if m.group(2) not in sections:
                sections[m.group(2)] = section_bytes(path, m.group(2))
            at, n = int(m.group(1), 16), int(m.group(3))
            entries[m.group(4)] = sections[m.group(2)][at:at + n].hex()
    return entries
TARGET = re.compile(r"\b[0-9a-f]+ <([^>+]+)(\+0x[0-9a-f]+)?>")
RIP = re.compile(r"-?0x[0-9a-f]+\(%rip\)")


def functions(path):
    """{name: (normalized code, bytes)} of the object's text sections."""
    out = subprocess.run(["objdump", "-d", "-r", "--no-show-raw-insn", path],
                         capture_output=True, text=True, check=True).stdout
    pool = pool_entries(path)
    fns, name, lines, first, last = {}, None, [], 0, 0

    def close():
        if name is not None:
            fns[name] = ("\n".join(lines), last - first)

    for line in out.splitlines():
        m = FN_HEAD.match(line)
        if m:
            close()
            name, lines, first, last = m.group(1), [], None, 0
            continue
        if name is None:
            continue
        r = RELOC.match(line)
        if r:
            lines.append(r.group(1) + " " + pool.get(r.group(2), ""))
            continue
        i = INSN.match(line)
        if not i:
            continue
        addr, text = int(i.group(1), 16), i.group(2).split("#")[0].strip()
        first = addr if first is None else first
        last = addr + 1  # the last instruction's length is not printed: +1
        text = RIP.sub("RIP", text)
        text = TARGET.sub(lambda t: "<+%s>" % (t.group(2) or "+0x0")
                          if t.group(1) == name else "<SYM>", text)
        lines.append(text)
    close()
    return fns


def text_bytes(path):
    out = subprocess.run(["size", "-A", path], capture_output=True, text=True,
                         check=True).stdout
    return sum(int(p[1]) for p in (l.split() for l in out.splitlines())
               if len(p) >= 2 and p[0].startswith(".text"))


def groups(fns):
    """Lists of names with the same code, largest first."""
    by = {}
    for n, (code, size) in fns.items():
        by.setdefault(hashlib.sha256(code.encode()).hexdigest(), []).append(n)
    return sorted((sorted(g) for g in by.values() if len(g) > 1),
                  key=lambda g: -fns[g[0]][1])


def main(argv):
    show = "--list" in argv
    for path in (a for a in argv if a != "--list"):
        fns = functions(path)
        gs = groups(fns)
        wasted = sum(fns[g[0]][1] * (len(g) - 1) for g in gs)
        split = sum(1 for n in fns if n.endswith(".split"))
        print(f"{path}: text {text_bytes(path)} B, {len(fns)} functions, "
              f"{len(gs)} groups alike ({sum(len(g) for g in gs)} functions), "
              f"wasted {wasted} B, .split copies {split}")
        for g in gs if show else []:
            print(f"  {fns[g[0]][1]:7d} B x{len(g)}: {' '.join(g)}")


if __name__ == "__main__":
    main(sys.argv[1:])
