// Long runs: 2 threads x 2,500,000 lock/unlock pairs (10M lock operations)
// on one mutex while a variable written once at the start is never touched
// again (the goldilocks update list must be collected online, not only at
// exit), 200,000 heap mutexes created/used/destroyed/freed at distinct
// addresses (the sync-object table must not grow with them), and an
// acquire/release spin handoff of 100,000 rounds. Memory stays bounded, no
// race.
// STRESS-MAX-ALLOC-MB: 96
#include "stress.h"
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>

#define ROUNDS 2500000
#define HEAP_MUTEXES 200000
#define HANDOFFS 100000

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static long counter;      /* under mu */
int touched_once;         /* written by main before the threads start */

static void *locker(void *arg) {
    (void)arg;
    for (int i = 0; i < ROUNDS; i++) {
        pthread_mutex_lock(&mu);
        counter++;
        pthread_mutex_unlock(&mu);
    }
    return NULL;
}

static void *heap_mutexes(void *arg) {
    long sum = 0;
    pthread_mutex_t *keep[16] = {0};
    for (int i = 0; i < HEAP_MUTEXES; i++) {
        /* a spacer makes successive mutexes land at different addresses */
        char *spacer = malloc(16 + (size_t)(i % 64) * 16);
        pthread_mutex_t *m = malloc(sizeof *m);
        pthread_mutex_init(m, NULL);
        pthread_mutex_lock(m);
        sum += i;
        pthread_mutex_unlock(m);
        unsigned k = (unsigned)i & 15;
        if (keep[k]) {
            pthread_mutex_destroy(keep[k]);
            free(keep[k]);
        }
        keep[k] = m;
        free(spacer);
    }
    for (int k = 0; k < 16; k++) {
        pthread_mutex_destroy(keep[k]);
        free(keep[k]);
    }
    return (void *)sum;
}

static atomic_int turn;
static long handoff_data;  /* ordered by the acquire/release handoff */
static void *spinner(void *arg) {
    int me = (int)(intptr_t)arg;
    for (int i = 0; i < HANDOFFS; i++) {
        for (int spins = 0; atomic_load_explicit(&turn, memory_order_acquire) != me; spins++)
            if (spins > 64)
                sched_yield();   /* 2 cores, maybe shared with other tests */
        handoff_data++;
        atomic_store_explicit(&turn, 1 - me, memory_order_release);
    }
    return NULL;
}

int main(void) {
    stress_watchdog(55);
    touched_once = 42;
    double t0 = stress_now();
    pthread_t a, b, c;
    pthread_create(&a, NULL, locker, NULL);
    pthread_create(&b, NULL, locker, NULL);
    pthread_create(&c, NULL, heap_mutexes, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_join(c, NULL);
    STRESS_CHECK(counter == 2L * ROUNDS, "counter %ld", counter);
    double t1 = stress_now();
    pthread_create(&a, NULL, spinner, (void *)0);
    pthread_create(&b, NULL, spinner, (void *)1);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    STRESS_CHECK(handoff_data == 2L * HANDOFFS, "handoffs %ld", handoff_data);
    printf("long_locks: locks %.2f s, handoffs %.2f s, touched_once %d\n", t1 - t0, stress_now() - t1,
           touched_once);
    stress_check_peak("long_locks", 300);
    return 0;
}
