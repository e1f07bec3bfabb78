// VERDICT: norace
// C11 message passing with seq_cst store and load (seq_cst includes release/acquire).
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include "invisible_barrier.h"

int data;
atomic_int flag;
ib_flag consumed;

static void *producer(void *arg)
{
  data = 42;
  atomic_store_explicit(&flag, 1, memory_order_seq_cst);
  ib_wait(&consumed);
  return NULL;
}

static void *consumer(void *arg)
{
  while (atomic_load_explicit(&flag, memory_order_seq_cst) != 1) { }
  long v = data;
  ib_set(&consumed);
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
