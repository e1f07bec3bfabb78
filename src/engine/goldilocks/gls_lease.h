/* Owner leases: the owner of inline records updates them with plain stores
 * while it sweeps a block of them (docs/goldilocks.md "Leases").
 *
 * Every update of an inline record takes its lock bit with a `lock
 * cmpxchg`, which drains the store buffer: on an array swept once an epoch
 * (stencil, lu) the misses of consecutive granules then no longer overlap,
 * and the locked instruction is about a fifth of stencil's time (round 34).
 * A thread that has updated, in one epoch, GLS_LEASE_WARMUP of its own
 * records and then GLS_LEASE_AFTER in one block (GLS_LEASE_SHIFT: 1024
 * granules' shadow, 8 KiB of memory) takes the block's lease, one slot of a
 * table, with one CAS; while
 * it holds it, its updates of records it owns in the block store without a
 * locked instruction. Any other thread that takes the lock bit of a record
 * whose owner holds the lease on its block revokes the lease: it clears the
 * slot, runs membarrier (every thread of the process runs a full barrier),
 * then waits until the holder is not inside a plain update of that block
 * (its `busy` word). The owner marks busy, then reads the slot, and the
 * other side clears the slot, then reads busy after the barrier (Dekker, the
 * owner's fence supplied by membarrier): either the owner sees the lease
 * gone, or the revoker sees it busy and waits. A plain update the lock bit's
 * CAS could not see may have overwritten the revoker's bit: the revoker
 * checks the word after its wait and takes the bit again.
 *
 * A thread gives its leases back at each of its synchronisation events, so
 * accesses ordered after its sweep (a barrier's next phase reading the
 * band's edge) find no lease and pay no barrier; a revocation is for
 * accesses concurrent with the sweep (a race, or the GC), at most one per
 * lease taken. Without membarrier (an old kernel, seccomp) nothing is ever
 * leased. */
#ifndef GOLDI_GLS_LEASE_H
#define GOLDI_GLS_LEASE_H

#include "../../base/base.h"
#include "../../shadow/shadow.h"

#define GLS_LEASE_SLOT_BITS 12      /* the table: 4096 leases at most */
#define GLS_LEASE_HOLDERS 256       /* threads holding leases at once, at most */
#define GLS_LEASE_WAYS 8            /* leases a thread holds at once */
#define GLS_LEASE_SHIFT 16          /* block of a shadow word: its address >> 16 */
#define GLS_LEASE_AFTER 16          /* owner CAS updates in a block in one epoch that take its lease */
#define GLS_LEASE_WARMUP 64         /* owner CAS updates in an epoch before its blocks are counted */
#define GLS_LEASE_SWEEPS 16         /* blocks whose updates a thread counts at once */
#define GLS_LEASE_KEY_BITS 48       /* slot word: holder << 48 | block */

struct gls_lease_busy {
    _Alignas(64) _Atomic uint64_t blk;   /* block + 1 of the plain update under way, else 0 */
    goldi_tid_t tid;                     /* the holder's thread */
};

struct gls_leases {
    _Atomic uint64_t slot[1u << GLS_LEASE_SLOT_BITS];   /* holder << 48 | block, or 0 */
    struct gls_lease_busy busy[GLS_LEASE_HOLDERS + 1];  /* by holder (1..) */
    uint64_t used[(GLS_LEASE_HOLDERS + 64) / 64];       /* holders in use (caller's lock) */
    bool on;                                            /* membarrier works */
    _Atomic uint64_t live;                              /* leases held: none, nothing to revoke */
    _Atomic uint64_t taken, revoked;                    /* (stats) */
};

/* A thread's side (in its engine state; single writer). The access path's
 * fields first. */
struct gls_lease_thr {
    uint32_t n;                           /* leases held */
    uint32_t epoch_n;                     /* owner CAS updates in the epoch starting at epoch */
    uint64_t epoch;
    struct {                              /* the leases last confirmed, most recent first (a
                                             loop's read and write streams: two blocks) */
        uint64_t blk;                     /* block (0: none) ... */
        _Atomic uint64_t *slot;           /* ... its slot ... */
        uint64_t word;                    /* ... and the slot's word while it is held */
    } hint[2];
    _Atomic uint64_t *busy;               /* &busy[holder].blk */
    uint32_t holder;                      /* 1.., 0: takes no lease */
    uint32_t next;                        /* way replaced next */
    uint64_t way[GLS_LEASE_WAYS];         /* slot word of each lease held (or revoked since), 0 = none */
    struct {                              /* blocks of recent owner CAS updates, by hash (a loop's streams
                                             interleave): how many in the epoch starting at pos */
        uint64_t blk, pos;
        uint32_t n;
    } sweep[GLS_LEASE_SWEEPS];
};

GOLDI_INLINE uint64_t gls_lease_block(const goldi_shadow_word_t *w) { return (uintptr_t)w >> GLS_LEASE_SHIFT; }
GOLDI_INLINE uint32_t gls_lease_slot(uint64_t blk) {
    return (uint32_t)((blk * UINT64_C(0x9E3779B97F4A7C15)) >> (64 - GLS_LEASE_SLOT_BITS));
}
GOLDI_INLINE uint64_t gls_lease_word(uint32_t holder, uint64_t blk) {
    return (uint64_t)holder << GLS_LEASE_KEY_BITS | blk;
}
GOLDI_INLINE uint64_t gls_lease_word_block(uint64_t word) { return word & ((UINT64_C(1) << GLS_LEASE_KEY_BITS) - 1); }

