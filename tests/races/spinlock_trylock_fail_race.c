// VERDICT: race
// A failed pthread_spin_trylock orders nothing: the prober reads what the holder wrote under the lock.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'counter'
// CHECK: in prober
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

long counter;
pthread_spinlock_t sl;
ib_flag holding, probed;

static void *holder(void *arg)
{
  pthread_spin_lock(&sl);
  counter = 10;
  ib_set(&holding);
  ib_wait(&probed);
  pthread_spin_unlock(&sl);
  return NULL;
}

static void *prober(void *arg)
{
  ib_wait(&holding);
  int rc = pthread_spin_trylock(&sl);
  long v = counter;
  ib_set(&probed);
  return rc == EBUSY ? (void *)v : (void *)-1L;
}

int main(void)
{
  pthread_t a, b;
  void *v;
  pthread_spin_init(&sl, PTHREAD_PROCESS_PRIVATE);
  pthread_create(&a, NULL, holder, NULL);
  pthread_create(&b, NULL, prober, NULL);
  pthread_join(a, NULL);
  pthread_join(b, &v);
  printf("%ld\n", (long)v);
  return (long)v == 10 ? 0 : 3;
}
