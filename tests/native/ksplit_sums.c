/* ksplit_sums.c: the products of ksplit_sums.mlir compiled for one thread
 * (ks1), two (ks2) and three (ks3): with more than one, K is split and the
 * parts are added up by one unit a thread, a run of the columns each, with
 * the first product's epilogue (+ bias, max with 0) on its run
 * (codegen/gemm.c's ksplit_sum). The weights lie 0 or 16 bytes past a line
 * (16: the parts' slots are moved to the weights' offset, skinny_stage_at).
 * The data are small integers, so every sum is exact: each result must
 * equal plain C's, in every one of many calls (the units of a call race
 * if the sums start before the parts are done). Prints `N passed, N
 * failed`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ks1.h"
#include "ks2.h"
#include "ks3.h"
#include "tally.h"

enum { CASES = 3, CALLS = 40 };
static const int M[CASES] = {7, 3, 4}, K[CASES] = {400, 390, 401}, N[CASES] = {2500, 6001, 4096},
                 F64[CASES] = {0, 0, 1};

typedef int (*Entry)(const float *, const float *, const float *, const float *, const float *,
                     const double *, const double *, float *, float *, double *, void *);

static double get(int c, const void *p, long i) {
  return F64[c] ? ((const double *)p)[i] : ((const float *)p)[i];
}

static void put(int c, void *p, long i, double v) {
  if (F64[c])
    ((double *)p)[i] = v;
  else
    ((float *)p)[i] = (float)v;
}

static void *line_buf(size_t bytes) {
  void *p = aligned_alloc(64, (bytes + 64 + 63) / 64 * 64);
  if (!p) abort();
  return p;
}

/* Case c's result as plain C computes it: x * w, for case 0 + bias and
 * max with 0. */
static double *expected(int c, const void *x, const void *w, const float *bias) {
  double *r = malloc((size_t)M[c] * N[c] * sizeof(double));
  if (!r) abort();
  for (int i = 0; i < M[c]; i++)
    for (int j = 0; j < N[c]; j++) {
      double s = 0;
      for (int q = 0; q < K[c]; q++) s += get(c, x, (long)i * K[c] + q) * get(c, w, (long)q * N[c] + j);
      if (c == 0) s = s + bias[j] > 0 ? s + bias[j] : 0;
      r[(long)i * N[c] + j] = s;
    }
  return r;
}

int main(void) {
  const struct {
    const char *name;
    Entry fn;
    size_t temp;
    int calls;
  } models[3] = {{"1 thread", ks1_main, KS1_MAIN_TEMP_BYTES, 2},
                 {"2 threads", ks2_main, KS2_MAIN_TEMP_BYTES, CALLS},
                 {"3 threads", ks3_main, KS3_MAIN_TEMP_BYTES, CALLS}};
  for (int woff = 0; woff <= 16; woff += 16) {
    char *xb[CASES], *wb[CASES];
    void *x[CASES], *w[CASES], *r[CASES];
    double *want[CASES];
    float *bias = line_buf(N[0] * sizeof(float));
    for (int j = 0; j < N[0]; j++) bias[j] = (float)(j % 11 - 5);
    for (int c = 0; c < CASES; c++) {
      size_t eb = F64[c] ? 8 : 4;
      xb[c] = line_buf((size_t)M[c] * K[c] * eb);
      wb[c] = line_buf((size_t)K[c] * N[c] * eb);
      x[c] = xb[c];
      w[c] = wb[c] + woff;
      r[c] = line_buf((size_t)M[c] * N[c] * eb);
      for (long i = 0; i < (long)M[c] * K[c]; i++) put(c, x[c], i, (double)((i * 7 + c) % 7 - 3));
      for (long i = 0; i < (long)K[c] * N[c]; i++) put(c, w[c], i, (double)((i * 5 + c) % 9 - 4));
      want[c] = expected(c, x[c], w[c], bias);
    }
    for (int m = 0; m < 3; m++) {
      void *temp = line_buf(models[m].temp);
      int ok = 1;
      for (int call = 0; call < models[m].calls && ok; call++) {
        for (int c = 0; c < CASES; c++) memset(r[c], 0xA5, (size_t)M[c] * N[c] * (F64[c] ? 8 : 4));
        ok &= models[m].fn(x[0], w[0], bias, x[1], w[1], x[2], w[2], r[0], r[1], r[2], temp) == 0;
        for (int c = 0; c < CASES; c++)
          for (long i = 0; i < (long)M[c] * N[c]; i++) ok &= get(c, r[c], i) == want[c][i];
      }
      char what[96];
      snprintf(what, sizeof what, "%s: weights %d bytes past a line, %d calls", models[m].name,
               woff, models[m].calls);
      expect(ok, what);
      free(temp);
    }
    for (int c = 0; c < CASES; c++) {
      free(xb[c]);
      free(wb[c]);
      free(r[c]);
      free(want[c]);
    }
    free(bias);
  }
  return tally_report();
}
