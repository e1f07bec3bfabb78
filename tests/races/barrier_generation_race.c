// VERDICT: race
// ALGORITHMS.md T7: the fast thread writes after generation 0 and re-arrives at generation 1 while the slow one still leaves generation 0; the slow one's read races.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'cell'
// A barrier orders each generation's arrivals before that generation's departures
// only.  T_fast is the last to arrive at generation 0 (so it leaves at once),
// writes, and arrives at generation 1; T_slow was blocked in generation 0 and is
// likely still waking up then.  A detector keeping one clock per barrier (not per
// generation) would let T_slow's departure from generation 0 acquire T_fast's
// generation-1 arrival and miss the race.  The race exists in every schedule.
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

int cell;
pthread_barrier_t bar;
ib_flag slow_arriving;

static void *slow(void *arg)
{
  ib_set(&slow_arriving);
  pthread_barrier_wait(&bar);           /* generation 0: blocks until fast arrives */
  long v = cell;                         /* phase 1 read */
  pthread_barrier_wait(&bar);           /* generation 1 */
  return (void *)v;
}

static void *fast(void *arg)
{
  ib_wait(&slow_arriving);
  ib_spin(200000);                      /* let slow block in the barrier (only makes the T7 schedule likely) */
  pthread_barrier_wait(&bar);           /* generation 0: last arrival */
  cell = 7;                              /* phase 1 write */
  pthread_barrier_wait(&bar);           /* generation 1 */
  return NULL;
}

int main(void)
{
  pthread_t a, b;
  void *v;
  pthread_barrier_init(&bar, NULL, 2);
  pthread_create(&a, NULL, slow, NULL);
  pthread_create(&b, NULL, fast, NULL);
  pthread_join(a, &v);
  pthread_join(b, NULL);
  pthread_barrier_destroy(&bar);
  printf("%ld\n", (long)v);
  return 0;
}
