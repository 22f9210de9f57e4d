/* mpi_collectives.c: the collective ops over MPI (libshlort_mpi.a), on
 * the group communicators of mpi.c, whose rank order is the group order.
 * Semantics: the spec's section of each op; the layouts of all_gather,
 * reduce_scatter and all_to_all are MPI vector datatypes over the
 * tensors, so the data lands in place.
 *
 * Reductions never use MPI's reduction operators, which may associate in
 * any order: all_reduce sends each member its slice of the operand, folds
 * its own slice in group order and sends it to every member, in chunks of
 * the stage; below SMALL_BYTES every member sends its whole operand to
 * every member, which folds them all. Each element is the same left fold
 * in group order as over threads. These exchanges are point-to-point
 * messages on the group's communicator (faster than MPI's non-blocking
 * collectives for the few members of a group, and cancellable). */
#include <string.h>

#include "mpi_grid.h"

enum { SMALL_BYTES = 32768 };

static unsigned char *bytes_at(const shlort_tensor *t, int64_t offset) {
  return (unsigned char *)t->data + offset;
}

/* The group's communicator, after the members agree (with verify on). */
static int32_t group_comm(shlort_proc *p, const shlort_op *op, int32_t size, int32_t kind,
                          int32_t n, const shlort_tensor *operands, const int64_t *params,
                          MPI_Comm *comm) {
  int32_t rc = shlort_mpi_group(p, op, size, comm);
  return rc ? rc : shlort_mpi_agree(p, op, *comm, kind, n, operands, params);
}

static int32_t stage_fits(shlort_proc *p, const shlort_op *op, int64_t bytes) {
  if (bytes <= shlort_mpi_state(p)->stage_bytes) return SHLORT_OK;
  return shlort_fail(p, op, SHLORT_INVALID,
                     "needs %lld bytes of stage (shlort_mpi_config.stage_bytes)", (long long)bytes);
}

/* One member's block of a tensor viewed as [outer, parts, row bytes]:
 * `outer` rows of `row` bytes, parts * row apart; consecutive blocks one
 * row apart (the type's extent). Free with MPI_Type_free. */
static int32_t block_type(shlort_proc *p, const shlort_op *op, int64_t outer, int64_t row,
                          int64_t parts, MPI_Datatype *type) {
  int o, r, stride;
  int32_t rc = shlort_mpi_count(p, op, outer, &o);
  if (!rc) rc = shlort_mpi_count(p, op, row, &r);
  if (!rc) rc = shlort_mpi_count(p, op, row * parts, &stride);
  if (rc) return rc;
  MPI_Datatype vec;
  int e = MPI_Type_vector(o, r, stride, MPI_BYTE, &vec);
  if (!e) e = MPI_Type_create_resized(vec, 0, r, type);
  if (!e) e = MPI_Type_commit(type);
  MPI_Type_free(&vec);
  return shlort_mpi_check(p, op, e, "MPI_Type_vector");
}

/* ------------------------------------------------------------------------ */
/* all_reduce, collective_reduce */

/* Sends send[k] (scount[k] bytes) to and receives recv[k] (rcount[k]
 * bytes) from every other member k, on the group's communicator. */
static int32_t swap(shlort_proc *p, const shlort_op *op, MPI_Comm comm, int32_t size,
                    int32_t index, int tag, const void *const *send, const int *scount,
                    void *const *recv, const int *rcount, const char *what) {
  MPI_Request *reqs = shlort_mpi_state(p)->reqs;
  int n = 0, e = MPI_SUCCESS;
  for (int32_t k = 0; k < size && !e; k++) {
    if (k == index) continue;
    e = MPI_Irecv(recv[k], rcount[k], MPI_BYTE, k, tag, comm, &reqs[n++]);
    if (!e) e = MPI_Isend(send[k], scount[k], MPI_BYTE, k, tag, comm, &reqs[n++]);
  }
  int32_t rc = shlort_mpi_check(p, op, e, "MPI_Isend/MPI_Irecv");
  return rc ? rc : shlort_mpi_wait_p2p(p, op, n, reqs, NULL, what);
}

/* Small operands: every member's whole operand to every member, which
 * folds them all (one round of messages). */
