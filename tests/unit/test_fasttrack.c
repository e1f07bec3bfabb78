/* Unit tests of the FastTrack engine: the worked examples of ALGORITHMS.md §4
 * (P column), each epoch rule and its counter, byte granularity, lifetimes,
 * atomics, memory release, real threads dispatching concurrently, and a random
 * differential run against the vc engine: the first race per byte (event and
 * kind WW/WR/RW) must agree exactly (class P-FULL, §3). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "engine/engine.h"
#include "event/event.h"
#include "event/sync.h"

/* --- race logs ------------------------------------------------------------------ */

struct rec {
    int label;
    uintptr_t addr;
    uint32_t size;
    goldi_tid_t cur_tid, prev_tid;
    bool cur_write, prev_write, cur_atomic, prev_atomic;
};
#define MAX_RECS 8192
struct log {
    struct rec r[MAX_RECS];
    int n;
    pthread_mutex_t mu;   /* the concurrency test reports from several threads */
};
static struct log ft_log = { .mu = PTHREAD_MUTEX_INITIALIZER }, vc_log = { .mu = PTHREAD_MUTEX_INITIALIZER };
static int label;
static struct goldi_sink *ft_sink;
static bool verbose;

static void on_race(void *ctx, const struct goldi_race *r) {
    struct log *l = ctx;
    if (l == &ft_log && verbose)
        printf("    race @%d addr+%lu size %u T%u(%s) vs T%u(%s): %s\n", label,
               (unsigned long)(r->addr & 0xfff), r->size, r->cur_tid, r->cur_write ? "w" : "r",
               r->prev_tid, r->prev_write ? "w" : "r", r->why);
    pthread_mutex_lock(&l->mu);
    if (l->n < MAX_RECS) {
        struct rec *x = &l->r[l->n++];
        x->label = label;
        x->addr = r->addr;
        x->size = r->size;
        x->cur_tid = r->cur_tid;
        x->prev_tid = r->prev_tid;
        x->cur_write = r->cur_write;
        x->prev_write = r->prev_write;
        x->cur_atomic = r->cur_atomic;
        x->prev_atomic = r->prev_atomic;
    }
    pthread_mutex_unlock(&l->mu);
}

struct stat_q { const char *name; uint64_t v; };
static void stat_cb(void *ctx, const char *name, uint64_t v) {
    struct stat_q *q = ctx;
    if (strcmp(name, q->name) == 0)
        q->v = v;
}
static uint64_t stat_of(const char *name) {
    struct stat_q q = { name, ~0ull };
    goldi_engine_fasttrack.stats(ft_sink->self, stat_cb, &q);
    return q.v;
}
static void stat_print(void *ctx, const char *name, uint64_t v) {
    (void)ctx;
    printf("    %-40s %llu\n", name, (unsigned long long)v);
}

/* --- scenario building --------------------------------------------------------------- */

static goldi_tid_t next_tid;
#define MAX_SCEN_THR 16
static struct goldi_thr *scen_thr[MAX_SCEN_THR];
static int n_scen_thr;

static struct goldi_thr *thr_new(void) {
    struct goldi_thr *t = calloc(1, sizeof *t);
    t->tid = next_tid++;
    t->parent = GOLDI_TID_NONE;
    if (n_scen_thr < MAX_SCEN_THR)
        scen_thr[n_scen_thr++] = t;
    return t;
}

static char arena[64 << 20] __attribute__((aligned(4096)));
static size_t arena_used;
static char *var(size_t n) {
    size_t a = (arena_used + 63) & ~(size_t)63;
    arena_used = a + ((n + 63) & ~(size_t)63);
    if (arena_used > sizeof arena)
        abort();
    return &arena[a];
}
static struct goldi_sync *sync_new(enum goldi_sync_kind k) { return goldi_sync_get((uintptr_t)var(8), k); }

static void begin(void) {
    ft_log.n = vc_log.n = 0;
    n_scen_thr = 0;
}

