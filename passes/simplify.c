/* simplify.c: local clean-ups that make the kernel graph smaller.
 *
 *  1. Identities: reshape, convert, bitcast_convert, transpose, broadcast_in_dim,
 *     reverse, slice, pad, concatenate and dynamic_slice whose result type is
 *     the operand's and whose attributes make them copies are replaced by
 *     their operand (a copy kernel would cost a pass over memory).
 *  2. CSE: a pure op without regions identical to an earlier op of the same
 *     block (same code, operands, result types and attributes; constants by
 *     their bytes) is replaced by that op. Inlining the same helper twice
 *     (JAX's `_var`, `relu`...) and exported constants produce many of these.
 *  3. Transposes feeding a dot_general fold into its dimension numbers,
 *     also through a reshape that only merges or splits what the transpose
 *     keeps together.
 *  4. DCE: ops whose results are unused and that have no side effect, in all
 *     blocks, consumers first.
 *
 * 1 to 3 run in one walk in program order: an op is rewritten before
 * any of its uses is looked at, so a chain of duplicates folds in one go.
 */
#include <stdlib.h>
#include <string.h>

#include "../ir/ir.h"

/* ------------------------------------------------------------------------ */
/* Side effects                                                              */

static bool block_has_side_effect(const Block *b);

/* Whether removing the op when its results are unused changes behaviour:
 * terminators, checks (check.eq too: it fails the case when false),
 * custom calls, feeds and communication, and control flow around those. */
static bool has_side_effect(const Op *op) {
  if (ir_has_side_effect(op->code)) return true;
  for (int r = 0; r < op->nregions; r++)
    for (int k = 0; k < op->regions[r]->nblocks; k++)
      if (block_has_side_effect(op->regions[r]->blocks[k])) return true;
  return false;
}

static bool block_has_side_effect(const Block *b) {
  for (const Op *op = b->first; op; op = op->next)
    if (op->code != OP_RETURN && has_side_effect(op)) return true;
  return false;
}

/* ------------------------------------------------------------------------ */
/* Identities                                                                */

static bool all_zero(const I64List *l) {
  for (int i = 0; i < l->n; i++)
    if (l->v[i]) return false;
  return true;
}

static bool is_iota_list(const I64List *l) {
  for (int i = 0; i < l->n; i++)
    if (l->v[i] != i) return false;
  return true;
}

static bool reverses_nothing(const Op *op) {
  const Type *t = op->opnds[0]->type;
  for (int i = 0; i < op->a.dimensions.n; i++) {
    int64_t d = op->a.dimensions.v[i];
    if (d >= 0 && d < t->rank && t->dims[d] > 1) return false;
  }
  return true;
}

/* The value an op is a copy of, or NULL. Same result and operand type is
 * required throughout; the attribute tests rule out the remaining
 * non-identities (a square transpose, a shifting pad...). */
static Value *identity_of(const Op *op) {
  if (op->nopnds < 1 || op->nresults != 1) return NULL;
  Value *x = op->opnds[0];
  if (x->type != op->results[0]->type || !type_is_static(x->type)) return NULL;
  switch (op->code) {
  case OP_RESHAPE: case OP_CONVERT: case OP_BITCAST_CONVERT: return x;
  case OP_TRANSPOSE: return is_iota_list(&op->a.permutation) ? x : NULL;
  case OP_BROADCAST_IN_DIM: return is_iota_list(&op->a.broadcast_dimensions) ? x : NULL;
  case OP_REVERSE: return reverses_nothing(op) ? x : NULL;
  /* Same shape with start 0 forces limit = size and stride 1 (or size <= 1). */
  case OP_SLICE: return all_zero(&op->a.start_indices) ? x : NULL;
  case OP_PAD:
    return all_zero(&op->a.edge_padding_low) && all_zero(&op->a.edge_padding_high) &&
                   all_zero(&op->a.interior_padding) ? x : NULL;
  case OP_CONCATENATE: return op->nopnds == 1 ? x : NULL;
  /* Full-size slices clamp every start index to 0 (spec: dynamic_slice). */
  case OP_DYNAMIC_SLICE: return x;
  default: return NULL;
  }
}

/* ------------------------------------------------------------------------ */
/* CSE                                                                       */

/* Pure ops without regions. Elided weights (`dense_resource<__elided__>`)
 * are filled with one pattern by the frontend; merging them would make
 * benchmarks of such models read far less memory than the real model does. */
static bool cse_candidate(const Op *op) {
  if (op->nregions || op->nresults < 1) return false;
  if (op->code == OP_CONSTANT) return op->a.value && !op->a.value->elided;
  return (op_flags(op->code) & OPF_IMPL) && !ir_has_side_effect(op->code) &&
         !ir_is_entry_op(op->code);
}

static uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h;
}

