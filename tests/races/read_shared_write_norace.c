// VERDICT: norace
// ALGORITHMS.md 4.H-ok: both readers release the lock after reading, the writer acquires it afterwards.
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

int x = 1;
pthread_mutex_t L = PTHREAD_MUTEX_INITIALIZER;
ib_flag released;

static void *reader(void *arg)
{
  long v = x;
  pthread_mutex_lock(&L);
  pthread_mutex_unlock(&L);
  ib_set(&released);
  return (void *)v;
}

static void *writer(void *arg)
{
  ib_wait_ge(&released, 2);
  pthread_mutex_lock(&L);
  x = 2;
  pthread_mutex_unlock(&L);
  return NULL;
}

int main(void)
{
  pthread_t t[3];
  void *(*fn[3])(void *) = {reader, reader, writer};
  for (int i = 0; i < 3; i++) pthread_create(&t[i], NULL, fn[i], NULL);
  for (int i = 0; i < 3; i++) pthread_join(t[i], NULL);
  printf("%d\n", x);
  return 0;
}
