/* shloc.c: the command line.
 *
 *   shloc FILE.mlir -o out.o [options]     compile (writes out.o and out.h)
 *   shloc run FILE.mlir --input=... [--output=...]
 *   shloc check FILE.mlir...
 *   shloc bench FILE.mlir [--threads=N] [--iterations=N]
 *
 * Exit status: 0 success, 1 compile/run failure, 2 command line error. */
#include <assert.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <llvm-c/Core.h>

#include "tools.h"

#define SHLOC_VERSION "0.1.0"
/* The StableHLO specification followed (../shared/docs/stablehlo_spec.md)
 * names no version. It and the conformance corpus come from one upstream
 * commit, whose tests use the ops and attributes of VHLO 1.20.0
 * (collective_reduce, has_dynamic_root; VhloDialect.td's version log). */
#define STABLEHLO_SPEC_VERSION "1.20.0"
/* Embedded by the Makefile from ../shared/conformance/UPSTREAM_COMMIT. */
#ifndef SHLOC_CORPUS_COMMIT
#define SHLOC_CORPUS_COMMIT "unknown (built without the corpus)"
#endif
#define DEFAULT_OPT_LEVEL 3
#define DEFAULT_CASE_TIMEOUT 20

enum { C_COMPILE = 1, C_RUN = 2, C_CHECK = 4, C_BENCH = 8, C_ALL = 15 };

typedef enum OptId {
  O_OUT, O_EMIT, O_TARGET, O_CPU, O_FEATURES, O_ENTRY, O_NAME, O_THREADS, O_DUMP_AFTER,
  O_STOP_AFTER, O_PACKED_ENTRY, O_WEIGHTS, O_WEIGHTS_ALIGN, O_BIND_ARGS, O_CHECK_ARGS,
  O_MEMORY_PLAN, O_TIME_PASSES, O_VERIFY_EACH, O_DENORMALS, O_WINOGRAD, O_ELIDED, O_INPUT,
  O_OUTPUT, O_ITERATIONS, O_RESULTS,
  O_TIMEOUT, O_NO_FORK, O_VERBOSE, O_REPLICAS, O_PARTITIONS, O_GRID_TIMEOUT, O_MPI, O_CASE,
  O_INPUT_SHAPES, O_DIM, O_SYMBOLIC, O_SPECIALIZE,
} OptId;

/* The options, which subcommands take them, and their help. -O0..-O3,
 * --help and --version are handled before this table. */
