/* spmd.h: the process context and the helpers shared by the two grid
 * implementations (threads: grid.c, collectives.c, channels.c; MPI:
 * mpi*.c). An internal header: not part of the installed interface.
 *
 * Common to both builds: spmd.c (context, errors, tensor helpers),
 * groups.c (process groups), args.c (each collective's checks), feed.c
 * (infeed/outfeed, host send/recv hooks), rng.c. Each build implements the collectives and the
 * process-to-process channels on its transport. */
#ifndef SHLORT_SPMD_H
#define SHLORT_SPMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shlort.h"

enum {
  SHLORT_MESSAGE_BYTES = 320,
  /* Reductions accumulate this many bytes at a time in the process's
   * scratch block (a multiple of every element size, small enough for L1). */
  SHLORT_BLOCK_BYTES = 16384,
  SHLORT_MAX_RANK = 32, /* of the tensors whose shapes collectives change */
};

/* The collective calls, as processes compare them. */
typedef enum shlort_kind {
  SHLORT_K_ALL_REDUCE,
  SHLORT_K_ALL_GATHER,
  SHLORT_K_REDUCE_SCATTER,
  SHLORT_K_ALL_TO_ALL,
  SHLORT_K_PERMUTE,
  SHLORT_K_BROADCAST,
  SHLORT_K_COLLECTIVE_REDUCE,
} shlort_kind;

struct shlort_proc {
  uint32_t replica, partition, num_replicas, num_partitions;
  int32_t index, nprocs; /* index = replica * num_partitions + partition */
  int64_t timeout_ms;
  uint64_t rng_key, rng_counter;
  shlort_task *task;      /* of the current run; NULL outside a run */
  int32_t *members;       /* nprocs ints: the current op's group */
  int32_t *scratch;       /* nprocs ints for group computations */
  const void **srcs;      /* nprocs pointers: the sources of a fold */
  void **dsts;            /* nprocs pointers: its destinations */
  unsigned char *block;   /* SHLORT_BLOCK_BYTES, 64-byte aligned */
  /* Called once per failure after the message is written: the threads
   * build aborts the grid so that peers stop waiting. */
  void (*on_fail)(shlort_proc *p);
  void *impl; /* the transport's state: shlort_grid or the MPI state */
  int32_t status; /* of the last failure */
  char message[SHLORT_MESSAGE_BYTES];
};

/* spmd.c --------------------------------------------------------------- */

/* Sets the common fields of a context (members, scratch and block are
 * set by the caller). */
void shlort_proc_setup(shlort_proc *p, uint32_t num_replicas, uint32_t num_partitions,
                       int32_t index, int64_t timeout_ms, uint64_t rng_seed);
/* Starts a run of task on p: clears the message and the queue positions. */
void shlort_proc_begin(shlort_proc *p, shlort_task *task);

/* Ends a run of p: the task's outputs, and for a failed entry without a
 * runtime message, the message of the failed check or of the status.
 * Returns whether the entry failed without a message of the runtime (the
 * caller then spreads the failure as shlort_fail does). */
bool shlort_proc_end(shlort_proc *p, int32_t status);

/* The spec name of a collective kind ("all_gather"). */
const char *shlort_kind_name(int32_t kind);

/* Writes "<op> at <loc> on process (r,p): <detail>" into p->message, calls
 * p->on_fail and returns status. */
int32_t shlort_fail(shlort_proc *p, const shlort_op *op, int32_t status, const char *fmt,
                    ...) __attribute__((format(printf, 4, 5)));

/* Storage bytes of a tensor, -1 for an unknown element type or a negative
 * dimension. */
int64_t shlort_tensor_bytes(const shlort_tensor *t);
/* Same element type and shape. */
bool shlort_same_type(const shlort_tensor *a, const shlort_tensor *b);
/* "tensor<2x3xf32>" */
void shlort_format_type(char *buf, size_t size, const shlort_tensor *t);
/* "(r,p)" of a flattened process id. */
void shlort_format_process(char *buf, size_t size, const shlort_proc *p, int32_t id);

/* The number of bytes of the rows that a split of t along dim into `parts`
 * equal parts cuts: t viewed as [outer, parts, row] bytes. Returns -1 when
 * dim is out of range or the dimension does not divide. */
int64_t shlort_split_rows(const shlort_tensor *t, int64_t dim, int64_t parts,
                          int64_t *outer);
/* Copies `total` bytes laid out as rows of src_row bytes, src_stride apart,
 * into rows of dst_row bytes, dst_stride apart (the same byte sequence in
 * two layouts). */
void shlort_copy_rows(unsigned char *dst, int64_t dst_row, int64_t dst_stride,
                      const unsigned char *src, int64_t src_row, int64_t src_stride,
                      int64_t total);
/* dst[0 .. bytes) = the fold of srcs[0..k) in order with combine (see
 * shlort_combine_fn), through p's scratch block, so dst may alias any
 * source. esize divides bytes. */
void shlort_fold(shlort_proc *p, void *dst, const void *const *srcs, int32_t k, int64_t bytes,
                 int32_t esize, shlort_combine_fn combine, void *ctx);
/* The same fold written to each of dsts[0 .. ndst): every byte of the
 * sources is read once and every destination written once. */
