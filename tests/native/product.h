/* product.h: plain C's product for the native skinny tests: whether
 * r = x * w, x (m x k), w (k x n) and r (m x n) row-major, f32 or f64
 * (f64 nonzero). With small integer data every sum is exact, so r must
 * equal it bit for bit. */
#ifndef SHLOC_TESTS_NATIVE_PRODUCT_H
#define SHLOC_TESTS_NATIVE_PRODUCT_H

static double product_get(const void *p, long i, int f64) {
  return f64 ? ((const double *)p)[i] : ((const float *)p)[i];
}

static int product_matches(const void *x, const void *w, const void *r, int m, int k, int n,
                           int f64) {
  int ok = 1;
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      double s = 0;
      for (int q = 0; q < k; q++)
        s += product_get(x, (long)i * k + q, f64) * product_get(w, (long)q * n + j, f64);
      ok &= product_get(r, (long)i * n + j, f64) == s;
    }
  return ok;
}

#endif
