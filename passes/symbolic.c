/* symbolic.c: sizes of an entry compiled without specialization, as
 * expressions over its dimension symbols (ir.h "Symbolic dimension sizes").
 *
 * refine_shapes hands over each public function whose arguments have `?`
 * sizes when no --input-shapes or --dim specializes it. Every `?` of an
 * argument is a symbol, and so is each JAX dimension argument (refine_shapes
 * finds them). In program order, each op whose operands or results have
 * symbolic sizes gets its result sizes from its shape function (spec: each
 * op's constraints on `shape(result)`), as Value.sym; sizes the shape
 * function makes equal (elementwise operands, contracting dimensions ...)
 * become constraints the entry checks when called. Shape operands of the
 * dynamic ops are folded to expressions through the integer moves JAX
 * emits (constant, convert, reshape, broadcast of one element,
 * concatenate, 1-d slice, get_dimension_size, add, multiply, divide,
 * maximum, and its floor division: a select over divide, remainder and
 * sign).
 * real_dynamic_slice's start and limit may also be values the program
 * computes (DX_VALUE leaves) as long as their difference folds.
 *
 * Only the ops codegen/dyndims.c emits are accepted; any other op on a
 * symbolic value is an error naming it and suggesting specialization. */
#include <string.h>

#include "../ir/ir.h"

enum { MAX_RANK = 64 };

typedef struct Sym {
  Module *m;
  Func *f;
  SymInfo *s;
  Value **dim_args; /* symbol k < ndim_args is the value of dim_args[k] */
  int ndim_args;
  int errors;
  bool runtime; /* fold: what does not fold is a DX_VALUE leaf */
} Sym;

static bool fail(Sym *y, const Op *op, const char *what) {
  diag_error(op->loc, "%s: %s; specialize the program with --input-shapes or --dim",
             op_name(op->code), what);
  y->errors++;
  return false;
}

/* Size i of x as an expression (a constant when static). */
static const DimExpr *dim_of(Sym *y, const Value *x, int i) {
  int64_t d = x->type->dims[i];
  if (d != DIM_DYNAMIC) return dx_const(y->m, y->s, d);
  return x->sym ? x->sym[i] : NULL;
}

/* ------------------------------------------------------------------------ */
/* Shape operands                                                            */

static const DimExpr *fold(Sym *y, const Value *x, int64_t k);

static const DimExpr *fold_concatenate(Sym *y, const Op *op, int64_t k) {
  const Value *x = ir_concat_operand(op, &k);
  return x ? fold(y, x, k) : NULL;
}

static const DimExpr *fold_binary(Sym *y, const Op *op, int64_t k) {
  const DimExpr *a = fold(y, op->opnds[0], k), *b = fold(y, op->opnds[1], k);
  if (!a || !b) return NULL;
  switch (op->code) {
  case OP_ADD: return dx_add(y->m, y->s, a, b);
  case OP_MULTIPLY: return dx_mul(y->m, y->s, a, b);
  /* JAX divides sizes by positive constants only; DX_DIV floors, which is
   * divide's rounding toward zero for a >= 0, required at entry. */
  case OP_DIVIDE:
    if (a->runtime) return NULL; /* a >= 0 cannot be checked at entry: a leaf */
    if (b->kind != DX_CONST || b->c <= 0 || !dx_require(y->m, y->s, a, dx_const(y->m, y->s, 0), true))
      return NULL;
    return dx_div(y->m, y->s, a, b);
  case OP_SUBTRACT: return dx_sub(y->m, y->s, a, b);
  case OP_MAXIMUM: return dx_max(y->m, y->s, a, b);
  default: return NULL;
  }
}

static const Op *def_of(const Value *v, OpCode c) {
  return v->def && v->def->code == c ? v->def : NULL;
}

static bool folds_to(Sym *y, const Value *v, int64_t k, int64_t c) {
  const DimExpr *e = fold(y, v, k);
  return e && e->kind == DX_CONST && e->c == c;
}

/* Whether p is `compare NE, sign(a), sign(b)`. */
static bool signs_differ(const Value *p, const Value *a, const Value *b) {
  const Op *c = def_of(p, OP_COMPARE), *sa, *sb;
  return c && c->a.comparison_direction == CMP_NE && (sa = def_of(c->opnds[0], OP_SIGN)) &&
         (sb = def_of(c->opnds[1], OP_SIGN)) && sa->opnds[0] == a && sb->opnds[0] == b;
}

/* Whether p is `compare NE, remainder(a, b), 0`. */
static bool inexact(Sym *y, const Value *p, int64_t k, const Value *a, const Value *b) {
  const Op *c = def_of(p, OP_COMPARE), *r;
  return c && c->a.comparison_direction == CMP_NE && (r = def_of(c->opnds[0], OP_REMAINDER)) &&
         r->opnds[0] == a && r->opnds[1] == b && folds_to(y, c->opnds[1], k, 0);
}

/* JAX's floor division of sizes (jax's shape_poly `_floordiv`, as in its
 * "SAME" padding of a convolution over a symbolic size): divide rounds
 * toward zero (spec "divide"), so it subtracts 1 where the signs differ
 * and the division is inexact:
 *   select(and(sign(a) != sign(b), remainder(a, b) != 0), a / b - 1, a / b)
 * = floor(a / b), DX_DIV for a positive constant b. */
