/*
 * dot.c: dot_general (spec "dot_general"), and the blocked GEMM kernel that
 * also runs convolutions.
 *
 *  - cg_gen_dot, the elemental generator: one result element is a loop over
 *    the contracting dimensions accumulating lhs * rhs in the accumulation
 *    type (the result type; f32 for f16/bf16 results, rounded at the end).
 *    It handles every element type and layout, and runs when the dot is
 *    fused or when the blocked kernel does not apply.
 *  - cg_kernel_dot, for f32/f64 dots whose free and contracting dimensions
 *    each collapse to one strided dimension (any batch dimensions): a GEMM
 *    C[b] = A[b] * B[b] (M x K times K x N) blocked the Goto/BLIS way,
 *    emitted into the kernel function for the part of the result that one
 *    call computes (kernel.c splits result dimension 0 across threads):
 *
 *      for each batch b, block of MC rows ic:
 *        for pc in K step KC:
 *          pack A[ic:ic+MC, pc:pc+KC] into Ap (only if A is K-strided)
 *          for jr in N step NR:
 *            pack B[pc:pc+KC, jr:jr+NR] into Bp (k-major rows of NR)
 *            for each MR rows of the block:
 *              micro: C[MR x NR] (+)= A[MR x KC] * Bp, in registers
 *
 *    Bp (KC x NR, 32 KiB for f32 on AVX-512) stays in L1 across the rows of
 *    the block. When A is contiguous along K the microkernel reads its MR
 *    rows in place through row pointers (no packing: measured as fast for
 *    square GEMMs and much faster when N is small); else A is packed into
 *    Ap (MC x KC, in L2). Scratch is fixed-size allocas (the generated code
 *    never allocates): 32 KiB, plus 144 KiB for Ap when A is packed.
 *    The microkernel keeps MR x NV vector accumulators (NR = NV * VL lanes),
 *    does one broadcast of A and NV loads of B per k with llvm.fma, and
 *    stores edge tiles with row checks and masked vector stores; packing
 *    pads partial panels with zeros so the k loop never has edges.
 *  - cg_kernel_conv: convolution as an implicit GEMM on the same
 *    microkernel (see its section at the end).
 */
#include <stdlib.h>
#include <string.h>

#include "codegen.h"

/* ------------------------------------------------------------------------ */
/* Scalar multiply-add shared with convolution                               */

ElemType cg_dot_acc_type(ElemType result) {
  if (result == ET_F16 || result == ET_BF16 || cg_is_small_float(result)) return ET_F32;
  return result;
}

/* acc + a * b in the accumulation type e: for booleans `or`/`and` (spec
 * "dot_general": the reduce of multiply with add, which are or/and on i1).
 * The float add may be reassociated (the reduce order is
 * implementation-defined). */
LLVMValueRef cg_mul_add(CG *cg, ElemType e, LLVMValueRef acc, LLVMValueRef a,
                        LLVMValueRef b) {
  if (elem_class(e) == 'b')
    return LLVMBuildOr(cg->b, acc, LLVMBuildAnd(cg->b, a, b, ""), "");
  if (elem_is_complex(e)) return cg_complex_mul_add(cg, e, acc, a, b);
  if (!elem_is_float(e))
    return LLVMBuildAdd(cg->b, acc, LLVMBuildMul(cg->b, a, b, ""), "");
  LLVMValueRef s =
      LLVMBuildFAdd(cg->b, acc, LLVMBuildFMul(cg->b, a, b, ""), "");
  LLVMSetFastMathFlags(s, LLVMFastMathAllowReassoc);
  return s;
}

/* ------------------------------------------------------------------------ */
/* Elemental generator                                                       */

static bool in_list(const I64List *l, int64_t d) {
  for (int i = 0; i < l->n; i++)
    if (l->v[i] == d) return true;
  return false;
}

/* Fills the free dimensions of an operand's index from the result index,
 * starting at result position `pos`; returns the next position. */
static int fill_free(const Type *t, const I64List *batch,
                     const I64List *contract, LLVMValueRef *oidx,
                     LLVMValueRef *idx, int pos) {
  for (int d = 0; d < t->rank; d++)
    if (!in_list(batch, d) && !in_list(contract, d)) oidx[d] = idx[pos++];
  return pos;
}

void cg_gen_dot(CG *cg, Op *op, LLVMValueRef *idx, LLVMValueRef *out) {
  const DotDims *dd = &op->a.dot;
  Value *lhs = op->opnds[0], *rhs = op->opnds[1];
  const Type *lt = lhs->type, *rt = rhs->type;
  ElemType re = op->results[0]->type->elem, ae = cg_dot_acc_type(re);
  LLVMTypeRef at = cg_scalar_type(cg, ae);
  LLVMValueRef lidx[lt->rank > 0 ? lt->rank : 1];
  LLVMValueRef ridx[rt->rank > 0 ? rt->rank : 1];

  /* result_index = batch + lhs free + rhs free (spec (C12)) */
  for (int i = 0; i < dd->lhs_batch.n; i++) {
    lidx[dd->lhs_batch.v[i]] = idx[i];
    ridx[dd->rhs_batch.v[i]] = idx[i];
  }
  int pos = fill_free(lt, &dd->lhs_batch, &dd->lhs_contract, lidx, idx,
                      dd->lhs_batch.n);
  fill_free(rt, &dd->rhs_batch, &dd->rhs_contract, ridx, idx, pos);

  LLVMValueRef acc = cg_entry_alloca(cg, at, "dacc");
  LLVMBuildStore(cg->b, LLVMConstNull(at), acc);
  int nc = dd->lhs_contract.n;
  CgLoop loops[nc > 0 ? nc : 1];
  int nloops = 0;
  for (int i = 0; i < nc; i++) {
    int64_t n = lt->dims[dd->lhs_contract.v[i]];
    LLVMValueRef k = n == 1 ? cg_i64(cg, 0)
                            : cg_loop_begin(cg, &loops[nloops++],
                                            cg_i64(cg, 0), cg_i64(cg, n));
    lidx[dd->lhs_contract.v[i]] = k;
    ridx[dd->rhs_contract.v[i]] = k;
  }
  /* Operands are converted to the accumulation type first, which also
   * covers operand element types that differ from the result's. */
  LLVMValueRef a =
      cg_convert(cg, cg_value_at(cg, lhs, lidx), lt->elem, ae);
  LLVMValueRef b =
      cg_convert(cg, cg_value_at(cg, rhs, ridx), rt->elem, ae);
  LLVMValueRef s = LLVMBuildLoad2(cg->b, at, acc, "");
  LLVMBuildStore(cg->b, cg_mul_add(cg, ae, s, a, b), acc);
  while (nloops > 0) cg_loop_end(cg, &loops[--nloops]);
  LLVMValueRef r = LLVMBuildLoad2(cg->b, at, acc, "dot");
  out[0] = cg_convert(cg, r, ae, re);
}

/* ------------------------------------------------------------------------ */
/* Blocked kernel: the plan                                                  */

#define DOT_MAX_BATCH 8

typedef struct DotPlan {
  ElemType e;
  int64_t nbatch, M, N, K;
  int nbd, nfl, nfr;                   /* batch, lhs free, rhs free dims */
  int64_t bdim[DOT_MAX_BATCH];         /* their sizes */
  int64_t bsa[DOT_MAX_BATCH], bsb[DOT_MAX_BATCH]; /* lhs/rhs strides */
  int64_t sam, sak, sbk, sbn;          /* element strides of A(m,k), B(k,n) */
  int vl, nv, mr, nr;                  /* lanes, vectors per row, tile */
  int64_t kc, mc;                      /* cache blocks */
  bool direct_a;                       /* micro reads A in place */
} DotPlan;

