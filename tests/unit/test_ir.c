/* Unit tests of ir/: type interning and spelling, the element type table,
 * the arena, diagnostics, op lists and use/def helpers, value numbering,
 * reading dense literals, and size expressions over run-time values. Prints only failures, then `N passed, N failed`. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "ir/ir.h"

/* Exact double comparison (same bits, so -0.0 != 0.0 and NaN == NaN). */
#define EXPECT_F64(got, want) expect_f64(__LINE__, (got), (want))
static void expect_f64(int line, double got, double want) {
  if (!memcmp(&got, &want, sizeof got) || (isnan(got) && isnan(want))) {
    passed++;
    return;
  }
  failed++;
  printf("FAIL %s:%d: got %.17g, want %.17g\n", __FILE__, line, got, want);
}

static const Loc noloc = {0};

/* ------------------------------------------------------------------------ */
/* Types                                                                     */

static void test_tensor_types_are_interned(void) {
  Module *m = ir_module_new();
  TypeTable *t = m->types;
  int64_t d23[] = {2, 3}, other23[] = {2, 3}, d32[] = {3, 2}, dyn[] = {2, DIM_DYNAMIC};
  Type *a = type_tensor(t, ET_F32, 2, d23);
  EXPECT(a == type_tensor(t, ET_F32, 2, other23)); /* structure, not the array */
  EXPECT(a != type_tensor(t, ET_F32, 2, d32));
  EXPECT(a != type_tensor(t, ET_F16, 2, d23));
  EXPECT(a != type_tensor(t, ET_F32, 1, d23));
  EXPECT(a != type_tensor(t, ET_F32, 2, dyn));
  EXPECT(type_tensor(t, ET_F32, 2, dyn) == type_tensor(t, ET_F32, 2, dyn));
  other23[0] = 7; /* the interned type keeps its own copy of the dims */
  EXPECT_I64(a->dims[0], 2);
  EXPECT(a->dims != d23);

  Type *scalar = type_tensor(t, ET_SI32, 0, NULL);
  int64_t one[] = {1};
  EXPECT(scalar == type_tensor(t, ET_SI32, 0, NULL));
  EXPECT(scalar != type_tensor(t, ET_SI32, 1, one));
  EXPECT(type_with_elem(t, a, ET_SI8) == type_tensor(t, ET_SI8, 2, d23));
  EXPECT(type_with_elem(t, a, ET_F32) == a);
  ir_module_free(m);
}

static void test_many_types_survive_table_growth(void) {
  Module *m = ir_module_new();
  Type *first[3000];
  for (int i = 0; i < 3000; i++) {
    int64_t d[2] = {i, i % 7};
    first[i] = type_tensor(m->types, (ElemType)(i % ET_F64), 2, d);
  }
  int same = 0;
  for (int i = 0; i < 3000; i++) {
    int64_t d[2] = {i, i % 7};
    same += type_tensor(m->types, (ElemType)(i % ET_F64), 2, d) == first[i];
  }
  EXPECT_I64(same, 3000);
  ir_module_free(m);
}

static void test_token_and_tuple_types_are_interned(void) {
  Module *m = ir_module_new();
  TypeTable *t = m->types;
  Type *f32 = type_tensor(t, ET_F32, 0, NULL), *tok = type_token(t);
  EXPECT(tok == type_token(t));
  Type *ab[] = {f32, tok}, *ab2[] = {f32, tok}, *ba[] = {tok, f32};
  Type *tup = type_tuple(t, 2, ab);
  EXPECT(tup == type_tuple(t, 2, ab2));
  EXPECT(tup != type_tuple(t, 2, ba)); /* order matters */
  EXPECT(tup != type_tuple(t, 1, ab));
  Type *empty = type_tuple(t, 0, NULL);
  EXPECT(empty == type_tuple(t, 0, NULL));
  EXPECT(empty != tok);
  EXPECT(type_tuple(t, 1, &empty) != empty); /* tuple<tuple<>> */
  EXPECT(type_tuple(t, 1, &empty) == type_tuple(t, 1, &empty));
  ir_module_free(m);
}

static void test_quantized_types_intern_by_quant_info(void) {
  Module *m = ir_module_new();
  TypeTable *t = m->types;
  double s1 = 0.5, s2 = 0.25;
  int64_t z = 0;
  QuantInfo q1 = {ET_SI8, ET_F32, 0, 0, -1, 1, &s1, &z};
  QuantInfo q2 = {ET_SI8, ET_F32, 0, 0, -1, 1, &s2, &z};
  int64_t d[] = {4};
  Type *a = type_tensor_quant(t, &q1, 1, d);
  EXPECT(a == type_tensor_quant(t, &q1, 1, d));
  EXPECT(a != type_tensor_quant(t, &q2, 1, d));
  EXPECT(a != type_tensor(t, ET_SI8, 1, d));
  EXPECT(a->elem == ET_QUANT && a->quant == &q1);
  ir_module_free(m);
}

