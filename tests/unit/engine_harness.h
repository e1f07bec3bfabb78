/* Shared scaffolding of the engine unit tests (test_goldilocks, test_fasttrack,
 * test_jrf, test_hybrid, test_region): race logs filled through the engines'
 * report callback, stats lookup, a small scenario language that fills struct
 * goldi_event by hand and dispatches it, the ALGORITHMS.md §4 examples that
 * several engines check, and the random-trace generator of the differential
 * runs against the vc engine. Everything is static: each test binary gets its
 * own copy, and no test depends on another's state. Independent of harness.h
 * (CASE/EXPECT), which the tests include too.
 *
 * Scenarios read like the handbook's traces: every event carries a label (the
 * handbook's event number), stored as its pc (0x1000 + label, so origins
 * differ per event) and in eh_label while it is dispatched, so a race record
 * names the event that found it. Labels need not be unique or increasing. */
#ifndef GOLDI_TEST_ENGINE_HARNESS_H
#define GOLDI_TEST_ENGINE_HARNESS_H

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "event/event.h"
#include "event/sync.h"

/* --- race logs ------------------------------------------------------------------------- */

/* One reported race, with the label of the event being dispatched. */
struct eh_rec {
    int label;
    uintptr_t addr;
    uint32_t size;
    goldi_tid_t cur_tid, prev_tid;
    bool cur_write, prev_write, cur_atomic, prev_atomic;
    uintptr_t prev_pc;    /* pc of the earlier access (its origin's frame 0; 0 if none) */
    char why[160];
};

/* Records past EH_MAX_RECS in one scenario are dropped (the most any test
 * needs is under 100). */
#define EH_MAX_RECS 8192
struct eh_log {
    bool echo;            /* print each race when eh_verbose */
    int n;                /* records since the last begin() */
    pthread_mutex_t mu;   /* concurrency tests report from several threads */
    struct eh_rec r[EH_MAX_RECS];
};
#define EH_LOG_INIT(echo_) { .echo = (echo_), .mu = PTHREAD_MUTEX_INITIALIZER }

static int eh_label;      /* label of the event being dispatched */
static bool eh_verbose;   /* tests set it when run with an argument */

/* Report callback of the engines started by eh_start; ctx is the log. */
static inline void eh_on_race(void *ctx, const struct goldi_race *r) {
    struct eh_log *l = ctx;
    if (l->echo && eh_verbose)
        printf("    [%s] race @%d addr+%lu size %u T%u(%s) vs T%u(%s): %s\n", r->engine ? r->engine : "?",
               eh_label, (unsigned long)(r->addr & 0xfff), r->size, r->cur_tid, r->cur_write ? "w" : "r",
               r->prev_tid, r->prev_write ? "w" : "r", r->why);
    pthread_mutex_lock(&l->mu);
    if (l->n < EH_MAX_RECS) {
        struct eh_rec *x = &l->r[l->n++];
        x->label = eh_label;
        x->addr = r->addr;
        x->size = r->size;
        x->cur_tid = r->cur_tid;
        x->prev_tid = r->prev_tid;
        x->cur_write = r->cur_write;
        x->prev_write = r->prev_write;
        x->cur_atomic = r->cur_atomic;
        x->prev_atomic = r->prev_atomic;
        struct goldi_origin_info info;
        x->prev_pc = goldi_origin_lookup(r->prev, &info) && info.n_frames ? info.frames[0] : 0;
        memcpy(x->why, r->why, sizeof x->why);
    }
    pthread_mutex_unlock(&l->mu);
}

/* Label of the first race in l, -1 if none. */
static inline int first_label(const struct eh_log *l) { return l->n ? l->r[0].label : -1; }

/* Number of races in l found by events labelled lab. */
static inline int races_at(const struct eh_log *l, int lab) {
    int n = 0;
    for (int i = 0; i < l->n; i++)
        n += l->r[i].label == lab;
    return n;
}

/* The labels of the partners of the races at lab, as bits from label low
 * (partners' labels low to low + 31). */
static inline unsigned partners_at(const struct eh_log *l, int lab, int low) {
    unsigned bits = 0;
    for (int i = 0; i < l->n; i++)
        if (l->r[i].label == lab)
            bits |= 1u << ((int)(l->r[i].prev_pc - 0x1000) - low);
    return bits;
}

/* Canonical kind of the races at lab (§3): true ('W') if some partner is a write. */
static inline bool write_partner_at(const struct eh_log *l, int lab) {
    for (int i = 0; i < l->n; i++)
        if (l->r[i].label == lab && l->r[i].prev_write)
            return true;
    return false;
}

