/* header.c: the C header that goes with the object.
 *
 * For each entry point F (every public function, or only o->entry) with
 * prefix P it declares
 *     int P_F(const T *arg..., T *result0, ..., void *temp);
 * or, for an entry that calls the grid ABI (ir_func_needs_proc),
 *     int P_F(..., void *temp, struct shlort_proc *proc);
 *     int32_t P_F__grid(void *args, struct shlort_proc *proc);
 * with P_F_NUM_REPLICAS / P_F_NUM_PARTITIONS when the grid size is known;
 * with shapes, dtypes and byte sizes in a comment, the macros
 * P_F_TEMP_BYTES, P_F_NUM_ARGS, P_F_NUM_RESULTS, P_F_ARGi_BYTES,
 * P_F_RESULTi_BYTES (upper case), and a static descriptor table
 * P_F_tensors[] for generic callers (and, with --packed-entry,
 * `int32_t P_F__packed(void **args)`). The header includes only <stddef.h>
 * and <stdint.h> and needs no symbol from the object beyond the entry
 * points, and it compiles as C99 and as C++. */
#include <ctype.h>
#include <string.h>

#include "codegen_api.h"

char *cg_c_ident(Arena *a, const char *s) {
  size_t n = strlen(s);
  char *out = arena_alloc(a, n + 2), *p = out;
  if (n == 0 || isdigit((unsigned char)s[0])) *p++ = '_';
  for (size_t i = 0; i < n; i++)
    *p++ = isalnum((unsigned char)s[i]) ? s[i] : '_';
  return out;
}

char *cg_entry_name(Arena *a, const CompileOptions *o, const Func *f) {
  if (!o->prefix || !o->prefix[0]) return cg_c_ident(a, f->name);
  return cg_c_ident(a, arena_printf(a, "%s_%s", o->prefix, f->name));
}

static char *upper(Arena *a, const char *s) {
  char *u = arena_strdup(a, s);
  for (char *p = u; *p; p++) *p = (char)toupper((unsigned char)*p);
  return u;
}

/* Identifiers an argument may not be called: C and C++ keywords, and the
 * names the prototype itself uses. */
static bool reserved_name(const char *s) {
  static const char *const words[] = {
      "auto", "break", "case", "char", "const", "continue", "default", "do",
      "double", "else", "enum", "extern", "float", "for", "goto", "if",
      "inline", "int", "long", "register", "restrict", "return", "short",
      "signed", "sizeof", "static", "struct", "switch", "typedef", "union",
      "unsigned", "void", "volatile", "while", "_Bool", "_Complex",
      "_Imaginary", "alignas", "alignof", "and", "and_eq", "asm", "bitand",
      "bitor", "bool", "catch", "char16_t", "char32_t", "char8_t", "class",
      "compl", "concept", "consteval", "constexpr", "constinit", "const_cast",
      "co_await", "co_return", "co_yield", "decltype", "delete",
      "dynamic_cast", "explicit", "export", "false", "friend", "mutable",
      "namespace", "new", "noexcept", "not", "not_eq", "nullptr", "operator",
      "or", "or_eq", "private", "protected", "public", "reinterpret_cast",
      "requires", "static_assert", "static_cast", "template", "this",
      "thread_local", "throw", "true", "try", "typeid", "typename", "using",
      "virtual", "wchar_t", "xor", "xor_eq", "temp", "NULL"};
  for (size_t i = 0; i < sizeof words / sizeof *words; i++)
    if (!strcmp(s, words[i])) return true;
  /* `result<digits>` is how results are named. */
  if (!strncmp(s, "result", 6) && s[6] && strspn(s + 6, "0123456789") == strlen(s + 6))
    return true;
  /* Names with two leading underscores or _Upper are the implementation's. */
  return s[0] == '_' && (s[1] == '_' || isupper((unsigned char)s[1]));
}

/* Parameter names for the arguments of f: the source names (`%x` -> x)
 * where they make a usable C identifier, else argN; made unique. */
