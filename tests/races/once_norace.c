// VERDICT: norace
// pthread_once: every caller's return is ordered after the initialiser, which runs exactly once.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

pthread_once_t once = PTHREAD_ONCE_INIT;
int *table;
int init_calls;

static void init_table(void)
{
  init_calls++;
  table = malloc(16 * sizeof *table);
  for (int i = 0; i < 16; i++) table[i] = i * i;
}

static void *user(void *arg)
{
  pthread_once(&once, init_table);
  return (void *)(long)table[(long)arg];
}

int main(void)
{
  pthread_t t[4];
  long s = 0;
  for (long i = 0; i < 4; i++) pthread_create(&t[i], NULL, user, (void *)(i + 1));
  for (int i = 0; i < 4; i++) { void *v; pthread_join(t[i], &v); s += (long)v; }
  printf("s=%ld calls=%d\n", s, init_calls);
  free(table);
  return s == 1 + 4 + 9 + 16 && init_calls == 1 ? 0 : 1;
}
