/*
 * rng.c: rng_bit_generator as a kernel root (spec "rng_bit_generator").
 *
 * The spec leaves the bits to the implementation; these are XLA's (its
 * RngBitGeneratorExpander over the generators of its prng library), so a
 * program gets the numbers it gets under JAX on CPU:
 *
 *   state[0] is the 64-bit key, split into two 32-bit words (low first);
 *   DEFAULT is PHILOX, as on XLA's CPU and GPU backends.
 *
 *   THREE_FRY: Threefry-2x32 with 20 rounds (Salmon et al. SC 2011) on the
 *   64-bit counters state[1] + b (low word first), b = 0, 1, ... . A 64-bit
 *   output takes block b = its linear index and is x0 | x1 << 32. A 32-bit
 *   or narrower output pairs up the elements of one dimension, the "split"
 *   one (the first of even extent, else the first of largest extent; a
 *   scalar is a 1-element vector): blocks run over the result's shape with
 *   that extent halved (rounded up), and block j's words x0, x1 become
 *   elements 2j and 2j + 1 along it (x1 is dropped past an odd extent).
 *   The new state is [key, state[1] + number of blocks].
 *
 *   PHILOX: Philox-4x32 with 10 rounds on 128-bit counters, the 128-bit
 *   counter state[1] (low) : state[2] (high) plus b; a 2-element state
 *   takes state[0] (the key) as the high half. Block b gives the four 32-bit
 *   elements 4b .. 4b + 3, or the two 64-bit elements 2b (w0 | w1 << 32)
 *   and 2b + 1 (w2 | w3 << 32). The new state is [key, counter + number of
 *   blocks] (2 or 3 elements, like the input).
 *
 * Outputs narrower than 32 bits keep the low bits of the 32-bit words;
 * signed results take the bits as they are. Float and i1/i2/i4 outputs
 * are an error at the op (XLA's generators give integer bits only).
 *
 * The kernel is serial (kernel.c calls it once over [0, 1)): one loop over
 * the blocks writes the output, then the new state is stored.
 */
#include "codegen.h"

/* Threefry's key-schedule parity, Salmon et al. */
#define THREEFRY_PARITY 0x1BD11BDAu
/* Philox-4x32 multipliers and Weyl key increments, Salmon et al. */
#define PHILOX_M0 0xD2511F53u
#define PHILOX_M1 0xCD9E8D57u
#define PHILOX_W0 0x9E3779B9u
#define PHILOX_W1 0xBB67AE85u

typedef struct Rng {
  CG *cg;
  const Type *t;   /* the output's type */
  Value *out;      /* the output; NULL when it has no buffer (unread) */
  int64_t numel;   /* elements of the output */
  LLVMValueRef k0, k1; /* the key's low and high words */
} Rng;

/* ------------------------------------------------------------------------ */
/* Word arithmetic                                                           */

static LLVMValueRef u32c(CG *cg, uint32_t v) { return LLVMConstInt(cg->t_i32, v, 0); }

static LLVMValueRef lo32(CG *cg, LLVMValueRef v) {
  return LLVMBuildTrunc(cg->b, v, cg->t_i32, "");
}

static LLVMValueRef hi32(CG *cg, LLVMValueRef v) {
  return lo32(cg, LLVMBuildLShr(cg->b, v, cg_i64(cg, 32), ""));
}

/* lo | hi << 32 */
static LLVMValueRef join64(CG *cg, LLVMValueRef lo, LLVMValueRef hi) {
  LLVMValueRef l = LLVMBuildZExt(cg->b, lo, cg->t_i64, "");
  LLVMValueRef h = LLVMBuildZExt(cg->b, hi, cg->t_i64, "");
  return LLVMBuildOr(cg->b, l, LLVMBuildShl(cg->b, h, cg_i64(cg, 32), ""), "");
}

static LLVMValueRef add(CG *cg, LLVMValueRef a, LLVMValueRef b) {
  return LLVMBuildAdd(cg->b, a, b, "");
}

