// VERDICT: race
// Split inline records: the consumer reads x after acquiring the producer's release (x's
// granule becomes a split record: the producer's W, the consumer's R), reads it again on the
// lock-free path, and the producer then writes x once more without waiting for the consumer:
// that write is not ordered after the consumer's reads. The race must survive the split
// record: the producer's second write checks the consumer's R.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: in producer
// CHECK: Previous read of size 8
// CHECK: #0 consumer
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include "invisible_barrier.h"

long x;
atomic_int ready;
ib_flag consumed;
long seen;

static void *producer(void *arg)
{
  (void)arg;
  x = 1;
  atomic_store_explicit(&ready, 1, memory_order_release);
  ib_wait(&consumed);
  x = 2;                  /* races with the consumer's reads */
  return NULL;
}

static void *consumer(void *arg)
{
  (void)arg;
  while (!atomic_load_explicit(&ready, memory_order_acquire))
    ;
  long s = 0;
  for (int k = 0; k < 4; k++)
    s += x + k;
  seen = s;
  ib_set(&consumed);
  return NULL;
}

int main(void)
{
  pthread_t p, c;
  pthread_create(&p, NULL, producer, NULL);
  pthread_create(&c, NULL, consumer, NULL);
  pthread_join(p, NULL);
  pthread_join(c, NULL);
  printf("%ld %ld\n", seen, x);
  return 0;
}
