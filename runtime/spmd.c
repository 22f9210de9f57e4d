/* spmd.c: the process context, error messages and tensor layout helpers
 * that both grid implementations (threads, MPI) share. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "spmd.h"

/* Folds of at least this many bytes stream their results (store_block). */
enum { STREAM_BYTES = 1 << 20 };

uint32_t shlort_replica_id(const shlort_proc *p) { return p->replica; }
uint32_t shlort_partition_id(const shlort_proc *p) { return p->partition; }
uint32_t shlort_num_replicas(const shlort_proc *p) { return p->num_replicas; }
uint32_t shlort_num_partitions(const shlort_proc *p) { return p->num_partitions; }
const char *shlort_proc_message(const shlort_proc *p) { return p->message; }

int32_t shlort_expect_grid(shlort_proc *p, const shlort_op *op, uint32_t num_replicas,
                           uint32_t num_partitions) {
  if (p->num_replicas == num_replicas && p->num_partitions == num_partitions) return SHLORT_OK;
  return shlort_fail(p, op, SHLORT_INVALID, "compiled for a %ux%u grid, runs on a %ux%u grid",
                     num_replicas, num_partitions, p->num_replicas, p->num_partitions);
}

/* splitmix64: spreads (seed, process) over the whole Philox key space so
 * that neighbouring processes get unrelated streams. */
static uint64_t mix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

void shlort_proc_setup(shlort_proc *p, uint32_t num_replicas, uint32_t num_partitions,
                       int32_t index, int64_t timeout_ms, uint64_t rng_seed) {
  p->num_replicas = num_replicas;
  p->num_partitions = num_partitions;
  p->nprocs = (int32_t)(num_replicas * num_partitions);
  p->index = index;
  p->replica = (uint32_t)index / num_partitions;
  p->partition = (uint32_t)index % num_partitions;
  p->timeout_ms = timeout_ms > 0 ? timeout_ms : SHLORT_DEFAULT_TIMEOUT_MS;
  p->rng_key = mix64(rng_seed ^ mix64((uint64_t)index));
  p->rng_counter = 0;
  p->task = NULL;
  p->message[0] = 0;
}

void shlort_proc_begin(shlort_proc *p, shlort_task *task) {
  p->task = task;
  p->status = SHLORT_OK;
  p->message[0] = 0;
  task->status = SHLORT_OK;
  task->infeed_used = task->outfeed_used = 0;
  task->checks = 0;
}

int32_t shlort_fail(shlort_proc *p, const shlort_op *op, int32_t status, const char *fmt,
                    ...) {
  int len = snprintf(p->message, sizeof p->message, "%s at %s on process (%u,%u): ",
                     op && op->name ? op->name : "runtime call",
                     op && op->loc ? op->loc : "?", p->replica, p->partition);
  if (len < 0 || (size_t)len >= sizeof p->message) len = (int)sizeof p->message - 1;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(p->message + len, sizeof p->message - (size_t)len, fmt, ap);
  va_end(ap);
  p->status = status;
  if (p->on_fail) p->on_fail(p);
  return status;
}

int64_t shlort_tensor_bytes(const shlort_tensor *t) {
  int64_t bytes = shlort_elem_bytes(t->elem);
  if (bytes < 0 || t->rank < 0) return -1;
  for (int32_t i = 0; i < t->rank; i++) {
    if (t->dims[i] < 0) return -1;
    bytes *= t->dims[i];
  }
  return bytes;
}

bool shlort_same_type(const shlort_tensor *a, const shlort_tensor *b) {
  if (a->elem != b->elem || a->rank != b->rank) return false;
  for (int32_t i = 0; i < a->rank; i++)
    if (a->dims[i] != b->dims[i]) return false;
  return true;
}

/* The MLIR spelling of a code, from its name in SHLORT_ELEM_TYPES:
 * leading letters lowered (BF16 -> bf16, F8E4M3FN -> f8E4M3FN), SI -> i. */
static void format_elem(char *buf, size_t size, int32_t elem) {
  const char *name = NULL;
#define X(n, code, bits, cls, spelling) \
  if (elem == code) name = #n;
  SHLORT_ELEM_TYPES(X)
#undef X
  if (!name) {
    snprintf(buf, size, "<element type %d>", (int)elem);
    return;
  }
  if (elem == SHLORT_C64 || elem == SHLORT_C128) {
    snprintf(buf, size, "complex<f%d>", elem == SHLORT_C64 ? 32 : 64);
    return;
  }
  if (name[0] == 'S' && name[1] == 'I') name++;
  size_t i = 0;
  for (bool lead = true; name[i] && i + 1 < size; i++) {
    lead = lead && !(name[i] >= '0' && name[i] <= '9');
    buf[i] = lead ? (char)(name[i] - 'A' + 'a') : name[i];
  }
  buf[i] = 0;
}

void shlort_format_type(char *buf, size_t size, const shlort_tensor *t) {
  size_t len = (size_t)snprintf(buf, size, "tensor<");
  for (int32_t i = 0; i < t->rank && len < size; i++)
    len += (size_t)snprintf(buf + len, size - len, "%lldx", (long long)t->dims[i]);
  if (len >= size) return;
  format_elem(buf + len, size - len, t->elem);
  len += strlen(buf + len);
  if (len < size) snprintf(buf + len, size - len, ">");
}

