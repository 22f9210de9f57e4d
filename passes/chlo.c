/* chlo.c: decomposes CHLO ops into StableHLO ops with the same semantics,
 * so that nothing after this pass sees a `chlo.*` op but chlo.erfc of f32.
 *
 * The formulas follow upstream's decompositions (openxla/stablehlo,
 * stablehlo/transforms/ChloLegalizeToStablehlo.cpp and the patterns of
 * ChloDecompositionPatterns.td / ChloDecompositionPatternsMath.td); each
 * function states the formula it builds. Where we differ, it is for
 * accuracy and said so:
 *  - f16 and bf16 operands of every float function are computed in f32 and
 *    rounded once at the end. Upstream does so for lgamma, digamma, erf,
 *    erfc, erf_inv, bessel_i1e, cosh, sinh, polygamma and zeta, and computes
 *    the inverse trigonometric and hyperbolic functions in the narrow type.
 *  - chlo.tan of a real operand is stablehlo.tan (upstream: sine / cosine).
 *  - chlo.acos(-1) is pi: the atan2 form alone gives atan2(0, +0) = 0 there.
 *  - complex<f32> acos, acosh, asin and asinh are computed in complex<f64>
 *    and rounded once (see "Complex functions").
 *  - complex branch cuts follow the sign bit of the part on the cut (C99
 *    Annex G: asin(3 - 0i) = pi/2 - 1.76i); upstream tests `< 0` there.
 *
 * Complex operands are supported by acos, acosh, asin, asinh, atan, atanh,
 * cosh, sinh and tan, and reported as unsupported by the other math
 * functions, as are dynamic shapes: every decomposition builds constants of
 * its operand's static shape.
 *
 * One CHLO op outlives the pass: chlo.erfc of f32 (and of f16/bf16 widened
 * to f32), which codegen implements (see erfc_f32).
 *
 * New ops are inserted before the CHLO op they replace, which is removed
 * once its results are forwarded. They get generic attributes (so that
 * --dump-after prints IR that parses again) and typed ones from attrs_decode.
 * Their order is the order of the builder calls, so no call has two
 * arguments that build ops (tools/eval_order.py): such an argument is
 * named first, in the order a gcc-built shloc always gave them (gcc
 * evaluates arguments right to left), hence a constant often named before
 * the expression it ends.
 */
#include <assert.h>
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../ir/ir.h"

typedef struct Chlo {
  Module *m;
  Func *f;
  Builder b;    /* before the CHLO op, with its location */
  int errors;
} Chlo;

