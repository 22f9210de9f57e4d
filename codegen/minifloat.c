/*
 * minifloat.c: the float formats narrower than 16 bits (ir.h SMALL_FLOATS:
 * spec "Element types", the FP8 and MX types).
 *
 * A value of such a type is stored as one byte (the format's bits in the
 * low bits) and computed as an f32 that the format represents exactly:
 * loads decode (exact, every format is a subset of f32), and every op with
 * such a result rounds its f32 (or f64) result back (elementwise.c
 * fnarrow). For + - * / sqrt the f32 result rounded again is the correctly
 * rounded result, f32 having more than 2p + 2 bits for all of them; f64
 * inputs (integer converts, f64 operands) are rounded once, from f64.
 *
 * Rounding is to nearest even, then per FloatKind: overflow gives inf
 * (IEEE), NaN (FN, FNUZ) or the largest finite value (FINITE, the MX
 * types); FNUZ has no -0. NaN becomes the format's NaN, or the largest
 * finite value where there is none; f8E8M0FNU drops the sign (an unsigned
 * format). These are the rules of runtime/elem.c's host-side encoder,
 * which frontend/dense.c uses for literals, so constants and computed
 * values agree.
 *
 * Everything is built from integer ops on the f64 bits (no libm, no
 * soft-float calls), which the loop vectorizer widens like any other code.
 */
#include <math.h>
#include <stdlib.h>

#include "../runtime/elem.h"
#include "codegen.h"

static LLVMValueRef i64c(CG *cg, uint64_t v) { return LLVMConstInt(cg->t_i64, v, 0); }
static LLVMValueRef i32c(CG *cg, uint64_t v) { return LLVMConstInt(cg->t_i32, v, 0); }

static FloatFormat format_of(ElemType e) {
  FloatFormat f;
  if (!elem_small_float(e, &f)) abort(); /* callers check cg_is_small_float */
  return f;
}

bool cg_is_small_float(ElemType e) {
  FloatFormat f;
  return elem_small_float(e, &f);
}

/* ------------------------------------------------------------------------ */
/* f32 | f64 -> format bits                                                  */

/* The constants of the encoder come from the host-side one of
 * runtime/elem.c (shared with frontend/dense.c), so that both round
 * alike: the largest finite magnitude, what a larger one becomes (the
 * encoding of +inf: inf, NaN or saturation; the sign is or'ed in after),
 * and the bits of a NaN (the encoding of +NaN). */
typedef struct Limits {
  uint64_t max_finite, overflow, nan;
} Limits;

static Limits limits_of(ElemType e) {
  shlort_elem_kind k;
  if (shlort_elem_kind_of((int32_t)e, &k)) abort(); /* every small float is the runtime's */
  Limits l = {shlort_float_max_finite(&k), shlort_float_bits(&k, INFINITY),
              shlort_float_bits(&k, NAN)};
  return l;
}

/* The magnitude |x| (f64 bits a, not NaN) rounded to nearest even. With
 * the significand sig = 1.m * 2^52 and x's exponent e (biased for f64),
 * the format keeps mb bits below the leading one, fewer when |x| is below
 * its smallest normal 2^(1 - bias): then the result is a subnormal, in
 * units of 2^(1 - bias - mb). A carry out of the mantissa moves into the
 * exponent field, and a subnormal that rounds up to 2^mb units encodes the
 * smallest normal, as the bit layout gives for free. f64 zeros and
 * subnormals lie far below half the smallest subnormal of every format and
 * round to 0; inf rounds to a magnitude beyond max_finite. */
static LLVMValueRef round_magnitude(CG *cg, LLVMValueRef a, const FloatFormat *f) {
  LLVMBuilderRef b = cg->b;
  LLVMValueRef e = LLVMBuildLShr(b, a, i64c(cg, 52), "");
  LLVMValueRef sig = LLVMBuildOr(b, LLVMBuildAnd(b, a, i64c(cg, (1ull << 52) - 1), ""),
                                 i64c(cg, 1ull << 52), "");
  uint64_t emin = (uint64_t)(1024 - f->bias); /* f64 exponent of 2^(1 - bias) */
  LLVMValueRef normal = LLVMBuildICmp(b, LLVMIntUGE, e, i64c(cg, emin), "");
  LLVMValueRef under = LLVMBuildSub(b, i64c(cg, emin), e, "");
  under = LLVMBuildSelect(b, normal, i64c(cg, 0), under, "");
  LLVMValueRef shift = LLVMBuildAdd(b, under, i64c(cg, (uint64_t)(52 - f->mbits)), "");
  LLVMValueRef far = LLVMBuildICmp(b, LLVMIntUGT, shift, i64c(cg, 63), "");
  shift = LLVMBuildSelect(b, far, i64c(cg, 63), shift, "");
  LLVMValueRef q = LLVMBuildLShr(b, sig, shift, "");
  LLVMValueRef unit = LLVMBuildShl(b, i64c(cg, 1), shift, "");
  LLVMValueRef rem = LLVMBuildAnd(b, sig, LLVMBuildSub(b, unit, i64c(cg, 1), ""), "");
  LLVMValueRef half = LLVMBuildLShr(b, unit, i64c(cg, 1), "");
  LLVMValueRef odd = LLVMBuildTrunc(b, q, cg->t_i1, "");
  LLVMValueRef tie = LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntEQ, rem, half, ""), odd, "");
  LLVMValueRef up = LLVMBuildOr(b, LLVMBuildICmp(b, LLVMIntUGT, rem, half, ""), tie, "");
  q = LLVMBuildAdd(b, q, LLVMBuildZExt(b, up, cg->t_i64, ""), "");
  /* normal: ((biased exponent - 1) << mb) + q, q holding the leading one */
  LLVMValueRef ebase = LLVMBuildShl(b, LLVMBuildSub(b, e, i64c(cg, emin), ""),
                                    i64c(cg, (uint64_t)f->mbits), "");
  return LLVMBuildSelect(b, normal, LLVMBuildAdd(b, ebase, q, ""), q, "");
}

