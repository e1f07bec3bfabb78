// VERDICT: race
// An aligned 4-byte write to the high half of a granule (its own entry point in
// the runtime) races with a 2-byte write to the same half's last two bytes.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'halves'
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

_Alignas(8) struct { int lo; int hi; } halves;
ib_flag hi_written;

static void *int_writer(void *arg) { halves.hi = 0x01020304; ib_set(&hi_written); return NULL; }
static void *short_writer(void *arg) { ib_wait(&hi_written); ((volatile short *)&halves)[3] = 9; return NULL; }

int main(void)
{
  pthread_t a, b;
  pthread_create(&a, NULL, int_writer, NULL);
  pthread_create(&b, NULL, short_writer, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("%x %x\n", halves.lo, halves.hi);
  return 0;
}
