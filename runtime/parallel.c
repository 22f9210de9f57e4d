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
 * (thread s of N the s-th N-th of [0, n), so that consecutive kernels
 * split alike give each thread the same part of the data), from the
 * front, then the others' from the back. The pieces of a share halve
 * towards its end, so that what a slower thread has left when the other
 * runs out is short (loop_cut).
 * A worker that wakes late finds its pieces taken; the caller waits only
 * for pieces already claimed, that is for threads that are running. Idle
 * workers spin for SPIN_NS, so that back-to-back kernels find them awake,
 * then sleep on a condition variable, and sooner when the thread they
 * wait for is not getting a CPU (spin_until). On a busy machine a loop
 * therefore costs about what it costs on the caller's thread alone.
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
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "shlort.h"

/* The team has at most MAX_THREADS threads, the caller included: the
 * claim word holds the thread count in 8 bits. */
enum { MAX_THREADS = 64, PIECES_PER_THREAD = 6 };
/* How long an idle thread spins before it sleeps: longer than the gap
 * between two kernels of a model (a few microseconds), much shorter than
 * a scheduler time slice, so spinning never costs a loaded machine more
 * than a small fraction of a core. */
enum { SPIN_NS = 50000 };
/* How often a spinning thread reads the CPU clock of the thread it waits
 * for (a system call: 1.7 us here under load), from WATCH_NS / 2 into its
 * spin on: most gaps between two kernels (GPT-2's decoding step: 2-16 us)
 * end before, so that those spins read no clock. */
enum { WATCH_NS = 8000 };
/* How long the caller of a 2-thread loop spins at its join while the
 * worker runs, on a machine that runs no more threads than the loop's
 * (few_running; else SPIN_NS): a worker woken late (25-45 us) by a loop
 * split in one piece a thread (BERT's K splits) often finishes more than
 * SPIN_NS after the caller, whose sleep then cost a wake-up of each side
 * (at 50 us: 260 of 3528 joins of BERT t7 with weights as arguments
 * slept, 2 threads, load 1.5). Measured with caller_waking: spin_until,
 * and docs/runtime.md for the figures. */
enum { JOIN_SPIN_NS = 4 * SPIN_NS };

/* Start of part p of np over [0, n): the first n % np parts get one
 * extra element. Written without n * p so that it cannot overflow. */
static int64_t piece_begin(int64_t n, int64_t np, int64_t p) {
  int64_t base = n / np, extra = n % np;
  return p * base + (p < extra ? p : extra);
}

/* How a loop is cut: thread s of nt owns the s-th nt-th of [0, n) (the
 * shares differ by one element at most), in k pieces that halve towards
 * the share's end, the last two `last` long: with k = 4, a share of m is
 * m - 4 * last, 2 * last, last, last. The owner runs them from the front,
 * a thread whose own are done takes them from the back, so what is left
 * to one thread when the other runs out is short. */
typedef struct Cut {
  int64_t n, last;
  int nt, k;
} Cut;

/* The cut of [0, n) over nt threads: the last pieces a 32nd of the
 * smallest share (PIECES_PER_THREAD = 6), but at least `grain` long, and
 * as many pieces (up to PIECES_PER_THREAD) as leave the first at least
 * `last` long. Up to 6 (ResNet-50 b1 at 2 threads, SCHED_FIFO, medians
 * of 10 alternations of 20 calls): against 4, 0.976-0.982x (all 10
 * faster in each of three runs, both regimes); 5, 0.982-0.992x; 7,
 * 1.003-1.005x against 6. */
static Cut loop_cut(int64_t n, int nt, int64_t grain) {
  int64_t m = n / nt, last = (m + (1 << (PIECES_PER_THREAD - 1)) - 1) >> (PIECES_PER_THREAD - 1);
  if (last < grain) last = grain;
  int k = 1;
  while (k < PIECES_PER_THREAD && m / last >= ((int64_t)1 << (k - 1)) + 1) k++;
  return (Cut){n, last, nt, k};
}

