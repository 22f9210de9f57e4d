/* dimexpr.c: sizes as expressions over dimension symbols (ir.h "Symbolic
 * dimension sizes"), for entries compiled without specialization.
 *
 * Expressions are interned per function (SymInfo.exprs): a new node is
 * looked up structurally first, so equal sizes are equal pointers and a
 * constraint between two equal expressions holds by construction. Sums and
 * products put the operand created first on the left, so b*16 and 16*b are
 * one node. A function holds a few dozen nodes: a linear search is enough. */
#include <string.h>

#include "ir.h"

static const DimExpr *intern(Module *m, SymInfo *s, DimExpr e) {
  for (int i = 0; i < s->nexprs; i++) {
    const DimExpr *x = s->exprs[i];
    if (x->kind == e.kind && x->c == e.c && x->a == e.a && x->b == e.b) return x;
  }
  if (s->nexprs == s->capexprs) {
    s->capexprs = s->capexprs ? 2 * s->capexprs : 16;
    DimExpr **v = ARENA_ARRAY(&m->arena, DimExpr *, s->capexprs);
    if (s->nexprs) memcpy(v, s->exprs, sizeof *v * (size_t)s->nexprs);
    s->exprs = v;
  }
  DimExpr *x = ARENA_NEW(&m->arena, DimExpr);
  *x = e;
  x->id = s->nexprs;
  s->exprs[s->nexprs++] = x;
  return x;
}

const DimExpr *dx_const(Module *m, SymInfo *s, int64_t c) {
  return intern(m, s, (DimExpr){.kind = DX_CONST, .c = c});
}

const DimExpr *dx_sym(Module *m, SymInfo *s, int k) {
  return intern(m, s, (DimExpr){.kind = DX_SYM, .c = k});
}

static const DimExpr *binary(Module *m, SymInfo *s, DimKind k, const DimExpr *a,
                             const DimExpr *b) {
  if (k != DX_DIV && a->id > b->id) {
    const DimExpr *t = a;
    a = b;
    b = t;
  }
  return intern(m, s, (DimExpr){.kind = k, .a = a, .b = b});
}

const DimExpr *dx_add(Module *m, SymInfo *s, const DimExpr *a, const DimExpr *b) {
  if (a->kind == DX_CONST && b->kind == DX_CONST) return dx_const(m, s, a->c + b->c);
  if (a->kind == DX_CONST && a->c == 0) return b;
  if (b->kind == DX_CONST && b->c == 0) return a;
  if (a->kind == DX_CONST) return dx_add(m, s, b, a);
  /* (x + c1) + c2 = x + (c1 + c2): window and pad sizes stay short. */
  if (b->kind == DX_CONST && a->kind == DX_ADD && (a->a->kind == DX_CONST || a->b->kind == DX_CONST)) {
    const DimExpr *c = a->a->kind == DX_CONST ? a->a : a->b, *x = c == a->a ? a->b : a->a;
    return dx_add(m, s, x, dx_const(m, s, c->c + b->c));
  }
  return binary(m, s, DX_ADD, a, b);
}

const DimExpr *dx_sub(Module *m, SymInfo *s, const DimExpr *a, const DimExpr *b) {
  if (a->kind == DX_CONST && b->kind == DX_CONST) return dx_const(m, s, a->c - b->c);
  if (b->kind == DX_CONST && b->c == 0) return a;
  if (a == b) return dx_const(m, s, 0);
  return intern(m, s, (DimExpr){.kind = DX_SUB, .a = a, .b = b});
}

const DimExpr *dx_mul(Module *m, SymInfo *s, const DimExpr *a, const DimExpr *b) {
  if (a->kind == DX_CONST && b->kind == DX_CONST) return dx_const(m, s, a->c * b->c);
  if (a->kind == DX_CONST && (a->c == 0 || a->c == 1)) return a->c ? b : a;
  if (b->kind == DX_CONST && (b->c == 0 || b->c == 1)) return b->c ? a : b;
  return binary(m, s, DX_MUL, a, b);
}

static int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

const DimExpr *dx_div(Module *m, SymInfo *s, const DimExpr *a, const DimExpr *b) {
  if (a->kind == DX_CONST && b->kind == DX_CONST && b->c > 0)
    return dx_const(m, s, floor_div(a->c, b->c));
  if (b->kind == DX_CONST && b->c == 1) return a;
  return binary(m, s, DX_DIV, a, b);
}

const DimExpr *dx_max(Module *m, SymInfo *s, const DimExpr *a, const DimExpr *b) {
  if (a->kind == DX_CONST && b->kind == DX_CONST) return dx_const(m, s, a->c > b->c ? a->c : b->c);
  if (a == b) return a;
  return binary(m, s, DX_MAX, a, b);
}

bool dx_require(Module *m, SymInfo *s, const DimExpr *a, const DimExpr *b, bool ge) {
  if (a == b) return true;
  if (a->kind == DX_CONST && b->kind == DX_CONST) return ge ? a->c >= b->c : a->c == b->c;
  for (int i = 0; i < s->ncons; i++)
    if (s->cons[i].a == a && s->cons[i].b == b && s->cons[i].ge == ge) return true;
  if (s->ncons == s->capcons) {
    s->capcons = s->capcons ? 2 * s->capcons : 8;
    DimConstraint *v = ARENA_ARRAY(&m->arena, DimConstraint, s->capcons);
    if (s->ncons) memcpy(v, s->cons, sizeof *v * (size_t)s->ncons);
    s->cons = v;
  }
  s->cons[s->ncons++] = (DimConstraint){a, b, ge};
  return true;
}

int64_t dx_eval(const DimExpr *e, const int64_t *syms) {
  int64_t r;
  switch (e->kind) {
  case DX_CONST: return e->c;
  case DX_SYM: return syms[e->c];
  case DX_ADD:
    return __builtin_add_overflow(dx_eval(e->a, syms), dx_eval(e->b, syms), &r) ? INT64_MAX : r;
  case DX_SUB:
    return __builtin_sub_overflow(dx_eval(e->a, syms), dx_eval(e->b, syms), &r) ? INT64_MAX : r;
  case DX_MUL:
    return __builtin_mul_overflow(dx_eval(e->a, syms), dx_eval(e->b, syms), &r) ? INT64_MAX : r;
  case DX_DIV: {
    int64_t d = dx_eval(e->b, syms);
    return d > 0 ? floor_div(dx_eval(e->a, syms), d) : 0;
  }
  case DX_MAX: {
    int64_t a = dx_eval(e->a, syms), b = dx_eval(e->b, syms);
    return a > b ? a : b;
  }
  }
  return 0;
}

char *dx_str(Arena *a, const SymInfo *s, const DimExpr *e) {
  static const char *const ops[] = {[DX_ADD] = " + ", [DX_SUB] = " - ", [DX_MUL] = " * ",
                                    [DX_DIV] = " / "};
  switch (e->kind) {
  case DX_CONST: return arena_printf(a, "%lld", (long long)e->c);
  case DX_SYM: return arena_printf(a, "%s", s->syms[e->c].name);
  case DX_MAX: return arena_printf(a, "max(%s, %s)", dx_str(a, s, e->a), dx_str(a, s, e->b));
  default:
    return arena_printf(a, "(%s%s%s)", dx_str(a, s, e->a), ops[e->kind], dx_str(a, s, e->b));
  }
}
