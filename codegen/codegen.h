/*
 * codegen.h: internal interface of the LLVM emitter (the files of codegen/).
 *
 * Input: a module after the buffers pass. In each function that is an entry,
 * every Value has a Storage (ir.h): ST_NONE values are computed inside their
 * consumers ("fused"), the others live in a buffer. Every op of a block that
 * is not fused and not a constant is one of:
 *  - a kernel root: one LLVM function `void kN(ptr frame, i64 begin, i64 end)`
 *    that loops over the root's result index space (the outermost dimension
 *    restricted to [begin, end), so the entry can split it across threads
 *    with shlort_parallel_for) and stores the value computed by the elemental
 *    generator of the root, which pulls in its fused producers recursively;
 *    or the root's own kernel (GEMM, sort, scatter, FFT ...);
 *  - control flow (while/if/case), a check op, a return: emitted directly in
 *    the entry function (codegen/entry.c).
 *
 * The frame is an array of pointers built by the entry function:
 *   frame[0 .. nargs-1]            argument buffers
 *   frame[nargs .. nargs+nres-1]   result buffers
 *   frame[nargs+nres]              the temp arena
 * so a kernel finds every buffer from the frame and the value's Storage.
 *
 * Elemental generators: for an op and an index (one i64 LLVM value per
 * dimension of the result), emit the scalar value(s) of its result(s) at
 * that index into the current insertion block. Scalars use the compute type
 * of cg_scalar_type (i1 for booleans, iN (i2 and i4 included), half,
 * bfloat, float (also for the FP8 and MX types, see minifloat.c), double,
 * <2 x float|double> for complex).
 * Generators may emit loops (reduce, dot_general, convolution,
 * reduce_window): they leave the builder at the end of the code they
 * emitted.
 *
 * Layers, each using only those above it (but for one cycle, below):
 *   core.c        element types, diagnostics, the LLVM function being
 *                 emitted (entry allocas), loops, if/else, intrinsics;
 *                 beside it minifloat.c (the encodings of the float types
 *                 narrower than 16 bits) and target.c (the target machine,
 *                 function attributes, the pass pipeline, the output)
 *   memory.c      constants, buffers, indexing, loads and stores
 *   elemental.c   cg_value_at and the op table (CgOpImpl): generator,
 *                 kernel and thread split of each op
 *   generators    the semantics of each op: elementwise.c, complex.c,
 *                 vmath.c (scalars); movement.c, gather.c,
 *                 reduce.c, window.c, dot.c, conv.c (elemental); gemm.c,
 *                 scatter.c, sort.c, linalg.c, fft.c, rng.c (kernels)
 *   kernel.c      kernel functions of roots and their calls
 *   entry.c       entry functions: kernels in order, control flow, checks;
 *                 beside it collectives.c (the calls of the grid ABI)
 *   codegen.c     the driver (codegen_emit); header.c and report.c (the
 *                 memory plan) beside it
 * One cycle remains, by design: cg_value_at runs the generator of a fused
 * value, and generators read their operands with cg_value_at (value ->
 * generator -> value); it ends at values with storage or bound scalars.
 */
#ifndef SHLOC_CODEGEN_H
#define SHLOC_CODEGEN_H

#include <llvm-c/Core.h>
#include <llvm-c/Object.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>

#include "../ir/ir.h"
#include "codegen_api.h"

/* Float operations a target may lack instructions for (cg_has_insn). */
typedef enum CgInsn {
  CG_INSN_ARITH,  /* fadd: an FPU for the type (else soft-float calls) */
  CG_INSN_SQRT,
  CG_INSN_FMA,
  CG_INSN_FLOOR,
  CG_INSN_CEIL,
  CG_INSN_ROUND,
  CG_INSN_ROUNDEVEN,
  CG_INSN_F16,    /* f32 <-> f16 conversions */
  CG_INSN_FMA3,   /* llvm.fma as x86 FMA3 (vfmadd231 and kin, not FMA4's vfmadd): gemm.c's inline asm */
  CG_INSN_COUNT
} CgInsn;

/* A constant in the weights blob or file (weights.c): its global's name,
 * offset in the blob and the constant it writes there (NULL when an
 * earlier one has the same bytes). */
typedef struct CgWeight {
  const char *name;
  size_t off;
  Value *v;
} CgWeight;

/* A function's stack frame in bytes as the backend laid it out
 * (report.c). */
typedef struct CgFrame {
  char *name;
  uint64_t bytes;
} CgFrame;

