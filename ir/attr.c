/* attr.c: generic attribute constructors, and the attribute schema
 * (ir.h OP_ATTRS, STRUCT_FIELDS, ATTR_ENUMS) that turns an op's generic
 * attributes into its typed OpAttrs (attrs_decode) and back
 * (attrs_encode).
 *
 * Both spellings MLIR has used for integer lists are accepted:
 * `array<i64: 1, 2>` (current) and `dense<[1, 2]> : tensor<2xi64>` (older
 * exports), as well as plain `[1, 2]` inside #stablehlo structs. Absent
 * optional attributes get the defaults of the spec; a missing required
 * attribute, or one of the wrong kind, is an error naming it.
 */
#include <stddef.h>
#include <string.h>

#include "ir.h"

/* ------------------------------------------------------------------------ */
/* Constructors                                                              */

Attr *attr_new(Module *m, AttrKind k) {
  Attr *a = ARENA_NEW(&m->arena, Attr);
  a->kind = k;
  return a;
}

Attr *attr_int(Module *m, int64_t v, ElemType type) {
  Attr *a = attr_new(m, AT_INT);
  a->ival = v;
  if (type != ET_COUNT) a->type = type_tensor(m->types, type, 0, NULL);
  return a;
}

Attr *attr_float(Module *m, double v, ElemType type) {
  Attr *a = attr_new(m, AT_FLOAT);
  a->fval = v;
  if (type != ET_COUNT) a->type = type_tensor(m->types, type, 0, NULL);
  return a;
}

Attr *attr_bool(Module *m, bool v) {
  Attr *a = attr_new(m, AT_BOOL);
  a->bval = v;
  return a;
}

Attr *attr_string(Module *m, const char *s) {
  Attr *a = attr_new(m, AT_STRING);
  a->str = s;
  return a;
}

Attr *attr_symbol(Module *m, const char *s) {
  Attr *a = attr_new(m, AT_SYMBOL);
  a->str = s;
  return a;
}

Attr *attr_enum(Module *m, const char *name, const char *value) {
  Attr *a = attr_new(m, AT_ENUM);
  a->name = name;
  a->str = value;
  return a;
}

Attr *attr_type(Module *m, Type *t) {
  Attr *a = attr_new(m, AT_TYPE);
  a->type = t;
  return a;
}

Attr *attr_dense_array(Module *m, ElemType e, const int64_t *v, int n) {
  Attr *a = attr_new(m, AT_DENSE_ARRAY);
  a->array_elem = e;
  a->n = n;
  a->ints = ARENA_ARRAY(&m->arena, int64_t, n > 0 ? n : 1);
  if (n > 0) memcpy(a->ints, v, sizeof(int64_t) * (size_t)n);
  return a;
}

Attr *attr_i64_array(Module *m, const int64_t *v, int n) {
  return attr_dense_array(m, ET_SI64, v, n);
}

Attr *attr_int_list(Module *m, const int64_t *v, int n) {
  Attr *a = attr_new(m, AT_ARRAY);
  a->n = n;
  a->items = ARENA_ARRAY(&m->arena, Attr *, n > 0 ? n : 1);
  for (int i = 0; i < n; i++) a->items[i] = attr_int(m, v[i], ET_COUNT);
  return a;
}

Attr *attr_struct(Module *m, const char *name, NamedAttr *fields, int n) {
  Attr *a = attr_new(m, AT_STRUCT);
  a->name = name;
  a->n = n;
  a->fields = fields;
  return a;
}

Attr *attr_dense(Module *m, const DenseData *d) {
  Attr *a = attr_new(m, AT_DENSE);
  a->dense = (DenseData *)d;
  a->type = (Type *)d->type;
  return a;
}

I64List ir_list(Module *m, const int64_t *v, int n) {
  I64List l = {n, ARENA_ARRAY(&m->arena, int64_t, n > 0 ? n : 1)};
  if (n > 0) memcpy(l.v, v, sizeof *v * (size_t)n);
  return l;
}

