/* Unit tests of the Goldilocks engine: every worked example of ALGORITHMS.md
 * §4 (P column), the alock regressions, byte granularity, lifetimes, every
 * sync kind, atomics, the short-circuits, the bounded update list, and a
 * random differential run against the vc engine (first race per byte, §3). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "engine_harness.h"
#include "engine/goldilocks/gls.h"
#include "base/alloc.h"

static struct eh_log gls_log = EH_LOG_INIT(true), vc_log = EH_LOG_INIT(false);
static struct goldi_sink *gls_sink;

static uint64_t stat_of(const char *name) { return eh_stat(gls_sink, name); }

/* --- §4 worked examples --------------------------------------------------------------- */

CASE(goldilocks_example_A_intbox_swap) {
    eh_example_A();
    EXPECT_EQ(gls_log.n, 0);
    end();
}

CASE(goldilocks_example_B_container) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new(), *T3 = thr_new();
    char *x = var(8), *a = var(8), *b = var(8);
    struct goldi_sync *La = sync_new(GOLDI_SYNC_MUTEX), *Lb = sync_new(GOLDI_SYNC_MUTEX);
    fork_(1, T0, T1); fork_(2, T0, T2); fork_(3, T0, T3);
    alloc_(4, T1, x, 8); wr(5, T1, x); acq(6, T1, La); wr(7, T1, a); rel(8, T1, La);
    acq(9, T2, La); rd(10, T2, a); rel(11, T2, La); acq(12, T2, Lb); wr(13, T2, b); rel(14, T2, Lb);
    acq(15, T3, Lb); rd(16, T3, b); wr(17, T3, x); rd(18, T3, b); rel(19, T3, Lb); wr(20, T3, x);
    EXPECT_EQ(gls_log.n, 0);
    end();
}

CASE(goldilocks_example_C_lost_signal) {
    eh_example_C(true);
    EXPECT_EQ(gls_log.n, 0);
    end();
}

CASE(goldilocks_example_D_two_waiters) {
    eh_example_D(false, true);
    EXPECT_EQ(gls_log.n, 0);
    end();
}

CASE(goldilocks_example_D_bug) {
    eh_example_D(true, true);
    EXPECT_EQ(races_at(&gls_log, 24), 0);           /* D24 is ordered after D16 via m */
    EXPECT_EQ(first_label(&gls_log), 28);
    EXPECT_EQ(gls_log.n, 1);
    if (gls_log.n)
        EXPECT(gls_log.r[0].cur_write && gls_log.r[0].prev_write);
    end();
}

CASE(goldilocks_example_E_message_passing) {
    eh_example_E(REL, ACQ);
    EXPECT_EQ(gls_log.n, 0);
    end();
}

CASE(goldilocks_example_E_rlx) {
    eh_example_E(RLX, RLX);
    EXPECT_EQ(first_label(&gls_log), 6);
    EXPECT_EQ(gls_log.n, 1);
    if (gls_log.n)
        EXPECT(!gls_log.r[0].cur_write && gls_log.r[0].prev_write);   /* WR, partner E3 */
    end();
}

/* F with its variants: 0 = F, 1 = F-a (no F7), 2 = F-b (F3; F5; F4), 3 = F-c (F7; F6). */
static void example_F(int variant) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new();
    char *d = var(8), *f = var(8);
    fork_(1, T0, T1); fork_(2, T0, T2);
    wr(3, T1, d);
    if (variant == 2) {
        atom(5, GOLDI_EV_ATOMIC_STORE, T1, f, RLX); fence(4, T1, REL);
    } else {
        fence(4, T1, REL); atom(5, GOLDI_EV_ATOMIC_STORE, T1, f, RLX);
    }
    if (variant == 3) {
        fence(7, T2, ACQ); atom(6, GOLDI_EV_ATOMIC_LOAD, T2, f, RLX);
    } else {
        atom(6, GOLDI_EV_ATOMIC_LOAD, T2, f, RLX);
        if (variant != 1)
            fence(7, T2, ACQ);
    }
    rd(8, T2, d);
}

CASE(goldilocks_example_F_fences) {
    example_F(0);
    EXPECT_EQ(gls_log.n, 0);
    end();
    for (int v = 1; v <= 3; v++) {
        example_F(v);
        EXPECT_EQ(first_label(&gls_log), 8);
        EXPECT_EQ(gls_log.n, 1);
        end();
    }
}

static void example_G(bool brk) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new(), *T3 = thr_new();
    char *d = var(8), *f = var(8);
    fork_(1, T0, T1); fork_(2, T0, T2); fork_(3, T0, T3);
    wr(4, T1, d); atom(5, GOLDI_EV_ATOMIC_STORE, T1, f, REL);
    atom(6, brk ? GOLDI_EV_ATOMIC_STORE : GOLDI_EV_ATOMIC_RMW, T3, f, RLX);
    atom(7, GOLDI_EV_ATOMIC_LOAD, T2, f, ACQ);
    rd(8, T2, d);
}

CASE(goldilocks_example_G_release_sequence) {
    example_G(false);
    EXPECT_EQ(gls_log.n, 0);
    end();
    example_G(true);                     /* G-break: the relaxed store cuts the sequence */
    EXPECT_EQ(first_label(&gls_log), 8);
    EXPECT_EQ(gls_log.n, 1);
    end();
}

CASE(goldilocks_example_H_read_shared) {
    eh_example_H(false);
    EXPECT_EQ(first_label(&gls_log), 10);
    EXPECT_EQ(gls_log.n, 1);              /* partner H5 only */
    if (gls_log.n)
        EXPECT(gls_log.r[0].prev_tid == scen_thr[1]->tid && !gls_log.r[0].prev_write &&
               gls_log.r[0].cur_write);
    end();
    eh_example_H(true);
    EXPECT_EQ(gls_log.n, 0);
    end();
}

CASE(goldilocks_regression_G_ALOCK) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new();
    char *x = var(8);
    struct goldi_sync *L = sync_new(GOLDI_SYNC_MUTEX);
    fork_(1, T0, T1); fork_(2, T0, T2);
    acq(3, T1, L); wr(4, T1, x); rel(5, T1, L); wr(6, T1, x); acq(7, T2, L); wr(8, T2, x);
    EXPECT_EQ(first_label(&gls_log), 8);
    EXPECT_EQ(gls_log.n, 1);
    end();
}

CASE(goldilocks_regression_G_RWALOCK) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new();
    char *x = var(8);
    struct goldi_sync *R = sync_new(GOLDI_SYNC_RWLOCK);
    fork_(1, T0, T1); fork_(2, T0, T2);
    rdlock(3, T1, R); wr(4, T1, x); rdunlock(5, T1, R); rdlock(6, T2, R); wr(7, T2, x);
    EXPECT_EQ(first_label(&gls_log), 7);
    EXPECT_EQ(gls_log.n, 1);
    end();
}

CASE(goldilocks_rwlock_modes) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new(), *T3 = thr_new();
    char *x = var(8), *y = var(8);
    struct goldi_sync *R = sync_new(GOLDI_SYNC_RWLOCK);
    fork_(1, T0, T1); fork_(2, T0, T2); fork_(3, T0, T3);
    acq(4, T1, R); wr(5, T1, x); rel(6, T1, R);          /* writer */
    rdlock(7, T2, R); rd(8, T2, x); wr(9, T2, y); rdunlock(10, T2, R);   /* reader sees it */
    acq(11, T3, R); wr(12, T3, x); rd(13, T3, y); rel(14, T3, R);        /* writer after readers */
    EXPECT_EQ(gls_log.n, 0);
    end();
}

/* --- bytes and lifetimes ----------------------------------------------------------------- */

CASE(goldilocks_byte_granularity) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new();
    char *x = var(16);
    fork_(1, T0, T1); fork_(2, T0, T2);
    wrn(3, T1, x, 1); wrn(4, T2, x + 1, 1);             /* adjacent bytes: no race */
    wrn(5, T1, x + 2, 2); rdn(6, T2, x + 4, 4);
    EXPECT_EQ(gls_log.n, 0);
    wrn(7, T1, x + 8, 4); wrn(8, T2, x + 10, 2);        /* overlap on bytes 10..11 */
    EXPECT_EQ(first_label(&gls_log), 8);
    EXPECT_EQ(gls_log.n, 1);
    if (gls_log.n)
        EXPECT(gls_log.r[0].addr == (uintptr_t)(x + 10) && gls_log.r[0].size == 2);
    end();
    /* An unaligned 8-byte write spans two granules; a 1-byte read of the second races. */
    begin();
    T0 = thr_new(); T1 = thr_new(); T2 = thr_new();
    char *y = var(16);
    fork_(1, T0, T1); fork_(2, T0, T2);
    wrn(3, T1, y + 4, 8); rdn(4, T2, y + 9, 1); rdn(5, T2, y + 12, 1);
    EXPECT_EQ(first_label(&gls_log), 4);
    EXPECT_EQ(gls_log.n, 1);
    end();
}

CASE(goldilocks_free_is_a_write_and_alloc_resets) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new();
    char *p = var(16);
    fork_(1, T0, T1); fork_(2, T0, T2);
    alloc_(3, T1, p, 16); wr(4, T1, p); rdn(5, T2, p + 8, 8);
    free_(6, T2, p, 16);                          /* free writes all 16 bytes: races with T1's write */
    EXPECT_EQ(first_label(&gls_log), 6);
    EXPECT_EQ(gls_log.n, 1);
    if (gls_log.n)
        EXPECT(gls_log.r[0].cur_write && gls_log.r[0].addr == (uintptr_t)p && gls_log.r[0].size == 8);
    end();
    begin();
    T0 = thr_new(); T1 = thr_new(); T2 = thr_new();
    char *q = var(16);
    fork_(1, T0, T1); fork_(2, T0, T2);
    alloc_(3, T1, q, 16); wr(4, T1, q); free_(5, T1, q, 16);
    alloc_(6, T2, q, 16); wr(7, T2, q); rd(8, T2, q + 8);  /* fresh lifetime: no history */
    EXPECT_EQ(gls_log.n, 0);
    end();
}

/* eh_example_free_forms through the dispatcher's pieces and the reset
 * after them (two sinks: no engine shortcut), as test_gls_fast's
 * goldilocks_fast_free_fused through the engine's; vc agrees. */
CASE(goldilocks_free_of_every_form) {
    eh_example_free_forms();
    const unsigned want = 1u << 21 | 1u << 22 | 1u << 23 | 1u << 24;   /* (31-34) */
    EXPECT_EQ(races_at(&gls_log, 40), 4);
    EXPECT_EQ(partners_at(&gls_log, 40, 10), want);
    EXPECT_EQ(gls_log.n, 4);
    EXPECT_EQ(races_at(&vc_log, 40), 4);
    EXPECT_EQ(partners_at(&vc_log, 40, 10), want);
    EXPECT_EQ(vc_log.n, 4);
    end();
}

/* --- sync kinds ------------------------------------------------------------------------------ */

