/* app.c: runs the weights test model (tests/weights/weights.py) and checks
 * it against plain C. With -DWEIGHTS_FILE=path it maps the weights file
 * and hands it to the object's loader first, after checking that the
 * loader refuses a misaligned pointer, a wrong size and a file whose
 * header is not the object's. Prints "ok" and exits 0 when all agree. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model.h"

enum { M = 16, K = 64, N = 16 };

/* The weights model.mlir was written with (weights.py: weight()). */
static float weight(int i, int j) { return (float)((i * 16 + j) % 7 - 3) * 0.25f; }
static float bias(int j) { return (float)(j % 5) - 2.0f; }

#ifdef WEIGHTS_FILE
static int load(void) {
  int fd = open(WEIGHTS_FILE, O_RDONLY);
  struct stat st;
  if (fd < 0 || fstat(fd, &st)) return perror(WEIGHTS_FILE), 1;
  size_t size = (size_t)st.st_size;
  /* mmap gives page-aligned bytes: 64-byte aligned as the loader wants */
  unsigned char *p = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (p == MAP_FAILED) return perror("mmap"), 1;
  static unsigned char copy[1 << 16] __attribute__((aligned(64)));
  if (size + 64 > sizeof copy) return fprintf(stderr, "weights file too big\n"), 1;
  memcpy(copy + 1, p, size);
  int bad = model_load_weights(copy + 1, size) != 1;       /* misaligned */
  bad |= model_load_weights(p, size - 64) != 2;             /* short */
  memcpy(copy, p, size);
  copy[24] ^= 1;                                            /* another fingerprint */
  bad |= model_load_weights(copy, size) != 3;
  if (bad) return fprintf(stderr, "the loader accepted bad weights\n"), 1;
  return model_load_weights(p, size) != 0;
}
#endif

int main(void) {
#ifdef WEIGHTS_FILE
  if (load()) return fprintf(stderr, "loading the weights failed\n"), 1;
#endif
  static float x[M][K], y[M][N], total;
  static unsigned char temp[MODEL_MAIN_TEMP_BYTES + 1] __attribute__((aligned(64)));
  for (int r = 0; r < M; r++)
    for (int k = 0; k < K; k++) x[r][k] = (float)((r * 31 + k * 7) % 11) * 0.5f - 2.0f;
  if (model_main(&x[0][0], &y[0][0], &total, temp)) return fprintf(stderr, "model failed\n"), 1;
  double sum = 0;
  int wrong = 0;
  for (int r = 0; r < M; r++)
    for (int j = 0; j < N; j++) {
      double s = bias(j);
      for (int k = 0; k < K; k++) s += (double)x[r][k] * weight(k, j);
      s = s > 0 ? s : 0; /* every product and sum is exact in f32 */
      sum += s;
      if ((float)s != y[r][j]) wrong++, fprintf(stderr, "y[%d][%d] = %g, want %g\n", r, j, y[r][j], s);
    }
  if ((float)sum != total) wrong++, fprintf(stderr, "total = %g, want %g\n", total, sum);
  puts(wrong ? "wrong" : "ok");
  return wrong != 0;
}
