// VERDICT: race
// Inline records (docs/goldilocks.md): T1 keeps writing its own array through many epochs (each
// unlock of a private lock ends one), so every granule stays a one-owner record updated on the
// lock-free fast path, with 16-byte accesses spanning two granules. T2 then reads one element
// with no synchronisation at all: the fast path must have left a record that still races.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: in t2
// CHECK: #0 t1 
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

#define N 256
__int128 wide[N];
long narrow[N];
pthread_mutex_t mine = PTHREAD_MUTEX_INITIALIZER;
ib_flag t1_done, t2_done;

static void *t1(void *arg)
{
  (void)arg;
  for (int round = 0; round < 50; round++) {
    for (int i = 0; i < N; i++) {
      wide[i] += i + round;     /* 16-byte access: two granules */
      narrow[i] ^= wide[i] >> 3;
    }
    pthread_mutex_lock(&mine); /* a release of T1: the next round is a new epoch */
    pthread_mutex_unlock(&mine);
  }
  ib_set(&t1_done);
  ib_wait(&t2_done);
  return NULL;
}

static void *t2(void *arg)
{
  (void)arg;
  ib_wait(&t1_done);
  long v = (long)wide[100] + narrow[17];
  ib_set(&t2_done);
  return (void *)v;
}

int main(void)
{
  pthread_t a, b;
  void *r;
  pthread_create(&a, NULL, t1, NULL);
  pthread_create(&b, NULL, t2, NULL);
  pthread_join(a, NULL);
  pthread_join(b, &r);
  printf("%ld\n", (long)r);
  return 0;
}
