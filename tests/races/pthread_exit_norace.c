// VERDICT: norace
// A thread leaves through pthread_exit from a nested call; join still orders its writes before main's reads.
#include <pthread.h>
#include <stdio.h>

int result;

static void finish(int v) { result = v; pthread_exit((void *)(long)v); }
static void *worker(void *arg) { finish(42); return NULL; }

int main(void)
{
  pthread_t t;
  void *rv;
  pthread_create(&t, NULL, worker, NULL);
  pthread_join(t, &rv);
  printf("%d %ld\n", result, (long)rv);
  result = 0;
  return (long)rv == 42 ? 0 : 1;
}
