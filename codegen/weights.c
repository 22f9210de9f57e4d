/*
 * weights.c: where the constants of the program live (--weights).
 *
 * Constants of at least 256 bytes (memory.c cg_const_global: the
 * weights, and any other constant that large), and with --weights=file
 * all constants, are never LLVM constants: LLVM would copy, hash and
 * print every byte of them, most of the compile time and memory of a
 * model with constant weights. Each gets an offset (a
 * multiple of 64) in one blob, and the code addresses it as blob +
 * offset; the bytes themselves are written by shloc, not LLVM (the
 * Value's literal, packed in place for the constants the layout pass
 * packs: ir.h GemmPacking, memory.c cg_const_write; those packed bytes,
 * and expanded splats, are made on a second thread while LLVM optimizes
 * and writes the object: cg_weights_ahead). Where the blob is:
 *
 *  - embed (the default): the internal constant global shloc.weight_bytes
 *    (64-byte aligned, or --weights-align's: blob_align) in read-only
 *    data. While LLVM optimizes, it is a declared constant of unknown
 *    contents (so nothing folds loads from it); then cg_weights_define
 *    defines it, and cg_weights_patch writes the bytes into the object
 *    LLVM wrote:
 *     - little-endian ELF: LLVM emits a 64-byte placeholder, alone in the
 *       section .rodata.shloc.weights; the section becomes the blob,
 *       right after the ELF header at BLOB_AT, and the rest of LLVM's
 *       object moves past it (the section headers' offsets and the blob's
 *       size, and the symbol's size, change; code refers to the blob
 *       through relocations against the section or the symbol, with the
 *       offset as addend, which stay true), so LLVM never writes the
 *       blob's size in bytes. Its place in the file is known before LLVM
 *       has written the object, so into a file the blob is written on a
 *       thread of its own while LLVM works (the one making bytes ahead, else
 *       blob_file_run's), as a new file the tool renames over the
 *       output with the compile's other outputs (outfile.c);
 *     - other objects: LLVM emits the blob's size in zeros, whose place
 *       cg_weights_patch finds (the symbol, read back with LLVM's object
 *       API: Mach-O and COFF alike) and overwrites.
 *    Assembly and LLVM IR output get the bytes as the initializer.
 *  - section=NAME: the blob with zeros to overwrite, and the smaller
 *    constant globals, in the linker section NAME, for a linker script to
 *    place in flash or external memory.
 *  - file: every constant is in the file, none in the object.
 *    codegen_emit_weights returns the bytes of a weights file (the tool
 *    writes STEM.bin beside STEM.o) and the object defines
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
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <llvm-c/Object.h>

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

/* ELF --weights=embed: the blob's own section, and the bytes LLVM emits
 * there (cg_weights_define). */
#define BLOB_SECTION ".rodata.shloc.weights"
#define BLOB_PLACEHOLDER 64
/* Where the blob starts in an ELF object: after the ELF header (52 or 64
 * bytes), at the default alignment of the blob (a larger --weights-align
 * is its address's, which the linker sets). */
#define BLOB_AT 64

/* The blob's alignment (--weights-align). An ELF linker gives the
 * segment holding it that alignment, and Linux then maps it at an address
 * congruent to its file offset modulo 2 MiB (the kernel for executables,
 * glibc's ld.so for shared objects), so a 2 MiB-aligned blob can be
 * mapped with huge pages where the page cache holds 2 MiB folios (ext4
 * on Linux 6.18: a file just written, not one read back after its pages
 * were dropped). The default 64 leaves that to chance: a PIE executable's
 * random base is only page-aligned. BERT's weights (340 MB, 1 thread,
 * Zen 3 VM, 2026-11-28) read 2-6% slower on 4 KiB pages than on 2 MiB
 * pages (docs/deployment.md, "Weights"). */
static uint64_t blob_align(const CG *cg) {
  return cg->o->weights_align ? cg->o->weights_align : 64;
}

/* Whether constants a and b have the same bytes in the blob: one literal
 * (constants the passes copied) stored alike, splats of one element
 * (elided weights) stored alike, or zeros, however stored. */
static bool same_bytes(Value *a, Value *b) {
  const DenseData *x = a->def->a.value, *y = b->def->a.value;
  if (cg_const_bytes(a) != cg_const_bytes(b)) return false;
  if (cg_const_zero(a) && cg_const_zero(b)) return true;
  if (!a->packed != !b->packed || (a->packed && !layout_same_packing(a->packed, b->packed)))
    return false;
  return x == y || (x->splat && y->splat && x->nbytes == y->nbytes &&
                    !memcmp(x->bytes, y->bytes, x->nbytes));
}

