// VERDICT: norace
// A zero-width bit-field `unsigned :0` splits two bit-fields into separate memory locations.
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

struct { unsigned a : 4; unsigned : 0; unsigned b : 4; } flags;
ib_barrier both;

static void *set_a(void *arg) { ib_barrier_wait(&both, 2); for (int k = 0; k < 50; k++) flags.a = (flags.a + 1) & 15; return NULL; }
static void *set_b(void *arg) { ib_barrier_wait(&both, 2); for (int k = 0; k < 50; k++) flags.b = (flags.b + 3) & 15; return NULL; }

int main(void)
{
  pthread_t x, y;
  pthread_create(&x, NULL, set_a, NULL);
  pthread_create(&y, NULL, set_b, NULL);
  pthread_join(x, NULL);
  pthread_join(y, NULL);
  printf("%u %u\n", flags.a, flags.b);
  return flags.a == (50 & 15) && flags.b == (150 & 15) ? 0 : 1;
}
