// VERDICT: norace
// pthread spinlock protecting a counter incremented by three threads.
#include <pthread.h>
#include <stdio.h>

long counter;
pthread_spinlock_t sl;

static void *worker(void *arg)
{
  for (int i = 0; i < 500; i++) {
    pthread_spin_lock(&sl);
    counter++;
    pthread_spin_unlock(&sl);
  }
  return NULL;
}

int main(void)
{
  pthread_t t[3];
  pthread_spin_init(&sl, PTHREAD_PROCESS_PRIVATE);
  for (int i = 0; i < 3; i++) pthread_create(&t[i], NULL, worker, NULL);
  for (int i = 0; i < 3; i++) pthread_join(t[i], NULL);
  pthread_spin_destroy(&sl);
  printf("counter=%ld\n", counter);
  return counter == 1500 ? 0 : 1;
}