typedef struct CG {
  Module *m;
  const CompileOptions *o;
  Func *fn;                 /* the function being compiled */
  LLVMContextRef ctx;
  LLVMModuleRef mod;
  /* Never two emitting calls as arguments of one call or elements of one
   * initializer list: C leaves their order to the compiler that built
   * shloc (tools/eval_order.py checks). */
  LLVMBuilderRef b;
  LLVMTargetMachineRef tm;
  LLVMTargetDataRef td;
  LLVMTypeRef t_void, t_i1, t_i8, t_i16, t_i32, t_i64, t_ptr;
  LLVMTypeRef t_f16, t_bf16, t_f32, t_f64;
  /* The LLVM function being emitted (a kernel or the entry) and its frame
   * pointer argument. */
  LLVMValueRef llfn;
  LLVMValueRef frame;
  /* The entry's shlort_proc parameter, NULL in an entry without one. */
  LLVMValueRef proc;
  /* Indexed by Value.id of fn; reset for each LLVM function:
   * buf: buffer pointer loaded from the frame (NULL until first use);
   * scalar: the SSA scalar bound to a value inside a scalar region (reduce
   * body block arguments and results), or NULL. */
  LLVMValueRef *buf;
  LLVMValueRef *scalar;
  int nkernels;
  int errors;
  /* Distinct buffers the current LLVM function uses, one per storage
   * location (memory.c), from which kernel.c builds alias scopes. */
  struct CgBase *bases;
  int nbases;
  int vector_bytes;         /* cg_vector_bytes' answer, 0 until asked */
  /* While set, cg_loop_end marks the loops it closes as written in vectors
   * (core.c cg_loop_vector; conv.c cg_kernel_conv sets it, microkernels
   * built meanwhile included; a scalar loop inside saves, clears and
   * restores it: gemm_epilogue, conv_fold_edges). */
  bool vector_loops;
  /* cg_has_insn's answers for f32 and f64: 0 not asked yet, 1 yes, 2 no. */
  signed char insn[CG_INSN_COUNT][2];
  /* The weights (weights.c): the blob's (or file's) size, its constants,
   * the global of the blob (with a file: holding the loaded pointer),
   * whether the object gets the blob in a section after its header (ELF)
   * rather than written over zeros, and the CPU time spent writing their
   * bytes (--time-passes), on the main thread and on the others. */
  size_t wlen;
  CgWeight *wnames;
  int nwnames;
  LLVMValueRef wbase;
  bool welf;
  double weights_ms, weights_ahead_ms;
  double opt_second_ms; /* optsplit.c's second thread (CPU time) */
  double emit_second_ms;
  /* Set by codegen.c where the object may be emitted in two halves
   * (optsplit.c); then, while the second half's object is being emitted
   * on its thread, what cg_split_join waits for. */
  bool split_objects;
  struct Second *split;
  /* The bytes of packed constants and splats, made on a second thread
   * while LLVM optimizes and writes the object (weights.c
   * cg_weights_ahead); NULL when none runs. */
  struct CgAhead *ahead;
  /* The object's file, into which the blob is written while LLVM
   * optimizes and emits the object (weights.c: by cg_weights_ahead's
   * thread, else blob_file_run's); NULL when none is. */
  struct CgBlobFile *wfile;
  /* While a kernel is emitted (kernel.c): the storage locations of the
   * buffers it (and functions it calls, a sort's merge) uses, in order of
   * first use. Its frame holds their pointers, which the caller fills, so
   * the kernel's code does not depend on where its buffers are and
   * identical kernels (a transformer's layers) are emitted once. NULL in
   * the entry, whose frame is its parameters and arena (entry.c). */
  struct CgBase *kslots;
  int nkslots;
  /* While a row kernel is emitted (kernel.c): by Value.id, the row
   * buffer a value shared by its loops over the row is kept in (ptr NULL:
   * none); NULL in other kernels. */
  struct CgRowCache *rowcache;
  /* The kernels emitted so far, by their code (kernel.c): raw addresses
   * of globals, functions, constants and metadata, none of which a
   * recorded kernel uses may be freed while these live (a freed address
   * reused by malloc would make two different kernels match). */
  struct CgKernelKey *kkeys;
  int nkkeys, kkeys_cap;
  /* --print-memory-plan (report.c): the frames the backend reported. */
  CgFrame *frames;
  int nframes;
  /* In the entry of a function with symbolic sizes (dyndims.c): the i64
   * value of each DimExpr of fn->sym, by id (cg_dim); NULL elsewhere. */
  LLVMValueRef *symx;
} CG;

/* A distinct buffer of the LLVM function being emitted: memory.c records
 * one per storage location it loads from the frame, kernel.c gives each
 * an alias scope. */
typedef struct CgBase {
  Storage st;
  int64_t off;       /* ST_CONST: the constant's Value.id */
  LLVMValueRef ptr;
  Value *cv;         /* a kernel slot of a constant (ST_CONST): the constant */
} CgBase;

/* A value of a row kernel kept in a row buffer (kernel.c): the first loop
 * over the row computes and stores it (written), the later ones, once
 * the kernel has marked it filled, load it (cg_value_at). */
typedef struct CgRowCache {
  LLVMValueRef ptr;
  bool written, filled;
} CgRowCache;

/* An emitted kernel function and its code (kernel.c kernel_code's words). */
typedef struct CgKernelKey {
  uint64_t hash;
  uint64_t *code;
  size_t len;
  LLVMValueRef fn;
} CgKernelKey;

/* codegen/core.c: element types, diagnostics, the LLVM function being
 * emitted, counted loops, intrinsics, the vector width. */
LLVMTypeRef cg_scalar_type(CG *cg, ElemType e);   /* compute type */
LLVMTypeRef cg_storage_type(CG *cg, ElemType e);  /* i1 stored as i8 */
/* i2, i4, ui2, ui4: computed in their own width (LLVM's arithmetic wraps
 * in the N-bit range), stored in a byte. */
bool cg_is_sub_byte(ElemType e);
LLVMValueRef cg_i64(CG *cg, int64_t v);
/* min(a, b) of i64 values (signed). */
LLVMValueRef cg_min_i64(CG *cg, LLVMValueRef a, LLVMValueRef b);
/* v with the nuw and nsw flags when it is an instruction (index
 * arithmetic that cannot wrap); returns v. */
LLVMValueRef cg_nowrap(LLVMValueRef v);
/* Reports an unsupported op/type at the op's location; counts an error. */
void cg_unsupported(CG *cg, Op *op, const char *what);
/* Reports unsupported element types or dynamic shapes among op's operands
 * and results; returns false if it did. */
bool cg_check_types(CG *cg, Op *op);
/* The widest vector register of the target in bytes: 64 with AVX-512, 32
 * with AVX, else 16 (asked once per compilation). */
