// VERDICT: norace
// Two threads increment a global counter, always under the same mutex.
#include <pthread.h>
#include <stdio.h>

int counter;
pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg)
{
  for (int i = 0; i < 1000; i++) {
    pthread_mutex_lock(&mu);
    counter++;
    pthread_mutex_unlock(&mu);
  }
  return NULL;
}

int main(void)
{
  pthread_t a, b;
  pthread_create(&a, NULL, worker, NULL);
  pthread_create(&b, NULL, worker, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("counter=%d\n", counter);
  return counter == 2000 ? 0 : 1;
}
