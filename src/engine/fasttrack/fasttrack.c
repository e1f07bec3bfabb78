/* The "fasttrack" engine: FastTrack (Flanagan & Freund, PLDI'09) in the FULL
 * mode of ALGORITHMS.md 2.0/2.2, with AW/AR entries for C11 atomics. Precise
 * (class P-FULL, handbook §3): its first report on every byte is the same
 * event the vc engine and the oracle report first. Thread and token clocks
 * live in common/hbclock; this file owns only the per-byte state.
 *
 * Per byte (one ft_byte per shadow word, 32 bytes):
 *   W   epoch c@u of the last plain write (or free), ⊥ if none this lifetime;
 *   R   epoch of the last plain read since W ("exclusive"), or FT_SHARED with
 *       the readers in x->rs ("read-shared": a sparse VC, one entry per thread
 *       that read since W, each with its own clock and origin);
 *   x   NULL until the byte is read-shared or touched by an atomic access;
 *       then also AW / AR: atomic writes / reads since W, each a sparse VC that
 *       stays a single epoch while the accesses are totally ordered.
 * Invariants: every entry of R, AW, AR is later than W in trace order (a plain
 * write empties them); at most one entry per thread in each of rs, aw, ar;
 * r == FT_SHARED iff the readers live in x->rs (then x->rs.n >= 2).
 *
 * Why sparse VCs: thread ids are never reused (T1), so a dense per-byte VC
 * costs O(max tid) even when two threads share the byte; a sparse one costs
 * O(readers since W). Looking up t's entry is then O(readers) instead of O(1),
 * paid only on the read-shared path (rare by FastTrack's measurements).
 *
 * Checks (handbook 2.0 FULL): plain read vs {W, AW}; plain write vs {W, R, AW,
 * AR}; atomic read vs {W}; atomic write vs {W, R}. After a race on a byte the
 * state is updated as if the access were ordered, so later races are reported
 * too (only the first per byte is specified, §3). */
#include "../engine.h"
#include "../common/access.h"
#include "../common/grow.h"
#include "../common/hbclock.h"
#include "../common/vc.h"
#include "../../base/alloc.h"
#include "../../base/fmt.h"
#include "../../shadow/shadow.h"

/* --- state --------------------------------------------------------------------- */

/* One access c@tid in a sparse VC. */
struct ft_ent {
    goldi_tid_t tid;
    goldi_clock_t clock;
    goldi_origin_t origin;
};

/* A sparse vector clock with origins: n entries in e[0..n). */
struct ft_vec {
    uint32_t n, cap;
    struct ft_ent *e;
};

struct ft_ext {
    struct ft_vec rs;   /* R when read-shared */
    struct ft_vec aw;   /* AW: atomic writes since W */
    struct ft_vec ar;   /* AR: atomic reads since W */
};

/* R's "read-shared" marker: tid GOLDI_TID_NONE is never a real thread. */
#define FT_SHARED goldi_epoch_make(GOLDI_TID_NONE, GOLDI_CLOCK_MAX)

struct ft_byte {
    goldi_epoch_t w;        /* W epoch, GOLDI_EPOCH_NONE if no plain write */
    goldi_epoch_t r;        /* R epoch, GOLDI_EPOCH_NONE, or FT_SHARED */
    goldi_origin_t w_org;   /* origin of W */
    goldi_origin_t r_org;   /* origin of R when it is an epoch */
    struct ft_ext *x;       /* read-shared readers and atomics, or NULL */
};
_Static_assert(sizeof(struct ft_byte) == 32, "ft_byte stays compact");

enum {
    FT_READ_SAME, FT_READ_EXCL, FT_READ_SHARE, FT_READ_SHARED,
    FT_WRITE_SAME, FT_WRITE_EXCL, FT_WRITE_SHARED,
    FT_ATOMIC_SAME, FT_ATOMIC_EXCL, FT_ATOMIC_SHARED,
    FT_N_RULES
};
static const char *const ft_rule_stat[FT_N_RULES] = {
    "fasttrack.read_same_epoch", "fasttrack.read_exclusive", "fasttrack.read_share",
    "fasttrack.read_shared", "fasttrack.write_same_epoch", "fasttrack.write_exclusive",
    "fasttrack.write_shared", "fasttrack.atomic_same_epoch", "fasttrack.atomic_exclusive",
    "fasttrack.atomic_shared",
};