void shlort_fold_many(shlort_proc *p, void *const *dsts, int32_t ndst, const void *const *srcs,
                      int32_t k, int64_t bytes, int32_t esize, shlort_combine_fn combine,
                      void *ctx);

/* Checks the operands and results of a collective: n >= 1, known element
 * types, data for every non-empty tensor. The op-specific shape rules are
 * each op's. Returns 0 or the failure. */
int32_t shlort_check_tensors(shlort_proc *p, const shlort_op *op, int32_t n,
                             const shlort_tensor *operands, const shlort_tensor *results);
/* shlort_check_tensors, and each result of its operand's type. */
int32_t shlort_check_same(shlort_proc *p, const shlort_op *op, int32_t n,
                          const shlort_tensor *operands, const shlort_tensor *results);

/* results[i] = operands[i] (a group of one), unless they are the same. */
void shlort_copy_tensors(int32_t n, const shlort_tensor *operands,
                         const shlort_tensor *results);
void shlort_zero(const shlort_tensor *t);
int64_t shlort_elems(const shlort_tensor *t);
/* The first element of slice k when n elements are cut in `parts` slices
 * whose lengths differ by at most one. */
int64_t shlort_slice_begin(int64_t n, int64_t parts, int64_t k);

/* Checks each result's type against its operand's: the same element type
 * and shape, except that dimension split_dim (-1: none) is divided by
 * parts and dimension concat_dim (-1: none) multiplied by copies, as the
 * shape rules of all_gather, reduce_scatter and all_to_all say.
 * SHLORT_INVALID naming the first difference. */
int32_t shlort_check_resized(shlort_proc *p, const shlort_op *op, int32_t n,
                             const shlort_tensor *operands, const shlort_tensor *results,
                             int64_t split_dim, int64_t parts, int64_t concat_dim,
                             int64_t copies);

/* Checks that the tensors a peer sent (or a queue holds) are as many as
 * and of the types of those the op has; SHLORT_MISMATCH naming the first
 * difference, where `what` says whose they are ("process (1,0) sent"). */
int32_t shlort_check_types(shlort_proc *p, const shlort_op *op, const char *what,
                           int32_t ngot, const shlort_tensor *got, int32_t nwant,
                           const shlort_tensor *want);

/* groups.c ------------------------------------------------------------- */

/* The group of p for a collective: reduction == true for the all_reduce
 * family (shlort_reduction_group_mode), else the channel rule. Fills
 * p->members[0 .. *size) and *index; *size is 0 when p is in no group,
 * which is SHLORT_INVALID when `required` (every op but
 * collective_broadcast). Errors are written to p's message. */
int32_t shlort_my_group(shlort_proc *p, const shlort_op *op, const shlort_groups *g,
                        bool reduction, bool required, int32_t *size, int32_t *index);

/* args.c: each collective's argument checks and group ------------------ */

int32_t shlort_begin_reduce(shlort_proc *p, const shlort_op *op, const shlort_groups *g,
                            int32_t n, const shlort_tensor *operands,
                            const shlort_tensor *results, int32_t *size, int32_t *index);
int32_t shlort_begin_all_gather(shlort_proc *p, const shlort_op *op, const shlort_groups *g,
                                int64_t dim, int32_t n, const shlort_tensor *operands,
                                const shlort_tensor *results, int32_t *size, int32_t *index);
int32_t shlort_begin_reduce_scatter(shlort_proc *p, const shlort_op *op,
                                    const shlort_groups *g, int64_t dim, int32_t n,
                                    const shlort_tensor *operands,
                                    const shlort_tensor *results, int32_t *size,
                                    int32_t *index);
int32_t shlort_begin_all_to_all(shlort_proc *p, const shlort_op *op, const shlort_groups *g,
                                int64_t split_dimension, int64_t concat_dimension,
                                int64_t split_count, int32_t n,
                                const shlort_tensor *operands, const shlort_tensor *results,
                                int32_t *size, int32_t *index);
int32_t shlort_begin_broadcast(shlort_proc *p, const shlort_op *op, const shlort_groups *g,
                               const shlort_tensor *operand, const shlort_tensor *result,
                               int32_t *size, int32_t *index);
int32_t shlort_begin_permute(shlort_proc *p, const shlort_op *op, const shlort_groups *g,
                             const shlort_tensor *operand, const shlort_tensor *result,
                             int32_t *source, int32_t *target);

/* The transport's all_reduce (kind SHLORT_K_ALL_REDUCE) or
 * collective_reduce (collectives.c, mpi_collectives.c). */
int32_t shlort_transport_reduce(shlort_proc *p, const shlort_op *op, const shlort_groups *g,
                                int32_t kind, int32_t n, const shlort_tensor *operands,
                                const shlort_tensor *results, shlort_combine_fn combine,
                                void *ctx);

/* The transport's channels (channels.c, mpi_channels.c): send and recv
 * between processes, once feed.c has found no host hook for them. */
int32_t shlort_channel_send(shlort_proc *p, const shlort_op *op, int64_t channel_id,
                            int32_t n, const shlort_tensor *inputs);
int32_t shlort_channel_recv(shlort_proc *p, const shlort_op *op, int64_t channel_id,
                            int32_t n, const shlort_tensor *results);

#endif
