// VERDICT: race
// One granule, two owners on different bytes: T1 writes bytes 0-3 (an inline record of T1),
// T2 writes bytes 4-7 unsynchronised (no race: other bytes; the record must expand, not
// report), T1 reads its bytes again (no race), then T2 writes byte 2 while T1's accesses are
// still unordered with it: exactly that byte races.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: in t2
// CHECK: of size 1
#include <pthread.h>
#include <stdio.h>
#include <stdint.h>
#include "invisible_barrier.h"

union { uint64_t all; uint32_t half[2]; uint8_t byte[8]; } g __attribute__((aligned(8)));
ib_flag a_done, b_done, c_done, d_done;

static void *t1(void *arg)
{
  (void)arg;
  g.half[0] = 7;
  ib_set(&a_done);
  ib_wait(&b_done);
  uint32_t v = g.half[0];
  ib_set(&c_done);
  ib_wait(&d_done);
  return (void *)(uintptr_t)v;
}

static void *t2(void *arg)
{
  (void)arg;
  ib_wait(&a_done);
  g.half[1] = 9;
  ib_set(&b_done);
  ib_wait(&c_done);
  g.byte[2] = 1;
  ib_set(&d_done);
  return NULL;
}

int main(void)
{
  pthread_t a, b;
  void *r;
  pthread_create(&a, NULL, t1, NULL);
  pthread_create(&b, NULL, t2, NULL);
  pthread_join(a, &r);
  pthread_join(b, NULL);
  printf("%lu %lu\n", (unsigned long)(uintptr_t)r, (unsigned long)g.all);
  return 0;
}