struct ft {
    struct goldi_engine_env env;
    struct goldi_hbc hbc;
    _Atomic uint64_t n_rule[FT_N_RULES];
    _Atomic uint64_t n_pieces, n_bytes, n_races, n_records, n_ext;
};

static void count(_Atomic uint64_t *c, uint64_t d) {
    atomic_fetch_add_explicit(c, d, memory_order_relaxed);
}

/* --- sparse VCs ------------------------------------------------------------------ */

static struct ft_ent *vec_find(struct ft_vec *v, goldi_tid_t t) {
    for (uint32_t i = 0; i < v->n; i++)
        if (v->e[i].tid == t)
            return &v->e[i];
    return NULL;
}

static void vec_push(struct ft_vec *v, struct ft_ent e) {
    if (v->n == v->cap) {
        uint32_t cap = v->cap ? v->cap * 2 : 2;
        struct ft_ent *ne = goldi_alloc(cap * sizeof *ne);
        if (v->n)
            goldi_memcpy(ne, v->e, v->n * sizeof *ne);
        goldi_free(v->e);
        v->e = ne;
        v->cap = cap;
    }
    v->e[v->n++] = e;
}

static void vec_destroy(struct ft_vec *v) {
    goldi_free(v->e);
    v->e = NULL;
    v->n = v->cap = 0;
}

/* --- accesses ----------------------------------------------------------------------- */

/* A race found in the current piece, merged per earlier access. */
struct ft_pending {
    goldi_tid_t tid;
    goldi_clock_t clock;
    goldi_origin_t origin;
    bool write, atomic;
    const char *rule;       /* FastTrack rule that found it */
    uintptr_t lo, hi;       /* racy bytes [lo, hi] */
};
#define FT_MAX_PENDING 16

struct ft_access {
    struct ft *d;
    struct goldi_thr *thr;
    struct goldi_hbc_thr *ts;
    goldi_tid_t t;
    goldi_epoch_t et;       /* E(t) */
    goldi_origin_t origin;  /* interned lazily: only updates and reports need it */
    const struct goldi_event *ev;
    bool write, atomic;
    struct ft_pending *pend;
    unsigned n_pend, cap_pend;
    struct ft_pending local[FT_MAX_PENDING];
};

static goldi_origin_t my_origin(struct ft_access *a) {
    if (!a->origin)
        a->origin = goldi_event_origin(a->ev);
    return a->origin;
}

static void note_race(struct ft_access *a, goldi_tid_t tid, goldi_clock_t clock, goldi_origin_t org,
                      bool write, bool atomic, const char *rule, uintptr_t b) {
    for (unsigned i = 0; i < a->n_pend; i++) {
        struct ft_pending *p = &a->pend[i];
        if (p->origin == org && p->tid == tid && p->write == write && p->atomic == atomic) {
            if (b < p->lo)
                p->lo = b;
            if (b > p->hi)
                p->hi = b;
            return;
        }
    }
    a->pend = goldi_grow_local(a->pend, a->local, a->n_pend, &a->cap_pend, sizeof *a->pend);
    a->pend[a->n_pend++] = (struct ft_pending){
        .tid = tid, .clock = clock, .origin = org, .write = write, .atomic = atomic,
        .rule = rule, .lo = b, .hi = b};
}

static void emit_report(struct ft_access *a, const struct ft_pending *p) {
    struct goldi_race r;
    goldi_memset(&r, 0, sizeof r);
    r.addr = p->lo;
    r.size = (uint32_t)(p->hi - p->lo + 1);
    r.cur = my_origin(a);
    r.prev = p->origin;
    r.cur_tid = a->t;
    r.prev_tid = p->tid;
    r.cur_write = a->write;
    r.prev_write = p->write;
    r.cur_atomic = a->atomic;
    r.prev_atomic = p->atomic;
    r.engine = "fasttrack";
    char clk[80];
    goldi_vc_format(&a->ts->c, clk, sizeof clk);
    goldi_snprintf(r.why, sizeof r.why, "fasttrack %s: T%u's %s%s epoch %u@T%u is not \xe2\xaa\xaf T%u's clock %s",
                   p->rule, p->tid, p->atomic ? "atomic " : "", p->write ? "write" : "read", p->clock,
                   p->tid, a->t, clk);
    count(&a->d->n_races, 1);
    a->d->env.report(a->d->env.report_ctx, &r);
}

