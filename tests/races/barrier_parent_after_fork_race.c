// VERDICT: race
// Dead marks (docs/goldilocks.md): the entries a thread made before its
// FORK of a barrier's participant are dead once the barrier is passed, but
// not those it made after. main forks w1 and w2, then writes the high half
// of pair and parks joining w1. After their barrier (every live thread a
// participant or parked joining one: a mark), w1 writes the low half, a
// record that drops main's entry on the high half were it dead; w2 then
// reads the high half: it races with main's write, which nothing orders
// before w2. (The workers wait a little before the barrier so that main is
// parked by then and the mark set, which is what the test is about; the
// race is there whatever the timing.)
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'pair'
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include "invisible_barrier.h"

int pair[2] __attribute__((aligned(8)));
pthread_barrier_t bar;
ib_flag main_wrote, low_written;
ib_barrier both_left;

static void pause_a_little(void)
{
  struct timespec ts = { 0, 20 * 1000 * 1000 };
  nanosleep(&ts, NULL);
}

static void *w1(void *arg)
{
  ib_wait(&main_wrote);
  pause_a_little();
  pthread_barrier_wait(&bar);
  ib_barrier_wait(&both_left, 2);        /* both have left the barrier (no happens-before) */
  pair[0] = 1;
  ib_set(&low_written);
  return arg;
}

static void *w2(void *arg)
{
  ib_wait(&main_wrote);
  pause_a_little();
  pthread_barrier_wait(&bar);
  ib_barrier_wait(&both_left, 2);
  ib_wait(&low_written);                 /* after w1's write (no happens-before) */
  return (void *)(long)pair[1];
}

int main(void)
{
  pthread_t a, b;
  void *seen;
  pthread_barrier_init(&bar, NULL, 2);
  pthread_create(&a, NULL, w1, NULL);
  pthread_create(&b, NULL, w2, NULL);
  pair[1] = 3;                           /* after both forks */
  ib_set(&main_wrote);
  pthread_join(b, &seen);
  pthread_join(a, NULL);
  printf("%ld %d\n", (long)seen, pair[0]);
  return 0;
}