static const struct Opt {
  const char *name;
  OptId id;
  int cmds;
  const char *arg; /* NULL for flags */
  const char *help;
} opts[] = {
    {"-o", O_OUT, C_COMPILE, "FILE", "output (default: STEM.o, or stdout for text)"},
    {"--emit", O_EMIT, C_COMPILE, "KIND",
     "obj (and a .h beside it; none beside a device or FIFO), asm, llvm, header, mlir"},
    {"--target", O_TARGET, C_COMPILE, "TRIPLE", "target triple (default: host)"},
    {"--cpu", O_CPU, C_ALL, "NAME", "target CPU (default and `native`: the host's)"},
    {"--features", O_FEATURES, C_ALL, "LIST", "target features, e.g. +avx2,-avx512f"},
    {"--entry", O_ENTRY, C_COMPILE | C_RUN | C_BENCH, "F", "compile/run only @F"},
    {"--name", O_NAME, C_COMPILE, "P", "C prefix (default: module name or file stem)"},
    {"--threads", O_THREADS, C_ALL, "N", "threads for large kernels (0: all cores)"},
    {"--dump-after", O_DUMP_AFTER, C_COMPILE | C_RUN | C_BENCH, "PASS",
     "print the IR after parse|verify|inline|chlo|refine_shapes|legalize|quant|simplify|fuse|buffers|layout"},
    {"--stop-after", O_STOP_AFTER, C_COMPILE, "PASS",
     "stop the pipeline after PASS (with --emit=mlir: print the IR there)"},
    {"--packed-entry", O_PACKED_ENTRY, C_COMPILE, NULL,
     "also define int32_t P_F__packed(void **args = inputs, results, temp)"},
    {"--weights", O_WEIGHTS, C_COMPILE, "WHERE",
     "constants: embed (.rodata), section=NAME, or file (STEM.bin + P_load_weights)"},
    {"--weights-align", O_WEIGHTS_ALIGN, C_COMPILE, "BYTES",
     "align the weights blob, 64 to 2097152 (ELF, embed or section=NAME; 2097152: Linux huge pages)"},
    {"--bind-args", O_BIND_ARGS, C_COMPILE, "FILE",
     "arguments of the entry become constants from FILE (.npz, .safetensors)"},
    {"--check-args", O_CHECK_ARGS, C_ALL, NULL,
     "entries return 2 for NULL or misaligned buffers (SHLOC_BAD_ARGUMENT)"},
    {"--print-memory-plan", O_MEMORY_PLAN, C_COMPILE, NULL,
     "print the object's code, data and weights bytes, temp arena and stack"},
    {"--time-passes", O_TIME_PASSES, C_COMPILE | C_RUN | C_BENCH, NULL, "pass timings (CPU time) to stderr"},
    {"--verify-each", O_VERIFY_EACH, C_ALL, NULL, "verifier and IR checks after every pass"},
    {"--denormals", O_DENORMALS, C_ALL, "MODE",
     "ieee (default) or flush: kernels flush denormal inputs and results to zero"},
    {"--winograd", O_WINOGRAD, C_ALL, "on|off",
     "on (default): f32 3x3 stride-1 convolutions with constant weights by Winograd F(2x2,3x3) "
     "or, on larger images, F(4x4,3x3); "
     "off: direct (smaller weights and scratch)"},
    {"--elided", O_ELIDED, C_ALL, "FILL", "dense_resource<__elided__>: zeros|ones|pattern"},
    {"--input-shapes", O_INPUT_SHAPES, C_COMPILE | C_RUN | C_BENCH, "LIST",
     "specialize: shapes of the entry's tensor arguments, e.g. 2x4xf32,3xi32"},
    {"--dim", O_DIM, C_COMPILE | C_RUN | C_BENCH, "NAME=N",
     "specialize: a dimension argument's value (JAX's name, dK or argK)"},
    {"--symbolic", O_SYMBOLIC, C_RUN | C_CHECK | C_BENCH, NULL,
     "run: only the symbolic entry (the default, without falling back to specialization); "
     "check: also compile `?` sizes symbolically and compare with the specialized runs; "
     "bench: time it beside the program specialized by --input-shapes, alternating calls"},
    {"--specialize", O_SPECIALIZE, C_RUN, NULL,
     "run: specialize `?` sizes to the inputs' shapes instead of binding them at the call"},
    {"--input", O_INPUT, C_RUN, "SPEC", "\"2x3xf32=1 2 3 4 5 6\", \"f32=5\" or @file.npy"},
    {"--output", O_OUTPUT, C_RUN, "SPEC", "@file.npy or - (print); one per result"},
    {"--iterations", O_ITERATIONS, C_BENCH, "N", "timed runs (default: about 1 s, >= 5)"},
    {"--results", O_RESULTS, C_CHECK, "FILE", "PASS|FAIL<TAB>file:line<TAB>name per case"},
    {"--timeout", O_TIMEOUT, C_CHECK, "S", "seconds per case (default 20)"},
    {"--no-fork", O_NO_FORK, C_CHECK, NULL, "run cases in this process (debugging)"},
    {"--verbose", O_VERBOSE, C_CHECK, NULL, "print every diagnostic"},
    {"--replicas", O_REPLICAS, C_COMPILE | C_RUN, "R",
     "grid rows (mhlo.num_replicas); run: R*P processes, inputs of process 0 first"},
    {"--partitions", O_PARTITIONS, C_COMPILE | C_RUN, "P", "grid columns (mhlo.num_partitions)"},
    {"--grid-timeout", O_GRID_TIMEOUT, C_RUN | C_CHECK, "MS",
     "how long a process waits for a peer (default 30000)"},
    {"--mpi", O_MPI, C_CHECK, NULL,
     "only the run_parallel cases, each under mpirun -np R*P (build/shloc-mpi)"},
    {"--case", O_CASE, C_CHECK, "LINE", "only the case whose report names this line"},
};

static const char *const cmd_names[] = {"", "run", "check", "bench"};