/* Start of piece j of thread s's share (j = k: the share's end). */
static int64_t cut_begin(const Cut *c, int s, int j) {
  if (j == 0) return piece_begin(c->n, c->nt, s);
  int64_t end = piece_begin(c->n, c->nt, s + 1);
  return j >= c->k ? end : end - (c->last << (c->k - 1 - j));
}

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
  Cut cut;
  /* epoch << 32 | threads << 24 | pieces a thread << 12. */
  _Atomic uint64_t claim;
  /* Per slot, epoch << 32 | back << 16 | front: its unclaimed pieces are
   * [front, back) of its share's k (help); the holder sets them before
   * it publishes `claim`. */
  _Atomic uint64_t next[MAX_THREADS];
  _Atomic int64_t done; /* pieces of the current loop finished */
  /* Sleeping: workers wait on `wake` for a new epoch, the caller on
   * `finished` for the last piece. The counters let the other side skip
   * the mutex when nobody sleeps. */
  pthread_mutex_t mu;
  pthread_cond_t wake, finished;
  atomic_int sleepers;
  atomic_bool caller_sleeps;
  /* Per slot, its thread's CPU clock when has_clock (a worker's from its
   * start, the caller's set by each loop before it publishes `claim`). */
  _Atomic clockid_t clocks[MAX_THREADS];
  atomic_bool has_clock[MAX_THREADS];
  /* Per slot, the CPU its thread was last seen on (-1: unknown), the
   * caller's set by each loop, a worker's whenever it looks for pieces
   * (avoid_team_cpus). */
  atomic_int cpus[MAX_THREADS];
} Team;

static Team team = {.mu = PTHREAD_MUTEX_INITIALIZER,
                    .wake = PTHREAD_COND_INITIALIZER,
                    .finished = PTHREAD_COND_INITIALIZER};

static uint32_t claim_epoch(uint64_t w) { return (uint32_t)(w >> 32); }
static int claim_threads(uint64_t w) { return (int)(w >> 24 & 0xff); }
static int claim_pieces(uint64_t w) { return (int)(w >> 12 & 0xfff); }
static int next_front(uint64_t c) { return (int)(c & 0xffff); }
static int next_back(uint64_t c) { return (int)(c >> 16 & 0xffff); }

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

/* The timeline of the loops, built only with -DSHLORT_TRACE (a runtime
 * made for diagnosis, and test_parallel_trace, tests/runtime/run.sh,
 * which reads the two hooks below): every other build compiles the trace
 * calls below to nothing, trace_now included. Events (CLOCK_MONOTONIC
 * ns) go to a fixed array, written at exit as text lines
 * "kind slot t0 t1 a b" to the file named by SHLORT_TRACE_FILE, if set;
 * docs/runtime.md says what each kind's fields hold. */
enum TraceKind { TRACE_LOOP, TRACE_PIECE, TRACE_SPIN, TRACE_SLEEP, TRACE_JOIN, TRACE_CALL };
#ifdef SHLORT_TRACE
#include <stdio.h>
enum { TRACE_ON = 1, TRACE_MAX = 1 << 20 };
typedef struct TraceEvent {
  int64_t t0, t1, a, b;
  int32_t kind, slot;
} TraceEvent;
static TraceEvent trace_events[TRACE_MAX];
static atomic_long trace_used, trace_extended, trace_unextended;

static void trace(enum TraceKind kind, int slot, int64_t t0, int64_t t1, int64_t a, int64_t b) {
  long i = atomic_fetch_add(&trace_used, 1);
  if (i < TRACE_MAX) trace_events[i] = (TraceEvent){t0, t1, a, b, kind, slot};
}

/* A spin's end: done, or timed out; `extended` if it ran on past its
 * first limit (JOIN_SPIN_NS). A 2-thread join (watch 1) that timed out
 * without is what the quiet machine's rule forbids. */
static void trace_spin_end(int watch, bool extended, bool timed_out) {
  if (!timed_out && extended) atomic_fetch_add(&trace_extended, 1);
  if (timed_out && watch == 1 && !extended) atomic_fetch_add(&trace_unextended, 1);
}

