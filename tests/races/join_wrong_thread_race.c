// VERDICT: race
// Main joins one worker but reads what the other (not yet joined) worker wrote.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'from_b'
// CHECK: in main
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

int from_a, from_b;
ib_flag b_written, read_done;

static void *worker_a(void *arg) { from_a = 1; return NULL; }
static void *worker_b(void *arg) { from_b = 2; ib_set(&b_written); ib_wait(&read_done); return NULL; }

int main(void)
{
  pthread_t a, b;
  pthread_create(&a, NULL, worker_a, NULL);
  pthread_create(&b, NULL, worker_b, NULL);
  pthread_join(a, NULL);
  ib_wait(&b_written);
  int v = from_a + from_b;              /* from_a is fine, from_b races */
  ib_set(&read_done);
  pthread_join(b, NULL);
  printf("%d\n", v);
  return 0;
}
