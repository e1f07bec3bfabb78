// VERDICT: race
// Deferred release cells (docs/goldilocks.md): t1 unlocks L (its cell
// deferred) and waits; t2 takes L, which appends t1's cell for it, and
// holds L while t1 writes z with no lock; then t2 reads z. t1's write
// comes after t2's lock: t1's entries after the cell another thread
// appended must start past it (pend_flush's failed CAS), else the cell
// would order the write before t2's lock and the race would be missed.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'z'
// ABSENT: global 'a'
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

int a, z;
pthread_mutex_t L = PTHREAD_MUTEX_INITIALIZER;
ib_flag t1_unlocked, t2_locked, t1_wrote;

static void *t1(void *arg)
{
  pthread_mutex_lock(&L);
  a = 1;
  pthread_mutex_unlock(&L);
  ib_set(&t1_unlocked);
  ib_wait(&t2_locked);
  z = 1;
  ib_set(&t1_wrote);
  return NULL;
}

static void *t2(void *arg)
{
  ib_wait(&t1_unlocked);
  pthread_mutex_lock(&L);
  ib_set(&t2_locked);
  ib_wait(&t1_wrote);
  int v = a + z;
  pthread_mutex_unlock(&L);
  return (void *)(long)v;
}

int main(void)
{
  pthread_t p, q;
  void *r;
  pthread_create(&p, NULL, t1, NULL);
  pthread_create(&q, NULL, t2, NULL);
  pthread_join(p, NULL);
  pthread_join(q, &r);
  printf("%ld\n", (long)r);
  return 0;
}
