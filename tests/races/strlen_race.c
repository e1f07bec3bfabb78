// VERDICT: race
// strlen reads a string up to its terminator while another thread wrote a character in it unorderedly.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'line'
// CHECK: measurer
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "invisible_barrier.h"

char line[64] = "hello, detector";
ib_flag edited, measured;

static void *editor(void *arg) { line[5] = ';'; ib_set(&edited); ib_wait(&measured); return NULL; }
static void *measurer(void *arg) { ib_wait(&edited); size_t n = strlen(line); ib_set(&measured); return (void *)n; }

int main(void)
{
  pthread_t a, b;
  void *n;
  pthread_create(&a, NULL, editor, NULL);
  pthread_create(&b, NULL, measurer, NULL);
  pthread_join(a, NULL);
  pthread_join(b, &n);
  printf("%zu\n", (size_t)n);
  return 0;
}
