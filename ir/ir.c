/* ir.c: constructing and querying the IR. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"

static const OpInfo op_table[] = {
#define X(e, name, nopnds, nresults, nregions, flags) {name, nopnds, nresults, nregions, flags},
    OPS(X)
#undef X
};

const OpInfo *op_info(OpCode c) { return &op_table[c]; }
const char *op_name(OpCode c) { return op_table[c].name; }
unsigned op_flags(OpCode c) { return op_table[c].flags; }

OpCode op_lookup(const char *name, size_t n) {
  if (n == 4 && !memcmp(name, "call", 4)) return OP_FUNC_CALL;
  if (n == 6 && !memcmp(name, "return", 6)) return OP_FUNC_RETURN;
  for (int c = 0; c < OP_COUNT; c++)
    if (strlen(op_table[c].name) == n && !memcmp(op_table[c].name, name, n))
      return (OpCode)c;
  return OP_COUNT;
}

Module *ir_module_new(void) {
  Arena a = {0};
  Module *m = ARENA_NEW(&a, Module);
  m->arena = a;
  m->types = type_table_new(&m->arena);
  return m;
}

void ir_module_free(Module *m) {
  if (!m) return;
  type_table_free(m->types);
  Arena a = m->arena; /* the module itself lives in its arena */
  arena_free(&a);
}

Func *ir_func_new(Module *m, const char *name, Loc loc) {
  Func *f = ARENA_NEW(&m->arena, Func);
  f->name = arena_strdup(&m->arena, name);
  f->loc = loc;
  return f;
}

void ir_module_add_func(Module *m, Func *f) {
  Func **funcs = ARENA_ARRAY(&m->arena, Func *, m->nfuncs + 1);
  if (m->nfuncs) memcpy(funcs, m->funcs, sizeof(Func *) * (size_t)m->nfuncs);
  funcs[m->nfuncs++] = f;
  m->funcs = funcs;
}

Func *ir_module_find_func(Module *m, const char *name) {
  for (int i = 0; i < m->nfuncs; i++)
    if (!strcmp(m->funcs[i]->name, name)) return m->funcs[i];
  return NULL;
}

void ir_module_remove_func(Module *m, Func *f) {
  int j = 0;
  for (int i = 0; i < m->nfuncs; i++)
    if (m->funcs[i] != f) m->funcs[j++] = m->funcs[i];
  m->nfuncs = j;
}

Value *ir_value_new(Module *m, Type *t) {
  Value *v = ARENA_NEW(&m->arena, Value);
  v->type = t;
  v->id = -1;
  return v;
}

Block *ir_block_new(Module *m, int nargs, Type *const *argtypes) {
  Block *b = ARENA_NEW(&m->arena, Block);
  b->nargs = nargs;
  b->args = ARENA_ARRAY(&m->arena, Value *, nargs);
  for (int i = 0; i < nargs; i++) {
    Value *v = ir_value_new(m, argtypes[i]);
    v->block = b;
    v->index = i;
    b->args[i] = v;
  }
  return b;
}

Region *ir_region_new(Module *m, int nblocks) {
  Region *r = ARENA_NEW(&m->arena, Region);
  r->nblocks = nblocks;
  r->blocks = ARENA_ARRAY(&m->arena, Block *, nblocks);
  return r;
}

Op *ir_op_new(Module *m, OpCode code, Loc loc, int nopnds, Value *const *opnds,
              int nresults, Type *const *result_types, int nregions) {
  Op *op = ARENA_NEW(&m->arena, Op);
  op->code = code;
  op->loc = loc;
  op->nopnds = nopnds;
  op->opnds = ARENA_ARRAY(&m->arena, Value *, nopnds);
  if (opnds) memcpy(op->opnds, opnds, sizeof(Value *) * (size_t)nopnds);
  op->nresults = nresults;
  op->results = ARENA_ARRAY(&m->arena, Value *, nresults);
  for (int i = 0; i < nresults; i++) {
    Value *v = ir_value_new(m, result_types[i]);
    v->def = op;
    v->index = i;
    op->results[i] = v;
  }
  op->nregions = nregions;
  op->regions = ARENA_ARRAY(&m->arena, Region *, nregions);
  return op;
}

void ir_block_append(Block *b, Op *op) {
  op->parent = b;
  op->next = NULL;
  op->prev = b->last;
  if (b->last) b->last->next = op;
  else b->first = op;
  b->last = op;
}

