/* grid.c: a process grid as threads of one OS process (libshlort.a): the
 * grid's memory layout, shlort_grid_run, failure handling and the
 * rendezvous of grid.h. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "grid.h"

struct Record {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  bool open;
  const int32_t *key; /* the leader's member list, while open */
  const Post *lead;   /* the leader's post, while open */
  int32_t size;
  int32_t arrived;     /* members at the current barrier */
  uint64_t phase;      /* barriers completed, ever */
  const Post **posts;  /* [nprocs] by group index */
  unsigned char *here; /* [nprocs] arrived at the current barrier */
  shlort_agree_fn agree; /* of the open meeting's join */
  int32_t verdict;       /* of agree, read by every member */
  char why[SHLORT_MESSAGE_BYTES];
};

struct shlort_grid {
  shlort_grid_config cfg;
  int32_t nprocs;
  shlort_proc *procs;
  Record *records;
  atomic_int *finished; /* [nprocs] the process's entry returned */
  atomic_int aborted;
  pthread_mutex_t mu; /* channels */
  pthread_cond_t cv;  /* channels */
  atomic_int first;   /* the first failed process, -1 */
  int32_t status;     /* status and message: written by the first only */
  char message[SHLORT_MESSAGE_BYTES];
  Channel *channels;
  int32_t max_channels;
  pthread_t *threads; /* [nprocs] */
};

/* ------------------------------------------------------------------------ */
/* Memory: the grid, then per process its context, record, post and flag
 * arrays, member lists and reduction block, then the channel table. */

typedef struct Layout {
  size_t procs, records, finished, threads, posts, srcs, dsts, here, ints, blocks, channels, total;
} Layout;

static size_t align64(size_t n) { return (n + 63) & ~(size_t)63; }

static bool valid_config(const shlort_grid_config *cfg) {
  uint64_t n = (uint64_t)cfg->num_replicas * cfg->num_partitions;
  return cfg->num_replicas >= 1 && cfg->num_partitions >= 1 && n <= (1u << 16) &&
         cfg->timeout_ms >= 0 && cfg->max_channels >= 0;
}

static int32_t channel_count(const shlort_grid_config *cfg) {
  return cfg->max_channels ? cfg->max_channels : SHLORT_DEFAULT_CHANNELS;
}

static Layout layout(const shlort_grid_config *cfg) {
  size_t n = (size_t)cfg->num_replicas * cfg->num_partitions;
  Layout l;
  l.procs = align64(sizeof(shlort_grid));
  l.records = l.procs + align64(n * sizeof(shlort_proc));
  l.finished = l.records + align64(n * sizeof(Record));
  l.threads = l.finished + align64(n * sizeof(atomic_int));
  l.posts = l.threads + align64(n * sizeof(pthread_t));
  l.srcs = l.posts + align64(n * n * sizeof(const Post *));
  l.dsts = l.srcs + align64(n * n * sizeof(const void *));
  l.here = l.dsts + align64(n * n * sizeof(void *));
  l.ints = l.here + align64(n * n);
  l.blocks = l.ints + align64(2 * n * n * sizeof(int32_t));
  l.channels = l.blocks + n * SHLORT_BLOCK_BYTES;
  l.total = l.channels + align64((size_t)channel_count(cfg) * sizeof(Channel));
  return l;
}

size_t shlort_grid_bytes(const shlort_grid_config *cfg) {
  return valid_config(cfg) ? layout(cfg).total : 0;
}

static void on_fail(shlort_proc *p);

static int32_t init_record(Record *r, pthread_condattr_t *ca) {
  if (pthread_mutex_init(&r->mu, NULL)) return SHLORT_OUT_OF_MEMORY;
  if (pthread_cond_init(&r->cv, ca)) {
    pthread_mutex_destroy(&r->mu);
    return SHLORT_OUT_OF_MEMORY;
  }
  return SHLORT_OK;
}

