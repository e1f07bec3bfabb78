// VERDICT: norace
// Helgrind+ two signal/wait pairs on one condition variable (ALGORITHMS.md 4.D): both waiters wait before either signal.
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include "invisible_barrier.h"

int X, Y;
int F1, F2;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
ib_flag about_to_wait;

/* One cv, two predicates: a signal may wake the "wrong" waiter, which goes back
 * to sleep; the short timeout re-checks so that the program cannot hang. */
static void wait_a_bit(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  ts.tv_nsec += 10 * 1000 * 1000;
  if (ts.tv_nsec >= 1000000000) { ts.tv_sec++; ts.tv_nsec -= 1000000000; }
  pthread_cond_timedwait(&cv, &m, &ts);
}

static void *s1(void *arg)
{
  ib_wait_ge(&about_to_wait, 2);
  X = 1;
  pthread_mutex_lock(&m);      /* succeeds only once both waiters released m inside wait */
  F1 = 1;
  pthread_cond_signal(&cv);
  pthread_mutex_unlock(&m);
  return NULL;
}

static void *s2(void *arg)
{
  ib_wait_ge(&about_to_wait, 2);
  Y = 1;
  pthread_mutex_lock(&m);
  F2 = 1;
  pthread_cond_signal(&cv);
  pthread_mutex_unlock(&m);
  return NULL;
}

static void *w1(void *arg)
{
  pthread_mutex_lock(&m);
  ib_set(&about_to_wait);
  while (F1 != 1) wait_a_bit();
  pthread_mutex_unlock(&m);
  X = 2;
  return NULL;
}

static void *w2(void *arg)
{
  pthread_mutex_lock(&m);
  ib_set(&about_to_wait);
  while (F2 != 1) wait_a_bit();
  pthread_mutex_unlock(&m);
  Y = 2;
  return NULL;
}

int main(void)
{
  pthread_t t[4];
  void *(*fn[4])(void *) = {s1, s2, w1, w2};
  for (int i = 0; i < 4; i++) pthread_create(&t[i], NULL, fn[i], NULL);
  for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
  printf("X=%d Y=%d\n", X, Y);
  return X == 2 && Y == 2 ? 0 : 1;
}
