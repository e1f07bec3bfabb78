// VERDICT: race
// Two threads write the same element of a heap block allocated by main.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: heap block of size 64
// CHECK: in second_writer
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "invisible_barrier.h"

ib_flag first_done;

static void *first_writer(void *arg) { ((int *)arg)[5] = 1; ib_set(&first_done); return NULL; }
static void *second_writer(void *arg) { ib_wait(&first_done); ((int *)arg)[5] = 2; return NULL; }

int main(void)
{
  int *block = malloc(64);
  pthread_t a, b;
  pthread_create(&a, NULL, first_writer, block);
  pthread_create(&b, NULL, second_writer, block);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("%d\n", block[5]);
  free(block);
  return 0;
}
