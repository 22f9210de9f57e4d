/* winograd_edges.c: the Winograd output transform's edge tiles against
 * guard pages (tests/native/winograd_edges.mlir). Its rows come from one
 * base per tile, so a tile that overhangs the result's bottom or right
 * edge computes addresses past the result (past its end at the last
 * image's bottom tile row); the stores there must not happen (masked off
 * on x86, winograd.c wino_store_kept). Each result buffer sits against a
 * PROT_NONE page, once with its last byte just before the page and once
 * with its first byte just after one, so a store one element outside it
 * faults; it is filled with NaN first, so an element left unwritten
 * fails. Objects: wg1 (one thread), wg2 (--threads=2: tiles split
 * between threads), wgd (--winograd=off: the direct kernel, the
 * reference). Tolerance: |wino - direct| <= 2^-16 x S, S = 9 C max|x|
 * max|w| the largest sum of |terms| (tests/run/gen_winograd.py: F(4 x 4)
 * observed below 2^-18 x S). Prints `N passed, N failed`. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guarded.h"
#include "tally.h"
#include "wg1.h"
#include "wg2.h"
#include "wgd.h"

typedef int (*Entry)(const float *, float *, void *);

/* Runs f on x into a guarded result of n bytes and compares it with want
 * within tol; one check. */
static void check(const char *what, Entry f, size_t temp_bytes, const float *x, const float *want,
                  size_t n, double tol, int at_end) {
  Guarded g;
  float *r = guard_copy(&g, NULL, n, at_end);
  for (size_t i = 0; i < n / sizeof(float); i++) r[i] = NAN;
  void *temp = aligned_alloc(64, temp_bytes + 64);
  int rc = f(x, r, temp);
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < n / sizeof(float); i++)
    if (!(fabs((double)r[i] - want[i]) <= tol) && !bad++) first = i;
  char msg[160];
  snprintf(msg, sizeof msg, "%s (%s guard): status %d, %zu elements off (first %zu: %g vs %g)",
           what, at_end ? "upper" : "lower", rc, bad, first, (double)r[first], (double)want[first]);
  expect(rc == 0 && bad == 0, msg);
  free(temp);
  guard_free(&g);
}

/* The direct kernel's result of entry d on x (small integers, -6..6),
 * then each Winograd object's against it at both guard placements. */
static void test(const char *name, size_t in_bytes, size_t out_bytes, int c, double w, Entry d,
                 size_t dt, Entry w1, size_t t1, Entry w2, size_t t2) {
  float *x = malloc(in_bytes), *want = malloc(out_bytes);
  for (size_t i = 0; i < in_bytes / sizeof(float); i++) x[i] = (float)((i * 7) % 13) - 6;
  void *temp = aligned_alloc(64, dt + 64);
  expect(d(x, want, temp) == 0, "the direct kernel's call");
  double tol = ldexp(9.0 * c * 6.0 * w, -16);
  char what[64];
  for (int at_end = 0; at_end < 2; at_end++) {
    snprintf(what, sizeof what, "%s, one thread", name);
    check(what, w1, t1, x, want, out_bytes, tol, at_end);
    snprintf(what, sizeof what, "%s, 2 threads", name);
    check(what, w2, t2, x, want, out_bytes, tol, at_end);
  }
  free(temp);
  free(x);
  free(want);
}

int main(void) {
  test("F(4 x 4) 3 x 23 x 22 x 8 -> 16", WG1_F4_ARG0_BYTES, WG1_F4_RESULT0_BYTES, 8, 0.25, wgd_f4,
       WGD_F4_TEMP_BYTES, wg1_f4, WG1_F4_TEMP_BYTES, wg2_f4, WG2_F4_TEMP_BYTES);
  test("F(2 x 2) 2 x 13 x 9 x 8 -> 8", WG1_F2_ARG0_BYTES, WG1_F2_RESULT0_BYTES, 8, 0.5, wgd_f2,
       WGD_F2_TEMP_BYTES, wg1_f2, WG1_F2_TEMP_BYTES, wg2_f2, WG2_F2_TEMP_BYTES);
  return tally_report();
}
