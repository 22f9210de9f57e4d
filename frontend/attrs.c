/* attrs.c: the generic attributes of an op -> its typed OpAttrs.
 *
 * Runs once per op after parsing (and may run again after a pass rewrites
 * attributes). Both spellings MLIR has used for integer lists are accepted:
 * `array<i64: 1, 2>` (current) and `dense<[1, 2]> : tensor<2xi64>` (older
 * exports), as well as plain `[1, 2]` inside #stablehlo structs. Absent
 * optional attributes get the defaults of the spec; a missing required
 * attribute, or one of the wrong kind, is an error naming it.
 */
#include <string.h>

#include "frontend_internal.h"

static int fail(const Op *op, const char *fmt, const char *name) {
  char msg[256];
  snprintf(msg, sizeof msg, fmt, name);
  diag_error(op->loc, "'%s': %s", op_name(op->code), msg);
  return -1;
}

/* Integer list of an attribute value; 1 ok, -1 wrong kind. */
static int attr_to_list(Module *m, const Attr *a, I64List *out) {
  switch (a->kind) {
  case AT_DENSE_ARRAY:
    out->n = a->n;
    out->v = a->ints;
    return 1;
  case AT_ARRAY:
    out->n = a->n;
    out->v = ARENA_ARRAY(&m->arena, int64_t, a->n > 0 ? a->n : 1);
    for (int i = 0; i < a->n; i++) {
      const Attr *it = a->items[i];
      if (it->kind == AT_INT) out->v[i] = it->ival;
      else if (it->kind == AT_BOOL) out->v[i] = it->bval;
      else return -1;
    }
    return 1;
  case AT_DENSE: {
    const DenseData *d = a->dense;
    if (!d || !d->type || d->type->rank > 1 ||
        !(elem_is_int(d->type->elem) || d->type->elem == ET_I1))
      return -1;
    int64_t n = type_num_elems(d->type);
    out->n = (int)n;
    out->v = ARENA_ARRAY(&m->arena, int64_t, n > 0 ? n : 1);
    for (int64_t i = 0; i < n; i++) out->v[i] = dense_get_i64(d, i);
    return 1;
  }
  default:
    return -1;
  }
}

/* 1 present, 0 absent (out empty), -1 error (diagnosed). */
static int get_list(Module *m, Op *op, const char *name, bool required, I64List *out) {
  const Attr *a = ir_attr(op, name);
  out->n = 0;
  out->v = NULL;
  if (!a) return required ? fail(op, "missing attribute '%s'", name) : 0;
  if (attr_to_list(m, a, out) < 0) return fail(op, "attribute '%s' must be a list of integers", name);
  return 1;
}

static int get_int(Op *op, const char *name, bool required, int64_t def, int64_t *out) {
  const Attr *a = ir_attr(op, name);
  *out = def;
  if (!a) return required ? fail(op, "missing attribute '%s'", name) : 0;
  if (a->kind == AT_INT) *out = a->ival;
  else if (a->kind == AT_BOOL) *out = a->bval;
  else return fail(op, "attribute '%s' must be an integer", name);
  return 1;
}

static int get_bool(Op *op, const char *name, bool *out) {
  const Attr *a = ir_attr(op, name);
  *out = false;
  if (!a) return 0;
  if (a->kind == AT_BOOL) *out = a->bval;
  else if (a->kind == AT_UNIT) *out = true;
  else if (a->kind == AT_INT) *out = a->ival != 0;
  else return fail(op, "attribute '%s' must be a boolean", name);
  return 1;
}

static int get_float(Op *op, const char *name, double def, double *out) {
  const Attr *a = ir_attr(op, name);
  *out = def;
  if (!a) return 0;
  if (a->kind == AT_FLOAT) *out = a->fval;
  else if (a->kind == AT_INT) *out = (double)a->ival;
  else return fail(op, "attribute '%s' must be a number", name);
  return 1;
}

/* Index of an enum value in `names` (NULL-terminated, the spec's order). */
static int enum_index(const Attr *a, const char *const *names) {
  if (!a || a->kind != AT_ENUM || !a->str) return -1;
  for (int i = 0; names[i]; i++)
    if (!strcmp(names[i], a->str)) return i;
  return -1;
}

static int get_enum(Op *op, const char *name, bool required, const char *const *names, int *out) {
  const Attr *a = ir_attr(op, name);
  if (!a) return required ? fail(op, "missing attribute '%s'", name) : 0;
  int i = enum_index(a, names);
  if (i < 0) return fail(op, "attribute '%s' has an unknown value", name);
  *out = i;
  return 1;
}

