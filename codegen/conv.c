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
 * instead as an implicit GEMM on the blocked GEMM engine (cg_kernel_conv,
 * at the end).
 */
#include "gemm.h"

/* Input position of window element `w` along spatial dim s for output
 * position `r` (spec: lhs_window_start = output_spatial_index *
 * window_strides, slice with rhs_dilation), mapped back to lhs; see
 * cg_window_pos. */
static LLVMValueRef conv_pos(CG *cg, Op *op, int s, LLVMValueRef r,
                             LLVMValueRef w, LLVMValueRef *valid) {
  const ConvDims *cd = &op->a.conv;
  LLVMValueRef in_dim = cg_dim(cg, op->opnds[0], (int)cd->in_spatial.v[s]);
  int64_t k_dim = op->opnds[1]->type->dims[cd->k_spatial.v[s]];
  LLVMValueRef out_dim = cg_dim(cg, op->results[0], (int)cd->out_spatial.v[s]);
  return cg_window_pos(cg, &op->a.window, s, in_dim, k_dim, out_dim, r, w, valid);
}

static int64_t group_count(int64_t g) { return g > 0 ? g : 1; }

/* Batch and first input feature of the group that output feature o
 * reads (see the head comment). */
static void conv_groups(CG *cg, Op *op, LLVMValueRef *idx, LLVMValueRef *n_in,
                        LLVMValueRef *c0) {
  const ConvDims *cd = &op->a.conv;
  const Type *kt = op->opnds[1]->type;
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
        LLVMBuildMul(cg->b, g, cg_dim(cg, op->results[0], (int)cd->out_batch), "");
    *n_in = LLVMBuildAdd(cg->b, base, *n_in, "n_in");
  }
}

LLVMValueRef cg_gen_conv(CG *cg, Op *op, LLVMValueRef *idx) {
  const ConvDims *cd = &op->a.conv;
  const Window *win = &op->a.window;
  Value *lhs = op->opnds[0], *rhs = op->opnds[1];
  const Type *kt = rhs->type;
  int rank = lhs->type->rank, ns = cd->in_spatial.n;
  ElemType le = lhs->type->elem, ke = kt->elem;
  ElemType re = op->results[0]->type->elem, ae = cg_dot_acc_type(re);

  if (type_num_elems(lhs->type) == 0 || type_num_elems(kt) == 0)
    return LLVMConstNull(cg_scalar_type(cg, re)); /* an empty sum */
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

  /* An lhs of symbolic size may be empty: never read it speculatively. */
  LLVMValueRef x = valid && lhs->sym
      ? cg_value_guarded(cg, valid, lhs, lidx, LLVMConstNull(cg_scalar_type(cg, le)))
      : cg_value_at(cg, lhs, lidx);
  x = cg_convert(cg, x, le, ae);
  LLVMValueRef y = cg_convert(cg, cg_value_at(cg, rhs, kidx), ke, ae);
  /* Padding holds zeros (spec: padded_lhs); 0 * inf stays NaN as there. */
  if (valid)
    x = LLVMBuildSelect(cg->b, valid, x, LLVMConstNull(LLVMTypeOf(x)), "x");
  LLVMValueRef a = LLVMBuildLoad2(cg->b, cg_scalar_type(cg, ae), acc, "");
  LLVMBuildStore(cg->b, cg_mul_add(cg, ae, a, x, y), acc);
  while (nloops > 0) cg_loop_end(cg, &loops[--nloops]);

  LLVMValueRef r = LLVMBuildLoad2(cg->b, cg_scalar_type(cg, ae), acc, "conv");
  return cg_convert(cg, r, ae, re);
}

/* ------------------------------------------------------------------------ */
/* Convolution as an implicit GEMM (spec "convolution")                      */

/* With the feature dimensions last in lhs, rhs and result (NHWC, HWIO,
 * NHWC), a convolution without groups, base dilation or reversal is
 *   C[m, o] = sum over kernel positions w, input features c of
 *             A_w[m, c] * B_w[c, o]
 * where m runs over the other result dimensions, B_w is the rhs slice at
 * position w (a CI x O matrix with unit stride along o) and row m of A_w
 * is the input feature vector at the window position of m, or zeros when
 * that lands in the padding. The microkernel reads A_w through MR row
 * pointers, so the "im2col" matrix is never built. */

#define CONV_MAX_SPATIAL 6

typedef struct ConvPlan {
  int ns;
  int64_t ksize[CONV_MAX_SPATIAL]; /* kernel extent */
  int64_t kstr[CONV_MAX_SPATIAL]; /* rhs stride of the kernel dim */
  int64_t stride[CONV_MAX_SPATIAL], rdil[CONV_MAX_SPATIAL], lo[CONV_MAX_SPATIAL];
  int64_t npos; /* kernel positions */
  /* result dims 0 .. rank-2 (m), outermost first: extent and role
   * (-1: batch, s: spatial dim s) */
  int nmd;
  int64_t mdim[CONV_MAX_SPATIAL + 1];
  int mrole[CONV_MAX_SPATIAL + 1];
  /* With fold.kw > 1 (ir_conv_fold), the last spatial dimension's taps
   * are folded into K: its ksize is 1 here, npos the other taps, and K
   * fold.kw x the input features. */
  IrConvFold fold;
  int pdim; /* result dim kernel.c splits (cg_conv_split) */
  int64_t unit; /* its elements per unit of [begin, end): NR for columns, else 1 */
  /* 0, or with the rows split at the batch (pdim) the count of its lines,
   * the units of [begin, end): image x first spatial dimension */
  int64_t lines;
  /* mdim as the IR uses it, and the lhs extents and strides (conv_values):
   * constants, or run-time values where sizes are symbolic
   * (codegen/dyndims.c). */
  struct {
    LLVMValueRef mdim[CONV_MAX_SPATIAL + 1], batch_str;
    LLVMValueRef in_dim[CONV_MAX_SPATIAL], in_str[CONV_MAX_SPATIAL];
  } v;
} ConvPlan;

/* Whether the convolution fits the implicit GEMM (see above). */
static bool conv_fits(const Op *op) {
  const ConvDims *cd = &op->a.conv;
  const Window *w = &op->a.window;
  int rank = op->results[0]->type->rank;
  ElemType e = op->results[0]->type->elem;
  if (e != ET_F32 && e != ET_F64) return false;
  if (op->opnds[0]->type->elem != e || op->opnds[1]->type->elem != e) return false;
  if (op->opnds[0]->storage == ST_NONE || op->opnds[1]->storage == ST_NONE) return false;
  if (op->a.feature_group_count > 1 || op->a.batch_group_count > 1) return false;
  if (w->pad_sym) return false; /* padding known at run time: the elemental generator */
  if (cd->in_feature != rank - 1 || cd->k_out_feature != rank - 1 ||
      cd->out_feature != rank - 1 || cd->in_spatial.n > CONV_MAX_SPATIAL)
    return false;
  for (int s = 0; s < cd->in_spatial.n; s++)
    if (cg_window_at(&w->base_dilations, s, 1) != 1 || cg_window_at(&w->reversal, s, 0))
      return false;
  return true;
}

static void conv_plan(const Op *op, ConvPlan *c, GemmPlan *p) {
  const ConvDims *cd = &op->a.conv;
  const Window *w = &op->a.window;
  const Type *lt = op->opnds[0]->type, *kt = op->opnds[1]->type;
  const Type *rt = op->results[0]->type;
  int64_t ks[8];
  ir_strides(kt, ks);
  c->ns = cd->in_spatial.n;
  c->npos = 1;
  for (int s = 0; s < c->ns; s++) {
    c->ksize[s] = kt->dims[cd->k_spatial.v[s]];
    c->kstr[s] = ks[cd->k_spatial.v[s]];
    c->stride[s] = cg_window_at(&w->strides, s, 1);
    c->rdil[s] = cg_window_at(&w->window_dilations, s, 1);
    c->lo[s] = cg_window_at(&w->pad_lo, s, 0);
    c->npos *= c->ksize[s];
  }
  c->nmd = rt->rank - 1;
  p->M = 1;
  for (int d = 0; d < c->nmd; d++) {
    c->mdim[d] = rt->dims[d];
    c->mrole[d] = -1;
    for (int s = 0; s < c->ns; s++)
      if (cd->out_spatial.v[s] == d) c->mrole[d] = s;
    p->M = p->M == GEMM_DYN || rt->dims[d] == DIM_DYNAMIC ? GEMM_DYN : p->M * rt->dims[d];
  }
  p->N = rt->dims[rt->rank - 1];
  p->K = lt->dims[cd->in_feature];
  p->nbatch = 1;
  p->sak = 1;
  p->sam = 0; /* rows come from row pointers */
  p->sbk = ks[cd->k_in_feature];
  p->sbn = 1;
  c->fold.kw = 1;
}

