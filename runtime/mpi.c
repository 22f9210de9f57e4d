/* mpi.c: one process of a grid per MPI rank (libshlort_mpi.a): the
 * context in caller memory, running an entry, waiting with a timeout,
 * failure notices, and the cache of group communicators. See
 * shlort_mpi.h for the model and its limits. */
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "mpi_grid.h"

/* ------------------------------------------------------------------------ */
/* Memory: the context, the state, the group table and member lists, the
 * count arrays, the ints and pointers of the group computations, the
 * reduction block and the stage. */

typedef struct Layout {
  size_t state, groups, group_ids, counts, reqs, ints, srcs, dsts, block, stage, total;
} Layout;

static size_t align64(size_t n) { return (n + 63) & ~(size_t)63; }

static int32_t group_capacity(const shlort_mpi_config *cfg) {
  return cfg->max_groups ? cfg->max_groups : SHLORT_MPI_DEFAULT_GROUPS;
}

static int64_t stage_size(const shlort_mpi_config *cfg) {
  return cfg->stage_bytes ? cfg->stage_bytes : SHLORT_MPI_DEFAULT_STAGE;
}

static bool valid_config(const shlort_mpi_config *cfg) {
  uint64_t n = (uint64_t)cfg->grid.num_replicas * cfg->grid.num_partitions;
  return cfg->grid.num_replicas >= 1 && cfg->grid.num_partitions >= 1 && n <= (1u << 16) &&
         cfg->grid.timeout_ms >= 0 && cfg->max_groups >= 0 && cfg->stage_bytes >= 0 &&
         cfg->route_count >= 0 && (cfg->routes || !cfg->route_count);
}

static Layout layout(const shlort_mpi_config *cfg) {
  size_t n = (size_t)cfg->grid.num_replicas * cfg->grid.num_partitions;
  size_t groups = (size_t)group_capacity(cfg);
  Layout l;
  l.state = align64(sizeof(shlort_proc));
  l.groups = l.state + align64(sizeof(MpiState));
  l.group_ids = l.groups + align64(groups * sizeof(MpiGroup));
  l.counts = l.group_ids + align64(groups * n * sizeof(int32_t));
  l.reqs = l.counts + align64(4 * n * sizeof(int));
  l.ints = l.reqs + align64(2 * n * sizeof(MPI_Request));
  l.srcs = l.ints + align64(2 * n * sizeof(int32_t));
  l.dsts = l.srcs + align64(n * sizeof(const void *));
  l.block = l.dsts + align64(n * sizeof(void *));
  l.stage = l.block + SHLORT_BLOCK_BYTES;
  l.total = l.stage + align64((size_t)stage_size(cfg));
  return l;
}

size_t shlort_mpi_proc_bytes(const shlort_mpi_config *cfg) {
  return valid_config(cfg) ? layout(cfg).total : 0;
}

static void on_fail(shlort_proc *p);

static void setup(shlort_proc *p, MpiState *s, unsigned char *m, const Layout *l,
                  const shlort_mpi_config *cfg) {
  size_t n = (size_t)p->nprocs;
  s->groups = (MpiGroup *)(void *)(m + l->groups);
  s->max_groups = group_capacity(cfg);
  for (int32_t i = 0; i < s->max_groups; i++)
    s->groups[i].members = (int32_t *)(void *)(m + l->group_ids) + n * (size_t)i;
  for (int k = 0; k < 4; k++) s->counts[k] = (int *)(void *)(m + l->counts) + n * (size_t)k;
  s->reqs = (MPI_Request *)(void *)(m + l->reqs);
  s->stage = m + l->stage;
  s->stage_bytes = stage_size(cfg);
  s->routes = cfg->routes;
  s->route_count = cfg->route_count;
  s->verify = cfg->verify;
  p->members = (int32_t *)(void *)(m + l->ints);
  p->scratch = p->members + n;
  p->srcs = (const void **)(void *)(m + l->srcs);
  p->dsts = (void **)(void *)(m + l->dsts);
  p->block = m + l->block;
  p->on_fail = on_fail;
  p->impl = s;
}

int32_t shlort_mpi_proc_init(shlort_proc **out, void *mem, size_t bytes, MPI_Comm comm,
                             const shlort_mpi_config *cfg) {
  *out = NULL;
  if (!valid_config(cfg)) return SHLORT_INVALID;
  Layout l = layout(cfg);
  if (!mem || bytes < l.total || ((uintptr_t)mem & 63)) return SHLORT_INVALID;
  int size, rank;
  if (MPI_Comm_size(comm, &size) || MPI_Comm_rank(comm, &rank)) return SHLORT_COMM;
  if ((uint64_t)size != (uint64_t)cfg->grid.num_replicas * cfg->grid.num_partitions)
    return SHLORT_INVALID;
  memset(mem, 0, l.total);
  shlort_proc *p = mem;
  MpiState *s = (MpiState *)(void *)((unsigned char *)mem + l.state);
  shlort_proc_setup(p, cfg->grid.num_replicas, cfg->grid.num_partitions, rank,
                    cfg->grid.timeout_ms, cfg->grid.rng_seed);
  setup(p, s, mem, &l, cfg);
  if (MPI_Comm_dup(comm, &s->world)) return SHLORT_COMM;
  MPI_Comm_set_errhandler(s->world, MPI_ERRORS_RETURN);
  *out = p;
  return SHLORT_OK;
}