static void test_type_print_spellings(void) {
  Module *m = ir_module_new();
  TypeTable *t = m->types;
  Arena *a = &m->arena;
  int64_t d23[] = {2, 3}, dyn[] = {DIM_DYNAMIC, 4}, zero[] = {0, 5}, two[] = {2};
  EXPECT_STR(type_str(a, type_tensor(t, ET_F32, 2, d23)), "tensor<2x3xf32>");
  EXPECT_STR(type_str(a, type_tensor(t, ET_F32, 0, NULL)), "tensor<f32>");
  EXPECT_STR(type_str(a, type_tensor(t, ET_SI8, 2, dyn)), "tensor<?x4xi8>");
  EXPECT_STR(type_str(a, type_tensor(t, ET_BF16, 2, zero)), "tensor<0x5xbf16>");
  EXPECT_STR(type_str(a, type_tensor(t, ET_C64, 1, two)), "tensor<2xcomplex<f32>>");
  EXPECT_STR(type_str(a, type_tensor(t, ET_UI16, 1, two)), "tensor<2xui16>");
  EXPECT_STR(type_str(a, type_tensor(t, ET_I1, 0, NULL)), "tensor<i1>");
  EXPECT_STR(type_str(a, type_tensor(t, ET_F8E4M3FN, 0, NULL)), "tensor<f8E4M3FN>");
  Type *tok = type_token(t);
  EXPECT_STR(type_str(a, tok), "!stablehlo.token");
  Type *elems[] = {type_tensor(t, ET_F32, 0, NULL), tok};
  EXPECT_STR(type_str(a, type_tuple(t, 2, elems)), "tuple<tensor<f32>, !stablehlo.token>");
  Type *empty = type_tuple(t, 0, NULL);
  EXPECT_STR(type_str(a, empty), "tuple<>");
  EXPECT_STR(type_str(a, type_tuple(t, 1, &empty)), "tuple<tuple<>>");

  double s = 0.5;
  int64_t zp = 3;
  QuantInfo q = {ET_SI8, ET_F32, 0, 0, -1, 1, &s, &zp};
  EXPECT_STR(type_str(a, type_tensor_quant(t, &q, 1, two)),
             "tensor<2x!quant.uniform<i8:f32, 0.5:3>>");
  QuantInfo ranged = {ET_SI8, ET_F32, -8, 7, -1, 1, &s, &zp};
  EXPECT_STR(type_str(a, type_tensor_quant(t, &ranged, 0, NULL)),
             "tensor<!quant.uniform<i8<-8:7>:f32, 0.5:3>>");
  double scales[] = {0.5, 0.25};
  int64_t zps[] = {1, 0};
  QuantInfo axis = {ET_UI8, ET_F16, 0, 0, 1, 2, scales, zps};
  EXPECT_STR(type_str(a, type_tensor_quant(t, &axis, 1, two)),
             "tensor<2x!quant.uniform<ui8:f16:1, {0.5:1,0.25}>>");
  ir_module_free(m);
}

static void test_type_sizes(void) {
  Module *m = ir_module_new();
  TypeTable *t = m->types;
  int64_t d23[] = {2, 3}, dyn[] = {2, DIM_DYNAMIC}, zero[] = {0, 5}, five[] = {5}, two[] = {2};
  Type *f32x6 = type_tensor(t, ET_F32, 2, d23);
  EXPECT_I64(type_num_elems(f32x6), 6);
  EXPECT_I64(type_byte_size(f32x6), 24);
  EXPECT_I64(type_num_elems(type_tensor(t, ET_F32, 0, NULL)), 1);
  EXPECT_I64(type_num_elems(type_tensor(t, ET_F32, 2, zero)), 0);
  EXPECT_I64(type_num_elems(type_tensor(t, ET_F32, 2, dyn)), -1);
  EXPECT_I64(type_byte_size(type_tensor(t, ET_F32, 2, dyn)), -1);
  EXPECT_I64(type_byte_size(type_tensor(t, ET_I1, 1, five)), 5);     /* a byte per bool */
  EXPECT_I64(type_byte_size(type_tensor(t, ET_SI4, 1, five)), 5);    /* a byte per i4 */
  EXPECT_I64(type_byte_size(type_tensor(t, ET_C128, 1, two)), 32);
  EXPECT_I64(type_byte_size(type_token(t)), 0);
  EXPECT(type_is_static(f32x6));
  EXPECT(!type_is_static(type_tensor(t, ET_F32, 2, dyn)));
  Type *elems[] = {f32x6, type_tensor(t, ET_F32, 2, dyn)};
  EXPECT(type_is_static(type_tuple(t, 1, elems)));
  EXPECT(!type_is_static(type_tuple(t, 2, elems)));
  EXPECT(type_is_tensor(f32x6));
  EXPECT(!type_is_tensor(type_token(t)));
  EXPECT(!type_is_tensor(type_tuple(t, 1, elems)));
  int64_t d234[] = {2, 3, 4}, strides[3];
  ir_strides(type_tensor(t, ET_F32, 3, d234), strides);
  EXPECT(strides[0] == 12 && strides[1] == 4 && strides[2] == 1);
  ir_module_free(m);
}

/* ------------------------------------------------------------------------ */
/* Element types                                                             */

static void test_elem_table(void) {
  static const struct {
    ElemType e;
    const char *name;
    int bits, bytes;
    char cls;
  } want[] = {
      {ET_I1, "i1", 1, 1, 'b'},           {ET_SI2, "i2", 2, 1, 's'},
      {ET_SI4, "i4", 4, 1, 's'},          {ET_SI8, "i8", 8, 1, 's'},
      {ET_SI16, "i16", 16, 2, 's'},       {ET_SI32, "i32", 32, 4, 's'},
      {ET_SI64, "i64", 64, 8, 's'},       {ET_UI2, "ui2", 2, 1, 'u'},
      {ET_UI4, "ui4", 4, 1, 'u'},         {ET_UI8, "ui8", 8, 1, 'u'},
      {ET_UI16, "ui16", 16, 2, 'u'},      {ET_UI32, "ui32", 32, 4, 'u'},
      {ET_UI64, "ui64", 64, 8, 'u'},      {ET_F4E2M1FN, "f4E2M1FN", 4, 1, 'f'},
      {ET_F6E2M3FN, "f6E2M3FN", 6, 1, 'f'}, {ET_F6E3M2FN, "f6E3M2FN", 6, 1, 'f'},
      {ET_F8E3M4, "f8E3M4", 8, 1, 'f'},   {ET_F8E4M3, "f8E4M3", 8, 1, 'f'},
      {ET_F8E4M3FN, "f8E4M3FN", 8, 1, 'f'}, {ET_F8E4M3FNUZ, "f8E4M3FNUZ", 8, 1, 'f'},
      {ET_F8E4M3B11FNUZ, "f8E4M3B11FNUZ", 8, 1, 'f'}, {ET_F8E5M2, "f8E5M2", 8, 1, 'f'},
      {ET_F8E5M2FNUZ, "f8E5M2FNUZ", 8, 1, 'f'}, {ET_F8E8M0FNU, "f8E8M0FNU", 8, 1, 'f'},
      {ET_BF16, "bf16", 16, 2, 'f'},      {ET_F16, "f16", 16, 2, 'f'},
      {ET_TF32, "tf32", 19, 4, 'f'},      {ET_F32, "f32", 32, 4, 'f'},
      {ET_F64, "f64", 64, 8, 'f'},        {ET_C64, "complex<f32>", 64, 8, 'c'},
      {ET_C128, "complex<f64>", 128, 16, 'c'}, {ET_INDEX, "index", 64, 8, 's'},
  };
  int n = (int)(sizeof want / sizeof want[0]);
  EXPECT_I64(n, ET_COUNT - 1); /* every type but ET_QUANT */
  for (int i = 0; i < n; i++) {
    ElemType e = want[i].e;
    if (strcmp(elem_name(e), want[i].name) || elem_bits(e) != want[i].bits ||
        elem_bytes(e) != want[i].bytes || elem_class(e) != want[i].cls) {
      failed++;
      printf("FAIL elem %s: got %s bits %d bytes %d class %c\n", want[i].name, elem_name(e),
             elem_bits(e), elem_bytes(e), elem_class(e));
      continue;
    }
    passed++;
    EXPECT(elem_lookup(want[i].name, strlen(want[i].name)) == e);
    EXPECT(elem_is_int(e) == (want[i].cls == 's' || want[i].cls == 'u'));
    EXPECT(elem_is_float(e) == (want[i].cls == 'f'));
    EXPECT(elem_is_complex(e) == (want[i].cls == 'c'));
  }
  EXPECT(elem_class(ET_QUANT) == 'q');
}

