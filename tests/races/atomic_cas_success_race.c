// VERDICT: race
// A successful compare-exchange is an atomic write: it races with another thread's earlier plain read.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'word'
// CHECK: in succeeding_cas
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

int word = 5;
ib_flag read_done, cas_done;

static void *plain_reader(void *arg) { long v = word; ib_set(&read_done); ib_wait(&cas_done); return (void *)v; }

static void *succeeding_cas(void *arg)
{
  int expected = 5;
  ib_wait(&read_done);
  int ok = __atomic_compare_exchange_n(&word, &expected, 7, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  ib_set(&cas_done);
  return (void *)(long)ok;
}

int main(void)
{
  pthread_t a, b;
  void *v, *ok;
  pthread_create(&a, NULL, plain_reader, NULL);
  pthread_create(&b, NULL, succeeding_cas, NULL);
  pthread_join(a, &v);
  pthread_join(b, &ok);
  printf("%ld %ld\n", (long)v, (long)ok);
  return ok ? 0 : 3;
}
