// VERDICT: race
// Two workers write into the same strdup'ed buffer.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: heap block of size 12
// CHECK: in second
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "invisible_barrier.h"

char *copy;
ib_flag first_done, second_done;

static void *first(void *arg) { copy[3] = 'X'; ib_set(&first_done); ib_wait(&second_done); return NULL; }
static void *second(void *arg) { ib_wait(&first_done); copy[3] = 'Y'; ib_set(&second_done); return NULL; }

int main(void)
{
  pthread_t a, b;
  copy = strdup("hello world");
  pthread_create(&a, NULL, first, NULL);
  pthread_create(&b, NULL, second, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("%s\n", copy);
  free(copy);
  return 0;
}
