/* fuse.c: forms kernels by marking producers that are computed inside their
 * consumers (Op.fused) instead of being written to memory.
 *
 * Codegen emits one loop nest per unfused op ("kernel root") that computes
 * the root's value at each index through elemental generators, which pull
 * the values of fused operands at the index they need (codegen.h). So a
 * producer X can be fused when:
 *  - X has an elemental generator that is cheap to call at any index:
 *    elementwise ops, broadcast_in_dim, reshape, transpose, slice,
 *    concatenate, pad, reverse, iota, convert, bitcast_convert between
 *    types of one width, dynamic_slice. Never reduce, reduce_window,
 *    dot_general, convolution, gather (whole loops per element: their
 *    results are roots; but see fuse_epilogues for dots and convolutions)
 *    nor constants (no kernel at all: read from memory);
 *  - every user of X is in X's block and reads X elementally: any op
 *    computed by a kernel, except the operands of dot_general and
 *    convolution (their kernels want packed buffers), and not control
 *    flow, returns, checks, custom calls (they need X in memory);
 *  - fusing evaluates X no more often than a root would: X has one use and
 *    that user reads each element of X once. Otherwise (several uses, or a
 *    user that reads elements repeatedly: broadcast_in_dim, reduce_window,
 *    gather, scalar operands of select/clamp/pad...) X is recomputed, which
 *    we allow only for cheap chains: index remapping ops and cheap
 *    elementwise ops, with no expensive op (exp, log, divide, sqrt...) in
 *    the fused chain behind X, at most DUP_COST_MAX ops in it, and at most
 *    one input streamed at X's size (so that recomputing X moves no more
 *    memory than loading it would).
 * Reductions thus absorb their producers (reduce reads operands
 * elementally, once each), and elementwise epilogues absorb everything
 * cheap before them.
 *
 * Three later steps group kernels: GEMM epilogues (fuse_epilogues), row
 * kernels that compute the reduces over a row and what they feed in one
 * pass over the row (fuse_rows: softmax, layernorm), and siblings, which
 * compute independent roots reading one input in one loop nest
 * (fuse_siblings).
 *
 * Blocks of while/if/case are kernel blocks like the function body; the
 * scalar regions of reduce/reduce_window (and other region ops) are not:
 * codegen evaluates them on scalars, their ops are never marked.
 *
 * At -O0 nothing is fused: every non-constant op is its own kernel, which is
 * what the differential test compares -O3 against.
 *
 * Op.kernel numbers the kernels of a function from 1 in program order; a
 * fused op gets the number of (one of) the kernels it is computed in. It is
 * only for dumps.
 */
#include <stdlib.h>
#include <string.h>

#include "../ir/ir.h"

/* Most ops a duplicated fused chain may hold (X and its fused producers,
 * counted with multiplicity): beyond that, a load is cheaper. */
enum { DUP_COST_MAX = 6 };

typedef struct Use {
  Op *user;
  int index; /* operand index in user */
} Use;

/* Facts of X's fused chain (X and the fused producers it evaluates), per
 * operand slot since each slot evaluates its producer: whether it holds a
 * costly op, how many ops it has, and how many of the buffers it reads are
 * streamed (read at as many elements as their reader computes, unlike the
 * small tensors behind a broadcast or the scalars of a select). */
typedef struct Chain {
  bool expensive;
  int cost;
  int streams;
  int depth; /* the longest path of fused ops ending here */
} Chain;

/* Codegen evaluates a fused chain by recursion over its producers; a
 * deeper chain becomes a kernel root (which also bounds the recursion of
 * gemm_behind and of codegen's cg_value_at on long op chains). */
enum { FUSE_DEPTH_MAX = 128 };

typedef struct Fuser {
  Func *f;
  int nvalues;
  int *use_start; /* by value id: CSR offsets into uses (nvalues + 1) */
  Use *uses;
  Chain *chains;   /* by result id of a fused op: its chain_of() */
  int nkernels;
  /* Row kernels (fuse_rows), by result id: the stamp of the group an op is
   * in and of the group whose taint was computed, the taint itself; the
   * group's ops and the ops it took from other kernels. */
  int *grp, *taint_stamp;
  bool *tainted;
  int stamp;
  Op **gops, **taken;
  int ngops, ntaken;
} Fuser;

