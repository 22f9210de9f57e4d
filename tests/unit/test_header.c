/* Unit tests of the generated header (codegen/header.c) on modules built by
 * hand: prototypes, parameter names, macros, descriptor tables, the entry
 * filter, errors for signatures C cannot express, and that the text
 * compiles as strict C99 and C++ (when cc / g++ are available). Ends with
 * `N passed, N failed`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "codegen/codegen_api.h"
#include "ir/ir.h"

static Type *tensor(Module *m, ElemType e, int rank, const int64_t *dims) {
  return type_tensor(m->types, e, rank, dims);
}

/* Adds func @name(args named names[i]) -> results, temp_bytes 4096. */
static Func *add_func(Module *m, const char *name, bool pub, int nargs, Type **args,
                      const char **names, int nres, Type **res) {
  Func *f = ir_func_new(m, name, (Loc){0});
  f->is_public = pub;
  f->body = ir_block_new(m, nargs, args);
  for (int i = 0; i < nargs; i++) f->body->args[i]->name = names[i];
  f->nresults = nres;
  f->result_types = res;
  f->temp_bytes = 4096;
  ir_module_add_func(m, f);
  return f;
}

/* Writes the header of m into a malloc'ed string; NULL when header_write
 * failed. */
static char *header_text(Module *m, const CompileOptions *o) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  int rc = header_write(f, m, o);
  fclose(f);
  if (rc) {
    free(buf);
    return NULL;
  }
  return buf;
}

static Module *sample_module(void) {
  Module *m = ir_module_new();
  static const int64_t d23[] = {2, 3}, d4[] = {4}, big[] = {1024, 1024, 1024};
  Type **a = ARENA_ARRAY(&m->arena, Type *, 6), **r = ARENA_ARRAY(&m->arena, Type *, 2);
  a[0] = tensor(m, ET_F32, 2, d23);   /* named x */
  a[1] = tensor(m, ET_SI32, 1, d4);   /* `%0`: a digit, becomes arg1 */
  a[2] = tensor(m, ET_I1, 0, NULL);   /* `int`: a keyword, becomes arg2 */
  a[3] = tensor(m, ET_BF16, 1, d4);   /* `x`, a duplicate: x_3 */
  a[4] = tensor(m, ET_F16, 3, big);   /* `a.b-c`: a_b_c; 2 GiB */
  a[5] = tensor(m, ET_UI8, 1, d4);    /* `result0` would clash: arg5 */
  static const char *names[] = {"x", "0", "int", "x", "a.b-c", "result0"};
  r[0] = tensor(m, ET_F64, 0, NULL);
  r[1] = tensor(m, ET_SI64, 2, d23);
  add_func(m, "main", true, 6, a, names, 2, r);
  add_func(m, "helper", false, 1, a, names, 1, r);
  Type **b = ARENA_ARRAY(&m->arena, Type *, 1);
  b[0] = tensor(m, ET_F32, 2, d23);
  add_func(m, "second.fn", true, 0, NULL, NULL, 1, b);
  return m;
}

static void quiet(void *ctx, const char *text) {
  (void)ctx;
  (void)text;
}

static void test_content(void) {
  Module *m = sample_module();
  CompileOptions o = {.prefix = "mdl"};
  char *h = header_text(m, &o);
  EXPECT(h != NULL);
  if (!h) return;
  EXPECT(strstr(h, "#ifndef SHLOC_MDL_H\n#define SHLOC_MDL_H\n") != NULL);
  EXPECT(strstr(h, "int mdl_main(const float *x, const int32_t *arg1, const uint8_t *arg2, "
                   "const uint16_t *x_3, const uint16_t *a_b_c, const uint8_t *arg5, "
                   "double *result0, int64_t *result1, void *temp);") != NULL);
  EXPECT(strstr(h, "int mdl_second_fn(float *result0, void *temp);") != NULL);
  EXPECT(strstr(h, "helper") == NULL); /* private functions stay out */
  EXPECT(strstr(h, "#define MDL_MAIN_TEMP_BYTES ((size_t)4096)") != NULL);
  EXPECT(strstr(h, "#define MDL_MAIN_NUM_ARGS 6") != NULL);
  EXPECT(strstr(h, "#define MDL_MAIN_NUM_RESULTS 2") != NULL);
  EXPECT(strstr(h, "#define MDL_MAIN_ARG0_BYTES ((size_t)24)") != NULL);
  EXPECT(strstr(h, "#define MDL_MAIN_ARG2_BYTES ((size_t)1)") != NULL);
  EXPECT(strstr(h, "#define MDL_MAIN_ARG4_BYTES ((size_t)2147483648)") != NULL);
  EXPECT(strstr(h, "#define MDL_MAIN_RESULT1_BYTES ((size_t)48)") != NULL);
  EXPECT(strstr(h, "static const int64_t mdl_main_arg0_dims[] = {2, 3};") != NULL);
  EXPECT(strstr(h, "{\"x\", \"f32\", 2, mdl_main_arg0_dims, 24},") != NULL);
  EXPECT(strstr(h, "{\"arg2\", \"i1\", 0, NULL, 1},") != NULL);
  EXPECT(strstr(h, "{\"x_3\", \"bf16\", 1, mdl_main_arg3_dims, 8},") != NULL);
  EXPECT(strstr(h, "{\"result0\", \"f64\", 0, NULL, 8},") != NULL);
  EXPECT(strstr(h, "{NULL, NULL, 0, NULL, 0}};") != NULL);
  EXPECT(strstr(h, " *   x            tensor<2x3xf32>, 24 bytes") != NULL);
  /* --entry: only that function, even a private one. */
  o.entry = "helper";
  char *h2 = header_text(m, &o);
  EXPECT(h2 && strstr(h2, "int mdl_helper(") && !strstr(h2, "mdl_main("));
  o.entry = "absent";
  diag_set_sink(quiet, NULL);
  EXPECT(header_text(m, &o) == NULL);
  diag_set_sink(NULL, NULL);
  free(h);
  free(h2);
  ir_module_free(m);
}

