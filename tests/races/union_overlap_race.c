// VERDICT: race
// Union members of different sizes overlap: an int write races with a char write to its last byte.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'u'
// CHECK: in char_writer
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

union { int i; char c[4]; } u;
ib_flag int_written;

static void *int_writer(void *arg) { u.i = 0x01020304; ib_set(&int_written); return NULL; }
static void *char_writer(void *arg) { ib_wait(&int_written); u.c[3] = 9; return NULL; }

int main(void)
{
  pthread_t a, b;
  pthread_create(&a, NULL, int_writer, NULL);
  pthread_create(&b, NULL, char_writer, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("%x\n", u.i);
  return 0;
}
