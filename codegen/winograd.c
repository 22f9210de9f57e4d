/*
 * winograd.c: 3 x 3 convolutions of stride 1 by Winograd's minimal
 * filtering F(m x m, 3 x 3), m = 2 or 4 (Lavin & Gray, "Fast Algorithms
 * for Convolutional Neural Networks", 2015, section 4: 4.1 and the one on
 * F(4 x 4, 3 x 3)). Each m x m tile of the result (spec "convolution":
 * the sum over the 3 x 3 window and the input features) is
 *   Y = A^T [ sum over c of (G g_ck G^T) . (B^T d_c B) ] A
 * with d_c the a x a input tile of feature c (a = m + 2; zeros in the
 * padding), g_ck the 3 x 3 filter of (c, k) and . the elementwise
 * product: a^2 multiplies per (tile, c, k), 16 for 4 results (F(2 x 2))
 * or 36 for 16 (F(4 x 4)), where the direct sum takes 9 per result. The
 * a^2 elements t of the bracket are a^2 GEMMs
 *   M_t[tile][k] = sum over c of U_t[tile][c] V_t[c][k]
 * with U = B^T d B (per call, in the scratch) and V = G g G^T (at compile
 * time: passes/layout.c packs V_t in the GEMM's panels), which run on the
 * indirect convolution microkernel (gemm.c gemm_conv_micro, one tap).
 * ir.c ir_conv_wino picks the convolutions, m and the blocks' size (nt
 * tiles); the conv's fused epilogue then runs on each block's result.
 * Each result element depends on its tile alone, its GEMM sums over c in
 * order: how threads split the tiles does not change its bits.
 */
#include "gemm.h"
#include "vmath.h"

/* F(2 x 2, 3 x 3) (Lavin & Gray, section 4.1):
 *   B^T = [1 0 -1 0; 0 1 1 0; 0 -1 1 0; 0 1 0 -1], A^T = [1 1 1 0; 0 1 -1 -1];
 * F(4 x 4, 3 x 3) (section 4's, points 0, 1, -1, 2, -2 and infinity):
 *   B^T = [4 0 -5 0 1 0; 0 -4 -4 1 1 0; 0 4 -4 -1 1 0;
 *          0 -2 -1 2 1 0; 0 2 -1 -2 1 0; 0 4 0 -5 0 1],
 *   A^T = [1 1 1 1 1 0; 0 1 -1 2 -2 0; 0 1 1 4 4 0; 0 1 -1 8 -8 1].
 * tests/run/wino_matrices.py derives them (and G, passes/layout.c) from
 * the points and checks them against the direct correlation. */
enum { WINO_MAX_A = 6, WINO_MAX_TAPS = WINO_MAX_A * WINO_MAX_A };

typedef struct Wino {
  Gemm g;
  IrWino w;
  int64_t taps; /* ir_wino_taps(&w) */
  int64_t C, K, H, W, Ho, Wo, lo[2];
  LLVMValueRef lhs, V, out, U, M, tab, junk, zeros;
  LLVMValueRef *inside; /* input transform: whether each of the tile's a^2 rows lies in the input */
  LLVMValueRef *kept;   /* output transform with masked stores: whether each of the
                         * tile's m^2 rows lies in the result */
} Wino;

static LLVMValueRef fadd(Wino *z, LLVMValueRef a, LLVMValueRef b) {
  return LLVMBuildFAdd(z->g.b, a, b, "");
}

static LLVMValueRef fsub(Wino *z, LLVMValueRef a, LLVMValueRef b) {
  return LLVMBuildFSub(z->g.b, a, b, "");
}

/* a x c + b (fused where the target has FMA) */
static LLVMValueRef fmuladd(Wino *z, LLVMValueRef a, double c, LLVMValueRef b) {
  LLVMTypeRef ty = LLVMTypeOf(a);
  LLVMValueRef args[] = {a, math_const(ty, c), b};
  return cg_intrinsic(z->g.b, "llvm.fmuladd", &ty, 1, args, 3);
}

/* r = B^T d for the a elements of d. */
static void wino_bt(Wino *z, const LLVMValueRef *d, LLVMValueRef *r) {
  if (z->w.m == 2) {
    r[0] = fsub(z, d[0], d[2]);
    r[1] = fadd(z, d[1], d[2]);
    r[2] = fsub(z, d[2], d[1]);
    r[3] = fsub(z, d[1], d[3]);
    return;
  }
  LLVMValueRef d42 = fsub(z, d[4], d[2]), d31 = fsub(z, d[3], d[1]);
  r[0] = fmuladd(z, d[0], 4, fmuladd(z, d[2], -5, d[4]));
  LLVMValueRef s34 = fadd(z, d[3], d[4]);
  r[1] = fmuladd(z, fadd(z, d[1], d[2]), -4, s34);
  LLVMValueRef d43 = fsub(z, d[4], d[3]);
  r[2] = fmuladd(z, fsub(z, d[1], d[2]), 4, d43);
  r[3] = fmuladd(z, d31, 2, d42);
  r[4] = fmuladd(z, d31, -2, d42);
  r[5] = fmuladd(z, d[1], 4, fmuladd(z, d[3], -5, d[5]));
}

