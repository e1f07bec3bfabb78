// VERDICT: norace
// A plain write of x, then a release store to x by the same thread; another thread's acquire load
// of x reads that store, so its atomic read is ordered after the plain write (checked after its
// own acquire, also when the load's access is checked outside the location's critical section).
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

int x;
ib_flag stored;

static void *writer(void *arg)
{
  x = 5;
  __atomic_store_n(&x, 6, __ATOMIC_RELEASE);
  ib_set(&stored);
  return NULL;
}

static void *reader(void *arg)
{
  ib_wait(&stored);
  long v = __atomic_load_n(&x, __ATOMIC_ACQUIRE);
  return (void *)v;
}

int main(void)
{
  pthread_t a, b;
  void *v;
  pthread_create(&b, NULL, reader, NULL);
  pthread_create(&a, NULL, writer, NULL);
  pthread_join(a, NULL);
  pthread_join(b, &v);
  printf("%ld\n", (long)v);
  return (long)v == 6 ? 0 : 3;
}
