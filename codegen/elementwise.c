/*
 * elementwise.c: the scalar semantics of every elementwise op, for each
 * supported element type (spec section of each op).
 *
 * Integers wrap around. Division and remainder by zero, and INT_MIN / -1,
 * which the spec leaves undefined, follow XLA: x / 0 = -1 (all ones),
 * x % 0 = x, INT_MIN / -1 = INT_MIN, INT_MIN % -1 = 0; no trap, no poison.
 * Shift amounts are unsigned; amounts >= the bit width give 0 (shift_left,
 * shift_right_logical) or the sign fill (shift_right_arithmetic), as
 * LLVM's APInt shifts of the reference interpreter do.
 *
 * f16 and bf16 are computed in f32 and rounded back once per op: for
 * + - * / sqrt the f32 result rounded to 16 bits is the correctly rounded
 * result (f32 has more than 2p + 2 bits for both). bf16 rounding is done
 * with integer ops here so that no soft-float library call is needed.
 * Transcendentals come from math.h (inline polynomials, no libm).
 */
#include <string.h>

#include "codegen.h"
#include "vmath.h"

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */

static LLVMValueRef iconst(LLVMValueRef like, unsigned long long v) {
  return LLVMConstInt(LLVMTypeOf(like), v, 0);
}

static LLVMValueRef fconst(LLVMValueRef like, double v) {
  return LLVMConstReal(LLVMTypeOf(like), v);
}

static int int_bits(LLVMValueRef v) { return (int)LLVMGetIntTypeWidth(LLVMTypeOf(v)); }

static bool is_signed(ElemType e) { return elem_class(e) == 's'; }

/* ------------------------------------------------------------------------ */
/* Rules                                                                     */

/* What a rule computes on: the op, the element types of its first operand
 * (e) and of its result (r), and the operand scalars (for the float rules
 * widened to f32 or f64). */
typedef struct Scalar {
  const Op *op;
  ElemType e, r;
  LLVMValueRef x, y, z;
} Scalar;

/* The scalar rule of an op on one class of element types (the tables at
 * the end). One member is set: an LLVMBuild* or vmath.h function of the
 * operands, an intrinsic overloaded on their type, or a function of its
 * own. */
typedef struct Rule {
  LLVMValueRef (*build1)(LLVMBuilderRef, LLVMValueRef, const char *);
  LLVMValueRef (*build2)(LLVMBuilderRef, LLVMValueRef, LLVMValueRef, const char *);
  LLVMValueRef (*math1)(LLVMBuilderRef, LLVMValueRef);
  LLVMValueRef (*math2)(LLVMBuilderRef, LLVMValueRef, LLVMValueRef);
  const char *intr;
  LLVMValueRef (*fn)(CG *cg, const Scalar *s);
} Rule;

static bool has_rule(const Rule *r) {
  return r->build1 || r->build2 || r->math1 || r->math2 || r->intr || r->fn;
}

/* The rule's value, NULL when it has none (or its function gives none). */
static LLVMValueRef apply(CG *cg, const Rule *r, const Scalar *s) {
  if (r->build1) return r->build1(cg->b, s->x, "");
  if (r->build2) return r->build2(cg->b, s->x, s->y, "");
  if (r->math1) return r->math1(cg->b, s->x);
  if (r->math2) return r->math2(cg->b, s->x, s->y);
  if (r->intr && s->op->nopnds == 1) return cg_intr1(cg, r->intr, s->x);
  if (r->intr) return cg_intr2(cg, r->intr, s->x, s->y);
  return r->fn ? r->fn(cg, s) : NULL;
}

/* ------------------------------------------------------------------------ */
/* Float widening and rounding                                               */

/* bf16 -> f32 is exact: the bf16 bits are the high half of the f32. */
static LLVMValueRef bf16_to_f32(CG *cg, LLVMValueRef v) {
  LLVMValueRef i = LLVMBuildBitCast(cg->b, v, cg->t_i16, "");
  i = LLVMBuildShl(cg->b, LLVMBuildZExt(cg->b, i, cg->t_i32, ""),
                   LLVMConstInt(cg->t_i32, 16, 0), "");
  return LLVMBuildBitCast(cg->b, i, cg->t_f32, "");
}

/* f32 -> bf16, round to nearest even; NaN stays a quiet NaN of its sign. */
static LLVMValueRef f32_to_bf16(CG *cg, LLVMValueRef v) {
  LLVMBuilderRef b = cg->b;
  LLVMValueRef bits = LLVMBuildBitCast(b, v, cg->t_i32, "");
  LLVMValueRef hi = LLVMBuildLShr(b, bits, iconst(bits, 16), "");
  LLVMValueRef lsb = LLVMBuildAnd(b, hi, iconst(bits, 1), "");
  LLVMValueRef r = LLVMBuildAdd(b, bits, LLVMBuildAdd(b, lsb, iconst(bits, 0x7fff), ""), "");
  r = LLVMBuildLShr(b, r, iconst(bits, 16), "");
  LLVMValueRef qnan = LLVMBuildOr(b, hi, iconst(bits, 0x40), "");
  LLVMValueRef nan = LLVMBuildFCmp(b, LLVMRealUNO, v, v, "");
  r = LLVMBuildTrunc(b, LLVMBuildSelect(b, nan, qnan, r, ""), cg->t_i16, "");
  return LLVMBuildBitCast(b, r, cg->t_bf16, "");
}

/* f16 (its bits, where the target converts with library calls: see
 * codegen.c) -> f32, exact. Subnormals m 2^-24 are normalized with the
 * leading one of m moved to bit 10 (k places): 2^(-14-k) (1 + f). */
static LLVMValueRef f16_bits_to_f32(CG *cg, LLVMValueRef v) {
  LLVMBuilderRef b = cg->b;
  LLVMValueRef h = LLVMBuildZExt(b, v, cg->t_i32, "");
  LLVMValueRef sign = LLVMBuildShl(b, LLVMBuildAnd(b, h, iconst(h, 0x8000), ""), iconst(h, 16), "");
  LLVMValueRef e = LLVMBuildAnd(b, LLVMBuildLShr(b, h, iconst(h, 10), ""), iconst(h, 0x1f), "");
  LLVMValueRef m = LLVMBuildAnd(b, h, iconst(h, 0x3ff), "");
  LLVMValueRef m13 = LLVMBuildShl(b, m, iconst(h, 13), "");
  LLVMValueRef normal = LLVMBuildOr(
      b, LLVMBuildShl(b, LLVMBuildAdd(b, e, iconst(h, 112), ""), iconst(h, 23), ""), m13, "");
  LLVMValueRef special = LLVMBuildOr(b, iconst(h, 0x7f800000), m13, "");
  LLVMValueRef k = LLVMBuildSub(b, cg_intr2(cg, "llvm.ctlz", m, LLVMConstInt(cg->t_i1, 0, 0)),
                                iconst(h, 21), "");
  LLVMValueRef frac = LLVMBuildAnd(b, LLVMBuildShl(b, m, k, ""), iconst(h, 0x3ff), "");
  LLVMValueRef frac_bits = LLVMBuildShl(b, frac, iconst(h, 13), "");
  LLVMValueRef sub = LLVMBuildOr(
      b, LLVMBuildShl(b, LLVMBuildSub(b, iconst(h, 113), k, ""), iconst(h, 23), ""), frac_bits, "");
  sub = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, m, iconst(h, 0), ""), iconst(h, 0), sub, "");
  LLVMValueRef r = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, e, iconst(h, 0), ""), sub,
                                   normal, "");
  r = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, e, iconst(h, 0x1f), ""), special, r, "");
  return LLVMBuildBitCast(b, LLVMBuildOr(b, r, sign, ""), cg->t_f32, "");
}