/* The offset in the blob of constant v named `name`: that of a constant
 * with the same bytes, or n new bytes at a multiple of 64. */
static size_t blob_reserve(CG *cg, const char *name, Value *v, size_t n) {
  size_t off = (cg->wlen + 63) & ~(size_t)63;
  bool shared = false;
  for (int i = 0; i < cg->nwnames && !shared; i++)
    if (cg->wnames[i].v && same_bytes(cg->wnames[i].v, v)) {
      off = cg->wnames[i].off;
      shared = true;
    }
  CgWeight *w = realloc(cg->wnames, (size_t)(cg->nwnames + 1) * sizeof *w);
  if (!w) abort();
  cg->wnames = w;
  /* A shared one is written once. */
  cg->wnames[cg->nwnames++] = (CgWeight){arena_strdup(&cg->m->arena, name), off, shared ? NULL : v};
  if (!shared) cg->wlen = off + n;
  return off;
}

/* ------------------------------------------------------------------------ */
/* The bytes made ahead                                                      */

/* Packed constants (and splats) are made while LLVM optimizes and writes
 * the object, on a second thread: the machine has cores to spare, since
 * LLVM's work is serial. It reads the IR's constants only, never LLVM's
 * objects (a context is not thread-safe), and the main thread changes
 * neither the constants nor cg->wnames meanwhile. Into the object's
 * file, the thread writes each as it makes it (blob_file_write); else up
 * to AHEAD_MAX_BYTES are held until the object is written, beside the
 * literals, so the rest of a very large model is made as before, one at
 * a time. */
#define AHEAD_MAX_BYTES ((size_t)1 << 30)

typedef struct CgAhead {
  pthread_t thread;
  bool running;      /* not joined yet */
  const CgWeight *w; /* cg->wnames */
  int n;
  char **bytes;      /* per weight: its bytes, or NULL where none were held */
  struct CgBlobFile *file; /* then written with them (blob_file_write), or NULL */
  double ms;         /* the thread's CPU time */
} CgAhead;

/* The blob's file (below). */
struct CgBlobFile;
static struct CgBlobFile *blob_file_new(CG *cg, OutFile *file);
static void blob_file_write(struct CgBlobFile *f, char *const *made);
static void blob_file_free(struct CgBlobFile *f);

/* Whether weight v's bytes have to be made (not the literal's own, nor
 * zeros: the holes of the blob). */
static bool needs_bytes(Value *v) { return v && !cg_const_literal(v) && !cg_const_zero(v); }

/* Makes the bytes held for blob_write, up to AHEAD_MAX_BYTES. */
static void ahead_make(CgAhead *a) {
  size_t left = AHEAD_MAX_BYTES;
  for (int i = 0; i < a->n; i++) {
    Value *v = a->w[i].v;
    size_t n = needs_bytes(v) ? cg_const_bytes(v) : 0;
    if (!n || n > left) continue;
    left -= n;
    if (!(a->bytes[i] = calloc(n, 1))) abort(); /* cg_const_write wants zeros */
    cg_const_write(v, a->bytes[i]);
  }
}

/* Into a file, nothing is held: blob_file_write makes each constant as
 * it writes it. */
static void *ahead_run(void *arg) {
  CgAhead *a = arg;
  double t = cg_cpu_ms();
  if (a->file) blob_file_write(a->file, NULL);
  else ahead_make(a);
  a->ms = cg_cpu_ms() - t;
  return NULL;
}

void cg_weights_ahead(CG *cg, OutFile *file) {
  if (cg->ahead || cg->o->weights == WEIGHTS_FILE) return; /* the file's are written */
  bool any = false;
  for (int i = 0; i < cg->nwnames && !any; i++) any = needs_bytes(cg->wnames[i].v);
  if (!any) return;
  CgAhead *a = calloc(1, sizeof *a);
  char **bytes = calloc((size_t)cg->nwnames, sizeof *bytes);
  if (!a || !bytes) abort();
  *a = (CgAhead){.w = cg->wnames, .n = cg->nwnames, .bytes = bytes};
  /* The object's file, where its blob will follow the ELF header (what
   * cg_weights_define decides, but for LLVM dropping the blob, after
   * which the file is removed), gets the blob right after the bytes are
   * made, from this thread: from cg_weights_define on, it was written
   * while both halves were emitted and ended after them (ResNet-50, Zen
   * 3: 64-95 ms after the join in 3 of 4 compiles). */
  if (file && cg->o->weights == WEIGHTS_EMBED && cg_elf_le_target(cg))
    a->file = blob_file_new(cg, file);
  if (pthread_create(&a->thread, NULL, ahead_run, a)) { /* then made when written */
    if (a->file) blob_file_free(a->file);
    free(bytes);
    free(a);
    return;
  }
  a->running = true;
  cg->ahead = a;
  cg->wfile = a->file;
}