/* ------------------------------------------------------------------------ */
/* Op classes                                                                */

/* X's kind allows fusion: a fusible op (ir.h) with one result; a
 * bitcast_convert only between types of one width (else one result
 * element is several operand elements, or a part of one). */
static bool is_fusible_kind(const Op *op) {
  if (op->nresults != 1 || !(op_flags(op->code) & OPF_IMPL) || !ir_is_fusible(op->code))
    return false;
  if (op->code != OP_BITCAST_CONVERT) return true;
  const Type *in = op->opnds[0]->type, *out = op->results[0]->type;
  return in->kind == TY_TENSOR && out->kind == TY_TENSOR &&
         elem_bits(in->elem) == elem_bits(out->elem);
}

/* Whether `user` may read an element of operand `i` more than once per
 * evaluation of its own result (so a fused operand would be recomputed). */
static bool reads_repeatedly(const Op *user, int i) {
  switch (user->code) {
  case OP_REDUCE_WINDOW: case OP_GATHER: return true;
  /* scatter reads its inputs and updates once per element, its indices
   * once per window element; select_and_scatter its operand once per
   * window holding it, its source once (spec "scatter",
   * "select_and_scatter"; codegen/scatter.c). */
  case OP_SCATTER: return i == user->nresults;
  case OP_SELECT_AND_SCATTER: return i != 1;
  case OP_CONCATENATE: return false;
  case OP_PAD: if (i == 0) return false; break;
  case OP_DYNAMIC_UPDATE_SLICE: if (i <= 1) return false; break;
  default: break;
  }
  if (user->nresults < 1) return false;
  int64_t in = type_num_elems(user->opnds[i]->type);
  int64_t out = type_num_elems(user->results[0]->type);
  return in < 0 || out < 0 || in < out;
}

/* ------------------------------------------------------------------------ */
/* Use lists                                                                 */

static void count_use(Op *op, void *ctx) {
  Fuser *fu = ctx;
  for (int i = 0; i < op->nopnds; i++) fu->use_start[op->opnds[i]->id + 1]++;
}

static void fill_use(Op *op, void *ctx) {
  Fuser *fu = ctx;
  for (int i = 0; i < op->nopnds; i++) {
    int id = op->opnds[i]->id;
    fu->uses[fu->use_start[id]++] = (Use){op, i};
  }
}

static void build_uses(Fuser *fu) {
  int n = fu->nvalues;
  fu->use_start = calloc((size_t)n + 2, sizeof(int));
  if (!fu->use_start) abort();
  ir_walk(fu->f, count_use, fu);
  for (int i = 0; i < n; i++) fu->use_start[i + 1] += fu->use_start[i];
  fu->uses = malloc(sizeof(Use) * ((size_t)fu->use_start[n] + 1));
  if (!fu->uses) abort();
  ir_walk(fu->f, fill_use, fu);
  /* fill_use advanced each start to the next value's start: shift back. */
  for (int i = n; i > 0; i--) fu->use_start[i] = fu->use_start[i - 1];
  fu->use_start[0] = 0;
}

/* ------------------------------------------------------------------------ */
/* Decisions                                                                 */

/* The chain X would have if fused (operands' decisions are known). */
static Chain chain_of(Fuser *fu, const Op *x) {
  Chain c = {ir_is_costly(x->code), 1, 0, 1};
  int64_t n = type_num_elems(x->results[0]->type);
  for (int i = 0; i < x->nopnds; i++) {
    const Value *v = x->opnds[i];
    int64_t k = type_num_elems(v->type);
    bool full = k < 0 || n < 0 || k >= n; /* not read through a broadcast */
    if (!v->def || !v->def->fused) {
      c.streams += full;
      continue;
    }
    Chain p = fu->chains[v->id];
    c.expensive |= p.expensive;
    c.cost += p.cost;
    /* Read through a broadcast (fewer elements than X), p's streams are
     * streams of p's size, not of X's: BERT's bias, broadcast in two
     * steps, 3072 to 1x1x3072 to 1x128x3072. */
    if (full) c.streams += p.streams;
    if (p.depth + 1 > c.depth) c.depth = p.depth + 1;
  }
  return c;
}

