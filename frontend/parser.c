/* parser.c: recursive descent over MLIR text into the IR of ir/ir.h.
 *
 * This file holds the skeleton of the language: the module, functions,
 * regions and blocks, the generic op form, SSA names with their scopes, and
 * types. The custom forms of individual ops are in pretty.c, attributes in
 * attr_parse.c, dense literals in dense.c.
 *
 * SSA scoping follows MLIR: a function body is isolated (a fresh name
 * table); a nested region sees the values of the regions around it, and the
 * names it defines disappear when it closes. A value must be defined before
 * its first use (our regions have a single block in practice).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "frontend_internal.h"


/* ------------------------------------------------------------------------ */
/* Tokens                                                                    */

bool parse_error(Parser *p, Loc loc, const char *fmt, ...) {
  if (!p->failed && !p->lx.failed) {
    va_list ap;
    va_start(ap, fmt);
    diag_verror(loc, "error", fmt, ap);
    va_end(ap);
  }
  p->failed = true;
  return false;
}

void parse_next(Parser *p) {
  p->tok = lex_next(&p->lx);
  if (p->tok.kind == TK_ERROR) p->failed = true;
}

enum { MAX_NESTING = 256 };
/* The largest program: 2^19 ops (after inlining, inline.c allows the call
 * graph to grow to 2^22). It bounds the memory of a compile to about 1.5
 * GB (the IR and LLVM's module grow by about 2.5 KB an op) and its time to
 * minutes; exported models have thousands to tens of thousands of ops. */
enum { PARSE_MAX_OPS = 1 << 19 };

bool parse_enter(Parser *p) {
  if (++p->depth <= MAX_NESTING) return true;
  return parse_error(p, p->tok.loc, "nesting deeper than %d levels", MAX_NESTING);
}

void parse_leave(Parser *p) { p->depth--; }

bool parse_is(Parser *p, TokKind k) { return p->tok.kind == k; }

bool parse_is_word(Parser *p, const char *word) {
  size_t n = strlen(word);
  return p->tok.kind == TK_IDENT && p->tok.n == n && !memcmp(p->tok.s, word, n);
}

bool parse_accept(Parser *p, TokKind k) {
  if (p->tok.kind != k) return false;
  parse_next(p);
  return true;
}

bool parse_accept_word(Parser *p, const char *word) {
  if (!parse_is_word(p, word)) return false;
  parse_next(p);
  return true;
}

/* "'text'" of the current token for messages, or "end of input". */
static const char *found(Parser *p) {
  static char buf[80];
  if (p->tok.kind == TK_EOF) return "end of input";
  int n = p->tok.n > 40 ? 40 : (int)p->tok.n;
  snprintf(buf, sizeof buf, "'%.*s%s'", n, p->tok.s, p->tok.n > 40 ? "..." : "");
  return buf;
}

bool parse_expect(Parser *p, TokKind k, const char *what) {
  if (p->failed) return false;
  if (p->tok.kind == k) {
    parse_next(p);
    return true;
  }
  return parse_error(p, p->tok.loc, "expected %s, found %s",
                     what ? what : lex_kind_name(k), found(p));
}

bool parse_expect_word(Parser *p, const char *word) {
  if (p->failed) return false;
  if (parse_accept_word(p, word)) return true;
  return parse_error(p, p->tok.loc, "expected '%s', found %s", word, found(p));
}

char *parse_tok_str(Parser *p) {
  return arena_strndup(&p->m->arena, p->tok.s, p->tok.n);
}

static int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* MLIR escapes: \\ \" \n \t and \XX (two hex digits). */
char *parse_string_value(Parser *p, const Token *t, size_t *len) {
  const char *s = t->s, *e = t->s + t->n;
  if (*s == '@') s++;
  s++, e--; /* quotes */
  char *out = arena_alloc(&p->m->arena, (size_t)(e - s) + 1);
  size_t n = 0;
  while (s < e) {
    if (*s != '\\') {
      out[n++] = *s++;
      continue;
    }
    s++;
    if (s >= e) break;
    int h1 = hexval(s[0]), h2 = s + 1 < e ? hexval(s[1]) : -1;
    if (h1 >= 0 && h2 >= 0) {
      out[n++] = (char)(h1 * 16 + h2);
      s += 2;
      continue;
    }
    switch (*s) {
    case 'n': out[n++] = '\n'; break;
    case 't': out[n++] = '\t'; break;
    default: out[n++] = *s; break;
    }
    s++;
  }
  out[n] = 0;
  if (len) *len = n;
  return out;
}

/* Integer token text (decimal or 0x hex) to a magnitude; false on overflow. */
static bool tok_u64(const Token *t, uint64_t *out) {
  uint64_t v = 0;
  const char *s = t->s, *e = t->s + t->n;
  if (t->n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    for (s += 2; s < e; s++) {
      if (v >> 60) return false;
      v = v * 16 + (uint64_t)hexval(*s);
    }
  } else {
    for (; s < e; s++) {
      uint64_t d = (uint64_t)(*s - '0');
      if (v > (UINT64_MAX - d) / 10) return false;
      v = v * 10 + d;
    }
  }
  *out = v;
  return true;
}

bool parse_int(Parser *p, int64_t *out) {
  Loc loc = p->tok.loc;
  bool neg = parse_accept(p, TK_MINUS);
  if (!parse_is(p, TK_INT))
    return parse_error(p, p->tok.loc, "expected an integer, found %s", found(p));
  uint64_t u;
  if (!tok_u64(&p->tok, &u) || u > (neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX))
    return parse_error(p, loc, "integer out of range");
  *out = neg ? (int64_t)(0 - u) : (int64_t)u;
  parse_next(p);
  return true;
}

bool parse_skip_loc(Parser *p) {
  if (!parse_is_word(p, "loc") || lex_peek_char(&p->lx) != '(') return true;
  parse_next(p);
  return parse_opaque_attr(p, p->tok.s) != NULL;
}

/* ------------------------------------------------------------------------ */
/* Growable arrays                                                           */

