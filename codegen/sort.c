/*
 * sort.c: sort as a kernel root (spec "sort").
 *
 * For each 1-D slice along `dimension`, the kernel copies the slice of
 * every input into its result buffer, then sorts the slices of all results
 * together in place. The sort is stable whatever `is_stable` says (a
 * stable order is one of the orders an unstable sort may produce):
 *
 *   - insertion sort of runs of RUN elements;
 *   - bottom-up merging of runs of doubling width, each merge done in
 *     place by the rotation-based "merge without buffer" (split the longer
 *     run in half, binary-search the split point in the other run, rotate
 *     the middle, recurse on both halves): O(n log^2 n) element moves and
 *     no scratch memory, so the kernel needs nothing beyond its results.
 *
 * The recursive merge is an LLVM function of its own, F.kN.merge(frame,
 * base, first, middle, last). Elements i and j of a slice are compared by
 * calling the comparator on (results[0][i], results[0][j], results[1][i],
 * results[1][j], ...) (the spec's comparator_together); "less" is its
 * result.
 *
 * The slices are independent: kernel.c splits the kernel across threads
 * along its split dimension unless that is the sorted one (cg_sort_dim).
 *
 * In an entry with symbolic sizes (dyndims.c), cg_sort_symbolic runs the
 * same sort over every slice with the length and stride known at run
 * time: the merge passes become a loop over the widths, and the merge
 * function's frame is a record of the results' buffers and the stride.
 */
#include "codegen.h"

/* Slices up to this length are sorted by insertion alone. */
enum { RUN = 16 };

/* A slice being sorted: element k of every result is at linear index
 * base + k * stride of its buffer. */
typedef struct Slice {
  Op *op;
  LLVMValueRef base;
  LLVMValueRef stride; /* i64: a constant but on symbolic sizes */
  LLVMValueRef merge;  /* the merge function */
} Slice;

int cg_sort_dim(const Op *op) {
  int rank = op->opnds[0]->type->rank;
  return (int)(op->a.dimension < 0 ? op->a.dimension + rank : op->a.dimension);
}

/* ------------------------------------------------------------------------ */
/* Control flow on the builder                                               */

static LLVMBasicBlockRef block(CG *cg, const char *name) {
  return LLVMAppendBasicBlockInContext(cg->ctx, cg->llfn, name);
}

/* if (c) goto yes; else goto no; */
static void branch(CG *cg, LLVMValueRef c, LLVMBasicBlockRef yes,
                   LLVMBasicBlockRef no) {
  LLVMBuildCondBr(cg->b, c, yes, no);
}

static LLVMValueRef load_i64(CG *cg, LLVMValueRef slot, const char *name) {
  return LLVMBuildLoad2(cg->b, cg->t_i64, slot, name);
}

static LLVMValueRef add(CG *cg, LLVMValueRef a, LLVMValueRef b) {
  return LLVMBuildAdd(cg->b, a, b, "");
}

static LLVMValueRef sub(CG *cg, LLVMValueRef a, LLVMValueRef b) {
  return LLVMBuildSub(cg->b, a, b, "");
}

static LLVMValueRef slt(CG *cg, LLVMValueRef a, LLVMValueRef b) {
  return LLVMBuildICmp(cg->b, LLVMIntSLT, a, b, "");
}

/* ------------------------------------------------------------------------ */
/* Element access                                                            */

static LLVMValueRef lin_of(CG *cg, const Slice *s, LLVMValueRef k) {
  if (LLVMIsAConstantInt(s->stride) && LLVMConstIntGetSExtValue(s->stride) == 1)
    return add(cg, s->base, k);
  return add(cg, s->base, LLVMBuildMul(cg->b, k, s->stride, ""));
}

