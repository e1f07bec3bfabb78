/* Unit tests of the dispatcher's one-call delivery of atomic operations
 * (goldi_sink.on_atomic): taken only while the sink is the only one
 * attached, with the OWN_STORE answer the derived event would carry, and
 * given up for the ordinary deliveries once a second sink attaches. Its own
 * executable: the dispatcher's sinks are process-wide and only ever added. */
#include <string.h>

#include "harness.h"
#include "event/event.h"
#include "event/sync.h"

#define MAX_REC 32
static struct { uint8_t kind; bool own; } atomics[MAX_REC];
static int n_atomic, n_event, n_read_sync, n_access;

static void rec_atomic(void *self, const struct goldi_event *ev, bool own_store) {
    (void)self;
    if (n_atomic < MAX_REC) {
        atomics[n_atomic].kind = ev->kind;
        atomics[n_atomic].own = own_store;
    }
    n_atomic++;
}
static void rec_event(void *self, const struct goldi_event *ev) {
    (void)self;
    n_event++;
    n_read_sync += ev->kind == GOLDI_EV_ATOMIC_READ_SYNC;
}
static void rec_access(void *self, const struct goldi_event *ev, uintptr_t a, unsigned n) {
    (void)self, (void)ev, (void)a, (void)n;
    n_access++;
}
static struct goldi_sink one = {
    .name = "one", .on_access = rec_access, .own_granule_locks = true, .on_event = rec_event, .on_atomic = rec_atomic,
};
static struct goldi_sink other = { .name = "other", .on_event = rec_event };

static struct goldi_thr t0 = { .tid = 0 }, t1 = { .tid = 1 };
static char mem[64] __attribute__((aligned(64)));

static struct goldi_event atomic_ev(enum goldi_event_kind k, struct goldi_thr *thr, struct goldi_sync *a) {
    struct goldi_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = (uint8_t)k;
    ev.thr = thr;
    ev.pc = 0x1000;
    ev.obj = a;
    ev.addr = a->addr;
    ev.size = 4;
    ev.mo = GOLDI_MO_ACQ_REL;
    return ev;
}

CASE(only_sink_takes_atomics_in_one_call) {
    struct goldi_sync *a = goldi_sync_get((uintptr_t)&mem[8], GOLDI_SYNC_ATOMIC);
    goldi_dispatch_attach(&one);
    uint32_t epoch = t0.sync_epoch;
    n_event = 0;
    const struct { enum goldi_event_kind k; struct goldi_thr *thr; bool own; } run[] = {
        { GOLDI_EV_ATOMIC_LOAD, &t0, false },      /* nobody stored yet */
        { GOLDI_EV_ATOMIC_STORE, &t0, false },
        { GOLDI_EV_ATOMIC_LOAD, &t0, true },       /* t0 reads its own store */
        { GOLDI_EV_ATOMIC_LOAD, &t1, false },      /* t1 reads t0's store */
        { GOLDI_EV_ATOMIC_CASFAIL, &t0, true },    /* still t0's own store */
        { GOLDI_EV_ATOMIC_RMW, &t0, true },        /* its read half reads t0's store */
        { GOLDI_EV_ATOMIC_LOAD, &t0, false },      /* the latest is an RMW */
    };
    int n = (int)(sizeof run / sizeof run[0]);
    for (int i = 0; i < n; i++) {
        struct goldi_event ev = atomic_ev(run[i].k, run[i].thr, a);
        goldi_dispatch(&ev);
    }
    EXPECT_EQ(n_atomic, n);
    for (int i = 0; i < n && i < n_atomic; i++) {
        EXPECT_EQ(atomics[i].kind, run[i].k);
        EXPECT_EQ(atomics[i].own, run[i].own);
    }
    EXPECT_EQ(n_event, 0);    /* no separate deliveries */
    EXPECT_EQ(n_access, 0);
    EXPECT_EQ(t0.sync_epoch - epoch, 6);   /* the dispatcher still counts t0's events */
    struct goldi_event fence = atomic_ev(GOLDI_EV_FENCE, &t0, a);
    goldi_dispatch(&fence);   /* not an atomic operation: delivered as ever */
    EXPECT_EQ(n_event, 1);
    EXPECT_EQ(n_atomic, n);
}

CASE(second_sink_gets_the_ordinary_deliveries) {
    struct goldi_sync *a = goldi_sync_get((uintptr_t)&mem[16], GOLDI_SYNC_ATOMIC);
    goldi_dispatch_attach(&other);
    n_atomic = n_event = n_read_sync = n_access = 0;
    struct goldi_event ld = atomic_ev(GOLDI_EV_ATOMIC_LOAD, &t0, a);
    goldi_dispatch(&ld);
    EXPECT_EQ(n_atomic, 0);
    EXPECT_EQ(n_read_sync, 2);   /* each sink: the read half, then the load */
    EXPECT_EQ(n_event, 4);
    EXPECT_EQ(n_access, 1);      /* (only the first sink checks accesses) */
}

int main(void) {
    RUN(only_sink_takes_atomics_in_one_call);
    RUN(second_sink_gets_the_ordinary_deliveries);
    return harness_summary();
}
