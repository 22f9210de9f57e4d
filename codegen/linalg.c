/*
 * linalg.c: triangular_solve and cholesky as kernel roots (spec
 * "triangular_solve", "cholesky").
 *
 * Both ops work on batches of square matrices in the two minor
 * dimensions. Each kernel copies its input (b, or a) into the result
 * buffer, then solves or factors every matrix of its batch range in place
 * by the textbook scalar algorithms: forward/back substitution, and the
 * Cholesky-Banachiewicz recurrence. Arithmetic is in the accumulation type
 * of dot_general (f32 for f16/bf16; complex as <2 x f32|f64>, complex.c),
 * rounded when stored.
 *
 * Operands are read from their buffers (fuse.c never fuses into these
 * ops), so `a` is read at any index without recomputation. The batches are
 * independent: kernel.c splits a batch dimension across threads, or makes
 * one call when its split dimension is a matrix dimension.
 */
#include "codegen.h"

int cg_linalg_batch_rank(const Op *op) {
  int rank = op->results[0]->type->rank;
  if (op->code == OP_FFT) return rank - op->a.fft_length.n;
  return rank - 2;
}

/* ------------------------------------------------------------------------ */
/* Batches and matrices                                                      */

LLVMValueRef cg_batch_begin(CG *cg, const Value *v, int nb, CgLoop *loops,
                            int *nloops) {
  const Type *t = v->type;
  /* An entry with symbolic sizes calls no kernel function: no split. */
  int pdim = cg->symx ? -1 : cg_split_dim(t);
  LLVMValueRef lin = cg_i64(cg, 0);
  *nloops = 0;
  for (int d = 0; d < nb; d++) {
    LLVMValueRef i;
    if (d == pdim)
      i = cg_loop_begin(cg, &loops[(*nloops)++], LLVMGetParam(cg->llfn, 1),
                        LLVMGetParam(cg->llfn, 2));
    else if (t->dims[d] == 1)
      i = cg_i64(cg, 0);
    else
      i = cg_loop_begin(cg, &loops[(*nloops)++], cg_i64(cg, 0), cg_dim(cg, v, d));
    lin = LLVMBuildAdd(cg->b, LLVMBuildMul(cg->b, lin, cg_dim(cg, v, d), ""), i, "");
  }
  return lin;
}

static void loops_end(CG *cg, CgLoop *loops, int n) {
  while (n > 0) cg_loop_end(cg, &loops[--n]);
}

/* One matrix of a batch: element (i, j) at linear index base + i * ld + j
 * of buf, computed in type w. */
typedef struct Mat {
  LLVMValueRef buf, base;
  ElemType e, w;
  int64_t ld;
  bool trans, conj; /* (i, j) reads (j, i); conjugated */
} Mat;

static Mat mat(CG *cg, Value *v, LLVMValueRef batch, ElemType w) {
  const Type *t = v->type;
  int64_t rows = t->dims[t->rank - 2], cols = t->dims[t->rank - 1];
  LLVMValueRef base = LLVMBuildMul(cg->b, batch, cg_i64(cg, rows * cols), "");
  return (Mat){cg_buffer(cg, v), base, t->elem, w, cols, false, false};
}

static LLVMValueRef mat_lin(CG *cg, const Mat *m, LLVMValueRef i, LLVMValueRef j) {
  if (m->trans) {
    LLVMValueRef t = i;
    i = j;
    j = t;
  }
  LLVMValueRef row = LLVMBuildMul(cg->b, i, cg_i64(cg, m->ld), "");
  return LLVMBuildAdd(cg->b, m->base, LLVMBuildAdd(cg->b, row, j, ""), "");
}

/* The conjugate as (re, 0 - im): an upper Cholesky factor, stored
 * conjugated, then gets +0 rather than -0 imaginary parts. */
