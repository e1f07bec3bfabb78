// VERDICT: norace
// A worker copies into its own 4 KiB buffer again and again, one lock round between copies (each
// copy a new epoch: the buffer's records are the worker's, updated in place by the range's
// shortcut); main reads the buffer after taking the lock the worker released after its last copy.
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "invisible_barrier.h"

#define SIZE 4096
char src[SIZE], buf[SIZE];
size_t volatile n = SIZE;   /* non-constant: a real memcpy call */
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int rounds;

static void *copier(void *arg)
{
  for (int i = 0; i < 64; i++) {
    src[i] = (char)i;
    memcpy(buf, src, n);
    pthread_mutex_lock(&m);
    rounds++;
    pthread_mutex_unlock(&m);
  }
  return arg;
}

int main(void)
{
  pthread_t t;
  pthread_create(&t, NULL, copier, NULL);
  int done = 0, v = 0;
  while (!done) {
    pthread_mutex_lock(&m);
    if (rounds == 64) {
      v = buf[2000] + buf[63];
      done = 1;
    }
    pthread_mutex_unlock(&m);
    if (!done)
      ib_yield();
  }
  pthread_join(t, NULL);
  printf("%d\n", v);
  return 0;
}