static bool should_fuse(Fuser *fu, Op *x) {
  if (!is_fusible_kind(x)) return false;
  Value *v = x->results[0];
  int nuses = fu->use_start[v->id + 1] - fu->use_start[v->id];
  if (nuses == 0) return false;
  bool repeated = nuses > 1;
  for (int k = fu->use_start[v->id]; k < fu->use_start[v->id + 1]; k++) {
    Use u = fu->uses[k];
    if (u.user->parent != x->parent || !ir_reads_elementally(u.user))
      return false;
    repeated |= reads_repeatedly(u.user, u.index);
  }
  Chain c = chain_of(fu, x);
  fu->chains[v->id] = c;
  if (c.depth > FUSE_DEPTH_MAX) return false;
  if (!repeated) return true;
  /* Recomputing should stream no more memory than loading X would: one
   * input of X's size (x - broadcast(mean) is recomputed; the residual
   * add of two buffers is stored, else both inputs stay alive until its
   * last user and chains of such adds grow layer after layer). */
  return ir_is_cheap(x->code) && !c.expensive && c.cost <= DUP_COST_MAX && c.streams <= 1;
}

static void clear_marks(Op *op, void *ctx) {
  (void)ctx;
  op->fused = false;
  op->kernel = 0;
  op->leader = op->sibling = NULL;
}

/* Decides fusion for the ops of a kernel block in program order (a
 * producer's decision is known when its consumers look at their chain),
 * then for the kernel blocks nested in its control flow. */
static void fuse_block(Fuser *fu, Block *b, bool enabled) {
  for (Op *op = b->first; op; op = op->next) {
    if (enabled) op->fused = should_fuse(fu, op);
    if (ir_has_scalar_regions(op)) continue;
    for (int r = 0; r < op->nregions; r++)
      for (int k = 0; k < op->regions[r]->nblocks; k++)
        fuse_block(fu, op->regions[r]->blocks[k], enabled);
  }
}

/* ------------------------------------------------------------------------ */
/* GEMM epilogues                                                            */

static bool same_shape(const Type *a, const Type *b) {
  if (a->rank != b->rank) return false;
  for (int d = 0; d < a->rank; d++)
    if (a->dims[d] != b->dims[d]) return false;
  return true;
}

static int nuses(const Fuser *fu, const Value *v) {
  return fu->use_start[v->id + 1] - fu->use_start[v->id];
}

/* Whether every use of v is in root's kernel: root itself, or fused
 * elementwise ops of v's shape whose uses are (recursively). *budget
 * bounds the walk (a DAG of shared values is walked per path). */
static bool uses_only_in(const Fuser *fu, const Value *v, const Op *root, int *budget) {
  for (int k = fu->use_start[v->id]; k < fu->use_start[v->id + 1]; k++) {
    const Op *u = fu->uses[k].user;
    if (u == root) continue;
    if (--*budget < 0 || !u->fused || !ir_is_elementwise(u->code) || u->nresults != 1 ||
        !same_shape(u->results[0]->type, v->type) || !uses_only_in(fu, u->results[0], root, budget))
      return false;
  }
  return true;
}

/* Whether fused value v of a chain to root may be part of root's epilogue:
 * one use, or several all in root's kernel where the caller can tell. */
static bool chain_use_ok(const FuseFacts *ff, const Value *v, const Op *root) {
  return ff->nuses(ff->ctx, v) == 1 || (ff->in_kernel && ff->in_kernel(ff->ctx, v, root));
}

/* The dot_general or convolution reached from x through fused elementwise
 * ops of x's shape (chain_use_ok), itself unfused with one use. The first
 * one found (in operand order) when there are several. */
