/*
 * scatter.c: scatter and select_and_scatter as kernel roots (spec
 * "scatter", "select_and_scatter").
 *
 * Neither op is elemental: a result element depends on every update that
 * lands on it, combined in sequence by a region. So each is one serial
 * kernel (kernel.c calls it once, never split across threads) that first
 * writes the initial values into its result buffers, then walks the
 * updates in order and for each one reads the current result element,
 * applies the region with cg_region_scalar and stores the new value.
 * Operands are read with cg_value_at, so they may be fused (fuse.c lets
 * only cheap chains into the operands read more than once). Both read
 * sizes with cg_dim and result offsets with cg_linear_value, so the
 * symbolic path (dyndims.c) runs the same code on its buffers, with loop
 * bounds known at run time (window sizes, strides and padding stay
 * constants).
 */
#include "codegen.h"

/* ------------------------------------------------------------------------ */
/* Shared helpers                                                            */

/* Opens a counted loop per dimension of extent > 1 (dims; the loop runs to
 * ext[d], or to dims[d] when ext is NULL), outermost first, and sets
 * idx[d] (0 for unit dimensions). Returns how many loops to close. */
static int nest_begin(CG *cg, int rank, const int64_t *dims, const LLVMValueRef *ext,
                      LLVMValueRef *idx, CgLoop *loops) {
  int n = 0;
  for (int d = 0; d < rank; d++)
    idx[d] = dims[d] == 1 ? cg_i64(cg, 0)
                          : cg_loop_begin(cg, &loops[n++], cg_i64(cg, 0),
                                          ext ? ext[d] : cg_i64(cg, dims[d]));
  return n;
}

int cg_nest_begin(CG *cg, const Value *v, LLVMValueRef *idx, CgLoop *loops) {
  int rank = v->type->rank;
  LLVMValueRef ext[rank > 0 ? rank : 1];
  for (int d = 0; d < rank; d++) ext[d] = cg_dim(cg, v, d);
  return nest_begin(cg, rank, v->type->dims, ext, idx, loops);
}

void cg_nest_end(CG *cg, CgLoop *loops, int n) {
  while (n > 0) cg_loop_end(cg, &loops[--n]);
}

/* ok && 0 <= i < dim, as one unsigned compare. */
static LLVMValueRef and_in_range(CG *cg, LLVMValueRef ok, LLVMValueRef i,
                                 LLVMValueRef dim) {
  LLVMValueRef in = LLVMBuildICmp(cg->b, LLVMIntULT, i, dim, "inb");
  return ok ? LLVMBuildAnd(cg->b, ok, in, "inb") : in;
}

/* ------------------------------------------------------------------------ */
/* scatter (spec "scatter")                                                  */

/* Operands: inputs [0, N), scatter_indices N, updates [N + 1, 2N + 1). */
static Value *scatter_update(Op *op, int i) { return op->opnds[op->nresults + 1 + i]; }

/* results...[i] = inputs...[i], converted to the element types of the
 * results (the update computation's types, (C23), (C25)). */
static void scatter_init(CG *cg, Op *op) {
  int rank = op->results[0]->type->rank;
  LLVMValueRef idx[rank > 0 ? rank : 1];
  CgLoop loops[rank > 0 ? rank : 1];
  int nl = cg_nest_begin(cg, op->results[0], idx, loops);
  for (int i = 0; i < op->nresults; i++) {
    Value *in = op->opnds[i], *r = op->results[i];
    LLVMValueRef v = cg_convert(cg, cg_value_at(cg, in, rank ? idx : NULL),
                                in->type->elem, r->type->elem);
    cg_store_at(cg, r, idx, v);
  }
  cg_nest_end(cg, loops, nl);
}

/* start_index[d_start]: scatter_indices[si0, ..., d_start, ..., siN] with
 * d_start at index_vector_dim (or scatter_indices[update_scatter_index]
 * when index_vector_dim = rank(scatter_indices)), as i64. It is clamped to
 * [-dim, dim] of the input dimension it addresses: window offsets lie in
 * [0, dim), so the in-bounds test of result_index gives the same answer,
 * and the sum cannot overflow. */
