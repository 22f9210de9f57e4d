/* types.c: the element type table and interned tensor/token/tuple types. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"

typedef struct ElemInfo {
  const char *name;
  int bits;
  char cls;
  const char *ctype;
  bool supported;
} ElemInfo;

static const ElemInfo elems[] = {
#define X(e, name, bits, cls, ctype, ok) {name, bits, cls, ctype, ok},
    ELEM_TYPES(X)
#undef X
};

const char *elem_name(ElemType e) { return elems[e].name; }
int elem_bits(ElemType e) { return elems[e].bits; }
char elem_class(ElemType e) { return elems[e].cls; }
const char *elem_ctype(ElemType e) { return elems[e].ctype; }
bool elem_supported(ElemType e) { return elems[e].supported; }
bool elem_is_int(ElemType e) { return elems[e].cls == 's' || elems[e].cls == 'u'; }
bool elem_is_float(ElemType e) { return elems[e].cls == 'f'; }
bool elem_is_complex(ElemType e) { return elems[e].cls == 'c'; }

bool elem_small_float(ElemType e, FloatFormat *f) {
  switch (e) {
#define X(et, eb, mb, bias, kind) \
  case et: *f = (FloatFormat){eb, mb, bias, kind}; return true;
    SMALL_FLOATS(X)
#undef X
  default: return false;
  }
}

int elem_bytes(ElemType e) {
  int bits = elems[e].bits;
  if (bits <= 8) return 1;
  if (bits <= 16) return 2;
  if (bits <= 32) return 4;
  if (bits <= 64) return 8;
  return 16;
}

ElemType elem_lookup(const char *s, size_t n) {
  for (int e = 0; e < ET_COUNT; e++)
    if (strlen(elems[e].name) == n && !memcmp(elems[e].name, s, n))
      return (ElemType)e;
  /* `si32` is an accepted spelling of signed integers in some dialects. */
  if (n > 2 && s[0] == 's' && s[1] == 'i') return elem_lookup(s + 1, n - 1);
  return ET_COUNT;
}

/* Interning: an open hash table keyed by the type's structure. */
struct TypeTable {
  Arena *arena;
  Type **slots;
  size_t cap, count;
  Type *token;
};

static uint64_t hash_mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h;
}

static uint64_t type_hash(const Type *t) {
  uint64_t h = hash_mix((uint64_t)t->kind, (uint64_t)t->elem);
  h = hash_mix(h, (uint64_t)(uintptr_t)t->quant);
  h = hash_mix(h, (uint64_t)t->rank);
  for (int i = 0; i < t->rank; i++) h = hash_mix(h, (uint64_t)t->dims[i]);
  for (int i = 0; t->bounds && i < t->rank; i++) h = hash_mix(h, (uint64_t)t->bounds[i]);
  for (int i = 0; i < t->nelems; i++) h = hash_mix(h, (uint64_t)(uintptr_t)t->elems[i]);
  return h;
}

static bool type_same(const Type *a, const Type *b) {
  if (a->kind != b->kind || a->elem != b->elem || a->quant != b->quant ||
      a->rank != b->rank || a->nelems != b->nelems)
    return false;
  for (int i = 0; i < a->rank; i++)
    if (a->dims[i] != b->dims[i]) return false;
  if (!a->bounds != !b->bounds) return false;
  for (int i = 0; a->bounds && i < a->rank; i++)
    if (a->bounds[i] != b->bounds[i]) return false;
  for (int i = 0; i < a->nelems; i++)
    if (a->elems[i] != b->elems[i]) return false;
  return true;
}

static void table_grow(TypeTable *t) {
  size_t cap = t->cap ? t->cap * 2 : 256;
  Type **slots = calloc(cap, sizeof *slots);
  if (!slots) abort();
  for (size_t i = 0; i < t->cap; i++) {
    Type *ty = t->slots[i];
    if (!ty) continue;
    size_t j = type_hash(ty) & (cap - 1);
    while (slots[j]) j = (j + 1) & (cap - 1);
    slots[j] = ty;
  }
  free(t->slots);
  t->slots = slots;
  t->cap = cap;
}

/* Returns the interned copy of `key`, copying it into the arena if new. */
static Type *intern(TypeTable *t, const Type *key) {
  if (2 * (t->count + 1) > t->cap) table_grow(t);
  size_t j = type_hash(key) & (t->cap - 1);
  for (; t->slots[j]; j = (j + 1) & (t->cap - 1))
    if (type_same(t->slots[j], key)) return t->slots[j];
  Type *ty = ARENA_NEW(t->arena, Type);
  *ty = *key;
  if (key->rank) {
    int64_t *d = ARENA_ARRAY(t->arena, int64_t, key->rank);
    memcpy(d, key->dims, sizeof(int64_t) * (size_t)key->rank);
    ty->dims = d;
  }
  if (key->bounds) {
    int64_t *d = ARENA_ARRAY(t->arena, int64_t, key->rank);
    memcpy(d, key->bounds, sizeof(int64_t) * (size_t)key->rank);
    ty->bounds = d;
  }
  if (key->nelems) {
    Type **e = ARENA_ARRAY(t->arena, Type *, key->nelems);
    memcpy(e, key->elems, sizeof(Type *) * (size_t)key->nelems);
    ty->elems = e;
  }
  t->slots[j] = ty;
  t->count++;
  return ty;
}

TypeTable *type_table_new(Arena *a) {
  TypeTable *t = ARENA_NEW(a, TypeTable);
  t->arena = a;
  return t;
}

void type_table_free(TypeTable *t) { free(t->slots); }

