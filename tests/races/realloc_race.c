// VERDICT: race
// main reallocs (reads and frees the old block) while a worker's earlier write to the old block is unordered.
// CHECK: SUMMARY: Goldilocks: data race
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "invisible_barrier.h"

ib_flag written, grown;

static void *worker(void *arg) { ((char *)arg)[10] = 'x'; ib_set(&written); ib_wait(&grown); return NULL; }

int main(void)
{
  char *buf = malloc(32);
  pthread_t t;
  pthread_create(&t, NULL, worker, buf);
  ib_wait(&written);
  char *bigger = realloc(buf, 1 << 16);   /* large: moves the block */
  ib_set(&grown);
  pthread_join(t, NULL);
  printf("%c\n", bigger[10]);
  free(bigger);
  return 0;
}