/* Waits for the thread; its bytes stay until cg_weights_end. */
static void ahead_join(CG *cg) {
  CgAhead *a = cg->ahead;
  if (!a || !a->running) return;
  pthread_join(a->thread, NULL);
  a->running = false;
  cg->weights_ahead_ms = a->ms;
}

static void blob_file_start(CG *cg, OutFile *file);
static void blob_file_end(CG *cg);

void cg_weights_end(CG *cg) {
  ahead_join(cg);
  blob_file_end(cg);
  if (!cg->ahead) return;
  for (int i = 0; i < cg->ahead->n; i++) free(cg->ahead->bytes[i]);
  free(cg->ahead->bytes);
  free(cg->ahead);
  cg->ahead = NULL;
}

/* Weight i's bytes made ahead, or NULL. */
static const char *ahead_bytes(const CG *cg, int i) {
  return cg->ahead ? cg->ahead->bytes[i] : NULL;
}

/* Writes every constant of the blob at its offset in dst (zeroed). */
static void blob_write(const CG *cg, char *dst) {
  for (int i = 0; i < cg->nwnames; i++) {
    Value *v = cg->wnames[i].v;
    const char *made = ahead_bytes(cg, i);
    if (made) memcpy(dst + cg->wnames[i].off, made, cg_const_bytes(v));
    else if (v) cg_const_write(v, dst + cg->wnames[i].off);
  }
}

/* The base of the blob: in a file, the pointer the loader stored (an
 * internal global), else the declaration of the blob (cg_weights_define
 * defines it). */
static LLVMValueRef base_global(CG *cg) {
  if (cg->wbase) return cg->wbase;
  if (cg->o->weights != WEIGHTS_FILE) {
    cg->wbase = LLVMAddGlobal(cg->mod, LLVMArrayType2(cg->t_i8, 0), CG_WEIGHTS_BLOB);
    LLVMSetGlobalConstant(cg->wbase, 1);
    LLVMSetAlignment(cg->wbase, 64);
    return cg->wbase;
  }
  if (!cg->wlen) cg->wlen = WEIGHTS_HEADER;
  cg->wbase = LLVMAddGlobal(cg->mod, cg->t_ptr, "shloc.weights");
  LLVMSetInitializer(cg->wbase, LLVMConstNull(cg->t_ptr));
  LLVMSetLinkage(cg->wbase, LLVMInternalLinkage);
  return cg->wbase;
}

LLVMValueRef cg_weights_const(CG *cg, const char *name, Value *v) {
  LLVMValueRef base = base_global(cg);
  int i = 0;
  while (i < cg->nwnames && strcmp(cg->wnames[i].name, name)) i++;
  size_t off = i < cg->nwnames ? cg->wnames[i].off : blob_reserve(cg, name, v, cg_const_bytes(v));
  LLVMValueRef o = cg_i64(cg, (int64_t)off);
  /* Not inbounds: the blob's definition in an ELF object is a
   * placeholder smaller than the offsets (cg_weights_define). */
  if (cg->o->weights != WEIGHTS_FILE) return LLVMConstGEP2(cg->t_i8, base, &o, 1);
  /* In the entry block, so that the pointer dominates every use. */
  LLVMBuilderRef b = LLVMCreateBuilderInContext(cg->ctx);
  LLVMPositionBuilderAtEnd(b, LLVMGetEntryBasicBlock(cg->llfn));
  LLVMValueRef p = LLVMBuildLoad2(b, cg->t_ptr, base, "weights");
  p = LLVMBuildInBoundsGEP2(b, cg->t_i8, p, &o, 1, name);
  LLVMDisposeBuilder(b);
  return p;
}

static uint64_t fnv1a(const unsigned char *p, size_t n) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

/* Little-endian fields of n bytes (2, 4 or 8). */
static uint64_t get_le(const char *p, int n) {
  uint64_t v = 0;
  for (int k = n - 1; k >= 0; k--) v = v << 8 | (unsigned char)p[k];
  return v;
}

