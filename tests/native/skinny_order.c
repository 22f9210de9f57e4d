/* skinny_order.c: the skinny products of skinny_order.mlir with the
 * weights 0 or 16 bytes past a page and the results at offsets from a
 * page that put them just past the weights modulo the rows' period (the
 * strips then run from the last column: codegen/gemm.c, skinny_reverse)
 * or elsewhere (from the first), and, for the last two, at other offsets
 * within a line than the weights (the kernel then computes in its scratch
 * and copies: skinny_stage_at; with two threads the fifth is split along
 * K). Compiled for one thread (so1) and two (so2). The data are small
 * integers, so every sum is exact: each result must equal plain C's.
 * Prints `N passed, N failed`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "product.h"
#include "so1.h"
#include "so2.h"
#include "tally.h"

enum { CASES = 6, PAGE = 4096 };
static const int M[CASES] = {7, 2, 1, 3, 4, 3}, K[CASES] = {19, 33, 17, 21, 260, 40},
                 N[CASES] = {1024, 256, 1024, 512, 300, 384}, F64[CASES] = {0, 0, 0, 1, 0, 0},
                 BATCH[CASES] = {1, 1, 1, 1, 1, 2};

typedef int (*Entry)(const float *, const float *, const float *, const float *, const float *,
                     const float *, const double *, const double *, const float *,
                     const float *, const float *, const float *, float *, float *, float *,
                     double *, float *, float *, void *);

static unsigned char *page_buf(size_t bytes) {
  unsigned char *p = aligned_alloc(PAGE, (bytes + 2 * PAGE - 1) / PAGE * PAGE);
  if (!p) abort();
  return p;
}

/* Element i of case c's buffer p (f32 or f64) set to v. */
static void put(int c, void *p, long i, double v) {
  if (F64[c])
    ((double *)p)[i] = v;
  else
    ((float *)p)[i] = (float)v;
}

/* Calls fn with the weights `woff` bytes past a page and the results
 * `roff` past one; 1 when every result equals plain C's. */
static int check(Entry fn, size_t temp_bytes, int woff, int roff) {
  unsigned char *xb[CASES], *wb[CASES], *rb[CASES];
  void *x[CASES], *w[CASES], *r[CASES];
  for (int c = 0; c < CASES; c++) {
    size_t eb = F64[c] ? 8 : 4;
    long mk = (long)M[c] * K[c], kn = (long)K[c] * N[c], mn = (long)M[c] * N[c];
    xb[c] = page_buf(BATCH[c] * mk * eb);
    wb[c] = page_buf(BATCH[c] * kn * eb);
    rb[c] = page_buf(BATCH[c] * mn * eb);
    x[c] = xb[c];
    w[c] = wb[c] + woff;
    r[c] = rb[c] + roff;
    for (long i = 0; i < BATCH[c] * mk; i++) put(c, x[c], i, (double)((i * 7 + c) % 7 - 3));
    for (long i = 0; i < BATCH[c] * kn; i++) put(c, w[c], i, (double)((i * 5 + c) % 9 - 4));
    memset(r[c], 0xA5, BATCH[c] * mn * eb);
  }
  void *temp = aligned_alloc(64, temp_bytes ? temp_bytes : 64);
  int ok = fn(x[0], w[0], x[1], w[1], x[2], w[2], x[3], w[3], x[4], w[4], x[5], w[5], r[0], r[1],
              r[2], r[3], r[4], r[5], temp) == 0;
  free(temp);
  for (int c = 0; c < CASES; c++) {
    size_t eb = F64[c] ? 8 : 4;
    for (int b = 0; b < BATCH[c]; b++)
      ok &= product_matches((char *)x[c] + b * (size_t)M[c] * K[c] * eb,
                            (char *)w[c] + b * (size_t)K[c] * N[c] * eb,
                            (char *)r[c] + b * (size_t)M[c] * N[c] * eb, M[c], K[c], N[c],
                            F64[c]);
    unsigned char *bufs[3] = {xb[c], wb[c], rb[c]};
    for (int i = 0; i < 3; i++) free(bufs[i]);
  }
  return ok;
}

int main(void) {
  static const int roffs[] = {0, 16, 48, 64, 192, 512, 1024, 2048, 3968, 4032, 4080};
  for (int threads = 1; threads <= 2; threads++) {
    Entry fn = threads == 1 ? so1_main : so2_main;
    size_t temp = threads == 1 ? SO1_MAIN_TEMP_BYTES : SO2_MAIN_TEMP_BYTES;
    for (int woff = 0; woff <= 16; woff += 16)
      for (size_t i = 0; i < sizeof roffs / sizeof *roffs; i++) {
        char what[96];
        snprintf(what, sizeof what, "%d thread(s): weights %d, results %d bytes past a page",
                 threads, woff, roffs[i]);
        expect(check(fn, temp, woff, roffs[i]), what);
      }
  }
  return tally_report();
}
