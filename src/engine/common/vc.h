/* Vector clocks and epochs for the happens-before engines (ALGORITHMS.md 1.2,
 * 2.1, 2.2). Clocks grow on demand (memory from goldi_alloc, never malloc);
 * no locking: the caller owns the clock or holds the lock protecting it. */
#ifndef GOLDI_VC_H
#define GOLDI_VC_H

#include "../../base/base.h"

/* One thread's logical time. 32 bits: a thread would need 2^32 release-ish
 * operations (unlocks, release stores, forks...) to wrap; goldi_vc_inc checks
 * and dies with a clear message rather than silently wrapping (a wrapped clock
 * would order unordered events and hide races). */
typedef uint32_t goldi_clock_t;
#define GOLDI_CLOCK_MAX UINT32_MAX

/* A vector clock: c[t] for t < n, and 0 (never synchronised with t) for every
 * t >= n. Thread ids are dense and never reused (handbook T1), so indexing by
 * tid is compact.
 * Invariants: n <= cap; c == NULL iff cap == 0; entries past n are zero in
 * memory too (so growing n needs no clearing). Trailing zeros below n are
 * allowed (n is a bound, not an exact length). The all-zero clock is ⊥. */
typedef struct goldi_vc {
    goldi_clock_t *c;     /* cap entries from goldi_alloc, or NULL */
    uint32_t n;           /* entries in use: c[t] may be non-zero only for t < n */
    uint32_t cap;         /* allocated entries */
} goldi_vc_t;

#define GOLDI_VC_INIT { NULL, 0, 0 }

GOLDI_INLINE void goldi_vc_init(goldi_vc_t *v) {
    v->c = NULL;
    v->n = 0;
    v->cap = 0;
}
/* Frees the entries; v becomes ⊥ (and reusable). */
void goldi_vc_destroy(goldi_vc_t *v);
/* v := ⊥ without freeing memory. */
void goldi_vc_clear(goldi_vc_t *v);

GOLDI_INLINE goldi_clock_t goldi_vc_get(const goldi_vc_t *v, goldi_tid_t t) {
    return t < v->n ? v->c[t] : 0;
}
/* v[t] := c (grows v). */
void goldi_vc_set(goldi_vc_t *v, goldi_tid_t t, goldi_clock_t c);
/* v[t]++ (grows v); dies if the clock would wrap. */
void goldi_vc_inc(goldi_vc_t *v, goldi_tid_t t);
/* dst := dst ⊔ src (pointwise max). */
void goldi_vc_join(goldi_vc_t *dst, const goldi_vc_t *src);
/* dst := src. */
void goldi_vc_copy(goldi_vc_t *dst, const goldi_vc_t *src);
/* a ⊑ b (pointwise <=). */
bool goldi_vc_leq(const goldi_vc_t *a, const goldi_vc_t *b);
/* First t with a[t] > b[t], or GOLDI_TID_NONE if a ⊑ b (for explanations). */
goldi_tid_t goldi_vc_first_not_leq(const goldi_vc_t *a, const goldi_vc_t *b);
bool goldi_vc_equal(const goldi_vc_t *a, const goldi_vc_t *b);
/* Writes "[T0:3 T2:1]" (non-zero entries only, "[]" for ⊥) into buf; output
 * longer than n-1 is cut and ends in "...]". Returns strlen(buf). */
size_t goldi_vc_format(const goldi_vc_t *v, char *buf, size_t n);
/* Checks the invariants above (GOLDI_XCHECK-level validator); false if broken. */
bool goldi_vc_validate(const goldi_vc_t *v);

/* --- Epochs (FastTrack's c@t) -----------------------------------------------
 * One access time packed in 64 bits:
 *
 *    63                 32 31                  0
 *   +---------------------+---------------------+
 *   |   clock (32 bits)   |    tid (32 bits)    |
 *   +---------------------+---------------------+
 *
 * Thread ids are 32 bits (goldi_tid_t) because a long run can create more
 * than 65535 threads and tids are never reused. Clock in the high half makes
 * epochs of one thread compare like their clocks. GOLDI_EPOCH_NONE (0@0,
 * value 0) is ⊥: clock 0 is never the time of a real access, since a thread's
 * own entry starts at 1 (fork gives the child {child:1}, T0 starts at 1). */
typedef uint64_t goldi_epoch_t;
#define GOLDI_EPOCH_NONE ((goldi_epoch_t)0)

GOLDI_INLINE goldi_epoch_t goldi_epoch_make(goldi_tid_t t, goldi_clock_t c) {
    return ((uint64_t)c << 32) | t;
}
GOLDI_INLINE goldi_tid_t goldi_epoch_tid(goldi_epoch_t e) { return (goldi_tid_t)(e & 0xffffffffu); }
GOLDI_INLINE goldi_clock_t goldi_epoch_clock(goldi_epoch_t e) { return (goldi_clock_t)(e >> 32); }
/* E(t) = C_t[t]@t: the current epoch of thread t whose clock is v. */
GOLDI_INLINE goldi_epoch_t goldi_epoch_of(const goldi_vc_t *v, goldi_tid_t t) {
    return goldi_epoch_make(t, goldi_vc_get(v, t));
}
/* c@t ⪯ V iff c <= V[t]; ⊥ precedes everything. */
GOLDI_INLINE bool goldi_epoch_leq(goldi_epoch_t e, const goldi_vc_t *v) {
    return goldi_epoch_clock(e) <= goldi_vc_get(v, goldi_epoch_tid(e));
}

#endif
