/*
 * complex.c: the scalar semantics of the elementwise ops on complex<f32>
 * and complex<f64> (spec "Types": complex types; the section of each op).
 *
 * A complex scalar is an LLVM <2 x f32> or <2 x f64> holding (re, im), so
 * selects, phis and accumulators take it as one value. The ops split it
 * into parts, compute on scalars and join; cg_load/cg_store move the parts
 * one by one (memory.c), so after instcombine a loop holds scalar code the
 * loop vectorizer widens (interleaved loads of re and im).
 *
 * Arithmetic (add, subtract, multiply, divide, negate, compare, maximum,
 * minimum) runs in the part type, as XLA does. The other functions run on
 * the parts widened to f64 (complex<f32>: rounded once at the end, so the
 * vmath errors vanish in the rounding; complex<f64>: products of two vmath
 * results, within about 3 ULP) with overflow-free formulas:
 *   abs:   hypot, scaled by the larger part;
 *   sqrt:  Kahan's (t = sqrt((|a| + |z|) / 2), the other part b / 2t);
 *   tanh:  Kahan's (t = tan y, s = sinh x, beta = 1 + t^2,
 *          rho = sqrt(1 + s^2): (beta rho s + i t) / (1 + beta s^2)),
 *          and tan(z) = -i tanh(iz);
 *   log1p: 0.5 log1p(a (2 + a) + b^2) away from z = -1, so small z keeps
 *          its accuracy (the spec's log(hypot(a + 1, b)) loses it);
 *   divide: Smith's algorithm with C99 Annex G's zero and infinity cases;
 *   atan2: the reference interpreter's -i log((x + iy) / sqrt(x^2 + y^2)).
 * Not defined on complex values here: remainder, floor & co., is_finite, the bit ops (the verifier rejects most of them).
 */
#include "codegen.h"
#include "vmath.h"

typedef struct Cx {
  LLVMValueRef re, im;
} Cx;

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */

static ElemType part_type(ElemType e) { return e == ET_C64 ? ET_F32 : ET_F64; }

static LLVMValueRef fc(LLVMValueRef like, double v) {
  return LLVMConstReal(LLVMTypeOf(like), v);
}

static LLVMValueRef fabs_(CG *cg, LLVMValueRef x) { return cg_intr1(cg, "llvm.fabs", x); }

static LLVMValueRef fadd(CG *cg, LLVMValueRef x, LLVMValueRef y) {
  return LLVMBuildFAdd(cg->b, x, y, "");
}
static LLVMValueRef fsub(CG *cg, LLVMValueRef x, LLVMValueRef y) {
  return LLVMBuildFSub(cg->b, x, y, "");
}
static LLVMValueRef fmul(CG *cg, LLVMValueRef x, LLVMValueRef y) {
  return LLVMBuildFMul(cg->b, x, y, "");
}
static LLVMValueRef fdiv(CG *cg, LLVMValueRef x, LLVMValueRef y) {
  return LLVMBuildFDiv(cg->b, x, y, "");
}
static LLVMValueRef fcmp(CG *cg, LLVMRealPredicate p, LLVMValueRef x, LLVMValueRef y) {
  return LLVMBuildFCmp(cg->b, p, x, y, "");
}
static LLVMValueRef sel(CG *cg, LLVMValueRef c, LLVMValueRef x, LLVMValueRef y) {
  return LLVMBuildSelect(cg->b, c, x, y, "");
}
static LLVMValueRef or_(CG *cg, LLVMValueRef x, LLVMValueRef y) {
  return LLVMBuildOr(cg->b, x, y, "");
}
static LLVMValueRef and_(CG *cg, LLVMValueRef x, LLVMValueRef y) {
  return LLVMBuildAnd(cg->b, x, y, "");
}
static LLVMValueRef is_inf(CG *cg, LLVMValueRef x) {
  return fcmp(cg, LLVMRealOEQ, fabs_(cg, x), fc(x, __builtin_inf()));
}
static LLVMValueRef is_nan(CG *cg, LLVMValueRef x) { return fcmp(cg, LLVMRealUNO, x, x); }
/* C99 fmax/fmin (a NaN operand gives the other), as selects: llvm.maxnum
 * becomes a libm call on targets without an FPU. */
static LLVMValueRef fmax_(CG *cg, LLVMValueRef x, LLVMValueRef y) {
  LLVMValueRef y_nan = is_nan(cg, y);
  return sel(cg, or_(cg, fcmp(cg, LLVMRealOGT, x, y), y_nan), x, y);
}
static LLVMValueRef fmin_(CG *cg, LLVMValueRef x, LLVMValueRef y) {
  LLVMValueRef y_nan = is_nan(cg, y);
  return sel(cg, or_(cg, fcmp(cg, LLVMRealOLT, x, y), y_nan), x, y);
}

