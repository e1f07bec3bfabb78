/* The "jrf" engine: the happens-before summary function h of the JRF seed
 * (Kim, Yavuz-Kahveci, Sanders; ALGORITHMS.md 2.4) used as an online detector.
 * It reports exactly the WW and WR races (class P-WX, handbook §3) and never a
 * read-followed-by-write (RW) race: reads leave no trace in h.
 *
 * Representation (docs/jrf.md has the equivalence proof). h maps every row z
 * (a thread t, a sync token o, a fence row Frel_t / Facq_t) to a set of
 * locations. We never store the bitmap: each row z already has a vector clock
 * V_z in common/hbclock (C_t, S_o, Frel_t, Facq_t), and per byte we keep
 *   W   epoch c@u of the last plain write (⊥ if none this lifetime: "virgin"),
 *   AW  the atomic writes since W that no later one of them covers (a sparse
 *       set of epochs: the ⪯-maximal ones),
 * so that
 *   x   ∈ h(z)  iff  W ⪯ V_z                  (every plain write to x hb z)
 *   x^a ∈ h(z)  iff  ∀ e ∈ AW: e ⪯ V_z        (every atomic write since W hb z)
 * release/acquire (row unions) are clock joins, the invalidation of a plain
 * write is "W := E(t)" (no other clock covers t's current epoch), and the
 * column clear of an atomic write is "AW += E(t)". Checks are h's norace():
 *   plain read, plain write: x and x^a;  atomic read, atomic write: x only.
 * Reads change nothing. Unlike P-FULL engines, jrf keeps no read state at all. */
#include "../engine.h"
#include "../common/access.h"
#include "../common/grow.h"
#include "../common/hbclock.h"
#include "../common/vc.h"
#include "../../base/alloc.h"
#include "../../base/fmt.h"
#include "../../shadow/shadow.h"

/* --- state --------------------------------------------------------------------- */

struct jrf_ent {
    goldi_tid_t tid;
    goldi_clock_t clock;
    goldi_origin_t origin;
};

/* AW, allocated only once an atomic write touches the byte. */
struct jrf_aw {
    uint32_t n, cap;        /* entries in use / allocated */
    struct jrf_ent e[];
};

/* Per byte of the current lifetime (24 bytes). No record = virgin: x and x^a
 * are in every row. Invariant: aw->e[] entries are pairwise unordered atomic
 * writes later than w in trace order, at most one per thread. */
struct jrf_byte {
    goldi_epoch_t w;        /* W: last plain write (incl. free), GOLDI_EPOCH_NONE if none */
    goldi_origin_t w_org;   /* its origin */
    struct jrf_aw *aw;      /* AW: maximal atomic writes since W, NULL = none */
};
_Static_assert(sizeof(struct jrf_byte) == 24, "jrf_byte stays compact");

struct jrf {
    struct goldi_engine_env env;
    struct goldi_hbc hbc;
    _Atomic uint64_t n_pieces, n_bytes, n_checks, n_owner_hits, n_invalidate, n_col_clear,
        n_races, n_records;
};

static void count(_Atomic uint64_t *c, uint64_t d) {
    atomic_fetch_add_explicit(c, d, memory_order_relaxed);
}

/* --- accesses ----------------------------------------------------------------------- */

struct jrf_pending {
    goldi_tid_t tid;
    goldi_clock_t clock;
    goldi_origin_t origin;
    bool atomic;            /* partner is an atomic write (x^a), else a plain write (x) */
    uintptr_t lo, hi;
};
#define JRF_MAX_PENDING 16

struct jrf_access {
    struct jrf *d;
    const struct goldi_event *ev;
    struct goldi_hbc_thr *ts;
    goldi_tid_t t;
    goldi_origin_t origin;
    bool write, atomic;
    struct jrf_pending *pend;
    unsigned n_pend, cap_pend;
    struct jrf_pending local[JRF_MAX_PENDING];
};

static goldi_origin_t my_origin(struct jrf_access *a) {
    if (!a->origin)
        a->origin = goldi_event_origin(a->ev);
    return a->origin;
}

static void note_race(struct jrf_access *a, goldi_tid_t tid, goldi_clock_t clock, goldi_origin_t org,
                      bool atomic, uintptr_t b) {
    for (unsigned i = 0; i < a->n_pend; i++) {
        struct jrf_pending *p = &a->pend[i];
        if (p->origin == org && p->tid == tid && p->atomic == atomic) {
            if (b < p->lo)
                p->lo = b;
            if (b > p->hi)
                p->hi = b;
            return;
        }
    }
    a->pend = goldi_grow_local(a->pend, a->local, a->n_pend, &a->cap_pend, sizeof *a->pend);
    a->pend[a->n_pend++] = (struct jrf_pending){
        .tid = tid, .clock = clock, .origin = org, .atomic = atomic, .lo = b, .hi = b};
}

