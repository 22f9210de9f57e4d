/* buffers.c: decides where every value of an entry function lives
 * (Value.storage/offset) and the size of the temp arena (Func.temp_bytes).
 *
 *   function arguments          ST_ARG    offset = argument index
 *   constants                   ST_CONST  (read-only data in the object)
 *   fused values, scalar-region ST_NONE   (computed where they are used)
 *   values returned once        ST_RESULT offset = result index, when
 *                                         defined in the top-level block by
 *                                         a kernel or while/if/case
 *   everything else             ST_TEMP   offset in the arena, 64-aligned
 *
 * Arena offsets come from liveness. Ops of kernel blocks (the body and the
 * blocks of while/if/case, not the scalar regions of reduce & co.) are
 * numbered in program order, an op before the ops of its regions; end(op)
 * is the last number inside it. A value is live from its definition to its
 * last use, where
 *  - a use by a fused op counts where that op is computed: at the last use
 *    of its result (recursively, so at the kernel roots that pull it in);
 *  - a use nested in the regions of op A of the value's own block counts at
 *    end(A): a loop body runs many times, so what it reads from outside
 *    must survive the whole loop;
 *  - while/if/case results are live over the whole op (the loop state and
 *    the branch results are written inside it).
 * Intervals are closed, so a kernel's output never shares memory with its
 * inputs. Values with disjoint intervals may share memory; offsets are
 * assigned greedily, largest value first, at the lowest offset free over
 * its interval (the "greedy by size" strategy of TFLite's arena planner).
 *
 * Loop state: the results of a while are its state buffers; the block
 * arguments of cond and body get the same storage and offset. Codegen
 * copies the operands into the state before the loop and the body's return
 * operands into the state after each iteration. Those copies run one after
 * another, so each body return operand must be the same slot's argument
 * (no copy) or a value of the body in its own temp buffer; anything else
 * (an outer value, an argument or constant, another slot's argument, a
 * value returned twice) gets an explicit copy (`stablehlo.reshape` to the
 * same type) inserted before the return.
 *
 * Kernel scratch: a kernel that needs working memory (GEMM packing
 * buffers, FFT lines, the row buffers of a row kernel:
 * ir_kernel_scratch_bytes) gets a block of the arena
 * live only while it runs (from the op to the root that computes it, for
 * a GEMM fused as an epilogue source), one slice per chunk of a parallel
 * call (o->threads slices when compiled with threads): Op.scratch_offset,
 * Op.scratch_bytes per slice. Never the stack: worker threads and
 * embedded targets have small ones.
 */
#include <stdlib.h>
#include <string.h>

#include "../ir/ir.h"

/* The largest temp arena: each value has at most 2^62 bytes
 * (TENSOR_MAX_ELEMS elements of 16 bytes), so offset + size stays below
 * 2^63 while every placed value ends below this bound. */
#define TEMP_MAX_BYTES ((int64_t)1 << 62)

/* ------------------------------------------------------------------------ */
/* Op -> (position, end) map                                                 */

typedef struct OpPos {
  const Op *op;
  int64_t pos, end;
} OpPos;

typedef struct OpMap {
  OpPos *slots;
  size_t cap, n;
} OpMap;

static size_t op_hash(const Op *op, size_t cap) {
  uint64_t h = (uint64_t)(uintptr_t)op * 0x9e3779b97f4a7c15ull;
  return (size_t)(h >> 17) & (cap - 1);
}

static OpPos *opmap_get(OpMap *m, const Op *op, bool insert);

static void opmap_grow(OpMap *m) {
  OpMap n = {calloc(m->cap ? 2 * m->cap : 256, sizeof(OpPos)), m->cap ? 2 * m->cap : 256, 0};
  if (!n.slots) abort();
  for (size_t i = 0; i < m->cap; i++)
    if (m->slots[i].op) *opmap_get(&n, m->slots[i].op, true) = m->slots[i];
  free(m->slots);
  *m = n;
}

static OpPos *opmap_get(OpMap *m, const Op *op, bool insert) {
  if (insert && 2 * (m->n + 1) > m->cap) opmap_grow(m);
  if (!m->cap) return NULL;
  size_t j = op_hash(op, m->cap);
  for (; m->slots[j].op; j = (j + 1) & (m->cap - 1))
    if (m->slots[j].op == op) return &m->slots[j];
  if (!insert) return NULL;
  m->n++;
  m->slots[j].op = op;
  return &m->slots[j];
}

