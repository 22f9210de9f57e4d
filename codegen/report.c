/*
 * report.c: the memory plan of an object (--print-memory-plan), what a
 * small target must reserve for it, read from the artifacts rather than
 * estimated:
 *  - code and data: the sizes of the object's sections, read with LLVM's
 *    object API (`size -A` on the object gives the same numbers);
 *  - weights: the weights blob and the program's constants that are left
 *    after optimization (the globals cg_weights_place marks), or the
 *    weights file;
 *  - temp arena: Func.temp_bytes of each entry and the kernel scratch the
 *    buffers pass planned in it (Op.scratch_offset, Op.scratch_bytes);
 *  - stack: each function's frame as the backend laid it out (its locals,
 *    spills and saved registers: MachineFrameInfo's stack size, which the
 *    backend reports for functions marked "warn-stack-size"; the number
 *    behind clang's -Wframe-larger-than), summed along the deepest path of
 *    the call graph from each public function. Frames are fixed because
 *    every alloca of generated code is a constant-size one in the entry
 *    block; any other (a dynamic stack allocation) is a codegen bug, which
 *    the report diagnoses instead of printing a bound that does not hold.
 */
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Object.h>

#include "codegen.h"

#define WEIGHT_MD "shloc.weight"
#define MAX_PATH_DEPTH 64

void cg_report_mark_weight(CG *cg, LLVMValueRef g) {
  if (!cg->o->memory_plan) return;
  unsigned kind = LLVMGetMDKindIDInContext(cg->ctx, WEIGHT_MD, sizeof WEIGHT_MD - 1);
  LLVMGlobalSetMetadata(g, kind, LLVMMDNodeInContext2(cg->ctx, NULL, 0));
}

/* ------------------------------------------------------------------------ */
/* Frames, from the backend's stack size diagnostics                        */

/* Parses "... stack frame size (N) exceeds limit (0) in function 'F'"
 * (DiagnosticInfoStackSize) into the frame table; false for any other
 * diagnostic. */
static bool record_frame(CG *cg, const char *msg) {
  const char *s = strstr(msg, "stack frame size (");
  const char *f = strstr(msg, "in function '");
  if (!s || !f) return false;
  f += strlen("in function '");
  const char *end = strrchr(f, '\'');
  if (!end || end < f) return false;
  CgFrame *fr = realloc(cg->frames, (size_t)(cg->nframes + 1) * sizeof *fr);
  if (!fr) abort();
  cg->frames = fr;
  fr[cg->nframes].name = strndup(f, (size_t)(end - f));
  fr[cg->nframes++].bytes = strtoull(s + strlen("stack frame size ("), NULL, 10);
  return true;
}

/* Frames are recorded; other diagnostics are printed as LLVM would, and
 * an error fails the compilation. */
static void on_diagnostic(LLVMDiagnosticInfoRef di, void *ctx) {
  CG *cg = ctx;
  char *msg = LLVMGetDiagInfoDescription(di);
  LLVMDiagnosticSeverity sev = LLVMGetDiagInfoSeverity(di);
  if (!record_frame(cg, msg)) {
    if (sev == LLVMDSError) {
      diag_error((Loc){0}, "LLVM: %s", msg);
      cg->errors++;
    } else if (sev == LLVMDSWarning) {
      diag_warning((Loc){0}, "LLVM: %s", msg);
    }
  }
  LLVMDisposeMessage(msg);
}

void cg_report_begin(CG *cg) {
  if (!cg->o->memory_plan) return;
  for (LLVMValueRef f = LLVMGetFirstFunction(cg->mod); f; f = LLVMGetNextFunction(f)) {
    if (LLVMIsDeclaration(f)) continue;
    LLVMAttributeRef a = LLVMCreateStringAttribute(cg->ctx, "warn-stack-size", 15, "0", 1);
    LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, a);
  }
  LLVMContextSetDiagnosticHandler(cg->ctx, on_diagnostic, cg);
}

