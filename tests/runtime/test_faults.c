/* test_faults.c: processes that disagree end a run with an error status
 * and a message naming the op, its location and the process, never a hang
 * or a crash: a peer that returns without reaching a collective, one that
 * never arrives (timeout, set short here), mismatched shapes, different
 * ops, collectives in different orders, invalid groups, channel and feed
 * errors, failed checks inside a process. A grid runs again after a
 * failure. */
#include <string.h>
#include <time.h>

#include "rt.h"

enum { TIMEOUT_MS = 200 };

typedef enum Scenario {
  SKIP,          /* process (1,0) returns before the all_reduce */
  LATE,          /* process (1,0) arrives after the timeout */
  SHAPES,        /* process (1,0) reduces 8 elements, the others 4 */
  OPS,           /* process (1,0) is at an all_gather */
  ORDER,         /* processes 0 and 1 meet two groups in opposite orders */
  BAD_GROUPS,    /* replica id out of range */
  SPLIT_COUNT,   /* all_to_all split_count != group size */
  NO_RECV,       /* a send nobody receives */
  RECV_TYPE,     /* recv of another type than sent */
  INFEED_EMPTY,  /* infeed past the queue */
  INFEED_TYPE,   /* queue entry of another shape */
  OUTFEED_FULL,  /* outfeed past the queue */
  CHECK,         /* a check op fails in process (1,0) */
  GOOD,          /* an all_reduce that works */
} Scenario;

static Scenario scenario;

static void add(void *ctx, void *acc, const void *x, int64_t n) {
  (void)ctx;
  for (int64_t i = 0; i < n; i++) ((float *)acc)[i] += ((const float *)x)[i];
}

static const shlort_op ar = {"stablehlo.all_reduce", "faults.mlir:3:5"};
static const shlort_op ag = {"stablehlo.all_gather", "faults.mlir:9:5"};
static const int64_t four[] = {4}, eight[] = {8}, pair01[] = {0, 1}, all3[] = {0, 1, 2};

static int32_t reduce(shlort_proc *p, const shlort_op *op, const int64_t *ids, int64_t cols,
                      const int64_t *dims) {
  float x[8] = {1, 2, 3, 4, 5, 6, 7, 8}, y[8];
  shlort_tensor in = {x, dims, 1, SHLORT_F32}, out = {y, dims, 1, SHLORT_F32};
  shlort_groups g = {ids, ids ? 1 : 0, cols, 0, 0};
  return shlort_all_reduce(p, op, &g, 1, &in, &out, add, NULL);
}

static void sleep_ms(long ms) {
  struct timespec t = {ms / 1000, (ms % 1000) * 1000000};
  nanosleep(&t, NULL);
}

static int32_t channels(shlort_proc *p, uint32_t r) {
  static const shlort_op send = {"stablehlo.send", "faults.mlir:20:3"};
  static const shlort_op recv = {"stablehlo.recv", "faults.mlir:21:3"};
  int64_t x[4] = {1, 2, 3, 4};
  shlort_tensor t64 = {x, four, 1, SHLORT_SI64}, t32 = {x, four, 1, SHLORT_SI32};
  if (scenario == NO_RECV) return r == 0 ? shlort_send(p, &send, 5, 0, 1, &t64) : SHLORT_OK;
  return r == 0 ? shlort_send(p, &send, 1, 0, 1, &t64) : shlort_recv(p, &recv, 1, 0, 1, &t32);
}

static int32_t feeds(shlort_proc *p) {
  static const shlort_op in = {"stablehlo.infeed", "faults.mlir:30:3"};
  static const shlort_op out = {"stablehlo.outfeed", "faults.mlir:31:3"};
  int64_t x[4];
  shlort_tensor t = {x, four, 1, SHLORT_SI64};
  if (scenario == OUTFEED_FULL) return shlort_outfeed(p, &out, "", 1, &t);
  int32_t rc = shlort_infeed(p, &in, "", 1, &t);
  return rc ? rc : shlort_infeed(p, &in, "", 1, &t);
}

