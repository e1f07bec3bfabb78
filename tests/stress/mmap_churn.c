// Mapping churn: 2 threads x 30 rounds of mmap (each at an address no
// round used before), a write to every 64th byte, a read back, munmap; every
// other round moves the mapping (mremap) before the read back. The shadow of
// unmapped memory, and of the range a move leaves, goes back to the system:
// peak RSS stays near one round's (it grew by 16 MiB a round, 960 MiB here,
// before munmap was intercepted; 489 MiB while a move kept the old range's).
// Also a 64 GiB reservation mapped and unmapped: only the parts that hold
// state cost work (it took 36 s when munmap checked every granule). No race.
#include "stress.h"
#include <pthread.h>
#include <stdint.h>
#include <sys/mman.h>

#define ROUNDS 30
#define LEN ((size_t)2 << 20)

/* 2 threads x ROUNDS slots of 2 * LEN, far below where the kernel places
 * mappings of its own choice (the runtime's shadow among them) */
static char *const area = (char *)0x300000000000;

static void *churn(void *arg) {
    long id = (long)arg;
    unsigned long sum = 0;
    for (int r = 0; r < ROUNDS; r++) {
        char *want = area + ((size_t)id * ROUNDS + (size_t)r) * 2 * LEN;
        char *p = mmap(want, LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
        STRESS_CHECK(p == want, "mmap round %d: %p", r, (void *)p);
        for (size_t i = 0; i < LEN; i += 64)
            p[i] = (char)(i >> 6);
        if (r & 1) {   /* to the other half of the round's slot */
            p = mremap(p, LEN, LEN, MREMAP_MAYMOVE | MREMAP_FIXED, want + LEN);
            STRESS_CHECK(p == want + LEN, "mremap round %d: %p", r, (void *)p);
        }
        for (size_t i = 0; i < LEN; i += 4096)
            sum += (unsigned char)p[i];
        STRESS_CHECK(munmap(p, LEN) == 0, "munmap");
    }
    return (void *)sum;
}

int main(void) {
    stress_watchdog(50);
    double t0 = stress_now();
    size_t big = (size_t)64 << 30;
    char *res = mmap(NULL, big, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    STRESS_CHECK(res != MAP_FAILED, "64 GiB reservation");
    STRESS_CHECK(munmap(res, big) == 0, "munmap of the reservation");
    double t1 = stress_now();
    printf("64 GiB reservation mapped and unmapped in %.3f s\n", t1 - t0);
    STRESS_CHECK(t1 - t0 < 2.0, "a 64 GiB reservation took %.1f s", t1 - t0);

    pthread_t t[2];
    for (long i = 0; i < 2; i++)
        STRESS_CHECK(pthread_create(&t[i], NULL, churn, (void *)i) == 0, "pthread_create");
    unsigned long want = 0, got = 0;
    for (size_t i = 0; i < LEN; i += 4096)
        want += (unsigned char)(char)(i >> 6);
    for (int i = 0; i < 2; i++) {
        void *r;
        pthread_join(t[i], &r);
        got += (unsigned long)r;
    }
    STRESS_CHECK(got == 2 * ROUNDS * want, "contents: %lu != %lu", got, 2 * ROUNDS * want);
    printf("%d mappings of %zu MiB in %.2f s\n", 2 * ROUNDS, LEN >> 20, stress_now() - t1);
    stress_check_peak("mmap churn", 160);
    return 0;
}