/* r = A^T v for the a elements of v (m results). */
static void wino_atr(Wino *z, const LLVMValueRef *v, LLVMValueRef *r) {
  if (z->w.m == 2) {
    r[0] = fadd(z, fadd(z, v[0], v[1]), v[2]);
    r[1] = fsub(z, fsub(z, v[1], v[2]), v[3]);
    return;
  }
  LLVMValueRef a12 = fadd(z, v[1], v[2]), s12 = fsub(z, v[1], v[2]);
  LLVMValueRef a34 = fadd(z, v[3], v[4]), s34 = fsub(z, v[3], v[4]);
  r[0] = fadd(z, fadd(z, v[0], a12), a34);
  r[1] = fmuladd(z, s34, 2, s12);
  r[2] = fmuladd(z, a34, 4, a12);
  r[3] = fadd(z, fmuladd(z, s34, 8, s12), v[5]);
}

/* A load or store of type ty (a vector or a float) at element c of p. */
static LLVMValueRef wino_load(Wino *z, LLVMTypeRef ty, LLVMValueRef p, LLVMValueRef c) {
  LLVMValueRef v = LLVMBuildLoad2(z->g.b, ty, cg_gep(z->g.cg, z->g.t, p, c), "");
  LLVMSetAlignment(v, 4);
  return v;
}

/* The mask of the vector type ty's lanes, each `on` (an i1). */
static LLVMValueRef wino_mask(Wino *z, LLVMTypeRef ty, LLVMValueRef on) {
  CG *cg = z->g.cg;
  LLVMBuilderRef b = z->g.b;
  unsigned lanes = LLVMGetVectorSize(ty);
  LLVMTypeRef mt = LLVMVectorType(cg->t_i1, lanes);
  LLVMValueRef mask = LLVMBuildInsertElement(b, LLVMGetPoison(mt), on, cg_i64(cg, 0), "");
  return LLVMBuildShuffleVector(b, mask, LLVMGetPoison(mt),
                                LLVMConstNull(LLVMVectorType(cg->t_i32, lanes)), "");
}

/* Whether the transforms mask the vector lanes of rows outside the image
 * (llvm.masked.load/store): x86 with AVX or AVX-512 (vmaskmovps, vmovups
 * {k}) has them natively; NEON and RISC-V's scalar ISA would expand each
 * into a branch a lane, so they go through the zero and junk rows. */
static bool wino_masks(CG *cg) { return cg_vector_bytes(cg) >= 32; }

/* A load of element c of the input tile's row p (an address off the
 * tile's base that is only read where the row lies in the input), zeros
 * where `inside` is false: a masked load for a vector on x86 with AVX (a
 * masked-off lane reads no memory, vmaskmovps), else a load through the
 * zero row (a masked load of one lane becomes a branch, and targets
 * without masked loads, NEON or RISC-V's scalar ISA, expand one into a
 * branch a lane). The GEPs are not inbounds: p may lie outside the
 * input. */
static LLVMValueRef wino_load_in(Wino *z, LLVMTypeRef ty, LLVMValueRef p, LLVMValueRef c,
                                 LLVMValueRef inside) {
  CG *cg = z->g.cg;
  LLVMBuilderRef b = z->g.b;
  LLVMValueRef q = LLVMBuildGEP2(b, z->g.t, p, &c, 1, "");
  if (LLVMGetTypeKind(ty) != LLVMVectorTypeKind || !wino_masks(cg))
    return wino_load(z, ty, LLVMBuildSelect(b, inside, q, cg_gep(cg, z->g.t, z->zeros, c), ""),
                     cg_i64(cg, 0));
  return cg_masked_load(cg, b, ty, q, 4, wino_mask(z, ty, inside));
}

static void wino_store(Wino *z, LLVMValueRef v, LLVMValueRef p, LLVMValueRef c) {
  LLVMSetAlignment(LLVMBuildStore(z->g.b, v, cg_gep(z->g.cg, z->g.t, p, c)), 4);
}

/* A store of v at element c of the result tile's row p (an address off
 * the tile's base, written only where `kept`): a masked store for a
 * vector (vmaskmovps on x86), else a store through the junk row. The GEP
 * is not inbounds: p may lie past the result. */
