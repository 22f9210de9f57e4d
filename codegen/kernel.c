/*
 * kernel.c: one LLVM function per kernel root, and its call.
 *
 *   void F.kN(ptr frame, i64 begin, i64 end, i32 chunk)
 *
 * loops over the root's result and stores what the root's elemental
 * generator computes (codegen.h). [begin, end) is a range of the outermost
 * non-unit dimension, or of the linear index for a "flat" kernel: one made
 * only of elementwise ops over operands of the root's shape, which runs a
 * single unit-stride loop the loop vectorizer turns into full-width vector
 * code whatever the shape. The entry calls the kernel directly, or through
 * shlort_parallel_for when threads are allowed and the kernel is large.
 *
 * Buffers of distinct values never overlap, and a kernel never reads the
 * buffer it writes (the buffers pass guarantees both), so each buffer gets
 * its own alias scope: the vectorizer needs no runtime overlap checks.
 */
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Comdat.h>

#include "codegen.h"
#include "gemm.h"

/* Kernels smaller than this run on the calling thread. */
enum { PARALLEL_MIN_ELEMS = 32768 };
/* A skinny GEMM split by columns reads, per block of rows of B, a run of
 * each row as long as its call's columns. Runs of 96 columns (8 pieces
 * of a 768-wide B over 2 threads) made BERT at 7 tokens (weights as
 * constants, then read in place) slower with 2 threads than with 1;
 * calls of at least 768
 * columns (2 pieces of 384 there, 4 of 768 for a 3072-wide B) took its
 * minimum of 30 calls with 2 threads from 19-25 ms to 18.7-20.5 ms on
 * the loaded 2-core Zen 4 (1536: the same within noise). */
enum { SKINNY_MIN_CALL_COLS = 768 };
/* Tiles of kernels that read an operand transposed: a 64 x 64 tile of
 * f32 is 16 KiB per side, so source and result tiles stay in L1 (64 beat
 * 32 and 128 on a 4096 x 4096 transpose). */
enum { TILE_LOG2 = 6, TILE = 1 << TILE_LOG2 };

/* ------------------------------------------------------------------------ */
/* The fused tree of a root                                                  */

static bool fused(Value *v) { return v->storage == ST_NONE && v->def; }

/* Reports unsupported element types anywhere in the tree (scalar regions
 * included) before any code is built from them. */
static bool check_tree(CG *cg, Op *op, char *seen) {
  if (seen[op->results[0]->id]) return true;
  seen[op->results[0]->id] = 1;
  if (!cg_check_types(cg, op)) return false;
  for (int r = 0; r < op->nregions; r++)
    for (int k = 0; k < op->regions[r]->nblocks; k++)
      for (Op *o = op->regions[r]->blocks[k]->first; o; o = o->next)
        if (!cg_check_types(cg, o)) return false;
  for (int i = 0; i < op->nopnds; i++)
    if (fused(op->opnds[i]) && !check_tree(cg, op->opnds[i]->def, seen))
      return false;
  return true;
}

/* Whether every op of the tree is elementwise over operands of shape t (or
 * rank 0), so the kernel may walk the linear index. */
static bool flat_tree(Op *op, const Type *t, char *seen) {
  if (seen[op->results[0]->id]) return true;
  seen[op->results[0]->id] = 1;
  if (!ir_is_elementwise(op->code) || op->nresults != 1) return false;
  for (int i = 0; i < op->nopnds; i++) {
    Value *v = op->opnds[i];
    if (v->type->rank == 0) continue;
    if (!type_same_dims(v->type, t)) return false;
    if (fused(v) && !flat_tree(v->def, t, seen)) return false;
  }
  return true;
}

static char *seen_new(CG *cg) {
  char *seen = calloc((size_t)cg->fn->next_value_id + 1, 1);
  if (!seen) abort();
  return seen;
}

/* ------------------------------------------------------------------------ */
/* Alias scopes                                                              */

static int base_of(CG *cg, LLVMValueRef p) {
  for (;;) {
    for (int i = 0; i < cg->nbases; i++)
      if (cg->bases[i].ptr == p) return i;
    if (!LLVMIsAGetElementPtrInst(p)) return -1;
    p = LLVMGetOperand(p, 0);
  }
}

static LLVMMetadataRef md_str(CG *cg, const char *s) {
  return LLVMMDStringInContext2(cg->ctx, s, strlen(s));
}

static void tag_access(CG *cg, LLVMValueRef inst, int k, LLVMMetadataRef *scopes) {
  LLVMMetadataRef others[cg->nbases];
  int n = 0;
  for (int j = 0; j < cg->nbases; j++)
    if (j != k) others[n++] = scopes[j];
  unsigned kscope = LLVMGetMDKindIDInContext(cg->ctx, "alias.scope", 11);
  unsigned knoalias = LLVMGetMDKindIDInContext(cg->ctx, "noalias", 7);
  LLVMMetadataRef own = LLVMMDNodeInContext2(cg->ctx, &scopes[k], 1);
  LLVMMetadataRef rest = LLVMMDNodeInContext2(cg->ctx, others, (size_t)n);
  LLVMSetMetadata(inst, kscope, LLVMMetadataAsValue(cg->ctx, own));
  LLVMSetMetadata(inst, knoalias, LLVMMetadataAsValue(cg->ctx, rest));
}

/* Tags every load and store of a frame buffer with the buffer's scope and
 * `noalias` with the other buffers of the kernel. */
static void add_alias_scopes(CG *cg, const char *fname) {
  if (cg->nbases < 2) return;
  char name[256];
  snprintf(name, sizeof name, "%.200s.buffers", fname);
  LLVMMetadataRef dom_ops[1] = {md_str(cg, name)};
  LLVMMetadataRef dom = LLVMMDNodeInContext2(cg->ctx, dom_ops, 1);
  LLVMMetadataRef scopes[cg->nbases];
  for (int i = 0; i < cg->nbases; i++) {
    snprintf(name, sizeof name, "%.200s.b%d", fname, i);
    LLVMMetadataRef ops[2] = {md_str(cg, name), dom};
    scopes[i] = LLVMMDNodeInContext2(cg->ctx, ops, 2);
  }
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(cg->llfn); bb;
       bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in;
         in = LLVMGetNextInstruction(in)) {
      LLVMOpcode opc = LLVMGetInstructionOpcode(in);
      if (opc != LLVMLoad && opc != LLVMStore) continue;
      int k = base_of(cg, LLVMGetOperand(in, opc == LLVMLoad ? 0 : 1));
      if (k >= 0) tag_access(cg, in, k, scopes);
    }
}

/* ------------------------------------------------------------------------ */
/* Loop nests                                                                */

static void store_results(CG *cg, Value *const *dsts, int n, LLVMValueRef *idx,
                          LLVMValueRef *out) {
  for (int i = 0; i < n; i++) {
    if (!dsts[i]) continue;
    Value *d = dsts[i];
    LLVMValueRef lin = cg_linear(cg, d->type, idx);
    cg_store(cg, cg_buffer(cg, d), d->type->elem, lin, out[i]);
  }
}

/* Stores root's values at idx, and those of its siblings (fuse.c), which
 * have its shape; sibling row reduces accumulate in one loop over the row
 * (cg_gen_row_reduces). */
static void gen_store(CG *cg, Op *root, Value *const *dsts, LLVMValueRef *idx) {
  int n = 0;
  for (Op *s = root; s; s = s->sibling) n++;
  if (n > 1 && ir_is_row_reduce(root)) {
    Op *ops[n];
    LLVMValueRef out[n];
    n = 0;
    for (Op *s = root; s; s = s->sibling) ops[n++] = s;
    cg_gen_row_reduces(cg, ops, n, idx, out);
    store_results(cg, dsts, 1, idx, out);
    for (int k = 1; k < n; k++) store_results(cg, ops[k]->results, 1, idx, &out[k]);
    return;
  }
  LLVMValueRef out[root->nresults];
  cg_gen(cg, root, idx, out);
  store_results(cg, dsts, root->nresults, idx, out);
  for (Op *s = root->sibling; s; s = s->sibling) {
    cg_gen(cg, s, idx, out);
    store_results(cg, s->results, 1, idx, out);
  }
}

