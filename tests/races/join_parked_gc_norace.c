// VERDICT: norace
// A main thread blocked in pthread_join while its workers run long enough for several update-list
// collections (docs/goldilocks.md "Bounded memory": a thread waiting in pthread_join counts as
// holding whatever the thread it waits for holds). Each worker fills its own half of `data`, then
// both take one mutex 300,000 times (1.2 M cells); main joins them and reads everything: ordered
// by the joins, no race, and the workers' entries may be dropped while main waits.
#include <pthread.h>
#include <stdio.h>

#define N 4096
static long data[2 * N];
static long hits;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg)
{
  long k = (long)arg;
  for (long i = 0; i < N; i++)
    data[k * N + i] = k * N + i;
  for (int i = 0; i < 300000; i++) {
    pthread_mutex_lock(&m);
    hits++;
    pthread_mutex_unlock(&m);
  }
  return NULL;
}

int main(void)
{
  pthread_t t[2];
  for (long k = 0; k < 2; k++)
    pthread_create(&t[k], NULL, worker, (void *)k);
  pthread_join(t[0], NULL);
  pthread_join(t[1], NULL);
  long sum = 0;
  for (long i = 0; i < 2 * N; i++)
    sum += data[i];
  printf("%ld %ld\n", sum, hits);
  return sum == (2 * N - 1) * N && hits == 600000 ? 0 : 1;
}