/* Collapses dims[0..n) of t (row-major over them) into one dimension of
 * size *size and element stride *stride; false when they are not evenly
 * strided. Size-1 dimensions are ignored. */
static bool collapse(const Type *t, const int64_t *dims, int n, int64_t *size,
                     int64_t *stride) {
  int64_t st[t->rank > 0 ? t->rank : 1];
  ir_strides(t, st);
  *size = 1;
  *stride = 0;
  int64_t expect = -1; /* stride the next outer dimension must have */
  for (int i = n - 1; i >= 0; i--) {
    int64_t d = dims[i], sz = t->dims[d];
    if (sz == 1) continue;
    if (expect >= 0 && st[d] != expect) return false;
    if (expect < 0) *stride = st[d];
    expect = st[d] * sz;
    *size *= sz;
  }
  return true;
}

/* The free dimensions of an operand, ascending (spec:
 * lhs_result_dimensions / rhs_result_dimensions). */
static int free_dims(const Type *t, const I64List *batch,
                     const I64List *contract, int64_t *out) {
  int n = 0;
  for (int d = 0; d < t->rank; d++)
    if (!in_list(batch, d) && !in_list(contract, d)) out[n++] = d;
  return n;
}

static bool plan_shapes(Op *op, DotPlan *p) {
  const DotDims *dd = &op->a.dot;
  const Type *lt = op->opnds[0]->type, *rt = op->opnds[1]->type;
  int64_t fl[8], fr[8], kl, kr;
  if (lt->rank > 8 || rt->rank > 8 || dd->lhs_batch.n > DOT_MAX_BATCH)
    return false;
  p->nfl = free_dims(lt, &dd->lhs_batch, &dd->lhs_contract, fl);
  p->nfr = free_dims(rt, &dd->rhs_batch, &dd->rhs_contract, fr);
  int64_t m2;
  if (!collapse(lt, fl, p->nfl, &p->M, &p->sam)) return false;
  if (!collapse(rt, fr, p->nfr, &p->N, &p->sbn)) return false;
  if (!collapse(lt, dd->lhs_contract.v, dd->lhs_contract.n, &p->K, &kl))
    return false;
  if (!collapse(rt, dd->rhs_contract.v, dd->rhs_contract.n, &m2, &kr))
    return false;
  p->sak = kl;
  p->sbk = kr;
  int64_t sl[8], sr[8];
  ir_strides(lt, sl);
  ir_strides(rt, sr);
  p->nbd = dd->lhs_batch.n;
  p->nbatch = 1;
  for (int i = 0; i < p->nbd; i++) {
    p->bdim[i] = lt->dims[dd->lhs_batch.v[i]];
    p->bsa[i] = sl[dd->lhs_batch.v[i]];
    p->bsb[i] = sr[dd->rhs_batch.v[i]];
    p->nbatch *= p->bdim[i];
  }
  return true;
}

/* Tile and block sizes. The microkernel keeps MR x NV vector accumulators
 * plus NV vectors of B in registers: 6 x 4 (24 + 4 of 32 registers) with
 * AVX-512, 6 x 2 (12 + 2 of 16) otherwise. KC x NR of Bp stays in L1 and
 * a block of MC rows of A in L2; a larger MC packs B fewer times (measured
 * on a Sapphire Rapids core: MC 288, KC 128 reach the speed of OpenBLAS
 * sgemm at 1024^3). */
static void plan_tiles(CG *cg, DotPlan *p) {
  int vbytes = cg_vector_bytes(cg);
  p->vl = vbytes / elem_bytes(p->e);
  p->mr = 6;
  p->nv = vbytes == 64 ? 4 : 2;
  p->nr = p->nv * p->vl;
  p->kc = p->K < 128 ? (p->K > 0 ? p->K : 1) : 128;
  p->direct_a = p->sak == 1;
  /* Ap, when used, at most 144 KiB: 288 rows of f32, 144 of f64. */
  p->mc = 147456 / (p->kc * elem_bytes(p->e)) / p->mr * p->mr;
  if (p->mc > 48 * p->mr) p->mc = 48 * p->mr;
  if (p->mc < p->mr) p->mc = p->mr;
}

/* ------------------------------------------------------------------------ */
/* Blocked kernel: LLVM helpers                                              */

typedef struct DotGen {
  CG *cg;
  DotPlan p;
  LLVMTypeRef t, vt; /* element and vector types */
  Op *op;            /* the dot_general or convolution */
  Op *epi;           /* its epilogue root (cg_kernel_dot), or NULL */
  int ncols;         /* result dims spanned by the columns of C */
} DotGen;

static LLVMValueRef i64c(DotGen *g, int64_t v) { return cg_i64(g->cg, v); }

static LLVMValueRef gep(DotGen *g, LLVMTypeRef t, LLVMValueRef p,
                        LLVMValueRef off) {
  return LLVMBuildInBoundsGEP2(g->cg->b, t, p, &off, 1, "");
}

static LLVMValueRef min64(DotGen *g, LLVMValueRef a, LLVMValueRef b) {
  return LLVMBuildSelect(g->cg->b, LLVMBuildICmp(g->cg->b, LLVMIntSLT, a, b, ""), a, b,
                         "min");
}

static LLVMValueRef vload(DotGen *g, LLVMValueRef p, unsigned align) {
  LLVMValueRef v = LLVMBuildLoad2(g->cg->b, g->vt, p, "");
  LLVMSetAlignment(v, align);
  return v;
}

static void vstore(DotGen *g, LLVMValueRef v, LLVMValueRef p, unsigned align) {
  LLVMValueRef s = LLVMBuildStore(g->cg->b, v, p);
  LLVMSetAlignment(s, align);
}

/* ------------------------------------------------------------------------ */
/* Blocked kernel: the microkernel                                           */

#define MAX_MR 16

typedef struct Micro {
  LLVMValueRef ap, bp, c, ldc, kc, rows, cols, first;
  bool ind;                 /* A rows through pointers (else packed Ap) */
  LLVMValueRef arow[MAX_MR]; /* ind: A(r, 0) of each row */
} Micro;

/* A(r, k): Ap[k*MR + r] packed, or arow[r][k] through row pointers. */
static LLVMValueRef micro_a(DotGen *g, Micro *m, LLVMValueRef k, int r) {
  const DotPlan *p = &g->p;
  LLVMValueRef ptr =
      m->ind ? gep(g, g->t, m->arow[r], k)
             : gep(g, g->t, m->ap,
                   LLVMBuildAdd(g->cg->b, LLVMBuildMul(g->cg->b, k, i64c(g, p->mr), ""),
                                i64c(g, r), ""));
  return LLVMBuildLoad2(g->cg->b, g->t, ptr, "a");
}

/* acc[r][v] += A(r, k) * Bp[k][v*VL ...] for one k. */
static void micro_step(DotGen *g, Micro *m, LLVMValueRef k, LLVMValueRef *acc) {
  const DotPlan *p = &g->p;
  unsigned valign = (unsigned)elem_bytes(p->e);
  LLVMValueRef bv[8];
  LLVMValueRef boff = LLVMBuildMul(g->cg->b, k, i64c(g, p->nr), "");
  for (int v = 0; v < p->nv; v++)
    bv[v] = vload(g, gep(g, g->t, m->bp, LLVMBuildAdd(g->cg->b, boff,
                                                      i64c(g, v * p->vl), "")),
                  valign);
  LLVMValueRef zero_mask = LLVMConstNull(
      LLVMVectorType(g->cg->t_i32, (unsigned)p->vl));
  for (int r = 0; r < p->mr; r++) {
    LLVMValueRef a = micro_a(g, m, k, r);
    LLVMValueRef s = LLVMBuildInsertElement(g->cg->b, LLVMGetUndef(g->vt), a,
                                            LLVMConstInt(g->cg->t_i32, 0, 0), "");
    s = LLVMBuildShuffleVector(g->cg->b, s, LLVMGetUndef(g->vt), zero_mask, "bc");
    for (int v = 0; v < p->nv; v++) {
      LLVMValueRef args[3] = {s, bv[v], acc[r * p->nv + v]};
      acc[r * p->nv + v] = cg_intrinsic(g->cg->b, "llvm.fma", &g->vt, 1, args, 3);
    }
  }
}

