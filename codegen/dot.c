/*
 * dot.c: dot_general (spec "dot_general").
 *
 *  - cg_gen_dot, the elemental generator: one result element is a loop over
 *    the contracting dimensions accumulating lhs * rhs in the accumulation
 *    type (the result type; f32 for f16/bf16 results, rounded at the end).
 *    It handles every element type and layout, and runs when the dot is
 *    fused or when the blocked kernel does not apply.
 *  - cg_kernel_dot, for f32/f64 dots whose free and contracting dimensions
 *    each collapse to one strided dimension (any batch dimensions; leading
 *    lhs free dimensions that do not collapse count as batches): a GEMM
 *    C[b] = A[b] * B[b] (M x K times K x N) on the blocked GEMM engine
 *    (gemm.c), emitted into the kernel function for the part of the result
 *    that one call computes (kernel.c splits result dimension 0 across
 *    threads).
 */
#include "gemm.h"

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

/* Fills the free dimensions of an operand's index from the result index,
 * starting at result position `pos`; returns the next position. */
static int fill_free(const Type *t, const I64List *batch,
                     const I64List *contract, LLVMValueRef *oidx,
                     LLVMValueRef *idx, int pos) {
  for (int d = 0; d < t->rank; d++)
    if (!ir_list_has(batch, d) && !ir_list_has(contract, d)) oidx[d] = idx[pos++];
  return pos;
}

LLVMValueRef cg_gen_dot(CG *cg, Op *op, LLVMValueRef *idx) {
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
    int c = (int)dd->lhs_contract.v[i];
    LLVMValueRef k = lt->dims[c] == 1 ? cg_i64(cg, 0)
                                      : cg_loop_begin(cg, &loops[nloops++],
                                                      cg_i64(cg, 0), cg_dim(cg, lhs, c));
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
  return cg_convert(cg, r, ae, re);
}

/* ------------------------------------------------------------------------ */
/* Blocked kernel: the shapes of the GEMM                                    */

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
static int free_dims(const Type *t, const I64List *batch, const I64List *contract,
                     int64_t *out) {
  int n = 0;
  for (int d = 0; d < t->rank; d++)
    if (!ir_list_has(batch, d) && !ir_list_has(contract, d)) out[n++] = d;
  return n;
}

static bool plan_shapes(const Op *op, GemmPlan *p) {
  const DotDims *dd = &op->a.dot;
  const Type *lt = op->opnds[0]->type, *rt = op->opnds[1]->type;
  int64_t fl[8], fr[8], kl, kr;
  if (lt->rank > 8 || rt->rank > 8 || dd->lhs_batch.n > GEMM_MAX_BATCH) return false;
  p->nfl = free_dims(lt, &dd->lhs_batch, &dd->lhs_contract, fl);
  p->nfr = free_dims(rt, &dd->rhs_batch, &dd->rhs_contract, fr);
  /* Leading lhs free dimensions that do not collapse with the rest (a
   * transposed lhs (b, k, m) contracting k: the rows are b x m, not one
   * stride) become batch dimensions that B does not have (stride 0). */
  int peel = 0;
  while (!collapse(lt, fl + peel, p->nfl - peel, &p->M, &p->sam))
    if (++peel >= p->nfl || dd->lhs_batch.n + peel > GEMM_MAX_BATCH) return false;
  int64_t m2;
  if (!collapse(rt, fr, p->nfr, &p->N, &p->sbn)) return false;
  if (!collapse(lt, dd->lhs_contract.v, dd->lhs_contract.n, &p->K, &kl)) return false;
  if (!collapse(rt, dd->rhs_contract.v, dd->rhs_contract.n, &m2, &kr)) return false;
  p->sak = kl;
  p->sbk = kr;
  int64_t sl[8], sr[8];
  ir_strides(lt, sl);
  ir_strides(rt, sr);
  int nb = dd->lhs_batch.n;
  p->nbd = nb + peel;
  p->nfl -= peel;
  p->nbatch = 1;
  for (int i = 0; i < p->nbd; i++) {
    int64_t ld = i < nb ? dd->lhs_batch.v[i] : fl[i - nb];
    p->bdim[i] = lt->dims[ld];
    p->bsa[i] = sl[ld];
    p->bsb[i] = i < nb ? sr[dd->rhs_batch.v[i]] : 0;
    p->nbatch *= p->bdim[i];
  }
  return true;
}

