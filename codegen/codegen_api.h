/*
 * codegen_api.h: the public interface of codegen/, used by the tool
 * (tools/). Input is a module after driver_compile (the buffers pass has
 * run, so Func.temp_bytes and every Value's Storage are known).
 */
#ifndef SHLOC_CODEGEN_API_H
#define SHLOC_CODEGEN_API_H

#include <sys/types.h>

#include "../ir/ir.h"

/* EMIT_VERIFY builds and verifies the LLVM module, then stops: no LLVM
 * optimization, nothing written (the pipeline fuzzer, tests/fuzz/). */
typedef enum EmitKind {
  EMIT_OBJ, EMIT_ASM, EMIT_LLVM, EMIT_HEADER, EMIT_MLIR, EMIT_VERIFY
} EmitKind;

/* codegen/outfile.c: a file the compiler writes, replaced whole or not
 * at all: written as TARGET.XXXXXX beside the file it replaces (through
 * symbolic links, the file they lead to, or for a dangling link the
 * missing file at its end), renamed over it when complete.
 * out_file_init (on the main thread: it reads the umask; 0, or -1 after
 * diagnosing a link it refuses to follow: one another user planted in
 * a sticky, world-writable directory, the kernel's
 * fs.protected_symlinks rule, whatever the link leads to; or a
 * directory), then out_file_create (any thread; a
 * descriptor, or -1 with errno), then out_file_commit once every byte
 * is written (0, or -1 with errno); out_file_discard removes a new file
 * not committed (out_file_create may then make another), out_file_free
 * too and frees f. After that rule, what stat(path) finds decides: a
 * device, FIFO or pipe (/dev/stdout into `| cmd`) is written in place
 * (tmp NULL), and
 * so is a path through a link of /proc (/dev/stdout, /dev/fd/N: an
 * open file, not a name to rename over). A file replaced keeps its
 * permission bits (not its owner, ACLs or hard links: as GNU ld's
 * outputs); a new one gets 0666 less the umask. out_file_create_error
 * diagnoses a failed out_file_create (err: its errno), naming the file
 * actually created. out_file_same: whether a and b are written to the
 * same name (the same last component in the same directory, however
 * spelt or reached through links). */
typedef struct OutFile {
  const char *path;  /* as given, for messages */
  char *target;      /* the file there or path leads to through links, or NULL: path */
  char *tmp;         /* the new file's name, or NULL: written in place */
  mode_t mode;       /* the new file's: the old one's, else 0666 less the umask */
  bool created;      /* tmp exists and is ours to remove */
} OutFile;
int out_file_init(OutFile *f, const char *path);
int out_file_create(OutFile *f);
void out_file_create_error(const OutFile *f, int err);
int out_file_commit(OutFile *f);
void out_file_discard(OutFile *f);
void out_file_free(OutFile *f);
bool out_file_same(const OutFile *a, const OutFile *b);

/* codegen/codegen.c: builds the LLVM module for m and writes the requested
 * artifact into a malloc'ed buffer (*out, *out_len; the caller frees it).
 * Returns 0, or non-zero after diagnosing. */
int codegen_emit(Module *m, const CompileOptions *o, EmitKind kind, char **out,
                 size_t *out_len);
/* codegen_emit, and with o->weights == WEIGHTS_FILE the weights file's
 * bytes in *weights (malloc'ed, the caller frees it; layout in
 * codegen/weights.c), NULL otherwise. With a file (not NULL:
 * out_file_init'ed, not created), an object whose weights are a section
 * after its header (ELF) is written into file's new file by codegen
 * itself, its blob straight from the constants (no copy in memory, on a
 * thread of its own while LLVM optimizes and emits the object): then
 * *out is NULL, *out_len the file's size and the new file complete but
 * not committed (the caller renames it with its other outputs,
 * out_file_commit, or removes it, out_file_free). Otherwise, and after
 * an error, no new file is left and the caller writes *out. */
int codegen_emit_weights(Module *m, const CompileOptions *o, EmitKind kind, OutFile *file,
                         char **out, size_t *out_len, char **weights, size_t *weights_len);

/* codegen/codegen.c: the calling thread's CPU time in ms (--time-passes:
 * on a shared machine wall time measures the other processes; the
 * weights made on a second thread while LLVM runs are counted apart). */
double cg_cpu_ms(void);
/* The C name of the loader of a weights file: "<prefix>_load_weights". */
char *cg_weights_loader_name(Arena *a, const CompileOptions *o);

/* codegen/gemm.c: sets o's fields that follow the target's GEMM tile
 * (gemm.c's tile table), for the buffers pass to size kernel scratch and
 * the layout pass to pack constants: gemm_panel_bytes and conv_panel_bytes
 * (the bytes of a row of the packed B panel, NR elements, of a
 * dot_general's tile and of a convolution's), gemm_kc_tall (the tile's
 * deepest K slice of a tall dot, ir_dot_kc_deep) and
 * gemm_skinny_serial_packed.
 * False when there is no such target (diagnosed). */
bool codegen_gemm_tile_options(CompileOptions *o);
/* codegen/gemm.c: whether the kernel of op (a dot_general or convolution
 * after the buffers pass) packs its B operand (operand 1) into panels on
 * a target whose tile has o->gemm_panel_bytes per row of B (a
 * convolution's: o->conv_panel_bytes), compiled for o->threads (a skinny
 * dot's also o->gemm_skinny_serial_packed), and if so how (*out): the
 * layout pass stores constant B operands that way. */
bool codegen_gemm_b_packing(const Op *op, const CompileOptions *o, GemmPacking *out);

/* codegen/header.c: writes the C header that declares the entry points of
 * the object (every public function, or only o->entry): prototypes, size
 * macros and a descriptor table. Returns 0, or non-zero after diagnosing
 * an entry signature it cannot express (non-tensor or dynamic types). */
int header_write(FILE *f, Module *m, const CompileOptions *o);

/* codegen/header.c: the names the header and the object must agree on.
 * cg_c_ident: s with every character that cannot appear in a C identifier
 * replaced by '_', and '_' put before a leading digit.
 * cg_entry_name: the C name of entry point f, "<prefix>_<f>" (just "<f>"
 * when the prefix is NULL or empty), made a C identifier. The object
 * defines this symbol and, with o->packed_entry, "<entry name>__packed"
 * (`int32_t (void **args)`, args = inputs, results, temp). */
char *cg_c_ident(Arena *a, const char *s);
char *cg_entry_name(Arena *a, const CompileOptions *o, const Func *f);

/* codegen/dyndims.c, for an entry with symbolic sizes (Func.sym): its temp
 * arena (the header's P_F_TEMP_BYTES_MAX needs it without codegen): the
 * message area of its shape assertions at offset 0, then every op result
 * but constants and values fused into their user (at opt_level > 0),
 * 64-byte aligned; sets fused[value id] and offset[value id] when they are
 * not NULL, and epi[value id] (when not NULL) to the epilogue root of a
 * dot_general's or convolution's result that has one (no buffer then);
 * returns the end. The entry puts the GEMM kernels' scratch
 * after it, at most cg_symbolic_scratch_bound(f, threads) bytes.
 * cg_symbolic_message_bytes: the bytes of that area (0 when f has no shape
 * assertion): the longest error_message with its fields formatted, + 1. */
const DimExpr *cg_symbolic_plan(Module *m, Func *f, int opt_level, bool *fused,
                                const DimExpr **offset, Op **epi);
int64_t cg_symbolic_scratch_bound(const Func *f, int threads);
int64_t cg_symbolic_message_bytes(const Func *f);

#endif
