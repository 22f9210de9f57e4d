/*
 * vhlo.c: the dialects of a StableHLO portable artifact as bytecode.c
 * meets them.
 *
 *  - builtin: the module op, its attributes, and locations
 *    (BuiltinDialectBytecode.td in MLIR);
 *  - vhlo: versioned StableHLO (VhloBytecode.cpp, VhloTypes.td,
 *    VhloAttrs.td, VhloOps.td in openxla/stablehlo). `vhlo.add_v1` is
 *    stablehlo.add, `vhlo.tensor_v1<dense<...>>` a dense literal, and so
 *    on: the IR built is the one the text parser builds from the StableHLO
 *    text of the same program (VhloLegalizeToStablehlo.cpp states the
 *    correspondence).
 *
 * Every custom encoding starts with a varint code naming the kind of
 * attribute or type; an unknown code is an error naming the dialect.
 */
#include <stdlib.h>
#include <string.h>

#include "frontend_internal.h"

/* ------------------------------------------------------------------------ */
/* Types                                                                     */

/* vhlo type codes (VhloBytecode.cpp, TypeCode) of element types, and the
 * builtin ones (BuiltinDialectBytecode.td). */
static const struct {
  int code;
  ElemType elem;
} vhlo_elems[] = {
    {0, ET_I1},          {2, ET_BF16},        {3, ET_F16},          {4, ET_F32},
    {5, ET_F64},         {6, ET_F8E4M3FN},    {7, ET_F8E5M2},       {9, ET_INDEX},
    {10, ET_SI4},        {11, ET_SI8},        {12, ET_SI16},        {13, ET_SI32},
    {14, ET_SI64},       {15, ET_UI4},        {16, ET_UI8},         {17, ET_UI16},
    {18, ET_UI32},       {19, ET_UI64},       {27, ET_F8E4M3FNUZ},  {28, ET_F8E5M2FNUZ},
    {29, ET_F8E4M3B11FNUZ}, {31, ET_SI2},     {32, ET_UI2},         {34, ET_TF32},
    {35, ET_F8E4M3},     {36, ET_F8E3M4},     {37, ET_F4E2M1FN},    {38, ET_F6E2M3FN},
    {39, ET_F6E3M2FN},   {40, ET_F8E8M0FNU},
};

enum {
  VT_COMPLEX = 1, VT_FUNCTION = 8, VT_RANKED_TENSOR = 20, VT_RANKED_TENSOR_ENC = 21,
  VT_TOKEN = 22, VT_TUPLE = 23, VT_QUANT = 24, VT_UNRANKED_TENSOR = 25,
  VT_QUANT_PER_AXIS = 30, VT_NONE = 33,
};

enum {
  BT_CODE_INTEGER = 0, BT_CODE_INDEX = 1, BT_CODE_FUNCTION = 2, BT_CODE_BF16 = 3, BT_CODE_F16 = 4,
  BT_CODE_F32 = 5, BT_CODE_F64 = 6, BT_CODE_COMPLEX = 9, BT_CODE_NONE = 12,
  BT_CODE_RANKED_TENSOR = 13, BT_CODE_RANKED_TENSOR_ENC = 14, BT_CODE_TUPLE = 15,
};

static bool elem_of(BcCursor *c, ElemType *e, const QuantInfo **q) {
  *e = ET_COUNT;
  *q = NULL;
  const uint8_t *at = c->p;
  const BcType *t = bc_type(c);
  if (!t) return false;
  if (t->kind != BT_ELEM) {
    c->p = at;
    return bc_error(c, "expected an element type");
  }
  *e = t->elem;
  *q = t->quant;
  return true;
}

/* shape ::= n:varint dim:svarint*, then the element type. A dynamic
 * dimension is INT64_MIN, as DIM_DYNAMIC. */
static bool read_tensor(BcCursor *c, BcType *out) {
  uint64_t rank;
  if (!bc_varint(c, &rank)) return false;
  if (rank > MAX_RANK) return bc_error(c, "tensor of rank %llu", (unsigned long long)rank);
  int64_t dims[MAX_RANK];
  for (uint64_t i = 0; i < rank; i++) {
    if (!bc_svarint(c, &dims[i])) return false;
    if (dims[i] < 0 && dims[i] != DIM_DYNAMIC) return bc_error(c, "negative dimension");
  }
  ElemType e;
  const QuantInfo *q;
  if (!elem_of(c, &e, &q)) return false;
  Module *m = bc_module(c);
  out->kind = BT_VALUE;
  out->type = q ? type_tensor_quant(m->types, q, (int)rank, dims)
                : type_tensor(m->types, e, (int)rank, dims);
  return true;
}

/* A ranked tensor type with an encoding: #vhlo.type_extensions_v1 gives
 * the bounds of its `?` sizes (checked as the text parser checks them),
 * any other encoding is dropped. */
static bool read_tensor_enc(BcCursor *c, BcType *out) {
  const BcAttr *enc = bc_attr(c);
  if (!enc || !read_tensor(c, out)) return false;
  const Attr *b = enc->attr;
  if (!b || b->kind != AT_DENSE_ARRAY || out->type->kind != TY_TENSOR) return true;
  const Type *t = out->type;
  if (b->n != t->rank)
    return bc_error(c, "bounds length is %d, expected to be equal to rank(%d) of the tensor", b->n,
                    t->rank);
  for (int i = 0; i < t->rank; i++) {
    if (b->ints[i] != DIM_DYNAMIC && t->dims[i] != DIM_DYNAMIC)
      return bc_error(c, "static dimension %d cannot have a bound", i);
    if (b->ints[i] != DIM_DYNAMIC && b->ints[i] < 0) return bc_error(c, "negative bound");
  }
  out->type = type_with_bounds(bc_module(c)->types, t, b->ints);
  return true;
}

static bool read_types(BcCursor *c, int *n, Type ***out) {
  uint64_t k;
  if (!bc_varint(c, &k)) return false;
  if (k > (uint64_t)(c->end - c->p)) return bc_error(c, "%llu types cannot fit", (unsigned long long)k);
  *n = (int)k;
  *out = ARENA_ARRAY(&bc_module(c)->arena, Type *, k + 1);
  for (uint64_t i = 0; i < k; i++)
    if (!((*out)[i] = bc_value_type(c))) return false;
  return true;
}

static bool read_complex(BcCursor *c, BcType *out) {
  ElemType e;
  const QuantInfo *q;
  if (!elem_of(c, &e, &q)) return false;
  if (e != ET_F32 && e != ET_F64) return bc_error(c, "complex<%s> is not supported", elem_name(e));
  *out = (BcType){.kind = BT_ELEM, .elem = e == ET_F32 ? ET_C64 : ET_C128};
  return true;
}

/* The range of a storage type for a quantized type's flags (bit 0:
 * signed). */
