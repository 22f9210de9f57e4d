/* test_math.c - accuracy and no-libm test for codegen/vmath.c.
 *
 * For every function and every operand type (float, double, <8 x float>,
 * <4 x double>, <16 x float>) it builds a loop over arrays that applies
 * math_<fn>, runs the default<O2> pipeline, JIT-compiles the module with ORC LLJIT and runs
 * it over special values, dense sweeps and random bit patterns.  Results are
 * compared with long double libm; the distance is measured in ULPs of the
 * operand type at the exact (long double) value.  Everything is done twice:
 * for the host CPU (FMA, AVX) and for the baseline CPU (x86-64: no FMA, no
 * SSE4.1), where a libm call hidden in an intrinsic (llvm.fma, llvm.rint)
 * would appear.  The IR is checked for calls to anything but intrinsics
 * before and after optimization, and the object code the JIT's target
 * machine makes of it for undefined symbols (LLJIT itself would quietly
 * resolve them from this process, which links libm); a self-check makes sure
 * that this detector does see the pow call that llvm.pow becomes.
 *
 * Usage: test_math [points-per-function], default 200000.  With
 * TEST_MATH_BENCH set it also prints the time per element of each variant;
 * with TEST_MATH_DUMP set it prints the optimized module.
 * Output: one line per function/type/CPU, then "N passed, N failed", counting
 * function/type pairs (a pair passes when it passes on both CPUs).
 */
/* The emitter under test, by a path relative to this file: the include
 * flags differ between builds, and with -Icodegen <math.h> would name it too. */
#include "../../codegen/vmath.h"
#include "unit.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Object.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include <float.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The libm reference functions.  <math.h> cannot be included: with
 * -Icodegen it names the header under test.  C11 7.1.4p2 permits declaring
 * library functions directly. */
long double expl(long double);
long double expm1l(long double);
long double logl(long double);
long double log1pl(long double);
long double sinl(long double);
long double cosl(long double);
long double tanl(long double);
long double tanhl(long double);
long double atan2l(long double, long double);
long double cbrtl(long double);
long double powl(long double, long double);
long double sqrtl(long double);
long double erfl(long double);
long double fabsl(long double);
long double frexpl(long double, int *);
long double ldexpl(long double, int);

static bool is_nan(long double x) { return x != x; }
static bool is_inf(long double x) { return x == x && x - x != 0; }

typedef LLVMValueRef (*Emit1)(LLVMBuilderRef, LLVMValueRef);
typedef LLVMValueRef (*Emit2)(LLVMBuilderRef, LLVMValueRef, LLVMValueRef);
typedef long double (*Ref1)(long double);
typedef long double (*Ref2)(long double, long double);

static long double ref_logistic(long double x) { return 1.0L / (1.0L + expl(-x)); }
static long double ref_rsqrt(long double x) { return 1.0L / sqrtl(x); }
double pow(double, double);
/* glibc's powl gets some special cases wrong (powl(-inf, -2^63) = inf); the
 * special cases have exact results, which double pow gets right. */
static long double ref_pow(long double x, long double y)
{
    bool special = x == 0 || is_inf(x) || is_inf(y) || is_nan(x) || is_nan(y);
    return special ? pow((double)x, (double)y) : powl(x, y);
}

enum gen { GEN_PLAIN, GEN_TRIG, GEN_POW, GEN_ATAN2 };

/* One function under test.  sweep[p] are two dense linear sweeps and rnd[p]
 * the interval random bit patterns are kept in, for p = 0 (float) and 1
 * (double). */
struct fn {
    const char *name;
    Emit1 emit1;
    Emit2 emit2;
    Ref1 ref1;
    Ref2 ref2;
    enum gen gen;
    double sweep[2][2][2];
    double rnd[2][2];
    double budget;
    double limit; /* accuracy is required for |a| < limit only (0: always) */
};

#define BIG DBL_MAX /* no bound */
/* vmath.c's Cody-Waite reduction is exact while |x| < 2^20 pi/2; beyond it
 * only "NaN exactly for NaN and inf inputs" is checked. */
#define TRIG_LIMIT 1.6e6

