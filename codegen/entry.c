/*
 * entry.c: the entry function of a public function,
 *
 *   int32_t P_F(ptr arg..., ptr result..., ptr temp)
 *
 * which builds the frame (codegen.h), then walks the function body in
 * order: kernel roots become kernel calls, control flow (while, if, case)
 * becomes branches around the kernels of its regions, check ops call the
 * runtime, and func.return copies results that were not computed in place.
 * It returns 0, or the status of the first runtime call that fails (a
 * failed check: 1), or with --check-args 2 for a NULL or misaligned buffer
 * (before any work). With packed_entry, also
 *
 *   int32_t P_F__packed(ptr args)   (args: arg..., result..., temp)
 *
 * for callers that hold the pointers in an array (shloc run/check/bench).
 * An entry whose body calls the grid ABI (ir_func_needs_proc) takes the
 * process context as one more, last parameter and comes with
 *
 *   int32_t P_F__grid(ptr args, ptr proc)   (a shlort_entry)
 *
 * instead of __packed (codegen/collectives.c emits those calls).
 */
#include <stdlib.h>
#include <string.h>

#include "codegen.h"

static Op *emit_block(CG *cg, Block *blk);

/* ------------------------------------------------------------------------ */
/* Runtime calls                                                             */

LLVMValueRef cg_runtime_fn(CG *cg, const char *name, LLVMTypeRef ret, LLVMTypeRef *params,
                           int n, LLVMTypeRef *fty) {
  *fty = LLVMFunctionType(ret, params, (unsigned)n, 0);
  LLVMValueRef f = LLVMGetNamedFunction(cg->mod, name);
  return f ? f : LLVMAddFunction(cg->mod, name, *fty);
}

void cg_return_if_failed(CG *cg, LLVMValueRef status) {
  LLVMBasicBlockRef fail = LLVMAppendBasicBlockInContext(cg->ctx, cg->llfn, "call.fail");
  LLVMBasicBlockRef ok = LLVMAppendBasicBlockInContext(cg->ctx, cg->llfn, "call.ok");
  LLVMValueRef bad = LLVMBuildICmp(cg->b, LLVMIntNE, status, LLVMConstNull(cg->t_i32), "");
  LLVMBuildCondBr(cg->b, bad, fail, ok);
  LLVMPositionBuilderAtEnd(cg->b, fail);
  LLVMBuildRet(cg->b, status);
  LLVMPositionBuilderAtEnd(cg->b, ok);
}

/* The expected buffer of a check: the second operand or the literal. */
static LLVMValueRef expected_buffer(CG *cg, Op *op) {
  if (op->nopnds > 1) return cg_buffer(cg, op->opnds[1]);
  /* In the arena, not a fixed buffer: a function name long enough to cut
   * the counter off would make every candidate name taken (a hang). */
  char *name;
  for (int k = 0;; k++) {
    name = arena_printf(&cg->m->arena, "%s.expected%d", cg->fn->name, k);
    if (!LLVMGetNamedGlobal(cg->mod, name)) break;
  }
  return cg_dense_global(cg, op->a.value, name);
}

/* Whether a check's operands are ones codegen handles, its expected
 * literal (for the *_const forms) one of the operand's type and size. */
static bool check_ok(CG *cg, Op *op) {
  if (!cg_check_types(cg, op)) return false;
  Value *a = op->opnds[0];
  const DenseData *lit = op->a.value;
  if (op->nopnds == 1 && (!lit || lit->type->elem != a->type->elem ||
                          type_num_elems(lit->type) != type_num_elems(a->type))) {
    cg_unsupported(cg, op, "expected literal missing or of another type");
    return false;
  }
  return true;
}

/* Calls the runtime comparison `name`(elem, actual, expected, count,
 * extra...) and returns 1 from the entry when it fails. */