static void put_le(char *p, int n, uint64_t v) {
  for (int k = 0; k < n; k++) p[k] = (char)(v >> (8 * k));
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
  if (blob_align(cg) > 64 && !cg_elf_le_target(cg)) {
    diag_error(cg->m->loc, "--weights-align=%llu: implemented for little-endian ELF objects only",
               (unsigned long long)blob_align(cg));
    return 1;
  }
  if (cg->o->weights != WEIGHTS_FILE) return 0;
  base_global(cg); /* a loader even for a program without constants */
  size_t size = (cg->wlen + 63) & ~(size_t)63;
  double t = cg_cpu_ms();
  char *h = calloc(size, 1);
  if (!h) abort();
  blob_write(cg, h);
  memcpy(h, "SHLOCWTS", 8);
  put_le(h + 8, 8, WEIGHTS_VERSION);
  put_le(h + 16, 8, size);
  uint64_t fp = fnv1a((const unsigned char *)h + WEIGHTS_HEADER, size - WEIGHTS_HEADER);
  put_le(h + 24, 8, fp);
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
  *weights = h;
  *weights_len = size;
  cg->weights_ms += cg_cpu_ms() - t;
  return 0;
}

/* An ELF target: one of the systems that use ELF, unless the triple's
 * last part names another object format (x86_64-unknown-none-macho). */
bool cg_elf_le_target(CG *cg) {
  static const char *const elf[] = {"linux", "-none", "-elf", "android", "bsd", "fuchsia"};
  static const char *const other[] = {"macho", "coff", "xcoff", "wasm", "goff", "dxcontainer",
                                      "spirv"};
  char *triple = LLVMGetTargetMachineTriple(cg->tm);
  const char *last = strrchr(triple, '-');
  bool yes = false;
  for (size_t i = 0; i < sizeof elf / sizeof *elf; i++) yes |= strstr(triple, elf[i]) != NULL;
  for (size_t i = 0; last && i < sizeof other / sizeof *other; i++) {
    size_t n = strlen(last), k = strlen(other[i]);
    yes &= !(n > k && !strcmp(last + n - k, other[i]));
  }
  LLVMDisposeMessage(triple);
  return yes && LLVMByteOrder(cg->td) == LLVMLittleEndian;
}

void cg_weights_redeclare(CG *cg) {
  if (cg->o->weights == WEIGHTS_FILE || !cg->wlen || LLVMGetNamedGlobal(cg->mod, CG_WEIGHTS_BLOB))
    return;
  cg->wbase = NULL;
  base_global(cg);
}

void cg_weights_define(CG *cg, EmitKind kind, OutFile *file) {
  if (cg->o->weights == WEIGHTS_FILE) return;
  /* Looked up again: the optimizer drops a declaration nothing uses. */
  LLVMValueRef decl = LLVMGetNamedGlobal(cg->mod, CG_WEIGHTS_BLOB);
  cg->wbase = NULL;
  if (!decl) return;
  double t = cg_cpu_ms();
  /* An ELF object of --weights=embed gets a placeholder in a section of
   * its own, which becomes the blob after the ELF header (blob_place_elf;
   * into a file, written by cg_weights_ahead's thread, else from now on
   * by blob_file_run's); other objects get the blob's size in zeros. */
  cg->welf = kind == EMIT_OBJ && cg->o->weights == WEIGHTS_EMBED && cg_elf_le_target(cg);
  LLVMTypeRef ty = LLVMArrayType2(cg->t_i8, cg->welf ? BLOB_PLACEHOLDER : cg->wlen);
  LLVMValueRef init = LLVMConstNull(ty);
  if (kind != EMIT_OBJ) {
    char *bytes = calloc(cg->wlen, 1);
    if (!bytes) abort();
    blob_write(cg, bytes);
    init = LLVMConstStringInContext2(cg->ctx, bytes, cg->wlen, 1);
    free(bytes);
  }
  LLVMValueRef g = LLVMAddGlobal(cg->mod, ty, "");
  LLVMSetInitializer(g, init);
  LLVMSetGlobalConstant(g, 1);
  /* The zeros (or placeholder) of an object are not the contents: the
   * backend must not fold loads from them (SelectionDAG turns a small
   * memcpy from a constant with a definitive initializer into stores of
   * its bytes: a returned constant came out as zeros). */
  if (kind == EMIT_OBJ) LLVMSetExternallyInitialized(g, 1);
  /* Internal, not private: the symbol stays in the object's symbol table
   * for cg_weights_patch to find. */
  LLVMSetLinkage(g, LLVMInternalLinkage);
  /* The ELF placeholder's section gets the blob's alignment once it is
   * the blob (blob_place_elf): LLVM would pad the object to align the
   * placeholder's offset (2 MiB of zeros for --weights-align=2097152). */
  LLVMSetAlignment(g, cg->welf ? 64 : (unsigned)blob_align(cg));
  if (cg->welf) LLVMSetSection(g, BLOB_SECTION);
  else if (cg->o->weights == WEIGHTS_SECTION) LLVMSetSection(g, cg->o->weights_section);
  LLVMReplaceAllUsesWith(decl, g);
  LLVMDeleteGlobal(decl);
  LLVMSetValueName2(g, CG_WEIGHTS_BLOB, strlen(CG_WEIGHTS_BLOB));
  cg->wbase = g;
  cg->weights_ms += cg_cpu_ms() - t;
  if (cg->welf && file) blob_file_start(cg, file);
}

