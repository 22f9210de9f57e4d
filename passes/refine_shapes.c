/* refine_shapes.c: turns dynamic shapes into static ones where the program
 * itself fixes them, so that nothing after this pass sees a dynamic op.
 *
 *  - `get_dimension_size` of a static dimension becomes a tensor<i32>
 *    constant (spec: get_dimension_size, `result = dim(operand, dimension)`).
 *  - The dynamic ops whose shape operands are compile-time constants become
 *    the static op they are "functionally identical" to (spec: each op's
 *    Semantics): dynamic_broadcast_in_dim -> broadcast_in_dim, dynamic_iota
 *    -> iota, dynamic_reshape -> reshape, dynamic_pad -> pad,
 *    real_dynamic_slice -> slice, dynamic_gather -> gather (slice_sizes),
 *    dynamic_conv -> convolution (padding). Shape operands are folded through
 *    the small integer arithmetic JAX emits on shapes (constant, convert,
 *    reshape, broadcast_in_dim of one element, concatenate, slice,
 *    get_dimension_size, add/subtract/multiply/divide/maximum/minimum).
 *  - Result types that were dynamic become static and the new types flow
 *    forward: elementwise ops, broadcast_in_dim and reshape get their result
 *    types re-inferred, and func.return updates the function's result types.
 *
 * Ops are rewritten in place (same result values), in program order, so a
 * user always sees its operands already refined. A dynamic op whose shape
 * operands do not fold is an error here: codegen has no dynamic kernels.
 * Other values that stay dynamic are reported by the buffers pass.
 */
#include <stdlib.h>
#include <string.h>

#include "../ir/ir.h"

enum { MAX_INTS = 64 }; /* longest shape vector folded (ranks are smaller) */

/* A folded 0-d or 1-d integer tensor. */
typedef struct Ints {
  int n;
  int64_t v[MAX_INTS];
} Ints;

enum { FOLD_UNKNOWN, FOLD_OK, FOLD_FAILED };

typedef struct Refiner {
  Module *m;
  Func *f;
  /* memo of fold(), by Value.id: a shape value is often read many times */
  unsigned char *state;
  Ints **folded;
  int errors;
} Refiner;

