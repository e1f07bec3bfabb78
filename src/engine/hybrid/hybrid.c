/* The "hybrid-short" and "hybrid-long" engines: Helgrind+'s memory state
 * machines MSM-short and MSM-long (Jannesari et al.; ALGORITHMS.md 2.6), a
 * hybrid of locksets and thread segments, with Helgrind+'s condition-variable
 * handling and our replacement for its binary loop analysis. docs/hybrid.md
 * explains the rules and what the engines report relative to happens-before.
 *
 * Thread segments are vector clocks (common/hbclock.h). Segment edges come from
 * every event of handbook 1.2 *except locks*: fork/join/exit, barriers,
 * semaphores, once, atomics and fences (flag ATOMIC_EDGES, always on), through
 * goldi_event_hb_steps(); lock acquire/release and the mutex half of
 * cond_wait only change the locksets L_t (all held locks) and Lw_t (held in
 * write mode). A byte's segment TS_d is stored as an epoch c@u (u's own clock
 * entry when it made the access): TS_d ⪯ TS_t iff c <= C_t[u], exactly as in
 * FastTrack, because u increments its entry after every release-type step.
 *
 * Condition variables (Helgrind+ fig. 6):
 *   R_t, W_t  plain locations (first byte of each access) read / written since
 *             t's last user-level lock or unlock: a ring of HY_RW_CAP entries
 *             each (older entries fall out; counted as rw_ring_evictions).
 *   signal    DS(d) := (snapshot of C_t, m, t) for d in W_t, m = the lock t
 *             holds in write mode (latest acquired); TS_cv ⊔= C_t (the "fake
 *             segment after all signallers"); then inc(t) (a new segment).
 *   wait_exit C_t ⊔= DS(d).seg for every d in R_t with a DS recorded by
 *             another thread; if none: C_t ⊔= TS_cv.
 *   predicate read (our lost-signal rule, handbook 2.6 [design]): a plain
 *             read by t of d while t holds m, where DS(d) = (s, m, u != t),
 *             does C_t ⊔= s after the state-machine step. The edge is a real
 *             happens-before edge (u wrote d and signalled holding m, then
 *             released m; t holds m now, so it acquired m after that), so it
 *             fires whether or not t ever calls wait and can hide no HB race.
 * DS(d) lives in d's byte record, so ALLOC/FREE forget it with the byte.
 *
 * Locking: byte records only under their granule lock (on_access, shadow
 * for_each, and the DS updates at signal / wait_exit, which take the granule
 * lock themselves, one at a time). Thread state: its own thread, its forker
 * before it runs, its joiner after it ended. Token clocks (TS_cv, S_o): those
 * of common/hbclock, under its token locks. Snapshots are immutable and
 * reference counted. */
#include "../engine.h"
#include "../common/access.h"
#include "../common/hbclock.h"
#include "../common/lockset.h"
#include "../common/partner.h"
#include "../common/vc.h"
#include "../../base/alloc.h"
#include "../../base/fmt.h"
#include "../../shadow/shadow.h"

/* --- state ----------------------------------------------------------------- */

enum hy_state {
    HY_NEW,      /* no access this lifetime */
    HY_EXCLR,    /* exclusive, last access a read, TS_d = its segment */
    HY_EXCLW,    /* exclusive, last access a write */
    HY_EXCLRW,   /* MSM-long: exclusive again after a forgiven lockset exhaustion */
    HY_SHR,      /* shared read: C_d = common locks of the readers */
    HY_SHM,      /* shared modified (MSM-long: ShM1, first exhaustion forgiven) */
    HY_SHM2,     /* MSM-long: shared modified, exhaustion is reported */
    HY_RACE,     /* reported; sink */
};
static const char *const hy_state_names[2][8] = {
    {"New", "ExclR", "ExclW", "ExclRW", "ShR", "ShM", "ShM2", "Race"},
    {"New", "ExclR", "ExclW", "ExclRW", "ShR", "ShM1", "ShM2", "Race"},
};

/* A segment snapshot (the signaller's clock at a signal), shared by every
 * DS(d) recorded at that signal. Immutable after creation. */
struct hy_seg {
    _Atomic uint32_t refs;
    goldi_vc_t vc;
};

