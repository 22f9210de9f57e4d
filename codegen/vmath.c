/* vmath.c - elementary functions emitted as inline LLVM IR (see math.h).
 *
 * Design
 *  - Everything but the float paths of exp, log, tanh and logistic (their
 *    own section below) is computed in double precision.  float operands are
 *    extended, run through the same algorithms with shorter polynomials and
 *    without the double-double refinements ("lo" mode below), and rounded
 *    once at the end: the double result is accurate to ~2^-30 relative, so
 *    the float result is within 0.51 ULP.  double operands use "hi" mode,
 *    which aims at < 1 ULP.
 *  - No branches and no tables: special cases are computed alongside and
 *    chosen with select on comparison masks, so a scalar use inside a loop
 *    is vectorizable and a vector operand needs nothing special.
 *  - Integer conversions use the 1.5*2^52 "shifter" (round_k, i2d) and
 *    powers of two are built from exponent bits (pow2), because fptosi,
 *    llvm.rint/floor and llvm.ldexp may become libm calls on targets without
 *    SSE4.1 (x86-64 baseline) and fptosi of NaN is poison.
 *  - Exact products (two_prod) use Dekker's splitting rather than llvm.fma:
 *    without hardware FMA llvm.fma becomes a call to fma() in libm.
 *    Polynomials use llvm.fmuladd, which is fused only where that is cheap.
 *  - Polynomial coefficients are minimax fits made for this file with a
 *    Remez exchange in 60-digit arithmetic (mpmath); each table says on which
 *    interval, for which error weight, and the error it reached.
 *
 * Error-free transformations used throughout (Knuth, Dekker): two_sum gives
 * a + b = s + err exactly, fast_two_sum the same when |a| >= |b|, two_prod
 * a * b = p + err exactly (no overflow in the splitting: |a|,|b| < 2^996).
 */
#include "vmath.h"
#include "codegen.h"

#include <assert.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

/* Emission context: the builder, the double working type and the same-shape
 * i64 type; hi selects the accuracy (true for double operands). */
typedef struct {
    LLVMBuilderRef b;
    LLVMTypeRef ty;
    LLVMTypeRef ity;
    bool hi;
} Em;

/* An unevaluated sum hi + lo. */
typedef struct {
    LLVMValueRef hi, lo;
} DD;

/* ---- coefficient tables -------------------------------------------------
 * Weights: "rel" means the error is measured relative to the function the
 * table contributes to, at the point where the table is used. */

/* exp(r) = 1 + r + r^2 * P(r), |r| <= 0.3466 (ln2/2 + margin); rel error of
 * exp(r): 2^-60.3 (hi), 2^-34.2 (lo).  expm1 uses the same P. */
static const double EXP_HI[] = {
    0x1.0000000000000p-1, 0x1.555555555555bp-3, 0x1.5555555555503p-5,
    0x1.111111110ec5fp-7, 0x1.6c16c16c30479p-10, 0x1.a01a01b37d86ap-13,
    0x1.a01a0136934a0p-16, 0x1.71ddf02292f4fp-19, 0x1.27e5b441d5a2bp-22,
    0x1.af6be4beaad3ap-26, 0x1.1e3d2f2935d69p-29,
};
static const double EXP_LO[] = {
    0x1.0000003a218a8p-1, 0x1.555554434432bp-3, 0x1.55548dc90bdefp-5,
    0x1.111270aba34e9p-7, 0x1.6d8d029a85c43p-10, 0x1.9f08992d523f8p-13,
};

/* 2 atanh(s) = 2s + s * z * Q(z), z = s^2 <= 0.1716^2 (s = f / (2 + f) for
 * 1 + f in [sqrt(1/2), sqrt(2))); rel error of log(1 + f): 2^-58.7 (hi),
 * 2^-37.3 (lo). */
static const double LOG_HI[] = {
    0x1.5555555555564p-1, 0x1.999999998be7cp-2, 0x1.2492493904be4p-2,
    0x1.c71c585e2e7fbp-3, 0x1.746514b7230b8p-3, 0x1.39bd2df40768ap-3,
    0x1.2e056499b1350p-3,
};
static const double LOG_LO[] = {
    0x1.5555552166390p-1, 0x1.999a4a534bb0bp-2, 0x1.2442b492d55ebp-2,
    0x1.e1b3b6bdfc946p-3,
};
/* The double-double log of pow: 2 atanh(s) = 2s + s^3 * (2/3 + z * B(z)),
 * same interval; rel error 2^-65.5. */
static const double LOG_DD_B[] = {
    0x1.9999999999a27p-2, 0x1.2492492472360p-2, 0x1.c71c720d18882p-3,
    0x1.745cf3ca46d8ap-3, 0x1.3b1d4cd132befp-3, 0x1.0fa2aeb2cdcf3p-3,
    0x1.0d16fab1b7fdbp-3,
};

/* sin(r) = r + r^3 * S(z), cos(r) = 1 - z/2 + z^2 * C(z), z = r^2,
 * |r| <= 0.7854; rel errors 2^-57.7 / 2^-59.7 (hi), 2^-37.6 / 2^-42.9 (lo). */
static const double SIN_HI[] = {
    -0x1.5555555555549p-3, 0x1.111111110f894p-7, -0x1.a01a019c14523p-13,
    0x1.71de3579d3ec5p-19, -0x1.ae5e67c230b83p-26, 0x1.5d936c0e3562dp-33,
};
static const double SIN_LO[] = {
    -0x1.5555554cbac77p-3, 0x1.11110896efb8ap-7, -0x1.a00f9e2cab523p-13,
    0x1.6cd878c2ec128p-19,
};
static const double COS_HI[] = {
    0x1.555555555554bp-5, -0x1.6c16c16c14f91p-10, 0x1.a01a019c844aep-16,
    -0x1.27e4f7eac166ap-22, 0x1.1ee9d7b28fabcp-29, -0x1.8fa498cbe977bp-37,
};
static const double COS_LO[] = {
    0x1.5555554ed97eep-5, -0x1.6c16b82a0eec5p-10, 0x1.a010decc52764p-16,
    -0x1.241e9b5148a5bp-22,
};

/* atan(u) = u + u^3 * T(u^2), |u| <= 0.1625; rel error 2^-61.0 (hi),
 * 2^-45.9 (lo). */
static const double ATAN_HI[] = {
    -0x1.5555555555555p-2, 0x1.99999999998acp-3, -0x1.2492492473c1ap-3,
    0x1.c71c71906bf39p-4, -0x1.745cfd530789bp-4, 0x1.3b0cab66b2841p-4,
    -0x1.0ff9918456cd3p-4, 0x1.b31940846fe64p-5,
};
static const double ATAN_LO[] = {
    -0x1.5555555512a01p-2, 0x1.999998430905bp-3, -0x1.24914842790ecp-3,
    0x1.c67a4b099eb04p-4, -0x1.5d667c35fffdbp-4,
};

/* cbrt(m) on [1, 2], rel error 2^-16.7: the start for Newton's iteration. */
static const double CBRT_START[] = {
    0x1.0392ccf02577ap-1, 0x1.6fb1dfd481774p-1, -0x1.33d384ecc6b45p-2,
    0x1.60a15340908bap-4, -0x1.5b77f046d890fp-7,
};

/* ---- constants ---------------------------------------------------------- */

/* ln2 = LN2_HI + LN2_LO; LN2_HI has 42 significant bits, so k * LN2_HI is
 * exact for |k| < 2^11. */
#define LN2_HI 0x1.62e42fefa3800p-1
#define LN2_LO 0x1.ef35793c76730p-45
#define INV_LN2 0x1.71547652b82fep+0

/* pi/2 = PIO2_1 + PIO2_2 + PIO2_3 + PIO2_4 (error 2^-160); the first three
 * parts have at most 33 significant bits. */
#define PIO2_1 0x1.921fb54400000p+0
#define PIO2_2 0x1.0b4611a600000p-34
#define PIO2_3 0x1.3198a2e000000p-69
#define PIO2_4 0x1.b839a252049c1p-104
#define TWO_OVER_PI 0x1.45f306dc9c883p-1

/* Double-double values (hi, lo). */
#define PI_H 0x1.921fb54442d18p+1
#define PI_L 0x1.1a62633145c07p-53
#define PI2_H 0x1.921fb54442d18p+0
#define PI2_L 0x1.1a62633145c07p-54
#define PI4_H 0x1.921fb54442d18p-1
#define PI4_L 0x1.1a62633145c07p-55
#define ATAN_QUARTER_H 0x1.f5b75f92c80ddp-3
#define ATAN_QUARTER_L 0x1.8ab6e3cf7afbdp-57
#define ATAN_HALF_H 0x1.dac670561bb4fp-2
#define ATAN_HALF_L 0x1.a2b7f222f65e2p-56
#define TWO_THIRDS_H 0x1.5555555555555p-1
#define TWO_THIRDS_L 0x1.5555555555555p-55

#define SHIFTER 0x1.8p52                    /* 1.5 * 2^52 */
#define SHIFTER_BITS 0x4338000000000000ULL
#define INF_BITS 0x7ff0000000000000ULL
#define NAN_BITS 0x7ff8000000000000ULL
#define SQRT_HALF_BITS 0x3fe6a09e667f3bcdULL /* sqrt(1/2) rounded */

/* ---- IR building blocks --------------------------------------------------- */

static LLVMValueRef splat(LLVMTypeRef ty, LLVMValueRef s)
{
    if (LLVMGetTypeKind(ty) != LLVMVectorTypeKind)
        return s;
    unsigned n = LLVMGetVectorSize(ty);
    LLVMValueRef buf[64];
    LLVMValueRef *v = n <= 64 ? buf : malloc(n * sizeof *v);
    assert(v);
    for (unsigned i = 0; i < n; i++)
        v[i] = s;
    LLVMValueRef c = LLVMConstVector(v, n);
    if (v != buf)
        free(v);
    return c;
}

static LLVMTypeRef scalar_of(LLVMTypeRef ty)
{
    return LLVMGetTypeKind(ty) == LLVMVectorTypeKind ? LLVMGetElementType(ty)
                                                     : ty;
}

LLVMValueRef math_const(LLVMTypeRef ty, double v)
{
    return splat(ty, LLVMConstReal(scalar_of(ty), v));
}

static LLVMValueRef K(Em *e, double v) { return math_const(e->ty, v); }

static LLVMValueRef KI(Em *e, uint64_t v)
{
    return splat(e->ity, LLVMConstInt(scalar_of(e->ity), v, false));
}

/* A double constant given by its bits (infinities, NaN). */
static LLVMValueRef KB(Em *e, uint64_t bits)
{
    return LLVMConstBitCast(KI(e, bits), e->ty);
}

