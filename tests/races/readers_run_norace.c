// VERDICT: norace
// As readers_run_race, but each reader takes and releases the lock after its second epoch's
// sweeps too, and the writer takes it after all eight releases: its store is ordered after every
// read the readers' run holds, and nothing is reported.
// ENGINES: goldilocks vc
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

#define N 32768   /* twice the filter's 2^14 slots (GOLDI_FILTER_BITS in src/rt/rt.h) */
volatile long x[N];
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
ib_flag released;

static void *reader(void *arg)
{
  long s = 0;
  for (int round = 0; round < 2; round++) {
    for (int i = 0; i < 2 * N; i++)
      s += x[i % N];
    pthread_mutex_lock(&m);
    pthread_mutex_unlock(&m);
    ib_set(&released);
  }
  return (void *)(s + (long)arg);
}

static void *writer(void *arg)
{
  (void)arg;
  ib_wait_ge(&released, 8);
  pthread_mutex_lock(&m);         /* after the eight unlocks */
  pthread_mutex_unlock(&m);
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
  printf("%ld %ld\n", sum, x[123]);
  return 0;
}
