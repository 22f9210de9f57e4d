/*
 * reduce.c: elemental generators of reduce and reduce_window, the kernel
 * of a reduce over outer dimensions, and the emission of scalar regions
 * (reduction bodies).
 *
 * Accumulators are allocas in the entry block of the LLVM function being
 * emitted (cg_entry_alloca); SROA/mem2reg turns them into phi nodes, and the loop vectorizer
 * then sees a plain reduction. The spec leaves the reduction order
 * implementation-defined (spec "reduce": the schedule is any binary tree),
 * so the combining instruction of a float reduction carries `reassoc`.
 */
#include "codegen.h"

/* ------------------------------------------------------------------------ */
/* Shared helpers                                                            */

/* Marks a reduction's combining instruction as reassociable (spec
 * "reduce": the schedule is implementation-defined). */
static void allow_reassoc(LLVMValueRef v) {
  if (!LLVMIsAInstruction(v) || !LLVMCanValueUseFastMathFlags(v)) return;
  LLVMSetFastMathFlags(v, LLVMGetFastMathFlags(v) | LLVMFastMathAllowReassoc);
}

/* ------------------------------------------------------------------------ */
/* Scalar regions                                                            */

static LLVMValueRef region_operand(CG *cg, Value *v) {
  if (v->id >= 0 && cg->scalar[v->id]) return cg->scalar[v->id];
  /* A 0-d value captured from the enclosing function. */
  return cg_value_at(cg, v, NULL);
}

static void region_op(CG *cg, Op *op) {
  Value *res = op->results[0];
  LLVMValueRef r;
  if (op->code == OP_CONSTANT && op->a.value) {
    r = cg_dense_scalar(cg, op->a.value, 0);
  } else if (ir_is_elementwise(op->code)) {
    LLVMValueRef args[3];
    for (int i = 0; i < op->nopnds && i < 3; i++)
      args[i] = region_operand(cg, op->opnds[i]);
    r = cg_scalar_op(cg, op, args);
  } else if ((op->code == OP_RESHAPE || op->code == OP_BROADCAST_IN_DIM) &&
             res->type->rank == 0) {
    r = region_operand(cg, op->opnds[0]); /* 0-d to 0-d: the identity */
  } else if (op->code == OP_BITCAST_CONVERT && res->type->rank == 0 &&
             op->opnds[0]->type->rank == 0) {
    /* 0-d to 0-d: the same bits (a sort comparator ordering floats as
     * integers); the operand is read as a bound scalar. */
    r = cg_gen_bitcast_convert(cg, op, NULL);
  } else {
    cg_unsupported(cg, op, "this op inside a scalar region");
    r = LLVMGetUndef(cg_scalar_type(cg, res->type->elem));
  }
  cg->scalar[res->id] = r;
}

static void region_clear(CG *cg, Block *blk) {
  for (int i = 0; i < blk->nargs; i++) cg->scalar[blk->args[i]->id] = NULL;
  for (Op *op = blk->first; op; op = op->next)
    for (int i = 0; i < op->nresults; i++) cg->scalar[op->results[i]->id] = NULL;
}

void cg_region_scalar(CG *cg, Region *r, LLVMValueRef *args,
                      LLVMValueRef *results) {
  Block *blk = r->blocks[0];
  for (int i = 0; i < blk->nargs; i++) cg->scalar[blk->args[i]->id] = args[i];
  for (Op *op = blk->first; op; op = op->next) {
    if (op->code == OP_RETURN || op->code == OP_FUNC_RETURN) {
      for (int i = 0; i < op->nopnds; i++)
        results[i] = region_operand(cg, op->opnds[i]);
      break;
    }
    if (op->nresults != 1) {
      cg_unsupported(cg, op, "this op inside a scalar region");
      continue;
    }
    region_op(cg, op);
  }
  region_clear(cg, blk);
}

/* ------------------------------------------------------------------------ */
/* Accumulators shared by reduce and reduce_window                           */

typedef struct Accs {
  int n;
  LLVMValueRef slot[8];    /* allocas */
  ElemType in[8], acc[8];  /* input and body (accumulator) element types */
  LLVMValueRef init[8];    /* init values converted to the body types */
} Accs;

/* Binds the N accumulators of a reduce-like op: inputs are operands
 * [0, n), inits [n, 2n); accumulator types are the body's first n
 * argument types (spec "reduce" (C6), to_destination_type). */
