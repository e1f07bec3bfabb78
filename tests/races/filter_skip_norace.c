// VERDICT: norace
// The filter switching off and on again (rt.h, filter windows) while a
// worker re-reads data written before it started and updates its own slots:
// no report, whatever the filter is consulted for.
#include <pthread.h>
#include <stdio.h>

#define N 300000
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static long table[1024];
static long own[2][64];

static void *worker(void *arg) {
  long id = (long)arg, s = 0;
  for (long i = 0; i < N; i++) {
    pthread_mutex_lock(&m);
    s += table[(i * 37) & 1023];   /* each read a new epoch: the filter is skipped */
    pthread_mutex_unlock(&m);
    if ((i & 4095) == 0)
      for (int r = 0; r < 8; r++)  /* then long epochs of repeated reads: consulted */
        for (int j = 0; j < 64; j++)
          own[id][j] += table[j] + s;
  }
  return (void *)s;
}

int main(void) {
  pthread_t t[2];
  for (int i = 0; i < 1024; i++)
    table[i] = i;
  for (long i = 0; i < 2; i++)
    pthread_create(&t[i], NULL, worker, (void *)i);
  long s = 0;
  for (int i = 0; i < 2; i++) {
    void *r;
    pthread_join(t[i], &r);
    s += (long)r + own[i][63];
  }
  table[0] = s;   /* after both joins */
  printf("%ld\n", table[0]);
  return 0;
}
