// VERDICT: race
// A detached thread writes a global; main reads it later with no synchronisation (detach orders nothing).
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'progress'
// CHECK: in main
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

int progress;
ib_flag written, read_done;

static void *background(void *arg) { progress = 100; ib_set(&written); ib_wait(&read_done); return NULL; }

int main(void)
{
  pthread_t t;
  pthread_create(&t, NULL, background, NULL);
  pthread_detach(t);
  ib_wait(&written);
  int v = progress;
  ib_set(&read_done);
  printf("%d\n", v);
  return 0;
}
