// VERDICT: norace
// Creation is transitive: main writes, creates T1, T1 writes and creates T2, T2 reads both; joins run back up the chain.
#include <pthread.h>
#include <stdio.h>

int a, b;

static void *grandchild(void *arg) { return (void *)(long)(a + b); }

static void *child(void *arg)
{
  pthread_t t;
  void *v;
  b = 2;
  pthread_create(&t, NULL, grandchild, NULL);
  pthread_join(t, &v);
  b = 3;
  return v;
}

int main(void)
{
  pthread_t t;
  void *v;
  a = 1;
  pthread_create(&t, NULL, child, NULL);
  pthread_join(t, &v);
  a = b;
  printf("%ld %d\n", (long)v, a);
  return (long)v == 3 ? 0 : 1;
}
