/* The "valor" engine: Valor (Biswas et al., OOPSLA'15; seed 002; ALGORITHMS.md
 * 2.7), conflicts between release-free regions with last-writer metadata and
 * lazy read validation. A region of thread t ends only at a release-ish event
 * (rg_is_boundary_rfr). Write/write and write/read conflicts are found eagerly
 * from the last writer; read/write conflicts are found when the reader's
 * region ends, by checking that nothing it read changed meanwhile. Every
 * conflict is a true happens-before race; see docs/region.md for what is
 * missed and when each conflict is reported.
 *
 * Per byte (one va_byte per shadow word, plain accesses only; never freed,
 * because read logs of other threads may still point at it):
 *   v      version: bumped by the first write of every region that writes
 *          the byte; monotonic for the whole record, across lifetimes;
 *   W      ⟨v, c@u⟩ last writer this lifetime, with its origin (tid NONE: none);
 *   W2     the latest write this lifetime by a thread other than W's: the
 *          partner to name when the reader itself wrote last (see validate);
 *   life   lifetime number; ALLOC/FREE of a byte that was accessed since the
 *          last reset saves ⟨v, W, W2⟩ as the end of lifetime life, then life++.
 * Per thread: c_T and a read log of (byte, v, life, origin) since the region
 * began.
 * Rules (2.7): write by T: if W.epoch == e_T return; if W.epoch ongoing, u≠T:
 * WW conflict; W := ⟨v+1, e_T⟩. Read by T: if W.epoch == e_T return (own
 * write, no log); if ongoing, u≠T: WR conflict; log (x, v). At the end of T's
 * region (before c_T++): for each (x, v) with W = ⟨v', e'⟩: RW conflict iff
 * v' ≠ v ∧ ¬(e' == e_T ∧ v' == v+1) [recon]: T's own single bump is accepted;
 * any remote write in between makes v' ≥ v+2 or e' ≠ e_T.
 *
 * Locking: byte records are read and written under their granule lock (held
 * by the dispatcher in on_access; taken by us, one at a time, in validation
 * and by goldi_shadow_for_each in the reset). A thread's state belongs to the
 * thread, and to its joiner when the thread's EXIT was never seen. */
#include "region.h"
#include "../../base/alloc.h"
#include "../../base/fmt.h"
#include "../../shadow/shadow.h"

/* --- state -------------------------------------------------------------------------- */

/* One write c@tid with its origin (tid NONE: none). */
struct va_wr {
    goldi_tid_t tid;
    uint32_t c;
    goldi_origin_t origin;
};
#define VA_WR_NONE ((struct va_wr){GOLDI_TID_NONE, 0, 0})

struct va_byte {
    uint32_t v;                 /* version */
    uint32_t life;              /* lifetime number */
    struct va_wr w;             /* W */
    struct va_wr w2;            /* W2: latest write by a tid != w.tid, this lifetime */
    uint32_t end_v;             /* v, W, W2 at the end of lifetime life-1 */
    struct va_wr end_w, end_w2;
    goldi_tid_t lg_tid;         /* log filter: lg_tid already logged (lg_v) in region lg_c */
    uint32_t lg_c, lg_v;
    goldi_tid_t val_tid;        /* validation of val_tid's region val_c already reported this byte */
    uint32_t val_c;
    bool dirty;                 /* accessed since the last reset */
};

/* A logged read: the byte had version v in lifetime life when T read it. */
struct va_log {
    struct va_byte *rec;
    uintptr_t addr;
    uint32_t v, life;
    goldi_origin_t origin;      /* the read (cur of an RW report) */
};

struct va_thr {
    struct rg_thr rg;           /* c_T, published counter, ended; first (region.h) */
    uint32_t n_log, cap_log;
    struct va_log *log;         /* reads of the current region */
};

struct va {
    struct goldi_engine_env env;
    struct rg_counters *ctr;
    bool sfr;                   /* use FastRCD's boundaries (differential test only) */
    const char *name;
    _Atomic uint64_t n_pieces, n_bytes, n_eager, n_rw, n_region_ends, n_records, n_threads;
    _Atomic uint64_t n_logged, n_validated, n_stale, n_log_max;
};

