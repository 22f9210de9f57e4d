/* cmd_bench.c: `shloc bench FILE.mlir`: compile one entry, run it on
 * deterministic random inputs, report latency, bandwidth and FLOP rate.
 * Timings are printed, never asserted. */
#include <math.h>
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

static void report(const ToolOptions *t, const Func *f, const char *what, const double *times,
                   int64_t n, double bytes, double flops) {
  double median = times[n / 2], min = times[0];
  printf("bench %s @%s%s: -O%d, %d thread%s, %lld iterations\n", t->files[0], f->name, what,
         t->co.opt_level, t->co.threads, t->co.threads == 1 ? "" : "s", (long long)n);
  printf("  latency    median %.4g ms, min %.4g ms\n", median * 1e3, min * 1e3);
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
  if (!rc) report(t, p.entry, "", times, n, bytes, flops);
  free(times);
  free(args);
  free(res);
  program_free(&p);
  return rc;
}

/* ------------------------------------------------------------------------ */
/* --symbolic: the symbolic entry beside the specialized one                  */

/* The specialized program (--input-shapes) and the symbolic one, compiled
 * from two loads of the file, their calls on the same inputs. */
typedef struct Pair {
  Program spec, sym;
  Module *m2;
  SymCall call;
  Tensor *out2;
  void **args, **res;
} Pair;

static int pair_build(ToolOptions *t, Module *m, Func *f, Tensor *in, Tensor *out, Pair *q,
                      double *bytes) {
  if (program_build(&q->spec, m, f, &t->co)) return -1;
  if (alloc_buffers(m, q->spec.entry, in, out, bytes)) return -1;
  q->m2 = driver_load(t->files[0], &t->po);
  Func *f2 = q->m2 ? driver_find_entry(q->m2, t->co.entry) : NULL;
  if (!f2) return -1;
  CompileOptions co = t->co;
  co.input_shapes = NULL;
  co.ndims = 0;
  if (program_build(&q->sym, q->m2, f2, &co)) return -1;
  int nargs = q->spec.entry->body->nargs, nres = q->spec.entry->nresults;
  if (!q->sym.entry->sym || q->sym.entry->body->nargs != nargs) {
    diag_error(TOOL_NOLOC, "--symbolic: @%s has no symbolic sizes, or dimension arguments "
               "(the specialized entry drops them)", f2->name);
    return -1;
  }
  q->out2 = calloc((size_t)nres + 1, sizeof *q->out2);
  q->args = calloc((size_t)nargs + 1, sizeof(void *));
  q->res = calloc((size_t)nres + 1, sizeof(void *));
  for (int i = 0; i < nargs; i++) q->args[i] = in[i].data;
  for (int i = 0; i < nres; i++) q->res[i] = out[i].data;
  char msg[1024] = "";
  int32_t st = program_prepare_inputs(&q->sym, in, q->out2, &q->call, msg, sizeof msg);
  if (st > 0) diag_error(TOOL_NOLOC, "the symbolic @%s rejects these sizes: %s", f2->name, msg);
  return st ? -1 : 0;
}

static void pair_free(Pair *q, int nres) {
  program_call_free(&q->call);
  for (int i = 0; q->out2 && i < nres; i++) tensor_free(&q->out2[i]);
  free(q->out2);
  free(q->args);
  free(q->res);
  program_free(&q->spec);
  program_free(&q->sym);
  if (q->m2) ir_module_free(q->m2);
}

/* 1e-3, plus 1e-5 of the largest finite magnitude of an f32 or f64
 * result: sums taken in another order differ by their rounding. */
static double tolerance_of(const Tensor *t) {
  double big = 0;
  for (int64_t i = 0; i < tensor_num_elems(t); i++) {
    double v = t->elem == ET_F32 ? ((const float *)t->data)[i]
               : t->elem == ET_F64 ? ((const double *)t->data)[i] : 0;
    if (isfinite(v) && fabs(v) > big) big = fabs(v);
  }
  return 1e-3 + 1e-5 * big;
}

/* Whether the two programs' results agree (a benchmark of a wrong
 * program would mean nothing). */
static int pair_agree(Pair *q, const Tensor *out, int nres) {
  for (int i = 0; i < nres; i++) {
    int64_t n = tensor_num_elems(&out[i]);
    shlort_check_reset();
    if (out[i].elem == q->out2[i].elem && n == tensor_num_elems(&q->out2[i]) &&
        !shlort_check_almost_eq(out[i].elem, out[i].data, q->out2[i].data, n,
                                tolerance_of(&out[i])))
      continue;
    diag_error(TOOL_NOLOC, "result %d: specialized and symbolic differ: %s", i,
               shlort_check_last_failure());
    return -1;
  }
  return 0;
}

/* n calls of each, alternating, so that both see the same machine. */
static int time_pair(Pair *q, double *ts, double *tq, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    double t0 = now_s();
    int32_t rc = program_call(&q->spec, q->args, q->res);
    double t1 = now_s();
    rc |= program_call_prepared(&q->sym, &q->call);
    ts[i] = t1 - t0;
    tq[i] = now_s() - t1;
    if (rc) {
      diag_error(TOOL_NOLOC, "a call returned non-zero");
      return -1;
    }
  }
  qsort(ts, (size_t)n, sizeof *ts, cmp_double);
  qsort(tq, (size_t)n, sizeof *tq, cmp_double);
  return 0;
}

static int bench_symbolic(ToolOptions *t, Module *m, Func *f, Tensor *in, Tensor *out) {
  if (!t->co.input_shapes && !t->co.ndims) {
    diag_error(TOOL_NOLOC, "bench --symbolic: give the sizes with --input-shapes or --dim");
    return -1;
  }
  Pair q = {0};
  double bytes = 0;
  int nres = f->nresults;
  int rc = pair_build(t, m, f, in, out, &q, &bytes);
  for (int i = 0; i < WARMUP_RUNS && !rc; i++)
    rc = program_call(&q.spec, q.args, q.res) | program_call_prepared(&q.sym, &q.call);
  if (!rc) rc = pair_agree(&q, out, nres);
  int64_t n = t->iterations ? t->iterations : 200;
  double *ts = malloc(sizeof(double) * (size_t)n), *tq = malloc(sizeof(double) * (size_t)n);
  if (!rc) rc = time_pair(&q, ts, tq, n);
  if (!rc) {
    double flops = flops_count(m, q.spec.entry);
    report(t, q.spec.entry, " (specialized)", ts, n, bytes, flops);
    report(t, q.spec.entry, " (symbolic)", tq, n, bytes, flops);
    printf("  symbolic / specialized: %.3f median, %.3f best\n", tq[n / 2] / ts[n / 2],
           tq[0] / ts[0]);
  }
  free(ts);
  free(tq);
  pair_free(&q, nres);
  return rc ? -1 : 0;
}

static int bench_body(ToolOptions *t, Module *m, Func *f, Tensor *in, Tensor *out) {
  return t->symbolic ? bench_symbolic(t, m, f, in, out) : bench_entry(t, m, f, in, out);
}

int cmd_bench(ToolOptions *t) { return program_with_entry(t, bench_body); }
