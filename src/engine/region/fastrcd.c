/* The "fastrcd" engine: FastRCD (Biswas et al., OOPSLA'15; seed 002;
 * ALGORITHMS.md 2.7), eager detection of conflicts between
 * synchronization-free regions. A region of thread t ends at every
 * synchronization event (rg_is_boundary_sfr); an access conflicts when a
 * conflicting access of another thread belongs to a region that is still
 * ongoing. Every conflict is a true happens-before race; races whose first
 * access's region already ended are missed (docs/region.md).
 *
 * Per byte (one rc_byte per shadow word, plain accesses only):
 *   W   c@u and origin of the last plain write (or free); tid NONE if none;
 *   R   per thread u, the epoch c@u and origin of u's last plain read since W
 *       (FastTrack-style epochs, one per reader).
 * Invariants: at most one R entry per thread; every R entry is later than W
 * (a write empties R); an entry whose region ended can never conflict again,
 * so it may be dropped at any time (we prune them before growing R).
 * Rules (2.7): read by T: skip if R[T] = c_T; conflict if W = c@u, u≠T,
 * ongoing; R[T] := c_T. Write by T: conflict with W and every R[u] (u≠T)
 * that is ongoing; W := c_T@T, R := ∅. Reported eagerly, at the second access.
 *
 * Locking: byte records are touched in on_access (granule lock held by the
 * dispatcher) and in the ALLOC/FREE reset (goldi_shadow_for_each takes it).
 * A thread's rc_thr is touched by the thread itself, and by its joiner when
 * the thread's EXIT was never seen. Counters are atomics (region.h). */
#include "region.h"
#include "../../base/alloc.h"
#include "../../base/fmt.h"
#include "../../shadow/shadow.h"

/* --- state ------------------------------------------------------------------------ */

/* One access c@tid with its origin. */
struct rc_ent {
    goldi_tid_t tid;
    uint32_t c;
    goldi_origin_t origin;
};

struct rc_byte {
    struct rc_ent w;            /* W (tid NONE: no plain write this lifetime) */
    uint32_t n, cap;            /* R entries in use / allocated */
    struct rc_ent *r;           /* R */
};

struct rc {
    struct goldi_engine_env env;
    struct rg_counters *ctr;
    _Atomic uint64_t n_pieces, n_bytes, n_conflicts, n_region_ends, n_records, n_threads, n_same_region;
};

static void count(_Atomic uint64_t *c, uint64_t d) {
    atomic_fetch_add_explicit(c, d, memory_order_relaxed);
}

/* The thread's state: its regions are all fastrcd keeps per thread. */
static struct rg_thr *thr_state(struct rc *d, struct goldi_thr *thr) {
    struct rg_thr *s = thr->estate[d->env.index];
    if (GOLDI_LIKELY(s))
        return s;
    s = goldi_alloc(sizeof *s);
    rg_thr_start(d->ctr, s, thr->tid);
    thr->estate[d->env.index] = s;
    count(&d->n_threads, 1);
    return s;
}

/* The region of s ends: published before the boundary's own effect (the
 * dispatcher records releases before the real release, T8), so no thread can
 * synchronize with the release and still see the region as ongoing. */
static void end_region(struct rc *d, struct rg_thr *s) {
    rg_thr_advance(s);
    count(&d->n_region_ends, 1);
}

static void end_region_cb(void *ctx, goldi_tid_t tid, struct rg_thr *s) {
    (void)tid;
    end_region(ctx, s);
}

/* --- accesses ------------------------------------------------------------------------ */

static void conflict(struct rg_pending *p, const struct goldi_event *ev, goldi_origin_t origin, bool write,
                     const struct rc_ent *e, bool prev_write, uintptr_t b) {
    struct rg_conflict c = {
        .cur = origin,
        .prev = e->origin,
        .cur_tid = ev->thr->tid,
        .prev_ep = {e->tid, e->c},
        .cur_write = write,
        .prev_write = prev_write,
    };
    rg_pending_add(p, &c, b);
}

static bool is_ongoing(struct rc *d, const struct rc_ent *e) {
    return rg_is_ongoing(d->ctr, (struct rg_epoch){e->tid, e->c});
}

/* Sets R[T] := me, dropping entries of ended regions before growing. */
static void set_reader(struct rc *d, struct rc_byte *rec, const struct rc_ent *me) {
    for (uint32_t i = 0; i < rec->n; i++)
        if (rec->r[i].tid == me->tid) {
            rec->r[i] = *me;
            return;
        }
    if (rec->n == rec->cap) {
        uint32_t k = 0;
        for (uint32_t i = 0; i < rec->n; i++)
            if (is_ongoing(d, &rec->r[i]))
                rec->r[k++] = rec->r[i];
        rec->n = k;
    }
    if (rec->n == rec->cap) {
        uint32_t cap = rec->cap ? rec->cap * 2 : 2;
        struct rc_ent *r = goldi_alloc(cap * sizeof *r);
        if (rec->n)
            goldi_memcpy(r, rec->r, rec->n * sizeof *r);
        goldi_free(rec->r);
        rec->r = r;
        rec->cap = cap;
    }
    rec->r[rec->n++] = *me;
}