/* The first dimension of extent > 1 among result dims [lo, hi), or -1. */
static int first_wide(const Type *t, int lo, int hi) {
  for (int d = lo; d < hi; d++)
    if (t->dims[d] > 1) return d;
  return -1;
}

/* Maps [begin, end) of result dimension pdim (dot_split, in units of
 * unit) to a GemmRange: batches, rows or columns, scaled by the extents of
 * the dimensions after pdim in its group, or panels of NR columns, or with
 * rows (dot_split's *rows) rows of C themselves; the other groups are
 * covered whole (the dimensions before pdim in its group have extent 1). */
static GemmRange range_of(Gemm *g, Op *op, int pdim, int64_t unit, bool rows, LLVMValueRef begin,
                          LLVMValueRef end) {
  CG *cg = g->cg;
  const GemmPlan *p = &g->p;
  const Type *rt = op->results[0]->type;
  GemmRange r = {cg_i64(cg, 0),    cg_i64(cg, p->nbatch), cg_i64(cg, 0),
                 cg_i64(cg, p->M), cg_i64(cg, 0),         cg_i64(cg, p->N)};
  if (rt->rank == 0) return r;
  int fl = p->nbd, fr = p->nbd + p->nfl;
  if (unit > 1) { /* panels: pdim is the last dimension, the columns */
    r.c0 = LLVMBuildMul(g->b, begin, cg_i64(cg, unit), "c0");
    r.c1 = cg_min_i64(cg, LLVMBuildMul(g->b, end, cg_i64(cg, unit), ""), cg_i64(cg, p->N));
    return r;
  }
  if (rows) { /* row tiles of MR rows (cg_dot_split) */
    r.r0 = LLVMBuildMul(g->b, begin, cg_i64(cg, p->mr), "r0");
    r.r1 = cg_min_i64(cg, LLVMBuildMul(g->b, end, cg_i64(cg, p->mr), ""), cg_i64(cg, p->M));
    return r;
  }
  LLVMValueRef *lo = &r.b0, *hi = &r.b1;
  int group_end = fl;
  if (pdim >= fr) {
    lo = &r.c0, hi = &r.c1, group_end = rt->rank;
  } else if (pdim >= fl) {
    lo = &r.r0, hi = &r.r1, group_end = fr;
  }
  int64_t inner = 1;
  for (int d = pdim + 1; d < group_end; d++) inner *= rt->dims[d];
  *lo = LLVMBuildMul(g->b, begin, cg_i64(cg, inner), "lo");
  *hi = LLVMBuildMul(g->b, end, cg_i64(cg, inner), "hi");
  return r;
}

/* The skinny path: for each batch, all rows, the columns of r. */
static void skinny_body(Gemm *g, Op *op, const GemmRange *r) {
  CG *cg = g->cg;
  LLVMValueRef A = cg_buffer(cg, op->opnds[0]);
  LLVMValueRef B = cg_buffer(cg, op->opnds[1]);
  LLVMValueRef C = cg_buffer(cg, (g->epi ? g->epi : op)->results[0]);
  gemm_run_skinny(g, r, A, B, C);
}

/* for b in [b0, b1): for ic in [r0, r1) step MC: the block's K slices. */
static void kernel_body(Gemm *g, Op *op, const GemmRange *r) {
  CG *cg = g->cg;
  GemmScratch s = gemm_scratch(g);
  LLVMValueRef A = cg_buffer(cg, op->opnds[0]);
  LLVMValueRef B = cg_buffer(cg, op->opnds[1]);
  LLVMValueRef C = cg_buffer(cg, (g->epi ? g->epi : op)->results[0]);
  gemm_run(g, &s, r, A, B, C);
}

