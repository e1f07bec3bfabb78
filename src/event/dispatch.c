/* Delivers events to the attached sinks (engines, trace writer). Splits
 * accesses into 8-byte granules and runs every sink's check of a granule
 * under that granule's lock (ALGORITHMS.md T10), keeps each thread's list of
 * held locks, and starts a fresh token for every new barrier generation. */
#include "event.h"
#include "sync.h"
#include "../shadow/shadow.h"

static struct goldi_sink *sinks[GOLDI_MAX_SINKS];
static unsigned n_sinks;

struct goldi_sink *goldi_dispatch_fast_sink;
static struct goldi_sink *atomic_sink;   /* the only sink, if it has on_atomic */
static bool striped_locks;   /* some sink's on_access needs the striped granule lock */
static bool frees_sparse;    /* every sink's on_access is free_sparse or free_first_piece */

void goldi_dispatch_attach(struct goldi_sink *s) {
    GOLDI_CHECK_OP(n_sinks, <, GOLDI_MAX_SINKS);
    sinks[n_sinks++] = s;
    goldi_dispatch_fast_sink = n_sinks == 1 && s->on_access_fast ? s : NULL;
    atomic_sink = n_sinks == 1 && s->on_atomic ? s : NULL;
    striped_locks |= s->on_access && !s->own_granule_locks;
    frees_sparse = true;
    for (unsigned i = 0; i < n_sinks; i++)
        frees_sparse &= !sinks[i]->on_access || sinks[i]->free_sparse || sinks[i]->free_first_piece;
}

unsigned goldi_dispatch_n_sinks(void) { return n_sinks; }

void goldi_dispatch_thr_free(struct goldi_thr *thr) {
    for (unsigned i = 0; i < n_sinks; i++)
        if (sinks[i]->on_thr_free)
            sinks[i]->on_thr_free(sinks[i]->self, thr);
}

static void held_add(struct goldi_thr *thr, struct goldi_sync *obj, uint8_t mode) {
    thr->held_version++;
    if (thr->n_held < GOLDI_MAX_HELD) {
        thr->held[thr->n_held].obj = obj;
        thr->held[thr->n_held].mode = mode;
        thr->n_held++;
    } else {
        thr->n_held_dropped++;
    }
}

/* A release of obj by thr: out of thr's held locks. A thread that does not
 * hold obj (and tracks every lock it holds) releases a lock another thread
 * may still be inside, as when a plain mutex is unlocked by another thread
 * (undefined in POSIX; glibc opens it): its mutual exclusion is gone
 * (goldi_sync_excludes). */
static void held_remove(struct goldi_thr *thr, struct goldi_sync *obj) {
    thr->held_version++;
    for (uint32_t i = thr->n_held; i-- > 0;) {
        if (thr->held[i].obj != obj)
            continue;
        for (uint32_t j = i + 1; j < thr->n_held; j++)
            thr->held[j - 1] = thr->held[j];
        thr->n_held--;
        return;
    }
    if (thr->n_held_dropped)
        thr->n_held_dropped--;
    else
        goldi_sync_break_exclusion(obj);
}

/* The first arrival of generation g claims slot g&1 with a fresh token. All
 * departures of g-2 (the slot's previous user) happened before any arrival of
 * g: each arriving thread departed g-1, which needed every thread to arrive at
 * g-1 after departing g-2 (trap T7). */
static void barrier_generation(const struct goldi_event *ev) {
    struct goldi_sync *o = ev->obj;
    unsigned slot = ev->gen & 1;
    goldi_spin_lock(&o->lock);
    if (o->bar_gen[slot] != ev->gen) {
        goldi_token_renew(&o->tok[slot]);
        o->bar_gen[slot] = ev->gen;
    }
    goldi_spin_unlock(&o->lock);
}

/* The pieces of [a, end) to sinks [first, last). */
static void dispatch_pieces(const struct goldi_event *ev, uintptr_t a, uintptr_t end, unsigned first,
                            unsigned last) {
    while (a < end) {
        uintptr_t gend = goldi_granule_piece_end(a, end);
        goldi_spinlock_t *lk = striped_locks ? goldi_granule_lock(a) : NULL;
        if (lk)
            goldi_spin_lock(lk);
        for (unsigned i = first; i < last; i++)
            if (sinks[i]->on_access)
                sinks[i]->on_access(sinks[i]->self, ev, a, (unsigned)(gend - a));
        if (lk)
            goldi_spin_unlock(lk);
        a = gend;
    }
}

