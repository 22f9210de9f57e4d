/* cmd_check.c: `shloc check FILE.mlir...`: the conformance protocol
 * (../shared/conformance/README.md). Each file is split into cases at
 * lines `// -----`; each case is parsed from its byte range of the file (so
 * diagnostics carry the file's real lines), its entry (@main, else the only
 * public function) is compiled with check ops allowed and run. A case
 * passes when it compiles, runs, and every check holds.
 *
 * Each case runs in a forked child with a time limit, so a crash or a hang
 * in generated code is a FAIL of that case, never of the tool. The child
 * sends its verdict through a pipe. */
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../runtime/shlort.h"
#include "tools.h"

typedef struct Case {
  size_t begin, end; /* byte range in the file */
  int line;          /* first line with code: the case's name in reports */
} Case;

typedef struct Verdict {
  bool pass;
  char name[128];
  char reason[512];
} Verdict;

/* --- splitting ------------------------------------------------------- */

static bool is_separator_line(const char *p, const char *eol) {
  while (eol > p && (eol[-1] == '\r' || eol[-1] == ' ' || eol[-1] == '\t')) eol--;
  return eol - p == 8 && !memcmp(p, "// -----", 8);
}

static bool is_code_line(const char *p, const char *eol) {
  while (p < eol && (*p == ' ' || *p == '\t' || *p == '\r')) p++;
  return p < eol && !(eol - p >= 2 && p[0] == '/' && p[1] == '/');
}

/* Adds [begin, end) as a case if it holds any code (not only comments). */
static void add_case(const SrcFile *f, size_t begin, size_t end, int line, Case **cases,
                     int *n) {
  const char *p = f->text + begin, *stop = f->text + end;
  for (; p < stop; line++) {
    const char *eol = memchr(p, '\n', (size_t)(stop - p));
    if (!eol) eol = stop;
    if (is_code_line(p, eol)) {
      *cases = realloc(*cases, sizeof **cases * (size_t)(*n + 1));
      (*cases)[(*n)++] = (Case){begin, end, line};
      return;
    }
    p = eol + 1;
  }
}

static int split_cases(const SrcFile *f, Case **cases) {
  int n = 0, line = 1, case_line = 1;
  size_t begin = 0;
  *cases = NULL;
  if (f->binary) { /* bytecode: one module */
    add_case(f, 0, f->len, 1, cases, &n);
    return n;
  }
  for (const char *p = f->text, *end = f->text + f->len; p < end; line++) {
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    if (!eol) eol = end;
    if (is_separator_line(p, eol)) {
      add_case(f, begin, (size_t)(p - f->text), case_line, cases, &n);
      begin = (size_t)(eol - f->text) + (eol < end);
      case_line = line + 1;
    }
    p = eol + 1;
  }
  add_case(f, begin, f->len, case_line, cases, &n);
  return n;
}

/* A name for a case that did not parse: @main if it appears, else the
 * first function's name. */
static void guess_name(const SrcFile *f, const Case *c, char *name, size_t size) {
  char *text = strndup(f->text + c->begin, c->end - c->begin);
  const char *p = strstr(text, "@main(");
  if (!p && (p = strstr(text, "func.func"))) p = strchr(p, '@');
  if (p) {
    size_t n = strcspn(p + 1, "( \t\n<{");
    snprintf(name, size, "%.*s", (int)n, p + 1);
  } else {
    snprintf(name, size, "(case)");
  }
  free(text);
}

/* --- one case ---------------------------------------------------------- */

/* Keeps the first line of the first error as the reason. */
static void capture_error(void *ctx, const char *text) {
  Verdict *v = ctx;
  if (v->reason[0] || !strstr(text, "error: ")) return;
  snprintf(v->reason, sizeof v->reason, "%.*s", (int)strcspn(text, "\n"), text);
}

/* Prints diagnostics too (--verbose) while capturing. */
static void capture_and_print(void *ctx, const char *text) {
  capture_error(ctx, text);
  fputs(text, stderr);
}

static void fail(Verdict *v, const char *reason) {
  v->pass = false;
  if (!v->reason[0]) snprintf(v->reason, sizeof v->reason, "%s", reason);
}

/* Whether op checks something: check.* ops and custom_call @check.* (the
 * protocol's two spellings; check.eq included: codegen fails the case when
 * its comparison is false). */