CASE(goldilocks_barrier_per_generation) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new();
    char *y = var(8), *z = var(8);
    struct goldi_sync *B = sync_new(GOLDI_SYNC_BARRIER);
    fork_(1, T0, T1); fork_(2, T0, T2);
    wr(3, T1, y);
    bar(4, GOLDI_EV_BAR_ARRIVE, T1, B, 0); bar(5, GOLDI_EV_BAR_ARRIVE, T2, B, 0);
    bar(6, GOLDI_EV_BAR_DEPART, T1, B, 0);
    wr(7, T1, z);                                   /* after T1 departed g0 */
    bar(8, GOLDI_EV_BAR_ARRIVE, T1, B, 1);          /* fast thread re-arrives (T7) */
    bar(9, GOLDI_EV_BAR_DEPART, T2, B, 0);
    rd(10, T2, y);                                  /* ordered by g0 */
    rd(11, T2, z);                                  /* not ordered: g1 is another token */
    EXPECT_EQ(races_at(&gls_log, 10), 0);
    EXPECT_EQ(first_label(&gls_log), 11);
    EXPECT_EQ(gls_log.n, 1);
    end();
}

CASE(goldilocks_semaphore_once_fork_join) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new(), *T3 = thr_new();
    char *x = var(8), *y = var(8), *z = var(8), *w = var(8);
    struct goldi_sync *S = sync_new(GOLDI_SYNC_SEM), *O = sync_new(GOLDI_SYNC_ONCE);
    wr(1, T0, w);
    fork_(2, T0, T1); fork_(3, T0, T2); fork_(4, T0, T3);
    wr(5, T1, w);                                   /* fork orders T0's write before T1 */
    wr(6, T1, x); obj_ev(7, GOLDI_EV_SEM_POST, T1, S); obj_ev(8, GOLDI_EV_SEM_WAIT, T2, S); rd(9, T2, x);
    wr(10, T2, y); obj_ev(11, GOLDI_EV_ONCE_DONE, T2, O); obj_ev(12, GOLDI_EV_ONCE_RET, T3, O); rd(13, T3, y);
    exit_(14, T1); join_(15, T0, T1); wr(16, T0, w);
    EXPECT_EQ(gls_log.n, 0);
    wr(18, T2, z); rd(19, T3, z);                   /* no sync at all */
    wr(20, T0, y);                                  /* T2/T3 not joined: races with T2's write and T3's read */
    EXPECT_EQ(first_label(&gls_log), 19);
    EXPECT_EQ(races_at(&gls_log, 20), 2);
    EXPECT_EQ(gls_log.n, 3);
    end();
}

/* --- atomics ------------------------------------------------------------------------------------- */

CASE(goldilocks_atomics_never_race_with_atomics) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new();
    char *A = var(8);
    fork_(1, T0, T1); fork_(2, T0, T2);
    atom(3, GOLDI_EV_ATOMIC_STORE, T1, A, RLX); atom(4, GOLDI_EV_ATOMIC_STORE, T2, A, RLX);
    atom(5, GOLDI_EV_ATOMIC_LOAD, T2, A, RLX); atom(6, GOLDI_EV_ATOMIC_RMW, T1, A, RLX);
    atom(7, GOLDI_EV_ATOMIC_CASFAIL, T2, A, RLX); atom(8, GOLDI_EV_ATOMIC_STORE, T1, A, RLX);
    EXPECT_EQ(gls_log.n, 0);
    end();
}

CASE(goldilocks_atomic_vs_plain) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new();
    char *A = var(8), *B = var(8), *C = var(8);
    fork_(1, T0, T1); fork_(2, T0, T2);
    wr(3, T1, A); atom(4, GOLDI_EV_ATOMIC_LOAD, T2, A, ACQ);       /* atomic read vs W */
    rd(5, T1, B); atom(6, GOLDI_EV_ATOMIC_STORE, T2, B, REL);      /* atomic write vs R */
    atom(7, GOLDI_EV_ATOMIC_STORE, T1, C, RLX); rd(8, T2, C);      /* plain read vs AW */
    EXPECT_EQ(races_at(&gls_log, 4), 1);
    EXPECT_EQ(races_at(&gls_log, 6), 1);
    EXPECT_EQ(races_at(&gls_log, 8), 1);
    EXPECT_EQ(gls_log.n, 3);
    if (gls_log.n == 3) {
        EXPECT(gls_log.r[0].cur_atomic && !gls_log.r[0].prev_atomic && gls_log.r[0].prev_write);
        EXPECT(gls_log.r[1].cur_atomic && gls_log.r[1].cur_write && !gls_log.r[1].prev_write);
        EXPECT(!gls_log.r[2].cur_atomic && gls_log.r[2].prev_atomic && gls_log.r[2].prev_write);
    }
    end();
}

CASE(goldilocks_failed_cas_is_a_read) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new();
    char *A = var(8), *B = var(8), *C = var(8);
    fork_(1, T0, T1); fork_(2, T0, T2);
    rd(3, T1, A); atom(4, GOLDI_EV_ATOMIC_CASFAIL, T2, A, RLX);    /* read/read: fine */
    rd(5, T1, B); atom(6, GOLDI_EV_ATOMIC_RMW, T2, B, RLX);        /* successful CAS writes */
    wr(7, T1, C); atom(8, GOLDI_EV_ATOMIC_CASFAIL, T2, C, RLX);    /* atomic read vs W */
    EXPECT_EQ(races_at(&gls_log, 4), 0);
    EXPECT_EQ(races_at(&gls_log, 6), 1);
    EXPECT_EQ(races_at(&gls_log, 8), 1);
    EXPECT_EQ(gls_log.n, 2);
    if (gls_log.n == 2)
        EXPECT(!gls_log.r[1].cur_write && gls_log.r[1].cur_atomic);
    end();
}

/* --- walks and short-circuits ----------------------------------------------------------------- */

CASE(goldilocks_walk_across_many_cells) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new(), *T3 = thr_new();
    char *x = var(8), *y = var(8), *z = var(8);
    struct goldi_sync *L = sync_new(GOLDI_SYNC_MUTEX), *M = sync_new(GOLDI_SYNC_MUTEX);
    fork_(1, T0, T1); fork_(2, T0, T2); fork_(3, T0, T3);
    acq(4, T1, L); wr(5, T1, x); wr(6, T1, y); rel(7, T1, L);
    wr(7, T1, z);   /* (appends T1's deferred release cell here, before T3's: the walks cross them) */
    uint64_t skipped = stat_of("goldilocks.acquire_cells_skipped");
    lock_rounds(8, T3, M, 5001); /* T3 alone: its acquires after the first of each lock add no cell */
    EXPECT_EQ(stat_of("goldilocks.acquire_cells_skipped"), skipped + 4999);
    uint64_t walks = stat_of("goldilocks.walks"), cells = stat_of("goldilocks.cells_walked");
    acq(10, T2, L); rel(11, T2, L);
    wr(12, T2, x);                                  /* ordered via L: found by a walk */
    EXPECT_EQ(gls_log.n, 0);
    EXPECT_EQ(stat_of("goldilocks.walks"), walks + 1);
    EXPECT(stat_of("goldilocks.cells_walked") > cells + 5000);
    lock_rounds(13, T3, M, 5000);
    wr(15, T3, y);                                  /* T3 never took L: race after a long walk */
    EXPECT_EQ(first_label(&gls_log), 15);
    EXPECT_EQ(gls_log.n, 1);
    if (gls_log.n)
        EXPECT(strstr(gls_log.r[0].why, "walked") != NULL);
    end();
}

CASE(goldilocks_short_circuits) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new();
    char *x = var(8);
    struct goldi_sync *L = sync_new(GOLDI_SYNC_MUTEX);
    fork_(1, T0, T1); fork_(2, T0, T2);
    uint64_t own = stat_of("goldilocks.owner_short_circuits");
    uint64_t kept = stat_of("goldilocks.records_kept");
    uint64_t al = stat_of("goldilocks.alock_short_circuits");
    uint64_t walks = stat_of("goldilocks.walks");
    acq(3, T1, L); wr(4, T1, x); wr(5, T1, x); rel(6, T1, L);     /* owner: inline, kept, no check */
    EXPECT_EQ(stat_of("goldilocks.records_kept"), kept + 1);
    acq(7, T2, L); wr(8, T2, x); rel(9, T2, L);                   /* alock (kept by the inline record) */
    EXPECT_EQ(gls_log.n, 0);
    EXPECT(stat_of("goldilocks.alock_short_circuits") >= al + 1);
    EXPECT_EQ(stat_of("goldilocks.walks"), walks);
    /* the general representation: an R of T1 next to T2's W */
    rd(10, T1, x); wr(11, T1, x);                                 /* races: T1 did not take L after T2 */
    int before = gls_log.n;
    EXPECT(before > 0);
    acq(12, T1, L); rel(13, T1, L);
    acq(14, T2, L); rd(15, T2, x); wr(16, T2, x); rel(17, T2, L); /* T2's write checks its own R */
    EXPECT(stat_of("goldilocks.owner_short_circuits") >= own + 1);
    EXPECT_EQ(gls_log.n, before);
    end();
}

/* --- granule records, epochs, caches ------------------------------------------------------------ */

CASE(goldilocks_granule_sharing_and_splitting) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new();
    char *x = var(8), *y = var(8), *z = var(8);
    fork_(1, T0, T1); fork_(2, T0, T2);
    uint64_t ent0 = stat_of("goldilocks.entries_live"), inl0 = stat_of("goldilocks.inline_records");
    uint64_t pk0 = stat_of("goldilocks.packed_records"), hf0 = stat_of("goldilocks.inline_half_records");
    wr(3, T1, x);                                   /* one thread: an inline record, no entry */
    EXPECT_EQ(stat_of("goldilocks.entries_live"), ent0);
    EXPECT_EQ(stat_of("goldilocks.inline_records"), inl0 + 1);
    wrn(4, T1, y, 4); wrn(5, T1, y + 4, 4);         /* other origins (pcs) per half: a half record */
    EXPECT_EQ(stat_of("goldilocks.inline_half_records"), hf0 + 1);
    EXPECT_EQ(stat_of("goldilocks.packed_records"), pk0);
    EXPECT_EQ(stat_of("goldilocks.entries_live"), ent0);
    wrn(4, T1, z, 4); wrn(4, T1, z + 4, 4);         /* same origin and epoch: one inline record */
    EXPECT_EQ(stat_of("goldilocks.packed_records"), pk0);
    EXPECT_EQ(stat_of("goldilocks.inline_records"), inl0 + 3);
    EXPECT_EQ(stat_of("goldilocks.inline_half_records"), hf0 + 1);
    uint64_t sh0 = stat_of("goldilocks.records_shared");
    char *v = var(8);
    wrn(4, T1, v, 2); wrn(5, T1, v + 2, 2);         /* two histories in a half: bytes 0-1 (pc 4), 2-3 (pc 5) */
    wrn(4, T1, v + 4, 2);                           /* same history as bytes 0-1: joins that cell */
    EXPECT_EQ(stat_of("goldilocks.records_shared"), sh0 + 1);
    EXPECT_EQ(stat_of("goldilocks.packed_records"), pk0 + 1);
    EXPECT_EQ(stat_of("goldilocks.entries_live"), ent0);
    wrn(6, T2, x + 2, 1);                           /* expands x; splits: races on byte 2 only */
    EXPECT_EQ(gls_log.n, 1);
    if (gls_log.n) {
        EXPECT_EQ(gls_log.r[0].addr, (uintptr_t)x + 2);
        EXPECT_EQ(gls_log.r[0].size, 1u);
    }
    rdn(7, T2, x, 8);                               /* vs T1's write on bytes 0-1 and 3-7: two runs */
    EXPECT_EQ(races_at(&gls_log, 7), 2);
    for (int i = 0; i < gls_log.n; i++)
        if (gls_log.r[i].label == 7)
            EXPECT(gls_log.r[i].addr == (uintptr_t)x ? gls_log.r[i].size == 2
                                                     : gls_log.r[i].addr == (uintptr_t)x + 3 && gls_log.r[i].size == 5);
    end();
}

