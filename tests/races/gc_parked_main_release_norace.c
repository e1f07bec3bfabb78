// VERDICT: norace
// The main thread writes x, releases L and waits in pthread_join. The worker takes L after
// that release (it polls a flag main sets under L), so its read of x is ordered after the
// write. Before the read it churns a private lock: hundreds of thousands of cells, so the
// update list's GC runs several times while main is parked. The GC may leave the set of a
// parked thread's entry unwalked only if that thread appended no cell of its own since the
// entry's pos (gc_frozen); main's release of L is such a cell, so x's entry must be walked.
// (no CHECK: race-free)
#include <pthread.h>
#include <stdio.h>

long x, churn;
int ready;
pthread_mutex_t L = PTHREAD_MUTEX_INITIALIZER, own = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg)
{
  (void)arg;
  for (int r = 0; !r;) {
    pthread_mutex_lock(&L);
    r = ready;
    pthread_mutex_unlock(&L);
  }
  for (int i = 0; i < 600000; i++) {
    pthread_mutex_lock(&own);
    churn++;
    pthread_mutex_unlock(&own);
  }
  return (void *)(x + churn);
}

int main(void)
{
  pthread_t w;
  void *r;
  pthread_create(&w, NULL, worker, NULL);
  x = 42;
  pthread_mutex_lock(&L);
  ready = 1;
  pthread_mutex_unlock(&L);
  pthread_join(w, &r);
  printf("%ld\n", (long)r);
  return 0;
}
