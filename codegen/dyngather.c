/*
 * dyngather.c: gather and dynamic_gather in an entry with symbolic sizes
 * (dyndims.c). The result is computed elementally into its buffer by the
 * static path's cg_gather_at, reading with cg_value_at and cg_dim (sizes
 * evaluated at entry, CG.symx); only the clamp bounds differ: operand sizes and,
 * for dynamic_gather, slice sizes known at run time. The entry has checked
 * 0 <= slice_sizes <= shape(operand) (passes/symbolic.c), so every bound
 * is >= 0 and every read stays inside the operand.
 */
#include "codegen.h"

enum { MAX_RANK = 64 };

/* slice_sizes[d] as an i64: gather's attribute, or element d of
 * dynamic_gather's slice_sizes operand (spec "dynamic_gather": gather with
 * slice_sizes given as a value). */
static LLVMValueRef slice_size(CG *cg, Op *op, int d) {
  if (op->code == OP_GATHER) return cg_i64(cg, op->a.gather.slice_sizes.v[d]);
  Value *s = op->opnds[2];
  LLVMValueRef k = cg_i64(cg, d);
  return cg_convert(cg, cg_value_at(cg, s, &k), s->type->elem, ET_SI64);
}

bool cg_symbolic_gather(CG *cg, Op *op) {
  Value *x = op->opnds[0], *r = op->results[0];
  LLVMValueRef hi[MAX_RANK], idx[MAX_RANK];
  CgLoop loops[MAX_RANK];
  /* The bounds once, outside the loops: dim(operand, d) - slice_sizes[d]. */
  for (int d = 0; d < x->type->rank; d++) {
    LLVMValueRef size = slice_size(cg, op, d);
    hi[d] = LLVMBuildSub(cg->b, cg_dim(cg, x, d), size, "");
  }
  int n = cg_nest_begin(cg, r, idx, loops);
  cg_store_at(cg, r, idx, cg_gather_at(cg, op, idx, hi));
  cg_nest_end(cg, loops, n);
  return true;
}
