/* dense.c: `dense<...>` and `dense_resource<...>` literals.
 *
 * A literal is read into raw scalars first, because its element type comes
 * after it (`dense<[1.5, 2.0]> : tensor<2xbf16>`); then the scalars are
 * converted into the buffer layout of ir.h (DenseData). Floats are rounded
 * to nearest-even from the double the decimal text denotes, as MLIR does;
 * hexadecimal integers given for float types are bit patterns.
 */
#include <ctype.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "../runtime/elem.h"
#include "frontend_internal.h"


/* ------------------------------------------------------------------------ */
/* Float encodings                                                           */

/* The runtime's encoder (runtime/elem.c), the one host-side rounding to
 * the narrow formats, so that literals and the values `shloc run` parses
 * agree. Element codes equal the runtime's (tests/unit/test_runtime_abi.c);
 * tf32, which never reaches the runtime, has its IEEE format here. */
uint64_t dense_float_bits(double v, ElemType e) {
  shlort_elem_kind k = {.cls = 'f', .bytes = 4, .parts = 1, .ebits = 8, .mbits = 10,
                        .bias = 127, .fk = SHLORT_FK_IEEE};
  if (e != ET_TF32 && (shlort_elem_kind_of((int32_t)e, &k) || k.cls != 'f')) return 0;
  return shlort_float_bits(&k, v);
}

/* ------------------------------------------------------------------------ */
/* Raw literal                                                               */

typedef enum RawKind { RK_INT, RK_HEX, RK_FLOAT, RK_BOOL } RawKind;

typedef struct RawScalar {
  uint8_t kind;
  bool neg;
  uint64_t u; /* integers: magnitude; bools: 0/1 */
  double d;   /* floats, inf, nan (sign applied) */
} RawScalar;

typedef struct RawElem {
  RawScalar re, im;
  bool pair; /* `(re, im)` */
} RawElem;

typedef struct RawDense {
  RawElem *v;
  size_t n, cap;
  bool list;  /* `[...]` as opposed to a splat scalar */
  int rank;   /* nesting depth of the list; -1 until known */
  int64_t shape[MAX_RANK];
  bool shape_set[MAX_RANK];
  const char *hex; /* "0x..." blob: the hex digits */
  size_t nhex;
} RawDense;

static bool raw_push(Parser *p, RawDense *r, const RawElem *e) {
  if (r->n == r->cap) {
    size_t cap = r->cap ? r->cap * 2 : 64;
    RawElem *v = realloc(r->v, cap * sizeof *v);
    if (!v) return parse_error(p, p->tok.loc, "out of memory");
    r->v = v;
    r->cap = cap;
  }
  r->v[r->n++] = *e;
  return true;
}

/* scalar ::= `-`? (int | hex | float | `inf` | `nan`) | `true` | `false` */
static bool parse_raw_scalar(Parser *p, RawScalar *s) {
  memset(s, 0, sizeof *s);
  if (parse_is_word(p, "true") || parse_is_word(p, "false")) {
    s->kind = RK_BOOL;
    s->u = p->tok.s[0] == 't';
    parse_next(p);
    return true;
  }
  s->neg = parse_accept(p, TK_MINUS);
  Token t = p->tok;
  if (t.kind == TK_INT) {
    bool hex = t.n > 2 && t.s[1] == 'x';
    s->kind = hex ? RK_HEX : RK_INT;
    uint64_t base = hex ? 16 : 10;
    for (size_t i = hex ? 2 : 0; i < t.n; i++) {
      char c = t.s[i];
      uint64_t d = (uint64_t)(c <= '9' ? c - '0' : (c | 32) - 'a' + 10);
      if (s->u > (UINT64_MAX - d) / base)
        return parse_error(p, t.loc, "integer literal out of range");
      s->u = s->u * base + d;
    }
  } else if (t.kind == TK_FLOAT) {
    char buf[128];
    size_t n = t.n < sizeof buf - 1 ? t.n : sizeof buf - 1;
    memcpy(buf, t.s, n);
    buf[n] = 0;
    s->kind = RK_FLOAT;
    s->d = strtod(buf, NULL);
  } else if (parse_is_word(p, "inf") || parse_is_word(p, "nan")) {
    s->kind = RK_FLOAT;
    s->d = t.s[0] == 'i' ? INFINITY : NAN;
  } else {
    if (t.kind == TK_EOF)
      return parse_error(p, t.loc, "expected a dense element, found end of input");
    return parse_error(p, t.loc, "expected a dense element, found '%.*s'", (int)t.n, t.s);
  }
  if (s->neg && s->kind == RK_FLOAT) s->d = -s->d;
  parse_next(p);
  return true;
}