/* --- engines and their counters ---------------------------------------------------------- */

#define EH_MAX_ENGINES 8
static struct {
    const struct goldi_engine_ops *ops;
    struct goldi_sink *sink;
} eh_engines[EH_MAX_ENGINES];
static int eh_n_engines;
static struct eh_log *eh_logs[EH_MAX_ENGINES];   /* cleared by begin() */
static int eh_n_logs;

/* Logs filled by a test's own sink (not an engine) are cleared by begin() too. */
static inline void eh_track(struct eh_log *l) {
    if (eh_n_logs == EH_MAX_ENGINES)
        abort();
    eh_logs[eh_n_logs++] = l;
}

/* Starts ops with its own report callback; remembers ops for eh_stat. */
static inline struct goldi_sink *eh_start_cb(const struct goldi_engine_ops *ops,
                                             void (*report)(void *ctx, const struct goldi_race *r), void *ctx) {
    struct goldi_sink *s = goldi_engine_start(ops, report, ctx);
    if (eh_n_engines == EH_MAX_ENGINES)
        abort();
    eh_engines[eh_n_engines].ops = ops;
    eh_engines[eh_n_engines++].sink = s;
    return s;
}

/* Starts ops reporting into l (cleared at every begin()). */
static inline struct goldi_sink *eh_start(const struct goldi_engine_ops *ops, struct eh_log *l) {
    eh_track(l);
    return eh_start_cb(ops, eh_on_race, l);
}

static inline const struct goldi_engine_ops *eh_ops_of(const struct goldi_sink *s) {
    for (int i = 0; i < eh_n_engines; i++)
        if (eh_engines[i].sink == s)
            return eh_engines[i].ops;
    abort();
}

struct eh_stat_q { const char *name; uint64_t v; };
static inline void eh_stat_cb(void *ctx, const char *name, uint64_t v) {
    struct eh_stat_q *q = ctx;
    if (strcmp(name, q->name) == 0)
        q->v = v;
}

/* Counter name of the engine behind sink s (started by eh_start*); ~0 if it has none. */
static inline uint64_t eh_stat(struct goldi_sink *s, const char *name) {
    const struct goldi_engine_ops *ops = eh_ops_of(s);
    struct eh_stat_q q = { name, ~0ull };
    if (ops->stats)
        ops->stats(s->self, eh_stat_cb, &q);
    return q.v;
}

static inline void eh_stat_line(void *ctx, const char *name, uint64_t v) {
    (void)ctx;
    printf("    %-40s %llu\n", name, (unsigned long long)v);
}

/* Every counter of the engine behind s, after the cases ran. */
static inline void eh_print_stats(struct goldi_sink *s) {
    const struct goldi_engine_ops *ops = eh_ops_of(s);
    printf("  engine stats:\n");
    if (ops->stats)
        ops->stats(s->self, eh_stat_line, NULL);
}

/* --- scenario building ----------------------------------------------------------------------- */

/* Threads get fresh tids across the whole binary; the ones of the running
 * scenario are listed so that end() can retire them. */
static goldi_tid_t next_tid;
#define MAX_SCEN_THR 16
static struct goldi_thr *scen_thr[MAX_SCEN_THR];
static int n_scen_thr;
static bool eh_end_frees_threads;   /* end() also discards engine state (on_thr_free) and the thread */

static inline struct goldi_thr *thr_new(void) {
    struct goldi_thr *t = calloc(1, sizeof *t);
    t->tid = next_tid++;
    t->parent = GOLDI_TID_NONE;
    if (n_scen_thr < MAX_SCEN_THR)
        scen_thr[n_scen_thr++] = t;
    return t;
}

/* Fresh memory for every scenario: variables never share history. 64-byte
 * aligned, so no two variables share a granule or a cache line. */
static char eh_arena[64 << 20] __attribute__((aligned(4096)));
static size_t eh_arena_used;
static inline char *var(size_t n) {
    size_t a = (eh_arena_used + 63) & ~(size_t)63;
    eh_arena_used = a + ((n + 63) & ~(size_t)63);
    if (eh_arena_used > sizeof eh_arena)
        abort();
    return &eh_arena[a];
}

/* A sync object on a fake address of its own. */
static inline struct goldi_sync *sync_new(enum goldi_sync_kind k) { return goldi_sync_get((uintptr_t)var(8), k); }

/* Empties the race logs, within a scenario (its threads stay its own). */
static inline void clear_logs(void) {
    for (int i = 0; i < eh_n_logs; i++)
        eh_logs[i]->n = 0;
}
static inline void begin(void) {
    clear_logs();
    n_scen_thr = 0;
}

