/*
 * target.c: the target machine, per-function target attributes, the LLVM
 * optimization pipeline and writing the result to memory.
 *
 * Without --target/--cpu/--features the host is the target, with every
 * feature it has: the object is meant to run where it is built. With
 * --target only, the CPU is "generic" with no extra features.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/ErrorHandling.h>
#include <llvm-c/Object.h>
#include <llvm-c/Support.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "codegen.h"

static void init_targets(const CompileOptions *o) {
  if (o->triple) {
    LLVMInitializeAllTargetInfos();
    LLVMInitializeAllTargets();
    LLVMInitializeAllTargetMCs();
    LLVMInitializeAllAsmPrinters();
    LLVMInitializeAllAsmParsers();
  } else {
    LLVMInitializeNativeTarget();
    LLVMInitializeNativeAsmPrinter();
    LLVMInitializeNativeAsmParser();
  }
}

/* The features clang assumes for a RISC-V triple given without any
 * (its -march default): rv64gc on Linux (the lp64d ABI of the
 * distributions' libraries), rv32imac / rv64imac elsewhere (bare metal).
 * LLVM alone assumes rv32i/rv64i, on which a Linux object does not link. */
static const char *default_features(const char *triple) {
  if (strncmp(triple, "riscv", 5)) return "";
  return strstr(triple, "linux") ? "+m,+a,+f,+d,+c" : "+m,+a,+c";
}

/* LLVM ends the process on a program its backend cannot compile for the
 * target (a type or operation it cannot lower on these features, or a
 * CPU it does not know: `--cpu=bogus` on x86-64); the generators avoid
 * those they know of (cg_has_insn), and this turns any other into a
 * diagnostic and exit status 1: LLVM aborts (SIGABRT, a core) when the
 * handler returns. An output being written is left as its temporary
 * file beside the destination, which is not replaced. */
static void fatal_handler(const char *reason) {
  fprintf(stderr, "shloc: error: LLVM cannot compile this program for the target: %s "
                  "(name a CPU with --cpu or features with --features)\n", reason);
  _Exit(1);
}

static LLVMCodeGenOptLevel codegen_level(int opt_level) {
  switch (opt_level) {
  case 0: return LLVMCodeGenLevelNone;
  case 1: return LLVMCodeGenLevelLess;
  case 2: return LLVMCodeGenLevelDefault;
  default: return LLVMCodeGenLevelAggressive;
  }
}

LLVMTargetMachineRef cg_target_machine(const CompileOptions *o) {
  init_targets(o);
  char *triple = o->triple ? strdup(o->triple) : LLVMGetDefaultTargetTriple();
  char *norm = LLVMNormalizeTargetTriple(triple);
  LLVMTargetRef target;
  char *err = NULL;
  if (LLVMGetTargetFromTriple(norm, &target, &err)) {
    diag_error((Loc){0}, "unknown target '%s': %s", triple, err);
    LLVMDisposeMessage(err);
    free(triple);
    LLVMDisposeMessage(norm);
    return NULL;
  }
  /* --cpu=native, as clang's -march=native: the host's CPU and, for the
   * host's triple, its features */
  bool native = o->cpu && !strcmp(o->cpu, "native");
  if (native && o->triple) {
    diag_error((Loc){0}, "--cpu=native names the host's CPU: not for --target=%s", o->triple);
    free(triple);
    LLVMDisposeMessage(norm);
    return NULL;
  }
  bool host = !o->triple && (!o->cpu || native);
  char *cpu = host ? LLVMGetHostCPUName() : o->cpu ? strdup(o->cpu) : strdup("generic");
  char *features = o->features ? strdup(o->features)
                   : host      ? LLVMGetHostCPUFeatures()
                   : o->cpu    ? strdup("")
                               : strdup(default_features(norm));
  LLVMTargetMachineRef tm = LLVMCreateTargetMachine(
      target, norm, cpu, features, codegen_level(o->opt_level), LLVMRelocPIC,
      LLVMCodeModelDefault);
  if (!tm) diag_error((Loc){0}, "cannot create a target machine for '%s'", norm);
  LLVMInstallFatalErrorHandler(fatal_handler);
  /* Strings from LLVM and from strdup are both malloc'ed. */
  free(triple);
  LLVMDisposeMessage(norm);
  LLVMDisposeMessage(cpu);
  LLVMDisposeMessage(features);
  return tm;
}

