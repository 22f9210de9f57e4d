/* quant.c: lowers quantized types to computation on their storage integers
 * and expressed floats, so that no later pass or codegen sees ET_QUANT.
 *
 * The spec defines quantized ops through float computation (spec:
 * "Quantized element types", `uniform_quantize`, `uniform_dequantize`, and
 * `dequantize`, `quantize`, `dequantize_op_quantize` in "Execution"); this
 * pass spells those definitions out as StableHLO ops:
 *
 *  - dequantize(x) = convert(convert(x, iN) - zero_point, expressed) * scale
 *    (the subtraction in i32, i64 for 32/64-bit storage, where the spec's
 *    storage-typed subtraction could wrap: 127 - (-128) in i8);
 *  - quantize(x) = convert(round_nearest_even(clamp(min, x / scale +
 *    zero_point, max)), storage), in the expressed type, in the spec's order
 *    (which is also the order of the reference interpreter's lowering);
 *  - per-axis scales and zero points are 1-D constants broadcast along the
 *    quantization dimension;
 *  - `uniform_quantize` of a float is quantize; of a quantized tensor,
 *    quantize(dequantize(x)) (requantization);
 *  - every other op with quantized operands or results, dot_general and
 *    convolution included, is dequantize_op_quantize: its operands are
 *    dequantized, the op runs on the expressed type, and its quantized
 *    results are quantized (hybrid ops, with a float result, only
 *    dequantize; compare and the check ops only dequantize);
 *  - ops that only move elements (reshape, transpose, slice, gather,
 *    concatenate ...) whose quantized operands and results all have the same
 *    per-tensor parameters stay as they are and move storage integers;
 *    control flow (while, if, case, returns), constants (whose literal
 *    already holds storage values) and bitcast_convert (spec: it reinterprets
 *    the storage bits) always do.
 *
 * Afterwards every quantized type, block arguments and function signatures
 * included, becomes its storage type. ABI: a function argument or result of
 * quantized type is passed as a buffer of its storage integers (e.g.
 * `int8_t *` for `!quant.uniform<i8:f32, ...>`); the caller quantizes and
 * dequantizes with the parameters of the type.
 *
 * Rewritten ops keep their result Value objects (the last new op takes them
 * over), so that consumers still see the quantized type, and with it the
 * parameters they need to dequantize, until the final retyping.
 *
 * Not supported (an error at the op): quantized operands of ops with
 * regions other than control flow (reduce, reduce_window, sort, scatter,
 * select_and_scatter, map ...), check.*_const ops on quantized values, and
 * ui64 storage with non-zero zero points.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "../ir/ir.h"

typedef struct Quant {
  Module *m;
  Func *f;
  Builder b; /* new ops go before the op being lowered, with its location */
  int errors;
} Quant;

static bool is_quant(const Value *v) {
  return v->type->kind == TY_TENSOR && v->type->elem == ET_QUANT;
}

static bool has_quant(const Op *op) {
  for (int i = 0; i < op->nopnds; i++)
    if (is_quant(op->opnds[i])) return true;
  for (int i = 0; i < op->nresults; i++)
    if (is_quant(op->results[i])) return true;
  return false;
}

static bool any_zero_point(const QuantInfo *q) {
  for (int i = 0; i < q->nscales; i++)
    if (q->zero_points[i]) return true;
  return false;
}

/* ------------------------------------------------------------------------ */
/* Emitting ops                                                              */

static Value *op1(Quant *q, OpCode code, Value *x, Type *t) {
  return ir_build1(&q->b, code, t, 1, &x);
}

static Value *op2(Quant *q, OpCode code, Value *x, Value *y) {
  return ir_build_binary(&q->b, code, x, y);
}

static Value *convert(Quant *q, Value *x, ElemType e) { return ir_build_convert(&q->b, x, e); }

static Value *clamp(Quant *q, Value *lo, Value *x, Value *hi) {
  return ir_build_clamp(&q->b, lo, x, hi);
}

/* Stores v as element type e (the types this file builds constants of). */
static void put_elem(uint8_t *p, ElemType e, double fv, int64_t iv) {
  float f = (float)fv;
  int32_t i = (int32_t)iv;
  switch (e) {
  case ET_F32: memcpy(p, &f, 4); return;
  case ET_F64: memcpy(p, &fv, 8); return;
  case ET_SI32: memcpy(p, &i, 4); return;
  case ET_SI64: memcpy(p, &iv, 8); return;
  default: assert(!"quant: constant of an unexpected element type"); abort();
  }
}

