/*
 * memory.c: where values live and how elements move between memory and
 * SSA scalars:
 *  - constants: dense literals as private globals, or one element as an
 *    LLVM constant;
 *  - buffers: the pointer of a materialized value, from the frame (loaded
 *    once per LLVM function in its entry block) or a constant global;
 *  - indexing: the row-major linear offset of an index;
 *  - loads and stores of one element, converting between the storage type
 *    (i1, sub-byte integers and small floats in a byte; complex as two
 *    parts) and the compute type of core.c.
 */
#include <stdlib.h>
#include <string.h>

#include "codegen.h"

unsigned cg_elem_align(ElemType e) {
  int n = elem_bytes(e);
  return (unsigned)(elem_is_complex(e) ? n / 2 : n);
}

/* ------------------------------------------------------------------------ */
/* Constants                                                                 */

/* Whether d is a splat of zero bytes. */
static bool dense_zero(const DenseData *d) {
  bool zero = d->splat;
  for (size_t k = 0; zero && k < d->nbytes; k++) zero = !d->bytes[k];
  return zero;
}

/* Writes d's elements to dst, which holds zeros (splats expanded; a zero
 * splat writes nothing). */
static void dense_write(const DenseData *d, char *dst) {
  size_t n = (size_t)type_num_elems(d->type), esz = (size_t)elem_bytes(d->type->elem);
  if (!d->splat) {
    if (d->nbytes < n * esz) abort(); /* the frontend guarantees full literals */
    memcpy(dst, d->bytes, n * esz);
    return;
  }
  if (dense_zero(d)) return;
  for (size_t i = 0; i < n; i++) memcpy(dst + i * esz, d->bytes, esz);
}

/* A private constant global of n bytes (64-byte aligned, where
 * o->weights says), named `name`. */
static LLVMValueRef bytes_global(CG *cg, const char *bytes, size_t n, const char *name) {
  LLVMValueRef init = LLVMConstStringInContext2(cg->ctx, bytes, n, 1);
  LLVMValueRef g = LLVMAddGlobal(cg->mod, LLVMTypeOf(init), name);
  LLVMSetInitializer(g, init);
  LLVMSetGlobalConstant(g, 1);
  LLVMSetLinkage(g, LLVMPrivateLinkage);
  LLVMSetUnnamedAddress(g, LLVMGlobalUnnamedAddr);
  LLVMSetAlignment(g, 64);
  cg_weights_place(cg, g);
  return g;
}

LLVMValueRef cg_dense_global(CG *cg, const DenseData *d, const char *name) {
  LLVMValueRef g = LLVMGetNamedGlobal(cg->mod, name);
  if (g) return g;
  size_t total = (size_t)type_num_elems(d->type) * (size_t)elem_bytes(d->type->elem);
  if (!d->splat) return bytes_global(cg, (const char *)d->bytes, total, name);
  char *bytes = calloc(total ? total : 1, 1);
  if (!bytes) abort();
  dense_write(d, bytes);
  g = bytes_global(cg, bytes, total, name);
  free(bytes);
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
  if (cg_is_sub_byte(e)) /* stored extended to a byte: keep the low bits */
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

size_t cg_const_bytes(const Value *v) {
  int64_t n = v->packed ? layout_packed_elems(v->packed) : type_num_elems(v->type);
  return (size_t)n * (size_t)elem_bytes(v->type->elem);
}

const char *cg_const_literal(Value *v) {
  const DenseData *d = value_dense(v);
  return v->packed || d->splat ? NULL : (const char *)d->bytes;
}

bool cg_const_zero(Value *v) { return dense_zero(value_dense(v)); }

void cg_const_write(Value *v, char *dst) {
  const DenseData *d = value_dense(v);
  if (v->packed)
    layout_pack(v->packed, d->bytes, elem_bytes(v->type->elem), d->splat, dst);
  else
    dense_write(d, dst);
}

/* Constants at least this large reach a kernel through its frame, like
 * buffers, so that the kernels of layers with constant weights (and
 * per-channel batch-norm vectors of 64 floats) are identical too
 * (kernel.c: ResNet-50's 230 kernel functions become 62); smaller ones
 * stay globals the optimizer sees. The large ones are weights (weights.c):
 * LLVM never sees their bytes. */
enum { FRAME_CONST_MIN_BYTES = 256 };

LLVMValueRef cg_const_global(CG *cg, Value *v) {
  char name[96];
  snprintf(name, sizeof name, "%s.c%d", cg->fn->name, v->id);
  if (cg->o->weights == WEIGHTS_FILE || type_byte_size(v->type) >= FRAME_CONST_MIN_BYTES)
    return cg_weights_const(cg, name, v);
  LLVMValueRef g = LLVMGetNamedGlobal(cg->mod, name);
  if (g) return g;
  size_t total = cg_const_bytes(v);
  const char *literal = cg_const_literal(v);
  if (literal) return bytes_global(cg, literal, total, name);
  char *bytes = calloc(total ? total : 1, 1); /* cg_const_write wants zeros */
  if (!bytes) abort();
  cg_const_write(v, bytes);
  g = bytes_global(cg, bytes, total, name);
  free(bytes);
  return g;
}

/* ------------------------------------------------------------------------ */
/* Buffers                                                                   */

/* A builder at the end of the entry block (which has no terminator until
 * cg_fn_end), so what it emits dominates the whole body. */
static LLVMBuilderRef entry_builder(CG *cg) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(cg->ctx);
  LLVMPositionBuilderAtEnd(b, LLVMGetEntryBasicBlock(cg->llfn));
  return b;
}