static void on_access(void *self, const struct goldi_event *ev, uintptr_t addr, unsigned size) {
    struct rc *d = self;
    if (!rg_is_plain(ev->kind))
        return;   /* 2.7: only plain accesses are tracked */
    struct rg_thr *s = thr_state(d, ev->thr);
    goldi_tid_t t = ev->thr->tid;
    bool write = ev->kind != GOLDI_EV_READ;
    goldi_origin_t origin = 0;   /* interned on first use: same-region reads skip it */
    struct rg_pending p;
    rg_pending_init(&p, &d->env, "fastrcd", "synchronization");
    count(&d->n_pieces, 1);
    count(&d->n_bytes, size);
    goldi_shadow_word_t *w = goldi_access_words(d->env.plane, ev->kind, addr);
    if (!w)
        return;
    for (unsigned i = 0; i < size; i++) {
        uintptr_t b = addr + i;
        if (goldi_access_skips(ev->kind, &w[i]))
            continue;
        struct rc_byte *rec = (struct rc_byte *)atomic_load_explicit(&w[i], memory_order_relaxed);
        if (!rec) {
            rec = goldi_alloc(sizeof *rec);
            rec->w.tid = GOLDI_TID_NONE;
            atomic_store_explicit(&w[i], (uintptr_t)rec, memory_order_relaxed);
            count(&d->n_records, 1);
        }
        if (!write) {
            bool same = false;
            for (uint32_t k = 0; k < rec->n && !same; k++)
                same = rec->r[k].tid == t && rec->r[k].c == s->c;
            if (same) {
                count(&d->n_same_region, 1);
                continue;   /* [READ SAME REGION] */
            }
        }
        if (!origin)
            origin = goldi_event_origin(ev);
        if (rec->w.tid != t && is_ongoing(d, &rec->w))
            conflict(&p, ev, origin, write, &rec->w, true, b);
        struct rc_ent me = {t, s->c, origin};
        if (!write) {
            set_reader(d, rec, &me);
            continue;
        }
        for (uint32_t k = 0; k < rec->n; k++)
            if (rec->r[k].tid != t && is_ongoing(d, &rec->r[k]))
                conflict(&p, ev, origin, write, &rec->r[k], false, b);
        rec->w = me;
        rec->n = 0;
    }
    rg_pending_flush(&p);
    count(&d->n_conflicts, p.n_emitted);
}

/* ALLOC and FREE end the bytes' lifetime: no history survives (handbook 1.1). */
static void reset_byte(void *ctx, uintptr_t addr, goldi_shadow_word_t *w) {
    struct rc *d = ctx;
    struct rc_byte *rec = (struct rc_byte *)atomic_exchange_explicit(w, 0, memory_order_relaxed);
    if (!rec)
        return;
    goldi_free(rec->r);
    goldi_free(rec);
    atomic_fetch_sub_explicit(&d->n_records, 1, memory_order_relaxed);
}

/* --- events ----------------------------------------------------------------------------- */

static void on_event(void *self, const struct goldi_event *ev) {
    struct rc *d = self;
    struct rg_thr *s = thr_state(d, ev->thr);
    if ((ev->kind == GOLDI_EV_ALLOC || ev->kind == GOLDI_EV_FREE) && ev->size)
        goldi_shadow_for_each(d->env.plane, ev->addr, ev->size, reset_byte, d);
    rg_on_event(ev, s, d->env.index, rg_is_boundary_sfr, end_region_cb, d);
}

static void on_thr_free(void *self, struct goldi_thr *thr) {
    struct rc *d = self;
    struct rg_thr *s = thr->estate[d->env.index];
    if (!s)
        return;
    if (!s->ended)
        end_region(d, s);   /* nothing of a discarded thread is ongoing */
    goldi_free(s);
    thr->estate[d->env.index] = NULL;
    atomic_fetch_sub_explicit(&d->n_threads, 1, memory_order_relaxed);
}

/* --- ops ----------------------------------------------------------------------------------- */

static void create(const struct goldi_engine_env *env, struct goldi_sink *sink) {
    struct rc *d = goldi_alloc(sizeof *d);
    d->env = *env;
    d->ctr = goldi_alloc(sizeof *d->ctr);
    sink->self = d;
    sink->on_access = on_access;
    sink->on_event = on_event;
    sink->on_thr_free = on_thr_free;
    sink->free_sparse = true;   /* (goldi_access_skips) */
}

static void stats(void *self, void (*emit)(void *ctx, const char *name, uint64_t value), void *ctx) {
    struct rc *d = self;
    emit(ctx, "fastrcd.access_pieces", atomic_load(&d->n_pieces));
    emit(ctx, "fastrcd.bytes_checked", atomic_load(&d->n_bytes));
    emit(ctx, "fastrcd.same_region_reads", atomic_load(&d->n_same_region));
    emit(ctx, "fastrcd.conflicts", atomic_load(&d->n_conflicts));
    emit(ctx, "fastrcd.region_ends", atomic_load(&d->n_region_ends));
    emit(ctx, "fastrcd.byte_records", atomic_load(&d->n_records));
    emit(ctx, "fastrcd.threads", atomic_load(&d->n_threads));
}

const struct goldi_engine_ops goldi_engine_fastrcd = {
    .name = "fastrcd",
    .summary = "FastRCD: eager conflicts between synchronization-free regions (sound, misses races)",
    .create = create,
    .stats = stats,
};