static void usage(FILE *f) {
  fprintf(f,
          "usage: shloc FILE.mlir [-o OUT] [options]     compile to an object and header\n"
          "       shloc run FILE.mlir --input=SPEC... [--output=SPEC...] [options]\n"
          "       shloc check FILE.mlir... [--results=FILE]\n"
          "       shloc bench FILE.mlir [--threads=N] [--iterations=N] [options]\n"
          "FILE: StableHLO text, or a portable artifact (VHLO MLIR bytecode, or the\n"
          "jax.export flatbuffer around one)\n"
          "options:\n"
          "  %-22s %s\n", "-O0..-O3", "optimization level (default -O3; -O0: no fusion)");
  for (size_t i = 0; i < sizeof opts / sizeof *opts; i++) {
    char lhs[64];
    snprintf(lhs, sizeof lhs, "%s%s%s", opts[i].name,
             opts[i].arg ? (opts[i].name[1] == '-' ? "=" : " ") : "", opts[i].arg ? opts[i].arg : "");
    fprintf(f, "  %-22s %s [", lhs, opts[i].help);
    for (int c = 0, first = 1; c < 4; c++)
      if (opts[i].cmds & (1 << c)) {
        fprintf(f, "%s%s", first ? "" : " ", c ? cmd_names[c] : "compile");
        first = 0;
      }
    fprintf(f, "]\n");
  }
  fprintf(f, "  %-22s %s\n  %-22s %s\n", "--help", "this text", "--version", "version");
}

static int usage_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "shloc: error: ");
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\nTry 'shloc --help'.\n");
  va_end(ap);
  return -1;
}

static const char **push(const char **list, int *n, const char *s) {
  list = realloc(list, sizeof *list * (size_t)(*n + 1));
  list[(*n)++] = s;
  return list;
}

static int parse_int(const char *opt, const char *s, long long lo, long long hi, long long *v) {
  char *end;
  *v = strtoll(s, &end, 10);
  if (!*s || *end || *v < lo || *v > hi)
    return usage_error("%s: '%s' is not a number in [%lld, %lld]", opt, s, lo, hi);
  return 0;
}

static int set_emit(ToolOptions *t, const char *v) {
  static const char *const kinds[] = {"obj", "asm", "llvm", "header", "mlir"};
  for (int i = 0; i < 5; i++)
    if (!strcmp(v, kinds[i])) {
      t->emit = (EmitKind)i;
      return 0;
    }
  return usage_error("--emit=%s: want obj, asm, llvm, header or mlir", v);
}

/* --weights=embed|section=NAME|file (codegen/weights.c). */
static int set_weights(ToolOptions *t, const char *v) {
  if (!strcmp(v, "embed")) {
    t->co.weights = WEIGHTS_EMBED;
  } else if (!strcmp(v, "file")) {
    t->co.weights = WEIGHTS_FILE;
  } else if (!strncmp(v, "section=", 8) && v[8]) {
    t->co.weights = WEIGHTS_SECTION;
    t->co.weights_section = v + 8;
  } else {
    return usage_error("--weights takes embed, section=NAME or file");
  }
  return 0;
}

static int set_elided(ToolOptions *t, const char *v) {
  if (!strcmp(v, "zeros")) t->po.elided = ELIDED_ZEROS;
  else if (!strcmp(v, "ones")) t->po.elided = ELIDED_ONES;
  else if (!strcmp(v, "pattern")) t->po.elided = ELIDED_PATTERN;
  else return usage_error("--elided=%s: want zeros, ones or pattern", v);
  return 0;
}