static Op *gemm_behind(const FuseFacts *ff, const Op *root, Op *x) {
  const Type *t = x->results[0]->type;
  for (int i = 0; i < x->nopnds; i++) {
    Value *v = x->opnds[i];
    Op *d = v->def;
    if (!d || d->parent != x->parent || d->nresults != 1 || !same_shape(v->type, t))
      continue;
    bool fused = ff->fused(ff->ctx, d);
    if (!fused && ir_is_gemm(d->code) && ff->nuses(ff->ctx, v) == 1)
      return d;
    if (fused && ir_is_elementwise(d->code) && chain_use_ok(ff, v, root)) {
      Op *s = gemm_behind(ff, root, d);
      if (s) return s;
    }
  }
  return NULL;
}

Op *fuse_epilogue_source(const FuseFacts *ff, Op *root) {
  if (root->nresults != 1 || ff->fused(ff->ctx, root) || !ir_is_elementwise(root->code) ||
      !(op_flags(root->code) & OPF_IMPL) || !type_is_tensor(root->results[0]->type))
    return NULL;
  Op *d = gemm_behind(ff, root, root);
  return d && d->results[0]->type->elem == root->results[0]->type->elem ? d : NULL;
}

static bool op_fused(const void *ctx, const Op *op) {
  (void)ctx;
  return op->fused;
}

static int fuser_nuses(const void *ctx, const Value *v) {
  return nuses(ctx, v);
}

static bool fuser_in_kernel(const void *ctx, const Value *v, const Op *root) {
  int budget = 64;
  return uses_only_in(ctx, v, root, &budget);
}

/* A convolution or dot_general whose value only feeds an elementwise chain
 * (batch norm and ReLU after a convolution, bias and activation after a
 * dot) is computed by the chain's kernel: the GEMM kernel applies the
 * chain when it has finished a block of C, while the block is in cache,
 * instead of a second kernel re-reading C from memory (codegen/dot.c).
 * The chain's root must be elementwise and store the dot's element type,
 * since the GEMM accumulates in the root's buffer. */
static void fuse_epilogues(Fuser *fu, Block *b) {
  for (Op *op = b->first; op; op = op->next) {
    if (ir_has_scalar_regions(op)) continue;
    for (int r = 0; r < op->nregions; r++)
      for (int k = 0; k < op->regions[r]->nblocks; k++)
        fuse_epilogues(fu, op->regions[r]->blocks[k]);
  }
  FuseFacts ff = {fu, op_fused, fuser_nuses, fuser_in_kernel};
  for (Op *op = b->first; op; op = op->next) {
    Op *d = fuse_epilogue_source(&ff, op);
    if (d) d->fused = true;
  }
}

/* ------------------------------------------------------------------------ */
/* Row kernels                                                               */

/* Where a value stands in a row kernel over shape F (rank r; a row is F's
 * last dimension): ROW_FULL has F's shape and is read at [i, j]; ROW_RED
 * has one element per row (the outer dimensions of F, or those and a last
 * dimension of 1) and is read at row i only. */
typedef enum RowClass { ROW_OTHER, ROW_FULL, ROW_RED } RowClass;

static RowClass row_class(const Type *t, const Type *f) {
  if (t->kind != TY_TENSOR) return ROW_OTHER;
  if (same_shape(t, f)) return ROW_FULL;
  int outer = f->rank - 1;
  if (t->rank != outer && !(t->rank == f->rank && t->dims[outer] == 1)) return ROW_OTHER;
  for (int d = 0; d < outer; d++)
    if (t->dims[d] != f->dims[d]) return ROW_OTHER;
  return ROW_RED;
}

/* Whether u, evaluated anywhere in row i, reads v only in row i: what a
 * value computed from a row reduce needs, since the kernel computes it
 * once per row. Elementwise ops of v's shape, broadcast_in_dim keeping
 * the outer dimensions in place (spec "broadcast_in_dim": result index
 * [i, j] reads operand [i] or [i, 0]), reshapes between one-element-per-
 * row shapes (the same linear index), and a row reduce of v. */
