/* attr_parse.c: attribute values.
 *
 * The generic tree of ir.h (Attr) for everything that can follow `=` in an
 * attribute dictionary: numbers with their `: type`, strings, arrays,
 * dictionaries, `array<i64: ...>`, dense literals (dense.c), symbol
 * references, `#stablehlo<enum X>` / `#stablehlo.enum<X>` enums,
 * `#stablehlo.gather<...>`-style structs, aliases, and types. Attributes of
 * other dialects (`#sparse_tensor.encoding<...>`, `loc(...)`, ...) are kept
 * verbatim as AT_OTHER.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "frontend_internal.h"

/* ------------------------------------------------------------------------ */
/* Opaque attributes                                                         */

/* Skips a balanced group from the opening bracket (current token) on,
 * ignoring brackets inside strings and the `>` of `->`. */
Attr *parse_opaque_attr(Parser *p, const char *start) {
  Lexer *lx = &p->lx;
  Loc open = p->tok.loc;
  char stack[256];
  int depth = 0;
  /* the lexer stands after the opening token; scan again from it */
  const char *q = p->tok.s;
  int line = p->tok.loc.line;
  const char *line_start = p->tok.s - (p->tok.loc.col - 1);
  for (; q < lx->end; q++) {
    char c = *q;
    if (c == '\n') {
      line++;
      line_start = q + 1;
    } else if (c == '"') {
      for (q++; q < lx->end && *q != '"' && *q != '\n'; q++)
        if (*q == '\\' && q + 1 < lx->end) q++;
      if (q >= lx->end || *q != '"') break;
    } else if (c == '-' && q + 1 < lx->end && q[1] == '>') {
      q++;
    } else if (c == '<' || c == '(' || c == '[' || c == '{') {
      if (depth == (int)sizeof stack) {
        parse_error(p, open, "attribute nested deeper than %d levels", (int)sizeof stack);
        return NULL;
      }
      stack[depth++] = c == '<' ? '>' : c == '(' ? ')' : c == '[' ? ']' : '}';
    } else if (c == '>' || c == ')' || c == ']' || c == '}') {
      if (depth == 0 || stack[depth - 1] != c) {
        parse_error(p, (Loc){lx->file, line, (int)(q - line_start) + 1},
                    "unbalanced '%c' in attribute", c);
        return NULL;
      }
      if (--depth == 0) {
        q++;
        Attr *a = attr_new(p->m, AT_OTHER);
        a->str = arena_strndup(&p->m->arena, start, (size_t)(q - start));
        lx->p = q;
        lx->line = line;
        lx->line_start = line_start;
        parse_next(p);
        return a;
      }
    }
  }
  parse_error(p, open, "unterminated attribute: no closing bracket for this one");
  return NULL;
}

/* ------------------------------------------------------------------------ */
/* Numbers, lists                                                            */

/* int-list ::= `[` (`-`? int (`,` `-`? int)*)? `]` */
bool parse_int_list(Parser *p, int64_t **v, int *n) {
  int cap = 0;
  *v = NULL;
  *n = 0;
  if (!parse_expect(p, TK_LBRACKET, "'['")) return false;
  if (parse_accept(p, TK_RBRACKET)) return true;
  do {
    *v = parse_grow(p, *v, *n, &cap, sizeof **v);
    if (!parse_int(p, &(*v)[(*n)++])) return false;
  } while (parse_accept(p, TK_COMMA));
  return parse_expect(p, TK_RBRACKET, "']' after the integers");
}

static double tok_double(const Token *t) {
  char buf[128];
  size_t n = t->n < sizeof buf - 1 ? t->n : sizeof buf - 1;
  memcpy(buf, t->s, n);
  buf[n] = 0;
  if (t->kind == TK_INT && n > 2 && buf[1] == 'x') return (double)strtoull(buf, NULL, 16);
  return strtod(buf, NULL);
}

