// VERDICT: race
// A range read within two granules (what Clang makes of a small memcpy whose size it knows: the
// read_range hook, then a load) takes the runtime's plain-access path; a worker's unordered
// write to one of its bytes is still a race.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: in main
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "invisible_barrier.h"

void __tsan_read_range(void *addr, unsigned long size);

char buf[32];

/* The copy itself, uninstrumented: the hook is the access the runtime sees. */
__attribute__((no_sanitize_thread, noinline)) static void copy_unseen(char *d, const char *s, int n)
{
  for (int i = 0; i < n; i++)
    d[i] = s[i];
}
ib_flag written;

static void *writer(void *arg) { buf[9] = 7; ib_set(&written); return arg; }

int main(void)
{
  pthread_t t;
  pthread_create(&t, NULL, writer, NULL);
  ib_wait(&written);
  char v[5];
  __tsan_read_range(buf + 6, sizeof v);   /* bytes 6-10: both granules */
  copy_unseen(v, buf + 6, sizeof v);
  pthread_join(t, NULL);
  printf("%d\n", v[3]);
  return 0;
}
