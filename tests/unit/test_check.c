/* Unit tests of the runtime's check functions (ULP distance, exact and
 * approximate comparison, failure messages), the f16/bf16 conversions,
 * element formatting (parallel_for: tests/runtime/test_parallel.c). Ends
 * with `N passed, N failed`. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "ir/ir.h"
#include "runtime/shlort.h"

static uint32_t f32_bits(float f) {
  uint32_t b;
  memcpy(&b, &f, 4);
  return b;
}

static float f32_of(uint32_t b) {
  float f;
  memcpy(&f, &b, 4);
  return f;
}

static uint64_t ulp32(float a, float b) { return shlort_ulp_distance(ET_F32, &a, &b); }
static uint64_t ulp64(double a, double b) { return shlort_ulp_distance(ET_F64, &a, &b); }
static uint64_t ulp16(ElemType e, uint16_t a, uint16_t b) {
  return shlort_ulp_distance(e, &a, &b);
}

static void test_ulp_f32(void) {
  float sub = f32_of(1), maxsub = f32_of(0x007fffff), minnorm = f32_of(0x00800000);
  EXPECT(ulp32(1.0f, 1.0f) == 0);
  EXPECT(ulp32(1.0f, nextafterf(1.0f, 2.0f)) == 1);
  EXPECT(ulp32(nextafterf(1.0f, 0.0f), 1.0f) == 1);
  EXPECT(ulp32(0.0f, -0.0f) == 0);
  EXPECT(ulp32(0.0f, sub) == 1);
  EXPECT(ulp32(-sub, sub) == 2);
  EXPECT(ulp32(maxsub, minnorm) == 1);
  EXPECT(ulp32(-0.0f, sub) == 1);
  EXPECT(ulp32(-1.0f, 1.0f) == 2ull * 0x3f800000);
  EXPECT(ulp32(0.5f, 0.25f) == 0x800000);
  EXPECT(ulp32(NAN, -NAN) == 0);
  EXPECT(ulp32(f32_of(0x7fc00001), f32_of(0xffa00000)) == 0); /* any payloads */
  EXPECT(ulp32(NAN, 1.0f) == UINT64_MAX);
  EXPECT(ulp32(INFINITY, INFINITY) == 0);
  EXPECT(ulp32(INFINITY, -INFINITY) == UINT64_MAX);
  EXPECT(ulp32(INFINITY, f32_of(0x7f7fffff)) == UINT64_MAX); /* inf vs max */
  EXPECT(ulp32(INFINITY, NAN) == UINT64_MAX);
}

static void test_ulp_other(void) {
  EXPECT(ulp64(1.0, nextafter(1.0, 2.0)) == 1);
  EXPECT(ulp64(-0.0, 0.0) == 0);
  EXPECT(ulp64(-4.9e-324, 4.9e-324) == 2);
  EXPECT(ulp64(-1.0, 1.0) == 2ull * 0x3ff0000000000000ull);
  EXPECT(ulp64(NAN, NAN) == 0);
  EXPECT(ulp64(-INFINITY, -INFINITY) == 0);
  /* f16 and bf16 count steps on their own 16-bit grids. */
  EXPECT(ulp16(ET_F16, 0x3c00, 0x3c01) == 1);
  EXPECT(ulp16(ET_F16, 0x0001, 0x8001) == 2);
  EXPECT(ulp16(ET_F16, 0x03ff, 0x0400) == 1);
  EXPECT(ulp16(ET_F16, 0x7c00, 0x7bff) == UINT64_MAX);
  EXPECT(ulp16(ET_F16, 0x7e00, 0xfd01) == 0);
  EXPECT(ulp16(ET_F16, 0x4500, 0x4502) == 2); /* 5.0 vs 5.0078 */
  EXPECT(ulp16(ET_BF16, 0x3f80, 0x3f83) == 3);
  EXPECT(ulp16(ET_BF16, 0xbf80, 0x3f80) == 2u * 0x3f80);
  EXPECT(ulp16(ET_BF16, 0x8000, 0x0000) == 0);
  EXPECT(ulp16(ET_BF16, 0x7fc0, 0x7f81) == 0);
  /* Integers have no ULP distance. */
  int32_t i = 1, j = 2;
  EXPECT(shlort_ulp_distance(ET_SI32, &i, &j) == UINT64_MAX);
}