static bool reads_same_row(const Op *u, const Value *v, const Type *f) {
  if (u->nresults != 1 || row_class(v->type, f) == ROW_OTHER) return false;
  const Type *ut = u->results[0]->type;
  if (row_class(ut, f) == ROW_OTHER) return false;
  if (ir_is_row_reduce(u)) return u->opnds[0] == v && same_shape(v->type, f);
  if (ir_is_elementwise(u->code)) return same_shape(v->type, ut) || v->type->rank == 0;
  if (u->code == OP_RESHAPE) return type_num_elems(v->type) == type_num_elems(ut);
  if (u->code != OP_BROADCAST_IN_DIM) return false;
  const I64List *bd = &u->a.broadcast_dimensions;
  for (int k = 0; k < bd->n; k++)
    if (bd->v[k] != k) return false;
  return true;
}

/* Ops a row kernel may take from other kernels: row reduces of F, and the
 * elementwise, broadcast and reshape ops between them and the root. */
static bool row_member_kind(const Op *p, const Type *f) {
  if (p->nresults != 1 || !(op_flags(p->code) & OPF_IMPL)) return false;
  if (ir_is_row_reduce(p)) return same_shape(p->opnds[0]->type, f);
  if (!is_fusible_kind(p) || row_class(p->results[0]->type, f) == ROW_OTHER) return false;
  return ir_is_elementwise(p->code) || p->code == OP_BROADCAST_IN_DIM || p->code == OP_RESHAPE;
}

static bool in_group(const Fuser *fu, const Op *op) {
  return op->nresults > 0 && fu->grp[op->results[0]->id] == fu->stamp;
}

static void push_op(Op ***a, int *n, Op *op) {
  if ((*n & (*n - 1)) == 0) { /* 0, 1, 2, 4 ...: grow to the next power of 2 */
    *a = realloc(*a, sizeof(Op *) * (size_t)(*n ? 2 * *n : 1));
    if (!*a) abort();
  }
  (*a)[(*n)++] = op;
}

/* Adds op and the fused ops it evaluates to the group. */
static void group_add_tree(Fuser *fu, Op *op) {
  if (in_group(fu, op)) return;
  fu->grp[op->results[0]->id] = fu->stamp;
  push_op(&fu->gops, &fu->ngops, op);
  for (int i = 0; i < op->nopnds; i++) {
    Op *d = op->opnds[i]->def;
    if (d && d->fused && d->parent == op->parent) group_add_tree(fu, d);
  }
}

static void group_start(Fuser *fu, Op *root) {
  fu->stamp++;
  fu->ngops = 0;
  group_add_tree(fu, root);
}

static bool users_in_group(Fuser *fu, const Value *v) {
  for (int k = fu->use_start[v->id]; k < fu->use_start[v->id + 1]; k++)
    if (!in_group(fu, fu->uses[k].user)) return false;
  return true;
}

/* Whether op's kernel computes a GEMM (fuse_epilogues). */
static bool tree_has_gemm(const Op *op) {
  for (int i = 0; i < op->nopnds; i++) {
    const Op *d = op->opnds[i]->def;
    if (d && d->fused && (ir_is_gemm(d->code) || tree_has_gemm(d))) return true;
  }
  return false;
}

/* Takes into the group every root of the kinds above (and its fused tree)
 * whose users all are in the group, until none is left: the consumers of
 * a softmax's max are only in the group once its exp is. */
static void group_take(Fuser *fu, Op *root, const Type *f) {
  for (bool changed = true; changed;) {
    changed = false;
    for (int k = 0; k < fu->ngops; k++) {
      Op *op = fu->gops[k];
      for (int i = 0; i < op->nopnds; i++) {
        Op *p = op->opnds[i]->def;
        if (!p || p->fused || p->parent != root->parent || in_group(fu, p) ||
            !row_member_kind(p, f) || !users_in_group(fu, p->results[0]))
          continue;
        if (tree_has_gemm(p)) continue; /* an epilogue root: stays a GEMM kernel */
        p->fused = true;
        push_op(&fu->taken, &fu->ntaken, p);
        group_add_tree(fu, p);
        changed = true;
      }
    }
  }
}