static struct goldi_event mk(int l, enum goldi_event_kind k, struct goldi_thr *t) {
    struct goldi_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = (uint8_t)k;
    ev.thr = t;
    ev.pc = 0x1000 + (uintptr_t)l;
    label = l;
    return ev;
}
static void go(struct goldi_event ev) { goldi_dispatch(&ev); }
static void acc(int l, enum goldi_event_kind k, struct goldi_thr *t, void *p, uint32_t n) {
    struct goldi_event ev = mk(l, k, t);
    ev.addr = (uintptr_t)p;
    ev.size = n;
    go(ev);
}
static void wr(int l, struct goldi_thr *t, void *p) { acc(l, GOLDI_EV_WRITE, t, p, 8); }
static void rd(int l, struct goldi_thr *t, void *p) { acc(l, GOLDI_EV_READ, t, p, 8); }
static void fork_(int l, struct goldi_thr *p, struct goldi_thr *c) {
    struct goldi_event ev = mk(l, GOLDI_EV_FORK, p);
    ev.other = c;
    c->parent = p->tid;
    go(ev);
}
static void exit_(int l, struct goldi_thr *t) { go(mk(l, GOLDI_EV_EXIT, t)); }
static void join_(int l, struct goldi_thr *t, struct goldi_thr *c) {
    struct goldi_event ev = mk(l, GOLDI_EV_JOIN, t);
    ev.other = c;
    go(ev);
}
static void lock_(int l, enum goldi_event_kind k, struct goldi_thr *t, struct goldi_sync *o, uint8_t mode) {
    struct goldi_event ev = mk(l, k, t);
    ev.obj = o;
    ev.mode = mode;
    go(ev);
}
static void acq(int l, struct goldi_thr *t, struct goldi_sync *m) { lock_(l, GOLDI_EV_LOCK_ACQ, t, m, GOLDI_LOCK_EXCL); }
static void rel(int l, struct goldi_thr *t, struct goldi_sync *m) { lock_(l, GOLDI_EV_LOCK_REL, t, m, GOLDI_LOCK_EXCL); }
static void rdlock(int l, struct goldi_thr *t, struct goldi_sync *m) { lock_(l, GOLDI_EV_LOCK_ACQ, t, m, GOLDI_LOCK_SHARED); }
static void rdunlock(int l, struct goldi_thr *t, struct goldi_sync *m) { lock_(l, GOLDI_EV_LOCK_REL, t, m, GOLDI_LOCK_SHARED); }
static void obj_ev(int l, enum goldi_event_kind k, struct goldi_thr *t, struct goldi_sync *o) { lock_(l, k, t, o, 0); }
static void wait_(int l, enum goldi_event_kind k, struct goldi_thr *t, struct goldi_sync *cv, struct goldi_sync *m) {
    struct goldi_event ev = mk(l, k, t);
    ev.obj = cv;
    ev.obj2 = m;
    go(ev);
}
static void bar(int l, enum goldi_event_kind k, struct goldi_thr *t, struct goldi_sync *b, uint64_t g) {
    struct goldi_event ev = mk(l, k, t);
    ev.obj = b;
    ev.gen = g;
    go(ev);
}
static void atom(int l, enum goldi_event_kind k, struct goldi_thr *t, void *p, unsigned mo) {
    struct goldi_event ev = mk(l, k, t);
    ev.obj = goldi_sync_get((uintptr_t)p, GOLDI_SYNC_ATOMIC);
    ev.addr = (uintptr_t)p;
    ev.size = 8;
    ev.mo = (uint8_t)mo;
    goldi_spin_lock(&ev.obj->lock);
    goldi_dispatch(&ev);
    goldi_spin_unlock(&ev.obj->lock);
}
static void fence(int l, struct goldi_thr *t, unsigned mo) {
    struct goldi_event ev = mk(l, GOLDI_EV_FENCE, t);
    ev.mo = (uint8_t)mo;
    go(ev);
}
#define RLX GOLDI_MO_RELAXED
#define ACQ GOLDI_MO_ACQUIRE
#define REL GOLDI_MO_RELEASE

static void end(void) {
    for (int i = 0; i < n_scen_thr; i++)
        exit_(9999, scen_thr[i]);
    n_scen_thr = 0;
}

static int first_label(void) { return ft_log.n ? ft_log.r[0].label : -1; }
static int races_at(int l) {
    int n = 0;
    for (int i = 0; i < ft_log.n; i++)
        n += ft_log.r[i].label == l;
    return n;
}
/* Canonical kind of the reports at label l (§3): 'W' if some partner is a write. */
static bool write_partner_at(int l) {
    for (int i = 0; i < ft_log.n; i++)
        if (ft_log.r[i].label == l && ft_log.r[i].prev_write)
            return true;
    return false;
}

