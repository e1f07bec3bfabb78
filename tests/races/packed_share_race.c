// VERDICT: race
// Another thread writes the last quarter of an 8-byte word (disjoint bytes, no race: the word's
// history becomes two writers' cells); the first thread, in a later epoch, writes the first two
// quarters from one statement in a loop, so the second quarter's write joins the first one's
// record; then the other thread reads the second quarter: it follows the first thread's first
// write (the mutex orders it) but not the loop's. The joined record must cover those bytes.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'quarters'
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

short quarters[4] __attribute__((aligned(8)));
int seen;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
ib_flag a_wrote, b_synced, a_rewrote;

static __attribute__((noinline)) void put(volatile short *q, short v) { *q = v; }

static void *first(void *arg)
{
  quarters[0] = 1;
  pthread_mutex_lock(&m);
  pthread_mutex_unlock(&m);  /* releases the first write */
  ib_set(&a_wrote);
  ib_wait(&b_synced);
  for (int i = 0; i < 2; i++)
    put(&quarters[i], (short)(5 + i));   /* one origin, one epoch, two quarters */
  ib_set(&a_rewrote);
  return NULL;
}

static void *second(void *arg)
{
  ib_wait(&a_wrote);
  quarters[3] = 2;           /* disjoint bytes: no race */
  pthread_mutex_lock(&m);    /* ordered after the first write only */
  pthread_mutex_unlock(&m);
  ib_set(&b_synced);
  ib_wait(&a_rewrote);
  seen = quarters[1];        /* races with the loop's second write */
  return NULL;
}

int main(void)
{
  pthread_t a, b;
  pthread_create(&a, NULL, first, NULL);
  pthread_create(&b, NULL, second, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("%d %d %d %d\n", quarters[0], quarters[1], quarters[3], seen);
  return 0;
}
