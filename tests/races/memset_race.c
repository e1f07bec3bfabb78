// VERDICT: race
// A thread reads the last byte of a buffer that another thread memset unorderedly.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'buf'
// CHECK: in reader
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "invisible_barrier.h"

char buf[100];
size_t volatile n = 100;
ib_flag cleared, read_done;

static void *clearer(void *arg) { memset(buf, 'z', n); ib_set(&cleared); ib_wait(&read_done); return NULL; }
static void *reader(void *arg) { ib_wait(&cleared); long v = buf[99]; ib_set(&read_done); return (void *)v; }

int main(void)
{
  pthread_t a, b;
  void *v;
  pthread_create(&a, NULL, clearer, NULL);
  pthread_create(&b, NULL, reader, NULL);
  pthread_join(a, NULL);
  pthread_join(b, &v);
  printf("%ld\n", (long)v);
  return 0;
}