static bool accs_begin(CG *cg, Op *op, Accs *a) {
  a->n = op->nopnds / 2;
  if (a->n > 8) {
    cg_unsupported(cg, op, "more than 8 reduced inputs");
    return false;
  }
  Block *body = op->regions[0]->blocks[0];
  for (int i = 0; i < a->n; i++) {
    a->in[i] = op->opnds[i]->type->elem;
    a->acc[i] = body->args[i]->type->elem;
    LLVMValueRef init = cg_value_at(cg, op->opnds[a->n + i], NULL);
    a->init[i] = cg_convert(cg, init, a->in[i], a->acc[i]);
    a->slot[i] = cg_entry_alloca(cg, cg_scalar_type(cg, a->acc[i]), "acc");
    LLVMBuildStore(cg->b, a->init[i], a->slot[i]);
  }
  return true;
}

/* acc = body(acc, x) for each of the n accumulators (x already converted
 * to the accumulator types). */
static void accs_step(CG *cg, Op *op, Accs *a, LLVMValueRef *x) {
  LLVMValueRef args[16], res[8];
  for (int i = 0; i < a->n; i++) {
    args[i] = LLVMBuildLoad2(cg->b, cg_scalar_type(cg, a->acc[i]), a->slot[i],
                             "acc");
    args[a->n + i] = x[i];
  }
  cg_region_scalar(cg, op->regions[0], args, res);
  for (int i = 0; i < a->n; i++) {
    allow_reassoc(res[i]);
    LLVMBuildStore(cg->b, res[i], a->slot[i]);
  }
}

static void accs_end(CG *cg, Accs *a, LLVMValueRef *out) {
  for (int i = 0; i < a->n; i++)
    out[i] = LLVMBuildLoad2(cg->b, cg_scalar_type(cg, a->acc[i]), a->slot[i],
                            "red");
}

/* ------------------------------------------------------------------------ */
/* reduce (spec "reduce")                                                    */

/* Results of an op that could not be generated (after a diagnostic). */
static void poison_results(CG *cg, Op *op, LLVMValueRef *out) {
  for (int i = 0; i < op->nresults; i++)
    out[i] = LLVMGetPoison(cg_scalar_type(cg, op->results[i]->type->elem));
}

void cg_gen_reduce(CG *cg, Op *op, LLVMValueRef *idx, LLVMValueRef *out) {
  Accs a;
  if (!accs_begin(cg, op, &a)) {
    poison_results(cg, op, out);
    return;
  }
  const Type *t = op->opnds[0]->type;
  bool reduced[t->rank > 0 ? t->rank : 1];
  for (int d = 0; d < t->rank; d++) reduced[d] = false;
  for (int i = 0; i < op->a.dimensions.n; i++) reduced[op->a.dimensions.v[i]] = true;

  /* Result index -> input index; reduced dims get loop variables, outer
   * loops on lower dimensions so the innermost loop walks memory. */
  LLVMValueRef full[t->rank > 0 ? t->rank : 1];
  CgLoop loops[t->rank > 0 ? t->rank : 1];
  int j = 0, nloops = 0;
  for (int d = 0; d < t->rank; d++) {
    if (!reduced[d]) {
      full[d] = idx[j++];
    } else if (t->dims[d] == 1) {
      full[d] = cg_i64(cg, 0);
    } else {
      full[d] = cg_loop_begin(cg, &loops[nloops++], cg_i64(cg, 0),
                              cg_i64(cg, t->dims[d]));
    }
  }
  LLVMValueRef x[8];
  for (int i = 0; i < a.n; i++)
    x[i] = cg_convert(cg, cg_value_at(cg, op->opnds[i], full), a.in[i],
                             a.acc[i]);
  accs_step(cg, op, &a, x);
  while (nloops > 0) cg_loop_end(cg, &loops[--nloops]);
  accs_end(cg, &a, out);
}

/* Row reduces (ir_is_row_reduce) of one input shape at the row idx (their
 * result index) in one loop over the row, each accumulating as in
 * cg_gen_reduce: independent reductions of a row kernel (the mean and the
 * mean of squares of a layernorm) read the row once. A short row's loop
 * has its tail folded into masked vector iterations (cg_loop_end_short):
 * softmax over 79 tokens 3.9 -> 1.5 ms at 33x8x79 rows, 1 thread; the
 * reassociable sums then add in another order than cg_gen_reduce's. */