/* Folds the last spatial dimension's taps into K where ir_conv_fold
 * allows: the kernel's rows at a tap of the others are then the
 * fold.kw x C rows from it, p->sbk apart (HWIO). Only for weights the
 * layout pass packs (the indirect GEMM): the packing and the kernel both
 * fold. */
static void conv_fold(const Op *op, ConvPlan *c, GemmPlan *p) {
  if (!ir_conv_fold(op, &c->fold)) return;
  int s = c->ns - 1;
  c->npos /= c->ksize[s];
  c->ksize[s] = 1;
  p->K *= c->fold.kw;
}

/* c->v and p->v.M from the sizes cg_dim gives (constants, which the
 * builder folds, but on symbolic sizes), lhs strides row-major. */
static void conv_values(CG *cg, const Op *op, ConvPlan *c, GemmPlan *p) {
  const ConvDims *cd = &op->a.conv;
  const Value *l = op->opnds[0], *r = op->results[0];
  LLVMValueRef st[CONV_MAX_SPATIAL + 2], s = cg_i64(cg, 1);
  for (int i = l->type->rank - 1; i >= 0; i--) {
    st[i] = s;
    s = LLVMBuildMul(cg->b, s, cg_dim(cg, l, i), "");
  }
  for (int k = 0; k < c->ns; k++) {
    c->v.in_dim[k] = cg_dim(cg, l, (int)cd->in_spatial.v[k]);
    c->v.in_str[k] = st[cd->in_spatial.v[k]];
  }
  c->v.batch_str = st[cd->in_batch];
  p->v.M = cg_i64(cg, 1);
  for (int d = 0; d < c->nmd; d++) {
    c->v.mdim[d] = cg_dim(cg, r, d);
    p->v.M = LLVMBuildMul(cg->b, p->v.M, c->v.mdim[d], "M");
  }
}

/* How threads split the implicit GEMM. By rows (the first result
 * dimension of extent > 1) when there are many: with M >= 8 MC
 * (GEMM_ROW_SPLIT_MIN_M: four MC of 288 rows a thread at 2 threads) each
 * call reads all of B once per MC rows, as one call would; with B packed
 * from CONV_ROW_SPLIT_MIN_M_PACKED (below). With fewer rows (ResNet-50's
 * 14 x 14 and 7 x 7 stages at batch 1: M = 196, 49) a row split makes
 * few pieces, or pieces of a few tiles
 * that each read all of B (up to 9 MB), so the output features (columns)
 * split instead, in units of NR columns, when there are panels enough
 * for two pieces per thread (ResNet-50 at batch 1 on 2 threads: every
 * layer of 256 features and more at 14 x 14 and 7 x 7; its 14 x 14 ones to 256
 * features, split by rows, made two pieces of 98 rows, each reading all
 * of B): each call then reads only its own panels of B from a
 * panel boundary, so B packed by the layout pass is read in place (and
 * an unpacked B is packed once in all). But when the rows' first wide
 * dimension is the batch, with two images or more per thread and each
 * image at least a call's worth of rows (GEMM_MIN_CALL_ROWS, or
 * CONV_BATCH_MIN_ROWS_PACKED with B packed), the rows split there
 * (conv_batch_rows): each call
 * reads all of B but only its images, where each call of a column split
 * reads the input of all images. ResNet-50 at batch 8 (M = 1568 at
 * 14 x 14, 196 rows an image): its 14 x 14 convolutions made 8 pieces of
 * whole images instead of 4 or 8 of columns, and the CPU time of the
 * pieces (min of 9 calls, three interleaved rounds, load 2.6-5) fell by
 * up to 9% for the 1 x 1 ones to 1024 features, 1-2% for the others;
 * the whole model's by 0.6-1.2% with the pieces one after the other on
 * one thread, 1.7% on the team, and its process CPU time by 1.0-1.5% at
 * 2 threads (alternating calls). The 7 x 7 stage (49
 * rows an image, B up to 9 MB) showed no gain split so and keeps the
 * columns: hence 96 rows an image with B packed, not the packed grain
 * (gemm.h, 48), which would take that stage too. Each element's sum over
 * K runs in the same order whatever the split, so results do not depend
 * on it. */
enum { CONV_BATCH_MIN_ROWS_PACKED = 96 };
/* The first result row dimension of extent > 1 (c->nmd: none). */
static int conv_first_wide(const ConvPlan *c) {
  int d = 0;
  while (d < c->nmd && c->mdim[d] == 1) d++;
  return d;
}

static bool conv_batch_rows(const ConvPlan *c, int threads, bool packed) {
  int d = conv_first_wide(c);
  if (d == c->nmd || c->mrole[d] != -1) return false;
  int64_t rows = 1;
  for (int e = d + 1; e < c->nmd; e++) rows *= c->mdim[e];
  return c->mdim[d] >= 2 * (threads > 2 ? threads : 2) &&
         rows >= (packed ? CONV_BATCH_MIN_ROWS_PACKED : GEMM_MIN_CALL_ROWS);
}

/* With B packed a call of rows packs nothing, so the rows split from
 * fewer of them: 16 of the packed grain (GEMM_MIN_CALL_ROWS_PACKED), 8
 * calls' worth a thread at 2 threads as GEMM_ROW_SPLIT_MIN_M is 8 MC.
 * ResNet-50 at batch 1 then splits its 28 x 28 convolutions to 512
 * features (M = 784, 8 panels of 64 on AVX-512) by rows like the rest of
 * that stage, where 8 column pieces each read all of A (the input, 784 x
 * 256 or 128 features): each thread keeps the same rows through the
 * stage (the Winograd 3 x 3 layers between them split tiles, rows too),
 * and the rows it reads are mostly the ones it wrote. ResNet-50 b1 at 2
 * threads, paired A/B against the column split (SCHED_FIFO, load
 * 2.4-4): 0.970-0.985x per round of 30 alternating calls where both
 * threads run slower together (docs/runtime.md's slow regime; 25-29 of
 * 30 faster in 7 of 8 rounds), those loops 0.74-0.94x their time;
 * 0.998x with both at full speed (121 of 200 faster), those loops
 * 0.965-0.99x; one thread 1.000x. The 14 x 14 stage split by rows too
 * (7 result rows a thread, one piece each) was no faster, nor were its
 * column pieces of few panels cut in blocks of rows (1.000x and 0.999x).
 * At batch 8 the 7 x 7 stage (M = 392, each image's 49 rows a call
 * reading all of B, up to 9 MB) keeps the columns (see above). Only
 * when the rows' first wide dimension is spatial, with two units a
 * thread: first the batch, it gave a call whole images past
 * conv_batch_rows' rule (a 1 x 1 convolution 3 x 16 x 16 x 256 -> 512
 * on 2 threads: 3 pieces of an image against 8 of columns, 1.28x the
 * time). */
enum { CONV_ROW_SPLIT_MIN_M_PACKED = 16 * GEMM_MIN_CALL_ROWS_PACKED };
/* Rows split at the batch split in lines (an image's rows of one index
 * of its first spatial dimension), not whole images: the runtime cuts a
 * thread's share in pieces that halve towards its end (runtime/parallel.c),
 * and of whole images the last pieces were an image each, an eighth of
 * the loop at batch 8 on 2 threads (ResNet-50 b8's 7 x 7 stem: 2 1 1
 * images a thread, 4.6 ms an image), where lines make them a 32nd of a
 * share; each thread keeps the same half of the images from kernel to
 * kernel, as with images. With winograd.c's split of tile rows, ResNet-50
 * b8 at 2 threads against whole images (one process alternating both,
 * 50 ms before each call, load 3-6): paired medians 0.949-0.994x under
 * SCHED_FIFO (five runs of 24-40 calls, 22-30 of 40 faster), 0.987x at
 * nice -15 (27 of 40); the threads' idle time at the joins 24.7 -> 11.2
 * ms a call (a timing runtime); same bits. */
static void conv_split(ConvPlan *c, const GemmPlan *p, int nr, int threads, bool packed) {
  int d = conv_first_wide(c);
  bool spatial = d < c->nmd && c->mrole[d] != -1 && c->mdim[d] >= 2 * (threads > 2 ? threads : 2);
  int64_t min_m = packed && spatial ? CONV_ROW_SPLIT_MIN_M_PACKED : GEMM_ROW_SPLIT_MIN_M;
  bool cols = p->M < min_m && gemm_enough_panels(p->N, nr, threads) &&
              !conv_batch_rows(c, threads, packed);
  c->pdim = cols ? c->nmd : d;
  c->unit = cols ? nr : 1;
  bool lines = threads > 1 && !cols && d + 1 < c->nmd && c->mrole[d] == -1;
  c->lines = lines ? c->mdim[d] * c->mdim[d + 1] : 0;
}

