// VERDICT: race
// A word accessed only atomically by two threads (a relaxed load, then the other thread's relaxed
// store: no race between atomics), loaded again by the first thread in a later epoch, then written
// plainly by the second, which follows the first load (the mutex orders it) but not the second.
// The second load's record must replace the first one's with the later position.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'word'
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

long word;
long seen;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
ib_flag a_loaded, b_synced, a_reloaded;

static void *loader(void *arg)
{
  seen += __atomic_load_n(&word, __ATOMIC_RELAXED);
  pthread_mutex_lock(&m);
  pthread_mutex_unlock(&m);  /* releases the first load */
  ib_set(&a_loaded);
  ib_wait(&b_synced);
  seen += __atomic_load_n(&word, __ATOMIC_RELAXED);   /* after its last release */
  ib_set(&a_reloaded);
  return NULL;
}

static void *storer(void *arg)
{
  ib_wait(&a_loaded);
  __atomic_store_n(&word, 5, __ATOMIC_RELAXED);   /* atomic vs atomic: no race */
  pthread_mutex_lock(&m);    /* ordered after the first load only */
  pthread_mutex_unlock(&m);
  ib_set(&b_synced);
  ib_wait(&a_reloaded);
  word = 9;                  /* plain: races with the second load */
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
