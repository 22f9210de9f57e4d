/* args.c: the argument checks and the process group of each collective,
 * common to both transports: the spec's constraints on the op's operands
 * and results as far as the runtime sees them, then the group of the
 * calling process (groups.c). Each returns 0 with the group in
 * p->members[0 .. *size) and the process's position in *index, or the
 * failure (written to p's message). */
#include "spmd.h"

/* all_reduce and collective_reduce: results of their operands' types (C6,
 * C7 once the generated code has converted operands to the region's type). */
int32_t shlort_begin_reduce(shlort_proc *p, const shlort_op *op, const shlort_groups *g,
                            int32_t n, const shlort_tensor *operands,
                            const shlort_tensor *results, int32_t *size, int32_t *index) {
  int32_t rc = shlort_check_same(p, op, n, operands, results);
  return rc ? rc : shlort_my_group(p, op, g, true, true, size, index);
}

/* all_gather: dim(results, all_gather_dim) = dim(operands, ...) * group size (C6). */
int32_t shlort_begin_all_gather(shlort_proc *p, const shlort_op *op, const shlort_groups *g,
                                int64_t dim, int32_t n, const shlort_tensor *operands,
                                const shlort_tensor *results, int32_t *size, int32_t *index) {
  int32_t rc = shlort_check_tensors(p, op, n, operands, results);
  if (!rc) rc = shlort_my_group(p, op, g, true, true, size, index);
  return rc ? rc : shlort_check_resized(p, op, n, operands, results, -1, 1, dim, *size);
}

/* reduce_scatter: the group size divides the scatter dimension (C1, C8). */
int32_t shlort_begin_reduce_scatter(shlort_proc *p, const shlort_op *op,
                                    const shlort_groups *g, int64_t dim, int32_t n,
                                    const shlort_tensor *operands,
                                    const shlort_tensor *results, int32_t *size,
                                    int32_t *index) {
  int32_t rc = shlort_check_tensors(p, op, n, operands, results);
  if (!rc) rc = shlort_my_group(p, op, g, true, true, size, index);
  return rc ? rc : shlort_check_resized(p, op, n, operands, results, dim, *size, -1, 1);
}

/* all_to_all: split_count is the group size (C8); the shapes of C9. */
int32_t shlort_begin_all_to_all(shlort_proc *p, const shlort_op *op, const shlort_groups *g,
                                int64_t split_dimension, int64_t concat_dimension,
                                int64_t split_count, int32_t n,
                                const shlort_tensor *operands, const shlort_tensor *results,
                                int32_t *size, int32_t *index) {
  int32_t rc = shlort_check_tensors(p, op, n, operands, results);
  if (!rc) rc = shlort_my_group(p, op, g, false, true, size, index);
  if (!rc && split_count != *size)
    rc = shlort_fail(p, op, SHLORT_INVALID, "split_count %lld differs from the group size %d (C8)",
                     (long long)split_count, (int)*size);
  return rc ? rc
            : shlort_check_resized(p, op, n, operands, results, split_dimension, *size,
                                   concat_dimension, *size);
}

/* collective_broadcast: a process may be in no group (*size 0). */
int32_t shlort_begin_broadcast(shlort_proc *p, const shlort_op *op, const shlort_groups *g,
                               const shlort_tensor *operand, const shlort_tensor *result,
                               int32_t *size, int32_t *index) {
  int32_t rc = shlort_check_same(p, op, 1, operand, result);
  return rc ? rc : shlort_my_group(p, op, g, false, false, size, index);
}

/* collective_permute: the process's source and target (-1: none). */
int32_t shlort_begin_permute(shlort_proc *p, const shlort_op *op, const shlort_groups *g,
                             const shlort_tensor *operand, const shlort_tensor *result,
                             int32_t *source, int32_t *target) {
  char why[160];
  int32_t rc = shlort_check_same(p, op, 1, operand, result);
  if (!rc && shlort_permute_peers(p->num_replicas, p->num_partitions,
                                  shlort_channel_group_mode(g), g, p->replica, p->partition,
                                  source, target, why, sizeof why))
    rc = shlort_fail(p, op, SHLORT_INVALID, "%s", why);
  return rc;
}

/* The two reductions share each transport's shlort_transport_reduce. */
int32_t shlort_all_reduce(shlort_proc *p, const shlort_op *op, const shlort_groups *g,
                          int32_t n, const shlort_tensor *operands,
                          const shlort_tensor *results, shlort_combine_fn combine,
                          void *ctx) {
  return shlort_transport_reduce(p, op, g, SHLORT_K_ALL_REDUCE, n, operands, results, combine,
                                 ctx);
}

int32_t shlort_collective_reduce(shlort_proc *p, const shlort_op *op,
                                 const shlort_groups *g, int32_t n,
                                 const shlort_tensor *operands,
                                 const shlort_tensor *results, shlort_combine_fn combine,
                                 void *ctx) {
  return shlort_transport_reduce(p, op, g, SHLORT_K_COLLECTIVE_REDUCE, n, operands, results,
                                 combine, ctx);
}