static const struct fn FNS[] = {
    {"exp", math_exp, NULL, expl, NULL, GEN_PLAIN,
     {{{-104, 89}, {-1, 1}}, {{-746, 710}, {-1, 1}}},
     {{-110, 110}, {-750, 750}}, 2, 0},
    {"expm1", math_expm1, NULL, expm1l, NULL, GEN_PLAIN,
     {{{-20, 89}, {-1, 1}}, {{-40, 710}, {-1, 1}}},
     {{-110, 110}, {-750, 750}}, 2, 0},
    {"log", math_log, NULL, logl, NULL, GEN_PLAIN,
     {{{0, 4}, {0.5, 2}}, {{0, 4}, {0.5, 2}}},
     {{0, BIG}, {0, BIG}}, 2, 0},
    {"log1p", math_log1p, NULL, log1pl, NULL, GEN_PLAIN,
     {{{-1, 4}, {-0.5, 0.5}}, {{-1, 4}, {-0.5, 0.5}}},
     {{-1, BIG}, {-1, BIG}}, 2, 0},
    {"sin", math_sin, NULL, sinl, NULL, GEN_TRIG,
     {{{-10, 10}, {-1e5, 1e5}}, {{-10, 10}, {-1e5, 1e5}}},
     {{-TRIG_LIMIT, TRIG_LIMIT}, {-TRIG_LIMIT, TRIG_LIMIT}}, 2, TRIG_LIMIT},
    {"cos", math_cos, NULL, cosl, NULL, GEN_TRIG,
     {{{-10, 10}, {-1e5, 1e5}}, {{-10, 10}, {-1e5, 1e5}}},
     {{-TRIG_LIMIT, TRIG_LIMIT}, {-TRIG_LIMIT, TRIG_LIMIT}}, 2, TRIG_LIMIT},
    {"tan", math_tan, NULL, tanl, NULL, GEN_TRIG,
     {{{-10, 10}, {-1e5, 1e5}}, {{-10, 10}, {-1e5, 1e5}}},
     {{-TRIG_LIMIT, TRIG_LIMIT}, {-TRIG_LIMIT, TRIG_LIMIT}}, 2, TRIG_LIMIT},
    {"tanh", math_tanh, NULL, tanhl, NULL, GEN_PLAIN,
     {{{-10, 10}, {-1, 1}}, {{-25, 25}, {-1, 1}}},
     {{-BIG, BIG}, {-BIG, BIG}}, 2, 0},
    {"logistic", math_logistic, NULL, ref_logistic, NULL, GEN_PLAIN,
     {{{-110, 20}, {-2, 2}}, {{-750, 40}, {-2, 2}}},
     {{-BIG, BIG}, {-BIG, BIG}}, 2, 0},
    {"atan2", NULL, math_atan2, NULL, atan2l, GEN_ATAN2,
     {{{-2, 2}, {-2, 2}}, {{-2, 2}, {-2, 2}}},
     {{-BIG, BIG}, {-BIG, BIG}}, 2, 0},
    {"cbrt", math_cbrt, NULL, cbrtl, NULL, GEN_PLAIN,
     {{{-10, 10}, {0.1, 9}}, {{-10, 10}, {0.1, 9}}},
     {{-BIG, BIG}, {-BIG, BIG}}, 2, 0},
    {"pow", NULL, math_pow, NULL, ref_pow, GEN_POW,
     {{{0, 4}, {-8, 8}}, {{0, 4}, {-8, 8}}},
     {{-BIG, BIG}, {-BIG, BIG}}, 2, 0},
    {"rsqrt", math_rsqrt, NULL, ref_rsqrt, NULL, GEN_PLAIN,
     {{{0, 4}, {0.5, 2}}, {{0, 4}, {0.5, 2}}},
     {{-1, BIG}, {-1, BIG}}, 2, 0},
    {"erf", math_erf, NULL, erfl, NULL, GEN_PLAIN,
     {{{-7, 7}, {0.5, 2}}, {{-7, 7}, {0.5, 2}}},
     {{-BIG, BIG}, {-BIG, BIG}}, 2, 0},
};
#define NFN ((int)(sizeof FNS / sizeof FNS[0]))

/* The variants: element type, and vector width (1 = scalar loop); v16f32
 * fills an AVX-512 register with floats. */
struct variant {
    const char *name;
    bool dbl;
    unsigned width;
};
static const struct variant VARIANTS[] = {
    {"f32", false, 1}, {"f64", true, 1}, {"v8f32", false, 8}, {"v4f64", true, 4},
    {"v16f32", false, 16},
};
#define NVAR 5

/* ---- small numeric helpers ---------------------------------------------- */

