/* pretty.c: the custom assembly forms of StableHLO, CHLO, func and check ops.
 *
 * Each form produces exactly the attributes the generic form of the op
 * carries (names and kinds as upstream prints them with
 * `--mlir-print-op-generic`), so attrs_decode and the printer see one
 * representation. The forms follow the assemblyFormat strings and custom
 * printers of openxla/stablehlo (StablehloOps.td, AssemblyFormat.cpp).
 *
 * Most ops share one shape, the "keyword form":
 *   op %a, %b, kw = value, kw = value {attr-dict} : signature
 * where the signature is a function type, a single type meaning "every
 * operand and the result have this type", or (select, tuple, complex, pairs)
 * a short list with an op-specific meaning. The rest have their own
 * functions below.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "frontend_internal.h"

static bool is_word(const Token *t, const char *w) {
  size_t n = strlen(w);
  return t->n == n && !memcmp(t->s, w, n);
}

/* Results of ops whose signature does not list them. */
static int default_nresults(OpCode c) {
  if (op_flags(c) & OPF_CHECK) return 0;
  if (c == OP_RETURN || c == OP_FUNC_RETURN || c == OP_INTERPRETER_PRINT) return 0;
  return 1;
}

static Type **type_array(Parser *p, int n) { return ARENA_ARRAY(&p->m->arena, Type *, n > 0 ? n : 1); }

/* The real type of a complex tensor (complex<f32> -> f32). */
static Type *real_type(Parser *p, Type *t) {
  if (t->kind != TY_TENSOR || !elem_is_complex(t->elem)) return NULL;
  return type_with_elem(p->m->types, t, t->elem == ET_C64 ? ET_F32 : ET_F64);
}

/* The CHLO signature `type ("," type)* "->" (type | "(" type-list ")")`:
 * operand types, then result types (ChloOps.td assemblyFormats). */
static bool parse_arrow_results(Parser *p, const OpStart *st, OpParts *parts, Type **ins,
                                int nin) {
  if (nin != parts->opnds.n)
    return parse_error(p, st->loc, "op has %d operand%s but its type signature lists %d",
                       parts->opnds.n, parts->opnds.n == 1 ? "" : "s", nin);
  Type **outs = NULL;
  int nout = 0, cap = 0;
  bool paren = parse_accept(p, TK_LPAREN);
  do {
    outs = parse_grow(p, outs, nout, &cap, sizeof *outs);
    if (!(outs[nout++] = parse_type(p))) return false;
  } while (paren && parse_accept(p, TK_COMMA));
  if (paren && !parse_expect(p, TK_RPAREN, "')' after the result types")) return false;
  parts->opnd_types = ins;
  parts->nresults = nout;
  parts->result_types = outs;
  return parse_check_operand_types(p, st->loc, parts);
}

/* signature ::= function-type | type (`,` type)* (`->` results)?
 * (see the file comment; the arrow form is CHLO's) */
static bool parse_signature(Parser *p, const OpStart *st, OpParts *parts) {
  if (!parse_expect(p, TK_COLON, "':' and the op's type")) return false;
  if (parse_is(p, TK_LPAREN)) return parse_apply_function_type(p, st->loc, parts);
  Type **types = NULL;
  int n = 0, cap = 0;
  do {
    types = parse_grow(p, types, n, &cap, sizeof *types);
    if (!(types[n++] = parse_type(p))) return false;
  } while (parse_accept(p, TK_COMMA));
  if (parse_accept(p, TK_ARROW)) return parse_arrow_results(p, st, parts, types, n);
  int nop = parts->opnds.n;
  Type **ot = type_array(p, nop);
  OpCode c = st->code;
  if (n == 1 && c == OP_COMPLEX) {
    Type *r = real_type(p, types[0]);
    if (!r) return parse_error(p, st->loc, "stablehlo.complex: expected a complex tensor type");
    for (int i = 0; i < nop; i++) ot[i] = r;
    parts->nresults = 1;
    parts->result_types = types;
  } else if (n == 1 && c == OP_TUPLE) {
    if (types[0]->kind != TY_TUPLE || types[0]->nelems != nop)
      return parse_error(p, st->loc, "stablehlo.tuple: expected a tuple type of %d elements", nop);
    for (int i = 0; i < nop; i++) ot[i] = types[0]->elems[i];
    parts->nresults = 1;
    parts->result_types = types;
  } else if (n == 1) {
    for (int i = 0; i < nop; i++) ot[i] = types[0];
    parts->nresults = default_nresults(c);
    parts->result_types = type_array(p, parts->nresults);
    for (int i = 0; i < parts->nresults; i++) parts->result_types[i] = types[0];
  } else if (n == 2 && c == OP_SELECT && nop == 3) {
    ot[0] = types[0];
    ot[1] = ot[2] = types[1];
    parts->nresults = 1;
    parts->result_types = types + 1;
  } else if (n == nop && (c == OP_OPTIMIZATION_BARRIER || default_nresults(c) == 0)) {
    for (int i = 0; i < nop; i++) ot[i] = types[i];
    parts->nresults = c == OP_OPTIMIZATION_BARRIER ? n : 0;
    parts->result_types = types;
  } else {
    return parse_error(p, st->loc, "'%s': %d types do not fit its %d operands; expected a "
                       "function type '(...) -> ...'", op_name(c), n, nop);
  }
  parts->opnd_types = ot;
  return parse_check_operand_types(p, st->loc, parts);
}

