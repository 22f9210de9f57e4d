/* Same-run anchors for the benchmarks: a STREAM-style triad (memory
 * bandwidth), the single-core FMA peak, and SGEMM 1024^3 from OpenBLAS and
 * oneDNN. Used only here: never by the compiler or the generated code.
 * Prints `name value unit` lines for bench/run.sh. Built with -fopenmp the
 * triad runs on OMP_NUM_THREADS threads; bench/compare.py also loads this
 * file as a shared library and calls anchors_triad_gbs between rounds. */
#include <cblas.h>
#include <dnnl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

/* Best of `reps` timings of fn(ctx). */
static double best_time(void (*fn)(void *), void *ctx, int reps) {
  double best = 1e30;
  for (int r = 0; r < reps; r++) {
    double t0 = now();
    fn(ctx);
    double t = now() - t0;
    if (t < best) best = t;
  }
  return best;
}

enum { N = 1 << 24 };
typedef struct Triad {
  float *a, *b, *c;
} Triad;

static void triad(void *p) {
  Triad *t = p;
#pragma omp parallel for schedule(static)
  for (long i = 0; i < N; i++) t->a[i] = t->b[i] + 3.0f * t->c[i];
}

/* The widest vector the build targets: 16 floats with AVX-512, else 8
 * (AVX2 + FMA). GCC's vector extension contracts a * x + y to one FMA. */
#ifdef __AVX512F__
enum { LANES = 16 };
#else
enum { LANES = 8 };
#endif
typedef float vfloat __attribute__((vector_size(LANES * sizeof(float))));

/* 12 independent FMA chains of LANES floats: enough to cover the latency
 * of two FMA ports, and within 16 vector registers. */
static void fma_peak(void *p) {
  vfloat acc[12];
  vfloat x, y;
  for (int l = 0; l < LANES; l++) x[l] = 1.0000001f, y[l] = 0.9999999f;
  for (int i = 0; i < 12; i++)
    for (int l = 0; l < LANES; l++) acc[i][l] = (float)i;
  for (long it = 0; it < 20000000; it++)
    for (int i = 0; i < 12; i++) acc[i] = acc[i] * x + y;
  float s = 0;
  for (int i = 0; i < 12; i++)
    for (int l = 0; l < LANES; l++) s += acc[i][l];
  *(float *)p = s;
}

typedef struct Gemm {
  float *a, *b, *c;
  int n;
} Gemm;

static void gemm_openblas(void *p) {
  Gemm *g = p;
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, g->n, g->n, g->n, 1.0f, g->a,
              g->n, g->b, g->n, 0.0f, g->c, g->n);
}

static void gemm_onednn(void *p) {
  Gemm *g = p;
  dnnl_sgemm('N', 'N', g->n, g->n, g->n, 1.0f, g->a, g->n, g->b, g->n, 0.0f, g->c, g->n);
}

static float *randoms(long n) {
  float *p = aligned_alloc(64, (size_t)n * sizeof(float));
  for (long i = 0; i < n; i++) p[i] = (float)rand() / RAND_MAX - 0.5f;
  return p;
}

/* Best-of-reps triad bandwidth in GB/s (bytes read and written / time),
 * on the OpenMP threads of the caller's setting. */
double anchors_triad_gbs(int reps) {
  Triad t = {randoms(N), randoms(N), randoms(N)};
  double tt = best_time(triad, &t, reps);
  free(t.a);
  free(t.b);
  free(t.c);
  return 3.0 * N * sizeof(float) / tt / 1e9;
}

int main(void) {
  printf("triad_16M_f32 %.2f GB/s\n", anchors_triad_gbs(10));

  float sink;
  double tf = best_time(fma_peak, &sink, 3);
  printf("fma_peak_1core %.1f GFLOP/s\n", 20000000.0 * 12 * LANES * 2 / tf / 1e9);

  Gemm g = {randoms(1 << 20), randoms(1 << 20), randoms(1 << 20), 1024};
  double flops = 2.0 * 1024 * 1024 * 1024;
  gemm_openblas(&g);
  printf("sgemm_1024_openblas %.1f GFLOP/s\n", flops / best_time(gemm_openblas, &g, 5) / 1e9);
  gemm_onednn(&g);
  printf("sgemm_1024_onednn %.1f GFLOP/s\n", flops / best_time(gemm_onednn, &g, 5) / 1e9);
  return 0;
}
