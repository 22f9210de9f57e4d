/* dimexpr.c: sizes as expressions over dimension symbols (ir.h "Symbolic
 * dimension sizes"), for entries compiled without specialization.
 *
 * Expressions are interned per function (SymInfo.exprs): a new node is
 * looked up structurally first, so equal sizes are equal pointers and a
 * constraint between two equal expressions holds by construction. Sums and
 * products put the operand created first on the left, so b*16 and 16*b are
 * one node. A function holds a few dozen nodes: a linear search is enough. */
#include <stdlib.h>
#include <string.h>

#include "ir.h"

static const DimExpr *intern(Module *m, SymInfo *s, DimExpr e) {
  for (int i = 0; i < s->nexprs; i++) {
    const DimExpr *x = s->exprs[i];
    if (x->kind == e.kind && x->c == e.c && x->a == e.a && x->b == e.b && x->v == e.v) return x;
  }
  e.runtime = e.kind == DX_VALUE || (e.a && e.a->runtime) || (e.b && e.b->runtime);
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

const DimExpr *dx_value(Module *m, SymInfo *s, const Value *v, int64_t k) {
  return intern(m, s, (DimExpr){.kind = DX_VALUE, .c = k, .v = v});
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

/* sum(coef[i] * term[i]) + c, over terms that are neither constants, sums,
 * differences nor multiples by a constant. */
enum { MAX_TERMS = 16 };
typedef struct Linear {
  int n;
  const DimExpr *term[MAX_TERMS];
  int64_t coef[MAX_TERMS];
  int64_t c;
} Linear;

/* Adds k * e to l; false when a coefficient overflows or there are too
 * many terms. */
static bool linear_add(Linear *l, const DimExpr *e, int64_t k) {
  int64_t t;
  switch (e->kind) {
  case DX_CONST: return !__builtin_mul_overflow(k, e->c, &t) && !__builtin_add_overflow(l->c, t, &l->c);
  case DX_ADD: return linear_add(l, e->a, k) && linear_add(l, e->b, k);
  case DX_SUB: return linear_add(l, e->a, k) && !__builtin_sub_overflow(0, k, &t) && linear_add(l, e->b, t);
  case DX_MUL:
    if (e->a->kind == DX_CONST)
      return !__builtin_mul_overflow(k, e->a->c, &t) && linear_add(l, e->b, t);
    if (e->b->kind == DX_CONST)
      return !__builtin_mul_overflow(k, e->b->c, &t) && linear_add(l, e->a, t);
    break;
  default: break;
  }
  for (int i = 0; i < l->n; i++)
    if (l->term[i] == e) return !__builtin_add_overflow(l->coef[i], k, &l->coef[i]);
  if (l->n == MAX_TERMS) return false;
  l->term[l->n] = e;
  l->coef[l->n++] = k;
  return true;
}

/* a + sign * b as the sum of its terms in id order, then the constant: the
 * same combination is the same node, and terms that cancel are gone. NULL
 * when linear_add gives up. */
static const DimExpr *linear(Module *m, SymInfo *s, const DimExpr *a, const DimExpr *b, int sign) {
  Linear l = {0};
  if (!linear_add(&l, a, 1) || !linear_add(&l, b, sign)) return NULL;
  for (int i = 1; i < l.n; i++) /* insertion sort by id */
    for (int j = i; j > 0 && l.term[j - 1]->id > l.term[j]->id; j--) {
      const DimExpr *t = l.term[j];
      int64_t k = l.coef[j];
      l.term[j] = l.term[j - 1], l.coef[j] = l.coef[j - 1];
      l.term[j - 1] = t, l.coef[j - 1] = k;
    }
  const DimExpr *r = NULL;
  for (int i = 0; i < l.n; i++) {
    if (!l.coef[i]) continue;
    const DimExpr *t = dx_mul(m, s, l.term[i], dx_const(m, s, l.coef[i]));
    r = r ? binary(m, s, DX_ADD, r, t) : t;
  }
  if (!r) return dx_const(m, s, l.c);
  return l.c ? binary(m, s, DX_ADD, r, dx_const(m, s, l.c)) : r;
}

const DimExpr *dx_add(Module *m, SymInfo *s, const DimExpr *a, const DimExpr *b) {
  if (a->kind == DX_CONST && b->kind == DX_CONST) return dx_const(m, s, a->c + b->c);
  const DimExpr *l = a->runtime || b->runtime ? linear(m, s, a, b, 1) : NULL;
  if (l) return l;
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
  const DimExpr *l = a->runtime || b->runtime ? linear(m, s, a, b, -1) : NULL;
  if (l) return l;
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
  if (a->runtime || b->runtime) abort(); /* the entry could not check it */
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
  case DX_VALUE: abort(); /* not known from the symbols: callers never ask */
  }
  return 0;
}

void dx_sym_bounds(const SymInfo *s, int64_t *ub) {
  for (int k = 0; k < s->nsyms; k++) ub[k] = INT64_MAX;
  /* Each pass carries bounds one step further along the equalities. */
  for (int pass = 0; pass <= s->nsyms; pass++)
    for (int i = 0; i < s->ncons; i++) {
      const DimConstraint *c = &s->cons[i];
      if (c->b->kind != DX_SYM) continue;
      int64_t *b = &ub[c->b->c];
      if (c->a->kind == DX_CONST && c->a->c < *b) *b = c->a->c;
      if (c->ge || c->a->kind != DX_SYM) continue;
      int64_t *a = &ub[c->a->c], m = *a < *b ? *a : *b;
      *a = *b = m;
    }
}

/* [*lo, *hi] holds every value of e for symbols in [0, ub]; false when it
 * is unbounded or overflows. */
static bool range(const DimExpr *e, const int64_t *ub, int64_t *lo, int64_t *hi) {
  int64_t al, ah, bl, bh, v[4];
  switch (e->kind) {
  case DX_CONST: *lo = *hi = e->c; return true;
  case DX_SYM: *lo = 0; *hi = ub[e->c]; return ub[e->c] != INT64_MAX;
  case DX_VALUE: return false;
  default: break;
  }
  if (!range(e->a, ub, &al, &ah) || !range(e->b, ub, &bl, &bh)) return false;
  switch (e->kind) {
  case DX_ADD:
    return !__builtin_add_overflow(al, bl, lo) && !__builtin_add_overflow(ah, bh, hi);
  case DX_SUB:
    return !__builtin_sub_overflow(al, bh, lo) && !__builtin_sub_overflow(ah, bl, hi);
  case DX_MUL:
    if (__builtin_mul_overflow(al, bl, &v[0]) || __builtin_mul_overflow(al, bh, &v[1]) ||
        __builtin_mul_overflow(ah, bl, &v[2]) || __builtin_mul_overflow(ah, bh, &v[3]))
      return false;
    break;
  case DX_MAX: /* monotonic in each operand */
    *lo = al > bl ? al : bl;
    *hi = ah > bh ? ah : bh;
    return true;
  default: /* DX_DIV: floor(a / b), b > 0, is monotonic in each operand */
    if (bl <= 0) return false;
    v[0] = floor_div(al, bl), v[1] = floor_div(al, bh), v[2] = floor_div(ah, bl), v[3] = floor_div(ah, bh);
    break;
  }
  *lo = *hi = v[0];
  for (int i = 1; i < 4; i++) {
    *lo = v[i] < *lo ? v[i] : *lo;
    *hi = v[i] > *hi ? v[i] : *hi;
  }
  return true;
}

int64_t dx_upper_bound(const DimExpr *e, const int64_t *ub) {
  int64_t lo, hi;
  return range(e, ub, &lo, &hi) ? hi : INT64_MAX;
}

char *dx_str(Arena *a, const SymInfo *s, const DimExpr *e) {
  static const char *const ops[] = {[DX_ADD] = " + ", [DX_SUB] = " - ", [DX_MUL] = " * ",
                                    [DX_DIV] = " / "};
  switch (e->kind) {
  case DX_CONST: return arena_printf(a, "%lld", (long long)e->c);
  case DX_SYM: return arena_printf(a, "%s", s->syms[e->c].name);
  case DX_MAX: return arena_printf(a, "max(%s, %s)", dx_str(a, s, e->a), dx_str(a, s, e->b));
  case DX_VALUE: return arena_printf(a, "%%%d[%lld]", e->v->id, (long long)e->c);
  default:
    return arena_printf(a, "(%s%s%s)", dx_str(a, s, e->a), ops[e->kind], dx_str(a, s, e->b));
  }
}
