// VERDICT: norace
// memset of a heap buffer by a worker, ordered before main's reads by join.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *clearer(void *arg) { memset(arg, 7, 4096); return NULL; }

int main(void)
{
  unsigned char *buf = malloc(4096);
  pthread_t t;
  buf[0] = 1;
  pthread_create(&t, NULL, clearer, buf);
  pthread_join(t, NULL);
  int s = buf[0] + buf[4095];
  printf("%d\n", s);
  free(buf);
  return s == 14 ? 0 : 1;
}
