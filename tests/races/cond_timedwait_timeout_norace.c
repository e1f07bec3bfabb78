// VERDICT: norace
// pthread_cond_timedwait reacquires the mutex even when it times out, so it orders after another thread's critical section.
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include "invisible_barrier.h"

int shared;
pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;   /* never signalled */
ib_flag waiting;

static void *sleeper(void *arg)
{
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  ts.tv_nsec += 100 * 1000 * 1000;
  if (ts.tv_nsec >= 1000000000) { ts.tv_sec++; ts.tv_nsec -= 1000000000; }
  pthread_mutex_lock(&mu);
  ib_set(&waiting);
  while (pthread_cond_timedwait(&cv, &mu, &ts) == 0) { }
  long v = shared;            /* mutex held again after the timeout */
  shared = 2;
  pthread_mutex_unlock(&mu);
  return (void *)v;
}

static void *intruder(void *arg)
{
  ib_wait(&waiting);
  pthread_mutex_lock(&mu);    /* gets in while the sleeper waits (or after it: ordered either way) */
  shared = 1;
  pthread_mutex_unlock(&mu);
  return NULL;
}

int main(void)
{
  pthread_t a, b;
  void *v;
  pthread_create(&a, NULL, sleeper, NULL);
  pthread_create(&b, NULL, intruder, NULL);
  pthread_join(a, &v);
  pthread_join(b, NULL);
  printf("%ld %d\n", (long)v, shared);
  return 0;
}
