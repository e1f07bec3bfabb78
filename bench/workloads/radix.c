/* radix: SPLASH-2 style parallel LSD radix sort of 32-bit keys, 8 bits per
 * pass. Per pass: each thread histograms its slice of the source, barrier,
 * each thread derives its scatter offsets from all histograms (a global
 * prefix sum, reading the other threads' counts), barrier-free scatter into
 * disjoint destination positions, barrier, swap buffers.
 * -n = number of keys. */
#include "bench.h"

#define BITS 8
#define BUCKETS (1 << BITS)
#define PASSES (32 / BITS)

static long nkeys;
static int nthreads;
static uint32_t *buf[2];
static long *hist; /* [thread][bucket] */
static pthread_barrier_t barrier;

static void worker(void *arg, int idx)
{
    (void)arg;
    long lo, hi;
    bench_chunk(nkeys, nthreads, idx, &lo, &hi);
    long *mine = &hist[(size_t)idx * BUCKETS];
    long offs[BUCKETS];
    for (int p = 0; p < PASSES; p++) {
        const uint32_t *src = buf[p & 1];
        uint32_t *dst = buf[(p + 1) & 1];
        int shift = p * BITS;
        for (int b = 0; b < BUCKETS; b++)
            mine[b] = 0;
        for (long i = lo; i < hi; i++)
            mine[(src[i] >> shift) & (BUCKETS - 1)]++;
        pthread_barrier_wait(&barrier);
        /* Keys of bucket b go after all smaller buckets, and within bucket b
         * after the keys of lower-numbered threads: a stable sort. */
        long base = 0;
        for (int b = 0; b < BUCKETS; b++) {
            long before = 0, all = 0;
            for (int t = 0; t < nthreads; t++) {
                long c = hist[(size_t)t * BUCKETS + b];
                if (t < idx) before += c;
                all += c;
            }
            offs[b] = base + before;
            base += all;
        }
        for (long i = lo; i < hi; i++) {
            uint32_t k = src[i];
            dst[offs[(k >> shift) & (BUCKETS - 1)]++] = k;
        }
        /* Next pass reads dst and rewrites hist: both need everyone done. */
        pthread_barrier_wait(&barrier);
    }
}

int main(int argc, char **argv)
{
    struct bench_args a = bench_parse(argc, argv, "radix", "number of 32-bit keys", 4, 30000000, 1);
    nkeys = a.size;
    nthreads = a.threads;
    buf[0] = bench_xmalloc(sizeof(uint32_t) * (size_t)nkeys);
    buf[1] = bench_xmalloc(sizeof(uint32_t) * (size_t)nkeys);
    hist = bench_xmalloc(sizeof(long) * BUCKETS * (size_t)nthreads);
    uint64_t in_sum = 0, in_hash = 0;
    for (long i = 0; i < nkeys; i++) {
        uint32_t k = (uint32_t)bench_mix((uint64_t)i);
        buf[0][i] = k;
        in_sum += k;
        in_hash += bench_mix(k);
    }
    pthread_barrier_init(&barrier, NULL, (unsigned)a.threads);
    double t0 = bench_now();
    bench_team_run(a.threads, worker, NULL);

    /* PASSES is even, so the result is back in buf[0]. Sorted + same
     * multiset (sum and sum-of-hashes) = correct. */
    const uint32_t *out = buf[PASSES & 1];
    uint64_t sum = 0, hash = 0, h = 0;
    int ok = 1;
    for (long i = 0; i < nkeys; i++) {
        ok &= i == 0 || out[i - 1] <= out[i];
        sum += out[i];
        hash += bench_mix(out[i]);
        if ((i & 1023) == 0) h = bench_mix(h ^ out[i]);
    }
    ok &= sum == in_sum && hash == in_hash;
    return bench_finish(&a, "radix", h ^ hash, ok, t0, NULL);
}
