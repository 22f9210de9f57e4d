/* Unit tests of frontend/: modules parsed from strings, checked on the IR.
 *
 * Dense literals (lists, splats, hex blobs, special floats, the exact bits of
 * f16/bf16 rounding, integer ranges, bools), dense_resource blobs and
 * __elided__ fills, the pretty and generic forms of ops giving the same typed
 * OpAttrs, locations in `// -----` files parsed by range, and error cases
 * (NULL, one error, the right line). Prints only failures, then
 * `N passed, N failed`. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "ir/ir.h"

/* ------------------------------------------------------------------------ */
/* Parsing from strings                                                      */

/* Every diagnostic of the current parse (the sink is installed in main). */
static struct {
  char text[16384];
  size_t len;
} diags;

static void capture(void *ctx, const char *text) {
  (void)ctx;
  size_t n = strlen(text);
  if (n > sizeof diags.text - 1 - diags.len) n = sizeof diags.text - 1 - diags.len;
  memcpy(diags.text + diags.len, text, n);
  diags.len += n;
  diags.text[diags.len] = 0;
}

/* Source files live until the end of the run: locations point into them. */
static SrcFile *files[1024];
static int nfiles;

static SrcFile *mksrc(const char *text) {
  SrcFile *f = malloc(sizeof *f);
  char *copy = strdup(text);
  if (!f || !copy || nfiles == (int)(sizeof files / sizeof files[0])) abort();
  *f = (SrcFile){"test.mlir", copy, strlen(copy)};
  files[nfiles++] = f;
  return f;
}

static void free_sources(void) {
  for (int i = 0; i < nfiles; i++) {
    free((char *)files[i]->text);
    free(files[i]);
  }
}

static Module *parse_opts(const char *text, const ParseOptions *opts) {
  diags.len = 0;
  diags.text[0] = 0;
  diag_reset();
  SrcFile *f = mksrc(text);
  return parse_module(f, 0, f->len, opts);
}

/* Parses text that must be accepted; prints the diagnostics if not. */
static Module *parse_ok(int line, const char *text) {
  Module *m = parse_opts(text, NULL);
  if (m && diag_error_count() == 0) {
    passed++;
    return m;
  }
  failed++;
  printf("FAIL %s:%d: parse failed:\n%s", __FILE__, line, diags.text);
  ir_module_free(m);
  return NULL;
}
#define PARSE_OK(text) parse_ok(__LINE__, (text))

/* Text that must be rejected: NULL, exactly one error, on `want_line`, and
 * the message contains `want_msg`. */
static void expect_error(int line, const char *text, int want_line, const char *want_msg) {
  Module *m = parse_opts(text, NULL);
  int got_line = 0, col = 0;
  sscanf(diags.text, "test.mlir:%d:%d:", &got_line, &col);
  const char *first_nl = strchr(diags.text, '\n');
  size_t first_len = first_nl ? (size_t)(first_nl - diags.text) : diags.len;
  bool msg_ok = strstr(diags.text, want_msg) && (size_t)(strstr(diags.text, want_msg) - diags.text) < first_len;
  if (!m && diag_error_count() == 1 && got_line == want_line && msg_ok) {
    passed++;
    return;
  }
  failed++;
  printf("FAIL %s:%d: want one error on line %d containing \"%s\"; got %s, %d error(s):\n%s",
         __FILE__, line, want_line, want_msg, m ? "a module" : "NULL", diag_error_count(),
         diags.text);
  ir_module_free(m);
}
#define EXPECT_ERROR(text, line, msg) expect_error(__LINE__, (text), (line), (msg))

typedef struct FindCtx {
  OpCode code;
  int skip;
  Op *found;
} FindCtx;

static void find_visit(Op *op, void *ctx) {
  FindCtx *c = ctx;
  if (op->code == c->code && !c->found && c->skip-- == 0) c->found = op;
}

/* The n-th op (from 0, program order) with this code in any function. */
static Op *nth_op(Module *m, OpCode code, int n) {
  FindCtx c = {code, n, NULL};
  for (int i = 0; m && i < m->nfuncs && !c.found; i++)
    if (m->funcs[i]->body) ir_walk(m->funcs[i], find_visit, &c);
  return c.found;
}

static Op *first_op(Module *m, OpCode code) { return nth_op(m, code, 0); }

/* ------------------------------------------------------------------------ */
/* Dense literals                                                            */

/* The module of the last constant() call, freed by the next one. */
static Module *const_module;

/* Parses `%c = stablehlo.constant <literal>` (on line 2) and returns its
 * value, or NULL (with the diagnostics in `diags`). */
static const DenseData *constant_opts(const char *literal, const ParseOptions *opts) {
  ir_module_free(const_module);
  char text[8192];
  snprintf(text, sizeof text, "func.func @f() {\n  %%c = stablehlo.constant %s\n  func.return\n}\n",
           literal);
  const_module = parse_opts(text, opts);
  Op *op = first_op(const_module, OP_CONSTANT);
  return op ? op->a.value : NULL;
}

static const DenseData *constant_at(int line, const char *literal) {
  const DenseData *d = constant_opts(literal, NULL);
  if (d) return d;
  failed++;
  printf("FAIL %s:%d: constant %s did not parse:\n%s", __FILE__, line, literal, diags.text);
  return NULL;
}
#define CONSTANT(lit) constant_at(__LINE__, (lit))

/* A literal that must be rejected with an error on line 2 mentioning msg. */
#define DENSE_ERROR(lit, msg)                                                                \
  expect_error(__LINE__,                                                                     \
               "func.func @f() {\n  %c = stablehlo.constant " lit "\n  func.return\n}\n", 2, \
               (msg))

static uint64_t elem_bits_at(const DenseData *d, int64_t i) {
  int nb = elem_bytes(d->type->elem);
  uint64_t v = 0;
  memcpy(&v, d->bytes + (d->splat ? 0 : i * nb), (size_t)nb); /* little-endian host */
  return v;
}

/* The bit pattern of the single element of `dense<lit> : tensor<T>`. */
static int64_t scalar_bits(int line, const char *lit) {
  const DenseData *d = constant_at(line, lit);
  return d ? (int64_t)elem_bits_at(d, 0) : -1;
}
#define BITS(lit) scalar_bits(__LINE__, (lit))

static void test_dense_nested_lists(void) {
  const DenseData *d = CONSTANT("dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>");
  if (d) {
    EXPECT(!d->splat && d->nbytes == 24);
    EXPECT_I64(dense_get_i64(d, 0), 1);
    EXPECT_I64(dense_get_i64(d, 5), 6);
  }
  d = CONSTANT("dense<[[[1]], [[-2]]]> : tensor<2x1x1xi8>");
  if (d) EXPECT_I64(dense_get_i64(d, 1), -2);
  d = CONSTANT("dense<[5]> : tensor<1xi32>"); /* a one-element list is not a splat */
  if (d) EXPECT(!d->splat && d->nbytes == 4 && dense_get_i64(d, 0) == 5);
  d = CONSTANT("dense<> : tensor<0xf32>");
  if (d) EXPECT(d->nbytes == 0);
  d = CONSTANT("dense<[]> : tensor<0xf32>");
  if (d) EXPECT(d->nbytes == 0);
  d = CONSTANT("dense<[[], []]> : tensor<2x0xi32>");
  if (d) EXPECT(d->nbytes == 0);
  d = CONSTANT("dense<[(1.0, -2.0), (3.0, 4.5)]> : tensor<2xcomplex<f64>>");
  if (d) {
    double v[4];
    memcpy(v, d->bytes, sizeof v);
    EXPECT(d->nbytes == 32 && v[0] == 1.0 && v[1] == -2.0 && v[2] == 3.0 && v[3] == 4.5);
  }
}

static void test_dense_splats(void) {
  const DenseData *d = CONSTANT("dense<7> : tensor<3x4xi16>");
  if (d) {
    EXPECT(d->splat && d->nbytes == 2);
    EXPECT_I64(dense_get_i64(d, 11), 7);
  }
  d = CONSTANT("dense<-1.5> : tensor<8xf32>");
  if (d) EXPECT(d->splat && dense_get_f64(d, 7) == -1.5);
  d = CONSTANT("dense<(1.0, 2.0)> : tensor<3xcomplex<f32>>");
  if (d) {
    float v[2];
    memcpy(v, d->bytes, sizeof v);
    EXPECT(d->splat && d->nbytes == 8 && v[0] == 1.0f && v[1] == 2.0f);
  }
  d = CONSTANT("dense<3> : tensor<f32>"); /* an integer spelled for a float */
  if (d) EXPECT(dense_get_f64(d, 0) == 3.0);
}

