// VERDICT: race
// T1 stores to x atomically, releases m, then stores to x atomically again; T2 acquires m after that and reads x plainly. The read is ordered after T1's first store (through m) but not after its second: a race. T1's second store replaces its own record of the first in place (goldilocks' records_moved path); a record that kept the first store's position would hide the race.
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include "invisible_barrier.h"

atomic_long x;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
ib_flag stored_twice;

static void *writer(void *arg)
{
  pthread_mutex_lock(&m);
  atomic_store_explicit(&x, 1, memory_order_relaxed);
  pthread_mutex_unlock(&m);
  atomic_store_explicit(&x, 2, memory_order_relaxed);
  ib_set(&stored_twice);
  return NULL;
}

static void *reader(void *arg)
{
  ib_wait(&stored_twice);
  pthread_mutex_lock(&m);
  long v = *(long *)&x;   /* plain read of the atomic */
  pthread_mutex_unlock(&m);
  return (void *)v;
}

int main(void)
{
  pthread_t a, b;
  void *v;
  pthread_create(&a, NULL, writer, NULL);
  pthread_create(&b, NULL, reader, NULL);
  pthread_join(a, NULL);
  pthread_join(b, &v);
  printf("%ld\n", (long)v);
  return (long)v == 2 ? 0 : 3;
}
