// VERDICT: norace
// Two threads write the same global, but the first is joined before the second is created.
#include <pthread.h>
#include <stdio.h>

int counter;

static void *writer(void *arg) { counter += (int)(long)arg; return NULL; }

int main(void)
{
  pthread_t a, b;
  pthread_create(&a, NULL, writer, (void *)1L);
  pthread_join(a, NULL);
  pthread_create(&b, NULL, writer, (void *)2L);
  pthread_join(b, NULL);
  printf("counter=%d\n", counter);
  return counter == 3 ? 0 : 1;
}
