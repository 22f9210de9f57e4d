/* indices.c: adversarial dynamic indices against the compiled indices.mlir.
 *
 * Every input and result buffer sits against a PROT_NONE page, once with
 * its last byte just before the page and once with its first byte just
 * after one, so an access of the generated code one element outside a
 * buffer faults (the generated object is not instrumented by ASan; this
 * driver is). The results must equal a plain C reading of the spec:
 *   dynamic_slice, dynamic_update_slice: each start index clamped to
 *     [0, dim - size] (spec: "adjusted_start_indices = clamp(0,
 *     start_indices, shape(operand) - slice_sizes)"), unsigned indices
 *     compared as unsigned;
 *   gather: full_start_index clamped to [0, dim - slice_size] (spec:
 *     gather, "full_start_index[d_operand] = clamp(...)");
 *   scatter: an update element whose result_index is out of bounds is
 *     skipped, the rest of its window applies (spec: scatter, "If
 *     result_index is in bounds ... Otherwise updated_results = results");
 *   real_dynamic_slice with a start read from data (static and symbolic
 *     entries): the start clamped to [0, dim - span], span the elements
 *     the strided result covers (as dynamic_slice clamps;
 *     codegen/dyndims.c gen_real_dynamic_slice).
 * Prints `N passed, N failed` (one check per call and buffer placement).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guarded.h"
#include "idx.h"
#include "idxs.h"

enum { R = 7, C = 5, SR = 3, SC = 2, NB = 4, GR = 2, GC = 3 };
/* @rds: start + [SPAN_R, SC] at strides [STRIDE_R, 1] gives SR x SC */
enum { STRIDE_R = 2, SPAN_R = (SR - 1) * STRIDE_R + 1 };

static const int64_t V64[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 100, -1, -2, -3, -100,
                              INT32_MAX, INT32_MIN, (int64_t)1 << 40, -((int64_t)1 << 40),
                              INT64_MAX, INT64_MAX - 1, INT64_MIN, INT64_MIN + 1};
static const uint64_t VU64[] = {0, 1, 3, 4, 5, 6, 100, (uint64_t)INT64_MAX,
                                (uint64_t)INT64_MAX + 1, UINT64_MAX - 1, UINT64_MAX};
static const int32_t V32[] = {0, 1, 3, 4, 5, 6, -1, -5, INT32_MAX, INT32_MIN, INT32_MIN + 1};
#define COUNT(a) (int)(sizeof(a) / sizeof *(a))

static int passed, failed;

static void expect(const char *what, const float *got, const float *want, int n,
                   long long a, long long b) {
  if (!memcmp(got, want, sizeof(float) * (size_t)n)) {
    passed++;
    return;
  }
  if (++failed <= 10)
    for (int k = 0; k < n; k++)
      if (got[k] != want[k]) {
        printf("FAIL %s(%lld, %lld): element %d is %g, want %g\n", what, a, b, k, got[k], want[k]);
        break;
      }
}

static float operand[R][C];

static int64_t clamp_s(int64_t v, int64_t hi) { return v < 0 ? 0 : v > hi ? hi : v; }
static uint64_t clamp_u(uint64_t v, uint64_t hi) { return v > hi ? hi : v; }

static void slice_ref(int64_t i, int64_t j, float out[SR][SC]) {
  for (int r = 0; r < SR; r++)
    for (int c = 0; c < SC; c++) out[r][c] = operand[i + r][j + c];
}

/* The six guarded buffers of one call; the temp is 64-byte aligned (its
 * size is a multiple of 64, so it is at either placement). */
typedef struct Call {
  Guarded g[6];
  int n;
} Call;

static void *in(Call *c, const void *src, size_t n, int at_end) {
  return guard_copy(&c->g[c->n++], src, n, at_end);
}

static void done(Call *c) {
  while (c->n) guard_free(&c->g[--c->n]);
}

