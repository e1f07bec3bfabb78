// VERDICT: race
// Two threads write the two halves of one 8-byte word (disjoint bytes, no race: the word's
// history becomes two writers' cells), the first writes its half again in a later epoch, then
// the second reads that half: it follows the first write (the mutex orders it) but not the
// second. The second write's record must replace the first one's with the later position.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'halves'
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

struct { int lo, hi; } __attribute__((aligned(8))) halves;
int seen;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
ib_flag a_wrote, b_synced, a_rewrote;

static void *first(void *arg)
{
  halves.lo = 1;
  pthread_mutex_lock(&m);
  pthread_mutex_unlock(&m);  /* releases the first write */
  ib_set(&a_wrote);
  ib_wait(&b_synced);
  halves.lo = 3;             /* after its last release */
  ib_set(&a_rewrote);
  return NULL;
}

static void *second(void *arg)
{
  ib_wait(&a_wrote);
  halves.hi = 2;             /* the other half: no race */
  pthread_mutex_lock(&m);    /* ordered after the first write only */
  pthread_mutex_unlock(&m);
  ib_set(&b_synced);
  ib_wait(&a_rewrote);
  seen = halves.lo;          /* races with the rewrite */
  return NULL;
}

int main(void)
{
  pthread_t a, b;
  pthread_create(&a, NULL, first, NULL);
  pthread_create(&b, NULL, second, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("%d %d %d\n", halves.lo, halves.hi, seen);
  return 0;
}
