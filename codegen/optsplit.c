/*
 * optsplit.c: LLVM's -O3 pipeline on two cores.
 *
 * default<O3> is run in two parts, the text LLVM 19 prints for it
 * (`opt-19 -passes='default<O3>' -print-pipeline-passes`) cut before the
 * inliner: PIPE_IPO (interprocedural constant propagation, which gives a
 * kernel called once with a constant [begin, end) those constants,
 * calling conventions and global optimization) runs on the whole module;
 * PIPE_LOCAL (the inliner's walk with each function's simplification,
 * then the loop vectorizer, unrolling and the rest, nearly all of the
 * time) runs on two modules at once, each in its own LLVMContext and
 * target machine (a context and a target machine are each used by one
 * thread only):
 *  - this thread's module keeps the entry functions (external linkage) and
 *    what they call but the kernels moved, which become declarations;
 *  - the second thread's module defines the moved kernels (made external
 *    for the time of the split) and every function they call. For an
 *    ELF64 object (split_objects) a function kernels on both sides call
 *    (a GEMM microkernel) is the first's alone: the second calls it as a
 *    hidden declaration, and the first keeps it external (so its
 *    signature and calling convention stay those the declaration has)
 *    while it is optimized, local again before it is emitted. Otherwise
 *    it is in both, so each module's inference of attributes, argument
 *    promotion and calling conventions sees every caller of its copy.
 * Both are read from one bitcode of the module after PIPE_IPO (the first
 * in the compile's context, in place of the module codegen built), so
 * that both copies of such a function start alike, use-list orders
 * included (run_first). Kernels move largest first where that shortens
 * the longer side (plan; the cost model is at FN_COST, for objects
 * OBJ_LOOP_WORK). For an ELF64
 * object each module is then emitted on its own thread right after its
 * optimization (emission was as long as the optimization, and serial),
 * and elfjoin.c joins the two objects: the moved kernels, the weights'
 * blob and the first's functions the second calls are hidden symbols
 * across the two. Otherwise (assembly,
 * LLVM IR, the memory plan, other formats) the second module comes back
 * as bitcode and is linked into the first; its copies of local
 * functions and constants the first has too are dropped where they print
 * alike (else both stay: each is right for its callers; a caller is
 * matched again once its callees' copies are dropped), the moved kernels
 * get their linkage back, and one object is emitted as before. The
 * weights are not in the module yet (weights.c defines them after
 * optimization), so no weight byte goes through bitcode.
 *
 * The two parts in a row are default<O3> exactly (the same objects)
 * followed by CG_PIPE_LSR (codegen.h), the loop strength reduction the
 * backend would have run first (target.c turns its own off). The split
 * changes three things: the moved functions come after the others
 * in the object; a moved kernel called directly (--threads=1) keeps its
 * frame pointer and its constant begin and end as arguments (PIPE_IPO has
 * propagated the constants into it: its loops are the same) instead of
 * having them promoted and removed, which needs the caller in the same
 * module (an object's split drops the constants, below); and every
 * function went through bitcode, which LLVM-C writes without use-list
 * orders, so their blocks' predecessor lists come back in another order
 * and register allocation and block layout differ in places (ResNet-50
 * b8, 2 threads: a kernel of 0x9c8 bytes instead of 0xa28). Run time is
 * unchanged (docs/architecture.md, "Compile time").
 * Emitted in two objects, deadargelim has run on the whole module first
 * (drop_dead_args): a kernel's function has the size it has in the
 * linked module (ResNet-50 b1/b8, 2 threads: .text the same size), an
 * entry that calls a moved kernel directly is smaller (it passes no
 * constant begin and end: b1 at 1 thread .text 0x1600e -> 0x15e0e); the
 * padding between the halves differs, and the calls and addresses of
 * moved kernels are relocations; small constants both halves use are in
 * both (private: no symbol to share; ResNet-50 .rodata 16 -> 20 KB).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "codegen.h"

static const char PIPE_IPO[] =
    "annotation2metadata,forceattrs,inferattrs,coro-early,"
    "function<eager-inv>(ee-instrument<>,lower-expect,"
    "simplifycfg<bonus-inst-threshold=1;no-forward-switch-cond;"
    "no-switch-range-to-icmp;no-switch-to-lookup;keep-loops;no-hoist-common-insts;"
    "no-sink-common-insts;speculate-blocks;simplify-cond-branch;"
    "no-speculate-unpredictables>,sroa<modify-cfg>,early-cse<>,callsite-splitting),"
    "openmp-opt,ipsccp,called-value-propagation,globalopt,"
    "function<eager-inv>(mem2reg,instcombine<max-iterations=1;no-use-loop-info;"
    "no-verify-fixpoint>,simplifycfg<bonus-inst-threshold=1;no-forward-switch-cond;"
    "switch-range-to-icmp;no-switch-to-lookup;keep-loops;no-hoist-common-insts;"
    "no-sink-common-insts;speculate-blocks;simplify-cond-branch;"
    "no-speculate-unpredictables>),always-inline";

/* Tried (branch ct, 2026-11-28): PIPE_IPO's last function group
 * (mem2reg, instcombine, simplifycfg) and always-inline moved to the head
 * of PIPE_LOCAL, to run on both halves: instcombine is half of PIPE_IPO
 * (opt-19, ResNet-50 b1/b8: 0.10 of 0.20 s CPU), same results (shloc run,
 * objects' calls), the halves as even. Not kept: no wall gain measured
 * (load 3-9), and cg_weights_ahead's thread already has the second core
 * while PIPE_IPO runs. */
