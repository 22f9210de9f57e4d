/*
 * fft.c: fft as a kernel root (spec "fft").
 *
 * The op is a series of 1-D discrete Fourier transforms along the last L =
 * size(fft_length) dimensions, in the spec's order: FFT and RFFT from the
 * last dimension outwards, IFFT and IRFFT from dimension -L inwards. Each
 * 1-D transform is a direct O(n^2) DFT of one line at a time:
 *
 *   out[k] = sum_{j < n} in[j] * w^(j k mod n),  w = exp(-+2 pi i / n)
 *
 * computed in f64 whatever the element type, with the twiddles w^m a
 * constant table computed by the compiler (so the angle is reduced
 * exactly: m = j k mod n). The line is first copied into an f64 scratch
 * line, so a transform may write its result in place.
 *
 * Where the intermediate values live: the result buffer for FFT, IFFT and
 * RFFT (complex, of the shape of every intermediate; RFFT's first, real to
 * complex, transform keeps bins 0..n/2 of the last dimension). IRFFT's
 * intermediates are complex of the operand's shape, larger than its real
 * result, so they go to f64 scratch of one batch (bounded by
 * FFT_SCRATCH_MAX bytes) unless L = 1, where the last transform reads the
 * operand directly. Its last transform extends each line to n bins by
 * Hermitian symmetry (X[n - k] = conj(X[k])) and keeps the real part,
 * which ignores the imaginary parts of bins 0 and n/2 as pocketfft and
 * XLA do.
 */
#include <math.h>
#include <stdlib.h>

#include "codegen.h"

/* The scratch (the line, IRFFT's intermediates) is the kernel's in the
 * temp arena (ir_kernel_scratch_bytes plans it; no malloc): at most 256
 * KiB for a line (16384 complex<f64> points; the O(n^2) DFT is slow beyond
 * that anyway) and for one batch of IRFFT intermediates. */
enum { FFT_SCRATCH_MAX = 256 << 10 };

/* A tensor slice the transforms read or write: buffer, element type, base
 * linear index of the batch, the slice's L minor dims and their strides. */
typedef struct Arr {
  LLVMValueRef buf, base;
  ElemType e;
  int L;
  int64_t dims[3], strides[3];
} Arr;

/* One 1-D transform along dimension `axis` (of the L minor ones): src
 * lines of nin bins to dst lines of nout bins, DFT length n. */
typedef struct Pass {
  int axis;
  int64_t nin, nout, n;
  bool inverse, hermitian; /* hermitian: c2r, src holds bins 0..n/2 */
} Pass;

static Arr arr(LLVMValueRef buf, ElemType e, LLVMValueRef base, const Type *t, int L) {
  Arr a = {buf, base, e, L, {0}, {0}};
  int64_t s = 1;
  for (int d = L - 1; d >= 0; d--) {
    a.dims[d] = t->dims[t->rank - L + d];
    a.strides[d] = s;
    s *= a.dims[d];
  }
  return a;
}

static int64_t arr_elems(const Arr *a) { return a->dims[0] * a->strides[0]; }

/* ------------------------------------------------------------------------ */
/* Twiddles and scratch                                                      */

/* exp(-2 pi i m / n) for m in [0, n), as interleaved f64 pairs; exact at
 * multiples of a quarter turn. A global per n, shared by the kernels. */
