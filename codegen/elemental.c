/*
 * elemental.c: the value of a tensor at an index (cg_value_at), and the
 * one table of what codegen has for each op: its elemental generator, its
 * own kernel, and how kernel.c may split that kernel across threads.
 *
 * A value with storage is read from memory (memory.c); a fused value is
 * recomputed by the generator of the op defining it, which reads its own
 * operands with cg_value_at: the one cycle of the codegen layers (value ->
 * generator -> value), which ends at values with storage.
 */
#include <stdlib.h>

#include "codegen.h"

/* A value of a row kernel kept in its row buffer, at idx (a row
 * element: [i, j] reads element j of the row buffer). */
static LLVMValueRef row_cached(CG *cg, Value *v, LLVMValueRef *idx) {
  CgRowCache *c = &cg->rowcache[v->id];
  LLVMValueRef j = idx[v->type->rank - 1];
  if (c->filled) return cg_load(cg, c->ptr, v->type->elem, j);
  LLVMValueRef out[v->def->nresults];
  cg_gen(cg, v->def, idx, out);
  cg_store(cg, c->ptr, v->type->elem, j, out[v->index]);
  c->written = true;
  return out[v->index];
}

LLVMValueRef cg_value_at(CG *cg, Value *v, LLVMValueRef *idx) {
  if (v->id >= 0 && cg->scalar[v->id]) return cg->scalar[v->id];
  if (v->storage != ST_NONE) return cg_stored_value(cg, v, idx);
  if (!v->def) {
    fprintf(stderr, "shloc: internal error: block argument %%%d has no buffer\n",
            v->id);
    abort();
  }
  if (cg->rowcache && v->id >= 0 && cg->rowcache[v->id].ptr) return row_cached(cg, v, idx);
  LLVMValueRef out[v->def->nresults];
  cg_gen(cg, v->def, idx, out);
  return out[v->index];
}

/* ------------------------------------------------------------------------ */
/* Generators defined here                                                   */

/* Elementwise ops: operands at the same index; a rank-0 operand of
 * select/clamp (spec "select", "clamp": pred[] / min[] / max[]) is read at
 * the empty index. cg_scalar_op reports the element types it lacks. */
static LLVMValueRef gen_elementwise(CG *cg, Op *op, LLVMValueRef *idx) {
  LLVMValueRef args[3];
  int rank = op->results[0]->type->rank;
  for (int i = 0; i < op->nopnds && i < 3; i++) {
    Value *v = op->opnds[i];
    args[i] = cg_value_at(cg, v, v->type->rank == rank ? idx : NULL);
  }
  return cg_scalar_op(cg, op, args);
}

/* spec "map": the computation applied to the inputs at the same index
 * (dimensions are all of them, (C1) of map). */
static LLVMValueRef gen_map(CG *cg, Op *op, LLVMValueRef *idx) {
  LLVMValueRef args[op->nopnds > 0 ? op->nopnds : 1], r;
  for (int i = 0; i < op->nopnds; i++) args[i] = cg_value_at(cg, op->opnds[i], idx);
  cg_region_scalar(cg, op->regions[0], args, &r);
  return r;
}

/* ------------------------------------------------------------------------ */
/* The table                                                                 */

/* Every op with OPF_IMPL that reaches codegen as a kernel root or a fused
 * value has a row here (tests/unit/test_optable.c checks it), except the
 * elementwise ops, which all share gen_elementwise and have their scalar
 * rules in elementwise.c and complex.c. */
