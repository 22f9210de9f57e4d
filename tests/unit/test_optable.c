/* Unit tests of the op table against what the compiler has for each op:
 * every op marked implemented (OPF_IMPL) has verifier rules and, unless it
 * is emitted in the entry function or rewritten before codegen, what
 * codegen needs to compile it (codegen/elemental.c's table, or for an
 * elementwise op a scalar rule); codegen has nothing for the other ops, so
 * the flag and the code cannot drift apart. Prints only failures, then
 * `N passed, N failed`. */
#include "unit.h"
#include "codegen/codegen.h"

#define EXPECT_OP(cond, c, what) expect_op(__LINE__, (cond), (c), (what))
static void expect_op(int line, bool ok, OpCode c, const char *what) {
  if (ok) {
    passed++;
    return;
  }
  failed++;
  printf("FAIL %s:%d: %s %s\n", __FILE__, line, op_name(c), what);
}

/* Compiled by codegen when it reaches it: not emitted in the entry
 * function, and not stablehlo.dot (legalize rewrites it to dot_general). */
static bool compiled_by_codegen(OpCode c) {
  return !ir_is_entry_op(c) && c != OP_DOT;
}

static void test_implemented_ops_have_verifier_rules(void) {
  for (int i = 0; i < OP_COUNT; i++) {
    OpCode c = (OpCode)i;
    if (op_flags(c) & OPF_IMPL) EXPECT_OP(verify_has_rules(c), c, "has no verifier rules");
  }
}

static void test_codegen_has_exactly_the_implemented_ops(void) {
  for (int i = 0; i < OP_COUNT; i++) {
    OpCode c = (OpCode)i;
    if (!compiled_by_codegen(c)) continue;
    if (op_flags(c) & OPF_IMPL)
      EXPECT_OP(cg_has_impl(c), c, "is marked implemented but codegen lacks it");
    else
      EXPECT_OP(!cg_has_impl(c), c, "has code in codegen but is not marked implemented");
  }
}

/* The classes of the op table agree with the codegen table. */
static void test_op_classes_match_codegen(void) {
  for (int i = 0; i < OP_COUNT; i++) {
    OpCode c = (OpCode)i;
    if (!(op_flags(c) & OPF_IMPL) || !compiled_by_codegen(c)) continue;
    const CgOpImpl *impl = cg_op_impl(c);
    if (ir_is_gemm(c)) EXPECT_OP(impl->gemm != NULL, c, "is OPF_GEMM without a GEMM kernel");
    if (impl->gemm) EXPECT_OP(ir_is_gemm(c), c, "has a GEMM kernel but is not OPF_GEMM");
    /* Operands never fused into it: it runs its own kernel on buffers. */
    if (ir_reads_buffers(c))
      EXPECT_OP(impl->kernel || impl->gemm, c, "reads buffers but has no kernel");
    if (impl->split != CG_SPLIT_ANY)
      EXPECT_OP(impl->kernel || impl->gemm, c, "has a thread split but no kernel");
    /* Fused into its consumers: computed per element. */
    if (ir_is_fusible(c))
      EXPECT_OP(impl->value || impl->values, c, "is fusible without a generator");
    /* Transcendentals, divide, remainder, roots: defined on floats. */
    if (ir_is_elementwise(c) && ir_is_costly(c))
      EXPECT_OP(cg_scalar_has_rule(c, ET_F32), c, "is costly without a float rule");
  }
}

int main(void) {
  test_implemented_ops_have_verifier_rules();
  test_codegen_has_exactly_the_implemented_ops();
  test_op_classes_match_codegen();
  return unit_report();
}
