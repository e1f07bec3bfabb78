// VERDICT: norace
// A worker fills main's stack array; main reads it only after the join.
#include <pthread.h>
#include <stdio.h>

static void *worker(void *arg) { int *a = arg; for (int i = 0; i < 8; i++) a[i] = i * i; return NULL; }

int main(void)
{
  int local[8] = {0};
  pthread_t t;
  pthread_create(&t, NULL, worker, local);
  pthread_join(t, NULL);
  int s = 0;
  for (int i = 0; i < 8; i++) s += local[i];
  printf("%d\n", s);
  return s == 140 ? 0 : 1;
}