/* The plan of a convolution that fits the implicit GEMM, and its split
 * for the target's tile and the compilation's threads. */
static void conv_plan_split(CG *cg, const Op *op, ConvPlan *c, GemmPlan *p) {
  conv_plan(op, c, p);
  conv_split(c, p, gemm_nr(cg, op), cg->o->threads, op->opnds[1]->packed);
}

/* The rows of C in one unit of [begin, end) of a split by rows: those of
 * one index of pdim, or of a line (ConvPlan.lines). */
static int64_t conv_unit_rows(const ConvPlan *c) {
  int64_t inner = 1;
  for (int d = c->pdim + (c->lines ? 2 : 1); d < c->nmd; d++) inner *= c->mdim[d];
  return inner;
}

/* Rows and columns of C for [begin, end) of result dimension pdim in
 * units of c->unit, or of lines (the dimensions before it have extent 1). */
static GemmRange conv_range(Gemm *g, const ConvPlan *c, LLVMValueRef begin,
                            LLVMValueRef end) {
  CG *cg = g->cg;
  const GemmPlan *p = &g->p;
  GemmRange r = {cg_i64(cg, 0), cg_i64(cg, 1), cg_i64(cg, 0),
                 p->v.M,        cg_i64(cg, 0), cg_i64(cg, p->N)};
  if (c->pdim == c->nmd) {
    r.c0 = LLVMBuildMul(g->b, begin, cg_i64(cg, c->unit), "c0");
    r.c1 = cg_min_i64(cg, LLVMBuildMul(g->b, end, cg_i64(cg, c->unit), ""), cg_i64(cg, p->N));
    return r;
  }
  int64_t inner = conv_unit_rows(c);
  r.r0 = LLVMBuildMul(g->b, begin, cg_i64(cg, inner), "lo");
  r.r1 = LLVMBuildMul(g->b, end, cg_i64(cg, inner), "hi");
  return r;
}

/* Kernel position kpos -> window offsets w[s] (spec order, last fastest);
 * returns the rhs element offset of the position. */
static LLVMValueRef conv_window(Gemm *g, const ConvPlan *c, LLVMValueRef kpos,
                                LLVMValueRef *w) {
  CG *cg = g->cg;
  LLVMValueRef q = kpos, off = cg_i64(cg, 0);
  for (int s = c->ns - 1; s >= 0; s--) {
    w[s] = LLVMBuildURem(g->b, q, cg_i64(cg, c->ksize[s]), "w");
    q = LLVMBuildUDiv(g->b, q, cg_i64(cg, c->ksize[s]), "");
    off =
        LLVMBuildAdd(g->b, off, LLVMBuildMul(g->b, w[s], cg_i64(cg, c->kstr[s]), ""), "");
  }
  return off;
}

/* The input position of index i of result dimension d (a spatial one) at
 * window offsets w, and *off plus its lhs offset; for the batch, NULL. */
static LLVMValueRef conv_dim_at(Gemm *g, const ConvPlan *c, int d, LLVMValueRef i,
                                LLVMValueRef *w, LLVMValueRef *off) {
  CG *cg = g->cg;
  LLVMBuilderRef b = g->b;
  int sp = c->mrole[d];
  if (sp < 0) {
    *off = LLVMBuildAdd(b, *off, LLVMBuildMul(b, i, c->v.batch_str, ""), "");
    return NULL;
  }
  /* spec: window start = output index * stride, element w dilated */
  LLVMValueRef ip = LLVMBuildMul(b, i, cg_i64(cg, c->stride[sp]), "");
  ip = LLVMBuildAdd(b, ip, LLVMBuildMul(b, w[sp], cg_i64(cg, c->rdil[sp]), ""), "");
  ip = LLVMBuildSub(b, ip, cg_i64(cg, c->lo[sp]), "ip");
  *off = LLVMBuildAdd(b, *off, LLVMBuildMul(b, ip, c->v.in_str[sp], ""), "");
  return ip;
}

/* *off plus the lhs offset of the window position of result index q of
 * dimensions d, d - 1, ... 0 (the last fastest); *ok and whether each
 * lies in the input. */
static void conv_outer_at(Gemm *g, const ConvPlan *c, int d, LLVMValueRef q, LLVMValueRef *w,
                          LLVMValueRef *ok, LLVMValueRef *off) {
  LLVMBuilderRef b = g->b;
  for (; d >= 0; d--) {
    LLVMValueRef i = LLVMBuildURem(b, q, c->v.mdim[d], "");
    q = LLVMBuildUDiv(b, q, c->v.mdim[d], "");
    LLVMValueRef ip = conv_dim_at(g, c, d, i, w, off);
    if (ip)
      *ok = LLVMBuildAnd(b, *ok,
                         LLVMBuildICmp(b, LLVMIntULT, ip, c->v.in_dim[c->mrole[d]], ""), "");
  }
}

/* With the fold (conv_fold), the window rows that reach into the padding
 * (conv_fold_edges): `at` those of the block, q0 the block's first result
 * row (its index over all result dimensions but the last), kpos the tap. */
typedef struct ConvEdges {
  LLVMValueRef at, q0, kpos;
} ConvEdges;

/* The first result row (over all result dimensions but the last) of the
 * block of rows from ic. */
static LLVMValueRef conv_fold_q0(Gemm *g, const ConvPlan *c, LLVMValueRef ic) {
  return LLVMBuildUDiv(g->b, ic, c->v.mdim[c->nmd - 1], "q0");
}

/* Gathered window row e of result row q at tap kpos: its offset from the
 * block's (conv_fold_edges' layout). */
static LLVMValueRef conv_edge_off(Gemm *g, const ConvPlan *c, LLVMValueRef qq,
                                  LLVMValueRef kpos, LLVMValueRef e) {
  CG *cg = g->cg;
  LLVMValueRef slot = LLVMBuildAdd(g->b, LLVMBuildMul(g->b, qq, cg_i64(cg, c->npos), ""), kpos, "");
  slot = LLVMBuildAdd(g->b, LLVMBuildMul(g->b, slot, cg_i64(cg, c->fold.edges), ""), e, "");
  return LLVMBuildMul(g->b, slot, cg_i64(cg, g->p.K), "edgeoff");
}

/* The lhs feature vector (from input feature cb) that row m of A_w reads
 * (ok: inside the input), or with the fold its window row, gathered when
 * it reaches into the padding. */
static LLVMValueRef conv_row_ptr(Gemm *g, const ConvPlan *c, LLVMValueRef lhs, LLVMValueRef m,
                                 LLVMValueRef *w, LLVMValueRef cb, const ConvEdges *ed,
                                 LLVMValueRef *ok) {
  CG *cg = g->cg;
  LLVMBuilderRef b = g->b;
  LLVMValueRef off = cb;
  if (!ed) {
    conv_outer_at(g, c, c->nmd - 1, m, w, ok, &off);
    return cg_gep(cg, g->t, lhs, off);
  }
  int d = c->nmd - 1;
  const IrConvFold *f = &c->fold;
  LLVMValueRef x = LLVMBuildURem(b, m, c->v.mdim[d], "x");
  LLVMValueRef q = LLVMBuildUDiv(b, m, c->v.mdim[d], "q");
  LLVMValueRef ip = conv_dim_at(g, c, d, x, w, &off);
  conv_outer_at(g, c, d - 1, q, w, ok, &off);
  /* the window row's kw columns in the input: ip in [0, width - kw]
   * (NHWC: the input's width is its dimension d too) */
  int64_t inner = g->op->opnds[0]->type->dims[d] - f->kw + 1;
  LLVMValueRef in = LLVMBuildICmp(b, LLVMIntULT, ip, cg_i64(cg, inner > 0 ? inner : 0), "");
  LLVMValueRef gap = cg_i64(cg, c->mdim[d] - f->edges);
  LLVMValueRef right = LLVMBuildSub(b, x, gap, "");
  LLVMValueRef left = LLVMBuildICmp(b, LLVMIntSLT, x, cg_i64(cg, f->left), "");
  LLVMValueRef e = LLVMBuildSelect(b, left, x, right, "edge");
  LLVMValueRef eoff = conv_edge_off(g, c, LLVMBuildSub(b, q, ed->q0, ""), ed->kpos, e);
  /* not inbounds: unused (and anywhere) for the rows inside */
  LLVMValueRef edge = LLVMBuildGEP2(b, g->t, ed->at, &eoff, 1, "");
  return LLVMBuildSelect(b, in, cg_gep(cg, g->t, lhs, off), edge, "");
}

