// VERDICT: norace
// Four threads each write a different field of one struct (char, short, int, long): adjacent fields are distinct locations.
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

struct rec { char c; short s; int i; long l; } rec;
ib_barrier all;

static void *w_c(void *arg) { ib_barrier_wait(&all, 4); for (int k = 0; k < 100; k++) rec.c++; return NULL; }
static void *w_s(void *arg) { ib_barrier_wait(&all, 4); for (int k = 0; k < 100; k++) rec.s++; return NULL; }
static void *w_i(void *arg) { ib_barrier_wait(&all, 4); for (int k = 0; k < 100; k++) rec.i++; return NULL; }
static void *w_l(void *arg) { ib_barrier_wait(&all, 4); for (int k = 0; k < 100; k++) rec.l++; return NULL; }

int main(void)
{
  pthread_t t[4];
  void *(*fn[4])(void *) = {w_c, w_s, w_i, w_l};
  for (int i = 0; i < 4; i++) pthread_create(&t[i], NULL, fn[i], NULL);
  for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
  printf("%d %d %d %ld\n", rec.c, rec.s, rec.i, rec.l);
  return rec.c == 100 && rec.s == 100 && rec.i == 100 && rec.l == 100 ? 0 : 1;
}
