/* The goldilocks engine's shortcut for the runtime's plain accesses
 * (goldi_sink.on_access_fast: the lock-free paths, taken only while the
 * engine is the only sink, hence this process of its own), on the granule
 * forms whose lock-free tests read the shadow words as numbers. */
#include "harness.h"
#include "engine_harness.h"

static struct eh_log gls_log = EH_LOG_INIT(true);
static struct goldi_sink *gls_sink;
static uint64_t stat_of(const char *name) { return eh_stat(gls_sink, name); }

/* A plain access as the runtime delivers it: the shortcut when the
 * dispatcher has one (it does here), else an event. */
static void acc_live(int l, enum goldi_event_kind k, struct goldi_thr *t, void *p, uint32_t n) {
    struct goldi_event ev = mk(l, k, t);
    ev.addr = (uintptr_t)p;
    ev.size = n;
    goldi_dispatch_as_live(&ev);
}
static void rd_live(int l, struct goldi_thr *t, void *p) { acc_live(l, GOLDI_EV_READ, t, p, 8); }
static void wr_live(int l, struct goldi_thr *t, void *p) { acc_live(l, GOLDI_EV_WRITE, t, p, 8); }

/* A readers' run (a W and four R in the granule's words): a reader's
 * second read in its epoch is kept without the lock; a read in a later
 * epoch is not (its R moves to the new epoch, as the write after it
 * shows); a write is never kept. */
CASE(goldilocks_fast_readers_run) {
    begin();
    struct goldi_thr *T0 = thr_new(), *T[4];
    struct goldi_sync *L = sync_new(GOLDI_SYNC_MUTEX);
    for (int i = 0; i < 4; i++)
        T[i] = thr_new();
    char *x = var(8);
    wr_live(1, T0, x);
    for (int i = 0; i < 4; i++)
        fork_(2, T0, T[i]);
    uint64_t ex0 = stat_of("goldilocks.packed_expansions");
    for (int i = 0; i < 4; i++)
        rd_live(3, T[i], x);
    EXPECT_EQ(stat_of("goldilocks.packed_expansions"), ex0);
    uint64_t kept0 = stat_of("goldilocks.records_kept_lockfree");
    for (int i = 0; i < 4; i++)
        rd_live(3, T[i], x);
    EXPECT_EQ(stat_of("goldilocks.records_kept_lockfree"), kept0 + 4);
    acq(4, T[0], L); rel(5, T[0], L);   /* T[0]'s next epoch */
    rd_live(3, T[0], x);
    EXPECT_EQ(stat_of("goldilocks.records_kept_lockfree"), kept0 + 4);
    EXPECT_EQ(gls_log.n, 0);
    acq(6, T0, L); rel(7, T0, L);       /* after T[0]'s first read, before its second */
    wr_live(8, T0, x);
    EXPECT_EQ(races_at(&gls_log, 8), 4);
    EXPECT_EQ(stat_of("goldilocks.packed_expansions"), ex0);
    end();
}

int main(int argc, char **argv) {
    eh_verbose = argc > 1;
    gls_sink = eh_start(&goldi_engine_goldilocks, &gls_log);
    RUN(goldilocks_fast_readers_run);
    return harness_summary();
}