static void test_dense_hex_blobs(void) {
  const DenseData *d = CONSTANT("dense<\"0x0000803F00000040\"> : tensor<2xf32>");
  if (d) {
    EXPECT(!d->splat);
    EXPECT(dense_get_f64(d, 0) == 1.0 && dense_get_f64(d, 1) == 2.0);
  }
  d = CONSTANT("dense<\"0x0000C03F\"> : tensor<4xf32>"); /* one element: a splat */
  if (d) EXPECT(d->splat && d->nbytes == 4 && dense_get_f64(d, 3) == 1.5);
  d = CONSTANT("dense<\"0x0100FFFF\"> : tensor<2xi16>"); /* little-endian */
  if (d) EXPECT(dense_get_i64(d, 0) == 1 && dense_get_i64(d, 1) == -1);
  d = CONSTANT("dense<\"0x000101\"> : tensor<3xi1>"); /* i1: a byte per element */
  if (d) EXPECT(!d->splat && dense_get_i64(d, 0) == 0 && dense_get_i64(d, 2) == 1);
  d = CONSTANT("dense<\"0x01\"> : tensor<4xi1>");
  if (d) EXPECT(d->splat && dense_get_i64(d, 3) == 1);
  d = CONSTANT("dense<\"0xFF\"> : tensor<3xi1>"); /* MLIR's all-ones splat byte */
  if (d) EXPECT(d->splat && d->bytes[0] == 1);        /* i1 is stored as 0/1 */
  d = CONSTANT("dense<\"0x00\"> : tensor<i1>");
  if (d) EXPECT_I64(dense_get_i64(d, 0), 0);
  d = CONSTANT("dense<\"0xabCD\"> : tensor<ui16>"); /* either case of hex digits */
  if (d) EXPECT_I64(dense_get_i64(d, 0), 0xCDAB);
  DENSE_ERROR("dense<\"0x0000803F00\"> : tensor<2xf32>", "hex literal has 5 bytes");
  DENSE_ERROR("dense<\"0x0000803\"> : tensor<f32>", "odd number of digits");
  DENSE_ERROR("dense<\"0x0000803G\"> : tensor<f32>", "bad hex digit");
  DENSE_ERROR("dense<\"12\"> : tensor<i8>", "expected a hex string");
}

/* Hex literals long enough for the decoder's wide paths (frontend/dense.c:
 * 32 digits at a time, then 8, then 2): every digit spelling, and a
 * non-digit at each place of the 78 digits (the neighbours of the digit
 * ranges, a byte of 0x80 and up) rejected. */
static void test_dense_hex_long(void) {
  static const char digits[] = "0123456789abcdefABCDEF";
  enum { N = 39 };
  char hex[2 * N + 1], lit[2 * N + 64];
  uint8_t want[N];
  for (int i = 0; i < N; i++) {
    int hi = (i * 7) % 22, lo = (i * 5 + 3) % 22;
    hex[2 * i] = digits[hi];
    hex[2 * i + 1] = digits[lo];
    want[i] = (uint8_t)((hi < 16 ? hi : hi - 6) << 4 | (lo < 16 ? lo : lo - 6));
  }
  hex[2 * N] = 0;
  snprintf(lit, sizeof lit, "dense<\"0x%s\"> : tensor<%dxui8>", hex, N);
  const DenseData *d = CONSTANT(lit);
  if (d) EXPECT(d->nbytes == N && !memcmp(d->bytes, want, N));
  static const char bad[] = "/:@G`g \x80\xC6";
  for (int k = 0; k < 2 * N; k++) {
    char text[4 * N + 128], saved = hex[k];
    hex[k] = bad[k % (sizeof bad - 1)];
    snprintf(text, sizeof text,
             "func.func @f() {\n  %%c = stablehlo.constant dense<\"0x%s\"> : tensor<%dxui8>\n"
             "  func.return\n}\n", hex, N);
    expect_error(__LINE__, text, 2, "bad hex digit");
    hex[k] = saved;
  }
}

static void test_dense_special_floats(void) {
  const DenseData *d = CONSTANT("dense<[nan, inf, -inf, 0x7FC00000, -0.0, 0x7F800001]> : tensor<6xf32>");
  if (d) {
    EXPECT_I64(elem_bits_at(d, 0), 0x7FC00000);
    EXPECT_I64(elem_bits_at(d, 1), 0x7F800000);
    EXPECT_I64(elem_bits_at(d, 2), 0xFF800000);
    EXPECT_I64(elem_bits_at(d, 3), 0x7FC00000); /* hex: a bit pattern */
    EXPECT_I64(elem_bits_at(d, 4), 0x80000000);
    EXPECT_I64(elem_bits_at(d, 5), 0x7F800001); /* a signalling NaN survives */
  }
  d = CONSTANT("dense<[nan, inf, -inf, 0x7C01]> : tensor<4xf16>");
  if (d) {
    EXPECT_I64(elem_bits_at(d, 0), 0x7E00);
    EXPECT_I64(elem_bits_at(d, 1), 0x7C00);
    EXPECT_I64(elem_bits_at(d, 2), 0xFC00);
    EXPECT_I64(elem_bits_at(d, 3), 0x7C01);
  }
  d = CONSTANT("dense<[nan, inf, -inf]> : tensor<3xbf16>");
  if (d) {
    EXPECT_I64(elem_bits_at(d, 0), 0x7FC0);
    EXPECT_I64(elem_bits_at(d, 1), 0x7F80);
    EXPECT_I64(elem_bits_at(d, 2), 0xFF80);
  }
  EXPECT_I64(BITS("dense<0x7FF0000000000001> : tensor<f64>"), 0x7FF0000000000001);
  EXPECT_I64(BITS("dense<-inf> : tensor<f64>"), (int64_t)0xFFF0000000000000ull);
  DENSE_ERROR("dense<0x1FFFF> : tensor<f16>", "not a 16-bit pattern");
  DENSE_ERROR("dense<-0x3C00> : tensor<f16>", "not a 16-bit pattern");
}

/* Decimal literals go to the nearest double, then to the nearest value of
 * the element type, ties to even (what MLIR's parser does). */
static void test_f16_rounding(void) {
  EXPECT_I64(BITS("dense<1.0> : tensor<f16>"), 0x3C00);
  EXPECT_I64(BITS("dense<0.1> : tensor<f16>"), 0x2E66);
  EXPECT_I64(BITS("dense<0.333333333333> : tensor<f16>"), 0x3555);
  EXPECT_I64(BITS("dense<-2.5> : tensor<f16>"), 0xC100);
  EXPECT_I64(BITS("dense<65504.0> : tensor<f16>"), 0x7BFF);   /* largest finite */
  EXPECT_I64(BITS("dense<65519.0> : tensor<f16>"), 0x7BFF);   /* below the midpoint */
  EXPECT_I64(BITS("dense<65520.0> : tensor<f16>"), 0x7C00);   /* the midpoint: inf */
  EXPECT_I64(BITS("dense<-65520.0> : tensor<f16>"), 0xFC00);
  EXPECT_I64(BITS("dense<1.0e10> : tensor<f16>"), 0x7C00);
  EXPECT_I64(BITS("dense<6.103515625e-05> : tensor<f16>"), 0x0400); /* smallest normal */
  EXPECT_I64(BITS("dense<6.097555160522461e-05> : tensor<f16>"), 0x03FF); /* largest subnormal */
  EXPECT_I64(BITS("dense<5.960464477539063e-08> : tensor<f16>"), 0x0001); /* smallest subnormal */
  EXPECT_I64(BITS("dense<1.0e-7> : tensor<f16>"), 0x0002);    /* 1.68 units */
  EXPECT_I64(BITS("dense<1.0e-8> : tensor<f16>"), 0x0000);    /* 0.17 units: zero */
  EXPECT_I64(BITS("dense<-1.0e-8> : tensor<f16>"), 0x8000);   /* keeps its sign */
  EXPECT_I64(BITS("dense<2.98023223876953125e-08> : tensor<f16>"), 0x0000); /* 0.5 unit: even */
  EXPECT_I64(BITS("dense<8.940696716308594e-08> : tensor<f16>"), 0x0002);   /* 1.5 units: even */
  EXPECT_I64(BITS("dense<1.00048828125> : tensor<f16>"), 0x3C00);  /* tie: to even */
  EXPECT_I64(BITS("dense<1.00146484375> : tensor<f16>"), 0x3C02);  /* tie: to even */
  EXPECT_I64(BITS("dense<1.0004882812501> : tensor<f16>"), 0x3C01); /* just above the tie */
  /* a tie only beyond double precision rounds as its double does (MLIR too) */
  EXPECT_I64(BITS("dense<1.000488281250000000001> : tensor<f16>"), 0x3C00);
  EXPECT_I64(BITS("dense<2047.5> : tensor<f16>"), 0x6800); /* 2047.5 -> 2048 (ulp 1) */
  EXPECT_I64(BITS("dense<3> : tensor<f16>"), 0x4200);
}