static const DimExpr *fold_floor_div(Sym *y, const Op *sel, int64_t k) {
  const Op *q = def_of(sel->opnds[2], OP_DIVIDE), *dec = def_of(sel->opnds[1], OP_SUBTRACT);
  const Op *both = def_of(sel->opnds[0], OP_AND);
  if (!q || !dec || !both || dec->opnds[0] != sel->opnds[2] || !folds_to(y, dec->opnds[1], k, 1))
    return NULL;
  const Value *a = q->opnds[0], *b = q->opnds[1], *p = both->opnds[0], *r = both->opnds[1];
  if (!(signs_differ(p, a, b) && inexact(y, r, k, a, b)) &&
      !(signs_differ(r, a, b) && inexact(y, p, k, a, b)))
    return NULL;
  const DimExpr *n = fold(y, a, k), *d = fold(y, b, k);
  if (!n || n->runtime || !d || d->kind != DX_CONST || d->c <= 0) return NULL;
  return dx_div(y->m, y->s, n, d);
}

static const DimExpr *fold_op(Sym *y, const Op *op, int64_t k) {
  switch (op->code) {
  case OP_SELECT: return fold_floor_div(y, op, k);
  case OP_CONSTANT: return op->a.value ? dx_const(y->m, y->s, dense_get_i64(op->a.value, k)) : NULL;
  case OP_CONVERT: case OP_RESHAPE: return fold(y, op->opnds[0], k);
  case OP_BROADCAST_IN_DIM:
    return type_num_elems(op->opnds[0]->type) == 1 ? fold(y, op->opnds[0], 0) : NULL;
  case OP_CONCATENATE: return fold_concatenate(y, op, k);
  case OP_SLICE:
    if (op->a.start_indices.n != 1) return NULL;
    return fold(y, op->opnds[0], op->a.start_indices.v[0] + k * op->a.strides.v[0]);
  case OP_GET_DIMENSION_SIZE: return dim_of(y, op->opnds[0], (int)op->a.dimension);
  case OP_ADD: case OP_MULTIPLY: case OP_DIVIDE: case OP_SUBTRACT: case OP_MAXIMUM:
    return fold_binary(y, op, k);
  default: return NULL;
  }
}

/* Element k of the integer tensor x as a size expression, or NULL; with
 * y->runtime, a DX_VALUE leaf where it does not fold. */
static const DimExpr *fold(Sym *y, const Value *x, int64_t k) {
  if (!type_is_static(x->type) || !elem_is_int(x->type->elem)) return NULL;
  const DimExpr *e = NULL;
  if (x->def) e = fold_op(y, x->def, k);
  for (int i = 0; !x->def && i < y->ndim_args; i++)
    if (y->dim_args[i] == x && k == 0) e = dx_sym(y->m, y->s, i);
  return e || !y->runtime ? e : dx_value(y->m, y->s, x, k);
}

/* ------------------------------------------------------------------------ */
/* Result sizes                                                              */

/* Requires a == b for op (both non-NULL). */
static bool same(Sym *y, const Op *op, const DimExpr *a, const DimExpr *b) {
  if (!a || !b) return fail(y, op, "a size is not known");
  if (!dx_require(y->m, y->s, a, b, false)) return fail(y, op, "static sizes differ");
  return true;
}

/* Requires size i of a == size j of b. b's size is interned first, a's
 * second (their DimExpr.id), as a gcc-built shloc always did: not left to
 * the C compiler's order of arguments (tools/eval_order.py). */
static bool same_size(Sym *y, const Op *op, const Value *a, int i, const Value *b, int j) {
  const DimExpr *bj = dim_of(y, b, j);
  return same(y, op, dim_of(y, a, i), bj);
}

/* Requires size i of x == c; c interned first (same_size). */
static bool same_as_const(Sym *y, const Op *op, const Value *x, int i, int64_t c) {
  const DimExpr *k = dx_const(y->m, y->s, c);
  return same(y, op, dim_of(y, x, i), k);
}

/* spec: elementwise ops (C1): operands of the result's rank share its shape
 * (select and clamp may also take 0-d ones). */
static bool infer_elementwise(Sym *y, Op *op, const DimExpr **out) {
  int rank = op->results[0]->type->rank;
  for (int i = 0; i < rank; i++) out[i] = NULL;
  for (int k = 0; k < op->nopnds; k++) {
    const Value *x = op->opnds[k];
    if (x->type->rank != rank) continue;
    for (int i = 0; i < rank; i++) {
      const DimExpr *d = dim_of(y, x, i);
      if (!out[i]) out[i] = d;
      else if (!same(y, op, out[i], d)) return false;
    }
  }
  return true;
}

/* Result size i from the result type or the shape operand (dynamic ops). */
static const DimExpr *declared(Sym *y, const Op *op, int shape_opnd, int i) {
  int64_t d = op->results[0]->type->dims[i];
  if (d != DIM_DYNAMIC) return dx_const(y->m, y->s, d);
  return shape_opnd >= 0 ? fold(y, op->opnds[shape_opnd], i) : NULL;
}

/* spec: broadcast_in_dim (C5): an operand size is 1 or the result size it
 * maps to. A symbolic operand size must equal it (a size 1 that is only
 * known at run time is not broadcast: the entry's check fails instead). */
static bool infer_broadcast(Sym *y, Op *op, const DimExpr **out) {
  const Value *x = op->opnds[0];
  int shape = op->code == OP_DYNAMIC_BROADCAST_IN_DIM ? 1 : -1;
  int rank = op->results[0]->type->rank;
  for (int i = 0; i < rank; i++) out[i] = declared(y, op, shape, i);
  for (int i = 0; i < x->type->rank; i++) {
    int64_t j = op->a.broadcast_dimensions.v[i];
    const DimExpr *d = dim_of(y, x, i);
    if (d->kind == DX_CONST && d->c == 1) continue;
    if (!out[j]) out[j] = d;
    else if (!same(y, op, d, out[j])) return false;
  }
  return true;
}

