/* legalize.c: rewrites ops that need no codegen of their own into ops that
 * have one, and rejects what cannot be compiled with a located error.
 *
 *  - `stablehlo.dot` becomes `stablehlo.dot_general` contracting the last
 *    dimension of lhs with the first of rhs (spec: dot is dot_general with
 *    those dimension numbers and no batch dimensions).
 *  - `custom_call @check.*` of the conformance protocol (exported JAX tests)
 *    becomes the matching check op: expect_close with max_ulp 3, min_ulp 0;
 *    expect_eq; expect_almost_eq with tolerance 0.001; eq with a tensor<i1>
 *    result. Check ops (and interpreter.probe and run_parallel) are
 *    accepted only when CompileOptions.allow_checks (`shloc check`); a
 *    library object has no way to report them.
 *  - `custom_call @Sharding` (JAX's sharding annotation) is the identity on
 *    one device; every other custom_call is an error.
 *  - `optimization_barrier` is the identity (spec: it only constrains the
 *    order of optimizations, and our passes never move work across kernels).
 *  - `get_tuple_element(tuple(a, b), i)` is forwarded to the element; tuples
 *    left without uses are removed and any other tuple is an error, since
 *    buffers and the C interface have no tuple layout.
 */
#include <stdlib.h>
#include <string.h>

#include "../ir/ir.h"

typedef struct Legalizer {
  Module *m;
  Func *f;
  const CompileOptions *o;
  int errors;
} Legalizer;

/* Every op of f in program order (an op before the ops of its regions), so
 * that rewriting one op never invalidates the traversal. */
static OpList all_ops(Func *f) {
  OpList l = {0};
  ir_collect_ops(f, &l);
  return l;
}

/* ------------------------------------------------------------------------ */
/* dot -> dot_general                                                        */

static bool is_quantized(const Op *op) {
  for (int i = 0; i < op->nopnds; i++)
    if (op->opnds[i]->type->kind == TY_TENSOR && op->opnds[i]->type->elem == ET_QUANT)
      return true;
  return false;
}

/* Quantized dots stay as they are: dot_general adds quantization
 * constraints (C13-C20) that `dot` does not have, and codegen rejects
 * quantized types either way. */
static void legalize_dot(Legalizer *lg, Op *op) {
  if (!is_quantized(op)) ir_make_dot_general(lg->m, op);
}

/* ------------------------------------------------------------------------ */
/* custom_call                                                               */

/* Turns the custom_call into check op `code` with the given attributes
 * (spec of the conformance protocol, see conformance/README.md). */
static void to_check(Legalizer *lg, Op *op, OpCode code) {
  op->code = code;
  op->nattrs = 0;
  op->attrs = NULL;
  attrs_decode(lg->m, op); /* the schema's defaults: max_ulp 3, min_ulp 0 */
  if (code == OP_CHECK_EXPECT_ALMOST_EQ) op->a.tolerance = 0.001;
  attrs_encode(lg->m, op);
}

static bool is_i1_scalar(const Type *t) {
  return t->kind == TY_TENSOR && t->rank == 0 && t->elem == ET_I1;
}

static bool check_call_shape(Legalizer *lg, Op *op, const char *name, int nresults) {
  bool ok = op->nopnds == 2 && op->nresults == nresults &&
            (nresults == 0 || is_i1_scalar(op->results[0]->type));
  if (ok) return true;
  diag_error(op->loc, "custom_call @%s: expected 2 operands and %s", name,
             nresults ? "one tensor<i1> result" : "no result");
  lg->errors++;
  return false;
}