static void wino_store_kept(Wino *z, LLVMValueRef v, LLVMValueRef p, LLVMValueRef c,
                            LLVMValueRef kept) {
  CG *cg = z->g.cg;
  LLVMBuilderRef b = z->g.b;
  LLVMTypeRef ty = LLVMTypeOf(v);
  LLVMValueRef q = LLVMBuildGEP2(b, z->g.t, p, &c, 1, "");
  if (LLVMGetTypeKind(ty) == LLVMVectorTypeKind)
    cg_masked_store(cg, b, v, q, 4, wino_mask(z, ty, kept));
  else
    wino_store(z, v, LLVMBuildSelect(b, kept, q, cg_gep(cg, z->g.t, z->junk, c), ""),
               cg_i64(cg, 0));
}

/* X^T v X for the lanes of ty from element e: v the a x a values at
 * src[i] (rows of elements), X^T (n x a) applied by f to each column,
 * then to each row; element (i, j) of the n x n result stored at
 * dst[n i + j]. */
static void wino_2d(Wino *z, LLVMTypeRef ty, LLVMValueRef e, LLVMValueRef *src, LLVMValueRef *dst,
                    int n, void (*f)(Wino *, const LLVMValueRef *, LLVMValueRef *)) {
  int a = (int)z->w.m + 2;
  LLVMValueRef v[WINO_MAX_TAPS], s[WINO_MAX_TAPS], col[WINO_MAX_A], r[WINO_MAX_A];
  for (int i = 0; i < a * a; i++)
    v[i] = z->inside ? wino_load_in(z, ty, src[i], e, z->inside[i]) : wino_load(z, ty, src[i], e);
  for (int j = 0; j < a; j++) { /* X^T v, by columns */
    for (int i = 0; i < a; i++) col[i] = v[i * a + j];
    f(z, col, r);
    for (int i = 0; i < n; i++) s[i * a + j] = r[i];
  }
  for (int i = 0; i < n; i++) { /* (X^T v) X, by rows */
    f(z, &s[i * a], r);
    for (int j = 0; j < n; j++)
      if (z->kept) wino_store_kept(z, r[j], dst[i * n + j], e, z->kept[i * n + j]);
      else wino_store(z, r[j], dst[i * n + j], e);
  }
}

/* U_t[T][c] = (B^T d B)_t for c of ty's lanes from c: d from the a x a
 * rows at in (each a feature vector, or zeros), U_t[T] at u[t]. */
static void wino_in_lanes(Wino *z, LLVMTypeRef ty, LLVMValueRef c, LLVMValueRef *in,
                          LLVMValueRef *u) {
  wino_2d(z, ty, c, in, u, (int)z->w.m + 2, wino_bt);
}

/* Y = A^T M A for k of ty's lanes from k: M_t at mt[t], Y's m x m stored
 * at y[0..m^2): result rows, or past the result's edge either addresses
 * whose stores are masked off (wino_store_kept: vectors on x86) or the
 * junk row (scalar K tails on x86, and other targets). */
static void wino_out_lanes(Wino *z, LLVMTypeRef ty, LLVMValueRef k, LLVMValueRef *mt,
                           LLVMValueRef *y) {
  wino_2d(z, ty, k, mt, y, (int)z->w.m, wino_atr);
}

/* The lanes of n elements: whole vectors, then one at a time. */
static void wino_lanes(Wino *z, int64_t n, LLVMValueRef *a, LLVMValueRef *b,
                       void (*body)(Wino *, LLVMTypeRef, LLVMValueRef, LLVMValueRef *,
                                    LLVMValueRef *)) {
  CG *cg = z->g.cg;
  int64_t vl = z->g.p.vl, nv = n / vl * vl;
  CgLoop lv, ls;
  if (nv > 0) {
    LLVMValueRef c = cg_loop_step(cg, &lv, cg_i64(cg, 0), cg_i64(cg, nv), vl);
    body(z, z->g.vt, c, a, b);
    cg_loop_end(cg, &lv);
  }
  if (nv < n) {
    LLVMValueRef c = cg_loop_begin(cg, &ls, cg_i64(cg, nv), cg_i64(cg, n));
    body(z, z->g.t, c, a, b);
    cg_loop_end(cg, &ls);
  }
}

/* The loop over the nt tiles of the block from tile tb (tiles numbered
 * row-major over all images' tile rows): tile T's image n and first
 * result row y and column x. Returns T, the tile's index in the block. */
static LLVMValueRef wino_tiles(Wino *z, CgLoop *l, LLVMValueRef tb, LLVMValueRef nt,
                               LLVMValueRef *n, LLVMValueRef *y, LLVMValueRef *x) {
  CG *cg = z->g.cg;
  LLVMBuilderRef b = z->g.b;
  LLVMValueRef T = cg_loop_begin(cg, l, cg_i64(cg, 0), nt);
  LLVMValueRef tw = cg_i64(cg, z->w.tw), th = cg_i64(cg, z->w.th), m = cg_i64(cg, z->w.m);
  LLVMValueRef tile = LLVMBuildAdd(b, tb, T, "tile");
  LLVMValueRef q = LLVMBuildUDiv(b, tile, tw, "q");
  *n = LLVMBuildUDiv(b, q, th, "n");
  *y = LLVMBuildMul(b, LLVMBuildURem(b, q, th, ""), m, "y");
  *x = LLVMBuildMul(b, LLVMBuildURem(b, tile, tw, ""), m, "x");
  return T;
}

