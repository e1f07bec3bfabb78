// VERDICT: norace
// A read under the read lock is ordered before a later write under the write lock (wrlock waits for readers).
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

int value = 5;
pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
ib_flag read_done;

static void *reader(void *arg)
{
  pthread_rwlock_rdlock(&rw);
  long v = value;
  pthread_rwlock_unlock(&rw);
  ib_set(&read_done);
  return (void *)v;
}

static void *writer(void *arg)
{
  ib_wait(&read_done);
  pthread_rwlock_wrlock(&rw);
  value = 6;
  pthread_rwlock_unlock(&rw);
  return NULL;
}

int main(void)
{
  pthread_t a, b;
  void *v;
  pthread_create(&a, NULL, reader, NULL);
  pthread_create(&b, NULL, writer, NULL);
  pthread_join(a, &v);
  pthread_join(b, NULL);
  printf("%ld %d\n", (long)v, value);
  return 0;
}
