// VERDICT: norace
// A release fence followed by a relaxed RMW publishes like a release store: the acquire load that reads the RMW's value synchronises with the fence (C11 7.17.4p2), so the payload written before the fence is ordered. The producer bumps an unrelated relaxed counter first, before its fence (that RMW publishes nothing).
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include "invisible_barrier.h"

int data;
atomic_int flag;
atomic_long unrelated;
ib_flag consumed;

static void *producer(void *arg)
{
  atomic_fetch_add_explicit(&unrelated, 1, memory_order_relaxed);
  data = 42;
  atomic_thread_fence(memory_order_release);
  atomic_fetch_add_explicit(&flag, 1, memory_order_relaxed);
  ib_wait(&consumed);
  return NULL;
}

static void *consumer(void *arg)
{
  while (atomic_load_explicit(&flag, memory_order_acquire) != 1) { }
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
  printf("%ld %ld\n", (long)v, atomic_load(&unrelated));
  return (long)v == 42 ? 0 : 3;
}
