// Goldilocks' lock-free paths under contention (docs/goldilocks.md "Inline
// records"): 4 threads own one band each of a shared array and update it on
// the owner fast path, while every round each thread also reads and writes
// cells of its neighbours' bands under a per-band mutex (so those granules
// are expanded by another thread, then folded back by their owner, over and
// over, racing with the owner's own fast-path updates of nearby granules),
// reads a read-shared table (the lock-free "kept" path) and churns a private
// mutex so the update-list GC runs many times meanwhile. Race-free by
// construction; no report, no hang, every sum checked at the end.
// STRESS-ENGINES: goldilocks vc
// STRESS-MAX-ALLOC-MB: 200
// STRESS-CHECK: inline_churn: ok
#include "stress.h"
#include <pthread.h>

#define T 4
#define BAND 4096           /* longs per band */
#define ROUNDS 60
#define SHARED 32768        /* longs: twice the runtime's same-epoch filter (2^14 slots) */

static long band[T][BAND];
static pthread_mutex_t band_mu[T];
static long table[SHARED];  /* written by main before the threads: read-shared */
static pthread_mutex_t own_mu[T];
static long churn[T];
static long neighbour_sum[T];

static void *worker(void *arg) {
    long id = (long)arg, acc = 0;
    for (int r = 0; r < ROUNDS; r++) {
        pthread_mutex_lock(&band_mu[id]);
        for (int i = 0; i < BAND; i++)
            band[id][i] += i + r;                  /* own band: fast path between neighbours' visits */
        pthread_mutex_unlock(&band_mu[id]);
        long nb = (id + 1) % T;
        pthread_mutex_lock(&band_mu[nb]);
        for (int i = r % 8; i < BAND; i += 8) {    /* a neighbour's granules: expand, then fold back */
            acc += band[nb][i];
            band[nb][i] -= 1;
            band[nb][i] += 1;
        }
        pthread_mutex_unlock(&band_mu[nb]);
        for (int k = 0; k < 2; k++)
            for (int i = 0; i < SHARED; i++)       /* read-shared: the kept path after the first sweep */
                acc += table[(i * 7 + k) % SHARED];
        for (int k = 0; k < 8000; k++) {           /* cells for the GC */
            pthread_mutex_lock(&own_mu[id]);
            churn[id]++;
            pthread_mutex_unlock(&own_mu[id]);
        }
    }
    neighbour_sum[id] = acc;
    return NULL;
}

int main(void) {
    stress_watchdog(50);
    for (int i = 0; i < SHARED; i++)
        table[i] = i;
    for (int t = 0; t < T; t++) {
        pthread_mutex_init(&band_mu[t], NULL);
        pthread_mutex_init(&own_mu[t], NULL);
    }
    pthread_t th[T];
    for (long t = 0; t < T; t++)
        pthread_create(&th[t], NULL, worker, (void *)t);
    for (int t = 0; t < T; t++)
        pthread_join(th[t], NULL);
    for (int t = 0; t < T; t++) {
        STRESS_CHECK(churn[t] == 8000L * ROUNDS, "churn[%d] = %ld", t, churn[t]);
        for (int i = 0; i < BAND; i++) {
            long want = (long)ROUNDS * i + (long)ROUNDS * (ROUNDS - 1) / 2;
            STRESS_CHECK(band[t][i] == want, "band[%d][%d] = %ld, want %ld", t, i, band[t][i], want);
        }
    }
    long total = 0;
    for (int t = 0; t < T; t++)
        total += neighbour_sum[t];
    printf("inline_churn: ok (%ld)\n", total);
    return 0;
}
