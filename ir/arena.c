/* arena.c: bump allocation for the IR. Nodes are never freed one by one;
 * the whole arena goes with its module. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "ir.h"

struct ArenaChunk {
  ArenaChunk *next;
  size_t used, cap;
  _Alignas(16) unsigned char data[];
};

enum { CHUNK_MIN = 64 * 1024 };
/* Allocations at least this large (decoded weights: hundreds of MB) get
 * a chunk of their own from calloc, which maps fresh zero pages without
 * writing them, in transparent huge pages where the kernel has them (a
 * page fault per 2 MiB rather than per 4 KiB). */
#define HUGE_BYTES ((size_t)2 << 20)

/* A chunk of `cap` bytes of zeros for one huge allocation. */
static ArenaChunk *huge_chunk(size_t cap) {
  ArenaChunk *c = calloc(1, sizeof(ArenaChunk) + cap);
#ifdef MADV_HUGEPAGE
  uintptr_t begin = ((uintptr_t)c + sizeof *c + HUGE_BYTES - 1) & ~(HUGE_BYTES - 1);
  uintptr_t end = ((uintptr_t)c + sizeof *c + cap) & ~(HUGE_BYTES - 1);
  if (c && end > begin) madvise((void *)begin, end - begin, MADV_HUGEPAGE);
#endif
  return c;
}

void *arena_alloc(Arena *a, size_t n) {
  n = (n + 15) & ~(size_t)15;
  ArenaChunk *c = a->head;
  bool zeroed = false; /* a fresh huge chunk */
  if (!c || c->cap - c->used < n) {
    size_t cap = n > CHUNK_MIN ? n : CHUNK_MIN;
    zeroed = n >= HUGE_BYTES;
    c = zeroed ? huge_chunk(cap) : malloc(sizeof(ArenaChunk) + cap);
    if (!c) {
      fprintf(stderr, "shloc: out of memory\n");
      abort();
    }
    c->next = a->head;
    c->used = 0;
    c->cap = cap;
    a->head = c;
  }
  void *p = c->data + c->used;
  c->used += n;
  if (!zeroed) memset(p, 0, n);
  return p;
}

char *arena_strndup(Arena *a, const char *s, size_t n) {
  char *p = arena_alloc(a, n + 1);
  memcpy(p, s, n);
  p[n] = 0;
  return p;
}

char *arena_strdup(Arena *a, const char *s) {
  return arena_strndup(a, s, strlen(s));
}

char *arena_printf(Arena *a, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char probe[1];
  int n = vsnprintf(probe, sizeof probe, fmt, ap);
  va_end(ap);
  char *p = arena_alloc(a, (size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(p, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return p;
}

void *arena_grow(Arena *a, void *data, int n, int *cap, size_t elem) {
  if (n < *cap) return data;
  int ncap = *cap ? *cap * 2 : 4;
  void *d = arena_alloc(a, elem * (size_t)ncap);
  if (n) memcpy(d, data, elem * (size_t)n);
  *cap = ncap;
  return d;
}

void arena_free(Arena *a) {
  ArenaChunk *c = a->head;
  while (c) {
    ArenaChunk *next = c->next;
    free(c);
    c = next;
  }
  a->head = NULL;
}
