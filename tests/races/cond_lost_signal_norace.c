// VERDICT: norace
// Helgrind+ lost signal (ALGORITHMS.md 4.C): the flag is already set when the waiter checks it, so it never waits; the mutex orders DATA.
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

int DATA;
int FLAG;
pthread_mutex_t l = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
ib_flag signalled;

static void *signaller(void *arg)
{
  DATA = 1;
  pthread_mutex_lock(&l);
  FLAG = 1;
  pthread_cond_signal(&cv);
  pthread_mutex_unlock(&l);
  ib_set(&signalled);
  return NULL;
}

static void *waiter(void *arg)
{
  long waited = 0;
  ib_wait(&signalled);                 /* force the schedule where the signal is "lost" */
  pthread_mutex_lock(&l);
  while (FLAG != 1) { pthread_cond_wait(&cv, &l); waited++; }
  pthread_mutex_unlock(&l);
  DATA = 2;
  return (void *)waited;
}

int main(void)
{
  pthread_t a, b;
  void *waited;
  pthread_create(&a, NULL, signaller, NULL);
  pthread_create(&b, NULL, waiter, NULL);
  pthread_join(a, NULL);
  pthread_join(b, &waited);
  printf("DATA=%d waited=%ld\n", DATA, (long)waited);
  return waited == NULL ? 0 : 3;
}