static double dbits(uint64_t u)
{
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

static bool sign_of(long double x) { return x < 0 || (x == 0 && 1.0L / x < 0); }

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static uint64_t rng(void) /* xorshift64* */
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545f4914f6cdd1dULL;
}
static double uniform(double lo, double hi)
{
    return lo + (hi - lo) * ((double)(rng() >> 11) * 0x1p-53);
}
/* A random value with uniformly random bits, of the given precision. */
static double random_bits(bool dbl)
{
    if (dbl)
        return dbits(rng());
    uint32_t u = (uint32_t)(rng() >> 32);
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* ULP of the format at |v|: 2^(max(e, emin) - p + 1), e = exponent of v. */
static long double ulp_at(long double v, bool dbl)
{
    int p = dbl ? 53 : 24, emin = dbl ? -1022 : -126;
    if (v == 0)
        return ldexpl(1.0L, emin - p + 1);
    int e;
    frexpl(fabsl(v), &e); /* |v| = f * 2^e, f in [0.5, 1) */
    e -= 1;
    if (e < emin)
        e = emin;
    return ldexpl(1.0L, e - p + 1);
}

/* Distance of got from the exact ref, in ULPs; 1e9 for a wrong special
 * value (NaN, infinity, sign of zero). */
static double ulp_err(long double got, long double ref, bool dbl)
{
    if (is_nan(ref) || is_nan(got))
        return is_nan(ref) && is_nan(got) ? 0 : 1e9;
    long double rounded = dbl ? (long double)(double)ref : (long double)(float)ref;
    if (is_inf(rounded) || is_inf(got)) {
        if (got == rounded)
            return 0;
        /* the largest finite value next to an overflowed result: count
         * infinity as one ULP beyond it */
        long double mx = dbl ? DBL_MAX : FLT_MAX;
        if (fabsl(got) == mx || fabsl(rounded) == mx)
            return sign_of(got) == sign_of(rounded) ? 1 : 1e9;
        return 1e9;
    }
    if (got == 0 && ref == 0)
        return sign_of(got) == sign_of(ref) ? 0 : 1e9;
    return (double)(fabsl(got - ref) / ulp_at(ref, dbl));
}

/* ---- inputs ------------------------------------------------------------- */

struct inputs {
    double *a, *b; /* b only for two-operand functions */
    size_t n, cap;
};

static void push(struct inputs *in, double a, double b, bool dbl)
{
    if (in->n == in->cap) {
        in->cap = in->cap ? 2 * in->cap : 1024;
        in->a = realloc(in->a, in->cap * sizeof *in->a);
        in->b = realloc(in->b, in->cap * sizeof *in->b);
        if (!in->a || !in->b) {
            fprintf(stderr, "out of memory\n");
            exit(2);
        }
    }
    /* values are rounded to the operand precision here, so that the
     * reference sees exactly what the generated code sees */
    in->a[in->n] = dbl ? a : (float)a;
    in->b[in->n] = dbl ? b : (float)b;
    in->n++;
}

static void specials(double *out, int *n)
{
    double inf = dbits(0x7ff0000000000000ULL);
    const double v[] = {
        0, 1, 0.5, 2, 3, 0.25, 1.5, 10, 100, 1e-5, 1e5, 0x1p-27, 0x1p-28,
        0x1p-54, 0x1p-55, 1e-300, 1e300, DBL_MIN, DBL_MAX, DBL_TRUE_MIN,
        FLT_MIN, FLT_MAX, 0x1p-149, 709.782712893384, 709.79, 709.7,
        745.1332191019411, 745.14, 708.4, 88.72283, 88.8, 87.33, 103.97,
        104, 1023, 1024, 1074, 1075, 0x1p52, 0x1p53, 0x1p53 + 2, 0x1p63,
        0x1p64, 9007199254740993.0, 1 + 0x1p-52, 1 - 0x1p-53, 1e-10, 0.7,
        0.125, 0.37, 0.7207592200561265, 22, 19.06, 6, 5.9, 4, 3.92, 3.5,
        2.25, 1.25, 0.84375, 36.7, 38, 45, 54, 0x1p51, 0x1p-1022 * 0.75,
        1.5707963267948966, 3.141592653589793, 0.7853981633974483, 1e5,
        12345.678, 65536, inf, dbits(0x7ff8000000000000ULL),
    };
    *n = 0;
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        out[(*n)++] = v[i];
        out[(*n)++] = -v[i];
    }
}

static bool in_rnd(const struct fn *f, bool dbl, double x)
{
    const double *r = f->rnd[dbl];
    return x >= r[0] && x <= r[1];
}

static void gen_inputs(const struct fn *f, bool dbl, size_t npts,
                       struct inputs *in)
{
    double sp[256];
    int nsp;
    specials(sp, &nsp);
    bool two = f->emit2 != NULL;
    for (int i = 0; i < nsp; i++)
        for (int j = 0; j < (two ? nsp : 1); j++)
            push(in, sp[i], two ? sp[j] : 0, dbl);