static char **arg_names(Arena *a, const Func *f) {
  int n = f->body->nargs;
  char **names = ARENA_ARRAY(a, char *, n > 0 ? n : 1);
  for (int i = 0; i < n; i++) {
    const char *src = f->body->args[i]->name;
    char *c = src && src[0] && !isdigit((unsigned char)src[0]) ? cg_c_ident(a, src) : NULL;
    if (!c || reserved_name(c)) c = arena_printf(a, "arg%d", i);
    for (int j = 0; j < i; j++)
      if (!strcmp(names[j], c)) {
        c = arena_printf(a, "%s_%d", c, i);
        j = -1; /* recheck against all earlier names */
      }
    names[i] = c;
  }
  return names;
}

/* An entry signature is expressible in C when every argument and result is
 * a statically shaped tensor of an element type codegen implements. */
static int check_entry_type(Module *m, const Func *f, const Type *t, const char *what,
                            int i) {
  if (type_is_tensor(t) && (type_is_static(t) || f->sym) && elem_supported(t->elem)) return 0;
  diag_error(f->loc, "@%s: %s %d has type %s; entry points take statically shaped "
             "tensors of supported element types", f->name, what, i, type_str(&m->arena, t));
  return 1;
}

static int check_entry(Module *m, const Func *f) {
  int errors = 0;
  for (int i = 0; i < f->body->nargs; i++)
    errors += check_entry_type(m, f, f->body->args[i]->type, "argument", i);
  for (int i = 0; i < f->nresults; i++)
    errors += check_entry_type(m, f, f->result_types[i], "result", i);
  return errors;
}

static void write_dims(FILE *out, const Type *t) {
  for (int d = 0; d < t->rank; d++) fprintf(out, "%s%lld", d ? ", " : "", (long long)t->dims[d]);
}

/* One line of the comment above the prototype: "  x  tensor<2x3xf32>  24 bytes". */
static void write_tensor_comment(FILE *out, const char *name, const Type *t) {
  fprintf(out, " *   %-12s ", name);
  type_print(out, t);
  fprintf(out, ", %lld bytes\n", (long long)type_byte_size(t));
}

static void write_prototype(FILE *out, const char *entry, const Func *f, char **args,
                            bool grid) {
  fprintf(out, "int %s(", entry);
  for (int i = 0; i < f->body->nargs; i++)
    fprintf(out, "const %s *%s, ", elem_ctype(f->body->args[i]->type->elem), args[i]);
  for (int i = 0; i < f->nresults; i++)
    fprintf(out, "%s *result%d, ", elem_ctype(f->result_types[i]->elem), i);
  fprintf(out, grid ? "void *temp, struct shlort_proc *proc);\n" : "void *temp);\n");
  if (grid) fprintf(out, "int32_t %s__grid(void *args, struct shlort_proc *proc);\n", entry);
}

/* How to run an entry that takes a process context (docs/runtime.md). */
static const char grid_comment[] =
    " * SPMD: proc is this process's context in a grid of processes (runtime/\n"
    " * shlort.h). Link libshlort.a to run the grid as threads of one process:\n"
    " * shlort_grid_run with one shlort_task per process (row-major: process\n"
    " * (r, p) is r * num_partitions + p), each task's entry the __grid function\n"
    " * below and its arg a void *[] of this process's arguments, results and\n"
    " * temp. Or link libshlort_mpi.a (and mpicc) to run one process per MPI\n"
    " * rank: shlort_mpi_run (shlort_mpi.h). A failed runtime call returns its\n"
    " * status (shlort_status); shlort_proc_message(proc) says why.\n";

/* The grid the entry was compiled for (checked at run time). */
static void write_grid_macros(FILE *out, const char *up, const Module *m) {
  int64_t r, p;
  ir_module_grid(m, &r, &p);
  if (r > 0 || p > 0)
    fprintf(out, "#define %s_NUM_REPLICAS %lld\n#define %s_NUM_PARTITIONS %lld\n", up,
            (long long)(r > 0 ? r : 1), up, (long long)(p > 0 ? p : 1));
}

