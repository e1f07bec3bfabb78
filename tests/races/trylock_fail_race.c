// VERDICT: race
// The only "synchronisation" is a failed trylock (mutex held by the writer): it orders nothing.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'data'
// CHECK: in reader
// CHECK: Previous write
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

int data;
pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
ib_flag holding, tried;

static void *writer(void *arg)
{
  pthread_mutex_lock(&mu);
  data = 42;
  ib_set(&holding);
  ib_wait(&tried);
  pthread_mutex_unlock(&mu);
  return NULL;
}

static void *reader(void *arg)
{
  ib_wait(&holding);
  int rc = pthread_mutex_trylock(&mu);
  long v = data;
  ib_set(&tried);
  return rc == EBUSY ? (void *)v : (void *)-1L;
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
