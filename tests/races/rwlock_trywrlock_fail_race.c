// VERDICT: race
// A failed pthread_rwlock_trywrlock (reader holds the lock) orders nothing with the holder's earlier write.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'value'
// CHECK: in prober
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

int value;
pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
ib_flag holding, probed;

static void *holder(void *arg)
{
  value = 1;
  pthread_rwlock_rdlock(&rw);
  ib_set(&holding);
  ib_wait(&probed);
  pthread_rwlock_unlock(&rw);
  return NULL;
}

static void *prober(void *arg)
{
  ib_wait(&holding);
  int rc = pthread_rwlock_trywrlock(&rw);
  value = 2;
  ib_set(&probed);
  return rc == EBUSY ? NULL : (void *)-1L;
}

int main(void)
{
  pthread_t a, b;
  void *rc;
  pthread_create(&a, NULL, holder, NULL);
  pthread_create(&b, NULL, prober, NULL);
  pthread_join(a, NULL);
  pthread_join(b, &rc);
  printf("value=%d\n", value);
  return rc == NULL ? 0 : 3;
}
