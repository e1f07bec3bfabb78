// VERDICT: race
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'x'
// CHECK: in worker
// The main thread writes x after starting the worker and then waits in pthread_join; nothing
// orders the write with the worker's read. The worker first churns a private lock (hundreds
// of thousands of cells), so the update list's GC collects x's entry while main is parked and
// has appended no cell since the write: its set {main} is installed unwalked (gc_frozen),
// and must still exclude the worker.
#include <pthread.h>
#include <stdio.h>

long x, churn;
pthread_mutex_t own = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg)
{
  (void)arg;
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
  pthread_join(w, &r);
  printf("%ld\n", (long)r);
  return 0;
}
