/* i686_gemm.mlir compiled for 32-bit x86 (tests/run.py native_i686), run
 * as a static freestanding i386 program: no i386 libc is needed, and an
 * x86-64 Linux kernel runs it. Each product is compared with a plain C
 * one; the inputs are small integers, so every sum is exact in f32 and the
 * order of the additions does not matter. The exit status is 0, or has
 * bit p set for each product p that differs (32: the entry failed). */
#include "i686_gemm.h"

static float a[5 * 37], b[37 * 45], x[37], t[3 * 37], w[29 * 37], c[40 * 33], d[33 * 50];
static float r0[5 * 45], r1[45], r2[3 * 29], r3[40 * 50];
static _Alignas(64) unsigned char temp[I686_GEMM_MAIN_TEMP_BYTES];

static void fill(float *v, int n, int seed) {
  for (int i = 0; i < n; i++) v[i] = (float)((i * 7 + seed) % 13 - 6);
}

/* Whether r (m x n) differs from p times q, p m x k and q k x n (element
 * (k, j) at q[k * qk + j * qn]). */
static int differs(const float *p, const float *q, int qk, int qn, const float *r, int m, int k,
                   int n) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float s = 0;
      for (int l = 0; l < k; l++) s += p[i * k + l] * q[l * qk + j * qn];
      if (s != r[i * n + j]) return 1;
    }
  return 0;
}

static void exit_with(int status) {
  __asm__ volatile("int $0x80" : : "a"(1), "b"(status)); /* exit(2) */
  for (;;) {
  }
}

void start(void) {
  fill(a, 5 * 37, 1);
  fill(b, 37 * 45, 2);
  fill(x, 37, 3);
  fill(t, 3 * 37, 4);
  fill(w, 29 * 37, 5);
  fill(c, 40 * 33, 6);
  fill(d, 33 * 50, 7);
  if (i686_gemm_main(a, b, x, t, w, c, d, r0, r1, r2, r3, temp)) exit_with(32);
  exit_with(differs(a, b, 45, 1, r0, 5, 37, 45) | differs(x, b, 45, 1, r1, 1, 37, 45) << 1 |
            differs(t, w, 1, 37, r2, 3, 37, 29) << 2 | differs(c, d, 50, 1, r3, 40, 33, 50) << 3);
}

/* The kernel enters _start with the stack 16-byte aligned and no return
 * address: align it and call, as the i386 ABI has it at a call. */
__asm__(".globl _start\n_start:\n  andl $-16, %esp\n  call start\n");
