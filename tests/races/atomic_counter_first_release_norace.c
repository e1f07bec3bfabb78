// VERDICT: norace
// A counter is bumped with relaxed RMWs (which publish nothing) while the consumer already polls it with acquire loads; the producer's last bump is a release RMW after the payload, and the acquire load that reads its value synchronises with it. Until that release no set can hold the counter's token, so a detector may skip the earlier loads' work, but not the loads after the first release.
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include "invisible_barrier.h"

int data;
atomic_long counter;
ib_flag polling, consumed;

static void *producer(void *arg)
{
  ib_wait(&polling);
  for (int i = 0; i < 10; i++)
    atomic_fetch_add_explicit(&counter, 1, memory_order_relaxed);
  data = 42;
  atomic_fetch_add_explicit(&counter, 90, memory_order_release);
  ib_wait(&consumed);
  return NULL;
}

static void *consumer(void *arg)
{
  long seen = atomic_load_explicit(&counter, memory_order_acquire);
  ib_set(&polling);
  while (seen != 100)
    seen = atomic_load_explicit(&counter, memory_order_acquire);
  long v = data;
  ib_set(&consumed);
  return (void *)v;
}

int main(void)
{
  pthread_t a, b;
  void *v;
  pthread_create(&b, NULL, consumer, NULL);
  pthread_create(&a, NULL, producer, NULL);
  pthread_join(a, NULL);
  pthread_join(b, &v);
  printf("%ld %ld\n", (long)v, atomic_load(&counter));
  return (long)v == 42 ? 0 : 3;
}
