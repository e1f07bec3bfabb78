// VERDICT: norace
// Counting semaphores as a ring buffer: two semaphores (slots/items) order a producer and a consumer.
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>

#define CAP 3
#define N 100
int ring[CAP];
sem_t free_slots, items;

static void *producer(void *arg)
{
  for (int i = 0; i < N; i++) { sem_wait(&free_slots); ring[i % CAP] = i; sem_post(&items); }
  return NULL;
}

static void *consumer(void *arg)
{
  long s = 0;
  for (int i = 0; i < N; i++) { sem_wait(&items); s += ring[i % CAP]; sem_post(&free_slots); }
  return (void *)s;
}

int main(void)
{
  pthread_t a, b;
  void *s;
  sem_init(&free_slots, 0, CAP);
  sem_init(&items, 0, 0);
  pthread_create(&a, NULL, producer, NULL);
  pthread_create(&b, NULL, consumer, NULL);
  pthread_join(a, NULL);
  pthread_join(b, &s);
  printf("%ld\n", (long)s);
  return (long)s == N * (N - 1) / 2 ? 0 : 1;
}
