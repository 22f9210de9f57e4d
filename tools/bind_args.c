/* bind_args.c: --bind-args=FILE. Models exported with their weights as
 * entry arguments (PyTorch/XLA exports, jax.export of a function taking
 * `params`) get those arguments replaced by constants holding the
 * tensors of a .npz or .safetensors file, before compilation, so the
 * object takes only the real inputs (and --weights says where the
 * constants go).
 *
 * Matching: when the entry's arguments carry names (a string attribute
 * `jax.arg_info`, as jax.export writes for named parameters) and every
 * tensor's name is one of them, by name; otherwise by position: the k-th
 * tensor of the file (.npz: archive order, as np.savez wrote them;
 * .safetensors: the order of their data in the file) binds argument k,
 * and the arguments after the last tensor stay arguments. A tensor binds
 * only an argument of its exact shape and element type (bf16 may come as
 * uint16 from NumPy).
 *
 * .npz: a zip of .npy files; stored (np.savez) entries are read, deflated
 * ones (np.savez_compressed) are reported. Zip64 sizes (NumPy writes them)
 * are read from the extra field. .safetensors: an 8-byte little-endian
 * header length, a JSON object {name: {"dtype", "shape", "data_offsets"}}
 * (and "__metadata__"), then the data. */
#include <stdlib.h>
#include <string.h>

#include "tools.h"

typedef struct Named {
  char *name;
  Tensor t;
  size_t order; /* safetensors: data offset */
} Named;

typedef struct Tensors {
  Named *v;
  int n;
} Tensors;

static int bind_error(const char *path, const char *msg) {
  diag_error(TOOL_NOLOC, "--bind-args %s: %s", path, msg);
  return -1;
}

static Named *push_named(Tensors *ts) {
  Named *v = realloc(ts->v, (size_t)(ts->n + 1) * sizeof *v);
  if (!v) abort();
  ts->v = v;
  memset(&v[ts->n], 0, sizeof *v);
  return &v[ts->n++];
}

static void free_tensors(Tensors *ts) {
  for (int i = 0; i < ts->n; i++) {
    free(ts->v[i].name);
    tensor_free(&ts->v[i].t);
  }
  free(ts->v);
}

static uint64_t le(const unsigned char *p, int n) {
  uint64_t v = 0;
  for (int k = n - 1; k >= 0; k--) v = v << 8 | p[k];
  return v;
}

/* ---- .npz ------------------------------------------------------------- */

/* Zip64 sizes from the extra field (id 1: uncompressed, then compressed). */
static void zip64_sizes(const unsigned char *x, size_t n, uint64_t *usize, uint64_t *csize) {
  for (size_t i = 0; i + 4 <= n;) {
    size_t id = (size_t)le(x + i, 2), len = (size_t)le(x + i + 2, 2);
    if (id == 1 && len >= 16 && i + 4 + len <= n) {
      *usize = le(x + i + 4, 8);
      *csize = le(x + i + 12, 8);
    }
    i += 4 + len;
  }
}

static int read_npz(const char *path, const unsigned char *p, size_t n, Tensors *ts) {
  size_t i = 0;
  while (i + 30 <= n && le(p + i, 4) == 0x04034b50) {
    unsigned flags = (unsigned)le(p + i + 6, 2), method = (unsigned)le(p + i + 8, 2);
    uint64_t csize = le(p + i + 18, 4), usize = le(p + i + 22, 4);
    size_t nlen = (size_t)le(p + i + 26, 2), xlen = (size_t)le(p + i + 28, 2);
    if (i + 30 + nlen + xlen > n) break;
    zip64_sizes(p + i + 30 + nlen, xlen, &usize, &csize);
    const char *name = (const char *)p + i + 30;
    size_t data = i + 30 + nlen + xlen;
    if (method != 0)
      return bind_error(path, "a deflate-compressed entry (np.savez_compressed): only stored "
                              "entries are supported; save with np.savez");
    if ((flags & 8) || csize != usize || data + csize > n)
      return bind_error(path, "a zip entry without its size in the local header");
    Named *e = push_named(ts);
    size_t stem = nlen > 4 && !memcmp(name + nlen - 4, ".npy", 4) ? nlen - 4 : nlen;
    e->name = strndup(name, stem);
    e->order = (size_t)ts->n;
    FILE *f = fmemopen((void *)(p + data), (size_t)csize, "rb");
    if (!f || npy_read_stream(f, e->name, &e->t)) {
      if (f) fclose(f);
      return bind_error(path, "an entry is not a readable .npy array");
    }
    fclose(f);
    i = data + (size_t)csize;
  }
  return ts->n ? 0 : bind_error(path, "not a .npz file (no zip entries)");
}

/* ---- .safetensors ----------------------------------------------------- */

typedef struct Json {
  const char *p, *end;
} Json;

