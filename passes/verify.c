/* verify.c: checks the StableHLO spec's constraints on every op.
 *
 * Each op verifier cites the constraint it checks as in the spec's
 * "Constraints" list of that op, e.g. `stablehlo.concatenate: operands differ
 * in rank (C2)`. Result types are checked against the types the spec infers
 * from the operands and attributes. A dimension written `?` is compatible
 * with any size (the spec's shape functions are applied only where sizes are
 * known), as upstream's verifier does.
 *
 * Verifiers stop at the first violated constraint of an op, so one mistake
 * gives one error. Ops without a verifier here are accepted; codegen rejects
 * the ones it does not implement.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../ir/ir.h"

enum { MAX_RANK = 64 }; /* fixed-size shape buffers rely on this (check_ranks) */

typedef struct V {
  Module *m;
  Func *fn; /* function whose body is being verified */
  /* verify_refine_op: a result whose declared type is less static than
   * the inferred one takes the inferred sizes */
  bool refine;
} V;

/* ------------------------------------------------------------------------ */
/* Diagnostics                                                               */

static bool fail(const Op *op, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Reports `op-name: message` at the op; returns false for `return fail(...)`. */
static bool fail(const Op *op, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ir_op_verror(op, fmt, ap);
  va_end(ap);
  return false;
}

static const char *ts(V *v, const Type *t) { return type_str(&v->m->arena, t); }

/* ------------------------------------------------------------------------ */
/* Types                                                                     */

static bool is_tensor(const Type *t) { return t->kind == TY_TENSOR; }
static bool is_dyn(int64_t d) { return d == DIM_DYNAMIC; }
static bool is_quant(const Type *t) { return is_tensor(t) && t->elem == ET_QUANT; }
static bool is_per_axis(const Type *t) { return is_quant(t) && t->quant->axis >= 0; }

/* Sizes agree unless one of them is unknown. */
static bool dim_ok(int64_t a, int64_t b) { return is_dyn(a) || is_dyn(b) || a == b; }

static bool shape_ok(const Type *a, const Type *b) {
  if (a->rank != b->rank) return false;
  for (int i = 0; i < a->rank; i++)
    if (!dim_ok(a->dims[i], b->dims[i])) return false;
  return true;
}

/* element_type(a) = element_type(b), quantization parameters included. */
static bool elem_same(const Type *a, const Type *b) {
  if (a->elem != b->elem) return false;
  return a->elem != ET_QUANT || quant_info_equal(a->quant, b->quant);
}

/* baseline_element_type: quantized types compare without scales and zero
 * points (spec: "Functions on types"). */
static bool elem_baseline(const Type *a, const Type *b) {
  if (a->elem != b->elem) return false;
  if (a->elem != ET_QUANT) return true;
  const QuantInfo *p = a->quant, *q = b->quant;
  return p->storage == q->storage && p->expressed == q->expressed &&
         p->storage_min == q->storage_min && p->storage_max == q->storage_max;
}

/* type(a) = type(b) up to unknown dimension sizes. */
static bool type_ok(const Type *a, const Type *b) {
  if (a == b) return true;
  if (a->kind != b->kind) return false;
  if (a->kind == TY_TOKEN) return true;
  if (a->kind == TY_TUPLE) {
    if (a->nelems != b->nelems) return false;
    for (int i = 0; i < a->nelems; i++)
      if (!type_ok(a->elems[i], b->elems[i])) return false;
    return true;
  }
  return elem_same(a, b) && shape_ok(a, b);
}

/* Exact type equality (func.call, func.return) with quantized types
 * compared by value. */
static bool type_eq(const Type *a, const Type *b) {
  if (a == b) return true;
  if (a->kind != b->kind) return false;
  if (a->kind == TY_TUPLE) {
    if (a->nelems != b->nelems) return false;
    for (int i = 0; i < a->nelems; i++)
      if (!type_eq(a->elems[i], b->elems[i])) return false;
    return true;
  }
  if (a->kind == TY_TOKEN) return true;
  return elem_same(a, b) && type_same_dims(a, b);
}

/* baseline_type(a) = baseline_type(b). */
static bool baseline_ok(const Type *a, const Type *b) {
  return is_tensor(a) && is_tensor(b) && elem_baseline(a, b) && shape_ok(a, b);
}

static ElemType storage_elem(const Type *t) {
  return t->elem == ET_QUANT ? t->quant->storage : t->elem;
}

/* Element kinds, for the "tensor of ... type" rows of the spec's tables. */
enum {
  K_BOOL = 1, K_SINT = 2, K_UINT = 4, K_FLOAT = 8, K_COMPLEX = 16, K_QUANT = 32,
  K_INT = K_SINT | K_UINT,
  K_ANY = 63,
};

static unsigned elem_kind(ElemType e) {
  switch (elem_class(e)) {
  case 'b': return K_BOOL;
  case 's': return K_SINT;
  case 'u': return K_UINT;
  case 'f': return K_FLOAT;
  case 'c': return K_COMPLEX;
  default: return K_QUANT;
  }
}

/* "boolean or integer", "floating-point or complex", ... into buf. */
static const char *kinds_str(unsigned k, char *buf, size_t n) {
  static const struct { unsigned k; const char *name; } names[] = {
      {K_BOOL, "boolean"}, {K_INT, "integer"}, {K_SINT, "signed integer"},
      {K_UINT, "unsigned integer"}, {K_FLOAT, "floating-point"}, {K_COMPLEX, "complex"},
      {K_QUANT, "per-tensor quantized"}};
  buf[0] = 0;
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    if ((k & names[i].k) != names[i].k) continue;
    k &= ~names[i].k;
    size_t len = strlen(buf);
    snprintf(buf + len, n - len, "%s%s", len ? " or " : "", names[i].name);
  }
  return buf;
}

/* The value is a tensor whose element type is one of `kinds`. */
static bool check_kind(V *v, const Op *op, const Value *x, unsigned kinds, const char *what) {
  if (!is_tensor(x->type))
    return fail(op, "%s must be a tensor, got '%s'", what, ts(v, x->type));
  if (elem_kind(x->type->elem) & kinds) return true;
  char buf[128];
  return fail(op, "%s must be a tensor of %s type, got '%s'", what,
              kinds_str(kinds, buf, sizeof buf), ts(v, x->type));
}

/* ------------------------------------------------------------------------ */
/* Operand counts, attributes, dimension lists                               */

static bool arity(const Op *op, int nopnds, int nresults) {
  if (nopnds >= 0 && op->nopnds != nopnds)
    return fail(op, "expects %d operand%s, got %d", nopnds, nopnds == 1 ? "" : "s",
                op->nopnds);
  if (nresults >= 0 && op->nresults != nresults)
    return fail(op, "expects %d result%s, got %d", nresults, nresults == 1 ? "" : "s",
                op->nresults);
  return true;
}

/* Every operand and result is a tensor (not a token or tuple). */
static bool all_tensors(V *v, const Op *op) {
  for (int i = 0; i < op->nopnds; i++)
    if (!is_tensor(op->opnds[i]->type))
      return fail(op, "operand #%d must be a tensor, got '%s'", i, ts(v, op->opnds[i]->type));
  for (int i = 0; i < op->nresults; i++)
    if (!is_tensor(op->results[i]->type))
      return fail(op, "result #%d must be a tensor, got '%s'", i, ts(v, op->results[i]->type));
  return true;
}

/* 0 <= l[i] < rank for each i. */
static bool dims_in_range(const Op *op, const char *name, I64List l, int64_t rank,
                          const char *c) {
  for (int i = 0; i < l.n; i++)
    if (l.v[i] < 0 || l.v[i] >= rank)
      return fail(op, "%s value %lld is out of range [0, %lld) (%s)", name,
                  (long long)l.v[i], (long long)rank, c);
  return true;
}

/* is_unique(a + b): `b` may be empty. */
static bool dims_unique2(const Op *op, const char *name, I64List a, I64List b, const char *c) {
  for (int i = 0; i < a.n + b.n; i++) {
    int64_t x = i < a.n ? a.v[i] : b.v[i - a.n];
    for (int j = 0; j < i; j++)
      if ((j < a.n ? a.v[j] : b.v[j - a.n]) == x)
        return fail(op, "%s has duplicate dimension %lld (%s)", name, (long long)x, c);
  }
  return true;
}

static bool dims_unique(const Op *op, const char *name, I64List l, const char *c) {
  I64List none = {0, NULL};
  return dims_unique2(op, name, l, none, c);
}

static bool dims_sorted(const Op *op, const char *name, I64List l, const char *c) {
  for (int i = 1; i < l.n; i++)
    if (l.v[i] < l.v[i - 1]) return fail(op, "%s must be sorted (%s)", name, c);
  return true;
}

/* The result type the spec infers, compared with the declared one. */
/* In refine mode: result i, compatible with `want`, takes want's static
 * sizes where its own are `?` (spec: the inferred type is the only type
 * the result can have at run time). */
static void refine_result(V *v, const Op *op, int i, const Type *want) {
  Value *res = op->results[i];
  const Type *got = res->type;
  if (!v->refine || !is_tensor(want) || !is_tensor(got) || want->rank != got->rank ||
      want->rank > MAX_RANK || type_is_static(got))
    return;
  int64_t dims[MAX_RANK];
  for (int k = 0; k < got->rank; k++)
    dims[k] = is_dyn(got->dims[k]) ? want->dims[k] : got->dims[k];
  if (!type_dims_fit(got->rank, dims)) return;
  res->type = got->elem == ET_QUANT ? type_tensor_quant(v->m->types, got->quant, got->rank, dims)
                                    : type_tensor(v->m->types, got->elem, got->rank, dims);
}

static bool check_result(V *v, const Op *op, int i, const Type *want, const char *c) {
  const Type *got = op->results[i]->type;
  if (!want) return fail(op, "inferred shape of result #%d is out of range (%s)", i, c);
  if (type_ok(want, got)) {
    refine_result(v, op, i, want);
    return true;
  }
  return fail(op, "inferred type '%s' is incompatible with result type '%s' (%s)",
              ts(v, want), ts(v, got), c);
}

/* A tensor type with the element type of `like` and the given dims, or
 * NULL where the inferred dims are out of range (negative, or more elements
 * than a tensor may hold): check_result and check_result_shape report it. */
static const Type *shaped_like(V *v, const Type *like, int rank, const int64_t *dims) {
  if (!type_dims_fit(rank, dims)) return NULL;
  if (like->elem == ET_QUANT) return type_tensor_quant(v->m->types, like->quant, rank, dims);
  return type_tensor(v->m->types, like->elem, rank, dims);
}

/* Compares only the shape of result i with `dims` (element type checked
 * separately, e.g. where quantization parameters may differ). */
static bool check_result_shape(V *v, const Op *op, int i, int rank, const int64_t *dims,
                               const char *c) {
  const Type *got = op->results[i]->type;
  const Type *want = shaped_like(v, got, rank, dims);
  if (!want) return fail(op, "inferred shape of result #%d is out of range (%s)", i, c);
  if (shape_ok(want, got)) {
    refine_result(v, op, i, want);
    return true;
  }
  return fail(op, "inferred shape '%s' is incompatible with result type '%s' (%s)",
              ts(v, want), ts(v, got), c);
}

/* ------------------------------------------------------------------------ */
/* Regions                                                                   */

/* The single block of region r, or NULL after an error. */
static Block *single_block(const Op *op, int r) {
  if (r >= op->nregions) {
    fail(op, "expects region #%d", r);
    return NULL;
  }
  if (op->regions[r]->nblocks != 1) {
    fail(op, "region #%d must have exactly one block, has %d", r, op->regions[r]->nblocks);
    return NULL;
  }
  return op->regions[r]->blocks[0];
}

/* The `stablehlo.return` ending region r's block, or NULL after an error. */
static Op *region_return(const Op *op, int r) {
  Block *b = single_block(op, r);
  if (!b) return NULL;
  Op *t = ir_block_terminator(b);
  if (!t || t->code != OP_RETURN) {
    fail(op, "region #%d must end with stablehlo.return", r);
    return NULL;
  }
  return t;
}

/* The block of region r takes `n` arguments of `0-d` tensor type; returns
 * the terminator after checking it returns `nret` values. */
static Op *region_signature(const Op *op, int r, int nargs, int nret, const char *c) {
  Op *t = region_return(op, r);
  if (!t) return NULL;
  Block *b = op->regions[r]->blocks[0];
  if (b->nargs != nargs) {
    fail(op, "region #%d must take %d arguments, takes %d (%s)", r, nargs, b->nargs, c);
    return NULL;
  }
  if (t->nopnds != nret) {
    fail(op, "region #%d must return %d values, returns %d (%s)", r, nret, t->nopnds, c);
    return NULL;
  }
  return t;
}

/* is_promotable(x, y) (spec: "Functions on types"). */
static bool promotable(const Type *x, const Type *y) {
  if (x->elem == ET_QUANT || y->elem == ET_QUANT) {
    if (x->elem != ET_QUANT || y->elem != ET_QUANT) return false;
    return x->quant->expressed == y->quant->expressed &&
           elem_bits(x->quant->storage) <= elem_bits(y->quant->storage);
  }
  unsigned kx = elem_kind(x->elem), ky = elem_kind(y->elem);
  if (kx & K_INT) kx = K_INT;
  if (ky & K_INT) ky = K_INT;
  if (kx != ky) return false;
  return elem_bits(x->elem) <= elem_bits(y->elem);
}

/* A reduction body `(tensor<E0>, ..., tensor<EN-1>, tensor<E0>, ...,
 * tensor<EN-1>) -> (tensor<E0>, ..., tensor<EN-1>)` with
 * is_promotable(element_type(inputs[i]), Ei). Fills body_types[i] = Ei's
 * tensor type. */
static bool check_reducer(V *v, const Op *op, int r, Value *const *inputs, int n,
                          const Type **body_types, const char *c) {
  Op *t = region_signature(op, r, 2 * n, n, c);
  if (!t) return false;
  Block *b = op->regions[r]->blocks[0];
  for (int i = 0; i < n; i++) {
    const Type *a = b->args[i]->type, *a2 = b->args[n + i]->type, *ret = t->opnds[i]->type;
    if (!is_tensor(a) || a->rank != 0)
      return fail(op, "body argument #%d must be a 0-d tensor, got '%s' (%s)", i, ts(v, a), c);
    if (!type_eq(a, a2))
      return fail(op, "body arguments #%d and #%d must have the same type, got '%s' and '%s' (%s)",
                  i, n + i, ts(v, a), ts(v, a2), c);
    if (!type_ok(a, ret))
      return fail(op, "body result #%d has type '%s', expected '%s' (%s)", i, ts(v, ret),
                  ts(v, a), c);
    if (!promotable(inputs[i]->type, a))
      return fail(op, "element type of input #%d ('%s') is not promotable to body type '%s' (%s)",
                  i, ts(v, inputs[i]->type), ts(v, a), c);
    body_types[i] = a;
  }
  return true;
}

/* ------------------------------------------------------------------------ */
/* Elementwise ops                                                           */

/* Element kinds of the operands, from the spec's "Inputs" tables. */
static unsigned elementwise_kinds(OpCode c) {
  switch (c) {
  case OP_ABS: case OP_SIGN:
    return K_SINT | K_FLOAT | K_COMPLEX | K_QUANT;
  case OP_AND: case OP_OR: case OP_XOR: case OP_NOT:
    return K_BOOL | K_INT;
  case OP_ATAN2: case OP_CBRT: case OP_COSINE: case OP_SINE: case OP_TAN:
  case OP_TANH: case OP_EXPONENTIAL: case OP_EXPONENTIAL_MINUS_ONE: case OP_LOG:
  case OP_LOG_PLUS_ONE: case OP_LOGISTIC: case OP_RSQRT: case OP_SQRT:
    return K_FLOAT | K_COMPLEX | K_QUANT;
  case OP_CEIL: case OP_FLOOR: case OP_ROUND_NEAREST_AFZ: case OP_ROUND_NEAREST_EVEN:
  case OP_IS_FINITE: case OP_REDUCE_PRECISION:
    return K_FLOAT | K_QUANT;
  case OP_COUNT_LEADING_ZEROS: case OP_POPCNT: case OP_SHIFT_LEFT:
  case OP_SHIFT_RIGHT_ARITHMETIC: case OP_SHIFT_RIGHT_LOGICAL:
    return K_INT;
  case OP_DIVIDE: case OP_REMAINDER: case OP_POWER: case OP_SUBTRACT: case OP_NEGATE:
    return K_INT | K_FLOAT | K_COMPLEX | K_QUANT;
  case OP_REAL: case OP_IMAG:
    return K_FLOAT | K_COMPLEX;
  default:
    return K_ANY;
  }
}

/* The element type of a complex type's parts: complex_element_type. */
static ElemType complex_part(ElemType e) {
  return e == ET_C64 ? ET_F32 : e == ET_C128 ? ET_F64 : e;
}

/* abs (C1-C2), real (C1-C2), imag (C1-C2): complex operands give their part
 * type; others keep their (baseline) type. */
static bool check_part_result(V *v, const Op *op) {
  const Type *x = op->opnds[0]->type, *r = op->results[0]->type;
  if (!shape_ok(x, r))
    return fail(op, "result shape '%s' differs from operand shape '%s' (C1)", ts(v, r), ts(v, x));
  if (x->elem == ET_QUANT ? elem_baseline(x, r) : r->elem == complex_part(x->elem))
    return true;
  const Type *want = type_with_elem(v->m->types, x, complex_part(x->elem));
  return fail(op, "inferred type '%s' is incompatible with result type '%s' (C2)",
              ts(v, x->elem == ET_QUANT ? x : want), ts(v, r));
}

static const Attr *field(const Attr *a, const char *name) {
  if (!a || (a->kind != AT_STRUCT && a->kind != AT_DICT)) return NULL;
  for (int i = 0; i < a->n; i++)
    if (!strcmp(a->fields[i].name, name)) return a->fields[i].value;
  return NULL;
}

static double num_attr(const Attr *a) {
  if (!a) return 0;
  return a->kind == AT_FLOAT ? a->fval : (double)a->ival;
}

/* `result_accuracy = #stablehlo.result_accuracy<atol, rtol, ulps, mode>` of
 * the transcendental ops: tolerances are non-negative, and all zero unless
 * the mode is TOLERANCE. */
static bool check_result_accuracy(const Op *op) {
  const Attr *ra = ir_attr(op, "result_accuracy");
  if (!ra) return true;
  double atol = num_attr(field(ra, "atol")), rtol = num_attr(field(ra, "rtol"));
  double ulps = num_attr(field(ra, "ulps"));
  if (atol < 0 || rtol < 0 || ulps < 0)
    return fail(op, "result_accuracy tolerances must be non-negative");
  const Attr *mode = field(ra, "mode");
  const char *m = mode && mode->kind == AT_ENUM ? mode->str : "DEFAULT";
  if (strcmp(m, "TOLERANCE") && (atol != 0 || rtol != 0 || ulps != 0))
    return fail(op, "result_accuracy tolerances must be all zero with mode %s", m);
  return true;
}

