// VERDICT: race
// Split inline records: T1 writes x and releases; T2 and then T3 acquire and read x. T2's read
// makes x's granule a split record (T1's W, T2's R); T3's R cannot join it (two readers' R need
// two entries), so the granule goes to the general representation holding both reads. T3 read
// under lock m, and T1 takes m before writing x again, so that write is ordered after T3's read
// but not after T2's: the one race is with T2's read, which must have survived the hand-over.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: in t1
// CHECK: Previous read of size 8
// CHECK: by thread T2:
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include "invisible_barrier.h"

long x;
atomic_int ready;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
ib_flag read2, read3;
long seen[2];

static void *reader2(void *arg)
{
  (void)arg;
  while (!atomic_load_explicit(&ready, memory_order_acquire))
    ;
  seen[0] = x;
  ib_set(&read2);
  return NULL;
}

static void *reader3(void *arg)
{
  (void)arg;
  ib_wait(&read2);        /* after T2's read: T2's read made the split record */
  while (!atomic_load_explicit(&ready, memory_order_acquire))
    ;
  pthread_mutex_lock(&m);
  seen[1] = x;
  pthread_mutex_unlock(&m);
  ib_set(&read3);
  return NULL;
}

static void *t1(void *arg)
{
  (void)arg;
  x = 1;
  atomic_store_explicit(&ready, 1, memory_order_release);
  ib_wait(&read3);
  pthread_mutex_lock(&m); /* ordered after T3's read, not after T2's */
  pthread_mutex_unlock(&m);
  x = 2;                  /* races with T2's read only */
  return NULL;
}

int main(void)
{
  pthread_t a, b, c;
  pthread_create(&a, NULL, t1, NULL);
  pthread_create(&b, NULL, reader2, NULL);
  pthread_create(&c, NULL, reader3, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  pthread_join(c, NULL);
  printf("%ld %ld %ld\n", seen[0], seen[1], x);
  return 0;
}