void ir_block_insert_before(Block *b, Op *before, Op *op) {
  if (!before) {
    ir_block_append(b, op);
    return;
  }
  op->parent = b;
  op->next = before;
  op->prev = before->prev;
  if (before->prev) before->prev->next = op;
  else b->first = op;
  before->prev = op;
}

void ir_block_remove(Block *b, Op *op) {
  if (op->prev) op->prev->next = op->next;
  else b->first = op->next;
  if (op->next) op->next->prev = op->prev;
  else b->last = op->prev;
  op->prev = op->next = NULL;
  op->parent = NULL;
}

Op *ir_block_terminator(Block *b) { return b->last; }

/* Calls fn on every op of the block, nested regions included, in order. */
static void walk_block(Block *b, void (*fn)(Op *, void *), void *ctx) {
  for (Op *op = b->first; op; op = op->next) {
    fn(op, ctx);
    for (int r = 0; r < op->nregions; r++)
      for (int k = 0; k < op->regions[r]->nblocks; k++)
        walk_block(op->regions[r]->blocks[k], fn, ctx);
  }
}

void ir_walk(Func *f, void (*fn)(Op *, void *), void *ctx) {
  walk_block(f->body, fn, ctx);
}

static void append_op(Op *op, void *ctx) {
  OpList *l = ctx;
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 64;
    l->v = realloc(l->v, sizeof(Op *) * (size_t)l->cap);
    if (!l->v) abort();
  }
  l->v[l->n++] = op;
}

void ir_collect_ops(Func *f, OpList *l) { ir_walk(f, append_op, l); }

typedef struct Replace {
  Value *from, *to;
} Replace;

static void replace_in_op(Op *op, void *ctx) {
  Replace *r = ctx;
  for (int i = 0; i < op->nopnds; i++)
    if (op->opnds[i] == r->from) op->opnds[i] = r->to;
}

void ir_replace_uses(Func *f, Value *from, Value *to) {
  Replace r = {from, to};
  ir_walk(f, replace_in_op, &r);
}

static void reset_uses_block(Block *b) {
  for (int i = 0; i < b->nargs; i++) b->args[i]->nuses = 0;
  for (Op *op = b->first; op; op = op->next) {
    for (int i = 0; i < op->nresults; i++) op->results[i]->nuses = 0;
    for (int r = 0; r < op->nregions; r++)
      for (int k = 0; k < op->regions[r]->nblocks; k++)
        reset_uses_block(op->regions[r]->blocks[k]);
  }
}

static void count_uses(Op *op, void *ctx) {
  (void)ctx;
  for (int i = 0; i < op->nopnds; i++) op->opnds[i]->nuses++;
}

void ir_recount_uses(Func *f) {
  reset_uses_block(f->body);
  ir_walk(f, count_uses, NULL);
}

static void number_block(Block *b, int *next) {
  for (int i = 0; i < b->nargs; i++) b->args[i]->id = (*next)++;
  for (Op *op = b->first; op; op = op->next) {
    for (int r = 0; r < op->nregions; r++)
      for (int k = 0; k < op->regions[r]->nblocks; k++)
        number_block(op->regions[r]->blocks[k], next);
    for (int i = 0; i < op->nresults; i++) op->results[i]->id = (*next)++;
  }
}

void ir_number_values(Func *f) {
  int next = 0;
  number_block(f->body, &next);
  f->next_value_id = next;
}

void ir_op_verror(const Op *op, const char *fmt, va_list ap) {
  char msg[1024];
  vsnprintf(msg, sizeof msg, fmt, ap);
  diag_error(op->loc, "%s: %s", op_name(op->code), msg);
}

void ir_op_error(const Op *op, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ir_op_verror(op, fmt, ap);
  va_end(ap);
}

Attr *ir_attr(const Op *op, const char *name) {
  for (int i = 0; i < op->nattrs; i++)
    if (!strcmp(op->attrs[i].name, name)) return op->attrs[i].value;
  return NULL;
}

const char *ir_arg_string_attr(const Func *f, int i, const char *name) {
  if (!f->arg_attrs || !f->arg_attrs[i]) return NULL;
  for (int k = 0; k < f->narg_attrs[i]; k++) {
    const NamedAttr *a = &f->arg_attrs[i][k];
    if (!strcmp(a->name, name) && a->value->kind == AT_STRING) return a->value->str;
  }
  return NULL;
}

Value *ir_concat_operand(const Op *op, int64_t *k) {
  for (int i = 0; i < op->nopnds; i++) {
    int64_t n = type_num_elems(op->opnds[i]->type);
    if (n < 0) return NULL;
    if (*k < n) return op->opnds[i];
    *k -= n;
  }
  return NULL;
}