/* f32 -> f16 bits, round to nearest even, in integers: normal results by
 * rebiasing the exponent and rounding off 13 mantissa bits (a carry moves
 * into the exponent), subnormal ones by shifting the significand right
 * s = 126 - e places (at least 14). 65520 and above round to inf; a NaN
 * stays a quiet NaN of its sign. */
static LLVMValueRef f32_to_f16_bits(CG *cg, LLVMValueRef v) {
  LLVMBuilderRef b = cg->b;
  LLVMValueRef u = LLVMBuildBitCast(b, v, cg->t_i32, "");
  LLVMValueRef sign = LLVMBuildAnd(b, LLVMBuildLShr(b, u, iconst(u, 16), ""), iconst(u, 0x8000), "");
  LLVMValueRef a = LLVMBuildAnd(b, u, iconst(u, 0x7fffffff), "");
  LLVMValueRef n = LLVMBuildSub(b, a, iconst(u, 112u << 23), "");
  LLVMValueRef lsb = LLVMBuildAnd(b, LLVMBuildLShr(b, n, iconst(u, 13), ""), iconst(u, 1), "");
  n = LLVMBuildLShr(b, LLVMBuildAdd(b, n, LLVMBuildAdd(b, lsb, iconst(u, 0xfff), ""), ""),
                    iconst(u, 13), "");
  LLVMValueRef e = LLVMBuildLShr(b, a, iconst(u, 23), "");
  LLVMValueRef sh = cg_intr2(cg, "llvm.umin", LLVMBuildSub(b, iconst(u, 126), e, ""), iconst(u, 31));
  LLVMValueRef m = LLVMBuildOr(b, LLVMBuildAnd(b, a, iconst(u, 0x7fffff), ""), iconst(u, 0x800000), "");
  LLVMValueRef q = LLVMBuildLShr(b, m, sh, "");
  LLVMValueRef sh1 = LLVMBuildSub(b, sh, iconst(u, 1), "");
  LLVMValueRef half = LLVMBuildAnd(b, LLVMBuildLShr(b, m, sh1, ""), iconst(u, 1), "");
  LLVMValueRef below = LLVMBuildAnd(b, m, LLVMBuildSub(b, LLVMBuildShl(b, iconst(u, 1), sh1, ""),
                                                       iconst(u, 1), ""), "");
  LLVMValueRef sticky = LLVMBuildZExt(b, LLVMBuildICmp(b, LLVMIntNE, below, iconst(u, 0), ""),
                                      cg->t_i32, "");
  LLVMValueRef up = LLVMBuildAnd(b, half, LLVMBuildOr(b, sticky, LLVMBuildAnd(b, q, iconst(u, 1), ""), ""), "");
  q = LLVMBuildAdd(b, q, up, "");
  LLVMValueRef r = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntUGE, a, iconst(u, 0x38800000), ""),
                                   n, q, "");
  r = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntUGE, a, iconst(u, 0x477ff000), ""),
                      iconst(u, 0x7c00), r, "");
  LLVMValueRef nan = LLVMBuildOr(b, iconst(u, 0x7e00),
                                 LLVMBuildAnd(b, LLVMBuildLShr(b, a, iconst(u, 13), ""), iconst(u, 0x3ff), ""), "");
  r = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntUGT, a, iconst(u, 0x7f800000), ""), nan, r, "");
  return LLVMBuildTrunc(b, LLVMBuildOr(b, r, sign, ""), cg->t_i16, "");
}

/* f64 -> f32 rounded to odd: truncate toward zero and set the last bit
 * when inexact. Rounding that once more to a format with at least two bits
 * less precision (f16, bf16) gives the correctly rounded result, which
 * rounding twice to nearest does not. */
static LLVMValueRef f64_to_f32_odd(CG *cg, LLVMValueRef d) {
  LLVMBuilderRef b = cg->b;
  LLVMValueRef f = LLVMBuildFPTrunc(b, d, cg->t_f32, "");
  LLVMValueRef back = LLVMBuildFPExt(b, f, cg->t_f64, "");
  LLVMValueRef inexact = LLVMBuildFCmp(b, LLVMRealONE, back, d, "");
  LLVMValueRef d_abs = cg_intr1(cg, "llvm.fabs", d);
  LLVMValueRef away = LLVMBuildFCmp(b, LLVMRealOGT, cg_intr1(cg, "llvm.fabs", back), d_abs, "");
  LLVMValueRef bits = LLVMBuildBitCast(b, f, cg->t_i32, "");
  bits = LLVMBuildSub(b, bits, LLVMBuildZExt(b, away, cg->t_i32, ""), "");
  bits = LLVMBuildOr(b, bits, LLVMBuildZExt(b, inexact, cg->t_i32, ""), "");
  return LLVMBuildBitCast(b, bits, cg->t_f32, "");
}

/* A float of type e (compute type) widened to f32 (16-bit types) or kept
 * (the types narrower than 16 bits are computed in f32 already). */
static LLVMValueRef fwiden(CG *cg, LLVMValueRef v, ElemType e) {
  if (e == ET_BF16) return bf16_to_f32(cg, v);
  if (e == ET_F16 && cg->t_f16 == cg->t_i16) return f16_bits_to_f32(cg, v);
  if (e == ET_F16) return LLVMBuildFPExt(cg->b, v, cg->t_f32, "");
  return v;
}

/* An f32 or f64 value rounded to float type e. */
static LLVMValueRef fnarrow(CG *cg, LLVMValueRef v, ElemType e) {
  bool from64 = LLVMTypeOf(v) == cg->t_f64;
  if (cg_is_small_float(e)) return cg_small_round(cg, v, e); /* once, from v */
  switch (e) {
  case ET_F64: return from64 ? v : LLVMBuildFPExt(cg->b, v, cg->t_f64, "");
  case ET_F32: return from64 ? LLVMBuildFPTrunc(cg->b, v, cg->t_f32, "") : v;
  case ET_F16:
    if (from64) v = f64_to_f32_odd(cg, v);
    if (cg->t_f16 == cg->t_i16) return f32_to_f16_bits(cg, v);
    return LLVMBuildFPTrunc(cg->b, v, cg->t_f16, "");
  default: /* ET_BF16 */
    if (from64) v = f64_to_f32_odd(cg, v);
    return f32_to_bf16(cg, v);
  }
}

/* ------------------------------------------------------------------------ */
/* convert (spec "convert")                                                  */

static LLVMValueRef to_bool(CG *cg, LLVMValueRef v, ElemType from) {
  if (elem_is_float(from)) {
    v = fwiden(cg, v, from);
    return LLVMBuildFCmp(cg->b, LLVMRealUNE, v, fconst(v, 0.0), "");
  }
  return LLVMBuildICmp(cg->b, LLVMIntNE, v, LLVMConstNull(LLVMTypeOf(v)), "");
}

/* Integer (i1 as unsigned) to float type `to`. 16-bit results go through
 * f64, which holds every integer up to 2^53 exactly. */
static LLVMValueRef int_to_float(CG *cg, LLVMValueRef v, ElemType from, ElemType to) {
  bool sgn = is_signed(from);
  LLVMTypeRef t = to == ET_F32 ? cg->t_f32 : cg->t_f64;
  v = sgn ? LLVMBuildSIToFP(cg->b, v, t, "") : LLVMBuildUIToFP(cg->b, v, t, "");
  return fnarrow(cg, v, to);
}