/* Where the time goes (opt-19 -time-passes and -time-trace on ResNet-50
 * b1's module as cg_optimize gets it, --elided=pattern, Zen 3, user time,
 * load 4-7): default<O3> + CG_PIPE_LSR takes 1.34 s on the 1-thread IR
 * and 1.89 s on the 2-thread IR, PIPE_IPO 0.12 s of it (serial);
 * instcombine 0.29 / 0.30 s, loop-reduce 0.25 / 0.53, loop-unroll 0.11 /
 * 0.14, indvars 0.08 / 0.13, loop-vectorize 0.07. The heaviest functions
 * are the Winograd transform kernels (36 pointers off one induction
 * variable: loop-reduce 40-50 ms per loop; also the largest to emit).
 * PIPE_LOCAL without loop-vectorize, loop-load-elim and loop-unroll<O3>:
 * 1.80 -> 1.11 s (2-thread IR), .text 133213 -> 106049 bytes; not done:
 * the scalar loops codegen leaves to LLVM (copies, broadcasts, GEMM
 * epilogues) need them. Instead loop metadata (cg_loop_vector:
 * llvm.loop.vectorize.enable false, llvm.loop.unroll.disable) marks the
 * loops codegen writes in vectors: every loop emitted while a convolution
 * kernel is built (its conv microkernels' too) but its epilogue's and the
 * fold's edge copy (conv.c cg_kernel_conv: ResNet-50 compile CPU time
 * 3.04 -> 2.68 s at 1 thread, 3.48 -> 3.40 s at 2, run time unchanged).
 * Emission (llc-19 -time-trace): instruction selection is half, spread
 * over every function (30-80 ms for the largest). */
/* Measured again (branch ct, 2026-11-28, Sapphire Rapids VM, cachegrind
 * instructions, so the load did not matter): default<O3> + CG_PIPE_LSR
 * on ResNet-50 b1's module as cg_optimize gets it, 4.83 G at 2 threads
 * (4.11 G at 1): loop-reduce 30 % (IVUsers and SCEV over the kernels'
 * nests, spread over 207 loops: none above 5 % of it), instcombine 19 %,
 * indvars 6.6 %, gvn 3.7 %, ipsccp 3.2 %, dse 3.2 %, loop-vectorize 3.0 %,
 * loop-load-elim 2.7 %, called-value-propagation 1.2 %. Tried, not kept:
 * PIPE_IPO/PIPE_LOCAL without called-value-propagation, dse and the
 * instcombine after slp-vectorizer and vector-combine (4.83 -> 4.53 G;
 * the same IR for that module and byte-identical objects of ResNet-50
 * b1/b8, BERT-base, the GPT-2 step at 1 and 2 threads), because
 * tests/run/cholesky_lower_upper.mlir's object changed (not looked into);
 * without simple-loop-unswitch the code changes (ResNet-50 kernels).
 * Emission (llc-19 on the optimized module, 2.78 G): instruction
 * selection 41 %, of which SelectionDAG's known-bits queries on the i64
 * udiv/urem by constants (their MULHU: 128-bit KnownBits::mul) are a
 * large part: the same module with those divisions done in i32 took 7 %
 * fewer instructions to emit (an experiment, not a valid rewrite: the
 * dividends are not known to fit). */
static const char PIPE_LOCAL[] =
    "require<globals-aa>,function(invalidate<aa>),require<profile-summary>,"
    "cgscc(devirt<4>(inline,function-attrs<skip-non-recursive-function-attrs>,"
    "argpromotion,openmp-opt-cgscc,function<eager-inv;no-rerun>(sroa<modify-cfg>,"
    "early-cse<memssa>,speculative-execution<only-if-divergent-target>,"
    "jump-threading,correlated-propagation,simplifycfg<bonus-inst-threshold=1;"
    "no-forward-switch-cond;switch-range-to-icmp;no-switch-to-lookup;keep-loops;"
    "no-hoist-common-insts;no-sink-common-insts;speculate-blocks;"
    "simplify-cond-branch;no-speculate-unpredictables>,instcombine<max-iterations=1;"
    "no-use-loop-info;no-verify-fixpoint>,aggressive-instcombine,libcalls-shrinkwrap,"
    "tailcallelim,simplifycfg<bonus-inst-threshold=1;no-forward-switch-cond;"
    "switch-range-to-icmp;no-switch-to-lookup;keep-loops;no-hoist-common-insts;"
    "no-sink-common-insts;speculate-blocks;simplify-cond-branch;"
    "no-speculate-unpredictables>,reassociate,constraint-elimination,"
    "loop-mssa(loop-instsimplify,loop-simplifycfg,licm<no-allowspeculation>,"
    "loop-rotate<header-duplication;no-prepare-for-lto>,licm<allowspeculation>,"
    "simple-loop-unswitch<nontrivial;trivial>),simplifycfg<bonus-inst-threshold=1;"
    "no-forward-switch-cond;switch-range-to-icmp;no-switch-to-lookup;keep-loops;"
    "no-hoist-common-insts;no-sink-common-insts;speculate-blocks;"
    "simplify-cond-branch;no-speculate-unpredictables>,instcombine<max-iterations=1;"
    "no-use-loop-info;no-verify-fixpoint>,loop(loop-idiom,indvars,"
    "simple-loop-unswitch<nontrivial;trivial>,loop-deletion,loop-unroll-full),"
    "sroa<modify-cfg>,vector-combine,mldst-motion<no-split-footer-bb>,gvn<>,sccp,"
    "bdce,instcombine<max-iterations=1;no-use-loop-info;no-verify-fixpoint>,"
    "jump-threading,correlated-propagation,adce,memcpyopt,dse,move-auto-init,"
    "loop-mssa(licm<allowspeculation>),coro-elide,simplifycfg<bonus-inst-threshold=1;"
    "no-forward-switch-cond;switch-range-to-icmp;no-switch-to-lookup;keep-loops;"
    "hoist-common-insts;sink-common-insts;speculate-blocks;simplify-cond-branch;"
    "no-speculate-unpredictables>,instcombine<max-iterations=1;no-use-loop-info;"
    "no-verify-fixpoint>),function-attrs,"
    "function(require<should-not-run-function-passes>),coro-split)),deadargelim,"
    "coro-cleanup,globalopt,globaldce,elim-avail-extern,rpo-function-attrs,"
    "recompute-globalsaa,function<eager-inv>(float2int,lower-constant-intrinsics,chr,"
    "loop(loop-rotate<header-duplication;no-prepare-for-lto>,loop-deletion),"
    "loop-distribute,inject-tli-mappings,loop-vectorize<no-interleave-forced-only;"
    "no-vectorize-forced-only;>,infer-alignment,loop-load-elim,"
    "instcombine<max-iterations=1;no-use-loop-info;no-verify-fixpoint>,"
    "simplifycfg<bonus-inst-threshold=1;forward-switch-cond;switch-range-to-icmp;"
    "switch-to-lookup;no-keep-loops;hoist-common-insts;sink-common-insts;"
    "speculate-blocks;simplify-cond-branch;no-speculate-unpredictables>,"
    "slp-vectorizer,vector-combine,instcombine<max-iterations=1;no-use-loop-info;"
    "no-verify-fixpoint>,loop-unroll<O3>,transform-warning,sroa<preserve-cfg>,"
    "infer-alignment,instcombine<max-iterations=1;no-use-loop-info;"
    "no-verify-fixpoint>,loop-mssa(licm<allowspeculation>),"
    "alignment-from-assumptions,loop-sink,instsimplify,div-rem-pairs,tailcallelim,"
    "simplifycfg<bonus-inst-threshold=1;no-forward-switch-cond;switch-range-to-icmp;"
    "no-switch-to-lookup;keep-loops;no-hoist-common-insts;no-sink-common-insts;"
    "speculate-blocks;simplify-cond-branch;speculate-unpredictables>),globaldce,"
    "constmerge,cg-profile,rel-lookup-table-converter,function(annotation-remarks)" CG_PIPE_LSR;