static void call_check(CG *cg, Op *op, const char *name, int nextra, LLVMTypeRef *xt,
                       LLVMValueRef *xv) {
  Value *a = op->opnds[0];
  LLVMValueRef actual = cg_buffer(cg, a);
  LLVMValueRef args[6] = {LLVMConstInt(cg->t_i32, (unsigned)a->type->elem, 0), actual,
                          expected_buffer(cg, op),
                          cg_i64(cg, type_num_elems(a->type))};
  LLVMTypeRef params[6] = {cg->t_i32, cg->t_ptr, cg->t_ptr, cg->t_i64};
  for (int k = 0; k < nextra; k++) {
    params[4 + k] = xt[k];
    args[4 + k] = xv[k];
  }
  LLVMTypeRef fty;
  LLVMValueRef f = cg_runtime_fn(cg, name, cg->t_i32, params, 4 + nextra, &fty);
  cg_return_if_failed(cg, LLVMBuildCall2(cg->b, fty, f, args, (unsigned)(4 + nextra), ""));
}

/* check.* ops of the conformance protocol (conformance README): the
 * runtime compares the buffers. check.eq (custom_call @check.eq) returns
 * the comparison as an i1 tensor instead of failing. */
static void emit_check_eq(CG *cg, Op *op) {
  if (!check_ok(cg, op)) return;
  call_check(cg, op, "shlort_check_eq", 0, NULL, NULL);
  /* check.eq also returns its comparison; the corpus uses it as an
   * assertion (upstream FileChecks the printed `true`), so a mismatch fails
   * the case above and the value stored here is always true. */
  if (op->code == OP_CHECK_EQ)
    cg_store(cg, cg_buffer(cg, op->results[0]), ET_I1, cg_i64(cg, 0), LLVMConstInt(cg->t_i1, 1, 0));
}

static void emit_check_almost_eq(CG *cg, Op *op) {
  if (!check_ok(cg, op)) return;
  LLVMTypeRef t = cg->t_f64;
  LLVMValueRef tol = LLVMConstReal(cg->t_f64, op->a.tolerance);
  call_check(cg, op, "shlort_check_almost_eq", 1, &t, &tol);
}

static void emit_check_close(CG *cg, Op *op) {
  if (!check_ok(cg, op)) return;
  LLVMTypeRef t[2] = {cg->t_i64, cg->t_i64};
  LLVMValueRef ulps[2] = {cg_i64(cg, op->a.max_ulp), cg_i64(cg, op->a.min_ulp)};
  call_check(cg, op, "shlort_check_close", 2, t, ulps);
}

/* interpreter.probe: records its operand for check.expect_serialized_eq
 * (runtime/probe.c) and returns it. */
static void emit_probe(CG *cg, Op *op) {
  if (!cg_check_types(cg, op)) return;
  Value *x = op->opnds[0];
  cg_kernel_copy(cg, x, op->results[0]);
  LLVMValueRef id = LLVMBuildGlobalStringPtr(cg->b, op->a.probe_id, "probe.id");
  LLVMValueRef args[3] = {id, cg_buffer(cg, x), cg_i64(cg, type_byte_size(x->type))};
  LLVMTypeRef params[3] = {cg->t_ptr, cg->t_ptr, cg->t_i64}, fty;
  LLVMValueRef f = cg_runtime_fn(cg, "shlort_probe", cg->t_i32, params, 3, &fty);
  cg_return_if_failed(cg, LLVMBuildCall2(cg->b, fty, f, args, 3, ""));
}

/* check.expect_serialized_eq: the operand against a probed value. */
static void emit_serialized_check(CG *cg, Op *op) {
  if (!cg_check_types(cg, op)) return;
  Value *x = op->opnds[0];
  LLVMValueRef id = LLVMBuildGlobalStringPtr(cg->b, op->a.probe_id, "probe.id");
  LLVMValueRef args[5] = {id, cg_i64(cg, op->a.probe_iter),
                          LLVMConstInt(cg->t_i32, (unsigned)x->type->elem, 0),
                          cg_buffer(cg, x), cg_i64(cg, type_num_elems(x->type))};
  LLVMTypeRef params[5] = {cg->t_ptr, cg->t_i64, cg->t_i32, cg->t_ptr, cg->t_i64}, fty;
  LLVMValueRef f = cg_runtime_fn(cg, "shlort_check_serialized_eq", cg->t_i32, params, 5, &fty);
  cg_return_if_failed(cg, LLVMBuildCall2(cg->b, fty, f, args, 5, ""));
}

