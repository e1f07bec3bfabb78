/* Ring hand-offs take the lock-free path for another thread's access to an
 * inline record (goldilocks inl_foreign_fast): a producer fills every slot
 * of a ring and publishes the tail (release); the consumer acquires it and
 * reads every slot, then publishes the head; the producer acquires the head
 * and writes every slot again, round after round. Each slot's record is
 * the other thread's at every access. Invisible barriers keep the phases
 * apart, so the schedule, and with it the walks, is the same on every run:
 * the first access of a phase walks the update list and finds the other
 * thread's latest epoch ordered before it, and the phase's other accesses
 * are settled by that walk without one. check_counter.sh checks the
 * engine's counter of such lock-free updates. Race-free. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include "../races/invisible_barrier.h"

#define SLOTS 256
#define ROUNDS 8

static long slot[SLOTS];
static atomic_long head, tail;
static ib_barrier phase;
static long sum;

static void *producer(void *arg) {
    for (long r = 0; r < ROUNDS; r++) {
        while (atomic_load_explicit(&head, memory_order_acquire) != r * SLOTS)
            ;
        for (long i = 0; i < SLOTS; i++)
            slot[i] = r * SLOTS + i;
        atomic_store_explicit(&tail, (r + 1) * SLOTS, memory_order_release);
        ib_barrier_wait(&phase, 2);   /* the consumer reads */
        ib_barrier_wait(&phase, 2);
    }
    return arg;
}

static void *consumer(void *arg) {
    long s = 0;
    for (long r = 0; r < ROUNDS; r++) {
        ib_barrier_wait(&phase, 2);   /* the producer wrote */
        while (atomic_load_explicit(&tail, memory_order_acquire) != (r + 1) * SLOTS)
            ;
        for (long i = 0; i < SLOTS; i++)
            s += slot[i];
        atomic_store_explicit(&head, (r + 1) * SLOTS, memory_order_release);
        ib_barrier_wait(&phase, 2);
    }
    sum = s;
    return arg;
}

int main(void) {
    pthread_t p, c;
    pthread_create(&p, NULL, producer, NULL);
    pthread_create(&c, NULL, consumer, NULL);
    pthread_join(p, NULL);
    pthread_join(c, NULL);
    long n = (long)SLOTS * ROUNDS;
    printf("foreign_handoff: %ld slot reads, sum %ld\n", n, sum);
    return sum == n * (n - 1) / 2 ? 0 : 1;
}