static void write_macros(FILE *out, const char *up, const Func *f) {
  fprintf(out, "#define %s_TEMP_BYTES ((size_t)%lld)\n", up, (long long)f->temp_bytes);
  fprintf(out, "#define %s_NUM_ARGS %d\n", up, f->body->nargs);
  fprintf(out, "#define %s_NUM_RESULTS %d\n", up, f->nresults);
  for (int i = 0; i < f->body->nargs; i++)
    fprintf(out, "#define %s_ARG%d_BYTES ((size_t)%lld)\n", up, i,
            (long long)type_byte_size(f->body->args[i]->type));
  for (int i = 0; i < f->nresults; i++)
    fprintf(out, "#define %s_RESULT%d_BYTES ((size_t)%lld)\n", up, i,
            (long long)type_byte_size(f->result_types[i]));
}

static void write_desc(FILE *out, const char *entry, const char *kind, int i,
                       const char *name, const Type *t) {
  fprintf(out, "  {\"%s\", \"%s\", %d, ", name, elem_name(t->elem), t->rank);
  if (t->rank) fprintf(out, "%s_%s%d_dims, ", entry, kind, i);
  else fprintf(out, "NULL, ");
  fprintf(out, "%lld},\n", (long long)type_byte_size(t));
}

/* The dims arrays (rank 0 has none: C has no empty arrays) and the table:
 * arguments, then results, then an entry whose name is NULL. */
static void write_descriptors(FILE *out, const char *entry, const char *up, const Func *f,
                              char **args) {
  for (int i = 0; i < f->body->nargs; i++) {
    const Type *t = f->body->args[i]->type;
    if (!t->rank) continue;
    fprintf(out, "static const int64_t %s_arg%d_dims[] = {", entry, i);
    write_dims(out, t);
    fprintf(out, "};\n");
  }
  for (int i = 0; i < f->nresults; i++) {
    const Type *t = f->result_types[i];
    if (!t->rank) continue;
    fprintf(out, "static const int64_t %s_result%d_dims[] = {", entry, i);
    write_dims(out, t);
    fprintf(out, "};\n");
  }
  fprintf(out, "/* %s_NUM_ARGS arguments, then %s_NUM_RESULTS results, then an entry\n"
               " * whose name is NULL. */\n", up, up);
  fprintf(out, "static const shloc_tensor_desc SHLOC_UNUSED %s_tensors[] = {\n", entry);
  for (int i = 0; i < f->body->nargs; i++)
    write_desc(out, entry, "arg", i, args[i], f->body->args[i]->type);
  for (int i = 0; i < f->nresults; i++) {
    char name[32];
    snprintf(name, sizeof name, "result%d", i);
    write_desc(out, entry, "result", i, name, f->result_types[i]);
  }
  fprintf(out, "  {NULL, NULL, 0, NULL, 0}};\n");
}

/* ------------------------------------------------------------------------ */
/* Entries with symbolic sizes (codegen/dyndims.c)                           */

/* The C name of symbol k: the JAX dimension variable's, else the
 * argument's name and the dimension (`x_dim0`). */
static const char *sym_name(Arena *a, const Func *f, char **args, int k) {
  const DimSym *s = &f->sym->syms[k];
  if (s->dim < 0) return arena_printf(a, "dim_%s", cg_c_ident(a, s->name));
  return arena_printf(a, "%s_dim%d", args[s->arg], s->dim);
}

static void write_sym_params(FILE *out, Arena *a, const Func *f, char **args) {
  for (int k = 0; k < f->sym->nsyms; k++)
    fprintf(out, "%sint64_t %s", k ? ", " : "", sym_name(a, f, args, k));
}

/* "tensor<?x8xf32>, sizes {x_dim0, 8}" */
static void write_sym_tensor(FILE *out, Arena *a, const Func *f, char **args, const char *name,
                             const Type *t, const DimExpr *const *sym) {
  SymInfo named = *f->sym;
  named.syms = ARENA_ARRAY(a, DimSym, named.nsyms);
  for (int k = 0; k < named.nsyms; k++)
    named.syms[k] = (DimSym){sym_name(a, f, args, k), f->sym->syms[k].arg, f->sym->syms[k].dim};
  fprintf(out, " *   %-12s ", name);
  type_print(out, t);
  fprintf(out, ", sizes {");
  for (int d = 0; d < t->rank; d++) {
    if (t->dims[d] != DIM_DYNAMIC) fprintf(out, "%s%lld", d ? ", " : "", (long long)t->dims[d]);
    else fprintf(out, "%s%s", d ? ", " : "", dx_str(a, &named, sym[d]));
  }
  fprintf(out, "}\n");
}

