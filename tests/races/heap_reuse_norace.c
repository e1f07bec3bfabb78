// VERDICT: norace
// malloc/free/malloc of same-sized blocks by different threads ordered by join: a new allocation starts a fresh lifetime.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static void *user(void *arg)
{
  long *p = malloc(48);
  for (int i = 0; i < 6; i++) p[i] = (long)arg;
  long s = p[5];
  free(p);
  return (void *)s;
}

int main(void)
{
  long s = 0;
  for (long i = 1; i <= 4; i++) {
    pthread_t t;
    void *v;
    pthread_create(&t, NULL, user, (void *)i);
    pthread_join(t, &v);
    s += (long)v;
  }
  long *p = malloc(48);                 /* likely the same block again, in main */
  p[0] = s;
  printf("%ld\n", p[0]);
  free(p);
  return s == 10 ? 0 : 1;
}
