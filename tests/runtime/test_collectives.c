/* test_collectives.c: every collective over threads against the plain-C
 * reference of ref.h: grids 1x1, 2x1, 1x4, 2x2, 3x1, 4x1, 4x2; empty, paired,
 * reversed, flattened, singleton, ragged and partial replica_groups;
 * permutes with processes that no pair targets; variadic operands;
 * elements of 1, 2, 4, 8 and 16 bytes with order-sensitive regions; and
 * all_reduce both below and above the size where it switches to the
 * two-phase algorithm. Results must match the reference bit for bit.
 *
 * The region wrapper also checks the contract of shlort_combine_fn: it
 * runs on the calling process's thread with that process's ctx. Each
 * process's results are digested; mpi_collectives.c prints the same
 * digests for the 4-process grids under MPI (tests/runtime/run.sh
 * compares them). */
#include <pthread.h>

#include "ref.h"
#include "rt.h"

enum { MAXCASES = 4096 };

typedef struct Proc {
  const RefCase *c;
  int32_t split_count;
  shlort_tensor in[2], out[2];
  pthread_t self;
  int wrong_thread;
} Proc;

static void region(void *ctx, void *acc, const void *x, int64_t n) {
  Proc *p = ctx;
  if (!pthread_equal(p->self, pthread_self())) p->wrong_thread++;
  ref_region(p->c->elem)(NULL, acc, x, n);
}

static int32_t entry(void *arg, shlort_proc *proc) {
  Proc *p = arg;
  const RefCase *c = p->c;
  p->self = pthread_self();
  shlort_op op = {ref_op_names[c->op], "test.mlir:1:1"};
  shlort_groups g = {c->ids, c->rows, c->cols, c->channel_id, c->global};
  switch (c->op) {
  case REF_ALL_REDUCE: return shlort_all_reduce(proc, &op, &g, c->n, p->in, p->out, region, p);
  case REF_ALL_GATHER: return shlort_all_gather(proc, &op, &g, c->dim, c->n, p->in, p->out);
  case REF_REDUCE_SCATTER:
    return shlort_reduce_scatter(proc, &op, &g, c->dim, c->n, p->in, p->out, region, p);
  case REF_ALL_TO_ALL:
    return shlort_all_to_all(proc, &op, &g, c->dim, c->dim2, p->split_count, c->n, p->in, p->out);
  case REF_PERMUTE: return shlort_collective_permute(proc, &op, &g, p->in, p->out);
  case REF_BROADCAST: return shlort_collective_broadcast(proc, &op, &g, p->in, p->out);
  default: return shlort_collective_reduce(proc, &op, &g, c->n, p->in, p->out, region, p);
  }
}

/* Buffers of one run: operands and results of every process. */
typedef struct Run {
  Proc procs[REF_MAXN];
  shlort_task tasks[REF_MAXN];
  void *in[REF_MAXN][2], *out[REF_MAXN][2], *want[REF_MAXN][2];
  int64_t rdims[REF_MAXN][2][REF_RANK];
} Run;

static void setup(Run *r, const RefCase *c, int seed) {
  RefGroups groups;
  ref_groups(c, &groups);
  int nprocs = (int)(c->nr * c->np), es = ref_esize(c->elem);
  for (int id = 0; id < nprocs; id++) {
    int size = 0, index;
    ref_find(&groups, id, &size, &index);
    Proc *p = &r->procs[id];
    memset(p, 0, sizeof *p);
    p->c = c;
    p->split_count = size;
    for (int k = 0; k < c->n; k++) {
      ref_result_dims(c, k, size ? size : 1, r->rdims[id][k]);
      int64_t in_bytes = ref_count(c->dims[k]) * es, out_bytes = ref_count(r->rdims[id][k]) * es;
      r->in[id][k] = malloc((size_t)in_bytes);
      r->out[id][k] = malloc((size_t)out_bytes);
      r->want[id][k] = malloc((size_t)out_bytes);
      ref_input(c, seed, id, k, r->in[id][k]);
      memset(r->out[id][k], 0xA5, (size_t)out_bytes); /* not zero: zeros are a result */
      p->in[k] = (shlort_tensor){r->in[id][k], c->dims[k], REF_RANK, c->elem};
      p->out[k] = (shlort_tensor){r->out[id][k], r->rdims[id][k], REF_RANK, c->elem};
    }
    r->tasks[id] = (shlort_task){.entry = entry, .arg = p};
  }
}

static void release(Run *r, const RefCase *c) {
  for (uint32_t id = 0; id < c->nr * c->np; id++)
    for (int k = 0; k < c->n; k++) free(r->in[id][k]), free(r->out[id][k]), free(r->want[id][k]);
}

static void describe(const RefCase *c, int id) {
  printf("  case: %s on %ux%u, process %d, elem %d, groups %lldx%lld channel %lld global %d, "
         "n %d, dims %lldx%lldx%lld dim %lld/%lld\n",
         ref_op_names[c->op], c->nr, c->np, id, (int)c->elem, (long long)c->rows,
         (long long)c->cols, (long long)c->channel_id, (int)c->global, (int)c->n,
         (long long)c->dims[0][0], (long long)c->dims[0][1], (long long)c->dims[0][2],
         (long long)c->dim, (long long)c->dim2);
}

static uint64_t digests[REF_MAXN];

static void run_case(shlort_grid *g, const RefCase *c, int seed) {
  static Run r;
  setup(&r, c, seed);
  int32_t rc = shlort_grid_run(g, r.tasks);
  EXPECT_I64(rc, SHLORT_OK);
  if (rc) {
    printf("  %s\n", shlort_grid_message(g));
    describe(c, -1);
  }
  int nprocs = (int)(c->nr * c->np);
  for (int id = 0; id < nprocs && !rc; id++) {
    ref_expect(c, r.in, id, r.want[id]);
    for (int k = 0; k < c->n; k++) {
      size_t bytes = (size_t)(ref_count(r.rdims[id][k]) * ref_esize(c->elem));
      digests[id] = ref_digest(digests[id], r.out[id][k], bytes);
      int same = !memcmp(r.out[id][k], r.want[id][k], bytes);
      EXPECT(same);
      if (!same) describe(c, id);
    }
    EXPECT_I64(r.procs[id].wrong_thread, 0);
  }
  release(&r, c);
}

static void grid_cases(uint32_t nr, uint32_t np) {
  static RefCase cases[MAXCASES];
  int n = ref_make_cases(nr, np, cases, MAXCASES);
  shlort_grid *g = rt_grid(nr, np, 10000, 1);
  if (!g) return;
  for (uint32_t id = 0; id < nr * np; id++) digests[id] = REF_DIGEST_SEED;
  for (int i = 0; i < n; i++) run_case(g, &cases[i], i);
  for (uint32_t id = 0; id < nr * np; id++)
    printf("digest %ux%u process %u %016llx\n", nr, np, id, (unsigned long long)digests[id]);
  rt_grid_free(g);
}

int main(void) {
  static const uint32_t grids[][2] = {{1, 1}, {2, 1}, {1, 4}, {2, 2}, {3, 1}, {4, 1}, {4, 2}};
  for (size_t i = 0; i < sizeof grids / sizeof grids[0]; i++) grid_cases(grids[i][0], grids[i][1]);
  return unit_report();
}