void shlort_format_process(char *buf, size_t size, const shlort_proc *p, int32_t id) {
  snprintf(buf, size, "(%u,%u)", (uint32_t)id / p->num_partitions,
           (uint32_t)id % p->num_partitions);
}

int64_t shlort_split_rows(const shlort_tensor *t, int64_t dim, int64_t parts,
                          int64_t *outer) {
  if (dim < 0 || dim >= t->rank || parts <= 0 || t->dims[dim] % parts) return -1;
  int64_t o = 1, row = shlort_elem_bytes(t->elem) * (t->dims[dim] / parts);
  for (int64_t i = 0; i < dim; i++) o *= t->dims[i];
  for (int64_t i = dim + 1; i < t->rank; i++) row *= t->dims[i];
  *outer = o;
  return row;
}

void shlort_copy_rows(unsigned char *dst, int64_t dst_row, int64_t dst_stride,
                      const unsigned char *src, int64_t src_row, int64_t src_stride,
                      int64_t total) {
  if (dst_row == dst_stride && src_row == src_stride) {
    memcpy(dst, src, (size_t)total);
    return;
  }
  int64_t di = 0, si = 0; /* offsets inside the current rows */
  while (total > 0) {
    int64_t len = dst_row - di < src_row - si ? dst_row - di : src_row - si;
    memcpy(dst + di, src + si, (size_t)len);
    total -= len;
    di += len;
    si += len;
    if (di == dst_row) dst += dst_stride, di = 0;
    if (si == src_row) src += src_stride, si = 0;
  }
}

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Copies a folded block (in cache) to a destination in memory. Large
 * folds stream it past the caches where the target has streaming stores:
 * a plain store first reads the line it writes, which would add a third
 * to the traffic of the fold. */
static void store_block(void *dst, const void *src, size_t len, bool stream) {
#if defined(__SSE2__)
  if (stream && !((uintptr_t)dst & 15) && !((uintptr_t)src & 15) && !(len & 15)) {
    for (size_t i = 0; i < len; i += 16)
      _mm_stream_si128((__m128i *)(void *)((char *)dst + i),
                       _mm_load_si128((const __m128i *)(const void *)((const char *)src + i)));
    return;
  }
#endif
  (void)stream;
  memcpy(dst, src, len);
}

void shlort_fold_many(shlort_proc *p, void *const *dsts, int32_t ndst, const void *const *srcs,
                      int32_t k, int64_t bytes, int32_t esize, shlort_combine_fn combine,
                      void *ctx) {
  unsigned char *acc = p->block;
  bool stream = bytes >= STREAM_BYTES;
  for (int64_t off = 0; off < bytes; off += SHLORT_BLOCK_BYTES) {
    int64_t len = bytes - off < SHLORT_BLOCK_BYTES ? bytes - off : SHLORT_BLOCK_BYTES;
    memcpy(acc, (const unsigned char *)srcs[0] + off, (size_t)len);
    for (int32_t j = 1; j < k; j++)
      combine(ctx, acc, (const unsigned char *)srcs[j] + off, len / esize);
    for (int32_t d = 0; d < ndst; d++)
      store_block((unsigned char *)dsts[d] + off, acc, (size_t)len, stream);
  }
#if defined(__SSE2__)
  if (stream) _mm_sfence(); /* streamed stores are visible before the barrier */
#endif
}

void shlort_fold(shlort_proc *p, void *dst, const void *const *srcs, int32_t k, int64_t bytes,
                 int32_t esize, shlort_combine_fn combine, void *ctx) {
  shlort_fold_many(p, &dst, 1, srcs, k, bytes, esize, combine, ctx);
}

static int32_t check_tensor(shlort_proc *p, const shlort_op *op, const char *what, int32_t i,
                            const shlort_tensor *t) {
  int64_t bytes = shlort_tensor_bytes(t);
  if (bytes < 0)
    return shlort_fail(p, op, SHLORT_INVALID, "%s %d: unsupported element type %d or shape",
                       what, (int)i, (int)t->elem);
  if (bytes > 0 && !t->data)
    return shlort_fail(p, op, SHLORT_INVALID, "%s %d: no data", what, (int)i);
  return SHLORT_OK;
}

int32_t shlort_check_tensors(shlort_proc *p, const shlort_op *op, int32_t n,
                             const shlort_tensor *operands, const shlort_tensor *results) {
  if (n < 1) return shlort_fail(p, op, SHLORT_INVALID, "%d operands", (int)n);
  for (int32_t i = 0; i < n; i++) {
    int32_t rc = check_tensor(p, op, "operand", i, &operands[i]);
    if (!rc) rc = check_tensor(p, op, "result", i, &results[i]);
    if (rc) return rc;
  }
  return SHLORT_OK;
}

