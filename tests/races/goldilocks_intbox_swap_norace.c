// VERDICT: norace
// Goldilocks IntBox swap (ALGORITHMS.md 4.A): L1 guards `a` and its box, L2 guards `b`; T2 swaps the boxes holding both, so o1 moves from L1's to L2's protection.
// Lockset detectors (Eraser) raise a false alarm at T3's access to o1->x; happens-before orders it via L1 then L2.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "invisible_barrier.h"

struct intbox { int x; };
struct intbox *a, *b;
pthread_mutex_t L1 = PTHREAD_MUTEX_INITIALIZER, L2 = PTHREAD_MUTEX_INITIALIZER;
ib_flag t1_done, t2_done;

static void *t1(void *arg)
{
  pthread_mutex_lock(&L1);
  a->x = a->x + 1;                     /* o1.x under L1 */
  pthread_mutex_unlock(&L1);
  ib_set(&t1_done);
  return NULL;
}

static void *t2(void *arg)
{
  ib_wait(&t1_done);
  pthread_mutex_lock(&L1);
  pthread_mutex_lock(&L2);
  struct intbox *tmp = a;              /* swap: b now points to o1 */
  a = b;
  b = tmp;
  pthread_mutex_unlock(&L1);
  pthread_mutex_unlock(&L2);
  ib_set(&t2_done);
  return NULL;
}

static void *t3(void *arg)
{
  ib_wait(&t2_done);
  pthread_mutex_lock(&L2);
  b->x = b->x + 1;                     /* o1.x under L2 */
  pthread_mutex_unlock(&L2);
  return NULL;
}

int main(void)
{
  struct intbox *o1 = malloc(sizeof *o1), *o2 = malloc(sizeof *o2);
  o1->x = 10;
  o2->x = 20;
  a = o1;
  b = o2;
  pthread_t t[3];
  void *(*fn[3])(void *) = {t1, t2, t3};
  for (int i = 0; i < 3; i++) pthread_create(&t[i], NULL, fn[i], NULL);
  for (int i = 0; i < 3; i++) pthread_join(t[i], NULL);
  printf("%d %d\n", o1->x, o2->x);
  int ok = o1->x == 12 && o2->x == 20;
  free(o1);
  free(o2);
  return ok ? 0 : 3;
}
