// VERDICT: race
// A thread reads a global first, another thread writes it afterwards (read-then-write order).
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'shared_value'
// CHECK: in writer
// CHECK: Previous read
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

int shared_value = 7;
ib_flag was_read;

static void *reader(void *arg) { long v = shared_value; ib_set(&was_read); return (void *)v; }
static void *writer(void *arg) { ib_wait(&was_read); shared_value = 42; return NULL; }

int main(void)
{
  pthread_t a, b;
  void *r;
  pthread_create(&a, NULL, reader, NULL);
  pthread_create(&b, NULL, writer, NULL);
  pthread_join(a, &r);
  pthread_join(b, NULL);
  printf("read %ld\n", (long)r);
  return 0;
}
