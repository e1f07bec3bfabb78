// VERDICT: norace
// Two threads each read and write their own aligned 4-byte half of one granule,
// many times (the runtime's 4-byte entry points, the half records' paths): same
// granule, distinct bytes.
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

_Alignas(8) volatile int halves[2];
ib_barrier both;

static void *own_half(void *arg)
{
  long i = (long)arg;
  ib_barrier_wait(&both, 2);
  for (int k = 0; k < 1000; k++) halves[i] += (int)i + 1;
  return NULL;
}

int main(void)
{
  pthread_t t[2];
  for (long i = 0; i < 2; i++) pthread_create(&t[i], NULL, own_half, (void *)i);
  for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
  int ok = halves[0] == 1000 && halves[1] == 2000;
  printf("ok=%d\n", ok);
  return ok ? 0 : 1;
}
