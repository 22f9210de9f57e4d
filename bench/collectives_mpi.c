/* collectives_mpi.c: all_reduce over MPI (libshlort_mpi.a) beside Open
 * MPI's own MPI_Allreduce (MPI_SUM over MPI_FLOAT) on the same buffers,
 * with the same warm-up, sample count and repetitions, for 4 KiB to 64
 * MiB and 4 bytes. Run under mpirun (bench/run.sh uses -np 4 on
 * loopback). Rank 0 prints `name value unit` lines: both times and their
 * ratio (shlort / MPI: 1 is parity). verify is off, as in production:
 * MPI_Allreduce checks nothing either. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "shlort_mpi.h"

enum { SAMPLES = 7, WARMUP = 2 };

static int repetitions(size_t bytes) {
  size_t r = ((size_t)64 << 20) / (bytes ? bytes : 1);
  return r < 3 ? 3 : r > 5000 ? 5000 : (int)r;
}

static void add_f32(void *ctx, void *acc, const void *x, int64_t n) {
  (void)ctx;
  float *a = acc;
  const float *b = x;
  for (int64_t i = 0; i < n; i++) a[i] += b[i];
}

typedef struct Bench {
  float *in, *out;
  int64_t n;
  int reps;
  int raw; /* 1: MPI_Allreduce, 0: shlort_all_reduce */
  double seconds;
} Bench;

static int32_t entry(void *arg, shlort_proc *p) {
  static const shlort_op op = {"stablehlo.all_reduce", "bench"};
  static const shlort_groups all = {NULL, 0, 0, 0, 0};
  Bench *b = arg;
  int64_t dims[1] = {b->n};
  shlort_tensor in = {b->in, dims, 1, SHLORT_F32}, out = {b->out, dims, 1, SHLORT_F32};
  int32_t rc = SHLORT_OK;
  for (int r = 0; r < WARMUP + b->reps && !rc; r++) {
    if (r == WARMUP) {
      MPI_Barrier(MPI_COMM_WORLD);
      b->seconds = MPI_Wtime();
    }
    if (b->raw) rc = MPI_Allreduce(b->in, b->out, (int)b->n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    else rc = shlort_all_reduce(p, &op, &all, 1, &in, &out, add_f32, NULL);
  }
  b->seconds = (MPI_Wtime() - b->seconds) / b->reps;
  return rc;
}

/* Best time per all_reduce over the samples, the slowest rank's. */
static double best(shlort_proc *p, Bench *b) {
  double t = 1e30;
  for (int s = 0; s < SAMPLES; s++) {
    shlort_task task = {.entry = entry, .arg = b};
    if (shlort_mpi_run(p, &task)) {
      fprintf(stderr, "%s\n", shlort_proc_message(p));
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    double slowest;
    MPI_Allreduce(&b->seconds, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (slowest < t) t = slowest;
  }
  return t;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  shlort_mpi_config cfg = {{(uint32_t)size, 1, 0, 0, 0}, NULL, 0, 0, 0, 0};
  size_t bytes = shlort_mpi_proc_bytes(&cfg);
  void *mem = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
  shlort_proc *p;
  if (shlort_mpi_proc_init(&p, mem, bytes, MPI_COMM_WORLD, &cfg)) MPI_Abort(MPI_COMM_WORLD, 1);
  const int64_t max_n = (64 << 20) / 4;
  float *in = aligned_alloc(64, (size_t)max_n * 4), *out = aligned_alloc(64, (size_t)max_n * 4);
  for (int64_t i = 0; i < max_n; i++) in[i] = (float)(i % 1000) * 0.001f, out[i] = 0;
  if (!rank)
    printf("# all_reduce (f32 sum) over %d MPI ranks: shlort vs MPI_Allreduce, best of %d\n", size,
           SAMPLES);
  for (int64_t n = 1; n <= max_n; n = n == 1 ? 1024 : n * 4) {
    Bench b = {in, out, n, repetitions((size_t)n * 4), 0, 0};
    double ts = best(p, &b);
    b.raw = 1;
    double tm = best(p, &b);
    if (!rank)
      printf("all_reduce_mpi_%lldB shlort %.1f us MPI_Allreduce %.1f us ratio %.2f\n",
             (long long)n * 4, ts * 1e6, tm * 1e6, ts / tm);
  }
  shlort_mpi_proc_destroy(p);
  MPI_Finalize();
  return 0;
}