static void test_check_close(void) {
  shlort_check_reset();
  float a[4] = {1.0f, 2.0f, -0.0f, NAN};
  float e[4] = {1.0f, nextafterf(nextafterf(2.0f, 3.0f), 3.0f), 0.0f, NAN};
  EXPECT(shlort_check_close(ET_F32, a, e, 4, 3, 0) == SHLORT_OK);
  EXPECT(shlort_check_close(ET_F32, a, e, 4, 1, 0) == SHLORT_CHECK_FAILED);
  EXPECT(strstr(shlort_check_last_failure(), "check.expect_close: element 1: got 2 expected "
                                             "2.0000005 (ulp 2 > 1)") != NULL);
  /* min_ulp: "must differ" checks. */
  EXPECT(shlort_check_close(ET_F32, a, e, 1, 3, 1) == SHLORT_CHECK_FAILED);
  EXPECT(strstr(shlort_check_last_failure(), "(ulp 0 < 1)") != NULL);
  float x[1] = {0.5f}, y[1] = {0.25f};
  EXPECT(shlort_check_close(ET_F32, x, y, 1, 3, 0) == SHLORT_CHECK_FAILED);
  EXPECT(!strcmp(shlort_check_last_failure(),
                 "check.expect_close: element 0: got 0.5 expected 0.25 (ulp 8388608 > 3)"));
  float inf[1] = {INFINITY}, big[1] = {3e38f};
  EXPECT(shlort_check_close(ET_F32, inf, big, 1, 1000000, 0) == SHLORT_CHECK_FAILED);
  EXPECT(strstr(shlort_check_last_failure(), "got inf expected 3e+38 (non-finite") != NULL);
  /* f16 as in interpret/check.mlir: 5.0 vs 5.010 (rounds to 5.0117, 3 ulp). */
  uint16_t h5 = shlort_f16_from_f64(5.0), h5b = shlort_f16_from_f64(5.010);
  EXPECT(shlort_check_close(ET_F16, &h5, &h5b, 1, 3, 0) == SHLORT_OK);
  EXPECT(shlort_check_close(ET_F16, &h5, &h5b, 1, 1, 0) == SHLORT_CHECK_FAILED);
  EXPECT(strstr(shlort_check_last_failure(), "got 5 expected 5.01 (ulp 3 > 1)") != NULL);
  /* Complex: the larger of the two parts' distances. */
  float c1[2] = {1.0f, 1.0f}, c2[2] = {1.0f, nextafterf(nextafterf(1.0f, 2.0f), 2.0f)};
  EXPECT(shlort_check_close(ET_C64, c1, c2, 1, 2, 0) == SHLORT_OK);
  EXPECT(shlort_check_close(ET_C64, c1, c2, 1, 1, 0) == SHLORT_CHECK_FAILED);
  EXPECT(strstr(shlort_check_last_failure(), "got (1,1) expected (1,1.0000002) (ulp 2 > 1)") != NULL);
  int32_t i[1] = {1};
  EXPECT(shlort_check_close(ET_SI32, i, i, 1, 3, 0) == SHLORT_UNSUPPORTED);
  EXPECT(shlort_check_count() == 10);
  shlort_check_reset();
  EXPECT(shlort_check_count() == 0 && shlort_check_last_failure()[0] == 0);
}