/* The largest byte size of v with every symbol within its bound, or -1
 * when a symbol is unbounded (or the product overflows). */
static int64_t max_bytes(const Value *v, const int64_t *ub) {
  int64_t n = elem_bytes(v->type->elem);
  for (int i = 0; i < v->type->rank; i++) {
    int64_t d = v->type->dims[i] != DIM_DYNAMIC ? v->type->dims[i] : dx_upper_bound(v->sym[i], ub);
    if (d == INT64_MAX || __builtin_mul_overflow(n, d > 0 ? d : 0, &n)) return -1;
  }
  return n;
}

/* P_F_TEMP_BYTES_MAX and P_F_RESULTi_BYTES_MAX when every symbol has an
 * upper bound (#stablehlo.bounds of the arguments, carried over the
 * program's equalities): static worst cases, for callers that size their
 * buffers once (the GEMM scratch at its bound for any target). */
static void write_max_macros(FILE *out, Module *m, const CompileOptions *o, const char *up,
                             Func *f) {
  int64_t ub[f->sym->nsyms + 1];
  dx_sym_bounds(f->sym, ub);
  for (int k = 0; k < f->sym->nsyms; k++)
    if (ub[k] == INT64_MAX) return;
  int64_t temp = dx_upper_bound(cg_symbolic_plan(m, f, o->opt_level, NULL, NULL, NULL), ub);
  const Op *ret = ir_block_terminator(f->body);
  if (temp == INT64_MAX || __builtin_add_overflow(temp, cg_symbolic_scratch_bound(f, o->threads), &temp))
    return;
  fprintf(out, "#define %s_TEMP_BYTES_MAX ((size_t)%lld)\n", up, (long long)temp);
  for (int i = 0; i < f->nresults; i++) {
    int64_t n = max_bytes(ret->opnds[i], ub);
    if (n >= 0) fprintf(out, "#define %s_RESULT%d_BYTES_MAX ((size_t)%lld)\n", up, i, (long long)n);
  }
}

