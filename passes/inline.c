/* inline.c: replaces every `func.call` (and `stablehlo.composite`, a call of
 * its `decomposition` function) by a copy of the callee's body.
 *
 * Codegen compiles one function at a time with no calls between them, so
 * after this pass no call is left. StableHLO programs cannot recurse (the
 * call graph is a DAG); a cycle is diagnosed. Callees are inlined bottom-up:
 * a callee's own calls are inlined into it first, so each call is expanded
 * once with an already flat body.
 *
 * Private functions that nothing refers to any more are then removed; a
 * function still named by a symbol attribute (e.g. the `programs` of
 * `interpreter.run_parallel`) is kept.
 */
#include <stdlib.h>
#include <string.h>

#include "../ir/ir.h"

enum { UNVISITED, IN_PROGRESS, DONE };

/* A call graph where each function calls the next twice grows as 2^depth
 * when inlined: past this many cloned ops the program is rejected with a
 * diagnostic rather than exhausting memory. */
enum { INLINE_OPS_MAX = 1 << 22 };

typedef struct Inliner {
  Module *m;
  int *state;      /* per function index in m->funcs: UNVISITED/IN_PROGRESS/DONE */
  int64_t *nops;   /* per function index: ops of its flattened body, when DONE */
  int64_t cloned;  /* ops cloned so far */
  int errors;
} Inliner;

static void count_op(Op *op, void *ctx) {
  (void)op;
  ++*(int64_t *)ctx;
}

static int func_index(Module *m, const Func *f) {
  for (int i = 0; i < m->nfuncs; i++)
    if (m->funcs[i] == f) return i;
  return -1;
}

/* The function an op calls, or NULL if it is no call. Reports unknown
 * callees (the verifier may not know the symbol table). */
static const char *call_target(const Op *op) {
  if (op->code == OP_FUNC_CALL) return op->a.callee;
  if (op->code != OP_COMPOSITE) return NULL;
  Attr *d = ir_attr(op, "decomposition");
  if (!d || d->kind != AT_SYMBOL || !d->str) return NULL;
  return d->str[0] == '@' ? d->str + 1 : d->str;
}

/* ------------------------------------------------------------------------ */
/* Cloning a callee body                                                     */

/* Maps callee values (by Value.id, after ir_number_values) to caller values. */
typedef struct CloneMap {
  Value **to;
  int n;
} CloneMap;

static Value *map_value(CloneMap *cm, Value *v) {
  if (v->id < 0 || v->id >= cm->n || !cm->to[v->id]) abort(); /* not in callee */
  return cm->to[v->id];
}

static void clone_ops_into(Module *m, CloneMap *cm, Block *src, Block *dst,
                           Op *before, bool skip_terminator);

static Block *clone_block(Module *m, CloneMap *cm, Block *src) {
  Type **types = ARENA_ARRAY(&m->arena, Type *, src->nargs);
  for (int i = 0; i < src->nargs; i++) types[i] = src->args[i]->type;
  Block *b = ir_block_new(m, src->nargs, types);
  for (int i = 0; i < src->nargs; i++) {
    b->args[i]->name = src->args[i]->name;
    cm->to[src->args[i]->id] = b->args[i];
  }
  clone_ops_into(m, cm, src, b, NULL, false);
  return b;
}

static Op *clone_op(Module *m, CloneMap *cm, Op *src) {
  Type **types = ARENA_ARRAY(&m->arena, Type *, src->nresults);
  for (int i = 0; i < src->nresults; i++) types[i] = src->results[i]->type;
  Op *op = ir_op_new(m, src->code, src->loc, src->nopnds, NULL, src->nresults,
                     types, src->nregions);
  for (int i = 0; i < src->nopnds; i++) op->opnds[i] = map_value(cm, src->opnds[i]);
  op->nattrs = src->nattrs;
  op->attrs = src->attrs; /* attributes are immutable: share them */
  op->a = src->a;
  for (int i = 0; i < src->nresults; i++) {
    op->results[i]->name = src->results[i]->name;
    cm->to[src->results[i]->id] = op->results[i];
  }
  for (int r = 0; r < src->nregions; r++) {
    Region *sr = src->regions[r];
    Region *nr = ir_region_new(m, sr->nblocks);
    nr->parent = op;
    for (int k = 0; k < sr->nblocks; k++) {
      nr->blocks[k] = clone_block(m, cm, sr->blocks[k]);
      nr->blocks[k]->parent = nr;
    }
    op->regions[r] = nr;
  }
  return op;
}

/* Clones the ops of src before `before` in dst (appends when NULL). */
static void clone_ops_into(Module *m, CloneMap *cm, Block *src, Block *dst,
                           Op *before, bool skip_terminator) {
  for (Op *op = src->first; op; op = op->next) {
    if (skip_terminator && op == src->last) break;
    ir_block_insert_before(dst, before, clone_op(m, cm, op));
  }
}

/* ------------------------------------------------------------------------ */
/* Inlining                                                                  */

static void inline_func(Inliner *in, Func *f);

/* The verifier checks func.call against the callee's signature; composite
 * is checked here, where the decomposition is looked up anyway. */
static bool signature_matches(const Op *call, const Func *callee) {
  const Block *b = callee->body;
  const Op *ret = ir_block_terminator(callee->body);
  if (!ret || ret->code != OP_FUNC_RETURN || ret->nopnds != call->nresults ||
      b->nargs != call->nopnds)
    return false;
  for (int i = 0; i < b->nargs; i++)
    if (b->args[i]->type != call->opnds[i]->type) return false;
  for (int i = 0; i < ret->nopnds; i++)
    if (ret->opnds[i]->type != call->results[i]->type) return false;
  return true;
}