static int set_option(ToolOptions *t, OptId id, const char *name, const char *v) {
  long long n;
  switch (id) {
  case O_OUT: t->output = v; return 0;
  case O_EMIT: return set_emit(t, v);
  case O_TARGET: t->co.triple = v; return 0;
  case O_CPU: t->co.cpu = v; return 0;
  case O_FEATURES: t->co.features = v; return 0;
  case O_ENTRY: t->co.entry = v; return 0;
  case O_NAME: t->co.prefix = v; return 0;
  case O_THREADS:
    if (parse_int(name, v, 0, 1024, &n)) return -1;
    t->co.threads = n ? (int)n : (int)sysconf(_SC_NPROCESSORS_ONLN);
    return 0;
  case O_DUMP_AFTER:
    if (!driver_is_pass(v)) return usage_error("--dump-after=%s: no such pass", v);
    t->co.dump_after = v;
    return 0;
  case O_STOP_AFTER:
    if (!driver_is_pass(v)) return usage_error("--stop-after=%s: no such pass", v);
    t->co.stop_after = v;
    return 0;
  case O_PACKED_ENTRY: t->co.packed_entry = true; return 0;
  case O_WEIGHTS: return set_weights(t, v);
  case O_WEIGHTS_ALIGN:
    /* At most 2 MiB: the huge page it is for; larger alignments pad a
     * section=NAME object and the linked image by as much (2^30 broke GNU
     * ld's small-code-model links: PC32 relocations out of range). */
    if (parse_int(name, v, 64, 1 << 21, &n)) return -1;
    if (n & (n - 1)) return usage_error("%s=%s: not a power of two", name, v);
    t->co.weights_align = (uint64_t)n;
    return 0;
  case O_BIND_ARGS: t->bind = v; return 0;
  case O_CHECK_ARGS: t->co.check_args = true; return 0;
  case O_MEMORY_PLAN: t->co.memory_plan = stdout; return 0;
  case O_TIME_PASSES: t->co.time_passes = true; return 0;
  case O_VERIFY_EACH: t->co.verify_each = true; return 0;
  case O_DENORMALS:
    if (strcmp(v, "ieee") && strcmp(v, "flush"))
      return usage_error("--denormals=%s: want ieee or flush", v);
    t->co.flush_denormals = !strcmp(v, "flush");
    return 0;
  case O_WINOGRAD:
    if (strcmp(v, "on") && strcmp(v, "off")) return usage_error("--winograd=%s: want on or off", v);
    t->co.no_winograd = !strcmp(v, "off");
    return 0;
  case O_ELIDED: return set_elided(t, v);
  case O_INPUT: t->inputs = push(t->inputs, &t->ninputs, v); return 0;
  case O_OUTPUT: t->outputs = push(t->outputs, &t->noutputs, v); return 0;
  case O_ITERATIONS:
    if (parse_int(name, v, 1, 100000000, &n)) return -1;
    t->iterations = n;
    return 0;
  case O_RESULTS: t->results = v; return 0;
  case O_TIMEOUT:
    if (parse_int(name, v, 1, 86400, &n)) return -1;
    t->timeout = (int)n;
    return 0;
  case O_INPUT_SHAPES: t->co.input_shapes = v; return 0;
  case O_DIM: t->dims = push(t->dims, &t->co.ndims, v); t->co.dims = t->dims; return 0;
  case O_NO_FORK: t->no_fork = true; return 0;
  case O_REPLICAS: case O_PARTITIONS:
    if (parse_int(name, v, 1, 65536, &n)) return -1;
    *(id == O_REPLICAS ? &t->co.replicas : &t->co.partitions) = (int)n;
    return 0;
  case O_GRID_TIMEOUT:
    if (parse_int(name, v, 1, 86400000, &n)) return -1;
    t->grid_timeout_ms = n;
    return 0;
  case O_MPI: t->mpi = true; return 0;
  case O_CASE:
    if (parse_int(name, v, 1, 1 << 30, &n)) return -1;
    t->case_line = (int)n;
    return 0;
  case O_VERBOSE: t->verbose = true; return 0;
  case O_SYMBOLIC: t->symbolic = true; return 0;
  case O_SPECIALIZE: t->specialize = true; return 0;
  }
  return -1;
}

/* Matches argv[*i] against the table: "--name=value", "--name value",
 * "-o value", "-ovalue". Advances *i past a separate value. */
static int parse_option(ToolOptions *t, int cmd, int argc, char **argv, int *i) {
  const char *a = argv[*i];
  for (size_t k = 0; k < sizeof opts / sizeof *opts; k++) {
    const struct Opt *o = &opts[k];
    size_t len = strlen(o->name);
    if (strncmp(a, o->name, len)) continue;
    const char *v = NULL;
    if (!o->arg && a[len]) continue;
    if (o->arg && a[len] == '=') v = a + len + 1;
    else if (o->arg && a[len] && o->name[1] != '-') v = a + len; /* -oFILE */
    else if (o->arg && a[len]) continue;
    else if (o->arg && ++*i < argc) v = argv[*i];
    else if (o->arg) return usage_error("%s needs a value", o->name);
    if (!(o->cmds & cmd)) return usage_error("%s does not apply to this command", o->name);
    return set_option(t, o->id, o->name, v);
  }
  return usage_error("unknown option '%s'", a);
}

