// VERDICT: race
// sem_timedwait that times out orders nothing.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'message'
// CHECK: in consumer
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <time.h>
#include "invisible_barrier.h"

int message;
sem_t ready;
ib_flag written, consumed;

static void *producer(void *arg)
{
  message = 42;
  ib_set(&written);
  ib_wait(&consumed);
  return NULL;
}

static void *consumer(void *arg)
{
  struct timespec ts;
  ib_wait(&written);
  clock_gettime(CLOCK_REALTIME, &ts);
  ts.tv_nsec += 20 * 1000 * 1000;
  if (ts.tv_nsec >= 1000000000) { ts.tv_sec++; ts.tv_nsec -= 1000000000; }
  int rc = sem_timedwait(&ready, &ts);
  int err = errno;
  long v = message;
  ib_set(&consumed);
  return rc == -1 && err == ETIMEDOUT ? (void *)v : (void *)-1L;
}

int main(void)
{
  pthread_t a, b;
  void *v;
  sem_init(&ready, 0, 0);
  pthread_create(&a, NULL, producer, NULL);
  pthread_create(&b, NULL, consumer, NULL);
  pthread_join(a, NULL);
  pthread_join(b, &v);
  printf("%ld\n", (long)v);
  return (long)v == 42 ? 0 : 3;
}
