// VERDICT: norace
// A System V segment ended with munmap instead of shmdt, its range mapped again as anonymous memory that another thread writes, then a shmdt of that address, which the kernel refuses (nothing is attached there): the refused detach must not end the lifetime of the memory now at that address (a write of all of it, racing with the other thread's write). The runtime's table of attachments forgets one that munmap ends.
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/mman.h>
#include "invisible_barrier.h"
#include "shm_segment.h"

#define LEN 16384
static char *mem;
static ib_flag written;

static void *writer(void *arg)
{
  (void)arg;
  mem[100] = 5;   /* unordered with main's shmdt below, and made before it */
  mem[LEN - 1] = 6;
  ib_set(&written);
  return NULL;
}

int main(void)
{
  int id = shm_new(LEN);
  char *p = shm_attached(id, shmat(id, NULL, 0));
  if (!p)
    return 3;
  p[0] = 1;
  if (munmap(p, LEN) != 0)   /* the attachment ends without shmdt */
    return 3;
  mem = mmap(p, LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
  if (mem != p)
    return 3;
  pthread_t t;
  pthread_create(&t, NULL, writer, NULL);
  ib_wait(&written);   /* (no happens-before: only the order of the accesses) */
  int r = shmdt(p);   /* refused: no segment is attached at p any more */
  int e = errno;
  pthread_join(t, NULL);
  if (r != -1 || e != EINVAL) {
    fprintf(stderr, "shmdt of an unmapped attachment: %d (errno %d)\n", r, e);
    return 3;
  }
  printf("%d %d %d\n", mem[0], mem[100], mem[LEN - 1]);   /* 0 5 6: fresh memory, the writer's bytes */
  return 0;
}