void ir_set_attr(Module *m, Op *op, const char *name, Attr *value) {
  for (int i = 0; i < op->nattrs; i++)
    if (!strcmp(op->attrs[i].name, name)) {
      op->attrs[i].value = value;
      return;
    }
  NamedAttr *attrs = ARENA_ARRAY(&m->arena, NamedAttr, op->nattrs + 1);
  if (op->nattrs) memcpy(attrs, op->attrs, sizeof(NamedAttr) * (size_t)op->nattrs);
  attrs[op->nattrs].name = arena_strdup(&m->arena, name);
  attrs[op->nattrs].value = value;
  op->attrs = attrs;
  op->nattrs++;
}

/* ------------------------------------------------------------------------ */
/* Op classes                                                                */

static bool has(OpCode c, unsigned flags) { return (op_table[c].flags & flags) != 0; }

bool ir_is_elementwise(OpCode c) { return has(c, OPF_UNARY | OPF_BINARY | OPF_TERNARY); }
bool ir_is_costly(OpCode c) { return has(c, OPF_COSTLY); }
bool ir_is_fusible(OpCode c) { return ir_is_elementwise(c) || has(c, OPF_FUSIBLE); }
bool ir_is_cheap(OpCode c) {
  return has(c, OPF_CHEAP) || (ir_is_elementwise(c) && !ir_is_costly(c));
}
bool ir_is_movement(OpCode c) { return has(c, OPF_MOVEMENT); }
bool ir_reads_buffers(OpCode c) { return has(c, OPF_BUFFERS); }
bool ir_is_gemm(OpCode c) { return has(c, OPF_GEMM); }
bool ir_needs_runtime(OpCode c) { return has(c, OPF_RUNTIME); }
bool ir_has_side_effect(OpCode c) {
  return has(c, OPF_SIDE_EFFECT | OPF_CHECK | OPF_TERMINATOR);
}
bool ir_is_entry_op(OpCode c) { return has(c, OPF_ENTRY | OPF_CHECK | OPF_TERMINATOR); }
bool ir_has_kernel_blocks(OpCode c) { return has(c, OPF_CONTROL); }

bool ir_has_scalar_regions(const Op *op) {
  return op->nregions > 0 && !ir_has_kernel_blocks(op->code);
}

bool ir_reads_elementally(const Op *user) {
  return has(user->code, OPF_IMPL) && !ir_is_entry_op(user->code) && !ir_reads_buffers(user->code);
}

bool ir_is_kernel_root(const Op *op) {
  return !op->fused && !op->alias && op->code != OP_CONSTANT && !ir_is_entry_op(op->code);
}

bool ir_is_row_reduce(const Op *op) {
  if (op->code != OP_REDUCE || op->nopnds != 2 || op->nresults != 1) return false;
  const Type *t = op->opnds[0]->type;
  return t->kind == TY_TENSOR && t->rank >= 1 && op->a.dimensions.n == 1 &&
         op->a.dimensions.v[0] == t->rank - 1;
}

/* ------------------------------------------------------------------------ */
/* Kernel scratch                                                            */

int64_t ir_align64(int64_t n) { return (n + 63) / 64 * 64; }

/* The blocked GEMM of codegen/gemm.c on an f32/f64 result with K summed
 * terms: Bp (KC x NR, pb bytes a row: the target's tile), then Ap (MC x
 * KC, MC at most 288 rows and 144 KiB) when A is packed, else MR <= 8 row
 * pointers; KC = min(K, 128), Bp's rows min(K, kc_bp) (kc_bp >= 128:
 * IR_DOT_KC_DEEP for a dot). gemm_scratch aborts if its plan outgrows
 * this. */
static int64_t gemm_scratch_bound(ElemType e, int64_t k, bool packs_a, int pb, int64_t kc_bp) {
  if (e != ET_F32 && e != ET_F64) return 0;
  int64_t es = elem_bytes(e), kc = k < 1 ? 1 : k < 128 ? k : 128;
  int64_t bp_rows = k < 1 ? 1 : k < kc_bp ? k : kc_bp;
  int64_t ap = 288 * kc * es < 147456 ? 288 * kc * es : 147456;
  int64_t nr_bytes = pb <= 0 ? 4 * 64 : pb;
  return ir_align64(bp_rows * nr_bytes) + (packs_a ? ir_align64(ap) : 64);
}

/* The indirect GEMM's table of row pointers (codegen/conv.c): a block of
 * rows (at most IR_CONV_IND_ROWS; all M rows rounded up to MR <= 8 when fewer) times
 * the kernel taps, 8 bytes a pointer at most, within IR_CONV_IND_BYTES. */
