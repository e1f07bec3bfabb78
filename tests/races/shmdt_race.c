// VERDICT: race
// A worker writes into two System V segments; main then detaches both with nothing ordering the writes before the shmdt calls (an invisible flag only forces the order in time): each detach races with a write, as a free would. The second segment is attached by the raw system call, which the runtime does not see (as one attached before it was up): its shmdt finds the attachment's size in /proc/self/maps.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: (free)
// CHECK: #0 worker
// CHECK: reported 2 data race(s)
#include <pthread.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "invisible_barrier.h"
#include "shm_segment.h"

#define LEN (3 * 4096 + 100)   /* the writes are on the last page, which only the whole attachment covers */
static char *seen, *unseen;
static ib_flag written;

static void *worker(void *arg)
{
  (void)arg;
  seen[LEN - 1] = 2;
  unseen[LEN - 1] = 2;
  ib_set(&written);
  return NULL;
}

int main(void)
{
  int id = shm_new(LEN);
  seen = shm_attached(id, shmat(id, NULL, 0));
  id = shm_new(LEN);
  unseen = shm_attached(id, (void *)syscall(SYS_shmat, id, NULL, 0));
  if (!seen || !unseen)
    return 3;
  seen[0] = 1;
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  ib_wait(&written);
  shmdt(seen);
  shmdt(unseen);
  pthread_join(t, NULL);
  puts("done");
  return 0;
}