static LLVMValueRef add(Em *e, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildFAdd(e->b, a, b, "");
}
static LLVMValueRef sub(Em *e, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildFSub(e->b, a, b, "");
}
static LLVMValueRef mul(Em *e, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildFMul(e->b, a, b, "");
}
static LLVMValueRef fdiv(Em *e, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildFDiv(e->b, a, b, "");
}
static LLVMValueRef neg(Em *e, LLVMValueRef a)
{
    return LLVMBuildFNeg(e->b, a, "");
}

static LLVMValueRef intrinsic(Em *e, const char *name, LLVMValueRef *args,
                              unsigned n)
{
    LLVMTypeRef t = e->ty;
    return cg_intrinsic(e->b, name, &t, 1, args, (int)n);
}

/* a * b + c, fused where the target has FMA (only for polynomials). */
static LLVMValueRef fmadd(Em *e, LLVMValueRef a, LLVMValueRef b,
                          LLVMValueRef c)
{
    LLVMValueRef args[] = {a, b, c};
    return intrinsic(e, "llvm.fmuladd", args, 3);
}
static LLVMValueRef fabs_(Em *e, LLVMValueRef a)
{
    return intrinsic(e, "llvm.fabs", &a, 1);
}
static LLVMValueRef copysign_(Em *e, LLVMValueRef mag, LLVMValueRef sgn)
{
    LLVMValueRef args[] = {mag, sgn};
    return intrinsic(e, "llvm.copysign", args, 2);
}

static LLVMValueRef cmp(Em *e, LLVMRealPredicate p, LLVMValueRef a,
                        LLVMValueRef b)
{
    return LLVMBuildFCmp(e->b, p, a, b, "");
}
static LLVMValueRef cmpk(Em *e, LLVMRealPredicate p, LLVMValueRef a, double k)
{
    return cmp(e, p, a, K(e, k));
}
static LLVMValueRef isnan_(Em *e, LLVMValueRef a)
{
    return cmp(e, LLVMRealUNO, a, a);
}
static LLVMValueRef sel(Em *e, LLVMValueRef c, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildSelect(e->b, c, a, b, "");
}
static LLVMValueRef and_(Em *e, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildAnd(e->b, a, b, "");
}
static LLVMValueRef or_(Em *e, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildOr(e->b, a, b, "");
}
static LLVMValueRef not_(Em *e, LLVMValueRef a)
{
    return LLVMBuildNot(e->b, a, "");
}

/* r, or where x or y is NaN, x + y (a NaN) */
static LLVMValueRef nan_or(Em *e, LLVMValueRef x, LLVMValueRef y, LLVMValueRef r)
{
    LLVMValueRef sum = add(e, x, y);
    LLVMValueRef y_nan = isnan_(e, y);
    return sel(e, or_(e, isnan_(e, x), y_nan), sum, r);
}

static LLVMValueRef bits(Em *e, LLVMValueRef a)
{
    return LLVMBuildBitCast(e->b, a, e->ity, "");
}
static LLVMValueRef from_bits(Em *e, LLVMValueRef a)
{
    return LLVMBuildBitCast(e->b, a, e->ty, "");
}
static LLVMValueRef iadd(Em *e, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildAdd(e->b, a, b, "");
}
static LLVMValueRef isub(Em *e, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildSub(e->b, a, b, "");
}
static LLVMValueRef shl(Em *e, LLVMValueRef a, unsigned n)
{
    return LLVMBuildShl(e->b, a, KI(e, n), "");
}
static LLVMValueRef ashr(Em *e, LLVMValueRef a, unsigned n)
{
    return LLVMBuildAShr(e->b, a, KI(e, n), "");
}
static LLVMValueRef bit_set(Em *e, LLVMValueRef a, uint64_t mask)
{
    LLVMValueRef m = LLVMBuildAnd(e->b, a, KI(e, mask), "");
    return LLVMBuildICmp(e->b, LLVMIntNE, m, KI(e, 0), "");
}
static LLVMValueRef signbit_(Em *e, LLVMValueRef a)
{
    return LLVMBuildICmp(e->b, LLVMIntSLT, bits(e, a), KI(e, 0), "");
}

/* x limited to [lo, hi], NaN mapped to hi: the result is always finite, so
 * the integer tricks below never see NaN; callers select NaN results. */
static LLVMValueRef clamp(Em *e, LLVMValueRef x, double lo, double hi)
{
    x = sel(e, cmpk(e, LLVMRealOLE, x, hi), x, K(e, hi));
    return sel(e, cmpk(e, LLVMRealOGE, x, lo), x, K(e, lo));
}

/* sum c[i] x^i by Horner's rule */
static LLVMValueRef poly(Em *e, LLVMValueRef x, const double *c, int n)
{
    LLVMValueRef r = K(e, c[n - 1]);
    for (int i = n - 2; i >= 0; i--)
        r = fmadd(e, r, x, K(e, c[i]));
    return r;
}
#define POLY(e, x, tab) poly(e, x, tab, (int)(sizeof tab / sizeof tab[0]))

/* The nearest integer to x (|x| < 2^51) as a double; *k gets it as an i64.
 * Adding 1.5 * 2^52 leaves no fraction bits, so the addition rounds x to an
 * integer, and the low significand bits then hold it in two's complement. */
static LLVMValueRef round_k(Em *e, LLVMValueRef x, LLVMValueRef *k)
{
    LLVMValueRef t = add(e, x, K(e, SHIFTER));
    if (k)
        *k = isub(e, bits(e, t), KI(e, SHIFTER_BITS));
    return sub(e, t, K(e, SHIFTER));
}

/* (double)k for |k| < 2^51, the same trick backwards. */
static LLVMValueRef i2d(Em *e, LLVMValueRef k)
{
    return sub(e, from_bits(e, iadd(e, k, KI(e, SHIFTER_BITS))),
               K(e, SHIFTER));
}

/* 2^k for k in [-1022, 1023]. */
static LLVMValueRef pow2(Em *e, LLVMValueRef k)
{
    return from_bits(e, shl(e, iadd(e, k, KI(e, 1023)), 52));
}

/* v * 2^k for k in [-2044, 2046] and v in [0.5, 2]: two factors, each a
 * normal number; the first product is exact, so a subnormal or overflowing
 * result is rounded once. */
static LLVMValueRef scale2(Em *e, LLVMValueRef v, LLVMValueRef k)
{
    LLVMValueRef k1 = ashr(e, k, 1);
    LLVMValueRef k2 = isub(e, k, k1);
    LLVMValueRef s2 = pow2(e, k2);
    return mul(e, mul(e, v, pow2(e, k1)), s2);
}

/* ---- error-free transformations ----------------------------------------- */

static DD two_sum(Em *e, LLVMValueRef a, LLVMValueRef b)
{
    LLVMValueRef s = add(e, a, b);
    LLVMValueRef bb = sub(e, s, a);
    LLVMValueRef b_err = sub(e, b, bb);
    LLVMValueRef err = add(e, sub(e, a, sub(e, s, bb)), b_err);
    return (DD){s, err};
}

/* Precondition: |a| >= |b| (or a == 0). */
static DD fast_two_sum(Em *e, LLVMValueRef a, LLVMValueRef b)
{
    LLVMValueRef s = add(e, a, b);
    return (DD){s, sub(e, b, sub(e, s, a))};
}

/* a = hi + lo with hi holding the top 26 bits (Veltkamp's splitting). */
static DD split(Em *e, LLVMValueRef a)
{
    LLVMValueRef c = mul(e, K(e, 134217729.0), a); /* 2^27 + 1 */
    LLVMValueRef hi = sub(e, c, sub(e, c, a));
    return (DD){hi, sub(e, a, hi)};
}

static DD two_prod(Em *e, LLVMValueRef a, LLVMValueRef b)
{
    LLVMValueRef p = mul(e, a, b);
    DD x = split(e, a), y = split(e, b);
    LLVMValueRef err = sub(e, mul(e, x.hi, y.hi), p);
    err = add(e, err, mul(e, x.hi, y.lo));
    err = add(e, err, mul(e, x.lo, y.hi));
    err = add(e, err, mul(e, x.lo, y.lo));
    return (DD){p, err};
}

/* (n.hi + n.lo) / (d.hi + d.lo) to ~2^-100 before the final rounding: one
 * Newton-style correction from the exact remainder n.hi - q * d.hi. */
static LLVMValueRef dd_div(Em *e, DD n, DD d)
{
    LLVMValueRef q = fdiv(e, n.hi, d.hi);
    DD p = two_prod(e, q, d.hi);
    LLVMValueRef rem = sub(e, sub(e, n.hi, p.hi), p.lo); /* exact first sub */
    LLVMValueRef qd = mul(e, q, d.lo);
    rem = sub(e, add(e, rem, n.lo), qd);
    return add(e, q, fdiv(e, rem, d.hi));
}

/* ---- exp, expm1 --------------------------------------------------------- */

/* exp(xh + xl) = 2^k * (p.hi + p.lo), for |xh| <= 760 and |xl| tiny (xl may
 * be NULL).  Cody-Waite reduction: k = round(x / ln2),
 * r = x - k*LN2_HI - k*LN2_LO, where k*LN2_HI is exact and the subtraction
 * is exact by Sterbenz's lemma; in hi mode r is kept as r + rl.  p.hi is the
 * correctly rounded sum. */
static DD exp_core(Em *e, LLVMValueRef xh, LLVMValueRef xl, LLVMValueRef *k)
{
    LLVMValueRef kd = round_k(e, mul(e, xh, K(e, INV_LN2)), k);
    LLVMValueRef t = sub(e, xh, mul(e, kd, K(e, LN2_HI)));
    LLVMValueRef klo = mul(e, kd, K(e, LN2_LO));
    if (!e->hi) {
        LLVMValueRef r = sub(e, t, klo);
        if (xl)
            r = add(e, r, xl);
        LLVMValueRef c = POLY(e, r, EXP_LO);
        LLVMValueRef p = fmadd(e, mul(e, r, r), c, r);
        return (DD){add(e, K(e, 1.0), p), K(e, 0.0)};
    }
    LLVMValueRef rl0 = xl ? sub(e, xl, klo) : neg(e, klo);
    DD r = two_sum(e, t, rl0);
    /* exp(r + rl) = 1 + r + r^2 P(r) + rl (1 + r) + O(rl r^2) */
    LLVMValueRef q = fmadd(e, r.lo, r.hi, r.lo);
    LLVMValueRef c = POLY(e, r.hi, EXP_HI);
    q = fmadd(e, mul(e, r.hi, r.hi), c, q);
    DD h = fast_two_sum(e, K(e, 1.0), r.hi);
    return fast_two_sum(e, h.hi, add(e, h.lo, q));
}