static bool is_check(const Op *op) {
  bool custom = op->code == OP_CUSTOM_CALL && op->a.call_target_name && !strncmp(op->a.call_target_name, "check.", 6);
  return custom || (op_flags(op->code) & OPF_CHECK);
}

/* Checks at the top level of f's body: those run on every call (checks in
 * regions or callees may legitimately not run). */
static int count_top_checks(const Func *f) {
  int n = 0;
  for (const Op *op = f->body->first; op; op = op->next) n += is_check(op);
  return n;
}

static void alloc_results(Module *m, const Func *f, Tensor *out, Verdict *v) {
  for (int i = 0; i < f->nresults && v->pass; i++) {
    const Type *ty = f->result_types[i];
    if (!type_is_tensor(ty) || !type_is_static(ty)) {
      v->pass = false;
      snprintf(v->reason, sizeof v->reason, "entry returns %s", type_str(&m->arena, ty));
    } else if (tensor_alloc_type(&out[i], ty)) {
      fail(v, "out of memory");
    }
  }
}

/* Calls the entry with args (NULL: none); host serves the run_parallel
 * ops of a check program (NULL: there are none). */
static void call_entry(Program *p, ParallelHost *host, void *const *args, Tensor *out,
                       int nchecks, Verdict *v) {
  int nres = p->entry->nresults;
  void **res = calloc((size_t)nres + 1, sizeof(void *));
  for (int i = 0; i < nres; i++) res[i] = out[i].data;
  shlort_check_reset();
  parallel_host_set(host);
  int32_t rc = program_call(p, args, res);
  parallel_host_set(NULL);
  free(res);
  if (rc && host && host->message[0]) {
    fail(v, host->message);
  } else if (rc && shlort_check_last_failure()[0]) {
    fail(v, shlort_check_last_failure());
  } else if (rc) {
    char why[64];
    snprintf(why, sizeof why, "entry returned %d", (int)rc);
    fail(v, why);
  } else if (nchecks && !shlort_check_count()) {
    /* A program with checks that ran none would pass without testing. */
    fail(v, "no check ran");
  }
}

/* The options a case of file compiles with: checks allowed, the file's
 * prefix unless --name gives one. */
static CompileOptions case_options(const ToolOptions *t, const SrcFile *file, Module *m) {
  CompileOptions co = t->co;
  co.allow_checks = true;
  if (!co.prefix) co.prefix = driver_default_prefix(m, file->name);
  return co;
}

/* Compiles and runs the entry of a parsed case. */
static void run_entry(const ToolOptions *t, const SrcFile *file, Module *m, Func *f,
                      Verdict *v) {
  if (f->body->nargs) {
    fail(v, "entry takes arguments");
    return;
  }
  int nchecks = count_top_checks(f), nres = f->nresults;
  Tensor *out = calloc((size_t)nres + 1, sizeof *out);
  alloc_results(m, f, out, v);
  CompileOptions co = case_options(t, file, m);
  Program p;
  if (v->pass && program_build(&p, m, f, &co)) fail(v, "compilation failed");
  if (v->pass) {
    ParallelHost host = {m, p.entry, p.jit, &co, t->grid_timeout_ms, ""};
    call_entry(&p, &host, NULL, out, nchecks, v);
    program_free(&p);
  }
  for (int i = 0; i < nres; i++) tensor_free(&out[i]);
  free(out);
}

/* --- programs with dynamic arguments (testdata/dynamic) ------------------ */

/* testdata/dynamic holds programs with `?` argument sizes, dimension
 * arguments and no checks. Each runs specialized (`--dim *=N`: every
 * dimension N) at these sizes on deterministic random inputs, at -O3 and at
 * -O0 (no fusion: other kernels), and passes when both run and agree. */
static const int64_t dynamic_sizes[] = {1, 3, 8};
enum { DYNAMIC_OTHER_LEVEL = 0 };
#define DYNAMIC_TOLERANCE 1e-3 /* as custom_call @check.expect_almost_eq */

typedef struct Run {
  int nres;
  Tensor *out;
} Run;

static void run_free(Run *r) {
  for (int i = 0; i < r->nres; i++) tensor_free(&r->out[i]);
  free(r->out);
  memset(r, 0, sizeof *r);
}

