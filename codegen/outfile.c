/*
 * outfile.c: the files the compiler writes (the object, its header, a
 * weights file) are replaced whole or not at all (codegen_api.h
 * OutFile). Each is written as a new file beside the file it replaces,
 * TARGET.XXXXXX, and renamed over it once complete (the tool renames a
 * compile's outputs only once every one is complete), so a compile that
 * fails (a full disk, ulimit -f) leaves the older files as they were,
 * never cut short; one that is killed may leave TARGET.XXXXXX behind.
 * Through a symbolic link the target is the file the link leads to
 * (link_end; for a dangling link the missing file at its end): the link
 * is kept and its target replaced or created, never written in place.
 * Devices, FIFOs, pipes and the open files /proc's links stand for
 * (/dev/stdout) are written in place: there is no file there to keep.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "codegen_api.h"

/* Stats the directory p lies in ("." where p has no slash): false
 * where it cannot. */
static bool stat_dir(const char *p, struct stat *st) {
  const char *slash = strrchr(p, '/');
  if (!slash) return !stat(".", st);
  size_t n = (size_t)(slash - p) + 1; /* "/" for "/x" */
  char *dir = malloc(n + 1);
  if (!dir) abort();
  memcpy(dir, p, n);
  dir[n] = 0;
  bool ok = !stat(dir, st);
  free(dir);
  return ok;
}

/* The kernel's fs.protected_symlinks rule (Documentation/admin-guide/
 * sysctl/fs.rst): a link ln in a sticky, world-writable directory (/tmp)
 * is followed only by its owner or where the directory's owner owns it,
 * so that a link another user planted there cannot redirect our output.
 * Applied whatever the sysctl says (it is 0 on some hosts): link_end
 * follows links itself, bypassing the kernel's check. */
static bool link_refused(const struct stat *dir, const struct stat *ln) {
  return (dir->st_mode & S_ISVTX) && (dir->st_mode & S_IWOTH) && ln->st_uid != geteuid() &&
         ln->st_uid != dir->st_uid;
}

typedef enum LinkEnd { LINK_END, LINK_IN_PLACE, LINK_REFUSED } LinkEnd;

/* Follows the symbolic links at path's end as open's O_CREAT does (each
 * link's contents taken from its own directory; the directories on the
 * way are the kernel's): LINK_END, *end the path of the first name that
 * is no link (malloc'ed, missing where the links dangle); LINK_REFUSED,
 * *end the link link_refused refuses (malloc'ed); LINK_IN_PLACE, *end
 * NULL, where the links loop (open fails with ELOOP) or one is in /proc
 * (/dev/stdout leads to /proc/self/fd/1: its contents are no path to
 * rename over, "pipe:[N]" or the name of a file already opened). */
static LinkEnd link_end(const char *path, char **end) {
  struct stat proc, dir, ln;
  bool procfs = !stat("/proc", &proc);
  char *p = strdup(path), to[PATH_MAX];
  if (!p) abort();
  for (int hops = 0; hops <= 40; hops++) { /* Linux's MAXSYMLINKS */
    *end = p;
    if (lstat(p, &ln) || !S_ISLNK(ln.st_mode)) return LINK_END;
    bool known = stat_dir(p, &dir);
    if (known && procfs && dir.st_dev == proc.st_dev) break; /* /proc is one file system */
    if (known && link_refused(&dir, &ln)) return LINK_REFUSED;
    ssize_t n = readlink(p, to, sizeof to);
    if (n < 0 || n == (ssize_t)sizeof to) break;
    const char *slash = strrchr(p, '/');
    size_t dlen = to[0] == '/' || !slash ? 0 : (size_t)(slash - p + 1);
    char *next = malloc(dlen + (size_t)n + 1);
    if (!next) abort();
    memcpy(next, p, dlen);
    memcpy(next + dlen, to, (size_t)n);
    next[dlen + (size_t)n] = 0;
    free(p);
    p = next;
  }
  free(p);
  *end = NULL;
  return LINK_IN_PLACE;
}

/* f's new file beside target (malloc'ed, f's then; NULL: f->path), with
 * old's permission bits (the file replaced: a private 0600 header stays
 * so), else 0666 less the umask. */
static void beside(OutFile *f, char *target, const struct stat *old) {
  const char *t = target ? target : f->path;
  size_t n = strlen(t);
  f->tmp = malloc(n + 8);
  if (!f->tmp) abort();
  memcpy(f->tmp, t, n);
  memcpy(f->tmp + n, ".XXXXXX", 8);
  f->target = target;
  if (old) {
    f->mode = old->st_mode & 0777;
    return;
  }
  mode_t mask = umask(0); /* not thread-safe: read here, before any writer */
  umask(mask);
  f->mode = 0666 & ~mask;
}

int out_file_init(OutFile *f, const char *path) {
  *f = (OutFile){.path = path};
  struct stat st, ln;
  /* Links are walked first, so that a planted one is refused whatever
   * it leads to (a device: /dev/sda) and whatever the sysctl (at 1 the
   * kernel's stat would fail EACCES and open say only "Permission
   * denied"). */
  char *end = NULL;
  bool link = !lstat(path, &ln) && S_ISLNK(ln.st_mode);
  switch (link ? link_end(path, &end) : LINK_END) {
  case LINK_IN_PLACE: return 0;
  case LINK_REFUSED:
    diag_error((Loc){0}, "cannot write %s: the symbolic link %s is in a sticky, world-writable "
               "directory and owned by another user (as fs.protected_symlinks, it is not followed)",
               path, end);
    free(end);
    return -1;
  case LINK_END: break;
  }
  /* Then the kernel decides, following every link as open will: a
   * device, FIFO or pipe (/dev/stdout | cmd) is written in place; a loop
   * (ELOOP) or a link it refuses (EACCES) open diagnoses. */
  bool exists = !stat(path, &st);
  if (exists ? !S_ISREG(st.st_mode) : errno != ENOENT) {
    free(end);
    if (!exists || !S_ISDIR(st.st_mode)) return 0;
    diag_error((Loc){0}, "cannot write %s: %s", path, strerror(EISDIR));
    return -1;
  }
  if (!link && exists) {
    end = strdup(path);
    if (!end) abort();
  }
  beside(f, end, exists ? &st : NULL);
  return 0;
}

/* The name f is written to: its target, else its path. */
static const char *out_name(const OutFile *f) { return f->target ? f->target : f->path; }

bool out_file_same(const OutFile *a, const OutFile *b) {
  const char *x = out_name(a), *y = out_name(b);
  if (!strcmp(x, y)) return true;
  const char *bx = strrchr(x, '/'), *by = strrchr(y, '/');
  if (strcmp(bx ? bx + 1 : x, by ? by + 1 : y)) return false;
  struct stat dx, dy;
  return stat_dir(x, &dx) && stat_dir(y, &dy) && dx.st_dev == dy.st_dev && dx.st_ino == dy.st_ino;
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
  if (rename(f->tmp, out_name(f))) return -1;
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
