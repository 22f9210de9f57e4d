#!/usr/bin/env python3
"""Paired A/B timing of one model compiled by two shloc builds, in one process.

usage: python3 bench/ab.py [--threads=N] [--calls=N] [--rounds=R] [--gap-ms=G]
                           [--offset=O] [--fifo] SHLOC_A SHLOC_B MODEL.mlir [SHLOC OPTION...]

Compiles MODEL.mlir with each build (--packed-entry, --threads=N, and the
options after it, e.g. --elided=pattern), links both objects into one C
driver with SHLOC_B's runtime (build/libshlort.a beside it: a change to the
runtime itself cannot be compared this way) and calls them in turn, R
rounds of N calls each (A then B in even calls, B then A in odd ones),
G ms of sleep before each call (default 0). Prints per round the median
of B/A over the pairs and how many pairs B won, and each build's median.
--fifo runs the driver under `chrt -f 10`.

Both objects read the same argument, result and temp buffers (allocated
once, 64-byte aligned): on the 2-core VM the placement of an object's own
buffers alone moved BERT at 7 tokens by 3-5% between two identical objects,
more than the changes measured. The arguments hold a fixed pattern in
[-0.5, 0.5) (f32; f64 buffers get the same bytes, small finite
numbers) or zeros (integers, so that gathers stay in range).
--offset=O places the arguments O bytes past a line (0-63; the results and
temp stay on lines): 16 as large NumPy arrays lie (glibc's mmap'd chunks,
16 bytes past a page), as compare.py passes the weights.
"""
import os
import re
import subprocess
import sys
import tempfile

DRIVER = r"""
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "ab_a.h"
#include "ab_b.h"

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static int cmp(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return a < b ? -1 : a > b;
}

static void *buffer(size_t bytes, int is_float, size_t offset) {
  char *base = aligned_alloc(64, (bytes + offset + 63) / 64 * 64);
  if (!base) abort();
  void *p = base + offset;
  memset(p, 0, bytes);
  for (size_t i = 0; is_float && i < bytes / 4; i++)
    ((float *)p)[i] = (float)((i * 2654435761u) % 1000) / 1000.0f - 0.5f;
  return p;
}

static const size_t sizes[] = {SIZES};
static const int floats[] = {FLOATS};
enum { NBUF = sizeof sizes / sizeof *sizes };

static double call(int32_t (*f)(void **), void **args, int gap_us) {
  if (gap_us) usleep(gap_us);
  double t = now();
  if (f(args)) {
    fprintf(stderr, "ab: the entry failed\n");
    exit(1);
  }
  return now() - t;
}

int main(int argc, char **argv) {
  int calls = atoi(argv[1]), rounds = atoi(argv[2]), gap_us = atoi(argv[3]);
  void *args[NBUF];
  for (int i = 0; i < NBUF; i++) args[i] = buffer(sizes[i], floats[i], i < NARGS ? OFFSET : 0);
  size_t n = (size_t)calls * rounds;
  double *ta = malloc(sizeof(double) * n), *tb = malloc(sizeof(double) * n);
  double *r = malloc(sizeof(double) * calls);
  if (!ta || !tb || !r) abort();
  for (int w = 0; w < 2; w++) call(ab_a_main__packed, args, 0), call(ab_b_main__packed, args, 0);
  for (int q = 0; q < rounds; q++) {
    int won = 0;
    for (int i = 0; i < calls; i++) {
      double *a = &ta[q * calls + i], *b = &tb[q * calls + i];
      if (i & 1) {
        *b = call(ab_b_main__packed, args, gap_us);
        *a = call(ab_a_main__packed, args, gap_us);
      } else {
        *a = call(ab_a_main__packed, args, gap_us);
        *b = call(ab_b_main__packed, args, gap_us);
      }
      r[i] = *b / *a;
      won += r[i] < 1;
    }
    qsort(r, calls, sizeof(double), cmp);
    printf("round %d: B/A paired median %.3f, B faster in %d of %d\n", q + 1, r[calls / 2], won,
           calls);
    fflush(stdout);
  }
  qsort(ta, n, sizeof(double), cmp);
  qsort(tb, n, sizeof(double), cmp);
  printf("A: median %.3f ms, min %.3f\nB: median %.3f ms, min %.3f\n", ta[n / 2] * 1e3,
         ta[0] * 1e3, tb[n / 2] * 1e3, tb[0] * 1e3);
  return 0;
}
"""


