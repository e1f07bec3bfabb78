// VERDICT: norace
// A successful sem_trywait is an acquire of the semaphore posted after the write.
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include "invisible_barrier.h"

int message;
sem_t ready;
ib_flag posted;

static void *producer(void *arg) { message = 42; sem_post(&ready); ib_set(&posted); return NULL; }
static void *consumer(void *arg)
{
  ib_wait(&posted);
  if (sem_trywait(&ready) != 0) return (void *)-1L;
  return (void *)(long)message;
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