static Cx cx_sel(CG *cg, LLVMValueRef c, Cx x, Cx y) {
  LLVMValueRef re = sel(cg, c, x.re, y.re);
  return (Cx){re, sel(cg, c, x.im, y.im)};
}

/* Either part of z is NaN (infinite). */
static LLVMValueRef cx_is_nan(CG *cg, Cx z) {
  LLVMValueRef im_nan = is_nan(cg, z.im);
  return or_(cg, is_nan(cg, z.re), im_nan);
}
static LLVMValueRef cx_is_inf(CG *cg, Cx z) {
  LLVMValueRef im_inf = is_inf(cg, z.im);
  return or_(cg, is_inf(cg, z.re), im_inf);
}

/* The parts of a complex scalar, widened to f64 when `wide`. */
static Cx split(CG *cg, LLVMValueRef v, bool wide) {
  LLVMValueRef re = LLVMBuildExtractElement(cg->b, v, LLVMConstInt(cg->t_i32, 0, 0), "re");
  Cx z = {re, LLVMBuildExtractElement(cg->b, v, LLVMConstInt(cg->t_i32, 1, 0), "im")};
  if (wide && LLVMTypeOf(z.re) == cg->t_f32) {
    z.re = LLVMBuildFPExt(cg->b, z.re, cg->t_f64, "");
    z.im = LLVMBuildFPExt(cg->b, z.im, cg->t_f64, "");
  }
  return z;
}

/* A real of any float width as the part type of e. */
static LLVMValueRef to_part(CG *cg, LLVMValueRef x, ElemType e) {
  LLVMTypeRef t = e == ET_C64 ? cg->t_f32 : cg->t_f64;
  if (LLVMTypeOf(x) == t) return x;
  return LLVMBuildFPCast(cg->b, x, t, "");
}

static LLVMValueRef join(CG *cg, Cx z, ElemType e) {
  LLVMValueRef v = LLVMGetUndef(cg_scalar_type(cg, e));
  v = LLVMBuildInsertElement(cg->b, v, to_part(cg, z.re, e), LLVMConstInt(cg->t_i32, 0, 0), "");
  return LLVMBuildInsertElement(cg->b, v, to_part(cg, z.im, e), LLVMConstInt(cg->t_i32, 1, 0), "");
}

/* ------------------------------------------------------------------------ */
/* Real helpers (f32 or f64 scalars)                                         */

/* sqrt(a^2 + b^2) without overflow or underflow; inf if either part is
 * infinite (even with a NaN), else NaN if either is NaN. */
static LLVMValueRef hypot_(CG *cg, LLVMValueRef a, LLVMValueRef b) {
  LLVMValueRef x = fabs_(cg, a), y = fabs_(cg, b);
  LLVMValueRef hi = fmax_(cg, x, y), lo = fmin_(cg, x, y);
  LLVMValueRef q = fdiv(cg, lo, hi);
  LLVMValueRef r = fmul(cg, hi, cg_sqrt(cg, fadd(cg, fc(a, 1.0), fmul(cg, q, q))));
  r = sel(cg, fcmp(cg, LLVMRealOEQ, hi, fc(a, 0.0)), fc(a, 0.0), r);
  LLVMValueRef b_nan = is_nan(cg, b);
  r = sel(cg, or_(cg, is_nan(cg, a), b_nan), fc(a, __builtin_nan("")), r);
  LLVMValueRef b_inf = is_inf(cg, b);
  return sel(cg, or_(cg, is_inf(cg, a), b_inf), fc(a, __builtin_inf()), r);
}

/* |z| of parts that came from f32: their squares cannot overflow f64. */
static LLVMValueRef abs_wide(CG *cg, Cx z, ElemType e) {
  if (e == ET_C128) return hypot_(cg, z.re, z.im);
  LLVMValueRef im2 = fmul(cg, z.im, z.im);
  LLVMValueRef s = fadd(cg, fmul(cg, z.re, z.re), im2);
  LLVMValueRef r = cg_sqrt(cg, s);
  /* inf^2 + NaN is NaN; C99 hypot(inf, NaN) is inf. */
  return sel(cg, cx_is_inf(cg, z), fc(s, __builtin_inf()), r);
}