static I64List filled(Module *m, int n, int64_t v) {
  I64List l = {n, ARENA_ARRAY(&m->arena, int64_t, n > 0 ? n : 1)};
  for (int i = 0; i < n; i++) l.v[i] = v;
  return l;
}

/* ------------------------------------------------------------------------ */
/* The tables                                                                */

static const AttrSpec op_attrs[] = {
#define X(op, name, kw, type, flags, def, member) \
  {op, name, kw, type, flags, def, offsetof(OpAttrs, member)},
    OP_ATTRS(X)
#undef X
};
enum { N_OP_ATTRS = sizeof op_attrs / sizeof op_attrs[0] };

static const AttrSpec struct_fields[] = {
#define X(s, name, type, flags, def, ctype, member) {s, name, NULL, type, flags, def, offsetof(ctype, member)},
    STRUCT_FIELDS(X)
#undef X
};
enum { N_STRUCT_FIELDS = sizeof struct_fields / sizeof struct_fields[0] };

static const struct {
  AttrType kind;
  const char *name;
} structs[] = {
#define X(k, name) {k, name},
    ATTR_STRUCTS(X)
#undef X
};

#define SPELLINGS(...) __VA_ARGS__
#define X(e, name, spellings) static const char *const e##_spellings[] = {SPELLINGS spellings, NULL};
ATTR_ENUMS(X)
#undef X

static const struct {
  const char *name;
  const char *const *spellings; /* NULL-terminated */
} enums[] = {
#define X(e, name, spellings) {name, e##_spellings},
    ATTR_ENUMS(X)
#undef X
};
#undef SPELLINGS

_Static_assert(sizeof(CmpDir) == sizeof(int) && sizeof(CmpType) == sizeof(int) &&
                   sizeof(RngDistribution) == sizeof(int) && sizeof(RngAlgorithm) == sizeof(int) &&
                   sizeof(FftType) == sizeof(int) && sizeof(Transpose) == sizeof(int),
               "enum attributes are stored as int");

const char *attr_enum_name(AttrEnum e) { return enums[e].name; }

const char *attr_enum_value(AttrEnum e, int v) {
  for (int i = 0; enums[e].spellings[i]; i++)
    if (i == v) return enums[e].spellings[i];
  return NULL;
}

int attr_enum_lookup(AttrEnum e, const char *s) {
  for (int i = 0; enums[e].spellings[i]; i++)
    if (!strcmp(enums[e].spellings[i], s)) return i;
  return -1;
}

AttrType attr_struct_kind(const char *name, size_t n) {
  for (size_t i = 0; i < sizeof structs / sizeof structs[0]; i++)
    if (strlen(structs[i].name) == n && !memcmp(structs[i].name, name, n)) return structs[i].kind;
  return AK_ENUM0;
}

const char *attr_struct_name(AttrType s) {
  for (size_t i = 0; i < sizeof structs / sizeof structs[0]; i++)
    if (structs[i].kind == s) return structs[i].name;
  return "?";
}

const AttrSpec *attr_struct_field(AttrType s, int i) {
  for (int k = 0; k < N_STRUCT_FIELDS; k++)
    if (struct_fields[k].owner == (int)s && i-- == 0) return &struct_fields[k];
  return NULL;
}

bool attr_struct_has_field(AttrType s, const char *f) {
  bool has_rows = false;
  for (int i = 0; i < N_STRUCT_FIELDS; i++) {
    if (struct_fields[i].owner != (int)s) continue;
    has_rows = true;
    if (!strcmp(struct_fields[i].name, f)) return true;
  }
  return !has_rows;
}

const AttrSpec *attr_spec_by_name(OpCode c, const char *name) {
  for (int i = 0; i < N_OP_ATTRS; i++)
    if (op_attrs[i].owner == (int)c && !strcmp(op_attrs[i].name, name)) return &op_attrs[i];
  return NULL;
}

