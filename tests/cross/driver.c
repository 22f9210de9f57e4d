/* driver.c: runs one entry of an object compiled by shloc on inputs given
 * as text and prints its results, both as `shloc run` does, so that objects
 * compiled for another target (run under qemu-user) can be compared with
 * the host's `shloc run`. The cross stage of tests/run.py builds it once
 * per program with
 *   -DSHLOC_HEADER='"prog.h"' -DSHLOC_ENTRY=prog_main -DSHLOC_MACROS=PROG_MAIN
 * and links it with the object (compiled with --packed-entry) and a
 * libshlort.a built for the same target.
 *
 *   usage: driver [--input=SPEC]...   SPEC: "2x3xf32=1 2 3 4 5 6", "f32=5"
 *
 * Values are read with shlort_parse_values (one value fills the tensor,
 * none zero-fills it) and written with shlort_format_elem. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shlort.h"
#include SHLOC_HEADER

#define PASTE2(a, b) a##b
#define PASTE(a, b) PASTE2(a, b)
#define TENSORS PASTE(SHLOC_ENTRY, _tensors)
#define PACKED PASTE(SHLOC_ENTRY, __packed)
#define NUM_ARGS PASTE(SHLOC_MACROS, _NUM_ARGS)
#define NUM_RESULTS PASTE(SHLOC_MACROS, _NUM_RESULTS)
#define TEMP_BYTES PASTE(SHLOC_MACROS, _TEMP_BYTES)

static int64_t num_elems(const shloc_tensor_desc *d) {
  int64_t n = 1;
  for (int i = 0; i < d->rank; i++) n *= d->dims[i];
  return n;
}

/* "2x3xf32": the spelling of the descriptor's type in input specs. */
static void shape_str(const shloc_tensor_desc *d, char *buf, size_t size) {
  size_t n = 0;
  buf[0] = 0;
  for (int i = 0; i < d->rank && n < size; i++)
    n += (size_t)snprintf(buf + n, size - n, "%lldx", (long long)d->dims[i]);
  if (n < size) snprintf(buf + n, size - n, "%s", d->dtype);
}

/* Reads input i from its spec into a new buffer for d. */
static char *load_input(const char *spec, int i, const shloc_tensor_desc *d) {
  char want[512];
  shape_str(d, want, sizeof want);
  const char *eq = strchr(spec, '=');
  size_t len = eq ? (size_t)(eq - spec) : strlen(spec);
  if (len != strlen(want) || strncmp(spec, want, len)) {
    fprintf(stderr, "input %d: the entry takes %s, got %.*s\n", i, want, (int)len, spec);
    return NULL;
  }
  char *buf = aligned_alloc(64, (d->bytes + 63) / 64 * 64 + 64);
  if (!buf) return NULL;
  memset(buf, 0, d->bytes);
  char err[192];
  if (eq && shlort_parse_values(shlort_elem_from_name(d->dtype), eq + 1, buf, num_elems(d), err,
                                sizeof err)) {
    fprintf(stderr, "input %d: %s\n", i, err);
    free(buf);
    return NULL;
  }
  return buf;
}

/* The sub-tensor at dimension k from element `first`, as shloc run prints it. */
static void print_level(const shloc_tensor_desc *d, const char *data, size_t eb, int k,
                        int64_t first, int64_t stride) {
  char buf[96];
  int32_t elem = shlort_elem_from_name(d->dtype);
  putchar('[');
  int64_t inner = d->dims[k] ? stride / d->dims[k] : 0;
  for (int64_t i = 0; i < d->dims[k]; i++) {
    if (k + 1 < d->rank) {
      print_level(d, data, eb, k + 1, first + i * inner, inner);
      continue;
    }
    shlort_format_elem(buf, sizeof buf, elem, data + (first + i) * eb);
    printf("%s%s", i ? " " : "", buf);
  }
  putchar(']');
}

static void print_result(const shloc_tensor_desc *d, const char *data) {
  char shape[512], buf[96];
  int64_t n = num_elems(d);
  shape_str(d, shape, sizeof shape);
  printf("%s=", shape);
  if (d->rank == 0) {
    shlort_format_elem(buf, sizeof buf, shlort_elem_from_name(d->dtype), data);
    fputs(buf, stdout);
  } else {
    print_level(d, data, n ? d->bytes / (size_t)n : 0, 0, 0, n);
  }
  putchar('\n');
}

int main(int argc, char **argv) {
  int nargs = NUM_ARGS, nt = NUM_ARGS + NUM_RESULTS, nin = argc - 1;
  void **bufs = calloc((size_t)nt + 1, sizeof *bufs);
  if (nin != nargs) {
    fprintf(stderr, "the entry takes %d inputs, %d given\n", nargs, nin);
    return 1;
  }
  for (int i = 0; i < nargs; i++) {
    if (strncmp(argv[i + 1], "--input=", 8)) {
      fprintf(stderr, "usage: %s [--input=SPEC]...\n", argv[0]);
      return 1;
    }
    if (!(bufs[i] = load_input(argv[i + 1] + 8, i, &TENSORS[i]))) return 1;
  }
  for (int i = nargs; i < nt; i++)
    if (!(bufs[i] = aligned_alloc(64, (TENSORS[i].bytes + 63) / 64 * 64 + 64))) return 1;
  size_t temp = (TEMP_BYTES + 63) / 64 * 64 + 64;
  if (!(bufs[nt] = aligned_alloc(64, temp))) return 1;
  int32_t rc = PACKED(bufs);
  if (rc) {
    fprintf(stderr, "the entry returned %d\n", (int)rc);
    return 1;
  }
  for (int i = nargs; i < nt; i++) print_result(&TENSORS[i], bufs[i]);
  for (int i = 0; i <= nt; i++) free(bufs[i]);
  free(bufs);
  return 0;
}
