// VERDICT: norace
// Readers poll a version under the read lock, again and again, and read the data it announces after unlocking;
// between a reader's polls the writer publishes under the write lock. Each reader's plain read is ordered after
// the write by its read lock that saw the new version (a repeated read lock with no write unlock in between
// adds no order of its own: the engine may leave it out, never the one after a write unlock).
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

#define ROUNDS 4
int data[ROUNDS + 1];
int version;
pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
ib_barrier round_seen;

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
    sum += data[r];                    /* after the unlock */
    ib_barrier_wait(&round_seen, 3);   /* the writer's next round starts after both readers saw this one */
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
    data[r] = 10 * r;
    version = r;
    pthread_rwlock_unlock(&rw);
    ib_barrier_wait(&round_seen, 3);
  }
  for (int i = 0; i < 2; i++) { void *s; pthread_join(t[i], &s); sum += (long)s; }
  printf("sum=%ld\n", sum);
  return sum == 200 ? 0 : 1;
}