static const CgOpImpl IMPLS[OP_COUNT] = {
    /* Data movement (movement.c, gather.c): operand elements at an index
     * mapped from the result index. */
    [OP_BITCAST_CONVERT] = {.value = cg_gen_bitcast_convert},
    [OP_BROADCAST] = {.value = cg_gen_broadcast},
    [OP_BROADCAST_IN_DIM] = {.value = cg_gen_broadcast_in_dim},
    [OP_CONCATENATE] = {.value = cg_gen_concatenate, .no_speculation = true},
    [OP_CONSTANT] = {.value = cg_gen_constant},
    [OP_DYNAMIC_SLICE] = {.value = cg_gen_dynamic_slice},
    [OP_DYNAMIC_UPDATE_SLICE] = {.value = cg_gen_dynamic_update_slice},
    [OP_GATHER] = {.value = cg_gen_gather, .no_speculation = true},
    [OP_IOTA] = {.value = cg_gen_iota},
    [OP_PAD] = {.value = cg_gen_pad, .no_speculation = true},
    [OP_RESHAPE] = {.value = cg_gen_reshape},
    [OP_REVERSE] = {.value = cg_gen_reverse},
    [OP_SLICE] = {.value = cg_gen_slice},
    [OP_TRANSPOSE] = {.value = cg_gen_transpose},
    /* Regions applied per element, reductions and contractions: the
     * generator loops; some have a faster kernel as a root. */
    [OP_MAP] = {.value = gen_map},
    [OP_REDUCE] = {.values = cg_gen_reduce, .kernel = cg_kernel_reduce},
    [OP_REDUCE_WINDOW] = {.values = cg_gen_reduce_window},
    [OP_DOT_GENERAL] = {.value = cg_gen_dot, .gemm = cg_kernel_dot,
                        .split = CG_SPLIT_DOT, .no_speculation = true},
    [OP_CONVOLUTION] = {.value = cg_gen_conv, .gemm = cg_kernel_conv,
                        .split = CG_SPLIT_CONV, .no_speculation = true},
    /* Not elemental: kernels of their own. */
    [OP_CHOLESKY] = {.kernel = cg_kernel_cholesky, .split = CG_SPLIT_BATCH},
    [OP_FFT] = {.kernel = cg_kernel_fft, .split = CG_SPLIT_BATCH},
    [OP_RNG_BIT_GENERATOR] = {.kernel = cg_kernel_rng_bit_generator,
                              .split = CG_SPLIT_NEVER},
    [OP_SCATTER] = {.kernel = cg_kernel_scatter, .split = CG_SPLIT_NEVER},
    [OP_SELECT_AND_SCATTER] = {.kernel = cg_kernel_select_and_scatter,
                               .split = CG_SPLIT_NEVER},
    [OP_SORT] = {.kernel = cg_kernel_sort, .split = CG_SPLIT_UNSORTED},
    [OP_TRIANGULAR_SOLVE] = {.kernel = cg_kernel_triangular_solve,
                             .split = CG_SPLIT_BATCH},
};

static const CgOpImpl ELEMENTWISE = {.value = gen_elementwise};

const CgOpImpl *cg_op_impl(OpCode c) {
  return ir_is_elementwise(c) ? &ELEMENTWISE : &IMPLS[c];
}

int cg_split_dim(const Type *t) {
  for (int d = 0; d < t->rank; d++)
    if (t->dims[d] != 1) return d;
  return 0;
}

bool cg_has_impl(OpCode c) {
  static const ElemType classes[] = {ET_F32, ET_SI32, ET_I1, ET_C64};
  if (ir_is_elementwise(c)) {
    for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++)
      if (cg_scalar_has_rule(c, classes[i])) return true;
    return false;
  }
  const CgOpImpl *impl = &IMPLS[c];
  return impl->value || impl->values || impl->kernel || impl->gemm;
}

void cg_gen(CG *cg, Op *op, LLVMValueRef *idx, LLVMValueRef *out) {
  const CgOpImpl *impl = cg_op_impl(op->code);
  if (impl->value) {
    out[0] = impl->value(cg, op, idx);
  } else if (impl->values) {
    impl->values(cg, op, idx, out);
  } else {
    cg_unsupported(cg, op, NULL);
    for (int i = 0; i < op->nresults; i++)
      out[i] = LLVMGetPoison(cg_scalar_type(cg, op->results[i]->type->elem));
  }
}
