// VERDICT: norace
// Sixteen threads update a shared heap array and a global under one mutex.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define NT 16
long total;
long *hist;
pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg)
{
  long id = (long)arg;
  for (int i = 0; i < 200; i++) {
    pthread_mutex_lock(&mu);
    total += id;
    hist[(id + i) % 8]++;
    pthread_mutex_unlock(&mu);
  }
  return NULL;
}

int main(void)
{
  pthread_t t[NT];
  hist = calloc(8, sizeof *hist);
  for (long i = 0; i < NT; i++) pthread_create(&t[i], NULL, worker, (void *)i);
  for (int i = 0; i < NT; i++) pthread_join(t[i], NULL);
  long h = 0;
  for (int i = 0; i < 8; i++) h += hist[i];
  printf("total=%ld h=%ld\n", total, h);
  free(hist);
  return total == 200L * (NT * (NT - 1) / 2) && h == 200L * NT ? 0 : 1;
}