static void test_elem_lookup_spellings(void) {
  EXPECT(elem_lookup("si32", 4) == ET_SI32);
  EXPECT(elem_lookup("f32x", 3) == ET_F32); /* only n bytes are read */
  EXPECT(elem_lookup("f3", 2) == ET_COUNT);
  EXPECT(elem_lookup("f33", 3) == ET_COUNT);
  EXPECT(elem_lookup("", 0) == ET_COUNT);
  EXPECT(elem_lookup("I32", 3) == ET_COUNT);
  EXPECT_STR(elem_ctype(ET_F32), "float");
  EXPECT_STR(elem_ctype(ET_BF16), "uint16_t");
  EXPECT_STR(elem_ctype(ET_I1), "uint8_t");
  EXPECT(elem_supported(ET_F32) && elem_supported(ET_I1) && elem_supported(ET_UI64));
  EXPECT(elem_supported(ET_C64) && elem_supported(ET_C128) && elem_supported(ET_SI4) &&
         elem_supported(ET_UI2));
  EXPECT(elem_supported(ET_F8E4M3FN) && elem_supported(ET_F4E2M1FN) &&
         elem_supported(ET_F8E8M0FNU));
  EXPECT(!elem_supported(ET_TF32) && !elem_supported(ET_QUANT));
  FloatFormat ff;
  EXPECT(elem_small_float(ET_F8E4M3FNUZ, &ff) && ff.ebits == 4 && ff.mbits == 3 &&
         ff.bias == 8 && ff.kind == FK_FNUZ);
  EXPECT(!elem_small_float(ET_BF16, &ff));
}

static void test_op_table(void) {
  EXPECT(op_lookup("stablehlo.add", 13) == OP_ADD);
  EXPECT(op_lookup("call", 4) == OP_FUNC_CALL);
  EXPECT(op_lookup("return", 6) == OP_FUNC_RETURN);
  EXPECT(op_lookup("stablehlo.ad", 12) == OP_COUNT);
  int roundtrip = 0;
  for (int c = 0; c < OP_COUNT; c++)
    roundtrip += op_lookup(op_name((OpCode)c), strlen(op_name((OpCode)c))) == (OpCode)c;
  EXPECT_I64(roundtrip, OP_COUNT);
  EXPECT(ir_is_elementwise(OP_ADD) && ir_is_elementwise(OP_SELECT) && ir_is_elementwise(OP_ABS));
  EXPECT(!ir_is_elementwise(OP_DOT_GENERAL) && !ir_is_elementwise(OP_RETURN));
  EXPECT(op_flags(OP_FUNC_RETURN) & OPF_TERMINATOR);
}

/* ------------------------------------------------------------------------ */
/* Arena                                                                     */

static void test_arena_many_allocations(void) {
  enum { N = 5000 };
  static unsigned char *ptr[N];
  static size_t size[N];
  Arena a = {0};
  int aligned = 0, zeroed = 0;
  for (int i = 0; i < N; i++) {
    size[i] = (size_t)(i * 37 % 301) + 1;
    ptr[i] = arena_alloc(&a, size[i]);
    aligned += ((uintptr_t)ptr[i] % 16) == 0;
    bool z = true;
    for (size_t k = 0; k < size[i]; k++) z = z && ptr[i][k] == 0;
    zeroed += z;
    memset(ptr[i], i & 0xff, size[i]);
  }
  EXPECT_I64(aligned, N);
  EXPECT_I64(zeroed, N);
  int intact = 0; /* no allocation overlaps another */
  for (int i = 0; i < N; i++) {
    bool ok = true;
    for (size_t k = 0; k < size[i]; k++) ok = ok && ptr[i][k] == (i & 0xff);
    intact += ok;
  }
  EXPECT_I64(intact, N);
  unsigned char *big = arena_alloc(&a, (size_t)1 << 20); /* larger than a chunk */
  EXPECT(((uintptr_t)big % 16) == 0 && big[0] == 0 && big[(1 << 20) - 1] == 0);
  memset(big, 0xAB, (size_t)1 << 20);
  long double *ld = ARENA_NEW(&a, long double);
  EXPECT(((uintptr_t)ld % _Alignof(long double)) == 0);
  arena_free(&a);
  EXPECT(a.head == NULL);
  EXPECT(arena_alloc(&a, 8) != NULL); /* usable again after a free */
  arena_free(&a);
}

static void test_arena_strings(void) {
  Arena a = {0};
  EXPECT_STR(arena_strndup(&a, "hello world", 5), "hello");
  EXPECT_STR(arena_strdup(&a, "stablehlo"), "stablehlo");
  EXPECT_STR(arena_strdup(&a, ""), "");
  EXPECT_STR(arena_printf(&a, "%s-%d-%.1f", "x", 42, 2.5), "x-42-2.5");
  char *long_str = arena_printf(&a, "%0300d", 7);
  EXPECT_I64((int64_t)strlen(long_str), 300);
  EXPECT(long_str[299] == '7' && long_str[0] == '0');
  char src[] = "copy";
  char *c = arena_strdup(&a, src);
  src[0] = 'X';
  EXPECT_STR(c, "copy");
  arena_free(&a);
}

/* ------------------------------------------------------------------------ */
/* Diagnostics                                                               */

