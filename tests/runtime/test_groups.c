/* test_groups.c: the process-group computations of runtime/groups.c
 * against the examples of the spec's "Collective ops" section (each
 * strategy), the op sections (which strategy channel_id and
 * use_global_device_ids select; collective_permute's pairs) and the
 * attribute forms the corpus uses (ragged groups padded with -1, empty
 * replica_groups). Expected groups are written out by hand as the spec
 * prints them, as lists of (replica, partition). */
#include "rt.h"

#define MAXG 8

/* Expected groups: each a list of (replica, partition), ended by {-1}. */
typedef struct Pid {
  int r, p;
} Pid;

/* For every process of the grid: its group per shlort_process_group is
 * the expected group containing it (or none), in the same order. */
static void expect_groups(uint32_t nr, uint32_t np, int32_t mode, const int64_t *ids,
                          int64_t rows, int64_t cols, const Pid want[][MAXG + 1],
                          int ngroups) {
  shlort_groups g = {ids, rows, cols, 0, 0};
  for (uint32_t r = 0; r < nr; r++) {
    for (uint32_t p = 0; p < np; p++) {
      int32_t members[64], size, index;
      EXPECT_I64(shlort_process_group(nr, np, mode, &g, r, p, members, &size, &index, NULL, 0),
                 SHLORT_OK);
      int found = 0;
      for (int k = 0; k < ngroups; k++) {
        int n = 0, at = -1;
        while (want[k][n].r >= 0) {
          if (want[k][n].r == (int)r && want[k][n].p == (int)p) at = n;
          n++;
        }
        if (at < 0) continue;
        found = 1;
        EXPECT_I64(size, n);
        EXPECT_I64(index, at);
        for (int j = 0; j < n && j < size; j++)
          EXPECT_I64(members[j], want[k][j].r * (int)np + want[k][j].p);
      }
      if (!found) EXPECT_I64(size, 0);
    }
  }
}

#define END {-1, -1}

/* spec: replica_groups = [[0, 1], [2, 3]], num_partitions = 2. */
static void cross_replica(void) {
  static const int64_t ids[] = {0, 1, 2, 3};
  static const Pid want[][MAXG + 1] = {{{0, 0}, {1, 0}, END}, {{0, 1}, {1, 1}, END},
                                       {{2, 0}, {3, 0}, END}, {{2, 1}, {3, 1}, END}};
  expect_groups(4, 2, SHLORT_CROSS_REPLICA, ids, 2, 2, want, 4);
}

/* spec: partition_groups = [[0, 1]], num_replicas = 4. */
static void cross_partition(void) {
  static const int64_t ids[] = {0, 1};
  static const Pid want[][MAXG + 1] = {{{0, 0}, {0, 1}, END}, {{1, 0}, {1, 1}, END},
                                       {{2, 0}, {2, 1}, END}, {{3, 0}, {3, 1}, END}};
  expect_groups(4, 2, SHLORT_CROSS_PARTITION, ids, 1, 2, want, 4);
}

/* spec: replica_groups = [[0, 1], [2, 3]], num_partitions = 2. */
static void cross_replica_and_partition(void) {
  static const int64_t ids[] = {0, 1, 2, 3};
  static const Pid want[][MAXG + 1] = {{{0, 0}, {1, 0}, {0, 1}, {1, 1}, END},
                                       {{2, 0}, {3, 0}, {2, 1}, {3, 1}, END}};
  expect_groups(4, 2, SHLORT_CROSS_REPLICA_AND_PARTITION, ids, 2, 2, want, 2);
}

/* spec: flattened_id_groups = [[0, 1, 2, 3], [4, 5, 6, 7]], 4 x 2. */
static void flattened_ids(void) {
  static const int64_t ids[] = {0, 1, 2, 3, 4, 5, 6, 7};
  static const Pid want[][MAXG + 1] = {{{0, 0}, {0, 1}, {1, 0}, {1, 1}, END},
                                       {{2, 0}, {2, 1}, {3, 0}, {3, 1}, END}};
  expect_groups(4, 2, SHLORT_FLATTENED_IDS, ids, 2, 4, want, 2);
}

/* Group order is the attribute's order, not the ids' (all_to_all's
 * issue-2433 case uses [[1, 0]]). */
static void order_kept(void) {
  static const int64_t ids[] = {1, 0};
  static const Pid want[][MAXG + 1] = {{{1, 0}, {0, 0}, END}};
  expect_groups(2, 1, SHLORT_CROSS_REPLICA, ids, 1, 2, want, 1);
}