/* The frame slot of a kernel's buffer at a storage location (cg->kslots,
 * added on first use); cv: the constant of an ST_CONST one. */
static int64_t kernel_slot(CG *cg, Storage st, int64_t off, Value *cv) {
  for (int i = 0; i < cg->nkslots; i++)
    if (cg->kslots[i].st == st && cg->kslots[i].off == off) return i;
  cg->kslots[cg->nkslots] = (CgBase){st, off, NULL, cv};
  return cg->nkslots++;
}

/* The buffer at a frame-relative storage location, loaded once per LLVM
 * function in its entry block: from a kernel's slot, or from the entry's
 * argument, result or arena slot (plus the offset in the arena). */
static LLVMValueRef frame_buffer(CG *cg, Storage st, int64_t off, Value *cv) {
  for (int i = 0; i < cg->nbases; i++)
    if (cg->bases[i].st == st && cg->bases[i].off == off) return cg->bases[i].ptr;
  int nargs = cg->fn->body->nargs, nres = cg->fn->nresults;
  int64_t slot = cg->kslots          ? kernel_slot(cg, st, off, cv)
                 : st == ST_ARG    ? off
                 : st == ST_RESULT ? nargs + off
                                   : nargs + nres;
  LLVMBuilderRef b = entry_builder(cg);
  LLVMValueRef idx = cg_i64(cg, slot);
  LLVMValueRef sp = LLVMBuildInBoundsGEP2(b, cg->t_ptr, cg->frame, &idx, 1, "");
  LLVMValueRef p = LLVMBuildLoad2(b, cg->t_ptr, sp, st == ST_TEMP ? "arena" : "buf");
  if (st == ST_TEMP && !cg->kslots) {
    LLVMValueRef o = cg_i64(cg, off);
    p = LLVMBuildInBoundsGEP2(b, cg->t_i8, p, &o, 1, "tmp");
  }
  LLVMDisposeBuilder(b);
  cg->bases[cg->nbases++] = (CgBase){st, off, p, cv};
  return p;
}

LLVMValueRef cg_buffer(CG *cg, Value *v) {
  if (v->id >= 0 && cg->buf[v->id]) return cg->buf[v->id];
  LLVMValueRef p;
  if (v->storage == ST_CONST && cg->kslots && v->id >= 0 &&
      type_byte_size(v->type) >= FRAME_CONST_MIN_BYTES) {
    p = frame_buffer(cg, ST_CONST, v->id, v);
  } else if (v->storage == ST_CONST) {
    p = cg_const_global(cg, v);
  } else if (v->storage == ST_NONE) {
    fprintf(stderr, "shloc: internal error: value %%%d has no buffer\n", v->id);
    abort();
  } else {
    p = frame_buffer(cg, v->storage, v->offset, NULL);
  }
  if (v->id >= 0) cg->buf[v->id] = p;
  return p;
}

LLVMValueRef cg_scratch_slices(CG *cg, const Op *op, int64_t bytes) {
  if (bytes > op->scratch_bytes) {
    fprintf(stderr,
            "shloc: internal error: %s needs %lld bytes of scratch, the plan has %lld\n",
            op_name(op->code), (long long)bytes, (long long)op->scratch_bytes);
    abort();
  }
  return frame_buffer(cg, ST_TEMP, op->scratch_offset, NULL);
}

LLVMValueRef cg_scratch(CG *cg, const Op *op, int64_t bytes) {
  int64_t slice = op->scratch_bytes;
  LLVMValueRef base = cg_scratch_slices(cg, op, bytes);
  LLVMBuilderRef b = entry_builder(cg);
  LLVMValueRef chunk = LLVMBuildZExt(b, LLVMGetParam(cg->llfn, 3), cg->t_i64, "chunk");
  LLVMValueRef off = LLVMBuildMul(b, chunk, cg_i64(cg, slice), "");
  LLVMValueRef p = LLVMBuildInBoundsGEP2(b, cg->t_i8, base, &off, 1, "scratch");
  LLVMDisposeBuilder(b);
  return p;
}

