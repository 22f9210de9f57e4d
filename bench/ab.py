#!/usr/bin/env python3
"""Paired timing of one model compiled by two or more shloc builds, in one process.

usage: python3 bench/ab.py [--threads=N] [--calls=N] [--rounds=R] [--gap-ms=G]
                           [--offset=O] [--fifo] BUILD BUILD [BUILD...] MODEL.mlir
                           [SHLOC OPTION...]
       BUILD = SHLOC[:THREADS[:RUNTIME.a]]   (SHLOC::RUNTIME.a: threads N)

Compiles MODEL.mlir with each build (--packed-entry, --threads=THREADS,
default N, and the options after the model, e.g. --elided=pattern) and
calls the entries in turn from one C driver: R rounds of N calls of each
build, the order rotated every call (A then B, then B then A for two
builds), G ms of sleep before each call (default 0; compare.py sleeps 50).
Prints per round, for each build after the first, the median over the
calls of its time over A's in the same call (B/A) and how many calls it
won; then those ratios' medians and quartiles over all rounds, and each
build's median and least time. --fifo runs the driver under `chrt -f 10`.

When every build has the same thread count and none names a runtime,
all objects are linked into the driver with the last build's runtime
(build/libshlort.a beside its SHLOC): one thread pool. Otherwise each
build gets a shared library of its own with its runtime (RUNTIME.a,
default libshlort.a beside SHLOC; -Wl,-Bsymbolic), which the driver
dlopens RTLD_LOCAL: a runtime change, or one object at 1 and 2
threads (`ab.py X:1 X:2 M.mlir`). Each runtime then has workers of
its own, and at G = 0 one build's may still spin (50 us after a call,
runtime/parallel.c) when the next build's call starts: --gap-ms=50, as
compare.py, leaves them asleep.

All builds read the same argument, result and temp buffers (allocated
once, 64-byte aligned, each the largest the builds ask): on the 2-core
VM the placement of an object's own buffers alone moved BERT at 7
tokens by 3-5% between two identical objects, more than the changes
measured. The arguments hold a fixed pattern in [-0.5, 0.5) (f32; f64
buffers get the same bytes, small finite numbers) or zeros (integers,
so that gathers stay in range).
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
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef int32_t (*entry_fn)(void **);

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

/* The entry SYMBOL of LIBRARY, "-" for the driver itself. */
static entry_fn load(const char *library, const char *symbol) {
  void *handle = dlopen(strcmp(library, "-") ? library : NULL, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    fprintf(stderr, "ab: %s\n", dlerror());
    exit(1);
  }
  entry_fn f = (entry_fn)dlsym(handle, symbol);
  if (!f) {
    fprintf(stderr, "ab: %s has no %s\n", library, symbol);
    exit(1);
  }
  return f;
}

static double call(entry_fn f, void **args, int gap_us) {
  if (gap_us) usleep(gap_us);
  double t = now();
  if (f(args)) {
    fprintf(stderr, "ab: the entry failed\n");
    exit(1);
  }
  return now() - t;
}

/* Build v's times over A's, call by call, sorted into ratio; how many
 * of them are below 1. */
static int ratios(const double *a, const double *v, size_t n, double *ratio) {
  int won = 0;
  for (size_t i = 0; i < n; i++) {
    ratio[i] = v[i] / a[i];
    won += ratio[i] < 1;
  }
  qsort(ratio, n, sizeof(double), cmp);
  return won;
}

/* usage: ab CALLS ROUNDS GAP_US LIBRARY SYMBOL [LIBRARY SYMBOL...] */
int main(int argc, char **argv) {
  int calls = atoi(argv[1]), rounds = atoi(argv[2]), gap_us = atoi(argv[3]);
  int builds = (argc - 4) / 2;
  size_t n = (size_t)calls * rounds;
  entry_fn *entry = malloc(sizeof(entry_fn) * builds);
  double **times = malloc(sizeof(double *) * builds), *ratio = malloc(sizeof(double) * n);
  if (!entry || !times || !ratio) abort();
  for (int v = 0; v < builds; v++) {
    entry[v] = load(argv[4 + 2 * v], argv[5 + 2 * v]);
    if (!(times[v] = malloc(sizeof(double) * n))) abort();
  }
  void *args[NBUF];
  for (int i = 0; i < NBUF; i++) args[i] = buffer(sizes[i], floats[i], i < NARGS ? OFFSET : 0);
  for (int w = 0; w < 2; w++)
    for (int v = 0; v < builds; v++) call(entry[v], args, 0);
  for (int q = 0; q < rounds; q++) {
    for (int i = 0; i < calls; i++) {
      size_t at = (size_t)q * calls + i;
      for (int k = 0; k < builds; k++) {
        int v = (i + k) % builds;
        times[v][at] = call(entry[v], args, gap_us);
      }
    }
    for (int v = 1; v < builds; v++) {
      size_t from = (size_t)q * calls;
      int won = ratios(times[0] + from, times[v] + from, calls, ratio);
      printf("round %d: %c/A paired median %.3f, %c faster in %d of %d\n", q + 1, 'A' + v,
             ratio[calls / 2], 'A' + v, won, calls);
    }
    fflush(stdout);
  }
  for (int v = 1; v < builds; v++) {
    int won = ratios(times[0], times[v], n, ratio);
    printf("all rounds: %c/A paired median %.3f, quartiles %.3f-%.3f, %c faster in %d of %zu\n",
           'A' + v, ratio[n / 2], ratio[n / 4], ratio[3 * n / 4], 'A' + v, won, n);
  }
  for (int v = 0; v < builds; v++) {
    qsort(times[v], n, sizeof(double), cmp);
    printf("%c: median %.3f ms, min %.3f\n", 'A' + v, times[v][n / 2] * 1e3, times[v][0] * 1e3);
  }
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


def parse_build(spec, threads):
    """SHLOC[:THREADS[:RUNTIME.a]] as (shloc, threads, runtime or None);
    THREADS, when left out or empty (SHLOC::RUNTIME.a), is --threads."""
    parts = spec.split(":", 2)
    shloc = parts[0]
    if len(parts) > 1 and parts[1]:
        threads = parts[1]
    if not threads.isdigit() or int(threads) < 1:
        sys.exit(__doc__)
    runtime = parts[2] if len(parts) > 2 else None
    for path in (shloc, runtime):
        if path is not None and not os.path.isfile(path):
            sys.exit(f"ab: no file {path}")
    return shloc, threads, runtime


def parse_args(argv):
    """(options, fifo, builds, model, shloc options) from the command line:
    the builds are the arguments before the first that ends in .mlir or
    .mlirbc, which is the model; all after it go to shloc."""
    opts = {"threads": "1", "calls": "100", "rounds": "3", "gap-ms": "0", "offset": "0"}
    fifo, specs, model, extra = False, [], None, []
    for a in argv:
        if model is not None:
            extra.append(a)
        elif a == "--fifo":
            fifo = True
        elif a.startswith("--") and "=" in a and a[2:a.index("=")] in opts:
            opts[a[2:a.index("=")]] = a[a.index("=") + 1:]
        elif a.startswith("-"):
            sys.exit(__doc__)
        elif a.endswith((".mlir", ".mlirbc")):
            model = a
        else:
            specs.append(a)
    numbers = ("calls", "rounds", "offset", "threads")
    if not re.fullmatch(r"\d+(\.\d*)?", opts["gap-ms"]):
        sys.exit(__doc__)
    if model is None or not 2 <= len(specs) <= 26 or not all(opts[k].isdigit() for k in numbers) or \
            int(opts["calls"]) < 1 or int(opts["rounds"]) < 1 or \
            not 0 <= int(opts["offset"]) < 64:
        sys.exit(__doc__)
    builds = [parse_build(s, opts["threads"]) for s in specs]
    return opts, fifo, builds, model, extra


def beside(shloc):
    """The runtime built with SHLOC: build/libshlort.a beside build/shloc."""
    return os.path.join(os.path.dirname(os.path.abspath(shloc)), "libshlort.a")


def runtimes(builds):
    """The runtime each build is linked with, and whether each build gets
    a library of its own: only when the builds agree on threads and name
    no runtime do they share the last build's (one thread pool)."""
    own = any(rt is not None for _, _, rt in builds) or len({t for _, t, _ in builds}) > 1
    chosen = [rt or beside(shloc) for shloc, _, rt in builds] if own else \
        [beside(builds[-1][0])] * len(builds)
    for runtime in chosen:
        if not os.path.isfile(runtime):
            sys.exit(f"ab: no runtime {runtime} (name one: SHLOC:THREADS:RUNTIME.a)")
    return chosen, own


