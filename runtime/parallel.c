/* parallel.c: shlort_parallel_for over a persistent team of POSIX threads.
 *
 * Why not OpenMP: a libgomp region splits [0, n) into one chunk per thread
 * and the caller then waits for every chunk, so on a loaded machine the
 * caller waits for a worker the OS has not scheduled yet (2 threads were
 * 3-15x slower than 1 on a shared 2-core machine), and idle workers spin
 * for milliseconds, taking the core the caller needs.
 *
 * Here a loop is cut into more pieces than threads, and every thread of
 * the team, the caller first, claims the next unclaimed piece with one
 * atomic compare-and-swap until none is left: first the pieces it owns
 * (thread s of N the s-th N-th of them, so that consecutive kernels split
 * alike give each thread the same part of the data), then the others'.
 * A worker that wakes late finds its pieces taken; the caller waits only
 * for pieces already claimed, that is for threads that are running. Idle
 * workers spin for SPIN_NS, so that back-to-back kernels find them awake,
 * then sleep on a condition variable. On a busy machine a loop therefore
 * costs about what it costs on the caller's thread alone.
 *
 * The team is the one hidden state of the runtime, started lazily (a
 * program that never asks for threads starts none) and stopped at exit
 * (or when a shared library holding the runtime is unloaded), its workers
 * joined so that leak checkers see nothing left. One caller at a time holds it (`busy`); a
 * second caller at the same time (another thread calling generated code,
 * or a piece that calls shlort_parallel_for) runs its loop serially on its
 * own thread. A child of fork(2) inherits the bookkeeping but not the
 * workers: its caller runs every piece itself, so it is still correct. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "shlort.h"

/* The team has at most MAX_THREADS threads, the caller included: the
 * claim word holds the thread count in 8 bits and the piece count in 12. */
enum { MAX_THREADS = 64, PIECES_PER_THREAD = 4 };
/* How long an idle thread spins before it sleeps: longer than the gap
 * between two kernels of a model (a few microseconds), much shorter than
 * a scheduler time slice, so spinning never costs a loaded machine more
 * than a small fraction of a core. */
enum { SPIN_NS = 50000 };

typedef struct Team {
  atomic_bool busy; /* a caller holds the team */
  atomic_bool stop; /* workers return (team_stop) */
  int nworkers;     /* started workers: slots 1..nworkers; holder only */
  bool at_exit;     /* team_stop is registered; holder only */
  pthread_t workers[MAX_THREADS - 1];
  uint32_t epoch; /* loops started; holder only */
  /* The loop: written by the holder before it publishes `claim`, read by
   * a worker only after it has claimed a piece, so never while the next
   * loop writes them (that waits until every claimed piece is done). */
  shlort_range_fn fn;
  void *ctx;
  int64_t n;
  /* epoch << 32 | threads << 24 | pieces << 12. */
  _Atomic uint64_t claim;
  /* Per slot, epoch << 32 | the next unclaimed piece of the pieces it
   * owns (help); the holder sets them before it publishes `claim`. */
  _Atomic uint64_t next[MAX_THREADS];
  _Atomic int64_t done; /* pieces of the current loop finished */
  /* Sleeping: workers wait on `wake` for a new epoch, the caller on
   * `finished` for the last piece. The counters let the other side skip
   * the mutex when nobody sleeps. */
  pthread_mutex_t mu;
  pthread_cond_t wake, finished;
  atomic_int sleepers;
  atomic_bool caller_sleeps;
} Team;

static Team team = {.mu = PTHREAD_MUTEX_INITIALIZER,
                    .wake = PTHREAD_COND_INITIALIZER,
                    .finished = PTHREAD_COND_INITIALIZER};

static uint32_t claim_epoch(uint64_t w) { return (uint32_t)(w >> 32); }
static int claim_threads(uint64_t w) { return (int)(w >> 24 & 0xff); }
static int64_t claim_pieces(uint64_t w) { return (int64_t)(w >> 12 & 0xfff); }
static int64_t claim_next(uint64_t w) { return (int64_t)(w & 0xffffffff); }

/* Start of part p of np over [0, n): the first n % np parts get one
 * extra element. Written without n * p so that it cannot overflow. */