bool type_dims_fit(int rank, const int64_t *dims) {
  uint64_t n = 1;
  for (int i = 0; i < rank; i++) {
    if (dims[i] == DIM_DYNAMIC) continue;
    if (dims[i] < 0 || __builtin_mul_overflow(n, (uint64_t)dims[i], &n) ||
        n > (uint64_t)TENSOR_MAX_ELEMS)
      return false;
  }
  return true;
}

Type *type_tensor(TypeTable *t, ElemType e, int rank, const int64_t *dims) {
  assert(type_dims_fit(rank, dims));
  Type key = {.kind = TY_TENSOR, .elem = e, .rank = rank, .dims = dims};
  return intern(t, &key);
}

Type *type_tensor_quant(TypeTable *t, const QuantInfo *q, int rank,
                        const int64_t *dims) {
  assert(type_dims_fit(rank, dims));
  Type key = {.kind = TY_TENSOR, .elem = ET_QUANT, .quant = q, .rank = rank, .dims = dims};
  return intern(t, &key);
}

Type *type_with_bounds(TypeTable *t, const Type *ty, const int64_t *bounds) {
  bool any = false;
  for (int i = 0; bounds && i < ty->rank; i++) {
    assert(bounds[i] == DIM_DYNAMIC || (ty->dims[i] == DIM_DYNAMIC && bounds[i] >= 0));
    any |= bounds[i] != DIM_DYNAMIC;
  }
  Type key = *ty;
  key.bounds = any ? bounds : NULL;
  return intern(t, &key);
}

bool quant_info_equal(const QuantInfo *a, const QuantInfo *b) {
  if (a == b) return true;
  if (a->storage != b->storage || a->expressed != b->expressed ||
      a->storage_min != b->storage_min || a->storage_max != b->storage_max ||
      a->axis != b->axis || a->nscales != b->nscales)
    return false;
  for (int i = 0; i < a->nscales; i++)
    if (a->scales[i] != b->scales[i] || a->zero_points[i] != b->zero_points[i]) return false;
  return true;
}

Type *type_token(TypeTable *t) {
  Type key = {.kind = TY_TOKEN};
  return intern(t, &key);
}

Type *type_tuple(TypeTable *t, int n, Type *const *elems) {
  Type key = {.kind = TY_TUPLE, .nelems = n, .elems = elems};
  return intern(t, &key);
}

Type *type_with_elem(TypeTable *t, const Type *ty, ElemType e) {
  return type_tensor(t, e, ty->rank, ty->dims);
}

bool type_is_tensor(const Type *ty) { return ty->kind == TY_TENSOR; }

bool type_same_dims(const Type *a, const Type *b) {
  if (a->rank != b->rank) return false;
  for (int d = 0; d < a->rank; d++)
    if (a->dims[d] != b->dims[d]) return false;
  return true;
}

bool type_is_static(const Type *ty) {
  if (ty->kind == TY_TUPLE) {
    for (int i = 0; i < ty->nelems; i++)
      if (!type_is_static(ty->elems[i])) return false;
    return true;
  }
  for (int i = 0; i < ty->rank; i++)
    if (ty->dims[i] == DIM_DYNAMIC) return false;
  return true;
}

int64_t type_num_elems(const Type *ty) {
  int64_t n = 1;
  for (int i = 0; i < ty->rank; i++) {
    if (ty->dims[i] == DIM_DYNAMIC) return -1;
    n *= ty->dims[i];
  }
  return n;
}

int64_t type_byte_size(const Type *ty) {
  if (ty->kind != TY_TENSOR) return 0;
  int64_t n = type_num_elems(ty);
  return n < 0 ? -1 : n * elem_bytes(ty->elem);
}

static void quant_print(FILE *f, const QuantInfo *q) {
  fprintf(f, "!quant.uniform<%s", elem_name(q->storage));
  if (q->storage_min != 0 || q->storage_max != 0)
    fprintf(f, "<%lld:%lld>", (long long)q->storage_min, (long long)q->storage_max);
  fprintf(f, ":%s", elem_name(q->expressed));
  if (q->axis >= 0) fprintf(f, ":%d, {", q->axis);
  else fprintf(f, ", ");
  for (int i = 0; i < q->nscales; i++) {
    fprintf(f, "%s%.17g", i ? "," : "", q->scales[i]);
    if (q->zero_points[i]) fprintf(f, ":%lld", (long long)q->zero_points[i]);
  }
  fprintf(f, q->axis >= 0 ? "}>" : ">");
}

void type_print(FILE *f, const Type *ty) {
  switch (ty->kind) {
  case TY_TOKEN:
    fputs("!stablehlo.token", f);
    return;
  case TY_TUPLE:
    fputs("tuple<", f);
    for (int i = 0; i < ty->nelems; i++) {
      if (i) fputs(", ", f);
      type_print(f, ty->elems[i]);
    }
    fputs(">", f);
    return;
  case TY_TENSOR:
    fputs("tensor<", f);
    for (int i = 0; i < ty->rank; i++) {
      if (ty->dims[i] == DIM_DYNAMIC) fputs("?x", f);
      else fprintf(f, "%lldx", (long long)ty->dims[i]);
    }
    if (ty->elem == ET_QUANT) quant_print(f, ty->quant);
    else fputs(elem_name(ty->elem), f);
    for (int i = 0; ty->bounds && i < ty->rank; i++) {
      fputs(i ? ", " : ", #stablehlo.bounds<", f);
      if (ty->bounds[i] == DIM_DYNAMIC) fputs("?", f);
      else fprintf(f, "%lld", (long long)ty->bounds[i]);
    }
    fputs(ty->bounds ? ">>" : ">", f);
    return;
  }
}

char *type_str(Arena *a, const Type *ty) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  type_print(f, ty);
  fclose(f);
  char *s = arena_strdup(a, buf);
  free(buf);
  return s;
}
