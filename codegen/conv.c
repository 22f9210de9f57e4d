/*
 * conv.c: the elemental generator of convolution (spec "convolution").
 *
 * result[n, spatial..., o] = sum over the kernel window positions and the
 * input features of the group of
 *   padded_lhs[n_in, window position..., c] * rhs[kernel position..., ci, o]
 * where padded_lhs is lhs padded with zeros and dilated by lhs_dilation.
 * Grouping follows the spec's split/concatenate formulation:
 *  - feature_group_count G: output feature o belongs to group
 *    g = o / (O / G) and reads input features [g * Ci, (g + 1) * Ci);
 *  - batch_group_count B: output feature o belongs to group
 *    g = o / (O / B) and reads input batch g * N_out + n.
 * The input-feature loop is innermost: it walks contiguous memory for the
 * NHWC layouts that JAX exports. This generator covers every case; a
 * convolution that is a kernel root with the feature dimensions last runs
 * instead as an implicit GEMM (cg_kernel_conv in dot.c).
 */
#include "codegen.h"

/* Input position of window element `w` along spatial dim s for output
 * position `r` (spec: lhs_window_start = output_spatial_index *
 * window_strides, slice with rhs_dilation), mapped back to lhs; see
 * cg_window_pos. */
static LLVMValueRef conv_pos(CG *cg, Op *op, int s, LLVMValueRef r,
                             LLVMValueRef w, LLVMValueRef *valid) {
  const ConvDims *cd = &op->a.conv;
  int64_t in_dim = op->opnds[0]->type->dims[cd->in_spatial.v[s]];
  int64_t k_dim = op->opnds[1]->type->dims[cd->k_spatial.v[s]];
  int64_t out_dim = op->results[0]->type->dims[cd->out_spatial.v[s]];
  return cg_window_pos(cg, &op->a.window, s, in_dim, k_dim, out_dim, r, w, valid);
}

static int64_t group_count(int64_t g) { return g > 0 ? g : 1; }

/* Batch and first input feature of the group that output feature o
 * reads (see the head comment). */
static void conv_groups(CG *cg, Op *op, LLVMValueRef *idx, LLVMValueRef *n_in,
                        LLVMValueRef *c0) {
  const ConvDims *cd = &op->a.conv;
  const Type *kt = op->opnds[1]->type, *rt = op->results[0]->type;
  int64_t O = kt->dims[cd->k_out_feature];
  int64_t ci = kt->dims[cd->k_in_feature];
  int64_t fg = group_count(op->a.feature_group_count);
  int64_t bg = group_count(op->a.batch_group_count);
  LLVMValueRef o = idx[cd->out_feature];
  *n_in = idx[cd->out_batch];
  *c0 = cg_i64(cg, 0);
  if (fg > 1) {
    LLVMValueRef g = LLVMBuildUDiv(cg->b, o, cg_i64(cg, O / fg), "fgroup");
    *c0 = LLVMBuildMul(cg->b, g, cg_i64(cg, ci), "c0");
  }
  if (bg > 1) {
    LLVMValueRef g = LLVMBuildUDiv(cg->b, o, cg_i64(cg, O / bg), "bgroup");
    LLVMValueRef base =
        LLVMBuildMul(cg->b, g, cg_i64(cg, rt->dims[cd->out_batch]), "");
    *n_in = LLVMBuildAdd(cg->b, base, *n_in, "n_in");
  }
}

void cg_gen_conv(CG *cg, Op *op, LLVMValueRef *idx, LLVMValueRef *out) {
  const ConvDims *cd = &op->a.conv;
  const Window *win = &op->a.window;
  Value *lhs = op->opnds[0], *rhs = op->opnds[1];
  const Type *kt = rhs->type;
  int rank = lhs->type->rank, ns = cd->in_spatial.n;
  ElemType le = lhs->type->elem, ke = kt->elem;
  ElemType re = op->results[0]->type->elem, ae = cg_dot_acc_type(re);

  if (type_num_elems(lhs->type) == 0 || type_num_elems(kt) == 0) {
    out[0] = LLVMConstNull(cg_scalar_type(cg, re)); /* an empty sum */
    return;
  }
  LLVMValueRef lidx[rank], kidx[rank];
  LLVMValueRef c0;
  conv_groups(cg, op, idx, &lidx[cd->in_batch], &c0);
  kidx[cd->k_out_feature] = idx[cd->out_feature];

  LLVMValueRef acc = cg_entry_alloca(cg, cg_scalar_type(cg, ae), "cacc");
  LLVMBuildStore(cg->b, LLVMConstNull(cg_scalar_type(cg, ae)), acc);

  /* Window loops (outer), then the input features of the group (inner). */
  CgLoop loops[ns + 1];
  int nloops = 0;
  LLVMValueRef valid = NULL;
  for (int s = 0; s < ns; s++) {
    int64_t kd = kt->dims[cd->k_spatial.v[s]];
    LLVMValueRef w = kd == 1 ? cg_i64(cg, 0)
                             : cg_loop_begin(cg, &loops[nloops++],
                                             cg_i64(cg, 0), cg_i64(cg, kd));
    bool rev = win->reversal.n > s && win->reversal.v[s];
    kidx[cd->k_spatial.v[s]] =
        rev ? LLVMBuildSub(cg->b, cg_i64(cg, kd - 1), w, "wrev") : w;
    lidx[cd->in_spatial.v[s]] =
        conv_pos(cg, op, s, idx[cd->out_spatial.v[s]], w, &valid);
  }
  int64_t ci = kt->dims[cd->k_in_feature];
  LLVMValueRef c = ci == 1 ? cg_i64(cg, 0)
                           : cg_loop_begin(cg, &loops[nloops++], cg_i64(cg, 0),
                                           cg_i64(cg, ci));
  kidx[cd->k_in_feature] = c;
  lidx[cd->in_feature] = LLVMBuildAdd(cg->b, c0, c, "c");

  LLVMValueRef x = cg_convert(cg, cg_value_at(cg, lhs, lidx), le, ae);
  LLVMValueRef y = cg_convert(cg, cg_value_at(cg, rhs, kidx), ke, ae);
  /* Padding holds zeros (spec: padded_lhs); 0 * inf stays NaN as there. */
  if (valid)
    x = LLVMBuildSelect(cg->b, valid, x, LLVMConstNull(LLVMTypeOf(x)), "x");
  LLVMValueRef a = LLVMBuildLoad2(cg->b, cg_scalar_type(cg, ae), acc, "");
  LLVMBuildStore(cg->b, cg_mul_add(cg, ae, a, x, y), acc);
  while (nloops > 0) cg_loop_end(cg, &loops[--nloops]);

  LLVMValueRef r = LLVMBuildLoad2(cg->b, cg_scalar_type(cg, ae), acc, "conv");
  out[0] = cg_convert(cg, r, ae, re);
}
