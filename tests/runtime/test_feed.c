/* test_feed.c: what a process exchanges with its peers and its host:
 * replica_id / partition_id, send/recv between processes (the corpus's
 * sequential and parallel channel cases, variadic payloads, host
 * transfers routed between processes when the host has no hook), host
 * hooks for send, recv, infeed and outfeed, and the infeed/outfeed queues
 * of shlort_task. */
#include "rt.h"

static const int64_t d22[] = {2, 2}, d3[] = {3};
static const shlort_op send_op = {"stablehlo.send", "feed.mlir:1:1"};
static const shlort_op recv_op = {"stablehlo.recv", "feed.mlir:2:1"};
static const shlort_op infeed_op = {"stablehlo.infeed", "feed.mlir:3:1"};
static const shlort_op outfeed_op = {"stablehlo.outfeed", "feed.mlir:4:1"};

/* ---- Process position ---------------------------------------------------- */

static uint32_t ids[6][4];

static int32_t where(void *arg, shlort_proc *p) {
  uint32_t *out = arg;
  out[0] = shlort_replica_id(p);
  out[1] = shlort_partition_id(p);
  out[2] = shlort_num_replicas(p);
  out[3] = shlort_num_partitions(p);
  return SHLORT_OK;
}

static void positions(void) {
  shlort_grid *g = rt_grid(2, 3, 0, 0);
  shlort_task t[6];
  for (int i = 0; i < 6; i++) t[i] = (shlort_task){.entry = where, .arg = ids[i]};
  EXPECT_I64(shlort_grid_run(g, t), SHLORT_OK);
  for (uint32_t i = 0; i < 6; i++) {
    EXPECT_I64(ids[i][0], i / 3); /* tasks are in row-major grid order */
    EXPECT_I64(ids[i][1], i % 3);
    EXPECT_I64(ids[i][2], 2);
    EXPECT_I64(ids[i][3], 3);
  }
  rt_grid_free(g);
}

/* ---- send / recv between processes --------------------------------------- */

typedef struct Io {
  int64_t data[4][4];
  int32_t x[3];
  int64_t channel;
} Io;

/* Process 0 of the corpus's case sends two tensors on channel 1 (host
 * transfers, no hook: they go to the grid), process 1 receives both. */
static int32_t sequential(void *arg, shlort_proc *p) {
  Io *io = arg;
  shlort_tensor a = {io->data[0], d22, 2, SHLORT_SI64}, b = {io->data[1], d22, 2, SHLORT_SI64};
  int32_t rc;
  if (shlort_replica_id(p) == 0) {
    rc = shlort_send(p, &send_op, 1, 1, 1, &a);
    return rc ? rc : shlort_send(p, &send_op, 1, 1, 1, &b);
  }
  rc = shlort_recv(p, &recv_op, 1, 1, 1, &a);
  return rc ? rc : shlort_recv(p, &recv_op, 1, 1, 1, &b);
}

/* Even processes send (a 2x2 i64 and a 3-element i32) on their channel,
 * odd ones receive on it. */
static int32_t parallel(void *arg, shlort_proc *p) {
  Io *io = arg;
  shlort_tensor t[2] = {{io->data[0], d22, 2, SHLORT_SI64}, {io->x, d3, 1, SHLORT_SI32}};
  if (shlort_replica_id(p) % 2 == 0) return shlort_send(p, &send_op, io->channel, 0, 2, t);
  return shlort_recv(p, &recv_op, io->channel, 0, 2, t);
}

static void channels(void) {
  shlort_grid *g = rt_grid(2, 1, 0, 0);
  Io io[4] = {{{{1, 2, 3, 4}, {5, 6, 7, 8}}, {0}, 0}};
  shlort_task t[4];
  for (int i = 0; i < 2; i++) t[i] = (shlort_task){.entry = sequential, .arg = &io[i]};
  EXPECT_I64(shlort_grid_run(g, t), SHLORT_OK);
  EXPECT(!memcmp(io[1].data[0], io[0].data[0], sizeof io[0].data[0]));
  EXPECT(!memcmp(io[1].data[1], io[0].data[1], sizeof io[0].data[1]));
  rt_grid_free(g);

  g = rt_grid(4, 1, 0, 0);
  memset(io, 0, sizeof io);
  for (int i = 0; i < 4; i++) {
    io[i].channel = 1 + i / 2;
    if (i % 2) continue;
    for (int k = 0; k < 4; k++) io[i].data[0][k] = 10 * i + k;
    for (int k = 0; k < 3; k++) io[i].x[k] = -i - k;
  }
  for (int i = 0; i < 4; i++) t[i] = (shlort_task){.entry = parallel, .arg = &io[i]};
  EXPECT_I64(shlort_grid_run(g, t), SHLORT_OK);
  for (int i = 1; i < 4; i += 2) {
    EXPECT(!memcmp(io[i].data[0], io[i - 1].data[0], sizeof io[i].data[0]));
    EXPECT(!memcmp(io[i].x, io[i - 1].x, sizeof io[i].x));
  }
  rt_grid_free(g);
}

/* ---- Host hooks ------------------------------------------------------------ */

typedef struct Host {
  int64_t sent[4], fed[4], out[4];
  int64_t channel;
  char config[32];
  int calls;
} Host;

