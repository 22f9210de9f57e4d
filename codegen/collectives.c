/*
 * collectives.c: the ops that call the runtime's grid ABI (runtime/shlort.h,
 * docs/runtime.md): replica_id, partition_id, the collectives, send/recv,
 * infeed/outfeed and rng, emitted in the entry function in program order
 * (they are OPF_ENTRY, so their operands and results are in buffers). Each
 * call gets the entry's process context (CG.proc) and a constant shlort_op
 * naming the op and its location; a non-zero status returns from the entry
 * at once (its message is in the context). Tokens carry no data and are
 * never passed (spec "after_all": effects are ordered by program order,
 * which respects token dataflow).
 *
 * Also interpreter.run_parallel (conformance protocol, `shloc check` only):
 * a call of the host's shloc_run_parallel (tools/grid_*.c), which runs the
 * grid and returns its status.
 */
#include <stdlib.h>
#include <string.h>

#include "codegen.h"

/* ------------------------------------------------------------------------ */
/* Constants the calls take                                                  */

static LLVMValueRef private_const(CG *cg, LLVMValueRef init, const char *name) {
  LLVMValueRef g = LLVMAddGlobal(cg->mod, LLVMTypeOf(init), name);
  LLVMSetInitializer(g, init);
  LLVMSetGlobalConstant(g, 1);
  LLVMSetLinkage(g, LLVMPrivateLinkage);
  LLVMSetUnnamedAddress(g, LLVMGlobalUnnamedAddr);
  return g;
}

LLVMValueRef cg_const_string(CG *cg, const char *s) {
  return private_const(cg, LLVMConstStringInContext(cg->ctx, s, (unsigned)strlen(s), 0), "str");
}

/* An i64 array constant, or a null pointer when n is 0. */
static LLVMValueRef const_i64s(CG *cg, const int64_t *v, int64_t n) {
  if (n == 0) return LLVMConstNull(cg->t_ptr);
  LLVMValueRef *elems = ARENA_ARRAY(&cg->m->arena, LLVMValueRef, n);
  for (int64_t i = 0; i < n; i++) elems[i] = cg_i64(cg, v[i]);
  return private_const(cg, LLVMConstArray2(cg->t_i64, elems, (uint64_t)n), "ids");
}

/* shlort_op {name, loc}: "stablehlo.all_reduce", "file.mlir:12:5". */
static LLVMValueRef named_desc(CG *cg, const char *name, Loc at) {
  const char *file = at.file ? at.file->name : "?";
  const char *loc = arena_printf(&cg->m->arena, "%s:%d:%d", file, at.line, at.col);
  LLVMValueRef name_str = cg_const_string(cg, name);
  LLVMValueRef f[2] = {name_str, cg_const_string(cg, loc)};
  return private_const(cg, LLVMConstStructInContext(cg->ctx, f, 2, 0), "shlort.op");
}

static LLVMValueRef op_desc(CG *cg, Op *op) { return named_desc(cg, op_name(op->code), op->loc); }

/* shlort_groups {ids, rows, cols, channel_id, use_global_device_ids} from
 * the op's attributes as written (the runtime applies the spec's rules). */
static LLVMValueRef groups_desc(CG *cg, Op *op) {
  const DenseData *d = op->a.replica_groups;
  int64_t rows = d ? d->type->dims[0] : 0, cols = d ? d->type->dims[1] : 0;
  int64_t n = rows * cols;
  int64_t *ids = ARENA_ARRAY(&cg->m->arena, int64_t, n > 0 ? n : 1);
  for (int64_t i = 0; i < n; i++) ids[i] = dense_get_i64(d, i);
  LLVMValueRef f[5] = {const_i64s(cg, ids, n), cg_i64(cg, rows), cg_i64(cg, cols),
                       cg_i64(cg, op->a.channel.handle),
                       LLVMConstInt(cg->t_i32, op->a.use_global_device_ids, 0)};
  return private_const(cg, LLVMConstStructInContext(cg->ctx, f, 5, 0), "shlort.groups");
}

/* shlort_tensor {data, dims, rank, elem} */
static LLVMTypeRef tensor_type(CG *cg) {
  LLVMTypeRef f[4] = {cg->t_ptr, cg->t_ptr, cg->t_i32, cg->t_i32};
  return LLVMStructTypeInContext(cg->ctx, f, 4, 0);
}

/* An array of shlort_tensor for the tensor values of vals (tokens are
 * skipped), in the entry's stack frame; *n is their count. */
