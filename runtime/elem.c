/* elem.c: element storage, float conversions and the text form of one
 * element, shared by the checks and by the shloc tool (run, bench). */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elem.h"
#include "shlort.h"

static void float_kind(shlort_elem_kind *k, char cls, int parts, int bytes,
                       int ebits, int mbits) {
  k->cls = cls;
  k->parts = parts;
  k->bytes = bytes;
  k->ebits = ebits;
  k->mbits = mbits;
  k->bias = (1 << (ebits - 1)) - 1;
  k->fk = SHLORT_FK_IEEE;
}

/* The floats narrower than 16 bits (spec "Element types": the FP8 and MX
 * types), one per byte: exponent bits, mantissa bits, bias, kind. The same
 * formats as shloc's SMALL_FLOATS (checked by tests/unit/test_runtime_abi.c). */
static const struct {
  int32_t elem;
  int ebits, mbits, bias;
  shlort_float_kind fk;
} small_floats[] = {
    {SHLORT_F4E2M1FN, 2, 1, 1, SHLORT_FK_FINITE},
    {SHLORT_F6E2M3FN, 2, 3, 1, SHLORT_FK_FINITE},
    {SHLORT_F6E3M2FN, 3, 2, 3, SHLORT_FK_FINITE},
    {SHLORT_F8E3M4, 3, 4, 3, SHLORT_FK_IEEE},
    {SHLORT_F8E4M3, 4, 3, 7, SHLORT_FK_IEEE},
    {SHLORT_F8E4M3FN, 4, 3, 7, SHLORT_FK_FN},
    {SHLORT_F8E4M3FNUZ, 4, 3, 8, SHLORT_FK_FNUZ},
    {SHLORT_F8E4M3B11FNUZ, 4, 3, 11, SHLORT_FK_FNUZ},
    {SHLORT_F8E5M2, 5, 2, 15, SHLORT_FK_IEEE},
    {SHLORT_F8E5M2FNUZ, 5, 2, 16, SHLORT_FK_FNUZ},
    {SHLORT_F8E8M0FNU, 8, 0, 127, SHLORT_FK_E8M0},
};

static int small_float_kind(int32_t elem, shlort_elem_kind *k) {
  for (size_t i = 0; i < sizeof small_floats / sizeof small_floats[0]; i++) {
    if (small_floats[i].elem != elem) continue;
    float_kind(k, 'f', 1, 1, small_floats[i].ebits, small_floats[i].mbits);
    k->bias = small_floats[i].bias;
    k->fk = small_floats[i].fk;
    return 0;
  }
  return -1;
}

/* Bits, class and MLIR spelling per code, from the table in shlort.h. */
static const struct {
  int32_t code;
  int bits;
  char cls;
  const char *name;
} elem_table[] = {
#define X(name, code, bits, cls, spelling) {code, bits, cls, spelling},
    SHLORT_ELEM_TYPES(X)
#undef X
};

/* Booleans and integers; sub-byte ones are stored extended to a byte. */
static int int_kind(int32_t elem, shlort_elem_kind *k) {
  for (size_t i = 0; i < sizeof elem_table / sizeof elem_table[0]; i++) {
    char cls = elem_table[i].cls;
    if (elem_table[i].code != elem || (cls != 'b' && cls != 's' && cls != 'u')) continue;
    k->cls = cls;
    k->parts = 1;
    k->bytes = elem_table[i].bits <= 8 ? 1 : elem_table[i].bits / 8;
    return 0;
  }
  return -1;
}

int shlort_elem_kind_of(int32_t elem, shlort_elem_kind *k) {
  memset(k, 0, sizeof *k);
  switch (elem) {
  case SHLORT_F16: float_kind(k, 'f', 1, 2, 5, 10); return 0;
  case SHLORT_BF16: float_kind(k, 'f', 1, 2, 8, 7); return 0;
  case SHLORT_F32: float_kind(k, 'f', 1, 4, 8, 23); return 0;
  case SHLORT_F64: float_kind(k, 'f', 1, 8, 11, 52); return 0;
  case SHLORT_C64: float_kind(k, 'c', 2, 4, 8, 23); return 0;
  case SHLORT_C128: float_kind(k, 'c', 2, 8, 11, 52); return 0;
  default: break;
  }
  if (small_float_kind(elem, k) == 0) return 0;
  return int_kind(elem, k);
}

int32_t shlort_elem_bytes(int32_t elem) {
  shlort_elem_kind k;
  return shlort_elem_kind_of(elem, &k) ? -1 : k.bytes * k.parts;
}