static bool read_quant(BcCursor *c, bool per_axis, BcType *out) {
  Module *m = bc_module(c);
  uint64_t flags, axis = 0;
  ElemType storage, expressed;
  const QuantInfo *q;
  QuantInfo *qi = ARENA_NEW(&m->arena, QuantInfo);
  if (!bc_varint(c, &flags) || !elem_of(c, &storage, &q) || !elem_of(c, &expressed, &q))
    return false;
  int64_t zp = 0;
  if (per_axis) {
    if (!bc_varint(c, &axis) || !bc_svarint(c, &qi->storage_min) || !bc_svarint(c, &qi->storage_max))
      return false;
    uint64_t n, nz;
    if (!bc_varint(c, &n)) return false;
    if (n == 0 || n > (uint64_t)(c->end - c->p)) return bc_error(c, "bad scale count");
    qi->nscales = (int)n;
    qi->scales = ARENA_ARRAY(&m->arena, double, n);
    qi->zero_points = ARENA_ARRAY(&m->arena, int64_t, n);
    for (uint64_t i = 0; i < n; i++) {
      int64_t bits;
      if (!bc_svarint(c, &bits)) return false;
      memcpy(&qi->scales[i], &bits, 8);
    }
    if (!bc_varint(c, &nz)) return false;
    if (nz != n) return bc_error(c, "%llu zero points for %llu scales", (unsigned long long)nz,
                                 (unsigned long long)n);
    for (uint64_t i = 0; i < n; i++)
      if (!bc_svarint(c, &qi->zero_points[i])) return false;
    if (axis > MAX_RANK) return bc_error(c, "quantized dimension %llu", (unsigned long long)axis);
    qi->axis = (int)axis;
  } else {
    int64_t bits;
    qi->nscales = 1;
    qi->scales = ARENA_NEW(&m->arena, double);
    qi->zero_points = ARENA_NEW(&m->arena, int64_t);
    if (!bc_svarint(c, &bits) || !bc_svarint(c, &zp) || !bc_svarint(c, &qi->storage_min) ||
        !bc_svarint(c, &qi->storage_max))
      return false;
    memcpy(qi->scales, &bits, 8);
    qi->zero_points[0] = zp;
    qi->axis = -1;
  }
  /* The storage type is signless in VHLO; the flag says how to read it. */
  if (!elem_is_int(storage) || !elem_is_float(expressed))
    return bc_error(c, "quantized type over %s and %s", elem_name(storage), elem_name(expressed));
  if (!(flags & 1) && elem_class(storage) == 's') {
    static const ElemType unsigned_of[][2] = {{ET_SI2, ET_UI2}, {ET_SI4, ET_UI4}, {ET_SI8, ET_UI8},
                                              {ET_SI16, ET_UI16}, {ET_SI32, ET_UI32}, {ET_SI64, ET_UI64}};
    for (size_t i = 0; i < sizeof unsigned_of / sizeof unsigned_of[0]; i++)
      if (unsigned_of[i][0] == storage) storage = unsigned_of[i][1];
  }
  qi->storage = storage;
  qi->expressed = expressed;
  *out = (BcType){.kind = BT_ELEM, .elem = ET_QUANT, .quant = qi};
  return true;
}

static bool read_vhlo_type(BcCursor *c, uint64_t code, BcType *out) {
  for (size_t i = 0; i < sizeof vhlo_elems / sizeof vhlo_elems[0]; i++)
    if ((uint64_t)vhlo_elems[i].code == code) {
      *out = (BcType){.kind = BT_ELEM, .elem = vhlo_elems[i].elem};
      return true;
    }
  Module *m = bc_module(c);
  switch (code) {
  case VT_COMPLEX:
    return read_complex(c, out);
  case VT_FUNCTION:
    out->kind = BT_FUNC;
    return read_types(c, &out->nin, &out->ins) && read_types(c, &out->nout, &out->outs);
  case VT_RANKED_TENSOR_ENC:
    return read_tensor_enc(c, out);
  case VT_RANKED_TENSOR:
    return read_tensor(c, out);
  case VT_TOKEN:
    *out = (BcType){.kind = BT_VALUE, .type = type_token(m->types)};
    return true;
  case VT_TUPLE: {
    int n;
    Type **elems;
    if (!read_types(c, &n, &elems)) return false;
    *out = (BcType){.kind = BT_VALUE, .type = type_tuple(m->types, n, elems)};
    return true;
  }
  case VT_QUANT:
  case VT_QUANT_PER_AXIS:
    return read_quant(c, code == VT_QUANT_PER_AXIS, out);
  case VT_NONE:
    out->kind = BT_NONE;
    return true;
  case VT_UNRANKED_TENSOR:
    return bc_error(c, "unranked tensor types are not supported");
  default:
    return bc_error(c, "unknown vhlo type code %llu", (unsigned long long)code);
  }
}

/* Builtin types, for the module's attributes and locations. */
static bool read_builtin_type(BcCursor *c, uint64_t code, BcType *out) {
  static const ElemType floats[] = {[BT_CODE_BF16] = ET_BF16, [BT_CODE_F16] = ET_F16,
                                    [BT_CODE_F32] = ET_F32, [BT_CODE_F64] = ET_F64};
  uint64_t ws;
  switch (code) {
  case BT_CODE_INTEGER: {
    if (!bc_varint(c, &ws)) return false;
    uint64_t width = ws >> 2, sign = ws & 3; /* 0 signless, 1 signed, 2 unsigned */
    char name[32];
    snprintf(name, sizeof name, "%si%llu", sign == 2 ? "u" : "", (unsigned long long)width);
    ElemType e = elem_lookup(name, strlen(name));
    if (e == ET_COUNT || sign == 3) return bc_error(c, "integer type of width %llu", (unsigned long long)width);
    *out = (BcType){.kind = BT_ELEM, .elem = e};
    return true;
  }
  case BT_CODE_INDEX:
    *out = (BcType){.kind = BT_ELEM, .elem = ET_INDEX};
    return true;
  case BT_CODE_BF16: case BT_CODE_F16: case BT_CODE_F32: case BT_CODE_F64:
    *out = (BcType){.kind = BT_ELEM, .elem = floats[code]};
    return true;
  case BT_CODE_FUNCTION:
    out->kind = BT_FUNC;
    return read_types(c, &out->nin, &out->ins) && read_types(c, &out->nout, &out->outs);
  case BT_CODE_COMPLEX:
    return read_complex(c, out);
  case BT_CODE_NONE:
    out->kind = BT_NONE;
    return true;
  case BT_CODE_RANKED_TENSOR_ENC:
    if (!bc_attr(c)) return false;
    return read_tensor(c, out);
  case BT_CODE_RANKED_TENSOR:
    return read_tensor(c, out);
  case BT_CODE_TUPLE: {
    int n;
    Type **elems;
    if (!read_types(c, &n, &elems)) return false;
    *out = (BcType){.kind = BT_VALUE, .type = type_tuple(bc_module(c)->types, n, elems)};
    return true;
  }
  default:
    return bc_error(c, "unsupported builtin type code %llu", (unsigned long long)code);
  }
}

bool vhlo_read_type(BcCursor *c, const char *dialect, BcType *out) {
  uint64_t code;
  if (!bc_varint(c, &code)) return false;
  return strcmp(dialect, "vhlo") ? read_builtin_type(c, code, out) : read_vhlo_type(c, code, out);
}

/* ------------------------------------------------------------------------ */
/* Attributes                                                                */

enum {
  VA_ARRAY = 1, VA_BOOL = 2, VA_CMP_DIR = 3, VA_CMP_TYPE = 4, VA_API_VERSION = 5, VA_DICT = 6,
  VA_FFT_TYPE = 7, VA_FLOAT = 8, VA_INTEGER = 9, VA_OUTPUT_OPERAND_ALIAS = 10, VA_PRECISION = 11,
  VA_RNG_ALGORITHM = 12, VA_RNG_DISTRIBUTION = 13, VA_STRING = 14, VA_TENSOR = 15,
  VA_TRANSPOSE = 16, VA_TYPE = 17, VA_TYPE_EXTENSIONS = 18, VA_ACCURACY_MODE = 19,
  VA_ACCURACY = 20,
};

