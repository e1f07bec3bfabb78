// VERDICT: norace
// Writes made before arriving at generation 1 are read after departing generation 1, while the fast thread races ahead into generation 2.
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

int cell, other;
pthread_barrier_t bar;
ib_flag slow_arriving;

static void *slow(void *arg)
{
  ib_set(&slow_arriving);
  pthread_barrier_wait(&bar);           /* gen 0 */
  other = 1;                             /* phase 1: slow owns 'other' */
  pthread_barrier_wait(&bar);           /* gen 1 */
  long v = cell;                         /* phase 2: fast wrote it in phase 1 */
  pthread_barrier_wait(&bar);           /* gen 2 */
  return (void *)v;
}

static void *fast(void *arg)
{
  ib_wait(&slow_arriving);
  pthread_barrier_wait(&bar);           /* gen 0 */
  cell = 7;                              /* phase 1 */
  pthread_barrier_wait(&bar);           /* gen 1 */
  long v = other;                        /* phase 2 */
  pthread_barrier_wait(&bar);           /* gen 2 */
  cell = 8;                              /* phase 3: after slow's phase-2 read */
  return (void *)v;
}

int main(void)
{
  pthread_t a, b;
  void *v1, *v2;
  pthread_barrier_init(&bar, NULL, 2);
  pthread_create(&a, NULL, slow, NULL);
  pthread_create(&b, NULL, fast, NULL);
  pthread_join(a, &v1);
  pthread_join(b, &v2);
  pthread_barrier_destroy(&bar);
  printf("%ld %ld\n", (long)v1, (long)v2);
  return (long)v1 == 7 && (long)v2 == 1 ? 0 : 1;
}