/* for (i = begin; i < end; i++) dst[i] = root(0, ..., 0, i) */
static void flat_loop(CG *cg, Op *root, Value *const *dsts, const Type *t) {
  CgLoop l;
  LLVMValueRef i = cg_loop_begin(cg, &l, LLVMGetParam(cg->llfn, 1),
                                 LLVMGetParam(cg->llfn, 2));
  LLVMValueRef idx[t->rank];
  for (int d = 0; d < t->rank; d++) idx[d] = d == t->rank - 1 ? i : cg_i64(cg, 0);
  gen_store(cg, root, dsts, idx);
  cg_loop_end(cg, &l);
}

/* Short rows (softmax over 79 tokens) whose length is no multiple of the
 * vector width leave a large part of each row to the vectorizer's scalar
 * remainder loop: 15 of 79 exps run one at a time, about 40% of such a
 * kernel's time. With AVX-512's cheap masked loads and stores, asking the
 * vectorizer to fold the tail into masked vector iterations is faster. */
enum { FOLD_TAIL_MAX = 256, FOLD_TAIL_LANES = 16 };

static bool fold_tail_wanted(CG *cg, int64_t extent) {
  if (extent <= 1 || extent >= FOLD_TAIL_MAX || extent % FOLD_TAIL_LANES == 0)
    return false;
  return cg_vector_bytes(cg) == 64; /* AVX-512: masked loads and stores */
}

/* Marks the loop whose latch ends in br with
 * llvm.loop.vectorize.predicate.enable. */
static void fold_tail(CG *cg, LLVMValueRef br) {
  LLVMMetadataRef opt = cg_loop_opt(cg, "llvm.loop.vectorize.predicate.enable", 1);
  cg_loop_id(cg, br, &opt, 1);
}

void cg_loop_end_short(CG *cg, CgLoop *l, int64_t extent) {
  LLVMBasicBlockRef latch = LLVMGetInsertBlock(cg->b);
  cg_loop_end(cg, l);
  if (fold_tail_wanted(cg, extent)) fold_tail(cg, LLVMGetBasicBlockTerminator(latch));
}

/* Opens loops over dimensions [0, ndims) of t into idx, [begin, end) on
 * dimension pdim, none for extent 1; returns how many it opened. */
static int open_loops(CG *cg, const Type *t, int ndims, int pdim, LLVMValueRef *idx,
                      CgLoop *loops) {
  int nloops = 0;
  for (int d = 0; d < ndims; d++) {
    if (d == pdim)
      idx[d] = cg_loop_begin(cg, &loops[nloops++], LLVMGetParam(cg->llfn, 1),
                             LLVMGetParam(cg->llfn, 2));
    else if (t->dims[d] == 1)
      idx[d] = cg_i64(cg, 0);
    else
      idx[d] = cg_loop_begin(cg, &loops[nloops++], cg_i64(cg, 0),
                             cg_i64(cg, t->dims[d]));
  }
  return nloops;
}

/* Loops over every dimension, [begin, end) on dimension pdim (those before
 * it have extent 1), innermost last so it is the unit-stride one. */
static void nest_loops(CG *cg, Op *root, Value *const *dsts, const Type *t,
                       int pdim) {
  int rank = t->rank;
  LLVMValueRef idx[rank > 0 ? rank : 1];
  CgLoop loops[rank > 0 ? rank : 1];
  int nloops = open_loops(cg, t, rank, pdim, idx, loops);
  gen_store(cg, root, dsts, rank ? idx : NULL);
  if (nloops > 0) {
    CgLoop *inner = &loops[--nloops];
    if (pdim != rank - 1)
      cg_loop_end_short(cg, inner, t->dims[rank - 1]);
    else
      cg_loop_end(cg, inner);
  }
  while (nloops > 0) cg_loop_end(cg, &loops[--nloops]);
}

/* Row kernels (fuse.c fuse_rows): the tree holds reduces over the last
 * dimension of the root's shape, read (through the per-row values made
 * from them) only in their own row. Per row i:
 *
 *   r1 = reduce(row i of x1); s = f(r1); r2 = reduce(row i of g(x2, s)) ...
 *   for j: out[i, j] = root(i, j)
 *
 * each reduce and each per-row value computed from one evaluated once and
 * bound as a scalar (cg_value_at returns it), the row's other values
 * recomputed from cache in each loop. The reduces run the generator of
 * reduce.c (cg_gen_row_reduces). */
static bool row_tree(Op *op, char *seen) {
  if (seen[op->results[0]->id]) return false;
  seen[op->results[0]->id] = 1;
  if (ir_is_row_reduce(op) && op->fused) return true;
  for (int i = 0; i < op->nopnds; i++)
    if (fused(op->opnds[i]) && row_tree(op->opnds[i]->def, seen)) return true;
  return false;
}

/* What a row kernel computes per row, from its tree. A value is
 * dependent when it is computed from a row reduce; the level of a
 * dependent value is the number of loops over the row that come before it
 * (a reduce reading level L values runs in loop L + 1). */
typedef struct RowPlan {
  Op *root;
  const Type *f;
  char *seen;  /* by value id: 0 not visited, 1 independent, 2 dependent */
  int *level;  /* by value id, of dependent values */
  Op **steps;  /* the dependent reduces and per-row values, producers first */
  int nsteps, maxlevel;
  Value **cached; /* the values kept in row buffers, and their bytes */
  int ncached;
  int64_t scratch_bytes;
} RowPlan;

static void row_plan_visit(RowPlan *p, Op *op) {
  int id = op->results[0]->id;
  if (p->seen[id]) return;
  bool reduce = ir_is_row_reduce(op) && op->fused, dep = reduce;
  int lv = 0;
  for (int i = 0; i < op->nopnds; i++) {
    Value *v = op->opnds[i];
    if (!fused(v)) continue;
    row_plan_visit(p, v->def);
    if (p->seen[v->id] != 2) continue;
    dep = true;
    if (p->level[v->id] > lv) lv = p->level[v->id];
  }
  lv += reduce;
  p->seen[id] = dep ? 2 : 1;
  p->level[id] = lv;
  if (lv > p->maxlevel) p->maxlevel = lv;
  if (dep && op != p->root && !type_same_dims(op->results[0]->type, p->f))
    p->steps[p->nsteps++] = op;
}

/* Whether v, evaluated by several loops over the row, is kept in a row
 * buffer: a costly dependent value (softmax's exp) of a float type whose
 * row fits (the bound of ir_kernel_scratch_bytes counts each such value
 * of the tree). */
static bool row_cached_value(const RowPlan *p, const Value *v) {
  return p->seen[v->id] == 2 && ir_is_costly(v->def->code) && elem_class(v->type->elem) == 'f' &&
         ir_row_buffer_bytes(v->type) <= IR_ROW_CACHE_BYTES;
}

/* Walks the values of the row's shape that one loop over the row
 * evaluates (walk: its stamp in mark[]; bound per-row values and other
 * shapes end the walk), counting in reads[] the loops evaluating each;
 * gives a row buffer to those a second loop evaluates again. */
