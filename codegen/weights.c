/*
 * weights.c: where the constants of the program live (--weights).
 *
 *  - embed (the default): private constant globals in .rodata.
 *  - section=NAME: the same globals in the linker section NAME, for a
 *    linker script to place in flash or external memory.
 *  - file: the constants are not in the object. codegen_emit_weights
 *    returns the bytes of a weights file (the tool writes STEM.bin beside
 *    STEM.o) and the object defines
 *        int P_load_weights(const void *bytes, size_t size);
 *    which the application calls once with the file's bytes (mapped or
 *    read, 64-byte aligned, kept alive while the entries run) before any
 *    entry point. It returns 0, or 1 if bytes is not 64-byte aligned, 2 if
 *    size is not the file's, 3 if the header is not this object's (magic,
 *    version, size or fingerprint differ). Kernels find a constant at a
 *    fixed offset from the pointer it keeps (one per object: the object's
 *    only mutable global).
 *
 * The file's layout (integers little-endian):
 *     0   char[8]  "SHLOCWTS"
 *     8   u32      format version, 1
 *     12  u32      0
 *     16  u64      size of the whole file in bytes
 *     24  u64      fingerprint: FNV-1a (64-bit) of the bytes from 64 on
 *     32  zero up to 64
 *     64  the constants, each at a multiple of 64, in the storage layout
 *         of their types (row-major elements, as the header's arguments;
 *         splats expanded), or for those the layout pass packed (ir.h
 *         GemmPacking) in the GEMM tile's panels; zero padding between
 *         them.
 */
#include <stdlib.h>
#include <string.h>

#include "codegen.h"

#define WEIGHTS_HEADER 64
#define WEIGHTS_VERSION 1

char *cg_weights_loader_name(Arena *a, const CompileOptions *o) {
  if (!o->prefix || !o->prefix[0]) return cg_c_ident(a, "load_weights");
  return cg_c_ident(a, arena_printf(a, "%s_load_weights", o->prefix));
}

void cg_weights_place(CG *cg, LLVMValueRef g) {
  cg_report_mark_weight(cg, g);
  if (cg->o->weights == WEIGHTS_SECTION) LLVMSetSection(g, cg->o->weights_section);
}

/* Appends n bytes at a multiple of 64 of the file; returns their offset. */
static size_t blob_append(CG *cg, const char *bytes, size_t n) {
  size_t off = (cg->wlen + 63) & ~(size_t)63;
  if (off + n > cg->wcap) {
    size_t cap = cg->wcap ? cg->wcap : 4096;
    while (cap < off + n) cap *= 2;
    char *p = realloc(cg->wblob, cap);
    if (!p) abort();
    memset(p + cg->wcap, 0, cap - cg->wcap);
    cg->wblob = p;
    cg->wcap = cap;
  }
  memcpy(cg->wblob + off, bytes, n);
  cg->wlen = off + n;
  return off;
}

/* The pointer to the weights the loader stored (an internal global). */
static LLVMValueRef base_global(CG *cg) {
  if (cg->wbase) return cg->wbase;
  if (!cg->wlen) blob_append(cg, (const char[WEIGHTS_HEADER]){0}, WEIGHTS_HEADER);
  cg->wbase = LLVMAddGlobal(cg->mod, cg->t_ptr, "shloc.weights");
  LLVMSetInitializer(cg->wbase, LLVMConstNull(cg->t_ptr));
  LLVMSetLinkage(cg->wbase, LLVMInternalLinkage);
  return cg->wbase;
}

/* The index of constant `name` in the file, or cg->nwnames. */
static int file_index(const CG *cg, const char *name) {
  int i = 0;
  while (i < cg->nwnames && strcmp(cg->wnames[i].name, name)) i++;
  return i;
}

bool cg_weights_file_holds(const CG *cg, const char *name) {
  return file_index(cg, name) < cg->nwnames;
}

LLVMValueRef cg_weights_file_const(CG *cg, const char *name, const char *bytes, size_t n) {
  size_t off = 0;
  int i = file_index(cg, name);
  LLVMValueRef base = base_global(cg);
  if (i < cg->nwnames) {
    off = cg->wnames[i].off;
  } else {
    off = blob_append(cg, bytes, n);
    CgWeight *w = realloc(cg->wnames, (size_t)(cg->nwnames + 1) * sizeof *w);
    if (!w) abort();
    cg->wnames = w;
    cg->wnames[cg->nwnames++] = (CgWeight){arena_strdup(&cg->m->arena, name), off};
  }
  /* In the entry block, so that the pointer dominates every use. */
  LLVMBuilderRef b = LLVMCreateBuilderInContext(cg->ctx);
  LLVMPositionBuilderAtEnd(b, LLVMGetEntryBasicBlock(cg->llfn));
  LLVMValueRef p = LLVMBuildLoad2(b, cg->t_ptr, base, "weights");
  LLVMValueRef o = cg_i64(cg, (int64_t)off);
  p = LLVMBuildInBoundsGEP2(b, cg->t_i8, p, &o, 1, name);
  LLVMDisposeBuilder(b);
  return p;
}

