/* sharedspot: Goldilocks paper (PLDI'07 §5) microbenchmark. A few integers,
 * each protected by its own lock, are updated by every thread. The lock
 * protecting a spot never changes, which is the case the Goldilocks short
 * circuit makes O(1) while vector clocks pay O(threads) per acquire.
 * -n = total number of spot updates (split over the threads, so the work is
 * the same for every -t and the scaling table compares equal work). */
#include "bench.h"

#define NSPOTS 16 /* power of two: spot index is a mask */

struct spot {
    pthread_mutex_t lock;
    uint64_t sum;   /* sum of the values added */
    uint64_t xsum;  /* xor of a per-value hash */
    uint64_t low;   /* sum of the low 4 bits */
    uint64_t n;     /* updates applied */
} __attribute__((aligned(64)));

static struct spot spots[NSPOTS];
static long total;
static int nthreads;

static inline unsigned spot_of(uint64_t i) { return (unsigned)((i * 2654435761u) >> 13) & (NSPOTS - 1); }

static void worker(void *arg, int idx)
{
    (void)arg;
    long lo, hi;
    bench_chunk(total, nthreads, idx, &lo, &hi);
    for (long i = lo; i < hi; i++) {
        struct spot *s = &spots[spot_of((uint64_t)i)];
        uint64_t v = (uint64_t)i;
        pthread_mutex_lock(&s->lock);
        s->sum += v;
        s->xsum ^= v * 0x9e3779b97f4a7c15ull;
        s->low += v & 15;
        s->n++;
        pthread_mutex_unlock(&s->lock);
    }
}

int main(int argc, char **argv)
{
    struct bench_args a = bench_parse(argc, argv, "sharedspot", "total lock-protected updates", 4, 48000000, 1);
    total = a.size;
    nthreads = a.threads;
    for (int j = 0; j < NSPOTS; j++)
        pthread_mutex_init(&spots[j].lock, NULL);
    double t0 = bench_now();
    bench_team_run(a.threads, worker, NULL);

    /* Every update commutes, so the expected spots follow from a lock-free
     * sequential replay (cheap next to the locked run). */
    uint64_t want[NSPOTS][4] = {{0}};
    for (long i = 0; i < total; i++) {
        uint64_t v = (uint64_t)i, *w = want[spot_of(v)];
        w[0] += v;
        w[1] ^= v * 0x9e3779b97f4a7c15ull;
        w[2] += v & 15;
        w[3]++;
    }
    int ok = 1;
    uint64_t h = 0;
    for (int j = 0; j < NSPOTS; j++) {
        struct spot *s = &spots[j];
        ok &= s->sum == want[j][0] && s->xsum == want[j][1] && s->low == want[j][2] && s->n == want[j][3];
        h = bench_mix(h ^ s->sum) ^ bench_mix(s->xsum + s->low) ^ s->n;
    }
    return bench_finish(&a, "sharedspot", h, ok, t0, NULL);
}
