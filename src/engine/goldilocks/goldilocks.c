/* The Goldilocks engine (Elmas, Qadeer, Tasiran; ALGORITHMS.md 2.3): precise
 * happens-before via lazily evaluated locksets, read/write extension in FULL
 * mode (2.0), C11 token rules, and a bounded update list (docs/goldilocks.md).
 * Runs inside the user's process: no libc, no malloc, never calls rt/.
 *
 * State:
 *   byte b: a gls_var in our shadow plane: entries W, R(u), AW(u), AR(u)
 *           (at most one per (kind, u); W at most once; every entry is later
 *           than W in trace order because a plain write frees the others).
 *   thread: gls_thr in thr->estate[index] (walk map and access scratch).
 *   global: the update list (gls_list.c), the entry pool, live threads.
 * Locking: a byte's var and entries only under the byte's granule lock (held
 * by the dispatcher around on_access, taken by the reset of freed memory and
 * by the GC one at a time). Inside it we take only leaf locks (list slot,
 * pool, allocator): never a sync object's lock. */
#include "gls.h"
#include "gls_lease.h"
#include "../../base/atfork.h"
#include "../../base/alloc.h"
#include "../../base/window.h"
#include "../../base/fmt.h"
#include "../../platform/platform.h"
#include "../../shadow/shadow.h"

/* Live cells beyond which the GC moves entries off the oldest chunks and
 * frees them, down to half of it (gc_try): the budget. A run walks cells
 * after the chunks it frees and moves every record registered in them;
 * records nobody touches (a table every thread read once) are moved by every
 * run, so their cost per appended cell grows as the budget shrinks. Each run
 * therefore sets the next budget to GLS_BUDGET_FACTOR times the records it
 * or the run before moved (granules visited and entries), between 2^17
 * cells (2 MiB) and 2^19 (8 MiB). A run per 2^16 cells spent a third of a
 * lock-heavy run there (hashtable, whose idle nodes now keep 2^19), while
 * multiset, pipeline, lockfree and sharedspot keep 2 MiB of cells and half
 * their peak memory or less (multiset's walks, which stop early at 2^19,
 * cost it ~1.5 % more instructions: docs/performance.md, round 29). */
#define GLS_BUDGET_MIN (UINT64_C(1) << 17)
#define GLS_BUDGET_MAX (UINT64_C(1) << 19)
#define GLS_BUDGET_FACTOR 8
/* A run closes chunks until their registries held this many records
 * (an entry ref counts one, a granule ref each granule of its run: the GC
 * may expand every one into entries), then stops short of half the budget
 * (at least one chunk a run): the rest waits for the next chunk. The GC's
 * scratch (about 130 bytes a record: the ref, its snapshot, its class,
 * their hash slots) keeps the size of the largest run, and a program that
 * places many records per cell (read-shared data re-read after every lock
 * pair; fewer cells since a lock's last holder appends none) closed about
 * a million refs at once: 63-126 MB of scratch in stress/inline_churn,
 * 11-23 MB with a cap of 256 Ki refs (round 31). Round 47: a cap of 32 Ki
 * records took the peak RSS of hashtable, threadpool and multiset to 0.84,
 * 0.84 and 0.86 of round 46's at the same time (threadpool's runs had
 * expanded 66 K records from fewer refs: 18 MB of scratch, now 4.6). */
#define GLS_GC_REFS (UINT32_C(1) << 15)
#define GLS_BATCH 64                  /* sets evaluated by one walk (mask bits) */

/* --- stats ------------------------------------------------------------------ */

#define GLS_STATS(X)                                                  \
    X(ACCESSES, "accesses_checked")                                   \
    X(OWNER_SC, "owner_short_circuits")                               \
    X(ALOCK_SC, "alock_short_circuits")                               \
    X(WALKS, "walks")                                                 \
    X(CELLS_WALKED, "cells_walked")                                   \
    X(RACES, "races")                                                 \
    X(CELLS, "cells_appended")                                        \
    X(GC_RUNS, "gc_runs")                                             \
    X(SWEEPS, "any_sweeps")                                           \
    X(GC_CELLS, "gc_cells_walked")                                    \
    X(MATERIALISED, "entries_materialised")                           \
    X(ANY, "any_compressions")                                        \
    X(CACHED, "cached_verdicts")                                      \
    X(KEPT, "records_kept")                                           \
    X(SHARED, "records_shared")                                       \
    X(RECORDED, "records_placed")                                     \
    X(MOVED, "records_moved")                                         \
    X(INL_NEW, "inline_records")                                      \
    X(INL_FAST, "inline_fast_updates")                                \
    X(INL_SLOW, "inline_slow_updates")                                \
    X(INL_EXPAND, "inline_expansions")                                \
    X(INL_CONTRACT, "inline_contractions")                            \
    X(ENTRIES, "entries_live")                                        \
    X(KEPT_FAST, "records_kept_lockfree")                            \
    X(INL_FOREIGN, "inline_foreign_updates")                          \
    X(PACK_NEW, "packed_records")                                     \
    X(PACK_UPDATE, "packed_updates")                                  \
    X(PACK_EXPAND, "packed_expansions")                               \
    X(PACK_CONTRACT, "packed_contractions")                           \
    X(ORC_HIT, "origin_cache_hits")                                   \
    X(ORC_MISS, "origin_cache_misses")                                \
    X(INL_FOREIGN_FAST, "inline_foreign_lockfree")                     \
    X(INL_HALF, "inline_half_records")                                \
    X(FROZEN, "gc_classes_unwalked")                                  \
    X(GC_ANY_STOP, "gc_walks_stopped_any")                           \
    X(GC_GRANULES, "gc_granules_visited")                             \
    X(GC_SNAPS, "gc_entries_snapshot")                               \
    X(ACQ_SKIPPED, "acquire_cells_skipped")                          \
    X(INL_LEASED, "inline_leased_updates")                           \
    X(ATOMIC_LOCKFREE, "atomic_records_lockfree")                      \
    X(REL_DEFERRED, "release_cells_deferred")                         \
    X(REL_SAVED, "release_cells_saved")                               \
    X(REL_FOR_OTHER, "release_cells_for_others")                      \
    X(DEAD_MARKS, "barrier_dead_marks")                               \
    X(DEAD_DROPPED, "cells_dead_dropped")
enum {
#define X(n, s) GLS_ST_##n,
    GLS_STATS(X)
#undef X
    GLS_ST_COUNT
};
static const char *const gls_stat_names[GLS_ST_COUNT] = {
#define X(n, s) "goldilocks." s,
    GLS_STATS(X)
#undef X
};
/* Sharded by tid so threads rarely share a cache line. */
#define GLS_SHARDS 16
struct gls_shard {
    _Atomic uint64_t v[GLS_ST_COUNT];
} __attribute__((aligned(64)));

/* --- engine ------------------------------------------------------------------- */

#define THR_PAGE_BITS 12
#define THR_PAGES 1024                /* 4 Mi thread ids tracked for ANY */
enum { THR_UNKNOWN = 0, THR_LIVE = 1, THR_DEAD = 2 };

/* Per-thread knowledge from earlier walks: for owner u, the latest pos p
 * such that t is in {u}@p (an entry's set when it has no materialised set).
 * Exact for ever and for every pos <= p: thread tokens are never removed, a
 * set started earlier holds a superset at every later point ({u} grows over
 * [p0, p) into a superset of {u}) and the token rules are monotone in the set
 * (add: a in LS => b; store: b := [a in LS]), so t in {u}@p implies t in
 * {u}@p0 for p0 <= p. With pos normalised to the owner's epoch start (see
 * gls_thr.epoch_pos) one walk serves every entry the owner recorded in that
 * epoch and all earlier ones: the lazy analogue of a vector-clock entry. */
#define GLS_OC_BITS 8
struct gls_oc {
    uint64_t pos1;                    /* p + 1; 0 = empty */
    goldi_tid_t owner;
};

/* Walk verdicts for materialised sets: "t is in mat evaluated from pos".
 * Entries the GC materialised together share pos and set (one class of
 * gc_dedup) but not the allocation, so a slot keeps its own copy of the
 * tokens and a hit compares them all: exact, and far cheaper than walking
 * from the oldest live cell again. */
#define GLS_MC_SLOTS 16
struct gls_mc {
    struct gls_mat *set;              /* private copy; NULL = empty */
    uint64_t pos;
};

/* Entries in a full magazine (a thread keeps two before it returns one to
 * the pool), and a list of free entries. */
#define GLS_LOCAL_FREE 256
struct gls_mag {
    struct gls_entry *head, *tail;
    uint32_t n;
};

/* Per-thread site cache (see access_origin): sites (the origin's half
 * without the locks, event.h) keyed by the access's pc, kind and size and
 * the identity and depth of the thread's shadow stack (event.h: equal
 * identity and depth are the same frames, and a call path keeps its
 * identity from one call to the next), so a hit is exact with no look at
 * the frames. A stack whose path lost its identity (the path memo dropped
 * it) interns its sites again, and the depot finds them by content. Held
 * locks are no part of the key: the lock set is composed in after the
 * lookup, so code under many different locks (one per bucket, per
 * variable) needs one slot per pc, not per (pc, lock): multiset's ~4000
 * origins per thread are ~20 sites. 1024 slots in two ways. */
#define GLS_ORC_BITS 10
struct gls_orc {
    uint64_t stack_id;
    uintptr_t pc;
    uint32_t kind_size;              /* kind << 24 | size */
    uint32_t depth;
    goldi_site_t site;               /* 0 = empty */
};

/* The lock-free kept test (kept_fast, pack_kept_fast) reads every entry
 * word of a granule that is not inline, and helps only when the thread
 * accessed the bytes already in this epoch and the filter did not answer.
 * Where each access is a new epoch (multiset's reads under a bucket lock)
 * it never succeeds: a thread whose window of KEPT_WINDOW tries had fewer
 * than 1 in 32 successes skips it for KEPT_SKIP accesses, then tries again.
 * Skipping is always sound: the access takes the general path. */
#define KEPT_WINDOW 4096u
#define KEPT_SKIP 65536u

/* A release cell deferred (pend_defer) and then flushed costs a CAS on
 * the lock's line more than the eager cell, and another core taking the
 * lock may own that line. Sharedspot's threads go from one spot's lock to
 * another's and never retake one: with every release deferred it read
 * 1.16 of round 60's time side by side (3 rounds), with this window and
 * the profile retrained 0.94 (5 rounds). So a thread defers in windows of
 * DEFER_WINDOW releases, and a window with fewer than a quarter resumed is
 * followed by DEFER_SKIP eager releases (multiset resumes 60 %). */
#define DEFER_WINDOW 64u
#define DEFER_SKIP 4096u

/* An atomic location (its token's id) whose stores up to the writes-th
 * the thread has acquired (acq_atomic); id 0: empty. */
#define GLS_ACQ_MEMO 16
struct gls_acq_memo {
    uint64_t id, writes;
};

/* Granules [lo, lo + len) registered in chunk `chunk` ahead of their
 * records, which a thread's sweep creates next (new_granule_registered;
 * a sweep over more arrays at once finds the rest registered when it
 * pushes: gls_list_register_new_granule). */
#define GLS_AHEAD 2
struct gls_ahead {
    uintptr_t lo, len;
    uint64_t chunk;
};

struct gls_tscratch;
struct gls_thr {
    /* First cell id after the thread's last own cell. Cells whose condition
     * can be in a fresh set {t} are t's own (a JOIN cell "t => parent" comes
     * after t's exit), so {t} started anywhere in [epoch_pos, tail] stays {t}
     * up to the tail: all those starts are the same set, and an entry of t may
     * use epoch_pos as its pos (and keep it while no cell of t follows).
     * GLS_POS_PENDING while t's last release cell is deferred (pend_*). */
    uint64_t epoch_pos;
    struct gls_lease_thr lease;       /* the leases t holds (gls_lease.h; its hot fields in this line) */
    bool rel_fenced;                  /* t issued a release fence: some set may hold Frel(t) */
    /* t's deferred release cell (pend_defer): the lock token's slot, the
     * value t left in it (tok_pend) and the epoch_pos it had then */
    void **pend_slot;
    uintptr_t pend_val;
    uint64_t pend_epoch;
    struct goldi_window defer_window; /* deferrals tried, hits: those a retake made unneeded (pend_defer) */
    struct gls_map map;               /* walk scratch */
    struct gls_tscratch *sc;          /* access scratch (kept off the user's stack) */
    struct gls_mag cur, spare;        /* free entries: no pool lock on the common path (entry_new) */
    struct gls_thr *next, *prev;      /* g->thrs, for stats */
    _Atomic uint64_t st[48];          /* hot counters, single writer (relaxed load+store) */
    struct gls_oc oc[1u << GLS_OC_BITS];
    struct gls_mc mc[GLS_MC_SLOTS];
    struct gls_orc orc[1u << GLS_ORC_BITS];
    _Atomic uint32_t in_gran;         /* holds a granule lock (gran_lock): fork waits for 0 */
    struct goldi_thr *thr;            /* (its joining mark, for the GC) */
    struct goldi_window kept_window;  /* lock-free kept tries (kept_try) */
    struct gls_leases *leases;        /* the engine's (gls_lease.h) */
    struct gls_acq_memo acq_memo[GLS_ACQ_MEMO];   /* atomic locations t is up to date with (acq_atomic) */
    const struct goldi_event *free_fused;   /* the FREE whose whole granules gls_on_free_fast reset */
    struct gls_ahead ahead[GLS_AHEAD];   /* t's sweeps' runs registered ahead (new_granule_registered) */
    uint32_t ahead_next;              /* (the one new_granule_registered replaces next) */
};

/* A thread's entries ordered before a participant by the FORK that
 * created it: those of `parent` with pos below `bound` (the parent's
 * epoch_pos right after its FORK cell). */
#define GLS_DEAD_PARENTS 4
struct gls_parent {
    goldi_tid_t tid;
    uint64_t bound;                  /* 0: none */
};

/* A barrier generation under way: its participants (tids[0..arrived)), the
 * least epoch_pos one of them had right after its arrival cell, and the
 * threads that forked participants (par). */
#define GLS_BARS 8
#define GLS_BAR_MAX 64               /* participants a dead mark can name (one 64-bit window) */
struct gls_bar {
    uint64_t tok;                    /* the generation's token id (0: slot free) */
    uint32_t count, arrived, departed;
    bool early;                      /* an arrival came after a departure: not every departure
                                        is ordered after every arrival (a text trace's) */
    uint64_t below;
    struct gls_parent par[GLS_DEAD_PARENTS];
    goldi_tid_t tids[GLS_BAR_MAX];
};

/* The FORK of `child`, kept (bar_note_fork) until the child arrives at a
 * barrier: the last GLS_FORK_NOTES forks, by child tid. */
#define GLS_FORK_NOTES 64
struct gls_fork_note {
    goldi_tid_t child;
    struct gls_parent parent;
};

/* The dead mark (docs/goldilocks.md "Dead marks"): every entry of a thread
 * in base + {bits of mask} with pos < below, and of each par[i].tid with
 * pos < par[i].bound, is ordered before every access any thread will make,
 * so the record rule may drop it. A seqlock (seq odd while bar_depart
 * rewrites it); its own lines, read by every thread. */
struct gls_dead {
    _Atomic uint64_t seq, below, mask;
    _Atomic uint32_t base;
    _Atomic uint32_t par_tid[GLS_DEAD_PARENTS];
    _Atomic uint64_t par_bound[GLS_DEAD_PARENTS];
} __attribute__((aligned(64)));

#define POOL_MAGS 4096                /* full magazines the pool holds; beyond: a loose list */
struct gls_engine {
    struct goldi_engine_env env;
    struct gls_list *list;
    /* entry pool: type-stable slabs, free magazines (a thread's and the pool's) */
    goldi_spinlock_t pool_lock;
    struct gls_mag mags[POOL_MAGS];  /* full magazines */
    uint32_t n_mags;
    struct gls_mag loose;            /* entries freed by the GC, magazines beyond POOL_MAGS */
    struct gls_entry *slab;
    uint32_t slab_left;
    _Atomic uint64_t pool_entries;    /* entries ever carved from slabs: the pool's size */
    _Atomic uint64_t sweep_at;       /* pool size that asks for an ANY sweep (gc_sweep) */
    _Atomic bool sweep_wanted;
    /* live threads, for ANY compression (2.3 (d)) */
    _Atomic(_Atomic uint8_t *) thr_pages[THR_PAGES];
    _Atomic uint64_t n_live;
    _Atomic bool thr_overflow;       /* a tid beyond the table: no ANY compression */
    /* thread states (stats): list under thr_lock */
    goldi_spinlock_t thr_lock;
    struct gls_thr *thrs;
    /* GC: one at a time (trylock) */
    goldi_spinlock_t gc_lock;
    uint64_t gc_written;             /* chunks below are known fully written (under gc_lock) */
    _Atomic uint64_t budget;         /* live cells that start a GC run (GLS_BUDGET_MIN above) */
    uint64_t gc_moved_last;          /* records the last run moved (under gc_lock) */
    struct gls_map gc_map;
    struct gls_gc_scratch *gc_scratch;
    _Atomic uint64_t cells_peak;
    _Atomic bool forked_child;       /* this process is a fork child: inline lock bits may be orphaned */
    _Atomic uint32_t fork_gate;      /* a fork is being prepared: no new granule locks (gran_lock) */
    struct gls_shard st[GLS_SHARDS];
    struct gls_leases leases;        /* owners' leases on blocks of inline records */
    /* barrier generations under way (bar_arrive, bar_depart), under bar_lock */
    goldi_spinlock_t bar_lock;
    struct gls_bar bars[GLS_BARS];
    uint32_t bar_next;               /* (the slot a generation takes when none is free) */
    struct gls_fork_note forks[GLS_FORK_NOTES];
    struct gls_dead dead;            /* the latest dead mark (dead_view) */
};

/* gls_thr.epoch_pos while t's release cell is deferred (pend_defer): no
 * access of t may use it, so every entry of the engine tests for it first
 * (pend_check) and appends the cell; only the lock's retake resumes it. */
#define GLS_POS_PENDING UINT64_MAX
static void pend_flush(struct gls_engine *g, struct gls_thr *ts, goldi_tid_t t);
GOLDI_INLINE void pend_check(struct gls_engine *g, struct gls_thr *ts, goldi_tid_t t) {
    if (GOLDI_UNLIKELY(ts && ts->epoch_pos == GLS_POS_PENDING))
        pend_flush(g, ts, t);
}

static void stat(struct gls_engine *g, goldi_tid_t t, unsigned k, uint64_t d) {
    atomic_fetch_add_explicit(&g->st[t & (GLS_SHARDS - 1)].v[k], d, memory_order_relaxed);
}

/* Hot-path counter of the calling thread: a plain add, no locked instruction. */
GOLDI_INLINE void tstat(struct gls_thr *ts, unsigned k, uint64_t d) {
    atomic_store_explicit(&ts->st[k], atomic_load_explicit(&ts->st[k], memory_order_relaxed) + d,
                          memory_order_relaxed);
}

/* --- live threads ------------------------------------------------------------------ */

static _Atomic uint8_t *thr_cell(struct gls_engine *g, goldi_tid_t tid) {
    uint32_t p = tid >> THR_PAGE_BITS;
    if (p >= THR_PAGES) {
        atomic_store(&g->thr_overflow, true);
        return NULL;
    }
    _Atomic uint8_t *page = atomic_load_explicit(&g->thr_pages[p], memory_order_acquire);
    if (!page) {
        _Atomic uint8_t *fresh = goldi_alloc(1u << THR_PAGE_BITS);
        _Atomic uint8_t *expected = NULL;
        if (atomic_compare_exchange_strong(&g->thr_pages[p], &expected, fresh))
            page = fresh;
        else {
            goldi_free((void *)fresh);
            page = expected;
        }
    }
    return &page[tid & ((1u << THR_PAGE_BITS) - 1)];
}

/* Marks are changed under thr_lock, so that dead_mark_valid sees the
 * cells and n_live of one moment. */
static void thr_mark_live(struct gls_engine *g, goldi_tid_t tid) {
    _Atomic uint8_t *c = thr_cell(g, tid);
    uint8_t expected = THR_UNKNOWN;
    if (!c || atomic_load_explicit(c, memory_order_relaxed) != THR_UNKNOWN)
        return;
    goldi_spin_lock(&g->thr_lock);
    if (atomic_compare_exchange_strong(c, &expected, THR_LIVE))
        atomic_fetch_add(&g->n_live, 1);
    goldi_spin_unlock(&g->thr_lock);
}

static void thr_mark_dead(struct gls_engine *g, goldi_tid_t tid) {
    _Atomic uint8_t *c = thr_cell(g, tid);
    uint8_t expected = THR_LIVE;
    if (!c)
        return;
    goldi_spin_lock(&g->thr_lock);
    if (atomic_compare_exchange_strong(c, &expected, THR_DEAD))
        atomic_fetch_sub(&g->n_live, 1);
    goldi_spin_unlock(&g->thr_lock);
}

static bool thr_is_live(struct gls_engine *g, goldi_tid_t tid) {
    uint32_t p = tid >> THR_PAGE_BITS;
    if (p >= THR_PAGES)
        return false;
    _Atomic uint8_t *page = atomic_load_explicit(&g->thr_pages[p], memory_order_acquire);
    return page && atomic_load(&page[tid & ((1u << THR_PAGE_BITS) - 1)]) == THR_LIVE;
}

static struct gls_thr *thr_state(struct gls_engine *g, struct goldi_thr *thr) {
    struct gls_thr *s = thr->estate[g->env.index];
    if (GOLDI_LIKELY(s))
        return s;
    _Static_assert(GLS_ST_COUNT <= 48, "gls_thr.st too small");
    s = goldi_alloc_thread_state(sizeof *s, 0, 0);
    gls_map_init(&s->map);
    /* No cell of the thread exists yet: any start up to the tail is its epoch. */
    s->epoch_pos = atomic_load(&g->list->tail);
    s->kept_window.left = KEPT_WINDOW;
    s->defer_window.left = DEFER_WINDOW;
    s->leases = &g->leases;
    goldi_spin_lock(&g->thr_lock);
    gls_lease_thread_start(&g->leases, &s->lease, thr->tid);
    s->next = g->thrs;
    if (g->thrs)
        g->thrs->prev = s;
    g->thrs = s;
    goldi_spin_unlock(&g->thr_lock);
    thr->estate[g->env.index] = s;
    s->thr = thr;
    /* A thread nobody forked (T0) becomes live at its first event. */
    thr_mark_live(g, thr->tid);
    return s;
}

/* --- dead marks (docs/goldilocks.md "Dead marks") -----------------------------------------
 * When every live thread has passed one barrier generation, every entry a
 * participant made before its arrival is ordered before every access any
 * thread makes from then on: its set holds every participant once they all
 * departed (each arrival adds the generation's token, each departure adds
 * the departing thread to every set holding it), a thread forked later is
 * forked by a thread ordered after it, and a thread parked in pthread_join
 * of a participant is added by its JOIN cell before it runs again. Such an
 * entry is ANY (§2.3 (d)) without a walk, and a record may drop it: radix's
 * scatter writes half a granule whose other half still holds the last
 * pass's W and R, which otherwise stay beside the new W (a packed granule)
 * until the other half is written too. An entry of participant u made
 * before u's arrival has a pos below u's epoch_pos right after its arrival
 * cell (entries after it have that pos or later: a signal handler run
 * while u waits, too), so the mark's bound is the least of those. The
 * entries a thread made before its FORK of a participant are in every set
 * holding that participant, so the mark covers them too (the main thread's
 * initial data, before it parks joining its workers). The mark is set at
 * the generation's last departure, when no participant can run code before
 * its departure any more (a handler while it waits). */

/* Is every live thread a participant of b (tids in base + mask), or parked
 * joining one? Caller holds bar_lock. */
static bool dead_mark_valid(struct gls_engine *g, uint32_t base, uint64_t mask) {
    if (atomic_load(&g->thr_overflow))
        return false;
    uint64_t in = 0;
    bool valid = true;
    goldi_spin_lock(&g->thr_lock);   /* (marks change under it: cells and n_live of one moment) */
    for (uint64_t m = mask; m; m &= m - 1)
        in += thr_is_live(g, base + (goldi_tid_t)__builtin_ctzll(m));
    for (struct gls_thr *s = g->thrs; s && valid; s = s->next) {
        goldi_tid_t t = s->thr->tid;
        if ((t - base < 64 && (mask >> (t - base) & 1)) || !thr_is_live(g, t))
            continue;
        /* (marked: t runs no code before its JOIN cell, which adds t to
         * every set holding the participant it joins) */
        uint32_t j = atomic_load(&s->thr->joining);
        valid = j && j - 1 - base < 64 && (mask >> (j - 1 - base) & 1);
        in++;
    }
    valid = valid && in == atomic_load(&g->n_live);   /* (a live thread without a state yet: not counted) */
    goldi_spin_unlock(&g->thr_lock);
    return valid;
}

/* The slot of generation tok, taken if new (a generation that loses its
 * slot to another never sets a mark: its counts never complete). Caller
 * holds bar_lock. */
static struct gls_bar *bar_slot(struct gls_engine *g, uint64_t tok, bool take) {
    struct gls_bar *free_slot = NULL;
    for (unsigned i = 0; i < GLS_BARS; i++) {
        if (g->bars[i].tok == tok)
            return &g->bars[i];
        if (!g->bars[i].tok && !free_slot)
            free_slot = &g->bars[i];
    }
    if (!take)
        return NULL;
    if (!free_slot)
        free_slot = &g->bars[g->bar_next++ % GLS_BARS];
    free_slot->tok = tok;   /* (tids[] is written before it is read: no memset) */
    free_slot->count = free_slot->arrived = free_slot->departed = 0;
    free_slot->early = false;
    free_slot->below = 0;
    for (unsigned i = 0; i < GLS_DEAD_PARENTS; i++)
        free_slot->par[i].bound = 0;
    return free_slot;
}

/* parent's FORK of child, after its FORK cell (bound: parent's epoch_pos
 * then). */
static void bar_note_fork(struct gls_engine *g, goldi_tid_t parent, goldi_tid_t child, uint64_t bound) {
    goldi_spin_lock(&g->bar_lock);
    g->forks[child % GLS_FORK_NOTES] = (struct gls_fork_note){ child, { parent, bound } };
    goldi_spin_unlock(&g->bar_lock);
}

/* Adds p to the parents of b (the larger bound for a parent already there;
 * none added when b has no room: its entries simply stay). */
static void bar_add_parent(struct gls_bar *b, struct gls_parent p) {
    for (unsigned i = 0; i < GLS_DEAD_PARENTS; i++) {
        if (b->par[i].bound && b->par[i].tid != p.tid)
            continue;
        if (p.bound > b->par[i].bound)
            b->par[i] = p;
        return;
    }
}

/* t's arrival at a generation of a barrier of count threads, after its
 * arrival cell. */
static void bar_arrive(struct gls_engine *g, struct gls_thr *ts, goldi_tid_t t, uint64_t tok, uint32_t count) {
    if (!count || count > GLS_BAR_MAX)
        return;
    goldi_spin_lock(&g->bar_lock);
    struct gls_bar *b = bar_slot(g, tok, true);
    b->early |= b->departed != 0;   /* (a pthread barrier's departures wait for every arrival) */
    if (b->arrived < GLS_BAR_MAX) {
        b->count = count;
        b->below = b->arrived && b->below < ts->epoch_pos ? b->below : ts->epoch_pos;
        b->tids[b->arrived++] = t;
        const struct gls_fork_note *f = &g->forks[t % GLS_FORK_NOTES];
        if (f->child == t && f->parent.bound)
            bar_add_parent(b, f->parent);
    }
    goldi_spin_unlock(&g->bar_lock);
}

/* A departure from generation tok: the last one sets the dead mark when
 * every live thread took part (and the mark moves forward). */
static void bar_depart(struct gls_engine *g, struct gls_thr *ts, uint64_t tok) {
    goldi_spin_lock(&g->bar_lock);
    struct gls_bar *b = bar_slot(g, tok, false);
    if (b && ++b->departed == b->count) {
        uint32_t base = UINT32_MAX;
        uint64_t mask = 0;
        bool fits = b->arrived == b->count && !b->early;
        for (uint32_t i = 0; i < b->arrived; i++)
            base = b->tids[i] < base ? b->tids[i] : base;
        for (uint32_t i = 0; fits && i < b->arrived; i++) {
            fits = b->tids[i] - base < 64;
            mask |= fits ? UINT64_C(1) << (b->tids[i] - base) : 0;
        }
        struct gls_dead *d = &g->dead;
        if (fits && b->below > atomic_load_explicit(&d->below, memory_order_relaxed) &&
            dead_mark_valid(g, base, mask)) {
            uint64_t seq = atomic_load_explicit(&d->seq, memory_order_relaxed);
            atomic_store_explicit(&d->seq, seq + 1, memory_order_relaxed);
            atomic_thread_fence(memory_order_release);
            atomic_store_explicit(&d->below, b->below, memory_order_relaxed);
            atomic_store_explicit(&d->base, base, memory_order_relaxed);
            atomic_store_explicit(&d->mask, mask, memory_order_relaxed);
            for (unsigned i = 0; i < GLS_DEAD_PARENTS; i++) {
                atomic_store_explicit(&d->par_tid[i], b->par[i].tid, memory_order_relaxed);
                atomic_store_explicit(&d->par_bound[i], b->par[i].bound, memory_order_relaxed);
            }
            atomic_store_explicit(&d->seq, seq + 2, memory_order_release);
            tstat(ts, GLS_ST_DEAD_MARKS, 1);
        }
        b->tok = 0;
    }
    goldi_spin_unlock(&g->bar_lock);
}

/* The dead mark as one consistent copy (below 0 and no parents: none, or
 * being rewritten). */
struct gls_dead_view {
    uint64_t below, mask;
    uint32_t base;
    struct gls_parent par[GLS_DEAD_PARENTS];
};
GOLDI_INLINE struct gls_dead_view dead_view(struct gls_engine *g) {
    struct gls_dead *d = &g->dead;
    uint64_t seq = atomic_load_explicit(&d->seq, memory_order_acquire);
    if (!seq)   /* (no mark yet: a program without barriers reads one word) */
        return (struct gls_dead_view){ .below = 0 };
    struct gls_dead_view v = { .below = atomic_load_explicit(&d->below, memory_order_relaxed),
                               .mask = atomic_load_explicit(&d->mask, memory_order_relaxed),
                               .base = atomic_load_explicit(&d->base, memory_order_relaxed) };
    for (unsigned i = 0; i < GLS_DEAD_PARENTS; i++)
        v.par[i] = (struct gls_parent){ atomic_load_explicit(&d->par_tid[i], memory_order_relaxed),
                                        atomic_load_explicit(&d->par_bound[i], memory_order_relaxed) };
    atomic_thread_fence(memory_order_acquire);
    if ((seq & 1) || atomic_load_explicit(&d->seq, memory_order_relaxed) != seq) {
        v.below = 0;
        for (unsigned i = 0; i < GLS_DEAD_PARENTS; i++)
            v.par[i].bound = 0;
    }
    return v;
}

/* Is owner's entry at pos dead by the mark v? */
GOLDI_INLINE bool dead_entry(const struct gls_dead_view *v, goldi_tid_t owner, uint64_t pos) {
    if (pos < v->below && owner - v->base < 64 && (v->mask >> (owner - v->base) & 1))
        return true;
    for (unsigned i = 0; i < GLS_DEAD_PARENTS; i++)
        if (owner == v->par[i].tid && pos < v->par[i].bound)
            return true;
    return false;
}

/* --- entries and granule records ------------------------------------------------------ */

/* A word holding an entry also carries, in the pointer's unused top 16 bits
 * (entries live below 2^48: slab_take checks), the entry's kind and the low
 * bits of its owner, both fixed while the entry is in the granule: a
 * lock-free looker (kept_fast) skips other threads' reads without touching
 * their lines. */
#define SLOT_PTR_BITS 48
#define SLOT_PTR_MASK ((UINT64_C(1) << SLOT_PTR_BITS) - 1)
#define SLOT_OWNER_BITS 14
GOLDI_INLINE uintptr_t slot_tag(enum gls_kind kind, goldi_tid_t owner) {
    return (uintptr_t)kind | (uintptr_t)(owner & ((1u << SLOT_OWNER_BITS) - 1)) << 2;
}
GOLDI_INLINE uintptr_t slot_of(const struct gls_entry *e) {
    return (uintptr_t)e | slot_tag((enum gls_kind)e->kind, e->owner) << SLOT_PTR_BITS;
}
GOLDI_INLINE struct gls_entry *slot_entry(uintptr_t v) { return (struct gls_entry *)(v & SLOT_PTR_MASK); }

/* A slab is mapped pages of its own: line-aligned for free, and no size
 * class to round it up (256 entries plus alignment slack through
 * goldi_alloc landed in its 32 KiB class, half of every slab unused:
 * hashtable's 225 000 entries took 27 MiB). Pages are touched as entries
 * are carved, so a small pool costs no more than its entries. */
#define SLAB_ENTRIES 1024

/* Free entries travel in magazines (Bonwick): a thread allocates from and
 * frees to its current magazine, keeps one full spare, and exchanges only
 * full magazines with the pool, in O(1) under pool_lock. When entries are
 * made on one thread and freed on another (radix: every granule changes
 * hands each pass), moving them one by one made pool_lock the hottest lock
 * of the run. */
static void mag_push(struct gls_mag *m, struct gls_entry *e) {
    e->next_free = m->head;
    if (!m->head)
        m->tail = e;
    m->head = e;
    m->n++;
}

static struct gls_entry *mag_pop(struct gls_mag *m) {
    struct gls_entry *e = m->head;
    m->head = e->next_free;
    if (!m->head)
        m->tail = NULL;
    m->n--;
    return e;
}

static void pool_put(struct gls_engine *g, struct gls_mag *m) {   /* m becomes empty */
    goldi_spin_lock(&g->pool_lock);
    if (g->n_mags < POOL_MAGS) {
        g->mags[g->n_mags++] = *m;
    } else {   /* splice onto the loose list */
        m->tail->next_free = g->loose.head;
        if (!g->loose.head)
            g->loose.tail = m->tail;
        g->loose.head = m->head;
        g->loose.n += m->n;
    }
    goldi_spin_unlock(&g->pool_lock);
    *m = (struct gls_mag){ 0 };
}

static struct gls_entry *slab_take(struct gls_engine *g) {   /* caller holds pool_lock */
    if (!g->slab_left) {
        g->slab = goldi_mmap(sizeof(struct gls_entry) * SLAB_ENTRIES);   /* never unmapped */
        GOLDI_CHECK_OP((uintptr_t)(g->slab + SLAB_ENTRIES) >> SLOT_PTR_BITS, ==, 0);   /* slot tags */
        g->slab_left = SLAB_ENTRIES;
        uint64_t pool = atomic_fetch_add_explicit(&g->pool_entries, SLAB_ENTRIES, memory_order_relaxed);
        if (pool + SLAB_ENTRIES >= atomic_load_explicit(&g->sweep_at, memory_order_relaxed))
            atomic_store_explicit(&g->sweep_wanted, true, memory_order_relaxed);   /* (granule held: later) */
    }
    return &g->slab[--g->slab_left];
}

/* Refills t's empty current magazine: a full one from the pool, else the
 * loose list, else a magazine's worth of a slab (not all of it: a slab is
 * four magazines, and every thread holding a whole one grew the pool, and
 * the ANY sweeps it asks for, fourfold where threads are many). */
static void pool_get(struct gls_engine *g, struct gls_thr *ts) {
    goldi_spin_lock(&g->pool_lock);
    if (g->n_mags) {
        ts->cur = g->mags[--g->n_mags];
    } else if (g->loose.head) {
        ts->cur = g->loose;
        g->loose = (struct gls_mag){ 0 };
    } else {
        do
            mag_push(&ts->cur, slab_take(g));
        while (g->slab_left && ts->cur.n < GLS_LOCAL_FREE);
    }
    goldi_spin_unlock(&g->pool_lock);
}

/* ts may be NULL (GC): then the shared pool is used directly. */
static struct gls_entry *entry_new(struct gls_engine *g, struct gls_thr *ts, enum gls_kind kind, uintptr_t addr) {
    struct gls_entry *e;
    if (ts) {
        if (GOLDI_UNLIKELY(!ts->cur.head)) {
            if (ts->spare.head) {
                ts->cur = ts->spare;
                ts->spare = (struct gls_mag){ 0 };
            } else {
                pool_get(g, ts);
            }
        }
        e = mag_pop(&ts->cur);
        tstat(ts, GLS_ST_ENTRIES, 1);   /* per thread: a shared counter would be a contended line */
    } else {
        goldi_spin_lock(&g->pool_lock);
        if (g->loose.head) {
            e = mag_pop(&g->loose);
        } else if (g->n_mags) {
            e = mag_pop(&g->mags[g->n_mags - 1]);
            if (!g->mags[g->n_mags - 1].head)
                g->n_mags--;
        } else {
            e = slab_take(g);
        }
        goldi_spin_unlock(&g->pool_lock);
        stat(g, 0, GLS_ST_ENTRIES, 1);
    }
    e->kind = (uint8_t)kind;
    e->mat = NULL;   /* (and next_free) */
    e->alock_id = 0;
    e->reg_chunk = 0;
    atomic_store_explicit(&e->addr, addr, memory_order_relaxed);
    return e;
}

/* Caller holds the granule lock of e->addr. ts may be NULL (GC). */
static void entry_free(struct gls_engine *g, struct gls_thr *ts, struct gls_entry *e) {
    gls_mat_free(e->mat);
    e->mat = NULL;
    /* After this, registry back-pointers to e are recognisably stale. */
    atomic_fetch_add_explicit(&e->gen, 1, memory_order_release);
    if (!ts) {   /* (the GC) */
        stat(g, 0, GLS_ST_ENTRIES, (uint64_t)-1);
        goldi_spin_lock(&g->pool_lock);
        mag_push(&g->loose, e);
        if (g->loose.n >= GLS_LOCAL_FREE && g->n_mags < POOL_MAGS) {
            /* a full magazine for the pool: handed whole, the loose list would
             * go to the first thread that asks (lu: 300 k entries the GC freed
             * sat in one thread's magazine while the others took new slabs) */
            g->mags[g->n_mags++] = g->loose;
            g->loose = (struct gls_mag){ 0 };
        }
        goldi_spin_unlock(&g->pool_lock);
        return;
    }
    tstat(ts, GLS_ST_ENTRIES, (uint64_t)-1);   /* sums wrap back to the live count */
    if (GOLDI_UNLIKELY(ts->cur.n >= GLS_LOCAL_FREE)) {
        if (ts->spare.head)
            pool_put(g, &ts->spare);
        ts->spare = ts->cur;
        ts->cur = (struct gls_mag){ 0 };
    }
    mag_push(&ts->cur, e);
}

/* A granule's entries live in words 0..6 of its 8 words in our shadow plane
 * (memory the shadow commits for every byte anyway): word i holds an entry
 * pointer or 0. A granule with more than 7 entries (many reader threads,
 * mixed sizes) keeps them in an overflow array instead: word 0 = array |
 * GRAN_OVF, words 1..6 = 0. Entries are 16-byte aligned, so bit 0 is free
 * for the tag. Word 7 is the granule's lock and version at once: odd while
 * a thread holds the granule (gran_lock) and changes its words or entries,
 * advanced by 2 per hold, so a thread can also look at the granule without
 * the lock, as a seqlock reader (kept_fast). The lock shares the line the
 * access has just read: a slow-path access costs no further miss for it. */
#define GRAN_OVF ((uintptr_t)1)
#define GRAN_SLOTS 7
#define GRAN_VER 7

/* Takes the granule's lock (word 7 even -> odd). Granule locks are the
 * innermost of the engine's locks but for the pool, list, origin, report
 * and allocator locks, and a thread holds one at a time. Fork must not copy
 * a granule locked by a thread the child will not have, so a thread marks
 * itself in_gran, then looks at fork_gate, and only with the gate open
 * touches word 7; fork_gate_close sets the gate, makes every thread run a
 * full barrier (membarrier), then waits until no thread is marked. Either
 * the thread sees the gate or fork sees the mark (Dekker, the thread's
 * fence supplied by membarrier; where the kernel refuses membarrier the
 * thread fences itself). */
static bool gate_self_fence;   /* no membarrier: gran_lock fences (set at create) */

GOLDI_INLINE void gran_wait_atomic_owners(goldi_shadow_word_t *w);

/* Marks the thread inside a granule's state (in_gran) unless fork's gate is
 * closed (false: in_gran left clear). */
GOLDI_INLINE bool gran_enter(struct gls_engine *g, struct gls_thr *ts) {
    atomic_store_explicit(&ts->in_gran, 1, memory_order_relaxed);
    if (GOLDI_UNLIKELY(gate_self_fence))
        atomic_thread_fence(memory_order_seq_cst);
    else
        atomic_signal_fence(memory_order_seq_cst);   /* (the compiler keeps the order) */
    if (GOLDI_LIKELY(!atomic_load_explicit(&g->fork_gate, memory_order_relaxed)))
        return true;
    atomic_store_explicit(&ts->in_gran, 0, memory_order_release);
    return false;
}

static void gran_lock(struct gls_engine *g, struct gls_thr *ts, goldi_shadow_word_t *w) {
    GOLDI_DCHECK(!atomic_load_explicit(&ts->in_gran, memory_order_relaxed));
    for (unsigned spins = 0;; goldi_spin_backoff(&spins)) {
        uint64_t v = atomic_load_explicit(&w[GRAN_VER], memory_order_relaxed);
        if ((v & 1) || !gran_enter(g, ts))
            continue;
        if (atomic_compare_exchange_weak_explicit(&w[GRAN_VER], &v, v + 1, memory_order_seq_cst,
                                                  memory_order_relaxed)) {
            gran_wait_atomic_owners(w);
            return;
        }
        atomic_store_explicit(&ts->in_gran, 0, memory_order_release);
    }
}

/* The same for the GC, which holds gc_lock: fork takes gc_lock before it
 * closes the gate, so no collection is under way when it waits. */
static void gc_gran_lock(goldi_shadow_word_t *w) {
    for (unsigned spins = 0;; goldi_spin_backoff(&spins)) {
        uint64_t v = atomic_load_explicit(&w[GRAN_VER], memory_order_relaxed);
        if (!(v & 1) && atomic_compare_exchange_weak_explicit(&w[GRAN_VER], &v, v + 1, memory_order_seq_cst,
                                                              memory_order_relaxed)) {
            gran_wait_atomic_owners(w);
            return;
        }
    }
}

static void gc_gran_unlock(goldi_shadow_word_t *w) {
    atomic_store_explicit(&w[GRAN_VER], atomic_load_explicit(&w[GRAN_VER], memory_order_relaxed) + 1,
                          memory_order_release);
}

static void gran_unlock(struct gls_thr *ts, goldi_shadow_word_t *w) {
    gc_gran_unlock(w);
    atomic_store_explicit(&ts->in_gran, 0, memory_order_release);
}

struct gls_ovf {
    uint32_t n, cap;
    struct gls_entry *e[];
};

/* Up to 7 entries are copied to buf; an overflow array is returned in place. */
static struct gls_entry **gran_entries(goldi_shadow_word_t *w, struct gls_entry **buf, uint32_t *n) {
    uintptr_t w0 = atomic_load_explicit(&w[0], memory_order_relaxed);
    if (GOLDI_UNLIKELY(w0 & GRAN_OVF)) {
        struct gls_ovf *o = (struct gls_ovf *)(w0 & ~GRAN_OVF);
        *n = o->n;
        return o->e;
    }
    uint32_t k = 0;
    if (w0)
        buf[k++] = slot_entry(w0);
    for (unsigned i = 1; i < GRAN_SLOTS; i++) {
        uintptr_t v = atomic_load_explicit(&w[i], memory_order_relaxed);
        if (v)
            buf[k++] = slot_entry(v);
    }
    *n = k;
    return buf;
}

/* gran_entries for a plain read by t: without atomic reads and other
 * threads' plain reads (their word tags say so; an overflow array,
 * untagged, is returned whole). Such an entry is nothing to the read:
 * neither checked against (a plain read races with writes only) nor changed
 * (it replaces t's own plain read only), and its line, last written on
 * another core, is a miss. *all: how many entries the granule holds. */
static struct gls_entry **gran_entries_for_read(goldi_shadow_word_t *w, struct gls_entry **buf, uint32_t *n,
                                                uint32_t *all, goldi_tid_t t) {
    uintptr_t w0 = atomic_load_explicit(&w[0], memory_order_relaxed);
    if (GOLDI_UNLIKELY(w0 & GRAN_OVF)) {
        struct gls_entry **es = gran_entries(w, buf, n);
        *all = *n;
        return es;
    }
    uintptr_t own_r = slot_tag(GLS_R, t);
    uint32_t k = 0, m = 0;
    for (unsigned i = 0; i < GRAN_SLOTS; i++) {
        uintptr_t v = i ? atomic_load_explicit(&w[i], memory_order_relaxed) : w0;
        if (!v)
            continue;
        m++;
        uintptr_t tag = v >> SLOT_PTR_BITS;
        if ((tag & 3) == GLS_AR || ((tag & 3) == GLS_R && tag != own_r))
            continue;
        buf[k++] = slot_entry(v);
    }
    *n = k;
    *all = m;
    return buf;
}

static void gran_insert(goldi_shadow_word_t *w, struct gls_entry *e) {
    uintptr_t w0 = atomic_load_explicit(&w[0], memory_order_relaxed);
    if (!(w0 & GRAN_OVF)) {
        for (unsigned i = 0; i < GRAN_SLOTS; i++)
            if (!atomic_load_explicit(&w[i], memory_order_relaxed)) {
                atomic_store_explicit(&w[i], slot_of(e), memory_order_relaxed);
                return;
            }
        /* all 7 words taken: move to an overflow array */
        struct gls_ovf *o = goldi_alloc(sizeof *o + sizeof(o->e[0]) * 16);
        o->cap = 16;
        for (unsigned i = 0; i < GRAN_SLOTS; i++) {
            o->e[o->n++] = slot_entry(atomic_load_explicit(&w[i], memory_order_relaxed));
            atomic_store_explicit(&w[i], 0, memory_order_relaxed);
        }
        o->e[o->n++] = e;
        atomic_store_explicit(&w[0], (uintptr_t)o | GRAN_OVF, memory_order_relaxed);
        return;
    }
    struct gls_ovf *o = (struct gls_ovf *)(w0 & ~GRAN_OVF);
    if (o->n == o->cap) {
        struct gls_ovf *n = goldi_alloc(sizeof *n + sizeof(n->e[0]) * o->cap * 2);
        n->cap = o->cap * 2;
        n->n = o->n;
        goldi_memcpy(n->e, o->e, sizeof(o->e[0]) * o->n);
        goldi_free(o);
        o = n;
        atomic_store_explicit(&w[0], (uintptr_t)o | GRAN_OVF, memory_order_relaxed);
    }
    o->e[o->n++] = e;
}

/* Unlinks e from its granule (does not free it). */
static void gran_remove(goldi_shadow_word_t *w, struct gls_entry *e) {
    uintptr_t w0 = atomic_load_explicit(&w[0], memory_order_relaxed);
    if (!(w0 & GRAN_OVF)) {
        for (unsigned i = 0; i < GRAN_SLOTS; i++)
            if (slot_entry(atomic_load_explicit(&w[i], memory_order_relaxed)) == e) {
                atomic_store_explicit(&w[i], 0, memory_order_relaxed);
                return;
            }
        return;
    }
    struct gls_ovf *o = (struct gls_ovf *)(w0 & ~GRAN_OVF);
    for (uint32_t i = 0; i < o->n; i++)
        if (o->e[i] == e) {
            o->e[i] = o->e[--o->n];
            break;
        }
    if (!o->n) {
        goldi_free(o);
        atomic_store_explicit(&w[0], 0, memory_order_relaxed);
    }
}

/* Clears bytes `mask` from every entry of the granule (freeing the emptied
 * ones). Caller holds the granule lock. */
static void gran_clear(struct gls_engine *g, struct gls_thr *ts, goldi_shadow_word_t *w, uint8_t mask) {
    struct gls_entry *buf[GOLDI_GRANULE];
    uint32_t n;
    struct gls_entry **es = gran_entries(w, buf, &n);
    for (uint32_t i = n; i-- > 0;) {   /* backwards: gran_remove swaps with the last */
        struct gls_entry *e = es[i];
        if (!(e->mask & mask))
            continue;
        e->mask &= (uint8_t)~mask;
        if (!e->mask) {
            gran_remove(w, e);
            entry_free(g, ts, e);
        }
    }
}

/* --- alock (seed 000 §3, trap T4) ------------------------------------------------------ */

struct gls_alock { uint64_t id; uint8_t mode, rw; };   /* a lock token id and how it was held */

/* Is the alock short-circuit valid for e against thr now? The owner held
 * alock at e, thr holds it now, so the owner's release of it precedes thr's
 * acquisition — unless both hold an rwlock in read mode (readers never sync),
 * or the lock's events ever broke mutual exclusion (a release by a thread
 * that did not hold it: the owner may never have released it;
 * goldi_sync_excludes). Token ids are unique for ever, so a lock object in a
 * new life (token id changed) never matches. */
static bool alock_orders_al(struct gls_alock a, const struct goldi_thr *thr) {
    if (!a.id)
        return false;
    for (uint32_t i = 0; i < thr->n_held; i++) {
        if (thr->held[i].obj->tok[0].id != a.id)
            continue;
        if (a.rw && a.mode == GOLDI_LOCK_SHARED && thr->held[i].mode == GOLDI_LOCK_SHARED)
            return false;
        return goldi_sync_excludes(thr->held[i].obj);
    }
    return false;
}

static bool alock_orders(const struct gls_entry *e, const struct goldi_thr *thr) {
    return alock_orders_al((struct gls_alock){ e->alock_id, e->alock_mode, e->alock_rw }, thr);
}

/* The alock of an access, re-picked on every access (G-ALOCK): the old one
 * (old_id) if thr still holds it, else a lock held in exclusive mode, else any
 * held lock, else none. */
static struct gls_alock alock_pick(uint64_t old_id, const struct goldi_thr *thr) {
    int pick = -1;
    for (uint32_t i = 0; i < thr->n_held; i++) {
        if (old_id && thr->held[i].obj->tok[0].id == old_id) {
            pick = (int)i;
            break;
        }
        if (pick < 0 || (thr->held[i].mode == GOLDI_LOCK_EXCL && thr->held[pick].mode != GOLDI_LOCK_EXCL))
            pick = (int)i;
    }
    struct gls_alock a = { 0, 0, 0 };
    if (pick >= 0) {
        struct goldi_sync *o = thr->held[pick].obj;
        a.id = o->tok[0].id;
        a.mode = thr->held[pick].mode;
        a.rw = o->kind == GOLDI_SYNC_RWLOCK;
    }
    return a;
}

static bool alocks_same(struct gls_alock a, struct gls_alock b) {
    return a.id == b.id && (!a.id || (a.mode == b.mode && a.rw == b.rw));
}

static bool alock_same(const struct gls_entry *e, struct gls_alock a) {
    return alocks_same((struct gls_alock){ e->alock_id, e->alock_mode, e->alock_rw }, a);
}

static void alock_set(struct gls_entry *e, struct gls_alock a) {
    e->alock_id = a.id;
    e->alock_mode = a.mode;
    e->alock_rw = a.rw;
}

/* Would thr pick the alock (id, mode, rw) again now? (the kept paths' test) */
static bool alock_unchanged(const struct goldi_thr *thr, uint64_t id, uint8_t mode, uint8_t rw) {
    if (!id && !thr->n_held)
        return true;
    struct gls_alock a = alock_pick(id, thr);
    return a.id == id && (!id || (a.mode == mode && a.rw == rw));
}

/* --- inline records (docs/goldilocks.md "Inline records") -----------------------------------
 * A granule accessed by one thread only (the common case: thread-local data,
 * a band of an array) keeps its history in its own shadow words instead of
 * pool entries: the W and R entries of that owner, each a byte mask, a pos,
 * an origin and the alock held. Expanding it yields exactly the entries the
 * general representation would hold.
 *   w[0] = GRAN_INL | GRAN_LOCK? | mask_w << 8 | mask_r << 16 | owner << 32
 *   w[1] = pos of W   w[2] = pos of R   w[3] = origin W | origin R << 32
 *   w[4] = chunk + 1 whose registry holds the granule's ref (<= chunk of both pos);
 *          in a split record its low half, and W's thread the high half
 *   w[5], w[6] = alock of W, of R (id | mode << 61 | rw << 62; 0 = none)
 * A half record (GRAN_HALF) holds one kind (R with GRAN_HALF_R, else W) as
 * two entries, one per 4-byte half, with histories of their own: w[1] or
 * w[2] and the origin in w[3] are the low half's, w[5] = pos and w[6] =
 * origin the high half's, and no entry has an alock. An array of 4-byte
 * elements read (or written) one element at a time, phase after phase
 * (radix's keys), has the two halves of a granule one epoch apart between
 * the two accesses: without it the granule went packed, under the lock.
 * In a half record the other kind may have an origin of its own on its
 * high half's bytes (GRAN_DUALO: the high half of w[6]; one pos, one
 * thread): an unrolled loop reads (or writes) the two 4-byte elements of a
 * granule from two copies of one statement, two origins in one epoch.
 * A split record (GRAN_SPLIT) has a W of another thread (the high half of
 * w[4]: made only while the registry chunk fits the low half, i.e. for the
 * first 2^44 update-list positions; later the access takes the entries),
 * and owner is the thread of R; it
 * is made only by a read of owner that found that W ordered before it
 * (inl_foreign, pack_contract), so W happens-before every read R records and the owner's
 * later reads need no check against it: they take the lock-free path, its
 * writes and everyone else's accesses go through inl_foreign. Producer /
 * consumer hand-offs (a slot written by one thread, read by another, written
 * again) stay inline instead of expanding into entries and folding back.
 * The owner updates it without the granule lock (gls_on_access_fast, called
 * by the runtime before any event is built); every writer first takes the
 * lock bit of w[0] with a CAS, so the owner's update, another thread's
 * expansion and the GC (both under the granule lock) exclude each other --
 * or the owner, while it holds its lease on the record's block, updates
 * with plain stores and the others revoke the lease once they hold the bit
 * (gls_lease.h). Only the holder of the granule lock changes the
 * representation. */
#define GRAN_INL ((uintptr_t)2)
#define GRAN_LOCK ((uintptr_t)4)
#define GRAN_SPLIT ((uintptr_t)8)
#define GRAN_HALF ((uintptr_t)16)
#define GRAN_HALF_R ((uintptr_t)32)
#define GRAN_DUALO ((uintptr_t)64)
#define HALF_LO ((uint8_t)0x0f)
#define HALF_HI ((uint8_t)0xf0)
#define INL_CENTS 4              /* entries an inline record stands for, at most */
#define INL_SPLIT_REG_MAX UINT32_MAX   /* largest registry chunk + 1 a split record holds */
struct gls_inl {
    uint8_t mw, mr;              /* bytes with a W / an R */
    goldi_tid_t owner;           /* thread of R (of W when there is no R) */
    goldi_tid_t wowner;          /* thread of W: owner unless split */
    uint64_t pw, pr;             /* (the low half's of a half kind) */
    goldi_origin_t ow, or;
    uint64_t reg;                /* registry chunk + 1 */
    uint64_t aw, ar;             /* packed alocks (0 in a half record) */
    uint8_t half;                /* 0, or 1 + the kind whose high half is (ph, oh) */
    uint64_t ph;
    goldi_origin_t oh;
    bool dualo;                  /* (half only) the other kind's high half has origin ox */
    goldi_origin_t ox;
};

GOLDI_INLINE bool inl_is(uintptr_t w0) { return w0 & GRAN_INL; }
GOLDI_INLINE goldi_tid_t inl_owner(uintptr_t w0) { return (goldi_tid_t)(w0 >> 32); }

/* Empties the granule's record words (inline or packed), w[0] last with
 * release: a lock-free reader that sees 0 backs off. */
static void gran_wipe(goldi_shadow_word_t *w) {
    for (unsigned i = 1; i < GRAN_SLOTS; i++)
        atomic_store_explicit(&w[i], 0, memory_order_relaxed);
    atomic_store_explicit(&w[0], 0, memory_order_release);
}

/* The registry chunk + 1 of an inline record from its words 0 and 4. */
GOLDI_INLINE uint64_t inl_reg(uintptr_t w0, uint64_t w4) {
    return (w0 & GRAN_SPLIT) ? (uint32_t)w4 : w4;
}

#if GOLDI_DEBUG >= 1
/* Is pos in the record's registry chunk or a later one (w[4]'s rule; an
 * owner's update that stores its epoch start must find it so)? */
GOLDI_INLINE bool inl_pos_registered(const goldi_shadow_word_t *w, uintptr_t v, uint64_t pos) {
    return (pos >> GLS_CHUNK_BITS) + 1 >= inl_reg(v, atomic_load_explicit(&w[4], memory_order_relaxed));
}
#endif

GOLDI_INLINE void inl_read_body(goldi_shadow_word_t *w, uintptr_t w0, struct gls_inl *f) {
    f->mw = (uint8_t)(w0 >> 8);
    f->mr = (uint8_t)(w0 >> 16);
    f->owner = inl_owner(w0);
    f->pw = atomic_load_explicit(&w[1], memory_order_relaxed);
    f->pr = atomic_load_explicit(&w[2], memory_order_relaxed);
    uint64_t o = atomic_load_explicit(&w[3], memory_order_relaxed);
    f->ow = (goldi_origin_t)o;
    f->or = (goldi_origin_t)(o >> 32);
    uint64_t w4 = atomic_load_explicit(&w[4], memory_order_relaxed);
    f->reg = inl_reg(w0, w4);
    f->aw = atomic_load_explicit(&w[5], memory_order_relaxed);
    f->ar = atomic_load_explicit(&w[6], memory_order_relaxed);
    f->half = 0;
    f->ph = 0;
    f->oh = 0;
    f->dualo = false;
    f->ox = 0;
    if (GOLDI_UNLIKELY(w0 & GRAN_HALF)) {   /* w[5], w[6]: the high half's pos and origin */
        f->half = (uint8_t)(1 + ((w0 & GRAN_HALF_R) ? GLS_R : GLS_W));
        f->ph = f->aw;
        f->oh = (goldi_origin_t)f->ar;
        f->dualo = w0 & GRAN_DUALO;
        f->ox = f->dualo ? (goldi_origin_t)(f->ar >> 32) : 0;
        f->aw = f->ar = 0;
    }
    f->wowner = (w0 & GRAN_SPLIT) ? (goldi_tid_t)(w4 >> 32) : f->owner;
}

/* (out of line for the paths that read a record once; inl_cents_at takes
 * the body inline) */
static void inl_read(goldi_shadow_word_t *w, uintptr_t w0, struct gls_inl *f) { inl_read_body(w, w0, f); }

GOLDI_INLINE bool inl_split(const struct gls_inl *f) {
    return f->mw && f->mr && f->wowner != f->owner;
}

static uintptr_t inl_word0(const struct gls_inl *f) {
    bool split = inl_split(f);
    goldi_tid_t owner = f->mr ? f->owner : f->wowner;
    static const uintptr_t half[] = { 0, [1 + GLS_W] = GRAN_HALF, [1 + GLS_R] = GRAN_HALF | GRAN_HALF_R };
    return GRAN_INL | (split ? GRAN_SPLIT : 0) | half[f->half] | (f->dualo ? GRAN_DUALO : 0) | (uintptr_t)f->mw << 8 |
           (uintptr_t)f->mr << 16 | (uintptr_t)owner << 32;
}

static uint64_t inl_min_pos(const struct gls_inl *f);
/* Writes every field and releases the lock bit by storing w[0] last. */
GOLDI_INLINE void inl_store(goldi_shadow_word_t *w, const struct gls_inl *f) {
    GOLDI_DCHECK(!(f->mw | f->mr) || f->reg <= (inl_min_pos(f) >> GLS_CHUNK_BITS) + 1);   /* (w[4]'s rule) */
    atomic_store_explicit(&w[1], f->pw, memory_order_relaxed);
    atomic_store_explicit(&w[2], f->pr, memory_order_relaxed);
    atomic_store_explicit(&w[3], (uint64_t)f->ow | (uint64_t)f->or << 32, memory_order_relaxed);
    uint64_t w4 = f->reg;
    if (inl_split(f)) {
        GOLDI_CHECK(f->reg <= INL_SPLIT_REG_MAX);
        w4 |= (uint64_t)f->wowner << 32;
    }
    atomic_store_explicit(&w[4], w4, memory_order_relaxed);
    atomic_store_explicit(&w[5], f->aw | f->ph, memory_order_relaxed);   /* (one of them is 0) */
    atomic_store_explicit(&w[6], f->ar | f->oh | (f->dualo ? (uint64_t)f->ox << 32 : 0), memory_order_relaxed);
    atomic_store_explicit(&w[0], inl_word0(f), memory_order_release);
}

/* Takes the lock bit of an inline granule for thread self (GOLDI_TID_NONE:
 * the GC); returns w[0] as it was (unlocked value), or 0 if the granule is
 * not inline. Caller holds the granule lock, so only a lock-free update (the
 * owner's, inl_try, or another thread's, inl_foreign_fast) can hold the bit,
 * for a few instructions; the owner's lease on the block is revoked
 * (gls_lease.h). In a fork child a bit held by a thread that did not
 * survive the fork is never released: it is broken after a while (that
 * granule's fields may then mix the old and the new access of the lost
 * thread). */
GOLDI_INLINE uintptr_t inl_lock(struct gls_engine *g, goldi_shadow_word_t *w, goldi_tid_t self) {
    for (unsigned spins = 0;; spins++) {
        uintptr_t v = atomic_load_explicit(&w[0], memory_order_relaxed);
        if (!inl_is(v))
            return 0;
        if ((v & GRAN_LOCK) && spins > 4096 && atomic_load_explicit(&g->forked_child, memory_order_relaxed))
            v &= ~GRAN_LOCK, atomic_store_explicit(&w[0], v, memory_order_relaxed);
        if (!(v & GRAN_LOCK) && atomic_compare_exchange_weak_explicit(&w[0], &v, v | GRAN_LOCK, memory_order_acquire,
                                                                      memory_order_relaxed)) {
            if (inl_owner(v) == self || gls_lease_revoke(&g->leases, w, inl_owner(v), v | GRAN_LOCK))
                return v;
            continue;   /* the holder's plain update overwrote the bit: take it again */
        }
        if (spins > 64)
            goldi_os_yield();
    }
}

static uint64_t inl_min_pos(const struct gls_inl *f) {
    uint64_t m = !f->mw ? f->pr : !f->mr ? f->pw : f->pw < f->pr ? f->pw : f->pr;
    return f->half && f->ph < m ? f->ph : m;
}

/* The owner's access of bytes `piece` at its epoch start pos (>= both pos):
 * the general update rule (update_granule) applied to the inline pair. False
 * if the result is not representable (bytes of one kind would need two
 * different pos or origins). */
static bool inl_update(struct gls_inl *f, uint8_t piece, bool write, uint64_t pos, goldi_origin_t o,
                       uint64_t al) {
    if (write) {
        if ((f->mw & ~piece) && (f->pw != pos || f->ow != o || f->aw != al))
            return false;
        f->mw |= piece;
        f->pw = pos;
        f->ow = o;
        f->aw = al;
        f->mr &= (uint8_t)~piece;   /* a plain write supersedes every entry on its bytes */
    } else {
        if ((f->mr & ~piece) && (f->pr != pos || f->or != o || f->ar != al))
            return false;
        f->mr |= piece;
        f->pr = pos;
        f->or = o;
        f->ar = al;
    }
    return true;
}

#define ALOCK_ID_MASK ((UINT64_C(1) << 61) - 1)
static uint64_t alock_pack(struct gls_alock a) {
    return a.id ? a.id | (uint64_t)a.mode << 61 | (uint64_t)a.rw << 62 : 0;
}
static struct gls_alock alock_unpack(uint64_t v) {
    struct gls_alock a = { v & ALOCK_ID_MASK, (uint8_t)(v >> 61 & 1), (uint8_t)(v >> 62 & 1) };
    return a;
}

/* A cell's entry, decoded (a DUAL cell is two): the fields of a plain
 * entry without a materialised set, which is all a packed granule holds.
 * Inline records and packed cells are checked and updated as these; a temporary 64-byte
 * entry is built only for a check that walks (cent_entry). */
struct gls_cent {
    uint64_t pos;
    struct gls_alock al;
    goldi_origin_t origin;
    goldi_tid_t owner;
    uint8_t kind, mask;
};

/* A plain entry (no materialised set) as a decoded cell. */
static struct gls_cent entry_cent(const struct gls_entry *e) {
    GOLDI_DCHECK(!e->mat && (e->kind == GLS_W || e->kind == GLS_R));
    return (struct gls_cent){ .pos = atomic_load_explicit(&e->pos, memory_order_relaxed),
                              .al = { e->alock_id, e->alock_mode, e->alock_rw },
                              .origin = e->origin,
                              .owner = e->owner,
                              .kind = e->kind,
                              .mask = e->mask };
}

/* A decoded cell as a temporary entry (not in the pool, never registered). */
static void cent_entry(const struct gls_cent *c, struct gls_entry *e) {
    atomic_store_explicit(&e->pos, c->pos, memory_order_relaxed);
    e->owner = c->owner;
    e->origin = c->origin;
    e->mask = c->mask;
    e->kind = c->kind;
    alock_set(e, c->al);
    e->mat = NULL;
}

/* The entries an inline record stands for, c[0..n) (n <= INL_CENTS). */
GOLDI_INLINE uint32_t inl_cents(const struct gls_inl *f, struct gls_cent *c) {
    uint32_t n = 0;
    if (f->mw)
        c[n++] = (struct gls_cent){ .pos = f->pw, .al = alock_unpack(f->aw), .origin = f->ow, .owner = f->wowner,
                                    .kind = GLS_W, .mask = f->mw };
    if (f->mr)
        c[n++] = (struct gls_cent){ .pos = f->pr, .al = alock_unpack(f->ar), .origin = f->or, .owner = f->owner,
                                    .kind = GLS_R, .mask = f->mr };
    for (uint32_t i = 0; f->half && i < n; i++) {
        if (f->half != 1 + c[i].kind)
            continue;
        GOLDI_DCHECK((c[i].mask & HALF_LO) && (c[i].mask & HALF_HI));   /* (inl_half_normalise) */
        c[n] = c[i];   /* the high half's entry */
        c[n].pos = f->ph;
        c[n].origin = f->oh;
        c[n++].mask &= HALF_HI;
        c[i].mask &= HALF_LO;
        break;
    }
    for (uint32_t i = 0; f->dualo && i < n; i++) {
        if (f->half == 1 + c[i].kind)
            continue;
        GOLDI_DCHECK((c[i].mask & HALF_LO) && (c[i].mask & HALF_HI));   /* (inl_dualo_normalise) */
        c[n] = c[i];   /* the other kind's high half */
        c[n].origin = f->ox;
        c[n++].mask &= HALF_HI;
        c[i].mask &= HALF_LO;
        break;
    }
    return n;
}

/* inl_cents of the inline record at w (v: its w[0], held), with inl_read
 * inline so that the record between them stays in registers (radix's
 * scatter write, inl_write_packs); *reg: its registry chunk + 1. */
GOLDI_INLINE uint32_t inl_cents_at(goldi_shadow_word_t *w, uintptr_t v, struct gls_cent *c, uint64_t *reg) {
    struct gls_inl f;
    inl_read_body(w, v, &f);
    *reg = f.reg;
    return inl_cents(&f, c);
}

/* A half record's other kind has two origins only while it has bytes on
 * both halves and they differ (on the high half only, its origin is ox). */
static void inl_dualo_normalise(struct gls_inl *f) {
    if (!f->dualo)
        return;
    bool w = f->half == 1 + GLS_R;   /* the other kind is W */
    uint8_t m = w ? f->mw : f->mr;
    goldi_origin_t *o = w ? &f->ow : &f->or;
    if (!(m & HALF_LO))
        *o = f->ox;
    if (!(m & HALF_LO) || !(m & HALF_HI) || *o == f->ox) {
        f->dualo = false;
        f->ox = 0;
    }
}

/* A half record whose half kind has bytes in one half only, or the same
 * history on both, is an ordinary record (the same entries) -- unless the
 * other kind has two origins, which then makes it the half kind. */
static GOLDI_NOINLINE void inl_half_normalise(struct gls_inl *f) {
    if (!f->half)
        return;
    inl_dualo_normalise(f);
    bool w = f->half == 1 + GLS_W;
    uint8_t m = w ? f->mw : f->mr;
    uint64_t *p = w ? &f->pw : &f->pr;
    goldi_origin_t *o = w ? &f->ow : &f->or;
    if (!(m & HALF_LO)) {
        *p = f->ph;
        *o = f->oh;
    } else if ((m & HALF_HI) && (*p != f->ph || *o != f->oh)) {
        return;
    }
    if (f->dualo) {   /* the other kind: one pos, an origin per half */
        f->half = (uint8_t)(1 + (w ? GLS_R : GLS_W));
        f->ph = w ? f->pr : f->pw;
        f->oh = f->ox;
        f->dualo = false;
        f->ox = 0;
        return;
    }
    f->half = 0;
    f->ph = 0;
    f->oh = 0;
}

/* The same as temporary entries e[0..n) (for check_granule). */
static uint32_t inl_entries(const struct gls_inl *f, struct gls_entry *e) {
    struct gls_cent c[INL_CENTS];
    uint32_t n = inl_cents(f, c);
    for (uint32_t i = 0; i < n; i++)
        cent_entry(&c[i], &e[i]);
    return n;
}

/* inl_of_cents' second entry e of a kind (W or R, no alock: the caller
 * checks): the other half's, if the kind's first entry is all on one half,
 * has no alock either, and e is all on the other half (no other entry may
 * have an alock: inl_of_cents checks at the end). */
static GOLDI_NOINLINE bool inl_half_add(struct gls_inl *f, const struct gls_cent *e) {
    bool w = e->kind == GLS_W;
    if ((!w && e->kind != GLS_R) || f->half)
        return false;
    uint8_t *m = w ? &f->mw : &f->mr;
    uint64_t *p = w ? &f->pw : &f->pr;
    goldi_origin_t *o = w ? &f->ow : &f->or;
    bool lo_hi = !(*m & HALF_HI) && !(e->mask & HALF_LO), hi_lo = !(*m & HALF_LO) && !(e->mask & HALF_HI);
    if ((w ? f->aw : f->ar) || !(lo_hi || hi_lo))
        return false;
    f->half = (uint8_t)(1 + e->kind);
    f->ph = lo_hi ? e->pos : *p;
    f->oh = lo_hi ? e->origin : *o;
    if (hi_lo)
        *p = e->pos, *o = e->origin;
    *m |= e->mask;
    return true;
}

/* inl_of_cents' second entry e of the kind that is not the half kind: the
 * other half's, with the same pos, another origin (GRAN_DUALO). */
static GOLDI_NOINLINE bool inl_dualo_add(struct gls_inl *f, const struct gls_cent *e) {
    bool w = e->kind == GLS_W;
    uint8_t *m = w ? &f->mw : &f->mr;
    goldi_origin_t *o = w ? &f->ow : &f->or;
    bool lo_hi = !(*m & HALF_HI) && !(e->mask & HALF_LO), hi_lo = !(*m & HALF_LO) && !(e->mask & HALF_HI);
    if (!f->half || f->half == 1 + e->kind || (w ? f->aw : f->ar) || e->pos != (w ? f->pw : f->pr) ||
        !(lo_hi || hi_lo))
        return false;
    f->dualo = true;
    f->ox = lo_hi ? e->origin : *o;
    if (hi_lo)
        *o = e->origin;
    *m |= e->mask;
    return true;
}

/* The inline record standing for c[0..n), if they are W entries of wt and
 * R entries of t, one of each kind, or two of a kind on the two halves
 * without alocks (a half record; if both kinds have two, one of them with
 * one pos: its origins are the record's dual ones); false if they are not.
 * wt != t makes a split record: the caller knows its W to be ordered
 * before t's reads. f->reg is left 0. */
GOLDI_INLINE bool inl_of_cents(goldi_tid_t t, goldi_tid_t wt, const struct gls_cent *c, uint32_t n, struct gls_inl *f) {
    *f = (struct gls_inl){ .owner = t, .wowner = wt };
    const struct gls_cent *second[2] = { NULL, NULL };   /* by kind (GLS_W, GLS_R) */
    for (uint32_t i = 0; i < n; i++) {
        const struct gls_cent *e = &c[i];
        if (e->kind == GLS_W && !f->mw && e->owner == wt)
            f->mw = e->mask, f->pw = e->pos, f->ow = e->origin, f->aw = alock_pack(e->al);
        else if (e->kind == GLS_R && !f->mr && e->owner == t)
            f->mr = e->mask, f->pr = e->pos, f->or = e->origin, f->ar = alock_pack(e->al);
        else if ((e->kind != GLS_W && e->kind != GLS_R) || e->al.id || e->owner != (e->kind == GLS_W ? wt : t) ||
                 second[e->kind])
            return false;   /* (a half kind has no alock) */
        else
            second[e->kind] = e;
    }
    if (!second[GLS_W] && !second[GLS_R])
        return true;
    /* the half kind: the one with two entries; with two of both, the one
     * whose two do not share a pos */
    enum gls_kind hk = second[GLS_W] && (!second[GLS_R] || second[GLS_W]->pos != f->pw) ? GLS_W : GLS_R;
    enum gls_kind ok = hk == GLS_W ? GLS_R : GLS_W;
    if (!inl_half_add(f, second[hk]) || (second[ok] && !inl_dualo_add(f, second[ok])))
        return false;
    inl_half_normalise(f);
    return !f->half || (!f->aw && !f->ar);   /* (no room for an alock next to a half kind) */
}

/* The same for pool entries es[0..n) (none with a materialised set or of
 * an atomic kind). */
static bool inl_of_entries(goldi_tid_t t, struct gls_entry *const *es, uint32_t n, struct gls_inl *f) {
    struct gls_cent c[INL_CENTS];
    if (n > INL_CENTS)
        return false;
    for (uint32_t i = 0; i < n; i++)   /* (three or four entries: a half record, without alocks) */
        if (es[i]->mat || (es[i]->kind != GLS_W && es[i]->kind != GLS_R) || es[i]->owner != t ||
            (n > 2 && es[i]->alock_id))
            return false;
    for (uint32_t i = 0; i < n; i++)
        c[i] = entry_cent(es[i]);
    return inl_of_cents(t, t, c, n, f);
}

/* The owner t's plain access of `piece` to an inline granule it owns, without
 * the granule lock: INL_DONE (updated) or INL_KEPT (nothing to change), or
 * INL_NO if the granule is not t's inline record (or is locked, or the
 * result is not representable): take the general path. */
enum { INL_NO, INL_DONE, INL_KEPT };
static goldi_origin_t access_origin(struct gls_thr *ts, const struct goldi_event *ev);
GOLDI_INLINE goldi_origin_t access_origin_at(struct gls_thr *ts, struct goldi_thr *thr, uintptr_t pc, bool write,
                                            unsigned size);

/* w[0] v of t's record after t's plain access of `piece` (masks only). */
GOLDI_INLINE uintptr_t inl_w0_after(uintptr_t v, uint8_t piece, bool write) {
    uint8_t mw = (uint8_t)(v >> 8), mr = (uint8_t)(v >> 16);
    if (write) {
        mw |= piece;
        mr &= (uint8_t)~piece;   /* a plain write supersedes every entry on its bytes */
    } else {
        mr |= piece;
    }
    return (v & ~((uintptr_t)0xffff << 8)) | (uintptr_t)mw << 8 | (uintptr_t)mr << 16;
}

/* w[3] (origin W | origin R << 32) with the origin of one kind set to o. */
GOLDI_INLINE uint64_t inl_o3_with(uint64_t o3, bool write, goldi_origin_t o) {
    unsigned sh = write ? 0 : 32;
    return (o3 & ~(UINT64_C(0xffffffff) << sh)) | (uint64_t)o << sh;
}

/* inl_try's access of `piece` that the record cannot take as it is: t's
 * bytes of the kind outside piece have another history (op, origin in o3).
 * If they all lie in the other half from piece, and no alock is held or
 * recorded (al: the one t would record), the record becomes a half record
 * (the old history on its half, the new one, t's epoch start and origin o,
 * on piece's); else INL_NO with nothing changed. Called with the lock bit
 * held (v: w[0] without it); releases it. */
static GOLDI_NOINLINE int inl_try_halve(struct gls_thr *ts, goldi_shadow_word_t *w, uintptr_t v, uint8_t piece,
                                        bool write, uint64_t op, uint64_t o3, goldi_origin_t o, uint64_t al) {
    uint8_t mine = (uint8_t)(v >> (write ? 8 : 16)), h = (piece & HALF_LO) ? HALF_LO : HALF_HI;
    if (al || (piece & ~h) || (mine & h & ~piece) || atomic_load_explicit(&w[5], memory_order_relaxed) ||
        atomic_load_explicit(&w[6], memory_order_relaxed)) {
        atomic_store_explicit(&w[0], v, memory_order_release);   /* not representable */
        return INL_NO;
    }
    unsigned pi = write ? 1 : 2, osh = write ? 0 : 32;
    uint64_t pos = ts->epoch_pos;
    GOLDI_DCHECK(inl_pos_registered(w, v, pos));
    if (h == HALF_LO) {   /* the old history moves to the high half's words */
        atomic_store_explicit(&w[5], op, memory_order_relaxed);
        atomic_store_explicit(&w[6], (goldi_origin_t)(o3 >> osh), memory_order_relaxed);
        atomic_store_explicit(&w[pi], pos, memory_order_relaxed);
        atomic_store_explicit(&w[3], inl_o3_with(o3, write, o), memory_order_relaxed);
    } else {
        atomic_store_explicit(&w[5], pos, memory_order_relaxed);
        atomic_store_explicit(&w[6], o, memory_order_relaxed);
    }
    atomic_store_explicit(&w[0], inl_w0_after(v, piece, write) | GRAN_HALF | (write ? 0 : GRAN_HALF_R),
                          memory_order_release);
    tstat(ts, GLS_ST_INL_HALF, 1);
    return INL_DONE;
}

/* A kept test's answer made good: w[0] is still v after the fields were
 * read without the bit (seqlock style: inl_try). */
GOLDI_INLINE bool inl_confirmed(struct gls_thr *ts, goldi_shadow_word_t *w, uintptr_t v) {
    atomic_thread_fence(memory_order_acquire);
    if (atomic_load_explicit(&w[0], memory_order_relaxed) != v)
        return false;
    tstat(ts, GLS_ST_KEPT, 1);
    return true;
}

/* t's hold on its record at w (v: w[0] as loaded, without the bit) for an
 * update: t's lease on the block (gls_lease.h; *leased, and the caller
 * ends it with gls_lease_done) and plain stores, else the lock bit, with a
 * CAS. A writer that takes the bit waits for a leased update to end, and
 * no other thread reads the fields without the bit. False: w[0] changed,
 * nothing held. */
GOLDI_INLINE bool inl_hold(struct gls_thr *ts, goldi_shadow_word_t *w, uintptr_t v, bool *leased) {
    *leased = gls_lease_enter(ts->leases, &ts->lease, w);
    if (!*leased)
        return atomic_compare_exchange_strong_explicit(&w[0], &v, v | GRAN_LOCK, memory_order_acquire,
                                                       memory_order_relaxed);
    if (atomic_load_explicit(&w[0], memory_order_relaxed) == v)
        return true;
    gls_lease_done(&ts->lease);
    return false;
}

/* inl_kept for t's half record (v: its w[0], without the bit): the bytes
 * carry an entry of this kind from t's epoch on each half the piece
 * touches (and a write finds no R to supersede), or, a read, t's W from
 * t's epoch (a covered read: update_granule). The fields are read without
 * the bit, as inl_kept's: the caller confirms w[0] afterwards. */
GOLDI_INLINE bool inl_half_kept(const struct gls_thr *ts, goldi_shadow_word_t *w, uintptr_t v, uint8_t piece,
                                bool write) {
    uint8_t mr = (uint8_t)(v >> 16), m = write ? (uint8_t)(v >> 8) : mr;
    if (!write) {   /* (W's pos first: most reads fail there) */
        uint64_t wlo = atomic_load_explicit(&w[1], memory_order_relaxed);
        uint64_t whi = (v & GRAN_HALF_R) ? wlo : atomic_load_explicit(&w[5], memory_order_relaxed);
        if (GOLDI_UNLIKELY((!(piece & HALF_LO) || wlo >= ts->epoch_pos) && (!(piece & HALF_HI) || whi >= ts->epoch_pos)) &&
            !(v & GRAN_SPLIT) && ((uint8_t)(v >> 8) & piece) == piece)
            return true;
    }
    if ((m & piece) != piece || (write && (mr & piece)))
        return false;
    uint64_t pos = ts->epoch_pos, own = atomic_load_explicit(&w[write ? 1 : 2], memory_order_relaxed);
    bool own_half = !!(v & GRAN_HALF_R) != write;
    uint64_t phi = own_half ? atomic_load_explicit(&w[5], memory_order_relaxed) : own;
    return (!(piece & HALF_LO) || own >= pos) && (!(piece & HALF_HI) || phi >= pos);
}

/* inl_try_half's update, the record held (its bit, v: w[0] without it; or
 * t's lease): w[0] is stored last, which releases the bit. */
GOLDI_INLINE int inl_half_update(struct gls_thr *ts, goldi_shadow_word_t *w, uintptr_t v, uint8_t piece, bool write,
                                 goldi_origin_t o) {
    unsigned pi = write ? 1 : 2, osh = write ? 0 : 32;
    uintptr_t halfbits = v & (GRAN_HALF | GRAN_HALF_R);
    bool own_half = !!(v & GRAN_HALF_R) != write;   /* the access's kind is the half kind */
    uint8_t mw = (uint8_t)(v >> 8), mr = (uint8_t)(v >> 16), m = write ? mw : mr;
    uint64_t pos = ts->epoch_pos, o3 = atomic_load_explicit(&w[3], memory_order_relaxed);
    GOLDI_DCHECK(inl_pos_registered(w, v, pos));
    uint64_t w5 = atomic_load_explicit(&w[5], memory_order_relaxed), w6 = atomic_load_explicit(&w[6], memory_order_relaxed);
    goldi_origin_t ox = (v & GRAN_DUALO) ? (goldi_origin_t)(w6 >> 32) : 0;   /* the other kind's, on its high half */
    uint64_t plo = atomic_load_explicit(&w[pi], memory_order_relaxed), phi = own_half ? w5 : plo;
    goldi_origin_t olo = (goldi_origin_t)(o3 >> osh), ohi = own_half ? (goldi_origin_t)w6 : (v & GRAN_DUALO) ? ox : olo;
    bool lo = piece & HALF_LO, hi = piece & HALF_HI;
    if ((m & piece) == piece && (!lo || plo >= pos) && (!hi || phi >= pos) && !(write && (mr & piece))) {
        atomic_store_explicit(&w[0], v, memory_order_release);   /* kept (the epoch's first origin stays) */
        tstat(ts, GLS_ST_KEPT, 1);
        return INL_KEPT;
    }
    uint8_t rest = m & (uint8_t)~piece, nm = m | piece, nmr = write ? mr & (uint8_t)~piece : nm;
    if ((lo && (rest & HALF_LO) && (plo != pos || olo != o)) || (hi && (rest & HALF_HI) && (phi != pos || ohi != o)))
        goto unrepresentable;
    if (lo)
        plo = pos, olo = o;
    if (hi)
        phi = pos, ohi = o;
    if (!(nm & HALF_LO))
        plo = phi, olo = ohi;   /* one half only: its history in the kind's own words */
    /* the access's kind with a history per half; the other kind still so */
    bool two = (nm & HALF_LO) && (nm & HALF_HI) && (plo != phi || olo != ohi);
    bool other_two = !own_half && (!write || ((nmr & HALF_LO) && (nmr & HALF_HI)));
    uint64_t o3n = inl_o3_with(o3, write, olo), n5 = 0, n6 = 0;
    uintptr_t half = 0, dualo = 0;
    if (!own_half) {
        if (two && other_two && plo == phi) {   /* both kinds two: the access's one pos, two origins */
            half = halfbits, n5 = w5, n6 = (uint32_t)w6 | (uint64_t)ohi << 32, dualo = GRAN_DUALO;
        } else if (two && other_two) {   /* or the half kind's: the roles swap */
            if (atomic_load_explicit(&w[write ? 2 : 1], memory_order_relaxed) != w5)
                goto unrepresentable;
            half = GRAN_HALF | (write ? 0 : GRAN_HALF_R), n5 = phi, n6 = ohi | (w6 & UINT32_MAX) << 32,
            dualo = GRAN_DUALO;
        } else if (two) {
            half = GRAN_HALF | (write ? 0 : GRAN_HALF_R), n5 = phi, n6 = ohi;
        } else if (other_two) {
            half = halfbits, n5 = w5, n6 = (uint32_t)w6;   /* the half kind as it was */
        }
        if (write && !other_two && !(nmr & HALF_LO) && nmr) {   /* R left on the high half only */
            atomic_store_explicit(&w[2], w5, memory_order_relaxed);
            o3n = inl_o3_with(o3n, false, (goldi_origin_t)w6);
        }
    } else {
        /* the other kind as the access leaves it (a write drops R from its
         * bytes), with its two origins while it keeps both halves */
        uint8_t om = write ? nmr : mw;
        bool odual = (v & GRAN_DUALO) && (om & HALF_LO) && (om & HALF_HI);
        if ((v & GRAN_DUALO) && om && !(om & HALF_LO))
            o3n = inl_o3_with(o3n, !write, ox);   /* left on the high half only: its origin there */
        if (two)
            half = halfbits, n5 = phi, n6 = ohi | (odual ? (uint64_t)ox << 32 : 0), dualo = odual ? GRAN_DUALO : 0;
        else if (odual)   /* one history again: the other kind's two origins make it the half kind */
            half = GRAN_HALF | (write ? GRAN_HALF_R : 0), n5 = atomic_load_explicit(&w[write ? 2 : 1], memory_order_relaxed),
            n6 = ox;
    }
    atomic_store_explicit(&w[pi], plo, memory_order_relaxed);
    atomic_store_explicit(&w[3], o3n, memory_order_relaxed);
    atomic_store_explicit(&w[5], n5, memory_order_relaxed);
    atomic_store_explicit(&w[6], n6, memory_order_relaxed);
    uint8_t nmw = write ? nm : mw;
    uintptr_t nv = (v & ~((uintptr_t)0xffff << 8) & ~(GRAN_HALF | GRAN_HALF_R | GRAN_DUALO)) | half | dualo |
                   (uintptr_t)nmw << 8 | (uintptr_t)nmr << 16;
    atomic_store_explicit(&w[0], nv, memory_order_release);
    return INL_DONE;
unrepresentable:
    atomic_store_explicit(&w[0], v, memory_order_release);
    return INL_NO;
}

/* inl_try for t's half record, on its words in place under the lock bit:
 * the general rule on what a half record holds (all entries of the
 * access's kind are t's; a read leaves a split record's W alone). An
 * access of the half kind gives its half(s) its history, and the record
 * is ordinary again when both halves have the same one; an access of the
 * other kind is as in inl_try, and a write drops R from its bytes (an R
 * left on one half only is ordinary again). INL_NO if t holds a lock (no
 * alock has room here) or the result is not representable (a half with
 * two histories, or both kinds with one per half). Its caller, inl_try_any,
 * has tested kept. */
GOLDI_INLINE int inl_try_half_body(struct gls_thr *ts, struct goldi_thr *thr, goldi_shadow_word_t *w, uintptr_t v,
                                   uint8_t piece, bool write, uintptr_t pc, unsigned size, goldi_origin_t *found) {
    if (thr->n_held)
        return INL_NO;
    if (!*found)
        *found = access_origin_at(ts, thr, pc, write, size);
    goldi_origin_t o = *found;
    bool leased;
    if (!inl_hold(ts, w, v, &leased))
        return INL_NO;
    int r = inl_half_update(ts, w, v, piece, write, o);
    if (leased) {
        gls_lease_done(&ts->lease);
        if (r == INL_DONE)
            tstat(ts, GLS_ST_INL_LEASED, 1);
    } else if (r == INL_DONE) {
        gls_lease_note(ts->leases, &ts->lease, w, ts->epoch_pos);
    }
    return r;
}

/* inl_try_half compiled for each kind (out of line: whole-granule accesses
 * inline inl_try on their hottest path, and this stays out of it); the
 * choice is a constant where the caller's kind is (a 4-byte access's
 * entry). A read's copy runs radix's and the codecs' half-record reads. */
static GOLDI_NOINLINE int inl_try_half_read(struct gls_thr *ts, struct goldi_thr *thr, goldi_shadow_word_t *w,
                                            uintptr_t v, uint8_t piece, uintptr_t pc, unsigned size,
                                            goldi_origin_t *found) {
    return inl_try_half_body(ts, thr, w, v, piece, false, pc, size, found);
}
static GOLDI_NOINLINE int inl_try_half_write(struct gls_thr *ts, struct goldi_thr *thr, goldi_shadow_word_t *w,
                                             uintptr_t v, uint8_t piece, uintptr_t pc, unsigned size,
                                             goldi_origin_t *found) {
    return inl_try_half_body(ts, thr, w, v, piece, true, pc, size, found);
}
GOLDI_INLINE int inl_try_half(struct gls_thr *ts, struct goldi_thr *thr, goldi_shadow_word_t *w, uintptr_t v,
                              uint8_t piece, bool write, uintptr_t pc, unsigned size, goldi_origin_t *found) {
    return write ? inl_try_half_write(ts, thr, w, v, piece, pc, size, found)
                 : inl_try_half_read(ts, thr, w, v, piece, pc, size, found);
}

/* Is v (w[0] as loaded) thr's plain inline record, one inl_try takes for
 * an access of this kind? (A split record's W is another thread's:
 * inl_foreign; a half record: inl_try_any.) */
GOLDI_INLINE bool inl_takes(uintptr_t v, const struct goldi_thr *thr, bool write) {
    return (v & (GRAN_INL | GRAN_LOCK | GRAN_HALF)) == GRAN_INL && inl_owner(v) == thr->tid &&
           !(write && (v & GRAN_SPLIT));
}

/* Kept: the bytes `piece` already carry an entry of this kind from this
 * epoch with this alock (and a write finds no R to supersede), or, a read,
 * t's W from this epoch (a covered read: update_granule), as the fields
 * read without the bit say: the caller confirms w[0] afterwards. */
GOLDI_INLINE bool inl_kept(const struct gls_thr *ts, const struct goldi_thr *thr, goldi_shadow_word_t *w, uintptr_t v,
                           uint8_t piece, bool write) {
    uint8_t mine = (uint8_t)(v >> (write ? 8 : 16)), reads = (uint8_t)(v >> 16);
    if (!write && GOLDI_UNLIKELY(atomic_load_explicit(&w[1], memory_order_relaxed) >= ts->epoch_pos) &&
        !(v & GRAN_SPLIT) && ((uint8_t)(v >> 8) & piece) == piece)
        return true;   /* (W's pos first: most reads fail there, at one compare) */
    if ((mine & piece) != piece || (write && (reads & piece)) ||
        atomic_load_explicit(&w[write ? 1 : 2], memory_order_relaxed) != ts->epoch_pos)
        return false;
    uint64_t old = atomic_load_explicit(&w[write ? 5 : 6], memory_order_relaxed);
    return old == (thr->n_held ? alock_pack(alock_pick(old & ALOCK_ID_MASK, thr)) : 0);
}

/* The update of a record the caller holds (its bit, or its lease) for t's
 * access of `piece` at pos with origin o and alock al, on the words of the
 * access's kind only (op, o3, oa: as they are), then w[0]: the others stay
 * untouched, and no struct is built and copied (the copies stalled on
 * store forwarding in the hottest path). */
GOLDI_INLINE void inl_store_kind(goldi_shadow_word_t *w, uintptr_t v, uint8_t piece, bool write, uint64_t pos,
                                 uint64_t op, uint64_t o3, goldi_origin_t o, uint64_t oa, uint64_t al) {
    unsigned pi = write ? 1 : 2, ai = write ? 5 : 6, osh = write ? 0 : 32;
    GOLDI_DCHECK(inl_pos_registered(w, v, pos));
    if (op != pos)
        atomic_store_explicit(&w[pi], pos, memory_order_relaxed);
    if ((goldi_origin_t)(o3 >> osh) != o)
        atomic_store_explicit(&w[3], inl_o3_with(o3, write, o), memory_order_relaxed);
    if (oa != al)
        atomic_store_explicit(&w[ai], al, memory_order_relaxed);
    atomic_store_explicit(&w[0], inl_w0_after(v, piece, write), memory_order_release);
}

/* v: w[0] as the caller loaded it (with acquire, or under the granule
 * lock). *found is the access's origin, or 0 to find it (pc, size: of the
 * whole access) only if it is stored; found, it is left there for the
 * access's other piece. */
GOLDI_INLINE int inl_try(struct gls_thr *ts, struct goldi_thr *thr, goldi_shadow_word_t *w, uintptr_t v, uint8_t piece,
                         bool write, uintptr_t pc, unsigned size, goldi_origin_t *found) {
    if (!inl_takes(v, thr, write))
        return INL_NO;
    /* Kept: nothing changes but the origin, and any access of one epoch is
     * as good a witness of a race as another, so the first one stays and no
     * lock is taken. The fields are read without the bit, so w[0] is read
     * again after them (seqlock style): an expansion meanwhile changes it
     * for good (only t could fold the granule back as t's, and t is here),
     * and unchanged it vouches for the fields, which only t writes while
     * the record stands. */
    if (inl_kept(ts, thr, w, v, piece, write) && inl_confirmed(ts, w, v))
        return INL_KEPT;
    if (!*found)
        *found = access_origin_at(ts, thr, pc, write, size);
    goldi_origin_t o = *found;
    bool leased;
    if (!inl_hold(ts, w, v, &leased))
        return INL_NO;
    unsigned pi = write ? 1 : 2, ai = write ? 5 : 6, osh = write ? 0 : 32;
    uint8_t mine = (uint8_t)(v >> (write ? 8 : 16));
    uint64_t pos = ts->epoch_pos, op = atomic_load_explicit(&w[pi], memory_order_relaxed);
    uint64_t o3 = atomic_load_explicit(&w[3], memory_order_relaxed);
    uint64_t oa = atomic_load_explicit(&w[ai], memory_order_relaxed);
    uint64_t al = thr->n_held ? alock_pack(alock_pick(oa & ALOCK_ID_MASK, thr)) : 0;
    if ((mine & ~piece) && (op != pos || (goldi_origin_t)(o3 >> osh) != o || oa != al)) {
        int r = inl_try_halve(ts, w, v, piece, write, op, o3, o, al);
        if (leased)
            gls_lease_done(&ts->lease);
        return r;
    }
    inl_store_kind(w, v, piece, write, pos, op, o3, o, oa, al);
    if (leased) {
        gls_lease_done(&ts->lease);
        tstat(ts, GLS_ST_INL_LEASED, 1);
    } else {
        gls_lease_note(ts->leases, &ts->lease, w, pos);
    }
    return INL_DONE;
}

/* inl_try, or inl_try_half for t's half record: the test for one stays out
 * of inl_try, which whole-granule accesses inline on their hottest path. */
GOLDI_INLINE int inl_try_any(struct gls_thr *ts, struct goldi_thr *thr, goldi_shadow_word_t *w, uintptr_t v,
                             uint8_t piece, bool write, uintptr_t pc, unsigned size, goldi_origin_t *found) {
    if ((v & (GRAN_INL | GRAN_LOCK | GRAN_HALF)) == (GRAN_INL | GRAN_HALF) && inl_owner(v) == thr->tid &&
        !(write && (v & GRAN_SPLIT))) {
        /* Kept, as inl_try finds it: no origin, no lock, and no call (xz's
         * match finder reads and writes both 4-byte halves of its tree's
         * granules: 15 M of these a 300 KB input, nearly all kept). */
        if (!thr->n_held && inl_half_kept(ts, w, v, piece, write) && inl_confirmed(ts, w, v))
            return INL_KEPT;
        return inl_try_half(ts, thr, w, v, piece, write, pc, size, found);
    }
    return inl_try(ts, thr, w, v, piece, write, pc, size, found);
}

/* One entry of an expanded inline or packed record, registered in the
 * chunk of its pos like any entry (the ANY sweep finds pool entries through
 * entry refs only). If that chunk no longer takes registrations (the GC is
 * collecting it), it is left unregistered (reg_chunk 0): the granule's ref,
 * in a chunk no later than its pos, stays in the registry, and the GC that
 * collects that chunk finds the entry through the granule (gc_granules) and
 * registers or collects it. */
static void inl_materialise(struct gls_engine *g, struct gls_thr *ts, goldi_shadow_word_t *w, uintptr_t base,
                            goldi_tid_t owner, enum gls_kind kind, uint8_t mask, uint64_t pos,
                            goldi_origin_t origin, uint64_t al) {
    struct gls_entry *e = entry_new(g, ts, kind, base);
    e->owner = owner;
    e->origin = origin;
    e->mask = mask;
    alock_set(e, alock_unpack(al));
    atomic_store_explicit(&e->pos, pos, memory_order_relaxed);
    gls_entry_bump_seq(e);
    gran_insert(w, e);
    gls_list_register(g->list, e, pos >> GLS_CHUNK_BITS);   /* (false: the granule's ref stands for it) */
}

/* Turns an inline granule into pool entries; returns its registry chunk + 1
 * (0 if it was not inline). Caller holds the granule lock. */
static uint64_t inl_expand(struct gls_engine *g, struct gls_thr *ts, goldi_shadow_word_t *w, uintptr_t base) {
    uintptr_t v = inl_lock(g, w, ts ? ts->thr->tid : GOLDI_TID_NONE);
    if (!v)
        return 0;
    struct gls_inl f;
    inl_read(w, v, &f);
    gran_wipe(w);   /* not inline: the owner's fast path backs off */
    struct gls_cent c[INL_CENTS];
    for (uint32_t i = 0, n = inl_cents(&f, c); i < n; i++)
        inl_materialise(g, ts, w, base, c[i].owner, (enum gls_kind)c[i].kind, c[i].mask, c[i].pos, c[i].origin,
                        alock_pack(c[i].al));
    if (ts)
        tstat(ts, GLS_ST_INL_EXPAND, 1);
    return f.reg;
}

/* Drops bytes `mask` from an inline granule (lifetime reset). Caller holds
 * the granule lock. A granule left empty keeps a stale registry ref, which
 * registry compaction and the GC recognise and skip. */
static void inl_clear(struct gls_engine *g, goldi_tid_t self, goldi_shadow_word_t *w, uint8_t mask) {
    uintptr_t v = inl_lock(g, w, self);
    if (!v)
        return;
    struct gls_inl f;
    inl_read(w, v, &f);
    f.mw &= (uint8_t)~mask;
    f.mr &= (uint8_t)~mask;
    inl_half_normalise(&f);
    if (f.mw || f.mr) {
        inl_store(w, &f);
        return;
    }
    gran_wipe(w);
}

/* --- packed granules (docs/goldilocks.md "Packed granules") -----------------------------------
 * A granule whose history an inline record cannot hold (bytes of one kind
 * with different pos or origins: an array of 4-byte elements rewritten one
 * element at a time; a second reader; another thread's write of part of it)
 * but which still is a few plain W/R entries with small enough fields keeps
 * those entries in its shadow words instead of the pool, as up to 3 cells:
 *   w[0]      = PACK | BUSY? | n << 4 | (registry chunk + 1) << 8
 *   w[1 + 2i] = pos | owner << 48
 *   w[2 + 2i] = origin | mask << 32 | kind << 40 | DUAL << 41 | x << 42
 *     x = alock id (20 bits) | mode << 20 | rw << 21, or for a DUAL cell
 *     (no alock) the signed difference origin(bytes 4-7) - origin(bytes 0-3):
 *     two entries of one thread, kind, pos, on the two halves, from two
 *     statements (or two copies of one, in an unrolled loop).
 * The cells are exactly the entries the general representation would hold
 * (every check and update is the general rule, run on them decoded:
 * struct gls_cent), without a pool entry (a cache line each), registrations or
 * frees: the shadow line holds it all. Only the holder of the granule lock
 * writes a packed granule; lock-free readers copy the cells under the
 * granule's version (pack_kept_fast). The granule is registered like an
 * inline record, in a chunk no later than its oldest pos; BUSY (while an
 * access under the lock may re-register it) tells registry compaction to
 * keep its refs.
 *
 * Data written by one thread and then read by several (lu's pivot row,
 * nbody's positions: a W and four R, one per thread) needs more cells than
 * three. When the entries are at most one W and up to four R, all on the
 * whole granule and without an alock, and the R share one origin, the
 * granule holds them as a readers' run instead:
 *   w[0]      = PACK | RUN | RUN_W? | BUSY? | (readers - 1) << 4 | (registry chunk + 1) << 8
 *   w[1]      = pos | owner << 48 of the W (0 without RUN_W)
 *   w[2]      = origin of the W | origin of the R << 32
 *   w[3 + i]  = pos | owner << 48 of reader i
 * pack_read decodes it into the same entries, so every rule is unchanged;
 * the paths that read cells in place (pack_inplace, pack_kept_fast) take
 * it as its own case.
 *
 * One thread's accesses of different sizes, offsets and epochs to one
 * granule (xz's dictionary, written once and then read 1, 2 and 4 bytes
 * at a time from every offset; its range coder's 2-byte probabilities)
 * make several entries of that thread alone, each with bytes of its own:
 * a W and up to six R were nearly all of xz's expansions to the pool. When
 * the entries are at most SOLO_CELLS, all of one owner, without an alock
 * and with origins that hold no lock set (a site alone), the granule keeps
 * them as a solo run instead: each pos as its distance from the start of
 * the granule's registry chunk (no later than its oldest pos, so never
 * negative), the owner in w[0], a cell 48 bits of w[1..6] taken as one
 * 384-bit string:
 *   w[0]      = PACK | SOLO | BUSY? | (registry chunk + 1) << 8 | owner << 48
 *   cell i    = site | (pos - chunk start) << 19 | mask << 39 | kind << 47,  at bit 48 i
 * Cells are in order and end at the first with mask 0. A distance of 2^20
 * cells or more is no solo run. Entries that are one are stored as one
 * whatever their count, so the owner's updates stay in place
 * (solo_inplace). pack_read decodes it as it does the others;
 * pack_kept_fast takes it as its own case (solo_kept_fast), pack_inplace
 * leaves it to the general rule.
 *
 * Entries of several threads on bytes of their own (zstd's job buffers:
 * three threads' W and an R on one granule were two thirds of its
 * expansions) make a mixed run when they are at most MIXED_CELLS, with the
 * same conditions but the owner: a solo run's cell with its owner on top,
 * a word each:
 *   w[0]      = PACK | SOLO | MIXED | BUSY? | (registry chunk + 1) << 8
 *   w[1 + i]  = site | (pos - chunk start) << 19 | mask << 39 | kind << 47 | owner << 48
 * (pack_store tries a solo run, then three cells, then a readers' run,
 * then a mixed run; solo_kept_fast is the lock-free kept test of both.) */
#define GRAN_PACK ((uintptr_t)8)
#define GRAN_BUSY ((uintptr_t)4)
#define PACK_RUN ((uintptr_t)64)
#define PACK_RUN_W ((uintptr_t)128)      /* (with RUN) */
#define PACK_SOLO ((uintptr_t)128)       /* (without RUN) */
#define PACK_MIXED ((uintptr_t)16)       /* (with SOLO) */
#define MIXED_CELLS 6
#define SOLO_CELLS 8
#define SOLO_WORDS 6                     /* w[1..6] */
#define SOLO_DELTA_BITS 20
#define PACK_REG_BITS 40                 /* (a packed granule's pos < 2^48: its chunk + 1 fits) */
#define SOLO_OWNER_SHIFT 48
#define PACK_RUN_MAX 4                   /* readers in a run */
#define PACK_CELLS 3
#define PACK_MAX SOLO_CELLS              /* entries in a full packed granule (a solo run's) */
#define PACK_POS_BITS 48
#define PACK_OWNER_LIMIT (UINT32_C(1) << 16)
#define PACK_ALOCK_BITS 20
#define PACK_DUAL (UINT64_C(1) << 41)
#define PACK_DELTA_LIMIT (INT64_C(1) << 21)
_Static_assert(MIXED_CELLS == SOLO_WORDS, "a mixed run's cells are the words a solo run's string takes");

GOLDI_INLINE bool pack_is(uintptr_t w0) { return (w0 & (GRAN_INL | GRAN_OVF | GRAN_PACK)) == GRAN_PACK; }
GOLDI_INLINE uint64_t pack_reg(uintptr_t w0) { return w0 >> 8 & ((UINT64_C(1) << PACK_REG_BITS) - 1); }
GOLDI_INLINE bool pack_solo(uintptr_t w0) { return (w0 & (PACK_RUN | PACK_SOLO | PACK_MIXED)) == PACK_SOLO; }
GOLDI_INLINE bool pack_mixed(uintptr_t w0) {
    return (w0 & (PACK_RUN | PACK_SOLO | PACK_MIXED)) == (PACK_SOLO | PACK_MIXED);
}

/* Can c be (part of) a cell? (fields in range) */
static bool pack_fits(const struct gls_cent *c) {
    return c->owner < PACK_OWNER_LIMIT && c->pos < (UINT64_C(1) << PACK_POS_BITS) &&
           c->al.id < (UINT64_C(1) << PACK_ALOCK_BITS);
}

GOLDI_INLINE struct gls_cent cell_cent(uint64_t a, uint64_t b, uint8_t mask, goldi_origin_t origin) {
    bool dual = b & PACK_DUAL;
    struct gls_alock al = { 0, 0, 0 };
    if (!dual)
        al = (struct gls_alock){ b >> 42 & ((UINT64_C(1) << PACK_ALOCK_BITS) - 1), (uint8_t)(b >> 62 & 1),
                                 (uint8_t)(b >> 63) };
    return (struct gls_cent){ .pos = a & ((UINT64_C(1) << PACK_POS_BITS) - 1),
                              .al = al,
                              .origin = origin,
                              .owner = (goldi_tid_t)(a >> PACK_POS_BITS),
                              .kind = (uint8_t)(b >> 40 & 1),
                              .mask = mask };
}

/* The words of a cell holding the one entry e (not DUAL; pack_fits(e)):
 * what cell_cent decodes. */
GOLDI_INLINE uint64_t cell_a(const struct gls_cent *e) { return e->pos | (uint64_t)e->owner << PACK_POS_BITS; }
GOLDI_INLINE uint64_t cell_b(const struct gls_cent *e) {
    return (uint64_t)e->origin | (uint64_t)e->mask << 32 | (uint64_t)e->kind << 40 | e->al.id << 42 |
           (uint64_t)e->al.mode << 62 | (uint64_t)e->al.rw << 63;
}

/* A readers' run's entries: its W, if any, then its readers. */
static GOLDI_NOINLINE uint32_t run_read(goldi_shadow_word_t *w, uintptr_t w0, struct gls_cent *c) {
    uint32_t readers = ((uint32_t)(w0 >> 4) & 3) + 1, n = 0;
    uint64_t origins = atomic_load_explicit(&w[2], memory_order_relaxed);
    if (w0 & PACK_RUN_W) {
        uint64_t a = atomic_load_explicit(&w[1], memory_order_relaxed);
        c[n++] = (struct gls_cent){ .pos = a & ((UINT64_C(1) << PACK_POS_BITS) - 1),
                                    .origin = (goldi_origin_t)origins,
                                    .owner = (goldi_tid_t)(a >> PACK_POS_BITS),
                                    .kind = GLS_W,
                                    .mask = 0xff };
    }
    for (uint32_t i = 0; i < readers; i++) {
        uint64_t a = atomic_load_explicit(&w[3 + i], memory_order_relaxed);
        c[n++] = (struct gls_cent){ .pos = a & ((UINT64_C(1) << PACK_POS_BITS) - 1),
                                    .origin = (goldi_origin_t)(origins >> 32),
                                    .owner = (goldi_tid_t)(a >> PACK_POS_BITS),
                                    .kind = GLS_R,
                                    .mask = 0xff };
    }
    return n;
}

/* A solo run's words w[1..6], copied; its cells (48 bits each) from them. */
GOLDI_INLINE void solo_words(goldi_shadow_word_t *w, uint64_t *a) {
    for (unsigned k = 0; k < SOLO_WORDS; k++)
        a[k] = atomic_load_explicit(&w[1 + k], memory_order_relaxed);
}
/* All eight cells of words a, cell i at bit 48 i, at constant shifts: the
 * kept test decodes every cell of a run, and with a cell's own variable
 * shifts it took 1.47 times these instructions (xz). */
GOLDI_INLINE void solo_cells(const uint64_t *a, uint64_t *c) {
    const uint64_t m48 = (UINT64_C(1) << 48) - 1;
    c[0] = a[0] & m48;
    c[1] = (a[0] >> 48 | a[1] << 16) & m48;
    c[2] = (a[1] >> 32 | a[2] << 32) & m48;
    c[3] = a[2] >> 16;
    c[4] = a[3] & m48;
    c[5] = (a[3] >> 48 | a[4] << 16) & m48;
    c[6] = (a[4] >> 32 | a[5] << 32) & m48;
    c[7] = a[5] >> 16;
}
_Static_assert(SOLO_CELLS == 8 && SOLO_WORDS == 6, "solo_cells decodes eight cells of six words");
/* Adds cell i to words a (zeroed where it goes). */
GOLDI_INLINE void solo_put(uint64_t *a, uint32_t i, uint64_t cell) {
    unsigned bit = 48 * i, k = bit / 64, off = bit % 64;
    a[k] |= cell << off;
    if (off > 16)
        a[k + 1] |= cell >> (64 - off);
}
GOLDI_INLINE uint8_t solo_mask(uint64_t cell) { return (uint8_t)(cell >> 39); }
GOLDI_INLINE uint64_t solo_base(uintptr_t w0) { return (pack_reg(w0) - 1) << GLS_CHUNK_BITS; }
GOLDI_INLINE uint64_t solo_pos(uint64_t base, uint64_t cell) {
    return base + (cell >> GOLDI_ORIGIN_SITE_BITS & ((UINT64_C(1) << SOLO_DELTA_BITS) - 1));
}

/* A solo run's cell (its low 48 bits) as its entry, of owner. */
GOLDI_INLINE struct gls_cent solo_cent(uint64_t base, uint64_t cell, goldi_tid_t owner) {
    return (struct gls_cent){
        .pos = solo_pos(base, cell),
        .origin = GOLDI_ORIGIN_COMPOSED | (goldi_origin_t)(cell & ((UINT32_C(1) << GOLDI_ORIGIN_SITE_BITS) - 1)),
        .owner = owner,
        .kind = (uint8_t)(cell >> 47 & 1),
        .mask = solo_mask(cell) };
}

/* A solo run's entries. */
static GOLDI_NOINLINE uint32_t solo_read(goldi_shadow_word_t *w, uintptr_t w0, struct gls_cent *c) {
    uint64_t a[SOLO_WORDS], cells[SOLO_CELLS], base = solo_base(w0);
    solo_words(w, a);
    solo_cells(a, cells);
    uint32_t n = 0;
    for (; n < SOLO_CELLS && solo_mask(cells[n]); n++)
        c[n] = solo_cent(base, cells[n], (goldi_tid_t)(w0 >> SOLO_OWNER_SHIFT));
    return n;
}

/* A mixed run's entries. */
static GOLDI_NOINLINE uint32_t mixed_read(goldi_shadow_word_t *w, uintptr_t w0, struct gls_cent *c) {
    uint64_t base = solo_base(w0);
    uint32_t n = 0;
    for (uint64_t cell; n < MIXED_CELLS && solo_mask(cell = atomic_load_explicit(&w[1 + n], memory_order_relaxed));
         n++)
        c[n] = solo_cent(base, cell, (goldi_tid_t)(cell >> 48));
    return n;
}

/* The cells' entries c[0..n) (c has room for PACK_MAX). */
static uint32_t pack_read(goldi_shadow_word_t *w, uintptr_t w0, struct gls_cent *c) {
    if (w0 & PACK_RUN)
        return run_read(w, w0, c);
    if (pack_solo(w0))
        return solo_read(w, w0, c);
    if (pack_mixed(w0))
        return mixed_read(w, w0, c);
    uint32_t cells = (uint32_t)(w0 >> 4) & 3, n = 0;
    for (uint32_t i = 0; i < cells; i++) {
        uint64_t a = atomic_load_explicit(&w[1 + 2 * i], memory_order_relaxed);
        uint64_t b = atomic_load_explicit(&w[2 + 2 * i], memory_order_relaxed);
        uint8_t mask = (uint8_t)(b >> 32);
        if (!(b & PACK_DUAL)) {
            c[n++] = cell_cent(a, b, mask, (goldi_origin_t)b);
            continue;
        }
        int64_t delta = (int64_t)b >> 42;   /* arithmetic shift: the signed top 22 bits */
        c[n++] = cell_cent(a, b, mask & 0x0f, (goldi_origin_t)b);
        c[n++] = cell_cent(a, b, mask & 0xf0, (goldi_origin_t)((int64_t)(goldi_origin_t)b + delta));
    }
    return n;
}

/* Could entries lo (bytes 0-3) and hi (bytes 4-7) share a DUAL cell? */
GOLDI_INLINE bool pack_pairs(const struct gls_cent *lo, const struct gls_cent *hi) {
    int64_t d = (int64_t)hi->origin - (int64_t)lo->origin;
    return !(lo->mask & 0xf0) && !(hi->mask & 0x0f) && lo->kind == hi->kind && lo->owner == hi->owner &&
           !lo->al.id && !hi->al.id && lo->pos == hi->pos && d >= -PACK_DELTA_LIMIT && d < PACK_DELTA_LIMIT;
}

/* Stores entries c[0..n) (each pack_fits) as a readers' run registered in
 * chunk reg - 1, w[0] last, if they are one (the comment above PACK_RUN);
 * false (nothing written) if not. Caller holds the granule lock. */
static GOLDI_NOINLINE bool run_store(goldi_shadow_word_t *w, const struct gls_cent *c, uint32_t n, uint64_t reg) {
    uint64_t wa = 0, origins = 0, ra[PACK_RUN_MAX];
    uint32_t readers = 0;
    bool have_w = false;
    for (uint32_t i = 0; i < n; i++) {
        const struct gls_cent *e = &c[i];
        if (e->mask != 0xff || e->al.id || e->al.mode || e->al.rw)
            return false;
        if (e->kind == GLS_W) {
            if (have_w)
                return false;
            have_w = true;
            wa = cell_a(e);
            origins |= e->origin;
        } else {
            if (readers == PACK_RUN_MAX || (readers && e->origin != (goldi_origin_t)(origins >> 32)))
                return false;
            origins |= (uint64_t)e->origin << 32;
            ra[readers++] = cell_a(e);
        }
    }
    if (!readers)
        return false;
    atomic_store_explicit(&w[1], wa, memory_order_relaxed);
    atomic_store_explicit(&w[2], origins, memory_order_relaxed);
    for (uint32_t i = 0; i < PACK_RUN_MAX; i++)
        atomic_store_explicit(&w[3 + i], i < readers ? ra[i] : 0, memory_order_relaxed);
    atomic_store_explicit(&w[0],
                          GRAN_PACK | PACK_RUN | (have_w ? PACK_RUN_W : 0) | (uintptr_t)(readers - 1) << 4 |
                              (uintptr_t)reg << 8,
                          memory_order_release);
    return true;
}

/* The 48-bit cell of entry e in a solo or mixed run whose registry chunk
 * starts at base; 0 if e cannot be one (an alock, a lock set in the origin
 * or none composed, a distance out of range). */
GOLDI_INLINE uint64_t solo_cell_of(const struct gls_cent *e, uint64_t base) {
    if (e->al.id || e->al.mode || e->al.rw || !e->mask || e->pos < base || (e->pos - base) >> SOLO_DELTA_BITS ||
        e->origin >> GOLDI_ORIGIN_SITE_BITS != GOLDI_ORIGIN_COMPOSED >> GOLDI_ORIGIN_SITE_BITS)
        return 0;
    return (e->origin & ((UINT32_C(1) << GOLDI_ORIGIN_SITE_BITS) - 1)) | (e->pos - base) << GOLDI_ORIGIN_SITE_BITS |
           (uint64_t)e->mask << 39 | (uint64_t)e->kind << 47;
}

/* Stores entries c[0..n) (each pack_fits) as a solo run registered in
 * chunk reg - 1, w[0] last, if they are one (the comment above PACK_SOLO);
 * false (nothing written) if not. Caller holds the granule lock. */
static GOLDI_NOINLINE bool solo_store(goldi_shadow_word_t *w, const struct gls_cent *c, uint32_t n, uint64_t reg) {
    if (n > SOLO_CELLS || !reg || reg >> PACK_REG_BITS)
        return false;
    uint64_t base = (reg - 1) << GLS_CHUNK_BITS, a[SOLO_WORDS] = { 0 };
    for (uint32_t i = 0; i < n; i++) {
        uint64_t cell = c[i].owner == c[0].owner ? solo_cell_of(&c[i], base) : 0;
        if (!cell)
            return false;
        solo_put(a, i, cell);
    }
    for (unsigned k = 0; k < SOLO_WORDS; k++)
        atomic_store_explicit(&w[1 + k], a[k], memory_order_relaxed);
    atomic_store_explicit(&w[0], GRAN_PACK | PACK_SOLO | (uintptr_t)reg << 8 | (uintptr_t)c[0].owner << SOLO_OWNER_SHIFT,
                          memory_order_release);
    return true;
}

/* The same as a mixed run (the comment above PACK_MIXED). */
static GOLDI_NOINLINE bool mixed_store(goldi_shadow_word_t *w, const struct gls_cent *c, uint32_t n, uint64_t reg) {
    if (n > MIXED_CELLS || !reg || reg >> PACK_REG_BITS)
        return false;
    uint64_t base = (reg - 1) << GLS_CHUNK_BITS, a[MIXED_CELLS] = { 0 };
    for (uint32_t i = 0; i < n; i++) {
        uint64_t cell = solo_cell_of(&c[i], base);
        if (!cell)
            return false;
        a[i] = cell | (uint64_t)c[i].owner << 48;   /* (pack_fits: below 2^16) */
    }
    for (unsigned k = 0; k < MIXED_CELLS; k++)
        atomic_store_explicit(&w[1 + k], a[k], memory_order_relaxed);
    atomic_store_explicit(&w[0], GRAN_PACK | PACK_SOLO | PACK_MIXED | (uintptr_t)reg << 8, memory_order_release);
    return true;
}

/* Writes cell words cw[0..2n) (the granule's other cell words 0), then
 * w[0]: a packed granule of n cells registered in chunk reg - 1 (clearing
 * BUSY). Caller holds the granule lock. */
GOLDI_INLINE void pack_cells_store(goldi_shadow_word_t *w, const uint64_t *cw, uint32_t n, uint64_t reg) {
#pragma GCC unroll 6   /* (six plain stores; the loop cost as much as the cells' encoding) */
    for (uint32_t i = 0; i < 2 * PACK_CELLS; i++)
        atomic_store_explicit(&w[1 + i], i < 2 * n ? cw[i] : 0, memory_order_relaxed);
    atomic_store_explicit(&w[0], GRAN_PACK | (uintptr_t)n << 4 | (uintptr_t)reg << 8, memory_order_release);
}

/* Stores entries c[0..n) (each pack_fits) registered in chunk reg - 1,
 * w[0] last (clearing BUSY), as a solo run if they are one, else as cells
 * if they fit in PACK_CELLS, a readers' run or a mixed run; false (nothing
 * written) if not. Caller holds the granule lock. */
static bool pack_store(goldi_shadow_word_t *w, const struct gls_cent *c, uint32_t n, uint64_t reg) {
#if GOLDI_DEBUG >= 1
    for (uint32_t i = 0; i < n; i++)   /* (registered no later than any cell's pos, as an inline record) */
        GOLDI_CHECK((c[i].pos >> GLS_CHUNK_BITS) + 1 >= reg);
#endif
    if (solo_store(w, c, n, reg))
        return true;   /* (one thread's entries stay a run whatever their count: solo_inplace) */
    uint64_t cw[2 * PACK_CELLS];
    uint32_t used = 0, cells = 0;   /* bit i: c[i] went into a DUAL cell with an earlier one */
    for (uint32_t i = 0; i < n; i++) {
        if (used >> i & 1)
            continue;
        if (cells == PACK_CELLS)
            return run_store(w, c, n, reg) || mixed_store(w, c, n, reg);
        /* Pairs are looked for only when the entries do not fit one per
         * cell: the two encodings stand for the same entries. */
        uint32_t j = n <= PACK_CELLS ? n : i + 1;
        while (j < n && ((used >> j & 1) || !(pack_pairs(&c[i], &c[j]) || pack_pairs(&c[j], &c[i]))))
            j++;
        const struct gls_cent *e = &c[i];
        uint64_t a = cell_a(e);   /* (a DUAL cell's two entries share pos and owner) */
        uint64_t b;
        if (j < n) {   /* a DUAL cell: origin of the low half, difference to the high half's */
            const struct gls_cent *lo = (e->mask & 0x0f) ? e : &c[j], *hi = lo == e ? &c[j] : e;
            int64_t d = (int64_t)hi->origin - (int64_t)lo->origin;
            b = (uint64_t)lo->origin | (uint64_t)(lo->mask | hi->mask) << 32 | (uint64_t)e->kind << 40 | PACK_DUAL |
                (uint64_t)d << 42;
            used |= 1u << j;
        } else {
            b = cell_b(e);
        }
        cw[2 * cells] = a;
        cw[2 * cells + 1] = b;
        cells++;
    }
    pack_cells_store(w, cw, cells, reg);
    return true;
}

static uint64_t pack_min_pos(const struct gls_cent *c, uint32_t n) {
    uint64_t m = UINT64_MAX;
    for (uint32_t i = 0; i < n; i++)
        if (c[i].pos < m)
            m = c[i].pos;
    return m;
}

/* Turns entries c[0..n) of a packed granule into pool entries, left
 * unregistered like an expanded inline record's: the granule's ref stays
 * valid while it has entries, and the GC that collects its chunk registers
 * them (gc_granules). Caller holds the granule lock. */
static void pack_expand_cells(struct gls_engine *g, struct gls_thr *ts, goldi_shadow_word_t *w, uintptr_t base,
                              const struct gls_cent *c, uint32_t n) {
    gran_wipe(w);
    for (uint32_t i = 0; i < n; i++)
        inl_materialise(g, ts, w, base, c[i].owner, (enum gls_kind)c[i].kind, c[i].mask, c[i].pos, c[i].origin,
                        alock_pack(c[i].al));
    if (ts)
        tstat(ts, GLS_ST_PACK_EXPAND, 1);
}

static void pack_expand(struct gls_engine *g, struct gls_thr *ts, goldi_shadow_word_t *w, uintptr_t base) {
    struct gls_cent c[PACK_MAX];
    uint32_t n = pack_read(w, atomic_load_explicit(&w[0], memory_order_relaxed), c);
    pack_expand_cells(g, ts, w, base, c, n);
}

/* Drops bytes `mask` from a packed granule at base (lifetime reset). Caller
 * holds the granule lock. */
static void pack_clear(struct gls_engine *g, struct gls_thr *ts, goldi_shadow_word_t *w, uintptr_t base,
                       uint8_t mask) {
    uintptr_t w0 = atomic_load_explicit(&w[0], memory_order_relaxed);
    struct gls_cent c[PACK_MAX];
    uint32_t n = pack_read(w, w0, c), k = 0;
    for (uint32_t i = 0; i < n; i++) {
        c[i].mask &= (uint8_t)~mask;
        if (c[i].mask)
            c[k++] = c[i];
    }
    if (!k) {
        gran_wipe(w);
    } else if (!pack_store(w, c, k, pack_reg(w0))) {
        pack_expand_cells(g, ts, w, base, c, k);   /* (a run whose bytes are partly cleared is no run) */
    }
}

/* Registry compaction asks whether a granule ref of chunk c may still be
 * needed: an inline granule registered there, or any granule with entries
 * (entries expanded from an inline record rely on the ref until they are
 * registered themselves). Unsure answers say yes: a stale ref costs a look. */
static bool inl_registered(void *ctx, struct goldi_shadow_probe *pr, uintptr_t addr, uint64_t c) {
    struct gls_engine *g = ctx;
    goldi_shadow_word_t *w = goldi_shadow_word_if_kept(pr, g->env.plane, addr);
    if (!w)
        return false;
    uintptr_t w0 = atomic_load_explicit(&w[0], memory_order_acquire);
    if (inl_is(w0))
        return (w0 & GRAN_LOCK) || inl_reg(w0, atomic_load_explicit(&w[4], memory_order_relaxed)) == c + 1;
    if (pack_is(w0))
        return (w0 & GRAN_BUSY) || pack_reg(w0) == c + 1;
    for (unsigned i = 0; i < GRAN_SLOTS; i++)
        if (atomic_load_explicit(&w[i], memory_order_relaxed))
            return true;
    return false;
}

/* ALLOC/FREE: the bytes [lo, lo+n) start a fresh lifetime (handbook 1.1). */
struct gls_reset { struct gls_engine *g; struct gls_thr *ts; };

static uint8_t byte_mask(uintptr_t lo, uintptr_t hi) {   /* bytes [lo, hi) of lo's granule */
    unsigned a = (unsigned)(lo & (GOLDI_GRANULE - 1)), b = a + (unsigned)(hi - lo);
    return (uint8_t)(((1u << b) - 1) & ~((1u << a) - 1));
}

/* Bytes `mask` of the granule at base start afresh, in whatever form it
 * is. Caller holds the granule lock. */
static void gran_reset_locked(struct gls_engine *g, struct gls_thr *ts, goldi_shadow_word_t *w, uintptr_t base,
                              uint8_t mask) {
    uintptr_t w0 = atomic_load_explicit(&w[0], memory_order_relaxed);
    if (inl_is(w0))
        inl_clear(g, ts ? ts->thr->tid : GOLDI_TID_NONE, w, mask);
    else if (pack_is(w0))
        pack_clear(g, ts, w, base, mask);
    else
        gran_clear(g, ts, w, mask);
}

static void gran_reset(struct gls_engine *g, struct gls_thr *ts, goldi_shadow_word_t *w, uintptr_t base,
                       uint8_t mask) {
    gran_lock(g, ts, w);
    gran_reset_locked(g, ts, w, base, mask);
    gran_unlock(ts, w);
}

static void reset_partial(struct gls_engine *g, struct gls_thr *ts, uintptr_t lo, uintptr_t hi) {
    uintptr_t base = lo & ~(uintptr_t)(GOLDI_GRANULE - 1);
    goldi_shadow_word_t *w = goldi_shadow_word_if_present(g->env.plane, base);
    if (w)
        gran_reset(g, ts, w, base, byte_mask(lo, hi));
}

/* Has the granule at w (one with a non-zero word: goldi_shadow_for_each_granule)
 * state to reset? The version alone is not state (it only grows): a
 * granule with no other word set, and not held, has none, and is passed
 * over without taking its lock. */
static bool gran_has_state(goldi_shadow_word_t *w) {
    uintptr_t state = 0;
    for (unsigned i = 0; i < GRAN_VER; i++)
        state |= atomic_load_explicit(&w[i], memory_order_relaxed);
    return state || (atomic_load_explicit(&w[GRAN_VER], memory_order_relaxed) & 1);
}

/* A whole granule reset under its own lock. */
static void reset_granule(void *ctx, uintptr_t base, goldi_shadow_word_t *w) {
    struct gls_reset *r = ctx;
    if (gran_has_state(w))
        gran_reset(r->g, r->ts, w, base, 0xff);
}

/* The whole granules [*a, *b) among the bytes [lo, lo+n), which end at *hi
 * (UINTPTR_MAX for bytes that wrap); false if the bytes lie inside one
 * granule. */
static bool whole_granules(uintptr_t lo, size_t n, uintptr_t *a, uintptr_t *b, uintptr_t *hi) {
    *hi = lo + n;
    if (*hi < lo)
        *hi = UINTPTR_MAX;
    const uintptr_t G = GOLDI_GRANULE;
    *a = (lo + G - 1) & ~(G - 1);
    *b = *hi & ~(G - 1);
    return *a <= *b && *a >= lo;
}

/* The bytes [lo, lo+n) start afresh; whole_done: their whole granules did
 * already (gls_on_free_fast), only the partial ones at either end remain. */
static void reset_range(struct gls_engine *g, struct gls_thr *ts, uintptr_t lo, size_t n, bool whole_done) {
    uintptr_t a, b, hi;
    if (!whole_granules(lo, n, &a, &b, &hi)) {
        reset_partial(g, ts, lo, hi);
        return;
    }
    if (lo < a)
        reset_partial(g, ts, lo, a);
    if (a < b && !whole_done) {
        struct gls_reset r = { g, ts };
        goldi_shadow_for_each_granule(g->env.plane, a, b - a, reset_granule, &r);
    }
    if (b < hi)
        reset_partial(g, ts, b, hi);
}

/* --- the walk (seed 000 fig. 3 Apply-Lockset-Rules, batched) ----------------------------- */

struct gls_job {
    uint64_t pos;                 /* activation point */
    goldi_tid_t owner;
    uint32_t n_tok;               /* initial set tok[0..n_tok), or {owner} if 0 */
    const uint64_t *tok;
};

/* Evaluates the sets of jobs[0..n) (n <= 64, sorted by pos) over the cells
 * [jobs[0].pos, end). Set i is activated when the walk reaches jobs[i].pos.
 Returns the mask of sets that contain ttok (the accessing thread), stopping
 * as soon as all do (thread tokens are never removed, so membership is final).
 * (The GC's evaluation, gc_eval, is the same walk with wider masks.)
 *
 * Skipping unwritten cells is sound: a reserved but unwritten
 * cell belongs to a sync operation that has not completed. Every hb path from
 * the previous access to the current one ends with an operation of the current
 * thread (or a chain of completed releases/acquires before it), and each
 * cell on such a path was written before the real release/after the real
 * acquire it records, hence before the current access started, hence before
 * this walk. The ready cells form an hb-downward-closed set of operations in an
 * order consistent with hb (release cells precede their acquires, atomic cells
 * are appended inside the location's critical section), i.e. a valid
 * linearisation of a prefix of the execution, which is all Goldilocks needs
 * (seed 000 thm 1 holds for any linearisation); the unwritten operations are
 * linearised after the current access. */
#define GLS_BF(k) (UINT64_C(1) << (((k) * 0x9E3779B97F4A7C15ull) >> 58))

static uint64_t walk(struct gls_map *m, struct gls_list *l, const struct gls_job *jobs, unsigned n,
                     uint64_t ttok, uint64_t end, uint64_t *walked) {
    uint64_t all = n == 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1;
    uint64_t tmask = 0, cnt = 0;
    unsigned next = 0;
    uint64_t id = jobs[0].pos;
    /* bf: a 64-bit Bloom filter of the keys in the map. Most cells of a long
     * walk are about tokens in no set; the filter rejects them without a map
     * probe (a removed token keeps its bit: a false positive, never a miss). */
    uint64_t bf = 0;
    gls_map_clear(m);
    for (;;) {
        while (next < n && jobs[next].pos <= id) {
            uint64_t bit = UINT64_C(1) << next;
            const struct gls_job *jb = &jobs[next];
            if (jb->n_tok) {
                for (uint32_t k = 0; k < jb->n_tok; k++) {
                    *gls_map_slot(m, jb->tok[k]) |= bit;
                    bf |= GLS_BF(jb->tok[k]);
                    if (jb->tok[k] == ttok)
                        tmask |= bit;
                }
            } else {
                uint64_t o = gls_tok(GLS_TK_THREAD, jobs[next].owner);
                *gls_map_slot(m, o) |= bit;
                bf |= GLS_BF(o);
                if (o == ttok)
                    tmask |= bit;
            }
            next++;
        }
        if (next == n && (tmask & all) == all)
            break;
        if (id >= end)
            break;
        uint64_t c = id >> GLS_CHUNK_BITS;
        uint64_t lim = (c + 1) << GLS_CHUNK_BITS;
        if (lim > end)
            lim = end;
        if (next < n && jobs[next].pos < lim)
            lim = jobs[next].pos;
        struct gls_slot *sl = gls_list_peek(l, c);
        if (!sl) {
            /* Not installed yet: none of its cells is written (a writer
             * installs the chunk before writing). */
            id = lim;
            continue;
        }
        struct gls_cell *cells = atomic_load_explicit(&sl->cells, memory_order_acquire);
        for (; id < lim; id++) {
            struct gls_cell *cell = &cells[id & (GLS_CHUNK - 1)];
            uint64_t a = atomic_load_explicit(&cell->a, memory_order_acquire);
            if (!a)
                continue;   /* reserved, not written: see above */
            cnt++;
            uint64_t braw = cell->b, b = braw & ~GLS_OP_STORE;
            if (braw & GLS_OP_STORE) {
                /* st: a in LS ? add b : remove b, for every set at once */
                if (!(bf & (GLS_BF(a) | GLS_BF(b))))
                    continue;
                uint64_t va = gls_map_get(m, a);
                if (!va && !gls_map_get(m, b))
                    continue;
                *gls_map_slot(m, b) = va;
            } else {
                if (!(bf & GLS_BF(a)))
                    continue;
                uint64_t va = gls_map_get(m, a);
                if (!va)
                    continue;
                *gls_map_slot(m, b) |= va;
            }
            bf |= GLS_BF(b);
            if (b == ttok) {
                tmask = gls_map_get(m, b);
                if (next == n && (tmask & all) == all) {
                    id++;
                    goto out;
                }
            }
        }
    }
out:
    *walked = cnt;
    return tmask & all;
}

/* The backward walk (docs/goldilocks.md "Backward walks"). Every rule is a
 * union-preserving map of sets, so "t ends up in the set started as S at p"
 * holds iff S meets R(p), the tokens whose presence just before cell p puts t
 * in the set at the end. R(end) = {t}, and one step back over cell (a, b)
 * changes R only if b is in it: the add rule adds a; the store rule replaces
 * b by a. A thread token never leaves R going back (no rule removes a thread
 * token), so when owner u's token enters R at cell q, t is ordered after
 * every access of u placed at or before q: that is recorded as walk
 * knowledge, and the entries of u are settled at once. A consumer reading a
 * message published long ago thus walks back only to the producer's latest
 * release before its acquire, instead of forward from the message's pos.
 * Walks back from end over at most `budget` cells; returns the jobs found
 * ordered (the others are racy or were not reached). check_batch does not
 * bound it: a walk that has to go deep (the reader synchronised with the
 * writers through a long chain: a forked child reading its parent's data
 * after thousands of its own lock operations) leaves knowledge of every
 * thread it met, the latest cell where each entered R, so the next checks
 * are cache hits; a bounded walk followed by a forward one verified a single
 * pos per walk, and a reader of many entries walked the list once per entry. */
static void oc_put(struct gls_thr *ts, goldi_tid_t owner, uint64_t pos);
static uint64_t walk_back(struct gls_thr *ts, struct gls_list *l, const struct gls_job *jobs, unsigned n,
                          uint64_t ttok, uint64_t end, uint64_t budget, uint64_t *walked) {
    struct gls_map *m = &ts->map;
    uint64_t all = n == 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1, ok = 0, settled = 0, cnt = 0;
    uint64_t bf = GLS_BF(ttok);
    gls_map_clear(m);
    *gls_map_slot(m, ttok) = 1;
    unsigned k = n;                           /* jobs[k..n) settled by position */
    uint64_t id = end;
    for (;;) {
        /* jobs whose pos is id: R(id) is exact for them */
        while (k > 0 && jobs[k - 1].pos >= id) {
            k--;
            uint64_t bit = UINT64_C(1) << k;
            if (settled & bit)
                continue;
            const struct gls_job *jb = &jobs[k];
            bool in = false;
            if (!jb->n_tok)
                in = gls_map_get(m, gls_tok(GLS_TK_THREAD, jb->owner)) != 0;
            for (uint32_t i = 0; i < jb->n_tok && !in; i++)
                in = (bf & GLS_BF(jb->tok[i])) && gls_map_get(m, jb->tok[i]);
            settled |= bit;
            if (in)
                ok |= bit;
        }
        if (settled == all || id == 0 || cnt >= budget)
            break;
        id--;
        struct gls_slot *sl = gls_list_peek(l, id >> GLS_CHUNK_BITS);
        if (!sl)
            break;   /* collected (or not installed): stop, the rest goes forward */
        struct gls_cell *cells = atomic_load_explicit(&sl->cells, memory_order_acquire);
        struct gls_cell *cell = &cells[id & (GLS_CHUNK - 1)];
        uint64_t a = atomic_load_explicit(&cell->a, memory_order_acquire);
        cnt++;
        if (!a)
            continue;   /* reserved, not written: an operation still in progress (after us) */
        uint64_t braw = cell->b, b = braw & ~GLS_OP_STORE;
        if (!(bf & GLS_BF(b)) || !gls_map_get(m, b))
            continue;
        if (braw & GLS_OP_STORE)
            *gls_map_slot(m, b) = 0;
        uint64_t *sa = gls_map_slot(m, a);
        if (*sa)
            continue;
        *sa = 1;
        bf |= GLS_BF(a);
        if (gls_tok_kind(a) != GLS_TK_THREAD)
            continue;
        /* owner token a enters R at cell id: t is after all of a's accesses up
         * to id. That settles every job of owner u placed before id, a
         * materialised one too: its set holds u (it grew from {u}, and thread
         * tokens are never removed), and the rules are monotone in the set. */
        goldi_tid_t u = (goldi_tid_t)gls_tok_value(a);
        oc_put(ts, u, id);
        for (unsigned j = 0; j < k; j++)
            if (jobs[j].owner == u && !(settled >> j & 1)) {
                settled |= UINT64_C(1) << j;
                ok |= UINT64_C(1) << j;
            }
    }
    *walked = cnt;
    return ok;
}

/* "{T1, sync#12, ...}" for set number bit of the last walk. */
static void set_format(const struct gls_map *m, unsigned bit, char *buf, size_t n) {
    size_t len = 0;
    bool first = true;
    len += (size_t)goldi_snprintf(buf, n, "{");
    for (uint32_t i = 0; i < m->n && len + 24 < n; i++) {
        const struct gls_kv *kv = &m->kv[m->used[i]];
        if (!(kv->mask >> bit & 1))
            continue;
        if (!first)
            len += (size_t)goldi_snprintf(buf + len, n - len, ", ");
        len += (size_t)gls_tok_format(buf + len, n - len, kv->key);
        first = false;
    }
    if (len + 24 >= n && len < n)
        len += (size_t)goldi_snprintf(buf + len, n - len, ", ...");
    if (len < n)
        goldi_snprintf(buf + len, n - len, "}");
}

/* --- accesses -------------------------------------------------------------------------- */

static const char *const kind_name[] = { "write", "read", "atomic write", "atomic read" };

/* A race of the current piece with one earlier access (entry), on the bytes
 * in mask (bit i = byte base+i of the piece's granule). */
struct gls_pending {
    goldi_origin_t prev;
    goldi_tid_t prev_tid;
    uint8_t prev_kind;
    uint8_t mask;
    char why[160];
};
#define GLS_MAX_PENDING 8

struct gls_access {
    struct gls_engine *g;
    struct goldi_thr *thr;
    struct gls_thr *ts;
    const struct goldi_event *ev;
    goldi_tid_t t;
    goldi_origin_t origin;
    uintptr_t base;               /* the granule */
    bool write, atomic;
    struct gls_pending *pend;     /* GLS_MAX_PENDING, in the thread's scratch */
    unsigned n_pend;
};

/* Per-thread scratch of the access path: on_access runs on the user's stack
 * (possibly a small signal stack), so the big arrays live here. A thread is
 * never in on_access twice at once (the runtime's reentrancy guard). */
struct gls_tscratch {
    struct gls_pending pend[GLS_MAX_PENDING];
    struct gls_entry *batch[GLS_BATCH];
    struct gls_job jobs[GLS_BATCH];
    uint8_t idx[GLS_BATCH];
    struct gls_job rest[GLS_BATCH];   /* forward walk after a backward one */
    uint8_t at[GLS_BATCH];
};

static bool entry_relevant(const struct gls_access *x, const struct gls_entry *e) {
    if (x->write && !x->atomic)
        return true;                                  /* vs W, R, AW, AR */
    if (!x->write && !x->atomic)
        return e->kind == GLS_W || e->kind == GLS_AW; /* plain read vs W, AW */
    if (!x->write)
        return e->kind == GLS_W;                      /* atomic read vs W */
    return e->kind == GLS_W || e->kind == GLS_R;      /* atomic write vs W, R */
}

/* Reports the pending races of the piece: one report per earlier access and
 * contiguous run of racy bytes (a run never spans bytes that did not race
 * with that access). */
static void flush_races(struct gls_access *x) {
    struct gls_engine *g = x->g;
    for (unsigned i = 0; i < x->n_pend; i++) {
        struct gls_pending *p = &x->pend[i];
        for (unsigned b = 0; b < GOLDI_GRANULE;) {
            if (!(p->mask >> b & 1)) {
                b++;
                continue;
            }
            unsigned e = b;
            while (e < GOLDI_GRANULE && (p->mask >> e & 1))
                e++;
            struct goldi_race r;
            r.addr = x->base + b;
            r.size = e - b;
            r.cur = x->origin;
            r.prev = p->prev;
            r.cur_tid = x->t;
            r.prev_tid = p->prev_tid;
            r.cur_write = x->write;
            r.cur_atomic = x->atomic;
            r.prev_write = p->prev_kind == GLS_W || p->prev_kind == GLS_AW;
            r.prev_atomic = p->prev_kind == GLS_AW || p->prev_kind == GLS_AR;
            r.engine = "goldilocks";
            goldi_memcpy(r.why, p->why, sizeof r.why);
            stat(g, x->t, GLS_ST_RACES, 1);
            g->env.report(g->env.report_ctx, &r);
            b = e;
        }
    }
    x->n_pend = 0;
}

static void add_race(struct gls_access *x, const struct gls_entry *e, uint8_t mask, const char *why) {
    for (unsigned i = 0; i < x->n_pend; i++) {
        struct gls_pending *p = &x->pend[i];
        if (p->prev == e->origin && p->prev_tid == e->owner && p->prev_kind == e->kind) {
            p->mask |= mask;
            return;
        }
    }
    if (x->n_pend == GLS_MAX_PENDING)
        flush_races(x);   /* never drop one: every racy byte must be reported (§3) */
    struct gls_pending *p = &x->pend[x->n_pend++];
    p->prev = e->origin;
    p->prev_tid = e->owner;
    p->prev_kind = e->kind;
    p->mask = mask;
    goldi_snprintf(p->why, sizeof p->why, "%s", why);
}

static struct gls_oc *oc_slot(struct gls_thr *ts, goldi_tid_t owner) {
    return &ts->oc[((uint64_t)owner * 0x9E3779B97F4A7C15ull) >> (64 - GLS_OC_BITS)];
}

static bool oc_has(struct gls_thr *ts, goldi_tid_t owner, uint64_t pos) {
    const struct gls_oc *c = oc_slot(ts, owner);
    return c->owner == owner && pos < c->pos1;
}

static void oc_put(struct gls_thr *ts, goldi_tid_t owner, uint64_t pos) {
    struct gls_oc *c = oc_slot(ts, owner);
    if (c->owner != owner || !c->pos1) {
        c->owner = owner;
        c->pos1 = pos + 1;
    } else if (pos + 1 > c->pos1) {
        c->pos1 = pos + 1;
    }
}

static struct gls_mc *mc_slot(struct gls_thr *ts, const struct gls_mat *m, uint64_t pos) {
    return &ts->mc[((m->hash ^ pos) * 0x9E3779B97F4A7C15ull) >> (64 - 4)];
}

static bool mc_has(struct gls_thr *ts, const struct gls_mat *m, uint64_t pos) {
    const struct gls_mc *c = mc_slot(ts, m, pos);
    return c->set && c->pos == pos && gls_mat_same(c->set, m->tok, m->n, m->hash);
}

static void mc_put(struct gls_thr *ts, const struct gls_mat *m, uint64_t pos) {
    struct gls_mc *c = mc_slot(ts, m, pos);
    gls_mat_free(c->set);
    c->set = gls_mat_new(m->tok, m->n);
    c->pos = pos;
}

/* Walks the entries of batch[0..n) together, reports those not ordered. */
static void check_batch(struct gls_access *x, uint8_t piece, struct gls_entry **batch, unsigned n) {
    struct gls_job *jobs = x->ts->sc->jobs;
    uint8_t *idx = x->ts->sc->idx;
    /* insertion sort by pos: batches are small */
    for (unsigned i = 0; i < n; i++) {
        unsigned j = i;
        uint64_t p = atomic_load_explicit(&batch[i]->pos, memory_order_relaxed);
        while (j > 0 && jobs[j - 1].pos > p) {
            jobs[j] = jobs[j - 1];
            idx[j] = idx[j - 1];
            j--;
        }
        jobs[j].pos = p;
        jobs[j].owner = batch[i]->owner;
        GOLDI_DCHECK(!batch[i]->mat || gls_mat_has(batch[i]->mat, gls_tok(GLS_TK_THREAD, batch[i]->owner)));
        jobs[j].n_tok = batch[i]->mat ? batch[i]->mat->n : 0;
        jobs[j].tok = batch[i]->mat ? batch[i]->mat->tok : NULL;
        idx[j] = (uint8_t)i;
    }
    struct gls_list *l = x->g->list;
    uint64_t end = atomic_load(&l->tail), walked = 0, ttok = gls_tok(GLS_TK_THREAD, x->t);
    uint64_t all = n == 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1;
    uint64_t ok = walk_back(x->ts, l, jobs, n, ttok, end, UINT64_MAX, &walked);
    tstat(x->ts, GLS_ST_WALKS, 1);
    tstat(x->ts, GLS_ST_CELLS_WALKED, walked);
    /* Forward walk for the jobs left unsettled, and for the racy ones (the
     * report shows the set they evaluate to): set i of it is jobs[at[i]]. */
    struct gls_job *rest = x->ts->sc->rest;
    uint8_t *at = x->ts->sc->at;
    unsigned r = 0;
    uint64_t fwd = ~ok & all;
    for (unsigned j = 0; j < n; j++)
        if (fwd >> j & 1) {
            at[r] = (uint8_t)j;
            rest[r++] = jobs[j];
        }
    uint64_t fok = 0;
    if (r) {
        uint64_t more = 0;
        fok = walk(&x->ts->map, l, rest, r, ttok, end, &more);
        tstat(x->ts, GLS_ST_CELLS_WALKED, more);
        walked += more;
    }
    /* (cells reserved but unwritten during the first walk may be written by
     * now: both views are linearisations; the later one decides) */
    for (unsigned i = 0; i < r; i++)
        if (fok >> i & 1)
            ok |= UINT64_C(1) << at[i];
    for (unsigned i = 0, j = 0; j < n; j++) {
        struct gls_entry *e = batch[idx[j]];
        if (ok >> j & 1) {
            if (!e->mat)
                oc_put(x->ts, e->owner, jobs[j].pos);
            else
                mc_put(x->ts, e->mat, jobs[j].pos);
            continue;
        }
        while (at[i] != j)
            i++;
        char set[112], why[160];
        set_format(&x->ts->map, i, set, sizeof set);
        goldi_snprintf(why, sizeof why, "T%u not in the Goldilockset of T%u's %s %s (walked %llu cells)",
                       x->t, e->owner, kind_name[e->kind], set, (unsigned long long)walked);
        add_race(x, e, e->mask & piece, why);
    }
}

/* Checks the piece (bytes `piece` of the granule) against every entry that
 * shares a byte with it and conflicts with it (2.0 FULL). */
static void check_granule(struct gls_access *x, uint8_t piece, struct gls_entry **es, uint32_t n) {
    struct gls_entry **batch = x->ts->sc->batch;
    unsigned nb = 0;
    for (uint32_t i = 0; i < n; i++) {
        struct gls_entry *e = es[i];
        if (!(e->mask & piece) || !entry_relevant(x, e))
            continue;
        if (e->owner == x->t) {                       /* (1) owner short-circuit */
            tstat(x->ts, GLS_ST_OWNER_SC, 1);
            continue;
        }
        if (alock_orders(e, x->thr)) {                /* (2) alock short-circuit */
            tstat(x->ts, GLS_ST_ALOCK_SC, 1);
            continue;
        }
        /* A materialised set holds its owner, so walk knowledge about the
         * owner (oc) settles it too; mc is for sets ordered by other tokens. */
        uint64_t pos = atomic_load_explicit(&e->pos, memory_order_relaxed);
        if (oc_has(x->ts, e->owner, pos) || (e->mat && mc_has(x->ts, e->mat, pos))) {
            tstat(x->ts, GLS_ST_CACHED, 1);           /* an earlier walk of this set found t */
            continue;
        }
        batch[nb++] = e;                              /* (3) lazy walk */
        if (nb == GLS_BATCH) {
            check_batch(x, piece, batch, nb);
            nb = 0;
        }
    }
    if (nb)
        check_batch(x, piece, batch, nb);
}

/* Is an entry of owner at pos, made holding alock al, known ordered before
 * t's access without a walk: t holds that lock now, or an earlier walk
 * found t after owner's pos (read subsumption, split records)? */
static bool known_ordered(struct gls_thr *ts, const struct goldi_thr *thr, struct gls_alock al, goldi_tid_t owner,
                          uint64_t pos) {
    return alock_orders_al(al, thr) || oc_has(ts, owner, pos);
}

/* Read subsumption: another thread's plain read e on the bytes of t's plain
 * read that is ordered before it (t holds e's alock now, or an earlier walk
 * found t after e) is no longer needed once t's read is recorded. A later
 * access that races with e races with t's read as well (were t's read
 * ordered before it, e would be too), with the same kind, since writes are
 * not touched: the first report of every byte stays the same (ALGORITHMS.md
 * §3; FastTrack keeps one read epoch on the same grounds). t's read takes
 * those bytes out of e, so a node read under its lock by every thread in
 * turn keeps one reader's entry instead of one per thread. */
static bool read_subsumes(struct gls_access *x, const struct gls_entry *e) {
    return e->kind == GLS_R && e->owner != x->t &&
           known_ordered(x->ts, x->thr, (struct gls_alock){ e->alock_id, e->alock_mode, e->alock_rw }, e->owner,
                         atomic_load_explicit(&e->pos, memory_order_relaxed));
}

/* update_granule's rule in parts (pack_update applies the same rule to
 * decoded cells). The access's own record among es[0..n): t's entry of its kind covering
 * the piece; *others: the access drops or changes another entry there. */
GOLDI_INLINE struct gls_entry *own_record(const struct gls_access *x, enum gls_kind kind, uint8_t piece,
                                    struct gls_entry *const *es, uint32_t n, bool *others) {
    struct gls_entry *mine = NULL;
    *others = false;
    for (uint32_t i = 0; i < n; i++) {
        struct gls_entry *e = es[i];
        if (!(e->mask & piece))
            continue;
        if (e->kind == kind && e->owner == x->t && (e->mask & piece) == piece && !mine)
            mine = e;
        else if (kind == GLS_W || (e->kind == kind && e->owner == x->t))
            *others = true;
    }
    return mine;
}

/* Kept: t's record already covers the piece and still stands for {t} (no
 * cell of t since its pos), and no other entry is dropped by the access;
 * at most its origin and alock change. True (counted) if so. */
GOLDI_INLINE bool record_kept(struct gls_access *x, struct gls_entry *mine, bool others, uint8_t piece,
                        struct gls_alock al) {
    if (!mine || others || mine->mat || atomic_load_explicit(&mine->pos, memory_order_relaxed) < x->ts->epoch_pos)
        return false;
    if (mine->mask == piece) {
        mine->origin = x->origin;
        alock_set(mine, al);
    } else if (mine->origin != x->origin || !alock_same(mine, al)) {
        return false;
    }
    tstat(x->ts, GLS_ST_KEPT, 1);
    return true;
}

/* Registers t's entry e as started at t's epoch (or at e's own pos, if
 * later: pos never moves back; any start in [epoch_pos, tail] is the same
 * set {t}). */
static void place_in_epoch(struct gls_access *x, struct gls_entry *e, uint64_t cur) {
    uint64_t want = x->ts->epoch_pos > cur ? x->ts->epoch_pos : cur;
    uint64_t pos = gls_list_place(x->g->list, e, want);
    if (pos != want && pos > x->ts->epoch_pos)
        x->ts->epoch_pos = pos;   /* want's chunk is being collected: the tail starts the same set */
}

/* Moved: t's record covers exactly the piece and no other entry is dropped,
 * but a cell of t came since its pos: the general case would empty it, take
 * it back for re-use and place it anew; it is placed anew where it is. (A
 * plain read only if no other thread's read is on its bytes, one it might
 * subsume: es is the whole granule (n == all) and holds none. What the
 * general case adds besides, sharing with an entry of the same history on
 * other bytes, only saves an entry.) */
GOLDI_INLINE bool record_moved(struct gls_access *x, struct gls_entry *mine, bool others, uint8_t piece,
                               enum gls_kind kind, struct gls_alock al, struct gls_entry *const *es, uint32_t n,
                               uint32_t all) {
    if (!mine || others || mine->mask != piece)
        return false;
    if (kind == GLS_R) {
        if (n < all)
            return false;
        for (uint32_t i = 0; i < n; i++)
            if (es[i]->kind == GLS_R && es[i]->owner != x->t && (es[i]->mask & piece))
                return false;
    }
    gls_mat_free(mine->mat);
    mine->mat = NULL;
    mine->origin = x->origin;
    alock_set(mine, al);
    place_in_epoch(x, mine, atomic_load_explicit(&mine->pos, memory_order_relaxed));
    tstat(x->ts, GLS_ST_MOVED, 1);
    return true;
}

/* Same history as the access: e may take the piece's bytes too. */
GOLDI_INLINE bool record_joins(const struct gls_access *x, const struct gls_entry *e, enum gls_kind kind,
                         struct gls_alock al) {
    return e->kind == kind && e->owner == x->t && !e->mat && e->origin == x->origin &&
           atomic_load_explicit(&e->pos, memory_order_relaxed) >= x->ts->epoch_pos && alock_same(e, al);
}

/* A covered read: t's plain read of bytes that t's W entries from t's
 * epoch cover records nothing. Its R would add nothing to what is checked:
 * it has the W's thread and pos, so an access ordered after one is ordered
 * after the other; every access its R is checked against (a write, plain
 * or atomic) is checked against the W too, and finds the same first race
 * of the byte, of kind WW or WR (ALGORITHMS.md section 3: the kind is WW
 * when some earlier unordered write conflicts); and a write that drops the
 * W drops the R. A node's field read and written in turn (xz's match
 * finder, its binary tree's pairs) then costs no update after its first
 * write. (No materialised set: the W stands for {t} at its pos.) */
static bool read_covered(const struct gls_access *x, struct gls_entry *const *es, uint32_t n, uint8_t piece) {
    uint8_t cov = 0;
    for (uint32_t i = 0; i < n; i++)
        if (es[i]->kind == GLS_W && es[i]->owner == x->t && !es[i]->mat &&
            atomic_load_explicit(&es[i]->pos, memory_order_relaxed) >= x->ts->epoch_pos)
            cov |= es[i]->mask;
    return (cov & piece) == piece;
}

/* Records the access as the newest entry of its kind for the bytes of the
 * piece (2.3 read/write extension): owner := t, set := {t} (started at t's
 * epoch), alock re-picked. A covered read records nothing (read_covered).
 * A plain write first drops every entry on those bytes, any other access
 * t's own entry of its kind. es[0..n) may leave out entries a plain read
 * needs neither check nor change (gran_entries_for_read) of the granule's
 * `all`. */
static void update_granule(struct gls_access *x, goldi_shadow_word_t *w, uint8_t piece, struct gls_entry **es,
                           uint32_t n, uint32_t all) {
    enum gls_kind kind = x->atomic ? (x->write ? GLS_AW : GLS_AR) : (x->write ? GLS_W : GLS_R);
    struct gls_thr *ts = x->ts;
    if (kind == GLS_R && read_covered(x, es, n, piece)) {
        tstat(ts, GLS_ST_KEPT, 1);
        return;
    }
    bool others;
    struct gls_entry *mine = own_record(x, kind, piece, es, n, &others);
    struct gls_alock al = alock_pick(mine ? mine->alock_id : 0, x->thr);
    if (record_kept(x, mine, others, piece, al))
        return;
    if (record_moved(x, mine, others, piece, kind, al, es, n, all))
        return;
    /* General case: take the piece's bytes away from the superseded entries
     * (a plain read: also from the other threads' reads it subsumes, which
     * es may leave out). */
    struct gls_entry *reuse = NULL, *every[GOLDI_GRANULE];
    if (kind == GLS_R && n < all)
        es = gran_entries(w, every, &n);
    for (uint32_t i = n; i-- > 0;) {
        struct gls_entry *e = es[i];
        if (!(e->mask & piece))
            continue;
        if (kind != GLS_W && !(e->kind == kind && e->owner == x->t) && !(kind == GLS_R && read_subsumes(x, e)))
            continue;
        e->mask &= (uint8_t)~piece;
        if (!e->mask) {
            gran_remove(w, e);
            if (!reuse) {
                reuse = e;   /* re-used for the new record (keeps its registration) */
                continue;
            }
            entry_free(x->g, ts, e);
        }
    }
    /* Same history as an entry on other bytes of the granule: share it (also
     * when an entry was freed up for re-use: a granule rewritten piece by
     * piece by one thread then ends with one entry, and can fold back inline). */
    {
        uint32_t m, all;
        struct gls_entry *buf[GOLDI_GRANULE];
        es = kind == GLS_R ? gran_entries_for_read(w, buf, &m, &all, x->t) : gran_entries(w, buf, &m);
        for (uint32_t i = 0; i < m; i++) {
            struct gls_entry *e = es[i];
            if (record_joins(x, e, kind, al)) {
                e->mask |= piece;
                if (reuse)
                    entry_free(x->g, ts, reuse);
                tstat(ts, GLS_ST_SHARED, 1);
                return;
            }
        }
    }
    struct gls_entry *e = reuse;
    uint64_t cur = 0;
    if (e) {
        e->kind = (uint8_t)kind;
        gls_mat_free(e->mat);
        e->mat = NULL;
        cur = atomic_load_explicit(&e->pos, memory_order_relaxed);
    } else {
        e = entry_new(x->g, ts, kind, x->base);
    }
    e->owner = x->t;
    e->origin = x->origin;
    e->mask = piece;
    alock_set(e, al);
    place_in_epoch(x, e, cur);
    gran_insert(w, e);
    tstat(ts, GLS_ST_RECORDED, 1);
}

/* Registers the granule of x, about to hold a new record in chunk c, in
 * c's registry (false if c takes no registrations). Where the granule
 * extends a registered run of a sweep (gls_list_register_new_granule),
 * the run takes the rest of its shadow page at once, and the thread's
 * next new granules there find themselves registered already while c
 * takes registrations: one registry push (a shard lock) per 64 granules
 * of a sweep instead of one each. The look at c is made under the
 * granule's lock, which the GC takes to visit the run's granules after it
 * closes c (gls_list_takes): either c is closed and the record takes the
 * tail's chunk, or the GC finds the record. A granule of the run that
 * never gets a record costs the GC a look, on a shadow page the sweep
 * committed. Caller holds the granule lock. */
#define NEW_RUN_SPAN (GOLDI_GRANULE * 512 / sizeof(goldi_shadow_word_t))   /* bytes a shadow page covers */
static bool new_granule_registered(struct gls_access *x, uint64_t c) {
    struct gls_thr *ts = x->ts;
    struct gls_list *l = x->g->list;
    uintptr_t a = x->base;
    for (unsigned i = 0; i < GLS_AHEAD; i++) {
        const struct gls_ahead *h = &ts->ahead[i];
        if (a - h->lo < h->len && h->chunk == c && gls_list_takes(l, c))
            return true;
    }
    uintptr_t end;
    if (!gls_list_register_new_granule(l, a, c, x->t, NEW_RUN_SPAN, &end))
        return false;
    if (end)
        ts->ahead[ts->ahead_next++ % GLS_AHEAD] = (struct gls_ahead){ a + GOLDI_GRANULE, end - a - GOLDI_GRANULE, c };
    return true;
}

/* The first access of an empty granule (after its lifetime started) by a
 * plain access: an inline record owned by t, registered in the chunk of
 * t's epoch start (or of the tail if that chunk is being collected, exactly
 * as gls_list_place does). It is locked while it registers, so registry
 * compaction sees it as live. */
static void inl_create(struct gls_access *x, goldi_shadow_word_t *w, uint8_t piece) {
    struct gls_thr *ts = x->ts;
    struct gls_list *l = x->g->list;
    struct gls_inl f = { .owner = x->t, .wowner = x->t };
    uint64_t pos = ts->epoch_pos;
    inl_update(&f, piece, x->write, pos, x->origin, alock_pack(alock_pick(0, x->thr)));
    atomic_store_explicit(&w[0], inl_word0(&f) | GRAN_LOCK, memory_order_relaxed);
    for (;;) {
        f.pw = f.pr = pos;
        f.reg = (pos >> GLS_CHUNK_BITS) + 1;
        atomic_store_explicit(&w[4], f.reg, memory_order_release);
        if (new_granule_registered(x, pos >> GLS_CHUNK_BITS))
            break;
        pos = atomic_load(&l->tail);   /* pos's chunk is being collected: the tail starts the same set */
    }
    if (pos > ts->epoch_pos)
        ts->epoch_pos = pos;
    inl_store(w, &f);
    tstat(ts, GLS_ST_INL_NEW, 1);
}

/* After a general update by t: a granule left with only t's W and/or R (no
 * materialised set) folds back inline, so t's next accesses take the fast
 * path again (ownership moved to t: data initialised by one thread, then
 * worked on by another). Its entries' registrations go with them, so the
 * granule registers in the chunk of its oldest pos (not if that chunk is
 * being collected: then it stays as it is). */
static void inl_contract(struct gls_access *x, goldi_shadow_word_t *w) {
    struct gls_entry *buf[GOLDI_GRANULE];
    uint32_t n;
    struct gls_entry **es = gran_entries(w, buf, &n);
    struct gls_inl f;
    if (n == 0 || n > INL_CENTS || !inl_of_entries(x->t, es, n, &f))
        return;
    /* t's entries may start later than t's epoch (the GC moved one to the
     * tail, and t's update in the same epoch kept its pos: place_in_epoch).
     * t's epoch start moves up to them, which starts the same set {t}: the
     * owner's updates store its epoch start (inl_try), which must not fall
     * before the record's registry chunk, or the GC, visiting the record when
     * that chunk is collected, finds a pos of a chunk already freed and never
     * moves it (a false race once t's next own cell is collected too). */
    uint64_t min = inl_min_pos(&f), c = min >> GLS_CHUNK_BITS;
    if (x->ts->epoch_pos < min)
        x->ts->epoch_pos = min;
    if (!gls_list_register_granule(x->g->list, x->base, c, x->t))
        return;
    f.reg = c + 1;
    /* es may be an overflow array left with one or two entries: it goes too */
    struct gls_entry *freed[INL_CENTS];
    for (uint32_t i = 0; i < n; i++)
        freed[i] = es[i];
    uintptr_t w0 = atomic_load_explicit(&w[0], memory_order_relaxed);
    for (unsigned i = 0; i < GRAN_SLOTS; i++)
        atomic_store_explicit(&w[i], 0, memory_order_relaxed);
    if (w0 & GRAN_OVF)
        goldi_free((void *)(w0 & ~GRAN_OVF));
    for (uint32_t i = 0; i < n; i++)
        entry_free(x->g, x->ts, freed[i]);
    inl_store(w, &f);
    tstat(x->ts, GLS_ST_INL_CONTRACT, 1);
}

/* The pos of a record t adds to a granule registered (inline or packed) in
 * chunk *reg - 1: t's epoch start, unless that is in an earlier chunk, which
 * then takes the granule's ref (*reg updated) -- or, if that chunk no longer
 * takes registrations, the tail, which starts the same set (as in
 * inl_create). Caller holds the granule lock. */
static uint64_t granule_new_pos(struct gls_access *x, uint64_t *reg) {
    struct gls_thr *ts = x->ts;
    struct gls_list *l = x->g->list;
    uint64_t pos = ts->epoch_pos;
    while ((pos >> GLS_CHUNK_BITS) + 1 < *reg) {
        if (gls_list_register_granule(l, x->base, pos >> GLS_CHUNK_BITS, x->t)) {
            *reg = (pos >> GLS_CHUNK_BITS) + 1;
            break;
        }
        pos = atomic_load(&l->tail);
    }
    if (pos > ts->epoch_pos)
        ts->epoch_pos = pos;
    return pos;
}

/* check_granule on the cells c[0..n) when each one it would check is
 * settled without a walk (t's own, ordered by its alock, or found ordered
 * by an earlier walk): true, counted as check_granule counts. False
 * (nothing counted): the caller checks them as entries. */
/* Entries found ordered before an access without a walk, by how
 * (check_granule's short-circuits, counted once the whole check settles). */
struct gls_settled {
    uint64_t own, alock, cached;
};

/* Is the entry of owner, made holding alock al, at pos, ordered before
 * thr's access without a walk: thr's own, by a lock thr holds, or found so
 * by an earlier walk? Counted in *s if so. */
GOLDI_INLINE bool entry_settled(struct gls_settled *s, struct gls_thr *ts, const struct goldi_thr *thr,
                                goldi_tid_t owner, struct gls_alock al, uint64_t pos) {
    if (owner == thr->tid)
        s->own++;
    else if (alock_orders_al(al, thr))
        s->alock++;
    else if (oc_has(ts, owner, pos))
        s->cached++;
    else
        return false;
    return true;
}

GOLDI_INLINE void settled_count(struct gls_thr *ts, const struct gls_settled *s) {
    tstat(ts, GLS_ST_OWNER_SC, s->own);
    tstat(ts, GLS_ST_ALOCK_SC, s->alock);
    tstat(ts, GLS_ST_CACHED, s->cached);
}

static bool cents_settled(struct gls_thr *ts, const struct goldi_thr *thr, bool write, uint8_t piece,
                          const struct gls_cent *c, uint32_t n) {
    struct gls_settled st = { 0, 0, 0 };
    for (uint32_t i = 0; i < n; i++) {
        if (!(c[i].mask & piece) || !(write || c[i].kind == GLS_W))   /* (entry_relevant, plain) */
            continue;
        if (!entry_settled(&st, ts, thr, c[i].owner, c[i].al, c[i].pos))
            return false;
    }
    settled_count(ts, &st);
    return true;
}

/* inl_foreign's test: can the record f take t's access (alock *al, at pos)
 * in place? A read first drops another thread's R all on its bytes that it
 * subsumes (read_subsumes: t holds that R's alock, or an earlier walk found
 * t after it), and keeps another thread's W next to its R (a split record)
 * if it overlaps that W (checked) or knows it ordered the same two ways;
 * f is stored only if the update goes ahead. */
static bool inl_foreign_ok(struct gls_thr *ts, const struct goldi_thr *thr, struct gls_inl *f, uint8_t piece,
                           bool write, goldi_origin_t origin, uint64_t pos, uint64_t *al) {
    goldi_tid_t t = thr->tid;
    if (write) {
        *al = thr->n_held ? alock_pack(alock_pick(f->wowner == t ? f->aw & ALOCK_ID_MASK : 0, thr)) : 0;
        return (!(f->mw & ~piece) || (f->wowner == t && f->pw == pos && f->ow == origin && f->aw == *al)) &&
               (!(f->mr & ~piece) || f->owner == t);
    }
    if (f->mr && f->owner != t && !(f->mr & ~piece) &&
        known_ordered(ts, thr, alock_unpack(f->ar), f->owner, f->pr))
        f->mr = 0;
    *al = thr->n_held ? alock_pack(alock_pick(f->owner == t ? f->ar & ALOCK_ID_MASK : 0, thr)) : 0;
    return (!f->mr || (f->owner == t && (!(f->mr & ~piece) || (f->pr == pos && f->or == origin && f->ar == *al)))) &&
           (!f->mw || f->wowner == t ||
            (f->ow && origin && f->reg <= INL_SPLIT_REG_MAX &&
             ((f->mw & piece) || known_ordered(ts, thr, alock_unpack(f->aw), f->wowner, f->pw))));
}

/* inl_foreign's update of f, once inl_foreign_ok said yes and the check
 * found the access ordered after the record's entries it must follow. */
static void inl_foreign_apply(struct gls_inl *f, goldi_tid_t t, uint8_t piece, bool write, goldi_origin_t origin,
                              uint64_t pos, uint64_t al) {
    if (write) {
        f->mw = (uint8_t)(piece | (f->wowner == t && f->pw == pos ? f->mw : 0));
        f->mr &= (uint8_t)~piece;   /* what is left is t's (inl_foreign_ok) */
        f->wowner = f->owner = t;
        f->pw = pos;
        f->ow = origin;
        f->aw = al;
    } else {
        f->mr = (uint8_t)(piece | (f->owner == t && f->pr == pos ? f->mr : 0));
        f->owner = t;
        f->pr = pos;
        f->or = origin;
        f->ar = al;
    }
}

/* A plain access by t to an inline granule that inl_try did not take (t is
 * not the owner, or writes to a split record; free too): the record's W and
 * R are checked like the entries they stand for, and the record is updated
 * in place when the result is representable: a write by t leaves t's record
 * (it supersedes every W and R on its bytes, so other bytes must hold no
 * other thread's W or R); a read by t adds t's R next to a W that is t's, or
 * another thread's W found ordered before this read (a split record), while
 * no other thread has an R there. The read need only overlap that W, not
 * cover it: overlapping, W was checked, and being ordered is a property of
 * W's thread and pos, so its other bytes are ordered before the read too
 * (radix's 4-byte reads of 8-byte granules written by another thread). A
 * read of W's other half checks nothing against it, so it makes a split
 * record only if W is known ordered without a walk: by the lock W's thread
 * held (multiset's key read next to another thread's count, under the
 * bucket lock), or by an earlier walk (inl_foreign_ok).
 * False (nothing checked, nothing changed):
 * expand and take the general path. Caller holds the granule lock. */
static bool inl_foreign(struct gls_access *x, goldi_shadow_word_t *w, uint8_t piece, bool record) {
    struct gls_thr *ts = x->ts;
    goldi_tid_t t = x->t;
    uintptr_t v = inl_lock(x->g, w, t);
    if (!v)
        return false;
    if (v & GRAN_HALF) {   /* (the locked path packs it: the rule runs on its cells) */
        atomic_store_explicit(&w[0], v, memory_order_release);
        return false;
    }
    struct gls_inl f;
    inl_read(w, v, &f);
    uint64_t pos = record ? granule_new_pos(x, &f.reg) : ts->epoch_pos, al = 0;
    if (record && !inl_foreign_ok(ts, x->thr, &f, piece, x->write, x->origin, pos, &al)) {
        atomic_store_explicit(&w[0], v, memory_order_release);
        return false;
    }
    struct gls_entry c[INL_CENTS], *es[INL_CENTS] = { &c[0], &c[1], &c[2], &c[3] };
    check_granule(x, piece, es, inl_entries(&f, c));
    if (!record) {
        atomic_store_explicit(&w[0], v, memory_order_release);
        return true;
    }
    if (!x->write && f.mw && f.wowner != t && x->n_pend) {
        /* a split record needs its W ordered before the read: a racy read
         * goes to entries (its race is pending; the general check adds it
         * again under the same key, so it is reported once) */
        atomic_store_explicit(&w[0], v, memory_order_release);
        return false;
    }
    inl_foreign_apply(&f, t, piece, x->write, x->origin, pos, al);
    inl_store(w, &f);
    tstat(ts, GLS_ST_INL_FOREIGN, 1);
    return true;
}

/* inl_foreign_fast's read by t, holding no lock, of part of another
 * thread's W record (no R), half or not: the record becomes a split one
 * (the W as it is, t's R on the piece) when every W half the read overlaps
 * is settled by an earlier walk and none of the W has a later pos than
 * those (pack_contract's rule for split records; a half record's entries
 * have no alock, a plain one keeps its W's in w[5]), as the general way
 * (inl_foreign_ok, cents_settled, inl_foreign_apply) leaves it. The
 * scatter's output read by the next pass (radix: another thread's keys,
 * written from one statement, or from two unrolled copies: a half W). */
static GOLDI_NOINLINE bool inl_split_fast(struct gls_thr *ts, struct goldi_thr *thr, goldi_shadow_word_t *w,
                                          uintptr_t v, uint8_t piece, uintptr_t pc, unsigned size,
                                          goldi_origin_t *found) {
    goldi_tid_t wt = inl_owner(v);
    uint8_t mw = (uint8_t)(v >> 8);
    bool half = v & GRAN_HALF;
    uint64_t plo = atomic_load_explicit(&w[1], memory_order_relaxed), w5 = atomic_load_explicit(&w[5], memory_order_relaxed);
    uint64_t phi = half ? w5 : plo;   /* (w5: the high half's pos, or W's alock) */
    uint64_t last = plo > phi ? plo : phi;
    bool lo = piece & mw & HALF_LO, hi = piece & mw & HALF_HI;
    if ((!lo && !hi) || (lo && !oc_has(ts, wt, plo)) || (hi && !oc_has(ts, wt, phi)) ||
        ((lo ? plo : 0) < last && (hi ? phi : 0) < last) ||
        (!half && !(goldi_origin_t)atomic_load_explicit(&w[3], memory_order_relaxed)))
        return false;   /* (a split record's W has an origin: inl_foreign_ok) */
    if (!*found)
        *found = access_origin_at(ts, thr, pc, false, size);
    goldi_origin_t origin = *found;
    uint64_t pos = ts->epoch_pos, reg = atomic_load_explicit(&w[4], memory_order_relaxed);
    if (!origin || (pos >> GLS_CHUNK_BITS) + 1 < reg || reg > INL_SPLIT_REG_MAX ||
        !atomic_compare_exchange_strong_explicit(&w[0], &v, v | GRAN_LOCK, memory_order_acquire, memory_order_relaxed) ||
        !gls_lease_revoke(ts->leases, w, wt, v | GRAN_LOCK))
        return false;
    if (atomic_load_explicit(&w[4], memory_order_relaxed) != reg || atomic_load_explicit(&w[1], memory_order_relaxed) != plo ||
        atomic_load_explicit(&w[5], memory_order_relaxed) != w5) {
        atomic_store_explicit(&w[0], v, memory_order_release);   /* (changed since read: the locked path) */
        return false;
    }
    uint64_t o3 = atomic_load_explicit(&w[3], memory_order_relaxed);
    atomic_store_explicit(&w[2], pos, memory_order_relaxed);
    atomic_store_explicit(&w[3], inl_o3_with(o3, false, origin), memory_order_relaxed);
    atomic_store_explicit(&w[4], reg | (uint64_t)wt << 32, memory_order_relaxed);
    if (!half)
        atomic_store_explicit(&w[6], 0, memory_order_relaxed);   /* t's R, without an alock */
    atomic_store_explicit(&w[0], (v & ~((uintptr_t)UINT32_MAX << 32)) | GRAN_SPLIT | (uintptr_t)piece << 16 |
                                     (uintptr_t)thr->tid << 32, memory_order_release);
    tstat(ts, GLS_ST_CACHED, half ? (uint64_t)lo + hi : 1);
    tstat(ts, GLS_ST_INL_FOREIGN_FAST, 1);
    return true;
}

/* inl_foreign_fast's case of a whole-granule access by a thread that is not
 * the record's owner (a slot handed from producer to consumer and back, a
 * node read after another thread wrote it): the same tests and the same
 * result as the general way (inl_read, inl_foreign_ok, inl_cents,
 * cents_settled, inl_foreign_apply, inl_store) on the words this case reads
 * and changes only. A read keeps the W (checked) next to its R, which
 * subsumes the other thread's R if that is known ordered before it; a write
 * checks both and leaves only its own W. Caller holds the lock bit (v: w[0]
 * without it), and the record is not a half one. */
GOLDI_INLINE bool inl_handoff(struct gls_thr *ts, const struct goldi_thr *thr, goldi_shadow_word_t *w, uintptr_t v,
                        bool write, goldi_origin_t origin) {
    goldi_tid_t t = thr->tid, owner = inl_owner(v);
    uint8_t mw = (uint8_t)(v >> 8), mr = (uint8_t)(v >> 16);
    uint64_t w4 = atomic_load_explicit(&w[4], memory_order_relaxed), reg = inl_reg(v, w4);
    goldi_tid_t wowner = (v & GRAN_SPLIT) ? (goldi_tid_t)(w4 >> 32) : owner;
    uint64_t pos = ts->epoch_pos, w3 = atomic_load_explicit(&w[3], memory_order_relaxed);
    GOLDI_DCHECK(owner != t && !(v & (GRAN_HALF | GRAN_DUALO)));
    if ((pos >> GLS_CHUNK_BITS) + 1 < reg)
        return false;
    if (!write && mw && wowner != t && !((goldi_origin_t)w3 && origin && reg <= INL_SPLIT_REG_MAX))
        return false;   /* (no split record to be made) */
    struct gls_settled st = { 0, 0, 0 };
    uint64_t w5 = atomic_load_explicit(&w[5], memory_order_relaxed);   /* W's alock */
    if (mw && !entry_settled(&st, ts, thr, wowner, alock_unpack(w5), atomic_load_explicit(&w[1], memory_order_relaxed)))
        return false;   /* (W: checked by both kinds) */
    if (mr) {   /* another thread's R: a write checks it, a read subsumes it or stops */
        struct gls_alock ar = alock_unpack(atomic_load_explicit(&w[6], memory_order_relaxed));
        uint64_t pr = atomic_load_explicit(&w[2], memory_order_relaxed);
        if (write ? !entry_settled(&st, ts, thr, owner, ar, pr) : !known_ordered(ts, thr, ar, owner, pr))
            return false;
    }
    if (write) {
        uint64_t al = thr->n_held ? alock_pack(alock_pick(wowner == t ? w5 & ALOCK_ID_MASK : 0, thr)) : 0;
        atomic_store_explicit(&w[1], pos, memory_order_relaxed);
        atomic_store_explicit(&w[3], (w3 & ~(uint64_t)UINT32_MAX) | origin, memory_order_relaxed);
        atomic_store_explicit(&w[4], reg, memory_order_relaxed);
        atomic_store_explicit(&w[5], al, memory_order_relaxed);
        atomic_store_explicit(&w[0], GRAN_INL | (uintptr_t)0xff << 8 | (uintptr_t)t << 32, memory_order_release);
    } else {
        uint64_t al = thr->n_held ? alock_pack(alock_pick(0, thr)) : 0;
        bool split = mw && wowner != t;
        atomic_store_explicit(&w[2], pos, memory_order_relaxed);
        atomic_store_explicit(&w[3], (uint32_t)w3 | (uint64_t)origin << 32, memory_order_relaxed);
        atomic_store_explicit(&w[4], reg | (split ? (uint64_t)wowner << 32 : 0), memory_order_relaxed);
        atomic_store_explicit(&w[6], al, memory_order_relaxed);
        atomic_store_explicit(&w[0],
                              GRAN_INL | (split ? GRAN_SPLIT : 0) | (uintptr_t)mw << 8 | (uintptr_t)0xff << 16 |
                                  (uintptr_t)t << 32,
                              memory_order_release);
    }
    settled_count(ts, &st);
    tstat(ts, GLS_ST_INL_FOREIGN_FAST, 1);
    return true;
}

/* inl_foreign without the granule lock, from the runtime's shortcut: the
 * same rule, taken only when the lock would add nothing. The record's lock
 * bit (which every writer of an inline record takes, the granule lock's
 * holders included) makes the read-check-update atomic, as for the owner's
 * update (inl_try); the check must settle every entry without a walk (t's
 * own, ordered by its alock, or found ordered by an earlier walk: no race
 * is possible, so none is reported here), and t's pos must need no new
 * registration (t's epoch starts no earlier than the granule's registry
 * chunk). Anything else, or a held bit, returns false for the locked path.
 * Producer / consumer hand-offs (a ring slot written by one thread, read by
 * another) take it: the slot's record changes hands on every access. */
static GOLDI_NOINLINE bool inl_foreign_fast(struct gls_thr *ts, struct goldi_thr *thr, goldi_shadow_word_t *w,
                                           uintptr_t v, uint8_t piece, bool write, uintptr_t pc, unsigned size,
                                           goldi_origin_t *found) {
    if (!(v & (GRAN_LOCK | GRAN_HALF_R | GRAN_DUALO | GRAN_SPLIT | (uintptr_t)0xff << 16)) &&
        (piece != 0xff || (v & GRAN_HALF)) && !write && !thr->n_held && inl_owner(v) != thr->tid)
        return inl_split_fast(ts, thr, w, v, piece, pc, size, found);
    if (v & (GRAN_LOCK | GRAN_HALF))
        return false;   /* (a half record: the locked path) */
    /* What w[0] alone shows cannot go ahead leaves the line alone, instead
     * of taking and dropping the bit before the locked path takes it again:
     * another thread's R that a read cannot subsume (a granule read by
     * several threads at once: nbody's bodies), or, for a write, another
     * thread's entries on bytes it does not cover. (A filter on fields read
     * without the bit: it may only send an access to the locked path.) */
    uint8_t mw = (uint8_t)(v >> 8), mr = (uint8_t)(v >> 16);
    goldi_tid_t owner = inl_owner(v);
    if (owner != thr->tid) {
        if (write ? (mr & ~piece) || ((mw & ~piece) && !(v & GRAN_SPLIT))
                  : mr && ((mr & ~piece) || !(oc_has(ts, owner, atomic_load_explicit(&w[2], memory_order_relaxed)) ||
                                               (thr->n_held && atomic_load_explicit(&w[6], memory_order_relaxed)))))
            return false;
    }
    if (!*found)
        *found = access_origin_at(ts, thr, pc, write, size);
    goldi_origin_t origin = *found;
    if (!atomic_compare_exchange_strong_explicit(&w[0], &v, v | GRAN_LOCK, memory_order_acquire, memory_order_relaxed) ||
        (owner != thr->tid && !gls_lease_revoke(ts->leases, w, owner, v | GRAN_LOCK)))
        return false;
    if (piece == 0xff && owner != thr->tid && !(v & GRAN_DUALO)) {
        if (inl_handoff(ts, thr, w, v, write, origin))
            return true;
        atomic_store_explicit(&w[0], v, memory_order_release);
        return false;
    }
    struct gls_inl f;
    inl_read(w, v, &f);
    uint64_t pos = ts->epoch_pos, al;
    struct gls_cent c[INL_CENTS];
    if ((pos >> GLS_CHUNK_BITS) + 1 < f.reg || !inl_foreign_ok(ts, thr, &f, piece, write, origin, pos, &al) ||
        !cents_settled(ts, thr, write, piece, c, inl_cents(&f, c))) {
        atomic_store_explicit(&w[0], v, memory_order_release);
        return false;
    }
    inl_foreign_apply(&f, thr->tid, piece, write, origin, pos, al);
    inl_store(w, &f);
    tstat(ts, GLS_ST_INL_FOREIGN_FAST, 1);
    return true;
}

/* The bytes t's W entries of c[0..n) from t's epoch (pos >= epoch) cover. */
GOLDI_INLINE uint8_t cents_w_cover(const struct gls_cent *c, uint32_t n, goldi_tid_t t, uint64_t epoch) {
    uint8_t cov = 0;
    for (uint32_t i = 0; i < n; i++)
        if (c[i].kind == GLS_W && c[i].owner == t && c[i].pos >= epoch)
            cov |= c[i].mask;
    return cov;
}

/* update_granule's rule (read_covered, own_record, record_kept, read_subsumes,
 * record_joins) on the cells c[0..n) for t's plain access (a new entry
 * gets pos `pos`); returns the new count, which may be n + 1 (c has room
 * for it). */
static uint32_t pack_update(struct gls_access *x, struct gls_cent *c, uint32_t n, uint8_t piece, uint64_t pos) {
    enum gls_kind kind = x->write ? GLS_W : GLS_R;
    uint64_t epoch = x->ts->epoch_pos;
    if (kind == GLS_R && (cents_w_cover(c, n, x->t, epoch) & piece) == piece) {   /* (read_covered) */
        tstat(x->ts, GLS_ST_KEPT, 1);
        return n;
    }
    int mine = -1;
    bool others = false;
    for (uint32_t i = 0; i < n; i++) {
        if (!(c[i].mask & piece))
            continue;
        bool own = c[i].kind == kind && c[i].owner == x->t;
        if (own && (c[i].mask & piece) == piece && mine < 0)
            mine = (int)i;
        else if (kind == GLS_W || own)
            others = true;
    }
    struct gls_alock al = alock_pick(mine >= 0 ? c[mine].al.id : 0, x->thr);
    if (mine >= 0 && !others && c[mine].pos >= epoch) {   /* kept (record_kept) */
        bool kept = true;
        if (c[mine].mask == piece) {
            c[mine].origin = x->origin;
            c[mine].al = al;
        } else {
            kept = c[mine].origin == x->origin && alocks_same(c[mine].al, al);
        }
        if (kept) {
            tstat(x->ts, GLS_ST_KEPT, 1);
            return n;
        }
    }
    uint32_t k = 0;   /* the piece's bytes leave the superseded cells; dead cells go */
    struct gls_dead_view dv = dead_view(x->g);
    for (uint32_t i = 0; i < n; i++) {
        if ((c[i].mask & piece) &&
            (kind == GLS_W || (c[i].kind == kind && c[i].owner == x->t) ||
             (kind == GLS_R && c[i].kind == GLS_R && c[i].owner != x->t &&
              known_ordered(x->ts, x->thr, c[i].al, c[i].owner, c[i].pos))))
            c[i].mask &= (uint8_t)~piece;
        if (c[i].mask && dead_entry(&dv, c[i].owner, c[i].pos)) {
            tstat(x->ts, GLS_ST_DEAD_DROPPED, 1);
            continue;
        }
        if (c[i].mask)
            c[k++] = c[i];
    }
    for (uint32_t i = 0; i < k; i++)   /* same history as a cell on other bytes: share it */
        if (c[i].kind == kind && c[i].owner == x->t && c[i].origin == x->origin && c[i].pos >= epoch &&
            alocks_same(c[i].al, al)) {
            c[i].mask |= piece;
            tstat(x->ts, GLS_ST_SHARED, 1);
            return k;
        }
    c[k] = (struct gls_cent){ .pos = pos, .al = al, .origin = x->origin, .owner = x->t, .kind = (uint8_t)kind,
                              .mask = piece };
    tstat(x->ts, GLS_ST_RECORDED, 1);
    return k + 1;
}

/* The thread whose W cells a read of `piece` by t, found ordered after
 * every W it overlaps (no race pending), may leave as a split record's W:
 * W cells of one other thread, none with a later pos than one the read
 * overlapped (so all are ordered before it: ordering is a property of
 * thread and pos, as in inl_foreign's rule), or whose later ones t knows
 * ordered without a walk (the lock their thread held, an earlier walk: a
 * read of the other half checks no W). t if there is none. */
static goldi_tid_t split_writer(const struct gls_access *x, const struct gls_cent *c, uint32_t n, uint8_t piece) {
    goldi_tid_t wt = x->t;
    uint64_t last = 0, checked = 0;
    bool overlaps = false;
    if (x->write || x->n_pend || !x->origin)
        return x->t;
    for (uint32_t i = 0; i < n; i++) {
        if (c[i].kind != GLS_W)
            continue;
        if ((wt != x->t && c[i].owner != wt) || c[i].owner == x->t || !c[i].origin)
            return x->t;
        wt = c[i].owner;
        last = c[i].pos > last ? c[i].pos : last;
        if (c[i].mask & piece) {
            overlaps = true;
            checked = c[i].pos > checked ? c[i].pos : checked;
        }
    }
    if (wt == x->t || (overlaps && checked == last))
        return wt;
    for (uint32_t i = 0; i < n; i++)   /* (the W cells later than the ones the read checked) */
        if (c[i].kind == GLS_W && (!overlaps || c[i].pos > checked) &&
            !known_ordered(x->ts, x->thr, c[i].al, c[i].owner, c[i].pos))
            return x->t;
    return wt;
}

/* Cells that are t's W and/or R only, or another thread's W found ordered
 * before t's read and t's R (a split record), fold back into an inline
 * record of t (same registry chunk), so t's next accesses take the
 * lock-free path. */
static bool pack_contract(struct gls_access *x, goldi_shadow_word_t *w, const struct gls_cent *c, uint32_t n,
                          uint64_t reg, uint8_t piece) {
    struct gls_inl f;
    if (n > INL_CENTS)
        return false;
    goldi_tid_t wt = reg <= INL_SPLIT_REG_MAX ? split_writer(x, c, n, piece) : x->t;
    if (!inl_of_cents(x->t, wt, c, n, &f))
        return false;
    f.reg = reg;
    inl_store(w, &f);
    tstat(x->ts, GLS_ST_PACK_CONTRACT, 1);
    return true;
}

/* A plain access checked against cells c[0..n) as the entries they are. */
static void cents_check(struct gls_access *x, uint8_t piece, const struct gls_cent *c, uint32_t n) {
    if (cents_settled(x->ts, x->thr, x->write, piece, c, n))
        return;
    struct gls_entry e[PACK_MAX], *es[PACK_MAX];
    for (uint32_t i = 0; i < n; i++) {
        cent_entry(&c[i], &e[i]);
        es[i] = &e[i];
    }
    check_granule(x, piece, es, n);
}

/* The general rule's record of a plain access on the cells c[0..n) (room
 * for one more) of the granule at w, registered in chunk reg - 1, which the
 * caller keeps from registry compaction (a packed granule's BUSY, an inline
 * record's lock bit): the result folds back inline when a record holds it
 * (pack_contract), is stored packed while it fits, and becomes pool
 * entries otherwise. */
enum { CENTS_INLINE, CENTS_PACKED, CENTS_ENTRIES };
static int cents_record(struct gls_access *x, goldi_shadow_word_t *w, uint8_t piece, struct gls_cent *c, uint32_t n,
                        uint64_t reg) {
    uint64_t pos = granule_new_pos(x, &reg);
    n = pack_update(x, c, n, piece, pos);
    if (pack_contract(x, w, c, n, reg, piece))
        return CENTS_INLINE;
    bool fits = true;
    for (uint32_t i = 0; fits && i < n; i++)
        fits = pack_fits(&c[i]);
    if (!fits || !pack_store(w, c, n, reg)) {
        pack_expand_cells(x->g, x->ts, w, x->base, c, n);
        return CENTS_ENTRIES;
    }
    return CENTS_PACKED;
}

/* A plain access to a packed granule, under the granule lock: checked
 * against the cells, then recorded by the general rule (cents_record). */
static void pack_access(struct gls_access *x, goldi_shadow_word_t *w, uint8_t piece, bool record) {
    uintptr_t w0 = atomic_load_explicit(&w[0], memory_order_relaxed);
    struct gls_cent c[PACK_MAX + 1];
    uint32_t n = pack_read(w, w0, c);
    cents_check(x, piece, c, n);
    if (!record)
        return;
    atomic_store_explicit(&w[0], w0 | GRAN_BUSY, memory_order_relaxed);   /* (the ref may move) */
    if (cents_record(x, w, piece, c, n, pack_reg(w0)) == CENTS_PACKED)
        tstat(x->ts, GLS_ST_PACK_UPDATE, 1);
}

/* Could cells cw[0..k) (words as stored) fold back into an inline record
 * (pack_contract)? False when inl_of_cents fails whatever thread it takes
 * as W's: W cells of two threads (only one can be the record's W), or two
 * cells of one kind that both hold an alock (the second entry of a kind
 * goes into a half record, which has no room for one). A node's key and
 * count written under its bucket lock by different statements (multiset)
 * are such cells: the test spares the decoding and the attempt, which
 * failed on 5 of 6 in-place updates there. Cells of another thread's R are
 * the caller's test (`foreign`). */
GOLDI_INLINE bool pack_may_contract(const uint64_t *cw, uint32_t k) {
    uint32_t locked[2] = { 0, 0 };   /* cells holding an alock, by kind */
    goldi_tid_t wt = 0;
    bool have_w = false;
    for (uint32_t i = 0; i < k; i++) {
        uint64_t a = cw[2 * i], b = cw[2 * i + 1];
        unsigned kind = (unsigned)(b >> 40 & 1);
        if (kind == GLS_W) {
            goldi_tid_t o = (goldi_tid_t)(a >> PACK_POS_BITS);
            if (have_w && o != wt)
                return false;
            wt = o;
            have_w = true;
        }
        /* (no DUAL cell reaches here: pack_inplace leaves then) */
        locked[kind] += (b >> 42 & ((UINT64_C(1) << PACK_ALOCK_BITS) - 1)) != 0;
    }
    return locked[GLS_W] < 2 && locked[GLS_R] < 2;
}

/* pack_inplace's commonest result in a granule read or written in turn by
 * several threads (a list node's key and count under its bucket lock, a
 * ring's bounds read by producer and consumer): the access's bytes are one
 * cell's exactly, a cell the rule empties (a write's; a read's: t's own R
 * from an earlier epoch, or another thread's R found ordered before it),
 * and the cell t's new one would be in its place. The rule's other steps
 * must change nothing: no other cell of the access's kind on its bytes, a
 * read's W cells there settled and none t's from its epoch (a covered
 * read), no cell of t's kind from t's epoch elsewhere (which might share),
 * and a result that does not fold back inline (pack_may_contract, asked
 * when no other thread's cell of the kind the contraction would keep is
 * left). The cells are the same as pack_inplace would store, in another
 * order (cells are a set to every rule), with two words rewritten instead
 * of the granule's seven: multiset's key reads took ~560 instructions in
 * pack_inplace. False, nothing written, for anything else. Called by
 * pack_inplace, which has tested the granule's form (w0: its word 0), with
 * the granule lock held. */
static bool pack_cell_replace(struct gls_thr *ts, struct goldi_thr *thr, goldi_shadow_word_t *w, uintptr_t w0,
                              uint8_t piece, bool write, uintptr_t pc, unsigned size) {
    uint64_t epoch = ts->epoch_pos;
    goldi_tid_t t = thr->tid;
    uint8_t kind = write ? GLS_W : GLS_R;
    uint32_t cells = (uint32_t)(w0 >> 4) & 3, at = PACK_CELLS;
    uint64_t cw[2 * PACK_CELLS], old_al = 0;
    bool foreign = false;
    struct gls_settled st = { 0, 0, 0 };
    for (uint32_t i = 0; i < cells; i++) {
        uint64_t a = atomic_load_explicit(&w[1 + 2 * i], memory_order_relaxed);
        uint64_t b = atomic_load_explicit(&w[2 + 2 * i], memory_order_relaxed);
        cw[2 * i] = a;
        cw[2 * i + 1] = b;
        if (b & PACK_DUAL)
            return false;
        struct gls_cent c = cell_cent(a, b, (uint8_t)(b >> 32), 0);
        if (c.owner == t && c.kind == kind && c.pos >= epoch)
            return false;   /* (kept, covered, or t's cell to share: pack_inplace's) */
        if (!(c.mask & piece)) {
            foreign |= c.owner != t && (write || c.kind == GLS_R);
            continue;
        }
        if (write || c.kind == GLS_W) {
            if (!write && c.owner == t && c.pos >= epoch)
                return false;   /* (a covered read) */
            if (!entry_settled(&st, ts, thr, c.owner, c.al, c.pos))
                return false;
            if (!write)
                continue;   /* (a read leaves the W cells as they are) */
        } else if (c.owner != t && !known_ordered(ts, thr, c.al, c.owner, c.pos)) {
            foreign = true;   /* (another thread's R that the read leaves as it is) */
            continue;
        }
        /* a cell the rule empties: it must be the piece's exactly, and the only one */
        if (c.mask != piece || at < PACK_CELLS)
            return false;
        at = i;
        old_al = c.owner == t && c.kind == kind ? c.al.id : 0;
    }
    struct gls_alock al;
    goldi_origin_t origin;
    if (at == PACK_CELLS || (al = alock_pick(old_al, thr)).id >> PACK_ALOCK_BITS ||
        !(origin = access_origin_at(ts, thr, pc, write, size)))
        return false;
    struct gls_cent e = { .pos = epoch, .al = al, .origin = origin, .owner = t, .kind = kind, .mask = piece };
    cw[2 * at] = cell_a(&e);
    cw[2 * at + 1] = cell_b(&e);
    if (!foreign && pack_may_contract(cw, cells))
        return false;   /* (it may fold back inline: pack_inplace tries) */
    atomic_store_explicit(&w[1 + 2 * at], cw[2 * at], memory_order_relaxed);
    atomic_store_explicit(&w[2 + 2 * at], cw[2 * at + 1], memory_order_relaxed);
    tstat(ts, GLS_ST_ACCESSES, 1);
    settled_count(ts, &st);
    tstat(ts, GLS_ST_RECORDED, 1);
    tstat(ts, GLS_ST_PACK_UPDATE, 1);
    return true;
}

/* pack_access's case of a plain access by t to a packed granule that the
 * general rule (cents_check, then cents_record: pack_update, pack_contract,
 * pack_store) settles without a walk: a node's key read under its bucket
 * lock by several threads in turn, its count written under it, a ring's
 * bounds read by its producer and its consumer. The same result, with the
 * cells rewritten where they are instead of decoded, run through the rule
 * and encoded again. It applies when the rule would check nothing that
 * needs a walk (every cell the access is checked against settled:
 * entry_settled), keep nothing (t's cell of the kind on the bytes, if any,
 * is from before t's epoch), pair no cells (no DUAL cell, at most
 * PACK_CELLS after) and register nothing (t's epoch is in the granule's
 * registry chunk or later). The rule's steps, in its order: the bytes
 * leave the cells the access supersedes (a write: every cell; a read: t's
 * R and the other threads' R it subsumes, known ordered before it),
 * emptied cells go, the rest keep their order, and the bytes join t's
 * first cell of the kind with the access's history (origin, alock, t's
 * epoch: radix's scatter writing a granule's second key after its first),
 * or else a new cell that goes last; the cells fold back into an inline
 * record if one holds them (pack_contract, asked only when no cell is left
 * that no inline record of t holds: another thread's R, or for a write any
 * cell of another thread). Anything else: false, nothing written. Caller
 * holds the granule lock. */
static bool pack_inplace(struct gls_thr *ts, struct goldi_thr *thr, goldi_shadow_word_t *w, uint8_t piece,
                         bool write, uintptr_t pc, unsigned size) {
    uintptr_t w0 = atomic_load_explicit(&w[0], memory_order_relaxed);
    uint64_t epoch = ts->epoch_pos;
    goldi_tid_t t = thr->tid;
    if (!pack_is(w0) || (w0 & (PACK_RUN | PACK_SOLO)) || (epoch >> GLS_CHUNK_BITS) + 1 < pack_reg(w0) ||
        epoch >> PACK_POS_BITS || t >= PACK_OWNER_LIMIT)
        return false;
    if (pack_cell_replace(ts, thr, w, w0, piece, write, pc, size))
        return true;
    uint8_t kind = write ? GLS_W : GLS_R;
    uint32_t cells = (uint32_t)(w0 >> 4) & 3, k = 0, n_own = 0;
    uint64_t cw[2 * PACK_CELLS];       /* the cells that stay, then the new one */
    struct gls_cent own[PACK_CELLS];   /* t's cells of the kind that stay (might share) */
    uint32_t own_at[PACK_CELLS];       /* (their index in cw) */
    uint64_t old_al = 0;               /* alock id of t's cell the rule calls mine */
    bool have_mine = false, foreign = false;
    uint8_t covered = 0;   /* bytes of t's W cells from t's epoch (read_covered) */
    struct gls_settled st = { 0, 0, 0 };
    for (uint32_t i = 0; i < cells; i++) {
        uint64_t a = atomic_load_explicit(&w[1 + 2 * i], memory_order_relaxed);
        uint64_t b = atomic_load_explicit(&w[2 + 2 * i], memory_order_relaxed);
        if (b & PACK_DUAL)
            return false;
        struct gls_cent c = cell_cent(a, b, (uint8_t)(b >> 32), (goldi_origin_t)b);
        bool mine_kind = c.kind == kind && c.owner == t;
        if (c.kind == GLS_W && c.owner == t && c.pos >= epoch)
            covered |= c.mask;
        if (c.mask & piece) {
            if ((write || c.kind == GLS_W) && !entry_settled(&st, ts, thr, c.owner, c.al, c.pos))
                return false;   /* (cents_settled's test) */
            if (mine_kind && (c.mask & piece) == piece && !have_mine) {
                if (c.pos >= epoch)
                    return false;   /* (maybe kept: the rule decides) */
                have_mine = true;
                old_al = c.al.id;
            }
            if (write || mine_kind || (c.kind == GLS_R && known_ordered(ts, thr, c.al, c.owner, c.pos)))
                c.mask &= (uint8_t)~piece;
            if (!c.mask)
                continue;
            b = (b & ~(UINT64_C(0xff) << 32)) | (uint64_t)c.mask << 32;
        }
        if (mine_kind) {
            own_at[n_own] = k;
            own[n_own++] = c;
        }
        foreign |= c.owner != t && (write || c.kind == GLS_R);
        cw[2 * k] = a;
        cw[2 * k++ + 1] = b;
    }
    if (!write && (covered & piece) == piece) {   /* nothing written */
        tstat(ts, GLS_ST_ACCESSES, 1);
        settled_count(ts, &st);
        tstat(ts, GLS_ST_KEPT, 1);
        return true;
    }
    struct gls_alock al = alock_pick(old_al, thr);
    if (al.id >> PACK_ALOCK_BITS)
        return false;
    goldi_origin_t origin = access_origin_at(ts, thr, pc, write, size);
    uint32_t share = 0;
    while (share < n_own && !(own[share].pos >= epoch && own[share].origin == origin && alocks_same(own[share].al, al)))
        share++;
    if (share == n_own && k == PACK_CELLS)
        return false;   /* (no room for a new cell: the rule makes entries) */
    tstat(ts, GLS_ST_ACCESSES, 1);
    settled_count(ts, &st);
    if (share < n_own) {   /* same history as t's cell on other bytes: it takes these too */
        cw[2 * own_at[share] + 1] |= (uint64_t)piece << 32;
        tstat(ts, GLS_ST_SHARED, 1);
    } else {
        struct gls_cent e = { .pos = epoch, .al = al, .origin = origin, .owner = t, .kind = kind, .mask = piece };
        cw[2 * k] = cell_a(&e);
        cw[2 * k++ + 1] = cell_b(&e);
        tstat(ts, GLS_ST_RECORDED, 1);
    }
    if (!foreign && pack_may_contract(cw, k)) {
        struct gls_access x = { .thr = thr, .ts = ts, .t = t, .origin = origin, .write = write };
        struct gls_cent c[PACK_CELLS];
        for (uint32_t i = 0; i < k; i++)
            c[i] = cell_cent(cw[2 * i], cw[2 * i + 1], (uint8_t)(cw[2 * i + 1] >> 32), (goldi_origin_t)cw[2 * i + 1]);
        if (pack_contract(&x, w, c, k, pack_reg(w0), piece))
            return true;
    }
    pack_cells_store(w, cw, k, pack_reg(w0));
    tstat(ts, GLS_ST_PACK_UPDATE, 1);
    return true;
}

/* pack_inplace for a solo run of t, holding no lock: the general rule
 * (pack_update) on t's own cells, rewritten in place. Nothing is checked
 * (every entry is t's: the owner short-circuit), the bytes leave the
 * cells the access supersedes (a write: all; a read: t's R), emptied cells
 * go, the rest keep their order, and the bytes join t's cell of the kind
 * with the access's history (site, t's epoch), or else a new cell that
 * goes last. The result folds back into an inline record when one holds
 * it (pack_contract), as the general rule's would, and is stored as a run
 * again otherwise, whatever its count: a granule of one thread's entries
 * then stays a run (xz's dictionary went between three cells and a run, by
 * the general rule, on 13 M of its 2 MB input's accesses). A read its W
 * cells from t's epoch cover is kept (read_covered), before the access's
 * origin is looked up. Anything else (kept, or its origin to replace:
 * pack_update decides; an origin with a lock set; more than eight cells
 * after; t's epoch too far from the registry chunk): false, nothing
 * written. Caller holds the granule lock. */
static bool solo_inplace(struct gls_thr *ts, struct goldi_thr *thr, goldi_shadow_word_t *w, uint8_t piece,
                         bool write, uintptr_t pc, unsigned size) {
    uintptr_t w0 = atomic_load_explicit(&w[0], memory_order_relaxed);
    uint64_t epoch = ts->epoch_pos, base = solo_base(w0);
    goldi_tid_t t = thr->tid;
    if (!pack_is(w0) || !pack_solo(w0) || (goldi_tid_t)(w0 >> SOLO_OWNER_SHIFT) != t || thr->n_held ||
        epoch < base || (epoch - base) >> SOLO_DELTA_BITS)
        return false;
    const uint64_t site_bits = (UINT64_C(1) << GOLDI_ORIGIN_SITE_BITS) - 1, mask_bits = UINT64_C(0xff) << 39;
    uint64_t kind = write ? GLS_W : GLS_R;
    uint64_t a[SOLO_WORDS], cell[SOLO_CELLS + 1];
    solo_words(w, a);
    uint32_t n = 0, checked = 0;
    int mine = -1;
    bool others = false;
    uint8_t covered = 0;   /* bytes of t's W cells from t's epoch (read_covered) */
    solo_cells(a, cell);
    for (; n < SOLO_CELLS && solo_mask(cell[n]); n++) {
        uint8_t m = solo_mask(cell[n]);
        if (!(m & piece))
            continue;
        if (cell[n] >> 47 == GLS_W && solo_pos(base, cell[n]) >= epoch)
            covered |= m;
        bool own = cell[n] >> 47 == kind;
        checked += write || cell[n] >> 47 == GLS_W;
        if (own && (m & piece) == piece && mine < 0)
            mine = (int)n;
        else if (write || own)
            others = true;
    }
    if (!write && (covered & piece) == piece) {
        tstat(ts, GLS_ST_ACCESSES, 1);
        tstat(ts, GLS_ST_OWNER_SC, checked);
        tstat(ts, GLS_ST_KEPT, 1);
        return true;
    }
    if (mine >= 0 && !others && solo_pos(base, cell[mine]) >= epoch)
        return false;   /* (kept, or its origin to replace: pack_update decides) */
    goldi_origin_t origin = access_origin_at(ts, thr, pc, write, size);   /* (only now: a covered read needs none) */
    if (origin >> GOLDI_ORIGIN_SITE_BITS != GOLDI_ORIGIN_COMPOSED >> GOLDI_ORIGIN_SITE_BITS)
        return false;
    uint64_t site = origin & site_bits;
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t m = solo_mask(cell[i]);
        if ((m & piece) && (write || cell[i] >> 47 == kind))
            m &= (uint8_t)~piece;
        if (m)
            cell[k++] = (cell[i] & ~mask_bits) | m << 39;
    }
    uint32_t share = 0;   /* same history as a cell on other bytes: it takes these too */
    while (share < k && !(cell[share] >> 47 == kind && (cell[share] & site_bits) == site &&
                          solo_pos(base, cell[share]) >= epoch))
        share++;
    bool shared = share < k;
    if (k == SOLO_CELLS && !shared)
        return false;   /* (a ninth: the general rule makes entries) */
    tstat(ts, GLS_ST_ACCESSES, 1);
    tstat(ts, GLS_ST_OWNER_SC, checked);
    if (shared)
        cell[share] |= (uint64_t)piece << 39;
    else
        cell[k++] = site | (epoch - base) << GOLDI_ORIGIN_SITE_BITS | (uint64_t)piece << 39 | kind << 47;
    tstat(ts, shared ? GLS_ST_SHARED : GLS_ST_RECORDED, 1);
    if (k <= INL_CENTS) {
        struct gls_access x = { .thr = thr, .ts = ts, .t = t, .origin = origin, .write = write };
        struct gls_cent c[INL_CENTS];
        for (uint32_t i = 0; i < k; i++)
            c[i] = solo_cent(base, cell[i], t);
        if (pack_contract(&x, w, c, k, pack_reg(w0), piece))
            return true;
    }
    uint64_t out[SOLO_WORDS] = { 0 };
    for (uint32_t i = 0; i < k; i++)
        solo_put(out, i, cell[i]);
    for (unsigned i = 0; i < SOLO_WORDS; i++)
        atomic_store_explicit(&w[1 + i], out[i], memory_order_relaxed);
    tstat(ts, GLS_ST_PACK_UPDATE, 1);
    return true;
}

/* piece_locked's case of a plain access by t to a granule of pool entries
 * (no overflow array) that the general rule (check_granule, then
 * update_granule and inl_contract) settles without a walk and records in
 * one entry:
 *   - every entry the access is checked against (a read: W and AW; a
 *     write: all) on its bytes is t's, made under a lock t holds, or known
 *     ordered by an earlier walk (cents_settled's test);
 *   - t's entry of the access's kind on the bytes, if any, is on exactly
 *     them, and none of t's on other bytes has the access's history (the
 *     rule would share it: record_joins);
 *   - the entries cannot fold back inline (inl_contract): one of another
 *     thread, an atomic one or one with a materialised set stays, or more
 *     than an inline record holds.
 * The rule's result, written in place: t's entry from t's epoch is kept
 * (a read; a write only if no other entry is on its bytes); else the bytes
 * leave the entries the access supersedes (a write: all; a read: the other
 * threads' reads it subsumes), those emptied go, and t's entry is placed
 * at t's epoch: the one it had, else the first entry the access emptied
 * (in its slot), else a new one. Readers of a node taking turns under its
 * bucket lock (multiset: each takes over the R the reader before left), a
 * queue's head and length read and written under its lock (pipeline).
 * False: nothing written. Caller holds the granule lock. */
static bool entries_inplace(struct gls_engine *g, struct gls_thr *ts, struct goldi_thr *thr, goldi_shadow_word_t *w,
                            uintptr_t base, uint8_t piece, bool write, uintptr_t pc, unsigned size) {
    uintptr_t w0 = atomic_load_explicit(&w[0], memory_order_relaxed);
    if (w0 & (GRAN_INL | GRAN_OVF | GRAN_PACK))
        return false;
    goldi_tid_t t = thr->tid;
    enum gls_kind kind = write ? GLS_W : GLS_R;
    struct gls_access x = { .g = g, .thr = thr, .ts = ts, .t = t, .base = base, .write = write };
    struct gls_settled st = { 0, 0, 0 };
    struct gls_entry *mine = NULL;
    uint8_t drop = 0, emptied = 0;   /* slots of the entries that lose the bytes / all of theirs */
    uint8_t own_other = 0;           /* slots of t's entries of the kind on other bytes (might share) */
    bool stays = false;              /* an entry stays that no inline record of t holds */
    unsigned n_keep = 0;             /* entries that stay besides t's record of the bytes */
    bool locked = false;             /* one of them has an alock */
    uint8_t covered = 0;             /* bytes of t's W entries from t's epoch (read_covered) */
    uintptr_t wv[GRAN_SLOTS];
    unsigned live = 0;   /* slots in use (a granule's few entries: its loops visit only those) */
    for (unsigned i = 0; i < GRAN_SLOTS; i++) {
        wv[i] = i ? atomic_load_explicit(&w[i], memory_order_relaxed) : w0;
        live |= (unsigned)(wv[i] != 0) << i;
    }
    for (unsigned m = live; m; m &= m - 1) {
        unsigned i = (unsigned)__builtin_ctz(m);
        uintptr_t v = wv[i];
        struct gls_entry *e = slot_entry(v);
        enum gls_kind ek = (enum gls_kind)(v >> SLOT_PTR_BITS & 3);
        bool on = e->mask & piece;
        if (ek == kind && e->owner == t && on) {
            if (mine || e->mask != piece)
                return false;   /* (the rule's "others", or a split of t's entry) */
            mine = e;
            continue;
        }
        if (on && (write || ek == GLS_W || ek == GLS_AW)) {
            uint64_t pos = atomic_load_explicit(&e->pos, memory_order_relaxed);
            struct gls_alock al = { e->alock_id, e->alock_mode, e->alock_rw };
            if (!entry_settled(&st, ts, thr, e->owner, al, pos)) {
                if (!e->mat || !mc_has(ts, e->mat, pos))
                    return false;   /* (a walk: the general rule) */
                st.cached++;
            }
            if (!write && ek == GLS_W && e->owner == t && !e->mat && pos >= ts->epoch_pos)
                covered |= e->mask;
        }
        if (on && (write || (ek == GLS_R && read_subsumes(&x, e)))) {
            drop |= (uint8_t)(1u << i);
            if (!(e->mask & (uint8_t)~piece)) {
                emptied |= (uint8_t)(1u << i);
                continue;
            }
        } else if (ek == kind && e->owner == t) {
            own_other |= (uint8_t)(1u << i);
        }
        stays |= e->owner != t || ek >= GLS_AW || e->mat;
        n_keep++;
        locked |= e->alock_id != 0;
    }
    if (!write && (covered & piece) == piece) {
        tstat(ts, GLS_ST_ACCESSES, 1);
        settled_count(ts, &st);
        tstat(ts, GLS_ST_KEPT, 1);
        return true;
    }
    uint64_t epoch = ts->epoch_pos;
    struct gls_alock al = alock_pick(mine ? mine->alock_id : 0, thr);
    if (!stays && n_keep + 1 <= INL_CENTS && (n_keep + 1 <= 2 || (!locked && !al.id)))
        return false;   /* (the entries may fold back inline: inl_of_entries' test) */
    x.origin = access_origin_at(ts, thr, pc, write, size);
    for (unsigned m = own_other; m; m &= m - 1)
        if (record_joins(&x, slot_entry(wv[__builtin_ctz(m)]), kind, al))
            return false;   /* (the rule shares that entry: a field accessed after its neighbour) */
    tstat(ts, GLS_ST_ACCESSES, 1);
    settled_count(ts, &st);
    if (mine && !mine->mat && atomic_load_explicit(&mine->pos, memory_order_relaxed) >= epoch &&
        (!write || !drop)) {
        mine->origin = x.origin;   /* kept (record_kept): nothing else changes */
        alock_set(mine, al);
        tstat(ts, GLS_ST_KEPT, 1);
        return true;
    }
    struct gls_entry *e = mine;
    unsigned take = GRAN_SLOTS;
    for (unsigned m = drop; m; m &= m - 1) {
        unsigned i = (unsigned)__builtin_ctz(m);
        struct gls_entry *d = slot_entry(wv[i]);
        d->mask &= (uint8_t)~piece;
        if (!(emptied >> i & 1))
            continue;
        if (!e) {
            e = d;   /* re-used for t's entry (keeps its registration) */
            take = i;
            continue;
        }
        atomic_store_explicit(&w[i], 0, memory_order_relaxed);
        entry_free(g, ts, d);
    }
    uint64_t cur = 0;
    if (e) {
        gls_mat_free(e->mat);
        e->mat = NULL;
        cur = atomic_load_explicit(&e->pos, memory_order_relaxed);
    } else {
        e = entry_new(g, ts, kind, base);
    }
    e->kind = (uint8_t)kind;
    e->owner = t;
    e->origin = x.origin;
    e->mask = piece;
    alock_set(e, al);
    place_in_epoch(&x, e, cur);
    if (take < GRAN_SLOTS)
        atomic_store_explicit(&w[take], slot_of(e), memory_order_relaxed);   /* (its tag: kind and owner) */
    else if (e != mine)
        gran_insert(w, e);
    tstat(ts, e == mine ? GLS_ST_MOVED : GLS_ST_RECORDED, 1);
    return true;
}

/* The same for an inline record inl_foreign did not take, under the
 * granule lock, on the entries it stands for: the record's lock bit stays
 * held until the result is stored (a packed granule in place of the record
 * when it does not fold back: radix's scatter writing one key of another
 * thread's granule). False if the granule is not inline. */
static bool inl_general(struct gls_access *x, goldi_shadow_word_t *w, uint8_t piece, bool record) {
    uintptr_t v = inl_lock(x->g, w, x->t);
    if (!v)
        return false;
    struct gls_inl f;
    inl_read(w, v, &f);
    struct gls_cent c[PACK_MAX + 1];
    uint32_t n = inl_cents(&f, c);
    cents_check(x, piece, c, n);
    if (!record) {
        atomic_store_explicit(&w[0], v, memory_order_release);
        return true;
    }
    if (cents_record(x, w, piece, c, n, f.reg) == CENTS_PACKED)
        tstat(x->ts, GLS_ST_PACK_NEW, 1);
    return true;
}

/* goldi_event_origin(ev), from the thread's caches: its site from the
 * memo by pc, else from the site cache when the same access (pc, kind, size)
 * was interned with the same stack; its lock set from the thread. */
static goldi_site_t orc_site(struct gls_thr *ts, const struct goldi_event *ev);

/* The memo's site if it has one (its lock set was stale: the thread's
 * locks changed), else the site cache's; then the thread's lock set. */
static GOLDI_NOINLINE goldi_origin_t origin_slow(struct gls_thr *ts, const struct goldi_event *ev) {
    goldi_site_t site = goldi_origin_memo_site_found(ev->thr, ev->pc, ev->kind, ev->size);
    if (site) {
        tstat(ts, GLS_ST_ORC_HIT, 1);
    } else {
        site = orc_site(ts, ev);
        goldi_event_site_memo_put(ev, site);
    }
    return goldi_origin_compose(site, goldi_thr_lockset(ev->thr));
}

static goldi_origin_t access_origin(struct gls_thr *ts, const struct goldi_event *ev) {
    /* The thread's memo by pc first (event/origin.c): a loop's records find
     * their origin without a fingerprint. */
    goldi_origin_t id = goldi_event_origin_memo(ev);
    if (id) {
        tstat(ts, GLS_ST_ORC_HIT, 1);
        return id;
    }
    return origin_slow(ts, ev);
}

/* The event the dispatcher would build for a plain access of thr. */
GOLDI_INLINE struct goldi_event plain_event(struct goldi_thr *thr, bool write, uintptr_t addr, unsigned size,
                                            uintptr_t pc) {
    return (struct goldi_event){
        .kind = write ? GOLDI_EV_WRITE : GOLDI_EV_READ, .size = size, .addr = addr, .pc = pc, .thr = thr,
    };
}

/* access_origin for an access the caller has not made an event of: the
 * memo inline, the event only on a miss. */
static GOLDI_NOINLINE goldi_origin_t access_origin_slow(struct gls_thr *ts, struct goldi_thr *thr, uintptr_t pc,
                                                        bool write, unsigned size) {
    struct goldi_event ev = plain_event(thr, write, 0, size, pc);
    return origin_slow(ts, &ev);
}
GOLDI_INLINE goldi_origin_t access_origin_at(struct gls_thr *ts, struct goldi_thr *thr, uintptr_t pc, bool write,
                                            unsigned size) {
    goldi_origin_t id = goldi_origin_memo_of(thr, pc, write ? GOLDI_EV_WRITE : GOLDI_EV_READ, size);
    if (GOLDI_LIKELY(id)) {
        tstat(ts, GLS_ST_ORC_HIT, 1);
        return id;
    }
    return access_origin_slow(ts, thr, pc, write, size);
}

__attribute__((noinline)) static goldi_site_t orc_site(struct gls_thr *ts, const struct goldi_event *ev) {
    struct goldi_thr *thr = ev->thr;
    uint64_t sid = goldi_thr_stack_key(thr);
    uint32_t ks = (uint32_t)ev->kind << 24 | ev->size;
    uint64_t h = (sid ^ (uint64_t)thr->depth << 40 ^ ev->pc * 0x9E3779B97F4A7C15ull ^ ks) *
                 0xC2B2AE3D27D4EB4Full;
    /* Two ways per set: the most recent site of the set in way 0. */
    struct gls_orc *set = &ts->orc[(h >> (64 - GLS_ORC_BITS)) & ~UINT64_C(1)];
    for (unsigned way = 0; way < 2; way++) {
        struct gls_orc *c = &set[way];
        if (!c->site || c->stack_id != sid || c->depth != thr->depth || c->pc != ev->pc ||
            c->kind_size != ks)
            continue;
        if (way) {
            struct gls_orc t = set[0];
            set[0] = *c;
            *c = t;
        }
        tstat(ts, GLS_ST_ORC_HIT, 1);
        return set[0].site;
    }
    tstat(ts, GLS_ST_ORC_MISS, 1);
    set[1] = set[0];
    set[0] = (struct gls_orc){ .stack_id = sid, .pc = ev->pc, .kind_size = ks, .depth = thr->depth,
                               .site = goldi_event_site_interned(ev) };
    return set[0].site;
}

static void access_locked(struct gls_engine *g, struct gls_thr *ts, const struct goldi_event *ev, uintptr_t addr,
                          unsigned size, goldi_shadow_word_t *w);

/* An access piece within one granule, checked and recorded under the
 * granule's own lock. ts: the thread's state, found before (a new state
 * takes thr_lock, never under a granule lock). */
GOLDI_INLINE void access_piece(struct gls_engine *g, struct gls_thr *ts, const struct goldi_event *ev, uintptr_t addr,
                              unsigned size) {
    uintptr_t base = addr & ~(uintptr_t)(GOLDI_GRANULE - 1);
    goldi_shadow_word_t *w = ev->kind != GOLDI_EV_FREE ? goldi_shadow_word(g->env.plane, base)
                                                       : goldi_shadow_word_if_present(g->env.plane, base);
    if (!w)
        return;
    gran_lock(g, ts, w);
    access_locked(g, ts, ev, addr, size, w);
    gran_unlock(ts, w);
}

/* The sink sets own_granule_locks: the dispatcher takes no striped lock
 * for it. */
static void gls_on_access(void *self, const struct goldi_event *ev, uintptr_t addr, unsigned size) {
    struct gls_engine *g = self;
    struct gls_thr *ts = thr_state(g, ev->thr);
    pend_check(g, ts, ev->thr->tid);
    access_piece(g, ts, ev, addr, size);
}

/* Does the slot word v hold an atomic entry (AW or AR)? Their kinds' tags
 * have bit 1 set. */
_Static_assert((GLS_AW & 2) != 0 && (GLS_AR & 2) != 0 && (GLS_W & 2) == 0 && (GLS_R & 2) == 0,
               "atomic kinds: tag bit 1");
GOLDI_INLINE bool slot_is_atomic(uintptr_t v) { return v >> SLOT_PTR_BITS & 2; }

/* A granule lock's holder waits out the lock-free updates of the atomic
 * entries in the granule by their owners (atomic_record_lockfree): an
 * owner sets its entry's seq odd, then looks at word 7, so either it sees
 * the lock and backs off, or the holder sees seq odd here and waits until
 * the entry is whole again (Dekker: each side's locked store, then its
 * load, all seq_cst; on x86-64 the same instructions as acquire's). Owners
 * take that path only where word 0 holds an atomic entry (a granule of
 * atomic entries keeps its first there), so a holder looks no further in
 * any other granule: one test of a word it has loaded anyway. */
static GOLDI_NOINLINE void gran_wait_atomic_owners_slow(goldi_shadow_word_t *w) {
    for (unsigned i = 0; i < GRAN_SLOTS; i++) {
        uintptr_t v = atomic_load_explicit(&w[i], memory_order_relaxed);
        if (!v || !slot_is_atomic(v))
            continue;
        const struct gls_entry *e = slot_entry(v);
        for (unsigned spins = 0; atomic_load_explicit(&e->seq, memory_order_seq_cst) & 1;)
            goldi_spin_backoff(&spins);
    }
}

GOLDI_INLINE void gran_wait_atomic_owners(goldi_shadow_word_t *w) {
    uintptr_t w0 = atomic_load_explicit(&w[0], memory_order_relaxed);
    if (GOLDI_UNLIKELY(w0 && !(w0 & (GRAN_INL | GRAN_OVF | GRAN_PACK)) && slot_is_atomic(w0)))
        gran_wait_atomic_owners_slow(w);
}

/* t's entry of an atomic access's kind on exactly its bytes, in a granule
 * whose entries are all atomic (a flag, a counter, a ring's index: what
 * lock-free code shares), found from the slot words' tags (only t's
 * entries are read); NULL if the granule is not such, or t has none, or
 * has another of the kind on the piece. */
GOLDI_INLINE struct gls_entry *atomic_own_entry(const struct gls_access *x, goldi_shadow_word_t *w, uint8_t piece) {
    uintptr_t own = slot_tag(x->write ? GLS_AW : GLS_AR, x->t);
    struct gls_entry *mine = NULL;
    if (atomic_load_explicit(&w[0], memory_order_relaxed) & (GRAN_INL | GRAN_OVF | GRAN_PACK))
        return NULL;
    for (unsigned i = 0; i < GRAN_SLOTS; i++) {
        uintptr_t v = atomic_load_explicit(&w[i], memory_order_relaxed);
        if (!v)
            continue;
        uintptr_t tag = v >> SLOT_PTR_BITS;
        if ((tag & 3) != GLS_AW && (tag & 3) != GLS_AR)
            return NULL;   /* a plain entry: checked by the general way */
        if (tag != own)
            continue;
        struct gls_entry *e = slot_entry(v);
        if (e->owner != x->t || !(e->mask & piece))
            continue;
        if (mine || (e->mask & piece) != piece)
            return NULL;   /* (own_record's "others") */
        mine = e;
    }
    return mine;
}

/* update_granule's case of an atomic access to a granule whose entries are
 * all atomic and that holds t's entry of the access's kind on exactly its
 * bytes (atomic_own_entry): the check finds nothing to check (atomic
 * accesses do not race with each other), and the rule keeps or moves that
 * entry (record_kept, record_moved: no other entry is dropped). False
 * (nothing changed) otherwise. Caller holds the granule lock, or mine's
 * seq odd (atomic_record_lockfree). */
GOLDI_INLINE bool atomic_entry_settled(struct gls_access *x, struct gls_entry *mine, uint8_t piece) {
    enum gls_kind kind = x->write ? GLS_AW : GLS_AR;
    struct gls_alock al = alock_pick(mine->alock_id, x->thr);
    x->origin = access_origin(x->ts, x->ev);
    return record_kept(x, mine, false, piece, al) || record_moved(x, mine, false, piece, kind, al, NULL, 0, 0);
}

static GOLDI_NOINLINE bool atomic_record_settled(struct gls_access *x, goldi_shadow_word_t *w, uint8_t piece) {
    struct gls_entry *mine = atomic_own_entry(x, w, piece);
    return mine && atomic_entry_settled(x, mine, piece);
}

/* atomic_record_settled without the granule lock, which two cores would
 * otherwise pass back and forth with the line of words it lives in at
 * every operation on a shared atomic (lockfree's ring indices and
 * counters): only t's own entry changes, and its seq's low bit keeps lock
 * holders off it meanwhile (gran_wait_atomic_owners), in a granule whose
 * word 0 holds an atomic entry. The slots are read as a seqlock reader
 * reads them: word 7 even, and unchanged once the bit is set (no holder
 * came since, and any later one waits). Entries are type-stable, so a
 * stale slot's entry is safe to read; the bit set on it is taken back at
 * once, unless a holder's change of seq took it already. The update's
 * last store (record_moved's seq bump, else seq's old value back)
 * publishes it. Plain accesses, the GC and the sweep take the lock.
 * in_gran as under the lock: fork waits for the entry to be whole. */
static GOLDI_NOINLINE bool atomic_record_lockfree(struct gls_engine *g, struct gls_access *x, goldi_shadow_word_t *w,
                                                  uint8_t piece) {
    uint64_t v = atomic_load_explicit(&w[GRAN_VER], memory_order_acquire);
    uintptr_t w0 = atomic_load_explicit(&w[0], memory_order_relaxed);
    if ((v & 1) || !w0 || !slot_is_atomic(w0) || !gran_enter(g, x->ts))
        return false;
    bool done = false;
    struct gls_entry *mine = atomic_own_entry(x, w, piece);
    uint64_t seq = mine ? atomic_load_explicit(&mine->seq, memory_order_relaxed) : 1;
    if (!(seq & 1) && atomic_compare_exchange_strong_explicit(&mine->seq, &seq, seq + 1, memory_order_seq_cst,
                                                              memory_order_relaxed)) {
        if (atomic_load_explicit(&w[GRAN_VER], memory_order_seq_cst) == v && atomic_entry_settled(x, mine, piece)) {
            /* Kept (nothing bumped seq): seq as it was, as a kept update
             * under the lock leaves it (a GC run that snapshotted the entry
             * still moves it: a changed seq means "moved already"). */
            if (atomic_load_explicit(&mine->seq, memory_order_relaxed) & 1)
                atomic_store_explicit(&mine->seq, seq, memory_order_release);
            done = true;
        } else {
            uint64_t set = seq + 1;   /* (a holder's bump may have cleared it: then it stays) */
            atomic_compare_exchange_strong_explicit(&mine->seq, &set, seq, memory_order_release,
                                                    memory_order_relaxed);
        }
    }
    atomic_store_explicit(&x->ts->in_gran, 0, memory_order_release);
    return done;
}

static void access_locked(struct gls_engine *g, struct gls_thr *ts, const struct goldi_event *ev, uintptr_t addr,
                          unsigned size, goldi_shadow_word_t *w) {
    struct gls_access x;
    switch ((enum goldi_event_kind)ev->kind) {
    case GOLDI_EV_READ: x.write = false; x.atomic = false; break;
    case GOLDI_EV_WRITE:
    case GOLDI_EV_FREE: x.write = true; x.atomic = false; break;
    case GOLDI_EV_ATOMIC_LOAD:
    case GOLDI_EV_ATOMIC_CASFAIL: x.write = false; x.atomic = true; break;
    case GOLDI_EV_ATOMIC_STORE:
    case GOLDI_EV_ATOMIC_RMW: x.write = true; x.atomic = true; break;
    default: return;
    }
    x.g = g;
    x.ev = ev;
    x.thr = ev->thr;
    x.ts = ts;
    x.t = ev->thr->tid;
    x.base = addr & ~(uintptr_t)(GOLDI_GRANULE - 1);
    if (GOLDI_UNLIKELY(!x.ts->sc))
        x.ts->sc = goldi_alloc(sizeof *x.ts->sc);
    x.pend = x.ts->sc->pend;
    x.n_pend = 0;
    x.origin = 0;
    tstat(x.ts, GLS_ST_ACCESSES, 1);
    uint8_t piece = byte_mask(addr, addr + size);
    /* free is checked as a write of every byte, but not recorded: the
     * lifetime ends in on_event right after (1.2), so a record would only be
     * built to be torn down (and freed blocks can be large). */
    bool record = ev->kind != GOLDI_EV_FREE;
    uintptr_t w0 = atomic_load_explicit(&w[0], memory_order_relaxed);
    if (inl_is(w0)) {
        if (inl_owner(w0) == x.t && !x.atomic) {
            if (!record)
                return;   /* free by the owner: nothing to check against, the reset follows */
            goldi_origin_t o = 0;   /* the origin only if it stores */
            int r = inl_try_any(x.ts, x.thr, w, w0, piece, x.write, ev->pc, ev->size, &o);
            if (r != INL_NO) {
                if (r == INL_DONE)
                    tstat(x.ts, GLS_ST_INL_SLOW, 1);
                return;
            }
        }
        if (!x.atomic) {
            x.origin = access_origin(x.ts, ev);
            if (inl_foreign(&x, w, piece, record) || inl_general(&x, w, piece, record)) {
                if (x.n_pend)
                    flush_races(&x);
                return;
            }
        }
        inl_expand(g, x.ts, w, x.base);
        w0 = atomic_load_explicit(&w[0], memory_order_relaxed);
    }
    if (pack_is(w0)) {
        if (!x.atomic) {
            if (!x.origin)
                x.origin = access_origin(x.ts, ev);
            pack_access(&x, w, piece, record);
            if (x.n_pend)
                flush_races(&x);
            return;
        }
        pack_expand(g, x.ts, w, x.base);   /* atomics are entries */
    }
    if (x.atomic && record && atomic_record_settled(&x, w, piece))
        return;
    struct gls_entry *buf[GOLDI_GRANULE];
    uint32_t n, all;
    struct gls_entry **es;
    if (x.write || x.atomic) {
        es = gran_entries(w, buf, &n);
        all = n;
    } else {
        es = gran_entries_for_read(w, buf, &n, &all, x.t);   /* all: the granule's, es: the read's */
    }
    if (!x.origin && (record || all))   /* (inl_foreign may have interned it already) */
        x.origin = access_origin(x.ts, ev);
    if (n)
        check_granule(&x, piece, es, n);
    if (record && !all && !x.atomic) {
        inl_create(&x, w, piece);
    } else if (record) {
        update_granule(&x, w, piece, es, n, all);
        if (!x.atomic)
            inl_contract(&x, w);
    }
    if (x.n_pend)
        flush_races(&x);
}

#define RELAXED(lv) __atomic_load_n(&(lv), __ATOMIC_RELAXED)

/* A plain access to a granule in the general representation that changes
 * nothing, seen without the granule lock: t's entry of the access's kind
 * covers the bytes, is from t's current epoch, has no materialised set and
 * the alock t would pick now, and nothing the access must be checked
 * against can be newer than it: for a write, no other entry on the bytes at
 * all (a write drops them); for a read, no atomic write on them (a plain
 * write would have dropped t's R, an atomic one does not). That is exactly
 * update_granule's "kept" case after a check that finds nothing new (the
 * first origin of the epoch stays, as for inline records). A read is kept,
 * too, where t's own W entries from t's epoch cover its bytes and no
 * atomic write is on them (read_covered). The granule's
 * version (word 7) brackets the look: any change under the lock meanwhile
 * sends the access the ordinary way. Entries are type-stable, so a stale
 * pointer is safe to read. */
/* Must kept_fast load the entry behind a slot with this tag? A write is
 * checked against every entry; a read only against its own R and atomic
 * writes (a plain W on its bytes would have dropped its R), and its own W
 * (which may cover it). */
GOLDI_INLINE bool kept_looks_at(uintptr_t tag, uintptr_t own, bool write) {
    return write || tag == own || (tag & 3) == GLS_AW || tag == (own & ~(uintptr_t)3) + GLS_W;
}

GOLDI_INLINE bool kept_fast(struct gls_thr *ts, const struct goldi_thr *thr, goldi_shadow_word_t *w, uint8_t piece,
                            bool write) {
    uint64_t v1 = atomic_load_explicit(&w[GRAN_VER], memory_order_acquire);
    uintptr_t w0 = atomic_load_explicit(&w[0], memory_order_relaxed);
    if ((v1 & 1) || (w0 & (GRAN_INL | GRAN_OVF | GRAN_PACK)))
        return false;
    struct gls_entry *mine = NULL;
    enum gls_kind want = write ? GLS_W : GLS_R;
    uintptr_t own = slot_tag(want, thr->tid);
    uint8_t covered = 0;   /* a read: bytes of t's W entries from t's epoch (read_covered) */
    /* The words are entry pointers only if no writer changed the granule
     * since v1 (an inline record or packed cells taking their place hold
     * numbers, not addresses): check before following any of them. */
    uintptr_t slot[GRAN_SLOTS];
    slot[0] = w0;
    for (unsigned i = 1; i < GRAN_SLOTS; i++)
        slot[i] = atomic_load_explicit(&w[i], memory_order_relaxed);
    atomic_thread_fence(memory_order_acquire);
    if (atomic_load_explicit(&w[GRAN_VER], memory_order_relaxed) != v1)
        return false;
    /* The entries the loop below reads are often cold (a scatter over a big
     * array): start their misses at once rather than one after another. */
    for (unsigned i = 0; i < GRAN_SLOTS; i++) {
        uintptr_t p = slot[i];
        if (p && kept_looks_at(p >> SLOT_PTR_BITS, own, write))
            __builtin_prefetch(slot_entry(p));
    }
    for (unsigned i = 0; i < GRAN_SLOTS; i++) {
        uintptr_t p = slot[i];
        if (!p)
            continue;
        if (!kept_looks_at(p >> SLOT_PTR_BITS, own, write))
            continue;   /* another thread's entry that a read is not checked against here */
        struct gls_entry *e = slot_entry(p);
        uint8_t mask = RELAXED(e->mask);
        if (!(mask & piece))
            continue;
        uint8_t kind = RELAXED(e->kind);
        if (!mine && kind == want && (mask & piece) == piece && RELAXED(e->owner) == thr->tid) {
            mine = e;
            continue;
        }
        if (write || kind == GLS_AW)
            return false;
        if (kind == GLS_W && RELAXED(e->owner) == thr->tid && !RELAXED(e->mat) &&
            atomic_load_explicit(&e->pos, memory_order_relaxed) >= ts->epoch_pos)
            covered |= mask;
    }
    if ((covered & piece) != piece) {
        if (!mine || RELAXED(mine->mat) || atomic_load_explicit(&mine->pos, memory_order_relaxed) < ts->epoch_pos)
            return false;
        if (!alock_unchanged(thr, RELAXED(mine->alock_id), RELAXED(mine->alock_mode), RELAXED(mine->alock_rw)))
            return false;
    }
    atomic_thread_fence(memory_order_acquire);
    return atomic_load_explicit(&w[GRAN_VER], memory_order_relaxed) == v1;
}

/* pack_kept_fast for a readers' run (v1: the version read before w0): a
 * read by a reader whose R is from its epoch (the R covers the granule and
 * has no alock: kept if t would pick none now), or by the W's thread in
 * the W's epoch (read_covered). A write never is: the run holds a reader,
 * which a write drops. */
static GOLDI_NOINLINE bool run_kept_fast(struct gls_thr *ts, const struct goldi_thr *thr, goldi_shadow_word_t *w,
                                         uint64_t v1, uintptr_t w0, bool write) {
    if (write)
        return false;
    if (w0 & PACK_RUN_W) {
        uint64_t a = atomic_load_explicit(&w[1], memory_order_relaxed);
        atomic_thread_fence(memory_order_acquire);
        if ((goldi_tid_t)(a >> PACK_POS_BITS) == thr->tid && (a & ((UINT64_C(1) << PACK_POS_BITS) - 1)) >= ts->epoch_pos)
            return atomic_load_explicit(&w[GRAN_VER], memory_order_relaxed) == v1;
    }
    uint32_t readers = ((uint32_t)(w0 >> 4) & 3) + 1;
    uint64_t mine = 0;
    for (uint32_t i = 0; i < readers; i++) {
        uint64_t a = atomic_load_explicit(&w[3 + i], memory_order_relaxed);
        if ((goldi_tid_t)(a >> PACK_POS_BITS) == thr->tid)
            mine = a;
    }
    atomic_thread_fence(memory_order_acquire);
    if (atomic_load_explicit(&w[GRAN_VER], memory_order_relaxed) != v1 || !mine ||
        (mine & ((UINT64_C(1) << PACK_POS_BITS) - 1)) < ts->epoch_pos)
        return false;
    return alock_unchanged(thr, 0, 0, 0);
}

/* pack_kept_fast for a solo run of t, or a mixed run (v1: the version read before w0):
 * t's cell of the kind covers the bytes and is from t's epoch, and (a
 * write) no other cell is on them. The cells have no alock: kept if t
 * would pick none now. A read is kept, too, where t's W cells from t's
 * epoch cover it (read_covered). */
static GOLDI_NOINLINE bool solo_kept_fast(struct gls_thr *ts, const struct goldi_thr *thr, goldi_shadow_word_t *w,
                                          uint64_t v1, uintptr_t w0, uint8_t piece, bool write) {
    bool mixed = pack_mixed(w0);   /* (a mixed run: each cell its owner's, a word each) */
    if (!mixed && (goldi_tid_t)(w0 >> SOLO_OWNER_SHIFT) != thr->tid)
        return false;
    uint64_t a[SOLO_WORDS], c[SOLO_CELLS], mine = 0, base = solo_base(w0);
    uint8_t covered = 0;
    solo_words(w, a);
    atomic_thread_fence(memory_order_acquire);
    if (atomic_load_explicit(&w[GRAN_VER], memory_order_relaxed) != v1)
        return false;
    if (mixed) {
        for (uint32_t i = 0; i < SOLO_CELLS; i++)
            c[i] = i < MIXED_CELLS ? a[i] : 0;
    } else {
        solo_cells(a, c);
    }
    for (uint32_t i = 0; i < SOLO_CELLS; i++) {
        uint64_t cell = c[i];
        uint8_t mask = solo_mask(cell);
        if (!mask)
            break;
        if (!(mask & piece))
            continue;
        if (!write && (cell >> 47 & 1) == GLS_W && (!mixed || (goldi_tid_t)(cell >> 48) == thr->tid) &&
            solo_pos(base, cell) >= ts->epoch_pos)
            covered |= mask;
        if (!mine && (cell >> 47 & 1) == (write ? GLS_W : GLS_R) && (mask & piece) == piece &&
            (!mixed || (goldi_tid_t)(cell >> 48) == thr->tid)) {
            mine = cell;
            continue;
        }
        if (write)
            return false;   /* a write would drop it: a change */
    }
    if (!write && (covered & piece) == piece)
        return true;
    return mine && solo_pos(base, mine) >= ts->epoch_pos && alock_unchanged(thr, 0, 0, 0);
}

/* kept_fast for a packed granule: the cells are read as numbers under the
 * granule's version (a consistent copy or none), and the same rule decides:
 * t's cell of the access's kind covers the bytes, is from t's epoch, has the
 * alock t would pick now, and (a write) no other cell is on the bytes. */
GOLDI_INLINE bool pack_kept_fast(struct gls_thr *ts, const struct goldi_thr *thr, goldi_shadow_word_t *w, uint8_t piece,
                            bool write) {
    uint64_t v1 = atomic_load_explicit(&w[GRAN_VER], memory_order_acquire);
    uintptr_t w0 = atomic_load_explicit(&w[0], memory_order_relaxed);
    if ((v1 & 1) || !pack_is(w0))
        return false;
    if (w0 & PACK_RUN)
        return run_kept_fast(ts, thr, w, v1, w0, write);
    if (pack_solo(w0) || pack_mixed(w0))
        return solo_kept_fast(ts, thr, w, v1, w0, piece, write);
    /* Most packed granules an access finds hold no cell of the thread's
     * current epoch (radix's scatter: each pass writes other granules):
     * say so from the cells' first words alone. (An answer of false needs
     * no consistent copy: the locked path decides.) */
    uint32_t n = (uint32_t)(w0 >> 4) & 3;
    bool current = false;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t a = atomic_load_explicit(&w[1 + 2 * i], memory_order_relaxed);
        current |= (goldi_tid_t)(a >> PACK_POS_BITS) == thr->tid &&
                   (a & ((UINT64_C(1) << PACK_POS_BITS) - 1)) >= ts->epoch_pos;
    }
    if (!current)
        return false;
    uint64_t cw[2 * PACK_CELLS];
#pragma GCC unroll 6
    for (unsigned i = 0; i < 2 * PACK_CELLS; i++)
        cw[i] = atomic_load_explicit(&w[1 + i], memory_order_relaxed);
    atomic_thread_fence(memory_order_acquire);
    if (atomic_load_explicit(&w[GRAN_VER], memory_order_relaxed) != v1)
        return false;
    uint64_t want = write ? GLS_W : GLS_R;
    int mine = -1;
    uint8_t covered = 0;   /* a read: bytes of t's W cells from t's epoch (read_covered) */
    for (uint32_t i = 0; i < n; i++) {
        uint64_t a = cw[2 * i], b = cw[2 * i + 1];
        uint8_t mask = (uint8_t)(b >> 32);
        if (!(mask & piece))
            continue;
        if (!write && (b >> 40 & 1) == GLS_W && (goldi_tid_t)(a >> PACK_POS_BITS) == thr->tid &&
            (a & ((UINT64_C(1) << PACK_POS_BITS) - 1)) >= ts->epoch_pos)
            covered |= mask;
        /* (a DUAL cell is two entries, one per half: it covers a piece
         * within one half, as update_granule's rule would find) */
        bool covers = (mask & piece) == piece &&
                      (!(b & PACK_DUAL) || !(piece & 0x0f) || !(piece & 0xf0));
        if (mine < 0 && (b >> 40 & 1) == want && (goldi_tid_t)(a >> PACK_POS_BITS) == thr->tid && covers) {
            mine = (int)i;
            continue;
        }
        if (write)
            return false;   /* a write would drop it: a change */
    }
    if (!write && (covered & piece) == piece)
        return true;
    if (mine < 0 || (cw[2 * mine] & ((UINT64_C(1) << PACK_POS_BITS) - 1)) < ts->epoch_pos)
        return false;
    uint64_t b = cw[2 * mine + 1];
    if (b & PACK_DUAL)
        return alock_unchanged(thr, 0, 0, 0);
    return alock_unchanged(thr, b >> 42 & ((UINT64_C(1) << PACK_ALOCK_BITS) - 1), (uint8_t)(b >> 62 & 1),
                           (uint8_t)(b >> 63));
}

GOLDI_INLINE bool kept_try(struct gls_thr *ts, struct goldi_thr *thr, goldi_shadow_word_t *w, uintptr_t w0,
                           uint8_t piece, bool write) {
    if (GOLDI_UNLIKELY(--ts->kept_window.left == 0))
        goldi_window_next(&ts->kept_window, KEPT_WINDOW, KEPT_SKIP, KEPT_WINDOW / 32);   /* (KEPT_WINDOW above) */
    if (ts->kept_window.skip)
        return false;
    if (!(pack_is(w0) ? pack_kept_fast(ts, thr, w, piece, write) : kept_fast(ts, thr, w, piece, write)))
        return false;
    ts->kept_window.hits++;
    tstat(ts, GLS_ST_KEPT_FAST, 1);
    return true;
}

/* A piece [addr, addr+size) of a plain access (pc, whole size asize) in
 * the granule at w, without the granule lock: by the owner of an inline
 * granule (no other thread has state there, so there is nothing to check:
 * owner short-circuit, and the update is the inline one), or one that
 * changes nothing (kept_fast). False: the piece needs the general path.
 * *o: the access's origin once a piece found it (inl_try), else 0. */
GOLDI_INLINE bool piece_lock_free(struct gls_thr *ts, struct goldi_thr *thr, goldi_shadow_word_t *w,
                                  uintptr_t addr, unsigned size, bool write, uintptr_t pc, unsigned asize,
                                  goldi_origin_t *o) {
    uint8_t piece = byte_mask(addr, addr + size);
    uintptr_t w0 = atomic_load_explicit(&w[0], memory_order_acquire);
    if (inl_is(w0)) {
        /* The owner first, before anything is built for the general path
         * (array code's common case). */
        int r = inl_try_any(ts, thr, w, w0, piece, write, pc, asize, o);
        if (r == INL_DONE)
            tstat(ts, GLS_ST_INL_FAST, 1);
        if (r != INL_NO)
            return true;
        /* another thread's record (or t's write to its split record) */
        return (inl_owner(w0) != thr->tid || (write && (w0 & GRAN_SPLIT))) &&
               inl_foreign_fast(ts, thr, w, w0, piece, write, pc, asize, o);
    }
    return kept_try(ts, thr, w, w0, piece, write);
}

/* The piece [addr, addr+size) of the access ev, in the granule at w, by the
 * dispatcher's on_access under the granule lock. */
GOLDI_INLINE void piece_under_lock(struct gls_engine *g, struct gls_thr *ts, goldi_shadow_word_t *w,
                                   const struct goldi_event *ev, uintptr_t addr, unsigned size) {
    if (!atomic_load_explicit(&w[0], memory_order_relaxed))
        goldi_shadow_will_write(g->env.plane, addr);   /* before the lock's write: see shadow.h */
    gran_lock(g, ts, w);
    access_locked(g, ts, ev, addr, size, w);
    gran_unlock(ts, w);
}

/* The pieces of the access [aaddr, aaddr+asize) from addr on, each by the
 * dispatcher's on_access under the granule lock, with the event the
 * dispatcher would have built (no event is dispatched: the lock is on the
 * line just read). w: the shadow of addr's granule, if the caller has it. */
static GOLDI_NOINLINE void pieces_locked(struct gls_engine *g, struct gls_thr *ts, struct goldi_thr *thr,
                                         goldi_shadow_word_t *w, uintptr_t addr, uintptr_t aaddr, unsigned asize,
                                         bool write, uintptr_t pc) {
    struct goldi_event ev = plain_event(thr, write, aaddr, asize, pc);
    for (uintptr_t end = aaddr + asize; addr < end;) {
        uintptr_t base = addr & ~(uintptr_t)(GOLDI_GRANULE - 1), next = base + GOLDI_GRANULE;
        unsigned size = (unsigned)((next < end ? next : end) - addr);
        if (!w)
            w = goldi_shadow_word_if_present(g->env.plane, base);
        if (GOLDI_UNLIKELY(!ts || !w)) {
            gls_on_access(g, &ev, addr, size);
            ts = thr->estate[g->env.index];
        } else {
            piece_under_lock(g, ts, w, &ev, addr, size);
        }
        addr = next;
        w = NULL;
    }
}

/* The general rule's write by t, holding no lock, to an inline record of
 * which another thread's entries stay on bytes the write does not touch,
 * when the check settles every entry it overlaps without a walk, t has no
 * W of its own there, t's epoch needs no new registration and at most
 * PACK_CELLS entries are left: what inl_general stores (inl_foreign cannot
 * take it: another thread's entries stay; pack_update drops the written
 * bytes from the record's entries, in inl_cents' order, and adds t's W
 * last; pack_contract finds the other thread's entry; pack_store writes
 * the cells), without the general steps. Radix's scatter writing the
 * first key of a granule another thread wrote and a third read. Cells the
 * dead mark covers go (pack_update's rule): with none left, the result is
 * t's inline record of the piece. False, nothing changed, for anything
 * else. Caller holds the granule lock. */
static bool inl_write_packs(struct gls_engine *g, struct gls_thr *ts, struct goldi_thr *thr, goldi_shadow_word_t *w,
                            uint8_t piece, uintptr_t pc, unsigned size) {
    goldi_tid_t t = thr->tid;
    uint64_t epoch = ts->epoch_pos;
    if (thr->n_held || t >= PACK_OWNER_LIMIT || epoch >> PACK_POS_BITS)
        return false;
    uintptr_t v = inl_lock(g, w, t);
    if (!v)
        return false;
    struct gls_cent c[INL_CENTS];
    uint64_t reg;
    uint32_t n = inl_cents_at(w, v, c, &reg), k = 0;
    uint64_t cw[2 * PACK_CELLS];   /* the cells left, in inl_cents' order, then t's W */
    struct gls_settled st = { 0, 0, 0 };
    bool foreign_left = false;
    goldi_origin_t origin = 0;
    if ((epoch >> GLS_CHUNK_BITS) + 1 < reg || (reg >> PACK_REG_BITS))
        goto decline;
    struct gls_dead_view dv = dead_view(g);
    uint32_t dead = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (dead_entry(&dv, c[i].owner, c[i].pos)) {
            dead++;
            continue;
        }
        if ((c[i].owner == t && c[i].kind == GLS_W) || !pack_fits(&c[i]) ||
            ((c[i].mask & piece) && !entry_settled(&st, ts, thr, c[i].owner, c[i].al, c[i].pos)))
            goto decline;
        c[i].mask &= (uint8_t)~piece;
        if (!c[i].mask)
            continue;
        if (k == PACK_CELLS - 1)
            goto decline;   /* (no cell left for t's W) */
        foreign_left |= c[i].owner != t;
        cw[2 * k] = cell_a(&c[i]);
        cw[2 * k++ + 1] = cell_b(&c[i]);
    }
    if ((!foreign_left && k) || !(origin = access_origin_at(ts, thr, pc, true, size)))
        goto decline;
    tstat(ts, GLS_ST_DEAD_DROPPED, dead);
    if (!k) {   /* (every cell dead or written over: t's W alone, inline) */
        inl_store(w, &(struct gls_inl){ .mw = piece, .owner = t, .wowner = t, .pw = epoch, .ow = origin, .reg = reg });
        tstat(ts, GLS_ST_ACCESSES, 1);
        settled_count(ts, &st);
        tstat(ts, GLS_ST_RECORDED, 1);
        return true;
    }
    struct gls_cent e = { .pos = epoch, .origin = origin, .owner = t, .kind = GLS_W, .mask = piece };
    cw[2 * k] = cell_a(&e);
    cw[2 * k++ + 1] = cell_b(&e);
    pack_cells_store(w, cw, k, reg);
    tstat(ts, GLS_ST_ACCESSES, 1);
    settled_count(ts, &st);
    tstat(ts, GLS_ST_RECORDED, 1);
    tstat(ts, GLS_ST_PACK_NEW, 1);
    return true;
decline:
    atomic_store_explicit(&w[0], v, memory_order_release);
    return false;
}

/* The general rule's write by t, holding no lock, to a packed granule
 * (cells) that folds it back into t's inline record: t's W cell from t's
 * epoch, without an alock, on bytes the write does not touch, and every
 * other cell on written bytes only, none a W of t's, settled without a
 * walk; t's epoch needs no new registration. The result is pack_inplace's:
 * t's cell takes the bytes if the access has its origin (the rule's
 * sharing), else t's new cell goes after it, and pack_contract folds them
 * (one W, or a half W record), without its general steps: the record's
 * words are written straight from the cell's (no cell or record decoded
 * and copied: radix -t 4, 613 -> 474 instructions a call). Radix's scatter
 * writing the second key of a granule after the first (inl_write_packs;
 * from an unrolled loop's other copy: two origins). False, nothing
 * changed, for anything else. Caller holds the granule lock. */
static bool pack_write_completes(struct gls_thr *ts, struct goldi_thr *thr, goldi_shadow_word_t *w, uint8_t piece,
                                 uintptr_t pc, unsigned size) {
    uintptr_t w0 = atomic_load_explicit(&w[0], memory_order_relaxed);
    uint64_t epoch = ts->epoch_pos;
    goldi_tid_t t = thr->tid;
    if (!pack_is(w0) || (w0 & (PACK_RUN | PACK_SOLO)) || thr->n_held || (epoch >> GLS_CHUNK_BITS) + 1 < pack_reg(w0))
        return false;
    uint32_t cells = (uint32_t)(w0 >> 4) & 3;
    struct gls_settled st = { 0, 0, 0 };
    struct gls_alock none = { 0, 0, 0 };   /* (t holds no lock: no cell's alock orders it) */
    uint64_t ta = 0, tb = 0;               /* t's W cell's words (none while tb's mask is 0) */
    for (uint32_t i = 0; i < cells; i++) {
        uint64_t a = atomic_load_explicit(&w[1 + 2 * i], memory_order_relaxed);
        uint64_t b = atomic_load_explicit(&w[2 + 2 * i], memory_order_relaxed);
        goldi_tid_t owner = (goldi_tid_t)(a >> PACK_POS_BITS);
        uint64_t pos = a & ((UINT64_C(1) << PACK_POS_BITS) - 1);
        uint8_t mask = (uint8_t)(b >> 32);
        bool own_w = owner == t && !(b >> 40 & 1);
        if (b & PACK_DUAL)
            return false;
        if (!(uint8_t)(tb >> 32) && own_w && !(mask & piece) && pos >= epoch && !(b >> 42)) {
            ta = a, tb = b;
            continue;
        }
        if ((mask & ~piece) || own_w ||   /* (t's W on the bytes: the rule may keep it) */
            !entry_settled(&st, ts, thr, owner, none, pos))
            return false;
    }
    uint8_t m = (uint8_t)(tb >> 32);
    goldi_origin_t origin;
    if (!m || !(origin = access_origin_at(ts, thr, pc, true, size)))
        return false;
    /* t's W on every byte it covers: one history if the access shares its
     * cell's origin, else a half record (inl_of_cents' result, stored as
     * inl_store stores it) */
    uint64_t plo = ta & ((UINT64_C(1) << PACK_POS_BITS) - 1), phi = 0;
    goldi_origin_t olo = (goldi_origin_t)tb, ohi = 0;
    bool share = olo == origin;
    uintptr_t half = 0;
    if (!share) {
        bool cell_lo = !(m & HALF_HI) && !(piece & HALF_LO), cell_hi = !(m & HALF_LO) && !(piece & HALF_HI);
        if (!cell_lo && !cell_hi)
            return false;   /* (two histories within a half) */
        half = GRAN_HALF;
        phi = cell_lo ? epoch : plo, ohi = cell_lo ? origin : olo;
        if (cell_hi)
            plo = epoch, olo = origin;
    }
    atomic_store_explicit(&w[1], plo, memory_order_relaxed);
    atomic_store_explicit(&w[2], 0, memory_order_relaxed);
    atomic_store_explicit(&w[3], olo, memory_order_relaxed);
    atomic_store_explicit(&w[4], pack_reg(w0), memory_order_relaxed);
    atomic_store_explicit(&w[5], phi, memory_order_relaxed);
    atomic_store_explicit(&w[6], ohi, memory_order_relaxed);
    atomic_store_explicit(&w[0], GRAN_INL | half | (uintptr_t)(m | piece) << 8 | (uintptr_t)t << 32,
                          memory_order_release);
    tstat(ts, GLS_ST_ACCESSES, 1);
    settled_count(ts, &st);
    tstat(ts, share ? GLS_ST_SHARED : GLS_ST_RECORDED, 1);
    tstat(ts, GLS_ST_PACK_CONTRACT, 1);
    return true;
}

/* piece_locked's case of a packed granule: in place if it can be
 * (pack_write_completes, pack_inplace), else by the general way, under one
 * hold of the lock. */
static GOLDI_NOINLINE void piece_locked_packed(struct gls_engine *g, struct gls_thr *ts, struct goldi_thr *thr,
                                               goldi_shadow_word_t *w, uintptr_t addr, unsigned size, bool write,
                                               uintptr_t pc) {
    gran_lock(g, ts, w);
    uint8_t piece = byte_mask(addr, addr + size);
    if (!(write && pack_write_completes(ts, thr, w, piece, pc, size)) &&
        !pack_inplace(ts, thr, w, piece, write, pc, size) && !solo_inplace(ts, thr, w, piece, write, pc, size)) {
        struct goldi_event ev = plain_event(thr, write, addr, size, pc);
        access_locked(g, ts, &ev, addr, size, w);
    }
    gran_unlock(ts, w);
}

/* piece_locked's case of a granule of pool entries: entries_inplace if it
 * can, else the general way, under one hold of the lock. */
static GOLDI_NOINLINE void piece_locked_entries(struct gls_engine *g, struct gls_thr *ts, struct goldi_thr *thr,
                                                goldi_shadow_word_t *w, uintptr_t addr, unsigned size, bool write,
                                                uintptr_t pc) {
    gran_lock(g, ts, w);
    uintptr_t base = addr & ~(uintptr_t)(GOLDI_GRANULE - 1);
    if (!entries_inplace(g, ts, thr, w, base, byte_mask(addr, addr + size), write, pc, size)) {
        struct goldi_event ev = plain_event(thr, write, addr, size, pc);
        access_locked(g, ts, &ev, addr, size, w);
    }
    gran_unlock(ts, w);
}

/* piece_locked's case of a write to an inline record: inl_write_packs if it
 * can, else the general way, under one hold of the lock. */
static GOLDI_NOINLINE void piece_locked_inline_write(struct gls_engine *g, struct gls_thr *ts, struct goldi_thr *thr,
                                                     goldi_shadow_word_t *w, uintptr_t addr, unsigned size,
                                                     uintptr_t pc) {
    gran_lock(g, ts, w);
    if (!inl_write_packs(g, ts, thr, w, byte_mask(addr, addr + size), pc, size)) {
        struct goldi_event ev = plain_event(thr, true, addr, size, pc);
        access_locked(g, ts, &ev, addr, size, w);
    }
    gran_unlock(ts, w);
}

/* pieces_locked for an access inside the granule at w (radix's and
 * hashtable's scatters: kept lean, no loop). */
static GOLDI_NOINLINE void piece_locked(struct gls_engine *g, struct gls_thr *ts, struct goldi_thr *thr,
                                        goldi_shadow_word_t *w, uintptr_t addr, unsigned size, bool write, uintptr_t pc) {
    uintptr_t w0 = atomic_load_explicit(&w[0], memory_order_relaxed);
    if (pack_is(w0)) {
        piece_locked_packed(g, ts, thr, w, addr, size, write, pc);   /* (a tail call: this frame stays lean) */
        return;
    }
    if (w0 && !(w0 & (GRAN_INL | GRAN_OVF))) {
        piece_locked_entries(g, ts, thr, w, addr, size, write, pc);
        return;
    }
    /* (a thread holding a lock, or the owner writing to its own record, is
     * left to the general path at once: inl_write_packs would decline) */
    if (write && inl_is(w0) && !thr->n_held && (inl_owner(w0) != thr->tid || (w0 & GRAN_SPLIT))) {
        piece_locked_inline_write(g, ts, thr, w, addr, size, pc);
        return;
    }
    struct goldi_event ev = plain_event(thr, write, addr, size, pc);
    piece_under_lock(g, ts, w, &ev, addr, size);
}

/* The plane of the instance the runtime's fast path calls (on_access_fast
 * is taken only while one sink is attached: by one instance a process, the
 * one created last), set by gls_create. Read from here, the fast path's
 * shadow lookups wait for no load but the directory slot's, where
 * g->env.plane waited for the sink's self pointer and then the engine's
 * env (-t 1, 15 interleaved pairs: stencil 0.937 of its wall time, lu
 * 0.929). */
static unsigned fast_plane;

/* The shadow of the granule at `next`, given w, the shadow of the granule
 * before it: a granule's 8 words follow the previous one's unless a shadow
 * leaf ends between them, so a 16-byte access looks the directory up once. */
GOLDI_INLINE goldi_shadow_word_t *next_granule_shadow(struct gls_engine *g, goldi_shadow_word_t *w, uintptr_t next) {
    return goldi_shadow_leaf_slot(next) ? w + GOLDI_GRANULE : goldi_shadow_word_if_present(g->env.plane, next);
}

/* The runtime's shortcut for a plain access within two granules, any
 * alignment and size (gls_on_access_fast below): each piece lock-free if it
 * can be, else under its granule lock. ts: the thread's state (may be
 * NULL), w: the shadow of addr's granule (NULL if there is none). Always
 * handles the access. */
GOLDI_INLINE void access_fast_any_inl(struct gls_engine *g, struct gls_thr *ts, struct goldi_thr *thr,
                                     goldi_shadow_word_t *w, uintptr_t addr, unsigned size, bool write, uintptr_t pc) {
    uintptr_t base = addr & ~(uintptr_t)(GOLDI_GRANULE - 1), split = base + GOLDI_GRANULE;
    unsigned first = addr + size > split ? (unsigned)(split - addr) : size;
    uintptr_t from = addr;
    goldi_origin_t o = 0;   /* (both pieces' origin: found once) */
    if (GOLDI_LIKELY(ts && w) && piece_lock_free(ts, thr, w, addr, first, write, pc, size, &o)) {
        if (first == size)
            return;
        w = next_granule_shadow(g, w, split);
        if (GOLDI_LIKELY(w) && piece_lock_free(ts, thr, w, split, size - first, write, pc, size, &o))
            return;
        from = split;
    }
    /* (tail calls: the lock-free path above needs no frame of its own) */
    if (GOLDI_LIKELY(ts && w) && first == size)
        piece_locked(g, ts, thr, w, addr, size, write, pc);
    else
        pieces_locked(g, ts, thr, w, from, addr, size, write, pc);
}

static GOLDI_NOINLINE void access_fast_any(struct gls_engine *g, struct gls_thr *ts, struct goldi_thr *thr,
                                           goldi_shadow_word_t *w, uintptr_t addr, unsigned size, bool write,
                                           uintptr_t pc) {
    access_fast_any_inl(g, ts, thr, w, addr, size, write, pc);
}

/* inl_try for a piece that is the whole granule, `write` a constant in
 * each copy: with piece 0xff the compiler drops the byte masks' arithmetic
 * and the representability test (a whole-granule access leaves no bytes of
 * its kind with another pos or origin). */
GOLDI_INLINE int inl_try_whole(struct gls_thr *ts, struct goldi_thr *thr, goldi_shadow_word_t *w, bool write,
                               uintptr_t pc, unsigned size, goldi_origin_t *found) {
    uintptr_t v = atomic_load_explicit(&w[0], memory_order_acquire);
    int r = inl_try(ts, thr, w, v, 0xff, write, pc, size, found);
    if (r == INL_DONE)
        tstat(ts, GLS_ST_INL_FAST, 1);
    return r;
}

/* The second granule of a 16-byte whole-granule access that its inline
 * record could not take (the first one is done): lock-free if it can be,
 * else under its granule lock. */
static GOLDI_NOINLINE void access_fast_second(struct gls_engine *g, struct gls_thr *ts, struct goldi_thr *thr,
                                              goldi_shadow_word_t *w, uintptr_t addr, bool write, uintptr_t pc,
                                              goldi_origin_t o) {
    uintptr_t second = addr + GOLDI_GRANULE;
    if (!w || !piece_lock_free(ts, thr, w, second, GOLDI_GRANULE, write, pc, 2 * GOLDI_GRANULE, &o))
        pieces_locked(g, ts, thr, w, second, addr, 2 * GOLDI_GRANULE, write, pc);
}

/* Starts the miss on the shadow line of the granule after w's: the program
 * is likely to touch it next (a structure's fields in order, a scatter's
 * streams each writing forward, a fresh node filled in) and, at 64 bytes a
 * granule, the hardware's own prefetchers follow few such streams (radix's
 * scatter writes 256 per thread). Not for 4-byte reads: a node's key read
 * is followed by its `next`, the granule before (multiset). A prefetch
 * never faults, so w + 8 past the end of a leaf is harmless. */
GOLDI_INLINE void prefetch_next_granule(goldi_shadow_word_t *w, bool write) {
    if (write)
        __builtin_prefetch(w + GOLDI_GRANULE, 1);
    else
        __builtin_prefetch(w + GOLDI_GRANULE, 0);
}

/* A 16-byte access is a vectorised loop's, sweeping an array: start the
 * misses on the shadow lines of the access ACCESSES_AHEAD accesses ahead of
 * this one (its two granules, two lines). The hardware's prefetchers stop
 * at every 4 KiB shadow page, which is 512 bytes of the program's array:
 * stencil's sweeps (three rows read, one written) waited on a shadow line
 * at every second granule. Stencil `-n 1200`: 1 access ahead 0.97 of its
 * time, 4 ahead 0.86-0.88, 8 as 4, 16 worse (round 40). A far prefetch for
 * 8-byte accesses too bought GCC's stencil nothing and cost hashtable's
 * random reads 4 %. */
#define ACCESSES_AHEAD 4
GOLDI_INLINE void prefetch_sweep_ahead(goldi_shadow_word_t *w, bool write) {
    prefetch_next_granule(w + (2 * ACCESSES_AHEAD - 1) * GOLDI_GRANULE, write);
    prefetch_next_granule(w + 2 * ACCESSES_AHEAD * GOLDI_GRANULE, write);
}

/* An 8-byte read is often a pointer the program follows next (a chain's
 * `next`, a bucket's head): when the 8 bytes look like a user-space address,
 * start the misses on the shadow lines of the granule it points at and the
 * one after (a node's first two fields), and on the node itself. The hook
 * of the program's next access (the node's key) waits for the shadow line,
 * and only then does the program load the node: without the node's own
 * prefetch the two misses came one after the other (multiset's walks: 0.94
 * of its time, round 38). The program reads these 8 bytes right after this hook,
 * so the load is one it makes anyway (should it fault, a handler that
 * retries sees the same fault, one that longjmps leaves the thread with
 * the runtime's re-entry guard raised: its later accesses go unchecked).
 * Doubles and most integers fail the address test. */
GOLDI_INLINE void prefetch_pointee(uintptr_t addr) {
    uintptr_t v = __atomic_load_n((const uintptr_t *)addr, __ATOMIC_RELAXED);
    if ((v & 7) || v - 0x10000 >= (UINT64_C(1) << 47) - 0x10000)
        return;
    goldi_shadow_word_t *pw = goldi_shadow_word_if_guessed(fast_plane, v);
    if (pw) {   /* (memory with state around it: a count that passed the test is not fetched) */
        __builtin_prefetch((const void *)v);
        __builtin_prefetch(pw);
        prefetch_next_granule(pw, false);
    }
}

/* An 8-byte-aligned access of one or two whole granules (doubles,
 * pointers, vectorised loops: array code's common case), ts and w the
 * thread's state and the shadow of addr's granule as the caller found them
 * (either may be NULL): granule by granule by thr's inline records
 * (inl_try) where they take it, else access_fast_any. */
GOLDI_INLINE void access_fast_whole_body(struct gls_engine *g, struct gls_thr *ts, struct goldi_thr *thr,
                                         goldi_shadow_word_t *w, uintptr_t addr, unsigned size, bool write,
                                         uintptr_t pc) {
    goldi_origin_t o = 0;
    if (GOLDI_UNLIKELY(!ts || !w) || inl_try_whole(ts, thr, w, write, pc, size, &o) == INL_NO) {
        access_fast_any(g, ts, thr, w, addr, size, write, pc);
        return;
    }
    if (size == GOLDI_GRANULE)
        return;
    uintptr_t second = addr + GOLDI_GRANULE;
    w = next_granule_shadow(g, w, second);
    if (GOLDI_UNLIKELY(!w) || inl_try_whole(ts, thr, w, write, pc, size, &o) == INL_NO)
        access_fast_second(g, ts, thr, w, addr, write, pc, o);
}

/* The other accesses: unaligned, or of 1, 2 or 4 bytes. */
GOLDI_INLINE void access_fast_part_body(struct gls_engine *g, struct goldi_thr *thr, uintptr_t addr, unsigned size,
                                       bool write, uintptr_t pc) {
    struct gls_thr *ts = thr->estate[g->env.index];
    pend_check(g, ts, thr->tid);
    uintptr_t base = addr & ~(uintptr_t)(GOLDI_GRANULE - 1);
    goldi_shadow_word_t *w = goldi_shadow_word_if_present(fast_plane, base);
    if (write && w)
        prefetch_next_granule(w, true);
    access_fast_any_inl(g, ts, thr, w, addr, size, write, pc);
}
static GOLDI_NOINLINE void access_fast_part(struct gls_engine *g, struct goldi_thr *thr, uintptr_t addr,
                                            unsigned size, bool write, uintptr_t pc) {
    access_fast_part_body(g, thr, addr, size, write, pc);
}
/* An aligned 4-byte access (radix's keys, a codec's hash slots): the same,
 * compiled for the size and kind (the piece's mask and the split test
 * fold; ~6 % of radix's instructions were these functions' arithmetic on
 * a variable size). */
static GOLDI_NOINLINE void access_half_read(void *self, struct goldi_thr *thr, uintptr_t addr, uintptr_t pc) {
    access_fast_part_body(self, thr, addr, 4, false, pc);
}
static GOLDI_NOINLINE void access_half_write(void *self, struct goldi_thr *thr, uintptr_t addr, uintptr_t pc) {
    access_fast_part_body(self, thr, addr, 4, true, pc);
}

/* --- the lean path: an owner's 16-byte accesses -------------------------------
 * An aligned 16-byte access (a vectorised loop's) in the common case of
 * array code, taken before the general path's set-up: both granules are
 * thr's plain inline records in one lease block, thr holds no lock (so
 * there is no alock to pick or compare: the records' are 0), the access's
 * origin is in the thread's memo, and the access is kept, or an update
 * under thr's lease: the kept test of each granule, one lease entry, both
 * words 0 checked, one origin, the two updates, one exit. Anything else
 * goes on to access_fast_whole_body, granule by granule (inl_try: an
 * update without the lease takes the lock bit's CAS, which counts towards
 * one). Round 46: stencil's swept pairs ran 238 (writes) and 178 (reads)
 * instructions in the engine, 163 and 138 so. */

/* Does v (a granule's word 0) let the lean path take an access of this
 * kind: thr's plain inline record, its bit free, no half (a write: not a
 * split record), and thr holding no lock? inl_takes's test as one masked
 * compare of the word (and lean_kept below inl_kept's for no alock): built
 * on those two instead, the pair path ran 1.03 of stencil's and lu's
 * instructions (round 46). */
GOLDI_INLINE bool lean_takes(uintptr_t v, const struct goldi_thr *thr, bool write) {
    uintptr_t test = GRAN_INL | GRAN_LOCK | GRAN_HALF | (write ? GRAN_SPLIT : 0) | ~(uintptr_t)UINT32_MAX;
    return !((v & test) ^ (GRAN_INL | (uintptr_t)thr->tid << 32)) && !thr->n_held;
}

/* inl_kept for a record lean_takes, the access the whole granule: the
 * kind's mask covers it (a write: and no R is left), its pos is the
 * epoch's, its alock word 0; or a read covered by t's W of the epoch. */
GOLDI_INLINE bool lean_kept(goldi_shadow_word_t *w, uintptr_t v, bool write, uint64_t pos) {
    uintptr_t mm = write ? 0xffff : 0xff;   /* (a write: W's mask 0xff and R's 0) */
    if (!write && GOLDI_UNLIKELY(atomic_load_explicit(&w[1], memory_order_relaxed) == pos) &&
        (v & (GRAN_SPLIT | (uintptr_t)0xff << 8)) == (uintptr_t)0xff << 8)
        return true;   /* (W's pos first: most reads fail there, at one compare) */
    return ((v >> (write ? 8 : 16)) & mm) == 0xff &&
           atomic_load_explicit(&w[write ? 1 : 2], memory_order_relaxed) == pos &&
           !atomic_load_explicit(&w[write ? 5 : 6], memory_order_relaxed);
}

/* The access's origin from the thread's memo (0: not there; the general
 * path finds it and fills the memo: no call on the lean paths). */
GOLDI_INLINE goldi_origin_t lean_origin(struct goldi_thr *thr, uintptr_t pc, bool write, unsigned size) {
    return goldi_origin_memo_of(thr, pc, write ? GOLDI_EV_WRITE : GOLDI_EV_READ, size);
}

/* The update of a whole granule's record of thr under its lease. */
GOLDI_INLINE void lean_store(goldi_shadow_word_t *w, uintptr_t v, bool write, uint64_t pos, goldi_origin_t o) {
    unsigned pi = write ? 1 : 2, ai = write ? 5 : 6;
    inl_store_kind(w, v, 0xff, write, pos, atomic_load_explicit(&w[pi], memory_order_relaxed),
                   atomic_load_explicit(&w[3], memory_order_relaxed), o,
                   atomic_load_explicit(&w[ai], memory_order_relaxed), 0);
}

/* The lean path of a 16-byte access, its granules' shadow w and w + 8 in
 * one lease block. False, with nothing changed, where it does not apply. */
GOLDI_INLINE bool pair_lean(struct gls_thr *ts, struct goldi_thr *thr, goldi_shadow_word_t *w, bool write,
                            uintptr_t pc) {
    goldi_shadow_word_t *w2 = w + GOLDI_GRANULE;
    uintptr_t v = atomic_load_explicit(&w[0], memory_order_acquire);
    uintptr_t v2 = atomic_load_explicit(&w2[0], memory_order_acquire);
    if (!lean_takes(v, thr, write) || !lean_takes(v2, thr, write))
        return false;
    uint64_t pos = ts->epoch_pos;
    bool kept = lean_kept(w, v, write, pos), kept2 = lean_kept(w2, v2, write, pos);
    atomic_thread_fence(memory_order_acquire);
    if (kept && kept2) {
        if (atomic_load_explicit(&w[0], memory_order_relaxed) != v ||
            atomic_load_explicit(&w2[0], memory_order_relaxed) != v2)
            return false;
        tstat(ts, GLS_ST_KEPT, 2);
        return true;
    }
    if (!ts->lease.n)
        return false;
    goldi_origin_t o = lean_origin(thr, pc, write, 2 * GOLDI_GRANULE);
    if (!o || !gls_lease_enter(ts->leases, &ts->lease, w))
        return false;
    if (atomic_load_explicit(&w[0], memory_order_relaxed) != v ||
        atomic_load_explicit(&w2[0], memory_order_relaxed) != v2) {
        gls_lease_done(&ts->lease);
        return false;
    }
    tstat(ts, GLS_ST_ORC_HIT, 1);
    unsigned done = 2;
    if (GOLDI_UNLIKELY(kept | kept2)) {   /* (one of the two: a sweep's edge) */
        done = 1;
        tstat(ts, GLS_ST_KEPT, 1);
    }
    if (!kept)
        lean_store(w, v, write, pos, o);
    if (!kept2)
        lean_store(w2, v2, write, pos, o);
    gls_lease_done(&ts->lease);
    tstat(ts, GLS_ST_INL_FAST, done);
    tstat(ts, GLS_ST_INL_LEASED, done);
    return true;
}

/* An 8-byte access: the shadow look-up and prefetches, then the general
 * path, compiled for this size alone (round 46: with a pair's code beside
 * it, where the size was a variable, GCC's instrumentation of stencil, lu
 * and sharedspot ran 1.06 of these instructions). A lean path for these
 * as for pairs cut stencil's and lu's instructions by as much again but
 * not their time, and added 1 % to the workloads whose 8-byte accesses it
 * does not take (another thread's record, a lock held). */
GOLDI_INLINE void access_single(struct gls_engine *g, struct goldi_thr *thr, uintptr_t addr, bool write, uintptr_t pc) {
    struct gls_thr *ts = thr->estate[g->env.index];
    pend_check(g, ts, thr->tid);
    goldi_shadow_word_t *w = goldi_shadow_word_if_present(fast_plane, addr);
    if (w)
        prefetch_next_granule(w, write);
    if (!write)
        prefetch_pointee(addr);
    access_fast_whole_body(g, ts, thr, w, addr, GOLDI_GRANULE, write, pc);
}

/* A 16-byte access: the shadow look-up and prefetches, then pair_lean,
 * else the general path (a tail call). One function: a pair the lean path
 * does not take is rare (a sweep's first pairs of an epoch, before the
 * lease), and a second function's entry cost the swept pairs more than
 * the frame this one sets up for them. */
GOLDI_INLINE void access_pair(struct gls_engine *g, struct goldi_thr *thr, uintptr_t addr, bool write, uintptr_t pc) {
    struct gls_thr *ts = thr->estate[g->env.index];
    pend_check(g, ts, thr->tid);
    goldi_shadow_word_t *w = goldi_shadow_word_if_present(fast_plane, addr);
    if (GOLDI_LIKELY(ts && w)) {
        prefetch_sweep_ahead(w, write);
        if (goldi_shadow_leaf_slot(addr + GOLDI_GRANULE) && gls_lease_block(w) == gls_lease_block(w + GOLDI_GRANULE) &&
            pair_lean(ts, thr, w, write, pc))
            return;
    }
    access_fast_whole_body(g, ts, thr, w, addr, 2 * GOLDI_GRANULE, write, pc);
}

/* access_single and access_pair for reads, for writes: one copy each,
 * `write` constant. */
#define ACCESS_COPY(name, path, write)                                                                  \
    static GOLDI_NOINLINE void name(void *self, struct goldi_thr *thr, uintptr_t addr, uintptr_t pc) { \
        path(self, thr, addr, write, pc);                                                               \
    }
ACCESS_COPY(access_single_read, access_single, false)
ACCESS_COPY(access_single_write, access_single, true)
ACCESS_COPY(access_pair_read, access_pair, false)
ACCESS_COPY(access_pair_write, access_pair, true)
#undef ACCESS_COPY

/* The dispatcher's shortcut for a plain READ/WRITE event of any size
 * (goldi_sink.on_range_fast): each piece lock-free where piece_lock_free
 * takes it (the owner's inline record, a kept access), else under its
 * granule lock as on_access takes it. The origin is found once, the
 * event's (its site holds the range's size). zstd -T4 copies its input
 * into its jobs' buffers and back out (memcpy): each granule of those took
 * its lock with a CAS, a tenth of its time. */
#define RANGE_AHEAD 8   /* granules whose shadow line a range starts to fetch ahead */
/* A range this long has its shadow committed for writing first, where it
 * covers a block of it (goldi_shadow_will_write_range): zstd's copies into
 * fresh job buffers read each shadow page before the first write to it. */
#define RANGE_COMMIT_MIN 8192u
static void gls_on_range_fast(void *self, const struct goldi_event *ev) {
    struct gls_engine *g = self;
    struct goldi_thr *thr = ev->thr;
    struct gls_thr *ts = thr_state(g, thr);
    pend_check(g, ts, thr->tid);
    bool write = ev->kind == GOLDI_EV_WRITE;
    uintptr_t a = ev->addr, end = a + ev->size;
    if (end < a)
        end = UINTPTR_MAX;
    goldi_origin_t o = 0;
    goldi_shadow_word_t *w = NULL;
    if (ev->size >= RANGE_COMMIT_MIN)
        goldi_shadow_will_write_range(g->env.plane, a, ev->size);
    while (a < end) {
        uintptr_t gend = goldi_granule_piece_end(a, end), base = a & ~(uintptr_t)(GOLDI_GRANULE - 1);
        w = w && goldi_shadow_leaf_slot(base) ? w + GOLDI_GRANULE : goldi_shadow_word_if_present(g->env.plane, base);
        if (w && gend < end)   /* (the hardware's prefetchers stop at each 4 KiB of shadow) */
            __builtin_prefetch(w + RANGE_AHEAD * GOLDI_GRANULE, 1);
        if (!w || !piece_lock_free(ts, thr, w, a, (unsigned)(gend - a), write, ev->pc, ev->size, &o))
            access_piece(g, ts, ev, a, (unsigned)(gend - a));
        a = gend;
    }
}

/* free_granule_fused's case of an inline record: checked and wiped (true)
 * when the free by thr finds every entry of it ordered before it without
 * a walk: the common case, a buffer another thread filled before a
 * hand-off thr has seen, or thr's own (its record is ordered whole: a
 * split W before the owner's R). False, nothing changed: the general
 * check's to make. Caller holds the granule lock. */
static bool free_inl(struct gls_engine *g, struct gls_thr *ts, const struct goldi_thr *thr, goldi_shadow_word_t *w) {
    if (!inl_is(atomic_load_explicit(&w[0], memory_order_relaxed)))
        return false;
    uintptr_t v = inl_lock(g, w, thr->tid);
    if (!v)
        return false;
    if (inl_owner(v) == thr->tid) {
        tstat(ts, GLS_ST_OWNER_SC, 1);
    } else {
        struct gls_inl f;
        struct gls_cent c[INL_CENTS];
        inl_read(w, v, &f);
        if (!cents_settled(ts, thr, true, 0xff, c, inl_cents(&f, c))) {
            atomic_store_explicit(&w[0], v, memory_order_release);
            return false;
        }
    }
    tstat(ts, GLS_ST_ACCESSES, 1);
    gran_wipe(w);
    return true;
}

/* A granule of a block being freed, with state (gls_on_free_fast): the
 * FREE's check (a write of every byte, recording nothing: access_locked)
 * and the reset on_event would do next, under one hold of its lock. */
struct gls_free {
    struct gls_engine *g;
    struct gls_thr *ts;
    const struct goldi_event *ev;
};
static void free_granule_fused(void *ctx, uintptr_t base, goldi_shadow_word_t *w) {
    struct gls_free *f = ctx;
    if (!gran_has_state(w))
        return;
    gran_lock(f->g, f->ts, w);
    if (!free_inl(f->g, f->ts, f->ev->thr, w)) {
        access_locked(f->g, f->ts, f->ev, base, GOLDI_GRANULE, w);
        gran_reset_locked(f->g, f->ts, w, base, 0xff);
    }
    gran_unlock(f->ts, w);
}

/* A FREE (goldi_sink.on_free_fast): its whole granules checked and started
 * afresh in one pass over their shadow (free_granule_fused), where the
 * dispatcher's pieces and then on_event's reset made two, each taking
 * every granule's lock (128 MiB four other threads wrote: 1.10 -> 0.32 s,
 * docs/performance.md round 51); on_event resets only the partial
 * granules at either end, which are checked here as pieces. */
static void gls_on_free_fast(void *self, const struct goldi_event *ev) {
    struct gls_engine *g = self;
    struct gls_thr *ts = thr_state(g, ev->thr);
    pend_check(g, ts, ev->thr->tid);
    uintptr_t a, b, hi, lo = ev->addr;
    if (!whole_granules(lo, ev->size, &a, &b, &hi))
        a = b = hi;
    for (uintptr_t p = lo; p < a;) {   /* (one granule's part at most) */
        uintptr_t e = goldi_granule_piece_end(p, a);
        access_piece(g, ts, ev, p, (unsigned)(e - p));
        p = e;
    }
    if (a < b) {
        struct gls_free f = { g, ts, ev };
        goldi_shadow_for_each_granule(g->env.plane, a, b - a, free_granule_fused, &f);
        ts->free_fused = ev;
    }
    if (b < hi)
        access_piece(g, ts, ev, b, (unsigned)(hi - b));
}

/* The runtime's shortcut for a plain access within two granules
 * (goldi_sink.on_access_fast, called only while this engine is the only
 * sink, so no other sink needs the event). Always handles the access. Only
 * tests and tail calls here: a frame for the callees' registers, built
 * before the test, was paid by every access. */
static void gls_on_access_fast(void *self, struct goldi_thr *thr, uintptr_t addr, unsigned size, bool write,
                               uintptr_t pc) {
    struct gls_engine *g = self;
    GOLDI_DCHECK(g->env.plane == fast_plane);
    /* (the size first: a 4-byte access leaves after two compares) */
    if (GOLDI_LIKELY(size == GOLDI_GRANULE && !(addr & (GOLDI_GRANULE - 1)))) {
        if (write)
            access_single_write(g, thr, addr, pc);
        else
            access_single_read(g, thr, addr, pc);
    } else if (size == 2 * GOLDI_GRANULE && !(addr & (GOLDI_GRANULE - 1))) {
        if (write)
            access_pair_write(g, thr, addr, pc);
        else
            access_pair_read(g, thr, addr, pc);
    } else {
        access_fast_part(g, thr, addr, size, write, pc);
    }
}

/* goldi_sink.repeats: the thread's kept accesses, lock-free or not. */
static uint64_t gls_repeats(void *self, const struct goldi_thr *thr) {
    const struct gls_engine *g = self;
    const struct gls_thr *ts = thr->estate[g->env.index];
    return ts ? atomic_load_explicit(&ts->st[GLS_ST_KEPT], memory_order_relaxed) +
                    atomic_load_explicit(&ts->st[GLS_ST_KEPT_FAST], memory_order_relaxed)
              : 0;
}

/* --- update-list GC (docs/goldilocks.md "Bounded memory") ----------------------------------- */

/* Removes e from its granule (ANY compression). Caller holds the granule lock. */
static void drop_entry_locked(struct gls_engine *g, struct gls_entry *e) {
    uintptr_t addr = atomic_load_explicit(&e->addr, memory_order_relaxed);
    goldi_shadow_word_t *w = goldi_shadow_word_if_present(g->env.plane, addr);
    uintptr_t w0 = w ? atomic_load_explicit(&w[0], memory_order_relaxed) : 0;
    if (!w || inl_is(w0) || pack_is(w0))
        return;
    struct gls_entry *buf[GOLDI_GRANULE];
    uint32_t n;
    struct gls_entry **es = gran_entries(w, buf, &n);
    for (uint32_t i = 0; i < n; i++) {
        if (es[i] != e)
            continue;
        gran_remove(w, e);
        entry_free(g, NULL, e);
        return;
    }
}

/* One live entry of the chunk being collected, as seen under its lock. */
struct gls_snap {
    struct gls_entry *e;
    uint64_t seq;               /* e->seq at the snapshot: install only if unchanged */
    uint64_t pos;
    uint32_t gen;
    goldi_tid_t owner;
    uint32_t tok_off, n_tok;    /* initial set in sc->toks; n_tok == 0: {owner} */
    uint32_t uniq;              /* its class of equal (pos, initial set) */
};
/* A class of snapshots with equal (pos, initial set): evaluated once. */
struct gls_uniq {
    uint32_t rep;               /* a snapshot of the class */
    uint32_t out_off, out_n;    /* evaluated set in sc->out */
    uint32_t share;             /* class whose set (and mat) this one shares: itself or an equal one */
    uint64_t stop;              /* where the evaluation ended (new pos) */
    bool any;
    struct gls_mat *mat;        /* the evaluated set, made on first install (shared) */
    uint64_t hash;              /* gls_mat_hash of it */
};
/* GC scratch, guarded by gc_lock, grown on demand, never shrunk. */
struct gls_gc_scratch {
    struct gls_snap *snap;
    uint32_t n_snap, cap_snap;
    struct gls_uniq *uniq;
    uint32_t n_uniq, cap_uniq;
    uint64_t *toks;
    uint32_t n_toks, cap_toks;
    uint64_t *out;
    uint32_t n_out, cap_out;
    uint32_t *ht;               /* dedup hash table: uniq index + 1, 0 = empty */
    uint32_t cap_ht;
    uint32_t *ord;              /* classes being evaluated (sorted by pos: bit k of a wide row is class ord[k]) */
    uint32_t cap_ord;
    uint32_t *tmp;              /* the {owner} classes while ord is the wide walk's */
    uint32_t cap_tmp;
    uint64_t *key;              /* per class: its pos (sort key) */
    uint32_t cap_key;
    goldi_tid_t *own;           /* owners of the {owner} classes (column k of an owned row) */
    uint32_t cap_own;
    uint64_t *pv, *pt;          /* owned walk: threshold and token of one owner's tokens */
    uint32_t *pi;               /* their indices, by threshold ascending */
    uint32_t cap_pv, cap_pt, cap_pi;
    uint32_t *oix;              /* per {owner} class: index of its owner in own */
    uint32_t cap_oix;
    uint32_t *start;            /* owned walk: first class of each owner in tmp (n_own + 1) */
    uint32_t cap_start;
    uint64_t *rows;             /* wide walk: one row of w words per token (map value = row + 1) */
    uint32_t n_rows, cap_rows;  /* in words */
    uint32_t *cnt;              /* per class: tokens in its evaluated set */
    uint32_t cap_cnt;
    struct gls_ref *refs;       /* registries of the chunks being collected */
    uint32_t n_refs, cap_refs;
    uint32_t n_grans;           /* granules this run visited (gc_granule) */
    struct gls_parked {         /* p blocked joining u (gc_parked) */
        goldi_tid_t p, u;
        uint64_t quiet;         /* p's epoch_pos, read after its mark: no cell of p's conditions from it on */
    } parked[64];
    uint32_t n_parked;
};

/* Bytes of the GC's scratch arrays (stats): they keep the size of the
 * largest run. */
static uint64_t scratch_bytes(const struct gls_gc_scratch *sc) {
    return (uint64_t)sc->cap_snap * sizeof *sc->snap + (uint64_t)sc->cap_uniq * sizeof *sc->uniq +
           8 * ((uint64_t)sc->cap_toks + sc->cap_out + sc->cap_key + sc->cap_pv + sc->cap_pt + sc->cap_rows) +
           4 * ((uint64_t)sc->cap_ht + sc->cap_ord + sc->cap_tmp + sc->cap_pi + sc->cap_oix + sc->cap_start +
                sc->cap_cnt) +
           (uint64_t)sc->cap_own * sizeof *sc->own + (uint64_t)sc->cap_refs * sizeof *sc->refs;
}

static bool tok_in(const uint64_t *tok, uint32_t n, uint64_t t) {
    for (uint32_t i = 0; i < n; i++)
        if (tok[i] == t)
            return true;
    return false;
}

/* Does the evaluated set tok[0..n) hold every live thread (ANY)? Then no
 * later access can race with the entry: live threads are in it (thread
 * tokens are never removed) and a thread forked later is forked by a thread
 * in it. Threads become live before their FORK cell is appended, so a child
 * forked before the evaluation point is counted even if the set lacks it.
 * A live thread p blocked joining u (sc->parked, read after the walk) counts as
 * held if u is in the set, or is itself counted so: p runs no code before
 * its JOIN cell "u => p" (rt/intercept/thread.c says when the runtime marks
 * a join), and that cell adds p to every set holding u, since thread tokens
 * never leave a set. So a main thread waiting for its workers no longer
 * keeps every entry of theirs alive (and re-materialised by every GC). */
static bool set_is_any(struct gls_engine *g, const struct gls_gc_scratch *sc, const uint64_t *tok, uint32_t n) {
    if (atomic_load(&g->thr_overflow))
        return false;
    uint64_t in = 0;
    for (uint32_t i = 0; i < n; i++)
        if (gls_tok_kind(tok[i]) == GLS_TK_THREAD && thr_is_live(g, (goldi_tid_t)gls_tok_value(tok[i])))
            in++;
    uint64_t live = atomic_load(&g->n_live);
    if (in == 0 || in == live)
        return in != 0;
    uint64_t counted = 0;   /* parked[k] held, directly or through the chain */
    for (bool grew = true; grew && in < live;) {
        grew = false;
        for (uint32_t k = 0; k < sc->n_parked; k++) {
            if (counted >> k & 1)
                continue;
            goldi_tid_t u = sc->parked[k].u;
            bool held = tok_in(tok, n, gls_tok(GLS_TK_THREAD, u));
            for (uint32_t j = 0; !held && j < sc->n_parked; j++)
                held = (counted >> j & 1) && sc->parked[j].p == u;
            if (!held)
                continue;
            counted |= UINT64_C(1) << k;
            grew = true;
            if (!tok_in(tok, n, gls_tok(GLS_TK_THREAD, sc->parked[k].p)))
                in++;
        }
    }
    return in == live;
}

/* The live threads blocked in pthread_join now (at most 64: the rest are
 * simply not counted), for set_is_any and gc_frozen. A thread's epoch_pos
 * is read after its mark (which it sets after its last own cell, seq_cst),
 * so it covers every cell the thread appended before it parked. */
static void gc_parked(struct gls_engine *g, struct gls_gc_scratch *sc) {
    sc->n_parked = 0;
    goldi_spin_lock(&g->thr_lock);
    for (struct gls_thr *s = g->thrs; s && sc->n_parked < GOLDI_ARRAY_SIZE(sc->parked); s = s->next) {
        uint32_t j = atomic_load(&s->thr->joining);
        /* (a release cell deferred: another thread may append it, a cell
         * of s's conditions after s parked) */
        if (j && thr_is_live(g, s->thr->tid) && RELAXED(s->epoch_pos) != GLS_POS_PENDING)
            sc->parked[sc->n_parked++] =
                (struct gls_parked){ s->thr->tid, (goldi_tid_t)(j - 1), RELAXED(s->epoch_pos) };
    }
    goldi_spin_unlock(&g->thr_lock);
}

/* Is the set of snapshot s (its initial set, from its pos) the same at
 * every later point up to the tail the caller read before gc_parked? It is
 * when every token in it is the thread token of a thread parked in a join
 * that has appended no cell of its own conditions since pos. A set changes
 * only by a cell whose condition is in it (stores target sync tokens, never
 * thread tokens), and a cell conditioned on thread token u is u's own (u's
 * epoch ends there: gls_thr.epoch_pos) or the JOIN cell of u's joiner after
 * u has exited, which a parked u has not. A parked thread appends nothing
 * until its mark is cleared, which comes after the caller's look at it,
 * itself after the tail was read: its next cell is at the tail or later.
 * Such sets need no walk: the main thread's entries from after it started
 * its workers, while it waits to join them, were walked from their pos to
 * the tail by every other collection. */
static bool gc_frozen(const struct gls_gc_scratch *sc, const struct gls_snap *s) {
    for (uint32_t i = 0; i < (s->n_tok ? s->n_tok : 1); i++) {
        uint64_t tok = s->n_tok ? sc->toks[s->tok_off + i] : gls_tok(GLS_TK_THREAD, s->owner);
        if (gls_tok_kind(tok) != GLS_TK_THREAD)
            return false;
        bool quiet = false;
        for (uint32_t k = 0; k < sc->n_parked && !quiet; k++)
            quiet = sc->parked[k].p == (goldi_tid_t)gls_tok_value(tok) && sc->parked[k].quiet <= s->pos;
        if (!quiet)
            return false;
    }
    return true;
}

static void *grow(void *p, uint32_t *cap, uint32_t need, size_t elem) {
    if (need <= *cap)
        return p;
    uint32_t n = *cap ? *cap : 64;
    while (n < need)
        n *= 2;
    *cap = n;
    return goldi_realloc(p, elem * n);
}

static uint64_t snap_hash(const struct gls_gc_scratch *sc, const struct gls_snap *s) {
    uint64_t h = s->pos * 0x9E3779B97F4A7C15ull ^ s->owner;
    for (uint32_t i = 0; i < s->n_tok; i++)
        h = (h ^ sc->toks[s->tok_off + i]) * 0xff51afd7ed558ccdull;
    return h ^ (h >> 29);
}

static bool snap_same(const struct gls_gc_scratch *sc, const struct gls_snap *a, const struct gls_snap *b) {
    if (a->pos != b->pos || a->n_tok != b->n_tok)
        return false;
    if (!a->n_tok)
        return a->owner == b->owner;
    for (uint32_t i = 0; i < a->n_tok; i++)
        if (sc->toks[a->tok_off + i] != sc->toks[b->tok_off + i])
            return false;
    return true;
}

#define GC_AHEAD 8   /* entries prefetched ahead of the GC's sweeps */

/* e's seq, once no owner's lock-free attempt holds its low bit. Under the
 * lock, an attempt can still hold it where gran_wait_atomic_owners did not
 * look (another holder changed word 0 in between): such an attempt backs
 * off at once and leaves seq as it was, so the snapshot's seq must not
 * read the bit (an install would find seq changed and leave e where it is,
 * registered in a chunk being freed). */
static uint64_t entry_seq(const struct gls_entry *e) {
    uint64_t seq;
    for (unsigned spins = 0; (seq = atomic_load_explicit(&e->seq, memory_order_seq_cst)) & 1;)
        goldi_spin_backoff(&spins);
    return seq;
}

/* Adds live entry e (generation gen) to the snapshot; caller holds its granule lock. */
static void snap_entry_locked(struct gls_gc_scratch *sc, struct gls_entry *e, uint32_t gen) {
    sc->snap = grow(sc->snap, &sc->cap_snap, sc->n_snap + 1, sizeof *sc->snap);
    struct gls_snap *s = &sc->snap[sc->n_snap++];
    s->e = e;
    s->gen = gen;
    s->seq = entry_seq(e);
    s->pos = atomic_load_explicit(&e->pos, memory_order_relaxed);
    s->owner = e->owner;
    s->tok_off = sc->n_toks;
    s->n_tok = e->mat ? e->mat->n : 0;
    if (s->n_tok) {
        sc->toks = grow(sc->toks, &sc->cap_toks, sc->n_toks + s->n_tok, sizeof *sc->toks);
        goldi_memcpy(&sc->toks[sc->n_toks], e->mat->tok, sizeof(uint64_t) * s->n_tok);
        sc->n_toks += s->n_tok;
    }
}

/* Snapshots the entry of ref r if it is live and its pos is in chunks [c0, c1). */
static void snap_ref(struct gls_engine *g, const struct gls_ref *r, uint64_t c0, uint64_t c1) {
    struct gls_entry *e = r->e;
    uintptr_t addr = atomic_load_explicit(&e->addr, memory_order_relaxed);
    if (atomic_load_explicit(&e->gen, memory_order_acquire) != r->gen)
        return;
    goldi_shadow_word_t *w = goldi_shadow_word_if_present(g->env.plane, addr);
    if (!w)
        return;   /* (a stale addr: e was freed and re-used meanwhile) */
    gc_gran_lock(w);
    /* gen unchanged => e was not freed, so addr named the right granule */
    uint64_t c = atomic_load_explicit(&e->pos, memory_order_relaxed) >> GLS_CHUNK_BITS;
    if (atomic_load_explicit(&e->gen, memory_order_acquire) == r->gen && c >= c0 && c < c1)
        snap_entry_locked(g->gc_scratch, e, r->gen);
    gc_gran_unlock(w);
}

/* Step 1: snapshot every live entry registered in chunks [c0, c1), one granule lock at a time. */
static void gc_snapshot(struct gls_engine *g, uint64_t c0, uint64_t c1, const struct gls_ref *refs,
                        uint32_t n_refs) {
    struct gls_gc_scratch *sc = g->gc_scratch;
    sc->n_snap = sc->n_toks = 0;
    for (uint32_t i = 0; i < n_refs; i++) {
        /* Registered entries are cold (idle ones are touched only by the GC):
         * start the miss of one a few refs ahead. */
        if (i + GC_AHEAD < n_refs && !gls_ref_is_granule(&refs[i + GC_AHEAD]))
            __builtin_prefetch(refs[i + GC_AHEAD].e);
        if (!gls_ref_is_granule(&refs[i]))   /* (gc_granules turned what it needs into entry refs) */
            snap_ref(g, &refs[i], c0, c1);
    }
}

/* Step 2: group equal (pos, initial set): such entries have equal sets at
 * every later point, so each class is walked once (entries moved by one GC
 * run share their new pos, so classes stay few). */
static void gc_dedup(struct gls_gc_scratch *sc) {
    uint32_t cap = 16;
    while (cap < sc->n_snap * 2)
        cap *= 2;
    if (cap > sc->cap_ht) {
        goldi_free(sc->ht);
        sc->ht = goldi_alloc(sizeof *sc->ht * cap);
        sc->cap_ht = cap;
    }
    cap = sc->cap_ht;
    goldi_memset(sc->ht, 0, sizeof *sc->ht * cap);
    sc->n_uniq = 0;
    for (uint32_t i = 0; i < sc->n_snap; i++) {
        struct gls_snap *s = &sc->snap[i];
        for (uint32_t h = (uint32_t)snap_hash(sc, s) & (cap - 1);; h = (h + 1) & (cap - 1)) {
            if (!sc->ht[h]) {
                sc->uniq = grow(sc->uniq, &sc->cap_uniq, sc->n_uniq + 1, sizeof *sc->uniq);
                sc->uniq[sc->n_uniq].rep = i;
                sc->uniq[sc->n_uniq].mat = NULL;
                s->uniq = sc->n_uniq++;
                sc->ht[h] = s->uniq + 1;
                break;
            }
            uint32_t u = sc->ht[h] - 1;
            if (snap_same(sc, &sc->snap[sc->uniq[u].rep], s)) {
                s->uniq = u;
                break;
            }
        }
    }
}

/* Step 3: evaluate every class from its pos up to the tail. Both evaluations
 * below read the list with one cursor, which stops at the first unwritten
 * cell (never skips one: the result must be exact up to the new pos). */
struct gc_cursor {
    struct gls_list *l;
    uint64_t id, end;
    struct gls_cell *cells;      /* chunk of id; NULL: look it up */
};

GOLDI_INLINE struct gls_cell *gc_cell(struct gc_cursor *c) {
    if (c->id >= c->end)
        return NULL;
    if (!c->cells || (c->id & (GLS_CHUNK - 1)) == 0) {
        struct gls_slot *sl = gls_list_peek(c->l, c->id >> GLS_CHUNK_BITS);
        if (!sl)
            return NULL;
        c->cells = atomic_load_explicit(&sl->cells, memory_order_acquire);
    }
    struct gls_cell *cell = &c->cells[c->id & (GLS_CHUNK - 1)];
    return atomic_load_explicit(&cell->a, memory_order_acquire) ? cell : NULL;
}

/* The walks' per-cell helpers are inline: a walk visits a cell for about
 * every cell appended, and calls cost more than the work. */
GOLDI_INLINE uint64_t *row_at(struct gls_gc_scratch *sc, uint64_t r, uint32_t w) { return &sc->rows[(r - 1) * w]; }

static GOLDI_NOINLINE uint64_t row_new(struct gls_gc_scratch *sc, uint32_t w) {
    sc->rows = grow(sc->rows, &sc->cap_rows, sc->n_rows + w, sizeof *sc->rows);
    goldi_memset(&sc->rows[sc->n_rows], 0, sizeof(uint64_t) * w);
    sc->n_rows += w;
    return sc->n_rows / w;   /* row index + 1 */
}

GOLDI_INLINE uint64_t row_get(struct gls_map *m, struct gls_gc_scratch *sc, uint64_t tok, uint32_t w) {
    uint64_t *slot = gls_map_slot(m, tok);
    if (!*slot)
        *slot = row_new(sc, w);   /* (the rows move, the map does not) */
    return *slot;
}

/* The rows a cell reads and writes (*pa NULL: its condition is in no set);
 * false if the cell changes nothing (an add from a token in no set, a store
 * between two such tokens). Rows may move when one is added, so both are
 * looked up after that. */
GOLDI_INLINE bool gc_cell_rows(struct gls_map *m, struct gls_gc_scratch *sc, struct gls_cell *cell, uint32_t w,
                               uint64_t **pa, uint64_t **pb) {
    uint64_t b = cell->b & ~GLS_OP_STORE;
    uint64_t ra = gls_map_get(m, atomic_load_explicit(&cell->a, memory_order_relaxed));
    if (!ra && (!(cell->b & GLS_OP_STORE) || !gls_map_get(m, b)))
        return false;
    uint64_t rb = row_get(m, sc, b, w);
    *pa = ra ? row_at(sc, ra, w) : NULL;
    *pb = row_at(sc, rb, w);
    return true;
}

/* Shell sorts (no libc here): idx[0..n) by key[idx] ascending; plain values
 * ascending. */
static void sort_by_key(uint32_t *idx, uint32_t n, const uint64_t *key) {
    for (uint32_t gap = n / 2; gap; gap = gap == 2 ? 1 : gap * 5 / 11)
        for (uint32_t i = gap; i < n; i++) {
            uint32_t v = idx[i], j = i;
            for (; j >= gap && key[idx[j - gap]] > key[v]; j -= gap)
                idx[j] = idx[j - gap];
            idx[j] = v;
        }
}

static void sort_u64(uint64_t *a, uint32_t n) {
    for (uint32_t gap = n / 2; gap; gap = gap == 2 ? 1 : gap * 5 / 11)
        for (uint32_t i = gap; i < n; i++) {
            uint64_t v = a[i];
            uint32_t j = i;
            for (; j >= gap && a[j - gap] > v; j -= gap)
                a[j] = a[j - gap];
            a[j] = v;
        }
}

/* How often (in cells) a walk asks whether its classes are all ANY. */
#define GC_ANY_EVERY 4096u

/* Are the sets of every class of a walk ANY already, where the walk is?
 * A set only gains thread tokens further on (they are never removed), so
 * ANY here is ANY at the tail: the walk may stop, the sets it extracts are
 * exact where it stopped, and gc_install drops every entry. In programs
 * that take locks all the time a worker's entries are ANY a little after
 * the collected chunks (every thread takes some lock the owner released
 * later), and the rest of the walk to the tail was half the cells the GC
 * visited (hashtable). These look at thread tokens only (set_is_any). */
/* Is the set of one class ANY, its thread tokens being those whose row
 * (width w) has, in word k, bit (a wide class) or else a value past above
 * (an owned class's threshold)? */
static bool gc_class_any(struct gls_engine *g, struct gls_gc_scratch *sc, const struct gls_map *m, uint32_t w,
                         uint32_t k, uint64_t bit, uint64_t above) {
    sc->pt = grow(sc->pt, &sc->cap_pt, m->n, sizeof *sc->pt);
    uint32_t nt = 0;
    for (uint32_t i = 0; i < m->n; i++) {
        const struct gls_kv *kv = &m->kv[m->used[i]];
        uint64_t v = row_at(sc, kv->mask, w)[k];
        if (gls_tok_kind(kv->key) == GLS_TK_THREAD && (bit ? (v & bit) != 0 : v > above))
            sc->pt[nt++] = kv->key;
    }
    return set_is_any(g, sc, sc->pt, nt);
}

static bool gc_wide_all_any(struct gls_engine *g, struct gls_gc_scratch *sc, const struct gls_map *m, uint32_t n,
                            uint32_t w) {
    if (n > 64)
        return false;   /* (one word a row: a look stays cheap) */
    for (uint32_t k = 0; k < n; k++)
        if (!gc_class_any(g, sc, m, w, 0, UINT64_C(1) << k, 0))
            return false;
    return true;
}

/* The same for the owned walk: per owner its latest class, whose set is the
 * smallest of the owner's (tokens whose threshold is past its pos). */
static bool gc_owned_all_any(struct gls_engine *g, struct gls_gc_scratch *sc, const struct gls_map *m,
                             uint32_t n_own, uint32_t w) {
    for (uint32_t k = 0; k < n_own; k++)
        if (!gc_class_any(g, sc, m, w, k, 0, sc->key[sc->tmp[sc->start[k + 1] - 1]]))
            return false;
    return true;
}

/* (a) Any classes, in ONE walk with rows of w = ceil(classes/64) words per
 * token (the 64-bit walk generalised): bit k of a token's row says "the token
 * is in the set of class ord[k]", and each class enters at its pos. Used for
 * classes with a materialised initial set (few: the entries one GC run moved
 * share their new pos). Classes ord[0..n); their sets go to sc->out. */
static void gc_eval_wide(struct gls_engine *g, uint32_t n, uint64_t c1, uint64_t end) {
    struct gls_gc_scratch *sc = g->gc_scratch;
    struct gls_map *m = &g->gc_map;
    uint32_t w = (n + 63) / 64;
    sc->key = grow(sc->key, &sc->cap_key, sc->n_uniq, sizeof *sc->key);
    for (uint32_t i = 0; i < n; i++)
        sc->key[sc->ord[i]] = sc->snap[sc->uniq[sc->ord[i]].rep].pos;
    sort_by_key(sc->ord, n, sc->key);
#define UPOS(k) (sc->key[sc->ord[k]])
    gls_map_clear(m);
    sc->n_rows = 0;
    uint32_t next = 0;
    uint64_t walked = 0;
    struct gc_cursor cur = { g->list, UPOS(0), end, NULL };
    for (;; cur.id++) {
        for (; next < n && UPOS(next) <= cur.id; next++) {
            const struct gls_snap *s = &sc->snap[sc->uniq[sc->ord[next]].rep];
            uint64_t bit = UINT64_C(1) << (next & 63);
            for (uint32_t k = 0; k < s->n_tok; k++)
                row_at(sc, row_get(m, sc, sc->toks[s->tok_off + k], w), w)[next / 64] |= bit;
            if (!s->n_tok)
                row_at(sc, row_get(m, sc, gls_tok(GLS_TK_THREAD, s->owner), w), w)[next / 64] |= bit;
        }
        if (!(cur.id & (GC_ANY_EVERY - 1)) && cur.id >= c1 << GLS_CHUNK_BITS && gc_wide_all_any(g, sc, m, n, w)) {
            stat(g, 0, GLS_ST_GC_ANY_STOP, 1);
            break;   /* (every class has entered: their pos are in the collected chunks) */
        }
        struct gls_cell *cell = gc_cell(&cur);
        if (!cell)
            break;
        walked++;
        uint64_t *pa, *pb;
        if (!gc_cell_rows(m, sc, cell, w, &pa, &pb))
            continue;
        if (cell->b & GLS_OP_STORE) {
            for (uint32_t k = 0; k < w; k++)
                pb[k] = pa ? pa[k] : 0;
        } else {
            for (uint32_t k = 0; k < w; k++)
                pb[k] |= pa[k];
        }
    }
#undef UPOS
    stat(g, 0, GLS_ST_GC_CELLS, walked);
    /* The collected chunks are fully written, so the walk got past them. */
    GOLDI_CHECK_OP(cur.id, >=, c1 << GLS_CHUNK_BITS);
    /* Extract the sets: count per class, then fill sc->out, then sort each. */
    sc->cnt = grow(sc->cnt, &sc->cap_cnt, n, sizeof *sc->cnt);
    goldi_memset(sc->cnt, 0, sizeof *sc->cnt * n);
    for (uint32_t i = 0; i < m->n; i++) {
        const uint64_t *row = row_at(sc, m->kv[m->used[i]].mask, w);
        for (uint32_t k = 0; k < w; k++)
            for (uint64_t bits = row[k]; bits; bits &= bits - 1)
                sc->cnt[k * 64 + (uint32_t)__builtin_ctzll(bits)]++;
    }
    uint32_t total = sc->n_out;
    for (uint32_t k = 0; k < n; k++) {
        struct gls_uniq *u = &sc->uniq[sc->ord[k]];
        u->out_off = total;
        u->out_n = 0;
        u->stop = cur.id;
        u->share = sc->ord[k];
        total += sc->cnt[k];
    }
    sc->out = grow(sc->out, &sc->cap_out, total, sizeof *sc->out);
    sc->n_out = total;
    for (uint32_t i = 0; i < m->n; i++) {
        const struct gls_kv *kv = &m->kv[m->used[i]];
        const uint64_t *row = row_at(sc, kv->mask, w);
        for (uint32_t k = 0; k < w; k++)
            for (uint64_t bits = row[k]; bits; bits &= bits - 1) {
                struct gls_uniq *u = &sc->uniq[sc->ord[k * 64 + (uint32_t)__builtin_ctzll(bits)]];
                sc->out[u->out_off + u->out_n++] = kv->key;
            }
    }
    for (uint32_t k = 0; k < n; k++)
        sort_u64(&sc->out[sc->uniq[sc->ord[k]].out_off], sc->uniq[sc->ord[k]].out_n);
}

/* (b) Classes whose initial set is {u} (a record that was never collected:
 * the common case, each with the pos of its owner's epoch, so there are as
 * many classes as epochs in the collected chunks). For one owner u the sets
 * {u}@p are nested: {u}@p1 holds {u}@p2 at every later point when p1 <= p2
 * (see gls_oc), so a token is in the set of exactly the starts p up to some
 * threshold. One walk computes, per token and per owner, that threshold
 * V = max { p : token in {u}@p } (+1; 0 = none; GC_INF for u's own token,
 * which is in every set): a cell (a => b) applied at id reaches the sets
 * started at p <= id, so V(b) := max(V(b), V(a)) with V(u) read as id + 1;
 * a store cell b := [a in LS] gives V(b) := V(a). Rows are one word per
 * owner, not one bit per class, and the set of class (p, u) is { token :
 * V_u(token) > p }, shared by every class of u with the same count. Classes
 * sc->ord[0..n), owners sc->own[0..n_own). */
#define GC_INF UINT64_MAX
static void gc_eval_owned(struct gls_engine *g, uint32_t n, uint32_t n_own, uint64_t c1, uint64_t end) {
    struct gls_gc_scratch *sc = g->gc_scratch;
    struct gls_map *m = &g->gc_map;
    uint32_t w = n_own;
    /* classes by (owner index, pos): cnt[class] holds the owner index */
    sc->key = grow(sc->key, &sc->cap_key, sc->n_uniq, sizeof *sc->key);
    uint64_t from = GC_INF;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t pos = sc->snap[sc->uniq[sc->ord[i]].rep].pos;
        sc->key[sc->ord[i]] = pos;
        if (pos < from)
            from = pos;
    }
    sort_by_key(sc->ord, n, sc->key);
    /* then by owner, stably (counting sort): owner k's classes are
     * tmp[start[k] .. start[k+1]) by pos */
    sc->start = grow(sc->start, &sc->cap_start, n_own + 1, sizeof *sc->start);
    goldi_memset(sc->start, 0, sizeof *sc->start * (n_own + 1));
    for (uint32_t i = 0; i < n; i++)
        sc->start[sc->oix[sc->ord[i]] + 1]++;
    for (uint32_t k = 0; k < n_own; k++)
        sc->start[k + 1] += sc->start[k];
    for (uint32_t i = 0; i < n; i++)
        sc->tmp[sc->start[sc->oix[sc->ord[i]]]++] = sc->ord[i];
    for (uint32_t k = n_own; k > 0; k--)
        sc->start[k] = sc->start[k - 1];
    sc->start[0] = 0;
    gls_map_clear(m);
    sc->n_rows = 0;
    for (uint32_t k = 0; k < n_own; k++)
        row_at(sc, row_get(m, sc, gls_tok(GLS_TK_THREAD, sc->own[k]), w), w)[k] = GC_INF;
    uint64_t walked = 0;
    struct gc_cursor cur = { g->list, from, end, NULL };
    for (;; cur.id++) {
        if (!(cur.id & (GC_ANY_EVERY - 1)) && cur.id >= c1 << GLS_CHUNK_BITS &&
            gc_owned_all_any(g, sc, m, n_own, w)) {
            stat(g, 0, GLS_ST_GC_ANY_STOP, 1);
            break;
        }
        struct gls_cell *cell = gc_cell(&cur);
        if (!cell)
            break;
        walked++;
        uint64_t *pa, *pb, here = cur.id + 1;
        if (!gc_cell_rows(m, sc, cell, w, &pa, &pb))
            continue;
        if (cell->b & GLS_OP_STORE) {
            for (uint32_t k = 0; k < w; k++) {
                uint64_t v = pa ? pa[k] : 0;
                pb[k] = v == GC_INF ? here : v;
            }
        } else {
            for (uint32_t k = 0; k < w; k++) {
                uint64_t v = pa[k] == GC_INF ? here : pa[k];
                if (v > pb[k])
                    pb[k] = v;
            }
        }
    }
    stat(g, 0, GLS_ST_GC_CELLS, walked);
    GOLDI_CHECK_OP(cur.id, >=, c1 << GLS_CHUNK_BITS);
    /* Per owner: its tokens by threshold, highest first (HI(l): the l-th
     * highest); its classes from the latest pos down take ever longer
     * prefixes. */
    sc->pv = grow(sc->pv, &sc->cap_pv, m->n, sizeof *sc->pv);
    sc->pt = grow(sc->pt, &sc->cap_pt, m->n, sizeof *sc->pt);
    sc->pi = grow(sc->pi, &sc->cap_pi, m->n, sizeof *sc->pi);
#define HI(l) sc->pi[np - 1 - (l)]
    for (uint32_t k = 0; k < n_own; k++) {
        uint32_t np = 0;
        for (uint32_t i = 0; i < m->n; i++) {
            const struct gls_kv *kv = &m->kv[m->used[i]];
            uint64_t v = row_at(sc, kv->mask, w)[k];
            if (!v)
                continue;
            sc->pv[np] = v;
            sc->pt[np] = kv->key;
            sc->pi[np] = np;
            np++;
        }
        sort_by_key(sc->pi, np, sc->pv);
        uint32_t len = 0, rep = UINT32_MAX;
        for (uint32_t i = sc->start[k + 1]; i-- > sc->start[k];) {
            uint32_t c = sc->tmp[i];
            struct gls_uniq *u = &sc->uniq[c];
            uint64_t pos = sc->key[c];
            uint32_t l = len;
            while (l < np && sc->pv[HI(l)] > pos)
                l++;
            u->stop = cur.id;
            if (rep != UINT32_MAX && l == len) {
                u->share = rep;
                u->out_off = sc->uniq[rep].out_off;
                u->out_n = sc->uniq[rep].out_n;
                continue;
            }
            len = l;
            rep = c;
            u->share = c;
            u->out_off = sc->n_out;
            u->out_n = len;
            sc->out = grow(sc->out, &sc->cap_out, sc->n_out + len, sizeof *sc->out);
            for (uint32_t j = 0; j < len; j++)
                sc->out[sc->n_out + j] = sc->pt[HI(j)];
            sort_u64(&sc->out[sc->n_out], len);
            sc->n_out += len;
        }
    }
#undef HI
}

/* Owners beyond which {u}-classes go to the wide walk (when that is no
 * wider: one bit per class against one word per owner). */
#define GC_OWNED_MAX 256

static void gc_eval(struct gls_engine *g, uint64_t c1, uint64_t end) {
    struct gls_gc_scratch *sc = g->gc_scratch;
    struct gls_map *m = &g->gc_map;
    uint32_t n = sc->n_uniq, nw = 0, no = 0, n_own = 0;
    sc->ord = grow(sc->ord, &sc->cap_ord, n, sizeof *sc->ord);
    sc->tmp = grow(sc->tmp, &sc->cap_tmp, n, sizeof *sc->tmp);
    sc->oix = grow(sc->oix, &sc->cap_oix, n, sizeof *sc->oix);
    gls_map_clear(m);
    sc->n_out = 0;
    gc_parked(g, sc);   /* (after the caller read end: see gc_frozen) */
    for (uint32_t i = 0; i < n; i++) {
        const struct gls_snap *s = &sc->snap[sc->uniq[i].rep];
        if (sc->n_parked && gc_frozen(sc, s)) {   /* its set at end is its initial set */
            struct gls_uniq *u = &sc->uniq[i];
            u->share = i;
            u->stop = end;
            u->out_off = sc->n_out;
            u->out_n = s->n_tok ? s->n_tok : 1;
            sc->out = grow(sc->out, &sc->cap_out, sc->n_out + u->out_n, sizeof *sc->out);
            if (s->n_tok)   /* (a mat's tokens are sorted) */
                goldi_memcpy(&sc->out[sc->n_out], &sc->toks[s->tok_off], sizeof *sc->out * s->n_tok);
            else
                sc->out[sc->n_out] = gls_tok(GLS_TK_THREAD, s->owner);
            sc->n_out += u->out_n;
            stat(g, 0, GLS_ST_FROZEN, 1);
            continue;
        }
        if (s->n_tok) {
            sc->ord[nw++] = i;
            continue;
        }
        sc->tmp[no++] = i;
        uint64_t *slot = gls_map_slot(m, s->owner + UINT64_C(1));   /* owner -> its index + 1 */
        if (!*slot) {
            *slot = n_own + 1;
            sc->own = grow(sc->own, &sc->cap_own, n_own + 1, sizeof *sc->own);
            sc->own[n_own++] = s->owner;
        }
        sc->oix[i] = (uint32_t)(*slot - 1);
    }
    bool owned = no && (n_own <= GC_OWNED_MAX || (uint64_t)n_own * 64 <= no);
    if (!owned) {
        for (uint32_t i = 0; i < no; i++)
            sc->ord[nw++] = sc->tmp[i];
        no = 0;
    }
    if (nw)
        gc_eval_wide(g, nw, c1, end);
    if (no) {   /* tmp becomes the owned walk's output order */
        goldi_memcpy(sc->ord, sc->tmp, sizeof *sc->ord * no);
        gc_eval_owned(g, no, n_own, c1, end);
    }
    gc_parked(g, sc);
    for (uint32_t k = 0; k < n; k++) {
        struct gls_uniq *u = &sc->uniq[k];
        if (u->share == k)
            u->any = set_is_any(g, sc, &sc->out[u->out_off], u->out_n);
    }
    for (uint32_t k = 0; k < n; k++)
        sc->uniq[k].any = sc->uniq[sc->uniq[k].share].any;
}

/* Step 4: install the evaluated sets, re-validating each entry under its lock
 * (an entry accessed since the snapshot already moved on by itself). */
static void gc_install(struct gls_engine *g) {
    struct gls_gc_scratch *sc = g->gc_scratch;
    for (uint32_t i = 0; i < sc->n_snap; i++) {
        /* two stages: the entry GC_AHEAD ahead, then the granule lock of the
         * one half as far ahead (whose addr was prefetched by then) */
        if (i + GC_AHEAD < sc->n_snap)
            __builtin_prefetch(sc->snap[i + GC_AHEAD].e, 1);
        if (i + GC_AHEAD / 2 < sc->n_snap) {
            struct gls_entry *half = sc->snap[i + GC_AHEAD / 2].e;
            goldi_shadow_word_t *hw = goldi_shadow_word_if_present(
                g->env.plane, atomic_load_explicit(&half->addr, memory_order_relaxed));
            if (hw)
                __builtin_prefetch(hw, 1);
        }
        struct gls_snap *s = &sc->snap[i];
        struct gls_uniq *u = &sc->uniq[s->uniq];
        struct gls_entry *e = s->e;
        const uint64_t *out = &sc->out[u->out_off];
        u = &sc->uniq[u->share];   /* classes with equal sets share one mat */
        if (!u->any && !u->mat) {
            u->mat = gls_mat_new(out, u->out_n);   /* out is sorted: the copy is too */
            u->hash = u->mat->hash;
        }
        uintptr_t addr = atomic_load_explicit(&e->addr, memory_order_relaxed);
        goldi_shadow_word_t *w = goldi_shadow_word_if_present(g->env.plane, addr);
        if (!w)
            continue;   /* (a stale addr: e was freed and re-used meanwhile) */
        gc_gran_lock(w);
        if (atomic_load_explicit(&e->gen, memory_order_acquire) == s->gen &&
            entry_seq(e) == s->seq) {
            /* gen unchanged: addr is e's granule */
            if (u->any) {
                drop_entry_locked(g, e);
                stat(g, 0, GLS_ST_ANY, 1);
            } else {
                /* an idle entry re-collected with an unchanged set keeps its copy */
                if (!e->mat || (e->mat != u->mat && !gls_mat_same(e->mat, out, u->out_n, u->hash))) {
                    gls_mat_free(e->mat);
                    e->mat = gls_mat_ref(u->mat);
                }
                gls_list_place_at(g->list, e, u->stop);
                stat(g, 0, GLS_ST_MATERIALISED, 1);
            }
        }
        gc_gran_unlock(w);
    }
    for (uint32_t k = 0; k < sc->n_uniq; k++) {
        gls_mat_free(sc->uniq[k].mat);
        sc->uniq[k].mat = NULL;
    }
}

/* Step 0: granule refs of the chunks being collected. An inline record
 * whose pos are all past them is re-registered in the chunk of its oldest
 * pos; one with a pos inside them is expanded into entries, and every entry
 * of such a granule with a pos inside them joins the entry refs (entries
 * expanded by another thread while their chunk was closed are registered
 * nowhere else). An entry listed twice is installed once (seq check). */
static void gc_granule(struct gls_engine *g, struct goldi_shadow_probe *pr, uintptr_t a, uint64_t c0, uint64_t c1);
static void gc_granules(struct gls_engine *g, uint64_t c0, uint64_t c1) {
    struct gls_gc_scratch *sc = g->gc_scratch;
    struct goldi_shadow_probe pr;
    goldi_shadow_probe_init(&pr);
    uint32_t n_refs = sc->n_refs;
    for (uint32_t i = 0; i < n_refs; i++) {
        /* Each run's first shadow line is a miss (the lock word is
         * written): fetched GC_AHEAD refs ahead, the misses overlap. */
        if (i + GC_AHEAD < n_refs && gls_ref_is_granule(&sc->refs[i + GC_AHEAD])) {
            goldi_shadow_word_t *ahead =
                goldi_shadow_word_if_present(g->env.plane, gls_ref_granule(&sc->refs[i + GC_AHEAD]));
            if (ahead)
                __builtin_prefetch(ahead, 1);
        }
        if (!gls_ref_is_granule(&sc->refs[i]))
            continue;
        uintptr_t a = gls_ref_granule(&sc->refs[i]);
        for (uint32_t k = gls_ref_granules(&sc->refs[i]); k > 0; k--, a += GOLDI_GRANULE)
            gc_granule(g, &pr, a, c0, c1);   /* (sc->refs may move: the run was read first) */
    }
}

static void gc_granule(struct gls_engine *g, struct goldi_shadow_probe *pr, uintptr_t a, uint64_t c0, uint64_t c1) {
    struct gls_gc_scratch *sc = g->gc_scratch;
    sc->n_grans++;
    goldi_shadow_word_t *w = goldi_shadow_word_if_kept(pr, g->env.plane, a);
    if (!w)
        return;   /* (or a stale ref to memory that is gone: nothing there, and its lock would bring the page in) */
    gc_gran_lock(w);
    uintptr_t v = inl_lock(g, w, GOLDI_TID_NONE);
    if (v) {
        struct gls_inl f;
        inl_read(w, v, &f);
        uint64_t rc = f.reg - 1, mc = inl_min_pos(&f) >> GLS_CHUNK_BITS;
        if (rc < c0 || rc >= c1 || mc >= c1) {
            if (rc >= c0 && rc < c1) {   /* ours, and still current: move the ref */
                bool ok = gls_list_register_granule(g->list, a, mc, 0);
                GOLDI_CHECK(ok);
                f.reg = mc + 1;
            }
            inl_store(w, &f);
            gc_gran_unlock(w);
            return;
        }
        atomic_store_explicit(&w[0], v, memory_order_release);
        inl_expand(g, NULL, w, a);
    } else if (pack_is(atomic_load_explicit(&w[0], memory_order_relaxed))) {   /* the same for cells */
        uintptr_t w0 = atomic_load_explicit(&w[0], memory_order_relaxed);
        struct gls_cent c[PACK_MAX];
        uint32_t n = pack_read(w, w0, c);
        uint64_t rc = pack_reg(w0) - 1, mc = pack_min_pos(c, n) >> GLS_CHUNK_BITS;
        bool done = rc < c0 || rc >= c1;   /* a stale ref: the granule is registered elsewhere */
        if (!done && mc >= c1) {           /* ours, and still current: move the ref */
            bool ok = gls_list_register_granule(g->list, a, mc, 0);
            GOLDI_CHECK(ok);
            done = pack_store(w, c, n, mc + 1);
        }
        if (done) {
            gc_gran_unlock(w);
            return;
        }
        pack_expand_cells(g, NULL, w, a, c, n);
    }
    struct gls_entry *buf[GOLDI_GRANULE];
    uint32_t n;
    struct gls_entry **es = gran_entries(w, buf, &n);
    for (uint32_t k = 0; k < n; k++) {
        uint64_t c = atomic_load_explicit(&es[k]->pos, memory_order_relaxed) >> GLS_CHUNK_BITS;
        if (c >= c1 && !es[k]->reg_chunk) {   /* expanded, relied on this ref: registers itself now */
            bool ok = gls_list_register(g->list, es[k], c);
            GOLDI_CHECK(ok);
        }
        if (c < c0 || c >= c1)
            continue;
        sc->refs = grow(sc->refs, &sc->cap_refs, sc->n_refs + 1, sizeof *sc->refs);
        sc->refs[sc->n_refs].e = es[k];
        sc->refs[sc->n_refs].gen = atomic_load_explicit(&es[k]->gen, memory_order_relaxed);
        sc->n_refs++;
    }
    gc_gran_unlock(w);
}

/* Moves every live entry registered in chunks [c0, c1) past them. */
static void gc_range(struct gls_engine *g, uint64_t c0, uint64_t c1) {
    struct gls_gc_scratch *sc = g->gc_scratch;
    gc_granules(g, c0, c1);
    gc_snapshot(g, c0, c1, sc->refs, sc->n_refs);
    stat(g, 0, GLS_ST_GC_GRANULES, sc->n_grans);
    stat(g, 0, GLS_ST_GC_SNAPS, sc->n_snap);
    if (!sc->n_snap)
        return;
    gc_dedup(sc);
    gc_eval(g, c1, atomic_load(&g->list->tail));
    gc_install(g);
}

/* When the list holds more than the budget's cells, collect the oldest
 * chunks down to half of it in one run (one walk over at most the budget's
 * cells per half of it appended: amortised O(1) per cell), then set the
 * next budget from the records this run moved (GLS_BUDGET_MIN above). Only
 * fully written chunks are collected. Holds gc_lock (trylock: one GC at a
 * time, nobody waits), and granule locks one at a time. */
static void gc_try(struct gls_engine *g) {
    struct gls_list *l = g->list;
    struct gls_gc_scratch *sc = g->gc_scratch;
    if (!goldi_spin_trylock(&g->gc_lock))
        return;
    uint64_t c0 = atomic_load(&l->oldest), tail = atomic_load(&l->tail);
    uint64_t budget = atomic_load_explicit(&g->budget, memory_order_relaxed);
    if (tail - (c0 << GLS_CHUNK_BITS) > budget) {
        uint64_t c1 = (tail - budget / 2) >> GLS_CHUNK_BITS;
        for (uint64_t c = c0 > g->gc_written ? c0 : g->gc_written; c < c1; c++) {
            struct gls_slot *s = gls_list_peek(l, c);
            if (!s || !gls_list_chunk_written(s)) {
                c1 = c;   /* an append is in flight: collect up to it */
                break;
            }
            g->gc_written = c + 1;
        }
        sc->n_refs = 0;
        uint64_t records = 0;
        for (uint64_t c = c0; c < c1; c++) {
            if (records >= GLS_GC_REFS) {
                c1 = c;   /* the rest at the next chunk's first append */
                break;
            }
            uint32_t from = sc->n_refs;
            sc->n_refs += gls_list_close(l, gls_list_peek(l, c), &sc->refs, &sc->cap_refs, sc->n_refs);
            for (uint32_t i = from; i < sc->n_refs; i++)
                records += gls_ref_is_granule(&sc->refs[i]) ? gls_ref_granules(&sc->refs[i]) : 1;
        }
        if (c1 > c0) {
            sc->n_grans = 0;
            gc_range(g, c0, c1);
            /* (the larger of this run's and the last run's: records a run
             * placed near the tail may wait a run before they are moved again,
             * and a budget that swings makes the list map and unmap chunks) */
            uint64_t moved = (uint64_t)sc->n_grans + sc->n_snap;
            uint64_t next = GLS_BUDGET_FACTOR * (moved > g->gc_moved_last ? moved : g->gc_moved_last);
            g->gc_moved_last = moved;
            next = next < GLS_BUDGET_MIN ? GLS_BUDGET_MIN : next > GLS_BUDGET_MAX ? GLS_BUDGET_MAX : next;
            atomic_store_explicit(&g->budget, next, memory_order_relaxed);
            for (uint64_t c = c0; c < c1; c++)
                gls_list_free_chunk(l, gls_list_peek(l, c), c);
            stat(g, 0, GLS_ST_GC_RUNS, 1);
        }
    }
    goldi_spin_unlock(&g->gc_lock);
}

/* --- ANY sweep (docs/goldilocks.md "Sweeping entries nobody can race with") -------------------
 * The GC above runs when the update list is long. A program with few sync
 * operations (lu: two barrier cells per thread per phase) never gets there,
 * yet its pool can grow without bound: entries of data nobody touches again
 * (lu's pivot rows: the owner's W and three readers' R per granule) stay
 * until the GC collects their chunk. A sweep, asked for when the pool grows
 * past sweep_at (slab_take; set by the last sweep, below), runs at
 * the next sync event: it evaluates every pool entry registered in a live
 * chunk up to the tail and drops those whose set is ANY: no
 * later access can race with them (set_is_any), whatever its pos. Nothing
 * else changes: no chunk is closed or freed, no set is materialised, inline
 * and packed records (no pool memory) are left alone. */
/* 64 Ki entries (4 MiB): lu's pool peaks at ~160 k entries instead of ~300 k
 * (peak RSS 142 -> ~123 MB at -n 1134, 30 sweeps taking 0.26 s of CPU in
 * all); hashtable sweeps once, for nothing, in 36 ms of an 8 s run. */
#define SWEEP_MIN (UINT64_C(1) << 16)   /* pool growth between sweeps, at least */
#define SWEEP_ROUND (1u << 16)          /* entries evaluated per walk (bounds the scratch) */

/* Evaluates the snapshot and drops its ANY entries; returns how many it kept. */
static uint32_t sweep_round(struct gls_engine *g) {
    struct gls_gc_scratch *sc = g->gc_scratch;
    uint32_t kept = 0;
    if (!sc->n_snap)
        return 0;
    gc_dedup(sc);
    gc_eval(g, 0, atomic_load(&g->list->tail));
    for (uint32_t i = 0; i < sc->n_snap; i++) {
        if (i + GC_AHEAD < sc->n_snap)   /* (entries are cold: start the next misses early) */
            __builtin_prefetch(sc->snap[i + GC_AHEAD].e, 1);
        struct gls_snap *s = &sc->snap[i];
        if (!sc->uniq[sc->uniq[s->uniq].share].any) {
            kept++;
            continue;
        }
        struct gls_entry *e = s->e;
        goldi_shadow_word_t *w =
            goldi_shadow_word_if_present(g->env.plane, atomic_load_explicit(&e->addr, memory_order_relaxed));
        if (!w)
            continue;
        gc_gran_lock(w);
        /* unchanged since the snapshot (gen: not freed; seq: same pos and set) */
        if (atomic_load_explicit(&e->gen, memory_order_acquire) == s->gen &&
            entry_seq(e) == s->seq) {
            drop_entry_locked(g, e);
            stat(g, 0, GLS_ST_ANY, 1);
        }
        gc_gran_unlock(w);
    }
    sc->n_snap = sc->n_toks = 0;
    return kept;
}

/* Called at a sync event of any thread (no granule lock held) once asked. */
static void gc_sweep(struct gls_engine *g) {
    struct gls_list *l = g->list;
    struct gls_gc_scratch *sc = g->gc_scratch;
    if (!goldi_spin_trylock(&g->gc_lock))
        return;
    atomic_store(&g->sweep_wanted, false);
    sc->n_snap = sc->n_toks = 0;
    uint64_t kept = 0, seen = 0, c1 = (atomic_load(&l->tail) >> GLS_CHUNK_BITS) + 1;
    if (sc->cap_refs < SWEEP_ROUND) {
        goldi_free(sc->refs);
        sc->refs = goldi_alloc(sizeof *sc->refs * SWEEP_ROUND);
        sc->cap_refs = SWEEP_ROUND;
    }
    for (uint64_t c = atomic_load(&l->oldest); c < c1; c++) {
        for (unsigned k = 0; k < GLS_REG_SHARDS; k++) {
            /* A slice of the shard at a time: one shard can hold every
             * entry of a program that appends few cells (xz's encoder: 4.7 M
             * entries, the whole copy 285 MB of scratch). A ref a push's
             * compaction moves across a slice's bound is seen twice or not
             * at all: a second look finds it changed, and a missed one
             * waits for the next sweep. */
            uint32_t n;
            for (uint32_t from = 0; (n = gls_list_copy_shard_refs(l, c, k, from, SWEEP_ROUND, sc->refs)); from += n)
                for (uint32_t i = 0; i < n; i++) {
                    if (i + GC_AHEAD < n)
                        __builtin_prefetch(sc->refs[i + GC_AHEAD].e);
                    snap_ref(g, &sc->refs[i], c, c + 1);   /* (only where its pos is: once) */
                    if (sc->n_snap >= SWEEP_ROUND) {
                        seen += sc->n_snap;
                        kept += sweep_round(g);
                    }
                }
        }
    }
    seen += sc->n_snap;
    kept += sweep_round(g);
    /* The pool grows (slab_take) only once its free entries are used up, so
     * its size then is about the live entries: sweep again when they are
     * twice those this sweep kept (amortised: each sweep looks at no more
     * entries than were made since the last). A pool already past that
     * mark (it grew while this sweep kept most of what it saw) would ask
     * again at its next slab: a sweep per 256 entries, each looking at all
     * of them (a random-trace unit test swept 300 times, keeping 99 %).
     * After a sweep that kept more than three quarters of what it saw, the
     * next one waits for the pool to grow by a quarter. */
    uint64_t at = 2 * kept + SWEEP_MIN, pool = atomic_load(&g->pool_entries);
    if (4 * kept > 3 * seen && at < pool + pool / 4)
        at = pool + pool / 4;
    atomic_store(&g->sweep_at, at);
    stat(g, 0, GLS_ST_SWEEPS, 1);
    goldi_spin_unlock(&g->gc_lock);
}

/* --- sync events: token rules of ALGORITHMS.md 2.3 -------------------------------------------- */

/* Appends cell (a, b) for thread t. A cell whose condition is t or Frel(t)
 * can grow a fresh set {t}: t's epoch ends there (gls_thr.epoch_pos). Other
 * cells of t (acquires, loads, joins, acquire fences) cannot, so entries of t
 * on both sides of them are the same set, as accesses on both sides of an
 * acquire are ordered before the same later events. */
static void append(struct gls_engine *g, struct gls_thr *ts, goldi_tid_t t, uint64_t a, uint64_t b) {
    uint64_t id = gls_list_append(g->list, a, b);
    if ((gls_tok_kind(a) == GLS_TK_THREAD || gls_tok_kind(a) == GLS_TK_FREL) && gls_tok_value(a) == t)
        ts->epoch_pos = id + 1;
    tstat(ts, GLS_ST_CELLS, 1);
    if ((id & (GLS_CHUNK - 1)) == 0) {
        struct gls_list *l = g->list;
        uint64_t live = id + 1 - (atomic_load(&l->oldest) << GLS_CHUNK_BITS);
        uint64_t peak = atomic_load_explicit(&g->cells_peak, memory_order_relaxed);
        while (live > peak && !atomic_compare_exchange_weak(&g->cells_peak, &peak, live))
            ;
        if (live > atomic_load_explicit(&g->budget, memory_order_relaxed))
            gc_try(g);
    }
}

static uint64_t sync_tok(const struct goldi_token *tok) {
    GOLDI_CHECK_OP(tok->id, <, UINT64_C(1) << 61);
    return gls_tok(GLS_TK_SYNC, tok->id);
}

/* Can some set hold the token? Only a cell that adds it puts it in a set
 * (a set starts as {owner}; the GC's sets are evaluated from cells), so
 * until the first such cell a cell conditioned on the token changes no
 * set: a load of a location no release stored to (a statistics counter
 * bumped with relaxed fetch_add, however often it is read), and a relaxed
 * store's removal of it. The token's slot for this engine holds its id
 * once a cell may have added it (a new life has a new id: unmarked again,
 * and in no set). Every adding cell marks it, a lock's release too (a lock
 * word can also be loaded atomically). Written before the cell is
 * appended, under the object's lock for an atomic location (the section
 * that orders its operations' cells); acquire/release for the rest. The
 * slot may also hold an exclusive lock's run (tok_run below: the id
 * shifted, and a thread), which counts as held; marking ends the run. */
/* Does slot value v say the token may be held (its id, or a run, a
 * deferred release or the readers' bits beside its id)? */
#define TOK_PEND ((uintptr_t)1 << 63)   /* a run's slot value with a deferred release (pend_defer) */
GOLDI_INLINE bool tok_slot_held(const struct goldi_token *tok, uintptr_t v) {
    return v == (uintptr_t)tok->id || (tok->id < (UINT64_C(1) << 47) && (v & ~TOK_PEND) >> 16 == tok->id);
}
static bool tok_may_be_held(const struct gls_engine *g, const struct goldi_token *tok) {
    return tok_slot_held(tok, (uintptr_t)__atomic_load_n(&tok->estate[g->env.index], __ATOMIC_ACQUIRE));
}
static void pend_take(struct gls_engine *g, struct gls_thr *ts, goldi_tid_t t, struct goldi_token *tok);
static void tok_mark_held(struct gls_engine *g, struct gls_thr *ts, goldi_tid_t t, struct goldi_token *tok) {
    pend_take(g, ts, t, tok);
    if ((uintptr_t)__atomic_load_n(&tok->estate[g->env.index], __ATOMIC_ACQUIRE) != (uintptr_t)tok->id)
        __atomic_store_n(&tok->estate[g->env.index], (void *)(uintptr_t)tok->id, __ATOMIC_RELEASE);   /* (ends a run) */
}

/* An exclusive lock's token (a mutex's or spin lock's, also as a condvar
 * wait's mutex, while no atomic operation ever stored to the lock's word:
 * gls_on_event's `excl`): its cells are appended by one holder at a time,
 * in the order of the holds. t's ACQ cell "L => t" changes no set when
 * every cell adding L since t's previous ACQ cell was t's release: a set
 * holding L got it before that cell (which added t) or from t's release
 * (which needs t in the set). So, from t's ACQ cell until another adding
 * cell, the token's slot holds run(t) and t's next acquire appends nothing:
 * a lock taken again by its last holder (multiset's insert, lookup and
 * delete of one key under one bucket lock; a producer's queue lock) costs
 * one cell, not two, on the list every thread appends to. The sets are
 * those of the full list at every point, so nothing else sees the
 * difference. Another thread's release, and any other adding cell
 * (tok_mark_held), ends the run. (Tokens that several threads hold or
 * release at once have none: an rwlock's write side has the readers'
 * bits below, a barrier's tokens keep every cell.) */
GOLDI_INLINE void *tok_run(const struct goldi_token *tok, goldi_tid_t t) {
    return (void *)(uintptr_t)(tok->id << 16 | (t + 1));
}
GOLDI_INLINE bool tok_run_fits(const struct goldi_token *tok, goldi_tid_t t) {
    return tok->id < (UINT64_C(1) << 47) && t + 1 < (1u << 16);
}

/* --- deferred release cells (docs/goldilocks.md "Deferred release cells") ---
 * t's release of an exclusive lock L in t's run (the slot holds run(t))
 * appends no cell at once: the slot says pend(t) (run(t) with TOK_PEND)
 * and t's epoch_pos is GLS_POS_PENDING, the epoch it had kept in
 * pend_epoch. What follows decides:
 *   - t takes L again first (pend_resume): the slot is run(t) again, the
 *     epoch is the kept one and no cell was appended at all. Multiset's
 *     insert, lookup and delete of a key under one bucket lock then cost
 *     one release cell, not three, and the lookup's and delete's reads of
 *     the nodes the insert read are repeats of its epoch (kept records,
 *     nothing written to the shadow lines the other cores read).
 *   - anything else of t (an access, another event: pend_flush, called
 *     first) appends t's cell "t => L" then, and t's later entries start
 *     after it;
 *   - another thread that takes L (or whose step could be ordered by L:
 *     an atomic load of the lock word, a store that marks it) appends t's
 *     cell for it first (pend_take), then its own.
 * Why the sets are those of the eager list: between t's release and the
 * deferred cell, t appended nothing and made no access; no cell
 * conditioned on L was appended (whoever takes L appends t's cell
 * first), so L entering a set at the release or at the later cell makes
 * no difference to any cell in between; the entries t makes after taking
 * L again (at the kept epoch) are evaluated from that epoch exactly as
 * from the release (nothing adds to {t} but t's own cells). And t's next
 * entries after the cell come after it in the list: when another thread
 * appended it, t starts its epoch at the tail it reads once the slot has
 * changed (pend_flush). The cell may be appended twice (by t and by the
 * taker at once): it is idempotent. */
GOLDI_INLINE void *tok_pend(const struct goldi_token *tok, goldi_tid_t t) {
    return (void *)((uintptr_t)tok_run(tok, t) | TOK_PEND);
}

/* t's release of the exclusive lock whose slot holds run(t): deferred,
 * unless t's recent deferrals were rarely resumed (DEFER_WINDOW). */
static bool pend_defer(struct gls_thr *ts, void **slot, const struct goldi_token *tok, goldi_tid_t t) {
    GOLDI_DCHECK(ts->epoch_pos != GLS_POS_PENDING);
    if (GOLDI_UNLIKELY(--ts->defer_window.left == 0))
        goldi_window_next(&ts->defer_window, DEFER_WINDOW, DEFER_SKIP, DEFER_WINDOW / 4);
    if (ts->defer_window.skip)
        return false;
    ts->pend_slot = slot;
    ts->pend_val = (uintptr_t)tok_pend(tok, t);
    ts->pend_epoch = ts->epoch_pos;
    ts->epoch_pos = GLS_POS_PENDING;
    /* (before the real unlock: whoever takes the lock next sees it) */
    __atomic_store_n(slot, (void *)ts->pend_val, __ATOMIC_RELEASE);
    tstat(ts, GLS_ST_REL_DEFERRED, 1);
    return true;
}

/* Appends t's deferred cell (see above), unless a taker of the lock
 * appended it already: then t's entries start at the tail, past that
 * copy, which came before the taker's change of the slot seen here. If a
 * taker comes between t's look and its CAS, the cell is appended twice;
 * t's epoch starts past both. */
static GOLDI_NOINLINE void pend_flush(struct gls_engine *g, struct gls_thr *ts, goldi_tid_t t) {
    void **slot = ts->pend_slot;
    uintptr_t v = ts->pend_val, id = (v & ~TOK_PEND) >> 16;
    ts->epoch_pos = ts->pend_epoch;
    ts->pend_slot = NULL;
    void *want = (void *)v;
    if (__atomic_load_n(slot, __ATOMIC_ACQUIRE) == want) {
        append(g, ts, t, gls_tok(GLS_TK_THREAD, t), gls_tok(GLS_TK_SYNC, id));
        /* (run(t) again, as after an eager release of t's: t's own cell keeps its run) */
        if (__atomic_compare_exchange_n(slot, &want, (void *)(v & ~TOK_PEND), false, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE))
            return;
    }
    uint64_t tail = atomic_load(&g->list->tail);
    if (tail > ts->epoch_pos)
        ts->epoch_pos = tail;
}

/* t takes the lock back with its own deferred cell still in the slot:
 * its run goes on. False if another thread appended the cell meanwhile
 * (an atomic load of the lock word): then t's acquire is an ordinary one. */
static bool pend_resume(struct gls_engine *g, struct gls_thr *ts, goldi_tid_t t, void **slot,
                        const struct goldi_token *tok) {
    void *want = (void *)ts->pend_val;
    if (!__atomic_compare_exchange_n(slot, &want, tok_run(tok, t), false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        pend_flush(g, ts, t);
        return false;
    }
    ts->epoch_pos = ts->pend_epoch;
    ts->pend_slot = NULL;
    ts->defer_window.hits++;
    tstat(ts, GLS_ST_REL_SAVED, 1);
    return true;
}

/* Before a step of t on tok: another thread's deferred release of tok
 * (this life of it) is appended for it, then the slot marked. */
static void pend_take(struct gls_engine *g, struct gls_thr *ts, goldi_tid_t t, struct goldi_token *tok) {
    void **slot = &tok->estate[g->env.index];
    uintptr_t v = (uintptr_t)__atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (GOLDI_LIKELY(!(v & TOK_PEND)) || (v & ~TOK_PEND) >> 16 != tok->id || v == (uintptr_t)tok_pend(tok, t))
        return;
    goldi_tid_t owner = (goldi_tid_t)((v & 0xffff) - 1);
    append(g, ts, t, gls_tok(GLS_TK_THREAD, owner), sync_tok(tok));
    void *want = (void *)v;
    __atomic_compare_exchange_n(slot, &want, (void *)(uintptr_t)tok->id, false, __ATOMIC_RELEASE, __ATOMIC_RELAXED);
    tstat(ts, GLS_ST_REL_FOR_OTHER, 1);
}

/* An rwlock's writer token (tok[0]: acquired by every lock, added by write
 * unlocks only, as read unlocks release tok[1]) is held by several readers
 * at once and has no run; its slot keeps instead the threads that appended
 * an ACQ cell on it since its last adding cell: id << 16 | bit t for threads
 * 0..15 (tok_readers). t's ACQ cell "L => t" changes no set while t's bit
 * is set (every set holding L got it before t's previous ACQ cell, which
 * added t), nor while no cell ever added L (the slot is not L's: no set
 * holds it). A write unlock's tok_mark_held clears the bits before its cell
 * is appended and before the real unlock, so every acquire after it sees
 * them cleared; a thread sets its bit after its own cell, holding the lock.
 * Readers of a striped table then append one cell a lookup instead of two
 * (hashtable: the list's tail is a line every thread moves). */
#define TOK_READERS 16
GOLDI_INLINE bool tok_readers_fit(const struct goldi_token *tok, goldi_tid_t t) {
    return tok->id < (UINT64_C(1) << 47) && t < TOK_READERS;
}

/* The ACQ step of t on an rwlock's tok[0]: appended unless it would change
 * no set (above). */
static void acq_readers(struct gls_engine *g, struct gls_thr *ts, goldi_tid_t t, struct goldi_token *tok) {
    void **slot = &tok->estate[g->env.index];
    uintptr_t id = (uintptr_t)tok->id, v = (uintptr_t)__atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (!tok_slot_held(tok, v) || (v != id && (v >> t & 1))) {
        tstat(ts, GLS_ST_ACQ_SKIPPED, 1);
        return;
    }
    append(g, ts, t, sync_tok(tok), gls_tok(GLS_TK_THREAD, t));
    for (;;) {   /* (other readers set theirs at once) */
        uintptr_t nv = (v == id ? id << 16 : v) | (uintptr_t)1 << t;
        if (__atomic_compare_exchange_n(slot, (void **)&v, (void *)nv, false, __ATOMIC_RELEASE, __ATOMIC_ACQUIRE) ||
            !tok_slot_held(tok, v))
            return;
    }
}

/* An atomic location's stores (kind ATOMIC: no lock event ever added its
 * token) all come counted, before they are performed, under the
 * location's section (goldi_sync.n_writes), and that section orders the
 * location's cells: `before` is the count of stores ahead of the operation
 * a step belongs to (0: not counted, no memo). t's acquire load appends
 * nothing when t's memo says it acquired after the before-th store already
 * (t's ACQ cell then, or t's own store or RMW since): every cell adding A
 * since then was t's own, which adds A only to sets holding t, or Frel(t),
 * which only sets holding t get. A consumer draining a burst reads an
 * unchanged tail after each of its own releases of head; a thread's RMWs
 * on a counter nobody else stored to meanwhile append their write halves
 * only. A relaxed store by another thread (only ever a removal) and a CAS
 * that failed and took its count back are counted conservatively or not
 * at all. The memo is the thread's own: nothing shared is written. */
struct gls_loc {
    uint64_t before;
};
GOLDI_INLINE struct gls_acq_memo *acq_memo_of(struct gls_thr *ts, uint64_t id) {
    return &ts->acq_memo[(id * 0x9E3779B97F4A7C15ull) >> (64 - 4)];
}
_Static_assert(GLS_ACQ_MEMO == 16, "acq_memo_of hashes to 4 bits");

static void acq_atomic(struct gls_engine *g, struct gls_thr *ts, goldi_tid_t t, const struct goldi_token *tok,
                       uint64_t before) {
    if (!tok_may_be_held(g, tok))
        return;
    struct gls_acq_memo *m = acq_memo_of(ts, tok->id);
    if (m->id == tok->id && m->writes == before) {
        tstat(ts, GLS_ST_ACQ_SKIPPED, 1);
        return;
    }
    append(g, ts, t, sync_tok(tok), gls_tok(GLS_TK_THREAD, t));
    m->id = tok->id;
    m->writes = before;
}

/* t's own store (or RMW write half) after `before` others: t stays up to
 * date if it was (acq_atomic). */
GOLDI_INLINE void acq_memo_own_store(struct gls_thr *ts, const struct goldi_token *tok, uint64_t before) {
    struct gls_acq_memo *m = acq_memo_of(ts, tok->id);
    if (m->id == tok->id && m->writes == before)
        m->writes = before + 1;
}

GOLDI_INLINE void do_step(struct gls_engine *g, struct gls_thr *ts, goldi_tid_t t, const struct goldi_hb_step *s,
                          bool excl, bool defer, const struct goldi_token *readers, const struct gls_loc *loc) {
    uint64_t tt = gls_tok(GLS_TK_THREAD, t);
    void **slot = excl ? &s->tok->estate[g->env.index] : NULL;   /* (lock steps have a token) */
    switch ((enum goldi_hb_op)s->op) {
    case GOLDI_HB_ACQ:              /* sink: o in LS => add t (an exclusive lock's run: none) */
        if (excl && tok_run_fits(s->tok, t)) {
            void *v = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
            if (v == tok_run(s->tok, t) || (v == tok_pend(s->tok, t) && slot == ts->pend_slot &&
                                            pend_resume(g, ts, t, slot, s->tok))) {
                tstat(ts, GLS_ST_ACQ_SKIPPED, 1);
                break;
            }
            if ((uintptr_t)v & TOK_PEND)
                pend_take(g, ts, t, s->tok);
            append(g, ts, t, sync_tok(s->tok), tt);
            __atomic_store_n(slot, tok_run(s->tok, t), __ATOMIC_RELEASE);
            break;
        }
        pend_take(g, ts, t, s->tok);
        if (s->tok == readers && tok_readers_fit(s->tok, t)) {
            acq_readers(g, ts, t, s->tok);
            break;
        }
        append(g, ts, t, sync_tok(s->tok), tt);
        break;
    case GOLDI_HB_REL_STORE:        /* source: t in LS => add o */
        if (defer && __atomic_load_n(slot, __ATOMIC_ACQUIRE) == tok_run(s->tok, t) && pend_defer(ts, slot, s->tok, t))
            break;
        /* fall through */
    case GOLDI_HB_REL_JOIN:
        if (!excl || __atomic_load_n(slot, __ATOMIC_ACQUIRE) != tok_run(s->tok, t))
            tok_mark_held(g, ts, t, s->tok);   /* (t's own release keeps t's run) */
        append(g, ts, t, tt, sync_tok(s->tok));
        break;
    case GOLDI_HB_FORK:             /* t in LS => add child */
        append(g, ts, t, tt, gls_tok(GLS_TK_THREAD, s->other->tid));
        break;
    case GOLDI_HB_JOIN:             /* child in LS => add t */
        append(g, ts, t, gls_tok(GLS_TK_THREAD, s->other->tid), tt);
        break;
    case GOLDI_HB_EXIT:             /* X_t := C_t: the thread token stays */
        break;
    case GOLDI_HB_ATOMIC_LOAD:      /* A in LS => add (acquire ? t : Facq(t)) */
        pend_take(g, ts, t, s->tok);   /* (the word of a lock: its deferred release first) */
        if (s->strong && loc)
            acq_atomic(g, ts, t, s->tok, loc->before);
        else if (tok_may_be_held(g, s->tok))
            append(g, ts, t, sync_tok(s->tok), s->strong ? tt : gls_tok(GLS_TK_FACQ, t));
        break;
    case GOLDI_HB_ATOMIC_STORE:     /* (release ? t : Frel(t)) in LS ? add A : remove A */
        if (loc)
            acq_memo_own_store(ts, s->tok, loc->before);
        /* Before t's first release fence a relaxed store only removes A
         * (no set holds Frel(t), see below): nothing to remove from no set.
         * (A lock word's deferred release goes first: tok_mark_held, or
         * pend_take before a removal.) */
        if (s->strong || ts->rel_fenced)
            tok_mark_held(g, ts, t, s->tok);
        else if (!tok_may_be_held(g, s->tok))
            break;
        else
            pend_take(g, ts, t, s->tok);
        append(g, ts, t, s->strong ? tt : gls_tok(GLS_TK_FREL, t), sync_tok(s->tok) | GLS_OP_STORE);
        break;
    case GOLDI_HB_ATOMIC_RMW:       /* write half: (release ? t : Frel(t)) in LS => add A */
        if (loc)
            acq_memo_own_store(ts, s->tok, loc->before);
        /* Frel(t) enters sets only through t's release fences: before the
         * first, no set holds it and a relaxed RMW's write half changes no
         * set (unlike a relaxed store, which removes A). A counter bumped
         * with relaxed fetch_add then costs one cell, not two. */
        if (!s->strong && !ts->rel_fenced)
            break;
        tok_mark_held(g, ts, t, s->tok);
        append(g, ts, t, s->strong ? tt : gls_tok(GLS_TK_FREL, t), sync_tok(s->tok));
        break;
    case GOLDI_HB_FENCE_ACQ:        /* Facq(t) in LS => add t */
        append(g, ts, t, gls_tok(GLS_TK_FACQ, t), tt);
        break;
    case GOLDI_HB_FENCE_REL:        /* t in LS => add Frel(t) (Frel_t := C_t only grows) */
        ts->rel_fenced = true;
        append(g, ts, t, tt, gls_tok(GLS_TK_FREL, t));
        break;
    }
}

static void gls_on_event(void *self, const struct goldi_event *ev) {
    struct gls_engine *g = self;
    struct goldi_thr *thr = ev->thr;
    struct gls_thr *ts = thr_state(g, thr);
    if (ev->kind != GOLDI_EV_READ && ev->kind != GOLDI_EV_WRITE)   /* (accesses ordered after it find no lease) */
        gls_lease_release_all(&g->leases, &ts->lease);
    /* The child is live before its FORK cell exists (see set_is_any). */
    if (ev->kind == GOLDI_EV_FORK && ev->other)
        thr_mark_live(g, ev->other->tid);
    struct goldi_hb_step steps[GOLDI_HB_MAX_STEPS];
    int n = goldi_event_hb_steps(ev, steps);
    /* The steps are an exclusive lock's (do_step's tok_run): a mutex or spin
     * lock whose word no atomic operation stored to (n_writes counts such
     * operations before their cells, and a successful one for good; a user
     * lock built on atomics keeps every cell). */
    const struct goldi_sync *lk = ev->kind == GOLDI_EV_LOCK_ACQ || ev->kind == GOLDI_EV_LOCK_REL ? ev->obj
                                  : ev->kind == GOLDI_EV_WAIT_ENTER || ev->kind == GOLDI_EV_WAIT_EXIT ? ev->obj2
                                                                                                     : NULL;
    bool excl = lk && (lk->kind == GOLDI_SYNC_MUTEX || lk->kind == GOLDI_SYNC_SPIN) &&
                !atomic_load_explicit(&lk->n_writes, memory_order_acquire);
    const struct goldi_token *readers = ev->kind == GOLDI_EV_LOCK_ACQ && ev->obj->kind == GOLDI_SYNC_RWLOCK
                                            ? &ev->obj->tok[0] : NULL;
    /* A plain unlock in t's run defers its cell; t's deferred cell goes
     * first unless this is the retake of its lock (pend_defer). */
    bool defer = excl && ev->kind == GOLDI_EV_LOCK_REL && n == 1;
    if (GOLDI_UNLIKELY(ts->epoch_pos == GLS_POS_PENDING) &&
        !(excl && ev->kind == GOLDI_EV_LOCK_ACQ && n == 1 && &steps[0].tok->estate[g->env.index] == ts->pend_slot))
        pend_flush(g, ts, thr->tid);
    for (int i = 0; i < n; i++)   /* (no memo: an ATOMIC_READ_SYNC does not say whether its operation stored) */
        do_step(g, ts, thr->tid, &steps[i], excl, defer, readers, NULL);
    if (ev->kind == GOLDI_EV_FORK && ev->other)
        bar_note_fork(g, thr->tid, ev->other->tid, ts->epoch_pos);
    else if (ev->kind == GOLDI_EV_BAR_ARRIVE && n == 1)
        bar_arrive(g, ts, thr->tid, steps[0].tok->id, ev->obj->bar_count);
    else if (ev->kind == GOLDI_EV_BAR_DEPART && n == 1)
        bar_depart(g, ts, steps[0].tok->id);
    if ((ev->kind == GOLDI_EV_ALLOC || ev->kind == GOLDI_EV_FREE) && ev->size) {
        bool whole_done = ev->kind == GOLDI_EV_FREE && ts->free_fused == ev;
        ts->free_fused = NULL;
        reset_range(g, ts, ev->addr, ev->size, whole_done);
    }
    if (ev->kind == GOLDI_EV_EXIT)
        thr_mark_dead(g, thr->tid);
    if (GOLDI_UNLIKELY(atomic_load_explicit(&g->sweep_wanted, memory_order_relaxed)) &&
        ev->kind != GOLDI_EV_READ && ev->kind != GOLDI_EV_WRITE)
        gc_sweep(g);
}

/* access_piece for a piece of an atomic operation (ev: ATOMIC_LOAD,
 * _STORE, _RMW or _CASFAIL): atomic_record_settled first, without
 * access_locked's set-up (a ring's index, a shared counter: lockfree's
 * eight atomic operations a message), else access_locked. */
GOLDI_INLINE void atomic_piece(struct gls_engine *g, struct gls_thr *ts, const struct goldi_event *ev, uintptr_t addr,
                               unsigned size) {
    uintptr_t base = addr & ~(uintptr_t)(GOLDI_GRANULE - 1);
    goldi_shadow_word_t *w = goldi_shadow_word(g->env.plane, base);
    if (!w)
        return;
    struct gls_access x = { .g = g, .thr = ev->thr, .ts = ts, .ev = ev, .t = ev->thr->tid, .base = base,
                            .write = ev->kind == GOLDI_EV_ATOMIC_STORE || ev->kind == GOLDI_EV_ATOMIC_RMW,
                            .atomic = true };
    uint8_t piece = byte_mask(addr, addr + size);
    if (atomic_record_lockfree(g, &x, w, piece)) {
        tstat(ts, GLS_ST_ACCESSES, 1);
        tstat(ts, GLS_ST_ATOMIC_LOCKFREE, 1);
        return;
    }
    gran_lock(g, ts, w);
    if (atomic_record_settled(&x, w, piece))
        tstat(ts, GLS_ST_ACCESSES, 1);
    else
        access_locked(g, ts, ev, addr, size, w);
    gran_unlock(ts, w);
}

/* The dispatcher's deliveries for an atomic operation (the read half's
 * ATOMIC_READ_SYNC, the access pieces, the event), made in one call when
 * this engine is the only sink: the thread's state found once, the steps
 * run without events built for them. */
static void gls_on_atomic(void *self, const struct goldi_event *ev, bool own_store) {
    struct gls_engine *g = self;
    struct gls_thr *ts = thr_state(g, ev->thr);
    gls_lease_release_all(&g->leases, &ts->lease);
    goldi_tid_t t = ev->thr->tid;
    pend_check(g, ts, t);
    const struct goldi_sync *o = ev->obj;
    uint64_t writes = o->kind == GOLDI_SYNC_ATOMIC ? atomic_load_explicit(&o->n_writes, memory_order_relaxed) : 0;
    bool stores = ev->kind == GOLDI_EV_ATOMIC_STORE || ev->kind == GOLDI_EV_ATOMIC_RMW;
    struct gls_loc loc = { .before = writes - stores };
    const struct gls_loc *counted = writes ? &loc : NULL;
    struct goldi_hb_step steps[GOLDI_HB_MAX_STEPS];
    if (ev->kind != GOLDI_EV_ATOMIC_STORE && goldi_atomic_read_step(ev, own_store, steps))
        do_step(g, ts, t, &steps[0], false, false, NULL, counted);
    /* (an aligned atomic is one granule; a 16-byte one two) */
    for (uintptr_t a = ev->addr, end = ev->addr + ev->size, gend; a < end; a = gend) {
        gend = goldi_granule_piece_end(a, end);
        atomic_piece(g, ts, ev, a, (unsigned)(gend - a));
    }
    int n = goldi_event_hb_steps(ev, steps);
    for (int i = 0; i < n; i++)
        do_step(g, ts, t, &steps[i], false, false, NULL, counted);
    if (GOLDI_UNLIKELY(atomic_load_explicit(&g->sweep_wanted, memory_order_relaxed)))
        gc_sweep(g);
}

static void gls_on_thr_free(void *self, struct goldi_thr *thr) {
    struct gls_engine *g = self;
    struct gls_thr *s = thr->estate[g->env.index];
    if (!s)
        return;
    goldi_spin_lock(&g->thr_lock);
    gls_lease_thread_end(&g->leases, &s->lease);
    if (s->prev)
        s->prev->next = s->next;
    else
        g->thrs = s->next;
    if (s->next)
        s->next->prev = s->prev;
    for (unsigned k = 0; k < GLS_ST_COUNT; k++)   /* under thr_lock: stats never count twice */
        stat(g, 0, k, atomic_load_explicit(&s->st[k], memory_order_relaxed));
    goldi_spin_unlock(&g->thr_lock);
    if (s->cur.head)
        pool_put(g, &s->cur);
    if (s->spare.head)
        pool_put(g, &s->spare);
    gls_map_destroy(&s->map);
    for (unsigned i = 0; i < GLS_MC_SLOTS; i++)
        gls_mat_free(s->mc[i].set);
    goldi_free(s->sc);
    goldi_free(s);
    thr->estate[g->env.index] = NULL;
}

/* --- ops ------------------------------------------------------------------------------------------ */

/* Fork safety: the GC (which takes granule locks) must not be running, and
 * no thread may hold the entry pool lock or a lock of the update list (both
 * taken under granule locks; a chunk install also outside them). */
static struct gls_engine *fork_engine;
static void gls_fork_gc_lock(void) { goldi_spin_lock(&fork_engine->gc_lock); }
static void gls_fork_gc_unlock(void) { goldi_spin_unlock(&fork_engine->gc_lock); }
static void gls_fork_gc_child(void) {
    atomic_store(&fork_engine->forked_child, true);
    gls_lease_fork_child(&fork_engine->leases);
    goldi_spin_unlock(&fork_engine->gc_lock);
}
/* bar_lock (dead marks, which take thr_lock under it) and thr_lock (live
 * marks, thread registration; a thread's first access takes it under the
 * dispatcher's striped locks): a child must not inherit either held. */
static void gls_fork_bar_lock(void) { goldi_spin_lock(&fork_engine->bar_lock); }
static void gls_fork_bar_unlock(void) { goldi_spin_unlock(&fork_engine->bar_lock); }
static void gls_fork_thr_lock(void) { goldi_spin_lock(&fork_engine->thr_lock); }
static void gls_fork_thr_unlock(void) { goldi_spin_unlock(&fork_engine->thr_lock); }
static void gls_fork_pool_lock(void) { goldi_spin_lock(&fork_engine->pool_lock); }
static void gls_fork_pool_unlock(void) { goldi_spin_unlock(&fork_engine->pool_lock); }
static void gls_fork_list_lock(void) { gls_list_fork_lock(fork_engine->list); }
static void gls_fork_list_unlock(void) { gls_list_fork_unlock(fork_engine->list); }

/* No granule may be half-changed in the child (see gran_lock): close the
 * gate, then wait for every thread inside a granule lock to leave it. Taken
 * after the striped locks (which on_access may hold when other sinks are
 * attached) and before the locks granule holders take (pool, list, ...). */
static void gls_fork_gate_close(void) {
    struct gls_engine *g = fork_engine;
    atomic_store_explicit(&g->fork_gate, 1, memory_order_seq_cst);
    if (!gate_self_fence && !goldi_os_membarrier())
        GOLDI_CHECK(!"membarrier failed after it was registered");
    goldi_spin_lock(&g->thr_lock);
    for (struct gls_thr *t = g->thrs; t; t = t->next)
        for (unsigned spins = 0; atomic_load_explicit(&t->in_gran, memory_order_acquire);)
            goldi_spin_backoff(&spins);
    goldi_spin_unlock(&g->thr_lock);
}
static void gls_fork_gate_open(void) { atomic_store(&fork_engine->fork_gate, 0); }

static void gls_create(const struct goldi_engine_env *env, struct goldi_sink *sink) {
    struct gls_engine *g = goldi_alloc(sizeof *g);
    g->env = *env;
    fast_plane = env->plane;
    g->list = goldi_alloc(sizeof *g->list);
    gls_list_init(g->list);
    gls_map_init(&g->gc_map);
    g->gc_scratch = goldi_alloc(sizeof *g->gc_scratch);
    atomic_store(&g->budget, GLS_BUDGET_MIN);
    atomic_store(&g->sweep_at, SWEEP_MIN);
    sink->self = g;
    g->list->granule_registered = inl_registered;
    g->list->granule_ctx = g;
    sink->on_access = gls_on_access;
    sink->own_granule_locks = true;
    sink->free_sparse = true;   /* (access_piece: a FREE of a granule without state is a no-op) */
    sink->on_access_fast = gls_on_access_fast;
    sink->on_aligned_fast[0][0] = access_half_read;
    sink->on_aligned_fast[0][1] = access_half_write;
    sink->on_aligned_fast[1][0] = access_single_read;
    sink->on_aligned_fast[1][1] = access_single_write;
    sink->on_aligned_fast[2][0] = access_pair_read;
    sink->on_aligned_fast[2][1] = access_pair_write;
    sink->on_range_fast = gls_on_range_fast;
    sink->on_free_fast = gls_on_free_fast;
    sink->repeats = gls_repeats;
    sink->on_event = gls_on_event;
    sink->on_atomic = gls_on_atomic;
    sink->on_thr_free = gls_on_thr_free;
    if (!fork_engine) {
        fork_engine = g;
        gate_self_fence = !goldi_os_membarrier_register();
        /* (one engine's leases only: the fork child clears that one's) */
        g->leases.on = !gate_self_fence;
        goldi_atfork_register(GOLDI_ATFORK_ENGINE, gls_fork_gc_lock, gls_fork_gc_unlock, gls_fork_gc_child);
        goldi_atfork_register(GOLDI_ATFORK_ENGINE + 1, gls_fork_bar_lock, gls_fork_bar_unlock,
                              gls_fork_bar_unlock);
        goldi_atfork_register(GOLDI_ATFORK_GRANULE + 1, gls_fork_gate_close, gls_fork_gate_open,
                              gls_fork_gate_open);
        goldi_atfork_register(GOLDI_ATFORK_GRANULE + 2, gls_fork_thr_lock, gls_fork_thr_unlock,
                              gls_fork_thr_unlock);
        goldi_atfork_register(GOLDI_ATFORK_GRANULE + 5, gls_fork_pool_lock, gls_fork_pool_unlock,
                              gls_fork_pool_unlock);
        goldi_atfork_register(GOLDI_ATFORK_GRANULE + 6, gls_fork_list_lock, gls_fork_list_unlock,
                              gls_fork_list_unlock);
    }
}

static void gls_stats(void *self, void (*emit)(void *ctx, const char *name, uint64_t value), void *ctx) {
    struct gls_engine *g = self;
    struct gls_list *l = g->list;
    uint64_t v[GLS_ST_COUNT];
    goldi_memset(v, 0, sizeof v);   /* (an initialiser this size becomes a call to libc's memset) */
    goldi_spin_lock(&g->thr_lock);
    for (unsigned k = 0; k < GLS_ST_COUNT; k++) {
        for (unsigned s = 0; s < GLS_SHARDS; s++)
            v[k] += atomic_load_explicit(&g->st[s].v[k], memory_order_relaxed);
        for (struct gls_thr *t = g->thrs; t; t = t->next)
            v[k] += atomic_load_explicit(&t->st[k], memory_order_relaxed);
    }
    goldi_spin_unlock(&g->thr_lock);
    for (unsigned k = 0; k < GLS_ST_COUNT; k++)
        emit(ctx, gls_stat_names[k], v[k]);
    uint64_t live = atomic_load(&l->tail) - (atomic_load(&l->oldest) << GLS_CHUNK_BITS);
    uint64_t peak = atomic_load(&g->cells_peak);
    emit(ctx, "goldilocks.cells_live", live);
    emit(ctx, "goldilocks.cells_peak", peak > live ? peak : live);
    emit(ctx, "goldilocks.chunks_live", atomic_load(&l->chunks_live));
    emit(ctx, "goldilocks.chunks_mapped", atomic_load(&l->chunks_mapped));
    emit(ctx, "goldilocks.cell_bytes_live", atomic_load(&l->bytes_live));
    emit(ctx, "goldilocks.cell_bytes_peak", atomic_load(&l->bytes_peak));
    emit(ctx, "goldilocks.registry_bytes_live", atomic_load(&l->reg_bytes));
    goldi_spin_lock(&g->gc_lock);
    emit(ctx, "goldilocks.gc_scratch_bytes", scratch_bytes(g->gc_scratch));
    goldi_spin_unlock(&g->gc_lock);
    emit(ctx, "goldilocks.threads_live", atomic_load(&g->n_live));
    emit(ctx, "goldilocks.pool_entries", atomic_load(&g->pool_entries));
    emit(ctx, "goldilocks.gc_budget", atomic_load(&g->budget));
    emit(ctx, "goldilocks.leases_taken", atomic_load(&g->leases.taken));
    emit(ctx, "goldilocks.leases_revoked", atomic_load(&g->leases.revoked));
}

const struct goldi_engine_ops goldi_engine_goldilocks = {
    .name = "goldilocks",
    .summary = "Goldilocks: precise happens-before from lazily evaluated locksets (default)",
    .create = gls_create,
    .stats = gls_stats,
};
