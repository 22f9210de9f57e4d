/* groups.c: process groups of the collective ops, computed from the op's
 * attributes exactly as the spec's "Collective ops" section describes
 * (cross_replica, cross_partition, cross_replica_and_partition,
 * flattened_ids) and each op's choice among them. Pure functions of the
 * attributes and the grid size, shared by the threads and MPI builds.
 *
 * Beyond the spec text, as XLA and the upstream interpreter read the
 * attributes: -1 entries pad ragged groups (replica_groups = [[0, 1], [2,
 * -1]]) and are skipped; an empty replica_groups means one group of every
 * id. */
#include <stdarg.h>
#include <stdio.h>

#include "spmd.h"

int32_t shlort_reduction_group_mode(const shlort_groups *g, int32_t *mode) {
  if (g->use_global_device_ids && g->channel_id <= 0) return SHLORT_INVALID;
  if (g->use_global_device_ids) *mode = SHLORT_FLATTENED_IDS;
  else if (g->channel_id > 0) *mode = SHLORT_CROSS_REPLICA_AND_PARTITION;
  else *mode = SHLORT_CROSS_REPLICA;
  return SHLORT_OK;
}

int32_t shlort_channel_group_mode(const shlort_groups *g) {
  return g->channel_id > 0 ? SHLORT_CROSS_PARTITION : SHLORT_CROSS_REPLICA;
}

/* What the ids of each strategy count: replicas, partitions or processes. */
static int64_t id_range(uint32_t nr, uint32_t np, int32_t mode) {
  switch (mode) {
  case SHLORT_CROSS_PARTITION: return np;
  case SHLORT_FLATTENED_IDS: return (int64_t)nr * np;
  default: return nr;
  }
}

static int32_t invalid(char *why, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int32_t invalid(char *why, size_t size, const char *fmt, ...) {
  if (why) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, size, fmt, ap);
    va_end(ap);
  }
  return SHLORT_INVALID;
}

static bool empty_groups(const shlort_groups *g) { return g->rows <= 0 || g->cols <= 0; }

/* Every id is -1 padding or in [0, range) and appears once (C1-C3 of
 * all_reduce and their counterparts), using seen[0 .. range) as flags. */
static int32_t check_ids(const shlort_groups *g, int64_t range, int32_t *seen, char *why,
                         size_t size) {
  if (empty_groups(g)) return SHLORT_OK;
  for (int64_t i = 0; i < range; i++) seen[i] = 0;
  for (int64_t i = 0; i < g->rows * g->cols; i++) {
    int64_t id = g->ids[i];
    if (id == -1) continue;
    if (id < 0 || id >= range)
      return invalid(why, size, "replica_groups: id %lld is out of range [0, %lld)",
                     (long long)id, (long long)range);
    if (seen[id]++)
      return invalid(why, size, "replica_groups: id %lld appears twice", (long long)id);
  }
  return SHLORT_OK;
}

/* The row holding id (-1: none); with empty groups, row 0 of all ids. */
static int64_t find_row(const shlort_groups *g, int64_t id) {
  if (empty_groups(g)) return 0;
  for (int64_t i = 0; i < g->rows * g->cols; i++)
    if (g->ids[i] == id) return i / g->cols;
  return -1;
}

/* Entry j of a row (-1: padding); row_length entries. */
static int64_t row_length(const shlort_groups *g, int64_t range) {
  return empty_groups(g) ? range : g->cols;
}
static int64_t row_id(const shlort_groups *g, int64_t row, int64_t j) {
  return empty_groups(g) ? j : g->ids[row * g->cols + j];
}