static void test_check_eq(void) {
  int32_t a[3] = {-2, 0, 2}, b[3] = {-2, 0, 2}, c[3] = {-2, 0, 5};
  EXPECT(shlort_check_eq(ET_SI32, a, b, 3) == SHLORT_OK);
  EXPECT(shlort_check_eq(ET_SI32, a, c, 3) == SHLORT_CHECK_FAILED);
  EXPECT(!strcmp(shlort_check_last_failure(), "check.expect_eq: element 2: got 2 expected 5"));
  uint8_t u[2] = {255, 1}, v[2] = {255, 2};
  EXPECT(shlort_check_eq(ET_UI8, u, v, 2) == SHLORT_CHECK_FAILED);
  EXPECT(strstr(shlort_check_last_failure(), "element 1: got 1 expected 2") != NULL);
  int8_t s[1] = {-128}, t[1] = {127};
  EXPECT(shlort_check_eq(ET_SI8, s, t, 1) == SHLORT_CHECK_FAILED);
  EXPECT(strstr(shlort_check_last_failure(), "got -128 expected 127") != NULL);
  uint64_t big[1] = {UINT64_MAX}, zero[1] = {0};
  EXPECT(shlort_check_eq(ET_UI64, big, zero, 1) == SHLORT_CHECK_FAILED);
  EXPECT(strstr(shlort_check_last_failure(), "got 18446744073709551615 expected 0") != NULL);
  uint8_t p[3] = {1, 0, 1}, q[3] = {1, 0, 1}, r[3] = {1, 1, 1};
  EXPECT(shlort_check_eq(ET_I1, p, q, 3) == SHLORT_OK);
  EXPECT(shlort_check_eq(ET_I1, p, r, 3) == SHLORT_CHECK_FAILED);
  float f[3] = {0.0f, NAN, 1.5f}, g[3] = {0.0f, f32_of(0xffc12345), 1.5f};
  EXPECT(shlort_check_eq(ET_F32, f, g, 3) == SHLORT_OK); /* NaN == NaN */
  float nz[1] = {-0.0f};
  EXPECT(shlort_check_eq(ET_F32, f, nz, 1) == SHLORT_CHECK_FAILED); /* bitwise */
  EXPECT(strstr(shlort_check_last_failure(), "got 0 expected -0") != NULL);
  uint16_t h[2] = {0x3c00, 0x7e00}, k[2] = {0x3c00, 0x7c01};
  EXPECT(shlort_check_eq(ET_F16, h, k, 2) == SHLORT_OK);
  EXPECT(shlort_check_eq(ET_BF16, h, k, 2) == SHLORT_CHECK_FAILED); /* 0x7c01 is finite in bf16 */
  EXPECT(shlort_check_eq(ET_TF32, h, k, 1) == SHLORT_UNSUPPORTED);
  /* f8E4M3FN: 0x7f and 0xff are NaN, 0x7e (448) finite; f8E4M3FNUZ: 0x80
   * alone is NaN; f4E2M1FN has none (0x7 is 6). */
  uint8_t n8[3] = {0x7f, 0x7e, 0x80}, m8[3] = {0xff, 0x7e, 0x80};
  EXPECT(shlort_check_eq(ET_F8E4M3FN, n8, m8, 3) == SHLORT_OK);
  EXPECT(shlort_check_eq(ET_F8E4M3FNUZ, n8, m8, 1) == SHLORT_CHECK_FAILED);
  EXPECT(strstr(shlort_check_last_failure(), "got 240 expected -240") != NULL);
  EXPECT(shlort_check_eq(ET_F8E4M3FNUZ, n8 + 2, m8 + 2, 1) == SHLORT_OK);
  uint8_t f4[1] = {0x7}, f4n[1] = {0xf};
  EXPECT(shlort_check_almost_eq(ET_F4E2M1FN, f4, f4n, 1, 1e-4) == SHLORT_CHECK_FAILED);
  EXPECT(strstr(shlort_check_last_failure(), "got 6 expected -6") != NULL);
  EXPECT(shlort_equal(ET_F32, f, g, 3) == 1);
  EXPECT(shlort_equal(ET_SI32, a, c, 3) == 0);
  EXPECT(shlort_check_eq(ET_SI32, a, c, 0) == SHLORT_OK); /* empty tensors */
}

