#!/usr/bin/env python3
"""Bad input at scale: each generated input (never stored in the repository)
must give a clear error, exit status 1, and stay under a stated peak RSS.

usage: limits.py SHLOC WORKDIR [--sanitized]
The limits (docs/testing.md, "Limits on input"): regular files up to
1 GiB, pipes up to 512 MiB (ir/diag.c), nesting up to 256 levels and 2^19 ops a module
(frontend/parser.c), 2^58 elements a tensor (ir/types.c). --sanitized
(ASan/TSan builds) checks statuses and messages but not memory, which the
sanitizers' shadow memory inflates. Closes with `N passed, N failed`.
"""
import os
import subprocess
import sys

MB = 1 << 20


def write_ops(f, n):
    """A function of n chained adds: ~56 bytes of text an op."""
    t = "tensor<4xf32>"
    f.write(f"func.func @main(%a: {t}) -> {t} {{\n  %v0 = stablehlo.add %a, %a : {t}\n")
    chunk = []
    for i in range(1, n):
        chunk.append(f"  %v{i} = stablehlo.add %v{i - 1}, %a : {t}\n")
        if len(chunk) == 4096:
            f.write("".join(chunk))
            chunk = []
    f.write("".join(chunk) + f"  func.return %v{n - 1} : {t}\n}}\n")


def write_huge_text(f, nbytes):
    """nbytes of comment lines: text a lexer must read to the end."""
    line = "// " + "x" * 76 + "\n"
    block = line * (MB // len(line))
    for _ in range(nbytes // len(block)):
        f.write(block)


def write_nested_ifs(f, n):
    """n nested `if` regions."""
    t = "tensor<f32>"
    f.write(f"func.func @main(%p: tensor<i1>, %x: {t}) -> {t} {{\n")
    for i in range(n):
        f.write(f'%v{i} = "stablehlo.if"(%p) ({{\n')
    f.write(f"stablehlo.return %x : {t}\n")
    for i in reversed(range(n)):
        f.write(f"}}, {{\nstablehlo.return %x : {t}\n}}) : (tensor<i1>) -> {t}\n"
                f"stablehlo.return %v{i} : {t}\n" if i else
                f"}}, {{\nstablehlo.return %x : {t}\n}}) : (tensor<i1>) -> {t}\n")
    f.write(f"func.return %v0 : {t}\n}}\n")


def write_nested_tuple(f, n):
    t = "tuple<" * n + "tensor<f32>" + ">" * n
    f.write(f"func.func @main(%a: {t}) -> {t} {{\n  func.return %a : {t}\n}}\n")


def write_nested_array_attr(f, n):
    a = "[" * n + "1" + "]" * n
    f.write(f"func.func @main() -> tensor<f32> attributes {{x = {a}}} {{\n"
            "  %0 = stablehlo.constant dense<1.0> : tensor<f32>\n"
            "  func.return %0 : tensor<f32>\n}\n")


# name, generator, argument, expected message, peak RSS bound (MiB), piped
CASES = [
    ("1.1 GB of text", write_huge_text, 1100 * MB,
     "larger than the input limit of 1 GiB", 100, False),
    ("1 GB of text on a pipe", write_huge_text, 1000 * MB,
     "larger than the input limit of 512 MiB", 700, True),
    ("10^5 nested regions", write_nested_ifs, 100000, "nesting deeper than 256 levels", 200, False),
    ("10^5 nested tuple types", write_nested_tuple, 100000, "nesting deeper than 256 levels",
     200, False),
    ("10^5 nested array attributes", write_nested_array_attr, 100000,
     "nesting deeper than 256 levels", 200, False),
    ("10^6 ops", write_ops, 1000000, "more than 524288 ops in one module", 1200, False),
]


def run_measured(cmd, pipe_from):
    """Runs cmd, its standard input a pipe fed with the file pipe_from (or
    nothing); returns (status, stderr, peak RSS in MiB) of cmd alone."""
    feeder = subprocess.Popen(["cat", pipe_from], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL) if pipe_from else None
    p = subprocess.Popen(cmd, stdin=feeder.stdout if feeder else subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if feeder:
        feeder.stdout.close()  # shloc holds the read end; cat gets SIGPIPE when it stops
    err = p.stderr.read().decode(errors="replace")
    _, status, ru = os.wait4(p.pid, 0)
    if feeder:
        feeder.wait()
    return os.waitstatus_to_exitcode(status), err, ru.ru_maxrss / 1024


def main():
    shloc, work = sys.argv[1], sys.argv[2]
    sanitized = "--sanitized" in sys.argv
    os.makedirs(work, exist_ok=True)
    passed = failed = 0
    for name, gen, arg, want, bound, piped in CASES:
        path = os.path.join(work, "input.mlir")
        with open(path, "w") as f:
            gen(f, arg)
        cmd = [shloc, "/dev/stdin" if piped else path, "-o", os.path.join(work, "out.o")]
        status, err, rss = run_measured(cmd, path if piped else None)
        os.remove(path)
        why = None
        if status != 1:
            why = f"exit status {status}, want 1"
        elif want not in err:
            why = f"missing {want!r}"
        elif not sanitized and rss > bound:
            why = f"peak RSS {rss:.0f} MiB above the bound of {bound} MiB"
        if why:
            failed += 1
            print(f"FAIL limits/{name}: {why}\n{err[-800:]}")
        else:
            passed += 1
            print(f"PASS limits/{name} (peak RSS {rss:.0f} MiB, bound {bound} MiB)")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
