// VERDICT: norace
// Eight threads each write their own byte of one 8-byte word: same granule, distinct bytes.
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

_Alignas(8) char bytes[8];
ib_barrier all;

static void *own_byte(void *arg)
{
  long i = (long)arg;
  ib_barrier_wait(&all, 8);
  for (int k = 0; k < 20; k++) bytes[i] += (char)(i + 1);
  return NULL;
}

int main(void)
{
  pthread_t t[8];
  for (long i = 0; i < 8; i++) pthread_create(&t[i], NULL, own_byte, (void *)i);
  for (int i = 0; i < 8; i++) pthread_join(t[i], NULL);
  int ok = 1;
  for (int i = 0; i < 8; i++) ok &= bytes[i] == (char)(20 * (i + 1));
  printf("ok=%d\n", ok);
  return ok ? 0 : 1;
}
