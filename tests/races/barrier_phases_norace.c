// VERDICT: norace
// pthread_barrier phases: the two threads take turns, one phase each, reading then rewriting a cell the other wrote in the previous phase.
#include <pthread.h>
#include <stdio.h>

int cell;
long seen[2];
pthread_barrier_t bar;

static void *worker(void *arg)
{
  long me = (long)arg;
  for (int phase = 0; phase < 6; phase++) {
    if (phase % 2 == me) {            /* my turn: the other thread wrote cell one phase ago */
      seen[me] += cell;
      cell = phase * 10 + (int)me;
    }
    pthread_barrier_wait(&bar);
  }
  return NULL;
}

int main(void)
{
  pthread_t a, b;
  pthread_barrier_init(&bar, NULL, 2);
  pthread_create(&a, NULL, worker, (void *)0L);
  pthread_create(&b, NULL, worker, (void *)1L);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  pthread_barrier_destroy(&bar);
  printf("%ld %ld %d\n", seen[0], seen[1], cell);
  return 0;
}
