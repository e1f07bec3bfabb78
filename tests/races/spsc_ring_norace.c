// VERDICT: norace
// Single-producer single-consumer ring buffer with release stores of the indices and acquire loads of the other side's index.
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include "invisible_barrier.h"

#define CAP 8
#define N 500
struct msg { long seq; long sq; };
struct msg ring[CAP];
atomic_ulong head, tail;                 /* head: next to read (consumer), tail: next to write (producer) */

static void *producer(void *arg)
{
  for (long i = 0; i < N; i++) {
    unsigned long t = atomic_load_explicit(&tail, memory_order_relaxed);
    while (t - atomic_load_explicit(&head, memory_order_acquire) == CAP) ib_yield();
    ring[t % CAP].seq = i;
    ring[t % CAP].sq = i * i;
    atomic_store_explicit(&tail, t + 1, memory_order_release);
  }
  return NULL;
}

static void *consumer(void *arg)
{
  long bad = 0;
  for (long i = 0; i < N; i++) {
    unsigned long h = atomic_load_explicit(&head, memory_order_relaxed);
    while (atomic_load_explicit(&tail, memory_order_acquire) == h) ib_yield();
    bad += ring[h % CAP].seq != i || ring[h % CAP].sq != i * i;
    atomic_store_explicit(&head, h + 1, memory_order_release);
  }
  return (void *)bad;
}

int main(void)
{
  pthread_t p, c;
  void *bad;
  pthread_create(&c, NULL, consumer, NULL);
  pthread_create(&p, NULL, producer, NULL);
  pthread_join(p, NULL);
  pthread_join(c, &bad);
  printf("bad=%ld\n", (long)bad);
  return 0;
}
