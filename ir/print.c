/* print.c: writes the IR as MLIR text in the generic op form.
 *
 * The output must re-parse (with our own parser and with upstream MLIR) to the
 * same program: it is what `--emit=mlir` and `--dump-after=PASS` show. Every
 * op is printed as `%r = "dialect.op"(%a, %b) ({regions}) {attrs} : (operand
 * types) -> result types`; values are named `%<id>` after ir_number_values.
 * The plan of the later passes (fusion, kernels, buffer storage) follows each
 * op as a trailing `// ...` comment, which parsers ignore.
 */
#include <ctype.h>
#include <math.h>
#include <string.h>

#include "../ir/ir.h"

enum { DENSE_LITERAL_MAX = 16 }; /* larger non-splat literals print as hex */

static void print_attr_in(FILE *f, const Attr *a, bool bare);

static void indent(FILE *f, int depth) {
  for (int i = 0; i < depth; i++) fputs("  ", f);
}

/* ------------------------------------------------------------------------ */
/* Strings, symbols, identifiers                                             */

/* MLIR string literal: `"` and `\` escaped, other non-printables as \XX. */
static void print_string(FILE *f, const char *s) {
  fputc('"', f);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '"' || *p == '\\') fprintf(f, "\\%c", *p);
    else if (*p == '\n') fputs("\\n", f);
    else if (*p == '\t') fputs("\\t", f);
    else if (*p < 0x20 || *p >= 0x7f) fprintf(f, "\\%02X", *p);
    else fputc(*p, f);
  }
  fputc('"', f);
}

/* A bare identifier is [a-zA-Z_][a-zA-Z0-9_$.-]*; anything else is quoted. */
static bool is_bare_ident(const char *s) {
  if (!*s || !(isalpha((unsigned char)*s) || *s == '_')) return false;
  for (; *s; s++)
    if (!isalnum((unsigned char)*s) && !strchr("_$.-", *s)) return false;
  return true;
}

static void print_symbol_name(FILE *f, const char *s) {
  fputc('@', f);
  if (is_bare_ident(s)) fputs(s, f);
  else print_string(f, s);
}

/* AT_SYMBOL text may or may not carry its `@`; nested references
 * (`@a::@b`) are kept verbatim. */
static void print_symbol_ref(FILE *f, const char *s) {
  if (s[0] == '@') fputs(s, f);
  else print_symbol_name(f, s);
}

static void print_attr_name(FILE *f, const char *s) {
  if (is_bare_ident(s)) fputs(s, f);
  else print_string(f, s);
}

/* ------------------------------------------------------------------------ */
/* Numbers                                                                   */

/* Scalar types of integer/float attributes are stored as rank-0 tensors. */
static void print_scalar_type(FILE *f, const Type *t) {
  if (t->kind == TY_TENSOR && t->rank == 0 && t->elem != ET_QUANT)
    fputs(elem_name(t->elem), f);
  else
    type_print(f, t);
}

/* Bit pattern of a non-finite value in the given float type, for the
 * `0x...` spelling MLIR requires for inf and nan. */
static uint64_t nonfinite_bits(double v, ElemType e) {
  bool neg = signbit(v), nan = isnan(v);
  switch (e) {
  case ET_F64: return nan ? 0x7FF8000000000000ull : (neg ? 0xFFF0000000000000ull : 0x7FF0000000000000ull);
  case ET_F16: return nan ? 0x7E00 : (neg ? 0xFC00 : 0x7C00);
  case ET_BF16: return nan ? 0x7FC0 : (neg ? 0xFF80 : 0x7F80);
  default: return nan ? 0x7FC00000 : (neg ? 0xFF800000 : 0x7F800000);
  }
}

/* A decimal that reads back as the same value of the type, always with a
 * `.` (MLIR's float literals need one: `1.0e+10`, never `1e+10`). */
