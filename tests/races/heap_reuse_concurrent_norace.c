// VERDICT: norace
// Without any ordering, a block freed by one thread and reallocated by another is a new object: no race with the old accesses.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "invisible_barrier.h"

ib_flag freed;

static void *first(void *arg)
{
  long *p = malloc(40);
  for (int i = 0; i < 5; i++) p[i] = i;
  long s = p[4];
  free(p);
  ib_set(&freed);
  return (void *)s;
}

static void *second(void *arg)
{
  ib_wait(&freed);
  long *q = malloc(40);                 /* may or may not reuse first's block */
  for (int i = 0; i < 5; i++) q[i] = -i;
  long s = q[4];
  free(q);
  return (void *)s;
}

int main(void)
{
  pthread_t a, b;
  void *s1, *s2;
  pthread_create(&a, NULL, first, NULL);
  pthread_create(&b, NULL, second, NULL);
  pthread_join(a, &s1);
  pthread_join(b, &s2);
  printf("%ld %ld\n", (long)s1, (long)s2);
  return 0;
}