/* A constant of type t: n values (n == 1: a splat) from fv (floats) or iv
 * (integers), whichever is non-NULL. */
static Value *constant(Quant *q, Type *t, int n, const double *fv, const int64_t *iv) {
  DenseData *d = ARENA_NEW(&q->m->arena, DenseData);
  int nb = elem_bytes(t->elem);
  d->type = t;
  d->splat = n == 1;
  d->nbytes = (size_t)nb * (size_t)n;
  d->bytes = arena_alloc(&q->m->arena, d->nbytes);
  for (int k = 0; k < n; k++)
    put_elem(d->bytes + (size_t)k * (size_t)nb, t->elem, fv ? fv[k] : 0, iv ? iv[k] : 0);
  return ir_build_constant(&q->b, d);
}

/* broadcast_in_dim of a 1-D x into `shape`, along dimension `axis`. */
static Value *broadcast_axis(Quant *q, Value *x, const Type *shape, int axis) {
  Type *t = type_with_elem(q->m->types, shape, x->type->elem);
  Op *op = ir_build(&q->b, OP_BROADCAST_IN_DIM, 1, &x, 1, &t, 0);
  int64_t d = axis;
  op->a.broadcast_dimensions = ir_list(q->m, &d, 1);
  return ir_build_done(&q->b, op);
}

/* The element type constants of type e are built in: f16/bf16 (and other
 * narrow floats) through f32 and a convert, which rounds to nearest even. */
static ElemType build_elem(ElemType e) {
  return e == ET_F64 || e == ET_SI32 || e == ET_SI64 ? e : ET_F32;
}

/* A tensor of `shape` with element type e holding, for per-tensor
 * quantization, the one value, and for per-axis quantization values[i] at
 * index i of the quantization dimension (spec: compute_scales,
 * compute_zero_points). */
static Value *param(Quant *q, const QuantInfo *qi, const Type *shape, ElemType e,
                    const double *fv, const int64_t *iv) {
  ElemType be = build_elem(e);
  Value *v;
  if (qi->axis < 0) {
    v = constant(q, type_with_elem(q->m->types, shape, be), 1, fv, iv);
  } else {
    int64_t n = qi->nscales;
    v = constant(q, type_tensor(q->m->types, be, 1, &n), qi->nscales, fv, iv);
    v = broadcast_axis(q, v, shape, qi->axis);
  }
  return be == e ? v : convert(q, v, e);
}

static Value *scales(Quant *q, const QuantInfo *qi, const Type *shape, ElemType e) {
  return param(q, qi, shape, e, qi->scales, NULL);
}

static Value *zero_points(Quant *q, const QuantInfo *qi, const Type *shape, ElemType e) {
  if (elem_is_int(e)) return param(q, qi, shape, e, NULL, qi->zero_points);
  double *fv = ARENA_ARRAY(&q->m->arena, double, qi->nscales);
  for (int i = 0; i < qi->nscales; i++) fv[i] = (double)qi->zero_points[i];
  return param(q, qi, shape, e, fv, NULL);
}

static Value *splat(Quant *q, const Type *shape, ElemType e, double v) {
  ElemType be = build_elem(e);
  Value *c = constant(q, type_with_elem(q->m->types, shape, be), 1, &v, NULL);
  return be == e ? c : convert(q, c, e);
}

/* ------------------------------------------------------------------------ */
/* dequantize and quantize (spec: "Execution", dequantize / quantize)        */

/* x: a value of quantized type (read as its storage integers). Returns the
 * float tensor of the expressed type. */
static Value *dequantize(Quant *q, Value *x) {
  const QuantInfo *qi = x->type->quant;
  Value *v = x;
  if (any_zero_point(qi)) {
    ElemType wide = elem_bits(qi->storage) < 32 ? ET_SI32 : ET_SI64;
    v = convert(q, v, wide);
    v = op2(q, OP_SUBTRACT, v, zero_points(q, qi, x->type, wide));
  }
  v = convert(q, v, qi->expressed);
  return op2(q, OP_MULTIPLY, v, scales(q, qi, x->type, qi->expressed));
}

/* x: a float tensor of the expressed type of `qt`. Returns its storage
 * integers. */
static Value *quantize(Quant *q, Value *x, const Type *qt) {
  const QuantInfo *qi = qt->quant;
  ElemType e = x->type->elem;
  Value *v = op2(q, OP_DIVIDE, x, scales(q, qi, x->type, e));
  if (any_zero_point(qi)) v = op2(q, OP_ADD, v, zero_points(q, qi, x->type, e));
  Value *hi = splat(q, x->type, e, (double)qi->storage_max);
  v = clamp(q, splat(q, x->type, e, (double)qi->storage_min), v, hi);
  v = op1(q, OP_ROUND_NEAREST_EVEN, v, v->type);
  return convert(q, v, qi->storage);
}