typedef struct Captured {
  char text[8192];
  size_t len;
  int calls;
} Captured;

static void capture(void *ctx, const char *text) {
  Captured *c = ctx;
  size_t n = strlen(text);
  if (n > sizeof c->text - 1 - c->len) n = sizeof c->text - 1 - c->len;
  memcpy(c->text + c->len, text, n);
  c->len += n;
  c->text[c->len] = 0;
  c->calls++;
}

static void test_diag_format(void) {
  static const char text[] = "first line\n  second line\nthird";
  SrcFile f = {"t.mlir", text, sizeof text - 1};
  Captured c = {0};
  diag_set_sink(capture, &c);
  diag_reset();

  diag_error((Loc){&f, 2, 3}, "bad %s %d", "thing", 7);
  EXPECT_STR(c.text, "t.mlir:2:3: error: bad thing 7\n  second line\n  ^\n");
  EXPECT_I64(diag_error_count(), 1);

  c = (Captured){0}; /* the last line has no newline */
  diag_error((Loc){&f, 3, 5}, "x");
  EXPECT_STR(c.text, "t.mlir:3:5: error: x\nthird\n    ^\n");
  EXPECT_I64(diag_error_count(), 2);

  c = (Captured){0}; /* warnings are not counted */
  diag_warning((Loc){&f, 1, 7}, "w");
  EXPECT_STR(c.text, "t.mlir:1:7: warning: w\nfirst line\n      ^\n");
  EXPECT_I64(diag_error_count(), 2);

  c = (Captured){0}; /* a column past the end puts the caret after the line */
  diag_error((Loc){&f, 1, 50}, "past");
  EXPECT_STR(c.text, "t.mlir:1:50: error: past\nfirst line\n          ^\n");

  c = (Captured){0}; /* no file: no position, no source line */
  diag_error(noloc, "oops");
  EXPECT_STR(c.text, "shloc: error: oops\n");
  EXPECT_I64(c.calls, 1);

  diag_reset();
  EXPECT_I64(diag_error_count(), 0);
  diag_set_sink(NULL, NULL);
}

static void test_diag_long_message_is_truncated(void) {
  static char msg[5000];
  memset(msg, 'm', sizeof msg - 1);
  SrcFile f = {"t.mlir", "line", 4};
  Captured c = {0};
  diag_set_sink(capture, &c);
  diag_error((Loc){&f, 1, 1}, "%s", msg);
  diag_set_sink(NULL, NULL);
  diag_reset();
  EXPECT(c.len < 2048);
  EXPECT(!strncmp(c.text, "t.mlir:1:1: error: mmm", 22));
  EXPECT(c.len > 0 && c.text[c.len - 1] == '\n');
}

/* ------------------------------------------------------------------------ */
/* Ops, blocks, uses                                                         */

/* True if b holds exactly ops[0..n) in order, with consistent links. */
static bool block_is(const Block *b, Op *const *ops, int n) {
  const Op *op = b->first;
  for (int i = 0; i < n; i++, op = op->next) {
    if (op != ops[i] || op->parent != b) return false;
    if (op->prev != (i ? ops[i - 1] : NULL)) return false;
  }
  return op == NULL && b->last == (n ? ops[n - 1] : NULL);
}

static void test_op_new_builds_results(void) {
  Module *m = ir_module_new();
  Type *f32 = type_tensor(m->types, ET_F32, 0, NULL), *i1 = type_tensor(m->types, ET_I1, 0, NULL);
  Type *argt[] = {f32, f32};
  Block *b = ir_block_new(m, 2, argt);
  EXPECT(b->nargs == 2 && b->args[1]->block == b && b->args[1]->index == 1);
  EXPECT(b->args[0]->def == NULL && b->args[0]->type == f32 && b->args[0]->id == -1);
  Value *opnds[] = {b->args[0], b->args[1]};
  Type *rt[] = {f32, i1};
  Op *op = ir_op_new(m, OP_ADD, noloc, 2, opnds, 2, rt, 1);
  opnds[0] = NULL; /* the operand array is copied */
  EXPECT(op->opnds[0] == b->args[0] && op->opnds[1] == b->args[1]);
  EXPECT(op->nresults == 2 && op->results[1]->def == op && op->results[1]->index == 1);
  EXPECT(op->results[1]->type == i1 && op->results[0]->block == NULL);
  EXPECT(op->nregions == 1 && op->regions[0] == NULL); /* filled by the caller */
  EXPECT(op->parent == NULL && op->nattrs == 0);
  Op *empty = ir_op_new(m, OP_FUNC_RETURN, noloc, 0, NULL, 0, NULL, 0);
  EXPECT(empty->nopnds == 0 && empty->nresults == 0);
  ir_module_free(m);
}

static void test_block_list_manipulation(void) {
  Module *m = ir_module_new();
  Block *b = ir_block_new(m, 0, NULL);
  Op *a = ir_op_new(m, OP_ADD, noloc, 0, NULL, 0, NULL, 0);
  Op *bb = ir_op_new(m, OP_SUBTRACT, noloc, 0, NULL, 0, NULL, 0);
  Op *c = ir_op_new(m, OP_MULTIPLY, noloc, 0, NULL, 0, NULL, 0);
  Op *x = ir_op_new(m, OP_DIVIDE, noloc, 0, NULL, 0, NULL, 0);
  Op *y = ir_op_new(m, OP_NEGATE, noloc, 0, NULL, 0, NULL, 0);
  Op *z = ir_op_new(m, OP_ABS, noloc, 0, NULL, 0, NULL, 0);
  EXPECT(block_is(b, NULL, 0));
  EXPECT(ir_block_terminator(b) == NULL);
  ir_block_append(b, a);
  EXPECT(block_is(b, (Op *[]){a}, 1));
  ir_block_append(b, bb);
  ir_block_append(b, c);
  EXPECT(block_is(b, (Op *[]){a, bb, c}, 3));
  ir_block_insert_before(b, bb, x); /* in the middle */
  EXPECT(block_is(b, (Op *[]){a, x, bb, c}, 4));
  ir_block_insert_before(b, a, y); /* at the front */
  EXPECT(block_is(b, (Op *[]){y, a, x, bb, c}, 5));
  ir_block_insert_before(b, NULL, z); /* NULL: at the end */
  EXPECT(block_is(b, (Op *[]){y, a, x, bb, c, z}, 6));
  EXPECT(ir_block_terminator(b) == z);
  ir_block_remove(b, y); /* first */
  EXPECT(block_is(b, (Op *[]){a, x, bb, c, z}, 5));
  EXPECT(y->prev == NULL && y->next == NULL && y->parent == NULL);
  ir_block_remove(b, z); /* last */
  EXPECT(block_is(b, (Op *[]){a, x, bb, c}, 4));
  ir_block_remove(b, x); /* middle */
  EXPECT(block_is(b, (Op *[]){a, bb, c}, 3));
  ir_block_remove(b, a);
  ir_block_remove(b, bb);
  ir_block_remove(b, c);
  EXPECT(block_is(b, NULL, 0));
  ir_block_append(b, x); /* a removed op can be reinserted */
  EXPECT(block_is(b, (Op *[]){x}, 1));
  ir_module_free(m);
}