static void test_bf16_and_wider_rounding(void) {
  EXPECT_I64(BITS("dense<0.333333333333333333> : tensor<bf16>"), 0x3EAB);
  EXPECT_I64(BITS("dense<0.1> : tensor<bf16>"), 0x3DCD);
  EXPECT_I64(BITS("dense<3.14159> : tensor<bf16>"), 0x4049);
  EXPECT_I64(BITS("dense<1.00390625> : tensor<bf16>"), 0x3F80); /* tie: to even */
  EXPECT_I64(BITS("dense<1.01171875> : tensor<bf16>"), 0x3F82); /* tie: to even */
  EXPECT_I64(BITS("dense<3.38953139e38> : tensor<bf16>"), 0x7F7F); /* largest finite */
  EXPECT_I64(BITS("dense<3.4e38> : tensor<bf16>"), 0x7F80);        /* past the midpoint */
  EXPECT_I64(BITS("dense<1.0e-40> : tensor<bf16>"), 0x0001);       /* subnormal */
  EXPECT_I64(BITS("dense<-2> : tensor<bf16>"), 0xC000);
  EXPECT_I64(BITS("dense<0.1> : tensor<f32>"), 0x3DCCCCCD);
  EXPECT_I64(BITS("dense<16777217.0> : tensor<f32>"), 0x4B800000); /* tie: to even */
  EXPECT_I64(BITS("dense<1.0e-46> : tensor<f32>"), 0x00000000);
  EXPECT_I64(BITS("dense<1.0e39> : tensor<f32>"), 0x7F800000);
  EXPECT_I64(BITS("dense<0.1> : tensor<f64>"), 0x3FB999999999999A);
  EXPECT_I64(BITS("dense<-0.0> : tensor<f64>"), (int64_t)0x8000000000000000ull);
}

/* The FP8, MX and tf32 formats (runtime/elem.c's encoder): ties to even,
 * then each format's overflow rule; bit patterns worked out by hand from
 * the formats' definitions (ir.h SMALL_FLOATS). */
static void test_small_float_rounding(void) {
  EXPECT_I64(BITS("dense<448.0> : tensor<f8E4M3FN>"), 0x7E);   /* largest finite */
  EXPECT_I64(BITS("dense<1000.0> : tensor<f8E4M3FN>"), 0x7F);  /* FN: overflow is NaN */
  EXPECT_I64(BITS("dense<-0.0> : tensor<f8E4M3FN>"), 0x80);
  EXPECT_I64(BITS("dense<-0.0> : tensor<f8E4M3FNUZ>"), 0x00);  /* FNUZ: no -0 */
  EXPECT_I64(BITS("dense<nan> : tensor<f8E4M3FNUZ>"), 0x80);   /* the one NaN */
  EXPECT_I64(BITS("dense<inf> : tensor<f8E4M3FNUZ>"), 0x80);   /* no inf: NaN */
  EXPECT_I64(BITS("dense<57344.0> : tensor<f8E5M2>"), 0x7B);   /* largest finite */
  EXPECT_I64(BITS("dense<61440.0> : tensor<f8E5M2>"), 0x7C);   /* tie to even: inf */
  EXPECT_I64(BITS("dense<6.0> : tensor<f4E2M1FN>"), 0x7);
  EXPECT_I64(BITS("dense<100.0> : tensor<f4E2M1FN>"), 0x7);    /* FINITE: saturates */
  EXPECT_I64(BITS("dense<0.25> : tensor<f4E2M1FN>"), 0x0);     /* tie: to even (0) */
  EXPECT_I64(BITS("dense<0.75> : tensor<f4E2M1FN>"), 0x2);     /* tie: to even (1.0) */
  EXPECT_I64(BITS("dense<3.0> : tensor<f8E8M0FNU>"), 0x80);    /* 1.5 * 2: even exponent */
  EXPECT_I64(BITS("dense<1.0> : tensor<tf32>"), 0x1FC00);
}

/* Signless integers take either spelling of their bits, as in MLIR: 255 and
 * -1 are the same i8; unsigned types take no sign. */
static void test_dense_integer_ranges(void) {
  EXPECT_I64(BITS("dense<127> : tensor<i8>"), 0x7F);
  EXPECT_I64(BITS("dense<-128> : tensor<i8>"), 0x80);
  EXPECT_I64(BITS("dense<255> : tensor<i8>"), 0xFF);
  EXPECT_I64(BITS("dense<255> : tensor<ui8>"), 0xFF);
  EXPECT_I64(BITS("dense<-32768> : tensor<i16>"), 0x8000);
  EXPECT_I64(BITS("dense<4294967295> : tensor<ui32>"), 0xFFFFFFFF);
  EXPECT_I64(BITS("dense<-9223372036854775808> : tensor<i64>"), INT64_MIN);
  EXPECT_I64(BITS("dense<18446744073709551615> : tensor<ui64>"), -1);
  EXPECT_I64(BITS("dense<0xFF> : tensor<i8>"), 0xFF);
  const DenseData *d = CONSTANT("dense<[7, 8, -8, 15]> : tensor<4xi4>");
  if (d) { /* sub-byte integers are stored sign-extended */
    EXPECT_I64(dense_get_i64(d, 0), 7);
    EXPECT_I64(dense_get_i64(d, 1), -8);
    EXPECT_I64(dense_get_i64(d, 2), -8);
    EXPECT_I64(dense_get_i64(d, 3), -1);
  }
  d = CONSTANT("dense<[3, 0]> : tensor<2xui2>");
  if (d) EXPECT(dense_get_i64(d, 0) == 3 && elem_bits_at(d, 0) == 3);
  DENSE_ERROR("dense<256> : tensor<i8>", "does not fit in i8");
  DENSE_ERROR("dense<-129> : tensor<i8>", "does not fit in i8");
  DENSE_ERROR("dense<256> : tensor<ui8>", "does not fit in ui8");
  DENSE_ERROR("dense<-1> : tensor<ui8>", "does not fit in ui8");
  DENSE_ERROR("dense<[1, 65536]> : tensor<2xi16>", "dense element 1");
  DENSE_ERROR("dense<16> : tensor<i4>", "does not fit in i4");
  DENSE_ERROR("dense<-9> : tensor<i4>", "does not fit in i4");
  DENSE_ERROR("dense<-9223372036854775809> : tensor<i64>", "does not fit in i64");
  DENSE_ERROR("dense<18446744073709551616> : tensor<ui64>", "out of range");
  DENSE_ERROR("dense<1.5> : tensor<i32>", "expected an integer for i32");
  DENSE_ERROR("dense<true> : tensor<i32>", "expected an integer for i32");
}

static void test_dense_bools(void) {
  const DenseData *d = CONSTANT("dense<[true, false, true]> : tensor<3xi1>");
  if (d) {
    EXPECT(!d->splat && d->nbytes == 3);
    EXPECT(d->bytes[0] == 1 && d->bytes[1] == 0 && d->bytes[2] == 1);
  }
  d = CONSTANT("dense<true> : tensor<2x2xi1>");
  if (d) EXPECT(d->splat && d->nbytes == 1 && d->bytes[0] == 1);
  d = CONSTANT("dense<[1, 0]> : tensor<2xi1>");
  if (d) EXPECT(d->bytes[0] == 1 && d->bytes[1] == 0);
  DENSE_ERROR("dense<2> : tensor<i1>", "expected true or false for i1");
  DENSE_ERROR("dense<-1> : tensor<i1>", "expected true or false for i1");
  DENSE_ERROR("dense<true> : tensor<f32>", "expected a number for f32");
}

static void test_dense_shape_errors(void) {
  DENSE_ERROR("dense<[1, 2]> : tensor<3xi32>", "shape [2] but its type is tensor<3xi32>");
  DENSE_ERROR("dense<[[1, 2], [3]]> : tensor<2x2xi32>", "not rectangular");
  DENSE_ERROR("dense<[[1], 2]> : tensor<2x1xi32>", "expected a nested list");
  DENSE_ERROR("dense<[1, [2]]> : tensor<2x1xi32>", "unexpected nested list");
  DENSE_ERROR("dense<[1, 2]> : tensor<?xi32>", "dynamically shaped");
  DENSE_ERROR("dense<> : tensor<2xi32>", "empty dense literal");
  DENSE_ERROR("dense<[1, 2] : tensor<2xi32>", "'>' to close the dense literal");
  DENSE_ERROR("dense<1.0> : tensor<complex<f32>>", "expected a complex value");
  DENSE_ERROR("dense<(1.0, 2.0)> : tensor<f32>", "complex value for f32");
}

