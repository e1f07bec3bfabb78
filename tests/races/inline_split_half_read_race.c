// VERDICT: race
// A read of part of another thread's unordered write: the producer writes both halves of a
// granule in one statement with no synchronisation; the consumer, after it (an invisible
// wait), reads the low half, then the high half. The first read's check finds the race, so
// no split record may hide it (nor the producer's W from the second read).
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: Previous write of size 8
// CHECK: #0 producer
// CHECK: #0 consumer
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include "invisible_barrier.h"

union pair { uint64_t whole; uint32_t half[2]; };
union pair x;
ib_flag written;
uint64_t seen;

static void *producer(void *arg)
{
  (void)arg;
  x.whole = 0x0000000700000005ull;   /* races with the consumer's reads */
  ib_set(&written);
  return NULL;
}

static void *consumer(void *arg)
{
  (void)arg;
  ib_wait(&written);
  uint64_t s = 0;
  for (int k = 0; k < 4; k++) {
    s += x.half[0];
    __asm__ volatile("" ::: "memory");   /* the low half is read first */
    s += 3u * x.half[1] + (unsigned)k;
  }
  seen = s;
  return NULL;
}

int main(void)
{
  pthread_t p, c;
  pthread_create(&p, NULL, producer, NULL);
  pthread_create(&c, NULL, consumer, NULL);
  pthread_join(p, NULL);
  pthread_join(c, NULL);
  printf("%llu\n", (unsigned long long)seen);
  return 0;
}
