/* The MNIST example on a Cortex-M4F with no C library: the object compiled
 * for thumbv7em-none-eabihf needs nothing but itself, the scores are
 * checked against the plain C reference, and the prediction is printed
 * through semihosting. */
#include <stdint.h>

#include "inputs.h"
#include "mnist.h"
#include "semihost.h"

static float image[28][28], weights[784][10], bias[10], scores[10];
static unsigned char temp[MNIST_MAIN_TEMP_BYTES + 1] __attribute__((aligned(64)));

/* Appends the decimal digits of v to *p (no printf without a libc). */
static void put_uint(char **p, uint32_t v) {
  char digits[10];
  int n = 0;
  do {
    digits[n++] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  while (n) *(*p)++ = digits[--n];
}

static void put_str(char **p, const char *s) {
  while (*s) *(*p)++ = *s++;
}

/* x with four decimals, as "-1.2345". */
static void put_fixed(char **p, float x) {
  if (x < 0) {
    *(*p)++ = '-';
    x = -x;
  }
  uint32_t scaled = (uint32_t)(x * 10000.0f + 0.5f);
  put_uint(p, scaled / 10000);
  *(*p)++ = '.';
  for (uint32_t d = 1000; d; d /= 10) *(*p)++ = (char)('0' + scaled / d % 10);
}

int main(void) {
  char line[96], *p;
  draw_seven(image);
  init_weights(weights, bias);
  if (mnist_main(&image[0][0], &weights[0][0], bias, scores, temp) != 0) {
    semihost_puts("mnist_main failed\n");
    return 1;
  }
  float refs[10];
  int best, wrong = check_scores(image, weights, bias, scores, refs, &best);
  for (int d = 0; d < 10; d++) {
    p = line;
    put_str(&p, "score[");
    put_uint(&p, (uint32_t)d);
    put_str(&p, "] = ");
    put_fixed(&p, scores[d]);
    put_str(&p, " (reference ");
    put_fixed(&p, refs[d]);
    put_str(&p, ")\n");
    *p = 0;
    semihost_puts(line);
  }
  p = line;
  put_str(&p, "predicted class: ");
  put_uint(&p, (uint32_t)best);
  put_str(&p, wrong ? "\nscores differ from the reference\n" : "\nall scores match the reference\n");
  *p = 0;
  semihost_puts(line);
  return wrong ? 1 : 0;
}