static void row_count_reads(RowPlan *p, Value *v, int walk, int *mark, int *reads) {
  if (!fused(v) || !type_same_dims(v->type, p->f) || mark[v->id] == walk) return;
  mark[v->id] = walk;
  if (++reads[v->id] == 2 && row_cached_value(p, v)) {
    p->cached[p->ncached++] = v;
    p->scratch_bytes += ir_row_buffer_bytes(v->type);
  }
  for (int i = 0; i < v->def->nopnds; i++)
    row_count_reads(p, v->def->opnds[i], walk, mark, reads);
}

/* The row buffers of a row kernel (cg->rowcache), for the values that
 * several of its loops (the reduces of each level, then the root's)
 * evaluate. */
static void row_caches(CG *cg, RowPlan *p) {
  int n = cg->fn->next_value_id + 1, walk = 0;
  int *mark = calloc((size_t)n, sizeof(int)), *reads = calloc((size_t)n, sizeof(int));
  if (!mark || !reads) abort();
  for (int lv = 1; lv <= p->maxlevel; lv++) {
    walk++;
    for (int k = 0; k < p->nsteps; k++)
      if (ir_is_row_reduce(p->steps[k]) && p->level[p->steps[k]->results[0]->id] == lv)
        row_count_reads(p, p->steps[k]->opnds[0], walk, mark, reads);
  }
  walk++;
  for (int i = 0; i < p->root->nopnds; i++)
    row_count_reads(p, p->root->opnds[i], walk, mark, reads);
  free(mark);
  free(reads);
  if (p->ncached == 0) return;
  /* In the kernel's scratch (memory.c cg_scratch), never the stack: worker
   * threads and embedded targets have small ones. */
  LLVMValueRef base = cg_scratch(cg, p->root, p->scratch_bytes);
  int64_t off = 0;
  for (int k = 0; k < p->ncached; k++) {
    cg->rowcache[p->cached[k]->id].ptr = cg_gep(cg, cg->t_i8, base, cg_i64(cg, off));
    off += ir_row_buffer_bytes(p->cached[k]->type);
  }
}

/* Loop lv over the row at idx: the reduces of level lv in one loop
 * (cg_gen_row_reduces: siblings read the row once), then the per-row
 * values computed from them; all bound as scalars. The row buffers the
 * loop filled are read from then on. */
static void row_level(CG *cg, RowPlan *p, int lv, LLVMValueRef *idx) {
  Op *reds[p->nsteps];
  int nr = 0;
  for (int k = 0; k < p->nsteps; k++)
    if (ir_is_row_reduce(p->steps[k]) && p->level[p->steps[k]->results[0]->id] == lv)
      reds[nr++] = p->steps[k];
  LLVMValueRef out[nr > 0 ? nr : 1];
  if (nr > 0) cg_gen_row_reduces(cg, reds, nr, idx, out);
  for (int k = 0; k < nr; k++) cg->scalar[reds[k]->results[0]->id] = out[k];
  for (int id = 0; id <= cg->fn->next_value_id; id++)
    cg->rowcache[id].filled |= cg->rowcache[id].written;
  for (int k = 0; k < p->nsteps; k++) {
    Op *op = p->steps[k];
    if (ir_is_row_reduce(op) || p->level[op->results[0]->id] != lv) continue;
    /* One element per row: [i] or [i, 0] (fuse.c row_class). */
    const Type *t = op->results[0]->type;
    LLVMValueRef ridx[p->f->rank], v;
    for (int d = 0; d < t->rank; d++) ridx[d] = d < p->f->rank - 1 ? idx[d] : cg_i64(cg, 0);
    cg_gen(cg, op, t->rank ? ridx : NULL, &v);
    cg->scalar[op->results[0]->id] = v;
  }
}

/* The loops of a row kernel: [begin, end) on outer dimension pdim. */
static void row_loops(CG *cg, Op *root, Value *const *dsts, const Type *t, int pdim) {
  int rank = t->rank, n = cg->fn->next_value_id + 1;
  LLVMValueRef idx[rank], out[1];
  CgLoop loops[rank];
  int nloops = open_loops(cg, t, rank - 1, pdim, idx, loops);
  RowPlan p = {root, t, calloc((size_t)n, 1), calloc((size_t)n, sizeof(int)),
               calloc((size_t)n, sizeof(Op *)), 0, 0, calloc((size_t)n, sizeof(Value *)), 0, 0};
  cg->rowcache = calloc((size_t)n, sizeof(CgRowCache));
  if (!p.seen || !p.level || !p.steps || !p.cached || !cg->rowcache) abort();
  row_plan_visit(&p, root);
  row_caches(cg, &p);
  for (int lv = 1; lv <= p.maxlevel; lv++) row_level(cg, &p, lv, idx);
  idx[rank - 1] = cg_loop_begin(cg, &loops[nloops++], cg_i64(cg, 0),
                                cg_i64(cg, t->dims[rank - 1]));
  cg_gen(cg, root, idx, out);
  store_results(cg, dsts, 1, idx, out);
  cg_loop_end_short(cg, &loops[--nloops], t->dims[rank - 1]);
  while (nloops > 0) cg_loop_end(cg, &loops[--nloops]);
  free(cg->rowcache);
  cg->rowcache = NULL;
  free(p.seen);
  free(p.level);
  free(p.steps);
  free(p.cached);
}

/* The outer dimension a row kernel splits: the first of extent > 1, or 0
 * (-1 for a single row of rank 1: one call). */
static int row_split_dim(const Type *t) {
  for (int d = 0; d < t->rank - 1; d++)
    if (t->dims[d] > 1) return d;
  return t->rank > 1 ? 0 : -1;
}

/* Whether the tree reads some operand transposed in its last dimension,
 * so that walking the result row by row strides through that operand. */
static bool transposing(Op *op, char *seen) {
  if (seen[op->results[0]->id]) return false;
  seen[op->results[0]->id] = 1;
  int r = op->results[0]->type->rank;
  if (op->code == OP_TRANSPOSE && r >= 2 && op->a.permutation.v[r - 1] != r - 1) return true;
  for (int i = 0; i < op->nopnds; i++)
    if (fused(op->opnds[i]) && transposing(op->opnds[i]->def, seen)) return true;
  return false;
}

/* Loop over [lo, hi) in tiles of TILE: returns the tile's first index. */
static LLVMValueRef tile_loop_begin(CG *cg, CgLoop *l, LLVMValueRef lo,
                                    LLVMValueRef hi) {
  LLVMValueRef n = LLVMBuildSub(cg->b, hi, lo, "");
  n = LLVMBuildLShr(cg->b, LLVMBuildAdd(cg->b, n, cg_i64(cg, TILE - 1), ""),
                    cg_i64(cg, TILE_LOG2), "ntiles");
  LLVMValueRef t = cg_loop_begin(cg, l, cg_i64(cg, 0), n);
  return LLVMBuildAdd(cg->b, lo, LLVMBuildShl(cg->b, t, cg_i64(cg, TILE_LOG2), ""), "tile");
}

/* min(tile + TILE, hi) */
static LLVMValueRef tile_end(CG *cg, LLVMValueRef tile, LLVMValueRef hi) {
  return cg_min_i64(cg, LLVMBuildAdd(cg->b, tile, cg_i64(cg, TILE), ""), hi);
}

/* Like nest_loops, with the last two dimensions walked in TILE x TILE
 * tiles so that a transposed operand is read from cache. pdim <= rank - 2. */