static bool v_unary(V *v, const Op *op) {
  if (!all_tensors(v, op)) return false;
  if (!check_kind(v, op, op->opnds[0], elementwise_kinds(op->code), "operand"))
    return false;
  const Type *x = op->opnds[0]->type, *r = op->results[0]->type;
  switch (op->code) {
  case OP_ABS: case OP_REAL: case OP_IMAG:
    return check_part_result(v, op);
  case OP_CONVERT:
    if (shape_ok(x, r)) return true;
    return fail(op, "result shape '%s' differs from operand shape '%s' (C1)", ts(v, r), ts(v, x));
  case OP_IS_FINITE:
    if (r->elem != ET_I1)
      return fail(op, "result must be a tensor of i1, got '%s'", ts(v, r));
    if (shape_ok(x, r)) return true;
    return fail(op, "result shape '%s' differs from operand shape '%s' (C1)", ts(v, r), ts(v, x));
  case OP_COUNT_LEADING_ZEROS: case OP_POPCNT: case OP_NOT:
    return check_result(v, op, 0, x, "C1");
  case OP_REDUCE_PRECISION:
    if (op->a.exponent_bits < 1) return fail(op, "exponent_bits must be at least 1 (C2)");
    if (op->a.mantissa_bits < 0) return fail(op, "mantissa_bits must be non-negative (C3)");
    break;
  default:
    break;
  }
  if (!baseline_ok(x, r))
    return fail(op, "result type '%s' differs from operand type '%s' (C1)", ts(v, r), ts(v, x));
  return check_result_accuracy(op);
}

/* add (C2-C7) for quantized operands; the other binary ops that accept
 * per-tensor quantized tensors compare baseline types. */
static bool check_quant_add(V *v, const Op *op) {
  const Type *l = op->opnds[0]->type, *r = op->opnds[1]->type, *res = op->results[0]->type;
  if (!is_quant(l) || !is_quant(r) || !is_quant(res))
    return fail(op, "operands and result must be all quantized or all non-quantized (C2)");
  if (!shape_ok(l, r) || !shape_ok(l, res))
    return fail(op, "operands and result must have the same shape: '%s', '%s' -> '%s' (C1)",
                ts(v, l), ts(v, r), ts(v, res));
  const QuantInfo *ql = l->quant, *qr = r->quant, *qo = res->quant;
  if (ql->storage != qr->storage || ql->storage != qo->storage)
    return fail(op, "operands and result must have the same storage type (C3)");
  if (ql->expressed != qr->expressed || ql->expressed != qo->expressed)
    return fail(op, "operands and result must have the same expressed type (C4)");
  if ((ql->axis >= 0 || qr->axis >= 0) != (qo->axis >= 0))
    return fail(op, "result must be per-axis quantized iff lhs or rhs is (C5)");
  if (ql->axis >= 0 && ql->axis != qo->axis)
    return fail(op, "quantization_dimension of lhs and result differ (C6)");
  if (qr->axis >= 0 && qr->axis != qo->axis)
    return fail(op, "quantization_dimension of rhs and result differ (C7)");
  return true;
}

/* compare (C3): compare_type matches the element type of lhs. Upstream
 * accepts TOTALORDER and FLOAT on integers (print_stablehlo.mlir), and the
 * integer comparisons follow the element type anyway; an integer compare
 * type on floats or complex values has no meaning and is rejected. */
static bool check_compare_type(const Op *op) {
  CmpType t = op->a.compare_type;
  ElemType e = op->opnds[0]->type->elem;
  if ((t == CMPT_SIGNED || t == CMPT_UNSIGNED) && (elem_is_float(e) || elem_is_complex(e)))
    return fail(op, "compare_type %s does not apply to element type %s (C3)",
                t == CMPT_SIGNED ? "SIGNED" : "UNSIGNED", elem_name(e));
  if (t == CMPT_TOTALORDER && elem_is_complex(e))
    return fail(op, "compare_type TOTALORDER does not apply to element type %s (C3)", elem_name(e));
  return true;
}

static bool v_compare(V *v, const Op *op) {
  const Type *l = op->opnds[0]->type, *r = op->opnds[1]->type, *res = op->results[0]->type;
  if (!elem_baseline(l, r))
    return fail(op, "operands have different element types: '%s' and '%s' (C1)", ts(v, l), ts(v, r));
  if (!shape_ok(l, r) || !shape_ok(l, res))
    return fail(op, "operands and result must have the same shape: '%s', '%s' -> '%s' (C2)",
                ts(v, l), ts(v, r), ts(v, res));
  if (res->elem != ET_I1) return fail(op, "result must be a tensor of i1, got '%s'", ts(v, res));
  return check_compare_type(op);
}

/* complex (C1-C3). */
static bool v_complex(V *v, const Op *op) {
  const Type *l = op->opnds[0]->type, *r = op->opnds[1]->type;
  if (l->elem != ET_F32 && l->elem != ET_F64)
    return fail(op, "operands must be tensors of f32 or f64, got '%s'", ts(v, l));
  if (!type_ok(l, r))
    return fail(op, "operands have different types: '%s' and '%s' (C1)", ts(v, l), ts(v, r));
  const Type *want = type_with_elem(v->m->types, l, l->elem == ET_F32 ? ET_C64 : ET_C128);
  return check_result(v, op, 0, want, "C2-C3");
}

static bool v_binary(V *v, const Op *op) {
  if (!all_tensors(v, op)) return false;
  unsigned k = elementwise_kinds(op->code);
  if (op->code != OP_COMPLEX &&
      (!check_kind(v, op, op->opnds[0], k, "lhs") || !check_kind(v, op, op->opnds[1], k, "rhs")))
    return false;
  const Type *l = op->opnds[0]->type, *r = op->opnds[1]->type, *res = op->results[0]->type;
  switch (op->code) {
  case OP_COMPARE: return v_compare(v, op);
  case OP_COMPLEX: return v_complex(v, op);
  case OP_ADD:
    if (is_quant(l) || is_quant(r) || is_quant(res)) return check_quant_add(v, op);
    /* fallthrough */
  case OP_AND: case OP_OR: case OP_XOR: case OP_SHIFT_LEFT:
  case OP_SHIFT_RIGHT_ARITHMETIC: case OP_SHIFT_RIGHT_LOGICAL:
    if (type_ok(l, r) && type_ok(l, res)) return true;
    break;
  default:
    if (baseline_ok(l, r) && baseline_ok(l, res)) return true;
    break;
  }
  return fail(op, "operands and result must have the same type: '%s', '%s' -> '%s' (C1)",
              ts(v, l), ts(v, r), ts(v, res));
}

/* select (C1-C2). */
static bool v_select(V *v, const Op *op) {
  if (!all_tensors(v, op)) return false;
  const Type *p = op->opnds[0]->type, *t = op->opnds[1]->type, *f = op->opnds[2]->type;
  if (p->elem != ET_I1) return fail(op, "pred must be a tensor of i1, got '%s'", ts(v, p));
  if (p->rank != 0 && !shape_ok(p, t))
    return fail(op, "pred shape '%s' is neither scalar nor the shape of on_true '%s' (C1)",
                ts(v, p), ts(v, t));
  if (!baseline_ok(t, f))
    return fail(op, "on_true '%s' and on_false '%s' have different types (C2)", ts(v, t), ts(v, f));
  if (!baseline_ok(t, op->results[0]->type))
    return fail(op, "inferred type '%s' is incompatible with result type '%s' (C2)", ts(v, t),
                ts(v, op->results[0]->type));
  return true;
}

/* clamp (C1-C4). */
static bool v_clamp(V *v, const Op *op) {
  if (!all_tensors(v, op)) return false;
  const Type *lo = op->opnds[0]->type, *x = op->opnds[1]->type, *hi = op->opnds[2]->type;
  if (lo->rank != 0 && !shape_ok(lo, x))
    return fail(op, "min shape '%s' is neither scalar nor the operand shape '%s' (C1)",
                ts(v, lo), ts(v, x));
  if (hi->rank != 0 && !shape_ok(hi, x))
    return fail(op, "max shape '%s' is neither scalar nor the operand shape '%s' (C2)",
                ts(v, hi), ts(v, x));
  if (!elem_baseline(lo, x) || !elem_baseline(hi, x))
    return fail(op, "min, operand and max must have the same element type (C3)");
  if (!baseline_ok(x, op->results[0]->type))
    return fail(op, "inferred type '%s' is incompatible with result type '%s' (C4)", ts(v, x),
                ts(v, op->results[0]->type));
  return true;
}

/* ------------------------------------------------------------------------ */
/* Shape ops                                                                 */

/* The operand's element type carries over to the result; per-axis
 * quantization parameters may differ (broadcast_in_dim, reshape, transpose
 * (C1)). */
static bool check_elem_carried(V *v, const Op *op, const char *c) {
  const Type *x = op->opnds[0]->type, *r = op->results[0]->type;
  if (is_per_axis(x) ? elem_baseline(x, r) : elem_same(x, r)) return true;
  return fail(op, "result element type of '%s' differs from operand '%s' (%s)", ts(v, r),
              ts(v, x), c);
}

/* broadcast_in_dim (C1-C5). */
static bool v_broadcast_in_dim(V *v, const Op *op) {
  if (!all_tensors(v, op) || !check_elem_carried(v, op, "C1")) return false;
  const Type *x = op->opnds[0]->type, *r = op->results[0]->type;
  I64List d = op->a.broadcast_dimensions;
  if (d.n != x->rank)
    return fail(op, "broadcast_dimensions size (%d) differs from operand rank (%d) (C2)", d.n, x->rank);
  if (!dims_in_range(op, "broadcast_dimensions", d, r->rank, "C3") ||
      !dims_unique(op, "broadcast_dimensions", d, "C4"))
    return false;
  for (int i = 0; i < d.n; i++) {
    int64_t a = x->dims[i], b = r->dims[d.v[i]];
    if (a != 1 && !dim_ok(a, b))
      return fail(op, "size of operand dimension %d (%lld) is neither 1 nor the size of result "
                  "dimension %lld (%lld) (C5)", i, (long long)a, (long long)d.v[i], (long long)b);
  }
  if (!type_is_static(r))
    return fail(op, "result must have a static shape; use dynamic_broadcast_in_dim");
  return true;
}

/* transpose (C1-C3). */
static bool v_transpose(V *v, const Op *op) {
  if (!all_tensors(v, op) || !check_elem_carried(v, op, "C1")) return false;
  const Type *x = op->opnds[0]->type;
  I64List p = op->a.permutation;
  if (p.n != x->rank)
    return fail(op, "permutation size (%d) differs from operand rank (%d) (C2)", p.n, x->rank);
  if (!dims_in_range(op, "permutation", p, x->rank, "C2") ||
      !dims_unique(op, "permutation", p, "C2"))
    return false;
  int64_t dims[64];
  for (int i = 0; i < p.n && i < 64; i++) dims[i] = x->dims[p.v[i]];
  return check_result_shape(v, op, 0, x->rank, dims, "C3");
}

/* reshape (C1-C2). */
static bool v_reshape(V *v, const Op *op) {
  if (!all_tensors(v, op) || !check_elem_carried(v, op, "C1")) return false;
  const Type *x = op->opnds[0]->type, *r = op->results[0]->type;
  int64_t nx = type_num_elems(x), nr = type_num_elems(r);
  if (nx >= 0 && nr >= 0 && nx != nr)
    return fail(op, "result has %lld elements, operand %lld (C2)", (long long)nr, (long long)nx);
  return true;
}

/* concatenate (C1-C6). */
static bool v_concatenate(V *v, const Op *op) {
  if (!all_tensors(v, op)) return false;
  if (op->nopnds == 0) return fail(op, "expects at least one input (C3)");
  const Type *t0 = op->opnds[0]->type;
  int64_t d = op->a.dimension;
  if (t0->rank == 0) return fail(op, "rank-0 inputs cannot be concatenated (C4)");
  if (d < 0 || d >= t0->rank)
    return fail(op, "dimension %lld is out of range [0, %d) (C4)", (long long)d, t0->rank);
  int64_t dims[64], sum = 0;
  for (int i = 0; i < op->nopnds; i++) {
    const Type *t = op->opnds[i]->type;
    if (!elem_same(t, t0)) return fail(op, "inputs #0 and #%d differ in element type (C1)", i);
    if (t->rank != t0->rank) return fail(op, "inputs #0 and #%d differ in rank (C2)", i);
    for (int k = 0; k < t->rank; k++)
      if (k != d && !dim_ok(t->dims[k], t0->dims[k]))
        return fail(op, "inputs #0 and #%d differ in size at dimension %d: '%s' vs '%s' (C2)", i,
                    k, ts(v, t0), ts(v, t));
    sum = is_dyn(sum) || is_dyn(t->dims[d]) ? DIM_DYNAMIC : sum + t->dims[d];
  }
  for (int k = 0; k < t0->rank && k < 64; k++) dims[k] = t0->dims[k];
  dims[d] = sum;
  return check_result(v, op, 0, shaped_like(v, t0, t0->rank, dims), "C5-C6");
}

/* constant (C1): the literal's type is the result type; for quantized
 * results the literal holds storage values. */
static bool v_constant(V *v, const Op *op) {
  const DenseData *d = op->a.value;
  const Type *r = op->results[0]->type;
  if (!d) return fail(op, "requires attribute 'value'");
  if (!type_is_static(d->type)) return fail(op, "value type '%s' must be static", ts(v, d->type));
  if (!is_tensor(r) || !type_is_static(r))
    return fail(op, "result must be a statically shaped tensor, got '%s'", ts(v, r));
  bool ok = type_same_dims(d->type, r) &&
            (r->elem == ET_QUANT ? d->type->elem == r->quant->storage : d->type->elem == r->elem);
  if (ok) return true;
  return fail(op, "value type '%s' is incompatible with result type '%s' (C1)", ts(v, d->type),
              ts(v, r));
}

/* iota (C1). */
static bool v_iota(V *v, const Op *op) {
  if (!all_tensors(v, op)) return false;
  int rank = op->results[0]->type->rank;
  if (op->a.iota_dimension < 0 || op->a.iota_dimension >= rank)
    return fail(op, "iota_dimension %lld is out of range [0, %d) (C1)", (long long)op->a.iota_dimension, rank);
  return true;
}

/* slice (C1-C5). */
static bool v_slice(V *v, const Op *op) {
  if (!all_tensors(v, op)) return false;
  const Type *x = op->opnds[0]->type;
  I64List s = op->a.start_indices, l = op->a.limit_indices, st = op->a.strides;
  if (!elem_same(x, op->results[0]->type))
    return fail(op, "result element type differs from operand (C1)");
  if (s.n != x->rank || l.n != x->rank || st.n != x->rank)
    return fail(op, "start_indices, limit_indices and strides must have operand rank %d "
                "elements, have %d, %d, %d (C2)", x->rank, s.n, l.n, st.n);
  int64_t dims[64];
  for (int i = 0; i < x->rank && i < 64; i++) {
    if (s.v[i] < 0) return fail(op, "negative start index %lld in dimension %d (C3)", (long long)s.v[i], i);
    if (s.v[i] > l.v[i])
      return fail(op, "start index %lld is larger than limit index %lld in dimension %d (C3)",
                  (long long)s.v[i], (long long)l.v[i], i);
    if (!is_dyn(x->dims[i]) && l.v[i] > x->dims[i])
      return fail(op, "limit index %lld is larger than dimension size %lld in dimension %d (C3)",
                  (long long)l.v[i], (long long)x->dims[i], i);
    if (st.v[i] <= 0) return fail(op, "stride must be positive, got %lld in dimension %d (C4)",
                                  (long long)st.v[i], i);
    dims[i] = is_dyn(x->dims[i]) ? DIM_DYNAMIC : (l.v[i] - s.v[i] + st.v[i] - 1) / st.v[i];
  }
  return check_result(v, op, 0, shaped_like(v, x, x->rank, dims), "C5");
}

/* Start indices of dynamic_slice/dynamic_update_slice: 0-d integer tensors
 * of one type. */
static bool check_start_indices(V *v, const Op *op, int first, const char *c) {
  for (int i = first; i < op->nopnds; i++) {
    const Type *t = op->opnds[i]->type;
    if (t->rank != 0 || !elem_is_int(t->elem))
      return fail(op, "start index #%d must be a 0-d integer tensor, got '%s'", i - first, ts(v, t));
    if (t != op->opnds[first]->type)
      return fail(op, "start indices must have the same type (%s)", c);
  }
  return true;
}

/* dynamic_slice (C1-C5). */
static bool v_dynamic_slice(V *v, const Op *op) {
  if (op->nopnds < 1 || !all_tensors(v, op)) return false;
  const Type *x = op->opnds[0]->type;
  I64List sz = op->a.slice_sizes;
  int nidx = op->nopnds - 1;
  if (!elem_same(x, op->results[0]->type))
    return fail(op, "result element type differs from operand (C1)");
  if (nidx != x->rank)
    return fail(op, "number of start indices (%d) differs from operand rank (%d) (C2)", nidx, x->rank);
  if (sz.n != x->rank)
    return fail(op, "number of slice sizes (%d) differs from operand rank (%d) (C2)", sz.n, x->rank);
  if (!check_start_indices(v, op, 1, "C3")) return false;
  for (int i = 0; i < sz.n; i++) {
    if (sz.v[i] < 0) return fail(op, "negative slice size %lld (C4)", (long long)sz.v[i]);
    if (!is_dyn(x->dims[i]) && sz.v[i] > x->dims[i])
      return fail(op, "slice size %lld is larger than dimension size %lld in dimension %d (C4)",
                  (long long)sz.v[i], (long long)x->dims[i], i);
  }
  return check_result(v, op, 0, shaped_like(v, x, sz.n, sz.v), "C5");
}

/* dynamic_update_slice (C1-C6). */
static bool v_dynamic_update_slice(V *v, const Op *op) {
  if (op->nopnds < 2 || !all_tensors(v, op)) return false;
  const Type *x = op->opnds[0]->type, *u = op->opnds[1]->type;
  if (!check_result(v, op, 0, x, "C1")) return false;
  if (!elem_same(u, x)) return fail(op, "update element type differs from operand (C2)");
  if (u->rank != x->rank)
    return fail(op, "update rank (%d) differs from operand rank (%d) (C3)", u->rank, x->rank);
  if (op->nopnds - 2 != x->rank)
    return fail(op, "number of start indices (%d) differs from operand rank (%d) (C4)",
                op->nopnds - 2, x->rank);
  if (!check_start_indices(v, op, 2, "C5")) return false;
  for (int i = 0; i < x->rank; i++)
    if (!is_dyn(u->dims[i]) && !is_dyn(x->dims[i]) && u->dims[i] > x->dims[i])
      return fail(op, "update size %lld exceeds operand size %lld in dimension %d (C6)",
                  (long long)u->dims[i], (long long)x->dims[i], i);
  return true;
}

/* Sizes computed from attributes in 128 bits, clamped to int64: absurd
 * attributes then give a size mismatch instead of an overflow. */
