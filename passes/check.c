/* check.c: the structural checker run between passes (--verify-each).
 *
 * The verifier (verify.c) checks the spec's constraints of each op; this
 * file checks what the passes themselves promise, so that a pass that
 * breaks the IR is caught right after it instead of crashing codegen:
 *  - structure: block, region and op links agree; every result knows its
 *    op and index; every operand is defined before its use, in its block or
 *    an enclosing one (SSA scoping, spec "Programs");
 *  - fusion (after fuse): a fused op is fusible (or a GEMM epilogue source,
 *    or a row reduce computed per row in a row kernel),
 *    has one result, and each of its users is in its block and reads it
 *    elementally (ir.h ir_reads_elementally; an epilogue's user is
 *    elementwise);
 *  - storage (after buffers, entry functions): values of kernel blocks
 *    have the storage their kind implies; arguments and results point at
 *    their own slots; temps are 64-byte aligned inside the arena.
 * A violation is an internal error at the op, with the pass named.
 */
#include <stdlib.h>
#include <string.h>

#include "../ir/ir.h"

/* A set of values (pointers), open addressing. */
typedef struct ValueSet {
  const Value **v;
  size_t cap, n;
} ValueSet;

static size_t hash_ptr(const void *p) {
  uintptr_t x = (uintptr_t)p;
  x ^= x >> 17;
  x *= 0xed5ad4bbu;
  x ^= x >> 11;
  return (size_t)x;
}

static void set_add(ValueSet *s, const Value *v);

static void set_grow(ValueSet *s) {
  ValueSet old = *s;
  s->cap = old.cap ? 2 * old.cap : 256;
  s->n = 0;
  s->v = calloc(s->cap, sizeof *s->v);
  if (!s->v) abort();
  for (size_t i = 0; i < old.cap; i++)
    if (old.v[i]) set_add(s, old.v[i]);
  free(old.v);
}

static void set_add(ValueSet *s, const Value *v) {
  if (2 * (s->n + 1) > s->cap) set_grow(s);
  size_t i = hash_ptr(v) & (s->cap - 1);
  while (s->v[i] && s->v[i] != v) i = (i + 1) & (s->cap - 1);
  if (!s->v[i]) {
    s->v[i] = v;
    s->n++;
  }
}

static bool set_has(const ValueSet *s, const Value *v) {
  if (!s->cap) return false;
  size_t i = hash_ptr(v) & (s->cap - 1);
  for (; s->v[i]; i = (i + 1) & (s->cap - 1))
    if (s->v[i] == v) return true;
  return false;
}

typedef struct Checker {
  const char *pass;
  const CompileOptions *o;
  Func *f;
  bool fused, planned; /* fuse / buffers have run */
  ValueSet visible;    /* values defined so far on the path to the op */
  int errors;
} Checker;

static void bad(Checker *c, const Op *op, const char *what) {
  diag_error(op ? op->loc : c->f->loc, "internal error after pass %s: %s%s%s", c->pass,
             op ? op_name(op->code) : "", op ? ": " : "", what);
  c->errors++;
}

/* ------------------------------------------------------------------------ */
/* Structure and scoping                                                     */

static void check_block(Checker *c, Block *b, Region *parent);

static void check_links(Checker *c, Block *b, Op *op) {
  if (op->parent != b) bad(c, op, "op does not point at its block");
  if ((op->prev ? op->prev->next : b->first) != op) bad(c, op, "broken op list (prev)");
  if ((op->next ? op->next->prev : b->last) != op) bad(c, op, "broken op list (next)");
  for (int i = 0; i < op->nresults; i++)
    if (op->results[i]->def != op || op->results[i]->index != i)
      bad(c, op, "a result does not point at its op");
}

static void check_operands(Checker *c, Op *op) {
  for (int i = 0; i < op->nopnds; i++) {
    Value *v = op->opnds[i];
    if (!v) {
      bad(c, op, "missing operand");
    } else if (!set_has(&c->visible, v)) {
      char msg[96];
      snprintf(msg, sizeof msg, "operand #%d is not defined before its use", i);
      bad(c, op, msg);
    }
  }
}

static void check_op(Checker *c, Block *b, Op *op) {
  check_links(c, b, op);
  check_operands(c, op);
  /* Values of enclosing blocks are visible in regions; a region's own
   * values are not visible after the op (checked by leaving them in the
   * set: SSA names are unique, so a later use of one is caught by the
   * verifier's dominance rules upstream; here we only need "defined"). */
  for (int r = 0; r < op->nregions; r++) {
    Region *reg = op->regions[r];
    if (reg->parent != op) bad(c, op, "a region does not point at its op");
    for (int k = 0; k < reg->nblocks; k++) check_block(c, reg->blocks[k], reg);
  }
  for (int i = 0; i < op->nresults; i++) set_add(&c->visible, op->results[i]);
}

