// VERDICT: norace
// One thread writes a mapping and moves it elsewhere with mremap; another then maps new memory at the old address and writes it, with no happens-before between the threads: the old address holds new memory, so the writes do not race.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <sys/mman.h>
#include "invisible_barrier.h"

#define LEN 8192
static char *base, *elsewhere;
static ib_flag moved, started, released;

static void *mover(void *arg)
{
  (void)arg;
  ib_set(&started);
  ib_wait(&released);
  char *p = mmap(base, LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
  if (p == MAP_FAILED)
    return (void *)1;
  p[8] = 1;
  p[LEN - 1] = 2;
  char *q = mremap(p, LEN, LEN, MREMAP_MAYMOVE | MREMAP_FIXED, elsewhere);
  if (q != elsewhere || q[8] != 1)
    return (void *)1;
  ib_set(&moved);
  return NULL;
}

static void *reuser(void *arg)
{
  (void)arg;
  ib_set(&started);
  ib_wait(&moved);
  char *p = mmap(base, LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
  if (p == MAP_FAILED)
    return (void *)1;
  p[8] = 3;
  p[LEN - 1] = 4;
  return (void *)(long)(p[8] + p[LEN - 1] != 7);
}

int main(void)
{
  /* Two addresses no one else maps meanwhile: reserved, then given back
   * once both threads run. (Given back before they were created, the
   * freed gap could take the memory the thread creations map, a detector's
   * thread state among it, which the mover's MAP_FIXED then replaced.) */
  base = mmap(NULL, 2 * LEN, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED)
    return 3;
  elsewhere = base + LEN;
  pthread_t a, b;
  void *ra, *rb;
  pthread_create(&b, NULL, reuser, NULL);
  pthread_create(&a, NULL, mover, NULL);
  ib_wait_ge(&started, 2);
  munmap(base, 2 * LEN);
  ib_set(&released);
  pthread_join(a, &ra);
  pthread_join(b, &rb);
  if (ra || rb) {
    fprintf(stderr, "mmap, mremap or the contents failed\n");
    return 3;
  }
  puts("ok");
  return 0;
}
