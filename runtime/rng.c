/* rng.c: the rng op (spec "rng"), common to both builds.
 *
 * The spec leaves the generator implementation-defined. Here: element i of
 * a call is drawn from Philox-4x32-10 (Salmon et al., "Parallel random
 * numbers: as easy as 1, 2, 3", SC 2011) with the process's key and the
 * counter (process counter + i, attempt), and the process counter then
 * advances by the element count. A process's numbers thus depend only on
 * the grid seed, the process id and the calls before, in every build. An
 * attempt > 0 is only drawn when the first is rejected (rounding of a
 * float onto b, or an integer draw in the biased tail). */
#include <math.h>
#include <string.h>

#include "elem.h"
#include "spmd.h"

typedef struct Bits {
  uint32_t w[4];
} Bits;

static Bits philox(uint64_t key, uint64_t counter, uint32_t attempt) {
  uint32_t c[4] = {(uint32_t)counter, (uint32_t)(counter >> 32), attempt, 0};
  uint32_t k0 = (uint32_t)key, k1 = (uint32_t)(key >> 32);
  for (int round = 0; round < 10; round++) {
    uint64_t p0 = (uint64_t)0xD2511F53u * c[0], p1 = (uint64_t)0xCD9E8D57u * c[2];
    uint32_t n0 = (uint32_t)(p1 >> 32) ^ c[1] ^ k0, n2 = (uint32_t)(p0 >> 32) ^ c[3] ^ k1;
    c[0] = n0;
    c[1] = (uint32_t)p1;
    c[2] = n2;
    c[3] = (uint32_t)p0;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  Bits b = {{c[0], c[1], c[2], c[3]}};
  return b;
}

/* A double in [0, 1) from the top 53 of 64 bits. */
static double unit(uint32_t lo, uint32_t hi) {
  return (double)((((uint64_t)hi << 32) | lo) >> 11) * 0x1p-53;
}

static void store_bits(void *data, int64_t i, int bytes, uint64_t v) {
  unsigned char *q = (unsigned char *)data + i * bytes;
  switch (bytes) {
  case 1: *q = (unsigned char)v; break;
  case 2: { uint16_t x = (uint16_t)v; memcpy(q, &x, 2); break; }
  case 4: { uint32_t x = (uint32_t)v; memcpy(q, &x, 4); break; }
  default: memcpy(q, &v, 8); break;
  }
}

/* Integers (and i1) as int64 for signed, uint64 for unsigned types. */
static uint64_t int_value(const shlort_elem_kind *k, const void *p) {
  uint64_t bits = shlort_load_bits(p, 0, k->bytes);
  if (k->cls != 's' || k->bytes == 8) return bits;
  int shift = 64 - 8 * k->bytes;
  return (uint64_t)((int64_t)(bits << shift) >> shift);
}

static bool int_less(const shlort_elem_kind *k, uint64_t a, uint64_t b) {
  return k->cls == 's' ? (int64_t)a < (int64_t)b : a < b;
}

/* a + v mod (b - a) for v uniform over 64 bits, redrawn below 2^64 mod
 * (b - a) so that every value of [a, b) is equally likely. */
static void uniform_ints(const shlort_proc *p, const shlort_elem_kind *k, uint64_t a, uint64_t b,
                         const shlort_tensor *t, int64_t n) {
  uint64_t range = b - a, floor = (0 - range) % range;
  for (int64_t i = 0; i < n; i++) {
    uint64_t v = 0;
    for (uint32_t attempt = 0;; attempt++) {
      Bits r = philox(p->rng_key, p->rng_counter + (uint64_t)i, attempt);
      v = ((uint64_t)r.w[1] << 32) | r.w[0];
      if (v >= floor) break;
    }
    store_bits(t->data, i, k->bytes, a + v % range);
  }
}

/* The float bits of format k nearest to x, and their value. */
static uint64_t to_float(const shlort_elem_kind *k, double x, double *value) {
  uint64_t bits = shlort_float_bits(k, x);
  *value = shlort_float_value(k, bits);
  return bits;
}

static void uniform_floats(const shlort_proc *p, const shlort_elem_kind *k, double a, double b,
                           const shlort_tensor *t, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    uint64_t bits = 0;
    for (uint32_t attempt = 0;; attempt++) {
      Bits r = philox(p->rng_key, p->rng_counter + (uint64_t)i, attempt);
      double u = unit(r.w[0], r.w[1]), v, width = b - a;
      /* a * (1 - u) + b * u when b - a overflows. */
      double x = isinf(width) ? a * (1 - u) + b * u : a + width * u;
      bits = to_float(k, x, &v);
      /* Rounding may land on b; a itself always qualifies (64 tries). */
      if ((v >= a && v < b) || attempt == 63) {
        if (!(v >= a && v < b)) bits = to_float(k, a, &v);
        break;
      }
    }
    store_bits(t->data, i, k->bytes, bits);
  }
}

/* Box-Muller: z = sqrt(-2 ln u1) cos(2 pi u2), u1 in (0, 1]. */
static void normal_floats(const shlort_proc *p, const shlort_elem_kind *k, double mean,
                          double sd, const shlort_tensor *t, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    Bits r = philox(p->rng_key, p->rng_counter + (uint64_t)i, 0);
    double u1 = 1 - unit(r.w[0], r.w[1]), u2 = unit(r.w[2], r.w[3]), v;
    double z = sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2);
    store_bits(t->data, i, k->bytes, to_float(k, mean + sd * z, &v));
  }
}

int32_t shlort_rng(shlort_proc *p, const shlort_op *op, int32_t distribution,
                   const void *a, const void *b, const shlort_tensor *result) {
  shlort_elem_kind k;
  int64_t bytes = shlort_tensor_bytes(result);
  if (bytes < 0 || shlort_elem_kind_of(result->elem, &k) || k.cls == 'c')
    return shlort_fail(p, op, SHLORT_INVALID, "unsupported result element type %d",
                       (int)result->elem);
  if (distribution != SHLORT_RNG_UNIFORM && distribution != SHLORT_RNG_NORMAL)
    return shlort_fail(p, op, SHLORT_INVALID, "unknown rng_distribution %d", (int)distribution);
  int64_t n = bytes / k.bytes;
  if (k.cls == 'f') {
    double lo = shlort_float_value(&k, shlort_load_bits(a, 0, k.bytes));
    double hi = shlort_float_value(&k, shlort_load_bits(b, 0, k.bytes));
    if (distribution == SHLORT_RNG_NORMAL && !(hi >= 0))
      return shlort_fail(p, op, SHLORT_INVALID, "NORMAL with standard deviation b = %g < 0", hi);
    if (distribution == SHLORT_RNG_UNIFORM && !(lo < hi))
      return shlort_fail(p, op, SHLORT_INVALID, "UNIFORM over [%g, %g): a must be below b", lo, hi);
    if (distribution == SHLORT_RNG_NORMAL) normal_floats(p, &k, lo, hi, result, n);
    else uniform_floats(p, &k, lo, hi, result, n);
  } else {
    uint64_t lo = int_value(&k, a), hi = int_value(&k, b);
    if (distribution == SHLORT_RNG_NORMAL)
      return shlort_fail(p, op, SHLORT_INVALID, "NORMAL needs a float type (C2)");
    if (!int_less(&k, lo, hi))
      return shlort_fail(p, op, SHLORT_INVALID, "UNIFORM over [a, b) with a >= b");
    uniform_ints(p, &k, lo, hi, result, n);
  }
  p->rng_counter += (uint64_t)n;
  return SHLORT_OK;
}
