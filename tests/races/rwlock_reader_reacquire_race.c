// VERDICT: race
// As rwlock_reader_reacquire_norace, but the writer stores each round's data after its write unlock: the
// readers' read locks order them after the version, not after that store, so every round's read races.
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

#define ROUNDS 4
int data[ROUNDS + 1];
int version;
pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
ib_barrier round_seen;
ib_flag stored[ROUNDS + 1];

static void *reader(void *arg)
{
  long sum = 0;
  (void)arg;
  for (int r = 1; r <= ROUNDS; r++) {
    int v;
    do {
      pthread_rwlock_rdlock(&rw);
      v = version;
      pthread_rwlock_unlock(&rw);
    } while (v < r);
    ib_wait(&stored[r]);               /* the store has happened (unseen by the detector) */
    sum += data[r];
    ib_barrier_wait(&round_seen, 3);
  }
  return (void *)sum;
}

int main(void)
{
  pthread_t t[2];
  long sum = 0;
  for (int i = 0; i < 2; i++) pthread_create(&t[i], NULL, reader, NULL);
  for (int r = 1; r <= ROUNDS; r++) {
    pthread_rwlock_wrlock(&rw);
    version = r;
    pthread_rwlock_unlock(&rw);
    data[r] = 10 * r;                  /* after the unlock: unordered with the readers */
    ib_set(&stored[r]);
    ib_barrier_wait(&round_seen, 3);
  }
  for (int i = 0; i < 2; i++) { void *s; pthread_join(t[i], &s); sum += (long)s; }
  printf("sum=%ld\n", sum);
  return sum == 200 ? 0 : 1;
}