/* number ::= `-`? (int | float) (`:` scalar-type)? */
static Attr *parse_number(Parser *p) {
  Loc loc = p->tok.loc;
  bool neg = parse_accept(p, TK_MINUS);
  Token t = p->tok;
  Attr *a;
  if (t.kind == TK_FLOAT) {
    double d = tok_double(&t);
    a = attr_float(p->m, neg ? -d : d, ET_COUNT);
  } else if (t.kind == TK_INT) {
    uint64_t u = 0;
    bool hex = t.n > 2 && t.s[1] == 'x';
    for (size_t i = hex ? 2 : 0; i < t.n; i++) {
      char c = t.s[i];
      uint64_t d = (uint64_t)(c <= '9' ? c - '0' : (c | 32) - 'a' + 10);
      uint64_t base = hex ? 16 : 10;
      if (u > (UINT64_MAX - d) / base) {
        parse_error(p, loc, "integer literal out of range");
        return NULL;
      }
      u = u * base + d;
    }
    if (neg && u > (uint64_t)INT64_MAX + 1) {
      parse_error(p, loc, "integer literal out of range");
      return NULL;
    }
    int64_t v = neg ? (int64_t)(0 - u) : (int64_t)u;
    a = attr_int(p->m, v, ET_COUNT);
  } else {
    parse_error(p, t.loc, "expected a number after '-'");
    return NULL;
  }
  parse_next(p);
  if (!parse_accept(p, TK_COLON)) return a;
  Token tt = p->tok;
  ElemType e = parse_elem_type_name(p);
  if (e == ET_COUNT) {
    parse_error(p, tt.loc, "expected a scalar type after ':'");
    return NULL;
  }
  a->type = parse_scalar_type(p, e);
  if (a->kind == AT_INT && elem_is_float(e)) {
    a->kind = AT_FLOAT;
    a->fval = (double)a->ival;
  } else if (a->kind == AT_FLOAT && !elem_is_float(e)) {
    parse_error(p, tt.loc, "float literal with non-float type");
    return NULL;
  }
  return a;
}

/* ------------------------------------------------------------------------ */
/* Structured attributes                                                     */

/* array ::= `[` (attr (`,` attr)*)? `]` */
static Attr *parse_array(Parser *p) {
  parse_next(p);
  Attr *a = attr_new(p->m, AT_ARRAY);
  int cap = 0;
  if (parse_accept(p, TK_RBRACKET)) return a;
  do {
    a->items = parse_grow(p, a->items, a->n, &cap, sizeof *a->items);
    if (!(a->items[a->n++] = parse_attr(p))) return NULL;
  } while (parse_accept(p, TK_COMMA));
  return parse_expect(p, TK_RBRACKET, "']' to close the array") ? a : NULL;
}

/* dict ::= `{` (entry (`,` entry)*)? `}`   entry ::= name (`=` attr)? */
bool parse_attr_dict(Parser *p, AttrList *l) {
  if (!parse_expect(p, TK_LBRACE, "'{'")) return false;
  if (parse_accept(p, TK_RBRACE)) return true;
  do {
    char *name;
    if (parse_is(p, TK_IDENT)) {
      name = parse_tok_str(p);
    } else if (parse_is(p, TK_STRING)) {
      name = parse_string_value(p, &p->tok, NULL);
    } else {
      return parse_error(p, p->tok.loc, "expected an attribute name, found %.*s",
                         p->tok.kind == TK_EOF ? 12 : (int)p->tok.n,
                         p->tok.kind == TK_EOF ? "end of input" : p->tok.s);
    }
    parse_next(p);
    Attr *v;
    if (parse_accept(p, TK_EQUAL)) {
      if (!(v = parse_attr(p))) return false;
    } else {
      v = attr_new(p->m, AT_UNIT);
    }
    attrlist_add(p, l, name, v);
  } while (parse_accept(p, TK_COMMA));
  return parse_expect(p, TK_RBRACE, "'}' to close the attribute dictionary");
}