/* rowptrs[r] = conv_row_ptr of row m0 + r, or the zero row for padding
 * and rows >= m1. */
static void conv_rows(Gemm *g, GemmScratch *s, const ConvPlan *c, LLVMValueRef lhs,
                      LLVMValueRef m0, LLVMValueRef m1, LLVMValueRef *w, LLVMValueRef cb,
                      const ConvEdges *ed) {
  CG *cg = g->cg;
  LLVMBuilderRef b = g->b;
  for (int r = 0; r < g->p.mr; r++) {
    LLVMValueRef m = LLVMBuildAdd(b, m0, cg_i64(cg, r), "m");
    LLVMValueRef ok = LLVMBuildICmp(b, LLVMIntSLT, m, m1, "");
    LLVMValueRef q = LLVMBuildSelect(b, ok, m, m0, "");
    LLVMValueRef ptr = conv_row_ptr(g, c, lhs, q, w, cb, ed, &ok);
    ptr = LLVMBuildSelect(b, ok, ptr, s->zeros, "");
    LLVMBuildStore(b, ptr, cg_gep(cg, cg->t_ptr, s->rowptrs, cg_i64(cg, r)));
  }
}

/* One NR panel of a row block at one kernel position: the KC slices of the
 * input features. */
static void conv_panel(Gemm *g, GemmScratch *s, const ConvPlan *c, LLVMValueRef lhs,
                       LLVMValueRef rhs, LLVMValueRef cblk, LLVMValueRef ic,
                       LLVMValueRef mc, LLVMValueRef jr, LLVMValueRef nr,
                       LLVMValueRef kpos) {
  CG *cg = g->cg;
  const GemmPlan *p = &g->p;
  CgLoop lc, li;
  LLVMValueRef w[CONV_MAX_SPATIAL];
  LLVMValueRef roff = conv_window(g, c, kpos, w);
  LLVMValueRef cb = cg_loop_step(cg, &lc, cg_i64(cg, 0), cg_i64(cg, p->K), p->kc);
  LLVMValueRef kc =
      cg_min_i64(cg, cg_i64(cg, p->kc), LLVMBuildSub(g->b, cg_i64(cg, p->K), cb, ""));
  LLVMValueRef first_k = LLVMBuildICmp(g->b, LLVMIntEQ, cb, cg_i64(cg, 0), "");
  LLVMValueRef first_tap = LLVMBuildICmp(g->b, LLVMIntEQ, kpos, cg_i64(cg, 0), "");
  LLVMValueRef first = LLVMBuildAnd(g->b, first_tap, first_k, "first");
  LLVMValueRef bmat = g->packed ? gemm_packed_matrix(g, rhs, kpos) : cg_gep(cg, g->t, rhs, roff);
  LLVMValueRef bp = gemm_b_panel(g, s, bmat, cb, jr, nr, kc);
  LLVMValueRef ir = cg_loop_step(cg, &li, cg_i64(cg, 0), mc, p->mr);
  LLVMValueRef m0 = LLVMBuildAdd(g->b, ic, ir, "");
  conv_rows(g, s, c, lhs, m0, LLVMBuildAdd(g->b, ic, mc, ""), w, cb, NULL);
  LLVMValueRef rows = cg_min_i64(cg, cg_i64(cg, p->mr), LLVMBuildSub(g->b, mc, ir, ""));
  LLVMValueRef coff =
      LLVMBuildAdd(g->b, LLVMBuildMul(g->b, m0, cg_i64(cg, p->N), ""), jr, "");
  gemm_call_micro(g, s, s->rowptrs, bp, cg_gep(cg, g->t, cblk, coff), kc, rows, nr, first);
  cg_loop_end(cg, &li);
  cg_loop_end(cg, &lc);
}

static void conv_body(Gemm *g, Op *op, const ConvPlan *c, const GemmRange *r) {
  CG *cg = g->cg;
  const GemmPlan *p = &g->p;
  GemmScratch s = g->scratch ? gemm_scratch_at(g, g->scratch) : gemm_scratch(g);
  LLVMValueRef lhs = cg_buffer(cg, op->opnds[0]);
  LLVMValueRef rhs = cg_buffer(cg, op->opnds[1]);
  LLVMValueRef C = cg_buffer(cg, (g->epi ? g->epi : op)->results[0]);
  CgLoop li, lj, lk;
  LLVMValueRef ic = cg_loop_step(cg, &li, r->r0, r->r1, p->mc);
  GemmBlock k = gemm_block_at(g, cg_i64(cg, 0), ic, r->r1, r, lhs, rhs, C);
  if (p->K == 0 || c->npos == 0) {
    gemm_zero_block(g, &k);
    gemm_epilogue(g, ic, k.mc, k.c0, k.c1);
  } else {
    LLVMValueRef jr = cg_loop_step(cg, &lj, r->c0, r->c1, p->nr);
    LLVMValueRef nr =
        cg_min_i64(cg, cg_i64(cg, p->nr), LLVMBuildSub(g->b, r->c1, jr, ""));
    LLVMValueRef kpos = cg_loop_begin(cg, &lk, cg_i64(cg, 0), cg_i64(cg, c->npos));
    conv_panel(g, &s, c, lhs, rhs, C, ic, k.mc, jr, nr, kpos);
    cg_loop_end(cg, &lk);
    /* The MC x NR panel of C is complete and in L2. */
    gemm_epilogue(g, ic, k.mc, jr, LLVMBuildAdd(g->b, jr, nr, ""));
    cg_loop_end(cg, &lj);
  }
  cg_loop_end(cg, &li);
}

/* ------------------------------------------------------------------------ */
/* The indirect GEMM (weights packed by the layout pass)                     */

/* With B packed in panels by the layout pass, nothing is packed at run
 * time, and the microkernel sums each tile over all kernel taps and input
 * features at once (gemm.c gemm_conv_micro), its accumulators in
 * registers throughout: C is written once per tile, not once per tap and
 * KC slice. A block of rows first builds its table of row pointers: for
 * each MR rows (a row block) and each tap, the MR input feature vectors at
 * the tap's window positions, or the row of K zeros for padding and rows
 * past the block (conv_rows). The table serves every NR panel of columns;
 * each panel's B (all taps, K x NR each) stays in cache down the row
 * blocks. The table of a block is at most IR_CONV_IND_BYTES (ir.h), which
 * bounds the block's rows. */

/* Bytes of a pointer in the table, at most (ir.c conv_table_bound). */
enum { CONV_PTR_BYTES = 8 };

/* Rows per block of the indirect GEMM: at most IR_CONV_IND_ROWS and M rounded up to
 * MR, and a table that fits IR_CONV_IND_BYTES; 0 when a row block's table
 * alone would not. */
static int64_t conv_ind_rows(const GemmPlan *p, const ConvPlan *c) {
  int64_t blocks = IR_CONV_IND_BYTES / (c->npos * p->mr * CONV_PTR_BYTES);
  int64_t max = IR_CONV_IND_ROWS / p->mr, need = (p->M + p->mr - 1) / p->mr;
  if (need < max) max = need;
  return (blocks < max ? blocks : max) * p->mr;
}

/* The row tiles of a block of mc rows: n = ceil(mc / MR) of them; with
 * balance (conv_kinds), the first nbig of MR rows and the others of MR -
 * 1 when n x (MR - 1) rows cover mc (ResNet-50's 7 x 7 layers at batch 1,
 * M = 49: 4 x 6 + 5 x 5 rows, not 8 x 6 + 1, whose tile of one row reads
 * as much B per k as a full one for a sixth of its work), else MR rows
 * each but the last.
 * Tile i starts at row i x MR - max(0, i - nbig). Each element's sum is
 * the same whichever tile computes it (gemm.c conv_micro_fn). One 7 x 7
 * x 512 -> 512 3 x 3 layer, one thread, the loaded 2-core Zen 4, CPU
 * time, min of 3 x 200 calls: 1.988-1.997 ms against 2.039-2.051 (peak:
 * 1.976); 7 x 7 x 512 -> 2048 1 x 1: 0.878-0.882 against 0.900; at 14 x
 * 14 (M = 196 = 31 x 6 + 2 x 5, was 32 x 6 + 4) the same within 0.3%. */