enum {
  BA_CODE_ARRAY = 0, BA_CODE_DICT = 1, BA_CODE_STRING = 2, BA_CODE_STRING_TYPED = 3,
  BA_CODE_FLAT_SYMBOL = 4, BA_CODE_SYMBOL = 5, BA_CODE_TYPE = 6, BA_CODE_UNIT = 7,
  BA_CODE_INTEGER = 8, BA_CODE_FLOAT = 9, BA_CODE_CALL_SITE_LOC = 10, BA_CODE_FILE_LOC = 11,
  BA_CODE_FUSED_LOC = 12, BA_CODE_FUSED_LOC_META = 13, BA_CODE_NAME_LOC = 14,
  BA_CODE_UNKNOWN_LOC = 15, BA_CODE_DENSE_ARRAY = 17, BA_CODE_DENSE = 18,
  BA_CODE_FILE_RANGE_LOC = 22,
};

/* VHLO enumerations: the ATTR_ENUMS entry, and the VHLO value of its
 * first spelling (VhloEnums.td: RngDistribution and Transpose start at 1). */
static const struct {
  int code;
  AttrEnum e;
  int first;
} vhlo_enums[] = {
    {VA_CMP_DIR, EN_COMPARISON_DIRECTION, 0}, {VA_CMP_TYPE, EN_COMPARISON_TYPE, 0},
    {VA_FFT_TYPE, EN_FFT_TYPE, 0},             {VA_PRECISION, EN_PRECISION, 0},
    {VA_RNG_ALGORITHM, EN_RNG_ALGORITHM, 0},   {VA_RNG_DISTRIBUTION, EN_RNG_DISTRIBUTION, 1},
    {VA_TRANSPOSE, EN_TRANSPOSE, 1},
};

static BcAttr value(Attr *a) { return (BcAttr){.kind = BA_VALUE, .attr = a}; }

/* An attribute reference that must be a value (not a location). */
static Attr *value_ref(BcCursor *c) {
  const uint8_t *at = c->p;
  const BcAttr *a = bc_attr(c);
  if (!a) return NULL;
  if (a->kind != BA_VALUE) {
    c->p = at;
    bc_error(c, "expected an attribute value");
    return NULL;
  }
  return a->attr;
}

static bool read_array(BcCursor *c, BcAttr *out) {
  uint64_t n;
  if (!bc_varint(c, &n)) return false;
  if (n > (uint64_t)(c->end - c->p)) return bc_error(c, "array of %llu cannot fit", (unsigned long long)n);
  Module *m = bc_module(c);
  Attr *a = attr_new(m, AT_ARRAY);
  a->n = (int)n;
  a->items = ARENA_ARRAY(&m->arena, Attr *, n + 1);
  for (uint64_t i = 0; i < n; i++)
    if (!(a->items[i] = value_ref(c))) return false;
  *out = value(a);
  return true;
}

/* dict ::= n:varint (name value)*; names are string attributes. */
static bool read_dict(BcCursor *c, BcAttr *out) {
  uint64_t n;
  if (!bc_varint(c, &n)) return false;
  if (n > (uint64_t)(c->end - c->p) / 2) return bc_error(c, "dictionary of %llu cannot fit", (unsigned long long)n);
  Module *m = bc_module(c);
  Attr *a = attr_new(m, AT_DICT);
  a->n = (int)n;
  a->fields = ARENA_ARRAY(&m->arena, NamedAttr, n + 1);
  for (uint64_t i = 0; i < n; i++) {
    Attr *name = value_ref(c);
    if (!name) return false;
    if (name->kind != AT_STRING) return bc_error(c, "dictionary key that is not a string");
    a->fields[i].name = name->str;
    if (!(a->fields[i].value = value_ref(c))) return false;
  }
  *out = value(a);
  return true;
}

static bool read_string(BcCursor *c, BcAttr *out) {
  const char *s;
  if (!bc_string(c, &s)) return false;
  *out = value(attr_string(bc_module(c), s));
  return true;
}

/* APInt of a known width: one byte up to 8 bits, else a signed varint. */
static bool read_apint(BcCursor *c, int bits, int64_t *v) {
  if (bits <= 8) {
    uint8_t b;
    if (!bc_byte(c, &b)) return false;
    *v = b;
    return true;
  }
  if (bits > 64) return bc_error(c, "%d-bit integer", bits);
  return bc_svarint(c, v);
}

/* integer ::= type value: the value sign-extended from its width, as the
 * text parser keeps it (unsigned types as their bits). */
static bool read_integer(BcCursor *c, BcAttr *out) {
  ElemType e;
  const QuantInfo *q;
  if (!elem_of(c, &e, &q)) return false;
  if (e != ET_INDEX && e != ET_I1 && !elem_is_int(e))
    return bc_error(c, "integer attribute of type %s", elem_name(e));
  int bits = elem_bits(e);
  int64_t v;
  if (!read_apint(c, bits, &v)) return false;
  if (bits < 64 && elem_class(e) == 's') v = (int64_t)((uint64_t)v << (64 - bits)) >> (64 - bits);
  else if (bits < 64) v &= (int64_t)((1ull << bits) - 1);
  Module *m = bc_module(c);
  *out = value(e == ET_I1 ? attr_bool(m, v & 1) : attr_int(m, v, e == ET_INDEX ? ET_INDEX : e));
  return true;
}

static bool read_float(BcCursor *c, BcAttr *out) {
  ElemType e;
  const QuantInfo *q;
  if (!elem_of(c, &e, &q)) return false;
  if (e != ET_F16 && e != ET_BF16 && e != ET_F32 && e != ET_F64)
    return bc_error(c, "float attribute of type %s is not supported", elem_name(e));
  int64_t bits;
  if (!read_apint(c, elem_bits(e), &bits)) return false;
  Module *m = bc_module(c);
  uint8_t raw[8];
  memcpy(raw, &bits, 8);
  DenseData d = {.type = type_tensor(m->types, e, 0, NULL), .nbytes = (size_t)elem_bytes(e), .bytes = raw};
  *out = value(attr_float(m, dense_get_f64(&d, 0), e));
  return true;
}

/* tensor ::= type blob:(size:varint bytes). Booleans may come packed, one
 * bit per element (VhloBytecode.cpp writes them so). */
static bool read_tensor_attr(BcCursor *c, BcAttr *out) {
  Type *t = bc_value_type(c);
  if (!t) return false;
  uint64_t n;
  const uint8_t *blob;
  if (!bc_varint(c, &n) || !bc_bytes(c, n, &blob)) return false;
  if (t->kind != TY_TENSOR || !type_is_static(t) || t->elem == ET_QUANT)
    return bc_error(c, "dense attribute of type %s", type_str(&bc_module(c)->arena, t));
  Module *m = bc_module(c);
  int64_t count = type_num_elems(t);
  uint8_t *unpacked = NULL;
  /* A splat boolean is one byte, 0x00 or 0xFF, whatever the count. */
  bool splat = t->elem == ET_I1 && count > 1 && n == 1 && (blob[0] == 0 || blob[0] == 0xFF);
  if (!splat && t->elem == ET_I1 && count > 1 && n == (uint64_t)(count + 7) / 8 &&
      n != (uint64_t)count) {
    unpacked = ARENA_ARRAY(&m->arena, uint8_t, count);
    for (int64_t i = 0; i < count; i++) unpacked[i] = (blob[i / 8] >> (i % 8)) & 1;
    blob = unpacked;
    n = (uint64_t)count;
  }
  DenseData *d = dense_from_raw(m, t, blob, (size_t)n);
  if (!d) return bc_error(c, "%llu bytes of data for %s", (unsigned long long)n, type_str(&m->arena, t));
  /* MLIR calls a one-element literal a splat and prints it as one. */
  if (count == 1) d->splat = true;
  *out = value(attr_dense(m, d));
  return true;
}

