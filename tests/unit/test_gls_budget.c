/* The Goldilocks engine's GC budget (goldilocks.c, GLS_BUDGET_MIN): its
 * own process and engine instance, as the budget depends on every record
 * the engine holds (test_goldilocks' cases leave idle ones behind). */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "engine_harness.h"
#include "engine/goldilocks/gls.h"

static struct eh_log gls_log = EH_LOG_INIT(true);
static struct goldi_sink *gls_sink;
static uint64_t stat_of(const char *name) { return eh_stat(gls_sink, name); }

/* The GC's budget follows the records a run moves (GLS_BUDGET_MIN): a lock
 * ping-pong with one record keeps 2 MiB of cells, and 100 K granules that
 * stay idle while the list grows (every run moves them all) raise it to
 * 8 MiB; the moved records keep their histories (T2, ordered through L,
 * does not race with them; T0, never synchronised, does). */
CASE(goldilocks_gc_budget_follows_moved_records) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new();
    enum { N = 100000 };
    char *x = var(8), *a = var(8 * N);
    struct goldi_sync *L = sync_new(GOLDI_SYNC_MUTEX);
    fork_(1, T0, T1); fork_(2, T0, T2);
    wr(3, T1, x);
    uint64_t gc0 = stat_of("goldilocks.gc_runs");
    for (int i = 0; i < 1000000; i++) {          /* 4 M cells, one record */
        acq(4, T1, L); rel(5, T1, L);
        acq(6, T2, L); rel(7, T2, L);
    }
    EXPECT(stat_of("goldilocks.gc_runs") > gc0 + 20);
    EXPECT_EQ(stat_of("goldilocks.gc_budget"), UINT64_C(1) << 17);
    EXPECT(stat_of("goldilocks.cell_bytes_peak") < (2u << 20) + 2 * GLS_CHUNK * sizeof(struct gls_cell));
    for (int i = 0; i < N; i++)
        wr(8, T1, a + 8 * i);
    uint64_t gc1 = stat_of("goldilocks.gc_runs");
    for (int i = 0; i < 500000; i++) {           /* 2 M cells while a[] stays idle */
        acq(9, T1, L); rel(10, T1, L);
        acq(11, T2, L); rel(12, T2, L);
    }
    EXPECT(stat_of("goldilocks.gc_runs") > gc1 + 2);
    EXPECT_EQ(stat_of("goldilocks.gc_budget"), UINT64_C(1) << 19);
    EXPECT_EQ(gls_log.n, 0);
    acq(13, T2, L); rd(14, T2, a); rd(14, T2, a + 8 * (N - 1)); rel(15, T2, L);
    EXPECT_EQ(gls_log.n, 0);
    wr(16, T0, a + 8 * (N / 2));                 /* T0 never synchronised: races with T1's write */
    EXPECT_EQ(first_label(&gls_log), 16);
    EXPECT_EQ(gls_log.n, 1);
    end();
}

/* A GC run stops closing chunks once their registries held GLS_GC_REFS
 * records: eight chunks of 64 Ki scattered granules each (512 Ki inline
 * records, one run's worth of chunks) are collected a chunk a run, and the
 * scratch the GC keeps is sized for one chunk's records, not the eight.
 * The records keep their histories. (Run after the budget's case: it
 * leaves the budget at its top.) */
CASE(goldilocks_gc_run_capped_by_refs) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new();
    enum { CHUNKS = 8, PER = 1 << 16, STRIDE = 16 };   /* (every other granule: a ref each) */
    char *a = var((size_t)CHUNKS * PER * STRIDE);
    struct goldi_sync *L = sync_new(GOLDI_SYNC_MUTEX);
    fork_(1, T0, T1); fork_(2, T0, T2);
    for (int c = 0; c < CHUNKS; c++) {
        for (int i = 0; i < PER; i++)
            wr(3, T1, a + ((size_t)c * PER + i) * STRIDE);
        for (unsigned i = 0; i < GLS_CHUNK / 4; i++) {   /* a chunk of cells */
            acq(4, T1, L); rel(5, T1, L);
            acq(6, T2, L); rel(7, T2, L);
        }
    }
    uint64_t gc0 = stat_of("goldilocks.gc_runs");
    for (unsigned i = 0; i < 300 * GLS_CHUNK / 4; i++) { /* past the budget (at most 2^19 cells): collected */
        acq(8, T1, L); rel(9, T1, L);
        acq(10, T2, L); rel(11, T2, L);
    }
    EXPECT(stat_of("goldilocks.gc_runs") >= gc0 + CHUNKS);
    uint64_t scratch = stat_of("goldilocks.gc_scratch_bytes");
    if (eh_verbose)
        fprintf(stderr, "gc_scratch_bytes %llu\n", (unsigned long long)scratch);
    EXPECT(scratch < UINT64_C(24) << 20);   /* 15 MiB; 52 MiB with a cap on refs (a granule run one ref), 104 without a cap */
    acq(12, T2, L); rd(13, T2, a); rd(13, T2, a + ((size_t)CHUNKS * PER - 1) * STRIDE); rel(14, T2, L);
    EXPECT_EQ(gls_log.n, 0);
    wr(15, T0, a + (size_t)PER * STRIDE);             /* T0 never synchronised: races with T1's write */
    EXPECT_EQ(first_label(&gls_log), 15);
    end();
}

