/* channels.c: send and recv between the processes of a threads grid
 * (spec "Point-to-point communication", send, recv). A channel is a
 * rendezvous keyed by its id: a send posts an offer and waits until a
 * recv on the same channel has copied its tensors; offers are taken in
 * the order they are posted. As in the upstream interpreter, this holds
 * for host transfers too unless the host hooked them (shlort_hooks). */
#include <stdio.h>
#include <string.h>

#include "grid.h"

static int32_t no_channel(shlort_proc *p, const shlort_op *op, int64_t id) {
  return shlort_fail(p, op, SHLORT_INVALID,
                     "channel %lld: more channels in use than the grid's max_channels",
                     (long long)id);
}

static int32_t waited(shlort_proc *p, const shlort_op *op, int32_t rc, int64_t id,
                      const char *what) {
  if (rc == SHLORT_ABORTED) return shlort_fail(p, op, rc, "aborted: another process failed");
  return shlort_fail(p, op, rc, "timeout after %.1f s waiting for a %s on channel %lld",
                     (double)p->timeout_ms / 1000, what, (long long)id);
}

/* Waits (grid lock held) until the offer is done. An offer not yet taken
 * is withdrawn on a timeout or abort; a taken one is being copied and
 * must outlive the copy, so that wait has no deadline. */
static int32_t await_done(shlort_proc *p, const shlort_op *op, Channel *ch, Offer *o,
                          int64_t id) {
  struct timespec t;
  shlort_grid_deadline(p, &t);
  while (!o->done) {
    int32_t rc = shlort_grid_wait(p, &t);
    if (!rc || o->taken) continue;
    /* Only the channel's pending offer can be untaken. */
    ch->offer = NULL;
    shlort_grid_broadcast(p);
    return waited(p, op, rc, id, "recv");
  }
  if (o->status) {
    return shlort_fail(p, op, o->status, "the receiver on channel %lld rejected the data",
                       (long long)id);
  }
  return SHLORT_OK;
}

static int32_t send_to_grid(shlort_proc *p, const shlort_op *op, int64_t id, int32_t n,
                            const shlort_tensor *inputs) {
  Post post = {op, 0, n, inputs, NULL, {0}};
  Offer o = {p, &post, false, false, SHLORT_OK};
  struct timespec t;
  shlort_grid_deadline(p, &t);
  shlort_grid_lock(p);
  Channel *ch = shlort_grid_channel(p, id);
  int32_t rc = ch ? SHLORT_OK : no_channel(p, op, id);
  while (!rc && ch->offer) /* an earlier send on the channel goes first */
    if ((rc = shlort_grid_wait(p, &t))) rc = waited(p, op, rc, id, "recv");
  if (!rc) {
    ch->offer = &o;
    shlort_grid_broadcast(p);
    rc = await_done(p, op, ch, &o, id);
  }
  shlort_grid_unlock(p);
  return rc;
}

static int32_t take(shlort_proc *p, const shlort_op *op, Channel *ch, int64_t id,
                    Offer **offer) {
  struct timespec t;
  shlort_grid_deadline(p, &t);
  while (!ch->offer) {
    int32_t rc = shlort_grid_wait(p, &t);
    if (rc == SHLORT_ABORTED || (rc && !ch->offer)) return waited(p, op, rc, id, "send");
  }
  *offer = ch->offer;
  (*offer)->taken = true;
  ch->offer = NULL; /* the next send may post */
  shlort_grid_broadcast(p);
  return SHLORT_OK;
}

static int32_t recv_from_grid(shlort_proc *p, const shlort_op *op, int64_t id, int32_t n,
                              const shlort_tensor *results) {
  Offer *o = NULL;
  shlort_grid_lock(p);
  Channel *ch = shlort_grid_channel(p, id);
  int32_t rc = ch ? take(p, op, ch, id, &o) : no_channel(p, op, id);
  shlort_grid_unlock(p);
  if (rc) return rc;
  char who[48];
  snprintf(who, sizeof who, "process (%u,%u) sent", o->from->replica, o->from->partition);
  rc = shlort_check_types(p, op, who, o->post->n, o->post->operands, n, results);
  /* The sender waits for `done` and keeps its buffers until then. */
  for (int32_t i = 0; !rc && i < n; i++)
    memcpy(results[i].data, o->post->operands[i].data, (size_t)shlort_tensor_bytes(&results[i]));
  shlort_grid_lock(p);
  o->status = rc;
  o->done = true;
  shlort_grid_broadcast(p);
  shlort_grid_unlock(p);
  return rc;
}

int32_t shlort_channel_send(shlort_proc *p, const shlort_op *op, int64_t channel_id,
                            int32_t n, const shlort_tensor *inputs) {
  return send_to_grid(p, op, channel_id, n, inputs);
}

int32_t shlort_channel_recv(shlort_proc *p, const shlort_op *op, int64_t channel_id,
                            int32_t n, const shlort_tensor *results) {
  return recv_from_grid(p, op, channel_id, n, results);
}
