/* mpi_grid.h: the MPI build's process state (mpi.c) as mpi_collectives.c
 * and mpi_channels.c use it. An internal header. */
#ifndef SHLORT_MPI_GRID_H
#define SHLORT_MPI_GRID_H

#include <mpi.h>

#include "shlort_mpi.h"
#include "spmd.h"

/* Tags on the runtime's duplicate of the job's communicator. */
enum {
  TAG_ABORT = 1,    /* a failed rank tells the others */
  TAG_PERMUTE = 2,
  TAG_HEADER = 3,   /* send/recv: the tensors' types, then the data */
  TAG_CHANNEL = 16, /* + channel id: a channel's data */
};

/* Tags on a group's communicator (all_reduce's exchanges). */
enum { TAG_WHOLE = 1, TAG_SLICE = 2, TAG_GATHER = 3 };

typedef struct MpiGroup {
  int32_t size;
  int32_t *members; /* flattened ids, in group order */
  MPI_Comm comm;    /* rank in it = position in members */
} MpiGroup;

typedef struct MpiState {
  MPI_Comm world; /* the job's communicator, duplicated */
  MpiGroup *groups;
  int32_t ngroups, max_groups;
  int *counts[4];        /* nprocs ints each: counts and displacements */
  MPI_Request *reqs;     /* 2 * nprocs */
  unsigned char *stage;  /* stage_bytes, 64-byte aligned */
  int64_t stage_bytes;
  const shlort_mpi_route *routes;
  int32_t route_count;
  int32_t verify;
  bool told; /* the other ranks know of this rank's failure */
} MpiState;

static inline MpiState *shlort_mpi_state(const shlort_proc *p) { return p->impl; }

/* SHLORT_COMM with MPI's message when rc is not MPI_SUCCESS. */
int32_t shlort_mpi_check(shlort_proc *p, const shlort_op *op, int rc, const char *call);
/* Waits for n requests, polling: SHLORT_TIMEOUT after the grid's timeout,
 * SHLORT_ABORTED when another rank reports a failure. Their statuses go
 * to st unless it is NULL. `what` names the wait in messages ("the
 * group's operands"). */
int32_t shlort_mpi_wait(shlort_proc *p, const shlort_op *op, int n, MPI_Request *reqs,
                        MPI_Status *st, const char *what);
/* shlort_mpi_wait for point-to-point requests, which a failed wait
 * cancels (a collective's cannot be). */
int32_t shlort_mpi_wait_p2p(shlort_proc *p, const shlort_op *op, int n, MPI_Request *reqs,
                            MPI_Status *st, const char *what);
/* The communicator of p's group p->members[0 .. size), made on first use. */
int32_t shlort_mpi_group(shlort_proc *p, const shlort_op *op, int32_t size, MPI_Comm *comm);
/* With verify on: every member of comm compares the signature of its op
 * and operands with the others'; SHLORT_MISMATCH when one differs. */
int32_t shlort_mpi_agree(shlort_proc *p, const shlort_op *op, MPI_Comm comm, int32_t kind,
                         int32_t n, const shlort_tensor *operands, const int64_t *params);
/* Bytes as an MPI count; SHLORT_INVALID beyond INT_MAX. */
int32_t shlort_mpi_count(shlort_proc *p, const shlort_op *op, int64_t bytes, int *count);

#endif
