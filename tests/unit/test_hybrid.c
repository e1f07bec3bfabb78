/* Unit tests of the lockset engines: hybrid-short / hybrid-long (Helgrind+
 * MSM-short / MSM-long with condition-variable handling, ALGORITHMS.md 2.6)
 * and eraser (2.5). Scenarios are dispatched event by event; every engine
 * sees the same events and logs its races with the label of the event. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "engine_harness.h"

static struct eh_log er_log = EH_LOG_INIT(true), hs_log = EH_LOG_INIT(true), hl_log = EH_LOG_INIT(true);
static struct goldi_sink *er_sink, *hs_sink, *hl_sink;

/* --- §4 C: lost signal ------------------------------------------------------------ */

CASE(hybrid_example_C_predicate_read_orders_lost_signal) {
    uint64_t p0 = eh_stat(hs_sink, "hybrid-short.predicate_read_edges");
    eh_example_C(true);
    EXPECT_EQ(hs_log.n, 0);
    EXPECT_EQ(hl_log.n, 0);
    EXPECT_EQ(eh_stat(hs_sink, "hybrid-short.predicate_read_edges"), p0 + 1);
    EXPECT_EQ(first_label(&er_log), 11);     /* Eraser: false alarm */
    end();
}

CASE(hybrid_example_C_without_signal_is_a_false_alarm) {
    /* Without the signal there is no DS(FLAG): the lock chain l is no edge. */
    eh_example_C(false);
    EXPECT_EQ(first_label(&hs_log), 11);
    EXPECT_EQ(first_label(&hl_log), 11);
    EXPECT_EQ(hs_log.n, 1);
    if (hs_log.n)
        EXPECT(hs_log.r[0].cur_write && hs_log.r[0].prev_write);
    end();
}

/* --- §4 D: two signal/wait pairs ------------------------------------------------------ */

/* eh_example_D(bug, read_pred): without the predicate reads (D6, D9) R_t is
 * empty at wait_exit and only the fake segment orders the waiters. */

CASE(hybrid_example_D_write_read_relation) {
    uint64_t wr0 = eh_stat(hs_sink, "hybrid-short.wait_write_read_edges");
    uint64_t fk0 = eh_stat(hs_sink, "hybrid-short.wait_fake_segment_edges");
    eh_example_D(false, true);
    EXPECT_EQ(hs_log.n, 0);
    EXPECT_EQ(hl_log.n, 0);
    EXPECT_EQ(eh_stat(hs_sink, "hybrid-short.wait_write_read_edges"), wr0 + 2);
    EXPECT_EQ(eh_stat(hs_sink, "hybrid-short.wait_fake_segment_edges"), fk0);
    EXPECT_EQ(races_at(&er_log, 24), 1);     /* Eraser: D24, D28 false alarms */
    EXPECT_EQ(races_at(&er_log, 28), 1);
    end();
}

CASE(hybrid_example_D_bug_reports_D24) {
    /* W1 is ordered after S1 only (through F1): D24's write of Y races with
     * S2's D16 (the race another schedule exposes); Y is then Race, so D28 is
     * not reported again. */
    eh_example_D(true, true);
    EXPECT_EQ(first_label(&hs_log), 24);
    EXPECT_EQ(hs_log.n, 1);
    EXPECT_EQ(first_label(&hl_log), 24);
    EXPECT_EQ(hl_log.n, 1);
    if (hs_log.n)
        EXPECT(hs_log.r[0].prev_tid == scen_thr[2]->tid && hs_log.r[0].prev_write);   /* S2's D16 */
    end();
}

CASE(hybrid_example_D_fake_segment) {
    uint64_t fk0 = eh_stat(hs_sink, "hybrid-short.wait_fake_segment_edges");
    eh_example_D(false, false);
    EXPECT_EQ(hs_log.n, 0);
    EXPECT_EQ(hl_log.n, 0);
    EXPECT_EQ(eh_stat(hs_sink, "hybrid-short.wait_fake_segment_edges"), fk0 + 2);
    end();
    /* D-bug with the fake segment only: W1 is ordered after S2 as well (a false
     * edge hides D24); W2 is not ordered after W1's D24: D28. */
    eh_example_D(true, false);
    EXPECT_EQ(races_at(&hs_log, 24), 0);
    EXPECT_EQ(first_label(&hs_log), 28);
    EXPECT_EQ(first_label(&hl_log), 28);
    end();
}