/* Whether (y0 + dy, x0 + dx) lies in an image of h x w (hwc); its
 * element offset (n, y, x, 0) in the NHWC image of h x w x c at *off,
 * unless off is NULL. */
static LLVMValueRef wino_inside(Wino *z, LLVMValueRef n, LLVMValueRef y0, int64_t dy,
                                LLVMValueRef x0, int64_t dx, const int64_t *hwc,
                                LLVMValueRef *off) {
  CG *cg = z->g.cg;
  LLVMBuilderRef b = z->g.b;
  LLVMValueRef y = LLVMBuildAdd(b, y0, cg_i64(cg, dy), ""), x = LLVMBuildAdd(b, x0, cg_i64(cg, dx), "");
  LLVMValueRef x_in = LLVMBuildICmp(b, LLVMIntULT, x, cg_i64(cg, hwc[1]), "");
  LLVMValueRef y_in = LLVMBuildICmp(b, LLVMIntULT, y, cg_i64(cg, hwc[0]), "");
  if (off) {
    LLVMValueRef r = LLVMBuildAdd(b, LLVMBuildMul(b, n, cg_i64(cg, hwc[0]), ""), y, "");
    r = LLVMBuildAdd(b, LLVMBuildMul(b, r, cg_i64(cg, hwc[1]), ""), x, "");
    *off = LLVMBuildMul(b, r, cg_i64(cg, hwc[2]), "");
  }
  return LLVMBuildAnd(b, y_in, x_in, "");
}

/* Row (n, y0 + dy, x0 + dx) of the NHWC image of h x w x c at base, or
 * `other` where that lies outside it. */
static LLVMValueRef wino_at(Wino *z, LLVMValueRef n, LLVMValueRef y0, int64_t dy,
                            LLVMValueRef x0, int64_t dx, const int64_t *hwc, LLVMValueRef base,
                            LLVMValueRef other) {
  CG *cg = z->g.cg;
  LLVMBuilderRef b = z->g.b;
  LLVMValueRef r, ok = wino_inside(z, n, y0, dy, x0, dx, hwc, &r);
  r = LLVMBuildSelect(b, ok, r, cg_i64(cg, 0), "");
  return LLVMBuildSelect(b, ok, cg_gep(cg, z->g.t, base, r), other, "");
}

/* A tile's a^2 rows (a x a from (y0, x0) in image n of the NHWC image
 * of h x w x c at image) at rows, constant offsets from one base,
 * element (0, 0)'s row (outside the image at an edge: it and the rows
 * outside are only read through wino_load_in, or written through
 * wino_store_kept); whether each lies in the image at inside. The base is
 * frozen, opaque to ScalarEvolution: with a select per row (wino_at) or a
 * base that it folds from the tile's udiv and urem, loop-strength-reduce
 * and default<O3> take longer. opt-19 on ResNet-50 b1's three Winograd
 * kernels (1-thread IR, user time, mean of 8, load 3-4), the input
 * transform's rows so: LSR 0.150 -> 0.119 s, default<O3> 0.255 -> 0.197
 * s; the same rows unfrozen (and unmasked), LSR 0.20 s. The output
 * transform's too (its stores unmasked, a measure only): LSR 0.094 s,
 * default<O3> 0.192 s. */
static void wino_rows(Wino *z, LLVMValueRef n, LLVMValueRef y0, LLVMValueRef x0, int64_t a,
                      const int64_t *hwc, LLVMValueRef image, LLVMValueRef *rows,
                      LLVMValueRef *inside) {
  CG *cg = z->g.cg;
  LLVMBuilderRef b = z->g.b;
  LLVMValueRef off; /* row 0's: the others are constants from it */
  for (int i = 0; i < a * a; i++)
    inside[i] = wino_inside(z, n, y0, i / a, x0, i % a, hwc, i == 0 ? &off : NULL);
  LLVMValueRef base = LLVMBuildFreeze(b, LLVMBuildGEP2(b, z->g.t, image, &off, 1, ""), "tile");
  for (int i = 0; i < a * a; i++) {
    LLVMValueRef c = cg_i64(cg, (i / a * hwc[1] + i % a) * hwc[2]);
    rows[i] = LLVMBuildGEP2(b, z->g.t, base, &c, 1, "");
  }
}

