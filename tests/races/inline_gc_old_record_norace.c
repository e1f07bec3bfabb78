// VERDICT: norace
// An inline record outlives many update-list collections: T1 writes x once (a one-owner
// record whose pos is soon in a collected chunk), then both threads churn a private lock each
// (hundreds of thousands of cells, so the GC runs many times and must expand or re-register
// the record). T1 releases L after its write and T2 acquires L before its write: ordered through the GC.
// (no CHECK: race-free)
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

long x, churn[2];
pthread_mutex_t L = PTHREAD_MUTEX_INITIALIZER, own[2] = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER };
ib_flag wrote, done;

static void spin(int k)
{
  for (int i = 0; i < 600000; i++) {
    pthread_mutex_lock(&own[k]);
    churn[k]++;
    pthread_mutex_unlock(&own[k]);
  }
}

static void *t1(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&L);
  x = 1;
  pthread_mutex_unlock(&L);
  ib_set(&wrote);
  spin(0);
  ib_wait(&done);
  return NULL;
}

static void *t2(void *arg)
{
  (void)arg;
  ib_wait(&wrote);
  spin(1);
  pthread_mutex_lock(&L);
  x += 10;
  pthread_mutex_unlock(&L);
  ib_set(&done);
  return NULL;
}

int main(void)
{
  pthread_t a, b;
  pthread_create(&a, NULL, t1, NULL);
  pthread_create(&b, NULL, t2, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("%ld %ld %ld\n", x, churn[0], churn[1]);
  return 0;
}
