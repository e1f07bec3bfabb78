// VERDICT: race
// Two threads write under a read lock: read mode excludes only writers, readers do not order each other.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'stat'
// CHECK: in second
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

int stat;
pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
ib_flag first_done;

static void *first(void *arg)
{
  pthread_rwlock_rdlock(&rw);
  stat++;
  pthread_rwlock_unlock(&rw);
  ib_set(&first_done);
  return NULL;
}

static void *second(void *arg)
{
  ib_wait(&first_done);
  pthread_rwlock_rdlock(&rw);
  stat++;
  pthread_rwlock_unlock(&rw);
  return NULL;
}

int main(void)
{
  pthread_t a, b;
  pthread_create(&a, NULL, first, NULL);
  pthread_create(&b, NULL, second, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("stat=%d\n", stat);
  return 0;
}