static const Attr *get_struct(Op *op, const char *name) {
  const Attr *a = ir_attr(op, name);
  if (!a) {
    fail(op, "missing attribute '%s'", name);
    return NULL;
  }
  if (a->kind != AT_STRUCT) {
    fail(op, "attribute '%s' must be a #stablehlo structure", name);
    return NULL;
  }
  return a;
}

static const Attr *field(const Attr *s, const char *name) {
  for (int i = 0; i < s->n; i++)
    if (!strcmp(s->fields[i].name, name)) return s->fields[i].value;
  return NULL;
}

/* A list field of a #stablehlo struct; absent means empty. */
static int field_list(Module *m, Op *op, const Attr *s, const char *name, I64List *out) {
  const Attr *a = field(s, name);
  out->n = 0;
  out->v = NULL;
  if (!a) return 0;
  if (attr_to_list(m, a, out) < 0) return fail(op, "field '%s' must be a list of integers", name);
  return 1;
}

static int field_int(Op *op, const Attr *s, const char *name, bool required, int64_t *out) {
  const Attr *a = field(s, name);
  if (!a) return required ? fail(op, "missing field '%s'", name) : 0;
  if (a->kind != AT_INT) return fail(op, "field '%s' must be an integer", name);
  *out = a->ival;
  return 1;
}

static I64List filled(Module *m, int n, int64_t v) {
  I64List l = {n, ARENA_ARRAY(&m->arena, int64_t, n > 0 ? n : 1)};
  for (int i = 0; i < n; i++) l.v[i] = v;
  return l;
}

/* `padding`: dense<[[lo, hi], ...]> : tensor<Nx2xi64> (or a splat). */
static int get_padding(Module *m, Op *op, int n, I64List *lo, I64List *hi) {
  const Attr *a = ir_attr(op, "padding");
  *lo = filled(m, n, 0);
  *hi = filled(m, n, 0);
  if (!a) return 0;
  I64List flat;
  if (a->kind == AT_DENSE && a->dense && a->dense->type->rank == 2 &&
      a->dense->type->dims[1] == 2 && elem_is_int(a->dense->type->elem)) {
    const DenseData *d = a->dense;
    int rows = (int)d->type->dims[0];
    *lo = filled(m, rows, 0);
    *hi = filled(m, rows, 0);
    for (int i = 0; i < rows; i++) {
      lo->v[i] = dense_get_i64(d, 2 * i);
      hi->v[i] = dense_get_i64(d, 2 * i + 1);
    }
    return 1;
  }
  if (attr_to_list(m, a, &flat) > 0 && flat.n % 2 == 0) {
    *lo = filled(m, flat.n / 2, 0);
    *hi = filled(m, flat.n / 2, 0);
    for (int i = 0; i < flat.n / 2; i++) {
      lo->v[i] = flat.v[2 * i];
      hi->v[i] = flat.v[2 * i + 1];
    }
    return 1;
  }
  return fail(op, "attribute '%s' must be a dense Nx2 integer tensor", "padding");
}

/* An optional list attribute, or n copies of def. */
static int list_or(Module *m, Op *op, const char *name, int n, int64_t def, I64List *out) {
  int r = get_list(m, op, name, false, out);
  if (r == 0) *out = filled(m, n, def);
  return r;
}

static const char *const precision_names[] = {"DEFAULT", "HIGH", "HIGHEST", NULL};

static int decode_precision(Op *op, int out[2]) {
  const Attr *a = ir_attr(op, "precision_config");
  out[0] = out[1] = 0;
  if (!a) return 0;
  if (a->kind != AT_ARRAY) return fail(op, "attribute '%s' must be an array", "precision_config");
  for (int i = 0; i < a->n && i < 2; i++) {
    int k = enum_index(a->items[i], precision_names);
    if (k < 0) return fail(op, "attribute '%s' has an unknown precision", "precision_config");
    out[i] = k;
  }
  return 1;
}

