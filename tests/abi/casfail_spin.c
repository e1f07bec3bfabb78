/* A spin of failing CASes on a held lock is a run of repeated reads: after
 * the first, none is dispatched (rt/abi/atomic.c: a failed CAS takes back
 * the write count it raised before it was performed). The holder waits,
 * invisibly to the runtime, until the waiter has failed CASES times, so the
 * count of failures does not depend on the schedule; check_counter.sh then
 * checks that the goldilocks engine appended only a handful of cells. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include "../races/invisible_barrier.h"

#define CASES 100000

static atomic_int lock_word;
static ib_flag held, failures;
static long data;   /* under lock_word */

static void take(void) {
    int expected = 0;
    while (!atomic_compare_exchange_strong_explicit(&lock_word, &expected, 1, memory_order_acquire,
                                                    memory_order_acquire)) {
        expected = 0;
        ib_set(&failures);
    }
}

static void *holder(void *arg) {
    take();
    data = 1;
    ib_set(&held);
    ib_wait_ge(&failures, CASES);
    atomic_store_explicit(&lock_word, 0, memory_order_release);
    return arg;
}

static void *waiter(void *arg) {
    ib_wait(&held);
    take();
    data++;
    atomic_store_explicit(&lock_word, 0, memory_order_release);
    return arg;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, holder, NULL);
    pthread_create(&b, NULL, waiter, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("casfail_spin: data %ld, at least %d failed CASes\n", data, CASES);
    return data == 2 ? 0 : 1;
}
