/* layout.c: constant weights stored the way the GEMM kernel reads them.
 *
 * The blocked GEMM (codegen/gemm.c) copies each KC x NR panel of its B
 * operand into a k-major scratch panel before the microkernel reads it,
 * once per block of MC rows: a convolution over a 56 x 56 image packs its
 * weights 11 times per call. When B is a constant, that copy can be made
 * once, at compile time: the constant is written to the object already in
 * panels (ir.h GemmPacking) and the kernel reads them in place.
 *
 * After the buffers pass, for each entry function: a constant is packed
 * when every one of its uses is operand 1 (B) of a dot_general or
 * convolution whose kernel packs B (codegen_gemm_b_packing: the blocked
 * path, not the matrix-vector or elemental ones, nor a blocked dot whose
 * threads split the columns other than in whole panels, since panels
 * start at multiples of NR: a convolution's column splits and a blocked
 * dot's with few rows (dot.c dot_split) come in whole panels; the skinny
 * path with B along N when compiled for more than one thread or for a
 * tile with o->gemm_skinny_serial_packed (AVX2), in panels of one K slice; the driver hands it to the pass as o->gemm_b_packing)
 * and all those uses want the same packing. Any other use (an elementwise
 * op, a return, a second GEMM with other dimension numbers) reads it
 * row-major, so it stays as it is: packing never duplicates a constant.
 *
 * The tile comes from the target (o->gemm_panel_bytes: NR elements of
 * the tile's B panel; a convolution's, o->conv_panel_bytes, may be
 * narrower), so a cross-compiled object packs for its own
 * microkernel. The pass and the kernels decide through the same
 * functions (dot.c's path, conv.c's fit), so they agree by construction;
 * the kernel still checks the packing against its plan. The weights of a
 * Winograd convolution (codegen/winograd.c) are packed after their
 * transform (GemmPacking.wino, wino_pack).
 */
#include <stdlib.h>
#include <string.h>

#include "../ir/ir.h"

int64_t layout_packed_elems(const GemmPacking *p) {
  int64_t nmat = 1;
  for (int i = 0; i < p->nbd; i++) nmat *= p->bdim[i];
  int64_t npad = (p->N + p->nr - 1) / p->nr * p->nr;
  return nmat * p->K * npad;
}

/* Row-major element offset in the constant of matrix b's B(0, 0). */
static int64_t matrix_offset(const GemmPacking *p, int64_t b) {
  int64_t off = 0;
  for (int i = p->nbd - 1; i >= 0; i--) {
    off += b % p->bdim[i] * p->bstride[i];
    b /= p->bdim[i];
  }
  return off;
}

/* Copies element `from` of s to element `to` of d, elements of esz bytes
 * (fixed sizes as loads and stores, not memcpy calls). */
static inline void copy_elem(char *d, int64_t to, const char *s, int64_t from, int esz) {
  switch (esz) {
  case 4: {
    uint32_t x;
    memcpy(&x, s + from * 4, 4);
    memcpy(d + to * 4, &x, 4);
    break;
  }
  case 2: {
    uint16_t x;
    memcpy(&x, s + from * 2, 2);
    memcpy(d + to * 2, &x, 2);
    break;
  }
  case 8: {
    uint64_t x;
    memcpy(&x, s + from * 8, 8);
    memcpy(d + to * 8, &x, 8);
    break;
  }
  default: memcpy(d + to * esz, s + from * esz, (size_t)esz);
  }
}

/* G of Winograd's F(2 x 2, 3 x 3) (Lavin & Gray, "Fast Algorithms for
 * Convolutional Neural Networks", 2015, section 4.1) and F(4 x 4, 3 x 3)
 * (section 4's, points 0, 1, -1, 2, -2 and infinity); codegen/winograd.c
 * has their A^T and B^T, tests/run/wino_matrices.py derives all three. */