/* dense-array ::= `array` `<` int-type (`:` value (`,` value)*)? `>` */
static Attr *parse_dense_array(Parser *p, const char *start) {
  parse_next(p); /* '<' */
  Token lt = p->tok;
  Lexer save = p->lx;
  parse_next(p);
  Token et = p->tok;
  ElemType e = parse_elem_type_name(p);
  if (e == ET_COUNT) {
    parse_error(p, et.loc, "expected an element type after 'array<'");
    return NULL;
  }
  if (!elem_is_int(e) && e != ET_I1) {
    /* float arrays: kept verbatim, nothing decodes them */
    p->lx = save;
    p->tok = lt;
    return parse_opaque_attr(p, start);
  }
  int64_t *v = NULL;
  int n = 0, cap = 0;
  if (parse_accept(p, TK_COLON)) {
    do {
      v = parse_grow(p, v, n, &cap, sizeof *v);
      if (parse_is_word(p, "true") || parse_is_word(p, "false")) {
        v[n++] = parse_is_word(p, "true");
        parse_next(p);
      } else if (!parse_int(p, &v[n++])) {
        return NULL;
      }
    } while (parse_accept(p, TK_COMMA));
  }
  if (!parse_expect(p, TK_RANGLE, "'>' to close 'array<'")) return NULL;
  return attr_dense_array(p->m, e, v, n);
}

/* Whether the text after the lexer's position is `< word >`: the body of an
 * enum like `#stablehlo.fft_type<FFT>`. */
static bool next_is_enum_body(Parser *p) {
  const char *q = p->lx.p, *e = p->lx.end;
  if (q >= e || *q != '<') return false;
  for (q++; q < e && (*q == ' ' || *q == '\t'); q++) {}
  const char *w = q;
  while (q < e && (isalnum((unsigned char)*q) || *q == '_')) q++;
  if (q == w) return false;
  for (; q < e && (*q == ' ' || *q == '\t'); q++) {}
  return q < e && *q == '>';
}

/* A field name must be one of the struct's (ir.h STRUCT_FIELDS) and appear
 * once. */
static bool check_field(Parser *p, const char *sname, const AttrList *fields, const char *name,
                        Loc loc) {
  for (int i = 0; i < fields->n; i++)
    if (!strcmp(fields->v[i].name, name))
      return parse_error(p, loc, "duplicated `%s` entry in #stablehlo.%s", name, sname);
  if (attr_struct_has_field(attr_struct_kind(sname, strlen(sname)), name)) return true;
  return parse_error(p, loc, "#stablehlo.%s has no field `%s`", sname, name);
}

/* fields ::= (name `=` attr (`,` name `=` attr)* `,`?)? `>` */
bool parse_struct_fields(Parser *p, const char *sname, AttrList *fields) {
  if (parse_accept(p, TK_RANGLE)) return true;
  for (;;) {
    if (!parse_is(p, TK_IDENT))
      return parse_error(p, p->tok.loc, "expected a field name, found %.*s",
                         p->tok.kind == TK_EOF ? 12 : (int)p->tok.n,
                         p->tok.kind == TK_EOF ? "end of input" : p->tok.s);
    char *name = parse_tok_str(p);
    if (!check_field(p, sname, fields, name, p->tok.loc)) return false;
    parse_next(p);
    if (!parse_expect(p, TK_EQUAL, "'=' after the field name")) return false;
    Attr *v = parse_attr(p);
    if (!v) return false;
    attrlist_add(p, fields, name, v);
    if (!parse_accept(p, TK_COMMA)) break;
    if (parse_is(p, TK_RANGLE)) break; /* trailing comma */
  }
  return parse_expect(p, TK_RANGLE, "'>' to close the attribute");
}

