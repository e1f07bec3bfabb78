/* Two threads pass a token back and forth through an atomic turn word
 * (release store, acquire loads) and bump a shared relaxed counter each
 * turn: every operation after a thread's first on a location finds its
 * own atomic entry in a granule of atomic entries only, which it updates
 * without the granule's lock (goldilocks.c, atomic_record_lockfree). The
 * turns append cells enough for several GC runs, which lock those
 * granules and snapshot and re-place the entries while their owners
 * update them. Afterwards main reads both words plainly: ordered by the
 * joins, no race. check_counter.sh checks that the lock-free updates
 * happened (about 4 a turn a thread: the load that sees the turn change,
 * the add, the store, and the next load, which reads the thread's own
 * store; none when every operation takes the lock). */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>

#define TURNS 100000

static _Alignas(64) atomic_int turn;
static _Alignas(64) atomic_long count;

static void *player(void *arg) {
    int me = (int)(long)arg;
    for (int i = 0; i < TURNS; i++) {
        for (unsigned spins = 0; atomic_load_explicit(&turn, memory_order_acquire) != me;)
            if (++spins % 64 == 0)
                sched_yield();   /* (the other player may share this core) */
        atomic_fetch_add_explicit(&count, 1, memory_order_relaxed);
        atomic_store_explicit(&turn, 1 - me, memory_order_release);
    }
    return NULL;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, player, (void *)0L);
    pthread_create(&b, NULL, player, (void *)1L);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    long n = *(long *)&count;   /* plain reads of both words, after the joins */
    int t = *(int *)&turn;
    printf("atomic_lockfree: count %ld, turn %d\n", n, t);
    return n == 2L * TURNS && t == 0 ? 0 : 1;
}
