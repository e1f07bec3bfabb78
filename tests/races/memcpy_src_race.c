// VERDICT: race
// memcpy reads its source range; an earlier unordered write into the source by another thread races with that read.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'src'
// CHECK: copier
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "invisible_barrier.h"

char src[64] = "the quick brown fox jumps over the lazy dog";
char dst[64];
size_t volatile n = 64;
ib_flag poked, copied;

static void *poker(void *arg) { src[50] = '?'; ib_set(&poked); ib_wait(&copied); return NULL; }
static void *copier(void *arg) { ib_wait(&poked); memcpy(dst, src, n); ib_set(&copied); return NULL; }

int main(void)
{
  pthread_t a, b;
  pthread_create(&a, NULL, poker, NULL);
  pthread_create(&b, NULL, copier, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("%s\n", dst);
  return 0;
}