static void count(_Atomic uint64_t *c, uint64_t d) {
    atomic_fetch_add_explicit(c, d, memory_order_relaxed);
}

static struct va_thr *thr_state(struct va *d, struct goldi_thr *thr) {
    struct va_thr *s = thr->estate[d->env.index];
    if (GOLDI_LIKELY(s))
        return s;
    s = goldi_alloc(sizeof *s);
    rg_thr_start(d->ctr, &s->rg, thr->tid);
    thr->estate[d->env.index] = s;
    count(&d->n_threads, 1);
    return s;
}

static bool is_ongoing(struct va *d, const struct va_wr *w) {
    return rg_is_ongoing(d->ctr, (struct rg_epoch){w->tid, w->c});
}

/* --- accesses --------------------------------------------------------------------------- */

static void log_read(struct va *d, struct va_thr *s, struct va_byte *rec, uintptr_t b, goldi_origin_t origin) {
    if (s->n_log == s->cap_log) {
        uint32_t cap = s->cap_log ? s->cap_log * 2 : 64;
        struct va_log *l = goldi_alloc(cap * sizeof *l);
        if (s->n_log)
            goldi_memcpy(l, s->log, s->n_log * sizeof *l);
        goldi_free(s->log);
        s->log = l;
        s->cap_log = cap;
    }
    s->log[s->n_log++] = (struct va_log){rec, b, rec->v, rec->life, origin};
    count(&d->n_logged, 1);
}

static void on_access(void *self, const struct goldi_event *ev, uintptr_t addr, unsigned size) {
    struct va *d = self;
    if (!rg_is_plain(ev->kind))
        return;   /* 2.7: only plain accesses are tracked */
    struct va_thr *s = thr_state(d, ev->thr);
    goldi_tid_t t = ev->thr->tid;
    bool write = ev->kind != GOLDI_EV_READ;
    goldi_origin_t origin = 0;   /* interned on first use */
    struct rg_pending p;
    rg_pending_init(&p, &d->env, d->name, "release");
    count(&d->n_pieces, 1);
    count(&d->n_bytes, size);
    goldi_shadow_word_t *w = goldi_access_words(d->env.plane, ev->kind, addr);
    if (!w)
        return;
    for (unsigned i = 0; i < size; i++) {
        uintptr_t b = addr + i;
        if (goldi_access_skips(ev->kind, &w[i]))
            continue;
        struct va_byte *rec = (struct va_byte *)atomic_load_explicit(&w[i], memory_order_relaxed);
        if (!rec) {
            rec = goldi_alloc(sizeof *rec);
            rec->w = rec->w2 = rec->end_w = rec->end_w2 = VA_WR_NONE;
            rec->lg_tid = rec->val_tid = GOLDI_TID_NONE;
            atomic_store_explicit(&w[i], (uintptr_t)rec, memory_order_relaxed);
            count(&d->n_records, 1);
        }
        rec->dirty = true;
        if (rec->w.tid == t && rec->w.c == s->rg.c)
            continue;   /* own write in this region: no check, no log, no bump */
        if (!write && rec->lg_tid == t && rec->lg_c == s->rg.c && rec->lg_v == rec->v)
            continue;   /* already logged at this version in this region */
        if (!origin)
            origin = goldi_event_origin(ev);
        if (rec->w.tid != t && is_ongoing(d, &rec->w)) {
            struct rg_conflict c = {
                .cur = origin,
                .prev = rec->w.origin,
                .cur_tid = t,
                .prev_ep = {rec->w.tid, rec->w.c},
                .cur_write = write,
                .prev_write = true,
            };
            rg_pending_add(&p, &c, b);
        }
        if (!write) {
            log_read(d, s, rec, b, origin);
            rec->lg_tid = t;
            rec->lg_c = s->rg.c;
            rec->lg_v = rec->v;
            continue;
        }
        if (rec->w.tid != t)
            rec->w2 = rec->w;   /* W was the latest write by a thread other than t */
        rec->v++;
        rec->w = (struct va_wr){t, s->rg.c, origin};
    }
    rg_pending_flush(&p);
    count(&d->n_eager, p.n_emitted);
}