/* ------------------------------------------------------------------------ */
/* Control flow                                                              */

/* The copy of each region result into the op's result buffers. */
static void copy_results(CG *cg, Op *term, Value **dsts) {
  for (int i = 0; i < term->nopnds; i++) cg_kernel_copy(cg, term->opnds[i], dsts[i]);
}

static LLVMBasicBlockRef new_block(CG *cg, const char *name) {
  return LLVMAppendBasicBlockInContext(cg->ctx, cg->llfn, name);
}

/* spec "while": the carried values live in the results' buffers, which the
 * cond and body block arguments share (buffers pass). */
static void emit_while(CG *cg, Op *op) {
  if (!cg_check_types(cg, op)) return;
  copy_results(cg, op, op->results); /* operands are the initial values */
  LLVMBasicBlockRef cond = new_block(cg, "while.cond");
  LLVMBasicBlockRef body = new_block(cg, "while.body");
  LLVMBasicBlockRef exit = new_block(cg, "while.exit");
  LLVMBuildBr(cg->b, cond);
  LLVMPositionBuilderAtEnd(cg->b, cond);
  Op *t = emit_block(cg, op->regions[0]->blocks[0]);
  LLVMValueRef pred = cg_value_at(cg, t->opnds[0], NULL);
  LLVMBuildCondBr(cg->b, pred, body, exit);
  LLVMPositionBuilderAtEnd(cg->b, body);
  Block *bb = op->regions[1]->blocks[0];
  t = emit_block(cg, bb);
  for (int i = 0; i < t->nopnds; i++)
    if (t->opnds[i] != bb->args[i]) cg_kernel_copy(cg, t->opnds[i], op->results[i]);
  LLVMBuildBr(cg->b, cond);
  LLVMPositionBuilderAtEnd(cg->b, exit);
}

/* Emits region r's block and copies its results into op's. */
static void emit_region(CG *cg, Op *op, Region *r) {
  Op *t = emit_block(cg, r->blocks[0]);
  copy_results(cg, t, op->results);
}

/* spec "if". */
static void emit_if(CG *cg, Op *op) {
  if (!cg_check_types(cg, op)) return;
  CgIf s;
  cg_if_begin(cg, &s, cg_value_at(cg, op->opnds[0], NULL));
  emit_region(cg, op, op->regions[0]);
  cg_if_else(cg, &s);
  emit_region(cg, op, op->regions[1]);
  cg_if_end(cg, &s);
}

/* spec "case": branches[index], or the last branch when index is out of
 * range. */
static void emit_case(CG *cg, Op *op) {
  if (!cg_check_types(cg, op)) return;
  int n = op->nregions;
  LLVMValueRef index = cg_value_at(cg, op->opnds[0], NULL);
  LLVMBasicBlockRef merge = new_block(cg, "case.end");
  LLVMBasicBlockRef bbs[n];
  for (int k = 0; k < n; k++) bbs[k] = new_block(cg, "case.branch");
  LLVMValueRef sw = LLVMBuildSwitch(cg->b, index, bbs[n - 1], (unsigned)(n - 1));
  for (int k = 0; k < n - 1; k++)
    LLVMAddCase(sw, LLVMConstInt(LLVMTypeOf(index), (unsigned)k, 0), bbs[k]);
  for (int k = 0; k < n; k++) {
    LLVMPositionBuilderAtEnd(cg->b, bbs[k]);
    emit_region(cg, op, op->regions[k]);
    LLVMBuildBr(cg->b, merge);
  }
  LLVMPositionBuilderAtEnd(cg->b, merge);
}