static const DimExpr *num_elems(Sym *y, const Value *x, const DimExpr **dims) {
  const DimExpr *n = dx_const(y->m, y->s, 1);
  for (int i = 0; i < x->type->rank; i++) n = dx_mul(y->m, y->s, n, dims ? dims[i] : dim_of(y, x, i));
  return n;
}

/* spec: reshape (C2) and dynamic_reshape: same number of elements; one
 * unknown size of a static reshape is the quotient. */
static bool infer_reshape(Sym *y, Op *op, const DimExpr **out) {
  int shape = op->code == OP_DYNAMIC_RESHAPE ? 1 : -1, rank = op->results[0]->type->rank;
  int unknown = -1;
  const DimExpr *known = dx_const(y->m, y->s, 1);
  for (int i = 0; i < rank; i++) {
    out[i] = declared(y, op, shape, i);
    if (!out[i] && unknown >= 0) return fail(y, op, "more than one result size is unknown");
    if (!out[i]) unknown = i;
    else known = dx_mul(y->m, y->s, known, out[i]);
  }
  const DimExpr *n = num_elems(y, op->opnds[0], NULL);
  if (unknown >= 0) out[unknown] = dx_div(y->m, y->s, n, known);
  return same(y, op, n, num_elems(y, op->results[0], out));
}

static bool infer_iota(Sym *y, Op *op, const DimExpr **out) {
  for (int i = 0; i < op->results[0]->type->rank; i++)
    if (!(out[i] = declared(y, op, op->code == OP_DYNAMIC_IOTA ? 0 : -1, i)))
      return fail(y, op, "output_shape does not fold to sizes");
  return true;
}

/* spec: concatenate (C6): sizes add up along `dimension`, others agree. */
static bool infer_concatenate(Sym *y, Op *op, const DimExpr **out) {
  int rank = op->results[0]->type->rank;
  int64_t axis = op->a.dimension;
  for (int i = 0; i < rank; i++) out[i] = i == axis ? dx_const(y->m, y->s, 0) : NULL;
  for (int k = 0; k < op->nopnds; k++)
    for (int i = 0; i < rank; i++) {
      const DimExpr *d = dim_of(y, op->opnds[k], i);
      if (i == axis) out[i] = dx_add(y->m, y->s, out[i], d);
      else if (!out[i]) out[i] = d;
      else if (!same(y, op, out[i], d)) return false;
    }
  return true;
}

/* spec: slice (C3): limit_indices <= shape(operand); the result sizes are
 * static. */
static bool infer_slice(Sym *y, Op *op, const DimExpr **out) {
  const Value *x = op->opnds[0];
  for (int i = 0; i < x->type->rank; i++) {
    const DimExpr *lim = dx_const(y->m, y->s, op->a.limit_indices.v[i]);
    if (!dx_require(y->m, y->s, dim_of(y, x, i), lim, true)) return fail(y, op, "limit out of range");
    out[i] = dx_const(y->m, y->s, op->results[0]->type->dims[i]);
  }
  return true;
}

/* Element i of shape operand k of op, where values the program computes
 * are DX_VALUE leaves. */
static const DimExpr *fold_runtime(Sym *y, const Op *op, int k, int i) {
  y->runtime = true;
  const DimExpr *e = fold(y, op->opnds[k], i);
  y->runtime = false;
  return e;
}

/* real_dynamic_slice (the spec has no section for it; StableHLO's op
 * definition: slice with start, limit and strides given as values, so
 * slice (C2-C5) on the folded operands): 0 <= start <= limit <= size,
 * stride > 0 (a constant here); the result size is
 * ceil((limit - start) / stride). A start the program computes is read
 * when the op runs and clamped (codegen/dyndims.c): only limit - start
 * must fold, and the entry checks 0 <= limit - start <= size. */
static bool infer_real_dynamic_slice(Sym *y, Op *op, const DimExpr **out) {
  Module *m = y->m;
  const Value *x = op->opnds[0];
  for (int i = 0; i < x->type->rank; i++) {
    const DimExpr *start = fold_runtime(y, op, 1, i), *limit = fold_runtime(y, op, 2, i);
    const DimExpr *stride = fold(y, op->opnds[3], i), *zero = dx_const(m, y->s, 0);
    if (!start || !limit || !stride || stride->kind != DX_CONST || stride->c <= 0)
      return fail(y, op, "start, limit or a positive constant stride does not fold");
    const DimExpr *len = dx_sub(m, y->s, limit, start);
    if (len->runtime) return fail(y, op, "limit - start depends on values computed at run time");
    bool ok = start->runtime ? dx_require(m, y->s, len, zero, true) &&
                                   dx_require(m, y->s, dim_of(y, x, i), len, true)
                             : dx_require(m, y->s, start, zero, true) &&
                                   dx_require(m, y->s, limit, start, true) &&
                                   dx_require(m, y->s, dim_of(y, x, i), limit, true);
    if (!ok) return fail(y, op, "indices out of range");
    out[i] = dx_div(m, y->s, dx_add(m, y->s, len, dx_const(m, y->s, stride->c - 1)), stride);
  }
  return true;
}

static bool infer_transpose(Sym *y, Op *op, const DimExpr **out) {
  for (int i = 0; i < op->results[0]->type->rank; i++)
    out[i] = dim_of(y, op->opnds[0], (int)op->a.permutation.v[i]);
  return true;
}