/* Per byte. Invariants: state != HY_NEW => ts is the segment of an access of
 * this lifetime; c is meaningful in ShR/ShM/ShM2; ds != NULL => ds holds one
 * reference and ds_tid wrote this byte (as the first byte of an access)
 * before signalling. */
struct hy_byte {
    uint8_t state;          /* enum hy_state */
    goldi_epoch_t ts;       /* TS_d */
    goldi_lockset_t c;      /* C_d */
    struct goldi_partners partners;  /* report partners (common/partner.h) */
    struct hy_seg *ds;      /* DS(d): signaller's segment, or NULL */
    uint64_t ds_mutex;      /* token id of the lock the signaller held, 0 = none */
    goldi_tid_t ds_tid;     /* the signaller */
};

#define HY_RW_CAP 64        /* R_t / W_t ring size */

/* hbclock allocates these (hbc.thr_size), so hb must stay first. */
struct hy_thr {
    struct goldi_hbc_thr hb;    /* hb.c = C_t: TS_t is c@t; fence and exit clocks */
    uint32_t held_version;  /* thr->held_version the locksets were built for */
    bool held_valid;
    goldi_lockset_t L, Lw;  /* L_t, Lw_t */
    uint32_t nr, nw;        /* entries added to rset / wset since the last reset */
    uintptr_t rset[HY_RW_CAP], wset[HY_RW_CAP];   /* R_t, W_t (ring: slot n % CAP) */
};

struct hy {
    struct goldi_engine_env env;
    bool lng;               /* MSM-long */
    const char *name;
    struct goldi_hbc hbc;   /* C_t, fence clocks, S_o; TS_cv is the condvar token's S_o */
    _Atomic uint64_t n_pieces, n_bytes, n_races, n_records, n_segs, n_ds_set, n_wait_ds, n_wait_fake, n_pred_edges, n_ring_evict;
};

static void count(_Atomic uint64_t *c, int64_t d) {
    atomic_fetch_add_explicit(c, (uint64_t)d, memory_order_relaxed);
}

static struct hy_thr *thr_state(struct hy *d, struct goldi_thr *thr) {
    return (struct hy_thr *)goldi_hbc_thr(&d->hbc, thr);
}

static void refresh_locks(struct hy_thr *s, const struct goldi_thr *thr) {
    if (s->held_valid && s->held_version == thr->held_version)
        return;
    s->L = goldi_lockset_of_thr(thr, false);
    s->Lw = goldi_lockset_of_thr(thr, true);
    s->held_version = thr->held_version;
    s->held_valid = true;
}

static void seg_unref(struct hy_seg *g) {
    if (g && atomic_fetch_sub_explicit(&g->refs, 1, memory_order_acq_rel) == 1) {
        goldi_vc_destroy(&g->vc);
        goldi_free(g);
    }
}

static struct hy_byte *byte_rec(struct hy *d, goldi_shadow_word_t *w) {
    struct hy_byte *rec = (struct hy_byte *)atomic_load_explicit(w, memory_order_relaxed);
    if (!rec) {
        rec = goldi_alloc(sizeof *rec);
        atomic_store_explicit(w, (uintptr_t)rec, memory_order_relaxed);
        count(&d->n_records, 1);
    }
    return rec;
}

/* --- reports ----------------------------------------------------------------- */

struct hy_pending {
    struct goldi_acc_ref prev;
    uintptr_t lo, hi;
    goldi_epoch_t ts;         /* TS_d at the race (for the explanation) */
    goldi_lockset_t c_before; /* C_d before the step */
    uint8_t from;             /* state before the step */
};

struct goldi_acc_refess {
    struct hy *d;
    struct goldi_thr *thr;
    struct hy_thr *ts;
    struct goldi_acc_ref me;
    goldi_epoch_t e;        /* E(t) = TS_t as an epoch */
    struct hy_pending pend[GOLDI_GRANULE];
    unsigned n_pend;
};

static void note_race(struct goldi_acc_refess *a, const struct hy_byte *rec, uintptr_t b, uint8_t from,
                      goldi_lockset_t c_before) {
    struct goldi_acc_ref p = goldi_partners_pick(&rec->partners, a->me.tid, a->me.write);
    for (unsigned i = 0; i < a->n_pend; i++) {
        struct hy_pending *q = &a->pend[i];
        if (q->prev.origin == p.origin && q->prev.tid == p.tid && q->prev.write == p.write) {
            q->hi = b;
            return;
        }
    }
    struct hy_pending *q = &a->pend[a->n_pend++];
    q->prev = p;
    q->lo = q->hi = b;
    q->ts = rec->ts;
    q->c_before = c_before;
    q->from = from;
}