/* A loop over k in [lo, hi) stepping `unroll` k's per iteration, with the
 * accumulators as phis. Returns with the builder after the loop and acc
 * holding the values at exit; *k_exit is the first k not done. */
static void micro_loop(DotGen *g, Micro *m, LLVMValueRef lo, LLVMValueRef hi,
                       int unroll, LLVMValueRef *acc, LLVMValueRef *k_exit) {
  const DotPlan *p = &g->p;
  int na = p->mr * p->nv;
  LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(g->cg->b));
  LLVMBasicBlockRef pre = LLVMGetInsertBlock(g->cg->b);
  LLVMBasicBlockRef hdr = LLVMAppendBasicBlockInContext(g->cg->ctx, fn, "k.h");
  LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(g->cg->ctx, fn, "k.b");
  LLVMBasicBlockRef exit = LLVMAppendBasicBlockInContext(g->cg->ctx, fn, "k.x");
  LLVMBuildBr(g->cg->b, hdr);
  LLVMPositionBuilderAtEnd(g->cg->b, hdr);
  LLVMValueRef k = LLVMBuildPhi(g->cg->b, g->cg->t_i64, "k");
  LLVMAddIncoming(k, &lo, &pre, 1);
  LLVMValueRef phis[na];
  for (int i = 0; i < na; i++) {
    phis[i] = LLVMBuildPhi(g->cg->b, g->vt, "acc");
    LLVMAddIncoming(phis[i], &acc[i], &pre, 1);
  }
  LLVMValueRef kend = LLVMBuildAdd(g->cg->b, k, i64c(g, unroll), "");
  LLVMBuildCondBr(g->cg->b, LLVMBuildICmp(g->cg->b, LLVMIntSLE, kend, hi, ""), body,
                  exit);
  LLVMPositionBuilderAtEnd(g->cg->b, body);
  LLVMValueRef cur[na];
  memcpy(cur, phis, sizeof cur);
  for (int u = 0; u < unroll; u++)
    micro_step(g, m, LLVMBuildAdd(g->cg->b, k, i64c(g, u), ""), cur);
  LLVMBasicBlockRef latch = LLVMGetInsertBlock(g->cg->b);
  LLVMAddIncoming(k, &kend, &latch, 1);
  for (int i = 0; i < na; i++) LLVMAddIncoming(phis[i], &cur[i], &latch, 1);
  LLVMBuildBr(g->cg->b, hdr);
  LLVMPositionBuilderAtEnd(g->cg->b, exit);
  memcpy(acc, phis, sizeof phis);
  *k_exit = k;
}

/* Lane mask of vector v of a row: lanes v*VL + j < cols. */
static LLVMValueRef col_mask(DotGen *g, LLVMValueRef cols, int v) {
  int vl = g->p.vl;
  LLVMValueRef lanes[64];
  for (int j = 0; j < vl; j++) lanes[j] = i64c(g, v * vl + j);
  LLVMTypeRef vi = LLVMVectorType(g->cg->t_i64, (unsigned)vl);
  LLVMValueRef s = LLVMBuildInsertElement(g->cg->b, LLVMGetUndef(vi), cols,
                                          LLVMConstInt(g->cg->t_i32, 0, 0), "");
  s = LLVMBuildShuffleVector(
      g->cg->b, s, LLVMGetUndef(vi),
      LLVMConstNull(LLVMVectorType(g->cg->t_i32, (unsigned)vl)), "");
  return LLVMBuildICmp(g->cg->b, LLVMIntULT, LLVMConstVector(lanes, (unsigned)vl),
                       s, "cmask");
}

/* Starts fetching the C tile (for writing) so that its cache misses
 * overlap the k loop instead of stalling the stores after it. */
static void micro_prefetch_c(DotGen *g, Micro *m) {
  const DotPlan *p = &g->p;
  LLVMTypeRef pt = g->cg->t_ptr;
  int64_t row_bytes = (int64_t)p->nr * elem_bytes(p->e);
  for (int r = 0; r < p->mr; r++) {
    LLVMValueRef row = LLVMBuildMul(g->cg->b, i64c(g, r), m->ldc, "");
    for (int64_t off = 0; off < row_bytes; off += 64) {
      LLVMValueRef idx =
          LLVMBuildAdd(g->cg->b, row, i64c(g, off / elem_bytes(p->e)), "");
      /* not inbounds: an edge tile may reach past the end of C */
      LLVMValueRef ptr = LLVMBuildGEP2(g->cg->b, g->t, m->c, &idx, 1, "");
      LLVMValueRef a[4] = {ptr, LLVMConstInt(g->cg->t_i32, 1, 0),
                           LLVMConstInt(g->cg->t_i32, 3, 0),
                           LLVMConstInt(g->cg->t_i32, 1, 0)};
      cg_intrinsic(g->cg->b, "llvm.prefetch", &pt, 1, a, 4);
    }
  }
}

/* C[r][v] = (first ? 0 : C[r][v]) + acc, unmasked (full tile) or masked by
 * rows and cols (edge tile). */
static void micro_store(DotGen *g, Micro *m, LLVMValueRef *acc, bool edge) {
  const DotPlan *p = &g->p;
  unsigned ea = (unsigned)elem_bytes(p->e);
  LLVMTypeRef tys[2] = {g->vt, g->cg->t_ptr};
  LLVMValueRef zero = LLVMConstNull(g->vt);
  for (int r = 0; r < p->mr; r++) {
    CgIf row_in;
    if (edge) cg_if_begin(g->cg, &row_in, LLVMBuildICmp(g->cg->b, LLVMIntSLT, i64c(g, r), m->rows, ""));
    LLVMValueRef row = LLVMBuildMul(g->cg->b, i64c(g, r), m->ldc, "");
    for (int v = 0; v < p->nv; v++) {
      LLVMValueRef idx = LLVMBuildAdd(g->cg->b, row, i64c(g, v * p->vl), "");
      /* not inbounds: a masked-off vector may start past the end of C */
      LLVMValueRef ptr = LLVMBuildGEP2(g->cg->b, g->t, m->c, &idx, 1, "");
      LLVMValueRef old, mask = NULL;
      if (edge) {
        mask = col_mask(g, m->cols, v);
        LLVMValueRef a[4] = {ptr, LLVMConstInt(g->cg->t_i32, ea, 0), mask, zero};
        old = cg_intrinsic(g->cg->b, "llvm.masked.load", tys, 2, a, 4);
      } else {
        old = vload(g, ptr, ea);
      }
      old = LLVMBuildSelect(g->cg->b, m->first, zero, old, "");
      LLVMValueRef sum = LLVMBuildFAdd(g->cg->b, old, acc[r * p->nv + v], "");
      if (edge) {
        LLVMValueRef a[4] = {sum, ptr, LLVMConstInt(g->cg->t_i32, ea, 0), mask};
        cg_intrinsic(g->cg->b, "llvm.masked.store", tys, 2, a, 4);
      } else {
        vstore(g, sum, ptr, ea);
      }
    }
    if (edge) cg_if_end(g->cg, &row_in);
  }
}