static void defaults(ToolOptions *t) {
  memset(t, 0, sizeof *t);
  t->co.opt_level = DEFAULT_OPT_LEVEL;
  t->co.threads = 1;
  t->emit = EMIT_OBJ;
  t->timeout = DEFAULT_CASE_TIMEOUT;
}

static void print_version(void) {
  unsigned major, minor, patch;
  LLVMGetVersion(&major, &minor, &patch);
  printf("shloc %s (LLVM %u.%u.%u)\n", SHLOC_VERSION, major, minor, patch);
  printf("StableHLO specification: %s (openxla/stablehlo at the corpus commit)\n",
         STABLEHLO_SPEC_VERSION);
  printf("conformance corpus: openxla/stablehlo %s\n", SHLOC_CORPUS_COMMIT);
}

/* Returns 0 to go on, 1 when done (help/version), -1 on a usage error. */
static int parse_args(ToolOptions *t, int cmd, int argc, char **argv, int first) {
  for (int i = first; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      return 1;
    }
    if (!strcmp(a, "--version")) {
      print_version();
      return 1;
    }
    if (a[0] == '-' && a[1] == 'O' && a[2] >= '0' && a[2] <= '3' && !a[3])
      t->co.opt_level = a[2] - '0';
    else if (a[0] == '-' && a[1]) {
      if (parse_option(t, cmd, argc, argv, &i)) return -1;
    } else
      t->files = push(t->files, &t->nfiles, a);
  }
  if (cmd != C_CHECK && t->nfiles != 1)
    return usage_error("expected one input file, got %d", t->nfiles);
  if (cmd == C_CHECK && t->nfiles < 1) return usage_error("expected input files");
  if (cmd == C_COMPILE && t->emit == EMIT_OBJ && t->output && !strcmp(t->output, "-"))
    return usage_error("-o -: objects are not written to stdout; use --emit=asm or llvm");
  if (t->co.stop_after && t->emit != EMIT_MLIR)
    return usage_error("--stop-after needs --emit=mlir");
  if (t->co.weights_align && t->co.weights == WEIGHTS_FILE)
    return usage_error("--weights-align: --weights=file's bytes lie where the application "
                       "puts them");
  if (t->co.memory_plan && t->emit != EMIT_OBJ)
    return usage_error("--print-memory-plan needs an object (--emit=obj)");
  return 0;
}

/* --- compile mode --------------------------------------------------------- */

/* A compile's outputs: the artifact and, beside an object, its header
 * and --weights=file's weights. Each is written as a new file
 * (codegen_api.h OutFile) and all are renamed over their paths only once
 * every one is whole (outputs_commit), so a compile that fails (a full
 * disk, ulimit -f, a directory not writable) leaves every output as it
 * was: never an object beside the header of another compile. The renames
 * themselves are not one step: one that fails (rare: each new file is in
 * its path's directory already) leaves the outputs before it replaced. */
typedef struct Outputs {
  OutFile f[3];
  const char *what[3]; /* for messages: "the object" */
  int n;
} Outputs;

/* The next output, what, at path ("-": stdout, written as it comes);
 * NULL after diagnosing a link not followed or a directory
 * (out_file_init), or a name an output already added is written to
 * (-o c.h, or -o c.bin with --weights=file: the header or weights file
 * would replace the object, the compile succeed without it). */
static OutFile *output_add(Outputs *outs, const char *path, const char *what) {
  assert(outs->n < (int)(sizeof outs->f / sizeof outs->f[0]));
  OutFile *out = &outs->f[outs->n];
  *out = (OutFile){.path = path};
  if (strcmp(path, "-") && out_file_init(out, path)) return NULL;
  outs->what[outs->n++] = what;
  for (int i = 0; i < outs->n - 1; i++)
    if (out_file_same(&outs->f[i], out)) {
      diag_error(TOOL_NOLOC, "%s and %s would both be written to %s: give -o another name",
                 outs->what[i], what, out->target ? out->target : path);
      return NULL;
    }
  return out;
}