/* ------------------------------------------------------------------------ */
/* dense_resource                                                            */

static const char resource_text[] =
    "func.func @f() {\n"
    "  %a = stablehlo.constant dense_resource<blob1> : tensor<2xi32>\n"
    "  %b = stablehlo.constant dense_resource<\"splat blob\"> : tensor<3xf32>\n"
    "  func.return\n"
    "}\n"
    "{-#\n"
    "  dialect_resources: {\n"
    "    builtin: {\n"
    "      blob1: \"0x040000000100000002000000\",\n"
    "      \"splat blob\": \"0x040000000000C03F\"\n"
    "    }\n"
    "  },\n"
    "  external_resources: { other: { key: \"value\" } }\n"
    "#-}\n";

static void test_dense_resource_blobs(void) {
  Module *m = PARSE_OK(resource_text);
  if (!m) return;
  const DenseData *a = first_op(m, OP_CONSTANT)->a.value;
  const DenseData *b = nth_op(m, OP_CONSTANT, 1)->a.value;
  EXPECT(a->resource && !strcmp(a->resource, "blob1") && !a->elided && !a->splat);
  EXPECT(dense_get_i64(a, 0) == 1 && dense_get_i64(a, 1) == 2);
  EXPECT(b->resource && !strcmp(b->resource, "splat blob") && b->splat);
  EXPECT(dense_get_f64(b, 2) == 1.5);
  ir_module_free(m);
  EXPECT_ERROR("func.func @f() {\n  %a = stablehlo.constant dense_resource<nope> : tensor<2xi32>\n"
               "  func.return\n}\n",
               2, "dense_resource 'nope' is not defined");
  EXPECT_ERROR("func.func @f() {\n  %a = stablehlo.constant dense_resource<b> : tensor<3xi32>\n"
               "  func.return\n}\n{-#\n  dialect_resources: {\n    builtin: {\n"
               "      b: \"0x040000000100000002000000\"\n    }\n  }\n#-}\n",
               2, "dense_resource blob has 8 bytes");
}

static const char elided_text[] =
    "func.func @f() {\n"
    "  %a = stablehlo.constant dense_resource<__elided__> : tensor<64xf32>\n"
    "  %b = stablehlo.constant dense_resource<__elided__> : tensor<64xi32>\n"
    "  %c = stablehlo.constant dense_resource<__elided__> : tensor<64xbf16>\n"
    "  %d = stablehlo.constant dense_resource<__elided__> : tensor<6x16xf32>\n"
    "  func.return\n"
    "}\n";

static void test_elided_fill_modes(void) {
  ParseOptions zeros = {ELIDED_ZEROS}, ones = {ELIDED_ONES}, pattern = {ELIDED_PATTERN};
  Module *m = parse_opts(elided_text, &zeros);
  EXPECT(m != NULL && diag_error_count() == 0);
  if (m) {
    const DenseData *a = first_op(m, OP_CONSTANT)->a.value;
    EXPECT(a->elided && a->splat && !strcmp(a->resource, "__elided__"));
    EXPECT(dense_get_f64(a, 63) == 0.0);
    EXPECT(dense_get_i64(nth_op(m, OP_CONSTANT, 1)->a.value, 5) == 0);
  }
  /* one warning for the whole module, not one per constant */
  const char *w = strstr(diags.text, "warning: dense_resource<__elided__>");
  EXPECT(w && !strstr(w + 1, "warning:"));
  EXPECT(strstr(diags.text, "test.mlir:2:") != NULL);
  ir_module_free(m);

  m = parse_opts(elided_text, &ones);
  if (m) {
    EXPECT(dense_get_f64(first_op(m, OP_CONSTANT)->a.value, 10) == 1.0);
    EXPECT(dense_get_i64(nth_op(m, OP_CONSTANT, 1)->a.value, 10) == 1);
    EXPECT(dense_get_f64(nth_op(m, OP_CONSTANT, 2)->a.value, 10) == 1.0);
  }
  EXPECT(m != NULL);
  ir_module_free(m);

  m = parse_opts(elided_text, &pattern);
  EXPECT(m != NULL);
  if (m) {
    const DenseData *f = first_op(m, OP_CONSTANT)->a.value;
    const DenseData *i = nth_op(m, OP_CONSTANT, 1)->a.value;
    const DenseData *h = nth_op(m, OP_CONSTANT, 2)->a.value;
    const DenseData *w = nth_op(m, OP_CONSTANT, 3)->a.value;
    EXPECT(!f->splat && f->nbytes == 256 && !i->splat && !h->splat && !w->splat);
    /* vectors (biases, scales) in [0.5, 1.5); weights U(-a, a) with
     * a = sqrt(6 / fan_in), fan_in = 6 here; integers in [-2, 2] */
    int in_range = 0, distinct = 0, negative = 0;
    double a = sqrt(6.0 / 6.0);
    for (int k = 0; k < 64; k++) {
      double x = dense_get_f64(f, k), y = dense_get_f64(h, k), z = dense_get_f64(w, k);
      int64_t n = dense_get_i64(i, k);
      in_range += x >= 0.5 && x < 1.5 && n >= -2 && n <= 2 && y >= 0.5 && y <= 1.5 &&
                  z >= -a && z < a;
      distinct += k > 0 && x != dense_get_f64(f, k - 1);
      negative += z < 0;
    }
    EXPECT_I64(in_range, 64);
    EXPECT(negative > 10 && negative < 54);
    EXPECT(distinct > 50);
  }
  ir_module_free(m);
}

/* ------------------------------------------------------------------------ */
/* Pretty and generic forms                                                  */

static bool same_list(I64List a, I64List b) {
  if (a.n != b.n) return false;
  for (int i = 0; i < a.n; i++)
    if (a.v[i] != b.v[i]) return false;
  return true;
}

static bool list_is(I64List l, int n, const int64_t *v) {
  return same_list(l, (I64List){n, (int64_t *)v});
}
#define LIST_IS(l, ...) \
  list_is((l), (int)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)), (int64_t[]){__VA_ARGS__})

enum { MAX_FORMS = 4 };

/* The module printed by ir_print_module (generic form), parsed again. */
static Module *reprint(int line, Module *m) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  ir_print_module(f, m);
  fclose(f);
  Module *again = parse_opts(buf, NULL);
  if (!again) {
    failed++;
    printf("FAIL %s:%d: the printed module does not parse:\n%s%s", __FILE__, line, buf, diags.text);
  }
  free(buf);
  return again;
}

/* Parses each of `texts` (n < MAX_FORMS), then the printer's output of the
 * first one, and returns the first `code` op of each in `ops` (NULL where a
 * text did not parse); the modules go to `mods`. Returns n + 1. */
static int parse_forms(int line, const char *const *texts, int n, OpCode code, Module **mods,
                       Op **ops) {
  for (int i = 0; i <= n; i++) {
    mods[i] = i < n ? parse_ok(line, texts[i]) : mods[0] ? reprint(line, mods[0]) : NULL;
    ops[i] = mods[i] ? first_op(mods[i], code) : NULL;
    if (mods[i] && !ops[i]) {
      failed++;
      printf("FAIL %s:%d: form %d has no %s\n", __FILE__, line, i, op_name(code));
    }
  }
  return n + 1;
}

static void free_forms(Module **mods, int n) {
  for (int i = 0; i < n; i++) ir_module_free(mods[i]);
}