static void test_check_almost_eq(void) {
  double x[1] = {5.0}, y[1] = {5.0001}, z[1] = {5.1};
  EXPECT(shlort_check_almost_eq(ET_F64, x, y, 1, 1e-4) == SHLORT_OK);
  EXPECT(shlort_check_almost_eq(ET_F64, x, z, 1, 1e-4) == SHLORT_CHECK_FAILED);
  EXPECT(!strcmp(shlort_check_last_failure(),
                 "check.expect_almost_eq: element 0: got 5 expected 5.1 (tolerance 0.0001)"));
  EXPECT(shlort_check_almost_eq(ET_F64, x, z, 1, 0.1) == SHLORT_OK);
  float a[4] = {INFINITY, NAN, -INFINITY, 1e-5f}, b[4] = {INFINITY, NAN, -INFINITY, -1e-5f};
  EXPECT(shlort_check_almost_eq(ET_F32, a, b, 4, 1e-4) == SHLORT_OK);
  float c[1] = {INFINITY}, d[1] = {-INFINITY}, e[1] = {NAN}, one[1] = {1.0f};
  EXPECT(shlort_check_almost_eq(ET_F32, c, d, 1, 1e30) == SHLORT_CHECK_FAILED);
  EXPECT(shlort_check_almost_eq(ET_F32, e, one, 1, 1e30) == SHLORT_CHECK_FAILED);
  EXPECT(shlort_check_almost_eq(ET_F32, c, one, 1, INFINITY) == SHLORT_CHECK_FAILED);
  uint16_t h[1] = {shlort_bf16_from_f64(1.0)}, k[1] = {shlort_bf16_from_f64(1.0078125)};
  EXPECT(shlort_check_almost_eq(ET_BF16, h, k, 1, 0.01) == SHLORT_OK);
  EXPECT(shlort_check_almost_eq(ET_BF16, h, k, 1, 0.001) == SHLORT_CHECK_FAILED);
  int16_t i[2] = {3, 4}, j[2] = {3, 5};
  EXPECT(shlort_check_almost_eq(ET_SI16, i, j, 2, 10) == SHLORT_CHECK_FAILED);
  EXPECT(strstr(shlort_check_last_failure(), "element 1: got 4 expected 5") != NULL);
  double c1[2] = {1.0, 2.0}, c2[2] = {1.0, 2.5};
  EXPECT(shlort_check_almost_eq(ET_C128, c1, c2, 1, 0.6) == SHLORT_OK);
  EXPECT(shlort_check_almost_eq(ET_C128, c1, c2, 1, 0.4) == SHLORT_CHECK_FAILED);
}

/* Every f16 / bf16 pattern survives widening and narrowing. */
static void test_half_round_trip(void) {
  int bad16 = 0, badbf = 0;
  for (uint32_t h = 0; h < 65536; h++) {
    uint16_t b16 = shlort_f16_from_f64(shlort_f16_to_f32((uint16_t)h));
    uint16_t bbf = shlort_bf16_from_f64(shlort_bf16_to_f32((uint16_t)h));
    bool nan16 = (h & 0x7c00) == 0x7c00 && (h & 0x3ff), nanbf = (h & 0x7f80) == 0x7f80 && (h & 0x7f);
    bad16 += nan16 ? !((b16 & 0x7c00) == 0x7c00 && (b16 & 0x3ff)) : b16 != h;
    badbf += nanbf ? !((bbf & 0x7f80) == 0x7f80 && (bbf & 0x7f)) : bbf != h;
  }
  EXPECT(bad16 == 0);
  EXPECT(badbf == 0);
}