/* Signatures the header cannot express are errors, never a guess. */
static void test_errors(void) {
  Module *m = ir_module_new();
  static const int64_t dyn[] = {DIM_DYNAMIC, 3};
  Type **a = ARENA_ARRAY(&m->arena, Type *, 1);
  a[0] = tensor(m, ET_F32, 2, dyn);
  static const char *names[] = {"x"};
  add_func(m, "main", true, 1, a, names, 0, NULL);
  CompileOptions o = {.prefix = "p"};
  diag_set_sink(quiet, NULL);
  diag_reset();
  EXPECT(header_text(m, &o) == NULL);
  EXPECT(diag_error_count() == 1);
  a[0] = type_token(m->types);
  EXPECT(header_text(m, &o) == NULL);
  diag_set_sink(NULL, NULL);
  ir_module_free(m);
}

static void test_names(void) {
  Arena a = {0};
  Module *m = ir_module_new();
  Func *f = add_func(m, "main", true, 0, NULL, NULL, 0, NULL);
  EXPECT(!strcmp(cg_c_ident(&a, "9lives.x"), "_9lives_x"));
  EXPECT(!strcmp(cg_c_ident(&a, ""), "_"));
  CompileOptions o = {.prefix = "jit_main"};
  EXPECT(!strcmp(cg_entry_name(&a, &o, f), "jit_main_main"));
  o.prefix = NULL;
  EXPECT(!strcmp(cg_entry_name(&a, &o, f), "main"));
  arena_free(&a);
  ir_module_free(m);
}

/* The header compiles cleanly as C99 and C++ (skipped without compilers). */
static void test_compiles(void) {
  if (system("cc --version >/dev/null 2>&1") || system("g++ --version >/dev/null 2>&1")) {
    printf("NOTICE: cc or g++ missing; compile checks skipped\n");
    return;
  }
  Module *m = sample_module();
  CompileOptions o = {.prefix = "mdl"};
  char *h = header_text(m, &o);
  char dir[] = "/tmp/shloc-header-XXXXXX";
  if (!h || !mkdtemp(dir)) {
    EXPECT(0);
    return;
  }
  char path[256], cmd[1024];
  snprintf(path, sizeof path, "%s/mdl.h", dir);
  FILE *f = fopen(path, "w");
  fputs(h, f);
  fclose(f);
  snprintf(path, sizeof path, "%s/use.c", dir);
  f = fopen(path, "w");
  fputs("#include \"mdl.h\"\n#include \"mdl.h\"\n"
        "int walk(void) { int n = 0; for (const shloc_tensor_desc *d = mdl_main_tensors; d->name; d++) n++; "
        "return n + MDL_MAIN_NUM_ARGS + (int)sizeof(char[MDL_MAIN_TEMP_BYTES]); }\n", f);
  fclose(f);
  snprintf(cmd, sizeof cmd, "cd %s && cc -std=c99 -Wall -Wextra -pedantic -Werror -c use.c -o c.o"
           " && g++ -std=c++11 -Wall -Wextra -pedantic -Werror -x c++ -c use.c -o cxx.o"
           " && cc -std=c99 -Wall -Wextra -pedantic -Werror -x c -fsyntax-only mdl.h"
           " && (! clang --version >/dev/null 2>&1 ||"
           " clang -std=c99 -Wall -Wextra -pedantic -Werror -x c -fsyntax-only mdl.h)", dir);
  EXPECT(system(cmd) == 0);
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  if (system(cmd)) printf("NOTICE: could not remove %s\n", dir);
  free(h);
  ir_module_free(m);
}

int main(void) {
  test_content();
  test_errors();
  test_names();
  test_compiles();
  return unit_report();
}