/* ------------------------------------------------------------------------ */
/* Blocks                                                                    */

/* Whether some result of op has a buffer to compute into. */
static bool has_buffer(Op *op) {
  for (int i = 0; i < op->nresults; i++) {
    Storage s = op->results[i]->storage;
    if (s == ST_TEMP || s == ST_RESULT) return true;
  }
  return false;
}

/* The ops emitted in the entry function itself (ir_is_entry_op, and
 * interpreter.probe); the other ops are kernels. */
/* Tokens carry no data (spec "after_all"): nothing to emit. */
static void emit_token(CG *cg, Op *op) { (void)cg, (void)op; }

static void (*const EMIT[OP_COUNT])(CG *cg, Op *op) = {
    [OP_AFTER_ALL] = emit_token,
    [OP_CREATE_TOKEN] = emit_token,
    [OP_REPLICA_ID] = cg_emit_runtime_op,
    [OP_PARTITION_ID] = cg_emit_runtime_op,
    [OP_ALL_GATHER] = cg_emit_runtime_op,
    [OP_ALL_REDUCE] = cg_emit_runtime_op,
    [OP_ALL_TO_ALL] = cg_emit_runtime_op,
    [OP_REDUCE_SCATTER] = cg_emit_runtime_op,
    [OP_COLLECTIVE_BROADCAST] = cg_emit_runtime_op,
    [OP_COLLECTIVE_PERMUTE] = cg_emit_runtime_op,
    [OP_COLLECTIVE_REDUCE] = cg_emit_runtime_op,
    [OP_SEND] = cg_emit_runtime_op,
    [OP_RECV] = cg_emit_runtime_op,
    [OP_INFEED] = cg_emit_runtime_op,
    [OP_OUTFEED] = cg_emit_runtime_op,
    [OP_RNG] = cg_emit_runtime_op,
    [OP_INTERPRETER_RUN_PARALLEL] = cg_emit_run_parallel,
    [OP_CASE] = emit_case,
    [OP_IF] = emit_if,
    [OP_WHILE] = emit_while,
    [OP_CHECK_EQ] = emit_check_eq,
    [OP_CHECK_EXPECT_EQ] = emit_check_eq,
    [OP_CHECK_EXPECT_EQ_CONST] = emit_check_eq,
    [OP_CHECK_EXPECT_ALMOST_EQ] = emit_check_almost_eq,
    [OP_CHECK_EXPECT_ALMOST_EQ_CONST] = emit_check_almost_eq,
    [OP_CHECK_EXPECT_CLOSE] = emit_check_close,
    [OP_CHECK_EXPECT_SERIALIZED_EQ] = emit_serialized_check,
    [OP_INTERPRETER_PROBE] = emit_probe,
};

static void emit_op(CG *cg, Op *op) {
  if (op->fused || op->alias || op->leader) return; /* leader: computed in its kernel */
  if (EMIT[op->code]) {
    EMIT[op->code](cg, op);
    return;
  }
  /* Tuples, calls and custom calls that the passes did not rewrite. */
  if (ir_is_entry_op(op->code)) {
    cg_unsupported(cg, op, NULL);
    return;
  }
  /* Constants live in the object; values nobody reads need no kernel. */
  if (!has_buffer(op)) return;
  cg_kernel(cg, op);
}

/* Emits every op of blk but its terminator, which it returns. */
static Op *emit_block(CG *cg, Block *blk) {
  for (Op *op = blk->first; op; op = op->next) {
    if (op_flags(op->code) & OPF_TERMINATOR) return op;
    emit_op(cg, op);
  }
  fprintf(stderr, "shloc: internal error: block without terminator\n");
  abort();
}

