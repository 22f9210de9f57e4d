/* collectives.c: the collective ops over threads (libshlort.a), on the
 * rendezvous of grid.h. Semantics: the spec's section of each op. Every
 * member of a group reads its peers' operands in place between joining
 * and leaving the meeting, and writes only its own results (all_reduce:
 * its slice of every result).
 *
 * all_reduce splits the work and the memory traffic over the group: each
 * member folds its slice of the elements from every peer's operand and
 * writes it into every peer's result (a reduce-scatter and an all-gather
 * in one pass, one barrier fewer): every operand byte is read once and
 * every result byte written once. Every element is folded once, in group
 * order, so all members get the same bits. */
#include <stdio.h>
#include <string.h>

#include "grid.h"

static unsigned char *bytes_at(const shlort_tensor *t, int64_t offset) {
  return (unsigned char *)t->data + offset;
}

/* ------------------------------------------------------------------------ */
/* Meeting and agreeing */

/* Whether the members are at the same collective with the same operand
 * types and attributes (grid.h shlort_agree_fn; run once per meeting).
 * p->members is the group of the member that calls it, the same list. */
static int32_t agree(const shlort_proc *p, const Post *const *posts, int32_t size, char *why,
                     size_t why_size) {
  const Post *a = posts[0];
  char who[32], whom[32];
  shlort_format_process(whom, sizeof whom, p, p->members[0]);
  for (int32_t j = 1; j < size; j++) {
    const Post *b = posts[j];
    shlort_format_process(who, sizeof who, p, p->members[j]);
    if (a->kind != b->kind) {
      snprintf(why, why_size, "process %s is at %s (%s at %s), process %s at %s", who,
               shlort_kind_name(b->kind), b->op->name, b->op->loc, whom, shlort_kind_name(a->kind));
      return SHLORT_MISMATCH;
    }
    if (a->n != b->n || memcmp(a->params, b->params, sizeof a->params)) {
      snprintf(why, why_size,
               "processes %s and %s disagree on the op's operand count or attributes", whom,
               who);
      return SHLORT_MISMATCH;
    }
    for (int32_t i = 0; i < a->n; i++) {
      if (shlort_same_type(&a->operands[i], &b->operands[i])) continue;
      char ta[96], tb[96];
      shlort_format_type(ta, sizeof ta, &a->operands[i]);
      shlort_format_type(tb, sizeof tb, &b->operands[i]);
      snprintf(why, why_size, "operand %d is %s on process %s, %s on process %s", (int)i, ta,
               whom, tb, who);
      return SHLORT_MISMATCH;
    }
  }
  return SHLORT_OK;
}

static int32_t meet(shlort_proc *p, const shlort_op *op, const Post *post, int32_t size,
                    int32_t index, Meet *m) {
  return shlort_grid_join(p, op, size, index, post, agree, m);
}

/* ------------------------------------------------------------------------ */
/* all_reduce, collective_reduce */

/* Folds operand i over the group, elements [begin, end), into this
 * member's result, or into every member's (to_all). */
static void fold_range(shlort_proc *p, const Meet *m, int32_t i, int64_t begin, int64_t end,
                       bool to_all, shlort_combine_fn combine, void *ctx) {
  int32_t esize = shlort_elem_bytes(m->posts[m->index]->results[i].elem), ndst = 0;
  for (int32_t j = 0; j < m->size; j++) {
    p->srcs[j] = bytes_at(&m->posts[j]->operands[i], begin * esize);
    if (to_all || j == m->index)
      p->dsts[ndst++] = bytes_at(&m->posts[j]->results[i], begin * esize);
  }
  shlort_fold_many(p, p->dsts, ndst, p->srcs, m->size, (end - begin) * esize, esize, combine,
                   ctx);
}

/* all_reduce: see the top of the file; only a slice's folder touches the
 * slice, in every buffer, so results may be their operands (in place).
 * collective_reduce: the group's first member folds everything for
 * itself, the others get zeros. */
