/* lifetime_cost: what a detector charges for a large buffer's lifetime, the
 * parts a kernel workload does not show: its first fill (every granule's
 * record created, the shadow's pages committed) and its free (checked as a
 * write of every byte, then reset). Main allocates THREADS buffers of MIB
 * MiB each; each is filled with 4-byte stores, by a thread of its own
 * (`foreign`: main then frees data other threads wrote, after joining
 * them) or by main itself (`own`); main reads one byte of each and frees
 * them all. Prints the fill's and the frees' wall times. Race-free.
 *
 *   goldi cc -O2 -pthread bench/tools/lifetime_cost.c -o lc     (or clang -fsanitize=thread, or cc)
 *   ./lc foreign 4 32      ./lc own 4 32
 *
 * docs/performance.md, round 51. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_THREADS 64

static unsigned *buf[MAX_THREADS];
static size_t words;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *fill(void *arg) {
    unsigned *p = arg;
    for (size_t k = 0; k < words; k++)
        p[k] = (unsigned)(k * 2654435761u);
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 4 || (strcmp(argv[1], "own") != 0 && strcmp(argv[1], "foreign") != 0) || atoi(argv[2]) < 1 ||
        atoi(argv[2]) > MAX_THREADS || atoi(argv[3]) < 1) {
        fprintf(stderr, "usage: lifetime_cost own|foreign THREADS MIB\n");
        return 2;
    }
    int foreign = strcmp(argv[1], "foreign") == 0, n = atoi(argv[2]);
    words = (size_t)atoi(argv[3]) << 18;   /* MiB of 4-byte words */
    for (int i = 0; i < n; i++)
        if (!(buf[i] = malloc(words * sizeof **buf)))
            return 3;
    pthread_t t[MAX_THREADS];
    double t0 = now();
    for (int i = 0; i < n; i++) {
        if (!foreign)
            fill(buf[i]);
        else if (pthread_create(&t[i], NULL, fill, buf[i]) != 0)
            return 3;
    }
    for (int i = 0; foreign && i < n; i++)
        pthread_join(t[i], NULL);
    double t1 = now();
    unsigned sum = 0;
    for (int i = 0; i < n; i++)
        sum += buf[i][12345 % words];
    for (int i = 0; i < n; i++)
        free(buf[i]);
    double t2 = now();
    printf("lifetime_cost %s %d x %s MiB: fill %.3f s, free %.3f s (%u)\n", argv[1], n, argv[3], t1 - t0, t2 - t1,
           sum);
    return 0;
}