static void emit_report(struct goldi_acc_refess *a, const struct hy_pending *q) {
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
    r.engine = a->d->name;
    char clk[48], cs[40], hs[40];
    goldi_vc_format(&a->ts->hb.c, clk, sizeof clk);
    goldi_lockset_format(q->c_before, cs, sizeof cs);
    goldi_lockset_format(a->me.write ? a->ts->Lw : a->ts->L, hs, sizeof hs);
    bool shared = q->from == HY_SHR || q->from == HY_SHM || q->from == HY_SHM2;
    goldi_snprintf(r.why, sizeof r.why,
                   "%s: %s->Race: segment T%u@%u \xe2\x88\xa5 T%u %s (locks give no edge); locks %s%s%s",
                   a->d->name, hy_state_names[a->d->lng][q->from], goldi_epoch_tid(q->ts),
                   goldi_epoch_clock(q->ts), a->me.tid, clk, hs, shared ? " \xe2\x88\xa9 C " : "",
                   shared ? cs : "");
    count(&a->d->n_races, 1);
    a->d->env.report(a->d->env.report_ctx, &r);
}

/* --- the memory state machines ------------------------------------------------ */

/* One MSM step on rec (ALGORITHMS.md 2.6 tables). Returns true on a race. */
static bool msm_step(struct goldi_acc_refess *a, struct hy_byte *rec) {
    bool write = a->me.write, lng = a->d->lng;
    goldi_lockset_t mine = write ? a->ts->Lw : a->ts->L;
    goldi_epoch_t e = a->e;
    /* TS_d ⪯ TS_t; evaluated at most once per step */
    bool ord = rec->state != HY_NEW && goldi_epoch_leq(rec->ts, &a->ts->hb.c);
    switch ((enum hy_state)rec->state) {
    case HY_NEW:
        rec->state = write ? HY_EXCLW : HY_EXCLR;
        rec->ts = e;
        return false;
    case HY_EXCLR:
    case HY_EXCLW:
        if (ord) {
            rec->state = write ? HY_EXCLW : HY_EXCLR;
            rec->ts = e;
        } else if (!write && rec->state == HY_EXCLR) {
            rec->state = HY_SHR;                      /* keep TS_d */
            rec->c = a->ts->L;
        } else if (mine != GOLDI_LOCKSET_EMPTY) {
            rec->state = HY_SHM;                      /* MSM-long: ShM1 */
            rec->ts = e;                              /* current segment: the paper, not the code */
            rec->c = mine;
        } else {
            return true;
        }
        return false;
    case HY_EXCLRW:                                   /* MSM-long only */
        if (!write) {
            rec->state = ord ? HY_SHR : HY_SHM2;      /* keep TS_d */
            rec->c = a->ts->L;
        } else if (rec->ts == e) {
            /* same segment: stay */
        } else if (ord) {
            rec->ts = e;
        } else if (mine != GOLDI_LOCKSET_EMPTY) {
            rec->state = HY_SHM2;                     /* keep TS_d */
            rec->c = mine;
        } else {
            return true;
        }
        return false;
    case HY_SHR:
        rec->c = goldi_lockset_intersect(rec->c, mine);
        if (!write)
            return false;                             /* TS_d not updated */
        if (lng) {
            rec->state = rec->c == GOLDI_LOCKSET_EMPTY ? HY_EXCLRW : HY_SHM;
        } else {
            if (rec->c == GOLDI_LOCKSET_EMPTY && !ord)
                return true;
            rec->state = HY_SHM;
        }
        rec->ts = e;
        return false;
    case HY_SHM:
        rec->c = goldi_lockset_intersect(rec->c, mine);
        if (rec->c == GOLDI_LOCKSET_EMPTY) {
            if (lng)
                rec->state = HY_EXCLRW;               /* first exhaustion forgiven */
            else if (ord)
                rec->state = write ? HY_EXCLW : HY_EXCLR;
            else
                return true;
        }
        rec->ts = e;
        return false;
    case HY_SHM2:
        rec->c = goldi_lockset_intersect(rec->c, mine);
        if (rec->c == GOLDI_LOCKSET_EMPTY) {
            if (!ord)
                return true;
            rec->state = HY_EXCLRW;
        }
        rec->ts = e;
        return false;
    case HY_RACE:
        return false;
    }
    return false;
}

