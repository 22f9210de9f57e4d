/* probe.c: interpreter.probe and check.expect_serialized_eq of the
 * conformance protocol. The upstream interpreter writes each probed value
 * to a file and compares it later; here the values are kept in memory, per
 * thread, in probing order, until shlort_check_reset. Test support only:
 * compiled programs contain these calls only under `shloc check`. */
#include <stdlib.h>
#include <string.h>

#include "elem.h"
#include "shlort.h"

typedef struct Probe {
  char *id;
  void *bytes;
  int64_t nbytes;
  struct Probe *next;
} Probe;

static _Thread_local Probe *first, *last;

void shlort_probe_reset(void) {
  while (first) {
    Probe *next = first->next;
    free(first->id);
    free(first->bytes);
    free(first);
    first = next;
  }
  last = NULL;
}

int32_t shlort_probe(const char *id, const void *p, int64_t nbytes) {
  Probe *r = calloc(1, sizeof *r);
  if (r) {
    r->id = strdup(id);
    r->bytes = malloc(nbytes > 0 ? (size_t)nbytes : 1);
  }
  if (!r || !r->id || !r->bytes) {
    if (r) free(r->id), free(r->bytes), free(r);
    return shlort_check_fail(SHLORT_OUT_OF_MEMORY, "interpreter.probe: out of memory");
  }
  memcpy(r->bytes, p, (size_t)nbytes);
  r->nbytes = nbytes;
  if (last) last->next = r;
  else first = r;
  last = r;
  return SHLORT_OK;
}

int32_t shlort_check_serialized_eq(const char *id, int64_t iter, int32_t elem,
                                   const void *expected, int64_t n) {
  int64_t k = 0;
  for (const Probe *r = first; r; r = r->next) {
    if (strcmp(r->id, id) || k++ < iter) continue;
    return shlort_check_eq(elem, r->bytes, expected, n);
  }
  return shlort_check_fail(SHLORT_CHECK_FAILED,
                           "check.expect_serialized_eq: probe \"%s\" recorded %lld value(s), "
                           "no iteration %lld",
                           id, (long long)k, (long long)iter);
}
