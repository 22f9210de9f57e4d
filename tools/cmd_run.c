/* cmd_run.c: `shloc run FILE.mlir --input=... --output=...`: compile one
 * entry, run it in-process on the given inputs, print or save the results
 * (iree-run-module conventions). A program with `?` sizes compiles once
 * with symbolic sizes, bound from the inputs at the call (issue 7), or
 * specialized to the inputs' shapes (--specialize, --input-shapes, --dim,
 * or an op the symbolic path lacks, with a note). A grid program (--replicas / --partitions,
 * the module's mhlo.num_replicas / num_partitions, above 1, or an entry
 * that calls the runtime) runs as R x P threads: the inputs of process 0 come first,
 * then those of process 1, ... in row-major grid order, and the results
 * likewise. */
#include <stdlib.h>
#include <string.h>

#include "../runtime/shlort.h"
#include "tools.h"

/* Reads input i. */
static int load_input(const char *spec, int i, Tensor *t) {
  char what[32];
  snprintf(what, sizeof what, "input %d", i);
  return tensor_parse(spec, what, t);
}

/* bf16 arrives from .npy files as 16-bit integers (NumPy has no bf16). */
static void npy_bf16(const char *spec, const Type *want, Tensor *t) {
  if (want->elem == ET_BF16 && t->elem == ET_UI16 && spec[0] == '@') t->elem = ET_BF16;
}

/* 0 when input i fits argument type want, else -1 after saying so. */
static int input_fits(Module *m, int i, const Type *want, const Tensor *t, bool fits) {
  if (fits) return 0;
  char got[512];
  tensor_shape_str(t, got, sizeof got);
  diag_error(TOOL_NOLOC, "input %d: the entry takes %s, got %s", i, type_str(&m->arena, want), got);
  return -1;
}

/* Checks input i against the compiled entry's argument type. */
static int check_input(Module *m, const char *spec, int i, const Type *want, Tensor *t) {
  npy_bf16(spec, want, t);
  return input_fits(m, i, want, t, tensor_matches(t, want));
}

/* --input-shapes from the inputs given, for an entry with `?` sizes: the
 * program is specialized to them. Inputs for all arguments give the values
 * of the dimension arguments too; without them those are deduced from the
 * shapes, or given with --dim. */
static const char *shapes_of(Module *m, const Tensor *in, int n) {
  char *s = arena_strndup(&m->arena, "", 0), buf[512];
  for (int i = 0; i < n; i++) {
    tensor_shape_str(&in[i], buf, sizeof buf);
    s = arena_printf(&m->arena, "%s%s%s", s, i ? "," : "", buf);
  }
  return s;
}

static int check_output_specs(const ToolOptions *t, int nres) {
  if (t->noutputs > nres) {
    diag_error(TOOL_NOLOC, "%d --output given but the entry has %d results", t->noutputs, nres);
    return -1;
  }
  for (int i = 0; i < t->noutputs; i++)
    if (strcmp(t->outputs[i], "-") && t->outputs[i][0] != '@') {
      diag_error(TOOL_NOLOC, "--output=%s: want @file.npy or -", t->outputs[i]);
      return -1;
    }
  return 0;
}

static int alloc_results(Module *m, const Func *f, Tensor *out) {
  for (int i = 0; i < f->nresults; i++) {
    const Type *ty = f->result_types[i];
    if (!type_is_tensor(ty) || !type_is_static(ty)) {
      diag_error(TOOL_NOLOC, "result %d has type %s: only static tensors can be returned", i,
                 type_str(&m->arena, ty));
      return -1;
    }
    if (tensor_alloc_type(&out[i], ty)) return -1;
  }
  return 0;
}

static int write_outputs(const ToolOptions *t, const Tensor *out, int nres) {
  for (int i = 0; i < nres; i++) {
    const char *spec = i < t->noutputs ? t->outputs[i] : "-";
    if (!strcmp(spec, "-")) tensor_print(stdout, &out[i]);
    else if (npy_write(spec + 1, &out[i])) return -1;
  }
  return 0;
}