/* The table of the microkernel: for each group i of tiles (cg_conv_tiles
 * over the block's nt tiles) and each of the a^2 t, MR pointers at
 * tab[(i x a^2 + t) x MR] to the rows of U_t (the zero row past the
 * group's tiles). */
static void wino_table(Wino *z, const ConvTiles *grp, LLVMValueRef nt) {
  CG *cg = z->g.cg;
  LLVMBuilderRef b = z->g.b;
  int64_t mr = z->g.p.mr;
  CgLoop li, lt;
  LLVMValueRef rows, i = cg_loop_begin(cg, &li, cg_i64(cg, 0), grp->n);
  LLVMValueRef T0 = cg_conv_tile_at(&z->g, grp, nt, i, &rows);
  LLVMValueRef t = cg_loop_begin(cg, &lt, cg_i64(cg, 0), cg_i64(cg, z->taps));
  LLVMValueRef slot = LLVMBuildMul(b, LLVMBuildAdd(b, LLVMBuildMul(b, i, cg_i64(cg, z->taps), ""), t, ""),
                                   cg_i64(cg, mr), "");
  for (int64_t r = 0; r < mr; r++) {
    LLVMValueRef T = LLVMBuildAdd(b, T0, cg_i64(cg, r), "");
    LLVMValueRef row = LLVMBuildAdd(b, LLVMBuildMul(b, t, cg_i64(cg, z->w.nt), ""), T, "");
    LLVMValueRef p = cg_gep(cg, z->g.t, z->U, LLVMBuildMul(b, row, cg_i64(cg, z->C), ""));
    p = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntULT, cg_i64(cg, r), rows, ""), p, z->zeros, "");
    LLVMBuildStore(b, p, cg_gep(cg, cg->t_ptr, z->tab, LLVMBuildAdd(b, slot, cg_i64(cg, r), "")));
  }
  cg_loop_end(cg, &lt);
  cg_loop_end(cg, &li);
}

/* M_t = U_t V_t for each t, panel of NR columns and group of tiles: of
 * MR tiles on the microkernel of MR rows, else on that of MR - 1
 * (cg_conv_tiles balances a block's groups so: ResNet-50 at batch 1 on 2
 * threads splits its 49 tiles at 14 x 14 as 25 + 24, and 4 x 6 + 1 tiles,
 * the last on the microkernel of MR rows, took 1.2x the time of the other
 * thread's 4 x 6; 5 x 5 tiles instead). Each element's sum is the same
 * whichever microkernel computes it (gemm.c conv_micro_fn). */
static void wino_gemms(Wino *z, const ConvTiles *grp, LLVMValueRef nt) {
  Gemm *g = &z->g;
  CG *cg = g->cg;
  LLVMBuilderRef b = g->b;
  int64_t mr = g->p.mr, nr = g->p.nr;
  int64_t per_line = 64 / elem_bytes(g->p.e), lines = nr / per_line > 1 ? nr / per_line : 1;
  CgLoop lt, lj, li;
  LLVMValueRef t = cg_loop_begin(cg, &lt, cg_i64(cg, 0), cg_i64(cg, z->taps));
  LLVMValueRef jr = cg_loop_step(cg, &lj, cg_i64(cg, 0), cg_i64(cg, z->K), nr);
  LLVMValueRef cols = cg_min_i64(cg, cg_i64(cg, nr), LLVMBuildSub(b, cg_i64(cg, z->K), jr, ""));
  LLVMValueRef rows, i = cg_loop_begin(cg, &li, cg_i64(cg, 0), grp->n);
  LLVMValueRef T = cg_conv_tile_at(g, grp, nt, i, &rows);
  /* each group fetches a line of each row of the next panel (with
   * cpf_first the first group alone: conv.c conv_ind_tile) */
  GemmTaps taps = {
      .t0 = t,
      .n = cg_i64(cg, 1),
      .first = LLVMConstInt(cg->t_i1, 1, 0),
      .pf_taps = cg_i64(cg, 0),
      .pf_cols = cg_i64(cg, nr),
      .pf_line = LLVMBuildMul(b, LLVMBuildURem(b, i, cg_i64(cg, lines), ""), cg_i64(cg, per_line), ""),
  };
  if (g->p.cpf_first) taps.fetch = LLVMBuildICmp(b, LLVMIntEQ, i, cg_i64(cg, 0), "fetch");
  LLVMValueRef row = LLVMBuildAdd(b, LLVMBuildMul(b, t, cg_i64(cg, z->w.nt), ""), T, "");
  LLVMValueRef c = cg_gep(cg, g->t, z->M, LLVMBuildAdd(b, LLVMBuildMul(b, row, cg_i64(cg, z->K), ""), jr, ""));
  LLVMValueRef tab = cg_gep(cg, cg->t_ptr, z->tab, LLVMBuildMul(b, i, cg_i64(cg, z->taps * mr), ""));
  CgIf full;
  if (mr > 1) cg_if_begin(cg, &full, LLVMBuildICmp(b, LLVMIntEQ, rows, cg_i64(cg, mr), ""));
  gemm_conv_micro(g, (int)mr, tab, z->V, c, &taps, jr, rows, cols);
  if (mr > 1) {
    cg_if_else(cg, &full);
    gemm_conv_micro(g, (int)mr - 1, tab, z->V, c, &taps, jr, rows, cols);
    cg_if_end(cg, &full);
  }
  cg_loop_end(cg, &li);
  cg_loop_end(cg, &lj);
  cg_loop_end(cg, &lt);
}