/* A zeroed event of kind k by t, without pc or label. */
static inline struct goldi_event eh_event(enum goldi_event_kind k, struct goldi_thr *t) {
    struct goldi_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = (uint8_t)k;
    ev.thr = t;
    return ev;
}

/* The event labelled l; races found while it is dispatched carry l. */
static inline struct goldi_event mk(int l, enum goldi_event_kind k, struct goldi_thr *t) {
    struct goldi_event ev = eh_event(k, t);
    ev.pc = 0x1000 + (uintptr_t)l;
    eh_label = l;
    return ev;
}
static inline void go(struct goldi_event ev) { goldi_dispatch(&ev); }

static inline void acc(int l, enum goldi_event_kind k, struct goldi_thr *t, void *p, uint32_t n) {
    struct goldi_event ev = mk(l, k, t);
    ev.addr = (uintptr_t)p;
    ev.size = n;
    go(ev);
}
static inline void wr(int l, struct goldi_thr *t, void *p) { acc(l, GOLDI_EV_WRITE, t, p, 8); }
static inline void rd(int l, struct goldi_thr *t, void *p) { acc(l, GOLDI_EV_READ, t, p, 8); }
static inline void wrn(int l, struct goldi_thr *t, void *p, uint32_t n) { acc(l, GOLDI_EV_WRITE, t, p, n); }
static inline void rdn(int l, struct goldi_thr *t, void *p, uint32_t n) { acc(l, GOLDI_EV_READ, t, p, n); }
static inline void alloc_(int l, struct goldi_thr *t, void *p, uint32_t n) { acc(l, GOLDI_EV_ALLOC, t, p, n); }
static inline void free_(int l, struct goldi_thr *t, void *p, uint32_t n) { acc(l, GOLDI_EV_FREE, t, p, n); }

static inline void fork_(int l, struct goldi_thr *p, struct goldi_thr *c) {
    struct goldi_event ev = mk(l, GOLDI_EV_FORK, p);
    ev.other = c;
    c->parent = p->tid;
    go(ev);
}
static inline void exit_(int l, struct goldi_thr *t) { go(mk(l, GOLDI_EV_EXIT, t)); }
static inline void join_(int l, struct goldi_thr *t, struct goldi_thr *c) {
    struct goldi_event ev = mk(l, GOLDI_EV_JOIN, t);
    ev.other = c;
    go(ev);
}

/* Any event on one sync object (locks with a mode, semaphores, once, signals). */
static inline void lock_(int l, enum goldi_event_kind k, struct goldi_thr *t, struct goldi_sync *o, uint8_t mode) {
    struct goldi_event ev = mk(l, k, t);
    ev.obj = o;
    ev.mode = mode;
    go(ev);
}
static inline void acq(int l, struct goldi_thr *t, struct goldi_sync *m) {
    lock_(l, GOLDI_EV_LOCK_ACQ, t, m, GOLDI_LOCK_EXCL);
}
static inline void rel(int l, struct goldi_thr *t, struct goldi_sync *m) {
    lock_(l, GOLDI_EV_LOCK_REL, t, m, GOLDI_LOCK_EXCL);
}
/* n critical sections of t that each append a release cell, to grow the
 * Goldilocks update list: on m and on a second lock in turn (t retaking
 * the lock it released last, with nothing between, resumes the deferred
 * release: no cell at all, docs/goldilocks.md). */
static inline void lock_rounds(int l, struct goldi_thr *t, struct goldi_sync *m, long n) {
    struct goldi_sync *m2 = goldi_sync_get((uintptr_t)var(8), GOLDI_SYNC_MUTEX);
    for (long i = 0; i < n; i++) {
        acq(l, t, (i & 1) ? m2 : m);
        rel(l, t, (i & 1) ? m2 : m);
    }
}
static inline void rdlock(int l, struct goldi_thr *t, struct goldi_sync *m) {
    lock_(l, GOLDI_EV_LOCK_ACQ, t, m, GOLDI_LOCK_SHARED);
}
static inline void rdunlock(int l, struct goldi_thr *t, struct goldi_sync *m) {
    lock_(l, GOLDI_EV_LOCK_REL, t, m, GOLDI_LOCK_SHARED);
}
static inline void obj_ev(int l, enum goldi_event_kind k, struct goldi_thr *t, struct goldi_sync *o) {
    lock_(l, k, t, o, 0);
}
static inline void signal_(int l, struct goldi_thr *t, struct goldi_sync *cv) { obj_ev(l, GOLDI_EV_SIGNAL, t, cv); }
static inline void wait_(int l, enum goldi_event_kind k, struct goldi_thr *t, struct goldi_sync *cv,
                         struct goldi_sync *m) {
    struct goldi_event ev = mk(l, k, t);
    ev.obj = cv;
    ev.obj2 = m;
    go(ev);
}
static inline void bar(int l, enum goldi_event_kind k, struct goldi_thr *t, struct goldi_sync *b, uint64_t g) {
    struct goldi_event ev = mk(l, k, t);
    ev.obj = b;
    ev.gen = g;
    go(ev);
}
/* Atomic op on the 8-byte atomic location at p, inside the object's lock as
 * the runtime does (the "op + record" critical section, T8). */