/* Unless rc (an error, diagnosed), renames every output over its path:
 * 0, or -1 (diagnosed). The new files not renamed are removed. */
static int outputs_commit(Outputs *outs, int rc) {
  for (int i = 0; i < outs->n && !rc; i++)
    if (out_file_commit(&outs->f[i])) {
      diag_error(TOOL_NOLOC, "cannot write %s: %s", outs->f[i].path, strerror(errno));
      rc = -1;
    }
  for (int i = 0; i < outs->n; i++) out_file_free(&outs->f[i]);
  return rc ? -1 : 0;
}

/* A FILE for out's new file (stdout for "-"); NULL after diagnosing. */
static FILE *open_out(OutFile *out, const char *mode) {
  if (!strcmp(out->path, "-")) return stdout;
  int fd = out_file_create(out);
  FILE *f = fd >= 0 ? fdopen(fd, mode) : NULL;
  if (f) return f;
  int err = errno;
  if (fd >= 0) close(fd);
  out_file_create_error(out, err);
  return NULL;
}

/* Closes f: 0 if every byte reached it, else -1 (diagnosed unless rc,
 * an error already diagnosed). err: the errno of the write that failed
 * (EFBIG, ENOSPC), recorded there (0: none; file_close). */
static int close_out(const OutFile *out, FILE *f, int rc, int err) {
  if (!rc) return file_close(f, out->path, err);
  if (f != stdout) fclose(f);
  return -1;
}

static int write_file(OutFile *out, const char *data, size_t len) {
  FILE *f = open_out(out, "wb");
  if (!f) return -1;
  return close_out(out, f, 0, fwrite(data, 1, len, f) == len ? 0 : errno);
}

/* out.o -> out.h (ext ".h"), out.bin: files beside the object with the
 * same stem. */
static const char *beside_path(Module *m, const char *obj, const char *ext) {
  size_t n = strlen(obj);
  const char *slash = strrchr(obj, '/'), *dot = strrchr(obj, '.');
  if (dot && (!slash || dot > slash) && dot != obj && dot[-1] != '/') n = (size_t)(dot - obj);
  return arena_printf(&m->arena, "%.*s%s", (int)n, obj, ext);
}

/* Writes an artifact through a FILE (header, MLIR text). */
static int write_text(OutFile *out, Module *m, const CompileOptions *o, EmitKind kind) {
  FILE *f = open_out(out, "w");
  if (!f) return -1;
  int rc = 0;
  if (kind == EMIT_HEADER) rc = header_write(f, m, o);
  else ir_print_module(f, m);
  return close_out(out, f, rc, 0);
}

/* Whether path is the null device (-o /dev/null: a compile only
 * checked, its weights dropped with the object). */
static bool null_device(const char *path) {
  struct stat a, b;
  return !stat(path, &a) && !stat("/dev/null", &b) && S_ISCHR(a.st_mode) &&
         a.st_rdev == b.st_rdev;
}

/* An object into a file gets its header and --weights=file's weights
 * beside it (STEM.h, STEM.bin: outs' next outputs, added before the
 * compile so that a clash costs none); one written in place (out->tmp
 * NULL: a device, FIFO, pipe, /dev/stdout) none: the names beside those
 * (/dev/null.h, /dev/stdout.h) are nobody's files. Such an object could
 * not load without its weights file: --weights=file is refused there,
 * except into /dev/null. 0, or -1 after diagnosing. */
static int outputs_beside(Module *m, const CompileOptions *o, Outputs *outs) {
  const OutFile *out = &outs->f[0];
  bool wfile = o->weights == WEIGHTS_FILE;
  if (!out->tmp) {
    if (!wfile || null_device(out->path)) return 0;
    diag_error(TOOL_NOLOC, "--weights=file needs a regular -o file to write STEM.bin beside, "
               "not %s (written in place: a device, FIFO or open file), or the object could "
               "not load", out->path);
    return -1;
  }
  if (wfile && !output_add(outs, beside_path(m, out->path, ".bin"), "the weights file"))
    return -1;
  return output_add(outs, beside_path(m, out->path, ".h"), "the header") ? 0 : -1;
}

/* The artifact into outs' first output, and an object's outputs beside
 * it (outputs_beside). */
