// VERDICT: norace
// Correct double-checked locking: acquire load on the fast path, release store of the fully built instance under the mutex.
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

struct singleton { int value; int table[8]; };
_Atomic(struct singleton *) instance;
pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static struct singleton *get_instance(void)
{
  struct singleton *s = atomic_load_explicit(&instance, memory_order_acquire);
  if (!s) {
    pthread_mutex_lock(&mu);
    s = atomic_load_explicit(&instance, memory_order_relaxed);
    if (!s) {
      s = malloc(sizeof *s);
      s->value = 42;
      for (int i = 0; i < 8; i++) s->table[i] = i;
      atomic_store_explicit(&instance, s, memory_order_release);
    }
    pthread_mutex_unlock(&mu);
  }
  return s;
}

static void *user(void *arg) { struct singleton *s = get_instance(); return (void *)(long)(s->value + s->table[7]); }

int main(void)
{
  pthread_t t[4];
  long sum = 0;
  for (int i = 0; i < 4; i++) pthread_create(&t[i], NULL, user, NULL);
  for (int i = 0; i < 4; i++) { void *v; pthread_join(t[i], &v); sum += (long)v; }
  printf("%ld\n", sum);
  free(atomic_load(&instance));
  return sum == 4 * 49 ? 0 : 1;
}
