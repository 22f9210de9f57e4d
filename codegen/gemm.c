/*
 * gemm.c: the blocked GEMM engine that runs dot_general (dot.c) and
 * convolution (conv.c) kernels: C[b] (+)= A[b] * B[b] (M x K times K x N),
 * blocked the Goto/BLIS way. A caller plans the shapes and strides of A,
 * B and C (GemmPlan), then drives the blocks; the engine gives the tile
 * plan, the scratch, the microkernel, the packing and the epilogue:
 *
 *      for each batch b, block of MC rows ic:            (the caller)
 *        for pc in K step KC:                            (gemm_slice)
 *          pack A[ic:ic+MC, pc:pc+KC] into Ap (only if A is K-strided)
 *          for jr in N step NR:
 *            pack B[pc:pc+KC, jr:jr+NR] into Bp (k-major rows of NR;
 *              a constant B the layout pass packed is read in place; a
 *              full panel is packed by the first row tile's microkernel,
 *              which reads B in place and stores its rows to Bp)
 *            for each MR rows of the block:
 *              micro: C[MR x NR] (+)= A[MR x KC] * Bp, in registers
 *        epilogue on the finished block                  (gemm_epilogue)
 *
 * Bp (KC x NR, 32 KiB for f32 on AVX-512) stays in L1 across the rows of
 * the block (in L2 with a dot's deeper slices: gemm_plan_deep). When A is
 * contiguous along K the microkernel reads its MR rows in place through
 * row pointers (no packing: measured as fast for square GEMMs and much
 * faster when N is small); else A is packed into Ap
 * (MC x KC, in L2). Scratch comes from the temp arena, planned by the
 * buffers pass (the generated code never allocates): up to 32 KiB (128
 * KiB with the deeper slices), plus up to 144 KiB for Ap when A is packed.
 * The microkernel keeps MR x NV vector accumulators (NR = NV * VL lanes),
 * starting from the tile of C after the first KC slice (micro_init),
 * does one broadcast of A and NV loads of B per k with llvm.fmuladd (a
 * fused multiply-add where the target has one, a multiply and an add
 * elsewhere: never a call to libm's fma, which bare-metal targets lack), and
 * stores edge tiles with row checks and masked vector stores; packing
 * pads partial panels with zeros so the k loop never has edges.
 */
#include <stdlib.h>
#include <string.h>

#include "gemm.h"

/* ------------------------------------------------------------------------ */
/* The plan                                                                  */

/* The microkernel tiles, one per ISA: the first row whose architecture
 * and vector width the target has. A tile keeps MR x NV vector
 * accumulators, NV vectors of B and a broadcast of A in registers:
 *   avx512   6 x 4 of 64 bytes: 24 + 4 + 1 of 32 zmm (6 x 64 f32)
 *   avx2     4 x 3 of 32 bytes: 12 + 3 + 1 of 16 ymm (4 x 24 f32). BLIS's
 *            Haswell/Zen shape, 6 x 2, was slower here: 1024^3 sgemm on a
 *            Zen 3 core, 10 alternating rounds, best of each 30.0 against
 *            26.7 GFLOP/s on average, 4 x 3 ahead in 9; dot_1024 on the
 *            2-core Zen 3 VM, bench/ab.py, 1 thread: 6 x 2 1.01x and
 *            1.09x the time of 4 x 3 (2 rounds of 30 calls, load 4.3);
 *            BERT's products with weights as arguments (PACK_AHEAD's
 *            six layers, 1 thread) 1.028 and 1.047 (load 2.3).
 *            Convolutions take 6 x 2 (the comment above gemm_tiles)
 *   neon     6 x 3 of 16 bytes: 18 + 3 + 6 of 32 v registers (6 x 12 f32;
 *            fmla by element takes A from a lane). The generic 6 x 2 leaves
 *            half the register file idle; 8 x 3 (BLIS's armv8a shape) and
 *            8 x 2 spill in LLVM's schedule of the unrolled k loop, which
 *            loads A for several k at once (read from the disassembly)
 *   generic  6 x 2 of the target's vectors (16 bytes: SSE, RISC-V, or none,
 *            where LLVM splits vectors into scalars)
 * MR is at most 8: the row pointers fit the 64 bytes
 * ir_kernel_scratch_bytes reserves for them.
 * serial_packed: the skinny path reads a constant B from the layout
 * pass's panels with one thread too (CompileOptions.gemm_skinny_serial_packed;
 * with more it always does). On AVX-512 (Zen 4) the in-place path was
 * faster with one thread (gemm.c's packed skinny path); on AVX2 (Zen 3)
 * the packed one: BERT at 7 tokens as constants, one thread, bench/ab.py
 * paired medians of 3 x 20 calls (load 5-7), 0.79-0.83 of the in-place
 * path's time (with its rows in two groups, skinny_strip).
 * skinny_unroll: the in-place skinny k loop's steps a turn. On AVX2 (Zen
 * 3) one: 4 was 1.10-1.16x slower than a plain C model of the same loop
 * (clang -O3, one k a turn) over the same buffers (12 layers of BERT's
 * six products, weights as arguments, one thread, 30 alternating calls,
 * medians), 1.01-1.02x with one; BERT at 7 tokens (weights as arguments,
 * bench/ab.py --fifo, 3 x 30 calls, load 6.6) 0.95 of the unrolled
 * loop's time with one thread, 0.89-0.94 with two; with the fold, two
 * steps a turn 1.07x slower than one (one thread, --fifo --offset=16, 2
 * x 20 calls, load 6.5); again once the folded strips started from C
 * (skinny_acc_from_c, no spill left to save): 1.01-1.02x slower with
 * --fifo, 1.05x without (2 x 20 calls, load 1.3-2). Not measured on the
 * others, so kept at 4 there (the packed skinny path keeps 4: one turn,
 * 0.97-1.00 with BERT's weights as constants, noise).
 * skinny_fold: see skinny_strip (x86 only: inline asm).
 * kc_tall: see gemm_plan_deep. Zen 4 and 5 (LLVM's CPU names znver*)
 * keep DEEP_MC's blocks at KC 512; every other AVX-512 CPU slices tall
 * dots 1024 deep. Measured only on a Sapphire Rapids core: the other Intel
 * AVX-512 CPUs and x86-64-v4 take it unmeasured, and Zen 4/5 keep what
 * was measured there before kc_tall existed.
 * AVX-512 has three rows, the same tile but for cpf and kc_tall (change
 * them together): Sapphire Rapids and its successors (cpf, below the
 * convolution's comment), Zen 4/5 (kc_tall) and the rest. A row with
 * cpus or feature set is for targets whose CPU name starts with one of
 * cpus or whose features name feature (tile_cpu). */
typedef struct GemmTile {
  const char *isa;  /* in the microkernel's name */
  const char *arch; /* triple prefixes, "|"-separated; NULL: any */
  const char *cpus; /* CPU-name prefixes, "|"-separated; NULL: any (with feature NULL) */
  const char *feature; /* or a target feature, as "+amx-tile"; NULL: none */
  int vbytes;       /* the vector width it is for; 0: any */
  int mr, nv;       /* dot_general's blocked path */
  int cmr, cnv;     /* a convolution's kernels (conv.c, winograd.c) */
  bool cpf;         /* GemmPlan.cpf (see below) */
  bool cpf_first;   /* GemmPlan.cpf_first: only the first tile of a panel fetches (below) */
  bool serial_packed; /* see above */
  int cb_panel;     /* GemmPlan.cb_panel: half the core's L2 (conv.c) */
  int skinny_unroll; /* k steps a turn of the in-place skinny loop (skinny_strip) */
  bool skinny_fold;  /* x86 multiply-adds that read B from memory (skinny_strip) */
  int kc_tall;       /* CompileOptions.gemm_kc_tall (gemm_plan_deep; 0: none) */
} GemmTile;

/* The convolution's tile differs only on AVX2, 6 x 2 (12 + 2
 * + 1 of 16 ymm, 6 x 16 f32). Its indirect microkernel reads B from L2
 * (a panel of all taps: 9 x 256 x 24 floats at 3 x 3 and 256 features),
 * and 6 x 2 reads 64 bytes of B a k for 12 multiply-adds (a row of the
 * panel one line) where 4 x 3 read 96 (a line and a half). ResNet-50 on
 * the 2-core Zen 3 VM, bench/ab.py against 4 x 3, 2 rounds, load 4.2-7
 * with other builds beside it: b1 (20 calls) 0.775x and 0.797x at 1
 * thread, 0.822x and 0.843x at 2; b8 (8 calls) 0.882x and 0.832x at 1,
 * 0.865x and 0.880x at 2. Same bits: each element's sum runs in the
 * same order whatever the tile (conv_micro_fn).
 * Nor does its microkernel fetch the next panel into L2 (cpf): a row of
 * 16 floats is one line, so each tile of a panel fetched all of the next
 * one, a prefetch per 12 multiply-adds (AVX-512: per 24 of 16 lanes, a
 * line of 4 a tile). ResNet-50, bench/ab.py --fifo, 2 rounds, without
 * against with: b1 (30 calls, load 4-5) 0.938x and 0.953x at 1 thread,
 * 0.973x and 0.960x at 2; b8 (10 calls, load 5-7.5) 0.984x and 0.962x at
 * 1 thread, 1.005x and 1.062x at 2 (medians of all calls 435 against
 * 459 ms).
 * Only the first tile of a panel fetches it (cpf_first: the `_pf`
 * variant, a line a k, so the first tile's K k's of each tap fetch the
 * next panel's rows of that tap once), and the other tiles, which would
 * fetch the same lines again, run the microkernel without. Against no
 * fetch, ResNet-50 b1 at one thread, the thread's CPU time of alternating
 * calls of both objects in one process (the 2-core Zen 3 VM, load 6-9
 * with other builds beside it; main against itself the same way: 1.012,
 * 0.988): paired medians of 30 calls 0.986, 0.969, 0.962, 0.963, 0.978;
 * b8 (12 calls) 0.989, 0.988. */
/* On the Sapphire Rapids core (2 MiB L2) the AVX-512 convolution
 * microkernel runs without the fetch of the next panel (cpf), as on AVX2:
 * the fetches (a line a k in the first four tiles of a panel) cost more
 * than they save, likely as the core's own L2 prefetchers follow the
 * panels (timings only, no counters on the VM). The row is for the CPU
 * names sapphirerapids, emeraldrapids and graniterapids (the latter two,
 * with the same 2 MiB L2, unmeasured) and for any target with AMX tiles:
 * LLVM's host detection names the VM's core "rocketlake" (the CPU model
 * it reports), but its features have +amx-tile, which a real Rocket Lake
 * (512 KiB L2) lacks; so --cpu=rocketlake keeps the fetch. ResNet-50,
 * bench/ab.py against the fetch (main), with main against itself as the
 * control, other helpers' load 2.8-6 on the 2-core VM, 28 Nov: b1 at 1
 * thread, the thread's CPU time, 4 x 20 calls: 0.958 (faster in 61 of
 * 80; control 0.995), wall time 0.964 (53 of 80; control 0.994); b8 at 1
 * thread, CPU time, 3 x 10 calls: 0.971 (19 of 30; control 0.992); b1 at
 * 2 threads, wall time, 3 x 20 calls: 0.974 (34 of 60; control 1.020).
 * Measured there and not kept: only the first tile of a panel fetching
 * (cpf_first) one line of each row 0.972 (b1, 1 thread, CPU time), two
 * lines 0.950, all four 0.946 (b8 0.977, b1 at 2 threads 0.974): no
 * better than no fetch within the noise; cb_panel 1 MiB (half this L2)
 * 1.105, 256 KiB 1.005; the 8 x 3 tile 1.04, 7 x 4 1.07 (b1, 1 thread,
 * wall time, control 1.022). Same bits: the fetch changes no sum.
 * Other AVX-512 CPUs keep the fetch (not measured against it here). */
static const GemmTile gemm_tiles[] = {
    {"avx512", "x86_64|i386|i486|i586|i686", "sapphirerapids|emeraldrapids|graniterapids",
     "+amx-tile", 64, 6, 4, 6, 4, false, false, false, 512 * 1024, 4, false, 1024},
    {"avx512", "x86_64|i386|i486|i586|i686", "znver", NULL, 64, 6, 4, 6, 4, true, false, false,
     512 * 1024, 4, false, 0},
    {"avx512", "x86_64|i386|i486|i586|i686", NULL, NULL, 64, 6, 4, 6, 4, true, false, false,
     512 * 1024, 4, false, 1024},
    {"avx2", "x86_64|i386|i486|i586|i686", NULL, NULL, 32, 4, 3, 6, 2, false, true, true,
     256 * 1024, 1, true, 1024},
    {"neon", "aarch64|arm64", NULL, NULL, 16, 6, 3, 6, 3, true, false, false, 512 * 1024, 4, false, 0},
    {"generic", NULL, NULL, NULL, 0, 6, 2, 6, 2, true, false, false, 512 * 1024, 4, false, 0},
};

/* Whether name (a triple or a CPU name) starts with one of prefixes,
 * "|"-separated. */
static bool listed(const char *name, const char *prefixes) {
  for (const char *a = prefixes; *a;) {
    size_t n = strcspn(a, "|");
    if (!strncmp(name, a, n)) return true;
    a += n + (a[n] == '|');
  }
  return false;
}

/* Whether row t is for the CPU named cpu with target features features. */
static bool tile_cpu(const GemmTile *t, const char *cpu, const char *features) {
  if (!t->cpus && !t->feature) return true;
  return (t->cpus && listed(cpu, t->cpus)) || (t->feature && strstr(features, t->feature));
}

/* The tile for target machine tm and the vector width the kernels use:
 * the first row whose architecture, CPU and vector width tm has.
 * NEON is part of every aarch64 Linux target; only an explicit -neon
 * turns it off. */
static const GemmTile *gemm_tile(LLVMTargetMachineRef tm, int vbytes) {
  char *triple = LLVMGetTargetMachineTriple(tm);
  char *cpu = LLVMGetTargetMachineCPU(tm);
  char *features = LLVMGetTargetMachineFeatureString(tm);
  const GemmTile *t = gemm_tiles;
  for (; t->arch; t++)
    if (listed(triple, t->arch) && tile_cpu(t, cpu, features) && t->vbytes == vbytes &&
        !(!strcmp(t->isa, "neon") && strstr(features, "-neon")))
      break;
  LLVMDisposeMessage(triple);
  LLVMDisposeMessage(cpu);
  LLVMDisposeMessage(features);
  return t;
}

bool codegen_gemm_tile_options(CompileOptions *o) {
  LLVMTargetMachineRef tm = cg_target_machine(o);
  if (!tm) return false;
  int vbytes = cg_tm_vector_bytes(tm, o);
  const GemmTile *t = gemm_tile(tm, vbytes);
  o->gemm_panel_bytes = t->nv * vbytes;
  o->conv_panel_bytes = t->cnv * vbytes;
  o->gemm_kc_tall = t->kc_tall;
  o->gemm_skinny_serial_packed = t->serial_packed;
  LLVMDisposeTargetMachine(tm);
  return true;
}

bool codegen_gemm_b_packing(const Op *op, const CompileOptions *o, GemmPacking *out) {
  if (op->code == OP_DOT_GENERAL)
    return cg_dot_b_packing(op, o->gemm_panel_bytes, o->threads,
                            o->threads > 1 || o->gemm_skinny_serial_packed, out);
  if (op->code == OP_CONVOLUTION)
    return cg_conv_b_packing(op, o->conv_panel_bytes, !o->no_winograd, out);
  return false;
}

/* The rows (*mr) and vectors of columns (*nv) of row t's tile for op:
 * a convolution's kernels take the convolution's (gemm_plan, gemm_mr and
 * gemm_nr agree by going through here). */
static void tile_shape(const GemmTile *t, const Op *op, int *mr, int *nv) {
  bool conv = ir_gemm_conv_tile(op);
  *mr = conv ? t->cmr : t->mr;
  *nv = conv ? t->cnv : t->nv;
}

int gemm_mr(CG *cg, const Op *op) {
  int mr, nv;
  tile_shape(gemm_tile(cg->tm, cg_vector_bytes(cg)), op, &mr, &nv);
  return mr;
}

int gemm_nr(CG *cg, const Op *op) {
  int vbytes = cg_vector_bytes(cg), mr, nv;
  tile_shape(gemm_tile(cg->tm, vbytes), op, &mr, &nv);
  return nv * vbytes / elem_bytes(op->results[0]->type->elem);
}

bool gemm_enough_panels(int64_t N, int nr, int threads) {
  int64_t min = GEMM_COL_SPLIT_PANELS_PER_THREAD * (threads > 2 ? threads : 2);
  return (N + nr - 1) / nr >= min;
}

int64_t gemm_row_grain(bool packed, int64_t rows) {
  int64_t min = packed ? GEMM_MIN_CALL_ROWS_PACKED : GEMM_MIN_CALL_ROWS;
  return (min + rows - 1) / rows;
}

int64_t gemm_kc(int64_t K) { return K == GEMM_DYN || K >= 128 ? 128 : K > 0 ? K : 1; }

void gemm_packing(const GemmPlan *p, int nbd, const int64_t *bdim, const int64_t *bstride,
                  int panel_bytes, GemmPacking *out) {
  memset(out, 0, sizeof *out);
  out->nbd = nbd;
  for (int i = 0; i < nbd; i++) {
    out->bdim[i] = bdim[i];
    out->bstride[i] = bstride[i];
  }
  out->K = p->K;
  out->N = p->N;
  out->sk = p->sbk;
  out->sn = p->sbn;
  out->kc = gemm_kc(p->K);
  out->nr = panel_bytes / elem_bytes(p->e);
}

/* v.x = x for each field x of p that has no run-time value. */
static void value_of(CG *cg, LLVMValueRef *v, int64_t x) {
  if (!*v) *v = cg_i64(cg, x);
}

static void plan_values(CG *cg, GemmPlan *p) {
  GemmVals *v = &p->v;
  value_of(cg, &v->nbatch, p->nbatch);
  value_of(cg, &v->M, p->M);
  value_of(cg, &v->N, p->N);
  value_of(cg, &v->K, p->K);
  value_of(cg, &v->sam, p->sam);
  value_of(cg, &v->sak, p->sak);
  value_of(cg, &v->sbk, p->sbk);
  value_of(cg, &v->sbn, p->sbn);
  for (int i = 0; i < p->nbd; i++) {
    value_of(cg, &v->bdim[i], p->bdim[i]);
    value_of(cg, &v->bsa[i], p->bsa[i]);
    value_of(cg, &v->bsb[i], p->bsb[i]);
  }
}

/* Tile and block sizes. KC x NR of Bp stays in L1 and a block of MC rows
 * of A in L2; a larger MC packs B fewer times (measured on a Sapphire
 * Rapids core: MC 288, KC 128 reach the speed of OpenBLAS sgemm at
 * 1024^3). On the 2-core Zen 4 (median CPU time of 40 alternating calls)
 * neither KC 192 or 256 (dot_1024, BERT at 128 tokens) nor, with A read
 * in place, MC 576 or 1152 (dot_1024) was faster. (A dot that packs B per
 * call now slices deeper, gemm_plan_deep.) */
void gemm_plan(Gemm *g) {
  CG *cg = g->cg;
  GemmPlan *p = &g->p;
  int vbytes = cg_vector_bytes(cg);
  const GemmTile *tile = gemm_tile(cg->tm, vbytes);
  p->isa = tile->isa;
  p->vl = vbytes / elem_bytes(p->e);
  tile_shape(tile, g->op, &p->mr, &p->nv);
  p->nr = p->nv * p->vl;
  p->cb_panel = tile->cb_panel;
  p->cpf = tile->cpf;
  p->cpf_first = tile->cpf_first;
  p->kc = gemm_kc(p->K);
  p->direct_a = p->sak == 1;
  /* Ap, when used, at most 144 KiB and 288 rows: 288 rows of f32, 144 of
   * f64 (ir_kernel_scratch_bytes' bound). */
  p->mc = 147456 / (p->kc * elem_bytes(p->e)) / p->mr * p->mr;
  if (p->mc > 288) p->mc = 288 / p->mr * p->mr;
  if (p->mc < p->mr) p->mc = p->mr;
  g->t = cg_scalar_type(cg, p->e);
  g->vt = LLVMVectorType(g->t, (unsigned)p->vl);
  plan_values(cg, p);
}

/* Deeper K slices for a blocked dot whose B the kernel packs (an
 * argument: g->packed unset) and whose A it reads in place: KC =
 * min(K, IR_DOT_KC_DEEP), Bp KC x NR in L2 rather than L1 (128 KiB for
 * f32 on AVX-512). Each C tile is loaded and stored K / KC times; with KC
 * 128 that took about a tenth of the microkernel's time (perf annotate,
 * dot_1024; now its k loop takes 97% and B's packing 6% of the call). On the
 * 2-core Zen 4, dot_1024 at 1 thread, minimum of 50 interleaved calls
 * (CPU time, load 1.6-3.4): KC 128 104.6 GFLOP/s, 256 106.6, 384 108.7,
 * 512 109.2 (oneDNN 110.7); in another run 384 109.4, 512 109.0, 768
 * 109.4, 1024 110.5 (oneDNN 109.7), medians 104.9, 105.8, 106.1, 107.6
 * (108.2). BERT at 128 tokens with weights as arguments, 1 thread: 224.2
 * ms (KC 128), 222.4 (512), 221.1 (1024); but 2 threads, CPU-time minima
 * of 16-30 alternating calls in 5 runs: 1024 and 768 took 1-2% more than
 * KC 128 in 4, 512 within +-0.7% in all, hence 512 (dot_1024 with the
 * blocks below: 108.7 GFLOP/s at 512, 110.5 at 1024, oneDNN 110.2).
 * A constant B that the layout pass packs for such a dot is packed in
 * the same deeper slices (gemm_kc_packed; the panels are read in place,
 * no Bp): BERT at 128 tokens with constant weights, 2 threads, main's
 * build and this one in one process, interleaved calls, SCHED_FIFO, load
 * 5 from other processes: medians 136.3-155.7 -> 116.2-136.0 ms (minima
 * 116.2-142.0 -> 110.8-125.3), 1 thread 239.6-253.8 -> 221.2-225.1; four
 * layers of 128 x 768 @ 768 x 768, @ 768 x 3072, @ 3072 x 768 (shloc
 * bench, 3 interleaved rounds) minima 26.2-26.4 -> 25.3-25.7 ms (2
 * threads), 51.6-54.1 -> 49.8-50.9 (1 thread). Bits unchanged: a C tile
 * carries each element's one chain of multiply-adds from slice to slice.
 * With A streamed along whole slices, MC only sets how many times B is
 * packed (once per block of rows): the fewest blocks of at most about
 * DEEP_MC rows, of equal size (M = 1024: 516 + 508). dot_1024, 2 runs of
 * 50 interleaved calls at load 5: min 109.9 / 109.5 GFLOP/s against 107.3
 * / 107.7 with MC 288 (blocks 288 x 3 + 160), 109.1 / 109.0 with all rows
 * in one block; 510 (510 + 510 + 4) was no faster than 288. On the 2-core
 * Zen 3 (AVX2, Bp 384 x 24 floats, in L2) other depths were no faster
 * (the six layers of PACK_AHEAD's comment, 1 thread, paired medians
 * against 512, 2-3 rounds of 30 calls, load 1.2-3.4): 128 1.006 / 1.017,
 * 160 1.016 / 1.020, 192 0.972-1.021, 256 1.016-1.022, 768 (all of K
 * for 768, IR_DOT_KC_DEEP 768) 1.014-1.034.
 * A tall dot (IR_DOT_TALL_ROWS rows a batch or more, K deeper than
 * IR_DOT_KC_DEEP) on AVX2 and on AVX-512 but Zen 4/5 (the tile's
 * kc_tall) slices K up to 1024 deep, all its rows in one block: on the
 * Zen 3 its A block overflows the 512 KiB L2 at KC 512 (a shallower K
 * keeps DEEP_MC's blocks: unmeasured), and on Sapphire Rapids (2 MiB L2)
 * each further block of rows costs one more packing of B (about 4% of
 * dot_1024's call each, gx's blocks below); so each slice
 * only adds a pass over C (2 MiB a block at 1024 columns, from L3) and
 * each block a packing of B. dot_1024 on the 2-core Zen 3, bench/ab.py
 * --fifo, 3 rounds of 20 calls, paired medians against main (main
 * against itself beside it, load 4-6): KC 1024 with all 1024 rows in one
 * block 0.951 (0.979) at 1 thread, 0.941 (1.023) at 2 (again at load 5,
 * without --fifo: 0.951, faster in 57 of 60 calls, and 0.964, 51 of 60;
 * shloc bench then 94.4-95.0 GFLOP/s best against oneDNN's 87.8-89.0 and
 * OpenBLAS's 88.8-92.6 in the same minutes, main 88.0-88.4); KC 1024 with
 * DEEP_MC's blocks 0.943 (0.979) at 1, 0.983 (1.001) at 2; with blocks of
 * 256 or 128 rows 1.004 and 1.044 (1 thread). Not for BERT's 128 rows:
 * its three products (128 x 768 @ 768 x 3072, @ 3072 x 768, @ 768 x 768,
 * weights as arguments) took 1.040x the time with KC 1024 (1 thread, 3 x
 * 20 calls; main against itself 1.001), as 768 above. On a Sapphire
 * Rapids core (AVX-512, 2 MiB L2, the 2-core VM), dot_1024, the thread's CPU time of alternating calls in
 * one process (bench/ab.py's driver timing CLOCK_THREAD_CPUTIME_ID, 3
 * rounds of 20 calls, load 2-7 from other builds), paired medians
 * against main beside main against itself: KC 1024 with all rows in one
 * block 0.940 (1.001), 0.934 (0.999), 0.929 (1.007), faster in 52, 46
 * and 57 of 60 calls; KC 512 with all rows in one block 0.984 (0.999);
 * the 8 x 3 tile (NV 3: 8 broadcasts and 3 loads of B a k, 24
 * accumulators) 1.064 at KC 512 in blocks, 0.992 at KC 1024 (1.001).
 * 2 threads, wall time, 3 x 20 calls: KC 1024 0.946 (0.986). BERT's and
 * ResNet-50's objects are unchanged (no tall dot). Other changes to
 * the blocked path measured no faster on dot_1024 (1 thread, 3 x 20
 * calls, against main beside main, whose ratio swung 0.974-1.003):
 * KC 256 with blocks of 256 or 512 rows (Bp in L1) 1.007 / 1.040, KC
 * 128 1.064, A packed (KC 128) 1.045, the k loop unrolled 8 or 2 times
 * 0.984 / 0.988 (main 0.987), Bp fetched into L1 8 or 16 rows ahead
 * 1.006-1.035, the next row tile's A rows (4 or 8 lines) 0.984 / 0.970
 * (main 0.974), no C prefetch 1.011. */
