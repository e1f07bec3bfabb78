// VERDICT: race
// A read of bytes another thread's W does not cover checks nothing against that W, so it
// must not make a split record (whose reader's later reads skip the check against W): the
// producer writes the high half of a granule with no synchronisation at all; the consumer,
// after the write (an invisible wait, no happens-before), reads the low half, then the
// high half. The second read races with the producer's write and must be reported.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: Previous write of size 4
// CHECK: #0 producer
// CHECK: #0 half
// CHECK: #1 consumer
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
  x.half[1] = 7;          /* races with the consumer's read of half[1] */
  ib_set(&written);
  return NULL;
}

/* One load instruction, called from one call site, for both halves: the two reads have
 * the same origin, so the second can take the reader's lock-free path if the first made a
 * split record. */
static __attribute__((noinline)) uint32_t half(int i)
{
  return x.half[i];
}

static int halves;   /* 2, set by main: a trip count the compiler cannot unroll into two calls */

static void *consumer(void *arg)
{
  (void)arg;
  ib_wait(&written);
  uint64_t s = 0;
  for (int i = 0; i < halves; i++)   /* the low half first */
    s += half(i) * (i + 1u);
  seen = s;
  return NULL;
}

int main(void)
{
  pthread_t p, c;
  halves = 2;
  pthread_create(&p, NULL, producer, NULL);
  pthread_create(&c, NULL, consumer, NULL);
  pthread_join(p, NULL);
  pthread_join(c, NULL);
  printf("%llu\n", (unsigned long long)seen);
  return 0;
}
