// VERDICT: race
// The ANY sweep (docs/goldilocks.md "Sweeping entries nobody can race with") must keep entries that some
// live thread is not ordered after. Three readers read 80 Ki longs written by main, so every granule holds
// main's write and three reads: pool entries (a packed granule holds three), 320 Ki of them, enough to ask
// for a sweep (past 256 Ki), which runs at the readers' barriers. A late thread, forked by main before the readers' reads
// and never synchronised with them, then writes one element: it races with every reader's read.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: in late_writer
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

#define N 81920
static long data[N];
static pthread_barrier_t readers_met;
static ib_flag reads_done;

static void *reader(void *arg)
{
  long sum = 0;
  for (long i = 0; i < N; i++)
    sum += data[i];
  for (int r = 0; r < 4; r++)
    pthread_barrier_wait(&readers_met);
  ib_set(&reads_done);
  return (void *)sum;
}

static void *late_writer(void *arg)
{
  ib_wait(&reads_done);
  data[7] = -1;
  return NULL;
}

int main(void)
{
  for (long i = 0; i < N; i++)
    data[i] = i;
  pthread_barrier_init(&readers_met, NULL, 3);
  pthread_t late, r[3];
  pthread_create(&late, NULL, late_writer, NULL);
  for (int k = 0; k < 3; k++)
    pthread_create(&r[k], NULL, reader, NULL);
  void *sum[3];
  for (int k = 0; k < 3; k++)
    pthread_join(r[k], &sum[k]);
  pthread_join(late, NULL);
  printf("%ld %ld\n", (long)sum[0], data[7]);
  return (long)sum[0] == (long)N * (N - 1) / 2 && (long)sum[1] == (long)sum[0] ? 0 : 1;
}