static int decode_dot(Module *m, Op *op) {
  DotDims *d = &op->a.dot;
  if (decode_precision(op, d->precision) < 0) return -1;
  if (op->code == OP_DOT) return 0;
  const Attr *s = get_struct(op, "dot_dimension_numbers");
  if (!s) return -1;
  if (field_list(m, op, s, "lhs_batching_dimensions", &d->lhs_batch) < 0 ||
      field_list(m, op, s, "rhs_batching_dimensions", &d->rhs_batch) < 0 ||
      field_list(m, op, s, "lhs_contracting_dimensions", &d->lhs_contract) < 0 ||
      field_list(m, op, s, "rhs_contracting_dimensions", &d->rhs_contract) < 0)
    return -1;
  return 0;
}

static int decode_conv(Module *m, Op *op) {
  ConvDims *c = &op->a.conv;
  const Attr *s = get_struct(op, "dimension_numbers");
  if (!s) return -1;
  if (field_int(op, s, "input_batch_dimension", true, &c->in_batch) < 0 ||
      field_int(op, s, "input_feature_dimension", true, &c->in_feature) < 0 ||
      field_list(m, op, s, "input_spatial_dimensions", &c->in_spatial) < 0 ||
      field_int(op, s, "kernel_input_feature_dimension", true, &c->k_in_feature) < 0 ||
      field_int(op, s, "kernel_output_feature_dimension", true, &c->k_out_feature) < 0 ||
      field_list(m, op, s, "kernel_spatial_dimensions", &c->k_spatial) < 0 ||
      field_int(op, s, "output_batch_dimension", true, &c->out_batch) < 0 ||
      field_int(op, s, "output_feature_dimension", true, &c->out_feature) < 0 ||
      field_list(m, op, s, "output_spatial_dimensions", &c->out_spatial) < 0)
    return -1;
  int n = c->in_spatial.n;
  Window *w = &op->a.window; /* dims stays empty: the kernel's shape has it */
  if (list_or(m, op, "window_strides", n, 1, &w->strides) < 0 ||
      list_or(m, op, "lhs_dilation", n, 1, &w->base_dilations) < 0 ||
      list_or(m, op, "rhs_dilation", n, 1, &w->window_dilations) < 0 ||
      list_or(m, op, "window_reversal", n, 0, &w->reversal) < 0 ||
      get_padding(m, op, n, &w->pad_lo, &w->pad_hi) < 0)
    return -1;
  if (get_int(op, "feature_group_count", false, 1, &op->a.feature_group_count) < 0 ||
      get_int(op, "batch_group_count", false, 1, &op->a.batch_group_count) < 0)
    return -1;
  return decode_precision(op, op->a.dot.precision) < 0 ? -1 : 0;
}

/* reduce_window and select_and_scatter; n is the operand rank used when
 * window_dimensions is absent (select_and_scatter). */
static int decode_window(Module *m, Op *op, bool dims_required) {
  Window *w = &op->a.window;
  int rank = op->nopnds > 0 && op->opnds[0]->type->kind == TY_TENSOR ? op->opnds[0]->type->rank : 0;
  int r = get_list(m, op, "window_dimensions", dims_required, &w->dims);
  if (r < 0) return -1;
  if (r == 0) w->dims = filled(m, rank, 1);
  int n = w->dims.n;
  if (list_or(m, op, "window_strides", n, 1, &w->strides) < 0 ||
      list_or(m, op, "base_dilations", n, 1, &w->base_dilations) < 0 ||
      list_or(m, op, "window_dilations", n, 1, &w->window_dilations) < 0 ||
      get_padding(m, op, n, &w->pad_lo, &w->pad_hi) < 0)
    return -1;
  w->reversal = filled(m, n, 0);
  return 0;
}

static int decode_gather(Module *m, Op *op) {
  GatherDims *g = &op->a.gather;
  const Attr *s = get_struct(op, "dimension_numbers");
  if (!s) return -1;
  if (field_list(m, op, s, "offset_dims", &g->offset_dims) < 0 ||
      field_list(m, op, s, "collapsed_slice_dims", &g->collapsed_slice_dims) < 0 ||
      field_list(m, op, s, "operand_batching_dims", &g->operand_batching_dims) < 0 ||
      field_list(m, op, s, "start_indices_batching_dims", &g->start_indices_batching_dims) < 0 ||
      field_list(m, op, s, "start_index_map", &g->start_index_map) < 0 ||
      field_int(op, s, "index_vector_dim", false, &g->index_vector_dim) < 0)
    return -1;
  if (op->code == OP_GATHER && get_list(m, op, "slice_sizes", true, &g->slice_sizes) < 0)
    return -1;
  return get_bool(op, "indices_are_sorted", &g->indices_are_sorted) < 0 ? -1 : 0;
}