static int64_t sat64(__int128 v) {
  return v > INT64_MAX ? INT64_MAX : v < INT64_MIN ? INT64_MIN : (int64_t)v;
}

/* pad (C1-C4). */
static bool v_pad(V *v, const Op *op) {
  if (!all_tensors(v, op)) return false;
  const Type *x = op->opnds[0]->type, *pv = op->opnds[1]->type;
  I64List lo = op->a.edge_padding_low, hi = op->a.edge_padding_high, in = op->a.interior_padding;
  if (pv->rank != 0) return fail(op, "padding_value must be a 0-d tensor, got '%s'", ts(v, pv));
  if (!elem_same(x, pv) || !elem_same(x, op->results[0]->type))
    return fail(op, "operand, padding_value and result must have the same element type (C1)");
  if (lo.n != x->rank || hi.n != x->rank || in.n != x->rank)
    return fail(op, "edge_padding_low, edge_padding_high and interior_padding must have operand "
                "rank %d elements, have %d, %d, %d (C2)", x->rank, lo.n, hi.n, in.n);
  int64_t dims[64];
  for (int i = 0; i < x->rank && i < 64; i++) {
    if (in.v[i] < 0) return fail(op, "interior padding must be non-negative, got %lld (C3)", (long long)in.v[i]);
    int64_t d = x->dims[i];
    if (is_dyn(d)) {
      dims[i] = DIM_DYNAMIC;
      continue;
    }
    dims[i] = sat64((__int128)lo.v[i] + d + (__int128)(d > 0 ? d - 1 : 0) * in.v[i] + hi.v[i]);
    if (dims[i] < 0) return fail(op, "padding gives a negative size in dimension %d (C4)", i);
  }
  return check_result(v, op, 0, shaped_like(v, x, x->rank, dims), "C4");
}

/* reverse (C1-C3). */
static bool v_reverse(V *v, const Op *op) {
  if (!all_tensors(v, op)) return false;
  const Type *x = op->opnds[0]->type;
  return check_result(v, op, 0, x, "C1") && dims_unique(op, "dimensions", op->a.dimensions, "C2") &&
         dims_in_range(op, "dimensions", op->a.dimensions, x->rank, "C3");
}

/* get_tuple_element (C1-C2). */
static bool v_get_tuple_element(V *v, const Op *op) {
  const Type *t = op->opnds[0]->type;
  if (t->kind != TY_TUPLE) return fail(op, "operand must be a tuple, got '%s'", ts(v, t));
  if (op->a.index < 0 || op->a.index >= t->nelems)
    return fail(op, "index %lld is out of range [0, %d) (C1)", (long long)op->a.index, t->nelems);
  return check_result(v, op, 0, t->elems[op->a.index], "C2");
}

/* tuple (C1). */
static bool v_tuple(V *v, const Op *op) {
  Type **elems = ARENA_ARRAY(&v->m->arena, Type *, op->nopnds);
  for (int i = 0; i < op->nopnds; i++) elems[i] = op->opnds[i]->type;
  return check_result(v, op, 0, type_tuple(v->m->types, op->nopnds, elems), "C1");
}

/* optimization_barrier (C1). */
static bool v_optimization_barrier(V *v, const Op *op) {
  for (int i = 0; i < op->nopnds; i++)
    if (!check_result(v, op, i, op->opnds[i]->type, "C1")) return false;
  return true;
}

/* bitcast_convert (C1-C2): the innermost dimension of the type with the
 * smaller element absorbs the ratio of bit widths. */
static bool v_bitcast_convert(V *v, const Op *op) {
  if (!all_tensors(v, op)) return false;
  const Type *x = op->opnds[0]->type, *r = op->results[0]->type;
  ElemType ex = storage_elem(x), er = storage_elem(r);
  if (elem_is_complex(ex) != elem_is_complex(er))
    return fail(op, "cannot convert between real and complex types (C2)");
  int bx = elem_bits(ex), br = elem_bits(er);
  const Type *big = bx >= br ? x : r, *small = bx >= br ? r : x;
  int bbig = bx >= br ? bx : br, bsmall = bx >= br ? br : bx;
  int extra = bx == br ? 0 : 1;
  if (small->rank != big->rank + extra)
    return fail(op, "rank of '%s' must be %d, the rank of '%s' plus %d (C1)", ts(v, small),
                big->rank + extra, ts(v, big), extra);
  for (int i = 0; i < big->rank; i++)
    if (!dim_ok(big->dims[i], small->dims[i]))
      return fail(op, "operand '%s' and result '%s' shapes must match except for the innermost "
                  "dimension of the smaller element type (C1)", ts(v, x), ts(v, r));
  int64_t last = extra ? small->dims[small->rank - 1] : 1;
  if (extra && !is_dyn(last) && last * bsmall != bbig)
    return fail(op, "incompatible bit widths: '%s' and '%s', %d * %lld != %d (C1)", ts(v, x),
                ts(v, r), bsmall, (long long)last, bbig);
  int64_t dims[MAX_RANK];
  for (int i = 0; i < r->rank && i < MAX_RANK; i++)
    dims[i] = i < x->rank ? x->dims[i] : bbig / bsmall;
  const Type *want = shaped_like(v, r, r->rank, dims);
  if (want) refine_result(v, op, 0, want);
  return true;
}

/* ------------------------------------------------------------------------ */
/* Contractions: dot, dot_general, convolution                               */

/* precision_config: at most two of DEFAULT, HIGH, HIGHEST (dot_general
 * (C11), convolution (C24)); upstream accepts fewer than two. */
static bool check_precision_config(const Op *op, const char *c) {
  const Attr *pc = ir_attr(op, "precision_config");
  if (!pc) return true;
  if (pc->kind != AT_ARRAY) return fail(op, "precision_config must be an array (%s)", c);
  if (pc->n > 2) return fail(op, "precision_config must have at most 2 elements, has %d (%s)", pc->n, c);
  for (int i = 0; i < pc->n; i++) {
    const Attr *e = pc->items[i];
    if (e->kind != AT_ENUM ||
        (strcmp(e->str, "DEFAULT") && strcmp(e->str, "HIGH") && strcmp(e->str, "HIGHEST")))
      return fail(op, "precision_config elements must be DEFAULT, HIGH or HIGHEST (%s)", c);
  }
  return true;
}

/* dot (legacy form of dot_general): rank-1 or rank-2 operands contracting
 * lhs's last dimension with rhs's first. */
static bool v_dot(V *v, const Op *op) {
  if (!all_tensors(v, op) || !check_precision_config(op, "C11"))
    return false;
  const Type *l = op->opnds[0]->type, *r = op->opnds[1]->type;
  if (l->rank < 1 || l->rank > 2 || r->rank < 1 || r->rank > 2)
    return fail(op, "expects lhs and rhs of rank 1 or 2, got '%s' and '%s'", ts(v, l), ts(v, r));
  if (!is_quant(l) && !is_quant(r) && l->elem != r->elem)
    return fail(op, "lhs and rhs have different element types (C13)");
  if (!dim_ok(l->dims[l->rank - 1], r->dims[0]))
    return fail(op, "contracting dimension sizes differ: '%s' and '%s' (C10)", ts(v, l), ts(v, r));
  int64_t dims[2];
  int n = 0;
  if (l->rank == 2) dims[n++] = l->dims[0];
  if (r->rank == 2) dims[n++] = r->dims[1];
  return check_result_shape(v, op, 0, n, dims, "C12");
}

/* dot_general (C1-C10). */
static bool check_dot_dims(V *v, const Op *op) {
  const Type *l = op->opnds[0]->type, *r = op->opnds[1]->type;
  const DotDims *d = &op->a.dot;
  if (d->lhs_batch.n != d->rhs_batch.n)
    return fail(op, "lhs and rhs must have the same number of batching dimensions (C1)");
  if (d->lhs_contract.n != d->rhs_contract.n)
    return fail(op, "lhs and rhs must have the same number of contracting dimensions (C2)");
  if (!dims_unique2(op, "lhs_batching_dimensions + lhs_contracting_dimensions", d->lhs_batch,
                    d->lhs_contract, "C3") ||
      !dims_unique2(op, "rhs_batching_dimensions + rhs_contracting_dimensions", d->rhs_batch,
                    d->rhs_contract, "C4") ||
      !dims_in_range(op, "lhs_batching_dimensions", d->lhs_batch, l->rank, "C5") ||
      !dims_in_range(op, "lhs_contracting_dimensions", d->lhs_contract, l->rank, "C6") ||
      !dims_in_range(op, "rhs_batching_dimensions", d->rhs_batch, r->rank, "C7") ||
      !dims_in_range(op, "rhs_contracting_dimensions", d->rhs_contract, r->rank, "C8"))
    return false;
  for (int i = 0; i < d->lhs_batch.n; i++)
    if (!dim_ok(l->dims[d->lhs_batch.v[i]], r->dims[d->rhs_batch.v[i]]))
      return fail(op, "batching dimension sizes differ: '%s' and '%s' (C9)", ts(v, l), ts(v, r));
  for (int i = 0; i < d->lhs_contract.n; i++)
    if (!dim_ok(l->dims[d->lhs_contract.v[i]], r->dims[d->rhs_contract.v[i]]))
      return fail(op, "contracting dimension sizes differ: '%s' and '%s' (C10)", ts(v, l), ts(v, r));
  return true;
}

/* dot_general (C12): batch dims, then lhs's and rhs's free dims in order. */
static bool check_dot_result(V *v, const Op *op) {
  const Type *l = op->opnds[0]->type, *r = op->opnds[1]->type;
  const DotDims *d = &op->a.dot;
  int64_t dims[128];
  int n = 0;
  for (int i = 0; i < d->lhs_batch.n; i++) dims[n++] = l->dims[d->lhs_batch.v[i]];
  for (int i = 0; i < l->rank; i++)
    if (!ir_list_has(&d->lhs_batch, i) && !ir_list_has(&d->lhs_contract, i)) dims[n++] = l->dims[i];
  for (int i = 0; i < r->rank; i++)
    if (!ir_list_has(&d->rhs_batch, i) && !ir_list_has(&d->rhs_contract, i)) dims[n++] = r->dims[i];
  return check_result_shape(v, op, 0, n, dims, "C12");
}

/* The element-type rules dot_general and convolution share, with each op's
 * constraint numbers (the spec states them once per op). */
typedef struct ElemRules {
  const char *same, *pair, *storage, *expressed, *per_tensor, *hybrid;
} ElemRules;

/* Operands that are not quantized must agree (done: 1); a quantized lhs
 * needs a quantized rhs and result, and a quantized op a quantized rhs
 * (go on: 0; failed: -1). */
static int check_elems_head(V *v, const Op *op, const ElemRules *c) {
  const Type *l = op->opnds[0]->type, *r = op->opnds[1]->type, *res = op->results[0]->type;
  if (!is_quant(l) && !is_quant(r)) {
    if (l->elem == r->elem) return 1;
    fail(op, "lhs '%s' and rhs '%s' have different element types (%s)", ts(v, l), ts(v, r),
         c->same);
    return -1;
  }
  if (is_quant(l) && (!is_quant(r) || !is_quant(res)))
    return fail(op, "quantized lhs requires quantized rhs and result (%s)", c->pair), -1;
  if (!is_quant(r))
    return fail(op, "quantized result requires quantized operands (%s)", c->pair), -1;
  return 0;
}

/* A quantized rhs: the hybrid case (float lhs), else storage and expressed
 * types agree and a per-tensor rhs gives a per-tensor result. */
static bool check_elems_tail(const Op *op, const ElemRules *c) {
  const Type *l = op->opnds[0]->type, *res = op->results[0]->type;
  const QuantInfo *qr = op->opnds[1]->type->quant;
  if (!is_quant(l)) {
    if (l->elem == qr->expressed && res->elem == l->elem) return true;
    return fail(op, "lhs, rhs expressed type and result must have the same element type (%s)",
                c->hybrid);
  }
  if (l->quant->storage != qr->storage)
    return fail(op, "lhs and rhs storage types differ (%s)", c->storage);
  if (l->quant->expressed != qr->expressed || res->quant->expressed != qr->expressed)
    return fail(op, "lhs, rhs and result expressed types differ (%s)", c->expressed);
  if (qr->axis < 0 && res->quant->axis >= 0)
    return fail(op, "per-tensor quantized rhs requires a per-tensor quantized result (%s)",
                c->per_tensor);
  return true;
}

/* dot_general (C13-C20): element types, quantized or not. */
static bool check_dot_elems(V *v, const Op *op) {
  static const ElemRules rules = {"C13", "C14", "C17", "C18", "C19", "C20"};
  int head = check_elems_head(v, op, &rules);
  if (head) return head > 0;
  const QuantInfo *qr = op->opnds[1]->type->quant;
  for (int i = 0; i < qr->nscales; i++)
    if (qr->zero_points[i] != 0) return fail(op, "rhs zero points must be 0 (C15)");
  if (qr->axis >= 0 && ir_list_has(&op->a.dot.rhs_contract, qr->axis))
    return fail(op, "rhs quantization dimension must not be a contracting dimension (C16)");
  return check_elems_tail(op, &rules);
}

/* dot_general (C21-C24): `algorithm = #stablehlo.dot_algorithm<...>`. */
static bool check_dot_algorithm(const Op *op) {
  const Attr *alg = ir_attr(op, "algorithm");
  if (!alg) return true;
  const Attr *pc = ir_attr(op, "precision_config");
  for (int i = 0; pc && pc->kind == AT_ARRAY && i < pc->n; i++)
    if (pc->items[i]->kind == AT_ENUM && strcmp(pc->items[i]->str, "DEFAULT"))
      return fail(op, "precision_config must be DEFAULT when an algorithm is set (C21)");
  if (num_attr(field(alg, "lhs_component_count")) <= 0)
    return fail(op, "lhs_component_count must be positive (C22)");
  if (num_attr(field(alg, "rhs_component_count")) <= 0)
    return fail(op, "rhs_component_count must be positive (C23)");
  if (num_attr(field(alg, "num_primitive_operations")) <= 0)
    return fail(op, "num_primitive_operations must be positive (C24)");
  static const char *const types[] = {"lhs_precision_type", "rhs_precision_type",
                                      "accumulation_type"};
  for (int i = 0; i < 3; i++) {
    const Attr *t = field(alg, types[i]);
    if (t && t->kind == AT_TYPE && is_tensor(t->type) && !elem_is_float(t->type->elem))
      return fail(op, "dot algorithm with %s %s is not supported on any hardware", types[i],
                  elem_name(t->type->elem));
  }
  return true;
}

static bool v_dot_general(V *v, const Op *op) {
  if (!all_tensors(v, op)) return false;
  return check_dot_dims(v, op) && check_precision_config(op, "C11") &&
         check_dot_result(v, op) && check_dot_elems(v, op) && check_dot_algorithm(op);
}

/* A window parameter list has one entry per spatial dimension, or none
 * (absent: the spec default). */
static bool window_list(const Op *op, const char *name, I64List l, int n, int64_t min,
                        const char *csize, const char *cval) {
  if (l.n != 0 && l.n != n)
    return fail(op, "%s must have %d elements, has %d (%s)", name, n, l.n, csize);
  for (int i = 0; i < l.n; i++)
    if (l.v[i] < min)
      return fail(op, "%s must be %s, got %lld (%s)", name, min ? "positive" : "non-negative",
                  (long long)l.v[i], cval);
  return true;
}

static int64_t list_at(I64List l, int i, int64_t dflt) { return i < l.n ? l.v[i] : dflt; }

/* num_windows of convolution (C25) and reduce_window (C15). */
static int64_t num_windows(int64_t d, int64_t base_dil, int64_t lo, int64_t hi, int64_t w,
                           int64_t win_dil, int64_t stride) {
  if (is_dyn(d) || is_dyn(w)) return DIM_DYNAMIC;
  __int128 dilated = d == 0 ? 0 : (__int128)(d - 1) * base_dil + 1;
  __int128 padded = (__int128)lo + dilated + hi;
  __int128 window = w == 0 ? 0 : (__int128)(w - 1) * win_dil + 1;
  if (padded <= 0 || window > padded) return 0;
  return sat64((padded - window) / stride + 1);
}

/* convolution (C2-C9): window attributes. */
static bool check_conv_window(const Op *op, int ns) {
  const Window *w = &op->a.window;
  if (w->pad_lo.n != w->pad_hi.n)
    return fail(op, "padding must have shape [%d, 2] (C4)", ns);
  return window_list(op, "window_strides", w->strides, ns, 1, "C2", "C3") &&
         window_list(op, "padding", w->pad_lo, ns, INT64_MIN, "C4", "C4") &&
         window_list(op, "lhs_dilation", w->base_dilations, ns, 1, "C5", "C6") &&
         window_list(op, "rhs_dilation", w->window_dilations, ns, 1, "C7", "C8") &&
         window_list(op, "window_reversal", w->reversal, ns, 0, "C9", "C9");
}

/* `[first] + spatial + [last]` is a permutation of range(n). */
static bool check_layout(const Op *op, const char *what, int64_t first, I64List spatial,
                         int64_t last, int n, const char *csize, const char *c) {
  if (spatial.n != n - 2)
    return fail(op, "%s spatial dimensions must have %d elements, have %d (%s)", what, n - 2,
                spatial.n, csize);
  int64_t all[66];
  all[0] = first;
  for (int i = 0; i < spatial.n; i++) all[i + 1] = spatial.v[i];
  all[n - 1] = last;
  I64List l = {n, all};
  char name[64];
  snprintf(name, sizeof name, "%s dimensions", what);
  return dims_in_range(op, name, l, n, c) && dims_unique(op, name, l, c);
}

/* convolution (C10-C23): dimension numbers and group counts. */
static bool check_conv_dims(V *v, const Op *op, int n) {
  const ConvDims *c = &op->a.conv;
  const Type *l = op->opnds[0]->type, *r = op->opnds[1]->type;
  if (!check_layout(op, "input", c->in_batch, c->in_spatial, c->in_feature, n, "C12", "C13") ||
      !check_layout(op, "kernel", c->k_in_feature, c->k_spatial, c->k_out_feature, n, "C17", "C18") ||
      !check_layout(op, "output", c->out_batch, c->out_spatial, c->out_feature, n, "C19", "C20"))
    return false;
  int64_t fgc = op->a.feature_group_count, bgc = op->a.batch_group_count;
  if (fgc <= 0) return fail(op, "feature_group_count must be positive (C21)");
  if (bgc <= 0) return fail(op, "batch_group_count must be positive (C22)");
  if (fgc != 1 && bgc != 1)
    return fail(op, "one of feature_group_count and batch_group_count must be 1 (C23)");
  int64_t ib = l->dims[c->in_batch], ifd = l->dims[c->in_feature];
  int64_t kin = r->dims[c->k_in_feature], kout = r->dims[c->k_out_feature];
  if (!is_dyn(ib) && ib % bgc)
    return fail(op, "input batch size %lld is not a multiple of batch_group_count (C10)", (long long)ib);
  if (!is_dyn(ifd) && ifd % fgc)
    return fail(op, "input feature size %lld is not a multiple of feature_group_count (C11)", (long long)ifd);
  if (!is_dyn(ifd) && !is_dyn(kin) && kin != ifd / fgc)
    return fail(op, "kernel input feature size %lld must be %lld (C14): '%s', '%s'", (long long)kin,
                (long long)(ifd / fgc), ts(v, l), ts(v, r));
  if (!is_dyn(kout) && kout % bgc)
    return fail(op, "kernel output feature size is not a multiple of batch_group_count (C15)");
  if (!is_dyn(kout) && kout % fgc)
    return fail(op, "kernel output feature size is not a multiple of feature_group_count (C16)");
  return true;
}