/* Whether the loop published at t follows 10 ms without one (a new call
 * of a model, after bench/ab.py's idle gap); holder only. */
static bool trace_gap(int64_t t) {
  static int64_t last;
  bool gap = t - last > 10000000;
  last = t;
  return gap;
}

/* Joins whose caller was still spinning past SPIN_NS (the spin to
 * JOIN_SPIN_NS, wait_done) when the loop's last piece ended. */
long shlort_trace_extended_joins(void);
long shlort_trace_extended_joins(void) { return atomic_load(&trace_extended); }

/* 2-thread joins that timed out at their first limit and slept. */
long shlort_trace_unextended_joins(void);
long shlort_trace_unextended_joins(void) { return atomic_load(&trace_unextended); }

/* While set, few_running holds whatever else runs, so that a test sees
 * the quiet machine's paths on a loaded one. */
static atomic_bool trace_quiet;
void shlort_trace_assume_quiet(bool quiet);
void shlort_trace_assume_quiet(bool quiet) { atomic_store(&trace_quiet, quiet); }
static bool trace_assume_quiet(void) { return atomic_load(&trace_quiet); }

__attribute__((destructor)) static void trace_write(void) {
  const char *path = getenv("SHLORT_TRACE_FILE");
  FILE *f = path ? fopen(path, "w") : NULL;
  if (!f) return;
  long n = atomic_load(&trace_used);
  if (n > TRACE_MAX) fprintf(f, "# %ld events, the first %d kept\n", n, (int)TRACE_MAX);
  for (long i = 0; i < n && i < TRACE_MAX; i++) {
    const TraceEvent *e = &trace_events[i];
    fprintf(f, "%d %d %lld %lld %lld %lld\n", e->kind, e->slot, (long long)e->t0, (long long)e->t1,
            (long long)e->a, (long long)e->b);
  }
  fclose(f);
}
#else
enum { TRACE_ON = 0 };
static void trace(enum TraceKind kind, int slot, int64_t t0, int64_t t1, int64_t a, int64_t b) {
  (void)kind, (void)slot, (void)t0, (void)t1, (void)a, (void)b;
}
static void trace_spin_end(int watch, bool extended, bool timed_out) {
  (void)watch, (void)extended, (void)timed_out;
}
static bool trace_gap(int64_t t) { return (void)t, false; }
static bool trace_assume_quiet(void) { return false; }
#endif

static int64_t trace_now(void) { return TRACE_ON ? now_ns() : 0; }

/* Records the calling thread's CPU clock as slot s's (none where the
 * system has no thread CPU clocks: its threads then spin SPIN_NS, the
 * caller of a 2-thread loop on a quiet machine up to JOIN_SPIN_NS). */
static void watch_self(int s) {
  bool ok = false;
#if defined(_POSIX_THREAD_CPUTIME) && _POSIX_THREAD_CPUTIME >= 0
  clockid_t c;
  ok = pthread_getcpuclockid(pthread_self(), &c) == 0;
  if (ok) atomic_store(&team.clocks[s], c);
#endif
  atomic_store(&team.has_clock[s], ok);
}

/* A spinner's view of the thread it waits for: that thread's CPU clock,
 * taken once per spin so that two reads are of the same thread even if
 * another caller takes the team meanwhile. */
typedef struct Watch {
  bool ok;
  clockid_t clock;
} Watch;

static Watch watch_slot(int s) {
  Watch w = {s >= 0 && atomic_load(&team.has_clock[s]), 0};
  if (w.ok) w.clock = atomic_load(&team.clocks[s]);
  return w;
}

/* The CPU time w's thread has used, -1 if unknown (no clock, or its
 * thread has exited). */