static void add_str_attr(CG *cg, LLVMValueRef fn, const char *k, const char *v) {
  LLVMAttributeRef a = LLVMCreateStringAttribute(cg->ctx, k, (unsigned)strlen(k), v,
                                                 (unsigned)strlen(v));
  LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, a);
}

void cg_add_fn_attr(CG *cg, LLVMValueRef fn, const char *k) {
  unsigned kind = LLVMGetEnumAttributeKindForName(k, strlen(k));
  LLVMAttributeRef a = LLVMCreateEnumAttribute(cg->ctx, kind, 0);
  LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, a);
}

void cg_set_fn_attrs(CG *cg, LLVMValueRef fn) {
  char *cpu = LLVMGetTargetMachineCPU(cg->tm);
  char *features = LLVMGetTargetMachineFeatureString(cg->tm);
  if (cpu[0]) add_str_attr(cg, fn, "target-cpu", cpu);
  if (features[0]) add_str_attr(cg, fn, "target-features", features);
  /* LLVM prefers 256-bit vectors on some AVX-512 CPUs; the kernels are
   * long streaming loops where 512 bits win. */
  if (strstr(features, "+avx512f")) add_str_attr(cg, fn, "prefer-vector-width", "512");
  cg_add_fn_attr(cg, fn, "nounwind");
  LLVMDisposeMessage(cpu);
  LLVMDisposeMessage(features);
}

/* ------------------------------------------------------------------------ */
/* What the target does in hardware                                          */

void cg_each_undefined(LLVMBinaryRef bin, const char *file,
                       bool (*fn)(const char *name, void *ctx), void *ctx) {
  LLVMSymbolIteratorRef sym = LLVMObjectFileCopySymbolIterator(bin);
  LLVMSectionIteratorRef sec = LLVMObjectFileCopySectionIterator(bin);
  bool more = true;
  for (; more && !LLVMObjectFileIsSymbolIteratorAtEnd(bin, sym); LLVMMoveToNextSymbol(sym)) {
    const char *name = LLVMGetSymbolName(sym);
    if (!name[0] || !strcmp(name, file)) continue;
    LLVMMoveToContainingSection(sec, sym);
    if (LLVMObjectFileIsSectionIteratorAtEnd(bin, sec)) more = fn(name, ctx);
  }
  LLVMDisposeSectionIterator(sec);
  LLVMDisposeSymbolIterator(sym);
}

static bool note_call(const char *name, void *ctx) {
  (void)name;
  *(bool *)ctx = true;
  return false;
}

/* mod compiled by tm as assembly text (malloc'ed), or NULL. */
static char *asm_text(LLVMTargetMachineRef tm, LLVMModuleRef mod) {
  LLVMMemoryBufferRef mb = NULL;
  char *err = NULL, *text = NULL;
  if (!LLVMTargetMachineEmitToMemoryBuffer(tm, mod, LLVMAssemblyFile, &err, &mb)) {
    text = strndup(LLVMGetBufferStart(mb), LLVMGetBufferSize(mb));
    LLVMDisposeMemoryBuffer(mb);
  }
  LLVMDisposeMessage(err);
  return text;
}

/* The operation k on arguments of type t (half conversions: a round trip
 * through half of an f32). */
