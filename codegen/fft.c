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
 * Where the intermediate values live (L > 1), so that every result is
 * rounded to its element type once: in the result buffer for FFT, IFFT
 * and RFFT with complex<f64> results (complex, of the shape of every
 * intermediate; RFFT's first, real to complex, transform keeps bins 0..n/2
 * of the last dimension); in complex<f64> scratch of one batch (bounded by
 * FFT_BATCH_MAX bytes) for complex<f32> results and for IRFFT, whose
 * intermediates are complex of the operand's shape, larger than its real
 * result (with L = 1 its one transform reads the operand directly).
 * Complex<f32> intermediates kept in the result were rounded after each
 * transform: results up to 9369 ulp from numpy's float64 transform rounded
 * once (3-D FFT of 2x15x16x17 complex<f32>, tests/run/fft_numpy.mlir; 0
 * ulp in scratch). IRFFT's last transform extends each line to n bins by
 * Hermitian symmetry (X[n - k] = conj(X[k])) and keeps the real part,
 * which ignores the imaginary parts of bins 0 and n/2 as pocketfft and
 * XLA do.
 */
#include <math.h>
#include <stdlib.h>

#include "codegen.h"

/* The scratch (the line, the intermediates) is the kernel's in the temp
 * arena (ir_kernel_scratch_bytes plans it; no malloc), one slice per
 * thread: at most 256 KiB for a line (16384 complex<f64> points; the
 * O(n^2) DFT is slow beyond that anyway) and 64 MiB for one batch of
 * intermediates (4 Mi complex<f64> points: a 2048 x 2048 transform, whose
 * O(n^2) passes make 17 G complex multiply-adds). */
enum { FFT_SCRATCH_MAX = 256 << 10, FFT_BATCH_MAX = 64 << 20 };

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

/* The kernel's scratch (ir_fft_scratch_bytes): a line of the longest
 * transform, then (where ir_fft_intermediates_in_scratch) one batch of
 * intermediates. */
typedef struct Scratch {
  LLVMValueRef line, batch;
} Scratch;

static Scratch fft_scratch(CG *cg, Op *op) {
  int64_t line;
  LLVMValueRef base = cg_scratch(cg, op, ir_fft_scratch_bytes(op, &line));
  Scratch s = {base, ir_fft_intermediates_in_scratch(op) ? cg_gep(cg, cg->t_i8, base, cg_i64(cg, line))
                                                         : NULL};
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

/* Complex transforms of s along axes [lo, hi] in the spec's order
 * (descending for forward transforms, ascending for inverse ones), in
 * place except that the last one writes dst (which may be s). */
static void complex_passes(CG *cg, const Arr *s, const Arr *dst, int lo, int hi,
                           bool inverse, LLVMValueRef line) {
  for (int i = lo; i <= hi; i++) {
    int axis = inverse ? i : hi - (i - lo);
    int64_t n = s->dims[axis];
    Pass p = {axis, n, n, n, inverse, false};
    if (n > 0) transform(cg, s, i == hi ? dst : s, &p, line);
  }
}

/* One batch: in and out are the operand's and the result's slices, work
 * the intermediates' (out itself, or the complex<f64> scratch). */
static void fft_batch(CG *cg, Op *op, const Arr *in, const Arr *out, const Arr *work,
                      LLVMValueRef line) {
  int L = in->L, last = L - 1;
  int64_t n = op->a.fft_length.v[last];
  switch (op->a.fft_type) {
  case FFT_FFT: case FFT_IFFT: {
    bool inverse = op->a.fft_type == FFT_IFFT;
    copy_slice(cg, in, work);
    complex_passes(cg, work, out, 0, last, inverse, line);
    return;
  }
  case FFT_RFFT: {
    Pass p = {last, n, out->dims[last], n, false, false};
    if (n > 0) transform(cg, in, L > 1 ? work : out, &p, line);
    complex_passes(cg, work, out, 0, last - 1, false, line);
    return;
  }
  default: { /* IRFFT */
    const Arr *s = in;
    if (L > 1) {
      copy_slice(cg, in, work);
      complex_passes(cg, work, work, 0, last - 1, true, line);
      s = work;
    }
    Pass p = {last, in->dims[last], n, n, true, true};
    if (n > 0) transform(cg, s, out, &p, line);
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
  bool scratch = ir_fft_intermediates_in_scratch(op);
  Arr work = op->a.fft_type == FFT_IRFFT ? in : out;
  if (scratch && arr_elems(&work) * 16 > FFT_BATCH_MAX) {
    cg_unsupported(cg, op,
                   "transforms over several dimensions keep complex<f64> intermediates "
                   "(complex<f32> results, irfft: 16 bytes a point of a batch, in the temp "
                   "buffer); more than 4 Mi points a batch (64 MiB) are not supported");
    return true;
  }
  for (int k = 0; k < L; k++)
    if (op->a.fft_length.v[k] * 16 > FFT_SCRATCH_MAX) {
      cg_unsupported(cg, op, "lines longer than 16384 points are not supported yet");
      return true;
    }
  Scratch sc = fft_scratch(cg, op);
  CgLoop loops[nb > 0 ? nb : 1];
  int nl;
  LLVMValueRef batch = cg_batch_begin(cg, r, nb, loops, &nl);
  in.base = LLVMBuildMul(cg->b, batch, cg_i64(cg, arr_elems(&in)), "");
  out.base = LLVMBuildMul(cg->b, batch, cg_i64(cg, arr_elems(&out)), "");
  if (scratch) {
    work.buf = sc.batch;
    work.base = cg_i64(cg, 0);
    work.e = ET_C128;
  } else {
    work = out;
  }
  fft_batch(cg, op, &in, &out, &work, sc.line);
  while (nl > 0) cg_loop_end(cg, &loops[--nl]);
  return true;
}
