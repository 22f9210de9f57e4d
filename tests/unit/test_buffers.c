/* Unit tests of the middle passes on modules built by hand: inline (calls,
 * recursion), legalize (dot, check custom calls), simplify (identities, CSE,
 * DCE), fuse (single use, cheap duplication, expensive producers, dot
 * operands) and buffers (arena reuse, results in place, loop state sharing
 * and the copies that protect it), and the checker of --verify-each. Ends
 * with `N passed, N failed`. */
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "ir/ir.h"

/* ------------------------------------------------------------------------ */
/* Building modules                                                          */

static const Loc NOLOC = {0};

static Type *f32(Module *m, int64_t n) {
  return type_tensor(m->types, ET_F32, 1, &n);
}

static Type *f32_2d(Module *m, int64_t r, int64_t c) {
  int64_t d[2] = {r, c};
  return type_tensor(m->types, ET_F32, 2, d);
}

static Type *scalar(Module *m, ElemType e) { return type_tensor(m->types, e, 0, NULL); }

static Func *new_func(Module *m, const char *name, bool pub, int nargs, Type **args,
                      int nres, Type **res) {
  Func *f = ir_func_new(m, name, NOLOC);
  f->is_public = pub;
  f->body = ir_block_new(m, nargs, args);
  f->nresults = nres;
  f->result_types = res;
  ir_module_add_func(m, f);
  return f;
}

/* Appends an op with one result of type t (or none when t is NULL). */
static Op *add_op(Module *m, Block *b, OpCode c, Type *t, int n, Value *x, Value *y) {
  Value *opnds[2] = {x, y};
  Op *op = ir_op_new(m, c, NOLOC, n, opnds, t ? 1 : 0, &t, 0);
  ir_block_append(b, op);
  return op;
}

static Value *un(Module *m, Block *b, OpCode c, Value *x) {
  return add_op(m, b, c, x->type, 1, x, NULL)->results[0];
}

static Value *bin(Module *m, Block *b, OpCode c, Value *x, Value *y) {
  return add_op(m, b, c, x->type, 2, x, y)->results[0];
}

static Op *ret(Module *m, Block *b, OpCode c, int n, Value **vals) {
  Op *op = ir_op_new(m, c, NOLOC, n, vals, 0, NULL, 0);
  ir_block_append(b, op);
  return op;
}

static Value *constant(Module *m, Block *b, Type *t, float v) {
  DenseData *d = ARENA_NEW(&m->arena, DenseData);
  d->type = t;
  d->splat = true;
  d->nbytes = 4;
  d->bytes = arena_alloc(&m->arena, 4);
  memcpy(d->bytes, &v, 4);
  Op *op = add_op(m, b, OP_CONSTANT, t, 0, NULL, NULL);
  op->a.value = d;
  return op->results[0];
}

static I64List list(Module *m, int n, const int64_t *v) {
  I64List l = {n, ARENA_ARRAY(&m->arena, int64_t, n)};
  memcpy(l.v, v, sizeof(int64_t) * (size_t)n);
  return l;
}

static int count_ops(Func *f, OpCode c) {
  int n = 0;
  for (Op *op = f->body->first; op; op = op->next) n += op->code == c;
  return n;
}

static CompileOptions opts(int level) {
  CompileOptions o = {0};
  o.opt_level = level;
  return o;
}

static int run_backend(Module *m, int level) {
  CompileOptions o = opts(level);
  return pass_simplify(m) + pass_fuse(m, &o) + pass_buffers(m, &o);
}

