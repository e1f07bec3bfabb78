// VERDICT: race
// Dead marks (docs/goldilocks.md): a barrier orders its participants'
// earlier accesses before every later access only when every live thread
// takes part. w2 writes both halves of pair before the barrier of w1 and w2;
// after it, w1 writes the low half, a record that drops w2's entry on the
// high half were that entry dead. The outsider, live all along and never
// synchronised with w2, then reads the high half: it races with w2's write.
// (w1 writes once both have left the barrier: the mark, were it set, would
// be set by then.)
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'pair'
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

int pair[2] __attribute__((aligned(8)));
pthread_barrier_t bar;
ib_flag pair_written, low_written;
ib_barrier both_left;

static void *w1(void *arg)
{
  ib_wait(&pair_written);                /* w2's entry then has a pos before both arrivals */
  pthread_barrier_wait(&bar);
  ib_barrier_wait(&both_left, 2);        /* both have left the barrier (no happens-before) */
  pair[0] = 1;
  ib_set(&low_written);
  return arg;
}

static void *w2(void *arg)
{
  pair[0] = 2;
  pair[1] = 2;
  ib_set(&pair_written);
  pthread_barrier_wait(&bar);
  ib_barrier_wait(&both_left, 2);
  return arg;
}

static void *outsider(void *arg)
{
  ib_wait(&low_written);                 /* after w1's write (no happens-before) */
  return (void *)(long)pair[1];
}

int main(void)
{
  pthread_t o, a, b;
  void *seen;
  pthread_barrier_init(&bar, NULL, 2);
  pthread_create(&o, NULL, outsider, NULL);
  pthread_create(&a, NULL, w1, NULL);
  pthread_create(&b, NULL, w2, NULL);
  pthread_join(o, &seen);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("%ld %d\n", (long)seen, pair[0]);
  return 0;
}