/* The input transform (in: the input's tiles to U) or the output
 * transform (M to the result's tiles) of the nt tiles of the block from
 * tile tb. */
static void wino_transform(Wino *z, LLVMValueRef tb, LLVMValueRef nt, bool in) {
  CG *cg = z->g.cg;
  LLVMBuilderRef b = z->g.b;
  CgLoop lt;
  LLVMValueRef n, y0, x0, img[WINO_MAX_TAPS], mat[WINO_MAX_TAPS];
  LLVMValueRef T = wino_tiles(z, &lt, tb, nt, &n, &y0, &x0);
  int64_t width = in ? z->C : z->K, m = z->w.m;
  for (int t = 0; t < z->taps; t++) { /* row T of U_t or M_t */
    LLVMValueRef row = LLVMBuildAdd(b, cg_i64(cg, t * z->w.nt), T, "");
    mat[t] = cg_gep(cg, z->g.t, in ? z->U : z->M, LLVMBuildMul(b, row, cg_i64(cg, width), ""));
  }
  if (in) {
    /* spec: padded_lhs; rows outside the input read zeros */
    LLVMValueRef inside[WINO_MAX_TAPS];
    int64_t hwc[3] = {z->H, z->W, z->C};
    y0 = LLVMBuildSub(b, y0, cg_i64(cg, z->lo[0]), "");
    x0 = LLVMBuildSub(b, x0, cg_i64(cg, z->lo[1]), "");
    wino_rows(z, n, y0, x0, m + 2, hwc, z->lhs, img, inside);
    z->inside = inside;
    wino_lanes(z, z->C, img, mat, wino_in_lanes);
    z->inside = NULL;
  } else if (wino_masks(cg)) {
    /* rows past the result's edge masked off (x86: vmaskmovps with AVX2,
     * vmovups {k} with AVX-512). Edge tiles exist where m does not divide
     * Ho or Wo: none in ResNet-50 b1's three Winograd layers (LLVM folds
     * their masks), but b8 adds a fourth, 3 x 3 x 512 x 512 at 7 x 7 by
     * F(2 x 2), whose kernel keeps 3 vmaskmovps (main.k99). */
    LLVMValueRef kept[WINO_MAX_TAPS];
    int64_t hwc[3] = {z->Ho, z->Wo, z->K};
    wino_rows(z, n, y0, x0, m, hwc, z->out, img, kept);
    z->kept = kept;
    wino_lanes(z, z->K, mat, img, wino_out_lanes);
    z->kept = NULL;
  } else {
    /* a row past the result's edge is the junk row: a masked store
     * becomes branches where the target has none (NEON, RISC-V's scalar
     * ISA) */
    int64_t hwc[3] = {z->Ho, z->Wo, z->K};
    for (int i = 0; i < m * m; i++) img[i] = wino_at(z, n, y0, i / m, x0, i % m, hwc, z->out, z->junk);
    wino_lanes(z, z->K, mat, img, wino_out_lanes);
  }
  cg_loop_end(cg, &lt);
}

/* The conv's epilogue on the result of the nt tiles from tile tb: per
 * tile row q they reach, its tiles' columns in each of its m result rows
 * (fewer at the bottom edge; columns stop at the right edge), runs of
 * rows of the result viewed as rows x K. */
