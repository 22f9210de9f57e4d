/* npy.c: NumPy .npy files (format versions 1.0 to 3.0 read, 1.0 written):
 * magic "\x93NUMPY", version, header length, a Python dict literal with
 * 'descr', 'fortran_order' and 'shape', padded so the data starts at a
 * multiple of 64 bytes, then the raw C-order data. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tools.h"

static const struct {
  ElemType elem;
  const char *descr; /* without the byte-order character */
} dtypes[] = {
    {ET_I1, "b1"},   {ET_SI8, "i1"},  {ET_SI16, "i2"}, {ET_SI32, "i4"},
    {ET_SI64, "i8"}, {ET_UI8, "u1"},  {ET_UI16, "u2"}, {ET_UI32, "u4"},
    {ET_UI64, "u8"}, {ET_F16, "f2"},  {ET_F32, "f4"},  {ET_F64, "f8"},
    {ET_C64, "c8"},  {ET_C128, "c16"},
    /* bf16 round trip: written as u2; V2 is how some writers spell it. */
    {ET_UI16, "V2"},
};

static const char *descr_of(ElemType e) {
  if (e == ET_BF16) e = ET_UI16;
  for (size_t i = 0; i < sizeof dtypes / sizeof *dtypes; i++)
    if (dtypes[i].elem == e) return dtypes[i].descr;
  return NULL;
}

static int npy_error(const char *path, const char *msg) {
  diag_error(TOOL_NOLOC, "%s: %s", path, msg);
  return -1;
}

/* The text after `'key':` in the header dict, or NULL. */
static const char *dict_value(const char *h, const char *key) {
  char quoted[32];
  snprintf(quoted, sizeof quoted, "'%s'", key);
  const char *p = strstr(h, quoted);
  if (!p) return NULL;
  p = strchr(p + strlen(quoted), ':');
  if (!p) return NULL;
  for (p++; *p == ' '; p++) {}
  return p;
}

/* descr: "'<f4'" -> element type and whether bytes must be swapped. */
static int parse_descr(const char *p, ElemType *e, bool *swap) {
  if (!p || *p != '\'') return -1;
  char order = p[1];
  const char *code = p + 2, *end = strchr(code, '\'');
  if (!end || !strchr("<>|=", order)) return -1;
  for (size_t i = 0; i < sizeof dtypes / sizeof *dtypes; i++)
    if (strlen(dtypes[i].descr) == (size_t)(end - code) &&
        !memcmp(dtypes[i].descr, code, (size_t)(end - code))) {
      *e = dtypes[i].elem;
      *swap = order == '>';
      return 0;
    }
  return -1;
}

/* shape: "(2, 3)", "(3,)", "()". */
static int parse_npy_shape(const char *p, int *rank, int64_t *dims, int max) {
  if (!p || *p != '(') return -1;
  *rank = 0;
  for (p++; *p != ')'; ) {
    if (*p == ' ' || *p == ',') {
      p++;
      continue;
    }
    char *end;
    long long d = strtoll(p, &end, 10);
    if (end == p || d < 0 || *rank == max) return -1;
    dims[(*rank)++] = d;
    p = end;
  }
  return 0;
}

static void swap_bytes(Tensor *t) {
  /* Complex values swap per part. */
  int nb = elem_is_complex(t->elem) ? elem_bytes(t->elem) / 2 : elem_bytes(t->elem);
  unsigned char *p = t->data;
  for (size_t i = 0; i + (size_t)nb <= t->bytes; i += (size_t)nb)
    for (int a = 0, b = nb - 1; a < b; a++, b--) {
      unsigned char c = p[i + a];
      p[i + a] = p[i + b];
      p[i + b] = c;
    }
}

