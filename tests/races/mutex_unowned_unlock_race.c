// VERDICT: race
// A plain mutex unlocked by a thread that does not hold it (undefined in
// POSIX; glibc's normal mutex opens). main locks m and writes x; the other
// thread, once that is done, unlocks m, locks it and reads x. main never
// released m, so nothing orders its write before the read. Goldilocks'
// alock short-circuit ("the write held m, the read holds m, so m was
// released in between") took the read as ordered until a release by a
// non-holder ended the lock's short-circuits (goldi_sync_excludes).
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'x'
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
long x;
ib_flag written;

static void *other(void *arg)
{
  ib_wait(&written);             /* main holds m and has written x (no happens-before) */
  pthread_mutex_unlock(&m);      /* not this thread's */
  pthread_mutex_lock(&m);
  long v = x;
  pthread_mutex_unlock(&m);
  return (void *)v;
}

int main(void)
{
  pthread_t t;
  pthread_create(&t, NULL, other, NULL);
  pthread_mutex_lock(&m);
  x = 42;
  ib_set(&written);
  void *r;
  pthread_join(t, &r);
  printf("%ld\n", (long)r);
  return 0;
}