/* comparator_together(slice[i], slice[j]) */
static LLVMValueRef less(CG *cg, const Slice *s, LLVMValueRef i, LLVMValueRef j) {
  int n = s->op->nresults;
  LLVMValueRef li = lin_of(cg, s, i), lj = lin_of(cg, s, j), args[2 * n], res;
  for (int t = 0; t < n; t++) {
    Value *r = s->op->results[t];
    LLVMValueRef buf = cg_buffer(cg, r);
    args[2 * t] = cg_load(cg, buf, r->type->elem, li);
    args[2 * t + 1] = cg_load(cg, buf, r->type->elem, lj);
  }
  cg_region_scalar(cg, s->op->regions[0], args, &res);
  return res;
}

static void swap(CG *cg, const Slice *s, LLVMValueRef i, LLVMValueRef j) {
  LLVMValueRef li = lin_of(cg, s, i), lj = lin_of(cg, s, j);
  for (int t = 0; t < s->op->nresults; t++) {
    Value *r = s->op->results[t];
    ElemType e = r->type->elem;
    LLVMValueRef buf = cg_buffer(cg, r);
    LLVMValueRef a = cg_load(cg, buf, e, li), b = cg_load(cg, buf, e, lj);
    cg_store(cg, buf, e, li, b);
    cg_store(cg, buf, e, lj, a);
  }
}

/* ------------------------------------------------------------------------ */
/* Pieces of the sort                                                        */

/* Sorts [a, b) by insertion: each element swaps down while it is less
 * than its left neighbour (so equal elements keep their order). */
static void insertion_sort(CG *cg, const Slice *s, LLVMValueRef a, LLVMValueRef b) {
  LLVMValueRef j = cg_entry_alloca(cg, cg->t_i64, "j");
  CgLoop l;
  LLVMValueRef i = cg_loop_begin(cg, &l, add(cg, a, cg_i64(cg, 1)), b);
  LLVMBuildStore(cg->b, i, j);
  LLVMBasicBlockRef test = block(cg, "ins.test"), cmp = block(cg, "ins.cmp"),
                    step = block(cg, "ins.swap"), done = block(cg, "ins.done");
  LLVMBuildBr(cg->b, test);
  LLVMPositionBuilderAtEnd(cg->b, test);
  LLVMValueRef jv = load_i64(cg, j, "j");
  branch(cg, slt(cg, a, jv), cmp, done);
  LLVMPositionBuilderAtEnd(cg->b, cmp);
  LLVMValueRef prev = sub(cg, jv, cg_i64(cg, 1));
  branch(cg, less(cg, s, jv, prev), step, done);
  LLVMPositionBuilderAtEnd(cg->b, step);
  swap(cg, s, jv, prev);
  LLVMBuildStore(cg->b, prev, j);
  LLVMBuildBr(cg->b, test);
  LLVMPositionBuilderAtEnd(cg->b, done);
  cg_loop_end(cg, &l);
}

/* Reverses [a, b). */
static void reverse(CG *cg, const Slice *s, LLVMValueRef a, LLVMValueRef b) {
  LLVMValueRef half = LLVMBuildSDiv(cg->b, sub(cg, b, a), cg_i64(cg, 2), "");
  LLVMValueRef last = sub(cg, b, cg_i64(cg, 1));
  CgLoop l;
  LLVMValueRef k = cg_loop_begin(cg, &l, cg_i64(cg, 0), half);
  LLVMValueRef back = sub(cg, last, k);
  swap(cg, s, add(cg, a, k), back);
  cg_loop_end(cg, &l);
}

/* [a, m) [m, b) -> [m, b) [a, m), by three reversals. */
static void rotate(CG *cg, const Slice *s, LLVMValueRef a, LLVMValueRef m,
                   LLVMValueRef b) {
  reverse(cg, s, a, m);
  reverse(cg, s, m, b);
  reverse(cg, s, a, b);
}

/* The first k in [lo, hi) (a sorted range) with key < slice[k] when upper
 * (upper bound), or with !(slice[k] < key) otherwise (lower bound). */
