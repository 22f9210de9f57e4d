/*
 * movement.c: elemental generators of the data movement ops. Each maps the
 * result index to an operand index (the formulas of the spec sections
 * cited) and reads the operand there with cg_value_at.
 *
 * pad and concatenate choose between operands: when reading an operand is
 * cheap and safe at any clamped index, both sides are computed and a select
 * picks one (straight-line code the vectorizer handles); otherwise a branch
 * skips the operand that is not needed.
 */
#include "codegen.h"

static LLVMValueRef add_c(CG *cg, LLVMValueRef v, int64_t c) {
  return c ? LLVMBuildAdd(cg->b, v, cg_i64(cg, c), "") : v;
}

static LLVMValueRef clamp_i64(CG *cg, LLVMValueRef v, int64_t lo, int64_t hi) {
  LLVMValueRef l = cg_i64(cg, lo), h = cg_i64(cg, hi);
  v = LLVMBuildSelect(cg->b, LLVMBuildICmp(cg->b, LLVMIntSLT, v, l, ""), l, v, "");
  return LLVMBuildSelect(cg->b, LLVMBuildICmp(cg->b, LLVMIntSGT, v, h, ""), h, v, "");
}

/* Whether computing v at any in-range index is cheap and free of side
 * effects: a buffer, or a short fused chain without loops or expensive
 * math. Such values are read speculatively. A value with symbolic sizes
 * is not: it may be empty (its buffer NULL, spec: a size may be 0). */
static bool speculatable(Value *v, int budget) {
  if (v->sym) return false;
  if (v->storage != ST_NONE || !v->def) return true;
  Op *op = v->def;
  if (budget <= 0 || ir_is_costly(op->code) || op->nregions ||
      cg_op_impl(op->code)->no_speculation)
    return false;
  for (int i = 0; i < op->nopnds; i++)
    if (!speculatable(op->opnds[i], budget - 1)) return false;
  return true;
}

LLVMValueRef cg_value_guarded(CG *cg, LLVMValueRef pred, Value *x, LLVMValueRef *idx,
                              LLVMValueRef other) {
  CgIf s;
  cg_if_begin(cg, &s, pred);
  LLVMValueRef v = cg_value_at(cg, x, idx);
  cg_if_end(cg, &s);
  LLVMValueRef phi = LLVMBuildPhi(cg->b, LLVMTypeOf(v), "");
  LLVMValueRef vals[2] = {v, other};
  LLVMBasicBlockRef bbs[2] = {s.then_end, s.else_end};
  LLVMAddIncoming(phi, vals, bbs, 2);
  return phi;
}

/* ------------------------------------------------------------------------ */

/* broadcast (the dialect's legacy op, not in the spec: broadcast_in_dim
 * with broadcast_dimensions = [n, n + rank(operand)) for n = size of
 * broadcast_sizes): the result's shape is broadcast_sizes followed by the
 * operand's, and operand_index = result_index[n:]. */
LLVMValueRef cg_gen_broadcast(CG *cg, Op *op, LLVMValueRef *idx) {
  return cg_value_at(cg, op->opnds[0], idx + op->a.broadcast_sizes.n);
}

/* spec "broadcast_in_dim": operand_index[d] = dim(operand, d) = 1 ? 0 :
 * result_index[broadcast_dimensions[d]]. */
LLVMValueRef cg_gen_broadcast_in_dim(CG *cg, Op *op, LLVMValueRef *idx) {
  Value *x = op->opnds[0];
  const Type *t = x->type;
  LLVMValueRef oi[t->rank > 0 ? t->rank : 1];
  for (int d = 0; d < t->rank; d++)
    oi[d] = t->dims[d] == 1 ? cg_i64(cg, 0) : idx[op->a.broadcast_dimensions.v[d]];
  return cg_value_at(cg, x, oi);
}

/* The index of t whose row-major position is lin. */
static void delinearize(CG *cg, const Type *t, LLVMValueRef lin, LLVMValueRef *oi) {
  for (int d = t->rank - 1; d >= 0; d--) {
    if (t->dims[d] == 1) {
      oi[d] = cg_i64(cg, 0);
    } else if (d == 0) {
      oi[d] = lin;
    } else {
      LLVMValueRef n = cg_i64(cg, t->dims[d]);
      oi[d] = LLVMBuildURem(cg->b, lin, n, "");
      lin = LLVMBuildUDiv(cg->b, lin, n, "");
    }
  }
}

/* When both shapes have the same non-unit dimensions in the same order
 * (a reshape that only adds or drops 1s), maps them one to one. */
