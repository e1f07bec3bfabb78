// VERDICT: race
// ALGORITHMS.md 4.H: two readers, only the second one shares a lock with the writer; the write races with the first reader.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'x'
// CHECK: in t3
// CHECK: Previous read
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

int x = 1;
pthread_mutex_t L = PTHREAD_MUTEX_INITIALIZER;
ib_flag t1_read, t2_released, t3_done;

static void *t1(void *arg) { long v = x; ib_set(&t1_read); ib_wait(&t3_done); return (void *)v; }

static void *t2(void *arg)
{
  ib_wait(&t1_read);
  long v = x;
  pthread_mutex_lock(&L);
  pthread_mutex_unlock(&L);
  ib_set(&t2_released);
  return (void *)v;
}

static void *t3(void *arg)
{
  ib_wait(&t2_released);
  pthread_mutex_lock(&L);
  x = 2;
  pthread_mutex_unlock(&L);
  ib_set(&t3_done);
  return NULL;
}

int main(void)
{
  pthread_t t[3];
  void *(*fn[3])(void *) = {t1, t2, t3};
  for (int i = 0; i < 3; i++) pthread_create(&t[i], NULL, fn[i], NULL);
  for (int i = 0; i < 3; i++) pthread_join(t[i], NULL);
  printf("%d\n", x);
  return 0;
}