static LLVMValueRef bound(CG *cg, const Slice *s, LLVMValueRef lo, LLVMValueRef hi,
                          LLVMValueRef key, bool upper) {
  LLVMValueRef plo = cg_entry_alloca(cg, cg->t_i64, "lo");
  LLVMValueRef phi = cg_entry_alloca(cg, cg->t_i64, "hi");
  LLVMBuildStore(cg->b, lo, plo);
  LLVMBuildStore(cg->b, hi, phi);
  LLVMBasicBlockRef test = block(cg, "bound.test"), body = block(cg, "bound.body"),
                    done = block(cg, "bound.done");
  LLVMBuildBr(cg->b, test);
  LLVMPositionBuilderAtEnd(cg->b, test);
  LLVMValueRef l = load_i64(cg, plo, "lo"), h = load_i64(cg, phi, "hi");
  branch(cg, slt(cg, l, h), body, done);
  LLVMPositionBuilderAtEnd(cg->b, body);
  LLVMValueRef mid = add(cg, l, LLVMBuildAShr(cg->b, sub(cg, h, l), cg_i64(cg, 1), ""));
  LLVMValueRef right = upper ? LLVMBuildNot(cg->b, less(cg, s, key, mid), "")
                             : less(cg, s, mid, key);
  LLVMBuildStore(cg->b, LLVMBuildSelect(cg->b, right, add(cg, mid, cg_i64(cg, 1)), l, ""), plo);
  LLVMBuildStore(cg->b, LLVMBuildSelect(cg->b, right, h, mid, ""), phi);
  LLVMBuildBr(cg->b, test);
  LLVMPositionBuilderAtEnd(cg->b, done);
  return l;
}

/* ------------------------------------------------------------------------ */
/* The merge function                                                        */

static LLVMTypeRef merge_type(CG *cg) {
  LLVMTypeRef params[5] = {cg->t_ptr, cg->t_i64, cg->t_i64, cg->t_i64, cg->t_i64};
  return LLVMFunctionType(cg->t_void, params, 5, 0);
}

static void call_merge(CG *cg, const Slice *s, LLVMValueRef f, LLVMValueRef m,
                       LLVMValueRef l) {
  LLVMValueRef args[5] = {cg->frame, s->base, f, m, l};
  LLVMBuildCall2(cg->b, merge_type(cg), s->merge, args, 5, "");
}

/* Returns from the merge function when c holds. */
static void return_if(CG *cg, LLVMValueRef c) {
  LLVMBasicBlockRef ret = block(cg, "merge.ret"), go = block(cg, "merge.go");
  branch(cg, c, ret, go);
  LLVMPositionBuilderAtEnd(cg->b, ret);
  LLVMBuildRetVoid(cg->b);
  LLVMPositionBuilderAtEnd(cg->b, go);
}

/* Two single elements: swap them if the right one is less. */
static void merge_pair(CG *cg, const Slice *s, LLVMValueRef f, LLVMValueRef m) {
  CgIf out_of_order;
  cg_if_begin(cg, &out_of_order, less(cg, s, m, f));
  swap(cg, s, f, m);
  cg_if_end(cg, &out_of_order);
  LLVMBuildRetVoid(cg->b);
}

/* The cut points of [f, m) [m, l): the longer run is cut in its middle and
 * the other at the bound of that middle element, so that [cut1, m) holds
 * the left elements that go after the right elements of [m, cut2) and
 * equal elements keep their runs' order. */
static void merge_cuts(CG *cg, const Slice *s, LLVMValueRef f, LLVMValueRef m,
                       LLVMValueRef l, LLVMValueRef *cut1, LLVMValueRef *cut2) {
  LLVMValueRef len1 = sub(cg, m, f), len2 = sub(cg, l, m);
  LLVMValueRef c1 = cg_entry_alloca(cg, cg->t_i64, "cut1");
  LLVMValueRef c2 = cg_entry_alloca(cg, cg->t_i64, "cut2");
  CgIf left_longer;
  cg_if_begin(cg, &left_longer, LLVMBuildICmp(cg->b, LLVMIntSGT, len1, len2, ""));
  LLVMValueRef k1 = add(cg, f, LLVMBuildAShr(cg->b, len1, cg_i64(cg, 1), ""));
  LLVMBuildStore(cg->b, k1, c1);
  LLVMBuildStore(cg->b, bound(cg, s, m, l, k1, false), c2);
  cg_if_else(cg, &left_longer);
  LLVMValueRef k2 = add(cg, m, LLVMBuildAShr(cg->b, len2, cg_i64(cg, 1), ""));
  LLVMBuildStore(cg->b, k2, c2);
  LLVMBuildStore(cg->b, bound(cg, s, f, m, k2, true), c1);
  cg_if_end(cg, &left_longer);
  *cut1 = load_i64(cg, c1, "cut1");
  *cut2 = load_i64(cg, c2, "cut2");
}