enum { DEEP_MC = 512 };

int64_t gemm_kc_packed(const GemmPlan *p) {
  if (p->sak != 1 || p->K == GEMM_DYN) return gemm_kc(p->K);
  return p->K < IR_DOT_KC_DEEP ? p->K : IR_DOT_KC_DEEP;
}

void gemm_plan_deep(Gemm *g, const Value *b) {
  GemmPlan *p = &g->p;
  /* a tall dot (kc_tall): the op's rows per batch bound p->M (dot.c's
   * plan_shapes collapses them), so ir_dot_kc_deep made room for it (the
   * buffers pass got the tile's kc_tall, codegen_gemm_tile_options) */
  const GemmTile *tile = gemm_tile(g->cg->tm, cg_vector_bytes(g->cg));
  bool tall_dot = p->M != GEMM_DYN && p->M >= IR_DOT_TALL_ROWS && p->K > IR_DOT_KC_DEEP;
  int kc_tall = tall_dot ? tile->kc_tall : 0;
  int64_t deep = b->packed ? b->packed->kc : ir_dot_kc_deep(g->op, kc_tall);
  if (!p->direct_a || p->K == GEMM_DYN || p->K <= p->kc || deep <= p->kc) return;
  /* A B the kernel packs: the fewest slices of at most `deep` rows, of
   * equal depth (K = 768: 384 + 384, not 512 + 256), so that the panel
   * after a slice's last (next_panel) has the rows the slice prefetches of
   * it (to within a row when the slices do not divide K) (BERT at 128 tokens, weights as arguments, 2 threads, paired
   * medians of interleaved calls: 0.994 of the time; 1 thread unchanged;
   * the same bits: slices never reorder a sum). A constant B keeps the
   * layout pass's full slices (b_panel's offsets). */
  int64_t slices = b->packed ? 1 : (p->K + deep - 1) / deep;
  p->kc = p->K < deep ? p->K : b->packed ? deep : (p->K + slices - 1) / slices;
  bool tall = !b->packed && kc_tall > 0;
  int64_t blocks = p->M == GEMM_DYN || tall ? 1 : (p->M + DEEP_MC - 1) / DEEP_MC;
  int64_t rows = p->M == GEMM_DYN ? DEEP_MC : (p->M + blocks - 1) / blocks;
  p->mc = (rows + p->mr - 1) / p->mr * p->mr;
}

/* A packed matrix's rows: N rounded up to NR. */
static int64_t packed_npad(const Gemm *g) { return (g->p.N + g->p.nr - 1) / g->p.nr * g->p.nr; }

/* ------------------------------------------------------------------------ */
/* Vector loads and stores                                                   */

void gemm_prefetch(Gemm *g, LLVMValueRef base, LLVMValueRef idx, int write, int locality) {
  CG *cg = g->cg;
  LLVMTypeRef pt = cg->t_ptr;
  LLVMValueRef a[4] = {LLVMBuildGEP2(g->b, g->t, base, &idx, 1, ""), /* not inbounds */
                       LLVMConstInt(cg->t_i32, (unsigned)write, 0),
                       LLVMConstInt(cg->t_i32, (unsigned)locality, 0),
                       LLVMConstInt(cg->t_i32, 1, 0)};
  cg_intrinsic(g->b, "llvm.prefetch", &pt, 1, a, 4);
}

static LLVMValueRef vload(Gemm *g, LLVMValueRef p, unsigned align) {
  LLVMValueRef v = LLVMBuildLoad2(g->b, g->vt, p, "");
  LLVMSetAlignment(v, align);
  return v;
}

static void vstore(Gemm *g, LLVMValueRef v, LLVMValueRef p, unsigned align) {
  LLVMValueRef s = LLVMBuildStore(g->b, v, p);
  LLVMSetAlignment(s, align);
}

/* ------------------------------------------------------------------------ */
/* The microkernel                                                           */

#define MAX_MR 16

typedef struct Micro {
  LLVMValueRef ap, bp, c, ldc, kc, rows, cols, first;
  bool ind; /* A rows through pointers (else packed Ap) */
  int apr;  /* !ind: the rows of an Ap panel (its k stride; MR of the full tile) */
  LLVMValueRef ak0;          /* !ind: the k of Ap's first rows (NULL: 0; skinny_pack_a) */
  LLVMValueRef arow[MAX_MR]; /* ind: A(r, 0) of each row */
  LLVMValueRef astride;      /* ind: A(r, k) = arow[r][k * astride] (NULL: 1; skinny_far) */
  LLVMValueRef ldb;          /* B(k, j) = bp[k*ldb + j]: NR packed, else B's row stride */
  LLVMValueRef bmask[8];     /* lanes of B to load (an edge panel read in place), or NULL */
  LLVMValueRef pf;           /* B read in place: pf[k*ldb] into L2 with B(k, j), or NULL */
  int pf_lines;              /* lines of 64 bytes fetched from pf[k*ldb] per k (0: one) */
  bool pf_tail;              /* and the line of pf[k*ldb + NR - 1] (prefetch_next_panel) */
  LLVMValueRef pack;         /* B read in place: B(k, :) also stored to pack[k*NR], or NULL */
  LLVMValueRef col0;         /* edge tiles: the first column stored (NULL: 0) */
  bool c_loads_first;        /* micro_store loads all of C before storing (all rows present) */
  bool fold;                 /* multiply-adds as x86 asm, B's last vector from memory (fma_asm) */
} Micro;

static LLVMValueRef masked_load(Gemm *g, LLVMValueRef ptr, LLVMValueRef mask) {
  return cg_masked_load(g->cg, g->b, g->vt, ptr, (unsigned)elem_bytes(g->p.e), mask);
}

static void masked_store(Gemm *g, LLVMValueRef v, LLVMValueRef ptr, LLVMValueRef mask) {
  cg_masked_store(g->cg, g->b, v, ptr, (unsigned)elem_bytes(g->p.e), mask);
}

/* A(r, k): Ap[k*MR + r] packed, or arow[r][k] through row pointers. */
static LLVMValueRef micro_a(Gemm *g, Micro *m, LLVMValueRef k, int r) {
  CG *cg = g->cg;
  LLVMValueRef ka = m->astride ? LLVMBuildMul(g->b, k, m->astride, "") : k;
  if (!m->ind && m->ak0) k = LLVMBuildSub(g->b, k, m->ak0, "");
  LLVMValueRef ptr =
      m->ind ? cg_gep(cg, g->t, m->arow[r], ka)
             : cg_gep(cg, g->t, m->ap,
                      LLVMBuildAdd(g->b, LLVMBuildMul(g->b, k, cg_i64(cg, m->apr), ""),
                                   cg_i64(cg, r), ""));
  return LLVMBuildLoad2(g->b, g->t, ptr, "a");
}

/* The `_pack` microkernel also fetches into L2 the row of B PACK_AHEAD
 * below the one it reads: the next panel's prefetch (pf) comes a whole
 * panel of row tiles ahead, and a B with rows 12 KiB apart (BERT's 768 x
 * 3072) maps 16 rows of a 64-column panel to the same sets of the 8-way
 * L2, so its first rows were gone again. BERT at 128 tokens, weights as
 * arguments, SCHED_FIFO, paired medians of interleaved calls against the
 * same build without, load 3-5 on the 2-core Zen 4: 16 rows ahead 0.985
 * (1 thread) and 0.984 (2 threads), 32 0.980 and 0.975, 48 0.989 and
 * 0.949, 64 1.03 and 0.98 (5 and 8 rounds); 32, 12 and 20 rounds of
 * calls fed numpy's arrays as bench/compare.py does: 0.973 (faster in 9)
 * and 0.986 (faster in 16); bits identical. On the 2-core Zen 3 (AVX2,
 * 4 x 24: a row of a panel 96 bytes) none of the variants measured apart
 * from the noise: six layers of BERT's 128 x 768 @ 768 x 768, @ 768 x
 * 3072, @ 3072 x 768 with weights as arguments, 1 thread, bench/ab.py
 * --fifo against main, 2 rounds of 30 calls, load 1.2-3.4 (main against
 * itself 0.999-1.011): 16 rows ahead 0.973 / 0.989, 64 1.024 / 1.002,
 * 128 1.012 / 0.999, prefetcht0 0.997 / 0.998, none (the next panel's
 * fetch alone, prefetch_panel_part) 1.001 / 0.988; neither fetch 1.070 /
 * 1.072. Again on the Zen 3 (BERT at 128 tokens, weights as arguments, 1
 * thread, bench/ab.py, 3-4 rounds of 6-8 calls, load 2.5-7, main against
 * itself 0.990-1.075): without the `_pack` tile's fetch of the next panel
 * (pf; prefetch_panel_part's alone) 0.980, 0.973, 1.005, 0.978 (--fifo);
 * 96 rows ahead 1.005; the `_pack` loop 2 k's a turn 0.994, 1.004. None
 * stands out of the noise: kept as it is. */
enum { PACK_AHEAD = 32 };

/* The row of a panel at element boff of base into L2: `lines` lines of
 * 64 bytes, and with `tail` the line of its last (NR-th) element, a
 * line more for a row off a line. */
static void prefetch_row(Gemm *g, LLVMValueRef base, LLVMValueRef boff, int lines, bool tail) {
  CG *cg = g->cg;
  const GemmPlan *p = &g->p;
  for (int l = 0; l < lines; l++) {
    LLVMValueRef off = LLVMBuildAdd(g->b, boff, cg_i64(cg, l * 64 / elem_bytes(p->e)), "");
    gemm_prefetch(g, base, off, 0, 2);
  }
  if (tail) gemm_prefetch(g, base, LLVMBuildAdd(g->b, boff, cg_i64(cg, p->nr - 1), ""), 0, 2);
}

/* Lines of 64 bytes in a row of a tile's NR columns (Micro.pf_lines). */
static int nr_lines(const GemmPlan *p) { return (int)((p->nr * elem_bytes(p->e) + 63) / 64); }

/* Row boff of base (elements; pf_lines lines of 64 bytes, and with
 * pf_tail the line of its last element) into L2. */
static void micro_prefetch_row(Gemm *g, Micro *m, LLVMValueRef base, LLVMValueRef boff) {
  prefetch_row(g, base, boff, m->pf_lines > 0 ? m->pf_lines : 1, m->pf_tail);
}

/* acc + s * b in one x86 vfmadd231 (inline asm), b a vector or, with
 * mem, a pointer to the vector in memory (Micro.fold). The same fused
 * multiply-add as llvm.fmuladd, so the same bits. Each has side effects
 * so that the multiply-adds stay in the order emitted: as llvm.fmuladd
 * with B's vector loaded once per row (volatile, so that LLVM neither
 * merges the loads nor keeps the vector in a register), LLVM's scheduler
 * put the multiply-adds that read memory first and spilled the
 * broadcasts of A to the stack (read from the disassembly). */
static LLVMValueRef fma_asm(Gemm *g, LLVMValueRef s, LLVMValueRef b, LLVMValueRef acc, bool mem) {
  CG *cg = g->cg;
  LLVMTypeRef pt[3] = {g->vt, mem ? cg->t_ptr : g->vt, g->vt};
  LLVMTypeRef fty = LLVMFunctionType(g->vt, pt, 3, 0);
  const char *text = g->p.e == ET_F64 ? "vfmadd231pd $2, $1, $0" : "vfmadd231ps $2, $1, $0";
  const char *cons = mem ? "=x,x,*m,0" : "=x,x,x,0";
  LLVMValueRef f = LLVMGetInlineAsm(fty, text, strlen(text), cons, strlen(cons), 1, 0,
                                    LLVMInlineAsmDialectATT, 0);
  LLVMValueRef args[3] = {s, b, acc};
  LLVMValueRef call = LLVMBuildCall2(g->b, fty, f, args, 3, "");
  if (mem) /* the vector an indirect memory operand points to */
    LLVMAddCallSiteAttribute(
        call, 2,
        LLVMCreateTypeAttribute(cg->ctx, LLVMGetEnumAttributeKindForName("elementtype", 11),
                                g->vt));
  return call;
}

/* acc[r][v] += A(r, k) * Bp[k][v*VL ...] for one k. */
static void micro_step(Gemm *g, Micro *m, LLVMValueRef k, LLVMValueRef *acc) {
  CG *cg = g->cg;
  const GemmPlan *p = &g->p;
  unsigned valign = (unsigned)elem_bytes(p->e);
  LLVMValueRef bv[8];
  LLVMValueRef boff = LLVMBuildMul(g->b, k, m->ldb, "");
  if (m->pf) micro_prefetch_row(g, m, m->pf, boff);
  if (m->pack) /* B's own row PACK_AHEAD on (B in place, `_pack`) */
    micro_prefetch_row(
        g, m, m->bp,
        LLVMBuildMul(g->b, LLVMBuildAdd(g->b, k, cg_i64(cg, PACK_AHEAD), ""), m->ldb, ""));
  for (int v = 0; v < p->nv; v++) {
    LLVMValueRef idx = LLVMBuildAdd(g->b, boff, cg_i64(cg, v * p->vl), "");
    /* not inbounds when masked: a masked-off vector may start past B's end */
    LLVMValueRef ptr = m->bmask[v] ? LLVMBuildGEP2(g->b, g->t, m->bp, &idx, 1, "")
                                   : cg_gep(cg, g->t, m->bp, idx);
    bv[v] = m->fold && v == p->nv - 1 ? ptr
            : m->bmask[v]             ? masked_load(g, ptr, m->bmask[v])
                                      : vload(g, ptr, valign);
  }
  LLVMValueRef zero_mask = LLVMConstNull(LLVMVectorType(cg->t_i32, (unsigned)p->vl));
  for (int r = 0; r < p->mr; r++) {
    LLVMValueRef a = micro_a(g, m, k, r);
    LLVMValueRef s = LLVMBuildInsertElement(g->b, LLVMGetUndef(g->vt), a,
                                            LLVMConstInt(cg->t_i32, 0, 0), "");
    s = LLVMBuildShuffleVector(g->b, s, LLVMGetUndef(g->vt), zero_mask, "bc");
    for (int v = 0; v < p->nv; v++) {
      LLVMValueRef *x = &acc[r * p->nv + v], args[3] = {s, bv[v], *x};
      *x = m->fold ? fma_asm(g, s, bv[v], *x, v == p->nv - 1)
                   : cg_intrinsic(g->b, "llvm.fmuladd", &g->vt, 1, args, 3);
    }
  }
  for (int v = 0; m->pack && v < p->nv; v++) {
    LLVMValueRef at = LLVMBuildAdd(g->b, LLVMBuildMul(g->b, k, cg_i64(cg, p->nr), ""),
                                   cg_i64(cg, v * p->vl), "");
    vstore(g, bv[v], cg_gep(cg, g->t, m->pack, at), (unsigned)(p->vl * elem_bytes(p->e)));
  }
}

/* A loop over k in [lo, hi) stepping `unroll` k's per iteration, with the
 * accumulators as phis. Returns with the builder after the loop and acc
 * holding the values at exit; *k_exit is the first k not done. */
static void micro_loop(Gemm *g, Micro *m, LLVMValueRef lo, LLVMValueRef hi, int unroll,
                       LLVMValueRef *acc, LLVMValueRef *k_exit) {
  CG *cg = g->cg;
  const GemmPlan *p = &g->p;
  int na = p->mr * p->nv;
  LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(g->b));
  LLVMBasicBlockRef pre = LLVMGetInsertBlock(g->b);
  LLVMBasicBlockRef hdr = LLVMAppendBasicBlockInContext(cg->ctx, fn, "k.h");
  LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(cg->ctx, fn, "k.b");
  LLVMBasicBlockRef exit = LLVMAppendBasicBlockInContext(cg->ctx, fn, "k.x");
  LLVMBuildBr(g->b, hdr);
  LLVMPositionBuilderAtEnd(g->b, hdr);
  LLVMValueRef k = LLVMBuildPhi(g->b, cg->t_i64, "k");
  LLVMAddIncoming(k, &lo, &pre, 1);
  LLVMValueRef phis[na];
  for (int i = 0; i < na; i++) {
    phis[i] = LLVMBuildPhi(g->b, g->vt, "acc");
    LLVMAddIncoming(phis[i], &acc[i], &pre, 1);
  }
  LLVMValueRef kend = LLVMBuildAdd(g->b, k, cg_i64(cg, unroll), "");
  LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntSLE, kend, hi, ""), body, exit);
  LLVMPositionBuilderAtEnd(g->b, body);
  LLVMValueRef cur[na];
  memcpy(cur, phis, sizeof cur);
  for (int u = 0; u < unroll; u++)
    micro_step(g, m, LLVMBuildAdd(g->b, k, cg_i64(cg, u), ""), cur);
  LLVMBasicBlockRef latch = LLVMGetInsertBlock(g->b);
  LLVMAddIncoming(k, &kend, &latch, 1);
  for (int i = 0; i < na; i++) LLVMAddIncoming(phis[i], &cur[i], &latch, 1);
  LLVMBuildBr(g->b, hdr);
  LLVMPositionBuilderAtEnd(g->b, exit);
  memcpy(acc, phis, sizeof phis);
  *k_exit = k;
}

/* The lanes of vector v of a row whose column v*VL + j compares `pred`
 * with x. */
static LLVMValueRef lane_cmp(Gemm *g, LLVMIntPredicate pred, LLVMValueRef x, int v) {
  CG *cg = g->cg;
  int vl = g->p.vl;
  LLVMValueRef lanes[64];
  for (int j = 0; j < vl; j++) lanes[j] = cg_i64(cg, v * vl + j);
  LLVMTypeRef vi = LLVMVectorType(cg->t_i64, (unsigned)vl);
  LLVMValueRef s = LLVMBuildInsertElement(g->b, LLVMGetUndef(vi), x,
                                          LLVMConstInt(cg->t_i32, 0, 0), "");
  s = LLVMBuildShuffleVector(g->b, s, LLVMGetUndef(vi),
                             LLVMConstNull(LLVMVectorType(cg->t_i32, (unsigned)vl)), "");
  return LLVMBuildICmp(g->b, pred, LLVMConstVector(lanes, (unsigned)vl), s, "cmask");
}

/* Lane mask of vector v of a row: lanes v*VL + j < cols. */
static LLVMValueRef col_mask(Gemm *g, LLVMValueRef cols, int v) {
  return lane_cmp(g, LLVMIntULT, cols, v);
}

/* Starts fetching a C tile (for writing) so that its cache misses
 * overlap the k loop instead of stalling the loads or stores of C: the
 * tile `ahead` rows down from this one (the next call's, which loads it
 * at its start, micro_init), or this one (ahead 0). */
static void micro_prefetch_c(Gemm *g, Micro *m, int ahead) {
  CG *cg = g->cg;
  const GemmPlan *p = &g->p;
  int64_t row_bytes = (int64_t)p->nr * elem_bytes(p->e);
  for (int r = ahead; r < ahead + p->mr; r++) {
    LLVMValueRef row = LLVMBuildMul(g->b, cg_i64(cg, r), m->ldc, "");
    for (int64_t off = 0; off < row_bytes; off += 64) {
      LLVMValueRef idx = LLVMBuildAdd(g->b, row, cg_i64(cg, off / elem_bytes(p->e)), "");
      gemm_prefetch(g, m->c, idx, 1, 3); /* an edge tile may reach past the end of C */
    }
  }
}

/* Vector v of row r of the tile at m->c, and in *mask the lanes an edge
 * tile stores (columns [col0, cols)), else NULL. */
static LLVMValueRef micro_c_at(Gemm *g, Micro *m, int r, int v, bool edge, LLVMValueRef *mask) {
  CG *cg = g->cg;
  LLVMValueRef idx = LLVMBuildAdd(g->b, LLVMBuildMul(g->b, cg_i64(cg, r), m->ldc, ""),
                                  cg_i64(cg, v * g->p.vl), "");
  /* not inbounds: a masked-off vector may start past the end of C */
  LLVMValueRef ptr = LLVMBuildGEP2(g->b, g->t, m->c, &idx, 1, "");
  *mask = edge ? col_mask(g, m->cols, v) : NULL;
  if (edge && m->col0) *mask = LLVMBuildAnd(g->b, *mask, lane_cmp(g, LLVMIntUGE, m->col0, v), "");
  return ptr;
}

/* C[r][v] = (first ? 0 : C[r][v]) + acc, or C[r][v] = acc when m->first
 * is NULL; unmasked (full tile) or masked by rows and cols (edge tile:
 * columns [col0, cols) when m->col0 is set). With m->c_loads_first (all
 * rows present) every old value is loaded before the first store. */
static void micro_store(Gemm *g, Micro *m, LLVMValueRef *acc, bool edge) {
  CG *cg = g->cg;
  const GemmPlan *p = &g->p;
  unsigned ea = (unsigned)elem_bytes(p->e);
  LLVMValueRef zero = LLVMConstNull(g->vt), old[p->mr * p->nv], mask;
  for (int r = 0; m->first && r < p->mr; r++)
    for (int v = 0; m->c_loads_first && v < p->nv; v++) {
      LLVMValueRef ptr = micro_c_at(g, m, r, v, edge, &mask);
      old[r * p->nv + v] = edge ? masked_load(g, ptr, mask) : vload(g, ptr, ea);
    }
  for (int r = 0; r < p->mr; r++) {
    CgIf row_in;
    if (edge)
      cg_if_begin(cg, &row_in,
                  LLVMBuildICmp(g->b, LLVMIntSLT, cg_i64(cg, r), m->rows, ""));
    for (int v = 0; v < p->nv; v++) {
      LLVMValueRef ptr = micro_c_at(g, m, r, v, edge, &mask), sum = acc[r * p->nv + v];
      if (m->first) {
        LLVMValueRef x = m->c_loads_first ? old[r * p->nv + v]
                         : edge           ? masked_load(g, ptr, mask)
                                          : vload(g, ptr, ea);
        sum = LLVMBuildFAdd(g->b, LLVMBuildSelect(g->b, m->first, zero, x, ""), sum, "");
      }
      if (edge)
        masked_store(g, sum, ptr, mask);
      else
        vstore(g, sum, ptr, ea);
    }
    if (edge) cg_if_end(cg, &row_in);
  }
}

/* Whether the tile has all MR rows and NR columns. */
static LLVMValueRef full_tile(Gemm *g, const Micro *m) {
  CG *cg = g->cg;
  LLVMValueRef all_cols = LLVMBuildICmp(g->b, LLVMIntEQ, m->cols, cg_i64(cg, g->p.nr), "");
  LLVMValueRef all_rows = LLVMBuildICmp(g->b, LLVMIntEQ, m->rows, cg_i64(cg, g->p.mr), "");
  return LLVMBuildAnd(g->b, all_rows, all_cols, "full");
}

/* Stores the accumulators into the tile (micro_store: a full tile, or an
 * edge tile of fewer rows or columns) and returns. */
static void micro_finish(Gemm *g, Micro *m, LLVMValueRef *acc) {
  CG *cg = g->cg;
  LLVMValueRef full = full_tile(g, m);
  CgIf tile;
  cg_if_begin(cg, &tile, full);
  micro_store(g, m, acc, false);
  cg_if_else(cg, &tile);
  micro_store(g, m, acc, true);
  cg_if_end(cg, &tile);
  LLVMBuildRetVoid(cg->b);
}

/* slot[r*NV + v] = C[r][v], unmasked (full tile) or masked by rows and
 * cols (edge tile; other rows keep their value). */