static void emit_report(struct jrf_access *a, const struct jrf_pending *p) {
    struct goldi_race r;
    goldi_memset(&r, 0, sizeof r);
    r.addr = p->lo;
    r.size = (uint32_t)(p->hi - p->lo + 1);
    r.cur = my_origin(a);
    r.prev = p->origin;
    r.cur_tid = a->t;
    r.prev_tid = p->tid;
    r.cur_write = a->write;
    r.prev_write = true;
    r.cur_atomic = a->atomic;
    r.prev_atomic = p->atomic;
    r.engine = "jrf";
    goldi_snprintf(r.why, sizeof r.why,
                   "jrf: %s \xe2\x88\x89 h(T%u): T%u's %swrite at %u@T%u does not happen-before T%u "
                   "(T%u's clock knows T%u only up to %u)",
                   p->atomic ? "x^a" : "x", a->t, p->tid, p->atomic ? "atomic " : "", p->clock, p->tid,
                   a->t, a->t, p->tid, goldi_vc_get(&a->ts->c, p->tid));
    count(&a->d->n_races, 1);
    a->d->env.report(a->d->env.report_ctx, &r);
}

/* c@u ∉ ... : is the write c@u (u != t) not yet known to t's row? */
static bool unordered(const struct jrf_access *a, goldi_tid_t u, goldi_clock_t c) {
    return u != a->t && c > goldi_vc_get(&a->ts->c, u);
}

/* norace(x, t) = x ∈ h(t): W ⪯ C_t. */
static void check_x(struct jrf_access *a, const struct jrf_byte *rec, uintptr_t b) {
    count(&a->d->n_checks, 1);
    if (rec->w == GOLDI_EPOCH_NONE)
        return;
    goldi_tid_t u = goldi_epoch_tid(rec->w);
    if (u == a->t) {
        /* owner short-circuit: the last writer always has x in its row */
        count(&a->d->n_owner_hits, 1);
        return;
    }
    if (unordered(a, u, goldi_epoch_clock(rec->w)))
        note_race(a, u, goldi_epoch_clock(rec->w), rec->w_org, false, b);
}

/* x^a ∈ h(t): every atomic write since W is ⪯ C_t. */
static void check_xa(struct jrf_access *a, const struct jrf_byte *rec, uintptr_t b) {
    if (!rec->aw)
        return;
    for (uint32_t i = 0; i < rec->aw->n; i++) {
        const struct jrf_ent *e = &rec->aw->e[i];
        if (unordered(a, e->tid, e->clock))
            note_race(a, e->tid, e->clock, e->origin, true, b);
    }
}

/* Plain write: invalidate(t, x), i.e. x stays only in h(t), and x^a becomes
 * vacuous (in every row). */
static void plain_write_update(struct jrf_access *a, struct jrf_byte *rec) {
    if (rec->w != GOLDI_EPOCH_NONE && goldi_epoch_tid(rec->w) != a->t)
        count(&a->d->n_invalidate, 1);
    rec->w = goldi_epoch_of(&a->ts->c, a->t);
    rec->w_org = my_origin(a);
    goldi_free(rec->aw);   /* mixing atomic and plain writes is rare: keep bytes small */
    rec->aw = NULL;
}

/* Atomic write: x^a leaves every row except t's (t's bit unchanged): add E(t)
 * and drop the entries it covers (those are ⪯ C_t, so whichever row learns
 * E(t) learns them too). */
static void atomic_write_update(struct jrf_access *a, struct jrf_byte *rec) {
    struct jrf_aw *aw = rec->aw;
    uint32_t k = 0;
    if (aw) {
        for (uint32_t i = 0; i < aw->n; i++)
            if (unordered(a, aw->e[i].tid, aw->e[i].clock))
                aw->e[k++] = aw->e[i];
        aw->n = k;
    }
    if (!aw || aw->n == aw->cap) {
        uint32_t cap = aw ? aw->cap * 2 : 1;
        struct jrf_aw *na = goldi_alloc(sizeof *na + cap * sizeof na->e[0]);
        na->cap = cap;
        if (aw) {
            na->n = aw->n;
            goldi_memcpy(na->e, aw->e, aw->n * sizeof aw->e[0]);
            goldi_free(aw);
        }
        rec->aw = aw = na;
    }
    aw->e[aw->n++] = (struct jrf_ent){
        .tid = a->t, .clock = goldi_vc_get(&a->ts->c, a->t), .origin = my_origin(a)};
    count(&a->d->n_col_clear, 1);
}