ConvTiles cg_conv_tiles(Gemm *g, LLVMValueRef mc, bool balance) {
  CG *cg = g->cg;
  int64_t mr = g->p.mr;
  LLVMValueRef n = LLVMBuildUDiv(g->b, LLVMBuildAdd(g->b, mc, cg_i64(cg, mr - 1), ""),
                                 cg_i64(cg, mr), "ntiles");
  if (!balance) return (ConvTiles){n, n};
  LLVMValueRef small = LLVMBuildMul(g->b, n, cg_i64(cg, mr - 1), "");
  LLVMValueRef fits = LLVMBuildICmp(g->b, LLVMIntULE, small, mc, "");
  return (ConvTiles){n, LLVMBuildSelect(g->b, fits, LLVMBuildSub(g->b, mc, small, ""), n, "nbig")};
}

/* Tile i's first row in the block; *rows its rows. */
LLVMValueRef cg_conv_tile_at(Gemm *g, const ConvTiles *t, LLVMValueRef mc, LLVMValueRef i,
                             LLVMValueRef *rows) {
  CG *cg = g->cg;
  int64_t mr = g->p.mr;
  LLVMValueRef big = LLVMBuildICmp(g->b, LLVMIntSLT, i, t->nbig, "");
  LLVMValueRef over = LLVMBuildSelect(g->b, big, cg_i64(cg, 0), LLVMBuildSub(g->b, i, t->nbig, ""), "");
  LLVMValueRef start = LLVMBuildSub(g->b, LLVMBuildMul(g->b, i, cg_i64(cg, mr), ""), over, "tile0");
  LLVMValueRef left = LLVMBuildSub(g->b, mc, start, "");
  *rows = cg_min_i64(cg, LLVMBuildSelect(g->b, big, cg_i64(cg, mr), cg_i64(cg, mr - 1), ""), left);
  return start;
}

/* The table of the block of mc rows from ic: tile i (cg_conv_tiles), tap t
 * at tab[(i * npos + t) * MR]; pointers past the tile's rows are to the
 * zero row. In ResNet-50's stem (49 taps, 3 input features: a pointer
 * per 3 x 64 multiply-adds) the table is 13-15% of the kernel (the stem
 * alone, building only the first blocks' tables: 0.87x at batch 1, 0.85x
 * at batch 8; LLVM vectorizes the tap loop, the row's division hoisted
 * out of it); with the tap loop outside the tile loop (the window's
 * division once per tap, the row's per pointer) the stem ran 1.50x
 * (batch 1) and 1.67x (batch 8) slower. The 7 taps of a kernel row are
 * now folded into K = 21 (conv_fold: 7x fewer pointers, the window rows
 * in the padding gathered by conv_fold_edges): the stem with its bias,
 * ReLU and max-pool, one thread, min of 100 (batch 1) and 15 (batch 8)
 * calls, CPU time, load 3.2: 2.485 ms against 2.685, 20.7 against 22.4
 * (same bits); the kernel outside the microkernel from 13% of the stem
 * to 6% at batch 8. A microkernel with K = 3 a constant,
 * its k loop unrolled, was as fast on the stem (1.000x at batch 8,
 * 0.994-0.998x at batch 1). (Alternating calls in one process, CPU
 * time.) */
static void conv_ind_table(Gemm *g, const ConvPlan *c, LLVMValueRef lhs, LLVMValueRef tab,
                           LLVMValueRef edges, LLVMValueRef zeros, LLVMValueRef ic,
                           LLVMValueRef mc, bool balance) {
  CG *cg = g->cg;
  const GemmPlan *p = &g->p;
  CgLoop li, lt;
  LLVMValueRef w[CONV_MAX_SPATIAL], rows;
  ConvTiles tiles = cg_conv_tiles(g, mc, balance);
  LLVMValueRef i = cg_loop_begin(cg, &li, cg_i64(cg, 0), tiles.n);
  LLVMValueRef m0 = LLVMBuildAdd(g->b, ic, cg_conv_tile_at(g, &tiles, mc, i, &rows), "");
  LLVMValueRef kpos = cg_loop_begin(cg, &lt, cg_i64(cg, 0), cg_i64(cg, c->npos));
  conv_window(g, c, kpos, w);
  LLVMValueRef slot = LLVMBuildMul(
      g->b, LLVMBuildAdd(g->b, LLVMBuildMul(g->b, i, cg_i64(cg, c->npos), ""), kpos, ""),
      cg_i64(cg, p->mr), "");
  GemmScratch s = {.rowptrs = cg_gep(cg, cg->t_ptr, tab, slot), .zeros = zeros};
  ConvEdges ed = {edges, edges ? conv_fold_q0(g, c, ic) : NULL, kpos};
  conv_rows(g, &s, c, lhs, m0, LLVMBuildAdd(g->b, m0, rows, ""), w, cg_i64(cg, 0),
            edges ? &ed : NULL);
  cg_loop_end(cg, &lt);
  cg_loop_end(cg, &li);
}

/* With the fold, the window rows of the block of mc rows from ic that
 * reach into the padding, gathered with their zeros (spec: padded_lhs)
 * at conv_edge_off: for each result row q of the block, each tap and
 * each edge column (the first fold.left result columns, then the last
 * ones), its fold.kw x C values, contiguous in the input where they lie
 * in it. (Where its other positions lie in the padding, the table points
 * the row at the zero row instead.) */
static void conv_fold_edges(Gemm *g, const ConvPlan *c, LLVMValueRef lhs, LLVMValueRef edges,
                            LLVMValueRef ic, LLVMValueRef mc) {
  CG *cg = g->cg;
  LLVMBuilderRef b = g->b;
  const IrConvFold *f = &c->fold;
  int d = c->nmd - 1;
  LLVMValueRef q0 = conv_fold_q0(g, c, ic), one = cg_i64(cg, 1);
  LLVMValueRef q1 = LLVMBuildUDiv(b, LLVMBuildSub(b, LLVMBuildAdd(b, ic, mc, ""), one, ""),
                                  c->v.mdim[d], "q1");
  CgLoop lq, lt, le, lj;
  LLVMValueRef qq = cg_loop_begin(cg, &lq, cg_i64(cg, 0),
                                  LLVMBuildAdd(b, LLVMBuildSub(b, q1, q0, ""), one, ""));
  LLVMValueRef kpos = cg_loop_begin(cg, &lt, cg_i64(cg, 0), cg_i64(cg, c->npos));
  LLVMValueRef w[CONV_MAX_SPATIAL], ok = LLVMConstInt(cg->t_i1, 1, 0), off = cg_i64(cg, 0);
  conv_window(g, c, kpos, w);
  conv_outer_at(g, c, d - 1, LLVMBuildAdd(b, q0, qq, ""), w, &ok, &off);
  LLVMValueRef e = cg_loop_begin(cg, &le, cg_i64(cg, 0), cg_i64(cg, f->edges));
  LLVMValueRef left = LLVMBuildICmp(b, LLVMIntSLT, e, cg_i64(cg, f->left), "");
  LLVMValueRef x = LLVMBuildSelect(
      b, left, e, LLVMBuildAdd(b, e, cg_i64(cg, c->mdim[d] - f->edges), ""), "x");
  LLVMValueRef x0 = conv_dim_at(g, c, d, x, w, &off);
  LLVMValueRef dst = cg_gep(cg, g->t, edges, conv_edge_off(g, c, qq, kpos, e));
  /* element j: input column x0 + j / C, feature j % C, at off + j */
  bool vector_loops = cg->vector_loops;
  cg->vector_loops = false; /* a scalar copy: LLVM's to vectorize */
  LLVMValueRef j = cg_loop_begin(cg, &lj, cg_i64(cg, 0), cg_i64(cg, g->p.K));
  LLVMValueRef ix = LLVMBuildAdd(b, x0, LLVMBuildUDiv(b, j, cg_i64(cg, g->p.K / f->kw), ""), "");
  LLVMValueRef in = LLVMBuildAnd(
      b, ok, LLVMBuildICmp(b, LLVMIntULT, ix, c->v.in_dim[c->mrole[d]], ""), "in");
  LLVMValueRef src = LLVMBuildSelect(b, in, LLVMBuildAdd(b, off, j, ""), cg_i64(cg, 0), "");
  LLVMValueRef v = LLVMBuildLoad2(b, g->t, cg_gep(cg, g->t, lhs, src), "");
  LLVMValueRef at = cg_gep(cg, g->t, dst, j);
  LLVMBuildStore(b, LLVMBuildSelect(b, in, v, LLVMConstNull(g->t), ""), at);
  cg_loop_end(cg, &lj);
  cg->vector_loops = vector_loops;
  cg_loop_end(cg, &le);
  cg_loop_end(cg, &lt);
  cg_loop_end(cg, &lq);
}

