/* The "eraser" engine: the Eraser lockset algorithm (Savage et al., TOCS'97;
 * ALGORITHMS.md 2.5), the imprecise baseline the seeds compare against.
 * It knows only locks: fork/join, condition variables, barriers, semaphores,
 * once and atomics order nothing, and atomic accesses are not checked. It is
 * expected to raise false alarms (docs/eraser.md lists them).
 *
 * Per byte (a struct er_byte pointed to by our shadow word):
 *
 *      Virgin --any access by t--> Exclusive(t)
 *      Exclusive(t): access by t: stay
 *                    read by u != t  -> Shared,    C := held(u)
 *                    write by u != t -> SharedMod, C := wheld(u)
 *      Shared:       read: C ∩= held     write: C ∩= wheld -> SharedMod
 *      SharedMod:    read: C ∩= held     write: C ∩= wheld
 *      report when the byte is SharedMod with C = ∅ after the update (also on
 *      entry), once: the byte then goes to Raced and is no longer checked.
 *
 * held(t) = every lock t holds (mutexes, spinlocks, rwlocks in either mode);
 * wheld(t) = the same without read-mode rwlocks (a read lock does not stop
 * another reader from holding it while one writes). Both come from
 * thr->held[] (kept by the dispatcher) and are interned (common/lockset.h), so
 * C is one word and "∩=" a memoised lookup. FREE is checked as a write of the
 * block (event model 1.2) and then, like ALLOC, resets the bytes to Virgin.
 *
 * Locking: byte records are touched only under their granule lock (on_access,
 * goldi_shadow_for_each); thread state only by its own thread. */
#include "../engine.h"
#include "../common/access.h"
#include "../common/lockset.h"
#include "../common/partner.h"
#include "../../base/alloc.h"
#include "../../base/fmt.h"
#include "../../shadow/shadow.h"

enum er_state { ER_VIRGIN, ER_EXCL, ER_SHARED, ER_SHMOD, ER_RACED };
static const char *const er_state_names[] = {"Virgin", "Exclusive", "Shared", "SharedModified", "Raced"};

/* Invariants: state == ER_EXCL => owner is the only thread that accessed the
 * byte this lifetime; state in {Shared, SharedMod} => c is the set of locks
 * held (write-held for writes) at every access since the byte left
 * Exclusive. */
struct er_byte {
    uint8_t state;          /* enum er_state */
    goldi_tid_t owner;      /* Exclusive: the owning thread */
    goldi_lockset_t c;      /* Shared/SharedMod: candidate lockset C(x) */
    struct goldi_partners partners;  /* report partners (common/partner.h) */
};

struct er_thr {
    uint32_t held_version;  /* thr->held_version the cache below was built for */
    bool valid;
    goldi_lockset_t held;   /* held(t) */
    goldi_lockset_t wheld;  /* wheld(t) */
};

struct er {
    struct goldi_engine_env env;
    _Atomic uint64_t n_pieces, n_bytes, n_races, n_records, n_threads, n_shared, n_shmod;
};

static void count(_Atomic uint64_t *c, int64_t d) {
    atomic_fetch_add_explicit(c, (uint64_t)d, memory_order_relaxed);
}

static struct er_thr *thr_state(struct er *e, struct goldi_thr *thr) {
    struct er_thr *s = thr->estate[e->env.index];
    if (!s) {
        s = goldi_alloc(sizeof *s);
        thr->estate[e->env.index] = s;
        count(&e->n_threads, 1);
    }
    if (!s->valid || s->held_version != thr->held_version) {
        s->held = goldi_lockset_of_thr(thr, false);
        s->wheld = goldi_lockset_of_thr(thr, true);
        s->held_version = thr->held_version;
        s->valid = true;
    }
    return s;
}

static bool is_atomic(uint8_t kind) {
    return kind == GOLDI_EV_ATOMIC_LOAD || kind == GOLDI_EV_ATOMIC_STORE ||
           kind == GOLDI_EV_ATOMIC_RMW || kind == GOLDI_EV_ATOMIC_CASFAIL;
}

/* --- reports --------------------------------------------------------------- */

