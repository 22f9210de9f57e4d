/* Cases for tools/eval_order.py (tests/run.py's unit stage; never compiled
 * into a program): it must report each line that ends in "<- site" and no
 * other line. */
#include "../../codegen/codegen.h"

static LLVMValueRef sum(CG *cg, LLVMValueRef x, LLVMValueRef y) {
  LLVMValueRef xy = LLVMBuildAdd(cg->b, x, y, "");
  return LLVMBuildAdd(cg->b, xy, LLVMBuildAdd(cg->b, y, x, ""), ""); /* one emitting argument */
}

static LLVMValueRef cases(CG *cg, LLVMValueRef x, LLVMValueRef y) {
  LLVMValueRef a = sum(cg, LLVMBuildMul(cg->b, x, y, ""), LLVMBuildSub(cg->b, x, y, "")); /* <- site */
  LLVMValueRef b = LLVMBuildAnd(cg->b, a, sum(cg, LLVMBuildNot(cg->b, a, ""), sum(cg, x, y)), ""); /* <- site */
  LLVMValueRef c[2] = {sum(cg, a, b), LLVMBuildNeg(cg->b, a, "")}; /* <- site */
  LLVMValueRef k = LLVMBuildAdd(cg->b, cg_i64(cg, 1), cg_i64(cg, 2), ""); /* constants only */
  return LLVMBuildOr(cg->b, c[0], LLVMBuildXor(cg->b, c[1], k, ""), "");
}

typedef LLVMValueRef (*Gen)(CG *cg, LLVMValueRef x);

static LLVMValueRef through_pointer(CG *cg, Gen gen, LLVMValueRef x) {
  LLVMValueRef y = sum(cg, x, gen(cg, x)); /* one emitting argument */
  return sum(cg, gen(cg, y), LLVMBuildNeg(cg->b, y, "")); /* <- site */
}

/* Contexts found by their fields: one holding the builder, one holding such a struct. */
typedef struct Holder {
  LLVMBuilderRef b;
} Holder;
typedef struct Outer {
  Holder h;
  int n;
} Outer;

static LLVMValueRef neg_h(Holder *h, LLVMValueRef x) { return LLVMBuildNeg(h->b, x, ""); }
static LLVMValueRef neg_o(Outer *o, LLVMValueRef x) { return LLVMBuildNeg(o->h.b, x, ""); }

static LLVMValueRef by_fields(CG *cg, Holder *h, Outer *o, LLVMValueRef x) {
  LLVMValueRef y = sum(cg, x, neg_h(h, x)); /* one emitting argument */
  return sum(cg, neg_h(h, y), neg_o(o, y)); /* <- site */
}

/* shloc's IR: a Builder, a context holding one, a SymInfo that is not const. */
typedef struct Pass {
  Builder b;
} Pass;

static Value *neg_p(Pass *p, Value *x) { return ir_build_unary(&p->b, OP_NEGATE, x); }

static Value *ir_ops(Builder *b, Pass *p, Value *x) {
  Value *y = ir_build_binary(b, OP_ADD, x, neg_p(p, x)); /* one emitting argument */
  return ir_build_binary(b, OP_ADD, neg_p(p, y), ir_build_unary(b, OP_ABS, y)); /* <- site */
}

static const DimExpr *sizes(Module *m, SymInfo *s, const DimExpr *e) {
  const SymInfo *cs = s;
  Arena *a = &m->arena;
  char *t = arena_printf(a, "%s %s", dx_str(a, cs, e), dx_str(a, cs, e)); /* const: reads only */
  return t ? dx_add(m, s, dx_const(m, s, 1), dx_mul(m, s, e, e)) : e; /* <- site */
}
