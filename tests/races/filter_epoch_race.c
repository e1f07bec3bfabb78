// VERDICT: race
// The same-epoch filter's entries hold for one epoch of their thread only. T1 reads x, then
// releases m; T2 acquires m (so T1's first read is ordered before T2), and writes x after T1
// read it a second time. That second read is in T1's next epoch: it must be checked and
// recorded, and it races with T2's write (an entry kept across the unlock would hide it).
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: #0 second_read
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

long x;
long seen[2];
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
ib_flag unlocked, read_again;

__attribute__((noinline)) static void second_read(void) {
  seen[1] = x;
}

static void *t1(void *arg) {
  pthread_mutex_lock(&m);
  seen[0] = x;                /* ordered before T2's write through m */
  pthread_mutex_unlock(&m);
  ib_set(&unlocked);
  second_read();              /* a new epoch: not ordered before T2's write */
  ib_set(&read_again);
  return arg;
}

static void *t2(void *arg) {
  ib_wait(&unlocked);
  pthread_mutex_lock(&m);
  pthread_mutex_unlock(&m);
  ib_wait(&read_again);
  x = 2;
  return arg;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, t1, NULL);
  pthread_create(&b, NULL, t2, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("%ld %ld %ld\n", seen[0], seen[1], x);
  return 0;
}