/* layout ::= `[` (c0 | c1 | spatial-index) (`,` ...)* `]`, e.g. `[b, 0, 1, f]` */
static bool conv_side(Parser *p, char c0, char c1, int64_t *d0, int64_t *d1, int64_t *spatial,
                      int *nspatial) {
  Loc loc = p->tok.loc;
  if (!parse_expect(p, TK_LBRACKET, "'[' in convolution dimension numbers")) return false;
  int n = 0;
  bool seen[64] = {0};
  *d0 = *d1 = -1;
  *nspatial = 0;
  if (!parse_is(p, TK_RBRACKET)) {
    do {
      if (n >= 64) return parse_error(p, loc, "too many convolution dimensions");
      if (parse_is(p, TK_INT)) {
        int64_t k;
        if (!parse_int(p, &k)) return false;
        if (k < 0 || k >= 64 || seen[k])
          return parse_error(p, loc, "bad spatial dimension %lld in convolution layout",
                             (long long)k);
        seen[k] = true;
        spatial[k] = n;
        if (k + 1 > *nspatial) *nspatial = (int)k + 1;
      } else if (parse_is(p, TK_IDENT) && p->tok.n == 1 &&
                 (p->tok.s[0] == c0 || p->tok.s[0] == c1)) {
        int64_t *d = p->tok.s[0] == c0 ? d0 : d1;
        if (*d >= 0)
          return parse_error(p, p->tok.loc, "'%c' appears twice in convolution layout",
                             p->tok.s[0]);
        *d = n;
        parse_next(p);
      } else {
        return parse_error(p, p->tok.loc, "expected '%c', '%c' or a spatial index in convolution "
                           "layout", c0, c1);
      }
      n++;
    } while (parse_accept(p, TK_COMMA));
  }
  if (!parse_expect(p, TK_RBRACKET, "']' in convolution dimension numbers")) return false;
  if (*d0 < 0 || *d1 < 0)
    return parse_error(p, loc, "convolution layout needs both '%c' and '%c'", c0, c1);
  for (int i = 0; i < *nspatial; i++)
    if (!seen[i]) return parse_error(p, loc, "spatial dimension %d missing in convolution layout", i);
  if (*nspatial + 2 != n) return parse_error(p, loc, "malformed convolution layout");
  return true;
}

static void add_int(Parser *p, AttrList *f, const char *name, int64_t v) {
  attrlist_add(p, f, name, attr_int(p->m, v, ET_COUNT));
}

/* conv-dims ::= `[` layout `]` `x` `[` layout `]` `->` `[` layout `]` */
bool parse_conv_dims(Parser *p, AttrList *f) {
  int64_t b, fe, ki, ko, ob, of, is[64], ks[64], os[64];
  int ni, nk, no;
  Loc loc = p->tok.loc;
  if (!conv_side(p, 'b', 'f', &b, &fe, is, &ni)) return false;
  if (!parse_expect_word(p, "x")) return false;
  if (!conv_side(p, 'i', 'o', &ki, &ko, ks, &nk)) return false;
  if (!parse_expect(p, TK_ARROW, "'->' in convolution dimension numbers")) return false;
  if (!conv_side(p, 'b', 'f', &ob, &of, os, &no)) return false;
  if (ni != nk || ni != no)
    return parse_error(p, loc, "convolution layouts have different numbers of spatial dimensions");
  add_int(p, f, "input_batch_dimension", b);
  add_int(p, f, "input_feature_dimension", fe);
  attrlist_add(p, f, "input_spatial_dimensions", attr_int_list(p->m, is, ni));
  add_int(p, f, "kernel_input_feature_dimension", ki);
  add_int(p, f, "kernel_output_feature_dimension", ko);
  attrlist_add(p, f, "kernel_spatial_dimensions", attr_int_list(p->m, ks, nk));
  add_int(p, f, "output_batch_dimension", ob);
  add_int(p, f, "output_feature_dimension", of);
  attrlist_add(p, f, "output_spatial_dimensions", attr_int_list(p->m, os, no));
  return true;
}

