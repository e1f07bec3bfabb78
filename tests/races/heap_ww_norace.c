// VERDICT: norace
// Two threads write disjoint halves of one heap block concurrently.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "invisible_barrier.h"

ib_barrier both;
char *block;

static void *fill(void *arg)
{
  long half = (long)arg;
  ib_barrier_wait(&both, 2);
  for (int i = 0; i < 50; i++) block[half * 50 + i] = (char)(half + 1);
  return NULL;
}

int main(void)
{
  block = malloc(100);
  pthread_t a, b;
  pthread_create(&a, NULL, fill, (void *)0L);
  pthread_create(&b, NULL, fill, (void *)1L);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  int s = 0;
  for (int i = 0; i < 100; i++) s += block[i];
  printf("%d\n", s);
  free(block);
  return s == 150 ? 0 : 1;
}