/* How cg_kernel_dot computes a dot_general. */
typedef enum DotPath { DOT_ELEMENTAL, DOT_EMPTY, DOT_SKINNY, DOT_BLOCKED } DotPath;

/* A dot_general planned once for every question about it: its shapes and
 * strides (p, when shaped; p.e set only on the GEMM paths) and its path. */
typedef struct DotPlan {
  GemmPlan p;
  bool shaped;
  DotPath path;
} DotPlan;

/* The path of op, whose shapes d->p holds when d->shaped. */
static DotPath dot_path(const Op *op, DotPlan *d) {
  GemmPlan *p = &d->p;
  ElemType e = op->results[0]->type->elem;
  if (e != ET_F32 && e != ET_F64) return DOT_ELEMENTAL;
  if (op->opnds[0]->type->elem != e || op->opnds[1]->type->elem != e) return DOT_ELEMENTAL;
  if (op->opnds[0]->storage == ST_NONE || op->opnds[1]->storage == ST_NONE)
    return DOT_ELEMENTAL; /* the passes materialize them; be safe if not */
  p->e = e;
  if (!d->shaped) return DOT_ELEMENTAL;
  /* Matrix-vector products: a tile would be 1/NR useful; the elemental
   * loop over K is a vectorized reduction when K is contiguous. */
  if (p->N == 1 && p->sak == 1 && p->sbk == 1) return DOT_ELEMENTAL;
  if (p->M == 0 || p->N == 0 || p->nbatch == 0) return DOT_EMPTY;
  return gemm_skinny_fits(p) ? DOT_SKINNY : DOT_BLOCKED;
}

/* The plan of op, for each of cg_dot_split, cg_dot_skinny_rows,
 * cg_dot_b_packing and cg_kernel_dot to make once. */
static DotPlan plan_dot(const Op *op) {
  DotPlan d = {{0}, false, DOT_ELEMENTAL};
  d.shaped = plan_shapes(op, &d.p);
  d.path = dot_path(op, &d);
  return d;
}

/* Result dims are batch, lhs free, rhs free (spec (C12)). Threads split
 * the batch when there are several; else the rows, unless they are few:
 * the skinny path keeps all rows in registers and streams B once, so its
 * columns split instead; the blocked path's columns split in panels of nr
 * (*unit = nr) by a convolution's rule (gemm_enough_panels: with fewer
 * than GEMM_ROW_SPLIT_MIN_M rows a row split gives each call a row block
 * or two that packs or reads all of B: BERT's 128 x 768 @ 768 x 3072
 * with B an argument, 2 threads, medians of 200 calls on the quiet 2-core
 * Zen 4: 3.22-3.25 ms by rows, 3.16-3.17 by panels, 6.07 on one thread;
 * 128 x 768 @ 768 x 768: 0.77 by rows, 0.74 by panels) when the columns
 * are one dimension, the last; else the columns, for the skinny path
 * with B packed in panels of nr (*unit = nr: each a run of memory of its
 * own, so a call of one panel streams as well as a call of many; pieces
 * of whole panels balance the threads (a thread done with its own takes
 * the other's, runtime/parallel.c): BERT at 7
 * tokens, weights as constants, 2 threads, a 768-wide B in 8 pieces of
 * 1 or 2 panels where calls of at least 768 columns made 2, of 128 (2
 * panels) 6, under SCHED_FIFO, paired medians of 250 rounds of
 * alternating calls, load 3.5-4.1: 0.943-0.951 of the 128-column pieces'
 * time, faster in 183-192, bits identical; the 128-column pieces were
 * 0.939 of the 768-column ones (load 2.8-3.3), pieces of 1.5 panels
 * 1.09x slower than those).
 * Rows that span several result dimensions (x of 33 x 79 x 256, the
 * chess transformer's 33 boards of 79 tokens) split as row tiles of C
 * (*rows: [begin, end) counts tiles of MR rows, kernel.c's count, so no
 * call gets a partial tile but the last, nor fewer rows than a tile),
 * not as elements of the first dimension: 33 boards went 17 | 16 to 2
 * threads, and main's 2-thread calls took 0.518x its 1-thread ones
 * (SCHED_FIFO, 16 paired calls), 17/33 of them. Rows of C went 1304 |
 * 1303: against the boards' split 0.987x the time at 2 threads
 * (quartiles 0.916-1.066, load 10-12), within the noise: a balance fix,
 * no measured gain. */
