// VERDICT: race
// main passes the address of its stack variable to two workers, which both write it.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: Location is stack of
// CHECK: in second
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

ib_flag first_done, second_done;

static void *first(void *arg) { *(int *)arg = 1; ib_set(&first_done); ib_wait(&second_done); return NULL; }
static void *second(void *arg) { ib_wait(&first_done); *(int *)arg = 2; ib_set(&second_done); return NULL; }

int main(void)
{
  int local = 0;
  pthread_t a, b;
  pthread_create(&a, NULL, first, &local);
  pthread_create(&b, NULL, second, &local);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("%d\n", local);
  return 0;
}