static int decode_scatter(Module *m, Op *op) {
  ScatterDims *s = &op->a.scatter;
  const Attr *st = get_struct(op, "scatter_dimension_numbers");
  if (!st) return -1;
  if (field_list(m, op, st, "update_window_dims", &s->update_window_dims) < 0 ||
      field_list(m, op, st, "inserted_window_dims", &s->inserted_window_dims) < 0 ||
      field_list(m, op, st, "input_batching_dims", &s->input_batching_dims) < 0 ||
      field_list(m, op, st, "scatter_indices_batching_dims", &s->scatter_indices_batching_dims) < 0 ||
      field_list(m, op, st, "scatter_dims_to_operand_dims", &s->scatter_dims_to_operand_dims) < 0 ||
      field_int(op, st, "index_vector_dim", false, &s->index_vector_dim) < 0)
    return -1;
  if (get_bool(op, "indices_are_sorted", &s->indices_are_sorted) < 0 ||
      get_bool(op, "unique_indices", &s->unique_indices) < 0)
    return -1;
  return 0;
}

static int decode_value(Op *op) {
  const Attr *a = ir_attr(op, "value");
  if (!a) return fail(op, "missing attribute '%s'", "value");
  if (a->kind != AT_DENSE || !a->dense) return fail(op, "attribute '%s' must be a dense literal", "value");
  op->a.value = a->dense;
  return 0;
}

static int decode_string(Op *op, const char *name, AttrKind kind) {
  const Attr *a = ir_attr(op, name);
  if (!a) return fail(op, "missing attribute '%s'", name);
  if (a->kind != kind || !a->str)
    return fail(op, kind == AT_SYMBOL ? "attribute '%s' must be a symbol" : "attribute '%s' must be a string", name);
  op->a.callee = a->str;
  return 0;
}

static int decode_probe_id(Op *op) {
  const Attr *a = ir_attr(op, "probe_id");
  if (!a) return fail(op, "missing attribute '%s'", "probe_id");
  if (a->kind != AT_STRING || !a->str) return fail(op, "attribute '%s' must be a string", "probe_id");
  op->a.probe_id = a->str;
  return 0;
}

