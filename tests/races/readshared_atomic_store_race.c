// VERDICT: race
// Read-shared data on the lock-free "kept" path: T2 and T3 sweep an array main wrote, twice,
// in one epoch (the array is larger than the runtime's same-epoch filter, and its 4-byte
// elements are too small for the granule filter, so the second sweep reaches the engine:
// R(T2), R(T3) exist and those reads change nothing). Then T1 stores one
// element atomically, unordered with both: a plain write would drop their R entries, an atomic
// one does not, so T2's next sweep (another line, same epoch) must not take that element as
// unchanged: it races with the store and is reported on its own line.
// CHECK: SUMMARY: Goldilocks: data race
// ENGINES: goldilocks vc
// (FastTrack skips a read in the epoch of the same thread's previous read, its fast path by design:
// it reports this race once, at the store.)
// CHECK: readshared_atomic_store_race.c:41
// CHECK: readshared_atomic_store_race.c:46
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

#define N 32768   /* twice the filter's 2^14 slots (GOLDI_FILTER_BITS in src/rt/rt.h) */
/* volatile: every read of the loops is a real (instrumented) load; int: the
 * granule filter (rt.h), which a re-read sweep of 8-byte elements warms,
 * never answers accesses smaller than a granule */
volatile int x[N];
ib_flag readers_ready, stored, done3;
ib_barrier two;

static void *t1(void *arg)
{
  (void)arg;
  ib_wait(&readers_ready);
  __atomic_store_n(&x[100], 5, __ATOMIC_RELAXED);
  ib_set(&stored);
  return NULL;
}

static void *t2(void *arg)
{
  (void)arg;
  long s = 0;
  for (int i = 0; i < 2 * N; i++)
    s += x[i % N];                /* first the slow path, then kept */
  ib_barrier_wait(&two, 2);
  ib_set(&readers_ready);
  ib_wait(&stored);
  for (int i = 0; i < N; i++)
    s += x[i];                    /* after the atomic store */
  return (void *)s;
}

static void *t3(void *arg)
{
  (void)arg;
  long s = 0;
  for (int i = 0; i < 2 * N; i++)
    s += x[i % N];
  ib_barrier_wait(&two, 2);
  return (void *)s;
}

int main(void)
{
  pthread_t a, b, c;
  void *r2, *r3;
  for (int i = 0; i < N; i++)
    x[i] = i;
  pthread_create(&b, NULL, t2, NULL);
  pthread_create(&c, NULL, t3, NULL);
  pthread_create(&a, NULL, t1, NULL);
  pthread_join(a, NULL);
  pthread_join(b, &r2);
  pthread_join(c, &r3);
  printf("%ld %ld\n", (long)r2, (long)r3);
  return 0;
}
