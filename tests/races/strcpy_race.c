// VERDICT: race
// strcpy writes a destination string that another thread read earlier without ordering.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'title'
// CHECK: writer
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "invisible_barrier.h"

char title[32] = "old title";
char volatile replacement[32] = "a brand new title";
ib_flag read_done, written;

static void *reader(void *arg) { long v = title[2]; ib_set(&read_done); ib_wait(&written); return (void *)v; }
static void *writer(void *arg) { ib_wait(&read_done); strcpy(title, (const char *)replacement); ib_set(&written); return NULL; }

int main(void)
{
  pthread_t a, b;
  pthread_create(&a, NULL, reader, NULL);
  pthread_create(&b, NULL, writer, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("%s\n", title);
  return 0;
}
