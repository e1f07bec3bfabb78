// VERDICT: norace
// Goldilocks CACM container (ALGORITHMS.md 4.B): T1 publishes object x through `a` (La), T2 moves it to `b` (Lb) without touching it, T3 writes x under Lb and finally with no lock.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "invisible_barrier.h"

struct obj { int data; };
struct obj *a, *b;
pthread_mutex_t La = PTHREAD_MUTEX_INITIALIZER, Lb = PTHREAD_MUTEX_INITIALIZER;
ib_flag t1_done, t2_done;

static void *t1(void *arg)
{
  struct obj *x = malloc(sizeof *x);
  x->data = 1;
  pthread_mutex_lock(&La);
  a = x;
  pthread_mutex_unlock(&La);
  ib_set(&t1_done);
  return NULL;
}

static void *t2(void *arg)
{
  ib_wait(&t1_done);
  pthread_mutex_lock(&La);
  struct obj *x = a;
  pthread_mutex_unlock(&La);
  pthread_mutex_lock(&Lb);
  b = x;
  pthread_mutex_unlock(&Lb);
  ib_set(&t2_done);
  return NULL;
}

static void *t3(void *arg)
{
  ib_wait(&t2_done);
  pthread_mutex_lock(&Lb);
  struct obj *x = b;
  x->data = 2;                         /* under Lb */
  struct obj *again = b;
  pthread_mutex_unlock(&Lb);
  again->data = 3;                     /* no lock held: T3 owns x now */
  return again;
}

int main(void)
{
  pthread_t t[3];
  void *(*fn[3])(void *) = {t1, t2, t3};
  void *x;
  for (int i = 0; i < 3; i++) pthread_create(&t[i], NULL, fn[i], NULL);
  for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
  pthread_join(t[2], &x);
  int v = ((struct obj *)x)->data;
  printf("%d\n", v);
  free(x);
  return v == 3 ? 0 : 3;
}