static void setup_procs(shlort_grid *g, unsigned char *mem, const Layout *l) {
  size_t n = (size_t)g->nprocs;
  int32_t *ints = (int32_t *)(void *)(mem + l->ints);
  for (size_t i = 0; i < n; i++) {
    shlort_proc *p = &g->procs[i];
    shlort_proc_setup(p, g->cfg.num_replicas, g->cfg.num_partitions, (int32_t)i,
                      g->cfg.timeout_ms, g->cfg.rng_seed);
    p->members = ints + 2 * n * i;
    p->scratch = p->members + n;
    p->srcs = (const void **)(void *)(mem + l->srcs) + n * i;
    p->dsts = (void **)(void *)(mem + l->dsts) + n * i;
    p->block = mem + l->blocks + i * SHLORT_BLOCK_BYTES;
    p->on_fail = on_fail;
    p->impl = g;
    Record *r = &g->records[i];
    r->posts = (const Post **)(void *)(mem + l->posts) + n * i;
    r->here = mem + l->here + n * i;
  }
}

int32_t shlort_grid_init(shlort_grid **out, void *mem, size_t bytes,
                         const shlort_grid_config *cfg) {
  *out = NULL;
  if (!valid_config(cfg)) return SHLORT_INVALID;
  Layout l = layout(cfg);
  if (!mem || bytes < l.total || ((uintptr_t)mem & 63)) return SHLORT_INVALID;
  memset(mem, 0, l.total);
  unsigned char *m = mem;
  shlort_grid *g = mem;
  g->cfg = *cfg;
  g->nprocs = (int32_t)(cfg->num_replicas * cfg->num_partitions);
  g->procs = (shlort_proc *)(void *)(m + l.procs);
  g->records = (Record *)(void *)(m + l.records);
  g->finished = (atomic_int *)(void *)(m + l.finished);
  g->channels = (Channel *)(void *)(m + l.channels);
  g->threads = (pthread_t *)(void *)(m + l.threads);
  g->max_channels = channel_count(cfg);
  setup_procs(g, m, &l);
  /* Deadlines are on the monotonic clock: a clock change cannot cut a
   * wait short or stretch it. */
  pthread_condattr_t ca;
  pthread_condattr_init(&ca);
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
  int32_t rc = pthread_mutex_init(&g->mu, NULL) ? SHLORT_OUT_OF_MEMORY : SHLORT_OK;
  if (!rc && pthread_cond_init(&g->cv, &ca)) {
    pthread_mutex_destroy(&g->mu);
    rc = SHLORT_OUT_OF_MEMORY;
  }
  int32_t made = 0;
  while (!rc && made < g->nprocs && !(rc = init_record(&g->records[made], &ca))) made++;
  pthread_condattr_destroy(&ca);
  if (rc) {
    while (made-- > 0) {
      pthread_mutex_destroy(&g->records[made].mu);
      pthread_cond_destroy(&g->records[made].cv);
    }
    return rc;
  }
  *out = g;
  return SHLORT_OK;
}

int32_t shlort_grid_destroy(shlort_grid *g) {
  if (!g) return SHLORT_INVALID;
  for (int32_t i = 0; i < g->nprocs; i++) {
    pthread_mutex_destroy(&g->records[i].mu);
    pthread_cond_destroy(&g->records[i].cv);
  }
  pthread_mutex_destroy(&g->mu);
  pthread_cond_destroy(&g->cv);
  return SHLORT_OK;
}

const char *shlort_grid_message(const shlort_grid *g) { return g->message; }

/* ------------------------------------------------------------------------ */
/* Failures: the first one is the grid's; every waiter is woken to see it.
 * A failure is recorded where it happens, often under a record's or the
 * channel lock, so recording takes no lock; the wake-up comes after the
 * failing call has released its lock (wake_after) and when the process
 * returns. */

static void wake_all(shlort_grid *g) {
  for (int32_t i = 0; i < g->nprocs; i++) {
    pthread_mutex_lock(&g->records[i].mu);
    pthread_cond_broadcast(&g->records[i].cv);
    pthread_mutex_unlock(&g->records[i].mu);
  }
  pthread_mutex_lock(&g->mu);
  pthread_cond_broadcast(&g->cv);
  pthread_mutex_unlock(&g->mu);
}