static void test_slices(int at_end) {
  for (int a = 0; a < COUNT(V64); a++)
    for (int b = 0; b < COUNT(V64); b++) {
      float want[SR][SC];
      slice_ref(clamp_s(V64[a], R - SR), clamp_s(V64[b], C - SC), want);
      Call c = {0};
      float *out = in(&c, NULL, sizeof want, at_end);
      int rc = idx_dslice(in(&c, operand, sizeof operand, at_end), in(&c, &V64[a], 8, at_end),
                          in(&c, &V64[b], 8, at_end), out, in(&c, NULL, 64, at_end));
      expect(rc ? "dslice (status)" : "dslice", out, &want[0][0], SR * SC, (long long)V64[a],
             (long long)V64[b]);
      done(&c);
    }
  for (int a = 0; a < COUNT(VU64); a++)
    for (int b = 0; b < COUNT(VU64); b++) {
      float want[SR][SC];
      slice_ref((int64_t)clamp_u(VU64[a], R - SR), (int64_t)clamp_u(VU64[b], C - SC), want);
      Call c = {0};
      float *out = in(&c, NULL, sizeof want, at_end);
      idx_dslice_u64(in(&c, operand, sizeof operand, at_end), in(&c, &VU64[a], 8, at_end),
                     in(&c, &VU64[b], 8, at_end), out, in(&c, NULL, 64, at_end));
      expect("dslice_u64", out, &want[0][0], SR * SC, (long long)VU64[a], (long long)VU64[b]);
      done(&c);
    }
  for (int a = 0; a < COUNT(V32); a++)
    for (int b = 0; b < COUNT(V32); b++) {
      float want[SR][SC];
      slice_ref(clamp_s(V32[a], R - SR), clamp_s(V32[b], C - SC), want);
      Call c = {0};
      float *out = in(&c, NULL, sizeof want, at_end);
      idx_dslice_i32(in(&c, operand, sizeof operand, at_end), in(&c, &V32[a], 4, at_end),
                     in(&c, &V32[b], 4, at_end), out, in(&c, NULL, 64, at_end));
      expect("dslice_i32", out, &want[0][0], SR * SC, V32[a], V32[b]);
      done(&c);
    }
}

/* @rds of idx (static) and of idxs (symbolic, 7 rows) at start (i, j). */
static void test_rds_at(int at_end, int64_t i, int64_t j) {
  float want[SR][SC];
  int64_t r0 = clamp_s(i, R - SPAN_R), c0 = clamp_s(j, C - SC), s[2] = {i, j};
  for (int r = 0; r < SR; r++)
    for (int c = 0; c < SC; c++) want[r][c] = operand[r0 + STRIDE_R * r][c0 + c];
  for (int sym = 0; sym < 2; sym++) {
    Call c = {0};
    float *out = in(&c, NULL, sizeof want, at_end);
    void *x = in(&c, operand, sizeof operand, at_end), *st = in(&c, s, sizeof s, at_end);
    int rc = sym ? idxs_rds(x, st, out, in(&c, NULL, (size_t)idxs_rds_temp_bytes(R), at_end), R)
                 : idx_rds(x, st, out, in(&c, NULL, IDX_RDS_TEMP_BYTES, at_end));
    expect(rc ? "rds (status)" : sym ? "rds (symbolic)" : "rds", out, &want[0][0], SR * SC,
           (long long)i, (long long)j);
    done(&c);
  }
}

static void test_rds(int at_end) {
  for (int a = 0; a < COUNT(V64); a++)
    for (int b = 0; b < COUNT(V64); b++) test_rds_at(at_end, V64[a], V64[b]);
}