static void test_forms_compare(void) {
  static const char *const texts[] = {
      "func.func @f(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xi1> {\n"
      "  %r = stablehlo.compare LT, %a, %b, FLOAT : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>\n"
      "  func.return %r : tensor<2xi1>\n}\n",
      "func.func @f(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xi1> {\n"
      "  %r = \"stablehlo.compare\"(%a, %b) {comparison_direction = #stablehlo<comparison_direction LT>,"
      " compare_type = #stablehlo<comparison_type FLOAT>} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>\n"
      "  \"func.return\"(%r) : (tensor<2xi1>) -> ()\n}\n",
      "func.func @f(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xi1> {\n"
      "  %r = \"stablehlo.compare\"(%a, %b) <{compare_type = #stablehlo<comparison_type FLOAT>,"
      " comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>\n"
      "  return %r : tensor<2xi1>\n}\n",
  };
  Module *m[MAX_FORMS];
  Op *op[MAX_FORMS];
  int nf = parse_forms(__LINE__, texts, 3, OP_COMPARE, m, op);
  for (int i = 0; i < nf; i++)
    if (op[i]) {
      EXPECT(op[i]->a.comparison_direction == CMP_LT && op[i]->a.compare_type == CMPT_FLOAT);
      EXPECT(op[i]->nopnds == 2 && op[i]->nresults == 1);
    }
  free_forms(m, nf);
  Module *plain = PARSE_OK("func.func @f(%a: tensor<i32>) -> tensor<i1> {\n"
                           "  %r = stablehlo.compare GE, %a, %a : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
                           "  func.return %r : tensor<i1>\n}\n");
  if (plain) {
    Op *c = first_op(plain, OP_COMPARE);
    EXPECT(c->a.comparison_direction == CMP_GE && c->a.compare_type == CMPT_NOTYPE);
  }
  ir_module_free(plain);
}

static void test_forms_dot_general(void) {
  static const char *const texts[] = {
      "func.func @f(%a: tensor<2x2x2xf32>, %b: tensor<2x2x3xf32>) -> tensor<2x2x3xf32> {\n"
      "  %r = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1],"
      " precision = [DEFAULT, HIGHEST] : (tensor<2x2x2xf32>, tensor<2x2x3xf32>) -> tensor<2x2x3xf32>\n"
      "  func.return %r : tensor<2x2x3xf32>\n}\n",
      "func.func @f(%a: tensor<2x2x2xf32>, %b: tensor<2x2x3xf32>) -> tensor<2x2x3xf32> {\n"
      "  %r = \"stablehlo.dot_general\"(%a, %b) {dot_dimension_numbers = #stablehlo.dot<\n"
      "      lhs_batching_dimensions = [0], rhs_batching_dimensions = [0],\n"
      "      lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>,\n"
      "    precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision HIGHEST>]}"
      " : (tensor<2x2x2xf32>, tensor<2x2x3xf32>) -> tensor<2x2x3xf32>\n"
      "  func.return %r : tensor<2x2x3xf32>\n}\n",
  };
  Module *m[MAX_FORMS];
  Op *op[MAX_FORMS];
  int nf = parse_forms(__LINE__, texts, 2, OP_DOT_GENERAL, m, op);
  for (int i = 0; i < nf; i++)
    if (op[i]) {
      const DotDims *d = &op[i]->a.dot;
      EXPECT(LIST_IS(d->lhs_batch, 0) && LIST_IS(d->rhs_batch, 0));
      EXPECT(LIST_IS(d->lhs_contract, 2) && LIST_IS(d->rhs_contract, 1));
      EXPECT(op[i]->a.precision[0] == 0 && op[i]->a.precision[1] == 2);
    }
  free_forms(m, nf);
  Module *mm = PARSE_OK("func.func @f(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {\n"
                        "  %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0]"
                        " : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>\n"
                        "  func.return %r : tensor<2x4xf32>\n}\n");
  if (mm) {
    const DotDims *d = &first_op(mm, OP_DOT_GENERAL)->a.dot;
    EXPECT(d->lhs_batch.n == 0 && d->rhs_batch.n == 0);
    EXPECT(LIST_IS(d->lhs_contract, 1) && LIST_IS(d->rhs_contract, 0));
  }
  ir_module_free(mm);
}

static void test_forms_convolution(void) {
  static const char *const texts[] = {
      "func.func @f(%x: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x4xf32>) -> tensor<1x4x8x4xf32> {\n"
      "  %r = stablehlo.convolution(%x, %k)\n"
      "      dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],\n"
      "      window = {stride = [2, 1], pad = [[0, 1], [2, 3]], lhs_dilate = [1, 1],"
      " rhs_dilate = [1, 2], reverse = [false, true]}\n"
      "      {batch_group_count = 1 : i64, feature_group_count = 1 : i64}"
      " : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x4x8x4xf32>\n"
      "  func.return %r : tensor<1x4x8x4xf32>\n}\n",
      "func.func @f(%x: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x4xf32>) -> tensor<1x4x8x4xf32> {\n"
      "  %r = \"stablehlo.convolution\"(%x, %k) {batch_group_count = 1 : i64,\n"
      "    dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 0,"
      " input_feature_dimension = 3, input_spatial_dimensions = [1, 2],"
      " kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3,"
      " kernel_spatial_dimensions = [0, 1], output_batch_dimension = 0,"
      " output_feature_dimension = 3, output_spatial_dimensions = [1, 2]>,\n"
      "    feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>,"
      " padding = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, rhs_dilation = array<i64: 1, 2>,"
      " window_reversal = array<i1: false, true>, window_strides = array<i64: 2, 1>}"
      " : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x4x8x4xf32>\n"
      "  func.return %r : tensor<1x4x8x4xf32>\n}\n",
      "func.func @f(%x: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x4xf32>) -> tensor<1x4x8x4xf32> {\n"
      "  %r = \"stablehlo.convolution\"(%x, %k) <{\n"
      "    dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>,\n"
      "    padding = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, rhs_dilation = array<i64: 1, 2>,"
      " window_reversal = array<i1: false, true>, window_strides = array<i64: 2, 1>}>"
      " : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x4x8x4xf32>\n"
      "  func.return %r : tensor<1x4x8x4xf32>\n}\n",
  };
  Module *m[MAX_FORMS];
  Op *op[MAX_FORMS];
  int nf = parse_forms(__LINE__, texts, 3, OP_CONVOLUTION, m, op);
  for (int i = 0; i < nf; i++) {
    if (!op[i]) continue;
    const ConvDims *c = &op[i]->a.conv;
    const Window *w = &op[i]->a.window;
    EXPECT(c->in_batch == 0 && c->in_feature == 3 && LIST_IS(c->in_spatial, 1, 2));
    EXPECT(c->k_in_feature == 2 && c->k_out_feature == 3 && LIST_IS(c->k_spatial, 0, 1));
    EXPECT(c->out_batch == 0 && c->out_feature == 3 && LIST_IS(c->out_spatial, 1, 2));
    EXPECT(LIST_IS(w->strides, 2, 1));
    EXPECT(LIST_IS(w->pad_lo, 0, 2) && LIST_IS(w->pad_hi, 1, 3));
    EXPECT(LIST_IS(w->base_dilations, 1, 1) && LIST_IS(w->window_dilations, 1, 2));
    EXPECT(LIST_IS(w->reversal, 0, 1));
    EXPECT(op[i]->a.feature_group_count == 1 && op[i]->a.batch_group_count == 1);
  }
  free_forms(m, nf);
}

/* A convolution as text: input NHWC xs, kernel HWIO ks, stride, pad and
 * rhs dilation along the last spatial dimension (the first: 2, 3, 1),
 * the result's width ow. */
static Op *conv_op(Module **m, const char *dims, const char *xs, const char *ks, int stride,
                   int pad, int rdil, const char *rs) {
  char text[1024];
  snprintf(text, sizeof text,
           "func.func @f(%%x: tensor<%sxf32>, %%k: tensor<%sxf32>) -> tensor<%sxf32> {\n"
           "  %%r = stablehlo.convolution(%%x, %%k) dim_numbers = %s,"
           " window = {stride = [2, %d], pad = [[3, 3], [%d, %d]], rhs_dilate = [1, %d]}"
           " {batch_group_count = 1 : i64, feature_group_count = 1 : i64}"
           " : (tensor<%sxf32>, tensor<%sxf32>) -> tensor<%sxf32>\n"
           "  func.return %%r : tensor<%sxf32>\n}\n",
           xs, ks, rs, dims, stride, pad, pad, rdil, xs, ks, rs, rs);
  *m = PARSE_OK(text);
  return *m ? first_op(*m, OP_CONVOLUTION) : NULL;
}

/* ir_conv_fold (codegen/conv.c conv_fold): ResNet-50's stem folds its 7
 * taps along x into K, result columns 0 and 1 (window from x = -3 and -1)
 * and 111 (to x = 224) gathered, 4 result rows a block of 288 spans at
 * most; 5 input features, a window dilation along x, or NCHW do not
 * fold. */
