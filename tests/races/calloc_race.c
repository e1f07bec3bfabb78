// VERDICT: race
// Two workers increment the same element of a calloc'ed array.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: heap block of size 80
// CHECK: in second
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "invisible_barrier.h"

int *arr;
ib_flag first_done, second_done;

static void *first(void *arg) { arr[7]++; ib_set(&first_done); ib_wait(&second_done); return NULL; }
static void *second(void *arg) { ib_wait(&first_done); arr[7]++; ib_set(&second_done); return NULL; }

int main(void)
{
  pthread_t a, b;
  arr = calloc(20, sizeof *arr);
  pthread_create(&a, NULL, first, NULL);
  pthread_create(&b, NULL, second, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("%d\n", arr[7]);
  free(arr);
  return 0;
}
