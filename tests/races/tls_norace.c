// VERDICT: norace
// Each thread increments its own __thread counter and a thread-local array: same symbol, different memory.
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

__thread long tls_counter;
__thread int tls_table[16];
ib_barrier all;

static void *worker(void *arg)
{
  ib_barrier_wait(&all, 4);
  for (int i = 0; i < 1000; i++) { tls_counter++; tls_table[i % 16] += i; }
  return (void *)tls_counter;
}

int main(void)
{
  pthread_t t[4];
  long s = 0;
  for (int i = 0; i < 4; i++) pthread_create(&t[i], NULL, worker, NULL);
  for (int i = 0; i < 4; i++) { void *v; pthread_join(t[i], &v); s += (long)v; }
  tls_counter = s;
  printf("%ld\n", tls_counter);
  return s == 4000 ? 0 : 1;
}
