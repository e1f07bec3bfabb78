/* Event names and the happens-before lowering of ALGORITHMS.md §1.2: every
 * event becomes at most four primitive steps over tokens. */
#include "event.h"

const char *const goldi_event_names[GOLDI_EV_COUNT] = {
#define GOLDI_EVENT(name, str, acc) [GOLDI_EV_##name] = str,
#include "event.inc"
#undef GOLDI_EVENT
};

const bool goldi_event_is_access[GOLDI_EV_COUNT] = {
#define GOLDI_EVENT(name, str, acc) [GOLDI_EV_##name] = acc,
#include "event.inc"
#undef GOLDI_EVENT
};

static int step(struct goldi_hb_step *out, int n, enum goldi_hb_op op, bool strong,
                struct goldi_token *tok, struct goldi_thr *other) {
    out[n].op = (uint8_t)op;
    out[n].strong = strong;
    out[n].tok = tok;
    out[n].other = other;
    return n + 1;
}

/* Reading its own plain store, a thread acquires nothing: the location's
 * clock (the sets holding its token) is what that store made it, the
 * thread's clock (sets holding the thread) at the store or at its last
 * release fence, both already part of the thread's own (the Facq side only
 * ever adds the thread itself). An RMW in between would have joined other
 * threads' releases: not elided. */
int goldi_atomic_read_step(const struct goldi_event *ev, bool own_store, struct goldi_hb_step out[1]) {
    if (own_store)
        return 0;
    return step(out, 0, GOLDI_HB_ATOMIC_LOAD, goldi_mo_is_acquire(ev->mo), &ev->obj->tok[0], NULL);
}

int goldi_event_hb_steps(const struct goldi_event *ev, struct goldi_hb_step out[GOLDI_HB_MAX_STEPS]) {
    struct goldi_sync *o = ev->obj;
    int n = 0;
    switch ((enum goldi_event_kind)ev->kind) {
    case GOLDI_EV_FORK:
        return step(out, n, GOLDI_HB_FORK, false, NULL, ev->other);
    case GOLDI_EV_EXIT:
        return step(out, n, GOLDI_HB_EXIT, false, NULL, NULL);
    case GOLDI_EV_JOIN:
        return step(out, n, GOLDI_HB_JOIN, false, NULL, ev->other);
    case GOLDI_EV_LOCK_ACQ:
        /* A writer orders after earlier writers (R.w) and readers (R.r); a
         * reader only after writers: readers never sync with readers. */
        n = step(out, n, GOLDI_HB_ACQ, false, &o->tok[0], NULL);
        if (o->kind == GOLDI_SYNC_RWLOCK && ev->mode == GOLDI_LOCK_EXCL)
            n = step(out, n, GOLDI_HB_ACQ, false, &o->tok[1], NULL);
        return n;
    case GOLDI_EV_LOCK_REL:
        if (o->kind == GOLDI_SYNC_RWLOCK && ev->mode == GOLDI_LOCK_SHARED)
            return step(out, n, GOLDI_HB_REL_JOIN, false, &o->tok[1], NULL);
        return step(out, n, GOLDI_HB_REL_STORE, false, &o->tok[0], NULL);
    case GOLDI_EV_WAIT_ENTER:
        return step(out, n, GOLDI_HB_REL_STORE, false, &ev->obj2->tok[0], NULL);
    case GOLDI_EV_WAIT_EXIT:
        return step(out, n, GOLDI_HB_ACQ, false, &ev->obj2->tok[0], NULL);
    case GOLDI_EV_SIGNAL:
    case GOLDI_EV_BROADCAST:
        return 0; /* ordering comes from the mutex (ALGORITHMS.md §1.2 default) */
    case GOLDI_EV_BAR_ARRIVE:
        return step(out, n, GOLDI_HB_REL_JOIN, false, &o->tok[ev->gen & 1], NULL);
    case GOLDI_EV_BAR_DEPART:
        return step(out, n, GOLDI_HB_ACQ, false, &o->tok[ev->gen & 1], NULL);
    case GOLDI_EV_SEM_POST:
        return step(out, n, GOLDI_HB_REL_JOIN, false, &o->tok[0], NULL);
    case GOLDI_EV_SEM_WAIT:
        return step(out, n, GOLDI_HB_ACQ, false, &o->tok[0], NULL);
    case GOLDI_EV_ONCE_DONE:
        return step(out, n, GOLDI_HB_REL_STORE, false, &o->tok[0], NULL);
    case GOLDI_EV_ONCE_RET:
        return step(out, n, GOLDI_HB_ACQ, false, &o->tok[0], NULL);
    /* The read half of an atomic read is the ATOMIC_READ_SYNC event that
     * goldi_dispatch delivers before the atomic's access check: an acquire
     * load is ordered after the release it reads from, so it is checked with
     * the clock it acquired (C11 synchronizes-with). */
    case GOLDI_EV_ATOMIC_READ_SYNC:
        return goldi_atomic_read_step(ev, ev->flags & GOLDI_EVF_OWN_STORE, out);
    case GOLDI_EV_ATOMIC_LOAD:
    case GOLDI_EV_ATOMIC_CASFAIL:
        return 0;
    case GOLDI_EV_ATOMIC_STORE:
        return step(out, n, GOLDI_HB_ATOMIC_STORE, goldi_mo_is_release(ev->mo), &o->tok[0], NULL);
    case GOLDI_EV_ATOMIC_RMW:
        return step(out, n, GOLDI_HB_ATOMIC_RMW, goldi_mo_is_release(ev->mo), &o->tok[0], NULL);
    case GOLDI_EV_FENCE:
        if (goldi_mo_is_acquire(ev->mo))
            n = step(out, n, GOLDI_HB_FENCE_ACQ, false, NULL, NULL);
        if (goldi_mo_is_release(ev->mo))
            n = step(out, n, GOLDI_HB_FENCE_REL, false, NULL, NULL);
        return n;
    case GOLDI_EV_READ:
    case GOLDI_EV_WRITE:
    case GOLDI_EV_ALLOC:
    case GOLDI_EV_FREE:
    case GOLDI_EV_COUNT:
        return 0;
    }
    return 0;
}