static int32_t reduce_gathered(shlort_proc *p, const shlort_op *op, MPI_Comm comm, int32_t size,
                               int32_t index, const shlort_tensor *operand,
                               const shlort_tensor *result, shlort_combine_fn combine,
                               void *ctx) {
  MpiState *s = shlort_mpi_state(p);
  int64_t bytes = shlort_tensor_bytes(operand);
  for (int32_t k = 0; k < size; k++) {
    p->srcs[k] = operand->data;
    p->dsts[k] = s->stage + k * bytes;
    s->counts[0][k] = (int)bytes;
  }
  int32_t rc = swap(p, op, comm, size, index, TAG_WHOLE, p->srcs, s->counts[0], p->dsts,
                    s->counts[0], "the group's operands");
  if (rc) return rc;
  for (int32_t j = 0; j < size; j++) p->srcs[j] = j == index ? operand->data : s->stage + j * bytes;
  shlort_fold(p, result->data, p->srcs, size, bytes, shlort_elem_bytes(result->elem), combine, ctx);
  return SHLORT_OK;
}

/* Elements [e0, e0 + c) of an operand: slice `index` of every member's
 * operand to this member, which folds it, then this member's folded slice
 * to every member. */
static int32_t reduce_chunk(shlort_proc *p, const shlort_op *op, MPI_Comm comm, int32_t size,
                            int32_t index, const shlort_tensor *operand,
                            const shlort_tensor *result, int64_t e0, int64_t c,
                            shlort_combine_fn combine, void *ctx) {
  MpiState *s = shlort_mpi_state(p);
  int64_t es = shlort_elem_bytes(result->elem);
  int *len = s->counts[0], *mine = s->counts[1];
  int64_t at = (e0 + shlort_slice_begin(c, size, index)) * es;
  int64_t own = shlort_slice_begin(c, size, index + 1) - shlort_slice_begin(c, size, index);
  for (int32_t k = 0; k < size; k++) {
    int64_t b = shlort_slice_begin(c, size, k);
    len[k] = (int)((shlort_slice_begin(c, size, k + 1) - b) * es);
    mine[k] = (int)(own * es);
    p->srcs[k] = bytes_at(operand, (e0 + b) * es);
    p->dsts[k] = s->stage + k * mine[k];
  }
  int32_t rc = swap(p, op, comm, size, index, TAG_SLICE, p->srcs, len, p->dsts, mine,
                    "the group's slices");
  if (rc) return rc;
  for (int32_t j = 0; j < size; j++) p->srcs[j] = j == index ? bytes_at(operand, at) : p->dsts[j];
  shlort_fold(p, bytes_at(result, at), p->srcs, size, mine[0], (int32_t)es, combine, ctx);
  for (int32_t k = 0; k < size; k++) {
    p->srcs[k] = bytes_at(result, at);
    p->dsts[k] = bytes_at(result, (e0 + shlort_slice_begin(c, size, k)) * es);
  }
  return swap(p, op, comm, size, index, TAG_GATHER, p->srcs, mine, p->dsts, len,
              "the group's reduced slices");
}

static int32_t reduce_in_chunks(shlort_proc *p, const shlort_op *op, MPI_Comm comm, int32_t size,
                                int32_t index, const shlort_tensor *operand,
                                const shlort_tensor *result, shlort_combine_fn combine,
                                void *ctx) {
  int64_t es = shlort_elem_bytes(result->elem), e = shlort_elems(result);
  /* The stage receives `size` slices of at most ceil(chunk / size). */
  int64_t chunk = shlort_mpi_state(p)->stage_bytes / es - size;
  if (chunk > (int64_t)(1 << 30) / es) chunk = (int64_t)(1 << 30) / es;
  int32_t rc = chunk < size ? stage_fits(p, op, 2 * size * es) : SHLORT_OK;
  for (int64_t e0 = 0; !rc && e0 < e; e0 += chunk)
    rc = reduce_chunk(p, op, comm, size, index, operand, result, e0,
                      e - e0 < chunk ? e - e0 : chunk, combine, ctx);
  return rc;
}

/* collective_reduce of elements [e0, e0 + c): the root gathers them from
 * every member and folds them; the others get zeros. */
