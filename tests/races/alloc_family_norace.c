// VERDICT: norace
// calloc, strdup, posix_memalign, aligned_alloc and realloc buffers, each split between two workers writing disjoint halves.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "invisible_barrier.h"

#define NBUF 5
char *bufs[NBUF];
size_t sizes[NBUF];
ib_barrier both;

static void *worker(void *arg)
{
  long half = (long)arg;
  ib_barrier_wait(&both, 2);
  for (int b = 0; b < NBUF; b++) {
    size_t h = sizes[b] / 2;
    memset(bufs[b] + half * h, (int)('A' + half), h);
  }
  return NULL;
}

int main(void)
{
  void *p;
  sizes[0] = 64;  bufs[0] = calloc(8, 8);
  sizes[1] = 16;  bufs[1] = strdup("0123456789abcdef");
  sizes[2] = 128; if (posix_memalign(&p, 32, 128) != 0) return 3; bufs[2] = p;
  sizes[3] = 256; bufs[3] = aligned_alloc(64, 256);
  sizes[4] = 96;  bufs[4] = realloc(malloc(8), 96);
  pthread_t a, b;
  pthread_create(&a, NULL, worker, (void *)0L);
  pthread_create(&b, NULL, worker, (void *)1L);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  int ok = 1;
  for (int i = 0; i < NBUF; i++) {
    ok &= bufs[i][0] == 'A' && bufs[i][sizes[i] - 1] == 'B';
    free(bufs[i]);
  }
  printf("ok=%d\n", ok);
  return ok ? 0 : 1;
}