static bool has_prefix(const char *s, const char *p) { return !strncmp(s, p, strlen(p)); }

/* The return address a call pushes: x86's frames leave it out (it is the
 * caller's doing); the other targets keep it in a link register, saved in
 * the frame when the function calls. */
static uint64_t return_address_bytes(CG *cg) {
  char *triple = LLVMGetTargetMachineTriple(cg->tm);
  uint64_t n = has_prefix(triple, "x86_64") ? 8
               : triple[0] == 'i' && has_prefix(triple + 2, "86") ? 4 : 0;
  LLVMDisposeMessage(triple);
  return n;
}

/* f's frame, and on x86 the return address of the call into f. */
static uint64_t frame_of(CG *cg, const char *name) {
  uint64_t ret = return_address_bytes(cg);
  for (int i = 0; i < cg->nframes; i++)
    if (!strcmp(cg->frames[i].name, name)) return cg->frames[i].bytes + ret;
  return ret; /* not reported: no frame */
}

/* ------------------------------------------------------------------------ */
/* The call graph                                                            */

/* A function defined in the object that `op` names (a call's callee, or
 * a kernel handed to shlort_parallel_for, which runs it on this stack
 * too), else NULL. */
static LLVMValueRef defined_fn(LLVMValueRef op) {
  if (!op || !LLVMIsAFunction(op) || LLVMIsDeclaration(op)) return NULL;
  return op;
}

/* The deepest stack from f: its frame plus the deepest of its callees;
 * path[0 .. *depth) receives that path. Generated code does not recurse;
 * MAX_PATH_DEPTH guards against it all the same. */
static uint64_t stack_from(CG *cg, LLVMValueRef f, LLVMValueRef *path, int *depth, int level) {
  uint64_t best = 0;
  LLVMValueRef sub[MAX_PATH_DEPTH];
  int best_depth = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb && level < MAX_PATH_DEPTH;
       bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (!LLVMIsACallInst(i)) continue;
      for (int k = 0; k < LLVMGetNumOperands(i); k++) {
        LLVMValueRef callee = defined_fn(LLVMGetOperand(i, (unsigned)k));
        if (!callee || callee == f) continue;
        int d = 0;
        uint64_t s = stack_from(cg, callee, sub, &d, level + 1);
        if (s < best || (s == best && best_depth)) continue;
        best = s;
        best_depth = d;
        memcpy(path + 1, sub, (size_t)d * sizeof *sub);
      }
    }
  path[0] = f;
  *depth = best_depth + 1;
  size_t n;
  return frame_of(cg, LLVMGetValueName2(f, &n)) + best;
}

/* Whether every alloca is a constant-size one in its function's entry
 * block (else diagnosed). */
static bool frames_fixed(CG *cg) {
  bool ok = true;
  for (LLVMValueRef f = LLVMGetFirstFunction(cg->mod); f; f = LLVMGetNextFunction(f)) {
    if (LLVMIsDeclaration(f)) continue;
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(f);
    for (LLVMBasicBlockRef bb = entry; bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
        if (!LLVMIsAAllocaInst(i)) continue;
        if (bb == entry && LLVMIsAConstantInt(LLVMGetOperand(i, 0))) continue;
        size_t n;
        diag_error((Loc){0}, "internal: dynamic stack allocation in %s: its stack is "
                   "not bounded", LLVMGetValueName2(f, &n));
        ok = false;
      }
  }
  return ok;
}

/* ------------------------------------------------------------------------ */
/* The object                                                                */

typedef struct Sections {
  uint64_t text, rodata, data, weights;
} Sections;

/* Sizes by section name (ELF's and its variants: .text.*, .rodata.cst16,
 * RISC-V's .srodata/.sdata/.sbss, x86's .lrodata); relocations, symbol
 * tables and notes are not loaded and not counted. */