/* func @f(%a0, %a1) {
 *   %add = add %a0, %a1
 *   %w = while(%add) cond { ^(%c): %cmp = compare %c, %a0; return %cmp }
 *                    do   { ^(%d): %s = add %d, %a0; return %s }
 *   %mul = multiply %w, %a0
 *   func.return %mul
 * } */
typedef struct Nested {
  Module *m;
  Func *f;
  Value *a0, *a1, *c, *d;
  Op *add, *w, *cmp, *ret_c, *s, *ret_d, *mul, *ret;
} Nested;

static Region *one_block_region(Module *m, Op *parent, Block *b) {
  Region *r = ir_region_new(m, 1);
  r->blocks[0] = b;
  r->parent = parent;
  b->parent = r;
  return r;
}

static Nested build_nested(void) {
  Nested n;
  n.m = ir_module_new();
  Module *m = n.m;
  Type *f32 = type_tensor(m->types, ET_F32, 0, NULL), *i1 = type_tensor(m->types, ET_I1, 0, NULL);
  n.f = ir_func_new(m, "f", noloc);
  n.f->body = ir_block_new(m, 2, (Type *[]){f32, f32});
  ir_module_add_func(m, n.f);
  Block *body = n.f->body;
  n.a0 = body->args[0];
  n.a1 = body->args[1];
  n.add = ir_op_new(m, OP_ADD, noloc, 2, (Value *[]){n.a0, n.a1}, 1, &f32, 0);
  ir_block_append(body, n.add);
  n.w = ir_op_new(m, OP_WHILE, noloc, 1, n.add->results, 1, &f32, 2);
  ir_block_append(body, n.w);

  Block *cb = ir_block_new(m, 1, &f32);
  n.c = cb->args[0];
  n.cmp = ir_op_new(m, OP_COMPARE, noloc, 2, (Value *[]){n.c, n.a0}, 1, &i1, 0);
  ir_block_append(cb, n.cmp);
  n.ret_c = ir_op_new(m, OP_RETURN, noloc, 1, n.cmp->results, 0, NULL, 0);
  ir_block_append(cb, n.ret_c);
  n.w->regions[0] = one_block_region(m, n.w, cb);

  Block *db = ir_block_new(m, 1, &f32);
  n.d = db->args[0];
  n.s = ir_op_new(m, OP_ADD, noloc, 2, (Value *[]){n.d, n.a0}, 1, &f32, 0);
  ir_block_append(db, n.s);
  n.ret_d = ir_op_new(m, OP_RETURN, noloc, 1, n.s->results, 0, NULL, 0);
  ir_block_append(db, n.ret_d);
  n.w->regions[1] = one_block_region(m, n.w, db);

  n.mul = ir_op_new(m, OP_MULTIPLY, noloc, 2, (Value *[]){n.w->results[0], n.a0}, 1, &f32, 0);
  ir_block_append(body, n.mul);
  n.ret = ir_op_new(m, OP_FUNC_RETURN, noloc, 1, n.mul->results, 0, NULL, 0);
  ir_block_append(body, n.ret);
  return n;
}

static void record_op(Op *op, void *ctx) {
  Op ***out = ctx;
  *(*out)++ = op;
}

static void test_walk_visits_regions_after_their_op(void) {
  Nested n = build_nested();
  Op *seen[16], **next = seen;
  ir_walk(n.f, record_op, &next);
  Op *want[] = {n.add, n.w, n.cmp, n.ret_c, n.s, n.ret_d, n.mul, n.ret};
  EXPECT_I64(next - seen, 8);
  EXPECT(next - seen == 8 && !memcmp(seen, want, sizeof want));
  ir_module_free(n.m);
}

static void test_recount_uses_covers_regions(void) {
  Nested n = build_nested();
  n.a0->nuses = 99; /* stale counts are reset */
  n.mul->results[0]->nuses = 42;
  ir_recount_uses(n.f);
  EXPECT_I64(n.a0->nuses, 4); /* add, compare, inner add, multiply */
  EXPECT_I64(n.a1->nuses, 1);
  EXPECT_I64(n.add->results[0]->nuses, 1);
  EXPECT_I64(n.c->nuses, 1);
  EXPECT_I64(n.d->nuses, 1);
  EXPECT_I64(n.cmp->results[0]->nuses, 1);
  EXPECT_I64(n.w->results[0]->nuses, 1);
  EXPECT_I64(n.mul->results[0]->nuses, 1);
  ir_module_free(n.m);
}

static void test_replace_uses_reaches_nested_regions(void) {
  Nested n = build_nested();
  ir_replace_uses(n.f, n.a0, n.a1);
  EXPECT(n.add->opnds[0] == n.a1 && n.add->opnds[1] == n.a1);
  EXPECT(n.cmp->opnds[1] == n.a1 && n.cmp->opnds[0] == n.c);
  EXPECT(n.s->opnds[1] == n.a1 && n.mul->opnds[1] == n.a1);
  ir_recount_uses(n.f);
  EXPECT_I64(n.a0->nuses, 0);
  EXPECT_I64(n.a1->nuses, 5);
  /* a result replaced by an argument: the defining op stays, unused */
  ir_replace_uses(n.f, n.w->results[0], n.a0);
  ir_recount_uses(n.f);
  EXPECT(n.mul->opnds[0] == n.a0);
  EXPECT_I64(n.w->results[0]->nuses, 0);
  EXPECT_I64(n.a0->nuses, 1);
  ir_module_free(n.m);
}