static uint64_t fnv1a(const unsigned char *p, size_t n) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

static void put_u64(char *p, uint64_t v) {
  for (int k = 0; k < 8; k++) p[k] = (char)(v >> (8 * k));
}

/* `if (!ok) return code;` in the loader being built. */
static void fail_unless(CG *cg, LLVMValueRef fn, LLVMValueRef ok, int code) {
  LLVMBasicBlockRef bad = LLVMAppendBasicBlockInContext(cg->ctx, fn, "bad");
  LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(cg->ctx, fn, "next");
  LLVMBuildCondBr(cg->b, ok, next, bad);
  LLVMPositionBuilderAtEnd(cg->b, bad);
  LLVMBuildRet(cg->b, LLVMConstInt(cg->t_i32, (unsigned long long)code, 0));
  LLVMPositionBuilderAtEnd(cg->b, next);
}

/* Word k (8 bytes) of the file's header equals v. */
static LLVMValueRef header_word_is(CG *cg, LLVMValueRef p, int k, uint64_t v) {
  LLVMValueRef o = cg_i64(cg, 8 * k);
  LLVMValueRef w = LLVMBuildLoad2(cg->b, cg->t_i64,
                                  LLVMBuildInBoundsGEP2(cg->b, cg->t_i8, p, &o, 1, ""), "");
  return LLVMBuildICmp(cg->b, LLVMIntEQ, w, LLVMConstInt(cg->t_i64, v, 0), "");
}

int cg_weights_finish(CG *cg, char **weights, size_t *weights_len) {
  if (cg->o->weights != WEIGHTS_FILE) return 0;
  base_global(cg); /* a loader even for a program without constants */
  size_t size = (cg->wlen + 63) & ~(size_t)63;
  char *h = cg->wblob;
  memcpy(h, "SHLOCWTS", 8);
  put_u64(h + 8, WEIGHTS_VERSION);
  put_u64(h + 16, size);
  uint64_t fp = fnv1a((const unsigned char *)h + WEIGHTS_HEADER, size - WEIGHTS_HEADER);
  put_u64(h + 24, fp);
  LLVMTypeRef st = LLVMIntPtrTypeInContext(cg->ctx, cg->td);
  LLVMTypeRef params[2] = {cg->t_ptr, st};
  const char *name = cg_weights_loader_name(&cg->m->arena, cg->o);
  LLVMValueRef fn = LLVMAddFunction(cg->mod, name, LLVMFunctionType(cg->t_i32, params, 2, 0));
  cg_set_fn_attrs(cg, fn);
  LLVMPositionBuilderAtEnd(cg->b, LLVMAppendBasicBlockInContext(cg->ctx, fn, "entry"));
  LLVMValueRef p = LLVMGetParam(fn, 0);
  LLVMValueRef addr = LLVMBuildPtrToInt(cg->b, p, st, "");
  fail_unless(cg, fn, LLVMBuildICmp(cg->b, LLVMIntEQ, LLVMBuildAnd(cg->b, addr, LLVMConstInt(st, 63, 0), ""),
                                    LLVMConstNull(st), ""), 1);
  fail_unless(cg, fn, LLVMBuildICmp(cg->b, LLVMIntEQ, LLVMGetParam(fn, 1),
                                    LLVMConstInt(st, size, 0), ""), 2);
  uint64_t magic = 0;
  for (int k = 7; k >= 0; k--) magic = magic << 8 | (unsigned char)"SHLOCWTS"[k];
  LLVMValueRef ok = header_word_is(cg, p, 0, magic);
  ok = LLVMBuildAnd(cg->b, ok, header_word_is(cg, p, 1, WEIGHTS_VERSION), "");
  ok = LLVMBuildAnd(cg->b, ok, header_word_is(cg, p, 2, size), "");
  ok = LLVMBuildAnd(cg->b, ok, header_word_is(cg, p, 3, fp), "");
  fail_unless(cg, fn, ok, 3);
  LLVMBuildStore(cg->b, p, cg->wbase);
  LLVMBuildRet(cg->b, LLVMConstInt(cg->t_i32, 0, 0));
  *weights = realloc(cg->wblob, size ? size : 1);
  if (!*weights) abort();
  *weights_len = size;
  cg->wblob = NULL;
  return 0;
}