static void print_float(FILE *f, double v, ElemType e) {
  if (!isfinite(v)) {
    fprintf(f, "0x%llX", (unsigned long long)nonfinite_bits(v, e));
    return;
  }
  char buf[64];
  snprintf(buf, sizeof buf, e == ET_F64 ? "%.17g" : "%.9g", v);
  char *exp = strchr(buf, 'e');
  if (strchr(buf, '.')) fputs(buf, f);
  else if (exp) fprintf(f, "%.*s.0%s", (int)(exp - buf), buf, exp);
  else fprintf(f, "%s.0", buf);
}

/* ------------------------------------------------------------------------ */
/* Dense literals                                                            */

static uint64_t dense_get_u64(const DenseData *d, int64_t i) {
  uint64_t v = 0;
  int nb = elem_bytes(d->type->elem);
  memcpy(&v, d->bytes + (d->splat ? 0 : i * nb), (size_t)nb);
  return v;
}

static void print_dense_elem(FILE *f, const DenseData *d, int64_t i) {
  ElemType e = d->type->elem;
  if (e == ET_I1) fputs(dense_get_i64(d, i) ? "true" : "false", f);
  else if (elem_is_float(e)) print_float(f, dense_get_f64(d, i), e);
  else if (elem_class(e) == 'u') fprintf(f, "%llu", (unsigned long long)dense_get_u64(d, i));
  else fprintf(f, "%lld", (long long)dense_get_i64(d, i));
}

/* Nested `[...]` lists following the shape, from dimension `dim` on. */
static void print_dense_list(FILE *f, const DenseData *d, int dim, int64_t *next) {
  const Type *t = d->type;
  if (dim == t->rank) {
    print_dense_elem(f, d, (*next)++);
    return;
  }
  fputc('[', f);
  for (int64_t i = 0; i < t->dims[dim]; i++) {
    if (i) fputs(", ", f);
    print_dense_list(f, d, dim + 1, next);
  }
  fputc(']', f);
}

static void print_dense_hex(FILE *f, const DenseData *d) {
  fputs("\"0x", f);
  for (size_t i = 0; i < d->nbytes; i++) fprintf(f, "%02X", d->bytes[i]);
  fputc('"', f);
}

/* Literal lists only where every element has an exact decimal spelling
 * (ints, finite floats); i1 never as hex (MLIR packs i1 blobs in bits). */
static bool dense_literal_ok(const DenseData *d, int64_t n) {
  ElemType e = d->type->elem;
  if (e == ET_I1) return true;
  if (elem_is_complex(e) || e == ET_QUANT || d->type->kind != TY_TENSOR) return false;
  if (elem_is_float(e) && e != ET_F16 && e != ET_BF16 && e != ET_F32 && e != ET_F64)
    return false;
  if (n > DENSE_LITERAL_MAX && !d->splat) return false;
  if (elem_is_float(e))
    for (int64_t i = 0; i < (d->splat ? 1 : n); i++)
      if (!isfinite(dense_get_f64(d, i))) return false;
  return true;
}

static void print_dense(FILE *f, const DenseData *d, const Type *ty) {
  if (d->elided) {
    fputs("dense_resource<__elided__> : ", f);
    type_print(f, ty);
    return;
  }
  int64_t n = type_num_elems(d->type);
  /* A splat keeps its value even when the tensor is empty (exact round
   * trips), where it can be spelled as a literal. */
  bool splat = d->splat && d->nbytes > 0 && (n > 0 || dense_literal_ok(d, n));
  fputs("dense<", f);
  if (n == 0 && !splat) {
    /* `dense<>` is the empty literal */
  } else if (!dense_literal_ok(d, n)) {
    print_dense_hex(f, d);
  } else if (splat) {
    print_dense_elem(f, d, 0);
  } else {
    int64_t next = 0;
    print_dense_list(f, d, 0, &next);
  }
  fputs("> : ", f);
  type_print(f, ty);
}

/* ------------------------------------------------------------------------ */
/* Attributes                                                                */

