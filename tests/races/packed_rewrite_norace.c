// VERDICT: norace
// Two threads write the two halves of one 8-byte word (disjoint bytes: the word's history becomes
// two writers' cells), the first writes its half again in a later epoch and releases a mutex,
// the second acquires it and reads that half: ordered. The rewrite's record must not start after
// the release that orders it.
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

struct { int lo, hi; } __attribute__((aligned(8))) halves;
int seen;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
ib_flag a_wrote, b_wrote, a_rewrote;

static void *first(void *arg)
{
  halves.lo = 1;
  pthread_mutex_lock(&m);
  pthread_mutex_unlock(&m);
  ib_set(&a_wrote);
  ib_wait(&b_wrote);
  pthread_mutex_lock(&m);
  halves.lo = 3;             /* in a later epoch */
  pthread_mutex_unlock(&m);  /* released here */
  ib_set(&a_rewrote);
  return NULL;
}

static void *second(void *arg)
{
  ib_wait(&a_wrote);
  halves.hi = 2;             /* the other half: no race */
  ib_set(&b_wrote);
  ib_wait(&a_rewrote);
  pthread_mutex_lock(&m);    /* acquires the release after the rewrite */
  seen = halves.lo;
  pthread_mutex_unlock(&m);
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
