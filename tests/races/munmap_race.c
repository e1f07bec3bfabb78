// VERDICT: race
// A worker reads a mapped page; main then unmaps it with nothing ordering the read before the munmap (an invisible flag only forces the order in time): the unmapping races with the read, as a free would.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: (free)
// CHECK: #0 worker
#include <pthread.h>
#include <stdio.h>
#include <sys/mman.h>
#include "invisible_barrier.h"

#define LEN 4096
static char *page;
static ib_flag read_done;

static void *worker(void *arg)
{
  (void)arg;
  KEEP(page[100]);
  ib_set(&read_done);
  return NULL;
}

int main(void)
{
  page = mmap(NULL, LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (page == MAP_FAILED)
    return 3;
  page[100] = 1;
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  ib_wait(&read_done);
  munmap(page, LEN);
  pthread_join(t, NULL);
  puts("done");
  return 0;
}