static bool fail(Chlo *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(Chlo *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag_verror(c->b.loc, "error", fmt, ap);
  va_end(ap);
  c->errors++;
  return false;
}

/* ------------------------------------------------------------------------ */
/* Emitting ops                                                              */

static Type *with_elem(Chlo *c, const Value *x, ElemType e) {
  return type_with_elem(c->m->types, x->type, e);
}

static ElemType elem(const Value *x) { return x->type->elem; }

static Op *emit(Chlo *c, OpCode code, int n, Value *const *in, int nres, Type *const *rt,
                int nregions) {
  return ir_build(&c->b, code, n, in, nres, rt, nregions);
}

static Value *done(Chlo *c, Op *op) { return ir_build_done(&c->b, op); }

static Value *emit1(Chlo *c, OpCode code, Type *t, int n, Value *const *in) {
  return ir_build1(&c->b, code, t, n, in);
}

static Value *op1(Chlo *c, OpCode code, Value *x) { return emit1(c, code, x->type, 1, &x); }

static Value *op2(Chlo *c, OpCode code, Value *x, Value *y) {
  Value *in[2] = {x, y};
  return emit1(c, code, x->type, 2, in);
}

static Value *add(Chlo *c, Value *x, Value *y) { return op2(c, OP_ADD, x, y); }
static Value *sub(Chlo *c, Value *x, Value *y) { return op2(c, OP_SUBTRACT, x, y); }
static Value *mul(Chlo *c, Value *x, Value *y) { return op2(c, OP_MULTIPLY, x, y); }
static Value *dvd(Chlo *c, Value *x, Value *y) { return op2(c, OP_DIVIDE, x, y); }
static Value *and_(Chlo *c, Value *x, Value *y) { return op2(c, OP_AND, x, y); }
static Value *or_(Chlo *c, Value *x, Value *y) { return op2(c, OP_OR, x, y); }
static Value *neg(Chlo *c, Value *x) { return op1(c, OP_NEGATE, x); }
static Value *abs_(Chlo *c, Value *x) { return op1(c, OP_ABS, x); }
static Value *sqrt_(Chlo *c, Value *x) { return op1(c, OP_SQRT, x); }
static Value *log_(Chlo *c, Value *x) { return op1(c, OP_LOG, x); }
static Value *log1p_(Chlo *c, Value *x) { return op1(c, OP_LOG_PLUS_ONE, x); }
static Value *exp_(Chlo *c, Value *x) { return op1(c, OP_EXPONENTIAL, x); }
static Value *floor_(Chlo *c, Value *x) { return op1(c, OP_FLOOR, x); }

static Value *select_(Chlo *c, Value *p, Value *t, Value *f) {
  Value *in[3] = {p, t, f};
  return emit1(c, OP_SELECT, t->type, 3, in);
}

static Value *clamp(Chlo *c, Value *lo, Value *x, Value *hi) {
  Value *in[3] = {lo, x, hi};
  return emit1(c, OP_CLAMP, x->type, 3, in);
}

static Value *convert(Chlo *c, Value *x, ElemType e) {
  return emit1(c, OP_CONVERT, with_elem(c, x, e), 1, &x);
}

static Value *bitcast(Chlo *c, Value *x, ElemType e) {
  return emit1(c, OP_BITCAST_CONVERT, with_elem(c, x, e), 1, &x);
}

static Value *reshape(Chlo *c, Value *x, int rank, const int64_t *dims) {
  return emit1(c, OP_RESHAPE, type_tensor(c->m->types, elem(x), rank, dims), 1, &x);
}

/* compare with direction d and type ct. */
static Value *compare(Chlo *c, CmpDir d, Value *x, Value *y, CmpType ct) {
  return ir_build_compare(&c->b, d, x, y, ct);
}

static Value *cmp(Chlo *c, CmpDir d, Value *x, Value *y) { return compare(c, d, x, y, CMPT_NOTYPE); }

static Value *is_finite(Chlo *c, Value *x) {
  return emit1(c, OP_IS_FINITE, with_elem(c, x, ET_I1), 1, &x);
}

/* A constant of type t, every element with bit pattern `bits`. */
static Value *splat_bits(Chlo *c, Type *t, uint64_t bits) { return ir_build_splat(&c->b, t, bits); }

/* v in x's type: f32 and f64 only (narrower floats are computed in f32). */
static Value *kf(Chlo *c, Value *x, double v) {
  uint64_t bits;
  if (elem(x) == ET_F32) {
    float f = (float)v;
    uint32_t b;
    memcpy(&b, &f, 4);
    bits = b;
  } else {
    assert(elem(x) == ET_F64);
    memcpy(&bits, &v, 8);
  }
  return splat_bits(c, x->type, bits);
}

/* v in x's (integer or i1) type, two's complement. */
static Value *ki(Chlo *c, Value *x, int64_t v) { return splat_bits(c, x->type, (uint64_t)v); }

/* A scalar tensor<i64> constant. */
static Value *scalar_i64(Chlo *c, int64_t v) {
  return splat_bits(c, type_tensor(c->m->types, ET_SI64, 0, NULL), (uint64_t)v);
}

static Value *is_inf(Chlo *c, Value *x) {
  Value *inf = kf(c, x, INFINITY);
  return cmp(c, CMP_EQ, abs_(c, x), inf);
}

/* ------------------------------------------------------------------------ */
/* Polynomials                                                               */

/* Horner's scheme, highest coefficient first: (k0 x + k1) x + ... + k[n-1]. */
static Value *horner(Chlo *c, Value *x, const double *k, int n) {
  Value *p = kf(c, x, k[0]);
  for (int i = 1; i < n; i++) {
    Value *ki = kf(c, x, k[i]);
    p = add(c, mul(c, p, x), ki);
  }
  return p;
}

/* Clenshaw's recurrence for a Chebyshev series as Cephes' chbevl writes it:
 * b0 = x b1 - b2 + k[i] over the coefficients; the value is (b0 - b2) / 2. */
static Value *chebyshev(Chlo *c, Value *x, const double *k, int n) {
  Value *b0 = kf(c, x, 0), *b1 = b0, *b2 = b0;
  for (int i = 0; i < n; i++) {
    b2 = b1;
    b1 = b0;
    Value *ki = kf(c, x, k[i]);
    b0 = add(c, sub(c, mul(c, x, b1), b2), ki);
  }
  Value *half = kf(c, x, 0.5);
  return mul(c, sub(c, b0, b2), half);
}

#define NK(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* ------------------------------------------------------------------------ */
/* Gamma family: Lanczos approximation, g = 7, n = 9 (Lanczos, "A Precision
 * Approximation of the Gamma Function", SIAM J. Numer. Anal. B 1, 1964):
 *   lgamma(z + 1) = (log 2 + log pi) / 2 + (z + 1/2) log t(z) - t(z) + log a(z)
 *   t(z) = z + g + 1/2,  a(z) = c0 + sum_k c_k / (z + k)                     */

static const double LANCZOS_G = 7;
static const double LANCZOS_C0 = 0.99999999999980993227684700473478;
static const double LANCZOS_C[] = {
    676.520368121885098567009190444019, -1259.13921672240287047156078755283,
    771.3234287776530788486528258894,   -176.61502916214059906584551354,
    12.507343278686904814458936853,     -0.13857109526572011689554707,
    9.984369578019570859563e-6,         1.50563273514931155834e-7,
};

/* z = x - 1, or z = -x where the reflection formula applies (x < 1/2). */
static Value *lanczos_z(Chlo *c, Value *x, Value **reflect) {
  *reflect = cmp(c, CMP_LT, x, kf(c, x, 0.5));
  Value *xm1 = sub(c, x, kf(c, x, 1));
  return select_(c, *reflect, neg(c, x), xm1);
}

/* a(z), and with `da` its derivative a'(z) = -sum_k c_k / (z + k)^2. */
static Value *lanczos_a(Chlo *c, Value *z, Value **da) {
  Value *a = kf(c, z, LANCZOS_C0);
  if (da) *da = kf(c, z, 0);
  for (int k = 0; k < NK(LANCZOS_C); k++) {
    Value *ck = kf(c, z, LANCZOS_C[k]);
    Value *zk = add(c, z, kf(c, z, k + 1));
    if (da) *da = sub(c, *da, dvd(c, ck, mul(c, zk, zk)));
    a = add(c, a, dvd(c, ck, zk));
  }
  return a;
}

/* log t(z) = log(g + 1/2) + log1p(z / (g + 1/2)), which keeps the accuracy
 * of log near t = g + 1/2; t itself in *t. */
static Value *lanczos_log_t(Chlo *c, Value *z, Value **t) {
  Value *gh = kf(c, z, LANCZOS_G + 0.5);
  *t = add(c, gh, z);
  Value *l1p = log1p_(c, dvd(c, z, gh));
  return add(c, kf(c, z, log(LANCZOS_G + 0.5)), l1p);
}

/* lgamma(z + 1) for the z of lanczos_z, with (z + 1/2) log t - t written as
 * (z + 1/2 - t / log t) log t so that it does not overflow for large z. */
static Value *lgamma_lanczos(Chlo *c, Value *z) {
  Value *t, *log_t = lanczos_log_t(c, z, &t);
  Value *t_log_t = dvd(c, t, log_t);
  Value *r = mul(c, sub(c, add(c, z, kf(c, z, 0.5)), t_log_t), log_t);
  Value *a = lanczos_a(c, z, NULL);
  Value *log_a = log_(c, a);
  return add(c, add(c, kf(c, z, (log(2) + log(M_PI)) / 2), r), log_a);
}

/* log|sin(pi x)| as log(sin(pi f)), f = frac(|x|) folded into [0, 1/2]:
 * exact zero at integers and no loss from pi x for large x. */
static Value *log_abs_sin_pi(Chlo *c, Value *x) {
  Value *ax = abs_(c, x);
  Value *f = sub(c, ax, floor_(c, ax));
  Value *one_minus_f = sub(c, kf(c, x, 1), f);
  f = select_(c, cmp(c, CMP_LT, kf(c, x, 0.5), f), one_minus_f, f);
  return log_(c, op1(c, OP_SINE, mul(c, kf(c, x, M_PI), f)));
}

/* lgamma(x): Lanczos for x >= 1/2, else the reflection formula
 *   lgamma(x) = log(pi) - log|sin(pi x)| - lgamma(1 - x),
 * where an infinite log|sin| (a pole) gives +inf; lgamma(+-inf) = +inf. */
static Value *lgamma_f(Chlo *c, Value *x) {
  Value *reflect, *z = lanczos_z(c, x, &reflect);
  Value *lg = lgamma_lanczos(c, z);
  Value *ls = log_abs_sin_pi(c, x);
  Value *refl = sub(c, sub(c, kf(c, x, log(M_PI)), ls), lg);
  Value *neg_ls = neg(c, ls);
  refl = select_(c, is_finite(c, ls), refl, neg_ls);
  lg = select_(c, reflect, refl, lg);
  Value *inf = kf(c, x, INFINITY);
  return select_(c, is_inf(c, x), inf, lg);
}

/* digamma(z + 1) = log t(z) + a'(z) / a(z) - g / t(z) for x >= 1/2, else
 * the reflection digamma(x) = digamma(1 - x) - pi cos(pi x) / sin(pi x),
 * with pi x reduced to [-pi/2, pi/2] first (x + |floor(x + 1/2)|).
 * Poles: -inf at 0, nan at negative integers. */
static Value *digamma_f(Chlo *c, Value *x) {
  Value *reflect, *z = lanczos_z(c, x, &reflect);
  Value *da, *a = lanczos_a(c, z, &da);
  Value *t, *log_t = lanczos_log_t(c, z, &t);
  Value *g_t = dvd(c, kf(c, x, LANCZOS_G), t);
  Value *dg = sub(c, add(c, log_t, dvd(c, da, a)), g_t);
  Value *rx = add(c, x, abs_(c, floor_(c, add(c, x, kf(c, x, 0.5)))));
  Value *pi = kf(c, x, M_PI), *prx = mul(c, pi, rx);
  Value *sin_prx = op1(c, OP_SINE, prx);
  Value *cot = dvd(c, mul(c, pi, op1(c, OP_COSINE, prx)), sin_prx);
  dg = select_(c, reflect, sub(c, dg, cot), dg);
  Value *zero = kf(c, x, 0);
  Value *is_int = cmp(c, CMP_EQ, x, floor_(c, x));
  Value *neg_int = and_(c, cmp(c, CMP_LT, x, zero), is_int);
  dg = select_(c, neg_int, kf(c, x, NAN), dg);
  Value *minus_inf = kf(c, x, -INFINITY);
  return select_(c, cmp(c, CMP_EQ, x, zero), minus_inf, dg);
}

/* Hurwitz zeta(x, q) = sum_n (q + n)^-x by Euler-Maclaurin summation
 * (Johansson, "Rigorous high-precision computation of the Hurwitz zeta
 * function and its derivatives", 2015, formula (5)): 10 terms of the sum,
 * the integral of the tail, and 12 Bernoulli terms in Horner form. */
static const double ZETA_K[] = {
    -7.1661652561756670113e18, 1.8152105401943546773e17, -4.5979787224074726105e15,
    1.1646782814350067249e14,  -2.950130727918164224e12, 7.47242496e10,
    -1.8924375803183791606e9,  47900160.0,               -1209600.0,
    30240.0,                   -720.0,                   12.0,
};

static Value *zeta_series(Chlo *c, Value *x, Value *q) {
  Value *one = kf(c, q, 1), *negx = neg(c, x);
  Value *acc = q, *sum = op2(c, OP_POWER, q, negx);
  for (int i = 0; i < 9; i++) {
    acc = add(c, acc, one);
    sum = add(c, sum, op2(c, OP_POWER, acc, negx));
  }
  acc = add(c, acc, one);
  Value *qn = op2(c, OP_POWER, acc, negx); /* (q + 10)^-x */
  Value *xm1 = sub(c, x, one);
  Value *tail = dvd(c, mul(c, qn, acc), xm1);
  Value *inv2 = dvd(c, one, mul(c, acc, acc));
  Value *h = kf(c, q, 0);
  for (int i = 0; i < NK(ZETA_K) - 1; i++) {
    Value *f1 = add(c, x, kf(c, x, 2 * NK(ZETA_K) - 2 - 2 * i));
    Value *f2 = add(c, x, kf(c, x, 2 * NK(ZETA_K) - 3 - 2 * i));
    Value *hk = mul(c, inv2, add(c, h, kf(c, q, 1 / ZETA_K[i])));
    h = mul(c, mul(c, f1, f2), hk);
  }
  Value *k11_h = add(c, kf(c, q, 1 / ZETA_K[11]), h);
  Value *terms = mul(c, dvd(c, x, acc), k11_h);
  Value *bern = mul(c, qn, add(c, kf(c, q, 0.5), terms));
  Value *full = add(c, add(c, sum, tail), bern);
  /* the plain sum where the correction is below its precision */
  double tiny = elem(q) == ET_F32 ? 0x1p-149 : 0x1p-1074; /* smallest subnormal */
  Value *k_tiny = kf(c, q, tiny);
  Value *limit = mul(c, abs_(c, sum), k_tiny);
  Value *small = cmp(c, CMP_LT, abs_(c, qn), limit);
  return select_(c, small, sum, full);
}

/* zeta with its domain: nan for x < 1, for q <= 0 with x not an integer,
 * and at the poles q = 0, -1, ... unless x is an even integer (+inf there);
 * zeta(1, q) = +inf. */
static Value *zeta_f(Chlo *c, Value *x, Value *q) {
  Value *r = zeta_series(c, x, q);
  Value *zero = kf(c, q, 0), *one = kf(c, x, 1), *nan = kf(c, x, NAN), *inf = kf(c, x, INFINITY);
  r = select_(c, cmp(c, CMP_LT, x, one), nan, r);
  Value *q_le0 = cmp(c, CMP_LE, q, zero);
  Value *x_int = cmp(c, CMP_EQ, x, floor_(c, x));
  r = select_(c, and_(c, q_le0, op1(c, OP_NOT, x_int)), nan, r);
  Value *pole = and_(c, q_le0, cmp(c, CMP_EQ, q, floor_(c, q)));
  Value *even = and_(c, x_int, cmp(c, CMP_EQ, op2(c, OP_REMAINDER, x, kf(c, x, 2)), zero));
  r = select_(c, pole, select_(c, even, inf, nan), r);
  return select_(c, cmp(c, CMP_EQ, x, one), inf, r);
}

/* polygamma(n, x) = (-1)^(n+1) n! zeta(n + 1, x) for natural n > 0,
 * digamma(x) for n = 0, nan for n not a natural number. */
static Value *polygamma_f(Chlo *c, Value *n, Value *x) {
  Value *one = kf(c, x, 1), *two = kf(c, x, 2), *zero = kf(c, x, 0);
  Value *sign = sub(c, mul(c, two, op2(c, OP_REMAINDER, n, two)), one);
  Value *np1 = add(c, n, one);
  Value *fact = exp_(c, lgamma_f(c, np1));
  Value *zeta = zeta_f(c, np1, x);
  Value *r = mul(c, mul(c, sign, fact), zeta);
  Value *dg = digamma_f(c, x);
  r = select_(c, cmp(c, CMP_EQ, n, zero), dg, r);
  Value *n_lt0 = cmp(c, CMP_LT, n, zero);
  Value *bad = or_(c, cmp(c, CMP_NE, n, floor_(c, n)), n_lt0);
  return select_(c, bad, kf(c, x, NAN), r);
}

/* ------------------------------------------------------------------------ */
/* Error functions (Cephes ndtr.c for f64; Eigen / Cephes erff.c for f32)    */

/* erfc(x) for |x| >= 1, f64: exp(-x^2) P(|x|) / Q(|x|) below 8 and
 * exp(-x^2) R(|x|) / S(|x|) above; 0 where -x^2 < -MAXLOG;
 * erfc(x) = 2 - erfc(-x) for x < 0. */
static Value *erfc_ge1_f64(Chlo *c, Value *x) {
  static const double P[] = {
      2.46196981473530512524E-10, 5.64189564831068821977E-1, 7.46321056442269912687E0,
      4.86371970985681366614E1,   1.96520832956077098242E2,  5.26445194995477358631E2,
      9.34528527171957607540E2,   1.02755188689515710272E3,  5.57535335369399327526E2};
  static const double Q[] = {
      1.00000000000000000000E0, 1.32281951154744992508E1, 8.67072140885989742329E1,
      3.54937778887819891062E2, 9.75708501743205489753E2, 1.82390916687909736289E3,
      2.24633760818710981792E3, 1.65666309194161350182E3, 5.57535340817727675546E2};
  static const double R[] = {
      5.64189583547755073984E-1, 1.27536670759978104416E0, 5.01905042251180477414E0,
      6.16021097993053585195E0,  7.40974269950448939160E0, 2.97886665372100240670E0};
  static const double S[] = {
      1.00000000000000000000E0, 2.26052863220117276590E0, 9.39603524938001434673E0,
      1.20489539808096656605E1, 1.70814450747565897222E1, 9.60896809063285878198E0,
      3.36907645100081516050E0};
  Value *z = neg(c, mul(c, x, x)), *ez = exp_(c, z), *ax = abs_(c, x);
  Value *q_ax = horner(c, ax, Q, NK(Q));
  Value *lo = dvd(c, mul(c, ez, horner(c, ax, P, NK(P))), q_ax);
  Value *s_ax = horner(c, ax, S, NK(S));
  Value *hi = dvd(c, mul(c, ez, horner(c, ax, R, NK(R))), s_ax);
  Value *r = select_(c, cmp(c, CMP_LT, ax, kf(c, x, 8)), lo, hi);
  Value *zero = kf(c, x, 0);
  r = select_(c, cmp(c, CMP_LT, z, kf(c, x, -7.09782712893383996843E2)), zero, r);
  Value *two_minus_r = sub(c, kf(c, x, 2), r);
  return select_(c, cmp(c, CMP_LT, x, zero), two_minus_r, r);
}

/* erf(x) for |x| <= 1, f64: x T(x^2) / U(x^2). */
static Value *erf_le1_f64(Chlo *c, Value *x) {
  static const double T[] = {9.60497373987051638749E0, 9.00260197203842689217E1,
                             2.23200534594684319226E3, 7.00332514112805075473E3,
                             5.55923013010394962768E4};
  static const double U[] = {1.00000000000000000000E0, 3.35617141647503099647E1,
                             5.21357949780152679795E2, 4.59432382970980127987E3,
                             2.26290000613890934246E4, 4.92673942608635921086E4};
  Value *x2 = mul(c, x, x);
  Value *u = horner(c, x2, U, NK(U));
  return dvd(c, mul(c, x, horner(c, x2, T, NK(T))), u);
}

/* erf = erf_le1 for |x| < 1, else 1 - erfc_ge1 (f64). */
static Value *erf_f64(Chlo *c, Value *x) {
  Value *one = kf(c, x, 1);
  Value *small = cmp(c, CMP_LT, abs_(c, x), one);
  Value *large = sub(c, one, erfc_ge1_f64(c, x));
  return select_(c, small, erf_le1_f64(c, x), large);
}

/* erfc = 1 - erf_le1 for |x| < 1, else erfc_ge1 (f64). */
static Value *erfc_f64(Chlo *c, Value *x) {
  Value *one = kf(c, x, 1);
  Value *small = cmp(c, CMP_LT, abs_(c, x), one);
  Value *large = erfc_ge1_f64(c, x);
  return select_(c, small, sub(c, one, erf_le1_f64(c, x)), large);
}

/* erf, f32 (Eigen's rational approximation): with x clamped to [-4, 4],
 * x Alpha(x^2) / Beta(x^2) clamped to [-1, 1]. */
static Value *erf_f32(Chlo *c, Value *x) {
  static const double A[] = {-2.72614225801306e-10, 2.77068142495902e-08,
                             -2.10102402082508e-06, -5.69250639462346e-05,
                             -7.34990630326855e-04, -2.95459980854025e-03,
                             -1.60960333262415e-02};
  static const double B[] = {-1.45660718464996e-05, -2.13374055278905e-04,
                             -1.68282697438203e-03, -7.37332916720468e-03,
                             -1.42647390514189e-02};
  Value *four = kf(c, x, 4);
  x = clamp(c, kf(c, x, -4), x, four);
  Value *x2 = mul(c, x, x);
  Value *beta = horner(c, x2, B, NK(B));
  Value *r = dvd(c, mul(c, x, horner(c, x2, A, NK(A))), beta);
  Value *one = kf(c, x, 1);
  return clamp(c, kf(c, x, -1), r, one);
}

/* erfc, f32: chlo.erfc itself, which codegen computes as one elementwise
 * op (codegen/vmath.c erfc_f: the formulas of Cephes' erfcf this pass used
 * to build from some 60 StableHLO ops, whose polynomials of 1/x^2 are
 * values used many times each: the fusion pass stored them, and GELU took
 * four kernels instead of one). */
static Value *erfc_f32(Chlo *c, Value *x) { return op1(c, OP_CHLO_ERFC, x); }

/* erf_inv(+-1) = +-inf; elsewhere p(w) x, the polynomial evaluated by
 * erf_inv_f32/f64 (the edge would be indeterminate there). */
static Value *erf_inv_edges(Chlo *c, Value *x, Value *px) {
  Value *one = kf(c, x, 1);
  Value *edge = cmp(c, CMP_EQ, abs_(c, x), one);
  return select_(c, edge, mul(c, x, kf(c, x, INFINITY)), px);
}

/* a where `where` holds, else b: constants of x's type. */
static Value *pick(Chlo *c, Value *where, Value *x, double a, double b) {
  Value *kb = kf(c, x, b);
  return select_(c, where, kf(c, x, a), kb);
}

/* w = -log(1 - x^2), computed as -log1p(-x^2). */
static Value *erf_inv_w(Chlo *c, Value *x) { return neg(c, log1p_(c, mul(c, x, neg(c, x)))); }

/* erf_inv, f32 (Giles, "Approximating the erfinv function", 2010):
 * x p(w - 2.5) for w < 5, else x q(sqrt(w) - 3), degree-8 polynomials. */
static Value *erf_inv_f32(Chlo *c, Value *x) {
  static const double LT5[] = {2.81022636e-08,  3.43273939e-07, -3.5233877e-06,
                               -4.39150654e-06, 0.00021858087,  -0.00125372503,
                               -0.00417768164,  0.246640727,    1.50140941};
  static const double GE5[] = {-0.000200214257, 0.000100950558, 0.00134934322,
                               -0.00367342844,  0.00573950773,  -0.0076224613,
                               0.00943887047,   1.00167406,     2.83297682};
  Value *w = erf_inv_w(c, x);
  Value *lt = cmp(c, CMP_LT, w, kf(c, x, 5));
  Value *three = kf(c, x, 3);
  Value *w_ge5 = sub(c, sqrt_(c, w), three);
  w = select_(c, lt, sub(c, w, kf(c, x, 2.5)), w_ge5);
  Value *p = pick(c, lt, x, LT5[0], GE5[0]);
  for (int i = 1; i < NK(LT5); i++) {
    Value *pw = mul(c, p, w);
    p = add(c, pick(c, lt, x, LT5[i], GE5[i]), pw);
  }
  return erf_inv_edges(c, x, mul(c, p, x));
}

/* erf_inv, f64 (Giles 2010, double precision): three regions by w,
 * x p(w - 3.125) for w < 6.25 (degree 22), x q(sqrt(w) - 3.25) for w < 16
 * (degree 18), x r(sqrt(w) - 5) above (degree 16). */
static const double ERFINV_A[] = {
    -3.6444120640178196996e-21, -1.685059138182016589e-19,  1.2858480715256400167e-18,
    1.115787767802518096e-17,   -1.333171662854620906e-16,  2.0972767875968561637e-17,
    6.6376381343583238325e-15,  -4.0545662729752068639e-14, -8.1519341976054721522e-14,
    2.6335093153082322977e-12,  -1.2975133253453532498e-11, -5.4154120542946279317e-11,
    1.051212273321532285e-09,   -4.1126339803469836976e-09, -2.9070369957882005086e-08,
    4.2347877827932403518e-07,  -1.3654692000834678645e-06, -1.3882523362786468719e-05,
    0.0001867342080340571352,   -0.00074070253416626697512, -0.0060336708714301490533,
    0.24015818242558961693,     1.6536545626831027356};
static const double ERFINV_B[] = {
    2.2137376921775787049e-09,  9.0756561938885390979e-08,  -2.7517406297064545428e-07,
    1.8239629214389227755e-08,  1.5027403968909827627e-06,  -4.013867526981545969e-06,
    2.9234449089955446044e-06,  1.2475304481671778723e-05,  -4.7318229009055733981e-05,
    6.8284851459573175448e-05,  2.4031110387097893999e-05,  -0.0003550375203628474796,
    0.00095328937973738049703,  -0.0016882755560235047313,  0.0024914420961078508066,
    -0.0037512085075692412107,  0.005370914553590063617,    1.0052589676941592334,
    3.0838856104922207635};
static const double ERFINV_C[] = {
    -2.7109920616438573243e-11, -2.5556418169965252055e-10, 1.5076572693500548083e-09,
    -3.7894654401267369937e-09, 7.6157012080783393804e-09,  -1.4960026627149240478e-08,
    2.9147953450901080826e-08,  -6.7711997758452339498e-08, 2.2900482228026654717e-07,
    -9.9298272942317002539e-07, 4.5260625972231537039e-06,  -1.9681778105531670567e-05,
    7.5995277030017761139e-05,  -0.00021503011930044477347, -0.00013871931833623122026,
    1.0103004648645343977,      4.8499064014085844221};

/* The i-th coefficient (from the highest degree) of the active region's
 * polynomial: the three tables are aligned at their highest degree. */
static Value *erf_inv_coef(Chlo *c, Value *w, int i, Value *lt625, Value *lt16) {
  Value *k = kf(c, w, ERFINV_A[i]);
  if (i < NK(ERFINV_B)) k = select_(c, lt625, k, kf(c, w, ERFINV_B[i]));
  if (i < NK(ERFINV_C)) k = select_(c, lt16, k, kf(c, w, ERFINV_C[i]));
  return k;
}

/* Horner over the longest table; a step past the end of the active
 * region's table keeps the value it has. */
static Value *erf_inv_poly_f64(Chlo *c, Value *w, Value *lt625, Value *lt16) {
  Value *p = erf_inv_coef(c, w, 0, lt625, lt16);
  for (int i = 1; i < NK(ERFINV_A); i++) {
    Value *pw = mul(c, p, w);
    Value *q = add(c, erf_inv_coef(c, w, i, lt625, lt16), pw);
    if (i >= NK(ERFINV_B)) q = select_(c, lt625, q, p);
    else if (i >= NK(ERFINV_C)) q = select_(c, lt16, q, p);
    p = q;
  }
  return p;
}

static Value *erf_inv_f64(Chlo *c, Value *x) {
  Value *w = erf_inv_w(c, x);
  Value *lt625 = cmp(c, CMP_LT, w, kf(c, x, 6.25));
  Value *lt16 = cmp(c, CMP_LT, w, kf(c, x, 16));
  Value *shift = pick(c, lt16, x, 3.25, 5);
  Value *w_ge625 = sub(c, sqrt_(c, w), shift);
  w = select_(c, lt625, sub(c, w, kf(c, x, 3.125)), w_ge625);
  return erf_inv_edges(c, x, mul(c, erf_inv_poly_f64(c, w, lt625, lt16), x));
}

/* ------------------------------------------------------------------------ */
/* Bessel i1e (Cephes i1.c): with z = |x|,
 *   z A(z/2 - 2) for z <= 8,  B(32/z - 2) / sqrt(z) above,
 * Chebyshev series; the sign of x. */

static Value *bessel_i1e_with(Chlo *c, Value *x, const double *a, int na, const double *b,
                              int nb) {
  Value *z = abs_(c, x), *two = kf(c, x, 2);
  Value *le8 = mul(c, z, chebyshev(c, sub(c, mul(c, kf(c, x, 0.5), z), two), a, na));
  Value *sqrt_z = sqrt_(c, z);
  Value *gt8 = dvd(c, chebyshev(c, sub(c, dvd(c, kf(c, x, 32), z), two), b, nb), sqrt_z);
  Value *r = select_(c, cmp(c, CMP_LE, z, kf(c, x, 8)), le8, gt8);
  return mul(c, op1(c, OP_SIGN, x), r);
}

static const double I1E_A[] = {
    2.77791411276104639959E-18, -2.11142121435816608115E-17, 1.55363195773620046921E-16,
    -1.10559694773538630805E-15, 7.60068429473540693410E-15, -5.04218550472791168711E-14,
    3.22379336594557470981E-13, -1.98397439776494371520E-12, 1.17361862988909016308E-11,
    -6.66348972350202774223E-11, 3.62559028155211703701E-10, -1.88724975172282928790E-9,
    9.38153738649577178388E-9,  -4.44505912879632808065E-8,  2.00329475355213526229E-7,
    -8.56872026469545474066E-7, 3.47025130813767847674E-6,   -1.32731636560394358279E-5,
    4.78156510755005422638E-5,  -1.61760815825896745588E-4,  5.12285956168575772895E-4,
    -1.51357245063125314899E-3, 4.15642294431288815669E-3,   -1.05640848946261981558E-2,
    2.47264490306265168283E-2,  -5.29459812080949914269E-2,  1.02643658689847095384E-1,
    -1.76416518357834055153E-1, 2.52587186443633654823E-1};
static const double I1E_B[] = {
    7.51729631084210481353E-18,  4.41434832307170791151E-18,  -4.65030536848935832153E-17,
    -3.20952592199342395980E-17, 2.96262899764595013876E-16,  3.30820231092092828324E-16,
    -1.88035477551078244854E-15, -3.81440307243700780478E-15, 1.04202769841288027642E-14,
    4.27244001671195135429E-14,  -2.10154184277266431302E-14, -4.08355111109219731823E-13,
    -7.19855177624590851209E-13, 2.03562854414708950722E-12,  1.41258074366137813316E-11,
    3.25260358301548823856E-11,  -1.89749581235054123450E-11, -5.58974346219658380687E-10,
    -3.83538038596423702205E-9,  -2.63146884688951950684E-8,  -2.51223623787020892529E-7,
    -3.88256480887769039346E-6,  -1.10588938762623716291E-4,  -9.76109749136146840777E-3,
    7.78576235018280120474E-1};

/* f32 uses the last 17 and 7 coefficients (upstream's f32 tables). */
static Value *bessel_i1e_f32(Chlo *c, Value *x) {
  return bessel_i1e_with(c, x, I1E_A + NK(I1E_A) - 17, 17, I1E_B + NK(I1E_B) - 7, 7);
}

static Value *bessel_i1e_f64(Chlo *c, Value *x) {
  return bessel_i1e_with(c, x, I1E_A, NK(I1E_A), I1E_B, NK(I1E_B));
}

/* ------------------------------------------------------------------------ */
/* Hyperbolic and inverse trigonometric functions                           */

/* cosh(x) = e^(x + log(1/2)) + e^(-x + log(1/2)): no overflow where e^x
 * does but e^x / 2 does not. */
static Value *cosh_f(Chlo *c, Value *x) {
  Value *lh = kf(c, x, log(0.5));
  Value *e_neg = exp_(c, sub(c, lh, x));
  return add(c, exp_(c, add(c, x, lh)), e_neg);
}

/* sinh(x) = (expm1(x) + expm1(x) / (expm1(x) + 1)) / 2 for |x| < 1 (no
 * cancellation), e^(x + log(1/2)) - e^(-x + log(1/2)) otherwise. */
static Value *sinh_f(Chlo *c, Value *x) {
  Value *lh = kf(c, x, log(0.5)), *one = kf(c, x, 1);
  Value *e_neg = exp_(c, sub(c, lh, x));
  Value *large = sub(c, exp_(c, add(c, x, lh)), e_neg);
  Value *em1 = op1(c, OP_EXPONENTIAL_MINUS_ONE, x);
  Value *sum = add(c, em1, dvd(c, em1, add(c, em1, one)));
  Value *small = mul(c, kf(c, x, 0.5), sum);
  return select_(c, cmp(c, CMP_LT, abs_(c, x), one), small, large);
}

static Value *tan_f(Chlo *c, Value *x) { return op1(c, OP_TAN, x); }

/* atan(x) = atan2(x, 1). */
static Value *atan_f(Chlo *c, Value *x) { return op2(c, OP_ATAN2, x, kf(c, x, 1)); }

/* atanh(x) = (log1p(x) - log1p(-x)) / 2 for |x| <= 1, nan otherwise. */
static Value *atanh_f(Chlo *c, Value *x) {
  Value *half = kf(c, x, 0.5);
  Value *l1p_neg = log1p_(c, neg(c, x));
  Value *r = mul(c, sub(c, log1p_(c, x), l1p_neg), half);
  Value *nan = kf(c, x, NAN), *one = kf(c, x, 1);
  return select_(c, cmp(c, CMP_GT, abs_(c, x), one), nan, r);
}

/* asin(x) = 2 atan2(x, 1 + sqrt((1 - x)(1 + x))), the product avoiding the
 * cancellation of 1 - x^2 near |x| = 1. */
static Value *asin_f(Chlo *c, Value *x) {
  Value *one = kf(c, x, 1);
  Value *xp1 = add(c, one, x);
  Value *s = sqrt_(c, mul(c, sub(c, one, x), xp1));
  Value *half_angle = op2(c, OP_ATAN2, x, add(c, one, s));
  return mul(c, kf(c, x, 2), half_angle);
}

/* acos(x) = 2 atan2(sqrt((1 - x)(1 + x)), 1 + x), and pi at x = -1. */
static Value *acos_f(Chlo *c, Value *x) {
  Value *one = kf(c, x, 1), *xp1 = add(c, one, x);
  Value *s = sqrt_(c, mul(c, sub(c, one, x), xp1));
  Value *half_angle = op2(c, OP_ATAN2, s, xp1);
  Value *r = mul(c, kf(c, x, 2), half_angle);
  Value *pi = kf(c, x, M_PI);
  return select_(c, cmp(c, CMP_EQ, x, kf(c, x, -1)), pi, r);
}

/* The largest finite value of f32 / f64. */
static double max_finite(const Value *x) {
  return elem(x) == ET_F32 ? 0x1.fffffep127 : 0x1.fffffffffffffp1023;
}

/* acosh(x) = log1p(sqrt(x - 1) (sqrt(x + 1) + sqrt(x - 1))), exact near 1
 * and nan below 1; log(2) + log(x) where the product would overflow
 * (x >= max / 2). */
static Value *acosh_f(Chlo *c, Value *x) {
  Value *one = kf(c, x, 1);
  Value *sm = sqrt_(c, sub(c, x, one));
  Value *r = log1p_(c, mul(c, sm, add(c, sqrt_(c, add(c, x, one)), sm)));
  Value *big = cmp(c, CMP_GE, x, kf(c, x, max_finite(x) / 2));
  Value *log_x = log_(c, x);
  return select_(c, big, add(c, kf(c, x, log(2)), log_x), r);
}

/* asinh(x) = sign(x) log1p(|x| + x^2 / (1 + sqrt(1 + x^2))), which keeps the
 * x^2 / 2 term for small x; sign(x) (log(2) + log|x|) where x^2 overflows
 * (|x| >= sqrt(max)). */
static Value *asinh_f(Chlo *c, Value *x) {
  Value *ax = abs_(c, x), *one = kf(c, x, 1), *ax2 = mul(c, ax, ax);
  Value *r = log1p_(c, add(c, ax, dvd(c, ax2, add(c, one, sqrt_(c, add(c, one, ax2))))));
  Value *big = cmp(c, CMP_GE, ax, kf(c, x, sqrt(max_finite(x))));
  Value *log_ax = log_(c, ax);
  r = select_(c, big, add(c, kf(c, x, log(2)), log_ax), r);
  return mul(c, op1(c, OP_SIGN, x), r);
}

/* ------------------------------------------------------------------------ */
/* Complex functions                                                         */
/*
 * Built from real ops on the parts (re, im) and stablehlo.complex, so that
 * each part gets its own careful formula. complex<f32> operands of the
 * inverse functions (acos, acosh, asin, asinh) are computed in complex<f64>
 * and rounded once at the end (upstream computes them in the operand's
 * type): the Hull et al. algorithm chains a dozen rounded f32 ops and was 2
 * ULP off a part on the conformance inputs, where the f64 chain rounds to
 * the correctly rounded value.                                              */

static ElemType part_of(const Value *z) { return elem(z) == ET_C64 ? ET_F32 : ET_F64; }

static Value *re_(Chlo *c, Value *z) {
  return emit1(c, OP_REAL, with_elem(c, z, part_of(z)), 1, &z);
}

static Value *im_(Chlo *c, Value *z) {
  return emit1(c, OP_IMAG, with_elem(c, z, part_of(z)), 1, &z);
}

/* complex(re, im) of the complex type with re's part type. */
static Value *cplx(Chlo *c, Value *re, Value *im) {
  Value *in[2] = {re, im};
  return emit1(c, OP_COMPLEX, with_elem(c, re, elem(re) == ET_F32 ? ET_C64 : ET_C128), 2, in);
}

static Value *max_(Chlo *c, Value *x, Value *y) { return op2(c, OP_MAXIMUM, x, y); }
static Value *atan2_(Chlo *c, Value *y, Value *x) { return op2(c, OP_ATAN2, y, x); }

/* hypot(a, b) as the modulus of complex(a, b): no overflow or underflow. */
static Value *hypot_(Chlo *c, Value *a, Value *b) {
  Value *z = cplx(c, a, b);
  return emit1(c, OP_ABS, a->type, 1, &z);
}

/* The parts shared by asin and acos (Hull, Fairgrieve and Tang, "Implementing
 * the complex arcsine and arccosine functions using exception handling",
 * ACM TOMS 23(3), 1997, with upstream's reduction to 3 + 4 regions). With
 * x = |re z|, y = |im z|, r = hypot(x + 1, y), s = hypot(x - 1, y) and
 * a = (r + s) / 2:
 *   asin z = atan2(re z, q) + i sign(im z) m,  acos z = atan2(q, re z) - i sign(im z) m
 * where q = sqrt(a^2 - x^2) and m = log(a + sqrt(a^2 - 1)), each written
 * without cancellation:
 *   q = y                                           max(x, y) >= safe_max
 *     = sqrt((a + x)/2 (y^2 / (r + x + 1) + s - (x - 1)))  x <= 1
 *     = y sqrt((a + x)/2 (1 / (r + x + 1) + 1 / (s + x - 1)))  otherwise
 *   m = log 2 + log mx + log1p((x/y)^2) / 2          mx = (y or x) large
 *     = y / sqrt((a - 1)(a + 1))                     y < safe_min, x < 1
 *     = log1p(a - 1 + sqrt((a - 1)(a + 1)))          otherwise,
 *   a - 1 = -(x + 1)(x - 1) / (a + 1)                y < safe_min, x < 1
 *         = y^2 / 2 / (r + x + 1) + (s + x - 1) / 2  x >= 1
 *         = y^2 / 2 (1 / (r + x + 1) + 1 / (s - (x - 1)))  a <= 3/2
 *         = a - 1                                    otherwise,
 * safe_max = sqrt(max finite) / 8, safe_min = 4 sqrt(min normal). */
static void asin_acos_parts(Chlo *c, Value *z, Value **q, Value **m) {
  Value *sx = re_(c, z), *x = abs_(c, sx), *y = abs_(c, im_(c, z));
  bool f32 = elem(sx) == ET_F32;
  Value *one = kf(c, x, 1), *half = kf(c, x, 0.5);
  Value *safe_max = kf(c, x, sqrt(max_finite(x)) / 8);
  Value *safe_min = kf(c, x, 4 * sqrt(f32 ? 0x1p-126 : 0x1p-1022));
  Value *xp1 = add(c, x, one), *xm1 = sub(c, x, one);
  Value *r = hypot_(c, xp1, y), *s = hypot_(c, xm1, y);
  Value *a = mul(c, half, add(c, r, s));
  Value *half_apx = mul(c, half, add(c, a, x));
  Value *yy = mul(c, y, y);
  Value *rpxp1 = add(c, r, xp1), *smxm1 = sub(c, s, xm1), *spxm1 = add(c, s, xm1);

  Value *q_le1 = sqrt_(c, mul(c, half_apx, add(c, dvd(c, yy, rpxp1), smxm1)));
  Value *over_s = dvd(c, half_apx, spxm1);
  Value *q_gt1 = mul(c, y, sqrt_(c, add(c, dvd(c, half_apx, rpxp1), over_s)));
  Value *qv = select_(c, cmp(c, CMP_LE, x, one), q_le1, q_gt1);
  *q = select_(c, cmp(c, CMP_GE, max_(c, x, y), safe_max), y, qv);

  /* The large region starts at y >= safe_max * 1e-6 while x is not huge
   * (Hull et al. case 4 is covered there too: log1p's term vanishes). */
  Value *x_not_huge = cmp(c, CMP_LT, x, mul(c, safe_max, kf(c, x, 1e12)));
  Value *safe_max_huge = mul(c, safe_max, kf(c, x, 100));
  Value *safe_max_opt = select_(c, x_not_huge, mul(c, safe_max, kf(c, x, 1e-6)), safe_max_huge);
  Value *y_big = cmp(c, CMP_GE, y, safe_max_opt);
  Value *mx = select_(c, y_big, y, x);
  Value *y_finite = cmp(c, CMP_NE, y, kf(c, x, INFINITY));
  Value *zero = kf(c, x, 0), *x_y = dvd(c, x, y);
  Value *xoy = select_(c, and_(c, y_big, y_finite), x_y, zero);
  Value *m_tail = mul(c, half, log1p_(c, mul(c, xoy, xoy)));
  Value *log_mx = log_(c, mx);
  Value *m_big = add(c, add(c, kf(c, x, log(2)), log_mx), m_tail);
  Value *big = cmp(c, CMP_GE, mx, select_(c, y_big, safe_max_opt, safe_max));

  Value *x_lt1 = cmp(c, CMP_LT, x, one);
  Value *tiny = and_(c, cmp(c, CMP_LT, y, safe_min), x_lt1);
  Value *ap1 = add(c, a, one), *half_yy = mul(c, half, yy);
  Value *hyy_r = dvd(c, half_yy, rpxp1);
  Value *a_m1 = sub(c, a, one), *am1_near1 = add(c, hyy_r, dvd(c, half_yy, smxm1));
  Value *am1 = select_(c, cmp(c, CMP_LE, a, kf(c, x, 1.5)), am1_near1, a_m1);
  Value *am1_x_ge1 = add(c, hyy_r, mul(c, half, spxm1));
  am1 = select_(c, cmp(c, CMP_GE, x, one), am1_x_ge1, am1);
  am1 = select_(c, tiny, neg(c, dvd(c, mul(c, xp1, xm1), ap1)), am1);
  Value *sq = sqrt_(c, mul(c, am1, ap1));
  Value *mv_log = log1p_(c, add(c, am1, sq));
  Value *mv = select_(c, tiny, dvd(c, y, sq), mv_log);
  *m = select_(c, big, m_big, mv);
}

/* Whether x's sign bit is set (also for -0, which picks the side of a
 * branch cut: asin(3 - 0i) = pi/2 - 1.76i, as C99 Annex G; upstream tests
 * x < 0 and gives the conjugate there). */
static Value *sign_bit(Chlo *c, Value *x) {
  Value *bits = bitcast(c, x, elem(x) == ET_F32 ? ET_SI32 : ET_SI64);
  return cmp(c, CMP_LT, bits, ki(c, bits, 0));
}

/* m with the sign of s: -m where s's sign bit is set. */
static Value *signed_like(Chlo *c, Value *m, Value *s) {
  Value *neg_m = neg(c, m);
  return select_(c, sign_bit(c, s), neg_m, m);
}

/* asin z = atan2(re z, q) + i sign(im z) m (asin_acos_parts). */
static Value *asin_c(Chlo *c, Value *z) {
  Value *q, *m;
  asin_acos_parts(c, z, &q, &m);
  Value *im = signed_like(c, m, im_(c, z));
  return cplx(c, atan2_(c, re_(c, z), q), im);
}

/* acos z = atan2(q, re z) - i sign(im z) m (asin_acos_parts). */
static Value *acos_c(Chlo *c, Value *z) {
  Value *q, *m;
  asin_acos_parts(c, z, &q, &m);
  Value *im = neg(c, signed_like(c, m, im_(c, z)));
  return cplx(c, atan2_(c, q, re_(c, z)), im);
}

/* acosh z = i acos z where im z >= 0, -i acos z otherwise, that is
 * m + i sign(im z) atan2(q, re z): the real part is never negative. */
static Value *acosh_c(Chlo *c, Value *z) {
  Value *q, *m;
  asin_acos_parts(c, z, &q, &m);
  Value *im_z = im_(c, z);
  return cplx(c, m, signed_like(c, atan2_(c, q, re_(c, z)), im_z));
}

/* i z for z = x + iy: -y + ix. */
static Value *times_i(Chlo *c, Value *z) {
  Value *re = re_(c, z);
  return cplx(c, neg(c, im_(c, z)), re);
}

/* -i w for w = u + iv: v - iu. */
static Value *times_minus_i(Chlo *c, Value *w) {
  Value *neg_re = neg(c, re_(c, w));
  return cplx(c, im_(c, w), neg_re);
}

/* asinh z = -i asin(i z). */
static Value *asinh_c(Chlo *c, Value *z) { return times_minus_i(c, asin_c(c, times_i(c, z))); }

/* atanh z for z = x + iy (Kahan, "Branch cuts for complex elementary
 * functions", 1987):
 *   re = sign(x) log1p(4|x| / ((1 - |x|)^2 + y^2)) / 4
 *   im = atan2(2y, (1 - x)(1 + x) - y^2) / 2
 * |x| keeps log1p's argument positive (no cancellation near z = -1). For
 * max(|x|, |y|) >= safe_max, where the squares overflow, atanh z ~ 1/z +
 * i sign(y) pi/2: re = (x / h) / h with h = |z|, and im from
 * atan2(+-tiny, -1) = +-pi; an infinite part gives re = +-0. */
static Value *atanh_c(Chlo *c, Value *z) {
  Value *x = re_(c, z), *y = im_(c, z);
  Value *ax = abs_(c, x), *one = kf(c, x, 1), *zero = kf(c, x, 0);
  Value *omx = sub(c, one, ax);
  Value *yy = mul(c, y, y);
  Value *den = add(c, mul(c, omx, omx), yy);
  Value *l1p = log1p_(c, dvd(c, mul(c, kf(c, x, 4), ax), den));
  Value *re = mul(c, kf(c, x, 0.25), l1p);
  re = signed_like(c, re, x);
  Value *opx = add(c, one, x);
  Value *d = sub(c, mul(c, sub(c, one, x), opx), yy);
  Value *angle = atan2_(c, mul(c, kf(c, x, 2), y), d);
  Value *im = mul(c, kf(c, x, 0.5), angle);
  Value *safe_max = kf(c, x, sqrt(max_finite(x)) / 8);
  Value *big = cmp(c, CMP_GE, max_(c, ax, abs_(c, y)), safe_max);
  Value *h = hypot_(c, x, y);
  Value *re_1z = dvd(c, dvd(c, x, h), h), *re_inf = signed_like(c, zero, x);
  Value *re_big = select_(c, is_inf(c, h), re_inf, re_1z);
  Value *tiny = kf(c, x, 0x1p-60);
  Value *ys = mul(c, clamp(c, kf(c, x, -1), y, one), tiny);
  Value *angle_big = atan2_(c, ys, kf(c, x, -1));
  Value *im_big = mul(c, kf(c, x, 0.5), angle_big);
  im = select_(c, big, im_big, im);
  return cplx(c, select_(c, big, re_big, re), im);
}

/* atan z = -i atanh(i z). */
static Value *atan_c(Chlo *c, Value *z) { return times_minus_i(c, atanh_c(c, times_i(c, z))); }

/* sinh(x + iy) = sinh x cos y + i cosh x sin y, with the real sinh and
 * cosh above (no overflow of e^|x| where the result is finite); for y = 0
 * the imaginary part is y itself (not inf * 0 where x is infinite). */
static Value *sinh_c(Chlo *c, Value *z) {
  Value *x = re_(c, z), *y = im_(c, z);
  Value *sin_y = op1(c, OP_SINE, y);
  Value *im = mul(c, cosh_f(c, x), sin_y);
  im = select_(c, cmp(c, CMP_EQ, y, kf(c, y, 0)), y, im);
  Value *cos_y = op1(c, OP_COSINE, y);
  return cplx(c, mul(c, sinh_f(c, x), cos_y), im);
}

/* cosh(x + iy) = cosh x cos y + i sinh x sin y; for y = 0 the imaginary
 * part is sign(x) y. */
static Value *cosh_c(Chlo *c, Value *z) {
  Value *x = re_(c, z), *y = im_(c, z);
  Value *sin_y = op1(c, OP_SINE, y);
  Value *im = mul(c, sinh_f(c, x), sin_y);
  Value *im_real = mul(c, op1(c, OP_SIGN, x), y);
  im = select_(c, cmp(c, CMP_EQ, y, kf(c, y, 0)), im_real, im);
  Value *cos_y = op1(c, OP_COSINE, y);
  return cplx(c, mul(c, cosh_f(c, x), cos_y), im);
}

/* tan z is stablehlo.tan, which codegen computes for complex operands. */
static Value *tan_c(Chlo *c, Value *z) { return op1(c, OP_TAN, z); }

static const struct {
  OpCode code;
  Value *(*fn)(Chlo *c, Value *z);
  bool wide; /* complex<f32> computed in complex<f64> */
} complex_math[] = {
    {OP_CHLO_ACOS, acos_c, true},   {OP_CHLO_ACOSH, acosh_c, true}, {OP_CHLO_ASIN, asin_c, true},
    {OP_CHLO_ASINH, asinh_c, true}, {OP_CHLO_ATAN, atan_c, false},  {OP_CHLO_ATANH, atanh_c, false},
    {OP_CHLO_COSH, cosh_c, false},  {OP_CHLO_SINH, sinh_c, false},  {OP_CHLO_TAN, tan_c, false},
};

static Value *decompose_complex_math(Chlo *c, Op *op, Value *z) {
  for (size_t i = 0; i < sizeof complex_math / sizeof *complex_math; i++) {
    if (complex_math[i].code != op->code) continue;
    if (!complex_math[i].wide || elem(z) == ET_C128) return complex_math[i].fn(c, z);
    return convert(c, complex_math[i].fn(c, convert(c, z, ET_C128)), ET_C64);
  }
  fail(c, "%s: complex operands are not supported yet", op_name(op->code));
  return NULL;
}

/* ------------------------------------------------------------------------ */
/* Unary float functions                                                     */

typedef Value *(*MathFn)(Chlo *c, Value *x);

static const struct {
  OpCode code;
  MathFn f32, f64;
} unary_math[] = {
    {OP_CHLO_ACOS, acos_f, acos_f},
    {OP_CHLO_ACOSH, acosh_f, acosh_f},
    {OP_CHLO_ASIN, asin_f, asin_f},
    {OP_CHLO_ASINH, asinh_f, asinh_f},
    {OP_CHLO_ATAN, atan_f, atan_f},
    {OP_CHLO_ATANH, atanh_f, atanh_f},
    {OP_CHLO_BESSEL_I1E, bessel_i1e_f32, bessel_i1e_f64},
    {OP_CHLO_COSH, cosh_f, cosh_f},
    {OP_CHLO_DIGAMMA, digamma_f, digamma_f},
    {OP_CHLO_ERF, erf_f32, erf_f64},
    {OP_CHLO_ERF_INV, erf_inv_f32, erf_inv_f64},
    {OP_CHLO_ERFC, erfc_f32, erfc_f64},
    {OP_CHLO_LGAMMA, lgamma_f, lgamma_f},
    {OP_CHLO_SINH, sinh_f, sinh_f},
    {OP_CHLO_TAN, tan_f, tan_f},
};

static bool is_narrow_float(ElemType e) { return e == ET_F16 || e == ET_BF16; }

/* Rejects what the float decompositions cannot compute. */
static bool check_float(Chlo *c, const Op *op, const Value *x) {
  ElemType e = elem(x);
  if (elem_is_complex(e))
    return fail(c, "%s: complex operands are not supported yet", op_name(op->code));
  if (e != ET_F32 && e != ET_F64 && !is_narrow_float(e))
    return fail(c, "%s: element type '%s' is not supported", op_name(op->code), elem_name(e));
  return true;
}

/* Applies fn (f32 version for f16/bf16, computed in f32 then rounded). */
static Value *apply_math(Chlo *c, MathFn f32, MathFn f64, Value *x) {
  ElemType e = elem(x);
  if (e == ET_F64) return f64(c, x);
  if (e == ET_F32) return f32(c, x);
  return convert(c, f32(c, convert(c, x, ET_F32)), e);
}

static Value *decompose_unary_math(Chlo *c, Op *op) {
  Value *x = op->opnds[0];
  if (elem_is_complex(elem(x))) return decompose_complex_math(c, op, x);
  if (!check_float(c, op, x)) return NULL;
  for (size_t i = 0; i < sizeof unary_math / sizeof *unary_math; i++)
    if (unary_math[i].code == op->code)
      return apply_math(c, unary_math[i].f32, unary_math[i].f64, x);
  abort(); /* every OPF_UNARY CHLO op but conj is in the table */
}

/* is_inf: |x| == inf; is_pos_inf: x == +inf; is_neg_inf: x == -inf
 * (compared in f32 for f16/bf16, exactly). */
static Value *decompose_is_inf(Chlo *c, Op *op) {
  Value *x = op->opnds[0];
  if (!check_float(c, op, x)) return NULL;
  if (is_narrow_float(elem(x))) x = convert(c, x, ET_F32);
  if (op->code == OP_CHLO_IS_INF) return is_inf(c, x);
  double inf = op->code == OP_CHLO_IS_POS_INF ? INFINITY : -INFINITY;
  return cmp(c, CMP_EQ, x, kf(c, x, inf));
}

/* conj(x) = complex(real(x), -imag(x)); the identity on real types. */
static Value *decompose_conj(Chlo *c, Op *op) {
  Value *x = op->opnds[0];
  if (!elem_is_complex(elem(x))) return x;
  ElemType part = elem(x) == ET_C64 ? ET_F32 : ET_F64;
  Value *re = emit1(c, OP_REAL, with_elem(c, x, part), 1, &x);
  Value *im = emit1(c, OP_IMAG, with_elem(c, x, part), 1, &x);
  Value *in[2] = {re, neg(c, im)};
  return emit1(c, OP_COMPLEX, x->type, 2, in);
}

/* ------------------------------------------------------------------------ */
/* Binary functions                                                          */

/* next_after(x, y) on the bit patterns b(x), b(y) as integers of the same
 * width: nan if either is nan; y if x == y (also +-0 vs -+0); the smallest
 * subnormal with y's sign if x is +-0; else b(x) - 1 when |x| > |y| or the
 * signs differ, b(x) + 1 otherwise. */
static Value *next_after_f(Chlo *c, Value *x, Value *y) {
  int bits = elem_bits(elem(x));
  ElemType it = bits == 16 ? ET_SI16 : bits == 32 ? ET_SI32 : ET_SI64;
  uint64_t nan = elem(x) == ET_F16 ? 0x7e00 : elem(x) == ET_BF16 ? 0x7fc0
               : bits == 32 ? 0x7fc00000 : 0x7ff8000000000000;
  Value *xi = bitcast(c, x, it), *yi = bitcast(c, y, it);
  int64_t sign_bit = (int64_t)((uint64_t)1 << (bits - 1));
  Value *mag = ki(c, xi, ~sign_bit), *sgn = ki(c, xi, sign_bit);
  Value *xa = and_(c, xi, mag), *ya = and_(c, yi, mag), *zero = ki(c, xi, 0);
  Value *one = ki(c, xi, 1);
  Value *y_sign = and_(c, yi, sgn);
  Value *signs_differ = cmp(c, CMP_NE, and_(c, xi, sgn), y_sign);
  Value *towards_zero = or_(c, cmp(c, CMP_GT, xa, ya), signs_differ);
  Value *r = add(c, xi, select_(c, towards_zero, ki(c, xi, -1), one));
  Value *smallest = or_(c, y_sign, one);
  Value *from_zero = select_(c, cmp(c, CMP_EQ, ya, zero), yi, smallest);
  r = select_(c, cmp(c, CMP_EQ, xa, zero), from_zero, r);
  r = select_(c, cmp(c, CMP_EQ, x, y), yi, r);
  Value *y_nan = cmp(c, CMP_NE, y, y);
  Value *any_nan = or_(c, cmp(c, CMP_NE, x, x), y_nan);
  r = select_(c, any_nan, splat_bits(c, xi->type, nan), r);
  return bitcast(c, r, elem(x));
}

static Value *decompose_next_after(Chlo *c, Op *op, Value *x, Value *y) {
  if (!check_float(c, op, x)) return NULL;
  return next_after_f(c, x, y);
}

/* polygamma(n, x) and zeta(x, q), in f32 for f16/bf16. */
static Value *decompose_gamma2(Chlo *c, Op *op, Value *a, Value *b, bool zeta) {
  if (!check_float(c, op, a)) return NULL;
  ElemType e = elem(a);
  if (is_narrow_float(e)) {
    a = convert(c, a, ET_F32);
    b = convert(c, b, ET_F32);
  }
  Value *r = zeta ? zeta_f(c, a, b) : polygamma_f(c, a, b);
  return is_narrow_float(e) ? convert(c, r, e) : r;
}

static ElemType twice_as_wide(ElemType e) {
  switch (e) {
  case ET_SI8: return ET_SI16;
  case ET_SI16: return ET_SI32;
  case ET_SI32: return ET_SI64;
  case ET_UI8: return ET_UI16;
  case ET_UI16: return ET_UI32;
  case ET_UI32: return ET_UI64;
  default: return ET_COUNT;
  }
}

/* The high 64 bits of the 128-bit product of unsigned a and b, from 32-bit
 * halves: with a = a1 2^32 + a0, b = b1 2^32 + b0,
 *   mid = (a0 b0 >> 32) + (a1 b0 & (2^32 - 1)) + a0 b1   (no overflow)
 *   hi  = a1 b1 + (a1 b0 >> 32) + (mid >> 32). */
static Value *mulhi_u64(Chlo *c, Value *a, Value *b) {
  Value *lo32 = ki(c, a, 0xffffffff), *k32 = ki(c, a, 32);
  Value *a0 = and_(c, a, lo32), *a1 = op2(c, OP_SHIFT_RIGHT_LOGICAL, a, k32);
  Value *b0 = and_(c, b, lo32), *b1 = op2(c, OP_SHIFT_RIGHT_LOGICAL, b, k32);
  Value *a1b0 = mul(c, a1, b0);
  Value *a0b1 = mul(c, a0, b1), *a1b0_lo = and_(c, a1b0, lo32);
  Value *mid = add(c, add(c, op2(c, OP_SHIFT_RIGHT_LOGICAL, mul(c, a0, b0), k32), a1b0_lo), a0b1);
  Value *a1b0_hi = op2(c, OP_SHIFT_RIGHT_LOGICAL, a1b0, k32);
  Value *hi = add(c, mul(c, a1, b1), a1b0_hi);
  return add(c, hi, op2(c, OP_SHIFT_RIGHT_LOGICAL, mid, k32));
}

/* mulhi(x, y): the high half of the double-width product. Narrower than 64
 * bits: widen, multiply, shift right by the width. 64 bits: the unsigned
 * high half of the bit patterns, for signed operands corrected by
 * hi_s = hi_u - (x < 0 ? y : 0) - (y < 0 ? x : 0)  (mod 2^64). */
static Value *decompose_mulhi(Chlo *c, Op *op, Value *x, Value *y) {
  ElemType e = elem(x);
  if (!elem_is_int(e)) {
    fail(c, "%s: element type '%s' is not supported", op_name(op->code), elem_name(e));
    return NULL;
  }
  bool is_signed = elem_class(e) == 's';
  ElemType w = twice_as_wide(e);
  if (w != ET_COUNT) {
    Value *yw = convert(c, y, w);
    Value *p = mul(c, convert(c, x, w), yw);
    OpCode shr = is_signed ? OP_SHIFT_RIGHT_ARITHMETIC : OP_SHIFT_RIGHT_LOGICAL;
    return convert(c, op2(c, shr, p, ki(c, p, elem_bits(e))), e);
  }
  if (!is_signed) return mulhi_u64(c, x, y);
  Value *xu = bitcast(c, x, ET_UI64), *yu = bitcast(c, y, ET_UI64), *zero = ki(c, x, 0);
  Value *hi = mulhi_u64(c, xu, yu), *uzero = ki(c, xu, 0);
  hi = sub(c, hi, select_(c, cmp(c, CMP_LT, x, zero), yu, uzero));
  hi = sub(c, hi, select_(c, cmp(c, CMP_LT, y, zero), xu, uzero));
  return bitcast(c, hi, e);
}

/* ------------------------------------------------------------------------ */
/* Broadcasting binary ops                                                   */

/* x broadcast to shape `to` with broadcast_in_dim: operand dimension i goes
 * to dims[i]; a no-op when x already has that shape. */
static Value *broadcast_to(Chlo *c, Value *x, const Type *to, const int64_t *dims) {
  Type *t = type_tensor(c->m->types, elem(x), to->rank, to->dims);
  if (t == x->type) return x;
  Op *op = emit(c, OP_BROADCAST_IN_DIM, 1, &x, 1, &t, 0);
  op->a.broadcast_dimensions = ir_list(c->m, dims, x->type->rank);
  return done(c, op);
}

/* Where x's dimensions go in a result of rank `rank`: broadcast_dimensions
 * when given for a lower-rank operand (XLA's explicit broadcast), else
 * numpy's alignment of the trailing dimensions. */
static void broadcast_dims(const Op *op, const Value *x, int rank, int64_t *dims) {
  Attr *a = ir_attr(op, "broadcast_dimensions");
  int r = x->type->rank;
  bool given = a && a->kind == AT_DENSE_ARRAY && a->n == r && r < rank;
  for (int i = 0; i < r; i++) dims[i] = given ? a->ints[i] : rank - r + i;
}

static Value *broadcast_operand(Chlo *c, const Op *op, Value *x) {
  const Type *rt = op->results[0]->type;
  int64_t dims[64]; /* rank_ok: ranks are below 64 */
  broadcast_dims(op, x, rt->rank, dims);
  return broadcast_to(c, x, rt, dims);
}

static const struct {
  OpCode chlo, hlo;
} broadcast_ops[] = {
    {OP_CHLO_BROADCAST_ADD, OP_ADD},
    {OP_CHLO_BROADCAST_AND, OP_AND},
    {OP_CHLO_BROADCAST_ATAN2, OP_ATAN2},
    {OP_CHLO_BROADCAST_COMPLEX, OP_COMPLEX},
    {OP_CHLO_BROADCAST_DIVIDE, OP_DIVIDE},
    {OP_CHLO_BROADCAST_MAXIMUM, OP_MAXIMUM},
    {OP_CHLO_BROADCAST_MINIMUM, OP_MINIMUM},
    {OP_CHLO_BROADCAST_MULTIPLY, OP_MULTIPLY},
    {OP_CHLO_BROADCAST_OR, OP_OR},
    {OP_CHLO_BROADCAST_POWER, OP_POWER},
    {OP_CHLO_BROADCAST_REMAINDER, OP_REMAINDER},
    {OP_CHLO_BROADCAST_SHIFT_LEFT, OP_SHIFT_LEFT},
    {OP_CHLO_BROADCAST_SHIFT_RIGHT_ARITHMETIC, OP_SHIFT_RIGHT_ARITHMETIC},
    {OP_CHLO_BROADCAST_SHIFT_RIGHT_LOGICAL, OP_SHIFT_RIGHT_LOGICAL},
    {OP_CHLO_BROADCAST_SUBTRACT, OP_SUBTRACT},
    {OP_CHLO_BROADCAST_XOR, OP_XOR},
};

/* The word of an enum attribute: `#stablehlo<comparison_direction GT>` is
 * decoded already; `#chlo<comparison_direction GT>` is kept verbatim by the
 * frontend and its last word is read here. */
static const char *enum_word(Chlo *c, const Attr *a) {
  if (!a) return NULL;
  if (a->kind == AT_ENUM) return a->str;
  if (a->kind != AT_OTHER || !a->str) return NULL;
  const char *e = a->str + strlen(a->str);
  while (e > a->str && (e[-1] == '>' || e[-1] == ' ')) e--;
  const char *s = e;
  while (s > a->str && (isalnum((unsigned char)s[-1]) || s[-1] == '_')) s--;
  return arena_strndup(&c->m->arena, s, (size_t)(e - s));
}

/* The value of an enum attribute of e (def when absent, -1 if unknown). */
static int enum_of(Chlo *c, const Op *op, const char *name, AttrEnum e, int def) {
  const char *w = enum_word(c, ir_attr(op, name));
  return w ? attr_enum_lookup(e, w) : def;
}

/* broadcast_compare: comparison_direction and the optional compare_type. */
static Value *broadcast_compare(Chlo *c, Op *op, Value *x, Value *y) {
  int d = enum_of(c, op, "comparison_direction", EN_COMPARISON_DIRECTION, -1);
  int t = enum_of(c, op, "compare_type", EN_COMPARISON_TYPE, CMPT_NOTYPE);
  if (d < 0 || t < 0) {
    fail(c, "%s: missing or unknown comparison_direction or compare_type", op_name(op->code));
    return NULL;
  }
  return compare(c, (CmpDir)d, x, y, (CmpType)t);
}

/* broadcast_select: the three operands broadcast numpy-style. */
static Value *broadcast_select(Chlo *c, Op *op) {
  Value *in[3];
  for (int i = 0; i < 3; i++) in[i] = broadcast_operand(c, op, op->opnds[i]);
  return emit1(c, OP_SELECT, op->results[0]->type, 3, in);
}

/* broadcast_X(lhs, rhs) = X(broadcast(lhs), broadcast(rhs)). */
static Value *decompose_broadcast(Chlo *c, Op *op) {
  if (op->code == OP_CHLO_BROADCAST_SELECT) return broadcast_select(c, op);
  Value *x = broadcast_operand(c, op, op->opnds[0]);
  Value *y = broadcast_operand(c, op, op->opnds[1]);
  switch (op->code) {
  case OP_CHLO_BROADCAST_COMPARE: return broadcast_compare(c, op, x, y);
  case OP_CHLO_BROADCAST_NEXT_AFTER: return decompose_next_after(c, op, x, y);
  case OP_CHLO_BROADCAST_POLYGAMMA: return decompose_gamma2(c, op, x, y, false);
  case OP_CHLO_BROADCAST_ZETA: return decompose_gamma2(c, op, x, y, true);
  default: break;
  }
  for (size_t i = 0; i < sizeof broadcast_ops / sizeof *broadcast_ops; i++) {
    if (broadcast_ops[i].chlo != op->code) continue;
    Value *in[2] = {x, y};
    return emit1(c, broadcast_ops[i].hlo, op->results[0]->type, 2, in);
  }
  abort(); /* every broadcast op is handled above */
}

/* ------------------------------------------------------------------------ */
/* Shape ops shared by top_k, scan and ragged_dot                            */

/* New ops go into block b (appended) until leave_block. */
typedef struct Cursor {
  Block *blk;
  Op *before;
} Cursor;

static Cursor enter_block(Chlo *c, Block *b) {
  Cursor saved = {c->b.block, c->b.before};
  c->b.block = b;
  c->b.before = NULL;
  return saved;
}

static void leave_block(Chlo *c, Cursor saved) {
  c->b.block = saved.blk;
  c->b.before = saved.before;
}

static Region *region_of(Chlo *c, Op *op, int i, Block *b) {
  Region *r = ir_region_new(c->m, 1);
  r->blocks[0] = b;
  b->parent = r;
  r->parent = op;
  op->regions[i] = r;
  return r;
}

static void emit_return(Chlo *c, int n, Value *const *vals) {
  done(c, emit(c, OP_RETURN, n, vals, 0, NULL, 0));
}

static Value *iota(Chlo *c, Type *t, int64_t dim) {
  Op *op = emit(c, OP_IOTA, 0, NULL, 1, &t, 0);
  op->a.iota_dimension = dim;
  return done(c, op);
}

/* slice with unit strides. */
static Value *slice(Chlo *c, Value *x, const int64_t *start, const int64_t *limit) {
  int r = x->type->rank;
  int64_t dims[64], ones[64];
  for (int i = 0; i < r; i++) {
    dims[i] = limit[i] - start[i];
    ones[i] = 1;
  }
  Type *t = type_tensor(c->m->types, elem(x), r, dims);
  Op *op = emit(c, OP_SLICE, 1, &x, 1, &t, 0);
  op->a.start_indices = ir_list(c->m, start, r);
  op->a.limit_indices = ir_list(c->m, limit, r);
  op->a.strides = ir_list(c->m, ones, r);
  return done(c, op);
}

/* x's dims without dimension d (n of them: rank - 1). */
static int dims_without(const Type *t, int64_t d, int64_t *out) {
  int n = 0;
  for (int i = 0; i < t->rank; i++)
    if (i != d) out[n++] = t->dims[i];
  return n;
}

/* x's dims with dimension d set to v. */
static void dims_with(const Type *t, int64_t d, int64_t v, int64_t *out) {
  for (int i = 0; i < t->rank; i++) out[i] = i == d ? v : t->dims[i];
}

static bool rank_ok(Chlo *c, const Op *op) {
  for (int i = 0; i < op->nopnds + op->nresults; i++) {
    const Type *t = i < op->nopnds ? op->opnds[i]->type : op->results[i - op->nopnds]->type;
    if (t->kind == TY_TENSOR && t->rank > 63)
      return fail(c, "%s: rank above 63 is not supported", op_name(op->code));
  }
  return true;
}

/* ------------------------------------------------------------------------ */
/* top_k                                                                     */

/* The comparator of top_k's sort: (a, b, ia, ib) -> a > b, in total order
 * for floats (nan above +inf, -0 below +0). */
static void top_k_comparator(Chlo *c, Op *sort, Value *x) {
  Type *args[4];
  args[0] = args[1] = type_tensor(c->m->types, elem(x), 0, NULL);
  args[2] = args[3] = type_tensor(c->m->types, ET_SI32, 0, NULL);
  Block *b = ir_block_new(c->m, 4, args);
  region_of(c, sort, 0, b);
  Cursor saved = enter_block(c, b);
  CmpType type = elem_is_float(elem(x)) ? CMPT_TOTALORDER : CMPT_NOTYPE;
  Value *gt = compare(c, CMP_GT, b->args[0], b->args[1], type);
  emit_return(c, 1, &gt);
  leave_block(c, saved);
}

/* top_k(x, k) = slice(sort((x, iota), a > b, stable, last dim), [.., :k]):
 * values in descending order, ties in index order (the stable sort). */
static bool decompose_top_k(Chlo *c, Op *op, Value **out) {
  Value *x = op->opnds[0];
  Attr *ka = ir_attr(op, "k");
  const Type *t = x->type;
  if (!ka || ka->kind != AT_INT || ka->ival < 0 || t->rank < 1 || op->nresults != 2)
    return fail(c, "chlo.top_k: expects an operand of rank >= 1, k >= 0 and two results");
  int64_t last = t->rank - 1, k = ka->ival < t->dims[last] ? ka->ival : t->dims[last];
  Value *in[2] = {x, iota(c, with_elem(c, x, ET_SI32), last)};
  Type *rt[2] = {x->type, in[1]->type};
  Op *sort = emit(c, OP_SORT, 2, in, 2, rt, 1);
  sort->a.dimension = last;
  sort->a.is_stable = true;
  top_k_comparator(c, sort, x);
  done(c, sort);
  int64_t start[64] = {0}, limit[64];
  dims_with(t, last, k, limit);
  out[0] = slice(c, sort->results[0], start, limit);
  out[1] = slice(c, sort->results[1], start, limit);
  return true;
}

/* ------------------------------------------------------------------------ */
/* scan                                                                      */

typedef struct Scan {
  int nin, ninit, nout; /* inputs, carries (inits), per-step outputs */
  int64_t dim, n;       /* scanned dimension and its size */
  bool reverse;
} Scan;

static bool scan_shape(Chlo *c, Op *op, Scan *s) {
  Attr *seg = ir_attr(op, "operandSegmentSizes");
  Attr *dim = ir_attr(op, "dimension");
  Attr *rev = ir_attr(op, "is_reverse");
  if (!seg || seg->kind != AT_DENSE_ARRAY || seg->n != 2 || !dim || dim->kind != AT_INT ||
      op->nregions != 1 || op->regions[0]->nblocks != 1)
    return fail(c, "chlo.scan: expects operandSegmentSizes, dimension and one body block");
  s->nin = (int)seg->ints[0];
  s->ninit = (int)seg->ints[1];
  s->nout = op->nresults - s->ninit;
  s->dim = dim->ival;
  s->reverse = rev && rev->kind == AT_BOOL && rev->bval;
  if (s->nin < 0 || s->ninit < 0 || s->nin + s->ninit != op->nopnds || s->nout < 0)
    return fail(c, "chlo.scan: operandSegmentSizes does not fit the operands and results");
  const Type *ref = s->nin ? op->opnds[0]->type : s->nout ? op->results[0]->type : NULL;
  if (!ref || s->dim < 0 || s->dim >= ref->rank)
    return fail(c, "chlo.scan: no scanned dimension %lld", (long long)s->dim);
  s->n = ref->dims[s->dim];
  return true;
}

/* Whether `part` is `full` with dimension dim removed. */
static bool is_slice_type(const Type *full, int64_t dim, const Type *part) {
  if (full->rank <= dim || part->rank != full->rank - 1 || part->elem != full->elem) return false;
  for (int i = 0, k = 0; i < full->rank; i++)
    if (i != dim && full->dims[i] != part->dims[k++]) return false;
  return true;
}

/* The body's arguments are (input elements, carries) and it returns
 * (output elements, new carries), of the types these imply. */
static bool scan_check(Chlo *c, Op *op, const Scan *s) {
  Block *b = op->regions[0]->blocks[0];
  Op *t = ir_block_terminator(b);
  if (b->nargs != s->nin + s->ninit || !t || t->nopnds != s->nout + s->ninit)
    return fail(c, "chlo.scan: the body must take %d arguments and return %d values",
                s->nin + s->ninit, s->nout + s->ninit);
  for (int k = 0; k < s->nin; k++)
    if (!is_slice_type(op->opnds[k]->type, s->dim, b->args[k]->type) ||
        op->opnds[k]->type->dims[s->dim] != s->n)
      return fail(c, "chlo.scan: input %d does not fit body argument %d", k, k);
  for (int k = 0; k < s->nout; k++)
    if (!is_slice_type(op->results[k]->type, s->dim, t->opnds[k]->type) ||
        op->results[k]->type->dims[s->dim] != s->n)
      return fail(c, "chlo.scan: result %d does not fit the body's value %d", k, k);
  for (int k = 0; k < s->ninit; k++) {
    const Type *init = op->opnds[s->nin + k]->type;
    if (b->args[s->nin + k]->type != init || t->opnds[s->nout + k]->type != init ||
        op->results[s->nout + k]->type != init)
      return fail(c, "chlo.scan: carry %d changes type", k);
  }
  return true;
}

/* The loop's condition: i < n. */
static void scan_cond(Chlo *c, Op *w, int nargs, Type **types, const Scan *s) {
  Block *b = ir_block_new(c->m, nargs, types);
  region_of(c, w, 0, b);
  Cursor saved = enter_block(c, b);
  Value *lt = cmp(c, CMP_LT, b->args[0], scalar_i64(c, s->n));
  emit_return(c, 1, &lt);
  leave_block(c, saved);
}

/* Element pos of x along dim: dynamic_slice then reshape without dim. */
static Value *scan_take(Chlo *c, Value *x, int64_t dim, Value *pos) {
  const Type *t = x->type;
  int64_t sizes[64], dims[64];
  Value *starts[65];
  dims_with(t, dim, 1, sizes);
  starts[0] = x;
  for (int i = 0; i < t->rank; i++) starts[i + 1] = i == dim ? pos : scalar_i64(c, 0);
  Type *st = type_tensor(c->m->types, elem(x), t->rank, sizes);
  Op *op = emit(c, OP_DYNAMIC_SLICE, t->rank + 1, starts, 1, &st, 0);
  op->a.slice_sizes = ir_list(c->m, sizes, t->rank);
  Value *sl = done(c, op);
  int n = dims_without(t, dim, dims);
  return reshape(c, sl, n, dims);
}

/* acc with element pos along dim replaced by v (acc's shape without dim). */
static Value *scan_put(Chlo *c, Value *acc, Value *v, int64_t dim, Value *pos) {
  const Type *t = acc->type;
  int64_t dims[64];
  Value *in[66];
  dims_with(t, dim, 1, dims);
  in[0] = acc;
  in[1] = reshape(c, v, t->rank, dims);
  for (int i = 0; i < t->rank; i++) in[i + 2] = i == dim ? pos : scalar_i64(c, 0);
  return emit1(c, OP_DYNAMIC_UPDATE_SLICE, acc->type, t->rank + 2, in);
}

/* Moves the scan body's ops (all but its return) to the end of b, its
 * arguments replaced by `args`; returns the body's return. */
static Op *scan_move_body(Chlo *c, Op *op, Block *b, Value **args) {
  Block *sb = op->regions[0]->blocks[0];
  Op *term = ir_block_terminator(sb);
  while (sb->first != term) {
    Op *o = sb->first;
    ir_block_remove(sb, o);
    ir_block_append(b, o);
  }
  for (int i = 0; i < sb->nargs; i++) ir_replace_uses(c->f, sb->args[i], args[i]);
  return term;
}

/* The loop body: args (i, carries..., outputs...); slices the inputs at
 * pos = i (or n - 1 - i), runs the scan body on (slices, carries), writes
 * its per-step outputs at pos and yields (i + 1, new carries, outputs).
 * scan_check has matched the body to the operands. */
static void scan_body(Chlo *c, Op *op, Op *w, int nargs, Type **types, const Scan *s) {
  Block *b = ir_block_new(c->m, nargs, types);
  region_of(c, w, 1, b);
  Cursor saved = enter_block(c, b);
  Value *i = b->args[0];
  Value *pos = s->reverse ? sub(c, scalar_i64(c, s->n - 1), i) : i;
  Value *args[s->nin + s->ninit + 1];
  for (int k = 0; k < s->nin; k++) args[k] = scan_take(c, op->opnds[k], s->dim, pos);
  for (int k = 0; k < s->ninit; k++) args[s->nin + k] = b->args[1 + k];
  Op *term = scan_move_body(c, op, b, args);
  Value *yield[nargs];
  yield[0] = add(c, i, scalar_i64(c, 1));
  for (int k = 0; k < s->ninit; k++) yield[1 + k] = term->opnds[s->nout + k];
  for (int k = 0; k < s->nout; k++)
    yield[1 + s->ninit + k] = scan_put(c, b->args[1 + s->ninit + k], term->opnds[k], s->dim, pos);
  emit_return(c, nargs, yield);
  leave_block(c, saved);
}

/* scan = while (i < n) with state (i, carries, outputs) starting at
 * (0, inits, zeros); results: the outputs, then the carries. */
static bool decompose_scan(Chlo *c, Op *op, Value **out) {
  Scan s = {0};
  if (!scan_shape(c, op, &s) || !scan_check(c, op, &s)) return false;
  int nargs = 1 + s.ninit + s.nout;
  Value *init[nargs];
  Type *types[nargs];
  init[0] = scalar_i64(c, 0);
  for (int k = 0; k < s.ninit; k++) init[1 + k] = op->opnds[s.nin + k];
  for (int k = 0; k < s.nout; k++) init[1 + s.ninit + k] = splat_bits(c, op->results[k]->type, 0);
  for (int k = 0; k < nargs; k++) types[k] = init[k]->type;
  Op *w = emit(c, OP_WHILE, nargs, init, nargs, types, 2);
  scan_cond(c, w, nargs, types, &s);
  scan_body(c, op, w, nargs, types, &s);
  done(c, w);
  for (int k = 0; k < s.nout; k++) out[k] = w->results[1 + s.ninit + k];
  for (int k = 0; k < s.ninit; k++) out[s.nout + k] = w->results[1 + k];
  return true;
}

/* ------------------------------------------------------------------------ */
/* ragged_dot                                                                */

/* The dimension numbers of #chlo.ragged_dot<...>. */
typedef struct Ragged {
  I64List lhs_batch, rhs_batch, lhs_contract, rhs_contract, lhs_ragged, rhs_group;
} Ragged;

/* `name = [i, j, ...]` from the text of a #chlo.ragged_dot attribute, which
 * the frontend keeps verbatim (it only decodes #stablehlo structures). */
static bool text_list(Chlo *c, const char *s, const char *name, I64List *out) {
  size_t n = strlen(name);
  const char *p = s;
  while ((p = strstr(p, name)) && p > s && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
    p += n;
  if (!p) return false;
  p += n;
  while (*p == ' ' || *p == '=') p++;
  if (*p++ != '[') return false;
  out->v = ARENA_ARRAY(&c->m->arena, int64_t, 64);
  out->n = 0;
  while (out->n < 64) {
    char *e;
    while (*p == ' ' || *p == ',' || *p == '\n') p++;
    if (*p == ']') return true;
    out->v[out->n++] = strtoll(p, &e, 10);
    if (e == p) return false;
    p = e;
  }
  return false;
}

static bool dims_in(I64List l, int rank) {
  for (int i = 0; i < l.n; i++)
    if (l.v[i] < 0 || l.v[i] >= rank) return false;
  return true;
}

static bool ragged_dims(Chlo *c, Op *op, Ragged *d) {
  Attr *a = ir_attr(op, "ragged_dot_dimension_numbers");
  const char *s = a && a->kind == AT_OTHER ? a->str : NULL;
  if (!s || !text_list(c, s, "lhs_batching_dimensions", &d->lhs_batch) ||
      !text_list(c, s, "rhs_batching_dimensions", &d->rhs_batch) ||
      !text_list(c, s, "lhs_contracting_dimensions", &d->lhs_contract) ||
      !text_list(c, s, "rhs_contracting_dimensions", &d->rhs_contract) ||
      !text_list(c, s, "lhs_ragged_dimensions", &d->lhs_ragged) ||
      !text_list(c, s, "rhs_group_dimensions", &d->rhs_group))
    return fail(c, "chlo.ragged_dot: cannot read ragged_dot_dimension_numbers");
  if (d->lhs_ragged.n != 1 || op->nopnds != 3)
    return fail(c, "chlo.ragged_dot: expects one lhs ragged dimension and three operands");
  int lr = op->opnds[0]->type->rank, rr = op->opnds[1]->type->rank;
  if (!dims_in(d->lhs_batch, lr) || !dims_in(d->lhs_contract, lr) || !dims_in(d->lhs_ragged, lr) ||
      !dims_in(d->rhs_batch, rr) || !dims_in(d->rhs_contract, rr) || !dims_in(d->rhs_group, rr))
    return fail(c, "chlo.ragged_dot: a dimension number is out of range");
  return true;
}

static bool contains(I64List l, int64_t v) {
  for (int i = 0; i < l.n; i++)
    if (l.v[i] == v) return true;
  return false;
}

static Value *dot_general(Chlo *c, Value *l, Value *r, Type *t, const I64List *dims) {
  Value *in[2] = {l, r};
  Op *op = emit(c, OP_DOT_GENERAL, 2, in, 1, &t, 0);
  op->a.dot = (DotDims){dims[0], dims[1], dims[2], dims[3]};
  return done(c, op);
}

/* group_sizes[..., i] as i64 of the batch shape (group_sizes' dims but the last). */
static Value *group_size(Chlo *c, Value *gs, int64_t i) {
  const Type *t = gs->type;
  int64_t start[64] = {0}, limit[64];
  start[t->rank - 1] = i;
  dims_with(t, t->rank - 1, i + 1, limit);
  Value *v = reshape(c, slice(c, gs, start, limit), t->rank - 1, t->dims);
  return elem(v) == ET_SI64 ? v : convert(c, v, ET_SI64);
}

/* The first group's start: zeros of group_sizes' batch shape, as i64. */
static Value *batch_zeros(Chlo *c, Value *gs) {
  const Type *t = gs->type;
  return splat_bits(c, type_tensor(c->m->types, ET_SI64, t->rank - 1, t->dims), 0);
}

/* lhs where start <= iota < limit (start and limit of the batch shape,
 * broadcast along lhs's leading dimensions), else 0. */
static Value *ragged_mask(Chlo *c, Value *lhs, Value *it, Value *start, Value *limit) {
  const Type *t = it->type;
  int64_t dims[64];
  for (int i = 0; i < start->type->rank; i++) dims[i] = i;
  Value *s = broadcast_to(c, start, t, dims), *l = broadcast_to(c, limit, t, dims);
  Value *below = cmp(c, CMP_LT, it, l);
  Value *in = and_(c, cmp(c, CMP_GE, it, s), below);
  return select_(c, in, lhs, splat_bits(c, lhs->type, 0));
}

/* rhs[.., i, ..] along the group dimension, that dimension dropped. */
static Value *take_group(Chlo *c, Value *rhs, int64_t gdim, int64_t i) {
  const Type *t = rhs->type;
  int64_t start[64] = {0}, limit[64], dims[64];
  start[gdim] = i;
  dims_with(t, gdim, i + 1, limit);
  int n = dims_without(t, gdim, dims);
  return reshape(c, slice(c, rhs, start, limit), n, dims);
}

/* Mode 1 (ragged lhs non-contracting dim m, rhs [g, .., k, n]):
 *   sum over groups i of dot(lhs masked to group i's rows, rhs[i]),
 * group i's rows being [sum of sizes before i, that + size i). */
static Value *ragged_mode1(Chlo *c, Op *op, const Ragged *d) {
  Value *lhs = op->opnds[0], *rhs = op->opnds[1], *gs = op->opnds[2];
  int64_t gdim = d->rhs_group.v[0];
  I64List dims[4] = {d->lhs_batch, d->rhs_batch, d->lhs_contract, d->rhs_contract};
  for (int k = 1; k < 4; k += 2) { /* rhs dims after the group dim move down */
    int64_t *v = ARENA_ARRAY(&c->m->arena, int64_t, dims[k].n + 1);
    for (int j = 0; j < dims[k].n; j++) v[j] = dims[k].v[j] - (dims[k].v[j] > gdim);
    dims[k].v = v;
  }
  Value *it = iota(c, with_elem(c, lhs, ET_SI64), d->lhs_ragged.v[0]);
  Value *start = batch_zeros(c, gs);
  Value *out = NULL;
  for (int64_t i = 0; i < rhs->type->dims[gdim]; i++) {
    Value *limit = add(c, start, group_size(c, gs, i));
    Value *m = ragged_mask(c, lhs, it, start, limit);
    Value *dot = dot_general(c, m, take_group(c, rhs, gdim, i), op->results[0]->type, dims);
    out = out ? add(c, out, dot) : dot;
    start = limit;
  }
  return out;
}

/* Mode 2 (ragged contracting dim k): result [g, ..] stacks, for each group,
 * dot(lhs masked to group i's k-range, rhs). */
static Value *ragged_mode2(Chlo *c, Op *op, const Ragged *d) {
  Value *lhs = op->opnds[0], *rhs = op->opnds[1], *gs = op->opnds[2];
  const Type *rt = op->results[0]->type;
  I64List dims[4] = {d->lhs_batch, d->rhs_batch, d->lhs_contract, d->rhs_contract};
  Type *part = type_tensor(c->m->types, rt->elem, rt->rank - 1, rt->dims + 1);
  int64_t one_dims[64];
  dims_with(rt, 0, 1, one_dims);
  Value *it = iota(c, with_elem(c, lhs, ET_SI64), d->lhs_ragged.v[0]);
  Value *start = batch_zeros(c, gs);
  int64_t g = gs->type->dims[gs->type->rank - 1];
  Value *parts[g > 0 ? g : 1];
  for (int64_t i = 0; i < g; i++) {
    Value *limit = add(c, start, group_size(c, gs, i));
    Value *dot = dot_general(c, ragged_mask(c, lhs, it, start, limit), rhs, part, dims);
    parts[i] = reshape(c, dot, rt->rank, one_dims);
    start = limit;
  }
  if (g == 1) return parts[0];
  Op *cat = emit(c, OP_CONCATENATE, (int)g, parts, 1, (Type *const *)&op->results[0]->type, 0);
  cat->a.dimension = 0;
  return done(c, cat);
}

/* ragged_dot by the kind of its lhs ragged dimension: contracting (mode 2),
 * batch (mode 3: a plain dot_general) or neither (mode 1). */
static Value *decompose_ragged_dot(Chlo *c, Op *op) {
  Ragged d;
  if (!ragged_dims(c, op, &d)) return NULL;
  int64_t r = d.lhs_ragged.v[0];
  if (contains(d.lhs_contract, r)) {
    if (op->opnds[2]->type->rank >= 1) return ragged_mode2(c, op, &d);
    fail(c, "chlo.ragged_dot: group_sizes has rank 0");
    return NULL;
  }
  if (contains(d.lhs_batch, r)) {
    I64List dims[4] = {d.lhs_batch, d.rhs_batch, d.lhs_contract, d.rhs_contract};
    return dot_general(c, op->opnds[0], op->opnds[1], op->results[0]->type, dims);
  }
  if (d.rhs_group.n == 1 && op->opnds[2]->type->rank >= 1) return ragged_mode1(c, op, &d);
  fail(c, "chlo.ragged_dot: expects one rhs group dimension");
  return NULL;
}

/* ------------------------------------------------------------------------ */
/* Constants                                                                 */

/* chlo.constant is stablehlo.constant. */
static Value *decompose_constant(Chlo *c, Op *op) {
  const Attr *v = ir_attr(op, "value");
  if (!v || v->kind != AT_DENSE || v->dense->type != op->results[0]->type) {
    fail(c, "chlo.constant: expects a dense `value` of the result type");
    return NULL;
  }
  return ir_build_constant(&c->b, v->dense);
}

/* constant_like(value, x): value splat to the result type. */
static Value *decompose_constant_like(Chlo *c, Op *op) {
  Type *t = op->results[0]->type;
  Attr *v = ir_attr(op, "value");
  Value *like = op->results[0];
  if (!v || (v->kind != AT_INT && v->kind != AT_FLOAT && v->kind != AT_BOOL)) {
    fail(c, "chlo.constant_like: expects an integer, float or bool value");
    return NULL;
  }
  if (elem_is_int(t->elem) || t->elem == ET_I1) {
    int64_t i = v->kind == AT_FLOAT ? (int64_t)v->fval : v->kind == AT_BOOL ? v->bval : v->ival;
    return ki(c, like, i);
  }
  double f = v->kind == AT_FLOAT ? v->fval : (double)v->ival;
  if (t->elem == ET_F32 || t->elem == ET_F64) return kf(c, like, f);
  if (!is_narrow_float(t->elem)) {
    fail(c, "chlo.constant_like: element type '%s' is not supported", elem_name(t->elem));
    return NULL;
  }
  Value *wide = splat_bits(c, type_with_elem(c->m->types, t, ET_F32), 0);
  return convert(c, kf(c, wide, f), t->elem);
}

/* ------------------------------------------------------------------------ */
/* Dispatch                                                                  */

static bool is_chlo(OpCode code) { return !strncmp(op_name(code), "chlo.", 5); }

static bool is_broadcast(OpCode code) { return !strncmp(op_name(code), "chlo.broadcast_", 15); }

static bool shapes_static(Chlo *c, const Op *op) {
  for (int i = 0; i < op->nopnds + op->nresults; i++) {
    const Type *t = i < op->nopnds ? op->opnds[i]->type : op->results[i - op->nopnds]->type;
    if (t->kind != TY_TENSOR || !type_is_static(t))
      return fail(c, "%s: only statically shaped tensors are supported", op_name(op->code));
  }
  return rank_ok(c, op);
}

/* The single-result decompositions. */
static Value *decompose_value(Chlo *c, Op *op) {
  if (is_broadcast(op->code)) return decompose_broadcast(c, op);
  switch (op->code) {
  case OP_CHLO_IS_INF:
  case OP_CHLO_IS_NEG_INF:
  case OP_CHLO_IS_POS_INF: return decompose_is_inf(c, op);
  case OP_CHLO_CONJ: return decompose_conj(c, op);
  case OP_CHLO_SQUARE: return mul(c, op->opnds[0], op->opnds[0]); /* x * x */
  case OP_CHLO_MULHI: return decompose_mulhi(c, op, op->opnds[0], op->opnds[1]);
  case OP_CHLO_NEXT_AFTER: return decompose_next_after(c, op, op->opnds[0], op->opnds[1]);
  case OP_CHLO_POLYGAMMA: return decompose_gamma2(c, op, op->opnds[0], op->opnds[1], false);
  case OP_CHLO_ZETA: return decompose_gamma2(c, op, op->opnds[0], op->opnds[1], true);
  case OP_CHLO_CONSTANT: return decompose_constant(c, op);
  case OP_CHLO_CONSTANT_LIKE: return decompose_constant_like(c, op);
  case OP_CHLO_RAGGED_DOT: return decompose_ragged_dot(c, op);
  default: return decompose_unary_math(c, op);
  }
}

/* Fills out[] with the values replacing op's results. */
static bool decompose(Chlo *c, Op *op, Value **out) {
  if (!shapes_static(c, op)) return false;
  if (op->code == OP_CHLO_TOP_K) return decompose_top_k(c, op, out);
  if (op->code == OP_CHLO_SCAN) return decompose_scan(c, op, out);
  if (op->nresults != 1)
    return fail(c, "%s: expected one result, not %d", op_name(op->code), op->nresults);
  return (out[0] = decompose_value(c, op)) != NULL;
}

static void replace_op(Chlo *c, Op *op) {
  c->b = (Builder){c->m, op->parent, op, op->loc};
  Value *out[op->nresults > 0 ? op->nresults : 1];
  if (!decompose(c, op, out)) return;
  for (int i = 0; i < op->nresults; i++) {
    if (out[i]->type == op->results[i]->type) continue;
    fail(c, "%s: result %d has type '%s' but the decomposition computes '%s'", op_name(op->code),
         i, type_str(&c->m->arena, op->results[i]->type), type_str(&c->m->arena, out[i]->type));
    return;
  }
  for (int i = 0; i < op->nresults; i++) ir_replace_uses(c->f, op->results[i], out[i]);
  ir_block_remove(op->parent, op);
}

static void decompose_func(Chlo *c, Func *f) {
  OpList l = {0};
  c->f = f;
  ir_collect_ops(f, &l);
  for (int i = 0; i < l.n; i++)
    if (is_chlo(l.v[i]->code)) replace_op(c, l.v[i]);
  free(l.v);
  ir_number_values(f);
  ir_recount_uses(f);
}

int pass_decompose_chlo(Module *m) {
  Chlo c = {.m = m};
  for (int i = 0; i < m->nfuncs; i++)
    if (m->funcs[i]->body) decompose_func(&c, m->funcs[i]);
  return c.errors;
}
