// VERDICT: norace
// Two threads take the same mutexes thousands of times while main waits in
// pthread_join: the interceptor's short spin before sleeping (mutex_spin) is
// on, as the runnable threads fit on two CPUs. Every acquisition, spun or
// slept, is the same LOCK_ACQ; the mutex types answer as without the spin: a
// recursive mutex is re-taken by its owner, an error-checking one reports
// EDEADLK to its owner instead of spinning forever. Exit 1 on a wrong count.
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>

#define ROUNDS 20000

long counter, nested;
int deadlk;
pthread_mutex_t plain = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t recursive, checking;

static void *worker(void *arg)
{
  (void)arg;
  for (int i = 0; i < ROUNDS; i++) {
    pthread_mutex_lock(&plain);
    counter++;
    pthread_mutex_unlock(&plain);
    if (i % 64 == 0) {
      pthread_mutex_lock(&recursive);
      pthread_mutex_lock(&recursive);
      nested++;
      pthread_mutex_unlock(&recursive);
      pthread_mutex_unlock(&recursive);
      pthread_mutex_lock(&checking);
      if (pthread_mutex_lock(&checking) == EDEADLK)
        deadlk++;
      pthread_mutex_unlock(&checking);
    }
  }
  return NULL;
}

int main(void)
{
  pthread_mutexattr_t at;
  pthread_mutexattr_init(&at);
  pthread_mutexattr_settype(&at, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&recursive, &at);
  pthread_mutexattr_settype(&at, PTHREAD_MUTEX_ERRORCHECK);
  pthread_mutex_init(&checking, &at);
  pthread_t a, b;
  pthread_create(&a, NULL, worker, NULL);
  pthread_create(&b, NULL, worker, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  long want_nested = 2 * ((ROUNDS + 63) / 64);
  printf("counter %ld nested %ld deadlk %d\n", counter, nested, deadlk);
  return counter == 2 * ROUNDS && nested == want_nested && deadlk == want_nested ? 0 : 1;
}