/* spec: dot_general (C5, C6): batch and contracting sizes agree; the result
 * is batch, lhs free, rhs free sizes. */
static bool infer_dot(Sym *y, Op *op, const DimExpr **out) {
  const DotDims *dd = &op->a.dot;
  const Value *l = op->opnds[0], *r = op->opnds[1];
  int n = 0;
  for (int i = 0; i < dd->lhs_batch.n; i++) {
    out[n] = dim_of(y, l, (int)dd->lhs_batch.v[i]);
    if (!same(y, op, out[n++], dim_of(y, r, (int)dd->rhs_batch.v[i]))) return false;
  }
  for (int i = 0; i < dd->lhs_contract.n; i++)
    if (!same_size(y, op, l, (int)dd->lhs_contract.v[i], r, (int)dd->rhs_contract.v[i]))
      return false;
  for (int i = 0; i < l->type->rank; i++)
    if (!ir_list_has(&dd->lhs_batch, i) && !ir_list_has(&dd->lhs_contract, i)) out[n++] = dim_of(y, l, i);
  for (int i = 0; i < r->type->rank; i++)
    if (!ir_list_has(&dd->rhs_batch, i) && !ir_list_has(&dd->rhs_contract, i)) out[n++] = dim_of(y, r, i);
  return true;
}

/* spec: reduce (C1, C7): the inputs share a shape; the results have it
 * without `dimensions`. */
static bool infer_reduce(Sym *y, Op *op, const DimExpr **out) {
  const Value *x = op->opnds[0];
  int n = 0, ninputs = op->nopnds / 2;
  for (int i = 0; i < x->type->rank; i++) {
    for (int k = 1; k < ninputs; k++)
      if (!same_size(y, op, x, i, op->opnds[k], i)) return false;
    if (!ir_list_has(&op->a.dimensions, i)) out[n++] = dim_of(y, x, i);
  }
  return true;
}

/* spec: reverse (C1): the operand's shape. */
static bool infer_reverse(Sym *y, Op *op, const DimExpr **out) {
  for (int i = 0; i < op->results[0]->type->rank; i++) out[i] = dim_of(y, op->opnds[0], i);
  return true;
}

/* spec: bitcast_convert (C1, C2): the operand's shape, with a last
 * dimension of bits(operand) / bits(result) added when the result's
 * elements are narrower, or one of bits(result) / bits(operand) dropped
 * when they are wider. */
static bool infer_bitcast_convert(Sym *y, Op *op, const DimExpr **out) {
  const Value *x = op->opnds[0], *r = op->results[0];
  int rx = x->type->rank, rr = r->type->rank;
  for (int i = 0; i < rr; i++)
    out[i] = i < rx ? dim_of(y, x, i) : dx_const(y->m, y->s, r->type->dims[i]);
  if (rx <= rr) return true;
  int64_t k = elem_bits(r->type->elem) / elem_bits(x->type->elem);
  return same_as_const(y, op, x, rx - 1, k);
}

/* spec: pad and dynamic_pad (C3, C4): edge_padding_low + size +
 * max(size - 1, 0) * interior_padding + edge_padding_high, with
 * interior_padding >= 0 and a result size that is not negative. */
static const DimExpr *pad_size(Sym *y, const DimExpr *n, const DimExpr *lo, const DimExpr *hi,
                               const DimExpr *in) {
  Module *m = y->m;
  SymInfo *s = y->s;
  const DimExpr *zero = dx_const(m, s, 0);
  if (!dx_require(m, s, in, zero, true)) return NULL;
  const DimExpr *holes = dx_mul(m, s, dx_max(m, s, dx_sub(m, s, n, dx_const(m, s, 1)), zero), in);
  const DimExpr *r = dx_add(m, s, dx_add(m, s, lo, dx_add(m, s, n, holes)), hi);
  return dx_require(m, s, r, zero, true) ? r : NULL;
}

static bool infer_pad(Sym *y, Op *op, const DimExpr **out) {
  Module *m = y->m;
  const Value *x = op->opnds[0];
  bool dyn = op->code == OP_DYNAMIC_PAD;
  for (int i = 0; i < x->type->rank; i++) {
    const DimExpr *lo, *hi, *in;
    if (dyn) {
      lo = fold(y, op->opnds[2], i), hi = fold(y, op->opnds[3], i), in = fold(y, op->opnds[4], i);
      if (!lo || !hi || !in) return fail(y, op, "the padding does not fold to sizes");
    } else {
      lo = dx_const(m, y->s, op->a.edge_padding_low.v[i]);
      hi = dx_const(m, y->s, op->a.edge_padding_high.v[i]);
      in = dx_const(m, y->s, op->a.interior_padding.n > i ? op->a.interior_padding.v[i] : 0);
    }
    if (!(out[i] = pad_size(y, dim_of(y, x, i), lo, hi, in)))
      return fail(y, op, "negative interior padding or result size");
  }
  return true;
}

static int64_t window_at(const I64List *l, int d, int64_t dflt) {
  return l->n > d ? l->v[d] : dflt;
}

/* The number of windows along dimension d of w over an input of n
 * elements, window size k (spec "reduce_window" (C15), "convolution"
 * (C25): the
 * input dilated by base_dilations and padded (Window.pad_sym, else the
 * constant padding), the window dilated by
 * window_dilations, then strided):
 *   max(floor((padded - dilated_window + stride) / stride), 0)
 * with padded = max((n - 1) * base_dilation + 1, 0) + low + high. */
