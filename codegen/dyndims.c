/*
 * dyndims.c: entries with symbolic sizes (refine_shapes left Func.sym):
 *
 *   int32_t P_F(ptr arg..., ptr result..., ptr temp, i64 sym...)
 *   int64_t P_F_temp_bytes(i64 sym...)
 *   void    P_F_result_dims(i64 sym..., i32 result, ptr out)
 *
 * one `sym` per symbol of Func.sym (the JAX dimension arguments, then each
 * `?` of the arguments in order). The sizes are run-time values here, so
 * this is a separate path (the fuse and buffers passes skip such entries).
 * Every op that is not fused computes its whole result into its own buffer
 * with a loop nest whose bounds are the sizes evaluated at entry; an
 * elementwise op, broadcast or iota with one elementwise or reduce user is
 * computed inside that user (plan_fusion). dot_general runs on the GEMM
 * engine (gemm.c, sizes and strides as run-time values, kernels of their
 * own, threads), or for small products and layouts the engine does not
 * take, as the elemental loop over the contracting dimensions; a
 * convolution that fits conv.c's implicit GEMM runs on it the same way
 * (cg_conv_gemm), others elementally. Elementwise ops after either run as
 * its epilogue on each finished block of C (plan_epilogues). Buffers are
 * laid out one after the other in the temp arena, 64-byte aligned, at
 * offsets that are size expressions (passes/symbolic.c), then the GEMM
 * scratch, so P_F_temp_bytes is the end of that. Results are copied into
 * the caller's buffers at func.return. The ops whose static code takes
 * run-time sizes (cg_dim, CG.symx) run it: the elemental generators of
 * SHARED (operands read with cg_value_at from the buffers bound here) and
 * the kernels of KERNEL.
 *
 * The entry returns 1 before touching memory when the sizes are negative,
 * overflow, break a constraint of the program (Func.sym->cons) or disagree
 * with a dimension argument's value, and 2 when a
 * custom_call @shape_assertion fails. Ops outside the supported set are
 * reported at their location.
 */
#include <stdlib.h>
#include <string.h>

#include "gemm.h"

enum { MAX_RANK = 64, BUFFER_ALIGN = 64 };

/* The fields of a GemmPlan a dot_general on the GEMM engine gives as
 * expressions (DynDot.e): these, then bdim, bsa, bsb of each batch
 * dimension. */
enum { DG_NBATCH, DG_M, DG_N, DG_K, DG_SAM, DG_SAK, DG_SBK, DG_SBN, DG_FIXED };
enum { DG_MAX = DG_FIXED + 3 * GEMM_MAX_BATCH };
/* The buffers of such a dot's kernel: A, B, C and the call's scratch. */
enum { DK_A, DK_B, DK_C, DK_SCRATCH, DK_COUNT };
/* Products of at most this many multiply-adds take the elemental loop at
 * run time: below it the GEMM kernels' calls and setup cost more than the
 * product (examples/dynamic_mlp at batch 1, 8-16-4: the elemental loops
 * took 0.55x the time of the specialized program's GEMM kernels). */
enum { SMALL_DOT_MACS = 1024 };

/* A dot_general run on the GEMM engine (codegen/gemm.c): its sizes and
 * strides over the symbols (constants where static), planned before the
 * expressions are evaluated. */
typedef struct DynDot {
  int nbd, nfields;
  const DimExpr *e[DG_MAX];
} DynDot;

typedef struct Dyn {
  CG *cg;
  Func *f;
  SymInfo *s;
  LLVMValueRef *x;          /* per DimExpr id: its i64 value */
  LLVMValueRef *ptr;        /* per Value id: its buffer */
  const DimExpr **offset;   /* per Value id: offset in temp (NULL: none) */
  const DimExpr *temp_bytes;
  bool *fused;              /* per Value id: computed inside its one user */
  DynDot **dot;             /* per Value id: a dot_general's GEMM, or NULL */
  Op **epi;                 /* per Value id: a GEMM op result's epilogue root */
  Op **gemm;                /* per Value id of an epilogue root: the op it finishes */
  const DimExpr *scratch;   /* offset of the GEMM kernels' scratch in temp */
  int64_t scratch_slice;    /* bytes of it per thread */
  LLVMValueRef temp;        /* temp in the function being emitted */
  LLVMValueRef kframe;      /* the GEMM kernels' frame (fill_kframe) */
  const DimExpr **framed;   /* the expressions in kframe, in order */
  int nframed;
} Dyn;

/* ------------------------------------------------------------------------ */
/* Sizes                                                                     */

static const DimExpr *dim_expr(Module *m, SymInfo *s, const Value *v, int i) {
  int64_t n = v->type->dims[i];
  return n != DIM_DYNAMIC ? dx_const(m, s, n) : v->sym[i];
}

static const DimExpr *byte_size(Module *m, SymInfo *s, const Value *v) {
  const DimExpr *n = dx_const(m, s, elem_bytes(v->type->elem));
  for (int i = 0; i < v->type->rank; i++) n = dx_mul(m, s, n, dim_expr(m, s, v, i));
  return n;
}

/* ((n + 63) / 64) * 64 */
static const DimExpr *aligned(Module *m, SymInfo *s, const DimExpr *n) {
  const DimExpr *a = dx_const(m, s, BUFFER_ALIGN);
  return dx_mul(m, s, dx_div(m, s, dx_add(m, s, n, dx_const(m, s, BUFFER_ALIGN - 1)), a), a);
}

/* Decimal digits of the widest int64_t with its sign. */
enum { INT_CHARS = 20 };

int64_t cg_symbolic_message_bytes(const Func *f) {
  int64_t most = 0;
  for (const Op *op = f->body->first; op; op = op->next) {
    if (!ir_is_shape_assertion(op)) continue;
    const char *msg = op->a.error_message ? op->a.error_message : "", *end;
    int64_t n = 1;
    for (const char *p = msg; *p; n++)
      if (ir_message_field(op, p, &end) >= 0) {
        n += INT_CHARS - 1;
        p = end;
      } else {
        p++;
      }
    most = n > most ? n : most;
  }
  return most;
}

/* Fusion (a simple form of passes/fuse.c's, which symbolic entries skip):
 * an elementwise op, broadcast or iota whose one user (get_dimension_size
 * aside) is an elementwise op or a reduce is computed inside that user at
 * each index it reads. Those
 * users read each index of the operand once, so nothing is recomputed;
 * 0-d values are left alone (a user would read them at every index). */
static bool fusible_producer(const Op *op) {
  switch (op->code) {
  case OP_BROADCAST_IN_DIM:
  case OP_DYNAMIC_BROADCAST_IN_DIM:
  case OP_IOTA:
  case OP_DYNAMIC_IOTA: return true;
  default: return ir_is_elementwise(op->code);
  }
}

/* What plan_fusion decided, for passes/fuse.c's epilogue rule. */
typedef struct Planned {
  const bool *fused; /* per value id */
  const int *uses;   /* per value id, get_dimension_size aside */
} Planned;

static bool planned_fused(const void *ctx, const Op *op) {
  return ((const Planned *)ctx)->fused[op->results[0]->id];
}

static int planned_uses(const void *ctx, const Value *v) {
  return ((const Planned *)ctx)->uses[v->id];
}

/* Epilogues, by the static path's rule (fuse_epilogue_source): the result
 * of a dot_general or convolution that an elementwise root R computes as
 * its epilogue is not stored: R's generator takes it on each finished
 * block of C, into R's buffer (gemm_epilogue), and the op runs where R is,
 * when R's other operands are computed. epi[result id] = R. */
static void plan_epilogues(const Func *f, const bool *fused, const int *uses, Op **epi) {
  Planned p = {fused, uses};
  FuseFacts ff = {&p, planned_fused, planned_uses, NULL}; /* no use lists: single uses */
  for (Op *op = f->body->first; op; op = op->next) {
    Op *d = fuse_epilogue_source(&ff, op);
    if (d) epi[d->results[0]->id] = op;
  }
}

static void plan_fusion(const Func *f, int opt_level, bool *fused, Op **epi) {
  int nv = f->next_value_id + 1;
  int *uses = calloc((size_t)nv, sizeof(int));
  Op **user = calloc((size_t)nv, sizeof(Op *));
  if (!uses || !user) abort();
  /* get_dimension_size reads no element (gen_dim_size): not a use here */
  for (Op *op = f->body->first; op; op = op->next)
    for (int i = 0; i < op->nopnds && op->code != OP_GET_DIMENSION_SIZE; i++) {
      uses[op->opnds[i]->id]++;
      user[op->opnds[i]->id] = op;
    }
  for (Op *op = f->body->first; op; op = op->next) {
    if (op->nresults != 1 || !fusible_producer(op)) continue;
    Value *v = op->results[0];
    Op *u = user[v->id];
    fused[v->id] = opt_level > 0 && uses[v->id] == 1 && v->type->rank > 0 &&
                      (ir_is_elementwise(u->code) || u->code == OP_REDUCE);
  }
  if (opt_level > 0) plan_epilogues(f, fused, uses, epi);
  free(uses);
  free(user);
}

/* The storage kinds let the static path's generators (SHARED) read
 * operands with cg_value_at; the buffers pass does not run on this
 * function. */