/* f8E8M0FNU: the exponent of |x| rounded to nearest (a significand of
 * exactly 1.5 rounds to the even exponent), clamped to [0, 254]; NaN, inf
 * and overflow give 0xFF. f64 and E8M0 biases are both odd, so the parity
 * of the f64 exponent is that of the result. */
static LLVMValueRef encode_e8m0(CG *cg, LLVMValueRef a) {
  LLVMBuilderRef b = cg->b;
  LLVMValueRef e = LLVMBuildLShr(b, a, i64c(cg, 52), "");
  LLVMValueRef m = LLVMBuildAnd(b, a, i64c(cg, (1ull << 52) - 1), "");
  LLVMValueRef half = i64c(cg, 1ull << 51);
  LLVMValueRef odd = LLVMBuildTrunc(b, e, cg->t_i1, "");
  LLVMValueRef tie = LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntEQ, m, half, ""), odd, "");
  LLVMValueRef up = LLVMBuildOr(b, LLVMBuildICmp(b, LLVMIntUGT, m, half, ""), tie, "");
  LLVMValueRef q = LLVMBuildAdd(b, e, LLVMBuildZExt(b, up, cg->t_i64, ""), "");
  q = LLVMBuildSub(b, q, i64c(cg, 1023 - 127), "");
  LLVMValueRef r = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, q, i64c(cg, 254), ""),
                                   i64c(cg, 0xFF), q, "");
  return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, q, i64c(cg, 0), ""),
                         i64c(cg, 0), r, "");
}

LLVMValueRef cg_small_encode(CG *cg, LLVMValueRef x, ElemType et) {
  LLVMBuilderRef b = cg->b;
  FloatFormat f = format_of(et);
  /* The sign from x's own bits: fpext may return a NaN of another sign
   * (RISC-V's fcvt.d.s gives the canonical, positive NaN). */
  LLVMValueRef sbit;
  if (LLVMTypeOf(x) != cg->t_f64) {
    sbit = LLVMBuildLShr(b, LLVMBuildBitCast(b, x, cg->t_i32, ""), i32c(cg, 31), "");
    sbit = LLVMBuildZExt(b, sbit, cg->t_i64, "");
    x = LLVMBuildFPExt(b, x, cg->t_f64, "");
  } else {
    sbit = LLVMBuildLShr(b, LLVMBuildBitCast(b, x, cg->t_i64, ""), i64c(cg, 63), "");
  }
  LLVMValueRef bits = LLVMBuildBitCast(b, x, cg->t_i64, "");
  LLVMValueRef a = LLVMBuildAnd(b, bits, i64c(cg, ~0ull >> 1), "");
  if (f.kind == FK_E8M0) return LLVMBuildTrunc(b, encode_e8m0(cg, a), cg->t_i8, "");
  Limits lim = limits_of(et);
  LLVMValueRef r = round_magnitude(cg, a, &f);
  LLVMValueRef over = LLVMBuildICmp(b, LLVMIntUGT, r, i64c(cg, lim.max_finite), "");
  r = LLVMBuildSelect(b, over, i64c(cg, lim.overflow), r, "");
  LLVMValueRef sign = LLVMBuildShl(b, sbit, i64c(cg, (uint64_t)(f.ebits + f.mbits)), "");
  if (f.kind == FK_FNUZ) /* no -0: a zero keeps no sign */
    sign = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, r, i64c(cg, 0), ""),
                           i64c(cg, 0), sign, "");
  r = LLVMBuildOr(b, r, sign, "");
  LLVMValueRef nan = LLVMBuildICmp(b, LLVMIntUGT, a, i64c(cg, 0x7ffull << 52), "");
  LLVMValueRef nanv = i64c(cg, lim.nan);
  if (f.kind == FK_FN) nanv = LLVMBuildOr(b, nanv, sign, "");
  r = LLVMBuildSelect(b, nan, nanv, r, "");
  return LLVMBuildTrunc(b, r, cg->t_i8, "");
}