static void call_specialized(Module *m, Program *p, Run *run, Verdict *v) {
  const Func *f = p->entry;
  int nargs = f->body->nargs;
  Tensor *in = calloc((size_t)nargs + 1, sizeof *in);
  void **args = calloc((size_t)nargs + 1, sizeof(void *));
  uint64_t seed = 0x5eed0d1a;
  for (int i = 0; i < nargs && v->pass; i++) {
    if (tensor_alloc_type(&in[i], f->body->args[i]->type)) fail(v, "bad argument type");
    tensor_fill_random(&in[i], &seed);
    args[i] = in[i].data;
  }
  run->out = calloc((size_t)f->nresults + 1, sizeof *run->out);
  run->nres = f->nresults;
  alloc_results(m, f, run->out, v);
  if (v->pass) call_entry(p, NULL, args, run->out, 0, v);
  for (int i = 0; i < nargs; i++) tensor_free(&in[i]);
  free(in);
  free(args);
}

/* Parses the case again (compiling rewrites the module), compiles it with
 * every dimension n at -O<level> and runs it. */
static void run_specialized(const ToolOptions *t, const SrcFile *file, const Case *c, int64_t n,
                            int level, Run *run, Verdict *v) {
  Module *m = parse_module(file, c->begin, c->end, &t->po);
  Func *f = m ? ir_module_find_func(m, v->name) : NULL;
  if (!f) {
    fail(v, "parse failed");
    if (m) ir_module_free(m);
    return;
  }
  char dim[32];
  snprintf(dim, sizeof dim, "*=%lld", (long long)n);
  const char *dims[] = {dim};
  CompileOptions co = case_options(t, file, m);
  co.opt_level = level;
  co.dims = dims;
  co.ndims = 1;
  Program p;
  if (program_build(&p, m, f, &co)) {
    fail(v, "compilation failed");
  } else {
    call_specialized(m, &p, run, v);
    program_free(&p);
  }
  ir_module_free(m);
}

/* what: the two runs compared, for the message. */
static void compare_runs(const Run *a, const Run *b, int64_t n, const char *what, Verdict *v) {
  for (int i = 0; i < a->nres && v->pass; i++) {
    shlort_check_reset();
    if (a->out[i].elem == b->out[i].elem &&
        tensor_num_elems(&a->out[i]) == tensor_num_elems(&b->out[i]) &&
        !shlort_check_almost_eq(a->out[i].elem, a->out[i].data, b->out[i].data,
                                tensor_num_elems(&a->out[i]), DYNAMIC_TOLERANCE))
      continue;
    snprintf(v->reason, sizeof v->reason, "dimensions %lld: result %d %s differ: %s",
             (long long)n, i, what, shlort_check_last_failure());
    v->pass = false;
  }
}

static void run_dynamic(const ToolOptions *t, const SrcFile *file, const Case *c, Verdict *v) {
  for (size_t k = 0; k < sizeof dynamic_sizes / sizeof *dynamic_sizes && v->pass; k++) {
    Run fast = {0}, plain = {0};
    run_specialized(t, file, c, dynamic_sizes[k], t->co.opt_level, &fast, v);
    if (v->pass) run_specialized(t, file, c, dynamic_sizes[k], DYNAMIC_OTHER_LEVEL, &plain, v);
    if (v->pass) compare_runs(&fast, &plain, dynamic_sizes[k], "at -O3 and -O0", v);
    run_free(&fast);
    run_free(&plain);
  }
}

/* The inputs of call_specialized for the symbolic entry f at size n: the
 * same random values (drawn in the same order), dimension arguments n. */
static void symbolic_inputs(const Func *f, int64_t n, Tensor *in, Verdict *v) {
  uint64_t seed = 0x5eed0d1a;
  for (int i = 0; i < f->body->nargs && v->pass; i++) {
    const Type *t = f->body->args[i]->type;
    bool dim_arg = false;
    for (int k = 0; k < f->sym->nsyms; k++) dim_arg |= f->sym->syms[k].arg == i && f->sym->syms[k].dim < 0;
    int64_t dims[t->rank + 1];
    for (int d = 0; d < t->rank; d++) dims[d] = t->dims[d] == DIM_DYNAMIC ? n : t->dims[d];
    if (tensor_alloc(&in[i], t->elem, t->rank, dims)) fail(v, "bad argument type");
    else if (!dim_arg) tensor_fill_random(&in[i], &seed);
    else if (elem_bytes(t->elem) == 8) *(int64_t *)in[i].data = n;
    else if (elem_bytes(t->elem) == 4) *(int32_t *)in[i].data = (int32_t)n;
    else fail(v, "dimension argument narrower than 32 bits");
  }
}

