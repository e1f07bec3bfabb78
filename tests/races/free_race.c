// VERDICT: race
// Use during free: main frees a block while a worker's earlier write to it is unordered with the free.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: (free)
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "invisible_barrier.h"

ib_flag touched, freed;

static void *worker(void *arg) { ((int *)arg)[3] = 7; ib_set(&touched); ib_wait(&freed); return NULL; }

int main(void)
{
  int *block = malloc(64);
  pthread_t t;
  pthread_create(&t, NULL, worker, block);
  ib_wait(&touched);
  free(block);
  ib_set(&freed);
  pthread_join(t, NULL);
  puts("done");
  return 0;
}