/* The rows of the last tile when M is not a multiple of MR, else 0. Tiles
 * of at most that many rows (the last one of a block that cg_conv_tiles
 * cannot make of MR - 1 rows; with the rows split across calls, a call's
 * last may be shorter) run the microkernel of that many rows: ResNet-50's
 * 7 x 7 convolutions at batch 1 (M = 49 = 8 x 6 + 1) spent a ninth of
 * their time on a tile of one row before cg_conv_tiles. */
static int64_t conv_rem_rows(const GemmPlan *p) { return p->M > 0 ? p->M % p->mr : 0; }

/* The microkernels a kernel's tiles need, by rows, tried in order: a
 * tile of nrows rows runs the first whose rows equal nrows (with `le`:
 * are at least nrows), else the last. When every call has all of M (one
 * thread, or the columns split) the blocks are known: full ones of `rows`
 * (a multiple of MR) and the last one, which cg_conv_tiles balances when MR
 * - 1 rows a tile cover it, else ends on conv_rem_rows' rows. Else (the
 * rows split across calls) a call's last block may be any size: not
 * balanced, its last tile on conv_rem_rows' microkernel when it fits,
 * else on the MR-row one (balancing there too, with the microkernel of MR
 * - 1 rows at every split kernel, made ResNet-50's compilation at batch 8
 * and 2 threads 20% slower). */
typedef struct ConvKinds {
  int n, mr[2];
  bool le[2], balance;
} ConvKinds;

static ConvKinds conv_kinds(const GemmPlan *p, const ConvPlan *c, int64_t rows, int threads) {
  ConvKinds k = {.n = 1, .mr = {p->mr}};
  int rem = (int)conv_rem_rows(p);
  if (threads <= 1 || c->pdim == c->nmd) {
    int64_t last = p->M > 0 ? (p->M - 1) % rows + 1 : rows;
    int64_t n = (last + p->mr - 1) / p->mr;
    k.balance = last % p->mr && n * (p->mr - 1) <= last;
    if (last % p->mr) k.mr[k.n++] = k.balance ? p->mr - 1 : rem;
  } else if (rem > 0) {
    k = (ConvKinds){.n = 2, .mr = {rem, p->mr}, .le = {true}};
  }
  return k;
}

/* The microkernel on tile i of the block (its table at rt), of nrows
 * rows, for the taps of t (conv_kinds). */
static void conv_ind_tile(Gemm *g, const ConvKinds *k, LLVMValueRef rt, LLVMValueRef rhs,
                          LLVMValueRef cp, GemmTaps *t, LLVMValueRef jr, LLVMValueRef i,
                          LLVMValueRef nrows, LLVMValueRef nr) {
  CG *cg = g->cg;
  const GemmPlan *p = &g->p;
  /* Tile i fetches line i % lines of each row of the next panel: the
   * first tiles of a panel fetch all of it; with cpf_first (AVX2, where
   * a row is one line) tile 0 alone. */
  int64_t per_line = 64 / elem_bytes(p->e), lines = p->nr / per_line > 1 ? p->nr / per_line : 1;
  t->pf_line = LLVMBuildMul(g->b, LLVMBuildURem(g->b, i, cg_i64(cg, lines), ""),
                            cg_i64(cg, per_line), "pfline");
  if (p->cpf_first) t->fetch = LLVMBuildICmp(g->b, LLVMIntEQ, i, cg_i64(cg, 0), "fetch");
  CgIf ifs[2];
  for (int j = 0; j < k->n - 1; j++) {
    cg_if_begin(cg, &ifs[j], LLVMBuildICmp(g->b, k->le[j] ? LLVMIntSLE : LLVMIntEQ, nrows,
                                           cg_i64(cg, k->mr[j]), ""));
    gemm_conv_micro(g, k->mr[j], rt, rhs, cp, t, jr, nrows, nr);
    cg_if_else(cg, &ifs[j]);
  }
  gemm_conv_micro(g, k->mr[k->n - 1], rt, rhs, cp, t, jr, nrows, nr);
  for (int j = k->n - 2; j >= 0; j--) cg_if_end(cg, &ifs[j]);
}

/* A panel's B, all its taps (npos x K x NR), stays in L2 while the row
 * tiles of a block read it again and again when it is at most
 * p->cb_panel, half the core's L2 (the tile's, gemm.c: Zen 4's 1 MB
 * L2, 512 KiB; Zen 3's 512 KiB on AVX2, 256 KiB). A larger one
 * (ResNet-50's 3 x 3 layers of 512 features: 9 x 512 x 64 floats, 1.2 MB,
 * read from L3 by each of the 9 tiles of a panel at batch 1, 48 at batch
 * 8; of 256: 576 KB) is summed in blocks of taps of at most half that
 * (the block being read and the next one being fetched, besides the rows
 * of A and the panel of C), each block by every tile of the panel before
 * the next, the partial sums in C between blocks: the same terms in the
 * same order (gemm.c conv_micro_fn), so the same bits. Chains of such
 * layers, one thread, the loaded 2-core Zen 4, CPU time, min of 3 x 30
 * calls, against no blocks: 6 of 7 x 7 x 512 (56 MB of weights)
 * 12.7-12.9 ms against 12.9-13.8, at batch 8 97.8-98.5 against
 * 99.8-100.8; 8 of 14 x 14 x 256 (3 blocks of 3 taps) 16.0-16.1 against
 * 16.3-16.6. Blocks of 512 KiB gave 12.6-12.9, 99.3-100.1 and 16.1-16.4;
 * of 128 KiB (1 tap a block at 7 x 7) 12.5-12.8, 97.3-98.1, 16.1-16.3.
 * Panels that fit were better left whole: 4 of 56 x 56 x 64 (144 KB) in
 * 2 blocks of 128 KiB took 8.2-8.4 ms against 8.1-8.2, and 2 of 28 x 28 x
 * 128 at batch 8 (288 KB) in 2 of 256 KiB 33.1-34.4 against 32.6-33.3.
 * On AVX2 (NR 16) the 7 x 7 x 512 layers' panels are 288 KiB: in 3
 * blocks of 3 taps under 256 KiB, ResNet-50 b1 on the 2-core Zen 3,
 * bench/ab.py paired medians of 20 calls against whole panels at 512
 * KiB: one thread 0.947, 1.010, 0.971, 0.987, 0.974, 1.014, 0.968, two
 * 0.970, 0.975, 0.987, 0.974 (load 3-7.9, other builds beside it).
 * Taps per block: all npos when the panel fits, else npos in as few
 * blocks as fit, of equal size but the last. */
static int64_t conv_ind_taps(const GemmPlan *p, const ConvPlan *c) {
  int64_t bytes = c->npos * p->K * p->nr * elem_bytes(p->e);
  if (bytes <= p->cb_panel) return c->npos;
  int64_t blocks = (bytes + p->cb_panel / 2 - 1) / (p->cb_panel / 2);
  return (c->npos + blocks - 1) / blocks;
}

/* The block of ntb taps from t0: the last one fetches the next panel's
 * first block, the others their panel's next block. */
static GemmTaps conv_block_taps(Gemm *g, const ConvPlan *c, LLVMValueRef t0, int64_t ntb) {
  CG *cg = g->cg;
  LLVMValueRef left = LLVMBuildSub(g->b, cg_i64(cg, c->npos), t0, "");
  LLVMValueRef last = LLVMBuildICmp(g->b, LLVMIntSLE, left, cg_i64(cg, ntb), "lastblk");
  GemmTaps taps = {.t0 = t0};
  taps.n = cg_min_i64(cg, cg_i64(cg, ntb), left);
  taps.first = LLVMBuildICmp(g->b, LLVMIntEQ, t0, cg_i64(cg, 0), "firstblk");
  taps.pf_taps = LLVMBuildSelect(g->b, last, LLVMBuildNeg(g->b, t0, ""), cg_i64(cg, ntb), "");
  taps.pf_cols = LLVMBuildSelect(g->b, last, cg_i64(cg, g->p.nr), cg_i64(cg, 0), "");
  return taps;
}

