// VERDICT: norace
// pthread_mutex_timedlock that succeeds (after waiting for the holder) is an acquire.
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include "invisible_barrier.h"

int data;
pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
ib_flag holding;

static void *writer(void *arg)
{
  pthread_mutex_lock(&mu);
  ib_set(&holding);
  ib_spin(20000);
  data = 42;
  pthread_mutex_unlock(&mu);
  return NULL;
}

static void *reader(void *arg)
{
  struct timespec ts;
  ib_wait(&holding);
  clock_gettime(CLOCK_REALTIME, &ts);
  ts.tv_sec += 30;
  if (pthread_mutex_timedlock(&mu, &ts) != 0) return (void *)-1L;
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