/* ------------------------------------------------------------------------ */
/* Keyword values                                                            */

static bool kw_i64_array(Parser *p, OpParts *parts, const char *name) {
  int64_t *v;
  int n;
  if (!parse_int_list(p, &v, &n)) return false;
  attrlist_add(p, &parts->attrs, name, attr_i64_array(p->m, v, n));
  return true;
}

static bool kw_int(Parser *p, OpParts *parts, const char *name, ElemType t) {
  int64_t v;
  if (!parse_int(p, &v)) return false;
  attrlist_add(p, &parts->attrs, name, attr_int(p->m, v, t));
  return true;
}

static bool kw_enum(Parser *p, OpParts *parts, const char *name, const char *enum_name) {
  if (!parse_is(p, TK_IDENT))
    return parse_error(p, p->tok.loc, "expected a %s value", enum_name);
  attrlist_add(p, &parts->attrs, name, attr_enum(p->m, enum_name, parse_tok_str(p)));
  parse_next(p);
  return true;
}

static bool kw_string(Parser *p, OpParts *parts, const char *name) {
  if (!parse_is(p, TK_STRING)) return parse_error(p, p->tok.loc, "expected a string");
  attrlist_add(p, &parts->attrs, name, attr_string(p->m, parse_string_value(p, &p->tok, NULL)));
  parse_next(p);
  return true;
}

static bool kw_bool(Parser *p, OpParts *parts, const char *name) {
  if (!parse_is_word(p, "true") && !parse_is_word(p, "false"))
    return parse_error(p, p->tok.loc, "expected true or false");
  attrlist_add(p, &parts->attrs, name, attr_bool(p->m, p->tok.s[0] == 't'));
  parse_next(p);
  return true;
}

/* A float (or integer) literal, with sign, without `: type`. */
static bool kw_float(Parser *p, OpParts *parts, const char *name) {
  Loc loc = p->tok.loc;
  bool neg = parse_accept(p, TK_MINUS);
  if (!parse_is(p, TK_FLOAT) && !parse_is(p, TK_INT))
    return parse_error(p, loc, "expected a number");
  char buf[128];
  size_t n = p->tok.n < sizeof buf - 1 ? p->tok.n : sizeof buf - 1;
  memcpy(buf, p->tok.s, n);
  buf[n] = 0;
  double v = strtod(buf, NULL);
  parse_next(p);
  attrlist_add(p, &parts->attrs, name, attr_float(p->m, neg ? -v : v, ET_F64));
  return true;
}

/* `e5m10`: exponent and mantissa bits of reduce_precision. */
static bool kw_format(Parser *p, OpParts *parts) {
  Token t = p->tok;
  long e = -1, m = -1;
  if (t.kind == TK_IDENT && t.n >= 4 && t.s[0] == 'e') {
    char buf[32];
    size_t n = t.n < sizeof buf - 1 ? t.n : sizeof buf - 1;
    memcpy(buf, t.s, n);
    buf[n] = 0;
    char *q;
    e = strtol(buf + 1, &q, 10);
    if (q == buf + 1 || *q != 'm') e = -1;
    else {
      char *r;
      m = strtol(q + 1, &r, 10);
      if (r == q + 1 || *r) m = -1;
    }
  }
  if (e < 0 || m < 0 || e > 1000 || m > 1000)
    return parse_error(p, t.loc, "expected a format 'e<exponent bits>m<mantissa bits>'");
  parse_next(p);
  attrlist_add(p, &parts->attrs, "exponent_bits", attr_int(p->m, e, ET_SI32));
  attrlist_add(p, &parts->attrs, "mantissa_bits", attr_int(p->m, m, ET_SI32));
  return true;
}

/* precision ::= `[` (enum (`,` enum)*)? `]` */
static bool kw_precision(Parser *p, OpParts *parts) {
  if (!parse_expect(p, TK_LBRACKET, "'[' after 'precision ='")) return false;
  Attr *a = attr_new(p->m, AT_ARRAY);
  int cap = 0;
  if (!parse_is(p, TK_RBRACKET)) {
    do {
      if (!parse_is(p, TK_IDENT)) return parse_error(p, p->tok.loc, "expected a precision");
      a->items = parse_grow(p, a->items, a->n, &cap, sizeof *a->items);
      a->items[a->n++] = attr_enum(p->m, "precision", parse_tok_str(p));
      parse_next(p);
    } while (parse_accept(p, TK_COMMA));
  }
  if (!parse_expect(p, TK_RBRACKET, "']' after the precisions")) return false;
  attrlist_add(p, &parts->attrs, "precision_config", a);
  return true;
}

/* dot_general's `batching_dims = [..] x [..]`, `contracting_dims = ...` */
typedef struct DotDimsText {
  bool seen;
  int64_t *lb, *rb, *lc, *rc;
  int nlb, nrb, nlc, nrc;
  bool batching;
} DotDimsText;

static bool kw_dims_pair(Parser *p, int64_t **l, int *nl, int64_t **r, int *nr) {
  return parse_int_list(p, l, nl) && parse_expect_word(p, "x") && parse_int_list(p, r, nr);
}