/* --- R_t / W_t bounds and DS lifetime -------------------------------------------- */

CASE(hybrid_rw_ring_is_bounded) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new();
    char *many = var(8 * 100), *DATA = var(8), *FLAG = var(8);
    struct goldi_sync *l = sync_new(GOLDI_SYNC_MUTEX), *CV = sync_new(GOLDI_SYNC_COND);
    uint64_t ev0 = eh_stat(hs_sink, "hybrid-short.rw_ring_evictions");
    uint64_t ds0 = eh_stat(hs_sink, "hybrid-short.ds_recorded");
    fork_(1, T0, T1); fork_(2, T0, T2);
    wr(3, T1, DATA); acq(4, T1, l);
    for (int i = 0; i < 100; i++)
        wr(5, T1, many + 8 * i);
    wr(6, T1, FLAG); signal_(7, T1, CV); rel(8, T1, l);
    acq(9, T2, l); rd(10, T2, FLAG); rel(11, T2, l); wr(12, T2, DATA);
    /* 101 writes into a ring of 64: 37 evicted; DS recorded for the 64 latest,
     * FLAG among them, so the predicate read still orders T2. */
    EXPECT_EQ(eh_stat(hs_sink, "hybrid-short.rw_ring_evictions"), ev0 + 37);
    EXPECT_EQ(eh_stat(hs_sink, "hybrid-short.ds_recorded"), ds0 + 64);
    EXPECT_EQ(hs_log.n, 0);
    end();
}

CASE(hybrid_ds_forgotten_on_free) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new();
    char *DATA = var(8), *FLAG = var(8);
    struct goldi_sync *l = sync_new(GOLDI_SYNC_MUTEX), *CV = sync_new(GOLDI_SYNC_COND);
    fork_(1, T0, T1); fork_(2, T0, T2);
    alloc_(3, T1, FLAG, 8);
    wr(4, T1, DATA); acq(5, T1, l); wr(6, T1, FLAG); signal_(7, T1, CV); rel(8, T1, l);
    free_(9, T1, FLAG, 8); alloc_(10, T1, FLAG, 8);      /* new lifetime: DS(FLAG) gone */
    acq(11, T2, l); rd(12, T2, FLAG); rel(13, T2, l); wr(14, T2, DATA);
    EXPECT_EQ(first_label(&hs_log), 14);
    EXPECT_EQ(races_at(&hs_log, 12), 0);
    end();
}

CASE(hybrid_predicate_read_needs_same_mutex) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new();
    char *DATA = var(8), *FLAG = var(8);
    struct goldi_sync *m = sync_new(GOLDI_SYNC_MUTEX), *n = sync_new(GOLDI_SYNC_MUTEX);
    struct goldi_sync *CV = sync_new(GOLDI_SYNC_COND);
    fork_(1, T0, T1); fork_(2, T0, T2);
    wr(3, T1, DATA); acq(4, T1, m); wr(5, T1, FLAG); signal_(6, T1, CV); rel(7, T1, m);
    acq(8, T2, n); rd(9, T2, FLAG); rel(10, T2, n); wr(11, T2, DATA);
    EXPECT_EQ(first_label(&hs_log), 11);
    end();
}

/* --- MSM tables ------------------------------------------------------------------ */

CASE(hybrid_example_H_short_reports_long_defers) {
    for (int ok = 0; ok <= 1; ok++) {
        eh_example_H(ok);
        EXPECT_EQ(first_label(&hs_log), 10);     /* ShR, C = {}, TS_T1 ∥ TS_T3 */
        if (hs_log.n)
            EXPECT(hs_log.r[0].cur_write && !hs_log.r[0].prev_write);
        EXPECT_EQ(hl_log.n, 0);                  /* ShR -> ExclRW, no report */
        EXPECT_EQ(first_label(&er_log), 10);
        end();
    }
}

