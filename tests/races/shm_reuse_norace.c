// VERDICT: norace
// A System V segment attached at a fixed address, written and detached by one thread, then another segment attached at the same address and written by another thread, with no happens-before between them: the second attachment is new memory, so the writes do not race (shmdt and shmat end and start a lifetime, as munmap and mmap do).
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include "invisible_barrier.h"
#include "shm_segment.h"

#define LEN 8192
/* Far below the kernel's own choice of addresses (which go down from under
 * the stack), so that no mapping made meanwhile lands in the detached hole. */
#define HINT ((void *)0x200000000000UL)
static char *base;
static ib_flag detached;

static void *first(void *arg)
{
  (void)arg;
  int id = shm_new(LEN);
  char *p = shm_attached(id, shmat(id, base, SHM_REMAP));   /* over main's reservation */
  if (p) {
    p[0] = 1;
    memset(p + 4096, 7, 64);
    shmdt(p);
  }
  ib_set(&detached);
  return p == base ? NULL : (void *)1;
}

static void *second(void *arg)
{
  (void)arg;
  ib_wait(&detached);
  int id = shm_new(LEN);   /* another segment */
  char *q = shm_attached(id, shmat(id, base, 0));   /* the range is free again: no SHM_REMAP */
  if (q != base)
    return (void *)1;
  q[0] = 2;
  q[4096 + 8] = 3;
  int sum = q[0] + q[4096 + 8] + q[4096];   /* q[4096] is 0: a new segment */
  shmdt(q);
  return (void *)(long)(sum != 5);
}

int main(void)
{
  base = mmap(HINT, LEN, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (base == MAP_FAILED)
    return 3;
  pthread_t a, b;
  void *ra, *rb;
  pthread_create(&b, NULL, second, NULL);
  pthread_create(&a, NULL, first, NULL);
  pthread_join(a, &ra);
  pthread_join(b, &rb);
  if (ra || rb) {
    fprintf(stderr, "shmat failed or wrong contents\n");
    return 3;
  }
  puts("ok");
  return 0;
}
