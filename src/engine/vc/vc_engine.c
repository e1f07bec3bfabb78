/* The "vc" engine: a plain DJIT+-style vector-clock race detector
 * (ALGORITHMS.md 2.0, 2.1), written to be obviously correct rather than fast.
 * It is the reference the Goldilocks engine is cross-checked against, so it
 * keeps full per-thread state for every byte and takes no shortcuts (no
 * same-epoch filter, no sampling, no eviction).
 *
 * State (all clocks are goldi_vc_t, handbook 1.2):
 *   thread  t: C_t (clock), Frel_t, Facq_t (fence clocks), X_t (final clock)
 *              in thr->estate[index]; created by the forker, or lazily as
 *              {t:1} for a thread that appears without a FORK (T0).
 *   token   o: S_o in tok->estate[index], tagged with the token id it belongs
 *              to; a different id means a new object life: S_o restarts at ⊥.
 *   byte    b: one vcd_byte in our shadow plane: W (last plain write, incl.
 *              free) and, since W, per thread the last plain read R(u), atomic
 *              write AW(u) and atomic read AR(u) (handbook 2.0, FULL mode).
 * Each stored access is c@u (u's own clock entry at the access) plus its
 * origin; c@u happens-before the current access of t iff c <= C_t[u].
 *
 * Locking: byte records are touched only in on_access (granule lock held by
 * the dispatcher) and in the ALLOC/FREE reset (goldi_shadow_for_each takes the
 * granule lock). Thread state is touched only by its own thread, by its forker
 * before it runs and by its joiner after it ended. Token clocks can be used by
 * several threads at once (readers' rdunlock, sem_post, barrier arrivals), and
 * the dispatcher holds no lock around on_event, so each token clock is guarded
 * by one of our striped spinlocks (innermost lock: nothing is taken inside). */
#include "../engine.h"
#include "../../base/atfork.h"
#include "../common/access.h"
#include "../common/vc.h"
#include "../../base/alloc.h"
#include "../../base/fmt.h"
#include "../../shadow/shadow.h"

/* --- state ----------------------------------------------------------------- */

struct vcd_thr {
    goldi_vc_t c;       /* C_t */
    goldi_vc_t frel;    /* Frel_t: C_t at the last release fence (replaced, never joined) */
    goldi_vc_t facq;    /* Facq_t: join of S_A seen by relaxed loads (only grows) */
    goldi_vc_t x;       /* X_t: C_t at EXIT */
    bool exited;        /* x is valid */
};

struct vcd_tok {
    uint64_t id;        /* token id S belongs to; != tok->id means stale */
    goldi_vc_t s;       /* S_o */
};

enum vcd_ent_kind { VCD_R, VCD_AW, VCD_AR };

/* One stored access c@tid. */
struct vcd_ent {
    goldi_tid_t tid;
    goldi_clock_t clock;
    goldi_origin_t origin;
    uint8_t kind;       /* enum vcd_ent_kind (unused for W) */
};

/* Per-byte summary of the current lifetime. Invariants: at most one entry per
 * (kind, tid) in e[]; every entry in e[] is later than W in trace order (a
 * plain write empties e[]); has_w == false means no plain write this lifetime. */
struct vcd_byte {
    struct vcd_ent w;   /* W: last plain write (or free) */
    bool has_w;
    uint32_t n, cap;    /* entries in use / allocated in e */
    struct vcd_ent *e;  /* R(u), AW(u), AR(u) since W */
};

struct vcd {
    struct goldi_engine_env env;
    _Atomic uint64_t n_pieces, n_bytes, n_races, n_steps, n_records, n_threads;
};

#define VCD_TOK_LOCKS 256
static goldi_spinlock_t vcd_tok_locks[VCD_TOK_LOCKS];

static goldi_spinlock_t *tok_lock(const struct goldi_token *tok) {
    uint64_t h = (uint64_t)(uintptr_t)tok * 0x9E3779B97F4A7C15ull;
    return &vcd_tok_locks[h >> 56];
}

static void count(_Atomic uint64_t *c, uint64_t d) {
    atomic_fetch_add_explicit(c, d, memory_order_relaxed);
}

/* The thread's state, created as {t:1} if nobody forked it (T0, or a thread
 * the producer did not see being created). */
static struct vcd_thr *thr_state(struct vcd *d, struct goldi_thr *thr) {
    struct vcd_thr *s = thr->estate[d->env.index];
    if (GOLDI_LIKELY(s))
        return s;
    s = goldi_alloc(sizeof *s);
    goldi_vc_set(&s->c, thr->tid, 1);
    thr->estate[d->env.index] = s;
    count(&d->n_threads, 1);
    return s;
}

