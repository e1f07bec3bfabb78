// VERDICT: norace
// Four threads, three generations of one barrier: each writes its own slot, then reads all slots, then rewrites.
#include <pthread.h>
#include <stdio.h>

#define NT 4
long slot[NT];
long result[NT];
pthread_barrier_t bar;

static void *worker(void *arg)
{
  long me = (long)arg;
  for (int round = 0; round < 3; round++) {
    slot[me] = me + round * 100;          /* write phase */
    pthread_barrier_wait(&bar);
    long s = 0;
    for (int i = 0; i < NT; i++) s += slot[i];   /* read phase */
    result[me] += s;
    pthread_barrier_wait(&bar);
  }
  return NULL;
}

int main(void)
{
  pthread_t t[NT];
  pthread_barrier_init(&bar, NULL, NT);
  for (long i = 0; i < NT; i++) pthread_create(&t[i], NULL, worker, (void *)i);
  for (int i = 0; i < NT; i++) pthread_join(t[i], NULL);
  pthread_barrier_destroy(&bar);
  printf("%ld\n", result[0]);
  return result[0] == (0 + 1 + 2 + 3) + (400 + 6) + (800 + 6) ? 0 : 1;
}