const DimExpr *cg_symbolic_plan(Module *m, Func *f, int opt_level, bool *fused,
                                const DimExpr **offset, Op **epi) {
  SymInfo *s = f->sym;
  ir_number_values(f);
  size_t nv = (size_t)f->next_value_id + 1;
  bool *own = fused ? NULL : calloc(nv, sizeof(bool));
  Op **own_epi = epi ? NULL : calloc(nv, sizeof(Op *));
  if ((!fused && !own) || (!epi && !own_epi)) abort();
  if (!fused) fused = own;
  if (!epi) epi = own_epi;
  plan_fusion(f, opt_level, fused, epi);
  const DimExpr *end = aligned(m, s, dx_const(m, s, cg_symbolic_message_bytes(f)));
  for (int i = 0; i < f->body->nargs; i++) f->body->args[i]->storage = ST_ARG;
  for (Op *op = f->body->first; op; op = op->next) {
    /* A fused value has no buffer: cg_value_at regenerates it; a GEMM
     * op's result with an epilogue is held in its root's. */
    for (int i = 0; i < op->nresults; i++) {
      int id = op->results[i]->id;
      op->results[i]->storage = op->code == OP_CONSTANT   ? ST_CONST
                                : fused[id] || epi[id] ? ST_NONE
                                                         : ST_TEMP;
    }
    if (op->code == OP_CONSTANT) continue;
    for (int i = 0; i < op->nresults; i++) {
      Value *v = op->results[i];
      if (v->storage == ST_NONE) continue;
      if (offset) offset[v->id] = end;
      end = dx_add(m, s, end, aligned(m, s, byte_size(m, s, v)));
    }
  }
  free(own);
  free(own_epi);
  return end;
}

/* Whether op runs as a GEMM kernel of its own (emit_dot, emit_conv): a
 * convolution that fits conv.c's implicit GEMM, or a dot_general that
 * plan_dot gave a GEMM (dot, per Value id). Before that plan (dot NULL),
 * every dot_general may. */
static bool runs_kernel(DynDot *const *dot, const Op *op) {
  if (op->code == OP_CONVOLUTION) return cg_conv_gemm_fits(op);
  return op->code == OP_DOT_GENERAL && (!dot || dot[op->results[0]->id]);
}

int64_t cg_symbolic_scratch_bound(const Func *f, int threads) {
  int64_t most = 0;
  for (const Op *op = f->body->first; op; op = op->next)
    if (runs_kernel(NULL, op)) {
      int64_t n = ir_kernel_scratch_bytes(op, 0, true, 0); /* no tall slices: gemm_plan_deep is static only */
      most = n > most ? n : most;
    }
  return (threads > 1 ? threads : 1) * most;
}

/* ------------------------------------------------------------------------ */
/* dot_general on the GEMM engine                                           */

/* Row-major element strides of v as expressions. Each is the next one
 * times the next size, so a stride equals another's stride times size
 * exactly when the expressions are the same node. */
static void strides(Dyn *d, const Value *v, const DimExpr **st) {
  Module *m = d->cg->m;
  const DimExpr *s = dx_const(m, d->s, 1);
  for (int i = v->type->rank - 1; i >= 0; i--) {
    st[i] = s;
    s = dx_mul(m, d->s, s, dim_expr(m, d->s, v, i));
  }
}

/* dims[0..n) of v (row-major over them) as one dimension of *size and
 * element stride *stride; false when they are not evenly strided. Static
 * unit dimensions are skipped. dot.c's collapse, on expressions. */
static bool collapse(Dyn *d, const Value *v, const int64_t *dims, int n, const DimExpr **size,
                     const DimExpr **stride) {
  Module *m = d->cg->m;
  const DimExpr *st[MAX_RANK], *expect = NULL;
  strides(d, v, st);
  *size = dx_const(m, d->s, 1);
  *stride = dx_const(m, d->s, 0);
  for (int i = n - 1; i >= 0; i--) {
    int k = (int)dims[i];
    if (v->type->dims[k] == 1) continue;
    if (expect && st[k] != expect) return false;
    if (!expect) *stride = st[k];
    expect = dx_mul(m, d->s, st[k], dim_expr(m, d->s, v, k));
    *size = dx_mul(m, d->s, *size, dim_expr(m, d->s, v, k));
  }
  return true;
}

/* The dimensions of x neither batch nor contracting, ascending. */
static int free_dims(const Value *x, const I64List *batch, const I64List *contract,
                     int64_t *out) {
  int n = 0;
  for (int i = 0; i < x->type->rank; i++)
    if (!ir_list_has(batch, i) && !ir_list_has(contract, i)) out[n++] = i;
  return n;
}

/* Pointers to the fields of p and p->v in DG_* order; returns their count. */
static int plan_fields(GemmPlan *p, int nbd, int64_t **ints, LLVMValueRef **vals) {
  int64_t *fi[DG_FIXED] = {&p->nbatch, &p->M, &p->N, &p->K, &p->sam, &p->sak, &p->sbk, &p->sbn};
  LLVMValueRef *fv[DG_FIXED] = {&p->v.nbatch, &p->v.M, &p->v.N, &p->v.K,
                                &p->v.sam, &p->v.sak, &p->v.sbk, &p->v.sbn};
  for (int k = 0; k < DG_FIXED; k++) ints[k] = fi[k], vals[k] = fv[k];
  for (int b = 0; b < nbd; b++) {
    int k = DG_FIXED + 3 * b;
    ints[k] = &p->bdim[b], vals[k] = &p->v.bdim[b];
    ints[k + 1] = &p->bsa[b], vals[k + 1] = &p->v.bsa[b];
    ints[k + 2] = &p->bsb[b], vals[k + 2] = &p->v.bsb[b];
  }
  return DG_FIXED + 3 * nbd;
}

static LLVMValueRef epi_value(void *dyn, Op *epi, LLVMValueRef *idx);

/* g for op planned from dd: constant fields as numbers, the others
 * GEMM_DYN with the values vals[k] (NULL while planning); its epilogue,
 * whose columns are the rhs free dimensions (spec "dot_general" (C12)). */
static void dot_gemm(Dyn *d, Op *op, const DynDot *dd, LLVMValueRef *vals, Gemm *g) {
  const DotDims *dn = &op->a.dot;
  int64_t fr[MAX_RANK];
  *g = (Gemm){.cg = d->cg, .b = d->cg->b, .op = op, .epi = d->epi[op->results[0]->id],
              .ncols = free_dims(op->opnds[1], &dn->rhs_batch, &dn->rhs_contract, fr),
              .epi_gen = epi_value, .epi_ctx = d};
  g->p.e = op->results[0]->type->elem;
  g->p.nbd = dd->nbd;
  int64_t *ints[DG_MAX];
  LLVMValueRef *pv[DG_MAX];
  plan_fields(&g->p, dd->nbd, ints, pv);
  for (int k = 0; k < dd->nfields; k++) {
    const DimExpr *e = dd->e[k];
    *ints[k] = e->kind == DX_CONST ? e->c : GEMM_DYN;
    if (e->kind != DX_CONST && vals) *pv[k] = vals[k];
  }
  gemm_plan(g);
}

/* The skinny path fits whatever M is (at most GEMM_SKINNY_MAX_M). */
static bool skinny_strides(const GemmPlan *p) {
  GemmPlan q = *p;
  q.M = 1;
  return gemm_skinny_fits(&q);
}

/* The GEMM of a dot_general when cg_kernel_dot's conditions hold (f32 or
 * f64 throughout, free and contracting dimensions each evenly strided, not
 * a matrix-vector product), else NULL (the elemental loop). */
static DynDot *plan_dot(Dyn *d, Op *op) {
  const DotDims *dd = &op->a.dot;
  const Value *l = op->opnds[0], *r = op->opnds[1];
  ElemType e = op->results[0]->type->elem;
  if ((e != ET_F32 && e != ET_F64) || l->type->elem != e || r->type->elem != e) return NULL;
  if (dd->lhs_batch.n > GEMM_MAX_BATCH) return NULL;
  DynDot *g = ARENA_NEW(&d->cg->m->arena, DynDot);
  const DimExpr *kr, *sl[MAX_RANK], *sr[MAX_RANK];
  int64_t fl[MAX_RANK], fr[MAX_RANK];
  int nfl = free_dims(l, &dd->lhs_batch, &dd->lhs_contract, fl);
  int nfr = free_dims(r, &dd->rhs_batch, &dd->rhs_contract, fr);
  if (!collapse(d, l, fl, nfl, &g->e[DG_M], &g->e[DG_SAM]) ||
      !collapse(d, r, fr, nfr, &g->e[DG_N], &g->e[DG_SBN]) ||
      !collapse(d, l, dd->lhs_contract.v, dd->lhs_contract.n, &g->e[DG_K], &g->e[DG_SAK]) ||
      !collapse(d, r, dd->rhs_contract.v, dd->rhs_contract.n, &kr, &g->e[DG_SBK]))
    return NULL;
  strides(d, l, sl);
  strides(d, r, sr);
  g->nbd = dd->lhs_batch.n;
  g->e[DG_NBATCH] = dx_const(d->cg->m, d->s, 1);
  for (int b = 0; b < g->nbd; b++) {
    const DimExpr **f = &g->e[DG_FIXED + 3 * b];
    f[0] = dim_expr(d->cg->m, d->s, l, (int)dd->lhs_batch.v[b]);
    f[1] = sl[dd->lhs_batch.v[b]];
    f[2] = sr[dd->rhs_batch.v[b]];
    g->e[DG_NBATCH] = dx_mul(d->cg->m, d->s, g->e[DG_NBATCH], f[0]);
  }
  g->nfields = DG_FIXED + 3 * g->nbd;
  const DimExpr *one = dx_const(d->cg->m, d->s, 1);
  if (g->e[DG_N] == one && g->e[DG_SAK] == one && g->e[DG_SBK] == one) return NULL;
  return g;
}

