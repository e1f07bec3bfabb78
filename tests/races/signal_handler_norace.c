// VERDICT: norace
// A signal handler sets a volatile sig_atomic_t that the same thread polls; a handler runs on the interrupted thread.
#include <pthread.h>
#include <signal.h>
#include <stdio.h>

volatile sig_atomic_t got_signal;
int work_done;

static void on_usr1(int sig) { got_signal = 1; }

static void *worker(void *arg)
{
  pthread_kill(pthread_self(), SIGUSR1);
  while (!got_signal) { }
  work_done = 1;
  return NULL;
}

int main(void)
{
  struct sigaction sa = {0};
  sa.sa_handler = on_usr1;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGUSR1, &sa, NULL);
  raise(SIGUSR1);                      /* main's own handler run */
  int first = got_signal;
  got_signal = 0;
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  pthread_join(t, NULL);
  printf("%d %d %d\n", first, (int)got_signal, work_done);
  return first && got_signal && work_done ? 0 : 1;
}