/* Packed granules: histories an inline record cannot hold (4-byte halves
 * with their own origins, a second thread) stay in the granule's words as
 * up to three cells, with the same verdicts and partners as entries; a
 * fourth cell makes them a mixed run (up to six entries, still in the
 * words), a seventh entry moves them to the pool, a granule left to one
 * thread folds back inline, and the GC moves or expands cells like
 * entries. */
CASE(goldilocks_packed_granules) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new(), *T3 = thr_new();
    struct goldi_sync *M = sync_new(GOLDI_SYNC_MUTEX);
    char *y = var(8), *z = var(8), *p = var(8);
    fork_(1, T0, T1); fork_(2, T0, T2); fork_(23, T0, T3);
    uint64_t ent0 = stat_of("goldilocks.entries_live"), pk0 = stat_of("goldilocks.packed_records");
    uint64_t ex0 = stat_of("goldilocks.packed_expansions"), ct0 = stat_of("goldilocks.packed_contractions");
    wrn(3, T1, y, 4); wrn(4, T1, y + 4, 4);         /* two origins: a half record of T1 ... */
    EXPECT_EQ(stat_of("goldilocks.packed_records"), pk0);
    rdn(5, T2, y + 4, 4);                           /* races with label 4 only (its own bytes, its pc) */
    EXPECT_EQ(stat_of("goldilocks.packed_records"), pk0 + 1);   /* ... packed for another thread */
    EXPECT_EQ(gls_log.n, 1);
    if (gls_log.n)
        EXPECT(gls_log.r[0].addr == (uintptr_t)y + 4 && gls_log.r[0].size == 4 && gls_log.r[0].prev_tid == T1->tid &&
               gls_log.r[0].prev_pc == 0x1000 + 4);
    rdn(6, T0, y, 8);                               /* vs both writes of T1, each on its own bytes */
    EXPECT_EQ(races_at(&gls_log, 6), 2);
    for (int i = 0; i < gls_log.n; i++)
        if (gls_log.r[i].label == 6)
            EXPECT(gls_log.r[i].addr == (uintptr_t)y ? gls_log.r[i].prev_pc == 0x1000 + 3 && gls_log.r[i].size == 4
                                                     : gls_log.r[i].addr == (uintptr_t)y + 4 &&
                                                           gls_log.r[i].prev_pc == 0x1000 + 4);
    EXPECT_EQ(stat_of("goldilocks.entries_live"), ent0);   /* three cells: still packed */
    rdn(24, T3, y + 2, 2);                          /* a fourth cell: five entries, a mixed run */
    EXPECT_EQ(races_at(&gls_log, 24), 1);
    EXPECT_EQ(stat_of("goldilocks.packed_expansions"), ex0);
    EXPECT_EQ(stat_of("goldilocks.entries_live"), ent0);
    acq(30, T1, M); rel(30, T1, M);                 /* (in the writes' epoch they would record nothing) */
    rdn(28, T1, y, 1); rdn(29, T1, y + 5, 1);       /* T1's reads of its own bytes: seven, to the pool */
    EXPECT_EQ(races_at(&gls_log, 28) + races_at(&gls_log, 29), 0);
    EXPECT_EQ(stat_of("goldilocks.packed_expansions"), ex0 + 1);
    EXPECT_EQ(stat_of("goldilocks.entries_live"), ent0 + 7);
    char *q = var(8);                               /* high half first: the DUAL difference is negative */
    wrn(25, T1, q + 4, 4); wrn(26, T1, q, 4);
    rdn(27, T2, q, 8);
    EXPECT_EQ(races_at(&gls_log, 27), 2);
    for (int i = 0; i < gls_log.n; i++)
        if (gls_log.r[i].label == 27)
            EXPECT(gls_log.r[i].prev_pc == (gls_log.r[i].addr == (uintptr_t)q ? 0x1000 + 26 : 0x1000 + 25));
    int before = gls_log.n;
    wrn(7, T1, z, 2); wrn(8, T1, z + 2, 6);         /* packed (two histories in the low half) ... */
    wr(9, T1, z);                                   /* ... one W of T1 again: back inline */
    EXPECT_EQ(stat_of("goldilocks.packed_contractions"), ct0 + 1);
    acq(10, T1, M); rel(11, T1, M);
    acq(12, T2, M); rdn(13, T2, z + 4, 4); rel(14, T2, M);   /* ordered: no race */
    EXPECT_EQ(gls_log.n, before);
    /* The GC: p's half record and p2's cells date from before 1.4 M cells of
     * T1; their chunks are collected. */
    char *p2 = var(8);
    wrn(15, T1, p, 4); wrn(16, T1, p + 4, 4);
    wrn(15, T1, p2, 2); wrn(16, T1, p2 + 2, 6);
    uint64_t gc0 = stat_of("goldilocks.gc_runs");
    lock_rounds(17, T1, M, 700000);
    EXPECT(stat_of("goldilocks.gc_runs") > gc0);
    acq(19, T2, M); rdn(20, T2, p, 8); rdn(20, T2, p2, 8); rel(21, T2, M);   /* ordered through M: no race */
    EXPECT_EQ(gls_log.n, before);
    wrn(22, T0, p + 4, 4);                          /* T0 never synchronised: races with T1 and T2 */
    EXPECT_EQ(races_at(&gls_log, 22), 2);
    for (int i = 0; i < gls_log.n; i++)
        if (gls_log.r[i].label == 22)
            EXPECT(gls_log.r[i].prev_tid == T1->tid ? gls_log.r[i].prev_write && gls_log.r[i].prev_pc == 0x1000 + 16
                                                    : gls_log.r[i].prev_tid == T2->tid && !gls_log.r[i].prev_write &&
                                                          gls_log.r[i].prev_pc == 0x1000 + 20);
    end();
}

/* Readers' runs: a W and up to four R on the whole granule, the R from one
 * statement and no alock, stay in the granule's words (no pool entry)
 * where three cells do not hold them; the verdicts and partners are the
 * entries', as vc's. A fifth reader, or readers from two statements, make
 * a mixed run instead (no pool entry either). */
CASE(goldilocks_readers_run) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T[5];
    for (int i = 0; i < 5; i++)
        T[i] = thr_new();
    char *x = var(8), *y = var(8), *z = var(8), *u = var(8), *v = var(8);
    wr(1, T0, x); wr(2, T0, y); wr(3, T0, z); wr(4, T0, u);   /* v: never written (a run without W) */
    for (int i = 0; i < 5; i++)
        fork_(5, T0, T[i]);
    uint64_t ent0 = stat_of("goldilocks.entries_live"), ex0 = stat_of("goldilocks.packed_expansions");
    for (int i = 0; i < 4; i++) {   /* one statement of each of four threads, twice (the second: kept) */
        rd(10, T[i], x); rd(10, T[i], x);
        rd(11, T[i], y);
        rd(12, T[i], v);
    }
    EXPECT_EQ(gls_log.n, 0);
    EXPECT_EQ(stat_of("goldilocks.packed_expansions"), ex0);   /* x, y, v: runs of four readers */
    EXPECT_EQ(stat_of("goldilocks.entries_live"), ent0);
    for (int i = 0; i < 5; i++)    /* z: five readers; u: four readers, two statements */
        rd(13, T[i], z);
    for (int i = 0; i < 4; i++)
        rd(14 + (i & 1), T[i], u);
    EXPECT_EQ(gls_log.n, 0);
    EXPECT_EQ(stat_of("goldilocks.packed_expansions"), ex0);
    EXPECT_EQ(stat_of("goldilocks.entries_live"), ent0);
    wr(20, T[4], x);   /* T[4] synchronised with no reader: a race with each */
    wr(21, T0, v);     /* after the forks, not the reads: the same */
    wr(22, T0, z);
    const int wl[3] = { 20, 21, 22 }, rl[3] = { 10, 12, 13 }, n[3] = { 4, 4, 5 };
    for (int k = 0; k < 3; k++) {
        EXPECT_EQ(races_at(&gls_log, wl[k]), n[k]);
        EXPECT_EQ(races_at(&vc_log, wl[k]), n[k]);
        unsigned seen = 0;
        for (int i = 0; i < gls_log.n; i++)
            if (gls_log.r[i].label == wl[k]) {
                EXPECT(!gls_log.r[i].prev_write && gls_log.r[i].prev_pc == (uintptr_t)0x1000 + rl[k]);
                seen |= 1u << gls_log.r[i].prev_tid;
            }
        for (int i = 0; i < n[k]; i++)
            EXPECT(seen >> T[i]->tid & 1);
    }
    /* y: every reader joined first, so ordered before T0's write */
    for (int i = 0; i < 5; i++) {
        exit_(30, T[i]);
        join_(31, T0, T[i]);
    }
    int before = gls_log.n;
    wr(32, T0, y);
    EXPECT_EQ(gls_log.n, before);
    EXPECT_EQ(races_at(&vc_log, 32), 0);
    end();
}

/* Half records: one thread's accesses of a granule's two 4-byte halves in
 * different epochs keep a history per half, inline (no entry, no cell);
 * each half races or not by its own history, and the record is ordinary
 * again once both halves have the same one. An alock has no room in a
 * half record: accesses under a lock go packed. */
