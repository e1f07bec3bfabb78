// VERDICT: race
// A worker copies into its own 4 KiB buffer again and again, one lock round between copies (each
// copy a new epoch: the buffer's records are the worker's, updated in place by the range's
// shortcut). main takes the lock after the last round, so it is ordered after all those copies,
// but the worker then copies once more: main's read of a byte of that copy races with it.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'buf'
// CHECK: in main
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "invisible_barrier.h"

#define SIZE 4096
char src[SIZE], buf[SIZE];
size_t volatile n = SIZE;   /* non-constant: a real memcpy call */
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int rounds;
ib_flag synced, copied, read_done;

static void *copier(void *arg)
{
  for (int i = 0; i < 64; i++) {
    src[i] = (char)i;
    memcpy(buf, src, n);
    pthread_mutex_lock(&m);
    rounds++;
    pthread_mutex_unlock(&m);
  }
  ib_wait(&synced);
  memcpy(buf, src, n);
  ib_set(&copied);
  ib_wait(&read_done);
  return arg;
}

int main(void)
{
  pthread_t t;
  pthread_create(&t, NULL, copier, NULL);
  for (int done = 0; !done;) {
    pthread_mutex_lock(&m);
    done = rounds == 64;
    pthread_mutex_unlock(&m);
    if (!done)
      ib_yield();
  }
  ib_set(&synced);
  ib_wait(&copied);
  int v = buf[2000];
  ib_set(&read_done);
  pthread_join(t, NULL);
  printf("%d %d\n", v, rounds);
  return 0;
}
