/* feed.c: infeed and outfeed (spec "Streaming communication", infeed,
 * outfeed) and the host side of send/recv, common to both builds: they
 * involve one process and its host, never a peer.
 *
 * The host either hooks them (shlort_hooks, per process) or, for infeed
 * and outfeed, gives each process a queue (shlort_task): every tensor of an
 * infeed or outfeed op takes the queue's next entry, whose element type
 * and shape must be the op's. */
#include <string.h>

#include "spmd.h"

static const shlort_hooks *hooks_of(const shlort_proc *p) {
  return p->task ? p->task->hooks : NULL;
}

/* A hook's non-zero return fails the op: with its own code when it is a
 * shlort_status, else SHLORT_FEED. */
static int32_t hook_status(shlort_proc *p, const shlort_op *op, int32_t rc, const char *what) {
  if (!rc) return SHLORT_OK;
  int32_t status = rc > 0 && rc <= SHLORT_COMM ? rc : SHLORT_FEED;
  return shlort_fail(p, op, status, "the host's %s hook returned status %d", what, (int)rc);
}

/* The op's n tensors against the queue's next n entries: checked, then
 * copied into the entries (outfeed) or out of them (infeed). */
static int32_t queue_move(shlort_proc *p, const shlort_op *op, bool out, int32_t n,
                          const shlort_tensor *tensors) {
  shlort_task *t = p->task;
  const char *name = out ? "outfeed" : "infeed";
  int32_t count = !t ? 0 : out ? t->outfeed_count : t->infeed_count;
  int32_t *used = !t ? NULL : out ? &t->outfeed_used : &t->infeed_used;
  if (n <= 0) return SHLORT_OK;
  if (!used || *used + n > count)
    return shlort_fail(p, op, SHLORT_FEED,
                       "the %s queue has %d of %d entries left, the op needs %d", name,
                       (int)(count - (used ? *used : 0)), (int)count, (int)n);
  const shlort_tensor *q = (out ? t->outfeed : t->infeed) + *used;
  const char *what = out ? "the outfeed queue expects" : "the infeed queue holds";
  int32_t rc = shlort_check_types(p, op, what, n, q, n, tensors);
  if (rc) return rc;
  for (int32_t i = 0; i < n; i++)
    memcpy(out ? q[i].data : tensors[i].data, out ? tensors[i].data : q[i].data,
           (size_t)shlort_tensor_bytes(&tensors[i]));
  *used += n;
  return SHLORT_OK;
}

int32_t shlort_infeed(shlort_proc *p, const shlort_op *op, const char *config, int32_t n,
                      const shlort_tensor *results) {
  const shlort_hooks *h = hooks_of(p);
  if (h && h->infeed) return hook_status(p, op, h->infeed(h->ctx, p, config, n, results), "infeed");
  return queue_move(p, op, false, n, results);
}

int32_t shlort_outfeed(shlort_proc *p, const shlort_op *op, const char *config,
                       int32_t n, const shlort_tensor *inputs) {
  const shlort_hooks *h = hooks_of(p);
  if (h && h->outfeed)
    return hook_status(p, op, h->outfeed(h->ctx, p, config, n, inputs), "outfeed");
  return queue_move(p, op, true, n, inputs);
}

int32_t shlort_send(shlort_proc *p, const shlort_op *op, int64_t channel_id,
                    int32_t is_host_transfer, int32_t n, const shlort_tensor *inputs) {
  const shlort_hooks *h = hooks_of(p);
  if (is_host_transfer && h && h->send)
    return hook_status(p, op, h->send(h->ctx, p, channel_id, n, inputs), "send");
  return shlort_channel_send(p, op, channel_id, n, inputs);
}

int32_t shlort_recv(shlort_proc *p, const shlort_op *op, int64_t channel_id,
                    int32_t is_host_transfer, int32_t n, const shlort_tensor *results) {
  const shlort_hooks *h = hooks_of(p);
  if (is_host_transfer && h && h->recv)
    return hook_status(p, op, h->recv(h->ctx, p, channel_id, n, results), "recv");
  return shlort_channel_recv(p, op, channel_id, n, results);
}
