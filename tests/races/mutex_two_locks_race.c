// VERDICT: race
// Each thread protects the same counter with a different mutex: no common lock, no ordering.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'counter'
// CHECK: in worker_b
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

int counter;
pthread_mutex_t ma = PTHREAD_MUTEX_INITIALIZER, mb = PTHREAD_MUTEX_INITIALIZER;
ib_flag a_done;

static void *worker_a(void *arg) { pthread_mutex_lock(&ma); counter++; pthread_mutex_unlock(&ma); ib_set(&a_done); return NULL; }
static void *worker_b(void *arg) { ib_wait(&a_done); pthread_mutex_lock(&mb); counter++; pthread_mutex_unlock(&mb); return NULL; }

int main(void)
{
  pthread_t a, b;
  pthread_create(&a, NULL, worker_a, NULL);
  pthread_create(&b, NULL, worker_b, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("counter=%d\n", counter);
  return 0;
}