static int dot_split(const Op *op, const DotPlan *dp, int nr, int threads, int64_t *unit,
                     bool *rows) {
  const GemmPlan *p = &dp->p;
  const Type *t = op->results[0]->type;
  *unit = 1;
  *rows = false;
  if (!dp->shaped) return cg_split_dim(t);
  int fl = p->nbd, fr = p->nbd + p->nfl;
  int d = first_wide(t, 0, fl);
  if (d < 0 && dp->path == DOT_BLOCKED && p->M < GEMM_ROW_SPLIT_MIN_M &&
      gemm_enough_panels(p->N, nr, threads) && first_wide(t, fr, t->rank) == t->rank - 1) {
    *unit = nr;
    return t->rank - 1;
  }
  if (d < 0 && dp->path == DOT_SKINNY && op->opnds[1]->packed &&
      first_wide(t, fr, t->rank) == t->rank - 1) {
    *unit = op->opnds[1]->packed->nr; /* the packed skinny path: whole panels */
    return t->rank - 1;
  }
  if (d < 0 && !gemm_skinny_fits(p)) {
    d = first_wide(t, fl, fr);
    *rows = d >= 0 && d < fr - 1 && first_wide(t, d + 1, fr) >= 0;
  }
  if (d < 0) d = first_wide(t, fr, t->rank);
  if (d < 0) d = first_wide(t, fl, fr);
  return d < 0 ? 0 : d;
}

/* dot_split with cg's GEMM tile and threads. */
static int split_of(CG *cg, const Op *op, const DotPlan *dp, int64_t *unit, bool *rows) {
  return dot_split(op, dp, gemm_nr(cg, op), cg->o->threads, unit, rows);
}

int cg_dot_split(CG *cg, const Op *op, int64_t *unit, int64_t *count, int64_t *grain) {
  DotPlan dp = plan_dot(op);
  bool rows;
  int d = split_of(cg, op, &dp, unit, &rows);
  int64_t mr = gemm_mr(cg, op);
  *count = rows ? (dp.p.M + mr - 1) / mr : 0;
  *grain = rows ? gemm_row_grain(op->opnds[1]->packed, mr) : 1;
  return d;
}

bool cg_dot_skinny_rows(const Op *op) {
  DotPlan dp = plan_dot(op);
  return dp.path == DOT_SKINNY && dp.p.sbn == 1;
}