/* --- handbook §4 examples (P column) ------------------------------------------------------ */

CASE(fasttrack_example_A_intbox_swap) {
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
    EXPECT_EQ(ft_log.n, 0);
    end();
}

CASE(fasttrack_example_E_message_passing) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new();
    char *d = var(8), *f = var(8), *d2 = var(8), *f2 = var(8);
    fork_(1, T0, T1); fork_(2, T0, T2);
    wr(3, T1, d); atom(4, GOLDI_EV_ATOMIC_STORE, T1, f, REL);
    atom(5, GOLDI_EV_ATOMIC_LOAD, T2, f, ACQ); rd(6, T2, d);
    EXPECT_EQ(ft_log.n, 0);
    /* E-rlx: relaxed store/load publish nothing */
    wr(13, T1, d2); atom(14, GOLDI_EV_ATOMIC_STORE, T1, f2, RLX);
    atom(15, GOLDI_EV_ATOMIC_LOAD, T2, f2, RLX); rd(16, T2, d2);
    EXPECT_EQ(first_label(), 16);
    EXPECT(write_partner_at(16));
    end();
}

CASE(fasttrack_example_F_fences) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new();
    char *d = var(8), *f = var(8), *d2 = var(8), *f2 = var(8);
    fork_(1, T0, T1); fork_(2, T0, T2);
    wr(3, T1, d); fence(4, T1, REL); atom(5, GOLDI_EV_ATOMIC_STORE, T1, f, RLX);
    atom(6, GOLDI_EV_ATOMIC_LOAD, T2, f, RLX); fence(7, T2, ACQ); rd(8, T2, d);
    EXPECT_EQ(ft_log.n, 0);
    /* F-b: fence after the store publishes nothing to that store */
    wr(13, T1, d2); atom(15, GOLDI_EV_ATOMIC_STORE, T1, f2, RLX); fence(14, T1, REL);
    atom(16, GOLDI_EV_ATOMIC_LOAD, T2, f2, RLX); fence(17, T2, ACQ); rd(18, T2, d2);
    EXPECT_EQ(first_label(), 18);
    end();
}

CASE(fasttrack_example_G_release_sequence) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new(), *T3 = thr_new();
    char *d = var(8), *f = var(8), *d2 = var(8), *f2 = var(8);
    fork_(1, T0, T1); fork_(2, T0, T2); fork_(3, T0, T3);
    wr(4, T1, d); atom(5, GOLDI_EV_ATOMIC_STORE, T1, f, REL); atom(6, GOLDI_EV_ATOMIC_RMW, T3, f, RLX);
    atom(7, GOLDI_EV_ATOMIC_LOAD, T2, f, ACQ); rd(8, T2, d);
    EXPECT_EQ(ft_log.n, 0);
    /* G-break: a relaxed store ends the sequence */
    wr(14, T1, d2); atom(15, GOLDI_EV_ATOMIC_STORE, T1, f2, REL); atom(16, GOLDI_EV_ATOMIC_STORE, T3, f2, RLX);
    atom(17, GOLDI_EV_ATOMIC_LOAD, T2, f2, ACQ); rd(18, T2, d2);
    EXPECT_EQ(first_label(), 18);
    end();
}

/* H: the read-shared VC is what finds H10 (storing only the last reader misses it). */
CASE(fasttrack_example_H_read_shared) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new(), *T3 = thr_new();
    char *x = var(8);
    struct goldi_sync *L = sync_new(GOLDI_SYNC_MUTEX);
    uint64_t share0 = stat_of("fasttrack.read_share"), wsh0 = stat_of("fasttrack.write_shared");
    wr(1, T0, x); fork_(2, T0, T1); fork_(3, T0, T2); fork_(4, T0, T3);
    rd(5, T1, x); rd(6, T2, x); acq(7, T2, L); rel(8, T2, L); acq(9, T3, L); wr(10, T3, x);
    exit_(11, T1);
    EXPECT_EQ(first_label(), 10);
    EXPECT_EQ(ft_log.n, 1);
    EXPECT(ft_log.n == 1 && ft_log.r[0].prev_tid == T1->tid && !ft_log.r[0].prev_write);
    EXPECT_EQ(stat_of("fasttrack.read_share") - share0, 8);    /* one per byte */
    EXPECT_EQ(stat_of("fasttrack.write_shared") - wsh0, 8);
    end();
}