static LLVMValueRef conj_(CG *cg, LLVMValueRef v) {
  LLVMValueRef one = LLVMConstInt(cg->t_i32, 1, 0);
  LLVMValueRef im = LLVMBuildExtractElement(cg->b, v, one, "");
  im = LLVMBuildFSub(cg->b, LLVMConstNull(LLVMTypeOf(im)), im, "");
  return LLVMBuildInsertElement(cg->b, v, im, one, "");
}

static LLVMValueRef mat_get(CG *cg, const Mat *m, LLVMValueRef i, LLVMValueRef j) {
  LLVMValueRef v = cg_load(cg, m->buf, m->e, mat_lin(cg, m, i, j));
  v = cg_convert(cg, v, m->e, m->w);
  return m->conj && elem_is_complex(m->w) ? conj_(cg, v) : v;
}

static void mat_set(CG *cg, const Mat *m, LLVMValueRef i, LLVMValueRef j, LLVMValueRef v) {
  if (m->conj && elem_is_complex(m->w)) v = conj_(cg, v);
  LLVMValueRef out = cg_convert(cg, v, m->w, m->e);
  cg_store(cg, m->buf, m->e, mat_lin(cg, m, i, j), out);
}

/* Copies the matrix at base of src into the result's buffer (same type). */
static void copy_matrix(CG *cg, Value *src, Value *dst, LLVMValueRef base) {
  const Type *t = dst->type;
  int64_t n = t->dims[t->rank - 2] * t->dims[t->rank - 1];
  LLVMValueRef from = cg_buffer(cg, src), to = cg_buffer(cg, dst);
  CgLoop l;
  LLVMValueRef k = cg_loop_begin(cg, &l, cg_i64(cg, 0), cg_i64(cg, n));
  LLVMValueRef lin = LLVMBuildAdd(cg->b, base, k, "");
  cg_store(cg, to, t->elem, lin, cg_load(cg, from, t->elem, lin));
  cg_loop_end(cg, &l);
}

/* ------------------------------------------------------------------------ */
/* Scalar arithmetic in the work type                                        */

static LLVMValueRef w_mul(CG *cg, ElemType w, LLVMValueRef x, LLVMValueRef y) {
  if (elem_is_complex(w)) return cg_complex_binary(cg, OP_MULTIPLY, w, x, y);
  return LLVMBuildFMul(cg->b, x, y, "");
}

static LLVMValueRef w_div(CG *cg, ElemType w, LLVMValueRef x, LLVMValueRef y) {
  if (elem_is_complex(w)) return cg_complex_binary(cg, OP_DIVIDE, w, x, y);
  return LLVMBuildFDiv(cg->b, x, y, "");
}

/* acc - x * y, accumulated in the slot acc. */
static void w_sub_mul(CG *cg, ElemType w, LLVMValueRef acc, LLVMValueRef x,
                      LLVMValueRef y) {
  LLVMTypeRef t = cg_scalar_type(cg, w);
  LLVMValueRef a = LLVMBuildLoad2(cg->b, t, acc, "");
  LLVMBuildStore(cg->b, LLVMBuildFSub(cg->b, a, w_mul(cg, w, x, y), ""), acc);
}

/* ------------------------------------------------------------------------ */
/* triangular_solve (spec "triangular_solve")                                */

/* The system of one batch, always brought to the left-side form
 * M * X = B: x * op(a) = b is op(a)^T * x^T = b^T, so a right-side solve
 * reads a and x transposed. M is lower triangular when `lower` differs
 * from whether M transposes a. */
typedef struct Solve {
  Mat m, x;
  int64_t n, ncols; /* M is n x n; X has ncols columns */
  bool lower, unit;
} Solve;