/* The skinny path with B in place along N splits its columns by
 * default: each thread then reads a slice of every row of B, short runs
 * (1.5 KiB of each row of a 768-wide B with 2 threads), and 2 threads
 * were no faster than one: 4 layers of 1 x 768 @ 768 x 3072 @ 3072 x 768
 * (75 MB of arguments), the loaded 2-core Zen 4, median of the minima of
 * 6-10 rounds of 40 calls, 3.5 ms with one thread, 3.9-4.4 with two
 * (x @ W^T on the same bytes, whose column split gives each thread whole
 * rows of B: 2.8-3.2). Split along K instead, each thread reads whole
 * rows, a contiguous part of B, into its own M x N partial product in
 * the kernel's scratch (when one fits a slice), and a last unit adds
 * them up in order (deterministic, but not the one-thread sums: the
 * last bits may differ; ir_kernel_scratch_bytes sizes the slice of a
 * dot of at most 8 rows for its result up to 128 KiB). The same 4 layers, 2 threads, 10 rounds
 * alternating with the column split: 3.87 -> 3.24 ms (M = 1), 3.55 ->
 * 2.80 (M = 7; 2.87 when the 7 x 3072 partial did not fit a slice and
 * that product kept the column split). The models, both builds'
 * libraries in one process, calls alternating 20 ms apart, 2 threads, a
 * load of 1.6-2.5 on the 2 cores: BERT at 7 tokens (weights as
 * arguments), 200 pairs, minimum 14.0 -> 11.0 ms, 10th percentile 20.8
 * -> 17.5, median ratio of a pair 0.75 (faster in 150); GPT-2's decoding
 * step (a third of its bytes, the tied output projection, on the dots
 * path) 16.1 -> 15.8, 17.4 both, 0.98 (faster in 120; 0.95 and 97 of
 * 150 in another run). Again at a load of 1.4: BERT 13.5 -> 12.0, 14.4
 * -> 13.1, 0.96 (117 of 200); GPT-2 14.7 -> 11.8, 16.9 -> 16.5, 0.97
 * (134 of 200); one thread unchanged (bits identical). Pieces of fewer than KSPLIT_MIN_ROWS rows of B
 * would make the sum a larger share.
 * Measured again per piece (a copy of runtime/parallel.c timing each piece
 * and loop, SCHED_FIFO so that the other helpers' processes did not
 * preempt either thread): while both threads run, the two parts stream at
 * 38-47 GB/s together, about what a plain 2-thread AVX-512 read of the
 * same weights gave in the same runs (medians 34-43 GB/s); what separates
 * 2 threads from the read lies around the parts: BERT at 7 tokens (weights
 * as arguments), per call of 9.5-11.7 ms in loops, one part ending before
 * the other 1.6-3.6 ms in all (10-15% of each product at the median,
 * either thread the later one), the serial units between the loops 0.9 ms
 * (the sum with GELU after the 7 x 3072 product 37 us a layer, attention
 * 14 us) and the caller woken from sleep after a wait past the runtime's
 * spin 0.23 ms. Tried against that imbalance, not kept (2 threads,
 * SCHED_FIFO, interleaved calls, medians; bits identical to this split
 * where noted): each part in 2-4 equal chunks of columns claimed one by
 * one (identical bits), 4 layers of 7 x 768 @ 768 x 3072 @ 3072 x 768,
 * 2.53-2.95 ms -> 2.76-3.29; each part in a wide chunk and a narrow last
 * one of 1/8 to 3/8 of the columns, claimed after both wide ones
 * (identical bits), 2.64 -> 2.95-3.01 ms (BERT 16.5-16.6 against
 * 15.7-16.6, noise): the shorter runs of each row cost more than the
 * balance gains; 4 parts of K in 4 slots (not the same sums), 32 products
 * 7 x 768 @ 768 x 768 10th percentile 2.15 -> 2.39 ms, BERT 13.7 -> 13.6
 * (noise). Without SCHED_FIFO, on the 2-core VM at a load of 2-3 from
 * other processes, 2 threads were no faster than one (BERT 17.5-20.1 ms
 * against 18.2-18.4; with it 12.5-13.0 against 16.3-18.8): a thread
 * preempted holding a piece stalls the join. Smaller pieces leave the
 * running thread pieces to claim then, but did not pay there either: the 4
 * layers above with a SCHED_FIFO spinner of higher priority taking the
 * second core 10 ms in every 15, medians of 60 interleaved calls: this
 * split 3.38-3.50 ms (one thread 3.63), 2 and 4 chunks of columns 3.96 and
 * 4.08, 4 parts of K 3.53, the column split (8 pieces) 4.03; without the
 * spinner 2.42-2.65, 2.84, 3.06, 2.55, 2.71 (one thread 3.44).
 * The 7 x 768 @ 768 x 3072 product split by columns instead (4 pieces of
 * 768, no sum; 200 alternating rounds, SCHED_FIFO, load 3.5-3.9): 1.015
 * of this split's time, paired median. What bounds a core here: at 7
 * rows each line of B takes 7 zmm FMAs, one a cycle on Zen 4; BERT's
 * 37.2 M of them take 5.2 ms on 2 threads at the 3.6 G a second a core
 * ran with both cores busy, and reading its 340 MB took 6.2-6.6 ms at
 * the 53-60 GB/s of a plain 2-thread read (4 streams a thread; 43-46
 * GB/s with 16 far apart) in the same minutes, so at memory speed the
 * FMA pipe is about 85% busy and every stall of a load shows.
 * Where BERT's 2-thread time went at 7 tokens (a C driver calling the
 * object in a loop under SCHED_FIFO, load 2-5 from other processes;
 * perf -e cpu-clock, and a copy of runtime/parallel.c timing each loop):
 * weights as arguments 8.4-9.2 ms a call in the faster minutes, the
 * skinny kernel 84-88% of both threads' samples, the threads spinning
 * 4.5-6.4% (the caller waiting for the other part 0.46-1.0 ms a call, 84
 * loops: 7 a layer), the serial units between loops 0.47-0.52 ms (2% of
 * the samples: attention, layer norms, the 7 x 768 sums); as constants
 * 8.1-8.4 ms, spinning 9%, the caller waiting 0.2 ms in 72 loops, 0.37
 * ms between them. The K split's access pattern (blocks of 16 rows read
 * a line of each row at a time, with the prefetch) read a 340 MB B at
 * 32.5-33.5 GB/s on 2 threads in the same minutes, a plain sequential
 * read 30.3-30.7 GB/s: what is left is the join and the serial units,
 * a few percent each. Measured and not kept (one process, both builds'
 * objects on the same buffers, calls alternating in both orders, paired
 * medians, bench/ab.py; on buffers of its own an object and a renamed copy
 * of it differed by up to 3.5%): the next block's A prefetched into L2 in
 * the skinny kernel (the other thread's part read A from the caller's
 * cache), 1 thread 1.000-1.004, 2 threads 0.989-1.012; the three Q/K/V
 * products as one 768 x 2304 product (the model rewritten by hand: one
 * join and one sum a layer instead of three, then slices) 0.995-1.000 of
 * the three, 2 threads, 11 ms calls; 16 pieces a thread instead of 4 in
 * the runtime, GPT-2's decoding step 0.996-1.007 (its 50257-wide output
 * projection's last piece had looked long). On AVX2 (the 2-core Zen 3,
 * the skinny strips folded, BERT at 7 tokens, weights as arguments 16
 * bytes past a line, bench/ab.py --fifo, 2 x 30 calls, load 5.3): the
 * column split 1.30-1.35x the time of this one; each part's columns in
 * chunks claimed one by one (the chunks of one claimed piece merged into
 * one call, so that an owner's long first piece keeps whole rows;
 * identical bits), 2 threads, --fifo --offset=16 with 50 ms gaps, 2 x 20
 * calls, load 6: chunks of 1536 bytes 1.24-1.29x slower, of 3072 bytes
 * (only the 3072-wide products chunked) 1.03-1.04x; without SCHED_FIFO
 * (compare.py's conditions: bench/ab.py --gap-ms=50, each build with
 * its runtime, SHLOC:2:RUNTIME.a, load 1.8) 1.04 and 1.01, the
 * quartiles 0.92-1.15. The same split of 24 products 7 x 768
 * @ 768 x 768 at 2 threads against 1 (main's build): 0.60 under
 * SCHED_FIFO, 0.93-1.53 without it at a load of 2-6 from other
 * processes, as the packed path's column split (constants: 1.16-1.28):
 * a join of short loops waits on a preempted thread whatever the split.
 * Under SCHED_FIFO those 24 products still took 1.3x the packed path's
 * time at 2 threads (2.9 against 2.2 ms, 1.07x at 1), and perf put 13%
 * of both threads' samples in the runtime's spin_until (3.5% for the
 * packed path); 4 parts of K in 4 slots (two a slice, the slice
 * doubled) left 10% there and measured 1.03x (the 24 products) and
 * 1.00x (BERT, --offset=16) of this split: not the pieces' size.
 * Again on the Zen 3, BERT at 7 tokens (weights as arguments), 2
 * threads, K in 2 or 4 parts a thread, each in a slot of its own (the
 * slice 2 or 4 times as large; the runtime's pieces halving towards a
 * share's end balance them): 2 a thread 1.015x under SCHED_FIFO, 1.024x
 * without it (bench/ab.py --gap-ms=50, each build with its runtime, as
 * compare.py runs, 80 pairs, load 3); 4 a thread 0.996x under
 * SCHED_FIFO (bench/ab.py --offset=16), without it 0.882x in one run
 * (60 pairs, median 22.9 ms) and 1.057x, 1.018x, 1.010x in three
 * (100-160 pairs, medians 30-44 ms, load 2-4). The worker then ran a
 * piece of 85% of the loops instead of 66%, but the time went to the
 * runtime's wake-ups: a worker that slept between two loops woke on the
 * caller's CPU in 41% of them at a load of 4 and held it 260-400 us
 * (runtime/parallel.c).
 * For one row (GPT-2's decoding step, 2 threads, the 2-core Zen 3): 2
 * and up to 4 parts a thread (K / KSPLIT_MIN_ROWS parts at most, each
 * slot C's bytes; the products of 768 columns only, whose slots fit
 * the slice), without SCHED_FIFO (one process alternating the builds'
 * calls 50 ms apart, 3 x 40 calls, load 2.6): 1.025 and 1.010 of this
 * split (quartiles 0.91-1.13), under it
 * (bench/ab.py --fifo, 3 x 20 calls) 0.98-1.00 and 1.00-1.01; the parts'
 * slots placed at B's offset within a line (skinny_stage_at, the slots
 * 4 KiB larger), weights 16 bytes past a line, --fifo, 5 x 30 calls:
 * 0.96-1.02. On the 2-vCPU Sapphire Rapids VM, up to 4 or 2 parts a
 * thread (K / KSPLIT_MIN_ROWS at most, each in a slot of its own), 2
 * threads: BERT at 7 tokens (weights as arguments) 1.057x and 1.017x
 * under SCHED_FIFO (control 1.005x), GPT-2's step 1.006x both (control
 * 1.008x); without SCHED_FIFO (load 4-11) GPT-2 0.975x / 0.997x
 * (controls 1.009x / 1.016x), BERT 1.039x / 1.029x: no gain beyond the
 * controls' spread (docs/runtime.md). */