/* The op that defines `v` takes over `old` as its result, so that the uses
 * of `old` (and its quantized type, until retyping) stay as they are. */
static void adopt(Value *v, Value *old) {
  Op *def = v->def;
  def->results[v->index] = old;
  old->def = def;
  old->index = v->index;
}

/* ------------------------------------------------------------------------ */
/* Rewrites                                                                  */

static void at_op(Quant *q, Op *op) {
  q->b = (Builder){q->m, op->parent, op, op->loc};
}

/* spec: uniform_quantize, uniform_dequantize. */
static void lower_uniform_quantize(Quant *q, Op *op) {
  Value *x = op->opnds[0], *r = op->results[0];
  if (is_quant(x) && quant_info_equal(x->type->quant, r->type->quant)) {
    ir_replace_uses(q->f, r, x);
  } else {
    Value *fx = is_quant(x) ? dequantize(q, x) : x;
    adopt(quantize(q, fx, r->type), r);
  }
  ir_block_remove(op->parent, op);
}

static void lower_uniform_dequantize(Quant *q, Op *op) {
  adopt(dequantize(q, op->opnds[0]), op->results[0]);
  ir_block_remove(op->parent, op);
}

/* spec: dequantize_op_quantize (and dequantize_compare,
 * hybrid_dequantize_then_op): the same op on dequantized operands, its
 * quantized results quantized. */
static void lower_dequantize_op_quantize(Quant *q, Op *op) {
  Value **in = ARENA_ARRAY(&q->m->arena, Value *, op->nopnds);
  Type **rt = ARENA_ARRAY(&q->m->arena, Type *, op->nresults);
  for (int i = 0; i < op->nopnds; i++)
    in[i] = is_quant(op->opnds[i]) ? dequantize(q, op->opnds[i]) : op->opnds[i];
  for (int i = 0; i < op->nresults; i++) {
    Type *t = op->results[i]->type;
    rt[i] = is_quant(op->results[i]) ? type_with_elem(q->m->types, t, t->quant->expressed) : t;
  }
  Op *c = ir_build(&q->b, op->code, op->nopnds, in, op->nresults, rt, 0);
  c->nattrs = op->nattrs;
  c->attrs = op->attrs;
  c->a = op->a;
  /* Legalize keeps quantized `dot`s (their constraints differ from
   * dot_general's); once on floats, one becomes dot_general like the
   * others. */
  if (c->code == OP_DOT) ir_make_dot_general(q->m, c);
  for (int i = 0; i < op->nresults; i++) {
    Value *v = c->results[i];
    if (is_quant(op->results[i])) v = quantize(q, v, op->results[i]->type);
    adopt(v, op->results[i]);
  }
  ir_block_remove(op->parent, op);
}

/* Whether operand i of a movement op holds elements (not indices or the
 * predicate of select). */
static bool is_data_operand(const Op *op, int i) {
  switch (op->code) {
  case OP_SELECT: return i != 0;
  case OP_GATHER: return i == 0;
  case OP_DYNAMIC_SLICE: return i == 0;
  case OP_DYNAMIC_UPDATE_SLICE: return i <= 1;
  default: return true;
  }
}

static bool same_per_tensor_params(const Op *op) {
  const QuantInfo *first = NULL;
  for (int i = 0; i < op->nopnds + op->nresults; i++) {
    bool is_opnd = i < op->nopnds;
    const Value *v = is_opnd ? op->opnds[i] : op->results[i - op->nopnds];
    if (is_opnd && !is_data_operand(op, i)) continue;
    if (!is_quant(v) || v->type->quant->axis >= 0) return false;
    if (!first) first = v->type->quant;
    else if (!quant_info_equal(first, v->type->quant)) return false;
  }
  return true;
}

/* Ops that carry values without looking at them: storage integers pass
 * through as they are. */
static bool carries_values(OpCode c) {
  switch (c) {
  case OP_BITCAST_CONVERT: case OP_CASE: case OP_CONSTANT: case OP_FUNC_CALL:
  case OP_FUNC_RETURN: case OP_GET_TUPLE_ELEMENT: case OP_IF: case OP_OPTIMIZATION_BARRIER:
  case OP_RETURN: case OP_TUPLE: case OP_WHILE:
    return true;
  default:
    return false;
  }
}