    size_t nsweep = npts / 4;
    for (int s = 0; s < 2; s++) {
        const double *iv = f->sweep[dbl][s];
        for (size_t i = 0; i < nsweep; i++) {
            double x = iv[0] + (iv[1] - iv[0]) * (double)i / (double)nsweep;
            push(in, x, two ? uniform(iv[0], iv[1]) : 0, dbl);
        }
    }
    size_t nrnd = npts / 2;
    for (size_t i = 0; i < nrnd; i++) {
        double x, y = 0;
        switch (f->gen) {
        case GEN_POW: {
            /* |x| from random bits, y keeping |y log x| inside the range
             * of finite results; every fourth x near 1 with a large y, and
             * every other negative x with an integer y */
            double lim = dbl ? 745 : 104;
            do x = fabsl(random_bits(dbl)); while (!(x > 0 && x <= BIG));
            if (i % 4 == 0)
                x = 1 + (double)((int64_t)(rng() % 2001) - 1000) * (dbl ? 0x1p-52 : 0x1p-23);
            long double l = logl(dbl ? x : (float)x);
            y = l == 0 ? uniform(-1e6, 1e6) : uniform(-1, 1) * lim / (double)fabsl(l);
            if (i % 2 == 1) {
                x = -x;
                if (fabsl(y) < 0x1p62) /* larger doubles are integers */
                    y = (double)(int64_t)y;
            }
            break;
        }
        case GEN_ATAN2:
            if (i % 2) {
                x = random_bits(dbl), y = random_bits(dbl);
                if (x != x || y != y)
                    continue;
            } else {
                x = uniform(-1, 1), y = uniform(-1, 1);
            }
            break;
        default:
            do x = random_bits(dbl); while (!in_rnd(f, dbl, x));
        }
        push(in, x, y, dbl);
    }
    if (f->gen == GEN_TRIG) {
        /* the numbers below 1.6e6 closest to a multiple of pi/2 (found by
         * scanning every multiple with exact integer arithmetic), ... */
        static const double hard64[] = {
            0x1.6c6cbc45dc8dep+5, 0x1.6c6cbc45dc8dep+6, 0x1.6c6cbc45dc8dep+7,
            0x1.6c6cbc45dc8dep+8, 0x1.6c6cbc45dc8dep+9, 0x1.6c6cbc45dc8dep+10,
            0x1.6c6cbc45dc8dep+11, 0x1.39c6fd67805a7p+18, 0x1.921fb54442d18p+0,
            0x1.6c6cbc45dc8dep+12, 0x1.39c6fd67805a7p+19, 0x1.921fb54442d18p+1,
            0x1.67e57cdd4dc54p+15, 0x1.6c6cbc45dc8dep+13, 0x1.39c6fd67805a7p+20,
            0x1.635e3d74befcap+14, 0x1.2d97c7f3321d2p+2, 0x1.65a1dd290660fp+16,
            0x1.93c05c9ed3cbcp+18, 0x1.9eb0b2ee64e81p+5, 0x1.921fb54442d18p+2,
            0x1.3a28c59d5433bp+5, 0x1.67e57cdd4dc54p+16, 0x1.f6a7a2955385ep+2,
        };
        static const double hard32[] = {
            0x1.f9cbe2p+7, 0x1.f9cbe2p+8, 0x1.2d97c8p+2, 0x1.9a48dep+15,
            0x1.f9cbe2p+9, 0x1.2d97c8p+3, 0x1.9a48dep+16, 0x1.f9cbe2p+10,
            0x1.04ccbcp+18, 0x1.c463acp+3, 0x1.921fb6p+0, 0x1.2d97c8p+4,
            0x1.17cc50p+11, 0x1.78fdbap+4, 0x1.9a48dep+17, 0x1.f9cbe2p+11,
            0x1.04ccbcp+19, 0x1.c463acp+4, 0x1.921fb6p+1, 0x1.ae65f0p+7,
            0x1.2d97c8p+5, 0x1.bd4268p+15, 0x1.2298eap+8, 0x1.87331ap+19,
        };
        for (int i = 0; i < 24; i++) {
            push(in, dbl ? hard64[i] : hard32[i], 0, dbl);
            push(in, dbl ? -hard64[i] : -hard32[i], 0, dbl);
        }
        /* ... and the representable numbers nearest to k pi/2 and their
         * neighbours */
        for (int k = 1; k * 1.5707963267948966 < 1e5; k += dbl ? 1 : 3) {
            long double t = k * 1.570796326794896619231321691639751442L;
            double x = dbl ? (double)t : (float)t;
            double ulp = (double)ulp_at(x, dbl);
            for (int d = -1; d <= 1; d++)
                push(in, x + d * ulp, 0, dbl);
        }
    }
    size_t pad = (16 - in->n % 16) % 16; /* vector loops want whole vectors */
    for (size_t i = 0; i < pad; i++)
        push(in, 1, 1, dbl);
}

/* ---- IR construction ---------------------------------------------------- */

static void fn_name(char *buf, size_t n, const struct fn *f, const struct variant *v)
{
    snprintf(buf, n, "%s_%s", f->name, v->name);
}

/* void NAME(ptr a, ptr b, ptr out, i64 n): out[i] = fn(a[i], b[i]) for i < n,
 * where an element is a scalar or a <W x T> vector; n > 0. */