/* ------------------------------------------------------------------------ */
/* Indexing, loads and stores                                                */

LLVMValueRef cg_linear(CG *cg, const Type *t, LLVMValueRef *idx) {
  LLVMValueRef lin = NULL;
  int64_t stride = 1;
  /* Unit dimensions count too: kernels over a flattened index space pass
   * the linear index in the last dimension, whatever its extent. */
  for (int d = t->rank - 1; d >= 0; d--) {
    LLVMValueRef term = idx[d];
    if (stride != 1)
      term = cg_nowrap(LLVMBuildMul(cg->b, term, cg_i64(cg, stride), ""));
    lin = lin ? cg_nowrap(LLVMBuildAdd(cg->b, lin, term, "")) : term;
    stride *= t->dims[d];
  }
  return lin ? lin : cg_i64(cg, 0);
}

LLVMValueRef cg_dim(CG *cg, const Value *v, int i) {
  int64_t n = v->type->dims[i];
  return n != DIM_DYNAMIC ? cg_i64(cg, n) : cg->symx[v->sym[i]->id];
}

LLVMValueRef cg_linear_value(CG *cg, const Value *v, LLVMValueRef *idx) {
  if (!v->sym) return cg_linear(cg, v->type, idx);
  LLVMValueRef lin = cg_i64(cg, 0);
  for (int i = 0; i < v->type->rank; i++)
    lin = LLVMBuildAdd(cg->b, LLVMBuildMul(cg->b, lin, cg_dim(cg, v, i), ""), idx[i], "");
  return lin;
}

LLVMValueRef cg_gep(CG *cg, LLVMTypeRef t, LLVMValueRef ptr, LLVMValueRef off) {
  return LLVMBuildInBoundsGEP2(cg->b, t, ptr, &off, 1, "");
}

static LLVMValueRef elem_ptr(CG *cg, LLVMValueRef ptr, ElemType e,
                             LLVMValueRef lin) {
  return cg_gep(cg, cg_storage_type(cg, e), ptr, lin);
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
    LLVMSetAlignment(x, cg_elem_align(e));
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
    LLVMSetAlignment(LLVMBuildStore(cg->b, x, p), cg_elem_align(e));
  }
}

LLVMValueRef cg_load(CG *cg, LLVMValueRef ptr, ElemType e, LLVMValueRef lin) {
  if (elem_is_complex(e)) return load_complex(cg, ptr, e, lin);
  LLVMTypeRef st = cg_storage_type(cg, e);
  LLVMValueRef v = LLVMBuildLoad2(cg->b, st, elem_ptr(cg, ptr, e, lin), "");
  LLVMSetAlignment(v, cg_elem_align(e));
  if (e == ET_I1) v = LLVMBuildICmp(cg->b, LLVMIntNE, v, LLVMConstNull(st), "");
  if (cg_is_sub_byte(e)) v = LLVMBuildTrunc(cg->b, v, cg_scalar_type(cg, e), "");
  if (cg_is_small_float(e)) v = cg_small_decode(cg, v, e);
  return v;
}

void cg_store_at(CG *cg, Value *v, LLVMValueRef *idx, LLVMValueRef val) {
  LLVMValueRef lin = cg_linear_value(cg, v, idx);
  cg_store(cg, cg_buffer(cg, v), v->type->elem, lin, val);
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
  if (cg_is_sub_byte(e))
    val = elem_class(e) == 's' ? LLVMBuildSExt(cg->b, val, cg->t_i8, "")
                               : LLVMBuildZExt(cg->b, val, cg->t_i8, "");
  LLVMValueRef s = LLVMBuildStore(cg->b, val, elem_ptr(cg, ptr, e, lin));
  LLVMSetAlignment(s, cg_elem_align(e));
}

LLVMValueRef cg_stored_value(CG *cg, Value *v, LLVMValueRef *idx) {
  if (v->storage == ST_CONST) {
    const DenseData *d = value_dense(v);
    if (v->packed) {
      fprintf(stderr, "shloc: internal error: %%%d is packed but read elementally\n", v->id);
      abort();
    }
    if (d->splat || type_num_elems(v->type) == 1) return cg_dense_scalar(cg, d, 0);
  }
  LLVMValueRef lin = cg_linear_value(cg, v, idx);
  return cg_load(cg, cg_buffer(cg, v), v->type->elem, lin);
}