static void print_dense_array(FILE *f, const Attr *a) {
  fprintf(f, "array<%s", elem_name(a->array_elem));
  for (int i = 0; i < a->n; i++) {
    fputs(i ? ", " : ": ", f);
    if (a->array_elem == ET_I1) fputs(a->ints[i] ? "true" : "false", f);
    else fprintf(f, "%lld", (long long)a->ints[i]);
  }
  fputc('>', f);
}

/* `{a = v, b}`: unit attributes print as their bare name. Sorted by
 * name, as MLIR keeps attribute dictionaries, so the IR prints the same
 * whatever order its input (pretty or generic form, text or bytecode)
 * gave the attributes in. */
static void print_named_attrs(FILE *f, const NamedAttr *na, int n) {
  fputc('{', f);
  int last = -1;
  for (int i = 0; i < n; i++) {
    int next = -1; /* the least (name, index) after the last printed */
    for (int k = 0; k < n; k++) {
      int after = last < 0 ? 1 : strcmp(na[k].name, na[last].name);
      if ((after > 0 || (after == 0 && k > last)) &&
          (next < 0 || strcmp(na[k].name, na[next].name) < 0))
        next = k;
    }
    last = next;
    if (i) fputs(", ", f);
    print_attr_name(f, na[next].name);
    if (na[next].value && na[next].value->kind != AT_UNIT) {
      fputs(" = ", f);
      print_attr_in(f, na[next].value, false);
    }
  }
  fputc('}', f);
}

static const Attr *struct_field(const Attr *a, const char *name) {
  for (int i = 0; i < a->n; i++)
    if (!strcmp(a->fields[i].name, name)) return a->fields[i].value;
  return NULL;
}

/* Reads an integer (AT_INT) or a list of integers (AT_ARRAY of AT_INT or
 * AT_DENSE_ARRAY) into out[]; returns the count, or -1. */
static int attr_ints(const Attr *a, int64_t *out, int cap) {
  if (!a) return -1;
  if (a->kind == AT_INT) {
    out[0] = a->ival;
    return 1;
  }
  if (a->kind == AT_DENSE_ARRAY && a->n <= cap) {
    memcpy(out, a->ints, sizeof(int64_t) * (size_t)a->n);
    return a->n;
  }
  if (a->kind != AT_ARRAY || a->n > cap) return -1;
  for (int i = 0; i < a->n; i++) {
    if (a->items[i]->kind != AT_INT) return -1;
    out[i] = a->items[i]->ival;
  }
  return a->n;
}

/* Fills one side of the compact conv layout, e.g. `[b, 0, 1, f]`, from the
 * named dimension fields; false if they do not form a permutation. */
static bool conv_layout(const Attr *a, const char *first, const char *last,
                        const char *spatial, char c0, char c1, char *out, int *rank) {
  int64_t sp[16], d0, d1;
  int ns = attr_ints(struct_field(a, spatial), sp, 16);
  if (ns < 0 || attr_ints(struct_field(a, first), &d0, 1) != 1 ||
      attr_ints(struct_field(a, last), &d1, 1) != 1)
    return false;
  int n = ns + 2;
  memset(out, 0, 18);
  int64_t pos[18];
  char tag[18];
  pos[0] = d0, tag[0] = c0, pos[1] = d1, tag[1] = c1;
  for (int i = 0; i < ns; i++) pos[i + 2] = sp[i], tag[i + 2] = (char)('0' + i);
  for (int i = 0; i < n; i++) {
    if (pos[i] < 0 || pos[i] >= n || out[pos[i]] || ns > 10) return false;
    out[pos[i]] = tag[i];
  }
  *rank = n;
  return true;
}

static void print_layout(FILE *f, const char *l, int n) {
  fputc('[', f);
  for (int i = 0; i < n; i++) fprintf(f, "%s%c", i ? ", " : "", l[i]);
  fputc(']', f);
}

/* `#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>`: the form MLIR
 * prints and every exporter writes. */
