/* Unit tests of codegen/outfile.c (OutFile) in a directory of their own:
 * a new file discarded (codegen's object file where LLVM dropped the
 * blob) leaves nothing and can be created again, the second one renamed
 * into place; a chain of dangling links (relative, then absolute) leads
 * to the missing file at its end, which the commit creates, the links
 * kept; a loop of links and a FIFO are written in place (tmp NULL), and
 * so are a pipe and a regular file reached through /proc's links
 * (/proc/self/fd/N, /dev/fd/N: /dev/stdout); a link another user
 * planted in a sticky, world-writable directory is refused (as root
 * only: chowning the link needs it), whatever it leads to (a device, a
 * FIFO) and whatever fs.protected_symlinks says (stat below stands in
 * for the kernel at 1); a directory is an error; out_file_same sees one
 * name however spelt or reached. Ends with `N passed, N failed`. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"
#include "codegen/codegen_api.h"

static char dir[] = "/tmp/shloc-outfile-XXXXXX";

/* fs.protected_symlinks=1 (the usual default; 0 on some hosts), standing
 * in for the kernel without touching the sysctl: while set, this stat
 * (it replaces libc's for outfile.c's calls) fails EACCES where a link
 * on its way is one the tests planted (owned by 54321) as the kernel
 * then does; at 0 it is libc's stat. */
static bool kernel_protects;

int stat(const char *restrict path, struct stat *restrict st) {
  char p[PATH_MAX], to[PATH_MAX];
  snprintf(p, sizeof p, "%s", path);
  struct stat ln;
  for (int hops = 0; kernel_protects && hops < 40 && !lstat(p, &ln) && S_ISLNK(ln.st_mode);
       hops++) {
    if (ln.st_uid == 54321) {
      errno = EACCES;
      return -1;
    }
    ssize_t n = readlink(p, to, sizeof to - 1);
    if (n < 0) break;
    to[n] = 0;
    char *slash = strrchr(p, '/');
    if (to[0] == '/' || !slash) snprintf(p, sizeof p, "%s", to);
    else snprintf(slash + 1, sizeof p - (size_t)(slash + 1 - p), "%s", to);
  }
  return fstatat(AT_FDCWD, path, st, 0);
}

static char *at(const char *name) {
  static char p[PATH_MAX];
  snprintf(p, sizeof p, "%s/%s", dir, name);
  return p;
}

/* The names in dir and sub (NULL: dir itself), sorted, space-separated. */
static const char *listing(const char *sub) {
  static char s[1024];
  struct dirent **e;
  int n = scandir(sub ? at(sub) : dir, &e, NULL, alphasort);
  s[0] = 0;
  if (n < 0) return s;
  for (int i = 0; i < n; i++) {
    if (e[i]->d_name[0] != '.') {
      if (s[0]) strcat(s, " ");
      strcat(s, e[i]->d_name);
    }
    free(e[i]);
  }
  free(e);
  return s;
}

static const char *contents(const char *path) {
  static char s[64];
  int fd = open(path, O_RDONLY);
  ssize_t n = fd >= 0 ? read(fd, s, sizeof s - 1) : -1;
  if (fd >= 0) close(fd);
  s[n > 0 ? n : 0] = 0;
  return s;
}