static void test_conv_fold(void) {
  const char *nhwc = "[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]";
  Module *m;
  IrConvFold f;
  Op *op = conv_op(&m, nhwc, "8x224x224x3", "7x7x3x64", 2, 3, 1, "8x112x112x64");
  EXPECT(op && ir_conv_fold(op, &f));
  if (op && ir_conv_fold(op, &f)) {
    EXPECT_I64(f.kw, 7);
    EXPECT_I64(f.left, 2);
    EXPECT_I64(f.edges, 3);
    EXPECT_I64(f.nq, 4);
    EXPECT_I64(f.edge_bytes, ir_align64(4 * 7 * 3 * 21 * 4));
  }
  ir_module_free(m);
  op = conv_op(&m, nhwc, "1x20x20x5", "7x7x5x16", 2, 3, 1, "1x10x10x16");
  EXPECT(op && !ir_conv_fold(op, &f));
  ir_module_free(m);
  op = conv_op(&m, nhwc, "1x20x20x3", "7x3x3x16", 1, 2, 2, "1x10x20x16");
  EXPECT(op && !ir_conv_fold(op, &f));
  ir_module_free(m);
  op = conv_op(&m, "[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]", "1x3x20x20", "16x3x7x7", 2, 3, 1,
               "1x16x10x10");
  EXPECT(op && !ir_conv_fold(op, &f));
  ir_module_free(m);
}

static void test_forms_reduce(void) {
  static const char *const texts[] = {
      "func.func @f(%x: tensor<2x3xf32>, %z: tensor<f32>) -> tensor<2xf32> {\n"
      "  %r = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1]"
      " : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>\n"
      "  func.return %r : tensor<2xf32>\n}\n",
      "func.func @f(%x: tensor<2x3xf32>, %z: tensor<f32>) -> tensor<2xf32> {\n"
      "  %r = stablehlo.reduce(%x init: %z) across dimensions = [1]"
      " : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>\n"
      "   reducer(%a: tensor<f32>, %b: tensor<f32>) {\n"
      "    %s = stablehlo.add %a, %b : tensor<f32>\n"
      "    stablehlo.return %s : tensor<f32>\n"
      "  }\n"
      "  func.return %r : tensor<2xf32>\n}\n",
      "func.func @f(%x: tensor<2x3xf32>, %z: tensor<f32>) -> tensor<2xf32> {\n"
      "  %r = \"stablehlo.reduce\"(%x, %z) ({\n"
      "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
      "    %s = \"stablehlo.add\"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>\n"
      "    \"stablehlo.return\"(%s) : (tensor<f32>) -> ()\n"
      "  }) {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>\n"
      "  func.return %r : tensor<2xf32>\n}\n",
  };
  Module *m[MAX_FORMS];
  Op *op[MAX_FORMS];
  int nf = parse_forms(__LINE__, texts, 3, OP_REDUCE, m, op);
  for (int i = 0; i < nf; i++) {
    if (!op[i]) continue;
    EXPECT(LIST_IS(op[i]->a.dimensions, 1));
    EXPECT(op[i]->nopnds == 2 && op[i]->opnds[1] == m[i]->funcs[0]->body->args[1]);
    EXPECT(op[i]->nregions == 1 && op[i]->regions[0]->nblocks == 1);
    const Block *b = op[i]->regions[0]->blocks[0];
    EXPECT(b->nargs == 2 && b->args[0]->type->rank == 0 && b->args[0]->type->elem == ET_F32);
    EXPECT(b->first && b->first->code == OP_ADD && b->first->opnds[0] == b->args[0] &&
           b->first->opnds[1] == b->args[1]);
    EXPECT(b->last && b->last->code == OP_RETURN && b->last->opnds[0] == b->first->results[0]);
  }
  free_forms(m, nf);
}

static void test_forms_slice_pad_iota_broadcast(void) {
  static const char *const slices[] = {
      "func.func @f(%x: tensor<3x8xf32>) -> tensor<2x4xf32> {\n"
      "  %r = stablehlo.slice %x [1:3, 0:8:2] : (tensor<3x8xf32>) -> tensor<2x4xf32>\n"
      "  func.return %r : tensor<2x4xf32>\n}\n",
      "func.func @f(%x: tensor<3x8xf32>) -> tensor<2x4xf32> {\n"
      "  %r = \"stablehlo.slice\"(%x) <{start_indices = array<i64: 1, 0>,"
      " limit_indices = array<i64: 3, 8>, strides = array<i64: 1, 2>}>"
      " : (tensor<3x8xf32>) -> tensor<2x4xf32>\n"
      "  func.return %r : tensor<2x4xf32>\n}\n",
      "func.func @f(%x: tensor<3x8xf32>) -> tensor<2x4xf32> {\n"
      "  %r = \"stablehlo.slice\"(%x) {start_indices = dense<[1, 0]> : tensor<2xi64>,"
      " limit_indices = dense<[3, 8]> : tensor<2xi64>, strides = dense<[1, 2]> : tensor<2xi64>}"
      " : (tensor<3x8xf32>) -> tensor<2x4xf32>\n"
      "  func.return %r : tensor<2x4xf32>\n}\n",
  };
  Module *m[MAX_FORMS];
  Op *op[MAX_FORMS];
  int nf = parse_forms(__LINE__, slices, 3, OP_SLICE, m, op);
  for (int i = 0; i < nf; i++)
    if (op[i])
      EXPECT(LIST_IS(op[i]->a.start_indices, 1, 0) && LIST_IS(op[i]->a.limit_indices, 3, 8) &&
             LIST_IS(op[i]->a.strides, 1, 2));
  free_forms(m, nf);

  static const char *const pads[] = {
      "func.func @f(%x: tensor<2x3xf32>, %z: tensor<f32>) -> tensor<5x7xf32> {\n"
      "  %r = stablehlo.pad %x, %z, low = [1, 0], high = [2, 1], interior = [0, 1]"
      " : (tensor<2x3xf32>, tensor<f32>) -> tensor<5x7xf32>\n"
      "  func.return %r : tensor<5x7xf32>\n}\n",
      "func.func @f(%x: tensor<2x3xf32>, %z: tensor<f32>) -> tensor<5x7xf32> {\n"
      "  %r = \"stablehlo.pad\"(%x, %z) {edge_padding_high = array<i64: 2, 1>,"
      " edge_padding_low = array<i64: 1, 0>, interior_padding = array<i64: 0, 1>}"
      " : (tensor<2x3xf32>, tensor<f32>) -> tensor<5x7xf32>\n"
      "  func.return %r : tensor<5x7xf32>\n}\n",
  };
  nf = parse_forms(__LINE__, pads, 2, OP_PAD, m, op);
  for (int i = 0; i < nf; i++)
    if (op[i])
      EXPECT(LIST_IS(op[i]->a.edge_padding_low, 1, 0) && LIST_IS(op[i]->a.edge_padding_high, 2, 1) &&
             LIST_IS(op[i]->a.interior_padding, 0, 1));
  free_forms(m, nf);

  static const char *const iotas[] = {
      "func.func @f() -> tensor<2x3xi32> {\n"
      "  %r = stablehlo.iota dim = 1 : tensor<2x3xi32>\n"
      "  func.return %r : tensor<2x3xi32>\n}\n",
      "func.func @f() -> tensor<2x3xi32> {\n"
      "  %r = \"stablehlo.iota\"() {iota_dimension = 1 : i64} : () -> tensor<2x3xi32>\n"
      "  func.return %r : tensor<2x3xi32>\n}\n",
  };
  nf = parse_forms(__LINE__, iotas, 2, OP_IOTA, m, op);
  for (int i = 0; i < nf; i++) {
    if (!op[i]) continue;
    EXPECT(op[i]->a.iota_dimension == 1 && op[i]->nopnds == 0 && op[i]->nresults == 1);
    EXPECT(!strcmp(type_str(&m[i]->arena, op[i]->results[0]->type), "tensor<2x3xi32>"));
  }
  free_forms(m, nf);

  static const char *const bcasts[] = {
      "func.func @f(%x: tensor<2x3xf32>) -> tensor<2x4x3xf32> {\n"
      "  %r = stablehlo.broadcast_in_dim %x, dims = [0, 2] : (tensor<2x3xf32>) -> tensor<2x4x3xf32>\n"
      "  func.return %r : tensor<2x4x3xf32>\n}\n",
      "func.func @f(%x: tensor<2x3xf32>) -> tensor<2x4x3xf32> {\n"
      "  %r = \"stablehlo.broadcast_in_dim\"(%x) {broadcast_dimensions = array<i64: 0, 2>}"
      " : (tensor<2x3xf32>) -> tensor<2x4x3xf32>\n"
      "  func.return %r : tensor<2x4x3xf32>\n}\n",
      "func.func @f(%x: tensor<2x3xf32>) -> tensor<2x4x3xf32> {\n"
      "  %r = \"stablehlo.broadcast_in_dim\"(%x) {broadcast_dimensions = dense<[0, 2]> : tensor<2xi64>}"
      " : (tensor<2x3xf32>) -> tensor<2x4x3xf32>\n"
      "  func.return %r : tensor<2x4x3xf32>\n}\n",
  };
  nf = parse_forms(__LINE__, bcasts, 3, OP_BROADCAST_IN_DIM, m, op);
  for (int i = 0; i < nf; i++)
    if (op[i]) EXPECT(LIST_IS(op[i]->a.broadcast_dimensions, 0, 2));
  free_forms(m, nf);
}

