/* reentrant.c: 8 threads call one compiled model at the same time, each
 * with its own temp and result buffers, and every result must be
 * bit-identical to a serial call's.
 *
 * The model (reentrant.mlir) is compiled twice: `ser` without threads and
 * `par` with --threads=2, so that the 8 callers contend for the runtime's
 * team of threads in shlort_parallel_for (one holds it, the others run
 * their loops serially, each loop deciding anew). Run under TSan
 * (make TSAN=1 test) the driver's and runtime's accesses are checked; the
 * generated code is not instrumented, which is what the bit-identical
 * comparison is for: a shared mutable global or a result written through
 * another caller's temp would show as a mismatch.
 * Prints `N passed, N failed`.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "par.h"
#include "ser.h"

enum { THREADS = 8, CALLS = 10, M = 128, K = 256 };

typedef int (*Entry)(const float *x, const float *w, float *sums, float *max, int32_t *steps,
                     void *temp);

typedef struct Model {
  const char *name;
  Entry fn;
  size_t temp_bytes;
} Model;

typedef struct Out {
  float sums[M];
  float max;
  int32_t steps;
} Out;

typedef struct Worker {
  const Model *model;
  const Out *want;
  int mismatches, errors;
} Worker;

static float x[M * K], w[K * K];

static int call(const Model *m, Out *o, void *temp) {
  memset(o, 0xA5, sizeof *o); /* a stale result cannot pass for a new one */
  return m->fn(x, w, o->sums, &o->max, &o->steps, temp);
}

static void *worker(void *arg) {
  Worker *wk = arg;
  void *temp = aligned_alloc(64, wk->model->temp_bytes + 64);
  if (!temp) {
    wk->errors++;
    return NULL;
  }
  for (int i = 0; i < CALLS; i++) {
    Out o;
    if (call(wk->model, &o, temp)) wk->errors++;
    else if (memcmp(&o, wk->want, sizeof o)) wk->mismatches++;
  }
  free(temp);
  return NULL;
}

/* One model: a serial reference call, then THREADS concurrent callers. */
static int check_model(const Model *m) {
  Out want;
  void *temp = aligned_alloc(64, m->temp_bytes + 64);
  if (!temp || call(m, &want, temp)) {
    printf("FAIL %s: the serial call failed\n", m->name);
    free(temp);
    return 0;
  }
  free(temp);
  /* tanh keeps every element in (-1, 1); three loop steps. */
  if (want.steps != 3 || !(want.max > 0 && want.max < 1)) {
    printf("FAIL %s: implausible serial result (steps %d, max %g)\n", m->name, want.steps,
           want.max);
    return 0;
  }
  pthread_t tid[THREADS];
  Worker wk[THREADS];
  for (int t = 0; t < THREADS; t++) {
    wk[t] = (Worker){m, &want, 0, 0};
    if (pthread_create(&tid[t], NULL, worker, &wk[t])) {
      printf("FAIL %s: pthread_create\n", m->name);
      return 0;
    }
  }
  int mismatches = 0, errors = 0;
  for (int t = 0; t < THREADS; t++) {
    pthread_join(tid[t], NULL);
    mismatches += wk[t].mismatches;
    errors += wk[t].errors;
  }
  if (mismatches || errors) {
    printf("FAIL %s: %d of %d concurrent calls differ from the serial one, %d failed\n",
           m->name, mismatches, THREADS * CALLS, errors);
    return 0;
  }
  printf("PASS %s: %d threads x %d calls bit-identical to the serial call\n", m->name,
         THREADS, CALLS);
  return 1;
}

static float rnd(unsigned *s) {
  *s = *s * 1664525u + 1013904223u;
  return (float)(*s >> 8) / 16777216.0f - 0.5f;
}

int main(void) {
  unsigned s = 7;
  for (int i = 0; i < M * K; i++) x[i] = rnd(&s);
  for (int i = 0; i < K * K; i++) w[i] = rnd(&s) / 8;
  const Model models[] = {{"serial model", ser_main, SER_MAIN_TEMP_BYTES},
                          {"model compiled with --threads=2", par_main, PAR_MAIN_TEMP_BYTES}};
  int passed = 0, n = (int)(sizeof models / sizeof *models);
  for (int i = 0; i < n; i++) passed += check_model(&models[i]);
  printf("%d passed, %d failed\n", passed, n - passed);
  return passed != n;
}
