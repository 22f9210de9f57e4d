/* test_rng.c: the rng op (spec "rng") through shlort_rng. UNIFORM values
 * lie in [a, b) for every element type, hit both ends of small integer
 * ranges with the frequencies of a uniform law, and have its mean; NORMAL
 * values have the requested mean and standard deviation. Tolerances are
 * five standard errors of the statistic. The state model: the same seed
 * gives the same numbers, processes get different streams, successive
 * calls and runs continue the stream. */
#include <math.h>

#include "rt.h"

enum { N = 100000 };

typedef struct Call {
  int32_t dist, elem;
  const void *a, *b;
  void *out;
  int64_t n;
  int32_t status;
} Call;

static const shlort_op rng_op = {"stablehlo.rng", "rng.mlir:2:3"};

/* Each process makes its calls in order; proc p uses calls[p]. */
typedef struct Script {
  Call *calls;
  int ncalls;
} Script;

static int32_t entry(void *arg, shlort_proc *p) {
  Script *s = arg;
  for (int i = 0; i < s->ncalls; i++) {
    Call *c = &s->calls[i];
    int64_t dims[1] = {c->n};
    shlort_tensor t = {c->out, dims, 1, c->elem};
    c->status = shlort_rng(p, &rng_op, c->dist, c->a, c->b, &t);
  }
  return SHLORT_OK;
}

static int32_t run_calls(Call *calls, int n, uint64_t seed) {
  shlort_grid *g = rt_grid(1, 1, 0, seed);
  Script s = {calls, n};
  shlort_task t = {.entry = entry, .arg = &s};
  int32_t rc = shlort_grid_run(g, &t);
  rt_grid_free(g);
  return rc;
}

static void run1(Call *calls, int n, uint64_t seed) {
  EXPECT_I64(run_calls(calls, n, seed), SHLORT_OK);
}

static void uniform_f32(void) {
  static float out[N];
  float a = -2.5f, b = 4.0f;
  Call c = {SHLORT_RNG_UNIFORM, SHLORT_F32, &a, &b, out, N, -1};
  run1(&c, 1, 1);
  EXPECT_I64(c.status, SHLORT_OK);
  double sum = 0;
  int in_range = 1;
  for (int i = 0; i < N; i++) {
    in_range &= out[i] >= a && out[i] < b;
    sum += out[i];
  }
  EXPECT(in_range);
  double se = (b - a) / sqrt(12.0 * N);
  EXPECT(fabs(sum / N - (a + b) / 2) < 5 * se);
}

/* Every value of [a, b) about N / (b - a) times: |count - e| < 5 sqrt(e). */
static void uniform_small_ints(void) {
  static int32_t out[N];
  int32_t a = -3, b = 4;
  Call c = {SHLORT_RNG_UNIFORM, SHLORT_SI32, &a, &b, out, N, -1};
  run1(&c, 1, 2);
  EXPECT_I64(c.status, SHLORT_OK);
  int count[7] = {0}, outside = 0;
  for (int i = 0; i < N; i++) {
    if (out[i] < a || out[i] >= b) outside++;
    else count[out[i] - a]++;
  }
  EXPECT_I64(outside, 0);
  double e = (double)N / 7;
  for (int v = 0; v < 7; v++) EXPECT(fabs(count[v] - e) < 5 * sqrt(e));
}

/* Widths 1 to 64 bits, signed and unsigned; i1 over [0, 1) is always 0. */
static void uniform_widths(void) {
  static unsigned char out[8 * 1000];
  uint8_t a8 = 250, b8 = 255;
  Call c = {SHLORT_RNG_UNIFORM, SHLORT_UI8, &a8, &b8, out, 1000, -1};
  run1(&c, 1, 3);
  int ok = 1, seen[5] = {0};
  for (int i = 0; i < 1000; i++) {
    ok &= out[i] >= 250 && out[i] < 255;
    if (out[i] >= 250 && out[i] < 255) seen[out[i] - 250] = 1;
  }
  EXPECT(ok && seen[0] && seen[4]);
  int64_t a64 = INT64_MIN, b64 = INT64_MAX;
  c = (Call){SHLORT_RNG_UNIFORM, SHLORT_SI64, &a64, &b64, out, 1000, -1};
  run1(&c, 1, 4);
  int64_t v[1000];
  memcpy(v, out, sizeof v);
  int negative = 0, below_max = 1;
  for (int i = 0; i < 1000; i++) negative += v[i] < 0, below_max &= v[i] < INT64_MAX;
  EXPECT(below_max && negative > 400 && negative < 600);
  int8_t a4 = -8, b4 = 7; /* si4, one byte each, sign-extended */
  c = (Call){SHLORT_RNG_UNIFORM, SHLORT_SI4, &a4, &b4, out, 1000, -1};
  run1(&c, 1, 5);
  ok = 1;
  for (int i = 0; i < 1000; i++) ok &= (int8_t)out[i] >= -8 && (int8_t)out[i] < 7;
  EXPECT(ok);
  uint8_t f = 0, t = 1;
  memset(out, 7, 100);
  c = (Call){SHLORT_RNG_UNIFORM, SHLORT_I1, &f, &t, out, 100, -1};
  run1(&c, 1, 6);
  ok = 1;
  for (int i = 0; i < 100; i++) ok &= out[i] == 0;
  EXPECT(ok);
}

/* f16, bf16, f8E4M3FN: in range after rounding; [1, next after 1) holds
 * only 1. */