/* convolution (C25-C26); the spatial sizes are unknown where the padding
 * is (a dynamic_conv's operand, or symbolic: Window.pad_sym). */
static bool check_conv_result(V *v, const Op *op, int n) {
  const ConvDims *c = &op->a.conv;
  const Window *w = &op->a.window;
  const Type *l = op->opnds[0]->type, *r = op->opnds[1]->type;
  bool pad_known = op->code == OP_CONVOLUTION && !w->pad_sym;
  int64_t dims[66], ib = l->dims[c->in_batch];
  dims[c->out_batch] = is_dyn(ib) ? ib : ib / op->a.batch_group_count;
  dims[c->out_feature] = r->dims[c->k_out_feature];
  for (int i = 0; i < n - 2; i++)
    dims[c->out_spatial.v[i]] =
        !pad_known ? DIM_DYNAMIC
                   : num_windows(l->dims[c->in_spatial.v[i]], list_at(w->base_dilations, i, 1),
                                 list_at(w->pad_lo, i, 0), list_at(w->pad_hi, i, 0),
                                 r->dims[c->k_spatial.v[i]], list_at(w->window_dilations, i, 1),
                                 list_at(w->strides, i, 1));
  return check_result_shape(v, op, 0, n, dims, "C25-C26");
}

/* convolution (C27-C34): element types. Upstream accepts a wider integer
 * result (i4 x i4 -> i8), so only the operands must agree. */
static bool check_conv_elems(V *v, const Op *op) {
  static const ElemRules rules = {"C27", "C28", "C31", "C32", "C33", "C34"};
  int head = check_elems_head(v, op, &rules);
  if (head) return head > 0;
  const QuantInfo *qr = op->opnds[1]->type->quant;
  const Type *res = op->results[0]->type;
  if (qr->axis >= 0 && qr->axis != op->a.conv.k_out_feature)
    return fail(op, "rhs quantization dimension must be kernel_output_feature_dimension (C29)");
  if (is_per_axis(res) && res->quant->axis != op->a.conv.out_feature)
    return fail(op, "result quantization dimension must be output_feature_dimension (C30)");
  return check_elems_tail(op, &rules);
}

static bool v_convolution(V *v, const Op *op) {
  if (!all_tensors(v, op)) return false;
  const Type *l = op->opnds[0]->type, *r = op->opnds[1]->type;
  int n = l->rank;
  if (r->rank != n) return fail(op, "lhs and rhs must have the same rank, got '%s' and '%s' (C1)",
                                ts(v, l), ts(v, r));
  if (n < 2) return fail(op, "operands must have rank at least 2, got '%s'", ts(v, l));
  if (op->results[0]->type->rank != n)
    return fail(op, "result rank must be %d (C26)", n);
  return check_conv_dims(v, op, n) && check_conv_window(op, n - 2) &&
         check_precision_config(op, "C24") && check_conv_result(v, op, n) &&
         check_conv_elems(v, op);
}

/* spec "dynamic_conv" (C1-C34): convolution's constraints with the
 * padding an operand, (I3) a 2-dimensional integer tensor of shape
 * [N - 2, 2] (C4); the result's spatial sizes depend on its values. */
static bool v_dynamic_conv(V *v, const Op *op) {
  if (!all_tensors(v, op)) return false;
  const Type *p = op->opnds[2]->type;
  int n = op->opnds[0]->type->rank;
  if (n < 2) return v_convolution(v, op); /* its rank error first */
  if (p->rank != 2 || !elem_is_int(p->elem))
    return fail(op, "padding must be a 2-dimensional tensor of integer type, got '%s' (I3)",
                ts(v, p));
  if ((!is_dyn(p->dims[0]) && p->dims[0] != n - 2) || (!is_dyn(p->dims[1]) && p->dims[1] != 2))
    return fail(op, "padding must have shape [%d, 2], got '%s' (C4)", n - 2, ts(v, p));
  return v_convolution(v, op);
}

/* ------------------------------------------------------------------------ */
/* gather                                                                    */

/* gather (C1-C3): ranks and the index vector. */
static bool check_gather_ranks(const Op *op, const GatherDims *g, const Type *x,
                               const Type *idx) {
  if (g->offset_dims.n + g->collapsed_slice_dims.n + g->operand_batching_dims.n != x->rank)
    return fail(op, "offset_dims size (%d) plus collapsed_slice_dims size (%d) plus "
                "operand_batching_dims size (%d) differs from operand rank (%d) (C1)",
                g->offset_dims.n, g->collapsed_slice_dims.n, g->operand_batching_dims.n, x->rank);
  int64_t ivd = g->index_vector_dim;
  if (ivd < 0 || ivd > idx->rank)
    return fail(op, "index_vector_dim %lld is out of range [0, %d] (C2)", (long long)ivd, idx->rank);
  int64_t want = ivd < idx->rank ? idx->dims[ivd] : 1;
  if (!is_dyn(want) && g->start_index_map.n != want)
    return fail(op, "start_index_map size (%d) differs from the index vector size (%lld) (C3)",
                g->start_index_map.n, (long long)want);
  return true;
}

/* gather (C4-C19): the dimension lists. */
static bool check_gather_lists(const Op *op, const GatherDims *g, const Type *x,
                               const Type *idx, int rrank) {
  I64List off = g->offset_dims, col = g->collapsed_slice_dims, ob = g->operand_batching_dims;
  I64List ib = g->start_indices_batching_dims, sim = g->start_index_map;
  if (!dims_unique(op, "offset_dims", off, "C4") || !dims_sorted(op, "offset_dims", off, "C4") ||
      !dims_in_range(op, "offset_dims", off, rrank, "C5") ||
      !dims_unique2(op, "collapsed_slice_dims + operand_batching_dims", col, ob, "C6") ||
      !dims_sorted(op, "collapsed_slice_dims", col, "C7") ||
      !dims_in_range(op, "collapsed_slice_dims", col, x->rank, "C8") ||
      !dims_sorted(op, "operand_batching_dims", ob, "C10") ||
      !dims_in_range(op, "operand_batching_dims", ob, x->rank, "C11") ||
      !dims_unique(op, "start_indices_batching_dims", ib, "C13") ||
      !dims_in_range(op, "start_indices_batching_dims", ib, idx->rank, "C14"))
    return false;
  if (ir_list_has(&ib, g->index_vector_dim))
    return fail(op, "start_indices_batching_dims must not include index_vector_dim %lld (C15)",
                (long long)g->index_vector_dim);
  if (ob.n != ib.n)
    return fail(op, "operand_batching_dims and start_indices_batching_dims differ in size (C16)");
  for (int i = 0; i < ob.n; i++)
    if (!dim_ok(x->dims[ob.v[i]], idx->dims[ib.v[i]]))
      return fail(op, "operand_batching_dims[%d] and start_indices_batching_dims[%d] have "
                  "different sizes %lld and %lld (C17)", i, i, (long long)x->dims[ob.v[i]],
                  (long long)idx->dims[ib.v[i]]);
  return dims_unique2(op, "start_index_map + operand_batching_dims", sim, ob, "C18") &&
         dims_in_range(op, "start_index_map", sim, x->rank, "C19");
}

/* gather (C9, C12, C20, C21): slice_sizes. */
static bool check_gather_sizes(const Op *op, const GatherDims *g, const Type *x) {
  I64List s = g->slice_sizes;
  if (s.n != x->rank)
    return fail(op, "slice_sizes size (%d) differs from operand rank (%d) (C20)", s.n, x->rank);
  for (int i = 0; i < s.n; i++)
    if (s.v[i] < 0 || (!is_dyn(x->dims[i]) && s.v[i] > x->dims[i]))
      return fail(op, "slice size %lld is out of range for operand dimension %d of size %lld (C21)",
                  (long long)s.v[i], i, (long long)x->dims[i]);
  for (int i = 0; i < g->collapsed_slice_dims.n; i++)
    if (s.v[g->collapsed_slice_dims.v[i]] > 1)
      return fail(op, "slice_sizes of collapsed_slice_dims must be at most 1, got %lld (C9)",
                  (long long)s.v[g->collapsed_slice_dims.v[i]]);
  for (int i = 0; i < g->operand_batching_dims.n; i++)
    if (s.v[g->operand_batching_dims.v[i]] > 1)
      return fail(op, "slice_sizes of operand_batching_dims must be at most 1, got %lld (C12)",
                  (long long)s.v[g->operand_batching_dims.v[i]]);
  return true;
}

/* gather (C22): batch dims (start_indices without index_vector_dim) fill
 * the result axes not in offset_dims; offset dims come from slice_sizes
 * without the collapsed and batching dims. */
static bool check_gather_result(V *v, const Op *op, const GatherDims *g, const Type *idx,
                                int rrank) {
  int64_t batch[64], offs[64], dims[128];
  int nb = 0, no = 0;
  for (int i = 0; i < idx->rank; i++)
    if (i != g->index_vector_dim) batch[nb++] = idx->dims[i];
  for (int i = 0; i < g->slice_sizes.n; i++)
    if (!ir_list_has(&g->collapsed_slice_dims, i) && !ir_list_has(&g->operand_batching_dims, i))
      offs[no++] = g->slice_sizes.v[i];
  for (int i = 0, bi = 0, oi = 0; i < rrank; i++)
    dims[i] = ir_list_has(&g->offset_dims, i) ? offs[oi++] : batch[bi++];
  return check_result_shape(v, op, 0, rrank, dims, "C22");
}

/* gather and dynamic_gather (C1-C23); `sizes_known` is false when the
 * slice sizes of a dynamic_gather are not constants. */
static bool check_gather(V *v, const Op *op, const GatherDims *g, bool sizes_known) {
  const Type *x = op->opnds[0]->type, *idx = op->opnds[1]->type;
  if (!elem_is_int(idx->elem))
    return fail(op, "start_indices must be a tensor of integer type, got '%s'", ts(v, idx));
  if (!check_gather_ranks(op, g, x, idx)) return false;
  int rrank = g->offset_dims.n + idx->rank - (g->index_vector_dim < idx->rank ? 1 : 0);
  if (!check_gather_lists(op, g, x, idx, rrank) || (sizes_known && !check_gather_sizes(op, g, x)) ||
      !check_gather_result(v, op, g, idx, rrank))
    return false;
  if (!elem_same(x, op->results[0]->type))
    return fail(op, "result element type differs from operand (C23)");
  return true;
}

static bool v_gather(V *v, const Op *op) {
  if (!all_tensors(v, op)) return false;
  return check_gather(v, op, &op->a.gather, true);
}

/* The integer elements of a value defined by stablehlo.constant, into
 * out[cap]; returns their count, or -1 if the value is not a constant. */
static int const_ints(const Value *x, int64_t *out, int cap) {
  if (!x->def || x->def->code != OP_CONSTANT || !x->def->a.value) return -1;
  const DenseData *d = x->def->a.value;
  int64_t n = type_num_elems(d->type);
  if (n < 0 || n > cap || !(elem_is_int(d->type->elem) || d->type->elem == ET_INDEX)) return -1;
  for (int64_t i = 0; i < n; i++) out[i] = dense_get_i64(d, i);
  return (int)n;
}

/* dynamic_gather (C1-C14): gather with slice_sizes as an operand. */
static bool v_dynamic_gather(V *v, const Op *op) {
  if (!all_tensors(v, op)) return false;
  const Type *x = op->opnds[0]->type, *ss = op->opnds[2]->type;
  if (ss->rank != 1 || !elem_is_int(ss->elem))
    return fail(op, "slice_sizes must be a 1-d integer tensor, got '%s'", ts(v, ss));
  if (!dim_ok(ss->dims[0], x->rank))
    return fail(op, "slice_sizes size (%lld) differs from operand rank (%d) (C11)",
                (long long)ss->dims[0], x->rank);
  GatherDims g = op->a.gather;
  int64_t *sizes = ARENA_ARRAY(&v->m->arena, int64_t, x->rank > 0 ? x->rank : 1);
  bool known = const_ints(op->opnds[2], sizes, x->rank) == x->rank;
  for (int i = 0; !known && i < x->rank; i++) sizes[i] = DIM_DYNAMIC;
  g.slice_sizes.n = x->rank;
  g.slice_sizes.v = sizes;
  return check_gather(v, op, &g, known);
}

/* ------------------------------------------------------------------------ */
/* Reductions                                                                */

/* The operands of reduce and reduce_window: N > 0 inputs of one shape,
 * N 0-d init values of their element types, and N results; c_count,
 * c_shape and c_elem name those constraints (reduce: C3, C1, C2;
 * reduce_window: C1, C2, C3). */
static bool check_reduce_operands(V *v, const Op *op, const char *c_count, const char *c_shape,
                                  const char *c_elem) {
  int n = op->nopnds / 2;
  if (!all_tensors(v, op)) return false;
  if (n == 0 || op->nopnds != 2 * n || op->nresults != n)
    return fail(op, "expects N > 0 inputs, N init values and N results, got %d operands and %d "
                "results (%s)", op->nopnds, op->nresults, c_count);
  Value *const *in = op->opnds, *const *init = op->opnds + n;
  for (int i = 0; i < n; i++) {
    if (!shape_ok(in[i]->type, in[0]->type))
      return fail(op, "inputs #0 and #%d differ in shape (%s)", i, c_shape);
    if (init[i]->type->rank != 0) return fail(op, "init value #%d must be a 0-d tensor", i);
    if (!elem_same(in[i]->type, init[i]->type))
      return fail(op, "input #%d and init value #%d differ in element type (%s)", i, i, c_elem);
  }
  return true;
}

/* reduce (C1-C8). */
static bool v_reduce(V *v, const Op *op) {
  if (!check_reduce_operands(v, op, "C3", "C1", "C2")) return false;
  int n = op->nopnds / 2;
  Value *const *in = op->opnds;
  const Type *x = in[0]->type;
  I64List d = op->a.dimensions;
  if (!dims_in_range(op, "dimensions", d, x->rank, "C4") || !dims_unique(op, "dimensions", d, "C5"))
    return false;
  const Type **body = ARENA_ARRAY(&v->m->arena, const Type *, n);
  if (!check_reducer(v, op, 0, in, n, body, "C6")) return false;
  int64_t dims[64];
  int rr = 0;
  for (int k = 0; k < x->rank; k++)
    if (!ir_list_has(&d, k)) dims[rr++] = x->dims[k];
  for (int i = 0; i < n; i++)
    if (!check_result(v, op, i, shaped_like(v, body[i], rr, dims), "C7-C8")) return false;
  return true;
}

/* reduce_window (C4-C12): the window attributes. */
static bool check_rw_window(const Op *op, int rank) {
  const Window *w = &op->a.window;
  if (w->dims.n != rank)
    return fail(op, "window_dimensions must have %d elements, has %d (C4)", rank, w->dims.n);
  if (w->pad_lo.n != w->pad_hi.n) return fail(op, "padding must have shape [%d, 2] (C12)", rank);
  return window_list(op, "window_dimensions", w->dims, rank, 1, "C4", "C5") &&
         window_list(op, "window_strides", w->strides, rank, 1, "C6", "C7") &&
         window_list(op, "base_dilations", w->base_dilations, rank, 1, "C8", "C9") &&
         window_list(op, "window_dilations", w->window_dilations, rank, 1, "C10", "C11") &&
         window_list(op, "padding", w->pad_lo, rank, INT64_MIN, "C12", "C12");
}

/* reduce_window (C1-C16). */
static bool v_reduce_window(V *v, const Op *op) {
  if (!check_reduce_operands(v, op, "C1", "C2", "C3")) return false;
  int n = op->nopnds / 2;
  Value *const *in = op->opnds;
  const Type *x = in[0]->type;
  if (!check_rw_window(op, x->rank)) return false;
  const Type **body = ARENA_ARRAY(&v->m->arena, const Type *, n);
  if (!check_reducer(v, op, 0, in, n, body, "C13")) return false;
  const Window *w = &op->a.window;
  int64_t dims[64];
  for (int k = 0; k < x->rank; k++)
    dims[k] = num_windows(x->dims[k], list_at(w->base_dilations, k, 1), list_at(w->pad_lo, k, 0),
                          list_at(w->pad_hi, k, 0), w->dims.v[k],
                          list_at(w->window_dilations, k, 1), list_at(w->strides, k, 1));
  for (int i = 0; i < n; i++)
    if (!check_result(v, op, i, shaped_like(v, body[i], x->rank, dims), "C14-C16")) return false;
  return true;
}

/* sort (C1-C5). */
static bool v_sort(V *v, const Op *op) {
  if (!all_tensors(v, op)) return false;
  int n = op->nopnds;
  if (n == 0) return fail(op, "expects at least one input (C1)");
  if (op->nresults != n) return fail(op, "expects %d results, has %d (C2)", n, op->nresults);
  const Type *x = op->opnds[0]->type;
  for (int i = 0; i < n; i++) {
    if (!check_result(v, op, i, op->opnds[i]->type, "C2")) return false;
    if (!shape_ok(op->opnds[i]->type, x)) return fail(op, "inputs #0 and #%d differ in shape (C3)", i);
  }
  if (op->a.dimension < -x->rank || op->a.dimension >= x->rank)
    return fail(op, "dimension %lld is out of range [%d, %d) (C4)", (long long)op->a.dimension, -x->rank, x->rank);
  Op *t = region_signature(op, 0, 2 * n, 1, "C5");
  if (!t) return false;
  Block *b = op->regions[0]->blocks[0];
  for (int i = 0; i < 2 * n; i++) {
    const Type *a = b->args[i]->type, *in = op->opnds[i / 2]->type;
    if (!is_tensor(a) || a->rank != 0 || !elem_same(a, in))
      return fail(op, "comparator argument #%d has type '%s', expected a 0-d tensor of the "
                  "element type of '%s' (C5)", i, ts(v, a), ts(v, in));
  }
  const Type *c = t->opnds[0]->type;
  if (!is_tensor(c) || c->rank != 0 || c->elem != ET_I1)
    return fail(op, "comparator must return tensor<i1>, returns '%s' (C5)", ts(v, c));
  return true;
}

