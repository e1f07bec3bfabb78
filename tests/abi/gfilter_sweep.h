/* The granule filter tests' sweep (gfilter_first_window.c,
 * gfilter_repeats_window.c): one thread writes n fresh 8-byte elements, then
 * reads them all `passes` times in the same epoch, each element read with a
 * hot global (a pricer's pointers: the exact filter's hits, which keep that
 * filter consulted). Prints the sum under `name`; 0 if it is right. */
#ifndef GFILTER_SWEEP_H
#define GFILTER_SWEEP_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

volatile uint64_t hot;

static int gfilter_sweep(const char *name, uint32_t n, int passes) {
    uint64_t *a = malloc(n * sizeof *a);
    if (!a)
        return 2;
    for (uint32_t i = 0; i < n; i++)
        a[i] = i;
    uint64_t s = 0;
    for (int p = 0; p < passes; p++)
        for (uint32_t i = 0; i < n; i++)
            s += ((volatile uint64_t *)a)[i] + hot;
    uint64_t want = (uint64_t)passes * n * (n - 1) / 2;
    printf("%s: %d passes over %u granules, sum %llu\n", name, passes, n, (unsigned long long)s);
    free(a);
    return s == want ? 0 : 1;
}

#endif