/* ------------------------------------------------------------------------ */
/* The blob's section after the header of an ELF object                      */

/* The ELF layout the object has: 32- or 64-bit field offsets and sizes
 * (the ELF specification's Elf32/Elf64 header, section header and symbol). */
typedef struct Elf {
  char *obj;
  size_t len;
  int w;                             /* 4 or 8: the size of an address */
  uint64_t ehsize, shoff, shentsize, shnum;
} Elf;

/* Field k of section header i: 0 name, 1 type, 2 offset, 3 size, 4 link,
 * 5 entsize, 6 addralign; its place in *at, its width returned. */
static int sh_field(const Elf *e, uint64_t i, int k, char **at) {
  static const int off32[] = {0, 4, 16, 20, 24, 36, 32}, off64[] = {0, 4, 24, 32, 40, 56, 48};
  static const int wide[] = {0, 0, 1, 1, 0, 1, 1}; /* an address's width in Elf64 */
  *at = e->obj + e->shoff + i * e->shentsize + (e->w == 8 ? off64[k] : off32[k]);
  return wide[k] ? e->w : 4;
}

static uint64_t sh_get(const Elf *e, uint64_t i, int k) {
  char *at;
  int n = sh_field(e, i, k, &at);
  return get_le(at, n);
}

static void sh_put(const Elf *e, uint64_t i, int k, uint64_t v) {
  char *at;
  int n = sh_field(e, i, k, &at);
  put_le(at, n, v);
}

/* The symbol table entry of the blob (NULL if none) and its section. */
static char *blob_symbol(const Elf *e, uint64_t *shndx) {
  for (uint64_t i = 0; i < e->shnum; i++) {
    if (sh_get(e, i, 1) != 2 /* SHT_SYMTAB */) continue;
    uint64_t str = sh_get(e, i, 4), ent = sh_get(e, i, 5);
    const char *names = e->obj + sh_get(e, str, 2);
    for (uint64_t o = 0; ent && o + ent <= sh_get(e, i, 3); o += ent) {
      char *sym = e->obj + sh_get(e, i, 2) + o;
      if (strcmp(names + get_le(sym, 4), CG_WEIGHTS_BLOB)) continue;
      *shndx = get_le(sym + (e->w == 8 ? 6 : 14), 2);
      return sym;
    }
  }
  return NULL;
}

/* Makes the blob's section (the placeholder alone) the blob's bytes at
 * BLOB_AT, after the ELF header of the object (obj, len), and moves the
 * rest of the object (from the header's end, e->ehsize) by the returned
 * shift, a multiple of every section's alignment: the section headers'
 * offsets, the blob's size, alignment (--weights-align; the placeholder's
 * was 64, which the shift counts) and the symbol's size change in place;
 * relocations against the section keep their offsets. Returns 0 if the
 * object is not what cg_weights_define made. */