/* func.return: results not already computed in place are copied. */
static void emit_return(CG *cg, Op *ret) {
  if (cg_check_types(cg, ret))
    for (int i = 0; i < ret->nopnds; i++) {
      Value *v = ret->opnds[i];
      Value dst = {.type = v->type, .storage = ST_RESULT, .offset = i, .id = -1};
      if (type_is_tensor(v->type)) cg_kernel_copy(cg, v, &dst); /* tokens: no data */
    }
  LLVMBuildRet(cg->b, LLVMConstInt(cg->t_i32, 0, 0));
}

/* ------------------------------------------------------------------------ */
/* The entry function                                                        */

static void add_param_attrs(CG *cg, LLVMValueRef fn, unsigned i, bool nonnull) {
  const char *names[2] = {"noalias", "nonnull"};
  for (int k = 0; k < (nonnull ? 2 : 1); k++) {
    unsigned kind = LLVMGetEnumAttributeKindForName(names[k], strlen(names[k]));
    LLVMAddAttributeAtIndex(fn, i + 1, LLVMCreateEnumAttribute(cg->ctx, kind, 0));
  }
}

static int64_t param_bytes(Func *f, int i) {
  int nargs = f->body->nargs;
  if (i < nargs) return type_byte_size(f->body->args[i]->type);
  if (i < nargs + f->nresults) return type_byte_size(f->result_types[i - nargs]);
  return f->temp_bytes;
}

/* The alignment the code assumes of param i: its element's, 64 for temp. */
static uint64_t param_align(Func *f, int i) {
  int nargs = f->body->nargs;
  if (i < nargs) return cg_elem_align(f->body->args[i]->type->elem);
  if (i < nargs + f->nresults) return cg_elem_align(f->result_types[i - nargs]->elem);
  return 64;
}

/* --check-args: returns SHLOC_BAD_ARGUMENT (2) before any work when a
 * buffer of non-zero size is NULL or not aligned as the header's contract
 * says (entry_fn then omits `nonnull`, which would fold the test away). */
static void check_params(CG *cg, Func *f, LLVMValueRef fn, int nframe) {
  LLVMValueRef bad = LLVMConstInt(cg->t_i1, 0, 0);
  for (int i = 0; i < nframe; i++) {
    if (param_bytes(f, i) <= 0) continue;
    LLVMValueRef p = LLVMBuildPtrToInt(cg->b, LLVMGetParam(fn, (unsigned)i), cg->t_i64, "");
    LLVMValueRef low = LLVMBuildAnd(cg->b, p, cg_i64(cg, (int64_t)param_align(f, i) - 1), "");
    LLVMValueRef misaligned = LLVMBuildICmp(cg->b, LLVMIntNE, low, cg_i64(cg, 0), "");
    LLVMValueRef null = LLVMBuildICmp(cg->b, LLVMIntEQ, p, cg_i64(cg, 0), "");
    bad = LLVMBuildOr(cg->b, bad, LLVMBuildOr(cg->b, null, misaligned, ""), "");
  }
  LLVMBasicBlockRef fail = LLVMAppendBasicBlockInContext(cg->ctx, fn, "args.bad");
  LLVMBasicBlockRef ok = LLVMAppendBasicBlockInContext(cg->ctx, fn, "args.ok");
  LLVMBuildCondBr(cg->b, bad, fail, ok);
  LLVMPositionBuilderAtEnd(cg->b, fail);
  LLVMBuildRet(cg->b, LLVMConstInt(cg->t_i32, 2, 0));
  LLVMPositionBuilderAtEnd(cg->b, ok);
}

/* nparams pointers: the frame's nframe, then the process context. */
static LLVMValueRef entry_fn(CG *cg, Func *f, const char *name, int nparams, int nframe,
                             LLVMTypeRef *fty) {
  LLVMTypeRef params[nparams];
  for (int i = 0; i < nparams; i++) params[i] = cg->t_ptr;
  *fty = LLVMFunctionType(cg->t_i32, params, (unsigned)nparams, 0);
  LLVMValueRef fn = LLVMAddFunction(cg->mod, name, *fty);
  cg_set_fn_attrs(cg, fn);
  /* Empty buffers may be NULL; others point at caller memory (checked at
   * run time with --check-args, so not declared `nonnull` then). */
  for (int i = 0; i < nframe; i++)
    add_param_attrs(cg, fn, (unsigned)i, param_bytes(f, i) > 0 && !cg->o->check_args);
  return fn;
}

