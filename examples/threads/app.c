/* Runs a model compiled with --threads=2 (the object calls the runtime's
 * parallel-for over its team of threads) and checks it against plain C. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "mlp.h"

enum { B = 256, D = 512, O = 64 };
static float x[B][D], w1[D][D], w2[D][O], y[B][O], h[B][D];
static unsigned char temp[MLP_MAIN_TEMP_BYTES + 1] __attribute__((aligned(64)));

static float rnd(unsigned *s) {
  *s = *s * 1664525u + 1013904223u;
  return (float)(*s >> 8) / 16777216.0f - 0.5f;
}

int main(void) {
  unsigned seed = 42;
  for (int i = 0; i < B; i++)
    for (int j = 0; j < D; j++) x[i][j] = rnd(&seed);
  for (int i = 0; i < D; i++)
    for (int j = 0; j < D; j++) w1[i][j] = rnd(&seed) / 8;
  for (int i = 0; i < D; i++)
    for (int j = 0; j < O; j++) w2[i][j] = rnd(&seed) / 8;
  if (mlp_main(&x[0][0], &w1[0][0], &w2[0][0], &y[0][0], temp) != 0) return 1;
  for (int i = 0; i < B; i++)
    for (int j = 0; j < D; j++) {
      double s = 0;
      for (int k = 0; k < D; k++) s += (double)x[i][k] * w1[k][j];
      h[i][j] = (float)tanh(s);
    }
  double worst = 0;
  for (int i = 0; i < B; i++)
    for (int j = 0; j < O; j++) {
      double s = 0;
      for (int k = 0; k < D; k++) s += (double)h[i][k] * w2[k][j];
      double err = fabs(1 / (1 + exp(-s)) - y[i][j]);
      if (err > worst) worst = err;
    }
  printf("y[0][0..3] = %f %f %f %f, max error vs reference %.2g\n", y[0][0], y[0][1],
         y[0][2], y[0][3], worst);
  if (worst > 1e-4) {
    printf("results differ from the reference\n");
    return 1;
  }
  printf("results match the reference\n");
  return 0;
}
