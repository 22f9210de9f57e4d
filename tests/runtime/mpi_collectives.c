/* mpi_collectives.c: libshlort_mpi.a under `mpirun -np 4` on loopback.
 * Every case of ref.h on the grids of four processes (4x1, 2x2, 1x4), one
 * process per rank, against the plain-C reference, bit for bit; each
 * rank prints the digest of its results, which tests/runtime/run.sh
 * compares with test_collectives.c's over threads. Then send/recv with
 * routes, and the failures MPI lets the runtime report: disagreeing
 * operands (verify), a recv that nothing sends (timeout), and a rank's
 * failure ending its peers' waits (abort notice). Rank 0 prints the
 * tally of all ranks. */
#include <mpi.h>

#include "ref.h"
#include "rt.h"
#include "shlort_mpi.h"

enum { MAXCASES = 4096 };

typedef struct Proc {
  const RefCase *c;
  int32_t split_count;
  shlort_tensor in[2], out[2];
} Proc;

static void region(void *ctx, void *acc, const void *x, int64_t n) {
  ref_region(*(const int32_t *)ctx)(NULL, acc, x, n);
}

static int32_t entry(void *arg, shlort_proc *proc) {
  Proc *p = arg;
  const RefCase *c = p->c;
  shlort_op op = {ref_op_names[c->op], "mpi.mlir:1:1"};
  shlort_groups g = {c->ids, c->rows, c->cols, c->channel_id, c->global};
  void *ctx = (void *)&c->elem;
  switch (c->op) {
  case REF_ALL_REDUCE: return shlort_all_reduce(proc, &op, &g, c->n, p->in, p->out, region, ctx);
  case REF_ALL_GATHER: return shlort_all_gather(proc, &op, &g, c->dim, c->n, p->in, p->out);
  case REF_REDUCE_SCATTER:
    return shlort_reduce_scatter(proc, &op, &g, c->dim, c->n, p->in, p->out, region, ctx);
  case REF_ALL_TO_ALL:
    return shlort_all_to_all(proc, &op, &g, c->dim, c->dim2, p->split_count, c->n, p->in, p->out);
  case REF_PERMUTE: return shlort_collective_permute(proc, &op, &g, p->in, p->out);
  case REF_BROADCAST: return shlort_collective_broadcast(proc, &op, &g, p->in, p->out);
  default: return shlort_collective_reduce(proc, &op, &g, c->n, p->in, p->out, region, ctx);
  }
}

static int rank;

static shlort_proc *make_proc(uint32_t nr, uint32_t np, int64_t timeout_ms,
                              const shlort_mpi_route *routes, int32_t nroutes, void **mem) {
  /* A small stage, so that reductions go in several chunks. */
  shlort_mpi_config cfg = {{nr, np, timeout_ms, 1, 0}, routes, nroutes, 0, 64 << 10, 1};
  size_t bytes = shlort_mpi_proc_bytes(&cfg);
  *mem = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
  shlort_proc *p = NULL;
  EXPECT_I64(shlort_mpi_proc_init(&p, *mem, bytes, MPI_COMM_WORLD, &cfg), SHLORT_OK);
  return p;
}

static void drop_proc(shlort_proc *p, void *mem) {
  EXPECT_I64(shlort_mpi_proc_destroy(p), SHLORT_OK);
  free(mem);
}

/* One case on this rank: every process's operands (for the reference),
 * this process's results. */
