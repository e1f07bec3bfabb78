// Goldilocks' lock-free updates of atomic entries (goldilocks.c,
// atomic_record_lockfree) against the granule lock's holders: 4 threads
// bump 16 shared atomic counters (one granule each) with relaxed and
// acq_rel RMWs and release stores, so each owner updates its own atomic
// entries without the lock (moved to a new epoch, or kept within one: runs
// of relaxed RMWs on one counter), while a private mutex churns cells enough for
// the update list's GC to lock those granules, snapshot and re-place the
// entries many times meanwhile. Between rounds, behind a barrier, one
// thread reads and rewrites one counter plainly (the granule goes plain,
// then atomic again at the next round's first operation). Race-free by
// construction; no report, no hang, every count checked at the end.
// STRESS-ENGINES: goldilocks vc
// STRESS-CHECK: atomic_churn: ok
#include "stress.h"
#include <pthread.h>
#include <stdatomic.h>

#define T 4
#define N 16
#define ROUNDS 40
#define OPS 4000

static atomic_long ctr[N];
static atomic_long flag[N];
static pthread_barrier_t round_bar;
static pthread_mutex_t own_mu[T];
static long churn[T];
static long plain_seen;

static void *worker(void *arg) {
    long id = (long)arg;
    for (int r = 0; r < ROUNDS; r++) {
        for (int k = 0; k < OPS; k++) {
            int i = (int)((id * 5 + k) % N);
            if (k & 1)                             /* the 2nd to 4th: kept, t's epoch unchanged */
                for (int j = 0; j < 4; j++)
                    atomic_fetch_add_explicit(&ctr[i], 1, memory_order_relaxed);
            else
                atomic_fetch_add_explicit(&ctr[i], 1, memory_order_acq_rel);
            atomic_store_explicit(&flag[(i + 3) % N], k, memory_order_release);
            if (k % 8 == 0) {                      /* cells for the GC */
                pthread_mutex_lock(&own_mu[id]);
                churn[id]++;
                pthread_mutex_unlock(&own_mu[id]);
            }
        }
        pthread_barrier_wait(&round_bar);
        if (id == 0) {                             /* plain, ordered by the barriers */
            long *p = (long *)&ctr[r % N];
            plain_seen += *p;
            *p = *p + 0;
        }
        pthread_barrier_wait(&round_bar);
    }
    return NULL;
}

int main(void) {
    stress_watchdog(50);
    pthread_barrier_init(&round_bar, NULL, T);
    for (int t = 0; t < T; t++)
        pthread_mutex_init(&own_mu[t], NULL);
    pthread_t th[T];
    for (long t = 0; t < T; t++)
        pthread_create(&th[t], NULL, worker, (void *)t);
    for (int t = 0; t < T; t++)
        pthread_join(th[t], NULL);
    long total = 0;
    for (int i = 0; i < N; i++)
        total += atomic_load(&ctr[i]);
    long want = (long)T * ROUNDS * (OPS / 2) * 5;   /* per pair of k: 1 + 4 */
    STRESS_CHECK(total == want, "total %ld, want %ld", total, want);
    for (int t = 0; t < T; t++)
        STRESS_CHECK(churn[t] == (long)ROUNDS * (OPS / 8), "churn[%d] = %ld", t, churn[t]);
    STRESS_CHECK(plain_seen > 0, "plain reads saw %ld", plain_seen);
    printf("atomic_churn: ok (%ld)\n", plain_seen);
    return 0;
}
