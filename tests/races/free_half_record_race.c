// VERDICT: race
// A free checks every byte against a half record (goldilocks: one thread's two 4-byte halves
// with histories of their own) of another thread: the worker writes the low half, publishes
// (its next epoch starts), writes the high half. main acquires the publication (ordered
// after the low half's write only), waits for the worker without happens-before and frees
// the block: the free races with the high half's write and must be reported with it.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: (free)
// CHECK: Previous write of size 4
// CHECK: #0 write_high
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "invisible_barrier.h"

atomic_int published;
ib_flag written;

static __attribute__((noinline)) void write_high(uint32_t *p) { p[1] = 2; }

static void *worker(void *arg)
{
  uint32_t *p = arg;
  p[0] = 1;
  atomic_store_explicit(&published, 1, memory_order_release);
  write_high(p);          /* races with main's free */
  ib_set(&written);
  return NULL;
}

int main(void)
{
  uint32_t *block = malloc(16);   /* (16-byte aligned: both halves in one granule) */
  pthread_t t;
  pthread_create(&t, NULL, worker, block);
  while (!atomic_load_explicit(&published, memory_order_acquire))
    ;
  ib_wait(&written);
  free(block);             /* the first access of main to the block since malloc */
  puts("freed");
  pthread_join(t, NULL);
  return 0;
}