/* ------------------------------------------------------------------------ */
/* format bits -> f32 (exact)                                                */

static LLVMValueRef f32_bits(CG *cg, LLVMValueRef v) {
  return LLVMBuildBitCast(cg->b, v, cg->t_f32, "");
}

/* f8E8M0FNU: 2^(v - 127); 0x00 is 2^-127, an f32 subnormal. */
static LLVMValueRef decode_e8m0(CG *cg, LLVMValueRef v) {
  LLVMBuilderRef b = cg->b;
  LLVMValueRef r = LLVMBuildShl(b, v, i32c(cg, 23), "");
  r = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, v, i32c(cg, 0), ""),
                      i32c(cg, 1u << 22), r, "");
  r = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, v, i32c(cg, 0xFF), ""),
                      i32c(cg, 0x7fc00000), r, "");
  return f32_bits(cg, r);
}

/* Whether v (the format's bits) encodes NaN or inf under the format's rules;
 * *special gets the f32 bits for it. */
static LLVMValueRef decode_special(CG *cg, LLVMValueRef v, LLVMValueRef ef, LLVMValueRef m,
                                   LLVMValueRef s, const FloatFormat *f,
                                   LLVMValueRef *special) {
  LLVMBuilderRef b = cg->b;
  uint64_t emax = (1ull << f->ebits) - 1, mmask = (1ull << f->mbits) - 1;
  LLVMValueRef qnan = LLVMBuildOr(b, s, i32c(cg, 0x7fc00000), "");
  *special = qnan;
  switch (f->kind) {
  case FK_IEEE: { /* inf, or NaN keeping its payload */
    LLVMValueRef payload = LLVMBuildShl(b, m, i32c(cg, (uint64_t)(23 - f->mbits)), "");
    *special = LLVMBuildOr(b, LLVMBuildOr(b, s, i32c(cg, 0x7f800000), ""), payload, "");
    return LLVMBuildICmp(b, LLVMIntEQ, ef, i32c(cg, emax), "");
  }
  case FK_FN: {
    LLVMValueRef m_max = LLVMBuildICmp(b, LLVMIntEQ, m, i32c(cg, mmask), "");
    return LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntEQ, ef, i32c(cg, emax), ""), m_max, "");
  }
  case FK_FNUZ:
    return LLVMBuildICmp(b, LLVMIntEQ, v, i32c(cg, 1ull << (f->ebits + f->mbits)), "");
  default:
    return LLVMConstInt(cg->t_i1, 0, 0);
  }
}

LLVMValueRef cg_small_decode(CG *cg, LLVMValueRef bits, ElemType et) {
  LLVMBuilderRef b = cg->b;
  FloatFormat f = format_of(et);
  LLVMValueRef v = LLVMBuildZExt(b, bits, cg->t_i32, "");
  if (f.kind == FK_E8M0) return decode_e8m0(cg, v);
  unsigned nb = (unsigned)(f.ebits + f.mbits);
  LLVMValueRef s = LLVMBuildShl(b, LLVMBuildAnd(b, LLVMBuildLShr(b, v, i32c(cg, nb), ""),
                                                i32c(cg, 1), ""), i32c(cg, 31), "");
  LLVMValueRef ef = LLVMBuildAnd(b, LLVMBuildLShr(b, v, i32c(cg, (uint64_t)f.mbits), ""),
                                 i32c(cg, (1ull << f.ebits) - 1), "");
  LLVMValueRef m = LLVMBuildAnd(b, v, i32c(cg, (1ull << f.mbits) - 1), "");
  /* normal: rebias the exponent, left-align the mantissa */
  LLVMValueRef ne = LLVMBuildShl(b, LLVMBuildAdd(b, ef, i32c(cg, (uint64_t)(127 - f.bias)), ""),
                                 i32c(cg, 23), "");
  LLVMValueRef nv = LLVMBuildOr(b, ne, LLVMBuildShl(b, m, i32c(cg, (uint64_t)(23 - f.mbits)), ""), "");
  /* subnormal: m units of 2^(1 - bias - mb); the product is exact */
  LLVMValueRef sv = LLVMBuildFMul(b, LLVMBuildUIToFP(b, m, cg->t_f32, ""),
                                  LLVMConstReal(cg->t_f32, ldexp(1.0, 1 - f.bias - f.mbits)), "");
  sv = LLVMBuildBitCast(b, sv, cg->t_i32, "");
  LLVMValueRef sub = LLVMBuildICmp(b, LLVMIntEQ, ef, i32c(cg, 0), "");
  LLVMValueRef r = LLVMBuildOr(b, LLVMBuildSelect(b, sub, sv, nv, ""), s, "");
  LLVMValueRef special;
  LLVMValueRef is_special = decode_special(cg, v, ef, m, s, &f, &special);
  return f32_bits(cg, LLVMBuildSelect(b, is_special, special, r, ""));
}

LLVMValueRef cg_small_round(CG *cg, LLVMValueRef x, ElemType e) {
  return cg_small_decode(cg, cg_small_encode(cg, x, e), e);
}