static bool is_enum_code(uint64_t code) {
  if (code == VA_API_VERSION || code == VA_ACCURACY_MODE) return true;
  for (size_t i = 0; i < sizeof vhlo_enums / sizeof vhlo_enums[0]; i++)
    if ((uint64_t)vhlo_enums[i].code == code) return true;
  return false;
}

/* enum ::= value:varint (VhloEnums.td numbering) */
static bool read_enum(BcCursor *c, uint64_t code, BcAttr *out) {
  uint64_t v;
  if (!bc_varint(c, &v)) return false;
  Module *m = bc_module(c);
  if (code == VA_API_VERSION) { /* stablehlo prints it as an i32 */
    *out = value(attr_int(m, (int64_t)v, ET_SI32));
    return v <= 4 || bc_error(c, "custom call API version %llu", (unsigned long long)v);
  }
  if (code == VA_ACCURACY_MODE) {
    static const char *const modes[] = {"DEFAULT", "HIGHEST", "TOLERANCE"};
    if (v > 2) return bc_error(c, "result accuracy mode %llu", (unsigned long long)v);
    *out = value(attr_enum(m, "result_accuracy_mode", modes[v]));
    return true;
  }
  for (size_t i = 0; i < sizeof vhlo_enums / sizeof vhlo_enums[0]; i++) {
    if ((uint64_t)vhlo_enums[i].code != code) continue;
    AttrEnum e = vhlo_enums[i].e;
    const char *s = v >= (uint64_t)vhlo_enums[i].first
                        ? attr_enum_value(e, (int)(v - (uint64_t)vhlo_enums[i].first)) : NULL;
    if (!s) return bc_error(c, "value %llu of enumeration %s", (unsigned long long)v, attr_enum_name(e));
    *out = value(attr_enum(m, attr_enum_name(e), s));
    return true;
  }
  return false;
}

static Attr *field_list(Module *m, const int64_t *v, int n) { return attr_int_list(m, v, n); }

static bool read_ints(BcCursor *c, int64_t **v, int *n) {
  uint64_t k;
  if (!bc_varint(c, &k)) return false;
  if (k > (uint64_t)(c->end - c->p)) return bc_error(c, "list of %llu cannot fit", (unsigned long long)k);
  *n = (int)k;
  *v = ARENA_ARRAY(&bc_module(c)->arena, int64_t, k + 1);
  for (uint64_t i = 0; i < k; i++)
    if (!bc_svarint(c, &(*v)[i])) return false;
  return true;
}

/* #stablehlo.output_operand_alias<output_tuple_indices = [...],
 * operand_index = i, operand_tuple_indices = [...]> */
static bool read_output_operand_alias(BcCursor *c, BcAttr *out) {
  Module *m = bc_module(c);
  int64_t *a, *b, idx;
  int na, nb;
  if (!read_ints(c, &a, &na) || !bc_svarint(c, &idx) || !read_ints(c, &b, &nb)) return false;
  NamedAttr *f = ARENA_ARRAY(&m->arena, NamedAttr, 3);
  f[0] = (NamedAttr){"output_tuple_indices", field_list(m, a, na)};
  f[1] = (NamedAttr){"operand_index", attr_int(m, idx, ET_COUNT)};
  f[2] = (NamedAttr){"operand_tuple_indices", field_list(m, b, nb)};
  *out = value(attr_struct(m, "output_operand_alias", f, 3));
  return true;
}

/* result_accuracy ::= atol:f64 rtol:f64 ulps:svarint mode:attr. The
 * default (all zero, DEFAULT) is what StableHLO leaves out: absent. */
static bool read_accuracy(BcCursor *c, BcAttr *out) {
  Module *m = bc_module(c);
  int64_t atol, rtol, ulps;
  if (!bc_svarint(c, &atol) || !bc_svarint(c, &rtol) || !bc_svarint(c, &ulps)) return false;
  Attr *mode = value_ref(c);
  if (!mode) return false;
  if (mode->kind != AT_ENUM) return bc_error(c, "result accuracy without a mode");
  if (!atol && !rtol && !ulps && !strcmp(mode->str, "DEFAULT")) {
    out->kind = BA_NONE;
    return true;
  }
  double a, r;
  memcpy(&a, &atol, 8);
  memcpy(&r, &rtol, 8);
  NamedAttr *f = ARENA_ARRAY(&m->arena, NamedAttr, 4);
  f[0] = (NamedAttr){"atol", attr_float(m, a, ET_COUNT)};
  f[1] = (NamedAttr){"rtol", attr_float(m, r, ET_COUNT)};
  f[2] = (NamedAttr){"ulps", attr_int(m, ulps, ET_COUNT)};
  f[3] = (NamedAttr){"mode", mode};
  *out = value(attr_struct(m, "result_accuracy", f, 4));
  return true;
}

static bool read_type_attr(BcCursor *c, BcAttr *out) {
  const BcType *t = bc_type(c);
  if (!t) return false;
  Module *m = bc_module(c);
  switch (t->kind) {
  case BT_NONE:
    out->kind = BA_NONE;
    return true;
  case BT_VALUE:
    *out = value(attr_type(m, t->type));
    break;
  case BT_ELEM:
    *out = value(attr_type(m, t->quant ? type_tensor_quant(m->types, t->quant, 0, NULL)
                                       : type_tensor(m->types, t->elem, 0, NULL)));
    break;
  case BT_FUNC: /* vhlo.func_v1's function_type; bytecode.c takes it */
    out->kind = BA_VALUE;
    out->attr = attr_new(m, AT_UNIT);
    break;
  }
  out->type = t;
  return true;
}

static bool read_vhlo_attr(BcCursor *c, uint64_t code, BcAttr *out) {
  Module *m = bc_module(c);
  switch (code) {
  case VA_ARRAY:
    return read_array(c, out);
  case VA_BOOL: {
    uint64_t v;
    if (!bc_varint(c, &v)) return false;
    if (v > 1) return bc_error(c, "boolean %llu", (unsigned long long)v);
    *out = value(attr_bool(m, v));
    return true;
  }
  case VA_DICT:
    return read_dict(c, out);
  case VA_FLOAT:
    return read_float(c, out);
  case VA_INTEGER:
    return read_integer(c, out);
  case VA_OUTPUT_OPERAND_ALIAS:
    return read_output_operand_alias(c, out);
  case VA_STRING:
    return read_string(c, out);
  case VA_TENSOR:
    return read_tensor_attr(c, out);
  case VA_TYPE:
    return read_type_attr(c, out);
  case VA_TYPE_EXTENSIONS: { /* bounds of a tensor type (read_tensor_enc) */
    Attr *a = attr_new(m, AT_DENSE_ARRAY);
    a->array_elem = ET_SI64;
    if (!read_ints(c, &a->ints, &a->n)) return false;
    *out = value(a);
    return true;
  }
  case VA_ACCURACY:
    return read_accuracy(c, out);
  default:
    if (is_enum_code(code)) return read_enum(c, code, out);
    return bc_error(c, "unknown vhlo attribute code %llu", (unsigned long long)code);
  }
}

/* Locations: the first file position found through names, call sites
 * (the callee: where the op is) and fusions. */
