/* skinny_offsets.c: the skinny products of skinny_offsets.mlir with the
 * weights (and then every buffer) at each float offset within a 64-byte
 * line: the kernel does the columns before B's first line boundary as an
 * edge strip (codegen/gemm.c, skinny_head; with AVX2 at 7 rows an
 * overlapping strip, skinny_edge), so each offset takes another split of
 * the columns. Compiled for one thread (sk1) and two (sk2). The
 * data are small integers, so every sum is exact: each result must equal
 * plain C's. Prints `N passed, N failed`. */
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sk1.h"
#include "product.h"
#include "sk2.h"
#include "tally.h"

enum { CASES = 13 };
static const int M[CASES] = {1, 3, 7, 8, 7, 7, 1, 1, 1, 1, 7, 7, 7},
                 K[CASES] = {37, 50, 33, 70, 20, 19, 300, 3, 1030, 103, 40, 21, 35},
                 N[CASES] = {45, 48, 100, 64, 5, 5000, 131, 70, 40, 2000, 16, 12, 17};

typedef const float *In;
typedef int (*Entry)(In, In, In, In, In, In, In, In, In, In, In, In, In, In, In, In, In, In, In,
                     In, In, In, In, In, In, In, float *, float *, float *, float *, float *,
                     float *, float *, float *, float *, float *, float *, float *, float *,
                     void *);

/* A buffer of n floats starting `off` bytes past a line. */
static float *at(unsigned char *base, int off) { return (float *)(base + off); }

static unsigned char *line_buf(size_t floats) {
  unsigned char *p = aligned_alloc(64, (floats * sizeof(float) + 64 + 63) / 64 * 64);
  if (!p) abort();
  return p;
}

/* Calls fn with the weights `woff` bytes past a line and the other
 * buffers `off` bytes past one; 1 when every result equals plain C's. */
static int check(Entry fn, size_t temp_bytes, int woff, int off) {
  unsigned char *xb[CASES], *wb[CASES], *rb[CASES];
  const float *in[2 * CASES];
  float *res[CASES];
  for (int c = 0; c < CASES; c++) {
    xb[c] = line_buf((size_t)M[c] * K[c]);
    wb[c] = line_buf((size_t)K[c] * N[c]);
    rb[c] = line_buf((size_t)M[c] * N[c]);
    float *x = at(xb[c], off), *w = at(wb[c], woff);
    for (int i = 0; i < M[c] * K[c]; i++) x[i] = (float)((i * 5 + i / 7 + c) % 7 - 3);
    for (int i = 0; i < K[c] * N[c]; i++) w[i] = (float)((i * 5 + c) % 9 - 4);
    res[c] = at(rb[c], off);
    memset(res[c], 0xA5, (size_t)M[c] * N[c] * sizeof(float));
    in[2 * c] = x;
    in[2 * c + 1] = w;
  }
  void *temp = aligned_alloc(64, temp_bytes ? temp_bytes : 64);
  int ok = fn(in[0], in[1], in[2], in[3], in[4], in[5], in[6], in[7], in[8], in[9], in[10],
              in[11], in[12], in[13], in[14], in[15], in[16], in[17], in[18], in[19], in[20],
              in[21], in[22], in[23], in[24], in[25], res[0], res[1], res[2], res[3], res[4],
              res[5], res[6], res[7], res[8], res[9], res[10], res[11], res[12], temp) == 0;
  for (int c = 0; c < CASES; c++) {
    ok &= product_matches(in[2 * c], in[2 * c + 1], res[c], M[c], K[c], N[c], 0);
    free(xb[c]);
    free(wb[c]);
    free(rb[c]);
  }
  free(temp);
  return ok;
}

int main(void) {
  const struct {
    const char *name;
    Entry fn;
    size_t temp;
  } models[2] = {{"1 thread", sk1_main, SK1_MAIN_TEMP_BYTES},
                 {"2 threads", sk2_main, SK2_MAIN_TEMP_BYTES}};
  for (int m = 0; m < 2; m++)
    for (int off = 0; off < 64; off += 4) {
      char what[96];
      snprintf(what, sizeof what, "%s: weights %d bytes past a line", models[m].name, off);
      expect(check(models[m].fn, models[m].temp, off, 0), what);
      snprintf(what, sizeof what, "%s: every buffer %d bytes past a line", models[m].name, off);
      expect(check(models[m].fn, models[m].temp, off, off), what);
    }
  return tally_report();
}
