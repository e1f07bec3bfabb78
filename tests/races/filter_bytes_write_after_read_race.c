// VERDICT: race
// The same-epoch filter covers a write only with a write: an 8-byte read
// earlier in the epoch does not cover a later 4-byte write of the same
// bytes. The other thread's read of those bytes comes in between,
// unordered with the write: they race.
// CHECK: SUMMARY: Goldilocks: data race
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include "invisible_barrier.h"

union word { uint64_t all; uint32_t half[2]; };
union word x = { .all = 5 };
ib_flag all_read, lo_read;

static void *reader(void *arg) {
  ib_wait(&all_read);
  uint32_t lo = x.half[0];    /* bytes 0-3 */
  ib_set(&lo_read);
  return (void *)(uintptr_t)lo;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, reader, NULL);
  uint64_t all = x.all;       /* bytes 0-7, read */
  ib_set(&all_read);
  ib_wait(&lo_read);          /* (invisible: still the same epoch) */
  x.half[0] = 9;              /* bytes 0-3, written: not covered by the read */
  void *r;
  pthread_join(t, &r);
  printf("%llu %lu\n", (unsigned long long)all, (unsigned long)(uintptr_t)r);
  return 0;
}
