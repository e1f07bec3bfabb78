// VERDICT: race
// A worker reads an aligned_alloc'ed record that main keeps updating without synchronisation.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: heap block of size 128
// CHECK: in main
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "invisible_barrier.h"

double *rec;
ib_flag read_done, updated;

static void *reader(void *arg) { double v = rec[15]; ib_set(&read_done); ib_wait(&updated); return (void *)(long)v; }

int main(void)
{
  pthread_t t;
  rec = aligned_alloc(128, 128);
  rec[15] = 1.0;
  pthread_create(&t, NULL, reader, NULL);
  ib_wait(&read_done);
  rec[15] = 2.0;
  ib_set(&updated);
  pthread_join(t, NULL);
  printf("%f\n", rec[15]);
  free(rec);
  return 0;
}