/* sinh x = (t + t / (t + 1)) / 2 with t = expm1 |x|: no cancellation. */
static LLVMValueRef sinh_(CG *cg, LLVMValueRef x) {
  LLVMValueRef t = math_expm1(cg->b, fabs_(cg, x));
  LLVMValueRef s = fmul(cg, fc(x, 0.5), fadd(cg, t, fdiv(cg, t, fadd(cg, t, fc(x, 1.0)))));
  s = sel(cg, is_inf(cg, t), t, s);
  return cg_intr2(cg, "llvm.copysign", s, x);
}

static LLVMValueRef cosh_(CG *cg, LLVMValueRef x) {
  LLVMValueRef e = math_exp(cg->b, fabs_(cg, x));
  LLVMValueRef half_inv = fdiv(cg, fc(x, 0.5), e);
  return fadd(cg, fmul(cg, fc(x, 0.5), e), half_inv);
}

/* ------------------------------------------------------------------------ */
/* Arithmetic (spec "add", "subtract", "multiply", "divide", "negate")       */

static Cx cx_add(CG *cg, Cx x, Cx y) {
  LLVMValueRef re = fadd(cg, x.re, y.re);
  return (Cx){re, fadd(cg, x.im, y.im)};
}

static Cx cx_mul(CG *cg, Cx x, Cx y) {
  LLVMValueRef bd = fmul(cg, x.im, y.im);
  LLVMValueRef re = fsub(cg, fmul(cg, x.re, y.re), bd);
  LLVMValueRef bc = fmul(cg, x.im, y.re);
  return (Cx){re, fadd(cg, fmul(cg, x.re, y.im), bc)};
}

/* Smith's algorithm: divide by the larger part of y first. */
static Cx smith(CG *cg, Cx x, Cx y) {
  LLVMValueRef im_abs = fabs_(cg, y.im);
  LLVMValueRef re_big = fcmp(cg, LLVMRealOGE, fabs_(cg, y.re), im_abs);
  /* |c| >= |d|: r = d / c, den = c + d r, ((a + b r), (b - a r)) / den */
  LLVMValueRef r1 = fdiv(cg, y.im, y.re), d1 = fadd(cg, y.re, fmul(cg, y.im, r1));
  LLVMValueRef q1_re = fdiv(cg, fadd(cg, x.re, fmul(cg, x.im, r1)), d1);
  Cx q1 = {q1_re, fdiv(cg, fsub(cg, x.im, fmul(cg, x.re, r1)), d1)};
  /* |c| < |d|: r = c / d, den = c r + d, ((a r + b), (b r - a)) / den */
  LLVMValueRef r2 = fdiv(cg, y.re, y.im), d2 = fadd(cg, fmul(cg, y.re, r2), y.im);
  LLVMValueRef q2_re = fdiv(cg, fadd(cg, fmul(cg, x.re, r2), x.im), d2);
  Cx q2 = {q2_re, fdiv(cg, fsub(cg, fmul(cg, x.im, r2), x.re), d2)};
  return cx_sel(cg, re_big, q1, q2);
}

/* 1 or 0 with the sign of x where x is infinite, else 0 with x's sign
 * (C99 Annex G's "box" of an infinity). */
static LLVMValueRef inf_box(CG *cg, LLVMValueRef x) {
  LLVMValueRef one = sel(cg, is_inf(cg, x), fc(x, 1.0), fc(x, 0.0));
  return cg_intr2(cg, "llvm.copysign", one, x);
}

static LLVMValueRef is_finite(CG *cg, LLVMValueRef x) {
  return fcmp(cg, LLVMRealOLT, fabs_(cg, x), fc(x, __builtin_inf()));
}

/* Both parts of z are finite. */
static LLVMValueRef cx_is_finite(CG *cg, Cx z) {
  LLVMValueRef im_fin = is_finite(cg, z.im);
  return and_(cg, is_finite(cg, z.re), im_fin);
}

static Cx cx_inf_box(CG *cg, Cx z) {
  LLVMValueRef re = inf_box(cg, z.re);
  return (Cx){re, inf_box(cg, z.im)};
}

/* s (a conj(c)) = s (a.re c.re + a.im c.im, a.im c.re - a.re c.im). */
static Cx scaled_mul_conj(CG *cg, LLVMValueRef s, Cx a, Cx c) {
  LLVMValueRef im_im = fmul(cg, a.im, c.im);
  LLVMValueRef re = fmul(cg, s, fadd(cg, fmul(cg, a.re, c.re), im_im));
  LLVMValueRef re_im = fmul(cg, a.re, c.im);
  return (Cx){re, fmul(cg, s, fsub(cg, fmul(cg, a.im, c.re), re_im))};
}