static size_t blob_place_elf(CG *cg, char *obj, size_t len, Elf *e) {
  *e = (Elf){obj, len, 0, 0, 0, 0, 0};
  /* ELFCLASS32 or ELFCLASS64, ELFDATA2LSB */
  if (e->len < 64 || memcmp(e->obj, "\177ELF", 4) || (e->obj[4] != 1 && e->obj[4] != 2) ||
      e->obj[5] != 1)
    return 0;
  e->w = e->obj[4] == 2 ? 8 : 4;
  e->ehsize = get_le(e->obj + (e->w == 8 ? 0x34 : 0x28), 2);
  e->shoff = get_le(e->obj + (e->w == 8 ? 0x28 : 0x20), e->w);
  e->shentsize = get_le(e->obj + (e->w == 8 ? 0x3A : 0x2E), 2);
  e->shnum = get_le(e->obj + (e->w == 8 ? 0x3C : 0x30), 2);
  if (e->ehsize > BLOB_AT || e->shoff < e->ehsize || e->shoff + e->shnum * e->shentsize > e->len)
    return 0;
  uint64_t shndx = 0, align = 64;
  char *sym = blob_symbol(e, &shndx);
  if (!sym || shndx >= e->shnum || sh_get(e, shndx, 3) != BLOB_PLACEHOLDER) return 0;
  for (uint64_t i = 0; i < e->shnum; i++)
    if (sh_get(e, i, 6) > align) align = sh_get(e, i, 6);
  size_t shift = (BLOB_AT + cg->wlen - e->ehsize + align - 1) / align * align;
  if (e->w == 4 && len + shift > UINT32_MAX) return 0;
  for (uint64_t i = 0; i < e->shnum; i++)
    if (i != shndx && sh_get(e, i, 2) >= e->ehsize) sh_put(e, i, 2, sh_get(e, i, 2) + shift);
  sh_put(e, shndx, 2, BLOB_AT);
  sh_put(e, shndx, 3, cg->wlen);
  sh_put(e, shndx, 6, blob_align(cg));
  put_le(sym + (e->w == 8 ? 16 : 8), e->w, cg->wlen);
  put_le(e->obj + (e->w == 8 ? 0x28 : 0x20), e->w, e->shoff + shift);
  return shift;
}

/* Writes n bytes at offset off of fd; false on an error. */
static bool pwrite_all(int fd, const char *p, size_t n, off_t off) {
  while (n) {
    ssize_t k = pwrite(fd, p, n, off);
    if (k == 0) errno = EIO; /* no progress, no errno */
    if (k <= 0) return false;
    p += k;
    n -= (size_t)k;
    off += k;
  }
  return true;
}

/* The blob written into the object's file at BLOB_AT while LLVM
 * optimizes and emits the object: usually by cg_weights_ahead's thread,
 * making each packed constant as it writes it; where that thread does
 * not run (nothing to make ahead), by blob_file_run's, which
 * cg_weights_define starts.
 * It was a tenth of ResNet-50's compile after LLVM, on one core (writing
 * 94 MB into the page cache), and the second core is idle while LLVM
 * emits. Straight from the constants: no copy of the blob in memory, and
 * its gaps and zero splats holes of the file. Reads the IR's constants
 * and the bytes made ahead only, never an LLVM object.
 * The file is the caller's OutFile's new one beside the object it
 * replaces (outfile.c: the link's target where the path is a symbolic
 * link), which the tool renames over it with the compile's other outputs
 * once all are whole, so a compile that fails leaves the older object
 * whole (never a file without its ELF header); one that is killed may
 * leave the new file (MODEL.o.XXXXXX) behind. */
typedef struct CgBlobFile {
  pthread_t thread;
  bool running;      /* not joined yet */
  const CG *cg;
  OutFile *out;      /* the caller's (codegen_emit_weights) */
  int fd;            /* -1 where it could not be created, or once closed */
  bool created;
  bool whole;        /* the whole object written: the caller commits it */
  int err;           /* errno of the failed open or write, else 0 */
  double ms;         /* the thread's CPU time */
} CgBlobFile;

/* Starts writing the blob to the disk, here on the blob's thread, beside
 * LLVM: renaming a new file over an existing one makes ext4 (its
 * auto_da_alloc) allocate and start writing the new file's delayed
 * blocks in rename(2) itself, on the one thread left at the end.
 * ResNet-50 b1 replacing its object (110 MB), Zen 3, ext4: rename 90-100
 * ms -> 30 ms (the rest: the older file's pages freed), this call 60 ms.
 * Also dropping the older file's cached pages here (posix_fadvise
 * DONTNEED) was tried: rename 38-58 -> 23-28 ms (strace -T; the rest is
 * ext4 freeing its blocks: a 105 MB file alone, 32 -> 22 ms), for 12-34
 * ms more on this thread; no wall difference at 1 or 2 threads (8 paired
 * rounds, load 4-6): not kept.
 * Advisory: a failure changes nothing the object holds. */
static void start_writeback(int fd) {
#ifdef __linux__
  sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE);
#else
  (void)fd;
#endif
}