static void section_sizes(LLVMBinaryRef bin, const CompileOptions *o, Sections *s) {
  LLVMSectionIteratorRef it = LLVMObjectFileCopySectionIterator(bin);
  for (; !LLVMObjectFileIsSectionIteratorAtEnd(bin, it); LLVMMoveToNextSection(it)) {
    const char *name = LLVMGetSectionName(it);
    uint64_t size = LLVMGetSectionSize(it);
    if (!name) continue;
    if (o->weights == WEIGHTS_SECTION && !strcmp(name, o->weights_section))
      s->weights += size;
    else if (has_prefix(name, ".text"))
      s->text += size;
    else if (has_prefix(name, ".rodata") || has_prefix(name, ".srodata") ||
             has_prefix(name, ".lrodata"))
      s->rodata += size;
    else if (has_prefix(name, ".data") || has_prefix(name, ".bss") ||
             has_prefix(name, ".sdata") || has_prefix(name, ".sbss"))
      s->data += size;
  }
  LLVMDisposeSectionIterator(it);
}

typedef struct Listing {
  FILE *out;
  int n;
} Listing;

static bool print_undefined(const char *name, void *ctx) {
  Listing *l = ctx;
  fprintf(l->out, "%s%s", l->n++ ? " " : "", name);
  return true;
}

/* Bytes of the weights blob (weights.c) and of the constants still in
 * the module (cg_report_mark_weight). */
static uint64_t weight_bytes(CG *cg) {
  unsigned kind = LLVMGetMDKindIDInContext(cg->ctx, WEIGHT_MD, sizeof WEIGHT_MD - 1);
  uint64_t total = cg->wbase ? cg->wlen : 0;
  for (LLVMValueRef g = LLVMGetFirstGlobal(cg->mod); g; g = LLVMGetNextGlobal(g)) {
    size_t n;
    LLVMValueMetadataEntry *md = LLVMGlobalCopyAllMetadata(g, &n);
    for (size_t i = 0; i < n; i++)
      if (LLVMValueMetadataEntriesGetKind(md, (unsigned)i) == kind)
        total += LLVMABISizeOfType(cg->td, LLVMGlobalGetValueType(g));
    if (md) LLVMDisposeValueMetadataEntries(md);
  }
  return total;
}

/* ------------------------------------------------------------------------ */
/* The report                                                                */

static void print_scratch(Op *op, void *ctx) {
  FILE *out = ctx;
  if (!op->scratch_bytes) return;
  fprintf(out, "    kernel scratch %10lld bytes at offset %lld (per chunk): %s",
          (long long)op->scratch_bytes, (long long)op->scratch_offset, op_name(op->code));
  if (op->loc.file) fprintf(out, " at %s:%d:%d", op->loc.file->name, op->loc.line, op->loc.col);
  fputc('\n', out);
}

/* The constants the layout pass packed: count, bytes, padding. */
typedef struct Packed {
  int n;
  int64_t bytes, padding;
} Packed;

static void count_packed(Op *op, void *ctx) {
  Packed *k = ctx;
  const Value *v = op->nresults == 1 ? op->results[0] : NULL;
  if (op->code != OP_CONSTANT || !v->packed) return;
  int64_t es = elem_bytes(v->type->elem), bytes = layout_packed_elems(v->packed) * es;
  k->n++;
  k->bytes += bytes;
  /* a Winograd kernel's transformed matrices (bdim[0] of C x K) are not padding */
  const GemmPacking *p = v->packed;
  int64_t unpadded = p->wino ? p->bdim[0] * p->K * p->N * es : type_byte_size(v->type);
  k->padding += bytes - unpadded;
}