/* spec "divide": Smith's quotient, and where it is NaN, C99 Annex G's
 * values: x / 0 is an infinity, inf / finite an infinity, finite / inf 0. */
static Cx cx_div(CG *cg, Cx x, Cx y) {
  Cx q = smith(cg, x, y);
  LLVMValueRef q_im_nan = is_nan(cg, q.im);
  LLVMValueRef nan = and_(cg, is_nan(cg, q.re), q_im_nan);
  LLVMValueRef inf = fc(x.re, __builtin_inf()), zero = fc(x.re, 0.0);
  LLVMValueRef y_im0 = fcmp(cg, LLVMRealOEQ, y.im, zero);
  LLVMValueRef y0 = and_(cg, fcmp(cg, LLVMRealOEQ, y.re, zero), y_im0);
  LLVMValueRef x_im_nan = is_nan(cg, x.im);
  LLVMValueRef x_num = LLVMBuildNot(cg->b, and_(cg, is_nan(cg, x.re), x_im_nan), "");
  LLVMValueRef sinf = cg_intr2(cg, "llvm.copysign", inf, y.re);
  LLVMValueRef zdiv_re = fmul(cg, sinf, x.re);
  Cx zdiv = {zdiv_re, fmul(cg, sinf, x.im)};
  LLVMValueRef x_inf = cx_is_inf(cg, x), y_fin = cx_is_finite(cg, y);
  Cx idiv = scaled_mul_conj(cg, inf, cx_inf_box(cg, x), y);
  LLVMValueRef y_inf = cx_is_inf(cg, y), x_fin = cx_is_finite(cg, x);
  Cx fdv = scaled_mul_conj(cg, zero, x, cx_inf_box(cg, y));
  Cx r = cx_sel(cg, and_(cg, and_(cg, nan, y_inf), x_fin), fdv, q);
  r = cx_sel(cg, and_(cg, and_(cg, nan, x_inf), y_fin), idiv, r);
  return cx_sel(cg, and_(cg, and_(cg, nan, y0), x_num), zdiv, r);
}

static Cx cx_recip(CG *cg, Cx y) {
  return cx_div(cg, (Cx){fc(y.re, 1.0), fc(y.re, 0.0)}, y);
}

/* ------------------------------------------------------------------------ */
/* Functions, on parts widened to f64                                        */

/* spec "sqrt": the principal root, re >= 0. */
static Cx cx_sqrt(CG *cg, Cx z, ElemType e) {
  LLVMValueRef a = z.re, b = z.im, h = abs_wide(cg, z, e);
  LLVMValueRef half_h = fmul(cg, fc(a, 0.5), h);
  LLVMValueRef t = cg_sqrt(cg, fadd(cg, fmul(cg, fc(a, 0.5), fabs_(cg, a)), half_h));
  LLVMValueRef o = fdiv(cg, b, fadd(cg, t, t));
  Cx pos = {t, o};
  LLVMValueRef o_abs = fabs_(cg, o);
  Cx neg = {o_abs, cg_intr2(cg, "llvm.copysign", t, b)};
  Cx r = cx_sel(cg, fcmp(cg, LLVMRealOGE, a, fc(a, 0.0)), pos, neg);
  LLVMValueRef b0 = fcmp(cg, LLVMRealOEQ, b, fc(a, 0.0));
  LLVMValueRef zero = and_(cg, fcmp(cg, LLVMRealOEQ, a, fc(a, 0.0)), b0);
  r = cx_sel(cg, zero, (Cx){fc(a, 0.0), b}, r);
  return cx_sel(cg, is_inf(cg, b), (Cx){fc(a, __builtin_inf()), b}, r);
}

/* spec "exponential": e^a (cos b + i sin b); a real z stays real. */
static Cx cx_exp(CG *cg, Cx z) {
  LLVMValueRef ea = math_exp(cg->b, z.re);
  LLVMValueRef r_re = fmul(cg, ea, math_cos(cg->b, z.im));
  Cx r = {r_re, fmul(cg, ea, math_sin(cg->b, z.im))};
  LLVMValueRef real = fcmp(cg, LLVMRealOEQ, z.im, fc(z.im, 0.0));
  return cx_sel(cg, real, (Cx){ea, z.im}, r);
}

/* spec "exponential_minus_one": cos b - 1 = -2 sin^2(b/2) keeps the real
 * part accurate near 0. */
