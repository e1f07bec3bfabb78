// VERDICT: norace
// A flag loaded with acquire over and over (the stores it reads are another thread's), with a release of another
// location between the loads (so each load is a new synchronisation, not a
// spin's repeat): the loads that read the value already acquired add
// nothing, but the one that reads the writer's new store must still order
// the writer's data before the reader's read of it.
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

atomic_int flag, seen, beat;
long data;

static void *writer(void *arg)
{
  (void)arg;
  atomic_store_explicit(&flag, 1, memory_order_release);
  while (atomic_load_explicit(&seen, memory_order_acquire) == 0) { }
  data = 42;
  atomic_store_explicit(&flag, 2, memory_order_release);
  return NULL;
}

int main(void)
{
  pthread_t t;
  pthread_create(&t, NULL, writer, NULL);
  int i = 0;
  while (atomic_load_explicit(&flag, memory_order_acquire) == 0) { }   /* acquires the first store */
  atomic_store_explicit(&seen, 1, memory_order_release);
  while (atomic_load_explicit(&flag, memory_order_acquire) != 2)
    atomic_store_explicit(&beat, ++i, memory_order_release);
  long d = data;
  pthread_join(t, NULL);
  printf("%ld %d\n", d, atomic_load(&beat) >= 0);
  return d == 42 ? 0 : 1;
}