/* map (C1-C4). */
static bool v_map(V *v, const Op *op) {
  if (!all_tensors(v, op)) return false;
  int n = op->nopnds;
  if (n == 0) return fail(op, "expects at least one input (C2)");
  const Type *r = op->results[0]->type;
  for (int i = 0; i < n; i++)
    if (!shape_ok(op->opnds[i]->type, r))
      return fail(op, "input #%d shape differs from result shape '%s' (C1)", i, ts(v, r));
  I64List d = op->a.dimensions;
  bool iota = d.n == op->opnds[0]->type->rank;
  for (int i = 0; iota && i < d.n; i++) iota = d.v[i] == i;
  if (!iota) return fail(op, "dimensions must be [0, ..., rank - 1] (C3)");
  Op *t = region_signature(op, 0, n, 1, "C4");
  if (!t) return false;
  Block *b = op->regions[0]->blocks[0];
  for (int i = 0; i < n; i++) {
    const Type *a = b->args[i]->type;
    if (!is_tensor(a) || a->rank != 0 || !elem_same(a, op->opnds[i]->type))
      return fail(op, "computation argument #%d has type '%s' (C4)", i, ts(v, a));
  }
  const Type *ret = t->opnds[0]->type;
  if (!is_tensor(ret) || ret->rank != 0 || !elem_same(ret, r))
    return fail(op, "computation returns '%s', expected the element type of '%s' (C4)",
                ts(v, ret), ts(v, r));
  return true;
}

/* scatter (C7-C22): the dimension lists. */
static bool check_scatter_lists(const Op *op, const Type *x, const Type *idx, const Type *upd) {
  const ScatterDims *s = &op->a.scatter;
  I64List uwd = s->update_window_dims, iwd = s->inserted_window_dims;
  I64List ibd = s->input_batching_dims, sbd = s->scatter_indices_batching_dims;
  I64List sdod = s->scatter_dims_to_operand_dims;
  int64_t ivd = s->index_vector_dim;
  if (uwd.n + iwd.n + ibd.n != x->rank)
    return fail(op, "update_window_dims size (%d) plus inserted_window_dims size (%d) plus "
                "input_batching_dims size (%d) differs from input rank (%d) (C2)",
                uwd.n, iwd.n, ibd.n, x->rank);
  if (ivd < 0 || ivd > idx->rank)
    return fail(op, "index_vector_dim %lld is out of range [0, %d] (C22)", (long long)ivd, idx->rank);
  if (!dims_unique(op, "update_window_dims", uwd, "C7") ||
      !dims_sorted(op, "update_window_dims", uwd, "C7") ||
      !dims_in_range(op, "update_window_dims", uwd, upd->rank, "C8") ||
      !dims_unique2(op, "inserted_window_dims + input_batching_dims", iwd, ibd, "C9") ||
      !dims_sorted(op, "inserted_window_dims", iwd, "C10") ||
      !dims_in_range(op, "inserted_window_dims", iwd, x->rank, "C11") ||
      !dims_sorted(op, "input_batching_dims", ibd, "C12") ||
      !dims_in_range(op, "input_batching_dims", ibd, x->rank, "C13") ||
      !dims_unique(op, "scatter_indices_batching_dims", sbd, "C14") ||
      !dims_in_range(op, "scatter_indices_batching_dims", sbd, idx->rank, "C15"))
    return false;
  if (ir_list_has(&sbd, ivd))
    return fail(op, "scatter_indices_batching_dims must not include index_vector_dim (C16)");
  if (ibd.n != sbd.n)
    return fail(op, "input_batching_dims and scatter_indices_batching_dims differ in size (C17)");
  for (int i = 0; i < ibd.n; i++)
    if (!dim_ok(x->dims[ibd.v[i]], idx->dims[sbd.v[i]]))
      return fail(op, "input_batching_dims[%d] and scatter_indices_batching_dims[%d] have "
                  "different sizes (C18)", i, i);
  int64_t want = ivd < idx->rank ? idx->dims[ivd] : 1;
  if (!is_dyn(want) && sdod.n != want)
    return fail(op, "scatter_dims_to_operand_dims size (%d) differs from the index vector size "
                "(%lld) (C19)", sdod.n, (long long)want);
  return dims_unique2(op, "scatter_dims_to_operand_dims + input_batching_dims", sdod, ibd, "C20") &&
         dims_in_range(op, "scatter_dims_to_operand_dims", sdod, x->rank, "C21");
}

/* scatter (C4): update scatter dims are the indices' dims without
 * index_vector_dim; update window dims are at most the input's dims
 * without the inserted and batching dims. */
static bool check_scatter_updates(V *v, const Op *op, const Type *x, const Type *idx,
                                  const Type *upd) {
  const ScatterDims *s = &op->a.scatter;
  int nscatter = idx->rank - (s->index_vector_dim < idx->rank ? 1 : 0);
  if (upd->rank != s->update_window_dims.n + nscatter)
    return fail(op, "updates rank %d must be %d (C4): '%s'", upd->rank,
                s->update_window_dims.n + nscatter, ts(v, upd));
  int si = 0, wi = 0;
  for (int k = 0; k < upd->rank; k++) {
    if (ir_list_has(&s->update_window_dims, k)) {
      while (ir_list_has(&s->inserted_window_dims, wi) ||
             ir_list_has(&s->input_batching_dims, wi))
        wi++;
      int64_t lim = x->dims[wi++];
      if (!is_dyn(upd->dims[k]) && !is_dyn(lim) && upd->dims[k] > lim)
        return fail(op, "update window dimension %d of size %lld exceeds the input size %lld (C4)",
                    k, (long long)upd->dims[k], (long long)lim);
      continue;
    }
    if (si == s->index_vector_dim) si++;
    if (!dim_ok(upd->dims[k], idx->dims[si]))
      return fail(op, "update scatter dimension %d has size %lld, scatter_indices dimension %d "
                  "has %lld (C4)", k, (long long)upd->dims[k], si, (long long)idx->dims[si]);
    si++;
  }
  return true;
}

/* scatter (C1-C25). */
static bool v_scatter(V *v, const Op *op) {
  int n = (op->nopnds - 1) / 2;
  if (!all_tensors(v, op)) return false;
  if (n == 0 || op->nopnds != 2 * n + 1 || op->nresults != n)
    return fail(op, "expects N > 0 inputs, scatter_indices, N updates and N results (C5)");
  Value *const *in = op->opnds, *const *upd = op->opnds + n + 1;
  const Type *x = in[0]->type, *idx = op->opnds[n]->type, *u = upd[0]->type;
  if (!elem_is_int(idx->elem))
    return fail(op, "scatter_indices must be a tensor of integer type, got '%s'", ts(v, idx));
  for (int i = 0; i < n; i++) {
    if (!shape_ok(in[i]->type, x)) return fail(op, "inputs #0 and #%d differ in shape (C1)", i);
    if (!shape_ok(upd[i]->type, u)) return fail(op, "updates #0 and #%d differ in shape (C3)", i);
    if (!elem_same(in[i]->type, upd[i]->type))
      return fail(op, "input #%d and update #%d differ in element type (C6)", i, i);
  }
  if (!check_scatter_lists(op, x, idx, u) || !check_scatter_updates(v, op, x, idx, u)) return false;
  const Type **body = ARENA_ARRAY(&v->m->arena, const Type *, n);
  if (!check_reducer(v, op, 0, in, n, body, "C23")) return false;
  for (int i = 0; i < n; i++)
    if (!check_result(v, op, i, shaped_like(v, body[i], x->rank, x->dims), "C24-C25")) return false;
  return true;
}

/* select_and_scatter (C1-C12). */
static bool v_select_and_scatter(V *v, const Op *op) {
  if (!all_tensors(v, op)) return false;
  const Type *x = op->opnds[0]->type, *src = op->opnds[1]->type, *init = op->opnds[2]->type;
  const Window *w = &op->a.window;
  if (!elem_same(x, src)) return fail(op, "operand and source differ in element type (C1)");
  if (init->rank != 0 || !elem_same(x, init))
    return fail(op, "init_value must be a 0-d tensor of the operand's element type (C3)");
  if (w->dims.n != 0 && w->dims.n != x->rank)
    return fail(op, "window_dimensions must have %d elements, has %d (C4)", x->rank, w->dims.n);
  if (w->pad_lo.n != w->pad_hi.n) return fail(op, "padding must have shape [%d, 2] (C8)", x->rank);
  if (!window_list(op, "window_dimensions", w->dims, x->rank, 1, "C4", "C5") ||
      !window_list(op, "window_strides", w->strides, x->rank, 1, "C6", "C7") ||
      !window_list(op, "padding", w->pad_lo, x->rank, INT64_MIN, "C8", "C8"))
    return false;
  int64_t dims[64];
  for (int k = 0; k < x->rank; k++)
    dims[k] = num_windows(x->dims[k], 1, list_at(w->pad_lo, k, 0), list_at(w->pad_hi, k, 0),
                          list_at(w->dims, k, 1), 1, list_at(w->strides, k, 1));
  const Type *want = shaped_like(v, src, x->rank, dims);
  if (!want) return fail(op, "the number of windows is out of range (C2)");
  if (!shape_ok(want, src))
    return fail(op, "source shape '%s' differs from the number of windows '%s' (C2)", ts(v, src),
                ts(v, want));
  Op *t = region_signature(op, 0, 2, 1, "C9");
  if (!t) return false;
  Block *b = op->regions[0]->blocks[0];
  for (int i = 0; i < 2; i++)
    if (b->args[i]->type->rank != 0 || !elem_same(b->args[i]->type, x))
      return fail(op, "select argument #%d has type '%s' (C9)", i, ts(v, b->args[i]->type));
  const Type *c = t->opnds[0]->type;
  if (!is_tensor(c) || c->rank != 0 || c->elem != ET_I1)
    return fail(op, "select must return tensor<i1>, returns '%s' (C9)", ts(v, c));
  const Type *body[1];
  if (!check_reducer(v, op, 1, op->opnds, 1, body, "C10")) return false;
  return check_result(v, op, 0, shaped_like(v, body[0], x->rank, x->dims), "C11-C12");
}

/* ------------------------------------------------------------------------ */
/* Control flow                                                              */

/* Values returned by `t` have the types of `want` (n of them). */
static bool check_returned(V *v, const Op *op, const Op *t, Value *const *want, int n,
                           const char *what, const char *c) {
  if (t->nopnds != n)
    return fail(op, "%s returns %d values, expected %d (%s)", what, t->nopnds, n, c);
  for (int i = 0; i < n; i++)
    if (!type_ok(t->opnds[i]->type, want[i]->type))
      return fail(op, "%s returns '%s' at #%d, expected '%s' (%s)", what, ts(v, t->opnds[i]->type),
                  i, ts(v, want[i]->type), c);
  return true;
}

/* while (C1-C3). */
static bool v_while(V *v, const Op *op) {
  if (op->nregions != 2) return fail(op, "expects cond and body regions");
  Op *ct = region_signature(op, 0, op->nopnds, 1, "C1");
  Op *bt = ct ? region_signature(op, 1, op->nopnds, op->nopnds, "C2") : NULL;
  if (!bt) return false;
  Block *cb = op->regions[0]->blocks[0], *bb = op->regions[1]->blocks[0];
  for (int i = 0; i < op->nopnds; i++) {
    const Type *t = op->opnds[i]->type;
    if (!type_ok(cb->args[i]->type, t))
      return fail(op, "cond argument #%d has type '%s', expected '%s' (C1)", i,
                  ts(v, cb->args[i]->type), ts(v, t));
    if (!type_ok(bb->args[i]->type, t))
      return fail(op, "body argument #%d has type '%s', expected '%s' (C2)", i,
                  ts(v, bb->args[i]->type), ts(v, t));
  }
  const Type *c = ct->opnds[0]->type;
  if (!is_tensor(c) || c->rank != 0 || c->elem != ET_I1)
    return fail(op, "cond must return tensor<i1>, returns '%s' (C1)", ts(v, c));
  if (!check_returned(v, op, bt, op->opnds, op->nopnds, "body", "C2")) return false;
  for (int i = 0; i < op->nresults; i++)
    if (!check_result(v, op, i, op->opnds[i]->type, "C3")) return false;
  return true;
}

/* Branches of if/case: no arguments, the same output types, which are the
 * result types. */
static bool check_branches(V *v, const Op *op, const char *cargs, const char *csame,
                           const char *cres) {
  Op *first = NULL;
  for (int r = 0; r < op->nregions; r++) {
    Op *t = region_return(op, r);
    if (!t) return false;
    if (op->regions[r]->blocks[0]->nargs)
      return fail(op, "branch %d must have no arguments, has %d (%s)", r,
                  op->regions[r]->blocks[0]->nargs, cargs);
    if (!first) first = t;
    else if (!check_returned(v, op, t, first->opnds, first->nopnds, "branch", csame))
      return false;
  }
  if (first->nopnds != op->nresults)
    return fail(op, "branches return %d values, op has %d results (%s)", first->nopnds,
                op->nresults, cres);
  for (int i = 0; i < op->nresults; i++)
    if (!check_result(v, op, i, first->opnds[i]->type, cres)) return false;
  return true;
}

static bool check_scalar_operand(V *v, const Op *op, ElemType e, const char *what) {
  const Type *t = op->opnds[0]->type;
  if (is_tensor(t) && t->rank == 0 && t->elem == e) return true;
  return fail(op, "%s must be tensor<%s>, got '%s'", what, elem_name(e), ts(v, t));
}

/* if (C1-C3). */
static bool v_if(V *v, const Op *op) {
  if (!check_scalar_operand(v, op, ET_I1, "pred")) return false;
  if (op->nregions != 2) return fail(op, "expects true and false branch regions");
  return check_branches(v, op, "C1", "C2", "C3");
}

/* case (C1-C4). */
static bool v_case(V *v, const Op *op) {
  if (!check_scalar_operand(v, op, ET_SI32, "index")) return false;
  if (op->nregions < 1) return fail(op, "expects at least one branch (C1)");
  return check_branches(v, op, "C2", "C3", "C4");
}

/* func.call: arguments and results match the callee's signature. */
/* The operands and results of op against function f's signature; `c_in`
 * and `c_out` name the constraints (empty for func.call). */
static bool check_signature(V *v, const Op *op, const char *fname, const char *what,
                            const char *c_in, const char *c_out) {
  Func *f = ir_module_find_func(v->m, fname);
  if (!f) return fail(op, "%s @%s is not a function of the module%s", what, fname, c_in);
  int nargs = f->body ? f->body->nargs : 0;
  if (op->nopnds != nargs)
    return fail(op, "passes %d arguments to @%s, which takes %d%s", op->nopnds, fname, nargs,
                c_in);
  for (int i = 0; i < nargs; i++)
    if (!type_eq(op->opnds[i]->type, f->body->args[i]->type))
      return fail(op, "argument #%d has type '%s', @%s takes '%s'%s", i,
                  ts(v, op->opnds[i]->type), fname, ts(v, f->body->args[i]->type), c_in);
  if (op->nresults != f->nresults)
    return fail(op, "has %d results, @%s returns %d%s", op->nresults, fname, f->nresults, c_out);
  for (int i = 0; i < f->nresults; i++)
    if (!type_eq(op->results[i]->type, f->result_types[i]))
      return fail(op, "result #%d has type '%s', @%s returns '%s'%s", i,
                  ts(v, op->results[i]->type), fname, ts(v, f->result_types[i]), c_out);
  return true;
}

static bool v_call(V *v, const Op *op) {
  const char *name = op->a.callee ? op->a.callee : "";
  if (name[0] == '@') name++;
  return check_signature(v, op, name, "callee", "", "");
}

/* A return at function level: its operands are the function's results. */
static bool v_func_return(V *v, const Op *op) {
  Func *f = v->fn;
  if (op->nopnds != f->nresults)
    return fail(op, "returns %d values, @%s has %d results", op->nopnds, f->name, f->nresults);
  for (int i = 0; i < f->nresults; i++)
    if (!type_eq(op->opnds[i]->type, f->result_types[i]))
      return fail(op, "returns '%s' at #%d, @%s returns '%s'", ts(v, op->opnds[i]->type), i,
                  f->name, ts(v, f->result_types[i]));
  return true;
}

/* ------------------------------------------------------------------------ */
/* custom_call and the check ops                                             */

/* One layout of operand_layouts/result_layouts: a permutation of
 * [0, rank) for a tensor, empty for a token. */
static bool check_layout_of(V *v, const Op *op, const Type *t, const Attr *l, const char *what,
                            int i) {
  const DenseData *d = l->kind == AT_DENSE ? l->dense : NULL;
  if (!d) return fail(op, "%s layout #%d must be a dense tensor of index", what, i);
  int64_t n = type_num_elems(d->type);
  if (t->kind == TY_TUPLE)
    return fail(op, "tuple types are not supported with layout constraints (%s #%d)", what, i);
  if (t->kind == TY_TOKEN) {
    if (n == 0) return true;
    return fail(op, "only tensor types can have a non-empty layout: %s #%d is a token", what, i);
  }
  bool ok = n == t->rank;
  for (int64_t k = 0; ok && k < n; k++) {
    int64_t x = dense_get_i64(d, k);
    ok = x >= 0 && x < n;
    for (int64_t j = 0; ok && j < k; j++) ok = dense_get_i64(d, j) != x;
  }
  if (ok) return true;
  return fail(op, "layout of %s #%d must be a permutation of [0, %d) for type '%s'", what, i,
              t->rank, ts(v, t));
}

/* The types a custom_call produces: its results, or the elements of a
 * single tuple result. */
static int custom_call_outputs(const Op *op, Type **out, int cap) {
  if (op->nresults == 1 && op->results[0]->type->kind == TY_TUPLE) {
    const Type *t = op->results[0]->type;
    for (int i = 0; i < t->nelems && i < cap; i++) out[i] = t->elems[i];
    return t->nelems;
  }
  for (int i = 0; i < op->nresults && i < cap; i++) out[i] = op->results[i]->type;
  return op->nresults;
}

static bool check_custom_call_layouts(V *v, const Op *op) {
  const Attr *ol = ir_attr(op, "operand_layouts"), *rl = ir_attr(op, "result_layouts");
  if (!ol && !rl) return true;
  if (!ol || !rl || ol->kind != AT_ARRAY || rl->kind != AT_ARRAY)
    return fail(op, "operand_layouts and result_layouts must be given together");
  if (ol->n != op->nopnds)
    return fail(op, "has %d operands but %d operand layouts", op->nopnds, ol->n);
  Type *outs[256];
  int nout = custom_call_outputs(op, outs, 256);
  if (rl->n != nout) return fail(op, "has %d results but %d result layouts", nout, rl->n);
  for (int i = 0; i < ol->n; i++)
    if (!check_layout_of(v, op, op->opnds[i]->type, ol->items[i], "operand", i)) return false;
  for (int i = 0; i < rl->n && i < 256; i++)
    if (!check_layout_of(v, op, outs[i], rl->items[i], "result", i)) return false;
  return true;
}

/* Follows tuple indices (an AT_ARRAY of AT_INT) into `t`; NULL if out of
 * bounds. */
static const Type *follow_tuple(const Type *t, const Attr *idx) {
  for (int i = 0; idx && idx->kind == AT_ARRAY && i < idx->n; i++) {
    int64_t k = idx->items[i]->ival;
    if (t->kind != TY_TUPLE || k < 0 || k >= t->nelems) return NULL;
    t = t->elems[k];
  }
  return t;
}