static void test_number_values_in_program_order(void) {
  Nested n = build_nested();
  ir_number_values(n.f);
  /* arguments first; an op's regions are numbered before its results */
  EXPECT_I64(n.a0->id, 0);
  EXPECT_I64(n.a1->id, 1);
  EXPECT_I64(n.add->results[0]->id, 2);
  EXPECT_I64(n.c->id, 3);
  EXPECT_I64(n.cmp->results[0]->id, 4);
  EXPECT_I64(n.d->id, 5);
  EXPECT_I64(n.s->results[0]->id, 6);
  EXPECT_I64(n.w->results[0]->id, 7);
  EXPECT_I64(n.mul->results[0]->id, 8);
  EXPECT_I64(n.f->next_value_id, 9);
  ir_number_values(n.f); /* idempotent */
  EXPECT_I64(n.mul->results[0]->id, 8);
  ir_module_free(n.m);
}

static void test_attrs_set_and_get(void) {
  Module *m = ir_module_new();
  Op *op = ir_op_new(m, OP_IOTA, noloc, 0, NULL, 0, NULL, 0);
  Attr *one = ARENA_NEW(&m->arena, Attr), *two = ARENA_NEW(&m->arena, Attr);
  one->kind = two->kind = AT_INT;
  one->ival = 1;
  two->ival = 2;
  char name[] = "iota_dimension";
  ir_set_attr(m, op, name, one);
  name[0] = 'X'; /* the name is copied */
  EXPECT(ir_attr(op, "iota_dimension") == one);
  ir_set_attr(m, op, "other", two);
  ir_set_attr(m, op, "iota_dimension", two); /* replaces in place */
  EXPECT_I64(op->nattrs, 2);
  EXPECT(ir_attr(op, "iota_dimension") == two);
  EXPECT_STR(op->attrs[0].name, "iota_dimension");
  EXPECT(ir_attr(op, "missing") == NULL);
  ir_module_free(m);
}

static void test_module_functions(void) {
  Module *m = ir_module_new();
  Func *a = ir_func_new(m, "a", noloc), *b = ir_func_new(m, "b", noloc);
  Func *c = ir_func_new(m, "c", noloc);
  ir_module_add_func(m, a);
  ir_module_add_func(m, b);
  ir_module_add_func(m, c);
  EXPECT(m->nfuncs == 3 && m->funcs[0] == a && m->funcs[2] == c);
  EXPECT(ir_module_find_func(m, "b") == b);
  EXPECT(ir_module_find_func(m, "d") == NULL);
  ir_module_remove_func(m, b);
  EXPECT(m->nfuncs == 2 && m->funcs[0] == a && m->funcs[1] == c);
  EXPECT(ir_module_find_func(m, "b") == NULL);
  ir_module_free(m);
  ir_module_free(NULL); /* allowed */
}

/* ------------------------------------------------------------------------ */
/* Dense literals                                                            */

static DenseData dense(Module *m, ElemType e, int64_t n, bool splat, const void *bytes,
                       size_t nbytes) {
  int64_t d[] = {n};
  DenseData dd = {0};
  dd.type = type_tensor(m->types, e, 1, d);
  dd.splat = splat;
  dd.nbytes = nbytes;
  dd.bytes = arena_alloc(&m->arena, nbytes);
  memcpy(dd.bytes, bytes, nbytes);
  return dd;
}

#define DENSE(m, e, T, ...) \
  dense((m), (e), sizeof((T[]){__VA_ARGS__}) / sizeof(T), false, (T[]){__VA_ARGS__}, sizeof((T[]){__VA_ARGS__}))

static void test_dense_get_integers(void) {
  Module *m = ir_module_new();
  DenseData d = DENSE(m, ET_I1, uint8_t, 0, 1, 1);
  EXPECT_I64(dense_get_i64(&d, 0), 0);
  EXPECT_I64(dense_get_i64(&d, 2), 1);
  EXPECT_F64(dense_get_f64(&d, 1), 1.0);
  d = DENSE(m, ET_SI8, uint8_t, 0x80, 0x7f, 0xff);
  EXPECT_I64(dense_get_i64(&d, 0), -128);
  EXPECT_I64(dense_get_i64(&d, 1), 127);
  EXPECT_F64(dense_get_f64(&d, 2), -1.0);
  d = DENSE(m, ET_UI8, uint8_t, 0x80, 0xff);
  EXPECT_I64(dense_get_i64(&d, 0), 128);
  EXPECT_F64(dense_get_f64(&d, 1), 255.0);
  d = DENSE(m, ET_SI16, int16_t, -300, 32767, INT16_MIN);
  EXPECT_I64(dense_get_i64(&d, 0), -300);
  EXPECT_I64(dense_get_i64(&d, 2), INT16_MIN);
  d = DENSE(m, ET_UI16, uint16_t, 65535);
  EXPECT_I64(dense_get_i64(&d, 0), 65535);
  d = DENSE(m, ET_SI32, int32_t, INT32_MIN, -1);
  EXPECT_I64(dense_get_i64(&d, 0), INT32_MIN);
  EXPECT_F64(dense_get_f64(&d, 1), -1.0);
  d = DENSE(m, ET_UI32, uint32_t, UINT32_MAX);
  EXPECT_I64(dense_get_i64(&d, 0), 4294967295LL);
  EXPECT_F64(dense_get_f64(&d, 0), 4294967295.0);
  d = DENSE(m, ET_SI64, int64_t, INT64_MIN, INT64_MAX);
  EXPECT_I64(dense_get_i64(&d, 0), INT64_MIN);
  EXPECT_I64(dense_get_i64(&d, 1), INT64_MAX);
  EXPECT_F64(dense_get_f64(&d, 1), 9223372036854775807.0);
  d = DENSE(m, ET_UI64, uint64_t, UINT64_MAX);
  EXPECT_F64(dense_get_f64(&d, 0), 18446744073709551615.0); /* as unsigned */
  EXPECT_I64(dense_get_i64(&d, 0), -1);                     /* the same 64 bits */
  d = DENSE(m, ET_INDEX, int64_t, -5);
  EXPECT_I64(dense_get_i64(&d, 0), -5);
  /* sub-byte integers lie sign/zero-extended in one byte each */
  d = DENSE(m, ET_SI4, uint8_t, 0xF8, 0x07);
  EXPECT_I64(dense_get_i64(&d, 0), -8);
  EXPECT_I64(dense_get_i64(&d, 1), 7);
  d = DENSE(m, ET_UI4, uint8_t, 0x0F);
  EXPECT_I64(dense_get_i64(&d, 0), 15);
  d = DENSE(m, ET_SI2, uint8_t, 0xFE);
  EXPECT_I64(dense_get_i64(&d, 0), -2);
  ir_module_free(m);
}