static void wino_epilogue(Wino *z, LLVMValueRef tb, LLVMValueRef nt) {
  CG *cg = z->g.cg;
  LLVMBuilderRef b = z->g.b;
  if (!z->g.epi) return;
  LLVMValueRef tw = cg_i64(cg, z->w.tw), th = cg_i64(cg, z->w.th), te = LLVMBuildAdd(b, tb, nt, "");
  LLVMValueRef qz = LLVMBuildUDiv(b, LLVMBuildAdd(b, te, cg_i64(cg, z->w.tw - 1), ""), tw, "");
  CgLoop lq, ly;
  LLVMValueRef q = cg_loop_begin(cg, &lq, LLVMBuildUDiv(b, tb, tw, ""), qz);
  LLVMValueRef t0 = LLVMBuildMul(b, q, tw, "");
  LLVMValueRef from = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntUGT, tb, t0, ""), tb, t0, "");
  LLVMValueRef m = cg_i64(cg, z->w.m);
  LLVMValueRef c0 = LLVMBuildMul(b, LLVMBuildSub(b, from, t0, ""), m, "");
  LLVMValueRef to = cg_min_i64(cg, te, LLVMBuildAdd(b, t0, tw, ""));
  LLVMValueRef c1 = cg_min_i64(cg, LLVMBuildMul(b, LLVMBuildSub(b, to, t0, ""), m, ""),
                               cg_i64(cg, z->Wo));
  LLVMValueRef img = LLVMBuildUDiv(b, q, th, "");
  LLVMValueRef y0 = LLVMBuildMul(b, LLVMBuildURem(b, q, th, ""), m, "");
  LLVMValueRef ny = cg_min_i64(cg, m, LLVMBuildSub(b, cg_i64(cg, z->Ho), y0, ""));
  LLVMValueRef dy = cg_loop_begin(cg, &ly, cg_i64(cg, 0), ny);
  LLVMValueRef yi = LLVMBuildAdd(b, y0, dy, "");
  LLVMValueRef y = LLVMBuildAdd(b, LLVMBuildMul(b, img, cg_i64(cg, z->Ho), ""), yi, "");
  LLVMValueRef r0 = LLVMBuildAdd(b, LLVMBuildMul(b, y, cg_i64(cg, z->Wo), ""), c0, "row");
  gemm_epilogue(&z->g, r0, LLVMBuildSub(b, c1, c0, ""), cg_i64(cg, 0), cg_i64(cg, z->K));
  cg_loop_end(cg, &ly);
  cg_loop_end(cg, &lq);
}

/* The plan of op's GEMMs (M_t: tiles x K, sum over C) and the geometry. */
static void wino_plan(CG *cg, Op *op, Op *epi, Wino *z) {
  const Type *lt = op->opnds[0]->type, *rt = op->results[0]->type;
  const Window *win = &op->a.window;
  *z = (Wino){.g = {.cg = cg, .b = cg->b, .op = op, .epi = epi, .ncols = 1}};
  ir_conv_wino(op, &z->w);
  z->taps = ir_wino_taps(&z->w);
  z->C = lt->dims[3];
  z->K = rt->dims[3];
  z->H = lt->dims[1];
  z->W = lt->dims[2];
  z->Ho = rt->dims[1];
  z->Wo = rt->dims[2];
  for (int s = 0; s < 2; s++) z->lo[s] = cg_window_at(&win->pad_lo, s, 0);
  GemmPlan *p = &z->g.p;
  p->e = ET_F32;
  p->nbatch = 1;
  p->M = z->w.nt;
  p->N = z->K;
  p->K = z->C;
  p->sak = 1;
  p->sam = 0; /* rows come from row pointers */
  p->sbk = z->K;
  p->sbn = 1;
  gemm_plan(&z->g);
}

bool cg_conv_wino_packing(const Op *op, int panel_bytes, GemmPacking *out) {
  IrWino w;
  if (!ir_conv_wino(op, &w)) return false;
  int64_t C = op->opnds[0]->type->dims[3], K = op->results[0]->type->dims[3];
  GemmPlan p = {.e = ET_F32, .K = C, .N = K, .sbk = K, .sbn = 1};
  int64_t bdim[1] = {ir_wino_taps(&w)}, bstride[1] = {C * K};
  gemm_packing(&p, 1, bdim, bstride, panel_bytes, out);
  out->wino = true;
  return true;
}

/* The fewest tiles worth a call: each call reads all of V, so at least
 * the packed GEMMs' grain (gemm.h GEMM_MIN_CALL_ROWS_PACKED); but a V of
 * at most WINO_FINE_V_BYTES stays in a core's L2 (Zen 4: 1 MB) from one
 * call to the next, and WINO_FINE_GRAIN tiles then make a thread's
 * pieces shorter at the end of its share (ResNet-50 b1's 56 x 56 layers,
 * F(4 x 4), 196 tiles, V 576 KB: 50 24 12 12 a thread, not 50 48).
 * ResNet-50 b1 at 2 threads, paired, 400 alternating calls, SCHED_FIFO,
 * load 5.6-8: 0.988x where both threads run slower together
 * (docs/runtime.md's slow regime; 300 of 400 faster; those three loops
 * 0.82-0.90x, the idle time at their ends 0.58 ms a call down to 0.09),
 * 0.999x and 1.001x with both at full speed (163 of 300, 167 of 400
 * faster). Its 28 x 28 and 14 x 14 layers (V 2.25 and 4 MB, 49 tiles)
 * took 1.2-1.5x their time in pieces of 12 tiles. Not kept either
 * (2026-11-28, 2 threads): those layers in 2 tile parts (25 + 24) x 2
 * or 4 column parts of whole panels (each call reading only its panels
 * of V; a slot's U tagged so that its next column part of the same
 * tiles skipped the input transform, the caller clearing the tags before
 * each loop), pieces of 1-2 units. Under SCHED_FIFO the idle time at
 * their joins fell (14 x 14, per loop: 198 -> 88 us; 28 x 28: 99 -> 69
 * us; the model's 5.4 -> 3.5 ms a call, an instrumented runtime), but
 * the model did not get faster: bench/ab.py paired medians against main,
 * 2 x 4 parts 1.002x --fifo (100 calls, load 4-8), 1.002x and 1.014x
 * with 50 ms gaps (load 4-7); 2 x 2 parts 0.998x --fifo, 1.015x and
 * 1.068x with gaps. Without the tags, U made again per column part cost
 * 6% (14 x 14) and 14% (28 x 28, F(4 x 4)) more CPU time in those loops. */
