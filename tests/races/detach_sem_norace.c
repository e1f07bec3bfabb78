// VERDICT: norace
// A detached thread's work is published with sem_post; main waits on the semaphore before reading.
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>

int progress;
sem_t done;

static void *background(void *arg) { progress = 100; sem_post(&done); return NULL; }

int main(void)
{
  pthread_t t;
  pthread_attr_t at;
  sem_init(&done, 0, 0);
  pthread_attr_init(&at);
  pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
  pthread_create(&t, &at, background, NULL);
  pthread_attr_destroy(&at);
  sem_wait(&done);
  printf("%d\n", progress);
  progress = 0;
  return 0;
}
