/* A barrier's departure ends the exact-address filter's skip span (rt.h,
 * goldi_rt_filter_new_phase): a phase of first writes (8,192 elements of an
 * array, no repeats) fails the filter's window and starts a span of 65,536
 * accesses without it; the next phase, past a barrier, reads a 4-byte flag
 * 60,000 times. With the span cut at the barrier the flag's reads hit the
 * filter after the first; left to run, the span sends every one of them to
 * the engine (a kept test each: nbody's loop bound, read by four threads
 * under a shared granule lock). check_counter.sh checks the engine's kept
 * count. One thread and a barrier of one: every count is fixed. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#define FRESH 8192
#define READS 60000

static uint64_t arr[FRESH];
volatile uint32_t flag = 1;   /* (volatile: one read per round, not hoisted) */

int main(void) {
    pthread_barrier_t phase;
    if (pthread_barrier_init(&phase, NULL, 1) != 0)
        return 2;
    for (uint32_t i = 0; i < FRESH; i++)
        arr[i] = i;
    pthread_barrier_wait(&phase);
    uint64_t s = 0;
    for (uint32_t r = 0; r < READS; r++)
        s += flag;
    pthread_barrier_destroy(&phase);
    volatile const uint64_t *a = arr;
    s += a[FRESH - 1];
    printf("filter_phase_span: %u reads, sum %llu\n", READS, (unsigned long long)s);
    return s == READS + FRESH - 1 ? 0 : 1;
}
