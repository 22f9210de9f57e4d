/* grid.c: SPMD programs run by the tool (spec "Parallel execution"): the
 * processes of a grid, each a compiled entry with its own frame, and the
 * host side of interpreter.run_parallel (conformance protocol), which the
 * JIT-compiled @main of a `shloc check` case calls. The transport is
 * grid_run: threads (grid_threads.c, in shloc) or MPI ranks (grid_mpi.c,
 * in shloc-mpi). */
#include <stdlib.h>
#include <string.h>

#include "tools.h"

/* ------------------------------------------------------------------------ */
/* Processes                                                                 */

int grid_proc_init(GridProc *gp, Jit *jit, const CompileOptions *co, Module *m, Func *f,
                   void *const *args, void *const *results) {
  memset(gp, 0, sizeof *gp);
  gp->f = f;
  gp->nargs = f->body->nargs;
  gp->nresults = f->nresults;
  bool grid = ir_func_needs_proc(f);
  uint64_t addr = program_entry_symbol(jit, m, co, f, grid ? "__grid" : "__packed");
  if (!addr) return -1;
  if (grid) gp->grid = (shlort_entry)(uintptr_t)addr;
  else gp->packed = (PackedEntry)(uintptr_t)addr;
  size_t temp = program_temp_bytes(f);
  gp->frame = calloc((size_t)(gp->nargs + gp->nresults + 1), sizeof(void *));
  gp->temp = aligned_alloc(64, temp);
  if (!gp->frame || !gp->temp) {
    diag_error(TOOL_NOLOC, "out of memory for the frame of @%s", f->name);
    return -1;
  }
  for (int i = 0; i < gp->nargs; i++) gp->frame[i] = args ? args[i] : NULL;
  for (int i = 0; i < gp->nresults; i++) gp->frame[gp->nargs + i] = results[i];
  gp->frame[gp->nargs + gp->nresults] = gp->temp;
  return 0;
}

void grid_proc_free(GridProc *gp) {
  free(gp->frame);
  free(gp->temp);
  memset(gp, 0, sizeof *gp);
}

int32_t grid_proc_call(void *arg, shlort_proc *proc) {
  GridProc *gp = arg;
  return gp->grid ? gp->grid(gp->frame, proc) : gp->packed(gp->frame);
}

/* ------------------------------------------------------------------------ */
/* Routes of send/recv channels (MPI needs each channel's two processes)     */

typedef struct RouteScan {
  GridRoute *routes;
  int32_t n, id;
} RouteScan;

static GridRoute *route_of(RouteScan *s, int64_t channel) {
  for (int32_t i = 0; i < s->n; i++)
    if (s->routes[i].channel_id == channel) return &s->routes[i];
  s->routes = realloc(s->routes, sizeof *s->routes * (size_t)(s->n + 1));
  if (!s->routes) abort();
  s->routes[s->n] = (GridRoute){channel, -1, -1};
  return &s->routes[s->n++];
}

static void scan_channels(Op *op, void *ctx) {
  RouteScan *s = ctx;
  if (op->code != OP_SEND && op->code != OP_RECV) return;
  GridRoute *r = route_of(s, op->a.channel.handle);
  if (op->code == OP_SEND) r->sender = s->id;
  else r->receiver = s->id;
}

void grid_find_routes(GridRun *g) {
  RouteScan s = {NULL, 0, 0};
  for (s.id = 0; s.id < g->replicas * g->partitions; s.id++)
    ir_walk(g->procs[s.id].f, scan_channels, &s);
  g->routes = s.routes;
  g->nroutes = s.n;
}

/* ------------------------------------------------------------------------ */
/* interpreter.run_parallel                                                  */

/* The case whose @main is running on this thread. A JIT-compiled @main
 * reaches the tool only through the shloc_run_parallel symbol, so the case
 * is found here; it exists only while `shloc check` runs a case. */
static _Thread_local ParallelHost *current;

void parallel_host_set(ParallelHost *h) { current = h; }

typedef struct SiteQuery {
  int want, index;
  Op *op;
} SiteQuery;

