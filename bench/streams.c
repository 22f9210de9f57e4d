/* How fast one or two threads read a model's weights, by the number of
 * streams each keeps and the software prefetch distance (issue 6: BERT at
 * 7 tokens against its bandwidth floor). Not used by the compiler.
 *
 * The buffer is BERT-base's 72 weight matrices (12 layers of 4 x 768 x 768
 * and 768 x 3072, 3072 x 768 f32: 340 MB), each its own allocation. Each
 * matrix is one parallel loop as a K-split product is: thread t reads its
 * contiguous part, split in S parts advanced together (S streams, C bytes
 * of each in turn: 256, a packed panel's row, or 4096, a block of 16 such
 * rows), each 64-byte line loaded once as one vector, prefetched D bytes
 * ahead into L2 (D = 0: none), and fed to FMAs: M = 1 (a decoding step's
 * GEMV: one FMA a vector) or M = 7 (BERT at 7 tokens: 7 FMAs a vector,
 * one per row of A). C = -1 and -2 read in the skinny kernels' own orders
 * instead (read_rows: the in-place path's blocks of 16 rows, the dots
 * path's old blocks of 8 rows side by side). Beside them the triad of
 * anchors.c (3 x 64 MB, a = b + 3 c, OpenMP static, 12 bytes an element
 * as STREAM counts: with the write's line first read, it moves 16), once
 * a round.
 *
 * cc -O3 -march=native -fopenmp bench/streams.c -o /tmp/streams
 * OMP_PROC_BIND=true OMP_NUM_THREADS=2 /tmp/streams [rounds] [hugepages]
 * Prints, per configuration, the best and median GB/s over the rounds
 * (configurations interleaved in each round). Run it under the timing
 * lock (flock /work/bench.lock chrt -f 10 ...).
 *
 * What it showed (the loaded 2-core Zen 4, 4 KiB pages, 11-15 rounds, best
 * GB/s at 1 and 2 threads; the triad 23-25 and 42-46 in the same runs,
 * counted as STREAM does, so 31-33 and 56-61 of traffic):
 * M = 1, one stream 22-23 and 39-42, 4-16 streams 1 KiB ahead 28-30 and
 * 52-54, the in-place and old dots orders 22-23 and 42-44; M = 7, one
 * stream 24-26 and 45-48, 2-4 streams in 4 KiB turns 29-30 and 53-56.
 * Of those, only the dots path's streams carried over to the kernels
 * (gemm.c); two packed panels in 4 KiB turns (M = 7) and 1-2 KiB ahead in
 * the in-place path were slower in BERT at 7 tokens. Huge pages (madvise)
 * changed little. */
#include <immintrin.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

enum { LAYERS = 12, MATS = LAYERS * 6, TRIAD_N = 1 << 24, MAXR = 64 };
static float *mat[MATS];
static size_t mat_bytes[MATS];
static size_t total_bytes;

