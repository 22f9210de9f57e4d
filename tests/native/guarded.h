/* guarded.h: buffers against PROT_NONE pages for the native tests
 * (indices.c, winograd_edges.c), so that an access of the generated code
 * one element outside a buffer faults. */
#ifndef SHLOC_TESTS_NATIVE_GUARDED_H
#define SHLOC_TESTS_NATIVE_GUARDED_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* A mapping of whole pages with a PROT_NONE page on each side; `p` is n
 * bytes against the upper guard (at_end) or the lower one. */
typedef struct Guarded {
  unsigned char *map;
  size_t len;
  void *p;
} Guarded;

static void *guard_copy(Guarded *g, const void *src, size_t n, int at_end) {
  size_t pg = (size_t)sysconf(_SC_PAGESIZE);
  size_t body = n ? (n + pg - 1) / pg * pg : pg;
  g->len = body + 2 * pg;
  g->map = mmap(NULL, g->len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (g->map == MAP_FAILED || mprotect(g->map, pg, PROT_NONE) ||
      mprotect(g->map + pg + body, pg, PROT_NONE)) {
    perror("guard pages");
    exit(2);
  }
  g->p = at_end ? g->map + pg + body - n : g->map + pg;
  if (src) memcpy(g->p, src, n);
  return g->p;
}

static void guard_free(Guarded *g) { munmap(g->map, g->len); }

#endif