def buffers(header, prefix):
    """Sizes of the packed entry's buffers (arguments, results, temp) and
    whether each argument is floating point."""
    text = open(header).read()
    p = prefix.upper()

    def num(name):
        m = re.search(rf"#define {p}_MAIN_{name} \(\(size_t\)(\d+)\)", text) or \
            re.search(rf"#define {p}_MAIN_{name} (\d+)", text)
        if not m:
            sys.exit(f"ab: {header} has no {p}_MAIN_{name}")
        return int(m.group(1))

    nargs, nres = num("NUM_ARGS"), num("NUM_RESULTS")
    proto = re.search(rf"^int {prefix}_main\((.*?)\);", text, re.M | re.S)
    if not proto:
        sys.exit(f"ab: no prototype of {prefix}_main in {header}")
    params = [x.strip() for x in proto.group(1).split(",")]
    is_float = [1 if re.search(r"\b(float|double)\b", x) else 0
                for x in params[:nargs]]
    sizes = [num(f"ARG{i}_BYTES") for i in range(nargs)] + \
            [num(f"RESULT{i}_BYTES") for i in range(nres)] + [num("TEMP_BYTES")]
    return sizes, is_float + [0] * (nres + 1), nargs


def main():
    opts = {"threads": "1", "calls": "100", "rounds": "3", "gap-ms": "0", "offset": "0"}
    fifo, pos, extra = False, [], []
    for a in sys.argv[1:]:
        if len(pos) == 3:
            extra.append(a)
        elif a == "--fifo":
            fifo = True
        elif a.startswith("--") and "=" in a and a[2:a.index("=")] in opts:
            opts[a[2:a.index("=")]] = a[a.index("=") + 1:]
        elif a.startswith("-"):
            sys.exit(__doc__)
        else:
            pos.append(a)
    if len(pos) != 3 or int(opts["calls"]) < 1 or int(opts["rounds"]) < 1 or \
            not 0 <= int(opts["offset"]) < 64:
        sys.exit(__doc__)
    shloc_a, shloc_b, model = pos
    runtime = os.path.join(os.path.dirname(os.path.abspath(shloc_b)), "libshlort.a")
    with tempfile.TemporaryDirectory(prefix="shloc-ab-") as d:
        layout = []
        for shloc, name in ((shloc_a, "ab_a"), (shloc_b, "ab_b")):
            subprocess.run([shloc, model, f"--threads={opts['threads']}", "--packed-entry",
                            f"--name={name}", "-o", os.path.join(d, name + ".o")] + extra,
                           check=True)
            layout.append(buffers(os.path.join(d, name + ".h"), name))
        if len(layout[0][0]) != len(layout[1][0]):
            sys.exit("ab: the two objects' entries take different buffers")
        sizes = [max(x, y) for x, y in zip(layout[0][0], layout[1][0])]
        src = DRIVER.replace("SIZES", ", ".join(str(s) for s in sizes))
        src = src.replace("FLOATS", ", ".join(str(f) for f in layout[1][1]))
        src = src.replace("NARGS", str(layout[1][2])).replace("OFFSET", opts["offset"])
        with open(os.path.join(d, "ab.c"), "w") as f:
            f.write(src)
        exe = os.path.join(d, "ab")
        subprocess.run(["cc", "-O2", "-I", d, "-o", exe, os.path.join(d, "ab.c"),
                        os.path.join(d, "ab_a.o"), os.path.join(d, "ab_b.o"), runtime,
                        "-pthread", "-lm"], check=True)
        cmd = [exe, opts["calls"], opts["rounds"], str(int(float(opts["gap-ms"]) * 1000))]
        if fifo:
            cmd = ["chrt", "-f", "10"] + cmd
        sys.exit(subprocess.run(cmd).returncode)


if __name__ == "__main__":
    main()
