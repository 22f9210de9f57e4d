/*
 * codegen.c: the LLVM emitter's driver (codegen_emit) and the helpers every
 * generator uses: element types, buffers, loads and stores, counted loops,
 * and the dispatch from an op to its elemental generator (cg_gen).
 *
 * See codegen.h for the design: kernels are loop nests over a root's
 * result; values with a buffer are loaded, fused values are recomputed by
 * their generator at the consumer's index.
 */
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>

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

/* Sub-byte integers (i2, i4, ui2, ui4) are computed in their own width,
 * so LLVM's arithmetic wraps in the N-bit range, and stored in a byte. */
static bool sub_byte(ElemType e) { return elem_is_int(e) && elem_bits(e) < 8; }

LLVMTypeRef cg_storage_type(CG *cg, ElemType e) {
  if (e == ET_I1 || sub_byte(e) || cg_is_small_float(e)) return cg->t_i8;
  return cg_scalar_type(cg, e);
}

/* Complex elements are (re, im) pairs of their part type: a caller's
 * buffer of them is only as aligned as one part. */
static unsigned elem_align(ElemType e) {
  int n = elem_bytes(e);
  return (unsigned)(elem_is_complex(e) ? n / 2 : n);
}

LLVMValueRef cg_i64(CG *cg, int64_t v) {
  return LLVMConstInt(cg->t_i64, (unsigned long long)v, 1);
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

/* ------------------------------------------------------------------------ */
/* LLVM functions: entry block for buffer pointers, body after it            */

int cg_vector_bytes(CG *cg) {
  char *f = LLVMGetTargetMachineFeatureString(cg->tm);
  if ((!f || !f[0]) && !cg->o->features && !cg->o->triple) {
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

/* A builder at the end of the entry block (which has no terminator until
 * cg_fn_end), so what it emits dominates the whole body. */
static LLVMBuilderRef entry_builder(CG *cg) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(cg->ctx);
  LLVMPositionBuilderAtEnd(b, LLVMGetEntryBasicBlock(cg->llfn));
  return b;
}

/* ------------------------------------------------------------------------ */
/* Constants                                                                 */

LLVMValueRef cg_dense_global(CG *cg, const DenseData *d, const char *name) {
  LLVMValueRef g = LLVMGetNamedGlobal(cg->mod, name);
  if (g) return g;
  int64_t n = type_num_elems(d->type);
  size_t esz = (size_t)elem_bytes(d->type->elem), total = (size_t)n * esz;
  const char *bytes = (const char *)d->bytes;
  char *expanded = NULL;
  if (d->splat && n != 1) {
    expanded = malloc(total ? total : 1);
    if (!expanded) abort();
    for (int64_t i = 0; i < n; i++) memcpy(expanded + (size_t)i * esz, d->bytes, esz);
    bytes = expanded;
  } else if (d->nbytes < total) {
    abort(); /* the frontend guarantees full literals */
  }
  LLVMValueRef init = LLVMConstStringInContext2(cg->ctx, bytes, total, 1);
  free(expanded);
  g = LLVMAddGlobal(cg->mod, LLVMTypeOf(init), name);
  LLVMSetInitializer(g, init);
  LLVMSetGlobalConstant(g, 1);
  LLVMSetLinkage(g, LLVMPrivateLinkage);
  LLVMSetUnnamedAddress(g, LLVMGlobalUnnamedAddr);
  LLVMSetAlignment(g, 64);
  return g;
}

static uint64_t le_bits(const uint8_t *p, int nb) {
  uint64_t bits = 0;
  for (int k = 0; k < nb; k++) bits |= (uint64_t)p[k] << (8 * k);
  return bits;
}

/* A complex element: its two parts as a <2 x part> constant. */
static LLVMValueRef dense_complex(CG *cg, const uint8_t *p, ElemType e) {
  int nb = elem_bytes(e) / 2;
  LLVMTypeRef ft = e == ET_C64 ? cg->t_f32 : cg->t_f64;
  LLVMTypeRef it = LLVMIntTypeInContext(cg->ctx, (unsigned)(8 * nb));
  LLVMValueRef parts[2];
  for (int k = 0; k < 2; k++)
    parts[k] = LLVMConstBitCast(LLVMConstInt(it, le_bits(p + k * nb, nb), 0), ft);
  return LLVMConstVector(parts, 2);
}

LLVMValueRef cg_dense_scalar(CG *cg, const DenseData *d, int64_t i) {
  ElemType e = d->type->elem;
  int nb = elem_bytes(e);
  const uint8_t *p = d->bytes + (d->splat ? 0 : (size_t)i * (size_t)nb);
  if (elem_is_complex(e)) return dense_complex(cg, p, e);
  uint64_t bits = le_bits(p, nb);
  if (e == ET_I1) return LLVMConstInt(cg->t_i1, bits != 0, 0);
  if (cg_is_small_float(e)) /* folds to a constant */
    return cg_small_decode(cg, LLVMConstInt(cg->t_i8, bits, 0), e);
  if (sub_byte(e)) /* stored extended to a byte: keep the low bits */
    return LLVMConstInt(cg_scalar_type(cg, e), bits & ((1u << elem_bits(e)) - 1), 0);
  LLVMTypeRef it = LLVMIntTypeInContext(cg->ctx, (unsigned)(8 * nb));
  LLVMValueRef c = LLVMConstInt(it, bits, 0);
  if (elem_is_float(e)) return LLVMConstBitCast(c, cg_scalar_type(cg, e));
  return c;
}

static const DenseData *value_dense(Value *v) {
  if (!v->def || v->def->code != OP_CONSTANT || !v->def->a.value) {
    fprintf(stderr, "shloc: internal error: ST_CONST value %%%d is not a constant\n",
            v->id);
    abort();
  }
  return v->def->a.value;
}

/* ------------------------------------------------------------------------ */
/* Buffers                                                                   */

/* The buffer at a frame-relative storage location, loaded once per LLVM
 * function in its entry block. */
static LLVMValueRef frame_buffer(CG *cg, Storage st, int64_t off) {
  for (int i = 0; i < cg->nbases; i++)
    if (cg->bases[i].st == st && cg->bases[i].off == off) return cg->bases[i].ptr;
  int nargs = cg->fn->body->nargs, nres = cg->fn->nresults;
  int64_t slot = st == ST_ARG ? off : st == ST_RESULT ? nargs + off : nargs + nres;
  LLVMBuilderRef b = entry_builder(cg);
  LLVMValueRef idx = cg_i64(cg, slot);
  LLVMValueRef sp = LLVMBuildInBoundsGEP2(b, cg->t_ptr, cg->frame, &idx, 1, "");
  LLVMValueRef p = LLVMBuildLoad2(b, cg->t_ptr, sp, st == ST_TEMP ? "arena" : "buf");
  if (st == ST_TEMP) {
    LLVMValueRef o = cg_i64(cg, off);
    p = LLVMBuildInBoundsGEP2(b, cg->t_i8, p, &o, 1, "tmp");
  }
  LLVMDisposeBuilder(b);
  cg->bases[cg->nbases++] = (CgBase){st, off, p};
  return p;
}

LLVMValueRef cg_buffer(CG *cg, Value *v) {
  if (v->id >= 0 && cg->buf[v->id]) return cg->buf[v->id];
  LLVMValueRef p;
  if (v->storage == ST_CONST) {
    char name[96];
    snprintf(name, sizeof name, "%s.c%d", cg->fn->name, v->id);
    p = cg_dense_global(cg, value_dense(v), name);
  } else if (v->storage == ST_NONE) {
    fprintf(stderr, "shloc: internal error: value %%%d has no buffer\n", v->id);
    abort();
  } else {
    p = frame_buffer(cg, v->storage, v->offset);
  }
  if (v->id >= 0) cg->buf[v->id] = p;
  return p;
}

/* ------------------------------------------------------------------------ */
/* Indexing, loads and stores                                                */

static LLVMValueRef nuw_nsw(LLVMValueRef v) {
  if (LLVMIsAInstruction(v)) {
    LLVMSetNUW(v, 1);
    LLVMSetNSW(v, 1);
  }
  return v;
}

LLVMValueRef cg_linear(CG *cg, const Type *t, LLVMValueRef *idx) {
  LLVMValueRef lin = NULL;
  int64_t stride = 1;
  /* Unit dimensions count too: kernels over a flattened index space pass
   * the linear index in the last dimension, whatever its extent. */
  for (int d = t->rank - 1; d >= 0; d--) {
    LLVMValueRef term = idx[d];
    if (stride != 1)
      term = nuw_nsw(LLVMBuildMul(cg->b, term, cg_i64(cg, stride), ""));
    lin = lin ? nuw_nsw(LLVMBuildAdd(cg->b, lin, term, "")) : term;
    stride *= t->dims[d];
  }
  return lin ? lin : cg_i64(cg, 0);
}

static LLVMValueRef elem_ptr(CG *cg, LLVMValueRef ptr, ElemType e,
                             LLVMValueRef lin) {
  return LLVMBuildInBoundsGEP2(cg->b, cg_storage_type(cg, e), ptr, &lin, 1, "");
}

/* Complex elements are loaded and stored as their two parts, scalars at
 * 2 lin and 2 lin + 1: instcombine then folds away the <2 x T> of
 * complex.c between loads and stores, and the loop vectorizer sees scalar
 * code with interleaved accesses (it does not widen <2 x T> values). */
static LLVMValueRef load_complex(CG *cg, LLVMValueRef ptr, ElemType e, LLVMValueRef lin) {
  LLVMTypeRef vt = cg_scalar_type(cg, e), pt = LLVMGetElementType(vt);
  LLVMValueRef v = LLVMGetUndef(vt);
  lin = LLVMBuildShl(cg->b, lin, cg_i64(cg, 1), "");
  for (unsigned k = 0; k < 2; k++) {
    LLVMValueRef i = k ? LLVMBuildOr(cg->b, lin, cg_i64(cg, 1), "") : lin;
    LLVMValueRef p = LLVMBuildInBoundsGEP2(cg->b, pt, ptr, &i, 1, "");
    LLVMValueRef x = LLVMBuildLoad2(cg->b, pt, p, "");
    LLVMSetAlignment(x, elem_align(e));
    v = LLVMBuildInsertElement(cg->b, v, x, LLVMConstInt(cg->t_i32, k, 0), "");
  }
  return v;
}

static void store_complex(CG *cg, LLVMValueRef ptr, ElemType e, LLVMValueRef lin,
                          LLVMValueRef val) {
  LLVMTypeRef pt = LLVMGetElementType(cg_scalar_type(cg, e));
  lin = LLVMBuildShl(cg->b, lin, cg_i64(cg, 1), "");
  for (unsigned k = 0; k < 2; k++) {
    LLVMValueRef i = k ? LLVMBuildOr(cg->b, lin, cg_i64(cg, 1), "") : lin;
    LLVMValueRef p = LLVMBuildInBoundsGEP2(cg->b, pt, ptr, &i, 1, "");
    LLVMValueRef x = LLVMBuildExtractElement(cg->b, val, LLVMConstInt(cg->t_i32, k, 0), "");
    LLVMSetAlignment(LLVMBuildStore(cg->b, x, p), elem_align(e));
  }
}

LLVMValueRef cg_load(CG *cg, LLVMValueRef ptr, ElemType e, LLVMValueRef lin) {
  if (elem_is_complex(e)) return load_complex(cg, ptr, e, lin);
  LLVMTypeRef st = cg_storage_type(cg, e);
  LLVMValueRef v = LLVMBuildLoad2(cg->b, st, elem_ptr(cg, ptr, e, lin), "");
  LLVMSetAlignment(v, elem_align(e));
  if (e == ET_I1) v = LLVMBuildICmp(cg->b, LLVMIntNE, v, LLVMConstNull(st), "");
  if (sub_byte(e)) v = LLVMBuildTrunc(cg->b, v, cg_scalar_type(cg, e), "");
  if (cg_is_small_float(e)) v = cg_small_decode(cg, v, e);
  return v;
}

void cg_store(CG *cg, LLVMValueRef ptr, ElemType e, LLVMValueRef lin,
              LLVMValueRef val) {
  if (elem_is_complex(e)) {
    store_complex(cg, ptr, e, lin, val);
    return;
  }
  if (e == ET_I1) val = LLVMBuildZExt(cg->b, val, cg->t_i8, "");
  if (cg_is_small_float(e)) val = cg_small_encode(cg, val, e);
  /* Sub-byte integers are stored sign- or zero-extended (ir.h DenseData),
   * so the runtime's byte comparisons see one encoding per value. */
  if (sub_byte(e))
    val = elem_class(e) == 's' ? LLVMBuildSExt(cg->b, val, cg->t_i8, "")
                               : LLVMBuildZExt(cg->b, val, cg->t_i8, "");
  LLVMValueRef s = LLVMBuildStore(cg->b, val, elem_ptr(cg, ptr, e, lin));
  LLVMSetAlignment(s, elem_align(e));
}

LLVMValueRef cg_value_at(CG *cg, Value *v, LLVMValueRef *idx) {
  if (v->id >= 0 && cg->scalar[v->id]) return cg->scalar[v->id];
  ElemType e = v->type->elem;
  if (v->storage == ST_CONST) {
    const DenseData *d = value_dense(v);
    if (d->splat || type_num_elems(v->type) == 1) return cg_dense_scalar(cg, d, 0);
  }
  if (v->storage != ST_NONE)
    return cg_load(cg, cg_buffer(cg, v), e, cg_linear(cg, v->type, idx));
  if (!v->def) {
    fprintf(stderr, "shloc: internal error: block argument %%%d has no buffer\n",
            v->id);
    abort();
  }
  LLVMValueRef out[v->def->nresults];
  cg_gen(cg, v->def, idx, out);
  return out[v->index];
}

/* ------------------------------------------------------------------------ */
/* Dispatch of elemental generators                                          */

static bool is_movement(OpCode c) {
  switch (c) {
  case OP_BROADCAST_IN_DIM: case OP_RESHAPE: case OP_TRANSPOSE: case OP_SLICE:
  case OP_CONCATENATE: case OP_PAD: case OP_REVERSE: case OP_IOTA:
  case OP_CONSTANT: case OP_BITCAST_CONVERT:
    return true;
  default:
    return false;
  }
}

/* Elementwise ops: operands at the same index; a rank-0 operand of
 * select/clamp (spec "select", "clamp": pred[] / min[] / max[]) is read at
 * the empty index. */
static void gen_elementwise(CG *cg, Op *op, LLVMValueRef *idx,
                            LLVMValueRef *out) {
  LLVMValueRef args[3];
  int rank = op->results[0]->type->rank;
  for (int i = 0; i < op->nopnds && i < 3; i++) {
    Value *v = op->opnds[i];
    args[i] = cg_value_at(cg, v, v->type->rank == rank ? idx : NULL);
  }
  out[0] = cg_scalar_op(cg, op, args);
}

static void gen_poison(CG *cg, Op *op, LLVMValueRef *out) {
  for (int i = 0; i < op->nresults; i++)
    out[i] = LLVMGetPoison(cg_scalar_type(cg, op->results[i]->type->elem));
}

/* spec "map": the computation applied to the inputs at the same index
 * (dimensions are all of them, (C1) of map). */
static void gen_map(CG *cg, Op *op, LLVMValueRef *idx, LLVMValueRef *out) {
  LLVMValueRef args[op->nopnds > 0 ? op->nopnds : 1];
  for (int i = 0; i < op->nopnds; i++) args[i] = cg_value_at(cg, op->opnds[i], idx);
  cg_region_scalar(cg, op->regions[0], args, out);
}

void cg_gen(CG *cg, Op *op, LLVMValueRef *idx, LLVMValueRef *out) {
  /* cg_scalar_op reports the element type combinations it lacks. */
  if (ir_is_elementwise(op->code)) {
    gen_elementwise(cg, op, idx, out);
    return;
  }
  if (is_movement(op->code)) {
    cg_gen_movement(cg, op, idx, out);
    return;
  }
  switch (op->code) {
  case OP_MAP: gen_map(cg, op, idx, out); return;
  case OP_REDUCE: cg_gen_reduce(cg, op, idx, out); return;
  case OP_REDUCE_WINDOW: cg_gen_reduce_window(cg, op, idx, out); return;
  case OP_DOT_GENERAL: cg_gen_dot(cg, op, idx, out); return;
  case OP_CONVOLUTION: cg_gen_conv(cg, op, idx, out); return;
  case OP_GATHER: cg_gen_gather(cg, op, idx, out); return;
  case OP_DYNAMIC_SLICE: cg_gen_dynamic_slice(cg, op, idx, out); return;
  case OP_DYNAMIC_UPDATE_SLICE:
    cg_gen_dynamic_update_slice(cg, op, idx, out);
    return;
  default:
    cg_unsupported(cg, op, NULL);
    gen_poison(cg, op, out);
    return;
  }
}

/* ------------------------------------------------------------------------ */
/* Counted loops                                                             */

LLVMValueRef cg_loop_begin(CG *cg, CgLoop *l, LLVMValueRef lo, LLVMValueRef hi) {
  LLVMBasicBlockRef pre = LLVMGetInsertBlock(cg->b);
  l->header = LLVMAppendBasicBlockInContext(cg->ctx, cg->llfn, "loop");
  l->body = LLVMAppendBasicBlockInContext(cg->ctx, cg->llfn, "loop.body");
  l->exit = LLVMAppendBasicBlockInContext(cg->ctx, cg->llfn, "loop.exit");
  LLVMBuildBr(cg->b, l->header);
  LLVMPositionBuilderAtEnd(cg->b, l->header);
  l->iv = LLVMBuildPhi(cg->b, cg->t_i64, "i");
  LLVMAddIncoming(l->iv, &lo, &pre, 1);
  LLVMValueRef more = LLVMBuildICmp(cg->b, LLVMIntSLT, l->iv, hi, "");
  LLVMBuildCondBr(cg->b, more, l->body, l->exit);
  LLVMPositionBuilderAtEnd(cg->b, l->body);
  return l->iv;
}

void cg_loop_end(CG *cg, CgLoop *l) {
  LLVMBasicBlockRef latch = LLVMGetInsertBlock(cg->b);
  l->next = nuw_nsw(LLVMBuildAdd(cg->b, l->iv, cg_i64(cg, 1), "i.next"));
  LLVMBuildBr(cg->b, l->header);
  LLVMAddIncoming(l->iv, &l->next, &latch, 1);
  LLVMPositionBuilderAtEnd(cg->b, l->exit);
}

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
  if (cg->td) LLVMDisposeTargetData(cg->td);
  if (cg->tm) LLVMDisposeTargetMachine(cg->tm);
  LLVMDisposeBuilder(cg->b);
  LLVMDisposeModule(cg->mod);
  LLVMContextDispose(cg->ctx);
}

static bool is_entry(const Func *f, const CompileOptions *o) {
  return o->entry ? !strcmp(f->name, o->entry) : f->is_public;
}

/* Emits the entry of every entry function; returns the number found. */
static int emit_entries(CG *cg) {
  int found = 0;
  for (int i = 0; i < cg->m->nfuncs; i++) {
    Func *f = cg->m->funcs[i];
    if (!is_entry(f, cg->o)) continue;
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
  return 0;
}

int codegen_emit(Module *m, const CompileOptions *o, EmitKind kind, char **out,
                 size_t *out_len) {
  *out = NULL;
  *out_len = 0;
  if (kind == EMIT_MLIR || kind == EMIT_HEADER)
    return emit_text(kind, m, o, out, out_len);
  CG cg;
  cg_init(&cg, m, o);
  int rc = setup_target(&cg);
  if (rc == 0 && emit_entries(&cg) == 0 && o->entry) {
    diag_error(m->loc, "no function @%s in the module", o->entry);
    rc = 1;
  }
  if (rc == 0 && cg.errors) rc = cg.errors;
  if (rc == 0) verify_or_abort(&cg);
  if (rc == 0 && kind != EMIT_VERIFY) {
    rc = cg_optimize(&cg);
    if (rc == 0) rc = cg_write(&cg, kind, out, out_len);
  }
  cg_dispose(&cg);
  return rc;
}
