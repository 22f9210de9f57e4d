/* Unit tests of the tool's tensor I/O: iree-style input parsing and
 * printing, .npy reading and writing, random fill. The tool's files are
 * included directly: the unit build links the compiler's objects, not the
 * tool's (which has main). Ends with `N passed, N failed`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"
#include "tools/npy.c"
#include "tools/tensor_io.c"

static char last_diag[512];

static void keep_diag(void *ctx, const char *text) {
  (void)ctx;
  snprintf(last_diag, sizeof last_diag, "%s", text);
}

/* The printed form of a parsed spec ("" when parsing fails). */
static const char *round_trip(const char *spec) {
  static char out[4096];
  Tensor t;
  out[0] = 0;
  if (tensor_parse(spec, "input 0", &t)) return out;
  FILE *f = fmemopen(out, sizeof out, "w");
  tensor_print(f, &t);
  fclose(f);
  out[strcspn(out, "\n")] = 0;
  tensor_free(&t);
  return out;
}

static bool prints_as(const char *spec, const char *want) {
  const char *got = round_trip(spec);
  if (strcmp(got, want)) printf("  %s printed as '%s', want '%s'\n", spec, got, want);
  return !strcmp(got, want);
}

/* Parsing fails with a diagnostic containing `want`. */
static bool rejects(const char *spec, const char *want) {
  Tensor t;
  last_diag[0] = 0;
  if (!tensor_parse(spec, "input 0", &t)) {
    tensor_free(&t);
    printf("  %s was accepted\n", spec);
    return false;
  }
  if (!strstr(last_diag, want)) printf("  %s: diagnostic '%s' lacks '%s'\n", spec, last_diag, want);
  return strstr(last_diag, want) != NULL;
}

static void test_parse_print(void) {
  EXPECT(prints_as("2x3xf32=1 2 3 4 5 6", "2x3xf32=[[1 2 3][4 5 6]]"));
  EXPECT(prints_as("f32=5", "f32=5"));
  EXPECT(prints_as("3xi32=[1, -2, 3]", "3xi32=[1 -2 3]"));
  EXPECT(prints_as("2x2xf16=1.5", "2x2xf16=[[1.5 1.5][1.5 1.5]]"));
  EXPECT(prints_as("4xi8", "4xi8=[0 0 0 0]"));
  EXPECT(prints_as("3xi1=true 0 1", "3xi1=[1 0 1]"));
  EXPECT(prints_as("2xbf16=0.1 -inf", "2xbf16=[0.1 -inf]"));
  EXPECT(prints_as("2xf64=0.1 nan", "2xf64=[0.1 nan]"));
  EXPECT(prints_as("2xui64=18446744073709551615 0", "2xui64=[18446744073709551615 0]"));
  EXPECT(prints_as("2x1x2xui8=[[[1 2]][[3 255]]]", "2x1x2xui8=[[[1 2]][[3 255]]]"));
  EXPECT(prints_as("0x3xf32", "0x3xf32=[]"));
  EXPECT(rejects("2x3xf32=1 2", "input 0: 2 values for 6 elements"));
  EXPECT(rejects("2xi8=1 300", "'300' is not a valid i8 value"));
  EXPECT(rejects("2xui8=-1", "'-1' is not a valid ui8 value"));
  EXPECT(rejects("2xi1=2", "'2' is not a valid i1 value"));
  EXPECT(rejects("2xf32=1 x", "'x' is not a valid f32 value"));
  EXPECT(rejects("2xf32=1 2 3", "more values than the shape holds"));
  EXPECT(rejects("2xq7=1", "unsupported element type 'q7'"));
  EXPECT(rejects("2x3", "bad shape"));
  EXPECT(rejects("2y3xf32=1", "bad shape"));
  EXPECT(rejects("@/nonexistent/x.npy", "cannot open"));
}

static bool same_tensor(const Tensor *a, const Tensor *b) {
  if (a->elem != b->elem || a->rank != b->rank || a->bytes != b->bytes) return false;
  for (int i = 0; i < a->rank; i++)
    if (a->dims[i] != b->dims[i]) return false;
  return !memcmp(a->data, b->data, a->bytes);
}

/* Writes t, reads it back, and returns whether it came back the same and
 * the data starts 64-byte aligned. */
static bool npy_round_trip(const char *spec, const char *want_descr) {
  char path[] = "/tmp/shloc-npy-XXXXXX";
  int fd = mkstemp(path);
  close(fd);
  Tensor t, u;
  bool ok = !tensor_parse(spec, "input 0", &t) && !npy_write(path, &t) && !npy_read(path, &u);
  if (ok) {
    if (t.elem == ET_BF16) u.elem = ET_BF16; /* bf16 comes back as ui16 */
    ok = same_tensor(&t, &u);
    FILE *f = fopen(path, "rb");
    char head[256] = {0};
    ok = ok && fread(head, 1, sizeof head - 1, f) > 10;
    unsigned hlen = (unsigned char)head[8] | (unsigned)(unsigned char)head[9] << 8;
    ok = ok && (10 + hlen) % 64 == 0 && head[9 + hlen] == '\n' && strstr(head + 10, want_descr);
    fclose(f);
    tensor_free(&u);
  }
  if (!ok) printf("  npy round trip of %s failed\n", spec);
  tensor_free(&t);
  unlink(path);
  return ok;
}

