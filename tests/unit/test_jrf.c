/* Unit tests of the jrf engine (JRF's summary function h, ALGORITHMS.md 2.4):
 * the §4 examples (JRF column), RW invisibility, the x^a column, virgin
 * allocation, and two random differential runs:
 *   - against a literal bitmap implementation of h written here from the seed's
 *     definitions (rows for threads, tokens, fence rows; columns x and x^a):
 *     every report (not only the first per byte) must be the same;
 *   - against the vc engine in WX terms (§3): jrf's first report per byte is
 *     vc's first report per byte that has a write partner. */
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
static struct log jrf_log = { .mu = PTHREAD_MUTEX_INITIALIZER }, vc_log = { .mu = PTHREAD_MUTEX_INITIALIZER },
    h_log = { .mu = PTHREAD_MUTEX_INITIALIZER };
static int label;
static struct goldi_sink *jrf_sink;
static bool verbose;

static void on_race(void *ctx, const struct goldi_race *r) {
    struct log *l = ctx;
    if (l == &jrf_log && verbose)
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
    goldi_engine_jrf.stats(jrf_sink->self, stat_cb, &q);
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
    jrf_log.n = vc_log.n = h_log.n = 0;
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

static int first_label(void) { return jrf_log.n ? jrf_log.r[0].label : -1; }
static int races_at(int l) {
    int n = 0;
    for (int i = 0; i < jrf_log.n; i++)
        n += jrf_log.r[i].label == l;
    return n;
}
/* Canonical kind of the reports at label l (§3): 'W' if some partner is a write. */
static bool write_partner_at(int l) {
    for (int i = 0; i < jrf_log.n; i++)
        if (jrf_log.r[i].label == l && jrf_log.r[i].prev_write)
            return true;
    return false;
}

/* --- §4 examples, JRF column ------------------------------------------------------------------ */

CASE(jrf_example_A_intbox_swap) {
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
    EXPECT_EQ(jrf_log.n, 0);
    end();
}

CASE(jrf_examples_E_F_G) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new(), *T3 = thr_new();
    char *d = var(8), *f = var(8), *d2 = var(8), *f2 = var(8), *d3 = var(8), *f3 = var(8);
    fork_(1, T0, T1); fork_(2, T0, T2); fork_(3, T0, T3);
    wr(4, T1, d); atom(5, GOLDI_EV_ATOMIC_STORE, T1, f, REL); atom(6, GOLDI_EV_ATOMIC_LOAD, T2, f, ACQ); rd(7, T2, d);
    wr(8, T1, d2); fence(9, T1, REL); atom(10, GOLDI_EV_ATOMIC_STORE, T1, f2, RLX);
    atom(11, GOLDI_EV_ATOMIC_LOAD, T2, f2, RLX); fence(12, T2, ACQ); rd(13, T2, d2);
    wr(14, T1, d3); atom(15, GOLDI_EV_ATOMIC_STORE, T1, f3, REL); atom(16, GOLDI_EV_ATOMIC_RMW, T3, f3, RLX);
    atom(17, GOLDI_EV_ATOMIC_LOAD, T2, f3, ACQ); rd(18, T2, d3);
    EXPECT_EQ(jrf_log.n, 0);
    /* E-rlx */
    char *d4 = var(8), *f4 = var(8);
    wr(19, T1, d4); atom(20, GOLDI_EV_ATOMIC_STORE, T1, f4, RLX); atom(21, GOLDI_EV_ATOMIC_LOAD, T2, f4, RLX);
    rd(22, T2, d4);
    EXPECT_EQ(first_label(), 22);
    EXPECT_EQ(jrf_log.n, 1);
    end();
}

/* H: the RW race at H10 is invisible to h; the WR race that a later read by T1
 * would be is reported (T5: no read state, so nothing can hide it). */
CASE(jrf_example_H_rw_invisible) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new(), *T3 = thr_new();
    char *x = var(8);
    struct goldi_sync *L = sync_new(GOLDI_SYNC_MUTEX);
    wr(1, T0, x); fork_(2, T0, T1); fork_(3, T0, T2); fork_(4, T0, T3);
    rd(5, T1, x); rd(6, T2, x); acq(7, T2, L); rel(8, T2, L); acq(9, T3, L); wr(10, T3, x);
    EXPECT_EQ(jrf_log.n, 0);
    EXPECT_EQ(vc_log.n, 1);                         /* vc (P-FULL) reports H10 */
    rd(11, T1, x);                                  /* same epoch as H5 for T1 */
    EXPECT_EQ(first_label(), 11);
    EXPECT(write_partner_at(11));
    end();
}

