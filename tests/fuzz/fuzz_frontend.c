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
#include <stdio.h>
#include <stdlib.h>

#include "tests/fuzz/fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static FILE *devnull;
  if (size > 64 * 1024) return -1; /* not added to the corpus */
  if (!devnull) {
    devnull = fopen("/dev/null", "w");
    if (!devnull) abort();
  }
  SrcFile file;
  fuzz_input(data, size, &file);
  Module *m = parse_module(&file, 0, size, NULL);
  if (m) {
    if (pass_verify(m) == 0) ir_print_module(devnull, m);
    ir_module_free(m);
  }
  free((char *)file.text);
  return 0;
}
