// VERDICT: race
// A failed compare-exchange with relaxed failure order reads the released flag but does not synchronise.
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
  atomic_store_explicit(&flag, 1, memory_order_release);
  ib_wait(&consumed);
  return NULL;
}

static void *consumer(void *arg)
{
  int expected;
  do {
    expected = 5;
    atomic_compare_exchange_strong_explicit(&flag, &expected, 6, memory_order_relaxed, memory_order_relaxed);
  } while (expected != 1);
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