/* Truncates toward zero (spec); out of range saturates, NaN gives 0. */
static LLVMValueRef float_to_int(CG *cg, LLVMValueRef v, ElemType from, ElemType to) {
  v = fwiden(cg, v, from);
  LLVMTypeRef tys[2] = {cg_scalar_type(cg, to), LLVMTypeOf(v)};
  const char *name = is_signed(to) ? "llvm.fptosi.sat" : "llvm.fptoui.sat";
  return cg_intrinsic(cg->b, name, tys, 2, &v, 1);
}

LLVMValueRef cg_convert(CG *cg, LLVMValueRef v, ElemType from, ElemType to) {
  if (from == to) return v;
  if (elem_is_complex(from) || elem_is_complex(to))
    return cg_complex_convert(cg, v, from, to);
  if (to == ET_I1) return to_bool(cg, v, from);
  bool ff = elem_is_float(from), ft = elem_is_float(to);
  if (!ff && !ft)
    return LLVMBuildIntCast2(cg->b, v, cg_scalar_type(cg, to), is_signed(from), "");
  if (!ff) return int_to_float(cg, v, from, to);
  if (!ft) return float_to_int(cg, v, from, to);
  return fnarrow(cg, fwiden(cg, v, from), to);
}

/* ------------------------------------------------------------------------ */
/* compare (spec "compare")                                                  */

static const LLVMRealPredicate fpreds[] = {
    [CMP_EQ] = LLVMRealOEQ, [CMP_NE] = LLVMRealUNE, [CMP_GE] = LLVMRealOGE,
    [CMP_GT] = LLVMRealOGT, [CMP_LE] = LLVMRealOLE, [CMP_LT] = LLVMRealOLT};
static const LLVMIntPredicate spreds[] = {
    [CMP_EQ] = LLVMIntEQ,  [CMP_NE] = LLVMIntNE,  [CMP_GE] = LLVMIntSGE,
    [CMP_GT] = LLVMIntSGT, [CMP_LE] = LLVMIntSLE, [CMP_LT] = LLVMIntSLT};
static const LLVMIntPredicate upreds[] = {
    [CMP_EQ] = LLVMIntEQ,  [CMP_NE] = LLVMIntNE,  [CMP_GE] = LLVMIntUGE,
    [CMP_GT] = LLVMIntUGT, [CMP_LE] = LLVMIntULE, [CMP_LT] = LLVMIntULT};

/* IEEE totalOrder as a signed integer key: negative floats get their
 * magnitude bits flipped, so -NaN < -inf < ... < -0 < +0 < ... < +NaN. */
static LLVMValueRef total_order_key(CG *cg, LLVMValueRef v, ElemType e) {
  LLVMTypeRef it = LLVMIntTypeInContext(cg->ctx, (unsigned)elem_bits(e));
  LLVMValueRef i;
  if (e == ET_F8E8M0FNU) /* unsigned: its bits are the order */
    return LLVMBuildZExt(cg->b, cg_small_encode(cg, v, e), cg->t_i16, "");
  if (cg_is_small_float(e))
    i = LLVMBuildTrunc(cg->b, cg_small_encode(cg, v, e), it, "");
  else
    i = LLVMBuildBitCast(cg->b, v, it, "");
  LLVMValueRef sign = LLVMBuildAShr(cg->b, i, iconst(i, (unsigned)elem_bits(e) - 1), "");
  LLVMValueRef mask = LLVMBuildLShr(cg->b, sign, iconst(i, 1), "");
  return LLVMBuildXor(cg->b, i, mask, "");
}

static LLVMValueRef compare(CG *cg, const Scalar *s) {
  CmpDir d = s->op->a.comparison_direction;
  CmpType ct = s->op->a.compare_type;
  LLVMValueRef x = s->x, y = s->y;
  ElemType e = s->e;
  if (elem_is_float(e)) {
    if (ct == CMPT_TOTALORDER) {
      LLVMValueRef ky = total_order_key(cg, y, e);
      return LLVMBuildICmp(cg->b, spreds[d], total_order_key(cg, x, e), ky, "");
    }
    LLVMValueRef wy = fwiden(cg, y, e);
    return LLVMBuildFCmp(cg->b, fpreds[d], fwiden(cg, x, e), wy, "");
  }
  bool sgn = ct == CMPT_SIGNED || (ct == CMPT_NOTYPE && is_signed(e));
  return LLVMBuildICmp(cg->b, sgn ? spreds[d] : upreds[d], x, y, "");
}

/* ------------------------------------------------------------------------ */
/* Integer ops                                                               */

/* spec "divide"/"remainder" with XLA's values where the spec has none. */
static LLVMValueRef int_div(CG *cg, const Scalar *s) {
  LLVMBuilderRef b = cg->b;
  LLVMValueRef x = s->x, y = s->y;
  bool sgn = is_signed(s->r), rem = s->op->code == OP_REMAINDER;
  LLVMValueRef zero = LLVMConstNull(LLVMTypeOf(x)), one = iconst(x, 1);
  LLVMValueRef yz = LLVMBuildICmp(b, LLVMIntEQ, y, zero, "");
  LLVMValueRef bad = yz;
  if (sgn) {
    LLVMValueRef minus1 = LLVMConstAllOnes(LLVMTypeOf(x));
    LLVMValueRef intmin = iconst(x, 1ull << (int_bits(x) - 1));
    LLVMValueRef y_m1 = LLVMBuildICmp(b, LLVMIntEQ, y, minus1, "");
    LLVMValueRef ovf = LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntEQ, x, intmin, ""), y_m1, "");
    bad = LLVMBuildOr(b, yz, ovf, "");
  }
  /* x / 1 = x is INT_MIN / -1's result, x % 1 = 0 its remainder. */
  LLVMValueRef ys = LLVMBuildSelect(b, bad, one, y, "");
  LLVMValueRef r;
  if (rem)
    r = sgn ? LLVMBuildSRem(b, x, ys, "") : LLVMBuildURem(b, x, ys, "");
  else
    r = sgn ? LLVMBuildSDiv(b, x, ys, "") : LLVMBuildUDiv(b, x, ys, "");
  LLVMValueRef byzero = rem ? x : LLVMConstAllOnes(LLVMTypeOf(x));
  return LLVMBuildSelect(b, yz, byzero, r, "");
}

static LLVMValueRef int_shift(CG *cg, const Scalar *s) {
  LLVMBuilderRef b = cg->b;
  LLVMValueRef x = s->x, y = s->y;
  OpCode c = s->op->code;
  unsigned bits = (unsigned)int_bits(x);
  LLVMValueRef big = LLVMBuildICmp(b, LLVMIntUGE, y, iconst(y, bits), "");
  if (c == OP_SHIFT_RIGHT_ARITHMETIC) {
    LLVMValueRef amt = LLVMBuildSelect(b, big, iconst(y, bits - 1), y, "");
    return LLVMBuildAShr(b, x, amt, "");
  }
  LLVMValueRef amt = LLVMBuildSelect(b, big, LLVMConstNull(LLVMTypeOf(y)), y, "");
  LLVMValueRef r = c == OP_SHIFT_LEFT ? LLVMBuildShl(b, x, amt, "")
                                      : LLVMBuildLShr(b, x, amt, "");
  return LLVMBuildSelect(b, big, LLVMConstNull(LLVMTypeOf(x)), r, "");
}

