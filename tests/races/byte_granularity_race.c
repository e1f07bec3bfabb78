// VERDICT: race
// An 8-byte write races with a 1-byte write to its last byte.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'word'
// CHECK: in last_byte_writer
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

long word;
ib_flag word_written;

static void *word_writer(void *arg) { word = 0x0102030405060708L; ib_set(&word_written); return NULL; }
static void *last_byte_writer(void *arg) { ib_wait(&word_written); ((volatile char *)&word)[7] = 0x7f; return NULL; }

int main(void)
{
  pthread_t a, b;
  pthread_create(&a, NULL, word_writer, NULL);
  pthread_create(&b, NULL, last_byte_writer, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("%lx\n", word);
  return 0;
}