const AttrSpec *attr_spec_of_field(OpCode c, const char *field, const AttrSpec **row) {
  for (int i = 0; i < N_OP_ATTRS; i++) {
    if (op_attrs[i].owner != (int)c) continue;
    for (int k = 0; k < N_STRUCT_FIELDS; k++) {
      const AttrSpec *f = &struct_fields[k];
      if (f->owner == (int)op_attrs[i].type && !strcmp(f->name, field)) {
        *row = &op_attrs[i];
        return f;
      }
    }
  }
  return NULL;
}

const AttrSpec *attr_spec_by_keyword(OpCode c, const char *kw, size_t n) {
  for (int i = 0; i < N_OP_ATTRS; i++) {
    const AttrSpec *s = &op_attrs[i];
    if (s->owner == (int)c && s->keyword && strlen(s->keyword) == n && !memcmp(s->keyword, kw, n))
      return s;
  }
  return NULL;
}

/* ------------------------------------------------------------------------ */
/* Decoding: generic -> typed                                                */

static int fail(const Op *op, const char *fmt, const char *name) {
  char msg[256];
  snprintf(msg, sizeof msg, fmt, name);
  diag_error(op->loc, "'%s': %s", op_name(op->code), msg);
  return -1;
}

/* Integer list of an attribute value; 0 ok, -1 wrong kind. */
static int attr_to_list(Module *m, const Attr *a, I64List *out) {
  switch (a->kind) {
  case AT_DENSE_ARRAY:
    *out = (I64List){a->n, a->ints};
    return 0;
  case AT_ARRAY:
    *out = filled(m, a->n, 0);
    for (int i = 0; i < a->n; i++) {
      const Attr *it = a->items[i];
      if (it->kind == AT_INT) out->v[i] = it->ival;
      else if (it->kind == AT_BOOL) out->v[i] = it->bval;
      else return -1;
    }
    return 0;
  case AT_DENSE: {
    const DenseData *d = a->dense;
    if (!d || !d->type || d->type->rank > 1 ||
        !(elem_is_int(d->type->elem) || d->type->elem == ET_I1))
      return -1;
    *out = filled(m, (int)type_num_elems(d->type), 0);
    for (int i = 0; i < out->n; i++) out->v[i] = dense_get_i64(d, i);
    return 0;
  }
  default:
    return -1;
  }
}

/* `padding`: dense<[[lo, hi], ...]> : tensor<Nx2xi64>, or a flat list of
 * pairs. */
static int padding_from(Module *m, const Attr *a, Window *w) {
  I64List flat;
  if (a->kind == AT_DENSE && a->dense && a->dense->type->rank == 2 &&
      a->dense->type->dims[1] == 2 && elem_is_int(a->dense->type->elem)) {
    int rows = (int)a->dense->type->dims[0];
    flat = filled(m, 2 * rows, 0);
    for (int i = 0; i < 2 * rows; i++) flat.v[i] = dense_get_i64(a->dense, i);
  } else if (attr_to_list(m, a, &flat) < 0 || flat.n % 2) {
    return -1;
  }
  w->pad_lo = filled(m, flat.n / 2, 0);
  w->pad_hi = filled(m, flat.n / 2, 0);
  for (int i = 0; i < flat.n / 2; i++) {
    w->pad_lo.v[i] = flat.v[2 * i];
    w->pad_hi.v[i] = flat.v[2 * i + 1];
  }
  return 0;
}

static int precision_from(const Attr *a, int *out) {
  if (a->kind != AT_ARRAY) return -1;
  for (int i = 0; i < a->n && i < 2; i++) {
    const Attr *it = a->items[i];
    int k = it->kind == AT_ENUM && it->str ? attr_enum_lookup(EN_PRECISION, it->str) : -1;
    if (k < 0) return -1;
    out[i] = k;
  }
  return 0;
}