/* The epilogue reads, besides C, the buffers of its elementwise tree of
 * C's shape at C's index (the residual of a ResNet block), which are not
 * in cache when the panel of C is finished: each tile fetches its rows
 * and columns of them into L2 while the microkernel runs. At most
 * CONV_EPI_PREFETCH buffers.
 * At batch 8 (one thread) ResNet-50's expanding 1 x 1 layers with the
 * residual run at 63-79 GFLOP/s at 56 x 56 and 28 x 28, 92 at 14 x 14,
 * against 98-108 at batch 1 and 95-104 for the 3 x 3 layers (perf,
 * frame pointers: about 28 ms of 650 lost there, 7.5 in the stem); the
 * kernel outside the microkernel (these fetches, 24 lines from memory in
 * a burst before each tile, and the epilogue) takes 1.9-2.2 ms of a 56 x
 * 56 layer's 10-12. Measured and not kept (the layer with its reducing
 * consumer, batch 8, alternating calls in one process, CPU time, the
 * loaded 2-core Zen 4, load 2.3-4): (1) results of 4 MiB and more (temp,
 * whole panels) summed into a block's MC x NR panel in the scratch (L2),
 * the epilogue there, then copied to C with non-temporal stores (no read
 * of C's lines before they are written; an sfence at the kernel's end):
 * 56 x 56 as fast (ratios 0.99-1.01), 28 x 28 0.99-1.00, 14 x 14
 * 0.98-0.99, the stem with its max-pool 1.01 slower, the whole model
 * 0.99-1.00 (medians of 12-16 calls; same bits). (2) The microkernel
 * fetching one line of the residual's tile a k instead of the burst (a
 * variant given the tile's pointer): LLVM then spilled accumulators in
 * the k loop, 1.04-1.19x slower with the fetch before each k's loads of
 * B in the 4x unrolled loop, 1.45-2.26x after its multiply-adds,
 * 1.14-1.33x in a first loop of 24 k's one at a time. (3) Each tile
 * running all its panels before the next (B of one tap block and at most
 * 256 KiB, so that a tile's rows of the residual and of C go along whole
 * rows, and A is read once per tile, not once per panel): 56 x 56 to 256
 * 1.09x slower, 28 x 28 to 512 1.01x, 56 x 56 256 to 128 1.015x, 28 x 28
 * 512 to 128 0.99-1.00x (80 calls each, alone, without the consumer).
 * Per kernel at batch 8, one thread (perf, frame pointers, the time in
 * each kernel and its microkernel against its GEMM flops at 116 GFLOP/s,
 * the core's measured peak; each kernel's share of the samples of a 632
 * ms call, so within about 5%): the microkernel is 93% of the model, the
 * 3 x 3 layers at 107-124 GFLOP/s, the 1 x 1 ones of K >= 512 at
 * 105-124; lost are
 * about 7.7 ms in the 56 x 56 expanding layers with the residual (75
 * GFLOP/s), 6.7 at 28 x 28 (88), 4.4 at 14 x 14 (103), 4.1 in the
 * first 56 x 56 one (the projection's sum), 4.0 and 3.0 in the 56 x 56
 * reducing 1 x 1 layers of K = 256 (90, 96), 3.0 in the stem (98, its
 * max-pool apart). Alone, the 56 x 56 expanding layer (cold caches; the
 * kernel outside the microkernel 20% of it, most on the epilogue's loads
 * of the residual and these fetches) took 9.9-10.0 ms, 11.4 with the
 * fetches into L1 (locality 3) and 11.6-11.8 non-temporal (locality 0).
 * Also measured and not kept (min of 8 calls, 4-5 alternating rounds,
 * CPU time, load 3.3-4.4): blocks of 96, 144 or 576 rows instead of 288
 * for that layer (the same within noise); for the reducing 56 x 56 x 256
 * -> 64 layer, the next tile's input rows fetched into L1 before each
 * tile (8.78-8.93 ms against 8.81-9.16), and no per-k fetch of the next
 * panel's B (8.75-8.98). */
enum { CONV_EPI_PREFETCH = 4 };

static int conv_epi_inputs(const Op *op, const Value *c, Value **in, int n) {
  if (!ir_is_elementwise(op->code)) return n;
  for (int i = 0; i < op->nopnds && n < CONV_EPI_PREFETCH; i++) {
    Value *v = op->opnds[i];
    bool seen = v == c;
    for (int k = 0; k < n; k++) seen |= in[k] == v;
    if (seen) continue;
    if (v->storage == ST_NONE && v->def)
      n = conv_epi_inputs(v->def, c, in, n);
    else if (v->storage != ST_NONE && type_same_dims(v->type, c->type))
      in[n++] = v;
  }
  return n;
}

static void conv_epi_prefetch(Gemm *g, Value *const *in, int n, LLVMValueRef m0,
                              LLVMValueRef jr) {
  CG *cg = g->cg;
  const GemmPlan *p = &g->p;
  for (int i = 0; i < n; i++) {
    LLVMValueRef base = cg_buffer(cg, in[i]);
    for (int r = 0; r < p->mr; r++) {
      LLVMValueRef row = LLVMBuildAdd(g->b, m0, cg_i64(cg, r), "");
      LLVMValueRef off = LLVMBuildAdd(g->b, LLVMBuildMul(g->b, row, cg_i64(cg, p->N), ""), jr, "");
      for (int64_t e = 0; e < p->nr; e += 64 / elem_bytes(p->e)) {
        /* the last tile's rows may reach past the end */
        gemm_prefetch(g, base, LLVMBuildAdd(g->b, off, cg_i64(cg, e), ""), 0, 2);
      }
    }
  }
}

/* conv_body for packed weights: per block of rows its table, then per
 * panel of columns the microkernel down the row blocks and the epilogue
 * on the finished MC x NR panel. (The epilogue on each MR x NR tile right
 * after its microkernel call, C still in L1, measured no faster on
 * ResNet-50 at batch 1, one thread: its residual 1 x 1 kernels the same
 * within noise, the 56 x 56 one 10% slower.) */
static void conv_ind_body(Gemm *g, Op *op, const ConvPlan *c, const GemmRange *r,
                          int64_t rows) {
  CG *cg = g->cg;
  const GemmPlan *p = &g->p;
  LLVMValueRef lhs = cg_buffer(cg, op->opnds[0]);
  LLVMValueRef rhs = cg_buffer(cg, op->opnds[1]);
  LLVMValueRef C = cg_buffer(cg, (g->epi ? g->epi : op)->results[0]);
  int64_t bytes = rows * c->npos * CONV_PTR_BYTES;
  bool fold = c->fold.kw > 1; /* the gathered window rows after the table */
  LLVMValueRef tab = cg_scratch(cg, op, fold ? ir_align64(bytes) + c->fold.edge_bytes : bytes);
  LLVMValueRef zeros = gemm_zero_row(g, p->K);
  LLVMValueRef edges = fold ? cg_gep(cg, cg->t_i8, tab, cg_i64(cg, ir_align64(bytes))) : NULL;
  CgLoop lb, lj, lt, li;
  LLVMValueRef ic = cg_loop_step(cg, &lb, r->r0, r->r1, rows);
  LLVMValueRef mc = cg_min_i64(cg, cg_i64(cg, rows), LLVMBuildSub(g->b, r->r1, ic, ""));
  ConvKinds kinds = conv_kinds(p, c, rows, cg->o->threads);
  if (fold) conv_fold_edges(g, c, lhs, edges, ic, mc);
  conv_ind_table(g, c, lhs, tab, edges, zeros, ic, mc, kinds.balance);
  LLVMValueRef jr = cg_loop_step(cg, &lj, r->c0, r->c1, p->nr);
  LLVMValueRef nr = cg_min_i64(cg, cg_i64(cg, p->nr), LLVMBuildSub(g->b, r->c1, jr, ""));
  int64_t ntb = conv_ind_taps(p, c);
  LLVMValueRef t0 = cg_loop_step(cg, &lt, cg_i64(cg, 0), cg_i64(cg, c->npos), ntb);
  GemmTaps taps = conv_block_taps(g, c, t0, ntb);
  ConvTiles tiles = cg_conv_tiles(g, mc, kinds.balance);
  LLVMValueRef i = cg_loop_begin(cg, &li, cg_i64(cg, 0), tiles.n), nrows;
  LLVMValueRef m0 = LLVMBuildAdd(g->b, ic, cg_conv_tile_at(g, &tiles, mc, i, &nrows), "");
  LLVMValueRef coff = LLVMBuildAdd(g->b, LLVMBuildMul(g->b, m0, cg_i64(cg, p->N), ""), jr, "");
  LLVMValueRef rt = cg_gep(cg, cg->t_ptr, tab, LLVMBuildMul(g->b, i, cg_i64(cg, c->npos * p->mr), ""));
  Value *in[CONV_EPI_PREFETCH];
  int nin = g->epi ? conv_epi_inputs(g->epi, op->results[0], in, 0) : 0;
  conv_epi_prefetch(g, in, nin, m0, jr);
  conv_ind_tile(g, &kinds, rt, rhs, cg_gep(cg, g->t, C, coff), &taps, jr, i, nrows, nr);
  cg_loop_end(cg, &li);
  cg_loop_end(cg, &lt);
  gemm_epilogue(g, ic, mc, jr, LLVMBuildAdd(g->b, jr, nr, ""));
  cg_loop_end(cg, &lj);
  cg_loop_end(cg, &lb);
}