/* frame[i] = param i (codegen.h: args, results, temp arena). */
static void build_frame(CG *cg, LLVMValueRef fn, int nparams) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(cg->ctx);
  LLVMPositionBuilderAtEnd(b, LLVMGetEntryBasicBlock(fn));
  LLVMTypeRef at = LLVMArrayType2(cg->t_ptr, (uint64_t)nparams);
  cg->frame = LLVMBuildAlloca(b, at, "frame");
  for (int i = 0; i < nparams; i++) {
    LLVMValueRef idx = cg_i64(cg, i);
    LLVMValueRef slot = LLVMBuildInBoundsGEP2(b, cg->t_ptr, cg->frame, &idx, 1, "");
    LLVMBuildStore(b, LLVMGetParam(fn, (unsigned)i), slot);
  }
  LLVMDisposeBuilder(b);
}

/* P_F__packed(ptr args), or for an entry with a process context
 * P_F__grid(ptr args, ptr proc), the type of shlort_entry: args holds the
 * nframe pointers of the frame (arguments, results, temp). */
static void emit_packed(CG *cg, const char *name, LLVMValueRef entry, LLVMTypeRef fty,
                        int nframe, bool grid) {
  char pname[strlen(name) + 16];
  snprintf(pname, sizeof pname, "%s__%s", name, grid ? "grid" : "packed");
  LLVMTypeRef params[2] = {cg->t_ptr, cg->t_ptr};
  LLVMTypeRef pty = LLVMFunctionType(cg->t_i32, params, grid ? 2 : 1, 0);
  LLVMValueRef fn = LLVMAddFunction(cg->mod, pname, pty);
  cg_set_fn_attrs(cg, fn);
  LLVMPositionBuilderAtEnd(cg->b, LLVMAppendBasicBlockInContext(cg->ctx, fn, "entry"));
  LLVMValueRef args[nframe + 1];
  for (int i = 0; i < nframe; i++) {
    LLVMValueRef idx = cg_i64(cg, i);
    LLVMValueRef p = LLVMBuildInBoundsGEP2(cg->b, cg->t_ptr, LLVMGetParam(fn, 0), &idx, 1, "");
    args[i] = LLVMBuildLoad2(cg->b, cg->t_ptr, p, "");
  }
  if (grid) args[nframe] = LLVMGetParam(fn, 1);
  LLVMBuildRet(cg->b, LLVMBuildCall2(cg->b, fty, entry, args, (unsigned)(nframe + grid), ""));
}

void cg_entry(CG *cg, Func *f) {
  if (f->sym) {
    cg_symbolic_entry(cg, f);
    return;
  }
  cg->fn = f;
  ir_number_values(f);
  const char *name = cg_entry_name(&cg->m->arena, cg->o, f);
  int nframe = f->body->nargs + f->nresults + 1;
  bool grid = ir_func_needs_proc(f);
  LLVMTypeRef fty;
  LLVMValueRef fn = entry_fn(cg, f, name, nframe + grid, nframe, &fty);
  cg_fn_begin(cg, fn);
  build_frame(cg, fn, nframe);
  if (cg->o->check_args) check_params(cg, f, fn, nframe);
  cg->proc = grid ? LLVMGetParam(fn, (unsigned)nframe) : NULL;
  if (grid) cg_emit_grid_check(cg, f);
  Op *ret = emit_block(cg, f->body);
  emit_return(cg, ret);
  cg_fn_end(cg);
  cg->proc = NULL;
  if (grid || cg->o->packed_entry) emit_packed(cg, name, fn, fty, nframe, grid);
}