void *parse_grow(Parser *p, void *data, int n, int *cap, size_t elem) {
  return arena_grow(&p->m->arena, data, n, cap, elem);
}

void attrlist_append(Module *m, AttrList *l, const char *name, Attr *a) {
  l->v = arena_grow(&m->arena, l->v, l->n, &l->cap, sizeof *l->v);
  l->v[l->n].name = name;
  l->v[l->n].value = a;
  l->n++;
}

void attrlist_add(Parser *p, AttrList *l, const char *name, Attr *a) {
  attrlist_append(p->m, l, name, a);
}

void valuelist_add(Parser *p, ValueList *l, Value *v, Loc loc) {
  int cap = l->cap;
  l->v = parse_grow(p, l->v, l->n, &cap, sizeof *l->v);
  int cap2 = l->cap;
  l->locs = parse_grow(p, l->locs, l->n, &cap2, sizeof *l->locs);
  l->cap = cap;
  l->v[l->n] = v;
  l->locs[l->n] = loc;
  l->n++;
}

/* ------------------------------------------------------------------------ */
/* SSA names                                                                 */

static uint32_t hash_name(const char *s, size_t n) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; i++) h = (h ^ (uint8_t)s[i]) * 16777619u;
  return h;
}

static Sym *sym_lookup(Parser *p, const char *s, size_t n) {
  uint32_t h = hash_name(s, n);
  for (Sym *e = p->buckets[h & (p->nbuckets - 1)]; e; e = e->next)
    if (e->hash == h && e->n == n && !memcmp(e->name, s, n)) return e;
  return NULL;
}

static void scope_push(Parser *p) {
  SymScope *s = ARENA_NEW(&p->m->arena, SymScope);
  s->up = p->scope;
  p->scope = s;
}

static void scope_pop(Parser *p) {
  for (Sym *d = p->scope->defs; d; d = d->scope_next) {
    Sym **link = &p->buckets[d->hash & (p->nbuckets - 1)];
    while (*link && *link != d) link = &(*link)->next;
    if (*link) *link = d->next;
    p->nsyms--;
  }
  p->scope = p->scope->up;
}

/* Doubles the table when it averages more than two names a bucket, so that
 * lookups stay O(1) in functions of a million values. */
static void sym_grow(Parser *p) {
  if (p->nsyms <= 2 * p->nbuckets) return;
  size_t n = 2 * p->nbuckets;
  Sym **b = calloc(n, sizeof *b);
  if (!b) abort();
  for (size_t i = 0; i < p->nbuckets; i++)
    for (Sym *e = p->buckets[i], *next; e; e = next) {
      next = e->next;
      e->next = b[e->hash & (n - 1)];
      b[e->hash & (n - 1)] = e;
    }
  free(p->buckets);
  p->buckets = b;
  p->nbuckets = n;
}

/* `name` is a TK_VALUE token without `#`. */
static bool sym_define(Parser *p, const Token *name, Value **vals, int nvals) {
  const char *s = name->s + 1;
  size_t n = name->n - 1;
  if (sym_lookup(p, s, n))
    return parse_error(p, name->loc, "redefinition of value '%.*s'", (int)name->n, name->s);
  Sym *e = ARENA_NEW(&p->m->arena, Sym);
  e->name = s;
  e->n = n;
  e->hash = hash_name(s, n);
  e->vals = vals;
  e->nvals = nvals;
  Sym **b = &p->buckets[e->hash & (p->nbuckets - 1)];
  e->next = *b;
  *b = e;
  e->scope_next = p->scope->defs;
  p->scope->defs = e;
  p->nsyms++;
  sym_grow(p);
  char *vn = arena_strndup(&p->m->arena, s, n);
  for (int i = 0; i < nvals; i++) vals[i]->name = vn;
  return true;
}

/* value-use ::= `%`name (`#` result-number)? */
Value *parse_value_use(Parser *p) {
  if (!parse_is(p, TK_VALUE)) {
    parse_error(p, p->tok.loc, "expected a value, found %s", found(p));
    return NULL;
  }
  Token t = p->tok;
  const char *hash = memchr(t.s, '#', t.n);
  size_t n = hash ? (size_t)(hash - t.s) : t.n;
  int64_t idx = 0;
  if (hash) {
    for (const char *q = hash + 1; q < t.s + t.n; q++) {
      idx = idx * 10 + (*q - '0');
      if (idx > 1 << 20) break;
    }
  }
  Sym *e = sym_lookup(p, t.s + 1, n - 1);
  if (!e) {
    parse_error(p, t.loc, "use of undefined value '%.*s'", (int)n, t.s);
    return NULL;
  }
  if (idx >= e->nvals) {
    parse_error(p, t.loc, "'%.*s' has %d result%s, no #%lld", (int)n, t.s, e->nvals,
                e->nvals == 1 ? "" : "s", (long long)idx);
    return NULL;
  }
  parse_next(p);
  return e->vals[idx];
}

/* value-list ::= (value (`,` value)*)? */
bool parse_value_list(Parser *p, ValueList *l) {
  if (!parse_is(p, TK_VALUE)) return !p->failed;
  for (;;) {
    Loc loc = p->tok.loc;
    Value *v = parse_value_use(p);
    if (!v) return false;
    valuelist_add(p, l, v, loc);
    if (!parse_is(p, TK_COMMA)) return true;
    /* a comma followed by something else belongs to the caller */
    Token comma = p->tok;
    Lexer save = p->lx;
    parse_next(p);
    if (!parse_is(p, TK_VALUE)) {
      p->lx = save;
      p->tok = comma;
      return !p->failed;
    }
  }
}

/* ------------------------------------------------------------------------ */
/* Types                                                                     */

Type *parse_scalar_type(Parser *p, ElemType e) { return type_tensor(p->m->types, e, 0, NULL); }