static void add_dot_dims(Parser *p, OpParts *parts, const DotDimsText *d) {
  AttrList f = {0};
  if (d->batching) {
    attrlist_add(p, &f, "lhs_batching_dimensions", attr_int_list(p->m, d->lb, d->nlb));
    attrlist_add(p, &f, "rhs_batching_dimensions", attr_int_list(p->m, d->rb, d->nrb));
  }
  attrlist_add(p, &f, "lhs_contracting_dimensions", attr_int_list(p->m, d->lc, d->nlc));
  attrlist_add(p, &f, "rhs_contracting_dimensions", attr_int_list(p->m, d->rc, d->nrc));
  attrlist_add(p, &parts->attrs, "dot_dimension_numbers", attr_struct(p->m, "dot", f.v, f.n));
}

/* kw ::= keyword `=` value, with the keywords of each op's assemblyFormat */
/* The value of a keyword of the op's schema (ir.h OP_ATTRS), producing the
 * generic attribute the keyword stands for. */
static bool kw_schema(Parser *p, const AttrSpec *s, OpParts *parts) {
  switch (s->type) {
  case AK_INTS: return kw_i64_array(p, parts, s->name);
  case AK_INT: return kw_int(p, parts, s->name, ET_SI64);
  case AK_I32: return kw_int(p, parts, s->name, ET_SI32);
  case AK_BOOL: return kw_bool(p, parts, s->name);
  case AK_FLOAT: return kw_float(p, parts, s->name);
  case AK_STRING: return kw_string(p, parts, s->name);
  case AK_PRECISION: return kw_precision(p, parts);
  default: break;
  }
  assert(s->type >= AK_ENUM0); /* the schema has no other keyword kinds */
  return kw_enum(p, parts, s->name, attr_enum_name((AttrEnum)(s->type - AK_ENUM0)));
}

/* kw ::= keyword `=` value: the keywords of the op's schema, and the
 * keywords that stand for several attributes or a structure's fields. */
static bool parse_keyword(Parser *p, const OpStart *st, OpParts *parts, DotDimsText *dot) {
  Token kw = p->tok;
  OpCode c = st->code;
  if (kw.kind != TK_IDENT)
    return parse_error(p, kw.loc, "expected a keyword or a value in '%s'", op_name(c));
  parse_next(p);
  if (!parse_expect(p, TK_EQUAL, "'=' after the keyword")) return false;
  const AttrSpec *s = attr_spec_by_keyword(c, kw.s, kw.n);
  if (s) return kw_schema(p, s, parts);
  if (c == OP_REDUCE_PRECISION && is_word(&kw, "format")) return kw_format(p, parts);
  if (c == OP_DOT_GENERAL && is_word(&kw, "algorithm")) {
    if (!parse_expect(p, TK_LANGLE, "'<' after 'algorithm ='")) return false;
    AttrList f = {0};
    if (!parse_struct_fields(p, "dot_algorithm", &f)) return false;
    attrlist_add(p, &parts->attrs, "algorithm", attr_struct(p->m, "dot_algorithm", f.v, f.n));
    return true;
  }
  if (c == OP_DOT_GENERAL && is_word(&kw, "batching_dims")) {
    dot->seen = dot->batching = true;
    return kw_dims_pair(p, &dot->lb, &dot->nlb, &dot->rb, &dot->nrb);
  }
  if (c == OP_DOT_GENERAL && is_word(&kw, "contracting_dims")) {
    dot->seen = true;
    return kw_dims_pair(p, &dot->lc, &dot->nlc, &dot->rc, &dot->nrc);
  }
  return parse_error(p, kw.loc, "'%s' has no keyword '%.*s'", op_name(c), (int)kw.n, kw.s);
}

/* keyword-form ::= value-list (`,` kw)* attr-dict? signature
 * (with no operands the first keyword comes directly: `iota dim = 0`) */
static Op *parse_keyword_form(Parser *p, const OpStart *st, Block *b) {
  OpParts parts = {0};
  DotDimsText dot = {0};
  if (!parse_value_list(p, &parts.opnds)) return NULL;
  bool first = true;
  for (;;) {
    if (parts.opnds.n > 0 || !first) {
      if (!parse_accept(p, TK_COMMA)) break;
    } else if (!parse_is(p, TK_IDENT)) {
      break;
    }
    first = false;
    if (!parse_keyword(p, st, &parts, &dot)) return NULL;
  }
  if (dot.seen) { /* first, where the generic form has it */
    AttrList kws = parts.attrs;
    parts.attrs = (AttrList){0};
    add_dot_dims(p, &parts, &dot);
    for (int i = 0; i < kws.n; i++) attrlist_add(p, &parts.attrs, kws.v[i].name, kws.v[i].value);
  }
  if (parse_is(p, TK_LBRACE) && !parse_attr_dict(p, &parts.attrs)) return NULL;
  if (!parse_signature(p, st, &parts)) return NULL;
  return parse_finish_op(p, st, &parts, b);
}

/* ------------------------------------------------------------------------ */
/* Ops with their own syntax                                                 */

/* constant ::= `stablehlo.constant` dict? dense-attr
 *            | `stablehlo.constant` `(` `)` (`<` dict `>`)? dict? `:` function-type */
