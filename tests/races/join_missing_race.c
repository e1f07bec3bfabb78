// VERDICT: race
// Main reads the child's result before joining it.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'result'
// CHECK: in main
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

int result;
ib_flag written, read_done;

static void *child(void *arg) { result = 42; ib_set(&written); ib_wait(&read_done); return NULL; }

int main(void)
{
  pthread_t t;
  pthread_create(&t, NULL, child, NULL);
  ib_wait(&written);
  int v = result;                       /* before the join */
  ib_set(&read_done);
  pthread_join(t, NULL);
  printf("%d\n", v);
  return 0;
}