static Cx cx_expm1(CG *cg, Cx z) {
  LLVMValueRef s = math_sin(cg->b, fmul(cg, fc(z.im, 0.5), z.im));
  LLVMValueRef em = math_expm1(cg->b, z.re);
  LLVMValueRef two_s2 = fmul(cg, fc(s, 2.0), fmul(cg, s, s));
  LLVMValueRef re = fsub(cg, fmul(cg, em, math_cos(cg->b, z.im)), two_s2);
  LLVMValueRef sin_b = math_sin(cg->b, z.im);
  LLVMValueRef im = fmul(cg, math_exp(cg->b, z.re), sin_b);
  LLVMValueRef real = fcmp(cg, LLVMRealOEQ, z.im, fc(z.im, 0.0));
  return cx_sel(cg, real, (Cx){em, z.im}, (Cx){re, im});
}

/* spec "log": log|z| + i arg z. */
static Cx cx_log(CG *cg, Cx z, ElemType e) {
  LLVMValueRef log_abs = math_log(cg->b, abs_wide(cg, z, e));
  return (Cx){log_abs, math_atan2(cg->b, z.im, z.re)};
}

/* spec "log_plus_one": log|1 + z| + i arg(1 + z). */
static Cx cx_log1p(CG *cg, Cx z, ElemType e) {
  LLVMValueRef a = z.re, b = z.im, a1 = fadd(cg, a, fc(a, 1.0));
  LLVMValueRef b2 = fmul(cg, b, b);
  LLVMValueRef u = fadd(cg, fmul(cg, a, fadd(cg, a, fc(a, 2.0))), b2);
  LLVMValueRef near = fmul(cg, fc(a, 0.5), math_log1p(cg->b, u));
  Cx w = {a1, b};
  LLVMValueRef far = math_log(cg->b, abs_wide(cg, w, e));
  /* Near z = -1 (|1 + z| < 1/2: a + 1 is exact there) u cancels; far out
   * (or at infinities) its squares overflow. */
  LLVMValueRef b_abs = fabs_(cg, b);
  LLVMValueRef m = fmax_(cg, fabs_(cg, a), b_abs);
  LLVMValueRef huge = fcmp(cg, LLVMRealUGT, m, fc(a, 1e150));
  LLVMValueRef use_far = or_(cg, fcmp(cg, LLVMRealOLT, abs_wide(cg, w, e), fc(a, 0.5)), huge);
  LLVMValueRef re = sel(cg, use_far, far, near);
  return (Cx){re, math_atan2(cg->b, b, a1)};
}

/* spec "sine": sin a cosh b + i cos a sinh b. */
static Cx cx_sin(CG *cg, Cx z) {
  LLVMValueRef ch = cosh_(cg, z.im);
  LLVMValueRef re = fmul(cg, math_sin(cg->b, z.re), ch);
  LLVMValueRef sh = sinh_(cg, z.im);
  return (Cx){re, fmul(cg, math_cos(cg->b, z.re), sh)};
}

/* spec "cosine": cos a cosh b - i sin a sinh b. */
static Cx cx_cos(CG *cg, Cx z) {
  LLVMValueRef ch = cosh_(cg, z.im);
  LLVMValueRef re = fmul(cg, math_cos(cg->b, z.re), ch);
  LLVMValueRef sh = sinh_(cg, z.im);
  return (Cx){re, LLVMBuildFNeg(cg->b, fmul(cg, math_sin(cg->b, z.re), sh), "")};
}

/* spec "tanh", Kahan's formula; for |x| > 22, tanh x is +-1 to double
 * precision and the imaginary part 4 sin y cos y e^(-2|x|). */
static Cx cx_tanh(CG *cg, Cx z) {
  LLVMValueRef x = z.re, y = z.im, one = fc(x, 1.0);
  LLVMValueRef t = math_tan(cg->b, y), s = sinh_(cg, x);
  LLVMValueRef beta = fadd(cg, one, fmul(cg, t, t));
  LLVMValueRef rho = cg_sqrt(cg, fadd(cg, one, fmul(cg, s, s)));
  LLVMValueRef den = fadd(cg, one, fmul(cg, beta, fmul(cg, s, s)));
  LLVMValueRef r_re = fdiv(cg, fmul(cg, fmul(cg, beta, rho), s), den);
  Cx r = {r_re, fdiv(cg, t, den)};
  LLVMValueRef ex = math_exp(cg->b, fmul(cg, fc(x, -2.0), fabs_(cg, x)));
  LLVMValueRef cos_y = math_cos(cg->b, y);
  LLVMValueRef sc = fmul(cg, math_sin(cg->b, y), cos_y);
  LLVMValueRef big_re = cg_intr2(cg, "llvm.copysign", one, x);
  Cx big = {big_re, fmul(cg, fc(x, 4.0), fmul(cg, sc, ex))};
  return cx_sel(cg, fcmp(cg, LLVMRealOGT, fabs_(cg, x), fc(x, 22.0)), big, r);
}