static void tiled_loops(CG *cg, Op *root, Value *const *dsts, const Type *t,
                        int pdim) {
  int rank = t->rank, a = rank - 2, b = rank - 1;
  LLVMValueRef idx[rank], out[root->nresults];
  CgLoop loops[rank + 2];
  int nloops = 0;
  LLVMValueRef begin = LLVMGetParam(cg->llfn, 1), end = LLVMGetParam(cg->llfn, 2);
  for (int d = 0; d < a; d++) {
    if (d == pdim)
      idx[d] = cg_loop_begin(cg, &loops[nloops++], begin, end);
    else if (t->dims[d] == 1)
      idx[d] = cg_i64(cg, 0);
    else
      idx[d] = cg_loop_begin(cg, &loops[nloops++], cg_i64(cg, 0), cg_i64(cg, t->dims[d]));
  }
  LLVMValueRef lo_a = pdim == a ? begin : cg_i64(cg, 0);
  LLVMValueRef hi_a = pdim == a ? end : cg_i64(cg, t->dims[a]);
  LLVMValueRef hi_b = cg_i64(cg, t->dims[b]);
  LLVMValueRef ta = tile_loop_begin(cg, &loops[nloops++], lo_a, hi_a);
  LLVMValueRef tb = tile_loop_begin(cg, &loops[nloops++], cg_i64(cg, 0), hi_b);
  idx[a] = cg_loop_begin(cg, &loops[nloops++], ta, tile_end(cg, ta, hi_a));
  idx[b] = cg_loop_begin(cg, &loops[nloops++], tb, tile_end(cg, tb, hi_b));
  cg_gen(cg, root, idx, out);
  store_results(cg, dsts, root->nresults, idx, out);
  while (nloops > 0) cg_loop_end(cg, &loops[--nloops]);
}

/* The dot_general or convolution computed by an elementwise root as its
 * epilogue source (fuse.c: reached through fused elementwise ops of the
 * root's shape), or NULL. */
static Op *epilogue_source(Op *op) {
  if (!ir_is_elementwise(op->code) || op->nresults != 1) return NULL;
  for (int i = 0; i < op->nopnds; i++) {
    Value *v = op->opnds[i];
    if (!fused(v) || !type_same_dims(v->type, op->results[0]->type)) continue;
    if (ir_is_gemm(v->def->code)) return v->def;
    Op *s = epilogue_source(v->def);
    if (s) return s;
  }
  return NULL;
}

/* The dimension split across calls: cg_split_dim, or the dot's or
 * convolution's own for a GEMM kernel (or the epilogue of one); *unit:
 * the elements of that dimension per unit of [begin, end) when the GEMM
 * path runs the kernel; *count: 0, or the units of [0, n) when they are
 * not the dimension's elements, and *grain the shortest last piece the
 * runtime cuts a share into (runtime/parallel.c; cg_conv_split,
 * cg_dot_split). */
static int split_dim(CG *cg, Op *root, const Type *t, int64_t *unit, int64_t *count,
                     int64_t *grain) {
  Op *src = epilogue_source(root);
  if (!src) src = root;
  *unit = 1;
  *count = 0;
  *grain = 1;
  CgSplit how = cg_op_impl(src->code)->split;
  if (how == CG_SPLIT_DOT) return cg_dot_split(cg, src, unit, count, grain);
  if (how != CG_SPLIT_CONV) return cg_split_dim(t);
  int d;
  cg_conv_split(cg, src, &d, unit, count, grain);
  return d;
}

/* What decides whether a kernel is worth threads: its elements, or for a
 * GEMM (or its epilogue) the elements it reads and writes, which a skinny
 * projection has many more of than results. */
static int64_t kernel_work(Op *root) {
  Op *src = epilogue_source(root);
  if (!src) src = root;
  int64_t n = type_num_elems(root->results[0]->type);
  if (!ir_is_gemm(src->code)) return n;
  for (int i = 0; i < src->nopnds; i++) n += type_num_elems(src->opnds[i]->type);
  return n;
}

/* void kN(ptr frame, i64 begin, i64 end, i32 chunk): shlort_range_fn. */
static LLVMTypeRef kernel_type(CG *cg) {
  LLVMTypeRef params[4] = {cg->t_ptr, cg->t_i64, cg->t_i64, cg->t_i32};
  return LLVMFunctionType(cg->t_void, params, 4, 0);
}

static LLVMValueRef kernel_fn(CG *cg, char *name, size_t cap) {
  snprintf(name, cap, "%s.k%d", cg->fn->name, cg->nkernels++);
  LLVMValueRef fn = LLVMAddFunction(cg->mod, name, kernel_type(cg));
  LLVMSetLinkage(fn, LLVMInternalLinkage);
  cg_set_fn_attrs(cg, fn);
  /* Inlined into the entry, hundreds of kernels make one huge function on
   * which DSE and codegen turn superlinear (2x the compile time of a 9M
   * parameter transformer); a call per kernel costs nothing. */
  unsigned ni = LLVMGetEnumAttributeKindForName("noinline", 8);
  LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(cg->ctx, ni, 0));
  static const char *const frame_attrs[] = {"noalias", "nocapture", "readonly",
                                            "nonnull"};
  for (int i = 0; i < 4; i++) {
    unsigned k = LLVMGetEnumAttributeKindForName(frame_attrs[i], strlen(frame_attrs[i]));
    LLVMAddAttributeAtIndex(fn, 1, LLVMCreateEnumAttribute(cg->ctx, k, 0));
  }
  return fn;
}

/* The smallest range of the split dimension pdim worth a call of its own:
 * 1, or for a dot or convolution kernel (or its epilogue) split by rows of
 * its GEMM, enough units for GEMM_MIN_CALL_ROWS rows (GEMM_MIN_CALL_ROWS_PACKED
 * when the layout pass packed B). The rows are the
 * result dimensions of the lhs free group of a dot (spec "dot_general"
 * (C12): batch, lhs free, rhs free) and all but the last of a
 * convolution's (the output feature, last when the GEMM path applies);
 * splits of batches or columns repeat no packing. A skinny dot split by
 * columns (the rhs free group) takes SKINNY_MIN_CALL_COLS columns, or
 * with B packed any whole panels. */
static int64_t split_grain(Op *root, int pdim) {
  Op *src = epilogue_source(root);
  if (!src) src = root;
  if (!ir_is_gemm(src->code)) return 1;
  const Type *t = src->results[0]->type;
  int lo = 0, hi = t->rank - 1, end = hi;
  bool skinny = false;
  if (src->code == OP_DOT_GENERAL) {
    lo = src->a.dot.lhs_batch.n;
    hi = end = src->opnds[0]->type->rank - src->a.dot.lhs_contract.n;
    if (pdim >= hi && cg_dot_skinny_rows(src)) {
      lo = hi;
      end = t->rank;
      if (src->opnds[1]->packed) return 1; /* whole panels (dot.c's dot_split) */
      skinny = true;
    }
  }
  if (pdim < lo || pdim >= end) return 1;
  int64_t units = 1;
  for (int d = pdim + 1; d < end; d++) units *= t->dims[d];
  if (skinny) return (SKINNY_MIN_CALL_COLS + units - 1) / units;
  return gemm_row_grain(src->opnds[1]->packed, units);
}

/* The runtime's shlort_parallel_for, or with a grain argument
 * shlort_parallel_for_grain. */
static LLVMValueRef parallel_for_fn(CG *cg, bool grain, LLVMTypeRef *ty) {
  LLVMTypeRef params[5] = {cg->t_ptr, cg->t_ptr, cg->t_i64, cg->t_i32, cg->t_i64};
  *ty = LLVMFunctionType(cg->t_void, params, grain ? 5 : 4, 0);
  const char *name = grain ? "shlort_parallel_for_grain" : "shlort_parallel_for";
  LLVMValueRef f = LLVMGetNamedFunction(cg->mod, name);
  return f ? f : LLVMAddFunction(cg->mod, name, *ty);
}

LLVMValueRef cg_kernel_new(CG *cg) {
  char name[256];
  return kernel_fn(cg, name, sizeof name);
}