/* ALLOC and FREE end the byte's lifetime. Eager checks forget W (no conflict
 * crosses lifetimes); the end state is kept for reads logged in it, which are
 * validated against it (a free by another thread during the reader's region
 * is a write that conflicts with the read). Reads logged two or more
 * accessed lifetimes ago find no state and are dropped (n_stale). */
static void reset_byte(void *ctx, uintptr_t addr, goldi_shadow_word_t *w) {
    (void)ctx;
    struct va_byte *rec = (struct va_byte *)atomic_load_explicit(w, memory_order_relaxed);
    if (!rec || !rec->dirty)
        return;
    rec->end_v = rec->v;
    rec->end_w = rec->w;
    rec->end_w2 = rec->w2;
    rec->life++;
    rec->w = rec->w2 = VA_WR_NONE;
    rec->lg_tid = GOLDI_TID_NONE;
    rec->dirty = false;
}

/* --- region end: read validation ---------------------------------------------------------- */

/* Validates every read s logged in its region (thread tid, region s->rg.c), reports
 * RW conflicts with cur = the read and prev = the write that invalidated it,
 * and empties the log. */
static void validate(struct va *d, goldi_tid_t tid, struct va_thr *s) {
    struct rg_pending p;
    rg_pending_init(&p, &d->env, d->name, "release");
    count(&d->n_validated, s->n_log);
    if (s->n_log > atomic_load_explicit(&d->n_log_max, memory_order_relaxed))
        atomic_store_explicit(&d->n_log_max, s->n_log, memory_order_relaxed);
    for (uint32_t i = 0; i < s->n_log; i++) {
        const struct va_log *e = &s->log[i];
        struct va_byte *rec = e->rec;
        goldi_spinlock_t *lk = goldi_granule_lock(e->addr);
        goldi_spin_lock(lk);
        uint32_t v;
        struct va_wr w, w2;
        if (e->life == rec->life) {
            v = rec->v;
            w = rec->w;
            w2 = rec->w2;
        } else if (e->life + 1 == rec->life) {
            v = rec->end_v;
            w = rec->end_w;
            w2 = rec->end_w2;
        } else {
            goldi_spin_unlock(lk);
            count(&d->n_stale, 1);
            continue;
        }
        bool own_bump = w.tid == tid && w.c == s->rg.c && v == e->v + 1;
        if (v != e->v && !own_bump && !(rec->val_tid == tid && rec->val_c == s->rg.c)) {
            rec->val_tid = tid;
            rec->val_c = s->rg.c;
            /* The last write is after the read. If it is our own (in this
             * region), some other thread bumped in between (v ≥ e->v + 2),
             * and W2 is the latest such write. */
            const struct va_wr *by = w.tid != tid ? &w : &w2;
            struct rg_conflict c = {
                .cur = e->origin,
                .prev = by->origin,
                .cur_tid = tid,
                .prev_ep = {by->tid, by->c},
                .cur_write = false,
                .prev_write = true,
                .cur_c = s->rg.c,
                .v_read = e->v,
                .v_now = v,
                .validation = true,
            };
            rg_pending_add(&p, &c, e->addr);
        }
        goldi_spin_unlock(lk);
    }
    rg_pending_flush(&p);
    count(&d->n_rw, p.n_emitted);
    s->n_log = 0;
    if (s->cap_log > (1u << 16)) {
        /* a huge region once: do not keep its log's memory for ever */
        goldi_free(s->log);
        s->log = NULL;
        s->cap_log = 0;
    }
}

/* Ends s's region: validate its reads, then publish c_T + 1. Both happen
 * before the boundary's release takes effect (releases are recorded before
 * the real release, T8), so a thread that synchronizes with it sees the
 * region as ended and no conflict of it is lost. */
