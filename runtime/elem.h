/* elem.h: facts about element storage shared by the runtime's files, and
 * the one host-side encoder of the narrow float formats, which the
 * compiler uses too (frontend/dense.c for literals, codegen/minifloat.c
 * for the constants of its generated encoder). Not part of the installed
 * interface; it includes nothing from the compiler. */
#ifndef SHLORT_ELEM_H
#define SHLORT_ELEM_H

#include <stdbool.h>
#include <stdint.h>

/* How a float format spends its top exponent (as LLVM APFloat's
 * fltNonfiniteBehavior and fltNanEncoding; the same kinds as shloc's
 * FloatKind in ir/ir.h). */
typedef enum shlort_float_kind {
  SHLORT_FK_IEEE,   /* inf and NaN as in IEEE 754 */
  SHLORT_FK_FN,     /* no inf; NaN = all ones (S.1111.111); overflow gives NaN */
  SHLORT_FK_FNUZ,   /* no inf, no -0; NaN = the sign bit alone (0x80) */
  SHLORT_FK_FINITE, /* no inf, no NaN: overflow saturates */
  SHLORT_FK_E8M0,   /* unsigned powers of two 2^(e - 127), no zero; NaN = 0xFF */
} shlort_float_kind;

typedef struct shlort_elem_kind {
  char cls;         /* 'b' bool, 's' signed, 'u' unsigned, 'f' float, 'c' complex */
  int bytes;        /* storage of one scalar (of one part of a complex) */
  int parts;        /* 2 for complex, else 1 */
  int ebits, mbits; /* floats and complex parts: exponent and mantissa bits */
  int bias;         /* floats: exponent bias */
  int fk;           /* floats: shlort_float_kind (IEEE but for the f8/f6/f4 types) */
} shlort_elem_kind;

/* Fills *k for the element types the runtime handles: i1, all integers
 * (sub-byte ones are stored extended to a byte), the floats narrower than
 * 16 bits (one per byte), f16, bf16, f32, f64 and complex. Returns -1 for
 * the others (tf32, quantized). */
int shlort_elem_kind_of(int32_t elem, shlort_elem_kind *k);

/* Scalar i (a part of a complex counts as one scalar) of a buffer whose
 * scalars have `bytes` bytes, as raw bits. */
uint64_t shlort_load_bits(const void *p, int64_t i, int bytes);

/* The value of float bits of format k, widened to double (exact). */
double shlort_float_value(const shlort_elem_kind *k, uint64_t bits);

/* Float bits of format k nearest to x: round to nearest even, then the
 * format's rules: overflow gives inf (IEEE), NaN (FN, FNUZ) or the largest
 * finite value (FINITE); NaN keeps its sign and top payload bits (IEEE),
 * its sign (FN), or is the format's NaN (FNUZ, E8M0) or largest finite
 * value (FINITE); FNUZ has no -0; E8M0 drops the sign. */
uint64_t shlort_float_bits(const shlort_elem_kind *k, double x);
/* The bits of the largest finite magnitude of format k. */
uint64_t shlort_float_max_finite(const shlort_elem_kind *k);

static inline uint64_t shlort_exp_field(const shlort_elem_kind *k, uint64_t bits) {
  return (bits >> k->mbits) & ((1ull << k->ebits) - 1);
}
static inline uint64_t shlort_mant_field(const shlort_elem_kind *k, uint64_t bits) {
  return bits & ((1ull << k->mbits) - 1);
}
/* NaN and the non-finite values per format (shlort_float_kind). */
static inline bool shlort_is_nan(const shlort_elem_kind *k, uint64_t bits) {
  uint64_t emax = (1ull << k->ebits) - 1, mmask = (1ull << k->mbits) - 1;
  switch (k->fk) {
  case SHLORT_FK_FN: return shlort_exp_field(k, bits) == emax && shlort_mant_field(k, bits) == mmask;
  case SHLORT_FK_FNUZ: return bits == 1ull << (k->ebits + k->mbits);
  case SHLORT_FK_FINITE: return false;
  case SHLORT_FK_E8M0: return bits == 0xFF;
  default: return shlort_exp_field(k, bits) == emax && shlort_mant_field(k, bits) != 0;
  }
}
static inline bool shlort_is_finite(const shlort_elem_kind *k, uint64_t bits) {
  if (k->fk != SHLORT_FK_IEEE) return !shlort_is_nan(k, bits);
  return shlort_exp_field(k, bits) != (1ull << k->ebits) - 1;
}

/* Frees this thread's probe recordings (probe.c). */
void shlort_probe_reset(void);

/* Records a check failure message (check.c), printf-style; returns status. */
int32_t shlort_check_fail(int32_t status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
