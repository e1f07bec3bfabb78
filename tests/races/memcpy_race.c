// VERDICT: race
// memcpy writes a 64-byte range; another thread's later write to one byte inside it races (range access).
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'dst'
// CHECK: in poker
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "invisible_barrier.h"

char src[64] = "the quick brown fox jumps over the lazy dog";
char dst[64];
size_t volatile n = 64;               /* non-constant: a real memcpy call, not inlined moves */
ib_flag copied, poked;

static void *copier(void *arg) { memcpy(dst, src, n); ib_set(&copied); ib_wait(&poked); return NULL; }
static void *poker(void *arg) { ib_wait(&copied); dst[40] = '!'; ib_set(&poked); return NULL; }

int main(void)
{
  pthread_t a, b;
  pthread_create(&a, NULL, copier, NULL);
  pthread_create(&b, NULL, poker, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("%s\n", dst);
  return 0;
}
