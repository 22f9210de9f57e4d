/* ref.h: a plain-C reference of the collective ops, for the runtime's
 * tests over threads and over MPI. Written from the spec's text and
 * Python pseudo-code, independently of runtime/: the process groups are
 * enumerated as the spec's generators yield them, results are computed
 * element by element from multi-indices.
 *
 * A test case (RefCase) is one collective with its attributes, the
 * element type and the operand shapes; ref_inputs() gives every process's
 * operands, ref_expect() a process's expected results. */
#ifndef SHLOC_TESTS_REF_H
#define SHLOC_TESTS_REF_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shlort.h"

enum { REF_MAXN = 64, REF_RANK = 3 };

typedef enum RefOp {
  REF_ALL_REDUCE,
  REF_ALL_GATHER,
  REF_REDUCE_SCATTER,
  REF_ALL_TO_ALL,
  REF_PERMUTE,
  REF_BROADCAST,
  REF_COLLECTIVE_REDUCE,
  REF_OPS
} RefOp;

static const char *const ref_op_names[] = {
    "stablehlo.all_reduce", "stablehlo.all_gather", "stablehlo.reduce_scatter",
    "stablehlo.all_to_all", "stablehlo.collective_permute", "stablehlo.collective_broadcast",
    "stablehlo.collective_reduce"};

typedef struct RefCase {
  RefOp op;
  uint32_t nr, np;
  int64_t ids[REF_MAXN * 2];
  int64_t rows, cols;
  int64_t channel_id;
  int32_t global;
  int32_t elem;
  int32_t n;                         /* operands */
  int64_t dims[2][REF_RANK];         /* operand shapes, rank 3 */
  int64_t dim, dim2;                 /* gather/scatter dim; all_to_all split, concat */
} RefCase;

/* ---- Element types and their regions ------------------------------------ */

/* Each element type of the tests comes with a region; the u32 and u64
 * ones are not commutative, so a fold in another order shows. */
static void ref_add_u8(void *ctx, void *acc, const void *x, int64_t n) {
  (void)ctx;
  for (int64_t i = 0; i < n; i++) ((uint8_t *)acc)[i] += ((const uint8_t *)x)[i];
}
static void ref_max_i16(void *ctx, void *acc, const void *x, int64_t n) {
  (void)ctx;
  int16_t *a = acc;
  const int16_t *b = x;
  for (int64_t i = 0; i < n; i++) a[i] = a[i] > b[i] ? a[i] : b[i];
}
static void ref_hash_u32(void *ctx, void *acc, const void *x, int64_t n) {
  (void)ctx;
  uint32_t *a = acc;
  const uint32_t *b = x;
  for (int64_t i = 0; i < n; i++) a[i] = a[i] * 31u + b[i];
}
static void ref_add_f32(void *ctx, void *acc, const void *x, int64_t n) {
  (void)ctx;
  float *a = acc;
  const float *b = x;
  for (int64_t i = 0; i < n; i++) a[i] += b[i];
}
static void ref_mix_u64(void *ctx, void *acc, const void *x, int64_t n) {
  (void)ctx;
  uint64_t *a = acc;
  const uint64_t *b = x;
  for (int64_t i = 0; i < n; i++) a[i] = ((a[i] << 7) | (a[i] >> 57)) ^ b[i];
}
static void ref_add_c128(void *ctx, void *acc, const void *x, int64_t n) {
  (void)ctx;
  double *a = acc;
  const double *b = x;
  for (int64_t i = 0; i < 2 * n; i++) a[i] += b[i];
}

static const int32_t ref_elems[] = {SHLORT_UI8, SHLORT_SI16, SHLORT_UI32, SHLORT_F32, SHLORT_UI64,
                                    SHLORT_C128};

static shlort_combine_fn ref_region(int32_t elem) {
  switch (elem) {
  case SHLORT_UI8: return ref_add_u8;
  case SHLORT_SI16: return ref_max_i16;
  case SHLORT_UI32: return ref_hash_u32;
  case SHLORT_F32: return ref_add_f32;
  case SHLORT_UI64: return ref_mix_u64;
  default: return ref_add_c128;
  }
}