static void ws(Json *j) {
  while (j->p < j->end && strchr(" \t\r\n", *j->p)) j->p++;
}

static bool eat(Json *j, char c) {
  ws(j);
  if (j->p < j->end && *j->p == c) return j->p++, true;
  return false;
}

/* A string (escapes kept as written: tensor names have none). */
static char *json_string(Json *j) {
  if (!eat(j, '"')) return NULL;
  const char *s = j->p;
  while (j->p < j->end && *j->p != '"') j->p += *j->p == '\\' ? 2 : 1;
  if (j->p >= j->end) return NULL;
  return strndup(s, (size_t)(j->p++ - s));
}

static bool json_skip(Json *j) {
  ws(j);
  if (j->p >= j->end) return false;
  char c = *j->p;
  if (c == '"') {
    char *s = json_string(j);
    free(s);
    return s != NULL;
  }
  if (c == '{' || c == '[') {
    char close = c == '{' ? '}' : ']';
    j->p++;
    if (eat(j, close)) return true;
    do {
      if (c == '{') {
        char *k = json_string(j);
        free(k);
        if (!k || !eat(j, ':')) return false;
      }
      if (!json_skip(j)) return false;
    } while (eat(j, ','));
    return eat(j, close);
  }
  while (j->p < j->end && !strchr(",}] \t\r\n", *j->p)) j->p++;
  return true;
}

static int json_ints(Json *j, int64_t *v, int max) {
  int n = 0;
  if (!eat(j, '[')) return -1;
  if (eat(j, ']')) return 0;
  do {
    ws(j);
    char *e;
    long long x = strtoll(j->p, &e, 10);
    if (e == j->p || n == max) return -1;
    v[n++] = x;
    j->p = e;
  } while (eat(j, ','));
  return eat(j, ']') ? n : -1;
}

static ElemType st_dtype(const char *s) {
  static const struct { const char *name; ElemType e; } map[] = {
      {"F64", ET_F64}, {"F32", ET_F32}, {"F16", ET_F16}, {"BF16", ET_BF16},
      {"I64", ET_SI64}, {"I32", ET_SI32}, {"I16", ET_SI16}, {"I8", ET_SI8},
      {"U64", ET_UI64}, {"U32", ET_UI32}, {"U16", ET_UI16}, {"U8", ET_UI8},
      {"BOOL", ET_I1}};
  for (size_t i = 0; i < sizeof map / sizeof *map; i++)
    if (!strcmp(s, map[i].name)) return map[i].e;
  return ET_COUNT;
}

/* One {"dtype", "shape", "data_offsets"} entry into e. */
static int st_entry(Json *j, const char *path, const unsigned char *data, size_t ndata,
                    Named *e) {
  char *dtype = NULL;
  int64_t dims[64], offs[2];
  int rank = -1, noffs = -1;
  if (!eat(j, '{')) return bind_error(path, "malformed JSON header");
  do {
    char *k = json_string(j);
    if (!k || !eat(j, ':')) return free(k), bind_error(path, "malformed JSON header");
    if (!strcmp(k, "dtype")) dtype = json_string(j);
    else if (!strcmp(k, "shape")) rank = json_ints(j, dims, 64);
    else if (!strcmp(k, "data_offsets")) noffs = json_ints(j, offs, 2);
    else json_skip(j);
    free(k);
  } while (eat(j, ','));
  ElemType et = dtype ? st_dtype(dtype) : ET_COUNT;
  free(dtype);
  if (!eat(j, '}') || rank < 0 || noffs != 2 || et == ET_COUNT)
    return bind_error(path, "a tensor without a known dtype, a shape or data_offsets");
  if (tensor_alloc(&e->t, et, rank, dims)) return -1;
  if (offs[0] < 0 || offs[1] < offs[0] || (size_t)offs[1] > ndata ||
      (size_t)(offs[1] - offs[0]) != e->t.bytes)
    return bind_error(path, "a tensor's data_offsets do not fit its shape or the file");
  memcpy(e->t.data, data + offs[0], e->t.bytes);
  e->order = (size_t)offs[0];
  return 0;
}

static int by_order(const void *a, const void *b) {
  size_t x = ((const Named *)a)->order, y = ((const Named *)b)->order;
  return x < y ? -1 : x > y;
}

static int read_safetensors(const char *path, const unsigned char *p, size_t n, Tensors *ts) {
  if (n < 8 || le(p, 8) > n - 8) return bind_error(path, "not a .safetensors file");
  size_t hlen = (size_t)le(p, 8);
  Json j = {(const char *)p + 8, (const char *)p + 8 + hlen};
  if (!eat(&j, '{')) return bind_error(path, "malformed JSON header");
  if (eat(&j, '}')) return bind_error(path, "no tensors");
  do {
    char *k = json_string(&j);
    if (!k || !eat(&j, ':')) return free(k), bind_error(path, "malformed JSON header");
    if (!strcmp(k, "__metadata__")) {
      free(k);
      if (!json_skip(&j)) return bind_error(path, "malformed JSON header");
      continue;
    }
    Named *e = push_named(ts);
    e->name = k;
    if (st_entry(&j, path, p + 8 + hlen, n - 8 - hlen, e)) return -1;
  } while (eat(&j, ','));
  if (!eat(&j, '}')) return bind_error(path, "malformed JSON header");
  qsort(ts->v, (size_t)ts->n, sizeof *ts->v, by_order);
  return 0;
}