ElemType parse_elem_type_name(Parser *p) {
  if (!parse_is(p, TK_IDENT)) return ET_COUNT;
  if (parse_is_word(p, "complex")) {
    Loc loc = p->tok.loc;
    parse_next(p);
    if (!parse_expect(p, TK_LANGLE, "'<' after 'complex'")) return ET_COUNT;
    ElemType part = parse_elem_type_name(p);
    if (part != ET_F32 && part != ET_F64) {
      parse_error(p, loc, "only complex<f32> and complex<f64> are supported");
      return ET_COUNT;
    }
    if (!parse_expect(p, TK_RANGLE, "'>' after the complex element type")) return ET_COUNT;
    return part == ET_F32 ? ET_C64 : ET_C128;
  }
  ElemType e = elem_lookup(p->tok.s, p->tok.n);
  if (e == ET_COUNT || e == ET_QUANT || e == ET_C64 || e == ET_C128) return ET_COUNT;
  parse_next(p);
  return e;
}

/* Quantized types are interned here by value so that two spellings of the
 * same `!quant.uniform<...>` give one Type (types compare by pointer). */
typedef struct QuantEntry {
  QuantInfo *q;
  struct QuantEntry *next;
} QuantEntry;

static bool parse_scale(Parser *p, double *scale, int64_t *zp) {
  if (!parse_is(p, TK_FLOAT) && !parse_is(p, TK_INT))
    return parse_error(p, p->tok.loc, "expected a quantization scale, found %s", found(p));
  char buf[64];
  size_t n = p->tok.n < sizeof buf - 1 ? p->tok.n : sizeof buf - 1;
  memcpy(buf, p->tok.s, n);
  buf[n] = 0;
  *scale = strtod(buf, NULL);
  parse_next(p);
  *zp = 0;
  if (parse_accept(p, TK_COLON)) return parse_int(p, zp);
  return true;
}

/* quant ::= `!quant.uniform` `<` storage (`<` min `:` max `>`)? `:` expressed
 *           (`:` axis)? `,` (scale | `{` scale (`,` scale)* `}`) `>`
 * scale ::= float (`:` zero-point)? */
static const QuantInfo *parse_quant(Parser *p) {
  Loc loc = p->tok.loc;
  parse_next(p);
  if (!parse_expect(p, TK_LANGLE, "'<' after '!quant.uniform'")) return NULL;
  QuantInfo *q = ARENA_NEW(&p->m->arena, QuantInfo);
  if (!parse_is(p, TK_IDENT))
    return parse_error(p, p->tok.loc, "expected a storage type, found %s", found(p)), NULL;
  char name[16];
  size_t n = p->tok.n < 12 ? p->tok.n : 12;
  if (p->tok.s[0] == 'u' && n > 1 && p->tok.s[1] != 'i')
    snprintf(name, sizeof name, "ui%.*s", (int)n - 1, p->tok.s + 1); /* u8 -> ui8 */
  else
    snprintf(name, sizeof name, "%.*s", (int)n, p->tok.s);
  q->storage = elem_lookup(name, strlen(name));
  if (q->storage == ET_COUNT || !elem_is_int(q->storage))
    return parse_error(p, p->tok.loc, "bad quantized storage type %s", found(p)), NULL;
  parse_next(p);
  int bits = elem_bits(q->storage);
  bool is_unsigned = elem_class(q->storage) == 'u';
  /* Full range of the storage type; ui64's top does not fit int64 and is
   * capped at INT64_MAX. */
  uint64_t span = bits >= 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
  q->storage_min = is_unsigned ? 0 : (int64_t)~(span >> 1);
  q->storage_max = is_unsigned ? (int64_t)(span > INT64_MAX ? INT64_MAX : span)
                               : (int64_t)(span >> 1);
  if (parse_accept(p, TK_LANGLE)) {
    if (!parse_int(p, &q->storage_min) || !parse_expect(p, TK_COLON, NULL) ||
        !parse_int(p, &q->storage_max) || !parse_expect(p, TK_RANGLE, NULL))
      return NULL;
  }
  if (!parse_expect(p, TK_COLON, "':' before the expressed type")) return NULL;
  q->expressed = parse_elem_type_name(p);
  if (q->expressed == ET_COUNT || !elem_is_float(q->expressed))
    return parse_error(p, p->tok.loc, "expected a float expressed type, found %s", found(p)), NULL;
  q->axis = -1;
  if (parse_accept(p, TK_COLON)) {
    int64_t axis;
    if (!parse_int(p, &axis)) return NULL;
    if (axis < 0 || axis > 1 << 20) return parse_error(p, loc, "bad quantization axis"), NULL;
    q->axis = (int)axis;
  }
  if (!parse_expect(p, TK_COMMA, "',' before the quantization scale")) return NULL;
  int cap = 0;
  if (q->axis >= 0) {
    if (!parse_expect(p, TK_LBRACE, "'{' before per-axis scales")) return NULL;
    int cap2 = 0;
    do {
      q->scales = parse_grow(p, q->scales, q->nscales, &cap, sizeof *q->scales);
      q->zero_points = parse_grow(p, q->zero_points, q->nscales, &cap2, sizeof *q->zero_points);
      if (!parse_scale(p, &q->scales[q->nscales], &q->zero_points[q->nscales])) return NULL;
      q->nscales++;
    } while (parse_accept(p, TK_COMMA));
    if (!parse_expect(p, TK_RBRACE, "'}' after per-axis scales")) return NULL;
  } else {
    q->scales = ARENA_NEW(&p->m->arena, double);
    q->zero_points = ARENA_NEW(&p->m->arena, int64_t);
    q->nscales = 1;
    if (!parse_scale(p, q->scales, q->zero_points)) return NULL;
  }
  if (!parse_expect(p, TK_RANGLE, "'>' to close '!quant.uniform'")) return NULL;
  for (QuantEntry *e = p->quants; e; e = e->next)
    if (quant_info_equal(e->q, q)) return e->q;
  QuantEntry *e = ARENA_NEW(&p->m->arena, QuantEntry);
  e->q = q;
  e->next = p->quants;
  p->quants = e;
  return q;
}

/* Reads `2x?x3x` directly from the characters after `tensor<` (the lexer
 * would take `0x2` for a hex number). */