static void end_region(struct va *d, goldi_tid_t tid, struct va_thr *s) {
    validate(d, tid, s);
    rg_thr_advance(&s->rg);
    count(&d->n_region_ends, 1);
}

static void end_region_cb(void *ctx, goldi_tid_t tid, struct rg_thr *s) {
    end_region(ctx, tid, (struct va_thr *)s);   /* rg is va_thr's first member */
}

/* --- events ------------------------------------------------------------------------------------ */

static void on_event(void *self, const struct goldi_event *ev) {
    struct va *d = self;
    struct va_thr *s = thr_state(d, ev->thr);
    if ((ev->kind == GOLDI_EV_ALLOC || ev->kind == GOLDI_EV_FREE) && ev->size)
        goldi_shadow_for_each(d->env.plane, ev->addr, ev->size, reset_byte, d);
    /* a child's last region ends with validation, too */
    rg_on_event(ev, &s->rg, d->env.index, d->sfr ? rg_is_boundary_sfr : rg_is_boundary_rfr, end_region_cb, d);
}

static void on_thr_free(void *self, struct goldi_thr *thr) {
    struct va *d = self;
    struct va_thr *s = thr->estate[d->env.index];
    if (!s)
        return;
    if (!s->rg.ended) {
        /* Discarded without EXIT (a trace that ended early): its last
         * region's reads are dropped unvalidated. */
        rg_thr_advance(&s->rg);
    }
    goldi_free(s->log);
    goldi_free(s);
    thr->estate[d->env.index] = NULL;
    atomic_fetch_sub_explicit(&d->n_threads, 1, memory_order_relaxed);
}

/* --- ops ------------------------------------------------------------------------------------------ */

static void create_common(const struct goldi_engine_env *env, struct goldi_sink *sink, bool sfr) {
    struct va *d = goldi_alloc(sizeof *d);
    d->env = *env;
    d->ctr = goldi_alloc(sizeof *d->ctr);
    d->sfr = sfr;
    d->name = sfr ? "valor-sfr" : "valor";
    sink->self = d;
    sink->on_access = on_access;
    sink->on_event = on_event;
    sink->on_thr_free = on_thr_free;
    sink->free_sparse = true;   /* (goldi_access_skips) */
}
static void create(const struct goldi_engine_env *env, struct goldi_sink *sink) { create_common(env, sink, false); }
static void create_sfr(const struct goldi_engine_env *env, struct goldi_sink *sink) { create_common(env, sink, true); }

static void stats(void *self, void (*emit)(void *ctx, const char *name, uint64_t value), void *ctx) {
    struct va *d = self;
    emit(ctx, "valor.access_pieces", atomic_load(&d->n_pieces));
    emit(ctx, "valor.bytes_checked", atomic_load(&d->n_bytes));
    emit(ctx, "valor.eager_conflicts", atomic_load(&d->n_eager));
    emit(ctx, "valor.rw_conflicts", atomic_load(&d->n_rw));
    emit(ctx, "valor.region_ends", atomic_load(&d->n_region_ends));
    emit(ctx, "valor.reads_logged", atomic_load(&d->n_logged));
    emit(ctx, "valor.log_entries_validated", atomic_load(&d->n_validated));
    emit(ctx, "valor.log_max", atomic_load(&d->n_log_max));
    emit(ctx, "valor.stale_log_entries", atomic_load(&d->n_stale));
    emit(ctx, "valor.byte_records", atomic_load(&d->n_records));
    emit(ctx, "valor.threads", atomic_load(&d->n_threads));
}

const struct goldi_engine_ops goldi_engine_valor = {
    .name = "valor",
    .summary = "Valor: release-free region conflicts, last writer + lazy read validation (sound, misses races)",
    .create = create,
    .stats = stats,
};

const struct goldi_engine_ops goldi_engine_valor_sfr = {
    .name = "valor-sfr",
    .summary = "Valor with FastRCD's synchronization-free regions (differential testing only)",
    .create = create_sfr,
    .stats = stats,
};