/* merge(frame, base, f, m, l): merges the sorted runs [f, m) and [m, l). */
static void merge_body(CG *cg, Slice *s) {
  LLVMValueRef f = LLVMGetParam(cg->llfn, 2), m = LLVMGetParam(cg->llfn, 3),
               l = LLVMGetParam(cg->llfn, 4);
  LLVMValueRef len1 = sub(cg, m, f), len2 = sub(cg, l, m), zero = cg_i64(cg, 0);
  LLVMValueRef empty2 = LLVMBuildICmp(cg->b, LLVMIntSLE, len2, zero, "");
  return_if(cg, LLVMBuildOr(cg->b, LLVMBuildICmp(cg->b, LLVMIntSLE, len1, zero, ""), empty2, ""));
  LLVMValueRef pair = LLVMBuildICmp(cg->b, LLVMIntEQ, add(cg, len1, len2),
                                    cg_i64(cg, 2), "");
  LLVMBasicBlockRef bpair = block(cg, "merge.pair"), brest = block(cg, "merge.split");
  branch(cg, pair, bpair, brest);
  LLVMPositionBuilderAtEnd(cg->b, bpair);
  merge_pair(cg, s, f, m);
  LLVMPositionBuilderAtEnd(cg->b, brest);
  LLVMValueRef cut1, cut2;
  merge_cuts(cg, s, f, m, l, &cut1, &cut2);
  rotate(cg, s, cut1, m, cut2);
  LLVMValueRef mid = add(cg, cut1, sub(cg, cut2, m));
  call_merge(cg, s, f, cut1, mid);
  call_merge(cg, s, mid, cut2, l);
  LLVMBuildRetVoid(cg->b);
}

/* The record cg_sort_symbolic passes as the merge function's frame: each
 * result's buffer, then the stride. */
static LLVMTypeRef sym_frame_type(CG *cg, const Op *op) {
  LLVMTypeRef f[op->nresults + 1];
  for (int i = 0; i < op->nresults; i++) f[i] = cg->t_ptr;
  f[op->nresults] = cg->t_i64;
  return LLVMStructTypeInContext(cg->ctx, f, (unsigned)op->nresults + 1, 0);
}

/* In the merge function of a symbolic sort: binds the results' buffers
 * from the frame record and returns the stride. */
static LLVMValueRef sym_frame_load(CG *cg, Op *op) {
  LLVMTypeRef t = sym_frame_type(cg, op);
  for (int i = 0; i < op->nresults; i++)
    cg->buf[op->results[i]->id] = LLVMBuildLoad2(cg->b, cg->t_ptr,
                                                 LLVMBuildStructGEP2(cg->b, t, cg->frame, (unsigned)i, ""), "");
  return LLVMBuildLoad2(cg->b, cg->t_i64,
                        LLVMBuildStructGEP2(cg->b, t, cg->frame, (unsigned)op->nresults, ""), "stride");
}

/* Emits F.kN.merge for op, in the middle of the kernel's emission. */
static LLVMValueRef merge_fn(CG *cg, Op *op, int64_t stride) {
  size_t len;
  const char *kname = LLVMGetValueName2(cg->llfn, &len);
  char name[512];
  snprintf(name, sizeof name, "%.*s.merge", (int)(len < 400 ? len : 400), kname);
  LLVMValueRef fn = LLVMAddFunction(cg->mod, name, merge_type(cg));
  LLVMSetLinkage(fn, LLVMInternalLinkage);
  cg_set_fn_attrs(cg, fn);
  CgFnState st = cg_save_fn(cg);
  cg_fn_begin(cg, fn);
  cg->frame = LLVMGetParam(fn, 0);
  bool symbolic = cg->symx != NULL;
  Slice s = {op, LLVMGetParam(fn, 1), symbolic ? sym_frame_load(cg, op) : cg_i64(cg, stride), fn};
  merge_body(cg, &s);
  cg_fn_end(cg);
  cg_restore_fn(cg, &st);
  return fn;
}

