/* After a span without the granule filter in which the engine found most
 * accesses repeats of their epoch, the filter's next window is long (rt.h).
 * First 320 K first writes of one array (the thread's first window fails on
 * them: no repeats), then the sweep of gfilter_sweep.h: 160 K first writes
 * of another, read again 24 times in the same epoch. The span that sees
 * those passes ends with a long window, which marks the whole array, and
 * the passes after it are the granule filter's hits. With short windows
 * only, each window marked 16 K granules and failed, and most reads of
 * every pass were kept tests in the engine. check_counter.sh checks the
 * engine's kept count. One thread, no synchronization: every count is
 * fixed. */
#include "gfilter_sweep.h"

#define FIRST (320 * 1024)

int main(void) {
    uint64_t *first = malloc(FIRST * sizeof *first);
    if (!first)
        return 2;
    for (uint32_t i = 0; i < FIRST; i++)
        first[i] = i;
    int r = gfilter_sweep("gfilter_repeats_window", 160 * 1024, 24);
    printf("(first array's last element %llu)\n", (unsigned long long)((volatile uint64_t *)first)[FIRST - 1]);
    free(first);
    return r;
}
