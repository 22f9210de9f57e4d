/* The JAX MLP of dynamic_mlp.mlir (symbolic batch b) compiled once without
 * specialization, called at batches 1, 7 and 64 and checked against plain
 * C: y = relu(x @ w1 + b1) @ w2 + b2. The batch is the entry's last
 * parameter (x_dim0 in mlp.h: size 0 of argument x); mlp_main_temp_bytes
 * and mlp_main_result_dims size the scratch and the result for it. */
#include <math.h>
#include <stdio.h>

#include "mlp.h"

enum { IN = 8, HID = 16, OUT = 4, MAX_BATCH = 64 };

/* Scratch for the largest batch; the program says how much each needs. */
static unsigned char temp[1 << 16] __attribute__((aligned(64)));

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

static int check(int batch, const float *w1, const float *b1, const float *w2, const float *b2) {
  static float x[MAX_BATCH * IN], y[MAX_BATCH * OUT], want[MAX_BATCH * OUT];
  int64_t dims[2];
  mlp_main_result_dims(batch, 0, dims);
  int64_t bytes = mlp_main_temp_bytes(batch);
  if (bytes < 0 || bytes > (int64_t)sizeof temp) return 0;
  fill(x, batch * IN, (unsigned)batch);
  int rc = mlp_main(w1, b1, w2, b2, x, y, temp, batch);
  reference(w1, b1, w2, b2, x, batch, want);
  double worst = 0;
  for (int i = 0; i < batch * OUT; i++) {
    double e = fabs((double)y[i] - want[i]);
    worst = e > worst ? e : worst;
  }
  printf("batch %d: result %lldx%lld, temp %lld bytes, status %d, max error %.2g\n", batch,
         (long long)dims[0], (long long)dims[1], (long long)bytes, rc, worst);
  return rc == 0 && worst < 1e-4 && dims[0] == batch && dims[1] == OUT;
}

int main(void) {
  static float w1[IN * HID], b1[HID], w2[HID * OUT], b2[OUT];
  fill(w1, IN * HID, 1);
  fill(b1, HID, 2);
  fill(w2, HID * OUT, 3);
  fill(b2, OUT, 4);
  int ok = check(1, w1, b1, w2, b2) & check(7, w1, b1, w2, b2) & check(64, w1, b1, w2, b2);
  /* The export asserts b >= 1 (status 2); a negative size is rejected (1)
   * before any memory is touched. */
  float none[1];
  int zero = mlp_main(w1, b1, w2, b2, none, none, temp, 0);
  int negative = mlp_main(w1, b1, w2, b2, NULL, NULL, NULL, -1);
  printf("batch 0: status %d (shape assertion), batch -1: status %d\n", zero, negative);
  ok &= zero == 2 && negative == 1;
  puts(ok ? "all batches match the reference" : "MISMATCH");
  return ok ? 0 : 1;
}
