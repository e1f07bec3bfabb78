// VERDICT: norace
// A buffer grown with realloc between join-ordered workers; each worker appends to the current buffer.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

char *buf;
size_t len;

static void *append(void *arg)
{
  for (int i = 0; i < 100; i++) buf[len++] = (char)('a' + (long)arg);
  return NULL;
}

int main(void)
{
  buf = malloc(100);
  for (long i = 0; i < 4; i++) {
    pthread_t t;
    buf = realloc(buf, (size_t)(i + 2) * 100);
    pthread_create(&t, NULL, append, (void *)i);
    pthread_join(t, NULL);
  }
  printf("%zu %c %c\n", len, buf[0], buf[399]);
  int ok = len == 400 && buf[399] == 'd';
  free(buf);
  return ok ? 0 : 1;
}
