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
 *    dynamic_conv -> convolution (padding); a real_dynamic_slice whose start
 *    is data but whose limit is that start plus a constant -> dynamic_slice
 *    (then a strided slice). Shape operands are folded through
 *    the small integer arithmetic JAX emits on shapes (constant, convert,
 *    reshape, broadcast_in_dim of one element, concatenate, slice,
 *    get_dimension_size, add/subtract/multiply/divide/maximum/minimum).
 *  - Result types that were dynamic become static and the new types flow
 *    forward: elementwise ops, broadcast_in_dim and reshape get their result
 *    types re-inferred, and func.return updates the function's result types.
 *
 *    Every other op's result sizes written `?` take the sizes the spec's
 *    shape functions infer (the verifier's rules, verify_refine_op).
 *  - Specialization (CompileOptions.input_shapes, .dims: `--input-shapes`,
 *    `--dim`): the entry's arguments take the given shapes, and its
 *    dimension arguments (0-d integers whose values reach shape operands,
 *    as jax.export passes its dimension variables) take the given values or
 *    the ones the shapes imply: a dynamic_broadcast_in_dim of a known
 *    operand size, or the one unknown size of a dynamic_reshape. They then
 *    become constants and leave the signature, so the entry takes only
 *    tensors of static shapes. custom_call @shape_assertion with a folded
 *    predicate is removed when it holds and an error (its message, with
 *    `{i}` replaced by operand i + 1) when it does not.
 *
 * Ops are rewritten in place (same result values), in program order, so a
 * user always sees its operands already refined. A dynamic op whose shape
 * operands do not fold is an error here: codegen has no dynamic kernels.
 * Other values that stay dynamic are reported by codegen.
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

/* A dimension argument of the entry being specialized. */
typedef struct DimArg {
  Value *arg;
  const char *name; /* JAX's (arg attribute jax.global_constant), else d<k> */
  int64_t value;
  bool known;
} DimArg;

typedef struct Refiner {
  Module *m;
  Func *f;
  /* memo of fold(), by Value.id: a shape value is often read many times */
  unsigned char *state;
  Ints **folded;
  int nvalues;
  int errors;
  /* specialization of f (f is the entry and options were given) */
  DimArg *dims;
  int ndims;
  OpList asserted; /* shape assertions that hold, removed after the walk */
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
  return t->kind == TY_TENSOR && (elem_is_int(t->elem) || t->elem == ET_INDEX || t->elem == ET_I1);
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

static DimArg *dim_arg_of(Refiner *r, const Value *x) {
  for (int i = 0; i < r->ndims; i++)
    if (r->dims[i].arg == x) return &r->dims[i];
  return NULL;
}

/* A dimension argument with a known value. */
static bool fold_dim_arg(Refiner *r, const Value *x, Ints *out) {
  const DimArg *d = dim_arg_of(r, x);
  if (!d || !d->known) return false;
  out->n = 1;
  out->v[0] = wrap(d->value, x->type->elem);
  return true;
}

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
  case OP_AND: *out = a & b; return true;
  case OP_OR: *out = a | b; return true;
  case OP_DIVIDE:
    if (b == 0 || (a == INT64_MIN && b == -1)) return false;
    *out = a / b; /* spec: divide truncates integers toward zero, as C does */
    return true;
  case OP_REMAINDER:
    if (b == 0 || (a == INT64_MIN && b == -1)) return false;
    *out = a % b; /* spec: remainder has the sign of the dividend, as C's % */
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

/* spec: compare, signed integer comparison (the 0/1 of an i1 result). */
static bool fold_compare(Refiner *r, const Op *op, Ints *out) {
  Ints a, b;
  const Type *x = op->opnds[0]->type;
  if (!is_int_tensor(x) || elem_class(x->elem) != 's' || !fold(r, op->opnds[0], &a) ||
      !fold(r, op->opnds[1], &b) || a.n != out->n || b.n != out->n)
    return false;
  for (int i = 0; i < out->n; i++) {
    int64_t p = a.v[i], q = b.v[i];
    switch (op->a.comparison_direction) {
    case CMP_EQ: out->v[i] = p == q; break;
    case CMP_NE: out->v[i] = p != q; break;
    case CMP_LT: out->v[i] = p < q; break;
    case CMP_LE: out->v[i] = p <= q; break;
    case CMP_GT: out->v[i] = p > q; break;
    case CMP_GE: out->v[i] = p >= q; break;
    default: return false;
    }
  }
  return true;
}

/* spec: sign (-1, 0 or 1) and negate (wrapping) of signed integers. */
static bool fold_unary(Refiner *r, const Op *op, Ints *out) {
  ElemType e = op->results[0]->type->elem;
  if (elem_class(e) != 's' || !fold(r, op->opnds[0], out)) return false;
  for (int i = 0; i < out->n; i++) {
    int64_t a = out->v[i];
    out->v[i] = op->code == OP_SIGN ? (a > 0) - (a < 0) : wrap((int64_t)(0 - (uint64_t)a), e);
  }
  return true;
}

/* spec: select, with a 0-d or elementwise predicate. */
static bool fold_select(Refiner *r, const Op *op, Ints *out) {
  Ints p, a, b;
  if (!fold(r, op->opnds[0], &p) || !fold(r, op->opnds[1], &a) || !fold(r, op->opnds[2], &b) ||
      a.n != out->n || b.n != out->n || (p.n != 1 && p.n != out->n))
    return false;
  for (int i = 0; i < out->n; i++) out->v[i] = p.v[p.n == 1 ? 0 : i] ? a.v[i] : b.v[i];
  return true;
}

/* and/or of booleans and signed integers: bitwise either way. */
static bool fold_bits(Refiner *r, const Op *op, Ints *out) {
  Ints a, b;
  ElemType e = op->results[0]->type->elem;
  if ((e != ET_I1 && elem_class(e) != 's') || !fold(r, op->opnds[0], &a) ||
      !fold(r, op->opnds[1], &b) || a.n != out->n || b.n != out->n)
    return false;
  for (int i = 0; i < out->n; i++) fold_int_op(op->code, a.v[i], b.v[i], &out->v[i]);
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
  case OP_ADD: case OP_SUBTRACT: case OP_MULTIPLY: case OP_DIVIDE: case OP_REMAINDER:
  case OP_MAXIMUM: case OP_MINIMUM:
    return fold_binary(r, op, out);
  case OP_SIGN: case OP_NEGATE: return fold_unary(r, op, out);
  case OP_SELECT: return fold_select(r, op, out);
  case OP_AND: case OP_OR:
    return fold_bits(r, op, out);
  case OP_COMPARE: return fold_compare(r, op, out);
  default: return false;
  }
}

/* The elements of x, a static integer tensor of at most MAX_INTS elements
 * computed from constants only. */
static bool fold(Refiner *r, const Value *x, Ints *out) {
  int64_t n = type_num_elems(x->type);
  if (!x->def) return fold_dim_arg(r, x, out);
  if (!is_int_tensor(x->type) || n < 0 || n > MAX_INTS) return false;
  if (x->id < 0 || x->id >= r->nvalues) return false; /* built by this pass: not a shape */
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

/* The first dimension whose size in dims is above t's bound for it
 * (#stablehlo.bounds), or -1. */
static int over_bound(const Type *t, const int64_t *dims) {
  for (int i = 0; t->bounds && i < t->rank; i++)
    if (t->bounds[i] != DIM_DYNAMIC && dims[i] != DIM_DYNAMIC && dims[i] > t->bounds[i]) return i;
  return -1;
}

/* Sets the result type of op to its element type with shape dims (a `?`
 * there keeps the old size); a static size that disagrees, or one above
 * the type's bound, is an error. */
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
  int over = over_bound(t, nd);
  if (over >= 0)
    return fail(r, op, "dimension %d of the result is %lld, above its bound %lld", over,
                (long long)nd[over], (long long)t->bounds[over]);
  res->type = with_dims(r, t, t->rank, nd);
  return true;
}

/* ------------------------------------------------------------------------ */
/* Dimension arguments implied by the shapes                                  */

/* The unknown dimension argument that element k of x is, unchanged through
 * the moves JAX makes with shape values (convert, reshape, broadcast of one
 * element, concatenate, 1-d slice), or NULL. */
static DimArg *sym_of(Refiner *r, const Value *x, int64_t k) {
  const Op *op = x->def;
  if (!op) {
    DimArg *d = dim_arg_of(r, x);
    return d && !d->known && k == 0 ? d : NULL;
  }
  int64_t n = type_num_elems(op->opnds[0]->type);
  switch (op->code) {
  case OP_CONVERT: case OP_RESHAPE: return sym_of(r, op->opnds[0], k);
  case OP_BROADCAST_IN_DIM: return n == 1 ? sym_of(r, op->opnds[0], 0) : NULL;
  case OP_SLICE:
    if (op->a.start_indices.n != 1) return NULL;
    return sym_of(r, op->opnds[0], op->a.start_indices.v[0] + k * op->a.strides.v[0]);
  case OP_CONCATENATE: {
    const Value *x = ir_concat_operand(op, &k);
    return x ? sym_of(r, x, k) : NULL;
  }
  default: return NULL;
  }
}

static void bind(Refiner *r, DimArg *d, int64_t v) {
  d->value = v;
  d->known = true;
  memset(r->state, 0, (size_t)r->nvalues); /* folds that failed may succeed now */
}

/* dynamic_broadcast_in_dim: an operand dimension of static size other than
 * 1 has the size of the result dimension it maps to (spec C5 of
 * broadcast_in_dim). Whether any argument was bound. */
static bool deduce_broadcast(Refiner *r, const Op *op) {
  const Type *x = op->opnds[0]->type;
  bool bound = false;
  for (int i = 0; i < x->rank && i < op->a.broadcast_dimensions.n; i++) {
    int64_t d = x->dims[i];
    DimArg *s = sym_of(r, op->opnds[1], op->a.broadcast_dimensions.v[i]);
    if (s && d != DIM_DYNAMIC && d != 1) {
      bind(r, s, d);
      bound = true;
    }
  }
  return bound;
}

/* dynamic_reshape: one unknown size follows from the element count (spec:
 * reshape C2), tried as 1 first so the others fold, then checked. */
static bool deduce_reshape(Refiner *r, const Op *op) {
  int64_t n = type_num_elems(op->opnds[0]->type);
  int rank = op->results[0]->type->rank;
  DimArg *s = NULL;
  for (int k = 0; k < rank && !s; k++) s = sym_of(r, op->opnds[1], k);
  if (n < 0 || !s) return false;
  Ints v;
  bind(r, s, 1);
  int64_t known = 1;
  if (fold_shape(r, op, 1, rank, &v))
    for (int k = 0; k < rank; k++) known *= v.v[k];
  if (known > 0 && n % known == 0) {
    bind(r, s, n / known);
    int64_t total = 1;
    if (fold_shape(r, op, 1, rank, &v)) {
      for (int k = 0; k < rank; k++) total *= v.v[k];
      if (total == n) return true;
    }
  }
  s->known = false;
  memset(r->state, 0, (size_t)r->nvalues);
  return false;
}

/* ------------------------------------------------------------------------ */
/* Dynamic ops to static ones                                                */

static bool refine_dim_size(Refiner *r, Op *op) {
  Ints v = {.n = 1};
  if (!fold_dim_size(op, &v))
    return fail(r, op, "dimension %lld of the operand is dynamic; specialize the program with "
                "--input-shapes or --dim (symbolic sizes are not compiled)", (long long)op->a.dimension);
  retarget(op, OP_CONSTANT, 0);
  op->a.value = ir_dense_ints(r->m, op->results[0]->type, v.v, 1);
  return retyped(r, op);
}

static bool not_constant(Refiner *r, Op *op, const char *what) {
  return fail(r, op, "%s is not a compile-time constant; specialize the program with "
              "--input-shapes or --dim (symbolic sizes are not compiled)", what);
}

/* A dynamic op whose result shape is its operand `at` (what: its name),
 * made the static op code of its operands before it: the shape folded,
 * else after deduce (NULL: none) has bound an unknown size in it. spec:
 * dynamic_broadcast_in_dim = broadcast_in_dim to output_dimensions,
 * dynamic_iota = iota of shape output_shape, dynamic_reshape = reshape to
 * output_shape. */
static bool refine_to_shape(Refiner *r, Op *op, int at, const char *what,
                            bool (*deduce)(Refiner *, const Op *), OpCode code) {
  Ints s;
  int rank = op->results[0]->type->rank;
  if (!fold_shape(r, op, at, rank, &s) && !(deduce && deduce(r, op) && fold_shape(r, op, at, rank, &s)))
    return not_constant(r, op, what);
  if (!set_shape(r, op, s.v)) return false;
  retarget(op, code, at);
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

/* Element k of an integer tensor as element `at` of `base` plus c, or
 * the constant c where base is NULL. */
typedef struct Affine {
  const Value *base;
  int64_t at, c;
} Affine;

static Affine affine(Refiner *r, const Value *x, int64_t k);

/* add or subtract of a constant. */
static Affine affine_sum(Refiner *r, const Op *op, int64_t k, Affine leaf) {
  Affine p = affine(r, op->opnds[0], k), q = affine(r, op->opnds[1], k);
  if (!q.base) {
    p.c = op->code == OP_ADD ? p.c + q.c : p.c - q.c;
    return p;
  }
  if (p.base || op->code != OP_ADD) return leaf;
  q.c += p.c;
  return q;
}

static Affine affine_concatenate(Refiner *r, const Op *op, int64_t k, Affine leaf) {
  const Value *x = ir_concat_operand(op, &k);
  return x ? affine(r, x, k) : leaf;
}

/* Element k of x through the moves JAX makes with shape values (as
 * sym_of) and sums with constants; wrap-around is not modelled (the slice
 * it serves clamps its start, so a wrong fold cannot read out of bounds). */
static Affine affine(Refiner *r, const Value *x, int64_t k) {
  Ints v;
  Affine leaf = {x, k, 0};
  if (fold(r, x, &v) && k < v.n) return (Affine){NULL, 0, v.v[k]};
  const Op *op = x->def;
  if (!op || !is_int_tensor(x->type)) return leaf;
  switch (op->code) {
  case OP_CONVERT: return is_int_tensor(op->opnds[0]->type) ? affine(r, op->opnds[0], k) : leaf;
  case OP_RESHAPE: return affine(r, op->opnds[0], k);
  case OP_BROADCAST_IN_DIM:
    return type_num_elems(op->opnds[0]->type) == 1 ? affine(r, op->opnds[0], 0) : leaf;
  case OP_SLICE:
    if (op->a.start_indices.n != 1) return leaf;
    return affine(r, op->opnds[0], op->a.start_indices.v[0] + k * op->a.strides.v[0]);
  case OP_CONCATENATE: return affine_concatenate(r, op, k, leaf);
  case OP_ADD: case OP_SUBTRACT: return affine_sum(r, op, k, leaf);
  default: return leaf;
  }
}

/* Element i of the 1-d start operand of op as a 0-d tensor. */
static Value *start_scalar(Refiner *r, Builder *b, Op *op, int64_t i) {
  const Type *t = op->opnds[1]->type;
  int64_t one = 1, limit = i + 1;
  Type *t1 = type_tensor(r->m->types, t->elem, 1, &one);
  Op *sl = ir_build(b, OP_SLICE, 1, &op->opnds[1], 1, &t1, 0);
  sl->a.start_indices = ir_list(r->m, &i, 1);
  sl->a.limit_indices = ir_list(r->m, &limit, 1);
  sl->a.strides = ir_list(r->m, &one, 1);
  Value *v = ir_build_done(b, sl);
  return ir_build1(b, OP_RESHAPE, type_tensor(r->m->types, t->elem, 0, NULL), 1, &v);
}

/* real_dynamic_slice whose start the program computes, where each
 * limit - start folds (len): the dynamic_slice of the span the result
 * covers, span = (n - 1) * stride + 1 for a result size n, which clamps
 * the start into [0, size - span] (spec "dynamic_slice"), then a slice
 * taking every stride-th element where a stride is not 1. The symbolic
 * entry does the same (codegen/dyndims.c gen_real_dynamic_slice, which
 * says why a clamp). */
static bool refine_runtime_slice(Refiner *r, Op *op, const Ints *st) {
  Value *x = op->opnds[0];
  int rank = x->type->rank;
  int64_t dims[MAX_INTS], span[MAX_INTS], zero[MAX_INTS] = {0};
  bool strided = false;
  if (!type_is_static(x->type)) return not_constant(r, op, "the operand's shape");
  for (int i = 0; i < rank; i++) {
    Affine s = affine(r, op->opnds[1], i), l = affine(r, op->opnds[2], i);
    if (s.base != l.base || s.at != l.at)
      return fail(r, op, "dimension %d: limit_indices - start_indices is not a constant (a start "
                  "computed at run time needs a limit of that start plus a constant)", i);
    int64_t len = l.c - s.c;
    if (st->v[i] <= 0 || len < 0 || len > x->type->dims[i] || (!s.base && (s.c < 0 || l.c > x->type->dims[i])))
      return fail(r, op, "dimension %d: bad slice of %lld elements (limit - start) step %lld from "
                  "%lld", i, (long long)len, (long long)st->v[i], (long long)x->type->dims[i]);
    dims[i] = (len + st->v[i] - 1) / st->v[i];
    span[i] = dims[i] ? (dims[i] - 1) * st->v[i] + 1 : 0;
    strided |= span[i] != dims[i];
  }
  if (!set_shape(r, op, dims)) return false;
  Builder b = {.m = r->m, .block = op->parent, .before = op, .loc = op->loc};
  Value **in = ARENA_ARRAY(&r->m->arena, Value *, rank + 1);
  in[0] = x;
  for (int i = 0; i < rank; i++) in[i + 1] = start_scalar(r, &b, op, i);
  if (strided) {
    Type *t = with_dims(r, x->type, rank, span);
    Op *ds = ir_build(&b, OP_DYNAMIC_SLICE, rank + 1, in, 1, &t, 0);
    ds->a.slice_sizes = ir_list(r->m, span, rank);
    retarget(op, OP_SLICE, 1);
    op->opnds[0] = ir_build_done(&b, ds);
    op->a.start_indices = ir_list(r->m, zero, rank);
    op->a.limit_indices = ir_list(r->m, span, rank);
    op->a.strides = ir_list(r->m, st->v, rank);
    return retyped(r, op);
  }
  retarget(op, OP_DYNAMIC_SLICE, rank + 1);
  op->opnds = in;
  op->a.slice_sizes = ir_list(r->m, span, rank);
  return retyped(r, op);
}

/* real_dynamic_slice = slice with start/limit/strides given as values;
 * spec: slice (C5): dim(result, i) = ceil((limit[i] - start[i]) / strides[i]). */
static bool refine_slice(Refiner *r, Op *op) {
  int rank = op->opnds[0]->type->rank;
  Ints lo, hi, st;
  if (!fold_shape(r, op, 3, rank, &st)) return not_constant(r, op, "strides");
  if (!fold_shape(r, op, 1, rank, &lo) || !fold_shape(r, op, 2, rank, &hi))
    return refine_runtime_slice(r, op, &st);
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
 * (tensor<Nx2>: low and high padding of each spatial dimension). With
 * pad_sym (padding computed from symbolic sizes, passes/symbolic.c) the
 * entry evaluates the padding (Window.pad_sym) and the op keeps its
 * padding operand, its third, so that it prints as the dynamic_conv it is
 * (ir/print.c). */
void refine_conv_padding(Module *m, Op *op, const int64_t *pad, const DimExpr *const *pad_sym) {
  int n = (int)op->a.conv.in_spatial.n;
  retarget(op, OP_CONVOLUTION, pad_sym ? 3 : 2);
  Window *w = &op->a.window;
  w->pad_sym = pad_sym;
  w->pad_lo = ir_list(m, pad, n);
  w->pad_hi = ir_list(m, pad, n);
  for (int i = 0; i < n; i++) {
    w->pad_lo.v[i] = pad[2 * i];
    w->pad_hi.v[i] = pad[2 * i + 1];
  }
  attrs_encode(m, op);
}

static bool refine_conv(Refiner *r, Op *op) {
  Ints p;
  if (!fold_shape(r, op, 2, 2 * (int)op->a.conv.in_spatial.n, &p))
    return not_constant(r, op, "padding");
  refine_conv_padding(r->m, op, p.v, NULL);
  /* spec: convolution (C22-C23): the result shape follows from the rest */
  int errors = verify_refine_op(r->m, r->f, op);
  r->errors += errors;
  return !errors;
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

static bool any_dynamic_result(const Op *op) {
  for (int i = 0; i < op->nresults; i++) {
    const Type *t = op->results[i]->type;
    if (t->kind == TY_TENSOR && !type_is_static(t)) return true;
  }
  return false;
}

static void reinfer(Refiner *r, Op *op) {
  if (!any_dynamic_result(op) || op->nopnds < 1 || op->results[0]->type->rank > MAX_INTS) return;
  if (op->nresults == 1 && ir_is_elementwise(op->code)) reinfer_elementwise(r, op);
  else if (op->code == OP_BROADCAST_IN_DIM) reinfer_broadcast(r, op);
  else if (op->code == OP_RESHAPE) reinfer_reshape(r, op);
  else r->errors += verify_refine_op(r->m, r->f, op);
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

/* ------------------------------------------------------------------------ */
/* custom_call @shape_assertion (jax.export: `assert_what(dims)` with an
 * error_message whose `{i}` stand for operand i + 1)                        */


/* The message with each `{i}` replaced by the folded operand i + 1. */
static const char *assertion_message(Refiner *r, const Op *op) {
  const char *msg = op->a.error_message ? op->a.error_message : "shape assertion failed";
  char *out = arena_strndup(&r->m->arena, "", 0);
  for (const char *p = msg; *p;) {
    const char *end;
    int i = ir_message_field(op, p, &end);
    Ints v;
    if (i >= 0 && fold(r, op->opnds[i + 1], &v) && v.n == 1) {
      out = arena_printf(&r->m->arena, "%s%lld", out, (long long)v.v[0]);
      p = end;
    } else {
      out = arena_printf(&r->m->arena, "%s%c", out, *p++);
    }
  }
  return out;
}

/* A predicate that folds: true removes the op, false is an error. One that
 * does not fold stays (legalize rejects it). */
static void refine_assertion(Refiner *r, Op *op) {
  Ints p;
  if (!ir_is_shape_assertion(op) || op->nopnds < 1 || !fold(r, op->opnds[0], &p) || p.n != 1) return;
  if (!p.v[0]) {
    fail(r, op, "shape assertion failed: %s", assertion_message(r, op));
    return;
  }
  if (r->asserted.n == r->asserted.cap) {
    r->asserted.cap = r->asserted.cap ? 2 * r->asserted.cap : 8;
    r->asserted.v = realloc(r->asserted.v, sizeof *r->asserted.v * (size_t)r->asserted.cap);
    if (!r->asserted.v) abort();
  }
  r->asserted.v[r->asserted.n++] = op;
}

/* ------------------------------------------------------------------------ */
/* Specialization of the entry                                               */

/* The index of op's first shape operand (the rest are shape operands too),
 * or op->nopnds when it has none. */
static int first_shape_operand(const Op *op) {
  switch (op->code) {
  case OP_DYNAMIC_IOTA: return 0;
  case OP_DYNAMIC_BROADCAST_IN_DIM: case OP_DYNAMIC_RESHAPE: case OP_REAL_DYNAMIC_SLICE:
  case OP_SET_DIMENSION_SIZE:
    return 1;
  case OP_DYNAMIC_PAD: case OP_DYNAMIC_GATHER: case OP_DYNAMIC_CONV: return 2;
  default: return ir_is_shape_assertion(op) ? 0 : op->nopnds;
  }
}

/* Marks x and everything it is computed from. */
static void mark_shape_value(Refiner *r, const Value *x) {
  if (r->state[x->id]) return;
  r->state[x->id] = 1;
  if (x->def)
    for (int i = 0; i < x->def->nopnds; i++) mark_shape_value(r, x->def->opnds[i]);
}

static void mark_shape_operands(Op *op, void *ctx) {
  for (int i = first_shape_operand(op); i < op->nopnds; i++) mark_shape_value(ctx, op->opnds[i]);
}

/* The dimension arguments: the leading 0-d integer arguments read by shape
 * operands (jax.export passes its dimension variables first; a 0-d integer
 * among the data arguments, e.g. a slice start, is data). */
static void find_dim_args(Refiner *r, Func *f) {
  ir_walk(f, mark_shape_operands, r);
  Block *b = f->body;
  r->dims = ARENA_ARRAY(&r->m->arena, DimArg, b->nargs + 1);
  for (int i = 0; i < b->nargs; i++) {
    const Type *t = b->args[i]->type;
    if (!r->state[b->args[i]->id] || t->kind != TY_TENSOR || t->rank != 0 ||
        elem_class(t->elem) != 's')
      break;
    const char *name = ir_arg_string_attr(f, i, "jax.global_constant");
    r->dims[r->ndims] = (DimArg){.arg = b->args[i],
        .name = name ? name : arena_printf(&r->m->arena, "d%d", r->ndims)};
    r->ndims++;
  }
  memset(r->state, 0, (size_t)r->nvalues);
}

/* --dim *=N: every dimension argument not yet bound and every `?` of the
 * arguments' types is N (the conformance runs of testdata/dynamic). */
static bool bind_all(Refiner *r, int64_t v) {
  for (int i = 0; i < r->ndims; i++)
    if (!r->dims[i].known) r->dims[i] = (DimArg){r->dims[i].arg, r->dims[i].name, v, true};
  Block *b = r->f->body;
  for (int i = 0; i < b->nargs; i++) {
    const Type *t = b->args[i]->type;
    int64_t dims[MAX_INTS];
    if (t->kind != TY_TENSOR || t->rank > MAX_INTS) continue;
    for (int k = 0; k < t->rank; k++) dims[k] = t->dims[k] == DIM_DYNAMIC ? v : t->dims[k];
    int over = over_bound(t, dims);
    if (over >= 0) {
      diag_error(r->f->loc, "--dim *=%lld: size %d of argument %d is above its bound %lld",
                 (long long)v, over, i, (long long)t->bounds[over]);
      r->errors++;
      return false;
    }
    if (type_dims_fit(t->rank, dims)) b->args[i]->type = with_dims(r, t, t->rank, dims);
  }
  return true;
}

/* --dim #K=N: argument K (counted from 0) is N if it is a dimension
 * argument (shloc run binds every 0-d integer input this way). */
static bool bind_position(Refiner *r, const char *k) {
  char *end, *vend;
  long i = strtol(k, &end, 10);
  long long v = *end == '=' ? strtoll(end + 1, &vend, 10) : 0;
  if (*end != '=' || end == k || vend == end + 1 || *vend || i < 0 || i >= r->f->body->nargs) {
    diag_error(r->f->loc, "--dim #%s: want #K=N with K an argument's position", k);
    r->errors++;
    return false;
  }
  DimArg *d = dim_arg_of(r, r->f->body->args[i]);
  if (!d) return true;
  if (v < 0) {
    diag_error(r->f->loc, "dimension argument %s is %lld", d->name, v);
    r->errors++;
    return false;
  }
  *d = (DimArg){d->arg, d->name, v, true};
  return true;
}

/* --dim NAME=N: NAME is the dimension's name or its argument's (argK). */
static bool bind_dim_option(Refiner *r, const char *spec) {
  if (spec[0] == '#') return bind_position(r, spec + 1);
  const char *eq = strchr(spec, '=');
  char *end;
  long long v = eq ? strtoll(eq + 1, &end, 10) : -1;
  if (!eq || end == eq + 1 || *end || v < 0) {
    diag_error(r->f->loc, "--dim %s: want NAME=N with N >= 0", spec);
    r->errors++;
    return false;
  }
  size_t n = (size_t)(eq - spec);
  if (n == 1 && spec[0] == '*') return bind_all(r, v);
  for (int i = 0; i < r->ndims; i++) {
    const char *src = r->dims[i].arg->name;
    if ((strlen(r->dims[i].name) == n && !strncmp(r->dims[i].name, spec, n)) ||
        (src && strlen(src) == n && !strncmp(src, spec, n))) {
      r->dims[i].value = v;
      r->dims[i].known = true;
      return true;
    }
  }
  diag_error(r->f->loc, "--dim %s: @%s has no dimension argument of that name (it has %d)", spec,
             r->f->name, r->ndims);
  r->errors++;
  return false;
}

/* Parses "2x4xf32" at *p (up to ',' or the end) into rank/dims/elem. */
static bool parse_shape(const char **p, int *rank, int64_t *dims, ElemType *e) {
  const char *s = *p;
  *rank = 0;
  while (*s >= '0' && *s <= '9') {
    char *end;
    long long d = strtoll(s, &end, 10);
    if (*end != 'x' || *rank >= MAX_INTS) return false;
    dims[(*rank)++] = d;
    s = end + 1;
  }
  size_t n = strcspn(s, ",");
  *e = elem_lookup(s, n);
  *p = s + n + (s[n] == ',');
  return *e != ET_COUNT && n > 0;
}

/* Argument a takes the given shape: its `?` become the sizes, its static
 * sizes and element type must agree. */
static bool bind_arg_shape(Refiner *r, Value *a, int k, int rank, const int64_t *dims, ElemType e) {
  const Type *t = a->type;
  bool ok = t->kind == TY_TENSOR && t->rank == rank && t->elem == e;
  for (int i = 0; ok && i < rank; i++) ok = t->dims[i] == DIM_DYNAMIC || t->dims[i] == dims[i];
  if (!ok || !type_dims_fit(rank, dims)) {
    diag_error(r->f->loc, "--input-shapes: shape %d does not fit argument %s of type %s", k,
               a->name ? a->name : "?", type_str(&r->m->arena, t));
    r->errors++;
    return false;
  }
  int over = over_bound(t, dims);
  if (over >= 0) {
    diag_error(r->f->loc, "--input-shapes: size %d of argument %s is %lld, above its bound %lld "
               "(%s)", over, a->name ? a->name : "?", (long long)dims[over],
               (long long)t->bounds[over], type_str(&r->m->arena, t));
    r->errors++;
    return false;
  }
  a->type = with_dims(r, t, rank, dims);
  return true;
}

/* The shapes of the tensor arguments, or of all arguments (dimension
 * arguments are 0-d integers then). */
static bool apply_input_shapes(Refiner *r, const char *spec) {
  const char *p = spec;
  int k = 0, count = *spec ? 1 : 0;
  Block *b = r->f->body;
  for (const char *q = spec; *q; q++) count += *q == ',';
  bool all = count == b->nargs;
  for (int i = 0; i < b->nargs; i++) {
    if (!all && dim_arg_of(r, b->args[i])) continue;
    int rank;
    int64_t dims[MAX_INTS];
    ElemType e;
    if (!*p) break;
    if (!parse_shape(&p, &rank, dims, &e)) {
      diag_error(r->f->loc, "--input-shapes=%s: shape %d is not like 2x4xf32", spec, k);
      r->errors++;
      return false;
    }
    if (!bind_arg_shape(r, b->args[i], k++, rank, dims, e)) return false;
  }
  if (k == (all ? b->nargs : b->nargs - r->ndims) && !*p) return true;
  diag_error(r->f->loc, "--input-shapes: @%s takes %d tensor arguments besides %d dimension "
             "arguments", r->f->name, b->nargs - r->ndims, r->ndims);
  r->errors++;
  return false;
}

/* The shape operand of a value computed by a dynamic op whose result
 * dimension i is element i of it, or NULL. */
static const Value *result_shape_operand(const Value *x) {
  const Op *op = x->def;
  if (!op) return NULL;
  switch (op->code) {
  case OP_DYNAMIC_BROADCAST_IN_DIM: case OP_DYNAMIC_RESHAPE: return op->opnds[1];
  case OP_DYNAMIC_IOTA: return op->opnds[0];
  default: return NULL;
  }
}

/* An elementwise op of an argument a and a value b of a dynamic op: their
 * shapes are equal (spec: the elementwise ops' C1), so a's static sizes
 * are the sizes b's shape operand computes (`x + broadcast(bias, [b, 4])`). */
static void deduce_elementwise(Refiner *r, const Value *a, const Value *b) {
  const Value *shape = result_shape_operand(b);
  if (a->def || !shape || !type_is_static(a->type) || a->type->rank != b->type->rank) return;
  for (int i = 0; i < a->type->rank; i++) {
    DimArg *s = sym_of(r, shape, i);
    if (s) bind(r, s, a->type->dims[i]);
  }
}

/* Deduction before the walk from ops reading the arguments directly, so
 * that uses earlier in program order see the values too. */
static void deduce_from_args(Op *op, void *ctx) {
  Refiner *r = ctx;
  if (op->nopnds < 2) return;
  if (ir_is_elementwise(op->code)) {
    deduce_elementwise(r, op->opnds[0], op->opnds[1]);
    deduce_elementwise(r, op->opnds[1], op->opnds[0]);
  }
  if (op->opnds[0]->def || !type_is_static(op->opnds[0]->type)) return;
  if (op->code == OP_DYNAMIC_BROADCAST_IN_DIM) deduce_broadcast(r, op);
  else if (op->code == OP_DYNAMIC_RESHAPE) deduce_reshape(r, op);
}

static bool specialize_begin(Refiner *r, const CompileOptions *o) {
  find_dim_args(r, r->f);
  for (int i = 0; i < o->ndims; i++) /* named ones first, `*` fills the rest */
    if (o->dims[i][0] != '*' && !bind_dim_option(r, o->dims[i])) return false;
  if (o->input_shapes && !apply_input_shapes(r, o->input_shapes)) return false;
  for (int i = 0; i < o->ndims; i++)
    if (o->dims[i][0] == '*' && !bind_dim_option(r, o->dims[i])) return false;
  ir_walk(r->f, deduce_from_args, r);
  return true;
}

/* Drops argument i of f's signature. */
static void remove_arg(Func *f, int i) {
  Block *b = f->body;
  for (int k = i; k + 1 < b->nargs; k++) {
    b->args[k] = b->args[k + 1];
    b->args[k]->index = k;
    if (f->arg_attrs) {
      f->arg_attrs[k] = f->arg_attrs[k + 1];
      f->narg_attrs[k] = f->narg_attrs[k + 1];
    }
  }
  b->nargs--;
}

/* Each dimension argument becomes a constant at the top of the body. */
static void specialize_end(Refiner *r) {
  Func *f = r->f;
  for (int i = r->ndims - 1; i >= 0; i--) {
    DimArg *d = &r->dims[i];
    if (!d->known) {
      diag_error(f->loc, "dimension argument %s (%%%s) of @%s does not follow from the input "
                 "shapes; give it with --dim %s=N", d->name, d->arg->name ? d->arg->name : "?",
                 f->name, d->name);
      r->errors++;
      continue;
    }
    Builder b = {.m = r->m, .block = f->body, .before = f->body->first, .loc = f->loc};
    int64_t v = d->value;
    Value *c = ir_build_constant(&b, ir_dense_ints(r->m, d->arg->type, &v, 1));
    ir_replace_uses(f, d->arg, c);
    remove_arg(f, d->arg->index);
  }
}

/* ------------------------------------------------------------------------ */

static void refine_op(Op *op, void *ctx) {
  Refiner *r = ctx;
  switch (op->code) {
  case OP_GET_DIMENSION_SIZE: refine_dim_size(r, op); return;
  case OP_DYNAMIC_BROADCAST_IN_DIM:
    refine_to_shape(r, op, 1, "output_dimensions", deduce_broadcast, OP_BROADCAST_IN_DIM);
    return;
  case OP_DYNAMIC_IOTA: refine_to_shape(r, op, 0, "output_shape", NULL, OP_IOTA); return;
  case OP_DYNAMIC_RESHAPE:
    refine_to_shape(r, op, 1, "output_shape", deduce_reshape, OP_RESHAPE);
    return;
  case OP_DYNAMIC_PAD: refine_pad(r, op); return;
  case OP_REAL_DYNAMIC_SLICE: refine_slice(r, op); return;
  case OP_DYNAMIC_GATHER: refine_gather(r, op); return;
  case OP_DYNAMIC_CONV: refine_conv(r, op); return;
  case OP_CUSTOM_CALL: refine_assertion(r, op); return;
  default: reinfer(r, op); return;
  }
}

/* The function that --input-shapes and --dim apply to: --entry, else
 * @main, else the only public one (as the driver chooses). */
static Func *specialized_entry(Module *m, const CompileOptions *o) {
  if (!o->input_shapes && !o->ndims) return NULL;
  Func *f = ir_module_find_func(m, o->entry ? o->entry : "main"), *only = NULL;
  int npublic = 0;
  for (int i = 0; !f && i < m->nfuncs; i++)
    if (m->funcs[i]->is_public && ++npublic) only = m->funcs[i];
  return f ? f : npublic == 1 ? only : NULL;
}

static bool any_dynamic(Type *const *types, int n) {
  for (int i = 0; i < n; i++)
    if (types[i]->kind == TY_TENSOR && !type_is_static(types[i])) return true;
  return false;
}

/* An entry that is not specialized is compiled with symbolic sizes
 * (passes/symbolic.c) when its arguments have `?` sizes, or it has
 * dimension arguments and `?` result sizes. */
static bool wants_symbols(Refiner *r, Func *f, const CompileOptions *o) {
  bool entry = o && o->entry ? !strcmp(f->name, o->entry) : f->is_public;
  if (!entry) return false;
  Type *args[f->body->nargs + 1];
  for (int i = 0; i < f->body->nargs; i++) args[i] = f->body->args[i]->type;
  if (any_dynamic(args, f->body->nargs)) return true;
  if (!any_dynamic(f->result_types, f->nresults)) return false;
  find_dim_args(r, f);
  return r->ndims > 0;
}

static void refine_symbolic_func(Refiner *r, Func *f) {
  r->ndims = 0;
  find_dim_args(r, f);
  Value *args[r->ndims + 1];
  const char *names[r->ndims + 1];
  for (int i = 0; i < r->ndims; i++) {
    args[i] = r->dims[i].arg;
    names[i] = r->dims[i].name;
  }
  r->errors += refine_symbolic(r->m, f, args, names, r->ndims);
}

static void refine_func(Refiner *r, Func *f, bool specialize, const CompileOptions *o) {
  ir_number_values(f);
  r->nvalues = f->next_value_id > 0 ? f->next_value_id : 1;
  r->f = f;
  r->ndims = 0;
  r->asserted.n = 0;
  r->state = calloc((size_t)r->nvalues, 1);
  r->folded = calloc((size_t)r->nvalues, sizeof *r->folded);
  if (!r->state || !r->folded) abort();
  if (!specialize && wants_symbols(r, f, o)) {
    refine_symbolic_func(r, f);
  } else if (!specialize || specialize_begin(r, o)) {
    ir_walk(f, refine_op, r);
    if (specialize) specialize_end(r);
    for (int i = 0; i < r->asserted.n; i++)
      ir_block_remove(r->asserted.v[i]->parent, r->asserted.v[i]);
    refine_signature(r, f);
  }
  free(r->state);
  free(r->folded);
  ir_recount_uses(f);
}

int pass_refine_shapes(Module *m, const CompileOptions *o) {
  Refiner r = {.m = m};
  Func *entry = specialized_entry(m, o);
  for (int i = 0; i < m->nfuncs; i++)
    if (m->funcs[i]->body) refine_func(&r, m->funcs[i], m->funcs[i] == entry, o);
  free(r.asserted.v);
  return r.errors;
}