/* The same numbering as codegen/collectives.c: ir_walk order. */
static void find_site(Op *op, void *ctx) {
  SiteQuery *q = ctx;
  if (op->code != OP_INTERPRETER_RUN_PARALLEL) return;
  if (q->index++ == q->want) q->op = op;
}

static int32_t host_error(ParallelHost *h, const char *msg) {
  snprintf(h->message, sizeof h->message, "interpreter.run_parallel: %s", msg);
  return SHLORT_INVALID;
}

/* Runs each infeed function (packed entries without arguments) into
 * buffers of its results: the infeed queue of every process, in order. */
static int32_t fill_infeed(ParallelHost *h, const Attr *q, GridRun *g, Tensor **bufs) {
  int n = q ? (q->kind == AT_ARRAY ? q->n : 0) : 0, total = 0;
  for (int i = 0; i < n; i++) total += ir_module_find_func(h->m, q->items[i]->str)->nresults;
  shlort_tensor *queue = calloc((size_t)total + 1, sizeof *queue);
  *bufs = calloc((size_t)total + 1, sizeof **bufs);
  if (!queue || !*bufs) abort();
  g->infeed = queue;
  for (int i = 0, k = 0; i < n; i++) {
    Func *f = ir_module_find_func(h->m, q->items[i]->str);
    void **res = calloc((size_t)f->nresults + 1, sizeof(void *));
    for (int j = 0; j < f->nresults; j++) {
      if (tensor_alloc_type(&(*bufs)[k + j], f->result_types[j])) return host_error(h, "memory");
      res[j] = (*bufs)[k + j].data;
      const Type *t = f->result_types[j];
      queue[k + j] = (shlort_tensor){res[j], t->dims, t->rank, (int32_t)t->elem};
    }
    GridProc gp;
    int32_t rc = grid_proc_init(&gp, h->jit, h->co, h->m, f, NULL, res) ? SHLORT_INVALID
                                                                         : grid_proc_call(&gp, NULL);
    grid_proc_free(&gp);
    free(res);
    if (rc) return host_error(h, "an infeed function failed");
    k += f->nresults;
    g->ninfeed = k;
  }
  return 0;
}

/* The processes of programs = [[@f, ...], ...] on their shares of the
 * inputs and results (row-major process order, verify.c checked the
 * counts). */
static int32_t make_procs(ParallelHost *h, const Attr *p, GridRun *g, void **inputs,
                          void **results) {
  g->replicas = p->n;
  g->partitions = p->items[0]->n;
  int nprocs = g->replicas * g->partitions, in = 0, out = 0;
  g->procs = calloc((size_t)nprocs, sizeof *g->procs);
  if (!g->procs) abort();
  for (int i = 0; i < nprocs; i++) {
    const Attr *s = p->items[i / g->partitions]->items[i % g->partitions];
    Func *f = ir_module_find_func(h->m, s->str);
    if (grid_proc_init(&g->procs[i], h->jit, h->co, h->m, f, inputs + in, results + out))
      return host_error(h, "a program is missing from the object");
    in += f->body->nargs;
    out += f->nresults;
  }
  return 0;
}

int32_t shloc_run_parallel(int32_t site, void **inputs, void **results) {
  ParallelHost *h = current;
  if (!h) abort(); /* only `shloc check` compiles calls to it */
  SiteQuery q = {site, 0, NULL};
  ir_walk(h->main, find_site, &q);
  if (!q.op) return host_error(h, "no such op in @main");
  GridRun g = {.timeout_ms = h->timeout_ms};
  Tensor *feed = NULL;
  int32_t rc = make_procs(h, ir_attr(q.op, "programs"), &g, inputs, results);
  if (!rc) rc = fill_infeed(h, ir_attr(q.op, "infeed"), &g, &feed);
  if (!rc) {
    grid_find_routes(&g);
    char msg[sizeof h->message];
    rc = grid_run(&g, msg, sizeof msg);
    if (rc) snprintf(h->message, sizeof h->message, "%s", msg);
  }
  for (int i = 0; i < g.replicas * g.partitions; i++) grid_proc_free(&g.procs[i]);
  for (int i = 0; i < g.ninfeed; i++) tensor_free(&feed[i]);
  free(feed);
  free((void *)g.infeed);
  free((void *)g.routes);
  free(g.procs);
  return rc;
}
