// VERDICT: race
// pthread_mutex_timedlock that times out (holder keeps the mutex) orders nothing.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'data'
// CHECK: in reader
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include "invisible_barrier.h"

int data;
pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
ib_flag holding, timed_out;

static void *writer(void *arg)
{
  pthread_mutex_lock(&mu);
  data = 42;
  ib_set(&holding);
  ib_wait(&timed_out);
  pthread_mutex_unlock(&mu);
  return NULL;
}

static void *reader(void *arg)
{
  struct timespec ts;
  ib_wait(&holding);
  clock_gettime(CLOCK_REALTIME, &ts);
  ts.tv_nsec += 20 * 1000 * 1000;
  if (ts.tv_nsec >= 1000000000) { ts.tv_sec++; ts.tv_nsec -= 1000000000; }
  int rc = pthread_mutex_timedlock(&mu, &ts);
  long v = data;
  ib_set(&timed_out);
  return rc == ETIMEDOUT ? (void *)v : (void *)-1L;
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