CASE(jrf_regressions_G_ALOCK_G_RWALOCK) {
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

/* x^a: concurrent atomic writes are fine, a plain access needs all of them. */
CASE(jrf_atomic_column) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new(), *T3 = thr_new();
    char *c = var(8), *d = var(8);
    struct goldi_sync *L = sync_new(GOLDI_SYNC_MUTEX), *M = sync_new(GOLDI_SYNC_MUTEX);
    wr(1, T0, c); wr(2, T0, d);
    fork_(3, T0, T1); fork_(4, T0, T2); fork_(5, T0, T3);
    atom(6, GOLDI_EV_ATOMIC_RMW, T1, c, RLX); atom(7, GOLDI_EV_ATOMIC_RMW, T2, c, RLX);
    acq(8, T1, L); rel(9, T1, L); acq(10, T3, L);
    atom(11, GOLDI_EV_ATOMIC_LOAD, T3, c, RLX);    /* atomic read: checks x only */
    EXPECT_EQ(jrf_log.n, 0);
    rd(12, T3, c);
    EXPECT_EQ(first_label(), 12);
    EXPECT(jrf_log.n == 1 && jrf_log.r[0].prev_tid == T2->tid && jrf_log.r[0].prev_atomic);
    rel(13, T3, L);
    /* covered entries are dropped but stay covered */
    atom(14, GOLDI_EV_ATOMIC_RMW, T1, d, REL); atom(15, GOLDI_EV_ATOMIC_RMW, T2, d, GOLDI_MO_ACQ_REL);
    acq(16, T2, M); rel(17, T2, M); acq(18, T3, M); rd(19, T3, d); wr(20, T3, d); rel(21, T3, M);
    EXPECT_EQ(races_at(19) + races_at(20), 0);
    /* plain write makes x^a vacuous: a later plain read ordered after it is fine */
    acq(22, T1, M); rd(23, T1, d); rel(24, T1, M);
    EXPECT_EQ(races_at(23), 0);
    end();
}

/* Two concurrent atomic writers, then a thread that synchronises with each of
 * them separately: both writes happen-before its plain read, so no race. A
 * single x^a bit column cannot express this (neither writer's row holds the
 * bit, so no union can produce it); per-writer epochs can. */
CASE(jrf_atomic_column_needs_per_writer_bits) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new(), *T3 = thr_new();
    char *c = var(8);
    struct goldi_sync *L = sync_new(GOLDI_SYNC_MUTEX), *M = sync_new(GOLDI_SYNC_MUTEX);
    wr(1, T0, c);
    fork_(2, T0, T1); fork_(3, T0, T2); fork_(4, T0, T3);
    atom(5, GOLDI_EV_ATOMIC_STORE, T1, c, RLX); atom(6, GOLDI_EV_ATOMIC_STORE, T2, c, RLX);
    acq(7, T1, L); rel(8, T1, L); acq(9, T2, M); rel(10, T2, M);
    acq(11, T3, L); acq(12, T3, M); rd(13, T3, c); rel(14, T3, M); rel(15, T3, L);
    EXPECT_EQ(jrf_log.n, 0);
    EXPECT_EQ(vc_log.n, 0);
    end();
}

/* Fresh memory is virgin (no write yet), not "written by the allocator". */
CASE(jrf_virgin_and_lifetimes) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new();
    char *p = var(8);
    fork_(1, T0, T1); fork_(2, T0, T2);
    uint64_t recs = stat_of("jrf.byte_records");
    acc(3, GOLDI_EV_ALLOC, T1, p, 8);
    rd(4, T2, p);
    EXPECT_EQ(jrf_log.n, 0);
    EXPECT_EQ(stat_of("jrf.byte_records"), recs);  /* reads of virgin bytes store nothing */
    wr(5, T1, p);
    EXPECT_EQ(stat_of("jrf.byte_records"), recs + 8);
    rd(6, T2, p);
    EXPECT_EQ(first_label(), 6);
    acc(7, GOLDI_EV_FREE, T2, p, 8);                /* free is a write: WW with T1's write */
    EXPECT_EQ(races_at(7), 1);
    EXPECT_EQ(stat_of("jrf.byte_records"), recs);
    acc(8, GOLDI_EV_ALLOC, T2, p, 8);
    rd(9, T1, p); wr(10, T1, p);
    EXPECT_EQ(races_at(9) + races_at(10), 0);
    end();
}