void cg_kernel_call_dyn(CG *cg, LLVMValueRef fn, LLVMValueRef frame, LLVMValueRef n,
                        LLVMValueRef work) {
  LLVMValueRef direct[4] = {frame, cg_i64(cg, 0), n, LLVMConstInt(cg->t_i32, 0, 0)};
  if (cg->o->threads <= 1) {
    LLVMBuildCall2(cg->b, kernel_type(cg), fn, direct, 4, "");
    return;
  }
  CgIf big;
  cg_if_begin(cg, &big, LLVMBuildICmp(cg->b, LLVMIntSGE, work,
                                      cg_i64(cg, PARALLEL_MIN_ELEMS), ""));
  LLVMTypeRef ty;
  LLVMValueRef pf = parallel_for_fn(cg, false, &ty);
  LLVMValueRef args[4] = {fn, frame, n, LLVMConstInt(cg->t_i32, (unsigned)cg->o->threads, 0)};
  LLVMBuildCall2(cg->b, ty, pf, args, 4, "");
  cg_if_else(cg, &big);
  LLVMBuildCall2(cg->b, kernel_type(cg), fn, direct, 4, "");
  cg_if_end(cg, &big);
}

/* A kernel that runs units [begin + off, end + off) of kernel fn, for
 * shlort_parallel_for to number the last units of fn from 0. */
static LLVMValueRef offset_kernel(CG *cg, LLVMValueRef fn, int64_t off) {
  size_t len;
  const char *base = LLVMGetValueName2(fn, &len);
  char name[len + 32]; /* whole: the name finds the wrapper again */
  snprintf(name, sizeof name, "%s.from%lld", base, (long long)off);
  LLVMValueRef f = LLVMGetNamedFunction(cg->mod, name);
  if (f) return f;
  f = LLVMAddFunction(cg->mod, name, kernel_type(cg));
  LLVMSetLinkage(f, LLVMInternalLinkage);
  cg_set_fn_attrs(cg, f);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(cg->ctx);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(cg->ctx, f, "entry"));
  LLVMValueRef first = LLVMBuildAdd(b, LLVMGetParam(f, 1), cg_i64(cg, off), "");
  LLVMValueRef args[4] = {LLVMGetParam(f, 0), first,
                          LLVMBuildAdd(b, LLVMGetParam(f, 2), cg_i64(cg, off), ""),
                          LLVMGetParam(f, 3)};
  LLVMBuildCall2(b, kernel_type(cg), fn, args, 4, "");
  LLVMBuildRetVoid(b);
  LLVMDisposeBuilder(b);
  return f;
}

/* Calls kernel fn over [0, n) from the function being emitted, with the
 * frame `bufs`: on the runtime's threads when they are allowed and the
 * kernel's work is large enough to amortize handing out its pieces; the
 * last `after` units (a K split's sums, cg_dot_ksplit) then run after
 * the others are done, on the threads too when there are several. */
static void call_kernel(CG *cg, LLVMValueRef fn, LLVMValueRef bufs, int64_t n,
                        int64_t work, int64_t grain, int after) {
  int threads = cg->o->threads;
  int64_t np = n - after, lo = 0;
  LLVMValueRef nthreads = LLVMConstInt(cg->t_i32, (unsigned)threads, 0);
  if (threads > 1 && work >= PARALLEL_MIN_ELEMS && np >= 2) {
    LLVMTypeRef ty;
    LLVMValueRef pf = parallel_for_fn(cg, grain > 1, &ty);
    LLVMValueRef args[5] = {fn, bufs, cg_i64(cg, np), nthreads, cg_i64(cg, grain)};
    LLVMBuildCall2(cg->b, ty, pf, args, grain > 1 ? 5 : 4, "");
    if (!after) return;
    lo = np;
    if (after >= 2) {
      pf = parallel_for_fn(cg, false, &ty);
      LLVMValueRef sargs[4] = {offset_kernel(cg, fn, np), bufs, cg_i64(cg, after), nthreads};
      LLVMBuildCall2(cg->b, ty, pf, sargs, 4, "");
      return;
    }
  }
  LLVMValueRef args[4] = {bufs, cg_i64(cg, lo), cg_i64(cg, n), LLVMConstInt(cg->t_i32, 0, 0)};
  LLVMBuildCall2(cg->b, kernel_type(cg), fn, args, 4, "");
}

/* llvm.lifetime.start/end of the n pointers at p: the frames of the
 * kernels share stack. */
static void lifetime(CG *cg, const char *which, LLVMValueRef p, int n) {
  LLVMValueRef args[2] = {cg_i64(cg, (int64_t)n * 8), p};
  cg_intrinsic(cg->b, which, &cg->t_ptr, 1, args, 2);
}

/* Calls kernel fn from the entry with a frame of the pointers of its
 * slots (codegen.h: CG.kslots); never a null frame, which kernel_fn
 * declares nonnull, even for a kernel without buffers. */
static void call_with_slots(CG *cg, LLVMValueRef fn, const CgBase *slots, int nslots,
                            int64_t n, int64_t work, int64_t grain, int after) {
  int cap = nslots > 0 ? nslots : 1;
  LLVMValueRef bufs = cg_entry_alloca(cg, LLVMArrayType2(cg->t_ptr, (uint64_t)cap), "kframe");
  lifetime(cg, "llvm.lifetime.start", bufs, cap);
  for (int i = 0; i < nslots; i++) {
    Value v = {.id = -1, .storage = slots[i].st, .offset = slots[i].off};
    LLVMValueRef p = slots[i].cv ? cg_const_global(cg, slots[i].cv) : cg_buffer(cg, &v);
    LLVMBuildStore(cg->b, p, cg_gep(cg, cg->t_ptr, bufs, cg_i64(cg, i)));
  }
  call_kernel(cg, fn, bufs, n, work, grain, after);
  lifetime(cg, "llvm.lifetime.end", bufs, cap);
}

/* ------------------------------------------------------------------------ */
/* Denormals                                                                 */

/* --denormals=flush: each kernel sets flush-to-zero and denormals-are-zero
 * on entry and restores the caller's mode on exit. The control register is
 * per thread, so the kernel (which also runs on the runtime's threads)
 * sets it, not the entry; the caller's mode is never left changed. x86:
 * MXCSR FTZ (bit 15) and DAZ (bit 6); AArch64: FPCR FZ (bit 24). Returns
 * what fp_mode_restore needs, or NULL (reported) on other targets. */
static LLVMValueRef fp_flush_begin(CG *cg) {
  char *triple = LLVMGetTargetMachineTriple(cg->tm);
  bool x86 = !strncmp(triple, "x86_64", 6) || (triple[0] == 'i' && strstr(triple, "86-"));
  bool arm64 = !strncmp(triple, "aarch64", 7) || !strncmp(triple, "arm64", 5);
  if (!x86 && !arm64) {
    if (!cg->errors) /* once, not per kernel */
      diag_error((Loc){0}, "--denormals=flush: not supported on target %s", triple);
    cg->errors++;
    LLVMDisposeMessage(triple);
    return NULL;
  }
  LLVMDisposeMessage(triple);
  LLVMAddTargetDependentFunctionAttr(cg->llfn, "denormal-fp-math", "preserve-sign,preserve-sign");
  if (arm64) {
    LLVMValueRef old = cg_intrinsic(cg->b, "llvm.aarch64.get.fpcr", NULL, 0, NULL, 0);
    LLVMValueRef fz = LLVMBuildOr(cg->b, old, cg_i64(cg, 1 << 24), "");
    cg_intrinsic(cg->b, "llvm.aarch64.set.fpcr", NULL, 0, &fz, 1);
    return old;
  }
  LLVMValueRef old = cg_entry_alloca(cg, cg->t_i32, "mxcsr");
  LLVMValueRef flush = cg_entry_alloca(cg, cg->t_i32, "mxcsr.flush");
  cg_intrinsic(cg->b, "llvm.x86.sse.stmxcsr", NULL, 0, &old, 1);
  LLVMValueRef v = LLVMBuildLoad2(cg->b, cg->t_i32, old, "");
  LLVMBuildStore(cg->b, LLVMBuildOr(cg->b, v, LLVMConstInt(cg->t_i32, 0x8040, 0), ""), flush);
  cg_intrinsic(cg->b, "llvm.x86.sse.ldmxcsr", NULL, 0, &flush, 1);
  return old;
}