static void write_symbolic_entry(FILE *out, Module *m, const CompileOptions *o,
                                 const char *entry, Func *f, char **args) {
  Arena *a = &m->arena;
  const Op *ret = ir_block_terminator(f->body);
  fprintf(out, "/* @%s, compiled with symbolic sizes: one int64_t per symbol\n", f->name);
  for (int k = 0; k < f->sym->nsyms; k++) {
    const DimSym *s = &f->sym->syms[k];
    if (s->dim < 0)
      fprintf(out, " *   %-12s dimension variable %s, the value of %s\n", sym_name(a, f, args, k),
              s->name, args[s->arg]);
    else
      fprintf(out, " *   %-12s size %d of %s\n", sym_name(a, f, args, k), s->dim, args[s->arg]);
  }
  for (int i = 0; i < f->body->nargs; i++)
    write_sym_tensor(out, a, f, args, args[i], f->body->args[i]->type, f->body->args[i]->sym);
  for (int i = 0; i < f->nresults; i++)
    write_sym_tensor(out, a, f, args, arena_printf(a, "result%d", i), ret->opnds[i]->type,
                     ret->opnds[i]->sym);
  fprintf(out, " *   %-12s %s_temp_bytes(sizes) bytes of scratch, 64-byte aligned\n"
               " * %s_result_dims(sizes, i, out) writes the sizes of result i to out.\n"
               " * Returns 0 on success, 1 (before touching memory) when the sizes are\n"
               " * negative, overflow, exceed a bound (#stablehlo.bounds) or break a\n"
               " * constraint of the program (sizes it requires equal, a dimension\n"
               " * variable that is not its argument's value), 2 when a shape assertion\n"
               " * of the program fails: then it has written the assertion's message to\n"
               " * the start of temp.\n"
               " * %s_status_message(status, temp) says why: \"\" for 0, a fixed\n"
               " * text for 1, that message for 2 (valid until temp is used again; no\n"
               " * global state, so calls on other temps may run at the same time).\n"
               " * `/` in the sizes above rounds down, as Python's //. */\n",
          "temp", entry, entry, entry);
  fprintf(out, "int %s(", entry);
  for (int i = 0; i < f->body->nargs; i++)
    fprintf(out, "const %s *%s, ", elem_ctype(f->body->args[i]->type->elem), args[i]);
  for (int i = 0; i < f->nresults; i++)
    fprintf(out, "%s *result%d, ", elem_ctype(f->result_types[i]->elem), i);
  fprintf(out, "void *temp, ");
  write_sym_params(out, a, f, args);
  fprintf(out, ");\nint64_t %s_temp_bytes(", entry);
  write_sym_params(out, a, f, args);
  fprintf(out, ");\nvoid %s_result_dims(", entry);
  write_sym_params(out, a, f, args);
  fprintf(out, "%sint result, int64_t *out);\n", f->sym->nsyms ? ", " : "");
  fprintf(out, "const char *%s_status_message(int status, const void *temp);\n", entry);
  const char *up = upper(a, entry);
  fprintf(out, "#define %s_NUM_ARGS %d\n#define %s_NUM_RESULTS %d\n#define %s_NUM_SIZES %d\n",
          up, f->body->nargs, up, f->nresults, up, f->sym->nsyms);
  write_max_macros(out, m, o, up, f);
  fprintf(out, "\n");
}

static void write_entry(FILE *out, Module *m, const CompileOptions *o, Func *f) {
  Arena *a = &m->arena;
  bool grid = ir_func_needs_proc(f);
  const char *entry = cg_entry_name(a, o, f);
  const char *up = upper(a, entry);
  char **args = arg_names(a, f);
  if (f->sym) {
    write_symbolic_entry(out, m, o, entry, f, args);
    return;
  }
  fprintf(out, "/* @%s\n", f->name);
  for (int i = 0; i < f->body->nargs; i++)
    write_tensor_comment(out, args[i], f->body->args[i]->type);
  for (int i = 0; i < f->nresults; i++) {
    char name[32];
    snprintf(name, sizeof name, "result%d", i);
    write_tensor_comment(out, name, f->result_types[i]);
  }
  fprintf(out, " *   %-12s %s_TEMP_BYTES bytes of scratch, 64-byte aligned\n", "temp", up);
  if (grid) fprintf(out, "%s", grid_comment);
  fprintf(out, " * Returns 0 on success%s. */\n",
          o->check_args ? ", SHLOC_BAD_ARGUMENT for a NULL or misaligned buffer" : "");
  if (grid) fprintf(out, "struct shlort_proc;\n");
  write_prototype(out, entry, f, args, grid);
  if (o->packed_entry && !grid) /* a grid entry has P_F__grid instead */
    fprintf(out, "/* --packed-entry: the same with args[] = the arguments, the results,\n"
                 " * then temp (generic callers). */\n"
                 "int32_t %s__packed(void **args);\n", entry);
  write_macros(out, up, f);
  if (grid) write_grid_macros(out, up, m);
  write_descriptors(out, entry, up, f, args);
  fprintf(out, "\n");
}