static void test_update_slice(int at_end) {
  float up[SR][SC];
  for (int r = 0; r < SR; r++)
    for (int c = 0; c < SC; c++) up[r][c] = (float)(1000 + 10 * r + c);
  for (int a = 0; a < COUNT(V64); a++)
    for (int b = 0; b < COUNT(V64); b++) {
      float want[R][C];
      memcpy(want, operand, sizeof want);
      int64_t i = clamp_s(V64[a], R - SR), j = clamp_s(V64[b], C - SC);
      for (int r = 0; r < SR; r++)
        for (int c = 0; c < SC; c++) want[i + r][j + c] = up[r][c];
      Call c = {0};
      float *out = in(&c, NULL, sizeof want, at_end);
      idx_dus(in(&c, operand, sizeof operand, at_end), in(&c, up, sizeof up, at_end),
              in(&c, &V64[a], 8, at_end), in(&c, &V64[b], 8, at_end), out,
              in(&c, NULL, 64, at_end));
      expect("dus", out, &want[0][0], R * C, (long long)V64[a], (long long)V64[b]);
      done(&c);
    }
}

/* Row b of call k: a spread of index pairs over V64. */
static void indices_of(int k, int64_t idx[NB][2]) {
  for (int b = 0; b < NB; b++) {
    idx[b][0] = V64[(k + b) % COUNT(V64)];
    idx[b][1] = V64[(3 * k + 2 * b + 1) % COUNT(V64)];
  }
}

static void test_gather(int at_end) {
  for (int k = 0; k < COUNT(V64) * 2; k++) {
    int64_t idx[NB][2];
    indices_of(k, idx);
    float want[NB][GR][GC];
    for (int b = 0; b < NB; b++) {
      int64_t i = clamp_s(idx[b][0], R - GR), j = clamp_s(idx[b][1], C - GC);
      for (int r = 0; r < GR; r++)
        for (int c = 0; c < GC; c++) want[b][r][c] = operand[i + r][j + c];
    }
    Call c = {0};
    float *out = in(&c, NULL, sizeof want, at_end);
    idx_gather(in(&c, operand, sizeof operand, at_end), in(&c, idx, sizeof idx, at_end), out,
               in(&c, NULL, 64, at_end));
    expect("gather", out, &want[0][0][0], NB * GR * GC, (long long)idx[0][0],
           (long long)idx[0][1]);
    done(&c);
  }
}

/* Whether start + w (w >= 0 small) is in [0, n), without overflow: in
 * unsigned arithmetic every out-of-range sum lands at 2^63 or above. */
static int in_bounds(int64_t start, int w, int n) {
  return (uint64_t)start + (uint64_t)w < (uint64_t)n;
}

static void test_scatter(int at_end) {
  float up[NB][GR][GC];
  for (int b = 0; b < NB; b++)
    for (int r = 0; r < GR; r++)
      for (int c = 0; c < GC; c++) up[b][r][c] = (float)(1000 * (b + 1) + 10 * r + c);
  for (int k = 0; k < COUNT(V64) * 2; k++) {
    int64_t idx[NB][2];
    indices_of(k, idx);
    float want[R][C];
    memcpy(want, operand, sizeof want);
    for (int b = 0; b < NB; b++)
      for (int r = 0; r < GR; r++)
        for (int c = 0; c < GC; c++)
          if (in_bounds(idx[b][0], r, R) && in_bounds(idx[b][1], c, C))
            want[idx[b][0] + r][idx[b][1] + c] += up[b][r][c];
    Call c = {0};
    float *out = in(&c, NULL, sizeof want, at_end);
    idx_scatter(in(&c, operand, sizeof operand, at_end), in(&c, idx, sizeof idx, at_end),
                in(&c, up, sizeof up, at_end), out, in(&c, NULL, 64, at_end));
    expect("scatter", out, &want[0][0], R * C, (long long)idx[0][0], (long long)idx[0][1]);
    done(&c);
  }
}

int main(void) {
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) operand[i][j] = (float)(10 * i + j) + 0.5f;
  for (int at_end = 0; at_end < 2; at_end++) {
    test_slices(at_end);
    test_rds(at_end);
    test_update_slice(at_end);
    test_gather(at_end);
    test_scatter(at_end);
  }
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
