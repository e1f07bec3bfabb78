// VERDICT: race
// Read subsumption (docs/goldilocks.md "A read loads only what it needs"): a plain read drops
// another thread's read only if that read is ordered before it. T1 and T2 read the same data
// holding an rwlock in read mode, which orders nothing between readers, so T2's reads must
// leave T1's in place: T3, ordered after T2 (mutex m) but not after T1, then writes and races
// with T1's reads only. Three shapes of data: `solo` (an inline record: main's write), `halves`
// (a packed granule: two 4-byte halves main wrote separately) and `shared` (pool entries: main
// stored it atomically first). The reader order is forced invisibly; the races exist in every
// interleaving (T1's reads and T3's writes are never ordered).
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: read_subsume_rwlock_race.c:40
// CHECK: read_subsume_rwlock_race.c:41
// CHECK: read_subsume_rwlock_race.c:42
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

long solo;
struct { int lo, hi; } halves;
long shared;
pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
ib_flag t1_read, t2_read, t3_wrote;
long sink[3];

static void read_all(long *out)
{
  pthread_rwlock_rdlock(&rw);
  out[0] = solo;
  out[1] = halves.lo;
  out[2] = shared;
  pthread_rwlock_unlock(&rw);
}

static void *t1(void *arg)
{
  (void)arg;
  long v[3];
  pthread_rwlock_rdlock(&rw);
  v[0] = solo;
  v[1] = halves.lo;
  v[2] = shared;
  pthread_rwlock_unlock(&rw);
  sink[0] = v[0] + v[1] + v[2];
  ib_set(&t1_read);
  ib_wait(&t3_wrote);
  return NULL;
}

static void *t2(void *arg)
{
  (void)arg;
  long v[3];
  ib_wait(&t1_read);
  read_all(v);
  sink[1] = v[0] + v[1] + v[2];
  pthread_mutex_lock(&m);
  pthread_mutex_unlock(&m);
  ib_set(&t2_read);
  return NULL;
}

static void *t3(void *arg)
{
  (void)arg;
  ib_wait(&t2_read);
  pthread_mutex_lock(&m);   /* after T2's unlock: ordered after T2's reads */
  pthread_mutex_unlock(&m);
  solo = 1;
  halves.lo = 2;
  shared = 3;
  ib_set(&t3_wrote);
  return NULL;
}

int main(void)
{
  solo = 10;
  halves.lo = 11;
  halves.hi = 12;
  __atomic_store_n(&shared, 13, __ATOMIC_RELAXED);
  pthread_t a, b, c;
  pthread_create(&a, NULL, t1, NULL);
  pthread_create(&b, NULL, t2, NULL);
  pthread_create(&c, NULL, t3, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  pthread_join(c, NULL);
  printf("%ld %d %ld %ld %ld\n", solo, halves.lo, shared, sink[0], sink[1]);
  return 0;
}
