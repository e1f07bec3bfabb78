// VERDICT: norace
// Detached threads exit and glibc reuses their stacks for new threads: a new thread's stack is fresh memory, not shared with the dead thread.
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "invisible_barrier.h"

ib_flag finished;

static void *worker(void *arg)
{
  volatile char frame[2048];
  for (int i = 0; i < 2048; i += 64) frame[i] = (char)(long)arg;
  long s = frame[64];
  ib_set(&finished);
  return (void *)s;
}

int main(void)
{
  for (int round = 0; round < 8; round++) {
    pthread_t t;
    pthread_create(&t, NULL, worker, (void *)(long)round);
    pthread_detach(t);
    ib_wait_ge(&finished, round + 1);
    ib_spin(20000);                    /* give the dead thread time to leave, so its stack is cached */
  }
  puts("done");
  return 0;
}