CASE(fasttrack_regressions_G_ALOCK_G_RWALOCK) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new();
    char *x = var(8), *y = var(8);
    struct goldi_sync *L = sync_new(GOLDI_SYNC_MUTEX), *R = sync_new(GOLDI_SYNC_RWLOCK);
    fork_(1, T0, T1); fork_(2, T0, T2);
    acq(3, T1, L); wr(4, T1, x); rel(5, T1, L); wr(6, T1, x); acq(7, T2, L); wr(8, T2, x); rel(9, T2, L);
    EXPECT_EQ(first_label(), 8);
    rdlock(10, T1, R); wr(11, T1, y); rdunlock(12, T1, R); rdlock(13, T2, R); wr(14, T2, y); rdunlock(15, T2, R);
    EXPECT_EQ(races_at(14), 1);
    end();
}

/* --- the epoch rules ------------------------------------------------------------------------ */

CASE(fasttrack_same_epoch_fast_paths) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new();
    char *x = var(8);
    struct goldi_sync *L = sync_new(GOLDI_SYNC_MUTEX);
    fork_(1, T0, T1);
    uint64_t r0 = stat_of("fasttrack.read_same_epoch"), w0 = stat_of("fasttrack.write_same_epoch");
    wr(2, T1, x); wr(3, T1, x); rd(4, T1, x); rd(5, T1, x);
    acq(6, T1, L); wr(7, T1, x); rd(8, T1, x);      /* acquire does not tick T1's clock */
    EXPECT_EQ(stat_of("fasttrack.write_same_epoch") - w0, 16);
    EXPECT_EQ(stat_of("fasttrack.read_same_epoch") - r0, 16);
    rel(9, T1, L);                                  /* release ticks: no more same-epoch hits */
    wr(10, T1, x);
    EXPECT_EQ(stat_of("fasttrack.write_same_epoch") - w0, 16);
    /* the same-epoch read of T1 did not hide anything: T0 races with T1's write */
    rd(11, T0, x);
    EXPECT_EQ(first_label(), 11);
    EXPECT(write_partner_at(11));
    end();
}

CASE(fasttrack_read_exclusive_handoff_is_sound) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new(), *T3 = thr_new();
    char *y = var(8);
    struct goldi_sync *L = sync_new(GOLDI_SYNC_MUTEX), *M = sync_new(GOLDI_SYNC_MUTEX);
    fork_(1, T0, T1); fork_(2, T0, T2); fork_(3, T0, T3);
    uint64_t ex0 = stat_of("fasttrack.read_exclusive");
    rd(4, T1, y); acq(5, T1, L); rel(6, T1, L);
    acq(7, T2, L); rd(8, T2, y); rel(9, T2, L);     /* R := T2's epoch, T1's read covered */
    acq(10, T3, L); wr(11, T3, y); rel(12, T3, L);
    EXPECT_EQ(ft_log.n, 0);
    EXPECT_EQ(stat_of("fasttrack.read_exclusive") - ex0, 16);
    (void)M;
    end();
}

CASE(fasttrack_byte_granularity_and_lifetimes) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new();
    char *x = var(16);
    fork_(1, T0, T1); fork_(2, T0, T2);
    acc(3, GOLDI_EV_WRITE, T1, x, 4);
    acc(4, GOLDI_EV_READ, T2, x + 4, 4);            /* disjoint */
    EXPECT_EQ(ft_log.n, 0);
    acc(5, GOLDI_EV_READ, T2, x + 3, 2);            /* overlaps byte 3 only */
    EXPECT_EQ(ft_log.n, 1);
    EXPECT(ft_log.n == 1 && ft_log.r[0].addr == (uintptr_t)x + 3 && ft_log.r[0].size == 1);
    acc(6, GOLDI_EV_WRITE, T1, x + 6, 4);           /* crosses a granule: bytes 6..9 */
    acc(7, GOLDI_EV_READ, T2, x + 8, 8);
    EXPECT_EQ(races_at(7), 1);
    /* free is a write; alloc ends all history and releases the records */
    uint64_t recs = stat_of("fasttrack.byte_records");
    acc(8, GOLDI_EV_FREE, T2, x, 16);
    EXPECT(races_at(8) >= 1);
    EXPECT_EQ(stat_of("fasttrack.byte_records"), recs - 16);
    acc(9, GOLDI_EV_ALLOC, T1, x, 16);
    rd(10, T1, x); wr(11, T1, x + 8);
    EXPECT_EQ(races_at(10) + races_at(11), 0);
    end();
}