int cg_vector_bytes(CG *cg);
int cg_tm_vector_bytes(LLVMTargetMachineRef tm, const CompileOptions *o);
/* Starts the body of LLVM function fn: an "entry" block (allocas, buffer
 * pointers) and a body block where the builder is left; fresh buf, scalar
 * and bases tables. cg_fn_end closes the entry block. */
void cg_fn_begin(CG *cg, LLVMValueRef fn);
void cg_fn_end(CG *cg);
/* The state of the LLVM function being emitted, saved while another one
 * (a kernel, a sort's merge function) is emitted in the middle of it. */
typedef struct CgFnState {
  LLVMValueRef llfn, frame;
  LLVMValueRef *buf, *scalar;
  CgBase *bases;
  int nbases;
  LLVMBasicBlockRef block;
} CgFnState;
CgFnState cg_save_fn(CG *cg);
void cg_restore_fn(CG *cg, const CgFnState *s);
/* An alloca at the top of the entry block of cg->llfn (accumulators of
 * generators with loops; SROA turns them into phis). */
LLVMValueRef cg_entry_alloca(CG *cg, LLVMTypeRef t, const char *name);
/* Counted loops: `for (iv = lo; iv < hi; iv += step)` (step 1 for
 * cg_loop_begin), lo >= 0. They position the builder in the body and
 * return the induction variable; cg_loop_end closes the loop and positions
 * the builder after it. */
typedef struct CgLoop {
  LLVMBasicBlockRef header, body, exit;
  LLVMValueRef iv;
  int64_t step;
} CgLoop;
LLVMValueRef cg_loop_begin(CG *cg, CgLoop *l, LLVMValueRef lo, LLVMValueRef hi);
LLVMValueRef cg_loop_step(CG *cg, CgLoop *l, LLVMValueRef lo, LLVMValueRef hi,
                          int64_t step);
void cg_loop_end(CG *cg, CgLoop *l);
/* Loop IDs (LLVM's LangRef, "llvm.loop") on the branch br that ends a
 * loop's latch, a self-referencing node with the options at opts:
 * cg_loop_opt(key, -1) is an option without value, else an i1 of val. */
LLVMMetadataRef cg_loop_opt(CG *cg, const char *key, int val);
void cg_loop_id(CG *cg, LLVMValueRef br, LLVMMetadataRef *opts, int n);
/* `if (cond) { ... } else { ... }`, the else optional: cg_if_begin leaves
 * the builder in the then block; cg_if_else closes it and opens the else
 * block; cg_if_end closes the open block and leaves the builder at the
 * join. There, for phis, then_end and else_end are the blocks that branch
 * to the join (else_end is the block of the condition when there is no
 * else). */
typedef struct CgIf {
  LLVMValueRef br;
  LLVMBasicBlockRef join, then_end, else_end;
} CgIf;
void cg_if_begin(CG *cg, CgIf *s, LLVMValueRef cond);
void cg_if_else(CG *cg, CgIf *s);
void cg_if_end(CG *cg, CgIf *s);
/* A call of the LLVM intrinsic `name` overloaded on tys, built at b (the
 * declaration is added to the module of b's function). cg_intr1/cg_intr2:
 * an intrinsic overloaded on the type of its first argument, at cg->b. */
LLVMValueRef cg_intrinsic(LLVMBuilderRef b, const char *name, LLVMTypeRef *tys, int ntys,
                          LLVMValueRef *args, int nargs);
/* llvm.masked.load of a vector of type vt at ptr (alignment align bytes)
 * at b: zeros in the lanes where mask (a vector of i1) is false, which
 * read no memory. */
LLVMValueRef cg_masked_load(CG *cg, LLVMBuilderRef b, LLVMTypeRef vt, LLVMValueRef ptr,
                            unsigned align, LLVMValueRef mask);
/* llvm.masked.store of the vector v at ptr (alignment align bytes) at b:
 * the lanes where mask is false write no memory. */
void cg_masked_store(CG *cg, LLVMBuilderRef b, LLVMValueRef v, LLVMValueRef ptr, unsigned align,
                     LLVMValueRef mask);
LLVMValueRef cg_intr1(CG *cg, const char *name, LLVMValueRef x);
LLVMValueRef cg_intr2(CG *cg, const char *name, LLVMValueRef x, LLVMValueRef y);

/* codegen/memory.c: constants, buffers, indexing, loads and stores. */
/* A private constant global holding the elements of d (splats expanded). */
LLVMValueRef cg_dense_global(CG *cg, const DenseData *d, const char *name);
/* Element i of d as a compute-type scalar (floats from their bits). */
LLVMValueRef cg_dense_scalar(CG *cg, const DenseData *d, int64_t i);
/* The global holding the literal of v, the result of a constant op (for
 * weights, a pointer into the blob of weights.c). */
LLVMValueRef cg_const_global(CG *cg, Value *v);
/* The bytes of constant v as its kernels read them (row-major, or in GEMM
 * panels: Value.packed, passes/layout.c): their number, and writing them
 * to dst (zeroed). */
size_t cg_const_bytes(const Value *v);
void cg_const_write(Value *v, char *dst);
/* The bytes cg_const_write writes when they are the literal's own (not
 * packed, not a splat), else NULL; whether v is a splat of zeros (which
 * writes nothing: it leaves dst's zeros). */
const char *cg_const_literal(Value *v);
bool cg_const_zero(Value *v);
/* Pointer to the buffer of a materialized value (from the frame, a
 * constant global, or the arena plus its offset). */
