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

int main(int argc, char **argv) {
    eh_verbose = argc > 1;
    gls_sink = eh_start(&goldi_engine_goldilocks, &gls_log);
    RUN(goldilocks_gc_budget_follows_moved_records);
    return harness_summary();
}