static int32_t run_case(shlort_proc *proc, const RefCase *c, int seed, uint64_t *digest) {
  enum { LARGEST = 7 * 11 * 263 * 16 }; /* bytes of the largest operand or result */
  static unsigned char in[REF_MAXN][2][LARGEST], out[2][LARGEST], want[2][LARGEST];
  void *ins[REF_MAXN][2], *wants[2] = {want[0], want[1]};
  int nprocs = (int)(c->nr * c->np), size = 0, index;
  for (int q = 0; q < nprocs; q++)
    for (int k = 0; k < c->n; k++) ins[q][k] = in[q][k], ref_input(c, seed, q, k, in[q][k]);
  RefGroups g;
  ref_groups(c, &g);
  ref_find(&g, rank, &size, &index);
  Proc p = {c, size, {{0}}, {{0}}};
  int64_t rdims[2][REF_RANK];
  for (int k = 0; k < c->n; k++) {
    ref_result_dims(c, k, size ? size : 1, rdims[k]);
    memset(out[k], 0xA5, sizeof out[k]);
    p.in[k] = (shlort_tensor){in[rank][k], c->dims[k], REF_RANK, c->elem};
    p.out[k] = (shlort_tensor){out[k], rdims[k], REF_RANK, c->elem};
  }
  shlort_task t = {.entry = entry, .arg = &p};
  int32_t rc = shlort_mpi_run(proc, &t);
  EXPECT_I64(rc, SHLORT_OK);
  if (rc) printf("  %s\n", shlort_proc_message(proc));
  ref_expect(c, ins, rank, wants);
  for (int k = 0; k < c->n && !rc; k++) {
    size_t bytes = (size_t)(ref_count(rdims[k]) * ref_esize(c->elem));
    *digest = ref_digest(*digest, out[k], bytes);
    int same = !memcmp(out[k], want[k], bytes);
    EXPECT(same);
    if (!same)
      printf("  %s on %ux%u (case %d) differs on rank %d\n", ref_op_names[c->op], c->nr, c->np,
             seed, rank);
  }
  return rc;
}

static void grid_cases(uint32_t nr, uint32_t np) {
  static RefCase cases[MAXCASES];
  int n = ref_make_cases(nr, np, cases, MAXCASES);
  void *mem;
  shlort_proc *proc = make_proc(nr, np, 20000, NULL, 0, &mem);
  uint64_t digest = REF_DIGEST_SEED;
  /* After a failure the communicators are unusable (shlort_mpi.h). */
  for (int i = 0; i < n && !run_case(proc, &cases[i], i, &digest); i++) continue;
  printf("digest %ux%u process %d %016llx\n", nr, np, rank, (unsigned long long)digest);
  drop_proc(proc, mem);
}

/* ---- send / recv ------------------------------------------------------------ */

static const int64_t d4[] = {4};
static const shlort_op send_op = {"stablehlo.send", "mpi.mlir:5:1"};
static const shlort_op recv_op = {"stablehlo.recv", "mpi.mlir:6:1"};

/* Ranks 0 -> 1 on channel 1 twice (in order), 2 -> 3 on channel 9. */
static int32_t channels(void *arg, shlort_proc *p) {
  int64_t *x = arg;
  shlort_tensor a = {x, d4, 1, SHLORT_SI64}, b = {x + 4, d4, 1, SHLORT_SI64};
  int32_t rc;
  switch (rank) {
  case 0:
    rc = shlort_send(p, &send_op, 1, 1, 1, &a);
    return rc ? rc : shlort_send(p, &send_op, 1, 1, 1, &b);
  case 1:
    rc = shlort_recv(p, &recv_op, 1, 1, 1, &a);
    return rc ? rc : shlort_recv(p, &recv_op, 1, 1, 1, &b);
  case 2: return shlort_send(p, &send_op, 9, 0, 2, (shlort_tensor[]){a, b});
  default: return shlort_recv(p, &recv_op, 9, 0, 2, (shlort_tensor[]){a, b});
  }
}

static const shlort_mpi_route routes[] = {{1, 0, 1}, {9, 2, 3}, {7, 1, 0}, {8, 2, 3}};

static void send_recv(void) {
  void *mem;
  shlort_proc *proc = make_proc(4, 1, 20000, routes, 4, &mem);
  int64_t x[8];
  for (int i = 0; i < 8; i++) x[i] = rank % 2 ? 0 : 100 * rank + i;
  shlort_task t = {.entry = channels, .arg = x};
  EXPECT_I64(shlort_mpi_run(proc, &t), SHLORT_OK);
  if (rank % 2)
    for (int i = 0; i < 8; i++) EXPECT_I64(x[i], 100 * (rank - 1) + i);
  drop_proc(proc, mem);
}

/* ---- Failures ------------------------------------------------------------- */