static LLVMValueRef exp_d(Em *e, LLVMValueRef x)
{
    LLVMValueRef k;
    /* exp overflows above 709.8 and is 0 below -745.2: the clamp keeps
     * those results and keeps k in scale2's range. */
    DD p = exp_core(e, clamp(e, x, -760.0, 720.0), NULL, &k);
    LLVMValueRef r = scale2(e, p.hi, k);
    return sel(e, isnan_(e, x), x, r);
}

/* expm1(x) = hi + lo for x in [-45, 710] (lo is 0 in lo mode).  With k, r as
 * in exp_core and h = 2^(k-1):
 *     expm1(x) = 2 * ((h - 1/2) + h * expm1(r)),
 * where expm1(r) = r + r^2 P(r) has no cancellation and the sums are done
 * with two_sum (in hi mode); halving keeps 2^(k-1) finite for k = 1024, and
 * the doubling is exact or overflows. */
static DD expm1_core(Em *e, LLVMValueRef x)
{
    LLVMValueRef k;
    LLVMValueRef kd = round_k(e, mul(e, x, K(e, INV_LN2)), &k);
    LLVMValueRef t = sub(e, x, mul(e, kd, K(e, LN2_HI)));
    LLVMValueRef klo = mul(e, kd, K(e, LN2_LO));
    LLVMValueRef h = pow2(e, isub(e, k, KI(e, 1)));
    LLVMValueRef a = sub(e, h, K(e, 0.5));
    if (!e->hi) {
        LLVMValueRef r = sub(e, t, klo);
        LLVMValueRef c = POLY(e, r, EXP_LO);
        LLVMValueRef p = fmadd(e, mul(e, r, r), c, r);
        LLVMValueRef v = fmadd(e, h, p, a);
        return (DD){mul(e, v, K(e, 2.0)), K(e, 0.0)};
    }
    DD r = two_sum(e, t, neg(e, klo));
    LLVMValueRef q = fmadd(e, r.lo, r.hi, r.lo);
    LLVMValueRef c = POLY(e, r.hi, EXP_HI);
    q = fmadd(e, mul(e, r.hi, r.hi), c, q);
    DD ad = two_sum(e, h, K(e, -0.5)); /* h - 1/2 is inexact for k > 53 */
    DD s = two_sum(e, ad.hi, mul(e, h, r.hi));
    DD v = fast_two_sum(e, s.hi, add(e, fmadd(e, h, q, s.lo), ad.lo));
    LLVMValueRef hi2 = mul(e, v.hi, K(e, 2.0));
    return (DD){hi2, mul(e, v.lo, K(e, 2.0))};
}

static LLVMValueRef expm1_d(Em *e, LLVMValueRef x)
{
    /* below -45, expm1 rounds to -1; above 710 it overflows */
    DD v = expm1_core(e, clamp(e, x, -45.0, 710.0));
    /* |x| < 2^-54: expm1(x) rounds to x; also keeps -0 and subnormals */
    LLVMValueRef tiny = cmpk(e, LLVMRealOLT, fabs_(e, x), 0x1p-54);
    LLVMValueRef r = sel(e, tiny, x, v.hi);
    return sel(e, isnan_(e, x), x, r);
}

/* ---- log, log1p --------------------------------------------------------- */

/* x = 2^k * m with m in [sqrt(1/2), sqrt(2)); x positive and finite,
 * subnormals included.  Subtracting the bits of sqrt(1/2) before taking the
 * exponent field moves the interval boundary from 1 to sqrt(1/2). */
static LLVMValueRef log_reduce(Em *e, LLVMValueRef x, LLVMValueRef *kd)
{
    LLVMValueRef sub_ = cmpk(e, LLVMRealOLT, x, 0x1p-1022);
    LLVMValueRef xs = sel(e, sub_, mul(e, x, K(e, 0x1p54)), x);
    LLVMValueRef ix = bits(e, xs);
    LLVMValueRef k = ashr(e, isub(e, ix, KI(e, SQRT_HALF_BITS)), 52);
    LLVMValueRef m = from_bits(e, isub(e, ix, shl(e, k, 52)));
    k = iadd(e, k, LLVMBuildSelect(e->b, sub_, KI(e, (uint64_t)-54),
                                   KI(e, 0), ""));
    *kd = i2d(e, k);
    return m;
}

/* k*ln2 + log(1 + f) + c for 1 + f in [sqrt(1/2), sqrt(2)) and a small
 * correction c (NULL for none); full picks the double-accuracy polynomial.
 * With s = f / (2 + f),
 *     log(1 + f) = 2 atanh(s) = f - f^2/2 + s * (f^2/2 + z Q(z)),  z = s^2,
 * which keeps the large terms exact (fdlibm's e_log.c arrangement). */
static LLVMValueRef log_finish(Em *e, LLVMValueRef f, LLVMValueRef kd,
                               LLVMValueRef c, bool full)
{
    LLVMValueRef s = fdiv(e, f, add(e, K(e, 2.0), f));
    LLVMValueRef z = mul(e, s, s);
    LLVMValueRef q = full ? POLY(e, z, LOG_HI) : POLY(e, z, LOG_LO);
    LLVMValueRef hfsq = mul(e, mul(e, K(e, 0.5), f), f);
    LLVMValueRef lo = mul(e, kd, K(e, LN2_LO));
    if (c)
        lo = add(e, lo, c);
    LLVMValueRef v = fmadd(e, s, fmadd(e, z, q, hfsq), lo);
    LLVMValueRef l = sub(e, f, sub(e, hfsq, v));
    return fmadd(e, kd, K(e, LN2_HI), l); /* k * LN2_HI is exact */
}

static LLVMValueRef log_d(Em *e, LLVMValueRef x)
{
    LLVMValueRef inf = KB(e, INF_BITS);
    LLVMValueRef finite = cmp(e, LLVMRealOLT, x, inf);
    LLVMValueRef ok = and_(e, cmpk(e, LLVMRealOGT, x, 0.0), finite);
    LLVMValueRef kd;
    LLVMValueRef m = log_reduce(e, sel(e, ok, x, K(e, 1.0)), &kd);
    LLVMValueRef r = log_finish(e, sub(e, m, K(e, 1.0)), kd, NULL, e->hi);
    LLVMValueRef ninf = neg(e, inf);
    r = sel(e, cmpk(e, LLVMRealOEQ, x, 0.0), ninf, r);
    r = sel(e, cmpk(e, LLVMRealOLT, x, 0.0), KB(e, NAN_BITS), r);
    r = sel(e, cmp(e, LLVMRealOEQ, x, inf), inf, r);
    return sel(e, isnan_(e, x), x, r);
}

/* log1p(x): u = 1 + x rounded, x = (u - 1) + err exactly (two_sum), and
 * log1p(x) = log(u) + err/u.  When u is in [sqrt(1/2), sqrt(2)) the exact
 * f = x is used directly instead. */
static LLVMValueRef log1p_d(Em *e, LLVMValueRef x)
{
    LLVMValueRef inf = KB(e, INF_BITS);
    LLVMValueRef finite = cmp(e, LLVMRealOLT, x, inf);
    LLVMValueRef ok = and_(e, cmpk(e, LLVMRealOGT, x, -1.0), finite);
    LLVMValueRef xs = sel(e, ok, x, K(e, 0.0));
    DD u = two_sum(e, K(e, 1.0), xs);
    LLVMValueRef kd;
    LLVMValueRef m = log_reduce(e, u.hi, &kd);
    LLVMValueRef k0 = cmpk(e, LLVMRealOEQ, kd, 0.0);
    LLVMValueRef f = sel(e, k0, xs, sub(e, m, K(e, 1.0)));
    LLVMValueRef c = sel(e, k0, K(e, 0.0), fdiv(e, u.lo, u.hi));
    LLVMValueRef r = log_finish(e, f, kd, c, e->hi);
    /* |x| < 2^-54: log1p(x) rounds to x; also keeps -0 and subnormals */
    r = sel(e, cmpk(e, LLVMRealOLT, fabs_(e, x), 0x1p-54), x, r);
    LLVMValueRef ninf = neg(e, inf);
    r = sel(e, cmpk(e, LLVMRealOEQ, x, -1.0), ninf, r);
    r = sel(e, cmpk(e, LLVMRealOLT, x, -1.0), KB(e, NAN_BITS), r);
    r = sel(e, cmp(e, LLVMRealOEQ, x, inf), inf, r);
    return sel(e, isnan_(e, x), x, r);
}

/* log(x) as a double-double with relative error ~2^-65 for pow; x positive,
 * finite.  Same reduction as log, but s = f / (1 + m) is carried as
 * s + sl, and 2 atanh(s) = 2s + s^3 (2/3 + z B(z)) has its two leading
 * terms evaluated in double-double arithmetic. */
static DD log_dd(Em *e, LLVMValueRef x)
{
    LLVMValueRef kd;
    LLVMValueRef m = log_reduce(e, x, &kd);
    LLVMValueRef f = sub(e, m, K(e, 1.0));
    DD u = two_sum(e, m, K(e, 1.0));
    LLVMValueRef s = fdiv(e, f, u.hi);
    DD p = two_prod(e, s, u.hi);
    LLVMValueRef su = mul(e, s, u.lo);
    LLVMValueRef rem = sub(e, sub(e, sub(e, f, p.hi), p.lo), su);
    LLVMValueRef sl = fdiv(e, rem, u.hi);
    DD z = two_prod(e, s, s); /* s^2 */
    z.lo = fmadd(e, mul(e, K(e, 2.0), s), sl, z.lo);
    DD c = two_prod(e, s, z.hi); /* s^3 */
    c.lo = add(e, c.lo, fmadd(e, s, z.lo, mul(e, sl, z.hi)));
    LLVMValueRef al = fmadd(e, z.hi, POLY(e, z.hi, LOG_DD_B),
                            K(e, TWO_THIRDS_L));
    DD t = two_prod(e, c.hi, K(e, TWO_THIRDS_H));
    t.lo = add(e, t.lo, fmadd(e, c.hi, al, mul(e, c.lo, K(e, TWO_THIRDS_H))));
    DD l = fast_two_sum(e, mul(e, K(e, 2.0), s), t.hi);
    l.lo = add(e, l.lo, fmadd(e, K(e, 2.0), sl, t.lo));
    DD h = two_sum(e, mul(e, kd, K(e, LN2_HI)), l.hi);
    h.lo = add(e, h.lo, fmadd(e, kd, K(e, LN2_LO), l.lo));
    return fast_two_sum(e, h.hi, h.lo);
}

/* ---- pow ---------------------------------------------------------------- */