/* spec "power" on integers, as the reference interpreter: exponentiation
 * by squaring (wrapping); a negative exponent gives 0 unless |x| = 1.
 * Unrolled over every exponent bit: straight-line code, vectorizable. */
static LLVMValueRef int_pow(CG *cg, const Scalar *s) {
  LLVMBuilderRef b = cg->b;
  LLVMValueRef x = s->x, y = s->y;
  bool sgn = is_signed(s->r);
  LLVMValueRef zero = LLVMConstNull(LLVMTypeOf(x)), one = iconst(x, 1);
  LLVMValueRef e = y, zero_res = NULL;
  if (sgn) {
    LLVMValueRef neg = LLVMBuildICmp(b, LLVMIntSLT, y, zero, "");
    LLVMValueRef x_m1 = LLVMBuildICmp(b, LLVMIntEQ, x, LLVMConstAllOnes(LLVMTypeOf(x)), "");
    LLVMValueRef unit = LLVMBuildOr(b, LLVMBuildICmp(b, LLVMIntEQ, x, one, ""), x_m1, "");
    zero_res = LLVMBuildAnd(b, neg, LLVMBuildNot(b, unit, ""), "");
    e = LLVMBuildSelect(b, neg, LLVMBuildSub(b, zero, y, ""), y, "");
  }
  LLVMValueRef res = one, base = x;
  int bits = int_bits(x);
  for (int i = 0; i < bits; i++) {
    LLVMValueRef bit = LLVMBuildTrunc(b, LLVMBuildLShr(b, e, iconst(e, (unsigned)i), ""), cg->t_i1, "");
    res = LLVMBuildSelect(b, bit, LLVMBuildMul(b, res, base, ""), res, "");
    if (i + 1 < bits) base = LLVMBuildMul(b, base, base, "");
  }
  return zero_res ? LLVMBuildSelect(b, zero_res, zero, res, "") : res;
}

/* spec "sign". */
static LLVMValueRef int_sign(CG *cg, const Scalar *s) {
  LLVMBuilderRef b = cg->b;
  LLVMValueRef x = s->x;
  bool sgn = is_signed(s->r);
  LLVMValueRef zero = LLVMConstNull(LLVMTypeOf(x));
  LLVMValueRef pos = LLVMBuildZExt(b, LLVMBuildICmp(b, sgn ? LLVMIntSGT : LLVMIntNE, x, zero, ""),
                                   LLVMTypeOf(x), "");
  if (!sgn) return pos;
  LLVMValueRef neg = LLVMBuildZExt(b, LLVMBuildICmp(b, LLVMIntSLT, x, zero, ""), LLVMTypeOf(x), "");
  return LLVMBuildSub(b, pos, neg, "");
}

/* spec "abs": |INT_MIN| wraps to INT_MIN. */
static LLVMValueRef int_abs(CG *cg, const Scalar *s) {
  if (!is_signed(s->r)) return s->x;
  return cg_intr2(cg, "llvm.abs", s->x, LLVMConstInt(cg->t_i1, 0, 0));
}

static LLVMValueRef int_minmax(CG *cg, const Scalar *s) {
  bool sgn = is_signed(s->r);
  if (s->op->code == OP_MAXIMUM) return cg_intr2(cg, sgn ? "llvm.smax" : "llvm.umax", s->x, s->y);
  return cg_intr2(cg, sgn ? "llvm.smin" : "llvm.umin", s->x, s->y);
}

static LLVMValueRef int_clz(CG *cg, const Scalar *s) {
  return cg_intr2(cg, "llvm.ctlz", s->x, LLVMConstInt(cg->t_i1, 0, 0));
}

/* ------------------------------------------------------------------------ */
/* Float ops (on f32 or f64)                                                 */

/* 2^s as a double for -1074 <= s <= 1023. */
static LLVMValueRef pow2_f64(CG *cg, LLVMValueRef s) {
  LLVMBuilderRef b = cg->b;
  LLVMValueRef normal = LLVMBuildICmp(b, LLVMIntSGE, s, cg_i64(cg, -1022), "");
  LLVMValueRef nbits = LLVMBuildShl(b, LLVMBuildAdd(b, s, cg_i64(cg, 1023), ""), cg_i64(cg, 52), "");
  LLVMValueRef sub = LLVMBuildAdd(b, s, cg_i64(cg, 1074), "");
  sub = LLVMBuildSelect(b, normal, cg_i64(cg, 0), sub, "");
  LLVMValueRef dbits = LLVMBuildShl(b, cg_i64(cg, 1), sub, "");
  return LLVMBuildBitCast(b, LLVMBuildSelect(b, normal, nbits, dbits, ""), cg->t_f64, "");
}

/* Significand and exponent of a finite |x| (as f64 bits): x = m * 2^(e - 1075)
 * with m < 2^53, e >= 1 (subnormals have e = 1 and no implicit bit). */
static void f64_parts(CG *cg, LLVMValueRef bits, LLVMValueRef *m, LLVMValueRef *e) {
  LLVMBuilderRef b = cg->b;
  LLVMValueRef ef = LLVMBuildLShr(b, bits, cg_i64(cg, 52), "");
  LLVMValueRef frac = LLVMBuildAnd(b, bits, cg_i64(cg, (1ll << 52) - 1), "");
  LLVMValueRef normal = LLVMBuildICmp(b, LLVMIntNE, ef, cg_i64(cg, 0), "");
  *m = LLVMBuildOr(b, frac, LLVMBuildSelect(b, normal, cg_i64(cg, 1ll << 52), cg_i64(cg, 0), ""), "");
  *e = LLVMBuildSelect(b, normal, ef, cg_i64(cg, 1), "");
}

/* while (e > ey) { k = min(e - ey, 11); r = (r << k) mod my; e -= k; }
 * from (r0, e0); returns the final r with the builder after the loop. */
static LLVMValueRef fmod_loop(CG *cg, LLVMValueRef r0, LLVMValueRef e0,
                              LLVMValueRef ey, LLVMValueRef my) {
  LLVMBuilderRef b = cg->b;
  LLVMBasicBlockRef pre = LLVMGetInsertBlock(b);
  LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(cg->ctx, cg->llfn, "fmod.loop");
  LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(cg->ctx, cg->llfn, "fmod.step");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(cg->ctx, cg->llfn, "fmod.done");
  LLVMBuildBr(b, head);
  LLVMPositionBuilderAtEnd(b, head);
  LLVMValueRef r = LLVMBuildPhi(b, cg->t_i64, "r"), e = LLVMBuildPhi(b, cg->t_i64, "e");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSGT, e, ey, ""), body, done);
  LLVMPositionBuilderAtEnd(b, body);
  LLVMValueRef k = cg_intr2(cg, "llvm.smin", LLVMBuildSub(b, e, ey, ""), cg_i64(cg, 11));
  LLVMValueRef r1 = LLVMBuildURem(b, LLVMBuildShl(b, r, k, ""), my, "");
  LLVMValueRef e1 = LLVMBuildSub(b, e, k, "");
  LLVMBuildBr(b, head);
  LLVMValueRef rin[2] = {r0, r1}, ein[2] = {e0, e1};
  LLVMBasicBlockRef from[2] = {pre, body};
  LLVMAddIncoming(r, rin, from, 2);
  LLVMAddIncoming(e, ein, from, 2);
  LLVMPositionBuilderAtEnd(b, done);
  return r;
}