/* Whether op's value depends on a row reduce of the group. */
static bool is_tainted(Fuser *fu, Op *op) {
  int id = op->results[0]->id;
  if (fu->taint_stamp[id] == fu->stamp) return fu->tainted[id];
  bool t = ir_is_row_reduce(op) && op->fused;
  for (int i = 0; i < op->nopnds && !t; i++) {
    Op *d = op->opnds[i]->def;
    t = d && d->fused && in_group(fu, d) && is_tainted(fu, d);
  }
  fu->taint_stamp[id] = fu->stamp;
  fu->tainted[id] = t;
  return t;
}

/* Every value computed from a row reduce is read in its own row only, by
 * ops of the group (else a bound per-row scalar would be read in another
 * row, or the reduce recomputed by another kernel). */
static bool group_valid(Fuser *fu, Op *root, const Type *f) {
  for (int k = 0; k < fu->ngops; k++) {
    Op *op = fu->gops[k];
    if (op == root || !is_tainted(fu, op)) continue;
    Value *v = op->results[0];
    for (int u = fu->use_start[v->id]; u < fu->use_start[v->id + 1]; u++) {
      Op *user = fu->uses[u].user;
      if (!in_group(fu, user) || !reads_same_row(user, v, f)) return false;
    }
  }
  return true;
}

/* Whether a row kernel recomputes p (taken, independent of its row
 * reduces) rather than reading it from memory: an elementwise op whose
 * chain streams at most one input and holds few ops. (The residual sum a
 * layernorm reads streams two and is stored anyway.) */
static bool row_recomputed(Fuser *fu, const Op *p) {
  if (!ir_is_elementwise(p->code)) return false;
  Chain c = chain_of(fu, p);
  return c.streams <= 1 && c.cost <= DUP_COST_MAX;
}

/* Grows root's kernel into a row kernel when it consumes row reduces of
 * its own shape (fuse_rows). Returns whether it did. */
static bool fuse_row_root(Fuser *fu, Op *root) {
  if (root->nresults != 1 || !ir_is_elementwise(root->code)) return false;
  const Type *f = root->results[0]->type;
  if (!type_is_tensor(f) || f->rank < 1 || type_num_elems(f) <= 0) return false;
  if (tree_has_gemm(root)) return false;
  group_start(fu, root);
  fu->ntaken = 0;
  group_take(fu, root, f);
  /* What the group took that no row reduce feeds is an ordinary kernel
   * again, unless recomputing it from the row in cache in each loop over
   * the row is cheap: an elementwise op streaming one input (softmax's
   * scores / 8). The taint of the rest cannot change: it flows from
   * producers. */
  int nreduces = 0;
  for (int k = 0; k < fu->ntaken; k++) {
    Op *p = fu->taken[k];
    if (!is_tainted(fu, p) && !row_recomputed(fu, p)) p->fused = false;
    nreduces += ir_is_row_reduce(p);
  }
  group_start(fu, root);
  if (nreduces > 0 && group_valid(fu, root, f)) return true;
  for (int k = 0; k < fu->ntaken; k++) fu->taken[k]->fused = false;
  return false;
}

/* The fused elementwise op whose only user is the reshape root op (a
 * softmax reshaped for the dot that reads it), or NULL. As the root of a
 * row kernel it is stored, and the reshape of it aliases its buffer
 * (buffers.c) instead of being a kernel. */
static Op *reshaped_root(Fuser *fu, Op *op) {
  if (op->code != OP_RESHAPE) return NULL;
  Op *x = op->opnds[0]->def;
  if (!x || !x->fused || x->parent != op->parent || !ir_is_elementwise(x->code) ||
      nuses(fu, x->results[0]) != 1)
    return NULL;
  return x;
}

/* A softmax or layernorm is a chain of kernels that each read the row
 * again: row reduces (max, sum, mean, variance), the per-row values made
 * from them, and the elementwise ops that broadcast those back over the
 * row. An elementwise root consuming row reduces of its own shape takes
 * them in: codegen (kernel.c) computes, per row, each reduce once (the row
 * stays in cache) and the root's elements after, so the row is read from
 * memory once and written once. Roots are visited last first, so the last
 * op of a softmax takes the whole chain; a reshape root tries the op it
 * reshapes. */
