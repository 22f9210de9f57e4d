/* examples/data_parallel: one SGD step of a small MLP (sgd.mlir) whose
 * gradients are all-reduced over 4 replicas. Built twice from this file:
 * `app` runs the 4 processes as threads (libshlort.a, shlort_grid_run);
 * `app_mpi` (-DUSE_MPI) runs one process per MPI rank (libshlort_mpi.a,
 * mpirun -np 4). Both print the updated weights as hex floats (the Makefile
 * checks they are identical) and compare them with one full-batch step
 * computed here in plain C (equal within float tolerance: the batch sums
 * are associated differently). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sgd.h"
#ifdef USE_MPI
#include "shlort_mpi.h"
#else
#include "shlort.h"
#endif

enum { R = 4, B = 8, N = R * B, IN = 4, HID = 8 };

typedef struct Data {
  float x[N][IN], t[N], w1[IN][HID], w2[HID];
} Data;

/* A fixed batch and weights: a small linear congruential generator. */
static void make_data(Data *d) {
  uint32_t s = 12345;
  float *all[] = {&d->x[0][0], d->t, &d->w1[0][0], d->w2};
  int sizes[] = {N * IN, N, IN * HID, HID};
  for (int k = 0; k < 4; k++)
    for (int i = 0; i < sizes[k]; i++) {
      s = s * 1664525u + 1013904223u;
      all[k][i] = (float)((double)(s >> 8) / (1 << 24) - 0.5);
    }
}

/* One full-batch step in double: the reference. */
static void reference(const Data *d, double w1[IN][HID], double w2[HID]) {
  double g1[IN][HID] = {{0}}, g2[HID] = {0};
  for (int n = 0; n < N; n++) {
    double z[HID], h[HID], y = 0;
    for (int j = 0; j < HID; j++) {
      z[j] = 0;
      for (int i = 0; i < IN; i++) z[j] += (double)d->x[n][i] * d->w1[i][j];
      h[j] = z[j] > 0 ? z[j] : 0;
      y += h[j] * d->w2[j];
    }
    double dy = (y - d->t[n]) / N;
    for (int j = 0; j < HID; j++) {
      g2[j] += h[j] * dy;
      double dz = z[j] > 0 ? dy * d->w2[j] : 0;
      for (int i = 0; i < IN; i++) g1[i][j] += d->x[n][i] * dz;
    }
  }
  for (int i = 0; i < IN; i++)
    for (int j = 0; j < HID; j++) w1[i][j] = d->w1[i][j] - 0.1 * g1[i][j];
  for (int j = 0; j < HID; j++) w2[j] = d->w2[j] - 0.1 * g2[j];
}

/* The arguments of replica r: its 8 examples, the shared weights, its
 * results and temp. */
typedef struct Io {
  void *args[7];
  float w1[IN][HID], w2[HID];
} Io;

static void *temp_alloc(void) {
  size_t n = SGD_STEP_TEMP_BYTES > 64 ? (SGD_STEP_TEMP_BYTES + 63) / 64 * 64 : 64;
  return aligned_alloc(64, n);
}

static void setup(Io *io, Data *d, int r) {
  void *a[7] = {d->x[r * B], &d->t[r * B], d->w1, d->w2, io->w1, io->w2, temp_alloc()};
  memcpy(io->args, a, sizeof a);
}

/* Prints replica r's weights; 0 when they match the reference. */
static int report(const Io *io, const Data *d) {
  double w1[IN][HID], w2[HID], worst = 0;
  reference(d, w1, w2);
  printf("weights:");
  for (int i = 0; i < IN; i++)
    for (int j = 0; j < HID; j++) {
      printf(" %a", io->w1[i][j]);
      worst = fmax(worst, fabs(io->w1[i][j] - w1[i][j]));
    }
  for (int j = 0; j < HID; j++) {
    printf(" %a", io->w2[j]);
    worst = fmax(worst, fabs(io->w2[j] - w2[j]));
  }
  printf("\n");
  if (worst > 1e-5) {
    printf("differs from the full-batch reference by %g\n", worst);
    return 1;
  }
  printf("results match the reference (max difference %.2g)\n", worst);
  return 0;
}

#ifdef USE_MPI
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  static Data d;
  static Io io;
  make_data(&d);
  setup(&io, &d, rank);
  shlort_mpi_config cfg = {.grid = {R, 1, 30000, 1, 0}, .verify = 1};
  size_t bytes = shlort_mpi_proc_bytes(&cfg);
  void *mem = aligned_alloc(64, bytes);
  shlort_proc *proc;
  int rc = shlort_mpi_proc_init(&proc, mem, bytes, MPI_COMM_WORLD, &cfg);
  shlort_task task = {.entry = sgd_step__grid, .arg = io.args};
  if (!rc) rc = shlort_mpi_run(proc, &task);
  if (rc) {
    fprintf(stderr, "rank %d: %s\n", rank, shlort_proc_message(proc));
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  shlort_mpi_proc_destroy(proc);
  /* Every rank holds the same weights; rank 0 reports them. */
  if (rank == 0) rc = report(&io, &d);
  free(mem);
  free(io.args[6]);
  MPI_Finalize();
  return rc;
}
#else
int main(void) {
  static Data d;
  static Io io[R];
  make_data(&d);
  shlort_grid_config cfg = {.num_replicas = R, .num_partitions = 1, .rng_seed = 1};
  size_t bytes = shlort_grid_bytes(&cfg);
  void *mem = aligned_alloc(64, bytes);
  shlort_grid *grid;
  shlort_task tasks[R] = {{0}};
  for (int r = 0; r < R; r++) {
    setup(&io[r], &d, r);
    tasks[r] = (shlort_task){.entry = sgd_step__grid, .arg = io[r].args};
  }
  int rc = shlort_grid_init(&grid, mem, bytes, &cfg);
  if (!rc) rc = shlort_grid_run(grid, tasks);
  if (rc) {
    fprintf(stderr, "%s\n", shlort_grid_message(grid));
    return 1;
  }
  shlort_grid_destroy(grid);
  /* The all_reduce gives every replica bit-identical weights. */
  for (int r = 1; r < R; r++)
    if (memcmp(io[r].w1, io[0].w1, sizeof io[0].w1) || memcmp(io[r].w2, io[0].w2, sizeof io[0].w2)) {
      printf("replica %d's weights differ from replica 0's\n", r);
      return 1;
    }
  rc = report(&io[0], &d);
  for (int r = 0; r < R; r++) free(io[r].args[6]);
  free(mem);
  return rc;
}
#endif
