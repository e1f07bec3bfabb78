// VERDICT: norace
// Ownership hand-off: main allocates and fills a block, a worker frees it after receiving it through a mutex-protected slot.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

char *slot;
pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg)
{
  char *p = NULL;
  while (!p) { pthread_mutex_lock(&mu); p = slot; slot = NULL; pthread_mutex_unlock(&mu); }
  long s = p[0] + p[99];
  free(p);
  return (void *)s;
}

int main(void)
{
  pthread_t t;
  void *s;
  pthread_create(&t, NULL, worker, NULL);
  char *p = malloc(100);
  for (int i = 0; i < 100; i++) p[i] = 1;
  pthread_mutex_lock(&mu);
  slot = p;
  pthread_mutex_unlock(&mu);
  pthread_join(t, &s);
  printf("%ld\n", (long)s);
  return (long)s == 2 ? 0 : 1;
}
