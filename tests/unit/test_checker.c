/* Unit test of the checker of --verify-each (passes/check.c) on IR broken
 * by hand, which text input cannot express. The passes themselves are
 * tested on text: tests/passes (the IR after each pass) and tests/frontend
 * (their diagnostics). Ends with `N passed, N failed`. */
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "ir/ir.h"

static Module *parse(const char *text) {
  static SrcFile file;
  file.name = "test.mlir";
  file.text = text;
  file.len = strlen(text);
  ParseOptions po = {0};
  return parse_module(&file, 0, file.len, &po);
}

/* The op defining the value named %name in the source. */
typedef struct Find {
  const char *name;
  Op *op;
} Find;

static void find_named(Op *op, void *ctx) {
  Find *q = ctx;
  for (int i = 0; i < op->nresults; i++)
    if (op->results[i]->name && !strcmp(op->results[i]->name, q->name)) q->op = op;
}

static Op *named(Func *f, const char *name) {
  Find q = {name, NULL};
  ir_walk(f, find_named, &q);
  return q.op;
}

static char last_error[512];
static void keep_error(void *ctx, const char *text) {
  (void)ctx;
  snprintf(last_error, sizeof last_error, "%s", text);
}

/* The checker accepts what the passes produce and reports each kind of
 * broken IR: an operand used before its definition, a fused value read by
 * a kernel that reads buffers, a misaligned temp. */
static void test_check(void) {
  Module *m = parse(
      "func.func @main(%x: tensor<4x4xf32>, %y: tensor<4x4xf32>) -> tensor<4x4xf32> {\n"
      "  %n = stablehlo.negate %x : tensor<4x4xf32>\n"
      "  %e = stablehlo.exponential %n : tensor<4x4xf32>\n"
      "  %r = stablehlo.add %e, %e : tensor<4x4xf32>\n"
      "  return %r : tensor<4x4xf32>\n"
      "}\n");
  EXPECT(m != NULL);
  if (!m) return;
  Func *f = m->funcs[0];
  CompileOptions o = {.opt_level = 3};
  EXPECT(pass_check(m, &o, "parse") == 0);
  EXPECT(pass_simplify(m) == 0 && pass_fuse(m, &o) == 0 && pass_buffers(m, &o) == 0);
  EXPECT(pass_check(m, &o, "buffers") == 0);
  Op *n = named(f, "n"), *e = named(f, "e"), *add = named(f, "r");
  EXPECT(n->fused && !e->fused && e->results[0]->storage == ST_TEMP);
  diag_set_sink(keep_error, NULL);

  add->opnds[1] = add->results[0]; /* its own result: used before it is defined */
  EXPECT(pass_check(m, &o, "legalize") == 1);
  EXPECT(strstr(last_error, "not defined before its use") != NULL);
  add->opnds[1] = e->results[0];

  e->code = OP_DOT_GENERAL; /* reads the fused negate from a buffer */
  EXPECT(pass_check(m, &o, "fuse") >= 1);
  EXPECT(strstr(last_error, "not elementally") != NULL);
  e->code = OP_EXPONENTIAL;
  EXPECT(pass_check(m, &o, "buffers") == 0);

  e->results[0]->offset = 8;
  EXPECT(pass_check(m, &o, "buffers") >= 1);
  EXPECT(strstr(last_error, "misaligned") != NULL);
  diag_set_sink(NULL, NULL);
  ir_module_free(m);
}

int main(void) {
  test_check();
  return unit_report();
}
