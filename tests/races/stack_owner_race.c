// VERDICT: race
// A worker writes main's stack variable while main itself reads it before joining.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: Location is stack of
// CHECK: in main
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

ib_flag written, read_done;

static void *worker(void *arg) { *(volatile int *)arg = 5; ib_set(&written); ib_wait(&read_done); return NULL; }

int main(void)
{
  volatile int local = 0;
  pthread_t t;
  pthread_create(&t, NULL, worker, (void *)&local);
  ib_wait(&written);
  int v = local;
  ib_set(&read_done);
  pthread_join(t, NULL);
  printf("%d\n", v);
  return 0;
}
