// VERDICT: norace
// Main writes a global before creating readers and again after joining them.
#include <pthread.h>
#include <stdio.h>

int shared_value;

static void *reader(void *arg) { return (void *)(long)shared_value; }

int main(void)
{
  pthread_t t[4];
  long sum = 0;
  shared_value = 5;
  for (int i = 0; i < 4; i++) pthread_create(&t[i], NULL, reader, NULL);
  for (int i = 0; i < 4; i++) { void *r; pthread_join(t[i], &r); sum += (long)r; }
  shared_value = 6;
  printf("sum=%ld value=%d\n", sum, shared_value);
  return sum == 20 ? 0 : 1;
}
