// VERDICT: norace
// A thread stores to an atomic, another thread's release RMW follows, and the first thread's acquire load then reads the RMW: it must acquire it, although the location's last plain store is the reader's own (the runtime skips the read half of a load only while its own store is the latest).
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include "invisible_barrier.h"

int data;
atomic_int flag;
ib_flag stored, added;

static void *storer_then_reader(void *arg)
{
  atomic_store_explicit(&flag, 5, memory_order_relaxed);
  ib_set(&stored);
  ib_wait(&added);
  int seen = atomic_load_explicit(&flag, memory_order_acquire);   /* 6: the RMW's value */
  long v = data;
  return (void *)(v * 10 + seen);
}

static void *publisher(void *arg)
{
  ib_wait(&stored);
  data = 42;
  atomic_fetch_add_explicit(&flag, 1, memory_order_release);
  ib_set(&added);
  return NULL;
}

int main(void)
{
  pthread_t a, b;
  void *v;
  pthread_create(&a, NULL, storer_then_reader, NULL);
  pthread_create(&b, NULL, publisher, NULL);
  pthread_join(b, NULL);
  pthread_join(a, &v);
  printf("%ld\n", (long)v);
  return (long)v == 426 ? 0 : 3;
}