static bool print_conv_compact(FILE *f, const Attr *a) {
  char in[18], k[18], out[18];
  int ni, nk, no;
  if (!conv_layout(a, "input_batch_dimension", "input_feature_dimension",
                   "input_spatial_dimensions", 'b', 'f', in, &ni) ||
      !conv_layout(a, "kernel_input_feature_dimension", "kernel_output_feature_dimension",
                   "kernel_spatial_dimensions", 'i', 'o', k, &nk) ||
      !conv_layout(a, "output_batch_dimension", "output_feature_dimension",
                   "output_spatial_dimensions", 'b', 'f', out, &no))
    return false;
  fputs("#stablehlo.conv<", f);
  print_layout(f, in, ni);
  fputc('x', f);
  print_layout(f, k, nk);
  fputs("->", f);
  print_layout(f, out, no);
  fputc('>', f);
  return true;
}

/* `#stablehlo.name<field = value, ...>`: field values are bare (no `: i64`).
 * Conv dimension numbers that are not a valid layout use the `raw` form. */
static void print_struct(FILE *f, const Attr *a) {
  if (!strcmp(a->name, "conv") && print_conv_compact(f, a)) return;
  fprintf(f, "#stablehlo.%s<", a->name);
  if (!strcmp(a->name, "conv")) fputs("raw ", f);
  for (int i = 0; i < a->n; i++) {
    if (i) fputs(", ", f);
    fprintf(f, "%s = ", a->fields[i].name);
    print_attr_in(f, a->fields[i].value, true);
  }
  fputc('>', f);
}

/* `bare`: inside a #stablehlo.* struct, where numbers carry no type. */
static void print_attr_in(FILE *f, const Attr *a, bool bare) {
  switch (a->kind) {
  case AT_UNIT: fputs("unit", f); return;
  case AT_BOOL: fputs(a->bval ? "true" : "false", f); return;
  case AT_INT:
    if (a->type && a->type->kind == TY_TENSOR && a->type->elem == ET_I1) {
      fputs(a->ival ? "true" : "false", f);
      return;
    }
    fprintf(f, "%lld", (long long)a->ival);
    if (a->type && !bare) {
      fputs(" : ", f);
      print_scalar_type(f, a->type);
    }
    return;
  case AT_FLOAT: {
    ElemType e = a->type && a->type->kind == TY_TENSOR ? a->type->elem : ET_F64;
    print_float(f, a->fval, e);
    if (a->type && !bare) {
      fputs(" : ", f);
      print_scalar_type(f, a->type);
    }
    return;
  }
  case AT_STRING: print_string(f, a->str ? a->str : ""); return;
  case AT_TYPE:
    if (bare) print_scalar_type(f, a->type);
    else type_print(f, a->type);
    return;
  case AT_SYMBOL: print_symbol_ref(f, a->str); return;
  case AT_ARRAY:
    fputc('[', f);
    for (int i = 0; i < a->n; i++) {
      if (i) fputs(", ", f);
      print_attr_in(f, a->items[i], bare);
    }
    fputc(']', f);
    return;
  case AT_DENSE_ARRAY: print_dense_array(f, a); return;
  case AT_DENSE: print_dense(f, a->dense, a->type ? a->type : a->dense->type); return;
  case AT_DICT: print_named_attrs(f, a->fields, a->n); return;
  case AT_ENUM: fprintf(f, "#stablehlo<%s %s>", a->name, a->str); return;
  case AT_STRUCT: print_struct(f, a); return;
  case AT_OTHER: fputs(a->str, f); return;
  }
}

void ir_print_attr(FILE *f, const Attr *a) { print_attr_in(f, a, false); }

/* ------------------------------------------------------------------------ */
/* Ops, blocks, regions                                                      */

static void print_block(FILE *f, const Block *b, int depth, int index, bool label);

static void print_value(FILE *f, const Value *v) { fprintf(f, "%%%d", v->id); }

