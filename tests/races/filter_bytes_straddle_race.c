// VERDICT: race
// The same-epoch filter across granules: a 16-byte read spans two 8-byte
// granules; a later unaligned 8-byte read of bytes 12-19 in the same epoch
// reaches into a third one the read never touched, where the other thread
// wrote in between, unordered: they race on bytes 16-19.
// CHECK: SUMMARY: Goldilocks: data race
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include "invisible_barrier.h"

struct three { uint64_t a, b, c; } __attribute__((aligned(16)));
struct three s;
struct __attribute__((packed)) at12 { char pad[12]; uint64_t v; };
ib_flag pair_read, c_written;

static void *writer(void *arg) {
  ib_wait(&pair_read);
  s.c = 3;                    /* bytes 16-23 */
  ib_set(&c_written);
  return arg;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, writer, NULL);
  __uint128_t ab = *(__uint128_t *)&s;              /* bytes 0-15: one 16-byte read */
  ib_set(&pair_read);
  ib_wait(&c_written);                              /* (invisible: still the same epoch) */
  uint64_t mid = ((struct at12 *)&s)->v;            /* bytes 12-19 */
  pthread_join(t, NULL);
  printf("%llu %llu\n", (unsigned long long)(uint64_t)ab, (unsigned long long)mid);
  return 0;
}