/* The message is read after the run has joined every thread. */
static void record_failure(shlort_grid *g, const shlort_proc *p, int32_t status) {
  int none = -1;
  if (atomic_compare_exchange_strong(&g->first, &none, p->index)) {
    g->status = status;
    memcpy(g->message, p->message, sizeof g->message);
  }
  atomic_store(&g->aborted, 1);
}

/* After a call that may have failed, with no lock held. */
static int32_t wake_after(shlort_grid *g, int32_t rc) {
  if (rc) wake_all(g);
  return rc;
}

static void on_fail(shlort_proc *p) {
  /* An ABORTED peer is a consequence, never the grid's first failure. */
  if (p->status != SHLORT_ABORTED) record_failure(p->impl, p, p->status);
}

/* ------------------------------------------------------------------------ */
/* Waiting */

static void deadline_after(int64_t ms, struct timespec *t) {
  clock_gettime(CLOCK_MONOTONIC, t);
  t->tv_sec += ms / 1000;
  t->tv_nsec += (ms % 1000) * 1000000;
  if (t->tv_nsec >= 1000000000) t->tv_sec++, t->tv_nsec -= 1000000000;
}

void shlort_grid_deadline(const shlort_proc *p, struct timespec *deadline) {
  deadline_after(p->timeout_ms, deadline);
}

static int32_t timed_wait(pthread_cond_t *cv, pthread_mutex_t *mu, const struct timespec *t) {
  int rc = pthread_cond_timedwait(cv, mu, t);
  return rc == ETIMEDOUT ? SHLORT_TIMEOUT : SHLORT_OK;
}

static int32_t fail_aborted(shlort_proc *p, const shlort_op *op) {
  return shlort_fail(p, op, SHLORT_ABORTED, "aborted: another process failed");
}

static int32_t fail_timeout(shlort_proc *p, const shlort_op *op, int32_t peer) {
  char who[32];
  shlort_format_process(who, sizeof who, p, peer);
  return shlort_fail(p, op, SHLORT_TIMEOUT, "timeout after %.1f s waiting for process %s",
                     (double)p->timeout_ms / 1000, who);
}

static int32_t fail_finished(shlort_proc *p, const shlort_op *op, int32_t peer) {
  char who[32];
  shlort_format_process(who, sizeof who, p, peer);
  return shlort_fail(p, op, SHLORT_MISMATCH, "process %s returned without reaching it", who);
}

/* Why a waiter cannot go on, or 0 to wait more: the grid was aborted or
 * the awaited peer has returned. Checked before every wait, under the
 * lock of the waited-on condition; the flags are set before the wake-up
 * broadcast that takes the same lock, so no wake-up is lost. */
static int32_t hopeless(shlort_proc *p, const shlort_op *op, int32_t peer) {
  shlort_grid *g = p->impl;
  if (atomic_load(&g->aborted)) return fail_aborted(p, op);
  if (peer >= 0 && atomic_load(&g->finished[peer])) return fail_finished(p, op, peer);
  return SHLORT_OK;
}

/* ------------------------------------------------------------------------ */
/* Rendezvous */

static bool same_key(const Record *r, const int32_t *members, int32_t size) {
  if (r->size != size) return false;
  return r->key == members || !memcmp(r->key, members, (size_t)size * sizeof *members);
}

static bool key_has(const Record *r, int32_t id) {
  for (int32_t i = 0; i < r->size; i++)
    if (r->key[i] == id) return true;
  return false;
}

/* The first member that has not arrived at the current barrier. */
static int32_t missing(const Record *r) {
  for (int32_t i = 0; i < r->size; i++)
    if (!r->here[i]) return r->key[i];
  return -1;
}

/* Arrives at the current barrier of r (locked) and waits for the others.
 * The member completing the join barrier judges the posts (r->agree).
 *
 * Only the join barrier can fail. Once a meeting is joined, every member
 * runs a bounded copy or fold and arrives at the next barrier, and must not
 * leave before its peers stop reading its buffers: the later barriers wait
 * without deadline and ignore an abort. */