/* The lost-signal rule at a predicate read (file comment). Returns the
 * signaller's snapshot to join (with a reference), or NULL. */
static struct hy_seg *predicate_edge(struct goldi_acc_refess *a, const struct hy_byte *rec) {
    if (!rec->ds || rec->ds_tid == a->me.tid || !rec->ds_mutex)
        return NULL;
    if (!goldi_lockset_contains(a->ts->L, rec->ds_mutex))
        return NULL;
    atomic_fetch_add_explicit(&rec->ds->refs, 1, memory_order_relaxed);
    return rec->ds;
}

static void hy_on_access(void *self, const struct goldi_event *ev, uintptr_t addr, unsigned size) {
    struct hy *d = self;
    if (goldi_access_is_atomic(ev->kind))
        return;                      /* atomic accesses do not change the state (2.6) */
    struct goldi_acc_refess a;
    a.d = d;
    a.thr = ev->thr;
    a.ts = thr_state(d, ev->thr);
    refresh_locks(a.ts, ev->thr);
    a.me.origin = goldi_event_origin(ev);
    a.me.tid = ev->thr->tid;
    a.me.write = ev->kind == GOLDI_EV_WRITE || ev->kind == GOLDI_EV_FREE;
    a.e = goldi_epoch_of(&a.ts->hb.c, a.me.tid);
    a.n_pend = 0;
    count(&d->n_pieces, 1);
    count(&d->n_bytes, size);
    struct hy_seg *edge = NULL;
    goldi_shadow_word_t *w = goldi_access_words(d->env.plane, ev->kind, addr);
    if (!w)
        return;
    for (unsigned i = 0; i < size; i++) {
        if (goldi_access_skips(ev->kind, &w[i]))
            continue;
        struct hy_byte *rec = byte_rec(d, w + i);
        if (rec->state != HY_RACE) {
            uint8_t from = rec->state;
            goldi_lockset_t c_before = rec->c;
            if (msm_step(&a, rec)) {
                note_race(&a, rec, addr + i, from, c_before);
                rec->state = HY_RACE;
            }
        }
        goldi_partners_note(&rec->partners, &a.me);
        if (ev->kind == GOLDI_EV_READ && addr + i == ev->addr && a.ts->L != GOLDI_LOCKSET_EMPTY)
            edge = predicate_edge(&a, rec);
    }
    for (unsigned i = 0; i < a.n_pend; i++)
        emit_report(&a, &a.pend[i]);
    if (edge) {
        goldi_vc_join(&a.ts->hb.c, &edge->vc);
        seg_unref(edge);
        count(&d->n_pred_edges, 1);
    }
}

/* ALLOC and FREE: the bytes start a new lifetime; DS(d) goes with them. */
static void reset_byte(void *ctx, uintptr_t addr, goldi_shadow_word_t *w) {
    (void)addr;
    struct hy *d = ctx;
    struct hy_byte *rec = (struct hy_byte *)atomic_exchange_explicit(w, 0, memory_order_relaxed);
    if (!rec)
        return;
    seg_unref(rec->ds);
    goldi_free(rec);
    count(&d->n_records, -1);
}

/* --- R_t / W_t and condition variables ------------------------------------------ */

static void ring_add(struct hy *d, uintptr_t *ring, uint32_t *n, uintptr_t loc) {
    uint32_t k = *n < HY_RW_CAP ? *n : HY_RW_CAP;
    for (uint32_t i = 1; i <= 4 && i <= k; i++)          /* cheap dedup of recent entries */
        if (ring[(*n - i) % HY_RW_CAP] == loc)
            return;
    if (*n >= HY_RW_CAP)
        count(&d->n_ring_evict, 1);
    ring[*n % HY_RW_CAP] = loc;
    (*n)++;
}

/* The lock whose critical section a signal is in: the latest acquired lock
 * still held in write mode (0 if none). */
static uint64_t signal_mutex(const struct goldi_thr *thr) {
    for (uint32_t i = thr->n_held < GOLDI_MAX_HELD ? thr->n_held : GOLDI_MAX_HELD; i-- > 0;)
        if (thr->held[i].obj && thr->held[i].mode == GOLDI_LOCK_EXCL)
            return thr->held[i].obj->tok[0].id;
    return 0;
}