/* Is c@u (u != t) unordered with the current access? c@u ⪯ C_t iff c <= C_t[u]. */
static bool unordered(const struct ft_access *a, goldi_tid_t u, goldi_clock_t c) {
    return u != a->t && c > goldi_vc_get(&a->ts->c, u);
}

static void check_epoch(struct ft_access *a, goldi_epoch_t e, goldi_origin_t org, bool write,
                        bool atomic, const char *rule, uintptr_t b) {
    if (e == GOLDI_EPOCH_NONE)
        return;
    goldi_tid_t u = goldi_epoch_tid(e);
    goldi_clock_t c = goldi_epoch_clock(e);
    if (unordered(a, u, c))
        note_race(a, u, c, org, write, atomic, rule, b);
}

static void check_vec(struct ft_access *a, const struct ft_vec *v, bool write, bool atomic,
                      const char *rule, uintptr_t b) {
    for (uint32_t i = 0; i < v->n; i++)
        if (unordered(a, v->e[i].tid, v->e[i].clock))
            note_race(a, v->e[i].tid, v->e[i].clock, v->e[i].origin, write, atomic, rule, b);
}

static struct ft_ext *ext_of(struct ft_access *a, struct ft_byte *rec) {
    if (!rec->x) {
        rec->x = goldi_alloc(sizeof *rec->x);
        count(&a->d->n_ext, 1);
    }
    return rec->x;
}

/* The current epoch of t as an entry of a sparse VC. */
static struct ft_ent my_ent(struct ft_access *a) {
    return (struct ft_ent){.tid = a->t, .clock = goldi_epoch_clock(a->et), .origin = my_origin(a)};
}

/* Atomic-access set update, FastTrack's read rules applied to AW / AR: a single
 * entry ordered before t is replaced ("exclusive"), otherwise t's entry is set
 * or added ("shared"). */
static void atomic_update(struct ft_access *a, struct ft_vec *v) {
    if (v->n == 1 && !unordered(a, v->e[0].tid, v->e[0].clock)) {
        v->e[0] = my_ent(a);
        count(&a->d->n_rule[FT_ATOMIC_EXCL], 1);
        return;
    }
    struct ft_ent *e = vec_find(v, a->t);
    if (e)
        *e = my_ent(a);
    else
        vec_push(v, my_ent(a));
    count(&a->d->n_rule[FT_ATOMIC_SHARED], 1);
}

static bool atomic_same_epoch(struct ft_access *a, struct ft_byte *rec, bool write) {
    if (!rec->x)
        return false;
    struct ft_ent *e = vec_find(write ? &rec->x->aw : &rec->x->ar, a->t);
    return e && e->clock == goldi_epoch_clock(a->et);
}

