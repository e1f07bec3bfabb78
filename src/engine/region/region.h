/* Shared parts of the region-conflict engines fastrcd and valor (ALGORITHMS.md
 * 2.7, seed 002): the table of per-thread region counters that lets one
 * thread ask whether another thread's region is still ongoing, the two
 * region-boundary rules, and the merging of conflicts into goldi_race records.
 * Nothing here knows about bytes or read logs: each engine owns its shadow.
 *
 * Vocabulary. Thread t runs a sequence of regions numbered c_t = 1, 2, ...;
 * a region ends at a boundary event (the rule decides which events are
 * boundaries). An access is stamped with the epoch c@t of its region. The
 * region c@u is *ongoing* iff u's published counter still equals c. Counters
 * only grow, so an ended region never becomes ongoing again: this is what
 * makes every conflict a true race (no release of u between u's access and
 * the conflicting access, hence no happens-before path from it). */
#ifndef GOLDI_ENGINE_REGION_H
#define GOLDI_ENGINE_REGION_H

#include "../engine.h"
#include "../common/access.h"

/* --- region counters ---------------------------------------------------------
 * c_t for every tid, published with release stores and read with acquire
 * loads. Only t itself writes c_t, except that a joiner ends the last region
 * of a child whose EXIT it never saw (the child is finished then).
 *
 *   tid (32 bits):  | 31 .. 26 | 25 .. 12 | 11 .. 0 |
 *                     must be 0  dir index  slot in chunk
 * Chunks of 4096 counters are goldi_alloc'ed on first use and installed with
 * compare-and-swap, so lookups take no lock; ids up to 2^26 threads. */
#define RG_CHUNK_BITS 12
#define RG_DIR_BITS 14
struct rg_counters {
    _Atomic(_Atomic uint32_t *) dir[1u << RG_DIR_BITS];
};

/* The counter of tid (created as 0 if new). */
_Atomic uint32_t *rg_counter(struct rg_counters *t, goldi_tid_t tid);
/* Same, NULL if its chunk was never created (then its counter is 0). */
_Atomic uint32_t *rg_counter_if_present(struct rg_counters *t, goldi_tid_t tid);

/* --- a thread's regions ------------------------------------------------------
 * The part of a thread state both engines keep; each engine's thread state
 * begins with it (fastrcd's is nothing else), so that the joiner can end a
 * child's region through estate[]. */
struct rg_thr {
    uint32_t c;                 /* c_t, our own copy of the published counter */
    _Atomic uint32_t *pub;      /* the published counter (rg_counters) */
    bool ended;                 /* EXIT seen (or ended by the joiner): no region is ongoing */
};

/* Starts the first region of a new thread state of tid: one past whatever
 * tid's counter holds, so epochs left by an earlier thread state of the same
 * tid (trace runs reuse tids) are never ongoing. */
void rg_thr_start(struct rg_counters *t, struct rg_thr *s, goldi_tid_t tid);

/* Publishes the end of s's current region (release: whoever sees the new
 * value sees the region's effects as ended). */
GOLDI_INLINE void rg_thr_advance(struct rg_thr *s) {
    s->c++;
    atomic_store_explicit(s->pub, s->c, memory_order_release);
}

/* The region bookkeeping of ev for s (the state of ev->thr), the same in both
 * engines: a joined child (state in ev->other->estate[index]) whose EXIT was
 * never seen is finished, so its last region ends before the join's acquire
 * orders its accesses; then, unless s already ended, a boundary of ev
 * (is_boundary) ends s's region; EXIT marks s ended. end(ctx, tid, state)
 * ends a region (the engine's work, then rg_thr_advance). */
void rg_on_event(const struct goldi_event *ev, struct rg_thr *s, unsigned index,
                 bool (*is_boundary)(const struct goldi_event *ev),
                 void (*end)(void *ctx, goldi_tid_t tid, struct rg_thr *s), void *ctx);