static void micro_load(Gemm *g, Micro *m, LLVMValueRef *slot, bool edge) {
  CG *cg = g->cg;
  const GemmPlan *p = &g->p;
  for (int r = 0; r < p->mr; r++) {
    CgIf row_in;
    if (edge)
      cg_if_begin(cg, &row_in, LLVMBuildICmp(g->b, LLVMIntSLT, cg_i64(cg, r), m->rows, ""));
    LLVMValueRef row = LLVMBuildMul(g->b, cg_i64(cg, r), m->ldc, "");
    for (int v = 0; v < p->nv; v++) {
      LLVMValueRef idx = LLVMBuildAdd(g->b, row, cg_i64(cg, v * p->vl), "");
      LLVMValueRef ptr = LLVMBuildGEP2(g->b, g->t, m->c, &idx, 1, ""); /* see micro_store */
      LLVMValueRef x = edge ? masked_load(g, ptr, col_mask(g, m->cols, v))
                            : vload(g, ptr, (unsigned)elem_bytes(p->e));
      LLVMBuildStore(g->b, x, slot[r * p->nv + v]);
    }
    if (edge) cg_if_end(cg, &row_in);
  }
}

/* The accumulators' start: zeros for the first K slice (`first`), else
 * the tile of C, so that each element of C is one chain of fused
 * multiply-adds over K in order, whatever the KC slices: the indirect
 * convolution microkernel (conv_micro_fn), which sums all of K at once,
 * then gives the same bits as the per-position path (-O0, where weights
 * are not packed). The slots are allocas; mem2reg makes them registers. */
static void micro_init(Gemm *g, Micro *m, LLVMValueRef *acc) {
  CG *cg = g->cg;
  const GemmPlan *p = &g->p;
  int na = p->mr * p->nv;
  LLVMValueRef slot[na];
  for (int i = 0; i < na; i++) {
    slot[i] = cg_entry_alloca(cg, g->vt, "acc0");
    LLVMBuildStore(g->b, LLVMConstNull(g->vt), slot[i]);
  }
  LLVMValueRef full = full_tile(g, m);
  CgIf later, tile;
  cg_if_begin(cg, &later, LLVMBuildNot(g->b, m->first, ""));
  cg_if_begin(cg, &tile, full);
  micro_load(g, m, slot, false);
  cg_if_else(cg, &tile);
  micro_load(g, m, slot, true);
  cg_if_end(cg, &tile);
  cg_if_end(cg, &later);
  for (int i = 0; i < na; i++) acc[i] = LLVMBuildLoad2(g->b, g->vt, slot[i], "");
  m->first = NULL; /* C = acc at the end */
}

/* void micro(ptr a, ptr bp, ptr c, i64 ldc, i64 kc, i64 rows, i64 cols,
 *            i1 first), internal and never inlined, one per (element type,
 * tile, A mode) per module. `a` is the packed Ap panel (MR rows of the
 * full tile a k), or with `ind` an array of MR row pointers (rows past
 * `rows` must point at readable memory, e.g. zeros). A variant of mr < MR
 * rows serves the last tile of a GEMM whose M is not a multiple of MR
 * (gemm_slice): it reads the first mr rows and does mr / MR of the full
 * tile's work, where the full tile would do MR rows'. Likewise a variant
 * of nv < NV vectors serves the last columns of a GEMM whose N is not a
 * multiple of NR (its panel of Bp still NR wide). With `pack` (the
 * `_pack` variant, gemm_slice's first tile of a full panel of an unpacked
 * B along N) three more parameters follow: i64 ldb, ptr bp_out, ptr pf:
 * B is read in place (bp points at B(pc, jr), rows ldb apart), each
 * row's NR elements also stored to bp_out[k*NR] (packing the panel for
 * the tiles below), and pf[k*ldb] (the next panel, next_panel) fetched
 * into L2 with it. */
static LLVMValueRef micro_fn_of(const Gemm *full, bool ind, int mr, int nv, bool pack) {
  Gemm tile = *full;
  Gemm *g = &tile;
  CG *cg = g->cg;
  GemmPlan *p = &g->p;
  p->mr = mr;
  p->nv = nv;
  p->nr = nv * p->vl;
  char name[64];
  snprintf(name, sizeof name, "shloc_%s_gemm%s%s_%dx%d__%s", elem_name(p->e), ind ? "_ind" : "",
           pack ? "_pack" : "", p->mr, p->nr, p->isa);
  LLVMValueRef f = LLVMGetNamedFunction(cg->mod, name);
  if (f) return f;
  LLVMTypeRef pt[11] = {cg->t_ptr, cg->t_ptr, cg->t_ptr, cg->t_i64, cg->t_i64,  cg->t_i64,
                        cg->t_i64, cg->t_i1,  cg->t_i64, cg->t_ptr, cg->t_ptr};
  f = LLVMAddFunction(cg->mod, name, LLVMFunctionType(cg->t_void, pt, pack ? 11 : 8, 0));
  LLVMSetLinkage(f, LLVMInternalLinkage);
  cg_set_fn_attrs(cg, f);
  /* One copy, optimized and compiled once: inlined, each GEMM and
   * convolution kernel got its own (ResNet-50: 28 copies, 0.7 of 2.7 s
   * of compile time); a call per MR x NR x KC tile costs nothing measurable. */
  cg_add_fn_attr(cg, f, "noinline");
  CgFnState saved = cg_save_fn(cg);
  cg->llfn = f;
  LLVMPositionBuilderAtEnd(cg->b, LLVMAppendBasicBlockInContext(cg->ctx, f, "entry"));
  Micro m = {.ind = ind, .apr = full->p.mr, .ldb = cg_i64(cg, full->p.nr)};
  LLVMValueRef *params[8] = {&m.ap, &m.bp, &m.c, &m.ldc, &m.kc, &m.rows, &m.cols, &m.first};
  for (unsigned i = 0; i < 8; i++) *params[i] = LLVMGetParam(f, i);
  if (pack) {
    m.ldb = LLVMGetParam(f, 8);
    m.pack = LLVMGetParam(f, 9);
    m.pf = LLVMGetParam(f, 10);
    m.pf_lines = nr_lines(p);
    m.pf_tail = true;
  }
  for (int r = 0; ind && r < p->mr; r++)
    m.arow[r] = LLVMBuildLoad2(g->b, cg->t_ptr,
                               cg_gep(cg, cg->t_ptr, m.ap, cg_i64(cg, r)), "arow");
  int na = p->mr * p->nv;
  LLVMValueRef acc[na], k;
  micro_prefetch_c(g, &m, p->mr);
  micro_init(g, &m, acc);
  /* The `_pack` variant one k an iteration: with 4, LLVM's schedule put
   * the loads of B and A of all 4 above their multiply-adds (Bp's stores
   * between them) and spilled accumulators to the stack (18 -> 99 stack
   * references; BERT at 128 tokens took 1.17-1.27x main's time). */
  micro_loop(g, &m, cg_i64(cg, 0), m.kc, pack ? 1 : 4, acc, &k);
  micro_loop(g, &m, k, m.kc, 1, acc, &k);
  micro_finish(g, &m, acc);
  cg_restore_fn(cg, &saved);
  return f;
}

static LLVMValueRef micro_fn(const Gemm *full, bool ind, int mr, int nv) {
  return micro_fn_of(full, ind, mr, nv, false);
}

/* The indirect convolution microkernel (conv.c's indirect GEMM):
 *   void conv(ptr tab, ptr b, ptr c, i64 ldc, i64 ntaps, i64 K, i64 npad,
 *             i64 jr, i64 rows, i64 cols, i64 pf_line, i64 pf_taps,
 *             i64 pf_cols, i1 first)
 * C[MR x NR] = (first ? 0 : C) + the sum over taps t < ntaps and input
 * features k < K of A_t(r, k) * B_t(k, j), with the MR x NV accumulators
 * in registers from the first term to the last and C written once (the
 * per-position path calls the microkernel once per tap and KC slice,
 * loading and storing C each time). Row r of A_t is tab[t * MR + r], K
 * elements (an input feature vector, or a row of zeros); B_t is matrix t
 * of a B the layout pass packed (b: matrix 0, npad its padded columns),
 * read in place at panel jr of each KC slice. Every element sums its
 * terms in the order (t, k), one fused multiply-add after another, the
 * sum of the taps before (C, when not first) first, so how threads split
 * a kernel's rows or columns, or conv.c its taps into blocks, does not
 * change it. Each k also fetches into L2 (where the tile's cpf says so)
 * the line at element pf_line of
 * row k of the panel pf_taps matrices and pf_cols columns away (GemmTaps;
 * with all taps in one block, the next panel jr + NR of the same slice):
 * the first tile of a panel would otherwise wait for its B from memory
 * (ResNet-50's 7 x 7 layers at batch 1 have 9 tiles a panel). A variant
 * of mr < MR rows (the table still holds MR pointers per tap) serves the
 * last rows of a convolution whose M is not a multiple of MR (conv.c): it
 * does mr / MR of a full tile's work, where the full tile would do MR
 * rows'. With `fetch`, the `_pf` variant: the fetch above where the
 * tile has no cpf (GemmPlan.cpf_first: gemm_conv_micro runs it on the
 * tiles whose GemmTaps.fetch holds). One per (element type, tile, mr,
 * fetch) per module; never inlined (see micro_fn). Not kept: on AVX2,
 * calls of two panels (the same row pointers, a loop over the panels in
 * the microkernel), to spread the call's overhead (ResNet-50 b1, 6-7% of
 * the microkernel's samples outside its k loop, most of it per tap and
 * KC slice, which stayed per panel): bench/ab.py against main, 20 calls,
 * load 3-4, 1 thread 1.024, 0.991, 1.045, 2 threads 1.003, 0.953, 0.991;
 * the k loop's share of the samples unchanged (91-93%). Nor its k loop
 * unrolled 8 times on AVX2 (4 here): ResNet-50 b1 at 1 thread, bench/ab.py
 * with main twice as a control, 3 rounds of 20 calls, load 6.6-8.3 (the
 * slow regime): 0.990x (quartiles 0.904-1.123), the control 0.984x
 * (0.858-1.141); single layers (shloc bench, min of 60 calls: 56 x 56 1 x 1
 * 64 -> 256 1.40-1.42 ms against 1.38, 14 x 14 1 x 1 1024 -> 256 1.067
 * against 1.070-1.081, the stem 2.83-2.84 against 2.85-2.86) the same.
 * Where the time goes (ResNet-50 b1, 1 thread, Zen 3, 28 Nov): 88% of the
 * model's samples in this microkernel (6 x 16 61%, its 5-row variant 16%,
 * `_pf` 12%); per layer (shloc bench, single convolution + ReLU, best of
 * 60, load 7) the 1 x 1 layers with K = 64 at 56 x 56 run at 75 GFLOP/s
 * (1.38 ms for 64 -> 256), those with K >= 512 at 92-96, the stem 82,
 * the 3 x 3 stride-2 ones 96 (FMA peak ~100): the short K's per-call
 * cost (accumulator init, C stores, 64 k's a call) is the gap left. */
static LLVMValueRef conv_micro_fn(Gemm *full, int mr, bool fetch) {
  Gemm tile = *full;
  Gemm *g = &tile;
  CG *cg = g->cg;
  GemmPlan *p = &g->p;
  p->mr = mr;
  p->cpf |= fetch;
  char name[80];
  snprintf(name, sizeof name, "shloc_%s_gemm_conv_%dx%d%s__%s", elem_name(p->e), p->mr, p->nr,
           fetch ? "_pf" : "", p->isa);
  LLVMValueRef f = LLVMGetNamedFunction(cg->mod, name);
  if (f) return f;
  LLVMTypeRef pt[14] = {cg->t_ptr, cg->t_ptr, cg->t_ptr, cg->t_i64, cg->t_i64,
                        cg->t_i64, cg->t_i64, cg->t_i64, cg->t_i64, cg->t_i64,
                        cg->t_i64, cg->t_i64, cg->t_i64, cg->t_i1};
  f = LLVMAddFunction(cg->mod, name, LLVMFunctionType(cg->t_void, pt, 14, 0));
  LLVMSetLinkage(f, LLVMInternalLinkage);
  cg_set_fn_attrs(cg, f);
  cg_add_fn_attr(cg, f, "noinline");
  CgFnState saved = cg_save_fn(cg);
  cg_fn_begin(cg, f);
  LLVMValueRef tab = LLVMGetParam(f, 0), b = LLVMGetParam(f, 1), ntaps = LLVMGetParam(f, 4);
  LLVMValueRef K = LLVMGetParam(f, 5), npad = LLVMGetParam(f, 6), jr = LLVMGetParam(f, 7);
  Micro m = {.ind = true, .ldb = cg_i64(cg, p->nr), .c = LLVMGetParam(f, 2),
             .ldc = LLVMGetParam(f, 3), .rows = LLVMGetParam(f, 8),
             .cols = LLVMGetParam(f, 9), .first = LLVMGetParam(f, 13)};
  LLVMValueRef kn = LLVMBuildMul(g->b, K, npad, "");
  LLVMValueRef pf_taps = LLVMBuildMul(g->b, LLVMGetParam(f, 11), kn, "");
  int na = p->mr * p->nv;
  LLVMValueRef acc[na], slot[na], a0[MAX_MR], k;
  micro_prefetch_c(g, &m, 0);
  micro_init(g, &m, acc); /* m.first NULL after it: C = acc at the end */
  for (int i = 0; i < na; i++) {
    slot[i] = cg_entry_alloca(cg, g->vt, "cacc"); /* registers after mem2reg */
    LLVMBuildStore(g->b, acc[i], slot[i]);
  }
  CgLoop lt, ls;
  LLVMValueRef t = cg_loop_begin(cg, &lt, cg_i64(cg, 0), ntaps);
  LLVMValueRef bt = cg_gep(cg, g->t, b, LLVMBuildMul(g->b, t, kn, ""));
  LLVMValueRef row0 = LLVMBuildMul(g->b, t, cg_i64(cg, full->p.mr), "");
  for (int r = 0; r < p->mr; r++)
    a0[r] = LLVMBuildLoad2(
        g->b, cg->t_ptr,
        cg_gep(cg, cg->t_ptr, tab, LLVMBuildAdd(g->b, row0, cg_i64(cg, r), "")), "arow");
  /* The panel at (cb, jr) of a packed matrix (gemm_b_panel). Its slices
   * are gemm_kc(K) = min(K, KCMAX) rows: KCMAX rows for any K. */
  int64_t kcmax = gemm_kc(GEMM_DYN);
  LLVMValueRef cb = cg_loop_step(cg, &ls, cg_i64(cg, 0), K, kcmax);
  LLVMValueRef kc = cg_min_i64(cg, cg_i64(cg, kcmax), LLVMBuildSub(g->b, K, cb, ""));
  LLVMValueRef panel = LLVMBuildMul(g->b, jr, kc, "");
  m.bp = cg_gep(cg, g->t, bt, LLVMBuildAdd(g->b, LLVMBuildMul(g->b, cb, npad, ""), panel, ""));
  for (int r = 0; r < p->mr; r++) m.arow[r] = cg_gep(cg, g->t, a0[r], cb);
  /* Panels of a slice lie kc * NR apart. Past the last panel or tap that
   * is another slice, or past B: not inbounds, and a prefetch never
   * faults. */
  if (p->cpf) {
    LLVMValueRef pf_off = LLVMBuildAdd(g->b, LLVMBuildMul(g->b, kc, LLVMGetParam(f, 12), ""),
                                       LLVMGetParam(f, 10), "");
    pf_off = LLVMBuildAdd(g->b, pf_off, pf_taps, "");
    m.pf = LLVMBuildGEP2(g->b, g->t, m.bp, &pf_off, 1, "");
  }
  for (int i = 0; i < na; i++) acc[i] = LLVMBuildLoad2(g->b, g->vt, slot[i], "");
  micro_loop(g, &m, cg_i64(cg, 0), kc, 4, acc, &k);
  micro_loop(g, &m, k, kc, 1, acc, &k);
  for (int i = 0; i < na; i++) LLVMBuildStore(g->b, acc[i], slot[i]);
  cg_loop_end(cg, &ls);
  cg_loop_end(cg, &lt);
  for (int i = 0; i < na; i++) acc[i] = LLVMBuildLoad2(g->b, g->vt, slot[i], "");
  micro_finish(g, &m, acc);
  cg_fn_end(cg);
  cg_restore_fn(cg, &saved);
  return f;
}

void gemm_conv_micro(Gemm *g, int mr, LLVMValueRef tab, LLVMValueRef b, LLVMValueRef c,
                     const GemmTaps *t, LLVMValueRef jr, LLVMValueRef rows, LLVMValueRef cols) {
  CG *cg = g->cg;
  LLVMValueRef f = conv_micro_fn(g, mr, false), npad = cg_i64(cg, packed_npad(g));
  LLVMValueRef tab0 =
      cg_gep(cg, cg->t_ptr, tab, LLVMBuildMul(g->b, t->t0, cg_i64(cg, g->p.mr), ""));
  LLVMValueRef b0 =
      cg_gep(cg, g->t, b, LLVMBuildMul(g->b, t->t0, LLVMBuildMul(g->b, g->p.v.K, npad, ""), ""));
  LLVMValueRef args[14] = {tab0,    b0,   c,         g->p.v.N,   t->n,       g->p.v.K,
                           npad,    jr,   rows,      cols,       t->pf_line, t->pf_taps,
                           t->pf_cols, t->first};
  if (!g->p.cpf_first) {
    LLVMBuildCall2(g->b, LLVMGlobalGetValueType(f), f, args, 14, "");
    return;
  }
  CgIf fetch;
  cg_if_begin(cg, &fetch, t->fetch);
  LLVMValueRef pf = conv_micro_fn(g, mr, true);
  LLVMBuildCall2(g->b, LLVMGlobalGetValueType(pf), pf, args, 14, "");
  cg_if_else(cg, &fetch);
  LLVMBuildCall2(g->b, LLVMGlobalGetValueType(f), f, args, 14, "");
  cg_if_end(cg, &fetch);
}

/* ------------------------------------------------------------------------ */
/* The skinny path                                                           */

/* With few rows a packed panel of B would serve one or two tiles, so
 * packing costs as much as the product: the skinny kernel keeps the M rows
 * of a strip of C in registers and reads B in place, once (a batch-1
 * transformer's projections, a decoding step). B streams from memory when
 * it is large, so it is read along its rows: for a block of KB rows of B,
 * the strip walks the columns, each row of the block a sequential stream
 * the hardware prefetcher follows (a strip walking down all K rows would
 * touch a new page per row). C (M rows) stays in cache between blocks.
 * It needs B contiguous along N and A along K. The strip is at most one
 * cache line of B wide (SKINNY_STRIP_BYTES; two for M = 1,
 * SKINNY_STRIP_BYTES_M1) and at most as wide as the
 * registers left over by M allow (M x NV accumulators, NV vectors of B and
 * a broadcast of A). Known weakness: when B's rows (and C's) are a
 * multiple of 4 KiB apart (N = 1024 j f32, BERT's and GPT-2's 3072), the
 * lines a step reads share one L1 set: 8 layers of 7 x 768 @ 768 x N as
 * arguments, one thread, 150 alternating calls, N = 3072 streamed at 19
 * GB/s and N = 3136 at 23-25 (10th percentiles 3.95 and 3.08-3.35 ms).
 * The packed path (below) has no such stride. That measurement adds the
 * 8 products up (the adds become the products' epilogues, which read
 * 7 more such rows); in a chain of 4 layers 7 x 768 @ 768 x N @ N x 768
 * the gap is smaller: 3.2-3.3 ms at N = 3072 against 3.0 at 3136 (median
 * of 6 x 40 alternating calls, the loaded 2-core Zen 4). Tried, with no
 * win in that chain or the models (not kept): (1) skew: the block's
 * rows 8-15 read S = 1-3 strips behind rows 0-7, the accumulators of
 * S + 1 strips in registers (the same sums): 1.1x faster on the 8 added
 * products, 1.1x slower in the chain (3.6-3.7 against 3.2-3.3 ms) and on
 * BERT at 7 tokens (16.2 against 15.6 ms, median of 6 x 30 calls), as
 * fast on GPT-2's decoding step (M = 1). (2) blocks of 64 rows for M >= 2
 * (C, 84 KiB at 7 x 3072, through L2 a quarter as often): 1.3x faster on
 * the 8 products, at most 5% in the chain and on BERT with the weights
 * as arguments (minimum 13.55 against 13.75 ms, medians no better), 1.3x
 * slower with them as constants (33.7 against 25.4 ms, median of 6 x 30,
 * one thread: 64 rows of 12 KiB touch 64 or more pages a step; as
 * arguments the weights are probably on huge pages); 128 rows were 1.25x
 * slower on BERT as arguments too. Most of that gap was not the L1 set
 * but stores of C matching later loads in the low 12 address bits (the
 * C order in skinny_fn, the strip order in skinny_reverse: with both, a
 * chain of 4 such layers 5.9-6.0 -> 3.8-4.0 ms at 3072, against 3.4-3.6
 * at 3136, the 3072-wide activation in the arena 64 bytes past a page
 * and B 16 bytes past one, load 3.9). Tried again then, not kept (one
 * thread, the loaded 2-core Zen 4, CPU-time minima of alternating
 * calls): 8 rows a
 * block for M > 1, as fast on 8 products 7 x 768 @ 768 x 3072 and 1.25x
 * slower in the chain; 32 and 8 rows for M = 1, 1.1-1.2x slower on
 * 1 x 3072 @ 3072 x 768; A's rows of the block copied into a contiguous
 * tile before the strips (its 7 rows of 3072 share a set too), 1.04x
 * slower in the chain. */
enum { SKINNY_KB = 16 };
/* One line: each step of the strip then reads one new line of each of the
 * KB rows, and the prefetch of one line per row covers every line B has.
 * Wider strips (512 bytes for M = 1, 192 for M = 7) read each row in
 * bursts the prefetch covers one line of, and were 1.6-1.8x slower with B
 * streaming from memory (M x 768 @ 768 x 3072 @ 3072 x 768, 4 layers,
 * 75 MB of weights, M = 1 and 7, AVX-512 on Zen 4; a GPT-2 decoding step
 * 1.2x, BERT at 7 tokens 1.6x); from the cache (one 9 MB B called again
 * and again, which a model's weights never are) they are faster for M = 1
 * (0.14 ms against 0.19). 8 rows a block instead of 16 were 1.4x slower
 * on BERT. Again with the weights as numpy arguments (one thread, minimum
 * of 30-40 alternating calls in one process, the loaded 2-core Zen 4,
 * the 4 layers above): 128-byte strips 1.6x slower for M = 7; blocks of
 * 8 and 4 rows 1.3x and 1.9x slower for M = 7, 8 rows 1.1x slower for
 * M = 1, 32 rows as fast. For M = 7 the k loop is bound by the FMA pipe,
 * not by loads or address arithmetic (llvm-mca, znver4: 28 cycles per 4
 * rows, the 28 zmm FMAs, 7 per line of B: 9 bytes a cycle), so one
 * core's skinny product at 7 rows cannot stream much above 30 GB/s
 * however B is fetched. 128-byte strips for M = 1 only, one line of a
 * step fetched: as fast on 3072 x 768, 1.3x slower on 768 x 3072 (8
 * products each, 75 MB; with both lines fetched: SKINNY_STRIP_BYTES_M1).
 * Not kept either, for M = 1: a block's rows one after the other into a
 * partial row of C in L1 (P = fma(A(k), B(k, :), P) from zeros, added to
 * C in block order: the same bits), so that B streams as one sequential
 * run, or as 2 with two blocks' rows in turn (bench/streams.c read such
 * streams 1.2-1.3x faster than this order): 1.33-1.5x slower at any
 * offset of P (6 layers 1 x 768 @ 768 x 3072 @ 3072 x 768, weights as
 * arguments, one thread, bench/ab.py under SCHED_FIFO, load 7-8), 1.4x
 * with two; the loop was one load, FMA and store of P per line of B. */
enum { SKINNY_STRIP_BYTES = 64 };
/* For M = 1, whose FMAs are few, two lines, with each line
 * of a step prefetched (Micro.pf_lines): BERT's weights read as a GEMV's would
 * (bench/streams.c) moved 1.3x faster in far apart streams than in this
 * order, and the dots path gained from such streams (below). 6 layers 1
 * x 768 @ 768 x 3072 @ 3072 x 768 (113 MB of arguments), bench/ab.py
 * under SCHED_FIFO, load 7-8, paired medians of 3 x 20 calls: 0.97-1.00
 * of 64-byte strips with one thread, 0.93-0.99 with two; GPT-2's decoding
 * step (3 x 40 calls) 0.94-0.95 with one and two (against 0.97-0.98 and
 * 0.97-1.00 for 64 bytes, both against main's build in the same runs),
 * bits identical (each element's sums are the strip's whatever its
 * width). 256 bytes (4 lines) 0.94-0.95 and 0.96-0.97 on the step, 1.1x
 * slower on the layers with one line fetched a step. Fetched 1024 or 256
 * bytes ahead instead of 512 (SKINNY_PREFETCH_BYTES), the step 0.94-0.96
 * and 0.96-0.98 of main with one thread, 0.96-0.98 and 0.96-0.97 with
 * two, against 0.95-0.97 and 0.94-0.96 (3 x 30 calls, load 4.3-5.5).
 * For M = 7, 128-byte strips with both lines fetched: 1.27x slower
 * (BERT at 7 tokens, weights as arguments, one thread). With 2 threads
 * (the K split) the step's gain came and went with the machine's regime:
 * 0.94-0.99 of main's time when main took 11-12 ms, 1.01-1.04 when it
 * took 16-17 ms, where 64-byte strips stayed at 0.99-1.00 (with the dots
 * streams, paired, 4 x 40 calls interleaved): kept to one thread then.
 * Measured again with 2 threads (the step, bench/ab.py against main's
 * build, SCHED_FIFO, 8 runs of 3 x 40 calls 80 s apart, load 3.3-7.4,
 * main 10.6-11.6 ms): paired medians 0.95-0.99 in 7 runs, 0.99-1.02 in
 * one; two lines for the 768-wide products only 0.98-1.00, for the
 * 3072-wide only 0.99 (identical bits; BERT's code is unchanged: M = 7).
 * Now for any number of threads; not on AVX2, where one row reads B in
 * far-apart runs of one-line strips instead (skinny_far). */