/* ------------------------------------------------------------------------ */
/* Planner state                                                             */

/* A block of the arena live over [start, end]: a value's buffer, or the
 * scratch of a kernel; *at receives its offset. */
typedef struct Interval {
  int64_t *at;
  int64_t start, end, size;
} Interval;

typedef struct Planner {
  Module *m;
  Func *f;
  OpMap ops;
  int64_t npos;
  int nvalues;
  int64_t *last_use; /* by value id; -1: unused */
  bool *needs_buffer;/* by value id: gets an arena slot */
  Op **stack;        /* enclosing ops of the op being visited, outermost first */
  int depth, stack_cap;
  int nkernels;      /* highest kernel number (Op.kernel) in the function */
  int chunks;        /* kernels running at once: the compiled thread count */
  int panel_bytes;   /* CompileOptions.gemm_panel_bytes */
  int conv_panel_bytes; /* CompileOptions.conv_panel_bytes */
  int kc_tall;       /* CompileOptions.gemm_kc_tall */
  bool winograd;     /* not CompileOptions.no_winograd */
  int errors;
} Planner;

static int64_t pos_of(Planner *p, const Op *op) { return opmap_get(&p->ops, op, false)->pos; }
static int64_t end_of(Planner *p, const Op *op) { return opmap_get(&p->ops, op, false)->end; }

static Block *def_block(const Value *v) { return v->def ? v->def->parent : v->block; }

/* ------------------------------------------------------------------------ */
/* Loop-state copies                                                         */

static bool returned_before(const Op *ret, int i) {
  for (int k = 0; k < i; k++)
    if (ret->opnds[k] == ret->opnds[i]) return true;
  return false;
}

/* Whether body return operand i can be copied straight into slot i. */
static bool is_own_value(const Block *body, const Op *ret, int i) {
  Value *v = ret->opnds[i];
  if (v == body->args[i]) return true;
  if (!v->def || v->def->parent != body || v->def->code == OP_CONSTANT) return false;
  return !returned_before(ret, i);
}

/* The copies are kernels of their own; number them after the fuse pass's
 * kernels so that dumps show them as such. */
static void max_kernel(Op *op, void *ctx) {
  int *k = ctx;
  if (op->kernel > *k) *k = op->kernel;
}

static void insert_body_copies(Planner *p, Op *w) {
  Block *body = w->regions[1]->blocks[0];
  Op *ret = ir_block_terminator(body);
  for (int i = 0; i < ret->nopnds; i++) {
    Value *v = ret->opnds[i];
    if (is_own_value(body, ret, i) || v->type->kind != TY_TENSOR) continue;
    Op *copy = ir_op_new(p->m, OP_RESHAPE, ret->loc, 1, &v, 1, &v->type, 0);
    copy->kernel = ++p->nkernels;
    ir_block_insert_before(body, ret, copy);
    ret->opnds[i] = copy->results[0];
  }
}

static void insert_copies(Planner *p, Block *b) {
  for (Op *op = b->first; op; op = op->next) {
    if (!ir_has_kernel_blocks(op->code)) continue;
    if (op->code == OP_WHILE) insert_body_copies(p, op);
    for (int r = 0; r < op->nregions; r++)
      for (int k = 0; k < op->regions[r]->nblocks; k++)
        insert_copies(p, op->regions[r]->blocks[k]);
  }
}

/* ------------------------------------------------------------------------ */
/* Storage kinds                                                             */

static void reset_value(Value *v) {
  v->storage = ST_NONE;
  v->offset = 0;
}

static void reset_block(Block *b) {
  for (int i = 0; i < b->nargs; i++) reset_value(b->args[i]);
  for (Op *op = b->first; op; op = op->next) {
    op->alias = false;
    for (int i = 0; i < op->nresults; i++) reset_value(op->results[i]);
    for (int r = 0; r < op->nregions; r++)
      for (int k = 0; k < op->regions[r]->nblocks; k++)
        reset_block(op->regions[r]->blocks[k]);
  }
}

/* Kinds of the values of a kernel block; scalar regions stay ST_NONE. */
static void assign_kinds(Planner *p, Block *b) {
  for (Op *op = b->first; op; op = op->next) {
    for (int i = 0; i < op->nresults; i++) {
      Value *v = op->results[i];
      if (op->code == OP_CONSTANT) v->storage = ST_CONST;
      else if (!op->fused) p->needs_buffer[v->id] = true;
    }
    if (ir_has_scalar_regions(op)) continue;
    for (int r = 0; r < op->nregions; r++)
      for (int k = 0; k < op->regions[r]->nblocks; k++)
        assign_kinds(p, op->regions[r]->blocks[k]);
  }
}