static bool check_call(Op *call, Func *callee, const char *name) {
  if (!callee) {
    diag_error(call->loc, "%s: unknown function @%s", op_name(call->code), name);
    return false;
  }
  if (!callee->body) {
    diag_error(call->loc, "%s: function @%s has no body", op_name(call->code), name);
    return false;
  }
  if (!signature_matches(call, callee)) {
    diag_error(call->loc, "%s: @%s does not match the call's operands and results",
               op_name(call->code), name);
    return false;
  }
  return true;
}

/* Replaces one call by the callee's body. The callee is already flat. */
static void expand_call(Inliner *in, Func *caller, Op *call, Func *callee) {
  Module *m = in->m;
  ir_number_values(callee);
  CloneMap cm = {calloc((size_t)callee->next_value_id + 1, sizeof(Value *)),
                 callee->next_value_id};
  if (!cm.to) abort();
  for (int i = 0; i < callee->body->nargs; i++)
    cm.to[callee->body->args[i]->id] = call->opnds[i];
  Block *b = call->parent;
  clone_ops_into(m, &cm, callee->body, b, call, true);
  Op *ret = ir_block_terminator(callee->body);
  for (int i = 0; i < call->nresults; i++)
    ir_replace_uses(caller, call->results[i], map_value(&cm, ret->opnds[i]));
  ir_block_remove(b, call);
  free(cm.to);
}

static void inline_calls(Inliner *in, Func *f) {
  OpList calls = {0};
  ir_collect_ops(f, &calls);
  for (int i = 0; i < calls.n; i++) {
    Op *call = calls.v[i];
    const char *name = call_target(call);
    if (!name) continue;
    Func *callee = ir_module_find_func(in->m, name);
    if (!check_call(call, callee, name)) {
      in->errors++;
      continue;
    }
    int ci = func_index(in->m, callee);
    if (in->state[ci] == IN_PROGRESS) {
      diag_error(call->loc, "%s: recursive call of @%s (StableHLO programs cannot recurse)",
                 op_name(call->code), name);
      in->errors++;
      continue;
    }
    inline_func(in, callee);
    if (in->state[ci] != DONE) continue; /* an error below */
    in->cloned += in->nops[ci];
    if (in->cloned > INLINE_OPS_MAX) {
      diag_error(call->loc, "%s: inlining @%s would make the program larger than %d ops",
                 op_name(call->code), name, INLINE_OPS_MAX);
      in->errors++;
      break;
    }
    expand_call(in, f, call, callee);
  }
  free(calls.v);
}

static void inline_func(Inliner *in, Func *f) {
  int i = func_index(in->m, f);
  if (in->state[i] != UNVISITED || !f->body) return;
  in->state[i] = IN_PROGRESS;
  int before = in->errors;
  inline_calls(in, f);
  /* A function whose calls failed stays IN_PROGRESS, so callers skip it
   * instead of reporting the same error again. */
  if (in->errors == before) {
    in->state[i] = DONE;
    ir_walk(f, count_op, &in->nops[i]);
  }
}

/* ------------------------------------------------------------------------ */
/* Removing private functions nobody refers to                               */

static bool attr_refers(const Attr *a, const char *name) {
  if (!a) return false;
  switch (a->kind) {
  case AT_SYMBOL: {
    const char *s = a->str[0] == '@' ? a->str + 1 : a->str;
    return !strcmp(s, name);
  }
  case AT_ARRAY:
    for (int i = 0; i < a->n; i++)
      if (attr_refers(a->items[i], name)) return true;
    return false;
  case AT_DICT:
  case AT_STRUCT:
    for (int i = 0; i < a->n; i++)
      if (attr_refers(a->fields[i].value, name)) return true;
    return false;
  default: return false;
  }
}

typedef struct RefQuery {
  const char *name;
  bool found;
} RefQuery;

static void op_refers(Op *op, void *ctx) {
  RefQuery *q = ctx;
  const char *t = call_target(op);
  if (t && !strcmp(t, q->name)) q->found = true;
  for (int i = 0; i < op->nattrs && !q->found; i++)
    if (attr_refers(op->attrs[i].value, q->name)) q->found = true;
}

static bool is_referenced(Module *m, const Func *f) {
  RefQuery q = {f->name, false};
  for (int i = 0; i < m->nfuncs && !q.found; i++)
    if (m->funcs[i] != f && m->funcs[i]->body) ir_walk(m->funcs[i], op_refers, &q);
  return q.found;
}

/* Removes unreferenced private functions until none is left: removing one
 * may leave another unreferenced (only where calls failed to inline). */
static void remove_dead_private(Module *m) {
  bool changed = true;
  while (changed) {
    changed = false;
    for (int i = 0; i < m->nfuncs; i++) {
      Func *f = m->funcs[i];
      if (f->is_public || is_referenced(m, f)) continue;
      ir_module_remove_func(m, f);
      changed = true;
      break;
    }
  }
}

int pass_inline(Module *m) {
  Inliner in = {.m = m, .state = calloc((size_t)m->nfuncs + 1, sizeof(int)),
                .nops = calloc((size_t)m->nfuncs + 1, sizeof(int64_t))};
  if (!in.state || !in.nops) abort();
  for (int i = 0; i < m->nfuncs; i++) inline_func(&in, m->funcs[i]);
  free(in.state);
  free(in.nops);
  if (in.errors) return in.errors;
  remove_dead_private(m);
  for (int i = 0; i < m->nfuncs; i++) {
    if (!m->funcs[i]->body) continue;
    ir_number_values(m->funcs[i]);
    ir_recount_uses(m->funcs[i]);
  }
  return 0;
}