static bool parse_shape(Parser *p, int64_t *dims, int *rank) {
  Lexer *lx = &p->lx;
  *rank = 0;
  for (;;) {
    char c = lex_peek_char(lx);
    Loc loc = lex_here(lx);
    const char *q = lx->p;
    if (c == '?') {
      q++;
    } else if (isdigit((unsigned char)c)) {
      uint64_t v = 0;
      while (q < lx->end && isdigit((unsigned char)*q)) {
        v = v * 10 + (uint64_t)(*q - '0');
        if (v > (uint64_t)1 << 48) return parse_error(p, loc, "tensor dimension too large");
        q++;
      }
      if (*rank < MAX_RANK) dims[*rank] = (int64_t)v;
    } else if (c == '*') {
      return parse_error(p, loc, "unranked tensors are not supported");
    } else {
      return true;
    }
    if (q >= lx->end || *q != 'x')
      return parse_error(p, (Loc){lx->file, loc.line, loc.col + (int)(q - lx->p)},
                         "expected 'x' after a tensor dimension");
    if (c == '?' && *rank < MAX_RANK) dims[*rank] = DIM_DYNAMIC;
    if (++*rank > MAX_RANK) return parse_error(p, loc, "tensor rank above %d", MAX_RANK);
    if (!type_dims_fit(*rank, dims))
      return parse_error(p, loc, "tensor has more than 2^58 elements");
    lx->p = q + 1;
  }
}

static bool hash_is(const Parser *p, const char *name) {
  size_t n = strlen(name);
  return p->tok.kind == TK_HASH && p->tok.n == n && !memcmp(p->tok.s, name, n);
}

/* bound-list ::= (bound (`,` bound)*)?   bound ::= integer | `?`
 * ending before `close`; checked as upstream's verifyBounds does: one bound
 * per dimension, none on a static size, none negative. */
static bool parse_bound_list(Parser *p, TokKind close, int rank, const int64_t *dims,
                             int64_t *bounds) {
  Loc loc = p->tok.loc;
  int n = 0;
  while (!parse_is(p, close)) {
    if (n && !parse_expect(p, TK_COMMA, "',' between bounds")) return false;
    Loc at = p->tok.loc;
    int64_t b = DIM_DYNAMIC;
    if (!parse_accept(p, TK_QUESTION) && !parse_int(p, &b)) return false;
    if (n < rank && b != DIM_DYNAMIC && dims[n] != DIM_DYNAMIC)
      return parse_error(p, at, "static dimension %d cannot have a bound", n);
    if (b != DIM_DYNAMIC && b < 0) return parse_error(p, at, "bound %lld is negative", (long long)b);
    if (n < rank) bounds[n] = b;
    n++;
  }
  if (n != rank)
    return parse_error(p, loc, "bounds length is %d, expected to be equal to rank(%d) of the tensor",
                       n, rank);
  return parse_expect(p, close, NULL);
}

/* encoding ::= `#stablehlo.bounds` `<` bound-list `>`
 *            | `#stablehlo.type_extensions` `<` `bounds` `=` `[` bound-list `]` `>`
 *            | attr (sparse layouts ...: parsed and dropped)
 * Sets *bounded when the encoding gives bounds. */
static bool parse_encoding(Parser *p, int rank, const int64_t *dims, int64_t *bounds,
                           bool *bounded) {
  bool ext = hash_is(p, "#stablehlo.type_extensions");
  if (!ext && !hash_is(p, "#stablehlo.bounds")) return parse_attr(p) != NULL;
  parse_next(p);
  if (!parse_expect(p, TK_LANGLE, "'<'")) return false;
  if (ext && (!parse_expect_word(p, "bounds") || !parse_expect(p, TK_EQUAL, "'='") ||
              !parse_expect(p, TK_LBRACKET, "'['")))
    return false;
  if (!parse_bound_list(p, ext ? TK_RBRACKET : TK_RANGLE, rank, dims, bounds)) return false;
  *bounded = true;
  return !ext || parse_expect(p, TK_RANGLE, "'>'");
}

/* tensor-type ::= `tensor` `<` (dim `x`)* element-type (`,` encoding)? `>` */
static Type *parse_tensor_type(Parser *p) {
  Loc loc = p->tok.loc;
  if (lex_peek_char(&p->lx) != '<') {
    parse_next(p);
    parse_error(p, p->tok.loc, "expected '<' after 'tensor', found %s", found(p));
    return NULL;
  }
  p->lx.p++; /* the '<' */
  int64_t dims[MAX_RANK];
  int rank;
  if (!parse_shape(p, dims, &rank)) return NULL;
  parse_next(p);
  const QuantInfo *q = NULL;
  ElemType e;
  if (p->tok.kind == TK_BANG && p->tok.n == 14 && !memcmp(p->tok.s, "!quant.uniform", 14)) {
    q = parse_quant(p);
    if (!q) return NULL;
    e = ET_QUANT;
  } else {
    Token et = p->tok;
    e = parse_elem_type_name(p);
    if (p->failed) return NULL;
    if (e == ET_COUNT) {
      if (et.kind == TK_EOF || et.kind == TK_RANGLE)
        parse_error(p, et.loc, "expected an element type in tensor type");
      else
        parse_error(p, et.loc, "unknown element type '%.*s'", (int)et.n, et.s);
      return NULL;
    }
  }
  int64_t bounds[MAX_RANK];
  bool bounded = false;
  if (parse_accept(p, TK_COMMA) && !parse_encoding(p, rank, dims, bounds, &bounded)) return NULL;
  if (!parse_is(p, TK_RANGLE)) {
    parse_error(p, p->tok.loc, "expected '>' to close tensor type started at %d:%d, found %s",
                loc.line, loc.col, found(p));
    return NULL;
  }
  parse_next(p);
  Type *t = q ? type_tensor_quant(p->m->types, q, rank, dims)
              : type_tensor(p->m->types, e, rank, dims);
  return bounded ? type_with_bounds(p->m->types, t, bounds) : t;
}