/* void micro(ptr a, ptr bp, ptr c, i64 ldc, i64 kc, i64 rows, i64 cols,
 *            i1 first), internal, one per (element type, tile, A mode) per
 * module. `a` is the packed Ap panel, or with `ind` an array of MR row
 * pointers (rows past `rows` must point at readable memory, e.g. zeros). */
static LLVMValueRef micro_fn(DotGen *g, bool ind) {
  const DotPlan *p = &g->p;
  CG *cg = g->cg;
  char name[64];
  snprintf(name, sizeof name, "shloc_%s_gemm%s_%dx%d", elem_name(p->e),
           ind ? "_ind" : "", p->mr, p->nr);
  LLVMValueRef f = LLVMGetNamedFunction(cg->mod, name);
  if (f) return f;
  LLVMTypeRef pt[8] = {cg->t_ptr, cg->t_ptr, cg->t_ptr, cg->t_i64,
                       cg->t_i64, cg->t_i64, cg->t_i64, cg->t_i1};
  f = LLVMAddFunction(cg->mod, name, LLVMFunctionType(cg->t_void, pt, 8, 0));
  LLVMSetLinkage(f, LLVMInternalLinkage);
  cg_set_fn_attrs(cg, f);
  CgFnState saved = cg_save_fn(cg);
  cg->llfn = f;
  LLVMPositionBuilderAtEnd(cg->b, LLVMAppendBasicBlockInContext(cg->ctx, f, "entry"));
  Micro m = {LLVMGetParam(f, 0), LLVMGetParam(f, 1), LLVMGetParam(f, 2),
             LLVMGetParam(f, 3), LLVMGetParam(f, 4), LLVMGetParam(f, 5),
             LLVMGetParam(f, 6), LLVMGetParam(f, 7), ind, {0}};
  for (int r = 0; ind && r < p->mr; r++)
    m.arow[r] = LLVMBuildLoad2(g->cg->b, cg->t_ptr,
                               gep(g, cg->t_ptr, m.ap, i64c(g, r)), "arow");
  int na = p->mr * p->nv;
  LLVMValueRef acc[na], k;
  for (int i = 0; i < na; i++) acc[i] = LLVMConstNull(g->vt);
  micro_prefetch_c(g, &m);
  micro_loop(g, &m, i64c(g, 0), m.kc, 4, acc, &k);
  micro_loop(g, &m, k, m.kc, 1, acc, &k);
  LLVMValueRef full = LLVMBuildAnd(
      g->cg->b, LLVMBuildICmp(g->cg->b, LLVMIntEQ, m.rows, i64c(g, p->mr), ""),
      LLVMBuildICmp(g->cg->b, LLVMIntEQ, m.cols, i64c(g, p->nr), ""), "full");
  CgIf tile;
  cg_if_begin(cg, &tile, full);
  micro_store(g, &m, acc, false);
  cg_if_else(cg, &tile);
  micro_store(g, &m, acc, true);
  cg_if_end(cg, &tile);
  LLVMBuildRetVoid(cg->b);
  cg_restore_fn(cg, &saved);
  return f;
}

/* ------------------------------------------------------------------------ */
/* Blocked kernel: packing                                                   */

/* dst[k*ld + j] = src[j*sj + k*sk] for j < nvalid, 0 for nvalid <= j < ld,
 * k < kc: the transposing copy both packings reduce to. The k loop is
 * innermost, so reads are contiguous when sk is 1. */
static void pack_strided(DotGen *g, LLVMValueRef dst, int64_t ld,
                         LLVMValueRef src, int64_t sj, int64_t sk,
                         LLVMValueRef nvalid, LLVMValueRef kc) {
  CgLoop lj, lk, lz;
  LLVMValueRef j = cg_loop_step(g->cg, &lj, i64c(g, 0), i64c(g, ld), 1);
  LLVMValueRef d = gep(g, g->t, dst, j);
  CgIf valid;
  cg_if_begin(g->cg, &valid, LLVMBuildICmp(g->cg->b, LLVMIntSLT, j, nvalid, ""));
  LLVMValueRef s = gep(g, g->t, src, LLVMBuildMul(g->cg->b, j, i64c(g, sj), ""));
  LLVMValueRef k = cg_loop_step(g->cg, &lk, i64c(g, 0), kc, 1);
  LLVMValueRef x = LLVMBuildLoad2(
      g->cg->b, g->t, gep(g, g->t, s, LLVMBuildMul(g->cg->b, k, i64c(g, sk), "")), "");
  LLVMBuildStore(g->cg->b, x, gep(g, g->t, d, LLVMBuildMul(g->cg->b, k, i64c(g, ld), "")));
  cg_loop_end(g->cg, &lk);
  cg_if_else(g->cg, &valid);
  k = cg_loop_step(g->cg, &lz, i64c(g, 0), kc, 1);
  LLVMBuildStore(g->cg->b, LLVMConstNull(g->t),
                 gep(g, g->t, d, LLVMBuildMul(g->cg->b, k, i64c(g, ld), "")));
  cg_loop_end(g->cg, &lz);
  cg_if_end(g->cg, &valid);
  cg_loop_end(g->cg, &lj);
}

/* Ap[(panel*kc + k)*MR + r] = A(panel*MR + r, k), zero past mc; a points
 * at A(ic, pc). */
static void pack_a(DotGen *g, LLVMValueRef ap, LLVMValueRef a, LLVMValueRef mc,
                   LLVMValueRef kc) {
  const DotPlan *p = &g->p;
  CgLoop lp;
  LLVMValueRef row = cg_loop_step(g->cg, &lp, i64c(g, 0), mc, p->mr);
  LLVMValueRef dst = gep(g, g->t, ap, LLVMBuildMul(g->cg->b, row, kc, ""));
  LLVMValueRef src = gep(g, g->t, a, LLVMBuildMul(g->cg->b, row, i64c(g, p->sam), ""));
  LLVMValueRef rows = LLVMBuildSub(g->cg->b, mc, row, "");
  pack_strided(g, dst, p->mr, src, p->sam, p->sak, rows, kc);
  cg_loop_end(g->cg, &lp);
}

/* Rows of B lie a whole row apart, which defeats the hardware prefetcher:
 * while packing a row of this panel, fetch the same row of the next panel
 * into L2 (a prefetch past the end of B is harmless). */
static void prefetch_next_panel(DotGen *g, LLVMValueRef src) {
  const DotPlan *p = &g->p;
  LLVMTypeRef pt = g->cg->t_ptr;
  int64_t bytes = (int64_t)p->nr * elem_bytes(p->e);
  for (int64_t off = 0; off < bytes; off += 64) {
    LLVMValueRef idx = i64c(g, p->nr + off / elem_bytes(p->e));
    LLVMValueRef a[4] = {
        LLVMBuildGEP2(g->cg->b, g->t, src, &idx, 1, ""), /* not inbounds */
        LLVMConstInt(g->cg->t_i32, 0, 0), LLVMConstInt(g->cg->t_i32, 2, 0),
        LLVMConstInt(g->cg->t_i32, 1, 0)};
    cg_intrinsic(g->cg->b, "llvm.prefetch", &pt, 1, a, 4);
  }
}

/* Bp[k*NR + j] = B(k, j) for j < nr, zero beyond; b points at B(pc, jr).
 * Full panels of an N-contiguous B are copied as vectors. */
