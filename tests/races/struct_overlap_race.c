// VERDICT: race
// A 4-byte write of an int field races with a 1-byte write into the middle of it through a char pointer.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'rec'
// CHECK: in byte_writer
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

struct { short tag; int word; } rec;
ib_flag word_written;

static void *word_writer(void *arg) { rec.word = 0x11223344; ib_set(&word_written); return NULL; }
static void *byte_writer(void *arg)
{
  ib_wait(&word_written);
  ((volatile char *)&rec.word)[2] = 0x55;
  return NULL;
}

int main(void)
{
  pthread_t a, b;
  pthread_create(&a, NULL, word_writer, NULL);
  pthread_create(&b, NULL, byte_writer, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("%x\n", rec.word);
  return 0;
}
