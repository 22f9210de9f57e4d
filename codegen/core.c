/*
 * core.c: the ground floor of the LLVM emitter, what every other file of
 * codegen/ builds on and which itself knows nothing of buffers or ops'
 * semantics:
 *  - element types: the compute and storage type of each ElemType, and the
 *    check that an op's types are ones codegen implements;
 *  - diagnostics (cg_unsupported) and constants (cg_i64);
 *  - the state of the LLVM function being emitted: its entry block (for
 *    allocas and buffer pointers) before its body, saved and restored
 *    around the emission of another function in the middle of it;
 *  - counted loops and if/else;
 *  - calls of LLVM intrinsics;
 *  - the target's vector width.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/DebugInfo.h>

#include "codegen.h"

/* ------------------------------------------------------------------------ */
/* Element types                                                             */

LLVMTypeRef cg_scalar_type(CG *cg, ElemType e) {
  switch (e) {
  case ET_I1: return cg->t_i1;
  case ET_F16: return cg->t_f16;
  case ET_BF16: return cg->t_bf16;
  case ET_F32: return cg->t_f32;
  case ET_F64: return cg->t_f64;
  case ET_C64: return LLVMVectorType(cg->t_f32, 2);
  case ET_C128: return LLVMVectorType(cg->t_f64, 2);
  default: break;
  }
  if (elem_is_int(e) && elem_supported(e))
    return LLVMIntTypeInContext(cg->ctx, (unsigned)elem_bits(e));
  if (cg_is_small_float(e)) return cg->t_f32;
  return cg->t_i8; /* unsupported: the op using it was reported */
}

bool cg_is_sub_byte(ElemType e) { return elem_is_int(e) && elem_bits(e) < 8; }

LLVMTypeRef cg_storage_type(CG *cg, ElemType e) {
  if (e == ET_I1 || cg_is_sub_byte(e) || cg_is_small_float(e)) return cg->t_i8;
  return cg_scalar_type(cg, e);
}

LLVMValueRef cg_i64(CG *cg, int64_t v) {
  return LLVMConstInt(cg->t_i64, (unsigned long long)v, 1);
}

LLVMValueRef cg_nowrap(LLVMValueRef v) {
  if (LLVMIsAInstruction(v)) {
    LLVMSetNUW(v, 1);
    LLVMSetNSW(v, 1);
  }
  return v;
}

LLVMValueRef cg_min_i64(CG *cg, LLVMValueRef a, LLVMValueRef b) {
  return LLVMBuildSelect(cg->b, LLVMBuildICmp(cg->b, LLVMIntSLT, a, b, ""), a, b, "min");
}

void cg_unsupported(CG *cg, Op *op, const char *what) {
  ir_op_error(op, "%s", what ? what : "op not supported by codegen yet");
  cg->errors++;
}

static bool type_ok(CG *cg, Op *op, const Type *t) {
  if (t->kind == TY_TOKEN) return true;
  if (t->kind != TY_TENSOR) {
    cg_unsupported(cg, op, "tuple values are not supported by codegen");
    return false;
  }
  if (!elem_supported(t->elem)) {
    char msg[96];
    snprintf(msg, sizeof msg, "unsupported element type '%s'",
             elem_name(t->elem));
    cg_unsupported(cg, op, msg);
    return false;
  }
  if (!type_is_static(t)) {
    cg_unsupported(cg, op, "dynamic shapes are not supported by codegen");
    return false;
  }
  return true;
}

bool cg_check_types(CG *cg, Op *op) {
  for (int i = 0; i < op->nresults; i++)
    if (!type_ok(cg, op, op->results[i]->type)) return false;
  for (int i = 0; i < op->nopnds; i++)
    if (!type_ok(cg, op, op->opnds[i]->type)) return false;
  return true;
}

int cg_vector_bytes(CG *cg) {
  if (!cg->vector_bytes) cg->vector_bytes = cg_tm_vector_bytes(cg->tm, cg->o);
  return cg->vector_bytes;
}

int cg_tm_vector_bytes(LLVMTargetMachineRef tm, const CompileOptions *o) {
  /* A named CPU's features are implied by its name (the feature string
   * is empty), and the host's are not its. */
  if (o->cpu && !o->features) return cg_probe_vector_bytes(tm);
  char *f = LLVMGetTargetMachineFeatureString(tm);
  if ((!f || !f[0]) && !o->features && !o->triple) {
    LLVMDisposeMessage(f); /* host: ask the host */
    f = LLVMGetHostCPUFeatures();
  }
  int bytes = 16;
  if (f && strstr(f, "+avx512f"))
    bytes = 64;
  else if (f && strstr(f, "+avx"))
    bytes = 32;
  LLVMDisposeMessage(f);
  return bytes;
}

/* ------------------------------------------------------------------------ */
/* LLVM functions: entry block for allocas and buffer pointers, body after  */

CgFnState cg_save_fn(CG *cg) {
  return (CgFnState){cg->llfn, cg->frame, cg->buf, cg->scalar,
                     cg->bases, cg->nbases, LLVMGetInsertBlock(cg->b)};
}