/* A FREE sent to one sink's granules with state (goldi_shadow_for_each_granule). */
struct sparse_free {
    const struct goldi_event *ev;
    unsigned sink;
};

static void free_granule(void *ctx, uintptr_t base, goldi_shadow_word_t *w) {
    (void)w;
    const struct sparse_free *f = ctx;
    dispatch_pieces(f->ev, base, base + GOLDI_GRANULE, f->sink, f->sink + 1);
}

static void dispatch_access(const struct goldi_event *ev) {
    struct goldi_sink *fs = goldi_dispatch_fast_sink;
    if (fs && fs->on_range_fast && (ev->kind == GOLDI_EV_READ || ev->kind == GOLDI_EV_WRITE)) {
        fs->on_range_fast(fs->self, ev);
        return;
    }
    if (fs && fs->on_free_fast && ev->kind == GOLDI_EV_FREE) {
        fs->on_free_fast(fs->self, ev);
        return;
    }
    uintptr_t a = ev->addr, end = ev->addr + ev->size;
    if (end < a)
        end = UINTPTR_MAX;
    uintptr_t first_end = goldi_granule_piece_end(a, end), hi = end & ~(uintptr_t)(GOLDI_GRANULE - 1);
    if (ev->kind != GOLDI_EV_FREE || !frees_sparse || first_end >= hi) {
        dispatch_pieces(ev, a, end, 0, n_sinks);
        return;
    }
    /* A FREE of whole granules: its first piece to every sink (the trace
     * writer takes the FREE's place in the order there), then each
     * free_sparse sink its own granules with state. Another thread's access
     * to the block (a race with the free) may then reach two sinks on
     * either side of the FREE: each still checks the pair. */
    dispatch_pieces(ev, a, first_end, 0, n_sinks);
    for (unsigned i = 0; i < n_sinks; i++) {
        if (!sinks[i]->free_sparse)
            continue;
        struct sparse_free f = {ev, i};
        goldi_shadow_for_each_granule(sinks[i]->plane, first_end, hi - first_end, free_granule, &f);
        dispatch_pieces(ev, hi, end, i, i + 1);
    }
}

/* Does atomic read ev read its own thread's plain store (OWN_STORE, hb.c)?
 * The caller holds ev->obj->lock, so last_storer is the store it reads,
 * as long as the operation's own store is not counted yet (note_store). */
GOLDI_INLINE bool reads_own_store(const struct goldi_event *ev) {
    return ev->obj->last_storer == ev->thr->tid;
}

/* Counts an atomic operation's store into last_storer: a plain store's
 * thread, none for an RMW (it joins other threads' releases). own_mark
 * follows, with release: a load that reads it without the lock and finds
 * the count unchanged (rt/abi/atomic.c) sees the thread of that store. */
GOLDI_INLINE void note_store(const struct goldi_event *ev) {
    if (ev->kind != GOLDI_EV_ATOMIC_STORE && ev->kind != GOLDI_EV_ATOMIC_RMW)
        return;
    struct goldi_sync *o = ev->obj;
    bool plain = ev->kind == GOLDI_EV_ATOMIC_STORE;
    o->last_storer = plain ? ev->thr->tid : GOLDI_TID_NONE;
    uint64_t n = atomic_load_explicit(&o->n_writes, memory_order_relaxed);
    atomic_store_explicit(&o->own_mark, plain ? goldi_own_mark(n, ev->thr->tid) : 0, memory_order_release);
}

/* An atomic operation for the only sink, which has on_atomic: the same
 * deliveries as goldi_dispatch's below, in one call. */
static GOLDI_NOINLINE void dispatch_atomic_to_one(const struct goldi_event *ev) {
    bool own_store = reads_own_store(ev);
    note_store(ev);
    atomic_sink->on_atomic(atomic_sink->self, ev, own_store);
}

bool goldi_dispatch_own_load(const struct goldi_event *ev) {
    if (!atomic_sink)
        return false;
    ev->thr->sync_epoch++;
    atomic_sink->on_atomic(atomic_sink->self, ev, true);
    return true;
}

