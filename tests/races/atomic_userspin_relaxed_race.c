// VERDICT: race
// The same hand-written spinlock with relaxed orders: mutual exclusion but no happens-before, the counter races.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'counter'
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

atomic_int lockword;
long counter;

static void *worker(void *arg)
{
  for (int i = 0; i < 500; i++) {
    while (atomic_exchange_explicit(&lockword, 1, memory_order_relaxed)) { }
    counter++;
    atomic_store_explicit(&lockword, 0, memory_order_relaxed);
  }
  return NULL;
}

int main(void)
{
  pthread_t t[2];
  for (int i = 0; i < 2; i++) pthread_create(&t[i], NULL, worker, NULL);
  for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
  printf("%ld\n", counter);
  return 0;
}