static const char *kind_words(AttrType t) {
  switch (t) {
  case AK_INTS: return "a list of integers";
  case AK_INT: case AK_I32: return "an integer";
  case AK_BOOL: return "a boolean";
  case AK_FLOAT: return "a number";
  case AK_STRING: return "a string";
  case AK_SYMBOL: return "a symbol";
  case AK_TYPE: return "a type";
  case AK_DENSE: return "a dense literal";
  case AK_PADDING: return "a dense Nx2 integer tensor";
  case AK_PRECISION: return "an array of precisions";
  default: return t >= AK_ENUM0 ? "an enum value" : "a #stablehlo structure";
  }
}

static int decode_struct(Module *m, const Op *op, AttrType s, const Attr *a, void *dst);

/* Decodes the value a of the attribute described by spec into dst; 0 ok,
 * -1 wrong kind (not diagnosed), -2 diagnosed already. */
static int decode_value(Module *m, const Op *op, const AttrSpec *spec, const Attr *a, void *dst) {
  AttrType t = spec->type;
  switch (t) {
  case AK_INTS: return attr_to_list(m, a, dst);
  case AK_INT: case AK_I32:
    if (a->kind == AT_INT) *(int64_t *)dst = a->ival;
    else if (a->kind == AT_BOOL) *(int64_t *)dst = a->bval;
    else return -1;
    return 0;
  case AK_BOOL:
    if (a->kind == AT_BOOL) *(bool *)dst = a->bval;
    else if (a->kind == AT_UNIT) *(bool *)dst = true;
    else if (a->kind == AT_INT) *(bool *)dst = a->ival != 0;
    else return -1;
    return 0;
  case AK_FLOAT:
    if (a->kind == AT_FLOAT) *(double *)dst = a->fval;
    else if (a->kind == AT_INT) *(double *)dst = (double)a->ival;
    else return -1;
    return 0;
  case AK_STRING: case AK_SYMBOL:
    if (a->kind != (t == AK_STRING ? AT_STRING : AT_SYMBOL) || !a->str) return -1;
    *(const char **)dst = a->str;
    return 0;
  case AK_TYPE:
    if (a->kind != AT_TYPE) return -1;
    *(Type **)dst = a->type;
    return 0;
  case AK_DENSE:
    if (a->kind != AT_DENSE || !a->dense) return -1;
    *(const DenseData **)dst = a->dense;
    return 0;
  case AK_PADDING: return padding_from(m, a, dst);
  case AK_PRECISION: return precision_from(a, dst);
  default: break;
  }
  if (t >= AK_ENUM0) {
    if (a->kind != AT_ENUM || !a->str) return -1;
    int k = attr_enum_lookup((AttrEnum)(t - AK_ENUM0), a->str);
    if (k < 0) {
      fail(op, "attribute '%s' has an unknown value", spec->name);
      return -2;
    }
    *(int *)dst = k;
    return 0;
  }
  if (a->kind != AT_STRUCT) return -1;
  return decode_struct(m, op, t, a, dst) < 0 ? -2 : 0;
}

/* The value of an absent attribute: its default, filled to the rank for
 * lists and paddings with AF_RANK / AF_SPATIAL. */
static int default_len(const Op *op, const AttrSpec *spec) {
  if (!(spec->flags & (AF_RANK | AF_SPATIAL))) return 0;
  const Type *t = op->nopnds > 0 ? op->opnds[0]->type : NULL;
  int n = t && t->kind == TY_TENSOR ? t->rank : 0;
  if (spec->flags & AF_SPATIAL) n = n >= 2 ? n - 2 : 0;
  return n;
}

static void set_default(Module *m, const Op *op, const AttrSpec *spec, void *dst) {
  int n = default_len(op, spec);
  switch (spec->type) {
  case AK_INTS: *(I64List *)dst = filled(m, n, (int64_t)spec->def); break;
  case AK_INT: case AK_I32: *(int64_t *)dst = (int64_t)spec->def; break;
  case AK_FLOAT: *(double *)dst = spec->def; break;
  case AK_BOOL: *(bool *)dst = spec->def != 0; break;
  case AK_PADDING:
    ((Window *)dst)->pad_lo = filled(m, n, 0);
    ((Window *)dst)->pad_hi = filled(m, n, 0);
    break;
  default: break; /* zero */
  }
}