static int64_t conv_table_bound(const Op *op) {
  const Type *rt = op->results[0]->type, *kt = op->opnds[1]->type;
  const ConvDims *cd = &op->a.conv;
  if (!type_is_static(rt)) return 0; /* symbolic sizes: the implicit GEMM, no table */
  int64_t m = 1, taps = 1;
  for (int d = 0; d < rt->rank; d++)
    if (d != cd->out_feature) m *= rt->dims[d];
  for (int s = 0; s < cd->k_spatial.n; s++) taps *= kt->dims[cd->k_spatial.v[s]];
  int64_t rows = m + 7 < IR_CONV_IND_ROWS ? m + 7 : IR_CONV_IND_ROWS;
  int64_t n = ir_align64(rows * taps * 8);
  return n < IR_CONV_IND_BYTES ? n : IR_CONV_IND_BYTES; /* a multiple of 64 too */
}

static int64_t window_at(const I64List *l, int s, int64_t dflt) {
  return l->n > s ? l->v[s] : dflt;
}

/* See ir.h. Result column x's window row starts at input column x *
 * stride - lo and spans kw columns; the first `left` columns start before
 * 0, the columns from `right` on end past the input's width. */
bool ir_conv_fold(const Op *op, IrConvFold *f) {
  const ConvDims *cd = &op->a.conv;
  const Window *w = &op->a.window;
  const Type *lt = op->opnds[0]->type, *kt = op->opnds[1]->type, *rt = op->results[0]->type;
  int r = rt->rank, s = (int)cd->in_spatial.n - 1;
  if (s < 0 || w->pad_sym || !type_is_static(rt) || !type_is_static(lt) || !type_is_static(kt))
    return false;
  if (cd->in_feature != r - 1 || cd->in_spatial.v[s] != r - 2 || cd->out_feature != r - 1 ||
      cd->out_spatial.v[s] != r - 2 || cd->k_out_feature != r - 1 || cd->k_in_feature != r - 2 ||
      cd->k_spatial.v[s] != r - 3)
    return false;
  int64_t c = lt->dims[r - 1], kw = kt->dims[r - 3], in = lt->dims[r - 2], out = rt->dims[r - 2];
  if (c < 1 || c > IR_CONV_FOLD_MAX_C || kw < 2 || out < 1 || type_num_elems(rt) == 0 ||
      window_at(&w->window_dilations, s, 1) != 1)
    return false;
  int64_t stride = window_at(&w->strides, s, 1), lo = window_at(&w->pad_lo, s, 0);
  int64_t left = 0, right = out, taps = 1;
  while (left < out && left * stride - lo < 0) left++;
  while (right > left && (right - 1) * stride - lo + kw > in) right--;
  for (int k = 0; k < s; k++) taps *= kt->dims[cd->k_spatial.v[k]];
  if (taps * 8 * 8 > IR_CONV_IND_BYTES) return false; /* a table of MR <= 8 rows fits */
  /* a block's rows span at most this many result rows, and there are
   * no more than the result has */
  int64_t nq = (IR_CONV_IND_ROWS - 1) / out + 2, qall = type_num_elems(rt) / (rt->dims[r - 1] * out);
  *f = (IrConvFold){.kw = kw, .left = left, .edges = left + out - right,
                    .nq = nq < qall ? nq : qall};
  f->edge_bytes = ir_align64(f->nq * taps * f->edges * kw * c * elem_bytes(rt->elem));
  return true;
}

/* The rank-4 NHWC / HWIO / NHWC dimension numbers. */
static bool conv_nhwc(const ConvDims *cd) {
  return cd->in_batch == 0 && cd->in_spatial.n == 2 && cd->in_spatial.v[0] == 1 &&
         cd->in_spatial.v[1] == 2 && cd->in_feature == 3 && cd->k_spatial.n == 2 &&
         cd->k_spatial.v[0] == 0 && cd->k_spatial.v[1] == 1 && cd->k_in_feature == 2 &&
         cd->k_out_feature == 3 && cd->out_batch == 0 && cd->out_spatial.n == 2 &&
         cd->out_spatial.v[0] == 1 &&
         cd->out_spatial.v[1] == 2 && cd->out_feature == 3;
}