/* v is an integer: every double >= 2^52 is; below, adding 2^52 rounds. */
static LLVMValueRef is_int(Em *e, LLVMValueRef v)
{
    LLVMValueRef a = fabs_(e, v);
    LLVMValueRef big = cmpk(e, LLVMRealOGE, a, 0x1p52);
    LLVMValueRef r = sub(e, add(e, a, K(e, 0x1p52)), K(e, 0x1p52));
    return or_(e, big, cmp(e, LLVMRealOEQ, r, a));
}

/* pow(|x|, y) = exp(y * log|x|) for finite nonzero x and finite y.  In hi
 * mode the product is formed from the double-double log, so its absolute
 * error stays ~2^-56 even at |y log x| ~ 745. */
static LLVMValueRef pow_core(Em *e, LLVMValueRef ax, LLVMValueRef y)
{
    LLVMValueRef wh, wl;
    if (e->hi) {
        DD l = log_dd(e, ax);
        DD w = two_prod(e, y, l.hi);
        wh = w.hi;
        wl = fmadd(e, y, l.lo, w.lo);
    } else {
        LLVMValueRef kd;
        LLVMValueRef m = log_reduce(e, ax, &kd);
        /* float pow: |y log x| < 104 for finite results, so a double log
         * (full-accuracy polynomial) leaves ~2^-46 absolute error */
        LLVMValueRef l = log_finish(e, sub(e, m, K(e, 1.0)), kd, NULL, true);
        wh = mul(e, y, l);
        wl = K(e, 0.0);
    }
    LLVMValueRef whc = clamp(e, wh, -760.0, 720.0);
    wl = sel(e, cmp(e, LLVMRealOEQ, whc, wh), wl, K(e, 0.0));
    LLVMValueRef k;
    DD p = exp_core(e, whc, wl, &k);
    return scale2(e, p.hi, k);
}

/* Special cases follow C99 F.9.4.4. */
static LLVMValueRef pow_d(Em *e, LLVMValueRef x, LLVMValueRef y)
{
    LLVMValueRef inf = KB(e, INF_BITS);
    LLVMValueRef ax = fabs_(e, x), ay = fabs_(e, y);
    LLVMValueRef x_below_inf = cmp(e, LLVMRealOLT, ax, inf);
    LLVMValueRef xfin = and_(e, cmpk(e, LLVMRealOGT, ax, 0.0), x_below_inf); /* and x != 0 */
    LLVMValueRef yfin = cmp(e, LLVMRealOLT, ay, inf);
    /* |y| >= 2^63 over/underflows for every finite x != 1 just as y = 2^63
     * does, and keeps two_prod's splitting finite */
    LLVMValueRef ys = clamp(e, sel(e, yfin, y, K(e, 0.0)), -0x1p63, 0x1p63);
    LLVMValueRef r = pow_core(e, sel(e, xfin, ax, K(e, 1.0)), ys);
    /* |x| = 0 or inf, or y = +-inf: 0 or inf depending on sign(log|x| * y) */
    LLVMValueRef y_inf = cmp(e, LLVMRealOEQ, ay, inf);
    LLVMValueRef x_inf = cmp(e, LLVMRealOEQ, ax, inf);
    LLVMValueRef zi = or_(e, or_(e, cmpk(e, LLVMRealOEQ, ax, 0.0), x_inf), y_inf);
    LLVMValueRef y_pos = cmpk(e, LLVMRealOGT, y, 0.0);
    LLVMValueRef big = LLVMBuildICmp(e->b, LLVMIntEQ, cmpk(e, LLVMRealOGT, ax, 1.0), y_pos, "");
    r = sel(e, zi, sel(e, big, inf, K(e, 0.0)), r);
    r = sel(e, cmpk(e, LLVMRealOEQ, ax, 1.0), K(e, 1.0), r);
    /* negative x (including -0, -inf): odd y flips the sign, and a finite
     * nonzero x with non-integer y has no real power */
    LLVMValueRef yint = is_int(e, y);
    LLVMValueRef yodd = and_(e, yint, not_(e, is_int(e, mul(e, y, K(e, 0.5)))));
    LLVMValueRef xneg = signbit_(e, x);
    LLVMValueRef nr = neg(e, r);
    r = sel(e, and_(e, xneg, yodd), nr, r);
    LLVMValueRef y_frac = not_(e, yint);
    r = sel(e, and_(e, and_(e, xneg, xfin), y_frac), KB(e, NAN_BITS), r);
    r = nan_or(e, x, y, r);
    /* pow(x, +-0) = 1 and pow(1, y) = 1, even for NaN */
    LLVMValueRef x_one = cmpk(e, LLVMRealOEQ, x, 1.0);
    LLVMValueRef one = or_(e, cmpk(e, LLVMRealOEQ, y, 0.0), x_one);
    return sel(e, one, K(e, 1.0), r);
}

/* ---- sin, cos, tan ------------------------------------------------------ */

/* x = k * pi/2 + (r.hi + r.lo), |r| <= pi/4 (plus a rounding hair).
 * Cody-Waite reduction with pi/2 in four parts: k * PIO2_{1,2,3} are exact
 * while |k| < 2^20 and x - k * PIO2_1 is exact by Sterbenz's lemma; the rest
 * is accumulated with two_sum.  The four parts hold ~160 bits of pi/2, enough
 * for the closest approaches of doubles to multiples of pi/2 while
 * |k| < 2^20.  LIMIT: beyond |x| ~ 2^20 * pi/2 (1.6e6) k * PIO2_1 is no longer
 * exact and accuracy degrades; the guarantee (tested) is |x| < 1e5.  A
 * Payne-Hanek reduction would be needed for more. */
static DD trig_reduce(Em *e, LLVMValueRef x, LLVMValueRef *k)
{
    LLVMValueRef kd = round_k(e, mul(e, x, K(e, TWO_OVER_PI)), k);
    LLVMValueRef t = sub(e, x, mul(e, kd, K(e, PIO2_1)));
    LLVMValueRef w2 = mul(e, kd, K(e, PIO2_2));
    LLVMValueRef w3 = mul(e, kd, K(e, PIO2_3));
    if (!e->hi) /* float: ~100 bits of pi/2 and one rounding suffice */
        return (DD){sub(e, sub(e, t, w2), w3), K(e, 0.0)};
    DD a = two_sum(e, t, neg(e, w2));
    DD b = two_sum(e, a.hi, neg(e, w3));
    LLVMValueRef k4 = mul(e, kd, K(e, PIO2_4));
    LLVMValueRef lo = sub(e, add(e, a.lo, b.lo), k4);
    return fast_two_sum(e, b.hi, lo);
}

/* sin(r.hi + r.lo) ~ rh + (rh^3 S(z) + rl (1 - z/2)) */
static DD sin_kernel(Em *e, DD r)
{
    LLVMValueRef z = mul(e, r.hi, r.hi);
    if (!e->hi) {
        LLVMValueRef s = POLY(e, z, SIN_LO);
        return (DD){fmadd(e, mul(e, z, r.hi), s, r.hi), K(e, 0.0)};
    }
    LLVMValueRef s = POLY(e, z, SIN_HI);
    LLVMValueRef corr = mul(e, r.lo, fmadd(e, K(e, -0.5), z, K(e, 1.0)));
    LLVMValueRef small = fmadd(e, mul(e, z, r.hi), s, corr);
    return fast_two_sum(e, r.hi, small);
}

/* cos(r.hi + r.lo) ~ w + (((1 - w) - z/2) + (z^2 C(z) - rh rl)), w = 1 - z/2:
 * the rounding error of w is recovered exactly. */
static DD cos_kernel(Em *e, DD r)
{
    LLVMValueRef z = mul(e, r.hi, r.hi);
    LLVMValueRef hz = mul(e, K(e, 0.5), z);
    if (!e->hi) {
        LLVMValueRef c = POLY(e, z, COS_LO);
        LLVMValueRef w = sub(e, K(e, 1.0), hz);
        return (DD){fmadd(e, mul(e, z, z), c, w), K(e, 0.0)};
    }
    LLVMValueRef c = POLY(e, z, COS_HI);
    LLVMValueRef w = sub(e, K(e, 1.0), hz);
    LLVMValueRef rr = neg(e, mul(e, r.hi, r.lo));
    LLVMValueRef tail = fmadd(e, mul(e, z, z), c, rr);
    LLVMValueRef small = add(e, sub(e, sub(e, K(e, 1.0), w), hz), tail);
    return fast_two_sum(e, w, small);
}

enum trig { TRIG_SIN, TRIG_COS, TRIG_TAN };

static LLVMValueRef trig_d(Em *e, LLVMValueRef x, enum trig which)
{
    LLVMValueRef ax = fabs_(e, x);
    /* round_k needs |x * 2/pi| < 2^51; larger x are far outside the
     * accurate range anyway (see trig_reduce) and are reduced as 0 */
    LLVMValueRef xr = sel(e, cmpk(e, LLVMRealOLT, ax, 0x1p51), x, K(e, 0.0));
    LLVMValueRef k;
    DD r = trig_reduce(e, xr, &k);
    DD s = sin_kernel(e, r), c = cos_kernel(e, r);
    if (which == TRIG_COS)
        k = iadd(e, k, KI(e, 1)); /* cos x = sin(x + pi/2) */
    LLVMValueRef odd = bit_set(e, k, 1);
    LLVMValueRef v;
    if (which == TRIG_TAN) {
        /* tan = sin/cos, or -cos/sin in odd quadrants */
        LLVMValueRef n_hi = sel(e, odd, c.hi, s.hi);
        DD n = {n_hi, sel(e, odd, c.lo, s.lo)};
        LLVMValueRef d_hi = sel(e, odd, s.hi, c.hi);
        DD d = {d_hi, sel(e, odd, s.lo, c.lo)};
        v = e->hi ? dd_div(e, n, d) : fdiv(e, n.hi, d.hi);
        v = sel(e, odd, neg(e, v), v);
    } else {
        v = sel(e, odd, c.hi, s.hi);
        LLVMValueRef nv = neg(e, v);
        v = sel(e, bit_set(e, k, 2), nv, v);
    }
    /* |x| < 2^-27: sin and tan round to x, cos to 1 (keeps -0, subnormals) */
    LLVMValueRef tiny = cmpk(e, LLVMRealOLT, ax, 0x1p-27);
    v = sel(e, tiny, which == TRIG_COS ? K(e, 1.0) : x, v);
    /* inf and NaN give NaN */
    LLVMValueRef fin = cmp(e, LLVMRealOLT, ax, KB(e, INF_BITS));
    return sel(e, fin, v, sub(e, x, x));
}