static bool read_loc(BcCursor *c, uint64_t code, BcAttr *out) {
  out->kind = BA_LOC;
  out->loc = (Loc){0};
  const BcAttr *a, *b;
  switch (code) {
  case BA_CODE_UNKNOWN_LOC:
    return true;
  case BA_CODE_NAME_LOC:
    if (!bc_attr(c) || !(a = bc_attr(c))) return false;
    out->loc = a->loc;
    return true;
  case BA_CODE_CALL_SITE_LOC:
    if (!(a = bc_attr(c)) || !(b = bc_attr(c))) return false;
    out->loc = a->loc.file ? a->loc : b->loc;
    return true;
  case BA_CODE_FUSED_LOC:
  case BA_CODE_FUSED_LOC_META: {
    uint64_t n;
    if (!bc_varint(c, &n)) return false;
    if (n > (uint64_t)(c->end - c->p)) return bc_error(c, "fused location of %llu cannot fit", (unsigned long long)n);
    for (uint64_t i = 0; i < n; i++) {
      if (!(a = bc_attr(c))) return false;
      if (!out->loc.file) out->loc = a->loc;
    }
    return code == BA_CODE_FUSED_LOC || bc_attr(c);
  }
  default: /* file:line:col, or a range (count, then line col [end] ...) */
    if (!(a = bc_attr(c))) return false;
    if (a->kind != BA_VALUE || a->attr->kind != AT_STRING) return bc_error(c, "file name that is not a string");
    uint64_t n = 2, v[4] = {0};
    if (code == BA_CODE_FILE_RANGE_LOC && !bc_varint(c, &n)) return false;
    if (n > 4) return bc_error(c, "file range of %llu numbers", (unsigned long long)n);
    for (uint64_t i = 0; i < n; i++)
      if (!bc_varint(c, &v[i])) return false;
    if (n > 0) out->loc = (Loc){srcfile_named(a->attr->str), (int)(v[0] & 0x7fffffff),
                                n > 1 ? (int)(v[1] & 0x7fffffff) : 0};
    return true;
  }
}

static bool read_builtin_attr(BcCursor *c, uint64_t code, BcAttr *out) {
  Module *m = bc_module(c);
  switch (code) {
  case BA_CODE_ARRAY:
    return read_array(c, out);
  case BA_CODE_DICT:
    return read_dict(c, out);
  case BA_CODE_STRING:
    return read_string(c, out);
  case BA_CODE_STRING_TYPED:
    return read_string(c, out) && bc_type(c);
  case BA_CODE_FLAT_SYMBOL: {
    Attr *s = value_ref(c);
    if (!s) return false;
    if (s->kind != AT_STRING) return bc_error(c, "symbol that is not a string");
    *out = value(attr_symbol(m, s->str));
    return true;
  }
  case BA_CODE_TYPE:
    return read_type_attr(c, out);
  case BA_CODE_UNIT:
    *out = value(attr_new(m, AT_UNIT));
    return true;
  case BA_CODE_INTEGER:
    return read_integer(c, out);
  case BA_CODE_FLOAT:
    return read_float(c, out);
  case BA_CODE_DENSE:
    return read_tensor_attr(c, out);
  case BA_CODE_DENSE_ARRAY: {
    ElemType e;
    const QuantInfo *q;
    uint64_t n, size;
    const uint8_t *b;
    if (!elem_of(c, &e, &q) || !bc_varint(c, &n) || !bc_varint(c, &size) || !bc_bytes(c, size, &b))
      return false;
    int nb = e == ET_I1 ? 1 : elem_bytes(e);
    if (!elem_is_int(e) && e != ET_I1) return bc_error(c, "array<%s> is not supported", elem_name(e));
    if (size != n * (uint64_t)nb) return bc_error(c, "array of %llu elements in %llu bytes",
                                                  (unsigned long long)n, (unsigned long long)size);
    int64_t *v = ARENA_ARRAY(&m->arena, int64_t, n + 1);
    for (uint64_t i = 0; i < n; i++) {
      uint64_t x = 0;
      for (int k = 0; k < nb; k++) x |= (uint64_t)b[i * nb + k] << (8 * k);
      int bits = 8 * nb;
      v[i] = bits < 64 && elem_class(e) == 's' ? (int64_t)(x << (64 - bits)) >> (64 - bits) : (int64_t)x;
    }
    *out = value(attr_dense_array(m, e, v, (int)n));
    return true;
  }
  case BA_CODE_CALL_SITE_LOC: case BA_CODE_FILE_LOC: case BA_CODE_FUSED_LOC:
  case BA_CODE_FUSED_LOC_META: case BA_CODE_NAME_LOC: case BA_CODE_UNKNOWN_LOC:
  case BA_CODE_FILE_RANGE_LOC:
    return read_loc(c, code, out);
  default:
    return bc_error(c, "unsupported builtin attribute code %llu", (unsigned long long)code);
  }
}

bool vhlo_read_attr(BcCursor *c, const char *dialect, BcAttr *out) {
  uint64_t code;
  if (!bc_varint(c, &code)) return false;
  *out = (BcAttr){0};
  return strcmp(dialect, "vhlo") ? read_builtin_attr(c, code, out) : read_vhlo_attr(c, code, out);
}

/* ------------------------------------------------------------------------ */
/* Operations                                                                */

/* VHLO_OPS(name, role, StableHLO op, attributes as VhloOps.td declares
 * them). In bytecode version >= 5 an op's attributes are its properties,
 * written without names in the order of their sorted names. Ops named
 * *_v2 replaced their *_v1 at some StableHLO version; both are read. */
