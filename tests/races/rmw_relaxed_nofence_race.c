// VERDICT: race
// A relaxed RMW with no release fence before it publishes nothing: the acquire load that reads its value does not order the payload written before it (compare fence_rel_rmw_norace). The producer did issue a release fence, but only after the RMW, so it does not count.
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
  atomic_fetch_add_explicit(&flag, 1, memory_order_relaxed);
  atomic_thread_fence(memory_order_release);
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
  printf("%ld\n", (long)v);
  return (long)v == 42 ? 0 : 3;
}