CASE(hybrid_long_reports_repeated_exhaustion) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new(), *T3 = thr_new();
    char *x = var(8);
    struct goldi_sync *A = sync_new(GOLDI_SYNC_MUTEX), *B = sync_new(GOLDI_SYNC_MUTEX), *C = sync_new(GOLDI_SYNC_MUTEX);
    fork_(1, T0, T1); fork_(2, T0, T2); fork_(3, T0, T3);
    acq(4, T1, A); wr(5, T1, x); rel(6, T1, A);
    acq(7, T2, B); wr(8, T2, x); rel(9, T2, B);     /* ExclW -> ShM(1) {B} */
    acq(10, T1, A); wr(11, T1, x); rel(12, T1, A);  /* short: Race; long: ExclRW */
    acq(13, T2, B); wr(14, T2, x); rel(15, T2, B);  /* long: ShM2 {B} */
    acq(16, T3, C); wr(17, T3, x); rel(18, T3, C);  /* long: Race */
    EXPECT_EQ(first_label(&hs_log), 11);
    EXPECT_EQ(hs_log.n, 1);
    EXPECT_EQ(first_label(&hl_log), 17);
    EXPECT_EQ(hl_log.n, 1);
    EXPECT_EQ(first_label(&er_log), 11);
    end();
}

CASE(hybrid_excl_to_shared_modified_with_locks) {
    /* §4 A: an unordered access holding a lock moves ExclW to ShM instead of
     * reporting; the common lock L2 keeps C non-empty afterwards. */
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T3 = thr_new();
    char *x = var(8);
    struct goldi_sync *L1 = sync_new(GOLDI_SYNC_MUTEX), *L2 = sync_new(GOLDI_SYNC_MUTEX);
    wr(1, T0, x); fork_(2, T0, T1); fork_(3, T0, T3);
    acq(4, T1, L1); rd(5, T1, x); wr(6, T1, x); rel(7, T1, L1);
    acq(8, T3, L2); rd(9, T3, x); wr(10, T3, x); rel(11, T3, L2);
    acq(12, T3, L2); wr(13, T3, x); rel(14, T3, L2);
    EXPECT_EQ(hs_log.n, 0);
    EXPECT_EQ(hl_log.n, 0);
    EXPECT_EQ(first_label(&er_log), 9);      /* Eraser: C = {L1} ∩ {L2} */
    end();
}

CASE(hybrid_rwlock_read_mode_does_not_protect_writes) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new();
    char *x = var(8), *y = var(8);
    struct goldi_sync *R = sync_new(GOLDI_SYNC_RWLOCK);
    fork_(1, T0, T1); fork_(2, T0, T2);
    rdlock(3, T1, R); wr(4, T1, x); rd(5, T1, y); rdunlock(6, T1, R);
    rdlock(7, T2, R); rd(8, T2, y); wr(9, T2, x); rdunlock(10, T2, R);
    EXPECT_EQ(first_label(&hs_log), 9);
    EXPECT_EQ(hs_log.n, 1);
    EXPECT_EQ(first_label(&er_log), 9);
    EXPECT_EQ(er_log.n, 1);
    end();
}

CASE(hybrid_atomic_edges) {
    for (int rlx = 0; rlx <= 1; rlx++) {
        eh_example_E(rlx ? RLX : REL, rlx ? RLX : ACQ);
        EXPECT_EQ(first_label(&hs_log), rlx ? 6 : -1);
        EXPECT_EQ(first_label(&hl_log), rlx ? 6 : -1);
        EXPECT_EQ(er_log.n, 0);                  /* Eraser: a read leaves d Shared */
        end();
    }
}

CASE(hybrid_join_is_an_edge) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new();
    char *x = var(8);
    wr(1, T0, x); fork_(2, T0, T1); wr(3, T1, x); exit_(4, T1); join_(5, T0, T1); wr(6, T0, x);
    EXPECT_EQ(hs_log.n, 0);
    EXPECT_EQ(hl_log.n, 0);
    EXPECT_EQ(first_label(&er_log), 3);
    end();
}

CASE(hybrid_thread_state_is_freed) {
    uint64_t t0 = eh_stat(hs_sink, "hybrid-short.threads"), e0 = eh_stat(er_sink, "eraser.threads");
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new();
    char *x = var(8);
    fork_(1, T0, T1); wr(2, T1, x); wr(3, T0, x);
    EXPECT_EQ(eh_stat(hs_sink, "hybrid-short.threads"), t0 + 2);
    EXPECT_EQ(eh_stat(er_sink, "eraser.threads"), e0 + 2);
    end();
    EXPECT_EQ(eh_stat(hs_sink, "hybrid-short.threads"), t0);
    EXPECT_EQ(eh_stat(er_sink, "eraser.threads"), e0);
}

