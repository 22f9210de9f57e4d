/* diag.c: diagnostics in the `file:line:col: error: msg` form, followed by
 * the source line and a caret under the column. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ir.h"

static int error_count;
static DiagSink sink;
static void *sink_ctx;

void diag_set_sink(DiagSink s, void *ctx) {
  sink = s;
  sink_ctx = ctx;
}

int diag_error_count(void) { return error_count; }
void diag_reset(void) { error_count = 0; }

/* Appends the source line of `loc` and a caret line to buf. */
static size_t put_source_line(char *buf, size_t cap, Loc loc) {
  if (!loc.file || loc.file->binary || !loc.file->text || loc.line <= 0) return 0;
  const char *p = loc.file->text, *end = p + loc.file->len;
  for (int line = 1; line < loc.line && p < end; p++)
    if (*p == '\n') line++;
  const char *eol = memchr(p, '\n', (size_t)(end - p));
  if (!eol) eol = end;
  int len = (int)(eol - p);
  if (len > 400) len = 400;
  int col = loc.col > 0 ? loc.col - 1 : 0;
  if (col > len) col = len;
  int n = snprintf(buf, cap, "%.*s\n%*s^\n", len, p, col, "");
  return n < 0 ? 0 : ((size_t)n < cap ? (size_t)n : cap - 1);
}

void diag_verror(Loc loc, const char *kind, const char *fmt, va_list ap) {
  char buf[2048];
  size_t n = 0;
  int k;
  if (loc.file && loc.file->binary)
    k = snprintf(buf, sizeof buf, "%s: byte %d: %s: ", loc.file->name, loc.col, kind);
  else if (loc.file)
    k = snprintf(buf, sizeof buf, "%s:%d:%d: %s: ", loc.file->name, loc.line,
                 loc.col, kind);
  else
    k = snprintf(buf, sizeof buf, "shloc: %s: ", kind);
  n = k < 0 ? 0 : (size_t)k;
  if (n > sizeof buf - 256) n = sizeof buf - 256; /* a very long file name */
  k = vsnprintf(buf + n, sizeof buf - n, fmt, ap);
  n += k < 0 ? 0 : (size_t)k;
  if (n > sizeof buf - 2) n = sizeof buf - 2;
  buf[n++] = '\n';
  buf[n] = 0;
  n += put_source_line(buf + n, sizeof buf - n, loc);
  if (!strcmp(kind, "error")) error_count++;
  if (sink)
    sink(sink_ctx, buf);
  else
    fputs(buf, stderr);
}

void diag_error(Loc loc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag_verror(loc, "error", fmt, ap);
  va_end(ap);
}

void diag_warning(Loc loc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag_verror(loc, "warning", fmt, ap);
  va_end(ap);
}

/* Source files live for the whole process (locations point into them);
 * they stay reachable from this list. */
typedef struct OwnedSrc {
  SrcFile file;
  bool mapped; /* file.text is a mapping of the file (map_file) */
  struct OwnedSrc *next;
} OwnedSrc;
static OwnedSrc *owned_sources;
/* The bytes of a file srcfile_read looks at for a NUL (binary files). */
enum { SRC_SNIFF_BYTES = 4096 };

/* Fails with a message naming the file; frees what was read. */
static SrcFile *read_failed(FILE *f, char *text, const char *path, const char *why) {
  fprintf(stderr, "shloc: error: '%s': %s\n", path, why);
  free(text);
  fclose(f);
  return NULL;
}

/* The n bytes of regular file fd mapped read-only and followed by a NUL:
 * an anonymous mapping of zeros, one byte longer than the file, is
 * reserved first and the file mapped over its start (past the end of the
 * file, its last page reads as zeros too). NULL if mmap fails. */
static char *map_file(int fd, size_t n) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE), total = (n + page) / page * page;
  char *p = mmap(NULL, total, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return NULL;
  if (n && mmap(p, n, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0) == MAP_FAILED) {
    munmap(p, total);
    return NULL;
  }
  return p;
}