void cg_restore_fn(CG *cg, const CgFnState *s) {
  cg->llfn = s->llfn;
  cg->frame = s->frame;
  cg->buf = s->buf;
  cg->scalar = s->scalar;
  cg->bases = s->bases;
  cg->nbases = s->nbases;
  LLVMPositionBuilderAtEnd(cg->b, s->block);
}

void cg_fn_begin(CG *cg, LLVMValueRef fn) {
  int n = cg->fn->next_value_id + 1;
  cg->llfn = fn;
  cg->buf = calloc((size_t)n, sizeof *cg->buf);
  cg->scalar = calloc((size_t)n, sizeof *cg->scalar);
  /* Distinct buffers: at most one per value, plus the result slots. */
  cg->bases = calloc((size_t)(n + cg->fn->nresults + 1), sizeof *cg->bases);
  cg->nbases = 0;
  if (!cg->buf || !cg->scalar || !cg->bases) abort();
  LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(cg->ctx, fn, "entry");
  LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(cg->ctx, fn, "body");
  (void)entry;
  LLVMPositionBuilderAtEnd(cg->b, body);
}

void cg_fn_end(CG *cg) {
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(cg->llfn);
  LLVMBasicBlockRef body = LLVMGetNextBasicBlock(entry);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(cg->ctx);
  LLVMPositionBuilderAtEnd(b, entry);
  LLVMBuildBr(b, body);
  LLVMDisposeBuilder(b);
  free(cg->buf);
  free(cg->scalar);
  free(cg->bases);
  cg->buf = cg->scalar = NULL;
  cg->bases = NULL;
  cg->nbases = 0;
}

LLVMValueRef cg_entry_alloca(CG *cg, LLVMTypeRef t, const char *name) {
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(cg->llfn);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(cg->ctx);
  LLVMValueRef first = LLVMGetFirstInstruction(entry);
  if (first)
    LLVMPositionBuilderBefore(b, first);
  else
    LLVMPositionBuilderAtEnd(b, entry);
  LLVMValueRef a = LLVMBuildAlloca(b, t, name);
  LLVMDisposeBuilder(b);
  return a;
}

/* ------------------------------------------------------------------------ */
/* Counted loops                                                             */

LLVMValueRef cg_loop_step(CG *cg, CgLoop *l, LLVMValueRef lo, LLVMValueRef hi,
                          int64_t step) {
  LLVMBasicBlockRef pre = LLVMGetInsertBlock(cg->b);
  l->header = LLVMAppendBasicBlockInContext(cg->ctx, cg->llfn, "loop");
  l->body = LLVMAppendBasicBlockInContext(cg->ctx, cg->llfn, "loop.body");
  l->exit = LLVMAppendBasicBlockInContext(cg->ctx, cg->llfn, "loop.exit");
  l->step = step;
  LLVMBuildBr(cg->b, l->header);
  LLVMPositionBuilderAtEnd(cg->b, l->header);
  l->iv = LLVMBuildPhi(cg->b, cg->t_i64, "i");
  LLVMAddIncoming(l->iv, &lo, &pre, 1);
  LLVMValueRef more = LLVMBuildICmp(cg->b, LLVMIntSLT, l->iv, hi, "");
  LLVMBuildCondBr(cg->b, more, l->body, l->exit);
  LLVMPositionBuilderAtEnd(cg->b, l->body);
  return l->iv;
}

LLVMValueRef cg_loop_begin(CG *cg, CgLoop *l, LLVMValueRef lo, LLVMValueRef hi) {
  return cg_loop_step(cg, l, lo, hi, 1);
}

/* Marks the loop ended by br as written in vectors by codegen: neither
 * vectorized nor unrolled by LLVM, which would only grow it and spend
 * compile time (optsplit.c, "Where the time goes"). */
static void cg_loop_vector(CG *cg, LLVMValueRef br) {
  LLVMMetadataRef opts[2];
  opts[0] = cg_loop_opt(cg, "llvm.loop.vectorize.enable", 0);
  opts[1] = cg_loop_opt(cg, "llvm.loop.unroll.disable", -1);
  cg_loop_id(cg, br, opts, 2);
}

/* The increment cannot wrap: iv < hi, and step is far below 2^63 - hi. */
void cg_loop_end(CG *cg, CgLoop *l) {
  LLVMBasicBlockRef latch = LLVMGetInsertBlock(cg->b);
  LLVMValueRef next = cg_nowrap(LLVMBuildAdd(cg->b, l->iv, cg_i64(cg, l->step), "i.next"));
  LLVMValueRef br = LLVMBuildBr(cg->b, l->header);
  if (cg->vector_loops) cg_loop_vector(cg, br);
  LLVMAddIncoming(l->iv, &next, &latch, 1);
  LLVMPositionBuilderAtEnd(cg->b, l->exit);
}

