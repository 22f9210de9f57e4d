/*
 * gather.c: elemental generators of gather, dynamic_slice and
 * dynamic_update_slice. Each maps a result index to an operand index
 * computed from runtime start indices, clamped as the spec says so that
 * every read stays inside the operand. gather's bounds are values (hi,
 * from cg_dim), so the symbolic path (dyngather.c) runs the same code on
 * sizes known at run time.
 */
#include "codegen.h"

/* clamp(0, v, hi) of a start index scalar of element type e, as i64
 * (hi >= 0 is guaranteed by the callers' constraints). Unsigned indices
 * compare unsigned, so ui64 values above INT64_MAX clamp to hi. */
static LLVMValueRef clamp_index(CG *cg, LLVMValueRef v, ElemType e, LLVMValueRef hi) {
  bool sgn = elem_class(e) == 's';
  v = LLVMBuildIntCast2(cg->b, v, cg->t_i64, sgn, "idx");
  if (sgn) {
    LLVMValueRef z = cg_i64(cg, 0);
    v = LLVMBuildSelect(cg->b, LLVMBuildICmp(cg->b, LLVMIntSLT, v, z, ""), z,
                        v, "");
  }
  return LLVMBuildSelect(cg->b, LLVMBuildICmp(cg->b, LLVMIntUGT, v, hi, ""), hi,
                         v, "clamp");
}

/* ------------------------------------------------------------------------ */
/* gather (spec "gather")                                                    */

/* start_indices[bi0, ..., d_start, ..., biN] with d_start inserted at
 * index_vector_dim (or start_indices[batch_index] when index_vector_dim is
 * rank(start_indices)), clamped to [0, hi]. */
static LLVMValueRef gather_start(CG *cg, Op *op, LLVMValueRef *batch,
                                 int d_start, LLVMValueRef hi) {
  const GatherDims *g = &op->a.gather;
  Value *si = op->opnds[1];
  int rank = si->type->rank;
  LLVMValueRef sidx[rank > 0 ? rank : 1];
  int j = 0;
  for (int d = 0; d < rank; d++)
    sidx[d] = d == g->index_vector_dim ? cg_i64(cg, d_start) : batch[j++];
  return clamp_index(cg, cg_value_at(cg, si, sidx), si->type->elem, hi);
}

LLVMValueRef cg_gather_at(CG *cg, Op *op, LLVMValueRef *idx, const LLVMValueRef *hi) {
  const GatherDims *g = &op->a.gather;
  const Type *rt = op->results[0]->type;
  int orank = op->opnds[0]->type->rank;

  /* batch_index = result_index[batch_dims...] */
  LLVMValueRef batch[rt->rank > 0 ? rt->rank : 1];
  int nb = 0;
  for (int d = 0; d < rt->rank; d++)
    if (!ir_list_has(&g->offset_dims, d)) batch[nb++] = idx[d];

  LLVMValueRef oidx[orank > 0 ? orank : 1];
  /* full_offset_index: offset_index with 0 at collapsed and batching dims */
  int k = 0;
  for (int d = 0; d < orank; d++) {
    if (ir_list_has(&g->collapsed_slice_dims, d) ||
        ir_list_has(&g->operand_batching_dims, d))
      oidx[d] = cg_i64(cg, 0);
    else
      oidx[d] = idx[g->offset_dims.v[k++]];
  }
  /* + full_start_index, clamped to [0, dim - slice_size] */
  for (int ds = 0; ds < g->start_index_map.n; ds++) {
    int d = (int)g->start_index_map.v[ds];
    LLVMValueRef s = gather_start(cg, op, batch, ds, hi[d]);
    oidx[d] = LLVMBuildAdd(cg->b, oidx[d], s, "");
  }
  /* + full_batching_index */
  for (int i = 0; i < g->operand_batching_dims.n; i++) {
    int d = (int)g->operand_batching_dims.v[i];
    int64_t ds = g->start_indices_batching_dims.v[i];
    int64_t bi = ds - (ds < g->index_vector_dim ? 0 : 1);
    oidx[d] = LLVMBuildAdd(cg->b, oidx[d], batch[bi], "");
  }
  return cg_value_at(cg, op->opnds[0], oidx);
}