/* ------------------------------------------------------------------------ */
/* The plan                                                                  */

/* A GEMM kernel's reads: the values whose buffers it binds (per Value
 * id) and the expressions it takes from the frame (per DimExpr id). */
typedef struct Reads {
  bool *values, *exprs;
} Reads;

/* v's buffer, its offset and sizes. */
static void read_value(const Dyn *d, const Value *v, Reads *r) {
  r->values[v->id] = true;
  if (d->offset[v->id]) r->exprs[d->offset[v->id]->id] = true;
  for (int i = 0; i < v->type->rank; i++)
    if (v->type->dims[i] == DIM_DYNAMIC) r->exprs[v->sym[i]->id] = true;
}

/* What op's generator or kernel reads: its operands and results, and
 * through fused operands what their producers read. */
static void read_op(const Dyn *d, const Op *op, Reads *r) {
  for (int i = 0; i < op->nresults; i++) read_value(d, op->results[i], r);
  for (int i = 0; i < op->nopnds; i++) {
    const Value *v = op->opnds[i];
    read_value(d, v, r);
    if (d->fused[v->id]) read_op(d, v->def, r);
  }
}

/* What the GEMM kernel of op reads: op's values and its epilogue root's,
 * a dot's GEMM fields and the scratch offset. */
static void kernel_reads(const Dyn *d, const Op *op, Reads *r) {
  Op *epi = d->epi[op->results[0]->id];
  read_op(d, op, r);
  if (epi) read_op(d, epi, r);
  const DynDot *dd = op->code == OP_DOT_GENERAL ? d->dot[op->results[0]->id] : NULL;
  for (int k = 0; dd && k < dd->nfields; k++) r->exprs[dd->e[k]->id] = true;
  if (d->scratch) r->exprs[d->scratch->id] = true;
}

static Reads reads_new(const Dyn *d) {
  Reads r = {calloc((size_t)d->f->next_value_id + 1, sizeof(bool)),
             calloc((size_t)d->s->nexprs + 1, sizeof(bool))};
  if (!r.values || !r.exprs) abort();
  return r;
}

static void reads_free(Reads *r) {
  free(r->values);
  free(r->exprs);
}

/* The kernels' frame holds the expressions any of them reads, evaluated
 * once by the entry (Dyn.framed), so that no kernel evaluates the entry's
 * sizes again; constants are not in it. */
static void plan_frame(Dyn *d) {
  Reads r = reads_new(d);
  d->framed = calloc((size_t)d->s->nexprs + 1, sizeof(DimExpr *));
  if (!d->framed) abort();
  for (Op *op = d->f->body->first; op; op = op->next)
    if (runs_kernel(d->dot, op)) kernel_reads(d, op, &r);
  for (int i = 0; i < d->s->nexprs; i++)
    if (r.exprs[i] && d->s->exprs[i]->kind != DX_CONST) d->framed[d->nframed++] = d->s->exprs[i];
  reads_free(&r);
}

/* The temp arena: cg_symbolic_plan's, then the GEMM kernels' scratch (one
 * slice per thread). */
static void plan(Dyn *d) {
  Module *m = d->cg->m;
  const DimExpr *end =
      cg_symbolic_plan(m, d->f, d->cg->o->opt_level, d->fused, d->offset, d->epi);
  for (Op *op = d->f->body->first; op; op = op->next) {
    Value *v = op->nresults > 0 ? op->results[0] : NULL;
    if (v && d->epi[v->id]) d->gemm[d->epi[v->id]->results[0]->id] = op;
    if (op->code == OP_DOT_GENERAL) d->dot[v->id] = plan_dot(d, op);
    if (!runs_kernel(d->dot, op)) continue;
    int64_t bytes;
    if (op->code == OP_CONVOLUTION) {
      bytes = cg_conv_gemm_scratch_bytes(d->cg, op);
    } else {
      Gemm g;
      dot_gemm(d, op, d->dot[v->id], NULL, &g);
      bytes = gemm_scratch_bytes(&g.p);
    }
    if (bytes > d->scratch_slice) d->scratch_slice = bytes;
  }
  if (d->scratch_slice > 0) {
    int threads = d->cg->o->threads > 1 ? d->cg->o->threads : 1;
    d->scratch = end;
    end = dx_add(m, d->s, end, dx_const(m, d->s, threads * d->scratch_slice));
  }
  d->temp_bytes = d->s->temp_bytes = end;
  plan_frame(d);
}

static LLVMValueRef overflowing(CG *cg, const char *name, LLVMValueRef a, LLVMValueRef b,
                                LLVMValueRef *ovf) {
  LLVMValueRef args[2] = {a, b};
  LLVMValueRef r = cg_intrinsic(cg->b, name, &cg->t_i64, 1, args, 2);
  *ovf = LLVMBuildOr(cg->b, *ovf, LLVMBuildExtractValue(cg->b, r, 1, ""), "");
  return LLVMBuildExtractValue(cg->b, r, 0, "");
}

/* floor(a / b) for b > 0: sdiv rounds toward zero. */
static LLVMValueRef floor_div(CG *cg, LLVMValueRef a, LLVMValueRef b) {
  LLVMValueRef q = LLVMBuildSDiv(cg->b, a, b, "");
  LLVMValueRef inexact = LLVMBuildICmp(cg->b, LLVMIntNE, LLVMBuildMul(cg->b, q, b, ""), a, "");
  LLVMValueRef neg = LLVMBuildICmp(cg->b, LLVMIntSLT, a, cg_i64(cg, 0), "");
  return LLVMBuildSub(cg->b, q, LLVMBuildZExt(cg->b, LLVMBuildAnd(cg->b, inexact, neg, ""), cg->t_i64, ""), "");
}

/* Every expression of d->s from the symbols' values, in id order (operands
 * come first), but those over a value the program computes (no size,
 * offset or constraint is); *ovf is or-ed with whether a sum or product
 * overflowed. */
static void eval_all(Dyn *d, LLVMValueRef *syms, LLVMValueRef *ovf) {
  CG *cg = d->cg;
  for (int i = 0; i < d->s->nexprs; i++) {
    const DimExpr *e = d->s->exprs[i];
    if (e->runtime) continue;
    LLVMValueRef a = e->a ? d->x[e->a->id] : NULL, b = e->b ? d->x[e->b->id] : NULL;
    switch (e->kind) {
    case DX_CONST: d->x[i] = cg_i64(cg, e->c); break;
    case DX_SYM: d->x[i] = syms[e->c]; break;
    case DX_ADD: d->x[i] = overflowing(cg, "llvm.sadd.with.overflow", a, b, ovf); break;
    case DX_SUB: d->x[i] = overflowing(cg, "llvm.ssub.with.overflow", a, b, ovf); break;
    case DX_MUL: d->x[i] = overflowing(cg, "llvm.smul.with.overflow", a, b, ovf); break;
    case DX_DIV: /* b > 0 (a constant): floor(a / b) */
      d->x[i] = floor_div(cg, a, b);
      break;
    case DX_MAX: d->x[i] = LLVMBuildSelect(cg->b, LLVMBuildICmp(cg->b, LLVMIntSGT, a, b, ""), a, b, ""); break;
    case DX_VALUE: abort(); /* runtime */
    }
  }
}

static LLVMValueRef dim(Dyn *d, const Value *v, int i) {
  return cg_dim(d->cg, v, i);
}

/* Row-major linear index of idx in v. */
static LLVMValueRef linear(Dyn *d, const Value *v, LLVMValueRef *idx) {
  return cg_linear_value(d->cg, v, idx);
}

static LLVMValueRef gen_value(Dyn *d, Op *op, LLVMValueRef *idx);

/* v at idx: a GEMM op's value its epilogue is given (CG.scalar), a fused
 * value's generator, else a load from its buffer. */
static LLVMValueRef load_at(Dyn *d, const Value *v, LLVMValueRef *idx) {
  if (d->cg->scalar[v->id]) return d->cg->scalar[v->id];
  if (d->fused[v->id]) return gen_value(d, v->def, idx);
  return cg_load(d->cg, d->ptr[v->id], v->type->elem, linear(d, v, idx));
}

/* ------------------------------------------------------------------------ */
/* Elemental generators: the value of op's result at idx                     */

static LLVMValueRef gen_elementwise(Dyn *d, Op *op, LLVMValueRef *idx) {
  LLVMValueRef args[op->nopnds > 0 ? op->nopnds : 1];
  LLVMValueRef zero[MAX_RANK] = {0};
  for (int k = 0; k < op->nopnds; k++) {
    const Value *x = op->opnds[k];
    args[k] = load_at(d, x, x->type->rank ? idx : zero); /* 0-d operands of select/clamp */
  }
  return cg_scalar_op(d->cg, op, args);
}

/* spec: broadcast_in_dim: operand index i is 0 where its size is 1. */
static LLVMValueRef gen_broadcast(Dyn *d, Op *op, LLVMValueRef *idx) {
  const Value *x = op->opnds[0];
  LLVMValueRef xi[MAX_RANK];
  for (int i = 0; i < x->type->rank; i++)
    xi[i] = x->type->dims[i] == 1 ? cg_i64(d->cg, 0) : idx[op->a.broadcast_dimensions.v[i]];
  return load_at(d, x, xi);
}

