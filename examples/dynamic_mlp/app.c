/* The JAX MLP of dynamic_mlp.mlir (symbolic batch b) compiled for batches
 * 1, 7 and 64 (shloc --input-shapes) and checked against plain C:
 * y = relu(x @ w1 + b1) @ w2 + b2. */
#include <math.h>
#include <stdio.h>

#include "mlp_b1.h"
#include "mlp_b64.h"
#include "mlp_b7.h"

enum { IN = 8, HID = 16, OUT = 4, MAX_BATCH = 64 };

/* Scratch for every batch's entry (each needs at most the largest). */
#define MAX3(a, b, c) ((a) > (b) ? ((a) > (c) ? (a) : (c)) : ((b) > (c) ? (b) : (c)))
static unsigned char temp[MAX3(MLP_B1_MAIN_TEMP_BYTES, MLP_B7_MAIN_TEMP_BYTES,
                               MLP_B64_MAIN_TEMP_BYTES) + 1] __attribute__((aligned(64)));

typedef int (*Mlp)(const float *, const float *, const float *, const float *, const float *,
                   float *, void *);

/* Deterministic values in [-1, 1). */
static void fill(float *v, int n, unsigned seed) {
  for (int i = 0; i < n; i++) {
    seed = seed * 1103515245u + 12345u;
    v[i] = (float)((seed >> 8) & 0xffff) / 32768.0f - 1.0f;
  }
}

static void reference(const float *w1, const float *b1, const float *w2, const float *b2,
                      const float *x, int batch, float *y) {
  for (int r = 0; r < batch; r++) {
    float h[HID];
    for (int j = 0; j < HID; j++) {
      float s = b1[j];
      for (int k = 0; k < IN; k++) s += x[r * IN + k] * w1[k * HID + j];
      h[j] = s > 0 ? s : 0;
    }
    for (int j = 0; j < OUT; j++) {
      float s = b2[j];
      for (int k = 0; k < HID; k++) s += h[k] * w2[k * OUT + j];
      y[r * OUT + j] = s;
    }
  }
}

static int check(const char *name, Mlp f, int batch, const float *w1,
                 const float *b1, const float *w2, const float *b2) {
  static float x[MAX_BATCH * IN], y[MAX_BATCH * OUT], want[MAX_BATCH * OUT];
  fill(x, batch * IN, (unsigned)batch);
  int rc = f(w1, b1, w2, b2, x, y, temp);
  reference(w1, b1, w2, b2, x, batch, want);
  double worst = 0;
  for (int i = 0; i < batch * OUT; i++) {
    double e = fabs((double)y[i] - want[i]);
    worst = e > worst ? e : worst;
  }
  printf("%s: batch %d, status %d, max error %.2g\n", name, batch, rc, worst);
  return rc == 0 && worst < 1e-4;
}

int main(void) {
  static float w1[IN * HID], b1[HID], w2[HID * OUT], b2[OUT];
  fill(w1, IN * HID, 1);
  fill(b1, HID, 2);
  fill(w2, HID * OUT, 3);
  fill(b2, OUT, 4);
  int ok = check("mlp_b1", mlp_b1_main, 1, w1, b1, w2, b2);
  ok &= check("mlp_b7", mlp_b7_main, 7, w1, b1, w2, b2);
  ok &= check("mlp_b64", mlp_b64_main, 64, w1, b1, w2, b2);
  puts(ok ? "all batches match the reference" : "MISMATCH");
  return ok ? 0 : 1;
}
