// VERDICT: norace
// A thread polls a flag it stored itself (loads the runtime checks without
// the location's lock while they read that own store); another thread then
// writes data and stores the flag with release. The poll's load that reads
// the other thread's store is not one of its own: it acquires, and the
// data read after it is ordered.
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

long flag, data;
ib_flag stored;

static void *writer(void *arg)
{
  (void)arg;
  ib_wait(&stored);
  data = 42;
  __atomic_store_n(&flag, 2, __ATOMIC_RELEASE);
  return NULL;
}

int main(void)
{
  pthread_t t;
  pthread_create(&t, NULL, writer, NULL);
  __atomic_store_n(&flag, 1, __ATOMIC_RELAXED);
  ib_set(&stored);
  long polls = 0;
  while (__atomic_load_n(&flag, __ATOMIC_ACQUIRE) != 2)
    polls++;
  long d = data;
  pthread_join(t, NULL);
  printf("%ld %d\n", d, polls >= 0);
  return d == 42 ? 0 : 1;
}