static const double WINO_G2[4][3] = {{1, 0, 0}, {.5, .5, .5}, {.5, -.5, .5}, {0, 0, 1}};
static const double WINO_G4[6][3] = {{1. / 4, 0, 0},          {-1. / 6, -1. / 6, -1. / 6},
                                     {-1. / 6, 1. / 6, -1. / 6}, {1. / 24, 1. / 12, 1. / 6},
                                     {1. / 24, -1. / 12, 1. / 6}, {0, 0, 1}};

/* V = G g G^T (a x a) of the 3 x 3 filter g, G a x 3, in double. */
static void wino_filter(const double (*G)[3], int a, const double g[3][3], double v[6][6]) {
  double gg[6][3]; /* G g */
  for (int i = 0; i < a; i++)
    for (int x = 0; x < 3; x++) gg[i][x] = G[i][0] * g[0][x] + G[i][1] * g[1][x] + G[i][2] * g[2][x];
  for (int i = 0; i < a; i++)
    for (int j = 0; j < a; j++) v[i][j] = gg[i][0] * G[j][0] + gg[i][1] * G[j][1] + gg[i][2] * G[j][2];
}

/* The a x a matrices V_t (t = a i + j: element (i, j) of G g G^T, over
 * each (c, k)'s 3 x 3 filter g of the HWIO f32 kernel src, a splat: its
 * one element; a = 4 or 6, p->bdim[0] = a^2), in double, rounded once,
 * written to their places in dst's panels (ir.h GemmPacking: K = C rows,
 * N = K columns), padding zeros included: per row c and panel, the a^2
 * rows of nr elements made in buf, then each copied whole. Storing each
 * element straight to its place (a^2 places C x npad elements apart per
 * (c, k)) took a third of this loop's time in those stores (perf
 * annotate, ResNet-50 b8). */
static void wino_pack(const GemmPacking *p, const char *src, bool splat, float *dst) {
  int a = p->bdim[0] == 36 ? 6 : 4;
  const double (*G)[3] = a == 6 ? WINO_G4 : WINO_G2;
  int64_t C = p->K, K = p->N, nr = p->nr, npad = (K + nr - 1) / nr * nr;
  float *buf = malloc(sizeof *buf * (size_t)(a * a * nr));
  if (!buf) abort();
  for (int64_t c = 0; c < C; c++) {
    int64_t pc = c / p->kc * p->kc, rows = C - pc < p->kc ? C - pc : p->kc;
    /* row c of matrix 0's K slice: panel j's row at j * nr * rows */
    float *row = dst + pc * npad + (c - pc) * nr;
    for (int64_t k0 = 0; k0 < npad; k0 += nr) {
      for (int64_t j = 0; j < nr; j++) {
        int64_t k = k0 + j;
        if (k >= K) { /* N's padding */
          for (int t = 0; t < a * a; t++) buf[t * nr + j] = 0;
          continue;
        }
        double g[3][3], v[6][6];
        for (int y = 0; y < 3; y++)
          for (int x = 0; x < 3; x++) {
            float f; /* the constant's bytes need not be aligned */
            memcpy(&f, src + (splat ? 0 : ((y * 3 + x) * C + c) * K + k) * 4, 4);
            g[y][x] = f;
          }
        wino_filter(G, a, g, v);
        for (int t = 0; t < a * a; t++) buf[t * nr + j] = (float)v[t / a][t % a];
      }
      for (int t = 0; t < a * a; t++)
        memcpy(row + k0 * rows + t * C * npad, buf + t * nr, sizeof *buf * (size_t)nr);
    }
  }
  free(buf);
}

/* dst is written in order: per matrix, per K slice of kc rows, per panel
 * of nr columns, its rows, zeros past N (ir.h GemmPacking). */