static void on_signal(struct hy *d, const struct goldi_event *ev, struct hy_thr *ts) {
    struct goldi_thr *thr = ev->thr;
    struct hy_seg *g = goldi_alloc(sizeof *g);
    atomic_store_explicit(&g->refs, 1, memory_order_relaxed);
    goldi_vc_copy(&g->vc, &ts->hb.c);
    count(&d->n_segs, 1);
    uint64_t m = signal_mutex(thr);
    uint32_t k = ts->nw < HY_RW_CAP ? ts->nw : HY_RW_CAP;
    for (uint32_t i = 0; i < k; i++) {
        uintptr_t loc = ts->wset[i];
        bool dup = false;
        for (uint32_t j = 0; j < i && !dup; j++)
            dup = ts->wset[j] == loc;
        if (dup)
            continue;
        goldi_spinlock_t *lk = goldi_granule_lock(loc);
        goldi_spin_lock(lk);
        struct hy_byte *rec = byte_rec(d, goldi_shadow_word(d->env.plane, loc));
        seg_unref(rec->ds);
        atomic_fetch_add_explicit(&g->refs, 1, memory_order_relaxed);
        rec->ds = g;
        rec->ds_mutex = m;
        rec->ds_tid = thr->tid;
        goldi_spin_unlock(lk);
        count(&d->n_ds_set, 1);
    }
    seg_unref(g);
    /* TS_cv := NewSegment(TS_t, TS_cv): a join; nobody's accesses carry it */
    goldi_hbc_tok_join_from(&d->hbc, &ev->obj->tok[0], &ts->hb.c);
    goldi_vc_inc(&ts->hb.c, thr->tid);               /* TS_t := NewSegment(TS_t) */
}

static void on_wait_exit(struct hy *d, const struct goldi_event *ev, struct hy_thr *ts) {
    struct goldi_thr *thr = ev->thr;
    bool matched = false;
    uint32_t k = ts->nr < HY_RW_CAP ? ts->nr : HY_RW_CAP;
    for (uint32_t i = 0; i < k; i++) {
        uintptr_t loc = ts->rset[i];
        goldi_shadow_word_t *w = goldi_shadow_word_if_present(d->env.plane, loc);
        if (!w)
            continue;
        goldi_spinlock_t *lk = goldi_granule_lock(loc);
        goldi_spin_lock(lk);
        struct hy_byte *rec = (struct hy_byte *)atomic_load_explicit(w, memory_order_relaxed);
        if (rec && rec->ds && rec->ds_tid != thr->tid) {
            goldi_vc_join(&ts->hb.c, &rec->ds->vc);   /* our own clock: no other lock needed */
            matched = true;
        }
        goldi_spin_unlock(lk);
    }
    if (matched) {
        count(&d->n_wait_ds, 1);
        return;
    }
    /* no write/read relation: order after every signaller so far */
    goldi_hbc_tok_join_into(&d->hbc, &ev->obj->tok[0], &ts->hb.c);
    count(&d->n_wait_fake, 1);
}

/* --- events; segment edges: the hb steps of every non-lock event ------------------- */