static LLVMValueRef probe_op(CG *cg, LLVMBuilderRef b, CgInsn k, LLVMValueRef *x) {
  static const char *const intr[CG_INSN_COUNT] = {
      [CG_INSN_SQRT] = "llvm.sqrt", [CG_INSN_FMA] = "llvm.fma", [CG_INSN_FMA3] = "llvm.fma",
      [CG_INSN_FLOOR] = "llvm.floor", [CG_INSN_CEIL] = "llvm.ceil",
      [CG_INSN_ROUND] = "llvm.round", [CG_INSN_ROUNDEVEN] = "llvm.roundeven"};
  LLVMTypeRef t = LLVMTypeOf(x[0]);
  switch (k) {
  case CG_INSN_ARITH: return LLVMBuildFAdd(b, x[0], x[1], "");
  case CG_INSN_F16:
    return LLVMBuildFPExt(b, LLVMBuildFPTrunc(b, x[0], LLVMHalfTypeInContext(cg->ctx), ""), t, "");
  default: return cg_intrinsic(b, intr[k], &t, 1, x, k == CG_INSN_FMA || k == CG_INSN_FMA3 ? 3 : 1);
  }
}

/* Compiles `t probe(t, t, t)` doing k and reads whether the object calls
 * out (CG_INSN_FMA3: whether its assembly has an FMA3 vfmadd132/213/231):
 * asking the backend itself covers every CPU and feature string. */
static bool probe(CG *cg, CgInsn k, LLVMTypeRef t) {
  LLVMModuleRef mod = LLVMModuleCreateWithNameInContext("probe", cg->ctx);
  LLVMSetTarget(mod, LLVMGetTarget(cg->mod));
  LLVMSetDataLayout(mod, LLVMGetDataLayoutStr(cg->mod));
  LLVMTypeRef params[3] = {t, t, t};
  LLVMValueRef fn = LLVMAddFunction(mod, "probe", LLVMFunctionType(t, params, 3, 0));
  cg_set_fn_attrs(cg, fn);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(cg->ctx);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(cg->ctx, fn, ""));
  LLVMValueRef x[3] = {LLVMGetParam(fn, 0), LLVMGetParam(fn, 1), LLVMGetParam(fn, 2)};
  LLVMBuildRet(b, probe_op(cg, b, k, x));
  LLVMDisposeBuilder(b);
  LLVMMemoryBufferRef mb = NULL;
  char *err = NULL;
  bool calls = true;
  if (k == CG_INSN_FMA3) {
    char *text = asm_text(cg->tm, mod);
    calls = !text || !(strstr(text, "vfmadd1") || strstr(text, "vfmadd2"));
    free(text);
  } else if (!LLVMTargetMachineEmitToMemoryBuffer(cg->tm, mod, LLVMObjectFile, &err, &mb)) {
    LLVMBinaryRef bin = LLVMCreateBinary(mb, cg->ctx, &err);
    if (bin) {
      calls = false;
      cg_each_undefined(bin, "probe", note_call, &calls);
      LLVMDisposeBinary(bin);
    }
    LLVMDisposeMemoryBuffer(mb);
  }
  LLVMDisposeMessage(err);
  LLVMDisposeModule(mod);
  return !calls;
}

bool cg_has_insn(CG *cg, CgInsn k, LLVMTypeRef t) {
  int ti = t == cg->t_f64;
  if (!cg->insn[k][ti]) cg->insn[k][ti] = probe(cg, k, k == CG_INSN_F16 ? cg->t_f32 : t) ? 1 : 2;
  return cg->insn[k][ti] == 1;
}

/* `void probe(ptr p, ptr q) { *q = *p; }` on <16 x float>, allowed 512-bit
 * registers, as assembly text. */