/* element ::= scalar | `(` scalar `,` scalar `)` */
static bool parse_raw_elem(Parser *p, RawDense *r) {
  RawElem e = {0};
  if (parse_accept(p, TK_LPAREN)) {
    e.pair = true;
    if (!parse_raw_scalar(p, &e.re) || !parse_expect(p, TK_COMMA, "',' in complex value") ||
        !parse_raw_scalar(p, &e.im) || !parse_expect(p, TK_RPAREN, "')' after complex value"))
      return false;
  } else if (!parse_raw_scalar(p, &e.re)) {
    return false;
  }
  return raw_push(p, r, &e);
}

/* list ::= `[` ((list | element) (`,` (list | element))*)? `]`, rectangular */
static bool parse_raw_list(Parser *p, RawDense *r, int depth) {
  Loc loc = p->tok.loc;
  if (depth >= MAX_RANK) return parse_error(p, loc, "dense literal nested too deeply");
  parse_next(p);
  int64_t count = 0;
  if (!parse_is(p, TK_RBRACKET)) {
    do {
      if (parse_is(p, TK_LBRACKET)) {
        if (r->rank >= 0 && depth + 1 >= r->rank)
          return parse_error(p, p->tok.loc, "dense literal: unexpected nested list");
        if (!parse_raw_list(p, r, depth + 1)) return false;
      } else {
        if (r->rank < 0) r->rank = depth + 1;
        if (r->rank != depth + 1)
          return parse_error(p, p->tok.loc, "dense literal: expected a nested list here");
        if (!parse_raw_elem(p, r)) return false;
      }
      count++;
    } while (parse_accept(p, TK_COMMA));
  }
  if (!parse_expect(p, TK_RBRACKET, "']' or ',' in dense literal")) return false;
  if (count == 0) {
    if (r->rank < 0) r->rank = depth + 1;
    if (r->rank != depth + 1) return parse_error(p, loc, "dense literal: unexpected empty list");
  }
  if (r->shape_set[depth] && r->shape[depth] != count)
    return parse_error(p, loc, "dense literal is not rectangular: %lld elements here, %lld before",
                       (long long)count, (long long)r->shape[depth]);
  r->shape[depth] = count;
  r->shape_set[depth] = true;
  return true;
}

/* ------------------------------------------------------------------------ */
/* Conversion to buffers                                                     */

static void store_le(uint8_t *out, uint64_t v, int nbytes) {
  for (int i = 0; i < nbytes; i++) out[i] = (uint8_t)(v >> (8 * i));
}

static bool store_scalar(Parser *p, Loc loc, size_t idx, const RawScalar *s, ElemType e,
                         uint8_t *out) {
  int nb = elem_bytes(e), bits = elem_bits(e);
  char cls = elem_class(e);
  if (cls == 'b') {
    if (s->kind == RK_BOOL || ((s->kind == RK_INT || s->kind == RK_HEX) && !s->neg && s->u <= 1)) {
      out[0] = (uint8_t)s->u;
      return true;
    }
    return parse_error(p, loc, "dense element %zu: expected true or false for i1", idx);
  }
  if (cls == 's' || cls == 'u') {
    if (s->kind == RK_BOOL || s->kind == RK_FLOAT)
      return parse_error(p, loc, "dense element %zu: expected an integer for %s", idx,
                         elem_name(e));
    uint64_t lim = bits >= 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
    bool ok = s->neg ? cls == 's' && s->u <= ((uint64_t)1 << (bits - 1)) : s->u <= lim;
    if (!ok)
      return parse_error(p, loc, "dense element %zu: %s%llu does not fit in %s", idx,
                         s->neg ? "-" : "", (unsigned long long)s->u, elem_name(e));
    uint64_t v = s->neg ? 0 - s->u : s->u;
    if (bits < 64) {
      v &= lim;
      if (cls == 's' && bits < 8 * nb && (v >> (bits - 1)) & 1) v |= ~lim; /* sign-extend */
    }
    store_le(out, v, nb);
    return true;
  }
  if (cls == 'f') {
    uint64_t b;
    if (s->kind == RK_BOOL)
      return parse_error(p, loc, "dense element %zu: expected a number for %s", idx, elem_name(e));
    if (s->kind == RK_HEX) {
      if (s->neg || (bits < 64 && s->u >> bits))
        return parse_error(p, loc, "dense element %zu: 0x%llX is not a %d-bit pattern", idx,
                           (unsigned long long)s->u, bits);
      b = s->u;
    } else {
      double d = s->kind == RK_FLOAT ? s->d : (double)s->u;
      if (s->kind == RK_INT && s->neg) d = -d;
      b = dense_float_bits(d, e);
    }
    store_le(out, b, nb);
    return true;
  }
  return parse_error(p, loc, "dense literals of type %s are not supported", elem_name(e));
}