int attrs_decode(Module *m, Op *op) {
  static const char *const cmp_dirs[] = {"EQ", "NE", "GE", "GT", "LE", "LT", NULL};
  static const char *const cmp_types[] = {"NOTYPE", "FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED", NULL};
  static const char *const distributions[] = {"UNIFORM", "NORMAL", NULL};
  static const char *const algorithms[] = {"DEFAULT", "THREE_FRY", "PHILOX", NULL};
  static const char *const fft_types[] = {"FFT", "IFFT", "RFFT", "IRFFT", NULL};
  static const char *const transposes[] = {"NO_TRANSPOSE", "TRANSPOSE", "ADJOINT", NULL};
  OpAttrs *a = &op->a;
  memset(a, 0, sizeof *a);
  int r = 0, k = 0;
  switch (op->code) {
  case OP_BROADCAST_IN_DIM:
  case OP_DYNAMIC_BROADCAST_IN_DIM:
    r = get_list(m, op, "broadcast_dimensions", true, &a->dims);
    break;
  case OP_TRANSPOSE:
    r = get_list(m, op, "permutation", true, &a->dims);
    break;
  case OP_REDUCE:
  case OP_REVERSE:
    r = get_list(m, op, "dimensions", true, &a->dims);
    break;
  case OP_MAP:
    r = get_list(m, op, "dimensions", false, &a->dims);
    break;
  case OP_BROADCAST:
    r = get_list(m, op, "broadcast_sizes", true, &a->dims);
    break;
  case OP_SLICE:
    if (get_list(m, op, "start_indices", true, &a->dims) < 0 ||
        get_list(m, op, "limit_indices", true, &a->limits) < 0)
      return -1;
    r = list_or(m, op, "strides", a->dims.n, 1, &a->strides);
    break;
  case OP_DYNAMIC_SLICE:
    r = get_list(m, op, "slice_sizes", true, &a->dims);
    break;
  case OP_PAD:
    if (get_list(m, op, "edge_padding_low", true, &a->dims) < 0 ||
        get_list(m, op, "edge_padding_high", true, &a->pad_hi) < 0)
      return -1;
    r = list_or(m, op, "interior_padding", a->dims.n, 0, &a->pad_interior);
    break;
  case OP_CONCATENATE:
  case OP_GET_DIMENSION_SIZE:
  case OP_SET_DIMENSION_SIZE:
    r = get_int(op, "dimension", true, 0, &a->dim);
    break;
  case OP_IOTA:
  case OP_DYNAMIC_IOTA:
    r = get_int(op, "iota_dimension", true, 0, &a->dim);
    break;
  case OP_SORT:
    if (get_int(op, "dimension", false, -1, &a->dim) < 0) return -1;
    r = get_bool(op, "is_stable", &a->is_stable);
    break;
  case OP_ALL_GATHER:
    r = get_int(op, "all_gather_dim", true, 0, &a->dim);
    break;
  case OP_REDUCE_SCATTER:
    r = get_int(op, "scatter_dimension", true, 0, &a->dim);
    break;
  case OP_GET_TUPLE_ELEMENT:
    r = get_int(op, "index", true, 0, &a->dim);
    break;
  case OP_COMPARE:
    if (get_enum(op, "comparison_direction", true, cmp_dirs, &k) < 0) return -1;
    a->cmp = (CmpDir)k;
    k = 0;
    r = get_enum(op, "compare_type", false, cmp_types, &k);
    a->cmp_type = (CmpType)k;
    break;
  case OP_DOT:
  case OP_DOT_GENERAL:
    r = decode_dot(m, op);
    break;
  case OP_CONVOLUTION:
  case OP_DYNAMIC_CONV:
    r = decode_conv(m, op);
    break;
  case OP_REDUCE_WINDOW:
    r = decode_window(m, op, true);
    break;
  case OP_SELECT_AND_SCATTER:
    r = decode_window(m, op, false);
    break;
  case OP_GATHER:
  case OP_DYNAMIC_GATHER:
    r = decode_gather(m, op);
    break;
  case OP_SCATTER:
    r = decode_scatter(m, op);
    break;
  case OP_CONSTANT:
  case OP_CHECK_EXPECT_EQ_CONST:
    r = decode_value(op);
    break;
  case OP_CHECK_EXPECT_ALMOST_EQ_CONST:
    if (decode_value(op) < 0) return -1;
    r = get_float(op, "tolerance", 1e-4, &a->tolerance);
    break;
  case OP_CHECK_EXPECT_ALMOST_EQ:
    r = get_float(op, "tolerance", 1e-4, &a->tolerance);
    break;
  case OP_CHECK_EXPECT_CLOSE:
    if (get_int(op, "max_ulp_difference", false, 3, &a->max_ulp) < 0) return -1;
    r = get_int(op, "min_ulp_difference", false, 0, &a->min_ulp);
    break;
  case OP_CHECK_EXPECT_SERIALIZED_EQ:
    if (get_int(op, "iter", false, 0, &a->probe_iter) < 0) return -1;
    r = decode_probe_id(op);
    break;
  case OP_INTERPRETER_PROBE:
    r = decode_probe_id(op);
    break;
  case OP_FUNC_CALL:
    r = decode_string(op, "callee", AT_SYMBOL);
    break;
  case OP_CUSTOM_CALL:
    r = decode_string(op, "call_target_name", AT_STRING);
    break;
  case OP_REDUCE_PRECISION:
    if (get_int(op, "exponent_bits", true, 0, &a->exponent_bits) < 0) return -1;
    r = get_int(op, "mantissa_bits", true, 0, &a->mantissa_bits);
    break;
  case OP_RNG:
    r = get_enum(op, "rng_distribution", true, distributions, &a->rounding);
    break;
  case OP_RNG_BIT_GENERATOR:
    r = get_enum(op, "rng_algorithm", true, algorithms, &a->rounding);
    break;
  case OP_TRIANGULAR_SOLVE:
    if (get_bool(op, "left_side", &a->left_side) < 0 || get_bool(op, "lower", &a->lower) < 0 ||
        get_bool(op, "unit_diagonal", &a->unit_diagonal) < 0)
      return -1;
    r = get_enum(op, "transpose_a", false, transposes, &a->rounding);
    break;
  case OP_CHOLESKY:
    r = get_bool(op, "lower", &a->lower);
    break;
  case OP_FFT:
    if (get_enum(op, "fft_type", true, fft_types, &a->rounding) < 0) return -1;
    r = get_list(m, op, "fft_length", true, &a->fft_length);
    break;
  default:
    break;
  }
  return r < 0 ? -1 : 0;
}