void cg_gen_row_reduces(CG *cg, Op **ops, int n, LLVMValueRef *idx, LLVMValueRef *out) {
  Accs a[n];
  for (int k = 0; k < n; k++)
    if (!accs_begin(cg, ops[k], &a[k])) {
      for (int i = 0; i < n; i++) poison_results(cg, ops[i], &out[i]);
      return;
    }
  const Type *t = ops[0]->opnds[0]->type;
  int last = t->rank - 1;
  LLVMValueRef full[t->rank];
  for (int d = 0; d < last; d++) full[d] = idx[d];
  CgLoop l;
  full[last] = cg_loop_begin(cg, &l, cg_i64(cg, 0), cg_i64(cg, t->dims[last]));
  for (int k = 0; k < n; k++) {
    LLVMValueRef x = cg_convert(cg, cg_value_at(cg, ops[k]->opnds[0], full), a[k].in[0],
                                a[k].acc[0]);
    accs_step(cg, ops[k], &a[k], &x);
  }
  cg_loop_end_short(cg, &l, t->dims[last]);
  for (int k = 0; k < n; k++) accs_end(cg, &a[k], &out[k]);
}

/* ------------------------------------------------------------------------ */
/* reduce_window (spec "reduce_window")                                      */

void cg_gen_reduce_window(CG *cg, Op *op, LLVMValueRef *idx,
                          LLVMValueRef *out) {
  Accs a;
  if (!accs_begin(cg, op, &a)) {
    poison_results(cg, op, out);
    return;
  }
  const Type *t = op->opnds[0]->type;
  const Window *w = &op->a.window;
  int rank = t->rank > 0 ? t->rank : 1;
  LLVMValueRef pos[rank];
  CgLoop loops[rank];
  int nloops = 0;
  LLVMValueRef valid = NULL;
  for (int d = 0; d < t->rank; d++) {
    int64_t wd = cg_window_at(&w->dims, d, 1);
    LLVMValueRef wpos =
        wd == 1 ? cg_i64(cg, 0)
                : cg_loop_begin(cg, &loops[nloops++], cg_i64(cg, 0),
                                cg_i64(cg, wd));
    LLVMValueRef out_dim = cg_dim(cg, op->results[0], d);
    pos[d] = cg_window_pos(cg, w, d, cg_dim(cg, op->opnds[0], d), wd, out_dim, idx[d], wpos,
                           &valid);
    /* Frozen, a windowed position's bits are unknown to instcombine: once
     * the window loop is unrolled, tap 2 of a stride-2 window padded by 1
     * is at (2 r + 1) C + c, which instcombine writes as ors (the bits of
     * c < C are known clear in 2 r C) and reassociates into
     * ((2 r C | c) | C), dropping the ors' `disjoint`; the loop vectorizer
     * then no longer sees consecutive c and gathers (ResNet-50's 3 x 3
     * max-pool: 0.40 ms with gathers, 0.17 ms with vector loads). */
    if (wd > 1) pos[d] = LLVMBuildFreeze(cg->b, pos[d], "");
  }
  /* Padding and dilation holes hold the init value (spec: padded_inputs). */
  LLVMValueRef x[8];
  bool empty = type_num_elems(t) == 0; /* then every element is padding */
  for (int i = 0; i < a.n; i++) {
    if (empty) {
      x[i] = a.init[i];
      continue;
    }
    Value *in = op->opnds[i];
    /* An input of symbolic size may be empty: never read it speculatively. */
    LLVMValueRef v = valid && in->sym
        ? cg_value_guarded(cg, valid, in, pos, LLVMConstNull(cg_scalar_type(cg, a.in[i])))
        : cg_value_at(cg, in, pos);
    v = cg_convert(cg, v, a.in[i], a.acc[i]);
    x[i] = valid ? LLVMBuildSelect(cg->b, valid, v, a.init[i], "x") : v;
  }
  accs_step(cg, op, &a, x);
  while (nloops > 0) cg_loop_end(cg, &loops[--nloops]);
  accs_end(cg, &a, out);
}

/* ------------------------------------------------------------------------ */
/* Reductions over outer dimensions                                          */

/* A reduce whose last input dimension is kept (spec "reduce": e.g. a sum
 * over rows) walks memory with a large stride when each result element
 * loops over the reduced dimensions. As a kernel root it instead
 * accumulates in place in its result buffers, row by row:
 *
 *   for each result index i (all but the last dimension):
 *     out[i, :] = init
 *     for each reduced index r:        (outer dimensions of the input)
 *       for j: out[i, j] = body(out[i, j], in[i, r, j])
 *
 * so the innermost loop runs along contiguous memory in every buffer and
 * vectorizes. The order of each element's reduction stays sequential. */