/* w's tiles a block (nq tile rows) and the scratch of a call. */
static void wino_blocks(IrWino *w, int64_t c, int64_t k) {
  int64_t taps = ir_wino_taps(w);
  w->nt = w->nq * w->tw;
  /* U, M, the table (taps x MR <= 8 pointers per MR tiles) and a row the
   * stores past the result's edge go to */
  w->m_at = ir_align64(taps * w->nt * c * 4);
  w->tab_at = w->m_at + ir_align64(taps * w->nt * k * 4);
  w->junk_at = w->tab_at + ir_align64((w->nt + 8) * taps * 8);
  w->scratch_bytes = w->junk_at + ir_align64(k * 4);
}

/* The plan of F(m x m, 3 x 3) for a result rt of k features from c input
 * features (ir_conv_wino). */
static void wino_geometry(IrWino *w, int64_t m, const Type *rt, int64_t c, int64_t k) {
  w->m = m;
  w->th = (rt->dims[1] + m - 1) / m;
  w->tw = (rt->dims[2] + m - 1) / m;
  int64_t taps = ir_wino_taps(w);
  int64_t row = taps * w->tw * (c + k) * 4; /* U and M of a tile row */
  w->nq = IR_WINO_BLOCK_BYTES / row;
  w->nq = w->nq < 1 ? 1 : w->nq > w->th ? w->th : w->nq;
  wino_blocks(w, c, k);
}

/* w's blocks of whole images: IR_WINO_WIDE_IMAGES of them where a
 * block holds one image's tiles, the batch has that many images and V is
 * at least IR_WINO_WIDE_V_BLOCKS blocks' worth of bytes (ir.h). */
static void wino_widen(IrWino *w, int64_t n, int64_t c, int64_t k) {
  if (w->nq < w->th || n < IR_WINO_WIDE_IMAGES ||
      ir_wino_v_bytes(w, c, k) < IR_WINO_WIDE_V_BLOCKS * IR_WINO_BLOCK_BYTES)
    return;
  w->nq = w->th * IR_WINO_WIDE_IMAGES;
  wino_blocks(w, c, k);
}

/* The GEMMs' multiplies of a call on one thread of the plan w over n
 * images (in units of C x K: taps per tile) and the elements of V it
 * reads (likewise: taps per block of nt tiles). */
static void wino_cost(const IrWino *w, int64_t n, int64_t *muls, int64_t *reads) {
  int64_t taps = ir_wino_taps(w), tiles = n * w->th * w->tw;
  *muls = taps * tiles;
  *reads = taps * ((tiles + w->nt - 1) / w->nt);
}

/* See ir.h. */
bool ir_conv_wino(const Op *op, IrWino *w) {
  const ConvDims *cd = &op->a.conv;
  const Window *win = &op->a.window;
  const Type *lt = op->opnds[0]->type, *kt = op->opnds[1]->type, *rt = op->results[0]->type;
  if (rt->rank != 4 || !conv_nhwc(cd) || win->pad_sym || !type_is_static(rt) ||
      !type_is_static(lt) || !type_is_static(kt) || type_num_elems(rt) == 0)
    return false;
  if (rt->elem != ET_F32 || lt->elem != ET_F32 || kt->elem != ET_F32 ||
      op->a.feature_group_count > 1 || op->a.batch_group_count > 1 || kt->dims[0] != 3 ||
      kt->dims[1] != 3 || lt->dims[3] < 1)
    return false;
  for (int s = 0; s < 2; s++)
    if (window_at(&win->strides, s, 1) != 1 || window_at(&win->window_dilations, s, 1) != 1 ||
        window_at(&win->base_dilations, s, 1) != 1 || window_at(&win->reversal, s, 0) ||
        window_at(&win->pad_lo, s, 0) < 0 || window_at(&win->pad_lo, s, 0) > 2 ||
        window_at(&win->pad_hi, s, 0) < 0 || window_at(&win->pad_hi, s, 0) > 2)
      return false;
  int64_t c = lt->dims[3], k = rt->dims[3], n = rt->dims[0];
  IrWino w4;
  wino_geometry(w, 2, rt, c, k);
  if (w->th * n < IR_WINO_MIN_TILE_ROWS) return false;
  wino_geometry(&w4, 4, rt, c, k);
  int64_t m2, r2, m4, r4;
  wino_cost(w, n, &m2, &r2);
  wino_cost(&w4, n, &m4, &r4);
  if (m4 < m2 && m2 - m4 >= IR_WINO_F4_MULS_PER_READ * (r4 - r2)) *w = w4;
  wino_widen(w, n, c, k);
  return true;
}

/* Whether dot_general's GEMM packs A: unless A is contiguous along K, i.e.
 * its last contracting dimension of extent > 1 has stride 1. */
