/* Runs the grid program of grid.mlir through its header over four threads
 * (libshlort.a) and checks each process's results against plain C: the
 * elementwise maximum over the replicas, the replica id, and the operand
 * of the previous replica on the ring. Then runs it on a 2x1 grid, which
 * the entry must refuse (it was compiled for 4x1). */
#include <stdio.h>
#include <stdlib.h>

#include "grid.h"
#include "shlort.h"

enum { N = 4 };

static int run_grid(uint32_t replicas, float x[N][3], float m[N][3], uint32_t id[N],
                    float p[N][3], void *temps[N], char *msg, size_t size) {
  shlort_grid_config cfg = {.num_replicas = replicas, .num_partitions = 1, .timeout_ms = 5000};
  size_t bytes = shlort_grid_bytes(&cfg);
  void *mem = aligned_alloc(64, bytes);
  void *args[N][5];
  shlort_task tasks[N] = {0};
  for (uint32_t r = 0; r < replicas; r++) {
    void *a[5] = {x[r], m[r], &id[r], p[r], temps[r]};
    for (int k = 0; k < 5; k++) args[r][k] = a[k];
    tasks[r].entry = grd_step__grid;
    tasks[r].arg = args[r];
  }
  shlort_grid *grid;
  int32_t rc = shlort_grid_init(&grid, mem, bytes, &cfg);
  if (!rc) rc = shlort_grid_run(grid, tasks);
  snprintf(msg, size, "%s", shlort_grid_message(grid));
  shlort_grid_destroy(grid);
  free(mem);
  return rc;
}

int main(void) {
  float x[N][3], m[N][3], p[N][3];
  uint32_t id[N];
  void *temps[N];
  char msg[512];
  for (int r = 0; r < N; r++) {
    temps[r] = aligned_alloc(64, GRD_STEP_TEMP_BYTES > 64 ? (GRD_STEP_TEMP_BYTES + 63) / 64 * 64 : 64);
    for (int i = 0; i < 3; i++) x[r][i] = (float)((r * 7 + i * 5) % 11) - 4.5f;
  }
  if (GRD_STEP_NUM_REPLICAS != 4 || GRD_STEP_NUM_PARTITIONS != 1) return 1;
  if (run_grid(N, x, m, id, p, temps, msg, sizeof msg)) {
    fprintf(stderr, "grid failed: %s\n", msg);
    return 1;
  }
  for (int r = 0; r < N; r++) {
    if (id[r] != (uint32_t)r) return 2;
    for (int i = 0; i < 3; i++) {
      float want = x[0][i];
      for (int k = 1; k < N; k++) want = x[k][i] > want ? x[k][i] : want;
      if (m[r][i] != want || p[r][i] != x[(r + N - 1) % N][i]) return 3;
    }
  }
  if (run_grid(2, x, m, id, p, temps, msg, sizeof msg) != SHLORT_INVALID) return 4;
  printf("%s\n", msg);
  for (int r = 0; r < N; r++) free(temps[r]);
  return 0;
}