static int ref_esize(int32_t elem) {
  switch (elem) {
  case SHLORT_UI8: return 1;
  case SHLORT_SI16: return 2;
  case SHLORT_UI32: case SHLORT_F32: return 4;
  case SHLORT_UI64: return 8;
  default: return 16;
  }
}

/* ---- Process groups, as the spec's generators yield them ---------------- */

typedef struct RefGroups {
  int n;                       /* groups */
  int size[REF_MAXN * 2];
  int id[REF_MAXN * 2][REF_MAXN]; /* flattened process ids */
} RefGroups;

/* The rows of the attribute, -1 padding dropped; empty = one row of all. */
static int ref_rows(const RefCase *c, int64_t range, int64_t out[][REF_MAXN], int *len) {
  if (c->rows == 0) {
    for (int64_t i = 0; i < range; i++) out[0][i] = i;
    len[0] = (int)range;
    return 1;
  }
  for (int64_t r = 0; r < c->rows; r++) {
    len[r] = 0;
    for (int64_t j = 0; j < c->cols; j++)
      if (c->ids[r * c->cols + j] != -1) out[r][len[r]++] = c->ids[r * c->cols + j];
  }
  return (int)c->rows;
}

static bool ref_reduction_family(RefOp op) {
  return op == REF_ALL_REDUCE || op == REF_ALL_GATHER || op == REF_REDUCE_SCATTER ||
         op == REF_COLLECTIVE_REDUCE;
}

static void ref_groups(const RefCase *c, RefGroups *g) {
  int64_t rows[REF_MAXN][REF_MAXN];
  int len[REF_MAXN];
  int np = (int)c->np, nr = (int)c->nr;
  g->n = 0;
  if (ref_reduction_family(c->op) && c->channel_id > 0 && c->global) { /* flattened_ids */
    int k = ref_rows(c, nr * np, rows, len);
    for (int r = 0; r < k; r++) {
      g->size[g->n] = len[r];
      for (int j = 0; j < len[r]; j++) g->id[g->n][j] = (int)rows[r][j];
      g->n++;
    }
  } else if (ref_reduction_family(c->op) && c->channel_id > 0) { /* cross_replica_and_partition */
    int k = ref_rows(c, nr, rows, len);
    for (int r = 0; r < k; r++) {
      int n = 0;
      for (int p = 0; p < np; p++)
        for (int j = 0; j < len[r]; j++) g->id[g->n][n++] = (int)rows[r][j] * np + p;
      g->size[g->n++] = n;
    }
  } else if (c->channel_id > 0) { /* cross_partition */
    int k = ref_rows(c, np, rows, len);
    for (int r = 0; r < k; r++)
      for (int rep = 0; rep < nr; rep++) {
        for (int j = 0; j < len[r]; j++) g->id[g->n][j] = rep * np + (int)rows[r][j];
        g->size[g->n++] = len[r];
      }
  } else { /* cross_replica */
    int k = ref_rows(c, nr, rows, len);
    for (int r = 0; r < k; r++)
      for (int p = 0; p < np; p++) {
        for (int j = 0; j < len[r]; j++) g->id[g->n][j] = (int)rows[r][j] * np + p;
        g->size[g->n++] = len[r];
      }
  }
}

/* The group holding process id, its size and the process's position. */
static const int *ref_find(const RefGroups *g, int id, int *size, int *index) {
  for (int k = 0; k < g->n; k++)
    for (int j = 0; j < g->size[k]; j++)
      if (g->id[k][j] == id) {
        *size = g->size[k];
        *index = j;
        return g->id[k];
      }
  *size = 0;
  return NULL;
}

/* ---- Shapes -------------------------------------------------------------- */

static int64_t ref_count(const int64_t *d) { return d[0] * d[1] * d[2]; }

static int64_t ref_lin(const int64_t *i, const int64_t *d) {
  return (i[0] * d[1] + i[1]) * d[2] + i[2];
}

static void ref_unlin(int64_t l, const int64_t *d, int64_t *i) {
  i[2] = l % d[2];
  i[1] = l / d[2] % d[1];
  i[0] = l / (d[1] * d[2]);
}