static bool store_elem(Parser *p, Loc loc, size_t idx, const RawElem *r, ElemType e,
                       uint8_t *out) {
  if (!elem_is_complex(e)) {
    if (r->pair)
      return parse_error(p, loc, "dense element %zu: complex value for %s", idx, elem_name(e));
    return store_scalar(p, loc, idx, &r->re, e, out);
  }
  if (!r->pair)
    return parse_error(p, loc, "dense element %zu: expected a complex value '(re, im)'", idx);
  ElemType part = e == ET_C64 ? ET_F32 : ET_F64;
  int half = elem_bytes(part);
  return store_scalar(p, loc, idx, &r->re, part, out) &&
         store_scalar(p, loc, idx, &r->im, part, out + half);
}

/* The value of hex digit c, and in *bad a non-zero bit when c is not one.
 * '0'-'9' are 0x30-0x39, 'A'-'F' and 'a'-'f' 0x41-0x46 and 0x61-0x66. */
static inline unsigned hex_digit(unsigned char c, unsigned *bad) {
  unsigned digit = (unsigned char)(c - '0') < 10, letter = (unsigned char)((c | 0x20) - 'a') < 6;
  *bad |= !(digit | letter);
  return (c & 0xFu) + 9u * (c >> 6);
}

#define BYTES8(b) (0x0101010101010101ull * (b))
/* Hex literals at least this long give their text's memory back once
 * decoded (srcfile_release). */
#define HEX_RELEASE_DIGITS ((size_t)1 << 20)

/* Eight hex digits (a little-endian word, s[0] in its low byte) as four
 * bytes, eight at a time in a 64-bit word (constants of hundreds of MB
 * come this way): hex_digit's arithmetic per byte, and for the check
 * that bytes lie in [lo, hi], bit 7 of c + 0x80 - lo (c >= lo) and not of
 * c + 0x7F - hi (c > hi), which cannot carry into the next byte for
 * c < 0x80. Sets *bad when one is not a hex digit. */
static uint32_t hex_word(uint64_t x, uint64_t *bad) {
  uint64_t y = x | BYTES8(0x20);
  uint64_t digit = (x + BYTES8(0x80 - '0')) & ~(x + BYTES8(0x7F - '9'));
  uint64_t letter = (y + BYTES8(0x80 - 'a')) & ~(y + BYTES8(0x7F - 'f'));
  *bad |= (x & BYTES8(0x80)) | (~(digit | letter) & BYTES8(0x80));
  uint64_t v = (x & BYTES8(0x0F)) + 9 * ((x >> 6) & BYTES8(1));
  uint64_t w = ((v << 4) | (v >> 8)) & 0x00FF00FF00FF00FFull; /* bytes 0, 2, 4, 6 */
  w = (w | (w >> 8)) & 0x0000FFFF0000FFFFull;
  return (uint32_t)(w | (w >> 16));
}

#ifdef __SSE2__
/* Thirty-two hex digits at u as sixteen bytes at dst, in SSE2 registers
 * (every x86-64 has them): hex_word's arithmetic on sixteen bytes at a
 * time, the range checks as signed compares (bytes of 0x80 and up are
 * negative: no digit). Clears the bytes of *ok where one is not a digit. */
