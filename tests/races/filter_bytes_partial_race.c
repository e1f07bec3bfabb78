// VERDICT: race
// The same-epoch filter may skip an access only if it saw every byte of it
// in this epoch: a 4-byte read at x must not make a later 8-byte read at
// the same address look covered. The writer's store to bytes 4-7 lands in
// between, unordered with both reads: the 8-byte read races with it.
// CHECK: SUMMARY: Goldilocks: data race
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include "invisible_barrier.h"

union word { uint64_t all; uint32_t half[2]; };
union word x;
ib_flag lo_read, hi_written;

static void *writer(void *arg) {
  ib_wait(&lo_read);
  x.half[1] = 7;              /* bytes 4-7 */
  ib_set(&hi_written);
  return arg;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, writer, NULL);
  uint32_t lo = x.half[0];    /* bytes 0-3: nothing conflicts */
  ib_set(&lo_read);
  ib_wait(&hi_written);       /* (invisible: still the same epoch) */
  uint64_t all = x.all;       /* bytes 0-7: 4-7 are new to the filter */
  pthread_join(t, NULL);
  printf("%u %llu\n", lo, (unsigned long long)all);
  return 0;
}