enum { KSPLIT_MIN_ROWS = 128 };

/* The pieces of K that op, planned as dp, is split in: 0 if not split. */
static int ksplit_pieces(int threads, const Op *op, const DotPlan *dp) {
  const GemmPlan *p = &dp->p;
  if (threads <= 1 || dp->path != DOT_SKINNY || p->sbn != 1 || op->opnds[1]->packed ||
      p->nbatch != 1 || p->M == GEMM_DYN || p->N == GEMM_DYN ||
      p->K < (int64_t)threads * KSPLIT_MIN_ROWS)
    return 0;
  return p->M * p->N * elem_bytes(p->e) <= op->scratch_bytes ? threads : 0;
}

/* The units that add a K split's parts up (gemm_run_ksplit), each a run
 * of C's columns with its share of the epilogue: one, or one per thread
 * when C has KSPLIT_SUM_SPLIT_ELEMS elements or more, so that the sum and
 * the epilogue of BERT's 7 x 3072 product (GELU, 37 us a layer) are not
 * serial. BERT at 7 tokens, weights as arguments, 2 threads, main's and
 * this build's libraries in one process, 300 rounds of alternating calls
 * under SCHED_FIFO (load 2.4-2.5): paired median ratio 0.984, faster in
 * 173 (bits identical); split for every size (7 x 768 too), 1.006, faster
 * in 148: a fork and join cost what a 7 x 768 sum does. */