static Op *parse_constant(Parser *p, const OpStart *st, Block *b) {
  OpParts parts = {0};
  if (parse_accept(p, TK_LPAREN)) {
    if (!parse_expect(p, TK_RPAREN, "')'")) return NULL;
    if (parse_accept(p, TK_LANGLE)) {
      if (!parse_attr_dict(p, &parts.attrs) || !parse_expect(p, TK_RANGLE, "'>'")) return NULL;
    }
    if (parse_is(p, TK_LBRACE) && !parse_attr_dict(p, &parts.attrs)) return NULL;
    if (!parse_expect(p, TK_COLON, "':' and the op's type")) return NULL;
    if (!parse_apply_function_type(p, st->loc, &parts)) return NULL;
    return parse_finish_op(p, st, &parts, b);
  }
  AttrList extra = {0};
  if (parse_is(p, TK_LBRACE) && !parse_attr_dict(p, &extra)) return NULL;
  Loc loc = p->tok.loc;
  Attr *v = parse_attr(p);
  if (!v) return NULL;
  if (v->kind != AT_DENSE) {
    parse_error(p, loc, "%s expects a dense literal", op_name(st->code));
    return NULL;
  }
  attrlist_add(p, &parts.attrs, "value", v);
  for (int i = 0; i < extra.n; i++) attrlist_add(p, &parts.attrs, extra.v[i].name, extra.v[i].value);
  parts.nresults = 1;
  parts.result_types = type_array(p, 1);
  parts.result_types[0] = v->type;
  return parse_finish_op(p, st, &parts, b);
}

/* compare ::= direction `,` value `,` value (`,` type)? attr-dict? signature */
static Op *parse_compare(Parser *p, const OpStart *st, Block *b) {
  OpParts parts = {0};
  if (!kw_enum(p, &parts, "comparison_direction", "comparison_direction")) return NULL;
  if (!parse_expect(p, TK_COMMA, "',' after the comparison direction")) return NULL;
  if (!parse_value_list(p, &parts.opnds)) return NULL;
  if (parse_accept(p, TK_COMMA) && !kw_enum(p, &parts, "compare_type", "comparison_type"))
    return NULL;
  if (parse_is(p, TK_LBRACE) && !parse_attr_dict(p, &parts.attrs)) return NULL;
  if (!parse_signature(p, st, &parts)) return NULL;
  return parse_finish_op(p, st, &parts, b);
}

/* slice ::= value `[` (start `:` limit (`:` stride)? (`,` ...)*)? `]` attr-dict? signature */
static Op *parse_slice(Parser *p, const OpStart *st, Block *b) {
  OpParts parts = {0};
  if (!parse_value_list(p, &parts.opnds)) return NULL;
  if (!parse_expect(p, TK_LBRACKET, "'[' and the slice ranges")) return NULL;
  int64_t start[64], limit[64], stride[64];
  int n = 0;
  if (!parse_is(p, TK_RBRACKET)) {
    do {
      if (n == 64) return parse_error(p, p->tok.loc, "too many slice dimensions"), NULL;
      stride[n] = 1;
      if (!parse_int(p, &start[n]) || !parse_expect(p, TK_COLON, "':' in slice range") ||
          !parse_int(p, &limit[n]))
        return NULL;
      if (parse_accept(p, TK_COLON) && !parse_int(p, &stride[n])) return NULL;
      n++;
    } while (parse_accept(p, TK_COMMA));
  }
  if (!parse_expect(p, TK_RBRACKET, "']' after the slice ranges")) return NULL;
  attrlist_add(p, &parts.attrs, "start_indices", attr_i64_array(p->m, start, n));
  attrlist_add(p, &parts.attrs, "limit_indices", attr_i64_array(p->m, limit, n));
  attrlist_add(p, &parts.attrs, "strides", attr_i64_array(p->m, stride, n));
  if (parse_is(p, TK_LBRACE) && !parse_attr_dict(p, &parts.attrs)) return NULL;
  if (!parse_signature(p, st, &parts)) return NULL;
  return parse_finish_op(p, st, &parts, b);
}

/* get-tuple-element ::= value `[` index `]` attr-dict? signature */
static Op *parse_get_tuple_element(Parser *p, const OpStart *st, Block *b) {
  OpParts parts = {0};
  if (!parse_value_list(p, &parts.opnds)) return NULL;
  if (!parse_expect(p, TK_LBRACKET, "'[' and the tuple index")) return NULL;
  if (!kw_int(p, &parts, "index", ET_SI32)) return NULL;
  if (!parse_expect(p, TK_RBRACKET, "']' after the tuple index")) return NULL;
  if (parse_is(p, TK_LBRACE) && !parse_attr_dict(p, &parts.attrs)) return NULL;
  if (!parse_signature(p, st, &parts)) return NULL;
  return parse_finish_op(p, st, &parts, b);
}

/* optimization-barrier ::= attr-dict? (value-list `:` type-list | `(` `)`) */
static Op *parse_optimization_barrier(Parser *p, const OpStart *st, Block *b) {
  OpParts parts = {0};
  if (parse_is(p, TK_LBRACE) && !parse_attr_dict(p, &parts.attrs)) return NULL;
  if (parse_accept(p, TK_LPAREN)) {
    if (!parse_expect(p, TK_RPAREN, "')'")) return NULL;
    return parse_finish_op(p, st, &parts, b);
  }
  if (!parse_value_list(p, &parts.opnds)) return NULL;
  if (!parse_signature(p, st, &parts)) return NULL;
  return parse_finish_op(p, st, &parts, b);
}

