/*
 * gemm.h: the blocked GEMM engine (gemm.c) as dot.c and conv.c drive it.
 * Internal to codegen/.
 */
#ifndef SHLOC_CODEGEN_GEMM_H
#define SHLOC_CODEGEN_GEMM_H

#include "codegen.h"

#define GEMM_MAX_BATCH 8
/* A size or stride of a GemmPlan known only at run time (an entry with
 * symbolic sizes, codegen/dyndims.c): its value is in GemmPlan.v. */
#define GEMM_DYN (-1)

/* The sizes and strides of a GemmPlan as i64 LLVM values, which the
 * engine's IR uses: constants of the plan's fields (gemm_plan fills those
 * left NULL, so a static GEMM's IR is what it was with constants), or the
 * run-time values of fields that are GEMM_DYN. */
typedef struct GemmVals {
  LLVMValueRef nbatch, M, N, K, sam, sak, sbk, sbn;
  LLVMValueRef bdim[GEMM_MAX_BATCH], bsa[GEMM_MAX_BATCH], bsb[GEMM_MAX_BATCH];
} GemmVals;

/* The shapes and strides of a GEMM (planned by its caller) and its tiles
 * (gemm_plan). Batches are a row-major index space of nbd dimensions. */
typedef struct GemmPlan {
  ElemType e;
  int64_t nbatch, M, N, K;
  int nbd, nfl, nfr;                /* batch dims; dot_general's lhs and rhs free dims */
  int64_t bdim[GEMM_MAX_BATCH];     /* batch dim sizes */
  int64_t bsa[GEMM_MAX_BATCH], bsb[GEMM_MAX_BATCH]; /* their A/B strides */
  int64_t sam, sak, sbk, sbn;       /* element strides of A(m,k), B(k,n) */
  int vl, nv, mr, nr;               /* lanes, vectors per row, tile */
  const char *isa;                  /* the tile's row in gemm.c's table */
  int64_t cb_panel;                 /* a convolution's B panel stays whole up to this (conv.c) */
  bool cpf;                         /* conv_micro_fn fetches the next panel into L2 */
  bool cpf_first;                   /* or only in calls where GemmTaps.fetch holds (gemm.c) */
  int64_t kc, mc;                   /* cache blocks */
  bool direct_a;                    /* micro reads A in place */
  bool skinny_dots;                 /* gemm_skinny with B contiguous along K */
  GemmVals v;                       /* the sizes and strides as LLVM values */
} GemmPlan;

/* The value of epilogue root epi at result index idx, for callers whose
 * values cg_gen does not generate (dyndims.c); ctx is Gemm.epi_ctx. */
typedef LLVMValueRef (*GemmEpiGen)(void *ctx, Op *epi, LLVMValueRef *idx);

/* A GEMM being emitted. */
typedef struct Gemm {
  CG *cg;
  LLVMBuilderRef b;  /* cg->b */
  GemmPlan p;
  LLVMTypeRef t, vt; /* element and vector types */
  Op *op;            /* the dot_general or convolution */
  Op *epi;           /* its epilogue root, or NULL */
  int ncols;         /* result dims spanned by the columns of C */
  GemmEpiGen epi_gen; /* the epilogue's generator (NULL: cg_gen) */
  void *epi_ctx;
  LLVMValueRef scratch; /* the call's scratch (dyndims.c), or NULL: cg_scratch's */
  const GemmPacking *packed; /* B is a constant in panels (layout pass), or NULL */
} Gemm;

/* The part of the result one kernel call computes: batches [b0, b1), rows
 * [r0, r1) and columns [c0, c1) of C[b] (M x N). */
typedef struct GemmRange {
  LLVMValueRef b0, b1, r0, r1, c0, c1;
} GemmRange;

/* One block of rows: A(ic, 0) and C(ic, 0) of batch b, B(0, 0) of batch
 * b, its row count, the column range, and the first column of what the
 * call computes after it in this batch (cn: c0 when another block of its
 * rows follows, else c1). */
typedef struct GemmBlock {
  LLVMValueRef a, b, c, mc, c0, c1, cn;
} GemmBlock;

/* Per-call scratch of a kernel: packed panels, MR row pointers and a row
 * of zeros for rows that do not exist, and the microkernel. */
typedef struct GemmScratch {
  LLVMValueRef ap, bp, rowptrs, zeros;
  LLVMValueRef micro;
} GemmScratch;

/* Completes the plan of g (its shapes, strides and e planned): tile and
 * block sizes, reading A in place (direct_a) when it is contiguous along
 * K, the element and vector types, and GemmPlan.v. A K of GEMM_DYN gets
 * the largest KC, a stride of GEMM_DYN never reads in place. */
