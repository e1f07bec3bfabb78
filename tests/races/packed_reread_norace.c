// VERDICT: norace
// A word read by two threads that nothing orders (its history becomes two readers' cells next to
// the initial write), then read again by the first in a later epoch, which then releases a mutex
// that the second acquires before it writes the word: every read is ordered before the write.
// The second read's record must not start after the release that orders it.
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

long bound = 1;
long seen[2];
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
ib_flag first_read, b_read, second_read;

static void *reader(void *arg)
{
  pthread_mutex_lock(&m);
  seen[0] += bound;          /* first read */
  pthread_mutex_unlock(&m);
  ib_set(&first_read);
  ib_wait(&b_read);
  pthread_mutex_lock(&m);
  seen[0] += bound;          /* second read, in a later epoch */
  pthread_mutex_unlock(&m);  /* released here */
  ib_set(&second_read);
  return NULL;
}

static void *writer(void *arg)
{
  ib_wait(&first_read);
  seen[1] += bound;          /* a second reader, unordered with the first */
  ib_set(&b_read);
  ib_wait(&second_read);
  pthread_mutex_lock(&m);    /* acquires the reader's last release */
  bound = 2;
  pthread_mutex_unlock(&m);
  return NULL;
}

int main(void)
{
  pthread_t a, b;
  pthread_create(&a, NULL, reader, NULL);
  pthread_create(&b, NULL, writer, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("%ld %ld %ld\n", bound, seen[0], seen[1]);
  return 0;
}