/* Upstream prints gather in generic form only; its spellings differ in
 * properties vs attr-dict, field order, and `array` vs `dense` lists. */
static void test_forms_gather(void) {
  static const char *const texts[] = {
      "func.func @f(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>) -> tensor<2x3x2x2xi64> {\n"
      "  %r = \"stablehlo.gather\"(%x, %i) {\n"
      "    dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0],"
      " start_index_map = [1, 0], index_vector_dim = 2>,\n"
      "    slice_sizes = array<i64: 1, 2, 2>, indices_are_sorted = false\n"
      "  } : (tensor<3x4x2xi64>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xi64>\n"
      "  func.return %r : tensor<2x3x2x2xi64>\n}\n",
      "func.func @f(%x: tensor<3x4x2xi64>, %i: tensor<2x3x2xi64>) -> tensor<2x3x2x2xi64> {\n"
      "  %r = \"stablehlo.gather\"(%x, %i) <{\n"
      "    dimension_numbers = #stablehlo.gather<index_vector_dim = 2, start_index_map = [1, 0],"
      " collapsed_slice_dims = [0], offset_dims = [2, 3],>,\n"
      "    slice_sizes = dense<[1, 2, 2]> : tensor<3xi64>\n"
      "  }> : (tensor<3x4x2xi64>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xi64>\n"
      "  func.return %r : tensor<2x3x2x2xi64>\n}\n",
  };
  Module *m[MAX_FORMS];
  Op *op[MAX_FORMS];
  int nf = parse_forms(__LINE__, texts, 2, OP_GATHER, m, op);
  for (int i = 0; i < nf; i++) {
    if (!op[i]) continue;
    const GatherDims *g = &op[i]->a.gather;
    EXPECT(LIST_IS(g->offset_dims, 2, 3) && LIST_IS(g->collapsed_slice_dims, 0));
    EXPECT(g->operand_batching_dims.n == 0 && g->start_indices_batching_dims.n == 0);
    EXPECT(LIST_IS(g->start_index_map, 1, 0) && g->index_vector_dim == 2);
    EXPECT(LIST_IS(g->slice_sizes, 1, 2, 2) && !g->indices_are_sorted);
  }
  free_forms(m, nf);
  Module *b = PARSE_OK(
      "func.func @f(%x: tensor<5x200x300xf32>, %i: tensor<5x10x1xi32>) -> tensor<5x10x300xf32> {\n"
      "  %r = \"stablehlo.gather\"(%x, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [2],"
      " collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0],"
      " start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = true,"
      " slice_sizes = array<i64: 1, 1, 300>} : (tensor<5x200x300xf32>, tensor<5x10x1xi32>)"
      " -> tensor<5x10x300xf32>\n"
      "  func.return %r : tensor<5x10x300xf32>\n}\n");
  if (b) {
    const GatherDims *g = &first_op(b, OP_GATHER)->a.gather;
    EXPECT(LIST_IS(g->operand_batching_dims, 0) && LIST_IS(g->start_indices_batching_dims, 0));
    EXPECT(g->indices_are_sorted);
  }
  ir_module_free(b);
}

/* ------------------------------------------------------------------------ */
/* Locations                                                                 */

static const char three_cases[] =
    "// RUN: three cases\n"                                           /* 1 */
    "func.func @main() -> tensor<i32> {\n"                            /* 2 */
    "  %c = stablehlo.constant dense<1> : tensor<i32>\n"              /* 3 */
    "  func.return %c : tensor<i32>\n"                                /* 4 */
    "}\n"                                                             /* 5 */
    "\n"                                                              /* 6 */
    "// -----\n"                                                      /* 7 */
    "\n"                                                              /* 8 */
    "module @second {\n"                                              /* 9 */
    "  func.func @main() -> tensor<i32> {\n"                          /* 10 */
    "    %c = stablehlo.constant dense<2> : tensor<i32>\n"            /* 11 */
    "    func.return %c : tensor<i32>\n"                              /* 12 */
    "  }\n"                                                           /* 13 */
    "}\n"                                                             /* 14 */
    "\n"                                                              /* 15 */
    "// -----\n"                                                      /* 16 */
    "\n"                                                              /* 17 */
    "func.func @main(%x: tensor<f32>) -> tensor<f32> {\n"             /* 18 */
    "  %c = stablehlo.constant dense<3.0> : tensor<f32>\n"            /* 19 */
    "    %s = stablehlo.add %x, %c : tensor<f32>\n"                   /* 20 */
    "  func.return %s : tensor<f32>\n"                                /* 21 */
    "}\n"                                                             /* 22 */
    "// -----\n"                                                      /* 23 */
    "func.func @main() {\n"                                           /* 24 */
    "  %y = stablehlo.negate %nope : tensor<f32>\n"                   /* 25 */
    "  func.return\n"                                                 /* 26 */
    "}\n";                                                            /* 27 */

/* Byte offset of the start of the line after the n-th `// -----`. */
static size_t case_start(const char *text, int n) {
  const char *p = text;
  for (int i = 0; i < n; i++) p = strchr(strstr(p, "// -----"), '\n') + 1;
  return (size_t)(p - text);
}

static void test_locations_in_third_case(void) {
  SrcFile *f = mksrc(three_cases);
  size_t begin = case_start(three_cases, 2), end = case_start(three_cases, 3);
  diag_reset();
  diags.len = 0;
  Module *m = parse_module(f, begin, end, NULL);
  EXPECT(m != NULL);
  if (!m) {
    printf("%s", diags.text);
    return;
  }
  EXPECT(m->nfuncs == 1 && m->funcs[0]->loc.line == 18 && m->funcs[0]->loc.col == 1);
  Op *c = first_op(m, OP_CONSTANT), *add = first_op(m, OP_ADD), *ret = first_op(m, OP_FUNC_RETURN);
  EXPECT(c && c->loc.line == 19 && c->loc.col == 8);
  EXPECT(add && add->loc.line == 20 && add->loc.col == 10);
  EXPECT(ret && ret->loc.line == 21 && ret->loc.col == 3);
  EXPECT(c && c->loc.file == f);
  EXPECT(c && dense_get_f64(c->a.value, 0) == 3.0); /* not case 1's constant */
  ir_module_free(m);

  /* the second case: a named module; the first: only its own function */
  m = parse_module(f, case_start(three_cases, 1), case_start(three_cases, 2), NULL);
  EXPECT(m && m->name && !strcmp(m->name, "second") && m->loc.line == 9);
  EXPECT(m && first_op(m, OP_CONSTANT)->loc.line == 11);
  ir_module_free(m);
  m = parse_module(f, 0, case_start(three_cases, 1), NULL);
  EXPECT(m && m->nfuncs == 1 && first_op(m, OP_CONSTANT)->loc.line == 3);
  ir_module_free(m);

  /* an error in the fourth case names the line in the whole file */
  diag_reset();
  diags.len = 0;
  m = parse_module(f, case_start(three_cases, 3), f->len, NULL);
  EXPECT(m == NULL && diag_error_count() == 1);
  EXPECT(!strncmp(diags.text, "test.mlir:25:25: error: use of undefined value '%nope'", 54));
  EXPECT(strstr(diags.text, "\n  %y = stablehlo.negate %nope : tensor<f32>\n"
                            "                        ^\n") != NULL);
  ir_module_free(m);
}

static void test_empty_input_is_an_empty_module(void) {
  Module *m = PARSE_OK("// only a comment\n");
  if (m) EXPECT(m->nfuncs == 0);
  ir_module_free(m);
}

/* ------------------------------------------------------------------------ */
/* Errors                                                                    */