static LLVMValueRef sin_d(Em *e, LLVMValueRef x) { return trig_d(e, x, TRIG_SIN); }
static LLVMValueRef cos_d(Em *e, LLVMValueRef x) { return trig_d(e, x, TRIG_COS); }
static LLVMValueRef tan_d(Em *e, LLVMValueRef x) { return trig_d(e, x, TRIG_TAN); }

/* ---- tanh, logistic ----------------------------------------------------- */

/* tanh|x| = E / (E + 2) with E = expm1(2|x|); in hi mode E is a
 * double-double and the quotient is formed by dd_div, so the result is
 * rounded essentially once. */
static LLVMValueRef tanh_d(Em *e, LLVMValueRef x)
{
    LLVMValueRef ax = fabs_(e, x);
    /* tanh(22) rounds to 1 */
    LLVMValueRef a2 = mul(e, clamp(e, ax, 0.0, 22.0), K(e, 2.0));
    DD E = expm1_core(e, a2);
    LLVMValueRef v;
    if (e->hi) {
        DD d = two_sum(e, E.hi, K(e, 2.0));
        d.lo = add(e, d.lo, E.lo);
        v = dd_div(e, E, d);
    } else {
        v = fdiv(e, E.hi, add(e, E.hi, K(e, 2.0)));
    }
    /* |x| < 2^-27: tanh(x) rounds to x (keeps -0 and subnormals exact) */
    v = sel(e, cmpk(e, LLVMRealOLT, ax, 0x1p-27), ax, v);
    v = copysign_(e, v, x);
    return sel(e, isnan_(e, x), x, v);
}

/* logistic(x) = 1 / (1 + E) for x >= 0 and E / (1 + E) for x < 0, with
 * E = exp(-|x|) <= 1, so nothing cancels; in hi mode E is a double-double
 * and the quotient is formed by dd_div. */
static LLVMValueRef logistic_d(Em *e, LLVMValueRef x)
{
    LLVMValueRef k;
    LLVMValueRef ax = clamp(e, fabs_(e, x), 0.0, 800.0);
    DD p = exp_core(e, neg(e, ax), NULL, &k);
    LLVMValueRef xneg = cmpk(e, LLVMRealOLT, x, 0.0);
    LLVMValueRef v;
    if (e->hi) {
        LLVMValueRef E_hi = scale2(e, p.hi, k);
        DD E = {E_hi, scale2(e, p.lo, k)};
        LLVMValueRef n_hi = sel(e, xneg, E.hi, K(e, 1.0));
        DD n = {n_hi, sel(e, xneg, E.lo, K(e, 0.0))};
        DD d = fast_two_sum(e, K(e, 1.0), E.hi);
        d.lo = add(e, d.lo, E.lo);
        v = dd_div(e, n, d);
    } else {
        LLVMValueRef E = scale2(e, p.hi, k);
        LLVMValueRef den = add(e, K(e, 1.0), E);
        v = fdiv(e, sel(e, xneg, E, K(e, 1.0)), den);
    }
    return sel(e, isnan_(e, x), x, v);
}

/* ---- atan2 -------------------------------------------------------------- */

/* The rounding error of t = num / den (0 <= num <= den), as tl with
 * t + tl ~ num / den to ~2^-106.  num and den are first scaled by the same
 * power of two to bring den near 1, so that two_prod cannot overflow; tl is
 * dropped when num then underflows (t < 2^-1000, where it does not
 * matter) and for infinite den. */
static LLVMValueRef quotient_low(Em *e, LLVMValueRef num, LLVMValueRef den,
                                 LLVMValueRef t)
{
    LLVMValueRef ex = LLVMBuildLShr(e->b, bits(e, den), KI(e, 52), "");
    LLVMValueRef lo = LLVMBuildICmp(e->b, LLVMIntULT, ex, KI(e, 1), "");
    LLVMValueRef hi = LLVMBuildICmp(e->b, LLVMIntUGT, ex, KI(e, 2045), "");
    ex = LLVMBuildSelect(e->b, lo, KI(e, 1), ex, "");
    ex = LLVMBuildSelect(e->b, hi, KI(e, 2045), ex, "");
    LLVMValueRef sc = from_bits(e, shl(e, isub(e, KI(e, 2046), ex), 52));
    LLVMValueRef n = mul(e, num, sc), d = mul(e, den, sc);
    DD p = two_prod(e, t, d);
    LLVMValueRef tl = fdiv(e, sub(e, sub(e, n, p.hi), p.lo), d);
    LLVMValueRef den_finite = cmp(e, LLVMRealOLT, den, KB(e, INF_BITS));
    LLVMValueRef ok = and_(e, cmpk(e, LLVMRealOGE, t, 0x1p-1000), den_finite);
    return sel(e, ok, tl, K(e, 0.0));
}

/* With t = min(|x|,|y|) / max(|x|,|y|) in [0, 1], atan(t) = atan(c) +
 * atan(u), u = (t - c) / (1 + t c), for c in {0, 1/4, 1/2, 1} picked so that
 * |u| <= 0.1623: t - c is exact (Sterbenz) and t c is exact (c a power of
 * two).  Then atan2 = B + s * atan(t) with B in {0, pi/2, pi} and s = +-1 by
 * octant, and the sign of y.  In hi mode the rounding errors of t and of
 * 1 + t c are corrected and the leading sums are done with two_sum. */
static LLVMValueRef atan2_d(Em *e, LLVMValueRef y, LLVMValueRef x)
{
    LLVMValueRef ax = fabs_(e, x), ay = fabs_(e, y);
    LLVMValueRef swap = cmp(e, LLVMRealOGT, ay, ax);
    LLVMValueRef num = sel(e, swap, ax, ay), den = sel(e, swap, ay, ax);
    LLVMValueRef t = fdiv(e, num, den);
    t = sel(e, cmpk(e, LLVMRealOEQ, den, 0.0), K(e, 0.0), t); /* 0/0 */
    t = sel(e, cmp(e, LLVMRealOEQ, num, KB(e, INF_BITS)), K(e, 1.0), t);

    LLVMValueRef g1 = cmpk(e, LLVMRealOGT, t, 0.125);
    LLVMValueRef g2 = cmpk(e, LLVMRealOGT, t, 0.37);
    LLVMValueRef g3 = cmpk(e, LLVMRealOGT, t, 0.7207592200561265);
    LLVMValueRef c = sel(e, g3, K(e, 1.0), sel(e, g2, K(e, 0.5),
                         sel(e, g1, K(e, 0.25), K(e, 0.0))));
    LLVMValueRef ch = sel(e, g3, K(e, PI4_H), sel(e, g2, K(e, ATAN_HALF_H),
                          sel(e, g1, K(e, ATAN_QUARTER_H), K(e, 0.0))));
    LLVMValueRef cl = sel(e, g3, K(e, PI4_L), sel(e, g2, K(e, ATAN_HALF_L),
                          sel(e, g1, K(e, ATAN_QUARTER_L), K(e, 0.0))));
    LLVMValueRef tc = mul(e, t, c);
    LLVMValueRef d = add(e, K(e, 1.0), tc);
    LLVMValueRef u = fdiv(e, sub(e, t, c), d);
    LLVMValueRef z = mul(e, u, u);
    LLVMValueRef tp = e->hi ? POLY(e, z, ATAN_HI) : POLY(e, z, ATAN_LO);
    LLVMValueRef p = mul(e, mul(e, u, z), tp); /* atan(u) - u */

    LLVMValueRef xneg = signbit_(e, x);
    LLVMValueRef bh = sel(e, swap, K(e, PI2_H), sel(e, xneg, K(e, PI_H), K(e, 0.0)));
    LLVMValueRef bl = sel(e, swap, K(e, PI2_L), sel(e, xneg, K(e, PI_L), K(e, 0.0)));
    LLVMValueRef s = sel(e, LLVMBuildXor(e->b, swap, xneg, ""), K(e, -1.0),
                         K(e, 1.0));
    LLVMValueRef r;
    if (e->hi) {
        /* with the exact t + tl and 1 + t c = d + dl:
         * u = (t + tl - c) / (d + dl) ~ u + (tl - u dl) / d */
        LLVMValueRef tl = quotient_low(e, num, den, t);
        LLVMValueRef dl = fmadd(e, tl, c, add(e, sub(e, K(e, 1.0), d), tc));
        LLVMValueRef ul = fdiv(e, sub(e, tl, mul(e, u, dl)), d);
        DD s1 = two_sum(e, bh, mul(e, s, ch));
        DD s2 = two_sum(e, s1.hi, mul(e, s, u));
        LLVMValueRef lo = fmadd(e, s, add(e, add(e, cl, ul), p), bl);
        r = add(e, s2.hi, add(e, add(e, s1.lo, s2.lo), lo));
    } else {
        r = fmadd(e, s, add(e, add(e, ch, u), p), bh);
    }
    r = copysign_(e, r, y);
    return nan_or(e, x, y, r);
}

/* ---- cbrt --------------------------------------------------------------- */

/* |x| = 2^(3q + r) * m, m in [1, 2), r in {-1, 0, 1}: cbrt = 2^q * cbrt(a),
 * a = 2^r m.  A polynomial start (2^-16.7) and one Newton step
 * y <- y - (y - a/y^2)/3 give 2^-33; in hi mode a second Newton step uses
 * the residual y^3 - a computed exactly with two_prod. */
static LLVMValueRef cbrt_d(Em *e, LLVMValueRef x)
{
    LLVMValueRef ax = fabs_(e, x);
    LLVMValueRef finite = cmp(e, LLVMRealOLT, ax, KB(e, INF_BITS));
    LLVMValueRef ok = and_(e, cmpk(e, LLVMRealOGT, ax, 0.0), finite);
    ax = sel(e, ok, ax, K(e, 1.0));
    LLVMValueRef sub_ = cmpk(e, LLVMRealOLT, ax, 0x1p-1022);
    ax = sel(e, sub_, mul(e, ax, K(e, 0x1p54)), ax);
    LLVMValueRef ix = bits(e, ax);
    LLVMValueRef ex = isub(e, LLVMBuildLShr(e->b, ix, KI(e, 52), ""),
                           KI(e, 1023));
    LLVMValueRef m = from_bits(
        e, LLVMBuildOr(e->b, LLVMBuildAnd(e->b, ix, KI(e, 0x000fffffffffffffULL), ""),
                       KI(e, 0x3ff0000000000000ULL), ""));
    LLVMValueRef ed = i2d(e, ex), q;
    /* ed / 3 is never halfway between integers, so rounding is unambiguous */
    LLVMValueRef qd = round_k(e, mul(e, ed, K(e, 1.0 / 3.0)), &q);
    LLVMValueRef rd = fmadd(e, K(e, -3.0), qd, ed);
    LLVMValueRef rm = cmpk(e, LLVMRealOLT, rd, -0.5);
    LLVMValueRef rp = cmpk(e, LLVMRealOGT, rd, 0.5);
    LLVMValueRef a = mul(e, m, sel(e, rm, K(e, 0.5), sel(e, rp, K(e, 2.0), K(e, 1.0))));
    LLVMValueRef s = sel(e, rm, K(e, 0x1.965fea53d6e3dp-1),     /* 2^-1/3 */
                         sel(e, rp, K(e, 0x1.428a2f98d728bp+0), /* 2^1/3 */
                             K(e, 1.0)));
    LLVMValueRef y = mul(e, POLY(e, m, CBRT_START), s);
    LLVMValueRef yy = mul(e, y, y);
    y = fmadd(e, K(e, -1.0 / 3.0), sub(e, y, fdiv(e, a, yy)), y);
    if (e->hi) {
        DD p = two_prod(e, y, y);
        DD c = two_prod(e, p.hi, y);
        LLVMValueRef lo = fmadd(e, p.lo, y, c.lo);
        LLVMValueRef res = add(e, sub(e, c.hi, a), lo);
        y = sub(e, y, fdiv(e, res, mul(e, K(e, 3.0), p.hi)));
    }
    q = iadd(e, q, LLVMBuildSelect(e->b, sub_, KI(e, (uint64_t)-18), KI(e, 0), ""));
    LLVMValueRef r = copysign_(e, mul(e, y, pow2(e, q)), x);
    return sel(e, ok, r, add(e, x, x)); /* +-0, +-inf, NaN */
}

