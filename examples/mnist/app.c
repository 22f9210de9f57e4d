/* Calls the compiled MNIST layer like any C function and checks it against
 * a plain C computation of the same layer. */
#include <math.h>
#include <stdio.h>

#include "mnist.h"

static float image[28][28], weights[784][10], bias[10], scores[10];
/* The scratch the generated code needs, owned by the caller. */
static unsigned char temp[MNIST_MAIN_TEMP_BYTES + 1] __attribute__((aligned(64)));

/* A "7": a horizontal bar and a diagonal stroke. */
static void draw_seven(void) {
  for (int c = 6; c < 22; c++) image[5][c] = 1.0f;
  for (int r = 6; r < 24; r++) image[r][21 - (r - 6) * 3 / 4] = 1.0f;
}

/* Deterministic weights: each digit's column likes a different region. */
static void init_weights(void) {
  for (int p = 0; p < 784; p++)
    for (int d = 0; d < 10; d++)
      weights[p][d] = (float)(((p * 7 + d * 13) % 17) - 8) / 64.0f;
  for (int d = 0; d < 10; d++) bias[d] = (float)d / 10.0f - 0.5f;
}

int main(void) {
  draw_seven();
  init_weights();
  if (mnist_main(&image[0][0], &weights[0][0], bias, scores, temp) != 0) {
    fprintf(stderr, "mnist_main failed\n");
    return 1;
  }
  int best = 0, wrong = 0;
  for (int d = 0; d < 10; d++) {
    float ref = bias[d];
    for (int p = 0; p < 784; p++) ref += image[p / 28][p % 28] * weights[p][d];
    ref = ref > 0 ? ref : 0;
    if (fabsf(ref - scores[d]) > 1e-4f * (1 + fabsf(ref))) wrong++;
    if (scores[d] > scores[best]) best = d;
    printf("score[%d] = %8.4f (reference %8.4f)\n", d, scores[d], ref);
  }
  printf("predicted class: %d\n", best);
  if (wrong) {
    printf("%d scores differ from the reference\n", wrong);
    return 1;
  }
  printf("all scores match the reference\n");
  return 0;
}