LLVMValueRef cg_gen_gather(CG *cg, Op *op, LLVMValueRef *idx) {
  const Type *ot = op->opnds[0]->type;
  LLVMValueRef hi[ot->rank > 0 ? ot->rank : 1];
  for (int d = 0; d < ot->rank; d++)
    hi[d] = cg_i64(cg, ot->dims[d] - op->a.gather.slice_sizes.v[d]);
  return cg_gather_at(cg, op, idx, hi);
}

/* ------------------------------------------------------------------------ */
/* dynamic_slice (spec "dynamic_slice")                                      */

/* adjusted_start_indices = clamp(0, start_indices, shape(operand) - sizes)
 * (dim and size: cg_dim's, so constants but on symbolic sizes). */
static LLVMValueRef adjusted_start(CG *cg, Value *start, LLVMValueRef dim,
                                   LLVMValueRef size) {
  LLVMValueRef room = LLVMBuildSub(cg->b, dim, size, "");
  return clamp_index(cg, cg_value_at(cg, start, NULL), start->type->elem, room);
}

LLVMValueRef cg_gen_dynamic_slice(CG *cg, Op *op, LLVMValueRef *idx) {
  int rank = op->opnds[0]->type->rank;
  LLVMValueRef oidx[rank > 0 ? rank : 1];
  for (int d = 0; d < rank; d++) {
    LLVMValueRef size = cg_dim(cg, op->results[0], d);
    LLVMValueRef s = adjusted_start(cg, op->opnds[1 + d], cg_dim(cg, op->opnds[0], d), size);
    oidx[d] = LLVMBuildAdd(cg->b, idx[d], s, "");
  }
  return cg_value_at(cg, op->opnds[0], oidx);
}

/* ------------------------------------------------------------------------ */
/* dynamic_update_slice (spec "dynamic_update_slice")                       */

LLVMValueRef cg_gen_dynamic_update_slice(CG *cg, Op *op, LLVMValueRef *idx) {
  Value *operand = op->opnds[0], *update = op->opnds[1];
  int rank = operand->type->rank;
  LLVMBuilderRef b = cg->b;
  LLVMValueRef uidx[rank > 0 ? rank : 1];
  /* An update of symbolic size may be empty: the compares below say so. */
  LLVMValueRef inside = LLVMConstInt(cg->t_i1, type_num_elems(update->type) != 0, 0);
  for (int d = 0; d < rank; d++) {
    LLVMValueRef size = cg_dim(cg, update, d);
    LLVMValueRef s = adjusted_start(cg, op->opnds[2 + d], cg_dim(cg, operand, d), size);
    uidx[d] = LLVMBuildSub(b, idx[d], s, "uidx");
    /* 0 <= u < dim as one unsigned compare */
    LLVMValueRef ok = LLVMBuildICmp(b, LLVMIntULT, uidx[d], cg_dim(cg, update, d), "");
    inside = LLVMBuildAnd(b, inside, ok, "inside");
  }
  /* Branch rather than select so a fused producer of either side is only
   * computed where its value is used. */
  CgIf s;
  cg_if_begin(cg, &s, inside);
  LLVMValueRef vu = cg_value_at(cg, update, uidx);
  cg_if_else(cg, &s);
  LLVMValueRef vo = cg_value_at(cg, operand, idx);
  cg_if_end(cg, &s);
  LLVMValueRef phi = LLVMBuildPhi(b, LLVMTypeOf(vu), "dus");
  LLVMValueRef vals[2] = {vu, vo};
  LLVMBasicBlockRef blocks[2] = {s.then_end, s.else_end};
  LLVMAddIncoming(phi, vals, blocks, 2);
  return phi;
}
