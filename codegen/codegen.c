/*
 * codegen.c: the LLVM emitter's driver, codegen_emit: the LLVM context,
 * module and target, the entry function of every entry point (entry.c),
 * then verification, optimization and writing the artifact (target.c).
 *
 * See codegen.h for the design and the layers of codegen/.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <llvm-c/Analysis.h>

#include "codegen.h"

/* ------------------------------------------------------------------------ */
/* codegen_emit                                                              */

static int emit_text(EmitKind kind, Module *m, const CompileOptions *o,
                     char **out, size_t *out_len) {
  FILE *f = open_memstream(out, out_len);
  if (!f) return 1;
  int rc = 0;
  if (kind == EMIT_MLIR)
    ir_print_module(f, m);
  else
    rc = header_write(f, m, o);
  fclose(f);
  return rc;
}

static void cg_init(CG *cg, Module *m, const CompileOptions *o) {
  memset(cg, 0, sizeof *cg);
  cg->m = m;
  cg->o = o;
  cg->ctx = LLVMContextCreate();
  cg->mod = LLVMModuleCreateWithNameInContext(m->name ? m->name : "shloc", cg->ctx);
  cg->b = LLVMCreateBuilderInContext(cg->ctx);
  cg->t_void = LLVMVoidTypeInContext(cg->ctx);
  cg->t_i1 = LLVMInt1TypeInContext(cg->ctx);
  cg->t_i8 = LLVMInt8TypeInContext(cg->ctx);
  cg->t_i16 = LLVMInt16TypeInContext(cg->ctx);
  cg->t_i32 = LLVMInt32TypeInContext(cg->ctx);
  cg->t_i64 = LLVMInt64TypeInContext(cg->ctx);
  cg->t_ptr = LLVMPointerTypeInContext(cg->ctx, 0);
  cg->t_f16 = LLVMHalfTypeInContext(cg->ctx);
  cg->t_bf16 = cg->t_i16; /* bf16 bits: no bfloat values, so no soft-float libcalls */
  cg->t_f32 = LLVMFloatTypeInContext(cg->ctx);
  cg->t_f64 = LLVMDoubleTypeInContext(cg->ctx);
}

static void cg_dispose(CG *cg) {
  free(cg->wnames);
  for (int i = 0; i < cg->nkkeys; i++) free(cg->kkeys[i].code);
  free(cg->kkeys);
  for (int i = 0; i < cg->nframes; i++) free(cg->frames[i].name);
  free(cg->frames);
  if (cg->td) LLVMDisposeTargetData(cg->td);
  if (cg->tm) LLVMDisposeTargetMachine(cg->tm);
  LLVMDisposeBuilder(cg->b);
  LLVMDisposeModule(cg->mod);
  LLVMContextDispose(cg->ctx);
}

/* Emits the entry of every entry function; returns the number found. */
static int emit_entries(CG *cg) {
  int found = 0;
  for (int i = 0; i < cg->m->nfuncs; i++) {
    Func *f = cg->m->funcs[i];
    if (!ir_func_is_entry(cg->m, f, cg->o)) continue;
    found++;
    cg_entry(cg, f);
  }
  return found;
}

/* A module that fails verification is a bug in codegen, not in the input. */
static void verify_or_abort(CG *cg) {
  char *msg = NULL;
  if (!LLVMVerifyModule(cg->mod, LLVMReturnStatusAction, &msg)) {
    LLVMDisposeMessage(msg);
    return;
  }
  char *ir = LLVMPrintModuleToString(cg->mod);
  fprintf(stderr, "%s\nshloc: internal error: invalid LLVM module:\n%s\n", ir, msg);
  LLVMDisposeMessage(ir);
  LLVMDisposeMessage(msg);
  abort();
}

static int setup_target(CG *cg) {
  cg->tm = cg_target_machine(cg->o);
  if (!cg->tm) return 1;
  cg->td = LLVMCreateTargetDataLayout(cg->tm);
  char *dl = LLVMCopyStringRepOfTargetData(cg->td);
  LLVMSetDataLayout(cg->mod, dl);
  LLVMDisposeMessage(dl);
  char *triple = LLVMGetTargetMachineTriple(cg->tm);
  LLVMSetTarget(cg->mod, triple);
  LLVMDisposeMessage(triple);
  /* f16 as its bits, as bf16, where half values would mean libgcc calls
   * (riscv64 without Zfh: __extendhfsf2, which Debian's libgcc lacks). */
  if (!cg_has_insn(cg, CG_INSN_F16, cg->t_f32)) cg->t_f16 = cg->t_i16;
  return 0;
}

