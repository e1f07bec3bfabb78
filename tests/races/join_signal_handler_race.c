// VERDICT: race
// A signal handler that runs in a thread blocked in pthread_join is code of that thread that does
// not wait for the join. Once a program installs a handler, a join no longer counts as waiting in
// the Goldilocks GC's ANY test (docs/goldilocks.md "Bounded memory"), so the handler's write still
// meets the write it races with. main waits for A; A writes v, then A and B take one mutex 300,000
// times each (collections run while main waits); B then sends SIGUSR1 to main, whose handler writes
// v. A's write and the handler's are never ordered (A exits only after the handler ran, which is
// forced invisibly; pthread_kill orders nothing).
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: join_signal_handler_race.c:25
// CHECK: join_signal_handler_race.c:31
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include "invisible_barrier.h"

static long v;
static long hits;
static pthread_t main_thread;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
ib_flag handled;

static void on_usr1(int sig)
{
  v = sig;
  ib_set(&handled);
}

static void *a_fn(void *arg)
{
  v = 1;
  for (int i = 0; i < 300000; i++) {
    pthread_mutex_lock(&m);
    hits++;
    pthread_mutex_unlock(&m);
  }
  ib_wait(&handled);
  return arg;
}

static void *b_fn(void *arg)
{
  for (int i = 0; i < 300000; i++) {
    pthread_mutex_lock(&m);
    hits++;
    pthread_mutex_unlock(&m);
  }
  pthread_kill(main_thread, SIGUSR1);
  return arg;
}

int main(void)
{
  main_thread = pthread_self();
  signal(SIGUSR1, on_usr1);
  pthread_t a, b;
  pthread_create(&a, NULL, a_fn, NULL);
  pthread_create(&b, NULL, b_fn, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("%ld %ld\n", v, hits);
  return 0;
}