static LLVMValueRef rotl32(CG *cg, LLVMValueRef v, unsigned r) {
  LLVMValueRef l = LLVMBuildShl(cg->b, v, u32c(cg, r), "");
  return LLVMBuildOr(cg->b, l, LLVMBuildLShr(cg->b, v, u32c(cg, 32 - r), ""), "");
}

/* ------------------------------------------------------------------------ */
/* The generators                                                            */

/* Threefry-2x32-20 of x under key (k0, k1), in place: five groups of four
 * rounds, each group followed by a key injection. */
static void threefry2x32(CG *cg, LLVMValueRef x[2], LLVMValueRef k0, LLVMValueRef k1) {
  static const unsigned rot[2][4] = {{13, 15, 26, 6}, {17, 29, 16, 24}};
  LLVMValueRef ks[3] = {k0, k1, NULL};
  ks[2] = LLVMBuildXor(cg->b, LLVMBuildXor(cg->b, k0, k1, ""), u32c(cg, THREEFRY_PARITY), "");
  x[0] = add(cg, x[0], ks[0]);
  x[1] = add(cg, x[1], ks[1]);
  for (int g = 0; g < 5; g++) {
    for (int r = 0; r < 4; r++) {
      x[0] = add(cg, x[0], x[1]);
      x[1] = LLVMBuildXor(cg->b, rotl32(cg, x[1], rot[g % 2][r]), x[0], "");
    }
    x[0] = add(cg, x[0], ks[(g + 1) % 3]);
    x[1] = add(cg, add(cg, x[1], ks[(g + 2) % 3]), u32c(cg, (uint32_t)g + 1));
  }
}

/* The high and low words of the 64-bit product a * m. */
static void mul_wide(CG *cg, LLVMValueRef a, uint32_t m, LLVMValueRef *hi, LLVMValueRef *lo) {
  LLVMValueRef p = LLVMBuildMul(cg->b, LLVMBuildZExt(cg->b, a, cg->t_i64, ""),
                                cg_i64(cg, m), "");
  *lo = lo32(cg, p);
  *hi = hi32(cg, p);
}

/* Philox-4x32-10 of x under key (k0, k1), in place; the key advances by
 * the Weyl increments after every round. */
static void philox4x32(CG *cg, LLVMValueRef x[4], LLVMValueRef k0, LLVMValueRef k1) {
  for (int r = 0; r < 10; r++) {
    LLVMValueRef hi0, lo0, hi1, lo1;
    mul_wide(cg, x[0], PHILOX_M0, &hi0, &lo0);
    mul_wide(cg, x[2], PHILOX_M1, &hi1, &lo1);
    LLVMValueRef y0 = LLVMBuildXor(cg->b, LLVMBuildXor(cg->b, hi1, x[1], ""), k0, "");
    LLVMValueRef y2 = LLVMBuildXor(cg->b, LLVMBuildXor(cg->b, hi0, x[3], ""), k1, "");
    x[0] = y0;
    x[1] = lo1;
    x[2] = y2;
    x[3] = lo0;
    k0 = add(cg, k0, u32c(cg, PHILOX_W0));
    k1 = add(cg, k1, u32c(cg, PHILOX_W1));
  }
}

/* ------------------------------------------------------------------------ */
/* Stores                                                                    */

/* Stores the low bits of `bits` (i32 or i64) as output element `lin`;
 * only where `valid` (NULL: always). */
static void store_bits(Rng *g, LLVMValueRef lin, LLVMValueRef bits, LLVMValueRef valid) {
  CG *cg = g->cg;
  if (!g->out) return;
  ElemType e = g->t->elem;
  LLVMTypeRef t = cg_scalar_type(cg, e);
  if (LLVMGetIntTypeWidth(t) < LLVMGetIntTypeWidth(LLVMTypeOf(bits)))
    bits = LLVMBuildTrunc(cg->b, bits, t, "");
  if (!valid) {
    cg_store(cg, cg_buffer(cg, g->out), e, lin, bits);
    return;
  }
  CgIf in;
  cg_if_begin(cg, &in, valid);
  cg_store(cg, cg_buffer(cg, g->out), e, lin, bits);
  cg_if_end(cg, &in);
}

