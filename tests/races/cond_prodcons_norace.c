// VERDICT: norace
// Bounded buffer: producer and consumer exchange heap items through a mutex and two condition variables.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define CAP 4
#define N 200
struct item { int seq; int payload[3]; };
struct item *slots[CAP];
int head, tail, count;
pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t not_full = PTHREAD_COND_INITIALIZER, not_empty = PTHREAD_COND_INITIALIZER;

static void *producer(void *arg)
{
  for (int i = 0; i < N; i++) {
    struct item *it = malloc(sizeof *it);
    it->seq = i;                       /* plain writes, published by the mutex */
    it->payload[0] = it->payload[1] = it->payload[2] = i * 3;
    pthread_mutex_lock(&mu);
    while (count == CAP) pthread_cond_wait(&not_full, &mu);
    slots[tail] = it; tail = (tail + 1) % CAP; count++;
    pthread_cond_signal(&not_empty);
    pthread_mutex_unlock(&mu);
  }
  return NULL;
}

static void *consumer(void *arg)
{
  long bad = 0;
  for (int i = 0; i < N; i++) {
    pthread_mutex_lock(&mu);
    while (count == 0) pthread_cond_wait(&not_empty, &mu);
    struct item *it = slots[head]; head = (head + 1) % CAP; count--;
    pthread_cond_signal(&not_full);
    pthread_mutex_unlock(&mu);
    bad += it->seq != i || it->payload[2] != i * 3;   /* outside the lock */
    it->seq = -1;
    free(it);
  }
  return (void *)bad;
}

int main(void)
{
  pthread_t p, c;
  void *bad;
  pthread_create(&p, NULL, producer, NULL);
  pthread_create(&c, NULL, consumer, NULL);
  pthread_join(p, NULL);
  pthread_join(c, &bad);
  printf("bad=%ld\n", (long)bad);
  return bad == NULL ? 0 : 1;
}