/* Parses MLIR text (the file lives as long as the process). */
static Module *parse(const char *text) {
  static SrcFile files[8];
  static int nfiles;
  SrcFile *f = &files[nfiles++ % 8];
  f->name = "test.mlir";
  f->text = text;
  f->len = strlen(text);
  ParseOptions po = {0};
  return parse_module(f, 0, f->len, &po);
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

/* ------------------------------------------------------------------------ */
/* inline                                                                    */

static void test_inline(void) {
  Module *m = ir_module_new();
  Type *t = f32(m, 4);
  Type *ts[1] = {t};
  Func *callee = new_func(m, "twice", false, 1, ts, 1, ts);
  Value *d = bin(m, callee->body, OP_ADD, callee->body->args[0], callee->body->args[0]);
  ret(m, callee->body, OP_FUNC_RETURN, 1, &d);
  Func *main_fn = new_func(m, "main", true, 1, ts, 1, ts);
  Value *x = main_fn->body->args[0];
  Op *c1 = add_op(m, main_fn->body, OP_FUNC_CALL, t, 1, x, NULL);
  c1->a.callee = "twice";
  Op *c2 = add_op(m, main_fn->body, OP_FUNC_CALL, t, 1, c1->results[0], NULL);
  c2->a.callee = "twice";
  Value *r = c2->results[0];
  ret(m, main_fn->body, OP_FUNC_RETURN, 1, &r);

  EXPECT(pass_inline(m) == 0);
  EXPECT(m->nfuncs == 1 && m->funcs[0] == main_fn);
  EXPECT(count_ops(main_fn, OP_FUNC_CALL) == 0);
  EXPECT(count_ops(main_fn, OP_ADD) == 2);
  Op *first = main_fn->body->first, *second = first->next;
  EXPECT(first->opnds[0] == x && first->opnds[1] == x);
  EXPECT(second->opnds[0] == first->results[0]);
  EXPECT(main_fn->body->last->opnds[0] == second->results[0]);
  ir_module_free(m);
}

static void test_inline_recursion(void) {
  Module *m = ir_module_new();
  Type *t = f32(m, 4);
  Type *ts[1] = {t};
  Func *f = new_func(m, "main", true, 1, ts, 1, ts);
  Op *c = add_op(m, f->body, OP_FUNC_CALL, t, 1, f->body->args[0], NULL);
  c->a.callee = "main";
  Value *r = c->results[0];
  ret(m, f->body, OP_FUNC_RETURN, 1, &r);
  diag_set_sink(keep_error, NULL);
  EXPECT(pass_inline(m) == 1);
  EXPECT(strstr(last_error, "recursive call of @main") != NULL);
  c->a.callee = "nowhere";
  EXPECT(pass_inline(m) == 1);
  EXPECT(strstr(last_error, "unknown function @nowhere") != NULL);
  diag_set_sink(NULL, NULL);
  ir_module_free(m);
}

/* ------------------------------------------------------------------------ */
/* legalize                                                                  */

static void test_legalize(void) {
  Module *m = ir_module_new();
  Type *mat = f32_2d(m, 2, 3), *mat2 = f32_2d(m, 3, 5), *out = f32_2d(m, 2, 5);
  Type *ts[2] = {mat, mat2};
  Func *f = new_func(m, "main", true, 2, ts, 1, &out);
  Block *b = f->body;
  Op *dot = add_op(m, b, OP_DOT, out, 2, b->args[0], b->args[1]);
  Op *cc = add_op(m, b, OP_CUSTOM_CALL, NULL, 2, dot->results[0], dot->results[0]);
  cc->a.call_target_name = "check.expect_close";
  Value *r = dot->results[0];
  ret(m, b, OP_FUNC_RETURN, 1, &r);

  CompileOptions o = opts(2);
  diag_set_sink(keep_error, NULL);
  EXPECT(pass_legalize(m, &o) == 1); /* checks need allow_checks */
  EXPECT(strstr(last_error, "only allowed in test programs") != NULL);
  o.allow_checks = true;
  EXPECT(pass_legalize(m, &o) == 0);
  EXPECT(dot->code == OP_DOT_GENERAL);
  EXPECT(dot->a.dot.lhs_contract.n == 1 && dot->a.dot.lhs_contract.v[0] == 1);
  EXPECT(dot->a.dot.rhs_contract.n == 1 && dot->a.dot.rhs_contract.v[0] == 0);
  EXPECT(dot->a.dot.lhs_batch.n == 0 && ir_attr(dot, "dot_dimension_numbers"));
  EXPECT(cc->code == OP_CHECK_EXPECT_CLOSE && cc->a.max_ulp == 3 && cc->a.min_ulp == 0);
  Op *bad = ir_op_new(m, OP_CUSTOM_CALL, NOLOC, 0, NULL, 0, NULL, 0);
  bad->a.call_target_name = "foo";
  ir_block_insert_before(b, b->last, bad);
  EXPECT(pass_legalize(m, &o) == 1);
  EXPECT(strstr(last_error, "custom_call @foo is not supported") != NULL);
  diag_set_sink(NULL, NULL);
  ir_module_free(m);
}

static void test_legalize_tuples(void) {
  Module *m = ir_module_new();
  Type *t = f32(m, 2);
  Type *ts[2] = {t, t};
  Func *f = new_func(m, "main", true, 2, ts, 1, ts);
  Block *b = f->body;
  Type *tt = type_tuple(m->types, 2, ts);
  Op *tup = add_op(m, b, OP_TUPLE, tt, 2, b->args[0], b->args[1]);
  Op *gte = add_op(m, b, OP_GET_TUPLE_ELEMENT, t, 1, tup->results[0], NULL);
  gte->a.index = 1;
  Value *r = gte->results[0];
  ret(m, b, OP_FUNC_RETURN, 1, &r);
  CompileOptions o = opts(2);
  EXPECT(pass_legalize(m, &o) == 0);
  EXPECT(b->first == b->last && b->last->opnds[0] == b->args[1]);
  ir_module_free(m);
}

/* ------------------------------------------------------------------------ */
/* simplify                                                                  */

static void test_simplify(void) {
  Module *m = ir_module_new();
  Type *t = f32(m, 8);
  Type *ts[1] = {t};
  Func *f = new_func(m, "main", true, 1, ts, 1, ts);
  Block *b = f->body;
  Value *x = b->args[0];
  Value *c1 = constant(m, b, t, 2.0f), *c2 = constant(m, b, t, 2.0f);
  Value *a1 = bin(m, b, OP_MULTIPLY, x, c1);
  Value *a2 = bin(m, b, OP_MULTIPLY, x, c2); /* same as a1 once c2 is c1 */
  Value *same = un(m, b, OP_RESHAPE, a2);    /* identity */
  un(m, b, OP_EXPONENTIAL, x);               /* dead */
  Value *s = bin(m, b, OP_ADD, a1, same);
  ret(m, b, OP_FUNC_RETURN, 1, &s);
  EXPECT(pass_simplify(m) == 0);
  EXPECT(count_ops(f, OP_CONSTANT) == 1);
  EXPECT(count_ops(f, OP_MULTIPLY) == 1);
  EXPECT(count_ops(f, OP_RESHAPE) == 0);
  EXPECT(count_ops(f, OP_EXPONENTIAL) == 0);
  Op *add = b->last->prev;
  EXPECT(add->code == OP_ADD && add->opnds[0] == a1 && add->opnds[1] == a1);
  ir_module_free(m);
}

/* ------------------------------------------------------------------------ */
/* fuse                                                                      */

/* y = exp(x); b = broadcast(y); z = b * b + c  ->  exp is not recomputed per
 * element of the broadcast; the broadcast (cheap) is duplicated. */
static void test_fuse(void) {
  Module *m = ir_module_new();
  Type *v = f32(m, 4), *mat = f32_2d(m, 3, 4);
  Type *ts[2] = {v, mat};
  Func *f = new_func(m, "main", true, 2, ts, 1, &mat);
  Block *b = f->body;
  Value *y = un(m, b, OP_EXPONENTIAL, b->args[0]);
  Op *bc = add_op(m, b, OP_BROADCAST_IN_DIM, mat, 1, y, NULL);
  int64_t dims[1] = {1};
  bc->a.broadcast_dimensions = list(m, 1, dims);
  Value *sq = bin(m, b, OP_MULTIPLY, bc->results[0], bc->results[0]);
  Value *z = bin(m, b, OP_ADD, sq, b->args[1]);
  ret(m, b, OP_FUNC_RETURN, 1, &z);
  EXPECT(run_backend(m, 2) == 0);
  EXPECT(!y->def->fused);
  EXPECT(bc->fused && sq->def->fused && !z->def->fused);
  EXPECT(y->storage == ST_TEMP && z->storage == ST_RESULT && z->offset == 0);
  EXPECT(bc->results[0]->storage == ST_NONE);
  EXPECT(bc->kernel == z->def->kernel && y->def->kernel != z->def->kernel);
  EXPECT(f->temp_bytes == 64);
  ir_module_free(m);
}

/* The operands of dot_general stay in memory; the dot, used only by an
 * elementwise add, becomes that kernel's GEMM epilogue source (fused, no
 * buffer: the GEMM accumulates in the add's result). */
static void test_fuse_dot(void) {
  Module *m = ir_module_new();
  Type *mat = f32_2d(m, 4, 4);
  Type *ts[2] = {mat, mat};
  Func *f = new_func(m, "main", true, 2, ts, 1, &mat);
  Block *b = f->body;
  Value *n = un(m, b, OP_NEGATE, b->args[0]);
  Op *dot = add_op(m, b, OP_DOT_GENERAL, mat, 2, n, b->args[1]);
  int64_t one = 1, zero = 0;
  dot->a.dot.lhs_contract = list(m, 1, &one);
  dot->a.dot.rhs_contract = list(m, 1, &zero);
  Value *r = bin(m, b, OP_ADD, dot->results[0], b->args[1]);
  ret(m, b, OP_FUNC_RETURN, 1, &r);
  EXPECT(run_backend(m, 3) == 0);
  EXPECT(!n->def->fused && dot->fused && !r->def->fused);
  EXPECT(n->storage == ST_TEMP && dot->results[0]->storage == ST_NONE);
  EXPECT(r->storage == ST_RESULT && dot->kernel == r->def->kernel);
  EXPECT(f->temp_bytes == 64);
  ir_module_free(m);
}

/* A dot with two users is no epilogue source: it keeps its buffer, which
 * overlaps its operand's lifetime (n dies at the dot: no sharing). */
static void test_fuse_dot_two_users(void) {
  Module *m = ir_module_new();
  Type *mat = f32_2d(m, 4, 4);
  Type *ts[2] = {mat, mat};
  Func *f = new_func(m, "main", true, 2, ts, 1, &mat);
  Block *b = f->body;
  Value *n = un(m, b, OP_NEGATE, b->args[0]);
  Op *dot = add_op(m, b, OP_DOT_GENERAL, mat, 2, n, b->args[1]);
  int64_t one = 1, zero = 0;
  dot->a.dot.lhs_contract = list(m, 1, &one);
  dot->a.dot.rhs_contract = list(m, 1, &zero);
  Value *r = bin(m, b, OP_ADD, dot->results[0], dot->results[0]);
  ret(m, b, OP_FUNC_RETURN, 1, &r);
  EXPECT(run_backend(m, 3) == 0);
  EXPECT(!n->def->fused && !dot->fused);
  EXPECT(n->storage == ST_TEMP && dot->results[0]->storage == ST_TEMP);
  EXPECT(n->offset != dot->results[0]->offset);
  EXPECT(f->temp_bytes == 128);
  ir_module_free(m);
}

/* The fusion rules on a softmax-like program (see passes/fuse.c):
 *  - the transpose and the exp feed the reduce, which reads each element
 *    once: fused, the reduce is the kernel;
 *  - %c = x - broadcast(sum) has two users but streams one buffer of its
 *    size: recomputed in both;
 *  - %s = x + y has two users and streams two buffers: stored;
 *  - %big = exp(z) feeding a broadcast: stored, not recomputed per element. */
static void test_fusion_rules(void) {
  Module *m = parse(
      "func.func @main(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>, %z: tensor<16xf32>)\n"
      "    -> (tensor<8xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<4x16xf32>) {\n"
      "  %zero = stablehlo.constant dense<0.0> : tensor<f32>\n"
      "  %t = stablehlo.transpose %x, dims = [1, 0] : (tensor<8x16xf32>) -> tensor<16x8xf32>\n"
      "  %e = stablehlo.exponential %t : tensor<16x8xf32>\n"
      "  %sum = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [0]\n"
      "      : (tensor<16x8xf32>, tensor<f32>) -> tensor<8xf32>\n"
      "  %b = stablehlo.broadcast_in_dim %sum, dims = [0] : (tensor<8xf32>) -> tensor<8x16xf32>\n"
      "  %c = stablehlo.subtract %x, %b : tensor<8x16xf32>\n"
      "  %s = stablehlo.add %x, %y : tensor<8x16xf32>\n"
      "  %u = stablehlo.multiply %c, %s : tensor<8x16xf32>\n"
      "  %v = stablehlo.divide %c, %s : tensor<8x16xf32>\n"
      "  %big = stablehlo.exponential %z : tensor<16xf32>\n"
      "  %w = stablehlo.broadcast_in_dim %big, dims = [1] : (tensor<16xf32>) -> tensor<4x16xf32>\n"
      "  return %sum, %u, %v, %w : tensor<8xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<4x16xf32>\n"
      "}\n");
  EXPECT(m != NULL);
  if (!m) return;
  Func *f = m->funcs[0];
  EXPECT(run_backend(m, 3) == 0);
  EXPECT(named(f, "t")->fused && named(f, "e")->fused && !named(f, "sum")->fused);
  EXPECT(named(f, "t")->kernel == named(f, "sum")->kernel);
  EXPECT(named(f, "b")->fused && named(f, "c")->fused);
  EXPECT(!named(f, "s")->fused && named(f, "s")->results[0]->storage == ST_TEMP);
  EXPECT(!named(f, "big")->fused && named(f, "big")->results[0]->storage == ST_TEMP);
  EXPECT(named(f, "sum")->results[0]->storage == ST_RESULT);
  EXPECT(named(f, "u")->results[0]->offset == 1 && named(f, "v")->results[0]->offset == 2);
  /* At -O0 every op but the constant is a kernel of its own. */
  EXPECT(run_backend(m, 0) == 0);
  EXPECT(!named(f, "t")->fused && named(f, "t")->results[0]->storage == ST_TEMP);
  EXPECT(named(f, "zero")->results[0]->storage == ST_CONST && named(f, "zero")->kernel == 0);
  ir_module_free(m);
}

/* ------------------------------------------------------------------------ */
/* buffers                                                                   */

/* At -O0 a chain of four kernels needs two arena slots: a value's slot is
 * free again once its consumer has run. */
static void test_reuse(void) {
  Module *m = ir_module_new();
  Type *t = f32(m, 100); /* 400 bytes -> 448 aligned */
  Type *ts[1] = {t};
  Func *f = new_func(m, "main", true, 1, ts, 1, ts);
  Block *b = f->body;
  Value *v = b->args[0];
  Value *chain[4];
  for (int i = 0; i < 4; i++) v = chain[i] = un(m, b, OP_NEGATE, v);
  ret(m, b, OP_FUNC_RETURN, 1, &v);
  EXPECT(run_backend(m, 0) == 0);
  EXPECT(b->args[0]->storage == ST_ARG && b->args[0]->offset == 0);
  EXPECT(chain[3]->storage == ST_RESULT);
  for (int i = 0; i < 3; i++) EXPECT(chain[i]->storage == ST_TEMP && chain[i]->offset % 64 == 0);
  EXPECT(chain[0]->offset != chain[1]->offset && chain[1]->offset != chain[2]->offset);
  EXPECT(chain[0]->offset == chain[2]->offset);
  EXPECT(f->temp_bytes == 2 * 448);
  ir_module_free(m);
}

/* A value returned twice is copied by codegen from its temp buffer. */
static void test_returned_twice(void) {
  Module *m = ir_module_new();
  Type *t = f32(m, 4);
  Type *ts[2] = {t, t};
  Func *f = new_func(m, "main", true, 1, ts, 2, ts);
  Block *b = f->body;
  Value *n = un(m, b, OP_NEGATE, b->args[0]);
  Value *rs[2] = {n, n};
  ret(m, b, OP_FUNC_RETURN, 2, rs);
  EXPECT(run_backend(m, 2) == 0);
  EXPECT(n->storage == ST_TEMP);
  ir_module_free(m);
}

/* while (i < n) { i = i + 1; swap(a, b) }: the swapped slots and the
 * outer value returned from the body get copies; cond and body arguments
 * share the storage of the while results. */
static void test_while(void) {
  Module *m = ir_module_new();
  Type *i64 = scalar(m, ET_SI64), *v = f32(m, 16), *i1 = scalar(m, ET_I1);
  Type *args[3] = {i64, v, v};
  Type *state[4] = {i64, v, v, v};
  Func *f = new_func(m, "main", true, 3, args, 2, state + 1);
  Block *b = f->body;
  Value *outer = un(m, b, OP_NEGATE, b->args[1]);
  Value *inits[4] = {b->args[0], b->args[1], b->args[2], b->args[2]};
  Op *w = ir_op_new(m, OP_WHILE, NOLOC, 4, inits, 4, state, 2);
  for (int r = 0; r < 2; r++) {
    w->regions[r] = ir_region_new(m, 1);
    w->regions[r]->parent = w;
    w->regions[r]->blocks[0] = ir_block_new(m, 4, state);
    w->regions[r]->blocks[0]->parent = w->regions[r];
  }
  ir_block_append(b, w);
  Block *cond = w->regions[0]->blocks[0], *body = w->regions[1]->blocks[0];
  Value *c = add_op(m, cond, OP_COMPARE, i1, 2, cond->args[0], b->args[0])->results[0];
  ret(m, cond, OP_RETURN, 1, &c);
  Value *i = bin(m, body, OP_ADD, body->args[0], body->args[0]);
  Value *outs[4] = {i, body->args[2], body->args[1], outer};
  ret(m, body, OP_RETURN, 4, outs);
  Value *rs[2] = {w->results[1], w->results[3]};
  ret(m, b, OP_FUNC_RETURN, 2, rs);

  EXPECT(run_backend(m, 2) == 0);
  Op *bret = body->last;
  EXPECT(count_ops(f, OP_WHILE) == 1);
  EXPECT(bret->opnds[0] == i);
  for (int k = 1; k < 4; k++) {
    Op *d = bret->opnds[k]->def;
    EXPECT(d && d->code == OP_RESHAPE && d->parent == body && !d->fused);
    EXPECT(bret->opnds[k]->storage == ST_TEMP);
  }
  EXPECT(w->results[1]->storage == ST_RESULT && w->results[1]->offset == 0);
  EXPECT(w->results[3]->storage == ST_RESULT && w->results[3]->offset == 1);
  EXPECT(w->results[0]->storage == ST_TEMP && w->results[2]->storage == ST_TEMP);
  for (int k = 0; k < 4; k++) {
    EXPECT(cond->args[k]->storage == w->results[k]->storage);
    EXPECT(body->args[k]->offset == w->results[k]->offset);
  }
  /* The outer value is read in every iteration: it must not share memory
   * with anything computed in the loop. */
  for (Op *op = body->first; op != bret; op = op->next)
    EXPECT(op->results[0]->offset != outer->offset);
  EXPECT(outer->offset != w->results[0]->offset && outer->offset != w->results[2]->offset);
  ir_module_free(m);
}

/* ------------------------------------------------------------------------ */
/* check (--verify-each)                                                     */

/* The checker accepts what fuse and buffers produce and reports each kind
 * of broken IR: an operand used before its definition, a fused value read
 * by a kernel that reads buffers, a misaligned temp. */
static void test_check(void) {
  Module *m = ir_module_new();
  Type *mat = f32_2d(m, 4, 4);
  Type *ts[2] = {mat, mat};
  Func *f = new_func(m, "main", true, 2, ts, 1, &mat);
  Block *b = f->body;
  Value *n = un(m, b, OP_NEGATE, b->args[0]);
  Value *e = un(m, b, OP_EXPONENTIAL, n);
  Value *r = bin(m, b, OP_ADD, e, b->args[1]);
  ret(m, b, OP_FUNC_RETURN, 1, &r);
  CompileOptions o = opts(3);
  EXPECT(pass_check(m, &o, "simplify") == 0);
  EXPECT(run_backend(m, 3) == 0);
  EXPECT(pass_check(m, &o, "buffers") == 0);
  diag_set_sink(keep_error, NULL);

  Op *add = r->def;
  add->opnds[1] = r; /* its own result: used before it is defined */
  EXPECT(pass_check(m, &o, "legalize") == 1);
  EXPECT(strstr(last_error, "not defined before its use") != NULL);
  add->opnds[1] = b->args[1];

  n->def->fused = true; /* fused, but the fused chain now ends in a dot */
  Op *dot = add_op(m, b, OP_DOT_GENERAL, mat, 2, n, b->args[1]);
  ir_block_remove(b, dot);
  ir_block_insert_before(b, b->last, dot);
  EXPECT(pass_check(m, &o, "fuse") >= 1);
  EXPECT(strstr(last_error, "not elementally") != NULL);
  ir_block_remove(b, dot);
  n->def->fused = false;

  e->storage = ST_TEMP;
  e->offset = 8;
  EXPECT(pass_check(m, &o, "buffers") >= 1);
  EXPECT(strstr(last_error, "misaligned") != NULL);
  diag_set_sink(NULL, NULL);
  ir_module_free(m);
}

int main(void) {
  test_inline();
  test_inline_recursion();
  test_legalize();
  test_legalize_tuples();
  test_simplify();
  test_fuse();
  test_fuse_dot();
  test_fuse_dot_two_users();
  test_fusion_rules();
  test_reuse();
  test_returned_twice();
  test_while();
  test_check();
  return unit_report();
}
