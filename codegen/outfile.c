/*
 * outfile.c: the files the compiler writes (the object, its header, a
 * weights file) are replaced whole or not at all (codegen_api.h
 * OutFile). Each is written as a new file beside the file it replaces,
 * TARGET.XXXXXX, and renamed over it once complete, so a compile that
 * fails (a full disk, ulimit -f) leaves the older file as it was, never
 * cut short; one that is killed may leave TARGET.XXXXXX behind. Through
 * a symbolic link the target is the file the link leads to (realpath):
 * the link is kept and its target replaced, never truncated in place.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "codegen_api.h"

void out_file_init(OutFile *f, const char *path) {
  *f = (OutFile){.path = path};
  struct stat st;
  char *real = realpath(path, NULL);
  /* Devices and FIFOs (-o /dev/null) are written in place, and so is a
   * dangling link: there is no file there to keep. */
  bool exists = real && !stat(real, &st);
  if ((exists && !S_ISREG(st.st_mode)) || (!real && !lstat(path, &st) && S_ISLNK(st.st_mode))) {
    free(real);
    return;
  }
  const char *target = exists ? real : path;
  size_t n = strlen(target);
  f->tmp = malloc(n + 8);
  if (!f->tmp) abort();
  memcpy(f->tmp, target, n);
  memcpy(f->tmp + n, ".XXXXXX", 8);
  f->target = exists ? real : NULL;
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
  if (f->target) /* an existing file: what failed is the new one beside it */
    diag_error((Loc){0}, "cannot create %s: %s (it is written as a new file beside %s, then renamed over it)",
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

void out_file_free(OutFile *f) {
  if (f->created) unlink(f->tmp);
  free(f->tmp);
  free(f->target);
  *f = (OutFile){.path = f->path};
}
