// VERDICT: norace
// Four threads hammer one counter with relaxed fetch_add and atomic loads/stores of another: concurrent atomics never race.
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include "invisible_barrier.h"

atomic_long counter;
atomic_int last;
ib_barrier all;

static void *worker(void *arg)
{
  ib_barrier_wait(&all, 4);
  for (int i = 0; i < 1000; i++) {
    atomic_fetch_add_explicit(&counter, 1, memory_order_relaxed);
    atomic_store_explicit(&last, (int)(long)arg, memory_order_relaxed);
    (void)atomic_load_explicit(&last, memory_order_relaxed);
  }
  return NULL;
}

int main(void)
{
  pthread_t t[4];
  for (long i = 0; i < 4; i++) pthread_create(&t[i], NULL, worker, (void *)i);
  for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
  printf("%ld\n", (long)atomic_load(&counter));
  return atomic_load(&counter) == 4000 ? 0 : 1;
}
