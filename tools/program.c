/* program.c: one entry point compiled for the host with its packed
 * wrapper, loaded into the JIT, ready to call (run, check, bench). */
#include <stdlib.h>
#include <string.h>

#include "tools.h"

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
  char *sym = arena_printf(&m->arena, "%s__packed", cg_entry_name(&m->arena, &co, p->entry));
  uint64_t addr = jit_lookup(p->jit, sym);
  if (!addr) {
    program_free(p);
    return -1;
  }
  p->fn = (PackedEntry)(uintptr_t)addr;
  size_t temp = p->entry->temp_bytes > 64 ? (size_t)(p->entry->temp_bytes + 63) / 64 * 64 : 64;
  p->temp = aligned_alloc(64, temp);
  if (!p->temp) {
    diag_error(TOOL_NOLOC, "out of memory allocating %zu bytes of temp", temp);
    program_free(p);
    return -1;
  }
  return 0;
}

int32_t program_call(Program *p, void *const *args, void *const *results) {
  int nargs = p->entry->body->nargs, nres = p->entry->nresults;
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

int32_t program_call_sized(Program *p, void *const *args, void *const *results, void *temp,
                           const int64_t *sizes) {
  int nargs = p->entry->body->nargs, nres = p->entry->nresults, nsyms = p->entry->sym->nsyms;
  /* inputs, results, temp, then a pointer to each size (dyndims.c). */
  void **packed = malloc(sizeof(void *) * (size_t)(nargs + nres + 1 + nsyms));
  if (!packed) abort();
  for (int i = 0; i < nargs; i++) packed[i] = args[i];
  for (int i = 0; i < nres; i++) packed[nargs + i] = results[i];
  packed[nargs + nres] = temp;
  for (int k = 0; k < nsyms; k++) packed[nargs + nres + 1 + k] = (void *)&sizes[k];
  int32_t rc = p->fn(packed);
  free(packed);
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
  return false;
}