uint64_t shlort_load_bits(const void *p, int64_t i, int bytes) {
  const unsigned char *q = (const unsigned char *)p + i * bytes;
  switch (bytes) {
  case 1: return *q;
  case 2: { uint16_t v; memcpy(&v, q, 2); return v; }
  case 4: { uint32_t v; memcpy(&v, q, 4); return v; }
  default: { uint64_t v; memcpy(&v, q, 8); return v; }
  }
}

static double from_f64_bits(uint64_t b) {
  double d;
  memcpy(&d, &b, 8);
  return d;
}

/* Re-encodes float bits of format k as a double: the exponent is rebiased
 * and the mantissa left-aligned; subnormals of the narrow format are
 * normalized first (they are all normal in double). */
double shlort_float_value(const shlort_elem_kind *k, uint64_t bits) {
  if (k->mbits == 52) return from_f64_bits(bits);
  uint64_t sign = (bits >> (k->ebits + k->mbits)) & 1;
  if (shlort_is_nan(k, bits)) return from_f64_bits((sign << 63) | (0xfffull << 51));
  int64_t exp = (int64_t)shlort_exp_field(k, bits);
  uint64_t mant = shlort_mant_field(k, bits);
  int64_t emax = (1 << k->ebits) - 1;
  uint64_t out;
  if (k->fk == SHLORT_FK_E8M0) { /* 2^(bits - 127), no zero, no subnormals */
    out = (uint64_t)(exp - k->bias + 1023) << 52;
  } else if (k->fk == SHLORT_FK_IEEE && exp == emax) {
    out = (0x7ffull << 52) | (mant << (52 - k->mbits));
  } else if (exp == 0 && mant == 0) {
    out = 0;
  } else {
    if (exp == 0) { /* subnormal: shift the leading one into the implicit bit */
      exp = 1;
      while (!(mant >> k->mbits)) {
        mant <<= 1;
        exp--;
      }
      mant &= (1ull << k->mbits) - 1;
    }
    out = ((uint64_t)(exp - k->bias + 1023) << 52) | (mant << (52 - k->mbits));
  }
  return from_f64_bits(out | sign << 63);
}

/* The magnitude |x| (a: its f64 bits without the sign, not NaN) rounded to
 * nearest even into format k's bits; beyond the largest finite value when
 * it overflows (inf included). Double subnormals lie far below half the
 * smallest subnormal of every format narrowed to here. */
static uint64_t round_magnitude(const shlort_elem_kind *k, uint64_t a) {
  int e64 = (int)(a >> 52), mbits = k->mbits;
  if (e64 == 0) return 0;
  int emin = 1 - k->bias, e = e64 - 1023;
  uint64_t sig = (a & ((1ull << 52) - 1)) | (1ull << 52);
  int shift = 52 - mbits + (e < emin ? emin - e : 0);
  if (shift > 60) return 0; /* below half the smallest subnormal */
  uint64_t q = sig >> shift, rem = sig & ((1ull << shift) - 1);
  uint64_t half = 1ull << (shift - 1);
  if (rem > half || (rem == half && (q & 1))) q++;
  /* A subnormal q that rounded up to 1 << mbits encodes the smallest
   * normal; a normal q carries its implicit bit into the exponent field. */
  return e < emin ? q : ((uint64_t)(e + k->bias - 1) << mbits) + q;
}

uint64_t shlort_float_max_finite(const shlort_elem_kind *k) {
  uint64_t emax = (1ull << k->ebits) - 1, mmask = (1ull << k->mbits) - 1;
  if (k->fk == SHLORT_FK_IEEE) return ((emax - 1) << k->mbits) | mmask;
  if (k->fk == SHLORT_FK_FN) return (emax << k->mbits) | (mmask - 1);
  return (emax << k->mbits) | mmask;
}

/* Overflow: inf (IEEE), NaN (FN, FNUZ), the largest finite value (FINITE). */
static uint64_t overflow_bits(const shlort_elem_kind *k) {
  uint64_t emax = (1ull << k->ebits) - 1, mmask = (1ull << k->mbits) - 1;
  switch (k->fk) {
  case SHLORT_FK_IEEE: return emax << k->mbits;
  case SHLORT_FK_FN: return (emax << k->mbits) | mmask;
  case SHLORT_FK_FNUZ: return 1ull << (k->ebits + k->mbits);
  default: return shlort_float_max_finite(k);
  }
}

/* A NaN: quiet, keeping its sign and top payload bits (IEEE); the format's
 * NaN (FN keeps the sign); the largest finite value where there is none. */
static uint64_t nan_bits(const shlort_elem_kind *k, uint64_t a, uint64_t sign) {
  uint64_t emax = (1ull << k->ebits) - 1;
  if (k->fk == SHLORT_FK_IEEE)
    return sign | (emax << k->mbits) | (1ull << (k->mbits - 1)) | ((a & ((1ull << 52) - 1)) >> (52 - k->mbits));
  if (k->fk == SHLORT_FK_FN) return sign | overflow_bits(k);
  return overflow_bits(k);
}

