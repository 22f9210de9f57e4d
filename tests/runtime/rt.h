/* rt.h: helpers of the runtime's tests (tests/runtime/test_*.c). The
 * tests see only runtime/ (shlort.h), as an application would; the checks
 * and the closing `N passed, N failed` line are tests/unit/unit.h's. */
#ifndef SHLOC_TESTS_RT_H
#define SHLOC_TESTS_RT_H

#include <stdlib.h>

#include "../unit/unit.h"
#include "shlort.h"

/* A grid in fresh 64-byte aligned memory; NULL (and a FAIL) if it cannot
 * be built. */
static inline shlort_grid *rt_grid(uint32_t replicas, uint32_t partitions, int64_t timeout_ms,
                                   uint64_t seed) {
  shlort_grid_config cfg = {replicas, partitions, timeout_ms, seed, 0};
  size_t bytes = shlort_grid_bytes(&cfg);
  void *mem = bytes ? aligned_alloc(64, (bytes + 63) & ~(size_t)63) : NULL;
  shlort_grid *g = NULL;
  if (!mem || shlort_grid_init(&g, mem, bytes, &cfg)) {
    free(mem);
    EXPECT(!"grid init");
    return NULL;
  }
  return g;
}

/* The grid lives at the start of its memory. */
static inline void rt_grid_free(shlort_grid *g) {
  if (!g) return;
  shlort_grid_destroy(g);
  free(g);
}

/* xorshift64*: the tests' deterministic random data. */
static inline uint64_t rt_next(uint64_t *s) {
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 0x2545F4914F6CDD1Dull;
}

static inline void rt_fill(void *p, size_t bytes, uint64_t *s) {
  unsigned char *q = p;
  for (size_t i = 0; i < bytes; i++) q[i] = (unsigned char)(rt_next(s) >> 56);
}

#endif