static void build_loop(LLVMModuleRef m, const struct fn *f, const struct variant *v)
{
    LLVMContextRef c = LLVMGetModuleContext(m);
    LLVMTypeRef et = v->dbl ? LLVMDoubleTypeInContext(c) : LLVMFloatTypeInContext(c);
    LLVMTypeRef t = v->width > 1 ? LLVMVectorType(et, v->width) : et;
    LLVMTypeRef ptr = LLVMPointerTypeInContext(c, 0);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(c);
    LLVMTypeRef params[] = {ptr, ptr, ptr, i64};
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(c), params, 4, 0);
    char name[64];
    fn_name(name, sizeof name, f, v);
    LLVMValueRef fn = LLVMAddFunction(m, name, fty);
    unsigned noalias = LLVMGetEnumAttributeKindForName("noalias", 7);
    for (unsigned i = 1; i <= 3; i++)
        LLVMAddAttributeAtIndex(fn, i, LLVMCreateEnumAttribute(c, noalias, 0));

    LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(c, fn, "entry");
    LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(c, fn, "loop");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c, fn, "done");
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
    LLVMPositionBuilderAtEnd(b, entry);
    LLVMBuildBr(b, loop);

    LLVMPositionBuilderAtEnd(b, loop);
    LLVMValueRef i = LLVMBuildPhi(b, i64, "i");
    LLVMValueRef args[2];
    for (int k = 0; k < 2; k++) {
        LLVMValueRef p = LLVMBuildGEP2(b, t, LLVMGetParam(fn, (unsigned)k), &i, 1, "");
        args[k] = LLVMBuildLoad2(b, t, p, "");
        LLVMSetAlignment(args[k], v->dbl ? 8 : 4);
    }
    LLVMValueRef r = f->emit1 ? f->emit1(b, args[0]) : f->emit2(b, args[0], args[1]);
    LLVMValueRef po = LLVMBuildGEP2(b, t, LLVMGetParam(fn, 2), &i, 1, "");
    LLVMSetAlignment(LLVMBuildStore(b, r, po), v->dbl ? 8 : 4);
    LLVMValueRef next = LLVMBuildAdd(b, i, LLVMConstInt(i64, 1, 0), "");
    LLVMValueRef more = LLVMBuildICmp(b, LLVMIntULT, next, LLVMGetParam(fn, 3), "");
    LLVMBuildCondBr(b, more, loop, done);
    LLVMValueRef zero = LLVMConstInt(i64, 0, 0);
    LLVMBasicBlockRef from[] = {entry, loop};
    LLVMValueRef vals[] = {zero, next};
    LLVMAddIncoming(i, vals, from, 2);

    LLVMPositionBuilderAtEnd(b, done);
    LLVMBuildRetVoid(b);
    LLVMDisposeBuilder(b);
}

/* Calls anything but an intrinsic; prints the offenders. */
static int count_external_calls(LLVMModuleRef m)
{
    int bad = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
                if (!LLVMIsACallInst(in) && !LLVMIsAInvokeInst(in))
                    continue;
                LLVMValueRef callee = LLVMGetCalledValue(in);
                if (LLVMIsAFunction(callee) && LLVMGetIntrinsicID(callee) != 0)
                    continue;
                size_t len;
                const char *nm = LLVMIsAFunction(callee) ? LLVMGetValueName2(callee, &len) : "(indirect)";
                fprintf(stderr, "error: %s calls %s\n", LLVMGetValueName2(fn, &len), nm);
                bad++;
            }
    return bad;
}

/* Undefined symbols in the object code tm makes of (a copy of) m; prints
 * them unless quiet.  An undefined symbol is one outside every section, except the file
 * symbol, which carries the module's source file name. */