/* Below this cost (in kernel instructions, below: about 60 ms) the second
 * thread costs more than it saves. */
enum { SPLIT_MIN_COST = 2000 };
/* What PIPE_LOCAL costs per function, in a kernel's instructions (about
 * 30 us each on the Zen 4 VM): FN_COST each, then per instruction 1 in a
 * kernel (its loops are vectorized and unrolled), 2/3 in the functions
 * kernels call (GEMM microkernels), 1/3 in an entry (calls, the frames'
 * stores). From opt-19 -time-passes on each function of ResNet-50 b8,
 * BERT-base 128 tokens and the GPT-2 step alone: BERT's 6x64 microkernel,
 * 840 instructions after PIPE_IPO, 16 ms; kernels of 137 and 948, 14 and
 * 27 ms; five of 33 to 63, 23 ms; its entry, 1960, 19 ms. */
enum { FN_COST = 100 };
/* Tried (branch ce, 676cc84, reverted): kernel instructions weighted by
 * their loop depth, (1 + d)^3, which fits the per-function times above on
 * Zen 3 far better (ResNet-50's 5-deep convolution kernels cost 8x what
 * 1 per instruction says), with a callee called from one function costed
 * twice (LLVM inlines it). It evened the two threads' CPU (ResNet-50, 2
 * threads: 0.6-0.85 / 1.0-1.3 s -> 0.9-0.97 / 0.97-1.03 s) but not the
 * wall time (1.95 -> 2.03 s least of 5, load 1.3-2.3): cg_weights_ahead's
 * thread (0.35 s for ResNet-50) runs during the optimization too, on the
 * core the shorter side leaves idle. */
/* What a thread does per function when each half is emitted on its own
 * (objects): PIPE_LOCAL and emission, in the same unit (about 88 us of
 * Zen 3): a kernel its instructions plus OBJ_LOOP_WORK per phi after
 * PIPE_IPO (about its loops' induction variables: a loop nest costs far
 * more than its instruction count says), a function kernels call (GEMM
 * microkernel) 2 FN_COST + 1 per instruction, an entry 2 FN_COST + 1/5 per
 * instruction. Fitted to each function's opt-19 and llc-19 -time-trace
 * times in ResNet-50 b1's two modules at 2 threads (Zen 3): kernels 6.6
 * to 209 ms, rms error 10.6 ms (15.7 ms by instructions alone, which
 * put the Winograd kernels and the 7 x 7 stem, 145-209 ms, at 0.6-0.8x);
 * microkernels 47-61 ms; the entry 46 ms. The first thread's CPU over
 * the second's (optimization and emission, b1 and b8 at 1 and 2
 * threads, load 2-7): 0.96-1.12 before (PIPE_LOCAL's cost alone, a
 * microkernel on both sides), 0.88-1.12 with this model. */
enum { OBJ_LOOP_WORK = 80 };
/* The second module's local definitions carry this suffix until the link
 * has matched them with the first module's. */
#define SUFFIX ".split"

typedef struct SplitFn {
  LLVMValueRef fn;
  int size;     /* instructions */
  int loops;    /* phis: about the loops' induction variables */
  int cost;     /* of PIPE_LOCAL on it, in kernel instructions (FN_COST) */
  int work;     /* its side's thread's: cost, or for objects OBJ_LOOP_WORK's */
  int *callees; /* indices of the defined functions its instructions name */
  int ncallees;
  bool defined;
  bool entry;   /* defined, not local: stays in the first module */
  bool in_a, in_b, moved;
  bool exported; /* objects: in the first module, called from the second */
} SplitFn;

typedef struct Split {
  SplitFn *fns;   /* in the module's order */
  SplitFn **byfn; /* sorted by LLVMValueRef, for index_of */
  int n;
} Split;

static int cmp_fn(const void *a, const void *b) {
  uintptr_t x = (uintptr_t)(*(SplitFn *const *)a)->fn, y = (uintptr_t)(*(SplitFn *const *)b)->fn;
  return x < y ? -1 : x > y;
}

static int index_of(const Split *s, LLVMValueRef f) {
  SplitFn key = {.fn = f}, *k = &key;
  SplitFn **hit = bsearch(&k, s->byfn, (size_t)s->n, sizeof *hit, cmp_fn);
  return hit ? (int)(*hit - s->fns) : -1;
}

static bool is_local(LLVMValueRef g) {
  LLVMLinkage l = LLVMGetLinkage(g);
  return l == LLVMInternalLinkage || l == LLVMPrivateLinkage;
}

static bool has_body(LLVMValueRef f) { return LLVMCountBasicBlocks(f) > 0; }

/* Whether every use of every local function is an instruction's (a call,
 * or the kernel handed to shlort_parallel_for), so that the functions'
 * operands are the whole graph. */
static bool uses_are_instructions(LLVMModuleRef mod) {
  for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f)) {
    if (!is_local(f)) continue;
    for (LLVMUseRef u = LLVMGetFirstUse(f); u; u = LLVMGetNextUse(u))
      if (!LLVMIsAInstruction(LLVMGetUser(u))) return false;
  }
  return true;
}

static void add_callee(SplitFn *f, int j) {
  for (int k = 0; k < f->ncallees; k++)
    if (f->callees[k] == j) return;
  f->callees = realloc(f->callees, (size_t)(f->ncallees + 1) * sizeof *f->callees);
  f->callees[f->ncallees++] = j;
}