/* return ::= value-list attr-dict? (`:` type-list)?   (types iff values) */
static Op *parse_return(Parser *p, const OpStart *st, Block *b) {
  OpParts parts = {0};
  if (!parse_value_list(p, &parts.opnds)) return NULL;
  if (parse_is(p, TK_LBRACE) && !parse_attr_dict(p, &parts.attrs)) return NULL;
  if (parts.opnds.n > 0 && !parse_signature(p, st, &parts)) return NULL;
  return parse_finish_op(p, st, &parts, b);
}

/* A parenthesized operand list: `(` value-list `)`. */
static bool parse_paren_values(Parser *p, ValueList *l) {
  return parse_expect(p, TK_LPAREN, "'(' and the operands") && parse_value_list(p, l) &&
         parse_expect(p, TK_RPAREN, "')' after the operands");
}

/* call ::= (`call` | `func.call`) symbol `(` value-list `)` attr-dict? `:` function-type
 * custom-call ::= `stablehlo.custom_call` symbol `(` ... (same shape) */
static Op *parse_call_like(Parser *p, const OpStart *st, Block *b) {
  OpParts parts = {0};
  if (!parse_is(p, TK_SYMBOL)) {
    parse_error(p, p->tok.loc, "expected a symbol (@name) after '%s'", op_name(st->code));
    return NULL;
  }
  Token sym = p->tok;
  char *name = sym.s[1] == '"' ? parse_string_value(p, &sym, NULL)
                               : arena_strndup(&p->m->arena, sym.s + 1, sym.n - 1);
  parse_next(p);
  if (st->code == OP_CUSTOM_CALL) {
    attrlist_add(p, &parts.attrs, "call_target_name", attr_string(p->m, name));
  } else {
    Attr *a = attr_new(p->m, AT_SYMBOL);
    a->str = name;
    attrlist_add(p, &parts.attrs, "callee", a);
  }
  if (!parse_paren_values(p, &parts.opnds)) return NULL;
  if (parse_is(p, TK_LBRACE) && !parse_attr_dict(p, &parts.attrs)) return NULL;
  if (!parse_expect(p, TK_COLON, "':' and the function type")) return NULL;
  if (!parse_apply_function_type(p, st->loc, &parts)) return NULL;
  return parse_finish_op(p, st, &parts, b);
}

/* top-k ::= `(` value `,` `k` `=` int `)` attr-dict? `:` type `->` `(` type `,` type `)`
 * (chlo.top_k) */
static Op *parse_top_k(Parser *p, const OpStart *st, Block *b) {
  OpParts parts = {0};
  if (!parse_expect(p, TK_LPAREN, "'(' and the operand") || !parse_value_list(p, &parts.opnds) ||
      !parse_expect(p, TK_COMMA, "',' and 'k = ...'") || !parse_expect_word(p, "k") ||
      !parse_expect(p, TK_EQUAL, "'=' after 'k'") || !kw_int(p, &parts, "k", ET_SI64) ||
      !parse_expect(p, TK_RPAREN, "')' after k"))
    return NULL;
  if (parse_is(p, TK_LBRACE) && !parse_attr_dict(p, &parts.attrs)) return NULL;
  if (!parse_signature(p, st, &parts)) return NULL;
  return parse_finish_op(p, st, &parts, b);
}

/* scan ::= `chlo.scan` `(` value-list `)` `inits` `(` value-list `)` `dimension` `=` int
 *          (`attributes` dict)? region `:` function-type
 * The operands are the inputs then the inits; their counts go in
 * operandSegmentSizes as in the generic form. */
static Op *parse_scan(Parser *p, const OpStart *st, Block *b) {
  OpParts parts = {0};
  ValueList inits = {0};
  if (!parse_paren_values(p, &parts.opnds) || !parse_expect_word(p, "inits") ||
      !parse_paren_values(p, &inits) || !parse_expect_word(p, "dimension") ||
      !parse_expect(p, TK_EQUAL, "'=' after 'dimension'") ||
      !kw_int(p, &parts, "dimension", ET_SI64))
    return NULL;
  Attr *seg = attr_new(p->m, AT_DENSE_ARRAY);
  seg->array_elem = ET_SI32;
  seg->n = 2;
  seg->ints = ARENA_ARRAY(&p->m->arena, int64_t, 2);
  seg->ints[0] = parts.opnds.n;
  seg->ints[1] = inits.n;
  attrlist_add(p, &parts.attrs, "operandSegmentSizes", seg);
  for (int i = 0; i < inits.n; i++) valuelist_add(p, &parts.opnds, inits.v[i], inits.locs[i]);
  if (parse_accept_word(p, "attributes") && !parse_attr_dict(p, &parts.attrs)) return NULL;
  parts.nregions = 1;
  parts.regions = ARENA_ARRAY(&p->m->arena, Region *, 1);
  if (!(parts.regions[0] = parse_region(p, NULL, 0))) return NULL;
  if (!parse_expect(p, TK_COLON, "':' and the function type")) return NULL;
  if (!parse_apply_function_type(p, st->loc, &parts)) return NULL;
  return parse_finish_op(p, st, &parts, b);
}

