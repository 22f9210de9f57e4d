/* check_args.c: an entry compiled with --check-args returns
 * SHLOC_BAD_ARGUMENT (2) for each NULL or misaligned buffer of non-zero
 * size (the header's contract: aligned to the C element type, temp to 64
 * bytes), without touching the results, and computes as usual otherwise;
 * an empty buffer may be NULL. The product is checked against plain C.
 * Prints `N passed, N failed`. */
#include <stdalign.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "chk.h"
#include "tally.h"

/* Storage with room to misalign a pointer into it. */
static alignas(64) unsigned char abuf[64 + CHK_MAIN_ARG0_BYTES], bbuf[64 + CHK_MAIN_ARG1_BYTES],
    rbuf[64 + CHK_MAIN_RESULT0_BYTES], tbuf[64 + CHK_MAIN_TEMP_BYTES];

static int call(void *a, void *b, void *r, void *t) {
  return chk_main((const float *)a, (const float *)b, NULL, (float *)r, NULL, t);
}

/* A valid call computes the product, checked against plain C. */
static void test_valid(void) {
  float *a = (float *)abuf, *b = (float *)bbuf, *r = (float *)rbuf;
  for (int i = 0; i < 16; i++) {
    a[i] = (float)(i % 5) - 2;
    b[i] = (float)(i % 3) + 1;
  }
  expect(call(a, b, r, tbuf) == 0, "valid buffers (and NULL empty ones) return 0");
  int same = 1;
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) {
      float s = 0;
      for (int k = 0; k < 4; k++) s += a[i * 4 + k] * b[k * 4 + j];
      same &= r[i * 4 + j] == s;
    }
  expect(same, "the product equals plain C's");
}

/* Each bad buffer alone gives 2, and the result buffer is left alone. */
static void test_bad(void) {
  void *ok[4] = {abuf, bbuf, rbuf, tbuf};
  const char *names[4] = {"arg0", "arg1", "result0", "temp"};
  /* misaligned for a float: +2 bytes; for the temp: +32 (float-aligned) */
  const int off[4] = {2, 2, 2, 32};
  for (int i = 0; i < 4; i++) {
    void *p[4];
    char what[64];
    memcpy(p, ok, sizeof p);
    p[i] = NULL;
    memset(rbuf, 0x5a, sizeof rbuf);
    snprintf(what, sizeof what, "NULL %s returns 2", names[i]);
    expect(call(p[0], p[1], p[2], p[3]) == SHLOC_BAD_ARGUMENT, what);
    expect(rbuf[0] == 0x5a && rbuf[CHK_MAIN_RESULT0_BYTES - 1] == 0x5a, "no result written");
    p[i] = (unsigned char *)ok[i] + off[i];
    snprintf(what, sizeof what, "misaligned %s returns 2", names[i]);
    expect(call(p[0], p[1], p[2], p[3]) == SHLOC_BAD_ARGUMENT, what);
  }
}

int main(void) {
  test_valid();
  test_bad();
  return tally_report();
}
