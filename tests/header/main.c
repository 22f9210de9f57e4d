/* Uses the generated header as a C99 program would: entry points, sizes
 * and the descriptor table. */
#include <stdio.h>
#include <string.h>

#include "multi.h"

static unsigned char temp[HDR_ADD3_TEMP_BYTES + HDR_STATS_TEMP_BYTES + 64] __attribute__((aligned(64)));

int main(void) {
  int32_t a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {10, 20, 30, 40, 50, 60}, c[6];
  double x[4] = {1.5, 2.5, -1, 4}, s, n[4];
  if (hdr_add3(a, b, c, temp) != 0 || hdr_stats(x, &s, n, temp) != 0) return 1;
  int bad = 0;
  for (int i = 0; i < 6; i++) bad |= c[i] != a[i] + 2 * b[i];
  bad |= s != 7.0 || n[3] != -4.0;
  bad |= HDR_ADD3_ARG0_BYTES != 24 || HDR_STATS_RESULT0_BYTES != 8;
  bad |= HDR_ADD3_NUM_ARGS != 2 || HDR_STATS_NUM_RESULTS != 2;
  printf("c = %d %d %d %d %d %d, sum = %g, bad = %d\n", c[0], c[1], c[2], c[3], c[4],
         c[5], s, bad);
  return bad;
}
