// VERDICT: norace
// Two publishers release through fetch_add(release) on one counter; the reader that sees both increments synchronises with both heads.
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

int data_a, data_b;
atomic_int count;

static void *pub_a(void *arg) { data_a = 1; atomic_fetch_add_explicit(&count, 1, memory_order_release); return NULL; }
static void *pub_b(void *arg) { data_b = 2; atomic_fetch_add_explicit(&count, 1, memory_order_release); return NULL; }

static void *reader(void *arg)
{
  while (atomic_load_explicit(&count, memory_order_acquire) != 2) { }
  return (void *)(long)(data_a + data_b);
}

int main(void)
{
  pthread_t t[3];
  void *v;
  pthread_create(&t[2], NULL, reader, NULL);
  pthread_create(&t[0], NULL, pub_a, NULL);
  pthread_create(&t[1], NULL, pub_b, NULL);
  pthread_join(t[0], NULL);
  pthread_join(t[1], NULL);
  pthread_join(t[2], &v);
  printf("%ld\n", (long)v);
  return (long)v == 3 ? 0 : 3;
}
