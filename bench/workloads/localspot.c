/* localspot: Goldilocks paper (PLDI'07 §5) microbenchmark. Like sharedspot,
 * but every thread updates its own spots: no locks, no sharing. The detector
 * only has to notice that the data never leaves its thread.
 * -n = total number of spot updates (split over the threads). */
#include "bench.h"

#define NSPOTS 16

struct spot {
    uint64_t sum, xsum, low, n;
};

static long total;
static int nthreads;
static uint64_t *results; /* per thread: folded spots, written once at the end */

static inline unsigned spot_of(uint64_t i) { return (unsigned)((i * 2654435761u) >> 13) & (NSPOTS - 1); }

/* Kept out of line so the compiler cannot fuse the spot updates across
 * iterations into registers: each update really touches memory, as in the
 * paper's field accesses. */
static __attribute__((noinline)) void update(struct spot *s, uint64_t v)
{
    s->sum += v;
    s->xsum ^= v * 0x9e3779b97f4a7c15ull;
    s->low += v & 15;
    s->n++;
}

static void worker(void *arg, int idx)
{
    (void)arg;
    long lo, hi;
    bench_chunk(total, nthreads, idx, &lo, &hi);
    /* Heap-allocated: thread-local by ownership, not by storage class. */
    struct spot *mine = bench_xmalloc(sizeof(struct spot) * NSPOTS);
    for (long i = lo; i < hi; i++)
        update(&mine[spot_of((uint64_t)i)], (uint64_t)i);
    uint64_t s = 0, x = 0, l = 0, n = 0;
    for (int j = 0; j < NSPOTS; j++) {
        s += mine[j].sum;
        x ^= mine[j].xsum;
        l += mine[j].low;
        n += mine[j].n;
    }
    results[idx * 4 + 0] = s;
    results[idx * 4 + 1] = x;
    results[idx * 4 + 2] = l;
    results[idx * 4 + 3] = n;
    free(mine);
}

int main(int argc, char **argv)
{
    struct bench_args a = bench_parse(argc, argv, "localspot", "total thread-local updates", 4, 800000000, 1);
    total = a.size;
    nthreads = a.threads;
    results = bench_xmalloc(sizeof(uint64_t) * 4 * (size_t)a.threads);
    double t0 = bench_now();
    bench_team_run(a.threads, worker, NULL);

    uint64_t s = 0, x = 0, l = 0, n = 0;
    for (int t = 0; t < a.threads; t++) {
        s += results[t * 4 + 0];
        x ^= results[t * 4 + 1];
        l += results[t * 4 + 2];
        n += results[t * 4 + 3];
    }
    /* Closed forms over v = 0..total-1 (a replay would cost as much as the run). */
    uint64_t N = (uint64_t)total;
    uint64_t want_s = (N % 2 == 0) ? (N / 2) * (N - 1) : N * ((N - 1) / 2);
    uint64_t want_l = (N / 16) * 120 + ((N % 16) * (N % 16 - 1)) / 2;
    /* The xor of v*C has no closed form, but C is odd, so its lowest bit is the
     * parity of the number of odd v below N. */
    uint64_t xor_low = (N / 2) & 1;
    int ok = s == want_s && l == want_l && n == N && (x & 1) == xor_low;
    uint64_t h = bench_mix(s) ^ bench_mix(x + l) ^ n;
    return bench_finish(&a, "localspot", h, ok, t0, NULL);
}
