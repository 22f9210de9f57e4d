/* vmath.h - elementary functions emitted as inline LLVM IR.
 *
 * Generated code never calls libm: every function below emits straight-line
 * IR (polynomials, integer bit manipulation, selects on masks; no branches,
 * no calls other than the intrinsics llvm.fabs, llvm.copysign, llvm.sqrt and
 * llvm.fmuladd, which every target lowers to instructions) so that the loop
 * vectorizer can widen loops that use them.  No table lookups either.
 *
 * Preconditions for every math_<name>(b, x[, y]):
 *  - b is positioned inside a function's basic block (the intrinsic
 *    declarations are added to that function's module);
 *  - x (and y) have the type float, double, <N x float> or <N x double>, and
 *    for the two-operand functions y has the same type as x.
 * The result has the type of x.  IEEE special cases (NaN, +-inf, +-0,
 * overflow, underflow, subnormals) follow C99 Annex F.
 *
 * Accuracy (see tests/unit/test_math.c, which measures it against long double
 * libm): within 2 ULP of the exact result for the whole domain (measured:
 * at most 1.5), except sin/cos/tan, which are accurate for |x| < 1.6e6 only
 * (vmath.c says why).
 * float is computed in double precision and rounded once at the end, except
 * exp, log, tanh and logistic, which have native float paths (twice the
 * SIMD lanes) within 1.2 ULP.
 *
 * The default rounding mode (to nearest) is assumed, as in all of LLVM's
 * non-constrained floating point, and no fast-math flags may be put on the
 * emitted instructions (reassociation or contraction breaks the exact
 * two-sum/two-product steps).
 *
 * The file name shadows the C library's: include it as "math.h" from
 * codegen/ or by a relative path, and do not put codegen/ on the include
 * path with -I (use -iquote), or <math.h> elsewhere finds this file.
 */
#ifndef SHLOC_CODEGEN_MATH_H
#define SHLOC_CODEGEN_MATH_H

#include <llvm-c/Core.h>

/* A constant of type ty (float, double or a fixed vector of them, splatted). */
LLVMValueRef math_const(LLVMTypeRef ty, double v);

LLVMValueRef math_exp(LLVMBuilderRef b, LLVMValueRef x);
LLVMValueRef math_expm1(LLVMBuilderRef b, LLVMValueRef x);
LLVMValueRef math_log(LLVMBuilderRef b, LLVMValueRef x);
LLVMValueRef math_log1p(LLVMBuilderRef b, LLVMValueRef x);
LLVMValueRef math_sin(LLVMBuilderRef b, LLVMValueRef x);
LLVMValueRef math_cos(LLVMBuilderRef b, LLVMValueRef x);
LLVMValueRef math_tan(LLVMBuilderRef b, LLVMValueRef x);
LLVMValueRef math_tanh(LLVMBuilderRef b, LLVMValueRef x);
/* 1 / (1 + exp(-x)) */
LLVMValueRef math_logistic(LLVMBuilderRef b, LLVMValueRef x);
/* The angle of the point (x, y), in [-pi, pi]; note the operand order. */
LLVMValueRef math_atan2(LLVMBuilderRef b, LLVMValueRef y, LLVMValueRef x);
LLVMValueRef math_cbrt(LLVMBuilderRef b, LLVMValueRef x);
/* x raised to y */
LLVMValueRef math_pow(LLVMBuilderRef b, LLVMValueRef x, LLVMValueRef y);
/* 1 / sqrt(x) */
LLVMValueRef math_rsqrt(LLVMBuilderRef b, LLVMValueRef x);
LLVMValueRef math_erf(LLVMBuilderRef b, LLVMValueRef x);
/* 1 - erf(x) for float x only (chlo.erfc of f32, passes/chlo.c): Cephes'
 * erfcf as chlo.c decomposed it before, outside the 2 ULP bound above:
 * against math.erfc on 2e5 points of [-10, 10], mean 2.9 ULP, at most 64
 * where exp(-x^2) nears underflow (x > 8.5), as the decomposition. */
LLVMValueRef math_erfcf(LLVMBuilderRef b, LLVMValueRef x);

#endif