/* ---- rsqrt -------------------------------------------------------------- */

/* A correctly rounded division of 1 by the correctly rounded square root
 * (no approximate reciprocal instructions): the two roundings give at most
 * 1.5 ULP for double (1.49 measured); float is computed in double and rounded
 * once more, which is almost always the correctly rounded float. */
static LLVMValueRef rsqrt_d(Em *e, LLVMValueRef x)
{
    return fdiv(e, K(e, 1.0), intrinsic(e, "llvm.sqrt", &x, 1));
}

/* ---- erf ---------------------------------------------------------------- */

/* Below 0.84375: erf(x) = x + x * ((C0 - 1) + z P(z)), z = x^2, with
 * C0 = 2/sqrt(pi) as a double-double; keeping the leading x exact leaves the
 * rounding errors in the smaller second term.  Rel error 2^-55.7 (hi, z up to
 * 0.84375^2) and 2^-34.8 (lo, z up to 1, also used up to x = 1). */
#define ERF_C0_H 0x1.20dd750429b6dp+0
#define ERF_C0_L 0x1.18307f65132fep-56
static const double ERF_SMALL_HI[] = {
    -0x1.812746b0379e6p-2, 0x1.ce2f21a042b4fp-4, -0x1.b82ce31283ed0p-6,
    0x1.565bcd0d42ef7p-8, -0x1.c02db3b01c2b6p-11, 0x1.f9a3198686a17p-14,
    -0x1.f4d0e4d16e43dp-17, 0x1.b9cba7694d2b3p-20, -0x1.5e28c629d172ep-23,
    0x1.e892f915f5f9fp-27, -0x1.ea01c39175f41p-31,
};
/* [0.84375, 1.25] (hi): erf(c + t) = E0 + t P(t), c = 1.046875, with
 * E0 = erf(c) as a double-double (the arrangement of fdlibm's s_erf.c, which
 * also expands around 1 here); rel error 2^-56.7. */
#define ERF_MID_C 1.046875
#define ERF_E0_H 0x1.b8f741ef54f83p-1
#define ERF_E0_L 0x1.ff2766ba0e81ap-55
static const double ERF_MID_HI[] = {
    0x1.822e655b417e6p-2, -0x1.9448921b88913p-2, 0x1.32dbb3099851cp-3,
    0x1.b39adc180cfe7p-5, -0x1.1351d7e7a1e6ap-4, 0x1.2ff4a0e8bb736p-7,
    0x1.b180d154bd964p-7, -0x1.652da086a7d9fp-8, -0x1.55f6fd340d513p-10,
    0x1.458d5fcffa49dp-10, -0x1.7f69528b71764p-16, -0x1.7c80f31a3cf30p-13,
    0x1.094ccef224a49p-15,
};
#define ERF_C0_LOMODE 0x1.20dd7504007e6p+0
static const double ERF_SMALL_LO[] = {
    -0x1.8127465fb9853p-2, 0x1.ce2f0798aeaacp-4, -0x1.b829a7a5e032cp-6,
    0x1.5628edef7a928p-8, -0x1.bcbe9a85c2facp-11, 0x1.d82691f494b81p-14,
    -0x1.4384053fef1bfp-17,
};

/* For larger x, erfc(x) = exp(-x^2) * H(x) with H(x) = erfc(x) exp(x^2)
 * smooth (used from 1.25 in hi mode, from 1 in lo mode); H is fitted by
 * polynomials in t = x - center on four intervals
 * (hi: rel errors 2^-55.3, 2^-51.0, 2^-45.9, 2^-39.4, each enough because
 * erfc shrinks faster than the error grows) or one (lo: [1, 4], 2^-27.5). */
#define ERF_NPIECE 4
#define ERF_NCOEF 13
static const double ERF_CENTER[ERF_NPIECE] = {1.25, 1.875, 2.875, 4.75};
static const double ERF_BOUND[ERF_NPIECE - 1] = {1.5, 2.25, 3.5};
static const double ERFC_HI[ERF_NPIECE][ERF_NCOEF] = {
    {   /* [1, 1.5] */
        0x1.78a692138767ap-2, -0x1.abaacdbfa8afbp-3, 0x1.b56f45eef7e73p-4,
        -0x1.9b635ac629999p-5, 0x1.68a25a663e978p-6, -0x1.299636cceabc4p-7,
        0x1.d1b695ac7d801p-9, -0x1.5b8bda320fa44p-10, 0x1.f0fe76b3e2f94p-12,
        -0x1.55b26b227c25dp-13, 0x1.c5656426e84c6p-15, -0x1.289925e2bb6a8p-16,
        0x1.6fbe01da801efp-18,
    },
    {   /* [1.5, 2.25] */
        0x1.13e5743b60480p-2, -0x1.e36580c7f7247p-4, 0x1.8a6efeed23520p-5,
        -0x1.2ef92f6f42eb0p-6, 0x1.b99589d3f1da5p-8, -0x1.33237be52b684p-9,
        0x1.99b60e32b0686p-11, -0x1.070e5111792b2p-12, 0x1.4631eaff54788p-14,
        -0x1.87739453d43bdp-16, 0x1.c8316e4c2fe0bp-18, -0x1.0b760afbc5fcdp-19,
        0x1.25b8199d368f7p-21,
    },
    {   /* [2.25, 3.5] */
        0x1.7d0a5e9dd570ap-3, -0x1.dfc0205707a9dp-5, 0x1.21c23afa35001p-6,
        -0x1.512f930137d0bp-8, 0x1.7b404aa4ebcdep-10, -0x1.9d6f1c4ed52a6p-12,
        0x1.b5d788bb9208fp-14, -0x1.c35f98ae83e68p-16, 0x1.c5b687c1d9fcep-18,
        -0x1.bc8527b8d295bp-20, 0x1.aadf9f88d8b64p-22, -0x1.ad4713338977cp-24,
        0x1.88c12c3f3fcf8p-26,
    },
    {   /* [3.5, 6] */
        0x1.dc603a3e77c94p-4, -0x1.81149bc42d29bp-6, 0x1.317c144f9c026p-8,
        -0x1.dc1af9876db22p-11, 0x1.6cc10c6b2ef5bp-13, -0x1.12f1214187aa2p-15,
        0x1.98187037f34a0p-18, -0x1.2a78fbf65ae09p-20, 0x1.ae392b3459bc3p-23,
        -0x1.2ec88ffff94efp-25, 0x1.a955d6d0572c5p-28, -0x1.58a205207045fp-30,
        0x1.d386892384203p-33,
    },
};
static const double ERFC_LO[] = {   /* [1, 4], center 2.5 */
    0x1.afbb3f345abebp-3, -0x1.3086d5726351ap-4, 0x1.98958f6c01941p-6,
    -0x1.063303b734135p-7, 0x1.435bbd585ed65p-9, -0x1.8064840452a84p-11,
    0x1.ba7ab09bf94edp-13, -0x1.f3298f3d873d4p-15, 0x1.0d48bc432e260p-16,
    -0x1.f80f3057be2cap-19, 0x1.0cf26a1564c13p-20, -0x1.c879a448ad28ep-22,
    0x1.a9fd49eaf4036p-24,
};

/* Per-lane piece selection: the value table[piece] for each lane, chosen by
 * comparing a with the piece boundaries (no table lookup, so it vectorizes). */
static LLVMValueRef pick(Em *e, LLVMValueRef *ge, const double *v)
{
    LLVMValueRef r = K(e, v[0]);
    for (int i = 1; i < ERF_NPIECE; i++)
        r = sel(e, ge[i - 1], K(e, v[i]), r);
    return r;
}

/* H(a) for a in [1, 6] (hi mode) */
static LLVMValueRef erfc_scaled_hi(Em *e, LLVMValueRef a)
{
    LLVMValueRef ge[ERF_NPIECE - 1];
    for (int i = 0; i < ERF_NPIECE - 1; i++)
        ge[i] = cmpk(e, LLVMRealOGE, a, ERF_BOUND[i]);
    LLVMValueRef t = sub(e, a, pick(e, ge, ERF_CENTER));
    double col[ERF_NPIECE];
    for (int p = 0; p < ERF_NPIECE; p++)
        col[p] = ERFC_HI[p][ERF_NCOEF - 1];
    LLVMValueRef r = pick(e, ge, col);
    for (int j = ERF_NCOEF - 2; j >= 0; j--) {
        for (int p = 0; p < ERF_NPIECE; p++)
            col[p] = ERFC_HI[p][j];
        r = fmadd(e, r, t, pick(e, ge, col));
    }
    return r;
}

/* erf(|x|) from the three forms above; the sign is restored at the end.
 * The exponent -x^2 is exact as a double-double in hi mode (its rounding
 * error would otherwise cost ~0.3 ULP near x = 1.25).  erf(6) rounds to 1 in
 * double, erf(4) in float. */
