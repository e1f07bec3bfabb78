// VERDICT: race
// One access (in touch) reached from two callers, the first a thousand times: the report of the
// race through the second must name the second caller. The origin memo keys a site by the stack's
// id, which a return puts back to the caller's: a key that only tells the depth would name via_a.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'shared'
// CHECK: #0 touch
// CHECK: #1 via_b
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

int shared, safe;
ib_flag done;

__attribute__((noinline)) static void touch(int *p) { *p += 1; }
__attribute__((noinline)) static void via_a(int *p) { touch(p); }
__attribute__((noinline)) static void via_b(int *p) { touch(p); }

static void *first(void *arg)
{
  for (int i = 0; i < 1000; i++)
    via_a(&safe);
  via_b(&shared);
  ib_set(&done);
  return NULL;
}

static void *second(void *arg)
{
  ib_wait(&done);
  shared = 5;
  return NULL;
}

int main(void)
{
  pthread_t a, b;
  pthread_create(&a, NULL, first, NULL);
  pthread_create(&b, NULL, second, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("%d %d\n", shared, safe);
  return 0;
}
