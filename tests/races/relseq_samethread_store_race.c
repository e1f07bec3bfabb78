// VERDICT: race
// C++20 release sequences (our default): a later relaxed store by the releasing thread itself also ends the sequence.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'data'
// CHECK: in reader
// Under the older C11/C17 wording (option C11LEGACY) this program would be race-free.
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
  atomic_store_explicit(&flag, 2, memory_order_relaxed);
  ib_wait(&read_done);
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
  pthread_t a, b;
  void *v;
  pthread_create(&b, NULL, reader, NULL);
  pthread_create(&a, NULL, publisher, NULL);
  pthread_join(a, NULL);
  pthread_join(b, &v);
  printf("%ld\n", (long)v);
  return (long)v == 42 ? 0 : 3;
}