static LLVMValueRef tensors(CG *cg, Value **vals, int nvals, int32_t *n) {
  LLVMTypeRef tt = tensor_type(cg);
  *n = 0;
  for (int i = 0; i < nvals; i++) *n += type_is_tensor(vals[i]->type);
  LLVMValueRef arr = cg_entry_alloca(cg, LLVMArrayType2(tt, (uint64_t)(*n ? *n : 1)), "tensors");
  for (int i = 0, k = 0; i < nvals; i++) {
    const Type *t = vals[i]->type;
    if (!type_is_tensor(t)) continue;
    LLVMValueRef idx[2] = {cg_i64(cg, 0), cg_i64(cg, k++)};
    LLVMValueRef at = LLVMBuildInBoundsGEP2(cg->b, LLVMArrayType2(tt, (uint64_t)*n), arr, idx, 2, "");
    LLVMValueRef buf = cg_buffer(cg, vals[i]);
    LLVMValueRef f[4] = {buf, const_i64s(cg, t->dims, t->rank),
                         LLVMConstInt(cg->t_i32, (unsigned)t->rank, 0),
                         LLVMConstInt(cg->t_i32, (unsigned)t->elem, 0)};
    for (unsigned j = 0; j < 4; j++)
      LLVMBuildStore(cg->b, f[j], LLVMBuildStructGEP2(cg->b, tt, at, j, ""));
  }
  return arr;
}

/* ------------------------------------------------------------------------ */
/* Reduction regions                                                         */

/* The op's region as a shlort_combine_fn, internal to the object:
 *   void combine(ptr ctx, ptr acc, ptr x, i64 n): acc[i] = region(acc[i], x[i])
 * on the region's element type E (spec all_reduce: `computation` has type
 * (tensor<E>, tensor<E>) -> tensor<E>). */
static LLVMValueRef combine_fn(CG *cg, Op *op) {
  Block *blk = op->regions[0]->blocks[0];
  ElemType e = blk->args[0]->type->elem;
  LLVMTypeRef params[4] = {cg->t_ptr, cg->t_ptr, cg->t_ptr, cg->t_i64};
  LLVMValueRef fn = LLVMAddFunction(cg->mod, "shlort.combine",
                                    LLVMFunctionType(cg->t_void, params, 4, 0));
  LLVMSetLinkage(fn, LLVMInternalLinkage);
  cg_set_fn_attrs(cg, fn);
  CgFnState st = cg_save_fn(cg);
  cg_fn_begin(cg, fn);
  LLVMValueRef acc = LLVMGetParam(fn, 1), x = LLVMGetParam(fn, 2);
  CgLoop l;
  LLVMValueRef i = cg_loop_begin(cg, &l, cg_i64(cg, 0), LLVMGetParam(fn, 3));
  LLVMValueRef acc_i = cg_load(cg, acc, e, i);
  LLVMValueRef args[2] = {acc_i, cg_load(cg, x, e, i)}, r;
  cg_region_scalar(cg, op->regions[0], args, &r);
  cg_store(cg, acc, e, i, r);
  cg_loop_end(cg, &l);
  LLVMBuildRetVoid(cg->b);
  cg_fn_end(cg);
  cg_restore_fn(cg, &st);
  return fn;
}

/* The region must take one element type, that of the operands and
 * results: promotion (is_promotable, E wider than the operand's type)
 * would need a converted copy of each operand, which is not done. */
static bool region_matches(CG *cg, Op *op) {
  Block *blk = op->regions[0]->blocks[0];
  if (blk->nargs != 2 || !type_is_tensor(blk->args[0]->type)) {
    cg_unsupported(cg, op, "a reduction region of two scalars is required");
    return false;
  }
  ElemType e = blk->args[0]->type->elem;
  for (int i = 0; i < op->nopnds; i++)
    if (op->opnds[i]->type->elem != e || op->results[i]->type->elem != e) {
      cg_unsupported(cg, op, "operands of another element type than the region's "
                             "(promotion) are not supported by codegen yet");
      return false;
    }
  return true;
}

/* ------------------------------------------------------------------------ */
/* Calls                                                                     */

/* Calls `name` (returning i32) and returns from the entry with its status
 * when it is not 0. */
static void call_checked(CG *cg, const char *name, LLVMValueRef *args, int n) {
  LLVMTypeRef params[12];
  for (int i = 0; i < n; i++) params[i] = LLVMTypeOf(args[i]);
  LLVMTypeRef fty;
  LLVMValueRef f = cg_runtime_fn(cg, name, cg->t_i32, params, n, &fty);
  cg_return_if_failed(cg, LLVMBuildCall2(cg->b, fty, f, args, (unsigned)n, ""));
}

static LLVMValueRef i32(CG *cg, int64_t v) { return LLVMConstInt(cg->t_i32, (uint64_t)v, 1); }

