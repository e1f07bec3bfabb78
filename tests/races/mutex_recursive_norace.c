// VERDICT: norace
// A recursive mutex taken twice; accesses at both nesting levels and between the inner and outer unlock stay protected.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>

int counter;
pthread_mutex_t mu;

static void bump(void) { pthread_mutex_lock(&mu); counter += 1; pthread_mutex_unlock(&mu); }

static void *worker(void *arg)
{
  for (int i = 0; i < 200; i++) {
    pthread_mutex_lock(&mu);
    counter += 10;
    bump();
    counter += 100;   /* inner level released, outer still held */
    pthread_mutex_unlock(&mu);
  }
  return NULL;
}

int main(void)
{
  pthread_mutexattr_t at;
  pthread_mutexattr_init(&at);
  pthread_mutexattr_settype(&at, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&mu, &at);
  pthread_mutexattr_destroy(&at);
  pthread_t a, b;
  pthread_create(&a, NULL, worker, NULL);
  pthread_create(&b, NULL, worker, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  pthread_mutex_destroy(&mu);
  printf("counter=%d\n", counter);
  return counter == 2 * 200 * 111 ? 0 : 1;
}