/* --dim #K=V for each 0-d signed integer input K (after t's --dim): the
 * dimension arguments among them take their values. */
static const char *const *dims_of(Module *m, const ToolOptions *t, const Tensor *in, int *n) {
  const char **dims = ARENA_ARRAY(&m->arena, const char *, t->co.ndims + t->ninputs + 1);
  *n = 0;
  for (int i = 0; i < t->co.ndims; i++) dims[(*n)++] = t->co.dims[i];
  for (int i = 0; i < t->ninputs; i++) {
    int64_t v;
    if (tensor_int_value(&in[i], &v)) dims[(*n)++] = arena_printf(&m->arena, "#%d=%lld", i, (long long)v);
  }
  return dims;
}

/* pos[i]: the input of the compiled entry's argument i. Inputs are given
 * for the arguments it kept, or for every argument as parsed (orig). */
static int match_inputs(const ToolOptions *t, const Func *e, Value *const *orig, int norig,
                        int *pos) {
  int nargs = e->body->nargs;
  for (int i = 0, k = 0; i < nargs; i++) {
    if (t->ninputs == norig)
      while (k < norig && orig[k] != e->body->args[i]) k++;
    pos[i] = t->ninputs == norig ? k : i;
  }
  if (t->ninputs == nargs || t->ninputs == norig) return 0;
  diag_error(TOOL_NOLOC, "@%s takes %d inputs, %d given with --input", e->name, nargs, t->ninputs);
  return -1;
}

/* ------------------------------------------------------------------------ */
/* `?` sizes bound at the call: one compilation for every size               */
/* (codegen/dyndims.c)                                                       */

/* Input i fits argument type want: same element type and rank, the same
 * size where want's is static. */
static int fit_input(Module *m, const char *spec, int i, const Type *want, Tensor *t) {
  npy_bf16(spec, want, t);
  bool ok = type_is_tensor(want) && want->elem == t->elem && want->rank == t->rank;
  for (int d = 0; ok && d < t->rank; d++) ok = want->dims[d] == DIM_DYNAMIC || want->dims[d] == t->dims[d];
  return input_fits(m, i, want, t, ok);
}

/* The first diagnostic of a symbolic compile, held back: without
 * --symbolic the program then runs specialized, with a note. */
typedef struct Held {
  char first[1024];
} Held;

static void hold(void *ctx, const char *text) {
  Held *h = ctx;
  if (!h->first[0]) snprintf(h->first, sizeof h->first, "%s", text);
}

/* Compiles f with symbolic sizes and calls it on the inputs. Returns 0, -1
 * after diagnosing, or 1 when f does not compile so (an op the symbolic
 * path lacks, inputs only for the tensor arguments) and --symbolic does
 * not insist, or when its sizes all fold to constants: the caller
 * specializes instead (m is spent then). */
static int run_symbolic(ToolOptions *t, Module *m, Func *f, Tensor *in, Tensor *out) {
  if (t->ninputs != f->body->nargs) {
    if (!t->symbolic) return 1;
    diag_error(TOOL_NOLOC, "@%s takes %d inputs, %d given with --input", f->name,
               f->body->nargs, t->ninputs);
    return -1;
  }
  Held held = {""};
  if (!t->symbolic) diag_set_sink(hold, &held);
  Program p;
  int rc = program_build(&p, m, f, &t->co);
  diag_set_sink(NULL, NULL);
  if (rc && !t->symbolic) {
    diag_reset();
    fprintf(stderr, "shloc: note: @%s does not compile with symbolic sizes; running it specialized "
            "to the inputs' shapes. The first error was:\n%s", f->name, held.first);
    return 1;
  }
  if (rc) return -1;
  if (!p.entry->sym) { /* its sizes all folded: nothing to bind */
    program_free(&p);
    return 1;
  }
  for (int i = 0; i < f->body->nargs && !rc; i++) rc = fit_input(m, t->inputs[i], i, p.entry->body->args[i]->type, &in[i]);
  if (!rc) {
    char msg[1024] = "";
    int32_t status = program_call_inputs(&p, in, out, msg, sizeof msg);
    if (status > 0) diag_error(TOOL_NOLOC, "@%s returned %d: %s", f->name, (int)status, msg);
    rc = status ? -1 : 0;
  }
  program_free(&p);
  return rc ? -1 : write_outputs(t, out, f->nresults);
}

