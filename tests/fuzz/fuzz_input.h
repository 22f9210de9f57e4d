/* fuzz_input.h: what every libFuzzer target here does with its input. */
#ifndef SHLOC_FUZZ_INPUT_H
#define SHLOC_FUZZ_INPUT_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"

static size_t fuzz_diag_bytes; /* read every diagnostic so its text is formatted */

static void fuzz_quiet_sink(void *ctx, const char *text) {
  (void)ctx;
  fuzz_diag_bytes += strlen(text);
}

/* Silences diagnostics and makes *file the input: a malloc'ed copy (the
 * caller frees file->text) with the NUL that SrcFile promises after the
 * text and nothing more, so that reads past the end are caught by ASan. */
static void fuzz_input(const uint8_t *data, size_t size, SrcFile *file) {
  diag_set_sink(fuzz_quiet_sink, NULL);
  diag_reset();
  char *text = malloc(size + 1);
  if (!text) abort();
  memcpy(text, data, size);
  text[size] = 0;
  *file = (SrcFile){"fuzz.mlir", text, size, memchr(text, 0, size) != NULL};
}

#endif