static void print_type_list(FILE *f, Value *const *vs, int n) {
  for (int i = 0; i < n; i++) {
    if (i) fputs(", ", f);
    type_print(f, vs[i]->type);
  }
}

static void print_regions(FILE *f, const Op *op, int depth) {
  fputs(" (", f);
  for (int r = 0; r < op->nregions; r++) {
    const Region *rg = op->regions[r];
    fputs(r ? ", {\n" : "{\n", f);
    for (int k = 0; k < rg->nblocks; k++)
      print_block(f, rg->blocks[k], depth + 1, k, k > 0 || rg->blocks[k]->nargs > 0);
    indent(f, depth);
    fputc('}', f);
  }
  fputc(')', f);
}

static void print_storage(FILE *f, const Value *v) {
  switch (v->storage) {
  case ST_NONE: return;
  case ST_ARG: fprintf(f, "arg%lld", (long long)v->offset); return;
  case ST_RESULT: fprintf(f, "result%lld", (long long)v->offset); return;
  case ST_TEMP: fprintf(f, "temp@%lld", (long long)v->offset); return;
  case ST_CONST: break;
  }
  fputs("const", f);
  const GemmPacking *p = v->packed;
  if (p)
    fprintf(f, " packed %lldx%lld panels (%lld elements%s)", (long long)p->kc, (long long)p->nr,
            (long long)layout_packed_elems(p), p->wino ? ", Winograd" : "");
}

/* `// fused, kernel 3, temp@128, scratch@0 (5632 bytes)`: the plan of the
 * fuse and buffers passes. */
static void print_annotations(FILE *f, const Op *op) {
  bool any = op->fused || op->alias || op->kernel > 0 || op->scratch_bytes > 0;
  for (int i = 0; i < op->nresults; i++) any |= op->results[i]->storage != ST_NONE;
  if (!any) return;
  const char *sep = "";
  fputs("  // ", f);
  if (op->fused) fputs("fused", f), sep = ", ";
  if (op->alias) fputs("alias", f), sep = ", ";
  if (op->kernel > 0) fprintf(f, "%skernel %d", sep, op->kernel), sep = ", ";
  for (int i = 0; i < op->nresults; i++) {
    if (op->results[i]->storage == ST_NONE) continue;
    fputs(sep, f);
    print_storage(f, op->results[i]);
    sep = ", ";
  }
  if (op->scratch_bytes > 0)
    fprintf(f, "%sscratch@%lld (%lld bytes)", sep, (long long)op->scratch_offset,
            (long long)op->scratch_bytes);
}

static void print_op(FILE *f, const Op *op, int depth) {
  indent(f, depth);
  for (int i = 0; i < op->nresults; i++) {
    if (i) fputs(", ", f);
    print_value(f, op->results[i]);
  }
  if (op->nresults) fputs(" = ", f);
  /* A convolution with symbolic padding is the dynamic_conv it was, its
   * padding operand kept (passes/symbolic.c): printed so, it reads back. */
  bool dynamic_conv = op->code == OP_CONVOLUTION && op->a.window.pad_sym;
  fprintf(f, "\"%s\"(", op_name(dynamic_conv ? OP_DYNAMIC_CONV : op->code));
  for (int i = 0; i < op->nopnds; i++) {
    if (i) fputs(", ", f);
    print_value(f, op->opnds[i]);
  }
  fputc(')', f);
  if (op->nregions) print_regions(f, op, depth);
  if (op->nattrs) {
    fputc(' ', f);
    print_named_attrs(f, op->attrs, op->nattrs);
  }
  fputs(" : (", f);
  print_type_list(f, op->opnds, op->nopnds);
  fputs(") -> ", f);
  if (op->nresults == 1) {
    type_print(f, op->results[0]->type);
  } else {
    fputc('(', f);
    print_type_list(f, op->results, op->nresults);
    fputc(')', f);
  }
  print_annotations(f, op);
  fputc('\n', f);
}