/* ------------------------------------------------------------------------ */
/* A grid: R x P processes of the entry over threads                         */

/* The grid's processes, each on its own --input values (process 0's
 * first, row-major), into its own results. */
static int make_grid(ToolOptions *t, Module *m, Program *p, GridRun *g, Tensor *in,
                     Tensor *out) {
  Func *f = p->entry;
  int nargs = f->body->nargs, nres = f->nresults, n = g->replicas * g->partitions;
  for (int i = 0; i < n * nargs; i++)
    if (load_input(t->inputs[i], i, &in[i]) ||
        check_input(m, t->inputs[i], i, f->body->args[i % nargs]->type, &in[i]))
      return -1;
  if (alloc_results(m, f, out)) return -1;
  for (int i = nres; i < n * nres; i++)
    if (tensor_alloc_type(&out[i], f->result_types[i % nres])) return -1;
  for (int k = 0; k < n; k++) {
    void *args[nargs + 1], *res[nres + 1];
    for (int i = 0; i < nargs; i++) args[i] = in[k * nargs + i].data;
    for (int i = 0; i < nres; i++) res[i] = out[k * nres + i].data;
    if (grid_proc_init(&g->procs[k], p->jit, &t->co, m, f, args, res)) return -1;
  }
  return 0;
}

static int run_grid(ToolOptions *t, Module *m, Program *p, int64_t replicas,
                    int64_t partitions) {
  Func *f = p->entry;
  int n = (int)(replicas * partitions), nargs = f->body->nargs, nres = f->nresults;
  if (t->ninputs != n * nargs) {
    diag_error(TOOL_NOLOC, "@%s on a %lldx%lld grid takes %d inputs (%d per process, process 0's "
               "first), %d given with --input", f->name, (long long)replicas,
               (long long)partitions, n * nargs, nargs, t->ninputs);
    return -1;
  }
  Tensor *in = calloc((size_t)(n * nargs) + 1, sizeof *in);
  Tensor *out = calloc((size_t)(n * nres) + 1, sizeof *out);
  GridRun g = {.replicas = (int32_t)replicas, .partitions = (int32_t)partitions,
               .procs = calloc((size_t)n, sizeof(GridProc)), .timeout_ms = t->grid_timeout_ms};
  if (!in || !out || !g.procs) abort();
  int rc = make_grid(t, m, p, &g, in, out);
  if (!rc) {
    char msg[1024];
    if (grid_run(&g, msg, sizeof msg)) {
      diag_error(TOOL_NOLOC, "@%s: %s", f->name, msg);
      rc = -1;
    }
  }
  if (!rc) rc = write_outputs(t, out, n * nres);
  for (int k = 0; k < n; k++) grid_proc_free(&g.procs[k]);
  for (int i = 0; i < n * nargs; i++) tensor_free(&in[i]);
  for (int i = 0; i < n * nres; i++) tensor_free(&out[i]);
  free(in);
  free(out);
  free(g.procs);
  return rc;
}

/* f specialized to the inputs' shapes when it has `?` sizes (or to
 * --input-shapes / --dim). */