/* spec "remainder" on f64, exactly: the result lhs - d * rhs with d the
 * quotient truncated toward zero is always representable (it is fmod).
 * With x = mx 2^ex, y = my 2^ey (ex >= ey when |x| >= |y|), the remainder's
 * significand is (mx 2^(ex-ey)) mod my, computed 11 exponent steps at a
 * time in 64-bit integers: r = (r << k) mod my keeps r < my < 2^53. */
static LLVMValueRef fmod_f64(CG *cg, LLVMValueRef x, LLVMValueRef y) {
  LLVMBuilderRef b = cg->b;
  LLVMValueRef ax = cg_intr1(cg, "llvm.fabs", x), ay = cg_intr1(cg, "llvm.fabs", y);
  LLVMValueRef inf = fconst(x, __builtin_inf());
  LLVMValueRef y_zero = LLVMBuildFCmp(b, LLVMRealOEQ, ay, fconst(y, 0.0), "");
  LLVMValueRef inf_or_zero = LLVMBuildOr(b, LLVMBuildFCmp(b, LLVMRealOEQ, ax, inf, ""), y_zero, "");
  LLVMValueRef special = LLVMBuildOr(b, LLVMBuildFCmp(b, LLVMRealUNO, x, y, ""), inf_or_zero, "");
  LLVMValueRef small = LLVMBuildFCmp(b, LLVMRealOLT, ax, ay, "");
  LLVMValueRef mx, ex, my, ey;
  f64_parts(cg, LLVMBuildBitCast(b, ax, cg->t_i64, ""), &mx, &ex);
  f64_parts(cg, LLVMBuildBitCast(b, ay, cg->t_i64, ""), &my, &ey);
  my = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, my, cg_i64(cg, 0), ""), cg_i64(cg, 1), my, "");
  /* Special and small cases skip the loop; their result is chosen below. */
  LLVMValueRef e0 = LLVMBuildSelect(b, LLVMBuildOr(b, special, small, ""), ey, ex, "");
  LLVMValueRef r = fmod_loop(cg, LLVMBuildURem(b, mx, my, ""), e0, ey, my);
  LLVMValueRef scale = pow2_f64(cg, LLVMBuildSub(b, ey, cg_i64(cg, 1075), ""));
  LLVMValueRef mag = LLVMBuildFMul(b, LLVMBuildUIToFP(b, r, cg->t_f64, ""), scale, "");
  LLVMValueRef res = cg_intr2(cg, "llvm.copysign", mag, x);
  res = LLVMBuildSelect(b, small, x, res, "");
  return LLVMBuildSelect(b, special, fconst(x, __builtin_nan("")), res, "");
}

static LLVMValueRef float_rem(CG *cg, const Scalar *s) {
  LLVMValueRef x = s->x, y = s->y;
  if (LLVMTypeOf(x) == cg->t_f64) return fmod_f64(cg, x, y);
  LLVMValueRef y64 = LLVMBuildFPExt(cg->b, y, cg->t_f64, "");
  LLVMValueRef r = fmod_f64(cg, LLVMBuildFPExt(cg->b, x, cg->t_f64, ""), y64);
  return LLVMBuildFPTrunc(cg->b, r, LLVMTypeOf(x), ""); /* exact */
}

/* Round to integral without rounding instructions: for |x| < 2^p (p the
 * mantissa width) (|x| + 2^p) - 2^p is |x| rounded to nearest even, and
 * the floating-point add does the rounding; larger values, infinities and
 * NaN are integral already. floor, ceil and ties-away adjust that by one
 * where it went the wrong way (the differences are exact, Sterbenz). */
static LLVMValueRef round_soft(CG *cg, OpCode c, LLVMValueRef x) {
  LLVMBuilderRef b = cg->b;
  double big = LLVMTypeOf(x) == cg->t_f64 ? 4503599627370496.0 : 8388608.0;
  LLVMValueRef ax = cg_intr1(cg, "llvm.fabs", x), one = fconst(x, 1.0);
  LLVMValueRef r = LLVMBuildFSub(b, LLVMBuildFAdd(b, ax, fconst(x, big), ""), fconst(x, big), "");
  if (c == OP_ROUND_NEAREST_AFZ) {
    LLVMValueRef tie = LLVMBuildFCmp(b, LLVMRealOEQ, LLVMBuildFSub(b, ax, r, ""), fconst(x, 0.5), "");
    r = LLVMBuildSelect(b, tie, LLVMBuildFAdd(b, r, one, ""), r, "");
  }
  r = cg_intr2(cg, "llvm.copysign", r, x);
  if (c == OP_FLOOR) {
    LLVMValueRef down = LLVMBuildFSub(b, r, one, "");
    r = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOGT, r, x, ""), down, r, "");
  }
  if (c == OP_CEIL) {
    LLVMValueRef up = LLVMBuildFAdd(b, r, one, "");
    r = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOLT, r, x, ""), up, r, "");
  }
  r = cg_intr2(cg, "llvm.copysign", r, x); /* ceil(-0.5) is -0 */
  LLVMValueRef small = LLVMBuildFCmp(b, LLVMRealOLT, ax, fconst(x, big), "");
  return LLVMBuildSelect(b, small, r, x, "");
}

/* spec "floor", "ceil", "round_nearest_afz", "round_nearest_even". */
static LLVMValueRef round_integral(CG *cg, const Scalar *s) {
  OpCode c = s->op->code;
  LLVMValueRef x = s->x;
  CgInsn k = c == OP_FLOOR ? CG_INSN_FLOOR : c == OP_CEIL ? CG_INSN_CEIL
            : c == OP_ROUND_NEAREST_AFZ ? CG_INSN_ROUND : CG_INSN_ROUNDEVEN;
  /* Without an instruction LLVM calls libm (x86 before SSE4.1, FPUs
   * without rounding instructions such as the Cortex-M4's). */
  if (!cg_has_insn(cg, k, LLVMTypeOf(x))) return round_soft(cg, c, x);
  const char *name = c == OP_FLOOR ? "llvm.floor" : c == OP_CEIL ? "llvm.ceil"
                   : c == OP_ROUND_NEAREST_AFZ ? "llvm.round" : "llvm.roundeven";
  return cg_intr1(cg, name, x);
}

/* spec "maximum"/"minimum" (c): IEEE maximum/minimum, NaN propagating,
 * -0 < +0. llvm.maximum/minimum where the target has an FPU for the type
 * (LLVM cannot lower them to soft-float calls: it aborts); else compares,
 * with equal operands (+-0 among them) merged by their bits: and for the
 * maximum (+0 if either is), or for the minimum. */
static LLVMValueRef float_minmax(CG *cg, OpCode c, LLVMValueRef x, LLVMValueRef y) {
  bool max = c == OP_MAXIMUM;
  if (cg_has_insn(cg, CG_INSN_ARITH, LLVMTypeOf(x)))
    return cg_intr2(cg, max ? "llvm.maximum" : "llvm.minimum", x, y);
  LLVMBuilderRef b = cg->b;
  LLVMTypeRef it = LLVMIntTypeInContext(cg->ctx, LLVMGetTypeKind(LLVMTypeOf(x)) == LLVMDoubleTypeKind ? 64 : 32);
  LLVMValueRef bx = LLVMBuildBitCast(b, x, it, ""), by = LLVMBuildBitCast(b, y, it, "");
  LLVMValueRef eqv = LLVMBuildBitCast(b, max ? LLVMBuildAnd(b, bx, by, "") : LLVMBuildOr(b, bx, by, ""),
                                      LLVMTypeOf(x), "");
  LLVMValueRef r = LLVMBuildSelect(b, LLVMBuildFCmp(b, max ? LLVMRealOGT : LLVMRealOLT, x, y, ""),
                                   x, y, "");
  r = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOEQ, x, y, ""), eqv, r, "");
  return LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealUNO, x, x, ""), x, r, "");
}