/* The packing of B when the kernel packs it: not for an empty product;
 * Winograd's transformed matrices where winograd allows them. Calls split
 * by columns start at panel boundaries (conv_split), so every split reads
 * the panels in place. Kernel position kpos is matrix kpos, spatial dims
 * row-major as conv_window walks them. */
bool cg_conv_b_packing(const Op *op, int panel_bytes, bool winograd, GemmPacking *out) {
  if (!conv_fits(op)) return false;
  if (winograd && cg_conv_wino_packing(op, panel_bytes, out)) return true;
  ConvPlan c;
  GemmPlan p = {.e = op->results[0]->type->elem};
  conv_plan(op, &c, &p);
  conv_fold(op, &c, &p);
  if (p.M == 0 || p.N == 0 || p.K == 0 || c.npos == 0) return false;
  gemm_packing(&p, c.ns, c.ksize, c.kstr, panel_bytes, out);
  return true;
}

void cg_conv_split(CG *cg, const Op *op, int *dim, int64_t *unit, int64_t *count,
                   int64_t *grain) {
  *dim = cg_split_dim(op->results[0]->type);
  *unit = 1;
  *count = 0;
  *grain = 1;
  if (!conv_fits(op) || cg_conv_wino_split(op, dim, unit, count, grain)) return;
  ConvPlan c;
  GemmPlan p = {.e = op->results[0]->type->elem};
  conv_plan_split(cg, op, &c, &p);
  *dim = c.pdim;
  *unit = c.unit;
  if (!c.lines) return;
  *count = c.lines;
  *grain = gemm_row_grain(op->opnds[1]->packed, conv_unit_rows(&c));
}

/* Same contract as cg_kernel_dot, with [begin, end) a range of units of
 * the dimension cg_conv_split gives. */
static void conv_kernel(CG *cg, Op *op, Op *epi) {
  const GemmPacking *packed = op->opnds[1]->packed;
  if (packed && packed->wino) {
    cg_kernel_wino(cg, op, epi);
    return;
  }
  ElemType e = op->results[0]->type->elem;
  Gemm g = {.cg = cg, .b = cg->b, .op = op, .epi = epi, .ncols = 1};
  ConvPlan c;
  g.p.e = e;
  conv_plan_split(cg, op, &c, &g.p);
  if (op->opnds[1]->packed) conv_fold(op, &c, &g.p);
  conv_values(cg, op, &c, &g.p);
  gemm_plan(&g); /* sak = 1: A is read through row pointers */
  if (g.p.M == 0 || g.p.N == 0) return; /* empty */
  gemm_use_packed(&g, op->opnds[1]);
  GemmRange r = conv_range(&g, &c, LLVMGetParam(cg->llfn, 1), LLVMGetParam(cg->llfn, 2));
  int64_t rows = g.packed ? conv_ind_rows(&g.p, &c) : 0;
  if (rows > 0)
    conv_ind_body(&g, op, &c, &r, rows);
  else
    conv_body(&g, op, &c, &r);
}

/* A convolution kernel's loops but the epilogue's (gemm_epilogue) and the
 * fold's gathered edges (conv_fold_edges) run over microkernel calls,
 * row-pointer tables and Winograd's transforms written in vectors: LLVM's
 * unroller only grew them (ResNet-50, --threads=2: object 11.8 KB
 * smaller; compile CPU time (user + sys) least of 3, load 1.6: 3.04 ->
 * 2.68 s at 1 thread, 3.48 -> 3.40 s at 2; run time bench/ab.py --fifo
 * against main, 1 thread 0.989 1.014 1.005, 2 threads 1.000 0.969 0.999,
 * same bits). Marking the epilogue's loop too kept LLVM from vectorizing
 * it: 1.09-1.21x main's run time. Not kept either: marking the GEMM
 * microkernels' k loops (gemm.c micro_loop; LLVM unrolls or peels them):
 * BERT at 7 tokens, 2 threads, 1.016x main (median of 8 rounds, each
 * 0.97-1.04), for 1 KB of code per microkernel. */
bool cg_kernel_conv(CG *cg, Op *op, Op *epi) {
  if (!conv_fits(op)) return false;
  bool vector_loops = cg->vector_loops;
  cg->vector_loops = true;
  conv_kernel(cg, op, epi);
  cg->vector_loops = vector_loops;
  return true;
}

/* ------------------------------------------------------------------------ */
/* On symbolic sizes (codegen/dyndims.c)                                     */

bool cg_conv_gemm_fits(const Op *op) {
  const Type *lt = op->opnds[0]->type, *rt = op->results[0]->type;
  return conv_fits(op) && type_is_static(op->opnds[1]->type) &&
         lt->dims[lt->rank - 1] > 0 && rt->dims[rt->rank - 1] > 0;
}

/* The plan of such a convolution, sizes from cg_dim. */
static void conv_gemm_plan(CG *cg, Op *op, Op *epi, Gemm *g, ConvPlan *c) {
  *g = (Gemm){.cg = cg, .b = cg->b, .op = op, .epi = epi, .ncols = 1};
  g->p.e = op->results[0]->type->elem;
  conv_plan(op, c, &g->p);
  conv_values(cg, op, c, &g->p);
  gemm_plan(g);
}

/* conv_split's rule on the run-time M: whether threads split the columns
 * (else the rows). */
static LLVMValueRef conv_split_cols(CG *cg, const GemmPlan *p) {
  bool panels = gemm_enough_panels(p->N, p->nr, cg->o->threads);
  LLVMValueRef few = LLVMBuildICmp(cg->b, LLVMIntSLT, p->v.M, cg_i64(cg, GEMM_ROW_SPLIT_MIN_M), "");
  return LLVMBuildAnd(cg->b, LLVMConstInt(cg->t_i1, panels, 0), few, "cols");
}

/* Planned before the entry's sizes have values: without conv_values (the
 * scratch does not depend on M). */
int64_t cg_conv_gemm_scratch_bytes(CG *cg, Op *op) {
  Gemm g = {.cg = cg, .b = cg->b, .op = op};
  ConvPlan c;
  g.p.e = op->results[0]->type->elem;
  conv_plan(op, &c, &g.p);
  gemm_plan(&g);
  return gemm_scratch_bytes(&g.p);
}

LLVMValueRef cg_conv_gemm_units(CG *cg, Op *op, LLVMValueRef *work) {
  Gemm g;
  ConvPlan c;
  conv_gemm_plan(cg, op, NULL, &g, &c);
  *work = LLVMBuildMul(cg->b, g.p.v.M, cg_i64(cg, g.p.N + g.p.K * c.npos), "");
  LLVMValueRef panels = cg_i64(cg, (g.p.N + g.p.nr - 1) / g.p.nr);
  return LLVMBuildSelect(cg->b, conv_split_cols(cg, &g.p), panels, g.p.v.M, "units");
}

void cg_conv_gemm(CG *cg, Op *op, Op *epi, LLVMValueRef scratch, LLVMValueRef begin,
                  LLVMValueRef end, GemmEpiGen epi_gen, void *epi_ctx) {
  Gemm g;
  ConvPlan c;
  conv_gemm_plan(cg, op, epi, &g, &c);
  g.epi_gen = epi_gen;
  g.epi_ctx = epi_ctx;
  g.scratch = scratch;
  LLVMBuilderRef b = cg->b;
  LLVMValueRef cols = conv_split_cols(cg, &g.p), zero = cg_i64(cg, 0), N = cg_i64(cg, g.p.N);
  LLVMValueRef c0 = LLVMBuildMul(b, begin, cg_i64(cg, g.p.nr), "");
  LLVMValueRef c1 = cg_min_i64(cg, LLVMBuildMul(b, end, cg_i64(cg, g.p.nr), ""), N);
  LLVMValueRef m0 = LLVMBuildSelect(b, cols, zero, begin, "");
  LLVMValueRef m1 = LLVMBuildSelect(b, cols, g.p.v.M, end, "");
  LLVMValueRef n0 = LLVMBuildSelect(b, cols, c0, zero, "");
  LLVMValueRef n1 = LLVMBuildSelect(b, cols, c1, N, "");
  GemmRange r = {zero, cg_i64(cg, 1), m0, m1, n0, n1};
  conv_body(&g, op, &c, &r);
}
