// VERDICT: race
// Two workers write the same word of a posix_memalign'ed buffer.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: heap block of size 256
// CHECK: in second
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "invisible_barrier.h"

long *buf;
ib_flag first_done, second_done;

static void *first(void *arg) { buf[31] = 1; ib_set(&first_done); ib_wait(&second_done); return NULL; }
static void *second(void *arg) { ib_wait(&first_done); buf[31] = 2; ib_set(&second_done); return NULL; }

int main(void)
{
  pthread_t a, b;
  void *p;
  if (posix_memalign(&p, 64, 256) != 0) return 3;
  buf = p;
  pthread_create(&a, NULL, first, NULL);
  pthread_create(&b, NULL, second, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("%ld\n", buf[31]);
  free(buf);
  return 0;
}