static int count_undefined_symbols(LLVMModuleRef m, LLVMTargetMachineRef tm,
                                   bool quiet)
{
    LLVMModuleRef copy = LLVMCloneModule(m);
    LLVMMemoryBufferRef buf;
    char *err = NULL;
    if (LLVMTargetMachineEmitToMemoryBuffer(tm, copy, LLVMObjectFile, &err, &buf)) {
        fprintf(stderr, "error: codegen: %s\n", err);
        LLVMDisposeMessage(err);
        LLVMDisposeModule(copy);
        return 1;
    }
    size_t srclen;
    const char *src = LLVMGetSourceFileName(m, &srclen);
    LLVMBinaryRef bin = LLVMCreateBinary(buf, LLVMGetModuleContext(m), &err);
    if (!bin) {
        fprintf(stderr, "error: object: %s\n", err);
        LLVMDisposeMessage(err);
        LLVMDisposeMemoryBuffer(buf);
        LLVMDisposeModule(copy);
        return 1;
    }
    int bad = 0;
    LLVMSymbolIteratorRef sym = LLVMObjectFileCopySymbolIterator(bin);
    LLVMSectionIteratorRef sec = LLVMObjectFileCopySectionIterator(bin);
    for (; !LLVMObjectFileIsSymbolIteratorAtEnd(bin, sym); LLVMMoveToNextSymbol(sym)) {
        const char *name = LLVMGetSymbolName(sym);
        LLVMMoveToContainingSection(sec, sym);
        if (!LLVMObjectFileIsSectionIteratorAtEnd(bin, sec) || !*name ||
            (strlen(name) == srclen && memcmp(name, src, srclen) == 0))
            continue;
        if (!quiet)
            fprintf(stderr, "error: object code refers to %s\n", name);
        bad++;
    }
    LLVMDisposeSectionIterator(sec);
    LLVMDisposeSymbolIterator(sym);
    LLVMDisposeBinary(bin);
    LLVMDisposeMemoryBuffer(buf);
    LLVMDisposeModule(copy);
    return bad;
}

/* Whether the function contains an instruction of vector type. */
static bool has_vector_code(LLVMValueRef fn)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in))
            if (LLVMGetTypeKind(LLVMTypeOf(in)) == LLVMVectorTypeKind)
                return true;
    return false;
}

/* ---- JIT ---------------------------------------------------------------- */

struct cpu {
    const char *label;
    const char *name, *features;
};

static LLVMTargetMachineRef make_tm(const struct cpu *cpu)
{
    char *triple = LLVMGetDefaultTargetTriple();
    LLVMTargetRef target;
    char *err = NULL;
    if (LLVMGetTargetFromTriple(triple, &target, &err)) {
        fprintf(stderr, "target: %s\n", err);
        exit(2);
    }
    LLVMTargetMachineRef tm = LLVMCreateTargetMachine(
        target, triple, cpu->name, cpu->features, LLVMCodeGenLevelDefault,
        LLVMRelocDefault, LLVMCodeModelJITDefault);
    LLVMDisposeMessage(triple);
    return tm;
}

static bool check_err(LLVMErrorRef err, const char *what)
{
    if (!err)
        return true;
    char *msg = LLVMGetErrorMessage(err);
    fprintf(stderr, "error: %s: %s\n", what, msg);
    LLVMDisposeErrorMessage(msg);
    return false;
}

typedef void (*Kernel)(const void *, const void *, void *, int64_t);

struct jit {
    LLVMOrcLLJITRef jit;
    LLVMOrcThreadSafeContextRef tsc;
    bool ok;
    bool vectorized[NFN][NVAR];
};

/* Builds, checks, optimizes and JIT-compiles every function for one CPU. */
static void jit_start(struct jit *j, const struct cpu *cpu)
{
    memset(j, 0, sizeof *j);
    j->tsc = LLVMOrcCreateNewThreadSafeContext();
    LLVMContextRef c = LLVMOrcThreadSafeContextGetContext(j->tsc);
    LLVMModuleRef m = LLVMModuleCreateWithNameInContext("test_math", c);
    LLVMTargetMachineRef tm = make_tm(cpu);
    char *triple = LLVMGetTargetMachineTriple(tm);
    LLVMSetTarget(m, triple);
    LLVMDisposeMessage(triple);
    LLVMTargetDataRef dl = LLVMCreateTargetDataLayout(tm);
    LLVMSetModuleDataLayout(m, dl);
    LLVMDisposeTargetData(dl);
    for (int f = 0; f < NFN; f++)
        for (int v = 0; v < NVAR; v++)
            build_loop(m, &FNS[f], &VARIANTS[v]);

    char *msg = NULL;
    j->ok = true;
    if (LLVMVerifyModule(m, LLVMReturnStatusAction, &msg)) {
        fprintf(stderr, "error: invalid IR: %s\n", msg);
        j->ok = false;
    }
    LLVMDisposeMessage(msg);
    if (count_external_calls(m))
        j->ok = false;
    LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
    j->ok &= check_err(LLVMRunPasses(m, "default<O2>", tm, po), "passes");
    LLVMDisposePassBuilderOptions(po);
    LLVMDisposeTargetMachine(tm);
    if (count_external_calls(m))
        j->ok = false;
    for (int f = 0; f < NFN; f++)
        for (int v = 0; v < NVAR; v++) {
            char name[64];
            fn_name(name, sizeof name, &FNS[f], &VARIANTS[v]);
            j->vectorized[f][v] = has_vector_code(LLVMGetNamedFunction(m, name));
        }
    if (getenv("TEST_MATH_DUMP"))
        LLVMDumpModule(m);
    LLVMTargetMachineRef otm = make_tm(cpu);
    if (count_undefined_symbols(m, otm, false))
        j->ok = false;
    LLVMDisposeTargetMachine(otm);

    LLVMOrcLLJITBuilderRef jb = LLVMOrcCreateLLJITBuilder();
    LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(
        jb, LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(make_tm(cpu)));
    if (!check_err(LLVMOrcCreateLLJIT(&j->jit, jb), "LLJIT")) {
        j->ok = false;
        j->jit = NULL;
        LLVMOrcDisposeThreadSafeModule(LLVMOrcCreateNewThreadSafeModule(m, j->tsc));
        return;
    }
    LLVMOrcThreadSafeModuleRef tsm = LLVMOrcCreateNewThreadSafeModule(m, j->tsc);
    j->ok &= check_err(LLVMOrcLLJITAddLLVMIRModule(
                           j->jit, LLVMOrcLLJITGetMainJITDylib(j->jit), tsm),
                       "add module");
}