static int64_t piece_begin(int64_t n, int64_t np, int64_t p) {
  int64_t base = n / np, extra = n % np;
  return p * base + (p < extra ? p : extra);
}

/* Start of piece p of np (a multiple of nt) over [0, n): thread s's
 * share is the s-th nt-th of [0, n), cut into its np / nt pieces, so the
 * threads' shares differ by one element at most (28 rows in 6 pieces:
 * 5 5 4 | 5 5 4, where 6 equal-as-can-be pieces gave 5 5 5 | 5 4 4) and
 * every piece's length is still within one of every other's. */
static int64_t owned_piece_begin(int64_t n, int64_t np, int nt, int64_t p) {
  if (p >= np) return n; /* the end: piece_begin(n, nt, nt + 1) would pass n */
  int64_t per = np / nt, s = p / per, lo = piece_begin(n, nt, s);
  return lo + piece_begin(piece_begin(n, nt, s + 1) - lo, per, p % per);
}

static void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Spins for up to SPIN_NS until done(arg) holds; returns whether it did. */
static bool spin_until(bool (*done)(uint64_t), uint64_t arg) {
  int64_t start = now_ns();
  for (int i = 1;; i++) {
    if (done(arg)) return true;
    cpu_relax();
    if (i % 64 == 0 && now_ns() - start > SPIN_NS) return false;
  }
}

/* Runs pieces of the loop published as `w` from thread `slot` until none
 * is left or another loop has replaced it: first the pieces it owns (slot
 * s of nt owns pieces [piece_begin(np, nt, s), piece_begin(np, nt, s +
 * 1)) of np), in order, then the others' unclaimed ones, slot after slot. */
static void help(int slot, uint64_t w) {
  int nt = claim_threads(w);
  if (slot >= nt) return;
  uint32_t epoch = claim_epoch(w);
  int64_t np = claim_pieces(w);
  for (int k = 0; k < nt; k++) {
    int owner = (slot + k) % nt;
    int64_t end = piece_begin(np, nt, owner + 1);
    uint64_t c = atomic_load(&team.next[owner]);
    while (claim_epoch(c) == epoch && claim_next(c) < end) {
      if (!atomic_compare_exchange_weak(&team.next[owner], &c, c + 1)) continue;
      int64_t p = claim_next(c);
      team.fn(team.ctx, owned_piece_begin(team.n, np, nt, p),
              owned_piece_begin(team.n, np, nt, p + 1), slot);
      /* The last piece releases the caller, which may then start the next
       * loop: nothing of this one is read after the increment. */
      if (atomic_fetch_add(&team.done, 1) + 1 == np && atomic_load(&team.caller_sleeps)) {
        pthread_mutex_lock(&team.mu);
        pthread_cond_signal(&team.finished);
        pthread_mutex_unlock(&team.mu);
      }
      c = atomic_load(&team.next[owner]);
    }
  }
}

static bool epoch_changed(uint64_t epoch) {
  return claim_epoch(atomic_load(&team.claim)) != (uint32_t)epoch;
}

static void *worker_main(void *arg) {
  int slot = (int)(intptr_t)arg;
  for (;;) {
    uint64_t w = atomic_load(&team.claim);
    if (atomic_load(&team.stop)) return NULL;
    help(slot, w);
    uint32_t epoch = claim_epoch(w);
    if (spin_until(epoch_changed, epoch)) continue;
    pthread_mutex_lock(&team.mu);
    atomic_fetch_add(&team.sleepers, 1);
    while (!epoch_changed(epoch)) pthread_cond_wait(&team.wake, &team.mu);
    atomic_fetch_sub(&team.sleepers, 1);
    pthread_mutex_unlock(&team.mu);
  }
}

/* At exit: wakes the workers with a loop of no pieces and joins them. A
 * call still running on another thread keeps the team (and its workers)
 * as they are; calls after this one run serially, as the team stays
 * busy. */