static void call_symbolic(Program *p, int64_t n, Run *run, Verdict *v) {
  const Func *f = p->entry;
  int nargs = f->body->nargs;
  Tensor *in = calloc((size_t)nargs + 1, sizeof *in);
  run->out = calloc((size_t)f->nresults + 1, sizeof *run->out);
  run->nres = f->nresults;
  symbolic_inputs(f, n, in, v);
  char msg[256] = "";
  int32_t status = v->pass ? program_call_inputs(p, in, run->out, msg, sizeof msg) : 0;
  if (status) {
    snprintf(v->reason, sizeof v->reason, "dimensions %lld: the symbolic entry returned %d (%s)",
             (long long)n, (int)status, msg);
    v->pass = false;
  }
  for (int i = 0; i < nargs; i++) tensor_free(&in[i]);
  free(in);
}

/* --symbolic: the case compiled once without specialization (one object
 * for every size), run at each size on the inputs of the specialized run
 * and compared with it. */
static void run_symbolic(const ToolOptions *t, const SrcFile *file, const Case *c, Module *m,
                         Func *f, Verdict *v) {
  CompileOptions co = case_options(t, file, m);
  Program p;
  if (program_build(&p, m, f, &co)) {
    fail(v, "compilation failed");
    return;
  }
  if (!p.entry->sym) fail(v, "no symbolic sizes");
  for (size_t k = 0; k < sizeof dynamic_sizes / sizeof *dynamic_sizes && v->pass; k++) {
    Run spec = {0}, sym = {0};
    run_specialized(t, file, c, dynamic_sizes[k], t->co.opt_level, &spec, v);
    if (v->pass) call_symbolic(&p, dynamic_sizes[k], &sym, v);
    if (v->pass) compare_runs(&spec, &sym, dynamic_sizes[k], "specialized and symbolic", v);
    run_free(&spec);
    run_free(&sym);
  }
  program_free(&p);
}

static void run_case(const ToolOptions *t, const SrcFile *f, const Case *c, Verdict *v) {
  memset(v, 0, sizeof *v);
  v->pass = true;
  guess_name(f, c, v->name, sizeof v->name);
  diag_reset();
  diag_set_sink(t->verbose ? capture_and_print : capture_error, v);
  Module *m = parse_module(f, c->begin, c->end, &t->po);
  if (!m) {
    fail(v, "parse failed");
  } else {
    Func *entry = ir_module_find_func(m, "main");
    if (!entry && m->nfuncs == 1) entry = m->funcs[0];
    if (entry) snprintf(v->name, sizeof v->name, "%s", entry->name);
    if (!entry) fail(v, "no @main and not exactly one function");
    else if (t->symbolic && func_has_dynamic_args(entry)) run_symbolic(t, f, c, m, entry, v);
    else if (t->symbolic) fail(v, "no `?` sizes");
    else if (func_has_dynamic_args(entry)) run_dynamic(t, f, c, v);
    else run_entry(t, f, m, entry, v);
    ir_module_free(m);
  }
  diag_set_sink(NULL, NULL);
}

/* --- isolation --------------------------------------------------------- */

static void write_all(int fd, const void *buf, size_t n) {
  const char *p = buf;
  while (n) {
    ssize_t k = write(fd, p, n);
    if (k <= 0) return;
    p += k;
    n -= (size_t)k;
  }
}

static size_t read_all(int fd, void *buf, size_t n) {
  char *p = buf;
  size_t got = 0;
  while (got < n) {
    ssize_t k = read(fd, p + got, n - got);
    if (k <= 0) break;
    got += (size_t)k;
  }
  return got;
}

/* A FAIL decided by the parent: the child gave no verdict. */
static void failed_outside(const SrcFile *f, const Case *c, Verdict *v, const char *why) {
  memset(v, 0, sizeof *v);
  guess_name(f, c, v->name, sizeof v->name);
  snprintf(v->reason, sizeof v->reason, "%s", why);
}

