// VERDICT: race
// pthread_cond_signal alone is not a release: the signaller never touches the mutex, so the waiter's wakeup orders nothing.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'payload'
// CHECK: in waiter
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include "invisible_barrier.h"

int payload;
pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
ib_flag waiting, read_done;

static void *signaller(void *arg)
{
  payload = 42;
  ib_wait(&waiting);
  pthread_cond_signal(&cv);
  ib_wait(&read_done);
  return NULL;
}

static void *waiter(void *arg)
{
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  ts.tv_nsec += 50 * 1000 * 1000;
  if (ts.tv_nsec >= 1000000000) { ts.tv_sec++; ts.tv_nsec -= 1000000000; }
  pthread_mutex_lock(&mu);
  ib_set(&waiting);
  pthread_cond_timedwait(&cv, &mu, &ts);   /* woken by the signal or times out: either way no edge */
  pthread_mutex_unlock(&mu);
  long v = payload;
  ib_set(&read_done);
  return (void *)v;
}

int main(void)
{
  pthread_t a, b;
  void *v;
  pthread_create(&a, NULL, signaller, NULL);
  pthread_create(&b, NULL, waiter, NULL);
  pthread_join(a, NULL);
  pthread_join(b, &v);
  printf("%ld\n", (long)v);
  return 0;
}