/* Top-level values returned exactly once are written into the caller's
 * result buffer directly, when an op of ours writes them anyway. */
static void assign_results(Planner *p) {
  Op *ret = ir_block_terminator(p->f->body);
  if (!ret || ret->code != OP_FUNC_RETURN) return;
  for (int i = 0; i < ret->nopnds; i++) {
    Value *v = ret->opnds[i];
    bool once = true;
    for (int k = 0; k < ret->nopnds; k++) once &= k == i || ret->opnds[k] != v;
    Op *d = v->def;
    if (!once || !d || d->parent != p->f->body || !p->needs_buffer[v->id]) continue;
    if (!ir_is_kernel_root(d) && !ir_has_kernel_blocks(d->code)) continue;
    if (v->type->kind != TY_TENSOR) continue;
    p->needs_buffer[v->id] = false;
    v->storage = ST_RESULT;
    v->offset = i;
  }
}

/* ------------------------------------------------------------------------ */
/* Positions                                                                 */

static void number_ops(Planner *p, Block *b) {
  for (Op *op = b->first; op; op = op->next) {
    OpPos *e = opmap_get(&p->ops, op, true);
    e->pos = ++p->npos;
    if (!ir_has_scalar_regions(op))
      for (int r = 0; r < op->nregions; r++)
        for (int k = 0; k < op->regions[r]->nblocks; k++)
          number_ops(p, op->regions[r]->blocks[k]);
    e = opmap_get(&p->ops, op, false); /* the map may have grown */
    e->end = p->npos;
  }
}

/* ------------------------------------------------------------------------ */
/* Last uses                                                                 */

/* Whether a fused value may be read by `user` (the fuse pass guarantees
 * it; a violation is a compiler bug). */
static bool reads_elementally(const Op *user, const Value *v) {
  return user->parent == v->def->parent && ir_reads_elementally(user);
}

/* Where the use of v by the op on top of the stack happens (see the head
 * comment); -1 for values of scalar regions. */
static int64_t use_position(Planner *p, const Value *v) {
  const Block *db = def_block(v);
  Op *user = p->stack[p->depth - 1];
  if (v->def && v->def->fused && !reads_elementally(user, v)) abort();
  for (int d = p->depth - 1; d >= 0; d--) {
    Op *a = p->stack[d];
    if (a->parent != db) continue;
    if (!opmap_get(&p->ops, a, false)) return -1; /* inside a scalar region */
    if (a->fused) return p->last_use[a->results[0]->id];
    return a == user ? pos_of(p, a) : end_of(p, a);
  }
  abort(); /* a value used outside its scope */
}

static void push(Planner *p, Op *op) {
  if (p->depth == p->stack_cap) {
    p->stack_cap = p->stack_cap ? 2 * p->stack_cap : 16;
    p->stack = realloc(p->stack, sizeof(Op *) * (size_t)p->stack_cap);
    if (!p->stack) abort();
  }
  p->stack[p->depth++] = op;
}

/* Walks backwards so that the users of a fused op (later in its block) have
 * set its last use before its own operands ask for it. */
static void scan_uses(Planner *p, Block *b) {
  for (Op *op = b->last; op; op = op->prev) {
    push(p, op);
    for (int r = op->nregions - 1; r >= 0; r--)
      for (int k = op->regions[r]->nblocks - 1; k >= 0; k--)
        scan_uses(p, op->regions[r]->blocks[k]);
    for (int i = 0; i < op->nopnds; i++) {
      Value *v = op->opnds[i];
      int64_t u = use_position(p, v);
      if (u > p->last_use[v->id]) p->last_use[v->id] = u;
    }
    p->depth--;
  }
}

/* ------------------------------------------------------------------------ */
/* Aliasing reshapes                                                         */

/* The value whose buffer v's bytes are in, through aliasing reshapes. */
static Value *alias_root(Value *v) {
  while (v->def && v->def->alias) v = v->def->opnds[0];
  return v;
}