static void plain_read(struct ft_access *a, struct ft_byte *rec, uintptr_t b) {
    /* [READ SAME EPOCH] */
    if (rec->r == a->et) {
        count(&a->d->n_rule[FT_READ_SAME], 1);
        return;
    }
    struct ft_ent *mine = NULL;
    if (rec->r == FT_SHARED) {
        mine = vec_find(&rec->x->rs, a->t);
        if (mine && mine->clock == goldi_epoch_clock(a->et)) {
            count(&a->d->n_rule[FT_READ_SAME], 1);
            return;
        }
    }
    check_epoch(a, rec->w, rec->w_org, true, false, "read", b);
    if (rec->x)
        check_vec(a, &rec->x->aw, true, true, "read", b);
    if (rec->r == FT_SHARED) {
        /* [READ SHARED] R[t] := C_t[t] */
        if (mine)
            *mine = my_ent(a);
        else
            vec_push(&rec->x->rs, my_ent(a));
        count(&a->d->n_rule[FT_READ_SHARED], 1);
    } else if (rec->r == GOLDI_EPOCH_NONE ||
               !unordered(a, goldi_epoch_tid(rec->r), goldi_epoch_clock(rec->r))) {
        /* [READ EXCLUSIVE] R ⪯ C_t: R := E(t) */
        rec->r = a->et;
        rec->r_org = my_origin(a);
        count(&a->d->n_rule[FT_READ_EXCL], 1);
    } else {
        /* [READ SHARE] a concurrent earlier read: R := {u:c, t:C_t[t]} */
        struct ft_ext *x = ext_of(a, rec);
        x->rs.n = 0;
        vec_push(&x->rs, (struct ft_ent){.tid = goldi_epoch_tid(rec->r),
                                          .clock = goldi_epoch_clock(rec->r), .origin = rec->r_org});
        vec_push(&x->rs, my_ent(a));
        rec->r = FT_SHARED;
        rec->r_org = 0;
        count(&a->d->n_rule[FT_READ_SHARE], 1);
    }
}

static void plain_write(struct ft_access *a, struct ft_byte *rec, uintptr_t b) {
    /* [WRITE SAME EPOCH] */
    if (rec->w == a->et) {
        count(&a->d->n_rule[FT_WRITE_SAME], 1);
        return;
    }
    bool shared = rec->r == FT_SHARED;
    const char *rule = shared ? "write-shared" : "write-exclusive";
    check_epoch(a, rec->w, rec->w_org, true, false, rule, b);
    if (shared)
        check_vec(a, &rec->x->rs, false, false, rule, b);
    else
        check_epoch(a, rec->r, rec->r_org, false, false, rule, b);
    if (rec->x) {
        check_vec(a, &rec->x->aw, true, true, rule, b);
        check_vec(a, &rec->x->ar, false, true, rule, b);
    }
    /* W := E(t); R, AW, AR := ⊥ (handbook 2.0: a plain write clears them). */
    rec->w = a->et;
    rec->w_org = my_origin(a);
    rec->r = GOLDI_EPOCH_NONE;
    rec->r_org = 0;
    if (rec->x) {
        vec_destroy(&rec->x->rs);
        vec_destroy(&rec->x->aw);
        vec_destroy(&rec->x->ar);
        goldi_free(rec->x);
        rec->x = NULL;
        atomic_fetch_sub_explicit(&a->d->n_ext, 1, memory_order_relaxed);
    }
    count(&a->d->n_rule[shared ? FT_WRITE_SHARED : FT_WRITE_EXCL], 1);
}

static void atomic_access(struct ft_access *a, struct ft_byte *rec, uintptr_t b) {
    if (atomic_same_epoch(a, rec, a->write)) {
        count(&a->d->n_rule[FT_ATOMIC_SAME], 1);
        return;
    }
    /* atomic read vs W; atomic write vs W and R (atomics never race with atomics) */
    const char *rule = a->write ? "atomic-write" : "atomic-read";
    check_epoch(a, rec->w, rec->w_org, true, false, rule, b);
    if (a->write) {
        if (rec->r == FT_SHARED)
            check_vec(a, &rec->x->rs, false, false, rule, b);
        else
            check_epoch(a, rec->r, rec->r_org, false, false, rule, b);
    }
    struct ft_ext *x = ext_of(a, rec);
    atomic_update(a, a->write ? &x->aw : &x->ar);
}