LLVMMetadataRef cg_loop_opt(CG *cg, const char *key, int val) {
  LLVMMetadataRef ops[2] = {LLVMMDStringInContext2(cg->ctx, key, strlen(key)), NULL};
  if (val < 0) return LLVMMDNodeInContext2(cg->ctx, ops, 1);
  ops[1] = LLVMValueAsMetadata(LLVMConstInt(cg->t_i1, (unsigned long long)val, 0));
  return LLVMMDNodeInContext2(cg->ctx, ops, 2);
}

void cg_loop_id(CG *cg, LLVMValueRef br, LLVMMetadataRef *opts, int n) {
  LLVMContextRef c = cg->ctx;
  LLVMMetadataRef ops[n + 1];
  ops[0] = LLVMTemporaryMDNode(c, NULL, 0);
  for (int i = 0; i < n; i++) ops[i + 1] = opts[i];
  LLVMMetadataRef id = LLVMMDNodeInContext2(c, ops, (size_t)n + 1);
  LLVMMetadataReplaceAllUsesWith(ops[0], id);
  LLVMSetMetadata(br, LLVMGetMDKindIDInContext(c, "llvm.loop", 9), LLVMMetadataAsValue(c, id));
}

/* ------------------------------------------------------------------------ */
/* if / else                                                                 */

void cg_if_begin(CG *cg, CgIf *s, LLVMValueRef cond) {
  LLVMBasicBlockRef then = LLVMAppendBasicBlockInContext(cg->ctx, cg->llfn, "if.then");
  s->join = LLVMAppendBasicBlockInContext(cg->ctx, cg->llfn, "if.end");
  s->else_end = LLVMGetInsertBlock(cg->b);
  s->then_end = NULL;
  s->br = LLVMBuildCondBr(cg->b, cond, then, s->join);
  LLVMPositionBuilderAtEnd(cg->b, then);
}

/* The else block goes before the join, as if both had been made with the
 * then block. */
void cg_if_else(CG *cg, CgIf *s) {
  s->then_end = LLVMGetInsertBlock(cg->b);
  LLVMBuildBr(cg->b, s->join);
  LLVMBasicBlockRef els = LLVMInsertBasicBlockInContext(cg->ctx, s->join, "if.else");
  LLVMSetSuccessor(s->br, 1, els);
  LLVMPositionBuilderAtEnd(cg->b, els);
}

void cg_if_end(CG *cg, CgIf *s) {
  if (s->then_end)
    s->else_end = LLVMGetInsertBlock(cg->b);
  else
    s->then_end = LLVMGetInsertBlock(cg->b);
  LLVMBuildBr(cg->b, s->join);
  LLVMPositionBuilderAtEnd(cg->b, s->join);
}

/* ------------------------------------------------------------------------ */
/* Intrinsics                                                                */

LLVMValueRef cg_intrinsic(LLVMBuilderRef b, const char *name, LLVMTypeRef *tys, int ntys,
                          LLVMValueRef *args, int nargs) {
  unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
  assert(id != 0);
  LLVMModuleRef mod = LLVMGetGlobalParent(LLVMGetBasicBlockParent(LLVMGetInsertBlock(b)));
  LLVMValueRef fn = LLVMGetIntrinsicDeclaration(mod, id, tys, (size_t)ntys);
  LLVMTypeRef fty = LLVMIntrinsicGetType(LLVMGetModuleContext(mod), id, tys, (size_t)ntys);
  return LLVMBuildCall2(b, fty, fn, args, (unsigned)nargs, "");
}

LLVMValueRef cg_masked_load(CG *cg, LLVMBuilderRef b, LLVMTypeRef vt, LLVMValueRef ptr,
                            unsigned align, LLVMValueRef mask) {
  LLVMTypeRef tys[2] = {vt, cg->t_ptr};
  LLVMValueRef a[4] = {ptr, LLVMConstInt(cg->t_i32, align, 0), mask, LLVMConstNull(vt)};
  return cg_intrinsic(b, "llvm.masked.load", tys, 2, a, 4);
}

void cg_masked_store(CG *cg, LLVMBuilderRef b, LLVMValueRef v, LLVMValueRef ptr, unsigned align,
                     LLVMValueRef mask) {
  LLVMTypeRef tys[2] = {LLVMTypeOf(v), cg->t_ptr};
  LLVMValueRef a[4] = {v, ptr, LLVMConstInt(cg->t_i32, align, 0), mask};
  cg_intrinsic(b, "llvm.masked.store", tys, 2, a, 4);
}

LLVMValueRef cg_intr1(CG *cg, const char *name, LLVMValueRef x) {
  LLVMTypeRef t = LLVMTypeOf(x);
  return cg_intrinsic(cg->b, name, &t, 1, &x, 1);
}

LLVMValueRef cg_intr2(CG *cg, const char *name, LLVMValueRef x, LLVMValueRef y) {
  LLVMTypeRef t = LLVMTypeOf(x);
  LLVMValueRef args[2] = {x, y};
  return cg_intrinsic(cg->b, name, &t, 1, args, 2);
}