/* tuple-type ::= `tuple` `<` (type (`,` type)*)? `>` */
static Type *parse_tuple_type(Parser *p) {
  parse_next(p);
  if (!parse_expect(p, TK_LANGLE, "'<' after 'tuple'")) return NULL;
  Type **elems = NULL;
  int n = 0, cap = 0;
  if (!parse_is(p, TK_RANGLE)) {
    do {
      elems = parse_grow(p, elems, n, &cap, sizeof *elems);
      if (!(elems[n++] = parse_type(p))) return NULL;
    } while (parse_accept(p, TK_COMMA));
  }
  if (!parse_expect(p, TK_RANGLE, "'>' to close tuple type")) return NULL;
  return type_tuple(p->m->types, n, elems);
}

static Alias *alias_find(Parser *p, const char *s, size_t n) {
  for (Alias *a = p->aliases; a; a = a->next)
    if (a->n == n && !memcmp(a->name, s, n)) return a;
  return NULL;
}

static Type *parse_type_inner(Parser *p);

/* type ::= tensor-type | tuple-type | `!stablehlo.token` | `!` alias */
Type *parse_type(Parser *p) {
  if (p->failed || !parse_enter(p)) return NULL;
  Type *t = parse_type_inner(p);
  parse_leave(p);
  return t;
}

static Type *parse_type_inner(Parser *p) {
  Token t = p->tok;
  if (parse_is_word(p, "tensor")) return parse_tensor_type(p);
  if (parse_is_word(p, "tuple")) return parse_tuple_type(p);
  if (t.kind == TK_BANG) {
    if (t.n == 16 && !memcmp(t.s, "!stablehlo.token", 16)) {
      parse_next(p);
      return type_token(p->m->types);
    }
    Alias *a = alias_find(p, t.s + 1, t.n - 1);
    if (a && a->type) {
      parse_next(p);
      return a->type;
    }
    parse_error(p, t.loc, "unsupported type '%.*s'", (int)t.n, t.s);
    return NULL;
  }
  if (t.kind == TK_IDENT && elem_lookup(t.s, t.n) != ET_COUNT) {
    parse_error(p, t.loc, "expected a tensor type, found scalar type '%.*s'", (int)t.n, t.s);
    return NULL;
  }
  parse_error(p, t.loc, "expected a type, found %s", found(p));
  return NULL;
}

/* type-list-parens ::= `(` (type (`,` type)*)? `)` */
static bool parse_type_list_parens(Parser *p, int *n, Type ***types) {
  if (!parse_expect(p, TK_LPAREN, "'('")) return false;
  int cap = 0;
  *n = 0;
  *types = NULL;
  if (parse_accept(p, TK_RPAREN)) return true;
  do {
    *types = parse_grow(p, *types, *n, &cap, sizeof **types);
    if (!((*types)[(*n)++] = parse_type(p))) return false;
  } while (parse_accept(p, TK_COMMA));
  return parse_expect(p, TK_RPAREN, "')' after the types");
}

/* function-type ::= type-list-parens `->` (type | type-list-parens) */
bool parse_function_type(Parser *p, int *nin, Type ***ins, int *nout, Type ***outs) {
  if (!parse_type_list_parens(p, nin, ins)) return false;
  if (!parse_expect(p, TK_ARROW, "'->' in function type")) return false;
  if (parse_is(p, TK_LPAREN)) return parse_type_list_parens(p, nout, outs);
  *nout = 1;
  *outs = ARENA_ARRAY(&p->m->arena, Type *, 1);
  return ((*outs)[0] = parse_type(p)) != NULL;
}

/* ------------------------------------------------------------------------ */
/* Ops                                                                       */

bool parse_check_operand_types(Parser *p, Loc loc, const OpParts *parts) {
  (void)loc;
  if (!parts->opnd_types) return true;
  for (int i = 0; i < parts->opnds.n; i++) {
    Type *want = parts->opnd_types[i], *have = parts->opnds.v[i]->type;
    if (!want || want == have) continue;
    Arena *a = &p->m->arena;
    return parse_error(p, parts->opnds.locs[i],
                       "operand #%d has type %s but the op's type signature says %s", i,
                       type_str(a, have), type_str(a, want));
  }
  return true;
}

bool parse_apply_function_type(Parser *p, Loc loc, OpParts *parts) {
  int nin, nout;
  Type **ins, **outs;
  if (!parse_function_type(p, &nin, &ins, &nout, &outs)) return false;
  if (nin != parts->opnds.n)
    return parse_error(p, loc, "op has %d operand%s but its type signature lists %d",
                       parts->opnds.n, parts->opnds.n == 1 ? "" : "s", nin);
  parts->opnd_types = ins;
  parts->nresults = nout;
  parts->result_types = outs;
  return parse_check_operand_types(p, loc, parts);
}

Op *parse_finish_op(Parser *p, const OpStart *st, OpParts *parts, Block *b) {
  if (p->failed) return NULL;
  if (st->nresults >= 0 && st->nresults != parts->nresults) {
    parse_error(p, st->loc, "'%s' defines %d result%s but %d name%s bound to it",
                op_name(st->code), parts->nresults, parts->nresults == 1 ? "" : "s",
                st->nresults, st->nresults == 1 ? " is" : "s are");
    return NULL;
  }
  for (int i = 0; i < parts->nresults; i++)
    if (!parts->result_types[i]) return NULL;
  Op *op = ir_op_new(p->m, st->code, st->loc, parts->opnds.n, parts->opnds.v, parts->nresults,
                     parts->result_types, parts->nregions);
  for (int i = 0; i < parts->nregions; i++) {
    op->regions[i] = parts->regions[i];
    op->regions[i]->parent = op;
  }
  op->attrs = parts->attrs.v;
  op->nattrs = parts->attrs.n;
  int k = 0;
  for (int i = 0; i < st->nnames; i++) {
    if (!sym_define(p, &st->names[i], &op->results[k], st->counts[i])) return NULL;
    k += st->counts[i];
  }
  ir_block_append(b, op);
  return op;
}

/* generic-op ::= string `(` value-list `)` (`<` dict `>`)?
 *                (`(` region (`,` region)* `)`)? dict? `:` function-type */
