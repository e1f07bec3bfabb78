// VERDICT: race
// A worker writes one byte in the middle of an 8 MiB block; main frees the block with nothing ordering the write before the free (an invisible flag forces only the order in time). The free of a big block visits only the granules with state: this one must still be checked.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: (free)
// CHECK: #0 worker
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "invisible_barrier.h"

#define LEN ((size_t)8 << 20)
static char *block;
static ib_flag written;

static void *worker(void *arg)
{
  (void)arg;
  block[5 * (LEN / 8) + 3] = 1;
  ib_set(&written);
  return NULL;
}

int main(void)
{
  block = malloc(LEN);
  if (!block)
    return 3;
  block[0] = 0;
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  ib_wait(&written);
  free(block);
  pthread_join(t, NULL);
  puts("done");
  return 0;
}
