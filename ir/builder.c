/* builder.c: creating ops in passes. A Builder inserts each new op before a
 * position of a block and gives it a location; the op's typed attributes
 * (op->a) are set by the caller and written back to the generic list by
 * ir_build_done (attrs_encode), so --dump-after prints IR that parses
 * again and means what the typed attributes say. */
#include <string.h>

#include "ir.h"

Op *ir_build(Builder *b, OpCode code, int nopnds, Value *const *opnds, int nresults,
             Type *const *types, int nregions) {
  Op *op = ir_op_new(b->m, code, b->loc, nopnds, opnds, nresults, types, nregions);
  ir_block_insert_before(b->block, b->before, op);
  return op;
}

Value *ir_build_done(Builder *b, Op *op) {
  attrs_encode(b->m, op);
  return op->nresults ? op->results[0] : NULL;
}

Value *ir_build1(Builder *b, OpCode code, Type *t, int n, Value *const *in) {
  return ir_build_done(b, ir_build(b, code, n, in, 1, &t, 0));
}

Value *ir_build_unary(Builder *b, OpCode code, Value *x) {
  return ir_build1(b, code, x->type, 1, &x);
}

Value *ir_build_binary(Builder *b, OpCode code, Value *x, Value *y) {
  Value *in[2] = {x, y};
  return ir_build1(b, code, x->type, 2, in);
}

Value *ir_build_select(Builder *b, Value *pred, Value *on_true, Value *on_false) {
  Value *in[3] = {pred, on_true, on_false};
  return ir_build1(b, OP_SELECT, on_true->type, 3, in);
}

Value *ir_build_clamp(Builder *b, Value *lo, Value *x, Value *hi) {
  Value *in[3] = {lo, x, hi};
  return ir_build1(b, OP_CLAMP, x->type, 3, in);
}

Value *ir_build_convert(Builder *b, Value *x, ElemType e) {
  return ir_build1(b, OP_CONVERT, type_with_elem(b->m->types, x->type, e), 1, &x);
}

Value *ir_build_compare(Builder *b, CmpDir dir, Value *x, Value *y, CmpType type) {
  Value *in[2] = {x, y};
  Type *t = type_with_elem(b->m->types, x->type, ET_I1);
  Op *op = ir_build(b, OP_COMPARE, 2, in, 1, &t, 0);
  op->a.comparison_direction = dir;
  op->a.compare_type = type;
  return ir_build_done(b, op);
}

Value *ir_build_constant(Builder *b, const DenseData *d) {
  Type *t = (Type *)d->type;
  Op *op = ir_build(b, OP_CONSTANT, 0, NULL, 1, &t, 0);
  op->a.value = d;
  return ir_build_done(b, op);
}

Value *ir_build_splat(Builder *b, Type *t, uint64_t bits) {
  return ir_build_constant(b, ir_dense_splat(b->m, t, bits));
}

DenseData *ir_dense_splat(Module *m, Type *t, uint64_t bits) {
  DenseData *d = ARENA_NEW(&m->arena, DenseData);
  d->type = t;
  d->splat = true;
  d->nbytes = (size_t)elem_bytes(t->elem);
  d->bytes = arena_alloc(&m->arena, d->nbytes ? d->nbytes : 1);
  for (size_t i = 0; i < d->nbytes && i < 8; i++) d->bytes[i] = (uint8_t)(bits >> (8 * i));
  return d;
}

DenseData *ir_dense_ints(Module *m, Type *t, const int64_t *v, int64_t n) {
  DenseData *d = ARENA_NEW(&m->arena, DenseData);
  int eb = elem_bytes(t->elem);
  d->type = t;
  d->nbytes = (size_t)eb * (size_t)n;
  d->bytes = arena_alloc(&m->arena, d->nbytes ? d->nbytes : 1);
  for (int64_t i = 0; i < n; i++)
    for (int k = 0; k < eb && k < 8; k++) d->bytes[i * eb + k] = (uint8_t)((uint64_t)v[i] >> (8 * k));
  return d;
}

/* spec "dot": dot_general contracting the last dimension of lhs with the
 * first of rhs, with no batch dimensions. */
void ir_make_dot_general(Module *m, Op *op) {
  int64_t lhs_contract = op->opnds[0]->type->rank - 1, rhs_contract = 0;
  op->code = OP_DOT_GENERAL;
  op->a.dot = (DotDims){.lhs_contract = ir_list(m, &lhs_contract, 1),
                        .rhs_contract = ir_list(m, &rhs_contract, 1)};
  attrs_encode(m, op);
}