static void fp_mode_restore(CG *cg, LLVMValueRef old) {
  if (LLVMTypeOf(old) == cg->t_i64)
    cg_intrinsic(cg->b, "llvm.aarch64.set.fpcr", NULL, 0, &old, 1);
  else
    cg_intrinsic(cg->b, "llvm.x86.sse.ldmxcsr", NULL, 0, &old, 1);
}

/* ------------------------------------------------------------------------ */
/* Identical kernels                                                         */

typedef struct Named {
  LLVMValueRef v;
  char *name;
  size_t len;
} Named;

/* Records v's name (if any) in *at and takes it away. */
static void unname(LLVMValueRef v, Named **at) {
  size_t len;
  const char *name = LLVMGetValueName2(v, &len);
  if (!len) return;
  **at = (Named){v, malloc(len), len};
  if (!(*at)->name) abort();
  memcpy((*at)->name, name, len);
  (*at)++;
  LLVMSetValueName2(v, "", 0);
}

char *cg_print_unnamed(LLVMValueRef fn) {
  size_t n = LLVMCountParams(fn);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
    n++;
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) n++;
  }
  Named *names = malloc((n ? n : 1) * sizeof *names), *end = names;
  if (!names) abort();
  for (LLVMValueRef p = LLVMGetFirstParam(fn); p; p = LLVMGetNextParam(p)) unname(p, &end);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
    unname(LLVMBasicBlockAsValue(bb), &end);
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
      unname(i, &end);
  }
  char *text = LLVMPrintValueToString(fn);
  /* All were taken away, so each gets its own name back, unrenamed. */
  for (Named *k = names; k < end; k++) {
    LLVMSetValueName2(k->v, k->name, k->len);
    free(k->name);
  }
  free(names);
  return text;
}

/* A kernel's code as words, what same_kernel compares: the function's
 * type, linkage, visibility, alignment and attributes, then each block's
 * instructions (opcode, type, operands, and what else LLVM prints of it:
 * flags, predicates, alignment, call attributes, loop hints). An operand
 * that is the function's own (argument, block, instruction) is its place
 * in the function; any other (constant, global, function, inline asm,
 * metadata) is its address, as LLVM uniques those in a context. Before
 * this, the kernel's IR text (LLVMPrintValueToString) was compared, which
 * walks the metadata of every function of the module on each print:
 * ResNet-50 b1, 111 kernels, 100-115 ms of the 125 ms codegen took (Zen
 * 3, load 3.4). A kernel's only metadata at this point are loop hints
 * (core.c cg_loop_id; kernel.c adds alias scopes after): each hint is a
 * uniqued node, put by address; any other kind, or a function property
 * the key does not hold, leaves the kernel compared with none.
 *
 * The addresses are keys only while what they point to lives (codegen.h
 * CG.kkeys). */
typedef struct Slot {
  uintptr_t v;
  uint64_t at; /* odd: never an address */
} Slot;

typedef struct Code {
  uint64_t *w;
  size_t n, cap;
  Slot *slots; /* the function's arguments, blocks and instructions, by address */
  size_t nslots;
  LLVMContextRef ctx;
  unsigned kloop; /* the llvm.loop metadata kind */
} Code;

static int cmp_slot(const void *a, const void *b) {
  uintptr_t x = ((const Slot *)a)->v, y = ((const Slot *)b)->v;
  return x < y ? -1 : x > y;
}

static void put(Code *c, uint64_t x) {
  if (c->n == c->cap) {
    c->cap = c->cap ? 2 * c->cap : 1024;
    c->w = realloc(c->w, c->cap * sizeof *c->w);
    if (!c->w) abort();
  }
  c->w[c->n++] = x;
}

static void put_ptr(Code *c, const void *p) { put(c, (uintptr_t)p); }

static void put_value(Code *c, LLVMValueRef v) {
  Slot key = {(uintptr_t)v, 0};
  const Slot *s = bsearch(&key, c->slots, c->nslots, sizeof *s, cmp_slot);
  put(c, s ? s->at : (uintptr_t)v);
}

/* The attributes at index `at` of function v, or of call v (call):
 * uniqued in a context too, the list sorted. */
static void put_attrs(Code *c, LLVMValueRef v, LLVMAttributeIndex at, bool call) {
  unsigned n = call ? LLVMGetCallSiteAttributeCount(v, at) : LLVMGetAttributeCountAtIndex(v, at);
  LLVMAttributeRef a[n > 0 ? n : 1];
  if (call) LLVMGetCallSiteAttributes(v, at, a);
  else LLVMGetAttributesAtIndex(v, at, a);
  put(c, n);
  for (unsigned k = 0; k < n; k++) put_ptr(c, a[k]);
}

/* False where the call has operand bundles (not put). */
static bool put_call(Code *c, LLVMValueRef i) {
  put_ptr(c, LLVMGetCalledFunctionType(i));
  put(c, LLVMGetInstructionCallConv(i));
  put(c, LLVMGetTailCallKind(i));
  unsigned nargs = LLVMGetNumArgOperands(i);
  put_attrs(c, i, LLVMAttributeFunctionIndex, true);
  for (unsigned at = 0; at <= nargs; at++) put_attrs(c, i, at, true);
  return LLVMGetNumOperandBundles(i) == 0;
}

/* The hints of loop id node md: its operands but the first, the node
 * itself (distinct: cg_loop_id makes it refer to itself). Each is
 * uniqued in the context (an MDString, or an MDNode of one and a
 * constant: cg_loop_opt), so its address says what it is. */
static void put_loop_hints(Code *c, LLVMMetadataRef md) {
  LLVMValueRef node = LLVMMetadataAsValue(c->ctx, md);
  unsigned n = LLVMGetMDNodeNumOperands(node);
  LLVMValueRef ops[n > 0 ? n : 1];
  LLVMGetMDNodeOperands(node, ops);
  put(c, n);
  for (unsigned k = 1; k < n; k++) put_ptr(c, ops[k]);
}

/* Instruction i's metadata; false where it has a kind other than
 * llvm.loop, which could change what the code means (!range, !nonnull,
 * !fpmath ...) without the key saying so. */
static bool put_metadata(Code *c, LLVMValueRef i) {
  if (!LLVMHasMetadata(i)) {
    put(c, 0);
    return true;
  }
  size_t n;
  LLVMValueMetadataEntry *md = LLVMInstructionGetAllMetadataOtherThanDebugLoc(i, &n);
  put(c, n);
  bool ok = true;
  for (unsigned k = 0; ok && k < n; k++) {
    ok = LLVMValueMetadataEntriesGetKind(md, k) == c->kloop;
    if (ok) put_loop_hints(c, LLVMValueMetadataEntriesGetMetadata(md, k));
  }
  LLVMDisposeValueMetadataEntries(md);
  return ok;
}

/* What an instruction of opcode op has besides its type and operands;
 * false for an opcode kernels do not have (atomics, exceptions,
 * indirect branches: the kernel is then compared with none). */