void layout_pack(const GemmPacking *p, const void *src, int esz, bool splat, void *dst) {
  if (p->wino) {
    wino_pack(p, src, splat, dst);
    return;
  }
  const char *s = src;
  char *d = dst;
  int64_t nmat = 1, to = 0, nr = p->nr;
  for (int i = 0; i < p->nbd; i++) nmat *= p->bdim[i];
  /* A splat reads its one element everywhere: strides 0. */
  int64_t sk = splat ? 0 : p->sk, sn = splat ? 0 : p->sn;
  for (int64_t b = 0; b < nmat; b++) {
    int64_t mat = splat ? 0 : matrix_offset(p, b);
    for (int64_t pc = 0; pc < p->K; pc += p->kc) {
      int64_t rows = p->K - pc < p->kc ? p->K - pc : p->kc;
      for (int64_t j0 = 0; j0 < p->N; j0 += nr) {
        int64_t cols = p->N - j0 < nr ? p->N - j0 : nr;
        for (int64_t k = 0; k < rows; k++, to += nr) {
          int64_t from = mat + (pc + k) * sk + j0 * sn;
          if (sn == 1) /* a row of B: contiguous */
            memcpy(d + to * esz, s + from * esz, (size_t)(cols * esz));
          else
            for (int64_t j = 0; j < cols; j++) copy_elem(d, to + j, s, from + j * sn, esz);
          if (cols < nr) memset(d + (to + cols) * esz, 0, (size_t)((nr - cols) * esz));
        }
      }
    }
  }
}

/* ------------------------------------------------------------------------ */

typedef struct Layout {
  const CompileOptions *o;
  Arena *arena;
  GemmPacking *want; /* by value id: the packing its GEMM users agree on */
  bool *seen, *keep; /* a GEMM user found; some use needs row-major */
} Layout;

bool layout_same_packing(const GemmPacking *a, const GemmPacking *b) {
  if (a->nbd != b->nbd || a->K != b->K || a->N != b->N || a->sk != b->sk || a->sn != b->sn ||
      a->kc != b->kc || a->nr != b->nr || a->wino != b->wino)
    return false;
  for (int i = 0; i < a->nbd; i++)
    if (a->bdim[i] != b->bdim[i] || a->bstride[i] != b->bstride[i]) return false;
  return true;
}

/* Records what each use of a constant by op needs. */
static void note_uses(Op *op, void *ctx) {
  Layout *l = ctx;
  for (int i = 0; i < op->nopnds; i++) {
    Value *v = op->opnds[i];
    if (!v->def || v->def->code != OP_CONSTANT || v->storage != ST_CONST) continue;
    GemmPacking p = {0};
    bool gemm = i == 1 && ir_is_gemm(op->code) &&
                l->o->gemm_b_packing(op, l->o, &p);
    if (!gemm || (l->seen[v->id] && !layout_same_packing(&l->want[v->id], &p))) {
      l->keep[v->id] = true;
      continue;
    }
    l->want[v->id] = p;
    l->seen[v->id] = true;
  }
}

static void mark_packed(Op *op, void *ctx) {
  Layout *l = ctx;
  if (op->code != OP_CONSTANT) return;
  Value *v = op->results[0];
  v->packed = NULL;
  if (v->storage != ST_CONST || !l->seen[v->id] || l->keep[v->id]) return;
  GemmPacking *p = ARENA_NEW(l->arena, GemmPacking);
  *p = l->want[v->id];
  v->packed = p;
}

static void layout_func(Module *m, Func *f, const CompileOptions *o) {
  size_t n = (size_t)f->next_value_id + 1;
  Layout l = {o, &m->arena, calloc(n, sizeof(GemmPacking)), calloc(n, sizeof(bool)),
              calloc(n, sizeof(bool))};
  if (!l.want || !l.seen || !l.keep) abort();
  ir_walk(f, note_uses, &l);
  ir_walk(f, mark_packed, &l);
  free(l.want);
  free(l.seen);
  free(l.keep);
}

int pass_layout(Module *m, const CompileOptions *o) {
  if (o->opt_level == 0 || o->gemm_panel_bytes <= 0 || !o->gemm_b_packing) return 0;
  for (int i = 0; i < m->nfuncs; i++)
    if (ir_func_is_entry(m, m->funcs[i], o) && !m->funcs[i]->sym)
      layout_func(m, m->funcs[i], o);
  return 0;
}