static void team_stop(void) {
  bool idle = false;
  if (!atomic_compare_exchange_strong(&team.busy, &idle, true)) return;
  atomic_store(&team.stop, true);
  team.epoch++;
  atomic_store(&team.claim, (uint64_t)team.epoch << 32);
  pthread_mutex_lock(&team.mu);
  pthread_cond_broadcast(&team.wake);
  pthread_mutex_unlock(&team.mu);
  for (int i = 0; i < team.nworkers; i++) pthread_join(team.workers[i], NULL);
  team.nworkers = 0;
}

/* Starts workers until the team has `want` (capped at MAX_THREADS - 1);
 * returns how many it has, fewer if the system refused a thread. */
static int grow_team(int want) {
  if (want > MAX_THREADS - 1) want = MAX_THREADS - 1;
  if (!team.at_exit && want > 0) {
    if (atexit(team_stop)) return 0;
    team.at_exit = true;
  }
  while (team.nworkers < want) {
    int slot = team.nworkers + 1;
    if (pthread_create(&team.workers[slot - 1], NULL, worker_main, (void *)(intptr_t)slot))
      break;
    team.nworkers++;
  }
  return team.nworkers < want ? team.nworkers : want;
}

static bool all_done(uint64_t np) { return atomic_load(&team.done) == (int64_t)np; }

/* Waits until the np pieces of the current loop are done: only pieces
 * that a running thread has claimed can be outstanding here. */
static void wait_done(int64_t np) {
  if (spin_until(all_done, (uint64_t)np)) return;
  pthread_mutex_lock(&team.mu);
  atomic_store(&team.caller_sleeps, true);
  while (!all_done((uint64_t)np)) pthread_cond_wait(&team.finished, &team.mu);
  atomic_store(&team.caller_sleeps, false);
  pthread_mutex_unlock(&team.mu);
}

/* How many pieces: a multiple of nt (equal pieces then end together),
 * up to PIECES_PER_THREAD per thread, each at least `grain` long when n
 * allows two or more per thread; never more than n. */
static int64_t piece_count(int64_t n, int nt, int64_t grain) {
  int64_t per_thread = n / nt / (grain > 1 ? grain : 1);
  if (per_thread > PIECES_PER_THREAD) per_thread = PIECES_PER_THREAD;
  if (per_thread < 1) per_thread = 1;
  int64_t np = per_thread * nt;
  return np < n ? np : n;
}

/* Publishes the loop and runs it in np pieces with nt threads, the caller
 * as slot 0; the caller holds the team. */
static void run_loop(shlort_range_fn fn, void *ctx, int64_t n, int nt, int64_t np) {
  team.fn = fn;
  team.ctx = ctx;
  team.n = n;
  atomic_store(&team.done, 0);
  team.epoch++;
  for (int s = 0; s < nt; s++)
    atomic_store(&team.next[s], (uint64_t)team.epoch << 32 | (uint64_t)piece_begin(np, nt, s));
  uint64_t w = (uint64_t)team.epoch << 32 | (uint64_t)nt << 24 | (uint64_t)np << 12;
  atomic_store(&team.claim, w);
  if (atomic_load(&team.sleepers) > 0) {
    pthread_mutex_lock(&team.mu);
    pthread_cond_broadcast(&team.wake);
    pthread_mutex_unlock(&team.mu);
  }
  help(0, w);
  wait_done(np);
}

void shlort_parallel_for_grain(shlort_range_fn fn, void *ctx, int64_t n, int32_t nthreads,
                               int64_t grain) {
  if (n <= 0) return;
  bool idle = false;
  if (nthreads <= 1 || n <= 1 || !atomic_compare_exchange_strong(&team.busy, &idle, true)) {
    fn(ctx, 0, n, 0);
    return;
  }
  int64_t want = nthreads < n ? nthreads : n;
  int nt = 1 + grow_team((int)(want < MAX_THREADS ? want : MAX_THREADS) - 1);
  if (nt > 1)
    run_loop(fn, ctx, n, nt, piece_count(n, nt, grain));
  else
    fn(ctx, 0, n, 0);
  atomic_store(&team.busy, false);
}

void shlort_parallel_for(shlort_range_fn fn, void *ctx, int64_t n, int32_t nthreads) {
  shlort_parallel_for_grain(fn, ctx, n, nthreads, 1);
}
