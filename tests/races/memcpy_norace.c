// VERDICT: norace
// Two threads memcpy into disjoint halves of one buffer and both read the same shared source.
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "invisible_barrier.h"

char src[64] = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde";
char dst[64];
size_t volatile half = 32;
ib_barrier both;

static void *copier(void *arg)
{
  long h = (long)arg;
  ib_barrier_wait(&both, 2);
  memcpy(dst + h * half, src, half);
  memmove(dst + h * half + 1, dst + h * half, half - 1);
  return NULL;
}

int main(void)
{
  pthread_t a, b;
  pthread_create(&a, NULL, copier, (void *)0L);
  pthread_create(&b, NULL, copier, (void *)1L);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("%.64s\n", dst);
  return dst[33] == '0' ? 0 : 1;
}
