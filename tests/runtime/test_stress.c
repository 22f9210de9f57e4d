/* test_stress.c: one run of a 4 x 2 grid (8 threads) in which every
 * process executes 10,000 collectives of every kind, on changing groups
 * (whole grid, pairs, partitions, singletons, permutes with holes), small
 * and above all_reduce's two-phase threshold, each checked against the
 * reference of ref.h. Then two grids run the same program at once from two
 * host threads: their rendezvous share nothing. The grids' timeout is the
 * default (30 s), so a deadlock fails the run instead of hanging. */
#include <pthread.h>

#include "ref.h"
#include "rt.h"

enum { ITERATIONS = 10000, MAXCASES = 4096, SMALL = 4096 };

typedef struct Program {
  RefCase cases[MAXCASES];
  int ncases;
  int iterations;
  size_t max_bytes; /* of one operand or result */
} Program;

/* A process's buffers: every process's operands (for the reference), its
 * results and the expected ones. */
typedef struct Proc {
  const Program *prog;
  int id, mismatches, done;
  unsigned char *in[REF_MAXN][2], *out[2], *want[2];
} Proc;

static void region(void *ctx, void *acc, const void *x, int64_t n) {
  ref_region(*(const int32_t *)ctx)(NULL, acc, x, n);
}

/* One collective of case c by process `id`, its result compared with the
 * reference computed from every process's (deterministic) operands. */
static int32_t step(shlort_proc *proc, const RefCase *c, int seed, int id, Proc *me) {
  int nprocs = (int)(c->nr * c->np), size = 0, index = 0;
  void *ins[REF_MAXN][2], *wants[2] = {me->want[0], me->want[1]};
  unsigned char **out = me->out, **want = me->want;
  for (int q = 0; q < nprocs; q++)
    for (int k = 0; k < c->n; k++) ins[q][k] = me->in[q][k], ref_input(c, seed, q, k, ins[q][k]);
  RefGroups g;
  ref_groups(c, &g);
  ref_find(&g, id, &size, &index);
  int64_t rdims[2][REF_RANK];
  shlort_tensor ti[2], to[2];
  for (int k = 0; k < c->n; k++) {
    ref_result_dims(c, k, size ? size : 1, rdims[k]);
    ti[k] = (shlort_tensor){me->in[id][k], c->dims[k], REF_RANK, c->elem};
    to[k] = (shlort_tensor){out[k], rdims[k], REF_RANK, c->elem};
  }
  shlort_op op = {ref_op_names[c->op], "stress.mlir:1:1"};
  shlort_groups gr = {c->ids, c->rows, c->cols, c->channel_id, c->global};
  void *ctx = (void *)&c->elem;
  int32_t rc;
  switch (c->op) {
  case REF_ALL_REDUCE: rc = shlort_all_reduce(proc, &op, &gr, c->n, ti, to, region, ctx); break;
  case REF_ALL_GATHER: rc = shlort_all_gather(proc, &op, &gr, c->dim, c->n, ti, to); break;
  case REF_REDUCE_SCATTER:
    rc = shlort_reduce_scatter(proc, &op, &gr, c->dim, c->n, ti, to, region, ctx);
    break;
  case REF_ALL_TO_ALL:
    rc = shlort_all_to_all(proc, &op, &gr, c->dim, c->dim2, size, c->n, ti, to);
    break;
  case REF_PERMUTE: rc = shlort_collective_permute(proc, &op, &gr, ti, to); break;
  case REF_BROADCAST: rc = shlort_collective_broadcast(proc, &op, &gr, ti, to); break;
  default: rc = shlort_collective_reduce(proc, &op, &gr, c->n, ti, to, region, ctx);
  }
  if (rc) return rc;
  ref_expect(c, ins, id, wants);
  for (int k = 0; k < c->n; k++)
    if (memcmp(out[k], want[k], (size_t)(ref_count(rdims[k]) * ref_esize(c->elem))))
      me->mismatches++;
  return SHLORT_OK;
}