static LLVMValueRef float_maxmin(CG *cg, const Scalar *s) {
  return float_minmax(cg, s->op->code, s->x, s->y);
}

/* The digit-by-digit square root of the sqrt_soft: `root` =
 * floor(sqrt(N)) of N = (m << (p + 2)), two bits of N per step from the
 * top (mm: m's bits left-aligned in 64, zeros after them). The remainder
 * stays below 2 root + 1 < 2^(p + 4), so 64 bits hold every step. */
static LLVMValueRef sqrt_digits(CG *cg, LLVMValueRef m, int p) {
  LLVMBuilderRef b = cg->b;
  LLVMValueRef mm_a = cg_entry_alloca(cg, cg->t_i64, "sqrt.mm");
  LLVMValueRef rem_a = cg_entry_alloca(cg, cg->t_i64, "sqrt.rem");
  LLVMValueRef root_a = cg_entry_alloca(cg, cg->t_i64, "sqrt.root");
  LLVMBuildStore(b, LLVMBuildShl(b, m, cg_i64(cg, 62 - p), ""), mm_a);
  LLVMBuildStore(b, cg_i64(cg, 0), rem_a);
  LLVMBuildStore(b, cg_i64(cg, 0), root_a);
  CgLoop l;
  cg_loop_begin(cg, &l, cg_i64(cg, 0), cg_i64(cg, p + 2));
  LLVMValueRef mm = LLVMBuildLoad2(b, cg->t_i64, mm_a, "");
  LLVMValueRef rem = LLVMBuildLoad2(b, cg->t_i64, rem_a, "");
  LLVMValueRef root = LLVMBuildLoad2(b, cg->t_i64, root_a, "");
  LLVMValueRef top = LLVMBuildLShr(b, mm, cg_i64(cg, 62), "");
  rem = LLVMBuildOr(b, LLVMBuildShl(b, rem, cg_i64(cg, 2), ""), top, "");
  LLVMValueRef t = LLVMBuildOr(b, LLVMBuildShl(b, root, cg_i64(cg, 2), ""), cg_i64(cg, 1), "");
  LLVMValueRef ge = LLVMBuildICmp(b, LLVMIntUGE, rem, t, "");
  LLVMBuildStore(b, LLVMBuildSelect(b, ge, LLVMBuildSub(b, rem, t, ""), rem, ""), rem_a);
  LLVMValueRef bit = LLVMBuildZExt(b, ge, cg->t_i64, "");
  LLVMBuildStore(b, LLVMBuildOr(b, LLVMBuildShl(b, root, cg_i64(cg, 1), ""), bit, ""), root_a);
  LLVMBuildStore(b, LLVMBuildShl(b, mm, cg_i64(cg, 2), ""), mm_a);
  cg_loop_end(cg, &l);
  return LLVMBuildLoad2(b, cg->t_i64, root_a, "");
}

/* Correctly rounded sqrt in integers (spec "sqrt"; IEEE 754 5.4.1), for
 * targets without a square root instruction. A finite x > 0 is m 2^E with
 * m holding the leading one at bit p (p: 23 or 52), E - p made even by
 * doubling m; then sqrt(x) = sqrt(m 2^(p+2)) 2^((E - p - 2) / 2), whose
 * integer part `root` has p + 2 bits: p + 1 for the result and one to
 * round on. A square root never lies halfway between two floats, so
 * (root + 1) >> 1 is the rounding to nearest; the result is normal. */
static LLVMValueRef sqrt_soft(CG *cg, LLVMValueRef x) {
  LLVMBuilderRef b = cg->b;
  bool d = LLVMTypeOf(x) == cg->t_f64;
  int p = d ? 52 : 23, bias = d ? 1023 : 127;
  LLVMTypeRef it = d ? cg->t_i64 : cg->t_i32;
  LLVMValueRef bits = LLVMBuildZExt(b, LLVMBuildBitCast(b, x, it, ""), cg->t_i64, "");
  uint64_t expmask = ((1ull << (d ? 11 : 8)) - 1) << p;
  LLVMValueRef a = LLVMBuildAnd(b, bits, cg_i64(cg, (int64_t)((1ull << (d ? 63 : 31)) - 1)), "");
  LLVMValueRef ef = LLVMBuildLShr(b, a, cg_i64(cg, p), "");
  LLVMValueRef frac = LLVMBuildAnd(b, a, cg_i64(cg, (int64_t)((1ull << p) - 1)), "");
  LLVMValueRef normal = LLVMBuildICmp(b, LLVMIntNE, ef, cg_i64(cg, 0), "");
  LLVMValueRef lz = LLVMBuildSub(b, cg_intr2(cg, "llvm.ctlz", frac, LLVMConstInt(cg->t_i1, 0, 0)),
                                 cg_i64(cg, 63 - p), "");
  LLVMValueRef shift = LLVMBuildSelect(b, normal, cg_i64(cg, 0), lz, "");
  LLVMValueRef m = LLVMBuildOr(b, frac, LLVMBuildSelect(b, normal, cg_i64(cg, 1ll << p), cg_i64(cg, 0), ""), "");
  m = LLVMBuildShl(b, m, shift, "");
  LLVMValueRef E = LLVMBuildSub(b, LLVMBuildSelect(b, normal, ef, LLVMBuildSub(b, cg_i64(cg, 1), shift, ""), ""),
                                cg_i64(cg, bias + p), "");
  LLVMValueRef odd = LLVMBuildAnd(b, LLVMBuildSub(b, E, cg_i64(cg, p), ""), cg_i64(cg, 1), "");
  m = LLVMBuildShl(b, m, odd, "");
  E = LLVMBuildSub(b, E, odd, "");
  LLVMValueRef root = sqrt_digits(cg, m, p);
  LLVMValueRef M = LLVMBuildLShr(b, LLVMBuildAdd(b, root, cg_i64(cg, 1), ""), cg_i64(cg, 1), "");
  LLVMValueRef re = LLVMBuildAdd(b, LLVMBuildAShr(b, LLVMBuildSub(b, E, cg_i64(cg, p), ""), cg_i64(cg, 1), ""),
                                 cg_i64(cg, p + bias - 1), "");
  LLVMValueRef r = LLVMBuildAdd(b, LLVMBuildShl(b, re, cg_i64(cg, p), ""), M, "");
  /* +-0 and +inf are their own roots, x < 0 gives NaN, a NaN stays one */
  LLVMValueRef quiet = cg_i64(cg, 1ll << (p - 1));
  LLVMValueRef neg = LLVMBuildICmp(b, LLVMIntNE, a, bits, "");
  r = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, a, cg_i64(cg, (int64_t)expmask), ""), bits, r, "");
  r = LLVMBuildSelect(b, neg, cg_i64(cg, (int64_t)(expmask | (1ull << (p - 1)))), r, "");
  r = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, a, cg_i64(cg, 0), ""), bits, r, "");
  LLVMValueRef quieted = LLVMBuildOr(b, bits, quiet, "");
  r = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntUGT, a, cg_i64(cg, (int64_t)expmask), ""), quieted, r, "");
  return LLVMBuildBitCast(b, LLVMBuildTrunc(b, r, it, ""), LLVMTypeOf(x), "");
}

