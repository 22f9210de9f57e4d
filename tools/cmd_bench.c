/* cmd_bench.c: `shloc bench FILE.mlir`: compile one entry, run it on
 * deterministic random inputs, report latency, bandwidth and FLOP rate.
 * Timings are printed, never asserted. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../runtime/shlort.h"
#include "tools.h"

enum { WARMUP_RUNS = 3, MIN_ITERATIONS = 5, MAX_ITERATIONS = 1000000 };

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Allocates every argument (random) and result of f; the byte total of all. */
static int alloc_buffers(Module *m, const Func *f, Tensor *in, Tensor *out, double *bytes) {
  uint64_t seed = 0x5eed5eed12345678ull;
  *bytes = 0;
  for (int i = 0; i < f->body->nargs + f->nresults; i++) {
    bool is_arg = i < f->body->nargs;
    const Type *ty = is_arg ? f->body->args[i]->type : f->result_types[i - f->body->nargs];
    Tensor *t = is_arg ? &in[i] : &out[i - f->body->nargs];
    if (!type_is_tensor(ty) || !type_is_static(ty)) {
      diag_error(TOOL_NOLOC, "%s %d has type %s: bench needs static tensors",
                 is_arg ? "argument" : "result", is_arg ? i : i - f->body->nargs,
                 type_str(&m->arena, ty));
      return -1;
    }
    if (tensor_alloc_type(t, ty)) return -1;
    if (is_arg) tensor_fill_random(t, &seed);
    *bytes += (double)t->bytes;
  }
  return 0;
}

static int call_checked(Program *p, void **args, void **res) {
  int32_t rc = program_call(p, args, res);
  if (rc) diag_error(TOOL_NOLOC, "@%s returned %d", p->entry->name, (int)rc);
  return rc ? -1 : 0;
}

/* Times n calls; fills times[] (seconds) sorted. */
static int time_calls(Program *p, void **args, void **res, double *times, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    double t0 = now_s();
    int32_t rc = program_call(p, args, res);
    times[i] = now_s() - t0;
    if (rc) return call_checked(p, args, res);
  }
  qsort(times, (size_t)n, sizeof *times, cmp_double);
  return 0;
}

static void report(const ToolOptions *t, const Func *f, const double *times, int64_t n,
                   double bytes, double flops) {
  double median = times[n / 2], min = times[0];
  printf("bench %s @%s: -O%d, %d thread%s, %lld iterations\n", t->files[0], f->name,
         t->co.opt_level, t->co.threads, t->co.threads == 1 ? "" : "s", (long long)n);
  printf("  latency    median %.3f ms, min %.3f ms\n", median * 1e3, min * 1e3);
  /* Rates at the median and at the best run: on a shared machine the best
   * run is the one to set beside best-of anchors. */
  printf("  bandwidth  %.2f GB/s median, %.2f GB/s best (%.0f bytes of arguments and results)\n",
         bytes / median * 1e-9, bytes / min * 1e-9, bytes);
  if (flops > 0)
    printf("  compute    %.2f GFLOP/s median, %.2f GFLOP/s best (%.4g GFLOP per call)\n",
           flops / median * 1e-9, flops / min * 1e-9, flops * 1e-9);
}

static int bench_entry(ToolOptions *t, Module *m, Func *f, Tensor *in, Tensor *out) {
  bool specialized = t->co.input_shapes || t->co.ndims;
  bool unknown = false; /* an argument's `?` size only a call would bind */
  for (int i = 0; i < f->body->nargs; i++) unknown |= !type_is_static(f->body->args[i]->type);
  if (!specialized && unknown) {
    diag_error(TOOL_NOLOC, "@%s has `?` sizes: bench it at a size with --input-shapes (or --dim)",
               f->name);
    return -1;
  }
  double bytes, flops = specialized ? 0 : flops_count(m, f); /* on the module as parsed */
  Program p;
  if (program_build(&p, m, f, &t->co)) return -1;
  /* After compiling: --input-shapes made the argument types static. */
  int nargs = p.entry->body->nargs, nres = p.entry->nresults;
  if (specialized) flops = flops_count(m, p.entry);
  if (alloc_buffers(m, p.entry, in, out, &bytes)) {
    program_free(&p);
    return -1;
  }
  void **args = calloc((size_t)nargs + 1, sizeof(void *));
  void **res = calloc((size_t)nres + 1, sizeof(void *));
  for (int i = 0; i < nargs; i++) args[i] = in[i].data;
  for (int i = 0; i < nres; i++) res[i] = out[i].data;
  int rc = 0;
  double t0 = now_s();
  for (int i = 0; i < WARMUP_RUNS && !rc; i++) rc = call_checked(&p, args, res);
  int64_t n = t->iterations;
  if (!n) { /* enough for about one second, from the warm-up speed */
    double per = (now_s() - t0) / WARMUP_RUNS;
    n = per > 0 ? (int64_t)(1.0 / per) : MAX_ITERATIONS;
    n = n < MIN_ITERATIONS ? MIN_ITERATIONS : n > MAX_ITERATIONS ? MAX_ITERATIONS : n;
  }
  double *times = malloc(sizeof(double) * (size_t)n);
  if (!rc) rc = time_calls(&p, args, res, times, n);
  if (!rc) report(t, p.entry, times, n, bytes, flops);
  free(times);
  free(args);
  free(res);
  program_free(&p);
  return rc;
}

int cmd_bench(ToolOptions *t) { return program_with_entry(t, bench_entry); }