/* spec: reshape keeps the row-major order of the elements. */
static LLVMValueRef gen_reshape(Dyn *d, Op *op, LLVMValueRef *idx) {
  const Value *x = op->opnds[0];
  return cg_load(d->cg, d->ptr[x->id], x->type->elem, linear(d, op->results[0], idx));
}

static LLVMValueRef gen_iota(Dyn *d, Op *op, LLVMValueRef *idx) {
  return cg_convert(d->cg, idx[op->a.iota_dimension], ET_SI64, op->results[0]->type->elem);
}

static LLVMValueRef gen_slice(Dyn *d, Op *op, LLVMValueRef *idx) {
  const Value *x = op->opnds[0];
  LLVMValueRef xi[MAX_RANK];
  for (int i = 0; i < x->type->rank; i++)
    xi[i] = LLVMBuildAdd(d->cg->b, cg_i64(d->cg, op->a.start_indices.v[i]),
                         LLVMBuildMul(d->cg->b, idx[i], cg_i64(d->cg, op->a.strides.v[i]), ""), "");
  return load_at(d, x, xi);
}

/* Element i of the 1-d integer tensor x as an i64. */
static LLVMValueRef index_at(Dyn *d, const Value *x, int i) {
  LLVMValueRef k = cg_i64(d->cg, i);
  return cg_convert(d->cg, load_at(d, x, &k), x->type->elem, ET_SI64);
}

/* Element i of the 1-d integer tensor x as an i64, clamped to [lo, hi]
 * (hi first: a result at lo wins when hi < lo). */
static LLVMValueRef clamped_index(Dyn *d, const Value *x, int i, LLVMValueRef lo, LLVMValueRef hi) {
  LLVMBuilderRef b = d->cg->b;
  LLVMValueRef v = index_at(d, x, i);
  v = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, v, hi, ""), hi, v, "");
  return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, v, lo, ""), lo, v, "");
}

/* real_dynamic_slice: operand[start + idx * stride]. The entry has checked
 * 0 <= start <= limit <= size where start folds (passes/symbolic.c); a
 * start the program computes is clamped as dynamic_slice clamps (spec
 * "dynamic_slice"), to [0, size - span], span = (n - 1) * stride + 1 the
 * elements a result of n covers, so it never reads out of bounds. The
 * spec has no section for real_dynamic_slice, and StableHLO's
 * canonicalization (and so XLA) turns one of stride 1 whose limit is
 * start + constant into that dynamic_slice. In range, the clamp does
 * nothing. */
static LLVMValueRef gen_real_dynamic_slice(Dyn *d, Op *op, LLVMValueRef *idx) {
  LLVMBuilderRef b = d->cg->b;
  const Value *x = op->opnds[0];
  LLVMValueRef xi[MAX_RANK];
  for (int i = 0; i < x->type->rank; i++) {
    LLVMValueRef stride = index_at(d, op->opnds[3], i);
    LLVMValueRef last = LLVMBuildMul(b, LLVMBuildSub(b, dim(d, op->results[0], i), cg_i64(d->cg, 1), ""), stride, "");
    LLVMValueRef hi = LLVMBuildSub(b, LLVMBuildSub(b, dim(d, x, i), cg_i64(d->cg, 1), ""), last, "");
    LLVMValueRef start = clamped_index(d, op->opnds[1], i, cg_i64(d->cg, 0), hi);
    xi[i] = LLVMBuildAdd(b, start, LLVMBuildMul(b, idx[i], stride, ""), "");
  }
  return load_at(d, x, xi);
}

static LLVMValueRef gen_transpose(Dyn *d, Op *op, LLVMValueRef *idx) {
  const Value *x = op->opnds[0];
  LLVMValueRef xi[MAX_RANK];
  for (int i = 0; i < x->type->rank; i++) xi[op->a.permutation.v[i]] = idx[i];
  return load_at(d, x, xi);
}

static LLVMValueRef gen_dim_size(Dyn *d, Op *op, LLVMValueRef *idx) {
  (void)idx;
  return cg_convert(d->cg, dim(d, op->opnds[0], (int)op->a.dimension), ET_SI64,
                    op->results[0]->type->elem);
}

/* Loops over the sizes of v's dimensions listed in dims (all when NULL),
 * writing the induction variables to idx[dims[k]]; returns the count. */
static int open_loops(Dyn *d, const Value *v, const I64List *dims, CgLoop *loops,
                      LLVMValueRef *idx) {
  int n = dims ? dims->n : v->type->rank;
  for (int k = 0; k < n; k++) {
    int i = dims ? (int)dims->v[k] : k;
    idx[i] = cg_loop_begin(d->cg, &loops[k], cg_i64(d->cg, 0), dim(d, v, i));
  }
  return n;
}

static void close_loops(Dyn *d, CgLoop *loops, int n) {
  for (int k = n - 1; k >= 0; k--) cg_loop_end(d->cg, &loops[k]);
}

/* spec: dynamic_pad: pad with the paddings read from its operands. */
static LLVMValueRef gen_dynamic_pad(Dyn *d, Op *op, LLVMValueRef *idx) {
  return cg_gen_pad(d->cg, op, idx);
}

typedef LLVMValueRef (*Gen)(Dyn *d, Op *op, LLVMValueRef *idx);

/* Ops whose generator on the static path (elemental.c) takes symbolic
 * sizes: it reads sizes with cg_dim and operands with cg_value_at. */
static const bool SHARED[OP_COUNT] = {
    [OP_BITCAST_CONVERT] = true,
    [OP_PAD] = true,
    [OP_REVERSE] = true,
    [OP_REDUCE_WINDOW] = true,
    [OP_CONVOLUTION] = true,
    [OP_DYNAMIC_SLICE] = true,
    [OP_DYNAMIC_UPDATE_SLICE] = true,
    [OP_DOT_GENERAL] = true,
};

static const Gen GEN[OP_COUNT] = {
    [OP_BROADCAST_IN_DIM] = gen_broadcast,
    [OP_DYNAMIC_BROADCAST_IN_DIM] = gen_broadcast,
    [OP_RESHAPE] = gen_reshape,
    [OP_DYNAMIC_RESHAPE] = gen_reshape,
    [OP_IOTA] = gen_iota,
    [OP_DYNAMIC_IOTA] = gen_iota,
    [OP_SLICE] = gen_slice,
    [OP_REAL_DYNAMIC_SLICE] = gen_real_dynamic_slice,
    [OP_TRANSPOSE] = gen_transpose,
    [OP_GET_DIMENSION_SIZE] = gen_dim_size,
    [OP_DYNAMIC_PAD] = gen_dynamic_pad,
};

static LLVMValueRef gen_value(Dyn *d, Op *op, LLVMValueRef *idx) {
  return ir_is_elementwise(op->code) ? gen_elementwise(d, op, idx) : GEN[op->code](d, op, idx);
}

static void emit_elemental(Dyn *d, Op *op, Gen gen);
static void emit_shared(Dyn *d, Op *op);

/* Value of epilogue root epi at idx (GemmEpiGen). */
static LLVMValueRef epi_value(void *dyn, Op *epi, LLVMValueRef *idx) {
  return gen_value(dyn, epi, idx);
}

/* ------------------------------------------------------------------------ */
/* GEMM kernels                                                              */

/* The GEMM kernels (dot_general, convolution) run with the entry's sizes
 * and buffers. Their frame, Dyn.kframe, holds each argument's buffer,
 * temp, then the sizes and offsets the kernels read (Dyn.framed), which
 * kernel_begin takes from it in the kernel (CG.symx, Dyn.x) with the
 * buffers the kernel reads (Dyn.ptr, CG.buf). */
static void fill_kframe(Dyn *d) {
  CG *cg = d->cg;
  int na = d->f->body->nargs;
  d->kframe = cg_entry_alloca(cg, LLVMArrayType2(cg->t_i64, (uint64_t)(na + 1 + d->nframed)), "kframe");
  for (int i = 0; i <= na; i++) {
    unsigned param = (unsigned)(i < na ? i : i + d->f->nresults);
    LLVMBuildStore(cg->b, LLVMGetParam(cg->llfn, param),
                   cg_gep(cg, cg->t_i64, d->kframe, cg_i64(cg, i)));
  }
  for (int k = 0; k < d->nframed; k++) {
    LLVMValueRef x = d->x[d->framed[k]->id];
    if (!x) abort(); /* a kernel reads no value the program computes */
    LLVMBuildStore(cg->b, x, cg_gep(cg, cg->t_i64, d->kframe, cg_i64(cg, na + 1 + k)));
  }
}

static LLVMValueRef frame_slot(CG *cg, LLVMValueRef frame, int k, LLVMTypeRef t) {
  return LLVMBuildLoad2(cg->b, t, cg_gep(cg, cg->t_i64, frame, cg_i64(cg, k)), "");
}

/* The entry's state while a kernel is emitted. */
typedef struct KernelSaved {
  CgFnState fn;
  LLVMValueRef *x, *ptr, temp;
} KernelSaved;

/* Starts the kernel function of GEMM op (returned) with the sizes and
 * buffers it reads (kernel_reads); constants are constants. */