LLVMValueRef cg_buffer(CG *cg, Value *v);
/* The alignment the generated code assumes of a buffer of e (the header's
 * contract): its storage bytes; a complex element is a (re, im) pair of
 * its part type, so only as aligned as one part. */
unsigned cg_elem_align(ElemType e);
/* The scratch the buffers pass planned for op's kernel (at least `bytes`,
 * 64-byte aligned), this call's slice: the kernel function's last
 * parameter is the chunk index of shlort_parallel_for (0 for a direct
 * call). Aborts if the plan has less: ir_kernel_scratch_bytes must bound
 * what the kernel uses. */
LLVMValueRef cg_scratch(CG *cg, const Op *op, int64_t bytes);
/* The first of the scratch's slices (one per thread, op->scratch_bytes
 * apart), for a kernel whose calls share them (checked as cg_scratch). */
LLVMValueRef cg_scratch_slices(CG *cg, const Op *op, int64_t bytes);
/* &ptr[off] for elements of type t (inbounds). */
LLVMValueRef cg_gep(CG *cg, LLVMTypeRef t, LLVMValueRef ptr, LLVMValueRef off);
/* Linear element offset of idx in a row-major tensor of type t. */
LLVMValueRef cg_linear(CG *cg, const Type *t, LLVMValueRef *idx);
/* Size i of v as an i64: a constant when static, else the value of its
 * symbolic size (CG.symx, an entry with symbolic sizes). */
LLVMValueRef cg_dim(CG *cg, const Value *v, int i);
/* cg_linear for v, whose sizes may be symbolic. */
LLVMValueRef cg_linear_value(CG *cg, const Value *v, LLVMValueRef *idx);
/* Loads / stores one element of a buffer at linear offset `lin`, converting
 * between storage and compute type. */
LLVMValueRef cg_load(CG *cg, LLVMValueRef ptr, ElemType e, LLVMValueRef lin);
void cg_store(CG *cg, LLVMValueRef ptr, ElemType e, LLVMValueRef lin,
              LLVMValueRef val);
/* Stores val at idx of v's buffer, v's sizes possibly symbolic. */
void cg_store_at(CG *cg, Value *v, LLVMValueRef *idx, LLVMValueRef val);
/* The element at idx of a value with storage (not ST_NONE): a constant
 * for a splat or one-element literal, else a load from its buffer. */
LLVMValueRef cg_stored_value(CG *cg, Value *v, LLVMValueRef *idx);

/* codegen/weights.c: where constants live (--weights). cg_weights_place
 * puts a constant global where o->weights says (a section);
 * cg_weights_const gives the pointer to weight v named `name` (added to
 * the blob, or the file, on first use): a constant, or with a file a load
 * in the entry block of cg->llfn. After optimization cg_weights_define
 * defines the blob for output `kind`: for an object, a placeholder or
 * zeros, into which cg_weights_patch then writes the bytes (*obj may be
 * replaced; given the object's file (codegen_api.h OutFile), an ELF
 * object's blob is written into its new file from then on, beside LLVM,
 * and cg_weights_patch writes the object around it instead, leaving the
 * file complete for the caller to commit: *obj freed and NULL; non-zero
 * after diagnosing where it cannot); else the bytes.
 * With a file, cg_weights_finish defines the loader and hands out the
 * file's bytes. */
void cg_weights_place(CG *cg, LLVMValueRef g);
/* The blob's symbol: a declaration until cg_weights_define. */
#define CG_WEIGHTS_BLOB "shloc.weight_bytes"
/* Declares the blob again in cg->mod where the optimizer dropped it for
 * want of a use there, and the program has constants in it: optsplit.c's
 * second object may still refer to it. */
void cg_weights_redeclare(CG *cg);
/* Whether objects for the target are little-endian ELF (by the triple's
 * OS and environment; cg_weights_patch checks the object's header). */
bool cg_elf_le_target(CG *cg);
LLVMValueRef cg_weights_const(CG *cg, const char *name, Value *v);
void cg_weights_define(CG *cg, EmitKind kind, OutFile *file);
int cg_weights_patch(CG *cg, char **obj, size_t *len);
int cg_weights_finish(CG *cg, char **weights, size_t *weights_len);
/* Starts making the bytes cg_weights_patch will write on a second thread
 * (nothing to do with LLVM: it reads the IR's constants only), once every
 * constant has its offset, and where codegen writes the object into
 * file's new file itself (not NULL) with the blob after its header, the
 * blob into that file then; cg_weights_patch waits for it.
 * cg_weights_end waits for both threads, frees what they made, and
 * removes a new object file not wholly written (out_file_discard). */
void cg_weights_ahead(CG *cg, OutFile *file);
void cg_weights_end(CG *cg);

/* codegen/report.c: the memory plan (o->memory_plan). With it,
 * cg_report_mark_weight tags a constant global as weights,
 * cg_report_begin (before the object is written) asks the backend for
 * every function's frame, and cg_report writes the plan of the object
 * obj; each does nothing without it. cg_report returns non-zero after
 * diagnosing. */
void cg_report_mark_weight(CG *cg, LLVMValueRef g);
void cg_report_begin(CG *cg);
int cg_report(CG *cg, const char *obj, size_t len);

/* codegen/elemental.c: values at an index, and the op table. */
/* The value of v at idx: the bound scalar inside a scalar region, a load
 * if v has storage, else the elemental generator of v->def. */
LLVMValueRef cg_value_at(CG *cg, Value *v, LLVMValueRef *idx);
/* Runs the elemental generator of op at idx, writing op->nresults scalars
 * (an op without one is reported). */
