// VERDICT: race
// A failing sem_trywait (EAGAIN) orders nothing; the consumer reads anyway.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'message'
// CHECK: in consumer
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include "invisible_barrier.h"

int message;
sem_t ready;
ib_flag written, consumed;

static void *producer(void *arg)
{
  message = 42;
  ib_set(&written);
  ib_wait(&consumed);
  sem_post(&ready);                 /* too late */
  return NULL;
}

static void *consumer(void *arg)
{
  ib_wait(&written);
  int rc = sem_trywait(&ready);
  int err = errno;
  long v = message;
  ib_set(&consumed);
  return rc == -1 && err == EAGAIN ? (void *)v : (void *)-1L;
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