/* composite ::= string value-list attr-dict? `:` function-type */
static Op *parse_composite(Parser *p, const OpStart *st, Block *b) {
  OpParts parts = {0};
  if (!parse_is(p, TK_STRING)) {
    parse_error(p, p->tok.loc, "expected the composite's name as a string");
    return NULL;
  }
  attrlist_add(p, &parts.attrs, "name", attr_string(p->m, parse_string_value(p, &p->tok, NULL)));
  parse_next(p);
  if (!parse_value_list(p, &parts.opnds)) return NULL;
  if (parse_is(p, TK_LBRACE) && !parse_attr_dict(p, &parts.attrs)) return NULL;
  if (!parse_expect(p, TK_COLON, "':' and the function type")) return NULL;
  if (!parse_apply_function_type(p, st->loc, &parts)) return NULL;
  return parse_finish_op(p, st, &parts, b);
}

/* check-const ::= value `,` dense-attr attr-dict?   (the attr's type is the
 * operand's: `check.expect_eq_const %x, dense<1> : tensor<i32>`) */
static Op *parse_check_const(Parser *p, const OpStart *st, Block *b) {
  OpParts parts = {0};
  if (!parse_value_list(p, &parts.opnds)) return NULL;
  if (parts.opnds.n != 1) {
    parse_error(p, st->loc, "'%s' takes one operand", op_name(st->code));
    return NULL;
  }
  if (!parse_expect(p, TK_COMMA, "',' and the expected value")) return NULL;
  Loc loc = p->tok.loc;
  Attr *v = parse_attr(p);
  if (!v) return NULL;
  if (v->kind != AT_DENSE) {
    parse_error(p, loc, "expected a dense literal");
    return NULL;
  }
  attrlist_add(p, &parts.attrs, "value", v);
  if (parse_is(p, TK_LBRACE) && !parse_attr_dict(p, &parts.attrs)) return NULL;
  parts.opnd_types = type_array(p, 1);
  parts.opnd_types[0] = v->type;
  if (!parse_check_operand_types(p, st->loc, &parts)) return NULL;
  return parse_finish_op(p, st, &parts, b);
}

/* The type of a reduction's scalar block argument for init value type t. */
static Type *scalar_of(Parser *p, Type *t) {
  if (t->kind != TY_TENSOR || t->rank == 0) return t;
  if (t->elem == ET_QUANT) return type_tensor_quant(p->m->types, t->quant, 0, NULL);
  return type_tensor(p->m->types, t->elem, 0, NULL);
}

/* `applies stablehlo.add`: the body is that op on the block arguments. */
static Region *reduce_body_of(Parser *p, Loc loc, OpCode inner, Type **init_types, int n) {
  Type *args[2 * n];
  for (int i = 0; i < n; i++) args[i] = args[n + i] = scalar_of(p, init_types[i]);
  Block *blk = ir_block_new(p->m, 2 * n, args);
  Op *op = ir_op_new(p->m, inner, loc, 2 * n, blk->args, n, args, 0);
  ir_block_append(blk, op);
  Op *ret = ir_op_new(p->m, OP_RETURN, loc, n, op->results, 0, NULL, 0);
  ir_block_append(blk, ret);
  Region *r = ir_region_new(p->m, 1);
  r->blocks[0] = blk;
  blk->parent = r;
  return r;
}

/* reduce ::= `stablehlo.reduce` `(` value `init:` value `)` (`,` `(` ... `)`)*
 *            ( `applies` op-name `across` `dimensions` `=` ints attr-dict? `:` function-type
 *            | `across` `dimensions` `=` ints attr-dict? `:` function-type
 *              `reducer` (`(` arg `,` arg `)`)+ region )
 * In the reducer the i-th pair is (accumulator i, element i); the block
 * arguments are all accumulators, then all elements. */
static Op *parse_reduce(Parser *p, const OpStart *st, Block *b) {
  OpParts parts = {0};
  ValueList inits = {0};
  do {
    if (!parse_expect(p, TK_LPAREN, "'(' and the operand of stablehlo.reduce")) return NULL;
    Loc l1 = p->tok.loc;
    Value *x = parse_value_use(p);
    if (!x || !parse_expect_word(p, "init") || !parse_expect(p, TK_COLON, "':' after 'init'"))
      return NULL;
    Loc l2 = p->tok.loc;
    Value *init = parse_value_use(p);
    if (!init || !parse_expect(p, TK_RPAREN, "')'")) return NULL;
    valuelist_add(p, &parts.opnds, x, l1);
    valuelist_add(p, &inits, init, l2);
  } while (parse_accept(p, TK_COMMA));
  int n = parts.opnds.n;
  for (int i = 0; i < n; i++) valuelist_add(p, &parts.opnds, inits.v[i], inits.locs[i]);
  OpCode inner = OP_COUNT;
  Loc inner_loc = p->tok.loc;
  if (parse_accept_word(p, "applies")) {
    inner_loc = p->tok.loc;
    if (parse_is(p, TK_IDENT)) inner = op_lookup(p->tok.s, p->tok.n);
    if (inner == OP_COUNT) {
      parse_error(p, inner_loc, "expected a reduction op after 'applies', found '%.*s'",
                  (int)p->tok.n, p->tok.s);
      return NULL;
    }
    parse_next(p);
  }
  if (!parse_expect_word(p, "across") || !parse_expect_word(p, "dimensions") ||
      !parse_expect(p, TK_EQUAL, "'=' after 'dimensions'") ||
      !kw_i64_array(p, &parts, "dimensions"))
    return NULL;
  if (parse_is(p, TK_LBRACE) && !parse_attr_dict(p, &parts.attrs)) return NULL;
  if (!parse_expect(p, TK_COLON, "':' and the function type")) return NULL;
  if (!parse_apply_function_type(p, st->loc, &parts)) return NULL;
  Region *body;
  if (inner != OP_COUNT) {
    body = reduce_body_of(p, inner_loc, inner, parts.opnd_types + n, n);
  } else {
    if (!parse_expect_word(p, "reducer")) return NULL;
    ArgDecl args[2 * n];
    for (int i = 0; i < n; i++) {
      if (!parse_expect(p, TK_LPAREN, "'(' and the reducer arguments")) return NULL;
      for (int k = 0; k < 2; k++) {
        ArgDecl *a = &args[k * n + i];
        if (k && !parse_expect(p, TK_COMMA, "','")) return NULL;
        if (!parse_is(p, TK_VALUE)) {
          parse_error(p, p->tok.loc, "expected a reducer argument name");
          return NULL;
        }
        a->name = p->tok;
        parse_next(p);
        if (!parse_expect(p, TK_COLON, "':' after the argument") || !(a->type = parse_type(p)))
          return NULL;
      }
      if (!parse_expect(p, TK_RPAREN, "')' after the reducer arguments")) return NULL;
    }
    body = parse_region(p, args, 2 * n);
  }
  if (!body) return NULL;
  parts.regions = ARENA_ARRAY(&p->m->arena, Region *, 1);
  parts.regions[0] = body;
  parts.nregions = 1;
  return parse_finish_op(p, st, &parts, b);
}