static inline void atom(int l, enum goldi_event_kind k, struct goldi_thr *t, void *p, unsigned mo) {
    struct goldi_event ev = mk(l, k, t);
    ev.obj = goldi_sync_get((uintptr_t)p, GOLDI_SYNC_ATOMIC);
    ev.addr = (uintptr_t)p;
    ev.size = 8;
    ev.mo = (uint8_t)mo;
    goldi_spin_lock(&ev.obj->lock);
    goldi_dispatch(&ev);
    goldi_spin_unlock(&ev.obj->lock);
}
static inline void fence(int l, struct goldi_thr *t, unsigned mo) {
    struct goldi_event ev = mk(l, GOLDI_EV_FENCE, t);
    ev.mo = (uint8_t)mo;
    go(ev);
}
#define RLX GOLDI_MO_RELAXED
#define ACQ GOLDI_MO_ACQUIRE
#define REL GOLDI_MO_RELEASE

/* Every thread of the scenario exits, so state that depends on the live
 * threads (Goldilocks' ANY compression) covers only the scenario being run. */
static inline void end(void) {
    for (int i = 0; i < n_scen_thr; i++)
        exit_(9999, scen_thr[i]);
    if (eh_end_frees_threads)
        for (int i = 0; i < n_scen_thr; i++) {
            goldi_dispatch_thr_free(scen_thr[i]);
            free(scen_thr[i]);
        }
    n_scen_thr = 0;
}

/* --- ALGORITHMS.md §4 examples shared by several engines --------------------------------------
 * Each begins a scenario and dispatches the example with the handbook's labels;
 * the caller checks its logs, then calls end(). Threads are scen_thr[0..] in
 * the order the handbook names them. */

/* A: IntBox swap (no race for anyone). */
static inline void eh_example_A(void) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new(), *T3 = thr_new();
    char *o1 = var(8), *o2 = var(8), *a = var(8), *b = var(8);
    struct goldi_sync *L1 = sync_new(GOLDI_SYNC_MUTEX), *L2 = sync_new(GOLDI_SYNC_MUTEX);
    wr(1, T0, o1); wr(2, T0, o2); wr(3, T0, a); wr(4, T0, b);
    fork_(5, T0, T1); fork_(6, T0, T2); fork_(7, T0, T3);
    acq(8, T1, L1); rd(9, T1, a); rd(10, T1, o1); wr(11, T1, o1); rel(12, T1, L1);
    acq(13, T2, L1); acq(14, T2, L2); rd(15, T2, a); rd(16, T2, b); wr(17, T2, a); wr(18, T2, b);
    rel(19, T2, L1); rel(20, T2, L2);
    acq(21, T3, L2); rd(22, T3, b); rd(23, T3, o1); wr(24, T3, o1); rel(25, T3, L2);
}

/* F: a free of a block whose granules hold records of many forms, in
 * whatever order the sink checks them. T1 writes the whole block (4 KiB
 * and 3 bytes: 512 whole granules and a partial one) and a byte of granule
 * 6 under M, then releases L; after that, unordered with T2, it writes
 * granule 2 (label 31), the high half of granule 5 (33: a half record) and
 * a byte of the partial granule (34). T3 acquires L after T1's release,
 * releases it, writes a byte of granule 6 under M (before T2 takes M) and
 * then reads granule 3 (32: T1's W is ordered before it, a split record of
 * T3 whose R is not ordered before T2). T2 acquires L and M, writes
 * granule 8 (its own record) and frees the block (40): exactly four
 * races, with 31, 32, 33 and 34; every other granule is ordered before
 * the free, T1's first epoch by one walk for hundreds of granules. Then T3,
 * ordered with nothing since, writes the whole block again with no ALLOC
 * (50): the free started the bytes afresh, so no race. Labels 10-50; the
 * caller checks the logs (partners_at(l, 40, 10)), then calls end(). */
