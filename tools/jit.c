/* jit.c: runs generated objects in the tool's own process with ORC LLJIT
 * (LLVM C API). The object is the same one `shloc -o x.o` writes, so run,
 * check and bench exercise the real compiler output.
 *
 * Undefined symbols of the object (shlort_* from the runtime, memcpy and
 * friends from libc) resolve against the process: the tool is linked with
 * -rdynamic and the whole runtime archive, so every shlort_* function is
 * in its dynamic symbol table. */
#include <stdlib.h>

#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>

#include "tools.h"

struct Jit {
  LLVMOrcLLJITRef lljit;
};

/* Diagnoses and consumes an LLVM error; returns whether there was one. */
static bool jit_failed(LLVMErrorRef err, const char *what) {
  if (!err) return false;
  char *msg = LLVMGetErrorMessage(err);
  diag_error(TOOL_NOLOC, "JIT: %s: %s", what, msg);
  LLVMDisposeErrorMessage(msg);
  return true;
}

static bool add_process_symbols(Jit *j) {
  LLVMOrcDefinitionGeneratorRef gen;
  LLVMErrorRef err = LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(
      &gen, LLVMOrcLLJITGetGlobalPrefix(j->lljit), NULL, NULL);
  if (jit_failed(err, "process symbols")) return false;
  LLVMOrcJITDylibAddGenerator(LLVMOrcLLJITGetMainJITDylib(j->lljit), gen);
  return true;
}

Jit *jit_new(const char *obj, size_t len) {
  LLVMInitializeNativeTarget();
  LLVMInitializeNativeAsmPrinter();
  Jit *j = calloc(1, sizeof *j);
  if (!j) return NULL;
  /* A NULL builder: the default LLJIT for the host. */
  if (jit_failed(LLVMOrcCreateLLJIT(&j->lljit, NULL), "create")) {
    free(j);
    return NULL;
  }
  if (!add_process_symbols(j)) {
    jit_free(j);
    return NULL;
  }
  /* The JIT takes ownership of the copy. */
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(obj, len, "shloc-object");
  LLVMErrorRef err = LLVMOrcLLJITAddObjectFile(j->lljit, LLVMOrcLLJITGetMainJITDylib(j->lljit), buf);
  if (jit_failed(err, "add object")) {
    jit_free(j);
    return NULL;
  }
  return j;
}

/* Linking happens lazily, at the first lookup: unresolved symbols and
 * relocation errors surface here. */
uint64_t jit_lookup(Jit *j, const char *name) {
  LLVMOrcExecutorAddress addr = 0;
  if (jit_failed(LLVMOrcLLJITLookup(j->lljit, &addr, name), name)) return 0;
  return addr;
}

void jit_free(Jit *j) {
  if (!j) return;
  if (j->lljit) jit_failed(LLVMOrcDisposeLLJIT(j->lljit), "dispose");
  free(j);
}