#define VHLO_OPS(X)                                                                             \
  X("builtin.module", VR_MODULE, OP_COUNT, "sym_name sym_visibility")                           \
  X("vhlo.func_v1", VR_FUNC, OP_COUNT, "sym_name function_type sym_visibility arg_attrs res_attrs") \
  X("vhlo.return_v1", VR_RETURN, OP_RETURN, "")                                                 \
  X("vhlo.call_v1", VR_CALL, OP_FUNC_CALL, "callee")                                            \
  X("vhlo.abs_v1", VR_OP, OP_ABS, "")                                                           \
  X("vhlo.add_v1", VR_OP, OP_ADD, "")                                                           \
  X("vhlo.after_all_v1", VR_OP, OP_AFTER_ALL, "")                                               \
  X("vhlo.all_gather_v1", VR_OP, OP_ALL_GATHER, "all_gather_dim replica_groups channel_id use_global_device_ids") \
  X("vhlo.all_gather_v2", VR_OP, OP_ALL_GATHER, "all_gather_dim replica_groups channel_id use_global_device_ids") \
  X("vhlo.all_reduce_v1", VR_OP, OP_ALL_REDUCE, "replica_groups channel_id use_global_device_ids") \
  X("vhlo.all_reduce_v2", VR_OP, OP_ALL_REDUCE, "replica_groups channel_id use_global_device_ids") \
  X("vhlo.all_to_all_v1", VR_OP, OP_ALL_TO_ALL, "split_dimension concat_dimension split_count replica_groups channel_id") \
  X("vhlo.all_to_all_v2", VR_OP, OP_ALL_TO_ALL, "split_dimension concat_dimension split_count replica_groups channel_id") \
  X("vhlo.and_v1", VR_OP, OP_AND, "")                                                           \
  X("vhlo.atan2_v1", VR_OP, OP_ATAN2, "")                                                       \
  X("vhlo.batch_norm_grad_v1", VR_OP, OP_BATCH_NORM_GRAD, "epsilon feature_index")              \
  X("vhlo.batch_norm_inference_v1", VR_OP, OP_BATCH_NORM_INFERENCE, "epsilon feature_index")    \
  X("vhlo.batch_norm_training_v1", VR_OP, OP_BATCH_NORM_TRAINING, "epsilon feature_index")      \
  X("vhlo.bitcast_convert_v1", VR_OP, OP_BITCAST_CONVERT, "")                                   \
  X("vhlo.broadcast_in_dim_v1", VR_OP, OP_BROADCAST_IN_DIM, "broadcast_dimensions")             \
  X("vhlo.broadcast_v1", VR_OP, OP_BROADCAST, "broadcast_sizes")                                \
  X("vhlo.case_v1", VR_OP, OP_CASE, "")                                                         \
  X("vhlo.cbrt_v1", VR_OP, OP_CBRT, "")                                                         \
  X("vhlo.cbrt_v2", VR_OP, OP_CBRT, "result_accuracy")                                          \
  X("vhlo.ceil_v1", VR_OP, OP_CEIL, "")                                                         \
  X("vhlo.cholesky_v1", VR_OP, OP_CHOLESKY, "lower")                                            \
  X("vhlo.clamp_v1", VR_OP, OP_CLAMP, "")                                                       \
  X("vhlo.collective_broadcast_v1", VR_OP, OP_COLLECTIVE_BROADCAST, "replica_groups channel_id") \
  X("vhlo.collective_permute_v1", VR_OP, OP_COLLECTIVE_PERMUTE, "source_target_pairs channel_id") \
  X("vhlo.compare_v1", VR_OP, OP_COMPARE, "comparison_direction compare_type")                  \
  X("vhlo.complex_v1", VR_OP, OP_COMPLEX, "")                                                   \
  X("vhlo.composite_v1", VR_OP, OP_COMPOSITE, "name composite_attributes decomposition version") \
  X("vhlo.concatenate_v1", VR_OP, OP_CONCATENATE, "dimension")                                  \
  X("vhlo.constant_v1", VR_OP, OP_CONSTANT, "value")                                            \
  X("vhlo.convert_v1", VR_OP, OP_CONVERT, "")                                                   \
  X("vhlo.convolution_v1", VR_OP, OP_CONVOLUTION, "window_strides padding lhs_dilation rhs_dilation window_reversal input_batch_dimension input_feature_dimension input_spatial_dimensions kernel_input_feature_dimension kernel_output_feature_dimension kernel_spatial_dimensions output_batch_dimension output_feature_dimension output_spatial_dimensions feature_group_count batch_group_count precision_config") \
  X("vhlo.cosine_v1", VR_OP, OP_COSINE, "")                                                     \
  X("vhlo.cosine_v2", VR_OP, OP_COSINE, "result_accuracy")                                      \
  X("vhlo.count_leading_zeros_v1", VR_OP, OP_COUNT_LEADING_ZEROS, "")                           \
  X("vhlo.create_token_v1", VR_OP, OP_CREATE_TOKEN, "")                                         \
  X("vhlo.custom_call_v1", VR_OP, OP_CUSTOM_CALL, "call_target_name has_side_effect backend_config api_version called_computations operand_layouts result_layouts output_operand_aliases") \
  X("vhlo.divide_v1", VR_OP, OP_DIVIDE, "")                                                     \
  X("vhlo.dot_general_v1", VR_OP, OP_DOT_GENERAL, "lhs_batching_dimensions rhs_batching_dimensions lhs_contracting_dimensions rhs_contracting_dimensions precision_config") \
  X("vhlo.dot_general_v2", VR_OP, OP_DOT_GENERAL, "lhs_batching_dimensions rhs_batching_dimensions lhs_contracting_dimensions rhs_contracting_dimensions precision_config lhs_precision_type rhs_precision_type accumulation_type lhs_component_count rhs_component_count num_primitive_operations allow_imprecise_accumulation") \
  X("vhlo.dot_v1", VR_OP, OP_DOT, "precision_config")                                           \
  X("vhlo.dynamic_broadcast_in_dim_v1", VR_OP, OP_DYNAMIC_BROADCAST_IN_DIM, "broadcast_dimensions known_expanding_dimensions known_nonexpanding_dimensions") \
  X("vhlo.dynamic_conv_v1", VR_OP, OP_DYNAMIC_CONV, "window_strides padding lhs_dilation rhs_dilation window_reversal input_batch_dimension input_feature_dimension input_spatial_dimensions kernel_input_feature_dimension kernel_output_feature_dimension kernel_spatial_dimensions output_batch_dimension output_feature_dimension output_spatial_dimensions feature_group_count batch_group_count precision_config") \
  X("vhlo.dynamic_conv_v2", VR_OP, OP_DYNAMIC_CONV, "window_strides lhs_dilation rhs_dilation window_reversal input_batch_dimension input_feature_dimension input_spatial_dimensions kernel_input_feature_dimension kernel_output_feature_dimension kernel_spatial_dimensions output_batch_dimension output_feature_dimension output_spatial_dimensions feature_group_count batch_group_count precision_config") \
  X("vhlo.dynamic_gather_v1", VR_OP, OP_DYNAMIC_GATHER, "offset_dims collapsed_slice_dims start_index_map index_vector_dim indices_are_sorted") \
  X("vhlo.dynamic_gather_v2", VR_OP, OP_DYNAMIC_GATHER, "offset_dims collapsed_slice_dims operand_batching_dims start_indices_batching_dims start_index_map index_vector_dim indices_are_sorted") \
  X("vhlo.dynamic_iota_v1", VR_OP, OP_DYNAMIC_IOTA, "iota_dimension")                           \
  X("vhlo.dynamic_pad_v1", VR_OP, OP_DYNAMIC_PAD, "")                                           \
  X("vhlo.dynamic_reshape_v1", VR_OP, OP_DYNAMIC_RESHAPE, "")                                   \
  X("vhlo.dynamic_slice_v1", VR_OP, OP_DYNAMIC_SLICE, "slice_sizes")                            \
  X("vhlo.dynamic_update_slice_v1", VR_OP, OP_DYNAMIC_UPDATE_SLICE, "")                         \
  X("vhlo.einsum_v1", VR_OP, OP_EINSUM, "einsum_config")                                        \
  X("vhlo.exponential_v1", VR_OP, OP_EXPONENTIAL, "")                                           \
  X("vhlo.exponential_v2", VR_OP, OP_EXPONENTIAL, "result_accuracy")                            \
  X("vhlo.exponential_minus_one_v1", VR_OP, OP_EXPONENTIAL_MINUS_ONE, "")                       \
  X("vhlo.exponential_minus_one_v2", VR_OP, OP_EXPONENTIAL_MINUS_ONE, "result_accuracy")        \
  X("vhlo.fft_v1", VR_OP, OP_FFT, "fft_type fft_length")                                        \
  X("vhlo.floor_v1", VR_OP, OP_FLOOR, "")                                                       \
  X("vhlo.gather_v1", VR_OP, OP_GATHER, "offset_dims collapsed_slice_dims start_index_map index_vector_dim slice_sizes indices_are_sorted") \
  X("vhlo.gather_v2", VR_OP, OP_GATHER, "offset_dims collapsed_slice_dims operand_batching_dims start_indices_batching_dims start_index_map index_vector_dim slice_sizes indices_are_sorted") \
  X("vhlo.get_dimension_size_v1", VR_OP, OP_GET_DIMENSION_SIZE, "dimension")                    \
  X("vhlo.get_tuple_element_v1", VR_OP, OP_GET_TUPLE_ELEMENT, "index")                          \
  X("vhlo.if_v1", VR_OP, OP_IF, "")                                                             \
  X("vhlo.imag_v1", VR_OP, OP_IMAG, "")                                                         \
  X("vhlo.infeed_v1", VR_OP, OP_INFEED, "infeed_config layout")                                 \
  X("vhlo.iota_v1", VR_OP, OP_IOTA, "iota_dimension")                                           \
  X("vhlo.is_finite_v1", VR_OP, OP_IS_FINITE, "")                                               \
  X("vhlo.log_plus_one_v1", VR_OP, OP_LOG_PLUS_ONE, "")                                         \
  X("vhlo.log_plus_one_v2", VR_OP, OP_LOG_PLUS_ONE, "result_accuracy")                          \
  X("vhlo.log_v1", VR_OP, OP_LOG, "")                                                           \
  X("vhlo.log_v2", VR_OP, OP_LOG, "result_accuracy")                                            \
  X("vhlo.logistic_v1", VR_OP, OP_LOGISTIC, "")                                                 \
  X("vhlo.logistic_v2", VR_OP, OP_LOGISTIC, "result_accuracy")                                  \
  X("vhlo.map_v1", VR_OP, OP_MAP, "dimensions")                                                 \
  X("vhlo.maximum_v1", VR_OP, OP_MAXIMUM, "")                                                   \
  X("vhlo.minimum_v1", VR_OP, OP_MINIMUM, "")                                                   \
  X("vhlo.multiply_v1", VR_OP, OP_MULTIPLY, "")                                                 \
  X("vhlo.negate_v1", VR_OP, OP_NEGATE, "")                                                     \
  X("vhlo.not_v1", VR_OP, OP_NOT, "")                                                           \
  X("vhlo.optimization_barrier_v1", VR_OP, OP_OPTIMIZATION_BARRIER, "")                         \
  X("vhlo.or_v1", VR_OP, OP_OR, "")                                                             \
  X("vhlo.outfeed_v1", VR_OP, OP_OUTFEED, "outfeed_config")                                     \
  X("vhlo.pad_v1", VR_OP, OP_PAD, "edge_padding_low edge_padding_high interior_padding")        \
  X("vhlo.partition_id_v1", VR_OP, OP_PARTITION_ID, "")                                         \
  X("vhlo.popcnt_v1", VR_OP, OP_POPCNT, "")                                                     \
  X("vhlo.power_v1", VR_OP, OP_POWER, "")                                                       \
  X("vhlo.real_dynamic_slice_v1", VR_OP, OP_REAL_DYNAMIC_SLICE, "")                             \
  X("vhlo.real_v1", VR_OP, OP_REAL, "")                                                         \
  X("vhlo.recv_v1", VR_OP, OP_RECV, "channel_id channel_type is_host_transfer")                 \
  X("vhlo.reduce_v1", VR_OP, OP_REDUCE, "dimensions")                                           \
  X("vhlo.reduce_precision_v1", VR_OP, OP_REDUCE_PRECISION, "exponent_bits mantissa_bits")      \
  X("vhlo.reduce_scatter_v1", VR_OP, OP_REDUCE_SCATTER, "scatter_dimension replica_groups channel_id use_global_device_ids") \
  X("vhlo.reduce_window_v1", VR_OP, OP_REDUCE_WINDOW, "window_dimensions window_strides base_dilations window_dilations padding") \
  X("vhlo.remainder_v1", VR_OP, OP_REMAINDER, "")                                               \
  X("vhlo.replica_id_v1", VR_OP, OP_REPLICA_ID, "")                                             \
  X("vhlo.reshape_v1", VR_OP, OP_RESHAPE, "")                                                   \
  X("vhlo.reverse_v1", VR_OP, OP_REVERSE, "dimensions")                                         \
  X("vhlo.rng_bit_generator_v1", VR_OP, OP_RNG_BIT_GENERATOR, "rng_algorithm")                  \
  X("vhlo.rng_v1", VR_OP, OP_RNG, "rng_distribution")                                           \
  X("vhlo.round_nearest_afz_v1", VR_OP, OP_ROUND_NEAREST_AFZ, "")                               \
  X("vhlo.round_nearest_even_v1", VR_OP, OP_ROUND_NEAREST_EVEN, "")                             \
  X("vhlo.rsqrt_v1", VR_OP, OP_RSQRT, "")                                                       \
  X("vhlo.rsqrt_v2", VR_OP, OP_RSQRT, "result_accuracy")                                        \
  X("vhlo.scatter_v1", VR_OP, OP_SCATTER, "update_window_dims inserted_window_dims scatter_dims_to_operand_dims index_vector_dim indices_are_sorted unique_indices") \
  X("vhlo.scatter_v2", VR_OP, OP_SCATTER, "update_window_dims inserted_window_dims input_batching_dims scatter_indices_batching_dims scatter_dims_to_operand_dims index_vector_dim indices_are_sorted unique_indices") \
  X("vhlo.select_and_scatter_v1", VR_OP, OP_SELECT_AND_SCATTER, "window_dimensions window_strides padding") \
  X("vhlo.select_v1", VR_OP, OP_SELECT, "")                                                     \
  X("vhlo.send_v1", VR_OP, OP_SEND, "channel_id channel_type is_host_transfer")                 \
  X("vhlo.set_dimension_size_v1", VR_OP, OP_SET_DIMENSION_SIZE, "dimension")                    \
  X("vhlo.shift_left_v1", VR_OP, OP_SHIFT_LEFT, "")                                             \
  X("vhlo.shift_right_arithmetic_v1", VR_OP, OP_SHIFT_RIGHT_ARITHMETIC, "")                     \
  X("vhlo.shift_right_logical_v1", VR_OP, OP_SHIFT_RIGHT_LOGICAL, "")                           \
  X("vhlo.sign_v1", VR_OP, OP_SIGN, "")                                                         \
  X("vhlo.sine_v1", VR_OP, OP_SINE, "")                                                         \
  X("vhlo.sine_v2", VR_OP, OP_SINE, "result_accuracy")                                          \
  X("vhlo.slice_v1", VR_OP, OP_SLICE, "start_indices limit_indices strides")                    \
  X("vhlo.sort_v1", VR_OP, OP_SORT, "dimension is_stable")                                      \
  X("vhlo.sqrt_v1", VR_OP, OP_SQRT, "")                                                         \
  X("vhlo.sqrt_v2", VR_OP, OP_SQRT, "result_accuracy")                                          \
  X("vhlo.subtract_v1", VR_OP, OP_SUBTRACT, "")                                                 \
  X("vhlo.tan_v1", VR_OP, OP_TAN, "")                                                           \
  X("vhlo.tan_v2", VR_OP, OP_TAN, "result_accuracy")                                            \
  X("vhlo.tanh_v1", VR_OP, OP_TANH, "")                                                         \
  X("vhlo.tanh_v2", VR_OP, OP_TANH, "result_accuracy")                                          \
  X("vhlo.torch_index_select_v1", VR_OP, OP_TORCH_INDEX_SELECT, "dim batch_dims")               \
  X("vhlo.transpose_v1", VR_OP, OP_TRANSPOSE, "permutation")                                    \
  X("vhlo.triangular_solve_v1", VR_OP, OP_TRIANGULAR_SOLVE, "left_side lower unit_diagonal transpose_a") \
  X("vhlo.tuple_v1", VR_OP, OP_TUPLE, "")                                                       \
  X("vhlo.unary_einsum_v1", VR_OP, OP_UNARY_EINSUM, "einsum_config")                            \
  X("vhlo.uniform_dequantize_v1", VR_OP, OP_UNIFORM_DEQUANTIZE, "")                             \
  X("vhlo.uniform_quantize_v1", VR_OP, OP_UNIFORM_QUANTIZE, "")                                 \
  X("vhlo.while_v1", VR_OP, OP_WHILE, "")                                                       \
  X("vhlo.xor_v1", VR_OP, OP_XOR, "")

