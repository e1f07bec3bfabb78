/* Owner leases on blocks of inline records: the slow halves (gls_lease.h). */
#include "gls_lease.h"
#include "../../platform/platform.h"
#include "../../base/spinlock.h"

bool gls_lease_revoke_slow(struct gls_leases *L, goldi_shadow_word_t *w, goldi_tid_t owner, uintptr_t locked) {
    uint64_t blk = gls_lease_block(w);
    _Atomic uint64_t *slot = &L->slot[gls_lease_slot(blk)];
    uint64_t s = atomic_load_explicit(slot, memory_order_relaxed);
    uint32_t h = (uint32_t)(s >> GLS_LEASE_KEY_BITS);
    if (s != gls_lease_word(h, blk) || h == 0 || h > GLS_LEASE_HOLDERS)
        return true;   /* (gone meanwhile) */
    /* Another holder of this block plain-updates only records it owns. */
    if (L->busy[h].tid != owner)
        return true;
    if (atomic_compare_exchange_strong_explicit(slot, &s, 0, memory_order_seq_cst, memory_order_relaxed)) {
        atomic_fetch_sub_explicit(&L->live, 1, memory_order_relaxed);
        atomic_fetch_add_explicit(&L->revoked, 1, memory_order_relaxed);
    }
    /* Gone either way (revoked by us, another revoker, or released): a
     * plain update that read the slot before it changed may still be under
     * way. After the barrier it shows in busy. */
    if (!goldi_os_membarrier())
        GOLDI_CHECK(!"membarrier failed after it was registered");
    for (unsigned spins = 0; atomic_load_explicit(&L->busy[h].blk, memory_order_acquire) == blk + 1;)
        goldi_spin_backoff(&spins);
    return atomic_load_explicit(&w[0], memory_order_acquire) == locked;
}

/* Gives back the lease in lt's way i (unless a revoker cleared it: a CAS). */
static void lease_drop(struct gls_leases *L, struct gls_lease_thr *lt, uint32_t i) {
    uint64_t v = lt->way[i];
    if (!v)
        return;
    _Atomic uint64_t *slot = &L->slot[gls_lease_slot(gls_lease_word_block(v))];
    if (atomic_compare_exchange_strong_explicit(slot, &v, 0, memory_order_release, memory_order_relaxed))
        atomic_fetch_sub_explicit(&L->live, 1, memory_order_relaxed);
    lt->way[i] = 0;
    lt->n--;
}

/* Takes the lease of block blk for lt, if its slot is free. */
static void lease_take(struct gls_leases *L, struct gls_lease_thr *lt, uint64_t blk) {
    uint32_t s = gls_lease_slot(blk);
    _Atomic uint64_t *slot = &L->slot[s];
    uint64_t v = atomic_load_explicit(slot, memory_order_relaxed);
    if (v)
        return;   /* another block's, or another thread's */
    uint32_t i = lt->next;
    lt->next = (i + 1) % GLS_LEASE_WAYS;
    lease_drop(L, lt, i);
    /* A full fence (the CAS): a lock bit another thread took before it
     * looked at this slot and found it free is seen by the plain update's
     * read of word 0, which comes after. */
    uint64_t mine = gls_lease_word(lt->holder, blk);
    atomic_fetch_add_explicit(&L->live, 1, memory_order_seq_cst);   /* (first: gls_lease_revoke) */
    if (!atomic_compare_exchange_strong_explicit(slot, &v, mine, memory_order_seq_cst, memory_order_relaxed)) {
        atomic_fetch_sub_explicit(&L->live, 1, memory_order_relaxed);
        return;
    }
    lt->way[i] = mine;
    lt->n++;
    atomic_fetch_add_explicit(&L->taken, 1, memory_order_relaxed);
}

void gls_lease_note_slow(struct gls_leases *L, struct gls_lease_thr *lt, const goldi_shadow_word_t *w,
                         uint64_t pos) {
    if (!lt->holder)
        return;
    uint64_t blk = gls_lease_block(w);
    uint32_t i = blk % GLS_LEASE_SWEEPS;   /* (a loop's streams: blocks apart, most often not 16 apart) */
    if (blk != lt->sweep[i].blk || pos != lt->sweep[i].pos) {
        lt->sweep[i].blk = blk;
        lt->sweep[i].pos = pos;
        lt->sweep[i].n = 1;
    } else if (++lt->sweep[i].n == GLS_LEASE_AFTER) {
        lease_take(L, lt, blk);
    }
}

void gls_lease_release_all_slow(struct gls_leases *L, struct gls_lease_thr *lt) {
    for (uint32_t i = 0; i < GLS_LEASE_WAYS && lt->n; i++)
        lease_drop(L, lt, i);
    lt->hint[0].blk = lt->hint[1].blk = 0;
}

void gls_lease_thread_start(struct gls_leases *L, struct gls_lease_thr *lt, goldi_tid_t tid) {
    lt->holder = 0;
    if (!L->on)
        return;
    for (uint32_t h = 1; h <= GLS_LEASE_HOLDERS; h++) {
        if (L->used[h / 64] >> (h % 64) & 1)
            continue;
        L->used[h / 64] |= UINT64_C(1) << (h % 64);
        L->busy[h].tid = tid;
        lt->holder = h;
        lt->busy = &L->busy[h].blk;
        return;
    }
}

void gls_lease_thread_end(struct gls_leases *L, struct gls_lease_thr *lt) {
    if (!lt->holder)
        return;
    gls_lease_release_all_slow(L, lt);
    atomic_store_explicit(&L->busy[lt->holder].blk, 0, memory_order_release);
    L->used[lt->holder / 64] &= ~(UINT64_C(1) << (lt->holder % 64));
    lt->holder = 0;
}

void gls_lease_fork_child(struct gls_leases *L) {
    for (uint32_t i = 0; i < (1u << GLS_LEASE_SLOT_BITS); i++)
        atomic_store_explicit(&L->slot[i], 0, memory_order_relaxed);
    for (uint32_t h = 0; h <= GLS_LEASE_HOLDERS; h++)
        atomic_store_explicit(&L->busy[h].blk, 0, memory_order_relaxed);
    atomic_store_explicit(&L->live, 0, memory_order_relaxed);
}