static void jrf_on_access(void *self, const struct goldi_event *ev, uintptr_t addr, unsigned size) {
    struct jrf *d = self;
    struct jrf_access a;
    a.d = d;
    a.ev = ev;
    a.ts = goldi_hbc_thr(&d->hbc, ev->thr);
    a.t = ev->thr->tid;
    a.origin = 0;
    a.write = goldi_access_is_write(ev->kind);
    a.atomic = goldi_access_is_atomic(ev->kind);
    a.pend = a.local;
    a.n_pend = 0;
    a.cap_pend = JRF_MAX_PENDING;
    count(&d->n_pieces, 1);
    count(&d->n_bytes, size);
    goldi_shadow_word_t *w = a.write ? goldi_access_words(d->env.plane, ev->kind, addr)
                                     : goldi_shadow_word_if_present(d->env.plane, addr);
    if (!w)
        return;   /* a read of bytes never written (virgin, nothing to check), or a FREE of them */
    for (unsigned i = 0; i < size; i++) {
        struct jrf_byte *rec = (struct jrf_byte *)atomic_load_explicit(&w[i], memory_order_relaxed);
        if (!rec) {
            if (!a.write || ev->kind == GOLDI_EV_FREE)
                continue;   /* virgin: x and x^a are in every row; reads add nothing (goldi_access_skips) */
            rec = goldi_alloc(sizeof *rec);
            atomic_store_explicit(&w[i], (uintptr_t)rec, memory_order_relaxed);
            count(&d->n_records, 1);
        }
        check_x(&a, rec, addr + i);
        if (!a.atomic)
            check_xa(&a, rec, addr + i);
        if (a.write && a.atomic)
            atomic_write_update(&a, rec);
        else if (a.write)
            plain_write_update(&a, rec);
    }
    for (unsigned i = 0; i < a.n_pend; i++)
        emit_report(&a, &a.pend[i]);
    if (a.pend != a.local)
        goldi_free(a.pend);
}

/* ALLOC and FREE end the bytes' lifetime: virgin again (handbook 1.1, 2.4). */
static void reset_byte(void *ctx, uintptr_t addr, goldi_shadow_word_t *w) {
    (void)addr;
    struct jrf *d = ctx;
    struct jrf_byte *rec = (struct jrf_byte *)atomic_exchange_explicit(w, 0, memory_order_relaxed);
    if (!rec)
        return;
    goldi_free(rec->aw);
    goldi_free(rec);
    atomic_fetch_sub_explicit(&d->n_records, 1, memory_order_relaxed);
}

static void jrf_on_event(void *self, const struct goldi_event *ev) {
    struct jrf *d = self;
    goldi_hbc_on_event_lifetime(&d->hbc, ev, d->env.plane, reset_byte, d);
}

static void jrf_on_thr_free(void *self, struct goldi_thr *thr) {
    struct jrf *d = self;
    goldi_hbc_thr_free(&d->hbc, thr);
}

/* --- ops ---------------------------------------------------------------------------- */

static void jrf_create(const struct goldi_engine_env *env, struct goldi_sink *sink) {
    struct jrf *d = goldi_alloc(sizeof *d);
    d->env = *env;
    d->hbc.index = env->index;
    sink->self = d;
    sink->on_access = jrf_on_access;
    sink->on_event = jrf_on_event;
    sink->on_thr_free = jrf_on_thr_free;
    sink->free_sparse = true;   /* (goldi_access_skips) */
}

static void jrf_stats(void *self, void (*emit)(void *ctx, const char *name, uint64_t value), void *ctx) {
    struct jrf *d = self;
    emit(ctx, "jrf.access_pieces", atomic_load(&d->n_pieces));
    emit(ctx, "jrf.bytes_checked", atomic_load(&d->n_bytes));
    emit(ctx, "jrf.norace_checks", atomic_load(&d->n_checks));
    emit(ctx, "jrf.owner_short_circuits", atomic_load(&d->n_owner_hits));
    emit(ctx, "jrf.invalidations", atomic_load(&d->n_invalidate));
    emit(ctx, "jrf.atomic_column_clears", atomic_load(&d->n_col_clear));
    emit(ctx, "jrf.races", atomic_load(&d->n_races));
    emit(ctx, "jrf.hb_steps", atomic_load(&d->hbc.n_steps));
    emit(ctx, "jrf.vc_ops", atomic_load(&d->hbc.n_vc_ops));
    emit(ctx, "jrf.byte_records", atomic_load(&d->n_records));
    emit(ctx, "jrf.threads", atomic_load(&d->hbc.n_threads));
}

const struct goldi_engine_ops goldi_engine_jrf = {
    .name = "jrf",
    .summary = "JRF's happens-before summary function h: WW and WR races at the access, never RW",
    .create = jrf_create,
    .stats = jrf_stats,
};
