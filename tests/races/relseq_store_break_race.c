// VERDICT: race
// ALGORITHMS.md 4.G-break: a relaxed plain store by another thread ends the release sequence; the acquirer reading it synchronises with nobody.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'data'
// CHECK: in reader
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include "invisible_barrier.h"

int data;
atomic_int flag;
ib_flag read_done;

static void *publisher(void *arg)
{
  data = 42;
  atomic_store_explicit(&flag, 1, memory_order_release);
  ib_wait(&read_done);
  return NULL;
}

static void *overwriter(void *arg)
{
  while (atomic_load_explicit(&flag, memory_order_relaxed) != 1) { }
  atomic_store_explicit(&flag, 2, memory_order_relaxed);             /* not an RMW */
  return NULL;
}

static void *reader(void *arg)
{
  /* Spin relaxed: an acquire load that happened to read 1 would synchronise
   * with the release store and hide the race in that schedule. */
  while (atomic_load_explicit(&flag, memory_order_relaxed) != 2) { }
  if (atomic_load_explicit(&flag, memory_order_acquire) != 2) return (void *)-1L;   /* reads 2 */
  long v = data;
  ib_set(&read_done);
  return (void *)v;
}

int main(void)
{
  pthread_t t[3];
  void *v;
  pthread_create(&t[2], NULL, reader, NULL);
  pthread_create(&t[1], NULL, overwriter, NULL);
  pthread_create(&t[0], NULL, publisher, NULL);
  pthread_join(t[0], NULL);
  pthread_join(t[1], NULL);
  pthread_join(t[2], &v);
  printf("%ld\n", (long)v);
  return (long)v == 42 ? 0 : 3;
}