static bool dot_packs_a(const Op *op) {
  const Type *lt = op->opnds[0]->type;
  const I64List *c = &op->a.dot.lhs_contract;
  for (int i = c->n - 1; i >= 0; i--) {
    if (lt->dims[c->v[i]] == 1) continue;
    for (int d = (int)c->v[i] + 1; d < lt->rank; d++)
      if (lt->dims[d] != 1) return true;
    return false;
  }
  return true;
}

bool ir_fft_intermediates_in_scratch(const Op *op) {
  return op->a.fft_length.n > 1 &&
         (op->a.fft_type == FFT_IRFFT || op->results[0]->type->elem != ET_C128);
}

int64_t ir_fft_scratch_bytes(const Op *op, int64_t *line_bytes) {
  const I64List *len = &op->a.fft_length;
  const Type *t = op->a.fft_type == FFT_IRFFT ? op->opnds[0]->type : op->results[0]->type;
  int64_t line = 0, batch = 1;
  for (int i = 0; i < len->n; i++) line = len->v[i] > line ? len->v[i] : line;
  for (int d = t->rank - len->n; d < t->rank; d++) batch *= d >= 0 ? t->dims[d] : 1;
  *line_bytes = ir_align64(16 * line);
  return *line_bytes + (ir_fft_intermediates_in_scratch(op) ? ir_align64(16 * batch) : 0);
}

/* Whether v is computed in its user's kernel (fused, after fuse). */
static bool is_fused_value(const Value *v) { return v->def && v->def->fused; }

int64_t ir_row_buffer_bytes(const Type *t) {
  return ir_align64(t->dims[t->rank - 1] * elem_bytes(t->elem));
}

/* Adds to *n the row buffers a row kernel may keep of the fused values of
 * op's tree (codegen/kernel.c row_caches): costly values of the root's
 * shape t, of a float type, whose row fits IR_ROW_CACHE_BYTES, each
 * counted once per path (an upper bound); *rows: whether the tree holds a
 * row reduce. */
static void row_buffer_bound(const Op *op, const Type *t, int64_t *n, bool *rows) {
  for (int i = 0; i < op->nopnds; i++) {
    const Value *v = op->opnds[i];
    if (!is_fused_value(v)) continue;
    const Op *d = v->def;
    *rows |= ir_is_row_reduce(d);
    if (ir_is_costly(d->code) && type_same_dims(v->type, t) && elem_class(v->type->elem) == 'f' &&
        ir_row_buffer_bytes(v->type) <= IR_ROW_CACHE_BYTES)
      *n += ir_row_buffer_bytes(v->type);
    row_buffer_bound(d, t, n, rows);
  }
}

/* The largest dot_general result whose kernel's scratch slice holds all
 * of it (the K split's partial product: 8 x 4096 f32), for at most
 * IR_KSPLIT_MAX_ROWS rows (codegen/gemm.h's GEMM_SKINNY_MAX_M) and one
 * batch. */
enum { IR_KSPLIT_MAX_BYTES = 131072, IR_KSPLIT_MAX_ROWS = 8 };

/* A dot_general's rows (the lhs free dimensions), times its batches with
 * `batch`, or -1 when a size is symbolic. */
static int64_t dot_rows(const Op *op, bool batch) {
  const Type *lt = op->opnds[0]->type;
  int64_t n = 1;
  for (int d = 0; d < lt->rank; d++) {
    if (ir_list_has(&op->a.dot.lhs_contract, d)) continue;
    if (!batch && ir_list_has(&op->a.dot.lhs_batch, d)) continue;
    if (lt->dims[d] == DIM_DYNAMIC) return -1;
    n *= lt->dims[d];
  }
  return n;
}

/* A dot_general's depth (the product of its contracting sizes), or -1
 * when one is symbolic. */
static int64_t dot_depth(const Op *op) {
  const Type *lt = op->opnds[0]->type;
  int64_t k = 1;
  for (int i = 0; i < op->a.dot.lhs_contract.n; i++) {
    int64_t n = lt->dims[op->a.dot.lhs_contract.v[i]];
    if (n == DIM_DYNAMIC) return -1;
    k *= n;
  }
  return k;
}

int64_t ir_dot_kc_deep(const Op *op, int kc_tall) {
  int64_t m = dot_rows(op, true);
  bool few_rows = m >= 1 && m <= IR_KSPLIT_MAX_ROWS;
  const Op *b = op->opnds[1]->def;
  bool constant_b = b && b->code == OP_CONSTANT; /* the layout pass packs it */
  if (dot_packs_a(op) || few_rows || constant_b) return 128;
  bool tall = dot_rows(op, false) >= IR_DOT_TALL_ROWS && dot_depth(op) > IR_DOT_KC_DEEP;
  return kc_tall > 0 && tall ? kc_tall : IR_DOT_KC_DEEP;
}

