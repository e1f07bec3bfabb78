// VERDICT: race
// Two threads write one word inside a page-aligned block that lies among
// thousands of live heap blocks (small ones packed by malloc, page-aligned
// ones, big ones; half of the small ones freed again): the report must
// still name the block the word is in, found through the runtime's table
// of blocks (which maps nearby block starts to one page of the table).
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: heap block of size 12288
// CHECK: in second_writer
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "invisible_barrier.h"

#define SMALL 20000
#define ALIGNED 600
#define BIG 8

ib_flag first_done;
static long *target;

static void *first_writer(void *arg) { (void)arg; target[700] = 1; ib_set(&first_done); return NULL; }
static void *second_writer(void *arg) { (void)arg; ib_wait(&first_done); target[700] = 2; return NULL; }

int main(void)
{
  static char *small[SMALL];
  static void *aligned[ALIGNED];
  static char *big[BIG];
  for (int i = 0; i < SMALL; i++)
    small[i] = malloc(16 + (size_t)(i % 5) * 16);
  for (int i = 0; i < ALIGNED; i++)
    if (posix_memalign(&aligned[i], 4096, i == ALIGNED / 2 ? 12288 : 4096 + (size_t)(i % 3) * 8))
      return 1;
  for (int i = 0; i < BIG; i++)
    big[i] = malloc(((size_t)1 << 17) + (size_t)i * 4096);
  for (int i = 0; i < SMALL; i += 2) {
    free(small[i]);
    small[i] = NULL;
  }
  target = aligned[ALIGNED / 2];
  pthread_t a, b;
  pthread_create(&a, NULL, first_writer, NULL);
  pthread_create(&b, NULL, second_writer, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  long sum = target[700];
  for (int i = 0; i < SMALL; i++)
    free(small[i]);
  for (int i = 0; i < ALIGNED; i++)
    free(aligned[i]);
  for (int i = 0; i < BIG; i++)
    free(big[i]);
  printf("%ld\n", sum);
  return 0;
}