/* An epoch c@tid: the region c of thread tid. tid == GOLDI_TID_NONE: none. */
struct rg_epoch {
    goldi_tid_t tid;
    uint32_t c;
};
#define RG_EPOCH_NONE ((struct rg_epoch){GOLDI_TID_NONE, 0})

GOLDI_INLINE bool rg_epoch_eq(struct rg_epoch a, struct rg_epoch b) {
    return a.tid == b.tid && a.c == b.c;
}

/* Is region e still running? (false for none) */
GOLDI_INLINE bool rg_is_ongoing(struct rg_counters *t, struct rg_epoch e) {
    if (e.tid == GOLDI_TID_NONE)
        return false;
    _Atomic uint32_t *c = rg_counter_if_present(t, e.tid);
    return c && atomic_load_explicit(c, memory_order_acquire) == e.c;
}

/* --- region boundaries ---------------------------------------------------------
 * SFR (FastRCD, synchronization-free regions): every event of handbook 1.2
 * except plain accesses, alloc/free and relaxed atomics (and relaxed fences,
 * which are no-ops). RFR (Valor, release-free regions): only release-ish
 * events: unlock of any kind, wait_enter, signal/broadcast, sem_post,
 * bar_arrive, once_done, release(-ish) stores/RMWs/fences, fork, exit; plus,
 * defensively, any event whose hb lowering contains a release step, so a new
 * release kind can never make a conflict unsound. */
bool rg_is_boundary_sfr(const struct goldi_event *ev);
bool rg_is_boundary_rfr(const struct goldi_event *ev);

/* Only plain accesses are tracked (2.7): reads, writes, and free (a write). */
GOLDI_INLINE bool rg_is_plain(uint8_t kind) {
    return kind == GOLDI_EV_READ || kind == GOLDI_EV_WRITE || kind == GOLDI_EV_FREE;
}

/* --- conflict records ------------------------------------------------------------
 * Conflicts found while handling one access piece (or one region-end
 * validation) are merged per partner: one goldi_race per (partner origin,
 * partner epoch, kinds) with the byte span [lo, hi] they share. */
struct rg_conflict {
    goldi_origin_t cur, prev;
    goldi_tid_t cur_tid;
    struct rg_epoch prev_ep;     /* the partner's region */
    bool cur_write, prev_write;
    uintptr_t lo, hi;            /* conflicting bytes, inclusive */
    /* Valor validation only: the reader's region, and the versions read and
     * found of the first byte (why string; merged bytes may differ). */
    uint32_t cur_c, v_read, v_now;
    bool validation;
};

#define RG_MAX_PENDING 8       /* partners kept on the stack before growing */
struct rg_pending {
    const struct goldi_engine_env *env;
    const char *engine;          /* engine name for the record */
    const char *since;           /* "synchronization" or "release" (why string) */
    unsigned n, cap;
    unsigned n_emitted;          /* records emitted so far (stats) */
    struct rg_conflict *c;       /* local[] or, past RG_MAX_PENDING, goldi_alloc'ed */
    struct rg_conflict local[RG_MAX_PENDING];
};

void rg_pending_init(struct rg_pending *p, const struct goldi_engine_env *env, const char *engine,
                     const char *since);
/* Adds byte b of conflict c (merged with an earlier one with the same partner
 * when b extends its span inside one granule). */
void rg_pending_add(struct rg_pending *p, const struct rg_conflict *c, uintptr_t b);
/* Emits every pending record through env->report and frees what it allocated. */
void rg_pending_flush(struct rg_pending *p);

/* Valor with FastRCD's boundary rule (SFR instead of RFR), for the
 * differential test of ALGORITHMS.md §3 ("same boundary rule, same byte
 * set"). Not registered in registry.c: not selectable with engine=NAME. */
extern const struct goldi_engine_ops goldi_engine_valor_sfr;

#endif