static int32_t entry(void *arg, shlort_proc *proc) {
  Proc *me = arg;
  const Program *prog = me->prog;
  for (int t = 0; t < prog->iterations; t++) {
    /* The same sequence in every process. */
    int32_t rc = step(proc, &prog->cases[t % prog->ncases], t, me->id, me);
    if (rc) return rc;
    me->done++;
  }
  return SHLORT_OK;
}

/* The cases of a grid: the small ones, and the large all_reduces of 4- and
 * 8-byte elements. */
static void program(Program *p, uint32_t nr, uint32_t np, int iterations) {
  static RefCase all[MAXCASES];
  int n = ref_make_cases(nr, np, all, MAXCASES);
  p->ncases = 0;
  p->iterations = iterations;
  p->max_bytes = 0;
  for (int i = 0; i < n; i++) {
    int64_t bytes = ref_count(all[i].dims[0]) * ref_esize(all[i].elem);
    bool large_reduce = all[i].op == REF_ALL_REDUCE && bytes > 32768 && bytes < 100000;
    if (bytes > SMALL && !large_reduce) continue;
    p->cases[p->ncases++] = all[i];
    /* results are at most 8 (the group size) times an operand */
    if ((size_t)bytes * 8 > p->max_bytes) p->max_bytes = (size_t)bytes * 8;
  }
}

typedef struct GridRun {
  const Program *prog;
  uint32_t nr, np;
  int32_t status;
  int mismatches, done;
  char message[400];
} GridRun;

static void *run_grid(void *arg) {
  GridRun *r = arg;
  Proc procs[REF_MAXN];
  shlort_task tasks[REF_MAXN];
  shlort_grid *g = rt_grid(r->nr, r->np, 0, 7);
  if (!g) return NULL;
  uint32_t nprocs = r->nr * r->np;
  for (uint32_t i = 0; i < nprocs; i++) {
    procs[i] = (Proc){.prog = r->prog, .id = (int)i};
    for (uint32_t q = 0; q < nprocs; q++)
      for (int k = 0; k < 2; k++) procs[i].in[q][k] = malloc(r->prog->max_bytes);
    for (int k = 0; k < 2; k++) {
      procs[i].out[k] = malloc(r->prog->max_bytes);
      procs[i].want[k] = malloc(r->prog->max_bytes);
    }
    tasks[i] = (shlort_task){.entry = entry, .arg = &procs[i]};
  }
  r->status = shlort_grid_run(g, tasks);
  snprintf(r->message, sizeof r->message, "%s", shlort_grid_message(g));
  r->mismatches = r->done = 0;
  for (uint32_t i = 0; i < nprocs; i++) {
    r->mismatches += procs[i].mismatches;
    r->done += procs[i].done;
    for (uint32_t q = 0; q < nprocs; q++) free(procs[i].in[q][0]), free(procs[i].in[q][1]);
    for (int k = 0; k < 2; k++) free(procs[i].out[k]), free(procs[i].want[k]);
  }
  rt_grid_free(g);
  return NULL;
}

static void expect_run(const GridRun *r) {
  EXPECT_I64(r->status, SHLORT_OK);
  if (r->status) printf("  %s\n", r->message);
  EXPECT_I64(r->mismatches, 0);
  EXPECT_I64(r->done, (int64_t)r->prog->iterations * r->nr * r->np);
}

int main(void) {
  static Program eight, four;
  program(&eight, 4, 2, ITERATIONS);
  GridRun big = {&eight, 4, 2, -1, 0, 0, ""};
  run_grid(&big);
  expect_run(&big);

  program(&four, 2, 2, ITERATIONS / 10);
  GridRun a = {&eight, 4, 2, -1, 0, 0, ""}, b = {&four, 2, 2, -1, 0, 0, ""};
  eight.iterations = ITERATIONS / 10;
  pthread_t ta, tb;
  EXPECT(!pthread_create(&ta, NULL, run_grid, &a));
  EXPECT(!pthread_create(&tb, NULL, run_grid, &b));
  pthread_join(ta, NULL);
  pthread_join(tb, NULL);
  expect_run(&a);
  expect_run(&b);
  return unit_report();
}