static bool map_unit_dims(CG *cg, const Type *r, const Type *o, LLVMValueRef *idx,
                          LLVMValueRef *oi) {
  int i = 0, j = 0;
  for (;;) {
    while (i < r->rank && r->dims[i] == 1) i++;
    while (j < o->rank && o->dims[j] == 1) j++;
    if (i == r->rank || j == o->rank) break;
    if (r->dims[i] != o->dims[j]) return false;
    i++, j++;
  }
  if (i != r->rank || j != o->rank) return false;
  i = 0;
  for (j = 0; j < o->rank; j++) {
    if (o->dims[j] == 1) {
      oi[j] = cg_i64(cg, 0);
      continue;
    }
    while (r->dims[i] == 1) i++;
    oi[j] = idx[i++];
  }
  return true;
}

/* The index of o at the row-major position of idx in r, both static and
 * non-empty, group by group: the shortest runs of dimensions of r and of o
 * with equal products (768 and 12 x 64) hold the same positions, so each
 * run of o is delinearized from its run of r alone. Linearizing the whole
 * index instead leaves a remainder by the row length (768) in every
 * element that the vectorizer cannot remove, where a split of a row into
 * 12 x 64 needs only a shift and a mask of the row's own index. */
static bool map_groups(CG *cg, const Type *r, const Type *o, LLVMValueRef *idx,
                       LLVMValueRef *oi) {
  if (!type_is_static(r) || !type_is_static(o) || type_num_elems(r) <= 0) return false;
  int i = 0, j = 0;
  while (i < r->rank || j < o->rank) {
    int i0 = i, j0 = j;
    int64_t pr = i < r->rank ? r->dims[i++] : 1, po = j < o->rank ? o->dims[j++] : 1;
    while (pr != po) {
      if (pr < po && i < r->rank) pr *= r->dims[i++];
      else if (po < pr && j < o->rank) po *= o->dims[j++];
      else return false;
    }
    LLVMValueRef lin = cg_i64(cg, 0);
    int64_t st = pr; /* the stride of dimension d within the run */
    for (int d = i0; d < i; d++) {
      st /= r->dims[d];
      if (r->dims[d] == 1) continue;
      LLVMValueRef t = idx[d];
      if (st != 1) t = cg_nowrap(LLVMBuildMul(cg->b, t, cg_i64(cg, st), ""));
      lin = cg_nowrap(LLVMBuildAdd(cg->b, lin, t, ""));
    }
    for (int d = j - 1; d >= j0; d--) {
      int64_t n = o->dims[d];
      if (n == 1 || d == j0) {
        oi[d] = n == 1 ? cg_i64(cg, 0) : lin;
        continue;
      }
      oi[d] = LLVMBuildURem(cg->b, lin, cg_i64(cg, n), "");
      lin = LLVMBuildUDiv(cg->b, lin, cg_i64(cg, n), "");
    }
  }
  return true;
}

/* spec "reshape": same position in the row-major order of both shapes. */
LLVMValueRef cg_gen_reshape(CG *cg, Op *op, LLVMValueRef *idx) {
  Value *x = op->opnds[0];
  const Type *o = x->type, *r = op->results[0]->type;
  LLVMValueRef oi[o->rank > 0 ? o->rank : 1];
  if (map_unit_dims(cg, r, o, idx, oi)) return cg_value_at(cg, x, oi);
  if (x->storage == ST_NONE && map_groups(cg, r, o, idx, oi)) return cg_value_at(cg, x, oi);
  bool bound = x->id >= 0 && cg->scalar[x->id];
  if (bound || (x->storage == ST_CONST && x->def->a.value->splat))
    return cg_value_at(cg, x, NULL);
  LLVMValueRef lin = cg_linear(cg, r, idx);
  if (x->storage != ST_NONE) return cg_load(cg, cg_buffer(cg, x), o->elem, lin);
  delinearize(cg, o, lin, oi);
  return cg_value_at(cg, x, oi);
}

/* spec "transpose": result_index[d] = operand_index[permutation[d]]. */
LLVMValueRef cg_gen_transpose(CG *cg, Op *op, LLVMValueRef *idx) {
  Value *x = op->opnds[0];
  int rank = x->type->rank;
  LLVMValueRef oi[rank > 0 ? rank : 1];
  for (int d = 0; d < rank; d++) oi[op->a.permutation.v[d]] = idx[d];
  return cg_value_at(cg, x, oi);
}

