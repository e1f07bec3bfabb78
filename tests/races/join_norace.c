// VERDICT: norace
// Creation orders main's earlier writes before the child; join orders the child's writes before main's later reads.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

int input;
int *output;

static void *child(void *arg) { output[0] = input * 2; input = 0; return NULL; }

int main(void)
{
  pthread_t t;
  output = malloc(sizeof *output);
  input = 21;
  pthread_create(&t, NULL, child, NULL);
  pthread_join(t, NULL);
  printf("%d %d\n", output[0], input);
  int ok = output[0] == 42;
  free(output);
  return ok ? 0 : 1;
}