/* Reads what f (a pipe, or a file that cannot be mapped) holds, up to
 * SRC_MAX_BYTES; NULL after diagnosing. */
static char *read_all(FILE *f, const char *path, size_t *n) {
  size_t cap = 1 << 16, len = 0;
  char *text = malloc(cap);
  size_t got;
  while (text && (got = fread(text + len, 1, cap - len - 1, f)) > 0) {
    len += got;
    /* Pipes have no size to check up front. */
    if (len > SRC_MAX_BYTES)
      return read_failed(f, text, path, "larger than the input limit of 512 MiB"), NULL;
    if (cap - len - 1 > 0) continue;
    /* Room for one byte past the limit is enough to see it passed. */
    cap = cap * 2 > SRC_MAX_BYTES + 2 ? SRC_MAX_BYTES + 2 : cap * 2;
    char *bigger = realloc(text, cap);
    if (!bigger) return read_failed(f, text, path, "out of memory reading the file"), NULL;
    text = bigger;
  }
  if (ferror(f)) return read_failed(f, text, path, "read error"), NULL;
  if (!text) return read_failed(f, text, path, "out of memory reading the file"), NULL;
  text[len] = 0;
  *n = len;
  return text;
}

SrcFile *srcfile_read(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "shloc: error: cannot open '%s'\n", path);
    return NULL;
  }
  struct stat st;
  bool regular = fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode);
  if (regular && (uint64_t)st.st_size > SRC_MAX_MAPPED_BYTES)
    return read_failed(f, NULL, path, "larger than the input limit of 1 GiB");
  size_t len = regular ? (size_t)st.st_size : 0;
  char *text = regular ? map_file(fileno(f), len) : NULL;
  bool read_text = !text;
  if (read_text && !(text = read_all(f, path, &len))) return NULL;
  OwnedSrc *o = malloc(sizeof *o);
  if (!o) {
    if (read_text) free(text);
    else munmap(text, len);
    return read_failed(f, NULL, path, "out of memory reading the file");
  }
  fclose(f);
  /* MLIR bytecode starts with "ML\xefR", a jax.export flatbuffer holding
   * it with the offset of its root table (a u32: NUL bytes), and any
   * binary file has NUL bytes early; text has neither. Only the start is
   * looked at, so that the pages of a long text are not all read here (a
   * NUL further on, outside a string, is a lexical error). */
  bool binary = memchr(text, 0, len < SRC_SNIFF_BYTES ? len : SRC_SNIFF_BYTES) ||
                (len >= 4 && !memcmp(text, "ML\xefR", 4));
  o->file = (SrcFile){.name = path, .text = text, .len = len, .binary = binary};
  o->mapped = !read_text;
  o->next = owned_sources;
  owned_sources = o;
  return &o->file;
}

void srcfile_release(const SrcFile *f, const char *p, size_t n) {
  OwnedSrc *o = owned_sources;
  while (o && &o->file != f) o = o->next;
  if (!o || !o->mapped || p < f->text || n > f->len - (size_t)(p - f->text)) return;
  uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
  uintptr_t begin = ((uintptr_t)p + page - 1) & ~(page - 1), end = ((uintptr_t)p + n) & ~(page - 1);
  /* The pages of a private mapping never written to: read again, they
   * come back from the file. */
  if (end > begin) madvise((void *)begin, end - begin, MADV_DONTNEED);
}

const SrcFile *srcfile_named(const char *name) {
  for (OwnedSrc *o = owned_sources; o; o = o->next)
    if (!o->file.text && !strcmp(o->file.name, name)) return &o->file;
  OwnedSrc *o = malloc(sizeof *o);
  char *copy = strdup(name);
  if (!o || !copy) {
    fprintf(stderr, "shloc: out of memory\n");
    abort();
  }
  o->file = (SrcFile){.name = copy};
  o->next = owned_sources;
  owned_sources = o;
  return &o->file;
}