static LLVMValueRef twiddles(CG *cg, int64_t n) {
  char name[64];
  snprintf(name, sizeof name, "fft.w%lld", (long long)n);
  LLVMValueRef g = LLVMGetNamedGlobal(cg->mod, name);
  if (g) return g;
  LLVMValueRef *v = malloc(sizeof *v * (size_t)(2 * n));
  if (!v) abort();
  for (int64_t m = 0; m < n; m++) {
    static const double quarter[4][2] = {{1, 0}, {0, -1}, {-1, 0}, {0, 1}};
    /* In long double, so that the f64 twiddles are (nearly always)
     * correctly rounded: cos(2 pi / 3) is -0.5 exactly. */
    long double t = 2 * M_PIl * (long double)m / (long double)n;
    double re = (double)cosl(t), im = (double)-sinl(t);
    if ((4 * m) % n == 0) {
      re = quarter[4 * m / n][0];
      im = quarter[4 * m / n][1];
    }
    v[2 * m] = LLVMConstReal(cg->t_f64, re);
    v[2 * m + 1] = LLVMConstReal(cg->t_f64, im);
  }
  LLVMTypeRef at = LLVMArrayType2(cg->t_f64, (uint64_t)(2 * n));
  g = LLVMAddGlobal(cg->mod, at, name);
  LLVMSetInitializer(g, LLVMConstArray2(cg->t_f64, v, (uint64_t)(2 * n)));
  LLVMSetGlobalConstant(g, 1);
  LLVMSetLinkage(g, LLVMPrivateLinkage);
  free(v);
  return g;
}

/* The kernel's scratch: a line of the longest transform, then (IRFFT over
 * several dimensions) one batch of intermediates. */
typedef struct Scratch {
  LLVMValueRef line, batch;
} Scratch;

static Scratch fft_scratch(CG *cg, Op *op, const Arr *in) {
  int64_t n = 0;
  for (int k = 0; k < op->a.fft_length.n; k++)
    if (op->a.fft_length.v[k] > n) n = op->a.fft_length.v[k];
  bool batch = op->a.fft_type == FFT_IRFFT && in->L > 1;
  int64_t line = ir_align64(16 * n);
  LLVMValueRef base = cg_scratch(cg, op, line + (batch ? ir_align64(16 * arr_elems(in)) : 0));
  Scratch s = {base, batch ? cg_gep(cg, cg->t_i8, base, cg_i64(cg, line)) : NULL};
  return s;
}

/* ------------------------------------------------------------------------ */
/* One line                                                                  */

/* Linear index of bin k of the line at idx (idx[axis] ignored). */
static LLVMValueRef arr_lin(CG *cg, const Arr *a, LLVMValueRef *idx, int axis,
                            LLVMValueRef k) {
  LLVMValueRef lin = a->base;
  for (int d = 0; d < a->L; d++) {
    LLVMValueRef i = d == axis ? k : idx[d];
    lin = LLVMBuildAdd(cg->b, lin, LLVMBuildMul(cg->b, i, cg_i64(cg, a->strides[d]), ""), "");
  }
  return lin;
}

static LLVMValueRef conj_(CG *cg, LLVMValueRef v) {
  LLVMValueRef one = LLVMConstInt(cg->t_i32, 1, 0);
  LLVMValueRef im = LLVMBuildExtractElement(cg->b, v, one, "");
  return LLVMBuildInsertElement(cg->b, v, LLVMBuildFNeg(cg->b, im, ""), one, "");
}

/* line[j] = src[j] as complex<f64> for j < nin; for a Hermitian pass also
 * line[j] = conj(src[n - j]) for nin <= j < n. */
static void load_line(CG *cg, const Arr *src, const Pass *p, LLVMValueRef *idx,
                      LLVMValueRef line) {
  CgLoop l;
  LLVMValueRef j = cg_loop_begin(cg, &l, cg_i64(cg, 0), cg_i64(cg, p->nin));
  LLVMValueRef v = cg_load(cg, src->buf, src->e, arr_lin(cg, src, idx, p->axis, j));
  cg_store(cg, line, ET_C128, j, cg_convert(cg, v, src->e, ET_C128));
  cg_loop_end(cg, &l);
  if (!p->hermitian || p->nin >= p->n) return;
  j = cg_loop_begin(cg, &l, cg_i64(cg, p->nin), cg_i64(cg, p->n));
  LLVMValueRef mirror = LLVMBuildSub(cg->b, cg_i64(cg, p->n), j, "");
  v = cg_load(cg, line, ET_C128, mirror);
  cg_store(cg, line, ET_C128, j, conj_(cg, v));
  cg_loop_end(cg, &l);
}