static void print_entry(CG *cg, Func *f, FILE *out) {
  const char *name = cg_entry_name(&cg->m->arena, cg->o, f);
  fprintf(out, "entry %s (@%s)\n", name, f->name);
  fprintf(out, "  temp arena       %10lld bytes (the header's TEMP_BYTES)\n",
          (long long)f->temp_bytes);
  ir_walk(f, print_scratch, out);
  Packed k = {0};
  ir_walk(f, count_packed, &k);
  if (k.n)
    fprintf(out, "  packed weights   %10lld bytes in %d GEMM constants (%lld of them padding)\n",
            (long long)k.bytes, k.n, (long long)k.padding);
}

/* The stack of each function the object defines for callers. */
static void print_stacks(CG *cg, FILE *out) {
  for (LLVMValueRef f = LLVMGetFirstFunction(cg->mod); f; f = LLVMGetNextFunction(f)) {
    if (LLVMIsDeclaration(f) || LLVMGetLinkage(f) != LLVMExternalLinkage) continue;
    LLVMValueRef path[MAX_PATH_DEPTH];
    int depth = 0;
    size_t n;
    uint64_t total = stack_from(cg, f, path, &depth, 0);
    fprintf(out, "stack of %s: %llu bytes (", LLVMGetValueName2(f, &n),
            (unsigned long long)total);
    for (int i = 0; i < depth; i++) {
      const char *fn = LLVMGetValueName2(path[i], &n);
      fprintf(out, "%s%s %llu", i ? " > " : "", fn, (unsigned long long)frame_of(cg, fn));
    }
    fprintf(out, ")\n");
  }
}

int cg_report(CG *cg, const char *obj, size_t len) {
  FILE *out = cg->o->memory_plan;
  LLVMContextSetDiagnosticHandler(cg->ctx, NULL, NULL);
  if (!frames_fixed(cg)) return 1;
  LLVMMemoryBufferRef mb = LLVMCreateMemoryBufferWithMemoryRange(obj, len, "object", 0);
  char *err = NULL;
  LLVMBinaryRef bin = LLVMCreateBinary(mb, cg->ctx, &err);
  if (!bin) {
    diag_error((Loc){0}, "cannot read the object back: %s", err);
    LLVMDisposeMessage(err);
    LLVMDisposeMemoryBuffer(mb);
    return 1;
  }
  Sections s = {0};
  section_sizes(bin, cg->o, &s);
  char *triple = LLVMGetTargetMachineTriple(cg->tm), *cpu = LLVMGetTargetMachineCPU(cg->tm);
  fprintf(out, "memory plan: %s, cpu %s\n", triple, cpu[0] ? cpu : "generic");
  fprintf(out, "code (.text)     %10llu bytes\n", (unsigned long long)s.text);
  fprintf(out, "read-only data   %10llu bytes (.rodata)\n", (unsigned long long)s.rodata);
  fprintf(out, "writable data    %10llu bytes (.data, .bss)\n", (unsigned long long)s.data);
  if (cg->o->weights == WEIGHTS_FILE)
    fprintf(out, "weights          %10zu bytes (the weights file)\n", cg->wlen);
  else if (cg->o->weights == WEIGHTS_SECTION)
    fprintf(out, "weights          %10llu bytes (section %s)\n", (unsigned long long)s.weights,
            cg->o->weights_section);
  else
    fprintf(out, "weights          %10llu bytes (in .rodata)\n",
            (unsigned long long)weight_bytes(cg));
  for (int i = 0; i < cg->m->nfuncs; i++)
    if (ir_func_is_entry(cg->m, cg->m->funcs[i], cg->o)) print_entry(cg, cg->m->funcs[i], out);
  print_stacks(cg, out);
  Listing undef = {out, 0};
  fprintf(out, "external symbols (their stack not counted): ");
  size_t flen;
  cg_each_undefined(bin, LLVMGetSourceFileName(cg->mod, &flen), print_undefined, &undef);
  fprintf(out, "%s\n", undef.n ? "" : "none");
  LLVMDisposeMessage(triple);
  LLVMDisposeMessage(cpu);
  LLVMDisposeBinary(bin);
  LLVMDisposeMemoryBuffer(mb);
  return 0;
}