int32_t shlort_transport_reduce(shlort_proc *p, const shlort_op *op, const shlort_groups *g,
                                int32_t kind, int32_t n, const shlort_tensor *operands,
                                const shlort_tensor *results, shlort_combine_fn combine,
                                void *ctx) {
  int32_t size, index, rc = shlort_begin_reduce(p, op, g, n, operands, results, &size, &index);
  if (rc) return rc;
  if (size == 1) {
    shlort_copy_tensors(n, operands, results);
    return SHLORT_OK;
  }
  Post post = {op, kind, n, operands, results, {0}};
  Meet m;
  if ((rc = meet(p, op, &post, size, index, &m))) return rc;
  for (int32_t i = 0; i < n; i++) {
    int64_t e = shlort_elems(&results[i]);
    if (kind == SHLORT_K_ALL_REDUCE)
      fold_range(p, &m, i, shlort_slice_begin(e, size, index),
                 shlort_slice_begin(e, size, index + 1), true, combine, ctx);
    else if (index == 0)
      fold_range(p, &m, i, 0, e, false, combine, ctx);
    else
      shlort_zero(&results[i]);
  }
  return shlort_grid_leave(p, op, &m);
}

/* ------------------------------------------------------------------------ */
/* all_gather, reduce_scatter, all_to_all */

int32_t shlort_all_gather(shlort_proc *p, const shlort_op *op, const shlort_groups *g,
                          int64_t dim, int32_t n, const shlort_tensor *operands,
                          const shlort_tensor *results) {
  int32_t size, index,
      rc = shlort_begin_all_gather(p, op, g, dim, n, operands, results, &size, &index);
  if (rc) return rc;
  Post post = {op, SHLORT_K_ALL_GATHER, n, operands, results, {dim}};
  Meet m;
  if (size > 1 && (rc = meet(p, op, &post, size, index, &m))) return rc;
  for (int32_t i = 0; i < n; i++) {
    int64_t outer, row = shlort_split_rows(&operands[i], dim, 1, &outer);
    for (int32_t k = 0; k < size; k++) {
      const shlort_tensor *src = size > 1 ? &m.posts[k]->operands[i] : &operands[i];
      shlort_copy_rows(bytes_at(&results[i], k * row), row, size * row, src->data, row, row,
                       outer * row);
    }
  }
  return size > 1 ? shlort_grid_leave(p, op, &m) : SHLORT_OK;
}

int32_t shlort_reduce_scatter(shlort_proc *p, const shlort_op *op, const shlort_groups *g,
                              int64_t dim, int32_t n, const shlort_tensor *operands,
                              const shlort_tensor *results, shlort_combine_fn combine,
                              void *ctx) {
  int32_t size, index,
      rc = shlort_begin_reduce_scatter(p, op, g, dim, n, operands, results, &size, &index);
  if (rc) return rc;
  if (size == 1) {
    shlort_copy_tensors(n, operands, results);
    return SHLORT_OK;
  }
  Post post = {op, SHLORT_K_REDUCE_SCATTER, n, operands, results, {dim}};
  Meet m;
  if ((rc = meet(p, op, &post, size, index, &m))) return rc;
  for (int32_t i = 0; i < n; i++) {
    int64_t outer, row = shlort_split_rows(&operands[i], dim, size, &outer);
    int32_t esize = shlort_elem_bytes(operands[i].elem);
    for (int64_t a = 0; a < outer; a++) {
      for (int32_t j = 0; j < size; j++)
        p->srcs[j] = bytes_at(&m.posts[j]->operands[i], (a * size + index) * row);
      shlort_fold(p, bytes_at(&results[i], a * row), p->srcs, size, row, esize, combine, ctx);
    }
  }
  return shlort_grid_leave(p, op, &m);
}

int32_t shlort_all_to_all(shlort_proc *p, const shlort_op *op, const shlort_groups *g,
                          int64_t split_dimension, int64_t concat_dimension,
                          int64_t split_count, int32_t n, const shlort_tensor *operands,
                          const shlort_tensor *results) {
  int32_t size, index,
      rc = shlort_begin_all_to_all(p, op, g, split_dimension, concat_dimension, split_count, n,
                                   operands, results, &size, &index);
  if (rc) return rc;
  Post post = {op, SHLORT_K_ALL_TO_ALL, n, operands, results,
               {split_dimension, concat_dimension, split_count}};
  Meet m;
  if (size > 1 && (rc = meet(p, op, &post, size, index, &m))) return rc;
  for (int32_t i = 0; i < n; i++) {
    /* Sender k's part `index` (rows of `row` bytes, size * row apart)
     * becomes block k of the result (rows of `out`, size * out apart). */
    int64_t outer, row = shlort_split_rows(&operands[i], split_dimension, size, &outer);
    int64_t couter, out = shlort_split_rows(&results[i], concat_dimension, size, &couter);
    for (int32_t k = 0; k < size; k++) {
      const shlort_tensor *src = size > 1 ? &m.posts[k]->operands[i] : &operands[i];
      shlort_copy_rows(bytes_at(&results[i], k * out), out, size * out,
                       bytes_at(src, index * row), row, size * row, outer * row);
    }
  }
  return size > 1 ? shlort_grid_leave(p, op, &m) : SHLORT_OK;
}

