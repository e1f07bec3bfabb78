// VERDICT: norace
// A thread bumps a counter with acq_rel fetch_add over and over (each RMW
// the last operation on it, so its own write leaves its load half nothing
// to acquire); another thread writes data, then adds 2^40 with release (more than
// the bumper's own increments ever reach). The first of the bumper's RMWs
// that reads past 2^40 acquires the writer's
// release and orders the data before the bumper's read of it.
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

atomic_long counter;
atomic_int started, beat;
long data;

static void *writer(void *arg)
{
  (void)arg;
  while (atomic_load_explicit(&started, memory_order_acquire) == 0) { }
  data = 42;
  atomic_fetch_add_explicit(&counter, 1L << 40, memory_order_release);
  return NULL;
}

int main(void)
{
  pthread_t t;
  pthread_create(&t, NULL, writer, NULL);
  atomic_fetch_add_explicit(&counter, 1, memory_order_acq_rel);
  atomic_store_explicit(&started, 1, memory_order_release);
  int i = 0;
  while (atomic_fetch_add_explicit(&counter, 1, memory_order_acq_rel) < (1L << 40))
    atomic_store_explicit(&beat, ++i, memory_order_release);
  long d = data;
  pthread_join(t, NULL);
  printf("%ld %d\n", d, atomic_load(&beat) >= 0);
  return d == 42 ? 0 : 1;
}