static void pack_b(DotGen *g, LLVMValueRef bp, LLVMValueRef b, LLVMValueRef nr,
                   LLVMValueRef kc) {
  const DotPlan *p = &g->p;
  unsigned ea = (unsigned)elem_bytes(p->e);
  unsigned va = (unsigned)(p->vl * elem_bytes(p->e));
  CgLoop lk;
  CgIf full;
  bool vec = p->sbn == 1;
  if (vec) {
    cg_if_begin(g->cg, &full, LLVMBuildICmp(g->cg->b, LLVMIntEQ, nr, i64c(g, p->nr), ""));
    LLVMValueRef k = cg_loop_step(g->cg, &lk, i64c(g, 0), kc, 1);
    LLVMValueRef src = gep(g, g->t, b, LLVMBuildMul(g->cg->b, k, i64c(g, p->sbk), ""));
    LLVMValueRef dst = gep(g, g->t, bp, LLVMBuildMul(g->cg->b, k, i64c(g, p->nr), ""));
    for (int v = 0; v < p->nv; v++) {
      LLVMValueRef x = vload(g, gep(g, g->t, src, i64c(g, v * p->vl)), ea);
      vstore(g, x, gep(g, g->t, dst, i64c(g, v * p->vl)), va);
    }
    prefetch_next_panel(g, src);
    cg_loop_end(g->cg, &lk);
    cg_if_else(g->cg, &full);
  }
  pack_strided(g, bp, p->nr, b, p->sbn, p->sbk, nr, kc);
  if (vec) cg_if_end(g->cg, &full);
}

/* ------------------------------------------------------------------------ */
/* Blocked kernel: the epilogue                                              */

/* Writes the result index of linear offset q (row-major over dims [lo, hi)
 * of t) into idx[lo .. hi). */
static void unflatten(DotGen *g, const Type *t, int lo, int hi, LLVMValueRef q,
                      LLVMValueRef *idx) {
  for (int d = hi - 1; d >= lo; d--) {
    LLVMValueRef n = i64c(g, t->dims[d]);
    idx[d] = d == lo ? q : LLVMBuildURem(g->cg->b, q, n, "");
    q = LLVMBuildUDiv(g->cg->b, q, n, "");
  }
}

/* The epilogue on a finished part of C: rows [row0, row0 + nrows) (rows
 * of the result viewed as (batch * M) x N) and columns [c0, c1). Each
 * element becomes the value of g->epi with the dot bound to it, in place
 * in epi's buffer; the block was just written, so it is read from cache.
 * The column loop is innermost and unit-stride for the vectorizer. */
static void epilogue(DotGen *g, LLVMValueRef row0, LLVMValueRef nrows,
                     LLVMValueRef c0, LLVMValueRef c1) {
  if (!g->epi) return;
  CG *cg = g->cg;
  Value *dv = g->op->results[0], *rv = g->epi->results[0];
  const Type *t = rv->type;
  int rank = t->rank, nrd = rank - g->ncols;
  LLVMValueRef C = cg_buffer(cg, rv);
  LLVMValueRef idx[rank > 0 ? rank : 1], out[1];
  CgLoop li, lj;
  LLVMValueRef i = cg_loop_begin(cg, &li, i64c(g, 0), nrows);
  LLVMValueRef row = LLVMBuildAdd(g->cg->b, row0, i, "row");
  if (nrd > 0) unflatten(g, t, 0, nrd, row, idx);
  LLVMValueRef base = LLVMBuildMul(g->cg->b, row, i64c(g, g->p.N), "");
  LLVMValueRef j = cg_loop_begin(cg, &lj, c0, c1);
  if (g->ncols > 0) unflatten(g, t, nrd, rank, j, idx);
  LLVMValueRef lin = LLVMBuildAdd(g->cg->b, base, j, "");
  cg->scalar[dv->id] = cg_load(cg, C, t->elem, lin);
  cg_gen(cg, g->epi, idx, out);
  cg->scalar[dv->id] = NULL;
  cg_store(cg, C, t->elem, lin, out[0]);
  cg_loop_end(cg, &lj);
  cg_loop_end(cg, &li);
}

/* ------------------------------------------------------------------------ */
/* Blocked kernel: the kernel body                                           */

/* The part of the result one kernel call computes: batches [b0, b1), rows
 * [r0, r1) and columns [c0, c1) of C[b] (M x N). */
typedef struct Range {
  LLVMValueRef b0, b1, r0, r1, c0, c1;
} Range;

/* Maps [begin, end) of result dimension 0 (kernel.c splits that one) to a
 * Range. Result dimension 0 is the first batch dimension if there is one,
 * else the first lhs free dimension, else the first rhs free dimension
 * (spec (C12)); the dimensions after it are covered whole. */
static Range range_of(DotGen *g, Op *op, LLVMValueRef begin, LLVMValueRef end) {
  const DotPlan *p = &g->p;
  const Type *rt = op->results[0]->type;
  Range r = {i64c(g, 0), i64c(g, p->nbatch), i64c(g, 0), i64c(g, p->M),
             i64c(g, 0), i64c(g, p->N)};
  if (rt->rank == 0) return r;
  int64_t d0 = rt->dims[0];
  LLVMValueRef *lo = &r.b0, *hi = &r.b1;
  int64_t total = p->nbatch;
  if (p->nbd == 0 && p->nfl > 0) {
    lo = &r.r0, hi = &r.r1, total = p->M;
  } else if (p->nbd == 0) {
    lo = &r.c0, hi = &r.c1, total = p->N;
  }
  int64_t inner = d0 > 0 ? total / d0 : 0;
  *lo = LLVMBuildMul(g->cg->b, begin, i64c(g, inner), "lo");
  *hi = LLVMBuildMul(g->cg->b, end, i64c(g, inner), "hi");
  return r;
}

/* Element offset of batch b in an operand with the given strides. */
static LLVMValueRef batch_offset(DotGen *g, LLVMValueRef b, const int64_t *st) {
  const DotPlan *p = &g->p;
  LLVMValueRef off = i64c(g, 0);
  int64_t inner = 1;
  for (int i = p->nbd - 1; i >= 0; i--) {
    LLVMValueRef q = LLVMBuildUDiv(g->cg->b, b, i64c(g, inner), "");
    q = LLVMBuildURem(g->cg->b, q, i64c(g, p->bdim[i]), "");
    off = LLVMBuildAdd(g->cg->b, off, LLVMBuildMul(g->cg->b, q, i64c(g, st[i]), ""), "");
    inner *= p->bdim[i];
  }
  return off;
}

/* One block of rows: A(ic, 0) and C(ic, 0) of batch b, B(0, 0) of batch
 * b, its row count, and the column range. */
typedef struct RowBlock {
  LLVMValueRef a, b, c, mc, c0, c1;
} RowBlock;

static RowBlock block_at(DotGen *g, LLVMValueRef bi, LLVMValueRef ic,
                      LLVMValueRef r1, const Range *r, LLVMValueRef A,
                      LLVMValueRef B, LLVMValueRef C) {
  const DotPlan *p = &g->p;
  RowBlock k;
  k.mc = min64(g, i64c(g, p->mc), LLVMBuildSub(g->cg->b, r1, ic, ""));
  LLVMValueRef offa = LLVMBuildAdd(g->cg->b, batch_offset(g, bi, p->bsa),
                                   LLVMBuildMul(g->cg->b, ic, i64c(g, p->sam), ""), "");
  k.a = gep(g, g->t, A, offa);
  k.b = gep(g, g->t, B, batch_offset(g, bi, p->bsb));
  LLVMValueRef offc = LLVMBuildAdd(
      g->cg->b, LLVMBuildMul(g->cg->b, bi, i64c(g, p->M * p->N), ""),
      LLVMBuildMul(g->cg->b, ic, i64c(g, p->N), ""), "");
  k.c = gep(g, g->t, C, offc);
  k.c0 = r->c0;
  k.c1 = r->c1;
  return k;
}