static Op *parse_generic_op(Parser *p, const OpStart *st, Block *b) {
  OpParts parts = {0};
  if (!parse_expect(p, TK_LPAREN, "'(' after the op name")) return NULL;
  if (!parse_value_list(p, &parts.opnds)) return NULL;
  if (!parse_expect(p, TK_RPAREN, "')' after the operands")) return NULL;
  if (parse_is(p, TK_LBRACKET)) {
    parse_error(p, p->tok.loc, "block successors are not supported");
    return NULL;
  }
  if (parse_accept(p, TK_LANGLE)) {
    if (!parse_is(p, TK_LBRACE)) {
      parse_error(p, p->tok.loc, "expected '{' for op properties, found %s", found(p));
      return NULL;
    }
    if (!parse_attr_dict(p, &parts.attrs)) return NULL;
    if (!parse_expect(p, TK_RANGLE, "'>' after op properties")) return NULL;
  }
  if (parse_accept(p, TK_LPAREN)) {
    int cap = 0;
    do {
      parts.regions = parse_grow(p, parts.regions, parts.nregions, &cap, sizeof *parts.regions);
      if (!(parts.regions[parts.nregions++] = parse_region(p, NULL, 0))) return NULL;
    } while (parse_accept(p, TK_COMMA));
    if (!parse_expect(p, TK_RPAREN, "')' after the regions")) return NULL;
  }
  if (parse_is(p, TK_LBRACE) && !parse_attr_dict(p, &parts.attrs)) return NULL;
  if (!parse_expect(p, TK_COLON, "':' and the op's type")) return NULL;
  if (!parse_apply_function_type(p, st->loc, &parts)) return NULL;
  return parse_finish_op(p, st, &parts, b);
}

/* op ::= (result (`,` result)* `=`)? (generic-op | pretty-op) loc?
 * result ::= value-name (`:` count)? */
static Op *parse_op(Parser *p, Block *b) {
  OpStart st = {.nresults = -1};
  int cap = 0;
  if (++p->nops > PARSE_MAX_OPS) {
    parse_error(p, p->tok.loc, "more than %d ops in one module", PARSE_MAX_OPS);
    return NULL;
  }
  if (parse_is(p, TK_VALUE)) {
    st.nresults = 0;
    int cap2 = 0;
    do {
      if (!parse_is(p, TK_VALUE) || memchr(p->tok.s, '#', p->tok.n)) {
        parse_error(p, p->tok.loc, "expected a result name, found %s", found(p));
        return NULL;
      }
      st.names = parse_grow(p, st.names, st.nnames, &cap, sizeof *st.names);
      st.counts = parse_grow(p, st.counts, st.nnames, &cap2, sizeof *st.counts);
      st.names[st.nnames] = p->tok;
      st.counts[st.nnames] = 1;
      parse_next(p);
      if (parse_accept(p, TK_COLON)) {
        int64_t c;
        if (!parse_int(p, &c)) return NULL;
        if (c < 1 || c > 1 << 16) {
          parse_error(p, st.names[st.nnames].loc, "bad result count %lld", (long long)c);
          return NULL;
        }
        st.counts[st.nnames] = (int)c;
      }
      st.nresults += st.counts[st.nnames++];
    } while (parse_accept(p, TK_COMMA));
    if (!parse_expect(p, TK_EQUAL, "'=' after the result names")) return NULL;
  }
  Token name = p->tok;
  st.loc = name.loc;
  Op *op;
  if (name.kind == TK_STRING) {
    size_t n;
    char *s = parse_string_value(p, &name, &n);
    st.code = op_lookup(s, n);
    if (st.code == OP_COUNT) {
      parse_error(p, name.loc, "unknown operation '%s'", s);
      return NULL;
    }
    parse_next(p);
    op = parse_generic_op(p, &st, b);
  } else if (name.kind == TK_IDENT) {
    st.code = op_lookup(name.s, name.n);
    if (st.code == OP_COUNT) {
      parse_error(p, name.loc, "unknown operation '%.*s'", (int)name.n, name.s);
      return NULL;
    }
    parse_next(p);
    op = parse_pretty_op(p, &st, b);
  } else {
    parse_error(p, name.loc, "expected an operation, found %s", found(p));
    return NULL;
  }
  if (!op || !parse_skip_loc(p)) return NULL;
  return op;
}

/* ------------------------------------------------------------------------ */
/* Regions and blocks                                                        */

/* block-label ::= `^name` (`(` value `:` type loc? (`,` ...)* `)`)? `:` */
static Block *parse_block_label(Parser *p) {
  parse_next(p);
  Token *names = NULL;
  Type **types = NULL;
  int n = 0, cap = 0, cap2 = 0;
  if (parse_accept(p, TK_LPAREN) && !parse_is(p, TK_RPAREN)) {
    do {
      names = parse_grow(p, names, n, &cap, sizeof *names);
      types = parse_grow(p, types, n, &cap2, sizeof *types);
      if (!parse_is(p, TK_VALUE) || memchr(p->tok.s, '#', p->tok.n)) {
        parse_error(p, p->tok.loc, "expected a block argument name, found %s", found(p));
        return NULL;
      }
      names[n] = p->tok;
      parse_next(p);
      if (!parse_expect(p, TK_COLON, "':' after the block argument")) return NULL;
      if (!(types[n++] = parse_type(p))) return NULL;
      if (!parse_skip_loc(p)) return NULL;
    } while (parse_accept(p, TK_COMMA));
    if (!parse_expect(p, TK_RPAREN, "')' after the block arguments")) return NULL;
  } else if (n == 0 && parse_is(p, TK_RPAREN)) {
    parse_next(p);
  }
  if (!parse_expect(p, TK_COLON, "':' after the block label")) return NULL;
  Block *b = ir_block_new(p->m, n, types);
  for (int i = 0; i < n; i++)
    if (!sym_define(p, &names[i], &b->args[i], 1)) return NULL;
  return b;
}

/* region ::= `{` block-label? op* (block-label op*)* `}` */
static Region *parse_region_inner(Parser *p, const ArgDecl *args, int nargs);

