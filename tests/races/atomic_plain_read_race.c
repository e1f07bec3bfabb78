// VERDICT: race
// An atomic read-modify-write races with another thread's earlier plain read of the same long.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'hits'
// CHECK: in adder
// CHECK: Atomic write of size 8
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

long hits;
ib_flag read_done, added;

static void *plain_reader(void *arg) { long v = hits; ib_set(&read_done); ib_wait(&added); return (void *)v; }

static void *adder(void *arg)
{
  ib_wait(&read_done);
  __atomic_fetch_add(&hits, 1, __ATOMIC_SEQ_CST);
  ib_set(&added);
  return NULL;
}

int main(void)
{
  pthread_t a, b;
  void *v;
  pthread_create(&a, NULL, plain_reader, NULL);
  pthread_create(&b, NULL, adder, NULL);
  pthread_join(a, NULL);
  pthread_join(b, &v);
  printf("%ld\n", (long)hits);
  return 0;
}