static char *copy_probe_asm(LLVMTargetMachineRef tm) {
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMModuleRef mod = LLVMModuleCreateWithNameInContext("probe", ctx);
  char *triple = LLVMGetTargetMachineTriple(tm);
  LLVMSetTarget(mod, triple);
  LLVMDisposeMessage(triple);
  LLVMTypeRef pt = LLVMPointerTypeInContext(ctx, 0), params[2] = {pt, pt};
  LLVMTypeRef vt = LLVMVectorType(LLVMFloatTypeInContext(ctx), 16);
  LLVMValueRef fn = LLVMAddFunction(mod, "probe",
                                    LLVMFunctionType(LLVMVoidTypeInContext(ctx), params, 2, 0));
  static const char *const attrs[][2] = {{"prefer-vector-width", "512"},
                                         {"min-legal-vector-width", "512"}};
  for (int i = 0; i < 2; i++)
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                            LLVMCreateStringAttribute(ctx, attrs[i][0], (unsigned)strlen(attrs[i][0]),
                                                      attrs[i][1], 3));
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, fn, ""));
  LLVMBuildStore(b, LLVMBuildLoad2(b, vt, LLVMGetParam(fn, 0), ""), LLVMGetParam(fn, 1));
  LLVMBuildRetVoid(b);
  LLVMDisposeBuilder(b);
  char *text = asm_text(tm, mod);
  LLVMDisposeModule(mod);
  LLVMContextDispose(ctx);
  return text;
}

int cg_probe_vector_bytes(LLVMTargetMachineRef tm) {
  char *triple = LLVMGetTargetMachineTriple(tm);
  bool x86 = !strncmp(triple, "x86_64", 6) || (triple[0] == 'i' && !strncmp(triple + 2, "86", 2));
  LLVMDisposeMessage(triple);
  if (!x86) return 16;
  char *text = copy_probe_asm(tm);
  int bytes = !text ? 16 : strstr(text, "zmm") ? 64 : strstr(text, "ymm") ? 32 : 16;
  free(text);
  return bytes;
}

/* LLVM options that are process-wide and may be parsed once:
 *
 * No SLP vectorizer. LLVM 19.1.7's builds wrong shuffles for straight-line
 * load-multiply-store chains that reuse scalars: a batched i32 dot_general
 * with contraction size 1, its loops fully unrolled, got lanes of the wrong
 * operand (tests/run/dot_general_i32_k1_*.mlir; `clang-19 -O3
 * -march=x86-64-v3` miscompiles the same loop written in C; upstream
 * llvm/llvm-project#117170 has the same shape). The kernels are loops, which
 * the loop vectorizer widens; SLP only sees what full unrolling flattened.
 * LLVMPassBuilderOptionsSetSLPVectorization(false) leaves the pass in
 * default<O2>/<O3> (checked with -opt-bisect-limit), so it is switched off
 * where the pass looks, its `-vectorize-slp` option.
 *
 * Full unrolling at -O2's threshold (150) in default<O3> too. -O3's 300
 * flattens the loops of small kernels whose trip counts are constants (the
 * kernel's [begin, end) too, propagated from its one call) into blocks of
 * thousands of instructions, on which the machine schedulers, quadratic in
 * a block's memory operations, spent most of the compile time: a 33 x 79
 * rsqrt kernel of searchless_chess_9m became 2600 scalar stores and took
 * 3.5 of its 5.9 s; bessel_i0e_float64_20_20's vectorized 20-wide vmath
 * loops, unrolled, took 2.9 of 3.3 s. Run time was unchanged
 * (docs/architecture.md, "Compile time").
 *
 * No post-RA list scheduler (znver4's tuning turns it on, Intel's and
 * x86-64-v4's do not): it reorders each block once more after register
 * allocation, renaming registers to break anti-dependences, which
 * out-of-order cores do in hardware. It was 6.6 % of the backend's
 * instructions for ResNet-50 (3.4 % of the whole compile, cachegrind),
 * and the objects differ only in the order and registers of their
 * instructions (27 of 21165 otherwise, none in the microkernels).
 *
 * -O3's inliner thresholds given as options: default<O3> uses these
 * values anyway, and the inliner that optsplit.c's pipeline text names
 * takes its thresholds from the options (LLVM's textual `inline`
 * otherwise gets -O2's 225 and no threshold of its own for call sites in
 * loops, where -O3 has 250 and 525). They are set for every level, so
 * that an object never depends on what the process compiled before
 * (options are parsed once per process): -O1 and -O2 inline with -O3's
 * thresholds too.
 *
 * No loop strength reduction in code generation: the pipelines of -O1 to
 * -O3 end with it instead (CG_PIPE_LSR), for every target and level alike
 * (the option is process-wide), so that optsplit.c's second half runs it
 * on two threads; it was a third of x86's serial emission. */
