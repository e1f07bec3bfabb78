// VERDICT: race
// A thread publishes the address of its __thread variable; another thread writes through it, racing with the owner's own write.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: Location is TLS of
// CHECK: in intruder
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include "invisible_barrier.h"

__thread int tls_value;
_Atomic(int *) leaked;
ib_flag owner_wrote, intruder_done;

static void *owner(void *arg)
{
  atomic_store_explicit(&leaked, &tls_value, memory_order_release);
  tls_value = 1;                       /* after the release: not published */
  ib_set(&owner_wrote);
  ib_wait(&intruder_done);
  return (void *)(long)tls_value;
}

static void *intruder(void *arg)
{
  int *p;
  while (!(p = atomic_load_explicit(&leaked, memory_order_acquire))) { }
  ib_wait(&owner_wrote);
  *p = 2;                              /* races with the owner's write to its own TLS */
  ib_set(&intruder_done);
  return NULL;
}

int main(void)
{
  pthread_t a, b;
  void *v;
  pthread_create(&a, NULL, owner, NULL);
  pthread_create(&b, NULL, intruder, NULL);
  pthread_join(a, &v);
  pthread_join(b, NULL);
  printf("%ld\n", (long)v);
  return 0;
}