CASE(goldilocks_half_records) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new();
    struct goldi_sync *M = sync_new(GOLDI_SYNC_MUTEX), *L = sync_new(GOLDI_SYNC_MUTEX);
    char *x = var(8), *y = var(8), *z = var(8);
    fork_(1, T0, T1); fork_(2, T0, T2);
    uint64_t hf0 = stat_of("goldilocks.inline_half_records"), pk0 = stat_of("goldilocks.packed_records");
    uint64_t ent0 = stat_of("goldilocks.entries_live");
    rdn(3, T1, x + 4, 4); wr(4, T1, y);            /* T1's first epoch: x's high half read, y written */
    acq(5, T1, M); rel(6, T1, M);
    rdn(7, T1, x, 4); wrn(8, T1, y, 4);             /* a later one: x's low half read, y's written */
    EXPECT_EQ(stat_of("goldilocks.inline_half_records"), hf0 + 2);
    EXPECT_EQ(stat_of("goldilocks.packed_records"), pk0);
    EXPECT_EQ(stat_of("goldilocks.entries_live"), ent0);
    acq(11, T2, M); rel(12, T2, M);                 /* after T1's first epoch only */
    wrn(13, T2, x + 4, 4);                          /* after T1's read of the high half: no race */
    rdn(14, T2, y + 4, 4);                          /* after T1's write of the high half (label 4) */
    EXPECT_EQ(gls_log.n, 0);
    wrn(15, T2, x, 4);                              /* races with T1's later read of the low half */
    rdn(16, T2, y, 4);                              /* races with T1's later write of the low half */
    EXPECT_EQ(races_at(&gls_log, 15), 1);
    EXPECT_EQ(races_at(&gls_log, 16), 1);
    for (int i = 0; i < gls_log.n; i++)
        EXPECT(gls_log.r[i].prev_tid == T1->tid &&
               gls_log.r[i].prev_pc == (uintptr_t)0x1000 + (gls_log.r[i].label == 15 ? 7 : 8) &&
               gls_log.r[i].prev_write == (gls_log.r[i].label == 16));
    /* one history again: T1 reads z's high half, then, an epoch later, both
     * halves with one origin; T2, after the first epoch, races with the
     * later read on both halves */
    int before = gls_log.n;
    rdn(17, T1, z + 4, 4); acq(18, T1, M); rel(19, T1, M);
    rdn(20, T1, z, 4); rdn(20, T1, z + 4, 4);
    EXPECT_EQ(stat_of("goldilocks.inline_half_records"), hf0 + 3);
    acq(21, T2, M); rel(22, T2, M);                 /* after rel 19, before the reads at label 20 */
    wr(23, T2, z);
    EXPECT_EQ(races_at(&gls_log, 23), 1);
    for (int i = before; i < gls_log.n; i++)
        EXPECT(gls_log.r[i].prev_pc == (uintptr_t)0x1000 + 20 && gls_log.r[i].size == 8);
    /* the half kind's access that leaves two histories: v's low half read
     * again, a third epoch, the high half's first-epoch read stays */
    char *v = var(8);
    rdn(31, T1, v + 4, 4); acq(32, T1, M); rel(33, T1, M);
    rdn(34, T1, v, 4); acq(35, T1, L); rel(36, T1, L);
    rdn(37, T1, v, 4);
    acq(38, T2, M); rel(39, T2, M);                 /* after rel 33 */
    before = gls_log.n;
    wrn(40, T2, v + 4, 4);                          /* after the high half's read: no race */
    EXPECT_EQ(gls_log.n, before);
    wrn(41, T2, v, 4);                              /* the low half's latest read (label 37) */
    EXPECT_EQ(races_at(&gls_log, 41), 1);
    for (int i = before; i < gls_log.n; i++)
        EXPECT(gls_log.r[i].prev_pc == (uintptr_t)0x1000 + 37);
    /* under a lock: an alock, so packed cells instead */
    uint64_t pk1 = stat_of("goldilocks.packed_records"), hf1 = stat_of("goldilocks.inline_half_records");
    char *u = var(8);
    rdn(24, T1, u + 4, 4); acq(25, T1, L); rdn(26, T1, u, 4); rel(27, T1, L);
    EXPECT_EQ(stat_of("goldilocks.inline_half_records"), hf1);
    EXPECT_EQ(stat_of("goldilocks.packed_records"), pk1 + 1);
    before = gls_log.n;
    acq(28, T2, L); wr(29, T2, u); rel(30, T2, L);  /* after both reads: no race */
    EXPECT_EQ(gls_log.n, before);
    end();
}

/* More partners on one piece than the pending table holds: none is dropped
 * (tests/traces/diff-gls-partner-cap.gtrace). */
/* Read subsumption: a plain read takes its bytes out of another thread's
 * plain read ordered before it (by the lock both held, or walk knowledge),
 * so readers taking turns under one lock leave one R and the granule keeps
 * its representation (inline, packed, pool alike); a write ordered after
 * the first reader only still races with the newest read. Readers holding
 * an rwlock in read mode are not ordered: each keeps its R. */
CASE(goldilocks_read_subsumption) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new(), *T3 = thr_new(), *T4 = thr_new();
    struct goldi_sync *L = sync_new(GOLDI_SYNC_MUTEX), *M = sync_new(GOLDI_SYNC_MUTEX);
    struct goldi_sync *R = sync_new(GOLDI_SYNC_RWLOCK);
    char *x = var(8), *y = var(8), *z = var(8), *v = var(8);
    wr(1, T0, x); wr(2, T0, y); wrn(3, T0, z, 2); wrn(4, T0, z + 2, 6);   /* x, y inline; z packed */
    atom(5, GOLDI_EV_ATOMIC_STORE, T0, v, RLX);                            /* v: pool entries */
    fork_(6, T0, T1); fork_(7, T0, T2); fork_(8, T0, T3); fork_(9, T0, T4);
    uint64_t ent0 = stat_of("goldilocks.entries_live"), pk0 = stat_of("goldilocks.packed_records");
    uint64_t ex0 = stat_of("goldilocks.packed_expansions");
    struct goldi_thr *readers[3] = { T1, T2, T3 };
    for (int i = 0; i < 3; i++) {
        int l = 10 + 10 * i;
        acq(l, readers[i], L);
        rd(l + 1, readers[i], x); rd(l + 2, readers[i], z); rd(l + 3, readers[i], v);
        rel(l + 4, readers[i], L);
        if (i == 0) { acq(l + 5, T1, M); rel(l + 6, T1, M); }
    }
    EXPECT_EQ(gls_log.n, 0);
    EXPECT_EQ(stat_of("goldilocks.entries_live"), ent0 + 1);   /* v: AW(T0), R(T3) (was one R per reader) */
    EXPECT_EQ(stat_of("goldilocks.packed_records"), pk0);      /* x still inline (W(T0), R(T3)) */
    EXPECT_EQ(stat_of("goldilocks.packed_expansions"), ex0);   /* z: W(T0) cell, R(T3) cell */
    acq(40, T4, M); rel(41, T4, M);                            /* ordered after T1's reads only */
    wr(42, T4, x); wr(43, T4, z); wr(44, T4, v);
    const int wl[3] = { 42, 43, 44 }, rl[3] = { 31, 32, 33 };
    for (int k = 0; k < 3; k++) {
        EXPECT_EQ(races_at(&gls_log, wl[k]), 1);               /* with T3's read, kind RW */
        for (int i = 0; i < gls_log.n; i++)
            if (gls_log.r[i].label == wl[k])
                EXPECT(gls_log.r[i].prev_tid == T3->tid && !gls_log.r[i].prev_write &&
                       gls_log.r[i].prev_pc == (uintptr_t)0x1000 + rl[k]);
    }
    /* rwlock readers: T1's read stays next to T2's */
    rdlock(50, T1, R); rd(51, T1, y); rdunlock(52, T1, R);
    rdlock(53, T2, R); rd(54, T2, y); rdunlock(55, T2, R); acq(56, T2, M); rel(57, T2, M);
    acq(58, T3, M); rel(59, T3, M); wr(60, T3, y);             /* after T2's read, not T1's */
    EXPECT_EQ(races_at(&gls_log, 60), 1);
    for (int i = 0; i < gls_log.n; i++)
        if (gls_log.r[i].label == 60)
            EXPECT(gls_log.r[i].prev_tid == T1->tid && gls_log.r[i].prev_pc == 0x1000 + 51);
    end();
}

/* A reader whose own R is on the bytes from an earlier epoch, with another
 * thread's R there too: the other R loses the bytes if the read subsumes
 * it (the lock both held: T1's first read, under no lock, is not subsumed
 * by T2's) and keeps them if not (an rwlock held in read mode orders no
 * reads); T1's R becomes its newest read either way. */
CASE(goldilocks_read_moves_past_other_reads) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new(), *T3 = thr_new(), *T4 = thr_new();
    struct goldi_sync *L = sync_new(GOLDI_SYNC_MUTEX), *M = sync_new(GOLDI_SYNC_MUTEX);
    struct goldi_sync *N = sync_new(GOLDI_SYNC_MUTEX), *R = sync_new(GOLDI_SYNC_RWLOCK);
    char *v = var(8), *u = var(8);
    atom(1, GOLDI_EV_ATOMIC_STORE, T0, v, RLX);   /* pool entries */
    atom(2, GOLDI_EV_ATOMIC_STORE, T0, u, RLX);
    fork_(3, T0, T1); fork_(4, T0, T2); fork_(5, T0, T3); fork_(6, T0, T4);
    /* v: T1 (no lock: T2's read does not subsume it), T2 under L, then T1
     * again under L; T2 then releases M */
    rd(11, T1, v); acq(7, T1, N); rel(9, T1, N);
    acq(13, T2, L); rd(14, T2, v); rel(15, T2, L); acq(16, T2, M); rel(17, T2, M);
    uint64_t ent0 = stat_of("goldilocks.entries_live");
    acq(18, T1, L); rd(19, T1, v); rel(20, T1, L);
    EXPECT_EQ(stat_of("goldilocks.entries_live"), ent0 - 1);   /* T2's R went */
    EXPECT_EQ(gls_log.n, 0);
    acq(21, T3, M); rel(22, T3, M); wr(23, T3, v);   /* after T2's read, not T1's second */
    EXPECT_EQ(races_at(&gls_log, 23), 1);
    for (int i = 0; i < gls_log.n; i++)
        if (gls_log.r[i].label == 23)
            EXPECT(gls_log.r[i].prev_tid == T1->tid && !gls_log.r[i].prev_write &&
                   gls_log.r[i].prev_pc == (uintptr_t)0x1000 + 19);
    /* u: T1, T2 holding an rwlock in read mode, T1 again holding it; T1
     * then releases N */
    rd(31, T1, u); acq(30, T1, N); rel(32, T1, N);
    rdlock(33, T2, R); rd(34, T2, u); rdunlock(35, T2, R);
    ent0 = stat_of("goldilocks.entries_live");
    rdlock(36, T1, R); rd(37, T1, u); rdunlock(38, T1, R); acq(39, T1, N); rel(40, T1, N);
    EXPECT_EQ(stat_of("goldilocks.entries_live"), ent0);       /* T2's R stays */
    int before = gls_log.n;
    acq(41, T4, N); rel(42, T4, N); wr(43, T4, u);   /* after T1's reads, not T2's */
    EXPECT_EQ(races_at(&gls_log, 43), 1);
    for (int i = before; i < gls_log.n; i++)
        if (gls_log.r[i].label == 43)
            EXPECT(gls_log.r[i].prev_tid == T2->tid && gls_log.r[i].prev_pc == (uintptr_t)0x1000 + 34);
    end();
}

