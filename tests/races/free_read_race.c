// VERDICT: race
// A worker frees a block that main read earlier without synchronisation (free counts as a write of the whole block).
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: (free)
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "invisible_barrier.h"

long *block;
ib_flag read_done, freed;

static void *worker(void *arg) { ib_wait(&read_done); free(block); ib_set(&freed); return NULL; }

int main(void)
{
  pthread_t t;
  block = malloc(10 * sizeof *block);
  block[9] = 5;
  pthread_create(&t, NULL, worker, NULL);
  long v = block[9];
  ib_set(&read_done);
  ib_wait(&freed);
  pthread_join(t, NULL);
  printf("%ld\n", v);
  return 0;
}