/* ------------------------------------------------------------------------ */
/* THREE_FRY                                                                 */

/* The dimension whose elements pair up (XLA's SplitShapeIntoHalves). */
static int split_dim(const int64_t *dims, int rank) {
  for (int d = 0; d < rank; d++)
    if (dims[d] % 2 == 0) return d;
  int best = 0;
  for (int d = 1; d < rank; d++)
    if (dims[d] > dims[best]) best = d;
  return best;
}

/* Writes the output from counters ctr + b; returns the number of blocks. */
static int64_t threefry_output(Rng *g, LLVMValueRef ctr) {
  CG *cg = g->cg;
  const Type *t = g->t;
  bool wide = elem_bits(t->elem) == 64;
  /* Shape of the block space: outer x half x inner over the split
   * dimension of extent ext (a scalar is the vector [1]). */
  int64_t outer = 1, ext = 1, inner = 1;
  if (!wide && t->rank > 0) {
    int sd = split_dim(t->dims, t->rank);
    ext = t->dims[sd];
    for (int d = 0; d < sd; d++) outer *= t->dims[d];
    for (int d = sd + 1; d < t->rank; d++) inner *= t->dims[d];
  }
  int64_t half = (ext + 1) / 2;
  int64_t nblocks = wide ? g->numel : outer * half * inner;
  if (!g->out || g->numel == 0) return nblocks;
  CgLoop l;
  LLVMValueRef b = cg_loop_begin(cg, &l, cg_i64(cg, 0), cg_i64(cg, nblocks));
  LLVMValueRef c = add(cg, ctr, b);
  LLVMValueRef x[2];
  x[0] = lo32(cg, c);
  x[1] = hi32(cg, c);
  threefry2x32(cg, x, g->k0, g->k1);
  if (wide) {
    store_bits(g, b, join64(cg, x[0], x[1]), NULL);
  } else {
    /* b = (o * half + j) * inner + i  ->  element (o, 2j + k, i). */
    LLVMValueRef i = LLVMBuildURem(cg->b, b, cg_i64(cg, inner), "");
    LLVMValueRef q = LLVMBuildUDiv(cg->b, b, cg_i64(cg, inner), "");
    LLVMValueRef j = LLVMBuildURem(cg->b, q, cg_i64(cg, half), "");
    LLVMValueRef o = LLVMBuildUDiv(cg->b, q, cg_i64(cg, half), "");
    LLVMValueRef j2 = LLVMBuildShl(cg->b, j, cg_i64(cg, 1), "");
    LLVMValueRef row = add(cg, LLVMBuildMul(cg->b, o, cg_i64(cg, ext), ""), j2);
    LLVMValueRef lin = add(cg, LLVMBuildMul(cg->b, row, cg_i64(cg, inner), ""), i);
    store_bits(g, lin, x[0], NULL);
    LLVMValueRef valid = NULL;
    if (ext % 2 != 0)
      valid = LLVMBuildICmp(cg->b, LLVMIntULT, add(cg, j2, cg_i64(cg, 1)),
                            cg_i64(cg, ext), "");
    store_bits(g, add(cg, lin, cg_i64(cg, inner)), x[1], valid);
  }
  cg_loop_end(cg, &l);
  return nblocks;
}

/* ------------------------------------------------------------------------ */
/* PHILOX                                                                    */

/* (lo, hi) + n as a 128-bit sum, in place. */
static void add128(CG *cg, LLVMValueRef *lo, LLVMValueRef *hi, LLVMValueRef n) {
  LLVMValueRef l = add(cg, *lo, n);
  LLVMValueRef carry = LLVMBuildICmp(cg->b, LLVMIntULT, l, *lo, "");
  *hi = add(cg, *hi, LLVMBuildZExt(cg->b, carry, cg->t_i64, ""));
  *lo = l;
}

/* Writes the output from counters (lo, hi) + b; returns the number of
 * blocks. */