/* ---- binding ---------------------------------------------------------- */

/* The argument each tensor binds (by name when all names match). */
static int match(const Func *f, const Tensors *ts, int *arg) {
  bool named = true;
  for (int t = 0; t < ts->n && named; t++) {
    arg[t] = -1;
    for (int i = 0; i < f->body->nargs; i++) {
      const char *nm = ir_arg_string_attr(f, i, "jax.arg_info");
      if (nm && !strcmp(nm, ts->v[t].name)) arg[t] = i;
    }
    named = arg[t] >= 0;
  }
  if (named) return 0;
  if (ts->n > f->body->nargs) return -1;
  for (int t = 0; t < ts->n; t++) arg[t] = t;
  return 0;
}

static bool fits(const Tensor *t, const Type *ty) {
  ElemType e = ty->elem == ET_BF16 && t->elem == ET_UI16 ? ET_BF16 : t->elem;
  Tensor u = *t;
  u.elem = e;
  return tensor_matches(&u, ty);
}

/* Argument i becomes a constant holding t; its block argument goes. */
static void bind_one(Module *m, Func *f, int i, const Tensor *t) {
  Value *a = f->body->args[i];
  DenseData *d = arena_alloc(&m->arena, sizeof *d);
  d->type = a->type;
  d->nbytes = t->bytes;
  d->bytes = arena_alloc(&m->arena, t->bytes ? t->bytes : 1);
  memcpy(d->bytes, t->data, t->bytes);
  Builder b = {m, f->body, f->body->first, f->loc};
  ir_replace_uses(f, a, ir_build_constant(&b, d));
}

static void drop_args(Func *f, const bool *bound) {
  int k = 0;
  for (int i = 0; i < f->body->nargs; i++) {
    if (bound[i]) continue;
    f->body->args[k] = f->body->args[i];
    if (f->arg_attrs) {
      f->arg_attrs[k] = f->arg_attrs[i];
      f->narg_attrs[k] = f->narg_attrs[i];
    }
    k++;
  }
  f->body->nargs = k;
}

static int apply(Module *m, Func *f, const char *path, const Tensors *ts) {
  int arg[ts->n ? ts->n : 1];
  if (match(f, ts, arg)) return bind_error(path, "more tensors than the entry has arguments");
  bool bound[f->body->nargs ? f->body->nargs : 1];
  memset(bound, 0, sizeof bound);
  for (int t = 0; t < ts->n; t++) {
    const Type *ty = f->body->args[arg[t]]->type;
    if (!type_is_tensor(ty) || !type_is_static(ty) || !fits(&ts->v[t].t, ty) || bound[arg[t]]) {
      char have[96];
      tensor_shape_str(&ts->v[t].t, have, sizeof have);
      diag_error(f->loc, "--bind-args %s: tensor '%s' (%s) does not fit argument %d of @%s",
                 path, ts->v[t].name, have, arg[t], f->name);
      return -1;
    }
    bound[arg[t]] = true;
    bind_one(m, f, arg[t], &ts->v[t].t);
  }
  drop_args(f, bound);
  ir_recount_uses(f);
  ir_number_values(f);
  return 0;
}

static unsigned char *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  unsigned char *p = NULL;
  if (!fseek(f, 0, SEEK_END)) {
    long len = ftell(f);
    if (len >= 0 && !fseek(f, 0, SEEK_SET) && (p = malloc((size_t)len + 1)) &&
        fread(p, 1, (size_t)len, f) != (size_t)len) {
      free(p);
      p = NULL;
    }
    *n = (size_t)len;
  }
  fclose(f);
  return p;
}

int bind_args(Module *m, Func *f, const char *path) {
  size_t n = 0, len = strlen(path);
  bool npz = len > 4 && !strcmp(path + len - 4, ".npz");
  bool st = len > 12 && !strcmp(path + len - 12, ".safetensors");
  if (!npz && !st) return bind_error(path, "want a .npz or .safetensors file");
  unsigned char *p = slurp(path, &n);
  if (!p) return bind_error(path, "cannot read");
  Tensors ts = {0};
  int rc = npz ? read_npz(path, p, n, &ts) : read_safetensors(path, p, n, &ts);
  free(p);
  if (!rc) rc = apply(m, f, path, &ts);
  free_tensors(&ts);
  return rc;
}
