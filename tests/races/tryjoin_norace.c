// VERDICT: norace
// A successful pthread_tryjoin_np (after polling EBUSY) orders the thread's writes like pthread_join.
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <sched.h>

int result;

static void *worker(void *arg) { result = 42; return NULL; }

int main(void)
{
  pthread_t t;
  int rc;
  pthread_create(&t, NULL, worker, NULL);
  while ((rc = pthread_tryjoin_np(t, NULL)) == EBUSY) sched_yield();
  if (rc != 0) return 3;
  printf("%d\n", result);
  result = 0;
  return 0;
}