/* `%0 arg0, %1 result0`: the storage of a block's arguments (after the
 * buffers pass), after `lead`; nothing when they have none. */
static void print_arg_storage(FILE *f, const Block *b, const char *lead) {
  const char *sep = lead;
  for (int i = 0; i < b->nargs; i++) {
    const Value *v = b->args[i];
    if (v->storage == ST_NONE) continue;
    fputs(sep, f);
    print_value(f, v);
    fputc(' ', f);
    print_storage(f, v);
    sep = ", ";
  }
}

/* An entry block without arguments needs no label. */
static void print_block(FILE *f, const Block *b, int depth, int index, bool label) {
  if (label) {
    indent(f, depth - 1);
    fprintf(f, "^bb%d", index);
    if (b->nargs) {
      fputc('(', f);
      for (int i = 0; i < b->nargs; i++) {
        if (i) fputs(", ", f);
        print_value(f, b->args[i]);
        fputs(": ", f);
        type_print(f, b->args[i]->type);
      }
      fputc(')', f);
    }
    fputc(':', f);
    print_arg_storage(f, b, "  // ");
    fputc('\n', f);
  }
  for (const Op *op = b->first; op; op = op->next) print_op(f, op, depth);
}

/* ------------------------------------------------------------------------ */
/* Functions and the module                                                  */

static void print_func_signature(FILE *f, const Func *fn) {
  fprintf(f, "func.func %s ", fn->is_public ? "public" : "private");
  print_symbol_name(f, fn->name);
  fputc('(', f);
  int nargs = fn->body ? fn->body->nargs : 0;
  for (int i = 0; i < nargs; i++) {
    const Value *v = fn->body->args[i];
    if (i) fputs(", ", f);
    print_value(f, v);
    fputs(": ", f);
    type_print(f, v->type);
    if (fn->arg_attrs && fn->narg_attrs && fn->arg_attrs[i] && fn->narg_attrs[i] > 0) {
      fputc(' ', f);
      print_named_attrs(f, fn->arg_attrs[i], fn->narg_attrs[i]);
    }
  }
  fputc(')', f);
  if (fn->nresults == 0) return;
  fputs(" -> ", f);
  if (fn->nresults > 1) fputc('(', f);
  for (int i = 0; i < fn->nresults; i++) {
    if (i) fputs(", ", f);
    type_print(f, fn->result_types[i]);
  }
  if (fn->nresults > 1) fputc(')', f);
}

/* `// temp 4096 bytes; %0 arg0, %1 result0`: the buffers pass's plan for
 * the function as a comment line opening its body. */
static void print_func_plan(FILE *f, const Func *fn, int depth) {
  bool any = fn->temp_bytes > 0;
  for (int i = 0; i < fn->body->nargs; i++) any |= fn->body->args[i]->storage != ST_NONE;
  if (!any) return;
  indent(f, depth);
  fprintf(f, "// temp %lld bytes", (long long)fn->temp_bytes);
  print_arg_storage(f, fn->body, "; ");
  fputc('\n', f);
}

static void print_func_at(FILE *f, Func *fn, int depth) {
  indent(f, depth);
  if (fn->body) ir_number_values(fn);
  print_func_signature(f, fn);
  if (!fn->body) {
    fputc('\n', f);
    return;
  }
  fputs(" {\n", f);
  print_func_plan(f, fn, depth + 1);
  print_block(f, fn->body, depth + 1, 0, false);
  indent(f, depth);
  fputs("}\n", f);
}

void ir_print_module(FILE *f, Module *m) {
  fputs("module", f);
  if (m->name) {
    fputc(' ', f);
    print_symbol_name(f, m->name);
  }
  if (m->nattrs) {
    fputs(" attributes ", f);
    print_named_attrs(f, m->attrs, m->nattrs);
  }
  fputs(" {\n", f);
  for (int i = 0; i < m->nfuncs; i++) print_func_at(f, m->funcs[i], 1);
  fputs("}\n", f);
}
