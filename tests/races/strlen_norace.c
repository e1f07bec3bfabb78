// VERDICT: norace
// strlen and strcmp by several threads on shared strings they only read; a write past the terminator is never read.
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "invisible_barrier.h"

char line[64] = "hello, detector";
char other[64] = "hello, world";
ib_barrier all;

static void *measurer(void *arg)
{
  ib_barrier_wait(&all, 3);
  return (void *)(strlen(line) + (size_t)(strcmp(line, other) > 0));
}

static void *tail_writer(void *arg)
{
  ib_barrier_wait(&all, 3);
  line[40] = 'x';                      /* beyond the terminator at 15: strlen never reads it */
  return NULL;
}

int main(void)
{
  pthread_t t[3];
  void *n;
  pthread_create(&t[0], NULL, measurer, NULL);
  pthread_create(&t[1], NULL, measurer, NULL);
  pthread_create(&t[2], NULL, tail_writer, NULL);
  pthread_join(t[0], &n);
  pthread_join(t[1], NULL);
  pthread_join(t[2], NULL);
  printf("%zu\n", (size_t)n);
  return (size_t)n == 15 ? 0 : 1;
}