/* The result shape of operand k for a group of `size`. */
static void ref_result_dims(const RefCase *c, int k, int size, int64_t *d) {
  memcpy(d, c->dims[k], sizeof c->dims[k]);
  if (c->op == REF_ALL_GATHER) d[c->dim] *= size;
  if (c->op == REF_REDUCE_SCATTER) d[c->dim] /= size;
  if (c->op == REF_ALL_TO_ALL) d[c->dim] /= size, d[c->dim2] *= size;
}

/* ---- Expected results ---------------------------------------------------- */

/* in[p][k]: operand k of process p. Writes process id's results to out[k]
 * (already sized by ref_result_dims); returns the group size (0: none). */
static int ref_expect(const RefCase *c, void *const in[][2], int id, void *out[2]) {
  RefGroups g;
  ref_groups(c, &g);
  int size = 0, index = 0, es = ref_esize(c->elem);
  const int *grp = NULL;
  if (c->op == REF_PERMUTE) {
    /* source_target_pairs under the channel rule, within the process's
     * partition (cross_replica) or replica (cross_partition). */
    int np = (int)c->np, src = -1, mine = c->channel_id > 0 ? id % np : id / np;
    for (int64_t r = 0; r < c->rows; r++)
      if (c->ids[2 * r + 1] == mine) src = (int)c->ids[2 * r];
    int64_t bytes = ref_count(c->dims[0]) * es;
    if (src < 0) memset(out[0], 0, (size_t)bytes);
    else memcpy(out[0], in[c->channel_id > 0 ? id / np * np + src : src * np + id % np][0],
                (size_t)bytes);
    return 1;
  }
  grp = ref_find(&g, id, &size, &index);
  shlort_combine_fn f = ref_region(c->elem);
  for (int k = 0; k < c->n; k++) {
    int64_t d[REF_RANK], idx[REF_RANK], n = ref_count(c->dims[k]);
    ref_result_dims(c, k, size ? size : 1, d);
    unsigned char *o = out[k];
    if (!grp) { /* collective_broadcast: zeros */
      memset(o, 0, (size_t)(n * es));
      continue;
    }
    switch (c->op) {
    case REF_ALL_REDUCE:
    case REF_COLLECTIVE_REDUCE:
      if (c->op == REF_COLLECTIVE_REDUCE && index != 0) {
        memset(o, 0, (size_t)(n * es));
        break;
      }
      memcpy(o, in[grp[0]][k], (size_t)(n * es));
      for (int j = 1; j < size; j++) f(NULL, o, in[grp[j]][k], n);
      break;
    case REF_BROADCAST: memcpy(o, in[grp[0]][k], (size_t)(n * es)); break;
    case REF_ALL_GATHER:
      for (int64_t l = 0; l < ref_count(d); l++) {
        ref_unlin(l, d, idx);
        int from = (int)(idx[c->dim] / c->dims[k][c->dim]);
        idx[c->dim] %= c->dims[k][c->dim];
        memcpy(o + l * es, (unsigned char *)in[grp[from]][k] + ref_lin(idx, c->dims[k]) * es,
               (size_t)es);
      }
      break;
    case REF_REDUCE_SCATTER:
      for (int64_t l = 0; l < ref_count(d); l++) {
        ref_unlin(l, d, idx);
        idx[c->dim] += index * d[c->dim];
        int64_t at = ref_lin(idx, c->dims[k]) * es;
        memcpy(o + l * es, (unsigned char *)in[grp[0]][k] + at, (size_t)es);
        for (int j = 1; j < size; j++) f(NULL, o + l * es, (unsigned char *)in[grp[j]][k] + at, 1);
      }
      break;
    default: { /* all_to_all */
      int64_t part[REF_RANK];
      memcpy(part, c->dims[k], sizeof part);
      part[c->dim] /= size;
      for (int64_t l = 0; l < ref_count(d); l++) {
        ref_unlin(l, d, idx);
        int from = (int)(idx[c->dim2] / part[c->dim2]);
        idx[c->dim2] %= part[c->dim2];
        idx[c->dim] += index * part[c->dim];
        memcpy(o + l * es, (unsigned char *)in[grp[from]][k] + ref_lin(idx, c->dims[k]) * es,
               (size_t)es);
      }
    }
    }
  }
  return size;
}

/* ---- The cases ------------------------------------------------------------ */

