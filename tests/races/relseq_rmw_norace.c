// VERDICT: norace
// ALGORITHMS.md 4.G: a relaxed RMW by a third thread continues the release sequence; the acquirer that reads the RMW's value still synchronises with the release store.
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

int data;
atomic_int flag;

static void *publisher(void *arg) { data = 42; atomic_store_explicit(&flag, 1, memory_order_release); return NULL; }

static void *bumper(void *arg)
{
  while (atomic_load_explicit(&flag, memory_order_relaxed) != 1) { }
  atomic_fetch_add_explicit(&flag, 1, memory_order_relaxed);          /* 1 -> 2 */
  return NULL;
}

static void *reader(void *arg)
{
  while (atomic_load_explicit(&flag, memory_order_acquire) != 2) { }
  return (void *)(long)data;
}

int main(void)
{
  pthread_t t[3];
  void *v;
  pthread_create(&t[2], NULL, reader, NULL);
  pthread_create(&t[1], NULL, bumper, NULL);
  pthread_create(&t[0], NULL, publisher, NULL);
  pthread_join(t[0], NULL);
  pthread_join(t[1], NULL);
  pthread_join(t[2], &v);
  printf("%ld\n", (long)v);
  return (long)v == 42 ? 0 : 3;
}
