/* driver.c: loading a module and THE pipeline of passes. */
#include <string.h>

#include "tools.h"

/* CPU time of the last driver_load (reading and parsing), which
 * driver_compile's --time-passes counts as parse. */
static double load_ms;

Module *driver_load(const char *path, const ParseOptions *po) {
  double start = cg_cpu_ms();
  SrcFile *f = srcfile_read(path);
  Module *m = f ? parse_module(f, 0, f->len, po) : NULL;
  load_ms = cg_cpu_ms() - start;
  return m;
}

static const char *const pass_names[] = {"parse", "verify", "inline", "chlo",
                                         "refine_shapes", "legalize",
                                         "quant", "simplify", "fuse", "buffers",
                                         "layout"};

bool driver_is_pass(const char *name) {
  for (size_t i = 0; i < sizeof pass_names / sizeof *pass_names; i++)
    if (!strcmp(name, pass_names[i])) return true;
  return false;
}

static void dump(Module *m, const CompileOptions *o, const char *pass) {
  if (!o->dump_after || strcmp(o->dump_after, pass)) return;
  printf("// -----// IR Dump After %s //----- //\n", pass);
  ir_print_module(stdout, m);
  fflush(stdout);
}

enum { STEP_ON, STEP_STOP, STEP_FAILED };

/* Bookkeeping after a pass ran: its time (since *mark, the end of the
 * previous step), with --verify-each the checks, the dump, and whether the
 * pipeline goes on. */
static int step(Module *m, const CompileOptions *o, const char *pass, int errors,
                double *mark) {
  double t = cg_cpu_ms();
  if (o->time_passes) fprintf(stderr, "  %-13s %9.3f ms\n", pass, t - *mark);
  *mark = t;
  if (!errors && o->verify_each && strcmp(pass, "verify"))
    errors = pass_check(m, o, pass) + pass_verify(m);
  if (errors) return STEP_FAILED;
  dump(m, o, pass);
  return o->stop_after && !strcmp(o->stop_after, pass) ? STEP_STOP : STEP_ON;
}

#define STEP(pass, call)                                   \
  do {                                                     \
    int s_ = step(m, o, pass, (call), &mark);              \
    if (s_ != STEP_ON) return s_ == STEP_FAILED;           \
  } while (0)

/* --replicas / --partitions become the module's grid attributes, which
 * the verifier and codegen read (ir_module_grid); they must agree with
 * attributes the module already has. */
static int set_grid_attr(Module *m, const char *name, int v) {
  for (int i = 0; i < m->nattrs; i++) {
    if (strcmp(m->attrs[i].name, name)) continue;
    if (m->attrs[i].value->kind == AT_INT && m->attrs[i].value->ival == v) return 0;
    diag_error(m->loc, "%s of the module differs from the command line's %d", name, v);
    return 1;
  }
  NamedAttr *attrs = ARENA_ARRAY(&m->arena, NamedAttr, m->nattrs + 1);
  if (m->nattrs) memcpy(attrs, m->attrs, sizeof *attrs * (size_t)m->nattrs);
  attrs[m->nattrs++] = (NamedAttr){name, attr_int(m, v, ET_SI32)};
  m->attrs = attrs;
  return 0;
}

static int set_grid(Module *m, const CompileOptions *o) {
  int errors = 0;
  if (o->replicas) errors += set_grid_attr(m, "mhlo.num_replicas", o->replicas);
  if (o->partitions) errors += set_grid_attr(m, "mhlo.num_partitions", o->partitions);
  return errors;
}

/* THE pipeline. Returns non-zero after errors; stopping at o->stop_after
 * is a success. */
int driver_compile(Module *m, const CompileOptions *o) {
  /* parse: reading and parsing the file (driver_load), and the grid */
  double start = cg_cpu_ms() - load_ms, mark = start;
  load_ms = 0;
  if (o->time_passes) fprintf(stderr, "pass timings (CPU time):\n");
  STEP("parse", set_grid(m, o));
  STEP("verify", pass_verify(m));
  STEP("inline", pass_inline(m));
  STEP("chlo", pass_decompose_chlo(m));
  STEP("refine_shapes", pass_refine_shapes(m, o));
  STEP("legalize", pass_legalize(m, o));
  STEP("quant", pass_lower_quant(m));
  /* Legalization and quant rewrite ops; check the result before building on it. */
  STEP("verify", pass_verify(m));
  STEP("simplify", pass_simplify(m));
  STEP("fuse", pass_fuse(m, o));
  /* Kernel scratch (GEMM panels) is sized for, and constant weights are
   * packed in, the target's GEMM tile. */
  CompileOptions planned = *o;
  planned.gemm_b_packing = codegen_gemm_b_packing;
  if (!codegen_gemm_tile_options(&planned)) return 1; /* no such target: diagnosed */
  STEP("buffers", pass_buffers(m, &planned));
  STEP("layout", pass_layout(m, &planned));
  if (o->time_passes) fprintf(stderr, "  %-13s %9.3f ms\n", "total", cg_cpu_ms() - start);
  return 0;
}

char *driver_default_prefix(Module *m, const char *path) {
  if (m->name && m->name[0]) return cg_c_ident(&m->arena, m->name);
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  const char *dot = strchr(base, '.');
  size_t n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
  return cg_c_ident(&m->arena, arena_strndup(&m->arena, base, n));
}

Func *driver_find_entry(Module *m, const char *name) {
  if (name) {
    Func *f = ir_module_find_func(m, name);
    if (!f) diag_error(TOOL_NOLOC, "no function @%s in the module", name);
    return f;
  }
  Func *main_fn = ir_module_find_func(m, "main"), *only = NULL;
  if (main_fn) return main_fn;
  int npublic = 0;
  for (int i = 0; i < m->nfuncs; i++)
    if (m->funcs[i]->is_public) {
      only = m->funcs[i];
      npublic++;
    }
  if (npublic == 1) return only;
  diag_error(TOOL_NOLOC, "no @main and %d public functions: choose one with --entry",
             npublic);
  return NULL;
}
