// VERDICT: norace
// A release store to x, then another thread's acquire load of x that reads it and a plain write of
// x: the write is ordered after the store (its record must stand before its own release, also
// when the store's access is checked outside the location's critical section).
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

int x;
ib_flag stored;

static void *writer(void *arg)
{
  __atomic_store_n(&x, 1, __ATOMIC_RELEASE);
  ib_set(&stored);
  return NULL;
}

static void *reader(void *arg)
{
  ib_wait(&stored);
  long v = __atomic_load_n(&x, __ATOMIC_ACQUIRE);
  x = 2;
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
  printf("%ld %d\n", (long)v, x);
  return (long)v == 1 && x == 2 ? 0 : 3;
}