static uint64_t hash_bytes(uint64_t h, const uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

/* The generic attributes as printed: two ops with the same printed
 * attributes have the same typed ones. Constants use their bytes instead. */
static char *attr_signature(const Op *op) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f) abort();
  if (op->code != OP_CONSTANT)
    for (int i = 0; i < op->nattrs; i++) {
      fprintf(f, "%s=", op->attrs[i].name);
      if (op->attrs[i].value) ir_print_attr(f, op->attrs[i].value);
      fputc(';', f);
    }
  fclose(f);
  return buf;
}

typedef struct CseEntry {
  Op *op;
  uint64_t hash;
  char *sig;
} CseEntry;

typedef struct CseTable {
  CseEntry *slots;
  size_t cap, n;
} CseTable;

static uint64_t op_hash(const Op *op, const char *sig) {
  uint64_t h = mix(0, (uint64_t)op->code);
  for (int i = 0; i < op->nopnds; i++) h = mix(h, (uint64_t)(uintptr_t)op->opnds[i]);
  for (int i = 0; i < op->nresults; i++) h = mix(h, (uint64_t)(uintptr_t)op->results[i]->type);
  h = hash_bytes(h, (const uint8_t *)sig, strlen(sig));
  if (op->code == OP_CONSTANT) {
    /* Both ends of the data: enough to tell constants apart in practice
     * (same_op compares all bytes), and cheap for large weights. */
    const DenseData *d = op->a.value;
    size_t n = d->nbytes < 512 ? d->nbytes : 256;
    h = mix(hash_bytes(h, d->bytes, n), d->nbytes);
    if (d->nbytes >= 512) h = hash_bytes(h, d->bytes + d->nbytes - 256, 256);
  }
  return h;
}

static bool same_dense(const DenseData *a, const DenseData *b) {
  return a->type == b->type && a->splat == b->splat && a->nbytes == b->nbytes &&
         !memcmp(a->bytes, b->bytes, a->nbytes);
}

static bool same_op(const Op *a, const char *sa, const Op *b, const char *sb) {
  if (a->code != b->code || a->nopnds != b->nopnds || a->nresults != b->nresults)
    return false;
  for (int i = 0; i < a->nopnds; i++)
    if (a->opnds[i] != b->opnds[i]) return false;
  for (int i = 0; i < a->nresults; i++)
    if (a->results[i]->type != b->results[i]->type) return false;
  if (strcmp(sa, sb)) return false;
  return a->code != OP_CONSTANT || same_dense(a->a.value, b->a.value);
}

static void table_grow(CseTable *t) {
  CseTable n = {calloc(t->cap ? 2 * t->cap : 64, sizeof(CseEntry)),
                t->cap ? 2 * t->cap : 64, t->n};
  if (!n.slots) abort();
  for (size_t i = 0; i < t->cap; i++) {
    if (!t->slots[i].op) continue;
    size_t j = t->slots[i].hash & (n.cap - 1);
    while (n.slots[j].op) j = (j + 1) & (n.cap - 1);
    n.slots[j] = t->slots[i];
  }
  free(t->slots);
  *t = n;
}

/* Returns the earlier op equal to op, or inserts op and returns NULL. */
static Op *table_find_or_insert(CseTable *t, Op *op) {
  if (2 * (t->n + 1) > t->cap) table_grow(t);
  char *sig = attr_signature(op);
  uint64_t h = op_hash(op, sig);
  size_t j = h & (t->cap - 1);
  for (; t->slots[j].op; j = (j + 1) & (t->cap - 1)) {
    CseEntry *e = &t->slots[j];
    if (e->hash == h && same_op(e->op, e->sig, op, sig)) {
      free(sig);
      return e->op;
    }
  }
  t->slots[j] = (CseEntry){op, h, sig};
  t->n++;
  return NULL;
}

static void table_free(CseTable *t) {
  for (size_t i = 0; i < t->cap; i++) free(t->slots[i].sig);
  free(t->slots);
}

/* ------------------------------------------------------------------------ */
/* Transposes into dot_general                                               */

static bool list_has(const I64List *l, int64_t d) {
  for (int i = 0; i < l->n; i++)
    if (l->v[i] == d) return true;
  return false;
}

/* Whether the free dimensions of a dot operand (those neither batch nor
 * contracting), read through permutation perm, stay in ascending order:
 * the result lists them in operand order (spec "dot_general" (C12)), so
 * only then does the folded dot give the same result layout. */
static bool free_order_kept(int rank, const I64List *batch, const I64List *contract,
                            const I64List *perm) {
  int64_t last = -1;
  for (int d = 0; d < rank; d++) {
    if (list_has(batch, d) || list_has(contract, d)) continue;
    if (perm->v[d] < last) return false;
    last = perm->v[d];
  }
  return true;
}