static void check_block(Checker *c, Block *b, Region *parent) {
  if (b->parent != parent) bad(c, NULL, "a block does not point at its region");
  for (int i = 0; i < b->nargs; i++) set_add(&c->visible, b->args[i]);
  for (Op *op = b->first; op; op = op->next) check_op(c, b, op);
}

/* ------------------------------------------------------------------------ */
/* Fusion                                                                    */

/* The fused op itself, and every read of a fused value by `user`. */
static void check_fusion(Op *user, void *ctx) {
  Checker *c = ctx;
  if (user->fused) {
    if (!ir_is_gemm(user->code) && !ir_is_fusible(user->code) && !ir_is_row_reduce(user))
      bad(c, user, "fused but not fusible");
    if (user->nresults != 1) bad(c, user, "fused with several results");
  }
  for (int i = 0; i < user->nopnds; i++) {
    const Op *def = user->opnds[i]->def;
    if (!def || !def->fused) continue;
    bool epilogue = ir_is_gemm(def->code);
    if (user->parent != def->parent)
      bad(c, user, "reads a fused value of another block");
    else if (epilogue ? !ir_is_elementwise(user->code) : !ir_reads_elementally(user))
      bad(c, user, "reads a fused value but not elementally");
  }
}

/* ------------------------------------------------------------------------ */
/* Storage                                                                   */

static void check_storage(Checker *c, const Op *op, const Value *v) {
  const Func *f = c->f;
  switch (v->storage) {
  case ST_NONE:
    if (!op->fused) bad(c, op, "a result has no storage but the op is not fused");
    break;
  case ST_CONST:
    if (op->code != OP_CONSTANT) bad(c, op, "a result is stored as a constant");
    break;
  case ST_RESULT:
    if (v->offset < 0 || v->offset >= f->nresults) bad(c, op, "result slot out of range");
    break;
  case ST_TEMP: {
    int64_t size = type_byte_size(v->type);
    if (v->offset % 64 || v->offset < 0 || (size > 0 && v->offset + size > f->temp_bytes))
      bad(c, op, "temp buffer outside the arena or misaligned");
    break;
  }
  case ST_ARG:
    bad(c, op, "an op result is stored as an argument");
    break;
  }
}

static void check_planned_block(Checker *c, Block *b) {
  for (Op *op = b->first; op; op = op->next) {
    if (!op->alias)
      for (int i = 0; i < op->nresults; i++)
        if (type_is_tensor(op->results[i]->type)) check_storage(c, op, op->results[i]);
    if (ir_has_scalar_regions(op)) continue;
    for (int r = 0; r < op->nregions; r++)
      for (int k = 0; k < op->regions[r]->nblocks; k++)
        check_planned_block(c, op->regions[r]->blocks[k]);
  }
}

static void check_planned(Checker *c) {
  Block *body = c->f->body;
  for (int i = 0; i < body->nargs; i++)
    if (body->args[i]->storage != ST_ARG || body->args[i]->offset != i)
      bad(c, NULL, "an argument is not in its own slot");
  check_planned_block(c, body);
}

/* A constant the layout pass packed is read by GEMM kernels as B only:
 * anything else would read its panels as row-major elements. */
static void check_packed(Op *user, void *ctx) {
  for (int i = 0; i < user->nopnds; i++) {
    const Value *v = user->opnds[i];
    if (!v->packed) continue;
    if (v->storage != ST_CONST || !v->def || v->def->code != OP_CONSTANT)
      bad(ctx, user, "reads a packed value that is not a constant");
    else if (i != 1 || !ir_is_gemm(user->code))
      bad(ctx, user, "reads a packed constant, but not as a GEMM's B operand");
  }
}

/* ------------------------------------------------------------------------ */

int pass_check(Module *m, const CompileOptions *o, const char *after) {
  Checker c = {.pass = after, .o = o};
  c.planned = !strcmp(after, "buffers") || !strcmp(after, "layout");
  c.fused = c.planned || !strcmp(after, "fuse");
  for (int i = 0; i < m->nfuncs; i++) {
    c.f = m->funcs[i];
    if (!c.f->body) continue;
    c.visible.n = 0;
    if (c.visible.cap) memset(c.visible.v, 0, c.visible.cap * sizeof *c.visible.v);
    check_block(&c, c.f->body, NULL);
    if (c.fused) ir_walk(c.f, check_fusion, &c);
    /* Entries with symbolic sizes lay out their own buffers (dyndims.c). */
    if (c.planned && ir_func_is_entry(m, c.f, o) && !c.f->sym) check_planned(&c);
    if (c.planned) ir_walk(c.f, check_packed, &c);
  }
  free(c.visible.v);
  return c.errors;
}