/* The corpus's ragged groups [[0, 1], [2, -1]] on 3 replicas. */
static void ragged(void) {
  static const int64_t ids[] = {0, 1, 2, -1};
  static const Pid want[][MAXG + 1] = {{{0, 0}, {1, 0}, END}, {{2, 0}, END}};
  expect_groups(3, 1, SHLORT_CROSS_REPLICA, ids, 2, 2, want, 2);
}

/* Empty replica_groups: one group of every id, under each strategy. */
static void empty(void) {
  static const Pid replicas[][MAXG + 1] = {{{0, 0}, {1, 0}, {2, 0}, END},
                                           {{0, 1}, {1, 1}, {2, 1}, END}};
  expect_groups(3, 2, SHLORT_CROSS_REPLICA, NULL, 0, 0, replicas, 2);
  static const Pid partitions[][MAXG + 1] = {
      {{0, 0}, {0, 1}, END}, {{1, 0}, {1, 1}, END}, {{2, 0}, {2, 1}, END}};
  expect_groups(3, 2, SHLORT_CROSS_PARTITION, NULL, 1, 0, partitions, 3);
  static const Pid all[][MAXG + 1] = {{{0, 0}, {1, 0}, {2, 0}, {0, 1}, {1, 1}, {2, 1}, END}};
  expect_groups(3, 2, SHLORT_CROSS_REPLICA_AND_PARTITION, NULL, 0, 0, all, 1);
  static const Pid flat[][MAXG + 1] = {{{0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 0}, {2, 1}, END}};
  expect_groups(3, 2, SHLORT_FLATTENED_IDS, NULL, 0, 0, flat, 1);
}

/* spec collective_broadcast: replica_groups = [[2, 1]] on 4 replicas
 * leaves processes 0 and 3 in no group. */
static void partial_cover(void) {
  static const int64_t ids[] = {2, 1};
  static const Pid want[][MAXG + 1] = {{{2, 0}, {1, 0}, END}};
  expect_groups(4, 1, SHLORT_CROSS_REPLICA, ids, 1, 2, want, 1);
}

static void invalid_ids(void) {
  int32_t members[16], size, index;
  char why[128] = "";
  static const int64_t out_of_range[] = {0, 2};
  shlort_groups g = {out_of_range, 1, 2, 0, 0};
  EXPECT_I64(shlort_process_group(2, 1, SHLORT_CROSS_REPLICA, &g, 0, 0, members, &size,
                                  &index, why, sizeof why),
             SHLORT_INVALID);
  EXPECT_STR(why, "replica_groups: id 2 is out of range [0, 2)");
  static const int64_t twice[] = {0, 1, 1, 2};
  g = (shlort_groups){twice, 2, 2, 0, 0};
  EXPECT_I64(shlort_process_group(3, 1, SHLORT_CROSS_REPLICA, &g, 0, 0, members, &size,
                                  &index, why, sizeof why),
             SHLORT_INVALID);
  EXPECT_STR(why, "replica_groups: id 1 appears twice");
  /* Partition ids range over partitions under cross_partition. */
  static const int64_t part[] = {0, 2};
  g = (shlort_groups){part, 1, 2, 1, 0};
  EXPECT_I64(shlort_process_group(4, 2, SHLORT_CROSS_PARTITION, &g, 0, 0, members, &size,
                                  &index, NULL, 0),
             SHLORT_INVALID);
  g = (shlort_groups){part, 1, 2, 1, 0};
  EXPECT_I64(shlort_process_group(4, 2, SHLORT_FLATTENED_IDS, &g, 0, 0, members, &size,
                                  &index, NULL, 0),
             SHLORT_OK);
}

/* all_gather / all_reduce / reduce_scatter: channel_id <= 0 and not
 * use_global_device_ids -> cross_replica; channel_id > 0 -> cross_replica_and
 * _partition, or flattened_ids with use_global_device_ids (C5 otherwise).
 * The other collectives: cross_replica, or cross_partition with a channel. */
