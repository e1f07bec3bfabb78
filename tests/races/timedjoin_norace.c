// VERDICT: norace
// pthread_timedjoin_np that succeeds orders the thread's writes before main's reads.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <time.h>

int result;

static void *worker(void *arg) { result = 42; return NULL; }

int main(void)
{
  pthread_t t;
  struct timespec ts;
  pthread_create(&t, NULL, worker, NULL);
  clock_gettime(CLOCK_REALTIME, &ts);
  ts.tv_sec += 30;
  if (pthread_timedjoin_np(t, NULL, &ts) != 0) return 3;
  printf("%d\n", result);
  result = 0;
  return 0;
}