CASE(fasttrack_atomics) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new(), *T3 = thr_new();
    char *a = var(8), *c = var(8), *q = var(8);
    struct goldi_sync *L = sync_new(GOLDI_SYNC_MUTEX);
    fork_(1, T0, T1); fork_(2, T0, T2); fork_(3, T0, T3);
    /* atomics never race with atomics, in any order */
    atom(4, GOLDI_EV_ATOMIC_STORE, T1, a, RLX); atom(5, GOLDI_EV_ATOMIC_RMW, T2, a, RLX);
    atom(6, GOLDI_EV_ATOMIC_LOAD, T3, a, RLX); atom(7, GOLDI_EV_ATOMIC_CASFAIL, T1, a, RLX);
    EXPECT_EQ(ft_log.n, 0);
    /* AW shared {T1,T2}; T3 after T2 only: plain read races with T1's store */
    acq(8, T2, L); rel(9, T2, L); acq(10, T3, L); rd(11, T3, a); rel(12, T3, L);
    EXPECT_EQ(first_label(), 11);
    EXPECT(write_partner_at(11) && ft_log.r[0].prev_tid == T1->tid && ft_log.r[0].prev_atomic);
    /* failed CAS is a read: races with a plain write as RW */
    atom(13, GOLDI_EV_ATOMIC_CASFAIL, T1, q, ACQ);
    wr(14, T2, q);
    EXPECT_EQ(races_at(14), 1);
    EXPECT(!write_partner_at(14));
    /* a plain write, then an atomic load elsewhere: WR */
    wr(15, T1, c); atom(16, GOLDI_EV_ATOMIC_LOAD, T2, c, ACQ);
    EXPECT_EQ(races_at(16), 1);
    EXPECT(write_partner_at(16));
    end();
}

CASE(fasttrack_sync_kinds) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new(), *T3 = thr_new();
    char *x = var(8), *y = var(8), *z = var(8), *w = var(8), *v = var(8);
    struct goldi_sync *S = sync_new(GOLDI_SYNC_SEM), *O = sync_new(GOLDI_SYNC_ONCE),
                      *B = sync_new(GOLDI_SYNC_BARRIER), *CV = sync_new(GOLDI_SYNC_COND),
                      *M = sync_new(GOLDI_SYNC_MUTEX);
    wr(1, T0, w);
    fork_(2, T0, T1); fork_(3, T0, T2); fork_(4, T0, T3);
    wr(5, T1, w);
    wr(6, T1, x); obj_ev(7, GOLDI_EV_SEM_POST, T1, S); obj_ev(8, GOLDI_EV_SEM_WAIT, T2, S); rd(9, T2, x);
    wr(10, T2, y); obj_ev(11, GOLDI_EV_ONCE_DONE, T2, O); obj_ev(12, GOLDI_EV_ONCE_RET, T3, O); rd(13, T3, y);
    wr(14, T1, z);
    bar(15, GOLDI_EV_BAR_ARRIVE, T1, B, 0); bar(16, GOLDI_EV_BAR_ARRIVE, T3, B, 0);
    bar(17, GOLDI_EV_BAR_DEPART, T3, B, 0); rd(18, T3, z);
    /* condvar signal gives no edge; the mutex does */
    acq(19, T1, M); wr(20, T1, v); obj_ev(21, GOLDI_EV_SIGNAL, T1, CV); rel(22, T1, M);
    acq(23, T2, M); wait_(24, GOLDI_EV_WAIT_ENTER, T2, CV, M); wait_(25, GOLDI_EV_WAIT_EXIT, T2, CV, M);
    rd(26, T2, v); rel(27, T2, M);
    exit_(28, T1); join_(29, T0, T1); wr(30, T0, w);
    EXPECT_EQ(ft_log.n, 0);
    wr(31, T3, v);                                  /* nothing orders T3 after T1/T2 on v */
    EXPECT_EQ(first_label(), 31);
    end();
}