static void test_dense_get_floats(void) {
  Module *m = ir_module_new();
  DenseData d = DENSE(m, ET_F16, uint16_t, 0x3C00, 0xC000, 0x7BFF, 0x0001, 0x03FF, 0x0400,
                      0x7C00, 0xFC00, 0x7E00, 0x8000, 0x3555);
  EXPECT_F64(dense_get_f64(&d, 0), 1.0);
  EXPECT_F64(dense_get_f64(&d, 1), -2.0);
  EXPECT_F64(dense_get_f64(&d, 2), 65504.0);
  EXPECT_F64(dense_get_f64(&d, 3), ldexp(1, -24)); /* smallest subnormal */
  EXPECT_F64(dense_get_f64(&d, 4), 1023 * ldexp(1, -24));
  EXPECT_F64(dense_get_f64(&d, 5), ldexp(1, -14)); /* smallest normal */
  EXPECT_F64(dense_get_f64(&d, 6), INFINITY);
  EXPECT_F64(dense_get_f64(&d, 7), -INFINITY);
  EXPECT(isnan(dense_get_f64(&d, 8)));
  EXPECT_F64(dense_get_f64(&d, 9), -0.0);
  EXPECT_F64(dense_get_f64(&d, 10), 0x1.554p-2); /* f16 of 1/3 */
  d = DENSE(m, ET_BF16, uint16_t, 0x3F80, 0x4049, 0xFF80, 0x0001, 0x7FC0);
  EXPECT_F64(dense_get_f64(&d, 0), 1.0);
  EXPECT_F64(dense_get_f64(&d, 1), 3.140625);
  EXPECT_F64(dense_get_f64(&d, 2), -INFINITY);
  EXPECT_F64(dense_get_f64(&d, 3), ldexp(1, -133));
  EXPECT(isnan(dense_get_f64(&d, 4)));
  d = DENSE(m, ET_F32, float, 0.1f, -0.0f, 3.4028234663852886e38f);
  EXPECT_F64(dense_get_f64(&d, 0), (double)0.1f);
  EXPECT_F64(dense_get_f64(&d, 1), -0.0);
  EXPECT_F64(dense_get_f64(&d, 2), 3.4028234663852886e38);
  d = DENSE(m, ET_F64, double, 0.1, -2.75, 2.75);
  EXPECT_F64(dense_get_f64(&d, 0), 0.1);
  EXPECT_I64(dense_get_i64(&d, 1), -2); /* floats read as integers truncate */
  EXPECT_I64(dense_get_i64(&d, 2), 2);
  ir_module_free(m);
}

static void test_dense_get_splats(void) {
  Module *m = ir_module_new();
  float f = 1.5f;
  DenseData d = dense(m, ET_F32, 1000, true, &f, sizeof f);
  EXPECT_F64(dense_get_f64(&d, 0), 1.5);
  EXPECT_F64(dense_get_f64(&d, 999), 1.5);
  EXPECT_I64(dense_get_i64(&d, 500), 1);
  int32_t i = -7;
  d = dense(m, ET_SI32, 64, true, &i, sizeof i);
  EXPECT_I64(dense_get_i64(&d, 63), -7);
  uint16_t h = 0xBC00; /* f16 -1.0 */
  d = dense(m, ET_F16, 3, true, &h, sizeof h);
  EXPECT_F64(dense_get_f64(&d, 2), -1.0);
  uint8_t t = 1;
  d = dense(m, ET_I1, 5, true, &t, 1);
  EXPECT_I64(dense_get_i64(&d, 4), 1);
  ir_module_free(m);
}

/* ------------------------------------------------------------------------ */
/* Size expressions over run-time values (ir/dimexpr.c)                      */

/* jnp.roll's slice: start is a value v the program computes, limit =
 * v + 4*b; limit - start must be 4*b itself (the node the result size
 * uses elsewhere), known at entry, while start and limit are not. */
static void test_dimexpr_runtime_terms_cancel(void) {
  Module *m = ir_module_new();
  SymInfo s = {0};
  Value *v = ir_value_new(m, type_tensor(m->types, ET_SI32, 0, NULL)), *w = ir_value_new(m, v->type);
  const DimExpr *b = dx_sym(m, &s, 0), *four_b = dx_mul(m, &s, b, dx_const(m, &s, 4));
  const DimExpr *start = dx_value(m, &s, v, 0), *limit = dx_add(m, &s, start, four_b);
  EXPECT(start->runtime && limit->runtime && !four_b->runtime);
  EXPECT(dx_sub(m, &s, limit, start) == four_b);
  EXPECT(dx_value(m, &s, v, 0) == start);  /* interned by value and element */
  EXPECT(dx_value(m, &s, v, 1) != start);
  EXPECT(dx_value(m, &s, w, 0) != start);
  /* (b + v + 3) - (v + 1) = b + 2, in either order of the sum */
  const DimExpr *three = dx_const(m, &s, 3), *one = dx_const(m, &s, 1);
  const DimExpr *l1 = dx_add(m, &s, dx_add(m, &s, b, start), three);
  const DimExpr *l2 = dx_add(m, &s, three, dx_add(m, &s, start, b));
  EXPECT(l1 == l2);
  const DimExpr *d = dx_sub(m, &s, l1, dx_add(m, &s, start, one));
  EXPECT(!d->runtime);
  int64_t syms[1] = {5};
  EXPECT_I64(dx_eval(d, syms), 7);
  /* 2v - v keeps v: a size over a run-time value stays runtime */
  const DimExpr *two_v = dx_mul(m, &s, start, dx_const(m, &s, 2));
  EXPECT(dx_sub(m, &s, two_v, start) == start);
  EXPECT(dx_sub(m, &s, start, dx_value(m, &s, w, 0))->runtime);
  ir_module_free(m);
}

