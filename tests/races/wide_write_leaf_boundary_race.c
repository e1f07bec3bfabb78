// VERDICT: race
// A 16-byte write whose first granule is the writer's own one-thread record (updated on the
// lock-free fast path) and whose second granule holds another thread's earlier write: the second
// piece must still be checked. The write straddles a 64 KiB boundary, where one shadow leaf ends
// and the next begins, so the second granule's shadow is not next to the first's.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: Write of size 16
// CHECK: Previous write of size 1
// CHECK: in t1
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "invisible_barrier.h"

#define LEAF 65536
static unsigned char *buf;     /* 2 * LEAF bytes, LEAF-aligned */
static pthread_mutex_t own = PTHREAD_MUTEX_INITIALIZER;
ib_flag t2_wrote;

static void *t1(void *arg)
{
  (void)arg;
  long *first = (long *)(buf + LEAF - 8);
  for (int round = 0; round < 8; round++) {
    *first += round;                 /* T1's own granule, a new epoch each round */
    pthread_mutex_lock(&own);
    pthread_mutex_unlock(&own);
  }
  ib_wait(&t2_wrote);
  *(volatile __int128 *)(buf + LEAF - 8) = (__int128)*first << 8;   /* bytes LEAF-8 .. LEAF+7 */
  return NULL;
}

static void *t2(void *arg)
{
  (void)arg;
  buf[LEAF + 3] = 7;                 /* the second granule, first in the next leaf */
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