/* f8E8M0FNU: the exponent of |x| rounded to nearest (a significand of 1.5
 * to the even exponent), as frontend/dense.c. */
static uint64_t e8m0_bits(uint64_t a) {
  int64_t e = (int64_t)(a >> 52);
  uint64_t m = a & ((1ull << 52) - 1), half = 1ull << 51;
  if (m > half || (m == half && (e & 1))) e++;
  e -= 1023 - 127;
  return e < 0 ? 0 : e > 254 ? 0xFF : (uint64_t)e;
}

uint64_t shlort_float_bits(const shlort_elem_kind *k, double x) {
  uint64_t b;
  memcpy(&b, &x, 8);
  if (k->mbits == 52) return b;
  uint64_t a = b & (~0ull >> 1), sign = (b >> 63) << (k->ebits + k->mbits);
  if (k->fk == SHLORT_FK_E8M0) return e8m0_bits(a);
  if (a > (0x7ffull << 52)) return nan_bits(k, a, sign);
  uint64_t r = round_magnitude(k, a);
  if (r > shlort_float_max_finite(k)) r = overflow_bits(k);
  if (k->fk == SHLORT_FK_FNUZ && r == 0) return 0; /* no -0 */
  return sign | r;
}

float shlort_f16_to_f32(uint16_t h) {
  shlort_elem_kind k;
  shlort_elem_kind_of(SHLORT_F16, &k);
  return (float)shlort_float_value(&k, h); /* exact: f16 is a subset of f32 */
}

float shlort_bf16_to_f32(uint16_t h) {
  uint32_t w = (uint32_t)h << 16;
  float f;
  memcpy(&f, &w, 4);
  return f;
}

uint16_t shlort_f16_from_f64(double x) {
  shlort_elem_kind k;
  shlort_elem_kind_of(SHLORT_F16, &k);
  return (uint16_t)shlort_float_bits(&k, x);
}

uint16_t shlort_bf16_from_f64(double x) {
  shlort_elem_kind k;
  shlort_elem_kind_of(SHLORT_BF16, &k);
  return (uint16_t)shlort_float_bits(&k, x);
}

int32_t shlort_float_from_f64(int32_t elem, double x, uint64_t *bits) {
  shlort_elem_kind k;
  if (shlort_elem_kind_of(elem, &k) || k.cls != 'f') return -1;
  *bits = shlort_float_bits(&k, x);
  return 0;
}

/* Whether the text s reads back as exactly the float bits of format k. */
static int reads_back(const char *s, const shlort_elem_kind *k, uint64_t bits) {
  if (k->mbits == 52) {
    double d = strtod(s, NULL);
    uint64_t b;
    memcpy(&b, &d, 8);
    return b == bits;
  }
  if (k->mbits == 23) {
    float f = strtof(s, NULL);
    uint32_t b;
    memcpy(&b, &f, 4);
    return b == bits;
  }
  return shlort_float_bits(k, strtod(s, NULL)) == bits;
}

static int format_float(char *buf, size_t size, const shlort_elem_kind *k,
                        uint64_t bits) {
  if (shlort_is_nan(k, bits)) return snprintf(buf, size, "nan");
  double v = shlort_float_value(k, bits);
  if (!shlort_is_finite(k, bits)) return snprintf(buf, size, v < 0 ? "-inf" : "inf");
  char tmp[40];
  int prec = 1;
  while (prec < 17) {
    snprintf(tmp, sizeof tmp, "%.*g", prec, v);
    if (reads_back(tmp, k, bits)) break;
    prec++;
  }
  /* Integers below 1e16 print without an exponent (40, not 4e+01): more
   * digits of the same value still read back exactly. */
  double a = v < 0 ? -v : v;
  while (prec < 17 && a >= 1 && a < 1e16 && (snprintf(tmp, sizeof tmp, "%.*g", prec, v), strchr(tmp, 'e')))
    prec++;
  return snprintf(buf, size, "%.*g", prec, v);
}

static int format_int(char *buf, size_t size, const shlort_elem_kind *k,
                      uint64_t bits) {
  if (k->cls == 'b') return snprintf(buf, size, "%d", bits != 0);
  if (k->cls == 'u') return snprintf(buf, size, "%" PRIu64, bits);
  int shift = 64 - 8 * k->bytes; /* sign-extend from the storage width */
  int64_t v = (int64_t)(bits << shift) >> shift;
  return snprintf(buf, size, "%" PRId64, v);
}