int32_t shlort_process_group(uint32_t nr, uint32_t np, int32_t mode, const shlort_groups *g,
                             uint32_t replica, uint32_t partition, int32_t *members,
                             int32_t *size, int32_t *index, char *why, size_t why_size) {
  *size = 0;
  *index = -1;
  if (mode < SHLORT_CROSS_REPLICA || mode > SHLORT_FLATTENED_IDS)
    return invalid(why, why_size, "unknown group mode %d", (int)mode);
  int64_t range = id_range(nr, np, mode);
  int32_t rc = check_ids(g, range, members, why, why_size);
  if (rc) return rc;
  int32_t self = (int32_t)(replica * np + partition);
  int64_t mine = mode == SHLORT_CROSS_PARTITION ? (int64_t)partition
                 : mode == SHLORT_FLATTENED_IDS ? (int64_t)self
                                                : (int64_t)replica;
  int64_t row = find_row(g, mine), len = row_length(g, range);
  if (row < 0) return SHLORT_OK;
  /* cross_replica_and_partition lists every partition of the row's
   * replicas, partition-major; the others list the row once. */
  uint32_t copies = mode == SHLORT_CROSS_REPLICA_AND_PARTITION ? np : 1;
  int32_t n = 0;
  for (uint32_t q = 0; q < copies; q++) {
    for (int64_t j = 0; j < len; j++) {
      int64_t id = row_id(g, row, j);
      if (id == -1) continue;
      switch (mode) {
      case SHLORT_CROSS_REPLICA: members[n] = (int32_t)(id * np + partition); break;
      case SHLORT_CROSS_PARTITION: members[n] = (int32_t)(replica * np + id); break;
      case SHLORT_CROSS_REPLICA_AND_PARTITION: members[n] = (int32_t)(id * np + q); break;
      default: members[n] = (int32_t)id; break;
      }
      if (members[n] == self) *index = n;
      n++;
    }
  }
  *size = n;
  return SHLORT_OK;
}

int32_t shlort_permute_peers(uint32_t nr, uint32_t np, int32_t mode, const shlort_groups *g,
                             uint32_t replica, uint32_t partition, int32_t *source,
                             int32_t *target, char *why, size_t why_size) {
  *source = *target = -1;
  if (mode != SHLORT_CROSS_REPLICA && mode != SHLORT_CROSS_PARTITION)
    return invalid(why, why_size, "unknown permute mode %d", (int)mode);
  if (empty_groups(g)) return SHLORT_OK;
  if (g->cols != 2)
    return invalid(why, why_size, "source_target_pairs has %lld columns, not 2 (C1)",
                   (long long)g->cols);
  int64_t range = id_range(nr, np, mode);
  for (int64_t i = 0; i < g->rows * 2; i++) {
    int64_t id = g->ids[i];
    if (id < 0 || id >= range)
      return invalid(why, why_size,
                     "source_target_pairs: id %lld is out of range [0, %lld) (C4)",
                     (long long)id, (long long)range);
    for (int64_t j = i % 2; j < i; j += 2) /* the same column of earlier pairs */
      if (g->ids[j] == id)
        return invalid(why, why_size, "source_target_pairs: id %lld is a %s twice (C2, C3)",
                       (long long)id, i % 2 ? "target" : "source");
  }
  int64_t mine = mode == SHLORT_CROSS_PARTITION ? partition : replica;
  for (int64_t r = 0; r < g->rows; r++) {
    int64_t s = g->ids[2 * r], t = g->ids[2 * r + 1];
    int64_t peer = t == mine ? s : s == mine ? t : -1;
    if (peer < 0) continue;
    int32_t id = (int32_t)(mode == SHLORT_CROSS_PARTITION ? replica * np + peer
                                                          : peer * np + partition);
    if (t == mine) *source = id;
    if (s == mine) *target = id;
  }
  return SHLORT_OK;
}

int32_t shlort_my_group(shlort_proc *p, const shlort_op *op, const shlort_groups *g,
                        bool reduction, bool required, int32_t *size, int32_t *index) {
  int32_t mode = shlort_channel_group_mode(g);
  if (reduction && shlort_reduction_group_mode(g, &mode))
    return shlort_fail(p, op, SHLORT_INVALID,
                       "use_global_device_ids needs a positive channel_id (C5)");
  char why[160];
  if (shlort_process_group(p->num_replicas, p->num_partitions, mode, g, p->replica,
                           p->partition, p->members, size, index, why, sizeof why))
    return shlort_fail(p, op, SHLORT_INVALID, "%s", why);
  if (required && *size == 0)
    return shlort_fail(p, op, SHLORT_INVALID, "the process is in no group");
  return SHLORT_OK;
}