static void test_half_rounding(void) {
  EXPECT(shlort_f16_from_f64(1.0 + ldexp(1, -11)) == 0x3c00);     /* tie to even */
  EXPECT(shlort_f16_from_f64(1.0 + 3 * ldexp(1, -11)) == 0x3c02); /* tie to even, up */
  EXPECT(shlort_f16_from_f64(1.0 + ldexp(1, -11) + ldexp(1, -30)) == 0x3c01);
  EXPECT(shlort_f16_from_f64(65504.0) == 0x7bff);
  EXPECT(shlort_f16_from_f64(65519.0) == 0x7bff);
  EXPECT(shlort_f16_from_f64(65520.0) == 0x7c00); /* rounds to infinity */
  EXPECT(shlort_f16_from_f64(-1e300) == 0xfc00);
  EXPECT(shlort_f16_from_f64(ldexp(1, -24)) == 0x0001);  /* smallest subnormal */
  EXPECT(shlort_f16_from_f64(ldexp(1, -25)) == 0x0000);  /* tie to even zero */
  EXPECT(shlort_f16_from_f64(ldexp(1.5, -25)) == 0x0001);
  EXPECT(shlort_f16_from_f64(ldexp(1023.5, -24)) == 0x0400); /* up into the normals */
  EXPECT(shlort_f16_from_f64(-0.0) == 0x8000);
  EXPECT(shlort_f16_from_f64(4.9e-324) == 0x0000);
  EXPECT((shlort_f16_from_f64(NAN) & 0x7e00) == 0x7e00);
  EXPECT(shlort_f16_from_f64(INFINITY) == 0x7c00);
  EXPECT(shlort_f16_to_f32(0x0001) == ldexpf(1, -24));
  EXPECT(shlort_f16_to_f32(0xc000) == -2.0f);
  EXPECT(shlort_bf16_from_f64(1.00390625) == 0x3f80);  /* tie to even */
  EXPECT(shlort_bf16_from_f64(1.01171875) == 0x3f82);  /* tie to even, up */
  EXPECT(shlort_bf16_from_f64(3.4e38) == 0x7f80);      /* beyond max bf16: inf */
  EXPECT(shlort_bf16_from_f64(ldexp(1, -133)) == 0x0001);
  EXPECT(shlort_bf16_to_f32(0x3fc0) == 1.5f);
  EXPECT((f32_bits(shlort_bf16_to_f32(0xffc1)) & 0x7fc00000) == 0x7fc00000);
}

static int fmt_is(ElemType e, const void *p, const char *want) {
  char buf[64];
  shlort_format_elem(buf, sizeof buf, e, p);
  if (strcmp(buf, want)) printf("  formatted %s, want %s\n", buf, want);
  return !strcmp(buf, want);
}

static void test_format(void) {
  float f[] = {0.1f, 1e10f, -0.0f, 3.4028235e38f, 1.0f / 3, INFINITY, -INFINITY, NAN, 1e-45f};
  EXPECT(fmt_is(ET_F32, &f[0], "0.1"));
  EXPECT(fmt_is(ET_F32, &f[1], "10000000000")); /* integers: no exponent */
  EXPECT(fmt_is(ET_F32, &f[2], "-0"));
  EXPECT(fmt_is(ET_F32, &f[3], "3.4028235e+38"));
  EXPECT(fmt_is(ET_F32, &f[4], "0.33333334"));
  EXPECT(fmt_is(ET_F32, &f[5], "inf"));
  EXPECT(fmt_is(ET_F32, &f[6], "-inf"));
  EXPECT(fmt_is(ET_F32, &f[7], "nan"));
  EXPECT(fmt_is(ET_F32, &f[8], "1e-45"));
  double d[] = {0.1, 1.0 / 3};
  EXPECT(fmt_is(ET_F64, &d[0], "0.1"));
  EXPECT(fmt_is(ET_F64, &d[1], "0.3333333333333333"));
  uint16_t h[] = {0x3555, 0x3c00, 0x0001, 0x7bff};
  EXPECT(fmt_is(ET_F16, &h[0], "0.3333"));
  EXPECT(fmt_is(ET_F16, &h[1], "1"));
  EXPECT(fmt_is(ET_F16, &h[2], "6e-08"));
  EXPECT(fmt_is(ET_F16, &h[3], "65504"));
  uint16_t bf = 0x3e2b; /* 0.1669921875 */
  EXPECT(fmt_is(ET_BF16, &bf, "0.167"));
  int8_t i8 = -5;
  int64_t i64 = INT64_MIN;
  uint8_t b = 1;
  EXPECT(fmt_is(ET_SI8, &i8, "-5"));
  EXPECT(fmt_is(ET_SI64, &i64, "-9223372036854775808"));
  EXPECT(fmt_is(ET_I1, &b, "1"));
  char buf[8];
  EXPECT(shlort_format_elem(buf, sizeof buf, ET_QUANT, &b) == -1);
}