static bool reduce_in_place_fits(Op *op) {
  const Type *t = op->opnds[0]->type;
  if (t->rank < 2 || op->a.dimensions.n == 0 || op->nopnds / 2 > 8) return false;
  for (int i = 0; i < op->a.dimensions.n; i++)
    if (op->a.dimensions.v[i] == t->rank - 1) return false; /* inner: elemental */
  for (int i = 0; i < op->nresults; i++) {
    Storage st = op->results[i]->storage;
    if (st != ST_TEMP && st != ST_RESULT) return false;
  }
  return true;
}

/* out[i][j] = init (converted to the accumulator type) for j in [j0, j1). */
static void rows_init(CG *cg, Op *op, Accs *a, LLVMValueRef *ridx,
                      LLVMValueRef j0, LLVMValueRef j1) {
  const Type *rt = op->results[0]->type;
  CgLoop l;
  ridx[rt->rank - 1] = cg_loop_begin(cg, &l, j0, j1);
  for (int i = 0; i < a->n; i++) {
    Value *r = op->results[i];
    LLVMValueRef lin = cg_linear(cg, r->type, ridx);
    cg_store(cg, cg_buffer(cg, r), a->acc[i], lin, a->init[i]);
  }
  cg_loop_end(cg, &l);
}

/* out[i][j] = body(out[i][j], in[i, r, j]) for j in [j0, j1); full holds
 * the input index but for its last dimension. */
static void rows_step(CG *cg, Op *op, Accs *a, LLVMValueRef *ridx,
                      LLVMValueRef *full, LLVMValueRef j0, LLVMValueRef j1) {
  const Type *rt = op->results[0]->type, *t = op->opnds[0]->type;
  CgLoop l;
  LLVMValueRef j = cg_loop_begin(cg, &l, j0, j1);
  ridx[rt->rank - 1] = j;
  full[t->rank - 1] = j;
  LLVMValueRef args[16], res[8], lin[8];
  for (int i = 0; i < a->n; i++) {
    Value *r = op->results[i];
    lin[i] = cg_linear(cg, r->type, ridx);
    args[i] = cg_load(cg, cg_buffer(cg, r), a->acc[i], lin[i]);
    args[a->n + i] = cg_convert(cg, cg_value_at(cg, op->opnds[i], full),
                                a->in[i], a->acc[i]);
  }
  cg_region_scalar(cg, op->regions[0], args, res);
  for (int i = 0; i < a->n; i++)
    cg_store(cg, cg_buffer(cg, op->results[i]), a->acc[i], lin[i], res[i]);
  cg_loop_end(cg, &l);
}

bool cg_kernel_reduce(CG *cg, Op *op) {
  if (!reduce_in_place_fits(op)) return false;
  const Type *t = op->opnds[0]->type, *rt = op->results[0]->type;
  int R = rt->rank;
  int pdim = cg_split_dim(rt);
  LLVMValueRef begin = LLVMGetParam(cg->llfn, 1), end = LLVMGetParam(cg->llfn, 2);
  Accs a;
  if (!accs_begin(cg, op, &a)) return true;
  bool reduced[t->rank];
  for (int d = 0; d < t->rank; d++) reduced[d] = false;
  for (int i = 0; i < op->a.dimensions.n; i++) reduced[op->a.dimensions.v[i]] = true;

  /* Loops over the result dimensions but the last. */
  LLVMValueRef ridx[R], full[t->rank];
  CgLoop loops[R + t->rank];
  int nloops = 0;
  for (int d = 0; d < R - 1; d++) {
    LLVMValueRef lo = d == pdim ? begin : cg_i64(cg, 0);
    LLVMValueRef hi = d == pdim ? end : cg_i64(cg, rt->dims[d]);
    ridx[d] = cg_loop_begin(cg, &loops[nloops++], lo, hi);
  }
  LLVMValueRef j0 = pdim == R - 1 ? begin : cg_i64(cg, 0);
  LLVMValueRef j1 = pdim == R - 1 ? end : cg_i64(cg, rt->dims[R - 1]);
  rows_init(cg, op, &a, ridx, j0, j1);
  /* Reduced dimensions, outermost first; kept ones come from ridx. */
  int k = 0, outer = nloops;
  for (int d = 0; d < t->rank - 1; d++)
    full[d] = reduced[d] ? cg_loop_begin(cg, &loops[nloops++], cg_i64(cg, 0),
                                         cg_i64(cg, t->dims[d]))
                         : ridx[k++];
  rows_step(cg, op, &a, ridx, full, j0, j1);
  while (nloops > outer) cg_loop_end(cg, &loops[--nloops]);
  while (nloops > 0) cg_loop_end(cg, &loops[--nloops]);
  return true;
}