static void hex_sse2(const unsigned char *u, uint8_t *dst, __m128i *ok) {
  __m128i w[2];
  for (int h = 0; h < 2; h++) {
    __m128i x = _mm_loadu_si128((const __m128i *)(u + 16 * h));
    __m128i y = _mm_or_si128(x, _mm_set1_epi8(0x20));
    __m128i digit = _mm_and_si128(_mm_cmpgt_epi8(x, _mm_set1_epi8('0' - 1)),
                                  _mm_cmplt_epi8(x, _mm_set1_epi8('9' + 1)));
    __m128i letter = _mm_and_si128(_mm_cmpgt_epi8(y, _mm_set1_epi8('a' - 1)),
                                   _mm_cmplt_epi8(y, _mm_set1_epi8('f' + 1)));
    *ok = _mm_and_si128(*ok, _mm_or_si128(digit, letter));
    __m128i v = _mm_add_epi8(_mm_and_si128(x, _mm_set1_epi8(0x0F)),
                             _mm_and_si128(letter, _mm_set1_epi8(9)));
    /* a 16-bit lane holds a byte's two digits, the high one first */
    w[h] = _mm_or_si128(_mm_slli_epi16(_mm_and_si128(v, _mm_set1_epi16(0xFF)), 4),
                        _mm_srli_epi16(v, 8));
  }
  _mm_storeu_si128((__m128i *)dst, _mm_packus_epi16(w[0], w[1]));
}
#endif

/* Decodes the n hex digits at s (n even) into dst; false (diagnosed) if
 * one is not a digit. */
static bool decode_hex(Parser *p, Loc loc, const char *s, size_t n, uint8_t *dst) {
  const unsigned char *u = (const unsigned char *)s;
  unsigned bad = 0;
  size_t i = 0;
#ifdef __SSE2__
  __m128i ok = _mm_set1_epi8(-1);
  for (; i + 16 <= n / 2; i += 16) hex_sse2(u + 2 * i, dst + i, &ok);
  bad = _mm_movemask_epi8(ok) != 0xFFFF;
#endif
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  uint64_t bad8 = 0;
  for (; i + 4 <= n / 2; i += 4) {
    uint64_t x;
    memcpy(&x, u + 2 * i, 8);
    uint32_t b = hex_word(x, &bad8);
    memcpy(dst + i, &b, 4);
  }
  bad |= bad8 != 0;
#endif
  for (; i < n / 2; i++)
    dst[i] = (uint8_t)(hex_digit(u[2 * i], &bad) << 4 | hex_digit(u[2 * i + 1], &bad));
  return !bad || parse_error(p, loc, "bad hex digit in hex literal");
}

/* A DenseData of type t for nbytes of literal (all elements, or one: a
 * splat), its bytes allocated; NULL if nbytes fits neither. */
static DenseData *dense_alloc(Module *m, const Type *t, size_t nbytes) {
  int64_t n = type_num_elems(t);
  size_t nb = (size_t)elem_bytes(t->elem);
  if (nbytes != nb * (size_t)n && nbytes != nb) return NULL;
  DenseData *d = ARENA_NEW(&m->arena, DenseData);
  d->type = t;
  /* a splat, even of an empty tensor, as MLIR writes it */
  d->splat = nbytes != nb * (size_t)n;
  d->nbytes = nbytes;
  d->bytes = arena_alloc(&m->arena, nbytes ? nbytes : 1);
  return d;
}

/* i1 elements are 0/1 bytes in our buffers; MLIR writes a true splat as
 * 0xFF. */
static void dense_fix_i1(DenseData *d) {
  if (d->type->elem == ET_I1)
    for (size_t i = 0; i < d->nbytes; i++) d->bytes[i] = d->bytes[i] != 0;
}

DenseData *dense_from_raw(Module *m, const Type *t, const uint8_t *b, size_t nbytes) {
  DenseData *d = dense_alloc(m, t, nbytes);
  if (!d) return NULL;
  if (nbytes) memcpy(d->bytes, b, nbytes);
  dense_fix_i1(d);
  return d;
}

