/* fuzz_frontend.c: libFuzzer target for the frontend (built by `make fuzz`,
 * see tests/fuzz/fuzz.mk).
 *
 * Each input is parsed as one module with parse_module, as `shloc` does for
 * one `// -----` case. When it parses, the verifier runs and the module is
 * printed (to /dev/null), so every module the parser accepts also goes
 * through the code that trusts its invariants. Diagnostics go to a sink that
 * reads them (the formatting code runs) and prints nothing.
 *
 * A finding is a sanitizer report or a crash; an input that is merely
 * rejected is fine. Inputs up to 64 KiB: the bugs worth finding do not need
 * big files, and small inputs keep the run fast.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t diag_bytes; /* read every diagnostic so its text is formatted */

static void quiet_sink(void *ctx, const char *text) {
  (void)ctx;
  diag_bytes += strlen(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static FILE *devnull;
  if (size > 64 * 1024) return -1; /* not added to the corpus */
  if (!devnull) {
    devnull = fopen("/dev/null", "w");
    if (!devnull) abort();
    diag_set_sink(quiet_sink, NULL);
  }
  /* SrcFile promises a NUL after the text; nothing more, so that reads past
   * the end are caught by ASan. */
  char *text = malloc(size + 1);
  if (!text) abort();
  memcpy(text, data, size);
  text[size] = 0;
  SrcFile file = {"fuzz.mlir", text, size, memchr(text, 0, size) != NULL};
  diag_reset();
  Module *m = parse_module(&file, 0, size, NULL);
  if (m) {
    if (pass_verify(m) == 0) ir_print_module(devnull, m);
    ir_module_free(m);
  }
  free(text);
  return 0;
}