/* Sizes and callees (every defined function an operand names). */
static void scan_fn(Split *s, SplitFn *f) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f->fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      f->size++;
      f->loops += LLVMIsAPHINode(i) != NULL;
      int nops = LLVMGetNumOperands(i);
      for (int k = 0; k < nops; k++) {
        LLVMValueRef op = LLVMGetOperand(i, k);
        if (!op || !LLVMIsAFunction(op) || !has_body(op)) continue;
        int j = index_of(s, op);
        if (j >= 0 && !s->fns[j].entry) add_callee(f, j);
      }
    }
}

static void split_init(Split *s, LLVMModuleRef mod, bool objects) {
  s->n = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f)) s->n++;
  s->fns = calloc((size_t)s->n, sizeof *s->fns);
  s->byfn = malloc((size_t)s->n * sizeof *s->byfn);
  int i = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f), i++) {
    s->fns[i] = (SplitFn){.fn = f, .defined = has_body(f)};
    s->fns[i].entry = s->fns[i].defined && !is_local(f);
    s->byfn[i] = &s->fns[i];
  }
  qsort(s->byfn, (size_t)s->n, sizeof *s->byfn, cmp_fn);
  for (i = 0; i < s->n; i++) scan_fn(s, &s->fns[i]);
  bool *kernel = calloc((unsigned)s->n, 1);
  for (i = 0; i < s->n; i++)
    for (int k = 0; s->fns[i].entry && k < s->fns[i].ncallees; k++) kernel[s->fns[i].callees[k]] = true;
  for (i = 0; i < s->n; i++) {
    SplitFn *f = &s->fns[i];
    if (!f->defined) continue;
    f->cost = FN_COST + (f->entry ? f->size / 3 : kernel[i] ? f->size : 2 * f->size / 3);
    f->work = !objects   ? f->cost
              : f->entry ? 2 * FN_COST + f->size / 5
              : kernel[i] ? f->size + OBJ_LOOP_WORK * f->loops
                          : 2 * FN_COST + f->size;
  }
  free(kernel);
}

static void split_free(Split *s) {
  for (int i = 0; i < s->n; i++) free(s->fns[i].callees);
  free(s->fns);
  free(s->byfn);
}

/* Marks in seen[] what root calls, itself included, not going past
 * stop[] (when given); returns the cost of what it newly marked. */
static int reach(const Split *s, int root, bool *seen, const bool *stop, int *stack) {
  int n = 0, total = 0;
  if (seen[root]) return 0;
  seen[root] = true;
  stack[n++] = root;
  while (n) {
    const SplitFn *f = &s->fns[stack[--n]];
    total += f->work;
    for (int k = 0; k < f->ncallees; k++) {
      int j = f->callees[k];
      if (seen[j] || (stop && stop[j])) continue;
      seen[j] = true;
      stack[n++] = j;
    }
  }
  return total;
}

/* The kernels the entries call, largest (with what they call) first. */
static int roots_by_size(const Split *s, int *roots, int *weight, int *stack, bool *seen) {
  int nroots = 0;
  for (int i = 0; i < s->n; i++) {
    const SplitFn *e = &s->fns[i];
    for (int k = 0; e->entry && k < e->ncallees; k++) {
      int j = e->callees[k], at = 0;
      for (; at < nroots && roots[at] != j; at++) {}
      if (at < nroots) continue;
      memset(seen, 0, (size_t)s->n);
      int w = reach(s, j, seen, NULL, stack);
      for (at = nroots; at > 0 && weight[at - 1] < w; at--) {
        roots[at] = roots[at - 1];
        weight[at] = weight[at - 1];
      }
      roots[at] = j;
      weight[at] = w;
      nroots++;
    }
  }
  return nroots;
}

/* The work of each module when the kernels moved[] are the second's:
 * the first defines the entries and all they reach but the moved
 * kernels, the second those and what they call (for objects, but what
 * the first defines: those it exports); *wa and *wb their work. */
static void sides(Split *s, const bool *moved, bool objects, int *stack, int *wa, int *wb) {
  bool *in_a = malloc((size_t)s->n * 2), *in_b = in_a + s->n;
  memset(in_a, 0, (size_t)s->n * 2);
  *wa = *wb = 0;
  for (int i = 0; i < s->n; i++)
    if (s->fns[i].entry) *wa += reach(s, i, in_a, moved, stack);
  for (int i = 0; i < s->n; i++)
    if (moved[i]) *wb += reach(s, i, in_b, objects ? in_a : NULL, stack);
  for (int i = 0; i < s->n; i++) {
    SplitFn *f = &s->fns[i];
    f->in_a = in_a[i];
    f->in_b = in_b[i];
    f->moved = moved[i];
    f->exported = false;
  }
  for (int i = 0; objects && i < s->n; i++)
    for (int k = 0; in_b[i] && k < s->fns[i].ncallees; k++)
      if (in_a[s->fns[i].callees[k]]) s->fns[s->fns[i].callees[k]].exported = true;
  free(in_a);
}

static int max_int(int a, int b) { return a > b ? a : b; }

/* Moves kernels to the second module, largest (with what they call)
 * first, each where it shortens the longer module's work (what both need,
 * the GEMM microkernels, counts in both, but for objects in the first
 * alone: BERT's 7-token skinny kernel is half of the module, and moved
 * with all its callers or stayed). Returns whether any moved. */
static bool plan(Split *s, bool objects) {
  if (s->n <= 0) return false;
  int total = 0, *roots = malloc((size_t)s->n * 3 * sizeof *roots);
  int *weight = roots + s->n, *stack = weight + s->n;
  bool *seen = malloc((size_t)s->n * 2), *moved = seen + s->n;
  int work = 0;
  for (int i = 0; i < s->n; i++) {
    total += s->fns[i].cost;
    work += s->fns[i].work;
  }
  int nroots = total < SPLIT_MIN_COST ? 0 : roots_by_size(s, roots, weight, stack, seen);
  int wa = work, wb = 0, a, b;
  memset(moved, 0, (size_t)s->n);
  for (int r = 0; r < nroots; r++) {
    moved[roots[r]] = true;
    sides(s, moved, objects, stack, &a, &b);
    if (max_int(a, b) < max_int(wa, wb)) {
      wa = a;
      wb = b;
    } else {
      moved[roots[r]] = false;
    }
  }
  sides(s, moved, objects, stack, &a, &b);
  free(roots);
  free(seen);
  return b > 0;
}

