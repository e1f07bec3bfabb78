// VERDICT: race
// A word handed back and forth 200 times under a mutex (each side writes it whole, then passes the
// turn), then written by each side once more without the mutex: the last two writes are
// unordered. Earlier hand-offs leave what each thread learned about the other cached; the race
// must still be found (the new write's position is past anything cached).
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'slot'
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

long slot;
int turn;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
ib_flag first_done;

static void play(int me)
{
  for (int i = 0; i < 200; i++) {
    pthread_mutex_lock(&m);
    while (turn != me)
      pthread_cond_wait(&c, &m);
    slot = slot * 3 + me;
    turn = 1 - me;
    pthread_cond_broadcast(&c);
    pthread_mutex_unlock(&m);
  }
}

static void *ping(void *arg)
{
  play(0);
  slot = 7;              /* after its last unlock: nothing orders it before pong's write */
  ib_set(&first_done);
  return NULL;
}

static void *pong(void *arg)
{
  play(1);
  ib_wait(&first_done);
  slot = 9;
  return NULL;
}

int main(void)
{
  pthread_t a, b;
  pthread_create(&a, NULL, ping, NULL);
  pthread_create(&b, NULL, pong, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("%ld\n", slot);
  return 0;
}