int32_t shlort_check_types(shlort_proc *p, const shlort_op *op, const char *what,
                           int32_t ngot, const shlort_tensor *got, int32_t nwant,
                           const shlort_tensor *want) {
  if (ngot != nwant)
    return shlort_fail(p, op, SHLORT_MISMATCH, "%s %d tensors, the op has %d", what, (int)ngot,
                       (int)nwant);
  for (int32_t i = 0; i < ngot; i++) {
    if (shlort_same_type(&got[i], &want[i])) continue;
    char g[96], w[96];
    shlort_format_type(g, sizeof g, &got[i]);
    shlort_format_type(w, sizeof w, &want[i]);
    return shlort_fail(p, op, SHLORT_MISMATCH, "%s %s as tensor %d, the op has %s", what, g,
                       (int)i, w);
  }
  return SHLORT_OK;
}

/* The dims of t with dims[split_dim] / parts and dims[concat_dim] * copies;
 * false when the rank is too large or the split does not divide. */
static bool resized_dims(const shlort_tensor *t, int64_t split_dim, int64_t parts,
                         int64_t concat_dim, int64_t copies, int64_t *dims) {
  if (t->rank > SHLORT_MAX_RANK) return false;
  for (int32_t d = 0; d < t->rank; d++) dims[d] = t->dims[d];
  if (split_dim >= 0) {
    if (split_dim >= t->rank || parts <= 0 || dims[split_dim] % parts) return false;
    dims[split_dim] /= parts;
  }
  if (concat_dim >= 0) {
    if (concat_dim >= t->rank) return false;
    dims[concat_dim] *= copies;
  }
  return true;
}

int32_t shlort_check_resized(shlort_proc *p, const shlort_op *op, int32_t n,
                             const shlort_tensor *operands, const shlort_tensor *results,
                             int64_t split_dim, int64_t parts, int64_t concat_dim,
                             int64_t copies) {
  for (int32_t i = 0; i < n; i++) {
    int64_t dims[SHLORT_MAX_RANK];
    shlort_tensor want = operands[i];
    want.dims = dims;
    char o[96], r[96];
    shlort_format_type(o, sizeof o, &operands[i]);
    if (!resized_dims(&operands[i], split_dim, parts, concat_dim, copies, dims))
      return shlort_fail(p, op, SHLORT_INVALID,
                         "operand %d (%s) cannot be split in %lld along dimension %lld", (int)i,
                         o, (long long)parts, (long long)split_dim);
    if (shlort_same_type(&results[i], &want)) continue;
    shlort_format_type(r, sizeof r, &results[i]);
    shlort_format_type(o, sizeof o, &want);
    return shlort_fail(p, op, SHLORT_INVALID, "result %d is %s, the op makes %s", (int)i, r, o);
  }
  return SHLORT_OK;
}

int32_t shlort_check_same(shlort_proc *p, const shlort_op *op, int32_t n,
                          const shlort_tensor *operands, const shlort_tensor *results) {
  int32_t rc = shlort_check_tensors(p, op, n, operands, results);
  return rc ? rc : shlort_check_resized(p, op, n, operands, results, -1, 1, -1, 1);
}

void shlort_copy_tensors(int32_t n, const shlort_tensor *operands,
                         const shlort_tensor *results) {
  for (int32_t i = 0; i < n; i++)
    if (results[i].data != operands[i].data)
      memcpy(results[i].data, operands[i].data, (size_t)shlort_tensor_bytes(&operands[i]));
}

void shlort_zero(const shlort_tensor *t) { memset(t->data, 0, (size_t)shlort_tensor_bytes(t)); }

int64_t shlort_elems(const shlort_tensor *t) {
  return shlort_tensor_bytes(t) / shlort_elem_bytes(t->elem);
}

/* Written without n * k so that it cannot overflow. */
int64_t shlort_slice_begin(int64_t n, int64_t parts, int64_t k) {
  return k * (n / parts) + (k < n % parts ? k : n % parts);
}

const char *shlort_kind_name(int32_t kind) {
  static const char *const names[] = {
      [SHLORT_K_ALL_REDUCE] = "all_reduce",         [SHLORT_K_ALL_GATHER] = "all_gather",
      [SHLORT_K_REDUCE_SCATTER] = "reduce_scatter", [SHLORT_K_ALL_TO_ALL] = "all_to_all",
      [SHLORT_K_PERMUTE] = "collective_permute",    [SHLORT_K_BROADCAST] = "collective_broadcast",
      [SHLORT_K_COLLECTIVE_REDUCE] = "collective_reduce"};
  return kind >= 0 && kind <= SHLORT_K_COLLECTIVE_REDUCE ? names[kind] : "?";
}

bool shlort_proc_end(shlort_proc *p, int32_t status) {
  shlort_task *t = p->task;
  t->status = status;
  t->checks = shlort_check_count();
  if (!status || p->message[0]) return false;
  const char *why = shlort_check_last_failure();
  if (why[0])
    snprintf(p->message, sizeof p->message, "process (%u,%u): %s", p->replica, p->partition, why);
  else
    snprintf(p->message, sizeof p->message, "process (%u,%u): the entry returned status %d",
             p->replica, p->partition, (int)status);
  p->status = status;
  return true;
}
