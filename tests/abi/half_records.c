/* Pass after pass over an array of 4-byte elements (radix's keys): a
 * writer fills the array and publishes it; a reader reads every element,
 * then releases (its next epoch starts), and reads them all again, 8
 * passes. From the second pass on, the first element of each 8-byte
 * granule is read an epoch later than the second one: the granule's
 * record becomes a half record (one R per half, goldilocks
 * inl_try_halve), and the second element's read makes it whole again
 * (inl_try_half), both on the owner's lock-free path, where the granule
 * used to go packed, under the granule lock. check_counter.sh checks the
 * engine's counters: the half records made, and no packed granule.
 * Race-free; the schedule is fixed (the reader waits for the writer). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#define N 512
#define PASSES 8

static uint32_t elem[N];
static atomic_int ready;
atomic_int pass;   /* (not static: a store no one reads may be dropped) */
static uint64_t sum;

static void *writer(void *arg) {
    for (uint32_t i = 0; i < N; i++)
        elem[i] = i;
    atomic_store_explicit(&ready, 1, memory_order_release);
    return arg;
}

static void *reader(void *arg) {
    while (!atomic_load_explicit(&ready, memory_order_acquire))
        ;
    uint64_t s = 0;
    for (int p = 0; p < PASSES; p++) {
        for (uint32_t i = 0; i < N; i++)
            s += elem[i];
        atomic_store_explicit(&pass, p + 1, memory_order_release);
    }
    sum = s;
    return arg;
}

int main(void) {
    pthread_t w, r;
    pthread_create(&w, NULL, writer, NULL);
    pthread_create(&r, NULL, reader, NULL);
    pthread_join(w, NULL);
    pthread_join(r, NULL);
    printf("half_records: %d passes over %d elements, sum %llu\n", atomic_load(&pass), N, (unsigned long long)sum);
    return sum == (uint64_t)PASSES * N * (N - 1) / 2 ? 0 : 1;
}