/* An exclusive lock taken again by its last holder appends no ACQ cell (it
 * would change no set), yet every order it stands for stays: after
 * another thread's release the next acquire appends again, and a wait's
 * re-acquire of its mutex is an acquire like any other. (An rwlock has no
 * run: goldilocks_rwlock_readers_skip.) */
CASE(goldilocks_reacquire_without_cell) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new(), *T3 = thr_new();
    struct goldi_sync *L = sync_new(GOLDI_SYNC_MUTEX), *CV = sync_new(GOLDI_SYNC_COND);
    char *x = var(8), *y = var(8), *z = var(8), *u = var(8);
    fork_(1, T0, T1); fork_(2, T0, T2); fork_(3, T0, T3);
    uint64_t sk0 = stat_of("goldilocks.acquire_cells_skipped"), c0 = stat_of("goldilocks.cells_appended");
    wr(10, T2, x);
    acq(11, T2, L); rel(12, T2, L);                /* 1 cell, the release deferred */
    acq(13, T1, L); wr(14, T1, y); rel(15, T1, L);  /* 2 cells: T2's release, then T1's acquire */
    acq(16, T1, L); rd(17, T1, x); rel(18, T1, L);  /* none (T1's release resumed, then deferred again):
                                                       ordered after T2's release all the same */
    EXPECT_EQ(stat_of("goldilocks.acquire_cells_skipped"), sk0 + 1);
    EXPECT_EQ(stat_of("goldilocks.cells_appended"), c0 + 3);
    EXPECT_EQ(gls_log.n, 0);
    acq(19, T2, L); wr(20, T2, y); rel(21, T2, L);  /* T1's y, ordered by L: appended again */
    EXPECT_EQ(stat_of("goldilocks.acquire_cells_skipped"), sk0 + 1);
    EXPECT_EQ(gls_log.n, 0);
    /* a wait: T1 releases L in WAIT_ENTER, T2 takes L and writes z, T1's
     * WAIT_EXIT re-acquires after T2's release: a cell, and no race */
    acq(30, T1, L); wait_(31, GOLDI_EV_WAIT_ENTER, T1, CV, L);
    acq(32, T2, L); wr(33, T2, z); rel(34, T2, L);
    wait_(35, GOLDI_EV_WAIT_EXIT, T1, CV, L); rd(36, T1, z); rel(37, T1, L);
    EXPECT_EQ(stat_of("goldilocks.acquire_cells_skipped"), sk0 + 1);
    EXPECT_EQ(gls_log.n, 0);
    /* the skip orders nothing new: T3 never took L */
    acq(40, T1, L); rel(41, T1, L);               /* skipped: T1 released last */
    EXPECT_EQ(stat_of("goldilocks.acquire_cells_skipped"), sk0 + 2);
    wr(42, T3, u);
    acq(43, T1, L); rd(44, T1, u); rel(45, T1, L);
    EXPECT_EQ(races_at(&gls_log, 44), 1);
    /* a lock word an atomic operation stored to (a user lock built on
     * atomics: the runtime counts such stores in n_writes) keeps every cell */
    struct goldi_sync *U = sync_new(GOLDI_SYNC_MUTEX);
    atomic_fetch_add(&U->n_writes, 1);
    uint64_t sk1 = stat_of("goldilocks.acquire_cells_skipped");
    acq(46, T1, U); rel(47, T1, U); acq(48, T1, U); rel(49, T1, U);
    EXPECT_EQ(stat_of("goldilocks.acquire_cells_skipped"), sk1);
    end();
}

/* An rwlock's write side (tok[0]) is acquired by readers and writers and
 * added by write unlocks only: a thread whose ACQ cell on it follows the
 * last write unlock appends none until the next one, and readers stay
 * unordered among themselves. */
CASE(goldilocks_rwlock_readers_skip) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new(), *T3 = thr_new();
    struct goldi_sync *R = sync_new(GOLDI_SYNC_RWLOCK);
    EXPECT(T3->tid < 16);   /* (threads 0..15 only: this case runs early) */
    char *x = var(8), *y = var(8), *z = var(8);
    fork_(1, T0, T1); fork_(2, T0, T2); fork_(3, T0, T3);
    uint64_t sk0 = stat_of("goldilocks.acquire_cells_skipped"), c0 = stat_of("goldilocks.cells_appended");
    rdlock(10, T2, R); rdunlock(11, T2, R);          /* no write unlock yet: no ACQ cell; the release: 1 */
    EXPECT_EQ(stat_of("goldilocks.acquire_cells_skipped"), sk0 + 1);
    acq(12, T1, R); wr(13, T1, x); rel(14, T1, R);   /* tok[1] ACQ (tok[0]'s skipped) + release: 2 */
    rdlock(15, T2, R); rd(16, T2, x); rdunlock(17, T2, R);   /* ACQ appended: 2 */
    rdlock(18, T2, R); rd(19, T2, x); rdunlock(20, T2, R);   /* skipped: 1 */
    rdlock(21, T3, R); rd(22, T3, x); rdunlock(23, T3, R);   /* T3's first: 2 */
    EXPECT_EQ(stat_of("goldilocks.acquire_cells_skipped"), sk0 + 3);
    EXPECT_EQ(stat_of("goldilocks.cells_appended"), c0 + 8);
    EXPECT_EQ(gls_log.n, 0);
    /* a second write: its unlock clears the readers, whose next acquires
     * append again and order them after it (their reads after their
     * unlocks: only the ACQ cell orders them, no lock is held in common) */
    acq(30, T1, R); wr(31, T1, x); rel(32, T1, R);
    rdlock(33, T2, R); rdunlock(34, T2, R); rd(35, T2, x);
    rdlock(36, T3, R); rdunlock(37, T3, R); rd(38, T3, x);
    EXPECT_EQ(stat_of("goldilocks.acquire_cells_skipped"), sk0 + 3);
    EXPECT_EQ(gls_log.n, 0);
    /* skipped acquires order nothing new: a write without the lock, and a
     * write under the read lock, race with a reader's later reads */
    wr(40, T3, y);
    rdlock(41, T3, R); wr(42, T3, z); rdunlock(43, T3, R);
    rdlock(44, T2, R); rd(45, T2, y); rd(46, T2, z); rdunlock(47, T2, R);
    EXPECT_EQ(stat_of("goldilocks.acquire_cells_skipped"), sk0 + 5);
    EXPECT_EQ(races_at(&gls_log, 45), 1);
    EXPECT_EQ(races_at(&gls_log, 46), 1);
    /* a writer after the readers is ordered after their read unlocks and
     * all that came before them (T3's unlocked write of y too) */
    acq(50, T1, R); wr(51, T1, y); wr(52, T1, z); rel(53, T1, R);
    EXPECT_EQ(races_at(&gls_log, 51), 0);
    EXPECT_EQ(races_at(&gls_log, 52), 0);
    EXPECT_EQ(gls_log.n, 2);
    end();
}

CASE(goldilocks_many_partners_all_reported) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new();
    char *x = var(8);
    fork_(1, T0, T1); fork_(2, T0, T2);
    for (int i = 0; i < 8; i++)
        wrn(10 + i, T0, x + i, 1);                  /* 8 origins */
    rdn(20, T1, x + 4, 1);
    int before = gls_log.n;
    wr(21, T2, x);
    int covered = 0;
    for (int i = before; i < gls_log.n; i++)
        if (gls_log.r[i].label == 21)
            for (uint32_t b = 0; b < gls_log.r[i].size; b++)
                covered |= 1 << (gls_log.r[i].addr + b - (uintptr_t)x);
    EXPECT_EQ(covered, 0xff);
    end();
}

/* An entry of t keeps its pos only while t appends no release-type cell:
 * after one, a thread acquiring that release must not look ordered after
 * t's next access (ALGORITHMS.md 2.3, G-ALOCK's cousin without the alock). */
CASE(goldilocks_epoch_moves_past_own_release) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new();
    char *x = var(8);
    struct goldi_sync *L = sync_new(GOLDI_SYNC_MUTEX), *S = sync_new(GOLDI_SYNC_SEM);
    fork_(1, T0, T1); fork_(2, T0, T2);
    wr(3, T1, x);
    obj_ev(4, GOLDI_EV_SEM_POST, T1, S);            /* T1's release cell */
    wr(5, T1, x);                                   /* after the release */
    obj_ev(6, GOLDI_EV_SEM_WAIT, T2, S);
    wr(7, T2, x);                                   /* ordered after E3, not after E5 */
    EXPECT_EQ(first_label(&gls_log), 7);
    /* an acquire does not end the epoch: the record stays, and stays exact
     * (the same threads: end() makes them all exit) */
    clear_logs();
    char *y = var(8);
    wr(10, T1, y);
    acq(11, T1, L); rel(12, T1, L);                 /* release: new epoch */
    uint64_t kept0 = stat_of("goldilocks.records_kept");
    wr(13, T1, y);
    atom(14, GOLDI_EV_ATOMIC_LOAD, T1, var(8), ACQ);/* acquire-only: same epoch */
    wr(13, T1, y);
    EXPECT(stat_of("goldilocks.records_kept") > kept0);
    obj_ev(15, GOLDI_EV_SEM_POST, T1, S);
    obj_ev(16, GOLDI_EV_SEM_WAIT, T2, S);
    wr(17, T2, y);                                  /* ordered after both writes of T1 */
    EXPECT_EQ(gls_log.n, 0);
    end();
}

/* Message passing through a ring: the consumer reads messages published
 * long before its acquire. The backward walk settles each check near the
 * tail (the producer's latest release before the acquire) instead of walking
 * forward from the message's pos; verdicts stay exact both ways. */
CASE(goldilocks_backward_walk) {
    begin();
    struct goldi_thr *T0 = thr_new(), *P = thr_new(), *C = thr_new(), *N = thr_new();
    struct goldi_sync *M = sync_new(GOLDI_SYNC_MUTEX);
    char *tail = var(8), *msg = var(8 * 64);
    fork_(1, T0, P); fork_(2, T0, C); fork_(3, T0, N);
    for (int i = 0; i < 64; i++) {
        wr(10, P, msg + 8 * i);                     /* message i */
        atom(11, GOLDI_EV_ATOMIC_STORE, P, tail, REL);
        for (int k = 0; k < 200; k++) {             /* unrelated traffic between messages */
            acq(12, N, M);
            rel(13, N, M);
        }
    }
    uint64_t cells = stat_of("goldilocks.cells_walked"), walks = stat_of("goldilocks.walks");
    atom(20, GOLDI_EV_ATOMIC_LOAD, C, tail, ACQ);
    for (int i = 0; i < 64; i++)
        rd(21, C, msg + 8 * i);                     /* all ordered: one short walk, then knowledge */
    EXPECT_EQ(gls_log.n, 0);
    EXPECT(stat_of("goldilocks.walks") - walks <= 1);
    /* back over the 400 cells after the last release, not forward over 64 x 402 */
    EXPECT(stat_of("goldilocks.cells_walked") - cells < 1000);
    /* a message written after the last release is not ordered: settled by the
     * backward walk as racy, confirmed forward (the report shows its set) */
    char *late = var(8);
    wr(30, P, late);
    for (int k = 0; k < 50; k++) {
        acq(31, N, M);
        rel(32, N, M);
    }
    atom(33, GOLDI_EV_ATOMIC_LOAD, C, tail, ACQ);
    rd(34, C, late);
    EXPECT_EQ(first_label(&gls_log), 34);
    EXPECT_EQ(gls_log.n, 1);
    if (gls_log.n)
        EXPECT(strstr(gls_log.r[0].why, "{T") != NULL);
    end();
}