enum { KSPLIT_SUM_SPLIT_ELEMS = 16384 };

static int ksplit_sums(int threads, const GemmPlan *p) {
  return p->M * p->N >= KSPLIT_SUM_SPLIT_ELEMS ? threads : 1;
}

int cg_dot_ksplit(CG *cg, const Op *op, int *sums) {
  if (cg->o->threads <= 1 || op->code != OP_DOT_GENERAL) return 0;
  DotPlan dp = plan_dot(op);
  int pieces = ksplit_pieces(cg->o->threads, op, &dp);
  *sums = pieces ? ksplit_sums(cg->o->threads, &dp.p) : 0;
  return pieces;
}

/* The blocked path packs B when its calls cover whole rows of C or
 * panels of them, which read panels laid out from column 0, in K slices
 * as deep as gemm_plan_deep's (gemm_kc_packed); with skinny_packs
 * (more than one thread, or one where gemm.c's tile table says so) the
 * skinny path with B along N packs it in the same panels with one K
 * slice (gemm.c's packed skinny path, which is faster than the in-place
 * one with 2 threads, and with 1 on AVX2), whatever columns its calls
 * take. */
bool cg_dot_b_packing(const Op *op, int panel_bytes, int threads, bool skinny_packs,
                      GemmPacking *out) {
  DotPlan dp = plan_dot(op);
  GemmPlan *p = &dp.p;
  bool skinny = dp.path == DOT_SKINNY && p->sbn == 1 && skinny_packs;
  if ((dp.path != DOT_BLOCKED && !skinny) || p->K == 0) return false;
  int64_t unit;
  bool rows;
  int nr = panel_bytes / elem_bytes(p->e);
  if (!skinny && dot_split(op, &dp, nr, threads, &unit, &rows) >= p->nbd + p->nfl && unit == 1)
    return false;
  if (p->nbd > op->a.dot.lhs_batch.n) return false; /* B shared by peeled rows */
  gemm_packing(p, p->nbd, p->bdim, p->bsb, panel_bytes, out);
  out->kc = skinny ? p->K : gemm_kc_packed(p);
  return true;
}

