/* lockfree: C11 <stdatomic.h> synchronisation only, no locks. Threads are
 * paired into producer/consumer over single-producer single-consumer rings:
 * the payload slots are plain memory, published by a release store of the
 * tail index and consumed after an acquire load of it (message passing), and
 * the slot is handed back by a release store of the head index. Every
 * message also bumps shared relaxed and seq_cst counters (fetch_add).
 * A detector that does not model acquire/release reports false races here.
 * -n = total messages (split over the pairs); -t = threads (pairs = t/2, at least 1). */
#include "bench.h"
#include <sched.h>
#include <stdatomic.h>

#define RING 1024 /* power of two */

struct msg {
    uint64_t seq;
    uint64_t val;
    uint64_t check;
};

struct ring {
    _Alignas(64) atomic_ulong head; /* next slot to read, written by the consumer */
    _Alignas(64) atomic_ulong tail; /* next slot to write, written by the producer */
    _Alignas(64) struct msg slots[RING];
    uint64_t count; /* messages this pair carries */
    uint64_t first; /* global index of its first message */
    uint64_t got;   /* consumer's checksum, read by main after join */
    int bad;
};

static struct ring *rings;
static int npairs;
static _Alignas(64) atomic_ulong relaxed_count;
static _Alignas(64) atomic_ulong seqcst_sum;

/* Spinning is fine on idle cores, but with more threads than cores the
 * partner may be descheduled: back off to the scheduler early. */
static inline void backoff(unsigned *spins)
{
    if (++*spins > 64) {
        sched_yield();
        *spins = 0;
    }
}

static void worker(void *arg, int idx)
{
    (void)arg;
    struct ring *r = &rings[idx / 2];
    if (idx % 2 == 0) { /* producer */
        for (uint64_t i = 0; i < r->count; i++) {
            unsigned long t = atomic_load_explicit(&r->tail, memory_order_relaxed);
            unsigned spins = 0;
            while (t - atomic_load_explicit(&r->head, memory_order_acquire) >= RING)
                backoff(&spins);
            struct msg *m = &r->slots[t & (RING - 1)];
            m->seq = r->first + i;
            m->val = bench_mix(r->first + i);
            m->check = m->seq ^ m->val;
            atomic_store_explicit(&r->tail, t + 1, memory_order_release);
            atomic_fetch_add_explicit(&relaxed_count, 1, memory_order_relaxed);
        }
    } else { /* consumer */
        uint64_t sum = 0;
        int bad = 0;
        for (uint64_t i = 0; i < r->count; i++) {
            unsigned long h = atomic_load_explicit(&r->head, memory_order_relaxed);
            unsigned spins = 0;
            while (atomic_load_explicit(&r->tail, memory_order_acquire) == h)
                backoff(&spins);
            struct msg *m = &r->slots[h & (RING - 1)];
            uint64_t seq = m->seq;
            bad |= seq != r->first + i || (seq ^ m->val) != m->check;
            sum += m->val;
            /* Last touch of the slot: after this release the producer may
             * overwrite it (so seq was copied out above). */
            atomic_store_explicit(&r->head, h + 1, memory_order_release);
            atomic_fetch_add(&seqcst_sum, seq & 0xff);
        }
        r->got = sum;
        r->bad = bad;
    }
}

int main(int argc, char **argv)
{
    struct bench_args a = bench_parse(argc, argv, "lockfree", "total messages", 4, 60000000, 1);
    npairs = a.threads / 2 > 0 ? a.threads / 2 : 1;
    int nthr = npairs * 2;
    rings = bench_xmalloc(sizeof(struct ring) * (size_t)npairs);
    for (int p = 0; p < npairs; p++) {
        long lo, hi;
        bench_chunk(a.size, npairs, p, &lo, &hi);
        rings[p].first = (uint64_t)lo;
        rings[p].count = (uint64_t)(hi - lo);
    }
    double t0 = bench_now();
    bench_team_run(nthr, worker, NULL);

    uint64_t sum = 0, want = 0, want_sc = 0;
    int ok = 1;
    for (int p = 0; p < npairs; p++) {
        sum += rings[p].got;
        ok &= !rings[p].bad;
    }
    for (uint64_t i = 0; i < (uint64_t)a.size; i++) {
        want += bench_mix(i);
        want_sc += i & 0xff;
    }
    ok &= sum == want && atomic_load(&relaxed_count) == (uint64_t)a.size && atomic_load(&seqcst_sum) == want_sc;
    char detail[64];
    snprintf(detail, sizeof detail, "pairs=%d", npairs);
    return bench_finish(&a, "lockfree", bench_mix(sum) ^ want_sc, ok, t0, detail);
}
