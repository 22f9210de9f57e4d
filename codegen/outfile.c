/*
 * outfile.c: the files the compiler writes (the object, its header, a
 * weights file) are replaced whole or not at all (codegen_api.h
 * OutFile). Each is written as a new file beside the file it replaces,
 * TARGET.XXXXXX, and renamed over it once complete (the tool renames a
 * compile's outputs only once every one is complete), so a compile that
 * fails (a full disk, ulimit -f) leaves the older files as they were,
 * never cut short; one that is killed may leave TARGET.XXXXXX behind.
 * Through a symbolic link the target is the file the link leads to
 * (realpath; for a dangling link the missing file at its end): the link
 * is kept and its target replaced or created, never written in place.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "codegen_api.h"

/* The file a dangling symbolic link at path leads to (each link's
 * contents taken from its own directory, as open's O_CREAT follows
 * them), malloc'ed; NULL where the links loop (open then fails with
 * ELOOP). */
static char *link_end(const char *path) {
  char *p = strdup(path), to[PATH_MAX];
  if (!p) abort();
  for (int hops = 0; hops < 40; hops++) { /* Linux's MAXSYMLINKS */
    struct stat st;
    if (lstat(p, &st) || !S_ISLNK(st.st_mode)) return p; /* the end: missing */
    ssize_t n = readlink(p, to, sizeof to);
    if (n < 0 || n == (ssize_t)sizeof to) break;
    const char *slash = strrchr(p, '/');
    size_t dir = to[0] == '/' || !slash ? 0 : (size_t)(slash - p + 1);
    char *next = malloc(dir + (size_t)n + 1);
    if (!next) abort();
    memcpy(next, p, dir);
    memcpy(next + dir, to, (size_t)n);
    next[dir + (size_t)n] = 0;
    free(p);
    p = next;
  }
  free(p);
  return NULL;
}

void out_file_init(OutFile *f, const char *path) {
  *f = (OutFile){.path = path};
  struct stat st;
  char *real = realpath(path, NULL);
  bool exists = real && !stat(real, &st);
  if (!exists) {
    free(real);
    real = NULL;
  }
  /* Devices and FIFOs (-o /dev/null) are written in place: there is no
   * file there to keep. */
  if (exists && !S_ISREG(st.st_mode)) {
    free(real);
    return;
  }
  /* A dangling link: the new file goes beside the file it leads to and
   * is renamed to that name (created in place, a failed write left it
   * cut short). */
  if (!exists && !lstat(path, &st) && S_ISLNK(st.st_mode) && !(real = link_end(path))) return;
  const char *target = real ? real : path;
  size_t n = strlen(target);
  f->tmp = malloc(n + 8);
  if (!f->tmp) abort();
  memcpy(f->tmp, target, n);
  memcpy(f->tmp + n, ".XXXXXX", 8);
  f->target = real;
  if (exists) { /* the file replaced keeps its permissions (a private 0600 header stays so) */
    f->mode = st.st_mode & 0777;
    return;
  }
  mode_t mask = umask(0); /* not thread-safe: read here, before any writer */
  umask(mask);
  f->mode = 0666 & ~mask;
}

int out_file_create(OutFile *f) {
  if (!f->tmp) return open(f->path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
  int fd = mkstemp(f->tmp);
  if (fd < 0) return -1;
  f->created = true;
  if (fchmod(fd, f->mode)) {
    int err = errno;
    close(fd);
    errno = err;
    return -1;
  }
  return fd;
}

void out_file_create_error(const OutFile *f, int err) {
  if (f->target) /* through links, or an existing file: what failed is the new one beside it */
    diag_error((Loc){0}, "cannot create %s: %s (it is written as a new file beside %s, then renamed to it)",
               f->path, strerror(err), f->target);
  else
    diag_error((Loc){0}, "cannot create %s: %s", f->path, strerror(err));
}

int out_file_commit(OutFile *f) {
  if (!f->tmp) return 0;
  if (rename(f->tmp, f->target ? f->target : f->path)) return -1;
  f->created = false; /* nothing left to remove */
  return 0;
}

void out_file_discard(OutFile *f) {
  if (!f->created) return;
  unlink(f->tmp);
  f->created = false;
  memcpy(f->tmp + strlen(f->tmp) - 6, "XXXXXX", 6); /* mkstemp's template again */
}

void out_file_free(OutFile *f) {
  out_file_discard(f);
  free(f->tmp);
  free(f->target);
  *f = (OutFile){.path = f->path};
}