int32_t shlort_mpi_proc_destroy(shlort_proc *p) {
  if (!p) return SHLORT_INVALID;
  MpiState *s = shlort_mpi_state(p);
  int rc = MPI_SUCCESS;
  for (int32_t i = 0; i < s->ngroups; i++)
    if (s->groups[i].comm != MPI_COMM_NULL) rc |= MPI_Comm_free(&s->groups[i].comm);
  s->ngroups = 0;
  rc |= MPI_Comm_free(&s->world);
  return rc ? SHLORT_COMM : SHLORT_OK;
}

/* ------------------------------------------------------------------------ */
/* Failures */

/* Tells every other rank once; the notices are small, so MPI sends them
 * eagerly and the requests can be freed at once. */
static void on_fail(shlort_proc *p) {
  MpiState *s = shlort_mpi_state(p);
  if (p->status == SHLORT_ABORTED || s->told) return;
  s->told = true;
  static const int32_t notice = 1;
  for (int32_t r = 0; r < p->nprocs; r++) {
    if (r == p->index) continue;
    MPI_Request req;
    if (MPI_Isend(&notice, 1, MPI_INT32_T, r, TAG_ABORT, s->world, &req) == MPI_SUCCESS)
      MPI_Request_free(&req);
  }
}

int32_t shlort_mpi_check(shlort_proc *p, const shlort_op *op, int rc, const char *call) {
  if (rc == MPI_SUCCESS) return SHLORT_OK;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS) snprintf(text, sizeof text, "error %d", rc);
  return shlort_fail(p, op, SHLORT_COMM, "%s failed: %s", call, text);
}

int32_t shlort_mpi_count(shlort_proc *p, const shlort_op *op, int64_t bytes, int *count) {
  if (bytes > INT_MAX)
    return shlort_fail(p, op, SHLORT_INVALID, "a message of %lld bytes exceeds MPI's int count",
                       (long long)bytes);
  *count = (int)bytes;
  return SHLORT_OK;
}

/* A failure notice from another rank, if one has come. */
static int32_t notice(shlort_proc *p, const shlort_op *op) {
  MpiState *s = shlort_mpi_state(p);
  int flag = 0;
  MPI_Status st;
  if (MPI_Iprobe(MPI_ANY_SOURCE, TAG_ABORT, s->world, &flag, &st) || !flag) return SHLORT_OK;
  int32_t one;
  MPI_Recv(&one, 1, MPI_INT32_T, st.MPI_SOURCE, TAG_ABORT, s->world, MPI_STATUS_IGNORE);
  char who[32];
  shlort_format_process(who, sizeof who, p, st.MPI_SOURCE);
  return shlort_fail(p, op, SHLORT_ABORTED, "aborted: process %s failed", who);
}

static double seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int32_t shlort_mpi_wait(shlort_proc *p, const shlort_op *op, int n, MPI_Request *reqs,
                        MPI_Status *st, const char *what) {
  double deadline = seconds() + (double)p->timeout_ms / 1000;
  for (unsigned spins = 0;; spins++) {
    int done = 0, rc = MPI_Testall(n, reqs, &done, st ? st : MPI_STATUSES_IGNORE);
    if (rc != MPI_SUCCESS) return shlort_mpi_check(p, op, rc, what);
    if (done) return SHLORT_OK;
    /* Checked now and then: a probe and a clock read per poll would slow
     * the small messages down. */
    if (spins % 64 != 63) continue;
    if ((rc = notice(p, op))) return rc;
    if (seconds() > deadline)
      return shlort_fail(p, op, SHLORT_TIMEOUT, "timeout after %.1f s waiting for %s",
                         (double)p->timeout_ms / 1000, what);
    /* Ranks may outnumber cores (mpirun --oversubscribe): let them run. */
    sched_yield();
  }
}

int32_t shlort_mpi_wait_p2p(shlort_proc *p, const shlort_op *op, int n, MPI_Request *reqs,
                            MPI_Status *st, const char *what) {
  int32_t rc = shlort_mpi_wait(p, op, n, reqs, st, what);
  for (int i = 0; rc && i < n; i++) {
    if (reqs[i] == MPI_REQUEST_NULL) continue;
    MPI_Cancel(&reqs[i]);
    MPI_Request_free(&reqs[i]);
  }
  return rc;
}