static int32_t gather_fold(shlort_proc *p, const shlort_op *op, MPI_Comm comm, int32_t size,
                           int32_t index, const shlort_tensor *operand,
                           const shlort_tensor *result, int64_t e0, int64_t c,
                           shlort_combine_fn combine, void *ctx) {
  MpiState *s = shlort_mpi_state(p);
  int64_t es = shlort_elem_bytes(operand->elem), bytes = c * es;
  int count;
  MPI_Request req;
  int32_t rc = shlort_mpi_count(p, op, bytes, &count);
  if (!rc)
    rc = shlort_mpi_check(p, op, MPI_Igather(bytes_at(operand, e0 * es), count, MPI_BYTE, s->stage,
                                             count, MPI_BYTE, 0, comm, &req),
                          "MPI_Igather");
  if (!rc) rc = shlort_mpi_wait(p, op, 1, &req, NULL, "the group's operands");
  if (rc) return rc;
  if (index != 0) {
    memset(bytes_at(result, e0 * es), 0, (size_t)bytes);
    return SHLORT_OK;
  }
  for (int32_t j = 0; j < size; j++) p->srcs[j] = s->stage + j * bytes;
  shlort_fold(p, bytes_at(result, e0 * es), p->srcs, size, bytes, (int32_t)es, combine, ctx);
  return SHLORT_OK;
}

/* The reduction of one operand. */
static int32_t reduce_operand(shlort_proc *p, const shlort_op *op, MPI_Comm comm, int32_t kind,
                              int32_t size, int32_t index, bool gathered,
                              const shlort_tensor *operand, const shlort_tensor *result,
                              shlort_combine_fn combine, void *ctx) {
  if (kind == SHLORT_K_ALL_REDUCE && gathered)
    return reduce_gathered(p, op, comm, size, index, operand, result, combine, ctx);
  if (kind == SHLORT_K_ALL_REDUCE)
    return reduce_in_chunks(p, op, comm, size, index, operand, result, combine, ctx);
  int64_t es = shlort_elem_bytes(operand->elem), e = shlort_elems(operand);
  int64_t chunk = shlort_mpi_state(p)->stage_bytes / (size * es);
  int32_t rc = chunk < 1 ? stage_fits(p, op, size * es) : SHLORT_OK;
  for (int64_t e0 = 0; !rc && e0 < e; e0 += chunk)
    rc = gather_fold(p, op, comm, size, index, operand, result, e0,
                     e - e0 < chunk ? e - e0 : chunk, combine, ctx);
  return rc;
}

/* all_reduce and collective_reduce. */
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
  static const int64_t none[3];
  MPI_Comm comm;
  if ((rc = group_comm(p, op, size, kind, n, operands, none, &comm))) return rc;
  int64_t total = 0;
  for (int32_t i = 0; i < n; i++) total += shlort_tensor_bytes(&operands[i]);
  bool gathered = total < SMALL_BYTES && total * size <= shlort_mpi_state(p)->stage_bytes;
  for (int32_t i = 0; !rc && i < n; i++)
    rc = reduce_operand(p, op, comm, kind, size, index, gathered, &operands[i], &results[i],
                        combine, ctx);
  return rc;
}

/* ------------------------------------------------------------------------ */
/* all_gather, reduce_scatter, all_to_all */

int32_t shlort_all_gather(shlort_proc *p, const shlort_op *op, const shlort_groups *g,
                          int64_t dim, int32_t n, const shlort_tensor *operands,
                          const shlort_tensor *results) {
  int32_t size, index,
      rc = shlort_begin_all_gather(p, op, g, dim, n, operands, results, &size, &index);
  if (rc) return rc;
  int64_t params[3] = {dim, 0, 0};
  MPI_Comm comm;
  if (size > 1 && (rc = group_comm(p, op, size, SHLORT_K_ALL_GATHER, n, operands, params, &comm)))
    return rc;
  for (int32_t i = 0; !rc && i < n; i++) {
    int64_t outer, row = shlort_split_rows(&operands[i], dim, 1, &outer);
    if (size == 1) {
      shlort_copy_tensors(1, &operands[i], &results[i]);
      continue;
    }
    /* Member k's operand is block k of the result, [outer, size, row]. */
    MPI_Datatype block;
    int count;
    MPI_Request req;
    if ((rc = shlort_mpi_count(p, op, outer * row, &count)) ||
        (rc = block_type(p, op, outer, row, size, &block)))
      break;
    rc = shlort_mpi_check(p, op, MPI_Iallgather(operands[i].data, count, MPI_BYTE,
                                                results[i].data, 1, block, comm, &req),
                          "MPI_Iallgather");
    if (!rc) rc = shlort_mpi_wait(p, op, 1, &req, NULL, "the group's operands");
    MPI_Type_free(&block);
  }
  return rc;
}