/* Group attributes to try on an nr x np grid. */
typedef struct RefAttr {
  int64_t ids[REF_MAXN * 2], rows, cols, channel_id;
  int32_t global;
} RefAttr;

static int ref_attr(RefAttr *a, int64_t rows, int64_t cols, int64_t channel_id, int32_t global) {
  a->rows = rows;
  a->cols = cols;
  a->channel_id = channel_id;
  a->global = global;
  return 1;
}

/* Pairs [[0, 1], [2, 3], ...] of `range` ids (reversed: [[1, 0], ...]). */
static int ref_pairs(RefAttr *a, int64_t range, bool reversed, int64_t channel_id) {
  for (int64_t i = 0; i < range; i++) a->ids[i] = reversed ? i ^ 1 : i;
  return ref_attr(a, range / 2, 2, channel_id, 0);
}

static int ref_group_attrs(RefOp op, uint32_t nr, uint32_t np, RefAttr *a) {
  int n = 0;
  int64_t all = (int64_t)nr * np;
  if (op == REF_PERMUTE) {
    for (int64_t i = 0; i + 1 < nr; i++) a[n].ids[2 * i] = i, a[n].ids[2 * i + 1] = i + 1;
    n += ref_attr(&a[n], nr - 1, 2, 0, 0); /* a shift: replica 0 gets zeros */
    for (int64_t i = 0; i < nr; i++) a[n].ids[2 * i] = i, a[n].ids[2 * i + 1] = (i + 1) % nr;
    n += ref_attr(&a[n], nr, 2, 0, 0); /* a ring */
    for (int64_t i = 0; i < np; i++) a[n].ids[2 * i] = np - 1 - i, a[n].ids[2 * i + 1] = i;
    n += ref_attr(&a[n], np, 2, 1, 0); /* partitions reversed */
    a[n].ids[0] = a[n].ids[1] = 0;
    n += ref_attr(&a[n], 1, 2, 0, 0); /* a self loop, the rest zeros */
    n += ref_attr(&a[n], 0, 0, 0, 0);
    return n;
  }
  n += ref_attr(&a[n], 0, 0, 0, 0);
  n += ref_attr(&a[n], 0, 0, 1, 0);
  if (nr % 2 == 0) n += ref_pairs(&a[n], nr, true, 0);
  if (ref_reduction_family(op)) {
    n += ref_attr(&a[n], 0, 0, 1, 1);
    if (nr % 2 == 0) n += ref_pairs(&a[n], nr, false, 1);
    if (all % 2 == 0) { /* flattened [[i, i + all/2]] */
      for (int64_t i = 0; i < all / 2; i++) a[n].ids[2 * i] = i, a[n].ids[2 * i + 1] = i + all / 2;
      n += ref_attr(&a[n], all / 2, 2, 1, 1);
    }
    for (int64_t i = 0; i < nr; i++) a[n].ids[i] = i;
    n += ref_attr(&a[n], nr, 1, 0, 0); /* singletons */
  } else {
    if (np % 2 == 0) n += ref_pairs(&a[n], np, false, 1);
  }
  if (op == REF_BROADCAST && nr >= 2) { /* the corpus's partial cover */
    a[n].ids[0] = nr - 1;
    a[n].ids[1] = 0;
    n += ref_attr(&a[n], 1, 2, 0, 0);
  }
  if ((op == REF_ALL_REDUCE || op == REF_BROADCAST) && nr == 3) { /* ragged */
    int64_t ragged[] = {0, 1, 2, -1};
    memcpy(a[n].ids, ragged, sizeof ragged);
    n += ref_attr(&a[n], 2, 2, 0, 0);
  }
  return n;
}

/* Operand shapes: split dimensions are multiples of 24 (every group size
 * of the test grids divides them); the large all_reduce shapes pass the
 * runtime's small-message threshold and split unevenly. */