static const DimExpr *num_windows(Sym *y, const Window *w, int d, const DimExpr *n, int64_t k) {
  Module *m = y->m;
  SymInfo *s = y->s;
  int64_t bd = window_at(&w->base_dilations, d, 1), wd = window_at(&w->window_dilations, d, 1);
  int64_t stride = window_at(&w->strides, d, 1);
  int64_t cpad = window_at(&w->pad_lo, d, 0) + window_at(&w->pad_hi, d, 0);
  const DimExpr *pad = w->pad_sym ? dx_add(m, s, w->pad_sym[2 * d], w->pad_sym[2 * d + 1])
                                   : dx_const(m, s, cpad);
  const DimExpr *zero = dx_const(m, s, 0);
  const DimExpr *bd_m1 = dx_const(m, s, bd - 1);
  const DimExpr *dilated = dx_sub(m, s, dx_mul(m, s, n, dx_const(m, s, bd)), bd_m1);
  const DimExpr *padded = dx_add(m, s, dx_max(m, s, dilated, zero), pad);
  const DimExpr *span = dx_add(m, s, padded, dx_const(m, s, stride - ((k - 1) * wd + 1)));
  return dx_max(m, s, dx_div(m, s, span, dx_const(m, s, stride)), zero);
}

/* spec: reduce_window (C1, C15): the inputs share a shape; each result
 * size is the number of windows along that dimension. */
static bool infer_reduce_window(Sym *y, Op *op, const DimExpr **out) {
  const Value *x = op->opnds[0];
  const Window *w = &op->a.window;
  for (int i = 0; i < x->type->rank; i++) {
    for (int k = 1; k < op->nopnds / 2; k++)
      if (!same_size(y, op, x, i, op->opnds[k], i)) return false;
    out[i] = num_windows(y, w, i, dim_of(y, x, i), window_at(&w->dims, i, 1));
  }
  return true;
}

/* spec: select_and_scatter (C2): the source has one element per window of
 * the padded operand (reduce_window's count, no dilations); (C11, C12):
 * the result has the operand's shape. */
static bool infer_select_and_scatter(Sym *y, Op *op, const DimExpr **out) {
  const Value *x = op->opnds[0], *src = op->opnds[1];
  const Window *w = &op->a.window;
  for (int i = 0; i < x->type->rank; i++) {
    out[i] = dim_of(y, x, i);
    const DimExpr *windows = num_windows(y, w, i, out[i], window_at(&w->dims, i, 1));
    if (!same(y, op, dim_of(y, src, i), windows)) return false;
  }
  return true;
}

/* spec: convolution (C10, C14, C25): output batch lhs batch /
 * batch_group_count, output features those of the kernel, output spatial
 * sizes the number of windows; lhs features = kernel input features *
 * feature_group_count. The kernel's sizes must be static here (the
 * generator's loops over it are unrolled by size). */
static bool infer_convolution(Sym *y, Op *op, const DimExpr **out) {
  Module *m = y->m;
  const ConvDims *cd = &op->a.conv;
  const Value *l = op->opnds[0], *k = op->opnds[1];
  if (!type_is_static(k->type)) return fail(y, op, "the kernel has symbolic sizes");
  int64_t bg = op->a.batch_group_count > 0 ? op->a.batch_group_count : 1;
  int64_t fg = op->a.feature_group_count > 0 ? op->a.feature_group_count : 1;
  const DimExpr *n = dim_of(y, l, (int)cd->in_batch), *g = dx_const(m, y->s, bg);
  out[cd->out_batch] = dx_div(m, y->s, n, g);
  if (!same(y, op, dx_mul(m, y->s, out[cd->out_batch], g), n) ||
      !same_as_const(y, op, l, (int)cd->in_feature, k->type->dims[cd->k_in_feature] * fg))
    return false;
  out[cd->out_feature] = dx_const(m, y->s, k->type->dims[cd->k_out_feature]);
  for (int i = 0; i < cd->in_spatial.n; i++)
    out[cd->out_spatial.v[i]] = num_windows(y, &op->a.window, i, dim_of(y, l, (int)cd->in_spatial.v[i]),
                                            k->type->dims[cd->k_spatial.v[i]]);
  return true;
}

/* spec: dynamic_conv = convolution with the padding given as a value
 * (tensor<(N-2)x2>, (C4)), folded to sizes: constant padding makes it a
 * convolution, padding computed from symbolic sizes a convolution whose
 * Window.pad_sym the entry evaluates (codegen/window.c;
 * refine_conv_padding). */
static bool infer_dynamic_conv(Sym *y, Op *op, const DimExpr **out) {
  int n = (int)op->a.conv.in_spatial.n;
  if (n > MAX_RANK) return fail(y, op, "too many spatial dimensions");
  const DimExpr **pad = ARENA_ARRAY(&y->m->arena, const DimExpr *, 2 * n);
  int64_t c[2 * MAX_RANK];
  bool constant = true;
  for (int k = 0; k < 2 * n; k++) {
    if (!(pad[k] = fold(y, op->opnds[2], k)))
      return fail(y, op, "the padding does not fold to sizes");
    constant &= pad[k]->kind == DX_CONST;
  }
  for (int k = 0; k < 2 * n; k++) c[k] = constant ? pad[k]->c : 0;
  refine_conv_padding(y->m, op, c, constant ? NULL : pad);
  return infer_convolution(y, op, out);
}

/* spec: dynamic_slice (C4, C5): slice_sizes <= shape(operand), the
 * result's shape. */