/* --- real threads ------------------------------------------------------------------------------ */

/* Several OS threads dispatch at once (as the runtime does): a counter under a
 * mutex, per-thread private data, and shared read-only data. No race expected;
 * exercises the granule locks + token locks around our state. */
#define CT_N 4
static struct goldi_thr *ct_thr[CT_N];
static struct goldi_sync *ct_mu;
static char *ct_counter, *ct_private[CT_N], *ct_shared;
static void *ct_main(void *arg) {
    int i = (int)(intptr_t)arg;
    struct goldi_thr *t = ct_thr[i];
    for (int k = 0; k < 2000; k++) {
        rd(100, t, ct_shared);
        wr(101, t, ct_private[i]);
        struct goldi_event a = mk(102, GOLDI_EV_LOCK_ACQ, t), r = mk(103, GOLDI_EV_LOCK_REL, t);
        a.obj = r.obj = ct_mu;
        static pthread_mutex_t real = PTHREAD_MUTEX_INITIALIZER;
        pthread_mutex_lock(&real);
        goldi_dispatch(&a);
        rd(104, t, ct_counter);
        wr(105, t, ct_counter);
        goldi_dispatch(&r);
        pthread_mutex_unlock(&real);
    }
    exit_(106, t);
    return NULL;
}

CASE(fasttrack_concurrent_dispatch) {
    begin();
    struct goldi_thr *T0 = thr_new();
    ct_mu = sync_new(GOLDI_SYNC_MUTEX);
    ct_counter = var(8);
    ct_shared = var(8);
    wr(1, T0, ct_shared);
    wr(2, T0, ct_counter);
    for (int i = 0; i < CT_N; i++) {
        ct_private[i] = var(8);
        ct_thr[i] = thr_new();
        fork_(3, T0, ct_thr[i]);
    }
    pthread_t p[CT_N];
    for (int i = 0; i < CT_N; i++)
        pthread_create(&p[i], NULL, ct_main, (void *)(intptr_t)i);
    for (int i = 0; i < CT_N; i++) {
        pthread_join(p[i], NULL);
        join_(4, T0, ct_thr[i]);
    }
    wr(5, T0, ct_counter);
    wr(6, T0, ct_shared);
    EXPECT_EQ(ft_log.n, 0);
    EXPECT_EQ(vc_log.n, 0);
    exit_(9999, T0);
    for (int i = 0; i < CT_N; i++)
        goldi_dispatch_thr_free(ct_thr[i]);
    n_scen_thr = 0;
}

/* --- random differential run against the vc engine ------------------------------------------ */

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static unsigned rnd(unsigned n) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng % n);
}

#define NV 4      /* plain 8-byte variables */
#define NA 2      /* atomic locations (also accessed plainly now and then) */
#define NM 2      /* mutexes */
#define NB ((NV + NA) * 8)

/* First race per (byte, lifetime): label and kind ('W' = WW/WR, 'R' = RW),
 * label -1 if none. A free and the alloc that follows share one label; the
 * free's own reports belong to the old lifetime, so byte b's lifetime at label
 * l is the number of frees of b at labels < l. */
#define MAX_LIVES 32
struct first { int label; char kind; };
static int free_label[NV][MAX_LIVES], n_free[NV];
static int life_of(size_t b, int label) {
    int v = (int)(b / 8), n = 0;
    if (v >= NV)
        return 0;
    for (int k = 0; k < n_free[v]; k++)
        n += free_label[v][k] < label;
    return n;
}
static void first_per_byte(const struct log *l, uintptr_t base, struct first out[NB][MAX_LIVES]) {
    for (size_t i = 0; i < NB; i++)
        for (int k = 0; k < MAX_LIVES; k++)
            out[i][k] = (struct first){ -1, 0 };
    for (int k = 0; k < l->n; k++)
        for (uint32_t j = 0; j < l->r[k].size; j++) {
            uintptr_t b = l->r[k].addr + j;
            if (b < base || b >= base + NB)
                continue;
            struct first *f = &out[b - base][life_of(b - base, l->r[k].label)];
            if (f->label < 0) {
                f->label = l->r[k].label;
                f->kind = 'R';
            }
            if (f->label == l->r[k].label && l->r[k].prev_write)
                f->kind = 'W';
        }
}