/* The diagnostic of a blob of nbytes that does not fit t. */
static DenseData *wrong_size(Parser *p, Loc loc, const Type *t, size_t nbytes, const char *what) {
  parse_error(p, loc, "%s has %zu bytes, but %s needs %zu", what, nbytes,
              type_str(&p->m->arena, t), (size_t)elem_bytes(t->elem) * (size_t)type_num_elems(t));
  return NULL;
}

/* Copies raw bytes of a hex blob or resource: all elements, or one (splat). */
static DenseData *dense_from_bytes(Parser *p, Loc loc, const Type *t, const uint8_t *b,
                                   size_t nbytes, const char *what) {
  DenseData *d = dense_from_raw(p->m, t, b, nbytes);
  return d ? d : wrong_size(p, loc, t, nbytes, what);
}

/* A tensor type a dense literal can have: static, not quantized. */
static bool check_dense_type(Parser *p, Loc loc, const Type *t) {
  if (t->kind != TY_TENSOR) return parse_error(p, loc, "dense literal needs a tensor type");
  if (!type_is_static(t))
    return parse_error(p, loc, "dense literal of dynamically shaped type %s",
                       type_str(&p->m->arena, t));
  if (t->elem == ET_QUANT)
    return parse_error(p, loc, "dense literal of quantized type: use the storage type");
  return true;
}

static DenseData *dense_build(Parser *p, Loc loc, RawDense *r, const Type *t) {
  if (!check_dense_type(p, loc, t)) return NULL;
  if (r->hex) { /* decoded in place */
    if (r->nhex % 2) return parse_error(p, loc, "hex literal has an odd number of digits"), NULL;
    DenseData *d = dense_alloc(p->m, t, r->nhex / 2);
    if (!d) return wrong_size(p, loc, t, r->nhex / 2, "hex literal");
    if (!decode_hex(p, loc, r->hex, r->nhex, d->bytes)) return NULL;
    dense_fix_i1(d);
    /* the text, twice the bytes, is not read again */
    if (r->nhex >= HEX_RELEASE_DIGITS) srcfile_release(p->lx.file, r->hex, r->nhex);
    return d;
  }
  int64_t n = type_num_elems(t);
  size_t nb = (size_t)elem_bytes(t->elem);
  DenseData *d = ARENA_NEW(&p->m->arena, DenseData);
  d->type = t;
  if (!r->list && r->n == 0) { /* dense<> */
    if (n != 0) {
      parse_error(p, loc, "empty dense literal for %s", type_str(&p->m->arena, t));
      return NULL;
    }
  } else if (!r->list) {
    d->splat = true;
  } else {
    bool same = r->rank == t->rank;
    for (int i = 0; same && i < t->rank; i++) same = r->shape[i] == t->dims[i];
    if (!same) {
      char shape[256];
      size_t k = 0;
      shape[0] = 0;
      for (int i = 0; i < r->rank && k < sizeof shape - 24; i++)
        k += (size_t)snprintf(shape + k, sizeof shape - k, "%s%lld", i ? "x" : "",
                              (long long)r->shape[i]);
      parse_error(p, loc, "dense literal has shape [%s] but its type is %s", shape,
                  type_str(&p->m->arena, t));
      return NULL;
    }
  }
  size_t count = d->splat ? 1 : (size_t)n;
  d->nbytes = count * nb;
  d->bytes = arena_alloc(&p->m->arena, d->nbytes ? d->nbytes : 1);
  for (size_t i = 0; i < count; i++)
    if (!store_elem(p, loc, i, &r->v[i], t->elem, d->bytes + i * nb)) return NULL;
  return d;
}