CASE(hybrid_free_releases_byte_records) {
    uint64_t r0 = eh_stat(hl_sink, "hybrid-long.byte_records");
    begin();
    struct goldi_thr *T0 = thr_new();
    char *p = var(64);
    alloc_(1, T0, p, 64);
    for (int i = 0; i < 8; i++)
        wr(2, T0, p + 8 * i);
    EXPECT_EQ(eh_stat(hl_sink, "hybrid-long.byte_records"), r0 + 64);
    free_(3, T0, p, 64);
    EXPECT_EQ(eh_stat(hl_sink, "hybrid-long.byte_records"), r0);
    end();
}

/* --- eraser ----------------------------------------------------------------------- */

CASE(eraser_once_per_byte_and_lifetimes) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new();
    char *x = var(8);
    fork_(1, T0, T1); fork_(2, T0, T2);
    alloc_(3, T1, x, 8);
    wr(4, T1, x); wr(5, T2, x); wr(6, T1, x); wr(7, T2, x);
    EXPECT_EQ(er_log.n, 1);                  /* once per byte range */
    EXPECT_EQ(first_label(&er_log), 5);
    if (er_log.n)
        EXPECT_EQ(er_log.r[0].size, 8);      /* bytes with one partner: one report */
    free_(8, T2, x, 8);                      /* Raced: not checked again */
    alloc_(9, T1, x, 8);
    wr(10, T1, x); rd(11, T2, x);            /* Virgin -> Exclusive -> Shared: silent */
    EXPECT_EQ(er_log.n, 1);
    wr(12, T2, x);                           /* Shared -> SharedMod, C = {} */
    EXPECT_EQ(er_log.n, 2);
    EXPECT_EQ(races_at(&er_log, 12), 1);
    end();
}

CASE(eraser_common_lock_is_silent) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new();
    char *x = var(8);
    struct goldi_sync *L = sync_new(GOLDI_SYNC_MUTEX), *M = sync_new(GOLDI_SYNC_MUTEX);
    fork_(1, T0, T1); fork_(2, T0, T2);
    acq(3, T1, L); acq(4, T1, M); wr(5, T1, x); rel(6, T1, M); rel(7, T1, L);
    acq(8, T2, M); wr(9, T2, x); rel(10, T2, M);
    acq(11, T1, L); acq(12, T1, M); rd(13, T1, x); rel(14, T1, M); rel(15, T1, L);
    EXPECT_EQ(er_log.n, 0);                  /* C = {M} throughout */
    acq(16, T2, L); wr(17, T2, x); rel(18, T2, L);
    EXPECT_EQ(first_label(&er_log), 17);     /* {M} ∩ {L} = {} */
    if (er_log.n)
        EXPECT(strstr(er_log.r[0].why, "eraser") != NULL);
    end();
}

int main(int argc, char **argv) {
    eh_verbose = argc > 1;
    eh_end_frees_threads = true;
    er_sink = eh_start(&goldi_engine_eraser, &er_log);
    hs_sink = eh_start(&goldi_engine_hybrid_short, &hs_log);
    hl_sink = eh_start(&goldi_engine_hybrid_long, &hl_log);
    RUN(hybrid_example_C_predicate_read_orders_lost_signal);
    RUN(hybrid_example_C_without_signal_is_a_false_alarm);
    RUN(hybrid_example_D_write_read_relation);
    RUN(hybrid_example_D_bug_reports_D24);
    RUN(hybrid_example_D_fake_segment);
    RUN(hybrid_rw_ring_is_bounded);
    RUN(hybrid_ds_forgotten_on_free);
    RUN(hybrid_predicate_read_needs_same_mutex);
    RUN(hybrid_example_H_short_reports_long_defers);
    RUN(hybrid_long_reports_repeated_exhaustion);
    RUN(hybrid_excl_to_shared_modified_with_locks);
    RUN(hybrid_rwlock_read_mode_does_not_protect_writes);
    RUN(hybrid_atomic_edges);
    RUN(hybrid_join_is_an_edge);
    RUN(hybrid_thread_state_is_freed);
    RUN(hybrid_free_releases_byte_records);
    RUN(eraser_once_per_byte_and_lifetimes);
    RUN(eraser_common_lock_is_silent);
    return harness_summary();
}