/* C = 0 on the block (K = 0: an empty sum). */
static void zero_block(DotGen *g, RowBlock *k) {
  CgLoop li, lj;
  LLVMValueRef i = cg_loop_step(g->cg, &li, i64c(g, 0), k->mc, 1);
  LLVMValueRef row = gep(g, g->t, k->c, LLVMBuildMul(g->cg->b, i, i64c(g, g->p.N), ""));
  LLVMValueRef j = cg_loop_step(g->cg, &lj, k->c0, k->c1, 1);
  LLVMBuildStore(g->cg->b, LLVMConstNull(g->t), gep(g, g->t, row, j));
  cg_loop_end(g->cg, &lj);
  cg_loop_end(g->cg, &li);
}

/* Per-call scratch of a kernel: packed panels, MR row pointers and a row
 * of zeros for rows that do not exist. */
typedef struct Scratch {
  LLVMValueRef ap, bp, rowptrs, zeros;
  LLVMValueRef micro;
} Scratch;

static LLVMValueRef aligned_alloca(DotGen *g, LLVMTypeRef t, int64_t n,
                                   const char *name) {
  LLVMValueRef a = cg_entry_alloca(g->cg, LLVMArrayType2(t, (uint64_t)n), name);
  LLVMSetAlignment(a, 64);
  return a;
}

static Scratch scratch_new(DotGen *g) {
  const DotPlan *p = &g->p;
  Scratch s = {0};
  s.micro = micro_fn(g, p->direct_a);
  s.bp = aligned_alloca(g, g->t, p->kc * p->nr, "Bp");
  if (!p->direct_a) {
    s.ap = aligned_alloca(g, g->t, p->mc * p->kc, "Ap");
    return s;
  }
  s.rowptrs = aligned_alloca(g, g->cg->t_ptr, p->mr, "rows");
  s.zeros = aligned_alloca(g, g->t, p->kc, "zeros");
  LLVMBuildMemSet(g->cg->b, s.zeros, LLVMConstInt(g->cg->t_i8, 0, 0),
                  i64c(g, p->kc * elem_bytes(p->e)), 64);
  return s;
}

/* rowptrs[r] = a + (ir + r) * sam for ir + r < mc, else the zero row. */
static void fill_rows(DotGen *g, Scratch *s, LLVMValueRef a, LLVMValueRef ir,
                      LLVMValueRef mc) {
  const DotPlan *p = &g->p;
  for (int r = 0; r < p->mr; r++) {
    LLVMValueRef row = LLVMBuildAdd(g->cg->b, ir, i64c(g, r), "");
    LLVMValueRef ptr = gep(g, g->t, a, LLVMBuildMul(g->cg->b, row, i64c(g, p->sam), ""));
    LLVMValueRef in = LLVMBuildICmp(g->cg->b, LLVMIntSLT, row, mc, "");
    LLVMBuildStore(g->cg->b, LLVMBuildSelect(g->cg->b, in, ptr, s->zeros, ""),
                   gep(g, g->cg->t_ptr, s->rowptrs, i64c(g, r)));
  }
}

static void call_micro(DotGen *g, Scratch *s, LLVMValueRef a, LLVMValueRef c,
                       LLVMValueRef kc, LLVMValueRef rows, LLVMValueRef cols,
                       LLVMValueRef first) {
  CG *cg = g->cg;
  LLVMTypeRef pt[8] = {cg->t_ptr, cg->t_ptr, cg->t_ptr, cg->t_i64,
                       cg->t_i64, cg->t_i64, cg->t_i64, cg->t_i1};
  LLVMValueRef args[8] = {a, s->bp, c, i64c(g, g->p.N), kc, rows, cols, first};
  LLVMBuildCall2(g->cg->b, LLVMFunctionType(cg->t_void, pt, 8, 0), s->micro, args, 8, "");
}

/* The KC slice at pc of a block: pack A once (unless the microkernel reads
 * A in place), then for each NR panel of B pack it and run the microkernel
 * down the rows. */
static void gemm_block(DotGen *g, RowBlock *k, LLVMValueRef pc, Scratch *s) {
  const DotPlan *p = &g->p;
  CgLoop lj, li;
  LLVMValueRef kc = min64(g, i64c(g, p->kc), LLVMBuildSub(g->cg->b, i64c(g, p->K), pc, ""));
  LLVMValueRef first = LLVMBuildICmp(g->cg->b, LLVMIntEQ, pc, i64c(g, 0), "first");
  LLVMValueRef a = gep(g, g->t, k->a, LLVMBuildMul(g->cg->b, pc, i64c(g, p->sak), ""));
  if (!p->direct_a) pack_a(g, s->ap, a, k->mc, kc);
  LLVMValueRef jr = cg_loop_step(g->cg, &lj, k->c0, k->c1, p->nr);
  LLVMValueRef nr = min64(g, i64c(g, p->nr), LLVMBuildSub(g->cg->b, k->c1, jr, ""));
  LLVMValueRef boff = LLVMBuildAdd(g->cg->b, LLVMBuildMul(g->cg->b, pc, i64c(g, p->sbk), ""),
                                   LLVMBuildMul(g->cg->b, jr, i64c(g, p->sbn), ""), "");
  pack_b(g, s->bp, gep(g, g->t, k->b, boff), nr, kc);
  LLVMValueRef ir = cg_loop_step(g->cg, &li, i64c(g, 0), k->mc, p->mr);
  LLVMValueRef rows = min64(g, i64c(g, p->mr), LLVMBuildSub(g->cg->b, k->mc, ir, ""));
  LLVMValueRef apanel;
  if (p->direct_a) {
    fill_rows(g, s, a, ir, k->mc);
    apanel = s->rowptrs;
  } else {
    apanel = gep(g, g->t, s->ap, LLVMBuildMul(g->cg->b, ir, kc, ""));
  }
  LLVMValueRef coff = LLVMBuildAdd(g->cg->b, LLVMBuildMul(g->cg->b, ir, i64c(g, p->N), ""), jr, "");
  call_micro(g, s, apanel, gep(g, g->t, k->c, coff), kc, rows, nr, first);
  cg_loop_end(g->cg, &li);
  cg_loop_end(g->cg, &lj);
}

/* for b in [b0, b1): for ic in [r0, r1) step MC: the block's K slices. */
static void kernel_body(DotGen *g, Op *op, const Range *r) {
  CG *cg = g->cg;
  const DotPlan *p = &g->p;
  Scratch s = scratch_new(g);
  LLVMValueRef A = cg_buffer(cg, op->opnds[0]);
  LLVMValueRef B = cg_buffer(cg, op->opnds[1]);
  LLVMValueRef C = cg_buffer(cg, (g->epi ? g->epi : op)->results[0]);
  CgLoop lb, li, lp;
  LLVMValueRef bi = cg_loop_step(g->cg, &lb, r->b0, r->b1, 1);
  LLVMValueRef ic = cg_loop_step(g->cg, &li, r->r0, r->r1, p->mc);
  RowBlock k = block_at(g, bi, ic, r->r1, r, A, B, C);
  if (p->K == 0) {
    zero_block(g, &k);
  } else {
    LLVMValueRef pc = cg_loop_step(g->cg, &lp, i64c(g, 0), i64c(g, p->K), p->kc);
    gemm_block(g, &k, pc, &s);
    cg_loop_end(g->cg, &lp);
  }
  LLVMValueRef row0 = LLVMBuildAdd(g->cg->b, LLVMBuildMul(g->cg->b, bi, i64c(g, p->M), ""), ic, "");
  epilogue(g, row0, k.mc, k.c0, k.c1);
  cg_loop_end(g->cg, &li);
  cg_loop_end(g->cg, &lb);
}

/* Contract with cg_kernel (codegen.h): emit, at the builder in the kernel
 * function cg->llfn(frame, begin, end), the result for [begin, end) of
 * dimension 0. */
