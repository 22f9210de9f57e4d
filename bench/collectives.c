/* collectives.c: all_reduce over threads (libshlort.a) beside its anchor,
 * memcpy of the same number of bytes, measured in the same run with the
 * same warm-up and sample count. For each size from 4 KiB to 64 MiB: the
 * best time of an f32 sum all_reduce over P processes (threads), its
 * bandwidth (bytes / time) and the ratio to memcpy's bandwidth; then the
 * latency of a 4-byte all_reduce.
 *
 *   collectives [P]     P processes (default: the online CPUs, 2 to 8)
 *
 * Prints `name value unit` lines (bench/run.sh). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "shlort.h"

enum { SAMPLES = 7, WARMUP = 2, MAXP = 8 };

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* At least ~20 ms of work per sample, and 3 to 20000 repetitions. */
static int repetitions(size_t bytes) {
  size_t r = ((size_t)128 << 20) / (bytes ? bytes : 1);
  return r < 3 ? 3 : r > 20000 ? 20000 : (int)r;
}

static void add_f32(void *ctx, void *acc, const void *x, int64_t n) {
  (void)ctx;
  float *a = acc;
  const float *b = x;
  for (int64_t i = 0; i < n; i++) a[i] += b[i];
}

typedef struct Proc {
  float *in, *out;
  int64_t n;
  int reps;
  double seconds; /* process 0: the timed repetitions */
} Proc;

static int32_t entry(void *arg, shlort_proc *p) {
  static const shlort_op op = {"stablehlo.all_reduce", "bench"};
  static const shlort_groups all = {NULL, 0, 0, 0, 0};
  Proc *me = arg;
  int64_t dims[1] = {me->n};
  shlort_tensor in = {me->in, dims, 1, SHLORT_F32}, out = {me->out, dims, 1, SHLORT_F32};
  int32_t rc = SHLORT_OK;
  for (int w = 0; w < WARMUP && !rc; w++)
    rc = shlort_all_reduce(p, &op, &all, 1, &in, &out, add_f32, NULL);
  double t0 = now();
  for (int r = 0; r < me->reps && !rc; r++)
    rc = shlort_all_reduce(p, &op, &all, 1, &in, &out, add_f32, NULL);
  me->seconds = now() - t0;
  return rc;
}

/* Best time of one all_reduce of n floats over the grid's processes. */
static double time_all_reduce(shlort_grid *g, int procs, Proc *pr, int64_t n) {
  shlort_task tasks[MAXP];
  double best = 1e30;
  for (int i = 0; i < procs; i++) {
    pr[i].n = n;
    pr[i].reps = repetitions((size_t)n * 4);
    tasks[i] = (shlort_task){.entry = entry, .arg = &pr[i]};
  }
  for (int s = 0; s < SAMPLES; s++) {
    if (shlort_grid_run(g, tasks)) {
      fprintf(stderr, "%s\n", shlort_grid_message(g));
      exit(1);
    }
    double t = pr[0].seconds / pr[0].reps;
    if (t < best) best = t;
  }
  return best;
}

static double time_memcpy(void *dst, const void *src, size_t bytes) {
  int reps = repetitions(bytes);
  double best = 1e30;
  for (int w = 0; w < WARMUP; w++) memcpy(dst, src, bytes);
  for (int s = 0; s < SAMPLES; s++) {
    double t0 = now();
    for (int r = 0; r < reps; r++) {
      memcpy(dst, src, bytes);
      __asm__ volatile("" : : "r"(dst) : "memory"); /* keep every copy */
    }
    double t = (now() - t0) / reps;
    if (t < best) best = t;
  }
  return best;
}

static float *floats(int64_t n) {
  float *p = aligned_alloc(64, (size_t)n * 4);
  for (int64_t i = 0; i < n; i++) p[i] = (float)(i % 1000) * 0.001f;
  return p;
}

int main(int argc, char **argv) {
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  int procs = argc > 1 ? atoi(argv[1]) : (int)(cpus < 2 ? 2 : cpus > MAXP ? MAXP : cpus);
  if (procs < 1 || procs > MAXP) return fprintf(stderr, "P in 1..%d\n", MAXP), 2;
  const int64_t max_n = (64 << 20) / 4;
  shlort_grid_config cfg = {(uint32_t)procs, 1, 0, 0, 0};
  size_t bytes = shlort_grid_bytes(&cfg);
  void *mem = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
  shlort_grid *g;
  if (shlort_grid_init(&g, mem, bytes, &cfg)) return 1;
  Proc pr[MAXP];
  for (int i = 0; i < procs; i++) pr[i] = (Proc){floats(max_n), floats(max_n), 0, 0, 0};
  float *src = floats(max_n), *dst = floats(max_n);
  printf("# all_reduce (f32 sum) over %d threads vs memcpy, best of %d\n", procs, SAMPLES);
  for (int64_t size = 4096; size <= max_n * 4; size *= 4) {
    double t = time_all_reduce(g, procs, pr, size / 4), tm = time_memcpy(dst, src, (size_t)size);
    printf("all_reduce_threads_%lldB %.3f GB/s (%.1f us) memcpy %.3f GB/s ratio %.2f\n",
           (long long)size, size / t / 1e9, t * 1e6, size / tm / 1e9, tm / t);
  }
  double lat = time_all_reduce(g, procs, pr, 1);
  printf("all_reduce_threads_4B_latency %.2f us\n", lat * 1e6);
  shlort_grid_destroy(g);
  return 0;
}
