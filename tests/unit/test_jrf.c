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
#include "engine_harness.h"

static struct eh_log jrf_log = EH_LOG_INIT(true), vc_log = EH_LOG_INIT(false), h_log = EH_LOG_INIT(false);
static struct goldi_sink *jrf_sink;

static uint64_t stat_of(const char *name) { return eh_stat(jrf_sink, name); }

/* --- §4 examples, JRF column ------------------------------------------------------------------ */

CASE(jrf_example_A_intbox_swap) {
    eh_example_A();
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
    EXPECT_EQ(first_label(&jrf_log), 22);
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
    EXPECT_EQ(first_label(&jrf_log), 11);
    EXPECT(write_partner_at(&jrf_log, 11));
    end();
}

CASE(jrf_regressions_G_ALOCK_G_RWALOCK) {
    EXPECT_EQ(eh_regressions_G_ALOCK_G_RWALOCK(&jrf_log), 8);
    EXPECT_EQ(races_at(&jrf_log, 14), 1);
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
    EXPECT_EQ(first_label(&jrf_log), 12);
    EXPECT(jrf_log.n == 1 && jrf_log.r[0].prev_tid == T2->tid && jrf_log.r[0].prev_atomic);
    rel(13, T3, L);
    /* covered entries are dropped but stay covered */
    atom(14, GOLDI_EV_ATOMIC_RMW, T1, d, REL); atom(15, GOLDI_EV_ATOMIC_RMW, T2, d, GOLDI_MO_ACQ_REL);
    acq(16, T2, M); rel(17, T2, M); acq(18, T3, M); rd(19, T3, d); wr(20, T3, d); rel(21, T3, M);
    EXPECT_EQ(races_at(&jrf_log, 19) + races_at(&jrf_log, 20), 0);
    /* plain write makes x^a vacuous: a later plain read ordered after it is fine */
    acq(22, T1, M); rd(23, T1, d); rel(24, T1, M);
    EXPECT_EQ(races_at(&jrf_log, 23), 0);
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
    EXPECT_EQ(first_label(&jrf_log), 6);
    acc(7, GOLDI_EV_FREE, T2, p, 8);                /* free is a write: WW with T1's write */
    EXPECT_EQ(races_at(&jrf_log, 7), 1);
    EXPECT_EQ(stat_of("jrf.byte_records"), recs);
    acc(8, GOLDI_EV_ALLOC, T2, p, 8);
    rd(9, T1, p); wr(10, T1, p);
    EXPECT_EQ(races_at(&jrf_log, 9) + races_at(&jrf_log, 10), 0);
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
    if (h_log.n < EH_MAX_RECS)
        h_log.r[h_log.n++] = (struct eh_rec){ .label = eh_label, .addr = h_base + (uintptr_t)b, .size = 1,
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
        const struct eh_rec *h = &h_log.r[k];
        bool covered = false;
        for (int j = 0; j < jrf_log.n && !covered; j++) {
            const struct eh_rec *r = &jrf_log.r[j];
            covered = r->label == h->label && r->prev_atomic == h->prev_atomic && h->addr >= r->addr &&
                      h->addr < r->addr + r->size;
        }
        if (!covered && bad++ < 3)
            printf("    round %d: h flags byte %lu (%s) at @%d, jrf does not\n", round,
                   (unsigned long)(h->addr - base), h->prev_atomic ? "x^a" : "x", h->label);
    }
    for (int j = 0; j < jrf_log.n; j++) {
        const struct eh_rec *r = &jrf_log.r[j];
        if (r->addr < base || r->addr >= base + H_NB)
            continue;
        bool lo = false, hi = false;
        for (int k = 0; k < h_log.n; k++) {
            const struct eh_rec *h = &h_log.r[k];
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

_Static_assert(EH_NB == H_NB, "the bitmap h covers the random memory");

/* Random rounds with every sync kind (engine_harness.h); h learns each round's
 * memory. Lifetimes: bytes raced before a free are compared only up to it
 * (vc and jrf both report per lifetime). */
static void random_vs_vc(int rounds) {
    int mismatches = 0, racy = 0, rw = 0, h_mismatch = 0, not_write = 0;
    struct eh_random_cfg cfg = EH_RANDOM_ALL_SYNC;
    cfg.on_memory = h_reset;
    for (int round = 0; round < rounds; round++) {
        struct eh_round g;
        eh_random_round(&g, &cfg);
        static struct eh_first fj[EH_NB][EH_MAX_LIVES], fv[EH_NB][EH_MAX_LIVES];
        eh_first_per_byte(&jrf_log, &g, false, fj);
        eh_first_per_byte(&vc_log, &g, true, fv);
        for (size_t b = 0; b < EH_NB; b++)
            for (int k = 0; k < EH_MAX_LIVES; k++) {
                struct eh_first x = fj[b][k], y = fv[b][k];
                racy += y.label >= 0;
                if (x.label != y.label || x.kind != y.kind) {
                    if (mismatches < 5)
                        printf("    round %d byte %zu life %d: jrf first race @%d (%c), vc first WW/WR @%d (%c)\n",
                               round, b, k, x.label, x.kind ? x.kind : '-', y.label, y.kind ? y.kind : '-');
                    mismatches++;
                }
            }
        /* RW-only bytes: vc's first race has no write partner and jrf is silent on the lifetime */
        static struct eh_first fa[EH_NB][EH_MAX_LIVES];
        eh_first_per_byte(&vc_log, &g, false, fa);
        for (size_t b = 0; b < EH_NB; b++)
            for (int k = 0; k < EH_MAX_LIVES; k++)
                rw += fa[b][k].label >= 0 && fa[b][k].kind == 'R' && fj[b][k].label < 0;
        /* every report against the literal h */
        h_mismatch += compare_with_h((uintptr_t)g.mem, round);
        for (int k = 0; k < jrf_log.n; k++)
            not_write += !jrf_log.r[k].prev_write;
        eh_random_finish(&g);
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
    eh_verbose = argc > 1;
    eh_rng = 0x9E3779B97F4A7C15ull;
    jrf_sink = eh_start(&goldi_engine_jrf, &jrf_log);
    eh_start(&goldi_engine_vc, &vc_log);
    eh_track(&h_log);
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
    eh_print_stats(jrf_sink);
    return harness_summary();
}