typedef enum Fault { SHAPES, NO_SEND, NOTICE } Fault;
static Fault fault;

static void add(void *ctx, void *acc, const void *x, int64_t n) {
  (void)ctx;
  for (int64_t i = 0; i < n; i++) ((float *)acc)[i] += ((const float *)x)[i];
}

static int32_t faulty(void *arg, shlort_proc *p) {
  (void)arg;
  static const shlort_op ar = {"stablehlo.all_reduce", "mpi.mlir:9:1"};
  static const int64_t d8[] = {8};
  float x[8] = {0}, y[8];
  int64_t z[4];
  shlort_tensor in = {x, rank == 1 ? d8 : d4, 1, SHLORT_F32}, out = {y, in.dims, 1, SHLORT_F32};
  shlort_tensor t = {z, d4, 1, SHLORT_SI64};
  shlort_groups all = {NULL, 0, 0, 0, 0};
  switch (fault) {
  case SHAPES: return shlort_all_reduce(p, &ar, &all, 1, &in, &out, add, NULL);
  case NO_SEND: return rank == 0 ? shlort_recv(p, &recv_op, 7, 0, 1, &t) : SHLORT_OK;
  default:
    /* Rank 2 fails at once (a send it has no route for); rank 3 waits for
     * its send and learns of the failure long before its timeout. */
    if (rank == 2) return shlort_send(p, &send_op, 5, 0, 1, &t);
    return rank == 3 ? shlort_recv(p, &recv_op, 8, 0, 1, &t) : SHLORT_OK;
  }
}

static void expect_fault(Fault f, int64_t timeout_ms, const int32_t *status,
                         const char *const *msg) {
  void *mem;
  shlort_proc *proc = make_proc(4, 1, timeout_ms, routes, 4, &mem);
  fault = f;
  shlort_task t = {.entry = faulty};
  double t0 = MPI_Wtime();
  int32_t rc = shlort_mpi_run(proc, &t);
  EXPECT_I64(rc, status[rank]);
  const char *got = shlort_proc_message(proc);
  if (msg[rank] && !strstr(got, msg[rank])) {
    EXPECT(!"message");
    printf("  rank %d: \"%s\" not in \"%s\"\n", rank, msg[rank], got);
  }
  if (f == NOTICE && rank == 3) EXPECT(MPI_Wtime() - t0 < 10); /* the timeout is 60 s */
  MPI_Barrier(MPI_COMM_WORLD);
  drop_proc(proc, mem);
}

static void faults(void) {
  static const int32_t mismatch[4] = {SHLORT_MISMATCH, SHLORT_MISMATCH, SHLORT_MISMATCH,
                                      SHLORT_MISMATCH};
  static const char *const other[4] = {
      "stablehlo.all_reduce at mpi.mlir:9:1 on process (0,0): process (1,0) is at another "
      "collective or has other operand types",
      NULL, NULL, NULL};
  expect_fault(SHAPES, 20000, mismatch, other);
  static const int32_t timeout[4] = {SHLORT_TIMEOUT, 0, 0, 0};
  static const char *const waiting[4] = {
      "stablehlo.recv at mpi.mlir:6:1 on process (0,0): timeout after 0.3 s waiting for the send "
      "on channel 7",
      NULL, NULL, NULL};
  expect_fault(NO_SEND, 300, timeout, waiting);
  static const int32_t notice[4] = {0, 0, SHLORT_INVALID, SHLORT_ABORTED};
  static const char *const told[4] = {
      NULL, NULL, "channel 5 has no route from this process",
      "stablehlo.recv at mpi.mlir:6:1 on process (3,0): aborted: process (2,0) failed"};
  expect_fault(NOTICE, 60000, notice, told);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  static const uint32_t grids[][2] = {{4, 1}, {2, 2}, {1, 4}};
  for (int i = 0; i < 3; i++) grid_cases(grids[i][0], grids[i][1]);
  send_recv();
  faults();
  int counts[2] = {passed, failed}, sums[2];
  MPI_Reduce(counts, sums, 2, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  if (rank) return 0;
  printf("%d passed, %d failed\n", sums[0], sums[1]);
  return sums[1] != 0;
}