void cg_gen(CG *cg, Op *op, LLVMValueRef *idx, LLVMValueRef *out);
/* How kernel.c may split a root's kernel across calls [begin, end) (and so
 * threads), besides the first dimension of extent > 1 (CG_SPLIT_ANY). */
typedef enum CgSplit {
  CG_SPLIT_ANY,
  CG_SPLIT_DOT,       /* the dimension cg_dot_split gives */
  CG_SPLIT_CONV,      /* the dimension and unit cg_conv_split gives */
  CG_SPLIT_NEVER,     /* one call over [0, 1) */
  CG_SPLIT_BATCH,     /* only a batch dimension (cg_linalg_batch_rank) */
  CG_SPLIT_UNSORTED,  /* not the sorted dimension (cg_sort_dim) */
} CgSplit;
/* What codegen has for an op:
 *  - value: the elemental generator of an op with one result, its value at
 *    idx; values: that of an op with several, written to out;
 *  - kernel: a kernel of its own as a root, emitted in the kernel function
 *    cg->llfn(frame, begin, end) at the builder for the part of the result
 *    its split gives [begin, end) (kernel.c adds `ret void`); it returns
 *    false, having emitted nothing, when it does not apply (kernel.c then
 *    loops over the generator);
 *  - gemm: the same for OPF_GEMM ops, also with an epilogue root epi (or
 *    NULL): an elementwise root of op's shape into whose tree the fuse pass
 *    fused op; the kernel then accumulates in epi's buffer and, as each
 *    block of C is complete, replaces it by epi's value with op bound to it;
 *  - no_speculation: its generator loops, branches or reads many values,
 *    so movement.c never computes it at an index whose value it may drop. */
typedef struct CgOpImpl {
  LLVMValueRef (*value)(CG *cg, Op *op, LLVMValueRef *idx);
  void (*values)(CG *cg, Op *op, LLVMValueRef *idx, LLVMValueRef *out);
  bool (*kernel)(CG *cg, Op *op);
  bool (*gemm)(CG *cg, Op *op, Op *epi);
  CgSplit split;
  bool no_speculation;
} CgOpImpl;
/* The row of op c (every elementwise op: the shared elementwise
 * generator); all members are empty for an op codegen lacks. */
const CgOpImpl *cg_op_impl(OpCode c);
/* The dimension of a root's result of type t that a kernel's [begin, end)
 * ranges over (CG_SPLIT_ANY): the first of extent > 1, 0 if none. */
int cg_split_dim(const Type *t);
/* Whether codegen implements op c: a generator or kernel, or for an
 * elementwise op a scalar rule for some element type. */
bool cg_has_impl(OpCode c);

/* codegen/elementwise.c: scalar semantics of elementwise ops (spec
 * sections of each op), also used for the ops of scalar regions. args are
 * the operands' scalars in compute type. */
LLVMValueRef cg_scalar_op(CG *cg, Op *op, LLVMValueRef *args);
/* Whether elementwise op c has a scalar rule for values of element type e
 * (those of its result, or of its complex operands). */
bool cg_scalar_has_rule(OpCode c, ElemType e);
/* convert (spec "convert") of a compute-type scalar between element types;
 * float to int saturates (NaN to 0), f16/bf16 results are rounded once. */
LLVMValueRef cg_convert(CG *cg, LLVMValueRef v, ElemType from, ElemType to);

/* sqrt of an f32 or f64 scalar, correctly rounded: llvm.sqrt, or integer
 * code where the target has no instruction for it (no libm call). */
LLVMValueRef cg_sqrt(CG *cg, LLVMValueRef x);

/* codegen/minifloat.c: the float types narrower than 16 bits (ir.h
 * SMALL_FLOATS), stored as i8 and computed as f32 values the format
 * represents exactly. encode rounds an f32 or f64 to the format's bits (to
 * nearest even, the format's overflow and NaN rules); decode gives the f32
 * of bits (exact); round is decode(encode(x)). */
bool cg_is_small_float(ElemType e);
LLVMValueRef cg_small_encode(CG *cg, LLVMValueRef x, ElemType e);
LLVMValueRef cg_small_decode(CG *cg, LLVMValueRef bits, ElemType e);
LLVMValueRef cg_small_round(CG *cg, LLVMValueRef x, ElemType e);

/* codegen/complex.c: complex<f32>/complex<f64> scalars, computed as
 * <2 x f32|f64> (re, im) vectors (the storage layout). cg_complex_op gives
 * an op's scalar when an operand or the result is complex, NULL when the
 * op is not defined on complex values (cg_scalar_op reports it);
 * cg_complex_convert is cg_convert where from or to is complex. */
LLVMValueRef cg_complex_op(CG *cg, Op *op, LLVMValueRef *args);
/* Whether op c has a rule on complex values. */
bool cg_complex_has_rule(OpCode c);
LLVMValueRef cg_complex_convert(CG *cg, LLVMValueRef v, ElemType from, ElemType to);
LLVMValueRef cg_complex_mul_add(CG *cg, ElemType e, LLVMValueRef acc, LLVMValueRef a,
                                LLVMValueRef b);
LLVMValueRef cg_complex_binary(CG *cg, OpCode c, ElemType e, LLVMValueRef x,
                               LLVMValueRef y);

/* codegen/movement.c: elemental generators of the data movement ops (spec
 * section of each op): the operand at an index mapped from idx. */
