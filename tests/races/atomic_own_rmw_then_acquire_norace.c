// VERDICT: norace
// A thread that acquired a flag once bumps it with a relaxed RMW and loads it
// with acquire, over and over. Another thread writes data, then adds to the
// flag with a release RMW. The reader's own RMW after that one continues its
// release sequence, so the reader's next acquire load synchronises with the
// writer even though the value it reads is its own: the reader's own store
// must not count as "nothing new to acquire" when another thread stored in
// between.
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

atomic_long flag;
atomic_int started, beat;
long data;

static void *writer(void *arg)
{
  (void)arg;
  atomic_store_explicit(&flag, 1, memory_order_release);
  while (atomic_load_explicit(&started, memory_order_acquire) == 0) { }
  data = 42;
  atomic_fetch_add_explicit(&flag, 1L << 40, memory_order_release);
  return NULL;
}

int main(void)
{
  pthread_t t;
  pthread_create(&t, NULL, writer, NULL);
  while (atomic_load_explicit(&flag, memory_order_acquire) == 0) { }   /* the writer's first store */
  atomic_store_explicit(&started, 1, memory_order_release);
  int i = 0;
  for (;;) {
    atomic_fetch_add_explicit(&flag, 2, memory_order_relaxed);
    if (atomic_load_explicit(&flag, memory_order_acquire) >= (1L << 40))
      break;
    atomic_store_explicit(&beat, ++i, memory_order_release);
  }
  long d = data;
  pthread_join(t, NULL);
  printf("%ld %d\n", d, atomic_load(&beat) >= 0);
  return d == 42 ? 0 : 1;
}