LLVMValueRef cg_sqrt(CG *cg, LLVMValueRef x) {
  if (cg_has_insn(cg, CG_INSN_SQRT, LLVMTypeOf(x))) return cg_intr1(cg, "llvm.sqrt", x);
  return sqrt_soft(cg, x);
}

static LLVMValueRef float_sqrt(CG *cg, const Scalar *s) { return cg_sqrt(cg, s->x); }

/* spec "rsqrt": vmath's (in f64 for f32), or 1 / sqrt in f64 rounded
 * once more where the target has no f64 square root instruction. */
static LLVMValueRef float_rsqrt(CG *cg, const Scalar *s) {
  LLVMValueRef x = s->x;
  if (cg_has_insn(cg, CG_INSN_SQRT, cg->t_f64)) return math_rsqrt(cg->b, x);
  bool f32 = LLVMTypeOf(x) == cg->t_f32;
  LLVMValueRef w = f32 ? LLVMBuildFPExt(cg->b, x, cg->t_f64, "") : x;
  LLVMValueRef r = LLVMBuildFDiv(cg->b, LLVMConstReal(cg->t_f64, 1.0), sqrt_soft(cg, w), "");
  return f32 ? LLVMBuildFPTrunc(cg->b, r, cg->t_f32, "") : r;
}

/* spec "sign": NaN and +-0 are returned as they are, else +-1. */
static LLVMValueRef float_sign(CG *cg, const Scalar *s) {
  LLVMValueRef x = s->x;
  LLVMValueRef keep = LLVMBuildFCmp(cg->b, LLVMRealUEQ, x, fconst(x, 0.0), "");
  LLVMValueRef one = cg_intr2(cg, "llvm.copysign", fconst(x, 1.0), x);
  return LLVMBuildSelect(cg->b, keep, x, one, "");
}

/* ------------------------------------------------------------------------ */
/* Ops with their own rules                                                  */

/* spec "convert". */
static LLVMValueRef convert(CG *cg, const Scalar *s) { return cg_convert(cg, s->x, s->e, s->r); }

/* spec "select". */
static LLVMValueRef select_(CG *cg, const Scalar *s) {
  return LLVMBuildSelect(cg->b, s->x, s->y, s->z, "");
}

/* spec "clamp": minimum(maximum(operand, min), max). */
static LLVMValueRef clamp(CG *cg, const Scalar *s) {
  LLVMValueRef lo = s->x, x = s->y, hi = s->z;
  ElemType e = s->r;
  if (elem_is_float(e)) {
    LLVMValueRef wlo = fwiden(cg, lo, e);
    LLVMValueRef r = float_minmax(cg, OP_MAXIMUM, fwiden(cg, x, e), wlo);
    r = float_minmax(cg, OP_MINIMUM, r, fwiden(cg, hi, e));
    return fnarrow(cg, r, e);
  }
  if (e == ET_I1) return LLVMBuildAnd(cg->b, LLVMBuildOr(cg->b, x, lo, ""), hi, "");
  bool sgn = is_signed(e);
  LLVMValueRef r = cg_intr2(cg, sgn ? "llvm.smax" : "llvm.umax", x, lo);
  return cg_intr2(cg, sgn ? "llvm.smin" : "llvm.umin", r, hi);
}

/* spec "is_finite" (of float operands). */
static LLVMValueRef is_finite(CG *cg, const Scalar *s) {
  if (!elem_is_float(s->e)) return NULL;
  LLVMValueRef x = fwiden(cg, s->x, s->e);
  return LLVMBuildFCmp(cg->b, LLVMRealOLT, cg_intr1(cg, "llvm.fabs", x),
                       fconst(x, __builtin_inf()), "");
}

/* spec "reduce_precision", on the bits of the value's own format, as XLA
 * does: with the sign set aside, round the mantissa to nearest even, then
 * flush exponents out of range to inf or 0. A NaN stays the same NaN, or
 * becomes an infinity when no mantissa bit remains to hold it. */
static LLVMValueRef reduce_bits(CG *cg, const Op *op, LLVMValueRef x, ElemType e) {
  LLVMBuilderRef b = cg->b;
  /* The types narrower than 16 bits: on their f32 compute value, rounded
   * back to the type (exact unless the result is subnormal there). */
  if (cg_is_small_float(e)) return cg_small_round(cg, reduce_bits(cg, op, x, ET_F32), e);
  int nbits = elem_bits(e);
  int src_m = e == ET_F64 ? 52 : e == ET_F32 ? 23 : e == ET_F16 ? 10 : 7;
  int src_e = nbits - 1 - src_m;
  int64_t dm = op->a.mantissa_bits, de = op->a.exponent_bits;
  LLVMValueRef bits = LLVMBuildBitCast(b, x, LLVMIntTypeInContext(cg->ctx, (unsigned)nbits), "");
  LLVMValueRef sign = LLVMBuildAnd(b, bits, iconst(bits, 1ull << (nbits - 1)), "");
  LLVMValueRef v = LLVMBuildXor(b, bits, sign, "");
  unsigned long long expmask = ((1ull << src_e) - 1) << src_m;
  LLVMValueRef nan = LLVMBuildICmp(b, LLVMIntUGT, v, iconst(v, expmask), "");
  if (dm < src_m) {
    unsigned long long last = 1ull << (src_m - dm);
    LLVMValueRef lastbit = LLVMBuildLShr(b, LLVMBuildAnd(b, v, iconst(v, last), ""),
                                         iconst(v, (unsigned)(src_m - dm)), "");
    v = LLVMBuildAdd(b, v, LLVMBuildAdd(b, lastbit, iconst(v, (last >> 1) - 1), ""), "");
    v = LLVMBuildAnd(b, v, iconst(v, ~(last - 1)), "");
  }
  if (de < src_e) {
    unsigned long long bias = (1ull << (src_e - 1)) - 1, rbias = (1ull << (de - 1)) - 1;
    LLVMValueRef xe = LLVMBuildAnd(b, v, iconst(v, expmask), "");
    LLVMValueRef over = LLVMBuildICmp(b, LLVMIntUGT, xe, iconst(v, (bias + rbias) << src_m), "");
    LLVMValueRef under = LLVMBuildICmp(b, LLVMIntULE, xe, iconst(v, (bias - rbias) << src_m), "");
    v = LLVMBuildSelect(b, over, iconst(v, expmask), v, "");
    v = LLVMBuildSelect(b, under, LLVMConstNull(LLVMTypeOf(v)), v, "");
  }
  v = LLVMBuildOr(b, v, sign, "");
  LLVMValueRef nanv = dm > 0 ? bits : LLVMBuildOr(b, sign, iconst(v, expmask), "");
  v = LLVMBuildSelect(b, nan, nanv, v, "");
  return LLVMBuildBitCast(b, v, LLVMTypeOf(x), "");
}

/* Of float operands. */
static LLVMValueRef reduce_precision(CG *cg, const Scalar *s) {
  return elem_is_float(s->e) ? reduce_bits(cg, s->op, s->x, s->e) : NULL;
}

/* spec "real", "imag" on a non-complex operand: x and 0. */
static LLVMValueRef real(CG *cg, const Scalar *s) {
  (void)cg;
  return s->x;
}

static LLVMValueRef imag(CG *cg, const Scalar *s) {
  return LLVMConstNull(cg_scalar_type(cg, s->r));
}

/* chlo.erfc of f32 (f16/bf16 widened to it); passes/chlo.c decomposes the
 * f64 one. */
static LLVMValueRef erfc_float(CG *cg, const Scalar *s) {
  return s->r == ET_F64 ? NULL : math_erfcf(cg->b, s->x);
}

