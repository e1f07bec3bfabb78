/* Clock updates of the primitive hb steps (see hbclock.h, ALGORITHMS.md 1.2).
 * No libc, no malloc: clocks grow through goldi_alloc. */
#include "hbclock.h"
#include "../../base/alloc.h"
#include "../../base/atfork.h"

struct hbc_tok {
    uint64_t id;        /* token id s belongs to; != tok->id means a new object life */
    goldi_vc_t s;       /* S_o */
};

#define HBC_TOK_LOCKS 256
static goldi_spinlock_t hbc_tok_locks[HBC_TOK_LOCKS];

static goldi_spinlock_t *tok_lock(const struct goldi_token *tok) {
    uint64_t h = (uint64_t)(uintptr_t)tok * 0x9E3779B97F4A7C15ull;
    return &hbc_tok_locks[h >> 56];
}

static void count(_Atomic uint64_t *c, uint64_t d) {
    atomic_fetch_add_explicit(c, d, memory_order_relaxed);
}

static struct goldi_hbc_thr *thr_alloc(struct goldi_hbc *h) {
    return goldi_alloc(h->thr_size ? h->thr_size : sizeof(struct goldi_hbc_thr));
}

struct goldi_hbc_thr *goldi_hbc_thr_slow(struct goldi_hbc *h, struct goldi_thr *thr) {
    struct goldi_hbc_thr *s = thr->estate[h->index];
    if (s)
        return s;
    s = thr_alloc(h);
    goldi_vc_set(&s->c, thr->tid, 1);
    thr->estate[h->index] = s;
    count(&h->n_threads, 1);
    return s;
}

/* The token's clock, reset to ⊥ if the token has a new id (the object was
 * re-initialised, destroyed, freed, or a new barrier generation started).
 * Caller holds tok_lock(tok). */
static goldi_vc_t *tok_clock_locked(struct goldi_hbc *h, struct goldi_token *tok) {
    struct hbc_tok *s = tok->estate[h->index];
    if (!s) {
        s = goldi_alloc(sizeof *s);
        s->id = tok->id;
        tok->estate[h->index] = s;
    } else if (s->id != tok->id) {
        goldi_vc_clear(&s->s);
        s->id = tok->id;
    }
    return &s->s;
}

/* inc(t) after every release-ish step (handbook T6): epochs of t taken after
 * the release must not be covered by the clock just published. */
static void inc_self(struct goldi_hbc_thr *ts, struct goldi_thr *thr) { goldi_vc_inc(&ts->c, thr->tid); }

static void do_step(struct goldi_hbc *h, struct goldi_thr *thr, struct goldi_hbc_thr *ts,
                    const struct goldi_hb_step *st) {
    count(&h->n_steps, 1);
    switch ((enum goldi_hb_op)st->op) {
    case GOLDI_HB_FORK: {
        /* C_child := C_t ⊔ {child:1}; inc(t). A child that already has state
         * (it emitted something first) keeps it and joins ours. */
        struct goldi_thr *child = st->other;
        struct goldi_hbc_thr *cs = child->estate[h->index];
        if (!cs) {
            cs = thr_alloc(h);
            child->estate[h->index] = cs;
            count(&h->n_threads, 1);
        }
        goldi_vc_join(&cs->c, &ts->c);
        if (goldi_vc_get(&cs->c, child->tid) < 1)
            goldi_vc_set(&cs->c, child->tid, 1);
        inc_self(ts, thr);
        count(&h->n_vc_ops, 1);
        return;
    }
    case GOLDI_HB_JOIN: {
        /* C_t ⊔= X_child; a child whose EXIT we never saw is over anyway
         * (join returned), so its current clock is its final one. */
        struct goldi_hbc_thr *cs = st->other->estate[h->index];
        if (cs) {
            goldi_vc_join(&ts->c, cs->exited ? &cs->x : &cs->c);
            count(&h->n_vc_ops, 1);
        }
        return;
    }
    case GOLDI_HB_EXIT:
        goldi_vc_copy(&ts->x, &ts->c);
        ts->exited = true;
        count(&h->n_vc_ops, 1);
        return;
    case GOLDI_HB_FENCE_ACQ:
        goldi_vc_join(&ts->c, &ts->facq);
        count(&h->n_vc_ops, 1);
        return;
    case GOLDI_HB_FENCE_REL:
        goldi_vc_copy(&ts->frel, &ts->c);
        inc_self(ts, thr);
        count(&h->n_vc_ops, 1);
        return;
    case GOLDI_HB_ACQ:
    case GOLDI_HB_REL_STORE:
    case GOLDI_HB_REL_JOIN:
    case GOLDI_HB_ATOMIC_LOAD:
    case GOLDI_HB_ATOMIC_STORE:
    case GOLDI_HB_ATOMIC_RMW:
        break;
    }

    goldi_spinlock_t *lk = tok_lock(st->tok);
    goldi_spin_lock(lk);
    goldi_vc_t *s = tok_clock_locked(h, st->tok);
    bool inc = false;
    switch ((enum goldi_hb_op)st->op) {
    case GOLDI_HB_ACQ:              /* C_t ⊔= S */
        goldi_vc_join(&ts->c, s);
        break;
    case GOLDI_HB_REL_STORE:        /* S := C_t; inc(t) */
        goldi_vc_copy(s, &ts->c);
        inc = true;
        break;
    case GOLDI_HB_REL_JOIN:         /* S ⊔= C_t; inc(t) */
        goldi_vc_join(s, &ts->c);
        inc = true;
        break;
    case GOLDI_HB_ATOMIC_LOAD:      /* strong: C_t ⊔= S; else Facq_t ⊔= S */
        goldi_vc_join(st->strong ? &ts->c : &ts->facq, s);
        break;
    case GOLDI_HB_ATOMIC_STORE:     /* strong: S := C_t; inc(t); else S := Frel_t */
        goldi_vc_copy(s, st->strong ? &ts->c : &ts->frel);
        inc = st->strong;
        break;
    case GOLDI_HB_ATOMIC_RMW:       /* strong: S ⊔= C_t; inc(t); else S ⊔= Frel_t */
        goldi_vc_join(s, st->strong ? &ts->c : &ts->frel);
        inc = st->strong;
        break;
    case GOLDI_HB_FORK:
    case GOLDI_HB_JOIN:
    case GOLDI_HB_EXIT:
    case GOLDI_HB_FENCE_ACQ:
    case GOLDI_HB_FENCE_REL:
        break;
    }
    goldi_spin_unlock(lk);
    count(&h->n_vc_ops, 1);
    if (inc)
        inc_self(ts, thr);
}