static int run_specialized(ToolOptions *t, Module *m, Func *f, Tensor *in, Tensor *out) {
  CompileOptions co = t->co;
  /* Inputs for every argument, or for those after the dimension arguments. */
  for (int i = 0, skip = f->body->nargs - t->ninputs; i < t->ninputs; i++)
    npy_bf16(t->inputs[i], f->body->args[i + skip]->type, &in[i]);
  if (!co.input_shapes && func_has_dynamic_args(f)) {
    co.input_shapes = shapes_of(m, in, t->ninputs);
    co.dims = dims_of(m, t, in, &co.ndims);
  }
  /* The arguments as parsed: specialization may drop dimension arguments,
   * whose inputs (when given) then are not passed. */
  int given = f->body->nargs;
  Value **orig = ARENA_ARRAY(&m->arena, Value *, given + 1);
  memcpy(orig, f->body->args, sizeof *orig * (size_t)given);
  Program p;
  if (program_build(&p, m, f, &co)) return -1;
  int nargs = p.entry->body->nargs, nres = p.entry->nresults;
  int *pos = ARENA_ARRAY(&m->arena, int, nargs + 1);
  int rc = match_inputs(t, p.entry, orig, given, pos);
  for (int i = 0; i < nargs && !rc; i++)
    rc = check_input(m, t->inputs[pos[i]], pos[i], p.entry->body->args[i]->type, &in[pos[i]]);
  if (rc || alloc_results(m, p.entry, out)) {
    program_free(&p);
    return -1;
  }
  void **args = calloc((size_t)nargs + 1, sizeof(void *));
  void **res = calloc((size_t)nres + 1, sizeof(void *));
  for (int i = 0; i < nargs; i++) args[i] = in[pos[i]].data;
  for (int i = 0; i < nres; i++) res[i] = out[i].data;
  shlort_check_reset();
  int32_t status = program_call(&p, args, res);
  free(args);
  free(res);
  program_free(&p);
  if (status) {
    const char *why = shlort_check_last_failure();
    diag_error(TOOL_NOLOC, "@%s returned %d%s%s", f->name, (int)status, why[0] ? ": " : "", why);
    return -1;
  }
  return write_outputs(t, out, nres);
}

/* The program loaded again (a failed symbolic compile has changed m),
 * specialized to the inputs. */
static int run_reloaded(ToolOptions *t, Tensor *in, Tensor *out) {
  Module *m = driver_load(t->files[0], &t->po);
  Func *f = m ? driver_find_entry(m, t->co.entry) : NULL;
  int rc = f ? run_specialized(t, m, f, in, out) : -1;
  if (m) ir_module_free(m);
  return rc;
}

/* Everything after loading; tensors are freed by the caller. A program
 * with `?` sizes runs symbolically (bound at the call from the inputs)
 * unless --specialize, --input-shapes or --dim say otherwise, or it does
 * not compile so. */
static int run_entry(ToolOptions *t, Module *m, Func *f, Tensor *in, Tensor *out) {
  int64_t replicas, partitions;
  ir_module_grid(m, &replicas, &partitions);
  if (t->co.replicas) replicas = t->co.replicas;
  if (t->co.partitions) partitions = t->co.partitions;
  /* A 1 x 1 grid (JAX writes mhlo.num_partitions = 1) is one process:
   * the ordinary path, which binds symbolic sizes and reads .npy inputs. */
  if (replicas > 1 || partitions > 1 || ir_func_needs_proc(f)) {
    Program p;
    if (check_output_specs(t, INT32_MAX) || program_build(&p, m, f, &t->co)) return -1;
    int rc = run_grid(t, m, &p, replicas > 0 ? replicas : 1, partitions > 0 ? partitions : 1);
    program_free(&p);
    return rc;
  }
  if (t->ninputs > f->body->nargs) {
    diag_error(TOOL_NOLOC, "@%s takes %d inputs, %d given with --input", f->name,
               f->body->nargs, t->ninputs);
    return -1;
  }
  for (int i = 0; i < t->ninputs; i++)
    if (load_input(t->inputs[i], i, &in[i])) return -1;
  if (check_output_specs(t, f->nresults)) return -1;
  bool bind = !t->co.input_shapes && !t->co.ndims && func_has_dynamic_args(f);
  if (t->symbolic && !bind) {
    diag_error(TOOL_NOLOC, "--symbolic: @%s has no `?` sizes to bind (or --input-shapes/--dim "
               "specialize them)", f->name);
    return -1;
  }
  if (!bind || t->specialize) return run_specialized(t, m, f, in, out);
  int rc = run_symbolic(t, m, f, in, out);
  return rc <= 0 ? rc : run_reloaded(t, in, out);
}

int cmd_run(ToolOptions *t) { return program_with_entry(t, run_entry); }