/* One random well-formed execution: forks, plain accesses of every size and
 * offset, mutexes, rwlocks, semaphores, once, barriers (all live threads),
 * condvar waits, atomics of every kind and order, fences, free/alloc, exits
 * and joins. Lifetimes: free+alloc happen together, so bytes raced before a
 * free are compared only up to it (vc and fasttrack both report per lifetime). */
static void random_vs_vc(int rounds) {
    int mismatches = 0, racy = 0, rw = 0;
    for (int round = 0; round < rounds; round++) {
        begin();
        int nt = 2 + (int)rnd(4);
        struct goldi_thr *T[6];
        bool exited[6] = { false }, joined[6] = { false };
        int held_m[NM], rw_w = -1, rw_r[6] = { 0 };
        for (int i = 0; i < NM; i++)
            held_m[i] = -1;
        char *mem = var(NB);
        struct goldi_sync *M[NM], *RW = sync_new(GOLDI_SYNC_RWLOCK), *S = sync_new(GOLDI_SYNC_SEM),
                          *O = sync_new(GOLDI_SYNC_ONCE), *B = sync_new(GOLDI_SYNC_BARRIER),
                          *CV = sync_new(GOLDI_SYNC_COND);
        bool once_done = false;
        uint64_t bar_gen = 0;
        int sem_count = 0;
        for (int i = 0; i < NM; i++)
            M[i] = sync_new(GOLDI_SYNC_MUTEX);
        for (int v = 0; v < NV; v++)
            n_free[v] = 0;
        T[0] = thr_new();
        int l = 1;
        for (int i = 1; i < nt; i++) {
            T[i] = thr_new();
            if (rnd(2))
                acc(l++, GOLDI_EV_WRITE, T[0], mem + rnd(NV) * 8, 8);
            fork_(l++, T[0], T[i]);
        }
        for (int step = 0; step < 100; step++, l++) {
            int i = (int)rnd((unsigned)nt);
            if (exited[i])
                continue;
            struct goldi_thr *t = T[i];
            unsigned op = rnd(24);
            if (op < 9) {                                   /* plain access */
                unsigned sz = 1u << rnd(4), off = rnd(9 - sz);
                char *p = mem + rnd(NV + (rnd(4) == 0 ? NA : 0)) * 8 + off;
                acc(l, rnd(2) ? GOLDI_EV_WRITE : GOLDI_EV_READ, t, p, sz);
            } else if (op < 12) {                           /* mutex (+ condvar wait) */
                int m = (int)rnd(NM);
                if (held_m[m] == i) {
                    if (rnd(4) == 0) {
                        wait_(l, GOLDI_EV_WAIT_ENTER, t, CV, M[m]);
                        wait_(l, GOLDI_EV_WAIT_EXIT, t, CV, M[m]);
                    } else {
                        rel(l, t, M[m]);
                        held_m[m] = -1;
                    }
                } else if (held_m[m] < 0) {
                    acq(l, t, M[m]);
                    held_m[m] = i;
                } else {
                    obj_ev(l, rnd(2) ? GOLDI_EV_SIGNAL : GOLDI_EV_BROADCAST, t, CV);
                }
            } else if (op < 14) {                           /* rwlock */
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
                    if (rnd(2) || readers) {
                        rdlock(l, t, RW);
                        rw_r[i] = 1;
                    } else {
                        acq(l, t, RW);
                        rw_w = i;
                    }
                }
            } else if (op < 19) {                           /* atomic */
                static const enum goldi_event_kind ks[] = { GOLDI_EV_ATOMIC_LOAD, GOLDI_EV_ATOMIC_STORE,
                                                            GOLDI_EV_ATOMIC_RMW, GOLDI_EV_ATOMIC_CASFAIL };
                atom(l, ks[rnd(4)], t, mem + (NV + rnd(NA)) * 8, rnd(6));
            } else if (op < 21) {
                unsigned sub = rnd(6);
                if (sub == 0) {
                    fence(l, t, rnd(6));
                } else if (sub == 1) {                      /* end + restart a lifetime */
                    int v = (int)rnd(NV);
                    char *p = mem + v * 8;
                    if (n_free[v] == MAX_LIVES - 1)
                        continue;
                    free_label[v][n_free[v]++] = l;
                    acc(l, GOLDI_EV_FREE, t, p, 8);
                    acc(l, GOLDI_EV_ALLOC, t, p, 8);
                } else if (sub == 2) {
                    obj_ev(l, GOLDI_EV_SEM_POST, t, S);
                    sem_count++;
                } else if (sub == 3 && sem_count) {
                    obj_ev(l, GOLDI_EV_SEM_WAIT, t, S);
                    sem_count--;
                } else if (sub == 4) {
                    obj_ev(l, once_done ? GOLDI_EV_ONCE_RET : GOLDI_EV_ONCE_DONE, t, O);
                    once_done = true;
                } else {                                    /* barrier: every live thread */
                    for (int k = 0; k < nt; k++)
                        if (!exited[k])
                            bar(l, GOLDI_EV_BAR_ARRIVE, T[k], B, bar_gen);
                    for (int k = 0; k < nt; k++)
                        if (!exited[k])
                            bar(l, GOLDI_EV_BAR_DEPART, T[k], B, bar_gen);
                    bar_gen++;
                }
            } else if (i != 0) {                            /* exit (holding nothing) */
                bool holds = rw_w == i || rw_r[i];
                for (int m = 0; m < NM; m++)
                    holds |= held_m[m] == i;
                if (!holds) {
                    exit_(l, t);
                    exited[i] = true;
                }
            } else {
                for (int k = 1; k < nt; k++)
                    if (exited[k] && !joined[k]) {
                        join_(l, T[0], T[k]);
                        joined[k] = true;
                        break;
                    }
            }
        }
        static struct first ff[NB][MAX_LIVES], fv[NB][MAX_LIVES];
        first_per_byte(&ft_log, (uintptr_t)mem, ff);
        first_per_byte(&vc_log, (uintptr_t)mem, fv);
        for (size_t b = 0; b < NB; b++)
            for (int k = 0; k < MAX_LIVES; k++) {
                struct first x = ff[b][k], y = fv[b][k];
                racy += y.label >= 0;
                rw += y.label >= 0 && y.kind == 'R';
                if (x.label != y.label || x.kind != y.kind) {
                    if (mismatches < 5)
                        printf("    round %d byte %zu life %d: fasttrack first race @%d (%c), vc @%d (%c)\n",
                               round, b, k, x.label, x.kind ? x.kind : '-', y.label, y.kind ? y.kind : '-');
                    mismatches++;
                }
            }
        for (int k = 0; k < nt; k++)
            if (!exited[k])
                exit_(9999, T[k]);
        n_scen_thr = 0;
    }
    printf("    %d random traces: %d racy bytes (vc), %d of them RW first, %d first-race mismatches\n",
           rounds, racy, rw, mismatches);
    EXPECT(racy > rounds / 4);
    EXPECT(rw > 0);
    EXPECT_EQ(mismatches, 0);
}

CASE(fasttrack_random_vs_vc) { random_vs_vc(2000); }

int main(int argc, char **argv) {
    verbose = argc > 1;
    ft_sink = goldi_engine_start(&goldi_engine_fasttrack, on_race, &ft_log);
    goldi_engine_start(&goldi_engine_vc, on_race, &vc_log);
    RUN(fasttrack_example_A_intbox_swap);
    RUN(fasttrack_example_E_message_passing);
    RUN(fasttrack_example_F_fences);
    RUN(fasttrack_example_G_release_sequence);
    RUN(fasttrack_example_H_read_shared);
    RUN(fasttrack_regressions_G_ALOCK_G_RWALOCK);
    RUN(fasttrack_same_epoch_fast_paths);
    RUN(fasttrack_read_exclusive_handoff_is_sound);
    RUN(fasttrack_byte_granularity_and_lifetimes);
    RUN(fasttrack_atomics);
    RUN(fasttrack_sync_kinds);
    RUN(fasttrack_concurrent_dispatch);
    RUN(fasttrack_random_vs_vc);
    printf("  engine stats:\n");
    goldi_engine_fasttrack.stats(ft_sink->self, stat_print, NULL);
    return harness_summary();
}