static LLVMValueRef scatter_start(CG *cg, Op *op, LLVMValueRef *usi, int d_start,
                                  LLVMValueRef dim) {
  Value *si = op->opnds[op->nresults];
  int rank = si->type->rank;
  int64_t ivd = op->a.scatter.index_vector_dim;
  LLVMValueRef sidx[rank > 0 ? rank : 1];
  for (int d = 0, j = 0; d < rank; d++)
    sidx[d] = d == ivd ? cg_i64(cg, d_start) : usi[j++];
  LLVMValueRef v = cg_value_at(cg, si, rank ? sidx : NULL);
  bool sgn = elem_class(si->type->elem) == 's';
  v = LLVMBuildIntCast2(cg->b, v, cg->t_i64, sgn, "start");
  LLVMValueRef hi = dim, lo = LLVMBuildNeg(cg->b, dim, "");
  /* Unsigned indices compare unsigned: ui64 values above INT64_MAX clamp
   * to dim. */
  LLVMIntPredicate gt = sgn ? LLVMIntSGT : LLVMIntUGT;
  v = LLVMBuildSelect(cg->b, LLVMBuildICmp(cg->b, gt, v, hi, ""), hi, v, "");
  if (sgn)
    v = LLVMBuildSelect(cg->b, LLVMBuildICmp(cg->b, LLVMIntSLT, v, lo, ""), lo, v, "");
  return v;
}

/* full_start_index + full_batching_index of the update scatter index usi. */
static void scatter_base(CG *cg, Op *op, LLVMValueRef *usi, LLVMValueRef *base) {
  const ScatterDims *s = &op->a.scatter;
  Value *r = op->results[0];
  for (int d = 0; d < r->type->rank; d++) base[d] = cg_i64(cg, 0);
  for (int k = 0; k < s->scatter_dims_to_operand_dims.n; k++) {
    int d = (int)s->scatter_dims_to_operand_dims.v[k];
    base[d] = scatter_start(cg, op, usi, k, cg_dim(cg, r, d));
  }
  for (int k = 0; k < s->input_batching_dims.n; k++) {
    int d = (int)s->input_batching_dims.v[k];
    int64_t ds = s->scatter_indices_batching_dims.v[k];
    LLVMValueRef b = usi[ds - (ds < s->index_vector_dim ? 0 : 1)];
    base[d] = LLVMBuildAdd(cg->b, base[d], b, "");
  }
}

/* results...[ridx] = update_computation(results...[ridx], updates...[uidx]
 * converted to the computation's types). */
static void scatter_apply(CG *cg, Op *op, LLVMValueRef *uidx, LLVMValueRef *ridx) {
  int n = op->nresults;
  Block *body = op->regions[0]->blocks[0];
  LLVMValueRef lin = cg_linear_value(cg, op->results[0], ridx), args[2 * n], res[n];
  for (int i = 0; i < n; i++) {
    Value *r = op->results[i], *u = scatter_update(op, i);
    args[i] = cg_load(cg, cg_buffer(cg, r), r->type->elem, lin);
    LLVMValueRef x = cg_value_at(cg, u, u->type->rank ? uidx : NULL);
    args[n + i] = cg_convert(cg, x, u->type->elem, body->args[n + i]->type->elem);
  }
  cg_region_scalar(cg, op->regions[0], args, res);
  for (int i = 0; i < n; i++) {
    Value *r = op->results[i];
    cg_store(cg, cg_buffer(cg, r), r->type->elem, lin, res[i]);
  }
}

/* Loops over the update scatter dimensions (outer) and the update window
 * dimensions (inner), each row-major. The spec leaves the schedule
 * implementation-defined; this one is the row-major order of the update
 * index space whenever the window dimensions come last (the usual layout),
 * loads each start index once per window, and is the order XLA applies
 * updates in. An update whose result_index is out of bounds is skipped,
 * element by element as the spec says. */