static void put(OutFile *f, const char *text) {
  int fd = out_file_create(f);
  EXPECT(fd >= 0);
  EXPECT(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
  close(fd);
}

static void discarded_then_created(void) {
  OutFile f;
  EXPECT(!out_file_init(&f, at("a.o")));
  put(&f, "first");
  out_file_discard(&f);
  EXPECT_STR(listing(NULL), "");
  put(&f, "second");
  EXPECT(!out_file_commit(&f));
  out_file_free(&f);
  EXPECT_STR(listing(NULL), "a.o");
  EXPECT_STR(contents(at("a.o")), "second");
}

static void dangling_chain(void) {
  EXPECT(!mkdir(at("sub"), 0777));
  char end[PATH_MAX];
  snprintf(end, sizeof end, "%s", at("sub/end.o"));
  EXPECT(!symlink("sub/mid.o", at("link.o")));
  EXPECT(!symlink(end, at("sub/mid.o")));
  OutFile f;
  out_file_init(&f, at("link.o"));
  EXPECT_STR(f.target, end);
  put(&f, "object");
  EXPECT(!out_file_commit(&f));
  out_file_free(&f);
  EXPECT_STR(listing("sub"), "end.o mid.o");
  EXPECT_STR(contents(at("link.o")), "object");
  struct stat st;
  EXPECT(!lstat(at("link.o"), &st) && S_ISLNK(st.st_mode));
}

static void in_place(void) {
  EXPECT(!symlink("loop2.o", at("loop1.o")));
  EXPECT(!symlink("loop1.o", at("loop2.o")));
  EXPECT(!mkfifo(at("fifo.o"), 0666));
  OutFile f;
  out_file_init(&f, at("loop1.o"));
  EXPECT(!f.tmp);
  out_file_free(&f);
  out_file_init(&f, at("fifo.o"));
  EXPECT(!f.tmp);
  out_file_free(&f);
}

/* An open file the path names through /proc's links (-o /dev/stdout
 * into a pipe or a shell's > redirection): written in place, nothing
 * renamed over the link's made-up target (it was "pipe:[N]"). */
static void open_files_in_place(void) {
  int fds[2];
  EXPECT(!pipe(fds));
  int reg = open(at("redirected.o"), O_WRONLY | O_CREAT | O_TRUNC, 0666);
  EXPECT(reg >= 0);
  char p[64];
  const char *forms[] = {"/proc/self/fd/%d", "/dev/fd/%d"};
  for (int i = 0; i < 2; i++)
    for (int k = 0; k < 2; k++) {
      snprintf(p, sizeof p, forms[i], k ? reg : fds[1]);
      OutFile f;
      EXPECT(!out_file_init(&f, p));
      EXPECT(!f.tmp);
      out_file_free(&f);
    }
  close(fds[0]);
  close(fds[1]);
  close(reg);
}

/* The kernel's fs.protected_symlinks rule, applied whatever the sysctl:
 * a link in a sticky, world-writable directory owned by neither us nor
 * the directory's owner is not followed (out_file_init: -1, diagnosed),
 * one we own there is. */
static void protected_link(void) {
  EXPECT(!mkdir(at("sticky"), 0777));
  EXPECT(!chmod(at("sticky"), 01777));
  EXPECT(!symlink("planted.o", at("sticky/theirs.o")));
  EXPECT(!symlink("mine-end.o", at("sticky/mine.o")));
  OutFile f;
  EXPECT(!out_file_init(&f, at("sticky/mine.o")));
  EXPECT(f.tmp != NULL);
  out_file_free(&f);
  if (lchown(at("sticky/theirs.o"), 54321, 54321)) {
    printf("NOTICE: not root: the refused link not checked\n");
    return;
  }
  EXPECT(out_file_init(&f, at("sticky/theirs.o")) == -1);
  EXPECT(!f.tmp);
  EXPECT(!symlink("sticky/theirs.o", at("to-theirs.o"))); /* also further down a chain */
  EXPECT(out_file_init(&f, at("to-theirs.o")) == -1);
  /* and where it leads to a file that exists (the kernel's stat followed it) */
  int fd = open(at("victim"), O_WRONLY | O_CREAT, 0600);
  EXPECT(fd >= 0);
  close(fd);
  EXPECT(!symlink("../victim", at("sticky/to-victim.o")));
  EXPECT(!lchown(at("sticky/to-victim.o"), 54321, 54321));
  EXPECT(out_file_init(&f, at("sticky/to-victim.o")) == -1);
  EXPECT(!f.tmp);
  /* and where it leads to a device or FIFO (stat said "in place") */
  EXPECT(!symlink("/dev/null", at("sticky/to-dev.o")));
  EXPECT(!symlink("../fifo.o", at("sticky/to-fifo.o")));
  EXPECT(!lchown(at("sticky/to-dev.o"), 54321, 54321));
  EXPECT(!lchown(at("sticky/to-fifo.o"), 54321, 54321));
  const char *planted[] = {"sticky/theirs.o", "to-theirs.o", "sticky/to-victim.o",
                           "sticky/to-dev.o", "sticky/to-fifo.o"};
  /* the same refusal whatever the sysctl (at 1 stat fails EACCES) */
  for (int k = 0; k < 2; k++) {
    kernel_protects = k;
    for (size_t i = 0; i < sizeof planted / sizeof *planted; i++) {
      EXPECT(out_file_init(&f, at(planted[i])) == -1);
      EXPECT(!f.tmp);
    }
  }
  kernel_protects = false;
}

/* A directory is no file to write: an error of its own (it was "written
 * in place" and refused as a device). */
static void directory(void) {
  EXPECT(!mkdir(at("adir"), 0777));
  OutFile f;
  EXPECT(out_file_init(&f, at("adir")) == -1);
  EXPECT(!f.tmp);
}

static void same_name(void) {
  EXPECT(!mkdir(at("same"), 0777));
  EXPECT(!symlink("./c.bin", at("same/link.o")));
  /* OutFile keeps the path: one buffer each */
  char paths[4][PATH_MAX];
  const char *names[] = {"c.bin", "../same/./c.bin", "link.o", "c.h"};
  for (int i = 0; i < 4; i++) snprintf(paths[i], PATH_MAX, "%s/same/%s", dir, names[i]);
  OutFile a, b, c, h;
  EXPECT(!out_file_init(&a, paths[0]));
  EXPECT(!out_file_init(&b, paths[1]));
  EXPECT(!out_file_init(&c, paths[2]));
  EXPECT(!out_file_init(&h, paths[3]));
  EXPECT(out_file_same(&a, &b));
  EXPECT(out_file_same(&c, &a));
  EXPECT(!out_file_same(&a, &h));
  OutFile *all[] = {&a, &b, &c, &h};
  for (int i = 0; i < 4; i++) out_file_free(all[i]);
}

int main(void) {
  if (!mkdtemp(dir)) return 1;
  discarded_then_created();
  dangling_chain();
  in_place();
  open_files_in_place();
  protected_link();
  directory();
  same_name();
  char cmd[PATH_MAX + 16];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd)) printf("NOTICE: %s not removed\n", dir);
  return unit_report();
}