/* Creates the file and writes the blob into it; made[i]: weight i's
 * bytes made ahead, or NULL (made NULL: none). The others are made one
 * at a time into one buffer, reused: cg_weights_ahead's thread makes
 * the file's weights so rather than holding them all until written.
 * Memory the process has not touched yet costs this VM far more than a
 * copy (a first memset of 110 MB 79 ms of CPU, a second 7; a pwrite of
 * them into a new file 295 ms, then 37-46 once the pages freed before
 * are reused), and each weight made ahead was such memory, then copied
 * into the page cache's, as new. ResNet-50 b8, Zen 3, load 7-8: this
 * thread's pwrites ~317 ms of kernel CPU (perf), 283 of them the copy.
 * Made as written (b1/b8, 1 and 2 threads, over an object and into a new
 * name, 5-7 alternating compiles, load 6-10): system CPU 0.23-0.37 ->
 * 0.15-0.27 s (medians), 21k fewer page faults, b8 peak RSS 319 -> 198
 * MB; b8 at 2 threads over its object u+s 3.02 -> 2.70 s, wall 6.15 ->
 * 5.58 s (least of 7; the load makes a compile 5x its quiet time). */
static void blob_file_write(CgBlobFile *f, char *const *made) {
  const CG *cg = f->cg;
  f->fd = out_file_create(f->out);
  bool ok = f->created = f->fd >= 0;
  char *tmp = NULL;
  size_t cap = 0;
  for (int i = 0; ok && i < cg->nwnames; i++) {
    Value *v = cg->wnames[i].v;
    size_t n = v ? cg_const_bytes(v) : 0;
    if (!n || cg_const_zero(v)) continue;
    const char *bytes = cg_const_literal(v);
    if (!bytes && made) bytes = made[i];
    if (!bytes && n > cap) {
      free(tmp);
      if (!(tmp = malloc(cap = n))) abort();
    }
    if (!bytes) {
      memset(tmp, 0, n); /* cg_const_write wants zeros */
      cg_const_write(v, tmp);
    }
    ok = pwrite_all(f->fd, bytes ? bytes : tmp, n, (off_t)(BLOB_AT + cg->wnames[i].off));
  }
  free(tmp);
  if (!ok) f->err = errno;
  else start_writeback(f->fd);
}

static void *blob_file_run(void *arg) {
  CgBlobFile *f = arg;
  double t = cg_cpu_ms();
  blob_file_write(f, f->cg->ahead ? f->cg->ahead->bytes : NULL);
  f->ms = cg_cpu_ms() - t;
  return NULL;
}

/* The object's file, not created yet. */
static CgBlobFile *blob_file_new(CG *cg, OutFile *file) {
  CgBlobFile *f = calloc(1, sizeof *f);
  if (!f) abort();
  *f = (CgBlobFile){.cg = cg, .out = file, .fd = -1};
  return f;
}

/* Removes the new file unless the whole object is in it. */
static void blob_file_free(CgBlobFile *f) {
  if (!f->whole) out_file_discard(f->out);
  free(f);
}

static void blob_file_start(CG *cg, OutFile *file) {
  if (cg->wfile) return; /* cg_weights_ahead's thread writes it */
  ahead_join(cg);
  CgBlobFile *f = blob_file_new(cg, file);
  cg->wfile = f;
  f->running = !pthread_create(&f->thread, NULL, blob_file_run, f);
  if (!f->running) blob_file_run(f); /* no thread: the same file */
}

static void blob_file_join(CG *cg) {
  CgBlobFile *f = cg->wfile;
  if (!f || !f->running) return;
  pthread_join(f->thread, NULL);
  f->running = false;
  cg->weights_ahead_ms += f->ms;
}

/* Writes the object (e, moved by shift past the blob) around the blob
 * the thread wrote. Non-zero after diagnosing. */
static int blob_file_finish(CG *cg, const Elf *e, size_t shift) {
  CgBlobFile *f = cg->wfile;
  blob_file_join(cg);
  if (!f->created) {
    out_file_create_error(f->out, f->err);
    return 1;
  }
  bool ok = !f->err && pwrite_all(f->fd, e->obj, e->ehsize, 0) &&
            pwrite_all(f->fd, e->obj + e->ehsize, e->len - e->ehsize, (off_t)(e->ehsize + shift)) &&
            ftruncate(f->fd, (off_t)(e->len + shift)) == 0;
  int err = f->err ? f->err : errno; /* the failure's, before close */
  if (close(f->fd) && ok) ok = false, err = errno;
  f->fd = -1;
  if (!ok) {
    diag_error((Loc){0}, "cannot write %s: %s", f->out->path, strerror(err));
    return 1; /* cg_weights_end removes it: no truncated object left behind */
  }
  f->whole = true;
  return 0;
}