static LLVMValueRef erf_d(Em *e, LLVMValueRef x)
{
    LLVMValueRef ax = fabs_(e, x);
    LLVMValueRef a = clamp(e, ax, 0.0, e->hi ? 6.0 : 4.0);
    LLVMValueRef z = mul(e, a, a);
    LLVMValueRef r, h, k;
    DD p;
    if (e->hi) {
        LLVMValueRef y = fmadd(e, z, POLY(e, z, ERF_SMALL_HI), K(e, ERF_C0_L));
        LLVMValueRef ps = fmadd(e, a, add(e, K(e, ERF_C0_H - 1.0), y), a);
        LLVMValueRef t = sub(e, a, K(e, ERF_MID_C));
        LLVMValueRef pm = fmadd(e, t, POLY(e, t, ERF_MID_HI), K(e, ERF_E0_L));
        pm = add(e, K(e, ERF_E0_H), pm);
        h = erfc_scaled_hi(e, a);
        DD sq = two_prod(e, a, a);
        LLVMValueRef sq_lo = neg(e, sq.lo);
        p = exp_core(e, neg(e, sq.hi), sq_lo, &k);
        LLVMValueRef pb = sub(e, K(e, 1.0), mul(e, scale2(e, p.hi, k), h));
        r = sel(e, cmpk(e, LLVMRealOLT, a, 1.25), pm, pb);
        r = sel(e, cmpk(e, LLVMRealOLT, a, 0.84375), ps, r);
    } else {
        LLVMValueRef y = fmadd(e, z, POLY(e, z, ERF_SMALL_LO), K(e, ERF_C0_LOMODE - 1.0));
        LLVMValueRef ps = fmadd(e, a, y, a);
        h = POLY(e, sub(e, a, K(e, 2.5)), ERFC_LO);
        p = exp_core(e, neg(e, z), NULL, &k);
        LLVMValueRef pb = sub(e, K(e, 1.0), mul(e, scale2(e, p.hi, k), h));
        r = sel(e, cmpk(e, LLVMRealOLT, a, 1.0), ps, pb);
    }
    r = copysign_(e, r, x);
    return sel(e, isnan_(e, x), x, r);
}

/* ---- native float paths: exp, logistic, tanh, log -----------------------
 *
 * These four are the hot ones in float models, so they get float arithmetic
 * throughout instead of the extend-compute-round scheme above: twice the
 * lanes per vector register.  The structure is the double one; the Em
 * context then has ty = float and ity = i32 of the same shape, so K, KI,
 * clamp, poly and the other helpers emit float and i32 operations.
 * Each function stays within 2 ULP by keeping at most three roundings on
 * the main path after an exact reduction (analyses at each function; the
 * test measures at most 0.83 / 0.76 / 1.11 / 1.08 ULP for exp / log / tanh /
 * logistic). */

/* exp(r) = 1 + r + r^2 * P(r), |r| <= 0.3466; rel error of exp(r) 2^-28.0
 * with the coefficients rounded to float. */
static const double EXPF_P[] = {
    0x1.fffffcp-2, 0x1.555492p-3, 0x1.5558f2p-5, 0x1.1239e0p-7, 0x1.6a243ap-10,
};
/* tanh(x) = x + x^3 * T(x^2), |x| <= 0.625; rel error 2^-28.5. */
static const double TANHF_T[] = {
    -0x1.555554p-2, 0x1.111066p-3, -0x1.b9ee90p-5, 0x1.638b58p-6,
    -0x1.0bf4fep-7, 0x1.18e1dep-9,
};
/* 2 atanh(s) = 2s + s * z * Q(z), z = s^2 <= 0.1716^2 as for LOG_LO; rel
 * error of log(1 + f) 2^-30.1. */
static const double LOGF_Q[] = {
    0x1.55557ap-1, 0x1.995eb0p-2, 0x1.31e40ep-2,
};

/* ln2 = LN2F_HI + LN2F_LO (error 2^-44); LN2F_HI has 15 significant bits, so
 * k * LN2F_HI is exact for |k| < 2^9. */
#define LN2F_HI 0x1.62e4p-1
#define LN2F_LO 0x1.7f7d1cp-20
#define INV_LN2F 0x1.715476p+0
#define SHIFTERF 0x1.8p23 /* 1.5 * 2^23 */
#define SHIFTERF_BITS 0x4b400000u
#define INFF_BITS 0x7f800000u
#define NANF_BITS 0x7fc00000u
#define SQRT_HALFF_BITS 0x3f3504f3u

/* 2^k for k in [-126, 127]. */
static LLVMValueRef pow2f(Em *e, LLVMValueRef k)
{
    return from_bits(e, shl(e, iadd(e, k, KI(e, 127)), 23));
}

/* exp(x) = 2^k * (1 + p.hi + p.lo) for |x| <= 104, with k as an i32.
 * Cody-Waite reduction as in exp_core: k = round(x / ln2) by the float
 * shifter, t = x - k*LN2F_HI exactly (exact product, Sterbenz's lemma,
 * whether or not fmuladd fuses), r = t - k*LN2F_LO rounded and its rounding
 * error rl recovered (t - r is exact).  exp(r + rl) - 1 = r + (r^2 P(r) + rl)
 * to 2^-28, summed with fast_two_sum, so p.hi + p.lo carries it to ~2^-40
 * apart from the polynomial; callers fold 2^k in before adding 1. */
static DD expf_core(Em *e, LLVMValueRef x, LLVMValueRef *k)
{
    LLVMValueRef t = add(e, mul(e, x, K(e, INV_LN2F)), K(e, SHIFTERF));
    *k = isub(e, bits(e, t), KI(e, SHIFTERF_BITS));
    LLVMValueRef kd = neg(e, sub(e, t, K(e, SHIFTERF)));
    t = fmadd(e, kd, K(e, LN2F_HI), x);
    LLVMValueRef r = fmadd(e, kd, K(e, LN2F_LO), t);
    LLVMValueRef rl = fmadd(e, kd, K(e, LN2F_LO), sub(e, t, r));
    LLVMValueRef c = POLY(e, r, EXPF_P);
    LLVMValueRef q = fmadd(e, mul(e, r, r), c, rl);
    return fast_two_sum(e, r, q);
}

/* v * 2^k for k in [-252, 254] and v in [0.5, 2]: as scale2. */
static LLVMValueRef scale2f(Em *e, LLVMValueRef v, LLVMValueRef k)
{
    LLVMValueRef k1 = ashr(e, k, 1);
    LLVMValueRef k2 = isub(e, k, k1);
    LLVMValueRef s2 = pow2f(e, k2);
    return mul(e, mul(e, v, pow2f(e, k1)), s2);
}

/* exp overflows above 88.73 and is 0 below -103.98; the clamp keeps those
 * results (k in [-150, 128], hence the two-step scaling).  Error: p.hi
 * against 1 (< 0.18 ULP), 1 + p.hi (0.5) and the polynomial (0.06); a
 * subnormal result adds one rounding of a value already within 2^-23. */
static LLVMValueRef exp_f(Em *e, LLVMValueRef x)
{
    LLVMValueRef k;
    DD p = expf_core(e, clamp(e, x, -104.0, 89.0), &k);
    LLVMValueRef r = scale2f(e, add(e, K(e, 1.0), p.hi), k);
    return sel(e, isnan_(e, x), x, r);
}

/* logistic(x) = 1 / (1 + exp(-x)), exp(-x) = 2^k (1 + p) from expf_core.
 * With n = -|k| and s = 2^n (made of two normal factors s1 s2, as 2^n may
 * be subnormal or 0), numerator and denominator are scaled so that
 *     x >= 0:  1 / (1 + s (1 + p)),      x < 0:  s / (s + (1 + p)),
 * i.e. num / (m + M (1 + p)) with one of m, M equal to 1 and the other s:
 * nothing overflows and nothing cancels.  The denominator is formed as
 * dh + dl with fast_two_sum steps (M p.hi is exact), q = num / dh is rounded
 * once, and q - q dl / dh adds the rest, with 1 / dh taken as q / num
 * (exact: num is a power of two).  Two roundings in all: about 1 ULP.  For
 * x < 0 the numerator is s1 and the result is scaled by s2 at the end,
 * which rounds once more only for a subnormal result. */
static LLVMValueRef logistic_f(Em *e, LLVMValueRef x)
{
    LLVMValueRef k;
    LLVMValueRef xneg = cmpk(e, LLVMRealOLT, x, 0.0);
    DD p = expf_core(e, neg(e, clamp(e, x, -104.0, 104.0)), &k);
    LLVMValueRef n = LLVMBuildSelect(e->b, xneg, LLVMBuildNeg(e->b, k, ""), k, "");
    LLVMValueRef n1 = ashr(e, n, 1);
    LLVMValueRef s1 = pow2f(e, n1), s2 = pow2f(e, isub(e, n, n1));
    LLVMValueRef s = mul(e, s1, s2); /* 0 for n = -150: then s + 1 is 1 */
    LLVMValueRef one = K(e, 1.0);
    LLVMValueRef M = sel(e, xneg, one, s);
    DD a = fast_two_sum(e, one, s);
    DD d = fast_two_sum(e, a.hi, mul(e, M, p.hi));
    LLVMValueRef dl = fmadd(e, M, p.lo, add(e, d.lo, a.lo));
    LLVMValueRef num = sel(e, xneg, s1, one);
    LLVMValueRef q = fdiv(e, num, d.hi);
    LLVMValueRef rd = mul(e, q, sel(e, xneg, pow2f(e, LLVMBuildNeg(e->b, n1, "")), one));
    LLVMValueRef v = fmadd(e, neg(e, mul(e, q, dl)), rd, q);
    v = mul(e, v, sel(e, xneg, s2, one));
    return sel(e, isnan_(e, x), x, v);
}

/* tanh|x|: below 0.625 the odd polynomial (final fmuladd onto the exact x:
 * < 0.8 ULP); above, 1 - 2 / (1 + exp(2|x|)), where 1 + exp(2|x|) is
 * formed as in logistic_f and the quotient q <= 0.45 has relative error
 * < 1.6 * 2^-24, so 1 - q in [0.55, 1) is within 0.72 + 0.5 ULP.  tanh(10)
 * rounds to 1. */
static LLVMValueRef tanh_f(Em *e, LLVMValueRef x)
{
    LLVMValueRef ax = fabs_(e, x);
    LLVMValueRef z = mul(e, ax, ax);
    LLVMValueRef c = POLY(e, z, TANHF_T);
    LLVMValueRef pa = fmadd(e, mul(e, ax, z), c, ax);
    LLVMValueRef k;
    LLVMValueRef a2 = mul(e, clamp(e, ax, 0.0, 10.0), K(e, 2.0));
    DD p = expf_core(e, a2, &k);
    LLVMValueRef s = pow2f(e, k); /* k <= 29 */
    LLVMValueRef d = fmadd(e, s, p.hi, add(e, s, K(e, 1.0)));
    LLVMValueRef pb = sub(e, K(e, 1.0), fdiv(e, K(e, 2.0), d));
    LLVMValueRef v = sel(e, cmpk(e, LLVMRealOLT, ax, 0.625), pa, pb);
    v = copysign_(e, v, x);
    return sel(e, isnan_(e, x), x, v);
}