static bool check_output_operand_alias(V *v, const Op *op, const Attr *a) {
  int64_t oi = (int64_t)num_attr(field(a, "operand_index"));
  if (oi < 0 || oi >= op->nopnds)
    return fail(op, "output_operand_alias operand_index %lld is out of range [0, %d)",
                (long long)oi, op->nopnds);
  const Attr *outi = field(a, "output_tuple_indices");
  const Type *out;
  if (op->nresults == 1) {
    out = follow_tuple(op->results[0]->type, outi);
  } else {
    int64_t k = outi && outi->kind == AT_ARRAY && outi->n ? outi->items[0]->ival : -1;
    out = k >= 0 && k < op->nresults ? op->results[k]->type : NULL;
    if (out && outi->n > 1) {
      Attr rest = *outi;
      rest.n--, rest.items++;
      out = follow_tuple(out, &rest);
    }
  }
  if (!out) return fail(op, "output_tuple_indices of output_operand_alias are out of bounds");
  const Type *in = follow_tuple(op->opnds[oi]->type, field(a, "operand_tuple_indices"));
  if (!in) return fail(op, "operand_tuple_indices of output_operand_alias are out of bounds");
  if (!type_ok(in, out))
    return fail(op, "output_operand_alias aliases operand part '%s' with output part '%s'",
                ts(v, in), ts(v, out));
  return true;
}

/* backend_config is a dictionary for api_version 4 (typed FFI) and a
 * string otherwise. */
static bool check_backend_config(const Op *op) {
  const Attr *bc = ir_attr(op, "backend_config"), *av = ir_attr(op, "api_version");
  if (!bc) return true;
  bool ffi = av && av->kind == AT_INT && av->ival == 4;
  if (ffi && bc->kind != AT_DICT)
    return fail(op, "backend_config must be a dictionary for api_version 4 (typed FFI)");
  if (!ffi && bc->kind != AT_STRING)
    return fail(op, "backend_config must be a string for api_version other than 4");
  return true;
}

/* Checks of the conformance protocol spelled as custom calls. */
static bool v_check_call(V *v, const Op *op, const char *target) {
  if (!strcmp(target, "check.eq")) {
    if (!arity(op, 2, 1)) return false;
    const Type *r = op->results[0]->type;
    if (!is_tensor(r) || r->rank != 0 || r->elem != ET_I1)
      return fail(op, "@check.eq must return tensor<i1>, returns '%s'", ts(v, r));
  } else if (!arity(op, 2, 0)) {
    return false;
  }
  const Type *a = op->opnds[0]->type, *b = op->opnds[1]->type;
  if (is_tensor(a) && is_tensor(b) && shape_ok(a, b)) return true;
  return fail(op, "@%s compares '%s' with '%s' of a different shape", target, ts(v, a), ts(v, b));
}

static bool v_custom_call(V *v, const Op *op) {
  const char *t = op->a.call_target_name ? op->a.call_target_name : "";
  if (!strncmp(t, "check.", 6)) return v_check_call(v, op, t);
  if (!check_custom_call_layouts(v, op) || !check_backend_config(op)) return false;
  const Attr *al = ir_attr(op, "output_operand_aliases");
  for (int i = 0; al && al->kind == AT_ARRAY && i < al->n; i++)
    if (!check_output_operand_alias(v, op, al->items[i])) return false;
  return true;
}

/* check.expect_*: the actual value against an expected value or literal of
 * the same shape. */
static bool v_check(V *v, const Op *op) {
  bool is_const = op->code == OP_CHECK_EXPECT_EQ_CONST || op->code == OP_CHECK_EXPECT_ALMOST_EQ_CONST;
  if (op->code == OP_CHECK_EQ) return v_check_call(v, op, "check.eq");
  if (op->code == OP_CHECK_EXPECT_SERIALIZED_EQ) return true;
  const Type *a = op->opnds[0]->type;
  const Type *b = is_const ? (op->a.value ? op->a.value->type : NULL) : op->opnds[1]->type;
  if (!b) return fail(op, "requires an expected value");
  if (!is_tensor(a) || !is_tensor(b) || !shape_ok(a, b) ||
      (storage_elem(a) != storage_elem(b) && op->code != OP_CHECK_EXPECT_CLOSE))
    return fail(op, "compares '%s' with '%s'", ts(v, a), ts(v, b));
  return true;
}

/* ------------------------------------------------------------------------ */
/* Collectives                                                               */

/* `replica_groups`: a 2-d integer tensor whose ids, -1 padding aside, are
 * unique and cover [0, count) (spec: is_unique(replica_groups), 0 <=
 * replica_groups < size(replica_groups), with size the number of ids).
 * Padding is allowed where groups may differ in size (all_reduce,
 * collective_broadcast). collective_broadcast bounds ids by num_replicas or
 * num_partitions instead, known only with the process grid: with
 * `dense_ids` false only uniqueness and sign are checked here. Returns the
 * group size, or -1 after an error. */
static int64_t check_replica_groups(V *v, const Op *op, bool padding_ok, bool dense_ids,
                                    const char *cu, const char *cr) {
  const Attr *a = ir_attr(op, "replica_groups");
  if (!a) return 0;
  const DenseData *d = a->kind == AT_DENSE ? a->dense : NULL;
  if (!d || d->type->rank != 2 || !elem_is_int(d->type->elem))
    return fail(op, "replica_groups must be a rank-2 integer tensor"), -1;
  int64_t n = type_num_elems(d->type), max = -1;
  bool *seen = ARENA_ARRAY(&v->m->arena, bool, n > 0 ? n : 1);
  for (int64_t i = 0; i < n; i++) {
    int64_t id = dense_get_i64(d, i);
    if (id == -1 && padding_ok) continue;
    if (id < 0 || (dense_ids && id >= n))
      return fail(op, "invalid replica id %lld (%s)", (long long)id, cr), -1;
    if (!dense_ids) {
      for (int64_t j = 0; j < i; j++)
        if (dense_get_i64(d, j) == id)
          return fail(op, "replica id #%lld seen more than once (%s)", (long long)id, cu), -1;
      continue;
    }
    if (seen[id]) return fail(op, "replica id #%lld seen more than once (%s)", (long long)id, cu), -1;
    seen[id] = true;
    if (id > max) max = id;
  }
  for (int64_t id = 0; dense_ids && id <= max; id++)
    if (!seen[id]) return fail(op, "replica id #%lld not seen in replica groups (%s)", (long long)id, cr), -1;
  return d->type->dims[1];
}

/* With use_global_device_ids, the channel_handle's handle must be > 0. */
static bool check_channel(const Op *op, const char *c) {
  const Attr *g = ir_attr(op, "use_global_device_ids");
  if (!g || (g->kind == AT_BOOL && !g->bval)) return true;
  int64_t id = (int64_t)num_attr(field(ir_attr(op, "channel_handle"), "handle"));
  if (id > 0) return true;
  return fail(op, "channel_id must be positive with use_global_device_ids, got %lld (%s)",
              (long long)id, c);
}

/* The computation of all_reduce/reduce_scatter: `(tensor<E>, tensor<E>) ->
 * tensor<E>` with is_promotable(element_type(operand), E). */
static const Type *check_collective_body(V *v, const Op *op, const char *c) {
  const Type *body[1];
  if (!check_reducer(v, op, 0, op->opnds, 1, body, c)) return NULL;
  for (int i = 1; i < op->nopnds; i++)
    if (!promotable(op->opnds[i]->type, body[0])) {
      fail(op, "element type of operand #%d is not promotable to '%s' (%s)", i, ts(v, body[0]), c);
      return NULL;
    }
  return body[0];
}

/* all_reduce (C1-C7). */
static bool v_all_reduce(V *v, const Op *op) {
  if (!all_tensors(v, op)) return false;
  if (op->nopnds == 0) return fail(op, "expects at least one operand");
  if (check_replica_groups(v, op, true, true, "C1", "C3") < 0 || !check_channel(op, "C4")) return false;
  const Type *e = check_collective_body(v, op, "C5");
  if (!e) return false;
  for (int i = 0; i < op->nresults; i++) {
    const Type *x = op->opnds[i]->type;
    if (!check_result(v, op, i, shaped_like(v, e, x->rank, x->dims), "C6-C7")) return false;
  }
  return true;
}

/* Whether a collective with this channel setting addresses exactly the
 * processes of one replica group: cross_replica (no channel_id) and
 * flattened_ids (use_global_device_ids). With cross_replica_and_partition
 * every partition joins, a factor unknown before run time. */
static bool groups_are_processes(const Op *op) {
  const Attr *g = ir_attr(op, "use_global_device_ids");
  if (g && !(g->kind == AT_BOOL && !g->bval)) return true;
  return num_attr(field(ir_attr(op, "channel_handle"), "handle")) <= 0;
}

/* reduce_scatter (C1-C9); see all_gather for the size of the groups. */
static bool v_reduce_scatter(V *v, const Op *op) {
  if (!all_tensors(v, op)) return false;
  const Type *x = op->opnds[0]->type, *r = op->results[0]->type;
  int64_t d = op->a.scatter_dimension;
  if (d < 0 || d >= x->rank)
    return fail(op, "scatter_dimension %lld is out of range [0, %d) (C2)", (long long)d, x->rank);
  int64_t gs = check_replica_groups(v, op, false, true, "C3", "C5");
  if (gs < 0 || !check_channel(op, "C6")) return false;
  bool exact = groups_are_processes(op);
  int64_t xd = x->dims[d];
  if (!is_dyn(xd) && (xd == 0 || (gs > 0 && xd % gs)))
    return fail(op, "operand size %lld at scatter_dimension is not a positive multiple of the "
                "group size %lld (C1)", (long long)xd, (long long)gs);
  const Type *e = check_collective_body(v, op, "C7");
  if (!e) return false;
  int64_t dims[64];
  for (int k = 0; k < x->rank; k++) dims[k] = x->dims[k];
  if (!is_dyn(xd)) dims[d] = exact && gs > 0 ? xd / gs : DIM_DYNAMIC;
  if (!check_result(v, op, 0, shaped_like(v, e, x->rank, dims), "C8-C9")) return false;
  int64_t rd = r->dims[d];
  if (!is_dyn(xd) && !is_dyn(rd) && (rd == 0 || xd % rd))
    return fail(op, "operand size %lld at scatter_dimension is not a multiple of the result "
                "size %lld (C8)", (long long)xd, (long long)rd);
  return true;
}

/* all_gather (C1-C6): the gathered dimension grows by dim(process_groups,
 * 1), which is the replica group size or, across partitions, a multiple of
 * it known only at run time (upstream then checks divisibility only). */
static bool v_all_gather(V *v, const Op *op) {
  if (!all_tensors(v, op)) return false;
  int64_t gs = check_replica_groups(v, op, false, true, "C2", "C4");
  if (gs < 0 || !check_channel(op, "C5")) return false;
  int64_t d = op->a.all_gather_dim;
  bool exact = groups_are_processes(op);
  for (int i = 0; i < op->nopnds; i++) {
    const Type *x = op->opnds[i]->type, *r = op->results[i]->type;
    if (d < 0 || d >= x->rank)
      return fail(op, "all_gather_dim %lld is out of range [0, %d) (C1)", (long long)d, x->rank);
    if (x->dims[d] == 0) return fail(op, "operand #%d has size 0 at all_gather_dim (C6)", i);
    int64_t dims[64];
    for (int k = 0; k < x->rank; k++) dims[k] = x->dims[k];
    if (!is_dyn(dims[d])) dims[d] = exact ? dims[d] * gs : DIM_DYNAMIC;
    if (!check_result(v, op, i, shaped_like(v, x, x->rank, dims), "C6")) return false;
    if (!exact && !is_dyn(x->dims[d]) && !is_dyn(r->dims[d]) && r->dims[d] % x->dims[d])
      return fail(op, "result size %lld at all_gather_dim is not a multiple of the operand size "
                  "%lld (C6)", (long long)r->dims[d], (long long)x->dims[d]);
  }
  return true;
}

/* all_to_all (C1-C9). */
static bool v_all_to_all(V *v, const Op *op) {
  if (!all_tensors(v, op)) return false;
  int64_t sd = (int64_t)num_attr(ir_attr(op, "split_dimension"));
  int64_t cd = (int64_t)num_attr(ir_attr(op, "concat_dimension"));
  int64_t sc = (int64_t)num_attr(ir_attr(op, "split_count"));
  if (sc <= 0) return fail(op, "split_count must be positive, got %lld (C4)", (long long)sc);
  int64_t gs = check_replica_groups(v, op, false, true, "C5", "C7");
  if (gs < 0) return false;
  if (gs != sc)
    return fail(op, "group size of replica_groups must be split_count %lld, is %lld (C8)",
                (long long)sc, (long long)gs);
  for (int i = 0; i < op->nopnds; i++) {
    const Type *x = op->opnds[i]->type;
    if (sd < 0 || sd >= x->rank)
      return fail(op, "split_dimension %lld is out of range [0, %d) (C1)", (long long)sd, x->rank);
    if (cd < 0 || cd >= x->rank)
      return fail(op, "concat_dimension %lld is out of range [0, %d) (C3)", (long long)cd, x->rank);
    if (!is_dyn(x->dims[sd]) && x->dims[sd] % sc)
      return fail(op, "split dimension size %lld is not a multiple of split_count %lld (C2)",
                  (long long)x->dims[sd], (long long)sc);
    int64_t dims[64];
    for (int k = 0; k < x->rank; k++) dims[k] = x->dims[k];
    if (sd != cd) {
      if (!is_dyn(dims[sd])) dims[sd] /= sc;
      if (!is_dyn(dims[cd])) dims[cd] *= sc;
    }
    if (!check_result(v, op, i, shaped_like(v, x, x->rank, dims), "C9")) return false;
  }
  return true;
}

/* collective_broadcast (C1-C3). Upstream extends it with several operands
 * and, under `has_dynamic_root`, a last operand: a rank-1 i32 tensor with
 * one root per operand. */
static bool v_collective_broadcast(V *v, const Op *op) {
  bool dyn_root = ir_attr(op, "has_dynamic_root") != NULL;
  int n = op->nopnds - (dyn_root ? 1 : 0);
  if (n < 1) return fail(op, "expects at least one data operand");
  if (!arity(op, -1, n)) return false;
  if (dyn_root) {
    const Type *root = op->opnds[n]->type;
    if (!is_tensor(root) || root->rank != 1 || root->elem != ET_SI32 || !dim_ok(root->dims[0], n))
      return fail(op, "dynamic root must be a tensor<%dxi32>, got '%s'", n, ts(v, root));
  }
  if (check_replica_groups(v, op, true, false, "C1", "C2") < 0) return false;
  for (int i = 0; i < n; i++)
    if (!check_result(v, op, i, op->opnds[i]->type, "C3")) return false;
  return true;
}

/* collective_permute (C1-C5). */
static bool v_collective_permute(V *v, const Op *op) {
  const Attr *a = ir_attr(op, "source_target_pairs");
  const DenseData *d = a && a->kind == AT_DENSE ? a->dense : NULL;
  if (!d || d->type->rank != 2 || d->type->dims[1] != 2 || !elem_is_int(d->type->elem))
    return fail(op, "source_target_pairs must be an integer tensor of shape [N, 2] (C1)");
  int64_t n = d->type->dims[0];
  for (int64_t i = 0; i < n; i++)
    for (int k = 0; k < 2; k++) {
      int64_t id = dense_get_i64(d, 2 * i + k);
      if (id < 0) return fail(op, "source_target_pairs ids must be non-negative, got %lld (C4)",
                              (long long)id);
      for (int64_t j = 0; j < i; j++)
        if (dense_get_i64(d, 2 * j + k) == id)
          return fail(op, "duplicate %s %lld in source_target_pairs (%s)", k ? "target" : "source",
                      (long long)id, k ? "C3" : "C2");
    }
  return check_result(v, op, 0, op->opnds[0]->type, "C5");
}

/* The ids of replica_groups (source_target_pairs) against the module's
 * grid (mhlo.num_replicas, mhlo.num_partitions; unchecked when absent):
 * spec "Collective ops" names what the ids number under each strategy:
 * replicas for cross_replica and cross_replica_and_partition, partitions
 * for cross_partition, every process for flattened_ids. all_gather,
 * all_reduce, reduce_scatter and collective_reduce choose the strategy
 * by channel_id and use_global_device_ids; all_to_all,
 * collective_broadcast and collective_permute by channel_id alone. */
static bool check_group_range(V *v, const Op *op) {
  const DenseData *d = op->a.replica_groups;
  int64_t replicas, partitions;
  ir_module_grid(v->m, &replicas, &partitions);
  if (!d || replicas <= 0) return true;
  if (partitions <= 0) partitions = 1;
  bool by_channel = op->code == OP_ALL_TO_ALL || op->code == OP_COLLECTIVE_BROADCAST ||
                    op->code == OP_COLLECTIVE_PERMUTE;
  bool channel = op->a.channel.handle > 0;
  int64_t bound = replicas;
  const char *what = "num_replicas";
  if (by_channel && channel) bound = partitions, what = "num_partitions";
  if (!by_channel && channel && op->a.use_global_device_ids)
    bound = replicas * partitions, what = "num_replicas * num_partitions";
  for (int64_t i = 0, n = type_num_elems(d->type); i < n; i++) {
    int64_t id = dense_get_i64(d, i);
    if (id >= bound)
      return fail(op, "process id %lld is out of range: %s is %lld", (long long)id, what,
                  (long long)bound);
  }
  return true;
}

/* collective_reduce: all_reduce's constraints. */
static bool v_collective_reduce(V *v, const Op *op) { return v_all_reduce(v, op); }

/* ------------------------------------------------------------------------ */
/* interpreter.run_parallel (conformance protocol)                          */

/* The function named by symbol attribute a, or NULL after an error. */
static Func *program_func(V *v, const Op *op, const Attr *a) {
  Func *f = a && a->kind == AT_SYMBOL ? ir_module_find_func(v->m, a->str) : NULL;
  if (!f || !f->body) fail(op, "programs and infeed must name functions with bodies");
  return f;
}

/* Matches the types of vals[*at ..] against n expected types and advances
 * *at. */
static bool match_types(V *v, const Op *op, Value **vals, int nvals, int *at, Type *const *want,
                        int n, const char *what, const Func *f) {
  for (int i = 0; i < n; i++, (*at)++) {
    if (*at >= nvals)
      return fail(op, "too few %ss for the programs (@%s needs more)", what, f->name);
    if (vals[*at]->type != want[i])
      return fail(op, "%s #%d is '%s', @%s takes '%s'", what, *at, ts(v, vals[*at]->type),
                  f->name, ts(v, want[i]));
  }
  return true;
}

/* programs = [[@f, ...], ...]: rows are replicas, columns partitions; the
 * operands and results are those of every process in row-major order.
 * infeed = [@q, ...]: functions without arguments. */