#define EH_FREE_LEN 4096
static inline void eh_example_free_forms(void) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new(), *T3 = thr_new();
    struct goldi_sync *L = sync_new(GOLDI_SYNC_MUTEX), *M = sync_new(GOLDI_SYNC_MUTEX);
    char *b = var(EH_FREE_LEN + 3);
    fork_(1, T0, T1); fork_(2, T0, T2); fork_(3, T0, T3);
    wrn(10, T1, b, EH_FREE_LEN + 3);
    acq(11, T1, M); wrn(12, T1, b + 48, 1); rel(13, T1, M);
    rel(14, T1, L);
    wrn(31, T1, b + 16, 8);
    wrn(33, T1, b + 44, 4);
    wrn(34, T1, b + EH_FREE_LEN + 1, 1);
    acq(15, T3, L); rel(16, T3, L);
    acq(17, T3, M); wrn(18, T3, b + 50, 1); rel(19, T3, M);
    rdn(32, T3, b + 24, 8);
    acq(20, T2, L); acq(21, T2, M);
    wrn(22, T2, b + 64, 8);
    free_(40, T2, b, EH_FREE_LEN + 3);
    rel(23, T2, M); rel(24, T2, L);
    wrn(50, T3, b, EH_FREE_LEN + 3);
}

/* C: lost signal; without_signal drops C6 (then the lock chain is no condvar edge). */
static inline void eh_example_C(bool with_signal) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new();
    char *DATA = var(8), *FLAG = var(8);
    struct goldi_sync *l = sync_new(GOLDI_SYNC_MUTEX), *CV = sync_new(GOLDI_SYNC_COND);
    fork_(1, T0, T1); fork_(2, T0, T2);
    wr(3, T1, DATA); acq(4, T1, l); wr(5, T1, FLAG);
    if (with_signal)
        signal_(6, T1, CV);
    rel(7, T1, l);
    acq(8, T2, l); rd(9, T2, FLAG); rel(10, T2, l); wr(11, T2, DATA);
}

/* D: two signal/wait pairs; threads T0, S1, S2, W1, W2. bug: D24 writes Y.
 * read_pred: the waiters read their flag before waiting (D6, D9). */
static inline void eh_example_D(bool bug, bool read_pred) {
    begin();
    struct goldi_thr *T0 = thr_new(), *S1 = thr_new(), *S2 = thr_new(), *W1 = thr_new(), *W2 = thr_new();
    char *F1 = var(8), *F2 = var(8), *X = var(8), *Y = var(8);
    struct goldi_sync *m = sync_new(GOLDI_SYNC_MUTEX), *CV = sync_new(GOLDI_SYNC_COND);
    fork_(1, T0, S1); fork_(2, T0, S2); fork_(3, T0, W1); fork_(4, T0, W2);
    acq(5, W1, m);
    if (read_pred)
        rd(6, W1, F1);
    wait_(7, GOLDI_EV_WAIT_ENTER, W1, CV, m);
    acq(8, W2, m);
    if (read_pred)
        rd(9, W2, F2);
    wait_(10, GOLDI_EV_WAIT_ENTER, W2, CV, m);
    wr(11, S1, X); acq(12, S1, m); wr(13, S1, F1); signal_(14, S1, CV); rel(15, S1, m);
    wr(16, S2, Y); acq(17, S2, m); wr(18, S2, F2); signal_(19, S2, CV); rel(20, S2, m);
    wait_(21, GOLDI_EV_WAIT_EXIT, W1, CV, m); rd(22, W1, F1); rel(23, W1, m); wr(24, W1, bug ? Y : X);
    wait_(25, GOLDI_EV_WAIT_EXIT, W2, CV, m); rd(26, W2, F2); rel(27, W2, m); wr(28, W2, Y);
}

/* E: message passing through one atomic flag with the given orders. */
static inline void eh_example_E(unsigned st_mo, unsigned ld_mo) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new();
    char *d = var(8), *f = var(8);
    fork_(1, T0, T1); fork_(2, T0, T2);
    wr(3, T1, d); atom(4, GOLDI_EV_ATOMIC_STORE, T1, f, st_mo);
    atom(5, GOLDI_EV_ATOMIC_LOAD, T2, f, ld_mo);
    rd(6, T2, d);
}

/* H: read-shared then a write (H10 races with H5 for P); ok adds T1's
 * acquire/release of L (labels 81, 82), which orders it. */
static inline void eh_example_H(bool ok) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new(), *T3 = thr_new();
    char *x = var(8);
    struct goldi_sync *L = sync_new(GOLDI_SYNC_MUTEX);
    wr(1, T0, x); fork_(2, T0, T1); fork_(3, T0, T2); fork_(4, T0, T3);
    rd(5, T1, x); rd(6, T2, x); acq(7, T2, L); rel(8, T2, L);
    if (ok) {
        acq(81, T1, L); rel(82, T1, L);
    }
    acq(9, T3, L); wr(10, T3, x); exit_(11, T1);
}