enum { WINO_FINE_V_BYTES = 1 << 20, WINO_FINE_GRAIN = 12 };
static int64_t wino_grain(const IrWino *w, int64_t C, int64_t K) {
  return ir_wino_v_bytes(w, C, K) <= WINO_FINE_V_BYTES ? WINO_FINE_GRAIN
                                                       : GEMM_MIN_CALL_ROWS_PACKED;
}

/* Threads split tiles at batch 1; at batch > 1 tile rows of all images
 * (tiles are numbered across images, wino_tiles), at least a block's
 * (nq) a call, where whole images made the last piece of a thread's
 * share an image: ResNet-50 b8's 14 x 14 and 28 x 28 layers (7 tile rows
 * an image, blocks of 4) ran 2 1 1 images a thread, 8 blocks, now 12 8
 * 4 4 tile rows, 7 blocks (each block reads all of V); the 7 x 7 x 512
 * ones (blocks of 2 images, IR_WINO_WIDE_IMAGES) keep 2 2 images
 * (measured with conv.c's lines: conv_split). */
bool cg_conv_wino_split(const Op *op, int *dim, int64_t *unit, int64_t *count, int64_t *grain) {
  const GemmPacking *k = op->opnds[1]->packed;
  IrWino w;
  if (!k || !k->wino || !ir_conv_wino(op, &w)) return false;
  int64_t n = op->results[0]->type->dims[0];
  *dim = n > 1 ? 0 : 1;
  *unit = 1;
  *count = n > 1 ? n * w.th : w.th * w.tw;
  *grain = n > 1 ? w.nq /* a block */
                 : wino_grain(&w, op->opnds[0]->type->dims[3], op->results[0]->type->dims[3]);
  return true;
}

/* Units [begin, end) of cg_conv_wino_split: tiles [t0, t1), or at batch
 * > 1 tile rows of all images, in blocks of nt. */
bool cg_kernel_wino(CG *cg, Op *op, Op *epi) {
  Wino z;
  wino_plan(cg, op, epi, &z);
  Gemm *g = &z.g;
  LLVMBuilderRef b = cg->b;
  gemm_use_packed(g, op->opnds[1]);
  const IrWino *w = &z.w;
  LLVMValueRef s = cg_scratch(cg, op, w->scratch_bytes);
  z.lhs = cg_buffer(cg, op->opnds[0]);
  z.V = cg_buffer(cg, op->opnds[1]);
  z.out = cg_buffer(cg, (epi ? epi : op)->results[0]);
  z.U = s;
  z.M = cg_gep(cg, cg->t_i8, s, cg_i64(cg, w->m_at));
  z.tab = cg_gep(cg, cg->t_i8, s, cg_i64(cg, w->tab_at));
  z.junk = cg_gep(cg, cg->t_i8, s, cg_i64(cg, w->junk_at));
  z.zeros = gemm_zero_row(g, z.C);
  int dim = 0;
  int64_t unit = 1, count = 0, grain;
  cg_conv_wino_split(op, &dim, &unit, &count, &grain);
  LLVMValueRef per = cg_i64(cg, dim == 0 ? w->tw : 1);
  LLVMValueRef t0 = LLVMBuildMul(b, LLVMGetParam(cg->llfn, 1), per, "t0");
  LLVMValueRef t1 = LLVMBuildMul(b, LLVMGetParam(cg->llfn, 2), per, "t1");
  CgLoop lb;
  LLVMValueRef tb = cg_loop_step(cg, &lb, t0, t1, w->nt);
  LLVMValueRef nt = cg_min_i64(cg, cg_i64(cg, w->nt), LLVMBuildSub(b, t1, tb, ""));
  ConvTiles grp = cg_conv_tiles(g, nt, true);
  wino_transform(&z, tb, nt, true);
  wino_table(&z, &grp, nt);
  wino_gemms(&z, &grp, nt);
  wino_transform(&z, tb, nt, false);
  wino_epilogue(&z, tb, nt);
  cg_loop_end(cg, &lb);
  return true;
}