static void scatter_updates(CG *cg, Op *op) {
  const ScatterDims *s = &op->a.scatter;
  Value *u = scatter_update(op, 0), *r = op->results[0];
  const Type *ut = u->type;
  int urank = ut->rank, rrank = r->type->rank;
  LLVMValueRef uidx[urank + 1], usi[urank + 1], base[rrank + 1], ridx[rrank + 1];
  CgLoop loops[urank + 1];
  int nl = 0, nsi = 0;
  for (int pass = 0; pass < 2; pass++) {
    for (int d = 0; d < urank; d++) {
      if (ir_list_has(&s->update_window_dims, d) != (pass == 1)) continue;
      uidx[d] = ut->dims[d] == 1 ? cg_i64(cg, 0)
                                 : cg_loop_begin(cg, &loops[nl++], cg_i64(cg, 0),
                                                 cg_dim(cg, u, d));
      if (pass == 0) usi[nsi++] = uidx[d];
    }
    if (pass == 0) scatter_base(cg, op, usi, base);
  }
  /* result_index = base + full_window_index */
  LLVMValueRef ok = NULL;
  for (int d = 0, k = 0; d < rrank; d++) {
    ridx[d] = base[d];
    if (!ir_list_has(&s->inserted_window_dims, d) && !ir_list_has(&s->input_batching_dims, d))
      ridx[d] = LLVMBuildAdd(cg->b, ridx[d], uidx[s->update_window_dims.v[k++]], "");
    ok = and_in_range(cg, ok, ridx[d], cg_dim(cg, r, d));
  }
  CgIf in;
  if (ok) cg_if_begin(cg, &in, ok);
  scatter_apply(cg, op, uidx, ridx);
  if (ok) cg_if_end(cg, &in);
  cg_nest_end(cg, loops, nl);
}

/* A symbolic update size may be 0 at run time: the loops then run no
 * iteration, so only a static 0 skips them. */
bool cg_kernel_scatter(CG *cg, Op *op) {
  scatter_init(cg, op);
  if (type_num_elems(scatter_update(op, 0)->type) != 0) scatter_updates(cg, op);
  return true;
}

/* ------------------------------------------------------------------------ */
/* select_and_scatter (spec "select_and_scatter")                            */

/* result[*] = init_value, converted to the scatter computation's type
 * (C10), (C12). */
static void sas_init(CG *cg, Op *op) {
  Value *r = op->results[0], *init = op->opnds[2];
  const Type *t = r->type;
  int rank = t->rank;
  LLVMValueRef v = cg_convert(cg, cg_value_at(cg, init, NULL), init->type->elem,
                              t->elem);
  LLVMValueRef idx[rank > 0 ? rank : 1];
  CgLoop loops[rank > 0 ? rank : 1];
  int nl = cg_nest_begin(cg, r, idx, loops);
  cg_store_at(cg, r, idx, v);
  cg_nest_end(cg, loops, nl);
}

/* The selection state of one window: whether an element was seen, the
 * selected value, and its linear index in operand (and result). */
typedef struct Selection {
  LLVMValueRef have, best, where; /* allocas */
} Selection;

/* One window element at operand index oidx (known in bounds): it replaces
 * the selection when none was made yet or when select(best, current) is
 * false, so the first of equally good elements wins (the spec's
 * reduce_window_without_init with body `select(a, b) ? a : b`, its
 * schedule taken in window order). */
static void sas_visit(CG *cg, Op *op, Selection *s, LLVMValueRef *oidx) {
  Value *operand = op->opnds[0];
  LLVMTypeRef st = cg_scalar_type(cg, operand->type->elem);
  LLVMBuilderRef b = cg->b;
  LLVMValueRef cur = cg_value_at(cg, operand, oidx);
  LLVMValueRef have = LLVMBuildLoad2(b, cg->t_i1, s->have, "have");
  LLVMValueRef best = LLVMBuildLoad2(b, st, s->best, "best");
  LLVMValueRef args[2] = {best, cur}, keep;
  cg_region_scalar(cg, op->regions[0], args, &keep);
  LLVMValueRef drop = LLVMBuildNot(b, keep, "");
  LLVMValueRef take = LLVMBuildOr(b, LLVMBuildNot(b, have, ""), drop, "take");
  LLVMValueRef where = LLVMBuildLoad2(b, cg->t_i64, s->where, "where");
  /* The result has the operand's shape (C11, C12): one offset for both. */
  LLVMValueRef lin = cg_linear_value(cg, op->results[0], oidx);
  LLVMBuildStore(b, LLVMBuildSelect(b, take, cur, best, ""), s->best);
  LLVMBuildStore(b, LLVMBuildSelect(b, take, lin, where, ""), s->where);
  LLVMBuildStore(b, LLVMConstInt(cg->t_i1, 1, 0), s->have);
}

/* Selects within the window of source index sidx: operand index
 * sidx * stride + window_index - padding_low; padding elements are never
 * selected. */