static void fuse_rows(Fuser *fu, Block *b) {
  for (Op *op = b->last; op; op = op->prev) {
    if (ir_has_scalar_regions(op)) continue;
    for (int r = 0; r < op->nregions; r++)
      for (int k = 0; k < op->regions[r]->nblocks; k++)
        fuse_rows(fu, op->regions[r]->blocks[k]);
  }
  for (Op *op = b->last; op; op = op->prev) {
    if (!ir_is_kernel_root(op) || fuse_row_root(fu, op)) continue;
    Op *x = reshaped_root(fu, op);
    if (x && !(x->fused = false, fuse_row_root(fu, x))) x->fused = true;
  }
}

/* ------------------------------------------------------------------------ */
/* Siblings                                                                  */

/* The roots a sibling group may hold: plain elementwise kernels (1), or
 * row reduces (2), whose results are read; 0 for any other. */
static int sibling_kind(Fuser *fu, Op *op) {
  if (!ir_is_kernel_root(op) || op->nresults != 1 || nuses(fu, op->results[0]) == 0 ||
      !(op_flags(op->code) & OPF_IMPL) || !type_is_tensor(op->results[0]->type) ||
      type_num_elems(op->results[0]->type) <= 0 || tree_has_gemm(op))
    return 0;
  if (ir_is_row_reduce(op)) return 2;
  return ir_is_elementwise(op->code) ? 1 : 0;
}

/* Adds to leaves the ids of the values op's kernel reads from memory
 * (constants aside), once each (mark: stamp by value id); returns false
 * when the tree holds a row reduce (a row kernel, never a sibling). */
static bool tree_leaves(Fuser *fu, Op *op, int **leaves, int *n) {
  for (int i = 0; i < op->nopnds; i++) {
    Value *v = op->opnds[i];
    if (fu->grp[v->id] == fu->stamp) continue;
    fu->grp[v->id] = fu->stamp;
    Op *d = v->def;
    if (d && d->fused) {
      if (ir_is_row_reduce(d) || !tree_leaves(fu, d, leaves, n)) return false;
    } else if (!d || d->code != OP_CONSTANT) {
      if ((*n & (*n - 1)) == 0) {
        *leaves = realloc(*leaves, sizeof(int) * (size_t)(*n ? 2 * *n : 1));
        if (!*leaves) abort();
      }
      (*leaves)[(*n)++] = v->id;
    }
  }
  return true;
}

/* Most roots one sibling kernel computes. */
enum { SIBLINGS_MAX = 4 };

/* Whether b can join the kernel of leader a: the same kind and index space
 * (and, for row reduces, the same rows), a group not full, and every value
 * b reads defined before a (so b does not depend on a, and its inputs are
 * ready when a's kernel runs). pos: by value id, the position of its op in
 * the block (-1: defined outside it). */
static bool sibling_fits(Fuser *fu, Op *a, Op *b, const int *leaves, int n, const int *pos) {
  if (a->leader || sibling_kind(fu, a) != sibling_kind(fu, b) ||
      !same_shape(a->results[0]->type, b->results[0]->type))
    return false;
  if (ir_is_row_reduce(a) && !same_shape(a->opnds[0]->type, b->opnds[0]->type)) return false;
  int size = 1;
  for (Op *s = a->sibling; s; s = s->sibling) size++;
  if (size >= SIBLINGS_MAX) return false;
  for (int k = 0; k < n; k++)
    if (pos[leaves[k]] >= pos[a->results[0]->id]) return false;
  return true;
}

/* Independent kernels that read the same input over the same index space
 * (the relu and the mask of one activation, a row's max and sum when both
 * are needed elsewhere) become one kernel, the earliest's, which computes
 * and stores every result in one loop nest: the shared input is read from
 * memory once. Codegen (kernel.c) evaluates each root per index, row
 * reduces in one loop over the row (cg_gen_row_reduces); the buffers pass
 * places the followers' results as defined at their leader. */