/* sum_{j < len} line[j] * w^(j k mod n) (conjugate twiddles if inverse). */
static LLVMValueRef dft_bin(CG *cg, const Pass *p, LLVMValueRef line, LLVMValueRef tw,
                            int64_t len, LLVMValueRef k) {
  LLVMTypeRef ct = cg_scalar_type(cg, ET_C128);
  LLVMValueRef acc = cg_entry_alloca(cg, ct, "acc"), m = cg_entry_alloca(cg, cg->t_i64, "m");
  LLVMBuildStore(cg->b, LLVMConstNull(ct), acc);
  LLVMBuildStore(cg->b, cg_i64(cg, 0), m);
  CgLoop l;
  LLVMValueRef j = cg_loop_begin(cg, &l, cg_i64(cg, 0), cg_i64(cg, len));
  LLVMValueRef mv = LLVMBuildLoad2(cg->b, cg->t_i64, m, "m");
  LLVMValueRef w = cg_load(cg, tw, ET_C128, mv);
  if (p->inverse) w = conj_(cg, w);
  LLVMValueRef x = cg_load(cg, line, ET_C128, j);
  LLVMValueRef a = LLVMBuildLoad2(cg->b, ct, acc, "");
  LLVMBuildStore(cg->b, cg_complex_mul_add(cg, ET_C128, a, x, w), acc);
  /* m = (m + k) mod n, with m, k < n */
  LLVMValueRef next = LLVMBuildAdd(cg->b, mv, k, "");
  LLVMValueRef wrap = LLVMBuildICmp(cg->b, LLVMIntSGE, next, cg_i64(cg, p->n), "");
  next = LLVMBuildSelect(cg->b, wrap, LLVMBuildSub(cg->b, next, cg_i64(cg, p->n), ""), next, "");
  LLVMBuildStore(cg->b, next, m);
  cg_loop_end(cg, &l);
  LLVMValueRef r = LLVMBuildLoad2(cg->b, ct, acc, "");
  if (!p->inverse) return r;
  LLVMValueRef s = LLVMConstReal(cg->t_f64, 1.0 / (double)p->n);
  LLVMValueRef ss[2] = {s, s};
  return LLVMBuildFMul(cg->b, r, LLVMConstVector(ss, 2), "");
}

/* dst line = DFT(src line) for every line of the slice along p->axis. */
static void transform(CG *cg, const Arr *src, const Arr *dst, const Pass *p,
                      LLVMValueRef line) {
  LLVMValueRef tw = twiddles(cg, p->n);
  LLVMValueRef idx[3] = {cg_i64(cg, 0), cg_i64(cg, 0), cg_i64(cg, 0)};
  CgLoop loops[3];
  int nl = 0;
  for (int d = 0; d < src->L; d++)
    if (d != p->axis && src->dims[d] > 1)
      idx[d] = cg_loop_begin(cg, &loops[nl++], cg_i64(cg, 0), cg_i64(cg, src->dims[d]));
  load_line(cg, src, p, idx, line);
  int64_t len = p->hermitian ? p->n : p->nin;
  CgLoop lk;
  LLVMValueRef k = cg_loop_begin(cg, &lk, cg_i64(cg, 0), cg_i64(cg, p->nout));
  LLVMValueRef v = dft_bin(cg, p, line, tw, len, k);
  LLVMValueRef out = cg_convert(cg, v, ET_C128, dst->e);
  cg_store(cg, dst->buf, dst->e, arr_lin(cg, dst, idx, p->axis, k), out);
  cg_loop_end(cg, &lk);
  while (nl > 0) cg_loop_end(cg, &loops[--nl]);
}

/* ------------------------------------------------------------------------ */
/* The kernel                                                                */

