// VERDICT: norace
// Dead marks (docs/goldilocks.md): main fills an int array and forks three
// workers, then parks joining them; the workers take turns on the array
// between barriers: in write phases each writes every third element, so the
// two halves of a granule are written by different threads, and in read
// phases every worker reads every element. Each phase's records drop the
// entries the barrier before made dead (main's from before its forks after
// the first); nothing races, and main reads the result after its joins.
#include <pthread.h>
#include <stdio.h>

#define N 96
#define WORKERS 3
#define PHASES 8

int a[N] __attribute__((aligned(8)));
long sums[WORKERS];
pthread_barrier_t bar;

static void *worker(void *arg)
{
  int k = (int)(long)arg;
  for (int p = 0; p < PHASES; p++) {
    if (p % 2 == 0) {
      for (int i = 0; i < N; i++)
        if ((i + p / 2) % WORKERS == k)
          a[i] = p * N + i;
    } else {
      for (int i = 0; i < N; i++)
        sums[k] += a[i];
    }
    pthread_barrier_wait(&bar);
  }
  return NULL;
}

int main(void)
{
  pthread_t t[WORKERS];
  pthread_barrier_init(&bar, NULL, WORKERS);
  for (int i = 0; i < N; i++)
    a[i] = -i;
  for (long k = 0; k < WORKERS; k++)
    pthread_create(&t[k], NULL, worker, (void *)k);
  for (int k = 0; k < WORKERS; k++)
    pthread_join(t[k], NULL);
  long all = 0;
  for (int k = 0; k < WORKERS; k++)
    all += sums[k];
  for (int i = 0; i < N; i++)
    all += a[i];
  printf("%ld\n", all);
  return 0;
}
