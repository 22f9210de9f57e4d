/* inputs.h: the MNIST example's inputs and its plain C reference, shared
 * by the host program (app.c) and the Cortex-M one (../cortex-m/main.c).
 * Needs no library: the reference uses only + * and comparisons. */
#ifndef MNIST_INPUTS_H
#define MNIST_INPUTS_H

/* A "7": a horizontal bar and a diagonal stroke. */
static void draw_seven(float image[28][28]) {
  for (int c = 6; c < 22; c++) image[5][c] = 1.0f;
  for (int r = 6; r < 24; r++) image[r][21 - (r - 6) * 3 / 4] = 1.0f;
}

/* Deterministic weights: each digit's column likes a different region. */
static void init_weights(float weights[784][10], float bias[10]) {
  for (int p = 0; p < 784; p++)
    for (int d = 0; d < 10; d++)
      weights[p][d] = (float)(((p * 7 + d * 13) % 17) - 8) / 64.0f;
  for (int d = 0; d < 10; d++) bias[d] = (float)d / 10.0f - 0.5f;
}

/* Compares the scores with the layer in plain C, relu(bias + image .
 * weights[:, d]), within a tolerance (the order of the 784 additions may
 * differ): fills refs, sets *best to the predicted class and returns how
 * many scores differ. */
static int check_scores(float image[28][28], float weights[784][10], const float bias[10],
                        const float scores[10], float refs[10], int *best) {
  int wrong = 0;
  *best = 0;
  for (int d = 0; d < 10; d++) {
    float ref = bias[d];
    for (int p = 0; p < 784; p++) ref += image[p / 28][p % 28] * weights[p][d];
    refs[d] = ref > 0 ? ref : 0;
    float diff = scores[d] > refs[d] ? scores[d] - refs[d] : refs[d] - scores[d];
    wrong += diff > 1e-4f * (1 + refs[d]);
    if (scores[d] > scores[*best]) *best = d;
  }
  return wrong;
}

#endif