/* ------------------------------------------------------------------------ */
/* collective_permute, collective_broadcast */

static int32_t find_root(int32_t *parent, int32_t x) {
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

/* The processes connected to p through source_target_pairs (under the
 * strategy, within p's partition or replica), ascending, into p->members:
 * the permute meets as one group, so that every receiver reads its
 * source's operand while the source waits. Returns the count. */
static int32_t permute_component(shlort_proc *p, int32_t mode, const shlort_groups *g,
                                 int32_t *index) {
  bool by_partition = mode == SHLORT_CROSS_PARTITION;
  int32_t range = (int32_t)(by_partition ? p->num_partitions : p->num_replicas);
  int32_t *parent = p->scratch, mine = (int32_t)(by_partition ? p->partition : p->replica);
  for (int32_t i = 0; i < range; i++) parent[i] = i;
  for (int64_t r = 0; r < g->rows && g->cols == 2; r++)
    parent[find_root(parent, (int32_t)g->ids[2 * r])] =
        find_root(parent, (int32_t)g->ids[2 * r + 1]);
  int32_t n = 0, root = find_root(parent, mine);
  for (int32_t i = 0; i < range; i++) {
    if (find_root(parent, i) != root) continue;
    if (i == mine) *index = n;
    p->members[n++] = (int32_t)(by_partition ? p->replica * p->num_partitions + (uint32_t)i
                                             : (uint32_t)i * p->num_partitions + p->partition);
  }
  return n;
}

static int32_t position(const int32_t *members, int32_t n, int32_t id) {
  for (int32_t i = 0; i < n; i++)
    if (members[i] == id) return i;
  return -1;
}

int32_t shlort_collective_permute(shlort_proc *p, const shlort_op *op,
                                  const shlort_groups *g, const shlort_tensor *operand,
                                  const shlort_tensor *result) {
  int32_t source, target,
      rc = shlort_begin_permute(p, op, g, operand, result, &source, &target);
  if (rc) return rc;
  int32_t index = 0, size = permute_component(p, shlort_channel_group_mode(g), g, &index);
  if (size == 1) {
    if (source < 0) shlort_zero(result);
    else shlort_copy_tensors(1, operand, result); /* a pair from the process to itself */
    return SHLORT_OK;
  }
  Post post = {op, SHLORT_K_PERMUTE, 1, operand, result, {0}};
  Meet m;
  if ((rc = meet(p, op, &post, size, index, &m))) return rc;
  if (source < 0) shlort_zero(result);
  else memcpy(result->data, m.posts[position(p->members, size, source)]->operands[0].data,
              (size_t)shlort_tensor_bytes(result));
  return shlort_grid_leave(p, op, &m);
}

int32_t shlort_collective_broadcast(shlort_proc *p, const shlort_op *op,
                                    const shlort_groups *g, const shlort_tensor *operand,
                                    const shlort_tensor *result) {
  int32_t size, index, rc = shlort_begin_broadcast(p, op, g, operand, result, &size, &index);
  if (rc) return rc;
  if (size <= 1) {
    if (size == 0) shlort_zero(result);
    else shlort_copy_tensors(1, operand, result);
    return SHLORT_OK;
  }
  Post post = {op, SHLORT_K_BROADCAST, 1, operand, result, {0}};
  Meet m;
  if ((rc = meet(p, op, &post, size, index, &m))) return rc;
  memcpy(result->data, m.posts[0]->operands[0].data, (size_t)shlort_tensor_bytes(result));
  return shlort_grid_leave(p, op, &m);
}
