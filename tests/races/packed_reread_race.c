// VERDICT: race
// A word read by two threads that nothing orders (its history becomes two readers' cells next to
// the initial write), then read again by the first in a later epoch, then written by the second:
// the write follows the first read (the mutex orders it) but not the second. The second read's
// record must replace the first one's with the later position, or the race is missed.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'bound'
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

long bound = 1;
long seen[2];
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
ib_flag first_read, b_synced, second_read;

static void *reader(void *arg)
{
  pthread_mutex_lock(&m);
  seen[0] += bound;          /* first read, released by the unlock below */
  pthread_mutex_unlock(&m);
  ib_set(&first_read);
  ib_wait(&b_synced);
  seen[0] += bound;          /* second read: after its last release */
  ib_set(&second_read);
  return NULL;
}

static void *writer(void *arg)
{
  ib_wait(&first_read);
  seen[1] += bound;          /* a second reader, unordered with the first */
  pthread_mutex_lock(&m);    /* now ordered after the first read only */
  pthread_mutex_unlock(&m);
  ib_set(&b_synced);
  ib_wait(&second_read);
  bound = 2;                 /* races with the second read */
  return NULL;
}

int main(void)
{
  pthread_t a, b;
  pthread_create(&a, NULL, reader, NULL);
  pthread_create(&b, NULL, writer, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("%ld %ld %ld\n", bound, seen[0], seen[1]);
  return 0;
}
