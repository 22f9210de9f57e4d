/* grid_mpi.c: grid_run over MPI (libshlort_mpi.a's shlort_mpi_run), the
 * transport of build/shloc-mpi: started by `shloc check --mpi` under
 * `mpirun -np R*P`, each rank compiles the case and runs its own process
 * of the grid; then every process's results are broadcast to every rank,
 * so that the checks after interpreter.run_parallel see them all.
 *
 * MPI is initialized at the first use and finalized at exit. After a
 * failed grid the job ends with MPI_Abort at exit: a non-blocking
 * collective of the runtime cannot be cancelled (docs/runtime.md). */
#include <stdlib.h>
#include <string.h>

#include "../runtime/shlort_mpi.h"
#include "tools.h"

/* Whether a grid of this process failed (MPI_Abort at exit). Process
 * state of the shloc-mpi binary, which runs one case per process. */
static bool any_failed;

static void end_mpi(void) {
  fflush(NULL);
  if (any_failed) MPI_Abort(MPI_COMM_WORLD, 1);
  MPI_Finalize();
}

static int rank_of(void) {
  int init = 0, rank = 0, provided;
  MPI_Initialized(&init);
  if (!init) {
    MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided);
    atexit(end_mpi);
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

bool grid_reports(void) { return rank_of() == 0; }

static int32_t drop_outfeed(void *ctx, const shlort_proc *p, const char *config, int32_t n,
                            const shlort_tensor *inputs) {
  (void)ctx, (void)p, (void)config, (void)n, (void)inputs;
  return 0;
}

/* Routes with both ends (a channel used by one side only times out). */
static shlort_mpi_route *mpi_routes(const GridRun *g, int32_t *n) {
  shlort_mpi_route *r = calloc((size_t)g->nroutes + 1, sizeof *r);
  if (!r) abort();
  *n = 0;
  for (int32_t i = 0; i < g->nroutes; i++)
    if (g->routes[i].sender >= 0 && g->routes[i].receiver >= 0)
      r[(*n)++] = (shlort_mpi_route){g->routes[i].channel_id, g->routes[i].sender,
                                     g->routes[i].receiver};
  return r;
}

static int32_t run_rank(const GridRun *g, int rank, char *msg, size_t size) {
  int32_t nroutes;
  shlort_mpi_route *routes = mpi_routes(g, &nroutes);
  shlort_mpi_config cfg = {.grid = {(uint32_t)g->replicas, (uint32_t)g->partitions,
                                    g->timeout_ms, 1, 0},
                           .routes = routes, .route_count = nroutes, .verify = 1};
  size_t bytes = shlort_mpi_proc_bytes(&cfg);
  void *mem = bytes ? aligned_alloc(64, bytes) : NULL;
  shlort_proc *proc;
  int32_t rc = mem ? shlort_mpi_proc_init(&proc, mem, bytes, MPI_COMM_WORLD, &cfg) : SHLORT_INVALID;
  if (rc) {
    snprintf(msg, size, "cannot make the rank's process context (status %d)", (int)rc);
  } else {
    static const shlort_hooks hooks = {.outfeed = drop_outfeed};
    shlort_task task = {.entry = grid_proc_call, .arg = &g->procs[rank], .hooks = &hooks,
                        .infeed = g->infeed, .infeed_count = g->ninfeed};
    rc = shlort_mpi_run(proc, &task);
    if (rc) snprintf(msg, size, "%s", shlort_proc_message(proc));
    shlort_mpi_proc_destroy(proc);
  }
  free(mem);
  free(routes);
  return rc;
}

/* Every rank learns the outcome; the message of the lowest rank that
 * failed other than by SHLORT_ABORTED (another's failure) is the grid's. */
static int32_t agree(int32_t rc, int rank, int nranks, char *msg, size_t size) {
  int mine = rc && rc != SHLORT_ABORTED ? rank : rc ? nranks + rank : 2 * nranks, first;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first == 2 * nranks) return SHLORT_OK;
  int root = first % nranks, status = rc;
  char buf[1024];
  snprintf(buf, sizeof buf, "%s", msg);
  MPI_Bcast(buf, sizeof buf, MPI_CHAR, root, MPI_COMM_WORLD);
  MPI_Bcast(&status, 1, MPI_INT, root, MPI_COMM_WORLD);
  snprintf(msg, size, "%s", buf);
  any_failed = true;
  return status;
}

int32_t grid_run(const GridRun *g, char *msg, size_t size) {
  int rank = rank_of(), nranks;
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  if (nranks != g->replicas * g->partitions) {
    snprintf(msg, size, "the grid has %d processes, mpirun started %d ranks",
             g->replicas * g->partitions, nranks);
    any_failed = true;
    return SHLORT_INVALID;
  }
  msg[0] = 0;
  int32_t rc = agree(run_rank(g, rank, msg, size), rank, nranks, msg, size);
  if (rc) return rc;
  for (int q = 0; q < nranks; q++) {
    const GridProc *gp = &g->procs[q];
    for (int k = 0; k < gp->nresults; k++) {
      int64_t bytes = type_byte_size(gp->f->result_types[k]);
      if (bytes > 0) MPI_Bcast(gp->frame[gp->nargs + k], (int)bytes, MPI_BYTE, q, MPI_COMM_WORLD);
    }
  }
  return SHLORT_OK;
}