static LLVMValueRef kernel_begin(Dyn *d, const Op *op, KernelSaved *s) {
  CG *cg = d->cg;
  int na = d->f->body->nargs, nv = d->f->next_value_id + 1;
  *s = (KernelSaved){cg_save_fn(cg), d->x, d->ptr, d->temp};
  LLVMValueRef fn = cg_kernel_new(cg);
  cg_fn_begin(cg, fn);
  LLVMValueRef frame = LLVMGetParam(fn, 0);
  Reads r = reads_new(d);
  kernel_reads(d, op, &r);
  d->x = cg->symx = calloc((size_t)d->s->nexprs + 1, sizeof(LLVMValueRef));
  d->ptr = calloc((size_t)nv, sizeof(LLVMValueRef));
  if (!d->x || !d->ptr) abort();
  for (int i = 0; i < d->s->nexprs; i++)
    if (d->s->exprs[i]->kind == DX_CONST) d->x[i] = cg_i64(cg, d->s->exprs[i]->c);
  for (int k = 0; k < d->nframed; k++)
    if (r.exprs[d->framed[k]->id])
      d->x[d->framed[k]->id] = frame_slot(cg, frame, na + 1 + k, cg->t_i64);
  d->temp = frame_slot(cg, frame, na, cg->t_ptr);
  for (int i = 0; i < na; i++)
    if (r.values[d->f->body->args[i]->id])
      d->ptr[d->f->body->args[i]->id] = frame_slot(cg, frame, i, cg->t_ptr);
  for (int i = 0; i < nv; i++) {
    if (r.values[i] && !d->ptr[i]) /* in temp, else a constant's global (NULL: fused) */
      d->ptr[i] = d->offset[i] ? cg_gep(cg, cg->t_i8, d->temp, d->x[d->offset[i]->id]) : s->ptr[i];
    cg->buf[i] = d->ptr[i];
  }
  reads_free(&r);
  return fn;
}

/* Ends the kernel; the entry's state again. */
static void kernel_end(Dyn *d, KernelSaved *s) {
  LLVMBuildRetVoid(d->cg->b);
  cg_fn_end(d->cg);
  free(d->x);
  free(d->ptr);
  d->x = d->cg->symx = s->x;
  d->ptr = s->ptr;
  d->temp = s->temp;
  cg_restore_fn(d->cg, &s->fn);
}

/* The kernel's scratch: its chunk's slice of the GEMM scratch. */
static LLVMValueRef kernel_scratch(Dyn *d) {
  CG *cg = d->cg;
  LLVMValueRef chunk = LLVMBuildZExt(cg->b, LLVMGetParam(cg->llfn, 3), cg->t_i64, "");
  LLVMValueRef off = LLVMBuildAdd(cg->b, d->x[d->scratch->id],
                                  LLVMBuildMul(cg->b, chunk, cg_i64(cg, d->scratch_slice), ""), "");
  return cg_gep(cg, cg->t_i8, d->temp, off);
}

/* The buffer that holds op's result: its epilogue root's when it has one. */
static LLVMValueRef result_buffer(Dyn *d, Op *op) {
  Op *epi = d->epi[op->results[0]->id];
  return d->ptr[(epi ? epi : op)->results[0]->id];
}

/* The skinny path over columns [begin, end) of every batch: one copy per
 * M from 1 to GEMM_SKINNY_MAX_M when M is a run-time value (the entry
 * calls it only for those), then the epilogue once on those columns (at
 * most 8 rows a batch: they are still in cache). */
static void skinny_kernel(Gemm *g, LLVMValueRef *ptrs, LLVMValueRef begin, LLVMValueRef end) {
  CG *cg = g->cg;
  GemmRange r = {cg_i64(cg, 0), g->p.v.nbatch, cg_i64(cg, 0), g->p.v.M, begin, end};
  if (g->p.M != GEMM_DYN) {
    gemm_plan_skinny(g);
    gemm_run_skinny(g, &r, ptrs[DK_A], ptrs[DK_B], ptrs[DK_C]);
    return;
  }
  for (int m = 1; m <= GEMM_SKINNY_MAX_M; m++) {
    CgIf is_m;
    cg_if_begin(cg, &is_m, LLVMBuildICmp(cg->b, LLVMIntEQ, g->p.v.M, cg_i64(cg, m), ""));
    Gemm h = *g;
    h.p.M = m;
    h.p.v.M = cg_i64(cg, m);
    h.epi = NULL;
    gemm_plan_skinny(&h);
    gemm_run_skinny(&h, &r, ptrs[DK_A], ptrs[DK_B], ptrs[DK_C]);
    cg_if_end(cg, &is_m);
  }
  gemm_epilogue(g, cg_i64(cg, 0), LLVMBuildMul(cg->b, g->p.v.nbatch, g->p.v.M, ""), begin, end);
}

/* The blocked path over batches [begin, end) when there are batch
 * dimensions, else over rows [begin, end). */
static void blocked_kernel(Gemm *g, LLVMValueRef *ptrs, LLVMValueRef begin, LLVMValueRef end) {
  CG *cg = g->cg;
  const GemmVals *v = &g->p.v;
  GemmScratch s = gemm_scratch_at(g, ptrs[DK_SCRATCH]);
  LLVMValueRef zero = cg_i64(cg, 0);
  GemmRange r = g->p.nbd > 0 ? (GemmRange){begin, end, zero, v->M, zero, v->N}
                             : (GemmRange){zero, v->nbatch, begin, end, zero, v->N};
  gemm_run(g, &s, &r, ptrs[DK_A], ptrs[DK_B], ptrs[DK_C]);
}

/* The kernel function of dot op's GEMM (skinny or blocked). */
static LLVMValueRef dot_kernel(Dyn *d, Op *op, const DynDot *dd, bool skinny) {
  KernelSaved saved;
  LLVMValueRef fn = kernel_begin(d, op, &saved), vals[DG_MAX];
  for (int k = 0; k < dd->nfields; k++)
    vals[k] = dd->e[k]->kind == DX_CONST ? NULL : d->x[dd->e[k]->id];
  LLVMValueRef out = result_buffer(d, op);
  LLVMValueRef ptrs[DK_COUNT] = {d->ptr[op->opnds[0]->id], d->ptr[op->opnds[1]->id], out,
                                 skinny ? NULL : kernel_scratch(d)};
  Gemm g;
  dot_gemm(d, op, dd, vals, &g);
  LLVMValueRef begin = LLVMGetParam(fn, 1), end = LLVMGetParam(fn, 2);
  if (skinny) skinny_kernel(&g, ptrs, begin, end);
  else blocked_kernel(&g, ptrs, begin, end);
  kernel_end(d, &saved);
  return fn;
}

static void call_dot_kernel(Dyn *d, Op *op, const DynDot *dd, bool skinny, LLVMValueRef n,
                            LLVMValueRef work) {
  cg_kernel_call_dyn(d->cg, dot_kernel(d, op, dd, skinny), d->kframe, n, work);
}

/* spec: dot_general, on the GEMM engine: the skinny path when M is at
 * most GEMM_SKINNY_MAX_M (decided at run time when M is symbolic), else
 * the blocked path; threads split the columns of the skinny path, the
 * batches or else the rows of the blocked one. */
static void emit_dot(Dyn *d, Op *op, const DynDot *dd) {
  CG *cg = d->cg;
  Gemm g;
  dot_gemm(d, op, dd, NULL, &g);
  LLVMValueRef M = d->x[dd->e[DG_M]->id], N = d->x[dd->e[DG_N]->id];
  LLVMValueRef K = d->x[dd->e[DG_K]->id], nb = d->x[dd->e[DG_NBATCH]->id];
  LLVMBuilderRef b = cg->b;
  LLVMValueRef mn = LLVMBuildMul(b, M, N, "");
  LLVMValueRef kmn = LLVMBuildMul(b, K, LLVMBuildAdd(b, M, N, ""), "");
  LLVMValueRef work = LLVMBuildMul(b, nb, LLVMBuildAdd(b, kmn, mn, ""), "");
  LLVMValueRef rows = g.p.nbd > 0 ? nb : M;
  LLVMValueRef nk = LLVMBuildMul(b, N, K, "");
  LLVMValueRef macs = LLVMBuildMul(b, LLVMBuildMul(b, nb, M, ""), nk, "");
  CgIf small, few;
  cg_if_begin(cg, &small, LLVMBuildICmp(b, LLVMIntSLE, macs, cg_i64(cg, SMALL_DOT_MACS), ""));
  emit_shared(d, op);
  cg_if_else(cg, &small);
  if (g.p.M != GEMM_DYN || !skinny_strides(&g.p)) {
    bool skinny = gemm_skinny_fits(&g.p);
    call_dot_kernel(d, op, dd, skinny, skinny ? N : rows, work);
  } else { /* the skinny kernel for 1 <= M <= GEMM_SKINNY_MAX_M */
    cg_if_begin(cg, &few, LLVMBuildICmp(b, LLVMIntULT, LLVMBuildSub(b, M, cg_i64(cg, 1), ""),
                                        cg_i64(cg, GEMM_SKINNY_MAX_M), ""));
    call_dot_kernel(d, op, dd, true, N, work);
    cg_if_else(cg, &few);
    call_dot_kernel(d, op, dd, false, rows, work);
    cg_if_end(cg, &few);
  }
  cg_if_end(cg, &small);
}

/* spec: convolution, on conv.c's implicit GEMM: one kernel, split by rows
 * or by columns as cg_conv_gemm_units decides at run time. */
