// VERDICT: norace
// Several threads read the same global concurrently; reads never race with reads.
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

int table[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
ib_barrier all_alive;

static void *reader(void *arg)
{
  ib_barrier_wait(&all_alive, 3);
  long s = 0;
  for (int i = 0; i < 16; i++) s += table[i];
  return (void *)s;
}

int main(void)
{
  pthread_t t[3];
  long sum = 0;
  for (int i = 0; i < 3; i++) pthread_create(&t[i], NULL, reader, NULL);
  for (int i = 0; i < 3; i++) { void *r; pthread_join(t[i], &r); sum += (long)r; }
  printf("sum=%ld\n", sum);
  return sum == 3 * 136 ? 0 : 1;
}