static int64_t watch_cpu_ns(Watch w) {
  struct timespec ts;
  if (!w.ok || clock_gettime(w.clock, &ts)) return -1;
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Whether the system runs no more threads than nt now (the fourth field
 * of /proc/loadavg: the runnable threads, this one included), so that no
 * thread of the team waits for a CPU (avoid_team_cpus, quiet_pair);
 * false where unknown. Three system calls. */
static bool few_running(int nt) {
  if (trace_assume_quiet()) return true;
#ifdef __linux__
  char buf[128];
  int fd = open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  ssize_t got = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (got <= 0) return false;
  buf[got] = 0;
  const char *p = buf;
  for (int field = 0; field < 3; field++) {
    p = strchr(p, ' ');
    if (!p) return false;
    p++;
  }
  return atoi(p) <= nt;
#else
  (void)nt;
  return false;
#endif
}

/* few_running(2), read once per spin (*quiet is -1 until read), so that
 * a spin costs three system calls for it at most. */
static bool quiet_pair(int *quiet) {
  if (*quiet < 0) *quiet = few_running(2);
  return *quiet;
}

/* Whether the caller of a 2-thread loop, whose clock its worker watches,
 * sleeps at its join or is being woken from it (caller_sleeps) on a
 * machine that runs no more threads than the loop's: it then waits for
 * no CPU, and publishes the next loop once it runs. With more threads
 * the caller may sleep waiting for another worker's piece, not be woken,
 * so this holds only at 2 (as JOIN_SPIN_NS). */
static bool caller_waking(int *quiet) {
  return atomic_load(&team.caller_sleeps) && claim_threads(atomic_load(&team.claim)) == 2 &&
         quiet_pair(quiet);
}

/* Spins for up to `limit` ns (`quiet_limit` on a quiet machine, below)
 * until done(arg) holds; returns whether it did.
 * From WATCH_NS / 2 on (a shorter wait reads no clock: the clock of
 * another thread is a system call, 1.7 us here under load) it reads the
 * CPU clock of slot `watch`'s thread (-1: none), the one whose work it
 * waits for, every WATCH_NS, and gives up (the caller of this then
 * sleeps) if that thread ran less than half the time: it waits for a
 * CPU, most likely this one, which a spin would hold. Against the plain
 * 50 us spin, at 2 threads on the 2-core Zen 3 (one process alternating
 * the two runtimes' calls, 10-12 rounds of 12-20 calls, ordinary
 * scheduling at load 6-10 / SCHED_FIFO, the machine to the model), with
 * the first read at the spin's start: the GPT-2 decoding step 0.915x /
 * 1.000x, BERT at 7 tokens (weights as constants) 0.938x / 1.003x,
 * ResNet-50 b1 1.008x / 1.013x (rounds 0.94-1.21 / 0.97-1.05). A 10 us
 * spin alone: GPT-2 0.89-0.93x loaded but 1.09-1.26x with SCHED_FIFO.
 * The later first read (WATCH_NS / 2) was not measured on its own.
 * A caller asleep at its join, or being woken from it (caller_sleeps),
 * runs no CPU time but, at 2 threads where the machine runs no more
 * threads than the loop's, waits for no CPU either: it publishes the next
 * loop once it runs, so a worker watching it (watch 0) does not give up
 * then (caller_waking). Where that machine is quiet the spin also runs
 * on from `limit` to `quiet_limit` if it timed out, with its clock watch
 * as it was, so that it still gives up at once on a thread that is not
 * running (JOIN_SPIN_NS; docs/runtime.md has the A/B of both rules). */
static bool spin_until(bool (*done)(uint64_t), uint64_t arg, int watch, int64_t limit,
                       int64_t quiet_limit) {
  Watch w = watch_slot(watch);
  int64_t start = now_ns(), seen = 0, cpu = -1;
  int quiet = -1;
  bool extended = false;
  for (int i = 1;; i++) {
    if (done(arg)) {
      trace_spin_end(watch, extended, false);
      return true;
    }
    cpu_relax();
    if (i % 64) continue;
    int64_t t = now_ns();
    if (t - start > limit) {
      if (limit >= quiet_limit || !quiet_pair(&quiet)) {
        trace_spin_end(watch, extended, true);
        return false;
      }
      limit = quiet_limit, extended = true;
    }
    if (!w.ok || t - start < WATCH_NS / 2 || (cpu >= 0 && t - seen < WATCH_NS)) continue;
    int64_t c = watch_cpu_ns(w);
    if (c < 0) w.ok = false;
    else if (cpu >= 0 && c - cpu < (t - seen) / 2 && !(watch == 0 && caller_waking(&quiet)))
      return false;
    cpu = c, seen = t;
  }
}

/* Runs piece j of `owner`'s share as thread `slot`. The last piece of
 * the loop releases the caller, which may then start the next loop:
 * nothing of this one is read after the increment. */
static void run_piece(int owner, int j, int slot, int64_t np) {
  int64_t t0 = trace_now(), begin = cut_begin(&team.cut, owner, j);
  int64_t end = cut_begin(&team.cut, owner, j + 1);
  team.fn(team.ctx, begin, end, slot);
  trace(TRACE_PIECE, slot, t0, trace_now(), owner << 8 | j, end - begin);
  if (atomic_fetch_add(&team.done, 1) + 1 == np && atomic_load(&team.caller_sleeps)) {
    pthread_mutex_lock(&team.mu);
    pthread_cond_signal(&team.finished);
    pthread_mutex_unlock(&team.mu);
  }
}

/* Runs pieces of the loop published as `w` from thread `slot` until none
 * is left or another loop has replaced it: first the pieces of its own
 * share, from the front, then the others' unclaimed ones from the back
 * (the shortest), share after share. */
static void help(int slot, uint64_t w) {
  int nt = claim_threads(w);
  if (slot >= nt) return;
  uint32_t epoch = claim_epoch(w);
  int64_t np = (int64_t)claim_pieces(w) * nt;
  for (int k = 0; k < nt; k++) {
    int owner = (slot + k) % nt;
    /* Own pieces: front + 1; another's: back - 1. */
    uint64_t step = k == 0 ? 1 : (uint64_t)-(1 << 16);
    uint64_t c = atomic_load(&team.next[owner]);
    while (claim_epoch(c) == epoch && next_front(c) < next_back(c)) {
      if (!atomic_compare_exchange_weak(&team.next[owner], &c, c + step)) continue;
      run_piece(owner, k == 0 ? next_front(c) : next_back(c) - 1, slot, np);
      c = atomic_load(&team.next[owner]);
    }
  }
}

/* The CPU the calling thread runs on, -1 where unknown. */
static int current_cpu(void) {
#ifdef __linux__
  return sched_getcpu();
#else
  return -1;
#endif
}

/* A sleeping worker's affinity, as it was before it left out the CPUs of
 * the others (avoid_team_cpus). */
typedef struct Away {
  bool set;
#ifdef __linux__
  cpu_set_t mask, away; /* before, and as avoid_team_cpus set it */
#endif
} Away;

/* Before worker `slot` sleeps after the loop published as `w`: leaves
 * the CPUs that the loop's other threads were last seen on out of its
 * affinity, where that leaves it one and nothing else waits for a CPU
 * (few_running), so that the wake-up that follows places it elsewhere;
 * back_home restores the affinity after it. Why:
 * this VM's kernel (6.18, booted with sched_vcpu_pack) puts a woken
 * thread on its waker's CPU even with the other one idle (one thread
 * waking another after 50 ms of idle time: on the waker's CPU 56 of 60
 * times). The worker then runs only when the caller does not, so 2
 * threads are no faster than 1, and the spin's CPU-clock watch sees the
 * caller starved and sleeps, to be woken onto the same CPU again: GPT-2's
 * decoding step at 2 threads with 50 ms of idle time before each call
 * (as bench/compare.py times it), 40 calls: 1689 of 1736 wakes of the
 * worker on the caller's CPU, the worker asleep when 121 of the 121
 * loops of the median call started; with this (and a migration after
 * the wake where it still shared one), 12 of 157 wakes, asleep at 4
 * loops of 121. (SCHED_FIFO threads are placed by other rules:
 * hence 16-19 ms there against 24 ms.) Leaving the CPUs out only after
 * the wake instead (a migration once the worker runs, which on the
 * caller's CPU waits for the caller to be preempted): 61 of 173 wakes on
 * the caller's CPU, asleep at 41 loops of 121. Three system calls a
 * sleep (reading /proc/loadavg), seven where it acts (the affinity read,
 * set, read again and restored), which follows a spin of SPIN_NS. Against the kernel's placement
 * (one process alternating both runtimes' calls, 50 ms apart, 2 threads):
 * GPT-2's step 0.794x (faster in 52 of 60, load 2-3 from other
 * processes), 0.957x at nice -15, 0.994x under SCHED_FIFO; ResNet-50 b1
 * 1.007x / 1.012x (FIFO); BERT at 7 tokens 1.003x (FIFO). At a load of
 * 4-7, with the other CPU busy, it cost: GPT-2 1.13-1.17x, BERT
 * 1.11-1.29x (the worker, there a thread among others, is preempted
 * holding a piece the caller then waits for; on the caller's CPU it ran
 * in the caller's stead), hence few_running, as a kernel without the
 * packing places a woken thread on an idle CPU only: at a load of 4.4-5.6
 * GPT-2 1.03x, BERT 1.08x (faster in 20 and 15 of 40; without it 1.13x,
 * 1.29x in the same runs). */
/* Not kept (2026-11-28): judging a free CPU by the other threads' CPU
 * time since the worker's last sample (/proc/uptime's idle time less the
 * loop's threads' CPU time): a model called among other work of its own
 * process (bench/compare.py's XLA, ONNX Runtime and PyTorch calls between
 * shloc's) always found the CPUs busy, and BERT t7 with weights as
 * arguments took 26.0 ms at 2 threads against 19.6 with this check
 * (docs/runtime.md). Nor skipping help when woken on the caller's CPU
 * (GPT-2 step 1.036x, BERT t7 const 1.050x at a load of 4-6). */
static Away avoid_team_cpus(int slot, uint64_t w) {
  Away a = {false};
#ifdef __linux__
  if (!few_running(claim_threads(w))) return a;
  if (pthread_getaffinity_np(pthread_self(), sizeof a.mask, &a.mask)) return a;
  a.away = a.mask;
  for (int s = 0; s < claim_threads(w); s++) {
    int c = atomic_load(&team.cpus[s]);
    if (s != slot && c >= 0 && c < CPU_SETSIZE) CPU_CLR(c, &a.away);
  }
  a.set = CPU_COUNT(&a.away) > 0 && !CPU_EQUAL(&a.away, &a.mask) &&
          !pthread_setaffinity_np(pthread_self(), sizeof a.away, &a.away);
#else
  (void)slot, (void)w;
#endif
  return a;
}

/* After the sleep: the affinity as it was, which keeps the worker where
 * it now runs, unless someone changed it meanwhile (taskset -a, a user
 * pinning the team's threads): then theirs stays. */
static void back_home(const Away *a) {
#ifdef __linux__
  cpu_set_t now;
  if (a->set && !pthread_getaffinity_np(pthread_self(), sizeof now, &now) &&
      CPU_EQUAL(&now, &a->away))
    pthread_setaffinity_np(pthread_self(), sizeof a->mask, &a->mask);
#else
  (void)a;
#endif
}

static bool epoch_changed(uint64_t epoch) {
  return claim_epoch(atomic_load(&team.claim)) != (uint32_t)epoch;
}

static void *worker_main(void *arg) {
  int slot = (int)(intptr_t)arg;
  watch_self(slot);
  for (;;) {
    uint64_t w = atomic_load(&team.claim);
    if (atomic_load(&team.stop)) return NULL;
    atomic_store(&team.cpus[slot], current_cpu());
    help(slot, w);
    uint32_t epoch = claim_epoch(w);
    /* The caller publishes the next loop. */
    int64_t t0 = trace_now();
    bool woke = spin_until(epoch_changed, epoch, 0, SPIN_NS, SPIN_NS);
    trace(TRACE_SPIN, slot, t0, trace_now(), woke, epoch);
    if (woke) continue;
    Away away = avoid_team_cpus(slot, w);
    t0 = trace_now();
    pthread_mutex_lock(&team.mu);
    atomic_fetch_add(&team.sleepers, 1);
    while (!epoch_changed(epoch)) pthread_cond_wait(&team.wake, &team.mu);
    atomic_fetch_sub(&team.sleepers, 1);
    pthread_mutex_unlock(&team.mu);
    int64_t caller_cpu = TRACE_ON ? atomic_load(&team.cpus[0]) | away.set << 16 : 0;
    trace(TRACE_SLEEP, slot, t0, trace_now(), caller_cpu, TRACE_ON ? current_cpu() : 0);
    back_home(&away);
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
    atomic_store(&team.cpus[slot], -1); /* not seen yet (0 is a CPU) */
    if (pthread_create(&team.workers[slot - 1], NULL, worker_main, (void *)(intptr_t)slot))
      break;
    team.nworkers++;
  }
  return team.nworkers < want ? team.nworkers : want;
}

static bool all_done(uint64_t np) { return atomic_load(&team.done) == (int64_t)np; }

/* Waits until the np pieces of the current loop (of nt threads) are
 * done: only pieces that a running thread has claimed can be outstanding
 * here. With 2 threads that is the worker's, and the caller spins while
 * the worker runs (spin_until's clock watch): up to JOIN_SPIN_NS if the
 * system runs no more threads than the loop's, else SPIN_NS; with more,
 * the caller does not know whose, and spins SPIN_NS. */
static void wait_done(int64_t np, int nt) {
  bool pair = nt == 2;
  int64_t t0 = trace_now();
  if (spin_until(all_done, (uint64_t)np, pair ? 1 : -1, SPIN_NS, pair ? JOIN_SPIN_NS : SPIN_NS)) {
    trace(TRACE_JOIN, 0, t0, trace_now(), 0, 0);
    return;
  }
  int64_t t1 = trace_now();
  pthread_mutex_lock(&team.mu);
  atomic_store(&team.caller_sleeps, true);
  while (!all_done((uint64_t)np)) pthread_cond_wait(&team.finished, &team.mu);
  atomic_store(&team.caller_sleeps, false);
  pthread_mutex_unlock(&team.mu);
  trace(TRACE_JOIN, 0, t0, trace_now(), 1, t1);
}

/* Publishes the loop and runs it cut as `cut`, the caller as slot 0; the
 * caller holds the team. */
static void run_loop(shlort_range_fn fn, void *ctx, Cut cut) {
  int nt = cut.nt;
  team.fn = fn;
  team.ctx = ctx;
  team.cut = cut;
  watch_self(0);
  atomic_store(&team.cpus[0], current_cpu());
  atomic_store(&team.done, 0);
  team.epoch++;
  for (int s = 0; s < nt; s++)
    atomic_store(&team.next[s], (uint64_t)team.epoch << 32 | (uint64_t)cut.k << 16);
  uint64_t w = (uint64_t)team.epoch << 32 | (uint64_t)nt << 24 | (uint64_t)cut.k << 12;
  int64_t t0 = trace_now();
  if (trace_gap(t0)) trace(TRACE_CALL, 0, t0, t0, few_running(2), 0);
  atomic_store(&team.claim, w);
  int sleepers = atomic_load(&team.sleepers);
  if (sleepers > 0) {
    pthread_mutex_lock(&team.mu);
    pthread_cond_broadcast(&team.wake);
    pthread_mutex_unlock(&team.mu);
  }
  help(0, w);
  wait_done((int64_t)cut.k * nt, nt);
  trace(TRACE_LOOP, 0, t0, trace_now(), cut.n, (int64_t)sleepers << 16 | cut.k << 8 | nt);
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
    run_loop(fn, ctx, loop_cut(n, nt, grain));
  else
    fn(ctx, 0, n, 0);
  atomic_store(&team.busy, false);
}

void shlort_parallel_for(shlort_range_fn fn, void *ctx, int64_t n, int32_t nthreads) {
  shlort_parallel_for_grain(fn, ctx, n, nthreads, 1);
}