/* Entries the GC materialised keep their owner's token, so knowledge about
 * the owner settles them: after a join, reading many entries with distinct
 * materialised sets (one per lock order, all placed at the start of the live
 * list) takes one short backward walk, not a forward walk over the whole
 * live list per set (a parked-then-joined main thread used to walk 2^18+
 * cells per read, 7 s instead of 0.7 s in bench/ hashtable). */
CASE(goldilocks_materialised_sets_settled_by_owner) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new(), *T3 = thr_new();
    enum { NX = 48 };
    char *x = var(8 * NX), *y = var(8);
    struct goldi_sync *L[NX], *M = sync_new(GOLDI_SYNC_MUTEX);
    for (int i = 0; i < NX; i++)
        L[i] = sync_new(GOLDI_SYNC_MUTEX);
    fork_(1, T0, T1); fork_(2, T0, T2); fork_(3, T0, T3);
    for (int i = 0; i < NX; i++) {                  /* set of x[i]: {T1, L[i], ..., L[NX-1]} */
        acq(4, T1, L[i]);
        wr(5, T1, x + 8 * i);
        rel(6, T1, L[i]);
    }
    wr(7, T3, y);
    uint64_t mat0 = stat_of("goldilocks.entries_materialised");
    lock_rounds(8, T2, M, 700000); /* 1.4 M cells: the GC materialises them */
    EXPECT(stat_of("goldilocks.entries_materialised") >= mat0 + NX);
    join_(10, T0, T1);
    uint64_t cells = stat_of("goldilocks.cells_walked");
    for (int i = 0; i < NX; i++)
        rd(11, T0, x + 8 * i);                      /* all ordered by the join */
    EXPECT_EQ(gls_log.n, 0);
    EXPECT(stat_of("goldilocks.cells_walked") - cells < 20000);
    rd(12, T0, y);                                  /* T3 was never joined: a race, still found */
    rd(13, T2, x);                                  /* T2 never took L[0] after T1: a race */
    EXPECT_EQ(races_at(&gls_log, 12), 1);
    EXPECT_EQ(races_at(&gls_log, 13), 1);
    EXPECT_EQ(gls_log.n, 2);
    end();
}

/* A positive walk verdict is cached per (owner, pos) and reused by every
 * entry of that epoch; a negative one is never cached. */
CASE(goldilocks_walk_verdict_cache) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new();
    char *a = var(64);
    struct goldi_sync *S = sync_new(GOLDI_SYNC_SEM);
    fork_(1, T0, T1); fork_(2, T0, T2);
    for (int i = 0; i < 8; i++)
        wr(3, T1, a + 8 * i);                       /* one epoch of T1 */
    obj_ev(4, GOLDI_EV_SEM_POST, T1, S);
    obj_ev(5, GOLDI_EV_SEM_WAIT, T2, S);
    uint64_t walks = stat_of("goldilocks.walks"), cached = stat_of("goldilocks.cached_verdicts");
    for (int i = 0; i < 8; i++)
        rd(6, T2, a + 8 * i);
    EXPECT_EQ(stat_of("goldilocks.walks"), walks + 1);
    EXPECT_EQ(stat_of("goldilocks.cached_verdicts"), cached + 7);
    rd(8, T0, a); rd(8, T0, a + 8);                 /* T0 is not ordered after T1's writes */
    EXPECT_EQ(races_at(&gls_log, 8), 2);
    EXPECT_EQ(gls_log.n, 2);
    end();
}

/* --- bounded memory ------------------------------------------------------------------------------ */

CASE(goldilocks_bounded_update_list) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new();
    char *x = var(8);
    struct goldi_sync *L = sync_new(GOLDI_SYNC_MUTEX);
    fork_(1, T0, T1); fork_(2, T0, T2);
    wr(3, T1, x);                                   /* LS(x) becomes {T1, L, T2}: never T0 */
    uint64_t gc0 = stat_of("goldilocks.gc_runs"), mat0 = stat_of("goldilocks.entries_materialised");
    uint64_t mapped0 = stat_of("goldilocks.chunks_mapped");
    struct goldi_event a1 = mk(4, GOLDI_EV_LOCK_ACQ, T1), r1 = mk(4, GOLDI_EV_LOCK_REL, T1);
    struct goldi_event a2 = mk(4, GOLDI_EV_LOCK_ACQ, T2), r2 = mk(4, GOLDI_EV_LOCK_REL, T2);
    a1.obj = r1.obj = a2.obj = r2.obj = L;
    for (int i = 0; i < 5000000; i++) {
        goldi_dispatch(&a1);
        goldi_dispatch(&r1);
        goldi_dispatch(&a2);
        goldi_dispatch(&r2);
    }
    uint64_t peak = stat_of("goldilocks.cell_bytes_peak");
    uint64_t mapped = stat_of("goldilocks.chunks_mapped") - mapped0;
    printf("    10M lock pairs: cells appended %llu, cell bytes peak %llu (%.2f MiB), live %llu, gc runs %llu, "
           "materialised %llu, chunks mapped %llu\n",
           (unsigned long long)stat_of("goldilocks.cells_appended"), (unsigned long long)peak, peak / 1048576.0,
           (unsigned long long)stat_of("goldilocks.cell_bytes_live"),
           (unsigned long long)(stat_of("goldilocks.gc_runs") - gc0),
           (unsigned long long)(stat_of("goldilocks.entries_materialised") - mat0), (unsigned long long)mapped);
    EXPECT(mapped <= (10u << 20) / (GLS_CHUNK * sizeof(struct gls_cell)));   /* freed chunks come back */
    EXPECT(peak < (10u << 20));                     /* the budget (8 MiB of cells) + a chunk */
    EXPECT(stat_of("goldilocks.gc_runs") > gc0 + 50);
    EXPECT(stat_of("goldilocks.entries_materialised") > mat0);
    rd(5, T2, x);                                   /* ordered through the materialised set */
    EXPECT_EQ(gls_log.n, 0);
    wr(6, T0, x);                                   /* T0 never synchronised: races with both */
    EXPECT_EQ(first_label(&gls_log), 6);
    EXPECT_EQ(gls_log.n, 2);
    bool saw_t1_write = false;
    for (int i = 0; i < gls_log.n; i++)
        saw_t1_write |= gls_log.r[i].prev_tid == T1->tid && gls_log.r[i].prev_write;
    EXPECT(saw_t1_write);
    end();
}

/* Granule refs are kept as runs (gls_list.c): a sweep over three arrays
 * at once registers a few words, not one per granule; a run with freed
 * granules inside survives its shard's compaction (scattered pushes fill
 * the shard); and the GC, which finds the records through the runs, still
 * moves every one of them: after it, each record is checked exactly as
 * before (T2, unordered with T1, races with every granule T1 still has;
 * T0, after joining T1, with none). */
CASE(goldilocks_granule_runs) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new(), *T3 = thr_new();
    enum { N = 30000, HOLE = 1000, HOLE_N = 500, SCATTER = 100 };
    char *a = var(8 * N), *b = var(8 * N), *c = var(8 * N), *x = var(16 * SCATTER);
    struct goldi_sync *M = sync_new(GOLDI_SYNC_MUTEX);
    fork_(1, T0, T1); fork_(2, T0, T2); fork_(3, T0, T3);
    uint64_t reg0 = stat_of("goldilocks.registry_bytes_live");
    for (int i = 0; i < N; i++) {
        wr(4, T1, a + 8 * i);
        wr(4, T1, b + 8 * i);
        rd(4, T1, c + 8 * i);
    }
    uint64_t reg1 = stat_of("goldilocks.registry_bytes_live");
    printf("    registry: +%llu bytes for %d granules\n", (unsigned long long)(reg1 - reg0), 3 * N);
    EXPECT(reg1 - reg0 < 1024);                     /* 3 runs (one word each per chunk), not 3 N words */
    free_(5, T1, a + 8 * HOLE, 8 * HOLE_N);         /* stale granules inside a's run */
    alloc_(5, T1, a + 8 * HOLE, 8 * HOLE_N);
    for (int i = 0; i < SCATTER; i++)               /* one word each: fills the shard, which is compacted */
        wr(6, T1, x + 16 * i);
    uint64_t gc0 = stat_of("goldilocks.gc_runs");
    lock_rounds(7, T3, M, 700000); /* 1.4 M cells: past the GC budget (2^19 cells) */
    EXPECT(stat_of("goldilocks.gc_runs") > gc0);
    EXPECT_EQ(gls_log.n, 0);
    int races = 0;
    for (int i = 0; i < N; i += 97) {               /* T2 is ordered with none of T1's accesses */
        rd(8, T2, a + 8 * i);
        wr(9, T2, c + 8 * i);
        races += (i < HOLE || i >= HOLE + HOLE_N) + 1;
    }
    rd(10, T2, x + 16 * (SCATTER - 1));
    races++;
    EXPECT_EQ(gls_log.n, races);
    EXPECT_EQ(vc_log.n, races);
    gls_log.n = vc_log.n = 0;
    exit_(11, T1);
    join_(12, T0, T1);
    for (int i = 0; i < N; i += 89)                 /* ordered after all of T1's */
        wr(13, T0, b + 8 * i);
    EXPECT_EQ(gls_log.n, 0);
    end();
}

/* The registry's runs on their own (gls_list.c): granules pushed in a
 * shuffled order with repeats, by one thread (one shard), through many
 * compactions (sort, merge, drop stale single granules). When the chunk is
 * closed, every live granule is still listed, nothing outside the pushed
 * ones is, and sorted ascending runs came back as few words. The granules
 * lie in two regions 2^39 bytes apart: the radix sort's passes run on bytes
 * 0, 1 and 4 of the granule number and skip the others, and the odd number
 * of passes leaves the order in the scratch copy, to be copied back. */