/* The G-ALOCK then the G-RWALOCK regression in one scenario (a write after
 * releasing L, or under a read lock, is not protected by it). Returns the
 * first label in log after the G-ALOCK half (8 expected); G-RWALOCK's race
 * is at 14. */
static inline int eh_regressions_G_ALOCK_G_RWALOCK(const struct eh_log *log) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new();
    char *x = var(8), *y = var(8);
    struct goldi_sync *L = sync_new(GOLDI_SYNC_MUTEX), *R = sync_new(GOLDI_SYNC_RWLOCK);
    fork_(1, T0, T1); fork_(2, T0, T2);
    acq(3, T1, L); wr(4, T1, x); rel(5, T1, L); wr(6, T1, x); acq(7, T2, L); wr(8, T2, x); rel(9, T2, L);
    int first = first_label(log);
    rdlock(10, T1, R); wr(11, T1, y); rdunlock(12, T1, R); rdlock(13, T2, R); wr(14, T2, y); rdunlock(15, T2, R);
    return first;
}

/* --- random traces for the differential runs against vc ---------------------------------------- */

/* xorshift64: every test seeds eh_rng itself, so its traces stay the same. */
static uint64_t eh_rng = 0x9E3779B97F4A7C15ull;
static inline unsigned eh_rnd(unsigned n) {
    eh_rng ^= eh_rng << 13;
    eh_rng ^= eh_rng >> 7;
    eh_rng ^= eh_rng << 17;
    return (unsigned)(eh_rng % n);
}

#define EH_NV 4                        /* plain 8-byte variables */
#define EH_NA 2                        /* atomic locations (also accessed plainly now and then) */
#define EH_NM 2                        /* mutexes */
#define EH_NB ((EH_NV + EH_NA) * 8)    /* bytes of a round's memory */
#define EH_MAX_RT 6                    /* threads of a round, T0 included */
#define EH_MAX_LIVES 32                /* lifetimes per variable and round */

/* What a round may do. op = eh_rnd(n_ops) picks a plain access below plain,
 * then a mutex op below mutex, rwlock below rwlock, atomic below atomic, a
 * misc op below misc (eh_rnd(n_misc): fence, free+alloc, sem post, sem wait,
 * with all_sync once and barrier), then exit or join. */
struct eh_random_cfg {
    unsigned thread_choices;   /* 2 + eh_rnd(thread_choices) threads */
    int steps;
    unsigned n_ops, plain, mutex, rwlock, atomic, misc, n_misc;
    bool all_sync;             /* also condvar waits/signals, once and barriers */
    bool burst;                /* a noise thread appends 70K lock events at steps 30 and 60 */
    void (*on_memory)(uintptr_t mem);   /* a test's own oracle learns the round's memory */
    bool halves;               /* plain accesses mostly 4 bytes on a granule's half (int arrays) */
};
/* Every sync kind (fasttrack, jrf). */
#define EH_RANDOM_ALL_SYNC ((struct eh_random_cfg){ 4, 100, 24, 9, 12, 14, 19, 21, 6, true, false, NULL })

/* One generated round: what the checks and eh_random_finish need. */
struct eh_round {
    char *mem;                                     /* EH_NV variables, then EH_NA atomics */
    int nt;                                        /* threads T[0..nt) */
    struct goldi_thr *T[EH_MAX_RT], *noise;
    bool exited[EH_MAX_RT], joined[EH_MAX_RT];
    int free_label[EH_NV][EH_MAX_LIVES], n_free[EH_NV];   /* labels of each variable's frees */
};

/* One random well-formed execution: forks, plain accesses of every size and
 * offset, mutexes, rwlocks, semaphores, atomics of every kind and order,
 * fences, free+alloc, exits and joins (with all_sync also once, barriers of
 * all live threads, condvar waits and signals). A free and the alloc that
 * follows share one label, so a lifetime ends and restarts at once. Begins a
 * scenario; labels start at 1 and grow by one per step. */
