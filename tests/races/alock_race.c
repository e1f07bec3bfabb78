// VERDICT: race
// ALGORITHMS.md regression G-ALOCK: T1 writes x under L and then again without it; T2's later write under L races with the unlocked one.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'x'
// CHECK: in t2
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

int x;
pthread_mutex_t L = PTHREAD_MUTEX_INITIALIZER;
ib_flag t1_done, t2_done;

static void *t1(void *arg)
{
  pthread_mutex_lock(&L);
  x = 1;
  pthread_mutex_unlock(&L);
  x = 2;
  ib_set(&t1_done);
  ib_wait(&t2_done);
  return NULL;
}

static void *t2(void *arg)
{
  ib_wait(&t1_done);
  pthread_mutex_lock(&L);
  x = 3;
  pthread_mutex_unlock(&L);
  ib_set(&t2_done);
  return NULL;
}

int main(void)
{
  pthread_t a, b;
  pthread_create(&a, NULL, t1, NULL);
  pthread_create(&b, NULL, t2, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("%d\n", x);
  return 0;
}
