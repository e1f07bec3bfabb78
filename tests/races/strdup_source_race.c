// VERDICT: race
// strdup reads its whole source string: that read races with another thread's unordered write into the string.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'name'
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "invisible_barrier.h"

char name[32] = "goldilocks";
ib_flag renamed, copied;

static void *renamer(void *arg) { name[4] = 'L'; ib_set(&renamed); ib_wait(&copied); return NULL; }

static void *copier(void *arg)
{
  ib_wait(&renamed);
  char *c = strdup(name);
  ib_set(&copied);
  return c;
}

int main(void)
{
  pthread_t a, b;
  void *c;
  pthread_create(&a, NULL, renamer, NULL);
  pthread_create(&b, NULL, copier, NULL);
  pthread_join(a, NULL);
  pthread_join(b, &c);
  printf("%s\n", (char *)c);
  free(c);
  return 0;
}
