// VERDICT: race
// A relaxed store to x, then another thread's acquire load of x that reads it and a plain write
// of x: a relaxed store releases nothing, so the plain write races with it.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'x'
// CHECK: Previous atomic write of size 4
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

int x;
ib_flag stored, written;

static void *writer(void *arg)
{
  __atomic_store_n(&x, 1, __ATOMIC_RELAXED);
  ib_set(&stored);
  ib_wait(&written);
  return NULL;
}

static void *reader(void *arg)
{
  ib_wait(&stored);
  long v = __atomic_load_n(&x, __ATOMIC_ACQUIRE);
  x = 2;
  ib_set(&written);
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
  return 0;
}