#define RUNS_SPAN 20000u                              /* granules in the test's range */
#define RUNS_LOW (RUNS_SPAN / 2)                      /* granules in the first region */
static uint8_t runs_state[RUNS_SPAN];                 /* 0 never pushed, 1 live, 2 stale */
static const uintptr_t runs_base = 0x123400000000ull, runs_base_hi = 0x12b400000000ull;
static uintptr_t runs_addr(uint32_t g) {
    return g < RUNS_LOW ? runs_base + 8 * (uintptr_t)g : runs_base_hi + 8 * (uintptr_t)(g - RUNS_LOW);
}
/* The granule index of a, or RUNS_SPAN if a is outside both regions. */
static uint32_t runs_index(uintptr_t a) {
    if (a >= runs_base && a < runs_base + 8 * (uintptr_t)RUNS_LOW)
        return (uint32_t)((a - runs_base) / 8);
    if (a >= runs_base_hi && a < runs_base_hi + 8 * (uintptr_t)(RUNS_SPAN - RUNS_LOW))
        return RUNS_LOW + (uint32_t)((a - runs_base_hi) / 8);
    return RUNS_SPAN;
}
static bool runs_registered(void *ctx, struct goldi_shadow_probe *pr, uintptr_t addr, uint64_t c) {
    (void)ctx, (void)pr, (void)c;
    uint32_t g = runs_index(addr);
    return g < RUNS_SPAN && runs_state[g] == 1;
}

CASE(goldilocks_registry_runs) {
    static struct gls_list l;
    gls_list_init(&l);
    l.granule_registered = runs_registered;
    uint64_t rng = 0x9E3779B97F4A7C15ull;
    for (uint32_t i = 0; i < 60000; i++) {           /* scattered, repeated, some going stale */
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t g = (uint32_t)(rng >> 33) % RUNS_SPAN;
        if (runs_state[g] == 1 && (rng >> 20) % 7 == 0) {
            runs_state[g] = 2;                       /* its record went: the ref is stale now */
            continue;
        }
        runs_state[g] = 1;                           /* (re-)registered: live again */
        EXPECT(gls_list_register_granule(&l, runs_addr(g), 0, 3));
    }
    for (uint32_t g = 4000; g < 6000; g++) {         /* sweeps over fresh granules: 2 words each */
        runs_state[g] = runs_state[g + RUNS_LOW] = 1;
        EXPECT(gls_list_register_granule(&l, runs_addr(g), 0, 3));
        EXPECT(gls_list_register_granule(&l, runs_addr(g + RUNS_LOW), 0, 3));
    }
    uint32_t cap = 0, words_before = 0;
    struct gls_ref *refs = NULL;
    uint32_t n = gls_list_close(&l, gls_list_chunk(&l, 0), &refs, &cap, 0);
    static uint8_t seen[RUNS_SPAN];
    uint32_t outside = 0;
    for (uint32_t i = 0; i < n; i++) {
        EXPECT(gls_ref_is_granule(&refs[i]));
        uintptr_t a = gls_ref_granule(&refs[i]);
        words_before++;
        for (uint32_t k = 0; k < gls_ref_granules(&refs[i]); k++, a += 8) {
            uint32_t g = runs_index(a);
            if (g == RUNS_SPAN || !runs_state[g])
                outside++;
            else
                seen[g] = 1;
        }
    }
    uint32_t missing = 0, live = 0;
    for (uint32_t g = 0; g < RUNS_SPAN; g++) {
        live += runs_state[g] == 1;
        missing += runs_state[g] == 1 && !seen[g];
    }
    printf("    %u live granules in %u words\n", live, words_before);
    EXPECT_EQ(missing, 0);
    EXPECT_EQ(outside, 0);
    EXPECT(words_before < live);                     /* runs formed: fewer words than granules */
    goldi_free(refs);
}

CASE(goldilocks_any_compression) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new();
    char *x = var(8);
    struct goldi_sync *M = sync_new(GOLDI_SYNC_MUTEX);
    uint64_t any0 = stat_of("goldilocks.any_compressions");
    uint64_t ent0 = stat_of("goldilocks.entries_live"), mat0 = stat_of("goldilocks.entries_materialised");
    wr(1, T0, x); fork_(2, T0, T1);                 /* LS(x) = {T0, T1} = every live thread */
    lock_rounds(3, T1, M, 700000); /* 1.4 M cells: past the GC budget (2^19 cells) */
    EXPECT(stat_of("goldilocks.any_compressions") >= any0 + 1);   /* per entry (granule) */
    /* x's record is gone; the GC may have expanded other tests' old inline
     * records into (materialised) entries meanwhile */
    EXPECT(stat_of("goldilocks.entries_live") <= ent0 + stat_of("goldilocks.entries_materialised") - mat0);
    wr(5, T1, x);
    EXPECT_EQ(gls_log.n, 0);
    end();
}

/* ANY with a thread blocked in pthread_join (goldi_thr.joining, which the
 * runtime sets while nothing can interrupt the join): a thread waiting for
 * u counts as held by every set holding u, since its JOIN cell will add it.
 * T0 waiting for T1: x's record (set {T1, M, T2}, without T0) is dropped by
 * the GC, and T0's write after the join is ordered after it. T0 waiting for
 * T3, which ended outside y's set, does not count: y's record stays, and
 * T0's write after joining T3 races with T2's write of y. A chain counts:
 * V0 waiting for V1, which waits for V2, is held by a set holding V2. */
/* The ANY sweep (a pool grown past sweep_at, no GC): entries whose sets hold
 * every live thread go, the others stay. Runs first, while the pool is
 * empty, so the first batch alone (56 Ki entries) does not reach the first
 * sweep (SWEEP_MIN, 64 Ki entries) and the second (448 Ki) does. */
static void three_reads(int l, struct goldi_thr *const *r, char *a, int n) {
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < n; i++) {   /* W + six R: more than a packed granule or a mixed run holds */
            rdn(l + k, r[k], a + 8 * i, 4);
            rdn(l + 3 + k, r[k], a + 8 * i + 4, 4);
        }
}

CASE(goldilocks_any_sweep) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T[3] = { thr_new(), thr_new(), thr_new() };
    struct goldi_sync *M = sync_new(GOLDI_SYNC_MUTEX);
    enum { N1 = 8192, N2 = 65536 };
    char *a = var(8 * N1), *b = var(8 * N2);
    uint64_t sw0 = stat_of("goldilocks.any_sweeps"), ent0 = stat_of("goldilocks.entries_live");
    for (int i = 0; i < N1; i++)
        wr(1, T0, a + 8 * i);
    for (int i = 0; i < N2; i++)
        wr(2, T0, b + 8 * i);
    for (int k = 0; k < 3; k++)
        fork_(3, T0, T[k]);
    three_reads(4, T, a, N1);
    for (int round = 0; round < 2; round++) {         /* every set meets every thread through M */
        for (int k = 0; k < 3; k++) {
            acq(10, T[k], M);
            rel(11, T[k], M);
        }
        acq(12, T0, M);
        rel(13, T0, M);
    }
    EXPECT_EQ(stat_of("goldilocks.any_sweeps"), sw0);
    three_reads(20, T, b, N2);                        /* the pool grows past 64 Ki entries */
    EXPECT_EQ(stat_of("goldilocks.any_sweeps"), sw0);   /* (accesses do not sweep) */
    EXPECT_EQ(stat_of("goldilocks.entries_live"), ent0 + 7 * (N1 + N2));
    acq(30, T0, M);                                   /* the next sync event sweeps */
    EXPECT_EQ(stat_of("goldilocks.any_sweeps"), sw0 + 1);
    /* gone: a's W and reads, b's W (T0 forked every reader); b's reads stay */
    EXPECT_EQ(stat_of("goldilocks.entries_live"), ent0 + 6 * N2);
    EXPECT_EQ(gls_log.n, 0);
    rel(31, T0, M);
    wr(32, T0, a + 8);                                /* ordered after everything on a: no race */
    wr(33, T0, b + 8);                                /* races with the six reads of b (two a reader) */
    EXPECT_EQ(races_at(&gls_log, 32), 0);
    EXPECT_EQ(races_at(&gls_log, 33), 6);
    EXPECT_EQ(races_at(&vc_log, 33), 6);
    end();
}

static void gc_cycle(struct goldi_thr *t, struct goldi_sync *m) {
    lock_rounds(90, t, m, 300000); /* 600 k cells: past the GC budget (2^19 cells) */
}

CASE(goldilocks_any_compression_joining) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new();
    struct goldi_sync *M = sync_new(GOLDI_SYNC_MUTEX), *M2 = sync_new(GOLDI_SYNC_MUTEX);
    char *x = var(8);
    fork_(1, T0, T1); fork_(2, T0, T2);
    wr(3, T1, x);
    acq(4, T1, M); rel(5, T1, M); acq(6, T2, M); rel(7, T2, M);
    uint64_t any0 = stat_of("goldilocks.any_compressions");
    gc_cycle(T2, M2);                               /* T0 not waiting: x's set lacks T0 */
    EXPECT_EQ(stat_of("goldilocks.any_compressions"), any0);
    atomic_store(&T0->joining, T1->tid + 1);        /* T0 blocked in pthread_join(T1) */
    gc_cycle(T2, M2);
    EXPECT(stat_of("goldilocks.any_compressions") >= any0 + 1);
    exit_(8, T1); join_(9, T0, T1);
    atomic_store(&T0->joining, 0);
    wr(10, T0, x);
    EXPECT_EQ(gls_log.n, 0);
    end();

    begin();
    struct goldi_thr *U0 = thr_new(), *U1 = thr_new(), *U2 = thr_new(), *U3 = thr_new();
    char *y = var(8);
    fork_(11, U0, U1); fork_(12, U0, U2); fork_(13, U0, U3);
    exit_(14, U3);                                  /* ends without meeting U1 or U2 */
    wr(15, U2, y);
    acq(16, U2, M); rel(17, U2, M); acq(18, U1, M); rel(19, U1, M);   /* y's set: U2, M, U1 */
    atomic_store(&U0->joining, U3->tid + 1);        /* waiting for a thread outside it */
    any0 = stat_of("goldilocks.any_compressions");
    gc_cycle(U1, M2);
    EXPECT_EQ(stat_of("goldilocks.any_compressions"), any0);
    join_(20, U0, U3);
    atomic_store(&U0->joining, 0);
    wr(21, U0, y);                                  /* races with U2's write */
    EXPECT_EQ(races_at(&gls_log, 21), 1);
    end();

    begin();                                        /* a chain: V0 waits for V1, V1 for V2 */
    struct goldi_thr *V0 = thr_new(), *V1 = thr_new(), *V2 = thr_new();
    char *z = var(8);
    fork_(22, V0, V1); fork_(23, V1, V2);
    wr(24, V2, z);                                  /* z's set: V2 (and what V2 releases) */
    atomic_store(&V0->joining, V1->tid + 1);
    any0 = stat_of("goldilocks.any_compressions");
    gc_cycle(V2, M2);
    EXPECT_EQ(stat_of("goldilocks.any_compressions"), any0);   /* V1 runs: not held */
    atomic_store(&V1->joining, V2->tid + 1);
    gc_cycle(V2, M2);
    EXPECT(stat_of("goldilocks.any_compressions") >= any0 + 1);
    atomic_store(&V0->joining, 0);
    atomic_store(&V1->joining, 0);
    end();
}

/* --- concurrency: real threads dispatching at once while the GC runs ----------------------------- */