static void ref_shapes(RefCase *c, int variant) {
  static const int64_t split[3][REF_RANK] = {{24, 2, 3}, {2, 24, 3}, {3, 2, 24}};
  static const int64_t a2a[4][2] = {{1, 0}, {0, 0}, {2, 1}, {0, 2}};
  c->n = 1;
  switch (c->op) {
  case REF_ALL_REDUCE:
  case REF_COLLECTIVE_REDUCE: {
    static const int64_t shapes[3][2][REF_RANK] = {
        {{2, 3, 5}, {1, 1, 1}}, {{7, 11, 263}, {1, 1, 1}}, {{4, 1, 1}, {5, 1, 1}}};
    memcpy(c->dims, shapes[variant % 3], sizeof c->dims);
    c->n = variant % 3 == 2 ? 2 : 1; /* variadic, as the corpus's case */
    break;
  }
  case REF_ALL_GATHER:
  case REF_REDUCE_SCATTER:
    c->dim = variant % 3;
    memcpy(c->dims[0], split[c->dim], sizeof c->dims[0]);
    if (variant % 2) { /* variadic */
      memcpy(c->dims[1], split[(c->dim + 1) % 3], sizeof c->dims[1]);
      c->dims[1][c->dim] = 48;
      c->n = 2;
    }
    break;
  case REF_ALL_TO_ALL:
    c->dim = a2a[variant % 4][0];
    c->dim2 = a2a[variant % 4][1];
    memcpy(c->dims[0], split[c->dim], sizeof c->dims[0]);
    memcpy(c->dims[1], split[c->dim], sizeof c->dims[1]);
    c->dims[1][(c->dim + 1) % 3] += 1;
    c->n = variant % 2 ? 2 : 1;
    break;
  default: {
    static const int64_t d[REF_RANK] = {3, 1, 7};
    memcpy(c->dims[0], d, sizeof d);
  }
  }
}

/* Every case on an nr x np grid: each op, group attributes, element type
 * and shape variant. Returns the count (at most max). */
static int ref_make_cases(uint32_t nr, uint32_t np, RefCase *out, int max) {
  int n = 0;
  for (int op = 0; op < REF_OPS; op++) {
    RefAttr attrs[16];
    int na = ref_group_attrs((RefOp)op, nr, np, attrs);
    for (int a = 0; a < na; a++) {
      for (size_t e = 0; e < sizeof ref_elems / sizeof ref_elems[0]; e++) {
        for (int v = 0; v < 4 && n < max; v++) {
          RefCase *c = &out[n];
          memset(c, 0, sizeof *c);
          c->op = (RefOp)op;
          c->nr = nr;
          c->np = np;
          memcpy(c->ids, attrs[a].ids, sizeof c->ids);
          c->rows = attrs[a].rows;
          c->cols = attrs[a].cols;
          c->channel_id = attrs[a].channel_id;
          c->global = attrs[a].global;
          c->elem = ref_elems[e];
          ref_shapes(c, v + (int)e);
          n++;
        }
      }
    }
  }
  return n;
}

/* FNV-1a over results: the threads and MPI tests print one digest per
 * grid and process, and tests/runtime/run.sh compares them. */
static uint64_t ref_digest(uint64_t h, const void *p, size_t n) {
  const unsigned char *q = p;
  for (size_t i = 0; i < n; i++) h = (h ^ q[i]) * 1099511628211ull;
  return h;
}

#define REF_DIGEST_SEED 14695981039346656037ull

/* Operand k of process id of case number `seed`, deterministic. */
static void ref_input(const RefCase *c, int seed, int id, int k, void *out) {
  uint64_t s = 0x9E3779B97F4A7C15ull * (uint64_t)(seed * 131 + id * 7 + k + 1);
  int64_t n = ref_count(c->dims[k]);
  unsigned char *o = out;
  for (int64_t i = 0; i < n; i++) {
    s ^= s >> 12, s ^= s << 25, s ^= s >> 27;
    uint64_t r = s * 0x2545F4914F6CDD1Dull;
    if (c->elem == SHLORT_F32) {
      float f = (float)((int64_t)(r >> 40) - (1 << 23)) / 4096.0f;
      memcpy(o + i * 4, &f, 4);
    } else if (c->elem == SHLORT_C128) {
      double d[2] = {(double)(r >> 11) * 0x1p-53 - 0.5, (double)(r & 0xFFFFF) - 5e5};
      memcpy(o + i * 16, d, 16);
    } else {
      memcpy(o + i * ref_esize(c->elem), &r, (size_t)ref_esize(c->elem));
    }
  }
}

#endif