Region *parse_region(Parser *p, const ArgDecl *args, int nargs) {
  if (!parse_enter(p)) return NULL;
  Region *r = parse_region_inner(p, args, nargs);
  parse_leave(p);
  return r;
}

static Region *parse_region_inner(Parser *p, const ArgDecl *args, int nargs) {
  Loc open = p->tok.loc;
  if (!parse_expect(p, TK_LBRACE, "'{' to open a region")) return NULL;
  scope_push(p);
  Block **blocks = NULL;
  int nblocks = 0, cap = 0;
  Block *cur;
  if (args || !parse_is(p, TK_BLOCK)) {
    Type *types[nargs > 0 ? nargs : 1];
    for (int i = 0; i < nargs; i++) types[i] = args[i].type;
    cur = ir_block_new(p->m, nargs, types);
    for (int i = 0; i < nargs; i++)
      if (!sym_define(p, &args[i].name, &cur->args[i], 1)) return NULL;
    if (args && parse_is(p, TK_BLOCK)) {
      parse_error(p, p->tok.loc, "this region's arguments are declared by its op; no entry label");
      return NULL;
    }
  } else if (!(cur = parse_block_label(p))) {
    return NULL;
  }
  blocks = parse_grow(p, blocks, nblocks, &cap, sizeof *blocks);
  blocks[nblocks++] = cur;
  while (!parse_is(p, TK_RBRACE)) {
    if (p->failed) return NULL;
    if (parse_is(p, TK_EOF)) {
      parse_error(p, p->tok.loc, "expected '}' to close the region opened at %d:%d", open.line,
                  open.col);
      return NULL;
    }
    if (parse_is(p, TK_BLOCK)) {
      if (!(cur = parse_block_label(p))) return NULL;
      blocks = parse_grow(p, blocks, nblocks, &cap, sizeof *blocks);
      blocks[nblocks++] = cur;
      continue;
    }
    if (!parse_op(p, cur)) return NULL;
  }
  parse_next(p);
  scope_pop(p);
  Region *r = ir_region_new(p->m, nblocks);
  for (int i = 0; i < nblocks; i++) {
    r->blocks[i] = blocks[i];
    blocks[i]->parent = r;
  }
  return r;
}

/* ------------------------------------------------------------------------ */
/* Functions and the module                                                  */

static char *parse_symbol_name(Parser *p) {
  if (!parse_is(p, TK_SYMBOL)) {
    parse_error(p, p->tok.loc, "expected a symbol name (@name), found %s", found(p));
    return NULL;
  }
  char *s = p->tok.s[1] == '"' ? parse_string_value(p, &p->tok, NULL)
                               : arena_strndup(&p->m->arena, p->tok.s + 1, p->tok.n - 1);
  parse_next(p);
  return s;
}

/* func-results ::= type | `(` (type dict? loc? (`,` ...)*)? `)` */
static bool parse_func_results(Parser *p, Func *f) {
  if (!parse_accept(p, TK_LPAREN)) {
    f->nresults = 1;
    f->result_types = ARENA_ARRAY(&p->m->arena, Type *, 1);
    return (f->result_types[0] = parse_type(p)) != NULL;
  }
  int cap = 0;
  if (parse_accept(p, TK_RPAREN)) return true;
  do {
    f->result_types = parse_grow(p, f->result_types, f->nresults, &cap, sizeof(Type *));
    if (!(f->result_types[f->nresults++] = parse_type(p))) return false;
    AttrList ignored = {0}; /* jax.result_info etc.: Func keeps no result attrs */
    if (parse_is(p, TK_LBRACE) && !parse_attr_dict(p, &ignored)) return false;
    if (!parse_skip_loc(p)) return false;
  } while (parse_accept(p, TK_COMMA));
  return parse_expect(p, TK_RPAREN, "')' after the function results");
}

/* func ::= `func.func` visibility? symbol `(` (arg (`,` arg)*)? `)`
 *          (`->` func-results)? (`attributes` dict)? region loc?
 * arg  ::= value `:` type dict? loc? */
static bool parse_func(Parser *p) {
  Loc loc = p->tok.loc;
  parse_next(p);
  bool is_public = true;
  if (parse_accept_word(p, "private")) is_public = false;
  else if (parse_accept_word(p, "nested")) is_public = false;
  else parse_accept_word(p, "public");
  Loc name_loc = p->tok.loc;
  char *name = parse_symbol_name(p);
  if (!name) return false;
  if (ir_module_find_func(p->m, name))
    return parse_error(p, name_loc, "redefinition of function '@%s'", name);
  Func *f = ir_func_new(p->m, name, loc);
  f->is_public = is_public;
  ArgDecl *args = NULL;
  bool declaration = false;
  NamedAttr **arg_attrs = NULL;
  int *narg_attrs = NULL, nargs = 0, cap = 0, cap2 = 0, cap3 = 0;
  if (!parse_expect(p, TK_LPAREN, "'(' after the function name")) return false;
  if (!parse_is(p, TK_RPAREN)) {
    do {
      args = parse_grow(p, args, nargs, &cap, sizeof *args);
      arg_attrs = parse_grow(p, arg_attrs, nargs, &cap2, sizeof *arg_attrs);
      narg_attrs = parse_grow(p, narg_attrs, nargs, &cap3, sizeof *narg_attrs);
      if (parse_is(p, TK_VALUE) && !memchr(p->tok.s, '#', p->tok.n)) {
        args[nargs].name = p->tok;
        parse_next(p);
        if (!parse_expect(p, TK_COLON, "':' after the argument name")) return false;
      } else if (!parse_is(p, TK_IDENT) && !parse_is(p, TK_BANG)) {
        return parse_error(p, p->tok.loc, "expected an argument name, found %s", found(p));
      } else {
        declaration = true; /* `(tensor<f32>)`: a declaration's unnamed arguments */
      }
      if (!(args[nargs].type = parse_type(p))) return false;
      AttrList al = {0};
      if (parse_is(p, TK_LBRACE) && !parse_attr_dict(p, &al)) return false;
      arg_attrs[nargs] = al.v;
      narg_attrs[nargs] = al.n;
      nargs++;
      if (!parse_skip_loc(p)) return false;
    } while (parse_accept(p, TK_COMMA));
  }
  if (!parse_expect(p, TK_RPAREN, "')' after the function arguments")) return false;
  if (parse_accept(p, TK_ARROW) && !parse_func_results(p, f)) return false;
  if (parse_accept_word(p, "attributes")) {
    AttrList ignored = {0};
    if (!parse_attr_dict(p, &ignored)) return false;
  }
  if (!parse_is(p, TK_LBRACE)) {
    /* a declaration (external function): no body; Func keeps no argument
     * types for it, only its results */
    if (declaration || nargs == 0) {
      if (!parse_skip_loc(p)) return false;
      ir_module_add_func(p->m, f);
      return true;
    }
    return parse_error(p, p->tok.loc, "expected '{' to open the body of '@%s', found %s", name,
                       found(p));
  }
  if (declaration)
    return parse_error(p, loc, "the arguments of '@%s' need names (%%arg0: type)", name);
  scope_push(p); /* the function is isolated: its names die with it */
  Region *body = parse_region(p, args ? args : (ArgDecl[1]){{{0}, 0}}, nargs);
  if (!body) return false;
  scope_pop(p);
  if (body->nblocks != 1)
    return parse_error(p, loc, "functions with several blocks are not supported");
  f->body = body->blocks[0];
  f->body->parent = NULL;
  f->arg_attrs = arg_attrs;
  f->narg_attrs = narg_attrs;
  if (!parse_skip_loc(p)) return false;
  ir_module_add_func(p->m, f);
  return true;
}