static void copy_slice(CG *cg, const Arr *src, const Arr *dst) {
  CgLoop l;
  LLVMValueRef k = cg_loop_begin(cg, &l, cg_i64(cg, 0), cg_i64(cg, arr_elems(src)));
  LLVMValueRef v = cg_load(cg, src->buf, src->e, LLVMBuildAdd(cg->b, src->base, k, ""));
  LLVMValueRef out = cg_convert(cg, v, src->e, dst->e);
  cg_store(cg, dst->buf, dst->e, LLVMBuildAdd(cg->b, dst->base, k, ""), out);
  cg_loop_end(cg, &l);
}

/* In-place complex transforms of s along axes [lo, hi], in the spec's
 * order: descending for forward transforms, ascending for inverse ones. */
static void in_place(CG *cg, const Arr *s, int lo, int hi, bool inverse,
                     LLVMValueRef line) {
  for (int i = lo; i <= hi; i++) {
    int axis = inverse ? i : hi - (i - lo);
    int64_t n = s->dims[axis];
    Pass p = {axis, n, n, n, inverse, false};
    if (n > 0) transform(cg, s, s, &p, line);
  }
}

/* One batch: in and out are the operand's and the result's slices. */
static void fft_batch(CG *cg, Op *op, Arr *in, Arr *out, const Scratch *sc) {
  int L = in->L, last = L - 1;
  int64_t n = op->a.fft_length.v[last];
  switch (op->a.fft_type) {
  case FFT_FFT: case FFT_IFFT: {
    bool inverse = op->a.fft_type == FFT_IFFT;
    copy_slice(cg, in, out);
    in_place(cg, out, 0, last, inverse, sc->line);
    return;
  }
  case FFT_RFFT: {
    Pass p = {last, n, out->dims[last], n, false, false};
    if (n > 0) transform(cg, in, out, &p, sc->line);
    in_place(cg, out, 0, last - 1, false, sc->line);
    return;
  }
  default: { /* IRFFT */
    Arr s = *in;
    if (L > 1) {
      s.buf = sc->batch;
      s.base = cg_i64(cg, 0);
      s.e = ET_C128;
      copy_slice(cg, in, &s);
      in_place(cg, &s, 0, last - 1, true, sc->line);
    }
    Pass p = {last, in->dims[last], n, n, true, true};
    if (n > 0) transform(cg, &s, out, &p, sc->line);
    return;
  }
  }
}

bool cg_kernel_fft(CG *cg, Op *op) {
  Value *x = op->opnds[0], *r = op->results[0];
  const Type *t = r->type;
  int L = op->a.fft_length.n, nb = t->rank - L;
  Arr in = arr(cg_buffer(cg, x), x->type->elem, NULL, x->type, L);
  Arr out = arr(cg_buffer(cg, r), t->elem, NULL, t, L);
  if (op->a.fft_type == FFT_IRFFT && L > 1 && arr_elems(&in) * 16 > FFT_SCRATCH_MAX) {
    cg_unsupported(cg, op, "IRFFT over more than one dimension this large");
    return true;
  }
  for (int k = 0; k < L; k++)
    if (op->a.fft_length.v[k] * 16 > FFT_SCRATCH_MAX) {
      cg_unsupported(cg, op, "lines longer than 16384 points are not supported yet");
      return true;
    }
  Scratch sc = fft_scratch(cg, op, &in);
  CgLoop loops[nb > 0 ? nb : 1];
  int nl;
  LLVMValueRef batch = cg_batch_begin(cg, r, nb, loops, &nl);
  in.base = LLVMBuildMul(cg->b, batch, cg_i64(cg, arr_elems(&in)), "");
  out.base = LLVMBuildMul(cg->b, batch, cg_i64(cg, arr_elems(&out)), "");
  fft_batch(cg, op, &in, &out, &sc);
  while (nl > 0) cg_loop_end(cg, &loops[--nl]);
  return true;
}