static bool infer_dynamic_slice(Sym *y, Op *op, const DimExpr **out) {
  const Value *x = op->opnds[0];
  for (int i = 0; i < x->type->rank; i++) {
    out[i] = dx_const(y->m, y->s, op->a.slice_sizes.v[i]);
    if (!dx_require(y->m, y->s, dim_of(y, x, i), out[i], true)) return fail(y, op, "slice_sizes out of range");
  }
  return true;
}

/* spec: dynamic_update_slice (C1, C6): shape(update) <= shape(operand), the
 * result's shape. */
static bool infer_dynamic_update_slice(Sym *y, Op *op, const DimExpr **out) {
  const Value *x = op->opnds[0];
  for (int i = 0; i < x->type->rank; i++) {
    out[i] = dim_of(y, x, i);
    if (!dx_require(y->m, y->s, out[i], dim_of(y, op->opnds[1], i), true))
      return fail(y, op, "the update is larger than the operand");
  }
  return true;
}

/* Whether the single block of r uses only its own arguments and results
 * (codegen emits a symbolic sort's comparator in a function of its own). */
static bool self_contained(const Region *r) {
  const Block *b = r->blocks[0];
  for (const Op *op = b->first; op; op = op->next)
    for (int i = 0; i < op->nopnds; i++) {
      const Value *v = op->opnds[i];
      if (v->def ? v->def->parent != b : v->block != b) return false;
    }
  return true;
}

/* spec: sort (C3): inputs and results share one shape. */
static bool infer_sort(Sym *y, Op *op, const DimExpr **out) {
  const Value *x = op->opnds[0];
  if (op->nregions != 1 || op->regions[0]->nblocks != 1 || !self_contained(op->regions[0]))
    return fail(y, op, "a comparator that uses values from outside it");
  for (int i = 0; i < x->type->rank; i++) {
    out[i] = dim_of(y, x, i);
    for (int k = 1; k < op->nopnds; k++)
      if (!same(y, op, out[i], dim_of(y, op->opnds[k], i))) return false;
  }
  return true;
}

/* spec: triangular_solve (C3) and cholesky (C1): leading batch dimensions
 * shared by the operands, the shape of the last. Only the batch sizes may
 * be symbolic (linalg.c's matrices have static sizes). */
static bool infer_linalg(Sym *y, Op *op, const DimExpr **out) {
  const Value *b = op->opnds[op->nopnds - 1];
  int rank = b->type->rank;
  for (int k = 0; k < op->nopnds; k++)
    for (int i = rank - 2; i < rank; i++)
      if (op->opnds[k]->type->dims[i] == DIM_DYNAMIC) return fail(y, op, "a matrix size is symbolic");
  for (int i = 0; i < rank; i++) {
    out[i] = dim_of(y, b, i);
    if (i < rank - 2 && !same(y, op, out[i], dim_of(y, op->opnds[0], i))) return false;
  }
  return true;
}

/* slice_sizes[d] of gather (the attribute) or dynamic_gather (its operand,
 * folded), or NULL. */
static const DimExpr *slice_size(Sym *y, const Op *op, int d) {
  if (op->code == OP_GATHER) return dx_const(y->m, y->s, op->a.gather.slice_sizes.v[d]);
  return fold(y, op->opnds[2], d);
}

/* spec: gather (C21) / dynamic_gather (C12): 0 <= slice_sizes <=
 * shape(operand); (C9), (C12) / (C8): at most 1 where collapsed or
 * batching. Writes the slice sizes. */
static bool gather_slices(Sym *y, Op *op, const DimExpr **slice) {
  const GatherDims *g = &op->a.gather;
  const Value *x = op->opnds[0];
  const DimExpr *zero = dx_const(y->m, y->s, 0), *one = dx_const(y->m, y->s, 1);
  for (int d = 0; d < x->type->rank; d++) {
    if (!(slice[d] = slice_size(y, op, d))) return fail(y, op, "slice_sizes does not fold to sizes");
    bool unit = ir_list_has(&g->collapsed_slice_dims, d) || ir_list_has(&g->operand_batching_dims, d);
    if (!dx_require(y->m, y->s, slice[d], zero, true) ||
        !dx_require(y->m, y->s, dim_of(y, x, d), slice[d], true) ||
        (unit && !dx_require(y->m, y->s, one, slice[d], true)))
      return fail(y, op, "slice_sizes out of range");
  }
  return true;
}

/* Requires dim(a, da...) = dim(b, db...) (the batching dimensions of
 * gather (C17) and scatter (C18)). */
static bool same_dims(Sym *y, Op *op, const Value *a, const I64List *da, const Value *b,
                      const I64List *db) {
  for (int i = 0; i < da->n && i < db->n; i++)
    if (!same_size(y, op, a, (int)da->v[i], b, (int)db->v[i])) return false;
  return true;
}

/* Requires dim(indices, index_vector_dim) = n, the number of start index
 * components (gather (C3), scatter (C19)). */
static bool index_vector_size(Sym *y, Op *op, const Value *indices, int64_t ivd, int64_t n) {
  return ivd >= indices->type->rank || same_as_const(y, op, indices, (int)ivd, n);
}

/* spec: gather (C22) / dynamic_gather (C13): the sizes of start_indices
 * but index_vector_dim at the batch dimensions, the slice sizes of the
 * dimensions neither collapsed nor batching at offset_dims. */