static Kernel jit_lookup(struct jit *j, const struct fn *f, const struct variant *v)
{
    if (!j->jit)
        return NULL;
    char name[64];
    fn_name(name, sizeof name, f, v);
    LLVMOrcExecutorAddress addr = 0;
    if (!check_err(LLVMOrcLLJITLookup(j->jit, &addr, name), name))
        return NULL;
    Kernel k;
    memcpy(&k, &(void *){(void *)(uintptr_t)addr}, sizeof k);
    return k;
}

static void jit_stop(struct jit *j)
{
    if (j->jit)
        LLVMOrcDisposeLLJIT(j->jit);
    LLVMOrcDisposeThreadSafeContext(j->tsc);
}

/* The undefined-symbol detector finds the libm call that llvm.pow becomes on
 * every target. */
static bool detector_works(const struct cpu *cpu)
{
    LLVMContextRef c = LLVMContextCreate();
    LLVMModuleRef m = LLVMModuleCreateWithNameInContext("self_check", c);
    LLVMTypeRef d = LLVMDoubleTypeInContext(c);
    LLVMTypeRef params[] = {d, d};
    LLVMValueRef fn = LLVMAddFunction(m, "f", LLVMFunctionType(d, params, 2, 0));
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(c, fn, "entry"));
    unsigned id = LLVMLookupIntrinsicID("llvm.pow", 8);
    LLVMValueRef pw = LLVMGetIntrinsicDeclaration(m, id, &d, 1);
    LLVMValueRef args[] = {LLVMGetParam(fn, 0), LLVMGetParam(fn, 1)};
    LLVMBuildRet(b, LLVMBuildCall2(b, LLVMIntrinsicGetType(c, id, &d, 1), pw, args, 2, ""));
    LLVMDisposeBuilder(b);
    LLVMTargetMachineRef tm = make_tm(cpu);
    bool found = count_undefined_symbols(m, tm, true) > 0;
    LLVMDisposeTargetMachine(tm);
    LLVMDisposeModule(m);
    LLVMContextDispose(c);
    return found;
}

/* ---- measurement -------------------------------------------------------- */

