/* program.c: one entry point compiled for the host with its packed
 * wrapper, loaded into the JIT, ready to call (run, check, bench). */
#include <stdlib.h>
#include <string.h>

#include "tools.h"

uint64_t program_entry_symbol(Jit *j, Module *m, const CompileOptions *co, const Func *f,
                              const char *suffix) {
  const char *name = cg_entry_name(&m->arena, co, f);
  return jit_lookup(j, arena_printf(&m->arena, "%s%s", name, suffix));
}

size_t program_temp_bytes(const Func *f) {
  return f->temp_bytes > 64 ? (size_t)(f->temp_bytes + 63) / 64 * 64 : 64;
}

int program_build(Program *p, Module *m, Func *entry, const CompileOptions *o) {
  memset(p, 0, sizeof *p);
  CompileOptions co = *o;
  co.packed_entry = true;
  co.entry = entry->name;
  /* The code runs here, so it is compiled for this triple (a --cpu or
   * --features subset of the host still makes sense, e.g. to time AVX2). */
  co.triple = NULL;
  const char *name = entry->name;
  if (driver_compile(m, &co)) return -1;
  p->entry = ir_module_find_func(m, name);
  if (!p->entry) {
    diag_error(TOOL_NOLOC, "@%s disappeared during compilation", name);
    return -1;
  }
  char *obj = NULL;
  size_t len = 0;
  if (codegen_emit(m, &co, EMIT_OBJ, &obj, &len)) return -1;
  p->jit = jit_new(obj, len);
  free(obj);
  if (!p->jit) return -1;
  /* An entry with a process context has __grid instead (grid.c calls it). */
  bool grid = ir_func_needs_proc(p->entry);
  uint64_t fn = 0, message = 0;
  if ((!grid && !(fn = program_entry_symbol(p->jit, m, &co, p->entry, "__packed"))) ||
      (p->entry->sym &&
       !(message = program_entry_symbol(p->jit, m, &co, p->entry, "_status_message")))) {
    program_free(p);
    return -1;
  }
  p->fn = (PackedEntry)(uintptr_t)fn;
  p->status_message = (const char *(*)(int, const void *))(uintptr_t)message;
  size_t temp = program_temp_bytes(p->entry);
  p->temp = aligned_alloc(64, temp);
  if (!p->temp) {
    diag_error(TOOL_NOLOC, "out of memory allocating %zu bytes of temp", temp);
    program_free(p);
    return -1;
  }
  return 0;
}

int32_t program_call(Program *p, void *const *args, void *const *results) {
  if (!p->fn) {
    diag_error(TOOL_NOLOC, "@%s calls the grid runtime (collectives, send/recv, feeds, "
               "process ids, rng): it runs in a grid (shloc run, interpreter.run_parallel)",
               p->entry->name);
    return SHLORT_INVALID;
  }
  int nargs = p->entry->body->nargs, nres = p->entry->nresults;
  if (p->entry->sym) { /* its sizes follow the pointers: program_call_inputs */
    diag_error(TOOL_NOLOC, "@%s has symbolic sizes; give --input-shapes", p->entry->name);
    return -1;
  }
  /* The packed calling convention: inputs, results, temp. */
  void **packed = malloc(sizeof(void *) * (size_t)(nargs + nres + 1));
  if (!packed) abort();
  for (int i = 0; i < nargs; i++) packed[i] = args[i];
  for (int i = 0; i < nres; i++) packed[nargs + i] = results[i];
  packed[nargs + nres] = p->temp;
  int32_t rc = p->fn(packed);
  free(packed);
  return rc;
}

/* The symbols' values: sizes of the inputs, values of dimension arguments. */
static int bind_sizes(const Func *f, const Tensor *in, int64_t *sizes) {
  for (int k = 0; k < f->sym->nsyms; k++) {
    const DimSym *s = &f->sym->syms[k];
    if (s->dim >= 0) sizes[k] = in[s->arg].dims[s->dim];
    else if (!tensor_int_value(&in[s->arg], &sizes[k])) return -1;
  }
  return 0;
}

/* Results of the sizes the program computes (the expressions that
 * P_F_result_dims evaluates). */
static int alloc_sized_results(const Func *f, const int64_t *sizes, Tensor *out) {
  const Op *ret = ir_block_terminator(f->body);
  for (int i = 0; i < f->nresults; i++) {
    const Type *t = ret->opnds[i]->type;
    int64_t dims[t->rank + 1];
    for (int d = 0; d < t->rank; d++)
      dims[d] = t->dims[d] != DIM_DYNAMIC ? t->dims[d] : dx_eval(ret->opnds[i]->sym[d], sizes);
    if (!type_dims_fit(t->rank, dims) || tensor_alloc(&out[i], t->elem, t->rank, dims)) return -1;
  }
  return 0;
}

/* The first constraint of the program that sizes break, as
 * "x_dim0 == y_dim0 (2 vs 3)" in msg; "" when none does. */
