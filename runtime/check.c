/* check.c: the check ops of the conformance protocol, called by generated
 * code built with allow_checks (shloc check). Semantics follow
 * ../shared/conformance/README.md, which describes what the upstream
 * reference interpreter does (stablehlo/tests/CheckOps.cpp).
 *
 * The last failure and the number of checks run are thread-local: the
 * generated entry returns non-zero when a check fails, and the caller on the
 * same thread then reads the reason. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "elem.h"
#include "shlort.h"

static _Thread_local char last_failure[512];
static _Thread_local int64_t check_count;

const char *shlort_check_last_failure(void) { return last_failure; }

void shlort_check_reset(void) {
  last_failure[0] = 0;
  check_count = 0;
  shlort_probe_reset();
}

int64_t shlort_check_count(void) { return check_count; }

int32_t shlort_check_fail(int32_t status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(last_failure, sizeof last_failure, fmt, ap);
  va_end(ap);
  return status;
}


static int32_t unsupported(const char *check, int32_t elem) {
  return shlort_check_fail(SHLORT_UNSUPPORTED, "%s: unsupported element type %d", check,
                (int)elem);
}

/* Records "<check>: element i: got A expected E<detail>". */
static int32_t mismatch(const char *check, int32_t elem, const shlort_elem_kind *k,
                        const void *actual, const void *expected, int64_t i,
                        const char *detail) {
  char a[96], e[96];
  int64_t size = (int64_t)k->bytes * k->parts;
  shlort_format_elem(a, sizeof a, elem, (const char *)actual + i * size);
  shlort_format_elem(e, sizeof e, elem, (const char *)expected + i * size);
  return shlort_check_fail(SHLORT_CHECK_FAILED, "%s: element %" PRId64 ": got %s expected %s%s",
                check, i, a, e, detail);
}

static bool is_float(const shlort_elem_kind *k) { return k->cls == 'f' || k->cls == 'c'; }

/* Exact equality of one scalar: bitwise, except that NaNs are all equal
 * and booleans compare by truth. */
static bool scalar_eq(const shlort_elem_kind *k, uint64_t a, uint64_t e) {
  if (k->cls == 'b') return (a != 0) == (e != 0);
  if (a == e) return true;
  return is_float(k) && shlort_is_nan(k, a) && shlort_is_nan(k, e);
}

/* Whether scalar i of the two buffers differs in some part. */
static bool elem_differs(const shlort_elem_kind *k, const void *a, const void *e,
                         int64_t i) {
  for (int j = 0; j < k->parts; j++) {
    int64_t s = i * k->parts + j;
    if (!scalar_eq(k, shlort_load_bits(a, s, k->bytes), shlort_load_bits(e, s, k->bytes)))
      return true;
  }
  return false;
}

int32_t shlort_equal(int32_t elem, const void *a, const void *b, int64_t n) {
  shlort_elem_kind k;
  if (shlort_elem_kind_of(elem, &k)) return 0;
  for (int64_t i = 0; i < n; i++)
    if (elem_differs(&k, a, b, i)) return 0;
  return 1;
}

int32_t shlort_check_eq(int32_t elem, const void *actual, const void *expected,
                        int64_t n) {
  static const char name[] = "check.expect_eq";
  check_count++;
  shlort_elem_kind k;
  if (shlort_elem_kind_of(elem, &k)) return unsupported(name, elem);
  for (int64_t i = 0; i < n; i++)
    if (elem_differs(&k, actual, expected, i))
      return mismatch(name, elem, &k, actual, expected, i, "");
  return SHLORT_OK;
}

/* |a - e| <= tol on one float scalar, with NaN matching NaN and an
 * infinity matching only itself. */
static bool scalar_almost_eq(const shlort_elem_kind *k, uint64_t a, uint64_t e,
                             double tol) {
  if (shlort_is_nan(k, a) || shlort_is_nan(k, e))
    return shlort_is_nan(k, a) && shlort_is_nan(k, e);
  if (!shlort_is_finite(k, a) || !shlort_is_finite(k, e)) return a == e;
  double d = shlort_float_value(k, a) - shlort_float_value(k, e);
  return (d < 0 ? -d : d) <= tol;
}

