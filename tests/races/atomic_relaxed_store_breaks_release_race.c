// VERDICT: race
// A relaxed store by another thread ends what a release store published: the acquire load that reads the relaxed store's value synchronises with nobody (C11 release sequences hold only RMWs after the release), so the payload written before the release is unordered with the read. The detector must keep the relaxed store's effect (the location no longer carries the release) even though that store publishes nothing itself.
// CHECK: global 'data'
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include "invisible_barrier.h"

int data;
atomic_int flag;
ib_flag released, overwritten, consumed;

static void *producer(void *arg)
{
  data = 42;
  atomic_store_explicit(&flag, 1, memory_order_release);
  ib_set(&released);
  ib_wait(&consumed);
  return NULL;
}

static void *overwriter(void *arg)
{
  ib_wait(&released);
  atomic_store_explicit(&flag, 2, memory_order_relaxed);
  ib_set(&overwritten);
  return NULL;
}

static void *consumer(void *arg)
{
  ib_wait(&overwritten);   /* (so this load cannot read 1: that would synchronise) */
  long v = atomic_load_explicit(&flag, memory_order_acquire) == 2 ? data : -1;
  ib_set(&consumed);
  return (void *)v;
}

int main(void)
{
  pthread_t a, b, c;
  void *v;
  pthread_create(&c, NULL, consumer, NULL);
  pthread_create(&b, NULL, overwriter, NULL);
  pthread_create(&a, NULL, producer, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  pthread_join(c, &v);
  printf("%ld\n", (long)v);
  return (long)v == 42 ? 0 : 3;
}
