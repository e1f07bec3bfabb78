// VERDICT: race
// Recursive mutex: a write made after the outermost unlock is unprotected and races with a later locked write.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'counter'
// CHECK: in locked_writer
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

int counter;
pthread_mutex_t mu;
ib_flag first_done;

static void *sloppy(void *arg)
{
  pthread_mutex_lock(&mu);
  pthread_mutex_lock(&mu);
  counter = 1;
  pthread_mutex_unlock(&mu);
  pthread_mutex_unlock(&mu);
  counter = 2;                /* after the outermost unlock */
  ib_set(&first_done);
  return NULL;
}

static void *locked_writer(void *arg)
{
  ib_wait(&first_done);
  pthread_mutex_lock(&mu);
  counter = 3;
  pthread_mutex_unlock(&mu);
  return NULL;
}

int main(void)
{
  pthread_mutexattr_t at;
  pthread_mutexattr_init(&at);
  pthread_mutexattr_settype(&at, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&mu, &at);
  pthread_t a, b;
  pthread_create(&a, NULL, sloppy, NULL);
  pthread_create(&b, NULL, locked_writer, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("counter=%d\n", counter);
  return 0;
}
