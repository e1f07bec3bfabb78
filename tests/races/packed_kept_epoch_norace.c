// VERDICT: norace
// Counterpart of packed_kept_epoch_race: t2 takes and releases the lock once more after its
// second read, so t3's locked write is ordered after both reads (the second read, in a new
// epoch, moves t2's cell to that epoch; the check must find it ordered).
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
  pthread_mutex_lock(&m);
  pthread_mutex_unlock(&m);
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
