// VERDICT: race
// Two adjacent bit-fields form one memory location: writing either one races with writing the other.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'flags'
// CHECK: in set_b
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

struct { unsigned a : 4; unsigned b : 4; } flags;
ib_flag a_written;

static void *set_a(void *arg) { flags.a = 3; ib_set(&a_written); return NULL; }
static void *set_b(void *arg) { ib_wait(&a_written); flags.b = 5; return NULL; }

int main(void)
{
  pthread_t x, y;
  pthread_create(&x, NULL, set_a, NULL);
  pthread_create(&y, NULL, set_b, NULL);
  pthread_join(x, NULL);
  pthread_join(y, NULL);
  printf("%u %u\n", flags.a, flags.b);
  return 0;
}