static void sas_select(CG *cg, Op *op, Selection *s, LLVMValueRef *sidx) {
  const Window *w = &op->a.window;
  Value *operand = op->opnds[0];
  const Type *t = operand->type;
  int rank = t->rank;
  LLVMTypeRef st = cg_scalar_type(cg, t->elem);
  LLVMBuildStore(cg->b, LLVMConstInt(cg->t_i1, 0, 0), s->have);
  LLVMBuildStore(cg->b, LLVMConstNull(st), s->best);
  LLVMBuildStore(cg->b, cg_i64(cg, 0), s->where);
  LLVMValueRef widx[rank > 0 ? rank : 1], oidx[rank > 0 ? rank : 1];
  CgLoop loops[rank > 0 ? rank : 1];
  int nl = nest_begin(cg, rank, w->dims.v, NULL, widx, loops);
  LLVMValueRef ok = NULL;
  for (int d = 0; d < rank; d++) {
    LLVMValueRef p = LLVMBuildMul(cg->b, sidx[d], cg_i64(cg, w->strides.v[d]), "");
    p = LLVMBuildAdd(cg->b, p, widx[d], "");
    oidx[d] = LLVMBuildSub(cg->b, p, cg_i64(cg, w->pad_lo.v[d]), "");
    ok = and_in_range(cg, ok, oidx[d], cg_dim(cg, operand, d));
  }
  CgIf in;
  if (ok) cg_if_begin(cg, &in, ok);
  sas_visit(cg, op, s, oidx);
  if (ok) cg_if_end(cg, &in);
  cg_nest_end(cg, loops, nl);
}

/* result[selected] = scatter(result[selected], source[sidx]) */
static void sas_apply(CG *cg, Op *op, Selection *s, LLVMValueRef *sidx) {
  Value *r = op->results[0], *src = op->opnds[1];
  LLVMValueRef have = LLVMBuildLoad2(cg->b, cg->t_i1, s->have, "have");
  CgIf selected;
  cg_if_begin(cg, &selected, have);
  LLVMValueRef lin = LLVMBuildLoad2(cg->b, cg->t_i64, s->where, "where");
  LLVMValueRef buf = cg_buffer(cg, r);
  Block *body = op->regions[1]->blocks[0];
  LLVMValueRef x = cg_value_at(cg, src, src->type->rank ? sidx : NULL);
  LLVMValueRef old = cg_load(cg, buf, r->type->elem, lin);
  LLVMValueRef args[2] = {old, cg_convert(cg, x, src->type->elem, body->args[1]->type->elem)};
  LLVMValueRef res;
  cg_region_scalar(cg, op->regions[1], args, &res);
  cg_store(cg, buf, r->type->elem, lin, res);
  cg_if_end(cg, &selected);
}

/* spec "select_and_scatter": for each source element in row-major order,
 * select an operand element of its window with `select`, then combine the
 * source value into the result at that position with `scatter`. A window
 * made only of padding selects nothing (the spec leaves it unspecified;
 * the source element is dropped). */
bool cg_kernel_select_and_scatter(CG *cg, Op *op) {
  const Window *w = &op->a.window;
  int rank = op->opnds[0]->type->rank;
  if (w->dims.n != rank || w->strides.n != rank || w->pad_lo.n != rank) {
    cg_unsupported(cg, op, "window attributes do not match the operand rank");
    return true;
  }
  sas_init(cg, op);
  Value *src = op->opnds[1];
  /* A symbolic source size may be 0 at run time: the loops then run no
   * iteration, so only a static 0 skips them. */
  if (type_num_elems(src->type) == 0) return true;
  LLVMValueRef have = cg_entry_alloca(cg, cg->t_i1, "have");
  LLVMValueRef best = cg_entry_alloca(cg, cg_scalar_type(cg, op->opnds[0]->type->elem), "best");
  Selection s = {have, best, cg_entry_alloca(cg, cg->t_i64, "where")};
  LLVMValueRef sidx[rank > 0 ? rank : 1];
  CgLoop loops[rank > 0 ? rank : 1];
  int nl = cg_nest_begin(cg, src, sidx, loops);
  sas_select(cg, op, &s, sidx);
  sas_apply(cg, op, &s, sidx);
  cg_nest_end(cg, loops, nl);
  return true;
}
