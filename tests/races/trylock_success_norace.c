// VERDICT: norace
// A successful pthread_mutex_trylock acquires the mutex and orders the reader after the writer's unlock.
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

int data;
pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
ib_flag unlocked;

static void *writer(void *arg)
{
  pthread_mutex_lock(&mu);
  data = 42;
  pthread_mutex_unlock(&mu);
  ib_set(&unlocked);
  return NULL;
}

static void *reader(void *arg)
{
  ib_wait(&unlocked);
  if (pthread_mutex_trylock(&mu) != 0) return (void *)-1L;
  long v = data;
  pthread_mutex_unlock(&mu);
  return (void *)v;
}

int main(void)
{
  pthread_t a, b;
  void *v;
  pthread_create(&a, NULL, writer, NULL);
  pthread_create(&b, NULL, reader, NULL);
  pthread_join(a, NULL);
  pthread_join(b, &v);
  printf("read %ld\n", (long)v);
  return (long)v == 42 ? 0 : 3;
}