/* ------------------------------------------------------------------------ */
/* The kernel                                                                */

/* The merges of runs of width w over [0, n): a counted loop. */
static void merge_pass(CG *cg, const Slice *s, LLVMValueRef n, LLVMValueRef w) {
  CgLoop l;
  LLVMValueRef w2 = LLVMBuildMul(cg->b, w, cg_i64(cg, 2), "");
  /* pairs with a right run: (n - w + 2w - 1) / 2w */
  LLVMValueRef nmerges = LLVMBuildSDiv(cg->b, sub(cg, add(cg, n, w), cg_i64(cg, 1)), w2, "");
  LLVMValueRef i = cg_loop_begin(cg, &l, cg_i64(cg, 0), nmerges);
  LLVMValueRef f = LLVMBuildMul(cg->b, i, w2, "");
  LLVMValueRef m = add(cg, f, w);
  call_merge(cg, s, f, m, cg_min_i64(cg, add(cg, m, w), n));
  cg_loop_end(cg, &l);
}

/* Merge passes of doubling width from RUN while the width is below a
 * length n known only at run time. */
static void merge_passes(CG *cg, const Slice *s, LLVMValueRef n) {
  LLVMValueRef w = cg_entry_alloca(cg, cg->t_i64, "width");
  LLVMBuildStore(cg->b, cg_i64(cg, RUN), w);
  LLVMBasicBlockRef test = block(cg, "width.test"), body = block(cg, "width.body"),
                    done = block(cg, "width.done");
  LLVMBuildBr(cg->b, test);
  LLVMPositionBuilderAtEnd(cg->b, test);
  LLVMValueRef wv = load_i64(cg, w, "w");
  branch(cg, slt(cg, wv, n), body, done);
  LLVMPositionBuilderAtEnd(cg->b, body);
  merge_pass(cg, s, n, wv);
  LLVMBuildStore(cg->b, LLVMBuildMul(cg->b, wv, cg_i64(cg, 2), ""), w);
  LLVMBuildBr(cg->b, test);
  LLVMPositionBuilderAtEnd(cg->b, done);
}

/* Sorts a slice of n elements: insertion sort of runs of RUN, then merges
 * of doubling width. When n is static, the widths are unrolled here and
 * each pass is a counted loop over its merges. */
static void sort_slice(CG *cg, const Slice *s, LLVMValueRef nv) {
  CgLoop l;
  LLVMValueRef nruns = LLVMBuildSDiv(cg->b, add(cg, nv, cg_i64(cg, RUN - 1)), cg_i64(cg, RUN), "");
  LLVMValueRef r = cg_loop_begin(cg, &l, cg_i64(cg, 0), nruns);
  LLVMValueRef a = LLVMBuildMul(cg->b, r, cg_i64(cg, RUN), "");
  LLVMValueRef b = add(cg, a, cg_i64(cg, RUN));
  b = cg_min_i64(cg, b, nv);
  insertion_sort(cg, s, a, b);
  cg_loop_end(cg, &l);
  if (!LLVMIsAConstantInt(nv)) {
    merge_passes(cg, s, nv);
    return;
  }
  int64_t n = LLVMConstIntGetSExtValue(nv);
  for (int64_t w = RUN; w < n; w *= 2) merge_pass(cg, s, nv, cg_i64(cg, w));
}

/* results...[idx with k at the sorted dimension] = inputs...[same] for
 * every k of the slice. */
