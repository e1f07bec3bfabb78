// Spin handoffs in three flavours, with more spinning threads than cores:
// a plain payload passes round a ring of 4 threads through one turn
// variable, each thread spinning until the turn is its own, then writing
// the payload and passing the turn on. The turn is read (1) with acquire
// loads, (2) with relaxed loads followed by an acquire fence, (3) with
// seq_cst loads; it is passed with a release (or seq_cst) store. A spinning
// load that repeats the thread's previous one is recognised without the
// location's lock (rt/abi/atomic.c, quiet_repeat_*): if the load that finally
// sees the new turn were taken for a repeat, the payload access after it
// would be reported as a race. No race.
#include "stress.h"
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>

#define THREADS 4
#define ROUNDS 5000    /* per flavour and thread (60 K handoffs: 0.2 s alone, under a 55 s watchdog on a loaded machine) */

enum flavour { ACQUIRE_LOADS, RELAXED_LOADS_THEN_FENCE, SEQ_CST_LOADS, FLAVOURS };

static atomic_int turn;
static long payload;   /* ordered by the handoffs */
static enum flavour flavour;

static void wait_turn(int me) {
    for (unsigned spins = 0;; spins++) {
        int t;
        switch (flavour) {
        case ACQUIRE_LOADS: t = atomic_load_explicit(&turn, memory_order_acquire); break;
        case RELAXED_LOADS_THEN_FENCE: t = atomic_load_explicit(&turn, memory_order_relaxed); break;
        default: t = atomic_load(&turn); break;
        }
        if (t == me)
            break;
        if (spins > 64)
            sched_yield();   /* 2 cores: let the thread whose turn it is run */
    }
    if (flavour == RELAXED_LOADS_THEN_FENCE)
        atomic_thread_fence(memory_order_acquire);
}

static void pass_turn(int me) {
    int next = (me + 1) % THREADS;
    if (flavour == SEQ_CST_LOADS)
        atomic_store(&turn, next);
    else
        atomic_store_explicit(&turn, next, memory_order_release);
}

static void *ring_member(void *arg) {
    int me = (int)(intptr_t)arg;
    for (int i = 0; i < ROUNDS; i++) {
        wait_turn(me);
        payload++;
        pass_turn(me);
    }
    return NULL;
}

int main(void) {
    stress_watchdog(55);
    double t0 = stress_now();
    for (flavour = 0; flavour < FLAVOURS; flavour++) {
        atomic_store(&turn, 0);
        pthread_t th[THREADS];
        for (int i = 0; i < THREADS; i++)
            pthread_create(&th[i], NULL, ring_member, (void *)(intptr_t)i);
        for (int i = 0; i < THREADS; i++)
            pthread_join(th[i], NULL);
    }
    STRESS_CHECK(payload == (long)FLAVOURS * THREADS * ROUNDS, "payload %ld", payload);
    printf("spin_handoffs: %ld handoffs in %.2f s\n", payload, stress_now() - t0);
    return 0;
}