/* spec "slice": operand_index = start_indices + result_index * strides. */
LLVMValueRef cg_gen_slice(CG *cg, Op *op, LLVMValueRef *idx) {
  Value *x = op->opnds[0];
  int rank = x->type->rank;
  LLVMValueRef oi[rank > 0 ? rank : 1];
  for (int d = 0; d < rank; d++) {
    int64_t stride = op->a.strides.n > d ? op->a.strides.v[d] : 1;
    LLVMValueRef v = idx[d];
    if (stride != 1) v = LLVMBuildMul(cg->b, v, cg_i64(cg, stride), "");
    oi[d] = add_c(cg, v, op->a.start_indices.v[d]);
  }
  return cg_value_at(cg, x, oi);
}

/* spec "reverse": operand_index[d] = dim(result, d) - result_index[d] - 1
 * for d in dimensions. */
LLVMValueRef cg_gen_reverse(CG *cg, Op *op, LLVMValueRef *idx) {
  Value *x = op->opnds[0];
  const Type *t = x->type;
  LLVMValueRef oi[t->rank > 0 ? t->rank : 1];
  for (int d = 0; d < t->rank; d++) oi[d] = idx[d];
  for (int i = 0; i < op->a.dimensions.n; i++) {
    int64_t d = op->a.dimensions.v[i];
    LLVMValueRef last = LLVMBuildSub(cg->b, cg_dim(cg, x, (int)d), cg_i64(cg, 1), "");
    oi[d] = LLVMBuildSub(cg->b, last, idx[d], "");
  }
  return cg_value_at(cg, x, oi);
}

/* spec "iota": output[output_index] = output_index[iota_dimension]. */
LLVMValueRef cg_gen_iota(CG *cg, Op *op, LLVMValueRef *idx) {
  ElemType e = op->results[0]->type->elem;
  return cg_convert(cg, idx[op->a.iota_dimension], ET_SI64, e);
}

/* spec "constant". A constant computed as a kernel (returned, or copied
 * into a carried buffer) reads the same global its uses read. */
LLVMValueRef cg_gen_constant(CG *cg, Op *op, LLVMValueRef *idx) {
  const DenseData *d = op->a.value;
  const Type *t = op->results[0]->type;
  if (d->splat || type_num_elems(t) == 1) return cg_dense_scalar(cg, d, 0);
  LLVMValueRef lin = cg_linear(cg, t, idx);
  return cg_load(cg, cg_const_global(cg, op->results[0]), t->elem, lin);
}

/* ------------------------------------------------------------------------ */
/* concatenate (spec "concatenate")                                          */

typedef struct Part {
  Value *v;
  int64_t off, size; /* along the concatenation dimension */
} Part;

/* The non-empty inputs with their offsets; returns their count. */
static int concat_parts(Op *op, Part *parts) {
  int n = 0;
  int64_t off = 0, d = op->a.dimension;
  for (int k = 0; k < op->nopnds; k++) {
    int64_t size = op->opnds[k]->type->dims[d];
    if (size > 0) parts[n++] = (Part){op->opnds[k], off, size};
    off += size;
  }
  return n;
}

static LLVMValueRef part_value(CG *cg, const Part *p, int64_t d, int rank,
                               LLVMValueRef *idx, bool clamp) {
  LLVMValueRef oi[rank];
  for (int i = 0; i < rank; i++) oi[i] = idx[i];
  oi[d] = add_c(cg, idx[d], -p->off);
  if (clamp) oi[d] = clamp_i64(cg, oi[d], 0, p->size - 1);
  return cg_value_at(cg, p->v, oi);
}

/* Every part read at its clamped index, the right one selected. */
static LLVMValueRef concat_select(CG *cg, const Part *parts, int n, int64_t d,
                                  int rank, LLVMValueRef *idx) {
  LLVMValueRef r = part_value(cg, &parts[n - 1], d, rank, idx, true);
  for (int k = n - 2; k >= 0; k--) {
    LLVMValueRef in = LLVMBuildICmp(cg->b, LLVMIntSLT, idx[d],
                                    cg_i64(cg, parts[k + 1].off), "");
    LLVMValueRef v = part_value(cg, &parts[k], d, rank, idx, true);
    r = LLVMBuildSelect(cg->b, in, v, r, "cat");
  }
  return r;
}

