// Integers that look like addresses, and a reservation of 16 TiB: neither
// may bring shadow in. On this VM's kernel a read of a page never written
// commits it (no shared zero page), so every read of the shadow's
// directory costs 4 KiB of RSS on first touch.
// - goldilocks prefetches the shadow an 8-byte value points at when it looks
//   like a user-space pointer. Sums and counters that grow past 2^32 pass
//   that test: sharedspot's GCC build read 39 MiB peak against 5.6 MiB for
//   Clang's (its GCC build reads the sums with 8-byte loads the filter does
//   not answer), and 2 x 100,000 values 512 MiB apart took 800 MiB here.
// - The mmap and munmap of a reservation look up the directory once per
//   MiB of it, for the parts that may hold state: a 16 TiB one read 32,768
//   directory pages (0.5 s, 130 MiB) before the runtime kept which 512 MiB
//   spans ever had shadow.
// No race: each thread reads its own array. Not under vc: it keeps a record
// per byte read (64 bytes each: 100 MiB here), by design.
// STRESS-ENGINES: goldilocks fasttrack goldilocks,fasttrack
#include "stress.h"
#include <pthread.h>
#include <stdint.h>
#include <sys/mman.h>

#define VALUES 100000

static uint64_t *values[2];

static void *sum_values(void *arg) {
    long id = (long)arg;
    uint64_t *v = values[id], sum = 0;
    for (size_t i = 0; i < VALUES; i++)
        sum += v[i];
    return (void *)(uintptr_t)sum;
}

int main(void) {
    stress_watchdog(30);
    long before = stress_rss_kb();
    double t0 = stress_now();
    size_t big = (size_t)16 << 40;
    char *res = mmap(NULL, big, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (res != MAP_FAILED) {   /* (an address-space limit may refuse it: the rest still runs) */
        STRESS_CHECK(munmap(res, big) == 0, "munmap of the reservation");
        long grew = stress_rss_kb() - before;
        printf("16 TiB reservation mapped and unmapped in %.3f s, RSS +%ld KiB\n", stress_now() - t0, grew);
        STRESS_CHECK(grew < 16 << 10, "a 16 TiB reservation took %ld KiB of RSS", grew);
    }

    uint64_t want = 0;
    for (long id = 0; id < 2; id++) {
        values[id] = malloc(VALUES * sizeof *values[id]);
        STRESS_CHECK(values[id], "malloc");
        for (size_t i = 0; i < VALUES; i++) {   /* 8-aligned, below 2^47, 512 MiB apart */
            values[id][i] = (uint64_t)(i * 2 + (size_t)id + 1) << 29;
            want += values[id][i];
        }
    }
    before = stress_rss_kb();
    pthread_t t[2];
    for (long i = 0; i < 2; i++)
        STRESS_CHECK(pthread_create(&t[i], NULL, sum_values, (void *)i) == 0, "pthread_create");
    uint64_t got = 0;
    for (int i = 0; i < 2; i++) {
        void *r;
        pthread_join(t[i], &r);
        got += (uint64_t)(uintptr_t)r;
    }
    STRESS_CHECK(got == want, "sums: %llx != %llx", (unsigned long long)got, (unsigned long long)want);
    long grew = stress_rss_kb() - before;
    printf("2 x %d address-like values read, RSS +%ld KiB\n", VALUES, grew);
    STRESS_CHECK(grew < 32 << 10, "reading address-like values took %ld KiB of RSS", grew);
    for (int id = 0; id < 2; id++)
        free(values[id]);
    return 0;
}
