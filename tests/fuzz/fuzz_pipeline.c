/* fuzz_pipeline.c: libFuzzer target for the whole compiler up to LLVM IR
 * (built by `make fuzz`, see tests/fuzz/fuzz.mk).
 *
 * Each input is parsed as one module, run through THE pipeline
 * (driver_compile: verify, inline, chlo, refine_shapes, legalize, quant,
 * simplify, fuse, buffers) and, when that succeeds, through codegen to an
 * LLVM module that LLVMVerifyModule checks (EMIT_VERIFY: no LLVM
 * optimization and no object, which would take most of the time and test
 * LLVM rather than us). Check ops are allowed, as in `shloc check`, whose
 * corpus the seeds come from.
 *
 * The size of the input picks the options, so that one input always runs
 * the same way: odd sizes compile with --threads=2 (parallel-for calls),
 * sizes divisible by 3 at -O0 (no fusion), the rest at -O3.
 *
 * A finding is a sanitizer report, a crash (an invalid LLVM module aborts),
 * a leak, a timeout or too much memory; a rejected input is fine.
 */
#include <stdlib.h>

#include "codegen/codegen_api.h"
#include "tests/fuzz/fuzz_input.h"
#include "tools/tools.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 32 * 1024) return -1; /* not added to the corpus */
  SrcFile file;
  fuzz_input(data, size, &file);
  Module *m = parse_module(&file, 0, size, NULL);
  if (m) {
    CompileOptions o = {.opt_level = size % 3 == 0 ? 0 : 3,
                        .threads = size % 2 ? 2 : 1,
                        .packed_entry = true,
                        .allow_checks = true};
    char *out = NULL;
    size_t len = 0;
    if (driver_compile(m, &o) == 0) codegen_emit(m, &o, EMIT_VERIFY, &out, &len);
    free(out);
    ir_module_free(m);
  }
  free((char *)file.text);
  return 0;
}