/* alias-def ::= `#name` `=` attribute | `!name` `=` type */
static bool parse_alias_def(Parser *p) {
  Token t = p->tok;
  parse_next(p);
  if (!parse_expect(p, TK_EQUAL, "'=' in alias definition")) return false;
  Alias *a = ARENA_NEW(&p->m->arena, Alias);
  a->name = t.s + 1;
  a->n = t.n - 1;
  if (t.kind == TK_HASH) {
    if (!(a->attr = parse_attr(p))) return false;
  } else if (!(a->type = parse_type(p))) {
    return false;
  }
  a->next = p->aliases;
  p->aliases = a;
  return true;
}

/* module ::= `module` symbol? (`attributes` dict)? `{` func* `}` loc? */
static bool parse_module_op(Parser *p) {
  Loc loc = p->tok.loc;
  parse_next(p);
  p->m->loc = loc;
  if (parse_is(p, TK_SYMBOL) && !(p->m->name = parse_symbol_name(p))) return false;
  if (parse_accept_word(p, "attributes")) {
    AttrList al = {0};
    if (!parse_attr_dict(p, &al)) return false;
    p->m->attrs = al.v;
    p->m->nattrs = al.n;
  }
  if (!parse_expect(p, TK_LBRACE, "'{' to open the module body")) return false;
  while (!parse_accept(p, TK_RBRACE)) {
    if (p->failed) return false;
    if (parse_is_word(p, "func.func")) {
      if (!parse_func(p)) return false;
    } else if (parse_is(p, TK_EOF)) {
      return parse_error(p, p->tok.loc, "expected '}' to close the module opened at %d:%d",
                         loc.line, loc.col);
    } else {
      return parse_error(p, p->tok.loc, "expected 'func.func' in the module, found %s",
                         found(p));
    }
  }
  return parse_skip_loc(p);
}

/* top ::= (alias-def | module | func | resource-block)* */
static bool parse_top(Parser *p) {
  bool seen_module = false, seen_func = false;
  while (!parse_is(p, TK_EOF) && !p->failed) {
    if (parse_is(p, TK_HASH) || parse_is(p, TK_BANG)) {
      if (!parse_alias_def(p)) return false;
    } else if (parse_is_word(p, "module")) {
      if (seen_module || seen_func)
        return parse_error(p, p->tok.loc, "only one module per input (split cases with '// -----')");
      seen_module = true;
      if (!parse_module_op(p)) return false;
    } else if (parse_is_word(p, "func.func")) {
      if (seen_module)
        return parse_error(p, p->tok.loc, "function outside the module");
      seen_func = true;
      if (!parse_func(p)) return false;
    } else if (parse_is(p, TK_META_BEGIN)) {
      if (!parse_resource_block(p)) return false;
    } else {
      return parse_error(p, p->tok.loc, "expected 'module' or 'func.func', found %s", found(p));
    }
  }
  return !p->failed;
}

static bool decode_block(Module *m, Block *b) {
  for (Op *op = b->first; op; op = op->next) {
    if (attrs_decode(m, op) != 0) return false;
    for (int r = 0; r < op->nregions; r++)
      for (int k = 0; k < op->regions[r]->nblocks; k++)
        if (!decode_block(m, op->regions[r]->blocks[k])) return false;
  }
  return true;
}

bool frontend_decode_attrs(Module *m) {
  for (int i = 0; i < m->nfuncs; i++)
    if (m->funcs[i]->body && !decode_block(m, m->funcs[i]->body)) return false;
  return true;
}

Module *parse_module(const SrcFile *file, size_t begin, size_t end, const ParseOptions *opts) {
  static const ParseOptions defaults = {ELIDED_ZEROS};
  if (file->binary) return bytecode_read_module(file); /* text has no NUL bytes */
  Parser p = {0};
  lex_init(&p.lx, file, begin, end);
  p.m = ir_module_new();
  p.opts = opts ? opts : &defaults;
  p.nbuckets = 4096;
  p.buckets = calloc(p.nbuckets, sizeof *p.buckets);
  if (!p.buckets) abort();
  scope_push(&p);
  parse_next(&p);
  bool ok = parse_top(&p) && parse_resolve_resources(&p) && frontend_decode_attrs(p.m);
  free(p.buckets);
  if (!ok || p.failed || p.lx.failed) {
    if (!p.failed && !p.lx.failed && diag_error_count() == 0)
      diag_error((Loc){file, 1, 1}, "parse failed");
    ir_module_free(p.m);
    return NULL;
  }
  return p.m;
}