static int32_t barrier(shlort_proc *p, const shlort_op *op, Record *r, int32_t index,
                       bool join, bool last) {
  int32_t rc = join ? hopeless(p, op, -1) : SHLORT_OK;
  if (rc) return rc;
  r->here[index] = 1;
  if (++r->arrived == r->size) {
    r->arrived = 0;
    memset(r->here, 0, (size_t)r->size);
    if (join) r->verdict = r->agree(p, r->posts, r->size, r->why, sizeof r->why);
    r->phase++;
    if (last) r->open = false;
    pthread_cond_broadcast(&r->cv);
    return SHLORT_OK;
  }
  uint64_t phase = r->phase;
  if (!join) {
    while (r->phase == phase) pthread_cond_wait(&r->cv, &r->mu);
    return SHLORT_OK;
  }
  struct timespec t;
  deadline_after(p->timeout_ms, &t);
  for (int32_t late = 0; r->phase == phase; late = timed_wait(&r->cv, &r->mu, &t)) {
    if ((rc = hopeless(p, op, missing(r)))) return rc;
    if (late) return fail_timeout(p, op, missing(r));
  }
  return SHLORT_OK;
}

static int32_t fail_other_op(shlort_proc *p, const shlort_op *op, const Record *r,
                             int32_t leader) {
  char who[32];
  shlort_format_process(who, sizeof who, p, leader);
  return shlort_fail(p, op, SHLORT_MISMATCH,
                     "processes disagree on the order of collectives: process %s is at %s at "
                     "%s with another group",
                     who, r->lead->op->name, r->lead->op->loc);
}

/* A non-leader waits until its leader has opened a meeting with its key. */
static int32_t await_meeting(shlort_proc *p, const shlort_op *op, Record *r, int32_t leader,
                             int32_t size) {
  struct timespec t;
  deadline_after(p->timeout_ms, &t);
  for (int32_t late = 0;; late = timed_wait(&r->cv, &r->mu, &t)) {
    /* An aborted meeting may hold posts of members that have left. */
    int32_t rc = hopeless(p, op, -1);
    if (rc) return rc;
    if (r->open && same_key(r, p->members, size)) return SHLORT_OK;
    /* The leader waits in another meeting that needs this process: the
     * two disagree on the order of their collectives, a certain deadlock. */
    if (r->open && key_has(r, p->index)) return fail_other_op(p, op, r, leader);
    if ((rc = hopeless(p, op, leader))) return rc;
    if (late) return fail_timeout(p, op, leader);
  }
}

static int32_t leader_of(const int32_t *members, int32_t size) {
  int32_t l = members[0];
  for (int32_t i = 1; i < size; i++)
    if (members[i] < l) l = members[i];
  return l;
}

int32_t shlort_grid_join(shlort_proc *p, const shlort_op *op, int32_t size, int32_t index,
                         const Post *post, shlort_agree_fn agree, Meet *m) {
  shlort_grid *g = p->impl;
  int32_t leader = leader_of(p->members, size);
  Record *r = &g->records[leader];
  m->rec = r;
  m->size = size;
  m->index = index;
  m->posts = r->posts;
  pthread_mutex_lock(&r->mu);
  int32_t rc = SHLORT_OK;
  if (leader == p->index) {
    /* The leader's previous meeting closed before it left it. */
    r->open = true;
    r->key = p->members;
    r->lead = post;
    r->agree = agree;
    r->size = size;
    memset(r->posts, 0, (size_t)size * sizeof *r->posts);
    pthread_cond_broadcast(&r->cv);
  } else {
    rc = await_meeting(p, op, r, leader, size);
  }
  if (!rc) {
    r->posts[index] = post;
    rc = barrier(p, op, r, index, true, false);
  }
  /* Every member fails alike, before any leaves (their posts die then). */
  if (!rc && r->verdict) rc = shlort_fail(p, op, SHLORT_MISMATCH, "%s", r->why);
  pthread_mutex_unlock(&r->mu);
  return wake_after(g, rc);
}

void shlort_grid_sync(shlort_proc *p, const shlort_op *op, Meet *m) {
  pthread_mutex_lock(&m->rec->mu);
  barrier(p, op, m->rec, m->index, false, false);
  pthread_mutex_unlock(&m->rec->mu);
}

