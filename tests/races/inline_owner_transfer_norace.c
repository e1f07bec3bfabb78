// VERDICT: norace
// Inline records change owner: main initialises the array, then in every phase each worker
// takes the next worker's slice (ownership moves through the barrier), reads its neighbours'
// border elements of the previous phase and rewrites its slice. Every access is ordered by the
// barrier or by create/join: a one-owner record must move to the new owner (expanded and folded
// back) without ever reporting the previous owner's accesses.
#include <pthread.h>
#include <stdio.h>

#define T 4
#define SLICE 64
#define PHASES 20
double grid[2][T * SLICE];
pthread_barrier_t bar;

static void *worker(void *arg)
{
  long id = (long)arg;
  for (int p = 0; p < PHASES; p++) {
    const double *src = grid[p & 1];
    double *dst = grid[(p + 1) & 1];
    long s = (id + p) % T;
    for (long i = s * SLICE; i < (s + 1) * SLICE; i++) {
      double left = i > 0 ? src[i - 1] : 0, right = i + 1 < T * SLICE ? src[i + 1] : 0;
      dst[i] = 0.5 * src[i] + 0.25 * (left + right);
    }
    pthread_barrier_wait(&bar);
  }
  return NULL;
}

int main(void)
{
  pthread_t th[T];
  for (int i = 0; i < T * SLICE; i++)
    grid[0][i] = grid[1][i] = i % 7;
  pthread_barrier_init(&bar, NULL, T);
  for (long i = 0; i < T; i++)
    pthread_create(&th[i], NULL, worker, (void *)i);
  for (int i = 0; i < T; i++)
    pthread_join(th[i], NULL);
  double sum = 0;
  for (int i = 0; i < T * SLICE; i++)
    sum += grid[PHASES & 1][i];
  printf("%.3f\n", sum);
  return 0;
}
