// VERDICT: norace
// Main fills a heap block, threads read it, main rewrites it after joining and frees it.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static void *reader(void *arg)
{
  long *b = arg, s = 0;
  for (int i = 0; i < 32; i++) s += b[i];
  return (void *)s;
}

int main(void)
{
  long *block = malloc(32 * sizeof(long));
  pthread_t t[2];
  long sum = 0;
  for (int i = 0; i < 32; i++) block[i] = i;
  for (int i = 0; i < 2; i++) pthread_create(&t[i], NULL, reader, block);
  for (int i = 0; i < 2; i++) { void *r; pthread_join(t[i], &r); sum += (long)r; }
  for (int i = 0; i < 32; i++) block[i] = -i;
  printf("sum=%ld %ld\n", sum, block[31]);
  free(block);
  return sum == 2 * 496 ? 0 : 1;
}