void goldi_hbc_on_event(struct goldi_hbc *h, const struct goldi_event *ev) {
    struct goldi_thr *thr = ev->thr;
    struct goldi_hbc_thr *ts = goldi_hbc_thr(h, thr);
    struct goldi_hb_step steps[GOLDI_HB_MAX_STEPS];
    int n = goldi_event_hb_steps(ev, steps);
    for (int i = 0; i < n; i++)
        do_step(h, thr, ts, &steps[i]);
}

void goldi_hbc_on_event_lifetime(struct goldi_hbc *h, const struct goldi_event *ev, unsigned plane,
                                 void (*reset)(void *ctx, uintptr_t addr, goldi_shadow_word_t *w),
                                 void *ctx) {
    goldi_hbc_on_event(h, ev);
    if ((ev->kind == GOLDI_EV_ALLOC || ev->kind == GOLDI_EV_FREE) && ev->size)
        goldi_shadow_for_each(plane, ev->addr, ev->size, reset, ctx);
}

void goldi_hbc_tok_join_from(struct goldi_hbc *h, struct goldi_token *tok, const goldi_vc_t *from) {
    goldi_spinlock_t *lk = tok_lock(tok);
    goldi_spin_lock(lk);
    goldi_vc_join(tok_clock_locked(h, tok), from);
    goldi_spin_unlock(lk);
}

void goldi_hbc_tok_join_into(struct goldi_hbc *h, struct goldi_token *tok, goldi_vc_t *into) {
    goldi_spinlock_t *lk = tok_lock(tok);
    goldi_spin_lock(lk);
    goldi_vc_join(into, tok_clock_locked(h, tok));
    goldi_spin_unlock(lk);
}

void goldi_hbc_thr_free(struct goldi_hbc *h, struct goldi_thr *thr) {
    struct goldi_hbc_thr *s = thr->estate[h->index];
    if (!s)
        return;
    goldi_vc_destroy(&s->c);
    goldi_vc_destroy(&s->frel);
    goldi_vc_destroy(&s->facq);
    goldi_vc_destroy(&s->x);
    goldi_free(s);
    thr->estate[h->index] = NULL;
    atomic_fetch_sub_explicit(&h->n_threads, 1, memory_order_relaxed);
}

/* The token locks are leaves (only the allocator is taken inside), sometimes
 * taken inside an atomic's sync-object critical section: after SYNC. */
static void hbc_fork_lock(void) { goldi_spin_lock_all(hbc_tok_locks, HBC_TOK_LOCKS); }
static void hbc_fork_unlock(void) { goldi_spin_unlock_all(hbc_tok_locks, HBC_TOK_LOCKS); }

__attribute__((constructor(102))) static void hbc_atfork_init(void) {
    goldi_atfork_register(GOLDI_ATFORK_ALLOC - 10, hbc_fork_lock, hbc_fork_unlock, hbc_fork_unlock);
}
