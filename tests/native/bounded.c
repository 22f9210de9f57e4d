/* bounded.c: the ABI of an entry with symbolic sizes and bounded types
 * (tests/native/bounded.mlir, at most 16 rows). Buffers of the static
 * worst cases BND_MAIN_TEMP_BYTES_MAX and BND_MAIN_RESULT0_BYTES_MAX serve
 * every size within the bound (temp_bytes never exceeds the first); rows
 * 1..16 compute x * x + x (checked against plain C) or fail the shape
 * assertion b >= 2 with status 2 and jax's message, its {0} filled in
 * (bnd_main_status_message); 17 rows are above the bound: status 1 before
 * any write. Prints `N passed, N failed`. */
#include <stdalign.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bnd.h"
#include "tally.h"

enum { MAX_ROWS = 16, COLS = 4 };

static float x[(MAX_ROWS + 1) * COLS], y[BND_MAIN_RESULT0_BYTES_MAX / sizeof(float) + COLS];
static alignas(64) unsigned char temp[BND_MAIN_TEMP_BYTES_MAX];

static void test_max_sizes(void) {
  expect(BND_MAIN_RESULT0_BYTES_MAX == MAX_ROWS * COLS * sizeof(float),
         "RESULT0_BYTES_MAX is 16 rows of 4 floats");
  int within = 1;
  for (int64_t n = 0; n <= MAX_ROWS; n++) within &= bnd_main_temp_bytes(n) <= (int64_t)BND_MAIN_TEMP_BYTES_MAX;
  expect(within, "temp_bytes(n) <= TEMP_BYTES_MAX for every n within the bound");
  expect(bnd_main_temp_bytes(MAX_ROWS) == (int64_t)BND_MAIN_TEMP_BYTES_MAX,
         "the bound is attained at 16 rows");
}

static void test_rows(int64_t n) {
  char what[64];
  for (int64_t i = 0; i < n * COLS; i++) x[i] = (float)(i % 7) - 3.0f;
  int64_t dims[2];
  bnd_main_result_dims(n, 0, dims);
  snprintf(what, sizeof what, "%lld rows: result dims", (long long)n);
  expect(dims[0] == n && dims[1] == COLS, what);
  int rc = bnd_main(x, y, temp, n);
  snprintf(what, sizeof what, "%lld rows: status 0", (long long)n);
  expect(rc == 0 && !strcmp(bnd_main_status_message(rc, temp), ""), what);
  int same = 1;
  for (int64_t i = 0; i < n * COLS; i++) same &= y[i] == x[i] * x[i] + x[i];
  snprintf(what, sizeof what, "%lld rows: x * x + x", (long long)n);
  expect(same, what);
}

static void test_assertion(void) {
  int rc = bnd_main(x, y, temp, 1);
  expect(rc == 2, "1 row fails the shape assertion: status 2");
  const char *want = "Input shapes do not match the polymorphic shapes specification. Expected "
                     "value >= 2 for dimension variable 'b'. Obtained dimension variables: 'b' = 1 "
                     "from specification 'b' for dimension args[0].shape[0] (= 1), .";
  const char *got = bnd_main_status_message(rc, temp);
  expect(!strcmp(got, want), "the assertion's message with {0} formatted");
  if (strcmp(got, want)) printf("  got: %s\n", got);
}

static void test_above_bound(void) {
  memset(y, 0x55, sizeof y);
  int rc = bnd_main(x, y, temp, MAX_ROWS + 1);
  expect(rc == 1, "17 rows are above the bound: status 1");
  expect(strlen(bnd_main_status_message(rc, temp)) > 0, "status 1 has a message");
  unsigned char *p = (unsigned char *)y;
  int untouched = 1;
  for (size_t i = 0; i < sizeof y; i++) untouched &= p[i] == 0x55;
  expect(untouched, "status 1 writes no result");
  expect(bnd_main(x, y, temp, -1) == 1, "a negative size: status 1");
}

int main(void) {
  test_max_sizes();
  test_rows(2);
  test_rows(7);
  test_rows(MAX_ROWS);
  test_assertion();
  test_above_bound();
  return tally_report();
}