/* Makes f a declaration: its instructions' uses become poison (only its
 * own instructions use them), then they and its blocks go. */
static void strip_body(LLVMValueRef f) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
      if (LLVMGetTypeKind(LLVMTypeOf(i)) != LLVMVoidTypeKind)
        LLVMReplaceAllUsesWith(i, LLVMGetPoison(LLVMTypeOf(i)));
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i; (i = LLVMGetFirstInstruction(bb));) LLVMInstructionEraseFromParent(i);
  for (LLVMBasicBlockRef bb; (bb = LLVMGetFirstBasicBlock(f));) LLVMDeleteBasicBlock(bb);
  LLVMSetLinkage(f, LLVMExternalLinkage);
}

/* Keeps the bodies of the functions the plan gives this module (by their
 * index in the module's order, which the bitcode round trip keeps): the
 * others become declarations, deleted where nothing names them any more;
 * the functions the first exports to the second are external and hidden
 * in both. False, changing nothing, where the module has not the plan's
 * number of functions. Only the module's own values are read (the plan's
 * fn are the first module's, another thread's). */
static bool keep_only(LLVMModuleRef mod, const Split *s, bool second) {
  int i = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f)) i++;
  if (i != s->n) return false;
  LLVMValueRef *fns = malloc((size_t)s->n * sizeof *fns);
  i = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f)) fns[i++] = f;
  for (i = 0; i < s->n; i++) {
    const SplitFn *f = &s->fns[i];
    if (!f->defined) continue;
    if (second ? !f->in_b : !f->in_a) strip_body(fns[i]);
    else if (f->moved || f->exported) LLVMSetLinkage(fns[i], LLVMExternalLinkage);
    if (f->exported) LLVMSetVisibility(fns[i], LLVMHiddenVisibility);
  }
  for (i = 0; i < s->n; i++)
    if (s->fns[i].defined && !has_body(fns[i]) && !LLVMGetFirstUse(fns[i]))
      LLVMDeleteFunction(fns[i]);
  free(fns);
  return true;
}

/* Whether the module has only what the split handles: functions that
 * only instructions name, no exported global variable or alias (which
 * the second module's copy would define twice), and no local variable
 * that is not constant: each module would have its own copy, and one
 * module's globalopt, seeing only its own stores or loads, would fold or
 * delete them (--weights=file's shloc.weights pointer, stored by the
 * loader in one module and read by kernels in the other, read as null). */
static bool splittable(LLVMModuleRef mod) {
  for (LLVMValueRef g = LLVMGetFirstGlobal(mod); g; g = LLVMGetNextGlobal(g))
    if (LLVMGetInitializer(g) && (!is_local(g) || !LLVMIsGlobalConstant(g))) return false;
  return !LLVMGetFirstGlobalAlias(mod) && !LLVMGetFirstGlobalIFunc(mod) && uses_are_instructions(mod);
}

/* NULL, or the pass pipeline's error (malloc'ed). */
static char *run_pipeline(LLVMModuleRef mod, const char *passes, LLVMTargetMachineRef tm) {
  LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
  LLVMErrorRef err = LLVMRunPasses(mod, passes, tm, opts);
  LLVMDisposePassBuilderOptions(opts);
  if (!err) return NULL;
  char *msg = LLVMGetErrorMessage(err), *copy = strdup(msg);
  LLVMDisposeErrorMessage(msg);
  return copy;
}

/* v's name with SUFFIX added; names are any length, never cut. */
static void suffix_name(LLVMValueRef v) {
  size_t len;
  const char *s = LLVMGetValueName2(v, &len);
  char *name = malloc(len + sizeof SUFFIX);
  memcpy(name, s, len);
  memcpy(name + len, SUFFIX, sizeof SUFFIX);
  LLVMSetValueName2(v, name, len + sizeof SUFFIX - 1);
  free(name);
}

/* The second module's local definitions get SUFFIX (match_copies). */
static void add_suffix(LLVMModuleRef mod) {
  for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f))
    if (has_body(f) && is_local(f)) suffix_name(f);
  for (LLVMValueRef g = LLVMGetFirstGlobal(mod); g; g = LLVMGetNextGlobal(g)) {
    size_t len;
    LLVMGetValueName2(g, &len);
    if (len && LLVMGetInitializer(g) && is_local(g)) suffix_name(g);
  }
}

/* LLVM's own handler prints an error and exits the process (from either
 * thread); the split's contexts record the first error instead, and the
 * split fails with it. */
static void on_error(LLVMDiagnosticInfoRef info, void *first) {
  char **err = first;
  if (LLVMGetDiagInfoSeverity(info) != LLVMDSError || *err) return;
  char *msg = LLVMGetDiagInfoDescription(info);
  *err = strdup(msg);
  LLVMDisposeMessage(msg);
}

typedef struct Moved {
  char *name;
  LLVMLinkage linkage;
  LLVMUnnamedAddr unnamed;
} Moved;

/* The second thread's work: its module optimized, then (objects)
 * emitted as an object of its own, joined to the first's by
 * cg_split_join, else returned as bitcode and linked into the first. */
typedef struct Second {
  Split s;
  LLVMTargetMachineRef tm;  /* its own: a target machine caches subtargets */
  LLVMMemoryBufferRef bc;   /* the module after PIPE_IPO, read by both threads */
  LLVMMemoryBufferRef out;  /* the second module optimized, or its object */
  bool objects;
  Moved *moved;             /* the kernels it defines */
  int nmoved;
  /* objects: the first module's local functions the second calls,
   * external while the first is optimized (keep_only) */
  char **exported;
  int nexported;
  LLVMContextRef ctx;       /* objects: kept from optimization to emission */
  LLVMModuleRef mod;
  pthread_t thread;
  bool threaded;
  char *err;
  double ms, emit_ms;
} Second;

/* The module of bitcode bc in ctx with the bodies the plan gives one side
 * (keep_only), or NULL with *err set. */