static void emit_conv(Dyn *d, Op *op) {
  CG *cg = d->cg;
  LLVMValueRef work, n = cg_conv_gemm_units(cg, op, &work);
  KernelSaved saved;
  LLVMValueRef fn = kernel_begin(d, op, &saved);
  cg_conv_gemm(cg, op, d->epi[op->results[0]->id], kernel_scratch(d), LLVMGetParam(fn, 1),
               LLVMGetParam(fn, 2), epi_value, d);
  kernel_end(d, &saved);
  cg_kernel_call_dyn(cg, fn, d->kframe, n, work);
}

/* ------------------------------------------------------------------------ */
/* Ops                                                                       */

/* Stores x, the value of v at idx: into v's buffer, or when v has an
 * epilogue root, the root's value into the root's buffer. */
static void store_value(Dyn *d, Value *v, LLVMValueRef *idx, LLVMValueRef x) {
  Op *epi = d->epi[v->id];
  if (epi) {
    d->cg->scalar[v->id] = x;
    x = gen_value(d, epi, idx);
    d->cg->scalar[v->id] = NULL;
    v = epi->results[0];
  }
  cg_store(d->cg, d->ptr[v->id], v->type->elem, linear(d, v, idx), x);
}

/* The whole result of op, elementally. */
static void emit_elemental(Dyn *d, Op *op, Gen gen) {
  Value *v = op->results[0];
  CgLoop loops[MAX_RANK];
  LLVMValueRef idx[MAX_RANK];
  int n = open_loops(d, v, NULL, loops, idx);
  store_value(d, v, idx, gen(d, op, idx));
  close_loops(d, loops, n);
}

/* The whole results of a SHARED op, from its static generator. */
static void emit_shared(Dyn *d, Op *op) {
  Value *v = op->results[0];
  CgLoop loops[MAX_RANK];
  LLVMValueRef idx[MAX_RANK], out[op->nresults];
  int n = open_loops(d, v, NULL, loops, idx);
  cg_gen(d->cg, op, idx, out);
  for (int k = 0; k < op->nresults; k++) store_value(d, op->results[k], idx, out[k]);
  close_loops(d, loops, n);
}

/* Ops whose kernel on the static path (sort.c, linalg.c, scatter.c) takes
 * symbolic sizes (cg_dim), writing the results' buffers (cg_buffer) over
 * every slice, batch, update or source element, and gather (dyngather.c: the static
 * path's cg_gather_at with bounds known at run time). */
static bool (*const KERNEL[OP_COUNT])(CG *cg, Op *op) = {
    [OP_SORT] = cg_sort_symbolic,
    [OP_GATHER] = cg_symbolic_gather,
    [OP_DYNAMIC_GATHER] = cg_symbolic_gather,
    [OP_SCATTER] = cg_kernel_scatter,
    [OP_SELECT_AND_SCATTER] = cg_kernel_select_and_scatter,
    [OP_TRIANGULAR_SOLVE] = cg_kernel_triangular_solve,
    [OP_CHOLESKY] = cg_kernel_cholesky,
};

/* spec: concatenate: each operand is copied to its place along dimension. */
static void emit_concatenate(Dyn *d, Op *op) {
  CG *cg = d->cg;
  Value *v = op->results[0];
  LLVMValueRef start = cg_i64(cg, 0);
  int axis = (int)op->a.dimension;
  for (int k = 0; k < op->nopnds; k++) {
    const Value *x = op->opnds[k];
    CgLoop loops[MAX_RANK];
    LLVMValueRef idx[MAX_RANK];
    int n = open_loops(d, x, NULL, loops, idx);
    LLVMValueRef val = load_at(d, x, idx);
    idx[axis] = LLVMBuildAdd(cg->b, idx[axis], start, "");
    cg_store(cg, d->ptr[v->id], v->type->elem, linear(d, v, idx), val);
    close_loops(d, loops, n);
    start = LLVMBuildAdd(cg->b, start, dim(d, x, axis), "");
  }
}

/* spec: reduce: for each result index, body(accumulators, inputs) over
 * the reduced dimensions from init_values (n inputs, n results). */
static void emit_reduce(Dyn *d, Op *op) {
  CG *cg = d->cg;
  int n = op->nresults;
  const Value *x = op->opnds[0];
  Value *r0 = op->results[0];
  LLVMValueRef acc[n], args[2 * n], res[n], none[1] = {NULL};
  LLVMValueRef idx[MAX_RANK], xi[MAX_RANK];
  CgLoop outer[MAX_RANK], inner[MAX_RANK];
  for (int k = 0; k < n; k++)
    acc[k] = cg_entry_alloca(cg, cg_scalar_type(cg, op->results[k]->type->elem), "reduce.acc");
  int no = open_loops(d, r0, NULL, outer, idx);
  for (int i = 0, j = 0; i < x->type->rank; i++)
    if (!ir_list_has(&op->a.dimensions, i)) xi[i] = idx[j++];
  for (int k = 0; k < n; k++) LLVMBuildStore(cg->b, load_at(d, op->opnds[n + k], none), acc[k]);
  int ni = open_loops(d, x, &op->a.dimensions, inner, xi);
  for (int k = 0; k < n; k++) {
    args[k] = LLVMBuildLoad2(cg->b, cg_scalar_type(cg, op->results[k]->type->elem), acc[k], "");
    args[n + k] = load_at(d, op->opnds[k], xi);
  }
  cg_region_scalar(cg, op->regions[0], args, res);
  for (int k = 0; k < n; k++) LLVMBuildStore(cg->b, res[k], acc[k]);
  close_loops(d, inner, ni);
  LLVMValueRef lin = linear(d, r0, idx);
  for (int k = 0; k < n; k++) {
    Value *v = op->results[k];
    cg_store(cg, d->ptr[v->id], v->type->elem, lin,
             LLVMBuildLoad2(cg->b, cg_scalar_type(cg, v->type->elem), acc[k], ""));
  }
  close_loops(d, outer, no);
}

/* Returns `status` from the entry unless cond holds. */
static void require(Dyn *d, LLVMValueRef cond, int status) {
  CG *cg = d->cg;
  LLVMBasicBlockRef ok = LLVMAppendBasicBlockInContext(cg->ctx, cg->llfn, "ok");
  LLVMBasicBlockRef bad = LLVMAppendBasicBlockInContext(cg->ctx, cg->llfn, "fail");
  LLVMBuildCondBr(cg->b, cond, ok, bad);
  LLVMPositionBuilderAtEnd(cg->b, bad);
  LLVMBuildRet(cg->b, LLVMConstInt(cg->t_i32, (unsigned)status, 0));
  LLVMPositionBuilderAtEnd(cg->b, ok);
}

/* shloc.format_i64(dst, v): writes v in decimal at dst (no NUL) and
 * returns the end; one per object, internal. */
static LLVMValueRef format_i64_fn(CG *cg) {
  LLVMValueRef fn = LLVMGetNamedFunction(cg->mod, "shloc.format_i64");
  if (fn) return fn;
  LLVMTypeRef params[2] = {cg->t_ptr, cg->t_i64};
  fn = LLVMAddFunction(cg->mod, "shloc.format_i64", LLVMFunctionType(cg->t_ptr, params, 2, 0));
  LLVMSetLinkage(fn, LLVMInternalLinkage);
  cg_set_fn_attrs(cg, fn);
  CgFnState saved = cg_save_fn(cg);
  cg_fn_begin(cg, fn);
  LLVMBuilderRef b = cg->b;
  LLVMValueRef dst = LLVMGetParam(fn, 0), v = LLVMGetParam(fn, 1);
  LLVMTypeRef digits_t = LLVMArrayType2(cg->t_i8, INT_CHARS);
  LLVMValueRef digits = cg_entry_alloca(cg, digits_t, "digits");
  LLVMValueRef at = cg_entry_alloca(cg, cg->t_i64, "at"), rest = cg_entry_alloca(cg, cg->t_i64, "rest");
  LLVMValueRef neg = LLVMBuildICmp(b, LLVMIntSLT, v, cg_i64(cg, 0), "");
  /* |v| as unsigned: 0 - v wraps to 2^63 for INT64_MIN, which udiv reads right. */
  LLVMBuildStore(b, LLVMBuildSelect(b, neg, LLVMBuildSub(b, cg_i64(cg, 0), v, ""), v, ""), rest);
  LLVMBuildStore(b, cg_i64(cg, INT_CHARS), at);
  LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(cg->ctx, fn, "digit");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(cg->ctx, fn, "sign");
  LLVMBuildBr(b, loop);
  LLVMPositionBuilderAtEnd(b, loop); /* do { digits[--at] = '0' + rest % 10 } while (rest /= 10) */
  LLVMValueRef r = LLVMBuildLoad2(b, cg->t_i64, rest, "");
  LLVMValueRef i = LLVMBuildSub(b, LLVMBuildLoad2(b, cg->t_i64, at, ""), cg_i64(cg, 1), "");
  LLVMValueRef c = LLVMBuildAdd(b, LLVMBuildURem(b, r, cg_i64(cg, 10), ""), cg_i64(cg, '0'), "");
  LLVMValueRef digit = cg_gep(cg, cg->t_i8, digits, i);
  LLVMBuildStore(b, LLVMBuildTrunc(b, c, cg->t_i8, ""), digit);
  LLVMBuildStore(b, i, at);
  LLVMValueRef q = LLVMBuildUDiv(b, r, cg_i64(cg, 10), "");
  LLVMBuildStore(b, q, rest);
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntNE, q, cg_i64(cg, 0), ""), loop, done);
  LLVMPositionBuilderAtEnd(b, done);
  LLVMBuildStore(b, LLVMConstInt(cg->t_i8, '-', 0), dst);
  LLVMValueRef out = cg_gep(cg, cg->t_i8, dst, LLVMBuildZExt(b, neg, cg->t_i64, ""));
  i = LLVMBuildLoad2(b, cg->t_i64, at, "");
  LLVMValueRef n = LLVMBuildSub(b, cg_i64(cg, INT_CHARS), i, "");
  LLVMBuildMemCpy(b, out, 1, cg_gep(cg, cg->t_i8, digits, i), 1, n);
  LLVMBuildRet(b, cg_gep(cg, cg->t_i8, out, n));
  cg_fn_end(cg);
  cg_restore_fn(cg, &saved);
  return fn;
}