/* spec "tan": tan z = -i tanh(iz), iz = -b + ia. */
static Cx cx_tan(CG *cg, Cx z) {
  Cx w = cx_tanh(cg, (Cx){LLVMBuildFNeg(cg->b, z.im, ""), z.re});
  return (Cx){w.im, LLVMBuildFNeg(cg->b, w.re, "")};
}

/* spec "logistic": 1 / (1 + e^-z). */
static Cx cx_logistic(CG *cg, Cx z) {
  LLVMValueRef neg_re = LLVMBuildFNeg(cg->b, z.re, "");
  Cx w = cx_exp(cg, (Cx){neg_re, LLVMBuildFNeg(cg->b, z.im, "")});
  return cx_recip(cg, (Cx){fadd(cg, w.re, fc(w.re, 1.0)), w.im});
}

/* spec "power": e^(y log x); 0^y is 1 for y = 0, 0 for re y > 0, else NaN. */
static Cx cx_pow(CG *cg, Cx x, Cx y, ElemType e) {
  Cx p = cx_exp(cg, cx_mul(cg, y, cx_log(cg, x, e)));
  LLVMValueRef zero = fc(x.re, 0.0), one = fc(x.re, 1.0), nan = fc(x.re, __builtin_nan(""));
  LLVMValueRef x_im0 = fcmp(cg, LLVMRealOEQ, x.im, zero);
  LLVMValueRef x0 = and_(cg, fcmp(cg, LLVMRealOEQ, x.re, zero), x_im0);
  LLVMValueRef y_im0 = fcmp(cg, LLVMRealOEQ, y.im, zero);
  LLVMValueRef y0 = and_(cg, fcmp(cg, LLVMRealOEQ, y.re, zero), y_im0);
  LLVMValueRef ypos = fcmp(cg, LLVMRealOGT, y.re, zero);
  Cx at0 = cx_sel(cg, y0, (Cx){one, zero}, cx_sel(cg, ypos, (Cx){zero, zero}, (Cx){nan, nan}));
  return cx_sel(cg, x0, at0, p);
}

/* spec "cbrt": the principal root |z|^(1/3) e^(i arg(z) / 3). */
static Cx cx_cbrt(CG *cg, Cx z, ElemType e) {
  LLVMValueRef r = math_cbrt(cg->b, abs_wide(cg, z, e));
  LLVMValueRef t = fmul(cg, math_atan2(cg->b, z.im, z.re), fc(r, 1.0 / 3.0));
  LLVMValueRef re = fmul(cg, r, math_cos(cg->b, t));
  return (Cx){re, fmul(cg, r, math_sin(cg->b, t))};
}

/* spec "atan2" on complex values, as the reference interpreter defines it:
 * -i log((x + iy) / sqrt(x^2 + y^2)). */
static Cx cx_atan2(CG *cg, Cx y, Cx x, ElemType e) {
  LLVMValueRef w_re = fsub(cg, x.re, y.im);
  Cx w = {w_re, fadd(cg, x.im, y.re)};
  Cx x2 = cx_mul(cg, x, x), y2 = cx_mul(cg, y, y);
  Cx s = cx_sqrt(cg, cx_add(cg, x2, y2), ET_C128);
  Cx l = cx_log(cg, cx_div(cg, w, s), e);
  return (Cx){l.im, LLVMBuildFNeg(cg->b, l.re, "")};
}

/* spec "sign": NaN if a part is NaN, 0 at 0, else z / |z|. */
static Cx cx_sign(CG *cg, Cx z, ElemType e) {
  LLVMValueRef m = abs_wide(cg, z, e), zero = fc(z.re, 0.0);
  LLVMValueRef r_re = fdiv(cg, z.re, m);
  Cx r = {r_re, fdiv(cg, z.im, m)};
  LLVMValueRef z_im0 = fcmp(cg, LLVMRealOEQ, z.im, zero);
  LLVMValueRef z0 = and_(cg, fcmp(cg, LLVMRealOEQ, z.re, zero), z_im0);
  r = cx_sel(cg, z0, (Cx){zero, zero}, r);
  LLVMValueRef nan = fc(z.re, __builtin_nan(""));
  return cx_sel(cg, cx_is_nan(cg, z), (Cx){nan, nan}, r);
}

/* ------------------------------------------------------------------------ */
/* Comparisons (spec "compare", "maximum", "minimum"): lexicographic on     */
/* (re, im)                                                                  */