static bool unsupported(Quant *q, const Op *op, const char *what) {
  diag_error(op->loc, "%s: %s are not supported yet", op_name(op->code), what);
  q->errors++;
  return false;
}

/* Whether op can go through dequantize_op_quantize. */
static bool doq_ok(Quant *q, const Op *op) {
  if (op->nregions) return unsupported(q, op, "quantized types in ops with regions");
  if (op->code == OP_CHECK_EXPECT_EQ_CONST || op->code == OP_CHECK_EXPECT_ALMOST_EQ_CONST)
    return unsupported(q, op, "checks of quantized values against constants");
  return true;
}

/* dequantize subtracts zero points in i64 for 64-bit storage, where ui64
 * values from 2^63 up would wrap. */
static bool params_ok(Quant *q, const Op *op) {
  for (int i = 0; i < op->nopnds + op->nresults; i++) {
    const Value *v = i < op->nopnds ? op->opnds[i] : op->results[i - op->nopnds];
    if (is_quant(v) && v->type->quant->storage == ET_UI64 && any_zero_point(v->type->quant))
      return unsupported(q, op, "ui64 quantized storage types with non-zero zero points");
  }
  return true;
}

static void lower_op(Quant *q, Op *op) {
  if (!has_quant(op) || !params_ok(q, op)) return;
  at_op(q, op);
  switch (op->code) {
  case OP_UNIFORM_QUANTIZE: lower_uniform_quantize(q, op); return;
  case OP_UNIFORM_DEQUANTIZE: lower_uniform_dequantize(q, op); return;
  default: break;
  }
  if (carries_values(op->code)) return;
  /* Movement ops (select included) on quantized values with one set of
   * per-tensor parameters move storage integers unchanged. Per-axis
   * parameters do not follow elements that move across the quantization
   * dimension (gather, transpose ...), so those go through
   * dequantize_op_quantize. */
  if (ir_is_movement(op->code) && same_per_tensor_params(op)) return;
  if (doq_ok(q, op)) lower_dequantize_op_quantize(q, op);
}

/* ------------------------------------------------------------------------ */
/* Retyping: every quantized type becomes its storage type                   */

static Type *storage_type(Quant *q, Type *t) {
  if (t->kind != TY_TENSOR || t->elem != ET_QUANT) return t;
  return type_with_elem(q->m->types, t, t->quant->storage);
}

static void retype_block_args(Quant *q, Block *b) {
  for (int i = 0; i < b->nargs; i++) b->args[i]->type = storage_type(q, b->args[i]->type);
}

static void retype_op(Op *op, void *ctx) {
  Quant *q = ctx;
  for (int i = 0; i < op->nresults; i++)
    op->results[i]->type = storage_type(q, op->results[i]->type);
  for (int r = 0; r < op->nregions; r++)
    for (int k = 0; k < op->regions[r]->nblocks; k++)
      retype_block_args(q, op->regions[r]->blocks[k]);
}

/* The ABI choice (see the top of the file): quantized arguments and
 * results are their storage integers. */
static void retype_func(Quant *q, Func *f) {
  for (int i = 0; i < f->nresults; i++) f->result_types[i] = storage_type(q, f->result_types[i]);
  if (!f->body) return;
  retype_block_args(q, f->body);
  ir_walk(f, retype_op, q);
}

/* A bitcast_convert between a quantized type and its storage type is the
 * identity once retyped. */
static void drop_identity_bitcasts(Quant *q, OpList *l) {
  for (int i = 0; i < l->n; i++) {
    Op *op = l->v[i];
    if (op->code != OP_BITCAST_CONVERT || !op->parent ||
        op->opnds[0]->type != op->results[0]->type)
      continue;
    ir_replace_uses(q->f, op->results[0], op->opnds[0]);
    ir_block_remove(op->parent, op);
  }
}

static void lower_func(Quant *q, Func *f) {
  q->f = f;
  OpList l = {0};
  if (f->body) ir_collect_ops(f, &l);
  for (int i = 0; i < l.n; i++) lower_op(q, l.v[i]);
  retype_func(q, f);
  drop_identity_bitcasts(q, &l);
  free(l.v);
  if (!f->body) return;
  ir_number_values(f);
  ir_recount_uses(f);
}

int pass_lower_quant(Module *m) {
  Quant q = {.m = m};
  for (int i = 0; i < m->nfuncs; i++) lower_func(&q, m->funcs[i]);
  return q.errors;
}