static void *alloc(size_t bytes, int huge) {
  void *p = aligned_alloc(2 << 20, (bytes + (2 << 20) - 1) / (2 << 20) * (2 << 20));
  if (!p) abort();
  madvise(p, bytes, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
  for (size_t i = 0; i < bytes / 4; i++) ((float *)p)[i] = (float)(i % 1000) * 1e-3f;
  return p;
}

/* The FMAs of a read: M = 1 or 7 rows of A (x) against each vector, into
 * 7 accumulators (M = 1: the one of slot j). */
typedef struct Acc {
  __m512 acc[7], x[7];
} Acc;

static inline __attribute__((always_inline)) void acc_init(Acc *a) {
  for (int r = 0; r < 7; r++) a->acc[r] = _mm512_setzero_ps(), a->x[r] = _mm512_set1_ps(0.5f + r);
}

static inline __attribute__((always_inline)) void acc_fma(Acc *a, __m512 v, int M, int j) {
  if (M == 1)
    a->acc[j] = _mm512_fmadd_ps(a->x[0], v, a->acc[j]);
  else
#pragma GCC unroll 7
    for (int r = 0; r < 7; r++) a->acc[r] = _mm512_fmadd_ps(a->x[r], v, a->acc[r]);
}

static inline __attribute__((always_inline)) float acc_sum(const Acc *a) {
  __m512 t = a->acc[0];
  for (int i = 1; i < 7; i++) t = _mm512_add_ps(t, a->acc[i]);
  return _mm512_reduce_add_ps(t);
}

/* Sums of [p, p + lines * 64) read as S streams, chunk bytes of each in
 * turn, 256 bytes (4 vectors, a packed panel's row) a step, prefetching
 * dist bytes ahead. S and M are constants where it is inlined (read_s),
 * so that the accumulators stay in registers. */
static inline __attribute__((always_inline)) float read_part(const char *p, size_t lines,
                                                             int S, int dist, int M,
                                                             int chunk) {
  Acc a;
  acc_init(&a);
  size_t step = chunk / 64, per = lines / step / S * step;
  for (size_t i0 = 0; i0 < per; i0 += step)
#pragma GCC unroll 16
    for (int s = 0; s < S; s++)
      for (size_t i = i0; i < i0 + step; i += 4) {
        const char *q = p + (s * per + i) * 64;
#pragma GCC unroll 4
        for (int j = 0; dist && j < 4; j++) _mm_prefetch(q + dist + 64 * j, _MM_HINT_T1);
#pragma GCC unroll 4
        for (int j = 0; j < 4; j++) acc_fma(&a, _mm512_load_ps((const float *)(q + 64 * j)), M, j);
      }
  for (size_t i = per * S; i < lines; i++)
    a.acc[0] = _mm512_add_ps(a.acc[0], _mm512_load_ps((const float *)(p + i * 64)));
  return acc_sum(&a);
}

static float read_s(const char *p, size_t lines, int S, int dist, int M, int chunk) {
#define CASE(s)                                                                      \
  case s:                                                                            \
    return M == 1 ? read_part(p, lines, s, dist, 1, chunk) : read_part(p, lines, s, dist, 7, chunk);
  switch (S) {
    CASE(1) CASE(2) CASE(4) CASE(8) CASE(16)
  }
#undef CASE
  abort();
}

/* The skinny kernels' own orders over the rows of rowb bytes at p
 * (rows of them): blocks of 16 rows read a line of each row in turn along
 * the rows (the in-place path, B along N, dist bytes ahead along the row
 * or into the next block), or blocks of 8 rows read a line of each in
 * turn along them, the same lines of the next block's rows prefetched
 * (the dots path's old order, B along K). */
static inline __attribute__((always_inline)) float read_rows(const char *p, size_t rows,
                                                             size_t rowb, int dist, int M,
                                                             int dots) {
  Acc a;
  acc_init(&a);
  int kb = dots ? 8 : 16;
  for (size_t k0 = 0; k0 + kb <= rows; k0 += kb)
    for (size_t j = 0; j < rowb; j += 64)
#pragma GCC unroll 16
      for (int r = 0; r < kb; r++) {
        const char *q = p + (k0 + r) * rowb + j;
        if (dots)
          _mm_prefetch(q + kb * rowb, _MM_HINT_T1);
        else if (dist)
          _mm_prefetch(j + dist < rowb ? q + dist : q + kb * rowb + dist - rowb, _MM_HINT_T1);
        acc_fma(&a, _mm512_load_ps((const float *)q), M, r & 3);
      }
  return acc_sum(&a);
}

static volatile float sink;

/* One pass over the 72 matrices, each split between the threads. */
static double pass(int S, int dist, int M, int chunk) {
  double t0 = now();
  for (int m = 0; m < MATS; m++) {
    const char *p = (const char *)mat[m];
    size_t lines = mat_bytes[m] / 64, rowb = chunk < 0 && m % 6 == 4 && chunk == -1 ? 12288 : 3072;
#pragma omp parallel
    {
      int n = omp_get_num_threads(), t = omp_get_thread_num();
      size_t lo = lines * t / n, hi = lines * (t + 1) / n, rows = mat_bytes[m] / rowb;
      size_t r0 = rows * t / n, r1 = rows * (t + 1) / n;
      float s = chunk >= 0   ? read_s(p + lo * 64, hi - lo, S, dist, M, chunk)
                : M == 1 ? read_rows(p + r0 * rowb, r1 - r0, rowb, dist, 1, chunk == -2)
                         : read_rows(p + r0 * rowb, r1 - r0, rowb, dist, 7, chunk == -2);
      if (s == 12345.0f) sink = s;
    }
  }
  return total_bytes / (now() - t0) / 1e9;
}

static float *ta, *tb, *tc;
static double triad(void) {
  double t0 = now();
#pragma omp parallel for schedule(static)
  for (long i = 0; i < TRIAD_N; i++) ta[i] = tb[i] + 3.0f * tc[i];
  return 3.0 * TRIAD_N * 4 / (now() - t0) / 1e9;
}

static int cmpd(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

typedef struct Cfg {
  int S, dist, M, chunk;
  double gbs[MAXR];
} Cfg;

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 5, huge = argc > 2 ? atoi(argv[2]) : 0;
  if (rounds > MAXR) rounds = MAXR;
  for (int l = 0; l < LAYERS; l++)
    for (int k = 0; k < 6; k++) {
      size_t b = (k < 4 ? 768 * 768 : 768 * 3072) * sizeof(float);
      mat[l * 6 + k] = alloc(b, huge);
      mat_bytes[l * 6 + k] = b;
      total_bytes += b;
    }
  ta = alloc(TRIAD_N * 4, huge), tb = alloc(TRIAD_N * 4, huge), tc = alloc(TRIAD_N * 4, huge);
  static const int Ss[] = {1, 2, 4, 8, 16}, Ds[] = {0, 512, 1024}, Ms[] = {1, 7};
  Cfg cfg[80];
  _Static_assert(2 * 5 * 3 * 2 + 6 <= 80, "configurations");
  int nc = 0;
  for (int a = 0; a < 2; a++) {
    cfg[nc++] = (Cfg){.S = 16, .dist = 512, .M = Ms[a], .chunk = -1};
    cfg[nc++] = (Cfg){.S = 16, .dist = 1024, .M = Ms[a], .chunk = -1};
    cfg[nc++] = (Cfg){.S = 8, .dist = 0, .M = Ms[a], .chunk = -2};
  }
  for (int a = 0; a < 2; a++)
    for (int b = 0; b < 5; b++)
      for (int c = 0; c < 3; c++)
        for (int k = 0; k < 2; k++)
          cfg[nc++] = (Cfg){.S = Ss[b], .dist = Ds[c], .M = Ms[a], .chunk = k ? 4096 : 256};
  double tri[MAXR];
  pass(1, 0, 1, 256); /* warm: page tables */
  for (int r = 0; r < rounds; r++) {
    tri[r] = triad();
    for (int i = 0; i < nc; i++) cfg[i].gbs[r] = pass(cfg[i].S, cfg[i].dist, cfg[i].M, cfg[i].chunk);
  }
  printf("threads %d, %.0f MB, %s pages, %d rounds (best / median GB/s)\n",
         omp_get_max_threads(), total_bytes / 1e6, huge ? "huge" : "4K", rounds);
  qsort(tri, rounds, sizeof *tri, cmpd);
  printf("triad                   %6.1f / %6.1f\n", tri[rounds - 1], tri[rounds / 2]);
  for (int i = 0; i < nc; i++) {
    qsort(cfg[i].gbs, rounds, sizeof(double), cmpd);
    printf("M=%d S=%-2d D=%-4d C=%-4d %6.1f / %6.1f\n", cfg[i].M, cfg[i].S, cfg[i].dist, cfg[i].chunk,
           cfg[i].gbs[rounds - 1], cfg[i].gbs[rounds / 2]);
  }
  return 0;
}
