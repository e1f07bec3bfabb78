// VERDICT: race
// In the granule filter (rt.h) a write covers reads but a read does not cover a write: T1
// reads x whole and then writes it in the same epoch; the write must reach the engine. T2
// reads x afterwards, unordered: it races with T1's write (a write taken as covered would
// leave only T1's read, and two reads do not race).
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: Previous write of size 8
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

long x;
long seen[2];
ib_flag written;

static void *t1(void *arg) {
  seen[0] = x;
  x = seen[0] + 1;
  ib_set(&written);
  return arg;
}

static void *t2(void *arg) {
  ib_wait(&written);
  seen[1] = x;                /* races with T1's write */
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
