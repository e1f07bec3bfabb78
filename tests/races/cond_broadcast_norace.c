// VERDICT: norace
// A starter thread prepares data, sets a flag under the mutex and broadcasts; four waiters then read the data.
#include <pthread.h>
#include <stdio.h>

int data[4];
int go;
pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;

static void *waiter(void *arg)
{
  long i = (long)arg;
  pthread_mutex_lock(&mu);
  while (!go) pthread_cond_wait(&cv, &mu);
  pthread_mutex_unlock(&mu);
  data[i] *= 2;                         /* each waiter owns one slot after the broadcast */
  return NULL;
}

static void *starter(void *arg)
{
  for (int i = 0; i < 4; i++) data[i] = i + 1;
  pthread_mutex_lock(&mu);
  go = 1;
  pthread_cond_broadcast(&cv);
  pthread_mutex_unlock(&mu);
  return NULL;
}

int main(void)
{
  pthread_t w[4], s;
  for (long i = 0; i < 4; i++) pthread_create(&w[i], NULL, waiter, (void *)i);
  pthread_create(&s, NULL, starter, NULL);
  pthread_join(s, NULL);
  for (int i = 0; i < 4; i++) pthread_join(w[i], NULL);
  printf("%d %d %d %d\n", data[0], data[1], data[2], data[3]);
  return data[3] == 8 ? 0 : 1;
}
