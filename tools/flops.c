/* flops.c: the arithmetic work of a program for `shloc bench`, counted on
 * the parsed module: 2 FLOPs (a multiply and an add) per multiply-add of
 * dot_general, dot and convolution. Elementwise work is not counted: it is
 * bandwidth-bound and GB/s reports it better. */
#include "tools.h"

typedef struct FlopWalk {
  Module *m;
  double flops;
  int depth; /* of nested calls, against recursion */
} FlopWalk;

static double product(const Type *t, const I64List *dims) {
  double p = 1;
  for (int i = 0; i < dims->n; i++) p *= (double)t->dims[dims->v[i]];
  return p;
}

static double num_elems(const Type *t) {
  double p = 1;
  for (int i = 0; i < t->rank; i++) p *= (double)t->dims[i];
  return p;
}

/* spec: dot_general: every result element sums over the contracting dims. */
static double dot_general_flops(const Op *op) {
  return 2 * num_elems(op->results[0]->type) *
         product(op->opnds[0]->type, &op->a.dot.lhs_contract);
}

/* spec: dot: contracts the last dimension of lhs (vector or matrix). */
static double dot_flops(const Op *op) {
  const Type *lhs = op->opnds[0]->type;
  return 2 * num_elems(op->results[0]->type) * (double)lhs->dims[lhs->rank - 1];
}

/* spec: convolution: each output element sums over the kernel's input
 * features (the input features of its group) and spatial window. */
static double conv_flops(const Op *op) {
  const Type *k = op->opnds[1]->type;
  return 2 * num_elems(op->results[0]->type) * (double)k->dims[op->a.conv.k_in_feature] *
         product(k, &op->a.conv.k_spatial);
}

static bool static_types(const Op *op) {
  for (int i = 0; i < op->nopnds; i++)
    if (!type_is_tensor(op->opnds[i]->type) || !type_is_static(op->opnds[i]->type))
      return false;
  return op->nresults > 0 && type_is_static(op->results[0]->type);
}

static void count_op(Op *op, void *ctx);

static void count_func(FlopWalk *w, Func *f) {
  if (!f || w->depth > 32) return;
  w->depth++;
  ir_walk(f, count_op, w);
  w->depth--;
}

static void count_op(Op *op, void *ctx) {
  FlopWalk *w = ctx;
  if (op->code == OP_FUNC_CALL && op->a.callee) {
    count_func(w, ir_module_find_func(w->m, op->a.callee));
    return;
  }
  if (!static_types(op)) return;
  if (op->code == OP_DOT_GENERAL) w->flops += dot_general_flops(op);
  else if (op->code == OP_DOT) w->flops += dot_flops(op);
  else if (op->code == OP_CONVOLUTION) w->flops += conv_flops(op);
}

double flops_count(Module *m, const Func *f) {
  FlopWalk w = {m, 0, 0};
  count_func(&w, (Func *)f);
  return w.flops;
}
