// VERDICT: norace
// wide_write_leaf_boundary_race.c with the two threads ordered by a mutex: T2's byte write is
// released before T1's 16-byte write acquires the lock, so the second piece of that write (in the
// next shadow leaf, checked on the locked path while the first piece is T1's lock-free record)
// must find it ordered.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "invisible_barrier.h"

#define LEAF 65536
static unsigned char *buf;     /* 2 * LEAF bytes, LEAF-aligned */
static pthread_mutex_t own = PTHREAD_MUTEX_INITIALIZER, handoff = PTHREAD_MUTEX_INITIALIZER;
ib_flag t2_wrote;

static void *t1(void *arg)
{
  (void)arg;
  long *first = (long *)(buf + LEAF - 8);
  for (int round = 0; round < 8; round++) {
    *first += round;
    pthread_mutex_lock(&own);
    pthread_mutex_unlock(&own);
  }
  ib_wait(&t2_wrote);
  pthread_mutex_lock(&handoff);
  *(volatile __int128 *)(buf + LEAF - 8) = (__int128)*first << 8;
  pthread_mutex_unlock(&handoff);
  return NULL;
}

static void *t2(void *arg)
{
  (void)arg;
  pthread_mutex_lock(&handoff);
  buf[LEAF + 3] = 7;
  pthread_mutex_unlock(&handoff);
  ib_set(&t2_wrote);
  return NULL;
}

int main(void)
{
  buf = aligned_alloc(LEAF, 2 * LEAF);
  if (!buf)
    return 1;
  pthread_t a, b;
  pthread_create(&a, NULL, t1, NULL);
  pthread_create(&b, NULL, t2, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("%d\n", buf[LEAF + 3] + buf[LEAF - 8]);
  free(buf);
  return 0;
}