/* A sweep's first touches register the rest of their shadow page ahead
 * as one run (new_granule_registered), in the chunk of the thread's epoch.
 * T1 writes a[0..9] of a shadow page's 64 granules (from a[7] on, the run
 * to the page's end is registered) and stays idle while T2 locks and
 * unlocks until the GC has closed and freed that chunk; then T1 writes
 * a[10..63], inside the run,
 * in the same epoch: their records must not count on the run of a closed
 * chunk (they take the tail's chunk), or the GC never visits them and
 * their pos is freed. Then the list grows past the budget again: T2,
 * ordered after T1 through L, reads every element without a race, and
 * T0, never synchronised, races with T1's write of a[40] and T2's read. */
CASE(goldilocks_gc_after_a_run_registered_ahead) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new();
    enum { N = 64 };
    char *a = (char *)(((uintptr_t)var(8 * N + 512) + 511) & ~(uintptr_t)511);   /* (a shadow page's) */
    struct goldi_sync *L = sync_new(GOLDI_SYNC_MUTEX);
    fork_(1, T0, T1); fork_(2, T0, T2);
    for (int i = 0; i < 10; i++)
        wr(3, T1, a + 8 * i);
    uint64_t gc0 = stat_of("goldilocks.gc_runs");
    lock_rounds(4, T2, L, 300 * GLS_CHUNK / 2); /* T1's epoch's chunk closed and freed */
    EXPECT(stat_of("goldilocks.gc_runs") > gc0 + 2);
    for (int i = 10; i < N; i++)
        wr(6, T1, a + 8 * i);
    acq(7, T1, L); rel(8, T1, L);
    uint64_t gc1 = stat_of("goldilocks.gc_runs");
    lock_rounds(9, T2, L, 300 * GLS_CHUNK / 2); /* and the records' chunks after them */
    EXPECT(stat_of("goldilocks.gc_runs") > gc1 + 2);
    acq(11, T2, L);
    for (int i = 0; i < N; i++)
        rd(12, T2, a + 8 * i);
    rel(13, T2, L);
    EXPECT_EQ(gls_log.n, 0);
    wr(14, T0, a + 8 * 40);
    EXPECT_EQ(races_at(&gls_log, 14), 2);
    EXPECT_EQ(gls_log.n, 2);
    end();
}

/* An owner's inline record can hold a later pos than the owner's epoch
 * start: T1 writes x, stays in that epoch while the GC moves the record to
 * the tail (an entry with a materialised set), writes x again (the entry
 * keeps its later pos: place_in_epoch) and the granule folds back inline,
 * registered in the later chunk. T1's next write of x, still in the same
 * epoch, must not store its epoch start under that registry chunk: the GC
 * would visit the record only after the epoch start's chunk is freed, and
 * never move that pos again (CI saw it once in tests/stress/signals.c as a
 * false race after a join). T1 then releases L; the list grows until the
 * cells of both chunks and of T1's release are collected; T2, ordered
 * after T1 through L, reads x without a race; T0 races with T1's write. */
CASE(goldilocks_owner_update_below_its_registry_chunk) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T1 = thr_new(), *T2 = thr_new();
    char *x = var(8);
    struct goldi_sync *L = sync_new(GOLDI_SYNC_MUTEX);
    fork_(1, T0, T1); fork_(2, T0, T2);
    wr(3, T1, x);
    uint64_t gc0 = stat_of("goldilocks.gc_runs"), mat0 = stat_of("goldilocks.entries_materialised");
    lock_rounds(4, T2, L, 300 * GLS_CHUNK / 2); /* x's chunk collected: the record moved */
    EXPECT(stat_of("goldilocks.gc_runs") > gc0);
    EXPECT(stat_of("goldilocks.entries_materialised") > mat0);
    uint64_t contract0 = stat_of("goldilocks.inline_contractions");
    wr(6, T1, x);   /* in the same epoch: the entry keeps the moved pos, folds back inline */
    EXPECT(stat_of("goldilocks.inline_contractions") > contract0);
    wr(7, T1, x);   /* the owner's update at its epoch start */
    acq(8, T1, L); rel(9, T1, L);
    uint64_t gc1 = stat_of("goldilocks.gc_runs");
    lock_rounds(10, T2, L, 600 * GLS_CHUNK / 2); /* every chunk so far collected */
    EXPECT(stat_of("goldilocks.gc_runs") > gc1 + 2);
    acq(12, T2, L);
    rd(13, T2, x);
    rel(14, T2, L);
    EXPECT_EQ(gls_log.n, 0);
    wr(15, T0, x);
    EXPECT_EQ(races_at(&gls_log, 15), 2);
    end();
}

int main(int argc, char **argv) {
    eh_verbose = argc > 1;
    gls_sink = eh_start(&goldi_engine_goldilocks, &gls_log);
    RUN(goldilocks_gc_budget_follows_moved_records);
    RUN(goldilocks_gc_run_capped_by_refs);
    RUN(goldilocks_gc_after_a_run_registered_ahead);
    RUN(goldilocks_owner_update_below_its_registry_chunk);
    return harness_summary();
}