/* Racy bytes of one piece with the same partner access become one report. */
struct er_pending {
    struct goldi_acc_ref prev;
    uintptr_t lo, hi;
    goldi_lockset_t before;   /* C before the update (for the explanation) */
    uint8_t from;             /* state before the update */
};

struct goldi_acc_refess {
    struct er *e;
    struct goldi_thr *thr;
    struct er_thr *ts;
    struct goldi_acc_ref me;
    struct er_pending pend[GOLDI_GRANULE];   /* a piece has at most 8 bytes */
    unsigned n_pend;
};

static void note_race(struct goldi_acc_refess *a, const struct er_byte *rec, uintptr_t b, goldi_lockset_t before,
                      uint8_t from) {
    struct goldi_acc_ref p = goldi_partners_pick(&rec->partners, a->me.tid, a->me.write);
    for (unsigned i = 0; i < a->n_pend; i++) {
        struct er_pending *q = &a->pend[i];
        if (q->prev.origin == p.origin && q->prev.tid == p.tid && q->prev.write == p.write) {
            q->hi = b;   /* bytes come in increasing order */
            return;
        }
    }
    struct er_pending *q = &a->pend[a->n_pend++];
    q->prev = p;
    q->lo = q->hi = b;
    q->before = before;
    q->from = from;
}

static void emit_report(struct goldi_acc_refess *a, const struct er_pending *q) {
    struct goldi_race r;
    goldi_memset(&r, 0, sizeof r);
    r.addr = q->lo;
    r.size = (uint32_t)(q->hi - q->lo + 1);
    r.cur = a->me.origin;
    r.prev = q->prev.origin;
    r.cur_tid = a->me.tid;
    r.prev_tid = q->prev.tid;
    r.cur_write = a->me.write;
    r.prev_write = q->prev.write;
    r.engine = "eraser";
    char c[64], h[64];
    goldi_lockset_format(q->before, c, sizeof c);
    goldi_lockset_format(a->me.write ? a->ts->wheld : a->ts->held, h, sizeof h);
    if (q->from == ER_EXCL)
        goldi_snprintf(r.why, sizeof r.why,
                       "eraser: %s by a second thread with no lock held%s (%s -> SharedModified, C = {})",
                       a->me.write ? "write" : "read", a->me.write ? " in write mode" : "",
                       er_state_names[q->from]);
    else
        goldi_snprintf(r.why, sizeof r.why,
                       "eraser: no common lock: C = %s \xe2\x88\xa9 locks %sheld by T%u %s = {} (%s -> SharedModified)",
                       c, a->me.write ? "write-" : "", a->me.tid, h, er_state_names[q->from]);
    count(&a->e->n_races, 1);
    a->e->env.report(a->e->env.report_ctx, &r);
}

/* --- the state machine ------------------------------------------------------ */

static void access_byte(struct goldi_acc_refess *a, uintptr_t b, goldi_shadow_word_t *w) {
    struct er_byte *rec = (struct er_byte *)atomic_load_explicit(w, memory_order_relaxed);
    if (!rec) {
        rec = goldi_alloc(sizeof *rec);
        atomic_store_explicit(w, (uintptr_t)rec, memory_order_relaxed);
        count(&a->e->n_records, 1);
    }
    if (rec->state == ER_RACED)
        return;                                   /* reported once per byte */
    goldi_tid_t t = a->me.tid;
    bool write = a->me.write;
    goldi_lockset_t mine = write ? a->ts->wheld : a->ts->held;
    uint8_t from = rec->state;
    goldi_lockset_t before = rec->c;
    switch ((enum er_state)rec->state) {
    case ER_VIRGIN:
        rec->state = ER_EXCL;
        rec->owner = t;
        break;
    case ER_EXCL:
        if (rec->owner == t)
            break;
        rec->state = write ? ER_SHMOD : ER_SHARED;
        rec->c = mine;
        count(write ? &a->e->n_shmod : &a->e->n_shared, 1);
        break;
    case ER_SHARED:
        rec->c = goldi_lockset_intersect(rec->c, mine);
        if (write) {
            rec->state = ER_SHMOD;
            count(&a->e->n_shmod, 1);
        }
        break;
    case ER_SHMOD:
        rec->c = goldi_lockset_intersect(rec->c, mine);
        break;
    case ER_RACED:
        break;
    }
    if (rec->state == ER_SHMOD && rec->c == GOLDI_LOCKSET_EMPTY) {
        note_race(a, rec, b, before, from);
        rec->state = ER_RACED;
    }
    goldi_partners_note(&rec->partners, &a->me);
}