/* hash-attr ::= `#stablehlo` `<` enum-name value `>`
 *             | `#stablehlo.` struct-name `<` fields `>`
 *             | `#stablehlo.` enum-name `<` value `>`
 *             | `#` alias
 *             | `#` other-dialect `<` ... `>`            (kept verbatim) */
static Attr *parse_hash_attr(Parser *p) {
  Token t = p->tok;
  const char *name = t.s + 1;
  size_t n = t.n - 1;
  bool angle = lex_peek_char(&p->lx) == '<';
  if (angle && n == 9 && !memcmp(name, "stablehlo", 9)) {
    parse_next(p);
    parse_next(p);
    if (parse_is(p, TK_IDENT)) {
      char *ename = parse_tok_str(p);
      parse_next(p);
      if (parse_is(p, TK_IDENT)) {
        char *value = parse_tok_str(p);
        parse_next(p);
        if (!parse_expect(p, TK_RANGLE, "'>' to close the enum")) return NULL;
        return attr_enum(p->m, ename, value);
      }
    }
    parse_error(p, t.loc, "expected '#stablehlo<enum_name VALUE>'");
    return NULL;
  }
  if (angle && n > 10 && !memcmp(name, "stablehlo.", 10)) {
    const char *sub = name + 10;
    size_t sn = n - 10;
    if (attr_struct_kind(sub, sn) != AK_ENUM0) {
      char *sname = arena_strndup(&p->m->arena, sub, sn);
      parse_next(p);
      parse_next(p);
      AttrList fields = {0};
      if (!strcmp(sname, "conv") && !parse_accept_word(p, "raw")) {
        if (!parse_conv_dims(p, &fields)) return NULL;
        if (!parse_expect(p, TK_RANGLE, "'>' to close '#stablehlo.conv'")) return NULL;
      } else if (!parse_struct_fields(p, sname, &fields)) {
        return NULL;
      }
      return attr_struct(p->m, sname, fields.v, fields.n);
    }
    if (next_is_enum_body(p)) {
      char *ename = arena_strndup(&p->m->arena, sub, sn);
      parse_next(p);
      parse_next(p);
      char *value = parse_tok_str(p);
      parse_next(p);
      if (!parse_expect(p, TK_RANGLE, "'>'")) return NULL;
      return attr_enum(p->m, ename, value);
    }
  }
  if (angle) {
    parse_next(p);
    return parse_opaque_attr(p, t.s);
  }
  for (Alias *a = p->aliases; a; a = a->next)
    if (a->n == n && !memcmp(a->name, name, n) && a->attr) {
      parse_next(p);
      return a->attr;
    }
  parse_error(p, t.loc, "undefined attribute alias '%.*s'", (int)t.n, t.s);
  return NULL;
}

/* symbol-ref ::= `@` name (`::` `@` name)* */
static Attr *parse_symbol_ref(Parser *p) {
  Token t = p->tok;
  Attr *a = attr_new(p->m, AT_SYMBOL);
  const char *e = p->lx.p;
  if (e + 1 < p->lx.end && e[0] == ':' && e[1] == ':') {
    /* nested reference: keep the whole text, `@` included */
    const char *s = t.s;
    while (p->lx.p + 1 < p->lx.end && p->lx.p[0] == ':' && p->lx.p[1] == ':') {
      p->lx.p += 2;
      parse_next(p);
      if (!parse_is(p, TK_SYMBOL)) {
        parse_error(p, p->tok.loc, "expected a symbol after '::'");
        return NULL;
      }
    }
    a->str = arena_strndup(&p->m->arena, s, (size_t)(p->tok.s + p->tok.n - s));
  } else if (t.s[1] == '"') {
    a->str = parse_string_value(p, &t, NULL);
  } else {
    a->str = arena_strndup(&p->m->arena, t.s + 1, t.n - 1);
  }
  parse_next(p);
  return a;
}