enum { SKINNY_STRIP_BYTES_M1 = 128 };
/* Each row of the block is also fetched 512 bytes (8 strips of a line) ahead, into
 * L2 (locality 2): with 16 streams the hardware prefetcher alone runs dry.
 * Into L1 (prefetcht0) it was 1.1-1.2x slower: the rows of a block are
 * often a multiple of 4 KiB apart, so their lines share one L1 set. 512
 * bytes beat 256 by about 8% on BERT at 7 tokens (minimum of 20 calls,
 * 15.8-17.2 ms against 17.4-19.1, weights as arguments, one thread, the
 * loaded 2-core Zen 4; 1024 was no better), once the prefetch wrapped
 * into the next block (skinny_prefetch_base). Measured again (the same
 * setup as SKINNY_STRIP_BYTES's second): 1024 and 2048 bytes as fast;
 * prefetchnta 1.15x (M = 7, two layers of BERT's six products, 57 MB)
 * and 1.25x (M = 1) slower, prefetcht0 1.45x and 1.25x, prefetcht2
 * 1.07x and as fast; fetching the same strip of the next block's rows
 * instead (the dots path's scheme before its streams), 1.08x slower for M = 7 and as fast
 * for M = 1. 1024 bytes on BERT at 7 tokens once more (with the C and
 * strip orders of skinny_fn): as fast. With 2 threads (the K split,
 * BERT at 7 tokens, weights as arguments, 60 rounds of calls alternating
 * in one process under SCHED_FIFO, load 1.5-1.7, paired medians): 1024
 * and 2048 bytes 1.03x slower; blocks (SKINNY_KB) of 32 rows 1.09x,
 * of 8 rows 1.03x. Once more (bench/streams.c read BERT's weights in
 * this order 1.1x faster 1 KiB ahead than 512 bytes): BERT at 7 tokens,
 * weights as arguments, bench/ab.py under SCHED_FIFO, load 3-4, paired
 * medians of 3 x 30 calls: 1024 and 2048 bytes 1.02-1.04x slower with
 * one thread, 1.00-1.02x with two. On AVX2 with the fold (Zen 3, BERT
 * at 7 tokens, weights as arguments, one thread, bench/ab.py, 2 x 10
 * calls, load 3.6-4, main against itself 1.00-1.10 in the same runs):
 * 256 bytes 0.99-1.05, 1024 1.05, 2048 1.11-1.13, prefetcht0 1.11-1.13,
 * prefetcht2 1.03-1.14, blocks of 32 or 8 rows 1.20-1.23; each k
 * fetching the next line of the next block in address order instead
 * (one sequential run of prefetches over the next block; --fifo,
 * --offset=16, 2 x 20 calls) 1.01-1.03x slower, that run 16 KiB nearer
 * 1.06x. With two threads (the K split, Zen 3, --fifo --offset=16 with
 * 50 ms gaps, 2 x 20 calls, load 6-9): 1024 bytes 1.04-1.07x, 256 bytes
 * 0.99-1.07x; blocks (SKINNY_KB) of 8 rows 1.00-1.02x, of 32 rows
 * 1.10-1.15x. Again (2026-11-28, Zen 3, BERT at 7 tokens, weights as
 * arguments on lines, one thread, objects alternating with main's in one
 * process 50 ms apart, paired medians of 2 x 12-16 calls, load 3-8, the
 * machine busy): no prefetch 1.69x slower (the 14 multiply-adds a line
 * leave the out-of-order window about 10 lines of B, too few misses in
 * flight; loads alone in this order, no prefetch, read as fast as a
 * sequential pass); each line's prefetch rounded down to 128 or 256
 * bytes, for the L2's adjacent-line fetch to bring the rest, 1.53-1.66x
 * slower; a prefetcht0 64 or 128 bytes ahead besides, 1.01-1.02x; 256,
 * 320, 384, 448 bytes ahead 0.92-1.02, not told apart from 512 in
 * repeats. A plain C read of the same buffers took 0.72-0.77 of the
 * model's time, the constant-weight model 0.86 (its panels). */
enum { SKINNY_PREFETCH_BYTES = 512 };
/* M = 1 on AVX2 (skinny_far): the runs of K read at once, each a stream
 * of its own, and a strip of one line (SKINNY_STRIP_BYTES, not
 * SKINNY_STRIP_BYTES_M1). A chain of 72 products 1 x 768 @ 768 x 768 (4
 * a layer), 768 x 3072, 3072 x 768 (GPT-2-small's layers, 340 MB of
 * arguments), the 2-core Zen 3, bench/ab.py under SCHED_FIFO, load 4-8,
 * paired medians of 2 x 30-40 calls, against the blocks of 16 adjacent
 * rows (two lines a strip, 512 bytes fetched ahead): 8 runs of two-line
 * strips 0.74-0.75 with one thread (22.2 -> 17.2 ms), 0.82-0.86 with two
 * (the K split: each thread's part in runs); against those, 4 runs
 * 0.95-0.99, 6 0.96-1.01, 2 1.04-1.21x and 16 1.55-1.78x slower (a
 * line of each of 16 streams a step); 4 runs of one-line strips
 * 0.94-0.99 of two-line ones (half-line 0.99-1.04x, four-line
 * 0.99-1.04x), 8 and 6 runs of one line 1.03-1.07x slower than 4. Each
 * of 8 runs fetched 512 and 1024 bytes ahead into L2 besides (along the
 * run, into its next row at a row's end): 1.02-1.05x and 1.08-1.17x
 * slower. A C probe of
 * these reads alone (AVX2 FMAs into registers, 340 MB as above, two
 * lines of each run in turn, one thread, SCHED_FIFO, medians of 11
 * rounds): 4 runs 18.7 GB/s, the 16-row blocks fetched 512 bytes ahead
 * 11.7, 4 plain sequential streams 15.9, the triad 17.0.
 * Measured again on GPT-2's decoding step (2026-11-28, the 2-core Zen 3,
 * weights as arguments): the step's object and a C read of the same
 * buffers (the bytes of each buffer of 1 MB or more: each thread a
 * contiguous part as these runs, a spin join after each buffer, as the
 * K split's parts read them) as variants of one process, calls
 * alternating 50 ms apart under SCHED_FIFO, 3 x 20 calls: 1 thread
 * 23.4 ms against the read's 23.8, 2 threads 14.1 against 14.2 (0.60 of
 * one thread; 2 threads 1.02-1.03x the read's time in paired medians
 * with the weights on lines, 1.05-1.08x 16 bytes past one). The shapes
 * alone (48 products 1 x 768 @ 768 x 768, 12 of 768 x 3072, 12 of 3072
 * x 768, 113 MB each; the tied output projection, 154 MB, on the dots
 * path): 19.2, 20.0, 18.5, 19.1 GB/s with one thread and 31.1, 31.5,
 * 29.1, 32.2 with two, the read 18.6, 19.7, 17.4, 16.0 and 28.3, 31.2,
 * 26.8, 25.7. That read was fastest with these 4 runs a thread (1, 2
 * and 8 runs: 0.6-0.8 of its speed with 2 threads, 0.8-0.9 with 1;
 * fetched 512 bytes ahead: within the noise). What separates 2 threads
 * from that in bench/compare.py is the scheduling: without SCHED_FIFO,
 * with another process taking one of the 2 CPUs (load 2.4), the step took
 * 1.12x the time with 2 threads that it took with 1 (paired median of
 * 60, 30.1 against 26.9 ms); a join waits on a worker preempted in its
 * part. Not kept: the edge strips of a run read unmasked as a whole
 * strip (skinny_edge's overlap), the step with the weights 16 bytes past
 * a line, bench/ab.py --fifo, 3 x 20 calls: 0.97-1.01 of this with 1
 * thread, 0.98-1.03 with 2. */
enum { SKINNY_FAR_STREAMS = 4 };

/* Whether an M-row skinny product with B along N takes skinny_far. Only
 * AVX2 measured: AVX-512 (Zen 4) keeps its blocks. Not for M = 7 on
 * AVX2 (Zen 3), where the strips fold: 4 and 8 runs (the rows' A read
 * through Micro.astride, both strip orders) ran BERT at 7 tokens
 * (weights as arguments, one thread, bench/ab.py, 2-3 x 10-20 calls,
 * load 3.4-5.3) 2.0-2.5x slower than the blocks of 16 rows, with C's
 * rows loaded first or not: a strip loads and stores its 14 vectors of
 * C (from L2 at 3072 columns) every 4 or 8 rows of B instead of 16. */
static bool skinny_far_fits(CG *cg, int m) { return m == 1 && cg_vector_bytes(cg) == 32; }

bool gemm_skinny_fits(const GemmPlan *p) {
  return p->M >= 1 && p->M <= GEMM_SKINNY_MAX_M && p->sak == 1 &&
         (p->sbn == 1 || p->sbk == 1);
}

static int clamp_int(int x, int lo, int hi) { return x < lo ? lo : x > hi ? hi : x; }

static bool target_is(CG *cg, const char *arches) {
  char *triple = LLVMGetTargetMachineTriple(cg->tm);
  bool yes = listed(triple, arches);
  LLVMDisposeMessage(triple);
  return yes;
}

/* The vector registers the skinny kernels plan for: 8 on 32-bit x86
 * (xmm0-7, ymm0-7 or zmm0-7: the others need a REX or EVEX prefix's
 * 64-bit mode), 32 zmm with AVX-512, else 16. */
static int vector_regs(CG *cg) {
  if (target_is(cg, "i386|i486|i586|i686")) return 8;
  return cg_vector_bytes(cg) == 64 ? 32 : 16;
}

/* 64-bit x86: skinny_fold stays off on 32-bit x86, where it was never
 * measured (its 8 registers hold the fold of 3 rows, not of 7). */
static bool x86_64(CG *cg) { return target_is(cg, "x86_64"); }

/* Rows per group: at most what the registers hold (R x NV accumulators,
 * NV vectors of B, a broadcast), balanced. */
static int group_rows(CG *cg, int m, int nv) {
  int regs = vector_regs(cg);
  int fit = clamp_int((regs - 1 - nv) / nv, 1, m);
  int groups = (m + fit - 1) / fit;
  return (m + groups - 1) / groups;
}

/* B along N: M x NV accumulators, NV vectors of B, a broadcast of A,
 * NV as many as a strip's bytes hold (SKINNY_STRIP_BYTES) and the
 * registers allow; or when the registers allow only one but a strip's
 * vectors fit two groups of the rows (AVX2's 16 ymm at 7 and 8 rows),
 * the strip's vectors, a group at a time (skinny_strip). B along K (the
 * dots path): M x NR accumulators, M vectors of A, one of B. */
void gemm_plan_skinny(Gemm *g) {
  GemmPlan *p = &g->p;
  int vbytes = cg_vector_bytes(g->cg), regs = vector_regs(g->cg), m = (int)p->M;
  p->skinny_dots = p->sbn != 1;
  p->mr = m;
  if (p->skinny_dots) {
    p->nv = 1;
    p->nr = clamp_int((regs - 1 - m) / m, 1, 8);
    return;
  }
  int strip = m == 1 && !skinny_far_fits(g->cg, m) ? SKINNY_STRIP_BYTES_M1 : SKINNY_STRIP_BYTES;
  int full = strip / vbytes;
  p->nv = clamp_int((regs - 1) / (m + 1), 1, full);
  if (p->nv == 1 && full > 1 && group_rows(g->cg, m, full) * 2 >= m)
    p->nv = full; /* two groups of rows (skinny_strip) */
  p->nr = p->nv * p->vl;
}

/* Where the strip at column j of a call's `cols` columns prefetches
 * (micro_step fetches pf[k*ldb] with row k): SKINNY_PREFETCH_BYTES
 * further along the row (back along it when the strips run from the
 * last, rev: skinny_reverse) or, for the strips within that distance of
 * the row's end, as far into the row KB below, whose first lines the
 * next block reads first. Without the wrap the first lines of every row
 * of a block came from memory on demand (with 256 bytes ahead: 4 of a
 * row's 48 lines at 768 columns, 4 of 6 in the 96-column pieces two
 * threads split such a B into (BERT at 7 tokens was slower with 2
 * threads than with 1)). Past the last block it points past B, which a
 * prefetch may (llvm.prefetch never faults). */
static LLVMValueRef skinny_prefetch_base(Gemm *g, LLVMValueRef b, LLVMValueRef j,
                                         LLVMValueRef ldb, LLVMValueRef cols, bool rev) {
  CG *cg = g->cg;
  int64_t ahead = SKINNY_PREFETCH_BYTES / elem_bytes(g->p.e);
  LLVMValueRef t = LLVMBuildAdd(g->b, j, cg_i64(cg, rev ? -ahead : ahead), "");
  LLVMValueRef wrap = rev ? LLVMBuildAdd(g->b, t, cols, "") : LLVMBuildSub(g->b, t, cols, "");
  LLVMValueRef below =
      LLVMBuildAdd(g->b, wrap, LLVMBuildMul(g->b, ldb, cg_i64(cg, SKINNY_KB), ""), "");
  LLVMValueRef past = rev ? LLVMBuildICmp(g->b, LLVMIntSLT, t, cg_i64(cg, 0), "")
                          : LLVMBuildICmp(g->b, LLVMIntSGE, t, cols, "");
  LLVMValueRef idx = LLVMBuildSelect(g->b, past, below, t, "");
  return LLVMBuildGEP2(g->b, g->t, b, &idx, 1, "pf"); /* not inbounds */
}

/* Whether the full strips run one group of rows whose multiply-adds
 * read B's last vector from memory (skinny_fold, see skinny_strip): the
 * tile allows it, two groups would be needed, and the rows'
 * accumulators, one vector of B and a broadcast fit the registers. */
static bool skinny_folds(Gemm *g) {
  CG *cg = g->cg;
  const GemmPlan *p = &g->p;
  const GemmTile *tile = gemm_tile(cg->tm, cg_vector_bytes(cg));
  return tile->skinny_fold && group_rows(cg, p->mr, p->nv) < p->mr && x86_64(cg) &&
         p->mr * p->nv + 2 <= vector_regs(cg) && cg_has_insn(cg, CG_INSN_FMA3, g->t);
}

/* A strip's columns (skinny_strip): all NR (full); the m->cols < NR
 * of an edge, B's loads and C's stores masked to them (edge); or NR
 * columns read whole of which C's [col0, cols) are stored (overlap:
 * skinny_edge). */
typedef enum { STRIP_FULL, STRIP_EDGE, STRIP_OVERLAP } StripKind;

/* The accumulators of a folded strip start from C's NR columns (all
 * of them, also for STRIP_OVERLAP, whose columns all lie in C), or from
 * zero in the first block, and micro_store then writes them back
 * (m->first cleared): one chain over K per element, the packed path's
 * sums, instead of a block's chain from zero added to C. The 14 ymm of
 * accumulators left no register for C's old values, so the add to C
 * spilled 12 of them to the stack and read them back (read from the
 * disassembly). BERT at 7 tokens, weights as arguments 16 bytes past a
 * line, one thread (bench/ab.py --fifo --offset=16 against main, Zen 3,
 * load 3.8): 0.947-0.990 over 3 x 20 calls; 24 products 7 x 768 @
 * 768 x 768 0.92-0.94, 7 x 768 @ 768 x 3072 and 7 x 3072 @ 3072 x 768
 * 0.98-1.00 (2 x 20 calls, load 1.9). */
static void skinny_acc_from_c(Gemm *g, Micro *m, LLVMValueRef *acc) {
  const GemmPlan *p = &g->p;
  LLVMValueRef mask;
  for (int r = 0; r < p->mr; r++)
    for (int v = 0; v < p->nv; v++) {
      LLVMValueRef x = vload(g, micro_c_at(g, m, r, v, false, &mask), (unsigned)elem_bytes(p->e));
      acc[r * p->nv + v] = LLVMBuildSelect(g->b, m->first, acc[r * p->nv + v], x, "");
    }
  m->first = NULL;
}

/* C[0:M, j:j+NR) (+)= A[0:M, kb:kend) * B[kb:kend, j:j+NR), full (NR
 * columns) or the edge strip of m->cols columns, of a call's `cols`: a
 * chain of fused multiply-adds from zero over the block, added to C
 * (folded strips: from C, skinny_acc_from_c).
 * The rows go in groups that fit the registers (group_rows), the first
 * fetching B ahead, the next reading the block's strip again from the
 * cache; each element's chain is the same whatever the groups. On AVX2
 * (Zen 3, 16 ymm) 7 rows of one vector each (a strip of half a line)
 * ran BERT at 7 tokens (weights as arguments, --elided=pattern,
 * bench/ab.py, paired medians of 3 x 20 calls, load 2.6-3.5) 1.15-1.23x
 * slower than two groups (4 + 3 rows) of a line, with one thread and
 * with two (the K split); 7 rows of a line in one group spill an
 * accumulator (17 ymm) and were 0.85-0.88 of the half line; 96-byte
 * strips (two groups of 3 vectors) 1.00-1.07x slower than a line.
 * Starting the chain from C instead (micro_init: one chain over K, the
 * packed path's sums) was as fast with the weights as arguments and 10%
 * slower with them as constants: BERT at 7 tokens, one thread, 100 calls
 * alternating with this in one process, 10th percentiles 17.8 against
 * 17.9 ms and 15.4-15.6 against 14.1-14.4 (AVX-512, Zen 4).
 * Where the tile allows (skinny_fold: AVX2 with FMA) and two groups would
 * be needed but the rows' accumulators, one vector of B and a broadcast
 * fit (7 rows of a line: 14 + 1 + 1 ymm), the full strips run one group
 * whose multiply-adds read B's last vector from memory (fma_asm), as GCC
 * compiles the same loop in C: each line of B read from the cache once
 * a k, 14 independent chains (the group of 3 rows had 6, fewer than the
 * 8 that two FMA pipes of 4 cycles' latency need). In a C model on
 * BERT's 340 MB of weights (one thread, SCHED_FIFO) it read 12.8-15.3
 * GB/s against 10.1-11.1 for 4 + 3 rows; BERT at 7 tokens with the
 * weights as arguments (bench/ab.py --fifo against main, 3 x 30 calls,
 * load 6-7): with the k loop's single step (skinny_unroll) 0.870-0.877 of
 * main's time with one thread (0.946-0.958 without the fold), 0.925-0.956
 * with two (the K split); same bits. With the weights 16 bytes past a
 * line as numpy's are (head and edge strips then two groups, masked),
 * 0.90-0.95 and 0.90-0.97 (load 1.2-2.4); with those strips folded too
 * (skinny_edge), against that: 0.933-0.948 with one thread and
 * 0.932-0.955 with two (bench/ab.py --fifo --offset=16, 3 x 30 calls,
 * load 3.6-4.3), 1.00 with the weights on lines. Read from memory by all 14
 * multiply-adds (21 loads a k) instead: 1.10-1.18x slower than 4 + 3. On
 * the packed skinny path (panels of 16 columns, one group) it did not
 * help: 1.00-1.02 of 4 + 3 with BERT's weights as constants, one thread
 * (that path waits on its one stream of B). */
static void skinny_strip(Gemm *g, Micro *m, LLVMValueRef b, LLVMValueRef c,
                         LLVMValueRef cols, LLVMValueRef j, LLVMValueRef kb,
                         LLVMValueRef kend, bool rev, StripKind kind) {
  CG *cg = g->cg;
  const GemmPlan *p = &g->p;
  m->bp = cg_gep(cg, g->t, b, j);
  /* skinny_far's runs (the only strips with astride) fetch nothing ahead */
  m->pf = m->astride ? NULL : skinny_prefetch_base(g, b, j, m->ldb, cols, rev);
  m->c = cg_gep(cg, g->t, c, j);
  bool masked = kind == STRIP_EDGE, edge = kind != STRIP_FULL;
  for (int v = 0; v < p->nv; v++) m->bmask[v] = masked ? col_mask(g, m->cols, v) : NULL;
  const GemmTile *tile = gemm_tile(cg->tm, cg_vector_bytes(cg));
  /* One row (decoding) keeps four k's a turn on every tile: GPT-2's step
   * on AVX2 (Zen 3, bench/ab.py --fifo, 3 x 30 calls, load 4) took
   * 1.00-1.045x the time at 1 thread and 1.01-1.02x at 2 with one. */
  int unroll = p->mr == 1 ? 4 : tile->skinny_unroll;
  m->fold = !masked && skinny_folds(g);
  int rows = m->fold ? p->mr : group_rows(cg, p->mr, p->nv);
  for (int r0 = 0; r0 < p->mr; r0 += rows) {
    Gemm h = *g;
    h.p.mr = p->mr - r0 < rows ? p->mr - r0 : rows;
    Micro mg = *m;
    if (r0) {
      memcpy(mg.arow, m->arow + r0, sizeof *mg.arow * (size_t)h.p.mr);
      if (!m->ind) mg.ap = cg_gep(cg, g->t, m->ap, cg_i64(cg, r0));
      mg.c = cg_gep(cg, g->t, m->c, LLVMBuildMul(g->b, cg_i64(cg, r0), m->ldc, ""));
      mg.rows = cg_i64(cg, h.p.mr);
      mg.pf = NULL;
    }
    int na = h.p.mr * p->nv;
    LLVMValueRef acc[na], k;
    for (int i = 0; i < na; i++) acc[i] = LLVMConstNull(g->vt);
    if (m->fold) skinny_acc_from_c(&h, &mg, acc);
    micro_loop(&h, &mg, kb, kend, unroll, acc, &k);
    if (unroll > 1) micro_loop(&h, &mg, k, kend, 1, acc, &k);
    micro_store(&h, &mg, acc, edge);
  }
}

/* The skinny helper `kind` of g's plan, void (ptr a, i64 lda, ptr b,
 * i64 ldb, ptr c, i64 ldc, i64 k, i64 cols) (the packed one: i64 c0 in
 * place of ldb, i64 c1 in place of cols), internal, one per (element
 * type, kind, M, NR) per module. When it is new (*fresh), the builder is
 * left in its body (cg_fn_begin) and *saved holds the state to restore. */
static LLVMValueRef skinny_helper(Gemm *g, const char *kind, LLVMTypeRef *ty,
                                  CgFnState *saved, bool *fresh) {
  CG *cg = g->cg;
  const GemmPlan *p = &g->p;
  LLVMTypeRef pt[8] = {cg->t_ptr, cg->t_i64, cg->t_ptr, cg->t_i64,
                       cg->t_ptr, cg->t_i64, cg->t_i64, cg->t_i64};
  *ty = LLVMFunctionType(cg->t_void, pt, 8, 0);
  char name[64];
  snprintf(name, sizeof name, "shloc_%s_gemm_%s_%dx%d", elem_name(p->e), kind, p->mr, p->nr);
  LLVMValueRef f = LLVMGetNamedFunction(cg->mod, name);
  *fresh = !f;
  if (f) return f;
  f = LLVMAddFunction(cg->mod, name, *ty);
  LLVMSetLinkage(f, LLVMInternalLinkage);
  cg_set_fn_attrs(cg, f);
  *saved = cg_save_fn(cg);
  cg_fn_begin(cg, f);
  return f;
}

/* The columns before B's first row reaches a line boundary (at most
 * cols): done as an edge strip first, so that the full strips' loads of
 * B lie in one line each (and the rows after the first too when ldb is
 * a multiple of a line: BERT's and GPT-2's 768 and 3072 columns). numpy
 * aligns its arrays to 16 bytes, so weights passed from it are mostly off
 * a line, and every vector of B then spans two. One thread, weights as
 * arguments 16 bytes past a line, minimum of 30-40 alternating calls in
 * one process (CPU time for the models), the loaded 2-core Zen 4: 4
 * layers of 7 x 768 @ 768 x 3072 @ 3072 x 768, 4.46 -> 3.52 ms (3.0-3.1
 * with the weights on lines); BERT at 7 tokens 18.95 -> 16.9 ms, GPT-2's
 * decoding step 22.2 -> 19.7; with the weights on lines both as before
 * within the noise (14.6 against 15.2, 19.4 against 19.1). What is left
 * of the gap: C, on a line, is now read and written off one. */
