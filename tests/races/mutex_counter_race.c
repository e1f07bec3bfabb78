// VERDICT: race
// One thread increments the counter under the mutex, the other forgets to take it.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'counter'
// CHECK: in careless
// Thread creation stacks end at main (the C library's start-up code below it is left out).
// CHECK: created by main thread at:
// ABSENT: __libc_start
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

int counter;
pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
ib_flag careful_done;

static void *careful(void *arg)
{
  pthread_mutex_lock(&mu);
  counter++;
  pthread_mutex_unlock(&mu);
  ib_set(&careful_done);
  return NULL;
}

static void *careless(void *arg) { ib_wait(&careful_done); counter++; return NULL; }

int main(void)
{
  pthread_t a, b;
  pthread_create(&a, NULL, careful, NULL);
  pthread_create(&b, NULL, careless, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("counter=%d\n", counter);
  return 0;
}
