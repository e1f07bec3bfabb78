// VERDICT: norace
// Release/acquire message passing through 1-, 2- and 8-byte atomics, each publishing its own payload.
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

int p8, p16, p64;
_Atomic uint8_t f8;
_Atomic uint16_t f16;
_Atomic uint64_t f64;

static void *producer(void *arg)
{
  p8 = 1;  atomic_store_explicit(&f8, 1, memory_order_release);
  p16 = 2; atomic_store_explicit(&f16, 1, memory_order_release);
  p64 = 3; atomic_store_explicit(&f64, 1, memory_order_release);
  return NULL;
}

static void *consumer(void *arg)
{
  long s = 0;
  while (!atomic_load_explicit(&f64, memory_order_acquire)) { }
  s += p64;
  while (!atomic_load_explicit(&f16, memory_order_acquire)) { }
  s += p16;
  while (!atomic_load_explicit(&f8, memory_order_acquire)) { }
  s += p8;
  return (void *)s;
}

int main(void)
{
  pthread_t a, b;
  void *s;
  pthread_create(&b, NULL, consumer, NULL);
  pthread_create(&a, NULL, producer, NULL);
  pthread_join(a, NULL);
  pthread_join(b, &s);
  printf("%ld\n", (long)s);
  return (long)s == 6 ? 0 : 3;
}