bool cg_kernel_dot(CG *cg, Op *op, Op *epi) {
  if (op->code != OP_DOT_GENERAL) return false;
  ElemType e = op->results[0]->type->elem;
  if (e != ET_F32 && e != ET_F64) return false;
  if (op->opnds[0]->type->elem != e || op->opnds[1]->type->elem != e)
    return false;
  if (op->opnds[0]->storage == ST_NONE || op->opnds[1]->storage == ST_NONE)
    return false; /* the passes materialize them; be safe if not */
  DotGen g = {.cg = cg, .op = op, .epi = epi};
  g.p.e = e;
  if (!plan_shapes(op, &g.p)) return false;
  g.ncols = g.p.nfr;
  /* Matrix-vector products: a tile would be 1/NR useful; the elemental
   * loop over K is a vectorized reduction when K is contiguous. */
  if (g.p.N == 1 && g.p.sak == 1 && g.p.sbk == 1) return false;
  plan_tiles(cg, &g.p);
  g.t = cg_scalar_type(cg, e);
  g.vt = LLVMVectorType(g.t, (unsigned)g.p.vl);
  if (g.p.M == 0 || g.p.N == 0 || g.p.nbatch == 0) return true; /* empty */
  Range r = range_of(&g, op, LLVMGetParam(cg->llfn, 1), LLVMGetParam(cg->llfn, 2));
  kernel_body(&g, op, &r);
  return true;
}

/* ------------------------------------------------------------------------ */
/* Convolution as an implicit GEMM (spec "convolution")                      */

/* With the feature dimensions last in lhs, rhs and result (NHWC, HWIO,
 * NHWC), a convolution without groups, base dilation or reversal is
 *   C[m, o] = sum over kernel positions w, input features c of
 *             A_w[m, c] * B_w[c, o]
 * where m runs over the other result dimensions, B_w is the rhs slice at
 * position w (a CI x O matrix with unit stride along o) and row m of A_w
 * is the input feature vector at the window position of m, or zeros when
 * that lands in the padding. The microkernel reads A_w through MR row
 * pointers, so the "im2col" matrix is never built. */

#define CONV_MAX_SPATIAL 6

typedef struct ConvPlan {
  int ns;
  int64_t ksize[CONV_MAX_SPATIAL];  /* kernel extent */
  int64_t kstr[CONV_MAX_SPATIAL];   /* rhs stride of the kernel dim */
  int64_t in_dim[CONV_MAX_SPATIAL]; /* lhs extent */
  int64_t in_str[CONV_MAX_SPATIAL]; /* lhs stride */
  int64_t stride[CONV_MAX_SPATIAL], rdil[CONV_MAX_SPATIAL],
      lo[CONV_MAX_SPATIAL];
  int64_t batch_str;                 /* lhs stride of the batch dim */
  int64_t npos;                      /* kernel positions */
  /* result dims 0 .. rank-2 (m), outermost first: extent and role
   * (-1: batch, s: spatial dim s) */
  int nmd;
  int64_t mdim[CONV_MAX_SPATIAL + 1];
  int mrole[CONV_MAX_SPATIAL + 1];
  int pdim;                          /* result dim kernel.c splits */
} ConvPlan;

static int64_t win_at(const I64List *l, int s, int64_t dflt) {
  return l->n > s ? l->v[s] : dflt;
}

/* Whether the convolution fits the implicit GEMM (see above). */
static bool conv_fits(Op *op) {
  const ConvDims *cd = &op->a.conv;
  const Window *w = &op->a.window;
  int rank = op->results[0]->type->rank;
  ElemType e = op->results[0]->type->elem;
  if (e != ET_F32 && e != ET_F64) return false;
  if (op->opnds[0]->type->elem != e || op->opnds[1]->type->elem != e) return false;
  if (op->opnds[0]->storage == ST_NONE || op->opnds[1]->storage == ST_NONE)
    return false;
  if (op->a.feature_group_count > 1 || op->a.batch_group_count > 1) return false;
  if (cd->in_feature != rank - 1 || cd->k_out_feature != rank - 1 ||
      cd->out_feature != rank - 1 || cd->in_spatial.n > CONV_MAX_SPATIAL)
    return false;
  for (int s = 0; s < cd->in_spatial.n; s++)
    if (win_at(&w->base_dilations, s, 1) != 1 || win_at(&w->reversal, s, 0))
      return false;
  return true;
}

static void conv_plan(Op *op, ConvPlan *c, DotPlan *p) {
  const ConvDims *cd = &op->a.conv;
  const Window *w = &op->a.window;
  const Type *lt = op->opnds[0]->type, *kt = op->opnds[1]->type;
  const Type *rt = op->results[0]->type;
  int64_t ls[8], ks[8];
  ir_strides(lt, ls);
  ir_strides(kt, ks);
  c->ns = cd->in_spatial.n;
  c->npos = 1;
  for (int s = 0; s < c->ns; s++) {
    c->ksize[s] = kt->dims[cd->k_spatial.v[s]];
    c->kstr[s] = ks[cd->k_spatial.v[s]];
    c->in_dim[s] = lt->dims[cd->in_spatial.v[s]];
    c->in_str[s] = ls[cd->in_spatial.v[s]];
    c->stride[s] = win_at(&w->strides, s, 1);
    c->rdil[s] = win_at(&w->window_dilations, s, 1);
    c->lo[s] = win_at(&w->pad_lo, s, 0);
    c->npos *= c->ksize[s];
  }
  c->batch_str = ls[cd->in_batch];
  c->nmd = rt->rank - 1;
  p->M = 1;
  for (int d = 0; d < c->nmd; d++) {
    c->mdim[d] = rt->dims[d];
    c->mrole[d] = -1;
    for (int s = 0; s < c->ns; s++)
      if (cd->out_spatial.v[s] == d) c->mrole[d] = s;
    p->M *= rt->dims[d];
  }
  c->pdim = 0; /* kernel.c's split_dim: the first of extent > 1 */
  for (int d = rt->rank - 1; d >= 0; d--)
    if (rt->dims[d] != 1) c->pdim = d;
  p->N = rt->dims[rt->rank - 1];
  p->K = lt->dims[cd->in_feature];
  p->nbatch = 1;
  p->sak = 1;
  p->sam = 0; /* rows come from row pointers */
  p->sbk = ks[cd->k_in_feature];
  p->sbn = 1;
}

/* Rows and columns of C for [begin, end) of result dimension pdim (the
 * dimensions before it have extent 1). */
static Range conv_range(DotGen *g, const ConvPlan *c, LLVMValueRef begin,
                        LLVMValueRef end) {
  const DotPlan *p = &g->p;
  Range r = {i64c(g, 0), i64c(g, 1), i64c(g, 0), i64c(g, p->M),
             i64c(g, 0), i64c(g, p->N)};
  if (c->pdim == c->nmd) {
    r.c0 = begin;
    r.c1 = end;
    return r;
  }
  int64_t inner = 1;
  for (int d = c->pdim + 1; d < c->nmd; d++) inner *= c->mdim[d];
  r.r0 = LLVMBuildMul(g->cg->b, begin, i64c(g, inner), "lo");
  r.r1 = LLVMBuildMul(g->cg->b, end, i64c(g, inner), "hi");
  return r;
}

/* Kernel position kpos -> window offsets w[s] (spec order, last fastest);
 * returns the rhs element offset of the position. */
static LLVMValueRef conv_window(DotGen *g, const ConvPlan *c, LLVMValueRef kpos,
                                LLVMValueRef *w) {
  LLVMValueRef q = kpos, off = i64c(g, 0);
  for (int s = c->ns - 1; s >= 0; s--) {
    w[s] = LLVMBuildURem(g->cg->b, q, i64c(g, c->ksize[s]), "w");
    q = LLVMBuildUDiv(g->cg->b, q, i64c(g, c->ksize[s]), "");
    off = LLVMBuildAdd(g->cg->b, off, LLVMBuildMul(g->cg->b, w[s], i64c(g, c->kstr[s]), ""), "");
  }
  return off;
}

