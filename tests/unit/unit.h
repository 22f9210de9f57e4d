/* unit.h: the few helpers every unit test uses. Each test counts its
 * checks, prints `FAIL file:line: ...` for a failing one, and closes with
 * `N passed, N failed` (unit_report), the line tests/run.py reads. */
#ifndef SHLOC_TESTS_UNIT_H
#define SHLOC_TESTS_UNIT_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int passed, failed;

#define EXPECT(cond)                                                    \
  do {                                                                  \
    if (cond) {                                                         \
      passed++;                                                         \
    } else {                                                            \
      failed++;                                                         \
      printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);            \
    }                                                                   \
  } while (0)

/* Integers, shown in decimal and hex on failure. */
#define EXPECT_I64(got, want) unit_expect_i64(__FILE__, __LINE__, (got), (want))
static inline void unit_expect_i64(const char *file, int line, int64_t got, int64_t want) {
  if (got == want) {
    passed++;
    return;
  }
  failed++;
  printf("FAIL %s:%d: got %lld (0x%llX), want %lld (0x%llX)\n", file, line, (long long)got,
         (unsigned long long)got, (long long)want, (unsigned long long)want);
}

/* Strings, both shown on failure. */
#define EXPECT_STR(got, want) unit_expect_str(__FILE__, __LINE__, (got), (want))
static inline void unit_expect_str(const char *file, int line, const char *got,
                                   const char *want) {
  if (got && !strcmp(got, want)) {
    passed++;
    return;
  }
  failed++;
  printf("FAIL %s:%d: got \"%s\", want \"%s\"\n", file, line, got ? got : "(null)", want);
}

/* Prints the closing line; the exit status of main. */
static inline int unit_report(void) {
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}

#endif
