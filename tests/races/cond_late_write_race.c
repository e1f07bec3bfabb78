// VERDICT: race
// The signaller writes the data after unlocking: the waiter's read is not ordered after that write.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'payload'
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

int payload;
int ready;
pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
ib_flag written, read_done;

static void *signaller(void *arg)
{
  pthread_mutex_lock(&mu);
  ready = 1;
  pthread_cond_signal(&cv);
  pthread_mutex_unlock(&mu);
  payload = 42;                        /* the bug: after the unlock */
  ib_set(&written);
  ib_wait(&read_done);
  return NULL;
}

static void *waiter(void *arg)
{
  pthread_mutex_lock(&mu);
  while (!ready) pthread_cond_wait(&cv, &mu);
  pthread_mutex_unlock(&mu);
  ib_wait(&written);
  long v = payload;
  ib_set(&read_done);
  return (void *)v;
}

int main(void)
{
  pthread_t a, b;
  void *v;
  pthread_create(&a, NULL, waiter, NULL);
  pthread_create(&b, NULL, signaller, NULL);
  pthread_join(a, &v);
  pthread_join(b, NULL);
  printf("%ld\n", (long)v);
  return 0;
}