bool ir_gemm_conv_tile(const Op *op) { return op && op->code == OP_CONVOLUTION; }

int64_t ir_kernel_scratch_bytes(const Op *op, int panel_bytes, bool winograd, int kc_tall) {
  if (!op->fused && op->nresults == 1 && ir_is_elementwise(op->code) &&
      type_is_tensor(op->results[0]->type) && op->results[0]->type->rank >= 1 &&
      type_num_elems(op->results[0]->type) > 0) {
    int64_t n = 0;
    bool rows = false;
    row_buffer_bound(op, op->results[0]->type, &n, &rows);
    return rows ? n : 0;
  }
  if (op->code != OP_FFT && !ir_is_gemm(op->code)) return 0;
  /* With symbolic sizes dot_general and convolution (static input
   * features: cg_conv_gemm_fits) run on the GEMM engine; a `?`
   * contracting size counts as 128, the largest K block. */
  if (op->code == OP_FFT) {
    int64_t line;
    return type_num_elems(op->results[0]->type) < 0 ? 0 : ir_fft_scratch_bytes(op, &line);
  }
  const Type *lt = op->opnds[0]->type;
  ElemType e = op->results[0]->type->elem;
  /* The convolution kernel reads A in place (implicit GEMM), or, with
   * packed weights (known only after this pass), through a table of row
   * pointers (indirect GEMM). */
  if (op->code == OP_CONVOLUTION) {
    int64_t n = gemm_scratch_bound(e, lt->dims[op->a.conv.in_feature], false, panel_bytes, 128);
    IrConvFold f;
    IrWino w;
    int64_t t = conv_table_bound(op) + (ir_conv_fold(op, &f) ? f.edge_bytes : 0);
    if (winograd && ir_conv_wino(op, &w) && w.scratch_bytes > t) t = w.scratch_bytes;
    return n > 0 && n < t ? t : n;
  }
  int64_t k = 1;
  for (int i = 0; i < op->a.dot.lhs_contract.n; i++) {
    int64_t n = lt->dims[op->a.dot.lhs_contract.v[i]];
    k *= n == DIM_DYNAMIC ? 128 : n;
  }
  /* A skinny dot split along K (codegen/dot.c's cg_dot_ksplit) keeps a
   * thread's partial product, all of C, in its slice, and the in-place
   * skinny path may compute C there (codegen/gemm.c's skinny_stage_at,
   * for more than one row of IR_SKINNY_STAGE_MIN_BYTES or more): C and
   * the 4 KiB either may be moved by. */
  int64_t n = gemm_scratch_bound(e, k, dot_packs_a(op), panel_bytes, ir_dot_kc_deep(op, kc_tall));
  int64_t c = type_byte_size(op->results[0]->type), m = dot_rows(op, true);
  bool split = m >= 1 && m <= IR_KSPLIT_MAX_ROWS && c <= IR_KSPLIT_MAX_BYTES;
  int64_t slot = m >= 2 && c / m >= IR_SKINNY_STAGE_MIN_BYTES ? c + 4096 : c;
  return split && slot > n ? ir_align64(slot) : n;
}

bool ir_list_has(const I64List *l, int64_t v) {
  for (int i = 0; i < l->n; i++)
    if (l->v[i] == v) return true;
  return false;
}

void ir_strides(const Type *t, int64_t *strides) {
  int64_t s = 1;
  for (int i = t->rank - 1; i >= 0; i--) {
    strides[i] = s;
    s *= t->dims[i];
  }
}

static int64_t load_int(const uint8_t *p, ElemType e) {
  switch (elem_bytes(e)) {
  case 1: return elem_class(e) == 'u' || e == ET_I1 ? (int64_t)*p : (int64_t)(int8_t)*p;
  case 2: { uint16_t v; memcpy(&v, p, 2); return elem_class(e) == 'u' ? (int64_t)v : (int64_t)(int16_t)v; }
  case 4: { uint32_t v; memcpy(&v, p, 4); return elem_class(e) == 'u' ? (int64_t)v : (int64_t)(int32_t)v; }
  default: { int64_t v; memcpy(&v, p, 8); return v; }
  }
}