/* --- a literal bitmap h (seed 003 §3.1 + ALGORITHMS.md 2.4), the test oracle ---------------------
 * Rows: one per thread, per thread's Frel/Facq/exit snapshot, per sync token id.
 * Columns: bit b of x = byte b of the round's memory. The x^a column is split
 * per atomic writer u: bit b of xa[u] = "u's last atomic write to b since the
 * last plain write hb this row", and x^a ∈ h(z) iff z has the bit for every u
 * that atomically wrote b since then. (The single-column rule of the handbook,
 * "an atomic write clears x^a in every row except t, t's bit unchanged", loses
 * the case where a row later learns every concurrent atomic write separately:
 * see jrf_atomic_column_needs_per_writer_bits.)
 * virgin(b): no plain write this lifetime (x in every row, also rows made later). */
#define H_NB 48
#define H_W 8     /* writers per round: tids of one round are consecutive, at most 6 */
enum { HR_THR, HR_FREL, HR_FACQ, HR_EXIT, HR_TOK };
struct h_row { int kind; uint64_t key; uint64_t x, xa[H_W]; };
static struct h_row h_rows[4096];
static int h_n;
static uintptr_t h_base;
static uint64_t h_virgin, h_aw[H_W];   /* h_aw[u] bit b: u atomically wrote b since the last plain write */
#define H_ALL ((1ull << H_NB) - 1)

static void h_reset(uintptr_t base) {
    h_n = 0;
    h_base = base;
    h_virgin = H_ALL;
    memset(h_aw, 0, sizeof h_aw);
}
static struct h_row *h_row(int kind, uint64_t key) {
    for (int i = 0; i < h_n; i++)
        if (h_rows[i].kind == kind && h_rows[i].key == key)
            return &h_rows[i];
    if (h_n == (int)(sizeof h_rows / sizeof h_rows[0]))
        abort();
    memset(&h_rows[h_n], 0, sizeof h_rows[h_n]);
    h_rows[h_n].kind = kind;
    h_rows[h_n].key = key;
    return &h_rows[h_n++];
}
static void h_union(struct h_row *dst, const struct h_row *src) {
    dst->x |= src->x;
    for (int u = 0; u < H_W; u++)
        dst->xa[u] |= src->xa[u];
}
static void h_assign(struct h_row *dst, const struct h_row *src) {
    dst->x = src->x;
    memcpy(dst->xa, src->xa, sizeof dst->xa);
}
static bool h_has_xa(const struct h_row *z, uint64_t m) {
    for (int u = 0; u < H_W; u++)
        if ((h_aw[u] & m) && !(z->xa[u] & m))
            return false;
    return true;
}

static void h_report(int b, bool atomic_col, const struct goldi_event *ev) {
    (void)ev;
    pthread_mutex_lock(&h_log.mu);
    if (h_log.n < MAX_RECS)
        h_log.r[h_log.n++] = (struct rec){ .label = label, .addr = h_base + (uintptr_t)b, .size = 1,
                                           .prev_write = true, .prev_atomic = atomic_col };
    pthread_mutex_unlock(&h_log.mu);
}

static void h_on_access(void *self, const struct goldi_event *ev, uintptr_t addr, unsigned size) {
    (void)self;
    bool write = ev->kind == GOLDI_EV_WRITE || ev->kind == GOLDI_EV_FREE || ev->kind == GOLDI_EV_ATOMIC_STORE ||
                 ev->kind == GOLDI_EV_ATOMIC_RMW;
    bool atomic = ev->kind == GOLDI_EV_ATOMIC_LOAD || ev->kind == GOLDI_EV_ATOMIC_STORE ||
                  ev->kind == GOLDI_EV_ATOMIC_RMW || ev->kind == GOLDI_EV_ATOMIC_CASFAIL;
    struct h_row *t = h_row(HR_THR, ev->thr->tid);
    for (unsigned i = 0; i < size; i++) {
        if (addr + i < h_base || addr + i >= h_base + H_NB)
            continue;
        int b = (int)(addr + i - h_base);
        uint64_t m = 1ull << b;
        if (!(h_virgin & m) && !(t->x & m))
            h_report(b, false, ev);                     /* norace(x, t) fails */
        if (!atomic && !h_has_xa(t, m))
            h_report(b, true, ev);                      /* x^a not in h(t) */
        if (write && !atomic) {                         /* invalidate(t, x); x^a vacuous */
            h_virgin &= ~m;
            for (int r = 0; r < h_n; r++)
                h_rows[r].x &= ~m;
            t->x |= m;
            for (int u = 0; u < H_W; u++)
                h_aw[u] &= ~m;
        } else if (write) {                             /* x^a[t] leaves every row but t's */
            int u = (int)(ev->thr->tid % H_W);
            h_aw[u] |= m;
            for (int r = 0; r < h_n; r++)
                h_rows[r].xa[u] &= ~m;
            t->xa[u] |= m;
        }
    }
}

