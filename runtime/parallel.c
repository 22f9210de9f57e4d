/* parallel.c: shlort_parallel_for over the OpenMP runtime (libgomp).
 *
 * Compiled with -fopenmp; a program whose object calls this links with
 * -fopenmp (or -lgomp). The OpenMP pool keeps its threads between calls, so
 * a kernel pays a wake-up, not a thread creation. */
#include <omp.h>

#include "shlort.h"

/* Start of chunk t of nt over [0, n): the first n % nt chunks get one extra
 * element. Written without n * t so that it cannot overflow. */
static int64_t chunk_begin(int64_t n, int64_t nt, int64_t t) {
  int64_t base = n / nt, extra = n % nt;
  return t * base + (t < extra ? t : extra);
}

void shlort_parallel_for(shlort_range_fn fn, void *ctx, int64_t n,
                         int32_t nthreads) {
  if (n <= 0) return;
  /* Nested regions would oversubscribe the cores the outer one uses. */
  if (nthreads <= 1 || n <= 1 || omp_in_parallel()) {
    fn(ctx, 0, n, 0);
    return;
  }
  int nt = nthreads < n ? nthreads : (int)n;
#pragma omp parallel num_threads(nt)
  {
    /* The pool may grant fewer threads than asked: split by what we got. */
    int64_t got = omp_get_num_threads(), t = omp_get_thread_num();
    int64_t begin = chunk_begin(n, got, t), end = chunk_begin(n, got, t + 1);
    if (begin < end) fn(ctx, begin, end, (int32_t)t);
  }
}
