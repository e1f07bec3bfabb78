// VERDICT: race
// Origins are cached per thread by (pc, stack, locks): one statement reached through two
// callers is two origins. t1 writes x through bump() from first() under the lock, many times
// (the cached origin), then once from second() without it; t2 then writes x under the lock.
// t2's write races only with the write from second(), and the report must name that caller.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: Previous write of size 8
// CHECK: #1 second
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

long x;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
ib_flag t1_done;

__attribute__((noinline)) static void bump(long *p) { *p += 1; }
__attribute__((noinline)) static void first(long *p) { bump(p); }
__attribute__((noinline)) static void second(long *p) { bump(p); }

static void *t1(void *arg)
{
  (void)arg;
  for (int i = 0; i < 100; i++) {
    pthread_mutex_lock(&m);
    first(&x);
    pthread_mutex_unlock(&m);
  }
  second(&x);
  ib_set(&t1_done);
  return NULL;
}

static void *t2(void *arg)
{
  (void)arg;
  ib_wait(&t1_done);
  pthread_mutex_lock(&m);
  first(&x);
  pthread_mutex_unlock(&m);
  return NULL;
}

int main(void)
{
  pthread_t a, b;
  pthread_create(&a, NULL, t1, NULL);
  pthread_create(&b, NULL, t2, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("%ld\n", x);
  return 0;
}