/* Runs the case in a child with a time limit; a verdict the child could
 * not send (crash, timeout) becomes a FAIL naming the signal. */
static void run_case_isolated(const ToolOptions *t, const SrcFile *f, const Case *c, Verdict *v) {
  int fds[2];
  fflush(NULL); /* the child must not flush the parent's buffered output */
  if (pipe(fds)) {
    failed_outside(f, c, v, "cannot create a pipe");
    return;
  }
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    failed_outside(f, c, v, "cannot fork");
    return;
  }
  if (pid == 0) {
    close(fds[0]);
    alarm((unsigned)t->timeout);
    run_case(t, f, c, v);
    write_all(fds[1], v, sizeof *v);
    _exit(0);
  }
  close(fds[1]);
  size_t got = read_all(fds[0], v, sizeof *v);
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (got == sizeof *v) return;
  char why[96];
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
    snprintf(why, sizeof why, "timeout after %d s", t->timeout);
  else if (WIFSIGNALED(status))
    snprintf(why, sizeof why, "crashed: signal %d (%s)", WTERMSIG(status),
             strsignal(WTERMSIG(status)));
  else
    snprintf(why, sizeof why, "exited with status %d", WEXITSTATUS(status));
  failed_outside(f, c, v, why);
}

/* --- reporting --------------------------------------------------------- */

/* Keeps result lines one line with three tab-separated fields. */
static void flatten(char *s) {
  for (; *s; s++)
    if (*s == '\n' || *s == '\t' || *s == '\r') *s = ' ';
}

static void report(FILE *results, const char *file, const Case *c, Verdict *v) {
  flatten(v->reason);
  flatten(v->name);
  if (!grid_reports()) return; /* under MPI only rank 0 reports */
  if (v->pass) printf("PASS %s:%d %s\n", file, c->line, v->name);
  else printf("FAIL %s:%d %s: %s\n", file, c->line, v->name, v->reason);
  fflush(stdout);
  if (!results) return;
  if (v->pass) fprintf(results, "PASS\t%s:%d\t%s\n", file, c->line, v->name);
  else fprintf(results, "FAIL\t%s:%d\t%s: %s\n", file, c->line, v->name, v->reason);
  fflush(results);
}

/* --- under MPI (--mpi) -------------------------------------------------- */

/* The process count of the case's run_parallel ops, all of one grid size
 * (each rank runs one process); 0 when it has none, -1 when they differ
 * or the case does not parse. */
static int case_grid(const ToolOptions *t, const SrcFile *f, const Case *c) {
  diag_reset();
  diag_set_sink(capture_error, &(Verdict){0});
  Module *m = parse_module(f, c->begin, c->end, &t->po);
  diag_set_sink(NULL, NULL);
  if (!m) return -1;
  int n = 0;
  Func *main_fn = ir_module_find_func(m, "main");
  for (Op *op = main_fn && main_fn->body ? main_fn->body->first : NULL; op; op = op->next) {
    const Attr *p = op->code == OP_INTERPRETER_RUN_PARALLEL ? ir_attr(op, "programs") : NULL;
    if (!p) continue;
    int k = p->kind == AT_ARRAY && p->n && p->items[0]->kind == AT_ARRAY ? p->n * p->items[0]->n : -1;
    n = n && n != k ? -1 : k;
  }
  ir_module_free(m);
  return n;
}

/* build/shloc-mpi beside this binary (make mpi). */
static bool mpi_tool(char *path, size_t size) {
  ssize_t n = readlink("/proc/self/exe", path, size - 16);
  if (n <= 0) return false;
  path[n] = 0;
  char *slash = strrchr(path, '/');
  snprintf(slash ? slash + 1 : path, 16, "shloc-mpi");
  return access(path, X_OK) == 0;
}

/* The verdict line rank 0 printed, else the tail of mpirun's output. */
static void read_verdict(const char *out, Verdict *v) {
  for (const char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
    if (strncmp(l, "PASS ", 5) && strncmp(l, "FAIL ", 5)) continue;
    v->pass = l[0] == 'P';
    const char *name = strchr(l + 5, ' '), *eol = strchr(l, '\n');
    if (!eol) eol = l + strlen(l);
    if (!v->pass && name) {
      const char *why = strstr(name, ": ");
      if (why && why < eol) snprintf(v->reason, sizeof v->reason, "%.*s", (int)(eol - why - 2), why + 2);
    }
    return;
  }
  size_t n = strlen(out);
  snprintf(v->reason, sizeof v->reason, "mpirun gave no verdict: %s", out + (n > 300 ? n - 300 : 0));
}