static LLVMValueRef skinny_head(Gemm *g, LLVMValueRef b, LLVMValueRef cols) {
  CG *cg = g->cg;
  LLVMValueRef addr = LLVMBuildPtrToInt(g->b, b, cg->t_i64, "");
  LLVMValueRef gap = LLVMBuildAnd(g->b, LLVMBuildNeg(g->b, addr, ""), cg_i64(cg, 63), "");
  gap = LLVMBuildUDiv(g->b, gap, cg_i64(cg, elem_bytes(g->p.e)), "");
  /* Strips narrower than a line (AVX2, NEON) need only reach a strip's
   * width of alignment, and the edge strip holds at most NR columns. */
  gap = LLVMBuildURem(g->b, gap, cg_i64(cg, g->p.nr), "");
  return cg_min_i64(cg, gap, cols);
}

/* Whether the strips run from the last column to the first: when C
 * lies at most a quarter of P past B modulo P, P the largest power of 2
 * up to 4 KiB that divides the rows' strides in bytes (ldb's and ldc's).
 * The core matches a load to the stores before it by the low 12 bits of
 * their addresses, and with rows of B and C each the same modulo 4 KiB
 * (BERT's and GPT-2's 3072 columns), the store of C at column j of a
 * strip and the loads of B at column j + 16 d of strips soon after, d a
 * few strips, would match when C lies d lines past B: every load of B
 * then waits for such a store. Walking the strips back puts those loads
 * before the stores. The order changes no sum. One thread, 8 products
 * 7 x 768 @ 768 x 3072 (C in the arena, 64 bytes past a page, as
 * bench/models/common.py's temp; B 0-4032 bytes past one, the loaded
 * 2-core Zen 4), CPU-time minima of 20 calls, forward: 7.2, 8.6, 5.1,
 * 4.9, 3.0 ms with B 0, 16, 64, 128, 256 bytes past a page; backward:
 * 3.1, 4.1, 3.6, 7.0, 2.8; this choice at 16 bytes 8.4 -> 4.1-4.3 ms.
 * skinny_fn compiles both orders (a select of the order in the strip
 * loop cost 5%) and only for M > 1: one row of C matches few loads,
 * and backward was 1.1x slower for M = 1 at every offset (3.6 against
 * 3.0-3.3 ms; GPT-2's decoding step 1.04x). BERT at 7 tokens, weights
 * as arguments, one thread, 2 x 30 calls alternating with main's
 * build in one process (load 1.1): minimum 23.4-23.5 -> 17.8 ms. */
static LLVMValueRef skinny_reverse(Gemm *g, LLVMValueRef b, LLVMValueRef ldb, LLVMValueRef c,
                                   LLVMValueRef ldc) {
  CG *cg = g->cg;
  LLVMValueRef strides = LLVMBuildOr(g->b, LLVMBuildOr(g->b, ldb, ldc, ""),
                                     cg_i64(cg, 4096 / elem_bytes(g->p.e)), "");
  LLVMValueRef p2 = LLVMBuildAnd(g->b, strides, LLVMBuildNeg(g->b, strides, ""), "");
  p2 = LLVMBuildMul(g->b, p2, cg_i64(cg, elem_bytes(g->p.e)), "");
  LLVMValueRef bi = LLVMBuildPtrToInt(g->b, b, cg->t_i64, "");
  LLVMValueRef delta = LLVMBuildSub(g->b, LLVMBuildPtrToInt(g->b, c, cg->t_i64, ""), bi, "");
  delta = LLVMBuildAnd(g->b, delta, LLVMBuildSub(g->b, p2, cg_i64(cg, 1), ""), "");
  return LLVMBuildICmp(g->b, LLVMIntULT, delta, LLVMBuildUDiv(g->b, p2, cg_i64(cg, 4), ""), "rev");
}

/* The edge strip of the n < NR columns from j0 (skinny_columns' head
 * or tail, `tail`). Where the strips fold (skinny_folds) and the call
 * has NR columns or more, it reads B's NR columns from j0 (head) or up
 * to j0 + n (tail) unmasked, as one folded group, and stores only its
 * own n columns of C (STRIP_OVERLAP): its sums are a full strip's, so
 * the bits are the same; else B's loads are masked to the n columns and
 * the rows go in two groups (STRIP_EDGE). */
static void skinny_edge(Gemm *g, Micro *m, LLVMValueRef b, LLVMValueRef c, LLVMValueRef cols,
                        LLVMValueRef j0, LLVMValueRef n, LLVMValueRef kb, LLVMValueRef kend,
                        bool rev, bool tail) {
  CG *cg = g->cg;
  CgIf wide;
  bool over = skinny_folds(g);
  if (over) {
    LLVMValueRef nr = cg_i64(cg, g->p.nr);
    cg_if_begin(cg, &wide, LLVMBuildICmp(g->b, LLVMIntUGE, cols, nr, ""));
    LLVMValueRef jo = tail ? LLVMBuildSub(g->b, LLVMBuildAdd(g->b, j0, n, ""), nr, "") : j0;
    m->col0 = tail ? LLVMBuildSub(g->b, j0, jo, "") : NULL;
    m->cols = tail ? nr : n;
    skinny_strip(g, m, b, c, cols, jo, kb, kend, rev, STRIP_OVERLAP);
    m->col0 = NULL;
    cg_if_else(cg, &wide);
  }
  m->cols = n;
  skinny_strip(g, m, b, c, cols, j0, kb, kend, rev, STRIP_EDGE);
  if (over) cg_if_end(cg, &wide);
}

/* One block of rows [kb, kend) of B for skinny_fn: a head strip to B's
 * first line boundary (skinny_head), the full strips from the first
 * column on (or from the last, rev), and an edge strip of the columns
 * left (skinny_edge). */
static void skinny_columns(Gemm *g, Micro *m, LLVMValueRef b, LLVMValueRef c, LLVMValueRef cols,
                           LLVMValueRef kb, LLVMValueRef kend, bool rev) {
  CG *cg = g->cg;
  const GemmPlan *p = &g->p;
  CgLoop lj;
  LLVMValueRef head = skinny_head(g, b, cols);
  CgIf peel;
  cg_if_begin(cg, &peel, LLVMBuildICmp(g->b, LLVMIntNE, head, cg_i64(cg, 0), ""));
  skinny_edge(g, m, b, c, cols, cg_i64(cg, 0), head, kb, kend, rev, false);
  cg_if_end(cg, &peel);
  LLVMValueRef nfull = LLVMBuildAdd(
      g->b, head,
      LLVMBuildMul(g->b,
                   LLVMBuildUDiv(g->b, LLVMBuildSub(g->b, cols, head, ""), cg_i64(cg, p->nr), ""),
                   cg_i64(cg, p->nr), ""),
      "");
  LLVMValueRef j = cg_loop_step(cg, &lj, head, nfull, p->nr);
  if (rev) { /* nfull - NR - (j - head) */
    LLVMValueRef jn = LLVMBuildAdd(g->b, j, cg_i64(cg, p->nr), "");
    j = LLVMBuildSub(g->b, LLVMBuildAdd(g->b, nfull, head, ""), jn, "j");
  }
  skinny_strip(g, m, b, c, cols, j, kb, kend, rev, STRIP_FULL);
  cg_loop_end(cg, &lj);
  CgIf tail;
  cg_if_begin(cg, &tail, LLVMBuildICmp(g->b, LLVMIntULT, nfull, cols, ""));
  skinny_edge(g, m, b, c, cols, nfull, LLVMBuildSub(g->b, cols, nfull, ""), kb, kend, rev, true);
  cg_if_end(cg, &tail);
}

/* A(0:M, kb:kend) into a stack tile, k-major (M a k), read by the
 * block's strips as a packed Ap: where the strips fold (skinny_folds),
 * a k's broadcasts of A are then at fixed offsets from one pointer,
 * where the 7 rows in place took 6-8 more instructions a k (27 against
 * 33) to form their addresses, and the out-of-order window, which waits
 * on B's loads, holds more k's. BERT at 7 tokens (weights as arguments,
 * bench/ab.py --fifo, 3 x 30 calls, load 5.7-10, Zen 3): one thread
 * 0.946-0.987 (weights on lines) and 0.967-1.000 (--offset=16), two
 * 0.957-0.995 and 0.965-0.988; the same values multiplied: same bits.
 * Not kept: each A(r, k) stored as VL copies, the strip's two vectors of
 * B in registers and all 14 multiply-adds reading A's copies from the
 * tile (no broadcasts left in the k loop; same bits): one thread,
 * --offset=16, 2 x 20 calls, load 2-5, 1.00-1.05x slower with --fifo
 * and 1.03-1.05x without; 24 products 7 x 768 @ 768 x 768 of one B from
 * the cache 1.01-1.04x (3 x 40 calls, --fifo). */
static void skinny_pack_a(Gemm *g, Micro *m, LLVMValueRef kb, LLVMValueRef kend) {
  CG *cg = g->cg;
  int mr = g->p.mr;
  LLVMValueRef tile = cg_entry_alloca(cg, LLVMArrayType(g->t, (unsigned)(SKINNY_KB * mr)), "apk");
  CgLoop lk;
  LLVMValueRef k = cg_loop_begin(cg, &lk, kb, kend);
  LLVMValueRef at = LLVMBuildMul(g->b, LLVMBuildSub(g->b, k, kb, ""), cg_i64(cg, mr), "");
  for (int r = 0; r < mr; r++) {
    LLVMValueRef x = LLVMBuildLoad2(g->b, g->t, cg_gep(cg, g->t, m->arow[r], k), "");
    LLVMBuildStore(g->b, x, cg_gep(cg, g->t, tile, LLVMBuildAdd(g->b, at, cg_i64(cg, r), "")));
  }
  cg_loop_end(cg, &lk);
  m->ind = false;
  m->ap = tile;
  m->apr = mr;
  m->ak0 = kb;
}

/* The blocks of KB rows of B for skinny_fn (skinny_columns): the first
 * block's sums are stored to C, the others' added to it; with `fresh`
 * (an i1, else NULL) the first's are stored only where fresh holds
 * (skinny_far's rows left over, added to the runs' sums). */
static void skinny_blocks(Gemm *g, Micro *m, LLVMValueRef b, LLVMValueRef c, LLVMValueRef K,
                          LLVMValueRef cols, bool rev, LLVMValueRef fresh) {
  CG *cg = g->cg;
  /* One block even when K = 0, so that C is written (an empty sum). */
  LLVMValueRef kmax = LLVMBuildSelect(
      g->b, LLVMBuildICmp(g->b, LLVMIntEQ, K, cg_i64(cg, 0), ""), cg_i64(cg, 1), K, "");
  CgLoop lk;
  LLVMValueRef kb = cg_loop_step(cg, &lk, cg_i64(cg, 0), kmax, SKINNY_KB);
  LLVMValueRef kend = cg_min_i64(cg, LLVMBuildAdd(g->b, kb, cg_i64(cg, SKINNY_KB), ""), K);
  m->first = LLVMBuildICmp(g->b, LLVMIntEQ, kb, cg_i64(cg, 0), "first");
  if (fresh) m->first = LLVMBuildAnd(g->b, fresh, m->first, "");
  Micro pm = *m;
  if (skinny_folds(g)) skinny_pack_a(g, &pm, kb, kend);
  skinny_columns(g, &pm, b, c, cols, kb, kend, rev);
  cg_loop_end(cg, &lk);
}

/* M = 1 on AVX2: the K rows as SKINNY_FAR_STREAMS runs of seg = K / S
 * rows each (S = SKINNY_FAR_STREAMS), and block t the t-th row of every
 * run (rows t, seg + t, 2 seg + t, ...), its strips as skinny_columns
 * (C's accumulators in registers over the S rows, added to C); the K % S
 * rows left after the runs go last as skinny_blocks. Each run is read
 * row after row, so B streams as S long sequential reads, as the dots
 * path's far apart streams do, where blocks of 16 adjacent rows read 16
 * streams of one row each (3 or 12 KiB at GPT-2's 768 and 3072 columns)
 * that the prefetchers started over on every block. No software
 * prefetch: the S streams are long enough for the hardware's. */
static void skinny_far(Gemm *g, Micro *m, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c,
                       LLVMValueRef K, LLVMValueRef cols) {
  CG *cg = g->cg;
  LLVMValueRef streams = cg_i64(cg, SKINNY_FAR_STREAMS);
  LLVMValueRef seg = LLVMBuildUDiv(g->b, K, streams, "seg");
  LLVMValueRef ldb = m->ldb, zero = cg_i64(cg, 0);
  Micro f = *m;
  f.ldb = LLVMBuildMul(g->b, seg, ldb, "");
  f.astride = seg;
  CgLoop lt;
  LLVMValueRef t = cg_loop_begin(cg, &lt, zero, seg);
  f.first = LLVMBuildICmp(g->b, LLVMIntEQ, t, zero, "first");
  f.arow[0] = cg_gep(cg, g->t, a, t);
  skinny_columns(g, &f, cg_gep(cg, g->t, b, LLVMBuildMul(g->b, t, ldb, "")), c, cols, zero,
                 streams, false);
  cg_loop_end(cg, &lt);
  LLVMValueRef done = LLVMBuildMul(g->b, seg, streams, "");
  LLVMValueRef left = LLVMBuildSub(g->b, K, done, "");
  LLVMValueRef none = LLVMBuildICmp(g->b, LLVMIntEQ, seg, zero, "");
  CgIf rest;
  LLVMValueRef some = LLVMBuildICmp(g->b, LLVMIntNE, left, zero, "");
  cg_if_begin(cg, &rest, LLVMBuildOr(g->b, none, some, ""));
  m->arow[0] = cg_gep(cg, g->t, a, done);
  skinny_blocks(g, m, cg_gep(cg, g->t, b, LLVMBuildMul(g->b, done, ldb, "")), c, left, cols,
                false, none);
  cg_if_end(cg, &rest);
}

/* skinny: C[0:M, 0:cols) = A[0:M, 0:k) * B[0:k, 0:cols), B(k, n) =
 * b[k*ldb + n] (zeros when k = 0). */
static LLVMValueRef skinny_fn(Gemm *g, LLVMTypeRef *ty) {
  CG *cg = g->cg;
  const GemmPlan *p = &g->p;
  CgFnState saved;
  bool fresh;
  LLVMValueRef f = skinny_helper(g, "skinny", ty, &saved, &fresh);
  if (!fresh) return f;
  /* C's rows are loaded before any is stored: when they are a multiple
   * of 4 KiB apart (BERT's and GPT-2's 7 x 3072) the load of a row
   * right after the store to the row above matches it in the address
   * bits the core checks for store forwarding, and waits for it. 8
   * products 7 x 768 @ 768 x 3072 as arguments 16 bytes past a line,
   * one thread, CPU-time minimum of 40 calls, three runs alternating
   * with the old order (load 2.2, the shared 2-core Zen 4): 4.69-4.78 ->
   * 3.55-3.67 ms (N = 3136, no such stride: 3.3-3.4); BERT at 7 tokens,
   * weights as arguments, 2 x 30 alternating calls in one process:
   * minimum 0.985 and 0.988 of the old, bits identical. */
  Micro m = {.ind = true, .rows = cg_i64(cg, p->mr), .c_loads_first = true,
             .pf_lines = nr_lines(p)};
  LLVMValueRef a = LLVMGetParam(f, 0), lda = LLVMGetParam(f, 1), b = LLVMGetParam(f, 2);
  LLVMValueRef c = LLVMGetParam(f, 4), K = LLVMGetParam(f, 6), cols = LLVMGetParam(f, 7);
  m.ldb = LLVMGetParam(f, 3);
  m.ldc = LLVMGetParam(f, 5);
  for (int r = 0; r < p->mr; r++)
    m.arow[r] = cg_gep(cg, g->t, a, LLVMBuildMul(g->b, cg_i64(cg, r), lda, ""));
  if (p->mr > 1) {
    CgIf dir;
    cg_if_begin(cg, &dir, skinny_reverse(g, b, m.ldb, c, m.ldc));
    skinny_blocks(g, &m, b, c, K, cols, true, NULL);
    cg_if_else(cg, &dir);
    skinny_blocks(g, &m, b, c, K, cols, false, NULL);
    cg_if_end(cg, &dir);
  } else if (skinny_far_fits(cg, p->mr)) {
    skinny_far(g, &m, a, b, c, K, cols);
  } else {
    skinny_blocks(g, &m, b, c, K, cols, false, NULL);
  }
  LLVMBuildRetVoid(cg->b);
  cg_fn_end(cg);
  cg_restore_fn(cg, &saved);
  return f;
}

/* The dots path: with B contiguous along K (`x @ transpose(W)`, the tied
 * output projection of a language model), each result element is a dot
 * product of two contiguous rows, A(m, :) and B(:, n). A block of NB
 * columns accumulates M x NB vector partial sums over K, then sums each
 * vector's lanes. The NB columns of a block lie a call's columns / NB
 * apart (Dots.apart), so that each of its NB rows of B continues where
 * the same row of the block before ended: NB long sequential streams, one
 * through each NB-th of the call's rows, instead of NB rows side by side
 * (3 KiB each at K = 768) followed by the next NB. Each column's sum is
 * the same (one vector chain over K, then its lanes): the bits do not
 * change. A read of BERT's 340 MB of weights (bench/streams.c, the loaded
 * 2-core Zen 4, 11 rounds, best GB/s at 1 and 2 threads): 8 rows side by
 * side as before, the next block's rows prefetched, 23.0 and 43.5; 8 far
 * apart streams fetched 1 KiB ahead 30.2 and 54.3 (one stream 22.8 and
 * 41.7). On the tied output projection alone (1 x 768 @ 768 x 50257,
 * 154 MB, weights as an argument, bench/ab.py against the old order,
 * SCHED_FIFO, load 3-3.7, paired medians of 3 rounds of 40 calls): one
 * thread 0.906-0.914 (5.48 against 6.01 ms), two 0.950-0.955 (3.01
 * against 3.13). Unrolling the k loop 2 or 4 times (each stream read 128
 * or 256 bytes a turn): 0.89-0.91 and 0.95-0.98, no better. Not kept
 * before: a masked first vector up to B's first line boundary, so that
 * the others each lie in one line (the skinny path's head strip), with B
 * 16 bytes past a line as numpy places it: as fast (150 alternating
 * calls: minima 0.98 and 1.00 of the old, medians 1.00). */
typedef struct Dots {
  LLVMValueRef a[MAX_MR], b, ldb, K;
  LLVMValueRef apart; /* the columns between the NB columns of a block */
  LLVMValueRef ahead; /* elements from a vector of B to the one fetched */
} Dots;

/* A full step prefetches each row's vector DOTS_PREFETCH_BYTES on along
 * its stream into L2 (past a row's end: the next row's start, the same
 * stream's next when the rows are contiguous; with rows apart, ldb > K,
 * and shorter than that, the same k of the stream's row as many rows on,
 * dots_ahead); with AVX2's 32-byte vectors DOTS_PREFETCH_BYTES_AVX2, the
 * same 16 steps ahead. Measured on AVX-512 (Zen 4), on the output projection
 * above with the k loop unrolled 4 times (not kept: no faster): 2048
 * bytes 0.93-0.94 of the old order with one thread and 0.93 with two,
 * 512 bytes 0.93-0.94 and 0.94-0.95, against 0.89-0.90 and 0.97-0.98
 * for 1024; kept for the one thread's figure. On AVX2 (the 2-core Zen 3,
 * 1 x 768 @ 768 x 50257^T alone, 154 MB as an argument, bench/ab.py
 * under SCHED_FIFO, load 8-10, paired medians of 2 x 40 calls): 512
 * bytes 0.87-0.90 of 1024 with one thread, 0.88 with two; 256 bytes
 * 1.01x and 384 0.97-1.02 of 512; nothing fetched 0.91 and 0.92-0.94 of
 * 1024; 4 or 6 streams (NB) instead of 8 no faster. */
enum { DOTS_PREFETCH_BYTES = 1024, DOTS_PREFETCH_BYTES_AVX2 = 512 };

/* Dots.ahead: DOTS_PREFETCH_BYTES (or _AVX2) in elements, or when B's
 * rows lie apart (ldb > K, as a KV cache [T, H, D] read per head) and are
 * shorter than that, as many whole rows on as it spans: ahead along such
 * a row was another head's columns, never read by the call (q . k^T, 12
 * heads of 64 over 32768 positions, 100 MB, one thread, medians of 4
 * interleaved rounds: 9.4-10.2 GB/s, against 12.0-12.9 fetching the next
 * block's rows as before the streams, and 18.5-19.8 rows on). K = 0 runs
 * no step. */
static LLVMValueRef dots_ahead(Gemm *g, LLVMValueRef ldb, LLVMValueRef K) {
  CG *cg = g->cg;
  int bytes = cg_vector_bytes(cg) == 32 ? DOTS_PREFETCH_BYTES_AVX2 : DOTS_PREFETCH_BYTES;
  LLVMValueRef dist = cg_i64(cg, bytes / elem_bytes(g->p.e));
  LLVMValueRef k1 = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, K, cg_i64(cg, 0), ""),
                                    cg_i64(cg, 1), K, "");
  LLVMValueRef rows = LLVMBuildMul(g->b, LLVMBuildUDiv(g->b, dist, k1, ""), ldb, "");
  LLVMValueRef short_k = LLVMBuildICmp(g->b, LLVMIntULT, K, dist, "");
  LLVMValueRef apart = LLVMBuildAnd(g->b, LLVMBuildICmp(g->b, LLVMIntNE, ldb, K, ""), short_k, "");
  return LLVMBuildSelect(g->b, apart, rows, dist, "ahead");
}

/* acc[m*nb + j] += A(m, k:k+VL) * B(k:k+VL, n0 + j*apart); masked lanes
 * by mask (the last partial vector of K) or none. */
static void dots_step(Gemm *g, const Dots *d, LLVMValueRef n0, int nb, LLVMValueRef k,
                      LLVMValueRef mask, LLVMValueRef *acc) {
  CG *cg = g->cg;
  const GemmPlan *p = &g->p;
  unsigned ea = (unsigned)elem_bytes(p->e);
  LLVMValueRef av[MAX_MR];
  for (int r = 0; r < p->mr; r++) {
    LLVMValueRef ptr = cg_gep(cg, g->t, d->a[r], k);
    av[r] = mask ? masked_load(g, ptr, mask) : vload(g, ptr, ea);
  }
  for (int j = 0; j < nb; j++) {
    LLVMValueRef col = LLVMBuildAdd(g->b, n0, LLVMBuildMul(g->b, cg_i64(cg, j), d->apart, ""), "");
    LLVMValueRef row = LLVMBuildMul(g->b, col, d->ldb, "");
    LLVMValueRef ptr = cg_gep(cg, g->t, d->b, LLVMBuildAdd(g->b, row, k, ""));
    LLVMValueRef bv = mask ? masked_load(g, ptr, mask) : vload(g, ptr, ea);
    if (!mask) gemm_prefetch(g, ptr, d->ahead, 0, 2);
    for (int r = 0; r < p->mr; r++) {
      LLVMValueRef args[3] = {av[r], bv, acc[r * nb + j]};
      acc[r * nb + j] = cg_intrinsic(g->b, "llvm.fmuladd", &g->vt, 1, args, 3);
    }
  }
}

/* The blocks of nb columns n0 + j*apart, j < nb, of C for n0 in [lo, hi). */
static void dots_blocks(Gemm *g, const Dots *d, LLVMValueRef c, LLVMValueRef ldc,
                        LLVMValueRef lo, LLVMValueRef hi, int nb) {
  CG *cg = g->cg;
  const GemmPlan *p = &g->p;
  int na = p->mr * nb;
  CgLoop ln;
  LLVMValueRef n0 = cg_loop_begin(cg, &ln, lo, hi);
  LLVMValueRef acc[na], slots[na];
  for (int i = 0; i < na; i++) {
    slots[i] = cg_entry_alloca(cg, g->vt, "dacc");
    LLVMBuildStore(g->b, LLVMConstNull(g->vt), slots[i]);
  }
  /* Full vectors of K, then the partial one under a mask. The partial
   * sums live in allocas across the loop; mem2reg makes them registers. */
  LLVMValueRef kfull = LLVMBuildMul(
      g->b, LLVMBuildUDiv(g->b, d->K, cg_i64(cg, p->vl), ""), cg_i64(cg, p->vl), "");
  CgLoop lk;
  LLVMValueRef k = cg_loop_step(cg, &lk, cg_i64(cg, 0), kfull, p->vl);
  for (int i = 0; i < na; i++) acc[i] = LLVMBuildLoad2(g->b, g->vt, slots[i], "");
  dots_step(g, d, n0, nb, k, NULL, acc);
  for (int i = 0; i < na; i++) LLVMBuildStore(g->b, acc[i], slots[i]);
  cg_loop_end(cg, &lk);
  CgIf tail;
  cg_if_begin(cg, &tail, LLVMBuildICmp(g->b, LLVMIntULT, kfull, d->K, ""));
  for (int i = 0; i < na; i++) acc[i] = LLVMBuildLoad2(g->b, g->vt, slots[i], "");
  dots_step(g, d, n0, nb, kfull, col_mask(g, LLVMBuildSub(g->b, d->K, kfull, ""), 0), acc);
  for (int i = 0; i < na; i++) LLVMBuildStore(g->b, acc[i], slots[i]);
  cg_if_end(cg, &tail);
  LLVMValueRef zero = LLVMConstReal(g->t, -0.0);
  for (int r = 0; r < p->mr; r++)
    for (int j = 0; j < nb; j++) {
      LLVMValueRef v = LLVMBuildLoad2(g->b, g->vt, slots[r * nb + j], "");
      LLVMValueRef args[2] = {zero, v};
      LLVMValueRef sum = cg_intrinsic(g->b, "llvm.vector.reduce.fadd", &g->vt, 1, args, 2);
      LLVMSetFastMathFlags(sum, LLVMFastMathAllowReassoc);
      LLVMValueRef col =
          LLVMBuildAdd(g->b, n0, LLVMBuildMul(g->b, cg_i64(cg, j), d->apart, ""), "");
      LLVMValueRef at = LLVMBuildAdd(g->b, LLVMBuildMul(g->b, cg_i64(cg, r), ldc, ""), col, "");
      LLVMBuildStore(g->b, sum, cg_gep(cg, g->t, c, at));
    }
  cg_loop_end(cg, &ln);
}