static void test_npy(void) {
  EXPECT(npy_round_trip("2x3xf32=1 2 3 4 5 6", "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }"));
  EXPECT(npy_round_trip("3xf64=1 2 3", "'shape': (3,)"));
  EXPECT(npy_round_trip("i1=1", "{'descr': '|b1', 'fortran_order': False, 'shape': (), }"));
  EXPECT(npy_round_trip("2xi8=-1 2", "'|i1'"));
  EXPECT(npy_round_trip("2xui16=1 65535", "'<u2'"));
  EXPECT(npy_round_trip("2xf16=0.5 -2", "'<f2'"));
  EXPECT(npy_round_trip("2xi64=-5 7", "'<i8'"));
  last_diag[0] = 0;
  EXPECT(npy_round_trip("2xbf16=0.5 -2", "'<u2'"));
  EXPECT(strstr(last_diag, "warning: ") && strstr(last_diag, "bf16 has no NumPy dtype"));
}

/* Hand-written files: version 2.0 header, big-endian data, Fortran order. */
static bool write_raw(const char *path, int version, const char *dict, const void *data, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f) return false;
  size_t hlen = strlen(dict);
  fwrite("\x93NUMPY", 1, 6, f);
  fputc(version, f);
  fputc(0, f);
  unsigned char len[4] = {(unsigned char)hlen, (unsigned char)(hlen >> 8), 0, 0};
  fwrite(len, 1, version == 1 ? 2 : 4, f);
  fputs(dict, f);
  fwrite(data, 1, n, f);
  return fclose(f) == 0;
}

static void test_npy_read_variants(void) {
  char path[] = "/tmp/shloc-npy-XXXXXX";
  close(mkstemp(path));
  Tensor t;
  unsigned char be[8] = {0, 0, 0, 1, 0xff, 0xff, 0xff, 0xfe};
  EXPECT(write_raw(path, 2, "{'descr': '>i4', 'fortran_order': False, 'shape': (2,), }\n", be, 8));
  EXPECT(!npy_read(path, &t) && t.elem == ET_SI32 && t.rank == 1 && t.dims[0] == 2 &&
         ((int32_t *)t.data)[0] == 1 && ((int32_t *)t.data)[1] == -2);
  tensor_free(&t);
  EXPECT(write_raw(path, 1, "{'descr': '<f4', 'fortran_order': True, 'shape': (1,), }\n", be, 4));
  EXPECT(npy_read(path, &t) != 0 && strstr(last_diag, "Fortran-order"));
  EXPECT(write_raw(path, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }\n", be, 8));
  EXPECT(npy_read(path, &t) != 0 && strstr(last_diag, "shorter than its shape"));
  EXPECT(write_raw(path, 1, "{'descr': '<U4', 'fortran_order': False, 'shape': (1,), }\n", be, 8));
  EXPECT(npy_read(path, &t) != 0 && strstr(last_diag, "unsupported dtype"));
  EXPECT(write_raw(path, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }\n", be, 4));
  char spec[64];
  snprintf(spec, sizeof spec, "@%s", path);
  EXPECT(!tensor_parse(spec, "input 0", &t) && t.elem == ET_F32 && t.bytes == 4);
  tensor_free(&t);
  unlink(path);
}

static void test_random(void) {
  Tensor a, b, i;
  int64_t dims[1] = {1000};
  uint64_t s1 = 42, s2 = 42;
  EXPECT(!tensor_alloc(&a, ET_F32, 1, dims) && !tensor_alloc(&b, ET_F32, 1, dims));
  tensor_fill_random(&a, &s1);
  tensor_fill_random(&b, &s2);
  EXPECT(same_tensor(&a, &b));
  float lo = 1, hi = -1;
  for (int k = 0; k < 1000; k++) {
    float v = ((float *)a.data)[k];
    lo = v < lo ? v : lo;
    hi = v > hi ? v : hi;
  }
  EXPECT(lo >= -1 && lo < -0.9f && hi < 1 && hi > 0.9f);
  EXPECT(!tensor_alloc(&i, ET_SI32, 1, dims));
  tensor_fill_random(&i, &s1);
  int bad = 0, seen7 = 0;
  for (int k = 0; k < 1000; k++) {
    int32_t v = ((int32_t *)i.data)[k];
    bad += v < 0 || v > 7;
    seen7 |= v == 7;
  }
  EXPECT(!bad && seen7);
  EXPECT(((uintptr_t)a.data & 63) == 0);
  tensor_free(&a);
  tensor_free(&b);
  tensor_free(&i);
}

int main(void) {
  diag_set_sink(keep_diag, NULL);
  test_parse_print();
  test_npy();
  test_npy_read_variants();
  test_random();
  return unit_report();
}
