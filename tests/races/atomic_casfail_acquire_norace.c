// VERDICT: norace
// A failed compare-exchange with acquire failure order still reads the released value and synchronises.
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

int data;
atomic_int flag;

static void *producer(void *arg) { data = 42; atomic_store_explicit(&flag, 1, memory_order_release); return NULL; }

static void *consumer(void *arg)
{
  int expected;
  do {
    expected = 5;                       /* never 5: every CAS fails, returning the current value */
    atomic_compare_exchange_strong_explicit(&flag, &expected, 6, memory_order_acquire, memory_order_acquire);
  } while (expected != 1);
  return (void *)(long)data;
}

int main(void)
{
  pthread_t a, b;
  void *v;
  pthread_create(&b, NULL, consumer, NULL);
  pthread_create(&a, NULL, producer, NULL);
  pthread_join(a, NULL);
  pthread_join(b, &v);
  printf("%ld\n", (long)v);
  return (long)v == 42 ? 0 : 3;
}