LLVMValueRef cg_gen_bitcast_convert(CG *cg, Op *op, LLVMValueRef *idx);
LLVMValueRef cg_gen_broadcast(CG *cg, Op *op, LLVMValueRef *idx);
LLVMValueRef cg_gen_broadcast_in_dim(CG *cg, Op *op, LLVMValueRef *idx);
LLVMValueRef cg_gen_concatenate(CG *cg, Op *op, LLVMValueRef *idx);
LLVMValueRef cg_gen_constant(CG *cg, Op *op, LLVMValueRef *idx);
LLVMValueRef cg_gen_iota(CG *cg, Op *op, LLVMValueRef *idx);
LLVMValueRef cg_gen_pad(CG *cg, Op *op, LLVMValueRef *idx);
LLVMValueRef cg_gen_reshape(CG *cg, Op *op, LLVMValueRef *idx);
LLVMValueRef cg_gen_reverse(CG *cg, Op *op, LLVMValueRef *idx);
LLVMValueRef cg_gen_slice(CG *cg, Op *op, LLVMValueRef *idx);
LLVMValueRef cg_gen_transpose(CG *cg, Op *op, LLVMValueRef *idx);
/* x at idx when pred holds, else `other` (computed before the branch):
 * for reads that may fall outside x (padding, a window over an input that
 * may be empty). */
LLVMValueRef cg_value_guarded(CG *cg, LLVMValueRef pred, Value *x, LLVMValueRef *idx,
                              LLVMValueRef other);

/* codegen/reduce.c: reduce and reduce_window; scalar regions. */
void cg_gen_reduce(CG *cg, Op *op, LLVMValueRef *idx, LLVMValueRef *out);
void cg_gen_reduce_window(CG *cg, Op *op, LLVMValueRef *idx, LLVMValueRef *out);
/* The n row reduces ops (ir_is_row_reduce, one input shape) at their
 * result index idx in one loop over the row: out[k] is ops[k]'s value. */
void cg_gen_row_reduces(CG *cg, Op **ops, int n, LLVMValueRef *idx, LLVMValueRef *out);
/* cg_loop_end of a loop over a row of extent elements, the loop's
 * vector remainder folded into masked iterations when the row is short
 * and no multiple of the vector width (kernel.c fold_tail_wanted). */
void cg_loop_end_short(CG *cg, CgLoop *l, int64_t extent);
/* Emits the single-block region `r` on scalars: binds its block arguments
 * to args, emits its ops with cg_scalar_op, writes the returned scalars. */
void cg_region_scalar(CG *cg, Region *r, LLVMValueRef *args, LLVMValueRef *results);
/* A reduce kept along its last input dimension, as a kernel root: the
 * loops over the reduced dimensions go outside a contiguous inner loop,
 * accumulating in the result buffers. False when it does not apply (inner
 * reductions are best elemental). */
bool cg_kernel_reduce(CG *cg, Op *op);
/* codegen/window.c: window geometry. cg_window_at: element d of an
 * optional window attribute (strides, dilations, padding...), dflt when it
 * is absent (spec: the attribute's default).
 * cg_window_pos: the position of window element `wpos` of result index
 * `r` along dimension d in the input (reduce_window's padded_inputs:
 * pad(inputs, init_values, padding_low, padding_high, base_dilations - 1);
 * convolution's lhs with lhs_dilation and padding): the window has wd
 * elements, the input in_dim, the result out_dim along d (i64 values,
 * cg_dim: constants but in an entry with symbolic sizes; the low padding
 * Window.pad_sym's value there when it has one). Sets *valid
 * (and-ed into a non-NULL one) to whether it lands on an input element
 * (not on padding or a dilation hole); the returned index is 0 when it
 * does not. */
int64_t cg_window_at(const I64List *l, int d, int64_t dflt);
LLVMValueRef cg_window_pos(CG *cg, const Window *w, int d, LLVMValueRef in_dim, int64_t wd,
                           LLVMValueRef out_dim, LLVMValueRef r, LLVMValueRef wpos,
                           LLVMValueRef *valid);

/* codegen/dot.c: dot_general. The elemental generator (inner loop over the
 * contracting dimensions) and a kernel on the blocked GEMM engine
 * (gemm.c) for f32/f64 operands in buffers, over [begin, end) of result
 * dimension 0 (CgOpImpl.gemm). */
LLVMValueRef cg_gen_dot(CG *cg, Op *op, LLVMValueRef *idx);
bool cg_kernel_dot(CG *cg, Op *op, Op *epi);
/* The result dimension whose [begin, end) a dot kernel call computes,
 * in units of *unit of its elements (NR columns, or 1); or, where *count
 * is set, tiles of MR rows of its GEMM's C, of the row dimensions that
 * start there (*count = ceil(M / MR); *grain, in tiles, the shortest
 * last piece the runtime cuts a share into: gemm_row_grain). */
int cg_dot_split(CG *cg, const Op *op, int64_t *unit, int64_t *count, int64_t *grain);
/* How many pieces of K a skinny dot's kernel splits into (dot.c), or 0
 * for the split cg_dot_split gives; *sums: the units after them that add
 * the pieces up (by columns). */
int cg_dot_ksplit(CG *cg, const Op *op, int *sums);
/* Whether a dot kernel runs the skinny path with B along its rows
 * (gemm.c: read in place, or packed when the layout pass packed a
 * constant B, for more than one thread or an AVX2 tile; threads split
 * its columns). */
bool cg_dot_skinny_rows(const Op *op);
/* The accumulation type of a dot/convolution with result type e (f32 for
 * f16, bf16 and the narrower floats, else e) and acc + a * b in it (or/and for i1). */
ElemType cg_dot_acc_type(ElemType e);
LLVMValueRef cg_mul_add(CG *cg, ElemType e, LLVMValueRef acc, LLVMValueRef a,
                        LLVMValueRef b);

