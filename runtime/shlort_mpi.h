/*
 * shlort_mpi.h: the host side of libshlort_mpi.a, the runtime that runs
 * one process of a grid per MPI rank (Open MPI). The generated code is the
 * same as over threads (shlort.h); link libshlort_mpi.a instead of
 * libshlort.a and build with mpicc. See docs/runtime.md.
 *
 * Rank r of the communicator is process (r / num_partitions,
 * r % num_partitions), i.e. the flattened id. Each rank makes its context
 * once (shlort_mpi_proc_init), runs its entry (shlort_mpi_run) as often as
 * it likes, and destroys the context before MPI_Finalize.
 *
 * Collectives run on one communicator per process group, made on first
 * use with MPI_Comm_create_group (collective over the group's members
 * only) and cached; the data moves with MPI's non-blocking collectives
 * (MPI_Iallgather, MPI_Ialltoall(v), MPI_Iallgatherv, MPI_Ibcast,
 * MPI_Igather) and point-to-point messages (collective_permute,
 * send/recv), which the runtime polls so that every wait has the grid's
 * timeout. Reductions fold in group order with the generated code's
 * region, exactly as over threads, so both builds give the same bits.
 *
 * Failures, as far as MPI allows: MPI errors are returned (the runtime's
 * communicators use MPI_ERRORS_RETURN) as SHLORT_COMM; a rank whose op
 * fails tells every other rank, whose waits then end with SHLORT_ABORTED;
 * a rank that never arrives makes its peers' waits end with
 * SHLORT_TIMEOUT. A non-blocking collective cannot be cancelled, so after
 * any failure the communicators are unusable: end the job (MPI_Abort).
 * Creating a group's communicator blocks without a timeout. A rank that
 * dies is reported by mpirun, which ends the job.
 */
#ifndef SHLORT_MPI_H
#define SHLORT_MPI_H

#include <mpi.h>

#include "shlort.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Under MPI a channel needs a route: there is no shared memory in which a
 * send could meet a recv. Processes are flattened ids (= ranks). */
typedef struct shlort_mpi_route {
  int64_t channel_id;
  int32_t sender, receiver;
} shlort_mpi_route;

enum { SHLORT_MPI_DEFAULT_GROUPS = 64, SHLORT_MPI_DEFAULT_STAGE = 8 << 20 };

typedef struct shlort_mpi_config {
  shlort_grid_config grid; /* num_replicas * num_partitions = the comm's size */
  const shlort_mpi_route *routes; /* send/recv channels; kept by the caller */
  int32_t route_count;
  int32_t max_groups;  /* distinct process groups (communicators); 0: 64 */
  int64_t stage_bytes; /* staging memory of reductions and gathers; 0: 8 MiB */
  /* 1: before each collective the group exchanges a signature of the op
   * and its operand types, so that disagreeing processes get
   * SHLORT_MISMATCH instead of an MPI error, a hang or wrong data. One
   * small extra exchange per collective. */
  int32_t verify;
} shlort_mpi_config;

/* Bytes (64-byte aligned) of the context of this configuration; 0 when it
 * is invalid. */
size_t shlort_mpi_proc_bytes(const shlort_mpi_config *cfg);
/* Makes this rank's context in `mem` (owned by the caller until
 * shlort_mpi_proc_destroy). Collective over comm (it is duplicated).
 * SHLORT_INVALID when comm's size is not num_replicas * num_partitions. */
int32_t shlort_mpi_proc_init(shlort_proc **proc, void *mem, size_t bytes, MPI_Comm comm,
                             const shlort_mpi_config *cfg);
/* Runs task->entry on this rank with task's hooks and queues; fills the
 * task's outputs as shlort_grid_run does. Returns the entry's status; the
 * message is shlort_proc_message(proc). */
int32_t shlort_mpi_run(shlort_proc *proc, shlort_task *task);
/* Frees the communicators; call on every rank before MPI_Finalize. */
int32_t shlort_mpi_proc_destroy(shlort_proc *proc);

#ifdef __cplusplus
}
#endif

#endif