static void test_syntax_errors(void) {
  EXPECT_ERROR("func.func @f() {\n  func.return\n", 3, "expected '}' to close the region");
  EXPECT_ERROR("func.func @f(%a: tensor<2xf32) {\n  func.return\n}\n", 1,
               "expected '>' to close tensor type");
  EXPECT_ERROR("func.func @f(%a: tensor<2xf31>) {\n  func.return\n}\n", 1,
               "unknown element type 'f31'");
  EXPECT_ERROR("func.func @f(%a: tensor<*xf32>) {\n  func.return\n}\n", 1,
               "unranked tensors are not supported");
  EXPECT_ERROR("func.func @f() {\n  %a = \"stablehlo.constant() : () -> tensor<f32>\n"
               "  func.return\n}\n",
               2, "unterminated string literal");
  EXPECT_ERROR("func.func @f() {\n  func.return\n}\n$\n", 4, "unexpected character '$'");
  EXPECT_ERROR("func.func @f() {\n  func.return\n}\n\x01\n", 4, "unexpected byte 0x01");
  EXPECT_ERROR("func.func @f() {\n  %a = stablehlo.frobnicate : tensor<f32>\n  func.return\n}\n",
               2, "unknown operation 'stablehlo.frobnicate'");
  EXPECT_ERROR("func.func @f() {\n  func.return\n}\nfunc.func @f() {\n  func.return\n}\n", 4,
               "redefinition of function '@f'");
  EXPECT_ERROR("module {\n  func.func @f() {\n    func.return\n  }\n}\nmodule {\n}\n", 6,
               "only one module per input");
  EXPECT_ERROR("func.func @f() attributes {a = #stablehlo<bad {> {\n  func.return\n}\n", 1, "");
  EXPECT_ERROR("func.func @f() -> tensor<f32> {\n"
               "  %c = stablehlo.constant {attr = #foo.bar<[(]>} dense<1.0> : tensor<f32>\n"
               "  func.return %c : tensor<f32>\n}\n",
               2, "unbalanced ']' in attribute");
}

static void test_ssa_errors(void) {
  EXPECT_ERROR("func.func @f(%a: tensor<f32>) -> tensor<f32> {\n"
               "  %b = stablehlo.add %a, %a : tensor<f32>\n"
               "  %c = stablehlo.add %b, %undefined : tensor<f32>\n"
               "  func.return %c : tensor<f32>\n}\n",
               3, "use of undefined value '%undefined'");
  EXPECT_ERROR("func.func @f(%a: tensor<f32>) -> tensor<f32> {\n"
               "  %b = stablehlo.add %a, %a : tensor<f32>\n"
               "  %b = stablehlo.add %a, %a : tensor<f32>\n"
               "  func.return %b : tensor<f32>\n}\n",
               3, "redefinition of value '%b'");
  EXPECT_ERROR("func.func @f(%a: tensor<f32>) -> tensor<f32> {\n"
               "  %b = stablehlo.add %a, %a : tensor<f32>\n"
               "  func.return %b#1 : tensor<f32>\n}\n",
               3, "'%b' has 1 result, no #1");
  EXPECT_ERROR("func.func @f(%a: tensor<f32>) -> tensor<f32> {\n"
               "  %b, %c = stablehlo.add %a, %a : tensor<f32>\n"
               "  func.return %b : tensor<f32>\n}\n",
               2, "defines 1 result but 2 names are bound");
  /* a region's names die with it */
  EXPECT_ERROR("func.func @f(%x: tensor<2xf32>, %z: tensor<f32>) -> tensor<f32> {\n"
               "  %r = stablehlo.reduce(%x init: %z) across dimensions = [0]"
               " : (tensor<2xf32>, tensor<f32>) -> tensor<f32>\n"
               "   reducer(%a: tensor<f32>, %b: tensor<f32>) {\n"
               "    %s = stablehlo.add %a, %b : tensor<f32>\n"
               "    stablehlo.return %s : tensor<f32>\n"
               "  }\n"
               "  func.return %s : tensor<f32>\n}\n",
               7, "use of undefined value '%s'");
  /* functions are isolated: no names from another function */
  EXPECT_ERROR("func.func @f(%a: tensor<f32>) -> tensor<f32> {\n"
               "  func.return %a : tensor<f32>\n}\n"
               "func.func @g() -> tensor<f32> {\n"
               "  func.return %a : tensor<f32>\n}\n",
               5, "use of undefined value '%a'");
}

static void test_type_signature_errors(void) {
  EXPECT_ERROR("func.func @f(%a: tensor<f32>, %b: tensor<i32>) -> tensor<f32> {\n"
               "  %c = \"stablehlo.add\"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>\n"
               "  func.return %c : tensor<f32>\n}\n",
               2, "operand #1 has type tensor<i32> but the op's type signature says tensor<f32>");
  EXPECT_ERROR("func.func @f(%a: tensor<f32>) -> tensor<f32> {\n"
               "  %c = \"stablehlo.add\"(%a, %a) : (tensor<f32>) -> tensor<f32>\n"
               "  func.return %c : tensor<f32>\n}\n",
               2, "op has 2 operands but its type signature lists 1");
  EXPECT_ERROR("func.func @f(%a: f32) {\n  func.return\n}\n", 1,
               "expected a tensor type, found scalar type 'f32'");
}

static void test_attribute_errors(void) {
  EXPECT_ERROR("func.func @f() -> tensor<4xi32> {\n"
               "  %r = \"stablehlo.iota\"() : () -> tensor<4xi32>\n"
               "  func.return %r : tensor<4xi32>\n}\n",
               2, "missing attribute 'iota_dimension'");
  EXPECT_ERROR("func.func @f(%a: tensor<2xf32>) -> tensor<2xi1> {\n"
               "  %r = stablehlo.compare XX, %a, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>\n"
               "  func.return %r : tensor<2xi1>\n}\n",
               2, "attribute 'comparison_direction' has an unknown value");
  EXPECT_ERROR("func.func @f(%x: tensor<2x3xf32>) -> tensor<2x3x4xf32> {\n"
               "  %r = \"stablehlo.broadcast_in_dim\"(%x) {broadcast_dimensions = \"zero\"}"
               " : (tensor<2x3xf32>) -> tensor<2x3x4xf32>\n"
               "  func.return %r : tensor<2x3x4xf32>\n}\n",
               2, "attribute 'broadcast_dimensions' must be a list of integers");
  EXPECT_ERROR("func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {\n"
               "  %r = stablehlo.reverse %x, dims = [99999999999999999999] : tensor<3xf32>\n"
               "  func.return %r : tensor<3xf32>\n}\n",
               2, "integer out of range");
  /* the old `dense<...> : tensor<Nxi64>` spelling of a list: integers only */
  EXPECT_ERROR("func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {\n"
               "  %r = \"stablehlo.reverse\"(%x) {dimensions = dense<[1.0e30]> : tensor<1xf32>}"
               " : (tensor<3xf32>) -> tensor<3xf32>\n"
               "  func.return %r : tensor<3xf32>\n}\n",
               2, "attribute 'dimensions' must be a list of integers");
  EXPECT_ERROR("func.func @f() -> tensor<f32> {\n"
               "  %c = stablehlo.constant {a = #undefined_alias} dense<1.0> : tensor<f32>\n"
               "  func.return %c : tensor<f32>\n}\n",
               2, "undefined attribute alias '#undefined_alias'");
}

/* Hostile nesting is an error, not a stack overflow. */
static void test_deep_nesting_is_an_error(void) {
  static char text[8192];
  char *p = text;
  p += sprintf(p, "func.func @f() attributes {a = ");
  for (int i = 0; i < 1000; i++) *p++ = '[';
  for (int i = 0; i < 1000; i++) *p++ = ']';
  sprintf(p, "} {\n  func.return\n}\n");
  EXPECT_ERROR(text, 1, "nesting deeper than");
  p = text;
  p += sprintf(p, "func.func @f(%%a: ");
  for (int i = 0; i < 1000; i++) p += sprintf(p, "tuple<");
  sprintf(p, ">) {\n  func.return\n}\n");
  EXPECT_ERROR(text, 1, "nesting deeper than");
}

int main(void) {
  diag_set_sink(capture, NULL);
  test_dense_nested_lists();
  test_dense_splats();
  test_dense_hex_blobs();
  test_dense_hex_long();
  test_dense_special_floats();
  test_f16_rounding();
  test_bf16_and_wider_rounding();
  test_small_float_rounding();
  test_dense_integer_ranges();
  test_dense_bools();
  test_dense_shape_errors();
  test_dense_resource_blobs();
  test_elided_fill_modes();
  test_forms_compare();
  test_forms_dot_general();
  test_forms_convolution();
  test_conv_fold();
  test_forms_reduce();
  test_forms_slice_pad_iota_broadcast();
  test_forms_gather();
  test_locations_in_third_case();
  test_empty_input_is_an_empty_module();
  test_syntax_errors();
  test_ssa_errors();
  test_type_signature_errors();
  test_attribute_errors();
  test_deep_nesting_is_an_error();
  ir_module_free(const_module);
  free_sources();
  diag_set_sink(NULL, NULL);
  return unit_report();
}