static bool v_run_parallel(V *v, const Op *op) {
  const Attr *p = ir_attr(op, "programs");
  if (!p || p->kind != AT_ARRAY || p->n == 0 || p->items[0]->kind != AT_ARRAY ||
      p->items[0]->n == 0)
    return fail(op, "programs must be a non-empty array of non-empty arrays of functions");
  int in = 0, out = 0, cols = p->items[0]->n;
  for (int r = 0; r < p->n; r++) {
    const Attr *row = p->items[r];
    if (row->kind != AT_ARRAY || row->n != cols)
      return fail(op, "every row of programs must name %d functions", cols);
    for (int c = 0; c < cols; c++) {
      Func *f = program_func(v, op, row->items[c]);
      if (!f) return false;
      Type **args = ARENA_ARRAY(&v->m->arena, Type *, f->body->nargs + 1);
      for (int i = 0; i < f->body->nargs; i++) args[i] = f->body->args[i]->type;
      if (!match_types(v, op, op->opnds, op->nopnds, &in, args, f->body->nargs, "operand", f) ||
          !match_types(v, op, op->results, op->nresults, &out, f->result_types, f->nresults,
                       "result", f))
        return false;
    }
  }
  if (in != op->nopnds || out != op->nresults)
    return fail(op, "the programs take %d operands and give %d results, the op has %d and %d",
                in, out, op->nopnds, op->nresults);
  const Attr *q = ir_attr(op, "infeed");
  for (int i = 0; q && i < (q->kind == AT_ARRAY ? q->n : 1); i++) {
    Func *f = program_func(v, op, q->kind == AT_ARRAY ? q->items[i] : NULL);
    if (!f) return false;
    if (f->body->nargs) return fail(op, "infeed function @%s must take no arguments", f->name);
  }
  return true;
}

/* ------------------------------------------------------------------------ */
/* Dynamic-shape ops                                                         */

/* A shape operand: a statically shaped 1-d integer tensor of `n` elements
 * (n < 0: any). Fills vals with its values when it is a constant (and
 * *known). */
static bool check_shape_operand(V *v, const Op *op, int i, int n, int64_t *vals, bool *known,
                                const char *c) {
  const Type *t = op->opnds[i]->type;
  if (!is_tensor(t) || t->rank != 1 || is_dyn(t->dims[0]) ||
      !(elem_is_int(t->elem) || t->elem == ET_INDEX))
    return fail(op, "operand #%d must be a statically shaped 1-d integer tensor, got '%s'", i,
                ts(v, t));
  if (n >= 0 && t->dims[0] != n)
    return fail(op, "operand #%d has %lld elements, expected %d (%s)", i, (long long)t->dims[0], n, c);
  *known = vals && const_ints(op->opnds[i], vals, MAX_RANK) == t->dims[0];
  return true;
}

/* Constant output dimensions agree with the result type. */
static bool check_shape_values(V *v, const Op *op, const int64_t *vals, const char *c) {
  const Type *r = op->results[0]->type;
  for (int k = 0; k < r->rank; k++)
    if (vals[k] < 0 || !dim_ok(vals[k], r->dims[k]))
      return fail(op, "output shape value %lld at index %d is incompatible with result type '%s' (%s)",
                  (long long)vals[k], k, ts(v, r), c);
  return true;
}

/* dynamic_broadcast_in_dim (C1-C10). */
static bool v_dynamic_broadcast_in_dim(V *v, const Op *op) {
  if (!all_tensors(v, op) || !check_elem_carried(v, op, "C1")) return false;
  const Type *x = op->opnds[0]->type, *r = op->results[0]->type;
  int64_t out[MAX_RANK];
  bool known;
  if (!check_shape_operand(v, op, 1, r->rank, out, &known, "C7") ||
      (known && !check_shape_values(v, op, out, "C7")))
    return false;
  I64List d = op->a.broadcast_dimensions;
  if (d.n != x->rank)
    return fail(op, "broadcast_dimensions size (%d) differs from operand rank (%d) (C2)", d.n, x->rank);
  if (!dims_in_range(op, "broadcast_dimensions", d, r->rank, "C3") ||
      !dims_unique(op, "broadcast_dimensions", d, "C4"))
    return false;
  for (int i = 0; i < d.n; i++) {
    int64_t a = x->dims[i], b = known ? out[d.v[i]] : r->dims[d.v[i]];
    if (a != 1 && !dim_ok(a, b))
      return fail(op, "size of operand dimension %d (%lld) is neither 1 nor the size of result "
                  "dimension %lld (%lld) (C5)", i, (long long)a, (long long)d.v[i], (long long)b);
  }
  I64List ke = {0, NULL}, kn = {0, NULL};
  const Attr *e = ir_attr(op, "known_expanding_dimensions"), *ne = ir_attr(op, "known_nonexpanding_dimensions");
  if (e && e->kind == AT_DENSE_ARRAY) ke.n = e->n, ke.v = e->ints;
  if (ne && ne->kind == AT_DENSE_ARRAY) kn.n = ne->n, kn.v = ne->ints;
  return dims_unique2(op, "known_expanding_dimensions + known_nonexpanding_dimensions", ke, kn, "C8") &&
         dims_in_range(op, "known_expanding_dimensions", ke, x->rank, "C9") &&
         dims_in_range(op, "known_nonexpanding_dimensions", kn, x->rank, "C10");
}

/* dynamic_iota (C1-C2). */
static bool v_dynamic_iota(V *v, const Op *op) {
  if (!all_tensors(v, op)) return false;
  const Type *r = op->results[0]->type;
  int64_t out[MAX_RANK];
  bool known;
  if (!check_shape_operand(v, op, 0, r->rank, out, &known, "C2")) return false;
  if (op->a.iota_dimension < 0 || op->a.iota_dimension >= r->rank)
    return fail(op, "iota_dimension %lld is out of range [0, %d) (C1)", (long long)op->a.iota_dimension, r->rank);
  return !known || check_shape_values(v, op, out, "C2");
}

/* dynamic_reshape (C1-C4). */
static bool v_dynamic_reshape(V *v, const Op *op) {
  if (!all_tensors(v, op) || !check_elem_carried(v, op, "C1")) return false;
  const Type *x = op->opnds[0]->type, *r = op->results[0]->type;
  int64_t out[MAX_RANK];
  bool known;
  if (!check_shape_operand(v, op, 1, r->rank, out, &known, "C4") ||
      (known && !check_shape_values(v, op, out, "C4")))
    return false;
  int64_t nx = type_num_elems(x), nr = type_num_elems(r);
  if (known) {
    nr = 1;
    for (int k = 0; k < r->rank; k++) nr *= out[k];
  }
  if (nx >= 0 && nr >= 0 && nx != nr)
    return fail(op, "result has %lld elements, operand %lld (C2)", (long long)nr, (long long)nx);
  return true;
}

/* dynamic_pad (C1-C4). */
static bool v_dynamic_pad(V *v, const Op *op) {
  if (!all_tensors(v, op)) return false;
  const Type *x = op->opnds[0]->type, *pv = op->opnds[1]->type;
  if (pv->rank != 0 || !elem_same(x, pv) || !elem_same(x, op->results[0]->type))
    return fail(op, "operand, 0-d padding_value and result must have the same element type (C1)");
  int64_t pad[3][MAX_RANK];
  bool known[3];
  for (int i = 0; i < 3; i++)
    if (!check_shape_operand(v, op, 2 + i, x->rank, pad[i], &known[i], "C2")) return false;
  for (int k = 0; known[2] && k < x->rank; k++)
    if (pad[2][k] < 0)
      return fail(op, "interior padding must be non-negative, got %lld (C3)", (long long)pad[2][k]);
  if (!known[0] || !known[1] || !known[2]) return true;
  int64_t dims[MAX_RANK];
  for (int k = 0; k < x->rank; k++) {
    int64_t d = x->dims[k];
    dims[k] = is_dyn(d) ? d : pad[0][k] + d + (d > 0 ? d - 1 : 0) * pad[2][k] + pad[1][k];
  }
  return check_result(v, op, 0, shaped_like(v, x, x->rank, dims), "C4");
}

/* real_dynamic_slice: slice with start, limit and stride operands (1-d
 * integer tensors of the operand's rank); the result shape follows when
 * they are constants. */
static bool v_real_dynamic_slice(V *v, const Op *op) {
  if (!all_tensors(v, op)) return false;
  const Type *x = op->opnds[0]->type, *r = op->results[0]->type;
  if (!elem_same(x, r) || r->rank != x->rank)
    return fail(op, "result '%s' must have the element type and rank of the operand '%s'",
                ts(v, r), ts(v, x));
  int64_t idx[3][MAX_RANK];
  bool known[3];
  for (int i = 0; i < 3; i++)
    if (!check_shape_operand(v, op, 1 + i, x->rank, idx[i], &known[i], "slice")) return false;
  if (!known[0] || !known[1] || !known[2]) return true;
  int64_t dims[MAX_RANK];
  for (int k = 0; k < x->rank; k++) {
    int64_t s = idx[0][k], l = idx[1][k], st = idx[2][k];
    if (s < 0 || s > l || (!is_dyn(x->dims[k]) && l > x->dims[k]) || st <= 0)
      return fail(op, "invalid slice [%lld:%lld:%lld] of dimension %d of size %lld",
                  (long long)s, (long long)l, (long long)st, k, (long long)x->dims[k]);
    dims[k] = (l - s + st - 1) / st;
  }
  return check_result(v, op, 0, shaped_like(v, x, x->rank, dims), "slice");
}

/* get_dimension_size (C1). */
static bool v_get_dimension_size(V *v, const Op *op) {
  if (!all_tensors(v, op)) return false;
  int rank = op->opnds[0]->type->rank;
  if (op->a.dimension < 0 || op->a.dimension >= rank)
    return fail(op, "dimension %lld is out of range [0, %d) (C1)", (long long)op->a.dimension, rank);
  const Type *r = op->results[0]->type;
  if (r->rank != 0 || r->elem != ET_SI32)
    return fail(op, "result must be tensor<i32>, got '%s'", ts(v, r));
  return true;
}

/* set_dimension_size: the result is the operand with dimension `dimension`
 * resized to `size` (a 0-d i32), whose value is known only if constant. */
static bool v_set_dimension_size(V *v, const Op *op) {
  if (!all_tensors(v, op)) return false;
  const Type *x = op->opnds[0]->type, *sz = op->opnds[1]->type;
  int64_t d = op->a.dimension;
  if (d < 0 || d >= x->rank)
    return fail(op, "dimension %lld is out of range [0, %d)", (long long)d, x->rank);
  if (sz->rank != 0 || sz->elem != ET_SI32)
    return fail(op, "size must be tensor<i32>, got '%s'", ts(v, sz));
  int64_t dims[MAX_RANK], val;
  for (int k = 0; k < x->rank; k++) dims[k] = x->dims[k];
  dims[d] = const_ints(op->opnds[1], &val, 1) == 1 ? val : DIM_DYNAMIC;
  return check_result(v, op, 0, shaped_like(v, x, x->rank, dims), "set_dimension_size");
}

/* ------------------------------------------------------------------------ */
/* Linear algebra, normalization, FFT, RNG                                   */

/* cholesky (C1-C3). */
static bool v_cholesky(V *v, const Op *op) {
  if (!all_tensors(v, op) ||
      !check_kind(v, op, op->opnds[0], K_FLOAT | K_COMPLEX | K_QUANT, "a"))
    return false;
  const Type *a = op->opnds[0]->type;
  if (a->rank < 2) return fail(op, "a must have rank at least 2, got '%s' (C2)", ts(v, a));
  if (!dim_ok(a->dims[a->rank - 2], a->dims[a->rank - 1]))
    return fail(op, "the two minor dimensions of a must be equal, got '%s' (C3)", ts(v, a));
  if (!baseline_ok(a, op->results[0]->type))
    return fail(op, "result type differs from a (C1)");
  refine_result(v, op, 0, a);
  return true;
}

/* triangular_solve (C1-C4). */
static bool v_triangular_solve(V *v, const Op *op) {
  if (!all_tensors(v, op) ||
      !check_kind(v, op, op->opnds[0], K_FLOAT | K_COMPLEX | K_QUANT, "a"))
    return false;
  const Type *a = op->opnds[0]->type, *b = op->opnds[1]->type;
  if (!elem_baseline(a, b)) return fail(op, "a and b differ in element type (C1)");
  if (a->rank < 2 || a->rank != b->rank)
    return fail(op, "a and b must have the same rank, at least 2: '%s', '%s' (C2)", ts(v, a), ts(v, b));
  int r = a->rank;
  for (int k = 0; k < r - 2; k++)
    if (!dim_ok(a->dims[k], b->dims[k]))
      return fail(op, "batch dimensions of a and b differ: '%s', '%s' (C3)", ts(v, a), ts(v, b));
  const Attr *ls = ir_attr(op, "left_side");
  bool left = ls && ((ls->kind == AT_BOOL && ls->bval) || ls->kind == AT_UNIT);
  int64_t shared = b->dims[left ? r - 2 : r - 1];
  if (!dim_ok(a->dims[r - 2], a->dims[r - 1]) || !dim_ok(a->dims[r - 1], shared) ||
      !dim_ok(a->dims[r - 2], shared))
    return fail(op, "a must be square and match b's %s dimension: '%s', '%s' (C3)",
                left ? "second-minor" : "minor", ts(v, a), ts(v, b));
  const Attr *t = ir_attr(op, "transpose_a");
  if (t && (t->kind != AT_ENUM || (strcmp(t->str, "NO_TRANSPOSE") && strcmp(t->str, "TRANSPOSE") &&
                                   strcmp(t->str, "ADJOINT"))))
    return fail(op, "transpose_a must be NO_TRANSPOSE, TRANSPOSE or ADJOINT");
  if (!baseline_ok(b, op->results[0]->type))
    return fail(op, "inferred type '%s' is incompatible with result type '%s' (C4)", ts(v, b),
                ts(v, op->results[0]->type));
  refine_result(v, op, 0, b);
  return true;
}

/* batch_norm_*: the feature index, the element types and the sizes of the
 * 1-d operands/results (`one[0..n)`) against the feature dimension. */
static bool check_batch_norm(V *v, const Op *op, const Type *x, Value *const *one, int n,
                             const char *crank, const char *celem, const char *csize) {
  int64_t fi = (int64_t)num_attr(ir_attr(op, "feature_index"));
  if (fi < 0 || fi >= x->rank)
    return fail(op, "feature_index %lld is out of range [0, %d) (%s)", (long long)fi, x->rank, crank);
  if (!(elem_kind(x->elem) & (K_FLOAT | K_QUANT)))
    return fail(op, "operand must be a tensor of floating-point type, got '%s'", ts(v, x));
  for (int i = 0; i < n; i++) {
    const Type *t = one[i]->type;
    if (!elem_baseline(t, x)) return fail(op, "element types differ: '%s' and '%s' (%s)",
                                          ts(v, t), ts(v, x), celem);
    if (t->rank != 1 || !dim_ok(t->dims[0], x->dims[fi]))
      return fail(op, "'%s' must be 1-d with the feature dimension size %lld (%s)", ts(v, t),
                  (long long)x->dims[fi], csize);
  }
  return true;
}

/* batch_norm_training (C1-C7). */
static bool v_batch_norm_training(V *v, const Op *op) {
  if (!all_tensors(v, op)) return false;
  const Type *x = op->opnds[0]->type;
  Value *one[4] = {op->opnds[1], op->opnds[2], op->results[1], op->results[2]};
  if (!check_batch_norm(v, op, x, one, 4, "C1", "C2", "C3-C6")) return false;
  if (!baseline_ok(x, op->results[0]->type)) return fail(op, "output type differs from operand (C7)");
  return true;
}

/* batch_norm_inference (C1-C7). */
static bool v_batch_norm_inference(V *v, const Op *op) {
  if (!all_tensors(v, op)) return false;
  const Type *x = op->opnds[0]->type;
  if (!check_batch_norm(v, op, x, op->opnds + 1, 4, "C1", "C2", "C3-C6")) return false;
  if (!baseline_ok(x, op->results[0]->type)) return fail(op, "result type differs from operand (C7)");
  return true;
}

/* batch_norm_grad (C1-C5). */
static bool v_batch_norm_grad(V *v, const Op *op) {
  if (!all_tensors(v, op)) return false;
  const Type *x = op->opnds[0]->type;
  Value *one[5] = {op->opnds[1], op->opnds[2], op->opnds[3], op->results[1], op->results[2]};
  if (!check_batch_norm(v, op, x, one, 5, "C1", "C2", "C4-C5")) return false;
  if (!baseline_ok(x, op->opnds[4]->type) || !baseline_ok(x, op->results[0]->type))
    return fail(op, "operand, grad_output and grad_operand must have the same type (C2-C3)");
  return true;
}


/* fft (C1-C5). */
static bool v_fft(V *v, const Op *op) {
  if (!all_tensors(v, op)) return false;
  const Type *x = op->opnds[0]->type;
  I64List len = op->a.fft_length;
  FftType kind = op->a.fft_type;
  int L = len.n;
  if (L < 1 || L > 3) return fail(op, "fft_length must have 1 to 3 elements, has %d (C3)", L);
  if (L > x->rank) return fail(op, "fft_length has more elements than the operand rank (C1)");
  ElemType want_out;
  if (kind == FFT_RFFT) {
    if (x->elem != ET_F32 && x->elem != ET_F64)
      return fail(op, "RFFT takes an f32 or f64 operand, got '%s' (C2)", ts(v, x));
    want_out = x->elem == ET_F32 ? ET_C64 : ET_C128;
  } else {
    if (!elem_is_complex(x->elem))
      return fail(op, "FFT, IFFT and IRFFT take a complex operand, got '%s' (C2)", ts(v, x));
    want_out = kind == FFT_IRFFT ? complex_part(x->elem) : x->elem;
  }
  int64_t dims[MAX_RANK];
  for (int k = 0; k < x->rank; k++) dims[k] = x->dims[k];
  int last = x->rank - 1;
  for (int i = 0; i < L; i++) {
    int k = x->rank - L + i;
    bool halved = i == L - 1 && kind == FFT_IRFFT;
    int64_t want = halved ? (len.v[i] == 0 ? 0 : len.v[i] / 2 + 1) : len.v[i];
    if ((kind == FFT_RFFT || kind == FFT_IRFFT) && !dim_ok(x->dims[k], want))
      return fail(op, "operand dimension %d has size %lld, fft_length requires %lld (C4)", k,
                  (long long)x->dims[k], (long long)want);
  }
  if (kind == FFT_RFFT && !is_dyn(dims[last])) dims[last] = dims[last] == 0 ? 0 : dims[last] / 2 + 1;
  if (kind == FFT_IRFFT) dims[last] = len.v[L - 1];
  const Type *want =
      type_dims_fit(x->rank, dims) ? type_tensor(v->m->types, want_out, x->rank, dims) : NULL;
  return check_result(v, op, 0, want, "C2, C5");
}