double cg_cpu_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* --time-passes: the CPU time since *mark, less the weights' bytes
 * written in it (cg->weights_ms since *wmark: the weights line counts
 * them), in the driver's format. */
static void time_step(const CG *cg, const char *what, double *mark, double *wmark) {
  double t = cg_cpu_ms(), w = cg->weights_ms - *wmark;
  if (cg->o->time_passes) fprintf(stderr, "  %-13s %9.3f ms\n", what, t - *mark - w);
  *mark = t;
  *wmark = cg->weights_ms;
}

int codegen_emit(Module *m, const CompileOptions *o, EmitKind kind, char **out,
                 size_t *out_len) {
  char *weights = NULL;
  size_t weights_len = 0;
  int rc = codegen_emit_weights(m, o, kind, NULL, out, out_len, &weights, &weights_len);
  free(weights);
  return rc;
}

int codegen_emit_weights(Module *m, const CompileOptions *o, EmitKind kind, OutFile *file,
                         char **out, size_t *out_len, char **weights, size_t *weights_len) {
  *out = NULL;
  *out_len = 0;
  *weights = NULL;
  *weights_len = 0;
  if (kind == EMIT_MLIR || kind == EMIT_HEADER)
    return emit_text(kind, m, o, out, out_len);
  CG cg;
  cg_init(&cg, m, o);
  double mark = cg_cpu_ms();
  int rc = setup_target(&cg);
  if (rc == 0 && emit_entries(&cg) == 0 && o->entry) {
    diag_error(m->loc, "no function @%s in the module", o->entry);
    rc = 1;
  }
  if (rc == 0 && cg.errors) rc = cg.errors;
  if (rc == 0) rc = cg_weights_finish(&cg, weights, weights_len);
  if (rc == 0) verify_or_abort(&cg);
  if (rc == 0 && kind == EMIT_OBJ) cg_weights_ahead(&cg, o->memory_plan ? NULL : file);
  double wmark = 0;
  time_step(&cg, "codegen", &mark, &wmark);
  if (rc == 0 && kind != EMIT_VERIFY) {
    cg.split_objects = kind == EMIT_OBJ && !o->memory_plan;
    rc = cg_optimize(&cg);
    time_step(&cg, "llvm-opt", &mark, &wmark);
    bool plan = rc == 0 && kind == EMIT_OBJ && o->memory_plan;
    if (plan) cg_report_begin(&cg);
    if (rc == 0) cg_weights_define(&cg, kind, plan ? NULL : file);
    if (rc == 0) rc = cg_write(&cg, kind, out, out_len);
    if (cg.split) { /* optsplit.c's second half, emitted meanwhile */
      int joined = cg_split_join(&cg, rc == 0, out, out_len);
      if (rc == 0) rc = joined;
    }
    if (rc == 0 && cg.errors) rc = cg.errors; /* backend errors (report.c) */
    /* The report reads the object back from memory. */
    if (rc == 0 && kind == EMIT_OBJ) rc = cg_weights_patch(&cg, out, out_len);
    if (rc == 0 && plan) rc = cg_report(&cg, *out, *out_len);
    time_step(&cg, "llvm-emit", &mark, &wmark);
  }
  cg_weights_end(&cg);
  if (o->time_passes) {
    fprintf(stderr, "  %-13s %9.3f ms\n", "weights", cg.weights_ms);
    /* beside llvm-opt and llvm-emit: not in their times, nor in the wall time */
    if (cg.weights_ahead_ms) fprintf(stderr, "  %-13s %9.3f ms\n", "weights-ahead", cg.weights_ahead_ms);
    if (cg.opt_second_ms) fprintf(stderr, "  %-13s %9.3f ms\n", "llvm-opt-2", cg.opt_second_ms);
    if (cg.emit_second_ms) fprintf(stderr, "  %-13s %9.3f ms\n", "llvm-emit-2", cg.emit_second_ms);
  }
  cg_dispose(&cg);
  return rc;
}