static int32_t entry(void *arg, shlort_proc *p) {
  (void)arg;
  uint32_t r = shlort_replica_id(p);
  float one = 1, two = 2;
  switch (scenario) {
  case SKIP: return r == 1 ? SHLORT_OK : reduce(p, &ar, NULL, 0, four);
  case LATE:
    if (r == 1) sleep_ms(3 * TIMEOUT_MS);
    return r == 1 ? SHLORT_OK : reduce(p, &ar, NULL, 0, four);
  case SHAPES: return reduce(p, &ar, NULL, 0, r == 1 ? eight : four);
  case OPS: {
    if (r != 1) return reduce(p, &ar, pair01, 2, four);
    float x[4], y[8];
    int64_t d8[] = {8};
    shlort_tensor in = {x, four, 1, SHLORT_F32}, out = {y, d8, 1, SHLORT_F32};
    shlort_groups g = {pair01, 1, 2, 0, 0};
    return shlort_all_gather(p, &ag, &g, 0, 1, &in, &out);
  }
  case ORDER: {
    /* 0: {0,1} then {0,1,2}; 1: {0,1,2} then {0,1}; 2: {0,1,2}. Both
     * groups have leader 0, which the first waits for in vain. */
    static const shlort_op first = {"stablehlo.all_reduce", "order.mlir:1:1"};
    static const shlort_op second = {"stablehlo.all_reduce", "order.mlir:2:1"};
    int32_t rc;
    if (r == 0) {
      rc = reduce(p, &first, pair01, 2, four);
      return rc ? rc : reduce(p, &second, all3, 3, four);
    }
    if (r == 2) return reduce(p, &second, all3, 3, four);
    rc = reduce(p, &second, all3, 3, four);
    return rc ? rc : reduce(p, &first, pair01, 2, four);
  }
  case BAD_GROUPS: {
    static const int64_t bad[] = {0, 5};
    return reduce(p, &ar, bad, 2, four);
  }
  case SPLIT_COUNT: {
    static const shlort_op a2a = {"stablehlo.all_to_all", "faults.mlir:40:1"};
    float x[4], y[4];
    shlort_tensor in = {x, four, 1, SHLORT_F32}, out = {y, four, 1, SHLORT_F32};
    shlort_groups g = {pair01, 1, 2, 0, 0};
    return shlort_all_to_all(p, &a2a, &g, 0, 0, 4, 1, &in, &out);
  }
  case NO_RECV:
  case RECV_TYPE: return channels(p, r);
  case INFEED_EMPTY:
  case INFEED_TYPE:
  case OUTFEED_FULL: return feeds(p);
  case CHECK: return r == 1 ? shlort_check_eq(SHLORT_F32, &one, &two, 1) : SHLORT_OK;
  default: return reduce(p, &ar, NULL, 0, four);
  }
}

/* Runs the scenario on an nr x 1 grid; expects `status` and a message
 * holding every string of `want` (NULL-terminated). */
static void expect_fault(shlort_grid *g, uint32_t nr, Scenario s, int32_t status,
                         const char *const *want, shlort_task *tasks) {
  scenario = s;
  shlort_task local[8];
  if (!tasks) {
    for (uint32_t i = 0; i < nr; i++) local[i] = (shlort_task){.entry = entry};
    tasks = local;
  }
  int32_t rc = shlort_grid_run(g, tasks);
  EXPECT_I64(rc, status);
  const char *msg = shlort_grid_message(g);
  for (; *want; want++) {
    int found = strstr(msg, *want) != NULL;
    EXPECT(found);
    if (!found) printf("  scenario %d: \"%s\" not in \"%s\"\n", (int)s, *want, msg);
  }
}

#define WANT(...) ((const char *const[]){__VA_ARGS__, NULL})

static void disagreements(void) {
  shlort_grid *g = rt_grid(2, 1, TIMEOUT_MS, 0), *g3 = rt_grid(3, 1, TIMEOUT_MS, 0);
  if (!g || !g3) return;
  expect_fault(g, 2, SKIP, SHLORT_MISMATCH,
               WANT("stablehlo.all_reduce at faults.mlir:3:5 on process (0,0): process (1,0) "
                    "returned without reaching it"),
               NULL);
  expect_fault(g, 2, LATE, SHLORT_TIMEOUT,
               WANT("stablehlo.all_reduce at faults.mlir:3:5 on process (0,0): timeout after "
                    "0.2 s waiting for process (1,0)"),
               NULL);
  expect_fault(g, 2, SHAPES, SHLORT_MISMATCH,
               WANT("operand 0 is tensor<4xf32> on process (0,0), tensor<8xf32> on process (1,0)"),
               NULL);
  expect_fault(g, 2, OPS, SHLORT_MISMATCH,
               WANT("process (1,0) is at all_gather (stablehlo.all_gather at faults.mlir:9:5)"),
               NULL);
  expect_fault(g3, 3, ORDER, SHLORT_MISMATCH,
               WANT("on process (1,0): processes disagree on the order of collectives: process "
                    "(0,0) is at stablehlo.all_reduce at order.mlir:1:1 with another group"),
               NULL);
  expect_fault(g, 2, BAD_GROUPS, SHLORT_INVALID,
               WANT("stablehlo.all_reduce at faults.mlir:3:5 on process",
                    "replica_groups: id 5 is out of range [0, 2)"),
               NULL);
  expect_fault(g, 2, SPLIT_COUNT, SHLORT_INVALID,
               WANT("stablehlo.all_to_all at faults.mlir:40:1",
                    "split_count 4 differs from the group size 2 (C8)"),
               NULL);
  expect_fault(g, 2, CHECK, SHLORT_CHECK_FAILED, WANT("process (1,0): check.expect_eq"), NULL);
  /* The grid is whole again after every failure. */
  expect_fault(g, 2, GOOD, SHLORT_OK, WANT(""), NULL);
  rt_grid_free(g);
  rt_grid_free(g3);
}