/* The token's clock, reset to ⊥ if the token has a new id. Caller holds tok_lock(tok). */
static goldi_vc_t *tok_clock_locked(struct vcd *d, struct goldi_token *tok) {
    struct vcd_tok *s = tok->estate[d->env.index];
    if (!s) {
        s = goldi_alloc(sizeof *s);
        s->id = tok->id;
        tok->estate[d->env.index] = s;
    } else if (s->id != tok->id) {
        goldi_vc_clear(&s->s);
        s->id = tok->id;
    }
    return &s->s;
}

/* --- accesses --------------------------------------------------------------- */

/* A race found in the current piece, merged per earlier origin. */
struct vcd_pending {
    struct vcd_ent prev;
    bool prev_write, prev_atomic;
    uintptr_t lo, hi;   /* racy bytes [lo, hi] of the piece */
};
#define VCD_MAX_PENDING 16   /* partners kept on the stack before growing */

struct vcd_access {
    struct vcd *d;
    const struct goldi_event *ev;
    struct goldi_thr *thr;
    struct vcd_thr *ts;
    goldi_origin_t origin;
    bool write, atomic;
    struct vcd_pending *pend;   /* local[] or, past VCD_MAX_PENDING, goldi_alloc'ed */
    unsigned n_pend, cap_pend;
    struct vcd_pending local[VCD_MAX_PENDING];
};

static bool ev_is_write(uint8_t kind) {
    return kind == GOLDI_EV_WRITE || kind == GOLDI_EV_FREE || kind == GOLDI_EV_ATOMIC_STORE ||
           kind == GOLDI_EV_ATOMIC_RMW;
}
static bool ev_is_atomic(uint8_t kind) {
    return kind == GOLDI_EV_ATOMIC_LOAD || kind == GOLDI_EV_ATOMIC_STORE ||
           kind == GOLDI_EV_ATOMIC_RMW || kind == GOLDI_EV_ATOMIC_CASFAIL;
}

static void emit_report(struct vcd_access *a, const struct vcd_pending *p) {
    struct goldi_race r;
    goldi_memset(&r, 0, sizeof r);
    r.addr = p->lo;
    r.size = (uint32_t)(p->hi - p->lo + 1);
    r.cur = a->origin;
    r.prev = p->prev.origin;
    r.cur_tid = a->thr->tid;
    r.prev_tid = p->prev.tid;
    r.cur_write = a->write;
    r.prev_write = p->prev_write;
    r.cur_atomic = a->atomic;
    r.prev_atomic = p->prev_atomic;
    r.engine = "vc";
    char clk[96];
    goldi_vc_format(&a->ts->c, clk, sizeof clk);
    goldi_snprintf(r.why, sizeof r.why, "T%u's %s%s at clock %u is not \xe2\x8a\x91 T%u's clock %s",
                   p->prev.tid, p->prev_atomic ? "atomic " : "", p->prev_write ? "write" : "read",
                   p->prev.clock, a->thr->tid, clk);
    count(&a->d->n_races, 1);
    a->d->env.report(a->d->env.report_ctx, &r);
}

/* Records that stored access e (of the given type) races with the current
 * access on byte b: one report per earlier origin per piece. */
static void note_race(struct vcd_access *a, const struct vcd_ent *e, bool write, bool atomic,
                      uintptr_t b) {
    for (unsigned i = 0; i < a->n_pend; i++) {
        struct vcd_pending *p = &a->pend[i];
        if (p->prev.origin == e->origin && p->prev.tid == e->tid && p->prev_write == write &&
            p->prev_atomic == atomic) {
            if (b < p->lo)
                p->lo = b;
            if (b > p->hi)
                p->hi = b;
            return;
        }
    }
    if (a->n_pend == a->cap_pend) {
        /* Many distinct partners in one piece (many threads): grow. */
        unsigned cap = a->cap_pend * 2;
        struct vcd_pending *np = goldi_alloc(cap * sizeof *np);
        goldi_memcpy(np, a->pend, a->n_pend * sizeof *np);
        if (a->pend != a->local)
            goldi_free(a->pend);
        a->pend = np;
        a->cap_pend = cap;
    }
    struct vcd_pending p = {.prev = *e, .prev_write = write, .prev_atomic = atomic, .lo = b, .hi = b};
    a->pend[a->n_pend++] = p;
}

/* Handbook 1.4: conflict iff different threads, one writes, not both atomic;
 * a race iff also c@u is not ⪯ C_t. */
static void check_ent(struct vcd_access *a, const struct vcd_ent *e, bool write, bool atomic,
                      uintptr_t b) {
    if (e->tid == a->thr->tid)
        return;                                 /* program order */
    if (!write && !a->write)
        return;                                 /* read/read */
    if (atomic && a->atomic)
        return;                                 /* atomic/atomic */
    if (e->clock <= goldi_vc_get(&a->ts->c, e->tid))
        return;                                 /* e happens-before the access */
    note_race(a, e, write, atomic, b);
}