static inline void eh_random_round(struct eh_round *g, const struct eh_random_cfg *cfg) {
    begin();
    memset(g, 0, sizeof *g);
    int nt = g->nt = 2 + (int)eh_rnd(cfg->thread_choices);
    struct goldi_thr **T = g->T;
    bool *exited = g->exited;
    int held_m[EH_NM], rw_w = -1, rw_r[EH_MAX_RT] = { 0 };
    for (int i = 0; i < EH_NM; i++)
        held_m[i] = -1;
    char *mem = g->mem = var(EH_NB);
    if (cfg->on_memory)
        cfg->on_memory((uintptr_t)mem);
    struct goldi_sync *M[EH_NM], *RW = sync_new(GOLDI_SYNC_RWLOCK), *S = sync_new(GOLDI_SYNC_SEM);
    struct goldi_sync *O = NULL, *B = NULL, *CV = NULL;
    if (cfg->all_sync) {
        O = sync_new(GOLDI_SYNC_ONCE);
        B = sync_new(GOLDI_SYNC_BARRIER);
        CV = sync_new(GOLDI_SYNC_COND);
    }
    bool once_done = false;
    uint64_t bar_gen = 0;
    int sem_count = 0;
    for (int i = 0; i < EH_NM; i++)
        M[i] = sync_new(GOLDI_SYNC_MUTEX);
    T[0] = thr_new();
    int l = 1;
    for (int i = 1; i < nt; i++) {
        T[i] = thr_new();
        if (eh_rnd(2))
            acc(l++, GOLDI_EV_WRITE, T[0], mem + eh_rnd(EH_NV) * 8, 8);
        fork_(l++, T[0], T[i]);
    }
    struct goldi_sync *NMX[2] = { NULL, NULL };
    if (cfg->burst) {
        g->noise = thr_new();
        NMX[0] = sync_new(GOLDI_SYNC_MUTEX);
        NMX[1] = sync_new(GOLDI_SYNC_MUTEX);   /* (two in turn: each release appends a cell, lock_rounds) */
        fork_(l++, T[0], g->noise);
    }
    for (int step = 0; step < cfg->steps; step++, l++) {
        if (cfg->burst && (step == 30 || step == 60)) {
            struct goldi_event a = mk(l, GOLDI_EV_LOCK_ACQ, g->noise), r = mk(l, GOLDI_EV_LOCK_REL, g->noise);
            for (int k = 0; k < 35000; k++) {
                a.obj = r.obj = NMX[k & 1];
                goldi_dispatch(&a);
                goldi_dispatch(&r);
            }
        }
        int i = (int)eh_rnd((unsigned)nt);
        if (exited[i])
            continue;
        struct goldi_thr *t = T[i];
        unsigned op = eh_rnd(cfg->n_ops);
        if (op < cfg->plain) {
            unsigned sz = 1u << eh_rnd(4), off = eh_rnd(9 - sz);
            if (cfg->halves && eh_rnd(4) != 0)
                sz = 4, off = 4 * eh_rnd(2);
            char *p = mem + eh_rnd(EH_NV + (eh_rnd(4) == 0 ? EH_NA : 0)) * 8 + off;
            acc(l, eh_rnd(2) ? GOLDI_EV_WRITE : GOLDI_EV_READ, t, p, sz);
        } else if (op < cfg->mutex) {
            int m = (int)eh_rnd(EH_NM);
            if (held_m[m] == i) {
                if (cfg->all_sync && eh_rnd(4) == 0) {
                    wait_(l, GOLDI_EV_WAIT_ENTER, t, CV, M[m]);
                    wait_(l, GOLDI_EV_WAIT_EXIT, t, CV, M[m]);
                } else {
                    rel(l, t, M[m]);
                    held_m[m] = -1;
                }
            } else if (held_m[m] < 0) {
                acq(l, t, M[m]);
                held_m[m] = i;
            } else if (cfg->all_sync) {
                obj_ev(l, eh_rnd(2) ? GOLDI_EV_SIGNAL : GOLDI_EV_BROADCAST, t, CV);
            }
        } else if (op < cfg->rwlock) {
            if (rw_w == i) {
                rel(l, t, RW);
                rw_w = -1;
            } else if (rw_r[i]) {
                rdunlock(l, t, RW);
                rw_r[i] = 0;
            } else if (rw_w < 0) {
                int readers = 0;
                for (int k = 0; k < nt; k++)
                    readers += rw_r[k];
                if (eh_rnd(2) || readers) {
                    rdlock(l, t, RW);
                    rw_r[i] = 1;
                } else {
                    acq(l, t, RW);
                    rw_w = i;
                }
            }
        } else if (op < cfg->atomic) {
            static const enum goldi_event_kind ks[] = { GOLDI_EV_ATOMIC_LOAD, GOLDI_EV_ATOMIC_STORE,
                                                        GOLDI_EV_ATOMIC_RMW, GOLDI_EV_ATOMIC_CASFAIL };
            /* drawn in this order: GCC evaluated the three draws of the
             * former one-call form right to left, and the seeds' traces
             * depend on it */
            unsigned mo = eh_rnd(6);
            char *p = mem + (EH_NV + eh_rnd(EH_NA)) * 8;
            atom(l, ks[eh_rnd(4)], t, p, mo);
        } else if (op < cfg->misc) {
            unsigned sub = eh_rnd(cfg->n_misc);
            if (sub == 0) {
                fence(l, t, eh_rnd(6));
            } else if (sub == 1) {                  /* end + restart a lifetime */
                int v = (int)eh_rnd(EH_NV);
                char *p = mem + v * 8;
                if (g->n_free[v] == EH_MAX_LIVES - 1)
                    continue;
                g->free_label[v][g->n_free[v]++] = l;
                free_(l, t, p, 8);
                alloc_(l, t, p, 8);
            } else if (sub == 2) {
                obj_ev(l, GOLDI_EV_SEM_POST, t, S);
                sem_count++;
            } else if (sub == 3 && sem_count) {
                obj_ev(l, GOLDI_EV_SEM_WAIT, t, S);
                sem_count--;
            } else if (!cfg->all_sync) {
                /* a sem wait with nothing posted: no event (with all_sync it
                 * falls through to a barrier, as fasttrack's and jrf's seeded
                 * traces always did) */
            } else if (sub == 4) {
                obj_ev(l, once_done ? GOLDI_EV_ONCE_RET : GOLDI_EV_ONCE_DONE, t, O);
                once_done = true;
            } else {                                /* barrier: every live thread */
                B->bar_count = 0;                   /* (as the interceptor counts: goldilocks' dead marks) */
                for (int k = 0; k < nt; k++)
                    B->bar_count += !exited[k];
                for (int k = 0; k < nt; k++)
                    if (!exited[k])
                        bar(l, GOLDI_EV_BAR_ARRIVE, T[k], B, bar_gen);
                for (int k = 0; k < nt; k++)
                    if (!exited[k])
                        bar(l, GOLDI_EV_BAR_DEPART, T[k], B, bar_gen);
                bar_gen++;
            }
        } else if (i != 0) {                        /* exit (holding nothing) */
            bool holds = rw_w == i || rw_r[i];
            for (int m = 0; m < EH_NM; m++)
                holds |= held_m[m] == i;
            if (!holds) {
                exit_(l, t);
                exited[i] = true;
            }
        } else {                                    /* T0 joins an exited thread */
            for (int k = 1; k < nt; k++)
                if (exited[k] && !g->joined[k]) {
                    join_(l, T[0], T[k]);
                    g->joined[k] = true;
                    break;
                }
        }
    }
}