/* dense ::= `dense` `<` (`"0x..."` | list | element)? `>` `:` tensor-type */
Attr *parse_dense(Parser *p, Loc loc) {
  if (!parse_expect(p, TK_LANGLE, "'<' after 'dense'")) return NULL;
  RawDense r = {.rank = -1};
  Attr *a = NULL;
  if (parse_is(p, TK_STRING)) {
    Token t = p->tok;
    if (t.n < 4 || t.s[1] != '0' || (t.s[2] != 'x' && t.s[2] != 'X')) {
      parse_error(p, t.loc, "expected a hex string \"0x...\" in dense literal");
      return NULL;
    }
    r.hex = t.s + 3;
    r.nhex = t.n - 4;
    parse_next(p);
  } else if (parse_is(p, TK_LBRACKET)) {
    r.list = true;
    if (!parse_raw_list(p, &r, 0)) goto done;
  } else if (!parse_is(p, TK_RANGLE)) {
    if (!parse_raw_elem(p, &r)) goto done;
  }
  if (!parse_expect(p, TK_RANGLE, "'>' to close the dense literal")) goto done;
  if (!parse_expect(p, TK_COLON, "':' and the type of the dense literal")) goto done;
  Type *t = parse_type(p);
  if (!t) goto done;
  DenseData *d = dense_build(p, loc, &r, t);
  if (!d) goto done;
  a = attr_new(p->m, AT_DENSE);
  a->dense = d;
  a->type = t;
done:
  free(r.v);
  return a;
}

/* ------------------------------------------------------------------------ */
/* Resources                                                                 */