static const char preamble[] =
    "#include <stddef.h>\n"
    "#include <stdint.h>\n"
    "\n"
    "#ifdef __cplusplus\n"
    "extern \"C\" {\n"
    "#endif\n"
    "\n"
    "/* Buffers are row-major and hold the element type's C type: i1 as uint8_t\n"
    " * 0/1, i2/i4 (ui2/ui4) as int8_t (uint8_t) sign- (zero-) extended, f16\n"
    " * and bf16 as uint16_t bit patterns, complex<f32> (complex<f64>) as\n"
    " * float (double) (real, imaginary) pairs. Results and temp must not\n"
    " * overlap the arguments. Calls are reentrant: two threads may run an entry\n"
    " * at once with different result and temp buffers.\n"
    " * Every buffer of non-zero size must be non-NULL and aligned to its C\n"
    " * element type (a complex one: to its part type), temp to 64 bytes;\n"
    " * buffers of zero size may be NULL. Unchecked, unless compiled with\n"
    " * --check-args: then an entry returns SHLOC_BAD_ARGUMENT, before any\n"
    " * work, when one is not. */\n"
    "\n"
    "#ifndef SHLOC_BAD_ARGUMENT\n"
    "#define SHLOC_BAD_ARGUMENT 2\n"
    "#endif\n"
    "\n"
    "#ifndef SHLOC_TENSOR_DESC_DEFINED\n"
    "#define SHLOC_TENSOR_DESC_DEFINED\n"
    "/* One argument or result of an entry point, for generic callers. */\n"
    "typedef struct shloc_tensor_desc {\n"
    "  const char *name;     /* parameter name */\n"
    "  const char *dtype;    /* MLIR element type: \"f32\", \"i1\", \"bf16\", ... */\n"
    "  int32_t rank;\n"
    "  const int64_t *dims;  /* rank sizes; NULL when rank is 0 */\n"
    "  size_t bytes;         /* buffer size */\n"
    "} shloc_tensor_desc;\n"
    "/* The tables are static in every file that includes a header: a file\n"
    " * that does not use them should not be warned about them. */\n"
    "#if defined(__GNUC__) || defined(__clang__)\n"
    "#define SHLOC_UNUSED __attribute__((unused))\n"
    "#else\n"
    "#define SHLOC_UNUSED\n"
    "#endif\n"
    "#endif\n"
    "\n";

static const char postamble[] =
    "#ifdef __cplusplus\n"
    "}\n"
    "#endif\n"
    "\n";

/* The loader of --weights=file (codegen/weights.c has the file's layout). */
static void write_weights(FILE *out, Module *m, const CompileOptions *o) {
  if (o->weights == WEIGHTS_SECTION)
    fprintf(out, "/* Constants are in the linker section \"%s\" (--weights=section). */\n\n",
            o->weights_section);
  if (o->weights != WEIGHTS_FILE) return;
  fprintf(out,
          "/* --weights=file: the constants are in the .bin file written beside the\n"
          " * object. Call this once with its bytes (64-byte aligned, e.g. mmap'ed,\n"
          " * alive while the entries run) before any entry point. Returns 0, 1 if\n"
          " * bytes is not 64-byte aligned, 2 if size is not the file's, 3 if the\n"
          " * file is not this object's (magic, version, size or fingerprint). */\n"
          "int %s(const void *bytes, size_t size);\n\n",
          cg_weights_loader_name(&m->arena, o));
}

int header_write(FILE *f, Module *m, const CompileOptions *o) {
  int errors = 0, found = 0;
  for (int i = 0; i < m->nfuncs; i++)
    if (ir_func_is_entry(m, m->funcs[i], o)) {
      errors += check_entry(m, m->funcs[i]);
      found++;
    }
  if (o->entry && !found) {
    diag_error(m->loc, "no function @%s in the module", o->entry);
    return 1;
  }
  if (errors) return errors;
  const char *guard = upper(&m->arena, cg_c_ident(&m->arena, arena_printf(
      &m->arena, "SHLOC_%s_H", o->prefix && o->prefix[0] ? o->prefix : "MODULE")));
  fprintf(f, "/* Generated by shloc: the entry points of the object compiled with\n"
             " * prefix %s. Do not edit. */\n", o->prefix ? o->prefix : "(none)");
  fprintf(f, "#ifndef %s\n#define %s\n\n%s", guard, guard, preamble);
  for (int i = 0; i < m->nfuncs; i++)
    if (ir_func_is_entry(m, m->funcs[i], o)) write_entry(f, m, o, m->funcs[i]);
  write_weights(f, m, o);
  fprintf(f, "%s#endif\n", postamble);
  return 0;
}