/* A chain of branches: part k when idx[d] < the start of part k + 1. */
static LLVMValueRef concat_branch(CG *cg, const Part *parts, int n, int64_t d,
                                  int rank, LLVMValueRef *idx) {
  LLVMBasicBlockRef merge = LLVMAppendBasicBlockInContext(cg->ctx, cg->llfn, "cat.join");
  LLVMValueRef vals[n];
  LLVMBasicBlockRef bbs[n];
  for (int k = 0; k < n; k++) {
    LLVMBasicBlockRef take = LLVMAppendBasicBlockInContext(cg->ctx, cg->llfn, "cat.part");
    LLVMBasicBlockRef next = NULL;
    if (k < n - 1) {
      next = LLVMAppendBasicBlockInContext(cg->ctx, cg->llfn, "cat.test");
      LLVMValueRef in = LLVMBuildICmp(cg->b, LLVMIntSLT, idx[d],
                                      cg_i64(cg, parts[k + 1].off), "");
      LLVMBuildCondBr(cg->b, in, take, next);
    } else {
      LLVMBuildBr(cg->b, take);
    }
    LLVMPositionBuilderAtEnd(cg->b, take);
    vals[k] = part_value(cg, &parts[k], d, rank, idx, false);
    bbs[k] = LLVMGetInsertBlock(cg->b);
    LLVMBuildBr(cg->b, merge);
    if (next) LLVMPositionBuilderAtEnd(cg->b, next);
  }
  LLVMPositionBuilderAtEnd(cg->b, merge);
  LLVMValueRef phi = LLVMBuildPhi(cg->b, LLVMTypeOf(vals[0]), "cat");
  LLVMAddIncoming(phi, vals, bbs, (unsigned)n);
  return phi;
}

LLVMValueRef cg_gen_concatenate(CG *cg, Op *op, LLVMValueRef *idx) {
  Part parts[op->nopnds];
  int n = concat_parts(op, parts);
  int64_t d = op->a.dimension;
  int rank = op->results[0]->type->rank;
  if (n == 0) /* an empty result is never indexed */
    return LLVMGetPoison(cg_scalar_type(cg, op->results[0]->type->elem));
  bool spec = true;
  for (int k = 0; k < n; k++) spec = spec && speculatable(parts[k].v, 4);
  return spec ? concat_select(cg, parts, n, d, rank, idx)
              : concat_branch(cg, parts, n, d, rank, idx);
}

/* ------------------------------------------------------------------------ */
/* pad (spec "pad"): result_index = edge_padding_low + operand_index *
 * (interior_padding + 1) reads the operand, every other index the padding
 * value. Negative edge padding just shifts the mapping. dynamic_pad (spec
 * "dynamic_pad") has the same semantics with the paddings as operands; it
 * reaches codegen only in an entry with symbolic sizes (dyndims.c).       */

/* Element d of pad's attribute `attr`, or of dynamic_pad's operand k. */
static LLVMValueRef padding(CG *cg, Op *op, const I64List *attr, int k, int d) {
  if (op->code == OP_PAD) return cg_i64(cg, attr->n > d ? attr->v[d] : 0);
  Value *v = op->opnds[k];
  LLVMValueRef i = cg_i64(cg, d);
  return cg_convert(cg, cg_value_at(cg, v, &i), v->type->elem, ET_SI64);
}

LLVMValueRef cg_gen_pad(CG *cg, Op *op, LLVMValueRef *idx) {
  Value *x = op->opnds[0];
  const Type *t = x->type;
  LLVMValueRef padv = cg_value_at(cg, op->opnds[1], NULL);
  if (type_num_elems(t) == 0) return padv;
  LLVMValueRef oi[t->rank > 0 ? t->rank : 1], valid = NULL;
  for (int d = 0; d < t->rank; d++) {
    LLVMValueRef lo = padding(cg, op, &op->a.edge_padding_low, 2, d);
    LLVMValueRef in = padding(cg, op, &op->a.interior_padding, 4, d);
    LLVMValueRef p = LLVMIsAConstantInt(lo) ? add_c(cg, idx[d], -LLVMConstIntGetSExtValue(lo))
                                            : LLVMBuildSub(cg->b, idx[d], lo, "");
    LLVMValueRef ok = LLVMBuildICmp(cg->b, LLVMIntSGE, p, cg_i64(cg, 0), "");
    if (!LLVMIsAConstantInt(in) || LLVMConstIntGetSExtValue(in) > 0) {
      LLVMValueRef step = LLVMBuildAdd(cg->b, in, cg_i64(cg, 1), "");
      LLVMValueRef rem = LLVMBuildSRem(cg->b, p, step, "");
      ok = LLVMBuildAnd(cg->b, ok,
                        LLVMBuildICmp(cg->b, LLVMIntEQ, rem, cg_i64(cg, 0), ""), "");
      p = LLVMBuildSDiv(cg->b, p, step, "");
    }
    ok = LLVMBuildAnd(cg->b, ok,
                      LLVMBuildICmp(cg->b, LLVMIntSLT, p, cg_dim(cg, x, d), ""), "");
    valid = valid ? LLVMBuildAnd(cg->b, valid, ok, "") : ok;
    oi[d] = p;
  }
  if (!valid) return cg_value_at(cg, x, oi); /* rank 0: nothing to pad */
  if (!speculatable(x, 4)) return cg_value_guarded(cg, valid, x, oi, padv);
  for (int d = 0; d < t->rank; d++) oi[d] = clamp_i64(cg, oi[d], 0, t->dims[d] - 1);
  return LLVMBuildSelect(cg->b, valid, cg_value_at(cg, x, oi), padv, "pad");
}

