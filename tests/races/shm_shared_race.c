// VERDICT: race
// Two workers write the same byte of a System V segment attached by main, unordered: an attachment's fresh lifetime starts at shmat, and races inside it are still reported.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: in writer
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"
#include "shm_segment.h"

static char *seg;
static ib_barrier both;

static void *writer(void *arg)
{
  ib_barrier_wait(&both, 2);
  seg[64] = (char)(long)arg;
  return NULL;
}

int main(void)
{
  int id = shm_new(4096);
  seg = shm_attached(id, shmat(id, NULL, 0));
  if (!seg)
    return 3;
  pthread_t a, b;
  pthread_create(&a, NULL, writer, (void *)1);
  pthread_create(&b, NULL, writer, (void *)2);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("%d\n", seg[64] == 1 || seg[64] == 2);
  shmdt(seg);
  return 0;
}