static bool put_inst_extra(Code *c, LLVMValueRef i, LLVMOpcode op) {
  switch (op) {
  case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMShl: case LLVMTrunc:
    put(c, 2u * LLVMGetNUW(i) + LLVMGetNSW(i));
    return true;
  case LLVMUDiv: case LLVMSDiv: case LLVMLShr: case LLVMAShr: put(c, LLVMGetExact(i)); return true;
  case LLVMOr: put(c, LLVMGetIsDisjoint(i)); return true;
  case LLVMZExt: put(c, LLVMGetNNeg(i)); return true;
  case LLVMICmp: put(c, LLVMGetICmpPredicate(i)); return true;
  case LLVMFCmp: put(c, LLVMGetFCmpPredicate(i)); return true;
  case LLVMLoad: case LLVMStore:
    put(c, LLVMGetAlignment(i));
    put(c, LLVMGetVolatile(i));
    return LLVMGetOrdering(i) == LLVMAtomicOrderingNotAtomic;
  case LLVMAlloca:
    put_ptr(c, LLVMGetAllocatedType(i));
    put(c, LLVMGetAlignment(i));
    return true;
  case LLVMGetElementPtr:
    put_ptr(c, LLVMGetGEPSourceElementType(i));
    put(c, LLVMGEPGetNoWrapFlags(i));
    return true;
  case LLVMCall: return put_call(c, i);
  case LLVMShuffleVector:
    for (unsigned k = 0, n = LLVMGetNumMaskElements(i); k < n; k++) put(c, (uint64_t)LLVMGetMaskValue(i, k));
    return true;
  case LLVMExtractValue: case LLVMInsertValue: {
    const unsigned *idx = LLVMGetIndices(i);
    put(c, LLVMGetNumIndices(i));
    for (unsigned k = 0; k < LLVMGetNumIndices(i); k++) put(c, idx[k]);
    return true;
  }
  case LLVMPHI:
    for (unsigned k = 0, n = LLVMCountIncoming(i); k < n; k++)
      put_value(c, LLVMBasicBlockAsValue(LLVMGetIncomingBlock(i, k)));
    return true;
  case LLVMRet: case LLVMBr: case LLVMSwitch: case LLVMUnreachable: case LLVMFNeg:
  case LLVMFAdd: case LLVMFSub: case LLVMFMul: case LLVMFDiv: case LLVMFRem: case LLVMURem:
  case LLVMSRem: case LLVMAnd: case LLVMXor: case LLVMSExt: case LLVMFPToUI:
  case LLVMFPToSI: case LLVMUIToFP: case LLVMSIToFP: case LLVMFPTrunc: case LLVMFPExt:
  case LLVMPtrToInt: case LLVMIntToPtr: case LLVMBitCast: case LLVMSelect:
  case LLVMExtractElement: case LLVMInsertElement: case LLVMFreeze:
    return true;
  default: return false;
  }
}

static bool put_inst(Code *c, LLVMValueRef i) {
  LLVMOpcode op = LLVMGetInstructionOpcode(i);
  put(c, op);
  put_ptr(c, LLVMTypeOf(i));
  int n = LLVMGetNumOperands(i);
  put(c, (uint64_t)n);
  for (int k = 0; k < n; k++) put_value(c, LLVMGetOperand(i, k));
  put(c, LLVMCanValueUseFastMathFlags(i) ? LLVMGetFastMathFlags(i) : 0);
  return put_metadata(c, i) && put_inst_extra(c, i, op);
}

/* Numbers fn's arguments, blocks and instructions in order (c->slots). */
static void number_locals(Code *c, LLVMValueRef fn) {
  size_t n = LLVMCountParams(fn);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
    n++;
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) n++;
  }
  c->slots = malloc((n ? n : 1) * sizeof *c->slots);
  if (!c->slots) abort();
  c->nslots = 0;
  for (LLVMValueRef p = LLVMGetFirstParam(fn); p; p = LLVMGetNextParam(p))
    c->slots[c->nslots] = (Slot){(uintptr_t)p, 2 * c->nslots + 1}, c->nslots++;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
    c->slots[c->nslots] = (Slot){(uintptr_t)LLVMBasicBlockAsValue(bb), 2 * c->nslots + 1}, c->nslots++;
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
      c->slots[c->nslots] = (Slot){(uintptr_t)i, 2 * c->nslots + 1}, c->nslots++;
  }
  qsort(c->slots, c->nslots, sizeof *c->slots, cmp_slot);
}

/* Whether fn has none of the properties kernel_fn never sets and the key
 * does not hold: a section, comdat, GC, personality, prefix or prologue
 * data, metadata. */
static bool plain_fn(LLVMValueRef fn) {
  const char *section = LLVMGetSection(fn);
  if ((section && *section) || LLVMGetComdat(fn) || LLVMGetGC(fn) || LLVMHasPersonalityFn(fn) ||
      LLVMHasPrefixData(fn) || LLVMHasPrologueData(fn))
    return false;
  size_t n;
  LLVMValueMetadataEntry *md = LLVMGlobalCopyAllMetadata(fn, &n);
  LLVMDisposeValueMetadataEntries(md);
  return n == 0;
}

/* Kernel fn's code (malloc'ed, *n words), or NULL where it has an
 * instruction, metadata or a property the key does not hold. */
static uint64_t *kernel_code(LLVMValueRef fn, size_t *n) {
  if (!plain_fn(fn)) return NULL;
  Code c = {.ctx = LLVMGetTypeContext(LLVMTypeOf(fn))};
  c.kloop = LLVMGetMDKindIDInContext(c.ctx, "llvm.loop", 9);
  number_locals(&c, fn);
  put_ptr(&c, LLVMGlobalGetValueType(fn));
  put(&c, LLVMGetFunctionCallConv(fn));
  put(&c, LLVMGetLinkage(fn));
  put(&c, LLVMGetUnnamedAddress(fn));
  put(&c, LLVMGetVisibility(fn));
  put(&c, LLVMGetDLLStorageClass(fn));
  put(&c, LLVMGetAlignment(fn));
  put_attrs(&c, fn, LLVMAttributeFunctionIndex, false);
  for (unsigned k = 0; k <= LLVMCountParams(fn); k++) put_attrs(&c, fn, k, false);
  bool ok = true;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); ok && bb; bb = LLVMGetNextBasicBlock(bb)) {
    /* A block starts: never an opcode. The same word as an undef element
     * of a shufflevector's mask ((uint64_t)-1), but never read in its
     * place: an instruction's words are as many as its opcode, type and
     * operand count say. */
    put(&c, ~0ull);
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); ok && i; i = LLVMGetNextInstruction(i))
      ok = put_inst(&c, i);
  }
  free(c.slots);
  if (!ok) {
    free(c.w);
    return NULL;
  }
  *n = c.n;
  return c.w;
}

/* FNV-1a of the words. */
static uint64_t hash_words(const uint64_t *w, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t k = 0; k < n; k++) h = (h ^ w[k]) * 1099511628211ull;
  return h;
}

/* An earlier kernel with the same code as fn (kernels read their buffers
 * only through their frame, so the same code computes the same thing on
 * other buffers), or NULL after recording fn as a new one (or, where
 * kernel_code has none for it, comparing it with none). */
static LLVMValueRef same_kernel(CG *cg, LLVMValueRef fn) {
  size_t n = 0;
  uint64_t *code = kernel_code(fn, &n);
  if (!code) return NULL;
  uint64_t h = hash_words(code, n);
  for (int i = 0; i < cg->nkkeys; i++)
    if (cg->kkeys[i].hash == h && cg->kkeys[i].len == n && !memcmp(cg->kkeys[i].code, code, n * sizeof *code)) {
      free(code);
      return cg->kkeys[i].fn;
    }
  if (cg->nkkeys == cg->kkeys_cap) {
    cg->kkeys_cap = cg->kkeys_cap ? 2 * cg->kkeys_cap : 64;
    cg->kkeys = realloc(cg->kkeys, (size_t)cg->kkeys_cap * sizeof *cg->kkeys);
    if (!cg->kkeys) abort();
  }
  cg->kkeys[cg->nkkeys++] = (CgKernelKey){h, code, n, fn};
  return NULL;
}

