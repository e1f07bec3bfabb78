// VERDICT: norace
// Several threads read shared data under a read lock at the same time; only main writes (before and after).
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

int config[8];
pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
ib_barrier all_readers_in;

static void *reader(void *arg)
{
  long s = 0;
  pthread_rwlock_rdlock(&rw);
  ib_barrier_wait(&all_readers_in, 3);   /* all three hold the read lock at once */
  for (int i = 0; i < 8; i++) s += config[i];
  pthread_rwlock_unlock(&rw);
  return (void *)s;
}

int main(void)
{
  pthread_t t[3];
  long sum = 0;
  for (int i = 0; i < 8; i++) config[i] = i;
  for (int i = 0; i < 3; i++) pthread_create(&t[i], NULL, reader, NULL);
  for (int i = 0; i < 3; i++) { void *r; pthread_join(t[i], &r); sum += (long)r; }
  config[0] = 100;
  printf("sum=%ld\n", sum);
  return sum == 84 ? 0 : 1;
}