static bool fail(Refiner *r, const Op *op, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static bool fail(Refiner *r, const Op *op, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ir_op_verror(op, fmt, ap);
  va_end(ap);
  r->errors++;
  return false;
}

/* ------------------------------------------------------------------------ */
/* Folding integer shape computations                                        */

static bool is_int_tensor(const Type *t) {
  return t->kind == TY_TENSOR && (elem_is_int(t->elem) || t->elem == ET_INDEX);
}

/* v as an element of type e: two's complement wrap-around, as the
 * integer ops and convert do (spec: convert, "integer to integer"). */
static int64_t wrap(int64_t v, ElemType e) {
  int bits = elem_bits(e);
  if (bits >= 64) return v;
  uint64_t mask = (UINT64_C(1) << bits) - 1, u = (uint64_t)v & mask;
  if (elem_class(e) == 's' && (u >> (bits - 1))) u |= ~mask;
  return (int64_t)u;
}

static bool fold(Refiner *r, const Value *x, Ints *out);

static bool fold_constant(const Op *op, Ints *out) {
  const DenseData *d = op->a.value;
  if (!d) return false;
  for (int i = 0; i < out->n; i++) out->v[i] = dense_get_i64(d, i);
  return true;
}

/* Elements are copied in row-major order: reshape keeps them, and a
 * broadcast of one element repeats it (spec: reshape, broadcast_in_dim). */
static bool fold_same_elems(Refiner *r, const Op *op, Ints *out) {
  Ints a;
  if (!fold(r, op->opnds[0], &a)) return false;
  if (a.n == out->n) {
    memcpy(out->v, a.v, sizeof *a.v * (size_t)a.n);
    return true;
  }
  if (op->code != OP_BROADCAST_IN_DIM || a.n != 1) return false;
  for (int i = 0; i < out->n; i++) out->v[i] = a.v[0];
  return true;
}

static bool fold_convert(Refiner *r, const Op *op, Ints *out) {
  if (!is_int_tensor(op->opnds[0]->type) || !fold(r, op->opnds[0], out)) return false;
  for (int i = 0; i < out->n; i++) out->v[i] = wrap(out->v[i], op->results[0]->type->elem);
  return true;
}

static bool fold_concatenate(Refiner *r, const Op *op, Ints *out) {
  int n = 0;
  for (int k = 0; k < op->nopnds; k++) {
    Ints a;
    if (!fold(r, op->opnds[k], &a) || n + a.n > out->n) return false;
    memcpy(out->v + n, a.v, sizeof *a.v * (size_t)a.n);
    n += a.n;
  }
  return n == out->n;
}

/* spec: slice, 1-d: result[i] = operand[start + i * stride]. */
static bool fold_slice(Refiner *r, const Op *op, Ints *out) {
  Ints a;
  if (op->a.start_indices.n != 1 || op->a.strides.n != 1 || !fold(r, op->opnds[0], &a)) return false;
  for (int i = 0; i < out->n; i++) {
    int64_t j = op->a.start_indices.v[0] + i * op->a.strides.v[0];
    if (j < 0 || j >= a.n) return false;
    out->v[i] = a.v[j];
  }
  return true;
}

static bool fold_dim_size(const Op *op, Ints *out) {
  const Type *t = op->opnds[0]->type;
  if (t->kind != TY_TENSOR || op->a.dimension < 0 || op->a.dimension >= t->rank) return false;
  int64_t d = t->dims[op->a.dimension];
  if (d == DIM_DYNAMIC) return false;
  out->v[0] = d;
  return true;
}

/* One element of an integer binary op; false where it is undefined
 * (division by zero, overflow of the division). */
static bool fold_int_op(OpCode c, int64_t a, int64_t b, int64_t *out) {
  switch (c) {
  case OP_ADD: *out = (int64_t)((uint64_t)a + (uint64_t)b); return true;
  case OP_SUBTRACT: *out = (int64_t)((uint64_t)a - (uint64_t)b); return true;
  case OP_MULTIPLY: *out = (int64_t)((uint64_t)a * (uint64_t)b); return true;
  case OP_MAXIMUM: *out = a > b ? a : b; return true;
  case OP_MINIMUM: *out = a < b ? a : b; return true;
  case OP_DIVIDE:
    if (b == 0 || (a == INT64_MIN && b == -1)) return false;
    *out = a / b; /* spec: divide truncates integers toward zero, as C does */
    return true;
  default: return false;
  }
}

/* Unsigned element types never reach here: maximum/minimum/divide would
 * need unsigned comparisons, and shapes are signed. */
static bool fold_binary(Refiner *r, const Op *op, Ints *out) {
  Ints a, b;
  ElemType e = op->results[0]->type->elem;
  if (elem_class(e) != 's' || !fold(r, op->opnds[0], &a) || !fold(r, op->opnds[1], &b))
    return false;
  if (a.n != out->n || b.n != out->n) return false;
  for (int i = 0; i < out->n; i++) {
    if (!fold_int_op(op->code, a.v[i], b.v[i], &out->v[i])) return false;
    out->v[i] = wrap(out->v[i], e);
  }
  return true;
}

static bool fold_op(Refiner *r, const Op *op, Ints *out) {
  switch (op->code) {
  case OP_CONSTANT: return fold_constant(op, out);
  case OP_CONVERT: return fold_convert(r, op, out);
  case OP_RESHAPE: case OP_BROADCAST_IN_DIM: return fold_same_elems(r, op, out);
  case OP_CONCATENATE: return fold_concatenate(r, op, out);
  case OP_SLICE: return fold_slice(r, op, out);
  case OP_GET_DIMENSION_SIZE: return fold_dim_size(op, out);
  case OP_ADD: case OP_SUBTRACT: case OP_MULTIPLY: case OP_DIVIDE:
  case OP_MAXIMUM: case OP_MINIMUM:
    return fold_binary(r, op, out);
  default: return false;
  }
}

/* The elements of x, a static integer tensor of at most MAX_INTS elements
 * computed from constants only. */
static bool fold(Refiner *r, const Value *x, Ints *out) {
  int64_t n = type_num_elems(x->type);
  if (!x->def || !is_int_tensor(x->type) || n < 0 || n > MAX_INTS) return false;
  if (r->state[x->id] == FOLD_FAILED) return false;
  if (r->state[x->id] == FOLD_OK) {
    *out = *r->folded[x->id];
    return true;
  }
  out->n = (int)n;
  r->state[x->id] = FOLD_FAILED; /* also ends cycles, which SSA rules out anyway */
  if (!fold_op(r, x->def, out)) return false;
  r->folded[x->id] = ARENA_NEW(&r->m->arena, Ints);
  *r->folded[x->id] = *out;
  r->state[x->id] = FOLD_OK;
  return true;
}

/* Folds shape operand i of op, which must have n elements. */
static bool fold_shape(Refiner *r, const Op *op, int i, int n, Ints *out) {
  return i < op->nopnds && fold(r, op->opnds[i], out) && out->n == n;
}

/* ------------------------------------------------------------------------ */
/* Attributes and types                                                      */

/* Makes op a `code` op reading its first nopnds operands. Its typed
 * attributes stay (the static op names them as the dynamic one does); the
 * caller sets the new ones, then calls retyped. */
static void retarget(Op *op, OpCode code, int nopnds) {
  op->code = code;
  op->nopnds = nopnds;
  op->nattrs = 0;
  op->attrs = NULL;
}

/* The generic attributes of the retargeted op, from its typed ones. */
static bool retyped(Refiner *r, Op *op) {
  attrs_encode(r->m, op);
  return true;
}

static Type *with_dims(Refiner *r, const Type *t, int rank, const int64_t *dims) {
  if (t->elem == ET_QUANT) return type_tensor_quant(r->m->types, t->quant, rank, dims);
  return type_tensor(r->m->types, t->elem, rank, dims);
}

/* Sets the result type of op to its element type with shape dims (a `?`
 * there keeps the old size); a static size that disagrees is an error. */
static bool set_shape(Refiner *r, Op *op, const int64_t *dims) {
  Value *res = op->results[0];
  const Type *t = res->type;
  int64_t nd[MAX_INTS];
  if (t->rank > MAX_INTS) return fail(r, op, "rank %d is too large", t->rank);
  for (int i = 0; i < t->rank; i++) {
    nd[i] = dims[i] == DIM_DYNAMIC ? t->dims[i] : dims[i];
    if (t->dims[i] != DIM_DYNAMIC && t->dims[i] != nd[i])
      return fail(r, op, "dimension %d of the result is %lld, but the operands make it %lld",
                  i, (long long)t->dims[i], (long long)nd[i]);
  }
  if (!type_dims_fit(t->rank, nd))
    return fail(r, op, "the result would have more than 2^58 elements");
  res->type = with_dims(r, t, t->rank, nd);
  return true;
}

/* ------------------------------------------------------------------------ */
/* Dynamic ops to static ones                                                */

static bool refine_dim_size(Refiner *r, Op *op) {
  Ints v = {.n = 1};
  if (!fold_dim_size(op, &v))
    return fail(r, op, "dimension %lld of the operand is dynamic; shapes could not be refined",
                (long long)op->a.dimension);
  retarget(op, OP_CONSTANT, 0);
  op->a.value = ir_dense_ints(r->m, op->results[0]->type, v.v, 1);
  return retyped(r, op);
}

static bool not_constant(Refiner *r, Op *op, const char *what) {
  return fail(r, op, "%s is not a compile-time constant; shapes could not be refined", what);
}

/* spec: dynamic_broadcast_in_dim = broadcast_in_dim to output_dimensions. */
static bool refine_broadcast(Refiner *r, Op *op) {
  Ints s;
  if (!fold_shape(r, op, 1, op->results[0]->type->rank, &s))
    return not_constant(r, op, "output_dimensions");
  if (!set_shape(r, op, s.v)) return false;
  retarget(op, OP_BROADCAST_IN_DIM, 1);
  return retyped(r, op);
}

/* spec: dynamic_iota = iota of shape output_shape. */
static bool refine_iota(Refiner *r, Op *op) {
  Ints s;
  if (!fold_shape(r, op, 0, op->results[0]->type->rank, &s))
    return not_constant(r, op, "output_shape");
  if (!set_shape(r, op, s.v)) return false;
  retarget(op, OP_IOTA, 0);
  return retyped(r, op);
}

/* spec: dynamic_reshape = reshape to output_shape. */
static bool refine_reshape(Refiner *r, Op *op) {
  Ints s;
  if (!fold_shape(r, op, 1, op->results[0]->type->rank, &s))
    return not_constant(r, op, "output_shape");
  if (!set_shape(r, op, s.v)) return false;
  retarget(op, OP_RESHAPE, 1);
  return retyped(r, op);
}

/* spec: pad (C4): dim(result, i) = lo[i] + dim(operand, i) + hi[i] +
 * max(dim(operand, i) - 1, 0) * interior[i]. */
static void pad_shape(const Type *x, const Ints *lo, const Ints *hi, const Ints *in,
                      int64_t *dims) {
  for (int i = 0; i < x->rank; i++) {
    int64_t d = x->dims[i];
    dims[i] = d == DIM_DYNAMIC ? DIM_DYNAMIC
                               : lo->v[i] + d + hi->v[i] + (d > 1 ? d - 1 : 0) * in->v[i];
  }
}

/* spec: dynamic_pad = pad with the padding given as values. */
static bool refine_pad(Refiner *r, Op *op) {
  const Type *x = op->opnds[0]->type;
  Ints lo, hi, in;
  if (!fold_shape(r, op, 2, x->rank, &lo) || !fold_shape(r, op, 3, x->rank, &hi) ||
      !fold_shape(r, op, 4, x->rank, &in))
    return not_constant(r, op, "the padding");
  int64_t dims[MAX_INTS];
  pad_shape(x, &lo, &hi, &in, dims);
  if (!set_shape(r, op, dims)) return false;
  retarget(op, OP_PAD, 2);
  op->a.edge_padding_low = ir_list(r->m, lo.v, lo.n);
  op->a.edge_padding_high = ir_list(r->m, hi.v, hi.n);
  op->a.interior_padding = ir_list(r->m, in.v, in.n);
  return retyped(r, op);
}

/* real_dynamic_slice = slice with start/limit/strides given as values;
 * spec: slice (C5): dim(result, i) = ceil((limit[i] - start[i]) / strides[i]). */
static bool refine_slice(Refiner *r, Op *op) {
  int rank = op->opnds[0]->type->rank;
  Ints lo, hi, st;
  if (!fold_shape(r, op, 1, rank, &lo) || !fold_shape(r, op, 2, rank, &hi) ||
      !fold_shape(r, op, 3, rank, &st))
    return not_constant(r, op, "start_indices, limit_indices or strides");
  int64_t dims[MAX_INTS];
  for (int i = 0; i < rank; i++) {
    if (st.v[i] <= 0 || hi.v[i] < lo.v[i])
      return fail(r, op, "dimension %d: bad slice [%lld, %lld) step %lld", i,
                  (long long)lo.v[i], (long long)hi.v[i], (long long)st.v[i]);
    dims[i] = (hi.v[i] - lo.v[i] + st.v[i] - 1) / st.v[i];
  }
  if (!set_shape(r, op, dims)) return false;
  retarget(op, OP_SLICE, 1);
  op->a.start_indices = ir_list(r->m, lo.v, rank);
  op->a.limit_indices = ir_list(r->m, hi.v, rank);
  op->a.strides = ir_list(r->m, st.v, rank);
  return retyped(r, op);
}

/* spec: gather (C5): the result has the batch dimensions of start_indices
 * (all but index_vector_dim) where offset_dims is not, and the slice
 * sizes of the dimensions not collapsed nor batching at offset_dims. */
static void gather_shape(const Op *op, const Ints *sizes, int64_t *dims) {
  const GatherDims *g = &op->a.gather;
  const Type *idx = op->opnds[1]->type;
  int rank = op->results[0]->type->rank, b = 0, o = 0;
  for (int i = 0; i < rank; i++) {
    if (ir_list_has(&g->offset_dims, i)) {
      while (o < sizes->n && (ir_list_has(&g->collapsed_slice_dims, o) ||
                              ir_list_has(&g->operand_batching_dims, o)))
        o++;
      dims[i] = o < sizes->n ? sizes->v[o++] : DIM_DYNAMIC;
      continue;
    }
    if (b == g->index_vector_dim) b++;
    dims[i] = b < idx->rank ? idx->dims[b++] : DIM_DYNAMIC;
  }
}

/* spec: dynamic_gather = gather with slice_sizes given as a value. */
static bool refine_gather(Refiner *r, Op *op) {
  Ints s;
  if (!fold_shape(r, op, 2, op->opnds[0]->type->rank, &s))
    return not_constant(r, op, "slice_sizes");
  int64_t dims[MAX_INTS];
  if (op->results[0]->type->rank > MAX_INTS) return fail(r, op, "result rank is too large");
  gather_shape(op, &s, dims);
  if (!set_shape(r, op, dims)) return false;
  retarget(op, OP_GATHER, 2);
  op->a.gather.slice_sizes = ir_list(r->m, s.v, s.n);
  return retyped(r, op);
}

/* spec: dynamic_conv = convolution with padding given as a value
 * (tensor<Nx2>: low and high padding of each spatial dimension). */
static bool refine_conv(Refiner *r, Op *op) {
  int n = (int)op->a.conv.in_spatial.n;
  Ints p;
  if (!fold_shape(r, op, 2, 2 * n, &p)) return not_constant(r, op, "padding");
  retarget(op, OP_CONVOLUTION, 2);
  Window *w = &op->a.window;
  w->pad_lo = ir_list(r->m, p.v, n);
  w->pad_hi = ir_list(r->m, p.v, n);
  for (int i = 0; i < n; i++) {
    w->pad_lo.v[i] = p.v[2 * i];
    w->pad_hi.v[i] = p.v[2 * i + 1];
  }
  return retyped(r, op);
}

/* ------------------------------------------------------------------------ */
/* Forward propagation of static types                                       */

/* An elementwise op has the shape of its full-rank operands (spec: the
 * elementwise ops' (C1); select and clamp may also take 0-d operands). */
static void reinfer_elementwise(Refiner *r, Op *op) {
  const Type *t = op->results[0]->type;
  for (int i = 0; i < op->nopnds; i++) {
    const Type *x = op->opnds[i]->type;
    if (x->kind == TY_TENSOR && x->rank == t->rank && type_is_static(x)) {
      set_shape(r, op, x->dims);
      return;
    }
  }
}

/* spec: broadcast_in_dim (C5): an operand dimension of size other than 1
 * gives the size of the result dimension it maps to. */
static void reinfer_broadcast(Refiner *r, Op *op) {
  const Type *x = op->opnds[0]->type, *t = op->results[0]->type;
  int64_t dims[MAX_INTS];
  for (int i = 0; i < t->rank; i++) dims[i] = DIM_DYNAMIC;
  for (int i = 0; i < x->rank && i < op->a.broadcast_dimensions.n; i++) {
    int64_t j = op->a.broadcast_dimensions.v[i], d = x->dims[i];
    if (j >= 0 && j < t->rank && d != DIM_DYNAMIC && d != 1) dims[j] = d;
  }
  set_shape(r, op, dims);
}

/* spec: reshape (C2): one unknown result dimension follows from the size. */
static void reinfer_reshape(Refiner *r, Op *op) {
  const Type *x = op->opnds[0]->type, *t = op->results[0]->type;
  int64_t n = type_num_elems(x), known = 1, dims[MAX_INTS];
  int unknown = -1;
  if (n < 0) return;
  for (int i = 0; i < t->rank; i++) {
    dims[i] = t->dims[i];
    if (t->dims[i] != DIM_DYNAMIC) known *= t->dims[i];
    else if (unknown >= 0) return;
    else unknown = i;
  }
  if (unknown < 0 || known == 0 || n % known) return;
  dims[unknown] = n / known;
  set_shape(r, op, dims);
}

static void reinfer(Refiner *r, Op *op) {
  if (op->nresults != 1 || op->nopnds < 1 || op->results[0]->type->kind != TY_TENSOR ||
      type_is_static(op->results[0]->type) || op->results[0]->type->rank > MAX_INTS)
    return;
  if (ir_is_elementwise(op->code)) reinfer_elementwise(r, op);
  else if (op->code == OP_BROADCAST_IN_DIM) reinfer_broadcast(r, op);
  else if (op->code == OP_RESHAPE) reinfer_reshape(r, op);
}

/* A function returning a value whose type became more static says so in
 * its signature (spec: func.return operands match the function's results).
 * Only sizes that were `?` change, so callers (none after inline) and the
 * C header see a refinement, never a contradiction. */
static void refine_signature(Refiner *r, Func *f) {
  Op *ret = ir_block_terminator(f->body);
  if (!ret || ret->code != OP_FUNC_RETURN || ret->nopnds != f->nresults) return;
  for (int i = 0; i < f->nresults; i++) {
    const Type *old = f->result_types[i], *t = ret->opnds[i]->type;
    if (old == t || old->kind != TY_TENSOR || t->kind != TY_TENSOR || old->rank != t->rank ||
        old->elem != t->elem)
      continue;
    int64_t dims[MAX_INTS];
    if (old->rank > MAX_INTS) continue;
    for (int k = 0; k < old->rank; k++)
      dims[k] = old->dims[k] == DIM_DYNAMIC ? t->dims[k] : old->dims[k];
    f->result_types[i] = with_dims(r, old, old->rank, dims);
  }
}

/* ------------------------------------------------------------------------ */

static void refine_op(Op *op, void *ctx) {
  Refiner *r = ctx;
  reinfer(r, op);
  switch (op->code) {
  case OP_GET_DIMENSION_SIZE: refine_dim_size(r, op); return;
  case OP_DYNAMIC_BROADCAST_IN_DIM: refine_broadcast(r, op); return;
  case OP_DYNAMIC_IOTA: refine_iota(r, op); return;
  case OP_DYNAMIC_RESHAPE: refine_reshape(r, op); return;
  case OP_DYNAMIC_PAD: refine_pad(r, op); return;
  case OP_REAL_DYNAMIC_SLICE: refine_slice(r, op); return;
  case OP_DYNAMIC_GATHER: refine_gather(r, op); return;
  case OP_DYNAMIC_CONV: refine_conv(r, op); return;
  default: return;
  }
}

static void refine_func(Refiner *r, Func *f) {
  ir_number_values(f);
  int n = f->next_value_id > 0 ? f->next_value_id : 1;
  r->f = f;
  r->state = calloc((size_t)n, 1);
  r->folded = calloc((size_t)n, sizeof *r->folded);
  if (!r->state || !r->folded) abort();
  ir_walk(f, refine_op, r);
  refine_signature(r, f);
  free(r->state);
  free(r->folded);
  ir_recount_uses(f);
}

int pass_refine_shapes(Module *m, const CompileOptions *o) {
  (void)o;
  Refiner r = {.m = m};
  for (int i = 0; i < m->nfuncs; i++)
    if (m->funcs[i]->body) refine_func(&r, m->funcs[i]);
  return r.errors;
}