/* dots: the same with B(k, n) = b[n*ldb + k] (NR is NB). */
static LLVMValueRef dots_fn(Gemm *g, LLVMTypeRef *ty) {
  CG *cg = g->cg;
  const GemmPlan *p = &g->p;
  CgFnState saved;
  bool fresh;
  LLVMValueRef f = skinny_helper(g, "dots", ty, &saved, &fresh);
  if (!fresh) return f;
  Dots d = {.b = LLVMGetParam(f, 2), .ldb = LLVMGetParam(f, 3), .K = LLVMGetParam(f, 6)};
  LLVMValueRef a = LLVMGetParam(f, 0), lda = LLVMGetParam(f, 1);
  LLVMValueRef c = LLVMGetParam(f, 4), ldc = LLVMGetParam(f, 5), cols = LLVMGetParam(f, 7);
  for (int r = 0; r < p->mr; r++)
    d.a[r] = cg_gep(cg, g->t, a, LLVMBuildMul(g->b, cg_i64(cg, r), lda, ""));
  d.apart = LLVMBuildUDiv(g->b, cols, cg_i64(cg, p->nr), "");
  d.ahead = dots_ahead(g, d.ldb, d.K);
  LLVMValueRef nfull = LLVMBuildMul(g->b, d.apart, cg_i64(cg, p->nr), "");
  dots_blocks(g, &d, c, ldc, cg_i64(cg, 0), d.apart, p->nr);
  if (p->nr > 1) dots_blocks(g, &d, c, ldc, nfull, cols, 1);
  LLVMBuildRetVoid(cg->b);
  cg_fn_end(cg);
  cg_restore_fn(cg, &saved);
  return f;
}

/* The packed skinny path: B is a constant that the layout pass stored in
 * panels of the blocked tile's NR columns with one K slice (GemmPacking,
 * kc = K): a panel is its K rows of NR elements, one after the other, and
 * the panels of a call's columns are one contiguous run of memory, which
 * the call reads as ONE sequential stream (on AVX2 two: below) where the in-place path (above)
 * reads SKINNY_KB rows at once. NR x M accumulators may not fit the
 * registers (AVX-512: NR = 64 f32 is 4 zmm; 6 rows of 4 plus 4 of B and a
 * broadcast take 29 of 32): the rows then go in groups (group_rows).
 * A panel is summed in blocks of SKINNY_KB of its rows: each group runs
 * over the block, the first from memory, the next from L1, its
 * accumulators loaded from a tile on the stack and stored back (volatile,
 * so that LLVM does not promote every group's accumulators to registers
 * at once and spill in the k loop). A pass per group over the whole panel
 * instead (the next from L2) left memory idle while the later groups
 * computed: BERT at 7 tokens, 2 groups, one thread, 18.3-19.6 ms against
 * 14.0-15.2 for the in-place path. C is written once per panel. Each
 * element of C is one chain of fused multiply-adds over K in order, which
 * the threads' split of the columns does not change; the in-place path
 * sums per block of rows, so a program compiled for one thread (in place)
 * and for more (packed) may differ in the last bits of such products.
 * Summing as the in-place path does (each block's chains from zero, added
 * to the tile) was much slower here, for no reason the code shows (the
 * same k loops): the 4 layers below, 2 threads, 600 alternating calls in
 * one process, medians 5.2-7.9 ms against 3.7-3.8; and starting the
 * in-place path's chains from C instead cost it 10% (skinny_strip).
 *
 * Which is faster depends on the threads (the layout pass packs only for
 * more than one, dot.c's cg_dot_b_packing, or on AVX2 for one too:
 * serial_packed in the tile table): 4 layers of 7 x 768 @ 768 x
 * 3072 @ 3072 x 768 (75 MB of constants), the loaded 2-core Zen 4,
 * minimum of 5 rounds of 60 calls each: with 2 threads 2.09 ms packed
 * (36 GB/s, the triad's 38) against 3.28 ms in place (23 GB/s), with one
 * 3.36-3.83 ms packed against 2.86-3.14 in place: one core's single
 * stream keeps fewer misses in flight than its 16 streams of rows, two
 * cores' 32 streams fall short of the bandwidth that two streams reach.
 * 600 calls alternating with the in-place build in one process: minimum
 * 1.75 ms against 2.99-3.13, medians within 10% under a load of 4.5 on
 * the 2 cores (the packed path needs both). BERT at 7 tokens with 2
 * threads (bench/compare.py, load 2): 14.9 ms against 16.6 (ORT 17.9 and
 * 16.1 in the same runs).
 * Blocks of 4 KiB (16 rows of 64 f32) with the first group fetching 1 KiB
 * ahead into L2 beat blocks of 16 KiB (2.67 ms with 2 threads, 4.69 with
 * one) and fetching a block ahead; summing K in 2 to 16 interleaved
 * segments (more streams) was slower with one thread; two panels at a
 * time, their blocks in turn (two streams, each with its own tile, the
 * same sums), 1.11x slower with 2 threads (BERT at 7 tokens, 200 rounds
 * of alternating calls under SCHED_FIFO, load 3-3.5, paired median),
 * though a plain read with 2 streams a thread outran one stream a
 * thread by 1.7-1.8x in the same minutes. Again with bench/streams.c's
 * read, where 2-4 streams a thread in turns of 4 KiB with 7 FMAs a
 * vector (M = 7) read 1.15-1.2x faster than one at 1 and 2 threads: a
 * call's panels 2 and 3 at a time, a block of each in turn (each its
 * own tile, the same sums and bits), 1.03-1.04x and 1.02x slower (BERT
 * at 7 tokens as constants, 2 threads, bench/ab.py under SCHED_FIFO,
 * load 2-3, paired medians of 3 x 30-40 calls); 2 at a time in turns of
 * 32 rows 1.16x; one at a time: blocks of 32 rows 1.05x, fetched 2 and
 * 4 KiB ahead 1.04x and 1.12x, not fetched at all 0.99-1.00, every
 * other line fetched 0.98-0.99 (noise), the 7 rows in one group (32
 * zmm registers) 1.07x; in place with the K split instead of packed
 * 1.14-1.18x. perf (cpu-clock) put 88% of the calling process's samples
 * in this kernel, spread over its loads and FMAs: at 7 rows each line of
 * B takes 7 zmm FMAs, one a cycle on Zen 4, so a core cannot go much
 * past 30 GB/s however B is fetched.
 * On AVX2 (Zen 3, NR = 24 f32: a panel's row is a line and a half) the
 * kernel waits on its one stream instead (perf: the first group's loads
 * of B take most samples; without the prefetch 1.17x slower): a call's
 * panels SKINNY_PACKED_STREAMS_AVX2 at a time, a block of each in turn
 * (each its own tile, the same sums and bits), fetched 2 KiB ahead. BERT
 * at 7 tokens as constants against main's build, bench/ab.py --fifo,
 * load 5-8 with other builds beside it, paired medians of 3 x 30 calls:
 * 3 panels 0.89-0.92 with one thread, 0.95-0.96 with two; 2 panels
 * 0.90-0.95 and 0.94-0.96; 4 panels 0.90-1.02 (one thread); 2 KiB ahead
 * alone 0.97-0.99 and 0.94-0.95 (1, 3 and 4 KiB: 1.00, 0.97-0.99,
 * 0.99-1.00); blocks of 32 rows (2 panels) 1.03-1.10. With 3 panels,
 * against 2 KiB (the same setup, load 6-7): 1 KiB ahead 1.08-1.09x
 * slower with one thread, 0.99-1.02 with two; 4 KiB 1.06-1.08x and
 * 1.04-1.05x. Then 2 panels against 3 (load 5.5-6.5, twice): 0.97-1.00
 * with one thread, 0.94-0.98 with two: 2 kept.
 * Tried after, none kept (2 panels, the same setup, load 1.2-12, B/A
 * ranges of the rounds at one thread unless said): one fetch per line
 * (6 per 4 k, not micro_step's 8) 1.01-1.04x, 1.03-1.12x with two
 * threads; every other line 1.54-1.66x; the second group fetching half
 * the lines (the fetches spread over both groups) 1.11-1.18x; a second
 * fetch of each row 64, 256 or 512 bytes nearer, or the second group
 * fetching every line again, 0.96-1.06 (noise); locality t0 or nta for
 * t1 0.99-1.02 (the same on Zen 3); 4 and 8 KiB ahead 1.00-1.03 and
 * 1.02-1.05; 4 and 8 panels unfetched 1.33-1.41x and 1.59-1.74x, 4
 * panels 1 KiB ahead 1.10-1.15x; the block's k loop in steps of 16, 8,
 * 2, 1 k's (not 4) 1.09-1.12x, 1.00-1.03, 0.98-1.01, 0.98-1.02. The
 * kernel reads B about as fast as one core reads memory on this VM: a
 * plain AVX2 read of 340 MB (C, no FMAs, 1-8 streams) 13-19 GB/s, 10-14
 * fetched 2 KiB ahead; BERT's fastest calls 17.3-17.5 ms (19.5 GB/s),
 * its medians 22-30 ms with the other helpers' load; with B in the
 * caches (shloc bench, 7 x 768 @ 768 x 96 or 3072 as constants) the
 * kernel runs 79-80 GFLOP/s, from memory (12 such 768 x 3072) 40-48. */
enum { SKINNY_PACKED_PREFETCH_BYTES = 1024, SKINNY_PACKED_PREFETCH_BYTES_AVX2 = 2048 };
enum { SKINNY_PACKED_STREAMS_AVX2 = 2 };

/* The packed path's state for one panel: the tile, the A rows, the
 * panel's B and C and the call's columns. */
typedef struct Packed {
  LLVMValueRef tile, arow[MAX_MR], bp, c, j0, c0, c1;
} Packed;

/* Tile vector i (volatile: see above) loaded, or stored from x. */
static LLVMValueRef packed_tile(Gemm *g, const Packed *pk, int i, LLVMValueRef x) {
  LLVMValueRef ptr = cg_gep(g->cg, g->vt, pk->tile, cg_i64(g->cg, i));
  LLVMValueRef v = x ? LLVMBuildStore(g->b, x, ptr) : LLVMBuildLoad2(g->b, g->vt, ptr, "");
  LLVMSetVolatile(v, 1);
  return v;
}

/* h's MR rows from r0 over B rows [kb, kend) of the panel, their
 * accumulators loaded from the tile and stored back. */
static void packed_block(Gemm *h, Micro *m, const Packed *pk, int r0, LLVMValueRef kb,
                         LLVMValueRef kend) {
  CG *cg = h->cg;
  int nv = h->p.nv, na = h->p.mr * nv;
  for (int r = 0; r < h->p.mr; r++) m->arow[r] = pk->arow[r0 + r];
  m->bp = pk->bp;
  int bytes = cg_vector_bytes(cg) == 32 ? SKINNY_PACKED_PREFETCH_BYTES_AVX2
                                        : SKINNY_PACKED_PREFETCH_BYTES;
  LLVMValueRef ahead = cg_i64(cg, bytes / elem_bytes(h->p.e));
  m->pf = r0 ? NULL : LLVMBuildGEP2(h->b, h->t, pk->bp, &ahead, 1, "pf"); /* not inbounds */
  LLVMValueRef acc[na], k;
  for (int i = 0; i < na; i++) acc[i] = packed_tile(h, pk, r0 * nv + i, NULL);
  micro_loop(h, m, kb, kend, 4, acc, &k);
  micro_loop(h, m, k, kend, 1, acc, &k);
  for (int i = 0; i < na; i++) packed_tile(h, pk, r0 * nv + i, acc[i]);
}

/* Stores h's MR rows from r0 of the tile to C where they lie in
 * [c0, c1) (all of them when the panel does). */
static void packed_store(Gemm *h, Micro *m, const Packed *pk, int r0) {
  CG *cg = h->cg;
  int na = h->p.mr * h->p.nv;
  LLVMValueRef acc[na];
  for (int i = 0; i < na; i++) acc[i] = packed_tile(h, pk, r0 * h->p.nv + i, NULL);
  m->rows = cg_i64(cg, h->p.mr);
  LLVMValueRef row = LLVMBuildMul(h->b, cg_i64(cg, r0), m->ldc, "");
  m->c = cg_gep(cg, h->t, pk->c, LLVMBuildAdd(h->b, row, pk->j0, ""));
  LLVMValueRef lo = LLVMBuildSub(h->b, pk->c0, pk->j0, "");
  LLVMValueRef hi = LLVMBuildSub(h->b, pk->c1, pk->j0, "");
  LLVMValueRef to_end = LLVMBuildICmp(h->b, LLVMIntSGE, hi, cg_i64(cg, h->p.nr), "");
  LLVMValueRef from_0 = LLVMBuildICmp(h->b, LLVMIntSLE, lo, cg_i64(cg, 0), "");
  LLVMValueRef full = LLVMBuildAnd(h->b, from_0, to_end, "full");
  CgIf tile;
  cg_if_begin(cg, &tile, full);
  micro_store(h, m, acc, false);
  cg_if_else(cg, &tile);
  m->cols = hi;
  m->col0 = LLVMBuildSelect(h->b, LLVMBuildICmp(h->b, LLVMIntSLT, lo, cg_i64(cg, 0), ""),
                            cg_i64(cg, 0), lo, "");
  micro_store(h, m, acc, true);
  cg_if_end(cg, &tile);
}

/* The n panels at pk[j].bp: their tiles zeroed, summed over K in blocks,
 * a block of each panel in turn, group by group, then stored. */
static void packed_panels(Gemm *g, Micro *m, const Packed *pk, int n, LLVMValueRef K) {
  CG *cg = g->cg;
  const GemmPlan *p = &g->p;
  int ngroups = (int)((p->M + p->mr - 1) / p->mr);
  Gemm h[ngroups];
  for (int i = 0; i < ngroups; i++) {
    h[i] = *g;
    h[i].p.mr = (int)(p->M - i * p->mr < p->mr ? p->M - i * p->mr : p->mr);
  }
  for (int j = 0; j < n; j++)
    for (int i = 0; i < p->M * p->nv; i++) packed_tile(g, &pk[j], i, LLVMConstNull(g->vt));
  CgLoop lk;
  LLVMValueRef kb = cg_loop_step(cg, &lk, cg_i64(cg, 0), K, SKINNY_KB);
  LLVMValueRef kend = cg_min_i64(cg, LLVMBuildAdd(g->b, kb, cg_i64(cg, SKINNY_KB), ""), K);
  for (int j = 0; j < n; j++)
    for (int i = 0; i < ngroups; i++) packed_block(&h[i], m, &pk[j], i * p->mr, kb, kend);
  cg_loop_end(cg, &lk);
  for (int j = 0; j < n; j++)
    for (int i = 0; i < ngroups; i++) packed_store(&h[i], m, &pk[j], i * p->mr);
}

/* pk at panel jp: its first column and its B (b: the matrix's first
 * panel, each K x NR). */
static void packed_at(Gemm *g, Packed *pk, LLVMValueRef b, LLVMValueRef jp, LLVMValueRef K) {
  pk->j0 = LLVMBuildMul(g->b, jp, cg_i64(g->cg, g->p.nr), "j0");
  pk->bp = cg_gep(g->cg, g->t, b, LLVMBuildMul(g->b, pk->j0, K, ""));
}

/* Panels [first, first + n*q) of B at b, q = (last - first) / n, n at a
 * time: panels jp, jp + q, ... for jp in [first, first + q), each with
 * its own tile of pk->tile's n (SKINNY_PACKED_STREAMS_AVX2). Returns
 * first + n*q, where the panels left start. */
static LLVMValueRef packed_streams(Gemm *g, Micro *m, const Packed *pk, int n, LLVMValueRef b,
                                   LLVMValueRef first, LLVMValueRef last, LLVMValueRef K) {
  CG *cg = g->cg;
  Packed s[SKINNY_PACKED_STREAMS_AVX2];
  LLVMValueRef nn = cg_i64(cg, n);
  LLVMValueRef q = LLVMBuildUDiv(g->b, LLVMBuildSub(g->b, last, first, ""), nn, "q");
  CgLoop lp;
  LLVMValueRef jp = cg_loop_begin(cg, &lp, first, LLVMBuildAdd(g->b, first, q, ""));
  for (int j = 0; j < n; j++) {
    s[j] = *pk;
    s[j].tile = cg_gep(cg, g->vt, pk->tile, cg_i64(cg, j * g->p.M * g->p.nv));
    packed_at(g, &s[j], b, LLVMBuildAdd(g->b, jp, LLVMBuildMul(g->b, q, cg_i64(cg, j), ""), ""),
              K);
  }
  packed_panels(g, m, s, n, K);
  cg_loop_end(cg, &lp);
  return LLVMBuildAdd(g->b, first, LLVMBuildMul(g->b, q, nn, ""), "");
}

/* spacked: C[0:M, c0:c1) = A[0:M, 0:K) * B[0:K, c0:c1) with B packed
 * (b: the matrix's first panel), for the panels that [c0, c1) touches:
 * on AVX2 SKINNY_PACKED_STREAMS_AVX2 at a time, then the rest one by one. */
static LLVMValueRef packed_fn(Gemm *g, LLVMTypeRef *ty) {
  CG *cg = g->cg;
  const GemmPlan *p = &g->p;
  CgFnState saved;
  bool fresh;
  char kind[32]; /* the rows go in groups of MR: the function is M's */
  snprintf(kind, sizeof kind, "spacked%d", (int)p->M);
  LLVMValueRef f = skinny_helper(g, kind, ty, &saved, &fresh);
  if (!fresh) return f;
  LLVMValueRef a = LLVMGetParam(f, 0), lda = LLVMGetParam(f, 1), b = LLVMGetParam(f, 2);
  LLVMValueRef K = LLVMGetParam(f, 6), nr = cg_i64(cg, p->nr);
  int streams = cg_vector_bytes(cg) == 32 ? SKINNY_PACKED_STREAMS_AVX2 : 1;
  Packed pk = {.c0 = LLVMGetParam(f, 3), .c = LLVMGetParam(f, 4), .c1 = LLVMGetParam(f, 7)};
  pk.tile = cg_entry_alloca(cg, LLVMArrayType2(g->vt, (uint64_t)(streams * p->M * p->nv)),
                            "tile");
  Micro m = {.ind = true, .ldb = nr, .ldc = LLVMGetParam(f, 5),
             .pf_lines = nr_lines(p)};
  for (int r = 0; r < p->M; r++)
    pk.arow[r] = cg_gep(cg, g->t, a, LLVMBuildMul(g->b, cg_i64(cg, r), lda, ""));
  LLVMValueRef last = LLVMBuildUDiv(g->b, LLVMBuildAdd(g->b, pk.c1, cg_i64(cg, p->nr - 1), ""),
                                    nr, "");
  LLVMValueRef first = LLVMBuildUDiv(g->b, pk.c0, nr, "");
  if (streams > 1) first = packed_streams(g, &m, &pk, streams, b, first, last, K);
  CgLoop lp;
  LLVMValueRef jp = cg_loop_begin(cg, &lp, first, last);
  packed_at(g, &pk, b, jp, K);
  packed_panels(g, &m, &pk, 1, K);
  cg_loop_end(cg, &lp);
  LLVMBuildRetVoid(cg->b);
  cg_fn_end(cg);
  cg_restore_fn(cg, &saved);
  return f;
}

void gemm_plan_skinny_of(Gemm *g, const Value *b) {
  GemmPlan *p = &g->p;
  if (!b->packed) {
    gemm_plan_skinny(g);
    return;
  }
  p->kc = p->K; /* the plan's NR and NV are the tile's, as the layout pass packed */
  gemm_use_packed(g, b);
  p->mr = group_rows(g->cg, (int)p->M, p->nv);
}

/* Staging C: the head strip (skinny_head) puts B's loads on lines, and
 * when C lies at another offset within a line than B (numpy's weights 16
 * bytes past one, C in the line-aligned arena) every strip's stores of C
 * then straddle two lines. The kernel then computes into a copy of C in
 * the op's scratch placed at B's offset within a line, and the rows are
 * copied to C after. The copy sits SKINNY_STAGE_AWAY bytes past B modulo
 * 4 KiB: 43 lines, between a quarter and three quarters of the way
 * modulo every power of 2 from 128 bytes to 4 KiB, so that skinny_reverse
 * keeps the forward order and no store of C matches a load of B soon
 * after in the low 12 address bits, whatever the rows' strides. One
 * thread, weights as arguments 16 bytes past a page, C in the arena, CPU
 * time of calls alternating with main's build in one process (load
 * 4-6 on the shared 2-core Zen 4), minima: 8 products 7 x 768 @ 768 x
 * 3072 4.12-4.13 -> 3.10-3.28 ms (3.27-3.28 with the weights on lines);
 * 8 of 7 x 3072 @ 3072 x 768 0.96-0.97 of the old, 7 x 768 @ 768 x 768
 * 0.98; BERT at 7 tokens 0.86-0.91 (17.4-17.9 -> 14.9-16.1 ms), with two
 * threads (the K split's slots placed so) 0.87-0.90; with the weights
 * on lines 0.99-1.01, GPT-2's decoding step 0.99. Staged for M = 1 too,
 * the step was 1.06-1.09x slower. Only for M > 1 and rows of
 * IR_SKINNY_STAGE_MIN_BYTES or more (N = 256 f32: as fast). */
enum { SKINNY_STAGE_AWAY = 43 * 64 };

/* The scratch bytes a staged C takes: M x N and the 4 KiB it moves by. */
static int64_t skinny_stage_bytes(const GemmPlan *p) {
  return p->M * p->N * elem_bytes(p->e) + 4096;
}

/* base plus the bytes below 4 KiB that put it SKINNY_STAGE_AWAY past the
 * address baddr (B's, an i64) modulo 4 KiB, so at B's offset within a
 * line. */
static LLVMValueRef skinny_stage_at(Gemm *g, LLVMValueRef base, LLVMValueRef baddr) {
  CG *cg = g->cg;
  LLVMValueRef d =
      LLVMBuildSub(g->b, baddr, LLVMBuildPtrToInt(g->b, base, cg->t_i64, ""), "");
  d = LLVMBuildAnd(g->b, LLVMBuildAdd(g->b, d, cg_i64(cg, SKINNY_STAGE_AWAY), ""),
                   cg_i64(cg, 4095), "");
  return cg_gep(cg, cg->t_i8, base, d);
}

/* Whether g's in-place skinny path stages C in scratch_bytes of scratch
 * (not in the symbolic entry's kernels, dyndims.c's, which have their
 * own generator and scratch, not the op's planned one). */
static bool skinny_stages(const Gemm *g, int64_t scratch_bytes) {
  const GemmPlan *p = &g->p;
  return !g->scratch && !g->epi_gen && !p->skinny_dots && p->M >= 2 && p->M != GEMM_DYN &&
         p->N != GEMM_DYN && p->N * elem_bytes(p->e) >= IR_SKINNY_STAGE_MIN_BYTES &&
         scratch_bytes >= skinny_stage_bytes(p);
}

/* C[0:M, c0:c1) = S[0:M, c0:c1), both of rows N apart. */
static void skinny_copy_rows(Gemm *g, LLVMValueRef c, LLVMValueRef s, LLVMValueRef c0,
                             LLVMValueRef c1) {
  CG *cg = g->cg;
  const GemmPlan *p = &g->p;
  int eb = elem_bytes(p->e);
  LLVMValueRef bytes = LLVMBuildMul(g->b, LLVMBuildSub(g->b, c1, c0, ""), cg_i64(cg, eb), "");
  for (int r = 0; r < p->mr; r++) {
    LLVMValueRef at = LLVMBuildAdd(g->b, LLVMBuildMul(g->b, cg_i64(cg, r), p->v.N, ""), c0, "");
    LLVMValueRef from = cg_gep(cg, g->t, s, at);
    LLVMBuildMemCpy(g->b, cg_gep(cg, g->t, c, at), eb, from, eb, bytes);
  }
}

