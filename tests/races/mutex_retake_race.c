// VERDICT: race
// Deferred release cells (docs/goldilocks.md): t1 takes L four times in a
// row, then writes y after its last unlock, with no lock. t2 takes L only
// after that write and reads y: the write follows t1's release, so nothing
// orders it before t2's lock. t1's deferred cell must be appended before
// its write's entry, not after. x, always under L, is race-free.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'y'
// ABSENT: global 'x'
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

int x, y;
pthread_mutex_t L = PTHREAD_MUTEX_INITIALIZER;
ib_flag t1_done;

static void *t1(void *arg)
{
  for (int i = 0; i < 4; i++) {
    pthread_mutex_lock(&L);
    x += i;
    pthread_mutex_unlock(&L);
  }
  y = 1;
  ib_set(&t1_done);
  return NULL;
}

static void *t2(void *arg)
{
  ib_wait(&t1_done);
  pthread_mutex_lock(&L);
  int v = x + y;
  pthread_mutex_unlock(&L);
  return (void *)(long)v;
}

int main(void)
{
  pthread_t a, b;
  void *r;
  pthread_create(&a, NULL, t1, NULL);
  pthread_create(&b, NULL, t2, NULL);
  pthread_join(a, NULL);
  pthread_join(b, &r);
  printf("%ld\n", (long)r);
  return 0;
}
