/* Unit tests of the FastTrack engine: the worked examples of ALGORITHMS.md §4
 * (P column), each epoch rule and its counter, byte granularity, lifetimes,
 * atomics, memory release, real threads dispatching concurrently, and a random
 * differential run against the vc engine: the first race per byte (event and
 * kind WW/WR/RW) must agree exactly (class P-FULL, §3). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "engine_harness.h"

static struct eh_log ft_log = EH_LOG_INIT(true), vc_log = EH_LOG_INIT(false);
static struct goldi_sink *ft_sink;

static uint64_t stat_of(const char *name) { return eh_stat(ft_sink, name); }

/* --- handbook §4 examples (P column) ------------------------------------------------------ */

CASE(fasttrack_example_A_intbox_swap) {
    eh_example_A();
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
    EXPECT_EQ(first_label(&ft_log), 16);
    EXPECT(write_partner_at(&ft_log, 16));
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
    EXPECT_EQ(first_label(&ft_log), 18);
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
    EXPECT_EQ(first_label(&ft_log), 18);
    end();
}

/* H: the read-shared VC is what finds H10 (storing only the last reader misses it). */
CASE(fasttrack_example_H_read_shared) {
    uint64_t share0 = stat_of("fasttrack.read_share"), wsh0 = stat_of("fasttrack.write_shared");
    eh_example_H(false);
    EXPECT_EQ(first_label(&ft_log), 10);
    EXPECT_EQ(ft_log.n, 1);
    EXPECT(ft_log.n == 1 && ft_log.r[0].prev_tid == scen_thr[1]->tid && !ft_log.r[0].prev_write);
    EXPECT_EQ(stat_of("fasttrack.read_share") - share0, 8);    /* one per byte */
    EXPECT_EQ(stat_of("fasttrack.write_shared") - wsh0, 8);
    end();
}

CASE(fasttrack_regressions_G_ALOCK_G_RWALOCK) {
    EXPECT_EQ(eh_regressions_G_ALOCK_G_RWALOCK(&ft_log), 8);
    EXPECT_EQ(races_at(&ft_log, 14), 1);
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
    EXPECT_EQ(first_label(&ft_log), 11);
    EXPECT(write_partner_at(&ft_log, 11));
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
    EXPECT_EQ(races_at(&ft_log, 7), 1);
    /* free is a write; alloc ends all history and releases the records */
    uint64_t recs = stat_of("fasttrack.byte_records");
    acc(8, GOLDI_EV_FREE, T2, x, 16);
    EXPECT(races_at(&ft_log, 8) >= 1);
    EXPECT_EQ(stat_of("fasttrack.byte_records"), recs - 16);
    acc(9, GOLDI_EV_ALLOC, T1, x, 16);
    rd(10, T1, x); wr(11, T1, x + 8);
    EXPECT_EQ(races_at(&ft_log, 10) + races_at(&ft_log, 11), 0);
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
    EXPECT_EQ(first_label(&ft_log), 11);
    EXPECT(write_partner_at(&ft_log, 11) && ft_log.r[0].prev_tid == T1->tid && ft_log.r[0].prev_atomic);
    /* failed CAS is a read: races with a plain write as RW */
    atom(13, GOLDI_EV_ATOMIC_CASFAIL, T1, q, ACQ);
    wr(14, T2, q);
    EXPECT_EQ(races_at(&ft_log, 14), 1);
    EXPECT(!write_partner_at(&ft_log, 14));
    /* a plain write, then an atomic load elsewhere: WR */
    wr(15, T1, c); atom(16, GOLDI_EV_ATOMIC_LOAD, T2, c, ACQ);
    EXPECT_EQ(races_at(&ft_log, 16), 1);
    EXPECT(write_partner_at(&ft_log, 16));
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
    EXPECT_EQ(first_label(&ft_log), 31);
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

/* Random rounds with every sync kind (engine_harness.h). Lifetimes: bytes
 * raced before a free are compared only up to it (vc and fasttrack both
 * report per lifetime). */
static void random_vs_vc(int rounds) {
    int mismatches = 0, racy = 0, rw = 0;
    struct eh_random_cfg cfg = EH_RANDOM_ALL_SYNC;
    for (int round = 0; round < rounds; round++) {
        struct eh_round g;
        eh_random_round(&g, &cfg);
        static struct eh_first ff[EH_NB][EH_MAX_LIVES], fv[EH_NB][EH_MAX_LIVES];
        eh_first_per_byte(&ft_log, &g, false, ff);
        eh_first_per_byte(&vc_log, &g, false, fv);
        for (size_t b = 0; b < EH_NB; b++)
            for (int k = 0; k < EH_MAX_LIVES; k++) {
                struct eh_first x = ff[b][k], y = fv[b][k];
                racy += y.label >= 0;
                rw += y.label >= 0 && y.kind == 'R';
                if (x.label != y.label || x.kind != y.kind) {
                    if (mismatches < 5)
                        printf("    round %d byte %zu life %d: fasttrack first race @%d (%c), vc @%d (%c)\n",
                               round, b, k, x.label, x.kind ? x.kind : '-', y.label, y.kind ? y.kind : '-');
                    mismatches++;
                }
            }
        eh_random_finish(&g);
    }
    printf("    %d random traces: %d racy bytes (vc), %d of them RW first, %d first-race mismatches\n",
           rounds, racy, rw, mismatches);
    EXPECT(racy > rounds / 4);
    EXPECT(rw > 0);
    EXPECT_EQ(mismatches, 0);
}

CASE(fasttrack_random_vs_vc) { random_vs_vc(2000); }

int main(int argc, char **argv) {
    eh_verbose = argc > 1;
    eh_rng = 0x9E3779B97F4A7C15ull;
    ft_sink = eh_start(&goldi_engine_fasttrack, &ft_log);
    eh_start(&goldi_engine_vc, &vc_log);
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
    eh_print_stats(ft_sink);
    return harness_summary();
}