/* The blob placed in the ELF object *obj: in memory (*obj replaced), or
 * with the blob's file the whole object written there (*obj freed and
 * NULL, *len the file's size). False if the object is not what
 * cg_weights_define made; *failed after diagnosing an error writing the
 * file. */
static bool blob_place_in(CG *cg, char **obj, size_t *len, int *failed) {
  Elf e;
  size_t shift = blob_place_elf(cg, *obj, *len, &e), total = *len + shift;
  if (!shift) return false;
  char *p = NULL;
  if (cg->wfile) {
    *failed = blob_file_finish(cg, &e, shift);
  } else {
    p = calloc(total, 1);
    if (!p) abort();
    memcpy(p, *obj, e.ehsize);
    blob_write(cg, p + BLOB_AT);
    memcpy(p + e.ehsize + shift, *obj + e.ehsize, *len - e.ehsize);
  }
  free(*obj);
  *obj = p;
  *len = total;
  return true;
}

/* Waits for the blob's thread; removes a file it created that was not
 * wholly written (an error after it started, in LLVM or in writing). */
static void blob_file_end(CG *cg) {
  CgBlobFile *f = cg->wfile;
  if (!f) return;
  blob_file_join(cg);
  if (f->fd >= 0) close(f->fd);
  blob_file_free(f);
  cg->wfile = NULL;
}


/* Where the blob's bytes are in the object obj: the contents of the
 * section holding the symbol, at the symbol's offset in it (addresses
 * are section-relative in ELF and COFF objects, absolute in Mach-O ones:
 * the difference is the offset either way); NULL if they are not there
 * (no such symbol, or a section without contents). */
static char *blob_in_object(CG *cg, LLVMBinaryRef bin, char *obj, size_t len) {
  char *at = NULL;
  LLVMSymbolIteratorRef sym = LLVMObjectFileCopySymbolIterator(bin);
  LLVMSectionIteratorRef sec = LLVMObjectFileCopySectionIterator(bin);
  for (; !LLVMObjectFileIsSymbolIteratorAtEnd(bin, sym); LLVMMoveToNextSymbol(sym)) {
    const char *name = LLVMGetSymbolName(sym);
    /* Mach-O puts '_' before C names. */
    if (strcmp(name, CG_WEIGHTS_BLOB) && (name[0] != '_' || strcmp(name + 1, CG_WEIGHTS_BLOB))) continue;
    LLVMMoveToContainingSection(sec, sym);
    if (LLVMObjectFileIsSectionIteratorAtEnd(bin, sec)) break;
    const char *c = LLVMGetSectionContents(sec);
    uint64_t off = LLVMGetSymbolAddress(sym) - LLVMGetSectionAddress(sec);
    if (c >= obj && off + cg->wlen <= LLVMGetSectionSize(sec) &&
        (size_t)(c - obj) + off + cg->wlen <= len)
      at = obj + (c - obj) + off;
    break;
  }
  LLVMDisposeSectionIterator(sec);
  LLVMDisposeSymbolIterator(sym);
  /* Only LLVM's zeros are overwritten (a section without contents reads
   * as something else). */
  return at && !at[0] && !memcmp(at, at + 1, cg->wlen - 1) ? at : NULL;
}

int cg_weights_patch(CG *cg, char **obj, size_t *len) {
  if (!cg->wbase || cg->o->weights == WEIGHTS_FILE) return 0;
  ahead_join(cg);
  double t = cg_cpu_ms();
  char *err = NULL, *at = NULL;
  bool done = false;
  int failed = 0;
  if (cg->welf) {
    done = blob_place_in(cg, obj, len, &failed);
  } else {
    LLVMMemoryBufferRef mb = LLVMCreateMemoryBufferWithMemoryRange(*obj, *len, "object", 0);
    LLVMBinaryRef bin = LLVMCreateBinary(mb, cg->ctx, &err);
    at = bin ? blob_in_object(cg, bin, *obj, *len) : NULL;
    if (bin) LLVMDisposeBinary(bin);
    LLVMDisposeMemoryBuffer(mb);
    if (at) blob_write(cg, at);
    done = at != NULL;
  }
  if (failed) return 1;
  if (!done) {
    diag_error((Loc){0}, "cannot write the weights into the object: %s%s",
               err ? err : "no symbol " CG_WEIGHTS_BLOB " with contents in it",
               cg->o->weights == WEIGHTS_SECTION ? " (does the section hold data?)" : "");
    LLVMDisposeMessage(err);
    return 1;
  }
  cg->weights_ms += cg_cpu_ms() - t;
  return 0;
}