/* codegen/conv.c: convolution. The elemental generator, and an implicit
 * GEMM on the blocked engine for f32/f64 with the feature dimensions last
 * (NHWC x HWIO -> NHWC), no groups, no lhs dilation, no reversal (false
 * otherwise), over [begin, end) of the dimension cg_conv_split gives
 * (CgOpImpl.gemm). */
LLVMValueRef cg_gen_conv(CG *cg, Op *op, LLVMValueRef *idx);
bool cg_kernel_conv(CG *cg, Op *op, Op *epi);
/* The result dimension whose [begin, end) a convolution kernel call
 * computes, in units of `unit` elements (NR output features when the
 * implicit GEMM splits its columns, else 1; the last unit may be short);
 * *count: 0, or the number of units when they are not that dimension's
 * elements but rows of the kernel's GEMMs (Winograd's tiles of one
 * image, or at batch > 1 tile rows of all images, cg_conv_wino_split;
 * lines of the images where the implicit GEMM's rows split at the batch,
 * conv.c's conv_split), and *grain the fewest of them worth a call
 * (else 1). */
void cg_conv_split(CG *cg, const Op *op, int *dim, int64_t *unit, int64_t *count,
                   int64_t *grain);

/* codegen/gather.c: gather, dynamic_slice, dynamic_update_slice. */
LLVMValueRef cg_gen_gather(CG *cg, Op *op, LLVMValueRef *idx);
/* The value of gather or dynamic_gather at result index idx; hi[d] is
 * dim(operand, d) - slice_sizes[d], the largest start index along operand
 * dimension d (>= 0). */
LLVMValueRef cg_gather_at(CG *cg, Op *op, LLVMValueRef *idx, const LLVMValueRef *hi);
LLVMValueRef cg_gen_dynamic_slice(CG *cg, Op *op, LLVMValueRef *idx);
LLVMValueRef cg_gen_dynamic_update_slice(CG *cg, Op *op, LLVMValueRef *idx);

/* codegen/scatter.c: scatter and select_and_scatter (spec "scatter",
 * "select_and_scatter"), codegen/sort.c: sort (spec "sort"). Kernels of
 * their own (CgOpImpl.kernel), not elemental: each writes its initial
 * values into the result buffers, then updates them in place. Scatter and
 * select_and_scatter ignore [begin, end) (CG_SPLIT_NEVER), sort takes it
 * as a range of the split dimension unless that is the sorted dimension
 * cg_sort_dim (CG_SPLIT_UNSORTED). */
/* scatter's and select_and_scatter's sizes are cg_dim's: the symbolic path
 * (dyndims.c) runs them too. */
bool cg_kernel_scatter(CG *cg, Op *op);
/* Opens a loop per dimension of v but those of size 1, outermost first,
 * bounded by cg_dim, and sets idx (0 for unit dimensions); returns how
 * many loops cg_nest_end closes. */
int cg_nest_begin(CG *cg, const Value *v, LLVMValueRef *idx, CgLoop *loops);
void cg_nest_end(CG *cg, CgLoop *loops, int n);
bool cg_kernel_select_and_scatter(CG *cg, Op *op);
bool cg_kernel_sort(CG *cg, Op *op);
/* sort in an entry with symbolic sizes (dyndims.c): every slice, sorted
 * in the results' buffers (cg_buffer) with its length and stride known at
 * run time; returns true (emitted) as the kernels do. */
bool cg_sort_symbolic(CG *cg, Op *op);
/* sort's `dimension`, made non-negative (spec "sort": adjusted_dimension). */
int cg_sort_dim(const Op *op);

/* codegen/linalg.c: triangular_solve and cholesky (spec "triangular_solve",
 * "cholesky"); codegen/fft.c: fft (spec "fft"). Kernels of their own over
 * operands in buffers (fuse.c keeps them unfused): each copies its input
 * into the result buffer and works there. [begin, end) is a range of
 * kernel.c's split dimension when that is a batch dimension (one the op
 * does not transform); otherwise kernel.c calls them once over [0, 1)
 * (CG_SPLIT_BATCH, cg_linalg_batch_rank). */
bool cg_kernel_triangular_solve(CG *cg, Op *op);
bool cg_kernel_cholesky(CG *cg, Op *op);
bool cg_kernel_fft(CG *cg, Op *op);
/* The number of leading batch dimensions of op's result. */
int cg_linalg_batch_rank(const Op *op);
/* Opens loops over the batch dimensions [0, nb) of v (kernel.c's split
 * dimension over [begin, end) of the kernel, but in an entry with
 * symbolic sizes) and returns the row-major linear index of the batch;
 * *nloops loops to close with cg_loop_end. */
LLVMValueRef cg_batch_begin(CG *cg, const Value *v, int nb, CgLoop *loops, int *nloops);

/* codegen/rng.c: rng_bit_generator (spec "rng_bit_generator") with XLA's
 * THREE_FRY and PHILOX bits (DEFAULT is PHILOX, as in XLA). A kernel of its
 * own whose two results differ in shape: it writes the output, then the new
 * state, into those results that have a buffer; kernel.c calls it once
 * over [0, 1). */
bool cg_kernel_rng_bit_generator(CG *cg, Op *op);

/* codegen/kernel.c: emits the kernel function of a root op and the call to
 * it from the entry (directly, or through shlort_parallel_for when
 * o->threads > 1 and the kernel is large). */
void cg_kernel(CG *cg, Op *root);
/* For entries with symbolic sizes (dyndims.c), whose kernels' extents are
 * run-time values: a new kernel function `void f.kN(ptr frame, i64 begin,
 * i64 end, i32 chunk)` (internal, noinline; its body is the caller's),
 * and its call over [0, n) with frame, through shlort_parallel_for when
 * o->threads > 1 and `work` (elements read and written) is large at run
 * time, else directly. */