static void hy_on_event(void *self, const struct goldi_event *ev) {
    struct hy *d = self;
    struct goldi_thr *thr = ev->thr;
    struct hy_thr *ts = thr_state(d, thr);
    switch ((enum goldi_event_kind)ev->kind) {
    case GOLDI_EV_LOCK_ACQ:
    case GOLDI_EV_LOCK_REL:
        /* user-level lock()/unlock(): no segment edge; R_t, W_t restart */
        ts->nr = ts->nw = 0;
        return;
    case GOLDI_EV_WAIT_ENTER:
        return;                            /* internal unlock: R_t, W_t kept */
    case GOLDI_EV_WAIT_EXIT:
        on_wait_exit(d, ev, ts);
        return;
    case GOLDI_EV_SIGNAL:
    case GOLDI_EV_BROADCAST:
        on_signal(d, ev, ts);
        return;
    case GOLDI_EV_READ:
        if (ev->size)
            ring_add(d, ts->rset, &ts->nr, ev->addr);
        return;
    case GOLDI_EV_WRITE:
        if (ev->size)
            ring_add(d, ts->wset, &ts->nw, ev->addr);
        return;
    case GOLDI_EV_ALLOC:
    case GOLDI_EV_FREE:
        if (ev->size)
            goldi_shadow_for_each(d->env.plane, ev->addr, ev->size, reset_byte, d);
        return;
    case GOLDI_EV_FORK:
    case GOLDI_EV_EXIT:
    case GOLDI_EV_JOIN:
    case GOLDI_EV_BAR_ARRIVE:
    case GOLDI_EV_BAR_DEPART:
    case GOLDI_EV_SEM_POST:
    case GOLDI_EV_SEM_WAIT:
    case GOLDI_EV_ONCE_DONE:
    case GOLDI_EV_ONCE_RET:
    case GOLDI_EV_ATOMIC_LOAD:
    case GOLDI_EV_ATOMIC_STORE:
    case GOLDI_EV_ATOMIC_RMW:
    case GOLDI_EV_ATOMIC_CASFAIL:
    case GOLDI_EV_ATOMIC_READ_SYNC:
    case GOLDI_EV_FENCE:
    case GOLDI_EV_COUNT:
        break;
    }
    goldi_hbc_on_event(&d->hbc, ev);     /* a new segment after every release (T6) */
}

static void hy_on_thr_free(void *self, struct goldi_thr *thr) {
    struct hy *d = self;
    goldi_hbc_thr_free(&d->hbc, thr);    /* hy_thr's own fields need no destruction */
}

/* --- ops ---------------------------------------------------------------------------- */

static void create(const struct goldi_engine_env *env, struct goldi_sink *sink, bool lng) {
    struct hy *d = goldi_alloc(sizeof *d);
    d->env = *env;
    d->lng = lng;
    d->name = lng ? "hybrid-long" : "hybrid-short";
    d->hbc.index = env->index;
    d->hbc.thr_size = sizeof(struct hy_thr);
    sink->self = d;
    sink->on_access = hy_on_access;
    sink->on_event = hy_on_event;
    sink->on_thr_free = hy_on_thr_free;
    sink->free_sparse = true;   /* (goldi_access_skips) */
}
static void create_short(const struct goldi_engine_env *env, struct goldi_sink *sink) { create(env, sink, false); }
static void create_long(const struct goldi_engine_env *env, struct goldi_sink *sink) { create(env, sink, true); }

/* Counter names per engine ("hybrid-short.races", ...). */
#define HY_STATS(X)                                                   \
    X(access_pieces, n_pieces) X(bytes_checked, n_bytes) X(races, n_races) \
    X(byte_records, n_records) X(threads, hbc.n_threads) X(hb_steps, hbc.n_steps)  \
    X(signal_snapshots, n_segs) X(ds_recorded, n_ds_set)                   \
    X(wait_write_read_edges, n_wait_ds) X(wait_fake_segment_edges, n_wait_fake) \
    X(predicate_read_edges, n_pred_edges) X(rw_ring_evictions, n_ring_evict)

static void stats(void *self, void (*emit)(void *ctx, const char *name, uint64_t value), void *ctx) {
    struct hy *d = self;
    struct goldi_lockset_stats ls;
    goldi_lockset_get_stats(&ls);
#define HY_EMIT(name, field)                                                              \
    emit(ctx, d->lng ? "hybrid-long." #name : "hybrid-short." #name, atomic_load(&d->field));
    HY_STATS(HY_EMIT)
#undef HY_EMIT
    emit(ctx, d->lng ? "hybrid-long.locksets_interned" : "hybrid-short.locksets_interned", ls.n_sets);
    emit(ctx, d->lng ? "hybrid-long.lockset_memo_hits" : "hybrid-short.lockset_memo_hits", ls.memo_hits);
    emit(ctx, d->lng ? "hybrid-long.lockset_memo_misses" : "hybrid-short.lockset_memo_misses", ls.memo_misses);
}

const struct goldi_engine_ops goldi_engine_hybrid_short = {
    .name = "hybrid-short",
    .summary = "Helgrind+ MSM-short: locksets + thread segments, condvar write/read relation",
    .create = create_short,
    .stats = stats,
};

const struct goldi_engine_ops goldi_engine_hybrid_long = {
    .name = "hybrid-long",
    .summary = "Helgrind+ MSM-long: like hybrid-short, forgives the first lockset exhaustion",
    .create = create_long,
    .stats = stats,
};