def link(d, library, objects, runtime):
    """Links OBJECTS and RUNTIME into the shared library D/LIBRARY
    (-Bsymbolic: the objects call this runtime, never one loaded before)."""
    path = os.path.join(d, library)
    subprocess.run(["cc", "-shared", "-o", path] + objects +
                   [runtime, "-pthread", "-lm", "-Wl,-Bsymbolic"], check=True)
    return path


def link_builds(d, names, chosen, own):
    """Links the objects D/NAME.o with their runtimes CHOSEN: the inputs
    to link into the driver, and (library, entry symbol) for each build,
    library "-" standing for the driver (all objects in it unless OWN)."""
    objects = [os.path.join(d, name + ".o") for name in names]
    symbols = [name + "_main__packed" for name in names]
    if not own:
        return objects + [chosen[-1], "-rdynamic"], [("-", symbol) for symbol in symbols]
    return [], [(link(d, name + ".so", [obj], runtime), symbol)
                for name, obj, runtime, symbol in zip(names, objects, chosen, symbols)]


def main():
    opts, fifo, builds, model, extra = parse_args(sys.argv[1:])
    names = [f"ab_{chr(ord('a') + i)}" for i in range(len(builds))]
    chosen, own = runtimes(builds)
    for (shloc, threads, _), name, runtime in zip(builds, names, chosen):
        print(f"{name[3:].upper()} = {shloc}, {threads} thread(s), runtime {runtime}"
              f"{'' if own else ' (shared, in the driver)'}")
    sys.stdout.flush()
    with tempfile.TemporaryDirectory(prefix="shloc-ab-") as d:
        layout = []
        for (shloc, threads, _), name in zip(builds, names):
            subprocess.run([shloc, model, f"--threads={threads}", "--packed-entry",
                            f"--name={name}", "-o", os.path.join(d, name + ".o")] + extra,
                           check=True)
            layout.append(buffers(os.path.join(d, name + ".h"), name))
        if len({len(sizes) for sizes, _, _ in layout}) != 1:
            sys.exit("ab: the objects' entries take different buffers")
        sizes = [max(column) for column in zip(*(sizes for sizes, _, _ in layout))]
        src = DRIVER.replace("SIZES", ", ".join(str(s) for s in sizes))
        src = src.replace("FLOATS", ", ".join(str(f) for f in layout[-1][1]))
        src = src.replace("NARGS", str(layout[-1][2])).replace("OFFSET", opts["offset"])
        with open(os.path.join(d, "ab.c"), "w") as f:
            f.write(src)
        inputs, entries = link_builds(d, names, chosen, own)
        exe = os.path.join(d, "ab")
        subprocess.run(["cc", "-O2", "-Wall", "-o", exe, os.path.join(d, "ab.c")] + inputs +
                       ["-ldl", "-pthread", "-lm"], check=True)
        cmd = [exe, opts["calls"], opts["rounds"], str(int(float(opts["gap-ms"]) * 1000))]
        for library, symbol in entries:
            cmd += [library, symbol]
        if fifo:
            cmd = ["chrt", "-f", "10"] + cmd
        sys.exit(subprocess.run(cmd).returncode)


if __name__ == "__main__":
    main()