/* reduce_scatter of rows [a0, a0 + nrows) and bytes [c0, c0 + len) of the
 * parts: the operand is [outer, size, row]; member k sends its part k's
 * piece to member k, which folds the pieces into its result. */
static int32_t scatter_piece(shlort_proc *p, const shlort_op *op, MPI_Comm comm, int32_t size,
                             const shlort_tensor *operand, const shlort_tensor *result,
                             int64_t row, int64_t a0, int64_t nrows, int64_t c0, int64_t len,
                             shlort_combine_fn combine, void *ctx) {
  MpiState *s = shlort_mpi_state(p);
  int32_t es = shlort_elem_bytes(result->elem);
  int o, l, stride, count;
  MPI_Datatype vec, piece;
  int32_t rc = shlort_mpi_count(p, op, nrows, &o);
  if (!rc) rc = shlort_mpi_count(p, op, len, &l);
  if (!rc) rc = shlort_mpi_count(p, op, size * row, &stride);
  if (!rc) rc = shlort_mpi_count(p, op, nrows * len, &count);
  if (rc) return rc;
  int e = MPI_Type_vector(o, l, stride, MPI_BYTE, &vec);
  if (!e) e = MPI_Type_create_resized(vec, 0, row, &piece); /* member k's at k * row */
  if (!e) e = MPI_Type_commit(&piece);
  MPI_Type_free(&vec);
  if ((rc = shlort_mpi_check(p, op, e, "MPI_Type_vector"))) return rc;
  MPI_Request req;
  rc = shlort_mpi_check(p, op, MPI_Ialltoall(bytes_at(operand, a0 * size * row + c0), 1, piece,
                                             s->stage, count, MPI_BYTE, comm, &req),
                        "MPI_Ialltoall");
  if (!rc) rc = shlort_mpi_wait(p, op, 1, &req, NULL, "the group's parts");
  MPI_Type_free(&piece);
  for (int64_t r = 0; !rc && r < nrows; r++) {
    for (int32_t j = 0; j < size; j++) p->srcs[j] = s->stage + (j * nrows + r) * len;
    shlort_fold(p, bytes_at(result, (a0 + r) * row + c0), p->srcs, size, len, es, combine, ctx);
  }
  return rc;
}

/* The pieces of one operand, as large as the stage allows. */
static int32_t scatter_operand(shlort_proc *p, const shlort_op *op, MPI_Comm comm, int32_t size,
                               int64_t dim, const shlort_tensor *operand,
                               const shlort_tensor *result, shlort_combine_fn combine,
                               void *ctx) {
  int64_t outer, row = shlort_split_rows(operand, dim, size, &outer);
  int64_t es = shlort_elem_bytes(operand->elem), stage = shlort_mpi_state(p)->stage_bytes;
  int64_t len = stage / size / es * es;
  if (len < es) return stage_fits(p, op, size * es);
  if (len > row) len = row;
  int64_t nrows = stage / (size * len);
  int32_t rc = SHLORT_OK;
  for (int64_t a0 = 0; !rc && a0 < outer; a0 += nrows)
    for (int64_t c0 = 0; !rc && c0 < row; c0 += len)
      rc = scatter_piece(p, op, comm, size, operand, result, row, a0,
                         outer - a0 < nrows ? outer - a0 : nrows, c0,
                         row - c0 < len ? row - c0 : len, combine, ctx);
  return rc;
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
  int64_t params[3] = {dim, 0, 0};
  MPI_Comm comm;
  if ((rc = group_comm(p, op, size, SHLORT_K_REDUCE_SCATTER, n, operands, params, &comm)))
    return rc;
  for (int32_t i = 0; !rc && i < n; i++)
    rc = scatter_operand(p, op, comm, size, dim, &operands[i], &results[i], combine, ctx);
  return rc;
}

