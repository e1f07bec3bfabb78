// VERDICT: norace
// Accesses of sizes 2, 1, 1 and 4 tile one 8-byte granule without overlapping; a later 8-byte read is join-ordered.
#include <pthread.h>
#include <stdio.h>
#include <stdint.h>
#include "invisible_barrier.h"

struct { uint16_t a; uint8_t b; uint8_t c; uint32_t d; } g;
ib_barrier all;

static void *w_a(void *arg) { ib_barrier_wait(&all, 4); g.a = 0x1111; return NULL; }
static void *w_b(void *arg) { ib_barrier_wait(&all, 4); g.b = 0x22; return NULL; }
static void *w_c(void *arg) { ib_barrier_wait(&all, 4); g.c = 0x33; return NULL; }
static void *w_d(void *arg) { ib_barrier_wait(&all, 4); g.d = 0x44444444; return NULL; }

int main(void)
{
  pthread_t t[4];
  void *(*fn[4])(void *) = {w_a, w_b, w_c, w_d};
  for (int i = 0; i < 4; i++) pthread_create(&t[i], NULL, fn[i], NULL);
  for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
  uint64_t whole;
  __builtin_memcpy(&whole, &g, 8);
  printf("%llx\n", (unsigned long long)whole);
  return whole == 0x4444444433221111ULL ? 0 : 1;
}
