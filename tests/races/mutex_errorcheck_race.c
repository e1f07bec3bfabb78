// VERDICT: race
// Error-checking mutex: a thread that does not own it "unlocks" it (EPERM) after writing; that is no release.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'data'
// CHECK: in owner
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

int data;
pthread_mutex_t mu;
ib_flag locked, stranger_done;

static void *owner(void *arg)
{
  pthread_mutex_lock(&mu);
  ib_set(&locked);
  ib_wait(&stranger_done);
  pthread_mutex_unlock(&mu);
  pthread_mutex_lock(&mu);
  long v = data;
  pthread_mutex_unlock(&mu);
  return (void *)v;
}

static void *stranger(void *arg)
{
  ib_wait(&locked);
  data = 42;
  int rc = pthread_mutex_unlock(&mu);
  ib_set(&stranger_done);
  return (void *)(long)rc;
}

int main(void)
{
  pthread_mutexattr_t at;
  pthread_mutexattr_init(&at);
  pthread_mutexattr_settype(&at, PTHREAD_MUTEX_ERRORCHECK);
  pthread_mutex_init(&mu, &at);
  pthread_t a, b;
  void *rc, *v;
  pthread_create(&a, NULL, owner, NULL);
  pthread_create(&b, NULL, stranger, NULL);
  pthread_join(a, &v);
  pthread_join(b, &rc);
  printf("data=%ld unlock rc=%ld\n", (long)v, (long)rc);
  return (long)rc == EPERM ? 0 : 3;
}
