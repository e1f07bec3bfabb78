// VERDICT: race
// Two threads write the same variable in the same barrier phase: the barrier orders phases, not accesses within one.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'cell'
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

int cell;
pthread_barrier_t bar;
ib_barrier both_left;

static void *worker(void *arg)
{
  pthread_barrier_wait(&bar);
  ib_barrier_wait(&both_left, 2);        /* both have left generation 0 (no happens-before) */
  cell = (int)(long)arg;                 /* both in phase 1 */
  pthread_barrier_wait(&bar);
  return NULL;
}

int main(void)
{
  pthread_t a, b;
  pthread_barrier_init(&bar, NULL, 2);
  pthread_create(&a, NULL, worker, (void *)1L);
  pthread_create(&b, NULL, worker, (void *)2L);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("%d\n", cell);
  return 0;
}