int32_t shlort_all_to_all(shlort_proc *p, const shlort_op *op, const shlort_groups *g,
                          int64_t split_dimension, int64_t concat_dimension,
                          int64_t split_count, int32_t n, const shlort_tensor *operands,
                          const shlort_tensor *results) {
  int32_t size, index,
      rc = shlort_begin_all_to_all(p, op, g, split_dimension, concat_dimension, split_count, n,
                                   operands, results, &size, &index);
  if (rc) return rc;
  if (size == 1) {
    shlort_copy_tensors(n, operands, results);
    return SHLORT_OK;
  }
  int64_t params[3] = {split_dimension, concat_dimension, split_count};
  MPI_Comm comm;
  if ((rc = group_comm(p, op, size, SHLORT_K_ALL_TO_ALL, n, operands, params, &comm))) return rc;
  for (int32_t i = 0; !rc && i < n; i++) {
    /* Part k of the operand, [outer, size, row], goes to member k; member
     * k's part lands in block k of the result, [couter, size, out]. */
    int64_t outer, row = shlort_split_rows(&operands[i], split_dimension, size, &outer);
    int64_t couter, out = shlort_split_rows(&results[i], concat_dimension, size, &couter);
    MPI_Datatype send, recv;
    MPI_Request req;
    if ((rc = block_type(p, op, outer, row, size, &send))) break;
    if ((rc = block_type(p, op, couter, out, size, &recv))) {
      MPI_Type_free(&send);
      break;
    }
    rc = shlort_mpi_check(p, op, MPI_Ialltoall(operands[i].data, 1, send, results[i].data, 1,
                                               recv, comm, &req),
                          "MPI_Ialltoall");
    if (!rc) rc = shlort_mpi_wait(p, op, 1, &req, NULL, "the group's parts");
    MPI_Type_free(&send);
    MPI_Type_free(&recv);
  }
  return rc;
}

/* ------------------------------------------------------------------------ */
/* collective_permute, collective_broadcast */

int32_t shlort_collective_permute(shlort_proc *p, const shlort_op *op,
                                  const shlort_groups *g, const shlort_tensor *operand,
                                  const shlort_tensor *result) {
  int32_t source, target,
      rc = shlort_begin_permute(p, op, g, operand, result, &source, &target);
  int count;
  if (!rc) rc = shlort_mpi_count(p, op, shlort_tensor_bytes(result), &count);
  if (rc) return rc;
  MpiState *s = shlort_mpi_state(p);
  MPI_Request reqs[2];
  MPI_Status st[2];
  int nreq = 0, e = MPI_SUCCESS;
  /* Pairs between the same two ranks match in program order (MPI keeps
   * the order of messages with one tag between two ranks). */
  if (target >= 0 && target != p->index)
    e = MPI_Isend(operand->data, count, MPI_BYTE, target, TAG_PERMUTE, s->world, &reqs[nreq++]);
  if (!e && source >= 0 && source != p->index)
    e = MPI_Irecv(result->data, count, MPI_BYTE, source, TAG_PERMUTE, s->world, &reqs[nreq++]);
  if ((rc = shlort_mpi_check(p, op, e, "MPI_Isend/MPI_Irecv"))) return rc;
  if (source < 0) shlort_zero(result);
  else if (source == p->index) shlort_copy_tensors(1, operand, result);
  rc = shlort_mpi_wait_p2p(p, op, nreq, reqs, st, "the permute's peers");
  int got = count;
  if (!rc && source >= 0 && source != p->index) MPI_Get_count(&st[nreq - 1], MPI_BYTE, &got);
  if (!rc && got != count) {
    char who[32];
    shlort_format_process(who, sizeof who, p, source);
    rc = shlort_fail(p, op, SHLORT_MISMATCH, "process %s sent %d bytes, the result has %d", who,
                     got, count);
  }
  return rc;
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
  static const int64_t none[3];
  MPI_Comm comm;
  int count;
  if ((rc = group_comm(p, op, size, SHLORT_K_BROADCAST, 1, operand, none, &comm)) ||
      (rc = shlort_mpi_count(p, op, shlort_tensor_bytes(result), &count)))
    return rc;
  if (index == 0) shlort_copy_tensors(1, operand, result);
  MPI_Request req;
  rc = shlort_mpi_check(p, op, MPI_Ibcast(result->data, count, MPI_BYTE, 0, comm, &req),
                        "MPI_Ibcast");
  return rc ? rc : shlort_mpi_wait(p, op, 1, &req, NULL, "the group's root");
}
