// VERDICT: norace
// Error-checking mutex used correctly; a relock attempt by the owner fails with EDEADLK without harm.
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>

int counter;
pthread_mutex_t mu;
int bad;

static void *worker(void *arg)
{
  for (int i = 0; i < 300; i++) {
    pthread_mutex_lock(&mu);
    if (i == 0 && pthread_mutex_lock(&mu) != EDEADLK) bad = 1;
    counter++;
    pthread_mutex_unlock(&mu);
  }
  return NULL;
}

int main(void)
{
  pthread_mutexattr_t at;
  pthread_mutexattr_init(&at);
  pthread_mutexattr_settype(&at, PTHREAD_MUTEX_ERRORCHECK);
  pthread_mutex_init(&mu, &at);
  pthread_t a, b;
  pthread_create(&a, NULL, worker, NULL);
  pthread_create(&b, NULL, worker, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("counter=%d bad=%d\n", counter, bad);
  return counter == 600 && !bad ? 0 : 1;
}