/* Reads the header dict (NUL-terminated, malloc'ed) after the magic. */
static char *read_header(FILE *f) {
  unsigned char pre[8];
  if (fread(pre, 1, 8, f) != 8 || memcmp(pre, "\x93NUMPY", 6)) return NULL;
  size_t hlen;
  if (pre[6] == 1) {
    unsigned char l[2];
    if (fread(l, 1, 2, f) != 2) return NULL;
    hlen = l[0] | (size_t)l[1] << 8;
  } else if (pre[6] == 2 || pre[6] == 3) {
    unsigned char l[4];
    if (fread(l, 1, 4, f) != 4) return NULL;
    hlen = l[0] | (size_t)l[1] << 8 | (size_t)l[2] << 16 | (size_t)l[3] << 24;
  } else {
    return NULL;
  }
  char *h = malloc(hlen + 1);
  if (!h || fread(h, 1, hlen, f) != hlen) {
    free(h);
    return NULL;
  }
  h[hlen] = 0;
  return h;
}

static int read_body(FILE *f, const char *path, const char *h, Tensor *t) {
  ElemType e;
  bool swap;
  int rank;
  int64_t dims[64];
  const char *fo = dict_value(h, "fortran_order");
  if (parse_descr(dict_value(h, "descr"), &e, &swap))
    return npy_error(path, "unsupported dtype (want bool, int, uint, float16/32/64 or complex)");
  if (!fo || strncmp(fo, "False", 5))
    return npy_error(path, "Fortran-order arrays are not supported; save with C order");
  if (parse_npy_shape(dict_value(h, "shape"), &rank, dims, 64))
    return npy_error(path, "cannot read the shape");
  if (tensor_alloc(t, e, rank, dims)) return -1;
  if (fread(t->data, 1, t->bytes, f) != t->bytes) {
    tensor_free(t);
    return npy_error(path, "file is shorter than its shape says");
  }
  if (swap) swap_bytes(t);
  return 0;
}

int npy_read_stream(FILE *f, const char *what, Tensor *t) {
  char *h = read_header(f);
  int rc = h ? read_body(f, what, h, t) : npy_error(what, "not a .npy file");
  free(h);
  return rc;
}

int npy_read(const char *path, Tensor *t) {
  FILE *f = fopen(path, "rb");
  if (!f) return npy_error(path, "cannot open");
  int rc = npy_read_stream(f, path, t);
  fclose(f);
  return rc;
}

int npy_write(const char *path, const Tensor *t) {
  const char *descr = descr_of(t->elem);
  if (!descr) return npy_error(path, "element type has no NumPy dtype");
  if (t->elem == ET_BF16)
    diag_warning(TOOL_NOLOC, "%s: bf16 has no NumPy dtype; written as <u2 bit patterns", path);
  char dict[4096];
  int n = snprintf(dict, sizeof dict, "{'descr': '%c%s', 'fortran_order': False, 'shape': (",
                   elem_bytes(t->elem) == 1 ? '|' : '<', descr);
  for (int i = 0; i < t->rank; i++)
    n += snprintf(dict + n, sizeof dict - (size_t)n, "%lld%s", (long long)t->dims[i],
                  t->rank == 1 ? "," : (i + 1 < t->rank ? ", " : ""));
  n += snprintf(dict + n, sizeof dict - (size_t)n, "), }");
  /* Pad with spaces and a newline so that the data starts 64-aligned. */
  size_t total = (10 + (size_t)n + 1 + 63) / 64 * 64, hlen = total - 10;
  FILE *f = fopen(path, "wb");
  if (!f) return npy_error(path, "cannot create");
  unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(hlen & 255),
                           (unsigned char)(hlen >> 8)};
  bool ok = fwrite(pre, 1, 10, f) == 10 &&
            fprintf(f, "%s%*s\n", dict, (int)(hlen - (size_t)n - 1), "") >= 0 &&
            fwrite(t->data, 1, t->bytes, f) == t->bytes;
  return file_close(f, path, ok ? 0 : errno);
}

int file_close(FILE *f, const char *path, int err) {
  if (!err && ferror(f)) err = errno ? errno : EIO;
  if ((f == stdout ? fflush(f) : fclose(f)) && !err) err = errno;
  if (!err) return 0;
  diag_error(TOOL_NOLOC, "cannot write %s: %s", path, strerror(err));
  return -1;
}
