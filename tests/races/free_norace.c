// VERDICT: norace
// Workers use a heap block, main joins them and then frees it.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static void *worker(void *arg) { int *p = arg; p[0] += 1; return NULL; }

int main(void)
{
  int *block = calloc(4, sizeof *block);
  pthread_t t;
  pthread_create(&t, NULL, worker, block);
  pthread_join(t, NULL);
  pthread_create(&t, NULL, worker, block);
  pthread_join(t, NULL);
  printf("%d\n", block[0]);
  free(block);
  return 0;
}