/* Text read back with shlort_parse_elem gives the bits shlort_format_elem
 * started from; out-of-range and malformed text is refused. */
static void test_parse(void) {
  float f = 0, f3 = 1.0f / 3;
  EXPECT(shlort_parse_elem(ET_F32, "0.33333334", &f) == 0 && f == f3);
  EXPECT(shlort_parse_elem(ET_F32, "-inf", &f) == 0 && f == -INFINITY);
  EXPECT(shlort_parse_elem(ET_F32, "0.3x", &f) == -1);
  uint16_t h = 0;
  EXPECT(shlort_parse_elem(ET_F16, "65504", &h) == 0 && h == 0x7bff);
  EXPECT(shlort_parse_elem(ET_BF16, "1.00390625", &h) == 0 && h == 0x3f80); /* tie to even */
  uint8_t u8 = 0;
  EXPECT(shlort_parse_elem(ET_F8E4M3FN, "464", &u8) == 0 && u8 == 0x7e); /* ties to 448 */
  EXPECT(shlort_parse_elem(ET_I1, "true", &u8) == 0 && u8 == 1);
  EXPECT(shlort_parse_elem(ET_I1, "2", &u8) == -1);
  EXPECT(shlort_parse_elem(ET_UI8, "255", &u8) == 0 && u8 == 255);
  EXPECT(shlort_parse_elem(ET_UI8, "256", &u8) == -1);
  EXPECT(shlort_parse_elem(ET_UI4, "-1", &u8) == -1);
  int8_t i8 = 0;
  EXPECT(shlort_parse_elem(ET_SI4, "-8", &i8) == 0 && i8 == -8);
  EXPECT(shlort_parse_elem(ET_SI4, "8", &i8) == -1);
  int64_t i64 = 0;
  EXPECT(shlort_parse_elem(ET_SI64, "-9223372036854775808", &i64) == 0 && i64 == INT64_MIN);
  EXPECT(shlort_parse_elem(ET_SI64, "9223372036854775808", &i64) == -1);
  float c[2];
  EXPECT(shlort_parse_elem(ET_C64, "1", c) == -1);
  int16_t v[4] = {9, 9, 9, 9};
  char err[96];
  EXPECT(shlort_parse_values(ET_SI16, "[[1, -2][3 4]]", v, 4, err, sizeof err) == 0 &&
         v[0] == 1 && v[1] == -2 && v[3] == 4);
  EXPECT(shlort_parse_values(ET_SI16, " 7 ", v, 4, err, sizeof err) == 0 && v[0] == 7 && v[3] == 7);
  EXPECT(shlort_parse_values(ET_SI16, "", v, 4, err, sizeof err) == 0 && v[0] == 0 && v[3] == 0);
  EXPECT(shlort_parse_values(ET_SI16, "1 2", v, 4, err, sizeof err) == -1 &&
         !strcmp(err, "2 values for 4 elements"));
  EXPECT(shlort_parse_values(ET_SI16, "1 2 3 4 5", v, 4, err, sizeof err) == -1 &&
         !strcmp(err, "more values than the shape holds"));
  EXPECT(shlort_parse_values(ET_SI16, "1 x", v, 4, err, sizeof err) == -1 &&
         !strcmp(err, "'x' is not a valid i16 value"));
  EXPECT(shlort_elem_from_name("f8E4M3FN") == ET_F8E4M3FN);
  EXPECT(shlort_elem_from_name("complex<f64>") == ET_C128);
  EXPECT(shlort_elem_from_name("tf32") == -1);
  EXPECT(shlort_elem_from_name("f31") == -1);
}

int main(void) {
  test_ulp_f32();
  test_ulp_other();
  test_check_close();
  test_check_eq();
  test_check_almost_eq();
  test_half_round_trip();
  test_half_rounding();
  test_format();
  test_parse();
  return unit_report();
}