static void ft_on_access(void *self, const struct goldi_event *ev, uintptr_t addr, unsigned size) {
    struct ft *d = self;
    struct ft_access a;
    a.d = d;
    a.thr = ev->thr;
    a.ts = goldi_hbc_thr(&d->hbc, ev->thr);
    a.t = ev->thr->tid;
    a.et = goldi_epoch_of(&a.ts->c, a.t);
    a.origin = 0;
    a.ev = ev;
    a.write = goldi_access_is_write(ev->kind);
    a.atomic = goldi_access_is_atomic(ev->kind);
    a.pend = a.local;
    a.n_pend = 0;
    a.cap_pend = FT_MAX_PENDING;
    count(&d->n_pieces, 1);
    count(&d->n_bytes, size);
    goldi_shadow_word_t *w = goldi_access_words(d->env.plane, ev->kind, addr);
    if (!w)
        return;
    for (unsigned i = 0; i < size; i++) {
        if (goldi_access_skips(ev->kind, &w[i]))
            continue;
        struct ft_byte *rec = (struct ft_byte *)atomic_load_explicit(&w[i], memory_order_relaxed);
        if (!rec) {
            rec = goldi_alloc(sizeof *rec);
            atomic_store_explicit(&w[i], (uintptr_t)rec, memory_order_relaxed);
            count(&d->n_records, 1);
        }
        if (a.atomic)
            atomic_access(&a, rec, addr + i);
        else if (a.write)
            plain_write(&a, rec, addr + i);
        else
            plain_read(&a, rec, addr + i);
    }
    for (unsigned i = 0; i < a.n_pend; i++)
        emit_report(&a, &a.pend[i]);
    if (a.pend != a.local)
        goldi_free(a.pend);
}

/* ALLOC and FREE end the bytes' lifetime: no history survives (handbook 1.1). */
static void reset_byte(void *ctx, uintptr_t addr, goldi_shadow_word_t *w) {
    (void)addr;
    struct ft *d = ctx;
    struct ft_byte *rec = (struct ft_byte *)atomic_exchange_explicit(w, 0, memory_order_relaxed);
    if (!rec)
        return;
    if (rec->x) {
        vec_destroy(&rec->x->rs);
        vec_destroy(&rec->x->aw);
        vec_destroy(&rec->x->ar);
        goldi_free(rec->x);
        atomic_fetch_sub_explicit(&d->n_ext, 1, memory_order_relaxed);
    }
    goldi_free(rec);
    atomic_fetch_sub_explicit(&d->n_records, 1, memory_order_relaxed);
}

static void ft_on_event(void *self, const struct goldi_event *ev) {
    struct ft *d = self;
    goldi_hbc_on_event_lifetime(&d->hbc, ev, d->env.plane, reset_byte, d);
}

static void ft_on_thr_free(void *self, struct goldi_thr *thr) {
    struct ft *d = self;
    goldi_hbc_thr_free(&d->hbc, thr);
}

/* --- ops ---------------------------------------------------------------------------- */

static void ft_create(const struct goldi_engine_env *env, struct goldi_sink *sink) {
    struct ft *d = goldi_alloc(sizeof *d);
    d->env = *env;
    d->hbc.index = env->index;
    sink->self = d;
    sink->on_access = ft_on_access;
    sink->on_event = ft_on_event;
    sink->on_thr_free = ft_on_thr_free;
    sink->free_sparse = true;   /* (goldi_access_skips) */
}

static void ft_stats(void *self, void (*emit)(void *ctx, const char *name, uint64_t value), void *ctx) {
    struct ft *d = self;
    emit(ctx, "fasttrack.access_pieces", atomic_load(&d->n_pieces));
    emit(ctx, "fasttrack.bytes_checked", atomic_load(&d->n_bytes));
    for (int i = 0; i < FT_N_RULES; i++)
        emit(ctx, ft_rule_stat[i], atomic_load(&d->n_rule[i]));
    emit(ctx, "fasttrack.races", atomic_load(&d->n_races));
    emit(ctx, "fasttrack.hb_steps", atomic_load(&d->hbc.n_steps));
    emit(ctx, "fasttrack.vc_ops", atomic_load(&d->hbc.n_vc_ops));
    emit(ctx, "fasttrack.byte_records", atomic_load(&d->n_records));
    emit(ctx, "fasttrack.ext_records", atomic_load(&d->n_ext));
    emit(ctx, "fasttrack.threads", atomic_load(&d->hbc.n_threads));
}

const struct goldi_engine_ops goldi_engine_fasttrack = {
    .name = "fasttrack",
    .summary = "FastTrack epochs (write epoch, read epoch or read-shared VC), precise",
    .create = ft_create,
    .stats = ft_stats,
};
