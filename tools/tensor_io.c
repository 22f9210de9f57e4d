/* tensor_io.c: host tensors for run and bench: iree-run-module style text
 * ("2x3xf32=1 2 3 4 5 6"), printing, random contents. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "../runtime/shlort.h"
#include "tools.h"

enum { MAX_RANK = 64 };

int64_t tensor_num_elems(const Tensor *t) {
  int64_t n = 1;
  for (int i = 0; i < t->rank; i++) n *= t->dims[i];
  return n;
}

int tensor_alloc(Tensor *t, ElemType e, int rank, const int64_t *dims) {
  memset(t, 0, sizeof *t);
  t->elem = e;
  t->rank = rank;
  t->dims = malloc(sizeof(int64_t) * (size_t)(rank > 0 ? rank : 1));
  if (!t->dims) return -1;
  if (rank > 0) memcpy(t->dims, dims, sizeof(int64_t) * (size_t)rank);
  t->bytes = (size_t)tensor_num_elems(t) * (size_t)elem_bytes(e);
  /* Generated code may use aligned vector loads on any buffer. */
  size_t alloc = (t->bytes + 63) / 64 * 64;
  t->data = aligned_alloc(64, alloc ? alloc : 64);
  if (!t->data) {
    diag_error(TOOL_NOLOC, "out of memory allocating %zu bytes", t->bytes);
    free(t->dims);
    t->dims = NULL;
    return -1;
  }
  memset(t->data, 0, alloc ? alloc : 64);
  return 0;
}

/* The element type of a buffer of type ty: a quantized tensor is passed as
 * its storage integers (the ABI chosen in passes/quant.c). */
static ElemType buffer_elem(const Type *ty) {
  return ty->elem == ET_QUANT ? ty->quant->storage : ty->elem;
}

int tensor_alloc_type(Tensor *t, const Type *ty) {
  return tensor_alloc(t, buffer_elem(ty), ty->rank, ty->dims);
}

void tensor_free(Tensor *t) {
  free(t->data);
  free(t->dims);
  memset(t, 0, sizeof *t);
}

void tensor_shape_str(const Tensor *t, char *buf, size_t size) {
  size_t n = 0;
  buf[0] = 0;
  for (int i = 0; i < t->rank && n < size; i++)
    n += (size_t)snprintf(buf + n, size - n, "%lldx", (long long)t->dims[i]);
  if (n < size) snprintf(buf + n, size - n, "%s", elem_name(t->elem));
}

bool tensor_matches(const Tensor *t, const Type *ty) {
  if (!type_is_tensor(ty) || buffer_elem(ty) != t->elem || ty->rank != t->rank) return false;
  for (int i = 0; i < t->rank; i++)
    if (ty->dims[i] != t->dims[i]) return false;
  return true;
}

static void store_bits(Tensor *t, int64_t i, uint64_t bits) {
  int nb = elem_bytes(t->elem);
  memcpy((char *)t->data + i * nb, &bits, (size_t)nb); /* little-endian host */
}

/* Fills t from the values text: n values, one (splatted) or none (zeros). */
static int parse_values(const char *p, const char *what, Tensor *t) {
  char err[192];
  if (!shlort_parse_values(t->elem, p, t->data, tensor_num_elems(t), err, sizeof err)) return 0;
  diag_error(TOOL_NOLOC, "%s: %s", what, err);
  return -1;
}

/* "2x3xf32" -> dims and element type. */
static int parse_spec_shape(const char *s, size_t len, const char *what, ElemType *e,
                       int *rank, int64_t *dims) {
  const char *p = s, *end = s + len;
  *rank = 0;
  while (p < end && isdigit((unsigned char)*p)) {
    char *q;
    long long d = strtoll(p, &q, 10);
    if (q >= end || *q != 'x' || *rank == MAX_RANK) {
      diag_error(TOOL_NOLOC, "%s: bad shape in '%.*s' (want e.g. 2x3xf32)", what, (int)len, s);
      return -1;
    }
    dims[(*rank)++] = d;
    p = q + 1;
  }
  *e = elem_lookup(p, (size_t)(end - p));
  if (*e == ET_COUNT || !elem_supported(*e) || elem_is_complex(*e)) {
    diag_error(TOOL_NOLOC, "%s: unsupported element type '%.*s'", what, (int)(end - p), p);
    return -1;
  }
  return 0;
}

int tensor_parse(const char *spec, const char *what, Tensor *t) {
  if (spec[0] == '@') return npy_read(spec + 1, t);
  const char *eq = strchr(spec, '=');
  size_t len = eq ? (size_t)(eq - spec) : strlen(spec);
  ElemType e;
  int rank;
  int64_t dims[MAX_RANK];
  if (parse_spec_shape(spec, len, what, &e, &rank, dims)) return -1;
  if (tensor_alloc(t, e, rank, dims)) return -1;
  if (eq && parse_values(eq + 1, what, t)) {
    tensor_free(t);
    return -1;
  }
  return 0;
}

/* Prints the sub-tensor at dimension d starting at element `first`. */
static void print_level(FILE *f, const Tensor *t, int d, int64_t first, int64_t stride) {
  char buf[96];
  fputc('[', f);
  int64_t inner = t->dims[d] ? stride / t->dims[d] : 0;
  for (int64_t i = 0; i < t->dims[d]; i++) {
    if (d + 1 < t->rank) {
      print_level(f, t, d + 1, first + i * inner, inner);
      continue;
    }
    shlort_format_elem(buf, sizeof buf, t->elem,
                       (const char *)t->data + (first + i) * elem_bytes(t->elem));
    fprintf(f, "%s%s", i ? " " : "", buf);
  }
  fputc(']', f);
}

void tensor_print(FILE *f, const Tensor *t) {
  char shape[512], buf[96];
  tensor_shape_str(t, shape, sizeof shape);
  fprintf(f, "%s=", shape);
  if (t->rank == 0) {
    shlort_format_elem(buf, sizeof buf, t->elem, t->data);
    fputs(buf, f);
  } else {
    print_level(f, t, 0, 0, tensor_num_elems(t));
  }
  fputc('\n', f);
}

/* xorshift64*: small, fast, and the same sequence on every machine. */
static uint64_t next_random(uint64_t *s) {
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 0x2545f4914f6cdd1dull;
}

bool tensor_int_value(const Tensor *t, int64_t *v) {
  if (t->rank || !elem_is_int(t->elem) || elem_class(t->elem) != 's') return false;
  switch (elem_bytes(t->elem)) {
  case 1: *v = *(const int8_t *)t->data; break;
  case 2: *v = *(const int16_t *)t->data; break;
  case 4: *v = *(const int32_t *)t->data; break;
  default: *v = *(const int64_t *)t->data; break;
  }
  return true;
}

void tensor_fill_random(Tensor *t, uint64_t *state) {
  int64_t n = tensor_num_elems(t);
  for (int64_t i = 0; i < n; i++) {
    uint64_t r = next_random(state);
    double u = (double)(r >> 11) * 0x1p-53 * 2 - 1; /* [-1, 1) */
    uint64_t bits = r >> 61; /* integers in [0, 8) */
    if (t->elem == ET_I1) bits = r >> 63;
    else if (elem_is_float(t->elem) && shlort_float_from_f64(t->elem, u, &bits)) bits = 0;
    store_bits(t, i, bits);
  }
}
