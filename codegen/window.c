/*
 * window.c: window geometry shared by reduce_window (reduce.c) and
 * convolution (conv.c): where an element of a window lands in the input
 * (spec "reduce_window": padded_inputs and the window start; spec
 * "convolution": lhs_window_start, rhs and lhs dilation, padding; a
 * dynamic_conv's padding may be size expressions evaluated at run time).
 */
#include "codegen.h"

int64_t cg_window_at(const I64List *l, int d, int64_t dflt) {
  return l->n > d ? l->v[d] : dflt;
}

/* The low padding of dimension d: a constant, or the value of its size
 * expression (Window.pad_sym), evaluated at the entry of a function with
 * symbolic sizes (CG.symx). */
static LLVMValueRef pad_lo(CG *cg, const Window *w, int d) {
  if (w->pad_sym) return cg->symx[w->pad_sym[2 * d]->id];
  return cg_i64(cg, cg_window_at(&w->pad_lo, d, 0));
}

LLVMValueRef cg_window_pos(CG *cg, const Window *w, int d, LLVMValueRef in_dim, int64_t wd,
                           LLVMValueRef out_dim, LLVMValueRef r, LLVMValueRef wpos,
                           LLVMValueRef *valid) {
  LLVMBuilderRef b = cg->b;
  int64_t stride = cg_window_at(&w->strides, d, 1);
  int64_t wdil = cg_window_at(&w->window_dilations, d, 1);
  int64_t bdil = cg_window_at(&w->base_dilations, d, 1);
  LLVMValueRef lo_v = pad_lo(cg, w, d);
  LLVMValueRef p = LLVMBuildMul(b, r, cg_i64(cg, stride), "");
  p = LLVMBuildAdd(b, p, LLVMBuildMul(b, wpos, cg_i64(cg, wdil), ""), "");
  p = LLVMBuildSub(b, p, lo_v, "q");
  LLVMValueRef dilated;
  if (LLVMIsAConstantInt(in_dim) && LLVMIsAConstantInt(out_dim) && LLVMIsAConstantInt(lo_v)) {
    int64_t in = LLVMConstIntGetSExtValue(in_dim), out = LLVMConstIntGetSExtValue(out_dim);
    int64_t lo = LLVMConstIntGetSExtValue(lo_v);
    int64_t dil = in == 0 ? 0 : (in - 1) * bdil + 1;
    /* Windows that never leave the input need no check. */
    int64_t last = (out - 1) * stride + (wd - 1) * wdil - lo;
    if (bdil == 1 && lo <= 0 && last < dil) return p;
    dilated = cg_i64(cg, dil);
  } else { /* symbolic sizes or padding: (in - 1) * bdil + 1, <= 0 when in is 0 */
    dilated = LLVMBuildSub(b, LLVMBuildMul(b, in_dim, cg_i64(cg, bdil), ""), cg_i64(cg, bdil - 1), "");
  }
  LLVMValueRef below = LLVMBuildICmp(b, LLVMIntSLT, p, dilated, "");
  LLVMValueRef ok = LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntSGE, p, cg_i64(cg, 0), ""), below, "inb");
  LLVMValueRef q = p;
  if (bdil > 1) {
    LLVMValueRef rem = LLVMBuildSRem(b, p, cg_i64(cg, bdil), "");
    ok = LLVMBuildAnd(
        b, ok, LLVMBuildICmp(b, LLVMIntEQ, rem, cg_i64(cg, 0), ""), "");
    q = LLVMBuildSDiv(b, p, cg_i64(cg, bdil), "");
  }
  *valid = *valid ? LLVMBuildAnd(b, *valid, ok, "valid") : ok;
  return LLVMBuildSelect(b, ok, q, cg_i64(cg, 0), "pos");
}