/* Does lt hold the lease of w's block? Then marks lt busy in it and
 * returns true; the caller reads the record's word 0 again (another thread
 * may hold its bit), updates it with plain stores and calls gls_lease_done.
 * The slot is read after busy is marked, so a revoker either finds lt busy
 * or lt finds the lease gone. */
GOLDI_INLINE bool gls_lease_enter(const struct gls_leases *L, struct gls_lease_thr *lt, const goldi_shadow_word_t *w) {
    if (!lt->n)
        return false;
    uint64_t blk = gls_lease_block(w);
    unsigned h = blk == lt->hint[0].blk ? 0 : 1;
    if (blk != lt->hint[h].blk) {
        const _Atomic uint64_t *s = &L->slot[gls_lease_slot(blk)];
        uint64_t word = gls_lease_word(lt->holder, blk);
        if (atomic_load_explicit(s, memory_order_relaxed) != word)
            return false;
        lt->hint[1] = lt->hint[0];
        lt->hint[0].blk = blk;
        lt->hint[0].slot = (_Atomic uint64_t *)s;
        lt->hint[0].word = word;
        h = 0;
    }
    atomic_store_explicit(lt->busy, blk + 1, memory_order_relaxed);
    atomic_signal_fence(memory_order_seq_cst);   /* (the hardware's fence: a revoker's membarrier) */
    if (GOLDI_LIKELY(atomic_load_explicit(lt->hint[h].slot, memory_order_relaxed) == lt->hint[h].word))
        return true;
    atomic_store_explicit(lt->busy, 0, memory_order_release);
    lt->hint[h].blk = 0;
    return false;
}

GOLDI_INLINE void gls_lease_done(struct gls_lease_thr *lt) {
    atomic_signal_fence(memory_order_seq_cst);
    atomic_store_explicit(lt->busy, 0, memory_order_release);
}

/* Called by a thread other than `owner` (GOLDI_TID_NONE: the GC) that has
 * just taken the lock bit of w's record (owned by `owner`, word 0 now
 * `locked`): revokes owner's lease on the block if it holds one. True if
 * the bit is still the caller's; false if a plain update overwrote it (the
 * caller takes it again). */
bool gls_lease_revoke_slow(struct gls_leases *L, goldi_shadow_word_t *w, goldi_tid_t owner, uintptr_t locked);
GOLDI_INLINE bool gls_lease_revoke(struct gls_leases *L, goldi_shadow_word_t *w, goldi_tid_t owner, uintptr_t locked) {
    /* (after the caller's CAS: a lease taken later, its count raised first,
     * lets the holder see the caller's bit) */
    if (GOLDI_LIKELY(!atomic_load_explicit(&L->live, memory_order_relaxed)))
        return true;
    uint64_t blk = gls_lease_block(w);
    uint64_t s = atomic_load_explicit(&L->slot[gls_lease_slot(blk)], memory_order_relaxed);
    if (GOLDI_LIKELY(!s || gls_lease_word_block(s) != blk))
        return true;
    return gls_lease_revoke_slow(L, w, owner, locked);
}

/* An owner CAS update by lt of its record at w in its epoch starting at
 * pos: past GLS_LEASE_WARMUP updates in the epoch, counts the block's, and
 * takes its lease at the GLS_LEASE_AFTER-th (a lease lasts until the epoch
 * ends: a critical section that touches a few records takes none). */
void gls_lease_note_slow(struct gls_leases *L, struct gls_lease_thr *lt, const goldi_shadow_word_t *w,
                         uint64_t pos);
GOLDI_INLINE void gls_lease_note(struct gls_leases *L, struct gls_lease_thr *lt, const goldi_shadow_word_t *w,
                                 uint64_t pos) {
    if (pos != lt->epoch) {
        lt->epoch = pos;
        lt->epoch_n = 0;
    }
    if (GOLDI_UNLIKELY(++lt->epoch_n > GLS_LEASE_WARMUP))
        gls_lease_note_slow(L, lt, w, pos);
}

/* Gives back every lease lt holds (its synchronisation events). */
void gls_lease_release_all_slow(struct gls_leases *L, struct gls_lease_thr *lt);
GOLDI_INLINE void gls_lease_release_all(struct gls_leases *L, struct gls_lease_thr *lt) {
    if (GOLDI_UNLIKELY(lt->n))
        gls_lease_release_all_slow(L, lt);
}

/* A holder number for a thread (0: none left, or leases off); and back.
 * Under the engine's thread lock. */
void gls_lease_thread_start(struct gls_leases *L, struct gls_lease_thr *lt, goldi_tid_t tid);
void gls_lease_thread_end(struct gls_leases *L, struct gls_lease_thr *lt);

/* A fork child: no lease and no plain update survives (their threads did not). */
void gls_lease_fork_child(struct gls_leases *L);

#endif