static void h_on_event(void *self, const struct goldi_event *ev) {
    (void)self;
    goldi_tid_t tid = ev->thr->tid;
    struct goldi_hb_step st[GOLDI_HB_MAX_STEPS];
    int n = goldi_event_hb_steps(ev, st);
    for (int i = 0; i < n; i++) {
        struct h_row *t = h_row(HR_THR, tid);
        struct h_row *o = st[i].tok ? h_row(HR_TOK, st[i].tok->id) : NULL;
        switch ((enum goldi_hb_op)st[i].op) {
        case GOLDI_HB_ACQ: h_union(t, o); break;
        case GOLDI_HB_REL_STORE: h_assign(o, t); break;
        case GOLDI_HB_REL_JOIN: h_union(o, t); break;
        case GOLDI_HB_FORK: h_union(h_row(HR_THR, st[i].other->tid), h_row(HR_THR, tid)); break;
        case GOLDI_HB_JOIN: {
            goldi_tid_t c = st[i].other->tid;
            bool ex = false;
            for (int r = 0; r < h_n; r++)
                ex |= h_rows[r].kind == HR_EXIT && h_rows[r].key == c;
            h_union(h_row(HR_THR, tid), h_row(ex ? HR_EXIT : HR_THR, c));
            break;
        }
        case GOLDI_HB_EXIT: h_assign(h_row(HR_EXIT, tid), h_row(HR_THR, tid)); break;
        case GOLDI_HB_ATOMIC_LOAD: h_union(st[i].strong ? t : h_row(HR_FACQ, tid), o); break;
        case GOLDI_HB_ATOMIC_STORE: h_assign(o, st[i].strong ? t : h_row(HR_FREL, tid)); break;
        case GOLDI_HB_ATOMIC_RMW: h_union(o, st[i].strong ? t : h_row(HR_FREL, tid)); break;
        case GOLDI_HB_FENCE_ACQ: h_union(t, h_row(HR_FACQ, tid)); break;
        case GOLDI_HB_FENCE_REL: h_assign(h_row(HR_FREL, tid), h_row(HR_THR, tid)); break;
        }
    }
    if ((ev->kind == GOLDI_EV_ALLOC || ev->kind == GOLDI_EV_FREE) && ev->size)
        for (uint32_t i = 0; i < ev->size; i++)
            if (ev->addr + i >= h_base && ev->addr + i < h_base + H_NB) {
                h_virgin |= 1ull << (ev->addr + i - h_base);
                for (int u = 0; u < H_W; u++)
                    h_aw[u] &= ~(1ull << (ev->addr + i - h_base));
            }
}

static struct goldi_sink h_sink = { .name = "h-bitmap", .on_access = h_on_access, .on_event = h_on_event };

/* Same reports as the bitmap h? Per (label, column): every byte h flags is
 * covered by a jrf report, and every jrf report range starts and ends on a
 * byte h flags (jrf merges the bytes of one piece per partner into a range). */