static void modes(void) {
  int32_t mode = -1;
  shlort_groups g = {NULL, 0, 0, 0, 0};
  EXPECT_I64(shlort_reduction_group_mode(&g, &mode), SHLORT_OK);
  EXPECT_I64(mode, SHLORT_CROSS_REPLICA);
  EXPECT_I64(shlort_channel_group_mode(&g), SHLORT_CROSS_REPLICA);
  g.channel_id = -1;
  EXPECT_I64(shlort_reduction_group_mode(&g, &mode), SHLORT_OK);
  EXPECT_I64(mode, SHLORT_CROSS_REPLICA);
  g.channel_id = 1;
  EXPECT_I64(shlort_reduction_group_mode(&g, &mode), SHLORT_OK);
  EXPECT_I64(mode, SHLORT_CROSS_REPLICA_AND_PARTITION);
  EXPECT_I64(shlort_channel_group_mode(&g), SHLORT_CROSS_PARTITION);
  g.use_global_device_ids = 1;
  EXPECT_I64(shlort_reduction_group_mode(&g, &mode), SHLORT_OK);
  EXPECT_I64(mode, SHLORT_FLATTENED_IDS);
  g.channel_id = 0;
  EXPECT_I64(shlort_reduction_group_mode(&g, &mode), SHLORT_INVALID);
}

static void expect_peers(uint32_t nr, uint32_t np, int32_t mode, const shlort_groups *g,
                         uint32_t r, uint32_t p, int32_t source, int32_t target) {
  int32_t s = -2, t = -2;
  EXPECT_I64(shlort_permute_peers(nr, np, mode, g, r, p, &s, &t, NULL, 0), SHLORT_OK);
  EXPECT_I64(s, source);
  EXPECT_I64(t, target);
}

/* spec collective_permute: pairs [[0, 1], [1, 2]] on 3 replicas; the
 * corpus's self loops; the same pairs across partitions of a 2 x 3 grid. */
static void permute(void) {
  static const int64_t pairs[] = {0, 1, 1, 2};
  shlort_groups g = {pairs, 2, 2, 0, 0};
  expect_peers(3, 1, SHLORT_CROSS_REPLICA, &g, 0, 0, -1, 1);
  expect_peers(3, 1, SHLORT_CROSS_REPLICA, &g, 1, 0, 0, 2);
  expect_peers(3, 1, SHLORT_CROSS_REPLICA, &g, 2, 0, 1, -1);
  /* 3 replicas x 2 partitions: within each partition. */
  expect_peers(3, 2, SHLORT_CROSS_REPLICA, &g, 1, 1, 0 * 2 + 1, 2 * 2 + 1);
  /* 2 replicas x 3 partitions, cross_partition: within each replica. */
  expect_peers(2, 3, SHLORT_CROSS_PARTITION, &g, 1, 1, 1 * 3 + 0, 1 * 3 + 2);
  static const int64_t loops[] = {0, 1, 1, 2, 3, 3, 4, 4};
  g = (shlort_groups){loops, 4, 2, 0, 0};
  expect_peers(5, 1, SHLORT_CROSS_REPLICA, &g, 3, 0, 3, 3);
  expect_peers(5, 1, SHLORT_CROSS_REPLICA, &g, 0, 0, -1, 1);
  g = (shlort_groups){NULL, 0, 0, 0, 0};
  expect_peers(2, 1, SHLORT_CROSS_REPLICA, &g, 0, 0, -1, -1);

  int32_t s, t;
  char why[128] = "";
  static const int64_t two_targets[] = {0, 1, 2, 1};
  g = (shlort_groups){two_targets, 2, 2, 0, 0};
  EXPECT_I64(shlort_permute_peers(3, 1, SHLORT_CROSS_REPLICA, &g, 0, 0, &s, &t, why, sizeof why),
             SHLORT_INVALID);
  EXPECT_STR(why, "source_target_pairs: id 1 is a target twice (C2, C3)");
  static const int64_t far[] = {0, 3};
  g = (shlort_groups){far, 1, 2, 0, 0};
  EXPECT_I64(shlort_permute_peers(3, 1, SHLORT_CROSS_REPLICA, &g, 0, 0, &s, &t, why, sizeof why),
             SHLORT_INVALID);
  EXPECT_STR(why, "source_target_pairs: id 3 is out of range [0, 3) (C4)");
  g = (shlort_groups){far, 1, 1, 0, 0};
  EXPECT_I64(shlort_permute_peers(3, 1, SHLORT_CROSS_REPLICA, &g, 0, 0, &s, &t, NULL, 0),
             SHLORT_INVALID);
}

int main(void) {
  cross_replica();
  cross_partition();
  cross_replica_and_partition();
  flattened_ids();
  order_kept();
  ragged();
  empty();
  partial_cover();
  invalid_ids();
  modes();
  permute();
  return unit_report();
}