static bool infer_gather(Sym *y, Op *op, const DimExpr **out) {
  const GatherDims *g = &op->a.gather;
  const Value *x = op->opnds[0], *si = op->opnds[1];
  const DimExpr *slice[MAX_RANK];
  if (x->type->rank > MAX_RANK) return fail(y, op, "operand rank too large");
  if (!gather_slices(y, op, slice) ||
      !same_dims(y, op, x, &g->operand_batching_dims, si, &g->start_indices_batching_dims) ||
      !index_vector_size(y, op, si, g->index_vector_dim, g->start_index_map.n))
    return false;
  int b = 0, o = 0;
  for (int i = 0; i < op->results[0]->type->rank; i++) {
    if (ir_list_has(&g->offset_dims, i)) {
      while (o < x->type->rank && (ir_list_has(&g->collapsed_slice_dims, o) ||
                                   ir_list_has(&g->operand_batching_dims, o)))
        o++;
      out[i] = o < x->type->rank ? slice[o++] : NULL;
      continue;
    }
    if (b == g->index_vector_dim) b++;
    out[i] = b < si->type->rank ? dim_of(y, si, b++) : NULL;
  }
  return true;
}

/* spec: scatter (C4): updates[0] has the sizes of scatter_indices but
 * index_vector_dim at the update scatter dimensions, and at the window
 * dimensions sizes at most those of inputs[0] that are neither inserted
 * nor batching. */
static bool scatter_updates(Sym *y, Op *op) {
  const ScatterDims *sd = &op->a.scatter;
  const Value *x = op->opnds[0], *si = op->opnds[op->nresults], *u = op->opnds[op->nresults + 1];
  int b = 0, w = 0;
  for (int d = 0; d < u->type->rank; d++) {
    if (!ir_list_has(&sd->update_window_dims, d)) {
      if (b == sd->index_vector_dim) b++;
      if (b >= si->type->rank || !same_size(y, op, u, d, si, b++)) return false;
      continue;
    }
    while (w < x->type->rank && (ir_list_has(&sd->inserted_window_dims, w) ||
                                 ir_list_has(&sd->input_batching_dims, w)))
      w++;
    const DimExpr *ud = dim_of(y, u, d);
    if (w >= x->type->rank || !dx_require(y->m, y->s, dim_of(y, x, w++), ud, true))
      return fail(y, op, "an update window is larger than the input");
  }
  return true;
}

/* spec: scatter (C1), (C3): inputs share a shape, and so do updates;
 * (C24): the results have the inputs' shape; (C4), (C18), (C19). */
static bool infer_scatter(Sym *y, Op *op, const DimExpr **out) {
  const ScatterDims *sd = &op->a.scatter;
  int n = op->nresults;
  const Value *x = op->opnds[0], *si = op->opnds[n], *u = op->opnds[n + 1];
  for (int i = 0; i < x->type->rank; i++) {
    out[i] = dim_of(y, x, i);
    for (int k = 1; k < n; k++)
      if (!same(y, op, out[i], dim_of(y, op->opnds[k], i))) return false;
  }
  for (int i = 0; i < u->type->rank; i++)
    for (int k = 1; k < n; k++)
      if (!same_size(y, op, u, i, op->opnds[n + 1 + k], i)) return false;
  return scatter_updates(y, op) &&
         same_dims(y, op, x, &sd->input_batching_dims, si, &sd->scatter_indices_batching_dims) &&
         index_vector_size(y, op, si, sd->index_vector_dim, sd->scatter_dims_to_operand_dims.n);
}

static bool (*const INFER[OP_COUNT])(Sym *y, Op *op, const DimExpr **out) = {
    [OP_TRIANGULAR_SOLVE] = infer_linalg,
    [OP_CHOLESKY] = infer_linalg,
    [OP_SORT] = infer_sort,
    [OP_DYNAMIC_SLICE] = infer_dynamic_slice,
    [OP_DYNAMIC_UPDATE_SLICE] = infer_dynamic_update_slice,
    [OP_REDUCE_WINDOW] = infer_reduce_window,
    [OP_CONVOLUTION] = infer_convolution,
    [OP_DYNAMIC_CONV] = infer_dynamic_conv,
    [OP_REVERSE] = infer_reverse,
    [OP_BITCAST_CONVERT] = infer_bitcast_convert,
    [OP_PAD] = infer_pad,
    [OP_DYNAMIC_PAD] = infer_pad,
    [OP_BROADCAST_IN_DIM] = infer_broadcast,
    [OP_DYNAMIC_BROADCAST_IN_DIM] = infer_broadcast,
    [OP_RESHAPE] = infer_reshape,
    [OP_DYNAMIC_RESHAPE] = infer_reshape,
    [OP_IOTA] = infer_iota,
    [OP_DYNAMIC_IOTA] = infer_iota,
    [OP_CONCATENATE] = infer_concatenate,
    [OP_SLICE] = infer_slice,
    [OP_REAL_DYNAMIC_SLICE] = infer_real_dynamic_slice,
    [OP_TRANSPOSE] = infer_transpose,
    [OP_DOT_GENERAL] = infer_dot,
    [OP_REDUCE] = infer_reduce,
    [OP_GATHER] = infer_gather,
    [OP_DYNAMIC_GATHER] = infer_gather,
    [OP_SCATTER] = infer_scatter,
    [OP_SELECT_AND_SCATTER] = infer_select_and_scatter,
};

/* Requires size i of a value of type t, d, to be at most its bound
 * (#stablehlo.bounds); the entry checks it. False when d is a constant
 * above it. */
static bool within_bound(Sym *y, const Type *t, int i, const DimExpr *d) {
  if (!t->bounds || t->bounds[i] == DIM_DYNAMIC) return true;
  return dx_require(y->m, y->s, dx_const(y->m, y->s, t->bounds[i]), d, true);
}