/* x < y (or x > y with `gt`) lexicographically. */
static LLVMValueRef lex_less(CG *cg, Cx x, Cx y, bool gt, bool or_equal) {
  LLVMRealPredicate strict = gt ? LLVMRealOGT : LLVMRealOLT;
  LLVMRealPredicate last = or_equal ? (gt ? LLVMRealOGE : LLVMRealOLE) : strict;
  LLVMValueRef re_eq = fcmp(cg, LLVMRealOEQ, x.re, y.re);
  LLVMValueRef im_less = and_(cg, re_eq, fcmp(cg, last, x.im, y.im));
  return or_(cg, fcmp(cg, strict, x.re, y.re), im_less);
}

static LLVMValueRef cx_compare(CG *cg, CmpDir d, Cx x, Cx y) {
  switch (d) {
  case CMP_EQ: {
    LLVMValueRef im_eq = fcmp(cg, LLVMRealOEQ, x.im, y.im);
    return and_(cg, fcmp(cg, LLVMRealOEQ, x.re, y.re), im_eq);
  }
  case CMP_NE: {
    LLVMValueRef im_ne = fcmp(cg, LLVMRealUNE, x.im, y.im);
    return or_(cg, fcmp(cg, LLVMRealUNE, x.re, y.re), im_ne);
  }
  case CMP_LT: return lex_less(cg, x, y, false, false);
  case CMP_LE: return lex_less(cg, x, y, false, true);
  case CMP_GT: return lex_less(cg, x, y, true, false);
  default: return lex_less(cg, x, y, true, true);
  }
}

/* The lexicographically larger (or smaller) operand; a NaN part makes its
 * operand the result, lhs first. */
static Cx cx_maxmin(CG *cg, Cx x, Cx y, bool max) {
  Cx r = cx_sel(cg, lex_less(cg, x, y, max, false), x, y);
  r = cx_sel(cg, cx_is_nan(cg, y), y, r);
  return cx_sel(cg, cx_is_nan(cg, x), x, r);
}

/* ------------------------------------------------------------------------ */
/* The rules of each op                                                      */

static Cx cx_sub(CG *cg, Cx x, Cx y) {
  LLVMValueRef re = fsub(cg, x.re, y.re);
  return (Cx){re, fsub(cg, x.im, y.im)};
}
static Cx cx_max(CG *cg, Cx x, Cx y) { return cx_maxmin(cg, x, y, true); }
static Cx cx_min(CG *cg, Cx x, Cx y) { return cx_maxmin(cg, x, y, false); }
static Cx cx_rsqrt(CG *cg, Cx z, ElemType e) { return cx_recip(cg, cx_sqrt(cg, z, e)); }

/* Unary functions, on the parts widened to f64; `fe` also takes the
 * element type the parts came from. One member is set. */
typedef struct CxUnary {
  Cx (*f)(CG *cg, Cx z);
  Cx (*fe)(CG *cg, Cx z, ElemType e);
} CxUnary;

static const CxUnary CX_UNARY[OP_COUNT] = {
    [OP_CBRT] = {.fe = cx_cbrt},
    [OP_COSINE] = {.f = cx_cos},
    [OP_EXPONENTIAL] = {.f = cx_exp},
    [OP_EXPONENTIAL_MINUS_ONE] = {.f = cx_expm1},
    [OP_LOG] = {.fe = cx_log},
    [OP_LOG_PLUS_ONE] = {.fe = cx_log1p},
    [OP_LOGISTIC] = {.f = cx_logistic},
    [OP_RSQRT] = {.fe = cx_rsqrt},
    [OP_SIGN] = {.fe = cx_sign},
    [OP_SINE] = {.f = cx_sin},
    [OP_SQRT] = {.fe = cx_sqrt},
    [OP_TAN] = {.f = cx_tan},
    [OP_TANH] = {.f = cx_tanh},
};

/* Binary ops: `f` in the part type, `fe` on the parts widened to f64. One
 * member is set. */
typedef struct CxBinary {
  Cx (*f)(CG *cg, Cx x, Cx y);
  Cx (*fe)(CG *cg, Cx x, Cx y, ElemType e);
} CxBinary;

static const CxBinary CX_BINARY[OP_COUNT] = {
    [OP_ADD] = {.f = cx_add},
    [OP_ATAN2] = {.fe = cx_atan2}, /* atan2(lhs, rhs) */
    [OP_DIVIDE] = {.f = cx_div},
    [OP_MAXIMUM] = {.f = cx_max},
    [OP_MINIMUM] = {.f = cx_min},
    [OP_MULTIPLY] = {.f = cx_mul},
    [OP_POWER] = {.fe = cx_pow},
    [OP_SUBTRACT] = {.f = cx_sub},
};