/* Copies the n characters of text to at; returns the end. */
static LLVMValueRef write_text(CG *cg, LLVMValueRef at, const char *text, size_t n) {
  char *s = arena_strndup(&cg->m->arena, text, n);
  LLVMBuildMemCpy(cg->b, at, 1, cg_const_string(cg, s), 1, cg_i64(cg, (int64_t)n));
  return cg_gep(cg, cg->t_i8, at, cg_i64(cg, (int64_t)n));
}

/* The error_message of op at the start of temp, each `{i}` replaced by
 * input i in decimal (as jax.export's str.format), NUL-terminated: at most
 * cg_symbolic_message_bytes, the area the plan keeps there. */
static void write_message(Dyn *d, Op *op) {
  CG *cg = d->cg;
  LLVMValueRef at = LLVMGetParam(cg->llfn, (unsigned)(d->f->body->nargs + d->f->nresults));
  LLVMValueRef none[1] = {NULL};
  const char *p = op->a.error_message ? op->a.error_message : "", *end;
  while (*p) {
    int i = ir_message_field(op, p, &end);
    if (i >= 0) {
      const Value *x = op->opnds[i + 1];
      LLVMValueRef args[2] = {at, cg_convert(cg, load_at(d, x, none), x->type->elem, ET_SI64)};
      LLVMValueRef fn = format_i64_fn(cg);
      at = LLVMBuildCall2(cg->b, LLVMGlobalGetValueType(fn), fn, args, 2, "");
      p = end;
      continue;
    }
    const char *q = p + 1;
    while (*q && ir_message_field(op, q, &end) < 0) q++;
    at = write_text(cg, at, p, (size_t)(q - p));
    p = q;
  }
  LLVMBuildStore(cg->b, LLVMConstInt(cg->t_i8, 0, 0), at);
}

/* custom_call @shape_assertion(pred, inputs...): unless pred holds, the
 * message goes to temp and the entry returns 2. */
static void emit_assertion(Dyn *d, Op *op) {
  CG *cg = d->cg;
  LLVMValueRef none[1] = {NULL};
  LLVMValueRef p = load_at(d, op->opnds[0], none);
  LLVMBasicBlockRef ok = LLVMAppendBasicBlockInContext(cg->ctx, cg->llfn, "ok");
  LLVMBasicBlockRef bad = LLVMAppendBasicBlockInContext(cg->ctx, cg->llfn, "assertion");
  LLVMBuildCondBr(cg->b, LLVMBuildICmp(cg->b, LLVMIntNE, p, LLVMConstNull(LLVMTypeOf(p)), ""), ok, bad);
  LLVMPositionBuilderAtEnd(cg->b, bad);
  write_message(d, op);
  LLVMBuildRet(cg->b, LLVMConstInt(cg->t_i32, 2, 0));
  LLVMPositionBuilderAtEnd(cg->b, ok);
}

static void emit_return(Dyn *d, Op *ret) {
  CG *cg = d->cg;
  for (int i = 0; i < ret->nopnds; i++) {
    Value *v = ret->opnds[i];
    LLVMValueRef dst = LLVMGetParam(cg->llfn, (unsigned)(d->f->body->nargs + i));
  LLVMBuildMemCpy(cg->b, dst, 1, d->ptr[v->id], 1, d->x[byte_size(cg->m, d->s, v)->id]);
  }
  LLVMBuildRet(cg->b, LLVMConstInt(cg->t_i32, 0, 0));
}

static bool known(const Value *v) {
  return v->type->kind == TY_TENSOR && elem_supported(v->type->elem) &&
         v->type->rank <= MAX_RANK && (type_is_static(v->type) || v->sym);
}

/* Whether every operand and result of the top-level ops has a supported
 * type and known sizes (passes/symbolic.c gave them); reports those that
 * do not. */
static bool sizes_known(Dyn *d) {
  bool ok = true;
  for (Op *op = d->f->body->first; op; op = op->next) {
    bool good = true;
    for (int i = 0; i < op->nopnds; i++) good &= known(op->opnds[i]);
    for (int i = 0; i < op->nresults; i++) good &= known(op->results[i]);
    if (!good) cg_unsupported(d->cg, op, "a value of unknown size or unsupported type in an "
                              "entry with symbolic sizes");
    ok &= good;
  }
  return ok;
}


static void emit_op(Dyn *d, Op *op) {
  if (ir_is_shape_assertion(op)) {
    emit_assertion(d, op);
    return;
  }
  if (op->nresults != 1 && op->code != OP_REDUCE && !SHARED[op->code] && !KERNEL[op->code]) {
    cg_unsupported(d->cg, op, "in an entry with symbolic sizes (specialize it with "
                   "--input-shapes or --dim)");
    return;
  }
  /* fused, or run where its epilogue root is */
  if (d->fused[op->results[0]->id] || d->epi[op->results[0]->id]) return;
  if (op->code == OP_CONSTANT) {
    Value *v = op->results[0];
    char *name = arena_printf(&d->cg->m->arena, "%s.const%d", d->f->name, v->id);
    d->ptr[v->id] = d->cg->buf[v->id] = cg_dense_global(d->cg, op->a.value, name);
    return;
  }
  for (int i = 0; i < op->nresults; i++) {
    Value *v = op->results[i];
    d->ptr[v->id] = d->cg->buf[v->id] = cg_gep(d->cg, d->cg->t_i8, d->temp, d->x[d->offset[v->id]->id]);
  }
  Op *gemm = d->gemm[op->results[0]->id]; /* op is its epilogue root */
  if (gemm) op = gemm;
  if (runs_kernel(d->dot, op)) {
    if (op->code == OP_CONVOLUTION) emit_conv(d, op);
    else emit_dot(d, op, d->dot[op->results[0]->id]);
  } else if (op->code == OP_CONCATENATE) emit_concatenate(d, op);
  else if (op->code == OP_REDUCE) emit_reduce(d, op);
  else if (ir_is_elementwise(op->code)) emit_elemental(d, op, gen_elementwise);
  else if (GEN[op->code]) emit_elemental(d, op, GEN[op->code]);
  else if (SHARED[op->code]) emit_shared(d, op);
  else if (KERNEL[op->code]) KERNEL[op->code](d->cg, op);
  else cg_unsupported(d->cg, op, "in an entry with symbolic sizes (specialize it with "
                      "--input-shapes or --dim)");
}

/* ------------------------------------------------------------------------ */
/* The functions                                                             */

static LLVMValueRef add_fn(CG *cg, const char *name, LLVMTypeRef ret, LLVMTypeRef *params,
                           int n) {
  LLVMTypeRef fty = LLVMFunctionType(ret, params, (unsigned)n, 0);
  LLVMValueRef fn = LLVMAddFunction(cg->mod, name, fty);
  cg_set_fn_attrs(cg, fn);
  return fn;
}

/* The symbols' values: parameters first .. first + nsyms - 1 of fn. */
static void sym_params(Dyn *d, LLVMValueRef fn, int first, LLVMValueRef *syms) {
  for (int k = 0; k < d->s->nsyms; k++) syms[k] = LLVMGetParam(fn, (unsigned)(first + k));
}

/* Status 1 unless every symbol is >= 0, no size overflows, the constraints
 * hold and each dimension argument's value is its symbol. */
static void check_sizes(Dyn *d, LLVMValueRef *syms, LLVMValueRef ovf) {
  CG *cg = d->cg;
  LLVMValueRef ok = LLVMBuildNot(cg->b, ovf, "");
  for (int k = 0; k < d->s->nsyms; k++) {
    ok = LLVMBuildAnd(cg->b, ok, LLVMBuildICmp(cg->b, LLVMIntSGE, syms[k], cg_i64(cg, 0), ""), "");
    const DimSym *s = &d->s->syms[k];
    if (s->dim >= 0) continue;
    Value *a = d->f->body->args[s->arg];
    LLVMValueRef none[1] = {NULL};
    LLVMValueRef v = cg_convert(cg, load_at(d, a, none), a->type->elem, ET_SI64);
    ok = LLVMBuildAnd(cg->b, ok, LLVMBuildICmp(cg->b, LLVMIntEQ, v, syms[k], ""), "");
  }
  for (int i = 0; i < d->s->ncons; i++) {
    const DimConstraint *c = &d->s->cons[i];
    LLVMIntPredicate p = c->ge ? LLVMIntSGE : LLVMIntEQ;
    ok = LLVMBuildAnd(cg->b, ok, LLVMBuildICmp(cg->b, p, d->x[c->a->id], d->x[c->b->id], ""), "");
  }
  require(d, ok, 1);
}

