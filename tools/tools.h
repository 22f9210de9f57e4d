/*
 * tools.h: the internal interface between the files of the shloc command.
 *
 *   shloc.c      command line parsing, compile mode, dispatch
 *   driver.c     loading a module and THE pipeline of passes
 *   program.c    compile + JIT + call of one entry (run, check, bench)
 *   jit.c        the in-process ORC LLJIT, through the LLVM C API
 *   tensor_io.c  host tensors: iree-style text, random fill, printing
 *   npy.c        NumPy .npy files
 *   flops.c      FLOP count of dot/convolution ops for bench
 *   cmd_run.c, cmd_check.c, cmd_bench.c: the subcommands
 *
 * Errors are reported with diag_error (no location: "shloc: error: ...")
 * so that `shloc check` can capture them like compile errors.
 */
#ifndef SHLOC_TOOLS_H
#define SHLOC_TOOLS_H

#include "../codegen/codegen_api.h"
#include "../ir/ir.h"
#include "../runtime/shlort.h"

#define TOOL_NOLOC ((Loc){NULL, 0, 0})
#define EXIT_USAGE 2 /* command line errors; other failures exit 1 */

/* Options of every subcommand; each accepts its own subset (shloc.c). */
typedef struct ToolOptions {
  CompileOptions co;
  ParseOptions po;
  EmitKind emit;
  const char *output;   /* -o */
  const char *bind;     /* --bind-args FILE */
  const char **files;   /* positional arguments */
  int nfiles;
  const char **inputs;  /* run: --input */
  int ninputs;
  const char **dims;    /* --dim, also in co.dims */
  const char **outputs; /* run: --output */
  int noutputs;
  int64_t iterations;   /* bench: 0 = enough for about one second */
  const char *results;  /* check: --results file */
  int timeout;          /* check: seconds per case */
  bool no_fork;         /* check: run cases in the tool's process */
  bool verbose;         /* check: print every diagnostic */
  int64_t grid_timeout_ms; /* run, check: how long a process waits for a peer */
  bool mpi;             /* check: run_parallel cases under mpirun */
  int case_line;        /* check: only the case that starts at this line (0: all) */
  bool symbolic;        /* run: only symbolically (no fallback); check: symbolic runs too */
  bool specialize;      /* run: specialize `?` sizes to the inputs instead */
} ToolOptions;

int cmd_run(ToolOptions *t);   /* cmd_run.c */
int cmd_check(ToolOptions *t); /* cmd_check.c */
int cmd_bench(ToolOptions *t); /* cmd_bench.c */

/* driver.c */
/* Reads and parses a whole file; NULL after diagnosing. */
Module *driver_load(const char *path, const ParseOptions *po);
/* Runs the pass pipeline (verify, inline, legalize, verify, simplify, fuse,
 * buffers); prints the module to stdout after the pass o->dump_after names
 * ("parse": before the first), pass timings to stderr with o->time_passes.
 * 0 on success. */
int driver_compile(Module *m, const CompileOptions *o);
/* Whether name is a pass --dump-after accepts ("parse" included). */
bool driver_is_pass(const char *name);
/* The default C prefix: the module's @name, else the file's stem, as a C
 * identifier. */
char *driver_default_prefix(Module *m, const char *path);
/* The function named `name`, or when name is NULL: @main if present, else
 * the only public function. NULL after diagnosing. */
Func *driver_find_entry(Module *m, const char *name);

/* tensor_io.c */
typedef struct Tensor {
  ElemType elem;
  int rank;
  int64_t *dims;
  void *data;   /* 64-byte aligned; zero-filled by tensor_alloc */
  size_t bytes; /* elements * elem_bytes */
} Tensor;

int tensor_alloc(Tensor *t, ElemType e, int rank, const int64_t *dims);
int tensor_alloc_type(Tensor *t, const Type *ty); /* static tensor types only */
void tensor_free(Tensor *t);
int64_t tensor_num_elems(const Tensor *t);
/* Writes the iree spelling of the shape and type, e.g. "2x3xf32", "f32". */
void tensor_shape_str(const Tensor *t, char *buf, size_t size);
bool tensor_matches(const Tensor *t, const Type *ty);
/* Parses an iree-run-module input: "2x3xf32=1 2 3 4 5 6" (brackets and
 * commas are separators; one value is splatted; none zero-fills) or
 * "@file.npy". 0 on success, else diagnoses (naming `what`) and returns -1. */