static const Attr *find_field(const Attr *s, const char *name) {
  for (int i = 0; i < s->n; i++)
    if (!strcmp(s->fields[i].name, name)) return s->fields[i].value;
  return NULL;
}

/* Decodes the rows of `specs` owned by `owner` into base: the attributes
 * of op (s NULL) or the fields of structure s. */
static int decode_rows(Module *m, const Op *op, const AttrSpec *specs, int n, int owner,
                       const Attr *s, void *base) {
  const char *what = s ? "field" : "attribute";
  for (int i = 0; i < n; i++) {
    const AttrSpec *spec = &specs[i];
    if (spec->owner != owner) continue;
    void *dst = (char *)base + spec->offset;
    const Attr *a = s ? find_field(s, spec->name) : ir_attr(op, spec->name);
    char msg[128];
    if (!a) {
      snprintf(msg, sizeof msg, "missing %s '%%s'", what);
      if (spec->flags & AF_REQ) return fail(op, msg, spec->name);
      set_default(m, op, spec, dst);
      continue;
    }
    int r = decode_value(m, op, spec, a, dst);
    snprintf(msg, sizeof msg, "%s '%%s' must be %s", what, kind_words(spec->type));
    if (r == -1) return fail(op, msg, spec->name);
    if (r < 0) return -1;
  }
  return 0;
}

static int decode_struct(Module *m, const Op *op, AttrType s, const Attr *a, void *dst) {
  return decode_rows(m, op, struct_fields, N_STRUCT_FIELDS, (int)s, a, dst);
}

int attrs_decode(Module *m, Op *op) {
  memset(&op->a, 0, sizeof op->a);
  return decode_rows(m, op, op_attrs, N_OP_ATTRS, (int)op->code, NULL, &op->a);
}

/* ------------------------------------------------------------------------ */
/* Encoding: typed -> generic                                                */

static bool list_is(const I64List *l, int n, int64_t v) {
  if (l->n != n) return false;
  for (int i = 0; i < n; i++)
    if (l->v[i] != v) return false;
  return true;
}

/* dense<[[lo, hi], ...]> : tensor<Nx2xi64> */
static Attr *padding_attr(Module *m, const Window *w) {
  int n = w->pad_lo.n;
  int64_t dims[2] = {n, 2};
  DenseData *d = ARENA_NEW(&m->arena, DenseData);
  d->type = type_tensor(m->types, ET_SI64, 2, dims);
  d->nbytes = sizeof(int64_t) * 2 * (size_t)n;
  d->bytes = arena_alloc(&m->arena, d->nbytes > 0 ? d->nbytes : 1);
  for (int i = 0; i < n; i++) {
    int64_t pair[2] = {w->pad_lo.v[i], i < w->pad_hi.n ? w->pad_hi.v[i] : 0};
    memcpy(d->bytes + 16 * (size_t)i, pair, 16);
  }
  return attr_dense(m, d);
}

static Attr *encode_struct(Module *m, const Op *op, AttrType s, const void *src, bool required);

/* The generic form of the value at src; NULL when an optional attribute
 * holds its default (it is then left out, as upstream prints it). */
