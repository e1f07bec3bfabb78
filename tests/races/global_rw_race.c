// VERDICT: race
// One thread writes a global, another reads it later without any synchronisation.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'shared_value'
// CHECK: in reader
// CHECK: Previous write
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

int shared_value;
ib_flag written;

static void *writer(void *arg) { shared_value = 42; ib_set(&written); return NULL; }
static void *reader(void *arg) { ib_wait(&written); return (void *)(long)shared_value; }

int main(void)
{
  pthread_t a, b;
  void *r;
  pthread_create(&a, NULL, writer, NULL);
  pthread_create(&b, NULL, reader, NULL);
  pthread_join(a, NULL);
  pthread_join(b, &r);
  printf("read %ld\n", (long)r);
  return 0;
}