/* ident-attr ::= `true` | `false` | `unit` | dense | dense-resource | dense-array
 *              | type | other-dialect `<`...`>` | `loc` `(`...`)` */
static Attr *parse_ident_attr(Parser *p) {
  Token t = p->tok;
  if (parse_is_word(p, "true") || parse_is_word(p, "false")) {
    parse_next(p);
    return attr_bool(p->m, t.s[0] == 't');
  }
  if (parse_is_word(p, "unit")) {
    parse_next(p);
    return attr_new(p->m, AT_UNIT);
  }
  char next = lex_peek_char(&p->lx);
  if (parse_is_word(p, "dense") && next == '<') {
    parse_next(p);
    return parse_dense(p, t.loc);
  }
  if (parse_is_word(p, "dense_resource") && next == '<') {
    parse_next(p);
    return parse_dense_resource(p, t.loc);
  }
  if (parse_is_word(p, "array") && next == '<') return parse_dense_array(p, t.s);
  if (parse_is_word(p, "tensor") || parse_is_word(p, "tuple")) {
    Attr *a = attr_new(p->m, AT_TYPE);
    return (a->type = parse_type(p)) ? a : NULL;
  }
  ElemType e = parse_elem_type_name(p);
  if (e != ET_COUNT) {
    /* a scalar type as attribute value, e.g. dot_algorithm's tf32 */
    Attr *a = attr_new(p->m, AT_TYPE);
    a->type = parse_scalar_type(p, e);
    return a;
  }
  if (p->failed) return NULL;
  if (next == '<' || next == '(') {
    parse_next(p);
    return parse_opaque_attr(p, t.s);
  }
  if (parse_is_word(p, "none")) {
    parse_next(p);
    Attr *a = attr_new(p->m, AT_OTHER);
    a->str = "none";
    return a;
  }
  parse_error(p, t.loc, "expected an attribute value, found '%.*s'", (int)t.n, t.s);
  return NULL;
}

static Attr *parse_attr_inner(Parser *p);

/* attr ::= number | string | array | dict | symbol-ref | hash-attr | ident-attr
 *        | `!`type | `?` */
Attr *parse_attr(Parser *p) {
  if (p->failed || !parse_enter(p)) return NULL;
  Attr *a = parse_attr_inner(p);
  parse_leave(p);
  return a;
}

static Attr *parse_attr_inner(Parser *p) {
  switch (p->tok.kind) {
  case TK_MINUS:
  case TK_INT:
  case TK_FLOAT:
    return parse_number(p);
  case TK_STRING: {
    Attr *a = attr_string(p->m, parse_string_value(p, &p->tok, NULL));
    parse_next(p);
    return a;
  }
  case TK_LBRACKET:
    return parse_array(p);
  case TK_LBRACE: {
    AttrList l = {0};
    if (!parse_attr_dict(p, &l)) return NULL;
    Attr *a = attr_new(p->m, AT_DICT);
    a->fields = l.v;
    a->n = l.n;
    return a;
  }
  case TK_SYMBOL:
    return parse_symbol_ref(p);
  case TK_HASH:
    return parse_hash_attr(p);
  case TK_IDENT:
    return parse_ident_attr(p);
  case TK_BANG: {
    Attr *a = attr_new(p->m, AT_TYPE);
    return (a->type = parse_type(p)) ? a : NULL;
  }
  case TK_QUESTION: { /* a dynamic bound, `[3, ?]` */
    parse_next(p);
    Attr *a = attr_new(p->m, AT_OTHER);
    a->str = "?";
    return a;
  }
  default:
    break;
  }
  if (p->tok.kind == TK_EOF)
    parse_error(p, p->tok.loc, "expected an attribute value, found end of input");
  else
    parse_error(p, p->tok.loc, "expected an attribute value, found '%.*s'", (int)p->tok.n,
                p->tok.s);
  return NULL;
}