/* Sets x's sizes: static where an expression is a constant (refining its
 * type), symbolic elsewhere; a static size of the type must agree (the
 * entry checks it when the expression is symbolic) and stays static. */
static bool set_sizes(Sym *y, Op *op, Value *x, const DimExpr **d) {
  const Type *t = x->type;
  int64_t dims[MAX_RANK];
  const DimExpr *e[MAX_RANK];
  bool symbolic = false;
  for (int i = 0; i < t->rank; i++) {
    if (!d[i]) return fail(y, op, "a result size does not follow from the operands");
    e[i] = d[i];
    if (t->dims[i] != DIM_DYNAMIC) {
      e[i] = dx_const(y->m, y->s, t->dims[i]);
      if (!same(y, op, d[i], e[i])) return false;
    }
    if (!within_bound(y, t, i, e[i])) return fail(y, op, "a size is above its bound");
    dims[i] = e[i]->kind == DX_CONST ? e[i]->c : DIM_DYNAMIC;
    symbolic |= dims[i] == DIM_DYNAMIC;
  }
  x->type = t->elem == ET_QUANT ? type_tensor_quant(y->m->types, t->quant, t->rank, dims)
                                : type_tensor(y->m->types, t->elem, t->rank, dims);
  if (!symbolic) return true;
  x->sym = ARENA_ARRAY(&y->m->arena, const DimExpr *, t->rank);
  memcpy(x->sym, e, sizeof *e * (size_t)t->rank);
  return true;
}

static bool symbolic_value(const Value *x) {
  return x->type->kind == TY_TENSOR && !type_is_static(x->type);
}

/* Ops with several results of one shape: variadic reduce, reduce_window,
 * sort and scatter. */
static bool shared_sizes(const Op *op) {
  return op->nresults == 1 || op->code == OP_REDUCE || op->code == OP_REDUCE_WINDOW ||
         op->code == OP_SORT || op->code == OP_SCATTER;
}

static void infer_op(Sym *y, Op *op) {
  bool symbolic = false;
  for (int i = 0; i < op->nopnds; i++) {
    /* An operand without sizes comes from an op already reported. */
    if (symbolic_value(op->opnds[i]) && !op->opnds[i]->sym) return;
    symbolic |= symbolic_value(op->opnds[i]);
  }
  for (int i = 0; i < op->nresults; i++) symbolic |= symbolic_value(op->results[i]);
  /* dynamic_gather reads its slice sizes when called (dyngather.c): they
   * must fold, even where every size is static, so that the entry checks
   * them against the operand and the result type. */
  symbolic |= op->code == OP_DYNAMIC_GATHER;
  /* dynamic_conv becomes a convolution here, whatever its sizes. */
  symbolic |= op->code == OP_DYNAMIC_CONV;
  if (!symbolic || op->code == OP_FUNC_RETURN || op->code == OP_GET_DIMENSION_SIZE ||
      ir_is_shape_assertion(op))
    return;
  const Type *t = op->results[0]->type;
  if (!shared_sizes(op) || t->kind != TY_TENSOR || t->rank > MAX_RANK) {
    fail(y, op, "not compiled on symbolic sizes");
    return;
  }
  const DimExpr *d[MAX_RANK];
  bool ok;
  if (ir_is_elementwise(op->code)) ok = infer_elementwise(y, op, d);
  else if (INFER[op->code]) ok = INFER[op->code](y, op, d);
  else ok = fail(y, op, "not compiled on symbolic sizes");
  /* The results of a variadic reduce, reduce_window, sort or scatter
   * share their sizes. */
  for (int i = 0; ok && i < op->nresults; i++) ok = set_sizes(y, op, op->results[i], d);
}

/* The symbols: dimension arguments first, then each `?` of the arguments. */
static void make_symbols(Sym *y, const char **dim_names) {
  Block *b = y->f->body;
  int n = y->ndim_args;
  for (int i = 0; i < b->nargs; i++)
    for (int k = 0; k < b->args[i]->type->rank; k++) n += b->args[i]->type->dims[k] == DIM_DYNAMIC;
  SymInfo *s = y->s;
  s->syms = ARENA_ARRAY(&y->m->arena, DimSym, n);
  for (int i = 0; i < y->ndim_args; i++)
    s->syms[s->nsyms++] = (DimSym){dim_names[i], y->dim_args[i]->index, -1};
  for (int i = 0; i < b->nargs; i++) {
    Value *a = b->args[i];
    if (!symbolic_value(a)) continue;
    a->sym = ARENA_ARRAY(&y->m->arena, const DimExpr *, a->type->rank);
    for (int k = 0; k < a->type->rank; k++) {
      if (a->type->dims[k] != DIM_DYNAMIC) continue;
      s->syms[s->nsyms] = (DimSym){arena_printf(&y->m->arena, "arg%d_dim%d", i, k), i, k};
      a->sym[k] = dx_sym(y->m, y->s, s->nsyms++);
      within_bound(y, a->type, k, a->sym[k]);
    }
  }
}

int refine_symbolic(Module *m, Func *f, Value **dim_args, const char **dim_names, int ndims) {
  Sym y = {.m = m, .f = f, .dim_args = dim_args, .ndim_args = ndims};
  y.s = f->sym = ARENA_NEW(&m->arena, SymInfo);
  make_symbols(&y, dim_names);
  for (Op *op = f->body->first; op; op = op->next) infer_op(&y, op);
  return y.errors;
}