/* f16 and bf16 bit patterns widened to double (exact). */
static double half_to_double(uint16_t h) {
  int s = h >> 15, e = (h >> 10) & 31, f = h & 1023;
  double v;
  if (e == 0) v = f * (1.0 / 16777216.0);
  else if (e == 31) v = f ? __builtin_nan("") : __builtin_inf();
  else {
    v = (1024 + f) / 1024.0;
    for (; e > 15; e--) v *= 2;
    for (; e < 15; e++) v /= 2;
  }
  return s ? -v : v;
}

double dense_get_f64(const DenseData *d, int64_t i) {
  ElemType e = d->type->elem;
  int nb = elem_bytes(e);
  const uint8_t *p = d->bytes + (d->splat ? 0 : i * nb);
  switch (e) {
  case ET_F32: { float v; memcpy(&v, p, 4); return v; }
  case ET_F64: { double v; memcpy(&v, p, 8); return v; }
  case ET_F16: { uint16_t v; memcpy(&v, p, 2); return half_to_double(v); }
  case ET_BF16: { uint16_t v; memcpy(&v, p, 2); uint32_t w = (uint32_t)v << 16; float f; memcpy(&f, &w, 4); return f; }
  default:
    if (elem_class(e) == 'u' && nb == 8) { uint64_t v; memcpy(&v, p, 8); return (double)v; }
    return (double)load_int(p, e);
  }
}

int64_t dense_get_i64(const DenseData *d, int64_t i) {
  ElemType e = d->type->elem;
  if (elem_is_float(e)) {
    double v = dense_get_f64(d, i);
    if (v != v) return 0;
    if (v >= 9223372036854775807.0) return INT64_MAX;
    if (v <= -9223372036854775808.0) return INT64_MIN;
    return (int64_t)v;
  }
  return load_int(d->bytes + (d->splat ? 0 : i * elem_bytes(e)), e);
}

/* ------------------------------------------------------------------------ */
/* Entries and the process grid                                              */

static bool symbol_in(const Attr *a, const char *name) {
  if (!a) return false;
  if (a->kind == AT_SYMBOL) return a->str && !strcmp(a->str, name);
  if (a->kind != AT_ARRAY) return false;
  for (int i = 0; i < a->n; i++)
    if (symbol_in(a->items[i], name)) return true;
  return false;
}

typedef struct ProgramQuery {
  const char *name;
  bool found;
} ProgramQuery;

static void names_program(Op *op, void *ctx) {
  ProgramQuery *q = ctx;
  if (op->code != OP_INTERPRETER_RUN_PARALLEL || q->found) return;
  q->found = symbol_in(ir_attr(op, "programs"), q->name) || symbol_in(ir_attr(op, "infeed"), q->name);
}

bool ir_is_parallel_program(Module *m, const Func *f) {
  ProgramQuery q = {f->name, false};
  for (int i = 0; i < m->nfuncs && !q.found; i++)
    if (m->funcs[i]->body) ir_walk(m->funcs[i], names_program, &q);
  return q.found;
}

bool ir_func_is_entry(Module *m, const Func *f, const CompileOptions *o) {
  if (!f->body) return false;
  if (!o || !o->entry) return f->is_public;
  return !strcmp(f->name, o->entry) || ir_is_parallel_program(m, f);
}

static void find_runtime_op(Op *op, void *ctx) {
  if (ir_needs_runtime(op->code)) *(bool *)ctx = true;
}

bool ir_func_needs_proc(Func *f) {
  bool found = false;
  ir_walk(f, find_runtime_op, &found);
  return found;
}

static int64_t module_int(const Module *m, const char *name) {
  for (int i = 0; i < m->nattrs; i++)
    if (!strcmp(m->attrs[i].name, name) && m->attrs[i].value->kind == AT_INT)
      return m->attrs[i].value->ival;
  return 0;
}

void ir_module_grid(const Module *m, int64_t *replicas, int64_t *partitions) {
  *replicas = module_int(m, "mhlo.num_replicas");
  *partitions = module_int(m, "mhlo.num_partitions");
}

bool ir_is_shape_assertion(const Op *op) {
  return op->code == OP_CUSTOM_CALL && op->a.call_target_name &&
         !strcmp(op->a.call_target_name, "shape_assertion");
}

int ir_message_field(const Op *op, const char *s, const char **end) {
  if (s[0] != '{' || s[1] < '0' || s[1] > '9') return -1;
  char *e;
  long i = strtol(s + 1, &e, 10);
  if (*e != '}' || i + 1 >= op->nopnds) return -1;
  const Type *t = op->opnds[i + 1]->type;
  if (t->kind != TY_TENSOR || t->rank != 0 || !elem_is_int(t->elem)) return -1;
  *end = e + 1;
  return (int)i;
}
