// VERDICT: race
// Two threads each write a global and then call pthread_exit; exiting orders nothing between them.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'last_exit'
// CHECK: in second
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

int last_exit;
ib_flag first_wrote, second_wrote;

static void *first(void *arg) { last_exit = 1; ib_set(&first_wrote); ib_wait(&second_wrote); pthread_exit(NULL); }
static void *second(void *arg) { ib_wait(&first_wrote); last_exit = 2; ib_set(&second_wrote); pthread_exit(NULL); }

int main(void)
{
  pthread_t a, b;
  pthread_create(&a, NULL, first, NULL);
  pthread_create(&b, NULL, second, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("%d\n", last_exit);
  return 0;
}
