// VERDICT: race
// A write under the write lock races with a later read that takes no lock at all.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'value'
// CHECK: in reader
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

int value;
pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
ib_flag written;

static void *writer(void *arg)
{
  pthread_rwlock_wrlock(&rw);
  value = 6;
  pthread_rwlock_unlock(&rw);
  ib_set(&written);
  return NULL;
}

static void *reader(void *arg) { ib_wait(&written); return (void *)(long)value; }

int main(void)
{
  pthread_t a, b;
  void *v;
  pthread_create(&a, NULL, writer, NULL);
  pthread_create(&b, NULL, reader, NULL);
  pthread_join(a, NULL);
  pthread_join(b, &v);
  printf("%ld\n", (long)v);
  return 0;
}