static Attr *encode_value(Module *m, const Op *op, const AttrSpec *spec, const void *src) {
  bool opt = !(spec->flags & AF_REQ);
  switch (spec->type) {
  case AK_INTS: {
    const I64List *l = src;
    if (opt && list_is(l, default_len(op, spec), (int64_t)spec->def)) return NULL;
    return attr_i64_array(m, l->v, l->n);
  }
  case AK_INT: case AK_I32: {
    int64_t v = *(const int64_t *)src;
    if (opt && v == (int64_t)spec->def) return NULL;
    return attr_int(m, v, spec->type == AK_I32 ? ET_SI32 : ET_SI64);
  }
  case AK_BOOL: {
    bool v = *(const bool *)src;
    if (opt && v == (spec->def != 0)) return NULL;
    return attr_bool(m, v);
  }
  case AK_FLOAT: {
    double v = *(const double *)src;
    if (opt && v == spec->def) return NULL;
    return attr_float(m, v, ET_F64);
  }
  case AK_STRING: case AK_SYMBOL: {
    const char *v = *(const char *const *)src;
    if (!v) return NULL;
    return spec->type == AK_STRING ? attr_string(m, v) : attr_symbol(m, v);
  }
  case AK_TYPE: {
    Type *t = *(Type *const *)src;
    return t ? attr_type(m, t) : NULL;
  }
  case AK_DENSE: {
    const DenseData *d = *(const DenseData *const *)src;
    return d ? attr_dense(m, d) : NULL;
  }
  case AK_PADDING: {
    const Window *w = src;
    bool zero = list_is(&w->pad_lo, w->pad_lo.n, 0) && list_is(&w->pad_hi, w->pad_hi.n, 0);
    return opt && zero ? NULL : padding_attr(m, w);
  }
  case AK_PRECISION: {
    const int *p = src;
    if (opt && p[0] == 0 && p[1] == 0) return NULL;
    Attr *a = attr_new(m, AT_ARRAY);
    a->n = 2;
    a->items = ARENA_ARRAY(&m->arena, Attr *, 2);
    for (int i = 0; i < 2; i++)
      a->items[i] = attr_enum(m, attr_enum_name(EN_PRECISION), attr_enum_value(EN_PRECISION, p[i]));
    return a;
  }
  default: break;
  }
  if (spec->type >= AK_ENUM0) {
    AttrEnum e = (AttrEnum)(spec->type - AK_ENUM0);
    int v = *(const int *)src;
    if (opt && v == 0) return NULL;
    return attr_enum(m, attr_enum_name(e), attr_enum_value(e, v));
  }
  return encode_struct(m, op, spec->type, src, !opt);
}

/* A structure's fields (list fields as untyped `[..]`, integers untyped,
 * defaults left out); NULL when optional and every field is left out. */
static Attr *encode_struct(Module *m, const Op *op, AttrType s, const void *src, bool required) {
  NamedAttr *fields = ARENA_ARRAY(&m->arena, NamedAttr, N_STRUCT_FIELDS);
  int n = 0;
  for (int i = 0; i < N_STRUCT_FIELDS; i++) {
    const AttrSpec *f = &struct_fields[i];
    if (f->owner != (int)s) continue;
    const void *p = (const char *)src + f->offset;
    Attr *v;
    if (f->type == AK_INTS) {
      const I64List *l = p;
      v = l->n || (f->flags & AF_REQ) ? attr_int_list(m, l->v, l->n) : NULL;
    } else if (f->type == AK_INT) {
      int64_t x = *(const int64_t *)p;
      v = x != (int64_t)f->def || (f->flags & AF_REQ) ? attr_int(m, x, ET_COUNT) : NULL;
    } else {
      v = encode_value(m, op, f, p);
    }
    if (v) fields[n++] = (NamedAttr){f->name, v};
  }
  if (n == 0 && !required) return NULL;
  return attr_struct(m, attr_struct_name(s), fields, n);
}

static void remove_attr(Op *op, const char *name) {
  for (int i = 0; i < op->nattrs; i++)
    if (!strcmp(op->attrs[i].name, name)) {
      memmove(op->attrs + i, op->attrs + i + 1, sizeof *op->attrs * (size_t)(op->nattrs - i - 1));
      op->nattrs--;
      return;
    }
}

void attrs_encode(Module *m, Op *op) {
  for (int i = 0; i < N_OP_ATTRS; i++) {
    const AttrSpec *spec = &op_attrs[i];
    if (spec->owner != (int)op->code) continue;
    Attr *a = encode_value(m, op, spec, (const char *)&op->a + spec->offset);
    if (a) ir_set_attr(m, op, spec->name, a);
    else remove_attr(op, spec->name);
  }
}
