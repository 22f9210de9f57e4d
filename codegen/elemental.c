/*
 * elemental.c: the value of a tensor at an index (cg_value_at) and the
 * dispatch from an op to its elemental generator (cg_gen).
 *
 * A value with storage is read from memory (memory.c); a fused value is
 * recomputed by the generator of the op defining it, which reads its own
 * operands with cg_value_at: the one cycle of the codegen layers (value ->
 * generator -> value), which ends at values with storage.
 */
#include <stdlib.h>

#include "codegen.h"

LLVMValueRef cg_value_at(CG *cg, Value *v, LLVMValueRef *idx) {
  if (v->id >= 0 && cg->scalar[v->id]) return cg->scalar[v->id];
  if (v->storage != ST_NONE) return cg_stored_value(cg, v, idx);
  if (!v->def) {
    fprintf(stderr, "shloc: internal error: block argument %%%d has no buffer\n",
            v->id);
    abort();
  }
  LLVMValueRef out[v->def->nresults];
  cg_gen(cg, v->def, idx, out);
  return out[v->index];
}

/* ------------------------------------------------------------------------ */
/* Dispatch of elemental generators                                          */

static bool is_movement(OpCode c) {
  switch (c) {
  case OP_BROADCAST_IN_DIM: case OP_RESHAPE: case OP_TRANSPOSE: case OP_SLICE:
  case OP_CONCATENATE: case OP_PAD: case OP_REVERSE: case OP_IOTA:
  case OP_CONSTANT: case OP_BITCAST_CONVERT:
    return true;
  default:
    return false;
  }
}

/* Elementwise ops: operands at the same index; a rank-0 operand of
 * select/clamp (spec "select", "clamp": pred[] / min[] / max[]) is read at
 * the empty index. */
static void gen_elementwise(CG *cg, Op *op, LLVMValueRef *idx,
                            LLVMValueRef *out) {
  LLVMValueRef args[3];
  int rank = op->results[0]->type->rank;
  for (int i = 0; i < op->nopnds && i < 3; i++) {
    Value *v = op->opnds[i];
    args[i] = cg_value_at(cg, v, v->type->rank == rank ? idx : NULL);
  }
  out[0] = cg_scalar_op(cg, op, args);
}

static void gen_poison(CG *cg, Op *op, LLVMValueRef *out) {
  for (int i = 0; i < op->nresults; i++)
    out[i] = LLVMGetPoison(cg_scalar_type(cg, op->results[i]->type->elem));
}

/* spec "map": the computation applied to the inputs at the same index
 * (dimensions are all of them, (C1) of map). */
static void gen_map(CG *cg, Op *op, LLVMValueRef *idx, LLVMValueRef *out) {
  LLVMValueRef args[op->nopnds > 0 ? op->nopnds : 1];
  for (int i = 0; i < op->nopnds; i++) args[i] = cg_value_at(cg, op->opnds[i], idx);
  cg_region_scalar(cg, op->regions[0], args, out);
}

void cg_gen(CG *cg, Op *op, LLVMValueRef *idx, LLVMValueRef *out) {
  /* cg_scalar_op reports the element type combinations it lacks. */
  if (ir_is_elementwise(op->code)) {
    gen_elementwise(cg, op, idx, out);
    return;
  }
  if (is_movement(op->code)) {
    cg_gen_movement(cg, op, idx, out);
    return;
  }
  switch (op->code) {
  case OP_MAP: gen_map(cg, op, idx, out); return;
  case OP_REDUCE: cg_gen_reduce(cg, op, idx, out); return;
  case OP_REDUCE_WINDOW: cg_gen_reduce_window(cg, op, idx, out); return;
  case OP_DOT_GENERAL: cg_gen_dot(cg, op, idx, out); return;
  case OP_CONVOLUTION: cg_gen_conv(cg, op, idx, out); return;
  case OP_GATHER: cg_gen_gather(cg, op, idx, out); return;
  case OP_DYNAMIC_SLICE: cg_gen_dynamic_slice(cg, op, idx, out); return;
  case OP_DYNAMIC_UPDATE_SLICE:
    cg_gen_dynamic_update_slice(cg, op, idx, out);
    return;
  default:
    cg_unsupported(cg, op, NULL);
    gen_poison(cg, op, out);
    return;
  }
}