static int compare_with_h(uintptr_t base, int round) {
    int bad = 0;
    for (int k = 0; k < h_log.n; k++) {
        const struct rec *h = &h_log.r[k];
        bool covered = false;
        for (int j = 0; j < jrf_log.n && !covered; j++) {
            const struct rec *r = &jrf_log.r[j];
            covered = r->label == h->label && r->prev_atomic == h->prev_atomic && h->addr >= r->addr &&
                      h->addr < r->addr + r->size;
        }
        if (!covered && bad++ < 3)
            printf("    round %d: h flags byte %lu (%s) at @%d, jrf does not\n", round,
                   (unsigned long)(h->addr - base), h->prev_atomic ? "x^a" : "x", h->label);
    }
    for (int j = 0; j < jrf_log.n; j++) {
        const struct rec *r = &jrf_log.r[j];
        if (r->addr < base || r->addr >= base + H_NB)
            continue;
        bool lo = false, hi = false;
        for (int k = 0; k < h_log.n; k++) {
            const struct rec *h = &h_log.r[k];
            if (h->label != r->label || h->prev_atomic != r->prev_atomic)
                continue;
            lo |= h->addr == r->addr;
            hi |= h->addr == r->addr + r->size - 1;
        }
        if (!(lo && hi) && bad++ < 3)
            printf("    round %d: jrf reports bytes %lu..%lu (%s) at @%d, h does not\n", round,
                   (unsigned long)(r->addr - base), (unsigned long)(r->addr + r->size - 1 - base),
                   r->prev_atomic ? "x^a" : "x", r->label);
    }
    return bad;
}

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
_Static_assert(NB == H_NB, "the bitmap h covers the random memory");

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
static void first_per_byte(const struct log *l, uintptr_t base, bool writes_only, struct first out[NB][MAX_LIVES]) {
    for (size_t i = 0; i < NB; i++)
        for (int k = 0; k < MAX_LIVES; k++)
            out[i][k] = (struct first){ -1, 0 };
    for (int k = 0; k < l->n; k++)
        for (uint32_t j = 0; j < l->r[k].size; j++) {
            uintptr_t b = l->r[k].addr + j;
            if (b < base || b >= base + NB || (writes_only && !l->r[k].prev_write))
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
 * free are compared only up to it (vc and jrf both report per lifetime). */
static void random_vs_vc(int rounds) {
    int mismatches = 0, racy = 0, rw = 0, h_mismatch = 0, not_write = 0;
    for (int round = 0; round < rounds; round++) {
        begin();
        int nt = 2 + (int)rnd(4);
        struct goldi_thr *T[6];
        bool exited[6] = { false }, joined[6] = { false };
        int held_m[NM], rw_w = -1, rw_r[6] = { 0 };
        for (int i = 0; i < NM; i++)
            held_m[i] = -1;
        char *mem = var(NB);
        h_reset((uintptr_t)mem);
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
        static struct first fj[NB][MAX_LIVES], fv[NB][MAX_LIVES];
        first_per_byte(&jrf_log, (uintptr_t)mem, false, fj);
        first_per_byte(&vc_log, (uintptr_t)mem, true, fv);
        for (size_t b = 0; b < NB; b++)
            for (int k = 0; k < MAX_LIVES; k++) {
                struct first x = fj[b][k], y = fv[b][k];
                racy += y.label >= 0;
                if (x.label != y.label || x.kind != y.kind) {
                    if (mismatches < 5)
                        printf("    round %d byte %zu life %d: jrf first race @%d (%c), vc first WW/WR @%d (%c)\n",
                               round, b, k, x.label, x.kind ? x.kind : '-', y.label, y.kind ? y.kind : '-');
                    mismatches++;
                }
            }
        /* RW-only bytes: vc's first race has no write partner and jrf is silent on the lifetime */
        static struct first fa[NB][MAX_LIVES];
        first_per_byte(&vc_log, (uintptr_t)mem, false, fa);
        for (size_t b = 0; b < NB; b++)
            for (int k = 0; k < MAX_LIVES; k++)
                rw += fa[b][k].label >= 0 && fa[b][k].kind == 'R' && fj[b][k].label < 0;
        /* every report against the literal h */
        h_mismatch += compare_with_h((uintptr_t)mem, round);
        for (int k = 0; k < jrf_log.n; k++)
            not_write += !jrf_log.r[k].prev_write;
        for (int k = 0; k < nt; k++)
            if (!exited[k])
                exit_(9999, T[k]);
        n_scen_thr = 0;
    }
    printf("    %d random traces: %d bytes with a WW/WR race (vc), %d first-race mismatches; %d lifetimes\n"
           "    with only RW races (jrf silent); %d report mismatches against the bitmap h\n",
           rounds, racy, mismatches, rw, h_mismatch);
    EXPECT(racy > rounds / 4);
    EXPECT(rw > 0);
    EXPECT_EQ(mismatches, 0);
    EXPECT_EQ(h_mismatch, 0);
    EXPECT_EQ(not_write, 0);
}

CASE(jrf_random_vs_h_and_vc) { random_vs_vc(2000); }

int main(int argc, char **argv) {
    verbose = argc > 1;
    jrf_sink = goldi_engine_start(&goldi_engine_jrf, on_race, &jrf_log);
    goldi_engine_start(&goldi_engine_vc, on_race, &vc_log);
    goldi_dispatch_attach(&h_sink);
    h_reset(0);
    RUN(jrf_example_A_intbox_swap);
    RUN(jrf_examples_E_F_G);
    RUN(jrf_example_H_rw_invisible);
    RUN(jrf_regressions_G_ALOCK_G_RWALOCK);
    RUN(jrf_atomic_column);
    RUN(jrf_atomic_column_needs_per_writer_bits);
    RUN(jrf_virgin_and_lifetimes);
    RUN(jrf_random_vs_h_and_vc);
    printf("  engine stats:\n");
    goldi_engine_jrf.stats(jrf_sink->self, stat_print, NULL);
    return harness_summary();
}
