// Heap churn: 4 threads x 250,000 malloc/free of varying sizes (written,
// read back), realloc growth chains, a 64 MiB calloc touched sparsely (each
// small access must cost the same as on a small block: no O(block size)
// work per access; its free used to cost 8 s under vc). The engines'
// per-byte state must go with the blocks: peak RSS and the runtime's own
// heap stay bounded (big range writes: free_state.c). No race.
// STRESS-MAX-ALLOC-MB: 32
#include "stress.h"
#include <pthread.h>
#include <stdint.h>

#define THREADS 4
#define ITERS 250000

static void *churn(void *arg) {
    unsigned seed = (unsigned)(uintptr_t)arg * 2654435761u + 1;
    char *keep[64] = {0};
    unsigned long sum = 0;
    for (int i = 0; i < ITERS; i++) {
        seed = seed * 1103515245u + 12345u;
        size_t n = 1 + (seed >> 8) % ((seed & 63) == 0 ? 16384 : 256);
        unsigned k = (seed >> 20) & 63;
        if (keep[k]) {
            sum += (unsigned char)keep[k][0];
            free(keep[k]);
        }
        char *p = malloc(n);
        STRESS_CHECK(p, "malloc");
        p[0] = (char)i;
        p[n - 1] = (char)n;
        keep[k] = p;
    }
    for (int k = 0; k < 64; k++)
        free(keep[k]);
    /* realloc growth: the block moves, the prefix is copied. */
    for (int r = 0; r < 200; r++) {
        int *v = NULL;
        for (int n = 1; n <= 4096; n *= 2) {
            v = realloc(v, (size_t)n * sizeof *v);
            STRESS_CHECK(v, "realloc");
            v[n - 1] = n;
            if (n > 1)
                STRESS_CHECK(v[n / 2 - 1] == n / 2, "realloc lost data");
        }
        free(v);
    }
    return (void *)sum;
}

int main(void) {
    stress_watchdog(50);
    double t0 = stress_now();
    pthread_t th[THREADS];
    for (long i = 0; i < THREADS; i++)
        pthread_create(&th[i], NULL, churn, (void *)i);
    for (int i = 0; i < THREADS; i++)
        pthread_join(th[i], NULL);
    double t_churn = stress_now() - t0;

    /* Sparse touches of a big calloc vs the same number on a small block. */
    const size_t big_n = 64u << 20;
    volatile char *small = calloc(1, 4096);
    double t1 = stress_now();
    for (int rep = 0; rep < 4; rep++)
        for (size_t off = 0; off < big_n; off += 4096)
            small[(off / 4096) % 4096] += 1;
    double t_small = stress_now() - t1;
    t1 = stress_now();
    volatile char *big = calloc(1, big_n);
    STRESS_CHECK(big, "calloc 64 MiB");
    double t_alloc = stress_now() - t1;
    t1 = stress_now();
    for (int rep = 0; rep < 4; rep++)
        for (size_t off = 0; off < big_n; off += 4096)
            big[off + (size_t)rep] += 1;
    double t_big = stress_now() - t1;
    free((void *)small);
    t1 = stress_now();
    free((void *)big);
    double t_free = stress_now() - t1;

    printf("heap_churn: churn %.2f s; 64 MiB calloc %.3f s, sparse touches big %.3f s vs small %.3f s, "
           "free %.3f s\n", t_churn, t_alloc, t_big, t_small, t_free);
    /* 16k touches each: the big block may cost more for first-touch page
     * faults of the runtime's shadow (a fault per touch: about 0.25 s on an
     * idle 2-core machine, twice that under a parallel test run), not
     * per-access scans of the block (seconds per touch). */
    STRESS_CHECK(t_big < 20 * t_small + 2.0, "sparse accesses to a big block are slow");
    stress_check_peak("heap_churn", 1500);
    return 0;
}