static void uniform_narrow_floats(void) {
  static uint16_t out[1000];
  uint16_t a16 = 0x3C00 /* 1.0 */, b16 = 0x4000 /* 2.0 */;
  Call c = {SHLORT_RNG_UNIFORM, SHLORT_F16, &a16, &b16, out, 1000, -1};
  run1(&c, 1, 7);
  int ok = 1;
  for (int i = 0; i < 1000; i++) ok &= out[i] >= 0x3C00 && out[i] < 0x4000;
  EXPECT(ok);
  uint16_t next = 0x3C01;
  c = (Call){SHLORT_RNG_UNIFORM, SHLORT_F16, &a16, &next, out, 1000, -1};
  run1(&c, 1, 8);
  ok = 1;
  for (int i = 0; i < 1000; i++) ok &= out[i] == 0x3C00;
  EXPECT(ok);
  uint16_t abf = 0xBF80 /* -1 */, bbf = 0x3F80 /* 1 */;
  c = (Call){SHLORT_RNG_UNIFORM, SHLORT_BF16, &abf, &bbf, out, 1000, -1};
  run1(&c, 1, 9);
  ok = 1;
  for (int i = 0; i < 1000; i++) {
    float x = shlort_bf16_to_f32(out[i]);
    ok &= x >= -1 && x < 1;
  }
  EXPECT(ok);
  uint8_t a8 = 0x38 /* 1.0 */, b8 = 0x40 /* 2.0 */, o8[1000];
  c = (Call){SHLORT_RNG_UNIFORM, SHLORT_F8E4M3FN, &a8, &b8, o8, 1000, -1};
  run1(&c, 1, 10);
  ok = 1;
  for (int i = 0; i < 1000; i++) ok &= o8[i] >= 0x38 && o8[i] < 0x40;
  EXPECT(ok);
}

static void normal(void) {
  static double out[N];
  double mean = 2, sd = 3;
  Call c = {SHLORT_RNG_NORMAL, SHLORT_F64, &mean, &sd, out, N, -1};
  run1(&c, 1, 11);
  EXPECT_I64(c.status, SHLORT_OK);
  double s = 0, s2 = 0;
  for (int i = 0; i < N; i++) s += out[i], s2 += out[i] * out[i];
  double m = s / N, var = s2 / N - m * m;
  EXPECT(fabs(m - mean) < 5 * sd / sqrt(N));
  /* The sample variance's standard error is about var * sqrt(2 / N). */
  EXPECT(fabs(var - sd * sd) < 5 * sd * sd * sqrt(2.0 / N));
  static float f[N];
  float fm = -1, fsd = 0.5f;
  c = (Call){SHLORT_RNG_NORMAL, SHLORT_F32, &fm, &fsd, f, N, -1};
  run1(&c, 1, 12);
  s = 0;
  for (int i = 0; i < N; i++) s += f[i];
  EXPECT(fabs(s / N - fm) < 5 * fsd / sqrt(N));
}

static void invalid(void) {
  int32_t i3 = 3, i1 = 1, out[4];
  float fa = 1, fb = -1, fo[4];
  Call calls[] = {
      {SHLORT_RNG_UNIFORM, SHLORT_SI32, &i3, &i1, out, 4, -1}, /* a >= b */
      {SHLORT_RNG_NORMAL, SHLORT_SI32, &i1, &i3, out, 4, -1},  /* NORMAL on integers (C2) */
      {SHLORT_RNG_NORMAL, SHLORT_F32, &fa, &fb, fo, 4, -1},    /* b < 0 */
      {SHLORT_RNG_UNIFORM, SHLORT_C64, &fa, &fb, fo, 2, -1},   /* complex */
      {7, SHLORT_F32, &fb, &fa, fo, 4, -1},                    /* unknown distribution */
  };
  for (int i = 0; i < 5; i++) {
    EXPECT_I64(run_calls(&calls[i], 1, 13), SHLORT_INVALID);
    EXPECT_I64(calls[i].status, SHLORT_INVALID);
  }
}

/* Draws `calls` times 64 u32 per process of a 2 x 1 grid: out[p][k]. */
static void draw(shlort_grid *g, int calls, uint32_t out[2][2][64]) {
  static const uint32_t a = 0, b = 0xFFFFFFFFu;
  Call c[2][2];
  Script scripts[2];
  shlort_task t[2];
  for (int p = 0; p < 2; p++) {
    for (int k = 0; k < calls; k++)
      c[p][k] = (Call){SHLORT_RNG_UNIFORM, SHLORT_UI32, &a, &b, out[p][k], 64, -1};
    scripts[p] = (Script){c[p], calls};
    t[p] = (shlort_task){.entry = entry, .arg = &scripts[p]};
  }
  EXPECT_I64(shlort_grid_run(g, t), SHLORT_OK);
}

static void streams(void) {
  static uint32_t x[2][2][64], more[2][2][64], y[2][2][64];
  shlort_grid *g = rt_grid(2, 1, 0, 42), *h = rt_grid(2, 1, 0, 42);
  draw(g, 2, x);    /* run 1 of g: two calls */
  draw(g, 1, more); /* run 2 of g: the stream goes on */
  draw(h, 2, y);    /* another grid, the same seed */
  for (int p = 0; p < 2; p++) {
    EXPECT(!memcmp(x[p], y[p], sizeof x[p]));
    EXPECT(memcmp(x[p][0], x[p][1], sizeof x[p][0]));
    EXPECT(memcmp(more[p][0], x[p][0], sizeof x[p][0]));
    EXPECT(memcmp(more[p][0], x[p][1], sizeof x[p][0]));
  }
  EXPECT(memcmp(x[0][0], x[1][0], sizeof x[0][0]));
  rt_grid_free(g);
  rt_grid_free(h);
}

int main(void) {
  uniform_f32();
  uniform_small_ints();
  uniform_widths();
  uniform_narrow_floats();
  normal();
  invalid();
  streams();
  return unit_report();
}