int32_t shlort_grid_leave(shlort_proc *p, const shlort_op *op, Meet *m) {
  pthread_mutex_lock(&m->rec->mu);
  barrier(p, op, m->rec, m->index, false, true);
  pthread_mutex_unlock(&m->rec->mu);
  return SHLORT_OK;
}

/* ------------------------------------------------------------------------ */
/* Channels' access to the grid */

Channel *shlort_grid_channel(shlort_proc *p, int64_t id) {
  shlort_grid *g = p->impl;
  for (int32_t i = 0; i < g->max_channels; i++)
    if (g->channels[i].used && g->channels[i].id == id) return &g->channels[i];
  for (int32_t i = 0; i < g->max_channels; i++) {
    if (g->channels[i].used) continue;
    g->channels[i].used = true;
    g->channels[i].id = id;
    g->channels[i].offer = NULL;
    return &g->channels[i];
  }
  return NULL;
}

void shlort_grid_lock(shlort_proc *p) { pthread_mutex_lock(&((shlort_grid *)p->impl)->mu); }
/* Channel calls fail under the lock: wake the grid once it is released. */
void shlort_grid_unlock(shlort_proc *p) {
  shlort_grid *g = p->impl;
  pthread_mutex_unlock(&g->mu);
  if (p->status && atomic_load(&g->aborted)) wake_all(g);
}
void shlort_grid_broadcast(shlort_proc *p) {
  pthread_cond_broadcast(&((shlort_grid *)p->impl)->cv);
}

int32_t shlort_grid_wait(shlort_proc *p, const struct timespec *deadline) {
  shlort_grid *g = p->impl;
  if (atomic_load(&g->aborted)) return SHLORT_ABORTED;
  int32_t rc = timed_wait(&g->cv, &g->mu, deadline);
  if (atomic_load(&g->aborted)) return SHLORT_ABORTED;
  return rc;
}

/* ------------------------------------------------------------------------ */
/* Running */

static void *process_main(void *arg) {
  shlort_proc *p = arg;
  shlort_grid *g = p->impl;
  shlort_task *task = p->task;
  shlort_check_reset();
  int32_t status = task->entry(task->arg, p);
  shlort_proc_end(p, status);
  if (status) record_failure(g, p, status);
  shlort_check_reset(); /* frees this thread's probe records */
  atomic_store(&g->finished[p->index], 1);
  wake_all(g);
  return NULL;
}

static void reset(shlort_grid *g) {
  atomic_store(&g->aborted, 0);
  atomic_store(&g->first, -1);
  g->status = SHLORT_OK;
  g->message[0] = 0;
  for (int32_t i = 0; i < g->nprocs; i++) {
    atomic_store(&g->finished[i], 0);
    Record *r = &g->records[i];
    r->open = false;
    r->arrived = 0;
    memset(r->here, 0, (size_t)g->nprocs);
  }
  for (int32_t i = 0; i < g->max_channels; i++) g->channels[i].used = false;
}

static int32_t start_failed(shlort_grid *g, int32_t index) {
  snprintf(g->procs[index].message, sizeof g->procs[index].message,
           "process %d: could not start its thread", (int)index);
  record_failure(g, &g->procs[index], SHLORT_OUT_OF_MEMORY);
  wake_all(g);
  return SHLORT_OUT_OF_MEMORY;
}

int32_t shlort_grid_run(shlort_grid *g, shlort_task *tasks) {
  reset(g);
  for (int32_t i = 0; i < g->nprocs; i++) {
    if (!tasks[i].entry) {
      snprintf(g->message, sizeof g->message, "process %d has no entry", (int)i);
      return g->status = SHLORT_INVALID;
    }
    shlort_proc_begin(&g->procs[i], &tasks[i]);
  }
  int32_t started = 0;
  while (started < g->nprocs &&
         !pthread_create(&g->threads[started], NULL, process_main, &g->procs[started]))
    started++;
  if (started < g->nprocs) {
    start_failed(g, started);
    for (int32_t i = started; i < g->nprocs; i++) atomic_store(&g->finished[i], 1);
  }
  for (int32_t i = 0; i < started; i++) pthread_join(g->threads[i], NULL);
  return g->status;
}