static double now_ns(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* ns per element, best of five runs over 2^16 values spread over the
 * function's second (typical) sweep interval, far from subnormals, whose
 * microcode assists would dominate otherwise. */
static double bench(Kernel k, const struct fn *f, const struct variant *v)
{
    enum { N = 1 << 16 };
    static double a[N], b[N], o[N];
    const double *iv = f->sweep[v->dbl][1];
    for (size_t i = 0; i < N; i++) {
        double x = iv[0] + (iv[1] - iv[0]) * ((double)i + 0.5) / N;
        double y = f->gen == GEN_POW ? 0.5 + (double)i / N : 1.0 - x;
        if (v->dbl) {
            a[i] = x, b[i] = y;
        } else {
            ((float *)a)[i] = (float)x, ((float *)b)[i] = (float)y;
        }
    }
    double best = 1e30;
    for (int rep = 0; rep < 5; rep++) {
        double t0 = now_ns();
        k(a, b, o, (int64_t)(N / v->width));
        double t = (now_ns() - t0) / N;
        best = t < best ? t : best;
    }
    return best;
}

struct result {
    double max_ulp;
    double worst_a, worst_b;
    long double worst_ref, worst_got;
    bool ok;
    double ns; /* per element, when benchmarking */
};

static struct result measure(Kernel k, const struct fn *f, const struct variant *v,
                             const struct inputs *in, const long double *ref)
{
    struct result r = {0, 0, 0, 0, 0, false, 0};
    size_t n = in->n, es = v->dbl ? 8 : 4;
    char *a = malloc(n * es), *b = malloc(n * es), *o = malloc(n * es);
    if (!a || !b || !o) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    for (size_t i = 0; i < n; i++) {
        if (v->dbl) {
            memcpy(a + i * 8, &in->a[i], 8);
            memcpy(b + i * 8, &in->b[i], 8);
        } else {
            float x = (float)in->a[i], y = (float)in->b[i];
            memcpy(a + i * 4, &x, 4);
            memcpy(b + i * 4, &y, 4);
        }
    }
    k(a, b, o, (int64_t)(n / v->width));
    if (getenv("TEST_MATH_BENCH"))
        r.ns = bench(k, f, v);
    for (size_t i = 0; i < n; i++) {
        long double got;
        if (v->dbl) {
            double d;
            memcpy(&d, o + i * 8, 8);
            got = d;
        } else {
            float x;
            memcpy(&x, o + i * 4, 4);
            got = x;
        }
        double e = ulp_err(got, ref[i], v->dbl);
        if (f->limit > 0 && !(in->a[i] > -f->limit && in->a[i] < f->limit))
            e = is_nan(got) == is_nan(ref[i]) ? 0 : 1e9;
        if (e > r.max_ulp || (e != e)) {
            r.max_ulp = e;
            r.worst_a = in->a[i], r.worst_b = in->b[i];
            r.worst_ref = ref[i], r.worst_got = got;
        }
    }
    r.ok = r.max_ulp <= f->budget;
    free(a), free(b), free(o);
    return r;
}

int main(int argc, char **argv)
{
    size_t npts = argc > 1 ? (size_t)strtoull(argv[1], NULL, 10) : 200000;
    LLVMInitializeNativeTarget();
    LLVMInitializeNativeAsmPrinter();

    char *triple = LLVMGetDefaultTargetTriple();
    bool x86 = strncmp(triple, "x86_64", 6) == 0;
    LLVMDisposeMessage(triple);
    char *host = LLVMGetHostCPUName(), *host_features = LLVMGetHostCPUFeatures();
    struct cpu cpus[2] = {
        {"host", host, host_features},
        {"base", x86 ? "x86-64" : "generic", ""},
    };
    printf("cpu host = %s; base = %s\n", cpus[0].name, cpus[1].name);
    if (!detector_works(&cpus[1])) {
        printf("FAIL: the undefined-symbol check does not see a pow call\n");
        return 1;
    }
    printf("self-check: a call to pow in object code is detected\n");
    static struct jit jits[2];
    for (int c = 0; c < 2; c++)
        jit_start(&jits[c], &cpus[c]);

    for (int f = 0; f < NFN; f++) {
        const struct fn *fn = &FNS[f];
        for (int p = 0; p < 2; p++) { /* float, double inputs */
            struct inputs in = {0};
            gen_inputs(fn, p == 1, npts, &in);
            long double *ref = malloc(in.n * sizeof *ref);
            if (!ref)
                return 2;
            for (size_t i = 0; i < in.n; i++)
                ref[i] = fn->ref1 ? fn->ref1(in.a[i]) : fn->ref2(in.a[i], in.b[i]);
            for (int v = 0; v < NVAR; v++) {
                if (VARIANTS[v].dbl != (p == 1))
                    continue;
                bool pair_ok = true;
                for (int c = 0; c < 2; c++) {
                    Kernel k = jits[c].ok ? jit_lookup(&jits[c], fn, &VARIANTS[v]) : NULL;
                    if (!k) {
                        printf("%-8s %-6s %-4s: FAIL (no code)\n", fn->name, VARIANTS[v].name, cpus[c].label);
                        pair_ok = false;
                        continue;
                    }
                    struct result r = measure(k, fn, &VARIANTS[v], &in, ref);
                    printf("%-8s %-6s %-4s: max %.3f ulp over %zu inputs%s",
                           fn->name, VARIANTS[v].name, cpus[c].label, r.max_ulp, in.n,
                           VARIANTS[v].width == 1
                               ? (jits[c].vectorized[f][v] ? ", loop vectorized" : ", loop NOT vectorized")
                               : "");
                    if (r.max_ulp > 0.5 && fn->emit2)
                        printf(" (worst at %a, %a: got %.17Lg want %.20Lg)", r.worst_a,
                               r.worst_b, r.worst_got, r.worst_ref);
                    else if (r.max_ulp > 0.5)
                        printf(" (worst at %a: got %.17Lg want %.20Lg)", r.worst_a,
                               r.worst_got, r.worst_ref);
                    if (r.ns > 0)
                        printf(" [%.2f ns/elem]", r.ns);
                    printf("%s\n", r.ok ? "" : "  FAIL");
                    pair_ok &= r.ok;
                }
                EXPECT(pair_ok);
            }
            free(ref);
            free(in.a);
            free(in.b);
        }
    }
    for (int c = 0; c < 2; c++)
        jit_stop(&jits[c]);
    LLVMDisposeMessage(host);
    LLVMDisposeMessage(host_features);
    return unit_report();
}
