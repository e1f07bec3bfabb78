// VERDICT: norace
// A hand-written spinlock: exchange(acquire) to lock, store(release) to unlock, protecting a plain counter.
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

atomic_int lockword;
long counter;

static void *worker(void *arg)
{
  for (int i = 0; i < 500; i++) {
    while (atomic_exchange_explicit(&lockword, 1, memory_order_acquire)) { }
    counter++;
    atomic_store_explicit(&lockword, 0, memory_order_release);
  }
  return NULL;
}

int main(void)
{
  pthread_t t[3];
  for (int i = 0; i < 3; i++) pthread_create(&t[i], NULL, worker, NULL);
  for (int i = 0; i < 3; i++) pthread_join(t[i], NULL);
  printf("%ld\n", counter);
  return counter == 1500 ? 0 : 1;
}