/* ------------------------------------------------------------------------ */
/* The rules of each op (the spec section of the op)                         */

/* Ops with rules of their own on any element type that is not complex. */
static const Rule ANY_TYPE[OP_COUNT] = {
    [OP_CLAMP] = {.fn = clamp},
    [OP_COMPARE] = {.fn = compare},
    [OP_CONVERT] = {.fn = convert},
    [OP_IMAG] = {.fn = imag},
    [OP_IS_FINITE] = {.fn = is_finite},
    [OP_REAL] = {.fn = real},
    [OP_REDUCE_PRECISION] = {.fn = reduce_precision},
    [OP_SELECT] = {.fn = select_},
};

/* Float results, on operands widened to f32 or f64 (rounded back once). */
static const Rule FLOAT[OP_COUNT] = {
    [OP_ABS] = {.intr = "llvm.fabs"},
    [OP_ADD] = {.build2 = LLVMBuildFAdd},
    [OP_ATAN2] = {.math2 = math_atan2}, /* atan2(lhs, rhs) */
    [OP_CBRT] = {.math1 = math_cbrt},
    [OP_CHLO_ERFC] = {.fn = erfc_float},
    [OP_CEIL] = {.fn = round_integral},
    [OP_COSINE] = {.math1 = math_cos},
    [OP_DIVIDE] = {.build2 = LLVMBuildFDiv},
    [OP_EXPONENTIAL] = {.math1 = math_exp},
    [OP_EXPONENTIAL_MINUS_ONE] = {.math1 = math_expm1},
    [OP_FLOOR] = {.fn = round_integral},
    [OP_LOG] = {.math1 = math_log},
    [OP_LOG_PLUS_ONE] = {.math1 = math_log1p},
    [OP_LOGISTIC] = {.math1 = math_logistic},
    /* spec "maximum"/"minimum": IEEE maximum/minimum, NaN propagating. */
    [OP_MAXIMUM] = {.fn = float_maxmin},
    [OP_MINIMUM] = {.fn = float_maxmin},
    [OP_MULTIPLY] = {.build2 = LLVMBuildFMul},
    [OP_NEGATE] = {.build1 = LLVMBuildFNeg},
    [OP_POWER] = {.math2 = math_pow},
    [OP_REMAINDER] = {.fn = float_rem},
    [OP_ROUND_NEAREST_AFZ] = {.fn = round_integral},
    [OP_ROUND_NEAREST_EVEN] = {.fn = round_integral},
    [OP_RSQRT] = {.fn = float_rsqrt},
    [OP_SIGN] = {.fn = float_sign},
    [OP_SINE] = {.math1 = math_sin},
    [OP_SQRT] = {.fn = float_sqrt},
    [OP_SUBTRACT] = {.build2 = LLVMBuildFSub},
    [OP_TAN] = {.math1 = math_tan},
    [OP_TANH] = {.math1 = math_tanh},
};

/* Integer results (wrapping; signedness from the element type). */
static const Rule INT[OP_COUNT] = {
    [OP_ABS] = {.fn = int_abs},
    [OP_ADD] = {.build2 = LLVMBuildAdd},
    [OP_AND] = {.build2 = LLVMBuildAnd},
    [OP_COUNT_LEADING_ZEROS] = {.fn = int_clz},
    [OP_DIVIDE] = {.fn = int_div},
    [OP_MAXIMUM] = {.fn = int_minmax},
    [OP_MINIMUM] = {.fn = int_minmax},
    [OP_MULTIPLY] = {.build2 = LLVMBuildMul},
    [OP_NEGATE] = {.build1 = LLVMBuildNeg},
    [OP_NOT] = {.build1 = LLVMBuildNot},
    [OP_OR] = {.build2 = LLVMBuildOr},
    [OP_POPCNT] = {.intr = "llvm.ctpop"},
    [OP_POWER] = {.fn = int_pow},
    [OP_REMAINDER] = {.fn = int_div},
    [OP_SHIFT_LEFT] = {.fn = int_shift},
    [OP_SHIFT_RIGHT_ARITHMETIC] = {.fn = int_shift},
    [OP_SHIFT_RIGHT_LOGICAL] = {.fn = int_shift},
    [OP_SIGN] = {.fn = int_sign},
    [OP_SUBTRACT] = {.build2 = LLVMBuildSub},
    [OP_XOR] = {.build2 = LLVMBuildXor},
};

/* Booleans (spec "add", "multiply", "maximum", "minimum": logical or/and;
 * "subtract": xor, the arithmetic of i1 modulo 2). */
static const Rule BOOL[OP_COUNT] = {
    [OP_ADD] = {.build2 = LLVMBuildOr},
    [OP_AND] = {.build2 = LLVMBuildAnd},
    [OP_MAXIMUM] = {.build2 = LLVMBuildOr},
    [OP_MINIMUM] = {.build2 = LLVMBuildAnd},
    [OP_MULTIPLY] = {.build2 = LLVMBuildAnd},
    [OP_NOT] = {.build1 = LLVMBuildNot},
    [OP_OR] = {.build2 = LLVMBuildOr},
    [OP_SUBTRACT] = {.build2 = LLVMBuildXor},
    [OP_XOR] = {.build2 = LLVMBuildXor},
};

bool cg_scalar_has_rule(OpCode c, ElemType e) {
  if (elem_is_complex(e)) return cg_complex_has_rule(c);
  if (has_rule(&ANY_TYPE[c])) return true;
  if (elem_is_float(e)) return has_rule(&FLOAT[c]);
  if (e == ET_I1) return has_rule(&BOOL[c]);
  return elem_is_int(e) && has_rule(&INT[c]);
}

/* The ops on operands and results that are not complex; NULL when not
 * defined for their element types. */
static LLVMValueRef real_scalar_op(CG *cg, Scalar *s) {
  OpCode c = s->op->code;
  if (has_rule(&ANY_TYPE[c])) return apply(cg, &ANY_TYPE[c], s);
  if (elem_is_float(s->r)) {
    s->x = fwiden(cg, s->x, s->r);
    if (s->op->nopnds > 1) s->y = fwiden(cg, s->y, s->r);
    LLVMValueRef v = apply(cg, &FLOAT[c], s);
    return v ? fnarrow(cg, v, s->r) : NULL;
  }
  if (s->r == ET_I1) return apply(cg, &BOOL[c], s);
  if (elem_is_int(s->r)) return apply(cg, &INT[c], s);
  return NULL;
}

LLVMValueRef cg_scalar_op(CG *cg, Op *op, LLVMValueRef *args) {
  ElemType e = op->opnds[0]->type->elem, r = op->results[0]->type->elem;
  bool cx = elem_is_complex(e) || elem_is_complex(r);
  LLVMValueRef v;
  /* select and convert take complex values as they are (cg_convert
   * dispatches itself); the other ops have complex semantics of their own. */
  if (cx && op->code != OP_CONVERT && op->code != OP_SELECT) {
    v = cg_complex_op(cg, op, args);
  } else {
    Scalar s = {op, e, r, args[0], op->nopnds > 1 ? args[1] : NULL,
                op->nopnds > 2 ? args[2] : NULL};
    v = real_scalar_op(cg, &s);
  }
  if (v) return v;
  char msg[96];
  snprintf(msg, sizeof msg, "not supported for element type '%s'",
           elem_name(elem_is_complex(e) ? e : r));
  cg_unsupported(cg, op, msg);
  return LLVMGetPoison(cg_scalar_type(cg, r));
}
