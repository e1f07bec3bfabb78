// VERDICT: norace
// A failed compare-exchange is only an atomic read: it does not race with another thread's plain read of the same int.
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

int word = 5;
ib_flag read_done, cas_done;

static void *plain_reader(void *arg) { long v = word; ib_set(&read_done); ib_wait(&cas_done); return (void *)v; }

static void *failing_cas(void *arg)
{
  int expected = 99;                    /* word is 5: the CAS fails */
  ib_wait(&read_done);
  int ok = __atomic_compare_exchange_n(&word, &expected, 7, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  ib_set(&cas_done);
  return (void *)(long)(ok ? -1 : expected);
}

int main(void)
{
  pthread_t a, b;
  void *v, *e;
  pthread_create(&a, NULL, plain_reader, NULL);
  pthread_create(&b, NULL, failing_cas, NULL);
  pthread_join(a, &v);
  pthread_join(b, &e);
  printf("%ld %ld\n", (long)v, (long)e);
  return (long)v == 5 && (long)e == 5 ? 0 : 3;
}
