/* Runs the model exported from JAX (mlp.h, compiled by shloc) on the input
 * bytes in argv[1] and writes the result bytes to argv[2]: export.py
 * compares them with JAX's own result. */
#include <stdio.h>

#include "mlp.h"

static float x[MLP_MAIN_ARG0_BYTES / sizeof(float)], y[MLP_MAIN_RESULT0_BYTES / sizeof(float)];
static unsigned char temp[MLP_MAIN_TEMP_BYTES + 1] __attribute__((aligned(64)));

static int transfer(const char *path, const char *mode, void *p, size_t n) {
  FILE *f = fopen(path, mode);
  if (!f) return -1;
  size_t done = mode[0] == 'r' ? fread(p, 1, n, f) : fwrite(p, 1, n, f);
  return (fclose(f) || done != n) ? -1 : 0;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s INPUT.bin OUTPUT.bin\n", argv[0]);
    return 2;
  }
  if (transfer(argv[1], "rb", x, sizeof x)) {
    fprintf(stderr, "cannot read %zu bytes from %s\n", sizeof x, argv[1]);
    return 1;
  }
  if (mlp_main(x, y, temp) != 0) {
    fprintf(stderr, "mlp_main failed\n");
    return 1;
  }
  if (transfer(argv[2], "wb", y, sizeof y)) {
    fprintf(stderr, "cannot write %s\n", argv[2]);
    return 1;
  }
  return 0;
}
