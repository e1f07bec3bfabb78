// VERDICT: norace
// A successful pthread_spin_trylock is an acquire.
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

long counter;
pthread_spinlock_t sl;
ib_flag released;

static void *holder(void *arg)
{
  pthread_spin_lock(&sl);
  counter = 10;
  pthread_spin_unlock(&sl);
  ib_set(&released);
  return NULL;
}

static void *prober(void *arg)
{
  ib_wait(&released);
  if (pthread_spin_trylock(&sl) != 0) return (void *)-1L;
  counter++;
  pthread_spin_unlock(&sl);
  return NULL;
}

int main(void)
{
  pthread_t a, b;
  void *rc;
  pthread_spin_init(&sl, PTHREAD_PROCESS_PRIVATE);
  pthread_create(&a, NULL, holder, NULL);
  pthread_create(&b, NULL, prober, NULL);
  pthread_join(a, NULL);
  pthread_join(b, &rc);
  printf("%ld\n", counter);
  return rc == NULL && counter == 11 ? 0 : 3;
}