/* The packing of test_layout_pack's B by the definition of GemmPacking
 * (ir.h): per matrix, per K slice of 3 rows, per panel of 4 columns, its
 * rows, zeros past N = 5; B(k, j) of matrix b at b * 35 + k + j * 7 (a
 * transposed 7 x 5), or element 0 for a splat. */
static void layout_reference(const uint8_t *src, int esz, bool splat, uint8_t *want) {
  int64_t to = 0;
  for (int b = 0; b < 2; b++)
    for (int pc = 0; pc < 7; pc += 3)
      for (int j0 = 0; j0 < 5; j0 += 4)
        for (int k = pc; k < pc + 3 && k < 7; k++, to += 4)
          for (int j = j0; j < j0 + 4; j++) {
            uint8_t *d = want + (to + j - j0) * esz;
            if (j >= 5) memset(d, 0, (size_t)esz);
            else memcpy(d, src + (splat ? 0 : (b * 35 + k + j * 7) * esz), (size_t)esz);
          }
}

/* layout_pack against layout_reference: two matrices, a partial last K
 * slice and panel; 1-, 4- and 8-byte elements (memcpy and the sized
 * copies); row-major and splat sources. */
static void test_layout_pack(void) {
  GemmPacking p = {.nbd = 1, .bdim = {2}, .bstride = {35}, .K = 7, .N = 5,
                   .sk = 1, .sn = 7, .kc = 3, .nr = 4};
  enum { SRC = 2 * 7 * 5, PACKED = 2 * 7 * 8 };
  EXPECT_I64(layout_packed_elems(&p), PACKED);
  for (int esz = 1; esz <= 8; esz *= 2) {
    uint8_t src[SRC * 8], dst[PACKED * 8], want[PACKED * 8];
    for (int i = 0; i < SRC * esz; i++) src[i] = (uint8_t)(i * 7 + 3);
    for (int splat = 0; splat < 2; splat++) {
      layout_reference(src, esz, splat, want);
      memset(dst, 0xAA, sizeof dst);
      layout_pack(&p, src, esz, splat, dst);
      EXPECT(!memcmp(dst, want, (size_t)PACKED * (size_t)esz));
    }
  }
}

/* The Winograd packing (GemmPacking.wino) of a 3 x 3 x C x K HWIO kernel
 * against G g G^T by matrix products (Lavin & Gray 2015, section 4: 4.1
 * for F(2 x 2, 3 x 3), 16 matrices, and F(4 x 4, 3 x 3)'s, 36) placed by
 * the definition of GemmPacking: C = 5 rows in K slices of 3, K = 6
 * columns in panels of 4 (zeros past 6); small integers, summed in the
 * same order (G's rows times g's columns, then times G^T), so that every
 * V element is the double rounded once to float. */
static void layout_pack_wino(int a, const double (*G)[3]) {
  enum { C = 5, K = 6, NPAD = 8, KC = 3, NR = 4, T = 36 };
  GemmPacking p = {.nbd = 1, .bdim = {a * a}, .bstride = {C * K}, .K = C, .N = K,
                   .sk = K, .sn = 1, .kc = KC, .nr = NR, .wino = true};
  EXPECT_I64(layout_packed_elems(&p), a * a * C * NPAD);
  float src[9 * C * K], dst[T * C * NPAD], want[T * C * NPAD];
  for (int i = 0; i < 9 * C * K; i++) src[i] = (float)(i * 7 % 13 - 6);
  for (int splat = 0; splat < 2; splat++) {
    memset(want, 0, sizeof want);
    for (int c = 0; c < C; c++)
      for (int k = 0; k < K; k++) {
        double g[3][3], gg[6][3] = {{0}}, v[6][6] = {{0}};
        for (int y = 0; y < 3; y++)
          for (int x = 0; x < 3; x++) g[y][x] = src[splat ? 0 : ((y * 3 + x) * C + c) * K + k];
        for (int i = 0; i < a; i++)
          for (int x = 0; x < 3; x++)
            for (int y = 0; y < 3; y++) gg[i][x] += G[i][y] * g[y][x];
        for (int i = 0; i < a; i++)
          for (int j = 0; j < a; j++)
            for (int x = 0; x < 3; x++) v[i][j] += gg[i][x] * G[j][x];
        int pc = c / KC * KC, rows = C - pc < KC ? C - pc : KC;
        for (int t = 0; t < a * a; t++)
          want[t * C * NPAD + pc * NPAD + k / NR * NR * rows + (c - pc) * NR + k % NR] =
              (float)v[t / a][t % a];
      }
    memset(dst, 0xAA, sizeof dst);
    layout_pack(&p, src, 4, splat, dst);
    EXPECT(!memcmp(dst, want, (size_t)(a * a * C * NPAD) * sizeof(float)));
  }
}

static void test_layout_pack_wino(void) {
  static const double G2[4][3] = {{1, 0, 0}, {.5, .5, .5}, {.5, -.5, .5}, {0, 0, 1}};
  static const double G4[6][3] = {{1. / 4, 0, 0},          {-1. / 6, -1. / 6, -1. / 6},
                                  {-1. / 6, 1. / 6, -1. / 6}, {1. / 24, 1. / 12, 1. / 6},
                                  {1. / 24, -1. / 12, 1. / 6}, {0, 0, 1}};
  layout_pack_wino(4, G2);
  layout_pack_wino(6, G4);
}

int main(void) {
  test_tensor_types_are_interned();
  test_dimexpr_runtime_terms_cancel();
  test_many_types_survive_table_growth();
  test_token_and_tuple_types_are_interned();
  test_quantized_types_intern_by_quant_info();
  test_type_print_spellings();
  test_type_sizes();
  test_elem_table();
  test_elem_lookup_spellings();
  test_op_table();
  test_arena_many_allocations();
  test_arena_strings();
  test_diag_format();
  test_diag_long_message_is_truncated();
  test_op_new_builds_results();
  test_block_list_manipulation();
  test_walk_visits_regions_after_their_op();
  test_recount_uses_covers_regions();
  test_replace_uses_reaches_nested_regions();
  test_number_values_in_program_order();
  test_attrs_set_and_get();
  test_module_functions();
  test_dense_get_integers();
  test_dense_get_floats();
  test_dense_get_splats();
  test_layout_pack();
  test_layout_pack_wino();
  return unit_report();
}
