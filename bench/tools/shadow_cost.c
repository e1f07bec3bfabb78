/* shadow_cost: what a shadow record's size and its lock cost on array code,
 * without the detector. A barrier-phased 5-point stencil (bench/workloads/
 * stencil.c's loop) in which every first touch of an 8-byte granule in an
 * epoch updates a record of RECORD bytes in a shadow array beside the data,
 * the way goldi's owner path updates an inline record: load the first word,
 * take a lock bit with `lock cmpxchg` (or, with lock 0, do not), store the
 * access's position, release-store the first word. It bounds what a denser
 * record would save (docs/performance.md, round 34).
 *
 *   cc -O2 -pthread bench/tools/shadow_cost.c -o shadow_cost
 *   ./shadow_cost N THREADS RECORD LOCK      e.g. ./shadow_cost 1200 4 64 1
 *
 * RECORD: 16, 24, 32 or 64 (bytes a granule); LOCK: 1 = take the lock bit
 * with a CAS, 0 = plain stores only. Prints the parallel phase's wall time. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define STEPS 100
#define LOCK_BIT 4

static int n, nthreads, record, lock;
static double *grid[2];
static char *shadow[2];
static pthread_barrier_t barrier;

/* The first touch of granule g in an epoch: the record's first word, then
 * the position of a read (kind 1) or write (kind 0) where the record has
 * room for both, else in its second word. */
static inline void record_update(char *sh, size_t g, uint64_t pos, int kind) {
    _Atomic uint64_t *w = (_Atomic uint64_t *)(sh + g * (size_t)record);
    uint64_t v = atomic_load_explicit(&w[0], memory_order_acquire);
    if (lock && !atomic_compare_exchange_strong_explicit(&w[0], &v, v | LOCK_BIT, memory_order_acquire,
                                                         memory_order_relaxed))
        return;
    atomic_store_explicit(&w[record >= 24 ? 1 + kind : 1], pos, memory_order_relaxed);
    atomic_store_explicit(&w[0], (v & ~(uint64_t)LOCK_BIT) | 2, memory_order_release);
}

static void *worker(void *arg) {
    int idx = (int)(intptr_t)arg;
    int rows = (n - 2) / nthreads, lo = 1 + idx * rows, hi = idx == nthreads - 1 ? n - 1 : lo + rows;
    for (int s = 0; s < STEPS; s++) {
        const double *src = grid[s & 1];
        double *dst = grid[(s + 1) & 1];
        char *src_sh = shadow[s & 1], *dst_sh = shadow[(s + 1) & 1];
        uint64_t pos = (uint64_t)s * 64 + (uint64_t)idx;
        for (int i = lo; i < hi; i++) {
            if (i == lo)   /* the rows above and at the band's start are first touches too */
                for (int j = 0; j < n; j++) {
                    record_update(src_sh, (size_t)(i - 1) * n + j, pos, 1);
                    record_update(src_sh, (size_t)i * n + j, pos, 1);
                }
            for (int j = 1; j < n - 1; j++) {
                record_update(src_sh, (size_t)(i + 1) * n + j, pos, 1);   /* row i+1: first read this epoch */
                dst[(size_t)i * n + j] = 0.25 * (src[(size_t)(i - 1) * n + j] + src[(size_t)(i + 1) * n + j] +
                                                 src[(size_t)i * n + j - 1] + src[(size_t)i * n + j + 1]);
                record_update(dst_sh, (size_t)i * n + j, pos, 0);
            }
        }
        pthread_barrier_wait(&barrier);
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: shadow_cost N THREADS RECORD LOCK\n");
        return 2;
    }
    n = atoi(argv[1]), nthreads = atoi(argv[2]), record = atoi(argv[3]), lock = atoi(argv[4]);
    if (n < 3 || nthreads < 1 || nthreads > 64 || nthreads > n - 2 ||
        (record != 16 && record != 24 && record != 32 && record != 64) || (lock != 0 && lock != 1)) {
        fprintf(stderr, "shadow_cost: N >= 3, 1 <= THREADS <= min(64, N-2), RECORD in 16 24 32 64, LOCK 0 or 1\n");
        return 2;
    }
    size_t cells = (size_t)n * (size_t)n;
    for (int b = 0; b < 2; b++) {
        grid[b] = malloc(sizeof(double) * cells);
        shadow[b] = aligned_alloc(64, (cells * (size_t)record + 63) / 64 * 64);
        if (!grid[b] || !shadow[b]) {
            fprintf(stderr, "shadow_cost: out of memory\n");
            return 1;
        }
        for (size_t k = 0; k < cells; k++)
            grid[b][k] = (double)(k % 97);
        memset(shadow[b], 0, cells * (size_t)record);
    }
    pthread_barrier_init(&barrier, NULL, (unsigned)nthreads);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pthread_t th[64];
    for (int t = 0; t < nthreads; t++)
        pthread_create(&th[t], NULL, worker, (void *)(intptr_t)t);
    for (int t = 0; t < nthreads; t++)
        pthread_join(th[t], NULL);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double sum = 0;
    for (size_t k = 0; k < cells; k++)
        sum += grid[STEPS & 1][k];
    printf("n=%d threads=%d record=%d lock=%d: %.3f s (sum %.6g)\n", n, nthreads, record, lock,
           (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9, sum);
    return 0;
}
