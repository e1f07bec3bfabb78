// VERDICT: race
// ALGORITHMS.md 4.F-c: the acquire fence comes before the relaxed load that sees the flag, so it acquires nothing.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'data'
// CHECK: in consumer
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include "invisible_barrier.h"

int data;
atomic_int flag;
ib_flag consumed;

static void *producer(void *arg)
{
  data = 42;
  atomic_thread_fence(memory_order_release);
  atomic_store_explicit(&flag, 1, memory_order_relaxed);
  ib_wait(&consumed);
  return NULL;
}

static void *consumer(void *arg)
{
  while (atomic_load_explicit(&flag, memory_order_relaxed) != 1) { atomic_thread_fence(memory_order_acquire); }
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
  printf("%ld\n", (long)v);
  return (long)v == 42 ? 0 : 3;
}
