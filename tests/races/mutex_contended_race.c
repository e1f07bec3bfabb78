// VERDICT: race
// Two threads contend for one mutex (the interceptor's short spin before
// sleeping is on: main waits in pthread_join, the runnable threads fit on two
// CPUs), then each writes `last` after its final unlock. No release follows
// either write, so they are unordered in every interleaving, however the
// acquisitions were made.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'last'
#include <pthread.h>
#include <stdio.h>

long counter, last;
pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg)
{
  for (int i = 0; i < 20000; i++) {
    pthread_mutex_lock(&mu);
    counter++;
    pthread_mutex_unlock(&mu);
  }
  last = (long)arg;
  return NULL;
}

int main(void)
{
  pthread_t a, b;
  pthread_create(&a, NULL, worker, (void *)1);
  pthread_create(&b, NULL, worker, (void *)2);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("%ld %ld\n", counter, last);
  return 0;
}