int tensor_parse(const char *spec, const char *what, Tensor *t);
/* Prints "2x3xf32=[[1 2 3][4 5 6]]" and a newline. */
void tensor_print(FILE *f, const Tensor *t);
/* Deterministic pseudo-random contents: floats in [-1, 1), integers in
 * [0, 8), booleans 0/1. */
void tensor_fill_random(Tensor *t, uint64_t *state);
/* Whether t is a 0-d signed integer, and its value. */
bool tensor_int_value(const Tensor *t, int64_t *v);

/* npy.c: NumPy .npy, little-endian C order. bf16 has no NumPy dtype: it is
 * written as <u2 (with a warning) and read from <u2/<i2/V2 into a tensor of
 * ui16 that the caller may reinterpret. 0 on success, else diagnoses. */
int npy_read(const char *path, Tensor *t);
/* The same from an open stream; `what` names it in diagnostics. */
int npy_read_stream(FILE *f, const char *what, Tensor *t);
int npy_write(const char *path, const Tensor *t);
/* Closes f, written as path (stdout: flushes it): 0 if every byte reached
 * it, else -1 after diagnosing "cannot write PATH: REASON". err: the errno
 * of a write that already failed (0: none; then a stream in error gives
 * errno as ferror finds it, or EIO). Unchecked, a write that failed
 * (EFBIG past ulimit -f with SIGXFSZ ignored, ENOSPC) exited 0. */
int file_close(FILE *f, const char *path, int err);

/* bind_args.c: --bind-args=FILE (.npz or .safetensors). Replaces
 * arguments of the entry f by constants holding the file's tensors (the
 * matching rule is in bind_args.c), so that the object takes only the
 * others. Returns 0, or -1 after diagnosing. */
int bind_args(Module *m, Func *f, const char *path);

/* jit.c: an in-process JIT holding one object; runtime (shlort_*) and libc
 * symbols resolve from the process. NULL after diagnosing. */
typedef struct Jit Jit;
Jit *jit_new(const char *obj, size_t len);
/* The address of a symbol defined by the object, 0 after diagnosing. */
uint64_t jit_lookup(Jit *j, const char *name);
void jit_free(Jit *j);

/* program.c: one entry compiled with its packed wrapper and loaded. */
typedef int32_t (*PackedEntry)(void **args);
typedef struct Program {
  Func *entry;
  Jit *jit;
  PackedEntry fn; /* NULL for an entry with a process context (GridProc) */
  void *temp; /* Func.temp_bytes (at least 64), 64-byte aligned */
  /* P_F_status_message of an entry with symbolic sizes, else NULL. */
  const char *(*status_message)(int status, const void *temp);
} Program;
/* Compiles m (driver_compile + codegen_emit of an object with
 * packed_entry) for the host and loads it. 0 on success. */
int program_build(Program *p, Module *m, Func *entry, const CompileOptions *o);
/* The address of the JIT's symbol of entry f with suffix ("__packed",
 * "__grid", "_status_message"), f named as the object names it
 * (cg_entry_name); 0 after diagnosing. */
uint64_t program_entry_symbol(Jit *j, Module *m, const CompileOptions *co, const Func *f,
                              const char *suffix);
/* The bytes of temp an entry's call gets: Func.temp_bytes rounded up to
 * 64, at least 64. */
size_t program_temp_bytes(const Func *f);
/* Calls the entry: args then results buffers (in the entry's order). An
 * entry with a process context is diagnosed (SHLORT_INVALID). */
int32_t program_call(Program *p, void *const *args, void *const *results);
/* Calls an entry with symbolic sizes (Func.sym, codegen/dyndims.c) on
 * inputs for all its arguments: binds the symbols from their sizes and the
 * dimension arguments' values, allocates results of the sizes these imply
 * and a temp arena of P_F_temp_bytes. Returns the entry's status (1: sizes
 * that break the program's constraints or bounds, 2: a failed shape
 * assertion) with why in msg (msg_size bytes; P_F_status_message, and for
 * 1 the first constraint the sizes break), or -1 after diagnosing inputs
 * that bind no sizes. */