static void set_ent(struct vcd_byte *rec, enum vcd_ent_kind kind, const struct vcd_ent *v) {
    for (uint32_t i = 0; i < rec->n; i++) {
        if (rec->e[i].kind == kind && rec->e[i].tid == v->tid) {
            rec->e[i] = *v;
            rec->e[i].kind = (uint8_t)kind;
            return;
        }
    }
    if (rec->n == rec->cap) {
        uint32_t cap = rec->cap ? rec->cap * 2 : 2;
        struct vcd_ent *e = goldi_alloc(cap * sizeof *e);
        if (rec->n)
            goldi_memcpy(e, rec->e, rec->n * sizeof *e);
        goldi_free(rec->e);
        rec->e = e;
        rec->cap = cap;
    }
    rec->e[rec->n] = *v;
    rec->e[rec->n].kind = (uint8_t)kind;
    rec->n++;
}

/* Check, then update as if the access were ordered (so later races on the
 * byte are still found), handbook 2.0 FULL mode:
 *   plain read  vs W, AW        -> R(t)
 *   plain write vs W, R, AW, AR -> W := t, forget R, AW, AR
 *   atomic read vs W            -> AR(t)
 *   atomic write vs W, R        -> AW(t)
 * check_ent's conflict test encodes exactly this table. */
static void access_byte(struct vcd_access *a, uintptr_t b, goldi_shadow_word_t *w) {
    struct vcd_byte *rec = (struct vcd_byte *)atomic_load_explicit(w, memory_order_relaxed);
    if (!rec) {
        rec = goldi_alloc(sizeof *rec);
        atomic_store_explicit(w, (uintptr_t)rec, memory_order_relaxed);
        count(&a->d->n_records, 1);
    }
    if (rec->has_w)
        check_ent(a, &rec->w, true, false, b);
    for (uint32_t i = 0; i < rec->n; i++) {
        const struct vcd_ent *e = &rec->e[i];
        check_ent(a, e, e->kind == VCD_AW, e->kind != VCD_R, b);
    }
    struct vcd_ent me = {
        .tid = a->thr->tid,
        .clock = goldi_vc_get(&a->ts->c, a->thr->tid),
        .origin = a->origin,
    };
    if (!a->atomic && a->write) {
        rec->w = me;
        rec->has_w = true;
        rec->n = 0;
    } else if (!a->atomic) {
        set_ent(rec, VCD_R, &me);
    } else if (a->write) {
        set_ent(rec, VCD_AW, &me);
    } else {
        set_ent(rec, VCD_AR, &me);
    }
}

static void vcd_on_access(void *self, const struct goldi_event *ev, uintptr_t addr, unsigned size) {
    struct vcd *d = self;
    struct vcd_access a;
    a.d = d;
    a.ev = ev;
    a.thr = ev->thr;
    a.ts = thr_state(d, ev->thr);
    a.origin = goldi_event_origin(ev);
    a.write = ev_is_write(ev->kind);
    a.atomic = ev_is_atomic(ev->kind);
    a.pend = a.local;
    a.n_pend = 0;
    a.cap_pend = VCD_MAX_PENDING;
    count(&d->n_pieces, 1);
    count(&d->n_bytes, size);
    goldi_shadow_word_t *w = goldi_access_words(d->env.plane, ev->kind, addr);
    if (!w)
        return;
    for (unsigned i = 0; i < size; i++)
        if (!goldi_access_skips(ev->kind, &w[i]))
            access_byte(&a, addr + i, w + i);
    for (unsigned i = 0; i < a.n_pend; i++)
        emit_report(&a, &a.pend[i]);
    if (a.pend != a.local)
        goldi_free(a.pend);
}

/* ALLOC and FREE end the bytes' lifetime: no history survives (handbook 1.1). */
static void reset_byte(void *ctx, uintptr_t addr, goldi_shadow_word_t *w) {
    struct vcd *d = ctx;
    struct vcd_byte *rec = (struct vcd_byte *)atomic_exchange_explicit(w, 0, memory_order_relaxed);
    if (!rec)
        return;
    goldi_free(rec->e);
    goldi_free(rec);
    atomic_fetch_sub_explicit(&d->n_records, 1, memory_order_relaxed);
}

/* --- happens-before steps (event.h, handbook 1.2) ---------------------------- */

static void inc_self(struct vcd_thr *ts, struct goldi_thr *thr) { goldi_vc_inc(&ts->c, thr->tid); }