/* spec replica_id / partition_id: a tensor<ui32>. */
static void emit_process_id(CG *cg, Op *op) {
  const char *name = op->code == OP_REPLICA_ID ? "shlort_replica_id" : "shlort_partition_id";
  LLVMTypeRef fty;
  LLVMValueRef f = cg_runtime_fn(cg, name, cg->t_i32, &cg->t_ptr, 1, &fty);
  LLVMValueRef id = LLVMBuildCall2(cg->b, fty, f, &cg->proc, 1, "");
  cg_store(cg, cg_buffer(cg, op->results[0]), ET_UI32, cg_i64(cg, 0), id);
}

/* all_reduce, reduce_scatter, collective_reduce: the region as combine. */
static void emit_reduction(CG *cg, Op *op) {
  if (!region_matches(cg, op)) return;
  int32_t n;
  LLVMValueRef in = tensors(cg, op->opnds, op->nopnds, &n);
  LLVMValueRef out = tensors(cg, op->results, op->nresults, &n);
  LLVMValueRef comb = combine_fn(cg, op), ctx = LLVMConstNull(cg->t_ptr);
  LLVMValueRef desc = op_desc(cg, op);
  LLVMValueRef pre[3] = {cg->proc, desc, groups_desc(cg, op)};
  if (op->code == OP_REDUCE_SCATTER) {
    LLVMValueRef a[9] = {pre[0], pre[1], pre[2], cg_i64(cg, op->a.scatter_dimension),
                         i32(cg, n), in, out, comb, ctx};
    call_checked(cg, "shlort_reduce_scatter", a, 9);
    return;
  }
  LLVMValueRef a[8] = {pre[0], pre[1], pre[2], i32(cg, n), in, out, comb, ctx};
  call_checked(cg, op->code == OP_ALL_REDUCE ? "shlort_all_reduce" : "shlort_collective_reduce",
               a, 8);
}

static void emit_all_gather(CG *cg, Op *op) {
  int32_t n;
  LLVMValueRef in = tensors(cg, op->opnds, op->nopnds, &n);
  LLVMValueRef out = tensors(cg, op->results, op->nresults, &n);
  LLVMValueRef desc = op_desc(cg, op);
  LLVMValueRef a[7] = {cg->proc, desc, groups_desc(cg, op),
                       cg_i64(cg, op->a.all_gather_dim), i32(cg, n), in, out};
  call_checked(cg, "shlort_all_gather", a, 7);
}

static void emit_all_to_all(CG *cg, Op *op) {
  int32_t n;
  LLVMValueRef in = tensors(cg, op->opnds, op->nopnds, &n);
  LLVMValueRef out = tensors(cg, op->results, op->nresults, &n);
  LLVMValueRef desc = op_desc(cg, op);
  LLVMValueRef a[9] = {cg->proc, desc, groups_desc(cg, op),
                       cg_i64(cg, op->a.split_dimension), cg_i64(cg, op->a.concat_dimension),
                       cg_i64(cg, op->a.split_count), i32(cg, n), in, out};
  call_checked(cg, "shlort_all_to_all", a, 9);
}

/* collective_permute, collective_broadcast: one operand (upstream's
 * variadic collective_broadcast with has_dynamic_root is not supported). */
static void emit_one_to_one(CG *cg, Op *op) {
  if (op->nopnds != 1) {
    cg_unsupported(cg, op, "collective_broadcast of several operands is not supported by "
                           "codegen yet");
    return;
  }
  int32_t n;
  LLVMValueRef desc = op_desc(cg, op), groups = groups_desc(cg, op);
  LLVMValueRef in = tensors(cg, op->opnds, 1, &n);
  LLVMValueRef a[5] = {cg->proc, desc, groups, in, tensors(cg, op->results, 1, &n)};
  call_checked(cg, op->code == OP_COLLECTIVE_PERMUTE ? "shlort_collective_permute"
                                                     : "shlort_collective_broadcast",
               a, 5);
}

/* The tensors an op moves: its operands when it sends them out of the
 * function, its results when it receives them. */
static LLVMValueRef payload(CG *cg, Op *op, bool out, int32_t *n) {
  return out ? tensors(cg, op->opnds, op->nopnds, n) : tensors(cg, op->results, op->nresults, n);
}

/* send, recv: the payload tensors (not the token) on channel_handle's
 * channel. */
static void emit_channel(CG *cg, Op *op) {
  bool send = op->code == OP_SEND;
  int32_t n;
  LLVMValueRef t = payload(cg, op, send, &n);
  LLVMValueRef a[6] = {cg->proc, op_desc(cg, op),
                       cg_i64(cg, op->a.channel.handle),
                       i32(cg, op->a.is_host_transfer), i32(cg, n), t};
  call_checked(cg, send ? "shlort_send" : "shlort_recv", a, 6);
}

