/* Unit tests of codegen/outfile.c (OutFile) in a directory of their own:
 * a new file discarded (codegen's object file where LLVM dropped the
 * blob) leaves nothing and can be created again, the second one renamed
 * into place; a chain of dangling links (relative, then absolute) leads
 * to the missing file at its end, which the commit creates, the links
 * kept; a loop of links and a FIFO are written in place (tmp NULL).
 * Ends with `N passed, N failed`. */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"
#include "codegen/codegen_api.h"

static char dir[] = "/tmp/shloc-outfile-XXXXXX";

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
  out_file_init(&f, at("a.o"));
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

int main(void) {
  if (!mkdtemp(dir)) return 1;
  discarded_then_created();
  dangling_chain();
  in_place();
  char cmd[PATH_MAX + 16];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd)) printf("NOTICE: %s not removed\n", dir);
  return unit_report();
}