/* A reshape keeps the row-major order of the elements, so a reshape of a
 * value already in memory only renames its bytes: the result shares the
 * operand's storage and codegen emits no kernel (spec "reshape"). Only in
 * the function body (no loop state or branch results involved) and not for
 * constants (their globals belong to the constant op) or results written
 * into the caller's buffers. The root buffer lives until the alias's last
 * use. Runs after scan_uses, before the intervals are collected. */
static void alias_reshapes(Planner *p) {
  for (Op *op = p->f->body->first; op; op = op->next) {
    if (op->code != OP_RESHAPE || op->fused) continue;
    Value *r = op->results[0], *x = alias_root(op->opnds[0]);
    if (!p->needs_buffer[r->id]) continue;
    if (x->storage != ST_ARG && !p->needs_buffer[x->id]) continue;
    op->alias = true;
    p->needs_buffer[r->id] = false;
    if (p->last_use[r->id] > p->last_use[x->id]) p->last_use[x->id] = p->last_use[r->id];
  }
}

/* Gives each aliasing reshape its root's storage (after placement). */
static void place_aliases(Block *body) {
  for (Op *op = body->first; op; op = op->next) {
    if (!op->alias) continue;
    Value *x = alias_root(op->opnds[0]);
    op->results[0]->storage = x->storage;
    op->results[0]->offset = x->offset;
  }
}

/* ------------------------------------------------------------------------ */
/* Intervals and offsets                                                     */

static void add_interval(Planner *p, Value *v, Interval **iv, int *n) {
  Op *d = v->def;
  int64_t size = type_byte_size(v->type);
  v->storage = ST_TEMP;
  if (size < 0 && !(op_flags(d->code) & OPF_IMPL)) return; /* codegen rejects the op */
  if (size < 0) {
    /* One error per function: the first dynamic value explains the rest. */
    if (!p->errors)
      diag_error(d->loc,
                 "%s: result %d has the dynamic type '%s': shapes could not be refined "
                 "to static ones, which buffers need",
                 op_name(d->code), v->index, type_str(&p->m->arena, v->type));
    p->errors = 1;
    return;
  }
  if (size == 0) return; /* no bytes: any offset will do */
  /* A sibling's result is written by its leader's kernel (fuse.c). */
  int64_t start = pos_of(p, d->leader ? d->leader : d);
  int64_t end = p->last_use[v->id] > start ? p->last_use[v->id] : start;
  if (ir_has_kernel_blocks(d->code) && end_of(p, d) > end) end = end_of(p, d);
  (*iv)[(*n)++] = (Interval){&v->offset, start, end, ir_align64(size)};
}

/* The scratch of op's kernel, one slice per chunk of a parallel call (see
 * shlort_parallel_for), live while the kernel runs: at op, or for an op
 * fused as a GEMM epilogue source, until the root that computes it. */
static void add_scratch(Planner *p, Op *op, Interval **iv, int *n) {
  op->scratch_offset = op->scratch_bytes = 0;
  int pb = ir_gemm_conv_tile(op) ? p->conv_panel_bytes : p->panel_bytes;
  int64_t bytes = ir_kernel_scratch_bytes(op, pb, p->winograd, p->kc_tall);
  OpPos *at = opmap_get(&p->ops, op, false);
  if (bytes == 0 || !at) return;
  op->scratch_bytes = bytes;
  int64_t end = op->fused ? p->last_use[op->results[0]->id] : at->pos;
  /* Too large for any arena: place_all reports it. */
  int64_t size = bytes > TEMP_MAX_BYTES / p->chunks ? TEMP_MAX_BYTES : bytes * p->chunks;
  (*iv)[(*n)++] = (Interval){&op->scratch_offset, at->pos, end > at->pos ? end : at->pos, size};
}

typedef struct Collect {
  Planner *p;
  Interval *iv;
  int n;
} Collect;

static void collect_results(Op *op, void *ctx) {
  Collect *c = ctx;
  add_scratch(c->p, op, &c->iv, &c->n);
  for (int i = 0; i < op->nresults; i++)
    if (c->p->needs_buffer[op->results[i]->id])
      add_interval(c->p, op->results[i], &c->iv, &c->n);
}

static int by_size_desc(const void *a, const void *b) {
  const Interval *x = a, *y = b;
  if (x->size != y->size) return x->size < y->size ? 1 : -1;
  return x->start < y->start ? -1 : x->start > y->start;
}

/* Greedy by size: each interval goes to the lowest offset where it fits
 * between the already placed intervals it overlaps in time. `placed` is
 * kept sorted by offset. Returns the arena size, or -1 when it would
 * exceed TEMP_MAX_BYTES. */
