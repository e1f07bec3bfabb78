// VERDICT: race
// A worker whose every access is a new epoch (a lock around each read of a
// table) makes the runtime stop consulting its same-epoch filter for a
// while (rt.h, filter windows: after 300000 reads the worker is in such a
// while); a race met then is still reported.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: in worker
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

#define N 300000
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static long table[1024];
long x;
ib_flag written;

static void *worker(void *arg) {
  long s = 0;
  for (long i = 0; i < N; i++) {
    pthread_mutex_lock(&m);
    s += table[(i * 37) & 1023];
    pthread_mutex_unlock(&m);
  }
  ib_wait(&written);
  s += x;   /* main wrote x with nothing ordering it before this read */
  return (void *)s;
}

int main(void) {
  pthread_t t;
  for (int i = 0; i < 1024; i++)
    table[i] = i;
  pthread_create(&t, NULL, worker, NULL);
  x = 42;
  ib_set(&written);
  void *r;
  pthread_join(t, &r);
  printf("%ld\n", (long)r);
  return 0;
}
