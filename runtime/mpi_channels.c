/* mpi_channels.c: send and recv between ranks (libshlort_mpi.a). A
 * channel's route (shlort_mpi_config.routes) names its sender and
 * receiver. The sender first sends a header with the tensors' types, then
 * each tensor, all on the channel's tag, so channels never mix and the
 * receiver checks the types before taking the data. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "mpi_grid.h"

/* Header: n, then per tensor its element type, rank and dims. */
enum { HEADER_WORDS = SHLORT_BLOCK_BYTES / 8, MAX_TENSORS = 64 };

static int channel_tag(int64_t id) { return TAG_CHANNEL + (int)(id % (32767 - TAG_CHANNEL)); }

/* The peer of this rank on channel id: the receiver when sending. */
static int32_t route(shlort_proc *p, const shlort_op *op, int64_t id, bool sending,
                     int32_t *peer) {
  MpiState *s = shlort_mpi_state(p);
  for (int32_t i = 0; i < s->route_count; i++) {
    const shlort_mpi_route *r = &s->routes[i];
    if (r->channel_id != id || (sending ? r->sender : r->receiver) != p->index) continue;
    *peer = sending ? r->receiver : r->sender;
    if (*peer >= 0 && *peer < p->nprocs) return SHLORT_OK;
  }
  return shlort_fail(p, op, SHLORT_INVALID,
                     "channel %lld has no route %s this process (shlort_mpi_config.routes)",
                     (long long)id, sending ? "from" : "to");
}

static int32_t encode(shlort_proc *p, const shlort_op *op, int32_t n, const shlort_tensor *t,
                      int64_t *h, int *words) {
  int k = 0;
  h[k++] = n;
  for (int32_t i = 0; i < n; i++) {
    if (k + 2 + t[i].rank > HEADER_WORDS)
      return shlort_fail(p, op, SHLORT_INVALID, "too many tensors or dimensions to send");
    h[k++] = t[i].elem;
    h[k++] = t[i].rank;
    for (int32_t d = 0; d < t[i].rank; d++) h[k++] = t[i].dims[d];
  }
  *words = k;
  return SHLORT_OK;
}

int32_t shlort_channel_send(shlort_proc *p, const shlort_op *op, int64_t channel_id,
                            int32_t n, const shlort_tensor *inputs) {
  MpiState *s = shlort_mpi_state(p);
  int32_t to, rc = route(p, op, channel_id, true, &to);
  int words = 0, tag = channel_tag(channel_id);
  int64_t *header = (int64_t *)(void *)p->block;
  if (!rc && n > MAX_TENSORS)
    rc = shlort_fail(p, op, SHLORT_INVALID, "more than 64 tensors to send");
  if (!rc) rc = encode(p, op, n, inputs, header, &words);
  if (rc) return rc;
  MPI_Request reqs[1 + MAX_TENSORS];
  int e = MPI_Isend(header, words, MPI_INT64_T, to, tag, s->world, &reqs[0]);
  int nreq = 1;
  for (int32_t i = 0; !e && i < n; i++) {
    int count;
    if ((rc = shlort_mpi_count(p, op, shlort_tensor_bytes(&inputs[i]), &count))) break;
    e = MPI_Isend(inputs[i].data, count, MPI_BYTE, to, tag, s->world, &reqs[nreq++]);
  }
  if (!rc) rc = shlort_mpi_check(p, op, e, "MPI_Isend");
  if (rc) return rc;
  char what[64];
  snprintf(what, sizeof what, "the recv on channel %lld", (long long)channel_id);
  return shlort_mpi_wait_p2p(p, op, nreq, reqs, NULL, what);
}

/* The tensors a header describes, with dims pointing into it. */
static int32_t decode(shlort_proc *p, const shlort_op *op, const int64_t *h, int words,
                      shlort_tensor *t, int32_t max, int32_t *n) {
  int k = 1;
  *n = (int32_t)h[0];
  if (*n < 0 || *n > max)
    return shlort_fail(p, op, SHLORT_MISMATCH, "the sender sent %lld tensors", (long long)h[0]);
  for (int32_t i = 0; i < *n; i++) {
    if (k + 2 > words || k + 2 + h[k + 1] > words)
      return shlort_fail(p, op, SHLORT_COMM, "a malformed channel header");
    t[i] = (shlort_tensor){NULL, &h[k + 2], (int32_t)h[k + 1], (int32_t)h[k]};
    k += 2 + (int)h[k + 1];
  }
  return SHLORT_OK;
}

int32_t shlort_channel_recv(shlort_proc *p, const shlort_op *op, int64_t channel_id,
                            int32_t n, const shlort_tensor *results) {
  MpiState *s = shlort_mpi_state(p);
  int32_t from, rc = route(p, op, channel_id, false, &from);
  int tag = channel_tag(channel_id);
  if (rc) return rc;
  if (n > MAX_TENSORS) return shlort_fail(p, op, SHLORT_INVALID, "more than 64 tensors to receive");
  int64_t *header = (int64_t *)(void *)p->block;
  MPI_Request reqs[MAX_TENSORS];
  MPI_Status st;
  char what[64];
  snprintf(what, sizeof what, "the send on channel %lld", (long long)channel_id);
  rc = shlort_mpi_check(p, op, MPI_Irecv(header, HEADER_WORDS, MPI_INT64_T, from, tag, s->world,
                                         &reqs[0]),
                        "MPI_Irecv");
  if (!rc) rc = shlort_mpi_wait_p2p(p, op, 1, reqs, &st, what);
  if (rc) return rc;
  int words = 0;
  shlort_tensor sent[MAX_TENSORS];
  int32_t nsent;
  MPI_Get_count(&st, MPI_INT64_T, &words);
  if ((rc = decode(p, op, header, words, sent, MAX_TENSORS, &nsent))) return rc;
  char who[48];
  snprintf(who, sizeof who, "process (%u,%u) sent", (uint32_t)from / p->num_partitions,
           (uint32_t)from % p->num_partitions);
  if ((rc = shlort_check_types(p, op, who, nsent, sent, n, results))) return rc;
  int e = MPI_SUCCESS;
  for (int32_t i = 0; !e && i < n; i++) {
    int count;
    if ((rc = shlort_mpi_count(p, op, shlort_tensor_bytes(&results[i]), &count))) return rc;
    e = MPI_Irecv(results[i].data, count, MPI_BYTE, from, tag, s->world, &reqs[i]);
  }
  if ((rc = shlort_mpi_check(p, op, e, "MPI_Irecv"))) return rc;
  return shlort_mpi_wait_p2p(p, op, n, reqs, NULL, what);
}