static int64_t place_all(Interval *iv, int n) {
  qsort(iv, (size_t)n, sizeof *iv, by_size_desc);
  Interval **placed = malloc(sizeof(Interval *) * ((size_t)n + 1));
  if (!placed) abort();
  int np = 0;
  int64_t total = 0;
  for (int i = 0; i < n; i++) {
    Interval *x = &iv[i];
    int64_t off = 0;
    for (int k = 0; k < np; k++) {
      Interval *y = placed[k];
      if (y->end < x->start || y->start > x->end) continue;
      if (*y->at >= off + x->size) break;
      if (*y->at + y->size > off) off = *y->at + y->size;
      if (off > TEMP_MAX_BYTES - x->size) break;
    }
    if (off > TEMP_MAX_BYTES - x->size) {
      free(placed);
      return -1;
    }
    *x->at = off;
    int at = np;
    while (at > 0 && *placed[at - 1]->at > off) at--;
    memmove(placed + at + 1, placed + at, sizeof(Interval *) * (size_t)(np - at));
    placed[at] = x;
    np++;
    if (off + x->size > total) total = off + x->size;
  }
  free(placed);
  return total;
}

/* ------------------------------------------------------------------------ */
/* Loop state sharing                                                        */

static void share_loop_state(Block *b) {
  for (Op *op = b->first; op; op = op->next) {
    if (!ir_has_kernel_blocks(op->code)) continue;
    for (int r = 0; r < op->nregions; r++)
      for (int k = 0; k < op->regions[r]->nblocks; k++) {
        Block *rb = op->regions[r]->blocks[k];
        if (op->code == OP_WHILE)
          for (int i = 0; i < rb->nargs && i < op->nresults; i++) {
            rb->args[i]->storage = op->results[i]->storage;
            rb->args[i]->offset = op->results[i]->offset;
          }
        share_loop_state(rb);
      }
  }
}

/* ------------------------------------------------------------------------ */

static int plan_func(Module *m, Func *f, const CompileOptions *o) {
  Planner p = {.m = m, .f = f, .chunks = o && o->threads > 1 ? o->threads : 1,
               .panel_bytes = o ? o->gemm_panel_bytes : 0,
               .conv_panel_bytes = o ? o->conv_panel_bytes : 0,
               .kc_tall = o ? o->gemm_kc_tall : 0, .winograd = !o || !o->no_winograd};
  ir_walk(f, max_kernel, &p.nkernels);
  insert_copies(&p, f->body);
  ir_number_values(f);
  ir_recount_uses(f);
  p.nvalues = f->next_value_id;
  p.last_use = malloc(sizeof(int64_t) * ((size_t)p.nvalues + 1));
  p.needs_buffer = calloc((size_t)p.nvalues + 1, sizeof(bool));
  if (!p.last_use || !p.needs_buffer) abort();
  for (int i = 0; i <= p.nvalues; i++) p.last_use[i] = -1;

  reset_block(f->body);
  for (int i = 0; i < f->body->nargs; i++) {
    f->body->args[i]->storage = ST_ARG;
    f->body->args[i]->offset = i;
  }
  assign_kinds(&p, f->body);
  assign_results(&p);
  number_ops(&p, f->body);
  scan_uses(&p, f->body);
  alias_reshapes(&p);

  /* One interval per value and at most one per op (its scratch). */
  Collect c = {&p, malloc(sizeof(Interval) * ((size_t)(p.nvalues + p.npos) + 1)), 0};
  if (!c.iv) abort();
  ir_walk(f, collect_results, &c);
  int64_t arena = place_all(c.iv, c.n);
  if (arena < 0) {
    diag_error(f->loc, "@%s: its values need a temp arena of more than 2^62 bytes", f->name);
    p.errors = 1;
  }
  f->temp_bytes = arena < 0 ? 0 : ir_align64(arena);
  place_aliases(f->body);
  share_loop_state(f->body);

  free(c.iv);
  free(p.last_use);
  free(p.needs_buffer);
  free(p.stack);
  free(p.ops.slots);
  return p.errors;
}

int pass_buffers(Module *m, const CompileOptions *o) {
  int errors = 0;
  for (int i = 0; i < m->nfuncs; i++)
    if (ir_func_is_entry(m, m->funcs[i], o) && !m->funcs[i]->sym)
      errors += plan_func(m, m->funcs[i], o);
  return errors;
}