int32_t program_call_inputs(Program *p, const Tensor *in, Tensor *out, char *msg, size_t msg_size);
/* The same in two steps, so that `bench --symbolic` times the call alone:
 * binding and allocating once (status and msg as above, 0 when ready),
 * then calls of the bound entry (its bare status); program_call_free
 * releases the binding. */
typedef struct SymCall {
  void **packed;
  void *temp;
  int64_t *sizes;
} SymCall;
int32_t program_prepare_inputs(Program *p, const Tensor *in, Tensor *out, SymCall *c, char *msg,
                               size_t msg_size);
int32_t program_call_prepared(Program *p, SymCall *c);
void program_call_free(SymCall *c);
void program_free(Program *p);
/* Loads t->files[0], finds the entry (--entry, @main or the only public
 * function), allocates argument and result tensors (zeroed descriptors,
 * freed afterwards) and runs body on them: the common frame of `run` and
 * `bench`. Returns the exit status (0 or 1). */
typedef int (*EntryBody)(ToolOptions *t, Module *m, Func *f, Tensor *in, Tensor *out);
int program_with_entry(ToolOptions *t, EntryBody body);
/* Whether an argument or result of f has a `?` size (run specializes it
 * to the inputs' shapes, check to dynamic_sizes). */
bool func_has_dynamic_args(const Func *f);

/* grid.c: SPMD programs (spec "Parallel execution"), one compiled entry
 * per process: P_F__grid with its process context, or P_F__packed for an
 * entry that calls no runtime op. */
typedef struct GridProc {
  Func *f;
  shlort_entry grid;
  PackedEntry packed;
  void **frame; /* arguments, results, temp */
  void *temp;
  int nargs, nresults;
} GridProc;
/* Looks up f's entry in jit and builds its frame from args (NULL: none)
 * and results. 0, or -1 after diagnosing. */
int grid_proc_init(GridProc *gp, Jit *jit, const CompileOptions *co, Module *m, Func *f,
                   void *const *args, void *const *results);
void grid_proc_free(GridProc *gp);
/* A shlort_entry: calls the GridProc `arg` (proc unused by __packed). */
int32_t grid_proc_call(void *arg, shlort_proc *proc);

/* The two processes of a send/recv channel (-1: none), for MPI. */
typedef struct GridRoute {
  int64_t channel_id;
  int32_t sender, receiver;
} GridRoute;

typedef struct GridRun {
  int32_t replicas, partitions;
  GridProc *procs;             /* replicas * partitions, row-major */
  const shlort_tensor *infeed; /* every process's infeed queue */
  int32_t ninfeed;
  const GridRoute *routes;     /* grid_find_routes */
  int32_t nroutes;
  int64_t timeout_ms;          /* 0: the runtime's default (30 s) */
} GridRun;
/* Fills g->routes (malloc'ed) from the send/recv ops of the programs. */
void grid_find_routes(GridRun *g);

/* grid_threads.c (shloc) or grid_mpi.c (shloc-mpi): runs g and returns 0,
 * or the first failure's status with its message in msg. Under MPI this
 * rank runs its own process, then every process's results are sent to
 * every rank, so that all ranks hold all results. */
int32_t grid_run(const GridRun *g, char *msg, size_t size);
/* Whether this process prints verdicts (MPI: rank 0 only). */
bool grid_reports(void);

/* The host side of interpreter.run_parallel (conformance protocol): the
 * case whose @main runs on this thread (set around the call of @main). */
typedef struct ParallelHost {
  Module *m;
  Func *main;
  Jit *jit;
  const CompileOptions *co;
  int64_t timeout_ms;
  char message[512]; /* why the last run failed */
} ParallelHost;
void parallel_host_set(ParallelHost *h);
/* Called by the generated code of run_parallel op number `site` of @main
 * (codegen/collectives.c): runs its grid on the op's inputs and results. */
int32_t shloc_run_parallel(int32_t site, void **inputs, void **results);

/* flops.c: 2 * multiply-adds of the dot_general, dot and convolution ops
 * reached from f (calls followed; loop bodies counted once). */
double flops_count(Module *m, const Func *f);

#endif
