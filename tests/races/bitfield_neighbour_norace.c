// VERDICT: norace
// A bit-field and an adjacent ordinary char member are distinct memory locations.
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

struct { char tag; unsigned bits : 7; char tail; } rec;
ib_barrier all;

static void *w_tag(void *arg) { ib_barrier_wait(&all, 3); for (int k = 0; k < 40; k++) rec.tag++; return NULL; }
static void *w_bits(void *arg) { ib_barrier_wait(&all, 3); for (int k = 0; k < 40; k++) rec.bits++; return NULL; }
static void *w_tail(void *arg) { ib_barrier_wait(&all, 3); for (int k = 0; k < 40; k++) rec.tail--; return NULL; }

int main(void)
{
  pthread_t t[3];
  void *(*fn[3])(void *) = {w_tag, w_bits, w_tail};
  for (int i = 0; i < 3; i++) pthread_create(&t[i], NULL, fn[i], NULL);
  for (int i = 0; i < 3; i++) pthread_join(t[i], NULL);
  printf("%d %u %d\n", rec.tag, rec.bits, rec.tail);
  return rec.tag == 40 && rec.bits == 40 && rec.tail == -40 ? 0 : 1;
}