static LLVMModuleRef read_side(LLVMContextRef ctx, LLVMMemoryBufferRef bc, const Split *s,
                               bool second, char **err) {
  LLVMModuleRef mod = NULL;
  if (LLVMParseBitcodeInContext2(ctx, bc, &mod)) {
    if (!*err) *err = strdup("cannot read back bitcode");
    return NULL;
  }
  if (keep_only(mod, s, second)) return mod;
  if (!*err) *err = strdup("bitcode read back with other functions");
  LLVMDisposeModule(mod);
  return NULL;
}

/* The second module read and optimized; kept for second_emit (objects),
 * else handed back as bitcode. */
static void second_optimize(Second *t) {
  double start = cg_cpu_ms();
  t->ctx = LLVMContextCreate();
  LLVMContextSetDiagnosticHandler(t->ctx, on_error, &t->err);
  t->mod = read_side(t->ctx, t->bc, &t->s, true, &t->err);
  if (t->mod && !t->err) t->err = run_pipeline(t->mod, PIPE_LOCAL, t->tm);
  if (!t->objects) {
    if (t->mod && !t->err) {
      add_suffix(t->mod);
      t->out = LLVMWriteBitcodeToMemoryBuffer(t->mod);
    }
    if (t->mod) LLVMDisposeModule(t->mod);
    LLVMContextDispose(t->ctx);
    t->mod = NULL;
    t->ctx = NULL;
  }
  t->ms = cg_cpu_ms() - start;
}

static const char *skip_digits(const char *p) {
  while (*p >= '0' && *p <= '9') p++;
  return p;
}

/* Whether p (in text) is a metadata node's number (each loop's own) or
 * an attribute group's (" #5": which numbers a module gives its groups
 * depends on its other functions; fn_text spells them out). */
static bool numbered(const char *p, const char *text) {
  return (p[0] == '!' || (p[0] == '#' && p > text && p[-1] == ' ')) && p[1] >= '0' && p[1] <= '9';
}

/* Whether two texts of fn_text are alike but for the functions' names,
 * comments and the numbers of their metadata and attribute groups: the
 * text has their attributes, calling conventions and every
 * instruction. */
static bool text_alike(const char *x, const char *y) {
  const char *p = strchr(x, '@'), *q = strchr(y, '@');
  bool same = p && q && p - x == q - y && !memcmp(x, y, (size_t)(p - x));
  if (same) {
    p = strchr(p, '(');
    q = strchr(q, '(');
    same = p && q;
  }
  while (same && *p && *q) {
    if (*p == ';' && *q == ';') { /* comments: "; preds = %5, %7" in use-list order */
      p += strcspn(p, "\n");
      q += strcspn(q, "\n");
    } else if (numbered(p, x) && numbered(q, y) && p[0] == q[0]) {
      p = skip_digits(p + 1);
      q = skip_digits(q + 1);
    } else {
      same = *p++ == *q++;
    }
  }
  return same && !*p && !*q;
}

/* The attributes of a list (kinds and values), or false where one is of
 * a kind this does not spell. */
static bool put_attrs(FILE *f, LLVMAttributeRef *a, unsigned n) {
  for (unsigned k = 0; k < n; k++) {
    unsigned len, vlen;
    if (LLVMIsStringAttribute(a[k])) {
      const char *key = LLVMGetStringAttributeKind(a[k], &len);
      const char *val = LLVMGetStringAttributeValue(a[k], &vlen);
      fprintf(f, " \"%.*s\"=\"%.*s\"", (int)len, key, (int)vlen, val);
    } else if (LLVMIsEnumAttribute(a[k])) {
      fprintf(f, " %u=%llu", LLVMGetEnumAttributeKind(a[k]),
              (unsigned long long)LLVMGetEnumAttributeValue(a[k]));
    } else {
      return false;
    }
  }
  fputc('\n', f);
  return true;
}

/* cg_print_unnamed's text of f, then the function attributes of f and of
 * each of its calls (its text names their groups by number only);
 * malloc'ed, NULL where an attribute is of a kind put_attrs does not
 * spell. */
static char *fn_text(LLVMValueRef fn) {
  char *text = NULL, *ir = cg_print_unnamed(fn);
  size_t len;
  FILE *f = open_memstream(&text, &len);
  fputs(ir, f);
  LLVMDisposeMessage(ir);
  unsigned n = LLVMGetAttributeCountAtIndex(fn, LLVMAttributeFunctionIndex);
  LLVMAttributeRef *a = malloc((n + 1) * sizeof *a);
  LLVMGetAttributesAtIndex(fn, LLVMAttributeFunctionIndex, a);
  bool ok = put_attrs(f, a, n);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); ok && bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); ok && i; i = LLVMGetNextInstruction(i)) {
      if (!LLVMIsACallInst(i)) continue;
      n = LLVMGetCallSiteAttributeCount(i, LLVMAttributeFunctionIndex);
      a = realloc(a, (n + 1) * sizeof *a);
      LLVMGetCallSiteAttributes(i, LLVMAttributeFunctionIndex, a);
      ok = put_attrs(f, a, n);
    }
  free(a);
  fclose(f);
  if (ok) return text;
  free(text);
  return NULL;
}

/* Whether functions a and b of one module print alike (fn_text,
 * text_alike; local names are the passes': each module numbers its own
 * ".idx370"). */
static bool print_alike(LLVMValueRef a, LLVMValueRef b) {
  if (!LLVMIsAFunction(a)) return false;
  char *x = fn_text(a), *y = fn_text(b);
  bool same = x && y && text_alike(x, y);
  free(x);
  free(y);
  return same;
}

/* The functions named in moved, and the weights' blob, hidden where mod
 * has them: defined in one object, referred to from the other, where a
 * default-visibility symbol would be reached through the GOT. */
static void hide(LLVMModuleRef mod, const Moved *moved, int nmoved) {
  for (int i = 0; i < nmoved; i++) {
    LLVMValueRef f = LLVMGetNamedFunction(mod, moved[i].name);
    if (f) LLVMSetVisibility(f, LLVMHiddenVisibility);
  }
  LLVMValueRef blob = LLVMGetNamedGlobal(mod, CG_WEIGHTS_BLOB);
  if (blob) LLVMSetVisibility(blob, LLVMHiddenVisibility);
}