static void emit_entry(Dyn *d, const char *name) {
  CG *cg = d->cg;
  Func *f = d->f;
  int nptr = f->body->nargs + f->nresults + 1, n = nptr + d->s->nsyms;
  LLVMTypeRef params[n];
  for (int i = 0; i < n; i++) params[i] = i < nptr ? cg->t_ptr : cg->t_i64;
  LLVMValueRef fn = add_fn(cg, name, cg->t_i32, params, n);
  cg_fn_begin(cg, fn);
  LLVMValueRef syms[d->s->nsyms + 1], ovf = LLVMConstInt(cg->t_i1, 0, 0);
  sym_params(d, fn, nptr, syms);
  for (int i = 0; i < f->body->nargs; i++)
    d->ptr[f->body->args[i]->id] = cg->buf[f->body->args[i]->id] = LLVMGetParam(fn, (unsigned)i);
  d->temp = LLVMGetParam(fn, (unsigned)(f->body->nargs + f->nresults));
  eval_all(d, syms, &ovf);
  check_sizes(d, syms, ovf);
  fill_kframe(d);
  Op *op = f->body->first;
  for (; op && op->code != OP_FUNC_RETURN; op = op->next) emit_op(d, op);
  if (op) emit_return(d, op);
  else LLVMBuildRet(cg->b, LLVMConstInt(cg->t_i32, 0, 0));
  cg_fn_end(cg);
}

/* Starts P_F<suffix>(sym..., extra...) returning ret, the sizes evaluated
 * from its symbols (Dyn.x); *ovf: whether one overflows. */
static LLVMValueRef begin_sizes_fn(Dyn *d, const char *name, const char *suffix, LLVMTypeRef ret,
                                   const LLVMTypeRef *extra, int nextra, LLVMValueRef *ovf) {
  CG *cg = d->cg;
  int n = d->s->nsyms;
  LLVMTypeRef params[n + nextra + 1];
  for (int i = 0; i < n + nextra; i++) params[i] = i < n ? cg->t_i64 : extra[i - n];
  LLVMValueRef fn =
      add_fn(cg, arena_printf(&cg->m->arena, "%s%s", name, suffix), ret, params, n + nextra);
  LLVMPositionBuilderAtEnd(cg->b, LLVMAppendBasicBlockInContext(cg->ctx, fn, "entry"));
  LLVMValueRef syms[n + 1];
  *ovf = LLVMConstInt(cg->t_i1, 0, 0);
  sym_params(d, fn, 0, syms);
  eval_all(d, syms, ovf);
  return fn;
}

/* P_F_temp_bytes(sym...): the arena size (-1 when it overflows). */
static void emit_temp_bytes(Dyn *d, const char *name) {
  CG *cg = d->cg;
  LLVMValueRef ovf;
  begin_sizes_fn(d, name, "_temp_bytes", cg->t_i64, NULL, 0, &ovf);
  LLVMBuildRet(cg->b, LLVMBuildSelect(cg->b, ovf, cg_i64(cg, -1), d->x[d->temp_bytes->id], ""));
}

/* P_F_result_dims(sym..., result, out): out[i] = size i of that result. */
static void emit_result_dims(Dyn *d, const char *name) {
  CG *cg = d->cg;
  int n = d->s->nsyms;
  LLVMTypeRef extra[2] = {cg->t_i32, cg->t_ptr};
  LLVMValueRef ovf, fn = begin_sizes_fn(d, name, "_result_dims", cg->t_void, extra, 2, &ovf);
  Op *ret = ir_block_terminator(d->f->body);
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(cg->ctx, fn, "done");
  LLVMValueRef sw = LLVMBuildSwitch(cg->b, LLVMGetParam(fn, (unsigned)n), done, (unsigned)ret->nopnds);
  for (int r = 0; r < ret->nopnds; r++) {
    const Value *v = ret->opnds[r];
    LLVMBasicBlockRef bb = LLVMAppendBasicBlockInContext(cg->ctx, fn, "result");
    LLVMAddCase(sw, LLVMConstInt(cg->t_i32, (unsigned)r, 0), bb);
    LLVMPositionBuilderAtEnd(cg->b, bb);
    for (int i = 0; i < v->type->rank; i++) {
      LLVMValueRef at = cg_gep(cg, cg->t_i64, LLVMGetParam(fn, (unsigned)n + 1), cg_i64(cg, i));
      LLVMBuildStore(cg->b, dim(d, v, i), at);
    }
    LLVMBuildBr(cg->b, done);
  }
  LLVMPositionBuilderAtEnd(cg->b, done);
  LLVMBuildRetVoid(cg->b);
}

/* What the entry's status 1 means (the header says it too). */
static const char size_error[] =
    "the sizes are negative, overflow, exceed a bound or break a constraint of the program";

/* P_F_status_message(status, temp): "" for 0, size_error for 1, for 2 the
 * message the failed shape assertion left at the start of temp. */
static void emit_status_message(Dyn *d, const char *name) {
  CG *cg = d->cg;
  LLVMTypeRef params[2] = {cg->t_i32, cg->t_ptr};
  LLVMValueRef fn = add_fn(cg, arena_printf(&cg->m->arena, "%s_status_message", name), cg->t_ptr, params, 2);
  LLVMPositionBuilderAtEnd(cg->b, LLVMAppendBasicBlockInContext(cg->ctx, fn, "entry"));
  LLVMValueRef status = LLVMGetParam(fn, 0);
  bool asserts = cg_symbolic_message_bytes(d->f) > 0;
  LLVMValueRef r = LLVMBuildGlobalStringPtr(cg->b, "unknown status", "");
  LLVMValueRef ok = LLVMBuildGlobalStringPtr(cg->b, "", "");
  const LLVMValueRef texts[3] = {ok, LLVMBuildGlobalStringPtr(cg->b, size_error, ""),
                                 asserts ? LLVMGetParam(fn, 1) : r};
  for (int k = 0; k < 3; k++)
    r = LLVMBuildSelect(cg->b, LLVMBuildICmp(cg->b, LLVMIntEQ, status, LLVMConstInt(cg->t_i32, (unsigned)k, 0), ""),
                        texts[k], r, "");
  LLVMBuildRet(cg->b, r);
}

/* P_F__packed(ptr args): args holds the pointers of P_F, then a pointer to
 * each symbol's int64_t value. */
static void emit_packed(Dyn *d, const char *name) {
  CG *cg = d->cg;
  Func *f = d->f;
  int nptr = f->body->nargs + f->nresults + 1, n = nptr + d->s->nsyms;
  LLVMValueRef entry = LLVMGetNamedFunction(cg->mod, name);
  LLVMValueRef fn = add_fn(cg, arena_printf(&cg->m->arena, "%s__packed", name), cg->t_i32, &cg->t_ptr, 1);
  LLVMPositionBuilderAtEnd(cg->b, LLVMAppendBasicBlockInContext(cg->ctx, fn, "entry"));
  LLVMValueRef args[n];
  for (int i = 0; i < n; i++) {
    LLVMValueRef p = LLVMBuildLoad2(cg->b, cg->t_ptr, cg_gep(cg, cg->t_ptr, LLVMGetParam(fn, 0), cg_i64(cg, i)), "");
    args[i] = i < nptr ? p : LLVMBuildLoad2(cg->b, cg->t_i64, p, "");
  }
  LLVMTypeRef fty = LLVMGlobalGetValueType(entry);
  LLVMBuildRet(cg->b, LLVMBuildCall2(cg->b, fty, entry, args, (unsigned)n, ""));
}

static void free_dyn(Dyn *d) {
  free(d->ptr);
  free(d->offset);
  free(d->fused);
  free(d->dot);
  free(d->epi);
  free(d->gemm);
  free(d->x);
  free(d->framed);
}

void cg_symbolic_entry(CG *cg, Func *f) {
  /* Its status 2 is a failed shape assertion, not SHLOC_BAD_ARGUMENT. */
  if (cg->o->check_args) {
    diag_error(f->loc, "@%s: --check-args is not implemented for an entry with symbolic sizes "
               "(specialize it with --input-shapes or --dim)", f->name);
    cg->errors++;
    return;
  }
  cg->fn = f;
  ir_number_values(f);
  int nv = f->next_value_id + 1;
  Dyn d = {.cg = cg, .f = f, .s = f->sym,
           .ptr = calloc((size_t)nv, sizeof(LLVMValueRef)),
           .offset = calloc((size_t)nv, sizeof(DimExpr *)),
           .fused = calloc((size_t)nv, sizeof(bool)),
           .dot = calloc((size_t)nv, sizeof(DynDot *)),
           .epi = calloc((size_t)nv, sizeof(Op *)),
           .gemm = calloc((size_t)nv, sizeof(Op *))};
  if (!d.ptr || !d.offset || !d.fused || !d.dot || !d.epi || !d.gemm) abort();
  if (!sizes_known(&d)) {
    free_dyn(&d);
    return;
  }
  plan(&d);
  Op *ret = ir_block_terminator(f->body);
  for (int i = 0; ret && i < ret->nopnds; i++) byte_size(cg->m, d.s, ret->opnds[i]); /* interned now */
  d.x = cg->symx = calloc((size_t)d.s->nexprs + 1, sizeof(LLVMValueRef));
  if (!d.x) abort();
  const char *name = cg_entry_name(&cg->m->arena, cg->o, f);
  emit_entry(&d, name);
  emit_temp_bytes(&d, name);
  emit_result_dims(&d, name);
  emit_status_message(&d, name);
  if (cg->o->packed_entry) emit_packed(&d, name);
  free_dyn(&d);
  cg->symx = NULL;
}