static void set_llvm_options(void) {
  static const char *const argv[] = {"shloc", "-vectorize-slp=false",
                                     "-unroll-threshold-aggressive=150",
                                     "-post-RA-scheduler=false", "-inline-threshold=250",
                                     "-locally-hot-callsite-threshold=525",
                                     "-inlinecold-threshold=45", "-disable-lsr"};
  LLVMParseCommandLineOptions((int)(sizeof argv / sizeof *argv), argv, NULL);
}

/* The split's pipeline text is x86's (targets may add passes to
 * default<O3>). Whether to split depends on the module alone, never on
 * the cores or the load of the machine, so that an object is the same
 * wherever it is built (on one core the split costs about 3 % more). */
static bool split_applies(CG *cg) { return !strncmp(LLVMGetTarget(cg->mod), "x86_64", 6); }

int cg_optimize(CG *cg) {
  static const char *const pipelines[] = {"default<O0>", "default<O1>" CG_PIPE_LSR,
                                          "default<O2>" CG_PIPE_LSR, "default<O3>" CG_PIPE_LSR};
  static pthread_once_t options_set = PTHREAD_ONCE_INIT;
  int level = cg->o->opt_level < 0 ? 0 : cg->o->opt_level > 3 ? 3 : cg->o->opt_level;
  pthread_once(&options_set, set_llvm_options);
  if (level == 3 && split_applies(cg)) return cg_optimize_split(cg);
  LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
  LLVMPassBuilderOptionsSetLoopVectorization(opts, level >= 2);
  LLVMPassBuilderOptionsSetLoopInterleaving(opts, level >= 2);
  LLVMPassBuilderOptionsSetLoopUnrolling(opts, level >= 2);
  LLVMErrorRef err = LLVMRunPasses(cg->mod, pipelines[level], cg->tm, opts);
  LLVMDisposePassBuilderOptions(opts);
  if (!err) return 0;
  char *msg = LLVMGetErrorMessage(err);
  diag_error((Loc){0}, "LLVM pass pipeline failed: %s", msg);
  LLVMDisposeErrorMessage(msg);
  return 1;
}

/* Copies an LLVM-owned buffer into a malloc'ed one the caller frees. */
static int copy_out(const char *p, size_t n, char **out, size_t *out_len) {
  *out = malloc(n + 1);
  if (!*out) return 1;
  memcpy(*out, p, n);
  (*out)[n] = 0;
  *out_len = n;
  return 0;
}

int cg_write(CG *cg, EmitKind kind, char **out, size_t *out_len) {
  if (kind == EMIT_LLVM) {
    char *s = LLVMPrintModuleToString(cg->mod);
    int rc = copy_out(s, strlen(s), out, out_len);
    LLVMDisposeMessage(s);
    return rc;
  }
  LLVMCodeGenFileType ft = kind == EMIT_ASM ? LLVMAssemblyFile : LLVMObjectFile;
  LLVMMemoryBufferRef mb = NULL;
  char *err = NULL;
  if (LLVMTargetMachineEmitToMemoryBuffer(cg->tm, cg->mod, ft, &err, &mb)) {
    diag_error((Loc){0}, "LLVM code generation failed: %s", err);
    LLVMDisposeMessage(err);
    return 1;
  }
  int rc = copy_out(LLVMGetBufferStart(mb), LLVMGetBufferSize(mb), out, out_len);
  LLVMDisposeMemoryBuffer(mb);
  return rc;
}
