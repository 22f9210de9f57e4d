/* The install test's application: calls dense.mlir compiled with
 * --threads=2 (so it links the installed runtime) and compares every
 * result with plain C. Prints "dense: N values match plain C". */
#include <math.h>
#include <stdio.h>

#include "dense.h"

enum { M = 512, K = 256, N = 128 };
static float x[M][K], w[K][N], b[N], y[M][N];
static unsigned char temp[DENSE_MAIN_TEMP_BYTES + 1] __attribute__((aligned(64)));

/* Small integers scaled by a power of two: every product and partial sum
 * is exact in f32, so any summation order gives the same bits. */
static float value(int i, int j, int salt) {
  return (float)((i * 7 + j * 3 + salt) % 11 - 5) / 8.0f;
}

int main(void) {
  for (int i = 0; i < M; i++)
    for (int k = 0; k < K; k++) x[i][k] = value(i, k, 1);
  for (int k = 0; k < K; k++)
    for (int j = 0; j < N; j++) w[k][j] = value(k, j, 2);
  for (int j = 0; j < N; j++) b[j] = value(j, 0, 3);
  if (dense_main(&x[0][0], &w[0][0], b, &y[0][0], temp) != 0) {
    printf("dense_main failed\n");
    return 1;
  }
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float s = b[j];
      for (int k = 0; k < K; k++) s += x[i][k] * w[k][j];
      s = s > 0 ? s : 0;
      if (s != y[i][j]) {
        printf("y[%d][%d] = %g, plain C %g\n", i, j, y[i][j], s);
        return 1;
      }
    }
  printf("dense: %d values match plain C\n", M * N);
  return 0;
}