static void broken_constraint(Program *p, const int64_t *sizes, char *msg, size_t msg_size) {
  const SymInfo *s = p->entry->sym;
  Arena a = {0};
  msg[0] = 0;
  for (int i = 0; i < s->ncons && !msg[0]; i++) {
    const DimConstraint *c = &s->cons[i];
    int64_t x = dx_eval(c->a, sizes), y = dx_eval(c->b, sizes);
    if (c->ge ? x >= y : x == y) continue;
    snprintf(msg, msg_size, "%s %s %s (%lld vs %lld)", dx_str(&a, s, c->a), c->ge ? ">=" : "==",
             dx_str(&a, s, c->b), (long long)x, (long long)y);
  }
  arena_free(&a);
}

/* Status 1 or 2 of the entry, why in msg. */
static int32_t failed(Program *p, int32_t status, const int64_t *sizes, const void *temp,
                      char *msg, size_t msg_size) {
  char detail[512] = "";
  if (status == 1) broken_constraint(p, sizes, detail, sizeof detail);
  snprintf(msg, msg_size, "%s%s%s", p->status_message(status, temp), detail[0] ? ": " : "", detail);
  return status;
}

int32_t program_prepare_inputs(Program *p, const Tensor *in, Tensor *out, SymCall *c, char *msg,
                               size_t msg_size) {
  const Func *f = p->entry;
  int nargs = f->body->nargs, nres = f->nresults, nsyms = f->sym->nsyms;
  memset(c, 0, sizeof *c);
  c->sizes = calloc((size_t)nsyms + 1, sizeof *c->sizes);
  if (!c->sizes) abort();
  if (bind_sizes(f, in, c->sizes)) {
    diag_error(TOOL_NOLOC, "a dimension argument's input is not a 0-d signed integer");
    return -1;
  }
  bool negative = false;
  for (int k = 0; k < nsyms; k++) negative |= c->sizes[k] < 0;
  /* The entry rejects negative sizes, and sizes that overflow, before it
   * touches memory; results of such sizes cannot be allocated. */
  if (negative) return failed(p, 1, c->sizes, NULL, msg, msg_size);
  if (alloc_sized_results(f, c->sizes, out)) {
    diag_error(TOOL_NOLOC, "the result sizes for these inputs are out of range");
    return -1;
  }
  int64_t bytes = dx_eval(f->sym->temp_bytes, c->sizes);
  if (bytes == INT64_MAX) return failed(p, 1, c->sizes, NULL, msg, msg_size);
  c->temp = aligned_alloc(64, bytes > 0 ? (size_t)(bytes + 63) / 64 * 64 : 64);
  /* inputs, results, temp, then a pointer to each size (dyndims.c). */
  c->packed = malloc(sizeof(void *) * (size_t)(nargs + nres + 1 + nsyms));
  if (!c->packed || !c->temp) abort();
  for (int i = 0; i < nargs; i++) c->packed[i] = in[i].data;
  for (int i = 0; i < nres; i++) c->packed[nargs + i] = out[i].data;
  c->packed[nargs + nres] = c->temp;
  for (int k = 0; k < nsyms; k++) c->packed[nargs + nres + 1 + k] = &c->sizes[k];
  return 0;
}

int32_t program_call_prepared(Program *p, SymCall *c) { return p->fn(c->packed); }

void program_call_free(SymCall *c) {
  free(c->packed);
  free(c->temp);
  free(c->sizes);
  memset(c, 0, sizeof *c);
}

int32_t program_call_inputs(Program *p, const Tensor *in, Tensor *out, char *msg, size_t msg_size) {
  SymCall c;
  int32_t rc = program_prepare_inputs(p, in, out, &c, msg, msg_size);
  if (!rc && (rc = program_call_prepared(p, &c))) failed(p, rc, c.sizes, c.temp, msg, msg_size);
  program_call_free(&c);
  return rc;
}

void program_free(Program *p) {
  jit_free(p->jit);
  free(p->temp);
  memset(p, 0, sizeof *p);
}

int program_with_entry(ToolOptions *t, EntryBody body) {
  Module *m = driver_load(t->files[0], &t->po);
  if (!m) return 1;
  if (!t->co.prefix) t->co.prefix = driver_default_prefix(m, t->files[0]);
  Func *f = driver_find_entry(m, t->co.entry);
  if (!f) {
    ir_module_free(m);
    return 1;
  }
  int nargs = f->body->nargs, nres = f->nresults;
  Tensor *in = calloc((size_t)nargs + 1, sizeof *in), *out = calloc((size_t)nres + 1, sizeof *out);
  int rc = body(t, m, f, in, out);
  for (int i = 0; i < nargs; i++) tensor_free(&in[i]);
  for (int i = 0; i < nres; i++) tensor_free(&out[i]);
  free(in);
  free(out);
  ir_module_free(m);
  return rc ? 1 : 0;
}

bool func_has_dynamic_args(const Func *f) {
  for (int i = 0; i < f->body->nargs; i++)
    if (!type_is_static(f->body->args[i]->type)) return true;
  for (int i = 0; i < f->nresults; i++)
    if (!type_is_static(f->result_types[i])) return true;
  return false;
}
