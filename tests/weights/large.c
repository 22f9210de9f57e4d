/* large.c: runs the large-constant model of tests/weights/weights.py
 * (`large`) and checks it against plain C: a 512 x 512 weight matrix
 * written as a hex literal (1 MiB, packed into GEMM panels), a bias of
 * 512 floats (row-major), and a splat of ones as the B operand of a second
 * product (packed from one element), all in the object's weights blob.
 * With -DWEIGHTS_FILE=path the weights file is loaded first. Every product
 * and sum is exact in f32, so results must be equal. Prints "ok". */
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "large.h"

enum { M = 16, K = 512, N = 512 };

/* As weights.py writes them. */
static float weight(int i, int j) { return (float)((i * 7 + j * 13) % 17 - 8) * 0.125f; }
static float bias(int j) { return (float)(j % 9 - 4); }
static float input(int r, int k) { return (float)((r * 3 + k * 5) % 9 - 4) * 0.5f; }

#ifdef WEIGHTS_FILE
static int load(void) {
  int fd = open(WEIGHTS_FILE, O_RDONLY);
  struct stat st;
  if (fd < 0 || fstat(fd, &st)) return perror(WEIGHTS_FILE), 1;
  void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (p == MAP_FAILED) return perror("mmap"), 1;
  return large_load_weights(p, (size_t)st.st_size) != 0;
}
#endif

int main(void) {
#ifdef WEIGHTS_FILE
  if (load()) return fprintf(stderr, "loading the weights failed\n"), 1;
#endif
  static float x[M][K], y[M][N], s[M][N];
  static unsigned char temp[LARGE_MAIN_TEMP_BYTES + 1] __attribute__((aligned(64)));
  for (int r = 0; r < M; r++)
    for (int k = 0; k < K; k++) x[r][k] = input(r, k);
  if (large_main(&x[0][0], &y[0][0], &s[0][0], temp)) return fprintf(stderr, "model failed\n"), 1;
  int wrong = 0;
  for (int r = 0; r < M; r++)
    for (int j = 0; j < N; j++) {
      double want = bias(j), sum = 0;
      for (int k = 0; k < K; k++) want += (double)x[r][k] * weight(k, j), sum += x[r][k];
      if ((float)want != y[r][j] && wrong++ < 5)
        fprintf(stderr, "y[%d][%d] = %g, want %g\n", r, j, y[r][j], want);
      if ((float)sum != s[r][j] && wrong++ < 5)
        fprintf(stderr, "s[%d][%d] = %g, want %g\n", r, j, s[r][j], sum);
    }
  puts(wrong ? "wrong" : "ok");
  return wrong != 0;
}