void gemm_skinny(Gemm *g, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c,
                 LLVMValueRef row0, LLVMValueRef c0, LLVMValueRef c1) {
  CG *cg = g->cg;
  const GemmPlan *p = &g->p;
  LLVMTypeRef ty;
  LLVMValueRef args[8] = {a, p->v.sam, b, c0, c, p->v.N, p->v.K, c1};
  if (g->packed) {
    LLVMValueRef fn = packed_fn(g, &ty);
    LLVMBuildCall2(g->b, ty, fn, args, 8, "");
    gemm_epilogue(g, row0, p->v.M, c0, c1);
    return;
  }
  LLVMValueRef fn = p->skinny_dots ? dots_fn(g, &ty) : skinny_fn(g, &ty);
  args[2] = cg_gep(cg, g->t, b, LLVMBuildMul(g->b, c0, p->v.sbn, ""));
  args[3] = p->skinny_dots ? p->v.sbn : p->v.sbk;
  args[4] = cg_gep(cg, g->t, c, c0);
  args[7] = LLVMBuildSub(g->b, c1, c0, "");
  /* Staged in the calling thread's slice of the scratch: threads that
   * split the batches stage the same columns of other batches. */
  bool stage = skinny_stages(g, g->op->scratch_bytes);
  CgIf off;
  if (stage) {
    LLVMValueRef baddr = LLVMBuildPtrToInt(g->b, b, cg->t_i64, "");
    LLVMValueRef d =
        LLVMBuildSub(g->b, baddr, LLVMBuildPtrToInt(g->b, c, cg->t_i64, ""), "");
    d = LLVMBuildAnd(g->b, d, cg_i64(cg, 63), "");
    cg_if_begin(cg, &off, LLVMBuildICmp(g->b, LLVMIntNE, d, cg_i64(cg, 0), "staged"));
    LLVMValueRef base = cg_scratch(cg, g->op, skinny_stage_bytes(p));
    LLVMValueRef s = skinny_stage_at(g, base, baddr);
    LLVMValueRef sargs[8] = {args[0], args[1], args[2], args[3], cg_gep(cg, g->t, s, c0),
                             args[5], args[6], args[7]};
    LLVMBuildCall2(g->b, ty, fn, sargs, 8, "");
    skinny_copy_rows(g, c, s, c0, c1);
    cg_if_else(cg, &off);
  }
  LLVMBuildCall2(g->b, ty, fn, args, 8, "");
  if (stage) cg_if_end(cg, &off);
  gemm_epilogue(g, row0, p->v.M, c0, c1);
}

/* ------------------------------------------------------------------------ */
/* Packing                                                                   */

/* pack_strided when src is contiguous along j (sj = 1: the rows of an A
 * whose M is its inner dimension, attention's v as p·v's lhs, or the
 * per-head layout read back by the output projection): for each k, the
 * ld elements as vectors, loaded masked to the first nvalid (zeros
 * after) and stored masked to ld (MR = 6 of 16 lanes). The j-outer order
 * read a column with stride sk and wrote with stride ld, which the
 * vectorizer turned into gathers and scatters. */
static void pack_rows(Gemm *g, LLVMValueRef dst, int64_t ld, LLVMValueRef src,
                      LLVMValueRef sk, LLVMValueRef nvalid, LLVMValueRef kc) {
  CG *cg = g->cg;
  int vl = g->p.vl;
  CgLoop lk;
  LLVMValueRef k = cg_loop_begin(cg, &lk, cg_i64(cg, 0), kc);
  LLVMValueRef s = cg_gep(cg, g->t, src, LLVMBuildMul(g->b, k, sk, ""));
  LLVMValueRef d = cg_gep(cg, g->t, dst, LLVMBuildMul(g->b, k, cg_i64(cg, ld), ""));
  for (int v = 0; v * vl < ld; v++) {
    LLVMValueRef at = cg_i64(cg, v * vl);
    /* not inbounds: a masked-off vector may reach past the end of src */
    LLVMValueRef valid = lane_cmp(g, LLVMIntULT, nvalid, v);
    LLVMValueRef x = masked_load(g, LLVMBuildGEP2(g->b, g->t, s, &at, 1, ""), valid);
    LLVMValueRef to = cg_gep(cg, g->t, d, at);
    if ((v + 1) * vl <= ld)
      vstore(g, x, to, (unsigned)elem_bytes(g->p.e));
    else
      masked_store(g, x, to, lane_cmp(g, LLVMIntULT, cg_i64(cg, ld), v));
  }
  cg_loop_end(cg, &lk);
}

/* dst[k*ld + j] = src[j*sj + k*sk] for j < nvalid, 0 for nvalid <= j < ld,
 * k < kc: the transposing copy both packings reduce to. The k loop is
 * innermost, so reads are contiguous when sk is 1; with sj = 1 pack_rows
 * copies. */
static void pack_strided(Gemm *g, LLVMValueRef dst, int64_t ld, LLVMValueRef src,
                         LLVMValueRef sj, LLVMValueRef sk, LLVMValueRef nvalid,
                         LLVMValueRef kc) {
  CG *cg = g->cg;
  if (LLVMIsAConstantInt(sj) && LLVMConstIntGetSExtValue(sj) == 1) {
    pack_rows(g, dst, ld, src, sk, nvalid, kc);
    return;
  }
  CgLoop lj, lk, lz;
  LLVMValueRef j = cg_loop_begin(cg, &lj, cg_i64(cg, 0), cg_i64(cg, ld));
  LLVMValueRef d = cg_gep(cg, g->t, dst, j);
  CgIf valid;
  cg_if_begin(cg, &valid, LLVMBuildICmp(g->b, LLVMIntSLT, j, nvalid, ""));
  LLVMValueRef s = cg_gep(cg, g->t, src, LLVMBuildMul(g->b, j, sj, ""));
  LLVMValueRef k = cg_loop_begin(cg, &lk, cg_i64(cg, 0), kc);
  LLVMValueRef x = LLVMBuildLoad2(
      g->b, g->t, cg_gep(cg, g->t, s, LLVMBuildMul(g->b, k, sk, "")), "");
  LLVMBuildStore(g->b, x, cg_gep(cg, g->t, d, LLVMBuildMul(g->b, k, cg_i64(cg, ld), "")));
  cg_loop_end(cg, &lk);
  cg_if_else(cg, &valid);
  k = cg_loop_begin(cg, &lz, cg_i64(cg, 0), kc);
  LLVMBuildStore(g->b, LLVMConstNull(g->t),
                 cg_gep(cg, g->t, d, LLVMBuildMul(g->b, k, cg_i64(cg, ld), "")));
  cg_loop_end(cg, &lz);
  cg_if_end(cg, &valid);
  cg_loop_end(cg, &lj);
}

/* Ap[(panel*kc + k)*MR + r] = A(panel*MR + r, k), zero past mc; a points
 * at A(ic, pc). */
static void pack_a(Gemm *g, LLVMValueRef ap, LLVMValueRef a, LLVMValueRef mc,
                   LLVMValueRef kc) {
  CG *cg = g->cg;
  const GemmPlan *p = &g->p;
  CgLoop lp;
  LLVMValueRef row = cg_loop_step(cg, &lp, cg_i64(cg, 0), mc, p->mr);
  LLVMValueRef dst = cg_gep(cg, g->t, ap, LLVMBuildMul(g->b, row, kc, ""));
  LLVMValueRef src = cg_gep(cg, g->t, a, LLVMBuildMul(g->b, row, p->v.sam, ""));
  LLVMValueRef rows = LLVMBuildSub(g->b, mc, row, "");
  pack_strided(g, dst, p->mr, src, p->v.sam, p->v.sak, rows, kc);
  cg_loop_end(cg, &lp);
}

/* Rows of B lie a whole row apart, which defeats the hardware prefetcher:
 * while packing a row of this panel, fetch the same row of the next panel
 * (its NR elements from `row`) into L2 (a prefetch past the end of B is
 * harmless). */
static void prefetch_next_panel(Gemm *g, LLVMValueRef row) {
  prefetch_row(g, row, cg_i64(g->cg, 0), nr_lines(&g->p), true);
}

/* Transposes the n x n matrix held as vectors r[0..n) (n a power of 2) in
 * log2(n) stages: the stage of bit h swaps bit h of the row index with bit
 * h of the lane, pairing rows i and i | h: lanes with the bit clear stay
 * in row i and take their partner lane's value from row i | h, lanes with
 * it set stay in row i | h. */
static void transpose_regs(Gemm *g, LLVMValueRef *r, int n) {
  CG *cg = g->cg;
  LLVMValueRef lo[64], hi[64];
  for (int h = 1; h < n; h <<= 1) {
    for (int j = 0; j < n; j++) {
      bool set = j & h;
      lo[j] = LLVMConstInt(cg->t_i32, (unsigned)(set ? n + (j ^ h) : j), 0);
      hi[j] = LLVMConstInt(cg->t_i32, (unsigned)(set ? n + j : j | h), 0);
    }
    LLVMValueRef mlo = LLVMConstVector(lo, (unsigned)n), mhi = LLVMConstVector(hi, (unsigned)n);
    for (int i = 0; i < n; i++) {
      if (i & h) continue;
      LLVMValueRef a = r[i], b = r[i | h];
      r[i] = LLVMBuildShuffleVector(g->b, a, b, mlo, "");
      r[i | h] = LLVMBuildShuffleVector(g->b, a, b, mhi, "");
    }
  }
}

/* Rows [k0, k0 + VL) of vector v of Bp from r[kk], those past kc not
 * stored (Bp holds KC rows); r NULL: zeros. */
static void store_block(Gemm *g, LLVMValueRef bp, LLVMValueRef k0, LLVMValueRef kc, int v,
                        LLVMValueRef *r) {
  CG *cg = g->cg;
  const GemmPlan *p = &g->p;
  unsigned va = (unsigned)(p->vl * elem_bytes(p->e));
  for (int kk = 0; kk < p->vl; kk++) {
    LLVMValueRef k = LLVMBuildAdd(g->b, k0, cg_i64(cg, kk), "");
    CgIf row;
    if (kk > 0) cg_if_begin(cg, &row, LLVMBuildICmp(g->b, LLVMIntSLT, k, kc, ""));
    LLVMValueRef at = LLVMBuildAdd(g->b, LLVMBuildMul(g->b, k, cg_i64(cg, p->nr), ""),
                                   cg_i64(cg, v * p->vl), "");
    vstore(g, r ? r[kk] : LLVMConstNull(g->vt), cg_gep(cg, g->t, bp, at), va);
    if (kk > 0) cg_if_end(cg, &row);
  }
}

/* pack_b for a B contiguous along K (sbk = 1: B(k, j) = b[j*sbn + k],
 * attention's p·v, whose rhs is p with the tokens it sums over last): per
 * VL k's, each VL x VL block of the panel is loaded as VL vectors along k
 * (masked past kc and past nr columns, which come out zero), transposed in
 * registers and stored as VL rows of Bp; blocks wholly past nr are zeros.
 * The scalar copy this replaces ran as scatters. */
static void pack_b_kmajor(Gemm *g, LLVMValueRef bp, LLVMValueRef b, LLVMValueRef nr,
                          LLVMValueRef kc) {
  CG *cg = g->cg;
  const GemmPlan *p = &g->p;
  int vl = p->vl;
  LLVMValueRef r[64];
  CgLoop lk;
  LLVMValueRef k0 = cg_loop_step(cg, &lk, cg_i64(cg, 0), kc, vl);
  LLVMValueRef kmask = lane_cmp(g, LLVMIntULT, LLVMBuildSub(g->b, kc, k0, ""), 0);
  LLVMValueRef none = LLVMConstNull(LLVMTypeOf(kmask));
  for (int v = 0; v < p->nv; v++) {
    CgIf some;
    if (v > 0)
      cg_if_begin(cg, &some, LLVMBuildICmp(g->b, LLVMIntSLT, cg_i64(cg, v * vl), nr, ""));
    for (int jj = 0; jj < vl; jj++) {
      LLVMValueRef j = cg_i64(cg, v * vl + jj);
      LLVMValueRef in = LLVMBuildICmp(g->b, LLVMIntSLT, j, nr, "");
      LLVMValueRef off = LLVMBuildAdd(g->b, LLVMBuildMul(g->b, j, p->v.sbn, ""), k0, "");
      LLVMValueRef mask = LLVMBuildSelect(g->b, in, kmask, none, "");
      r[jj] = masked_load(g, LLVMBuildGEP2(g->b, g->t, b, &off, 1, ""), mask); /* not inbounds */
    }
    transpose_regs(g, r, vl);
    store_block(g, bp, k0, kc, v, r);
    if (v > 0) {
      cg_if_else(cg, &some);
      store_block(g, bp, k0, kc, v, NULL);
      cg_if_end(cg, &some);
    }
  }
  cg_loop_end(cg, &lk);
}

/* Bp[k*NR + j] = B(k, j) for j < nr, zero beyond; b points at B(pc, jr),
 * next at the first element of the panel packed after it (row k of which
 * is fetched with row k of this one). Full panels of an N-contiguous B
 * are copied as vectors, a K-contiguous B goes to pack_b_kmajor. */
static void pack_b(Gemm *g, LLVMValueRef bp, LLVMValueRef b, LLVMValueRef nr,
                   LLVMValueRef kc, LLVMValueRef next) {
  CG *cg = g->cg;
  const GemmPlan *p = &g->p;
  unsigned ea = (unsigned)elem_bytes(p->e);
  unsigned va = (unsigned)(p->vl * elem_bytes(p->e));
  CgLoop lk;
  CgIf full;
  if (p->sbk == 1 && p->sbn != 1) {
    pack_b_kmajor(g, bp, b, nr, kc);
    return;
  }
  bool vec = p->sbn == 1;
  if (vec) {
    cg_if_begin(cg, &full, LLVMBuildICmp(g->b, LLVMIntEQ, nr, cg_i64(cg, p->nr), ""));
    LLVMValueRef k = cg_loop_begin(cg, &lk, cg_i64(cg, 0), kc);
    LLVMValueRef row = LLVMBuildMul(g->b, k, p->v.sbk, "");
    LLVMValueRef src = cg_gep(cg, g->t, b, row);
    LLVMValueRef dst = cg_gep(cg, g->t, bp, LLVMBuildMul(g->b, k, cg_i64(cg, p->nr), ""));
    for (int v = 0; v < p->nv; v++) {
      LLVMValueRef x = vload(g, cg_gep(cg, g->t, src, cg_i64(cg, v * p->vl)), ea);
      vstore(g, x, cg_gep(cg, g->t, dst, cg_i64(cg, v * p->vl)), va);
    }
    prefetch_next_panel(g, LLVMBuildGEP2(g->b, g->t, next, &row, 1, "")); /* not inbounds */
    cg_loop_end(cg, &lk);
    cg_if_else(cg, &full);
  }
  pack_strided(g, bp, p->nr, b, p->v.sbn, p->v.sbk, nr, kc);
  if (vec) cg_if_end(cg, &full);
}

void gemm_use_packed(Gemm *g, const Value *b) {
  const GemmPacking *k = b->packed;
  const GemmPlan *p = &g->p;
  if (!k) return;
  if (k->nr != p->nr || k->kc != p->kc || k->K != p->K || k->N != p->N) {
    fprintf(stderr, "shloc: internal error: %%%d is packed for another GEMM tile\n", b->id);
    abort();
  }
  g->packed = k;
}

LLVMValueRef gemm_packed_matrix(Gemm *g, LLVMValueRef B, LLVMValueRef i) {
  CG *cg = g->cg;
  return cg_gep(cg, g->t, B, LLVMBuildMul(g->b, i, cg_i64(cg, g->p.K * packed_npad(g)), ""));
}

/* The offset of B(pc, jr) from B(0, 0) of an unpacked B. */
static LLVMValueRef b_offset(Gemm *g, LLVMValueRef pc, LLVMValueRef jr) {
  LLVMValueRef col = LLVMBuildMul(g->b, jr, g->p.v.sbn, "");
  return LLVMBuildAdd(g->b, LLVMBuildMul(g->b, pc, g->p.v.sbk, ""), col, "");
}

/* Packed (ir.h GemmPacking), the panel at (pc, jr) starts at
 * pc * Npad + jr * kc: the slices before it are full (KC rows), and jr
 * is a multiple of NR (a convolution's or a blocked dot's calls split
 * columns in units of NR, conv.c's conv_split and dot.c's dot_split; the
 * layout pass packs no dot whose calls split columns otherwise). */
static LLVMValueRef b_panel(Gemm *g, GemmScratch *s, LLVMValueRef bmat, LLVMValueRef pc,
                            LLVMValueRef jr, LLVMValueRef nr, LLVMValueRef kc,
                            LLVMValueRef next) {
  CG *cg = g->cg;
  if (g->packed) {
    LLVMValueRef panel = LLVMBuildMul(g->b, jr, kc, "");
    LLVMValueRef off =
        LLVMBuildAdd(g->b, LLVMBuildMul(g->b, pc, cg_i64(cg, packed_npad(g)), ""), panel, "");
    return cg_gep(cg, g->t, bmat, off);
  }
  LLVMValueRef ahead = LLVMBuildGEP2(g->b, g->t, bmat, &next, 1, ""); /* not inbounds */
  pack_b(g, s->bp, cg_gep(cg, g->t, bmat, b_offset(g, pc, jr)), nr, kc, ahead);
  return s->bp;
}

LLVMValueRef gemm_b_panel(Gemm *g, GemmScratch *s, LLVMValueRef bmat, LLVMValueRef pc,
                          LLVMValueRef jr, LLVMValueRef nr, LLVMValueRef kc) {
  LLVMValueRef next = b_offset(g, pc, LLVMBuildAdd(g->b, jr, cg_i64(g->cg, g->p.nr), ""));
  return b_panel(g, s, bmat, pc, jr, nr, kc, next);
}

/* ------------------------------------------------------------------------ */
/* The epilogue                                                              */

/* Writes the result index of linear offset q (row-major over dims [lo, hi)
 * of v, sizes from cg_dim) into idx[lo .. hi). */
static void unflatten(Gemm *g, const Value *v, int lo, int hi, LLVMValueRef q,
                      LLVMValueRef *idx) {
  CG *cg = g->cg;
  for (int d = hi - 1; d >= lo; d--) {
    LLVMValueRef n = cg_dim(cg, v, d);
    idx[d] = d == lo ? q : LLVMBuildURem(g->b, q, n, "");
    q = LLVMBuildUDiv(g->b, q, n, "");
  }
}

/* The epilogue on a finished part of C: rows [row0, row0 + nrows) (rows
 * of the result viewed as (batch * M) x N) and columns [c0, c1). Each
 * element becomes the value of g->epi with the dot bound to it, in place
 * in epi's buffer; the block was just written, so it is read from cache.
 * The column loop is innermost and unit-stride for the vectorizer. */
void gemm_epilogue(Gemm *g, LLVMValueRef row0, LLVMValueRef nrows, LLVMValueRef c0,
                   LLVMValueRef c1) {
  CG *cg = g->cg;
  if (!g->epi) return;
  Value *dv = g->op->results[0], *rv = g->epi->results[0];
  const Type *t = rv->type;
  int rank = t->rank, nrd = rank - g->ncols;
  LLVMValueRef C = cg_buffer(cg, rv);
  LLVMValueRef idx[rank > 0 ? rank : 1], out[1];
  CgLoop li, lj;
  bool vector_loops = cg->vector_loops;
  cg->vector_loops = false; /* scalar: LLVM's to vectorize */
  LLVMValueRef i = cg_loop_begin(cg, &li, cg_i64(cg, 0), nrows);
  LLVMValueRef row = LLVMBuildAdd(g->b, row0, i, "row");
  if (nrd > 0) unflatten(g, rv, 0, nrd, row, idx);
  LLVMValueRef base = LLVMBuildMul(g->b, row, g->p.v.N, "");
  LLVMValueRef j = cg_loop_begin(cg, &lj, c0, c1);
  if (g->ncols > 0) unflatten(g, rv, nrd, rank, j, idx);
  LLVMValueRef lin = LLVMBuildAdd(g->b, base, j, "");
  cg->scalar[dv->id] = cg_load(cg, C, t->elem, lin);
  if (g->epi_gen) out[0] = g->epi_gen(g->epi_ctx, g->epi, idx);
  else cg_gen(cg, g->epi, idx, out);
  cg->scalar[dv->id] = NULL;
  cg_store(cg, C, t->elem, lin, out[0]);
  cg_loop_end(cg, &lj);
  cg_loop_end(cg, &li);
  cg->vector_loops = vector_loops;
}

/* ------------------------------------------------------------------------ */
/* Blocks, scratch and K slices                                              */

/* Element offset of batch b in an operand with the given strides. */
static LLVMValueRef batch_offset(Gemm *g, LLVMValueRef b, LLVMValueRef const *st) {
  CG *cg = g->cg;
  const GemmPlan *p = &g->p;
  LLVMValueRef off = cg_i64(cg, 0), inner = cg_i64(cg, 1);
  for (int i = p->nbd - 1; i >= 0; i--) {
    LLVMValueRef q = LLVMBuildUDiv(g->b, b, inner, "");
    q = LLVMBuildURem(g->b, q, p->v.bdim[i], "");
    off = LLVMBuildAdd(g->b, off, LLVMBuildMul(g->b, q, st[i], ""), "");
    inner = LLVMBuildMul(g->b, inner, p->v.bdim[i], ""); /* folded when static */
  }
  return off;
}

GemmBlock gemm_block_at(Gemm *g, LLVMValueRef bi, LLVMValueRef ic, LLVMValueRef r1,
                        const GemmRange *r, LLVMValueRef A, LLVMValueRef B,
                        LLVMValueRef C) {
  CG *cg = g->cg;
  const GemmPlan *p = &g->p;
  GemmBlock k;
  k.mc = cg_min_i64(cg, cg_i64(cg, p->mc), LLVMBuildSub(g->b, r1, ic, ""));
  LLVMValueRef rowa = LLVMBuildMul(g->b, ic, p->v.sam, "");
  LLVMValueRef offa = LLVMBuildAdd(g->b, batch_offset(g, bi, p->v.bsa), rowa, "");
  k.a = cg_gep(cg, g->t, A, offa);
  k.b = g->packed ? gemm_packed_matrix(g, B, bi)
                  : cg_gep(cg, g->t, B, batch_offset(g, bi, p->v.bsb));
  LLVMValueRef mn = LLVMBuildMul(g->b, p->v.M, p->v.N, ""); /* folded when static */
  LLVMValueRef rowc = LLVMBuildMul(g->b, ic, p->v.N, "");
  LLVMValueRef offc = LLVMBuildAdd(g->b, LLVMBuildMul(g->b, bi, mn, ""), rowc, "");
  k.c = cg_gep(cg, g->t, C, offc);
  k.c0 = r->c0;
  k.c1 = r->c1;
  LLVMValueRef more = LLVMBuildICmp(g->b, LLVMIntSLT, LLVMBuildAdd(g->b, ic, k.mc, ""), r1, "");
  k.cn = LLVMBuildSelect(g->b, more, r->c0, r->c1, "cn");
  return k;
}

/* C = 0 on the block (K = 0: an empty sum). */
void gemm_zero_block(Gemm *g, GemmBlock *k) {
  CG *cg = g->cg;
  CgLoop li, lj;
  LLVMValueRef i = cg_loop_begin(cg, &li, cg_i64(cg, 0), k->mc);
  LLVMValueRef row =
      cg_gep(cg, g->t, k->c, LLVMBuildMul(g->b, i, g->p.v.N, ""));
  LLVMValueRef j = cg_loop_begin(cg, &lj, k->c0, k->c1);
  LLVMBuildStore(g->b, LLVMConstNull(g->t), cg_gep(cg, g->t, row, j));
  cg_loop_end(cg, &lj);
  cg_loop_end(cg, &li);
}

LLVMValueRef gemm_zero_row(Gemm *g, int64_t n) {
  CG *cg = g->cg;
  char name[64];
  snprintf(name, sizeof name, "shloc_%s_gemm_zeros_%lld", elem_name(g->p.e), (long long)n);
  LLVMValueRef z = LLVMGetNamedGlobal(cg->mod, name);
  if (z) return z;
  LLVMTypeRef t = LLVMArrayType2(g->t, (uint64_t)n);
  z = LLVMAddGlobal(cg->mod, t, name);
  LLVMSetInitializer(z, LLVMConstNull(t));
  LLVMSetGlobalConstant(z, 1);
  LLVMSetLinkage(z, LLVMPrivateLinkage);
  LLVMSetAlignment(z, 64);
  return z;
}

/* Bp, then Ap or the MR row pointers, each 64-byte aligned, in the
 * kernel's scratch from the temp arena (ir_kernel_scratch_bytes bounds
 * it): packing buffers on the stack would overflow the small stacks of
 * worker threads and embedded targets. */
static int64_t bp_bytes(const GemmPlan *p, bool packed) {
  return packed ? 0 : ir_align64(p->kc * p->nr * elem_bytes(p->e));
}

static int64_t after_bp_bytes(const GemmPlan *p) {
  return p->direct_a ? ir_align64(p->mr * 8) : ir_align64(p->mc * p->kc * elem_bytes(p->e));
}

int64_t gemm_scratch_bytes(const GemmPlan *p) { return bp_bytes(p, false) + after_bp_bytes(p); }

GemmScratch gemm_scratch(Gemm *g) {
  int64_t bytes = bp_bytes(&g->p, g->packed) + after_bp_bytes(&g->p);
  return gemm_scratch_at(g, cg_scratch(g->cg, g->op, bytes));
}