LLVMValueRef cg_kernel_new(CG *cg);
void cg_kernel_call_dyn(CG *cg, LLVMValueRef fn, LLVMValueRef frame, LLVMValueRef n,
                        LLVMValueRef work);
/* Emits code that copies the value src into the buffer of dst (a memcpy,
 * or a kernel for constants and unmaterialized values); nothing when they
 * share storage. */
void cg_kernel_copy(CG *cg, Value *src, Value *dst);
/* The IR text of function fn (LLVMPrintValueToString's, disposed with
 * LLVMDisposeMessage) as if its arguments, blocks and instructions had no
 * names (LLVM numbers them in order): two functions that differ only in
 * those names print alike. fn keeps its names. */
char *cg_print_unnamed(LLVMValueRef fn);

/* codegen/entry.c: the entry function of a public function, its packed
 * wrapper, control flow, checks and result copies. */
void cg_entry(CG *cg, Func *f);
/* The runtime function `name` of the given type, declared once. */
LLVMValueRef cg_runtime_fn(CG *cg, const char *name, LLVMTypeRef ret, LLVMTypeRef *params,
                           int n, LLVMTypeRef *fty);
/* Returns status (i32) from the entry when it is not 0. */
void cg_return_if_failed(CG *cg, LLVMValueRef status);

/* codegen/collectives.c: the ops of the grid ABI (OPF_RUNTIME), emitted
 * in the entry with CG.proc; the grid size check at an entry's start;
 * interpreter.run_parallel (a call of the host's shloc_run_parallel). */
void cg_emit_runtime_op(CG *cg, Op *op);
/* A private constant holding the characters of s (no NUL). */
LLVMValueRef cg_const_string(CG *cg, const char *s);
void cg_emit_grid_check(CG *cg, Func *f);
void cg_emit_run_parallel(CG *cg, Op *op);

/* codegen/dyndims.c: the entry of a function with symbolic sizes
 * (Func.sym), its P_F_temp_bytes and P_F_result_dims, and its packed
 * wrapper. */
void cg_symbolic_entry(CG *cg, Func *f);
/* codegen/dyngather.c: gather and dynamic_gather in such an entry, into
 * the result's buffer (cg_buffer); true. */
bool cg_symbolic_gather(CG *cg, Op *op);

/* codegen/target.c: the target machine (host unless o->triple/cpu/features
 * say otherwise), function attributes, the LLVM pass pipeline, and writing
 * objects/assembly/IR to memory. */
LLVMTargetMachineRef cg_target_machine(const CompileOptions *o);
void cg_set_fn_attrs(CG *cg, LLVMValueRef fn);
/* Adds the enum attribute named k ("noinline", "nounwind") to fn. */
void cg_add_fn_attr(CG *cg, LLVMValueRef fn, const char *k);
/* Whether the target does k on float type t (f32 or f64; CG_INSN_F16:
 * the conversions) with instructions alone. Where it does not, LLVM calls
 * libm or libgcc (which bare-metal objects must not need) or, for
 * llvm.maximum/minimum without an FPU, aborts: the generators then emit
 * inline IR of their own. Asked of the backend once per compilation. */
bool cg_has_insn(CG *cg, CgInsn k, LLVMTypeRef t);
/* The vector width (64, 32 or 16 bytes) of tm's CPU when --cpu names it
 * without features: on x86, the registers LLVM's assembly uses to copy 64
 * bytes (zmm, ymm or xmm); 16 elsewhere. */
int cg_probe_vector_bytes(LLVMTargetMachineRef tm);
int cg_optimize(CG *cg);
/* codegen/optsplit.c: default<O3> (as LLVM 19 builds it, with the inliner
 * options target.c sets) on the main thread and a second one, the kernels
 * split between two modules and linked back; 0, or 1 with a diagnostic. */
int cg_optimize_split(CG *cg);
/* Where cg_optimize_split left the second module's object to its thread
 * (cg->split): waits for it and, if ok (the first module's object is
 * *out), joins the two (elfjoin.c) into *out; frees the split either
 * way. 0, or 1 with a diagnostic. */
int cg_split_join(CG *cg, bool ok, char **out, size_t *out_len);
/* codegen/elfjoin.c: the relocatable ELF64 object of a (the first
 * module's, with the entries) and b (the second's, its definitions
 * global, its references to a's local symbols undefined and hidden), as
 * one module's would be: *out (malloc'ed); NULL, or what the join found
 * that it does not handle. */
const char *cg_elf_join(const char *a, size_t alen, const char *b, size_t blen, char **out,
                        size_t *out_len);
/* Loop strength reduction as x86's code generation runs it first (`llc-19
 * -debug-pass=Structure`: canon-freeze and loop-reduce in a loop pass
 * manager, after loop-simplify), appended to the -O1..-O3 pipelines since
 * target.c turns the backend's off (-disable-lsr): optsplit.c's second
 * half runs it on both threads instead of emission on one. */
#define CG_PIPE_LSR ",function(loop(canon-freeze,loop-reduce))"
int cg_write(CG *cg, EmitKind kind, char **out, size_t *out_len);
/* Calls fn with the name of each symbol of the object bin that no
 * section holds (a call out of the object) until fn returns false; the
 * ELF file symbol, named after the module's source `file`, is skipped. */
void cg_each_undefined(LLVMBinaryRef bin, const char *file,
                       bool (*fn)(const char *name, void *ctx), void *ctx);

#endif