static void channel_faults(void) {
  shlort_grid *g = rt_grid(2, 1, TIMEOUT_MS, 0);
  if (!g) return;
  expect_fault(g, 2, NO_RECV, SHLORT_TIMEOUT,
               WANT("stablehlo.send at faults.mlir:20:3 on process (0,0): timeout after 0.2 s "
                    "waiting for a recv on channel 5"),
               NULL);
  expect_fault(g, 2, RECV_TYPE, SHLORT_MISMATCH,
               WANT("stablehlo.recv at faults.mlir:21:3 on process (1,0): process (0,0) sent "
                    "tensor<4xi64> as tensor 0, the op has tensor<4xi32>"),
               NULL);
  rt_grid_free(g);
}

static void feed_faults(void) {
  shlort_grid *g = rt_grid(1, 1, TIMEOUT_MS, 0);
  if (!g) return;
  int64_t x[4] = {1, 2, 3, 4}, y[8];
  int64_t d8[] = {8};
  shlort_tensor one = {x, four, 1, SHLORT_SI64}, wrong = {y, d8, 1, SHLORT_SI64};
  shlort_task t = {.entry = entry, .infeed = &one, .infeed_count = 1};
  expect_fault(g, 1, INFEED_EMPTY, SHLORT_FEED,
               WANT("stablehlo.infeed at faults.mlir:30:3 on process (0,0): the infeed queue has "
                    "0 of 1 entries left, the op needs 1"),
               &t);
  EXPECT_I64(t.infeed_used, 1);
  t = (shlort_task){.entry = entry, .infeed = &wrong, .infeed_count = 1};
  expect_fault(g, 1, INFEED_TYPE, SHLORT_MISMATCH,
               WANT("the infeed queue holds tensor<8xi64> as tensor 0, the op has tensor<4xi64>"),
               &t);
  t = (shlort_task){.entry = entry};
  expect_fault(g, 1, OUTFEED_FULL, SHLORT_FEED,
               WANT("stablehlo.outfeed at faults.mlir:31:3", "the outfeed queue has 0 of 0"), &t);
  rt_grid_free(g);
}

static void bad_configs(void) {
  shlort_grid_config zero = {0, 1, 0, 0, 0}, neg = {1, 1, -5, 0, 0}, ok = {2, 2, 0, 0, 0};
  EXPECT_I64(shlort_grid_bytes(&zero), 0);
  EXPECT_I64(shlort_grid_bytes(&neg), 0);
  size_t bytes = shlort_grid_bytes(&ok);
  EXPECT(bytes > 0);
  unsigned char *mem = aligned_alloc(64, (bytes + 64 + 63) & ~(size_t)63);
  shlort_grid *g = (shlort_grid *)1;
  EXPECT_I64(shlort_grid_init(&g, mem + 8, bytes, &ok), SHLORT_INVALID); /* misaligned */
  EXPECT(g == NULL);
  EXPECT_I64(shlort_grid_init(&g, mem, bytes - 1, &ok), SHLORT_INVALID);
  EXPECT_I64(shlort_grid_init(&g, mem, bytes, &ok), SHLORT_OK);
  shlort_task none[4] = {{0}};
  EXPECT_I64(shlort_grid_run(g, none), SHLORT_INVALID);
  EXPECT_STR(shlort_grid_message(g), "process 0 has no entry");
  shlort_grid_destroy(g);
  free(mem);
}

int main(void) {
  disagreements();
  channel_faults();
  feed_faults();
  bad_configs();
  return unit_report();
}
