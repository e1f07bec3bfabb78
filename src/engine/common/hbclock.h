/* Happens-before clock state shared by the epoch engines (fasttrack, jrf) and
 * the segment clocks of hybrid:
 * per-thread C_t, Frel_t, Facq_t, X_t and per-token S_o, updated by the
 * primitive hb steps of event.h exactly as ALGORITHMS.md 1.2 prescribes.
 * Engines keep their own per-byte state; this module owns only clocks.
 *
 * Locking: a thread's clocks are touched by the thread itself, by its forker
 * before it runs and by its joiner after it ended. Token clocks can be used by
 * several threads at once (rdunlock, sem_post, barrier arrivals), so each is
 * guarded by one of a striped set of spinlocks owned by this module
 * (innermost: nothing is taken while one is held). */
#ifndef GOLDI_HBCLOCK_H
#define GOLDI_HBCLOCK_H

#include "../../event/event.h"
#include "../../shadow/shadow.h"
#include "vc.h"

struct goldi_hbc_thr {
    goldi_vc_t c;       /* C_t */
    goldi_vc_t frel;    /* Frel_t: C_t at the last release fence (replaced, never joined) */
    goldi_vc_t facq;    /* Facq_t: join of S_A seen by relaxed loads (only grows) */
    goldi_vc_t x;       /* X_t: C_t at EXIT */
    bool exited;        /* x is valid */
};

/* One engine's view: which estate slot it owns, plus counters. An engine that
 * keeps more per-thread state embeds struct goldi_hbc_thr as the FIRST member
 * of its own struct and sets thr_size, so that threads created here (T0,
 * fork) get the whole (zeroed) struct. */
struct goldi_hbc {
    unsigned index;                 /* estate[] slot of threads and tokens */
    size_t thr_size;                /* per-thread allocation; 0 = sizeof(struct goldi_hbc_thr) */
    _Atomic uint64_t n_steps;       /* primitive hb steps applied */
    _Atomic uint64_t n_vc_ops;      /* O(n) clock joins/copies done by those steps */
    _Atomic uint64_t n_threads;     /* thread states alive */
};

/* Thread state of thr, created as {t:1} if nobody forked it (T0, or a thread
 * whose creation the producer did not see). */
struct goldi_hbc_thr *goldi_hbc_thr_slow(struct goldi_hbc *h, struct goldi_thr *thr);
GOLDI_INLINE struct goldi_hbc_thr *goldi_hbc_thr(struct goldi_hbc *h, struct goldi_thr *thr) {
    struct goldi_hbc_thr *s = thr->estate[h->index];
    return GOLDI_LIKELY(s != NULL) ? s : goldi_hbc_thr_slow(h, thr);
}

/* Applies the hb steps of ev (goldi_event_hb_steps) to the clocks. */
void goldi_hbc_on_event(struct goldi_hbc *h, const struct goldi_event *ev);

/* An epoch engine's whole on_event: goldi_hbc_on_event, then, for ALLOC and
 * FREE, reset(ctx, addr, word) for every non-zero shadow word of the block in
 * plane (its bytes start a new lifetime, handbook 1.1). */
void goldi_hbc_on_event_lifetime(struct goldi_hbc *h, const struct goldi_event *ev, unsigned plane,
                                 void (*reset)(void *ctx, uintptr_t addr, goldi_shadow_word_t *w),
                                 void *ctx);

/* Engine-specific edges through a token's clock S_o (hybrid's condition
 * variables): S_o ⊔= *from, resp. *into ⊔= S_o, under the token's lock. Not
 * counted as hb steps. */
void goldi_hbc_tok_join_from(struct goldi_hbc *h, struct goldi_token *tok, const goldi_vc_t *from);
void goldi_hbc_tok_join_into(struct goldi_hbc *h, struct goldi_token *tok, goldi_vc_t *into);

/* Frees thr's clocks (on_thr_free); with thr_size set, the whole struct
 * (the engine's extra fields must need no destruction). */
void goldi_hbc_thr_free(struct goldi_hbc *h, struct goldi_thr *thr);

#endif