static Solve solve_setup(CG *cg, Op *op, LLVMValueRef batch) {
  ElemType w = cg_dot_acc_type(op->results[0]->type->elem);
  const Type *bt = op->results[0]->type;
  bool left = op->a.left_side;
  Transpose transpose_a = op->a.transpose_a;
  Solve s;
  s.m = mat(cg, op->opnds[0], batch, w);
  s.x = mat(cg, op->results[0], batch, w);
  s.m.trans = (transpose_a != TR_NO_TRANSPOSE) != !left;
  s.m.conj = transpose_a == TR_ADJOINT;
  s.x.trans = !left;
  s.n = bt->dims[bt->rank - (left ? 2 : 1)];
  s.ncols = bt->dims[bt->rank - (left ? 1 : 2)];
  s.lower = op->a.lower != s.m.trans;
  s.unit = op->a.unit_diagonal;
  return s;
}

/* x[i, c] = (b[i, c] - sum_k M[i, k] x[k, c]) / M[i, i] over k before i
 * (forward substitution) or after it (back substitution). */
static void solve_row(CG *cg, const Solve *s, LLVMValueRef i, LLVMValueRef c) {
  ElemType w = s->m.w;
  LLVMValueRef acc = cg_entry_alloca(cg, cg_scalar_type(cg, w), "acc");
  LLVMBuildStore(cg->b, mat_get(cg, &s->x, i, c), acc);
  LLVMValueRef lo = s->lower ? cg_i64(cg, 0) : LLVMBuildAdd(cg->b, i, cg_i64(cg, 1), "");
  LLVMValueRef hi = s->lower ? i : cg_i64(cg, s->n);
  CgLoop l;
  LLVMValueRef k = cg_loop_begin(cg, &l, lo, hi);
  LLVMValueRef xk = mat_get(cg, &s->x, k, c);
  w_sub_mul(cg, w, acc, mat_get(cg, &s->m, i, k), xk);
  cg_loop_end(cg, &l);
  LLVMValueRef v = LLVMBuildLoad2(cg->b, cg_scalar_type(cg, w), acc, "");
  /* unit_diagonal: the diagonal is 1 and is not read. */
  if (!s->unit) v = w_div(cg, w, v, mat_get(cg, &s->m, i, i));
  mat_set(cg, &s->x, i, c, v);
}

static void solve(CG *cg, const Solve *s) {
  CgLoop lc, ls;
  LLVMValueRef c = cg_loop_begin(cg, &lc, cg_i64(cg, 0), cg_i64(cg, s->ncols));
  LLVMValueRef step = cg_loop_begin(cg, &ls, cg_i64(cg, 0), cg_i64(cg, s->n));
  LLVMValueRef i = s->lower ? step : LLVMBuildSub(cg->b, cg_i64(cg, s->n - 1), step, "");
  solve_row(cg, s, i, c);
  cg_loop_end(cg, &ls);
  cg_loop_end(cg, &lc);
}

bool cg_kernel_triangular_solve(CG *cg, Op *op) {
  const Type *t = op->results[0]->type;
  int nb = t->rank - 2;
  CgLoop loops[nb > 0 ? nb : 1];
  int nl;
  LLVMValueRef batch = cg_batch_begin(cg, op->results[0], nb, loops, &nl);
  Solve s = solve_setup(cg, op, batch);
  copy_matrix(cg, op->opnds[1], op->results[0], s.x.base);
  if (s.n > 0) solve(cg, &s);
  loops_end(cg, loops, nl);
  return true;
}

/* ------------------------------------------------------------------------ */
/* cholesky (spec "cholesky")                                                */

/* sqrt of the real part of v (a real or complex scalar of type w). */
static LLVMValueRef real_sqrt(CG *cg, ElemType w, LLVMValueRef v) {
  if (elem_is_complex(w))
    v = LLVMBuildExtractElement(cg->b, v, LLVMConstInt(cg->t_i32, 0, 0), "");
  return cg_sqrt(cg, v);
}