/* objects: the second module's object. */
static void second_emit(Second *t) {
  double start = cg_cpu_ms();
  if (t->mod && !t->err) {
    hide(t->mod, t->moved, t->nmoved);
    char *msg = NULL;
    if (LLVMTargetMachineEmitToMemoryBuffer(t->tm, t->mod, LLVMObjectFile, &msg, &t->out)) {
      if (!t->err) t->err = strdup(msg);
      t->out = NULL;
    }
    LLVMDisposeMessage(msg);
  }
  if (t->mod) LLVMDisposeModule(t->mod);
  if (t->ctx) LLVMContextDispose(t->ctx);
  t->mod = NULL;
  t->ctx = NULL;
  t->emit_ms = cg_cpu_ms() - start;
}

static void *second_run(void *arg) {
  Second *t = arg;
  second_optimize(t);
  if (t->objects) second_emit(t);
  return NULL;
}

static bool same_section(LLVMValueRef a, LLVMValueRef b) {
  const char *x = LLVMGetSection(a), *y = LLVMGetSection(b);
  return !strcmp(x ? x : "", y ? y : "");
}

/* Constants are uniqued in a context: equal initializers are one value. */
static bool same_global(LLVMValueRef a, LLVMValueRef b) {
  return LLVMIsAGlobalVariable(a) && LLVMGetInitializer(a) == LLVMGetInitializer(b) &&
         LLVMGlobalGetValueType(a) == LLVMGlobalGetValueType(b) &&
         LLVMIsGlobalConstant(a) == LLVMIsGlobalConstant(b) &&
         LLVMGetAlignment(a) == LLVMGetAlignment(b) && LLVMGetLinkage(a) == LLVMGetLinkage(b) &&
         LLVMGetUnnamedAddress(a) == LLVMGetUnnamedAddress(b) &&
         LLVMIsThreadLocal(a) == LLVMIsThreadLocal(b) && same_section(a, b);
}

/* b, a copy from the second module named NAME SUFFIX: dropped for the
 * first module's NAME where they are alike, else named NAME where the
 * first has none (it had no caller there), else kept as it is. Returns
 * whether b was dropped. */
static bool match_copy(LLVMModuleRef mod, LLVMValueRef b, bool fn) {
  size_t len, n = strlen(SUFFIX);
  const char *name = LLVMGetValueName2(b, &len);
  if (len < n || strcmp(name + len - n, SUFFIX)) return false;
  char *base = strndup(name, len - n);
  LLVMValueRef a = fn ? LLVMGetNamedFunction(mod, base) : LLVMGetNamedGlobal(mod, base);
  bool drop = a && (fn ? print_alike(a, b) : same_global(a, b));
  if (!a) {
    LLVMSetValueName2(b, base, len - n);
  } else if (drop) {
    LLVMReplaceAllUsesWith(b, a);
    if (fn) LLVMDeleteFunction(b);
    else LLVMDeleteGlobal(b);
  }
  free(base);
  return drop;
}

/* Globals first: a function's text names them. A caller prints alike
 * only once its callees' copies are dropped (its calls name them), so
 * the functions are matched again while a round drops one. */
static void match_copies(LLVMModuleRef mod) {
  for (LLVMValueRef g = LLVMGetFirstGlobal(mod), next; g; g = next) {
    next = LLVMGetNextGlobal(g);
    match_copy(mod, g, false);
  }
  for (bool dropped = true; dropped;) {
    dropped = false;
    for (LLVMValueRef f = LLVMGetFirstFunction(mod), next; f; f = next) {
      next = LLVMGetNextFunction(f);
      if (has_body(f) && match_copy(mod, f, true)) dropped = true;
    }
  }
}

typedef struct Handler {
  LLVMDiagnosticHandler fn;
  void *ctx;
} Handler;

/* The compile's context records its first error in *err (on_error) until
 * end_catch, instead of calling its handler (LLVM's own while
 * optimizing, which exits the process); returns that handler. */
static Handler catch_errors(CG *cg, char **err) {
  Handler h = {LLVMContextGetDiagnosticHandler(cg->ctx), LLVMContextGetDiagnosticContext(cg->ctx)};
  LLVMContextSetDiagnosticHandler(cg->ctx, on_error, err);
  return h;
}

/* Gives the context its handler h back; returns the error of what
 * failed (err, or `what` where LLVM reported none), NULL if nothing did
 * (an error reported by a call that then succeeded is none). */
static char *end_catch(CG *cg, Handler h, bool failed, char *err, const char *what) {
  LLVMContextSetDiagnosticHandler(cg->ctx, h.fn, h.ctx);
  if (failed) return err ? err : strdup(what);
  free(err);
  return NULL;
}

static char *link_second(CG *cg, LLVMMemoryBufferRef bc, const Moved *moved, int nmoved) {
  char *err = NULL;
  Handler h = catch_errors(cg, &err);
  LLVMModuleRef second = NULL;
  bool bad = LLVMParseBitcodeInContext2(cg->ctx, bc, &second) || LLVMLinkModules2(cg->mod, second);
  LLVMDisposeMemoryBuffer(bc);
  if ((err = end_catch(cg, h, bad, err, "cannot link the split modules"))) return err;
  for (int i = 0; i < nmoved; i++) {
    LLVMValueRef f = LLVMGetNamedFunction(cg->mod, moved[i].name);
    if (!f) return strdup("a kernel optimized on the second thread is missing after the link");
    LLVMSetLinkage(f, moved[i].linkage);
    LLVMSetUnnamedAddress(f, moved[i].unnamed);
  }
  match_copies(cg->mod);
  return NULL;
}

/* The names of the moved kernels (their linkage too, which the link
 * replaces) and, for objects, of the functions exported to the second. */
static void note_names(Second *t) {
  const Split *s = &t->s;
  t->moved = malloc((size_t)s->n * sizeof *t->moved);
  t->exported = malloc((size_t)s->n * sizeof *t->exported);
  for (int i = 0; i < s->n; i++) {
    const SplitFn *f = &s->fns[i];
    const char *name = LLVMGetValueName2(f->fn, &(size_t){0});
    if (f->moved)
      t->moved[t->nmoved++] = (Moved){strdup(name), LLVMGetLinkage(f->fn), LLVMGetUnnamedAddress(f->fn)};
    else if (f->exported)
      t->exported[t->nexported++] = strdup(name);
  }
}