static void er_on_access(void *self, const struct goldi_event *ev, uintptr_t addr, unsigned size) {
    struct er *e = self;
    if (is_atomic(ev->kind))
        return;                                   /* Eraser does not know atomics */
    struct goldi_acc_refess a;
    a.e = e;
    a.thr = ev->thr;
    a.ts = thr_state(e, ev->thr);
    a.me.origin = goldi_event_origin(ev);
    a.me.tid = ev->thr->tid;
    a.me.write = ev->kind == GOLDI_EV_WRITE || ev->kind == GOLDI_EV_FREE;
    a.n_pend = 0;
    count(&e->n_pieces, 1);
    count(&e->n_bytes, size);
    goldi_shadow_word_t *w = goldi_access_words(e->env.plane, ev->kind, addr);
    if (!w)
        return;
    for (unsigned i = 0; i < size; i++)
        if (!goldi_access_skips(ev->kind, &w[i]))
            access_byte(&a, addr + i, w + i);
    for (unsigned i = 0; i < a.n_pend; i++)
        emit_report(&a, &a.pend[i]);
}

/* ALLOC and FREE: the bytes start over as Virgin (no record). */
static void reset_byte(void *ctx, uintptr_t addr, goldi_shadow_word_t *w) {
    (void)addr;
    struct er *e = ctx;
    void *rec = (void *)atomic_exchange_explicit(w, 0, memory_order_relaxed);
    if (!rec)
        return;
    goldi_free(rec);
    count(&e->n_records, -1);
}

static void er_on_event(void *self, const struct goldi_event *ev) {
    struct er *e = self;
    if ((ev->kind == GOLDI_EV_ALLOC || ev->kind == GOLDI_EV_FREE) && ev->size)
        goldi_shadow_for_each(e->env.plane, ev->addr, ev->size, reset_byte, e);
}

static void er_on_thr_free(void *self, struct goldi_thr *thr) {
    struct er *e = self;
    struct er_thr *s = thr->estate[e->env.index];
    if (!s)
        return;
    goldi_free(s);
    thr->estate[e->env.index] = NULL;
    count(&e->n_threads, -1);
}

static void er_create(const struct goldi_engine_env *env, struct goldi_sink *sink) {
    struct er *e = goldi_alloc(sizeof *e);
    e->env = *env;
    sink->self = e;
    sink->on_access = er_on_access;
    sink->on_event = er_on_event;
    sink->on_thr_free = er_on_thr_free;
    sink->free_sparse = true;   /* (goldi_access_skips) */
}

static void er_stats(void *self, void (*emit)(void *ctx, const char *name, uint64_t value), void *ctx) {
    struct er *e = self;
    struct goldi_lockset_stats ls;
    goldi_lockset_get_stats(&ls);
    emit(ctx, "eraser.access_pieces", atomic_load(&e->n_pieces));
    emit(ctx, "eraser.bytes_checked", atomic_load(&e->n_bytes));
    emit(ctx, "eraser.races", atomic_load(&e->n_races));
    emit(ctx, "eraser.to_shared", atomic_load(&e->n_shared));
    emit(ctx, "eraser.to_shared_modified", atomic_load(&e->n_shmod));
    emit(ctx, "eraser.byte_records", atomic_load(&e->n_records));
    emit(ctx, "eraser.threads", atomic_load(&e->n_threads));
    emit(ctx, "eraser.locksets_interned", ls.n_sets);
    emit(ctx, "eraser.lockset_memo_hits", ls.memo_hits);
    emit(ctx, "eraser.lockset_memo_misses", ls.memo_misses);
    emit(ctx, "eraser.lockset_overflows", ls.overflows);
}

const struct goldi_engine_ops goldi_engine_eraser = {
    .name = "eraser",
    .summary = "Eraser lockset algorithm (imprecise baseline: false alarms on non-lock synchronization)",
    .create = er_create,
    .stats = er_stats,
};