int32_t shlort_check_almost_eq(int32_t elem, const void *actual,
                               const void *expected, int64_t n,
                               double tolerance) {
  static const char name[] = "check.expect_almost_eq";
  check_count++;
  shlort_elem_kind k;
  if (shlort_elem_kind_of(elem, &k)) return unsupported(name, elem);
  char detail[64];
  snprintf(detail, sizeof detail, " (tolerance %g)", tolerance);
  for (int64_t i = 0; i < n; i++) {
    if (!is_float(&k)) {
      if (elem_differs(&k, actual, expected, i))
        return mismatch(name, elem, &k, actual, expected, i, "");
      continue;
    }
    for (int j = 0; j < k.parts; j++) {
      int64_t s = i * k.parts + j;
      if (!scalar_almost_eq(&k, shlort_load_bits(actual, s, k.bytes),
                            shlort_load_bits(expected, s, k.bytes), tolerance))
        return mismatch(name, elem, &k, actual, expected, i, detail);
    }
  }
  return SHLORT_OK;
}

/* ULP distance of two float scalars of format k (see shlort.h). Bit
 * patterns without the sign are the distances to zero, so within one sign
 * the distance is their difference and across signs their sum. */
static uint64_t scalar_ulp(const shlort_elem_kind *k, uint64_t a, uint64_t e) {
  if (a == e) return 0;
  if (shlort_is_nan(k, a) && shlort_is_nan(k, e)) return 0;
  if (!shlort_is_finite(k, a) || !shlort_is_finite(k, e)) return UINT64_MAX;
  int sbit = k->ebits + k->mbits;
  uint64_t mag_mask = (1ull << sbit) - 1;
  uint64_t ma = a & mag_mask, me = e & mag_mask;
  if ((a >> sbit) != (e >> sbit)) return ma + me;
  return ma > me ? ma - me : me - ma;
}

/* The distance of element i: the larger of the parts' distances (complex). */
static uint64_t elem_ulp(const shlort_elem_kind *k, const void *a, const void *e,
                         int64_t i) {
  uint64_t worst = 0;
  for (int j = 0; j < k->parts; j++) {
    int64_t s = i * k->parts + j;
    uint64_t d = scalar_ulp(k, shlort_load_bits(a, s, k->bytes), shlort_load_bits(e, s, k->bytes));
    if (d > worst) worst = d;
  }
  return worst;
}

uint64_t shlort_ulp_distance(int32_t elem, const void *a, const void *b) {
  shlort_elem_kind k;
  if (shlort_elem_kind_of(elem, &k) || k.cls != 'f') return UINT64_MAX;
  return scalar_ulp(&k, shlort_load_bits(a, 0, k.bytes), shlort_load_bits(b, 0, k.bytes));
}

int32_t shlort_check_close(int32_t elem, const void *actual,
                           const void *expected, int64_t n, int64_t max_ulp,
                           int64_t min_ulp) {
  static const char name[] = "check.expect_close";
  check_count++;
  shlort_elem_kind k;
  if (shlort_elem_kind_of(elem, &k) || !is_float(&k)) return unsupported(name, elem);
  char detail[96];
  for (int64_t i = 0; i < n; i++) {
    uint64_t d = elem_ulp(&k, actual, expected, i);
    if (d == UINT64_MAX)
      snprintf(detail, sizeof detail, " (non-finite values differ)");
    else if (max_ulp < 0 || d > (uint64_t)max_ulp)
      snprintf(detail, sizeof detail, " (ulp %" PRIu64 " > %" PRId64 ")", d, max_ulp);
    else if (min_ulp > 0 && d < (uint64_t)min_ulp)
      snprintf(detail, sizeof detail, " (ulp %" PRIu64 " < %" PRId64 ")", d, min_ulp);
    else
      continue;
    return mismatch(name, elem, &k, actual, expected, i, detail);
  }
  return SHLORT_OK;
}