static int emit_codegen(Module *m, const CompileOptions *o, EmitKind kind, Outputs *outs) {
  OutFile *out = &outs->f[0];
  if (kind == EMIT_OBJ && outputs_beside(m, o, outs)) return -1;
  bool file = outs->n > 1; /* the object into a file */
  OutFile *bin = file && o->weights == WEIGHTS_FILE ? &outs->f[1] : NULL;
  char *buf = NULL, *weights = NULL;
  size_t len = 0, wlen = 0;
  /* An object into a file (never to stdout: parse_args) may be written
   * by codegen itself, at offsets. */
  int rc = codegen_emit_weights(m, o, kind, file ? out : NULL, &buf, &len, &weights, &wlen);
  if (!rc && buf) rc = write_file(out, buf, len);
  if (!rc && bin) rc = write_file(bin, weights, wlen);
  if (!rc && file) rc = write_text(&outs->f[outs->n - 1], m, o, EMIT_HEADER);
  free(buf);
  free(weights);
  return rc;
}

/* The default output: STEM.o in the current directory for objects,
 * stdout for text. */
static const char *output_path(const ToolOptions *t, Module *m) {
  if (t->output) return t->output;
  if (t->emit != EMIT_OBJ) return "-";
  return arena_printf(&m->arena, "%s.o", driver_default_prefix(m, t->files[0]));
}

static int compile(ToolOptions *t, Module *m) {
  CompileOptions *o = &t->co;
  o->prefix = o->prefix ? cg_c_ident(&m->arena, o->prefix)
                        : driver_default_prefix(m, t->files[0]);
  if (o->entry && !driver_find_entry(m, o->entry)) return -1;
  if (t->bind) {
    Func *f = driver_find_entry(m, o->entry);
    if (!f || bind_args(m, f, t->bind)) return -1;
  }
  const char *path = output_path(t, m);
  if (driver_compile(m, o)) return -1;
  Outputs outs = {0};
  OutFile *out = output_add(&outs, path, t->emit == EMIT_OBJ ? "the object" : "the output");
  if (!out) return -1;
  int rc = t->emit == EMIT_HEADER || t->emit == EMIT_MLIR ? write_text(out, m, o, t->emit)
                                                         : emit_codegen(m, o, t->emit, &outs);
  return outputs_commit(&outs, rc);
}

static int cmd_compile(ToolOptions *t) {
  /* A file grown past ulimit -f then fails to write (EFBIG), diagnosed,
   * the compile's new files removed and its older outputs kept; SIGXFSZ's
   * default killed the tool instead, leaving MODEL.o.XXXXXX behind. Only
   * here, where every write is checked: run, check and bench keep the
   * disposition they were given (ignored, it reached mpirun). */
  signal(SIGXFSZ, SIG_IGN);
  Module *m = driver_load(t->files[0], &t->po);
  if (!m) return 1;
  int rc = compile(t, m);
  /* Skipping this free at exit was tried: the kernel then frees the same
   * pages in exit_group. ResNet-50 b1, 1 thread: rename of the header to
   * the process's end 18-28 ms freeing, 15-30 ms not (strace, 5 each). */
  ir_module_free(m);
  return rc ? 1 : 0;
}

int main(int argc, char **argv) {
  int cmd = C_COMPILE, first = 1;
  for (int c = 1; c < 4 && argc > 1; c++)
    if (!strcmp(argv[1], cmd_names[c])) {
      cmd = 1 << c;
      first = 2;
    }
  ToolOptions t;
  defaults(&t);
  int rc = parse_args(&t, cmd, argc, argv, first);
  if (rc) rc = rc > 0 ? 0 : EXIT_USAGE;
  else if (cmd == C_RUN) rc = cmd_run(&t);
  else if (cmd == C_CHECK) rc = cmd_check(&t);
  else if (cmd == C_BENCH) rc = cmd_bench(&t);
  else rc = cmd_compile(&t);
  free(t.files);
  free(t.inputs);
  free(t.outputs);
  free(t.dims);
  /* results printed (run's tensors, check's tally) that did not all
   * reach stdout fail the command; an error already reported stands */
  if (!rc && file_close(stdout, "standard output", 0)) rc = 1;
  return rc;
}