void gemm_plan(Gemm *g);
/* The K slice (KC) of a GEMM summing K terms (GEMM_DYN: the largest). */
int64_t gemm_kc(int64_t K);
/* llvm.prefetch of base[idx] (elements of g->t; the address is not
 * inbounds: a prefetch may point past the end, it never faults), for a
 * read (write 0) or a write (1), locality 0-3. */
void gemm_prefetch(Gemm *g, LLVMValueRef base, LLVMValueRef idx, int write, int locality);
/* MR, the rows of the blocked path's tile for op (a dot_general, or a
 * convolution: its own tile), as gemm_plan plans it. */
int gemm_mr(CG *cg, const Op *op);
/* NR, the columns of the blocked path's tile for op (a dot_general, or
 * a convolution: its own tile) and its result's element type. */
int gemm_nr(CG *cg, const Op *op);
/* When threads split the columns of a blocked GEMM (a convolution's,
 * conv.c, or a dot_general's, dot.c) in units of NR: fewer rows of C than
 * GEMM_ROW_SPLIT_MIN_M, and gemm_enough_panels. */
enum { GEMM_ROW_SPLIT_MIN_M = 2304, GEMM_COL_SPLIT_PANELS_PER_THREAD = 2 };
/* A GEMM split by rows packs B once per call and per MC rows (gemm.c's
 * gemm_plan: 288 rows of f32, about 512 with gemm_plan_deep's deeper
 * slices): calls of fewer rows pack it more often (kernel.c's grain).
 * With B packed at compile time (passes/layout.c) a call packs nothing
 * but still reads all of B, so its calls may be shorter: 48 rows, and the
 * runtime cuts the last pieces of a thread's share that short (ResNet-50
 * b1's 28 x 28 rows, grain 2: 6 4 2 2 a thread instead of 6 4 4; its
 * 56 x 56 Winograd tiles, then F(2 x 2)'s 784: 200 96 48 48 instead of
 * 200 96 96). At 2 threads the model took 0.992-0.993x the time of a
 * grain of 96 (9-11 of 10-12 alternations faster in four runs,
 * SCHED_FIFO, both threads at full speed, the runtime then cutting 4
 * pieces a share; measured before those layers took F(4 x 4), whose 196
 * tiles now split 50 48 a thread either way), 24 no faster than 48; 1,
 * 96 and 288 were within 5% of each other before the runtime's halving
 * cut. */
enum { GEMM_MIN_CALL_ROWS = 288, GEMM_MIN_CALL_ROWS_PACKED = 48 };
/* The fewest units of `rows` rows each (rows > 0) that make a call of a
 * split by rows: GEMM_MIN_CALL_ROWS_PACKED of them with B packed, else
 * GEMM_MIN_CALL_ROWS, rounded up to whole units (kernel.c's split_grain,
 * conv.c's lines). */
int64_t gemm_row_grain(bool packed, int64_t rows);
/* At least GEMM_COL_SPLIT_PANELS_PER_THREAD panels of nr of the N columns
 * per thread (2 threads at least). */
bool gemm_enough_panels(int64_t N, int nr, int threads);
/* The packing of p's B (nmat matrices of bdim[0..nbd) with B strides
 * bstride) for a tile whose B panel rows have panel_bytes. */
void gemm_packing(const GemmPlan *p, int nbd, const int64_t *bdim, const int64_t *bstride,
                  int panel_bytes, GemmPacking *out);
/* When the layout pass packed b (the B operand, Value.packed), the
 * kernel reads its panels in place: g->packed, after checking that the
 * packing is the plan's. */
void gemm_use_packed(Gemm *g, const Value *b);
/* Before gemm_use_packed, a blocked dot_general's deeper K slices and
 * their blocks of rows when it reads A in place: b (its B operand) packed
 * by the layout pass in slices of b->packed->kc rows, or packed per call
 * (KC up to IR_DOT_KC_DEEP, which ir_kernel_scratch_bytes allows for). */
void gemm_plan_deep(Gemm *g, const Value *b);
/* The K slice in which the layout pass packs a constant B for the blocked
 * path (cg_dot_b_packing), gemm_plan_deep's for it: min(K, IR_DOT_KC_DEEP)
 * when A is read in place, else gemm_kc(K). */
int64_t gemm_kc_packed(const GemmPlan *p);
/* B(0, 0) of matrix i of a packed B whose buffer is B. */
LLVMValueRef gemm_packed_matrix(Gemm *g, LLVMValueRef B, LLVMValueRef i);
/* codegen_gemm_b_packing for each op: dot.c, conv.c. */
bool cg_dot_b_packing(const Op *op, int panel_bytes, int threads, bool skinny_packs,
                      GemmPacking *out);
bool cg_conv_b_packing(const Op *op, int panel_bytes, bool winograd, GemmPacking *out);
/* The row that missing rows of A read: n zeros, read-only data shared by
 * the kernels (one per element type and n). */