static int64_t philox_output(Rng *g, LLVMValueRef lo, LLVMValueRef hi) {
  CG *cg = g->cg;
  bool wide = elem_bits(g->t->elem) == 64;
  int64_t per = wide ? 2 : 4;
  int64_t nblocks = (g->numel + per - 1) / per;
  if (!g->out || nblocks == 0) return nblocks;
  CgLoop l;
  LLVMValueRef b = cg_loop_begin(cg, &l, cg_i64(cg, 0), cg_i64(cg, nblocks));
  LLVMValueRef cl = lo, ch = hi;
  add128(cg, &cl, &ch, b);
  LLVMValueRef w[4];
  w[0] = lo32(cg, cl);
  w[1] = hi32(cg, cl);
  w[2] = lo32(cg, ch);
  w[3] = hi32(cg, ch);
  philox4x32(cg, w, g->k0, g->k1);
  LLVMValueRef first = LLVMBuildMul(cg->b, b, cg_i64(cg, per), "");
  for (int k = 0; k < per; k++) {
    LLVMValueRef lin = add(cg, first, cg_i64(cg, k));
    LLVMValueRef bits = wide ? join64(cg, w[2 * k], w[2 * k + 1]) : w[k];
    LLVMValueRef valid = NULL;
    if (g->numel % per != 0 && k >= g->numel % per) /* only the last block */
      valid = LLVMBuildICmp(cg->b, LLVMIntULT, lin, cg_i64(cg, g->numel), "");
    store_bits(g, lin, bits, valid);
  }
  cg_loop_end(cg, &l);
  return nblocks;
}

/* ------------------------------------------------------------------------ */
/* The kernel                                                                */

static bool has_buffer(const Value *v) {
  return v->storage == ST_TEMP || v->storage == ST_RESULT;
}

/* What this kernel cannot generate, or NULL. */
static const char *unsupported(const Op *op) {
  const Type *s = op->opnds[0]->type, *o = op->results[1]->type;
  RngAlgorithm alg = op->a.rng_algorithm;
  if (s->rank != 1 || s->elem != ET_UI64)
    return "only a 1-d ui64 initial_state is supported by codegen";
  if (s->dims[0] != 2 && !(alg != RNG_THREE_FRY && s->dims[0] == 3))
    return "initial_state size not supported by codegen "
           "(THREE_FRY: 2, PHILOX and DEFAULT: 2 or 3)";
  if (!elem_is_int(o->elem) || elem_bits(o->elem) < 8)
    return "only integer outputs of 8 to 64 bits are supported "
           "by codegen";
  return NULL;
}

bool cg_kernel_rng_bit_generator(CG *cg, Op *op) {
  const char *why = unsupported(op);
  if (why) {
    cg_unsupported(cg, op, why);
    return true;
  }
  Value *st = op->opnds[0], *new_st = op->results[0];
  int64_t n = st->type->dims[0];
  LLVMValueRef s[3];
  for (int64_t k = 0; k < n; k++) {
    LLVMValueRef idx = cg_i64(cg, k);
    s[k] = cg_value_at(cg, st, &idx);
  }
  LLVMValueRef k0 = lo32(cg, s[0]);
  Rng g = {cg, op->results[1]->type, has_buffer(op->results[1]) ? op->results[1] : NULL,
           type_num_elems(op->results[1]->type), k0, hi32(cg, s[0])};
  LLVMValueRef out[3] = {s[0], NULL, NULL};
  if (op->a.rng_algorithm == RNG_THREE_FRY) {
    int64_t nb = threefry_output(&g, s[1]);
    out[1] = add(cg, s[1], cg_i64(cg, nb));
  } else {
    LLVMValueRef lo = s[1], hi = n == 3 ? s[2] : s[0];
    int64_t nb = philox_output(&g, lo, hi);
    add128(cg, &lo, &hi, cg_i64(cg, nb));
    out[1] = lo;
    out[2] = hi;
  }
  if (!has_buffer(new_st)) return true;
  for (int64_t k = 0; k < n; k++)
    cg_store(cg, cg_buffer(cg, new_st), ET_UI64, cg_i64(cg, k), out[k]);
  return true;
}
