// VERDICT: race
// A split inline record keeps its W's thread itself (origins name no thread): 300 threads run
// and finish first, so the writer is T301. It writes x and releases; T302 acquires and reads x,
// which makes the granule a split record (T301's W, T302's R). T303, ordered with neither,
// then writes x: it races with both, and the report must name T301 as the previous writer and
// T302 as the previous reader (a W thread taken from the wrong place names T302, or T0).
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: in late_writer
// CHECK: by thread T301:
// CHECK: by thread T302:
// CHECK: Thread T301 (tid=
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include "invisible_barrier.h"

#define EARLY 300

long x;
long early_sum;
atomic_int ready;
ib_flag have_read;
long seen;

static void *early(void *arg)
{
  return arg;
}

static void *writer(void *arg)
{
  (void)arg;
  x = 1;
  atomic_store_explicit(&ready, 1, memory_order_release);
  return NULL;
}

static void *reader(void *arg)
{
  (void)arg;
  while (!atomic_load_explicit(&ready, memory_order_acquire))
    ;
  seen = x;               /* ordered after T301's write: a split record */
  ib_set(&have_read);
  return NULL;
}

static void *late_writer(void *arg)
{
  (void)arg;
  ib_wait(&have_read);    /* after the split record exists; no happens-before */
  x = 3;                  /* races with T301's write and T302's read */
  return NULL;
}

int main(void)
{
  for (long i = 0; i < EARLY; i++) {
    pthread_t t;
    void *r;
    pthread_create(&t, NULL, early, (void *)i);
    pthread_join(t, &r);
    early_sum += (long)r;
  }
  pthread_t a, b, c;
  pthread_create(&a, NULL, writer, NULL);
  pthread_create(&b, NULL, reader, NULL);
  pthread_create(&c, NULL, late_writer, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  pthread_join(c, NULL);
  printf("%ld %ld %ld\n", seen, x, early_sum);
  return 0;
}
