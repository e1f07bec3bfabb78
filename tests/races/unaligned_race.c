// VERDICT: race
// An unaligned 4-byte write (packed struct, bytes 1..4) races with a 1-byte write to byte 4.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'pk'
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

struct __attribute__((packed)) { char c; int i; char d; char e; } pk;
ib_flag int_written;

static void *int_writer(void *arg) { pk.i = 0x01020304; ib_set(&int_written); return NULL; }
static void *byte_writer(void *arg) { ib_wait(&int_written); ((volatile char *)&pk)[4] = 9; return NULL; }

int main(void)
{
  pthread_t a, b;
  pthread_create(&a, NULL, int_writer, NULL);
  pthread_create(&b, NULL, byte_writer, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("%x\n", pk.i);
  return 0;
}