LLVMValueRef gemm_zero_row(Gemm *g, int64_t n);
/* The bytes of scratch a kernel call of a completed plan uses. */
int64_t gemm_scratch_bytes(const GemmPlan *p);
/* The scratch of a kernel call (from the kernel's slice of the temp arena,
 * cg_scratch) and its microkernel; gemm_scratch_at: the same at base, a
 * 64-byte aligned pointer to gemm_scratch_bytes bytes. */
GemmScratch gemm_scratch(Gemm *g);
GemmScratch gemm_scratch_at(Gemm *g, LLVMValueRef base);
/* The block of rows [ic, min(ic + MC, r1)) of batch bi of buffers A, B, C,
 * with r's columns. */
GemmBlock gemm_block_at(Gemm *g, LLVMValueRef bi, LLVMValueRef ic, LLVMValueRef r1,
                        const GemmRange *r, LLVMValueRef A, LLVMValueRef B,
                        LLVMValueRef C);
/* C = 0 on the block (K = 0: an empty sum). */
void gemm_zero_block(Gemm *g, GemmBlock *k);
/* The KC slice at pc of a block (C = A B for pc = 0, C += A B after). */
void gemm_slice(Gemm *g, GemmBlock *k, LLVMValueRef pc, GemmScratch *s);
/* The blocked driver: C = A * B on r (batches, rows in blocks of MC,
 * columns), each block's K slices (or zeros when K is 0), then the
 * epilogue on the block. A, B and C point at the operands' and the
 * result's (epilogue root's) first elements. */
void gemm_run(Gemm *g, GemmScratch *s, const GemmRange *r, LLVMValueRef A, LLVMValueRef B,
              LLVMValueRef C);
/* The k-major panel of B(pc:pc+kc, jr:jr+nr) (nr <= NR columns, zeros
 * beyond) of the matrix at bmat (B(0, 0); gemm_packed_matrix when packed):
 * packed into s->bp, or where the layout pass stored it. */
LLVMValueRef gemm_b_panel(Gemm *g, GemmScratch *s, LLVMValueRef bmat, LLVMValueRef pc,
                          LLVMValueRef jr, LLVMValueRef nr, LLVMValueRef kc);
/* The microkernel on the rows of `a` (Ap, or the row pointers) and the B
 * panel bp into the tile at c of rows x cols; `first`: C is overwritten,
 * not added to. */
void gemm_call_micro(Gemm *g, GemmScratch *s, LLVMValueRef a, LLVMValueRef bp,
                     LLVMValueRef c, LLVMValueRef kc, LLVMValueRef rows, LLVMValueRef cols,
                     LLVMValueRef first);
/* Taps [t0, t0 + n) of a convolution's indirect GEMM (conv.c), and the
 * rows the microkernel fetches into L2 meanwhile: row k of the panel
 * pf_taps taps and pf_cols columns from the one it reads (the next block
 * of taps of the panel, or the next panel's first block), at element
 * pf_line of the row. first: the tile starts from zeros, else from C
 * (the sums of the blocks before). */
typedef struct GemmTaps {
  LLVMValueRef t0, n, first, pf_taps, pf_cols, pf_line;
  LLVMValueRef fetch; /* with GemmPlan.cpf_first: whether this tile fetches (i1) */
} GemmTaps;
/* The indirect convolution microkernel (gemm.c conv_micro_fn) of mr <=
 * MR rows on the tile at c of rows x cols (rows <= mr, cols <= NR): C =
 * (t->first ? 0 : C) + the sum over taps t->t0 .. t->t0 + t->n - 1 and
 * the plan's K input features of A_t * B_t, where tab holds MR row
 * pointers per tap from tap 0 (K elements each; the first mr are read)
 * and b is the first matrix of a B packed by the layout pass
 * (g->packed), read at panel jr. With g->p.cpf_first, the calls where
 * t->fetch holds fetch the next panel (the `_pf` variant). */
void gemm_conv_micro(Gemm *g, int mr, LLVMValueRef tab, LLVMValueRef b, LLVMValueRef c,
                     const GemmTaps *t, LLVMValueRef jr, LLVMValueRef rows, LLVMValueRef cols);
/* The row tiles of a block of mc rows for the microkernels of MR and MR
 * - 1 rows (conv.c, also winograd.c's groups of tiles): n = ceil(mc /
 * MR); with balance, when n x (MR - 1) rows cover mc, the first nbig of
 * MR rows and the others of MR - 1, else (and without balance) MR rows
 * each but the last. cg_conv_tile_at: tile i's first row, *rows its
 * rows. */