static void fuse_siblings(Fuser *fu, Block *b) {
  for (Op *op = b->first; op; op = op->next) {
    if (ir_has_scalar_regions(op)) continue;
    for (int r = 0; r < op->nregions; r++)
      for (int k = 0; k < op->regions[r]->nblocks; k++)
        fuse_siblings(fu, op->regions[r]->blocks[k]);
  }
  int *pos = malloc(sizeof(int) * (size_t)(fu->nvalues + 1));
  /* by kind and value: the latest root (leader) of that kind reading it */
  Op **reader = calloc(3 * ((size_t)fu->nvalues + 1), sizeof(Op *));
  if (!pos || !reader) abort();
  for (int i = 0; i <= fu->nvalues; i++) pos[i] = -1;
  int k = 0;
  for (Op *op = b->first; op; op = op->next, k++)
    for (int i = 0; i < op->nresults; i++) pos[op->results[i]->id] = k;
  int *leaves = NULL;
  for (Op *op = b->first; op; op = op->next) {
    int kind = sibling_kind(fu, op), n = 0;
    if (!kind) continue;
    fu->stamp++;
    if (!tree_leaves(fu, op, &leaves, &n)) continue;
    Op **kreader = reader + (size_t)kind * ((size_t)fu->nvalues + 1);
    for (int i = 0; i < n && !op->leader; i++) {
      Op *a = kreader[leaves[i]];
      if (!a || !sibling_fits(fu, a, op, leaves, n, pos)) continue;
      Op **tail = &a->sibling;
      while (*tail) tail = &(*tail)->sibling;
      *tail = op;
      op->leader = a;
    }
    for (int i = 0; i < n; i++) kreader[leaves[i]] = op->leader ? op->leader : op;
  }
  free(leaves);
  free(pos);
  free(reader);
}

/* Numbers roots in program order (a follower gets its leader's number),
 * then gives each fused op the kernel of its first user (users follow it
 * in the same block). */
static void number_kernels(Fuser *fu, Block *b) {
  for (Op *op = b->first; op; op = op->next) {
    if (op->leader) op->kernel = op->leader->kernel;
    else if (ir_is_kernel_root(op)) op->kernel = ++fu->nkernels;
    if (ir_has_scalar_regions(op)) continue;
    for (int r = 0; r < op->nregions; r++)
      for (int k = 0; k < op->regions[r]->nblocks; k++)
        number_kernels(fu, op->regions[r]->blocks[k]);
  }
  for (Op *op = b->last; op; op = op->prev) {
    if (!op->fused) continue;
    Use u = fu->uses[fu->use_start[op->results[0]->id]];
    op->kernel = u.user->kernel;
  }
}

static void fuse_func(Func *f, bool enabled) {
  ir_number_values(f);
  ir_recount_uses(f);
  Fuser fu = {.f = f, .nvalues = f->next_value_id};
  build_uses(&fu);
  size_t n = (size_t)fu.nvalues + 1;
  fu.chains = calloc(n, sizeof(Chain));
  fu.grp = calloc(n, sizeof(int));
  fu.taint_stamp = calloc(n, sizeof(int));
  fu.tainted = calloc(n, sizeof(bool));
  if (!fu.chains || !fu.grp || !fu.taint_stamp || !fu.tainted) abort();
  ir_walk(f, clear_marks, NULL);
  fuse_block(&fu, f->body, enabled);
  if (enabled) {
    fuse_epilogues(&fu, f->body);
    fuse_rows(&fu, f->body);
    fuse_siblings(&fu, f->body);
  }
  number_kernels(&fu, f->body);
  free(fu.use_start);
  free(fu.uses);
  free(fu.chains);
  free(fu.grp);
  free(fu.taint_stamp);
  free(fu.tainted);
  free(fu.gops);
  free(fu.taken);
}

int pass_fuse(Module *m, const CompileOptions *o) {
  bool enabled = o && o->opt_level > 0;
  for (int i = 0; i < m->nfuncs; i++)
    if (m->funcs[i]->body && !m->funcs[i]->sym) fuse_func(m->funcs[i], enabled); /* dyndims.c */
  return 0;
}