/* while ::= `stablehlo.while` `(` (arg `=` value (`,` ...)*)? `)` (`:` type-list)?
 *           (`attributes`? dict)? `cond` region `do` region */
static Op *parse_while(Parser *p, const OpStart *st, Block *b) {
  OpParts parts = {0};
  ArgDecl *args = NULL;
  int n = 0, cap = 0;
  if (!parse_expect(p, TK_LPAREN, "'(' after stablehlo.while")) return NULL;
  if (!parse_is(p, TK_RPAREN)) {
    do {
      if (!parse_is(p, TK_VALUE) || memchr(p->tok.s, '#', p->tok.n)) {
        parse_error(p, p->tok.loc, "expected an iteration argument name");
        return NULL;
      }
      args = parse_grow(p, args, n, &cap, sizeof *args);
      args[n].name = p->tok;
      parse_next(p);
      if (!parse_expect(p, TK_EQUAL, "'=' after the iteration argument")) return NULL;
      Loc loc = p->tok.loc;
      Value *v = parse_value_use(p);
      if (!v) return NULL;
      valuelist_add(p, &parts.opnds, v, loc);
      n++;
    } while (parse_accept(p, TK_COMMA));
  }
  if (!parse_expect(p, TK_RPAREN, "')' after the iteration arguments")) return NULL;
  Type **types = type_array(p, n);
  if (n > 0) {
    if (!parse_expect(p, TK_COLON, "':' and the types of the iteration arguments")) return NULL;
    for (int i = 0; i < n; i++) {
      if (i && !parse_expect(p, TK_COMMA, "',' and the next type")) return NULL;
      if (!(types[i] = args[i].type = parse_type(p))) return NULL;
    }
  }
  parse_accept_word(p, "attributes");
  if (parse_is(p, TK_LBRACE) && !parse_attr_dict(p, &parts.attrs)) return NULL;
  parts.opnd_types = types;
  if (!parse_check_operand_types(p, st->loc, &parts)) return NULL;
  parts.nresults = n;
  parts.result_types = types;
  parts.nregions = 2;
  parts.regions = ARENA_ARRAY(&p->m->arena, Region *, 2);
  if (!parse_expect_word(p, "cond") || !(parts.regions[0] = parse_region(p, args, n)))
    return NULL;
  if (!parse_expect_word(p, "do") || !(parts.regions[1] = parse_region(p, args, n)))
    return NULL;
  return parse_finish_op(p, st, &parts, b);
}

/* A rank-2 i64 dense attribute (convolution padding), rows of `cols`. */
static Attr *dense_i64_matrix(Parser *p, const int64_t *v, int rows, int cols) {
  int64_t dims[2] = {rows, cols};
  DenseData *d = ARENA_NEW(&p->m->arena, DenseData);
  d->type = type_tensor(p->m->types, ET_SI64, 2, dims);
  d->nbytes = (size_t)rows * (size_t)cols * 8;
  d->bytes = arena_alloc(&p->m->arena, d->nbytes ? d->nbytes : 1);
  for (size_t i = 0; i < (size_t)rows * (size_t)cols; i++)
    for (int k = 0; k < 8; k++) d->bytes[8 * i + k] = (uint8_t)((uint64_t)v[i] >> (8 * k));
  Attr *a = attr_new(p->m, AT_DENSE);
  a->dense = d;
  a->type = (Type *)d->type;
  return a;
}

/* window ::= `{` (field `=` value (`,` ...)*)? `}`
 * field ::= stride | pad | lhs_dilate | rhs_dilate | reverse */