static void copy_slice(CG *cg, Op *op, LLVMValueRef *idx, int sdim) {
  CgLoop l;
  idx[sdim] = cg_loop_begin(cg, &l, cg_i64(cg, 0), cg_dim(cg, op->results[0], sdim));
  for (int i = 0; i < op->nresults; i++) {
    Value *r = op->results[i];
    LLVMValueRef v = cg_value_at(cg, op->opnds[i], idx);
    cg_store_at(cg, r, idx, v);
  }
  cg_loop_end(cg, &l);
  idx[sdim] = cg_i64(cg, 0);
}

bool cg_kernel_sort(CG *cg, Op *op) {
  const Type *t = op->results[0]->type;
  int rank = t->rank, sdim = cg_sort_dim(op);
  if (rank == 0 || sdim < 0 || sdim >= rank) {
    cg_unsupported(cg, op, "sort dimension out of range");
    return true;
  }
  int64_t n = t->dims[sdim], stride = 1;
  for (int d = sdim + 1; d < rank; d++) stride *= t->dims[d];
  Slice s = {op, NULL, cg_i64(cg, stride), n > RUN ? merge_fn(cg, op, stride) : NULL};
  /* Loops over the slices; the split dimension takes [begin, end) unless
   * it is the sorted one (then kernel.c makes one call). */
  int pdim = cg_split_dim(t);
  LLVMValueRef idx[rank];
  CgLoop loops[rank];
  int nl = 0;
  for (int d = 0; d < rank; d++) {
    if (d == sdim)
      idx[d] = cg_i64(cg, 0);
    else if (d == pdim)
      idx[d] = cg_loop_begin(cg, &loops[nl++], LLVMGetParam(cg->llfn, 1),
                             LLVMGetParam(cg->llfn, 2));
    else
      idx[d] = t->dims[d] == 1 ? cg_i64(cg, 0)
                               : cg_loop_begin(cg, &loops[nl++], cg_i64(cg, 0),
                                               cg_i64(cg, t->dims[d]));
  }
  copy_slice(cg, op, idx, sdim);
  if (n > 1) {
    s.base = cg_linear(cg, t, idx);
    sort_slice(cg, &s, cg_i64(cg, n));
  }
  while (nl > 0) cg_loop_end(cg, &loops[--nl]);
  return true;
}

bool cg_sort_symbolic(CG *cg, Op *op) {
  Value *r0 = op->results[0];
  int rank = r0->type->rank, sdim = cg_sort_dim(op);
  if (rank == 0 || sdim < 0 || sdim >= rank) {
    cg_unsupported(cg, op, "sort dimension out of range");
    return true;
  }
  LLVMValueRef stride = cg_i64(cg, 1);
  for (int d = sdim + 1; d < rank; d++) stride = LLVMBuildMul(cg->b, stride, cg_dim(cg, r0, d), "");
  LLVMTypeRef ft = sym_frame_type(cg, op);
  LLVMValueRef frame = cg_entry_alloca(cg, ft, "sort.frame");
  for (int i = 0; i < op->nresults; i++) {
    LLVMValueRef slot = LLVMBuildStructGEP2(cg->b, ft, frame, (unsigned)i, "");
    LLVMBuildStore(cg->b, cg_buffer(cg, op->results[i]), slot);
  }
  LLVMBuildStore(cg->b, stride, LLVMBuildStructGEP2(cg->b, ft, frame, (unsigned)op->nresults, ""));
  LLVMValueRef saved = cg->frame;
  cg->frame = frame; /* what call_merge passes */
  Slice s = {op, NULL, stride, merge_fn(cg, op, 0)};
  LLVMValueRef idx[rank];
  CgLoop loops[rank];
  int nl = 0;
  for (int d = 0; d < rank; d++)
    idx[d] = d == sdim ? cg_i64(cg, 0) : cg_loop_begin(cg, &loops[nl++], cg_i64(cg, 0), cg_dim(cg, r0, d));
  copy_slice(cg, op, idx, sdim);
  s.base = cg_linear_value(cg, r0, idx);
  sort_slice(cg, &s, cg_dim(cg, r0, sdim));
  while (nl > 0) cg_loop_end(cg, &loops[--nl]);
  cg->frame = saved;
  return true;
}
