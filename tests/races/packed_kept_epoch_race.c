// VERDICT: race
// Packed granules and the lock-free "kept" check: main writes the two 4-byte halves of g from
// two statements (two origins: one granule, two cells), t2 reads half 1 (a third cell), takes
// and releases a lock, then reads half 1 again, with the same (no) lock held. That second read
// is a new epoch: the first read's cell may not count as "kept" for it. t3 then takes the lock
// and writes half 1: ordered after t2's first read, not after its second.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: in t3
// CHECK: Previous read of size 4
// CHECK: packed_kept_epoch_race.c:27 
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include "invisible_barrier.h"

union { uint64_t all; uint32_t half[2]; } g __attribute__((aligned(8)));
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
ib_flag second_read_done;
uint32_t seen[2];

static void *t2(void *arg)
{
  (void)arg;
  seen[0] = g.half[1];
  pthread_mutex_lock(&m);
  pthread_mutex_unlock(&m);
  seen[1] = g.half[1];
  ib_set(&second_read_done);
  return NULL;
}

static void *t3(void *arg)
{
  (void)arg;
  ib_wait(&second_read_done);
  pthread_mutex_lock(&m);
  g.half[1] = 5;
  pthread_mutex_unlock(&m);
  return NULL;
}

int main(void)
{
  g.half[0] = 1;
  __asm__ __volatile__("" : : : "memory");   /* two stores, two origins (no store merging) */
  g.half[1] = 2;
  pthread_t a, b;
  pthread_create(&a, NULL, t2, NULL);
  pthread_create(&b, NULL, t3, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("%u %u %lu\n", seen[0], seen[1], (unsigned long)g.all);
  return 0;
}
