/* Interned locksets for the lockset engines (eraser, hybrid; ALGORITHMS.md 2.5,
 * 2.6): every distinct set of locks gets a small id for ever, so a per-byte
 * candidate set is one 32-bit word and "C ∩= held" is a memoised table lookup.
 * Thread-safe; no malloc (goldi_alloc); sets are never freed (memory grows
 * with the number of *distinct* sets, which stays small in real programs). */
#ifndef GOLDI_LOCKSET_H
#define GOLDI_LOCKSET_H

#include "../../event/event.h"

/* An interned set of locks. 0 is the empty set; ids are dense and never reused. */
typedef uint32_t goldi_lockset_t;
#define GOLDI_LOCKSET_EMPTY 0u

/* One lock of a set. id is what identifies the lock (the token id of the
 * lock's tok[0], so a re-initialised mutex is a new lock); addr is only kept
 * for messages. Sets are sorted by id and hold each id once. */
struct goldi_lockset_lock {
    uint64_t id;
    uintptr_t addr;
};

/* The id of the set {locks[0..n)} (any order, duplicates allowed). When the
 * table is full (2^24 distinct sets) it returns GOLDI_LOCKSET_EMPTY and counts
 * an overflow: an engine then sees an empty lockset (a possible false alarm,
 * never a crash). */
goldi_lockset_t goldi_lockset_intern(const struct goldi_lockset_lock *locks, uint32_t n);

/* a ∩ b, memoised in a lock-free direct-mapped table. */
goldi_lockset_t goldi_lockset_intersect(goldi_lockset_t a, goldi_lockset_t b);

/* Locks of s, sorted by id; *n receives their number. Never NULL. */
const struct goldi_lockset_lock *goldi_lockset_locks(goldi_lockset_t s, uint32_t *n);
uint32_t goldi_lockset_size(goldi_lockset_t s);
bool goldi_lockset_contains(goldi_lockset_t s, uint64_t id);

/* The locks a thread holds now: every held lock (write_only = false), or only
 * those held in exclusive mode (write_only = true: read-mode rwlocks do not
 * protect writes). Reads thr->held[] as kept by the dispatcher. */
goldi_lockset_t goldi_lockset_of_thr(const struct goldi_thr *thr, bool write_only);

/* Writes "{0x55..10, 0x55..40}" ("{}" for the empty set) into buf; output
 * longer than n-1 is cut and ends in "...}". Returns strlen(buf). */
size_t goldi_lockset_format(goldi_lockset_t s, char *buf, size_t n);

struct goldi_lockset_stats {
    uint64_t n_sets;          /* distinct sets interned (incl. the empty set) */
    uint64_t memo_hits;       /* intersections answered by the memo table */
    uint64_t memo_misses;     /* intersections computed (then memoised) */
    uint64_t overflows;       /* interns refused because the table was full */
};
void goldi_lockset_get_stats(struct goldi_lockset_stats *out);

#endif