/* Ends the round's threads (after the checks: exits report nothing). */
static inline void eh_random_finish(struct eh_round *g) {
    for (int k = 0; k < g->nt; k++)
        if (!g->exited[k])
            exit_(9999, g->T[k]);
    if (g->noise)
        exit_(9999, g->noise);
    n_scen_thr = 0;
}

/* First race per (byte, lifetime) of a round: label and kind ('W' = WW/WR,
 * 'R' = RW), label -1 if none. The free's own reports belong to the old
 * lifetime, so byte b's lifetime at label l is the number of frees of b at
 * labels < l. */
struct eh_first { int label; char kind; };

static inline int eh_life_of(const struct eh_round *g, size_t b, int label) {
    int v = (int)(b / 8), n = 0;
    if (v >= EH_NV)
        return 0;
    for (int k = 0; k < g->n_free[v]; k++)
        n += g->free_label[v][k] < label;
    return n;
}

/* writes_only: only races with a write partner count (the WX view, §3). */
static inline void eh_first_per_byte(const struct eh_log *l, const struct eh_round *g, bool writes_only,
                                     struct eh_first out[EH_NB][EH_MAX_LIVES]) {
    uintptr_t base = (uintptr_t)g->mem;
    for (size_t i = 0; i < EH_NB; i++)
        for (int k = 0; k < EH_MAX_LIVES; k++)
            out[i][k] = (struct eh_first){ -1, 0 };
    for (int k = 0; k < l->n; k++)
        for (uint32_t j = 0; j < l->r[k].size; j++) {
            uintptr_t b = l->r[k].addr + j;
            if (b < base || b >= base + EH_NB || (writes_only && !l->r[k].prev_write))
                continue;
            struct eh_first *f = &out[b - base][eh_life_of(g, b - base, l->r[k].label)];
            if (f->label < 0) {
                f->label = l->r[k].label;
                f->kind = 'R';
            }
            if (f->label == l->r[k].label && l->r[k].prev_write)
                f->kind = 'W';
        }
}

#endif
