// VERDICT: race
// Read-shared data held as a readers' run (main's W and four readers' R in the granule's own
// words, docs/goldilocks.md "Packed granules"): four threads sweep an array main wrote, twice
// an epoch (larger than the same-epoch filter, so the second sweep is the lock-free kept test
// on the run), in two epochs split by a lock each takes and releases. A writer takes that lock
// after all four released it, so it is ordered after their first epoch's reads but not after
// their second's: its store races with those, and must be reported although main's W and the
// first epoch's R are ordered before it. (tests/unit/test_gls_fast.c checks the kept test on a
// run itself: here most sweeps take the locked path, the kept test's window being off.)
// CHECK: SUMMARY: Goldilocks: data race
// ENGINES: goldilocks vc
// CHECK: readers_run_race.c:28
// CHECK: readers_run_race.c:46
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

#define N 32768   /* twice the filter's 2^14 slots (GOLDI_FILTER_BITS in src/rt/rt.h) */
volatile long x[N];   /* volatile: every read of the sweeps is a real (instrumented) load */
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
ib_flag released, swept;

static void *reader(void *arg)
{
  long s = 0;
  for (int round = 0; round < 2; round++) {
    for (int i = 0; i < 2 * N; i++)
      s += x[i % N];              /* one statement (one origin) in both epochs */
    if (round == 0) {
      pthread_mutex_lock(&m);
      pthread_mutex_unlock(&m);   /* the readers' next epoch */
      ib_set(&released);
    }
  }
  ib_set(&swept);
  return (void *)(s + (long)arg);
}

static void *writer(void *arg)
{
  (void)arg;
  ib_wait_ge(&released, 4);
  pthread_mutex_lock(&m);         /* after the four unlocks */
  pthread_mutex_unlock(&m);
  ib_wait_ge(&swept, 4);          /* (the second sweeps have happened: unseen by the detector) */
  x[123] = -1;
  return NULL;
}

int main(void)
{
  pthread_t r[4], w;
  long sum = 0;
  for (int i = 0; i < N; i++)
    x[i] = i;
  for (long i = 0; i < 4; i++)
    pthread_create(&r[i], NULL, reader, (void *)i);
  pthread_create(&w, NULL, writer, NULL);
  for (int i = 0; i < 4; i++) {
    void *v;
    pthread_join(r[i], &v);
    sum += (long)v;
  }
  pthread_join(w, NULL);
  printf("%ld\n", sum);
  return 0;
}