int shlort_format_elem(char *buf, size_t size, int32_t elem, const void *p) {
  shlort_elem_kind k;
  if (shlort_elem_kind_of(elem, &k)) return -1;
  if (k.cls == 'c') {
    char re[40], im[40];
    format_float(re, sizeof re, &k, shlort_load_bits(p, 0, k.bytes));
    format_float(im, sizeof im, &k, shlort_load_bits(p, 1, k.bytes));
    return snprintf(buf, size, "(%s,%s)", re, im);
  }
  uint64_t bits = shlort_load_bits(p, 0, k.bytes);
  if (k.cls == 'f') return format_float(buf, size, &k, bits);
  return format_int(buf, size, &k, bits);
}

int32_t shlort_elem_from_name(const char *name) {
  for (size_t i = 0; i < sizeof elem_table / sizeof elem_table[0]; i++)
    if (!strcmp(name, elem_table[i].name)) return elem_table[i].code;
  return -1;
}

/* The row of a code (codes have gaps: tf32, index and quantized). */
static int elem_row(int32_t elem) {
  for (size_t i = 0; i < sizeof elem_table / sizeof elem_table[0]; i++)
    if (elem_table[i].code == elem) return (int)i;
  return -1;
}

static void store_bits(void *p, int bytes, uint64_t bits) {
  switch (bytes) {
  case 1: { uint8_t v = (uint8_t)bits; memcpy(p, &v, 1); return; }
  case 2: { uint16_t v = (uint16_t)bits; memcpy(p, &v, 2); return; }
  case 4: { uint32_t v = (uint32_t)bits; memcpy(p, &v, 4); return; }
  default: memcpy(p, &bits, 8); return;
  }
}

/* The bits of an integer or boolean token, -1 when it is not one or out of
 * the type's range (nbits: the logical width, 2 for i2). */
static int parse_int_bits(const char *s, char cls, int nbits, uint64_t *bits) {
  char *end;
  errno = 0;
  if (cls == 'b') {
    if (!strcmp(s, "true") || !strcmp(s, "1")) *bits = 1;
    else if (!strcmp(s, "false") || !strcmp(s, "0")) *bits = 0;
    else return -1;
    return 0;
  }
  if (cls == 's') {
    long long v = strtoll(s, &end, 10);
    long long lo = nbits == 64 ? INT64_MIN : -(1ll << (nbits - 1));
    long long hi = nbits == 64 ? INT64_MAX : (1ll << (nbits - 1)) - 1;
    if (*end || end == s || errno || v < lo || v > hi) return -1;
    *bits = (uint64_t)v;
    return 0;
  }
  if (s[0] == '-') return -1;
  unsigned long long v = strtoull(s, &end, 10);
  if (*end || end == s || errno || (nbits < 64 && v >> nbits)) return -1;
  *bits = v;
  return 0;
}

int32_t shlort_parse_elem(int32_t elem, const char *s, void *p) {
  shlort_elem_kind k;
  if (shlort_elem_kind_of(elem, &k) || k.cls == 'c') return -1;
  uint64_t bits;
  if (k.cls == 'f') {
    char *end;
    double d = strtod(s, &end);
    if (*end || end == s) return -1;
    bits = shlort_float_bits(&k, d);
  } else if (parse_int_bits(s, k.cls, elem_table[elem_row(elem)].bits, &bits)) {
    return -1;
  }
  store_bits(p, k.bytes, bits);
  return 0;
}

static int is_separator(char c) {
  return isspace((unsigned char)c) || c == ',' || c == '[' || c == ']';
}

int32_t shlort_parse_values(int32_t elem, const char *p, void *data, int64_t n, char *err,
                            size_t err_size) {
  shlort_elem_kind k;
  if (shlort_elem_kind_of(elem, &k) || k.cls == 'c') {
    snprintf(err, err_size, "element type %d cannot be read from text", (int)elem);
    return -1;
  }
  char *out = data, tok[128];
  int64_t count = 0;
  while (*p) {
    if (is_separator(*p)) {
      p++;
      continue;
    }
    size_t len = 0;
    while (p[len] && !is_separator(p[len])) len++;
    if (len >= sizeof tok || count >= n) {
      snprintf(err, err_size, count >= n ? "more values than the shape holds" : "value too long");
      return -1;
    }
    memcpy(tok, p, len);
    tok[len] = 0;
    if (shlort_parse_elem(elem, tok, out + count++ * k.bytes)) {
      snprintf(err, err_size, "'%s' is not a valid %s value", tok, elem_table[elem_row(elem)].name);
      return -1;
    }
    p += len;
  }
  if (count == 1) {
    for (int64_t i = 1; i < n; i++) memcpy(out + i * k.bytes, out, (size_t)k.bytes);
  } else if (count == 0) {
    memset(out, 0, (size_t)(n * k.bytes));
  } else if (count != n) {
    snprintf(err, err_size, "%lld values for %lld elements", (long long)count, (long long)n);
    return -1;
  }
  return 0;
}
