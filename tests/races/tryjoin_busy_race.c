// VERDICT: race
// pthread_tryjoin_np failing with EBUSY orders nothing; main reads anyway.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'result'
// CHECK: in main
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

int result;
ib_flag written, probed;

static void *worker(void *arg) { result = 42; ib_set(&written); ib_wait(&probed); return NULL; }

int main(void)
{
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  ib_wait(&written);
  int rc = pthread_tryjoin_np(t, NULL);
  int v = result;
  ib_set(&probed);
  pthread_join(t, NULL);
  printf("%d rc=%d\n", v, rc);
  return rc == EBUSY ? 0 : 3;
}
