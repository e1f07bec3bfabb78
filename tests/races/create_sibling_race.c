// VERDICT: race
// A grandchild races with its parent's sibling: creation orders the ancestors only.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'shared'
// CHECK: in grandchild
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

int shared;
ib_flag uncle_wrote, gc_done;

static void *uncle(void *arg) { shared = 1; ib_set(&uncle_wrote); ib_wait(&gc_done); return NULL; }
static void *grandchild(void *arg) { ib_wait(&uncle_wrote); shared = 2; ib_set(&gc_done); return NULL; }
static void *parent(void *arg)
{
  pthread_t t;
  pthread_create(&t, NULL, grandchild, NULL);
  pthread_join(t, NULL);
  return NULL;
}

int main(void)
{
  pthread_t u, p;
  pthread_create(&u, NULL, uncle, NULL);
  pthread_create(&p, NULL, parent, NULL);
  pthread_join(u, NULL);
  pthread_join(p, NULL);
  printf("%d\n", shared);
  return 0;
}
