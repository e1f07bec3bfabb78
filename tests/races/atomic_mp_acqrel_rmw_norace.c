// VERDICT: norace
// Hand-off through acq_rel read-modify-writes: the producer publishes with fetch_add(acq_rel), the consumer claims with exchange(acq_rel).
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

int data;
atomic_int token;

static void *producer(void *arg)
{
  data = 42;
  atomic_fetch_add_explicit(&token, 1, memory_order_acq_rel);
  return NULL;
}

static void *consumer(void *arg)
{
  while (atomic_exchange_explicit(&token, 0, memory_order_acq_rel) != 1) { }
  long v = data;
  data = 43;
  return (void *)v;
}

int main(void)
{
  pthread_t a, b;
  void *v;
  pthread_create(&b, NULL, consumer, NULL);
  pthread_create(&a, NULL, producer, NULL);
  pthread_join(a, NULL);
  pthread_join(b, &v);
  printf("%ld\n", (long)v);
  return (long)v == 42 ? 0 : 3;
}