/* rng (C1-C3). */
static bool v_rng(V *v, const Op *op) {
  if (!all_tensors(v, op)) return false;
  const Type *a = op->opnds[0]->type, *b = op->opnds[1]->type, *r = op->results[0]->type;
  for (int i = 0; i < 2; i++) {
    const Type *t = op->opnds[i]->type;
    if (t->rank != 0 || !(elem_kind(t->elem) & (K_BOOL | K_INT | K_FLOAT)))
      return fail(op, "operand #%d must be a 0-d tensor of integer, boolean or floating-point "
                  "type, got '%s'", i, ts(v, t));
  }
  if (a->elem != b->elem || a->elem != r->elem)
    return fail(op, "a, b and result must have the same element type (C1)");
  if (op->a.rng_distribution == RNG_NORMAL && !elem_is_float(a->elem))
    return fail(op, "NORMAL distribution requires floating-point values (C2)");
  int64_t shape[MAX_RANK];
  bool known;
  if (!check_shape_operand(v, op, 2, -1, shape, &known, "C3")) return false;
  int64_t n = op->opnds[2]->type->dims[0];
  if (n != r->rank)
    return fail(op, "result rank %d differs from the size of shape %lld (C3)", r->rank, (long long)n);
  return !known || check_result(v, op, 0, shaped_like(v, r, (int)n, shape), "C3");
}

/* rng_bit_generator (C1-C2). The spec's state is a 1-d ui64 tensor;
 * upstream accepts other integer and float states (print_stablehlo.mlir),
 * whose size is then not checked. */
static bool v_rng_bit_generator(V *v, const Op *op) {
  if (!all_tensors(v, op)) return false;
  const Type *s = op->opnds[0]->type;
  if (!check_result(v, op, 0, s, "C1")) return false;
  int64_t n = s->dims[0];
  RngAlgorithm alg = op->a.rng_algorithm;
  if (s->rank == 1 && s->elem == ET_UI64 && !is_dyn(n) &&
      ((alg == RNG_THREE_FRY && n != 2) || (alg == RNG_PHILOX && n != 2 && n != 3)))
    return fail(op, "initial_state has %lld elements, %s requires %s (C2)", (long long)n,
                alg == RNG_THREE_FRY ? "THREE_FRY" : "PHILOX", alg == RNG_THREE_FRY ? "2" : "2 or 3");
  return true;
}

/* ------------------------------------------------------------------------ */
/* Tokens, feeds, send/recv, composite, quantization                         */

static bool check_token(V *v, const Op *op, const Type *t, const char *what) {
  if (t->kind == TY_TOKEN) return true;
  return fail(op, "%s must be a token, got '%s'", what, ts(v, t));
}

/* Results of infeed (C1-C3) and recv (C2-C4): tensors, then a token. */
static bool check_feed_results(V *v, const Op *op, const char *c1, const char *c2, const char *c3) {
  if (op->nresults == 0) return fail(op, "expects at least one result (%s)", c1);
  for (int i = 0; i + 1 < op->nresults; i++)
    if (!is_tensor(op->results[i]->type))
      return fail(op, "result #%d must be a tensor, got '%s' (%s)", i,
                  ts(v, op->results[i]->type), c2);
  const Type *last = op->results[op->nresults - 1]->type;
  if (last->kind != TY_TOKEN)
    return fail(op, "the last result must be a token, got '%s' (%s)", ts(v, last), c3);
  return true;
}

/* infeed (C1-C3); `layout`, when given, has an array of integers per
 * tensor result. */
static bool v_infeed(V *v, const Op *op) {
  if (!check_token(v, op, op->opnds[0]->type, "operand")) return false;
  const Attr *l = ir_attr(op, "layout");
  if (l && (l->kind != AT_ARRAY || l->n != op->nresults - 1))
    return fail(op, "layout must have %d elements, one per tensor result", op->nresults - 1);
  for (int i = 0; l && i < l->n; i++) {
    const Attr *e = l->items[i];
    if (e->kind != AT_ARRAY) return fail(op, "layout element #%d must be an array", i);
    for (int k = 0; k < e->n; k++)
      if (e->items[k]->kind != AT_INT) return fail(op, "layout element #%d must hold integers", i);
  }
  return check_feed_results(v, op, "C1", "C2", "C3");
}

/* The channel type a send/recv needs: 1 DEVICE_TO_DEVICE, 2 DEVICE_TO_HOST,
 * 3 HOST_TO_DEVICE (channel_handle `type`). */
static bool check_channel_type(const Op *op, int64_t host_type) {
  const Attr *ch = ir_attr(op, "channel_handle");
  if (!ch) return true;
  const Attr *h = ir_attr(op, "is_host_transfer");
  bool host = h && ((h->kind == AT_BOOL && h->bval) || h->kind == AT_UNIT);
  int64_t want = host ? host_type : 1;
  if ((int64_t)num_attr(field(ch, "type")) == want) return true;
  return fail(op, "channel type must be %s when is_host_transfer is %s (C1)",
              !host ? "DEVICE_TO_DEVICE" : host_type == 2 ? "DEVICE_TO_HOST" : "HOST_TO_DEVICE",
              host ? "true" : "false");
}

static bool v_recv(V *v, const Op *op) {
  if (!check_token(v, op, op->opnds[0]->type, "operand")) return false;
  return check_channel_type(op, 3) && check_feed_results(v, op, "C2", "C3", "C4");
}

/* send, outfeed: tensors and a token in, a token out. */
static bool v_send_like(V *v, const Op *op) {
  if (op->nopnds < 1) return fail(op, "expects a token operand");
  for (int i = 0; i + 1 < op->nopnds; i++)
    if (!is_tensor(op->opnds[i]->type))
      return fail(op, "operand #%d must be a tensor, got '%s'", i, ts(v, op->opnds[i]->type));
  if (!check_token(v, op, op->opnds[op->nopnds - 1]->type, "the last operand") ||
      !check_token(v, op, op->results[0]->type, "the result"))
    return false;
  return op->code != OP_SEND || check_channel_type(op, 2);
}

/* interpreter.probe (the reference interpreter's dialect): records its
 * operand under probe_id and returns it, so the result has the operand's
 * type; check.expect_serialized_eq looks the recording up by that id. */
static bool v_interpreter_probe(V *v, const Op *op) {
  if (!all_tensors(v, op)) return false;
  if (!op->a.probe_id || !op->a.probe_id[0]) return fail(op, "probe_id must not be empty");
  return check_result(v, op, 0, op->opnds[0]->type, "result = operand");
}

static bool v_create_token(V *v, const Op *op) {
  return check_token(v, op, op->results[0]->type, "the result");
}

static bool v_after_all(V *v, const Op *op) {
  for (int i = 0; i < op->nopnds; i++)
    if (!check_token(v, op, op->opnds[i]->type, "operand")) return false;
  return check_token(v, op, op->results[0]->type, "the result");
}

/* replica_id, partition_id: a tensor<ui32>. */
static bool v_process_id(V *v, const Op *op) {
  const Type *r = op->results[0]->type;
  if (is_tensor(r) && r->rank == 0 && r->elem == ET_UI32) return true;
  return fail(op, "result must be tensor<ui32>, got '%s'", ts(v, r));
}

/* is_namespaced_op_name: [a-zA-Z][a-zA-Z0-9_]*([.][a-zA-Z0-9_$]+)+ */
static bool namespaced_op_name(const char *s) {
  if (!s || !((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z'))) return false;
  while (*s && *s != '.') {
    if (!(isalnum((unsigned char)*s) || *s == '_')) return false;
    s++;
  }
  if (!*s) return false;
  while (*s == '.') {
    s++;
    if (!*s || *s == '.') return false;
    for (; *s && *s != '.'; s++)
      if (!(isalnum((unsigned char)*s) || *s == '_' || *s == '$')) return false;
  }
  return true;
}

/* composite (C1-C4). */
static bool v_composite(V *v, const Op *op) {
  const Attr *name = ir_attr(op, "name"), *dec = ir_attr(op, "decomposition");
  if (!name || name->kind != AT_STRING || !namespaced_op_name(name->str))
    return fail(op, "name must be a valid namespaced op name (C1)");
  const char *fname = dec && dec->kind == AT_SYMBOL ? dec->str : "";
  if (fname[0] == '@') fname++;
  if (!ir_module_find_func(v->m, fname))
    return fail(op, "decomposition @%s is not a function of the module (C2)", fname);
  return check_signature(v, op, fname, "decomposition", " (C3)", " (C4)");
}

/* uniform_quantize (C1-C2), uniform_dequantize (C1-C2). */
static bool v_uniform(V *v, const Op *op) {
  if (!all_tensors(v, op)) return false;
  const Type *x = op->opnds[0]->type, *r = op->results[0]->type;
  if (!shape_ok(x, r)) return fail(op, "result shape differs from operand shape (C1)");
  if (op->code == OP_UNIFORM_DEQUANTIZE) {
    if (!is_quant(x)) return fail(op, "operand must be quantized, got '%s'", ts(v, x));
    if (r->elem != x->quant->expressed)
      return fail(op, "result element type must be the expressed type %s (C2)",
                  elem_name(x->quant->expressed));
    return true;
  }
  if (!is_quant(r)) return fail(op, "result must be quantized, got '%s'", ts(v, r));
  if (!is_quant(x) && !elem_is_float(x->elem))
    return fail(op, "operand must be floating-point or quantized, got '%s'", ts(v, x));
  ElemType want = is_quant(x) ? x->quant->expressed : x->elem;
  if (r->quant->expressed != want)
    return fail(op, "result expressed type must be %s (C2)", elem_name(want));
  return true;
}

/* broadcast (legacy): broadcast_sizes prepended to the operand's shape. */
static bool v_broadcast(V *v, const Op *op) {
  if (!all_tensors(v, op) || !check_elem_carried(v, op, "C1")) return false;
  const Type *x = op->opnds[0]->type;
  I64List s = op->a.broadcast_sizes;
  if (s.n + x->rank > MAX_RANK) return fail(op, "result rank exceeds %d", MAX_RANK);
  int64_t dims[MAX_RANK];
  for (int i = 0; i < s.n; i++) {
    if (s.v[i] < 0) return fail(op, "broadcast_sizes must be non-negative");
    dims[i] = s.v[i];
  }
  for (int i = 0; i < x->rank; i++) dims[s.n + i] = x->dims[i];
  return check_result(v, op, 0, shaped_like(v, x, s.n + x->rank, dims), "broadcast");
}

/* ------------------------------------------------------------------------ */
/* Dispatch                                                                  */

static bool check_ranks(V *v, const Op *op) {
  for (int i = 0; i < op->nopnds + op->nresults; i++) {
    const Type *t = i < op->nopnds ? op->opnds[i]->type : op->results[i - op->nopnds]->type;
    if (is_tensor(t) && t->rank > MAX_RANK)
      return fail(op, "rank of '%s' exceeds %d", ts(v, t), MAX_RANK);
  }
  return true;
}

typedef bool (*VerifyFn)(V *v, const Op *op);

/* Returns are checked with their parent (while, if, case, reduce ...) and
 * func.return with its function (verify_block). */
static bool v_nothing(V *v, const Op *op) {
  (void)v;
  (void)op;
  return true;
}

/* The rules of each op, (C1)..(Cn) of its spec section; elementwise ops
 * without an entry share v_unary / v_binary, check ops v_check. */
static const VerifyFn verifiers[OP_COUNT] = {
    [OP_SELECT] = v_select,
    [OP_CLAMP] = v_clamp,
    [OP_BROADCAST_IN_DIM] = v_broadcast_in_dim,
    [OP_TRANSPOSE] = v_transpose,
    [OP_RESHAPE] = v_reshape,
    [OP_CONCATENATE] = v_concatenate,
    [OP_CONSTANT] = v_constant,
    [OP_IOTA] = v_iota,
    [OP_SLICE] = v_slice,
    [OP_DYNAMIC_SLICE] = v_dynamic_slice,
    [OP_DYNAMIC_UPDATE_SLICE] = v_dynamic_update_slice,
    [OP_PAD] = v_pad,
    [OP_REVERSE] = v_reverse,
    [OP_GET_TUPLE_ELEMENT] = v_get_tuple_element,
    [OP_TUPLE] = v_tuple,
    [OP_OPTIMIZATION_BARRIER] = v_optimization_barrier,
    [OP_BITCAST_CONVERT] = v_bitcast_convert,
    [OP_DOT] = v_dot,
    [OP_DOT_GENERAL] = v_dot_general,
    [OP_CONVOLUTION] = v_convolution,
    [OP_DYNAMIC_CONV] = v_dynamic_conv,
    [OP_GATHER] = v_gather,
    [OP_REDUCE] = v_reduce,
    [OP_REDUCE_WINDOW] = v_reduce_window,
    [OP_SORT] = v_sort,
    [OP_DYNAMIC_GATHER] = v_dynamic_gather,
    [OP_DYNAMIC_BROADCAST_IN_DIM] = v_dynamic_broadcast_in_dim,
    [OP_DYNAMIC_IOTA] = v_dynamic_iota,
    [OP_DYNAMIC_RESHAPE] = v_dynamic_reshape,
    [OP_DYNAMIC_PAD] = v_dynamic_pad,
    [OP_GET_DIMENSION_SIZE] = v_get_dimension_size,
    [OP_SET_DIMENSION_SIZE] = v_set_dimension_size,
    [OP_CHOLESKY] = v_cholesky,
    [OP_TRIANGULAR_SOLVE] = v_triangular_solve,
    [OP_BATCH_NORM_TRAINING] = v_batch_norm_training,
    [OP_BATCH_NORM_INFERENCE] = v_batch_norm_inference,
    [OP_BATCH_NORM_GRAD] = v_batch_norm_grad,
    [OP_FFT] = v_fft,
    [OP_RNG] = v_rng,
    [OP_RNG_BIT_GENERATOR] = v_rng_bit_generator,
    [OP_INFEED] = v_infeed,
    [OP_RECV] = v_recv,
    [OP_AFTER_ALL] = v_after_all,
    [OP_CREATE_TOKEN] = v_create_token,
    [OP_INTERPRETER_PROBE] = v_interpreter_probe,
    [OP_REAL_DYNAMIC_SLICE] = v_real_dynamic_slice,
    [OP_COMPOSITE] = v_composite,
    [OP_BROADCAST] = v_broadcast,
    [OP_ALL_REDUCE] = v_all_reduce,
    [OP_REDUCE_SCATTER] = v_reduce_scatter,
    [OP_ALL_GATHER] = v_all_gather,
    [OP_ALL_TO_ALL] = v_all_to_all,
    [OP_COLLECTIVE_BROADCAST] = v_collective_broadcast,
    [OP_COLLECTIVE_PERMUTE] = v_collective_permute,
    [OP_COLLECTIVE_REDUCE] = v_collective_reduce,
    [OP_INTERPRETER_RUN_PARALLEL] = v_run_parallel,
    [OP_MAP] = v_map,
    [OP_SCATTER] = v_scatter,
    [OP_SELECT_AND_SCATTER] = v_select_and_scatter,
    [OP_WHILE] = v_while,
    [OP_IF] = v_if,
    [OP_CASE] = v_case,
    [OP_FUNC_CALL] = v_call,
    [OP_CUSTOM_CALL] = v_custom_call,
    [OP_SEND] = v_send_like,
    [OP_OUTFEED] = v_send_like,
    [OP_REPLICA_ID] = v_process_id,
    [OP_PARTITION_ID] = v_process_id,
    [OP_UNIFORM_QUANTIZE] = v_uniform,
    [OP_UNIFORM_DEQUANTIZE] = v_uniform,
    [OP_RETURN] = v_nothing,
    [OP_FUNC_RETURN] = v_nothing,
};

static VerifyFn verifier_of(OpCode c) {
  if (verifiers[c]) return verifiers[c];
  unsigned fl = op_flags(c);
  if (fl & OPF_UNARY) return v_unary;
  if (fl & OPF_BINARY) return v_binary;
  if (fl & OPF_CHECK) return v_check;
  return NULL;
}

bool verify_has_rules(OpCode c) { return verifier_of(c) != NULL; }

/* The counts of the op table (ir.h OPS) before the op's own rules. */
static bool check_arity(const Op *op) {
  const OpInfo *in = op_info(op->code);
  int nresults = in->nresults == N_OPNDS ? op->nopnds : in->nresults;
  /* A convolution with symbolic padding keeps dynamic_conv's operand. */
  int nopnds = op->code == OP_CONVOLUTION && op->a.window.pad_sym ? 3 : in->nopnds;
  if (!arity(op, nopnds, nresults)) return false;
  if (in->nregions >= 0 && op->nregions != in->nregions)
    return fail(op, "expects %d region%s, got %d", in->nregions, in->nregions == 1 ? "" : "s",
                op->nregions);
  return true;
}

static bool verify_op_body(V *v, Op *op) {
  if (!check_arity(op)) return false;
  VerifyFn fn = verifier_of(op->code);
  if (fn && !fn(v, op)) return false;
  return !ir_needs_runtime(op->code) || check_group_range(v, op);
}

static void verify_block(V *v, Block *b, bool func_level);

static void verify_op(V *v, Op *op) {
  if (check_ranks(v, op)) verify_op_body(v, op);
  for (int r = 0; r < op->nregions; r++)
    for (int k = 0; k < op->regions[r]->nblocks; k++)
      verify_block(v, op->regions[r]->blocks[k], false);
}

/* Terminators end blocks and only blocks; a function body ends with
 * func.return (or stablehlo.return, as upstream accepts), a region's block
 * with stablehlo.return. */
static void verify_block(V *v, Block *b, bool func_level) {
  for (Op *op = b->first; op; op = op->next) {
    bool term = op_flags(op->code) & OPF_TERMINATOR;
    if (term && op->next) {
      fail(op, "must be the last op of its block");
      continue;
    }
    /* Upstream leaves a function-level stablehlo.return unchecked
     * (print_stablehlo.mlir returns a value from a function without
     * results); only func.return is held to the signature. */
    if (op->code == OP_FUNC_RETURN && func_level) v_func_return(v, op);
    else if (op->code == OP_FUNC_RETURN) fail(op, "must end a function body");
    verify_op(v, op);
  }
  Op *t = ir_block_terminator(b);
  if (!t || !(op_flags(t->code) & OPF_TERMINATOR))
    diag_error(t ? t->loc : v->fn->loc, "block of @%s must end with a %s", v->fn->name,
               func_level ? "func.return" : "stablehlo.return");
}

int verify_refine_op(Module *m, Func *f, Op *op) {
  int before = diag_error_count();
  V v = {.m = m, .fn = f, .refine = true};
  if (check_ranks(&v, op)) verify_op_body(&v, op);
  return diag_error_count() - before;
}

int pass_verify(Module *m) {
  int before = diag_error_count();
  V v = {.m = m};
  for (int i = 0; i < m->nfuncs; i++) {
    v.fn = m->funcs[i];
    if (v.fn->body) verify_block(&v, v.fn->body, true);
    /* As MLIR's func verifier: a declaration is private (an entry point
     * must have code). */
    else if (v.fn->is_public)
      diag_error(v.fn->loc, "@%s: a public function needs a body (declarations are private)",
                 v.fn->name);
  }
  return diag_error_count() - before;
}
