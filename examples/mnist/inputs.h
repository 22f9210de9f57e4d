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

/* The layer in plain C: relu(bias + image . weights[:, d]). */
static float reference_score(float image[28][28], float weights[784][10], const float bias[10],
                             int d) {
  float ref = bias[d];
  for (int p = 0; p < 784; p++) ref += image[p / 28][p % 28] * weights[p][d];
  return ref > 0 ? ref : 0;
}

/* Whether a score is within the tolerance of its reference (the order of
 * the 784 additions may differ). */
static int score_matches(float got, float ref) {
  float diff = got > ref ? got - ref : ref - got;
  float mag = ref > 0 ? ref : -ref;
  return diff <= 1e-4f * (1 + mag);
}

#endif
