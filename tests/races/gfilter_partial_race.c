// VERDICT: race
// The granule filter (rt.h) marks a granule only when an access covered it whole: an 8-byte
// read at offset 4 (bytes 4-11, half of each of two granules) marks neither, so the aligned
// read of bytes 8-15 right after it must be checked. The writer's store to bytes 12-15 comes
// after both reads, unordered with them: it races with the aligned read.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: Previous read of size 8
// CHECK: #0 reader
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include "invisible_barrier.h"

union block {
  struct __attribute__((packed)) { uint32_t head; uint64_t mid; uint32_t tail; } p;
  uint64_t g[2];
};
union block u __attribute__((aligned(16)));
ib_flag read_both;
uint64_t seen[2];

static void *reader(void *arg) {
  seen[0] = u.p.mid;          /* bytes 4-11: marks nothing */
  seen[1] = u.g[1];           /* bytes 8-15: must be checked */
  ib_set(&read_both);
  return arg;
}

static void *writer(void *arg) {
  ib_wait(&read_both);
  u.p.tail = 7;               /* bytes 12-15: races with the read of bytes 8-15 */
  return arg;
}

int main(void) {
  pthread_t r, w;
  pthread_create(&r, NULL, reader, NULL);
  pthread_create(&w, NULL, writer, NULL);
  pthread_join(r, NULL);
  pthread_join(w, NULL);
  printf("%llu %llu %u\n", (unsigned long long)seen[0], (unsigned long long)seen[1], u.p.tail);
  return 0;
}