static const VhloOp vhlo_ops[] = {
#define X(name, role, code, attrs) {name, role, code, attrs},
    VHLO_OPS(X)
#undef X
};

static int cmp_names(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

const VhloOp *vhlo_op_lookup(const char *dialect, const char *name) {
  size_t nd = strlen(dialect);
  for (size_t i = 0; i < sizeof vhlo_ops / sizeof vhlo_ops[0]; i++)
    if (!strncmp(vhlo_ops[i].name, dialect, nd) && vhlo_ops[i].name[nd] == '.' &&
        !strcmp(vhlo_ops[i].name + nd + 1, name))
      return &vhlo_ops[i];
  return NULL;
}

int vhlo_attr_names(const VhloOp *op, char buf[VHLO_NAMES_BUF], const char **names) {
  int n = 0;
  snprintf(buf, VHLO_NAMES_BUF, "%s", op->attrs);
  for (char *w = buf, *next; *w; w = next) {
    next = w + strcspn(w, " ");
    if (*next) *next++ = 0;
    names[n++] = w;
  }
  /* ODS writes properties in the order of the sorted names; the module's
   * two stay in their order (sym_name, sym_visibility). */
  if (op->role != VR_MODULE) qsort(names, (size_t)n, sizeof *names, cmp_names);
  return n;
}

/* ------------------------------------------------------------------------ */
/* VHLO attributes -> StableHLO attributes                                   */

/* An integer tensor's elements (VHLO spells every integer list so). */
static bool tensor_ints(BcCursor *c, const char *name, const Attr *v, int64_t **out, int *n) {
  *out = NULL;
  *n = 0;
  if (v->kind != AT_DENSE || v->type->rank != 1 || (!elem_is_int(v->type->elem) && v->type->elem != ET_I1))
    return bc_error(c, "'%s' is not a list of integers", name);
  *n = (int)v->type->dims[0];
  *out = ARENA_ARRAY(&bc_module(c)->arena, int64_t, *n + 1);
  for (int i = 0; i < *n; i++) (*out)[i] = dense_get_i64(v->dense, i);
  return true;
}

/* A value for a StableHLO attribute or structure field of schema type t:
 * lists are array<i64> (array<i1> for booleans) at the top and [a, b]
 * inside structures, integers untyped inside structures, as the text
 * parser builds them. */
static Attr *convert(BcCursor *c, const char *name, AttrType t, bool in_struct, Attr *v) {
  Module *m = bc_module(c);
  if (t == AK_INTS && v->kind == AT_DENSE) {
    int64_t *ints;
    int n;
    if (!tensor_ints(c, name, v, &ints, &n)) return NULL;
    if (in_struct) return attr_int_list(m, ints, n);
    return attr_dense_array(m, v->type->elem == ET_I1 ? ET_I1 : ET_SI64, ints, n);
  }
  if (in_struct && v->kind == AT_INT) return attr_int(m, v->ival, ET_COUNT);
  if (t == AK_SYMBOL && v->kind == AT_STRING) return attr_symbol(m, v->str);
  return v;
}

/* Defaults that VHLO spells out and StableHLO has no spelling for, or
 * leaves out (VhloLegalizeToStablehlo.cpp, removeDefaults). */
/* dynamic_broadcast_in_dim's hints: array<i64> outside the schema. */
static bool is_hint_list(const char *name) {
  return !strcmp(name, "known_expanding_dimensions") || !strcmp(name, "known_nonexpanding_dimensions");
}

static bool is_default(OpCode code, const char *name, const Attr *v) {
  if (v->kind == AT_ENUM && !strcmp(name, "compare_type")) return !strcmp(v->str, "NOTYPE");
  if (is_hint_list(name)) return v->kind == AT_DENSE && type_num_elems(v->type) == 0;
  if (!strcmp(name, "channel_id") && code != OP_SEND && code != OP_RECV)
    return v->kind == AT_INT && v->ival == 0;
  if (!strcmp(name, "use_global_device_ids")) return v->kind == AT_BOOL && !v->bval;
  if (code != OP_CUSTOM_CALL) return false;
  if (!strcmp(name, "has_side_effect")) return v->kind == AT_BOOL && !v->bval;
  if (!strcmp(name, "backend_config")) return v->kind == AT_STRING && !v->str[0];
  if (!strcmp(name, "api_version")) return v->kind == AT_INT && v->ival == 1;
  return v->kind == AT_ARRAY && v->n == 0;
}

typedef struct Gathered {
  const AttrSpec *row; /* the structure's OP_ATTRS row */
  AttrList fields;
} Gathered;

/* The fields of a structure in STRUCT_FIELDS order. MLIR leaves empty
 * lists out of #stablehlo.dot, gather and scatter. */
static Attr *build_struct(Module *m, const Gathered *g) {
  AttrType s = g->row->type;
  bool skip_empty = s == AK_DOT || s == AK_GATHER || s == AK_SCATTER;
  AttrList l = {0};
  const AttrSpec *f;
  for (int i = 0; (f = attr_struct_field(s, i)); i++)
    for (int k = 0; k < g->fields.n; k++) {
      const Attr *v = g->fields.v[k].value;
      if (strcmp(g->fields.v[k].name, f->name)) continue;
      if (!(skip_empty && v->kind == AT_ARRAY && v->n == 0))
        attrlist_append(m, &l, f->name, g->fields.v[k].value);
    }
  return attr_struct(m, attr_struct_name(s), l.v, l.n);
}

bool vhlo_convert_attrs(BcCursor *c, OpCode code, const NamedAttr *in, int n, AttrList *out) {
  Module *m = bc_module(c);
  Gathered g[4];
  int ng = 0;
  for (int i = 0; i < n; i++) {
    const char *name = in[i].name;
    Attr *v = in[i].value;
    if (is_default(code, name, v)) continue;
    if (!strcmp(name, "use_global_device_ids")) v = attr_new(m, AT_UNIT);
    /* send/recv and the collectives spell #stablehlo.channel_handle's
     * fields channel_id and channel_type */
    const char *field = !strcmp(name, "channel_id") ? "handle" : !strcmp(name, "channel_type") ? "type" : name;
    const AttrSpec *row, *spec = attr_spec_by_name(code, name), *f;
    if (spec) {
      Attr *a = convert(c, name, spec->type, false, v);
      if (!a) return false;
      attrlist_append(m, out, name, a);
    } else if ((f = attr_spec_of_field(code, field, &row))) {
      int k = 0;
      while (k < ng && g[k].row != row) k++;
      if (k == ng) {
        if (ng == 4) return bc_error(c, "too many structures in '%s'", op_name(code));
        g[ng++] = (Gathered){row, {0}};
      }
      Attr *a = convert(c, name, f->type, true, v);
      if (!a) return false;
      attrlist_append(m, &g[k].fields, field, a);
    } else if (code == OP_CUSTOM_CALL && !strcmp(name, "called_computations") && v->kind == AT_ARRAY) {
      Attr *a = attr_new(m, AT_ARRAY);
      a->n = v->n;
      a->items = ARENA_ARRAY(&m->arena, Attr *, v->n + 1);
      for (int k = 0; k < v->n; k++) a->items[k] = convert(c, name, AK_SYMBOL, false, v->items[k]);
      attrlist_append(m, out, name, a);
    } else {
      Attr *a = is_hint_list(name) ? convert(c, name, AK_INTS, false, v) : v;
      if (!a) return false;
      attrlist_append(m, out, name, a);
    }
  }
  for (int k = 0; k < ng; k++) attrlist_append(m, out, g[k].row->name, build_struct(m, &g[k]));
  return true;
}