/* ------------------------------------------------------------------------ */
/* Group communicators */

static uint32_t hash_members(const int32_t *m, int32_t n) {
  uint32_t h = 2166136261u;
  for (int32_t i = 0; i < n; i++) h = (h ^ (uint32_t)m[i]) * 16777619u;
  return h;
}

static MpiGroup *cached(MpiState *s, const int32_t *members, int32_t size) {
  for (int32_t i = 0; i < s->ngroups; i++)
    if (s->groups[i].size == size &&
        !memcmp(s->groups[i].members, members, (size_t)size * sizeof *members))
      return &s->groups[i];
  return NULL;
}

int32_t shlort_mpi_group(shlort_proc *p, const shlort_op *op, int32_t size, MPI_Comm *comm) {
  MpiState *s = shlort_mpi_state(p);
  MpiGroup *g = cached(s, p->members, size);
  if (g) {
    *comm = g->comm;
    return SHLORT_OK;
  }
  if (s->ngroups == s->max_groups)
    return shlort_fail(p, op, SHLORT_INVALID,
                       "more than %d distinct process groups (shlort_mpi_config.max_groups)",
                       (int)s->max_groups);
  g = &s->groups[s->ngroups];
  MPI_Group world, group;
  int rc = MPI_Comm_group(s->world, &world);
  if (!rc) rc = MPI_Group_incl(world, size, p->members, &group);
  /* The tag tells apart creations of overlapping groups that a rank's
   * peers may have under way at once. */
  if (!rc) {
    int tag = (int)(hash_members(p->members, size) % 32000);
    rc = MPI_Comm_create_group(s->world, group, tag, &g->comm);
  }
  if (!rc) MPI_Comm_set_errhandler(g->comm, MPI_ERRORS_RETURN);
  MPI_Group_free(&group);
  MPI_Group_free(&world);
  if (rc) return shlort_mpi_check(p, op, rc, "MPI_Comm_create_group");
  g->size = size;
  memcpy(g->members, p->members, (size_t)size * sizeof *p->members);
  s->ngroups++;
  *comm = g->comm;
  return SHLORT_OK;
}

/* FNV-1a over the op's kind, operand count, attributes and operand types. */
static uint64_t signature(int32_t kind, int32_t n, const shlort_tensor *operands,
                          const int64_t *params) {
  uint64_t h = 14695981039346656037ull;
#define MIX(v) (h = (h ^ (uint64_t)(v)) * 1099511628211ull)
  MIX(kind);
  MIX(n);
  for (int i = 0; i < 3; i++) MIX(params[i]);
  for (int32_t i = 0; i < n; i++) {
    MIX(operands[i].elem);
    MIX(operands[i].rank);
    for (int32_t d = 0; d < operands[i].rank; d++) MIX(operands[i].dims[d]);
  }
#undef MIX
  return h;
}

int32_t shlort_mpi_agree(shlort_proc *p, const shlort_op *op, MPI_Comm comm, int32_t kind,
                         int32_t n, const shlort_tensor *operands, const int64_t *params) {
  MpiState *s = shlort_mpi_state(p);
  if (!s->verify) return SHLORT_OK;
  int size;
  MPI_Comm_size(comm, &size);
  uint64_t mine = signature(kind, n, operands, params), *all = (uint64_t *)(void *)s->stage;
  if ((int64_t)size * 8 > s->stage_bytes)
    return shlort_fail(p, op, SHLORT_INVALID, "stage_bytes too small for the group");
  MPI_Request req;
  int32_t rc = shlort_mpi_check(p, op, MPI_Iallgather(&mine, 1, MPI_UINT64_T, all, 1,
                                                      MPI_UINT64_T, comm, &req),
                                "MPI_Iallgather");
  if (!rc) rc = shlort_mpi_wait(p, op, 1, &req, NULL, "the group's signatures");
  for (int j = 0; !rc && j < size; j++) {
    if (all[j] == mine) continue;
    char who[32];
    shlort_format_process(who, sizeof who, p, p->members[j]);
    rc = shlort_fail(p, op, SHLORT_MISMATCH,
                     "process %s is at another collective or has other operand types", who);
  }
  return rc;
}

/* ------------------------------------------------------------------------ */
/* Running */

int32_t shlort_mpi_run(shlort_proc *p, shlort_task *task) {
  if (!task->entry) return SHLORT_INVALID;
  shlort_proc_begin(p, task);
  shlort_check_reset();
  int32_t status = task->entry(task->arg, p);
  if (shlort_proc_end(p, status)) on_fail(p);
  p->task = NULL;
  return status;
}
