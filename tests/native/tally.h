/* tally.h: the PASS/FAIL count of a native test program (one file per
 * program, so the counters are its own): expect() counts a check and
 * prints the ones that fail; tally_report() prints `N passed, N failed`
 * and gives main's exit status. */
#ifndef SHLOC_TESTS_NATIVE_TALLY_H
#define SHLOC_TESTS_NATIVE_TALLY_H

#include <stdio.h>

static int passed, failed;

static void expect(int ok, const char *what) {
  if (ok) {
    passed++;
    return;
  }
  failed++;
  printf("FAIL %s\n", what);
}

static int tally_report(void) {
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}

#endif