GemmScratch gemm_scratch_at(Gemm *g, LLVMValueRef base) {
  CG *cg = g->cg;
  const GemmPlan *p = &g->p;
  int64_t bp = bp_bytes(p, g->packed);
  GemmScratch s = {0};
  s.micro = micro_fn(g, p->direct_a, p->mr, p->nv);
  s.bp = base;
  LLVMValueRef after_bp = cg_gep(cg, cg->t_i8, base, cg_i64(cg, bp));
  if (!p->direct_a) {
    s.ap = after_bp;
    return s;
  }
  s.rowptrs = after_bp;
  s.zeros = gemm_zero_row(g, p->kc);
  return s;
}

/* rowptrs[r] = a + (ir + r) * sam for ir + r < mc, else the zero row. */
static void fill_rows(Gemm *g, GemmScratch *s, LLVMValueRef a, LLVMValueRef ir,
                      LLVMValueRef mc) {
  CG *cg = g->cg;
  const GemmPlan *p = &g->p;
  for (int r = 0; r < p->mr; r++) {
    LLVMValueRef row = LLVMBuildAdd(g->b, ir, cg_i64(cg, r), "");
    LLVMValueRef ptr =
        cg_gep(cg, g->t, a, LLVMBuildMul(g->b, row, p->v.sam, ""));
    LLVMValueRef in = LLVMBuildICmp(g->b, LLVMIntSLT, row, mc, "");
    LLVMValueRef slot = cg_gep(cg, cg->t_ptr, s->rowptrs, cg_i64(cg, r));
    LLVMBuildStore(g->b, LLVMBuildSelect(g->b, in, ptr, s->zeros, ""), slot);
  }
}

static void call_micro(Gemm *g, LLVMValueRef f, LLVMValueRef a, LLVMValueRef bp,
                       LLVMValueRef c, LLVMValueRef kc, LLVMValueRef rows, LLVMValueRef cols,
                       LLVMValueRef first) {
  LLVMValueRef args[8] = {a, bp, c, g->p.v.N, kc, rows, cols, first};
  LLVMBuildCall2(g->b, LLVMGlobalGetValueType(f), f, args, 8, "");
}

void gemm_call_micro(Gemm *g, GemmScratch *s, LLVMValueRef a, LLVMValueRef bp,
                     LLVMValueRef c, LLVMValueRef kc, LLVMValueRef rows, LLVMValueRef cols,
                     LLVMValueRef first) {
  call_micro(g, s->micro, a, bp, c, kc, rows, cols, first);
}

/* The microkernel of mr rows on a tile of gemm_slice: the full NV
 * vectors, or, when N is not a multiple of NR and the tile has at most
 * N % NR columns (the last panel), the variant of as many vectors as
 * they need (micro_fn). Attention at 79 tokens (searchless_chess: N = 79
 * = 64 + 15) did 4 vectors of work for the last 15 columns. */
static void cols_tile(Gemm *g, int mr, LLVMValueRef a, LLVMValueRef bp, LLVMValueRef c,
                      LLVMValueRef kc, LLVMValueRef rows, LLVMValueRef cols,
                      LLVMValueRef first) {
  CG *cg = g->cg;
  const GemmPlan *p = &g->p;
  LLVMValueRef f = micro_fn(g, p->direct_a, mr, p->nv);
  int64_t rem = p->N > 0 ? p->N % p->nr : 0;
  int nv = (int)((rem + p->vl - 1) / p->vl);
  if (rem == 0 || nv >= p->nv) {
    call_micro(g, f, a, bp, c, kc, rows, cols, first);
    return;
  }
  CgIf edge;
  cg_if_begin(cg, &edge, LLVMBuildICmp(g->b, LLVMIntSLE, cols, cg_i64(cg, rem), ""));
  call_micro(g, micro_fn(g, p->direct_a, mr, nv), a, bp, c, kc, rows, cols, first);
  cg_if_else(cg, &edge);
  call_micro(g, f, a, bp, c, kc, rows, cols, first);
  cg_if_end(cg, &edge);
}

/* The microkernel on a tile of gemm_slice: the full MR rows, or, when M
 * is not a multiple of MR and the tile has at most M % MR rows (the last
 * of M; with the rows split across calls, a call's last may be shorter),
 * the variant of that many rows (micro_fn). BERT at 128 tokens: M = 128 =
 * 21 x 6 + 2, a full tile for the last 2 rows did 3% more work. Either
 * way cols_tile picks the variant of the tile's columns. */
static void slice_tile(Gemm *g, LLVMValueRef a, LLVMValueRef bp, LLVMValueRef c,
                       LLVMValueRef kc, LLVMValueRef rows, LLVMValueRef cols,
                       LLVMValueRef first) {
  CG *cg = g->cg;
  const GemmPlan *p = &g->p;
  int64_t rem = p->M > 0 ? p->M % p->mr : 0;
  if (rem == 0) {
    cols_tile(g, p->mr, a, bp, c, kc, rows, cols, first);
    return;
  }
  CgIf full;
  cg_if_begin(cg, &full, LLVMBuildICmp(g->b, LLVMIntSGT, rows, cg_i64(cg, rem), ""));
  cols_tile(g, p->mr, a, bp, c, kc, rows, cols, first);
  cg_if_else(cg, &full);
  cols_tile(g, (int)rem, a, bp, c, kc, rows, cols, first);
  cg_if_end(cg, &full);
}

/* The offset from B(0, 0) of the panel of an unpacked B that gemm_slice
 * packs after the one at (pc, jr): the next NR columns, or after the
 * block's last columns the first ones of the next KC slice, or after the
 * last slice the first slice's panel at column k->cn, where the next
 * block of rows or the call's next piece of columns begins (threads
 * splitting the columns run their own pieces of a share in order, one
 * call each: runtime/parallel.c), or at N the panel itself (in cache:
 * nothing is fetched). Without the wrap the first panel of each slice came
 * from memory unfetched: with 2 threads splitting BERT's 768 columns, one
 * panel in 6; without the last, the first of every piece (BERT at 128
 * tokens, weights as arguments, 2 threads, paired medians of interleaved
 * calls, SCHED_FIFO: 0.990-0.996 of the time; 1 thread, where a call of
 * one block of rows fetches nothing here, unchanged). */
static LLVMValueRef next_panel(Gemm *g, GemmBlock *k, LLVMValueRef pc, LLVMValueRef jr) {
  CG *cg = g->cg;
  const GemmPlan *p = &g->p;
  LLVMValueRef jn = LLVMBuildAdd(g->b, jr, cg_i64(cg, p->nr), "");
  LLVMValueRef wrap = LLVMBuildICmp(g->b, LLVMIntSGE, jn, k->c1, "");
  LLVMValueRef pn = LLVMBuildAdd(g->b, pc, cg_i64(cg, p->kc), "");
  LLVMValueRef last = LLVMBuildICmp(g->b, LLVMIntSGE, pn, p->v.K, "");
  LLVMValueRef end = LLVMBuildICmp(g->b, LLVMIntSGE, k->cn, p->v.N, "");
  /* the wrap's panel: (pn, c0), after the last slice (0, cn), or (pc, jr) at N */
  LLVMValueRef after_pc = LLVMBuildSelect(g->b, end, pc, cg_i64(cg, 0), "");
  LLVMValueRef after_jr = LLVMBuildSelect(g->b, end, jr, k->cn, "");
  LLVMValueRef wrap_pc = LLVMBuildSelect(g->b, last, after_pc, pn, "");
  LLVMValueRef wrap_jr = LLVMBuildSelect(g->b, last, after_jr, k->c0, "");
  LLVMValueRef at_jr = LLVMBuildSelect(g->b, wrap, wrap_jr, jn, "");
  return b_offset(g, LLVMBuildSelect(g->b, wrap, wrap_pc, pc, ""), at_jr);
}

/* While the microkernel runs down the rows of panel jr, fetch the next
 * panel of B (at offset next, next_panel) into L2, a share of its KC rows
 * after each row tile, so that its cache misses overlap the multiply-adds
 * instead of stalling the packing (B is read once per call when it is an
 * argument). pack_b fetches the same panel too, and both pay (BERT at 128
 * tokens, weights as arguments, one thread, median CPU time of 30
 * alternating calls on the loaded 2-core Zen 4): without pack_b's 233.7
 * against 229.8 ms, without this one 238.5 against 228.0 (also slower or
 * no faster: this one spread over the first half of the tiles or a
 * quarter, or two panels ahead; prefetcht2, prefetchnta or prefetcht0
 * instead of prefetcht1). */
static void prefetch_panel_part(Gemm *g, GemmBlock *k, LLVMValueRef next, LLVMValueRef ir,
                                LLVMValueRef kc) {
  CG *cg = g->cg;
  const GemmPlan *p = &g->p;
  LLVMValueRef mr = cg_i64(cg, p->mr), one = cg_i64(cg, 1);
  /* tiles = ceil(mc / MR) calls, share = ceil(kc / tiles) rows each */
  LLVMValueRef tiles =
      LLVMBuildUDiv(g->b, LLVMBuildAdd(g->b, k->mc, cg_i64(cg, p->mr - 1), ""), mr, "");
  LLVMValueRef share = LLVMBuildUDiv(
      g->b, LLVMBuildAdd(g->b, kc, LLVMBuildSub(g->b, tiles, one, ""), ""), tiles, "");
  LLVMValueRef k0 = LLVMBuildMul(g->b, LLVMBuildUDiv(g->b, ir, mr, ""), share, "");
  LLVMValueRef k1 = cg_min_i64(cg, LLVMBuildAdd(g->b, k0, share, ""), kc);
  CgLoop lk;
  LLVMValueRef row = LLVMBuildMul(g->b, cg_loop_begin(cg, &lk, k0, k1), p->v.sbk, "");
  LLVMValueRef off = LLVMBuildAdd(g->b, next, row, "");
  prefetch_next_panel(g, LLVMBuildGEP2(g->b, g->t, k->b, &off, 1, "")); /* not inbounds */
  cg_loop_end(cg, &lk);
}

/* The row tiles of a block from ir0 on read the packed panel s->bp of
 * B(pc:pc+kc, jr:jr+nr) (an unpacked B along N): a full panel is packed
 * by its first row tile (the microkernel's `_pack` variant reads B in
 * place and stores each row to Bp as it goes, so that the copy overlaps
 * the multiply-adds instead of running as a pass of its own, whose loads
 * stalled with nothing to overlap; ir0 = MR); a narrower one by
 * pack_strided before them (ir0 = 0). Returns ir0. BERT at 128 tokens,
 * weights as arguments fed as bench/compare.py feeds them, this tile
 * alone (before PACK_AHEAD; with it 0.92 / 0.94, architecture.md)
 * against the separate pass it replaced, SCHED_FIFO, 12 rounds of interleaved calls, load 3-4:
 * 0.941 of the time at 1 thread (faster in 12), 0.967 at 2 (faster in 8),
 * bits identical. Packing Bp2 for the next panel in a share of rows
 * after each row tile instead (double buffered, each share fetched one
 * tile before) was no faster than main's pass: the copies stalled
 * likewise. Nor was packing 4 or 2 panels at once, row by row (the
 * first tile of a group copying 1 KiB or 512 bytes of each row of B,
 * rows 3 or 12 KiB apart, into Bp's panels; Bp 4 or 2 panels deep, the
 * next group fetched over the group's tiles): BERT at 128 tokens, weights
 * as arguments, on the 2-core Sapphire Rapids VM, bench/ab.py --fifo
 * --offset=16, 3 x 10 calls, paired medians against main: 4 panels 1.054
 * (1 thread; 1.003 at offset 0) and 1.058 (2 threads, faster in 6 of
 * 30); 2 panels 0.989 and 0.991 (main against itself 1.000 and 1.012).
 * Neither are 4 KiB pages what this tile waits for there: a plain C copy
 * of BERT's 72 weight matrices panel by panel (as this tile reads them)
 * took 67.6 ms, 65.1 with MADV_HUGEPAGE (SCHED_FIFO, best of 7), and
 * BERT itself 324.1 against 324.5 ms (main, --fifo, the arguments in 4
 * KiB pages and in huge pages: medians of 30 and 20 calls, two runs
 * minutes apart, unpaired); the same copy 4 panels at
 * a time 42.6 ms (the hardware prefetcher follows runs within a page),
 * a gain the prefetches of the tiles before (prefetch_panel_part) already
 * take. */
static LLVMValueRef packing_tile(Gemm *g, GemmBlock *k, GemmScratch *s, LLVMValueRef pc,
                                 LLVMValueRef jr, LLVMValueRef nr, LLVMValueRef kc,
                                 LLVMValueRef next, LLVMValueRef a, LLVMValueRef first) {
  CG *cg = g->cg;
  const GemmPlan *p = &g->p;
  LLVMValueRef whole = LLVMBuildICmp(g->b, LLVMIntEQ, nr, cg_i64(cg, p->nr), "");
  LLVMValueRef src = cg_gep(cg, g->t, k->b, b_offset(g, pc, jr));
  CgIf full;
  cg_if_begin(cg, &full, whole);
  LLVMValueRef apanel = s->ap, zero = cg_i64(cg, 0);
  if (p->direct_a) {
    fill_rows(g, s, a, zero, k->mc);
    apanel = s->rowptrs;
  }
  LLVMValueRef f = micro_fn_of(g, p->direct_a, p->mr, p->nv, true);
  LLVMValueRef cp = cg_gep(cg, g->t, k->c, jr);
  LLVMValueRef rows = cg_min_i64(cg, cg_i64(cg, p->mr), k->mc);
  LLVMValueRef ahead = LLVMBuildGEP2(g->b, g->t, k->b, &next, 1, ""); /* not inbounds */
  LLVMValueRef args[11] = {apanel, src, cp, p->v.N, kc, rows, nr, first, p->v.sbk, s->bp, ahead};
  LLVMBuildCall2(g->b, LLVMGlobalGetValueType(f), f, args, 11, "");
  prefetch_panel_part(g, k, next, zero, kc);
  cg_if_else(cg, &full);
  pack_strided(g, s->bp, p->nr, src, p->v.sbn, p->v.sbk, nr, kc);
  cg_if_end(cg, &full);
  return LLVMBuildSelect(g->b, whole, cg_i64(cg, p->mr), zero, "ir0");
}

/* The KC slice at pc of a block: pack A once (unless the microkernel reads
 * A in place), then for each NR panel of B pack it (unless packed already)
 * and run the microkernel down the rows. */
void gemm_slice(Gemm *g, GemmBlock *k, LLVMValueRef pc, GemmScratch *s) {
  CG *cg = g->cg;
  const GemmPlan *p = &g->p;
  CgLoop lj, li;
  LLVMValueRef kc =
      cg_min_i64(cg, cg_i64(cg, p->kc), LLVMBuildSub(g->b, p->v.K, pc, ""));
  LLVMValueRef first = LLVMBuildICmp(g->b, LLVMIntEQ, pc, cg_i64(cg, 0), "first");
  LLVMValueRef a = cg_gep(cg, g->t, k->a, LLVMBuildMul(g->b, pc, p->v.sak, ""));
  if (!p->direct_a) pack_a(g, s->ap, a, k->mc, kc);
  LLVMValueRef jr = cg_loop_step(cg, &lj, k->c0, k->c1, p->nr);
  LLVMValueRef nr = cg_min_i64(cg, cg_i64(cg, p->nr), LLVMBuildSub(g->b, k->c1, jr, ""));
  LLVMValueRef next = next_panel(g, k, pc, jr);
  LLVMValueRef ir0 = cg_i64(cg, 0), bp;
  if (!g->packed && p->sbn == 1) {
    ir0 = packing_tile(g, k, s, pc, jr, nr, kc, next, a, first);
    bp = s->bp;
  } else {
    bp = b_panel(g, s, k->b, pc, jr, nr, kc, next);
  }
  LLVMValueRef ir = cg_loop_step(cg, &li, ir0, k->mc, p->mr);
  LLVMValueRef rows =
      cg_min_i64(cg, cg_i64(cg, p->mr), LLVMBuildSub(g->b, k->mc, ir, ""));
  LLVMValueRef apanel;
  if (p->direct_a) {
    fill_rows(g, s, a, ir, k->mc);
    apanel = s->rowptrs;
  } else {
    apanel = cg_gep(cg, g->t, s->ap, LLVMBuildMul(g->b, ir, kc, ""));
  }
  LLVMValueRef coff =
      LLVMBuildAdd(g->b, LLVMBuildMul(g->b, ir, p->v.N, ""), jr, "");
  slice_tile(g, apanel, bp, cg_gep(cg, g->t, k->c, coff), kc, rows, nr, first);
  if (!g->packed && p->sbn == 1) prefetch_panel_part(g, k, next, ir, kc);
  cg_loop_end(cg, &li);
  cg_loop_end(cg, &lj);
}

/* ------------------------------------------------------------------------ */
/* The drivers                                                               */

/* The K slices of a block, or zeros when K = 0 (an empty sum): decided
 * here when K is static, at run time when it is not. */
static void block_slices(Gemm *g, GemmBlock *k, GemmScratch *s) {
  CG *cg = g->cg;
  const GemmPlan *p = &g->p;
  if (p->K == 0) {
    gemm_zero_block(g, k);
    return;
  }
  CgIf empty;
  if (p->K == GEMM_DYN) {
    cg_if_begin(cg, &empty, LLVMBuildICmp(g->b, LLVMIntEQ, p->v.K, cg_i64(cg, 0), ""));
    gemm_zero_block(g, k);
    cg_if_else(cg, &empty);
  }
  CgLoop lp;
  LLVMValueRef pc = cg_loop_step(cg, &lp, cg_i64(cg, 0), p->v.K, p->kc);
  gemm_slice(g, k, pc, s);
  cg_loop_end(cg, &lp);
  if (p->K == GEMM_DYN) cg_if_end(cg, &empty);
}

void gemm_run(Gemm *g, GemmScratch *s, const GemmRange *r, LLVMValueRef A, LLVMValueRef B,
              LLVMValueRef C) {
  CG *cg = g->cg;
  const GemmPlan *p = &g->p;
  CgLoop lb, li;
  LLVMValueRef bi = cg_loop_begin(cg, &lb, r->b0, r->b1);
  LLVMValueRef ic = cg_loop_step(cg, &li, r->r0, r->r1, p->mc);
  GemmBlock k = gemm_block_at(g, bi, ic, r->r1, r, A, B, C);
  block_slices(g, &k, s);
  LLVMValueRef row0 = LLVMBuildAdd(g->b, LLVMBuildMul(g->b, bi, p->v.M, ""), ic, "");
  gemm_epilogue(g, row0, k.mc, k.c0, k.c1);
  cg_loop_end(cg, &li);
  cg_loop_end(cg, &lb);
}

/* The K split's slot q in parts (slot_elems apart; M x N, dense): when
 * `staged`, moved within it as skinny_stage_at moves a staged C against
 * the part's B (rows q * kp on). */
static LLVMValueRef ksplit_slot(Gemm *g, const GemmBlock *k, LLVMValueRef parts, LLVMValueRef q,
                                int64_t slot_elems, int64_t kp, bool staged) {
  CG *cg = g->cg;
  int64_t eb = elem_bytes(g->p.e);
  LLVMValueRef slot = cg_gep(cg, g->t, parts, LLVMBuildMul(g->b, q, cg_i64(cg, slot_elems), ""));
  if (!staged) return slot;
  LLVMValueRef boff = LLVMBuildMul(g->b, LLVMBuildMul(g->b, q, cg_i64(cg, kp * eb), ""),
                                   g->p.v.sbk, "");
  return skinny_stage_at(
      g, slot, LLVMBuildAdd(g->b, LLVMBuildPtrToInt(g->b, k->b, cg->t_i64, ""), boff, ""));
}

/* The K split's part q < pieces: A[0:M, kb:kb+kn) * B[kb:kb+kn, 0:N) into
 * its slot (M x N, dense), kb = q * kp and kn = kp or what is left (0 when
 * nothing: the slot is zeroed). */
static void ksplit_part(Gemm *g, const GemmBlock *k, LLVMValueRef slot, LLVMValueRef q,
                        int64_t kp) {
  CG *cg = g->cg;
  const GemmPlan *p = &g->p;
  LLVMValueRef kb = LLVMBuildMul(g->b, q, cg_i64(cg, kp), "kb");
  LLVMValueRef left = LLVMBuildSub(g->b, p->v.K, kb, "");
  LLVMValueRef kn = cg_min_i64(cg, cg_i64(cg, kp), left);
  kn = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntSLT, kn, cg_i64(cg, 0), ""),
                       cg_i64(cg, 0), kn, "kn");
  LLVMTypeRef ty;
  LLVMValueRef fn = skinny_fn(g, &ty);
  LLVMValueRef ap = cg_gep(cg, g->t, k->a, kb);
  LLVMValueRef bp = cg_gep(cg, g->t, k->b, LLVMBuildMul(g->b, kb, p->v.sbk, ""));
  LLVMValueRef args[8] = {ap, p->v.sam, bp, p->v.sbk, slot, p->v.N, kn, p->v.N};
  LLVMBuildCall2(g->b, ty, fn, args, 8, "");
}

/* The K split's sum unit s of `sums`: columns [c0, c1) of C, the s-th
 * run of ceil(N / sums) columns rounded up to a vector, = the slots
 * summed in order (slot 0 + slot 1 + ...) on every row, then the epilogue
 * on them. Each element's sum is the same whatever `sums` is. */
static void ksplit_sum(Gemm *g, const GemmBlock *k, LLVMValueRef parts, int64_t slot_elems,
                       int pieces, int64_t kp, bool staged, LLVMValueRef s, int sums) {
  CG *cg = g->cg;
  const GemmPlan *p = &g->p;
  LLVMValueRef slot[pieces];
  for (int q = 0; q < pieces; q++)
    slot[q] = ksplit_slot(g, k, parts, cg_i64(cg, q), slot_elems, kp, staged);
  int64_t cw = (p->N + sums - 1) / sums;
  cw = (cw + p->vl - 1) / p->vl * p->vl;
  LLVMValueRef c0 = cg_min_i64(cg, LLVMBuildMul(g->b, s, cg_i64(cg, cw), "c0"), p->v.N);
  LLVMValueRef c1 = cg_min_i64(cg, LLVMBuildAdd(g->b, c0, cg_i64(cg, cw), ""), p->v.N);
  CgLoop lr, lc;
  LLVMValueRef r = cg_loop_begin(cg, &lr, cg_i64(cg, 0), p->v.M);
  LLVMValueRef row = LLVMBuildMul(g->b, r, p->v.N, "");
  LLVMValueRef i = LLVMBuildAdd(g->b, row, cg_loop_begin(cg, &lc, c0, c1), "");
  LLVMValueRef sum = NULL;
  for (int q = 0; q < pieces; q++) {
    LLVMValueRef x = LLVMBuildLoad2(g->b, g->t, cg_gep(cg, g->t, slot[q], i), "");
    sum = sum ? LLVMBuildFAdd(g->b, sum, x, "") : x;
  }
  LLVMBuildStore(g->b, sum, cg_gep(cg, g->t, k->c, i));
  cg_loop_end(cg, &lc);
  cg_loop_end(cg, &lr);
  gemm_epilogue(g, cg_i64(cg, 0), p->v.M, c0, c1);
}

void gemm_run_ksplit(Gemm *g, LLVMValueRef A, LLVMValueRef B, LLVMValueRef C,
                     LLVMValueRef parts, int64_t slot_bytes, int pieces, int sums,
                     LLVMValueRef begin, LLVMValueRef end) {
  CG *cg = g->cg;
  const GemmPlan *p = &g->p;
  LLVMValueRef zero = cg_i64(cg, 0);
  GemmRange r = {zero, cg_i64(cg, 1), zero, p->v.M, zero, p->v.N};
  GemmBlock k = gemm_block_at(g, zero, zero, p->v.M, &r, A, B, C);
  int64_t slot_elems = slot_bytes / elem_bytes(p->e);
  int64_t kp = (p->K + pieces - 1) / pieces;
  kp = (kp + SKINNY_KB - 1) / SKINNY_KB * SKINNY_KB;
  CgLoop lq;
  LLVMValueRef q = cg_loop_begin(cg, &lq, begin, end);
  CgIf part;
  cg_if_begin(cg, &part, LLVMBuildICmp(g->b, LLVMIntSLT, q, cg_i64(cg, pieces), ""));
  bool staged = skinny_stages(g, slot_bytes);
  ksplit_part(g, &k, ksplit_slot(g, &k, parts, q, slot_elems, kp, staged), q, kp);
  cg_if_else(cg, &part);
  ksplit_sum(g, &k, parts, slot_elems, pieces, kp, staged,
             LLVMBuildSub(g->b, q, cg_i64(cg, pieces), "s"), sums);
  cg_if_end(cg, &part);
  cg_loop_end(cg, &lq);
}

void gemm_run_skinny(Gemm *g, const GemmRange *r, LLVMValueRef A, LLVMValueRef B,
                     LLVMValueRef C) {
  CG *cg = g->cg;
  const GemmPlan *p = &g->p;
  CgLoop lb;
  LLVMValueRef bi = cg_loop_begin(cg, &lb, r->b0, r->b1);
  GemmBlock k = gemm_block_at(g, bi, cg_i64(cg, 0), p->v.M, r, A, B, C);
  LLVMValueRef row0 = LLVMBuildMul(g->b, bi, p->v.M, "");
  gemm_skinny(g, k.a, k.b, k.c, row0, r->c0, r->c1);
  cg_loop_end(cg, &lb);
}
