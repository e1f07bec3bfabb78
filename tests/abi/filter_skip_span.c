/* The runtime's exact-address filter (rt.h) is skipped for a span of
 * accesses after a window in which it rarely answered: here 8,192 first
 * writes of an array. The span must count the accesses the granule filter
 * answers too: reads of 8-byte elements already written whole in the
 * epoch, 8 for each read of a 4-byte flag, which the granule filter never
 * looks at and which therefore reaches the engine while the span lasts.
 * Counted in all accesses, the span ends after ~7,000 flag reads (65,536
 * accesses, 1 in 9 a flag read); counted in the engine's accesses alone,
 * as it was, it lasted ~60,000 flag reads, each a kept test in the engine
 * (nbody's global bound, read under a contended granule lock by four
 * threads). check_counter.sh checks the engine's kept count. One thread,
 * no synchronization: every count is fixed. */
#include <stdint.h>
#include <stdio.h>

#define FRESH 8192
#define ROUNDS 100000

static uint64_t arr[FRESH];
volatile uint32_t flag = 1;   /* (volatile: one read per round, not hoisted) */

int main(void) {
    for (uint32_t i = 0; i < FRESH; i++)
        arr[i] = i;
    volatile const uint64_t *a = arr;
    uint64_t s = 0;
    for (uint32_t r = 0; r < ROUNDS; r++) {
        for (uint32_t k = 0; k < 8; k++)
            s += a[k * 8 + (r & 7)];
        s += flag;
    }
    uint64_t want = 0;
    for (uint32_t r = 0; r < ROUNDS; r++)
        for (uint32_t k = 0; k < 8; k++)
            want += k * 8 + (r & 7);
    want += ROUNDS;
    printf("filter_skip_span: %u rounds, sum %llu\n", ROUNDS, (unsigned long long)s);
    return s == want ? 0 : 1;
}