typedef struct ConvTiles {
  LLVMValueRef n, nbig;
} ConvTiles;
ConvTiles cg_conv_tiles(Gemm *g, LLVMValueRef mc, bool balance);
LLVMValueRef cg_conv_tile_at(Gemm *g, const ConvTiles *t, LLVMValueRef mc, LLVMValueRef i,
                             LLVMValueRef *rows);
/* The skinny paths (M <= GEMM_SKINNY_MAX_M rows, A contiguous along K, B
 * along N or, p.skinny_dots, along K): C[0:M, c0:c1) = A * B[:, c0:c1)
 * over the whole K, B read in place once without packing (or, g->packed,
 * from the panels the layout pass stored: gemm_plan_skinny_of); then the
 * epilogue on those columns. a, b, c point at A(0, 0), B(0, 0) and C(0, 0)
 * of a batch whose rows are rows [row0, row0 + M) of the result viewed as
 * (batch * M) x N. */
#define GEMM_SKINNY_MAX_M 8
/* Whether the shapes and strides of p suit the skinny path; switching a
 * completed plan (gemm_plan) to it. */
bool gemm_skinny_fits(const GemmPlan *p);
void gemm_plan_skinny(Gemm *g);
/* gemm_plan_skinny, or when the layout pass packed the B operand b
 * (cg_dot_b_packing: the tile's panels, one K slice) the packed skinny
 * path's plan, which reads the panels in place (g->packed). */
void gemm_plan_skinny_of(Gemm *g, const Value *b);
void gemm_skinny(Gemm *g, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c,
                 LLVMValueRef row0, LLVMValueRef c0, LLVMValueRef c1);
/* The skinny driver: gemm_skinny on each batch of r, all rows, r's
 * columns. */
void gemm_run_skinny(Gemm *g, const GemmRange *r, LLVMValueRef A, LLVMValueRef B,
                     LLVMValueRef C);
/* The skinny path split along K (B in place along N, one batch, static
 * sizes): units [begin, end) of pieces + sums, unit q < pieces the product
 * over the q-th run of K's rows (SKINNY_KB-aligned) into slot q of
 * `parts` (slot_bytes apart, M x N each), unit pieces + s the s-th of
 * `sums` runs of C's columns = the slots summed in order, then the
 * epilogue on them; those units run after the others. */
void gemm_run_ksplit(Gemm *g, LLVMValueRef A, LLVMValueRef B, LLVMValueRef C,
                     LLVMValueRef parts, int64_t slot_bytes, int pieces, int sums,
                     LLVMValueRef begin, LLVMValueRef end);
/* The epilogue g->epi (if any) on rows [row0, row0 + nrows) and columns
 * [c0, c1) of C, a part that is complete. */
void gemm_epilogue(Gemm *g, LLVMValueRef row0, LLVMValueRef nrows, LLVMValueRef c0,
                   LLVMValueRef c1);

/* winograd.c: a convolution by Winograd's F(m x m, 3 x 3) where
 * ir_conv_wino allows. cg_conv_wino_packing: the packing of its
 * transformed weights (GemmPacking.wino); cg_conv_wino_split: when the
 * layout pass packed them so, the split (cg_conv_split's contract: at
 * batch > 1 the tile rows of all images, a block's a call, else the
 * image's count = th x tw tiles and their grain, wino_grain); cg_kernel_wino:
 * the kernel's body on [begin, end) of those units (cg_kernel_conv's
 * contract). */
bool cg_conv_wino_packing(const Op *op, int panel_bytes, GemmPacking *out);
bool cg_conv_wino_split(const Op *op, int *dim, int64_t *unit, int64_t *count, int64_t *grain);
bool cg_kernel_wino(CG *cg, Op *op, Op *epi);

/* conv.c's implicit GEMM on symbolic sizes (codegen/dyndims.c), sizes
 * from cg_dim. cg_conv_gemm_fits: the rhs and the feature sizes are
 * static (batch and spatial sizes may be symbols); scratch_bytes: what a
 * call needs; units: the count of units a kernel's [begin, end) ranges
 * over (panels of NR columns when M is small, else rows of C, decided at
 * run time) and *work, its size for cg_kernel_call_dyn; cg_conv_gemm: the
 * kernel's body on [begin, end), with epilogue root epi (or NULL, its
 * values from epi_gen) and the call's scratch at `scratch`. */
bool cg_conv_gemm_fits(const Op *op);
int64_t cg_conv_gemm_scratch_bytes(CG *cg, Op *op);
LLVMValueRef cg_conv_gemm_units(CG *cg, Op *op, LLVMValueRef *work);
void cg_conv_gemm(CG *cg, Op *op, Op *epi, LLVMValueRef scratch, LLVMValueRef begin,
                  LLVMValueRef end, GemmEpiGen epi_gen, void *epi_ctx);

#endif