/* Runs the case under `mpirun -np n shloc-mpi check --no-fork --case=L`. */
static void run_case_mpi(const ToolOptions *t, const char *path, const Case *c, int n,
                         Verdict *v) {
  char tool[PATH_MAX], np[16], line[32], timeout[48], out[16384];
  if (!mpi_tool(tool, sizeof tool)) {
    snprintf(v->reason, sizeof v->reason, "%.400s not found (make mpi)", tool);
    return;
  }
  snprintf(np, sizeof np, "%d", n);
  snprintf(line, sizeof line, "--case=%d", c->line);
  snprintf(timeout, sizeof timeout, "--grid-timeout=%lld",
           (long long)(t->grid_timeout_ms ? t->grid_timeout_ms : 10000));
  const char *argv[] = {"mpirun", "--oversubscribe", "-np", np, tool, "check", "--no-fork",
                        line, timeout, path, NULL, NULL};
  if (geteuid() == 0) { /* Open MPI refuses root without it */
    memmove(argv + 2, argv + 1, sizeof *argv * 9);
    argv[1] = "--allow-run-as-root";
  }
  int fds[2];
  fflush(NULL);
  if (pipe(fds)) return;
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 1);
    dup2(fds[1], 2);
    close(fds[0]);
    alarm((unsigned)t->timeout * 4); /* mpirun starts n ranks that each compile */
    execvp("mpirun", (char *const *)argv);
    _exit(127);
  }
  close(fds[1]);
  size_t got = pid > 0 ? read_all(fds[0], out, sizeof out - 1) : 0;
  out[got] = 0;
  close(fds[0]);
  if (pid > 0) waitpid(pid, NULL, 0);
  read_verdict(out, v);
}

/* --mpi: only the cases with run_parallel, each under mpirun. */
static void check_file_mpi(const ToolOptions *t, const char *path, const SrcFile *f,
                           const Case *c, FILE *results, int *npass, int *nfail) {
  int n = case_grid(t, f, c);
  if (n == 0) return;
  Verdict v;
  failed_outside(f, c, &v, n < 0 ? "no single grid size among its run_parallel ops" : "");
  if (n > 0) run_case_mpi(t, path, c, n, &v);
  report(results, path, c, &v);
  if (v.pass) (*npass)++;
  else (*nfail)++;
}

static void check_file(const ToolOptions *t, const char *path, FILE *results, int *npass,
                       int *nfail) {
  SrcFile *f = srcfile_read(path);
  if (!f) {
    Case whole = {0, 0, 1};
    Verdict v = {.pass = false, .name = "(file)", .reason = "cannot read the file"};
    report(results, path, &whole, &v);
    (*nfail)++;
    return;
  }
  Case *cases;
  int n = split_cases(f, &cases);
  for (int i = 0; i < n; i++) {
    Verdict v;
    if (t->case_line && cases[i].line != t->case_line) continue;
    if (t->mpi) {
      check_file_mpi(t, path, f, &cases[i], results, npass, nfail);
      continue;
    }
    if (t->no_fork) run_case(t, f, &cases[i], &v);
    else run_case_isolated(t, f, &cases[i], &v);
    report(results, path, &cases[i], &v);
    if (v.pass) (*npass)++;
    else (*nfail)++;
  }
  free(cases);
}

int cmd_check(ToolOptions *t) {
  FILE *results = NULL;
  if (t->results && !(results = fopen(t->results, "w"))) {
    diag_error(TOOL_NOLOC, "cannot create %s", t->results);
    return 1;
  }
  int npass = 0, nfail = 0;
  for (int i = 0; i < t->nfiles; i++) check_file(t, t->files[i], results, &npass, &nfail);
  int close_err = results ? file_close(results, t->results, 0) : 0;
  if (grid_reports()) printf("%d passed, %d failed\n", npass, nfail);
  return nfail || close_err ? 1 : 0;
}