/* l with every dimension d replaced by perm[d], in the module's arena. */
static I64List permuted(Module *m, const I64List *l, const I64List *perm) {
  I64List r = {l->n, ARENA_ARRAY(&m->arena, int64_t, l->n > 0 ? l->n : 1)};
  for (int i = 0; i < l->n; i++) r.v[i] = perm->v[l->v[i]];
  return r;
}

/* reshape(transpose(x, perm)) as transpose(reshape(x), q), when the
 * reshape only merges and splits dimensions in a way the transpose keeps
 * together: the non-unit dimensions of the transpose's result s and of the
 * reshape's result t fall into groups of equal size, each one s dimension
 * to one or more t dimensions (a split), or several s dimensions to one t
 * dimension (a merge) whose x dimensions follow each other in order, apart
 * from unit ones. Then x reshaped to xs (the groups in x's order, t's unit
 * dimensions appended) and transposed by q is t (spec "reshape": both
 * read x in the same row-major order group by group). JAX exports K^T for
 * attention so: transpose(k) to 1x12x64x7, reshaped to 12x64x7. Returns
 * the rank of xs, 0 when the reshape does not commute so. */
static int commute_reshape(const Type *x, const I64List *perm, const Type *t, int64_t *xs,
                           int64_t *q) {
  int r = x->rank, ns = 0, nt = 0;
  int sd[r > 0 ? r : 1], td[t->rank > 0 ? t->rank : 1];
  int sgroup[r > 0 ? r : 1], gfirst_t[r > 0 ? r : 1], gcount_t[r > 0 ? r : 1];
  for (int i = 0; i < r; i++)
    if (x->dims[perm->v[i]] != 1) sd[ns++] = i;
  for (int j = 0; j < t->rank; j++)
    if (t->dims[j] != 1) td[nt++] = j;
  int i = 0, j = 0, g = 0;
  while (i < ns && j < nt) {
    int64_t a = x->dims[perm->v[sd[i]]], b = t->dims[td[j]];
    int i0 = i, j0 = j;
    for (i++, j++; a != b;) {
      if (a < b && i < ns) {
        /* merge: the next x dimension, past unit ones, must be this one's */
        int64_t prev = perm->v[sd[i - 1]], next = perm->v[sd[i]];
        for (int64_t d = prev + 1; d < next; d++)
          if (x->dims[d] != 1) return 0;
        if (next < prev || j - j0 > 1) return 0;
        a *= x->dims[next];
        i++;
      } else if (a > b && j < nt && i - i0 == 1) {
        b *= t->dims[td[j++]];
      } else {
        return 0;
      }
    }
    for (int k = i0; k < i; k++) sgroup[k] = g;
    gfirst_t[g] = j0;
    gcount_t[g++] = j - j0;
  }
  if (i < ns || j < nt) return 0;
  /* xs: each group where its first dimension lies in x, in x's order. */
  int n = 0, first_s[r > 0 ? r : 1];
  for (int k = ns - 1; k >= 0; k--) first_s[sgroup[k]] = k;
  for (int d = 0; d < r; d++) {
    int k = 0;
    while (k < ns && perm->v[sd[k]] != d) k++;
    if (k == ns || first_s[sgroup[k]] != k) continue;
    for (int u = 0; u < gcount_t[sgroup[k]]; u++) {
      int tj = td[gfirst_t[sgroup[k]] + u];
      q[tj] = n;
      xs[n++] = t->dims[tj];
    }
  }
  for (int u = 0; u < t->rank; u++)
    if (t->dims[u] == 1) {
      q[u] = n;
      xs[n++] = 1;
    }
  return n;
}

/* A transpose feeding a dot_general operand folds into its dimension
 * numbers: dimension d of the transpose's result is dimension
 * permutation[d] of its operand (spec "transpose"), so the dot reads that
 * operand in place (`x @ transpose(W)` reads W, as the GEMM engine can
 * with K-contiguous operands) and the transpose, once unused, goes. A
 * reshape between them that commute_reshape moves before the transpose
 * becomes a reshape of x (a view: no copy). */
