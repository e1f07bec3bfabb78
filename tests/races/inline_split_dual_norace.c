// VERDICT: norace
// Radix's pattern, in small: 4-byte keys, two per 8-byte granule, each phase's accesses by
// a thread other than the last phase's, phases separated by a barrier. The even and odd keys
// are touched by two different functions (two origins, as an unrolled loop's two copies), so
// granules go through split records with half and dual-origin kinds and the locked path's
// fold back. Every access is ordered after every earlier one on its bytes: nothing to report.
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#define KEYS 64
#define THREADS 3
#define PHASES 9

static uint32_t keys[KEYS] __attribute__((aligned(8)));
static pthread_barrier_t barrier;
static uint64_t sums[THREADS];

static __attribute__((noinline)) void write_even(int i, uint32_t v) { keys[i] = v; }
static __attribute__((noinline)) void write_odd(int i, uint32_t v) { keys[i] = v; }
static __attribute__((noinline)) uint32_t read_even(int i) { return keys[i]; }
static __attribute__((noinline)) uint32_t read_odd(int i) { return keys[i]; }

static void *worker(void *arg)
{
  int me = (int)(intptr_t)arg;
  uint64_t sum = 0;
  for (int p = 0; p < PHASES; p++) {
    /* phase p: thread (p + g) % THREADS owns granule g; even phases write, odd ones read */
    for (int g = 0; g < KEYS / 2; g++) {
      if ((p + g) % THREADS != me)
        continue;
      if (p % 2 == 0) {
        write_even(2 * g, (uint32_t)(p * KEYS + g));
        write_odd(2 * g + 1, (uint32_t)(p * KEYS + g + 1));
      } else {
        sum += read_even(2 * g);
        sum += read_odd(2 * g + 1);
      }
    }
    pthread_barrier_wait(&barrier);
  }
  sums[me] = sum;
  return NULL;
}

int main(void)
{
  pthread_t t[THREADS];
  pthread_barrier_init(&barrier, NULL, THREADS);
  for (int i = 0; i < THREADS; i++)
    pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i);
  uint64_t sum = 0;
  for (int i = 0; i < THREADS; i++) {
    pthread_join(t[i], NULL);
    sum += sums[i];
  }
  for (int i = 0; i < KEYS; i++)
    sum += keys[i];
  printf("%llu\n", (unsigned long long)sum);
  return 0;
}
