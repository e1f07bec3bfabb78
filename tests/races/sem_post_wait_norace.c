// VERDICT: norace
// sem_post after writing, sem_wait before reading: the semaphore orders the hand-off.
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>

int message;
sem_t ready;

static void *producer(void *arg) { message = 42; sem_post(&ready); return NULL; }
static void *consumer(void *arg) { sem_wait(&ready); return (void *)(long)message; }

int main(void)
{
  pthread_t a, b;
  void *v;
  sem_init(&ready, 0, 0);
  pthread_create(&b, NULL, consumer, NULL);
  pthread_create(&a, NULL, producer, NULL);
  pthread_join(a, NULL);
  pthread_join(b, &v);
  sem_destroy(&ready);
  printf("%ld\n", (long)v);
  return (long)v == 42 ? 0 : 1;
}