static bool parse_conv_window(Parser *p, OpParts *parts) {
  if (!parse_expect(p, TK_LBRACE, "'{' and the window")) return false;
  while (!parse_accept(p, TK_RBRACE)) {
    Token kw = p->tok;
    if (kw.kind != TK_IDENT) return parse_error(p, kw.loc, "expected a window field");
    parse_next(p);
    if (!parse_expect(p, TK_EQUAL, "'=' after the window field")) return false;
    if (is_word(&kw, "stride")) {
      if (!kw_i64_array(p, parts, "window_strides")) return false;
    } else if (is_word(&kw, "lhs_dilate")) {
      if (!kw_i64_array(p, parts, "lhs_dilation")) return false;
    } else if (is_word(&kw, "rhs_dilate")) {
      if (!kw_i64_array(p, parts, "rhs_dilation")) return false;
    } else if (is_word(&kw, "pad")) {
      int64_t v[128];
      int rows = 0;
      if (!parse_expect(p, TK_LBRACKET, "'[' after 'pad ='")) return false;
      if (!parse_is(p, TK_RBRACKET)) {
        do {
          if (rows == 64) return parse_error(p, kw.loc, "too many padded dimensions");
          if (!parse_expect(p, TK_LBRACKET, "'[' and a padding pair") ||
              !parse_int(p, &v[2 * rows]) || !parse_expect(p, TK_COMMA, "','") ||
              !parse_int(p, &v[2 * rows + 1]) || !parse_expect(p, TK_RBRACKET, "']'"))
            return false;
          rows++;
        } while (parse_accept(p, TK_COMMA));
      }
      if (!parse_expect(p, TK_RBRACKET, "']' after the padding")) return false;
      attrlist_add(p, &parts->attrs, "padding", dense_i64_matrix(p, v, rows, 2));
    } else if (is_word(&kw, "reverse")) {
      int64_t v[64];
      int n = 0;
      if (!parse_expect(p, TK_LBRACKET, "'[' after 'reverse ='")) return false;
      if (!parse_is(p, TK_RBRACKET)) {
        do {
          if (n == 64) return parse_error(p, kw.loc, "too many window dimensions");
          if (parse_is_word(p, "true") || parse_is_word(p, "false")) {
            v[n++] = p->tok.s[0] == 't';
            parse_next(p);
          } else if (!parse_int(p, &v[n++])) {
            return false;
          }
        } while (parse_accept(p, TK_COMMA));
      }
      if (!parse_expect(p, TK_RBRACKET, "']' after the reversal")) return false;
      attrlist_add(p, &parts->attrs, "window_reversal", attr_dense_array(p->m, ET_I1, v, n));
    } else {
      return parse_error(p, kw.loc, "unknown window field '%.*s'", (int)kw.n, kw.s);
    }
    if (!parse_accept(p, TK_COMMA) && !parse_is(p, TK_RBRACE))
      return parse_error(p, p->tok.loc, "expected ',' or '}' in the window");
  }
  return true;
}

/* convolution ::= `stablehlo.convolution` `(` value-list `)` `dim_numbers` `=` conv-dims
 *                 `,` `window` `=` window attr-dict? `:` function-type */
static Op *parse_convolution(Parser *p, const OpStart *st, Block *b) {
  OpParts parts = {0};
  if (!parse_paren_values(p, &parts.opnds)) return NULL;
  if (!parse_expect_word(p, "dim_numbers") || !parse_expect(p, TK_EQUAL, "'='")) return NULL;
  AttrList f = {0};
  if (!parse_conv_dims(p, &f)) return NULL;
  attrlist_add(p, &parts.attrs, "dimension_numbers", attr_struct(p->m, "conv", f.v, f.n));
  if (!parse_expect(p, TK_COMMA, "',' and the window") || !parse_expect_word(p, "window") ||
      !parse_expect(p, TK_EQUAL, "'='") || !parse_conv_window(p, &parts))
    return NULL;
  if (parse_is(p, TK_LBRACE) && !parse_attr_dict(p, &parts.attrs)) return NULL;
  if (!parse_expect(p, TK_COLON, "':' and the function type")) return NULL;
  if (!parse_apply_function_type(p, st->loc, &parts)) return NULL;
  return parse_finish_op(p, st, &parts, b);
}

Op *parse_pretty_op(Parser *p, const OpStart *st, Block *b) {
  switch (st->code) {
  case OP_CONSTANT:
  case OP_CHLO_CONSTANT: return parse_constant(p, st, b);
  case OP_COMPARE: return parse_compare(p, st, b);
  case OP_SLICE: return parse_slice(p, st, b);
  case OP_GET_TUPLE_ELEMENT: return parse_get_tuple_element(p, st, b);
  case OP_OPTIMIZATION_BARRIER: return parse_optimization_barrier(p, st, b);
  case OP_RETURN:
  case OP_FUNC_RETURN: return parse_return(p, st, b);
  case OP_FUNC_CALL:
  case OP_CUSTOM_CALL: return parse_call_like(p, st, b);
  case OP_COMPOSITE: return parse_composite(p, st, b);
  case OP_CHECK_EXPECT_EQ_CONST:
  case OP_CHECK_EXPECT_ALMOST_EQ_CONST: return parse_check_const(p, st, b);
  case OP_REDUCE: return parse_reduce(p, st, b);
  case OP_WHILE: return parse_while(p, st, b);
  case OP_CONVOLUTION: return parse_convolution(p, st, b);
  case OP_CHLO_TOP_K: return parse_top_k(p, st, b);
  case OP_CHLO_SCAN: return parse_scan(p, st, b);
  default: return parse_keyword_form(p, st, b);
  }
}