/* The first module read back from the bitcode the second is read from,
 * in place of cg->mod, and optimized: a function both define (a GEMM
 * microkernel) then starts from the same bodies on both sides, use-list
 * orders included (LLVM-C's bitcode has none: a module read back has
 * another order than the one built, and LICM's hoisting, the blocks'
 * predecessors and register allocation follow it), so that where both
 * sides' callers leave it alike the two copies print alike and one is
 * dropped (match_copies; objects have it in the first alone). */
static char *run_first(CG *cg, const Second *t) {
  char *err = NULL;
  Handler h = catch_errors(cg, &err);
  LLVMModuleRef first = read_side(cg->ctx, t->bc, &t->s, false, &err);
  if ((err = end_catch(cg, h, !first, err, "cannot read back bitcode"))) return err;
  LLVMClearInsertionPosition(cg->b);
  LLVMDisposeModule(cg->mod);
  cg->mod = first;
  err = run_pipeline(cg->mod, PIPE_LOCAL, cg->tm);
  for (int i = 0; i < t->nexported; i++) {
    LLVMValueRef f = LLVMGetNamedFunction(cg->mod, t->exported[i]);
    if (!f) continue;
    LLVMSetLinkage(f, LLVMInternalLinkage); /* which makes it default-visibility too */
  }
  return err;
}

static void second_free(Second *t) {
  for (int i = 0; i < t->nmoved; i++) free(t->moved[i].name);
  for (int i = 0; i < t->nexported; i++) free(t->exported[i]);
  free(t->moved);
  free(t->exported);
  if (t->out) LLVMDisposeMemoryBuffer(t->out);
  free(t->err);
  if (t->tm) LLVMDisposeTargetMachine(t->tm);
  split_free(&t->s);
  free(t);
}

/* The second thread started (or, where none can be, its optimization
 * done here first: the same modules, the same object), then the first
 * module optimized here. */
static char *start_both(CG *cg, Second *t) {
  t->bc = LLVMWriteBitcodeToMemoryBuffer(cg->mod);
  note_names(t);
  t->threaded = !pthread_create(&t->thread, NULL, second_run, t);
  if (!t->threaded) second_optimize(t);
  char *err = run_first(cg, t);
  if (t->objects && !err) {
    hide(cg->mod, t->moved, t->nmoved);
    cg_weights_redeclare(cg);
  }
  return err;
}

/* Ends the second thread (and its emission, where it has not run). */
static void finish_second(CG *cg, Second *t) {
  if (t->threaded) pthread_join(t->thread, NULL);
  else if (t->objects) second_emit(t);
  t->threaded = false;
  LLVMDisposeMemoryBuffer(t->bc);
  t->bc = NULL;
  cg->opt_second_ms = t->ms;
  cg->emit_second_ms = t->emit_ms;
}

static char *run_split(CG *cg, Second *t) {
  char *err = start_both(cg, t);
  if (t->objects && !err) {
    cg->split = t; /* emitted beside the first's object: cg_split_join */
    return NULL;
  }
  finish_second(cg, t);
  if (!err) err = t->err;
  t->err = NULL;
  if (!err) {
    err = link_second(cg, t->out, t->moved, t->nmoved);
    t->out = NULL;
  }
  second_free(t);
  return err;
}

/* Whether the object may be emitted in two halves joined by elfjoin.c:
 * little-endian ELF64 (as the host, whose structures the join reads),
 * and no memory plan (its frames come from the compile's context). Only
 * x86-64 splits at all (target.c split_applies), and the join assumes its
 * relocations (RELA, no linker relaxation: riscv64's R_RISCV_ALIGN would
 * not keep the second part aligned, and its .riscv.attributes section is
 * refused). */
static bool split_objects(CG *cg) {
  const union { uint16_t u; char c; } host = {1};
  return cg->split_objects && host.c && cg_elf_le_target(cg) && LLVMPointerSize(cg->td) == 8;
}

int cg_split_join(CG *cg, bool ok, char **out, size_t *out_len) {
  Second *t = cg->split;
  cg->split = NULL;
  finish_second(cg, t);
  const char *err = t->err;
  char *joined = NULL;
  size_t n = 0;
  if (!err && ok) err = cg_elf_join(*out, *out_len, LLVMGetBufferStart(t->out),
                                    LLVMGetBufferSize(t->out), &joined, &n);
  if (!err && ok) {
    free(*out);
    *out = joined;
    *out_len = n;
  }
  if (err) diag_error((Loc){0}, "LLVM code generation failed (second half): %s", err);
  second_free(t);
  return err != NULL;
}

/* objects: deadargelim on the whole module after PIPE_IPO, where every
 * caller of a kernel is still in view (ipsccp has put the constant
 * arguments into the bodies): the exported microkernels, external in the
 * first module while it is optimized, would otherwise keep the dead
 * arguments PIPE_LOCAL's deadargelim drops in the linked path, and every
 * call pass them (ResNet-50 b1, 2 threads: .text 0x1af45 against the
 * linked path's 0x198d5). Both halves read the reduced signatures from
 * the bitcode. The pass replaces the functions it rewrites, so the
 * split is planned again on the module it leaves; *split says whether it
 * still applies. */
static char *drop_dead_args(CG *cg, Second *t, bool *split) {
  char *err = run_pipeline(cg->mod, "deadargelim", cg->tm);
  split_free(&t->s);
  split_init(&t->s, cg->mod, t->objects);
  *split = !err && plan(&t->s, t->objects);
  return err;
}

int cg_optimize_split(CG *cg) {
  char *err = run_pipeline(cg->mod, PIPE_IPO, cg->tm);
  if (!err) {
    Second *t = calloc(1, sizeof *t);
    t->objects = split_objects(cg);
    split_init(&t->s, cg->mod, t->objects);
    bool split = splittable(cg->mod) && plan(&t->s, t->objects);
    if (split) t->tm = cg_target_machine(cg->o);
    if (split && t->tm && t->objects) err = drop_dead_args(cg, t, &split);
    if (err) {
      second_free(t);
    } else if (split && t->tm) {
      err = run_split(cg, t); /* t is freed there, or kept for cg_split_join */
    } else {
      err = split ? strdup("cannot create a second target machine")
                  : run_pipeline(cg->mod, PIPE_LOCAL, cg->tm);
      second_free(t);
    }
  }
  if (!err) return 0;
  diag_error((Loc){0}, "LLVM pass pipeline failed: %s", err);
  free(err);
  return 1;
}
