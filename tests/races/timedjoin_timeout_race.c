// VERDICT: race
// pthread_timedjoin_np that times out orders nothing; main reads anyway.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'result'
// CHECK: in main
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include "invisible_barrier.h"

int result;
ib_flag written, probed;

static void *worker(void *arg) { result = 42; ib_set(&written); ib_wait(&probed); return NULL; }

int main(void)
{
  pthread_t t;
  struct timespec ts;
  pthread_create(&t, NULL, worker, NULL);
  ib_wait(&written);
  clock_gettime(CLOCK_REALTIME, &ts);
  ts.tv_nsec += 20 * 1000 * 1000;
  if (ts.tv_nsec >= 1000000000) { ts.tv_sec++; ts.tv_nsec -= 1000000000; }
  int rc = pthread_timedjoin_np(t, NULL, &ts);
  int v = result;
  ib_set(&probed);
  pthread_join(t, NULL);
  printf("%d rc=%d\n", v, rc);
  return rc == ETIMEDOUT ? 0 : 3;
}