static void do_step(struct vcd *d, struct goldi_thr *thr, struct vcd_thr *ts,
                    const struct goldi_hb_step *st) {
    count(&d->n_steps, 1);
    switch ((enum goldi_hb_op)st->op) {
    case GOLDI_HB_FORK: {
        /* C_child := C_t ⊔ {child:1}; inc(t). A child that already has state
         * (it emitted something first) keeps it and joins ours. */
        struct goldi_thr *child = st->other;
        struct vcd_thr *cs = child->estate[d->env.index];
        if (!cs) {
            cs = goldi_alloc(sizeof *cs);
            child->estate[d->env.index] = cs;
            count(&d->n_threads, 1);
        }
        goldi_vc_join(&cs->c, &ts->c);
        if (goldi_vc_get(&cs->c, child->tid) < 1)
            goldi_vc_set(&cs->c, child->tid, 1);
        inc_self(ts, thr);
        return;
    }
    case GOLDI_HB_JOIN: {
        /* C_t ⊔= X_child; a child whose EXIT we never saw is over anyway
         * (join returned), so its current clock is its final one. */
        struct vcd_thr *cs = st->other->estate[d->env.index];
        if (cs)
            goldi_vc_join(&ts->c, cs->exited ? &cs->x : &cs->c);
        return;
    }
    case GOLDI_HB_EXIT:
        goldi_vc_copy(&ts->x, &ts->c);
        ts->exited = true;
        return;
    case GOLDI_HB_FENCE_ACQ:
        goldi_vc_join(&ts->c, &ts->facq);
        return;
    case GOLDI_HB_FENCE_REL:
        goldi_vc_copy(&ts->frel, &ts->c);
        inc_self(ts, thr);
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
    goldi_vc_t *s = tok_clock_locked(d, st->tok);
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
    /* inc(t) after the release (T6): later accesses of t are no longer
     * covered by what was just published. */
    if (inc)
        inc_self(ts, thr);
}

static void vcd_on_event(void *self, const struct goldi_event *ev) {
    struct vcd *d = self;
    struct goldi_thr *thr = ev->thr;
    struct vcd_thr *ts = thr_state(d, thr);
    struct goldi_hb_step steps[GOLDI_HB_MAX_STEPS];
    int n = goldi_event_hb_steps(ev, steps);
    for (int i = 0; i < n; i++)
        do_step(d, thr, ts, &steps[i]);
    if ((ev->kind == GOLDI_EV_ALLOC || ev->kind == GOLDI_EV_FREE) && ev->size)
        goldi_shadow_for_each(d->env.plane, ev->addr, ev->size, reset_byte, d);
}

static void vcd_on_thr_free(void *self, struct goldi_thr *thr) {
    struct vcd *d = self;
    struct vcd_thr *s = thr->estate[d->env.index];
    if (!s)
        return;
    goldi_vc_destroy(&s->c);
    goldi_vc_destroy(&s->frel);
    goldi_vc_destroy(&s->facq);
    goldi_vc_destroy(&s->x);
    goldi_free(s);
    thr->estate[d->env.index] = NULL;
    atomic_fetch_sub_explicit(&d->n_threads, 1, memory_order_relaxed);
}

/* --- ops ---------------------------------------------------------------------- */

static void vcd_create(const struct goldi_engine_env *env, struct goldi_sink *sink) {
    struct vcd *d = goldi_alloc(sizeof *d);
    d->env = *env;
    sink->self = d;
    sink->on_access = vcd_on_access;
    sink->free_sparse = true;   /* (a FREE of a byte without a record does nothing) */
    sink->on_event = vcd_on_event;
    sink->on_thr_free = vcd_on_thr_free;
}

static void vcd_stats(void *self, void (*emit)(void *ctx, const char *name, uint64_t value), void *ctx) {
    struct vcd *d = self;
    emit(ctx, "vc.access_pieces", atomic_load(&d->n_pieces));
    emit(ctx, "vc.bytes_checked", atomic_load(&d->n_bytes));
    emit(ctx, "vc.races", atomic_load(&d->n_races));
    emit(ctx, "vc.hb_steps", atomic_load(&d->n_steps));
    emit(ctx, "vc.byte_records", atomic_load(&d->n_records));
    emit(ctx, "vc.threads", atomic_load(&d->n_threads));
}

const struct goldi_engine_ops goldi_engine_vc = {
    .name = "vc",
    .summary = "plain vector clocks (DJIT+ style), the reference the other engines are checked against",
    .create = vcd_create,
    .stats = vcd_stats,
};

static void vcd_fork_lock(void) { goldi_spin_lock_all(vcd_tok_locks, VCD_TOK_LOCKS); }
static void vcd_fork_unlock(void) { goldi_spin_unlock_all(vcd_tok_locks, VCD_TOK_LOCKS); }

__attribute__((constructor(102))) static void vcd_atfork_init(void) {
    goldi_atfork_register(GOLDI_ATFORK_ENGINE, vcd_fork_lock, vcd_fork_unlock, vcd_fork_unlock);
}
