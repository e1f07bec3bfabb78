// VERDICT: race
// One thread writes an int with a plain store, then another stores to it atomically: atomic-vs-plain is a race.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'mixed'
// CHECK: in atomic_writer
// CHECK: Atomic write of size 4
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

int mixed;
ib_flag plain_done, atomic_done;

static void *plain_writer(void *arg) { mixed = 2; ib_set(&plain_done); ib_wait(&atomic_done); return NULL; }

static void *atomic_writer(void *arg)
{
  ib_wait(&plain_done);
  __atomic_store_n(&mixed, 1, __ATOMIC_SEQ_CST);
  ib_set(&atomic_done);
  return NULL;
}

int main(void)
{
  pthread_t a, b;
  pthread_create(&a, NULL, plain_writer, NULL);
  pthread_create(&b, NULL, atomic_writer, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("%d\n", mixed);
  return 0;
}