/* rowptrs[r] = the lhs feature vector (from input feature cb) that row
 * m0 + r of A_w reads, or the zero row for padding and rows >= m1. */
static void conv_rows(DotGen *g, Scratch *s, const ConvPlan *c, LLVMValueRef lhs,
                      LLVMValueRef m0, LLVMValueRef m1, LLVMValueRef *w,
                      LLVMValueRef cb) {
  const DotPlan *p = &g->p;
  LLVMBuilderRef b = g->cg->b;
  for (int r = 0; r < p->mr; r++) {
    LLVMValueRef m = LLVMBuildAdd(b, m0, i64c(g, r), "m");
    LLVMValueRef ok = LLVMBuildICmp(b, LLVMIntSLT, m, m1, "");
    LLVMValueRef q = LLVMBuildSelect(b, ok, m, m0, ""), off = cb;
    for (int d = c->nmd - 1; d >= 0; d--) {
      LLVMValueRef i = LLVMBuildURem(b, q, i64c(g, c->mdim[d]), "");
      q = LLVMBuildUDiv(b, q, i64c(g, c->mdim[d]), "");
      int sp = c->mrole[d];
      if (sp < 0) {
        off = LLVMBuildAdd(b, off, LLVMBuildMul(b, i, i64c(g, c->batch_str), ""), "");
        continue;
      }
      /* spec: window start = output index * stride, element w dilated */
      LLVMValueRef ip = LLVMBuildMul(b, i, i64c(g, c->stride[sp]), "");
      ip = LLVMBuildAdd(b, ip, LLVMBuildMul(b, w[sp], i64c(g, c->rdil[sp]), ""), "");
      ip = LLVMBuildSub(b, ip, i64c(g, c->lo[sp]), "ip");
      ok = LLVMBuildAnd(b, ok, LLVMBuildICmp(b, LLVMIntULT, ip,
                                             i64c(g, c->in_dim[sp]), ""), "");
      off = LLVMBuildAdd(b, off, LLVMBuildMul(b, ip, i64c(g, c->in_str[sp]), ""), "");
    }
    LLVMValueRef ptr = LLVMBuildSelect(b, ok, gep(g, g->t, lhs, off), s->zeros, "");
    LLVMBuildStore(b, ptr, gep(g, g->cg->t_ptr, s->rowptrs, i64c(g, r)));
  }
}

/* One NR panel of a row block at one kernel position: the KC slices of the
 * input features. */
static void conv_panel(DotGen *g, Scratch *s, const ConvPlan *c, LLVMValueRef lhs,
                       LLVMValueRef rhs, LLVMValueRef cblk, LLVMValueRef ic,
                       LLVMValueRef mc, LLVMValueRef jr, LLVMValueRef nr,
                       LLVMValueRef kpos) {
  const DotPlan *p = &g->p;
  CgLoop lc, li;
  LLVMValueRef w[CONV_MAX_SPATIAL];
  LLVMValueRef roff = conv_window(g, c, kpos, w);
  LLVMValueRef cb = cg_loop_step(g->cg, &lc, i64c(g, 0), i64c(g, p->K), p->kc);
  LLVMValueRef kc = min64(g, i64c(g, p->kc), LLVMBuildSub(g->cg->b, i64c(g, p->K), cb, ""));
  LLVMValueRef first = LLVMBuildAnd(
      g->cg->b, LLVMBuildICmp(g->cg->b, LLVMIntEQ, kpos, i64c(g, 0), ""),
      LLVMBuildICmp(g->cg->b, LLVMIntEQ, cb, i64c(g, 0), ""), "first");
  LLVMValueRef boff = LLVMBuildAdd(g->cg->b, roff, LLVMBuildAdd(g->cg->b,
      LLVMBuildMul(g->cg->b, cb, i64c(g, p->sbk), ""), jr, ""), "");
  pack_b(g, s->bp, gep(g, g->t, rhs, boff), nr, kc);
  LLVMValueRef ir = cg_loop_step(g->cg, &li, i64c(g, 0), mc, p->mr);
  LLVMValueRef m0 = LLVMBuildAdd(g->cg->b, ic, ir, "");
  conv_rows(g, s, c, lhs, m0, LLVMBuildAdd(g->cg->b, ic, mc, ""), w, cb);
  LLVMValueRef rows = min64(g, i64c(g, p->mr), LLVMBuildSub(g->cg->b, mc, ir, ""));
  LLVMValueRef coff = LLVMBuildAdd(g->cg->b, LLVMBuildMul(g->cg->b, m0, i64c(g, p->N), ""), jr, "");
  call_micro(g, s, s->rowptrs, gep(g, g->t, cblk, coff), kc, rows, nr, first);
  cg_loop_end(g->cg, &li);
  cg_loop_end(g->cg, &lc);
}

static void conv_body(DotGen *g, Op *op, const ConvPlan *c, const Range *r) {
  CG *cg = g->cg;
  const DotPlan *p = &g->p;
  Scratch s = scratch_new(g);
  LLVMValueRef lhs = cg_buffer(cg, op->opnds[0]);
  LLVMValueRef rhs = cg_buffer(cg, op->opnds[1]);
  LLVMValueRef C = cg_buffer(cg, (g->epi ? g->epi : op)->results[0]);
  CgLoop li, lj, lk;
  LLVMValueRef ic = cg_loop_step(g->cg, &li, r->r0, r->r1, p->mc);
  RowBlock k = block_at(g, i64c(g, 0), ic, r->r1, r, lhs, rhs, C);
  if (p->K == 0 || c->npos == 0) {
    zero_block(g, &k);
    epilogue(g, ic, k.mc, k.c0, k.c1);
  } else {
    LLVMValueRef jr = cg_loop_step(g->cg, &lj, r->c0, r->c1, p->nr);
    LLVMValueRef nr = min64(g, i64c(g, p->nr), LLVMBuildSub(g->cg->b, r->c1, jr, ""));
    LLVMValueRef kpos = cg_loop_step(g->cg, &lk, i64c(g, 0), i64c(g, c->npos), 1);
    conv_panel(g, &s, c, lhs, rhs, C, ic, k.mc, jr, nr, kpos);
    cg_loop_end(g->cg, &lk);
    /* The MC x NR panel of C is complete and in L2. */
    epilogue(g, ic, k.mc, jr, LLVMBuildAdd(g->cg->b, jr, nr, ""));
    cg_loop_end(g->cg, &lj);
  }
  cg_loop_end(g->cg, &li);
}

/* Same contract as cg_kernel_dot, with [begin, end) a range of the first
 * result dimension of extent > 1 (kernel.c's split dimension). */
bool cg_kernel_conv(CG *cg, Op *op, Op *epi) {
  if (op->code != OP_CONVOLUTION || !conv_fits(op)) return false;
  ElemType e = op->results[0]->type->elem;
  DotGen g = {.cg = cg, .op = op, .epi = epi, .ncols = 1};
  ConvPlan c;
  g.p.e = e;
  conv_plan(op, &c, &g.p);
  plan_tiles(cg, &g.p);
  g.p.direct_a = true;
  g.t = cg_scalar_type(cg, e);
  g.vt = LLVMVectorType(g.t, (unsigned)g.p.vl);
  if (g.p.M == 0 || g.p.N == 0) return true; /* empty */
  Range r = conv_range(&g, &c, LLVMGetParam(cg->llfn, 1), LLVMGetParam(cg->llfn, 2));
  conv_body(&g, op, &c, &r);
  return true;
}
