/* softfloat_main.c: runs softfloat.mlir (tests/baremetal/softfloat.py) on a
 * Cortex-M4F, whose FPU has no f64 arithmetic and no rounding
 * instructions, so every result comes from shloc's inline integer and
 * soft-float code. Prints each result element's bits in hex, one per line,
 * through semihosting; softfloat.py compares them with Python's. */
#include <stdint.h>

#include "inputs.h" /* written by softfloat.py: N, x64, y64, x32 (unions) */
#include "semihost.h"
#include "softfloat.h"

static double r64[7][N];
static float r32[4][N];
static unsigned char temp[SF_MAIN_TEMP_BYTES + 1] __attribute__((aligned(64)));

static void put_hex(uint64_t v, int digits) {
  char line[20], *p = line;
  for (int i = digits - 1; i >= 0; i--) *p++ = "0123456789abcdef"[(v >> (4 * i)) & 15];
  *p++ = '\n';
  *p = 0;
  semihost_puts(line);
}

int main(void) {
  if (sf_main(&x64[0].d, &y64[0].d, &x32[0].f, r64[0], r64[1],
              r64[2], r64[3], r64[4], r64[5], r64[6], r32[0], r32[1], r32[2], r32[3], temp)) {
    semihost_puts("sf_main failed\n");
    return 1;
  }
  for (int k = 0; k < 7; k++)
    for (int i = 0; i < N; i++) {
      union { double d; uint64_t u; } b = {r64[k][i]};
      put_hex(b.u, 16);
    }
  for (int k = 0; k < 4; k++)
    for (int i = 0; i < N; i++) {
      union { float f; uint32_t u; } b = {r32[k][i]};
      put_hex(b.u, 8);
    }
  return 0;
}