/* log as log_d: x = 2^k m, m in [sqrt(1/2), sqrt(2)), f = m - 1 exact, and
 * log(1 + f) = f - (f^2/2 - s (f^2/2 + z Q(z))), s = f / (2 + f); the
 * rounding of the large term f is the last one before k * ln2 is added, so
 * the error is < 0.6 ULP for k = 0 and < 1.2 ULP otherwise.  sitofp of an
 * i32 is one instruction on every target (no i2d trick needed). */
static LLVMValueRef log_f(Em *e, LLVMValueRef x)
{
    LLVMValueRef inf = from_bits(e, KI(e, INFF_BITS));
    LLVMValueRef finite = cmp(e, LLVMRealOLT, x, inf);
    LLVMValueRef ok = and_(e, cmpk(e, LLVMRealOGT, x, 0.0), finite);
    LLVMValueRef xs = sel(e, ok, x, K(e, 1.0));
    LLVMValueRef sub_ = cmpk(e, LLVMRealOLT, xs, 0x1p-126);
    xs = sel(e, sub_, mul(e, xs, K(e, 0x1p23)), xs);
    LLVMValueRef ix = bits(e, xs);
    LLVMValueRef k = ashr(e, isub(e, ix, KI(e, SQRT_HALFF_BITS)), 23);
    LLVMValueRef f = sub(e, from_bits(e, isub(e, ix, shl(e, k, 23))), K(e, 1.0));
    k = isub(e, k, LLVMBuildSelect(e->b, sub_, KI(e, 23), KI(e, 0), ""));
    LLVMValueRef kd = LLVMBuildSIToFP(e->b, k, e->ty, "");

    LLVMValueRef s = fdiv(e, f, add(e, K(e, 2.0), f));
    LLVMValueRef z = mul(e, s, s);
    LLVMValueRef hfsq = mul(e, mul(e, K(e, 0.5), f), f);
    LLVMValueRef k_lo = mul(e, kd, K(e, LN2F_LO));
    LLVMValueRef v = fmadd(e, s, fmadd(e, z, POLY(e, z, LOGF_Q), hfsq), k_lo);
    LLVMValueRef r = fmadd(e, kd, K(e, LN2F_HI), sub(e, f, sub(e, hfsq, v)));
    LLVMValueRef ninf = neg(e, inf);
    r = sel(e, cmpk(e, LLVMRealOEQ, x, 0.0), ninf, r);
    LLVMValueRef nan = from_bits(e, KI(e, NANF_BITS));
    r = sel(e, cmpk(e, LLVMRealOLT, x, 0.0), nan, r);
    r = sel(e, cmp(e, LLVMRealOEQ, x, inf), inf, r);
    return sel(e, isnan_(e, x), x, r);
}

/* ---- erfc (float only) --------------------------------------------------
 *
 * Cephes' erfcf, the formulas passes/chlo.c built from StableHLO ops before
 * chlo.erfc of f32 reached codegen: for |x| < 1, 1 - x T(x^2); above,
 * exp(-x^2) / |x| P(1/x^2) below 2 and R(1/x^2) above, 0 once -x^2 is below
 * -MAXLOGF (88.72), and 2 - erfc(-x) for x < 0.  The polynomials run as
 * llvm.fmuladd in float (the ops rounded each product).  f64 erfc stays a
 * decomposition (chlo.c erfc_f64). */
static const double ERFCF_T[] = { /* erf(x) / x in x^2, |x| < 1 */
    1.128379165726710E+0, -3.761262582423300E-1, 1.128358514861418E-1,
    -2.685381193529856E-2, 5.188327685732524E-3, -8.010193625184903E-4,
    7.853861353153693E-5,
};
static const double ERFCF_P[] = { /* erfc(x) |x| exp(x^2) in 1/x^2, [1, 2) */
    5.638259427386472E-1, -2.741127028184656E-1, 3.404879937665872E-1,
    -4.944515323274145E-1, 6.210004621745983E-1, -5.824733027278666E-1,
    3.687424674597105E-1, -1.387039388740657E-1, 2.326819970068386E-2,
};
static const double ERFCF_R[] = { /* the same, |x| >= 2 */
    5.641895067754075E-1, -2.820767439740514E-1, 4.218463358204948E-1,
    -1.015265279202700E+0, 2.921019019210786E+0, -7.495518717768503E+0,
    1.297719955372516E+1, -1.047766399936249E+1,
};

static LLVMValueRef erfc_f(Em *e, LLVMValueRef x)
{
    LLVMValueRef one = K(e, 1.0), x2 = mul(e, x, x), z = neg(e, x2);
    LLVMValueRef ax = fabs_(e, x), w = fdiv(e, one, x2);
    LLVMValueRef far = POLY(e, w, ERFCF_R), near = POLY(e, w, ERFCF_P);
    LLVMValueRef p = sel(e, cmpk(e, LLVMRealOLT, ax, 2.0), near, far);
    LLVMValueRef inv = fdiv(e, one, ax);
    LLVMValueRef r = mul(e, mul(e, exp_f(e, z), inv), p);
    r = sel(e, cmpk(e, LLVMRealOLT, z, -88.72283905206835), K(e, 0.0), r);
    LLVMValueRef reflected = sub(e, K(e, 2.0), r);
    r = sel(e, cmpk(e, LLVMRealOLT, x, 0.0), reflected, r);
    LLVMValueRef small = sub(e, one, mul(e, x, POLY(e, x2, ERFCF_T)));
    return sel(e, cmpk(e, LLVMRealOLT, ax, 1.0), small, r);
}

/* ---- entry points ------------------------------------------------------- */

static Em em_init(LLVMBuilderRef b, LLVMTypeRef ty)
{
    LLVMTypeKind k = LLVMGetTypeKind(scalar_of(ty));
    assert(k == LLVMFloatTypeKind || k == LLVMDoubleTypeKind);
    LLVMContextRef c = LLVMGetTypeContext(ty);
    LLVMTypeRef d = LLVMDoubleTypeInContext(c);
    LLVMTypeRef i = LLVMInt64TypeInContext(c);
    Em e = {.b = b, .ty = d, .ity = i, .hi = k == LLVMDoubleTypeKind};
    if (LLVMGetTypeKind(ty) == LLVMVectorTypeKind) {
        unsigned n = LLVMGetVectorSize(ty);
        e.ty = LLVMVectorType(d, n);
        e.ity = LLVMVectorType(i, n);
    }
    return e;
}

typedef LLVMValueRef (*Fn1)(Em *, LLVMValueRef);
typedef LLVMValueRef (*Fn2)(Em *, LLVMValueRef, LLVMValueRef);

static LLVMValueRef widen(Em *e, LLVMValueRef x)
{
    return e->hi ? x : LLVMBuildFPExt(e->b, x, e->ty, "");
}

static LLVMValueRef narrow(Em *e, LLVMValueRef r, LLVMTypeRef ty)
{
    return e->hi ? r : LLVMBuildFPTrunc(e->b, r, ty, "");
}

static LLVMValueRef run1(LLVMBuilderRef b, LLVMValueRef x, Fn1 f)
{
    Em e = em_init(b, LLVMTypeOf(x));
    return narrow(&e, f(&e, widen(&e, x)), LLVMTypeOf(x));
}

/* f for double operands, ff (native float arithmetic) for float ones. */
static LLVMValueRef run1f(LLVMBuilderRef b, LLVMValueRef x, Fn1 f, Fn1 ff)
{
    LLVMTypeRef ty = LLVMTypeOf(x);
    if (LLVMGetTypeKind(scalar_of(ty)) != LLVMFloatTypeKind)
        return run1(b, x, f);
    Em e = em_init(b, ty);
    LLVMContextRef c = LLVMGetTypeContext(ty);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c);
    e.ty = ty;
    e.ity = LLVMGetTypeKind(ty) == LLVMVectorTypeKind
                ? LLVMVectorType(i32, LLVMGetVectorSize(ty)) : i32;
    return ff(&e, x);
}

static LLVMValueRef run2(LLVMBuilderRef b, LLVMValueRef x, LLVMValueRef y,
                         Fn2 f)
{
    assert(LLVMTypeOf(x) == LLVMTypeOf(y));
    Em e = em_init(b, LLVMTypeOf(x));
    LLVMValueRef wy = widen(&e, y);
    return narrow(&e, f(&e, widen(&e, x), wy), LLVMTypeOf(x));
}

LLVMValueRef math_exp(LLVMBuilderRef b, LLVMValueRef x)
{
    return run1f(b, x, exp_d, exp_f);
}
LLVMValueRef math_expm1(LLVMBuilderRef b, LLVMValueRef x) { return run1(b, x, expm1_d); }
LLVMValueRef math_log(LLVMBuilderRef b, LLVMValueRef x)
{
    return run1f(b, x, log_d, log_f);
}
LLVMValueRef math_log1p(LLVMBuilderRef b, LLVMValueRef x) { return run1(b, x, log1p_d); }
LLVMValueRef math_sin(LLVMBuilderRef b, LLVMValueRef x) { return run1(b, x, sin_d); }
LLVMValueRef math_cos(LLVMBuilderRef b, LLVMValueRef x) { return run1(b, x, cos_d); }
LLVMValueRef math_tan(LLVMBuilderRef b, LLVMValueRef x) { return run1(b, x, tan_d); }
LLVMValueRef math_tanh(LLVMBuilderRef b, LLVMValueRef x)
{
    return run1f(b, x, tanh_d, tanh_f);
}
LLVMValueRef math_logistic(LLVMBuilderRef b, LLVMValueRef x)
{
    return run1f(b, x, logistic_d, logistic_f);
}
LLVMValueRef math_cbrt(LLVMBuilderRef b, LLVMValueRef x) { return run1(b, x, cbrt_d); }
LLVMValueRef math_rsqrt(LLVMBuilderRef b, LLVMValueRef x) { return run1(b, x, rsqrt_d); }
LLVMValueRef math_erf(LLVMBuilderRef b, LLVMValueRef x) { return run1(b, x, erf_d); }
LLVMValueRef math_erfcf(LLVMBuilderRef b, LLVMValueRef x)
{
    assert(LLVMGetTypeKind(scalar_of(LLVMTypeOf(x))) == LLVMFloatTypeKind);
    return run1f(b, x, NULL, erfc_f);
}

LLVMValueRef math_atan2(LLVMBuilderRef b, LLVMValueRef y, LLVMValueRef x)
{
    return run2(b, y, x, atan2_d);
}

LLVMValueRef math_pow(LLVMBuilderRef b, LLVMValueRef x, LLVMValueRef y)
{
    return run2(b, x, y, pow_d);
}