static void legalize_custom_call(Legalizer *lg, Op *op) {
  static const struct {
    const char *name;
    OpCode code;
    int nresults;
  } checks[] = {
      {"check.expect_close", OP_CHECK_EXPECT_CLOSE, 0},
      {"check.expect_eq", OP_CHECK_EXPECT_EQ, 0},
      {"check.expect_almost_eq", OP_CHECK_EXPECT_ALMOST_EQ, 0},
      {"check.eq", OP_CHECK_EQ, 1},
  };
  const char *name = op->a.call_target_name ? op->a.call_target_name : "";
  for (size_t i = 0; i < sizeof checks / sizeof checks[0]; i++) {
    if (strcmp(name, checks[i].name)) continue;
    if (check_call_shape(lg, op, name, checks[i].nresults))
      to_check(lg, op, checks[i].code);
    return;
  }
  if (!strcmp(name, "Sharding") && op->nopnds == 1 && op->nresults == 1 &&
      op->opnds[0]->type == op->results[0]->type) {
    ir_replace_uses(lg->f, op->results[0], op->opnds[0]);
    ir_block_remove(op->parent, op);
    return;
  }
  /* Checked when a symbolic entry is called (codegen/dyndims.c). */
  if (ir_is_shape_assertion(op) && lg->f->sym) return;
  diag_error(op->loc, "custom_call @%s is not supported", name);
  lg->errors++;
}

/* ------------------------------------------------------------------------ */
/* Identity ops and tuples                                                   */

static void forward_results(Legalizer *lg, Op *op) {
  for (int i = 0; i < op->nresults; i++)
    ir_replace_uses(lg->f, op->results[i], op->opnds[i]);
  ir_block_remove(op->parent, op);
}

static void forward_tuple_element(Legalizer *lg, Op *op) {
  Op *t = op->opnds[0]->def;
  if (!t || t->code != OP_TUPLE || op->a.index < 0 || op->a.index >= t->nopnds) return;
  ir_replace_uses(lg->f, op->results[0], t->opnds[op->a.index]);
}

static bool is_tuple_op(const Op *op) {
  return op->code == OP_TUPLE || op->code == OP_GET_TUPLE_ELEMENT;
}

/* Removes tuple and get_tuple_element ops without uses, consumers first so
 * that a tuple feeding only dead tuples goes too; reports the others. */
static void remove_tuples(Legalizer *lg) {
  ir_recount_uses(lg->f);
  OpList l = all_ops(lg->f);
  for (int i = l.n - 1; i >= 0; i--) {
    Op *op = l.v[i];
    if (!is_tuple_op(op) || op->results[0]->nuses > 0) continue;
    for (int k = 0; k < op->nopnds; k++) op->opnds[k]->nuses--;
    ir_block_remove(op->parent, op);
    l.v[i] = NULL;
  }
  for (int i = 0; i < l.n; i++) {
    if (!l.v[i] || !is_tuple_op(l.v[i])) continue;
    diag_error(l.v[i]->loc, "tuple values are not supported yet");
    lg->errors++;
  }
  free(l.v);
}

/* ------------------------------------------------------------------------ */

static void legalize_op(Legalizer *lg, Op *op) {
  bool test_only = (op_flags(op->code) & OPF_CHECK) || op->code == OP_INTERPRETER_PROBE ||
                   op->code == OP_INTERPRETER_RUN_PARALLEL;
  if (test_only && !lg->o->allow_checks) {
    diag_error(op->loc, "%s is only allowed in test programs (`shloc check`)",
               op_name(op->code));
    lg->errors++;
    return;
  }
  switch (op->code) {
  case OP_DOT: legalize_dot(lg, op); return;
  case OP_CUSTOM_CALL:
    legalize_custom_call(lg, op);
    if (op->code != OP_CUSTOM_CALL && (op_flags(op->code) & OPF_CHECK) &&
        !lg->o->allow_checks) {
      diag_error(op->loc, "custom_call @%s is only allowed in test programs (`shloc check`)",
                 op_name(op->code));
      lg->errors++;
    }
    return;
  case OP_OPTIMIZATION_BARRIER: forward_results(lg, op); return;
  case OP_GET_TUPLE_ELEMENT: forward_tuple_element(lg, op); return;
  default: return;
  }
}

static void legalize_func(Legalizer *lg, Func *f) {
  lg->f = f;
  OpList l = all_ops(f);
  for (int i = 0; i < l.n; i++) legalize_op(lg, l.v[i]);
  free(l.v);
  remove_tuples(lg);
  ir_number_values(f);
  ir_recount_uses(f);
}

int pass_legalize(Module *m, const CompileOptions *o) {
  static const CompileOptions defaults = {0};
  Legalizer lg = {m, NULL, o ? o : &defaults, 0};
  for (int i = 0; i < m->nfuncs; i++)
    if (m->funcs[i]->body) legalize_func(&lg, m->funcs[i]);
  return lg.errors;
}
