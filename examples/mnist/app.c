/* Calls the compiled MNIST layer like any C function and checks it against
 * a plain C computation of the same layer. */
#include <stdio.h>

#include "inputs.h"
#include "mnist.h"

static float image[28][28], weights[784][10], bias[10], scores[10];
/* The scratch the generated code needs, owned by the caller. */
static unsigned char temp[MNIST_MAIN_TEMP_BYTES + 1] __attribute__((aligned(64)));

int main(void) {
  draw_seven(image);
  init_weights(weights, bias);
  if (mnist_main(&image[0][0], &weights[0][0], bias, scores, temp) != 0) {
    fprintf(stderr, "mnist_main failed\n");
    return 1;
  }
  float refs[10];
  int best, wrong = check_scores(image, weights, bias, scores, refs, &best);
  for (int d = 0; d < 10; d++)
    printf("score[%d] = %8.4f (reference %8.4f)\n", d, scores[d], refs[d]);
  printf("predicted class: %d\n", best);
  if (wrong) {
    printf("%d scores differ from the reference\n", wrong);
    return 1;
  }
  printf("all scores match the reference\n");
  return 0;
}