static int32_t host_send(void *ctx, const shlort_proc *p, int64_t channel, int32_t n,
                         const shlort_tensor *in) {
  (void)p;
  Host *h = ctx;
  h->channel = channel;
  h->calls++;
  if (n != 1 || in[0].elem != SHLORT_SI64 || in[0].rank != 2) return SHLORT_MISMATCH;
  memcpy(h->sent, in[0].data, sizeof h->sent);
  return SHLORT_OK;
}

static int32_t host_recv(void *ctx, const shlort_proc *p, int64_t channel, int32_t n,
                         const shlort_tensor *out) {
  (void)p, (void)n;
  Host *h = ctx;
  h->calls++;
  for (int i = 0; i < 4; i++) ((int64_t *)out[0].data)[i] = channel * 100 + i;
  return SHLORT_OK;
}

static int32_t host_infeed(void *ctx, const shlort_proc *p, const char *config, int32_t n,
                           const shlort_tensor *out) {
  (void)p, (void)n;
  Host *h = ctx;
  snprintf(h->config, sizeof h->config, "%s", config);
  memcpy(out[0].data, h->fed, sizeof h->fed);
  h->calls++;
  return SHLORT_OK;
}

static int32_t host_outfeed(void *ctx, const shlort_proc *p, const char *config, int32_t n,
                            const shlort_tensor *in) {
  (void)p, (void)config, (void)n;
  Host *h = ctx;
  memcpy(h->out, in[0].data, sizeof h->out);
  h->calls++;
  return h->out[0] < 0 ? 99 : SHLORT_OK; /* 99: not a status: SHLORT_FEED */
}

/* send and recv with is_host_transfer, infeed, outfeed of what came in. */
static int32_t hooked(void *arg, shlort_proc *p) {
  int64_t *x = arg;
  shlort_tensor t = {x, d22, 2, SHLORT_SI64};
  int32_t rc = shlort_send(p, &send_op, 3, 1, 1, &t);
  if (!rc) rc = shlort_recv(p, &recv_op, 4, 1, 1, &t);
  if (!rc) rc = shlort_infeed(p, &infeed_op, "cfg", 1, &t);
  if (!rc) rc = shlort_outfeed(p, &outfeed_op, "", 1, &t);
  return rc;
}

static void hooks(void) {
  shlort_grid *g = rt_grid(1, 1, 0, 0);
  Host h = {.fed = {9, 8, 7, 6}};
  shlort_hooks hk = {&h, host_infeed, host_outfeed, host_send, host_recv};
  int64_t x[4] = {1, 2, 3, 4};
  shlort_task t = {.entry = hooked, .arg = x, .hooks = &hk};
  EXPECT_I64(shlort_grid_run(g, &t), SHLORT_OK);
  EXPECT_I64(h.calls, 4);
  EXPECT_I64(h.channel, 3);
  EXPECT_I64(h.sent[3], 4);
  EXPECT_STR(h.config, "cfg");
  EXPECT_I64(h.out[0], 9); /* the infeed's data went out */
  /* A hook's failure fails the op. */
  h.fed[0] = -1;
  EXPECT_I64(shlort_grid_run(g, &t), SHLORT_FEED);
  EXPECT_STR(shlort_grid_message(g),
             "stablehlo.outfeed at feed.mlir:4:1 on process (0,0): the host's outfeed hook "
             "returned status 99");
  rt_grid_free(g);
}

/* ---- Queues ---------------------------------------------------------------- */

/* The corpus's infeed case: two infeeds read the queue in order; then both
 * go out to the outfeed queue. */
static int32_t queued(void *arg, shlort_proc *p) {
  int64_t (*x)[4] = arg;
  shlort_tensor a = {x[0], d22, 2, SHLORT_SI64}, b = {x[1], d22, 2, SHLORT_SI64};
  int32_t rc = shlort_infeed(p, &infeed_op, "", 1, &a);
  if (!rc) rc = shlort_infeed(p, &infeed_op, "", 1, &b);
  shlort_tensor both[2] = {b, a};
  if (!rc) rc = shlort_outfeed(p, &outfeed_op, "", 2, both);
  return rc;
}

static void queues(void) {
  shlort_grid *g = rt_grid(1, 1, 0, 0);
  int64_t q0[4] = {1, 2, 3, 4}, q1[4] = {5, 6, 7, 8}, x[2][4] = {{0}}, o[2][4] = {{0}};
  shlort_tensor in[2] = {{q0, d22, 2, SHLORT_SI64}, {q1, d22, 2, SHLORT_SI64}};
  shlort_tensor out[2] = {{o[0], d22, 2, SHLORT_SI64}, {o[1], d22, 2, SHLORT_SI64}};
  shlort_task t = {.entry = queued, .arg = x, .infeed = in, .infeed_count = 2, .outfeed = out,
                   .outfeed_count = 2};
  EXPECT_I64(shlort_grid_run(g, &t), SHLORT_OK);
  EXPECT(!memcmp(x[0], q0, sizeof q0));
  EXPECT(!memcmp(x[1], q1, sizeof q1));
  EXPECT(!memcmp(o[0], q1, sizeof q1));
  EXPECT(!memcmp(o[1], q0, sizeof q0));
  EXPECT_I64(t.infeed_used, 2);
  EXPECT_I64(t.outfeed_used, 2);
  rt_grid_free(g);
}

int main(void) {
  positions();
  channels();
  hooks();
  queues();
  return unit_report();
}
