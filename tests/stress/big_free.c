// Big blocks freed: 12 rounds of a 64 MiB malloc touched one byte per MiB,
// then freed. A free checks (as a write) and clears only the granules with
// state: each free is quick, and the shadow of the untouched bytes is never
// brought in (a free took 0.6 s and its peak RSS was 524 MiB, the shadow of
// the whole block, while every granule was checked). No race. Every engine,
// and sets of them, make no records for a free (goldi_access_skips): before,
// all but goldilocks and vc took over 50 s and 4.5-8.5 GiB here.
// STRESS-ENGINES: goldilocks vc fasttrack eraser hybrid-short hybrid-long jrf fastrcd valor goldilocks,vc vc,fasttrack,eraser,hybrid-long,jrf,valor
#include "stress.h"
#include <stdint.h>

#define ROUNDS 12
#define LEN ((size_t)64 << 20)

int main(void) {
    stress_watchdog(50);
    double slowest = 0;
    unsigned long sum = 0;
    for (int r = 0; r < ROUNDS; r++) {
        char *p = malloc(LEN);
        STRESS_CHECK(p, "malloc");
        for (size_t i = 0; i < LEN; i += (size_t)1 << 20)
            p[i] = (char)(i >> 20);
        sum += (unsigned char)p[LEN / 2];
        double t0 = stress_now();
        free(p);
        double t = stress_now() - t0;
        slowest = t > slowest ? t : slowest;
    }
    printf("slowest free of %zu MiB: %.3f s (sum %lu)\n", LEN >> 20, slowest, sum);
    STRESS_CHECK(slowest < 0.25, "a free of %zu MiB took %.3f s", LEN >> 20, slowest);
    stress_check_peak("big free", 160);
    return 0;
}