static void fold_dot_transposes(Module *m, Op *op) {
  if (op->code != OP_DOT_GENERAL) return;
  bool changed = false;
  for (int i = 0; i < 2; i++) {
    Value *v = op->opnds[i], *from = NULL;
    Op *t = v->def;
    if (!t || !type_is_static(v->type)) continue;
    I64List *batch = i ? &op->a.dot.rhs_batch : &op->a.dot.lhs_batch;
    I64List *contract = i ? &op->a.dot.rhs_contract : &op->a.dot.lhs_contract;
    const I64List *perm = &t->a.permutation;
    int64_t xs[v->type->rank + 1], q[v->type->rank + 1];
    I64List qperm = {v->type->rank, q};
    int xr = 0;
    if (t->code == OP_TRANSPOSE) {
      from = t->opnds[0];
    } else if (t->code == OP_RESHAPE && t->opnds[0]->def &&
               t->opnds[0]->def->code == OP_TRANSPOSE && !v->type->quant) {
      Op *tr = t->opnds[0]->def;
      xr = commute_reshape(tr->opnds[0]->type, &tr->a.permutation, v->type, xs, q);
      if (!xr) continue;
      from = tr->opnds[0];
      perm = &qperm;
    } else {
      continue;
    }
    if (!free_order_kept(v->type->rank, batch, contract, perm)) continue;
    *batch = permuted(m, batch, perm);
    *contract = permuted(m, contract, perm);
    if (xr) {
      Builder b = {m, op->parent, op, op->loc};
      from = ir_build1(&b, OP_RESHAPE, type_tensor(m->types, v->type->elem, xr, xs), 1, &from);
    }
    op->opnds[i] = from;
    changed = true;
  }
  if (changed) attrs_encode(m, op);
}

/* ------------------------------------------------------------------------ */
/* The rewriting walk                                                        */

typedef struct Simplifier {
  Module *m;
  Value **repl; /* by Value.id: the value that replaces it, or NULL */
  int nvalues;
} Simplifier;

static Value *resolve(Simplifier *s, Value *v) {
  while (v->id >= 0 && v->id < s->nvalues && s->repl[v->id]) v = s->repl[v->id];
  return v;
}

static void replace_results(Simplifier *s, Op *op, Value *const *by) {
  for (int i = 0; i < op->nresults; i++) s->repl[op->results[i]->id] = by[i];
}

static void rewrite_block(Simplifier *s, Block *b);

/* Returns true when the op was removed. */
static bool rewrite_op(Simplifier *s, CseTable *t, Op *op) {
  for (int i = 0; i < op->nopnds; i++) op->opnds[i] = resolve(s, op->opnds[i]);
  fold_dot_transposes(s->m, op);
  Value *x = identity_of(op);
  if (x) {
    replace_results(s, op, &x);
    ir_block_remove(op->parent, op);
    return true;
  }
  if (cse_candidate(op)) {
    Op *same = table_find_or_insert(t, op);
    if (same) {
      replace_results(s, op, same->results);
      ir_block_remove(op->parent, op);
      return true;
    }
  }
  for (int r = 0; r < op->nregions; r++)
    for (int k = 0; k < op->regions[r]->nblocks; k++)
      rewrite_block(s, op->regions[r]->blocks[k]);
  return false;
}

static void rewrite_block(Simplifier *s, Block *b) {
  CseTable t = {0};
  for (Op *op = b->first, *next; op; op = next) {
    next = op->next;
    rewrite_op(s, &t, op);
  }
  table_free(&t);
}

/* ------------------------------------------------------------------------ */
/* DCE                                                                       */

static void drop_uses(Op *op) {
  for (int i = 0; i < op->nopnds; i++) op->opnds[i]->nuses--;
  for (int r = 0; r < op->nregions; r++)
    for (int k = 0; k < op->regions[r]->nblocks; k++)
      for (Op *in = op->regions[r]->blocks[k]->first; in; in = in->next) drop_uses(in);
}

static bool is_dead(const Op *op) {
  for (int i = 0; i < op->nresults; i++)
    if (op->results[i]->nuses > 0) return false;
  return !has_side_effect(op);
}

/* Consumers first: an op's regions are cleaned before the op is looked at,
 * and a block is walked backwards, so one walk removes whole dead chains
 * (uses are decremented as ops go). */
static int dce_block(Block *b) {
  int removed = 0;
  for (Op *op = b->last, *prev; op; op = prev) {
    prev = op->prev;
    for (int r = 0; r < op->nregions; r++)
      for (int k = 0; k < op->regions[r]->nblocks; k++)
        removed += dce_block(op->regions[r]->blocks[k]);
    if (!is_dead(op)) continue;
    drop_uses(op);
    ir_block_remove(b, op);
    removed++;
  }
  return removed;
}

static void simplify_func(Module *m, Func *f) {
  ir_number_values(f);
  Simplifier s = {m, calloc((size_t)f->next_value_id + 1, sizeof(Value *)), f->next_value_id};
  if (!s.repl) abort();
  rewrite_block(&s, f->body);
  free(s.repl);
  ir_recount_uses(f);
  dce_block(f->body);
  ir_number_values(f);
  ir_recount_uses(f);
}

int pass_simplify(Module *m) {
  for (int i = 0; i < m->nfuncs; i++)
    if (m->funcs[i]->body && !m->funcs[i]->sym) simplify_func(m, m->funcs[i]); /* keeps Value.sym */
  return 0;
}
