// VERDICT: race
// Two threads, both started before either is joined, write the same global.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'counter'
// CHECK: in second_writer
// CHECK: Previous write
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

int counter;
ib_flag first_done;

static void *first_writer(void *arg) { counter = 1; ib_set(&first_done); return NULL; }
static void *second_writer(void *arg) { ib_wait(&first_done); counter = 2; return NULL; }

int main(void)
{
  pthread_t a, b;
  pthread_create(&a, NULL, first_writer, NULL);
  pthread_create(&b, NULL, second_writer, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("counter=%d\n", counter);
  return 0;
}