/* The ops with rules of their own: spec "complex", "real", "imag",
 * "negate", "compare", "clamp" (min(max(operand, min), max),
 * lexicographic) and "abs" (the modulus, of the part type); NULL for the
 * others. */
static LLVMValueRef special_op(CG *cg, Op *op, LLVMValueRef *args) {
  ElemType e = op->opnds[0]->type->elem, r = op->results[0]->type->elem;
  switch (op->code) {
  case OP_COMPLEX: return join(cg, (Cx){args[0], args[1]}, r);
  case OP_REAL: return split(cg, args[0], false).re;
  case OP_IMAG: return split(cg, args[0], false).im;
  case OP_NEGATE: return LLVMBuildFNeg(cg->b, args[0], "");
  case OP_ABS: return to_part(cg, abs_wide(cg, split(cg, args[0], true), e), e);
  case OP_COMPARE: {
    Cx y = split(cg, args[1], false);
    return cx_compare(cg, op->a.comparison_direction, split(cg, args[0], false), y);
  }
  case OP_CLAMP: {
    Cx lo = split(cg, args[0], false), x = split(cg, args[1], false);
    Cx hi = split(cg, args[2], false);
    return join(cg, cx_maxmin(cg, cx_maxmin(cg, x, lo, true), hi, false), r);
  }
  default: return NULL;
  }
}

static bool is_special(OpCode c) {
  return c == OP_COMPLEX || c == OP_REAL || c == OP_IMAG || c == OP_NEGATE ||
         c == OP_ABS || c == OP_COMPARE || c == OP_CLAMP;
}

bool cg_complex_has_rule(OpCode c) {
  return is_special(c) || CX_UNARY[c].f || CX_UNARY[c].fe || CX_BINARY[c].f ||
         CX_BINARY[c].fe;
}

static LLVMValueRef binary(CG *cg, OpCode c, LLVMValueRef *args, ElemType e) {
  const CxBinary *b = &CX_BINARY[c];
  if (!b->f && !b->fe) return NULL;
  Cx x = split(cg, args[0], !b->f), y = split(cg, args[1], !b->f);
  return join(cg, b->f ? b->f(cg, x, y) : b->fe(cg, x, y, e), e);
}

LLVMValueRef cg_complex_op(CG *cg, Op *op, LLVMValueRef *args) {
  ElemType e = op->opnds[0]->type->elem, r = op->results[0]->type->elem;
  if (is_special(op->code)) return special_op(cg, op, args);
  if (op->nopnds == 2) return binary(cg, op->code, args, r);
  const CxUnary *u = &CX_UNARY[op->code];
  if (op->nopnds != 1 || (!u->f && !u->fe)) return NULL;
  Cx z = split(cg, args[0], true);
  return join(cg, u->f ? u->f(cg, z) : u->fe(cg, z, e), e);
}

/* spec "convert": complex to complex converts both parts; to a complex
 * the imaginary part is 0; from a complex to another type the imaginary
 * part is dropped (to i1 as well, as the reference interpreter does). */
LLVMValueRef cg_complex_convert(CG *cg, LLVMValueRef v, ElemType from, ElemType to) {
  if (elem_is_complex(from) && elem_is_complex(to)) {
    Cx z = split(cg, v, false);
    return join(cg, z, to);
  }
  if (elem_is_complex(to)) {
    LLVMValueRef re = cg_convert(cg, v, from, part_type(to));
    return join(cg, (Cx){re, fc(re, 0.0)}, to);
  }
  return cg_convert(cg, split(cg, v, false).re, part_type(from), to);
}

/* acc + a * b on complex scalars (dot_general, convolution). */
LLVMValueRef cg_complex_mul_add(CG *cg, ElemType e, LLVMValueRef acc, LLVMValueRef a,
                                LLVMValueRef b) {
  Cx s = split(cg, acc, false), y = split(cg, b, false);
  Cx p = cx_mul(cg, split(cg, a, false), y);
  return join(cg, cx_add(cg, s, p), e);
}

/* x op y for the binary ops of `binary` on complex scalars of type e
 * (linalg.c, fft.c). */
LLVMValueRef cg_complex_binary(CG *cg, OpCode c, ElemType e, LLVMValueRef x,
                               LLVMValueRef y) {
  LLVMValueRef args[2] = {x, y};
  return binary(cg, c, args, e);
}