static void emit_feed(CG *cg, Op *op) {
  bool in = op->code == OP_INFEED;
  int32_t n;
  LLVMValueRef t = payload(cg, op, !in, &n);
  LLVMValueRef desc = op_desc(cg, op);
  LLVMValueRef a[5] = {cg->proc, desc,
                       cg_const_string(cg, op->a.feed_config ? op->a.feed_config : ""), i32(cg, n),
                       t};
  call_checked(cg, in ? "shlort_infeed" : "shlort_outfeed", a, 5);
}

/* spec rng: a and b are one-element buffers; the shape operand is the
 * result's static shape. */
static void emit_rng(CG *cg, Op *op) {
  int32_t n;
  LLVMValueRef desc = op_desc(cg, op);
  LLVMValueRef lo = cg_buffer(cg, op->opnds[0]), hi = cg_buffer(cg, op->opnds[1]);
  LLVMValueRef a[6] = {cg->proc, desc, i32(cg, op->a.rng_distribution == RNG_NORMAL), lo, hi,
                       tensors(cg, op->results, 1, &n)};
  call_checked(cg, "shlort_rng", a, 6);
}

void cg_emit_runtime_op(CG *cg, Op *op) {
  if (!cg_check_types(cg, op)) return;
  if (!cg->proc) abort(); /* ir_func_needs_proc gave this entry a context */
  switch (op->code) {
  case OP_REPLICA_ID: case OP_PARTITION_ID: emit_process_id(cg, op); return;
  case OP_ALL_REDUCE: case OP_REDUCE_SCATTER: case OP_COLLECTIVE_REDUCE:
    emit_reduction(cg, op);
    return;
  case OP_ALL_GATHER: emit_all_gather(cg, op); return;
  case OP_ALL_TO_ALL: emit_all_to_all(cg, op); return;
  case OP_COLLECTIVE_PERMUTE: case OP_COLLECTIVE_BROADCAST: emit_one_to_one(cg, op); return;
  case OP_SEND: case OP_RECV: emit_channel(cg, op); return;
  case OP_INFEED: case OP_OUTFEED: emit_feed(cg, op); return;
  case OP_RNG: emit_rng(cg, op); return;
  default: abort(); /* every OPF_RUNTIME op has a case */
  }
}

/* The grid the program was compiled for, checked against the process's
 * (mhlo.num_replicas / num_partitions or --replicas / --partitions). */
void cg_emit_grid_check(CG *cg, Func *f) {
  int64_t r, p;
  ir_module_grid(cg->m, &r, &p);
  if (r <= 0 && p <= 0) return;
  const char *name = arena_printf(&cg->m->arena, "@%s", f->name);
  LLVMValueRef a[4] = {cg->proc, named_desc(cg, name, f->loc), i32(cg, r > 0 ? r : 1),
                       i32(cg, p > 0 ? p : 1)};
  call_checked(cg, "shlort_expect_grid", a, 4);
}

/* ------------------------------------------------------------------------ */
/* interpreter.run_parallel                                                  */

typedef struct Site {
  const Op *op;
  int index, found;
} Site;

static void count_site(Op *op, void *ctx) {
  Site *s = ctx;
  if (op == s->op) s->found = s->index;
  if (op->code == OP_INTERPRETER_RUN_PARALLEL) s->index++;
}

/* Pointers to the operands' (results') buffers, NULL for tokens. */
static LLVMValueRef pointers(CG *cg, Value **vals, int n) {
  LLVMTypeRef at = LLVMArrayType2(cg->t_ptr, (uint64_t)(n ? n : 1));
  LLVMValueRef arr = cg_entry_alloca(cg, at, "ptrs");
  for (int i = 0; i < n; i++) {
    LLVMValueRef idx[2] = {cg_i64(cg, 0), cg_i64(cg, i)};
    LLVMValueRef p = type_is_tensor(vals[i]->type) && type_byte_size(vals[i]->type) > 0
                         ? cg_buffer(cg, vals[i])
                         : LLVMConstNull(cg->t_ptr);
    LLVMBuildStore(cg->b, p, LLVMBuildInBoundsGEP2(cg->b, at, arr, idx, 2, ""));
  }
  return arr;
}

/* int32_t shloc_run_parallel(int32_t site, void **inputs, void **results):
 * site numbers the function's run_parallel ops in ir_walk order, by which
 * the host finds the op's programs. */
void cg_emit_run_parallel(CG *cg, Op *op) {
  if (!cg_check_types(cg, op)) return;
  Site s = {op, 0, -1};
  ir_walk(cg->fn, count_site, &s);
  LLVMValueRef in = pointers(cg, op->opnds, op->nopnds);
  LLVMValueRef a[3] = {i32(cg, s.found), in, pointers(cg, op->results, op->nresults)};
  call_checked(cg, "shloc_run_parallel", a, 3);
}
