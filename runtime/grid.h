/* grid.h: the threads build's grid (grid.c) as collectives.c and
 * channels.c use it. An internal header.
 *
 * Rendezvous. Every collective meets its group in the record of the
 * group's leader (its member with the smallest id); each process owns one
 * record. The leader opens a meeting with its member list as the key; the
 * other members wait until a meeting with their key is open, join it, and
 * publish a Post (pointers to their tensors). A meeting then proceeds in
 * barriers: after the first (grid_join) every member reads its peers'
 * operands directly (no copies into the runtime); after the last
 * (grid_leave) nobody reads them any more and the meeting closes. A
 * process arrives at its collectives in program order and leaves a
 * meeting only after it has closed, so a leader's meetings follow its
 * program order and a member never joins a meeting twice.
 *
 * Waiting to join ends within the grid's timeout: on a timeout, on a peer
 * that returned without arriving, on a peer found at another collective of
 * the same leader, or when another process failed (the grid is aborted).
 * After the join nothing fails (see shlort_grid_sync). */
#ifndef SHLORT_GRID_H
#define SHLORT_GRID_H

#include <time.h>

#include "spmd.h"

/* What a process offers at a meeting or on a channel. */
typedef struct Post {
  const shlort_op *op;
  int32_t kind; /* the runtime call (collectives.c's Kind) */
  int32_t n;
  const shlort_tensor *operands, *results;
  int64_t params[3]; /* the call's integer attributes (dims, split count) */
} Post;

typedef struct Record Record;

/* A process's place in a meeting. */
typedef struct Meet {
  Record *rec;
  int32_t size, index;
  const Post *const *posts; /* [size], valid from grid_join to grid_leave */
} Meet;

/* Whether the posts of a meeting agree: 0, or non-zero with the reason in
 * why. Called once per meeting, by the member that completes the join,
 * while every post is alive (the others wait for it). */
typedef int32_t (*shlort_agree_fn)(const shlort_proc *p, const Post *const *posts,
                                   int32_t size, char *why, size_t why_size);

/* Joins the meeting of p's group p->members[0 .. size) at position index,
 * offering post; returns once every member has joined and the posts
 * agree (SHLORT_MISMATCH with agree's reason for every member otherwise). */
int32_t shlort_grid_join(shlort_proc *p, const shlort_op *op, int32_t size, int32_t index,
                         const Post *post, shlort_agree_fn agree, Meet *m);
/* A barrier inside a joined meeting. It cannot fail: every member is in
 * the same bounded step, and none may leave while others read its buffers. */
void shlort_grid_sync(shlort_proc *p, const shlort_op *op, Meet *m);
/* The last barrier: the meeting closes; p's buffers are its own again.
 * Returns SHLORT_OK (the status is the collective's last word). */
int32_t shlort_grid_leave(shlort_proc *p, const shlort_op *op, Meet *m);

/* Channels (channels.c) keep their state in the grid: */
typedef struct Offer {
  const shlort_proc *from;
  const Post *post;
  bool taken, done;
  int32_t status; /* the receiver's verdict */
} Offer;

typedef struct Channel {
  int64_t id;
  bool used;
  Offer *offer; /* the pending send, NULL when none */
} Channel;

/* The grid's channel table, its lock and its condition (channels.c); waits
 * with the grid's deadline and abort rules. */
Channel *shlort_grid_channel(shlort_proc *p, int64_t id);
void shlort_grid_lock(shlort_proc *p);
void shlort_grid_unlock(shlort_proc *p);
void shlort_grid_broadcast(shlort_proc *p);
/* Waits on the channel condition until woken, the deadline passes
 * (SHLORT_TIMEOUT) or the grid is aborted (SHLORT_ABORTED); deadline from
 * shlort_grid_deadline. The caller holds the grid lock. */
int32_t shlort_grid_wait(shlort_proc *p, const struct timespec *deadline);
void shlort_grid_deadline(const shlort_proc *p, struct timespec *deadline);

#endif
