// VERDICT: norace
// A word accessed only atomically by two threads, loaded again by the first thread in a later
// epoch, which then releases a mutex that the second acquires before it writes the word plainly:
// every atomic access is ordered before the write. The second load's record must not start after
// the release that orders it.
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

long word;
long seen;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
ib_flag a_loaded, b_stored, a_reloaded;

static void *loader(void *arg)
{
  seen += __atomic_load_n(&word, __ATOMIC_RELAXED);
  pthread_mutex_lock(&m);
  pthread_mutex_unlock(&m);
  ib_set(&a_loaded);
  ib_wait(&b_stored);
  pthread_mutex_lock(&m);
  seen += __atomic_load_n(&word, __ATOMIC_RELAXED);   /* in a later epoch */
  pthread_mutex_unlock(&m);  /* released here */
  ib_set(&a_reloaded);
  return NULL;
}

static void *storer(void *arg)
{
  ib_wait(&a_loaded);
  __atomic_store_n(&word, 5, __ATOMIC_RELAXED);
  ib_set(&b_stored);
  ib_wait(&a_reloaded);
  pthread_mutex_lock(&m);    /* acquires the release after the second load */
  word = 9;
  pthread_mutex_unlock(&m);
  return NULL;
}

int main(void)
{
  pthread_t a, b;
  pthread_create(&a, NULL, loader, NULL);
  pthread_create(&b, NULL, storer, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("%ld %ld\n", word, seen);
  return 0;
}