static uint64_t splitmix64(uint64_t *state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* A uniform double in [0, 1) from the top bits of r. */
static double unit_random(uint64_t r) { return (double)(r >> 40) / 16777216.0; }

/* One element of an elided constant: 0, 1, or a pseudo-random value
 * (floats in [lo, hi), integers in [-2, 2], bools 0/1). */
static void fill_elem(ElemType e, ElidedFill how, uint64_t r, double lo, double hi,
                      uint8_t *out) {
  int nb = elem_bytes(e);
  if (how == ELIDED_ZEROS) {
    memset(out, 0, (size_t)nb);
    return;
  }
  if (elem_is_complex(e)) {
    ElemType part = e == ET_C64 ? ET_F32 : ET_F64;
    fill_elem(part, how, r, lo, hi, out);
    fill_elem(part, how == ELIDED_ONES ? ELIDED_ZEROS : how, r * 0x2545F4914F6CDD1Dull, lo,
              hi, out + nb / 2);
    return;
  }
  if (elem_is_float(e)) {
    double v = how == ELIDED_ONES ? 1.0 : lo + (hi - lo) * unit_random(r);
    store_le(out, dense_float_bits(v, e), nb);
    return;
  }
  int64_t v = 1;
  if (how == ELIDED_PATTERN) {
    if (e == ET_I1) v = (int64_t)(r & 1);
    else if (elem_class(e) == 'u') v = (int64_t)(r % 3);
    else v = (int64_t)(r % 5) - 2;
  }
  store_le(out, (uint64_t)v, nb);
}

/* The range of the pattern for floats of type t, chosen so that a real
 * model with elided weights computes finite, non-trivial values: tensors of
 * rank >= 2 (weights) are scaled like a He initialization, U(-a, a) with
 * a = sqrt(6 / fan_in), fan_in being the product of all dimensions but the
 * last; vectors and scalars (biases, batch-norm statistics and scales) lie
 * in [0.5, 1.5), so that variances are positive. */
static void pattern_range(const Type *t, double *lo, double *hi) {
  int64_t n = type_num_elems(t);
  if (t->rank < 2 || n <= 0 || t->dims[t->rank - 1] <= 0) {
    *lo = 0.5;
    *hi = 1.5;
    return;
  }
  double fan_in = (double)(n / t->dims[t->rank - 1]);
  *hi = sqrt(6.0 / (fan_in > 0 ? fan_in : 1));
  *lo = -*hi;
}

/* Elements [from, to) of an f32 pattern whose generator starts at state:
 * splitmix64 adds its constant once per element, so a piece can start
 * anywhere and give the values a single loop would. */
typedef struct PatternPiece {
  float *out;
  size_t from, to;
  uint64_t state;
  double lo, hi;
} PatternPiece;

static void *fill_f32_piece(void *arg) {
  PatternPiece *pc = arg;
  uint64_t state = pc->state + pc->from * 0x9E3779B97F4A7C15ull;
  for (size_t i = pc->from; i < pc->to; i++)
    pc->out[i] = (float)(pc->lo + (pc->hi - pc->lo) * unit_random(splitmix64(&state)));
  return NULL;
}

/* From this many elements (1 MB) the pattern is made on two threads:
 * filling ResNet-50's 25 M elided weights was most of its parse time. */
enum { PATTERN_SPLIT_ELEMS = 1 << 18 };

static void fill_f32_pattern(float *out, size_t count, uint64_t state, double lo, double hi) {
  PatternPiece a = {out, 0, count, state, lo, hi}, b = a;
  pthread_t thread;
  bool two = count >= PATTERN_SPLIT_ELEMS;
  if (two) {
    a.to = b.from = count / 2;
    two = !pthread_create(&thread, NULL, fill_f32_piece, &b);
    if (!two) a.to = count;
  }
  fill_f32_piece(&a);
  if (two) pthread_join(thread, NULL);
}

static DenseData *fill_elided(Parser *p, Loc loc, const Type *t) {
  static const char *const how_name[] = {"zeros", "ones", "a pseudo-random pattern"};
  ElidedFill how = p->opts->elided;
  if (!p->warned_elided) {
    diag_warning(loc, "dense_resource<__elided__> constants have no values; filled with %s",
                 how_name[how]);
    p->warned_elided = true;
  }
  int64_t n = type_num_elems(t);
  size_t nb = (size_t)elem_bytes(t->elem);
  DenseData *d = ARENA_NEW(&p->m->arena, DenseData);
  d->type = t;
  d->elided = true;
  d->resource = "__elided__";
  /* zeros and ones are splats: a ResNet's weights would otherwise take
   * 100 MB for values that carry no information */
  d->splat = how != ELIDED_PATTERN && n > 0;
  size_t count = d->splat ? 1 : (size_t)n;
  d->nbytes = count * nb;
  d->bytes = arena_alloc(&p->m->arena, d->nbytes ? d->nbytes : 1);
  uint64_t state = 0x53484C4Full + p->elided_seed++ * 0x9E3779B97F4A7C15ull;
  double lo, hi;
  pattern_range(t, &lo, &hi);
  if (t->elem == ET_F32 && how == ELIDED_PATTERN) { /* the common case, kept fast */
    fill_f32_pattern((float *)d->bytes, count, state, lo, hi);
    return d;
  }
  for (size_t i = 0; i < count; i++)
    fill_elem(t->elem, how, splitmix64(&state), lo, hi, d->bytes + i * nb);
  return d;
}

/* dense-resource ::= `dense_resource` `<` name `>` `:` tensor-type */
Attr *parse_dense_resource(Parser *p, Loc loc) {
  if (!parse_expect(p, TK_LANGLE, "'<' after 'dense_resource'")) return NULL;
  Token name = p->tok;
  if (!parse_is(p, TK_IDENT) && !parse_is(p, TK_STRING)) {
    parse_error(p, name.loc, "expected a resource name in dense_resource<...>");
    return NULL;
  }
  parse_next(p);
  if (!parse_expect(p, TK_RANGLE, "'>' after the resource name")) return NULL;
  if (!parse_expect(p, TK_COLON, "':' and the type of the dense_resource")) return NULL;
  Type *t = parse_type(p);
  if (!t || !check_dense_type(p, loc, t)) return NULL;
  Attr *a = attr_new(p->m, AT_DENSE);
  a->type = t;
  char *key = name.kind == TK_STRING ? parse_string_value(p, &name, NULL)
                                     : arena_strndup(&p->m->arena, name.s, name.n);
  if (!strcmp(key, "__elided__")) {
    if (!(a->dense = fill_elided(p, loc, t))) return NULL;
    return a;
  }
  /* the blob comes in the {-# ... #-} block at the end of the file */
  a->dense = ARENA_NEW(&p->m->arena, DenseData);
  a->dense->type = t;
  a->dense->resource = key;
  PendingResource *pr = ARENA_NEW(&p->m->arena, PendingResource);
  pr->attr = a;
  pr->name = key;
  pr->loc = loc;
  pr->next = p->pending;
  p->pending = pr;
  return a;
}

/* meta-key ::= (ident | string) `:` */
static bool parse_meta_key(Parser *p, char **key) {
  if (parse_is(p, TK_IDENT)) *key = parse_tok_str(p);
  else if (parse_is(p, TK_STRING)) *key = parse_string_value(p, &p->tok, NULL);
  else return parse_error(p, p->tok.loc, "expected a resource key");
  parse_next(p);
  return parse_expect(p, TK_COLON, "':' after the resource key");
}

static bool add_resource(Parser *p, const char *key, const Token *blob) {
  if (blob->n < 12 || blob->s[1] != '0' || blob->s[2] != 'x')
    return parse_error(p, blob->loc, "resource '%s': expected a hex blob \"0x...\"", key);
  size_t ndigits = blob->n - 4;
  if (ndigits % 2) return parse_error(p, blob->loc, "hex literal has an odd number of digits");
  Resource *r = ARENA_NEW(&p->m->arena, Resource);
  r->name = key;
  r->n = strlen(key);
  /* the first word (8 digits) is the blob's alignment */
  r->nbytes = ndigits / 2 - 4;
  r->bytes = arena_alloc(&p->m->arena, r->nbytes ? r->nbytes : 1);
  uint8_t align[4];
  if (!decode_hex(p, blob->loc, blob->s + 3, 8, align) ||
      !decode_hex(p, blob->loc, blob->s + 11, ndigits - 8, r->bytes))
    return false;
  if (ndigits >= HEX_RELEASE_DIGITS) srcfile_release(p->lx.file, blob->s + 11, ndigits - 8);
  r->next = p->resources;
  p->resources = r;
  return true;
}

/* Skips any value of the metadata block (strings, numbers, nested dicts). */
static bool skip_meta_value(Parser *p) {
  if (parse_is(p, TK_LBRACE)) {
    if (!parse_enter(p)) return false;
    parse_next(p);
    while (!parse_accept(p, TK_RBRACE)) {
      char *k = NULL;
      if (p->failed || !parse_meta_key(p, &k) || !skip_meta_value(p)) return false;
      parse_accept(p, TK_COMMA);
    }
    parse_leave(p);
    return true;
  }
  if (parse_is(p, TK_STRING) || parse_is(p, TK_IDENT) || parse_is(p, TK_INT) ||
      parse_is(p, TK_FLOAT)) {
    parse_next(p);
    return true;
  }
  return parse_error(p, p->tok.loc, "unexpected token in the resource block");
}

/* resource-block ::= `{-#` (section `:` `{` (dialect `:` `{` (key `:` blob
 *                    `,`?)* `}` `,`?)* `}` `,`?)* `#-}`
 * Only dialect_resources.builtin entries are kept. */
bool parse_resource_block(Parser *p) {
  parse_next(p);
  while (!parse_accept(p, TK_META_END)) {
    char *section = NULL;
    if (p->failed || !parse_meta_key(p, &section)) return false;
    if (strcmp(section, "dialect_resources")) {
      if (!skip_meta_value(p)) return false;
    } else {
      if (!parse_expect(p, TK_LBRACE, "'{' after dialect_resources:")) return false;
      while (!parse_accept(p, TK_RBRACE)) {
        char *dialect = NULL;
        if (p->failed || !parse_meta_key(p, &dialect)) return false;
        if (strcmp(dialect, "builtin")) {
          if (!skip_meta_value(p)) return false;
        } else {
          if (!parse_expect(p, TK_LBRACE, "'{' after builtin:")) return false;
          while (!parse_accept(p, TK_RBRACE)) {
            char *key = NULL;
            if (p->failed || !parse_meta_key(p, &key)) return false;
            if (!parse_is(p, TK_STRING))
              return parse_error(p, p->tok.loc, "expected a hex blob for resource '%s'", key);
            if (!add_resource(p, key, &p->tok)) return false;
            parse_next(p);
            parse_accept(p, TK_COMMA);
          }
        }
        parse_accept(p, TK_COMMA);
      }
    }
    parse_accept(p, TK_COMMA);
  }
  return true;
}

bool parse_resolve_resources(Parser *p) {
  for (PendingResource *pr = p->pending; pr; pr = pr->next) {
    Resource *r = p->resources;
    while (r && strcmp(r->name, pr->name)) r = r->next;
    if (!r) return parse_error(p, pr->loc, "dense_resource '%s' is not defined", pr->name);
    DenseData *d = dense_from_bytes(p, pr->loc, pr->attr->type, r->bytes, r->nbytes,
                                    "dense_resource blob");
    if (!d) return false;
    d->resource = pr->name;
    pr->attr->dense = d;
  }
  return true;
}
