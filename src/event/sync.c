/* Synchronization objects, found through a dedicated shadow plane: the word of
 * byte `addr` points to the object living at `addr`. Lookups are one atomic
 * load; creation publishes with compare-and-swap; no table lock.
 * Objects are recycled through a free list and never unmapped, so a pointer
 * held by a racing (buggy) program stays dereferenceable. */
#include "sync.h"
#include "../base/atfork.h"
#include "../base/alloc.h"
#include "../shadow/shadow.h"

static _Atomic uint64_t next_token_id = 1;
static _Atomic unsigned plane_plus1;   /* 0 = not yet created */
static goldi_spinlock_t plane_lock = GOLDI_SPINLOCK_INIT;
static goldi_spinlock_t free_lock = GOLDI_SPINLOCK_INIT;
static struct goldi_sync *free_list;   /* linked through ->next */
static _Atomic size_t n_live;

static unsigned plane(void) {
    unsigned p = atomic_load_explicit(&plane_plus1, memory_order_acquire);
    if (GOLDI_LIKELY(p))
        return p - 1;
    goldi_spin_lock(&plane_lock);
    p = atomic_load_explicit(&plane_plus1, memory_order_relaxed);
    if (!p) {
        p = goldi_shadow_plane_new() + 1;
        atomic_store_explicit(&plane_plus1, p, memory_order_release);
    }
    goldi_spin_unlock(&plane_lock);
    return p - 1;
}

void goldi_token_renew(struct goldi_token *tok) {
    tok->id = atomic_fetch_add_explicit(&next_token_id, 1, memory_order_relaxed);
}

/* Gives o a new life: fresh token ids (engine states keyed on old ids become
 * stale and are reset by their engines) and cleared bookkeeping. */
static void fresh_life(struct goldi_sync *o, uintptr_t addr, enum goldi_sync_kind kind) {
    o->addr = addr;
    o->kind = (uint8_t)kind;
    goldi_token_renew(&o->tok[0]);
    goldi_token_renew(&o->tok[1]);
    o->bar_gen[0] = 0;
    o->bar_gen[1] = 1;
    o->bar_count = 0;
    o->bar_arrivals = 0;
    o->owner = GOLDI_TID_NONE;
    o->depth = 0;
    atomic_store_explicit(&o->exclusion_broken, 0, memory_order_relaxed);
    o->trace_writer = GOLDI_TID_NONE;
    o->trace_readers = 0;
    o->last_storer = GOLDI_TID_NONE;
    atomic_store_explicit(&o->own_mark, 0, memory_order_relaxed);
}

/* An atomic operation's fields and tok[0]'s first engine state share the
 * object's first line: goldi_alloc puts a block 16 bytes past a 64-byte
 * boundary (its header), so 48 bytes of the object are on that line. */
_Static_assert(offsetof(struct goldi_sync, tok[0].estate[1]) <= 48, "hot fields past the first line");

static struct goldi_sync *obj_alloc(void) {
    goldi_spin_lock(&free_lock);
    struct goldi_sync *o = free_list;
    if (o)
        free_list = o->next;
    goldi_spin_unlock(&free_lock);
    if (!o)
        o = goldi_alloc(sizeof *o);
    o->next = NULL;
    atomic_fetch_add_explicit(&n_live, 1, memory_order_relaxed);
    return o;
}

static void obj_recycle(struct goldi_sync *o) {
    /* Renew now so a stale user of o can never match an engine state again. */
    goldi_token_renew(&o->tok[0]);
    goldi_token_renew(&o->tok[1]);
    goldi_spin_lock(&free_lock);
    o->next = free_list;
    free_list = o;
    goldi_spin_unlock(&free_lock);
    atomic_fetch_sub_explicit(&n_live, 1, memory_order_relaxed);
}

struct goldi_sync *goldi_sync_find(uintptr_t addr) {
    goldi_shadow_word_t *w = goldi_shadow_word_if_present(plane(), addr);
    return w ? (struct goldi_sync *)atomic_load_explicit(w, memory_order_acquire) : NULL;
}

struct goldi_sync *goldi_sync_get(uintptr_t addr, enum goldi_sync_kind kind) {
    goldi_shadow_word_t *w = goldi_shadow_word(plane(), addr);
    struct goldi_sync *o = (struct goldi_sync *)atomic_load_explicit(w, memory_order_acquire);
    if (GOLDI_LIKELY(o)) {
        /* Same address used as another kind (e.g. a user lock built on
         * atomics): keep the tokens, so nothing is forgotten; only an explicit
         * init/destroy/free starts a new life. An atomic operation does not
         * read o here: the line is likely another core's (the location's
         * last operation), and reading it before the section's lock takes
         * it fetched it twice, shared and then owned (lockfree: 15 % of
         * goldi's samples on this load, round 59). */
        if (kind != GOLDI_SYNC_ATOMIC && GOLDI_UNLIKELY(o->kind != kind))
            o->kind = (uint8_t)kind;
        return o;
    }
    struct goldi_sync *fresh = obj_alloc();
    fresh_life(fresh, addr, kind);
    uintptr_t expected = 0;
    if (atomic_compare_exchange_strong_explicit(w, &expected, (uintptr_t)fresh, memory_order_acq_rel,
                                                memory_order_acquire))
        return fresh;
    obj_recycle(fresh);
    return (struct goldi_sync *)expected;
}

void goldi_sync_reset(uintptr_t addr) {
    struct goldi_sync *o = goldi_sync_find(addr);
    if (!o)
        return;
    goldi_spin_lock(&o->lock);
    fresh_life(o, addr, (enum goldi_sync_kind)o->kind);
    goldi_spin_unlock(&o->lock);
}

static void forget_one(void *ctx, uintptr_t addr, goldi_shadow_word_t *w) {
    (void)ctx;
    (void)addr;
    struct goldi_sync *o = (struct goldi_sync *)atomic_exchange_explicit(w, 0, memory_order_acq_rel);
    if (o)
        obj_recycle(o);
}

void goldi_sync_forget_range(uintptr_t addr, size_t n) {
    if (!atomic_load_explicit(&n_live, memory_order_relaxed))
        return;
    goldi_shadow_for_each(plane(), addr, n, forget_one, NULL);
}

size_t goldi_sync_count(void) {
    return atomic_load_explicit(&n_live, memory_order_relaxed);
}

static void sync_lock(void) {
    goldi_spin_lock(&plane_lock);
    goldi_spin_lock(&free_lock);
}

static void sync_unlock(void) {
    goldi_spin_unlock(&free_lock);
    goldi_spin_unlock(&plane_lock);
}

__attribute__((constructor(102))) static void sync_atfork_init(void) {
    goldi_atfork_register(GOLDI_ATFORK_SYNC, sync_lock, sync_unlock, sync_unlock);
}