/* The kernels that are not a loop over the elemental generator (the op
 * table's kernel and gemm): the blocked GEMM kernels of dot.c and conv.c,
 * and the outer reduce of reduce.c, where they apply; the non-elemental
 * ops always. */
static bool special_kernel(CG *cg, Op *root, Value *const *dsts) {
  Op *src = epilogue_source(root);
  if (src) {
    /* The GEMM accumulates in the root's buffer; without one (never from
     * cg_kernel) the elemental loop computes the dot per element. */
    if (dsts[0] != root->results[0]) return false;
    return cg_op_impl(src->code)->gemm(cg, src, root);
  }
  const CgOpImpl *impl = cg_op_impl(root->code);
  if (impl->gemm) return impl->gemm(cg, root, NULL);
  return impl->kernel && impl->kernel(cg, root);
}

/* Kernels that must run as one call over [0, 1): scatter and
 * select_and_scatter apply their updates in sequence; a sort cannot split
 * the dimension it sorts, nor linalg.c/fft.c a dimension they transform;
 * rng.c writes two results of different shapes in one loop. */
static bool serial_kernel(Op *root, int pdim) {
  switch (cg_op_impl(root->code)->split) {
  case CG_SPLIT_NEVER: return true;
  case CG_SPLIT_UNSORTED: return cg_sort_dim(root) == pdim;
  case CG_SPLIT_BATCH: return pdim >= cg_linalg_batch_rank(root);
  default: return false;
  }
}

/* Emits the kernel computing root's results into the buffers of dsts
 * (NULL entries are not stored) and the call to it. */
static void emit_kernel(CG *cg, Op *root, Value *const *dsts) {
  const Type *t = root->results[0]->type;
  int64_t numel = type_num_elems(t);
  if (numel == 0) return;
  char *seen = seen_new(cg);
  bool row = root->nresults == 1 && t->rank >= 1 && row_tree(root, seen);
  memset(seen, 0, (size_t)cg->fn->next_value_id + 1);
  bool flat = !row && t->rank > 1;
  for (Op *s = root; s && flat; s = s->sibling) flat = flat_tree(s, t, seen);
  int64_t unit, count, count_grain;
  int gdim = split_dim(cg, root, t, &unit, &count, &count_grain);
  int pdim = row ? row_split_dim(t) : gdim;
  memset(seen, 0, (size_t)cg->fn->next_value_id + 1);
  bool tiled = !row && !flat && !root->sibling && pdim <= t->rank - 2 && t->dims[t->rank - 1] >= TILE &&
               t->dims[t->rank - 2] >= TILE && transposing(root, seen);
  free(seen);
  CgFnState s = cg_save_fn(cg);
  char name[512];
  LLVMValueRef fn = kernel_fn(cg, name, sizeof name);
  CgBase *slots = calloc((size_t)(cg->fn->next_value_id + cg->fn->nresults + 2), sizeof *slots);
  if (!slots) abort();
  cg->kslots = slots;
  cg->nkslots = 0;
  cg_fn_begin(cg, fn);
  cg->frame = LLVMGetParam(fn, 0);
  LLVMValueRef fp_mode = cg->o->flush_denormals ? fp_flush_begin(cg) : NULL;
  bool special = special_kernel(cg, root, dsts);
  if (special) {
    if (unit > 1 || count) pdim = gdim; /* a GEMM's units, even under a row kernel's root */
  } else {
    unit = 1; /* the loops below take [begin, end) of pdim itself */
    count = 0;
    if (row)
      row_loops(cg, root, dsts, t, pdim);
    else if (flat)
      flat_loop(cg, root, dsts, t);
    else if (tiled)
      tiled_loops(cg, root, dsts, t, pdim);
    else
      nest_loops(cg, root, dsts, t, pdim);
  }
  if (fp_mode) fp_mode_restore(cg, fp_mode);
  LLVMBuildRetVoid(cg->b);
  LLVMValueRef same = same_kernel(cg, fn);
  if (!same) add_alias_scopes(cg, name);
  cg_fn_end(cg);
  if (same) {
    LLVMDeleteFunction(fn);
    fn = same;
  }
  int nslots = cg->nkslots;
  cg->kslots = NULL;
  cg->nkslots = 0;
  cg_restore_fn(cg, &s);
  Op *src = epilogue_source(root);
  int sums = 0, pieces = special ? cg_dot_ksplit(cg, src ? src : root, &sums) : 0;
  int64_t n = pieces                                ? pieces + sums
              : count                                 ? count
              : serial_kernel(root, pdim) || pdim < 0 ? 1
              : flat                                  ? numel
              : t->rank                               ? (t->dims[pdim] + unit - 1) / unit
                                                      : 1;
  int64_t grain = pieces || flat || pdim < 0 ? 1
                  : count                    ? count_grain
                                             : split_grain(root, pdim);
  call_with_slots(cg, fn, slots, nslots, n, kernel_work(root), grain, sums);
  free(slots);
}

void cg_kernel(CG *cg, Op *root) {
  if (root->nresults == 0) {
    cg_unsupported(cg, root, NULL);
    return;
  }
  char *seen = seen_new(cg);
  bool ok = true;
  for (Op *s = root; s && ok; s = s->sibling) ok = check_tree(cg, s, seen);
  free(seen);
  if (!ok) return;
  /* One loop nest computes every result: they share one shape (variadic
   * reduce and the like); ops whose results differ are not elemental, but
   * one without a generator (rng_bit_generator) loops on its own. */
  const CgOpImpl *impl = cg_op_impl(root->code);
  bool own_loops = !impl->value && !impl->values;
  Value *dsts[root->nresults];
  for (int i = 0; i < root->nresults; i++) {
    Value *v = root->results[i];
    if (!type_is_tensor(v->type) ||
        (!own_loops && !type_same_dims(v->type, root->results[0]->type))) {
      cg_unsupported(cg, root, NULL);
      return;
    }
    bool has_buf = v->storage == ST_TEMP || v->storage == ST_RESULT;
    dsts[i] = has_buf ? v : NULL;
  }
  emit_kernel(cg, root, dsts);
}

/* ------------------------------------------------------------------------ */
/* Copies                                                                    */

static bool same_storage(const Value *a, const Value *b) {
  if (a == b) return true;
  if (a->storage != b->storage || a->offset != b->offset) return false;
  return a->storage == ST_ARG || a->storage == ST_RESULT || a->storage == ST_TEMP;
}

void cg_kernel_copy(CG *cg, Value *src, Value *dst) {
  if (same_storage(src, dst)) return;
  int64_t bytes = type_byte_size(src->type);
  if (bytes <= 0) return;
  bool splat = src->storage == ST_CONST && src->def->a.value->splat &&
               type_num_elems(src->type) > 1;
  if (src->storage != ST_NONE && !splat) {
    LLVMValueRef from = cg_buffer(cg, src);
    LLVMBuildMemCpy(cg->b, cg_buffer(cg, dst), 1, from, 1, cg_i64(cg, bytes));
    return;
  }
  /* A splat constant or a fused value: a kernel computes it into dst. */
  Op *def = src->def;
  if (!def) {
    fprintf(stderr, "shloc: internal error: block argument %%%d has no buffer\n", src->id);
    abort();
  }
  char *seen = seen_new(cg);
  bool ok = check_tree(cg, def, seen);
  free(seen);
  if (!ok) return;
  Value *dsts[def->nresults];
  for (int i = 0; i < def->nresults; i++) dsts[i] = i == src->index ? dst : NULL;
  emit_kernel(cg, def, dsts);
}
