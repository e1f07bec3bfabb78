// VERDICT: norace
// A union's 8-byte member is never used; two threads write the two non-overlapping int halves of its struct member.
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

union { long whole; struct { int lo, hi; } half; } u;
ib_barrier both;

static void *w_lo(void *arg) { ib_barrier_wait(&both, 2); for (int k = 0; k < 50; k++) u.half.lo += 1; return NULL; }
static void *w_hi(void *arg) { ib_barrier_wait(&both, 2); for (int k = 0; k < 50; k++) u.half.hi += 2; return NULL; }

int main(void)
{
  pthread_t a, b;
  pthread_create(&a, NULL, w_lo, NULL);
  pthread_create(&b, NULL, w_hi, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("%d %d %lx\n", u.half.lo, u.half.hi, u.whole);
  return u.half.lo == 50 && u.half.hi == 100 ? 0 : 1;
}
