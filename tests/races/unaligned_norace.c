// VERDICT: norace
// An unaligned 4-byte field of a packed struct (bytes 1..4) and its neighbours (bytes 0, 5, 6) are written concurrently.
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

struct __attribute__((packed)) { char c; int i; char d; char e; } pk;
ib_barrier all;

static void *w_c(void *arg) { ib_barrier_wait(&all, 4); for (int k = 0; k < 10; k++) pk.c++; return NULL; }
static void *w_i(void *arg) { ib_barrier_wait(&all, 4); for (int k = 0; k < 10; k++) pk.i += 1000; return NULL; }
static void *w_d(void *arg) { ib_barrier_wait(&all, 4); for (int k = 0; k < 10; k++) pk.d += 2; return NULL; }
static void *w_e(void *arg) { ib_barrier_wait(&all, 4); for (int k = 0; k < 10; k++) pk.e += 3; return NULL; }

int main(void)
{
  pthread_t t[4];
  void *(*fn[4])(void *) = {w_c, w_i, w_d, w_e};
  for (int i = 0; i < 4; i++) pthread_create(&t[i], NULL, fn[i], NULL);
  for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
  printf("%d %d %d %d\n", pk.c, pk.i, pk.d, pk.e);
  return pk.c == 10 && pk.i == 10000 && pk.d == 20 && pk.e == 30 ? 0 : 1;
}