/* Contract with cg_kernel (codegen.h): emit, at the builder in the kernel
 * function cg->llfn(frame, begin, end), the result for [begin, end) of
 * dimension 0. */
bool cg_kernel_dot(CG *cg, Op *op, Op *epi) {
  DotPlan dp = plan_dot(op);
  if (dp.path == DOT_ELEMENTAL) return false;
  int64_t unit;
  bool rows;
  int pdim = split_of(cg, op, &dp, &unit, &rows);
  Gemm g = {.cg = cg, .b = cg->b, .op = op, .epi = epi, .p = dp.p, .ncols = dp.p.nfr};
  gemm_plan(&g);
  if (dp.path == DOT_EMPTY) return true;
  LLVMValueRef begin = LLVMGetParam(cg->llfn, 1), end = LLVMGetParam(cg->llfn, 2);
  int pieces = ksplit_pieces(cg->o->threads, op, &dp);
  if (pieces) {
    gemm_plan_skinny(&g);
    LLVMValueRef parts = cg_scratch_slices(cg, op, dp.p.M * dp.p.N * elem_bytes(dp.p.e));
    LLVMValueRef A = cg_buffer(cg, op->opnds[0]), B = cg_buffer(cg, op->opnds[1]);
    LLVMValueRef C = cg_buffer(cg, (epi ? epi : op)->results[0]);
    gemm_run_ksplit(&g, A, B, C, parts, op->scratch_bytes, pieces,
                    ksplit_sums(cg->o->threads, &dp.p), begin, end);
    return true;
  }
  GemmRange r = range_of(&g, op, pdim, unit, rows, begin, end);
  if (dp.path == DOT_SKINNY) {
    gemm_plan_skinny_of(&g, op->opnds[1]);
    skinny_body(&g, op, &r);
  } else {
    gemm_plan_deep(&g, op->opnds[1]);
    gemm_use_packed(&g, op->opnds[1]);
    kernel_body(&g, op, &r);
  }
  return true;
}