/* ------------------------------------------------------------------------ */
/* bitcast_convert (spec "bitcast_convert"): elements are split or joined
 * little-endian, element 0 holding the lowest bits.                         */

/* The types narrower than 16 bits are computed in f32 (minifloat.c): their
 * bits are those of the encoding, in elem_bits(e) bits. */
static LLVMValueRef to_bits(CG *cg, LLVMValueRef v, ElemType e) {
  if (!elem_is_float(e) && !elem_is_complex(e)) return v;
  if (cg_is_small_float(e))
    return LLVMBuildTrunc(cg->b, cg_small_encode(cg, v, e),
                          LLVMIntTypeInContext(cg->ctx, (unsigned)elem_bits(e)), "");
  return LLVMBuildBitCast(cg->b, v, LLVMIntTypeInContext(cg->ctx, (unsigned)elem_bits(e)), "");
}

static LLVMValueRef from_bits(CG *cg, LLVMValueRef v, ElemType e) {
  if (!elem_is_float(e) && !elem_is_complex(e)) return v;
  if (cg_is_small_float(e))
    return cg_small_decode(cg, LLVMBuildZExt(cg->b, v, cg->t_i8, ""), e);
  return LLVMBuildBitCast(cg->b, v, cg_scalar_type(cg, e), "");
}

/* The bits of x at idx. A narrow float computed inside this kernel by a
 * convert from f32 or f64 is encoded from the convert's operand: its
 * compute value would only be decoded to be encoded again. */
static LLVMValueRef operand_bits(CG *cg, Value *x, LLVMValueRef *idx) {
  ElemType e = x->type->elem;
  Op *d = x->def;
  bool fused = x->storage == ST_NONE && d && !(x->id >= 0 && cg->scalar[x->id]);
  if (fused && cg_is_small_float(e) && d->code == OP_CONVERT) {
    ElemType from = d->opnds[0]->type->elem;
    if (from == ET_F32 || from == ET_F64)
      return LLVMBuildTrunc(cg->b, cg_small_encode(cg, cg_value_at(cg, d->opnds[0], idx), e),
                            LLVMIntTypeInContext(cg->ctx, (unsigned)elem_bits(e)), "");
  }
  return to_bits(cg, cg_value_at(cg, x, idx), e);
}

LLVMValueRef cg_gen_bitcast_convert(CG *cg, Op *op, LLVMValueRef *idx) {
  Value *x = op->opnds[0];
  ElemType ei = x->type->elem, eo = op->results[0]->type->elem;
  int bi = elem_bits(ei), bo = elem_bits(eo), rank = x->type->rank;
  LLVMTypeRef to = LLVMIntTypeInContext(cg->ctx, (unsigned)bo);
  if (bi == bo) return from_bits(cg, operand_bits(cg, x, idx), eo);
  if (bo < bi) { /* result rank R + 1: pick bits idx[R] * bo of operand[idx] */
    LLVMValueRef v = operand_bits(cg, x, idx);
    LLVMValueRef sh = LLVMBuildMul(cg->b, idx[rank], cg_i64(cg, bo), "");
    sh = LLVMBuildIntCast2(cg->b, sh, LLVMTypeOf(v), 0, "");
    v = LLVMBuildTrunc(cg->b, LLVMBuildLShr(cg->b, v, sh, ""), to, "");
    return from_bits(cg, v, eo);
  }
  /* result rank R - 1: join operand[idx, 0 .. k-1] */
  int k = bo / bi;
  LLVMValueRef oi[rank], acc = LLVMConstNull(to);
  for (int d = 0; d < rank - 1; d++) oi[d] = idx[d];
  for (int j = 0; j < k; j++) {
    oi[rank - 1] = cg_i64(cg, j);
    LLVMValueRef v = operand_bits(cg, x, oi);
    v = LLVMBuildZExt(cg->b, v, to, "");
    if (j) v = LLVMBuildShl(cg->b, v, LLVMConstInt(to, (unsigned long long)j * (unsigned)bi, 0), "");
    acc = LLVMBuildOr(cg->b, acc, v, "");
  }
  return from_bits(cg, acc, eo);
}
