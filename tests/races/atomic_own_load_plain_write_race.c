// VERDICT: race
// A thread reads back its own release store with a relaxed atomic load (the
// runtime checks such a load without the location's lock); another thread
// acquires that store, so the store is ordered before it, but the load after
// it is not, and the other thread's plain write of the same long races with
// the load.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'idx'
// CHECK: in overwriter
// CHECK: Previous atomic read of size 8
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

long idx;
ib_flag loaded;

static void *owner(void *arg)
{
  (void)arg;
  __atomic_store_n(&idx, 5, __ATOMIC_RELEASE);
  long v = __atomic_load_n(&idx, __ATOMIC_RELAXED);   /* its own store: read without the lock */
  ib_set(&loaded);
  return (void *)v;
}

static void *overwriter(void *arg)
{
  (void)arg;
  ib_wait(&loaded);
  while (__atomic_load_n(&idx, __ATOMIC_ACQUIRE) != 5) { }   /* orders the store, not the load */
  idx = 7;
  return NULL;
}

int main(void)
{
  pthread_t a, b;
  void *v;
  pthread_create(&a, NULL, owner, NULL);
  pthread_create(&b, NULL, overwriter, NULL);
  pthread_join(a, &v);
  pthread_join(b, NULL);
  printf("%ld %ld\n", (long)v, idx);
  return 0;
}