/* v / d for a real d: both parts divided when v is complex. */
static LLVMValueRef div_real(CG *cg, ElemType w, LLVMValueRef v, LLVMValueRef d) {
  if (!elem_is_complex(w)) return LLVMBuildFDiv(cg->b, v, d, "");
  LLVMValueRef dd = LLVMGetUndef(cg_scalar_type(cg, w));
  for (unsigned k = 0; k < 2; k++)
    dd = LLVMBuildInsertElement(cg->b, dd, d, LLVMConstInt(cg->t_i32, k, 0), "");
  return LLVMBuildFDiv(cg->b, v, dd, "");
}

/* L[i, j] = a[i, j] - sum_{k < j} L[i, k] conj(L[j, k]), in the slot acc. */
static void chol_dot(CG *cg, const Mat *l, LLVMValueRef i, LLVMValueRef j,
                     LLVMValueRef acc) {
  LLVMBuildStore(cg->b, mat_get(cg, l, i, j), acc);
  CgLoop lk;
  LLVMValueRef k = cg_loop_begin(cg, &lk, cg_i64(cg, 0), j);
  LLVMValueRef ljk = mat_get(cg, l, j, k);
  if (elem_is_complex(l->w)) ljk = conj_(cg, ljk);
  w_sub_mul(cg, l->w, acc, mat_get(cg, l, i, k), ljk);
  cg_loop_end(cg, &lk);
}

/* Column j of L (Cholesky-Banachiewicz, in place over the copy of a):
 * L[j, j] = sqrt(a[j, j] - sum_k |L[j, k]|^2), L[i, j] = (...) / L[j, j]
 * below it; the opposite triangle is set to zero (implementation-defined
 * by the spec, zero in its example). */
static void chol_column(CG *cg, const Mat *l, int64_t n, LLVMValueRef j) {
  ElemType w = l->w;
  LLVMTypeRef wt = cg_scalar_type(cg, w);
  LLVMValueRef acc = cg_entry_alloca(cg, wt, "acc");
  chol_dot(cg, l, j, j, acc);
  LLVMValueRef d = real_sqrt(cg, w, LLVMBuildLoad2(cg->b, wt, acc, ""));
  LLVMValueRef dw = d; /* (d, 0) when complex */
  if (elem_is_complex(w))
    dw = LLVMBuildInsertElement(cg->b, LLVMConstNull(wt), d, LLVMConstInt(cg->t_i32, 0, 0), "");
  mat_set(cg, l, j, j, dw);
  CgLoop li;
  LLVMValueRef i = cg_loop_begin(cg, &li, LLVMBuildAdd(cg->b, j, cg_i64(cg, 1), ""),
                                 cg_i64(cg, n));
  chol_dot(cg, l, i, j, acc);
  mat_set(cg, l, i, j, div_real(cg, w, LLVMBuildLoad2(cg->b, wt, acc, ""), d));
  mat_set(cg, l, j, i, LLVMConstNull(wt));
  cg_loop_end(cg, &li);
}

bool cg_kernel_cholesky(CG *cg, Op *op) {
  const Type *t = op->results[0]->type;
  int nb = t->rank - 2;
  int64_t n = t->dims[t->rank - 1];
  CgLoop loops[nb > 0 ? nb : 1];
  int nl;
  LLVMValueRef batch = cg_batch_begin(cg, op->results[0], nb, loops, &nl);
  /* The lower factor L of a = L L^H; the upper one is U = L^H, so an
   * upper result is L read transposed and conjugated (reading a's upper
   * triangle). */
  Mat l = mat(cg, op->results[0], batch, cg_dot_acc_type(t->elem));
  l.trans = l.conj = !op->a.lower;
  copy_matrix(cg, op->opnds[0], op->results[0], l.base);
  CgLoop lj;
  LLVMValueRef j = cg_loop_begin(cg, &lj, cg_i64(cg, 0), cg_i64(cg, n));
  chol_column(cg, &l, n, j);
  cg_loop_end(cg, &lj);
  loops_end(cg, loops, nl);
  return true;
}