void goldi_dispatch(const struct goldi_event *ev) {
    struct goldi_thr *thr = ev->thr;
    if (ev->kind != GOLDI_EV_READ && ev->kind != GOLDI_EV_WRITE)
        thr->sync_epoch++;
    switch ((enum goldi_event_kind)ev->kind) {
    case GOLDI_EV_ATOMIC_LOAD:
    case GOLDI_EV_ATOMIC_STORE:
    case GOLDI_EV_ATOMIC_RMW:
    case GOLDI_EV_ATOMIC_CASFAIL:
        if (atomic_sink) {
            dispatch_atomic_to_one(ev);   /* (a tail call: this frame stays as lean as before) */
            return;
        }
        break;
    case GOLDI_EV_LOCK_ACQ:
        held_add(thr, ev->obj, ev->mode);
        break;
    case GOLDI_EV_WAIT_EXIT:
        held_add(thr, ev->obj2, GOLDI_LOCK_EXCL);
        break;
    case GOLDI_EV_BAR_ARRIVE:
        barrier_generation(ev);
        break;
    default:
        break;
    }
    if (ev->kind == GOLDI_EV_ATOMIC_LOAD || ev->kind == GOLDI_EV_ATOMIC_CASFAIL ||
        ev->kind == GOLDI_EV_ATOMIC_RMW) {
        /* The read half first (see ATOMIC_READ_SYNC in hb.c). */
        struct goldi_event sync = *ev;
        sync.kind = GOLDI_EV_ATOMIC_READ_SYNC;
        sync.flags |= GOLDI_EVF_DERIVED;
        if (reads_own_store(ev))
            sync.flags |= GOLDI_EVF_OWN_STORE;
        for (unsigned i = 0; i < n_sinks; i++)
            if (sinks[i]->on_event)
                sinks[i]->on_event(sinks[i]->self, &sync);
    }
    note_store(ev);
    if (goldi_event_is_access[ev->kind] && ev->size)
        dispatch_access(ev);
    for (unsigned i = 0; i < n_sinks; i++)
        if (sinks[i]->on_event)
            sinks[i]->on_event(sinks[i]->self, ev);
    switch ((enum goldi_event_kind)ev->kind) {
    case GOLDI_EV_LOCK_REL:
        held_remove(thr, ev->obj);
        break;
    case GOLDI_EV_WAIT_ENTER:
        held_remove(thr, ev->obj2);
        break;
    default:
        break;
    }
}

/* Mutual exclusion as a trace states it (replays only: a program's real
 * locks never let it happen). A lock taken while another thread holds it
 * (a write or plain lock while anyone else does, a read lock while a
 * writer does) orders nothing by itself: goldi_sync_break_exclusion
 * (Goldilocks' alock short-circuit took two such critical sections as
 * ordered). Releases by a thread that does not hold the lock are
 * held_remove's, at run time too. */
static void trace_lock_step(struct goldi_sync *o, goldi_tid_t me, bool taken, bool excl) {
    if (taken) {
        if ((o->trace_writer != GOLDI_TID_NONE && o->trace_writer != me) || (excl && o->trace_readers))
            goldi_sync_break_exclusion(o);
        if (excl)
            o->trace_writer = me;
        else
            o->trace_readers++;
    } else if (excl) {
        if (o->trace_writer == me)
            o->trace_writer = GOLDI_TID_NONE;
    } else if (o->trace_readers) {
        o->trace_readers--;
    }
}

void goldi_dispatch_as_live(const struct goldi_event *ev) {
    switch ((enum goldi_event_kind)ev->kind) {
    case GOLDI_EV_LOCK_ACQ:
    case GOLDI_EV_LOCK_REL:
        trace_lock_step(ev->obj, ev->thr->tid, ev->kind == GOLDI_EV_LOCK_ACQ, ev->mode == GOLDI_LOCK_EXCL);
        break;
    case GOLDI_EV_WAIT_ENTER:
    case GOLDI_EV_WAIT_EXIT:
        trace_lock_step(ev->obj2, ev->thr->tid, ev->kind == GOLDI_EV_WAIT_EXIT, true);
        break;
    default:
        break;
    }
    struct goldi_sink *fs = goldi_dispatch_fast_sink;
    if (fs && (ev->kind == GOLDI_EV_READ || ev->kind == GOLDI_EV_WRITE) && !ev->flags && ev->size &&
        (ev->addr & (GOLDI_GRANULE - 1)) + ev->size <= 2 * GOLDI_GRANULE)
        goldi_sink_access_fast(fs, ev->thr, ev->addr, ev->size, ev->kind == GOLDI_EV_WRITE, ev->pc);
    else
        goldi_dispatch(ev);
}
