/* grid_threads.c: grid_run over threads of this process (libshlort.a's
 * shlort_grid_run), the transport of `shloc`. */
#include <stdlib.h>
#include <string.h>

#include "tools.h"

/* outfeed: the tool has no consumer; values are taken and dropped. */
static int32_t drop_outfeed(void *ctx, const shlort_proc *p, const char *config, int32_t n,
                            const shlort_tensor *inputs) {
  (void)ctx, (void)p, (void)config, (void)n, (void)inputs;
  return 0;
}

bool grid_reports(void) { return true; }

int32_t grid_run(const GridRun *g, char *msg, size_t size) {
  int nprocs = g->replicas * g->partitions;
  shlort_grid_config cfg = {.num_replicas = (uint32_t)g->replicas,
                            .num_partitions = (uint32_t)g->partitions,
                            .timeout_ms = g->timeout_ms, .rng_seed = 1};
  size_t bytes = shlort_grid_bytes(&cfg);
  if (!bytes) {
    snprintf(msg, size, "invalid grid %dx%d", g->replicas, g->partitions);
    return SHLORT_INVALID;
  }
  void *mem = aligned_alloc(64, bytes);
  shlort_task *tasks = calloc((size_t)nprocs, sizeof *tasks);
  if (!mem || !tasks) abort();
  static const shlort_hooks hooks = {.outfeed = drop_outfeed};
  for (int i = 0; i < nprocs; i++)
    tasks[i] = (shlort_task){.entry = grid_proc_call, .arg = &g->procs[i], .hooks = &hooks,
                             .infeed = g->infeed, .infeed_count = g->ninfeed};
  shlort_grid *grid;
  int32_t rc = shlort_grid_init(&grid, mem, bytes, &cfg);
  if (!rc) {
    rc = shlort_grid_run(grid, tasks);
    if (rc) snprintf(msg, size, "%s", shlort_grid_message(grid));
    shlort_grid_destroy(grid);
  } else {
    snprintf(msg, size, "cannot make a %dx%d grid", g->replicas, g->partitions);
  }
  free(tasks);
  free(mem);
  return rc;
}