#define ST_THREADS 4
#define ST_ITERS 150000
static struct goldi_thr *st_thr[ST_THREADS];
static pthread_mutex_t st_real = PTHREAD_MUTEX_INITIALIZER;
static struct goldi_sync *st_L;
static char *st_shared, *st_priv, *st_atomic;

static void *st_worker(void *arg) {
    int i = (int)(intptr_t)arg;
    struct goldi_thr *t = st_thr[i];
    struct goldi_event a = mk(1, GOLDI_EV_LOCK_ACQ, t), r = mk(2, GOLDI_EV_LOCK_REL, t);
    struct goldi_event w = mk(3, GOLDI_EV_WRITE, t), rd_ = mk(4, GOLDI_EV_READ, t), p = mk(5, GOLDI_EV_WRITE, t);
    a.obj = r.obj = st_L;
    w.addr = (uintptr_t)st_shared;
    w.size = 8;
    rd_.addr = (uintptr_t)st_shared + 8 + (unsigned)i;   /* bytes shared by all readers */
    rd_.size = 4;
    p.addr = (uintptr_t)st_priv + 64 * (unsigned)i;
    p.size = 16;
    for (int k = 0; k < ST_ITERS; k++) {
        pthread_mutex_lock(&st_real);
        goldi_dispatch(&a);                       /* recorded after the real acquire */
        goldi_dispatch(&w);
        goldi_dispatch(&rd_);
        goldi_dispatch(&r);                       /* recorded before the real release */
        pthread_mutex_unlock(&st_real);
        goldi_dispatch(&p);
        if (k % 8 == 0)
            atom(6, GOLDI_EV_ATOMIC_RMW, t, st_atomic, (unsigned)(k % 6));
    }
    return NULL;
}

CASE(goldilocks_concurrent_dispatch_with_gc) {
    begin();
    struct goldi_thr *T0 = thr_new();
    for (int i = 0; i < ST_THREADS; i++)
        st_thr[i] = thr_new();
    st_shared = var(16);
    st_priv = var(64 * ST_THREADS);
    st_atomic = var(8);
    st_L = sync_new(GOLDI_SYNC_MUTEX);
    wrn(1, T0, st_shared, 16);
    uint64_t gc0 = stat_of("goldilocks.gc_runs");
    pthread_t pt[ST_THREADS];
    for (int i = 0; i < ST_THREADS; i++) {
        fork_(2, T0, st_thr[i]);
        pthread_create(&pt[i], NULL, st_worker, (void *)(intptr_t)i);
    }
    for (int i = 0; i < ST_THREADS; i++) {
        pthread_join(pt[i], NULL);
        exit_(3, st_thr[i]);
        join_(4, T0, st_thr[i]);
    }
    wrn(5, T0, st_shared, 16);                    /* ordered by the joins */
    wrn(6, T0, st_priv, 64 * ST_THREADS);
    printf("    %d threads x %d iterations: gc runs %llu, cell bytes peak %llu\n", ST_THREADS, ST_ITERS,
           (unsigned long long)(stat_of("goldilocks.gc_runs") - gc0),
           (unsigned long long)stat_of("goldilocks.cell_bytes_peak"));
    EXPECT_EQ(gls_log.n, 0);
    EXPECT(stat_of("goldilocks.gc_runs") > gc0 + 2);   /* 5 at the 2^19-cell budget */
    end();
}

/* --- random differential run against the vc engine ---------------------------------------------- */

/* First race label per byte of [base, base+n), -1 if none. */
static void first_per_byte(const struct eh_log *l, uintptr_t base, size_t n, int *out) {
    for (size_t i = 0; i < n; i++)
        out[i] = -1;
    for (int k = 0; k < l->n; k++)
        for (uint32_t j = 0; j < l->r[k].size; j++) {
            uintptr_t b = l->r[k].addr + j;
            if (b >= base && b < base + n && out[b - base] < 0)
                out[b - base] = l->r[k].label;
        }
}

/* rounds random traces (engine_harness.h) without condvars, once and
 * barriers (with all_sync: with them, and misc ops half of the time, so
 * that barriers of every live thread set dead marks); with burst, a noise
 * thread appends ~70K cells twice per trace so the GC materialises live
 * entries in the middle of it; with halves, most plain accesses are 4 bytes
 * on a granule's half (half records). */
static void random_vs_vc_sync(int rounds, bool burst, bool halves, bool all_sync) {
    int mismatches = 0, races_seen = 0;
    uint64_t mat0 = stat_of("goldilocks.entries_materialised"), hf0 = stat_of("goldilocks.inline_half_records");
    uint64_t sw0 = stat_of("goldilocks.any_sweeps"), dm0 = stat_of("goldilocks.barrier_dead_marks");
    uint64_t dd0 = stat_of("goldilocks.cells_dead_dropped");
    struct eh_random_cfg cfg = { .thread_choices = 3, .steps = 80, .n_ops = 20, .plain = 8, .mutex = 11,
                                 .rwlock = 13, .atomic = 18, .misc = 19, .n_misc = 4, .burst = burst,
                                 .halves = halves };
    if (all_sync) {
        cfg.all_sync = true;
        cfg.n_misc = 12;   /* (sub 5 and up: a barrier) */
    }
    for (int round = 0; round < rounds; round++) {
        struct eh_round g;
        eh_random_round(&g, &cfg);
        int fg[EH_NB], fv[EH_NB];
        first_per_byte(&gls_log, (uintptr_t)g.mem, EH_NB, fg);
        first_per_byte(&vc_log, (uintptr_t)g.mem, EH_NB, fv);
        for (size_t b = 0; b < EH_NB; b++) {
            races_seen += fv[b] >= 0;
            if (fg[b] != fv[b]) {
                if (mismatches < 5)
                    printf("    round %d byte %zu: goldilocks first race @%d, vc @%d\n", round, b, fg[b], fv[b]);
                mismatches++;
            }
        }
        eh_random_finish(&g);
    }
    uint64_t mat = stat_of("goldilocks.entries_materialised") - mat0;
    uint64_t hf = stat_of("goldilocks.inline_half_records") - hf0;
    uint64_t sweeps = stat_of("goldilocks.any_sweeps") - sw0;
    uint64_t marks = stat_of("goldilocks.barrier_dead_marks") - dm0;
    uint64_t dropped = stat_of("goldilocks.cells_dead_dropped") - dd0;
    printf("    %d random traces%s: %d racy bytes (vc), %d first-race mismatches, %llu entries materialised, "
           "%llu half records, %llu ANY sweeps, %llu dead marks, %llu dead cells dropped\n",
           rounds, burst ? " with GC bursts" : all_sync ? " with barriers" : halves ? " of mostly half accesses" : "",
           races_seen, mismatches, (unsigned long long)mat, (unsigned long long)hf, (unsigned long long)sweeps,
           (unsigned long long)marks, (unsigned long long)dropped);
    EXPECT(races_seen > rounds / 6);
    EXPECT_EQ(mismatches, 0);
    /* The pool grows past what the last sweep kept while the traces' entries
     * live on: a sweep per slab (each looking at them all) unless the next
     * sweep waits for real growth (gc_sweep). */
    EXPECT(sweeps <= 10);
    if (burst)
        EXPECT(mat > (uint64_t)rounds);
    if (halves)
        EXPECT(hf > (uint64_t)rounds / 6);
    if (all_sync) {   /* (every round with a barrier before the noise thread's fork sets one) */
        EXPECT(marks > (uint64_t)rounds / 2);
        EXPECT(dropped > (uint64_t)rounds / 4);
    }
}
static void random_vs_vc(int rounds, bool burst, bool halves) { random_vs_vc_sync(rounds, burst, halves, false); }

CASE(goldilocks_random_vs_vc) { random_vs_vc(600, false, false); }
CASE(goldilocks_random_vs_vc_with_gc) { random_vs_vc(40, true, false); }
CASE(goldilocks_random_halves_vs_vc) { random_vs_vc(600, false, true); }
/* Dead marks (docs/goldilocks.md): barriers of every live thread, then half
 * accesses that drop the dead cells beside them. */
CASE(goldilocks_random_barriers_vs_vc) { random_vs_vc_sync(600, false, true, true); }


int main(int argc, char **argv) {
    eh_verbose = argc > 1;
    eh_rng = 0x2545F4914F6CDD1Dull;
    gls_sink = eh_start(&goldi_engine_goldilocks, &gls_log);
    eh_start(&goldi_engine_vc, &vc_log);
    RUN(goldilocks_any_sweep);            /* first: it needs the entry pool empty */
    RUN(goldilocks_rwlock_readers_skip);  /* second: its threads must be 0..15 */
    RUN(goldilocks_example_A_intbox_swap);
    RUN(goldilocks_example_B_container);
    RUN(goldilocks_example_C_lost_signal);
    RUN(goldilocks_example_D_two_waiters);
    RUN(goldilocks_example_D_bug);
    RUN(goldilocks_example_E_message_passing);
    RUN(goldilocks_example_E_rlx);
    RUN(goldilocks_example_F_fences);
    RUN(goldilocks_example_G_release_sequence);
    RUN(goldilocks_example_H_read_shared);
    RUN(goldilocks_regression_G_ALOCK);
    RUN(goldilocks_regression_G_RWALOCK);
    RUN(goldilocks_rwlock_modes);
    RUN(goldilocks_byte_granularity);
    RUN(goldilocks_free_is_a_write_and_alloc_resets);
    RUN(goldilocks_free_of_every_form);
    RUN(goldilocks_barrier_per_generation);
    RUN(goldilocks_semaphore_once_fork_join);
    RUN(goldilocks_atomics_never_race_with_atomics);
    RUN(goldilocks_atomic_vs_plain);
    RUN(goldilocks_failed_cas_is_a_read);
    RUN(goldilocks_walk_across_many_cells);
    RUN(goldilocks_short_circuits);
    RUN(goldilocks_any_compression);
    RUN(goldilocks_granule_runs);
    RUN(goldilocks_registry_runs);
    RUN(goldilocks_any_compression_joining);
    RUN(goldilocks_granule_sharing_and_splitting);
    RUN(goldilocks_packed_granules);
    RUN(goldilocks_readers_run);
    RUN(goldilocks_half_records);
    RUN(goldilocks_read_subsumption);
    RUN(goldilocks_read_moves_past_other_reads);
    RUN(goldilocks_reacquire_without_cell);
    RUN(goldilocks_many_partners_all_reported);
    RUN(goldilocks_epoch_moves_past_own_release);
    RUN(goldilocks_backward_walk);
    RUN(goldilocks_materialised_sets_settled_by_owner);
    RUN(goldilocks_walk_verdict_cache);
    RUN(goldilocks_bounded_update_list);
    RUN(goldilocks_concurrent_dispatch_with_gc);
    RUN(goldilocks_random_vs_vc_with_gc);
    RUN(goldilocks_random_halves_vs_vc);
    RUN(goldilocks_random_barriers_vs_vc);
    RUN(goldilocks_random_vs_vc);         /* last: it creates ~1500 threads, which slows vc */
    eh_print_stats(gls_sink);
    return harness_summary();
}
