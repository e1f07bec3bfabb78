// VERDICT: race
// A finished thread's state is kept for the next thread with its filter as it left it (rt.h,
// filter_epoch_next). A reads x and is joined; B, created next, gets A's state and reads x at
// the same point of its own life (the same epoch number, had B's epochs started from 0 again).
// C, created after A was joined (so ordered after A's read), writes x once B has read it: it
// races with B's read, which A's leftover entry must not hide.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: Previous read of size 8
// CHECK: #0 reader
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

long x;
long seen[2];
ib_flag b_read;

static void *reader(void *arg) {
  long i = (long)arg;
  seen[i] = x;
  if (i == 1)
    ib_set(&b_read);
  return arg;
}

static void *writer(void *arg) {
  ib_wait(&b_read);
  x = 3;                      /* ordered after A's read, not after B's */
  return arg;
}

int main(void) {
  pthread_t a, b, c;
  pthread_create(&a, NULL, reader, (void *)0L);
  pthread_join(a, NULL);
  pthread_create(&b, NULL, reader, (void *)1L);
  pthread_create(&c, NULL, writer, NULL);
  pthread_join(b, NULL);
  pthread_join(c, NULL);
  printf("%ld %ld %ld\n", seen[0], seen[1], x);
  return 0;
}
